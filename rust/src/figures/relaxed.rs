//! A pattern's relaxed form: what remains of it without lookarounds, word boundaries,
//! atomicity and group captures, run by a lazy DFA (regex-automata).
//!
//! Every match of the pattern is a match of its relaxed form (each rewrite only drops a
//! condition), so no match of the pattern starts before the leftmost start of a relaxed
//! match: the backtracking matcher is tried there only, not at each position a pattern's
//! first characters allow (every digit of a JSON page for the symbol-led shapes). Built
//! from the parsed pattern (parse.rs), with the classes' exact members (crate::chars's
//! tables), so it follows any change of the reference's patterns.

use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input};
use regex_syntax::hir::{Class as HirClass, ClassUnicode, ClassUnicodeRange, Hir, Repetition};

use super::matcher::{Match, Pattern, TooDeep};
use super::parse::Node;
use super::sets::{Class, Named, Set, Unit};
use crate::chars;

/// A finder of the places a pattern's match may start.
#[derive(Debug, Clone)]
pub struct Relaxed {
    regex: Regex,
}

impl Relaxed {
    /// `None` when the relaxed form cannot be built (too big for the automaton).
    pub fn of(root: &Node) -> Option<Self> {
        // Only where a match starts is asked: none of the engines that would only report
        // captures faster.
        let config = Regex::config().onepass(false).backtrack(false).dfa(false);
        let regex = Regex::builder()
            .configure(config)
            .build_from_hir(&relaxed(root)?)
            .ok()?;
        Some(Self { regex })
    }

    /// `pattern`'s [`Pattern::find_all`] (this is its relaxed form), tried only where a
    /// match may start; `utf8` is `text` written in UTF-8.
    pub fn find_all<U: Unit>(
        &self,
        pattern: &Pattern,
        text: &[U],
        utf8: &str,
    ) -> Result<Vec<Match>, TooDeep> {
        let mut found = Vec::new();
        let mut cursor = Cursor::new(utf8, text.len());
        let mut from = 0;
        while from <= text.len() {
            let Some(byte) = self.next_start(utf8.as_bytes(), cursor.byte_of(from)) else {
                break;
            };
            let at = cursor.index_of(byte);
            match pattern.match_at(text, at)? {
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

    /// The byte offset of the leftmost start of a relaxed match at `from` or later.
    pub fn next_start(&self, haystack: &[u8], from: usize) -> Option<usize> {
        let input = Input::new(haystack)
            .range(from..)
            .anchored(Anchored::No)
            .earliest(false);
        self.regex.search(&input).map(|found| found.start())
    }
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

/// Character indices to byte offsets of a text and back, for positions that only grow.
struct Cursor<'a> {
    text: &'a str,
    ascii: bool,
    index: usize,
    byte: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str, units: usize) -> Self {
        Self {
            text,
            ascii: text.len() == units,
            index: 0,
            byte: 0,
        }
    }

    fn advance(&mut self) -> bool {
        let next = self
            .text
            .get(self.byte..)
            .and_then(|rest| rest.chars().next());
        next.inspect(|c| {
            self.byte += c.len_utf8();
            self.index += 1;
        })
        .is_some()
    }

    /// The byte offset of character `index` (no smaller than the last asked about).
    fn byte_of(&mut self, index: usize) -> usize {
        if self.ascii {
            return index;
        }
        while self.index < index && self.advance() {}
        self.byte
    }

    /// The character index at byte offset `byte` (no smaller than the last asked about).
    fn index_of(&mut self, byte: usize) -> usize {
        if self.ascii {
            return byte;
        }
        while self.byte < byte && self.advance() {}
        self.index
    }
}
