//! Tool results decoded into observations, and the searches over them
//! (`tracegrade.observations`: `observe` in strict mode with the built-in decoders only,
//! and `Observations`).
//!
//! Whatever the reference would raise on (an orphan result, a failed result whose body is
//! not `{"ok": false, ...}`, a result no built-in shape reads) is a [`Fallback`]. The caller
//! must also fall back when decoders other than the built-in ones are registered (plugins)
//! or given (a suite's `[decoders.TOOL]` tables): this port knows only the seven shapes.

mod decode;
mod search;

use std::collections::{HashMap, HashSet};

use self::decode::{Source, decode, field};
use super::{Fallback, Frame, Trace};
use crate::index::TextIndex;

/// Which searched text of an observation (`tracegrade.observations.SearchField`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Text,
    Source,
    Name,
}

/// Where an observation is: its segment's number and its 0-based position in that segment
/// (an id once written, `f4.2`, see `Observations::ids`).
pub type Place = (usize, usize);

/// A line observation's number: as the tool wrote it, or counted from 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LineNumber {
    Int(i128),
    Float(f64),
}

/// A line observation as `grade_provenance` cites it (`Sighting`'s fields).
#[derive(Debug, Clone, PartialEq)]
pub struct Sighting {
    pub observation: String,
    pub frame: usize,
    pub file: String,
    pub line: LineNumber,
    pub text: String,
}

/// A source placed in the trace: its frame, its first position there (1-based) and how many
/// observations it holds.
#[derive(Debug)]
struct Segment<'v> {
    frame: usize,
    first: usize,
    source: Source<'v>,
    count: usize,
}

/// Every observation of a trace (`tracegrade.observations.Observations`).
///
/// Each field's index is built when first searched (with no question, a trace whose answer
/// claims nothing in words never searches one).
pub struct Observations<'v> {
    segments: Vec<Segment<'v>>,
    count: usize,
    text: Option<TextIndex>,
    source: Option<TextIndex>,
    name: Option<TextIndex>,
    /// Each document's lines, split when a search first reports one of them.
    lines: HashMap<usize, Vec<&'v str>>,
}

impl std::fmt::Debug for Observations<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "Observations(count={})", self.count)
    }
}

impl<'v> Observations<'v> {
    fn new(segments: Vec<Segment<'v>>) -> Result<Self, Fallback> {
        let count = segments.iter().map(|segment| segment.count).sum();
        Ok(Self {
            segments,
            count,
            text: None,
            source: None,
            name: None,
            lines: HashMap::new(),
        })
    }

    /// How many observations there are (`Observations.count`).
    pub fn count(&self) -> usize {
        self.count
    }

    /// Whether the source index (`"source"` searches) has been built.
    pub fn has_source_index(&self) -> bool {
        self.source.is_some()
    }

    /// Whether the name index (`"name"` searches) has been built.
    pub fn has_name_index(&self) -> bool {
        self.name.is_some()
    }
}

/// `observe(trace, strict=True)` with the built-in decoders only.
pub fn observe<'v>(trace: &Trace<'v>) -> Result<Observations<'v>, Fallback> {
    // Only whether a call came first matters: the built-in decoders apply to every tool.
    let mut calls = Calls::default();
    let mut segments = Vec::new();
    for (index, frame) in trace.frames.iter().enumerate() {
        let (id, ok, result) = match frame {
            Frame::ToolCall { id, .. } => {
                calls.ids.push(id);
                continue;
            }
            Frame::ToolResult { id, ok, result } => (id, *ok, *result),
            _ => continue,
        };
        if !calls.made(id) {
            return Err(Fallback("orphan tool result (the reference raises)"));
        }
        if !ok {
            let failure = result
                .and_then(|value| value.as_object())
                .and_then(|object| field(object, "ok"))
                .is_some_and(|own| own.as_bool() == Some(false));
            if failure {
                continue;
            }
            return Err(Fallback(
                "failed result whose own ok is not false (strict: the reference raises)",
            ));
        }
        let sources = result.and_then(decode).ok_or(Fallback(
            "a result no built-in decoder reads (strict: the reference raises)",
        ))?;
        let mut position = 1;
        for source in sources {
            let count = search::observations_in(&source);
            segments.push(Segment {
                frame: index,
                first: position,
                source,
                count,
            });
            position += count;
        }
    }
    Observations::new(segments)
}

/// The ids of the calls made so far. A result nearly always answers the call just before
/// it: the ids are hashed only when one does not.
#[derive(Default)]
struct Calls<'v> {
    ids: Vec<&'v str>,
    /// The first `hashed` ids.
    set: HashSet<&'v str>,
    hashed: usize,
}

impl Calls<'_> {
    /// Whether a call of `id` was made.
    fn made(&mut self, id: &str) -> bool {
        if self.ids.last() == Some(&id) {
            return true;
        }
        let unhashed = self.ids.get(self.hashed..).unwrap_or_default();
        self.set.extend(unhashed);
        self.hashed = self.ids.len();
        self.set.contains(id)
    }
}

#[cfg(test)]
mod tests;
