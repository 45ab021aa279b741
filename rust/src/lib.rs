//! tracegrade's compiled core, the Python extension `tracegrade._core`.
//!
//! Each rule is plain Rust in its own module (tested with `cargo test`); the `#[pyfunction]`s
//! and `#[pyclass]`es here only convert at the border. The Python implementation of each rule
//! stays the executable reference (`TRACEGRADE_CORE=python`); the engine tests in
//! tests/observations (test_index_engines.py, test_engines_corpus.py) hold the two to the same
//! results.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::string_slice
)]

pub mod chars;
pub mod claims;
pub mod figures;
pub mod index;
pub mod json_scan;
pub mod lower;
pub mod native;
pub mod needles;
pub mod normal;
mod py_claims;
mod py_figures;
mod py_models;
mod py_native;
mod py_native_check;
mod py_native_claims;
mod py_native_figures;
mod py_native_observe;
mod py_native_redact;
mod py_read;
mod spare;
#[cfg(test)]
mod testing;
pub mod words;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// The allocator of everything the core allocates (Python's objects keep Python's): the
/// grading of one trace makes and drops thousands of small values (Cargo.toml says what it
/// measured). Nothing allocated here is freed by Python, nor the other way round.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The search index (`tracegrade.observations._index.TextIndex`, compiled).
#[pyclass(name = "TextIndex", module = "tracegrade._core")]
struct PyTextIndex {
    inner: index::TextIndex,
}

#[pymethods]
impl PyTextIndex {
    #[new]
    fn new(pieces: Vec<Bound<'_, PyString>>, counts: Vec<usize>) -> PyResult<Self> {
        // A piece with a lone surrogate fails here (UnicodeEncodeError): the caller then
        // uses the Python engine, which handles any str.
        let texts = pieces
            .iter()
            .map(|piece| piece.to_str())
            .collect::<PyResult<Vec<&str>>>()?;
        let inner = index::TextIndex::new(texts.into_iter(), &counts)
            .map_err(|error| PyValueError::new_err(error.message))?;
        Ok(Self { inner })
    }

    #[getter]
    fn total(&self) -> usize {
        self.inner.total()
    }

    fn search(&mut self, needle: &Bound<'_, PyString>) -> Option<Vec<index::Hit>> {
        match needle.to_str() {
            Ok(text) => self.inner.search(text),
            // A lone surrogate: the indexed text has none, so nothing matches; a line break
            // or NUL still sends the caller to the exact path, as in the reference.
            Err(_) => {
                let lossy = needle.to_string_lossy();
                if lossy.contains(['\n', '\r', '\0']) {
                    None
                } else {
                    Some(Vec::new())
                }
            }
        }
    }

    /// For each form, the entries holding it as a whole word (`TextIndex.find_words`).
    fn find_words(&mut self, forms: Vec<Bound<'_, PyString>>) -> Vec<Option<Vec<index::Hit>>> {
        let texts: Vec<Option<&str>> = forms.iter().map(|form| form.to_str().ok()).collect();
        let valid: Vec<&str> = texts.iter().flatten().copied().collect();
        let mut found = self.inner.find_words(&valid).into_iter();
        forms
            .iter()
            .zip(&texts)
            .map(|(form, text)| match text {
                Some(_) => found.next().flatten(),
                None => self.search(form), // a lone surrogate: as `search` answers it
            })
            .collect()
    }
}

/// Whether a pyclass's value fits where pyo3 keeps it: inside memory Python allocates,
/// aligned to 16 bytes only. A value needing more (a memchr finder holds 32-byte vectors,
/// read with aligned loads) would be misplaced there and fault; such a value is boxed.
const fn fits_python<T>() -> bool {
    std::mem::align_of::<T>() <= 16
}

const _: () = assert!(
    fits_python::<PyTextIndex>()
        && fits_python::<py_claims::PyClaimScanner>()
        && fits_python::<py_figures::PyFigureExtractor>()
        && fits_python::<py_native::PyNativeGrader>()
        && fits_python::<py_native::PyNativeQuestion>()
        && fits_python::<py_native_redact::PyRedactionPatterns>(),
    "a pyclass needs more alignment than Python's memory has: box its value"
);

/// `text` lower-cased exactly as the building interpreter's `str.lower` does.
#[pyfunction(name = "lower")]
fn py_lower(text: &str) -> String {
    lower::lower(text)
}

/// Indices of the needles found in `text` lower-cased (`tracegrade.redact`'s triggers).
#[pyfunction(name = "present_needles")]
fn py_present_needles(text: &str, needles: Vec<String>) -> PyResult<Vec<usize>> {
    needles::present(text, &needles).map_err(PyValueError::new_err)
}

#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("UNICODE_VERSION", lower::UNICODE_VERSION)?;
    module.add_class::<PyTextIndex>()?;
    module.add_function(wrap_pyfunction!(py_lower, module)?)?;
    module.add_function(wrap_pyfunction!(py_present_needles, module)?)?;
    py_read::register(module)?;
    py_claims::register(module)?;
    py_figures::register(module)?;
    py_native::register(module)?;
    py_native_figures::register(module)?;
    py_native_check::register(module)?;
    py_native_observe::register(module)?;
    py_native_claims::register(module)?;
    py_native_redact::register(module)?;
    Ok(())
}
