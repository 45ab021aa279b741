//! Proper names (claims/_scan_names.py and the name shapes of claims/_scan.py): the runs of
//! capitalised words, which of them are names, and the forms a source writes them in.

mod forms;

use std::borrow::Cow;
use std::collections::HashSet;

use super::Claim;
use super::lexicon::{Lexicon, holds_lower};
use super::text::{at, before_is, digit, is, run, starts_str, word, words_at};
use crate::chars::{is_space, is_upper_text, is_word};
use forms::cached_name_forms;

fn capital(c: char) -> bool {
    c.is_ascii_uppercase()
        || ('\u{c0}'..='\u{d6}').contains(&c)
        || ('\u{d8}'..='\u{de}').contains(&c)
}

/// `_LETTER`: Latin, Greek and Cyrillic letters and combining accents.
fn letter(c: char) -> bool {
    c.is_ascii_alphabetic()
        || matches!(c, '\u{c0}'..='\u{d6}' | '\u{d8}'..='\u{f6}' | '\u{f8}'..='\u{24f}'
            | '\u{300}'..='\u{36f}' | '\u{370}'..='\u{3ff}' | '\u{400}'..='\u{4ff}'
            | '\u{1e00}'..='\u{1eff}')
}

fn joiner(c: char) -> bool {
    matches!(c, '\'' | '\u{2019}' | '-')
}

/// `_CAPITAL_WORD`'s closing lookahead: `(?![.@/]\w|-?\d|\w)`.
fn ends_word(t: &[char], end: usize) -> bool {
    let blocked = (is(t, end, |c| ".@/".contains(c)) && word(t, end + 1))
        || digit(t, end)
        || (at(t, end) == Some('-') && digit(t, end + 1))
        || word(t, end);
    !blocked
}

/// The capitalised word without its prefix, at `q`: `[CAPITAL]LETTER*(?:['’-]LETTER+)*`
/// with every shorter end tried in the regex's order until the lookahead passes.
fn word_body(t: &[char], q: usize) -> Option<usize> {
    if !is(t, q, capital) {
        return None;
    }
    // Each level is a run of letters: its ends from longest to shortest, deepest run first.
    let mut levels = vec![(q + 1, run(t, q + 1, letter))];
    let mut end = run(t, q + 1, letter);
    while is(t, end, joiner) && is(t, end + 1, letter) {
        let next = run(t, end + 1, letter);
        levels.push((end + 2, next));
        end = next;
    }
    levels
        .iter()
        .rev()
        .flat_map(|&(shortest, longest)| (shortest..=longest).rev())
        .find(|&end| ends_word(t, end))
}

/// `_CAPITAL_WORD` at `q`: "Omura's", "al-Assad", "O'Brien", "Bolton-born".
pub fn capital_word(t: &[char], q: usize) -> Option<usize> {
    let prefixed = ["al", "el", "d"]
        .iter()
        .find(|prefix| starts_str(t, q, prefix) && is(t, q + prefix.len(), joiner))
        .and_then(|prefix| word_body(t, q + prefix.len() + 1));
    prefixed.or_else(|| word_body(t, q))
}

fn blanks(t: &[char], p: usize) -> usize {
    run(t, p, |c| c == ' ' || c == '\t')
}

/// `_NAME_RUN` at `p`: capitalised words and the connectors between them.
pub fn name_run(t: &[char], p: usize, lexicon: &Lexicon) -> Option<usize> {
    if before_is(t, p, |c| is_word(c) || c == '-') {
        return None;
    }
    let mut end = capital_word(t, p)?;
    loop {
        let gap = blanks(t, end);
        if gap == end {
            return Some(end);
        }
        let connected = words_at(t, gap, &lexicon.connectors).find_map(|length| {
            let after = blanks(t, gap + length);
            (after > gap + length)
                .then(|| capital_word(t, after))
                .flatten()
        });
        match connected.or_else(|| capital_word(t, gap)) {
            Some(next) => end = next,
            None => return Some(end),
        }
    }
}

/// `_NAME_WORD.finditer` over the run `t[start..end]`: its words with their offsets.
pub fn name_words(t: &[char], start: usize, end: usize) -> Vec<(String, usize)> {
    let run_text = t.get(..end).unwrap_or_default();
    let mut words = Vec::new();
    let mut index = start;
    while index < end {
        let found = capital_word(run_text, index).or_else(|| {
            is(run_text, index, |c| !is_space(c)).then(|| run(run_text, index, |c| !is_space(c)))
        });
        match found {
            Some(word_end) => {
                words.push((
                    run_text
                        .get(index..word_end)
                        .unwrap_or_default()
                        .iter()
                        .collect(),
                    index,
                ));
                index = word_end;
            }
            None => index += 1,
        }
    }
    words
}

/// `_POSSESSIVE` (`['’]s?$`): where the possessive starts, if the word ends in one.
fn possessive(word: &[char]) -> Option<usize> {
    let quote = |i: usize| is(word, i, |c| c == '\'' || c == '\u{2019}');
    (0..word.len()).find(|&i| {
        quote(i) && (i + 1 == word.len() || (at(word, i + 1) == Some('s') && i + 2 == word.len()))
    })
}

/// `_LOWER_TAIL` (`-[a-z][\w'’-]*$`): where a lower-case hyphenated tail starts.
fn lower_tail(word: &[char]) -> Option<usize> {
    let tail = |c: char| is_word(c) || joiner(c);
    let mut first = word.len();
    while first > 0 && is(word, first - 1, tail) {
        first -= 1;
    }
    (first..word.len())
        .find(|&i| at(word, i) == Some('-') && is(word, i + 1, |c| c.is_ascii_lowercase()))
}

/// `clean_word()`: a name word without its possessive and lower-case tail.
pub fn clean_word(word: &str) -> Cow<'_, str> {
    let bytes = word.as_bytes();
    let marked = memchr::memchr2(b'\'', b'-', bytes).is_some()
        || (!word.is_ascii() && word.contains('\u{2019}'));
    if !marked {
        return Cow::Borrowed(word);
    }
    let mut chars: Vec<char> = word.chars().collect();
    if let Some(at) = possessive(&chars) {
        chars.truncate(at);
    }
    if let Some(at) = lower_tail(&chars) {
        chars.truncate(at);
    }
    Cow::Owned(chars.into_iter().collect())
}

pub type Words = Vec<(String, usize)>;

/// `split_name()`: one run of capitalised words as the names it holds.
pub fn split_name(words: Words, lexicon: &Lexicon) -> Vec<Words> {
    if words.len() > 1 && words.iter().all(|(word, _)| is_upper_text(word)) {
        return Vec::new();
    }
    let mut names: Vec<Words> = vec![Vec::new()];
    for (word, offset) in words {
        if is_upper_text(&word) && holds_lower(&lexicon.plain_abbreviations, &word) {
            names.push(Vec::new());
            continue;
        }
        let chars: Vec<char> = word.chars().collect();
        let ends = possessive(&chars).is_some() || lower_tail(&chars).is_some();
        if let Some(last) = names.last_mut() {
            last.push((word, offset));
        }
        if ends {
            names.push(Vec::new());
        }
    }
    names.retain(|name| !name.is_empty());
    names
}

fn is_abbreviation(word: &str, lexicon: &Lexicon) -> bool {
    is_upper_text(word)
        && (word.chars().count() < 3 || holds_lower(&lexicon.plain_abbreviations, word))
}

/// `name_claim()`; `Err(())` where the reference raises.
pub fn name_claim(
    mut words: &[(String, usize)],
    mut sentence_start: bool,
    answer: &[char],
    named: &HashSet<String>,
    lexicon: &Lexicon,
) -> Result<Option<Claim>, ()> {
    while let [(first, _), rest @ ..] = words {
        if !holds_lower(&lexicon.plain_words, first) {
            break;
        }
        words = rest;
        sentence_start = false;
    }
    let last_title = words
        .iter()
        .rposition(|(word, _)| holds_lower(&lexicon.titles, &clean_word(word)));
    if let Some(title) = last_title {
        if let Some((next, _)) = words.get(title + 1) {
            if !holds_lower(&lexicon.connector_set, next) {
                words = words.get(title + 1..).unwrap_or_default();
                sentence_start = false;
            }
        }
    }
    while let [rest @ .., (last, _)] = words {
        if !holds_lower(&lexicon.connector_set, last) {
            break;
        }
        words = rest;
    }
    let kept: Vec<(String, usize)> = if words.len() == 1 {
        words
            .iter()
            .filter(|(w, _)| !is_abbreviation(&clean_word(w), lexicon))
            .cloned()
            .collect()
    } else {
        words.to_vec()
    };
    let (Some((_, start)), Some((last_word, last_start))) = (kept.first(), kept.last()) else {
        return Ok(None);
    };
    let cleaned: Vec<String> = kept
        .iter()
        .map(|(word, _)| clean_word(word).into_owned())
        .collect();
    let capitalised: Vec<&String> = cleaned
        .iter()
        .filter(|w| !holds_lower(&lexicon.connector_set, w))
        .collect();
    if capitalised
        .iter()
        .all(|w| holds_lower(&lexicon.plain_words, w))
    {
        return Ok(None);
    }
    if let [single] = capitalised.as_slice() {
        if single.chars().count() < 2
            || lexicon.not_names.contains(&single.replace('\u{2019}', "'"))
        {
            return Ok(None);
        }
        if sentence_start && !named.contains(*single) {
            return Ok(None);
        }
    }
    let end = last_start + clean_word(last_word).chars().count();
    let raw: String = answer.get(*start..end).unwrap_or_default().iter().collect();
    let forms = cached_name_forms(&cleaned, lexicon).ok_or(())?;
    let mut claim = Claim::new("name", raw, cleaned.join(" "), *start, forms);
    claim.end = end;
    Ok(Some(claim))
}

#[cfg(test)]
mod tests {
    use super::clean_word;
    use std::borrow::Cow;

    #[test]
    fn a_word_loses_its_possessive_and_lower_case_tail_only() {
        assert_eq!(clean_word("Bolton-born"), "Bolton");
        assert_eq!(clean_word("Omura's"), "Omura");
        assert_eq!(clean_word("Omura\u{2019}s"), "Omura");
        assert_eq!(clean_word("Caf\u{e9}-goer"), "Caf\u{e9}");
        assert_eq!(clean_word("Al-Assad"), "Al-Assad");
        assert!(matches!(clean_word("Ludwig"), Cow::Borrowed("Ludwig")));
    }
}
