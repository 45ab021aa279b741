//! A backtracking matcher with the semantics of Python's `re` for the parsed subset.
//!
//! Alternatives are tried in order and quantifiers are greedy with backtracking, as in `sre`,
//! so the first match found at a position is the one Python finds, with the same groups.
//! Positions are indices into a `[char]`: Python `str` indices. Matching recurses, so the
//! stack it may use is bounded (small enough for any thread Python starts); a text that needs
//! more (a number of hundreds of digit groups) is reported as [`TooDeep`] and the caller uses
//! the Python engine for it.

use super::optimise::{first_chars, optimised};
use super::parse::{Node, Parsed, parse};
use super::relaxed::{Cursor, Relaxed};
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

    pub fn group(&self, index: Option<usize>) -> Span {
        index.and_then(|i| self.spans.get(i).copied().flatten())
    }
}

struct State<'t, U> {
    text: &'t [U],
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
        parsed.root = optimised(parsed.root);
        Ok(Self::of(parsed))
    }

    /// The pattern as parsed, with none of optimise.rs's rewrites nor the skipping of
    /// positions they allow: what the tests hold the rewrites to.
    #[cfg(test)]
    fn unoptimised(pattern: &str, ignore_case: bool) -> Result<Self, String> {
        Ok(Self {
            parsed: parse(pattern, ignore_case)?,
            first: None,
            at_boundary: false,
            lead: None,
        })
    }

    fn of(parsed: Parsed) -> Self {
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
            caps: vec![None; self.parsed.groups + 1],
            base: stack_here(),
            too_deep: false,
        };
        let mut start = from;
        while start <= text.len() {
            if let Some(first) = &self.first {
                let Some(next) = self.next_candidate(first, text, start) else {
                    break;
                };
                start = next;
            } else if self.at_boundary && !boundary(text, start) {
                start += 1;
                continue;
            }
            let at = start;
            start += 1;
            if let Some(found) = self.try_at(&mut state, at)? {
                return Ok(Some(found));
            }
        }
        Ok(None)
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
        if self.at_boundary && !boundary(text, at) {
            return Ok(None);
        }
        if !text.get(at).is_some_and(|c| self.may_start(c.char())) && self.first.is_some() {
            return Ok(None);
        }
        let mut state = State {
            text,
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

    /// Its relaxed form (relaxed.rs), for [`Pattern::find_all_relaxed`] over long texts.
    pub fn relaxed(&self) -> Option<Relaxed> {
        Relaxed::of(&self.parsed.root)
    }

    /// [`Pattern::find_all`], tried only where `relaxed` (this pattern's) says a match may
    /// start; `utf8` is `text` written in UTF-8.
    pub fn find_all_relaxed<U: Unit>(
        &self,
        text: &[U],
        utf8: &str,
        relaxed: &Relaxed,
    ) -> Result<Vec<Match>, TooDeep> {
        let mut found = Vec::new();
        let mut cursor = Cursor::new(utf8, text.len());
        let mut from = 0;
        while from <= text.len() {
            let Some(byte) = relaxed.next_start(utf8.as_bytes(), cursor.byte_of(from)) else {
                break;
            };
            let at = cursor.index_of(byte);
            match self.match_at(text, at)? {
                Some(hit) => {
                    from = if hit.end() > hit.start() {
                        hit.end()
                    } else {
                        hit.end() + 1
                    };
                    found.push(hit);
                }
                None => from = at + 1,
            }
        }
        Ok(found)
    }

    /// Every non-overlapping match, as Python's `finditer` gives them.
    pub fn find_all<U: Unit>(&self, text: &[U]) -> Result<Vec<Match>, TooDeep> {
        let mut found = Vec::new();
        let mut from = 0;
        while from <= text.len() {
            let Some(hit) = self.search(text, from)? else {
                break;
            };
            from = if hit.end() > hit.start() {
                hit.end()
            } else {
                hit.end() + 1
            };
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
        Node::Behind {
            node,
            negative,
            width,
        } => {
            let hit = pos >= *width && run(st, node, pos - width, &mut |_, at| at == pos);
            if st.too_deep {
                return false;
            }
            hit != *negative && then(st, pos)
        }
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
mod tests {
    use super::{Pattern, TooDeep};

    fn chars(text: &str) -> Vec<char> {
        text.chars().collect()
    }

    fn spans(pattern: &str, text: &str) -> Vec<(usize, usize)> {
        let pattern = Pattern::new(pattern, false).unwrap();
        let found = pattern.find_all(&chars(text)).unwrap();
        found.iter().map(|m| (m.start(), m.end())).collect()
    }

    #[test]
    fn backtracks_like_sre() {
        assert_eq!(spans(r"\d+5", "12345"), vec![(0, 5)]);
        assert_eq!(spans(r"(?>\d+)5", "12345"), vec![]);
        assert_eq!(spans(r"\d++\b", "12 345x"), vec![(0, 2)]);
        assert_eq!(spans(r"(?<![\w.])\d+", "a1 .2 3"), vec![(6, 7)]);
        assert_eq!(spans(r"a|ab", "ab"), vec![(0, 1)]);
        assert_eq!(spans(r"(?:ab|a)c", "ac abc"), vec![(0, 2), (3, 6)]);
        assert_eq!(spans(r"x\Z", "xx"), vec![(1, 2)]);
    }

    #[test]
    fn a_leading_lookahead_of_few_strings_is_a_trie_with_the_same_matches() {
        // Expected spans as Python's re.finditer gives them.
        let pattern = r"\b(?=s(?:ec(?:t(?:ion)?)?)?|u(?:s\$|sd)|two|ten)\w+\b";
        assert!(Pattern::new(pattern, false).unwrap().lead.is_some());
        let text = "xsec sect us$ usd ten tens two s";
        assert_eq!(
            spans(pattern, text),
            vec![
                (5, 9),
                (10, 12),
                (14, 17),
                (18, 21),
                (22, 26),
                (27, 30),
                (31, 32)
            ]
        );
    }

    #[test]
    fn groups_hold_the_successful_path_only() {
        let pattern = Pattern::new(r"(?:(?P<a>x)y|x(?P<b>z))", false).unwrap();
        let found = pattern.find_all(&chars("xz")).unwrap();
        let hit = found.first().unwrap();
        assert_eq!(hit.group(pattern.group_index("a")), None);
        assert_eq!(hit.group(pattern.group_index("b")), Some((1, 2)));
    }

    #[test]
    fn python_classes_and_ignore_case() {
        assert_eq!(spans(r"\d+", "x٣٤y"), vec![(1, 3)]);
        let folded = Pattern::new("some", true).unwrap();
        assert_eq!(folded.find_all(&chars("ſome")).unwrap().len(), 1);
        // Caseless non-ASCII class members are allowed under IGNORECASE; cased ones not yet.
        let dashes = Pattern::new(r"[-\u2013\u2014]\s*17", true).unwrap();
        assert_eq!(
            dashes
                .find_all(&chars("2016\u{2013}17, 2016 - 17"))
                .unwrap()
                .len(),
            2
        );
        assert!(Pattern::new("[é]", true).is_err());
        assert!(Pattern::new(r"[\u00e0-\u00ff]", true).is_err());
    }

    /// Texts of the tokens the figure patterns look for, joined at random.
    fn generated_texts(count: usize) -> Vec<Vec<char>> {
        // Split at '|'; the spaces and the newline are tokens too.
        let tokens: Vec<&str> = concat!(
            "5|12|1,500|2024|3.5|,|.| |  |-|\u{2013}|%|$|us$|\u{20ac}|\u{a7}|",
            "percent|per cent|pct|million|bn|m|k|to|days|day|-day|year|old|",
            "consecutive|business|ten|thirty|one|first|third|7th|usd|eur|dollars|",
            "pounds|sterling|section|sec.|(b)|(|)|/|01|about|over|~|x|a|\u{663}|",
            "\u{ff15}|\n",
        )
        .split('|')
        .collect();
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            usize::try_from(seed % 1_000_000).unwrap()
        };
        (0..count)
            .map(|_| {
                let length = 1 + next() % 12;
                let text: String = (0..length)
                    .map(|_| *tokens.get(next() % tokens.len()).unwrap())
                    .collect();
                chars(&text)
            })
            .collect()
    }

    #[test]
    fn the_rewrites_keep_every_match_and_group_of_the_figure_patterns() {
        let tables = crate::figures::testing::extractor().tables().clone();
        let patterns = [
            &tables.symbol_led,
            &tables.word_led,
            &tables.value_part,
            &tables.hedge,
            &tables.any_number,
        ];
        let texts = generated_texts(4000);
        let (mut matched, mut skipped) = (0, 0);
        for (pattern, flag) in patterns {
            let fast = Pattern::new(pattern, *flag).unwrap();
            let plain = Pattern::unoptimised(pattern, *flag).unwrap();
            let relaxed = fast.relaxed().unwrap();
            for text in &texts {
                let fast_found = fast.find_all(text).unwrap();
                let plain_found = plain.find_all(text).unwrap();
                let spans = |found: &[super::Match]| -> Vec<Vec<super::Span>> {
                    found.iter().map(|m| m.spans.clone()).collect()
                };
                let text: String = text.iter().collect();
                assert_eq!(
                    spans(&fast_found),
                    spans(&plain_found),
                    "{pattern} {text:?}"
                );
                if text.is_ascii() {
                    let bytes = fast.find_all(text.as_bytes()).unwrap();
                    assert_eq!(
                        spans(&bytes),
                        spans(&plain_found),
                        "{pattern} {text:?} bytes"
                    );
                }
                let units: Vec<char> = text.chars().collect();
                let tried = fast.find_all_relaxed(&units, &text, &relaxed).unwrap();
                assert_eq!(
                    spans(&tried),
                    spans(&plain_found),
                    "{pattern} {text:?} relaxed"
                );
                if text.is_ascii() {
                    let tried = fast.find_all_relaxed(text.as_bytes(), &text, &relaxed);
                    let tried = tried.unwrap();
                    assert_eq!(
                        spans(&tried),
                        spans(&plain_found),
                        "{pattern} {text:?} bytes"
                    );
                }
                skipped += usize::from(relaxed.next_start(text.as_bytes(), 0).is_none());
                matched += fast_found.len();
            }
        }
        // Texts with matches, and texts the relaxed form rules out: both are tested.
        assert!(
            matched > 3000 && skipped > 1000,
            "{matched} matches, {skipped} texts skipped: the texts test little"
        );
    }

    #[test]
    fn deep_nesting_is_reported_not_overflowed() {
        let text = format!("1{}", ",000".repeat(5000));
        let pattern = Pattern::new(r"\d(?:,\d{3})+", false).unwrap();
        assert_eq!(pattern.find_all(&chars(&text)).err(), Some(TooDeep));
    }
}
