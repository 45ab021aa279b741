//! The border of the claim scanners (`tracegrade.claims._scan`): conversion only.

use std::collections::HashMap;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::claims::{self, Lexicon};

/// One claim as `(kind, raw, text, start, end, forms, hedged)`.
type ClaimTuple = (
    &'static str,
    String,
    String,
    usize,
    usize,
    Vec<String>,
    bool,
);

/// The claim scanners with their word lists (`tracegrade.claims._scan_engine`).
#[pyclass(name = "ClaimScanner", module = "tracegrade._core", frozen)]
struct PyClaimScanner {
    lexicon: Lexicon,
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

    /// The claims of `answer` but figures, or `None` when only the reference can say: a
    /// lone surrogate (no Rust string holds one), or an answer the reference raises on.
    fn scan(&self, answer: &Bound<'_, PyString>) -> Option<Vec<ClaimTuple>> {
        let text = answer.to_str().ok()?;
        let found = claims::scan_claims(text, &self.lexicon).ok()?;
        let tuple = |c: claims::Claim| (c.kind, c.raw, c.text, c.start, c.end, c.forms, c.hedged);
        Some(found.into_iter().map(tuple).collect())
    }

    /// The hedged sentences of `answer` as `(start, end)`, or `None` for a lone surrogate.
    fn hedged_spans(&self, answer: &Bound<'_, PyString>) -> Option<Vec<(usize, usize)>> {
        let text: Vec<char> = answer.to_str().ok()?.chars().collect();
        Some(claims::hedged_spans(&text, &self.lexicon))
    }
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<PyClaimScanner>()
}
