//! The border of the reading path's passes (json_scan.rs): conversions, and the walk over
//! a trace's Python values that hands each string to the collector.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::json_scan::{self, Collector};

/// The bytes of a `bytes` or `str` (a lone surrogate fails: UnicodeEncodeError).
fn json_bytes<'a>(data: &'a Bound<'_, PyAny>) -> PyResult<&'a [u8]> {
    if let Ok(bytes) = data.cast::<PyBytes>() {
        return Ok(bytes.as_bytes());
    }
    if let Ok(text) = data.cast::<PyString>() {
        return Ok(text.to_str()?.as_bytes());
    }
    Err(PyTypeError::new_err("expected JSON as bytes or str"))
}

/// Whether arrays and objects in the JSON `data` nest at most `limit` levels deep.
#[pyfunction(name = "json_depth_within")]
fn py_json_depth_within(data: &Bound<'_, PyAny>, limit: usize) -> PyResult<bool> {
    Ok(json_scan::depth_within(json_bytes(data)?, limit))
}

/// Every string value (in order) and key of `values`, into `collector`: the walk of the
/// reference `tracegrade.redact._scan._collect` (dicts, lists and tuples are entered, keys
/// that are not strings spelled by `str`, other values passed over). A string with a lone
/// surrogate fails (UnicodeEncodeError): the caller then uses the reference.
fn collect(values: &Bound<'_, PyAny>, collector: &mut Collector) -> PyResult<()> {
    let mut pending = vec![values.clone()];
    let mut children = Vec::new();
    while let Some(value) = pending.pop() {
        if let Ok(text) = value.cast::<PyString>() {
            collector.value(text.to_str()?);
            continue;
        }
        if let Ok(object) = value.cast::<PyDict>() {
            for (key, item) in object.iter() {
                match key.cast::<PyString>() {
                    Ok(name) => collector.key(name.to_str()?),
                    Err(_) => collector.key(key.str()?.to_str()?),
                }
                children.push(item);
            }
        } else if let Ok(list) = value.cast::<PyList>() {
            children.extend(list.iter());
        } else if let Ok(tuple) = value.cast::<PyTuple>() {
            children.extend(tuple.iter());
        }
        // Last child on top: the values come off the stack in the reference's order.
        pending.extend(children.drain(..).rev());
    }
    Ok(())
}

/// The indices of the needles found in the string values of `values` (joined with NULs,
/// lower-cased), and every key of their objects.
#[pyfunction(name = "redaction_scan")]
fn py_redaction_scan(
    values: &Bound<'_, PyAny>,
    needles: Vec<String>,
) -> PyResult<(Vec<usize>, Vec<String>)> {
    let mut collector = Collector::new(&needles).map_err(PyValueError::new_err)?;
    collect(values, &mut collector)?;
    let found = collector.finish();
    Ok((found.present, found.keys))
}

/// Add the reading path's functions to the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(py_json_depth_within, module)?)?;
    module.add_function(wrap_pyfunction!(py_redaction_scan, module)?)?;
    Ok(())
}
