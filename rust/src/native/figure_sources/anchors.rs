//! `anchor_pattern` (`tracegrade.figures._anchors`): the text any written form of a figure
//! must contain, and the windows of a source around it (`_windows`).
//!
//! The pattern text is built exactly as the reference builds it and run by the core's
//! `re`-compatible matcher, so a source's windows are the reference's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::chars::{decimal_value, is_decimal, is_space};
use crate::figures::extract::{Figure, Tables};
use crate::figures::matcher::{Pattern, TooDeep};

/// At most this many sets of anchors are kept compiled ([`Anchors::kept`]).
const KEPT: usize = 256;

/// How far around an anchor a window reaches (`_REACH`) before it is widened to whitespace.
const REACH: usize = 80;

/// `_SCALES`, as powers of ten.
const SCALES: [usize; 4] = [3, 6, 9, 12];

/// The word of `value` in the number words (`WORD_VALUES`, whose values are distinct).
fn word(tables: &Tables, value: u64) -> Option<&str> {
    tables
        .word_values
        .iter()
        .find(|(_, v)| *v == value)
        .map(|(w, _)| w.as_str())
}

/// `_words`: how `number` (0-99) is spelled, cardinal and ordinal up to twentieth; `None`
/// when a word is missing from the tables (never, for the reference's tables).
fn words(tables: &Tables, number: u64) -> Option<Vec<String>> {
    let spelled = if number < 20 {
        word(tables, number)?.to_owned()
    } else {
        let (tens, unit) = (number / 10, number % 10);
        let mut spelled = word(tables, tens * 10)?.to_owned();
        if unit != 0 {
            spelled.push_str("[- ]");
            spelled.push_str(word(tables, unit)?);
        }
        spelled
    };
    let mut forms = vec![spelled];
    let ordinal = usize::try_from(number).ok().and_then(|n| n.checked_sub(1));
    if let Some(ordinal) = ordinal.and_then(|at| tables.ordinals.get(at)) {
        forms.push(ordinal.clone());
    }
    Some(forms)
}

/// `_spelled_numbers`: the whole numbers 0-99 that, spelled out, may write this number.
/// `number` holds decimal digits (any script) and points.
fn spelled_numbers(kind: &str, number: &[char]) -> Option<Vec<u64>> {
    if number.contains(&'.') {
        return Some(Vec::new());
    }
    // int(number), as its digits without leading zeros.
    let digits: Vec<u8> = number
        .iter()
        .map(|&c| decimal_value(c))
        .collect::<Option<_>>()?;
    let lead = digits.iter().take_while(|&&d| d == 0).count();
    let digits = digits.get(lead..).unwrap_or(&[]);
    // The value of digits[..len - zeros] when under 100.
    let head = |zeros: usize| -> Option<u64> {
        let kept = digits.len().checked_sub(zeros)?;
        if kept > 2 {
            return None;
        }
        Some(
            digits
                .get(..kept)?
                .iter()
                .fold(0, |sum, &d| sum * 10 + u64::from(d)),
        )
    };
    // value % 10**zeros == 0 (zero is a multiple of every scale)
    let zero_tail = |zeros: usize| {
        digits.is_empty()
            || (digits.len() >= zeros && digits.iter().rev().take(zeros).all(|&d| d == 0))
    };
    Some(match kind {
        "money" | "number" => SCALES
            .iter()
            .filter(|&&zeros| zero_tail(zeros))
            .filter_map(|&zeros| head(zeros).or(digits.is_empty().then_some(0)))
            .collect(),
        "period" | "percent" => head(0).into_iter().collect(),
        _ => Vec::new(),
    })
}

/// The text of `anchor_pattern(figures)`, or `None` when no cheap anchor exists (a hedged
/// figure, a value without digits): then every source is read whole.
pub fn anchor_pattern(figures: &[Figure], tables: &Tables) -> Option<String> {
    anchor_parts(figures, tables).map(|parts| parts.join("|"))
}

/// `anchor_pattern`'s alternatives, longest first.
fn anchor_parts(figures: &[Figure], tables: &Tables) -> Option<Vec<String>> {
    let mut parts: Vec<String> = Vec::new();
    for figure in figures {
        if figure.hedge.is_some() {
            return None;
        }
        // _DIGITS = \d[\d.]*, then .rstrip(".")
        let value: Vec<char> = figure.value.chars().collect();
        let first = value.iter().position(|&c| is_decimal(c))?;
        let rest = value.get(first..).unwrap_or(&[]);
        let run = rest
            .iter()
            .position(|&c| !(is_decimal(c) || c == '.'))
            .unwrap_or(rest.len());
        let mut number = rest.get(..run).unwrap_or(&[]);
        while let [head @ .., '.'] = number {
            number = head;
        }
        let mut digits: Vec<char> = number.iter().copied().filter(|&c| c != '.').collect();
        let lead = digits.iter().take_while(|&&c| c == '0').count();
        digits.drain(..lead);
        let money = matches!(figure.kind, "money" | "number");
        if money && !number.contains(&'.') {
            while digits.last() == Some(&'0') {
                digits.pop();
            }
        }
        if digits.is_empty() {
            digits.push('0');
        }
        let joined: Vec<String> = digits.iter().map(char::to_string).collect();
        parts.push(joined.join("[,.]?"));
        let whole = number.split(|&c| c == '.').next().unwrap_or(&[]);
        if let [a, b, c, d] = whole {
            if matches!((a, b), ('1', '9') | ('2', '0')) {
                parts.push(format!(r"[-\u2013\u2014]\s*{c}{d}"));
            }
        }
        for value in spelled_numbers(figure.kind, number)? {
            for form in words(tables, value)? {
                parts.push(format!(r"\b{form}\b"));
            }
        }
    }
    if parts.is_empty() {
        return None;
    }
    // The reference sorts a set by length: parts of one length never match at one
    // position (their first characters or their digits differ), so their order is moot.
    parts.sort_by_cached_key(|part| (std::cmp::Reverse(part.chars().count()), part.clone()));
    parts.dedup();
    Some(parts)
}

/// The most non-whitespace characters a match of one of [`anchor_parts`]'s alternatives
/// holds: a word's letters (`[- ]` one), a year's dash and two digits, `n` digits with a
/// separator between each two.
fn most_solid(part: &str) -> usize {
    let length = part.chars().count();
    if part.starts_with(r"\b") {
        length.saturating_sub(if part.contains("[- ]") { 7 } else { 4 })
    } else if part.starts_with('[') {
        3
    } else {
        (2 * part.chars().filter(|&c| is_decimal(c)).count()).saturating_sub(1)
    }
}

/// The anchors of a set of figures, compiled: `anchor_pattern` run over a source's bytes.
///
/// A match can only start at a character the pattern may start with, so the scan tests
/// bytes against a table and runs the matcher only there, on the characters around (one
/// before, for `\b`, and enough after for any match and the character that follows it).
#[derive(Debug)]
pub struct Anchors {
    pattern: Pattern,
    /// Per byte: 0 never starts a match, 1 an ASCII character that may, 2 a non-ASCII
    /// character's lead byte (decoded and asked).
    starts: [u8; 256],
    /// The bytes that may start a match, when they are three or fewer ASCII ones (a figure's
    /// leading digits): the scan is then a `memchr`.
    few: Option<Vec<u8>>,
    /// Every match starts with an ASCII digit.
    digits_only: bool,
    /// More non-whitespace characters than any match holds ([`most_solid`]).
    reach: usize,
    /// The alternatives that are runs of ASCII digits (`1[,.]?5`), as their digits, when
    /// no other alternative may start with an ASCII digit: a match at a digit is then one
    /// of these runs, tested on the bytes before the matcher runs ([`run_at`]).
    runs: Option<Vec<Vec<u8>>>,
}

/// The digits of an alternative that is a run of ASCII digits with an optional separator
/// between each two (as [`anchor_parts`] writes one), else `None`.
fn digit_run(part: &str) -> Option<Vec<u8>> {
    part.split("[,.]?")
        .map(|digit| match digit.as_bytes() {
            &[byte] if byte.is_ascii_digit() => Some(byte),
            _ => None,
        })
        .collect()
}

/// Whether `bytes` at `start` hold the digit run `run` (a `,` or `.` allowed between two
/// digits): what a match of that alternative there must hold.
fn run_at(bytes: &[u8], start: usize, run: &[u8]) -> bool {
    let mut at = start;
    for (index, &digit) in run.iter().enumerate() {
        if index > 0
            && matches!(bytes.get(at), Some(b',' | b'.'))
            && bytes.get(at + 1) == Some(&digit)
        {
            at += 1;
        }
        if bytes.get(at) != Some(&digit) {
            return false;
        }
        at += 1;
    }
    true
}

/// [`Anchors::runs`]: the digit runs among `parts`, unless an alternative of another form
/// may start with an ASCII digit (asked of those alternatives compiled alone).
fn digit_runs(parts: &[String]) -> Result<Option<Vec<Vec<u8>>>, String> {
    let (runs, others): (Vec<_>, Vec<_>) = parts
        .iter()
        .map(|part| (digit_run(part), part))
        .partition(|(run, _)| run.is_some());
    if !others.is_empty() {
        let others: Vec<&str> = others.iter().map(|(_, part)| part.as_str()).collect();
        let others = Pattern::new(&others.join("|"), true)?;
        if ('0'..='9').any(|digit| others.may_start(digit)) {
            return Ok(None);
        }
    }
    Ok(Some(runs.into_iter().filter_map(|(run, _)| run).collect()))
}

impl Anchors {
    /// The anchors of `figures`, or `None` when they have none (`anchor_pattern` gives
    /// `None`: every source is then read whole). Compiled once for the same alternatives
    /// while fewer than [`KEPT`] are kept: a question's facts are looked up in every trace
    /// graded, and compiling cost about 17,000 instructions a lookup.
    pub fn kept(figures: &[Figure], tables: &Tables) -> Result<Option<Arc<Self>>, String> {
        type Kept = Mutex<HashMap<Vec<String>, Arc<Anchors>>>;
        static COMPILED: OnceLock<Kept> = OnceLock::new();
        let Some(parts) = anchor_parts(figures, tables) else {
            return Ok(None);
        };
        let compiled = COMPILED.get_or_init(Kept::default);
        if let Some(found) = compiled
            .lock()
            .ok()
            .and_then(|kept| kept.get(&parts).cloned())
        {
            return Ok(Some(found));
        }
        let anchors = Arc::new(Self::of(&parts)?);
        if let Ok(mut kept) = compiled.lock() {
            if kept.len() < KEPT {
                kept.insert(parts, Arc::clone(&anchors));
            }
        }
        Ok(Some(anchors))
    }

    /// The anchors of `anchor_pattern`'s alternatives.
    fn of(parts: &[String]) -> Result<Self, String> {
        let reach = parts.iter().map(|part| most_solid(part)).max().unwrap_or(0) + 1;
        let pattern = Pattern::new(&parts.join("|"), true)?;
        let ascii = pattern.starts_ascii();
        let mut starts = [0u8; 256];
        for (byte, start) in starts.iter_mut().enumerate() {
            *start = match u8::try_from(byte) {
                Ok(ascii @ 0..=0x7f) => u8::from(pattern.may_start(char::from(ascii))),
                Ok(0xc0..=0xff) if !ascii => 2,
                _ => 0,
            };
        }
        let bytes: Vec<u8> = (0..=u8::MAX)
            .filter(|&b| starts.get(usize::from(b)) != Some(&0))
            .collect();
        let digits_only = bytes.iter().all(u8::is_ascii_digit);
        let few = (bytes.len() <= 3).then_some(bytes);
        Ok(Self {
            pattern,
            starts,
            few,
            digits_only,
            reach,
            runs: digit_runs(parts)?,
        })
    }

    /// `_windows(text, anchor_pattern(figures))`: the merged spans around each match,
    /// widened to whitespace (a space or newline before, any `\s` after), as byte ranges of
    /// `text` on character boundaries.
    pub fn windows(&self, text: &str) -> Result<Vec<(usize, usize)>, TooDeep> {
        let bytes = text.as_bytes();
        let mut spans: Vec<(usize, usize)> = Vec::new();
        let mut at = 0;
        let mut local: Vec<char> = Vec::with_capacity(4 * self.reach);
        while let Some(skip) = bytes.get(at..).and_then(|rest| self.next_start(rest)) {
            let start = at + skip;
            if !self.may_match_at(bytes, start) {
                at = start + 1;
                continue;
            }
            let Some((end, next)) = self.match_at(text, start, &mut local)? else {
                at = start + 1;
                continue;
            };
            let (low, high) = widened(text, start, end);
            match spans.last_mut() {
                Some(last) if low <= last.1 => last.1 = last.1.max(high),
                _ => spans.push((low, high)),
            }
            at = next;
        }
        Ok(spans)
    }

    /// Whether a match may start with `byte` (a non-ASCII lead byte: when some non-ASCII
    /// character may).
    pub fn may_start(&self, byte: u8) -> bool {
        self.starts.get(usize::from(byte)) != Some(&0)
    }

    /// Whether every match starts with an ASCII digit.
    pub fn starts_with_digits_only(&self) -> bool {
        self.digits_only
    }

    /// `false` when no match can start at byte `start`, as the digit runs tell on the bytes
    /// alone (most digits of a source start none); `true` is left to the matcher.
    fn may_match_at(&self, bytes: &[u8], start: usize) -> bool {
        match (&self.runs, bytes.get(start)) {
            (Some(runs), Some(byte)) if byte.is_ascii_digit() => {
                runs.iter().any(|run| run_at(bytes, start, run))
            }
            _ => true,
        }
    }

    /// Whether a match lies within `bytes`, when the bytes alone can tell: every match is
    /// then one of the digit runs (the anchors start with ASCII digits only), which holds
    /// no other byte than digits, `,` and `.`. `None` when the matcher must be asked.
    pub fn digit_run_in(&self, bytes: &[u8]) -> Option<bool> {
        let runs = self.runs.as_ref().filter(|_| self.digits_only)?;
        let mut at = 0;
        while let Some(skip) = bytes.get(at..).and_then(|rest| self.next_start(rest)) {
            if runs.iter().any(|run| run_at(bytes, at + skip, run)) {
                return Some(true);
            }
            at += skip + 1;
        }
        Some(false)
    }

    /// The offset in `rest` of the first byte that may start a match.
    fn next_start(&self, rest: &[u8]) -> Option<usize> {
        match self.few.as_deref() {
            Some([]) => None,
            Some(&[a]) => memchr::memchr(a, rest),
            Some(&[a, b]) => memchr::memchr2(a, b, rest),
            Some(&[a, b, c]) => memchr::memchr3(a, b, c, rest),
            _ => rest
                .iter()
                .position(|&b| self.starts.get(usize::from(b)) != Some(&0)),
        }
    }

    /// The end (a byte offset) of the match starting at byte `start`, if one does, and where
    /// the next search starts.
    fn match_at(
        &self,
        text: &str,
        start: usize,
        local: &mut Vec<char>,
    ) -> Result<Option<(usize, usize)>, TooDeep> {
        let Some(rest) = text.get(start..) else {
            return Ok(None); // a continuation byte: not a character's start
        };
        local.clear();
        let before = text.get(..start).and_then(|head| head.chars().next_back());
        local.extend(before);
        let from = local.len();
        let mut solid = 0;
        for c in rest.chars() {
            local.push(c);
            if !is_space(c) {
                solid += 1;
                if solid > self.reach {
                    break;
                }
            }
        }
        if local.get(from).is_none_or(|&c| !self.pattern.may_start(c)) {
            return Ok(None);
        }
        let Some(hit) = self.pattern.match_at(local, from)? else {
            return Ok(None);
        };
        let length: usize = local
            .get(from..hit.end())
            .unwrap_or(&[])
            .iter()
            .map(|c| c.len_utf8())
            .sum();
        Ok(Some((start + length, start + length.max(1))))
    }
}

/// A match's span widened as `_windows` does: `REACH` characters each way, then back to
/// just after a space or newline, and on to the next whitespace.
fn widened(text: &str, start: usize, end: usize) -> (usize, usize) {
    let head = text.get(..start).unwrap_or("");
    let low = match head.char_indices().rev().nth(REACH - 1) {
        // More than REACH characters before: back to just after a space or newline.
        Some((reach, _)) if reach > 0 => head
            .get(..reach)
            .and_then(|before| memchr::memrchr2(b' ', b'\n', before.as_bytes()))
            .map_or(0, |at| at + 1),
        _ => 0,
    };
    let tail = text.get(end..).unwrap_or("");
    let high = match tail.char_indices().nth(REACH) {
        Some((reach, _)) => tail
            .get(reach..)
            .and_then(|after| after.char_indices().find(|&(_, c)| is_space(c)))
            .map_or(text.len(), |(at, _)| end + reach + at),
        None => text.len(),
    };
    (low, high)
}

/// `_windows` on a `str`'s characters, as the reference writes it: the oracle of the tests.
#[cfg(test)]
pub fn char_windows(text: &[char], pattern: &Pattern) -> Result<Vec<(usize, usize)>, TooDeep> {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for hit in pattern.find_all(text)? {
        let mut start = hit.start().saturating_sub(REACH);
        if start > 0 {
            start = text
                .get(..start)
                .and_then(|before| before.iter().rposition(|&c| c == ' ' || c == '\n'))
                .map_or(0, |at| at + 1);
        }
        let reach = hit.end() + REACH;
        let end = text
            .get(reach..)
            .and_then(|after| after.iter().position(|&c| is_space(c)))
            .map_or(text.len(), |at| reach + at);
        match spans.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => spans.push((start, end)),
        }
    }
    Ok(spans)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap (Cargo.toml)
mod tests {
    use std::sync::Arc;

    use super::{Anchors, anchor_pattern, char_windows};
    use crate::figures::matcher::Pattern;
    use crate::figures::testing::extractor;

    const PIECES: &[&str] = &[
        "1",
        "5",
        "0",
        "4",
        "6",
        "7",
        "2016",
        "17",
        "-",
        "\u{2013}",
        "\u{2014}",
        " ",
        "  ",
        "\n",
        "\t",
        "\u{a0}",
        "\u{3000}",
        ",",
        ".",
        "thirty",
        "Thirty",
        "THIRTY",
        "twenty",
        "-",
        "one",
        "fifth",
        "\u{17f}econd",
        "\u{212a}",
        "second",
        "x",
        "é",
        "日本",
        "😀",
        "466.75",
        "1,500,000",
        "word",
        "a_b",
        "$",
        "{\"price\": 466.75}",
        "ſix",
        "seven",
        "zero",
    ]; // fmt: skip

    /// A generated text of `pieces` pieces (xorshift: deterministic and dependency-free).
    fn text(seed: &mut u64, pieces: usize) -> String {
        (0..pieces)
            .map(|_| {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                *PIECES
                    .get(usize::try_from(*seed % PIECES.len() as u64).unwrap())
                    .unwrap()
            })
            .collect()
    }

    #[test]
    fn the_same_alternatives_share_their_compiled_anchors() {
        let ex = extractor();
        let kept = |answer: &str| {
            let figures = ex.figures(answer).unwrap();
            Anchors::kept(&figures, ex.tables()).unwrap().unwrap()
        };
        let first = kept("$1,500 in 2016");
        // The same values written otherwise: the same alternatives.
        assert!(Arc::ptr_eq(&first, &kept("1500 dollars in 2016")));
        // As many alternatives, other values: their own anchors.
        let other = kept("$1,600 in 2017");
        assert!(!Arc::ptr_eq(&first, &other));
        assert!(first.windows("paid 1,600 in").unwrap().is_empty());
        assert_eq!(other.windows("paid 1,600 in").unwrap(), [(0, 13)]);
    }

    #[test]
    fn byte_windows_are_the_references_char_windows() {
        let ex = extractor();
        let answers = [
            "$466.75 and $1.5 million",
            "30 days, the fifth consecutive year, 2016",
            "$0 and 7%",
            "twenty-one days",
            "$60,000 in 1999",
            "4500 rows",
            "1,112,064 and 8137",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut windows = 0;
        let mut memchr = 0;
        let mut runs = 0;
        for answer in answers {
            let figures = ex.figures(answer).unwrap();
            let anchors = Anchors::kept(&figures, ex.tables()).unwrap().unwrap();
            memchr += usize::from(anchors.few.is_some());
            runs += usize::from(anchors.runs.is_some());
            let pattern = anchor_pattern(&figures, ex.tables()).unwrap();
            let reference = Pattern::new(&pattern, true).unwrap();
            for round in 0..400 {
                let source = text(&mut seed, 1 + round % 120);
                let chars: Vec<char> = source.chars().collect();
                let expected = char_windows(&chars, &reference).unwrap();
                let to_char = |byte: usize| source.get(..byte).unwrap().chars().count();
                let found: Vec<(usize, usize)> = anchors
                    .windows(&source)
                    .unwrap()
                    .into_iter()
                    .map(|(start, end)| (to_char(start), to_char(end)))
                    .collect();
                assert_eq!(found, expected, "{answer:?} in {source:?}");
                windows += found.len();
            }
        }
        // Digits-only anchors, and "twenty-one" (2, t and T), are scanned by memchr.
        assert_eq!(memchr, 4, "anchors scanned by memchr");
        // No spelled or dashed alternative starts with a digit: every digit is tested first.
        assert_eq!(
            runs,
            answers.len(),
            "anchors whose digits are tested on bytes"
        );
        assert!(
            windows > 1000,
            "{windows} windows: the texts rarely hold an anchor"
        );
    }
}
