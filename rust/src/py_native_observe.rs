//! A border for testing the native fast path's observations (rust/src/native/observe.rs)
//! against the Python reference: a trace's bytes in, every search's answer out.

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::index::Needle;
use crate::native::observe::{Field, LineNumber, Sighting, observe};
use crate::native::{Fallback, json, trace};

const FIELDS: [Field; 3] = [Field::Text, Field::Source, Field::Name];

/// `(observation, frame, file, line, text)`: a `LineObservation` as `_sighting` cites it.
type SightingTuple = (String, usize, String, Py<PyAny>, String);

/// `(count, find_ids, find_word_ids, lines_containing)`.
type Check = (
    usize,
    Vec<Vec<Vec<String>>>,
    Vec<Vec<Vec<String>>>,
    Vec<Vec<SightingTuple>>,
);

/// The answers, or why the core declines the trace (the caller then runs the reference).
#[derive(IntoPyObject)]
enum Answer {
    Found(Check),
    Declined(&'static str),
}

fn line_number(py: Python<'_>, line: LineNumber) -> PyResult<Py<PyAny>> {
    Ok(match line {
        LineNumber::Int(int) => int.into_pyobject(py)?.into_any().unbind(),
        LineNumber::Float(float) => float.into_pyobject(py)?.into_any().unbind(),
    })
}

fn sighting(py: Python<'_>, found: Sighting) -> PyResult<SightingTuple> {
    let line = line_number(py, found.line)?;
    Ok((found.observation, found.frame, found.file, line, found.text))
}

/// The answers of `observe(parse_native_trace(data))` (strict, built-in decoders):
/// `(count, find_ids, find_word_ids, lines_containing)` with `find_ids[n][f]` for needle `n`
/// in field `f` (text, source, name), `find_word_ids[f]` for all `forms` in field `f`, and
/// `lines_containing[n]` as `(observation, frame, file, line, text)` tuples; the reason as
/// a `str` when the core leaves the trace to the reference.
#[pyfunction]
fn native_observe_check(
    py: Python<'_>,
    data: &[u8],
    needles: Vec<Bound<'_, PyString>>,
    forms: Vec<Bound<'_, PyString>>,
) -> PyResult<Answer> {
    let (Ok(needles), Ok(forms)) = (
        needles
            .iter()
            .map(|n| n.to_str())
            .collect::<PyResult<Vec<&str>>>(),
        forms
            .iter()
            .map(|f| f.to_str())
            .collect::<PyResult<Vec<&str>>>(),
    ) else {
        return Ok(Answer::Declined("a needle or form with a lone surrogate"));
    };
    let answers = || -> Result<_, Fallback> {
        let value = json::parse(data)?;
        let trace = trace::validate(&value)?;
        let mut observations = observe(&trace)?;
        let needles: Vec<Needle> = needles.iter().map(|needle| Needle::new(needle)).collect();
        let mut ids = Vec::with_capacity(needles.len());
        for needle in &needles {
            let per_field = FIELDS
                .iter()
                .map(|&field| observations.find_ids(needle, field))
                .collect::<Result<Vec<_>, _>>()?;
            ids.push(per_field);
        }
        let words = FIELDS
            .iter()
            .map(|&field| observations.find_word_ids(&forms, field))
            .collect::<Result<Vec<_>, _>>()?;
        let lines = needles
            .iter()
            .map(|needle| observations.lines_containing(needle))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((observations.count(), ids, words, lines))
    };
    let (count, ids, words, lines) = match answers() {
        Ok(found) => found,
        Err(Fallback(reason)) => return Ok(Answer::Declined(reason)),
    };
    let lines = lines
        .into_iter()
        .map(|found| {
            found
                .into_iter()
                .map(|one| sighting(py, one))
                .collect::<PyResult<Vec<_>>>()
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(Answer::Found((count, ids, words, lines)))
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(native_observe_check, module)?)
}
