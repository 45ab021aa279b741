//! An index's text written once: the entries joined with newlines, ASCII-lower-cased (no
//! joined copy first, none kept as given).

use memchr::memchr2;

use crate::lower::lowers_into_ascii;

use super::{SEPARATOR, TextIndex};

/// The text of a [`TextIndex`] being written, segment by segment.
pub struct Joined {
    lowered: Vec<u8>,
    counts: Vec<usize>,
    /// Whether nothing is written yet (no separator before the first text).
    empty: bool,
    /// Where the entries written one by one and not yet lower-cased start: a run of short
    /// entries is lower-cased, and tested for ASCII, at once.
    pending: Option<usize>,
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
            pending: None,
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
    /// newlines (a document's lines). Copied and lower-cased in one loop.
    pub fn text(&mut self, text: &str) {
        self.lower_pending();
        self.separate();
        self.note(text.as_bytes());
        self.lowered
            .extend(text.bytes().map(|byte| byte.to_ascii_lowercase()));
    }

    /// Writes one entry, after a separator unless it is the first, a line break in it as NUL
    /// (`entry_text`): no needle the index searches holds either.
    pub fn entry(&mut self, text: &str) {
        self.separate();
        let from = self.lowered.len();
        self.pending.get_or_insert(from);
        self.lowered.extend_from_slice(text.as_bytes());
        if memchr2(b'\r', b'\n', text.as_bytes()).is_some() {
            let written = self.lowered.get_mut(from..).unwrap_or_default();
            for byte in written
                .iter_mut()
                .filter(|byte| matches!(byte, b'\r' | b'\n'))
            {
                *byte = 0;
            }
        }
    }

    fn separate(&mut self) {
        if !self.empty {
            self.lowered.push(SEPARATOR);
        }
        self.empty = false;
    }

    /// Notes whether `text` is ASCII, else whether it holds U+0130 or U+212A.
    fn note(&mut self, text: &[u8]) {
        if !text.is_ascii() {
            self.ascii = false;
            self.lowers_into_ascii = self.lowers_into_ascii || lowers_into_ascii(text);
        }
    }

    /// Lower-cases the entries written since the last text.
    fn lower_pending(&mut self) {
        let Some(from) = self.pending.take() else {
            return;
        };
        let mut run = std::mem::take(&mut self.lowered);
        if let Some(written) = run.get_mut(from..) {
            self.note(written);
            written.make_ascii_lowercase();
        }
        self.lowered = run;
    }

    /// The index of what was written.
    pub fn index(mut self) -> TextIndex {
        self.lower_pending();
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
