//! A pattern's leading alternatives: the alternations its matches reach before consuming a
//! character (the symbol-led pattern's eight shapes, the word-led one's four), each branch
//! tried only where the relaxed form of a path through it matches.
//!
//! A leading path is the pattern with each leading alternation resolved to one branch. A
//! match of the pattern takes one path, so it is a match of that path's relaxed form; where
//! no path through a branch has a relaxed match starting, the branch cannot match, and
//! skipping it changes no match (the first branch that matches is the same one). The
//! relaxed forms of all the paths run in one automaton (relaxed.rs), which tells, for each
//! place, the bits of the paths that may start there: a number is then not tried as a
//! percentage, a period or an amount before it is tried as a number.

use super::parse::Node;

/// The most leading paths a pattern may have (the bits of a `u64`).
const MOST: usize = 64;

/// `root` with its leading alternations made [`Node::Leading`], and its leading paths (path
/// `i` has bit `1 << i`); `root` as it is and itself as the one path when it has more than
/// [`MOST`].
pub fn leading(root: Node) -> (Node, Vec<Node>) {
    let mut paths = Vec::new();
    let marked = expand(&root, &mut paths);
    if paths.len() > MOST {
        return (root.clone(), vec![root]);
    }
    (marked, paths)
}

/// `node` with its leading alternations marked; its leading paths are pushed to `paths`.
/// A group is not looked into: the shapes are the alternations outside any group (each
/// shape's own alternatives, as the twenty ordinals of a streak, would make as many paths).
fn expand(node: &Node, paths: &mut Vec<Node>) -> Node {
    match node {
        Node::Alt(branches) => Node::Leading(
            branches
                .iter()
                .map(|branch| {
                    let first = paths.len();
                    let marked = expand(branch, paths);
                    (bits(first, paths.len()), marked)
                })
                .collect(),
        ),
        Node::Seq(nodes) => {
            // The first node that may consume: the nodes before it only look.
            let at = nodes.iter().position(|node| !looks_only(node));
            let Some((at, lead)) = at.and_then(|at| Some((at, nodes.get(at)?))) else {
                paths.push(node.clone());
                return node.clone();
            };
            let first = paths.len();
            let marked = expand(lead, paths);
            let with = |lead: Node| {
                let mut nodes = nodes.clone();
                if let Some(slot) = nodes.get_mut(at) {
                    *slot = lead;
                }
                Node::Seq(nodes)
            };
            for path in paths.iter_mut().skip(first) {
                *path = with(std::mem::replace(path, Node::Seq(Vec::new())));
            }
            with(marked)
        }
        Node::Guard(class, inner) => {
            let first = paths.len();
            let marked = expand(inner, paths);
            for path in paths.iter_mut().skip(first) {
                let inner = std::mem::replace(path, Node::Seq(Vec::new()));
                *path = Node::Guard(class.clone(), Box::new(inner));
            }
            Node::Guard(class.clone(), Box::new(marked))
        }
        other => {
            paths.push(other.clone());
            other.clone()
        }
    }
}

/// Whether a node consumes nothing (a lookaround, a boundary).
fn looks_only(node: &Node) -> bool {
    matches!(
        node,
        Node::Ahead { .. }
            | Node::AheadAny(_)
            | Node::Behind { .. }
            | Node::Boundary
            | Node::NotBoundary
    )
}

/// The bits of paths `from..to` (none past [`MOST`]: the caller then drops them all).
fn bits(from: usize, to: usize) -> u64 {
    (from..to.min(MOST)).fold(0, |mask, path| mask | 1u64 << path)
}
