//! Passes over serialised JSON for the reading path: how deep its arrays and objects nest,
//! and which redaction triggers its string values hold and which object keys it has.
//!
//! The references are Python walks over the parsed value (`tracegrade.traces._limits.
//! depth_within`, `tracegrade.redact._scan`); here the text is read once, without building
//! any value. The text is JSON already parsed (or written) by orjson, so it is valid; on
//! anything else these stop at the end of the bytes and never fail.

use std::collections::HashSet;

use memchr::{memchr, memchr2};

use crate::lower::lower_into;
use crate::needles::present_in_lowered;

/// Where the string that opens at `start` (the byte after its `"`) closes: the index of the
/// closing quote, and whether it holds an escape. `None`: the text ends inside it.
fn string_end(json: &[u8], start: usize) -> Option<(usize, bool)> {
    let mut at = start;
    let mut escaped = false;
    loop {
        let rest = json.get(at..)?;
        let found = at + memchr2(b'"', b'\\', rest)?;
        if json.get(found) == Some(&b'"') {
            return Some((found, escaped));
        }
        escaped = true;
        at = found + 2; // the backslash and the character it escapes (`u`'s hex digits follow)
    }
}

/// Whether arrays and objects in the JSON `json` nest at most `limit` levels deep.
///
/// The top-level value is level 1 when it is an array or object; brackets inside strings
/// do not count. On a document with a repeated object key this counts the value parsing
/// drops too, so it can only say "too deep" where the parsed value is not: the caller
/// confirms that verdict on the parsed value.
pub fn depth_within(json: &[u8], limit: usize) -> bool {
    let mut depth = 0usize;
    let mut at = 0;
    while let Some(&byte) = json.get(at) {
        match byte {
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return false;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'"' => match string_end(json, at + 1) {
                Some((end, _)) => at = end,
                None => return true,
            },
            _ => {}
        }
        at += 1;
    }
    true
}

/// What a trace's JSON holds for redaction: the triggers found in its string values and
/// its object keys.
#[derive(Debug, PartialEq, Eq)]
pub struct Scan {
    /// Indices of the needles found in some string value, lower-cased.
    pub present: Vec<usize>,
    /// Every object key, once each, in first-seen order.
    pub keys: Vec<String>,
}

fn hex_value(digits: &[u8]) -> Option<u32> {
    let text = std::str::from_utf8(digits).ok()?;
    u32::from_str_radix(text, 16).ok()
}

/// The text of the JSON string whose escaped contents are `raw` (between its quotes).
/// A lone surrogate escape (which orjson never writes) becomes U+FFFD.
fn unescape(raw: &[u8]) -> String {
    let mut out: Vec<u8> = Vec::with_capacity(raw.len());
    let mut at = 0;
    while at < raw.len() {
        let Some(offset) = raw.get(at..).and_then(|rest| memchr(b'\\', rest)) else {
            out.extend_from_slice(raw.get(at..).unwrap_or_default());
            break;
        };
        out.extend_from_slice(raw.get(at..at + offset).unwrap_or_default());
        at += offset + 1;
        let Some(&kind) = raw.get(at) else { break };
        at += 1;
        let simple = match kind {
            b'b' => Some(b'\x08'),
            b'f' => Some(b'\x0c'),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'u' => None,
            other => Some(other), // `"`, `\\`, `/`
        };
        if let Some(byte) = simple {
            out.push(byte);
            continue;
        }
        let Some(high) = raw.get(at..at + 4).and_then(hex_value) else {
            break;
        };
        at += 4;
        let mut code = high;
        if (0xD800..0xDC00).contains(&high) && raw.get(at..at + 2) == Some(b"\\u") {
            if let Some(low) = raw.get(at + 2..at + 6).and_then(hex_value) {
                if (0xDC00..0xE000).contains(&low) {
                    code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                    at += 6;
                }
            }
        }
        let character = char::from_u32(code).unwrap_or('\u{FFFD}');
        let mut buffer = [0u8; 4];
        out.extend_from_slice(character.encode_utf8(&mut buffer).as_bytes());
    }
    String::from_utf8(out).unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into())
}

/// Whether the string that closed at `end` is an object key (a `:` follows it).
fn is_key(json: &[u8], end: usize) -> bool {
    json.get(end + 1..)
        .and_then(|rest| rest.iter().find(|byte| !byte.is_ascii_whitespace()))
        == Some(&b':')
}

/// Append one string value, lower-cased as CPython's `str.lower` does, to `out`, after a
/// NUL when it is not the first (as the reference joins the values).
fn push_lowered(text: &str, out: &mut String, first: bool) {
    if !first {
        out.push('\0');
    }
    if text.is_ascii() {
        let start = out.len();
        out.push_str(text);
        if let Some((_, appended)) = out.as_mut_str().split_at_mut_checked(start) {
            appended.make_ascii_lowercase();
        }
    } else {
        lower_into(text, out);
    }
}

/// The triggers found in the string values of the JSON `json` and its object keys.
///
/// The reference joins every string value (not the keys: text rules only ever run on
/// values) with NULs, lower-cases the whole and looks for each needle; an empty needle is
/// found, as `"" in text` is in Python.
pub fn scan(json: &[u8], needles: &[String]) -> Result<Scan, String> {
    let mut values = String::with_capacity(json.len());
    let mut keys: Vec<String> = Vec::new();
    let mut seen: HashSet<&[u8]> = HashSet::new();
    let mut first = true;
    let mut at = 0;
    while let Some(offset) = json.get(at..).and_then(|rest| memchr(b'"', rest)) {
        let start = at + offset + 1;
        let Some((end, escaped)) = string_end(json, start) else {
            break;
        };
        let raw = json.get(start..end).unwrap_or_default();
        if is_key(json, end) {
            if seen.insert(raw) {
                keys.push(if escaped {
                    unescape(raw)
                } else {
                    String::from_utf8_lossy(raw).into_owned()
                });
            }
        } else {
            if escaped {
                push_lowered(&unescape(raw), &mut values, first);
            } else {
                push_lowered(&String::from_utf8_lossy(raw), &mut values, first);
            }
            first = false;
        }
        at = end + 1;
    }
    Ok(Scan {
        present: present_in_lowered(&values, needles)?,
        keys,
    })
}

#[cfg(test)]
mod tests {
    use super::{Scan, depth_within, scan};

    fn needles(words: &[&str]) -> Vec<String> {
        words.iter().map(|word| (*word).to_string()).collect()
    }

    #[test]
    fn depth_counts_containers_not_brackets_in_strings() {
        assert!(depth_within(b"1", 0));
        assert!(!depth_within(b"[]", 0));
        assert!(depth_within(b"[[1], {\"a\": []}]", 3));
        assert!(!depth_within(b"[[1], {\"a\": []}]", 2));
        assert!(!depth_within(b"[[[1]]]", 2));
        assert!(depth_within(br#"["[[[[", "\"[[[", {"k]": "{{"}]"#, 2));
    }

    #[test]
    fn depth_survives_text_that_is_not_json() {
        assert!(depth_within(b"\"unterminated [[[", 1));
        assert!(depth_within(b"]]]][", 1));
        assert!(!depth_within(b"]]]][[", 1));
    }

    #[test]
    fn triggers_are_looked_for_in_values_not_keys() {
        let found = scan(
            br#"{"max_tokens": 5, "note": "Bearer x", "list": ["SK-1"]}"#,
            &needles(&["token", "bearer", "sk-", "note"]),
        );
        let keys = vec!["max_tokens".to_string(), "note".into(), "list".into()];
        assert_eq!(
            found,
            Ok(Scan {
                present: vec![1, 2],
                keys
            })
        );
    }

    #[test]
    fn escapes_are_decoded_in_values_and_keys() {
        let found = scan(
            br#"{"api\u005fkey": "a\"b", "x": "tab\tsep\u00c9\ud83d\ude00"}"#,
            &needles(&["a\"b", "\tsep\u{e9}\u{1f600}", "\\"]),
        );
        assert_eq!(found.as_ref().map(|scan| &scan.present), Ok(&vec![0, 1]));
        assert_eq!(
            found.map(|scan| scan.keys),
            Ok(vec!["api_key".to_string(), "x".into()])
        );
    }

    #[test]
    fn values_do_not_run_into_each_other() {
        let found = scan(br#"["tok", "en", "a\u0000b"]"#, &needles(&["token", "ken"]));
        assert_eq!(found.map(|scan| scan.present), Ok(vec![]));
    }

    #[test]
    fn non_ascii_values_lower_case_as_python() {
        // U+212A KELVIN SIGN lower-cases to ASCII "k"; U+0130 to "i" and a combining dot.
        let found = scan(
            "[\"\u{212A}EY\", \"\u{130}D\"]".as_bytes(),
            &needles(&["key", "i\u{307}d", ""]),
        );
        assert_eq!(found.map(|scan| scan.present), Ok(vec![0, 1, 2]));
    }

    #[test]
    fn a_key_is_a_string_followed_by_a_colon() {
        let found = scan(br#"{"a" : {"b":"c"}, "d": ["e", "f"]}"#, &needles(&[]));
        assert_eq!(
            found.map(|scan| scan.keys),
            Ok(vec!["a".to_string(), "b".into(), "d".into()])
        );
    }
}
