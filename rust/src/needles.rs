//! Which of several needles a text holds, once lower-cased: one pass for all of them.
//!
//! The reference is `{needle for needle in needles if needle in text.lower()}` (the
//! redaction rules' triggers, `tracegrade.redact`): one scan of a long trace per needle
//! there, one here whatever their number.

use aho_corasick::AhoCorasick;

use crate::lower::lower;

/// Indices of the `needles` found in `text` lower-cased as CPython's `str.lower` does.
///
/// An empty needle is in every text, as `"" in text` is in Python.
pub fn present(text: &str, needles: &[String]) -> Result<Vec<usize>, String> {
    let mut found = vec![false; needles.len()];
    for (index, needle) in needles.iter().enumerate() {
        if needle.is_empty() {
            if let Some(slot) = found.get_mut(index) {
                *slot = true;
            }
        }
    }
    let searched: Vec<&String> = needles.iter().filter(|needle| !needle.is_empty()).collect();
    if !searched.is_empty() {
        let lowered = lower(text);
        let automaton = AhoCorasick::new(&searched).map_err(|error| error.to_string())?;
        let numbers: Vec<usize> = needles
            .iter()
            .enumerate()
            .filter(|(_, needle)| !needle.is_empty())
            .map(|(index, _)| index)
            .collect();
        let mut left = searched.len();
        for hit in automaton.find_overlapping_iter(&lowered) {
            let Some(&index) = numbers.get(hit.pattern().as_usize()) else {
                continue;
            };
            if let Some(slot) = found.get_mut(index) {
                if !*slot {
                    *slot = true;
                    left -= 1;
                    if left == 0 {
                        break;
                    }
                }
            }
        }
    }
    Ok(found
        .iter()
        .enumerate()
        .filter(|(_, hit)| **hit)
        .map(|(index, _)| index)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::present;

    fn needles(words: &[&str]) -> Vec<String> {
        words.iter().map(|word| (*word).to_string()).collect()
    }

    #[test]
    fn finds_each_needle_once_in_the_lowered_text() {
        let found = present(
            "Bearer TOKEN and api",
            &needles(&["bearer", "api", "sk-", "token"]),
        );
        assert_eq!(found, Ok(vec![0, 1, 3]));
    }

    #[test]
    fn overlapping_needles_are_both_found() {
        assert_eq!(present("ghp_x", &needles(&["gh", "ghp_"])), Ok(vec![0, 1]));
    }

    #[test]
    fn an_empty_needle_is_in_every_text() {
        assert_eq!(present("", &needles(&["", "a"])), Ok(vec![0]));
    }

    #[test]
    fn lowering_follows_python_for_the_kelvin_sign() {
        // U+212A KELVIN SIGN lower-cases to ASCII "k" in CPython.
        assert_eq!(present("\u{212A}ey", &needles(&["key"])), Ok(vec![0]));
    }
}
