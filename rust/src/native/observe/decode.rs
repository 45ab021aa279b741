//! The seven built-in result shapes (`tracegrade/observations/_decoders.py`), tried in the
//! registry's order: the first that reads a result decides.
//!
//! Every shape needs a JSON object whose own `ok` is exactly `true`; extra keys never stop a
//! match and field types are checked strictly (a JSON boolean is not a number, the string
//! `"7"` is not a line number). A key written twice counts by its last value, as in the
//! `dict` that `orjson.loads` makes.

use std::borrow::Cow;

use super::LineNumber;
use crate::native::Value;
use crate::native::json::{Number, Object};

/// What a decoder read from one result (`tracegrade.observations.Source`).
#[derive(Debug, PartialEq)]
pub enum Source<'v> {
    /// Names seen without their content: one path observation each.
    Names(Vec<&'v str>),
    /// Lines given one by one (search matches): one line observation each.
    Lines {
        files: Vec<&'v str>,
        numbers: Vec<LineNumber>,
        texts: Vec<&'v str>,
    },
    /// A text split on CRLF, CR or LF into lines numbered from 1.
    Document { file: Cow<'v, str>, text: &'v str },
    /// Ranked results: per result its name (a path), then its snippet (a line numbered by rank).
    Ranked {
        files: Vec<&'v str>,
        texts: Vec<&'v str>,
    },
}

/// The sources the first shape that reads `result` finds, or `None` when none reads it.
/// An empty list is "recognised, nothing observed" (a file write, a silent command).
pub fn decode(result: Value<'_>) -> Option<Vec<Source<'_>>> {
    let body = ok_object(result)?;
    // In the registry's order.
    search(&body)
        .or_else(|| listing(&body))
        .or_else(|| read(&body))
        .or_else(|| web_search(&body))
        .or_else(|| fetched_page(&body))
        .or_else(|| command(&body))
        .or_else(|| mutation(&body))
}

/// The value of `key` in `object`: the last one when the key is written twice.
pub fn field<'v>(object: Object<'v>, key: &str) -> Option<Value<'v>> {
    let mut found = None;
    for (name, value) in object.iter() {
        if name == key {
            found = Some(value);
        }
    }
    found
}

/// An object's pairs read out of the tree once: the shapes look up a dozen keys between
/// them, and each read of a key from the tree costs.
struct Fields<'v>(Vec<(&'v str, Value<'v>)>);

impl<'v> Fields<'v> {
    fn of(object: Object<'v>) -> Self {
        Self(object.iter().collect())
    }

    /// The value of `key`: the last one when the key is written twice (as `field`).
    fn get(&self, key: &str) -> Option<Value<'v>> {
        let pair = self.0.iter().rev().find(|(name, _)| *name == key);
        pair.map(|&(_, value)| value)
    }
}

/// `result` when it is an object whose own `ok` is exactly `true` (`_ok_object`).
fn ok_object(result: Value<'_>) -> Option<Fields<'_>> {
    let fields = Fields::of(result.as_object()?);
    let ok = fields
        .get("ok")
        .is_some_and(|ok| ok.as_bool() == Some(true));
    ok.then_some(fields)
}

fn text<'v>(object: &Fields<'v>, key: &str) -> Option<&'v str> {
    object.get(key).and_then(|value| value.as_str())
}

/// An `int` or `float` that is not a `bool` (`_is_number`).
fn number(object: &Fields<'_>, key: &str) -> Option<LineNumber> {
    Some(match object.get(key)?.as_number()? {
        Number::Float(float) => LineNumber::Float(float),
        Number::Unsigned(int) => LineNumber::Int(i128::from(int)),
        Number::Negative(int) => LineNumber::Int(i128::from(int)),
    })
}

/// The entries of the list at `key`, each an object (`_all_of(values, dict)`).
fn objects<'v>(body: &Fields<'v>, key: &str) -> Option<Vec<Fields<'v>>> {
    let list = body.get(key)?.as_array()?;
    list.iter()
        .map(|entry| entry.as_object().map(Fields::of))
        .collect()
}

/// `{ok: true, matches: [{file, line, text}]}` (search_files): one line per match.
fn search<'v>(body: &Fields<'v>) -> Option<Vec<Source<'v>>> {
    let matches = objects(body, "matches")?;
    let mut files = Vec::with_capacity(matches.len());
    let mut numbers = Vec::with_capacity(matches.len());
    let mut texts = Vec::with_capacity(matches.len());
    for entry in &matches {
        files.push(text(entry, "file")?);
        numbers.push(number(entry, "line")?);
        texts.push(text(entry, "text")?);
    }
    Some(vec![Source::Lines {
        files,
        numbers,
        texts,
    }])
}

/// `{ok: true, files: [string]}` (list_files): one path per entry.
fn listing<'v>(body: &Fields<'v>) -> Option<Vec<Source<'v>>> {
    let files = body.get("files")?.as_array()?;
    let names = files
        .iter()
        .map(|file| file.as_str())
        .collect::<Option<_>>()?;
    Some(vec![Source::Names(names)])
}

/// `{ok: true, file, lines: number, content}` (read_file): the `lines` field is not trusted.
fn read<'v>(body: &Fields<'v>) -> Option<Vec<Source<'v>>> {
    let file = text(body, "file")?;
    number(body, "lines")?;
    let content = text(body, "content")?;
    Some(vec![Source::Document {
        file: Cow::Borrowed(file),
        text: content,
    }])
}

/// `{ok: true, results: [{title, url, snippet}]}` (web_search).
fn web_search<'v>(body: &Fields<'v>) -> Option<Vec<Source<'v>>> {
    let results = objects(body, "results")?;
    let mut files = Vec::with_capacity(results.len());
    let mut texts = Vec::with_capacity(results.len());
    for entry in &results {
        text(entry, "title")?;
        files.push(text(entry, "url")?);
        texts.push(text(entry, "snippet")?);
    }
    Some(vec![Source::Ranked { files, texts }])
}

/// `{ok: true, url, title, chars: number, content}` (fetch_page): the URL as the source.
fn fetched_page<'v>(body: &Fields<'v>) -> Option<Vec<Source<'v>>> {
    let url = text(body, "url")?;
    text(body, "title")?;
    number(body, "chars")?;
    let content = text(body, "content")?;
    Some(vec![Source::Document {
        file: Cow::Borrowed(url),
        text: content,
    }])
}

/// `{ok: true, command, stdout, stderr}` (run_command): stdout then stderr, each named after
/// the command; empty streams are skipped.
fn command<'v>(body: &Fields<'v>) -> Option<Vec<Source<'v>>> {
    let command = text(body, "command")?;
    let stdout = text(body, "stdout")?;
    let stderr = text(body, "stderr")?;
    let mut sources = Vec::new();
    if !stdout.is_empty() {
        sources.push(Source::Document {
            file: Cow::Owned(format!("$ {command}")),
            text: stdout,
        });
    }
    if !stderr.is_empty() {
        sources.push(Source::Document {
            file: Cow::Owned(format!("$ {command} [stderr]")),
            text: stderr,
        });
    }
    Some(sources)
}

/// `{ok: true, file, bytes: number, created: boolean}` (write_file, edit_file): recognised,
/// nothing observed (a write says a file changed, not what it says).
fn mutation<'v>(body: &Fields<'v>) -> Option<Vec<Source<'v>>> {
    text(body, "file")?;
    number(body, "bytes")?;
    body.get("created")?.as_bool()?;
    Some(Vec::new())
}

#[cfg(test)]
mod tests {
    use super::{Source, decode};
    use crate::native::observe::LineNumber;
    use crate::native::{Value, json};

    fn value(json: &str) -> Value<'static> {
        json::leaked(json, true)
    }

    #[test]
    fn a_search_keeps_each_line_number_as_written() {
        let result = value(
            r#"{"ok": true, "matches": [{"file": "a", "line": 3, "text": "x", "extra": 1},
                {"file": "b", "line": 2.5, "text": "y"}], "files": ["ignored"]}"#,
        );
        assert_eq!(
            decode(result),
            Some(vec![Source::Lines {
                files: vec!["a", "b"],
                numbers: vec![LineNumber::Int(3), LineNumber::Float(2.5)],
                texts: vec!["x", "y"],
            }])
        );
    }

    #[test]
    fn a_boolean_or_a_string_is_not_a_line_number() {
        for line in ["true", "\"7\"", "null"] {
            let json = format!(
                r#"{{"ok": true, "matches": [{{"file": "a", "line": {line}, "text": "x"}}]}}"#
            );
            assert_eq!(decode(value(&json)), None, "{line}");
        }
        let big = value(
            r#"{"ok": true, "matches": [{"file": "a", "line": 18446744073709551615, "text": ""}]}"#,
        );
        let numbers = match decode(big).as_deref() {
            Some([Source::Lines { numbers, .. }]) => numbers.clone(),
            other => unreachable!("{other:?}"),
        };
        assert_eq!(numbers, vec![LineNumber::Int(18_446_744_073_709_551_615)]);
    }

    #[test]
    fn only_an_own_ok_of_exactly_true_is_read() {
        for ok in ["1", "\"true\"", "false", "null"] {
            let json = format!(r#"{{"ok": {ok}, "files": []}}"#);
            assert_eq!(decode(value(&json)), None, "{ok}");
        }
        assert_eq!(decode(value(r#"{"files": []}"#)), None);
        assert_eq!(decode(value(r#"[{"ok": true, "files": []}]"#)), None);
        // The last of two `ok`s counts, as in the dict orjson makes.
        assert_eq!(
            decode(value(r#"{"ok": false, "ok": true, "files": ["a"]}"#)),
            Some(vec![Source::Names(vec!["a"])])
        );
        assert_eq!(
            decode(value(r#"{"ok": true, "ok": false, "files": ["a"]}"#)),
            None
        );
    }

    #[test]
    fn a_command_names_its_streams_and_skips_empty_ones() {
        let both = value(r#"{"ok": true, "command": "ls", "stdout": "a", "stderr": "b"}"#);
        let files: Vec<String> = decode(both)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|source| match source {
                Source::Document { file, .. } => Some(file.into_owned()),
                _ => None,
            })
            .collect();
        assert_eq!(files, ["$ ls", "$ ls [stderr]"]);
        let silent = value(r#"{"ok": true, "command": "ls", "stdout": "", "stderr": ""}"#);
        assert_eq!(decode(silent), Some(vec![]));
    }

    #[test]
    fn shapes_are_tried_in_the_registry_order() {
        // A read with the mutation's keys too is a read; a write is recognised, empty.
        let read = value(
            r#"{"ok": true, "file": "a", "lines": 1, "content": "x", "bytes": 1, "created": true}"#,
        );
        assert!(matches!(
            decode(read).as_deref(),
            Some([Source::Document { .. }])
        ));
        let write = value(r#"{"ok": true, "file": "a", "bytes": 1, "created": false}"#);
        assert_eq!(decode(write), Some(vec![]));
        let created_is_not_bool = value(r#"{"ok": true, "file": "a", "bytes": 1, "created": 1}"#);
        assert_eq!(decode(created_is_not_bool), None);
        let web = value(r#"{"ok": true, "results": [{"title": "t", "url": "u", "snippet": "s"}]}"#);
        assert_eq!(
            decode(web),
            Some(vec![Source::Ranked {
                files: vec!["u"],
                texts: vec!["s"],
            }])
        );
        let page = value(r#"{"ok": true, "url": "u", "title": "t", "chars": 1.5, "content": "c"}"#);
        assert!(matches!(
            decode(page).as_deref(),
            Some([Source::Document { .. }])
        ));
        let untitled = value(r#"{"ok": true, "url": "u", "chars": 1, "content": "c"}"#);
        assert_eq!(decode(untitled), None);
    }
}
