//! The native format validated (`tracegrade.traces._native.validate_native_trace`).
//!
//! Version 1 only, with the strict rules of the pydantic model
//! (`tracegrade.traces._model`): a JSON boolean is not an int, `7` is not `"7"`, a string
//! may be empty unless it is the trace's id, task, commit or model. Keys the format does not
//! name are ignored, in the trace and in each frame. Anything the reference refuses falls
//! back, so the reference raises its own error; a version other than 1 falls back too
//! (version 2 is the full model, which the reference reads).

use super::json::{Document, Kind, Number, Object};
use super::{Fallback, Frame, Trace, Value};

/// The trace a parsed native file holds, or [`Fallback`] for anything the reference refuses.
pub fn validate<'v>(document: &'v Document<'v>) -> Result<Trace<'v>, Fallback> {
    let raw = document
        .root()
        .as_object()
        .ok_or(Fallback("a trace that is not an object"))?;
    let fields = TraceFields::of(raw);
    if let Some(version) = fields.schema_version {
        // The reference compares with ==, so 1.0 and true read as 1 too: left to it.
        if version.as_i64() != Some(1) {
            return Err(Fallback("a schema_version other than the integer 1"));
        }
    }
    // Each may still be null where the model allows.
    let required = [
        fields.id,
        fields.commit,
        fields.model,
        fields.task,
        fields.outcome,
        fields.tokens,
        fields.frames,
    ];
    if required.iter().any(Option::is_none) {
        return Err(Fallback("a required key is missing"));
    }
    let id = non_empty(fields.id)?;
    let task = non_empty(fields.task)?;
    for field in [fields.commit, fields.model] {
        if !field.is_some_and(|value| value.is_null()) {
            non_empty(field)?;
        }
    }
    let outcome = match fields.outcome {
        Some(value) if value.is_null() => None,
        Some(value) => Some(
            value
                .as_str()
                .filter(|text| matches!(*text, "success" | "failure" | "partial"))
                .ok_or(Fallback("an outcome not success, failure, partial or null"))?,
        ),
        None => None,
    };
    let tokens = fields
        .tokens
        .and_then(|value| value.as_array())
        .ok_or(Fallback("tokens that are not an array"))?;
    if !tokens.iter().all(is_count) {
        return Err(Fallback("a token count that is not a non-negative integer"));
    }
    let frames = fields
        .frames
        .and_then(|value| value.as_array())
        .ok_or(Fallback("frames that are not an array"))?;
    if frames.is_empty() {
        return Err(Fallback("no frames"));
    }
    if !tokens.is_empty() && tokens.len() != frames.len() {
        return Err(Fallback("tokens not as many as the frames"));
    }
    let frames = frames.iter().map(frame).collect::<Result<Vec<_>, _>>()?;
    Ok(Trace {
        id,
        task,
        outcome,
        frames,
    })
}

/// The fields of a version 1 trace, each read once from its pairs (keys it does not name
/// are ignored; the parse refuses a repeated key).
#[derive(Default)]
struct TraceFields<'v> {
    schema_version: Option<Value<'v>>,
    id: Option<Value<'v>>,
    commit: Option<Value<'v>>,
    model: Option<Value<'v>>,
    task: Option<Value<'v>>,
    outcome: Option<Value<'v>>,
    tokens: Option<Value<'v>>,
    frames: Option<Value<'v>>,
}

impl<'v> TraceFields<'v> {
    fn of(object: Object<'v>) -> Self {
        let mut fields = Self::default();
        for (key, value) in object.iter() {
            let slot = match key {
                "schema_version" => &mut fields.schema_version,
                "id" => &mut fields.id,
                "commit" => &mut fields.commit,
                "model" => &mut fields.model,
                "task" => &mut fields.task,
                "outcome" => &mut fields.outcome,
                "tokens" => &mut fields.tokens,
                "frames" => &mut fields.frames,
                _ => continue,
            };
            *slot = Some(value);
        }
        fields
    }
}

/// The fields of a frame of any type, each read once from its pairs.
#[derive(Default)]
struct FrameFields<'v> {
    kind: Option<Value<'v>>,
    content: Option<Value<'v>>,
    id: Option<Value<'v>>,
    name: Option<Value<'v>>,
    args: Option<Value<'v>>,
    ok: Option<Value<'v>>,
    result: Option<Value<'v>>,
    before: Option<Value<'v>>,
    after: Option<Value<'v>>,
    summary: Option<Value<'v>>,
    tool: Option<Value<'v>>,
    decision: Option<Value<'v>>,
}

impl<'v> FrameFields<'v> {
    fn of(object: Object<'v>) -> Self {
        let mut fields = Self::default();
        for (key, value) in object.iter() {
            let slot = match key {
                "type" => &mut fields.kind,
                "content" => &mut fields.content,
                "id" => &mut fields.id,
                "name" => &mut fields.name,
                "args" => &mut fields.args,
                "ok" => &mut fields.ok,
                "result" => &mut fields.result,
                "before" => &mut fields.before,
                "after" => &mut fields.after,
                "summary" => &mut fields.summary,
                "tool" => &mut fields.tool,
                "decision" => &mut fields.decision,
                _ => continue,
            };
            *slot = Some(value);
        }
        fields
    }
}

/// One frame, by its `type`, with the fields that type keeps.
fn frame(value: Value<'_>) -> Result<Frame<'_>, Fallback> {
    let object = value
        .as_object()
        .ok_or(Fallback("a frame that is not an object"))?;
    let fields = FrameFields::of(object);
    let kind = fields
        .kind
        .and_then(|kind| kind.as_str())
        .ok_or(Fallback("a frame without a string type"))?;
    Ok(match kind {
        "user" => Frame::User {
            content: string(fields.content)?,
        },
        "assistant" => Frame::Assistant {
            content: string(fields.content)?,
        },
        "tool_call" => Frame::ToolCall {
            id: string(fields.id)?,
            name: string(fields.name)?,
            args: any(fields.args),
        },
        "tool_result" => Frame::ToolResult {
            id: string(fields.id)?,
            ok: fields
                .ok
                .and_then(|ok| ok.as_bool())
                .ok_or(Fallback("a tool result's ok that is not a boolean"))?,
            result: any(fields.result),
        },
        "compaction" => {
            let counts = [fields.before, fields.after]
                .into_iter()
                .all(|count| count.is_some_and(is_count));
            if !counts {
                return Err(Fallback(
                    "a compaction count that is not a non-negative integer",
                ));
            }
            Frame::Compaction {
                summary: string(fields.summary)?,
            }
        }
        "approval" => {
            string(fields.tool)?;
            let decision = fields.decision.and_then(|decision| decision.as_str());
            if !matches!(decision, Some("allow" | "deny")) {
                return Err(Fallback("an approval decision not allow or deny"));
            }
            Frame::Approval
        }
        _ => return Err(Fallback("an unknown frame type")),
    })
}

/// A required string field (`StrictStr`).
fn string(field: Option<Value<'_>>) -> Result<&str, Fallback> {
    field.and_then(|value| value.as_str()).ok_or(Fallback(
        "a frame's string field is missing or not a string",
    ))
}

/// A required non-empty string (`StrictStr` of `min_length=1`).
fn non_empty(field: Option<Value<'_>>) -> Result<&str, Fallback> {
    field
        .and_then(|value| value.as_str())
        .filter(|text| !text.is_empty())
        .ok_or(Fallback("a trace field that is not a non-empty string"))
}

/// A field of any JSON value; missing and null are both `None`.
fn any(field: Option<Value<'_>>) -> Option<Value<'_>> {
    field.filter(|value| !value.is_null())
}

/// A non-negative integer (`StrictInt` of `ge=0`): not a boolean, not a float.
fn is_count(value: Value<'_>) -> bool {
    matches!(value.kind(), Kind::Number(Number::Unsigned(_)))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)] // tests may unwrap (Cargo.toml)
mod tests {
    use super::super::json::parse;
    use super::super::{Fallback, Frame};
    use super::validate;

    const GOOD: &str = r#"{"id": "run-1", "commit": null, "model": "m", "task": "Do it",
        "outcome": "success", "tokens": [1, 2, 3, 4, 5, 6], "extra": {"kept": false},
        "frames": [
            {"type": "user", "content": "", "origin": 7},
            {"type": "assistant", "content": "ok"},
            {"type": "tool_call", "id": "c1", "name": "search", "args": {"q": 1}},
            {"type": "tool_result", "id": "c1", "ok": true, "result": null, "artifact": 1},
            {"type": "compaction", "before": 10, "after": 0, "summary": ""},
            {"type": "approval", "tool": "t", "decision": "deny"}
        ]}"#;

    /// `GOOD` with `from` replaced by `to`, validated.
    fn with(from: &str, to: &str) -> Result<(), Fallback> {
        assert!(GOOD.contains(from), "{from}");
        let text = GOOD.replacen(from, to, 1);
        let value = parse(text.as_bytes())?;
        validate(&value).map(|_| ())
    }

    #[test]
    fn validates_every_frame_type() {
        let value = parse(GOOD.as_bytes()).unwrap();
        let trace = validate(&value).unwrap();
        assert_eq!(
            (trace.id, trace.task, trace.outcome),
            ("run-1", "Do it", Some("success"))
        );
        assert_eq!(trace.frames.len(), 6);
        assert!(matches!(trace.frames[0], Frame::User { content: "" }));
        assert!(matches!(
            trace.frames[1],
            Frame::Assistant { content: "ok" }
        ));
        assert!(matches!(
            trace.frames[2],
            Frame::ToolCall {
                id: "c1",
                name: "search",
                args: Some(_)
            }
        ));
        assert!(matches!(
            trace.frames[3],
            Frame::ToolResult {
                id: "c1",
                ok: true,
                result: None
            }
        ));
        assert!(matches!(trace.frames[4], Frame::Compaction { .. }));
        assert!(matches!(trace.frames[5], Frame::Approval));
    }

    #[test]
    fn accepts_what_the_model_allows() {
        for (from, to) in [
            (r#""outcome": "success""#, r#""outcome": null"#),
            (r#""tokens": [1, 2, 3, 4, 5, 6]"#, r#""tokens": []"#),
            (r#""commit": null"#, r#""commit": "abc""#),
            (r#""model": "m""#, r#""model": null"#),
            (r#""id": "run-1""#, r#""schema_version": 1, "id": "run-1""#),
            (r#", "args": {"q": 1}"#, ""),
            (r#""args": {"q": 1}"#, r#""args": "text""#),
            (r#""result": null"#, r#""result": [1, "two"]"#),
            (r#""tokens": [1"#, r#""tokens": [18446744073709551615"#),
        ] {
            assert_eq!(with(from, to), Ok(()), "{to}");
        }
    }

    #[test]
    fn falls_back_on_what_the_reference_refuses() {
        for (from, to) in [
            (r#""id": "run-1""#, r#""id": """#),
            (r#""id": "run-1""#, r#""id": 1"#),
            (r#""id": "run-1", "#, ""),
            (r#""commit": null, "#, ""),
            (r#""commit": null"#, r#""commit": """#),
            (r#""model": "m""#, r#""model": 5"#),
            (r#""task": "Do it""#, r#""task": null"#),
            (r#""outcome": "success""#, r#""outcome": "Success""#),
            (r#""outcome": "success""#, r#""outcome": 1"#),
            (r#""tokens": [1"#, r#""tokens": [true"#),
            (r#""tokens": [1"#, r#""tokens": [1.0"#),
            (r#""tokens": [1"#, r#""tokens": [-1"#),
            (r#""tokens": [1, 2, 3, 4, 5, 6]"#, r#""tokens": [1]"#),
            (r#""tokens": [1, 2, 3, 4, 5, 6]"#, r#""tokens": null"#),
            (r#""id": "run-1""#, r#""schema_version": 2, "id": "run-1""#),
            (
                r#""id": "run-1""#,
                r#""schema_version": 1.0, "id": "run-1""#,
            ),
            (
                r#""id": "run-1""#,
                r#""schema_version": true, "id": "run-1""#,
            ),
            (
                r#""id": "run-1""#,
                r#""schema_version": null, "id": "run-1""#,
            ),
            (r#""content": """#, r#""content": null"#),
            (r#"{"type": "user", "content": "", "origin": 7}"#, "[]"),
            (r#""type": "user""#, r#""type": "system""#),
            (r#""type": "user""#, r#""type": 1"#),
            (r#""type": "user", "#, ""),
            (r#""name": "search""#, r#""name": 3"#),
            (r#""id": "c1", "name""#, r#""id": 1, "name""#),
            (r#""ok": true"#, r#""ok": 1"#),
            (r#""ok": true"#, r#""ok": "true""#),
            (r#""id": "c1", "ok""#, r#""ok""#),
            (r#""before": 10"#, r#""before": true"#),
            (r#""after": 0"#, r#""after": -1"#),
            (r#""after": 0"#, r#""after": 0.5"#),
            (r#", "summary": """#, ""),
            (r#""tool": "t""#, r#""tool": null"#),
            (r#""decision": "deny""#, r#""decision": "Deny""#),
        ] {
            assert!(with(from, to).is_err(), "{to}");
        }
        let empty = parse(
            br#"{"id": "a", "commit": null, "model": null, "task": "t",
            "outcome": null, "tokens": [], "frames": []}"#,
        )
        .unwrap();
        assert!(validate(&empty).is_err());
        assert!(validate(&parse(b"[]").unwrap()).is_err());
    }
}
