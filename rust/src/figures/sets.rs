//! The character tests of a parsed pattern, and the string sets a lookahead becomes.

use std::sync::OnceLock;

use crate::chars;

/// A unit of a text the matcher runs on: a `char`, or a byte of a text known to be ASCII
/// (most texts; they need no `[char]` copy). A byte above 0x7f is never passed as a unit.
pub trait Unit: Copy {
    fn char(self) -> char;
}

impl Unit for char {
    #[inline]
    fn char(self) -> char {
        self
    }
}

impl Unit for u8 {
    #[inline]
    fn char(self) -> char {
        char::from(self)
    }
}

/// One character test.
#[derive(Debug, Clone)]
pub enum Set {
    One(char),
    /// An ASCII letter under `re.IGNORECASE` (lower case).
    Fold(u8),
    Class(Class),
}

#[derive(Debug, Clone, Copy)]
pub enum Named {
    Digit,
    Word,
    Space,
}

#[derive(Debug, Clone)]
pub struct Class {
    negated: bool,
    ranges: Vec<(char, char)>,
    named: Vec<(Named, bool)>, // (class, negated): `\d`, `\W`, ...
    ascii: u128,               // the answer for each ASCII character, precomputed
}

impl Class {
    pub fn new(negated: bool, ranges: Vec<(char, char)>, named: Vec<(Named, bool)>) -> Self {
        // The answer for each ASCII character, as `slow` gives it, a mask at a time (a
        // figure's anchors are compiled per lookup: 128 tests a class were most of it).
        let mut listed = 0u128;
        for &(a, b) in &ranges {
            listed |= ascii_range(a, b);
        }
        for &(which, negated) in &named {
            let members = named_ascii(which);
            listed |= if negated { !members } else { members };
        }
        Self {
            negated,
            ranges,
            named,
            ascii: if negated { !listed } else { listed },
        }
    }

    fn slow(&self, c: char) -> bool {
        let listed = self.ranges.iter().any(|&(a, b)| a <= c && c <= b)
            || self.named.iter().any(|&(named, negated)| {
                let hit = match named {
                    Named::Digit => chars::is_decimal(c),
                    Named::Word => chars::is_word(c),
                    Named::Space => chars::is_space(c),
                };
                hit != negated
            });
        listed != self.negated
    }

    #[inline]
    pub fn has(&self, c: char) -> bool {
        if c.is_ascii() {
            return (self.ascii >> u32::from(c)) & 1 == 1;
        }
        self.slow(c)
    }

    /// Whether it is negated.
    pub fn negated(&self) -> bool {
        self.negated
    }

    /// The ranges it lists.
    pub fn ranges(&self) -> &[(char, char)] {
        &self.ranges
    }

    /// The named classes it lists (`\d`, `\W`, ...: each with whether it is negated).
    pub fn named(&self) -> &[(Named, bool)] {
        &self.named
    }

    /// Whether every character the class holds is ASCII.
    pub fn ascii_only(&self) -> bool {
        !self.negated && self.named.is_empty() && self.ranges.iter().all(|&(_, b)| b.is_ascii())
    }

    /// The union of two non-negated classes.
    pub fn union(&self, other: &Self) -> Option<Self> {
        if self.negated || other.negated {
            return None;
        }
        let mut ranges = self.ranges.clone();
        ranges.extend(other.ranges.iter().copied());
        let mut named = self.named.clone();
        named.extend(other.named.iter().copied());
        Some(Self {
            negated: false,
            ranges,
            named,
            // Neither is negated: a member of either is a member.
            ascii: self.ascii | other.ascii,
        })
    }

    pub fn of_char(c: char) -> Self {
        Self::new(false, vec![(c, c)], Vec::new())
    }
}

/// The ASCII characters from `a` to `b`, as a mask.
fn ascii_range(a: char, b: char) -> u128 {
    let (low, high) = (u32::from(a), u32::from(b).min(127));
    if low > high {
        return 0;
    }
    (u128::MAX >> (127 - high)) & (u128::MAX << low)
}

/// The ASCII members of `\d`, `\w` or `\s`, as a mask (tested once).
fn named_ascii(which: Named) -> u128 {
    static MASKS: OnceLock<[u128; 3]> = OnceLock::new();
    let masks = MASKS.get_or_init(|| {
        let tests: [fn(char) -> bool; 3] = [chars::is_decimal, chars::is_word, chars::is_space];
        tests.map(|test| {
            (0u8..128)
                .filter(|&code| test(char::from(code)))
                .fold(0, |mask, code| mask | 1u128 << code)
        })
    });
    let [digit, word, space] = *masks;
    match which {
        Named::Digit => digit,
        Named::Word => word,
        Named::Space => space,
    }
}

/// A set of strings, for testing whether one of them starts at a position.
#[derive(Debug, Clone, Default)]
pub struct Trie {
    /// Per node: its edges (sorted by character) and whether a string ends there.
    nodes: Vec<(Vec<(char, usize)>, bool)>,
    /// Per ASCII first character, the ASCII second characters a string may go on with
    /// (all of them when a string ends after the first): most positions of a text fail
    /// this one test.
    pairs: Vec<u128>,
}

impl Trie {
    pub fn new(strings: &[Vec<char>]) -> Self {
        let mut trie = Self {
            nodes: vec![(Vec::new(), false)],
            pairs: vec![0; 128],
        };
        for string in strings {
            let mut at = 0;
            for &c in string {
                let edges = trie.nodes.get(at).map(|(edges, _)| edges.clone());
                let edges = edges.unwrap_or_default();
                at = match edges.binary_search_by_key(&c, |&(e, _)| e) {
                    Ok(found) => edges.get(found).map_or(0, |&(_, next)| next),
                    Err(slot) => {
                        let next = trie.nodes.len();
                        trie.nodes.push((Vec::new(), false));
                        if let Some((edges, _)) = trie.nodes.get_mut(at) {
                            edges.insert(slot, (c, next));
                        }
                        next
                    }
                };
            }
            if let Some((_, end)) = trie.nodes.get_mut(at) {
                *end = true;
            }
            if string.is_empty() {
                trie.pairs.fill(u128::MAX); // the empty string starts every text
            }
            if let Some(&first) = string.first() {
                let second = string.get(1).map_or(Some(u128::MAX), |&c| {
                    c.is_ascii().then(|| 1u128 << u32::from(c))
                });
                if let Some(pair) = trie.pairs.get_mut(first as usize) {
                    *pair |= second.unwrap_or(0);
                }
            }
        }
        trie
    }

    /// False when no string can start `text` by its first two characters (ASCII ones).
    #[inline]
    fn may_start<U: Unit>(&self, text: &[U]) -> bool {
        match text {
            [first, second, ..] if first.char().is_ascii() && second.char().is_ascii() => {
                let pair = self.pairs.get(first.char() as usize).copied().unwrap_or(0);
                (pair >> u32::from(second.char())) & 1 == 1
            }
            _ => true,
        }
    }

    /// Whether one of the strings is at the start of `text`.
    pub fn starts<U: Unit>(&self, text: &[U]) -> bool {
        self.may_start(text) && self.walk(text)
    }

    /// [`Trie::starts`] by walking the trie alone.
    fn walk<U: Unit>(&self, text: &[U]) -> bool {
        let mut at = 0;
        let mut chars = text.iter().map(|unit| unit.char());
        loop {
            let Some((edges, end)) = self.nodes.get(at) else {
                return false;
            };
            if *end {
                return true;
            }
            let Some(c) = chars.next() else {
                return false;
            };
            match edges.binary_search_by_key(&c, |&(e, _)| e) {
                Ok(found) => at = edges.get(found).map_or(0, |&(_, next)| next),
                Err(_) => return false,
            }
        }
    }

    /// The characters the strings start with.
    pub fn first(&self) -> Option<Class> {
        let (edges, end) = self.nodes.first()?;
        if *end {
            return None; // the empty string: any position
        }
        let ranges = edges.iter().map(|&(c, _)| (c, c)).collect();
        Some(Class::new(false, ranges, Vec::new()))
    }
}

impl Set {
    pub fn has(&self, c: char) -> bool {
        match self {
            Set::One(one) => c == *one,
            Set::Fold(letter) => chars::folds_to(c, *letter),
            Set::Class(class) => class.has(c),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap (Cargo.toml)
mod tests {
    use super::{Class, Named, Trie};
    use crate::testing::Xorshift;

    #[test]
    fn the_ascii_mask_is_the_slow_test() {
        let named = [Named::Digit, Named::Word, Named::Space];
        let ranges = [
            ('\0', '\0'),
            ('a', 'z'),
            ('\x7f', '\u{e9}'),
            ('0', '0'),
            ('\u{e9}', '\u{2014}'),
            (' ', '~'),
        ];
        let mut classes = 0;
        for negated in [false, true] {
            for (at, &range) in ranges.iter().enumerate() {
                for which in 0..=named.len() {
                    for named_negated in [false, true] {
                        let named = named.get(which).map(|&n| (n, named_negated));
                        let others = ranges.get(at + 1..at + 2).unwrap_or_default();
                        let listed = [vec![range], others.to_vec()].concat();
                        let class = Class::new(negated, listed, named.into_iter().collect());
                        for code in 0u8..128 {
                            let c = char::from(code);
                            assert_eq!(class.has(c), class.slow(c), "{class:?} {c:?}");
                        }
                        classes += 1;
                    }
                }
            }
        }
        assert_eq!(classes, 2 * 6 * 4 * 2);
    }

    fn chars(text: &str) -> Vec<char> {
        text.chars().collect()
    }

    #[test]
    fn the_pair_test_never_rejects_a_start() {
        let sets: [&[&str]; 4] = [
            &["one", "o", "ten", "twelve", "us$", "a\u{e9}x", "\u{e9}t"],
            &["sec", "section", "s"],
            &["", "zz"],
            &["x\u{17f}", "k"],
        ];
        let alphabet = [
            "o", "n", "e", "t", "w", "s", "u", "$", "a", "\u{e9}", "x", "z", "k", " ",
        ];
        let mut rng = Xorshift::new(0x2545_f491_4f6c_dd1d);
        let (mut started, mut rejected) = (0, 0);
        for set in sets {
            let trie = Trie::new(&set.iter().map(|s| chars(s)).collect::<Vec<_>>());
            for _ in 0..3000 {
                let mut next = || rng.below(1000);
                let length = next() % 5;
                let text: String = (0..length)
                    .map(|_| *alphabet.get(next() % 14).unwrap())
                    .collect();
                let text = chars(&text);
                let expected = set.iter().any(|s| text.starts_with(&chars(s)));
                assert_eq!(trie.starts(&text), expected, "{set:?} {text:?}");
                assert_eq!(trie.walk(&text), expected, "{set:?} {text:?}");
                started += usize::from(expected);
                rejected += usize::from(!trie.may_start(&text));
            }
        }
        assert!(
            started > 500 && rejected > 3000,
            "{started} started, {rejected} rejected"
        );
    }
}
