//! Character classes with the building interpreter's definitions, for the claim scanners,
//! the figure matcher and whole-word search alike.
//!
//! `\w` is `str.isalnum()` or `_`, `\s` is `str.isspace()` (U+001C..U+001F included), `\d`
//! is `str.isdecimal()`; `re.IGNORECASE` compares a literal by its simple lower case and the
//! extra equivalents `re` lists. Rust's `char` methods and the `regex` crate define each
//! differently (combining marks are `\w` there), so the tables come from CPython: build.rs
//! runs char_tables.py, which reads each off `re` and checks it against its `str` rule.
//! ASCII is answered without the tables (most text is ASCII).

use std::cmp::Ordering;

pub(crate) mod tables {
    include!(concat!(env!("OUT_DIR"), "/char_tables.rs"));
}

fn in_ranges(ranges: &[(u32, u32)], c: char) -> bool {
    let code = u32::from(c);
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

fn mapped(pairs: &[(u32, u32)], code: u32) -> u32 {
    pairs
        .binary_search_by_key(&code, |&(from, _)| from)
        .ok()
        .and_then(|found| pairs.get(found))
        .map_or(code, |&(_, to)| to)
}

/// `\w` of each byte (none above 0x7f).
#[allow(clippy::indexing_slicing)] // evaluated at build time: a bad index fails the build
static WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 128 {
        table[byte] = (byte as u8).is_ascii_alphanumeric() || byte == b'_' as usize;
        byte += 1;
    }
    table
};

/// `re`'s `\w` of an ASCII byte (no byte above 0x7f is one).
#[inline]
pub fn is_word_byte(byte: u8) -> bool {
    WORD_BYTES.get(usize::from(byte)).copied().unwrap_or(false)
}

/// `re`'s `\w`: `str.isalnum()` or `_`. ASCII is answered inline, the rest from the table
/// out of line (the scanners call this at every character).
#[inline]
pub fn is_word(c: char) -> bool {
    match u8::try_from(c) {
        Ok(byte) if byte.is_ascii() => is_word_byte(byte),
        _ => is_word_above_ascii(c),
    }
}

#[inline(never)]
fn is_word_above_ascii(c: char) -> bool {
    in_ranges(&tables::WORD, c)
}

/// `str.isalnum()`: what `[^\W_]` matches.
pub fn is_alnum(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric()
    } else {
        in_ranges(&tables::WORD, c)
    }
}

/// `re`'s `\s`: `str.isspace()`.
pub fn is_space(c: char) -> bool {
    if c.is_ascii() {
        matches!(
            c,
            ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c' | '\x1c'..='\x1f'
        )
    } else {
        in_ranges(&tables::SPACE, c)
    }
}

/// `re`'s `\d`: `str.isdecimal()`, a decimal digit of any script.
pub fn is_decimal(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        in_ranges(&tables::DECIMAL, c)
    }
}

/// The value `int()` (and `Decimal()`) gives a decimal digit; `None` for any other character.
/// Decimal digits come in runs from 0 to 9 (char_tables.py checks every one).
pub fn decimal_value(c: char) -> Option<u8> {
    if c.is_ascii_digit() {
        return u8::try_from(u32::from(c) - u32::from('0')).ok();
    }
    if !is_decimal(c) {
        return None;
    }
    let code = u32::from(c);
    let at = tables::DECIMAL_ZEROS.partition_point(|&zero| zero <= code);
    let zero = tables::DECIMAL_ZEROS.get(at.checked_sub(1)?)?;
    u8::try_from(code - zero).ok()
}

/// `int()` of a run of decimal digits (any script), when it fits.
pub fn int_value(digits: &[char]) -> Option<u64> {
    digits.iter().try_fold(0u64, |total, &c| {
        total
            .checked_mul(10)?
            .checked_add(u64::from(decimal_value(c)?))
    })
}

/// `str.isalpha()` of one character.
pub fn is_alpha(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphabetic()
    } else {
        in_ranges(&tables::ALPHA, c)
    }
}

/// `str.isalpha()`.
pub fn all_alpha(text: &str) -> bool {
    !text.is_empty() && text.chars().all(is_alpha)
}

/// `str.isupper()`: a cased character, and none lower or title case.
pub fn is_upper_text(text: &str) -> bool {
    if text.is_ascii() {
        // Cased ASCII is the letters: a capital, and no small letter.
        let bytes = text.as_bytes();
        return bytes.iter().any(u8::is_ascii_uppercase)
            && !bytes.iter().any(u8::is_ascii_lowercase);
    }
    let mut cased = false;
    for c in text.chars() {
        if in_ranges(&tables::LOWER, c) || in_ranges(&tables::TITLE, c) {
            return false;
        }
        cased = cased || in_ranges(&tables::UPPER, c);
    }
    cased
}

/// The non-ASCII character's ASCII letter under `re.IGNORECASE` (U+017F `s`, U+0131 `i`...).
fn fold(c: char) -> Option<u8> {
    let code = u32::from(c);
    tables::FOLD
        .iter()
        .find(|&&(from, _)| from == code)
        .map(|&(_, letter)| letter)
}

/// Whether `c` matches the ASCII letter `letter` (lower case) under `re.IGNORECASE`.
pub fn folds_to(c: char, letter: u8) -> bool {
    if c.is_ascii() {
        return u8::try_from(c).is_ok_and(|byte| byte.to_ascii_lowercase() == letter);
    }
    fold(c) == Some(letter)
}

/// Every character [`folds_to`] `letter`: both cases and the non-ASCII ones that fold to it.
pub fn folding_to(letter: u8) -> Vec<char> {
    let mut found = vec![char::from(letter), char::from(letter.to_ascii_uppercase())];
    found.extend(
        tables::FOLD
            .iter()
            .filter(|&&(_, to)| to == letter)
            .filter_map(|&(from, _)| char::from_u32(from)),
    );
    found
}

/// The ASCII letter `c` matches under `re.IGNORECASE`, lower-cased; any other character as
/// it is.
pub fn ignore_case(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    fold(c).map_or(c, char::from)
}

/// Whether `re` compiles `c` as a cased literal under `re.IGNORECASE` (then it matches by
/// [`literal_key`], else only itself).
pub fn is_sre_cased(c: char) -> bool {
    in_ranges(&tables::SRE_CASED, c)
}

/// What `re.IGNORECASE` compares a character of the text by, against a cased literal: its
/// simple lower case, or the smallest of the extra equivalents `re` lists for that.
#[inline]
pub fn literal_key(c: char) -> u32 {
    let code = u32::from(c);
    match usize::try_from(code)
        .ok()
        .and_then(|at| tables::ASCII_KEY.get(at))
    {
        Some(&key) => key,
        None => wide_literal_key(code),
    }
}

/// [`literal_key`] beyond ASCII, kept out of line so the ASCII lookup inlines small.
fn wide_literal_key(code: u32) -> u32 {
    mapped(&tables::SRE_GROUP, mapped(&tables::SRE_LOWER, code))
}

/// Whether Unicode normalisation leaves `c` alone wherever it stands (its own NFC and NFD,
/// combining class 0, composing with no neighbour): a text of these only is its own NFC,
/// NFD and accent-free form.
pub fn is_normal(c: char) -> bool {
    c.is_ascii() || in_ranges(&tables::NORMAL, c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ascii() -> impl Iterator<Item = char> {
        (0u8..0x80).map(char::from)
    }

    #[test]
    fn folding_to_lists_every_character_that_folds() {
        for letter in b'a'..=b'z' {
            let listed = folding_to(letter);
            for c in (0..0x3_0000).filter_map(char::from_u32) {
                assert_eq!(listed.contains(&c), folds_to(c, letter), "{c:?} {letter}");
            }
        }
        assert!(folding_to(b's').contains(&'\u{17f}') && folding_to(b'k').contains(&'\u{212a}'));
    }

    #[test]
    fn classes_follow_python() {
        assert!(is_word('é') && is_word('_') && is_word('٣') && is_word('²'));
        assert!(!is_word('\u{301}') && !is_word('-'));
        assert!(is_alnum('日') && is_alnum('²') && !is_alnum('_') && !is_alnum('\u{301}'));
        assert!(is_space('\u{a0}') && is_space('\x1f') && !is_space('\u{200b}'));
        assert!(is_decimal('٣') && is_decimal('５') && !is_decimal('²'));
    }

    #[test]
    fn the_ascii_paths_agree_with_the_tables() {
        for c in ascii() {
            assert_eq!(is_word(c), in_ranges(&tables::WORD, c), "{c:?}");
            assert_eq!(
                is_alnum(c),
                c != '_' && in_ranges(&tables::WORD, c),
                "{c:?}"
            );
            assert_eq!(is_space(c), in_ranges(&tables::SPACE, c), "{c:?}");
            assert_eq!(is_decimal(c), in_ranges(&tables::DECIMAL, c), "{c:?}");
            assert_eq!(is_alpha(c), in_ranges(&tables::ALPHA, c), "{c:?}");
            let key = mapped(&tables::SRE_GROUP, mapped(&tables::SRE_LOWER, u32::from(c)));
            assert_eq!(literal_key(c), key, "{c:?}");
        }
    }

    #[test]
    fn digit_values_are_int_of_any_script() {
        assert_eq!(decimal_value('٣'), Some(3));
        assert_eq!(decimal_value('7'), Some(7));
        assert_eq!(decimal_value('\u{1d7ce}'), Some(0)); // mathematical bold zero
        assert_eq!(decimal_value('x'), None);
        assert_eq!(decimal_value('²'), None);
        assert_eq!(int_value(&['1', '٣']), Some(13));
        assert_eq!(int_value(&['1', 'x']), None);
    }

    #[test]
    fn a_byte_is_a_word_character_as_its_character_is() {
        for byte in 0..=255u8 {
            let c = char::from(byte);
            assert_eq!(is_word_byte(byte), c.is_ascii() && is_word(c), "{byte}");
            assert_eq!(is_word(c), c.is_alphanumeric() || c == '_', "{byte}");
        }
    }

    #[test]
    fn isupper_reads_every_character() {
        assert!(is_upper_text("NASA") && is_upper_text("U.S.") && !is_upper_text("NaSA"));
        assert!(!is_upper_text("12") && !is_upper_text("ǅX"));
        assert!(is_upper_text("A1-B") && !is_upper_text("") && !is_upper_text("AbC"));
        assert!(is_upper_text("ÉA") && !is_upper_text("Éa") && !is_upper_text("é1"));
        assert!(all_alpha("état") && !all_alpha("") && !all_alpha("a1"));
    }

    #[test]
    fn ignore_case_reaches_ascii_letters_as_re_does() {
        assert!(folds_to('ſ', b's') && folds_to('S', b's') && !folds_to('ſ', b't'));
        assert!(folds_to('\u{212a}', b'k') && !folds_to('é', b'e'));
        assert_eq!(ignore_case('\u{130}'), 'i');
        assert_eq!(ignore_case('\u{131}'), 'i');
        assert_eq!(ignore_case('W'), 'w');
        assert_eq!(ignore_case('é'), 'é');
    }

    #[test]
    fn literal_keys_follow_re_not_str_lower() {
        assert!(is_sre_cased('s') && is_sre_cased('ß') && !is_sre_cased('7'));
        assert_eq!(literal_key('ſ'), literal_key('S')); // re's extra case
        assert_eq!(literal_key('\u{130}'), literal_key('i')); // simple lower case
        assert_eq!(literal_key('ß'), literal_key('\u{1e9e}'));
        assert_ne!(literal_key('é'), literal_key('e'));
    }
}
