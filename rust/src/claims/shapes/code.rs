//! The alternatives for what a program writes: URLs, e-mails, ISO dates, paths, files,
//! extensions, domains, identifiers and ids (`_SHAPES` in claims/_scan.py, in its order).

use super::{ascii_lower, not_after};
use crate::claims::chars::{is_decimal, is_space, is_word};
use crate::claims::lexicon::Lexicon;
use crate::claims::text::{
    at, before_is, boundary, digit, is, run, run_at_most, starts_str, word, words_at,
};

pub fn url(t: &[char], p: usize) -> Option<usize> {
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

pub fn email(t: &[char], p: usize) -> Option<usize> {
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

pub fn iso(t: &[char], p: usize) -> Option<usize> {
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

pub fn path(t: &[char], p: usize) -> Option<usize> {
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

pub fn file(t: &[char], p: usize, lexicon: &Lexicon) -> Option<usize> {
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

pub fn extension(t: &[char], p: usize) -> Option<usize> {
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

pub fn domain(t: &[char], p: usize, lexicon: &Lexicon) -> Option<usize> {
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

pub fn snake(t: &[char], p: usize) -> Option<usize> {
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

pub fn dotted(t: &[char], p: usize) -> Option<usize> {
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

pub fn camel(t: &[char], p: usize) -> Option<usize> {
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

pub fn id(t: &[char], p: usize) -> Option<usize> {
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
