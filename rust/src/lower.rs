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

/// The lower case of a non-ASCII character other than U+03A3, when it differs from it.
fn mapping(c: char) -> Option<&'static str> {
    let code = u32::from(c);
    if code < tables::SHORT_END {
        let index = usize::try_from(code.saturating_sub(0x80)).ok()?;
        return tables::LOWER_SHORT
            .get(index)
            .copied()
            .filter(|to| !to.is_empty());
    }
    // Most of CJK and the symbols: nothing in their block of 256 changes.
    let block = usize::try_from(code >> 8).ok()?;
    if !tables::LOWER_BLOCKS.get(block).copied().unwrap_or(false) {
        return None;
    }
    let found = tables::LOWER
        .binary_search_by_key(&code, |&(from, _)| from)
        .ok()?;
    tables::LOWER.get(found).map(|&(_, to)| to)
}

/// Whether `str.lower` maps `c` to itself wherever it stands (the final sigma depends on
/// its neighbours, so it never does here).
pub fn is_own_lower(c: char) -> bool {
    if c.is_ascii() {
        return !c.is_ascii_uppercase();
    }
    c != CAPITAL_SIGMA && mapping(c).is_none()
}

/// Whether `text` holds a non-ASCII character whose lower case holds ASCII (U+0130 and
/// U+212A are the only ones). When not, the ASCII of `lower(text)` is that of `text`
/// ASCII-lower-cased, in the same runs: every other character lowers to non-ASCII only.
pub fn lowers_into_ascii(bytes: &[u8]) -> bool {
    // Their UTF-8 starts 0xC4 and 0xE2: a byte search finds where either may be.
    !bytes.is_ascii()
        && memchr::memchr2_iter(0xc4, 0xe2, bytes).any(|at| {
            let rest = bytes.get(at..).unwrap_or_default();
            rest.starts_with("\u{130}".as_bytes()) || rest.starts_with("\u{212a}".as_bytes())
        })
}

/// Append `text` lower-cased as CPython's `str.lower` does to `out`.
pub fn lower_into(text: &str, out: &mut String) {
    let start = out.len();
    let mut copied = 0; // `text` up to here is in `out` (ASCII still to lower-case)
    let mut at = 0; // where the next character to look at starts
    // ASCII runs are skipped a word at a time: only the other characters are decoded.
    while let Some(found) = next_non_ascii(text.as_bytes(), at) {
        let Some(c) = text.get(found..).and_then(|rest| rest.chars().next()) else {
            break; // never: `found` starts a character
        };
        at = found + c.len_utf8();
        let lowered = if c == CAPITAL_SIGMA {
            let before = text.get(..found).unwrap_or("");
            let after = text.get(at..).unwrap_or("");
            if is_final_sigma(before, after.chars()) {
                "\u{3c2}"
            } else {
                "\u{3c3}"
            }
        } else {
            match mapping(c) {
                Some(to) => to,
                None => continue, // unchanged: copied in runs
            }
        };
        out.push_str(text.get(copied..found).unwrap_or(""));
        out.push_str(lowered);
        copied = at;
    }
    out.push_str(text.get(copied..).unwrap_or(""));
    // No character lower-cases to an ASCII capital, so this touches only the copied ASCII.
    if let Some((_, appended)) = out.as_mut_str().split_at_mut_checked(start) {
        appended.make_ascii_lowercase();
    }
}

/// Where the first byte of `bytes[from..]` that is not ASCII is, eight bytes a test.
pub fn next_non_ascii(bytes: &[u8], from: usize) -> Option<usize> {
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    let rest = bytes.get(from..)?;
    let mut words = rest.chunks_exact(8);
    let mut offset = from;
    for word in words.by_ref() {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(word);
        if u64::from_le_bytes(eight) & HIGH_BITS != 0 {
            break;
        }
        offset += 8;
    }
    bytes
        .get(offset..)?
        .iter()
        .position(|byte| !byte.is_ascii())
        .map(|at| offset + at)
}

/// Whether `lower(text)` has as many characters as `text`: only U+0130 lower-cases to
/// two (the final sigma is one either way). Its UTF-8 is C4 B0.
pub fn lower_keeps_length(text: &str) -> bool {
    let bytes = text.as_bytes();
    text.is_ascii() || !memchr::memchr_iter(0xc4, bytes).any(|at| bytes.get(at + 1) == Some(&0xb0))
}

/// `text` lower-cased as CPython's `str.lower` does.
pub fn lower(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    lower_into(text, &mut out);
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap (Cargo.toml)
mod tests {
    use super::lower;
    use crate::testing::Xorshift;

    #[test]
    fn ascii_and_latin() {
        assert_eq!(lower("Hello, WORLD"), "hello, world");
        assert_eq!(lower("ÀÉÎ"), "àéî");
    }

    #[test]
    fn non_ascii_is_found_wherever_it_stands_in_a_word() {
        let text = "abcdefghijklmnopqrstuvwxyz0123456789";
        for at in 0..=text.len() {
            let (head, tail) = text.split_at(at);
            let mixed = format!("{head}É{tail}");
            assert_eq!(
                super::next_non_ascii(mixed.as_bytes(), 0),
                Some(at),
                "{mixed}"
            );
            assert_eq!(lower(&mixed), format!("{head}é{tail}"));
        }
        assert_eq!(super::next_non_ascii(text.as_bytes(), 0), None);
        assert_eq!(super::next_non_ascii(b"e\xc3\x89", 3), None); // from past the end
        assert_eq!(lower("ÀB ÉTÉ ΟΔΟΣ Σ"), "àb été οδος σ");
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
    fn lower_is_each_character_lowered_in_its_place() {
        // Runs of ASCII of every length around the others: the ASCII skip reads 8 bytes at
        // a time.
        let pieces = [
            "a", "B", "\u{c9}", "\u{3a3}", "\u{130}", "\u{212a}", "\u{65e5}", " ", "'",
        ];
        let mut rng = Xorshift::new(0x2545_f491_4f6c_dd1d);
        for _ in 0..3000 {
            let mut next = || rng.below(1000);
            let length = next() % 40;
            let text: String = (0..length)
                .map(|_| *pieces.get(next() % pieces.len()).unwrap())
                .collect();
            let mut expected = String::new();
            for (at, c) in text.char_indices() {
                if c.is_ascii() {
                    expected.push(c.to_ascii_lowercase());
                } else if c == super::CAPITAL_SIGMA {
                    let after = text.get(at + c.len_utf8()..).unwrap();
                    let last = super::is_final_sigma(text.get(..at).unwrap(), after.chars());
                    expected.push(if last { '\u{3c2}' } else { '\u{3c3}' });
                } else {
                    expected.push_str(super::mapping(c).unwrap_or(&c.to_string()));
                }
            }
            assert_eq!(lower(&text), expected, "{text:?}");
        }
    }

    #[test]
    fn only_one_character_lower_cases_to_more_than_one() {
        let longer: Vec<char> = (0..=0x10_ffff)
            .filter_map(char::from_u32)
            .filter(|&c| lower(&c.to_string()).chars().count() != 1)
            .collect();
        assert_eq!(longer, ['\u{130}']);
        assert!(super::lower_keeps_length("ab\u{131}\u{100}\u{3a3}"));
        assert!(!super::lower_keeps_length("ab\u{131}\u{130}"));
    }

    #[test]
    fn ascii_runs_of_any_length_are_lower_cased_around_the_other_characters() {
        for c in ['\u{c9}', '\u{130}', '\u{65e5}', '\u{1f600}', '\u{212a}'] {
            for before in 0..20 {
                for after in [0, 1, 7, 8, 9, 17] {
                    let (head, tail) = ("AbC".repeat(7), "xYz".repeat(6));
                    let head = head.get(..before).unwrap_or_default();
                    let tail = tail.get(..after).unwrap_or_default();
                    let text = format!("{head}{c}{tail}{c}");
                    let expected = [head, &c.to_string(), tail, &c.to_string()]
                        .map(lower)
                        .concat();
                    assert_eq!(lower(&text), expected, "{text:?}");
                }
            }
        }
    }

    #[test]
    fn only_two_non_ascii_characters_lower_into_ascii() {
        let into_ascii: Vec<char> = (0x80..=0x10_ffff)
            .filter_map(char::from_u32)
            .filter(|&c| lower(&c.to_string()).chars().any(|low| low.is_ascii()))
            .collect();
        assert_eq!(into_ascii, ['\u{130}', '\u{212a}']);
        assert!(
            super::lowers_into_ascii("a\u{212a}".as_bytes())
                && super::lowers_into_ascii("\u{130}".as_bytes())
        );
        // Their neighbours in UTF-8 (the same first byte) do not.
        assert!(!super::lowers_into_ascii(
            "\u{131}\u{2019}\u{212b} \u{100}".as_bytes()
        ));
        assert!(super::lowers_into_ascii(
            "\u{131}\u{2019}\u{212b} x\u{212a}".as_bytes()
        ));
        assert!(
            !super::lowers_into_ascii("ÀÉÎ K".as_bytes())
                && !super::lowers_into_ascii("KEY".as_bytes())
        );
    }

    #[test]
    fn characters_without_case_stay() {
        assert_eq!(lower("日本\u{0}\u{10ffff}"), "日本\u{0}\u{10ffff}");
    }
}
