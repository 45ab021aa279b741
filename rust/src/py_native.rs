//! The border of the native fast path (rust/src/native): the bytes of a native trace in, the
//! dict `Grade.model_validate` takes out, or `None` when the Python reference must grade it.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::native::grade::{GradeValues, Question, grade};
use crate::native::observe::{LineNumber, Sighting};
use crate::native::{Fallback, json, redaction, trace};
use crate::py_claims::PyClaimScanner;
use crate::py_figures::PyFigureExtractor;
use crate::py_native_redact::PyRedactionPatterns;

/// `(id, [(fact id, fact text)], truth_file, tell)`: a `tracegrade.claims.Question`.
type QuestionTuple = (
    String,
    Vec<(String, String)>,
    Option<String>,
    Option<String>,
);

fn sighting<'py>(py: Python<'py>, seen: &Sighting) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "observation"), &seen.observation)?;
    dict.set_item(intern!(py, "frame"), seen.frame)?;
    dict.set_item(intern!(py, "file"), &seen.file)?;
    match seen.line {
        LineNumber::Int(number) => dict.set_item(intern!(py, "line"), number)?,
        LineNumber::Float(number) => dict.set_item(intern!(py, "line"), number)?,
    }
    dict.set_item(intern!(py, "text"), &seen.text)?;
    Ok(dict)
}

fn sightings<'py>(py: Python<'py>, seen: &[Sighting]) -> PyResult<Bound<'py, PyList>> {
    let items = seen
        .iter()
        .map(|one| sighting(py, one))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

fn grade_dict<'py>(py: Python<'py>, values: &GradeValues<'_>) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "trace_id"), values.trace_id)?;
    dict.set_item(intern!(py, "question_id"), &values.question_id)?;
    dict.set_item(intern!(py, "tools"), PyTuple::new(py, &values.tools)?)?;
    dict.set_item(intern!(py, "observations"), values.observations)?;
    dict.set_item(intern!(py, "recorded_outcome"), values.recorded_outcome)?;
    dict.set_item(intern!(py, "answer"), values.answer)?;
    let mut claims = Vec::with_capacity(values.claims.len());
    for claim in &values.claims {
        let item = PyDict::new(py);
        item.set_item(intern!(py, "id"), &claim.id)?;
        item.set_item(intern!(py, "text"), &claim.text)?;
        item.set_item(intern!(py, "in_answer"), claim.in_answer)?;
        item.set_item(intern!(py, "support"), claim.support)?;
        item.set_item(intern!(py, "evidence"), PyTuple::new(py, &claim.evidence)?)?;
        claims.push(item);
    }
    dict.set_item(intern!(py, "claims"), PyList::new(py, claims)?)?;
    dict.set_item(intern!(py, "unread"), PyList::new(py, &values.unread)?)?;
    dict.set_item(intern!(py, "provenance"), values.provenance)?;
    dict.set_item(intern!(py, "truth"), sightings(py, &values.truth)?)?;
    dict.set_item(intern!(py, "copies"), sightings(py, &values.copies)?)?;
    dict.set_item(intern!(py, "final_answer"), &values.final_answer)?;
    let mut figures = Vec::with_capacity(values.figures.len());
    for graded in &values.figures {
        let figure = &graded.figure;
        let item = PyDict::new(py);
        item.set_item(intern!(py, "raw"), &figure.raw)?;
        item.set_item(intern!(py, "value"), &figure.value)?;
        item.set_item(intern!(py, "kind"), figure.kind)?;
        item.set_item(intern!(py, "start"), figure.start)?;
        item.set_item(intern!(py, "end"), figure.end)?;
        let support = if graded.evidence.is_some() {
            "read"
        } else {
            "unsupported"
        };
        item.set_item(intern!(py, "support"), support)?;
        item.set_item(
            intern!(py, "evidence"),
            PyTuple::new(py, graded.evidence.iter())?,
        )?;
        figures.push(item);
    }
    dict.set_item(intern!(py, "figures"), PyList::new(py, figures)?)?;
    dict.set_item(intern!(py, "as_text"), PyList::empty(py))?;
    let mut extracted = Vec::with_capacity(values.extracted.len());
    for claim in &values.extracted {
        let item = PyDict::new(py);
        item.set_item(intern!(py, "kind"), claim.kind)?;
        item.set_item(intern!(py, "raw"), &claim.raw)?;
        item.set_item(intern!(py, "text"), &claim.text)?;
        item.set_item(intern!(py, "start"), claim.start)?;
        item.set_item(intern!(py, "end"), claim.end)?;
        item.set_item(intern!(py, "given"), claim.given)?;
        item.set_item(intern!(py, "hedged"), claim.hedged)?;
        item.set_item(intern!(py, "support"), claim.support)?;
        item.set_item(intern!(py, "evidence"), PyTuple::new(py, &claim.evidence)?)?;
        extracted.push(item);
    }
    dict.set_item(intern!(py, "extracted"), PyList::new(py, extracted)?)?;
    dict.set_item(intern!(py, "reply"), values.reply)?;
    Ok(dict)
}

/// Grade a native trace's bytes against a question in one call: the grade's values and,
/// with `redaction` (a redactor's rules), the trace's object keys, for the caller to check
/// that none names a credential (see native/redaction.rs). `None` when the core leaves the
/// trace to the reference (which grades it, or raises its own error), or when a rule could
/// change one of its texts (the reference then grades the redacted trace).
#[pyfunction]
#[pyo3(signature = (data, question, auto, extractor, scanner, redaction = None))]
#[allow(clippy::too_many_arguments)]
fn grade_native<'py>(
    py: Python<'py>,
    data: &[u8],
    question: QuestionTuple,
    auto: bool,
    extractor: &PyFigureExtractor,
    scanner: &PyClaimScanner,
    redaction: Option<&PyRedactionPatterns>,
) -> PyResult<Option<(Bound<'py, PyDict>, Vec<String>)>> {
    let (id, facts, truth_file, tell) = question;
    let question = Question {
        id,
        facts,
        truth_file,
        tell,
    };
    // The work holds no Python object: other threads run meanwhile (the thread executor).
    let Ok(parsed) = py.detach(|| json::parse(data)) else {
        return Ok(None);
    };
    let graded = py.detach(|| {
        let run = trace::validate(&parsed)?;
        let keys = match redaction {
            Some(patterns) => match redaction::check(&run, &patterns.inner) {
                (None, keys) => keys,
                (Some(_), _) => return Err(Fallback("redaction could change the trace")),
            },
            None => Vec::new(),
        };
        let values = grade(&run, &question, auto, &extractor.inner, &scanner.lexicon)?;
        Ok((values, keys))
    });
    match graded {
        Ok((values, keys)) => Ok(Some((grade_dict(py, &values)?, keys))),
        Err(_) => Ok(None),
    }
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(grade_native, module)?)?;
    Ok(())
}
