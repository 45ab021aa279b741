//! Which of several needles a text holds, once lower-cased: one pass for all of them.
//!
//! The reference is `{needle for needle in needles if needle in text.lower()}` (the
//! redaction rules' triggers, `tracegrade.redact`): one scan of a long trace per needle
//! there, one here whatever their number.

use std::sync::{Arc, Mutex};

use aho_corasick::{AhoCorasick, Input, MatchKind};

use crate::lower::lower;

/// Indices of the `needles` found in `text` lower-cased as CPython's `str.lower` does.
///
/// An empty needle is in every text, as `"" in text` is in Python.
pub fn present(text: &str, needles: &[String]) -> Result<Vec<usize>, String> {
    if needles.iter().all(String::is_empty) {
        return present_in_lowered("", needles);
    }
    present_in_lowered(&lower(text), needles)
}

/// Automata already built, for the last few needle sets (a redactor asks once per trace
/// with the same triggers: building one costs more than scanning a short trace).
static AUTOMATA: Mutex<Vec<(Vec<String>, Arc<AhoCorasick>)>> = Mutex::new(Vec::new());
const KEPT_AUTOMATA: usize = 8;

fn automaton(searched: &[&String]) -> Result<Arc<AhoCorasick>, String> {
    let same = |kept: &Vec<String>| kept.iter().eq(searched.iter().copied());
    if let Ok(cache) = AUTOMATA.lock() {
        if let Some((_, built)) = cache.iter().find(|(kept, _)| same(kept)) {
            return Ok(Arc::clone(built));
        }
    }
    // Leftmost-first, so the search can skip ahead with a prefilter (an overlapping search
    // cannot): `present_in_lowered` then looks at every start itself.
    let built = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostFirst)
        .build(searched)
        .map_err(|error| error.to_string())?;
    let built = Arc::new(built);
    if let Ok(mut cache) = AUTOMATA.lock() {
        if cache.len() >= KEPT_AUTOMATA {
            cache.remove(0);
        }
        let kept = searched.iter().map(|needle| (*needle).clone()).collect();
        cache.push((kept, Arc::clone(&built)));
    }
    Ok(built)
}

/// Indices of the `needles` found in `lowered`, a text already lower-cased.
pub fn present_in_lowered(lowered: &str, needles: &[String]) -> Result<Vec<usize>, String> {
    let mut found: Vec<bool> = needles.iter().map(String::is_empty).collect();
    let numbers: Vec<usize> = (0..needles.len())
        .filter(|&index| found.get(index) == Some(&false))
        .collect();
    let searched: Vec<&String> = numbers
        .iter()
        .filter_map(|&index| needles.get(index))
        .collect();
    if !searched.is_empty() {
        let automaton = automaton(&searched)?;
        let text = lowered.as_bytes();
        let mut left = searched.len();
        let mut from = 0;
        // A leftmost search from `from` finds the first place at or after it where some
        // needle starts; every needle starting there is checked, then the search goes on
        // from the next byte, so overlapping needles are all found.
        while left > 0 && from < text.len() {
            let input = Input::new(text).span(from..text.len());
            let Some(hit) = automaton.find(input) else {
                break;
            };
            let start = hit.start();
            let rest = text.get(start..).unwrap_or_default();
            for (&index, needle) in numbers.iter().zip(&searched) {
                if let Some(slot) = found.get_mut(index) {
                    if !*slot && rest.starts_with(needle.as_bytes()) {
                        *slot = true;
                        left -= 1;
                    }
                }
            }
            from = start + 1;
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
    fn needles_starting_at_one_place_or_inside_another_are_all_found() {
        let words = needles(&["ab", "abc", "bcd", "c", "zz"]);
        assert_eq!(present("xabcd", &words), Ok(vec![0, 1, 2, 3]));
        // The same set again: the kept automaton answers alike.
        assert_eq!(present("abc", &words), Ok(vec![0, 1, 3]));
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
