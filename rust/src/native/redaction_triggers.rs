//! Where a redactor's triggers occur in a lower-cased text: every occurrence of each.
//!
//! One leftmost search looks for a short window of each trigger, its rarest few bytes, and
//! each place a window is found is checked for the triggers holding it. A search for the
//! triggers themselves, most of which start with common letters ("api", "secret", "token"),
//! stops about three times as often on text where none is: the window is what the search's
//! SIMD prefilter looks for. Which window is taken changes only the speed: every
//! occurrence of a trigger holds its window, and each found window is checked in full.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, Input, MatchKind};

/// The longest window searched for (the prefilter looks at three bytes).
const WINDOW: usize = 3;

/// How rare a byte is in text, by English letter frequency (higher: rarer).
fn rarity(byte: u8) -> usize {
    const LETTERS: &[u8] = b"etaoinshrdlcumwfgypbvkjxqz";
    if let Some(rank) = LETTERS.iter().position(|&letter| letter == byte) {
        return rank;
    }
    match byte {
        b'0'..=b'9' | b' ' | b'\n' | b'\t' | b'.' | b',' => 0,
        0x80.. => 10,
        _ => 16,
    }
}

/// Where in `needle` its window starts: the rarest `WINDOW` bytes (the first, on a tie).
fn window_offset(needle: &[u8]) -> usize {
    let mut best = (0, 0);
    for (offset, window) in needle.windows(WINDOW).enumerate() {
        let score: usize = window.iter().map(|&byte| rarity(byte)).sum();
        if score > best.1 {
            best = (offset, score);
        }
    }
    best.0
}

/// A trigger as searched: its index among the caller's, bytes, and window's offset.
#[derive(Debug)]
struct Trigger {
    index: usize,
    bytes: Vec<u8>,
    offset: usize,
}

/// Finds every occurrence of some triggers in lower-cased texts.
#[derive(Debug)]
pub struct TriggerFinder {
    /// Finds where one of `windows` starts (`None`: no trigger can be found).
    finder: Option<AhoCorasick>,
    /// The distinct windows, and the triggers holding each.
    windows: Vec<Vec<u8>>,
    holders: Vec<Vec<Trigger>>,
    /// Every trigger searched is ASCII.
    ascii: bool,
}

impl TriggerFinder {
    /// A finder for the `triggers` that can be in a lower-cased text: an empty one is in
    /// every text, and one with an ASCII capital in none (the caller knows both).
    pub fn new(triggers: &[String]) -> Self {
        let mut windows: Vec<Vec<u8>> = Vec::new();
        let mut holders: Vec<Vec<Trigger>> = Vec::new();
        for (index, trigger) in triggers.iter().enumerate() {
            let bytes = trigger.as_bytes();
            if bytes.is_empty() || bytes.iter().any(u8::is_ascii_uppercase) {
                continue;
            }
            let offset = window_offset(bytes);
            let window = bytes.get(offset..).unwrap_or_default();
            let window = window.get(..WINDOW).unwrap_or(window).to_vec();
            let held = Trigger {
                index,
                bytes: bytes.to_vec(),
                offset,
            };
            let known = windows.iter().position(|known| *known == window);
            if let Some(held_by) = known.and_then(|at| holders.get_mut(at)) {
                held_by.push(held);
            } else {
                windows.push(window);
                holders.push(vec![held]);
            }
        }
        // Leftmost-first, so the search skips ahead with a packed (SIMD) prefilter, which
        // an overlapping search has not: every window starting where one is found is
        // then checked there.
        let finder = AhoCorasickBuilder::new()
            .match_kind(MatchKind::LeftmostFirst)
            .build(&windows)
            .ok()
            .filter(|_| !windows.is_empty());
        let ascii = holders.iter().flatten().all(|held| held.bytes.is_ascii());
        Self {
            finder,
            windows,
            holders,
            ascii,
        }
    }

    /// Whether every trigger searched is ASCII.
    pub fn ascii(&self) -> bool {
        self.ascii
    }

    /// Hand `found` each occurrence of a trigger in `lowered`: its start, end and index
    /// among the caller's triggers, in no set order.
    pub fn each(&self, lowered: &[u8], mut found: impl FnMut(usize, usize, usize)) {
        let Some(finder) = &self.finder else {
            return;
        };
        let mut from = 0;
        while from < lowered.len() {
            let Some(hit) = finder.find(Input::new(lowered).span(from..lowered.len())) else {
                break;
            };
            let at = hit.start();
            let rest = lowered.get(at..).unwrap_or_default();
            for (window, holders) in self.windows.iter().zip(&self.holders) {
                if !rest.starts_with(window) {
                    continue;
                }
                for held in holders {
                    let Some(start) = at.checked_sub(held.offset) else {
                        continue;
                    };
                    if lowered
                        .get(start..)
                        .is_some_and(|text| text.starts_with(&held.bytes))
                    {
                        found(start, start + held.bytes.len(), held.index);
                    }
                }
            }
            from = at + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{TriggerFinder, window_offset};

    fn occurrences(triggers: &[&str], text: &str) -> Vec<(usize, usize, usize)> {
        let triggers: Vec<String> = triggers.iter().map(|t| (*t).to_string()).collect();
        let mut found = Vec::new();
        TriggerFinder::new(&triggers).each(text.as_bytes(), |start, end, index| {
            found.push((start, end, index));
        });
        found.sort_unstable();
        found
    }

    #[test]
    fn the_window_is_the_rarest_bytes() {
        assert_eq!(window_offset(b"token"), 2); // "ken"
        assert_eq!(window_offset(b"github_pat_"), 5); // "b_p"
        assert_eq!(window_offset(b"sk"), 0); // shorter than a window: all of it
    }

    #[test]
    fn every_occurrence_of_every_trigger_is_found() {
        let triggers = ["token", "ken", "gho_", "ghp_", "a", "xx", "", "Token"];
        assert_eq!(
            occurrences(&triggers, "tokens kent gho_ghp_ xxx"),
            vec![
                (0, 5, 0),
                (2, 5, 1),
                (7, 10, 1),
                (12, 16, 2),
                (16, 20, 3),
                (21, 23, 5),
                (22, 24, 5),
            ]
        );
        // A window found where its trigger is not: checked, not counted.
        assert_eq!(occurrences(&["token"], "ken oken"), vec![]);
        assert_eq!(occurrences(&["token"], "atoken"), vec![(1, 6, 0)]);
        assert_eq!(occurrences(&["é-x"], "aé-x"), vec![(1, 5, 0)]);
    }

    #[test]
    fn every_occurrence_in_generated_texts_as_a_plain_search_finds() {
        let triggers = [
            "api", "token", "://", "gho_", "ghp_", "k_live_", "sk-", "xox", "aaa", "a", "é-",
        ];
        let pieces = [
            "ap", "i", "tok", "en", ":/", "/", "gh", "o_", "p_", "k_", "live_", "s", "k-", "xo",
            "x", "a", "é", "-", " ",
        ];
        let mut seed = 7u64;
        for _ in 0..2000 {
            let mut text = String::new();
            for _ in 0..12 {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let pick = usize::try_from(seed >> 33).unwrap_or(0) % pieces.len();
                text.push_str(pieces.get(pick).copied().unwrap_or(""));
            }
            let mut expected = Vec::new();
            for (index, trigger) in triggers.iter().enumerate() {
                let (text, trigger) = (text.as_bytes(), trigger.as_bytes());
                for start in 0..text.len() {
                    if text
                        .get(start..)
                        .is_some_and(|rest| rest.starts_with(trigger))
                    {
                        expected.push((start, start + trigger.len(), index));
                    }
                }
            }
            expected.sort_unstable();
            assert_eq!(occurrences(&triggers, &text), expected, "{text:?}");
        }
    }
}
