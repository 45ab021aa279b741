//! What redaction would look at in a native trace (`tracegrade.redact._trace._values`): the
//! task and each frame's content, arguments, result and summary, handed to the core's
//! trigger scan. The caller decides from the triggers found and the keys whether redaction
//! would change anything; when it would, the reference grades the redacted trace.

use super::{Frame, Trace, Value};
use crate::json_scan::{Collector, Scan};
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
