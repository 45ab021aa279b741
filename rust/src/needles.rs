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
    let mut search = Search::new(needles)?;
    if !search.done() {
        search.lowered(&lower(text));
    }
    Ok(search.found())
}

/// Indices of the `needles` found in `lowered`, a text already lower-cased.
pub fn present_in_lowered(lowered: &str, needles: &[String]) -> Result<Vec<usize>, String> {
    let mut search = Search::new(needles)?;
    search.lowered(lowered);
    Ok(search.found())
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
    // cannot): `Search::lowered` then looks at every start itself.
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

/// Which needles some texts hold once lower-cased, searched one text at a time.
///
/// No character lower-cases to an ASCII capital, so a needle holding one is never looked
/// for.
pub struct Search {
    automaton: Option<Arc<AhoCorasick>>,
    needles: Vec<Vec<u8>>,
    numbers: Vec<usize>, // the index in the caller's list of each searched needle
    found: Vec<bool>,
    left: usize,
}

impl Search {
    /// A search for `needles`; an empty one is found at once (as `"" in text` in Python).
    pub fn new(needles: &[String]) -> Result<Self, String> {
        let found: Vec<bool> = needles.iter().map(String::is_empty).collect();
        let numbers: Vec<usize> = (0..needles.len())
            .filter(|&index| {
                needles
                    .get(index)
                    .is_some_and(|needle| !needle.is_empty() && !has_ascii_capital(needle))
            })
            .collect();
        let searched: Vec<&String> = numbers
            .iter()
            .filter_map(|&index| needles.get(index))
            .collect();
        let automaton = if searched.is_empty() {
            None
        } else {
            Some(automaton(&searched)?)
        };
        Ok(Self {
            automaton,
            needles: searched
                .iter()
                .map(|needle| needle.as_bytes().to_vec())
                .collect(),
            left: numbers.len(),
            numbers,
            found,
        })
    }

    /// Whether every needle that can be found has been.
    pub fn done(&self) -> bool {
        self.left == 0
    }

    /// Look in a text already lower-cased.
    pub fn lowered(&mut self, text: &str) {
        let Some(automaton) = self.automaton.clone() else {
            return;
        };
        let text = text.as_bytes();
        let mut from = 0;
        // A leftmost search from `from` finds the first place at or after it where some
        // needle starts; every needle starting there is checked, then the search goes on
        // from the next byte, so overlapping needles are all found.
        while self.left > 0 && from < text.len() {
            let Some(hit) = automaton.find(Input::new(text).span(from..text.len())) else {
                break;
            };
            let start = hit.start();
            let rest = text.get(start..).unwrap_or_default();
            for (&index, needle) in self.numbers.iter().zip(&self.needles) {
                let Some(slot) = self.found.get_mut(index) else {
                    continue;
                };
                if !*slot && rest.starts_with(needle) {
                    *slot = true;
                    self.left -= 1;
                }
            }
            from = start + 1;
        }
    }

    /// The indices of the needles found, in order.
    pub fn found(&self) -> Vec<usize> {
        self.found
            .iter()
            .enumerate()
            .filter(|(_, hit)| **hit)
            .map(|(index, _)| index)
            .collect()
    }
}

fn has_ascii_capital(needle: &str) -> bool {
    needle.bytes().any(|byte| byte.is_ascii_uppercase())
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
    fn a_needle_with_a_capital_is_never_found_as_in_a_lowered_text() {
        assert_eq!(
            present("TOKEN token", &needles(&["TOKEN", "Token", "token"])),
            Ok(vec![2])
        );
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
