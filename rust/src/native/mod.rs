//! Grading a native trace in one call: the bytes in, the grade's plain values out.
//!
//! The Python pipeline (`parse_native_trace`, `observe`, `grade_observed`) is the reference;
//! this is its port for the common case, end to end in Rust so no Python object is made per
//! frame, observation or claim. Whatever the port does not cover, or any input the reference
//! would refuse, returns [`Fallback`]: the caller then runs the reference, which gives the
//! grade or raises its own error with its own message. So the fast path is only ever as
//! strict as the reference or stricter, never more lenient. The engine tests
//! (tests/engines) hold the two to the same grades.
//!
//! Stages, one module each:
//! - file.rs: a native trace file read, and its first bytes asked whether it is one.
//! - json.rs: the bytes parsed (read.rs) under the reference's own limits;
//!   `result_text`, a value serialised as `orjson.dumps` writes it.
//! - trace.rs: the native format validated into [`Trace`] (version 1, as `validate_native_trace`).
//! - observe.rs: tool results decoded by the seven built-in shapes, and the searches over
//!   them (`tracegrade.observations`).
//! - figure_sources.rs: the figures' evidence over the frames (`FigureSources`,
//!   `anchor_pattern`, `amount_values`).
//! - redaction.rs, redaction_rules.rs: whether redaction could change the trace (its rules'
//!   patterns over what it reads), for the caller to grade the redacted trace otherwise.
//! - answer_claims.rs, answer_support.rs: the claims of the answer with no question, each
//!   `given` or not, and their support (`extract_answer_claims`, `support_answer_claims`).
//! - grade.rs: claims, support, provenance, the answer grade: the plain values of a `Grade`.

pub mod answer_claims;
pub mod answer_support;
pub mod figure_sources;
pub mod file;
pub mod grade;
pub mod json;
pub mod observe;
pub mod redaction;
pub mod redaction_rules;
mod redaction_triggers;
pub mod run;
pub mod trace;

pub use json::Value;

/// Why the core leaves a trace to the Python reference (which then grades it or raises).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fallback(pub &'static str);

/// A validated native trace: what grading reads of it, borrowed from the parsed JSON.
#[derive(Debug)]
pub struct Trace<'v> {
    pub id: &'v str,
    pub task: &'v str,
    /// The recorded outcome (`success`, `failure`, `partial`), if any.
    pub outcome: Option<&'v str>,
    pub frames: Vec<Frame<'v>>,
}

/// One frame of a native trace (version 1 has no system frame).
#[derive(Debug)]
pub enum Frame<'v> {
    User {
        content: &'v str,
    },
    Assistant {
        content: &'v str,
    },
    ToolCall {
        id: &'v str,
        name: &'v str,
        /// `None`: missing or JSON null (the reference's `None`).
        args: Option<Value<'v>>,
    },
    ToolResult {
        id: &'v str,
        ok: bool,
        /// `None`: missing or JSON null (the reference's `None`).
        result: Option<Value<'v>>,
    },
    Compaction {
        summary: &'v str,
    },
    Approval,
}
