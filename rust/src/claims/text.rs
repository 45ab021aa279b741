//! Small helpers over an answer held as code points (`&[char]`), so offsets are Python's.

use super::chars::{is_decimal, is_word};

/// The character at `at`, if any.
pub fn at(text: &[char], at: usize) -> Option<char> {
    text.get(at).copied()
}

/// Whether the character at `at` exists and passes `test`.
pub fn is(text: &[char], index: usize, test: impl Fn(char) -> bool) -> bool {
    at(text, index).is_some_and(test)
}

/// The character before `index`, if any.
pub fn before(text: &[char], index: usize) -> Option<char> {
    index.checked_sub(1).and_then(|i| at(text, i))
}

/// Whether the character before `index` exists and passes `test` (a negative lookbehind
/// passes when this is false).
pub fn before_is(text: &[char], index: usize, test: impl Fn(char) -> bool) -> bool {
    before(text, index).is_some_and(test)
}

/// The end of the run of characters passing `test` from `from`.
pub fn run(text: &[char], from: usize, test: impl Fn(char) -> bool) -> usize {
    let mut end = from;
    while is(text, end, &test) {
        end += 1;
    }
    end
}

/// The end of the run of characters passing `test` from `from`, read no further than
/// `most` characters: a bounded repeat (`{1,300}`) never needs more, and stays linear.
pub fn run_at_most(text: &[char], from: usize, most: usize, test: impl Fn(char) -> bool) -> usize {
    let mut end = from;
    while end - from < most && is(text, end, &test) {
        end += 1;
    }
    end
}

/// Python's `\b` at `index`.
pub fn boundary(text: &[char], index: usize) -> bool {
    before_is(text, index, is_word) != is(text, index, is_word)
}

/// Whether `word` is written at `index`.
pub fn starts(text: &[char], index: usize, word: &[char]) -> bool {
    text.get(index..index + word.len()) == Some(word)
}

/// Whether `word` (ASCII) is written at `index`.
pub fn starts_str(text: &[char], index: usize, word: &str) -> bool {
    (index..)
        .zip(word.chars())
        .all(|(position, expected)| at(text, position) == Some(expected))
}

/// The lengths of the `words` (sorted longest first) written at `index`: the order in which
/// the reference's word tries match (a longer word before its prefix).
pub fn words_at<'a>(
    text: &'a [char],
    index: usize,
    words: &'a [Vec<char>],
) -> impl Iterator<Item = usize> + 'a {
    words
        .iter()
        .filter(move |word| starts(text, index, word))
        .map(Vec::len)
}

/// `\d` at `index`.
pub fn digit(text: &[char], index: usize) -> bool {
    is(text, index, is_decimal)
}

/// `\w` at `index`.
pub fn word(text: &[char], index: usize) -> bool {
    is(text, index, is_word)
}
