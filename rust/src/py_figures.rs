//! The border of figure extraction (rust/src/figures): Python values in, tuples out.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PySet, PyString};

use crate::figures::extract::{Extractor, Figure, Tables};
use crate::figures::index::{Found, Keys};

/// `(kind, raw, value, start, end, hedge)`: a `tracegrade.figures.Figure`'s fields.
type FigureTuple = (&'static str, String, String, usize, usize, Option<String>);

/// `tracegrade.figures._extract`'s extractor, compiled from the reference's patterns.
#[pyclass(name = "FigureExtractor", module = "tracegrade._core", frozen)]
pub(crate) struct PyFigureExtractor {
    pub(crate) inner: Extractor,
}

fn power_of_ten(value: u64) -> Option<u32> {
    let power = value.checked_ilog10()?;
    (10u64.checked_pow(power) == Some(value)).then_some(power)
}

#[pymethods]
impl PyFigureExtractor {
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (patterns, hedges, hedge_window, hedge_after, scales, word_values, ordinals, qualifiers))]
    fn new(
        patterns: Vec<(String, bool)>,
        hedges: Vec<(String, String)>,
        hedge_window: usize,
        hedge_after: String,
        scales: Vec<(String, u64)>,
        word_values: Vec<(String, u64)>,
        ordinals: Vec<String>,
        qualifiers: Vec<(String, String)>,
    ) -> PyResult<Self> {
        let [symbol_led, word_led, value_part, hedge, any_number]: [(String, bool); 5] = patterns
            .try_into()
            .map_err(|_| PyValueError::new_err("expected five patterns"))?;
        let scales = scales
            .into_iter()
            .map(|(name, value)| match power_of_ten(value) {
                Some(power) => Ok((name, power)),
                None => Err(PyValueError::new_err(format!(
                    "scale {name:?} is {value}, not a power of ten"
                ))),
            })
            .collect::<PyResult<Vec<_>>>()?;
        let tables = Tables {
            symbol_led,
            word_led,
            value_part,
            hedge,
            any_number,
            hedges,
            hedge_window,
            hedge_after,
            scales,
            word_values,
            ordinals,
            qualifiers,
        };
        let inner = Extractor::new(tables).map_err(PyValueError::new_err)?;
        Ok(Self { inner })
    }

    /// Every figure of `text` in order (`iter_figures`), or only the first of each value
    /// (`extract_figures`) when `distinct`; `None` when the text is left to the Python
    /// engine (a lone surrogate, a text whose lower case has another length, a number too
    /// deep to match here, or one the reference raises on).
    #[pyo3(signature = (text, distinct = false))]
    fn figures(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyString>,
        distinct: bool,
    ) -> Option<Vec<FigureTuple>> {
        let text = text.to_str().ok()?;
        let found = py.detach(|| {
            if distinct {
                self.inner.distinct_figures(text)
            } else {
                self.inner.figures(text)
            }
        });
        Some(found.ok()?.into_iter().map(tuple).collect())
    }

    /// The canonical value of every number `text` writes (`reference_numbers`), or `None`
    /// when the text is left to the Python engine.
    fn numbers(&self, py: Python<'_>, text: &Bound<'_, PyString>) -> Option<Vec<String>> {
        let text = text.to_str().ok()?;
        py.detach(|| self.inner.numbers(text)).ok()
    }

    /// `FigureIndex.add`'s loop: the figures of `text` into `known` (key to evidence) and
    /// their hedged forms into `approximate`, every number into `numbers` (when given),
    /// skipping what `echoed` holds; `false`, touching nothing, when the text is left to the
    /// Python engine.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (text, evidence, known, approximate, numbers, echoed))]
    fn index(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyString>,
        evidence: &Bound<'_, PyString>,
        known: &Bound<'_, PyDict>,
        approximate: &Bound<'_, PyDict>,
        numbers: Option<&Bound<'_, PyDict>>,
        echoed: &Bound<'_, PySet>,
    ) -> PyResult<bool> {
        let Ok(source) = text.to_str() else {
            return Ok(false);
        };
        let want_numbers = numbers.is_some();
        let Ok(found) = py.detach(|| Found::of(&self.inner, source, want_numbers)) else {
            return Ok(false);
        };
        let mut known = PyKeys {
            dict: known,
            evidence,
        };
        let mut approximate = PyKeys {
            dict: approximate,
            evidence,
        };
        let mut numbers = numbers.map(|dict| PyKeys { dict, evidence });
        let is_echoed = |key: &str| echoed.contains(key);
        found.record(&mut known, &mut approximate, numbers.as_mut(), &is_echoed)?;
        Ok(true)
    }
}

/// A dict of the reference's `FigureIndex`, filled with one call's evidence.
struct PyKeys<'a, 'py> {
    dict: &'a Bound<'py, PyDict>,
    evidence: &'a Bound<'py, PyString>,
}

impl Keys for PyKeys<'_, '_> {
    type Error = PyErr;

    fn has(&self, key: &str) -> PyResult<bool> {
        self.dict.contains(key)
    }

    fn put(&mut self, key: &str) -> PyResult<()> {
        self.dict.set_item(key, self.evidence)
    }
}

fn tuple(figure: Figure) -> FigureTuple {
    (
        figure.kind,
        figure.raw,
        figure.value,
        figure.start,
        figure.end,
        figure.hedge,
    )
}

/// Add the figure functions to the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<PyFigureExtractor>()
}
