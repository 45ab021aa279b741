//! The word lists the scanners consult, handed over once from Python (one source of truth:
//! claims/_scan_words.py, the constants of claims/_scan.py and _scan_names.py, and
//! figures/_numbers.py), prepared for matching.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Mutex;

use super::text::Words;
use crate::lower::lower;

/// The hash of the lexicon's word sets: their words are short and fixed (none comes from a
/// trace), so a multiply per eight bytes does, where SipHash cost hundreds of instructions a
/// lookup. A crafted word looked up can only meet the set's own collisions.
#[derive(Default, Clone, Copy)]
pub struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        const SEED: u64 = 0x517c_c1b7_2722_0a95; // rustc's FxHasher
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(SEED);
        }
        let mut word = [0; 8];
        let rest = chunks.remainder();
        if let Some(start) = word.get_mut(..rest.len()) {
            start.copy_from_slice(rest);
        }
        let tail = u64::from_le_bytes(word) ^ (rest.len() as u64) << 59;
        self.0 = (self.0.rotate_left(5) ^ tail).wrapping_mul(SEED);
    }
}

/// A set of lexicon words.
pub type WordSet = HashSet<String, BuildHasherDefault<WordHasher>>;

/// A map from lexicon words.
pub type WordMap<V> = HashMap<String, V, BuildHasherDefault<WordHasher>>;

/// Whether `set` holds the lower case (`str.lower`) of `word`: a short ASCII word is
/// lower-cased on the stack, not in a new string.
pub fn holds_lower(set: &WordSet, word: &str) -> bool {
    let mut buffer = [0u8; 32];
    match buffer.get_mut(..word.len()) {
        Some(low) if word.is_ascii() => {
            low.copy_from_slice(word.as_bytes());
            low.make_ascii_lowercase();
            std::str::from_utf8(low).is_ok_and(|low| set.contains(low))
        }
        _ => set.contains(&lower(word)),
    }
}

/// Words as a regex word trie tries them.
fn longest_first(words: impl IntoIterator<Item = String>) -> Words {
    Words::new(words)
}

/// Python's `str.capitalize()` of an ASCII word.
fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_uppercase().to_string() + &chars.as_str().to_ascii_lowercase()
    })
}

fn with_capitals(words: &[String]) -> Vec<String> {
    words
        .iter()
        .cloned()
        .chain(words.iter().map(|w| capitalize(w)))
        .collect()
}

/// Every list, as the scanners use it.
pub struct Lexicon {
    pub months: Vec<String>,
    pub abbreviations: Vec<Vec<String>>,
    pub month_number: WordMap<usize>,
    pub month_words: Words,
    pub full_months: Words,
    pub weekdays: Words,
    pub number_value: HashMap<String, u32>,
    pub word_of_value: HashMap<u32, String>,
    pub any_numbers: Words,
    pub any_tens: Words,
    pub units: Words,
    pub ordinals: Vec<String>,
    pub any_ordinals: Words,
    /// The number words and `any_ordinals` in one list: a plain word is tested once.
    pub counting_words: Words,
    /// `month_words`, `weekdays`, `any_numbers` and `any_ordinals` in one list: what no
    /// plain capitalised word may be.
    pub named_words: Words,
    pub extensions: Words,
    pub tlds: Words,
    pub connectors: Words,
    pub connector_set: WordSet,
    pub titles: WordSet,
    pub plain_words: WordSet,
    pub stop_nouns: WordSet,
    pub hedges: Words,
    pub places: WordMap<usize>,
    pub place_groups: Vec<Vec<String>>,
    pub plain_abbreviations: WordSet,
    pub suffixes: WordSet,
    pub not_names: WordSet,
    pub compass: WordSet,
    /// The forms of names met before (the reference caches them too, `functools.lru_cache`).
    pub name_forms: Mutex<HashMap<Vec<String>, Vec<String>>>,
}

fn list(words: &HashMap<String, Vec<String>>, key: &str) -> Result<Vec<String>, String> {
    words
        .get(key)
        .cloned()
        .ok_or_else(|| format!("the claim lexicon has no {key:?} list"))
}

fn set(words: &HashMap<String, Vec<String>>, key: &str) -> Result<WordSet, String> {
    Ok(list(words, key)?.into_iter().collect())
}

impl Lexicon {
    /// The lexicon from named word lists, the place groups, the month abbreviations (one
    /// list per month) and the number words with their values.
    ///
    /// # Errors
    /// A list is missing, or the months and their abbreviations do not pair up.
    pub fn new(
        words: &HashMap<String, Vec<String>>,
        place_groups: Vec<Vec<String>>,
        abbreviations: Vec<Vec<String>>,
        numbers: &[(String, u32)],
    ) -> Result<Self, String> {
        let months = list(words, "months")?;
        if months.len() != 12 || abbreviations.len() != 12 {
            return Err(String::from(
                "the claim lexicon needs 12 months and their abbreviations",
            ));
        }
        let mut month_number = WordMap::default();
        for (index, (month, shorts)) in months.iter().zip(&abbreviations).enumerate() {
            month_number.insert(lower(month), index + 1);
            for short in shorts {
                month_number.insert(lower(short), index + 1);
            }
        }
        let all_month_words: Vec<String> = months
            .iter()
            .chain(abbreviations.iter().flatten())
            .cloned()
            .collect();
        let number_words: Vec<String> = numbers.iter().map(|(w, _)| w.clone()).collect();
        let tens: Vec<String> = numbers
            .iter()
            .filter(|(_, v)| *v >= 20)
            .map(|(w, _)| w.clone())
            .collect();
        let units = numbers
            .iter()
            .filter(|(_, v)| (1..=9).contains(v))
            .map(|(w, _)| w.clone());
        let mut word_of_value = HashMap::new();
        for (word, value) in numbers {
            word_of_value.entry(*value).or_insert_with(|| word.clone());
        }
        let ordinals = list(words, "ordinals")?;
        let later: Vec<String> = ordinals.iter().skip(3).cloned().collect();
        let connectors = list(words, "connectors")?;
        let weekdays = list(words, "weekdays")?;
        let any_later = with_capitals(&later);
        let any_number_words = with_capitals(&number_words);
        let counting_words = longest_first(number_words.iter().chain(&any_later).cloned());
        let named_words = longest_first(
            all_month_words
                .iter()
                .chain(&weekdays)
                .chain(&any_number_words)
                .chain(&any_later)
                .cloned(),
        );
        let titles = set(words, "titles")?;
        let mut plain_words = set(words, "common_words")?;
        plain_words.extend(titles.iter().cloned());
        let mut places = WordMap::default();
        for (index, group) in place_groups.iter().enumerate() {
            for alias in group {
                places.insert(lower(alias), index);
            }
        }
        Ok(Self {
            abbreviations,
            month_number,
            month_words: longest_first(all_month_words),
            full_months: longest_first(months.iter().cloned()),
            months,
            weekdays: longest_first(weekdays.iter().cloned()),
            number_value: numbers.iter().cloned().collect(),
            word_of_value,
            any_numbers: longest_first(any_number_words.iter().cloned()),
            any_tens: longest_first(with_capitals(&tens)),
            units: longest_first(units),
            ordinals,
            counting_words,
            named_words,
            any_ordinals: longest_first(any_later),
            extensions: longest_first(list(words, "extensions")?),
            tlds: longest_first(list(words, "tlds")?),
            connectors: longest_first(connectors.iter().cloned()),
            connector_set: connectors.into_iter().collect(),
            titles,
            plain_words,
            stop_nouns: set(words, "stop_nouns")?,
            hedges: longest_first(list(words, "hedges")?.into_iter().filter(|w| w != "may")),
            places,
            place_groups,
            plain_abbreviations: set(words, "plain_abbreviations")?,
            suffixes: set(words, "suffixes")?,
            not_names: set(words, "not_names")?,
            compass: set(words, "compass")?,
            name_forms: Mutex::new(HashMap::new()),
        })
    }

    /// `spelled_value()`: the value of spelled-out number words in any case.
    pub fn spelled_value(&self, words: &str) -> Option<u32> {
        lower(words)
            .replace('-', " ")
            .split_whitespace()
            .map(|part| self.number_value.get(part).copied())
            .sum()
    }

    /// The month (1 to 12) a month word or abbreviation names.
    pub fn month_of(&self, word: &str) -> Option<usize> {
        self.month_number
            .get(lower(word).trim_end_matches('.'))
            .copied()
    }
}

#[cfg(test)]
pub mod sample {
    //! A small lexicon for the crate's own tests (the real lists live in Python).
    use super::Lexicon;
    use std::collections::HashMap;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    pub fn lexicon() -> Lexicon {
        let months = "January February March April May June July August September October \
                      November December";
        let lists = [
            ("months", months),
            ("weekdays", "Monday Friday"),
            ("titles", "president dr"),
            ("connectors", "of van al y"),
            ("common_words", "the it however"),
            ("hedges", "likely may might"),
            ("stop_nouns", "of and"),
            ("ordinals", "first second third fourth fifth"),
            ("extensions", "py ts md"),
            ("tlds", "com org"),
            ("plain_abbreviations", "tv pm"),
            ("suffixes", "jr inc"),
            ("not_names", "I"),
            ("compass", "western"),
        ];
        let named: HashMap<String, Vec<String>> = lists
            .iter()
            .map(|(key, text)| ((*key).to_owned(), words(text)))
            .collect();
        let abbreviations = months
            .split_whitespace()
            .map(|m| vec![m.chars().take(3).collect()]);
        let numbers = [("two", 2), ("five", 5), ("twenty", 20)].map(|(w, v)| (w.to_owned(), v));
        let places = vec![words("Belgium Belgian")];
        Lexicon::new(&named, places, abbreviations.collect(), &numbers)
            .unwrap_or_else(|error| unreachable!("{error}"))
    }
}
