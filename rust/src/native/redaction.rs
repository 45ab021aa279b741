//! What redaction would look at in a native trace (`tracegrade.redact._trace._values`): the
//! task and each frame's content, arguments, result and summary, handed to the core's
//! trigger scan, then to the rules those triggers let run ([`check`], redaction_rules.rs).
//! When a rule could change a text, or a key names a credential (the caller checks the
//! keys), the reference grades the redacted trace.

use memchr::memmem;

use super::redaction_rules::Rules;
use super::{Frame, Trace, Value};
use crate::json_scan::{Collector, Scan};
use crate::lower::lower_into;
use sonic_rs::{JsonContainerTrait, JsonValueTrait};

fn walk(value: &Value, collector: &mut Collector) {
    if let Some(text) = value.as_str() {
        collector.value(text);
    } else if let Some(object) = value.as_object() {
        for (key, item) in object.iter() {
            collector.key(key);
            walk(item, collector);
        }
    } else if let Some(array) = value.as_array() {
        for item in array.iter() {
            walk(item, collector);
        }
    }
}

/// The triggers among `needles` the trace's texts hold (lower-cased), and its object keys.
pub fn scan(trace: &Trace<'_>, needles: &[String]) -> Result<Scan, String> {
    let mut collector = Collector::new(needles)?;
    collector.value(trace.task);
    for frame in &trace.frames {
        match frame {
            Frame::User { content } | Frame::Assistant { content } => collector.value(content),
            Frame::ToolCall { args, .. } => {
                if let Some(args) = args {
                    walk(args, &mut collector);
                }
            }
            Frame::ToolResult { result, .. } => {
                if let Some(result) = result {
                    walk(result, &mut collector);
                }
            }
            Frame::Compaction { summary } => collector.value(summary),
            Frame::Approval => {}
        }
    }
    Ok(collector.finish())
}

/// Every string value redaction reads, in order, until `visit` says stop (`true`).
fn each_text<'v>(trace: &Trace<'v>, visit: &mut impl FnMut(&'v str) -> bool) -> bool {
    fn walk<'v>(value: &'v Value, visit: &mut impl FnMut(&'v str) -> bool) -> bool {
        if let Some(text) = value.as_str() {
            visit(text)
        } else if let Some(object) = value.as_object() {
            object.iter().any(|(_, item)| walk(item, visit))
        } else if let Some(array) = value.as_array() {
            array.iter().any(|item| walk(item, visit))
        } else {
            false
        }
    }
    if visit(trace.task) {
        return true;
    }
    trace.frames.iter().any(|frame| match frame {
        Frame::User { content } | Frame::Assistant { content } => visit(content),
        Frame::ToolCall { args, .. } => args.is_some_and(|args| walk(args, visit)),
        Frame::ToolResult { result, .. } => result.is_some_and(|result| walk(result, visit)),
        Frame::Compaction { summary } => visit(summary),
        Frame::Approval => false,
    })
}

/// What redaction could do to a trace, by its text rules: the kind of a rule that could
/// change one of its texts (or `None`: no rule changes any), and the object keys (whose
/// names the caller checks: a key naming a credential has its whole value replaced).
pub fn check(trace: &Trace<'_>, rules: &Rules) -> Result<(Option<String>, Vec<String>), String> {
    let scan = scan(trace, &rules.triggers)?;
    let mut present = vec![false; rules.triggers.len()];
    for &index in &scan.present {
        if let Some(slot) = present.get_mut(index) {
            *slot = true;
        }
    }
    let searched: Vec<(usize, &str)> = rules
        .triggers
        .iter()
        .enumerate()
        .filter(|&(index, _)| present.get(index).copied().unwrap_or(false))
        .map(|(index, trigger)| (index, trigger.as_str()))
        .collect();
    if searched.is_empty() && !rules.some_always_run() {
        return Ok((None, scan.keys)); // no rule runs on any text
    }
    let mut in_text = vec![false; rules.triggers.len()];
    let mut lowered = String::new();
    let mut kind = None;
    each_text(trace, &mut |text| {
        lowered.clear();
        if text.is_ascii() {
            lowered.push_str(text);
            lowered.make_ascii_lowercase();
        } else {
            lower_into(text, &mut lowered);
        }
        in_text.fill(false);
        for &(index, trigger) in &searched {
            if let Some(slot) = in_text.get_mut(index) {
                *slot = memmem::find(lowered.as_bytes(), trigger.as_bytes()).is_some();
            }
        }
        kind = rules.changing(text, &lowered, &in_text).map(str::to_string);
        kind.is_some()
    });
    Ok((kind, scan.keys))
}
