//! An index's text written once: the entries joined with newlines, ASCII-lower-cased as they
//! are copied (no joined copy first, none kept as given).

use crate::lower::lowers_into_ascii;

use super::{SEPARATOR, TextIndex};

/// The text of a [`TextIndex`] being written, segment by segment.
pub struct Joined {
    lowered: Vec<u8>,
    counts: Vec<usize>,
    /// Whether nothing is written yet (no separator before the first text).
    empty: bool,
    ascii: bool,
    /// Whether a text holds U+0130 or U+212A (see [`TextIndex`]).
    lowers_into_ascii: bool,
}

impl Joined {
    /// A text of about `size` bytes (enough: it is then never copied to grow).
    pub fn with_capacity(size: usize) -> Self {
        Self {
            lowered: crate::spare::buffer(size),
            counts: Vec::new(),
            empty: true,
            ascii: true,
            lowers_into_ascii: false,
        }
    }

    /// Starts the next segment, of `count` entries: what is written until the next call
    /// must hold that many (none for `0`).
    pub fn segment(&mut self, count: usize) {
        self.counts.push(count);
    }

    /// Writes `text`, after a separator unless it is the first: entries already joined with
    /// newlines (a document's lines).
    pub fn text(&mut self, text: &str) {
        self.start(text);
        self.lowered
            .extend(text.bytes().map(|byte| byte.to_ascii_lowercase()));
    }

    /// Writes one entry, after a separator unless it is the first, a line break in it as NUL
    /// (`entry_text`): no needle the index searches holds either.
    pub fn entry(&mut self, text: &str) {
        self.start(text);
        self.lowered.extend(text.bytes().map(|byte| match byte {
            b'\r' | b'\n' => 0,
            other => other.to_ascii_lowercase(),
        }));
    }

    fn start(&mut self, text: &str) {
        if !self.empty {
            self.lowered.push(SEPARATOR);
        }
        self.empty = false;
        if !text.is_ascii() {
            self.ascii = false;
            self.lowers_into_ascii = self.lowers_into_ascii || lowers_into_ascii(text);
        }
    }

    /// The index of what was written.
    pub fn index(self) -> TextIndex {
        let mut starts = Vec::with_capacity(self.counts.len());
        let mut total = 0usize;
        for &count in &self.counts {
            starts.push(total);
            total = total.saturating_add(count);
        }
        TextIndex::of(
            self.lowered,
            starts,
            total,
            self.ascii,
            !self.lowers_into_ascii,
        )
    }
}
