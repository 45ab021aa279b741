//! Small helpers over an answer held as code points (`&[char]`), or as bytes when it is
//! ASCII (`&[u8]`): either way offsets are Python's.

use crate::chars::{is_decimal, is_word, is_word_byte};

pub use crate::figures::sets::Unit;

/// A unit's `\w`, in one test for the bytes of an ASCII answer.
pub trait WordUnit: Unit {
    fn is_word(self) -> bool;
}

impl WordUnit for u8 {
    #[inline]
    fn is_word(self) -> bool {
        is_word_byte(self)
    }
}

impl WordUnit for char {
    #[inline]
    fn is_word(self) -> bool {
        is_word(self)
    }
}

/// The character at `at`, if any.
#[inline]
pub fn at<U: Unit>(text: &[U], at: usize) -> Option<char> {
    text.get(at).map(|unit| unit.char())
}

/// Whether the character at `at` exists and passes `test`.
pub fn is<U: Unit>(text: &[U], index: usize, test: impl Fn(char) -> bool) -> bool {
    at(text, index).is_some_and(test)
}

/// The character before `index`, if any.
pub fn before<U: Unit>(text: &[U], index: usize) -> Option<char> {
    index.checked_sub(1).and_then(|i| at(text, i))
}

/// Whether the character before `index` exists and passes `test` (a negative lookbehind
/// passes when this is false).
pub fn before_is<U: Unit>(text: &[U], index: usize, test: impl Fn(char) -> bool) -> bool {
    before(text, index).is_some_and(test)
}

/// The end of the run of characters passing `test` from `from`.
pub fn run<U: Unit>(text: &[U], from: usize, test: impl Fn(char) -> bool) -> usize {
    let mut end = from;
    while is(text, end, &test) {
        end += 1;
    }
    end
}

/// The end of the run of characters passing `test` from `from`, read no further than
/// `most` characters: a bounded repeat (`{1,300}`) never needs more, and stays linear.
pub fn run_at_most<U: Unit>(
    text: &[U],
    from: usize,
    most: usize,
    test: impl Fn(char) -> bool,
) -> usize {
    let mut end = from;
    while end - from < most && is(text, end, &test) {
        end += 1;
    }
    end
}

/// Python's `\b` at `index`.
pub fn boundary<U: Unit>(text: &[U], index: usize) -> bool {
    before_is(text, index, is_word) != is(text, index, is_word)
}

/// Whether `word` is written at `index`.
pub fn starts<U: Unit>(text: &[U], index: usize, word: &[char]) -> bool {
    // Words are short: a loop beats a call to memcmp.
    text.get(index..index + word.len())
        .is_some_and(|written| written.iter().zip(word).all(|(a, &b)| a.char() == b))
}

/// Whether `word` (ASCII) is written at `index`.
pub fn starts_str<U: Unit>(text: &[U], index: usize, word: &str) -> bool {
    (index..)
        .zip(word.chars())
        .all(|(position, expected)| at(text, position) == Some(expected))
}

/// A word list as a regex word trie tries it: by first character, longest word first.
pub struct Words {
    words: Vec<Vec<char>>,
    /// For an ASCII first character, the range of `words` starting with it.
    ascii: Vec<(usize, usize)>,
}

impl Words {
    pub fn new(words: impl IntoIterator<Item = String>) -> Self {
        let mut words: Vec<Vec<char>> = words.into_iter().map(|w| w.chars().collect()).collect();
        words.sort_by(|a, b| a.first().cmp(&b.first()).then(b.len().cmp(&a.len())));
        words.dedup();
        let mut ascii = vec![(0, 0); 128];
        for (index, word) in words.iter().enumerate() {
            let Some(slot) = word.first().and_then(|&c| ascii.get_mut(c as usize)) else {
                continue;
            };
            if slot.1 == 0 {
                *slot = (index, index);
            }
            slot.1 = index + 1;
        }
        Self { words, ascii }
    }

    /// Every word.
    pub fn all(&self) -> &[Vec<char>] {
        &self.words
    }

    fn starting(&self, first: Option<char>) -> &[Vec<char>] {
        match first {
            Some(c) if c.is_ascii() => {
                let (from, to) = self.ascii.get(c as usize).copied().unwrap_or_default();
                self.words.get(from..to).unwrap_or_default()
            }
            Some(c) => {
                let from = self
                    .words
                    .partition_point(|w| w.first().is_some_and(|&f| f < c));
                let to = self
                    .words
                    .partition_point(|w| w.first().is_some_and(|&f| f <= c));
                self.words.get(from..to).unwrap_or_default()
            }
            None => &[],
        }
    }
}

/// The lengths of the `words` written at `index`, in the order the reference's word trie
/// matches them (a longer word before its prefix).
pub fn words_at<'a, U: Unit>(
    text: &'a [U],
    index: usize,
    words: &'a Words,
) -> impl Iterator<Item = usize> + 'a {
    words
        .starting(at(text, index))
        .iter()
        .filter(move |word| starts(text, index, word))
        .map(Vec::len)
}

/// `\d` at `index`.
pub fn digit<U: Unit>(text: &[U], index: usize) -> bool {
    is(text, index, is_decimal)
}

/// `\w` at `index`.
pub fn word<U: Unit>(text: &[U], index: usize) -> bool {
    is(text, index, is_word)
}

#[cfg(test)]
mod tests {
    use super::WordUnit;

    #[test]
    fn a_byte_is_a_word_character_as_its_code_point_is() {
        for byte in 0..128u8 {
            assert_eq!(byte.is_word(), char::from(byte).is_word(), "{byte}");
        }
    }
}
