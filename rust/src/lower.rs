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
pub fn lowers_into_ascii(text: &str) -> bool {
    // memmem over their UTF-8: far faster than `str::contains(char)`.
    !text.is_ascii()
        && (memchr::memmem::find(text.as_bytes(), "\u{130}".as_bytes()).is_some()
            || memchr::memmem::find(text.as_bytes(), "\u{212a}".as_bytes()).is_some())
}

/// Append `text` lower-cased as CPython's `str.lower` does to `out`.
pub fn lower_into(text: &str, out: &mut String) {
    let start = out.len();
    let mut copied = 0; // `text` up to here is in `out` (ASCII still to lower-case)
    let mut next = 0;
    // ASCII is copied in runs, lower-cased at the end: only the other characters are looked at.
    while let Some(at) = next_non_ascii(text.as_bytes(), next) {
        let Some(c) = text.get(at..).and_then(|rest| rest.chars().next()) else {
            break;
        };
        next = at + c.len_utf8();
        let lowered = if c == CAPITAL_SIGMA {
            let before = text.get(..at).unwrap_or("");
            let after = text.get(at + c.len_utf8()..).unwrap_or("");
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
        out.push_str(text.get(copied..at).unwrap_or(""));
        out.push_str(lowered);
        copied = at + c.len_utf8();
    }
    out.push_str(text.get(copied..).unwrap_or(""));
    // No character lower-cases to an ASCII capital, so this touches only the copied ASCII.
    if let Some((_, appended)) = out.as_mut_str().split_at_mut_checked(start) {
        appended.make_ascii_lowercase();
    }
}

/// The offset of the first byte from `from` that is not ASCII, eight bytes at a time.
fn next_non_ascii(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    let mut words = rest.chunks_exact(8);
    let mut skipped = 0;
    for word in &mut words {
        let word: [u8; 8] = word.try_into().unwrap_or([0x80; 8]);
        if u64::from_ne_bytes(word) & 0x8080_8080_8080_8080 != 0 {
            break;
        }
        skipped += 8;
    }
    let tail = rest.get(skipped..)?;
    tail.iter()
        .position(|byte| !byte.is_ascii())
        .map(|at| from + skipped + at)
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
    fn lower_is_each_character_lowered_in_its_place() {
        // Runs of ASCII of every length around the others: the ASCII skip reads 8 bytes at
        // a time.
        let pieces = [
            "a", "B", "\u{c9}", "\u{3a3}", "\u{130}", "\u{212a}", "\u{65e5}", " ", "'",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..3000 {
            let mut next = || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                usize::try_from(seed % 1000).unwrap()
            };
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
    fn only_two_non_ascii_characters_lower_into_ascii() {
        let into_ascii: Vec<char> = (0x80..=0x10_ffff)
            .filter_map(char::from_u32)
            .filter(|&c| lower(&c.to_string()).chars().any(|low| low.is_ascii()))
            .collect();
        assert_eq!(into_ascii, ['\u{130}', '\u{212a}']);
        assert!(super::lowers_into_ascii("a\u{212a}") && super::lowers_into_ascii("\u{130}"));
        assert!(!super::lowers_into_ascii("ÀÉÎ K") && !super::lowers_into_ascii("KEY"));
    }

    #[test]
    fn characters_without_case_stay() {
        assert_eq!(lower("日本\u{0}\u{10ffff}"), "日本\u{0}\u{10ffff}");
    }
}
