//! The search index: case-insensitive substring search over many entries, the rules of
//! `tracegrade/observations/_index.py` (its Python `TextIndex` is the reference).
//!
//! Entries are joined with `\n` and lower-cased once; a needle is found with `memmem` and each
//! hit is mapped back to its entry by counting separators. ASCII needles search the text
//! lower-cased ASCII-only when the text holds neither U+0130 nor U+212A (the only non-ASCII
//! characters whose lower case holds ASCII), which skips Unicode lower-casing altogether.
//! The ASCII lower case is the index's only copy of the text (index/joined.rs writes it); the
//! full lower case is made from it when a search needs it.

mod joined;

use memchr::{memchr, memchr_iter, memmem};

pub use self::joined::Joined;
use crate::lower::{lower, lower_into};
use crate::words::{Word, found_in_ascii};

const SEPARATOR: u8 = b'\n';
/// How many needles' hits an index keeps.
const CACHED: usize = 16;

/// A `(segment, entry within the segment)` hit.
pub type Hit = (usize, usize);

/// Why an index cannot be built: the pieces and counts differ in length.
#[derive(Debug, PartialEq, Eq)]
pub struct LengthMismatch {
    /// What Python's `zip(..., strict=True)` says for the same lists.
    pub message: String,
}

pub struct TextIndex {
    /// Whether every entry is ASCII (`ascii_lowered` is then `str.lower`'s lower case).
    ascii: bool,
    starts: Vec<usize>,
    total: usize,
    ascii_safe: bool,
    /// The joined entries lower-cased ASCII-only (`bytes.lower`). Nothing needs them as given:
    /// `re.IGNORECASE` and `str.lower` read an ASCII capital as its lower case (and their
    /// neighbours' tests, cased, case-ignorable, alphanumeric, do not tell the two apart).
    ascii_lowered: Vec<u8>,
    full_lowered: Option<String>,
    /// The hits of the first needles searched (a grade searches a few, some twice), looked
    /// up in turn: hashing each needle cost more.
    cache: Vec<(String, Vec<Hit>)>,
    /// Where each entry starts in `ascii_lowered` (built for the first whole-word search).
    entry_starts: Option<Vec<usize>>,
}

impl TextIndex {
    /// Index `pieces` (newline-joined entries, `counts[i]` entries in piece `i`).
    ///
    /// # Errors
    /// When `pieces` and `counts` differ in length.
    pub fn new<'a, I>(pieces: I, counts: &[usize]) -> Result<Self, LengthMismatch>
    where
        I: ExactSizeIterator<Item = &'a str>,
    {
        if pieces.len() != counts.len() {
            // `counts` is zip's argument 2.
            let relation = if counts.len() > pieces.len() {
                "longer"
            } else {
                "shorter"
            };
            return Err(LengthMismatch {
                message: format!("zip() argument 2 is {relation} than argument 1"),
            });
        }
        let kept: Vec<Option<&str>> = pieces
            .zip(counts)
            .map(|(piece, &count)| (count > 0).then_some(piece))
            .collect();
        // The exact size: the joined text is built without growing (it can be large).
        let size = kept.iter().flatten().map(|piece| piece.len() + 1).sum();
        let mut joined = Joined::with_capacity(size);
        for (piece, &count) in kept.iter().zip(counts) {
            joined.segment(count);
            if let Some(piece) = piece {
                joined.text(piece);
            }
        }
        Ok(joined.index())
    }

    /// The index of `ascii_lowered` ([`Joined`] writes it).
    fn of(
        ascii_lowered: Vec<u8>,
        starts: Vec<usize>,
        total: usize,
        ascii: bool,
        ascii_safe: bool,
    ) -> Self {
        Self {
            ascii,
            starts,
            total,
            // No needle holds a line break, so the text holds U+0130 or U+212A where an
            // entry does; ASCII entries hold neither.
            ascii_safe,
            ascii_lowered,
            full_lowered: None,
            cache: Vec::new(),
            entry_starts: None,
        }
    }

    /// How many entries the index holds.
    pub fn total(&self) -> usize {
        self.total
    }

    /// Entries holding `needle` case-insensitively, each once, in order; `None` when the
    /// needle holds a line break or NUL (the caller checks entry by entry).
    pub fn search(&mut self, needle: &str) -> Option<Vec<Hit>> {
        self.search_needle(&Needle::new(needle))
    }

    /// [`search`](Self::search) of a needle prepared once.
    pub fn search_needle(&mut self, needle: &Needle) -> Option<Vec<Hit>> {
        let (lowered, finder) = needle.searched()?;
        Some(self.search_lowered(lowered, finder))
    }

    /// [`search`](Self::search) of a needle already lower-cased and searchable, with its
    /// finder.
    fn search_lowered(&mut self, lowered: &str, finder: &memmem::Finder<'_>) -> Vec<Hit> {
        if let Some((_, hits)) = self.cache.iter().find(|(cached, _)| cached == lowered) {
            return hits.clone();
        }
        let found: Vec<usize> = if self.total == 0 {
            Vec::new()
        } else if lowered.is_empty() {
            (0..self.total).collect()
        } else if self.ascii_safe && lowered.is_ascii() {
            hits(&self.ascii_lowered, finder)
        } else {
            hits(self.full_lowered(), finder)
        };
        let located = self.locate(&found);
        if self.cache.len() < CACHED {
            self.cache.push((lowered.to_owned(), located.clone()));
        }
        located
    }

    /// `find_word` for each form, in one call. Each form is found with `memmem`: one
    /// multi-substring pass for all (Aho-Corasick, Teddy) measured slower on these traces.
    pub fn find_words(&mut self, forms: &[&str]) -> Vec<Option<Vec<Hit>>> {
        self.find_forms(&Forms::new(forms))
    }

    /// [`find_words`](Self::find_words) for forms prepared once for several indexes.
    pub fn find_forms(&mut self, forms: &Forms<'_>) -> Vec<Option<Vec<Hit>>> {
        forms.0.iter().map(|form| self.find_form(form)).collect()
    }

    /// Entries holding `form` as a whole word (`tracegrade._text.form_pattern`) among those
    /// holding it case-insensitively (`search`), in order; `None` as for `search`.
    pub fn find_word(&mut self, form: &str) -> Option<Vec<Hit>> {
        self.find_form(&Form::new(form))
    }

    fn find_form(&mut self, form: &Form<'_>) -> Option<Vec<Hit>> {
        let (lowered, finder) = form.needle.searched()?;
        let hits = self.search_lowered(lowered, finder);
        let word = &form.word;
        if word.edgeless() || hits.is_empty() {
            return Some(hits);
        }
        let folded = self.ascii_lowered.as_slice();
        let len = folded.len();
        let entry_starts = self
            .entry_starts
            .get_or_insert_with(|| entry_starts(folded));
        let starts = &self.starts;
        let span = |&(segment, index): &Hit| {
            let number = starts.get(segment).copied().unwrap_or(0) + index;
            let start = entry_starts.get(number).copied().unwrap_or(len);
            let end = entry_starts
                .get(number + 1)
                .map_or(len, |next| next.saturating_sub(1));
            start..end
        };
        let mut kept = hits;
        kept.retain(|hit| {
            let entry = folded.get(span(hit)).unwrap_or_default();
            if entry.is_ascii() {
                // Only an ASCII lower case can occur in ASCII text (and `search` saw it).
                lowered.is_ascii() && found_in_ascii(word, entry, finder)
            } else {
                // Whole UTF-8 characters: the entry lies between two separators.
                std::str::from_utf8(entry).is_ok_and(|text| word.found_in(text))
            }
        });
        Some(kept)
    }

    fn full_lowered(&mut self) -> &[u8] {
        if self.ascii {
            return &self.ascii_lowered; // `str.lower` is the ASCII lower case
        }
        let folded = &self.ascii_lowered;
        self.full_lowered
            .get_or_insert_with(|| {
                let mut out = crate::spare::string(folded.len());
                // Never invalid: ASCII-lower-casing UTF-8 keeps it UTF-8.
                if let Ok(text) = simdutf8::basic::from_utf8(folded) {
                    lower_into(text, &mut out);
                }
                out
            })
            .as_bytes()
    }

    /// Map global entry numbers (ascending) to `(segment, entry within segment)`.
    fn locate(&self, entries: &[usize]) -> Vec<Hit> {
        let starts = &self.starts;
        let last = starts.len().saturating_sub(1);
        let mut segment = 0;
        let mut located = Vec::with_capacity(entries.len());
        for &entry in entries {
            while segment < last && starts.get(segment + 1).is_some_and(|&s| s <= entry) {
                segment += 1;
            }
            let start = starts.get(segment).copied().unwrap_or(0);
            located.push((segment, entry - start.min(entry)));
        }
        located
    }
}

impl Drop for TextIndex {
    /// The big buffers go to the next index built on this thread (see crate::spare).
    fn drop(&mut self) {
        crate::spare::recycle(std::mem::take(&mut self.ascii_lowered));
        if let Some(lowered) = self.full_lowered.take() {
            crate::spare::recycle(lowered.into_bytes());
        }
    }
}

/// Where each `\n`-delimited entry of `text` starts.
fn entry_starts(text: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(memchr_iter(SEPARATOR, text).map(|at| at + 1));
    starts
}

/// A needle prepared once for any number of searches: its lower case, and the finder of
/// that when it holds no line break or NUL (the index joins entries with line breaks and
/// writes those inside an entry as NUL, so such a needle is looked for entry by entry).
#[derive(Clone)]
pub struct Needle {
    lowered: String,
    finder: Option<memmem::Finder<'static>>,
}

impl Needle {
    pub fn new(needle: &str) -> Self {
        let lowered = lower(needle);
        let searchable = !lowered.contains(['\n', '\r', '\0']);
        let finder = searchable.then(|| memmem::Finder::new(lowered.as_bytes()).into_owned());
        Self { lowered, finder }
    }

    /// The needle lower-cased as `str.lower` does.
    pub fn lowered(&self) -> &str {
        &self.lowered
    }

    /// Its lower case and finder, when the index can search it.
    fn searched(&self) -> Option<(&str, &memmem::Finder<'static>)> {
        self.finder
            .as_ref()
            .map(|finder| (self.lowered.as_str(), finder))
    }
}

/// A form prepared for whole-word search: its [`Needle`] and compiled ([`Word`]).
#[derive(Clone)]
struct Form<'f> {
    needle: Needle,
    word: Word<'f>,
}

impl<'f> Form<'f> {
    fn new(form: &'f str) -> Self {
        Self {
            needle: Needle::new(form),
            word: Word::new(form),
        }
    }
}

/// Forms prepared once for [`TextIndex::find_forms`] over several indexes (each field's).
pub struct Forms<'f>(Vec<Form<'f>>);

impl<'f> Forms<'f> {
    pub fn new(forms: &[&'f str]) -> Self {
        Self(forms.iter().map(|form| Form::new(form)).collect())
    }

    /// How many forms there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The forms numbered `numbers` (in that order), as prepared here.
    pub fn subset(&self, numbers: &[usize]) -> Self {
        Self(
            numbers
                .iter()
                .filter_map(|&number| self.0.get(number).cloned())
                .collect(),
        )
    }

    /// The forms as given, in order.
    pub fn texts(&self) -> impl Iterator<Item = &'f str> + '_ {
        self.0.iter().map(|form| form.word.form())
    }
}

/// Numbers of the `\n`-delimited entries of `haystack` holding `finder`'s needle, once each.
fn hits(haystack: &[u8], finder: &memmem::Finder<'_>) -> Vec<usize> {
    let needle = finder.needle();
    let mut found = Vec::new();
    let mut index = 0;
    let mut start = 0;
    while let Some(rest) = haystack.get(start..) {
        let Some(offset) = finder.find(rest) else {
            break;
        };
        let (before, from_hit) = rest.split_at(offset);
        index += memchr_iter(SEPARATOR, before).count();
        found.push(index);
        let after = start + offset + needle.len();
        match from_hit
            .get(needle.len()..)
            .and_then(|tail| memchr(SEPARATOR, tail))
        {
            Some(end) => {
                start = after + end + 1;
                index += 1;
            }
            None => break,
        }
    }
    found
}

#[cfg(test)]
mod tests;
