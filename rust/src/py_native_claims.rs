//! The border of the answer's claims on the native fast path (rust/src/native/answer_claims.rs):
//! conversion only, for the engine tests (tests/engines/test_native_claims.py).

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::native::Fallback;
use crate::native::answer_claims::{asked_figures, extract_answer_claims};
use crate::py_claims::PyClaimScanner;
use crate::py_figures::PyFigureExtractor;

/// One claim as `AnswerClaim`'s fields: `(kind, raw, text, start, end, forms, hedged, given)`.
type ClaimTuple<'py> = (
    &'static str,
    String,
    String,
    usize,
    usize,
    Bound<'py, PyTuple>,
    bool,
    bool,
);

const SURROGATE: &str = "a lone surrogate: no Rust string holds one";

/// `extract_answer_claims(answer, asked=asked)` as the native fast path finds the claims,
/// figures and Unicode forms included; the fallback's reason where it declines.
#[pyfunction]
fn native_answer_claims<'py>(
    answer: &Bound<'py, PyString>,
    asked: Vec<Bound<'py, PyString>>,
    extractor: &Bound<'py, PyFigureExtractor>,
    scanner: &Bound<'py, PyClaimScanner>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = answer.py();
    let declined = |reason: &str| Ok(PyString::new(py, reason).into_any());
    let Ok(answer) = answer.to_str() else {
        return declined(SURROGATE);
    };
    let Ok(asked) = asked
        .iter()
        .map(|text| text.to_str())
        .collect::<PyResult<Vec<_>>>()
    else {
        return declined(SURROGATE);
    };
    let (extractor, lexicon) = (&extractor.get().inner, &scanner.get().lexicon);
    let Ok(mut figures) = extractor.figures(answer) else {
        return declined("the answer's figures are left to the reference");
    };
    let mut values = std::collections::HashSet::new();
    figures.retain(|figure| values.insert(figure.value.clone())); // `extract_figures`
    let index = || asked_figures(&asked, extractor);
    let found = match extract_answer_claims(answer, &asked, &figures, index, lexicon) {
        Ok(found) => found,
        Err(Fallback(reason)) => return declined(reason),
    };
    let tuples = found.into_iter().map(|c| -> PyResult<ClaimTuple<'py>> {
        let forms = PyTuple::new(py, c.forms)?;
        Ok((
            c.kind, c.raw, c.text, c.start, c.end, forms, c.hedged, c.given,
        ))
    });
    Ok(PyList::new(py, tuples.collect::<PyResult<Vec<_>>>()?)?.into_any())
}

/// Add the native claim functions to the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(native_answer_claims, module)?)
}
