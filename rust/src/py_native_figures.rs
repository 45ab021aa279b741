//! The border of the native path's figure evidence (rust/src/native/figure_sources.rs), for
//! the engine tests: a trace's bytes and an answer in, each figure's evidence out.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::native::figure_sources::structured::{MONEY_WORDS, OTHER_WORDS};
use crate::native::{Fallback, figure_sources, json, trace};
use crate::py_figures::PyFigureExtractor;

/// Each figure's evidence, or why the core left the trace to the reference.
#[derive(IntoPyObject)]
enum Evidence {
    Found(Vec<Option<String>>),
    Declined(&'static str),
}

/// For each figure of `answer` (`extract_figures`), the first frame of the native trace in
/// `data` that sources it (`"f4"`) or `None`, as `FigureSources(lines_matching=
/// anchor_pattern(figures), bare_numbers=False, humans=humans)` gives it; a `str` saying why
/// when the core leaves the trace to the reference.
#[pyfunction]
fn native_figure_evidence(
    py: Python<'_>,
    data: &Bound<'_, PyBytes>,
    answer: &Bound<'_, PyString>,
    humans: bool,
    extractor: &Bound<'_, PyFigureExtractor>,
) -> PyResult<Evidence> {
    let bytes = data.as_bytes();
    let Ok(answer) = answer.to_str() else {
        return Ok(Evidence::Declined("the answer has a lone surrogate"));
    };
    let extractor = &extractor.get().inner;
    let found = py.detach(|| {
        let figures = extractor
            .distinct_figures(answer)
            .map_err(|_| Fallback("figure extraction left the answer to the reference"))?;
        let value = json::parse(bytes)?;
        let trace = trace::validate(&value)?;
        figure_sources::figure_evidence(&trace, &figures, humans, extractor)
    });
    Ok(match found {
        Ok(evidence) => Evidence::Found(evidence),
        Err(Fallback(why)) => Evidence::Declined(why),
    })
}

/// Add the native figure functions to the module.
/// The head words the core reads structured money by (`_MONEY_WORDS`, `_OTHER_WORDS`), for
/// the test that holds them to the reference's lists.
#[pyfunction]
fn native_key_words() -> (Vec<&'static str>, Vec<&'static str>) {
    (MONEY_WORDS.to_vec(), OTHER_WORDS.to_vec())
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(native_figure_evidence, module)?)?;
    module.add_function(wrap_pyfunction!(native_key_words, module)?)
}
