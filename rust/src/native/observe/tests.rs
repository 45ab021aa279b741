//! `observe` and the searches on traces built by hand (the Python comparison is
//! tests/engines/test_native_observe.py).

use super::{Field, LineNumber, Observations, Sighting, observe};
use crate::index::Needle;
use crate::native::json::leaked;
use crate::native::{Fallback, Frame, Trace, Value};

fn value(json: &str) -> Value<'static> {
    leaked(json, false)
}

/// A trace of the frames in `frames` (a JSON list of `{type, ...}`, as the native format
/// writes them; only what observe reads).
fn trace(frames: Value<'_>) -> Trace<'_> {
    let frames = frames
        .as_array()
        .map(|list| {
            list.iter()
                .map(|frame| match text(frame, "type") {
                    "tool_call" => Frame::ToolCall {
                        id: text(frame, "id"),
                        name: text(frame, "name"),
                        args: None,
                    },
                    "tool_result" => Frame::ToolResult {
                        id: text(frame, "id"),
                        ok: field(frame, "ok").and_then(|v| v.as_bool()).unwrap_or(true),
                        result: field(frame, "result").filter(|v| !v.is_null()),
                    },
                    _ => Frame::User {
                        content: text(frame, "content"),
                    },
                })
                .collect()
        })
        .unwrap_or_default();
    Trace {
        id: "t",
        task: "task",
        outcome: None,
        frames,
    }
}

fn field<'v>(frame: Value<'v>, key: &str) -> Option<Value<'v>> {
    frame.as_object().and_then(|object| object.get(key))
}

fn text<'v>(frame: Value<'v>, key: &str) -> &'v str {
    field(frame, key).and_then(|v| v.as_str()).unwrap_or("")
}

/// A call of `tool` and its result, for each result in turn.
fn calls(results: &[&str]) -> Value<'static> {
    let frames: Vec<String> = results
        .iter()
        .enumerate()
        .map(|(n, result)| {
            format!(
                r#"{{"type": "tool_call", "id": "c{n}", "name": "tool"}},
                   {{"type": "tool_result", "id": "c{n}", "ok": true, "result": {result}}}"#
            )
        })
        .collect();
    value(&format!(
        r#"[{{"type": "user", "content": "q"}}, {}]"#,
        frames.join(",")
    ))
}

fn observed<'v>(trace: &Trace<'v>) -> Observations<'v> {
    observe(trace).unwrap_or_else(|Fallback(reason)| unreachable!("{reason}"))
}

fn ids(observations: &mut Observations<'_>, needle: &str, field: Field) -> Vec<String> {
    observations
        .find_ids(&Needle::new(needle), field)
        .unwrap_or_else(|Fallback(reason)| unreachable!("{reason}"))
}

fn sightings(observations: &mut Observations<'_>, needle: &str) -> Vec<Sighting> {
    observations
        .lines_containing(&Needle::new(needle))
        .unwrap_or_else(|Fallback(reason)| unreachable!("{reason}"))
}

const COMMAND: &str =
    r#"{"ok": true, "command": "ls", "stdout": "a.txt\nb.TXT", "stderr": "warn"}"#;
const WEB: &str = r#"{"ok": true, "results": [{"title": "T", "url": "https://a", "snippet": "one"},
    {"title": "T", "url": "https://b", "snippet": "two"}]}"#;

#[test]
fn ids_count_positions_across_the_sources_of_a_frame() {
    let frames = calls(&[COMMAND, WEB]);
    let trace = trace(frames);
    let mut observations = observed(&trace);
    // Frame 2: stdout's two lines, then stderr's; frame 4: path, line, path, line.
    assert_eq!(observations.count(), 3 + 4);
    assert_eq!(ids(&mut observations, "TXT", Field::Text), ["f2.1", "f2.2"]);
    assert_eq!(ids(&mut observations, "warn", Field::Text), ["f2.3"]);
    // A document's name is cited once, by its first line.
    assert_eq!(
        ids(&mut observations, "$ ls", Field::Source),
        ["f2.1", "f2.3"]
    );
    assert_eq!(
        ids(&mut observations, "https", Field::Name),
        ["f4.1", "f4.3"]
    );
    assert_eq!(
        ids(&mut observations, "https", Field::Source),
        ["f4.2", "f4.4"]
    );
    assert_eq!(ids(&mut observations, "TWO", Field::Text), ["f4.4"]);
    assert_eq!(
        ids(&mut observations, "ls", Field::Name),
        Vec::<String>::new()
    );
}

#[test]
fn the_source_and_name_indexes_are_built_when_first_asked_for() {
    let frames = calls(&[COMMAND]);
    let trace = trace(frames);
    let mut observations = observed(&trace);
    ids(&mut observations, "a", Field::Text);
    assert!(!observations.has_source_index() && !observations.has_name_index());
    ids(&mut observations, "a", Field::Source);
    assert!(observations.has_source_index() && !observations.has_name_index());
    ids(&mut observations, "a", Field::Name);
    assert!(observations.has_name_index());
}

#[test]
fn sightings_carry_the_line_as_written_or_as_counted() {
    let search = r#"{"ok": true, "matches": [{"file": "s.py", "line": 7, "text": "x = 1"},
        {"file": "s.py", "line": 2.5, "text": "x = 2"}]}"#;
    let read = r#"{"ok": true, "file": "r.py", "lines": 3, "content": "a\r\nx = 3\rb\n"}"#;
    let frames = calls(&[search, read, WEB]);
    let trace = trace(frames);
    let mut observations = observed(&trace);
    let sighting = |observation: &str, frame, file: &str, line, text: &str| Sighting {
        observation: observation.to_owned(),
        frame,
        file: file.to_owned(),
        line,
        text: text.to_owned(),
    };
    assert_eq!(
        sightings(&mut observations, "X ="),
        [
            sighting("f2.1", 2, "s.py", LineNumber::Int(7), "x = 1"),
            sighting("f2.2", 2, "s.py", LineNumber::Float(2.5), "x = 2"),
            sighting("f4.2", 4, "r.py", LineNumber::Int(2), "x = 3"),
        ]
    );
    // CRLF, CR and LF each end a line; a trailing break leaves an empty last line.
    assert_eq!(observations.count(), 2 + 4 + 4);
    assert_eq!(
        sightings(&mut observations, "two"),
        [sighting("f6.4", 6, "https://b", LineNumber::Int(2), "two")]
    );
}

#[test]
fn needles_with_a_line_break_are_checked_observation_by_observation() {
    let search = r#"{"ok": true, "matches": [{"file": "a\nb", "line": 1, "text": "x\ry"}]}"#;
    let listing = r#"{"ok": true, "files": ["p\nq", "p q"]}"#;
    let read = r#"{"ok": true, "file": "d\ne", "lines": 2, "content": "x\ny"}"#;
    let frames = calls(&[search, listing, read]);
    let trace = trace(frames);
    let mut observations = observed(&trace);
    assert_eq!(ids(&mut observations, "X\rY", Field::Text), ["f2.1"]);
    // A document's lines hold no break; the index's NUL stands for one but is not one.
    assert_eq!(
        ids(&mut observations, "x\ny", Field::Text),
        Vec::<String>::new()
    );
    assert_eq!(
        ids(&mut observations, "x\0y", Field::Text),
        Vec::<String>::new()
    );
    assert_eq!(ids(&mut observations, "A\nB", Field::Source), ["f2.1"]);
    assert_eq!(ids(&mut observations, "d\ne", Field::Source), ["f6.1"]);
    assert_eq!(ids(&mut observations, "p\nq", Field::Name), ["f4.1"]);
    let words = observations.find_word_ids(&["P\nQ", "p\nqq", "p q"], Field::Name);
    assert_eq!(
        words,
        Ok(vec![
            vec![String::from("f4.1")],
            vec![],
            vec![String::from("f4.2")]
        ])
    );
}

#[test]
fn whole_words_keep_only_the_observations_showing_the_form_as_a_word() {
    let listing = r#"{"ok": true, "files": ["port 80", "ports", "PORT"]}"#;
    let frames = calls(&[listing]);
    let trace = trace(frames);
    let mut observations = observed(&trace);
    let found = observations.find_word_ids(&["Port", "or", " "], Field::Name);
    let expected: Vec<Vec<String>> = vec![
        vec!["f2.1".into(), "f2.3".into()],
        vec![],
        vec!["f2.1".into()],
    ];
    assert_eq!(found, Ok(expected));
    assert_eq!(
        observations.find_word_ids(&["port"], Field::Text),
        Ok(vec![vec![]])
    );
}

#[test]
fn no_observations_find_nothing_for_every_form() {
    let write = r#"{"ok": true, "file": "a", "bytes": 3, "created": true}"#;
    let silent = r#"{"ok": true, "command": "true", "stdout": "", "stderr": ""}"#;
    let frames = calls(&[write, silent, r#"{"ok": true, "matches": []}"#]);
    let trace = trace(frames);
    let mut observations = observed(&trace);
    assert_eq!(observations.count(), 0);
    assert_eq!(
        ids(&mut observations, "", Field::Text),
        Vec::<String>::new()
    );
    assert_eq!(
        observations.find_word_ids(&["a", "b\n"], Field::Source),
        Ok(vec![vec![], vec![]])
    );
}

#[test]
fn the_empty_needle_finds_every_observation_of_the_field() {
    let frames = calls(&[COMMAND, WEB]);
    let trace = trace(frames);
    let mut observations = observed(&trace);
    assert_eq!(
        ids(&mut observations, "", Field::Text),
        ["f2.1", "f2.2", "f2.3", "f4.2", "f4.4"]
    );
    assert_eq!(ids(&mut observations, "", Field::Name), ["f4.1", "f4.3"]);
}

#[test]
fn a_failed_result_is_skipped_only_with_its_own_ok_false() {
    let failed = |result: &str| {
        value(&format!(
            r#"[{{"type": "tool_call", "id": "1", "name": "t"}},
               {{"type": "tool_result", "id": "1", "ok": false, "result": {result}}}]"#
        ))
    };
    let skipped = failed(r#"{"ok": false, "error": "boom"}"#);
    assert_eq!(observe(&trace(skipped)).map(|o| o.count()), Ok(0));
    for result in [r#""boom""#, "null", r#"{"error": "boom"}"#, r#"{"ok": 0}"#] {
        let frames = failed(result);
        assert!(observe(&trace(frames)).is_err(), "{result}");
    }
}

#[test]
fn what_the_reference_raises_on_is_left_to_it() {
    let orphan = value(
        r#"[{"type": "tool_result", "id": "1", "ok": true, "result": {"ok": true, "files": []}}]"#,
    );
    let later_call = value(
        r#"[{"type": "tool_result", "id": "1", "ok": true, "result": {"ok": true, "files": []}},
            {"type": "tool_call", "id": "1", "name": "t"}]"#,
    );
    // The result before the last call's is looked up among all earlier calls, also after
    // the ids were first hashed.
    let answered = |results: &str| {
        value(&format!(
            r#"[{{"type": "tool_call", "id": "a", "name": "t"}},
                {{"type": "tool_call", "id": "b", "name": "t"}}, {results}]"#
        ))
    };
    let result = |id: &str| {
        format!(
            r#"{{"type": "tool_result", "id": "{id}", "ok": true, "result": {{"ok": true, "files": []}}}}"#
        )
    };
    let both = answered(&format!(
        "{}, {}, {}",
        result("a"),
        result("b"),
        result("a")
    ));
    assert_eq!(
        observe(&trace(both)).map(|found| found.count()).ok(),
        Some(0)
    );
    let called_after = answered(&format!(
        r#"{}, {{"type": "tool_call", "id": "c", "name": "t"}}, {}"#,
        result("b"),
        result("a")
    ));
    assert!(observe(&trace(called_after)).is_ok());
    let hashed_then_called = answered(&format!(
        r#"{}, {{"type": "tool_call", "id": "c", "name": "t"}},
            {{"type": "tool_call", "id": "d", "name": "t"}}, {}"#,
        result("a"),
        result("c")
    ));
    assert!(observe(&trace(hashed_then_called)).is_ok());
    for results in [
        format!("{}, {}", result("a"), result("c")),
        format!(
            r#"{}, {{"type": "tool_call", "id": "c", "name": "t"}}, {}"#,
            result("a"),
            result("d")
        ),
    ] {
        assert!(observe(&trace(answered(&results))).is_err(), "{results}");
    }
    for frames in [orphan, later_call] {
        assert!(observe(&trace(frames)).is_err());
    }
    for result in [
        r#""free text""#,
        "null",
        r#"{"ok": true, "answer": 1}"#,
        "[1]",
    ] {
        let frames = calls(&[result]);
        assert!(observe(&trace(frames)).is_err(), "{result}");
    }
}
