//! Whether a tool result's text (`result_text`: the JSON orjson writes) may hold a match
//! of the anchors, answered from the value without writing it. When the anchors start with
//! digits only, the writing adds none of its own but through `\u00xx` escapes and numbers.
//! When moreover every match is a run of digits (with `,` or `.` between: [`Anchors::digit_run_in`]),
//! a match of the written text lies inside one string (its quotes and escapes are no such
//! bytes) or one number, or runs from a number of an array on through the `,` after it: so
//! a string, a key and a member's number are asked whether they hold a run, and only an
//! array's numbers whether they hold a digit that may start one.

use super::super::json::Kind;
use super::super::{Value, json};
use super::Anchors;

/// `false` only when `result_text(value)` surely holds no match of `anchors`.
pub fn may_hold_anchor(anchors: &Anchors, value: Value<'_>) -> bool {
    if !anchors.starts_with_digits_only() {
        return true;
    }
    holds(anchors, value, false)
}

/// Whether `value`'s writing may hold a match; `in_array`: it is an array's item (a number
/// may then join the next).
fn holds(anchors: &Anchors, value: Value<'_>, in_array: bool) -> bool {
    match value.kind() {
        Kind::Null | Kind::Bool(_) => false,
        Kind::Number(_) => {
            // Written by the writer of `result_text` itself (a number is short).
            let Ok(written) = json::result_text(Some(value)) else {
                return true; // the writing falls back: leave it to it
            };
            let bytes = written.as_bytes();
            match anchors.digit_run_in(bytes) {
                Some(within) if !in_array => within,
                _ => bytes.iter().any(|&b| anchors.may_start(b)),
            }
        }
        Kind::String(text) => string_holds(anchors, text),
        Kind::Array(array) => array.iter().any(|item| holds(anchors, item, true)),
        Kind::Object(object) => object
            .iter()
            .any(|(key, item)| string_holds(anchors, key) || holds(anchors, item, false)),
    }
}

/// A control character is written `\u00xx`: digits of the writing's own.
fn string_holds(anchors: &Anchors, text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.iter().any(|&b| b < 0x20) {
        return true;
    }
    anchors
        .digit_run_in(bytes)
        .unwrap_or_else(|| bytes.iter().any(|&b| anchors.may_start(b)))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap (Cargo.toml)
mod tests {
    use super::may_hold_anchor;
    use crate::figures::testing::extractor;
    use crate::native::figure_sources::Anchors;
    use crate::native::json::{self, result_text};

    const PIECES: &[&str] = &[
        "\"a\"",
        "\"15\"",
        "\"1.5\"",
        "\"\\u0015\"",
        "\"\\n\"",
        "\"x1,5y\"",
        "15",
        "1.5",
        "2",
        "-7",
        "18446744073709551615",
        "null",
        "true",
        "false",
        "\"\u{2013}\"",
        "\"\u{e9}\"",
        "\"one\"",
        "\"f\"",
        "1",
        "5",
        "0.5",
        "\"1,112,064\"",
        "1112064",
        "\"8137 and 81,37\"",
    ]; // fmt: skip

    /// A generated JSON value (xorshift: deterministic and dependency-free).
    fn value(seed: &mut u64, depth: usize) -> String {
        let mut next = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            usize::try_from(*seed % 1000).unwrap()
        };
        let pick = next();
        let width = next() % 4;
        let leaf = *PIECES.get(next() % PIECES.len()).unwrap();
        if depth == 0 || pick % 3 == 0 {
            return leaf.to_owned();
        }
        let items: Vec<String> = (0..width).map(|_| value(seed, depth - 1)).collect();
        if pick % 3 == 1 {
            format!("[{}]", items.join(","))
        } else {
            let pairs: Vec<String> = items
                .iter()
                .enumerate()
                .map(|(at, item)| format!("{}:{item}", PIECES.get(at % 6).unwrap()))
                .collect();
            format!("{{{}}}", pairs.join(","))
        }
    }

    #[test]
    fn a_result_skipped_unwritten_has_no_window() {
        let ex = extractor();
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let (mut skipped, mut windowed) = (0, 0);
        for answer in ["$1.5", "1,112,064 and 8137", "$1.5 million", "15 days"] {
            let figures = ex.figures(answer).unwrap();
            let anchors = Anchors::kept(&figures, ex.tables()).unwrap().unwrap();
            for _ in 0..600 {
                let json = value(&mut seed, 3);
                let document = json::parse(json.as_bytes()).unwrap();
                let parsed = document.root();
                let text = result_text(Some(parsed)).unwrap();
                let windows = anchors.windows(&text).unwrap();
                if !may_hold_anchor(&anchors, parsed) {
                    assert!(windows.is_empty(), "{answer:?}: {json} written {text}");
                    skipped += 1;
                } else if !windows.is_empty() {
                    windowed += 1;
                }
            }
        }
        // Both kinds are met (the generated values can turn a wrong test red).
        assert!(skipped > 200, "{skipped} skipped");
        assert!(windowed > 100, "{windowed} with windows");
    }

    #[test]
    fn a_run_is_sought_where_the_writing_can_hold_one() {
        let ex = extractor();
        let anchors = Anchors::kept(&ex.figures("$1.5").unwrap(), ex.tables());
        let anchors = anchors.unwrap().unwrap();
        // Written `1,5`: an array's numbers join through the comma; a member's do not.
        for (json, holds) in [
            ("[1,5]", true),
            ("{\"a\":1,\"b\":5}", false),
            ("[\"1\",\"5\"]", false),
            ("{\"x\":\"a 1.5 b\",\"y\":0}", true),
            ("{\"1,5\":null}", true),
            ("{\"n\":15}", true),
            ("{\"n\":1.5}", true),
            ("{\"n\":51,\"m\":\"1 5\"}", false),
        ] {
            let document = json::parse(json.as_bytes()).unwrap();
            let parsed = document.root();
            let windows = anchors
                .windows(&result_text(Some(parsed)).unwrap())
                .unwrap();
            assert_eq!(!windows.is_empty(), holds, "{json}");
            assert_eq!(may_hold_anchor(&anchors, parsed), holds, "{json}");
        }
    }

    #[test]
    fn escapes_write_digits() {
        let ex = extractor();
        let anchors = Anchors::kept(&ex.figures("$1.5").unwrap(), ex.tables());
        let anchors = anchors.unwrap().unwrap();
        let control = json::parse(b"[\"\\u0015\"]").unwrap();
        assert!(may_hold_anchor(&anchors, control.root()));
        let plain = json::parse(b"{\"a\":[null,true,\"x\"]}").unwrap();
        assert!(!may_hold_anchor(&anchors, plain.root()));
    }
}
