//! A backtracking matcher with the semantics of Python's `re` for the parsed subset.
//!
//! Alternatives are tried in order and quantifiers are greedy with backtracking, as in `sre`,
//! so the first match found at a position is the one Python finds, with the same groups.
//! Positions are indices into a `[char]`: Python `str` indices. Matching recurses, so the
//! stack it may use is bounded (small enough for any thread Python starts); a text that needs
//! more (a number of hundreds of digit groups) is reported as [`TooDeep`] and the caller uses
//! the Python engine for it.

use super::leading::leading;
use super::optimise::{first_chars, optimised};
use super::parse::{Node, Parsed, parse};
use super::sets::{Class, Trie, Unit};
use crate::chars;

/// Matching needed more nesting than the bound allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooDeep;

/// Bytes of stack one match may use.
const STACK_BUDGET: usize = 256 * 1024;

pub type Span = Option<(usize, usize)>;

/// A compiled pattern.
#[derive(Debug, Clone)]
pub struct Pattern {
    parsed: Parsed,
    /// Every match starts with one of these characters (when known): positions are
    /// rejected with one test.
    first: Option<Class>,
    /// Every match starts at a word boundary (`\b` leads the pattern).
    at_boundary: bool,
    /// Every match starts with one of these strings (a lookahead leads the pattern).
    lead: Option<Trie>,
    /// Its leading paths (leading.rs): path `i` is bit `1 << i` of a [`Node::Leading`].
    paths: Vec<Node>,
}

/// One match: the spans of group 0 (the whole match) and of each group.
#[derive(Debug, Clone)]
pub struct Match {
    pub spans: Vec<Span>,
}

impl Match {
    pub fn start(&self) -> usize {
        self.spans.first().copied().flatten().map_or(0, |(s, _)| s)
    }

    pub fn end(&self) -> usize {
        self.spans.first().copied().flatten().map_or(0, |(_, e)| e)
    }

    /// Where `finditer` looks for the next match: at this one's end, one further when it
    /// is empty.
    pub fn resume_at(&self) -> usize {
        if self.end() > self.start() {
            self.end()
        } else {
            self.end() + 1
        }
    }

    pub fn group(&self, index: Option<usize>) -> Span {
        index.and_then(|i| self.spans.get(i).copied().flatten())
    }
}

struct State<'t, U> {
    text: &'t [U],
    /// The leading paths that may match here: a [`Node::Leading`]'s other branches are not
    /// tried.
    allowed: u64,
    caps: Vec<Span>,
    /// Where the stack was when matching started.
    base: usize,
    too_deep: bool,
}

/// An address on the current stack frame (the stack grows down on every platform Rust
/// targets for CPython, but only the distance is used).
fn stack_here() -> usize {
    let marker = 0u8;
    std::ptr::addr_of!(marker) as usize
}

type Then<'k, 't, U> = &'k mut dyn FnMut(&mut State<'t, U>, usize) -> bool;

impl Pattern {
    pub fn new(pattern: &str, ignore_case: bool) -> Result<Self, String> {
        let mut parsed = parse(pattern, ignore_case)?;
        let (root, paths) = leading(optimised(parsed.root));
        parsed.root = root;
        Ok(Self::of(parsed, paths))
    }

    /// The pattern as parsed, with none of optimise.rs's rewrites nor the skipping of
    /// positions they allow: what the tests hold the rewrites to.
    #[cfg(test)]
    fn unoptimised(pattern: &str, ignore_case: bool) -> Result<Self, String> {
        let parsed = parse(pattern, ignore_case)?;
        Ok(Self {
            paths: vec![parsed.root.clone()],
            parsed,
            first: None,
            at_boundary: false,
            lead: None,
        })
    }

    fn of(parsed: Parsed, paths: Vec<Node>) -> Self {
        let first = first_chars(&parsed.root);
        let leading = match &parsed.root {
            Node::Seq(nodes) => nodes.as_slice(),
            _ => &[],
        };
        let at_boundary = matches!(leading.first(), Some(Node::Boundary));
        let lead = leading
            .iter()
            .find(|node| !matches!(node, Node::Boundary))
            .and_then(|node| match node {
                Node::AheadAny(trie) => Some(trie.clone()),
                _ => None,
            });
        Self {
            parsed,
            first,
            at_boundary,
            lead,
            paths,
        }
    }

    /// The index of the group named `name`.
    pub fn group_index(&self, name: &str) -> Option<usize> {
        self.parsed
            .names
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, index)| index)
    }

    /// The first match starting at `from` or later, in `text` (which ends where the search
    /// must end, as `endpos` does in Python); lookbehinds see before `from`.
    pub fn search<U: Unit>(&self, text: &[U], from: usize) -> Result<Option<Match>, TooDeep> {
        let mut state = State {
            text,
            allowed: u64::MAX,
            caps: vec![None; self.parsed.groups + 1],
            base: stack_here(),
            too_deep: false,
        };
        let mut start = from;
        while let Some(at) = self.next_start(text, start) {
            start = at + 1;
            if let Some(found) = self.try_at(&mut state, at)? {
                return Ok(Some(found));
            }
        }
        Ok(None)
    }

    /// The first position from `from` where a match may start, as the pattern's first
    /// characters, its leading `\b` and its leading lookahead tell (no other is tried).
    pub fn next_start<U: Unit>(&self, text: &[U], from: usize) -> Option<usize> {
        let mut start = from;
        while start <= text.len() {
            let at = match &self.first {
                Some(first) => self.next_candidate(first, text, start)?,
                None if self.at_boundary && !boundary(text, start) => {
                    start += 1;
                    continue;
                }
                None => start,
            };
            let rest = text.get(at..).unwrap_or(&[]);
            if self.lead.as_ref().is_none_or(|lead| lead.starts(rest)) {
                return Some(at);
            }
            start = at + 1;
        }
        None
    }

    /// Whether a match may start with `c` (any character, when the pattern does not say).
    pub fn may_start(&self, c: char) -> bool {
        self.first.as_ref().is_none_or(|first| first.has(c))
    }

    /// Whether every match starts with an ASCII character (the pattern says which).
    pub fn starts_ascii(&self) -> bool {
        self.first.as_ref().is_some_and(Class::ascii_only)
    }

    /// The match that starts at `at` exactly, as [`Pattern::search`] would find it there.
    pub fn match_at<U: Unit>(&self, text: &[U], at: usize) -> Result<Option<Match>, TooDeep> {
        self.match_on(text, at, u64::MAX)
    }

    /// [`Pattern::match_at`] where only the leading paths of `allowed` may match (the others
    /// cannot: their relaxed forms do not match there).
    pub fn match_on<U: Unit>(
        &self,
        text: &[U],
        at: usize,
        allowed: u64,
    ) -> Result<Option<Match>, TooDeep> {
        if self.at_boundary && !boundary(text, at) {
            return Ok(None);
        }
        if !text.get(at).is_some_and(|c| self.may_start(c.char())) && self.first.is_some() {
            return Ok(None);
        }
        let mut state = State {
            text,
            allowed,
            caps: vec![None; self.parsed.groups + 1],
            base: stack_here(),
            too_deep: false,
        };
        self.try_at(&mut state, at)
    }

    fn try_at<'t, U: Unit>(
        &self,
        state: &mut State<'t, U>,
        at: usize,
    ) -> Result<Option<Match>, TooDeep> {
        if let Some(lead) = &self.lead {
            if !lead.starts(state.text.get(at..).unwrap_or(&[])) {
                return Ok(None);
            }
        }
        let mut end = None;
        let found = run(state, &self.parsed.root, at, &mut |_, at| {
            end = Some(at);
            true
        });
        if state.too_deep {
            return Err(TooDeep);
        }
        if let (true, Some(end)) = (found, end) {
            let mut spans = std::mem::take(&mut state.caps);
            if let Some(whole) = spans.first_mut() {
                *whole = Some((at, end));
            }
            return Ok(Some(Match { spans }));
        }
        Ok(None)
    }

    /// The next position from `start` holding a possible first character (and at a word
    /// boundary, when the pattern starts with one): the hot loop of a text without figures.
    fn next_candidate<U: Unit>(&self, first: &Class, text: &[U], start: usize) -> Option<usize> {
        let rest = text.get(start..)?;
        if !self.at_boundary {
            return rest
                .iter()
                .position(|c| first.has(c.char()))
                .map(|skip| start + skip);
        }
        let mut before = start > 0 && word_at(text, start - 1);
        for (skip, c) in rest.iter().enumerate() {
            let c = c.char();
            let word = chars::is_word(c);
            if word != before && first.has(c) {
                return Some(start + skip);
            }
            before = word;
        }
        None
    }

    /// Its parsed tree, with its leading alternations marked.
    pub fn tree(&self) -> &Node {
        &self.parsed.root
    }

    /// Its leading paths (leading.rs): relaxed.rs builds their relaxed forms.
    pub fn paths(&self) -> &[Node] {
        &self.paths
    }

    /// Every non-overlapping match, as Python's `finditer` gives them.
    pub fn find_all<U: Unit>(&self, text: &[U]) -> Result<Vec<Match>, TooDeep> {
        let mut found = Vec::new();
        let mut from = 0;
        while from <= text.len() {
            let Some(hit) = self.search(text, from)? else {
                break;
            };
            from = hit.resume_at();
            found.push(hit);
        }
        Ok(found)
    }
}

fn word_at<U: Unit>(text: &[U], at: usize) -> bool {
    text.get(at).is_some_and(|c| chars::is_word(c.char()))
}

/// Where `chars` ends when it is written at `pos`.
#[inline]
fn literal_at<U: Unit>(text: &[U], chars: &[char], pos: usize) -> Option<usize> {
    let end = pos + chars.len();
    let here = text.get(pos..end)?;
    here.iter()
        .zip(chars)
        .all(|(unit, &c)| unit.char() == c)
        .then_some(end)
}

/// `\b` at `pos`. As sre: an empty text has no boundary; the edges count as non-word.
fn boundary<U: Unit>(text: &[U], pos: usize) -> bool {
    let before = pos > 0 && word_at(text, pos - 1);
    !text.is_empty() && before != word_at(text, pos)
}

fn run<'t, U: Unit>(st: &mut State<'t, U>, node: &Node, pos: usize, then: Then<'_, 't, U>) -> bool {
    if st.too_deep || st.base.abs_diff(stack_here()) > STACK_BUDGET {
        st.too_deep = true;
        return false;
    }
    step(st, node, pos, then) && !st.too_deep
}

fn step<'t, U: Unit>(
    st: &mut State<'t, U>,
    node: &Node,
    pos: usize,
    then: Then<'_, 't, U>,
) -> bool {
    match node {
        Node::Char(set) => match st.text.get(pos) {
            Some(c) if set.has(c.char()) => then(st, pos + 1),
            _ => false,
        },
        Node::Literal(chars) => match literal_at(st.text, chars, pos) {
            Some(end) => then(st, end),
            None => false,
        },
        Node::AheadAny(trie) => trie.starts(st.text.get(pos..).unwrap_or(&[])) && then(st, pos),
        Node::Guard(first, node) => match st.text.get(pos) {
            Some(c) if first.has(c.char()) => step(st, node, pos, then),
            _ => false,
        },
        Node::Seq(nodes) => sequence(st, nodes, pos, then),
        Node::Alt(nodes) => {
            // Guards are tested here, not in a call each: most branches fail on their first
            // character.
            let next = st.text.get(pos).map(|unit| unit.char());
            nodes.iter().any(|branch| match branch {
                Node::Guard(first, node) => {
                    next.is_some_and(|c| first.has(c)) && run(st, node, pos, then)
                }
                other => run(st, other, pos, then),
            })
        }
        Node::Leading(branches) => {
            let next = st.text.get(pos).map(|unit| unit.char());
            branches.iter().any(|(paths, branch)| {
                st.allowed & paths != 0
                    && match branch {
                        Node::Guard(first, node) => {
                            next.is_some_and(|c| first.has(c)) && run(st, node, pos, then)
                        }
                        other => run(st, other, pos, then),
                    }
            })
        }
        Node::Repeat { node, min, max } => {
            if let Node::Char(set) = node.as_ref() {
                let available = st.text.get(pos..).unwrap_or(&[]);
                let count = available
                    .iter()
                    .take(*max)
                    .take_while(|c| set.has(c.char()))
                    .count();
                (*min..=count).rev().any(|taken| then(st, pos + taken))
            } else {
                repeat(st, node, *min, *max, 0, pos, then)
            }
        }
        Node::Atomic { node, groups } => {
            let saved = groups.then(|| st.caps.clone());
            let mut end = None;
            if !run(st, node, pos, &mut |_, at| {
                end = Some(at);
                true
            }) {
                return false;
            }
            let Some(end) = end else { return false };
            if then(st, end) {
                return true;
            }
            if let Some(saved) = saved {
                st.caps = saved;
            }
            false
        }
        Node::Ahead {
            node,
            negative,
            groups,
        } => {
            let saved = groups.then(|| st.caps.clone());
            let hit = run(st, node, pos, &mut |_, _| true);
            if st.too_deep {
                return false;
            }
            if *negative {
                if let Some(saved) = saved {
                    st.caps = saved;
                }
                return !hit && then(st, pos);
            }
            if hit && then(st, pos) {
                return true;
            }
            if let Some(saved) = saved {
                st.caps = saved;
            }
            false
        }
        // Never captures: settled in place as in a sequence.
        Node::Behind { .. } => settled(st, node, pos)
            .flatten()
            .is_some_and(|at| then(st, at)),
        Node::Group { index, node } => {
            let index = *index;
            run(st, node, pos, &mut |st, end| {
                let old = st.caps.get(index).copied().flatten();
                if let Some(slot) = st.caps.get_mut(index) {
                    *slot = Some((pos, end));
                }
                if then(st, end) {
                    return true;
                }
                if let Some(slot) = st.caps.get_mut(index) {
                    *slot = old;
                }
                false
            })
        }
        Node::Boundary | Node::NotBoundary => {
            boundary(st.text, pos) == matches!(node, Node::Boundary) && then(st, pos)
        }
        Node::End => pos == st.text.len() && then(st, pos),
    }
}

/// Where a node that can match in one way only (a character, a literal, an assertion on
/// characters) ends when it matches at `pos`; `Some(None)` when it fails there, `None` for
/// any other node.
fn single<U: Unit>(text: &[U], node: &Node, pos: usize) -> Option<Option<usize>> {
    let end = match node {
        Node::Char(set) => text
            .get(pos)
            .is_some_and(|c| set.has(c.char()))
            .then_some(pos + 1),
        Node::Literal(chars) => literal_at(text, chars, pos),
        Node::AheadAny(trie) => trie.starts(text.get(pos..).unwrap_or(&[])).then_some(pos),
        Node::Boundary => boundary(text, pos).then_some(pos),
        Node::NotBoundary => (!boundary(text, pos)).then_some(pos),
        Node::End => (pos == text.len()).then_some(pos),
        _ => return None,
    };
    Some(end)
}

/// Where a node that settles on one way to match without setting groups (an atomic group,
/// a lookaround) ends when it matches at `pos`; `Some(None)` when it fails there, `None` for
/// any other node. What follows it in a sequence then runs here, not in a closure of it.
fn settled<U: Unit>(st: &mut State<'_, U>, node: &Node, pos: usize) -> Option<Option<usize>> {
    let end = match node {
        Node::Atomic {
            node,
            groups: false,
        } => {
            let mut end = None;
            run(st, node, pos, &mut |_, at| {
                end = Some(at);
                true
            });
            end
        }
        Node::Ahead {
            node,
            negative,
            groups: false,
        } => {
            let hit = run(st, node, pos, &mut |_, _| true);
            (hit != *negative).then_some(pos)
        }
        Node::Behind {
            node,
            negative,
            width,
        } => {
            let hit = pos >= *width && run(st, node, pos - width, &mut |_, at| at == pos);
            (hit != *negative).then_some(pos)
        }
        _ => return None,
    };
    // Too deep: fail here; `run` reports it.
    Some(end.filter(|_| !st.too_deep))
}

fn sequence<'t, U: Unit>(
    st: &mut State<'t, U>,
    nodes: &[Node],
    pos: usize,
    then: Then<'_, 't, U>,
) -> bool {
    // Nodes with one way to match are stepped over here: no call, nothing to backtrack into.
    let mut pos = pos;
    let mut nodes = nodes;
    while let Some((first, rest)) = nodes.split_first() {
        match single(st.text, first, pos).or_else(|| settled(st, first, pos)) {
            Some(Some(end)) => {
                pos = end;
                nodes = rest;
            }
            Some(None) => return false,
            None => break,
        }
    }
    match nodes.split_first() {
        None => then(st, pos),
        Some((first, [])) => run(st, first, pos, then),
        Some((first, rest)) => run(st, first, pos, &mut |st, at| sequence(st, rest, at, then)),
    }
}

fn repeat<'t, U: Unit>(
    st: &mut State<'t, U>,
    node: &Node,
    min: usize,
    max: usize,
    count: usize,
    pos: usize,
    then: Then<'_, 't, U>,
) -> bool {
    if count < min {
        return run(st, node, pos, &mut |st, at| {
            repeat(st, node, min, max, count + 1, at, then)
        });
    }
    // As sre: an iteration that matched nothing ends the repetition.
    if count < max
        && run(st, node, pos, &mut |st, at| {
            at != pos && repeat(st, node, min, max, count + 1, at, then)
        })
    {
        return true;
    }
    !st.too_deep && then(st, pos)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap (Cargo.toml)
mod tests;
