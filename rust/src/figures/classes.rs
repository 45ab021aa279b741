//! Python `re`'s character classes and digit values, read off the building interpreter.
//!
//! `\d` is every Unicode decimal digit (and `int()` reads each), `\w` is `str.isalnum()` or
//! `_`, `\s` includes U+001C..U+001F: none of them is Rust's definition, so the tables come
//! from CPython (build.rs runs class_tables.py).

mod tables {
    include!(concat!(env!("OUT_DIR"), "/class_tables.rs"));
}

use std::cmp::Ordering;

fn in_ranges(ranges: &[(u32, u32)], code: u32) -> bool {
    ranges
        .binary_search_by(|&(start, end)| {
            if end < code {
                Ordering::Less
            } else if start > code {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        })
        .is_ok()
}

/// `re`'s `\d`: a Unicode decimal digit.
pub fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    in_ranges(&tables::DIGIT, u32::from(c))
}

/// `re`'s `\w`: `str.isalnum()` or `_`.
#[inline]
pub fn is_word(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    in_ranges(&tables::WORD, u32::from(c))
}

/// `re`'s `\s`: `str.isspace()`.
pub fn is_space(c: char) -> bool {
    in_ranges(&tables::SPACE, u32::from(c))
}

/// The value `int()` gives a `\d` digit; `None` for any other character.
pub fn digit_value(c: char) -> Option<u8> {
    if c.is_ascii_digit() {
        return u8::try_from(u32::from(c) - u32::from('0')).ok();
    }
    let code = u32::from(c);
    tables::DIGIT_VALUE
        .binary_search_by_key(&code, |&(from, _)| from)
        .ok()
        .and_then(|found| tables::DIGIT_VALUE.get(found))
        .map(|&(_, value)| value)
}

/// Whether `c` matches the ASCII letter `letter` (lower case) under `re.IGNORECASE`.
pub fn folds_to(c: char, letter: u8) -> bool {
    if c.is_ascii() {
        return u8::try_from(c).is_ok_and(|byte| byte.to_ascii_lowercase() == letter);
    }
    let code = u32::from(c);
    tables::FOLD
        .iter()
        .any(|&(from, to)| from == code && to == letter)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_python() {
        assert!(is_digit('٣') && is_digit('５') && !is_digit('²'));
        assert!(is_word('²') && is_word('_') && !is_word('-'));
        assert!(is_space('\u{1c}') && !is_space('\u{200b}'));
        assert_eq!(digit_value('٣'), Some(3));
        assert_eq!(digit_value('x'), None);
        assert!(folds_to('ſ', b's') && folds_to('S', b's') && !folds_to('ſ', b't'));
    }
}
