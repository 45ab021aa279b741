//! Lower-casing with the exact semantics of the building interpreter's `str.lower`.
//!
//! Rust's `str::to_lowercase` follows Rust's Unicode version; the Python engine follows
//! CPython's. The tables come from CPython itself (build.rs runs lower_tables.py), so both
//! engines map every character alike, including U+0130 (to "i̇") and the final sigma.

mod tables {
    include!(concat!(env!("OUT_DIR"), "/lower_tables.rs"));
}

pub use tables::UNICODE_VERSION;

const CAPITAL_SIGMA: char = '\u{3a3}';

fn in_ranges(ranges: &[(u32, u32)], code: u32) -> bool {
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

fn is_ignorable(c: char) -> bool {
    in_ranges(&tables::IGNORABLE, u32::from(c))
}

fn is_cased(c: char) -> bool {
    in_ranges(&tables::CASED, u32::from(c))
}

/// CPython's Final_Sigma test: a cased character before (skipping case-ignorable ones) and
/// none after.
fn is_final_sigma(before: &str, mut after: impl Iterator<Item = char>) -> bool {
    let cased_before = before
        .chars()
        .rev()
        .find(|&c| !is_ignorable(c))
        .is_some_and(is_cased);
    cased_before && !after.find(|&c| !is_ignorable(c)).is_some_and(is_cased)
}

/// Append `text` lower-cased as CPython's `str.lower` does to `out`.
pub fn lower_into(text: &str, out: &mut String) {
    for (at, c) in text.char_indices() {
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else if c == CAPITAL_SIGMA {
            let final_sigma = text
                .split_at_checked(at)
                .is_some_and(|(before, from)| is_final_sigma(before, from.chars().skip(1)));
            out.push(if final_sigma { '\u{3c2}' } else { '\u{3c3}' });
        } else {
            let code = u32::from(c);
            match tables::LOWER.binary_search_by_key(&code, |&(from, _)| from) {
                Ok(found) => out.push_str(tables::LOWER.get(found).map_or("", |&(_, to)| to)),
                Err(_) => out.push(c),
            }
        }
    }
}

/// `text` lower-cased as CPython's `str.lower` does.
pub fn lower(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    lower_into(text, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::lower;

    #[test]
    fn ascii_and_latin() {
        assert_eq!(lower("Hello, WORLD"), "hello, world");
        assert_eq!(lower("ÀÉÎ"), "àéî");
    }

    #[test]
    fn dotted_capital_i_becomes_two_characters() {
        assert_eq!(lower("\u{130}"), "i\u{307}");
        assert_eq!(lower("\u{212a}"), "k");
    }

    #[test]
    fn final_sigma_follows_cpython() {
        assert_eq!(lower("ΟΔΟΣ"), "οδος");
        assert_eq!(lower("Σ"), "σ");
        assert_eq!(lower("ΑΣΑ"), "ασα");
        assert_eq!(lower("ΑΣ\nΑ"), "ας\nα");
        // An apostrophe is case-ignorable: skipped on both sides.
        assert_eq!(lower("Α'Σ'Α"), "α'σ'α");
        assert_eq!(lower("Α'Σ'"), "α'ς'");
    }

    #[test]
    fn characters_without_case_stay() {
        assert_eq!(lower("日本\u{0}\u{10ffff}"), "日本\u{0}\u{10ffff}");
    }
}
