//! The border of the reading path's passes (json_scan.rs): conversions only.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::json_scan;

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

/// The indices of the needles found in the string values of the JSON `data` (lower-cased),
/// and its object keys.
#[pyfunction(name = "redaction_scan")]
fn py_redaction_scan(
    data: &Bound<'_, PyAny>,
    needles: Vec<String>,
) -> PyResult<(Vec<usize>, Vec<String>)> {
    let found = json_scan::scan(json_bytes(data)?, &needles).map_err(PyValueError::new_err)?;
    Ok((found.present, found.keys))
}

/// Add the reading path's functions to the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(py_json_depth_within, module)?)?;
    module.add_function(wrap_pyfunction!(py_redaction_scan, module)?)?;
    Ok(())
}
