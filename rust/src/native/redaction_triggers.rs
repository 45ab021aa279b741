//! Where a redactor's triggers occur in a text, ignoring ASCII case: every occurrence of each
//! in the text's ASCII lower case, found in the text's own bytes (no lower-cased copy).
//!
//! Each trigger is looked for by a short window of it, its rarest few bytes, and each place a
//! window may start is checked for the triggers holding it. A search for the triggers
//! themselves, most of which start with common letters ("api", "secret", "token"), stops about
//! three times as often on text where none is. Which window is taken changes only the speed:
//! every occurrence of a trigger holds its window, and each place found is checked in full.
//!
//! The places are found as Teddy (aho-corasick's packed searcher) finds them, 32 bytes at a
//! time with AVX2: a byte's two halves each look up, for each position in a window, the
//! windows' groups ("buckets") that may hold it there. An ASCII letter's cases differ only in
//! the high half, so allowing both there makes the search blind to case; aho-corasick's own
//! searchers are not (its case-blind search has no packed prefilter, and its packed one
//! takes at most 128 patterns: the default triggers' windows in every case are 163).
//! Without AVX2 (other CPUs, ARM), aho-corasick's packed searcher (SSSE3, NEON) finds the
//! windows in the text's ASCII lower case, a copy.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, Input, MatchKind};

/// The longest window searched for (the positions the search looks at).
const WINDOW: usize = 3;

/// The groups of windows the search tells apart (a bit each in a byte).
const BUCKETS: usize = 8;

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

/// A window searched for, and the triggers holding it.
#[derive(Debug)]
struct Window {
    bytes: Vec<u8>,
    holders: Vec<Trigger>,
}

/// For each position in a window and each value of a byte's low (`low`) or high (`high`)
/// four bits there, the buckets whose windows may have it; each table of sixteen is written
/// twice, once for each 128-bit half of an AVX2 register.
#[derive(Debug, Default, Clone, Copy)]
struct Masks {
    low: [[u8; 32]; WINDOW],
    high: [[u8; 32]; WINDOW],
}

impl Masks {
    fn allow(&mut self, position: usize, bucket: usize, low: u8, high: u8) {
        for (tables, half) in [(&mut self.low, low), (&mut self.high, high)] {
            let Some(row) = tables.get_mut(position) else {
                continue;
            };
            for lane in [0, 16] {
                if let Some(entry) = row.get_mut(lane + usize::from(half)) {
                    *entry |= 1 << bucket;
                }
            }
        }
    }

    /// Let `window` start in `bucket`, in either case of its ASCII letters.
    fn add(&mut self, window: &[u8], bucket: usize) {
        for position in 0..WINDOW {
            match window.get(position) {
                Some(&byte) => {
                    self.allow(position, bucket, byte & 0xf, byte >> 4);
                    // Its capital differs in the high half only.
                    let capital = byte.to_ascii_uppercase();
                    self.allow(position, bucket, capital & 0xf, capital >> 4);
                }
                // A shorter window: any byte (or none) after it.
                None => {
                    for half in 0..16 {
                        self.allow(position, bucket, half, half);
                    }
                }
            }
        }
    }

    /// How often `bucket` lets a place through, were bytes random: for each position, the
    /// share of low and of high halves it allows there.
    fn share(&self, bucket: usize) -> f64 {
        let count = |row: &[u8; 32]| {
            let allowed = row
                .iter()
                .take(16)
                .filter(|&&entry| entry & 1 << bucket != 0);
            f64::from(u8::try_from(allowed.count()).unwrap_or(16)) / 16.0
        };
        let rows = self.low.iter().zip(&self.high);
        rows.map(|(low, high)| count(low) * count(high)).product()
    }

    /// How often `window` alone lets a place through ([`Masks::share`]).
    fn alone(window: &[u8]) -> f64 {
        let mut alone = Self::default();
        alone.add(window, 0);
        alone.share(0)
    }

    /// The bucket `window` joins: the one it makes let through least more places (windows
    /// alike share one).
    fn bucket_for(&self, window: &[u8]) -> usize {
        let mut best = (0, f64::INFINITY);
        for bucket in 0..BUCKETS {
            let mut joined = *self;
            joined.add(window, bucket);
            let more = joined.share(bucket) - self.share(bucket);
            if more < best.1 {
                best = (bucket, more);
            }
        }
        best.0
    }
}

/// Finds every occurrence of some triggers in a text's ASCII lower case.
#[derive(Debug)]
pub struct TriggerFinder {
    /// The distinct windows, by bucket.
    buckets: [Vec<Window>; BUCKETS],
    masks: Masks,
    /// The CPU has AVX2 (else `lowered` finds the windows).
    avx2: bool,
    /// Where one of the windows starts in a lower-cased text (`None`: no window).
    lowered: Option<AhoCorasick>,
    /// Every trigger searched is ASCII.
    ascii: bool,
}

impl TriggerFinder {
    /// A finder for the `triggers` that can be in a lower-cased text: an empty one is in
    /// every text, and one with an ASCII capital in none (the caller knows both).
    pub fn new(triggers: &[String]) -> Self {
        let mut windows: Vec<Window> = Vec::new();
        for (index, trigger) in triggers.iter().enumerate() {
            let bytes = trigger.as_bytes();
            if bytes.is_empty() || bytes.iter().any(u8::is_ascii_uppercase) {
                continue;
            }
            let offset = window_offset(bytes);
            let window = bytes.get(offset..).unwrap_or_default();
            let window = window.get(..WINDOW).unwrap_or(window);
            let held = Trigger {
                index,
                bytes: bytes.to_vec(),
                offset,
            };
            match windows.iter_mut().find(|known| known.bytes == window) {
                Some(known) => known.holders.push(held),
                None => windows.push(Window {
                    bytes: window.to_vec(),
                    holders: vec![held],
                }),
            }
        }
        // The windows letting through most places first (the most letters), each in the
        // bucket it makes let through least more: on the default triggers and bulk-200, about
        // 25 places a file, where putting them in turn let through about 185.
        windows
            .sort_by(|one, other| Masks::alone(&other.bytes).total_cmp(&Masks::alone(&one.bytes)));
        let mut buckets: [Vec<Window>; BUCKETS] = Default::default();
        let mut masks = Masks::default();
        for window in windows {
            let bucket = masks.bucket_for(&window.bytes);
            masks.add(&window.bytes, bucket);
            if let Some(windows) = buckets.get_mut(bucket) {
                windows.push(window);
            }
        }
        let ascii = buckets
            .iter()
            .flatten()
            .flat_map(|window| &window.holders)
            .all(|held| held.bytes.is_ascii());
        // Leftmost-first, so the search skips ahead with its packed prefilter, which an
        // overlapping search has not: every window starting where one is found is checked.
        let lowered = AhoCorasickBuilder::new()
            .match_kind(MatchKind::LeftmostFirst)
            .build(buckets.iter().flatten().map(|window| &window.bytes))
            .ok()
            .filter(|_| buckets.iter().any(|windows| !windows.is_empty()));
        Self {
            buckets,
            masks,
            avx2: avx2(),
            lowered,
            ascii,
        }
    }

    /// Whether every trigger searched is ASCII.
    pub fn ascii(&self) -> bool {
        self.ascii
    }

    /// Hand `found` each occurrence of a trigger in `text` ASCII-lower-cased: its start, end
    /// and index among the caller's triggers, in no set order.
    pub fn each(&self, text: &[u8], mut found: impl FnMut(usize, usize, usize)) {
        if self.buckets.iter().all(Vec::is_empty) {
            return;
        }
        let mut check = |at: usize, buckets: u8| self.check(text, at, buckets, &mut found);
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: the CPU has AVX2 (asked when the finder was built).
            unsafe { teddy::each_start(&self.masks, text, &mut check) };
            return;
        }
        let Some(lowered_finder) = &self.lowered else {
            return;
        };
        let lowered = text.to_ascii_lowercase();
        let mut from = 0;
        while let Some(hit) = lowered_finder.find(Input::new(&lowered).span(from..lowered.len())) {
            check(hit.start(), u8::MAX); // any window may start there
            from = hit.start() + 1;
        }
    }

    /// Hand `found` the triggers whose window starts at `at` in `text`, ignoring ASCII case,
    /// of the windows in `buckets` (a bit each).
    fn check(
        &self,
        text: &[u8],
        at: usize,
        mut buckets: u8,
        found: &mut impl FnMut(usize, usize, usize),
    ) {
        let rest = text.get(at..).unwrap_or_default();
        let mut windows: &[Window] = &[];
        let mut next = || {
            while windows.is_empty() && buckets != 0 {
                let bucket = buckets.trailing_zeros() as usize;
                buckets &= buckets - 1;
                windows = self.buckets.get(bucket).map_or(&[], Vec::as_slice);
            }
            let (window, rest) = windows.split_first()?;
            windows = rest;
            Some(window)
        };
        while let Some(window) = next() {
            if !rest
                .get(..window.bytes.len())
                .is_some_and(|there| there.eq_ignore_ascii_case(&window.bytes))
            {
                continue;
            }
            for held in &window.holders {
                let Some(start) = at.checked_sub(held.offset) else {
                    continue;
                };
                let end = start + held.bytes.len();
                if text
                    .get(start..end)
                    .is_some_and(|there| there.eq_ignore_ascii_case(&held.bytes))
                {
                    found(start, end, held.index);
                }
            }
        }
    }
}

/// Whether the CPU has AVX2.
fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(target_arch = "x86_64")]
mod teddy {
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8,
        _mm256_set1_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16,
        _mm256_storeu_si256, _mm256_testz_si256,
    };

    use super::{Masks, WINDOW};

    /// The bytes one step reads: 32 places and the rest of the last one's window.
    const STEP: usize = 32 + WINDOW - 1;

    /// Hand `check` each place in `text` where the masks let a window start (every place
    /// where one does, and a few more), in order.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn each_start(masks: &Masks, text: &[u8], check: &mut impl FnMut(usize, u8)) {
        let load = |row: &[u8; 32]| {
            // SAFETY: reads the 32 bytes of `row`.
            unsafe { _mm256_loadu_si256(row.as_ptr().cast::<__m256i>()) }
        };
        let low = masks.low.each_ref().map(load);
        let high = masks.high.each_ref().map(load);
        // A bit for each of the 32 places starting `chunk` (STEP bytes) where a window may
        // start, and the buckets whose windows may start at each.
        let starts = |chunk: &[u8]| -> Option<(u32, [u8; 32])> {
            if chunk.len() < STEP {
                return None;
            }
            let mut each = [0u8; 32];
            // SAFETY: the CPU has AVX2 (the caller's promise); each load reads 32 bytes from
            // `position` (below WINDOW), within the STEP bytes of `chunk`; the store writes
            // the 32 bytes of `each`.
            let none = unsafe {
                let halves = _mm256_set1_epi8(0xf);
                let mut buckets = _mm256_set1_epi8(-1);
                for (position, (&low, &high)) in low.iter().zip(&high).enumerate() {
                    let bytes = _mm256_loadu_si256(chunk.as_ptr().add(position).cast());
                    let low = _mm256_shuffle_epi8(low, _mm256_and_si256(bytes, halves));
                    let high_halves = _mm256_and_si256(_mm256_srli_epi16(bytes, 4), halves);
                    let high = _mm256_shuffle_epi8(high, high_halves);
                    buckets = _mm256_and_si256(buckets, _mm256_and_si256(low, high));
                }
                if _mm256_testz_si256(buckets, buckets) != 0 {
                    return None;
                }
                _mm256_storeu_si256(each.as_mut_ptr().cast(), buckets);
                _mm256_movemask_epi8(_mm256_cmpeq_epi8(buckets, _mm256_setzero_si256()))
            };
            Some((!u32::from_ne_bytes(none.to_ne_bytes()), each))
        };
        // Hand `check` the places among `places` (a bit each, from `at`).
        let mut hand = |at: usize, mut places: u32, each: &[u8; 32]| {
            while places != 0 {
                let place = places.trailing_zeros() as usize;
                places &= places - 1;
                check(at + place, each.get(place).copied().unwrap_or(0));
            }
        };
        let mut at = 0;
        while let Some(chunk) = text.get(at..at + STEP) {
            if let Some((places, each)) = starts(chunk) {
                hand(at, places, &each);
            }
            at += 32;
        }
        // The last places (fewer than STEP bytes), from a copy padded with zeros.
        let rest = text.get(at..).unwrap_or_default();
        let mut padded = [0u8; 32 + STEP];
        if let Some(head) = padded.get_mut(..rest.len()) {
            head.copy_from_slice(rest);
        }
        for half in [0, 32] {
            let Some(chunk) = padded.get(half..half + STEP).filter(|_| half < rest.len()) else {
                break;
            };
            if let Some((mut places, each)) = starts(chunk) {
                let left = rest.len() - half;
                if left < 32 {
                    places &= (1 << left) - 1;
                }
                hand(at + half, places, &each);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{TriggerFinder, window_offset};
    use crate::testing::Xorshift;

    fn finder(triggers: &[&str]) -> TriggerFinder {
        let triggers: Vec<String> = triggers.iter().map(|t| (*t).to_string()).collect();
        TriggerFinder::new(&triggers)
    }

    fn found(finder: &TriggerFinder, text: &str) -> Vec<(usize, usize, usize)> {
        let mut found = Vec::new();
        finder.each(text.as_bytes(), |start, end, index| {
            found.push((start, end, index));
        });
        found.sort_unstable();
        found
    }

    /// The occurrences found, the same with AVX2 (where the CPU has it) and without.
    fn occurrences(triggers: &[&str], text: &str) -> Vec<(usize, usize, usize)> {
        let mut finder = finder(triggers);
        let first = found(&finder, text);
        // Without AVX2, the search in the lower-cased copy finds the same.
        finder.avx2 = false;
        assert_eq!(found(&finder, text), first, "{text:?}");
        first
    }

    /// Every occurrence of each trigger in `text` ASCII-lower-cased, one place at a time.
    fn plainly(triggers: &[&str], text: &str) -> Vec<(usize, usize, usize)> {
        let lowered = text.to_ascii_lowercase();
        let mut expected = Vec::new();
        for (index, trigger) in triggers.iter().enumerate() {
            let (text, trigger) = (lowered.as_bytes(), trigger.as_bytes());
            if trigger.is_empty() || trigger.iter().any(u8::is_ascii_uppercase) {
                continue;
            }
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
        expected
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
    fn a_trigger_is_found_in_any_ascii_case() {
        let triggers = ["token", "sk-", "é-x"];
        assert_eq!(
            occurrences(&triggers, "ToKeN SK- TOKEN é-X"),
            vec![(0, 5, 0), (6, 9, 1), (10, 15, 0), (16, 20, 2)]
        );
        // Only ASCII letters have another case: `_` is not `-`, `É` is not `é`.
        assert_eq!(occurrences(&triggers, "sk_ SK_ É-x tokén"), vec![]);
        // At every place of a long text: in the 32-byte steps, across them, in the last bytes.
        for at in 0..80 {
            let text = format!("{}TOKEN{}", "z".repeat(at), "y".repeat(at % 7));
            assert_eq!(occurrences(&triggers, &text), vec![(at, at + 5, 0)], "{at}");
        }
    }

    #[test]
    fn every_occurrence_in_generated_texts_as_a_plain_search_finds() {
        let triggers = [
            "api", "token", "://", "gho_", "ghp_", "k_live_", "sk-", "xox", "aaa", "a", "é-",
        ];
        let pieces = [
            "ap", "i", "tok", "en", ":/", "/", "gh", "o_", "p_", "k_", "live_", "s", "k-", "xo",
            "x", "a", "é", "-", " ", "API", "Tok", "EN", "GH", "O_", "K_", "LiVe_", "S", "K-",
            "XO", "X", "A", "É", "\u{212a}", "@", "`", "[", "{", "_", "\u{7f}",
        ];
        let mut random = Xorshift::new(7);
        for round in 0..3000 {
            let mut text = String::new();
            for _ in 0..(round % 60) {
                let pick = random.below(pieces.len());
                text.push_str(pieces.get(pick).copied().unwrap_or(""));
            }
            assert_eq!(
                occurrences(&triggers, &text),
                plainly(&triggers, &text),
                "{text:?}"
            );
        }
    }
}
