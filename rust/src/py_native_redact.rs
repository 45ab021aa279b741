//! The border of redaction on the native fast path: a redactor's rules compiled once
//! (`RedactionPatterns`), handed to `grade_native`, which then tells whether redaction could
//! change the trace (rust/src/native/redaction_rules.rs).

use pyo3::prelude::*;

use crate::native::redaction::check;
use crate::native::redaction_rules::{Accept, RuleSpec, Rules};
use crate::native::{json, trace};

/// `(kind, source, flags, fold, triggers, group, accept, beside, bounded, after)`: one
/// `RedactionRule`, its patterns as source and flags, its `accept` by name.
type RuleTuple = (
    String,
    String,
    u32,
    bool,
    Vec<String>,
    usize,
    Option<String>,
    Option<(String, u32)>,
    bool,
    String,
);

/// A redactor's text rules compiled for the core (`tracegrade.redact.Redactor.rules`).
#[pyclass(name = "RedactionPatterns", module = "tracegrade._core", frozen)]
pub struct PyRedactionPatterns {
    pub inner: Rules,
}

#[pymethods]
impl PyRedactionPatterns {
    /// `key_parts`: only keys holding one of these (lower-cased) are returned; `None`: all.
    #[new]
    #[pyo3(signature = (rules, not_values, key_parts = None))]
    fn new(rules: Vec<RuleTuple>, not_values: Vec<String>, key_parts: Option<Vec<String>>) -> Self {
        let specs = rules
            .into_iter()
            .map(
                |(kind, source, flags, fold, triggers, group, accept, beside, bounded, after)| {
                    RuleSpec {
                        kind,
                        source,
                        flags,
                        fold,
                        triggers,
                        group,
                        accept: Accept::named(accept.as_deref()),
                        beside,
                        bounded,
                        after,
                    }
                },
            )
            .collect();
        Self {
            inner: Rules::new(specs, not_values, key_parts),
        }
    }

    /// `(rules, rules the core could not compile)`: those may match wherever they run.
    #[getter]
    fn counts(&self) -> (usize, usize) {
        self.inner.counts()
    }

    /// Why the core leaves this native trace to the reference for redaction: the kind of a
    /// rule that could change one of its texts; `None` when no rule could (its keys are
    /// the caller's to check); `"unread"` when the core does not read the trace at all.
    fn declines(&self, py: Python<'_>, data: &[u8]) -> Option<String> {
        py.detach(|| {
            let Ok(parsed) = json::parse(data) else {
                return Some("unread".to_string());
            };
            let Ok(run) = trace::validate(&parsed) else {
                return Some("unread".to_string());
            };
            check(&run, &self.inner).0
        })
    }
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<PyRedactionPatterns>()?;
    Ok(())
}
