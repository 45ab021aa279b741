//! When the figures' evidence is settled before the last frame: every figure looked up has
//! a frame of its own key (`FigureIndex.evidence_for` answers from that map first, and a
//! key keeps the first frame that held it), so later frames change no answer, and no later
//! frame could make the reference raise, which the core must then leave to it.
//!
//! The reference can raise reading a source only through a run of hundreds of digits (an
//! ordinal's `int()` of more digits than allowed, 640 at the least, where the core declines;
//! a number beyond `Decimal`'s context, about a million digits), or in a text whose lower
//! case is longer (it holds U+0130), which it matches case-insensitively on the text itself:
//! there "5 m\u{131}llion" (a dotless i) matches and its scale is no key of `SCALES`
//! (`KeyError`); the core leaves such a text to it. Its result texts (`orjson.dumps` of
//! parsed JSON) and the rest of its rules raise on nothing.

use super::super::json::Kind;
use super::super::{Frame, Value};
use crate::lower::lower_keeps_length;

/// The most characters in a row that may be digits, `,` or `.` a source may hold and
/// surely not make the reference raise.
const DIGIT_RUN: usize = 640;

/// No number is written longer (a float's shortest form, its sign and exponent included),
/// with the `,` after it in an array.
const NUMBER_WRITTEN: usize = 26;

/// Whether reading `frame` as a source could make the reference raise (`humans`: user
/// messages are sources; `echoed`: for a failed result, its call's arguments, which it reads
/// too). A call is always read: it only keeps its arguments.
pub fn may_raise_in(frame: &Frame<'_>, humans: bool, echoed: Option<Value<'_>>) -> bool {
    match *frame {
        Frame::User { content } => humans && may_raise_on(content),
        Frame::ToolCall { .. } => true,
        Frame::ToolResult { result, .. } => may_raise(result) || may_raise(echoed),
        _ => false,
    }
}

/// Whether reading `text` could make the reference raise: its lower case is longer (it holds
/// U+0130, [`lower_keeps_length`]) or it holds a long run ([`long_run`]).
fn may_raise_on(text: &str) -> bool {
    long_run(text.as_bytes()) || !lower_keeps_length(text)
}

/// Whether `text` holds more than [`DIGIT_RUN`] bytes in a row that may be digits (of any
/// script: every non-ASCII byte counts), `,` or `.`. Such a run holds one of every
/// `DIGIT_RUN + 1`-th bytes, so only those are looked at, and the run around one that may be
/// in one: a page is passed over at a few instructions a kilobyte.
fn long_run(text: &[u8]) -> bool {
    let in_run =
        |byte: &u8| byte.is_ascii_digit() || matches!(byte, b',' | b'.') || !byte.is_ascii();
    let mut at = DIGIT_RUN;
    while let Some(byte) = text.get(at) {
        if in_run(byte) {
            let before = text.get(..at).unwrap_or_default();
            let after = text.get(at..).unwrap_or_default();
            let run = before.iter().rev().take_while(|byte| in_run(byte)).count()
                + after.iter().take_while(|byte| in_run(byte)).count();
            if run > DIGIT_RUN {
                return true;
            }
        }
        at += DIGIT_RUN + 1;
    }
    false
}

/// [`may_raise_on`] of `result_text(value)`, answered from the value: the writing adds no
/// such character, nor a run of its own (quotes, brackets and escapes end one) but for an array's numbers, which
/// `,` joins.
fn may_raise(value: Option<Value<'_>>) -> bool {
    let Some(value) = value else {
        return false; // "null"
    };
    match value.kind() {
        Kind::String(text) => may_raise_on(text),
        Kind::Array(items) => {
            let mut numbers = 0;
            items.iter().any(|item| {
                if matches!(item.kind(), Kind::Number(_)) {
                    numbers += 1;
                    numbers * NUMBER_WRITTEN > DIGIT_RUN
                } else {
                    numbers = 0;
                    may_raise(Some(item))
                }
            })
        }
        Kind::Object(members) => members
            .iter()
            .any(|(key, item)| may_raise_on(key) || may_raise(Some(item))),
        Kind::Null | Kind::Bool(_) | Kind::Number(_) => false,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap (Cargo.toml)
mod tests {
    use super::super::tests::evidence_over;
    use super::{DIGIT_RUN, may_raise};
    use crate::native::json::{leaked, leaked_string, result_text};
    use crate::native::{Fallback, Frame};
    use crate::testing::Xorshift;

    /// The evidence of `answer`'s figures in tool results with these texts (`f0`, `f1`, ...).
    fn evidence(answer: &str, results: &[&str]) -> Result<Vec<Option<String>>, Fallback> {
        let frames = results
            .iter()
            .map(|text| Frame::ToolResult {
                id: "c",
                ok: true,
                result: Some(leaked_string(text)),
            })
            .collect();
        evidence_over(frames, answer, true)
    }

    #[test]
    fn later_frames_are_not_read_once_every_figure_has_its_own() {
        let some = |frames: &[&str]| -> Vec<Option<String>> {
            frames.iter().map(|f| Some((*f).to_owned())).collect()
        };
        // A text the core leaves to the reference (JSON with a key twice, whose money the
        // reference reads from the last), read before: it now follows every figure's frame,
        // and the reference grades alike.
        let longer = r#"{"fee": "$1,500 and 2,000 dollars", "fee": 2}"#;
        assert_eq!(
            evidence("$1,500", &["fee $1,500", longer]).unwrap(),
            some(&["f0"])
        );
        // Not before every figure has one.
        assert_eq!(
            evidence(
                "$1,500 and $2,000",
                &["fee $1,500", "2,000 dollars", longer]
            )
            .unwrap(),
            some(&["f0", "f1"])
        );
        assert!(evidence("$1,500 and $2,000", &["fee $1,500", longer, "$2,000"]).is_err());
        // A hedged figure sourced by rounding only is not settled: a later exact key wins.
        assert_eq!(
            evidence("about $1,500", &["fee $1,520", "fee $1,500", longer]).unwrap(),
            some(&["f1"])
        );
    }

    #[test]
    fn not_when_a_later_frame_could_make_the_reference_raise() {
        // An ordinal of more digits than int() may take: the core declines, so must the
        // grade, though every figure was found before it.
        let ordinal = format!("the {}th consecutive year: $1,500", "7".repeat(700));
        assert!(evidence("$1,500", &["fee $1,500", &ordinal]).is_err());
        let ordinal = format!("the {}th consecutive year: $1,500", "7".repeat(600));
        assert_eq!(
            evidence("$1,500", &["fee $1,500", &ordinal]).unwrap(),
            [Some("f0".to_owned())]
        );
        // A lower case longer than the text: the reference matches it case-insensitively,
        // and "m\u{131}llion" (a dotless i) is no scale it knows (KeyError).
        let dotless = "\u{130}stanbul: $1,500 for 5 m\u{131}llion";
        assert!(evidence("$1,500", &["fee $1,500", dotless]).is_err());
    }

    #[test]
    fn nor_when_a_later_failed_result_reads_arguments_that_could() {
        let quote = leaked_string("fee $1,500");
        let ordinal = format!("the {}th consecutive year", "7".repeat(700));
        let args = leaked_string(&ordinal);
        let failed = leaked_string("could not pay $1,500");
        let frames = |ok| {
            vec![
                Frame::ToolResult {
                    id: "q",
                    ok: true,
                    result: Some(quote),
                },
                Frame::ToolCall {
                    id: "p",
                    name: "pay",
                    args: Some(args),
                },
                Frame::ToolResult {
                    id: "p",
                    ok,
                    result: Some(failed),
                },
            ]
        };
        let evidence = |ok| evidence_over(frames(ok), "$1,500", true);
        // The failed result echoes its call's arguments: the reference extracts them.
        assert!(evidence(false).is_err());
        assert_eq!(evidence(true).unwrap(), [Some("f0".to_owned())]);
    }

    /// The longest run of bytes that may be digits, `,` or `.` in `text`.
    fn longest_run(text: &str) -> usize {
        text.split(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.' || !c.is_ascii()))
            .map(str::len)
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn a_run_is_found_wherever_it_lies() {
        // Every place of runs about as long as the bound.
        for length in DIGIT_RUN - 1..=DIGIT_RUN + 2 {
            for offset in 0..=DIGIT_RUN + 2 {
                let text = format!("{}{} x", "a".repeat(offset), "7".repeat(length));
                let long = length > DIGIT_RUN;
                assert_eq!(
                    super::long_run(text.as_bytes()),
                    long,
                    "{length} at {offset}"
                );
            }
        }
        let pieces = [
            "7",
            "77777",
            "7777777777",
            ",",
            ".",
            "\u{e9}",
            "\u{661}",
            " ",
            "a",
        ];
        let mut rng = Xorshift::new(0x2545_f491_4f6c_dd1d);
        let (mut long, mut short) = (0, 0);
        for _ in 0..3000 {
            let mut next = || rng.below(100_000);
            // Mostly run pieces, ended at a rate that makes runs near the bound common.
            let length = next() % 500;
            let rate = [60, 200, 600].get(next() % 3).copied().unwrap();
            let text: String = (0..length)
                .map(|_| match next() % rate {
                    0 => " ",
                    1 => "a",
                    n => pieces.get(n % 7).unwrap(),
                })
                .collect();
            let expected = longest_run(&text) > DIGIT_RUN;
            assert_eq!(super::long_run(text.as_bytes()), expected, "{text:?}");
            long += usize::from(expected);
            short += usize::from(!expected && longest_run(&text) > DIGIT_RUN / 2);
        }
        assert!(
            long > 300 && short > 300,
            "{long} long runs, {short} short ones"
        );
    }

    #[test]
    fn a_long_run_is_seen_in_the_value_as_in_its_text() {
        let digits = |count: usize| "7".repeat(count);
        let numbers = |count: usize, number: &str| vec![number; count].join(",");
        let cases = [
            format!("\"{}th consecutive year\"", digits(DIGIT_RUN + 1)),
            format!("\"{}th\"", digits(DIGIT_RUN)),
            format!("\"{}\u{e9}\"", digits(DIGIT_RUN)),
            format!("{{\"{}\": 1}}", digits(DIGIT_RUN + 5)),
            format!("[{}]", numbers(330, "1")),
            format!("[{}]", numbers(20, "-1.7976931348623157e308")),
            format!("[{}]", numbers(30, "12345678901234567890")),
            format!("[{}, \"x\", {}]", numbers(20, "123"), numbers(20, "456")),
            format!("[[{}], [{}]]", numbers(200, "9"), numbers(200, "9")),
            format!("\"{}\"", "\u{65e5}".repeat(DIGIT_RUN / 3 + 1)),
            "{\"price\": 466.75, \"seats\": [1, 2, 3]}".to_owned(),
        ];
        let mut raising = 0;
        for json in cases {
            let value = leaked(&json, false);
            let text = result_text(Some(value)).unwrap();
            let long = longest_run(&text) > DIGIT_RUN;
            // Never less than the text holds (more is allowed: an array's numbers are
            // counted at their longest).
            assert!(may_raise(Some(value)) || !long, "{json}");
            if long {
                assert!(may_raise(Some(value)), "{json}");
                raising += 1;
            }
        }
        assert_eq!(raising, 5, "the long runs among the cases");
    }
}
