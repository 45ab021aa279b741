//! The border of the answer's claims on the native fast path (rust/src/native/answer_claims.rs):
//! and their support (answer_support.rs): conversion only, for the engine tests
//! (tests/engines/test_native_claims.py).

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::claims::Lexicon;
use crate::figures::extract::Extractor;
use crate::native::answer_claims::{asked_figures, extract_answer_claims};
use crate::native::answer_support::{ExtractedClaim, grade_extracted};
use crate::native::figure_sources::figure_evidence;
use crate::native::observe::observe;
use crate::native::{Fallback, json, trace};
use crate::py_claims::{PyClaimScanner, claim_tuple};
use crate::py_figures::PyFigureExtractor;

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
    let Ok(figures) = extractor.distinct_figures(answer) else {
        return declined("the answer's figures are left to the reference");
    };
    let index = || asked_figures(&asked, extractor);
    let found = match extract_answer_claims(answer, &asked, &figures, index, lexicon) {
        Ok(found) => found,
        Err(Fallback(reason)) => return declined(reason),
    };
    let tuples = found.into_iter().map(|claim| claim_tuple(py, claim));
    Ok(PyList::new(py, tuples.collect::<PyResult<Vec<_>>>()?)?.into_any())
}

/// One entry of `extracted`: `(kind, raw, text, start, end, given, hedged, support, evidence)`.
type ExtractedTuple<'py> = (
    &'static str,
    String,
    String,
    usize,
    usize,
    bool,
    bool,
    &'static str,
    Bound<'py, PyTuple>,
);

/// The extracted claims of a native trace as `grade_extracted(trace, observe(trace),
/// grade_figures(trace, answer))` gives them: the trace parsed, validated and observed here,
/// `answer` its final answer (`Trace.final_answer`); the fallback's reason where the fast
/// path declines (the reference then reads, grades or refuses the trace).
#[pyfunction]
fn native_extracted<'py>(
    data: &[u8],
    answer: &Bound<'py, PyString>,
    extractor: &Bound<'py, PyFigureExtractor>,
    scanner: &Bound<'py, PyClaimScanner>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = answer.py();
    let Ok(answer) = answer.to_str() else {
        return Ok(PyString::new(py, SURROGATE).into_any());
    };
    let (extractor, lexicon) = (&extractor.get().inner, &scanner.get().lexicon);
    let found = py.detach(|| extracted(data, answer, extractor, lexicon));
    let found = match found {
        Ok(found) => found,
        Err(Fallback(reason)) => return Ok(PyString::new(py, reason).into_any()),
    };
    let tuples = found.into_iter().map(|c| -> PyResult<ExtractedTuple<'py>> {
        let evidence = PyTuple::new(py, c.evidence)?;
        Ok((
            c.kind, c.raw, c.text, c.start, c.end, c.given, c.hedged, c.support, evidence,
        ))
    });
    Ok(PyList::new(py, tuples.collect::<PyResult<Vec<_>>>()?)?.into_any())
}

fn extracted(
    data: &[u8],
    answer: &str,
    extractor: &Extractor,
    lexicon: &Lexicon,
) -> Result<Vec<ExtractedClaim>, Fallback> {
    let value = json::parse(data)?;
    let trace = trace::validate(&value)?;
    let mut observations = observe(&trace)?;
    let figures = extractor
        .distinct_figures(answer)
        .map_err(|_| Fallback("the answer's figures are left to the reference"))?;
    let evidence = if figures.is_empty() {
        Vec::new() // `grade_figures`: no figure, no sources to index
    } else {
        figure_evidence(&trace, &figures, true, extractor)?
    };
    grade_extracted(
        &trace,
        answer,
        &mut observations,
        (&figures, &evidence),
        extractor,
        lexicon,
    )
}

/// `_unicode_variants(form)` as the fast path computes it (crate::normal): NFC, NFD, bare.
#[pyfunction]
fn native_unicode_variants(form: &str) -> [String; 3] {
    crate::normal::unicode_variants(form)
}

/// Add the native claim functions to the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(native_answer_claims, module)?)?;
    module.add_function(wrap_pyfunction!(native_extracted, module)?)?;
    module.add_function(wrap_pyfunction!(native_unicode_variants, module)?)
}
