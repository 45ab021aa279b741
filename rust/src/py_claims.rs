//! The border of the claim scanners (`tracegrade.claims._scan`): conversion only.

use std::collections::HashMap;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use crate::claims::{self, Lexicon};

/// One claim as `AnswerClaim`'s fields: `(kind, raw, text, start, end, forms, hedged, given)`.
pub(crate) type ClaimTuple<'py> = (
    &'static str,
    String,
    String,
    usize,
    usize,
    Bound<'py, PyTuple>,
    bool,
    bool,
);

/// A claim as its tuple of fields.
pub(crate) fn claim_tuple(py: Python<'_>, c: claims::Claim) -> PyResult<ClaimTuple<'_>> {
    let forms = PyTuple::new(py, c.forms)?;
    Ok((
        c.kind, c.raw, c.text, c.start, c.end, forms, c.hedged, c.given,
    ))
}

/// The claim scanners with their word lists (`tracegrade.claims._scan_engine`).
#[pyclass(name = "ClaimScanner", module = "tracegrade._core", frozen)]
pub(crate) struct PyClaimScanner {
    pub(crate) lexicon: Lexicon,
}

#[pymethods]
impl PyClaimScanner {
    #[new]
    fn new(
        words: HashMap<String, Vec<String>>,
        places: Vec<Vec<String>>,
        abbreviations: Vec<Vec<String>>,
        numbers: Vec<(String, u32)>,
    ) -> PyResult<Self> {
        let lexicon =
            Lexicon::new(&words, places, abbreviations, &numbers).map_err(PyValueError::new_err)?;
        Ok(Self { lexicon })
    }

    /// The claims of `answer` but figures, each non-ASCII one with its Unicode forms; `None`
    /// when only the reference can say: a lone surrogate (no Rust string holds one), or an
    /// answer the reference raises on.
    fn scan<'py>(&self, answer: &Bound<'py, PyString>) -> PyResult<Option<Vec<ClaimTuple<'py>>>> {
        let Ok(text) = answer.to_str() else {
            return Ok(None);
        };
        let Ok(found) = claims::scan_claims(text, &self.lexicon) else {
            return Ok(None);
        };
        let py = answer.py();
        let tuples = found
            .into_iter()
            .map(|claim| claim_tuple(py, claim.with_unicode_forms()))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(Some(tuples))
    }

    /// The hedged sentences of `answer` as `(start, end)`, or `None` for a lone surrogate.
    fn hedged_spans(&self, answer: &Bound<'_, PyString>) -> Option<Vec<(usize, usize)>> {
        Some(claims::hedged_spans(answer.to_str().ok()?, &self.lexicon))
    }
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<PyClaimScanner>()
}
