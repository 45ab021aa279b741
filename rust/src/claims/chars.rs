//! Character classes with CPython's definitions (tables from char_tables.py, via build.rs).
//!
//! `\w` is `str.isalnum()` or `_`, `\s` is `str.isspace()`, `\d` is `str.isdecimal()`; the
//! `regex` crate and Rust's `char` methods define each differently.

mod tables {
    include!(concat!(env!("OUT_DIR"), "/char_tables.rs"));
}

fn in_ranges(ranges: &[(u32, u32)], c: char) -> bool {
    let code = u32::from(c);
    ranges
        .binary_search_by(|&(start, end)| {
            if end < code {
                std::cmp::Ordering::Less
            } else if start > code {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Python's `\w`.
pub fn is_word(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric() || c == '_'
    } else {
        in_ranges(tables::WORD, c)
    }
}

/// Python's `[^\W_]`: `str.isalnum()`.
pub fn is_alnum(c: char) -> bool {
    c != '_' && is_word(c)
}

/// Python's `\s`, `str.isspace()`.
pub fn is_space(c: char) -> bool {
    if c.is_ascii() {
        matches!(
            c,
            ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c' | '\x1c'..='\x1f'
        )
    } else {
        in_ranges(tables::SPACE, c)
    }
}

/// Python's `\d`, `str.isdecimal()`.
pub fn is_decimal(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        in_ranges(tables::DECIMAL, c)
    }
}

/// The value `int()` gives a decimal digit (decimal digits come in runs from 0 to 9).
pub fn decimal_value(c: char) -> Option<u32> {
    if !is_decimal(c) {
        return None;
    }
    let code = u32::from(c);
    let at = tables::DECIMAL_ZEROS.partition_point(|&zero| zero <= code);
    let zero = tables::DECIMAL_ZEROS.get(at.checked_sub(1)?)?;
    Some(code - zero)
}

/// `int()` of a run of decimal digits (any script), when it fits.
pub fn int_value(digits: &[char]) -> Option<u64> {
    digits.iter().try_fold(0u64, |total, &c| {
        total
            .checked_mul(10)?
            .checked_add(u64::from(decimal_value(c)?))
    })
}

/// Python's `str.isalpha()` of one character.
pub fn is_alpha(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphabetic()
    } else {
        in_ranges(tables::ALPHA, c)
    }
}

/// Python's `str.isalpha()`.
pub fn all_alpha(text: &str) -> bool {
    !text.is_empty() && text.chars().all(is_alpha)
}

/// Python's `str.isupper()`: a cased character, and none lower or title case.
pub fn is_upper_text(text: &str) -> bool {
    let mut cased = false;
    for c in text.chars() {
        if in_ranges(tables::LOWER, c) || in_ranges(tables::TITLE, c) {
            return false;
        }
        cased = cased || in_ranges(tables::UPPER, c);
    }
    cased
}

/// The ASCII letter `c` matches under `re.IGNORECASE`, lower-cased (U+0130, U+0131, U+017F
/// and U+212A match `i`, `i`, `s` and `k`).
pub fn ignore_case(c: char) -> char {
    match c {
        '\u{130}' | '\u{131}' => 'i',
        '\u{17f}' => 's',
        '\u{212a}' => 'k',
        _ => c.to_ascii_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_python() {
        assert!(is_word('é') && is_word('_') && is_word('٣') && is_word('²'));
        assert!(!is_word('\u{301}') && !is_word('-'));
        assert!(is_space('\u{a0}') && is_space('\x1f') && !is_space('\u{200b}'));
        assert!(is_decimal('٣') && !is_decimal('²'));
        assert_eq!(decimal_value('٣'), Some(3));
        assert_eq!(int_value(&['1', '٣']), Some(13));
    }

    #[test]
    fn isupper_reads_every_character() {
        assert!(is_upper_text("NASA") && is_upper_text("U.S.") && !is_upper_text("NaSA"));
        assert!(!is_upper_text("12") && !is_upper_text("ǅX"));
    }
}
