//! `anchor_pattern` (`tracegrade.figures._anchors`): the text any written form of a figure
//! must contain, and the windows of a source around it (`_windows`).
//!
//! The pattern text is built exactly as the reference builds it and run by the core's
//! `re`-compatible matcher, so a source's windows are the reference's.

use crate::chars::{decimal_value, is_decimal, is_space};
use crate::figures::extract::{Figure, Tables};
use crate::figures::matcher::{Pattern, TooDeep};

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
    Some(parts.join("|"))
}

/// `_windows`: the merged spans of `text` around each match of `pattern`, widened to
/// whitespace (a space or newline before, any `\s` after), in `str` indices.
pub fn windows(text: &[char], pattern: &Pattern) -> Result<Vec<(usize, usize)>, TooDeep> {
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
