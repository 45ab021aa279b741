//! The alternatives of the reference's one pattern (claims/_scan.py `_PATTERN`), each as
//! code that tries the regex's paths in the regex's order: greedy loops longest first,
//! word tries longest word first, possessive runs without backtracking, lookarounds as
//! tests of the characters around. [`shape_at`] is the whole pattern at one position.

use super::chars::{is_decimal, is_space, is_word};
use super::lexicon::Lexicon;
use super::names::name_run;
use super::text::{
    Words, at, before_is, boundary, digit, is, run, run_at_most, starts_str, word, words_at,
};

pub type Span = (usize, usize);

/// What matched at a position; `end` is where the match ends.
pub enum Shape {
    Fence,
    /// A backtick, quote or single quote whose body ends at `body_end` (the closing mark).
    Enclosed {
        body_end: usize,
        tick: bool,
    },
    Url,
    Email,
    Iso,
    /// A path, or a URL without its scheme (the builder decides).
    Path,
    File,
    Extension,
    Domain,
    Identifier,
    Id,
    MonthDay {
        month: Span,
        day: Span,
    },
    Time {
        hour: Span,
        minute: Option<Span>,
        meridiem: Option<Span>,
    },
    Month,
    Weekday,
    Ordinal,
    Score,
    Quantity {
        number: Span,
        noun: Span,
        digits: bool,
    },
    Name,
}

fn ascii_lower(c: char) -> bool {
    c.is_ascii_lowercase()
}

/// `_NOT_AFTER`: `(?<![\w.,:$€£¥@/\\-])`.
fn not_after(t: &[char], p: usize) -> bool {
    !before_is(t, p, |c| {
        is_word(c)
            || matches!(
                c,
                '.' | ',' | ':' | '$' | '€' | '£' | '¥' | '@' | '/' | '\\' | '-'
            )
    })
}

/// A body of 1 to `most` characters from `p + 1`, none of them in `excluded` or a line
/// break, then one of `closers`: where the body ends.
fn body(t: &[char], p: usize, excluded: &str, closers: &str, most: usize) -> Option<usize> {
    let body_end = run_at_most(t, p + 1, most.saturating_add(1), |c| {
        c != '\n' && !excluded.contains(c)
    });
    let length = body_end - (p + 1);
    ((1..=most).contains(&length) && is(t, body_end, |c| closers.contains(c))).then_some(body_end)
}

/// The tick, quote and single-quote shapes: only the opening mark is consumed (the body is a
/// lookahead), so the scan still reads inside. The body's end, and whether it is a tick.
fn enclosing(t: &[char], p: usize) -> Option<(usize, bool)> {
    match at(t, p)? {
        '`' => body(t, p, "`", "`", usize::MAX).map(|end| (end, true)),
        '"' | '\u{201c}' => {
            body(t, p, "\"\u{201c}\u{201d}", "\"\u{201d}", 300).map(|end| (end, false))
        }
        '\'' | '\u{2018}' if !before_is(t, p, is_word) => {
            let end = body(t, p, "'\u{2018}\u{2019}", "'\u{2019}", 100)?;
            (!word(t, end + 1)).then_some((end, false))
        }
        _ => None,
    }
}

fn fence(t: &[char], p: usize) -> Option<usize> {
    if !starts_str(t, p, "```") {
        return None;
    }
    let mut index = p + 3;
    while index < t.len() {
        if starts_str(t, index, "```") {
            return Some(index + 3);
        }
        index += 1;
    }
    Some(t.len())
}

fn url(t: &[char], p: usize) -> Option<usize> {
    if !boundary(t, p) {
        return None;
    }
    let scheme = is(t, p, ascii_lower).then(|| {
        run_at_most(t, p + 1, 16, |c| {
            c.is_ascii_lowercase() || c.is_ascii_digit() || "+.-".contains(c)
        })
    });
    let body = match scheme {
        Some(end) if end - (p + 1) <= 15 && starts_str(t, end, "://") => end + 3,
        _ if starts_str(t, p, "www.") => p + 4,
        _ => return None,
    };
    let end = run(t, body, |c| !is_space(c) && !"<>\"'`".contains(c));
    (end > body).then_some(end)
}

fn email(t: &[char], p: usize) -> Option<usize> {
    if before_is(t, p, |c| is_word(c) || ".+-".contains(c)) {
        return None;
    }
    let local = run(t, p, |c| is_word(c) || ".+-".contains(c));
    if local == p || at(t, local) != Some('@') {
        return None;
    }
    let label = |from: usize| run(t, from, |c| is_word(c) || c == '-');
    let mut end = label(local + 1);
    if end == local + 1 {
        return None;
    }
    let mut labels = 0;
    while at(t, end) == Some('.') && label(end + 1) > end + 1 {
        end = label(end + 1);
        labels += 1;
    }
    (labels > 0).then_some(end)
}

fn iso(t: &[char], p: usize) -> Option<usize> {
    if before_is(t, p, |c| is_word(c) || ".-".contains(c)) {
        return None;
    }
    let digits = |from: usize, count: usize| (from..from + count).all(|i| digit(t, i));
    let shaped = digits(p, 4)
        && at(t, p + 4) == Some('-')
        && digits(p + 5, 2)
        && at(t, p + 7) == Some('-')
        && digits(p + 8, 2)
        && !digit(t, p + 10);
    shaped.then_some(p + 10)
}

fn path(t: &[char], p: usize) -> Option<usize> {
    if before_is(t, p, |c| is_word(c) || "/.:@+-".contains(c)) {
        return None;
    }
    let head = |c: char| is_word(c) || "@+-".contains(c);
    let segment = |c: char| is_word(c) || ".@+-".contains(c);
    let prefixes: &[usize] = match at(t, p) {
        Some('~') => &[1, 0],
        Some('.') if at(t, p + 1) == Some('.') => &[2, 1, 0],
        Some('.') => &[1, 0],
        _ => &[0],
    };
    for &prefix in prefixes {
        let mut index = p + prefix;
        if at(t, index) == Some('/') {
            index += 1;
        }
        let mut segments = 0;
        while is(t, index, head) {
            let end = run(t, index + 1, segment);
            if at(t, end) != Some('/') {
                break;
            }
            index = end + 1;
            segments += 1;
        }
        if segments > 0 {
            return Some(run(t, index, segment));
        }
    }
    None
}

fn name_char(c: char) -> bool {
    is_word(c) || c == '-'
}

/// `(?![\w-]|\.\w)` at `end`.
fn ends_name(t: &[char], end: usize) -> bool {
    !(is(t, end, name_char) || (at(t, end) == Some('.') && word(t, end + 1)))
}

fn file(t: &[char], p: usize, lexicon: &Lexicon) -> Option<usize> {
    if before_is(t, p, |c| is_word(c) || "/.-".contains(c)) {
        return None;
    }
    let first = if at(t, p) == Some('.') { p + 1 } else { p };
    let mut end = run(t, first, name_char);
    if end == first || at(t, end) != Some('.') {
        return None; // no extension without a dot
    }
    let mut labels = vec![(first, end)];
    while at(t, end) == Some('.') && is(t, end + 1, name_char) {
        let next = run(t, end + 1, name_char);
        labels.push((end + 1, next));
        end = next;
    }
    for &(start, end) in labels.iter().skip(1).rev() {
        let label = t.get(start..end).unwrap_or_default();
        if lexicon
            .extensions
            .all()
            .iter()
            .any(|ext| ext.as_slice() == label)
            && ends_name(t, end)
        {
            return Some(end);
        }
    }
    None
}

fn extension(t: &[char], p: usize) -> Option<usize> {
    if before_is(t, p, |c| is_word(c) || c == '.') || at(t, p) != Some('.') {
        return None;
    }
    if !is(t, p + 1, ascii_lower) {
        return None;
    }
    let end = run_at_most(t, p + 2, 6, |c| {
        c.is_ascii_lowercase() || c.is_ascii_digit()
    });
    let fits = (1..=5).contains(&(end - (p + 2)));
    (fits && !is(t, end, |c| is_word(c) || ".-".contains(c))).then_some(end)
}

fn domain(t: &[char], p: usize, lexicon: &Lexicon) -> Option<usize> {
    if before_is(t, p, |c| is_word(c) || ".@-".contains(c)) {
        return None;
    }
    let alnum = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    let mut after_dots = Vec::new();
    let mut index = p;
    while is(t, index, alnum) {
        let end = run(t, index, |c| alnum(c) || c == '-');
        if !(is(t, end - 1, alnum) && at(t, end) == Some('.')) {
            break;
        }
        index = end + 1;
        after_dots.push(index);
    }
    after_dots.iter().rev().find_map(|&start| {
        words_at(t, start, &lexicon.tlds)
            .map(|length| start + length)
            .find(|&end| ends_name(t, end))
    })
}

/// `(?!\w|\.\w)` at `end`.
fn ends_code(t: &[char], end: usize) -> bool {
    !(word(t, end) || (at(t, end) == Some('.') && word(t, end + 1)))
}

fn snake(t: &[char], p: usize) -> Option<usize> {
    if before_is(t, p, |c| is_word(c) || c == '.') || !is(t, p, |c| c.is_ascii_alphabetic()) {
        return None;
    }
    let alnum = |c: char| c.is_ascii_alphanumeric();
    let mut end = run(t, p + 1, alnum);
    let mut parts = 0;
    while at(t, end) == Some('_') && is(t, end + 1, alnum) {
        end = run(t, end + 1, alnum);
        parts += 1;
    }
    (parts > 0 && ends_code(t, end)).then_some(end)
}

/// An optional `()` after `end`, then `ends`: with it first, as the greedy `(?:\(\))?`.
fn with_call(t: &[char], end: usize, ends: impl Fn(&[char], usize) -> bool) -> Option<usize> {
    let called = starts_str(t, end, "()").then_some(end + 2);
    called.into_iter().chain([end]).find(|&e| ends(t, e))
}

fn dotted(t: &[char], p: usize) -> Option<usize> {
    if before_is(t, p, |c| is_word(c) || c == '.') {
        return None;
    }
    if !is(t, p, |c| c.is_ascii_alphabetic() || c == '_') || !word(t, p + 1) {
        return None;
    }
    let mut end = run(t, p + 1, is_word);
    let mut parts = 0;
    while at(t, end) == Some('.')
        && is(t, end + 1, |c| c.is_ascii_lowercase() || c == '_')
        && word(t, end + 2)
    {
        end = run(t, end + 2, is_word);
        parts += 1;
    }
    if parts == 0 {
        return None;
    }
    with_call(t, end, ends_code)
}

fn camel(t: &[char], p: usize) -> Option<usize> {
    if before_is(t, p, |c| is_word(c) || c == '.') {
        return None;
    }
    let head = match at(t, p) {
        Some(c) if c.is_ascii_lowercase() => run(t, run(t, p, ascii_lower), is_decimal),
        Some(c) if c.is_ascii_uppercase() => {
            let end = run(t, p + 1, ascii_lower);
            if end == p + 1 {
                return None;
            }
            end
        }
        _ => return None,
    };
    if !is(t, head, |c| c.is_ascii_uppercase()) {
        return None;
    }
    let end = run(t, head, |c| c.is_ascii_alphanumeric());
    with_call(t, end, ends_name)
}

/// `(?![\w-]|\.\d)` at `end`.
fn ends_number(t: &[char], end: usize) -> bool {
    !(is(t, end, name_char) || (at(t, end) == Some('.') && digit(t, end + 1)))
}

/// `_NUMBER_WITH_UNIT` matches at `p`: "5kg", "10am", "17-year-old".
fn number_with_unit(t: &[char], p: usize) -> bool {
    let digits = run(t, p, is_decimal);
    if digits == p {
        return false;
    }
    let mut end = digits;
    loop {
        if at(t, end) == Some('-') && is(t, end + 1, ascii_lower) {
            end = run(t, end + 1, ascii_lower);
        } else if is(t, end, ascii_lower) {
            end = run(t, end, ascii_lower);
        } else {
            break;
        }
    }
    end > digits && ends_number(t, end)
}

fn id(t: &[char], p: usize) -> Option<usize> {
    if !not_after(t, p) || number_with_unit(t, p) {
        return None;
    }
    if !digit(t, run(t, p, |c| c.is_ascii_alphabetic() || c == '-')) {
        return None;
    }
    if !is(t, run(t, p, |c| is_decimal(c) || c == '-'), |c| {
        c.is_ascii_alphabetic()
    }) {
        return None;
    }
    let alnum = |c: char| c.is_ascii_alphanumeric();
    let mut end = run(t, p, alnum);
    if end == p {
        return None;
    }
    while at(t, end) == Some('-') && is(t, end + 1, alnum) {
        end = run(t, end + 1, alnum);
    }
    ends_number(t, end).then_some(end)
}

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

fn month_day(t: &[char], p: usize, lexicon: &Lexicon) -> Option<(usize, Shape)> {
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

fn day_month(t: &[char], p: usize, lexicon: &Lexicon) -> Option<(usize, Shape)> {
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

fn time(t: &[char], p: usize) -> Option<(usize, Shape)> {
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
fn bounded_word(t: &[char], p: usize, words: &Words) -> Option<usize> {
    if !boundary(t, p) {
        return None;
    }
    words_at(t, p, words)
        .map(|length| p + length)
        .find(|&end| boundary(t, end))
}

fn ordinal(t: &[char], p: usize, lexicon: &Lexicon) -> Option<usize> {
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

fn score(t: &[char], p: usize) -> Option<usize> {
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

fn quantity(t: &[char], p: usize, lexicon: &Lexicon) -> Option<(usize, Shape)> {
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

/// What `(?:SPELLED|_ORDINAL_WORD)\b` and the like test: one of `words` at `p`, then `\b`.
fn word_then_boundary(t: &[char], p: usize, words: &Words) -> bool {
    words_at(t, p, words).any(|length| boundary(t, p + length))
}

/// The pattern's first tests: no shape starts at `p` unless they pass.
fn may_start(t: &[char], p: usize, lexicon: &Lexicon) -> bool {
    if before_is(t, p, |c| is_word(c) || ('\u{300}'..='\u{36f}').contains(&c)) {
        return false;
    }
    if !is(t, p, |c| {
        is_word(c)
            || matches!(
                c,
                '`' | '"' | '\'' | '\u{2018}' | '\u{201c}' | '.' | '/' | '~'
            )
    }) {
        return false;
    }
    if !is(t, p, ascii_lower) {
        return true;
    }
    let end = run(t, p, ascii_lower);
    let plain_word = end == t.len()
        || is(t, end, |c| is_space(c) || ",;!?)]\"\u{201d}".contains(c))
        || (at(t, end) == Some('.') && (end + 1 == t.len() || is(t, end + 1, is_space)));
    !plain_word
        || word_then_boundary(t, p, &lexicon.lower_numbers)
        || word_then_boundary(t, p, &lexicon.any_ordinals)
}

/// `_PLAIN_CAPITAL`: a capitalised word that is no month, weekday, number or ordinal word.
fn plain_capital(t: &[char], p: usize, lexicon: &Lexicon) -> bool {
    if !is(t, p, |c| c.is_ascii_uppercase()) {
        return false;
    }
    let lists = [
        &lexicon.month_words,
        &lexicon.weekdays,
        &lexicon.any_numbers,
        &lexicon.any_ordinals,
    ];
    if lists.iter().any(|words| word_then_boundary(t, p, words)) {
        return false;
    }
    let end = run(t, p + 1, ascii_lower);
    end > p + 1
        && (end == t.len()
            || is(t, end, |c| is_space(c) || ",;:!?)]\"\u{201d}".contains(c))
            || (at(t, end) == Some('.') && (end + 1 == t.len() || is(t, end + 1, is_space))))
}

/// The pattern at `p`: the first alternative that matches, and where it ends.
pub fn shape_at(t: &[char], p: usize, lexicon: &Lexicon) -> Option<(usize, Shape)> {
    if !may_start(t, p, lexicon) {
        return None;
    }
    if plain_capital(t, p, lexicon) {
        if let Some(end) = name_run(t, p, lexicon) {
            return Some((end, Shape::Name));
        }
    }
    let simple = |end: Option<usize>, shape: Shape| end.map(|e| (e, shape));
    if let Some(end) = fence(t, p) {
        return Some((end, Shape::Fence));
    }
    if let Some((body_end, tick)) = enclosing(t, p) {
        return Some((p + 1, Shape::Enclosed { body_end, tick }));
    }
    let code = || {
        simple(url(t, p), Shape::Url)
            .or_else(|| simple(email(t, p), Shape::Email))
            .or_else(|| simple(iso(t, p), Shape::Iso))
            .or_else(|| simple(path(t, p), Shape::Path))
            .or_else(|| simple(file(t, p, lexicon), Shape::File))
            .or_else(|| simple(extension(t, p), Shape::Extension))
            .or_else(|| simple(domain(t, p, lexicon), Shape::Domain))
            .or_else(|| simple(snake(t, p), Shape::Identifier))
            .or_else(|| simple(dotted(t, p), Shape::Identifier))
            .or_else(|| simple(camel(t, p), Shape::Identifier))
            .or_else(|| simple(id(t, p), Shape::Id))
    };
    code()
        .or_else(|| month_day(t, p, lexicon))
        .or_else(|| day_month(t, p, lexicon))
        .or_else(|| time(t, p))
        .or_else(|| simple(bounded_word(t, p, &lexicon.full_months), Shape::Month))
        .or_else(|| simple(bounded_word(t, p, &lexicon.weekdays), Shape::Weekday))
        .or_else(|| simple(ordinal(t, p, lexicon), Shape::Ordinal))
        .or_else(|| simple(score(t, p), Shape::Score))
        .or_else(|| quantity(t, p, lexicon))
        .or_else(|| simple(name_run(t, p, lexicon), Shape::Name))
}

#[cfg(test)]
mod tests {
    use super::{Shape, shape_at};
    use crate::claims::lexicon::sample::lexicon;

    fn at(text: &str, p: usize) -> Option<(usize, &'static str)> {
        let chars: Vec<char> = text.chars().collect();
        let kind = |shape: &Shape| match shape {
            Shape::Time { .. } => "time",
            Shape::File => "file",
            Shape::Path => "path",
            Shape::Identifier => "identifier",
            Shape::Id => "id",
            Shape::Name => "name",
            Shape::Enclosed { .. } => "enclosed",
            _ => "other",
        };
        shape_at(&chars, p, &lexicon()).map(|(end, shape)| (end, kind(&shape)))
    }

    #[test]
    fn hours_stop_at_23_and_a_time_needs_minutes_or_a_meridiem() {
        assert_eq!(at("23:59", 0), Some((5, "time")));
        assert_eq!(at("2 pm", 0), Some((4, "time")));
        assert_ne!(at("24:00", 0).map(|f| f.1), Some("time"));
        assert_ne!(at("10:305", 0).map(|f| f.1), Some("time"));
    }

    #[test]
    fn a_file_name_backtracks_to_its_last_known_extension() {
        // ".zz" is no extension, and ".py" followed by ".z" is inside a longer name.
        assert_eq!(at("a.b.py.zz", 0), None);
        assert_eq!(at("a.b.py.-x", 0), Some((6, "file")));
        assert_eq!(at("config.ts", 0), Some((9, "file")));
        assert_eq!(at("x.tsx", 0), None); // not an extension of this lexicon
    }

    #[test]
    fn a_call_is_dropped_when_a_word_follows_it() {
        assert_eq!(at("os.path()x", 0), Some((7, "identifier")));
        assert_eq!(at("os.path()", 0), Some((9, "identifier")));
    }

    #[test]
    fn a_capital_word_ends_before_an_accent_when_a_word_character_follows() {
        // "Jose\u{301}_x": the whole word is followed by `_`, so the word gives up its accent.
        assert_eq!(at("Jose\u{301}_x", 0), Some((4, "name")));
        assert_eq!(at("Jose\u{301} x", 0), Some((5, "name")));
    }
}
