//! Tool results decoded into observations, and the searches over them
//! (`tracegrade.observations`: `observe` in strict mode, `Observations`).
//!
//! TODO(native-observe): the port.

use super::{Fallback, Trace};

/// Which searched text of an observation (`tracegrade.observations.SearchField`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Text,
    Source,
    Name,
}

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

/// Every observation of a trace (`tracegrade.observations.Observations`).
#[derive(Debug)]
pub struct Observations<'v> {
    trace: std::marker::PhantomData<&'v ()>,
}

impl Observations<'_> {
    /// How many observations there are (`Observations.count`).
    pub fn count(&self) -> usize {
        0
    }

    /// `Observations.find_ids`.
    pub fn find_ids(&mut self, _needle: &str, _field: Field) -> Result<Vec<String>, Fallback> {
        Err(Fallback("not yet ported"))
    }

    /// `Observations.find_word_ids`.
    pub fn find_word_ids(
        &mut self,
        _forms: &[&str],
        _field: Field,
    ) -> Result<Vec<Vec<String>>, Fallback> {
        Err(Fallback("not yet ported"))
    }

    /// `Observations.lines_containing`, as sightings.
    pub fn lines_containing(&mut self, _needle: &str) -> Result<Vec<Sighting>, Fallback> {
        Err(Fallback("not yet ported"))
    }
}

/// `observe(trace, strict=True)` with the built-in decoders only.
pub fn observe<'v>(_trace: &Trace<'v>) -> Result<Observations<'v>, Fallback> {
    Err(Fallback("not yet ported"))
}
