//! The border of the native path's first stages (native/json.rs, native/trace.rs), for the
//! tests that hold them to the reference (tests/engines/test_native_parse.py).

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use crate::native::Frame;
use crate::native::json::{Refusal, parse, read, result_text};
use crate::native::trace::validate;

/// One frame as a tuple: its type, then its kept fields (`args` and `result` as their
/// `result_text`).
fn frame_tuple<'py>(py: Python<'py>, frame: &Frame<'_>) -> PyResult<Option<Bound<'py, PyTuple>>> {
    let text = |value| result_text(value).ok();
    let tuple = match frame {
        Frame::User { content } => ("user", *content).into_pyobject(py)?,
        Frame::Assistant { content } => ("assistant", *content).into_pyobject(py)?,
        Frame::ToolCall { id, name, args } => match text(*args) {
            Some(args) => ("tool_call", *id, *name, args).into_pyobject(py)?,
            None => return Ok(None),
        },
        Frame::ToolResult { id, ok, result } => match text(*result) {
            Some(result) => ("tool_result", *id, *ok, result).into_pyobject(py)?,
            None => return Ok(None),
        },
        Frame::Compaction { summary } => ("compaction", *summary).into_pyobject(py)?,
        Frame::Approval => ("approval",).into_pyobject(py)?,
    };
    Ok(Some(tuple))
}

/// `(id, task, outcome, frames)` of a native trace's bytes as the fast path reads them, or
/// `None` where it leaves them to the reference.
#[pyfunction(name = "native_trace_values")]
fn py_native_trace_values<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyBytes>,
) -> PyResult<Option<Bound<'py, PyTuple>>> {
    let Ok(value) = parse(data.as_bytes()) else {
        return Ok(None);
    };
    let Ok(trace) = validate(&value) else {
        return Ok(None);
    };
    let mut frames = Vec::with_capacity(trace.frames.len());
    for frame in &trace.frames {
        match frame_tuple(py, frame)? {
            Some(tuple) => frames.push(tuple),
            None => return Ok(None),
        }
    }
    let frames = PyTuple::new(py, frames)?;
    Ok(Some(
        (trace.id, trace.task, trace.outcome, frames).into_pyobject(py)?,
    ))
}

/// How many frames a native trace's bytes hold when the fast path parses and validates them,
/// or `None` where it leaves them to the reference: those two stages alone, with no Python
/// object made of the trace (what the benchmarks time).
#[pyfunction(name = "native_trace_frames")]
fn py_native_trace_frames(data: &Bound<'_, PyBytes>) -> Option<usize> {
    let value = parse(data.as_bytes()).ok()?;
    validate(&value).ok().map(|trace| trace.frames.len())
}

/// Any JSON text as the fast path's parser reads it: `("read", its value as `result_text`
/// writes it)`, `("not json", None)` where it says orjson refuses the text, or
/// `("declined", reason)` where it leaves the text to the reference.
#[pyfunction(name = "native_json_text")]
fn py_native_json_text(data: &Bound<'_, PyBytes>) -> (&'static str, Option<String>) {
    match read(data.as_bytes()) {
        Ok(document) => match result_text(Some(document.root())) {
            Ok(text) => ("read", Some(text.into_owned())),
            Err(fallback) => ("declined", Some(fallback.0.to_string())),
        },
        Err(Refusal::NotJson) => ("not json", None),
        Err(Refusal::Declined(reason)) => ("declined", Some(reason.to_string())),
    }
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(py_native_json_text, module)?)?;
    module.add_function(wrap_pyfunction!(py_native_trace_values, module)?)?;
    module.add_function(wrap_pyfunction!(py_native_trace_frames, module)?)?;
    Ok(())
}
