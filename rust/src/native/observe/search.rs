//! The searches over the observations (`Observations.find_ids`, `find_word_ids`,
//! `lines_containing`), through the core's search index (crate::index, the rules of
//! `tracegrade/observations/_index.py`). A needle holding a line break or NUL is checked
//! observation by observation, as the reference's `_exact` does.

use memchr::{memchr, memchr_iter, memchr2_iter};

use super::decode::Source;
use super::{Field, LineNumber, Observations, Place, Segment, Sighting};
use crate::index::{Forms, Joined, Needle, TextIndex};
use crate::lower::lower;
use crate::native::Fallback;
use crate::words::Word;

const LOST: Fallback = Fallback("an index hit outside the observations (a bug: report it)");

/// How many observations a source holds.
pub(super) fn observations_in(source: &Source<'_>) -> usize {
    match source {
        Source::Names(files) | Source::Lines { files, .. } => files.len(),
        Source::Ranked { files, .. } => 2 * files.len(),
        Source::Document { text, .. } => line_count(text),
    }
}

/// How many lines `text` splits into (`split_lines`), without splitting it.
fn line_count(text: &str) -> usize {
    if memchr(b'\r', text.as_bytes()).is_none() {
        memchr_iter(b'\n', text.as_bytes()).count() + 1 // the common case, counted in bulk
    } else {
        breaks(text).count() + 1
    }
}

/// The index of one field over every segment (`_entries`): `text`, each line observation's
/// text; `source`, each line observation's source name (a document's name once); `name`,
/// each path observation's name. A document's lines are its observations; an entry's line
/// break is written as NUL (`entry_text`).
pub(super) fn index(segments: &[Segment<'_>], field: Field) -> TextIndex {
    let entries = |texts: &[&str]| texts.iter().map(|text| text.len() + 1).sum::<usize>();
    let size = segments
        .iter()
        .map(|segment| match (&segment.source, field) {
            (Source::Document { text, .. }, Field::Text) => text.len() + 1,
            (Source::Document { file, .. }, Field::Source) => file.len() + 1,
            (Source::Lines { texts, .. } | Source::Ranked { texts, .. }, Field::Text) => {
                entries(texts)
            }
            (Source::Lines { files, .. } | Source::Ranked { files, .. }, Field::Source)
            | (Source::Names(files) | Source::Ranked { files, .. }, Field::Name) => entries(files),
            _ => 0,
        })
        .sum();
    let mut joined = Joined::with_capacity(size);
    for segment in segments {
        match (&segment.source, field) {
            (Source::Document { text, .. }, Field::Text) => {
                // Counted when the document was placed.
                joined.segment(segment.count);
                if memchr(b'\r', text.as_bytes()).is_some() {
                    joined.text(&text.replace("\r\n", "\n").replace('\r', "\n"));
                } else {
                    joined.text(text);
                }
            }
            (Source::Document { file, .. }, Field::Source) => {
                joined.segment(1);
                joined.entry(file);
            }
            (Source::Lines { texts, .. } | Source::Ranked { texts, .. }, Field::Text) => {
                joined.segment(texts.len());
                texts.iter().for_each(|text| joined.entry(text));
            }
            (Source::Lines { files, .. } | Source::Ranked { files, .. }, Field::Source)
            | (Source::Names(files) | Source::Ranked { files, .. }, Field::Name) => {
                joined.segment(files.len());
                files.iter().for_each(|file| joined.entry(file));
            }
            _ => joined.segment(0),
        }
    }
    joined.index()
}

/// Where each line break (CRLF, CR or LF) of `text` starts, and its width.
fn breaks(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = text.as_bytes();
    memchr2_iter(b'\r', b'\n', bytes).filter_map(move |at| {
        let byte = bytes.get(at).copied();
        if byte == Some(b'\n') && at > 0 && bytes.get(at - 1) == Some(&b'\r') {
            return None; // the LF of a CRLF
        }
        let crlf = byte == Some(b'\r') && bytes.get(at + 1) == Some(&b'\n');
        Some((at, if crlf { 2 } else { 1 }))
    })
}

/// The lines of a document (`split_lines`: a final empty line after a trailing break).
pub(super) fn split_lines(text: &str) -> Vec<&str> {
    if memchr(b'\r', text.as_bytes()).is_none() {
        return text.split('\n').collect();
    }
    let mut lines = Vec::new();
    let mut start = 0;
    for (at, width) in breaks(text) {
        lines.push(text.get(start..at).unwrap_or_default());
        start = at + width;
    }
    lines.push(text.get(start..).unwrap_or_default());
    lines
}

/// The 0-based position in its source of the observation behind an index entry.
fn position(source: &Source<'_>, entry: usize, field: Field) -> usize {
    match (source, field) {
        (Source::Ranked { .. }, Field::Name) => 2 * entry, // path, line, path, line, ...
        (Source::Ranked { .. }, _) => 2 * entry + 1,
        _ => entry,
    }
}

/// The id of the observation at `position` (0-based) of a segment (`observation_id`).
fn observation_id(segment: &Segment<'_>, position: usize) -> String {
    let (mut frame, mut number) = (itoa::Buffer::new(), itoa::Buffer::new());
    let (frame, number) = (
        frame.format(segment.frame),
        number.format(segment.first + position),
    );
    let mut id = String::with_capacity(2 + frame.len() + number.len());
    id.push('f');
    id.push_str(frame);
    id.push('.');
    id.push_str(number);
    id
}

impl<'v> Observations<'v> {
    /// `Observations.find_ids`: the ids of the observations whose text, source name (a
    /// document once, by its first line) or path name contains `needle` case-insensitively.
    pub fn find_ids(&mut self, needle: &Needle, field: Field) -> Result<Vec<String>, Fallback> {
        let found = self.locate(needle, field)?;
        self.ids(&found)
    }

    /// [`find_ids`](Self::find_ids) as `(segment, position)` places, which
    /// [`ids`](Self::ids) writes as ids.
    pub fn find_places(&mut self, needle: &Needle, field: Field) -> Result<Vec<Place>, Fallback> {
        self.locate(needle, field)
    }

    /// `Observations.find_word_ids`: for each form, the ids of the observations showing it
    /// as a whole word (`tracegrade._text.word_test`).
    pub fn find_word_ids(
        &mut self,
        forms: &[&str],
        field: Field,
    ) -> Result<Vec<Vec<String>>, Fallback> {
        let places = self.find_word_places(&Forms::new(forms), field)?;
        places.iter().map(|found| self.ids(found)).collect()
    }

    /// [`find_word_ids`](Self::find_word_ids) of forms prepared once for every field, as
    /// `(segment, position)` places, which [`ids`](Self::ids) writes as ids.
    pub fn find_word_places(
        &mut self,
        forms: &Forms<'_>,
        field: Field,
    ) -> Result<Vec<Vec<Place>>, Fallback> {
        if self.count == 0 {
            return Ok(vec![Vec::new(); forms.len()]);
        }
        let found = self.index_for(field)?.find_forms(forms);
        let mut places = Vec::with_capacity(forms.len());
        for (form, hits) in forms.texts().zip(found) {
            places.push(match hits {
                Some(hits) => self.place(hits, field)?,
                None => {
                    // A line break or NUL: exact, observation by observation.
                    let word = Word::new(form);
                    self.exact(&lower(form), field, |text| {
                        word.edgeless() || word.found_in(text)
                    })
                }
            });
        }
        Ok(places)
    }

    /// The ids of observations found at `places`, in order.
    pub fn ids(&self, places: &[Place]) -> Result<Vec<String>, Fallback> {
        places
            .iter()
            .map(|&(number, position)| self.id(number, position))
            .collect()
    }

    /// `Observations.lines_containing`, as sightings: the line observations whose text
    /// contains `needle`, one per observation.
    pub fn lines_containing(&mut self, needle: &Needle) -> Result<Vec<Sighting>, Fallback> {
        let found = self.locate(needle, Field::Text)?;
        found
            .into_iter()
            .map(|(number, position)| self.sighting(number, position))
            .collect()
    }

    fn id(&self, number: usize, position: usize) -> Result<String, Fallback> {
        let segment = self.segments.get(number).ok_or(LOST)?;
        Ok(observation_id(segment, position))
    }

    fn index_for(&mut self, field: Field) -> Result<&mut TextIndex, Fallback> {
        let slot = match field {
            Field::Text => &mut self.text,
            Field::Source => &mut self.source,
            Field::Name => &mut self.name,
        };
        if slot.is_none() {
            *slot = Some(index(&self.segments, field));
        }
        slot.as_mut().ok_or(LOST)
    }

    /// `(segment, position)` of the observations whose `field` contains `needle`.
    fn locate(&mut self, needle: &Needle, field: Field) -> Result<Vec<(usize, usize)>, Fallback> {
        if self.count == 0 {
            return Ok(Vec::new());
        }
        match self.index_for(field)?.search_needle(needle) {
            Some(hits) => self.place(hits, field),
            None => Ok(self.exact(needle.lowered(), field, |_| true)),
        }
    }

    /// Index hits `(segment, entry)` as `(segment, position)`, in place.
    fn place(&self, mut hits: Vec<(usize, usize)>, field: Field) -> Result<Vec<Place>, Fallback> {
        for (number, entry) in &mut hits {
            let segment = self.segments.get(*number).ok_or(LOST)?;
            *entry = position(&segment.source, *entry, field);
        }
        Ok(hits)
    }

    /// The observations whose `field` lower-cased contains `lowered` and passes `keep`,
    /// observation by observation (`_exact`).
    fn exact(
        &self,
        lowered: &str,
        field: Field,
        keep: impl Fn(&str) -> bool,
    ) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        let mut test = |number: usize, position: usize, text: &str| {
            if lower(text).contains(lowered) && keep(text) {
                found.push((number, position));
            }
        };
        for (number, segment) in self.segments.iter().enumerate() {
            match (&segment.source, field) {
                (Source::Names(files), Field::Name)
                | (Source::Lines { files, .. }, Field::Source)
                | (Source::Lines { texts: files, .. }, Field::Text) => {
                    for (entry, text) in files.iter().enumerate() {
                        test(number, entry, text);
                    }
                }
                (Source::Ranked { files, texts }, _) => {
                    let shown = if field == Field::Text { texts } else { files };
                    for (rank, text) in shown.iter().enumerate() {
                        test(number, position(&segment.source, rank, field), text);
                    }
                }
                // A document's name is cited once, at its first line.
                (Source::Document { file, .. }, Field::Source) => test(number, 0, file),
                (Source::Document { text, .. }, Field::Text) => {
                    for (line, shown) in split_lines(text).into_iter().enumerate() {
                        test(number, line, shown);
                    }
                }
                _ => {}
            }
        }
        found
    }

    /// The line observation at `position` of segment `number`, as `_sighting` writes it.
    fn sighting(&mut self, number: usize, position: usize) -> Result<Sighting, Fallback> {
        const NOT_A_LINE: Fallback = Fallback("a text hit on a path observation (a bug)");
        let segment = self.segments.get(number).ok_or(LOST)?;
        let (file, line, text): (&str, LineNumber, &str) = match &segment.source {
            Source::Lines {
                files,
                numbers,
                texts,
            } => (
                files.get(position).ok_or(LOST)?,
                *numbers.get(position).ok_or(LOST)?,
                texts.get(position).ok_or(LOST)?,
            ),
            Source::Ranked { files, texts } => {
                let rank = position / 2;
                if position % 2 == 0 {
                    return Err(NOT_A_LINE);
                }
                (
                    files.get(rank).ok_or(LOST)?,
                    LineNumber::Int(i128::try_from(rank + 1).map_err(|_| LOST)?),
                    texts.get(rank).ok_or(LOST)?,
                )
            }
            Source::Document { file, text } => {
                let lines = self
                    .lines
                    .entry(number)
                    .or_insert_with(|| split_lines(text));
                (
                    file,
                    LineNumber::Int(i128::try_from(position + 1).map_err(|_| LOST)?),
                    lines.get(position).ok_or(LOST)?,
                )
            }
            Source::Names(_) => return Err(NOT_A_LINE),
        };
        Ok(Sighting {
            observation: observation_id(segment, position),
            frame: segment.frame,
            file: file.to_owned(),
            line,
            text: text.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{line_count, split_lines};

    #[test]
    fn lines_split_on_crlf_cr_and_lf_with_a_final_empty_line() {
        assert_eq!(split_lines("a\r\nb\rc\nd"), ["a", "b", "c", "d"]);
        assert_eq!(split_lines("a\n"), ["a", ""]);
        assert_eq!(split_lines(""), [""]);
        assert_eq!(split_lines("\r\r\n\n\r"), ["", "", "", "", ""]);
        assert_eq!(split_lines("\u{e9}\r\u{e9}"), ["\u{e9}", "\u{e9}"]);
        for text in ["", "a", "a\n", "\n\n", "a\r\nb", "\r", "\r\n\r", "x\n\ry"] {
            assert_eq!(line_count(text), split_lines(text).len(), "{text:?}");
        }
    }
}
