//! What redaction could do to a native trace (`tracegrade.redact._trace._values`): the task
//! and each frame's content, arguments, result and summary, each text handed to the rules
//! its triggers let run (redaction_rules.rs), and every object key gathered. When a rule
//! could change a text, or a key names a credential (the caller checks the keys), the
//! reference grades the redacted trace.

use std::collections::HashSet;

use super::redaction_rules::Rules;
use super::{Frame, Trace, Value};
use crate::lower::lower_into;
use sonic_rs::{JsonContainerTrait, JsonValueTrait};

struct Checker<'r> {
    rules: &'r Rules,
    keys: HashSet<String>,
    in_text: Vec<bool>,
    lowered: String,
    /// The kind of the first rule found that could change a text.
    kind: Option<String>,
}

impl Checker<'_> {
    /// One text; `true` once a rule could change it (the walk then stops).
    fn text(&mut self, text: &str) -> bool {
        self.lowered.clear();
        if text.is_ascii() {
            self.lowered.push_str(text);
            self.lowered.make_ascii_lowercase();
        } else {
            lower_into(text, &mut self.lowered);
        }
        if !self.rules.find_triggers(&self.lowered, &mut self.in_text) {
            return false; // no rule runs on it
        }
        self.kind = self
            .rules
            .changing(text, &self.lowered, &self.in_text)
            .map(str::to_string);
        self.kind.is_some()
    }

    fn value(&mut self, value: &Value) -> bool {
        if let Some(text) = value.as_str() {
            self.text(text)
        } else if let Some(object) = value.as_object() {
            object.iter().any(|(key, item)| {
                if !self.keys.contains(key) && self.rules.keeps_key(key) {
                    self.keys.insert(key.to_string());
                }
                self.value(item)
            })
        } else if let Some(array) = value.as_array() {
            array.iter().any(|item| self.value(item))
        } else {
            false
        }
    }
}

/// What redaction could do to a trace by its text rules: the kind of a rule that could
/// change one of its texts (`None`: no rule changes any), and the object keys (whose names
/// the caller checks: a key naming a credential has its whole value replaced), those that
/// may name one ([`Rules::keeps_key`]), complete only when no rule could change a text.
pub fn check(trace: &Trace<'_>, rules: &Rules) -> (Option<String>, Vec<String>) {
    let mut checker = Checker {
        rules,
        keys: HashSet::new(),
        in_text: vec![false; rules.triggers.len()],
        lowered: String::new(),
        kind: None,
    };
    let _stopped = checker.text(trace.task)
        || trace.frames.iter().any(|frame| match frame {
            Frame::User { content } | Frame::Assistant { content } => checker.text(content),
            Frame::ToolCall { args, .. } => args.is_some_and(|args| checker.value(args)),
            Frame::ToolResult { result, .. } => result.is_some_and(|result| checker.value(result)),
            Frame::Compaction { summary } => checker.text(summary),
            Frame::Approval => false,
        });
    (checker.kind, checker.keys.into_iter().collect())
}
