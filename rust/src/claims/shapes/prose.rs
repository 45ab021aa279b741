//! The alternatives for what prose writes: dates, times, ordinals, scores and counted
//! quantities (`_SHAPES` in claims/_scan.py, in its order).

use super::{Shape, Span, ascii_lower, not_after};
use crate::claims::chars::{is_decimal, is_word};
use crate::claims::lexicon::Lexicon;
use crate::claims::text::{Words, at, boundary, digit, is, run, starts_str, word, words_at};

/// The ends of `\d{1,2}` at `p`, longest first.
fn one_or_two_digits(t: &[char], p: usize) -> Vec<usize> {
    match (digit(t, p), digit(t, p + 1)) {
        (true, true) => vec![p + 2, p + 1],
        (true, false) => vec![p + 1],
        _ => Vec::new(),
    }
}

/// The ends of an optional `(?:st|nd|rd|th)` at `p`, with it first.
fn day_suffix(t: &[char], p: usize) -> Vec<usize> {
    let mut ends = Vec::with_capacity(2);
    if ["st", "nd", "rd", "th"].iter().any(|s| starts_str(t, p, s)) {
        ends.push(p + 2);
    }
    ends.push(p);
    ends
}

fn blanks(t: &[char], p: usize) -> usize {
    run(t, p, |c| c == ' ' || c == '\t')
}

pub fn month_day(t: &[char], p: usize, lexicon: &Lexicon) -> Option<(usize, Shape)> {
    if !boundary(t, p) {
        return None;
    }
    for length in words_at(t, p, &lexicon.month_words) {
        let after = p + length;
        let dots = if at(t, after) == Some('.') {
            vec![after + 1, after]
        } else {
            vec![after]
        };
        for dot in dots {
            let day = blanks(t, dot);
            if day == dot {
                continue;
            }
            for day_end in one_or_two_digits(t, day) {
                for end in day_suffix(t, day_end) {
                    let followed =
                        word(t, end) || (is(t, end, |c| c == ':' || c == '.') && digit(t, end + 1));
                    if !followed {
                        let shape = Shape::MonthDay {
                            month: (p, after),
                            day: (day, day_end),
                        };
                        return Some((end, shape));
                    }
                }
            }
        }
    }
    None
}

pub fn day_month(t: &[char], p: usize, lexicon: &Lexicon) -> Option<(usize, Shape)> {
    if !digit(t, p) || !not_after(t, p) {
        return None;
    }
    for day_end in one_or_two_digits(t, p) {
        for suffix_end in day_suffix(t, day_end) {
            let gap = blanks(t, suffix_end);
            if gap == suffix_end {
                continue;
            }
            let mut months = Vec::with_capacity(2);
            if starts_str(t, gap, "of") && blanks(t, gap + 2) > gap + 2 {
                months.push(blanks(t, gap + 2));
            }
            months.push(gap);
            for month in months {
                for length in words_at(t, month, &lexicon.month_words) {
                    let end = month + length;
                    if boundary(t, end) {
                        let shape = Shape::MonthDay {
                            month: (month, end),
                            day: (p, day_end),
                        };
                        let dot = usize::from(at(t, end) == Some('.'));
                        return Some((end + dot, shape));
                    }
                }
            }
        }
    }
    None
}

pub fn time(t: &[char], p: usize) -> Option<(usize, Shape)> {
    if !digit(t, p) || !not_after(t, p) {
        return None;
    }
    let mut hours = Vec::with_capacity(3);
    if is(t, p, |c| c == '0' || c == '1') && digit(t, p + 1) {
        hours.push(p + 2);
    }
    if digit(t, p) {
        hours.push(p + 1);
    }
    if at(t, p) == Some('2') && is(t, p + 1, |c| ('0'..='3').contains(&c)) {
        hours.push(p + 2);
    }
    for hour in hours {
        let mut minutes = Vec::with_capacity(2);
        if at(t, hour) == Some(':')
            && is(t, hour + 1, |c| ('0'..='5').contains(&c))
            && digit(t, hour + 2)
        {
            minutes.push((Some((hour + 1, hour + 3)), hour + 3));
        }
        minutes.push((None, hour));
        for (minute, after) in minutes {
            let spaced = is(t, after, |c| c == ' ' || c == '\t');
            let gaps = if spaced {
                vec![after + 1, after]
            } else {
                vec![after]
            };
            for gap in gaps {
                if !is(t, gap, |c| "apAP".contains(c)) {
                    continue;
                }
                let m = |i: usize| is(t, i, |c| c == 'm' || c == 'M');
                let end =
                    if at(t, gap + 1) == Some('.') && m(gap + 2) && at(t, gap + 3) == Some('.') {
                        gap + 4
                    } else if m(gap + 1) && !word(t, gap + 2) {
                        gap + 2
                    } else {
                        continue;
                    };
                let shape = Shape::Time {
                    hour: (p, hour),
                    minute,
                    meridiem: Some((gap, end)),
                };
                return Some((end, shape));
            }
            if minute.is_some() && !is(t, after, |c| is_decimal(c) || c == ':') {
                return Some((
                    after,
                    Shape::Time {
                        hour: (p, hour),
                        minute,
                        meridiem: None,
                    },
                ));
            }
        }
    }
    None
}

/// A word of `words` at `p` between word boundaries.
pub fn bounded_word(t: &[char], p: usize, words: &Words) -> Option<usize> {
    if !boundary(t, p) {
        return None;
    }
    words_at(t, p, words)
        .map(|length| p + length)
        .find(|&end| boundary(t, end))
}

pub fn ordinal(t: &[char], p: usize, lexicon: &Lexicon) -> Option<usize> {
    if not_after(t, p) {
        for day_end in one_or_two_digits(t, p) {
            let end = day_end + 2;
            if day_suffix(t, day_end).len() == 2 && boundary(t, end) {
                return Some(end);
            }
        }
    }
    bounded_word(t, p, &lexicon.any_ordinals)
}

pub fn score(t: &[char], p: usize) -> Option<usize> {
    if !not_after(t, p) {
        return None;
    }
    let first = run(t, p, is_decimal);
    if !(1..=3).contains(&(first - p)) {
        return None;
    }
    let mut index = first + usize::from(is(t, first, |c| c == ' ' || c == '\t'));
    if !is(t, index, |c| c == '-' || c == '\u{2013}') {
        return None;
    }
    index += 1;
    index += usize::from(is(t, index, |c| c == ' ' || c == '\t'));
    let second = run(t, index, is_decimal);
    let fits = (1..=3).contains(&(second - index));
    (fits && !is(t, second, |c| is_word(c) || ",.\u{2013}-".contains(c))).then_some(second)
}

/// The counted noun after a quantity's number ending at `after`: `(?:[ \t]+|-)` then
/// `[a-z]{2,}(?:-[a-z]+)*\b`, the longest that ends a word.
fn counted_noun(t: &[char], after: usize) -> Option<Span> {
    let start = if is(t, after, |c| c == ' ' || c == '\t') {
        blanks(t, after)
    } else if at(t, after) == Some('-') {
        after + 1
    } else {
        return None;
    };
    let first = run(t, start, ascii_lower);
    if first - start < 2 {
        return None;
    }
    let mut ends = vec![first];
    let mut end = first;
    while at(t, end) == Some('-') && is(t, end + 1, ascii_lower) {
        end = run(t, end + 1, ascii_lower);
        ends.push(end);
    }
    ends.into_iter()
        .rev()
        .find(|&e| !word(t, e))
        .map(|e| (start, e))
}

pub fn quantity(t: &[char], p: usize, lexicon: &Lexicon) -> Option<(usize, Shape)> {
    if not_after(t, p) {
        let digits = run(t, p, is_decimal);
        let fits = (1..=3).contains(&(digits - p));
        if fits && !(is(t, digits, |c| c == '.' || c == ',') && digit(t, digits + 1)) {
            if let Some(noun) = counted_noun(t, digits) {
                return Some((
                    noun.1,
                    Shape::Quantity {
                        number: (p, digits),
                        noun,
                        digits: true,
                    },
                ));
            }
        }
    }
    if !boundary(t, p) {
        return None;
    }
    let mut numbers = Vec::new();
    for length in words_at(t, p, &lexicon.any_tens) {
        let tens = p + length;
        if is(t, tens, |c| c == '-' || c == ' ') {
            let units = words_at(t, tens + 1, &lexicon.units).map(|l| tens + 1 + l);
            numbers.extend(units.filter(|&end| boundary(t, end)));
        }
        numbers.push(tens);
    }
    numbers.extend(words_at(t, p, &lexicon.any_numbers).map(|length| p + length));
    numbers.into_iter().find_map(|end| {
        let noun = counted_noun(t, end)?;
        Some((
            noun.1,
            Shape::Quantity {
                number: (p, end),
                noun,
                digits: false,
            },
        ))
    })
}
