//! The border of the native fast path (rust/src/native): the bytes of a native trace in, its
//! `Grade` out (built as `model_construct` builds it, see py_models.rs), or `None` when the
//! Python reference must grade it.

use std::path::PathBuf;

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString, PyTuple, PyType};

use crate::native::grade::{GradeValues, Question, grade};
use crate::native::observe::{LineNumber, Sighting};
use crate::native::{Fallback, file, json, redaction, trace};
use crate::py_claims::PyClaimScanner;
use crate::py_figures::PyFigureExtractor;
use crate::py_models::{Builder, Model};
use crate::py_native_redact::PyRedactionPatterns;

/// A question prepared for grading (`NativeGrader.question`), kept for every trace graded
/// against it.
#[pyclass(name = "NativeQuestion", module = "tracegrade._core", frozen)]
pub struct PyNativeQuestion {
    // Boxed: its searched forms hold memchr finders, whose 32-byte vectors Python's 16-byte
    // aligned memory cannot hold in place (aligned loads fault; see `fits_python`).
    inner: Box<Question>,
}

/// `Grade`, `GradedClaim`, `Sighting`, `GradedFigure`, `GradedAnswerClaim`.
type ModelClasses<'py> = (
    Bound<'py, PyType>,
    Bound<'py, PyType>,
    Bound<'py, PyType>,
    Bound<'py, PyType>,
    Bound<'py, PyType>,
);

/// The grade's model classes, each checked against the fields the core builds.
struct Models {
    builder: Builder,
    grade: Model,
    claim: Model,
    sighting: Model,
    figure: Model,
    extracted: Model,
}

/// Grades native traces in one call each: the rules' tables and the `Grade` models, given once.
#[pyclass(name = "NativeGrader", module = "tracegrade._core", frozen)]
pub struct PyNativeGrader {
    extractor: Py<PyFigureExtractor>,
    scanner: Py<PyClaimScanner>,
    models: Models,
}

#[pymethods]
impl PyNativeGrader {
    /// `models`: `Grade`, `GradedClaim`, `Sighting`, `GradedFigure`, `GradedAnswerClaim`.
    #[new]
    fn new(
        py: Python<'_>,
        extractor: Py<PyFigureExtractor>,
        scanner: Py<PyClaimScanner>,
        models: ModelClasses<'_>,
    ) -> PyResult<Self> {
        let (grade, claim, sighting, figure, extracted) = models;
        let models = Models {
            builder: Builder::new(py)?,
            grade: Model::new(py, &grade, &GRADE_FIELDS, &["schema_version", "turn"])?,
            claim: Model::new(py, &claim, &CLAIM_FIELDS, &[])?,
            sighting: Model::new(py, &sighting, &SIGHTING_FIELDS, &[])?,
            figure: Model::new(py, &figure, &FIGURE_FIELDS, &[])?,
            extracted: Model::new(py, &extracted, &EXTRACTED_FIELDS, &[])?,
        };
        Ok(Self {
            extractor,
            scanner,
            models,
        })
    }

    /// A `tracegrade.claims.Question` prepared for grading: `facts` are `(id, text)`.
    fn question(
        &self,
        id: String,
        facts: Vec<(String, String)>,
        truth_file: Option<String>,
        tell: Option<String>,
    ) -> PyNativeQuestion {
        let extractor = &self.extractor.get().inner;
        PyNativeQuestion {
            inner: Box::new(Question::new(id, facts, truth_file, tell, extractor)),
        }
    }

    /// Grade a native trace's bytes against a question: the `Grade` and, with `redaction`
    /// (a redactor's rules), the trace's object keys, for the caller to check that none
    /// names a credential (see native/redaction.rs). `None` when the core leaves the trace
    /// to the reference (which grades it, or raises its own error), or when a rule could
    /// change one of its texts (the reference then grades the redacted trace).
    #[pyo3(signature = (data, question, auto, redaction = None))]
    fn grade<'py>(
        &self,
        py: Python<'py>,
        data: &[u8],
        question: &PyNativeQuestion,
        auto: bool,
        redaction: Option<&PyRedactionPatterns>,
    ) -> PyResult<Graded<'py>> {
        let question = &question.inner;
        let extractor = &self.extractor.get().inner;
        let lexicon = &self.scanner.get().lexicon;
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
            let values = grade(&run, question, auto, extractor, lexicon)?;
            Ok((values, keys))
        });
        match graded {
            Ok((values, keys)) => Ok(Some((self.models.grade(py, &values)?, keys))),
            Err(_) => Ok(None),
        }
    }

    /// Read the native trace file at `path` and grade it as `grade` grades its bytes:
    /// `(False, None)` when it is not a regular file that could be read, or not surely
    /// native by its first bytes (the caller reads and detects it as usual; native/file.rs),
    /// else `(True, grade's answer)`.
    #[pyo3(signature = (path, question, auto, redaction = None))]
    fn grade_file<'py>(
        &self,
        py: Python<'py>,
        path: PathBuf, // from the file system's bytes: a name need not be UTF-8
        question: &PyNativeQuestion,
        auto: bool,
        redaction: Option<&PyRedactionPatterns>,
    ) -> PyResult<(bool, Graded<'py>)> {
        let data = py.detach(|| file::read_regular(&path).filter(|data| file::surely_native(data)));
        match data {
            Some(data) => Ok((true, self.grade(py, &data, question, auto, redaction)?)),
            None => Ok((false, None)),
        }
    }
}

/// A grade and the trace's object keys (see [`PyNativeGrader::grade`]), or `None`.
type Graded<'py> = Option<(Bound<'py, PyAny>, Vec<String>)>;

const GRADE_FIELDS: [&str; 18] = [
    "schema_version",
    "trace_id",
    "question_id",
    "tools",
    "observations",
    "recorded_outcome",
    "answer",
    "claims",
    "unread",
    "provenance",
    "truth",
    "copies",
    "final_answer",
    "figures",
    "as_text",
    "extracted",
    "reply",
    "turn",
];
const CLAIM_FIELDS: [&str; 5] = ["id", "text", "in_answer", "support", "evidence"];
const SIGHTING_FIELDS: [&str; 5] = ["observation", "frame", "file", "line", "text"];
const FIGURE_FIELDS: [&str; 7] = [
    "raw", "value", "kind", "start", "end", "support", "evidence",
];
const EXTRACTED_FIELDS: [&str; 9] = [
    "kind", "raw", "text", "start", "end", "given", "hedged", "support", "evidence",
];

/// A word of a closed set (a support, a kind, a verdict) as Python's one interned copy; the
/// common ones are looked up once per process.
fn word<'py>(py: Python<'py>, text: &str) -> Bound<'py, PyAny> {
    let known = match text {
        "read" => intern!(py, "read"),
        "named-only" => intern!(py, "named-only"),
        "unsupported" => intern!(py, "unsupported"),
        "figure" => intern!(py, "figure"),
        "path" => intern!(py, "path"),
        "identifier" => intern!(py, "identifier"),
        "quote" => intern!(py, "quote"),
        "name" => intern!(py, "name"),
        "number" => intern!(py, "number"),
        "money" => intern!(py, "money"),
        "success" => intern!(py, "success"),
        "partial" => intern!(py, "partial"),
        "failure" => intern!(py, "failure"),
        "ungraded" => intern!(py, "ungraded"),
        "ungradable" => intern!(py, "ungradable"),
        "answered" => intern!(py, "answered"),
        _ => return PyString::intern(py, text).into_any(),
    };
    known.clone().into_any()
}

/// A tuple of the items `build` makes of each value.
fn tuple_of<'py, T>(
    py: Python<'py>,
    values: &[T],
    build: impl Fn(&T) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let items = values.iter().map(build).collect::<PyResult<Vec<_>>>()?;
    Ok(PyTuple::new(py, items)?.into_any())
}

/// A tuple of strings.
fn strings<'py, S: AsRef<str>>(py: Python<'py>, texts: &[S]) -> PyResult<Bound<'py, PyAny>> {
    tuple_of(py, texts, |text| {
        Ok(PyString::new(py, text.as_ref()).into_any())
    })
}

impl Models {
    fn sighting<'py>(&self, py: Python<'py>, seen: &Sighting) -> PyResult<Bound<'py, PyAny>> {
        let line = match seen.line {
            LineNumber::Int(number) => number.into_pyobject(py)?.into_any(),
            LineNumber::Float(number) => number.into_pyobject(py)?.into_any(),
        };
        self.builder.build(
            py,
            &self.sighting,
            [
                PyString::new(py, &seen.observation).into_any(),
                seen.frame.into_pyobject(py)?.into_any(),
                PyString::new(py, &seen.file).into_any(),
                line,
                PyString::new(py, &seen.text).into_any(),
            ],
        )
    }

    fn grade<'py>(&self, py: Python<'py>, values: &GradeValues<'_>) -> PyResult<Bound<'py, PyAny>> {
        let claims = tuple_of(py, &values.claims, |claim| {
            self.builder.build(
                py,
                &self.claim,
                [
                    PyString::new(py, &claim.id).into_any(),
                    PyString::new(py, &claim.text).into_any(),
                    PyBool::new(py, claim.in_answer).to_owned().into_any(),
                    word(py, claim.support),
                    strings(py, &claim.evidence)?,
                ],
            )
        })?;
        let figures = tuple_of(py, &values.figures, |graded| {
            let figure = &graded.figure;
            let support = if graded.evidence.is_some() {
                "read"
            } else {
                "unsupported"
            };
            let evidence: Vec<&String> = graded.evidence.iter().collect();
            self.builder.build(
                py,
                &self.figure,
                [
                    PyString::new(py, &figure.raw).into_any(),
                    PyString::new(py, &figure.value).into_any(),
                    word(py, figure.kind),
                    figure.start.into_pyobject(py)?.into_any(),
                    figure.end.into_pyobject(py)?.into_any(),
                    word(py, support),
                    strings(py, &evidence)?,
                ],
            )
        })?;
        let extracted = tuple_of(py, &values.extracted, |claim| {
            self.builder.build(
                py,
                &self.extracted,
                [
                    word(py, claim.kind),
                    PyString::new(py, &claim.raw).into_any(),
                    PyString::new(py, &claim.text).into_any(),
                    claim.start.into_pyobject(py)?.into_any(),
                    claim.end.into_pyobject(py)?.into_any(),
                    PyBool::new(py, claim.given).to_owned().into_any(),
                    PyBool::new(py, claim.hedged).to_owned().into_any(),
                    word(py, claim.support),
                    strings(py, &claim.evidence)?,
                ],
            )
        })?;
        let outcome = match values.recorded_outcome {
            Some(outcome) => word(py, outcome),
            None => py.None().into_bound(py),
        };
        self.builder.build(
            py,
            &self.grade,
            [
                1u8.into_pyobject(py)?.into_any(), // schema_version
                PyString::new(py, values.trace_id).into_any(),
                PyString::new(py, &values.question_id).into_any(),
                strings(py, &values.tools)?,
                values.observations.into_pyobject(py)?.into_any(),
                outcome,
                word(py, values.answer),
                claims,
                strings(py, &values.unread)?,
                word(py, values.provenance),
                tuple_of(py, &values.truth, |seen| self.sighting(py, seen))?,
                tuple_of(py, &values.copies, |seen| self.sighting(py, seen))?,
                PyString::new(py, &values.final_answer).into_any(),
                figures,
                PyTuple::empty(py).into_any(), // as_text: the core reads no result as text
                extracted,
                word(py, values.reply),
                py.None().into_bound(py), // turn: the whole run
            ],
        )
    }
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<PyNativeGrader>()?;
    module.add_class::<PyNativeQuestion>()?;
    Ok(())
}
