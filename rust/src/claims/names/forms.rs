//! The forms of a name (claims/_scan_names.py `name_forms` and its helpers): itself, its
//! place words, demonyms, plurals and spellings, and its shorter parts.

use crate::chars::all_alpha;
use crate::claims::lexicon::{Lexicon, holds_lower};
use crate::claims::text::{at, is, starts_str};
use crate::claims::unique;
use crate::lower::lower;

/// `text[..len - count]` by code points.
fn drop_last(text: &str, count: usize) -> String {
    let length = text.chars().count();
    text.chars().take(length.saturating_sub(count)).collect()
}

fn place_variants(word: &str, lexicon: &Lexicon) -> Vec<String> {
    let lowered = lower(word);
    let mut variants: Vec<String> = lexicon
        .places
        .get(&lowered)
        .and_then(|&group| lexicon.place_groups.get(group))
        .cloned()
        .unwrap_or_default();
    if lexicon.compass.contains(&lowered) {
        variants.push(drop_last(word, 3));
    }
    variants
}

/// `_SPELLING.sub(_swap_spelling, word)`: "-isation" for "-ization" and back.
fn swap_spelling(word: &str) -> String {
    let chars: Vec<char> = word.chars().collect();
    let mut out = chars.clone();
    let mut index = 1;
    while index + 1 < chars.len() {
        let swaps = is(&chars, index - 1, |c| c.is_ascii_lowercase())
            && at(&chars, index) == Some('i')
            && is(&chars, index + 1, |c| c == 's' || c == 'z')
            && ["ation", "e", "ing"]
                .iter()
                .any(|tail| starts_str(&chars, index + 2, tail));
        if swaps {
            if let Some(slot) = out.get_mut(index + 1) {
                *slot = if *slot == 's' { 'z' } else { 's' };
            }
            index += 2;
        } else {
            index += 1;
        }
    }
    out.into_iter().collect()
}

fn word_variants(word: &str, lexicon: &Lexicon) -> Vec<String> {
    let lowered = lower(word);
    let mut variants = place_variants(word, lexicon);
    if variants.is_empty() && word.chars().count() >= 5 && all_alpha(word) {
        if lowered.ends_with('a') {
            variants.extend([format!("{word}n"), format!("{word}ns")]);
        }
        if lowered.ends_with("an") {
            variants.push(drop_last(word, 1));
        }
        if lowered.ends_with("ian") {
            let stem = drop_last(word, 3);
            variants.extend([stem.clone(), format!("{stem}y"), format!("{stem}e")]);
        }
        if lowered.ends_with('y') {
            variants.push(format!("{}ian", drop_last(word, 1)));
        }
        if lowered.ends_with('s') && !lowered.ends_with("ss") {
            variants.push(drop_last(word, 1));
        } else {
            variants.push(format!("{word}s"));
        }
    }
    let spelled = swap_spelling(word);
    if spelled != word {
        variants.push(spelled);
    }
    variants
}

/// Names met again are common (a person named twice, the same answers graded again).
const CACHED_NAMES: usize = 4096;

/// `name_forms()`, remembered; `None` where the reference raises.
pub fn cached_name_forms(cleaned: &[String], lexicon: &Lexicon) -> Option<Vec<String>> {
    if let Some(forms) = lexicon
        .name_forms
        .lock()
        .ok()
        .and_then(|c| c.get(cleaned).cloned())
    {
        return Some(forms);
    }
    let forms = name_forms(cleaned, lexicon)?;
    if let Ok(mut cache) = lexicon.name_forms.lock() {
        if cache.len() >= CACHED_NAMES {
            cache.clear();
        }
        cache.insert(cleaned.to_vec(), forms.clone());
    }
    Some(forms)
}

/// `name_forms()`; `None` where the reference raises (a name of connectors and a suffix).
fn name_forms(cleaned: &[String], lexicon: &Lexicon) -> Option<Vec<String>> {
    let connector = |word: &String| holds_lower(&lexicon.connector_set, word);
    let text = cleaned.join(" ");
    let mut forms = vec![text.clone()];
    if let Some(group) = lexicon
        .places
        .get(&lower(&text))
        .and_then(|&g| lexicon.place_groups.get(g))
    {
        forms.extend(group.iter().cloned());
    }
    let mut words = cleaned;
    if let [rest @ .., last] = cleaned {
        if !rest.is_empty() && holds_lower(&lexicon.suffixes, last) {
            words = rest;
            forms.push(words.join(" "));
        }
    }
    let parts: Vec<&String> = words.iter().filter(|w| !connector(w)).collect();
    let mut pieces: Vec<String> = if let [only] = parts.as_slice() {
        forms.extend(word_variants(only, lexicon));
        if only.contains('-') {
            only.split('-').map(String::from).collect()
        } else {
            Vec::new()
        }
    } else {
        let last_part = parts.last()?;
        let (last, head) = words.split_last()?;
        let mut choices: Vec<Vec<String>> = head
            .iter()
            .map(|word| {
                std::iter::once(word.clone())
                    .chain(place_variants(word, lexicon))
                    .collect()
            })
            .collect();
        choices.push(
            std::iter::once(last.clone())
                .chain(word_variants(last, lexicon))
                .collect(),
        );
        forms.extend(product(&choices, 32));
        last_part
            .split('-')
            .next_back()
            .map(String::from)
            .into_iter()
            .collect()
    };
    let pairs: Vec<String> = words
        .windows(2)
        .filter_map(|pair| match pair {
            [first, second] if !connector(first) && !connector(second) => {
                Some(format!("{first} {second}"))
            }
            _ => None,
        })
        .collect();
    if words.len() > 2 && !pairs.is_empty() {
        forms.extend(pairs);
        pieces.clear();
    }
    for piece in pieces {
        if piece.chars().count() >= 4 && !holds_lower(&lexicon.plain_words, &piece) {
            let variants = word_variants(&piece, lexicon);
            forms.push(piece);
            forms.extend(variants);
        }
    }
    Some(unique(forms))
}

/// The first `limit` of `itertools.product(*choices)`, each joined with spaces: the last
/// choice varies fastest, as a mixed-radix count.
fn product(choices: &[Vec<String>], limit: usize) -> Vec<String> {
    let total = choices
        .iter()
        .try_fold(1usize, |n, c| n.checked_mul(c.len()))
        .unwrap_or(usize::MAX);
    (0..total.min(limit))
        .map(|mut index| {
            let mut picked: Vec<&str> = Vec::with_capacity(choices.len());
            for choice in choices.iter().rev() {
                let size = choice.len().max(1);
                picked.extend(choice.get(index % size).map(String::as_str));
                index /= size;
            }
            picked.reverse();
            picked.join(" ")
        })
        .collect()
}
