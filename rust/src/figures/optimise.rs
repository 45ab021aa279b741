//! Rewrites of a parsed pattern that match the same, faster: literals in one step, each
//! alternative guarded by its first characters, a lookahead of few strings as a trie.

use super::parse::Node;
use super::sets::{Class, Set, Trie};
use crate::chars;

/// The same pattern, faster to run: characters in a row become one `Literal`, and each
/// alternative is guarded by the characters it can start with.
pub fn optimised(node: Node) -> Node {
    match node {
        Node::Seq(nodes) => {
            let mut merged: Vec<Node> = Vec::with_capacity(nodes.len());
            for node in nodes.into_iter().map(optimised) {
                match (merged.last_mut(), node) {
                    (Some(Node::Literal(chars)), Node::Char(Set::One(c))) => chars.push(c),
                    (_, Node::Char(Set::One(c))) => merged.push(Node::Literal(vec![c])),
                    (_, other) => merged.push(other),
                }
            }
            Node::Seq(merged)
        }
        Node::Alt(branches) => Node::Alt(
            branches
                .into_iter()
                .map(|branch| {
                    let branch = optimised(branch);
                    match first_chars(&branch) {
                        Some(first) => Node::Guard(first, Box::new(branch)),
                        None => branch,
                    }
                })
                .collect(),
        ),
        Node::Repeat { node, min, max } => {
            let node = optimised(*node);
            let node = match (&node, first_chars(&node)) {
                (Node::Char(_), _) | (_, None) => node,
                (_, Some(first)) => Node::Guard(first, Box::new(node)),
            };
            Node::Repeat {
                node: Box::new(node),
                min,
                max,
            }
        }
        Node::Atomic { node, groups } => Node::Atomic {
            node: Box::new(optimised(*node)),
            groups,
        },
        Node::Ahead {
            node,
            negative,
            groups,
        } => {
            let node = optimised(*node);
            match (negative, groups, strings(&node, LANGUAGE_LIMIT)) {
                (false, false, Some(strings)) => Node::AheadAny(Trie::new(&strings)),
                _ => Node::Ahead {
                    node: Box::new(node),
                    negative,
                    groups,
                },
            }
        }
        Node::Behind {
            node,
            negative,
            width,
        } => Node::Behind {
            node: Box::new(optimised(*node)),
            negative,
            width,
        },
        Node::Group { index, node } => Node::Group {
            index,
            node: Box::new(optimised(*node)),
        },
        other => other,
    }
}

/// The most strings a lookahead is expanded to (the word-led pattern's lead has ~70).
const LANGUAGE_LIMIT: usize = 2000;

/// Every string `node` can match, when they are few (`None` otherwise).
fn strings(node: &Node, limit: usize) -> Option<Vec<Vec<char>>> {
    let found = match node {
        Node::Literal(chars) => vec![chars.clone()],
        Node::Char(Set::One(c)) => vec![vec![*c]],
        Node::Guard(_, node) => strings(node, limit)?,
        Node::Alt(branches) => {
            let mut all = Vec::new();
            for branch in branches {
                all.extend(strings(branch, limit)?);
            }
            all
        }
        Node::Seq(nodes) => {
            let mut all = vec![Vec::new()];
            for node in nodes {
                let tails = strings(node, limit)?;
                let mut next = Vec::with_capacity(all.len() * tails.len());
                for head in &all {
                    for tail in &tails {
                        let mut joined = head.clone();
                        joined.extend(tail.iter().copied());
                        next.push(joined);
                    }
                }
                if next.len() > limit {
                    return None;
                }
                all = next;
            }
            all
        }
        Node::Repeat {
            node,
            min: 0,
            max: 1,
        } => {
            let mut all = vec![Vec::new()];
            all.extend(strings(node, limit)?);
            all
        }
        _ => return None,
    };
    (found.len() <= limit).then_some(found)
}

/// The characters every match must start with, when the pattern says so.
pub fn first_chars(node: &Node) -> Option<Class> {
    match node {
        Node::Char(Set::One(c)) => Some(Class::of_char(*c)),
        Node::Literal(chars) => chars.first().map(|&c| Class::of_char(c)),
        Node::Guard(first, _) => Some(first.clone()),
        Node::AheadAny(trie) => trie.first(),
        Node::Char(Set::Class(class)) => Some(class.clone()),
        Node::Char(Set::Fold(letter)) => {
            let ranges = chars::folding_to(*letter).into_iter().map(|c| (c, c));
            Some(Class::new(false, ranges.collect(), Vec::new()))
        }
        Node::Seq(nodes) => {
            for node in nodes {
                match node {
                    Node::Ahead {
                        negative: false,
                        node,
                        ..
                    } => return first_chars(node),
                    Node::AheadAny(trie) => return trie.first(),
                    Node::Ahead { .. }
                    | Node::Behind { .. }
                    | Node::Boundary
                    | Node::NotBoundary => {}
                    other => return first_chars(other),
                }
            }
            None
        }
        Node::Alt(nodes) => {
            let mut union: Option<Class> = None;
            for node in nodes {
                let first = first_chars(node)?;
                union = Some(match union {
                    None => first,
                    Some(so_far) => so_far.union(&first)?,
                });
            }
            union
        }
        Node::Repeat { node, min, .. } if *min > 0 => first_chars(node),
        Node::Atomic { node, .. } | Node::Group { node, .. } => first_chars(node),
        _ => None,
    }
}
