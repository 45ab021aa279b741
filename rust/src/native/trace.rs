//! The native format validated (`tracegrade.traces._native.validate_native_trace`).
//!
//! TODO(native-parse): version 1 validated exactly as the reference's pydantic model.

use super::{Fallback, Trace, Value};

/// The trace a parsed native file holds, or [`Fallback`] for anything the reference refuses.
pub fn validate(_value: &Value) -> Result<Trace<'_>, Fallback> {
    Err(Fallback("not yet ported"))
}
