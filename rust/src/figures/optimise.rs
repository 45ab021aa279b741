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
    match starts(node)? {
        Start {
            nullable: false,
            class,
        } => Some(class),
        Start { .. } => None,
    }
}

/// What a node's matches at a position start with: each one either has the text's character
/// there in `class` (it consumes it or looks ahead at it) or, when `nullable`, consumes
/// nothing. So a prefix that may match empty (`\s*` before a unit) adds its characters to
/// what follows instead of hiding them.
struct Start {
    class: Class,
    nullable: bool,
}

fn starts(node: &Node) -> Option<Start> {
    let consuming = |class| Start {
        class,
        nullable: false,
    };
    let empty = || Start {
        class: Class::new(false, Vec::new(), Vec::new()),
        nullable: true,
    };
    Some(match node {
        Node::Char(Set::One(c)) => consuming(Class::of_char(*c)),
        Node::Literal(chars) => match chars.first() {
            Some(&c) => consuming(Class::of_char(c)),
            None => empty(),
        },
        Node::Guard(first, _) => consuming(first.clone()),
        Node::AheadAny(trie) => consuming(trie.first()?),
        Node::Char(Set::Class(class)) => consuming(class.clone()),
        Node::Char(Set::Fold(letter)) => {
            let ranges = chars::folding_to(*letter).into_iter().map(|c| (c, c));
            consuming(Class::new(false, ranges.collect(), Vec::new()))
        }
        // A positive lookahead constrains the character here as its body does.
        Node::Ahead {
            negative: false,
            node,
            ..
        } => starts(node)?,
        Node::Ahead { .. }
        | Node::Behind { .. }
        | Node::Boundary
        | Node::NotBoundary
        | Node::End => empty(),
        Node::Seq(nodes) => {
            let mut so_far = empty();
            for node in nodes {
                let next = starts(node)?;
                so_far.class = so_far.class.union(&next.class)?;
                if !next.nullable {
                    so_far.nullable = false;
                    break;
                }
            }
            so_far
        }
        Node::Alt(_) | Node::Leading(_) => {
            let branches: Vec<&Node> = match node {
                Node::Leading(branches) => branches.iter().map(|(_, node)| node).collect(),
                Node::Alt(branches) => branches.iter().collect(),
                _ => Vec::new(),
            };
            let mut union: Option<Start> = None;
            for node in branches {
                let next = starts(node)?;
                union = Some(match union {
                    None => next,
                    Some(so_far) => Start {
                        class: so_far.class.union(&next.class)?,
                        nullable: so_far.nullable || next.nullable,
                    },
                });
            }
            union.unwrap_or_else(empty)
        }
        Node::Repeat { max: 0, .. } => empty(),
        Node::Repeat { node, min, .. } => {
            let inner = starts(node)?;
            Start {
                class: inner.class,
                nullable: inner.nullable || *min == 0,
            }
        }
        Node::Atomic { node, .. } | Node::Group { node, .. } => starts(node)?,
    })
}
