//! Claims of the kinds prose writes (claims/_scan_prose.py): dates, times and counted
//! quantities. Each builder takes the matched characters and the reference's groups.

use super::chars::int_value;
use super::lexicon::Lexicon;
use super::{Claim, unique};
use crate::lower::lower;

fn string(chars: &[char]) -> String {
    chars.iter().collect()
}

fn suffix(day: u64) -> &'static str {
    match day {
        1 | 21 | 31 => "st",
        2 | 22 => "nd",
        3 | 23 => "rd",
        _ => "th",
    }
}

/// `_day_forms()`: how a source writes day `day` of month `number` (1 to 12).
fn day_forms(number: usize, day: u64, lexicon: &Lexicon) -> Vec<String> {
    let month = lexicon.months.get(number - 1).cloned().unwrap_or_default();
    let short = lexicon
        .abbreviations
        .get(number - 1)
        .cloned()
        .unwrap_or_default();
    let ordinal = format!("{day}{}", suffix(day));
    let mut forms = vec![format!("-{number:02}-{day:02}")];
    let dotted = short.iter().map(|s| format!("{s}."));
    for name in std::iter::once(month.clone())
        .chain(short.iter().cloned())
        .chain(dotted)
    {
        forms.extend([format!("{name} {day}"), format!("{name} {ordinal}")]);
    }
    for name in std::iter::once(&month).chain(short.iter()) {
        forms.extend([format!("{day} {name}"), format!("{ordinal} {name}")]);
    }
    forms.push(format!("{ordinal} of {month}"));
    forms
}

pub fn month_day_claim(
    raw: &[char],
    start: usize,
    month: &[char],
    day: &[char],
    lexicon: &Lexicon,
) -> Option<Claim> {
    let value = int_value(day)?;
    if !(1..=31).contains(&value) {
        return None;
    }
    let number = lexicon.month_of(&string(month))?;
    let text = format!("{number:02}-{value:02}");
    Some(Claim::new(
        "date",
        string(raw),
        text,
        start,
        day_forms(number, value, lexicon),
    ))
}

pub fn iso_date_claim(raw: &[char], start: usize, lexicon: &Lexicon) -> Option<Claim> {
    let month = int_value(raw.get(5..7)?)?;
    let day = int_value(raw.get(8..10)?)?;
    if !((1..=12).contains(&month) && (1..=31).contains(&day)) {
        return None;
    }
    let number = usize::try_from(month).ok()?;
    let forms = day_forms(number, day, lexicon);
    Some(Claim::new(
        "date",
        string(raw.get(5..)?),
        format!("{month:02}-{day:02}"),
        start + 5,
        forms,
    ))
}

/// A month or a weekday named alone: `month_claim`, `weekday_claim`.
pub fn named_date_claim(raw: &[char], start: usize) -> Claim {
    let text = string(raw);
    Claim::new("date", text.clone(), lower(&text), start, vec![text])
}

fn spelled(value: u64, lexicon: &Lexicon) -> Vec<String> {
    let word = |v: u64| {
        u32::try_from(v)
            .ok()
            .and_then(|v| lexicon.word_of_value.get(&v))
            .cloned()
    };
    if let Some(word) = word(value) {
        return vec![word];
    }
    if value >= 100 {
        return Vec::new();
    }
    match (word(value / 10 * 10), word(value % 10)) {
        (Some(tens), Some(units)) => vec![format!("{tens}-{units}"), format!("{tens} {units}")],
        _ => Vec::new(),
    }
}

/// `_quantity` and `quantity_claim()`: a small number with its noun.
pub fn quantity_claim(
    raw: &[char],
    start: usize,
    number: &[char],
    noun: &[char],
    digits: bool,
    lexicon: &Lexicon,
) -> Option<Claim> {
    let noun = string(noun);
    if lexicon
        .stop_nouns
        .contains(noun.split('-').next().unwrap_or_default())
    {
        return None;
    }
    let value = if digits {
        int_value(number)?
    } else {
        u64::from(lexicon.spelled_value(&string(number))?)
    };
    if !digits && value < 4 {
        return None; // "two films", "one of": the writer counting what it lists
    }
    let mut forms = vec![value.to_string()];
    forms.extend(spelled(value, lexicon));
    Some(Claim::new(
        "quantity",
        string(raw),
        format!("{value} {}", lower(&noun)),
        start,
        forms,
    ))
}

pub fn score_claim(raw: &[char], start: usize) -> Claim {
    let dash = raw
        .iter()
        .position(|&c| c == '-' || c == '\u{2013}')
        .unwrap_or(raw.len());
    let first = string(raw.get(..dash).unwrap_or_default());
    let second = string(raw.get(dash + 1..).unwrap_or_default());
    let (first, second) = (
        first.trim_matches([' ', '\t']),
        second.trim_matches([' ', '\t']),
    );
    let forms = vec![
        format!("{first}-{second}"),
        format!("{first}\u{2013}{second}"),
        format!("{first} - {second}"),
    ];
    Claim::new(
        "quantity",
        string(raw),
        format!("{first}-{second}"),
        start,
        forms,
    )
}

pub fn time_claim(
    raw: &[char],
    start: usize,
    hour: &[char],
    minute: Option<&[char]>,
    meridiem: Option<&[char]>,
) -> Option<Claim> {
    let mut value = int_value(hour)?;
    let minutes = minute.map_or(Some(0), int_value)?;
    if let Some(meridiem) = meridiem {
        if !(1..=12).contains(&value) {
            return None;
        }
        let evening = meridiem
            .first()
            .is_some_and(|c| c.eq_ignore_ascii_case(&'p'));
        value = value % 12 + if evening { 12 } else { 0 };
    }
    let twelve = if value % 12 == 0 { 12 } else { value % 12 };
    let half = if value >= 12 { "pm" } else { "am" };
    let dotted = if value >= 12 { "p.m." } else { "a.m." };
    let clock = format!("{value:02}:{minutes:02}");
    let mut forms = vec![
        clock.clone(),
        format!("{value}:{minutes:02}"),
        format!("{value:02}.{minutes:02}"),
        format!("{twelve}:{minutes:02} {half}"),
        format!("{twelve}:{minutes:02}{half}"),
        format!("{twelve}:{minutes:02} {dotted}"),
    ];
    if minutes == 0 {
        forms.extend([
            format!("{twelve} {half}"),
            format!("{twelve}{half}"),
            format!("{twelve} {dotted}"),
        ]);
    }
    Some(Claim::new("date", string(raw), clock, start, unique(forms)))
}

pub fn ordinal_claim(raw: &[char], start: usize, lexicon: &Lexicon) -> Option<Claim> {
    let lowered = lower(&string(raw));
    let value = if raw.first().is_some_and(|&c| super::chars::is_decimal(c)) {
        int_value(raw.get(..raw.len().checked_sub(2)?)?)?
    } else {
        let index = lexicon.ordinals.iter().position(|word| *word == lowered)?;
        u64::try_from(index).ok()? + 1
    };
    let teens = (11..=13).contains(&(value % 100));
    let ending = if teens {
        "th"
    } else {
        match value % 10 {
            1 => "st",
            2 => "nd",
            3 => "rd",
            _ => "th",
        }
    };
    let digits = format!("{value}{ending}");
    let mut forms = vec![digits.clone()];
    let count = u64::try_from(lexicon.ordinals.len()).ok()?;
    if value <= count {
        // ORDINAL_WORDS[value - 1]: "0th" reads the last word, as Python's index -1 does.
        let index = usize::try_from(value)
            .ok()?
            .checked_sub(1)
            .unwrap_or(lexicon.ordinals.len().saturating_sub(1));
        forms.extend(lexicon.ordinals.get(index).cloned());
    }
    Some(Claim::new("quantity", string(raw), digits, start, forms))
}
