//! Claims of the kinds a program writes (claims/_scan_code.py): paths, URLs and domains,
//! e-mails, identifiers, ids, quotes. Each builder takes the matched characters.

use super::chars::{ignore_case, is_alnum, is_decimal, is_space, is_word};
use super::lexicon::Lexicon;
use super::text::{at, is, run, starts};
use super::{Claim, unique};
use crate::lower::lower;

fn string(chars: &[char]) -> String {
    chars.iter().collect()
}

/// `_trimmed()`: without the sentence's trailing punctuation.
fn trimmed(raw: &[char]) -> &[char] {
    let mut end = raw.len();
    while end > 0
        && is(raw, end - 1, |c| {
            ".,;:!?)]}'\"\u{2019}\u{201d}>".contains(c)
        })
    {
        end -= 1;
    }
    raw.get(..end).unwrap_or_default()
}

/// A letter `[a-z]` matches under `re.IGNORECASE`.
fn folded_letter(c: char) -> bool {
    ignore_case(c).is_ascii_lowercase()
}

pub fn url_claim(raw: &[char], start: usize) -> Option<Claim> {
    let raw = trimmed(raw);
    let mut from = 0;
    if is(raw, 0, folded_letter) {
        let scheme = run(raw, 1, |c| {
            folded_letter(c) || c.is_ascii_digit() || "+.-".contains(c)
        });
        if starts(raw, scheme, &[':', '/', '/']) {
            from = scheme + 3;
        }
    }
    let www = (0..3).all(|i| is(raw, from + i, |c| ignore_case(c) == 'w'))
        && at(raw, from + 3) == Some('.');
    if www {
        from += 4;
    }
    let mut bare = raw.get(from..).unwrap_or_default();
    while let [rest @ .., '/'] = bare {
        bare = rest;
    }
    let host = bare.split(|&c| c == '/').next().unwrap_or_default();
    if !host.contains(&'.') {
        return None;
    }
    let bare = string(bare);
    Some(Claim::new(
        "url",
        string(raw),
        lower(&bare),
        start,
        vec![bare],
    ))
}

pub fn domain_claim(raw: &[char], start: usize) -> Claim {
    let lowered = lower(&string(raw));
    let bare = lowered.strip_prefix("www.").unwrap_or(&lowered).to_owned();
    Claim::new("url", string(raw), bare.clone(), start, vec![bare])
}

pub fn email_claim(raw: &[char], start: usize) -> Claim {
    let raw = string(trimmed(raw));
    Claim::new("email", raw.clone(), lower(&raw), start, vec![raw])
}

/// `_DOMAIN_HEAD.match(raw)`: `(?:[\w-]+\.)+(?:TLD)/`, case-insensitively.
pub fn domain_head(raw: &[char], lexicon: &Lexicon) -> bool {
    let label = |c: char| is_word(c) || c == '-';
    let mut after_dots = Vec::new();
    let mut index = 0;
    loop {
        let end = run(raw, index, label);
        if end == index || at(raw, end) != Some('.') {
            break;
        }
        index = end + 1;
        after_dots.push(index);
    }
    after_dots.iter().rev().any(|&from| {
        lexicon.tlds.all().iter().any(|tld| {
            let folds = tld
                .iter()
                .enumerate()
                .all(|(i, &c)| is(raw, from + i, |r| ignore_case(r) == c));
            folds && at(raw, from + tld.len()) == Some('/')
        })
    })
}

pub fn path_claim(raw: &[char], start: usize) -> Option<Claim> {
    let raw = trimmed(raw);
    if !raw.is_empty() && raw.iter().all(|&c| is_decimal(c) || "/.,:-".contains(c)) {
        return None; // "24/7", "3/4", "1/2/2024": numbers, not paths
    }
    let segments: Vec<&[char]> = raw.split(|&c| c == '/').filter(|s| !s.is_empty()).collect();
    let has_extension = segments.last().is_some_and(|last| {
        last.iter().rposition(|&c| c == '.').is_some_and(|dot| {
            let tail = last.get(dot + 1..).unwrap_or_default();
            is(tail, 0, |c| c.is_ascii_alphabetic())
                && tail.len() <= 8
                && tail.iter().all(char::is_ascii_alphanumeric)
        })
    });
    let text = string(raw);
    let rooted =
        ["/", "./", "../", "~/"].iter().any(|p| text.starts_with(p)) || text.ends_with('/');
    if segments.is_empty() || (segments.len() < 3 && !has_extension && !rooted) {
        return None; // "and/or", "km/h": prose with one slash
    }
    let stripped = text
        .strip_prefix("./")
        .unwrap_or(&text)
        .trim_end_matches('/');
    let normal = if stripped.is_empty() {
        text.clone()
    } else {
        stripped.to_owned()
    };
    let mut forms = vec![normal.clone()];
    if let (true, Some(last)) = (segments.len() > 1, segments.last()) {
        forms.push(string(last));
    }
    Some(Claim::new("path", text, normal, start, unique(forms)))
}

pub fn extension_claim(raw: &[char], start: usize) -> Claim {
    let text = string(raw);
    let bare = string(raw.get(1..).unwrap_or_default());
    Claim::new("identifier", text.clone(), lower(&text), start, vec![bare])
}

/// `str.strip()`: without surrounding whitespace (Python's definition).
fn strip(chars: &[char]) -> &[char] {
    let first = chars
        .iter()
        .position(|&c| !is_space(c))
        .unwrap_or(chars.len());
    let last = chars
        .iter()
        .rposition(|&c| !is_space(c))
        .map_or(first, |i| i + 1);
    chars.get(first..last.max(first)).unwrap_or_default()
}

pub fn identifier_claim(raw: &[char], start: usize, quoted: bool) -> Option<Claim> {
    let mut inner = if quoted {
        strip(raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default())
    } else {
        raw
    };
    if let [rest @ .., '(', ')'] = inner {
        inner = rest;
    }
    if !inner.iter().any(|&c| is_alnum(c)) {
        return None;
    }
    let inner = string(inner);
    Some(Claim::new(
        "identifier",
        string(raw),
        inner.clone(),
        start,
        vec![inner],
    ))
}

pub fn id_claim(raw: &[char], start: usize) -> Claim {
    let text = string(raw);
    let mut forms = vec![text.clone()];
    if text.contains('-') {
        forms.extend([text.replace('-', ""), text.replace('-', " ")]);
    }
    Claim::new("id", text.clone(), text, start, unique(forms))
}

/// `_TOKENISED.sub(r" \1 ", text)`: spaces around brackets, commas and colons.
fn tokenised(text: &[char]) -> String {
    let mut out = String::new();
    let mut index = 0;
    while index < text.len() {
        let blank_end = run(text, index, is_space);
        if is(text, blank_end, |c| "(),;:".contains(c)) {
            out.push(' ');
            out.extend(at(text, blank_end));
            out.push(' ');
            index = run(text, blank_end + 1, is_space);
        } else {
            out.extend(at(text, index));
            index += 1;
        }
    }
    out
}

pub fn quote_claim(raw: &[char], start: usize) -> Option<Claim> {
    let body = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
    let mut spaced: Vec<char> = Vec::with_capacity(body.len());
    let mut in_space = false;
    for &c in body {
        if !is_space(c) {
            spaced.push(c);
        } else if !in_space {
            spaced.push(' ');
        }
        in_space = is_space(c);
    }
    let inner = strip(&spaced);
    let mut bare_end = inner.len();
    while bare_end > 0 && is(inner, bare_end - 1, |c| ".,;:!?".contains(c)) {
        bare_end -= 1;
    }
    let bare = inner.get(..bare_end).unwrap_or_default();
    if !bare.iter().any(|&c| is_alnum(c)) {
        return None;
    }
    let words = bare
        .split(|&c| is_space(c))
        .filter(|w| !w.is_empty())
        .count();
    if words > 12 {
        return None;
    }
    let bare_text = string(bare);
    let token_form = string(strip(&tokenised(bare).chars().collect::<Vec<_>>()));
    let forms = vec![
        bare_text.clone(),
        string(inner),
        bare_text.replace('-', " "),
        token_form,
    ];
    Some(Claim::new(
        "quote",
        string(raw),
        bare_text,
        start,
        unique(forms),
    ))
}
