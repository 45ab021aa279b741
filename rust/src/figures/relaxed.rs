//! Patterns' relaxed forms: what remains of each without lookarounds, word boundaries,
//! atomicity and group captures, run together by a lazy DFA (regex-automata).
//!
//! Every match of a pattern is a match of its relaxed form (each rewrite only drops a
//! condition), so no match of the pattern starts where no relaxed match does: the
//! backtracking matcher is tried only there (not at every digit of a JSON page for the
//! symbol-led shapes). One scan of a text backwards, by the reversed forms of all the
//! patterns, finds every such place: a text with none is done without its characters
//! decoded, and no search is set up per place (a search of the `meta` engine cost about
//! 1,000 instructions to set up, as much as a short text's whole scan). Built from the
//! parsed patterns (parse.rs), with the classes' exact members (crate::chars's tables), so
//! it follows any change of the reference's patterns.

use std::panic::{RefUnwindSafe, UnwindSafe};

use regex_automata::hybrid::LazyStateID;
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::util::pool::Pool;
use regex_automata::{Anchored, Input, MatchKind};
use regex_syntax::hir::{Class as HirClass, ClassUnicode, ClassUnicodeRange, Hir, Repetition};

use super::matcher::{Match, Pattern, TooDeep};
use super::parse::Node;
use super::sets::{Class, Named, Set, Unit};
use crate::chars;

/// A thread's caches of the two automata.
type Caches = (Cache, Cache);
type NewCaches = Box<dyn Fn() -> Caches + Send + Sync + UnwindSafe + RefUnwindSafe>;

/// The places in a text where the patterns' matches may start, found in one scan; one
/// cache per thread.
pub struct Relaxed {
    /// The relaxed forms, forwards: whether a text holds any match (most texts hold none,
    /// and this search is the faster, its loop unrolled).
    any: DFA,
    /// The relaxed forms reversed: every place a match starts, in one scan backwards.
    dfa: DFA,
    /// For each of the automata's patterns (a leading path), which pattern it is of and
    /// its bit there.
    owners: Vec<(usize, u64)>,
    caches: Pool<Caches, NewCaches>,
}

/// Where a pattern's matches may start: each place (ascending) with the bits of the leading
/// paths whose relaxed forms match there.
pub type Starts = Vec<(usize, u64)>;

impl Relaxed {
    /// The relaxed forms of patterns' leading paths, or `None` when one cannot be built
    /// (too big for the automaton).
    pub fn of(patterns: &[&Pattern]) -> Option<Self> {
        let mut forms: Vec<Hir> = Vec::new();
        let mut owners = Vec::new();
        for (owner, pattern) in patterns.iter().enumerate() {
            for (path, node) in pattern.paths().iter().enumerate() {
                forms.push(relaxed(node)?);
                owners.push((owner, 1u64.checked_shl(u32::try_from(path).ok()?)?));
            }
        }
        let automaton = |reverse: bool| {
            let config = thompson::Config::new()
                .reverse(reverse)
                .which_captures(WhichCaptures::None);
            let nfa = thompson::Compiler::new()
                .configure(config)
                .build_many_from_hir(&forms)
                .ok()?;
            // Every match counts: whether one starts at a place is asked, not which is first.
            let config = DFA::config().match_kind(MatchKind::All);
            DFA::builder().configure(config).build_from_nfa(nfa).ok()
        };
        Some(Self::with(automaton(false)?, automaton(true)?, owners))
    }

    fn with(any: DFA, dfa: DFA, owners: Vec<(usize, u64)>) -> Self {
        let (forwards, backwards) = (any.clone(), dfa.clone());
        let new: NewCaches = Box::new(move || (forwards.create_cache(), backwards.create_cache()));
        Self {
            any,
            dfa,
            owners,
            caches: Pool::new(new),
        }
    }

    /// For each pattern, in order, the byte offsets of `haystack` where one of its relaxed
    /// matches starts, with the leading paths that may match there; `None` when the
    /// automaton gives up (the caller then tries every place and path).
    pub fn starts(&self, haystack: &[u8]) -> Option<Vec<Starts>> {
        let mut caches = self.caches.get();
        let (forwards, cache) = &mut *caches;
        let patterns = self.owners.iter().map(|&(owner, _)| owner + 1).max();
        let mut starts = vec![Vec::new(); patterns.unwrap_or(0)];
        if self.any_in(forwards, haystack) == Some(false) {
            return Some(starts);
        }
        let input = Input::new(haystack).anchored(Anchored::No);
        let mut state = self.dfa.start_state_reverse(cache, &input).ok()?;
        let mut at = haystack.len();
        while let Some(&byte) = at.checked_sub(1).and_then(|before| haystack.get(before)) {
            // The hot loop: known transitions between states that are no match.
            if !state.is_tagged() {
                let next = self.dfa.next_state_untagged(cache, state, byte);
                if !next.is_tagged() {
                    state = next;
                    at -= 1;
                    continue;
                }
            }
            state = self.dfa.next_state(cache, state, byte).ok()?;
            at -= 1;
            if state.is_tagged() {
                if state.is_quit() {
                    return None;
                }
                // Matches show one byte late: this one starts after `byte`.
                self.record(cache, state, at + 1, &mut starts);
            }
        }
        state = self.dfa.next_eoi_state(cache, state).ok()?;
        self.record(cache, state, 0, &mut starts);
        for places in &mut starts {
            places.reverse();
        }
        Some(starts)
    }

    /// The first match of `pattern` (this automaton's only pattern) in `text` from `from` on,
    /// as [`Pattern::search`] finds it, tried only where a relaxed match starts: for a short
    /// stretch of a text (the hedge before a figure), whose characters are written out.
    pub fn search<U: Unit>(
        &self,
        pattern: &Pattern,
        text: &[U],
        from: usize,
    ) -> Result<Option<Match>, TooDeep> {
        let rest = text.get(from..).unwrap_or_default();
        let stretch: String = rest.iter().map(|unit| unit.char()).collect();
        let Some(starts) = self.starts(stretch.as_bytes()) else {
            return pattern.search(text, from);
        };
        let mut offsets = stretch.char_indices().map(|(byte, _)| byte).peekable();
        let mut index = 0;
        for &(byte, paths) in starts.first().map(Vec::as_slice).unwrap_or_default() {
            while offsets.next_if(|&offset| offset < byte).is_some() {
                index += 1;
            }
            if let Some(hit) = pattern.match_on(text, from + index, paths)? {
                return Ok(Some(hit));
            }
        }
        Ok(None)
    }

    /// Record `at` with each leading path a match state of the reverse scan says matches
    /// there (for its pattern).
    fn record(&self, cache: &Cache, state: LazyStateID, at: usize, starts: &mut [Starts]) {
        if !state.is_match() {
            return;
        }
        for index in 0..self.dfa.match_len(cache, state) {
            let path = self.dfa.match_pattern(cache, state, index).as_usize();
            let Some(&(owner, bit)) = self.owners.get(path) else {
                continue;
            };
            let Some(places) = starts.get_mut(owner) else {
                continue;
            };
            match places.last_mut() {
                Some((place, paths)) if *place == at => *paths |= bit,
                _ => places.push((at, bit)),
            }
        }
    }

    /// Whether any of the patterns may match somewhere in `haystack`; `None` when the
    /// automaton gives up.
    pub fn may_match(&self, haystack: &[u8]) -> Option<bool> {
        let mut caches = self.caches.get();
        let (forwards, _) = &mut *caches;
        self.any_in(forwards, haystack)
    }

    /// [`Relaxed::may_match`] with the thread's forward cache in hand.
    fn any_in(&self, forwards: &mut Cache, haystack: &[u8]) -> Option<bool> {
        let input = Input::new(haystack).anchored(Anchored::No).earliest(true);
        self.any
            .try_search_fwd(forwards, &input)
            .ok()
            .map(|found| found.is_some())
    }

    /// `pattern`'s [`Pattern::find_all`] (this automaton's only pattern) in `text`, tried
    /// only where a relaxed match starts; `utf8` is `text` written in UTF-8.
    pub fn find_all<U: Unit>(
        &self,
        pattern: &Pattern,
        text: &[U],
        utf8: &str,
    ) -> Result<Vec<Match>, TooDeep> {
        let Some(starts) = self.starts(utf8.as_bytes()) else {
            return pattern.find_all(text);
        };
        let places = starts.first().map(Vec::as_slice).unwrap_or_default();
        if utf8.is_ascii() {
            return tried(pattern, text, places);
        }
        tried(pattern, text, &char_indices(utf8, places))
    }
}

impl Clone for Relaxed {
    fn clone(&self) -> Self {
        Self::with(self.any.clone(), self.dfa.clone(), self.owners.clone())
    }
}

impl std::fmt::Debug for Relaxed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Relaxed")
    }
}

/// `pattern`'s [`Pattern::find_all`], tried only at `places` (ascending) and by their
/// leading paths: where its relaxed forms say a match may start.
pub fn tried<U: Unit>(
    pattern: &Pattern,
    text: &[U],
    places: &[(usize, u64)],
) -> Result<Vec<Match>, TooDeep> {
    let mut found = Vec::new();
    let mut from = 0;
    for &(at, paths) in places {
        if at < from {
            continue;
        }
        if let Some(hit) = pattern.match_on(text, at, paths)? {
            from = hit.resume_at();
            found.push(hit);
        }
    }
    Ok(found)
}

/// Whether no pattern's match may start anywhere.
pub fn none(starts: &[Starts]) -> bool {
    starts.iter().all(Vec::is_empty)
}

/// The places at byte offsets of `text` (ascending, on character boundaries) at their
/// character indices.
pub fn char_indices(text: &str, places: &[(usize, u64)]) -> Starts {
    let mut indices = Vec::with_capacity(places.len());
    let mut chars = text
        .char_indices()
        .map(|(byte, _)| byte)
        .enumerate()
        .peekable();
    for &(offset, paths) in places {
        while chars.next_if(|&(_, byte)| byte < offset).is_some() {}
        let index = chars
            .peek()
            .map_or_else(|| text.chars().count(), |&(index, _)| index);
        indices.push((index, paths));
    }
    indices
}

fn relaxed(node: &Node) -> Option<Hir> {
    Some(match node {
        Node::Char(set) => Hir::class(HirClass::Unicode(set_members(set))),
        Node::Literal(chars) => Hir::literal(chars.iter().collect::<String>().into_bytes()),
        // Conditions on the text around: dropping one only lets more through.
        Node::AheadAny(_)
        | Node::Ahead { .. }
        | Node::Behind { .. }
        | Node::Boundary
        | Node::NotBoundary
        | Node::End => Hir::empty(),
        Node::Guard(_, node) | Node::Atomic { node, .. } | Node::Group { node, .. } => {
            relaxed(node)?
        }
        Node::Seq(nodes) => Hir::concat(nodes.iter().map(relaxed).collect::<Option<_>>()?),
        Node::Alt(nodes) => Hir::alternation(nodes.iter().map(relaxed).collect::<Option<_>>()?),
        Node::Leading(branches) => Hir::alternation(
            branches
                .iter()
                .map(|(_, node)| relaxed(node))
                .collect::<Option<_>>()?,
        ),
        Node::Repeat { node, min, max } => Hir::repetition(Repetition {
            // A bound beyond u32 is widened: still every match.
            min: u32::try_from(*min).unwrap_or(0),
            max: u32::try_from(*max).ok(),
            greedy: true,
            sub: Box::new(relaxed(node)?),
        }),
    })
}

fn ranges(pairs: impl IntoIterator<Item = (char, char)>) -> ClassUnicode {
    ClassUnicode::new(pairs.into_iter().map(|(a, b)| ClassUnicodeRange::new(a, b)))
}

fn set_members(set: &Set) -> ClassUnicode {
    match set {
        Set::One(c) => ranges([(*c, *c)]),
        Set::Fold(letter) => ranges(chars::folding_to(*letter).into_iter().map(|c| (c, c))),
        Set::Class(class) => class_members(class),
    }
}

/// The members of a class, as `Class::has` answers.
fn class_members(class: &Class) -> ClassUnicode {
    let mut members = ranges(class.ranges().iter().copied());
    for &(which, negated) in class.named() {
        let mut set = named_members(which);
        if negated {
            set.negate();
        }
        members.union(&set);
    }
    if class.negated() {
        members.negate();
    }
    members
}

/// `\d`, `\w` or `\s`: the ASCII members by the rule, the others from the table.
fn named_members(which: Named) -> ClassUnicode {
    let test: fn(char) -> bool = match which {
        Named::Digit => chars::is_decimal,
        Named::Word => chars::is_word,
        Named::Space => chars::is_space,
    };
    let table: &[(u32, u32)] = match which {
        Named::Digit => &chars::tables::DECIMAL,
        Named::Word => &chars::tables::WORD,
        Named::Space => &chars::tables::SPACE,
    };
    let ascii = (0u8..128).map(char::from).filter(|&c| test(c));
    let mut members = ranges(ascii.map(|c| (c, c)));
    let table = table
        .iter()
        .filter_map(|&(a, b)| Some((char::from_u32(a)?, char::from_u32(b)?)));
    members.union(&ranges(table));
    members
}
