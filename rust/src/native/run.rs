//! What grading reads off a run as a whole (`Trace.final_answer`, `reply_status`,
//! `tool_path`, `any_tool_failed`) and the text rules of `tracegrade._text`
//! they use (JavaScript's whitespace, not Rust's or Python's).

use super::{Frame, Trace};

/// JavaScript's whitespace set (`tracegrade._text.WHITESPACE`).
pub fn is_js_space(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, '\t' | '\n' | '\x0b' | '\x0c' | '\r' | ' ');
    }
    matches!(
        c,
        '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// `is_blank`: empty or only JavaScript whitespace.
pub fn is_blank(text: &str) -> bool {
    text.chars().all(is_js_space)
}

/// `collapse`: every whitespace run as one space, trimmed.
pub fn collapse(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word_start = None; // where the word being read starts
    let mut at = 0;
    while let Some(&byte) = text.as_bytes().get(at) {
        // Only these lead bytes start a non-ASCII space (U+00A0, U+1680, U+2000-U+3000,
        // U+FEFF): any other character is read past without decoding it.
        let width = match byte {
            b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r' | b' ' => Some(1),
            0xc2 | 0xe1 | 0xe2 | 0xe3 | 0xef => text
                .get(at..)
                .and_then(|rest| rest.chars().next())
                .filter(|&c| is_js_space(c))
                .map(char::len_utf8),
            _ => None,
        };
        match width {
            Some(width) => {
                if let Some(start) = word_start.take() {
                    push_word(&mut out, text.get(start..at).unwrap_or(""));
                }
                at += width;
            }
            None => {
                word_start.get_or_insert(at);
                at += 1;
            }
        }
    }
    if let Some(start) = word_start {
        push_word(&mut out, text.get(start..).unwrap_or(""));
    }
    out
}

fn push_word(out: &mut String, word: &str) {
    if !out.is_empty() {
        out.push(' ');
    }
    out.push_str(word);
}

const CLOSING_MARKERS: [&str; 3] = ["###STOP###", "###TRANSFER###", "###OUT-OF-SCOPE###"];

/// `opens_turn`: a user message that asks something.
fn opens_turn(content: &str) -> bool {
    !is_blank(content)
        && !CLOSING_MARKERS
            .iter()
            .any(|marker| content.contains(marker))
}

/// The frames of the last turn (`Trace._last_turn`).
fn last_turn<'t, 'v>(trace: &'t Trace<'v>) -> &'t [Frame<'v>] {
    let start = trace.frames.iter().rposition(|frame| match frame {
        Frame::User { content } => opens_turn(content),
        _ => false,
    });
    trace.frames.get(start.unwrap_or(0)..).unwrap_or(&[])
}

/// `Trace.final_answer`: the last non-blank assistant text of the last turn, or `""`.
pub fn final_answer<'v>(trace: &Trace<'v>) -> &'v str {
    last_turn(trace)
        .iter()
        .rev()
        .find_map(|frame| match frame {
            Frame::Assistant { content } if !is_blank(content) => Some(*content),
            _ => None,
        })
        .unwrap_or("")
}

/// `Trace.reply_status`.
pub fn reply_status(trace: &Trace<'_>) -> &'static str {
    let mut replies = 0;
    for frame in last_turn(trace) {
        if let Frame::Assistant { content } = frame {
            if !is_blank(content) {
                return "answered";
            }
            replies += 1;
        }
    }
    if replies > 0 { "empty" } else { "interrupted" }
}

/// `Trace.tool_path`: every tool call's name, in order.
pub fn tool_path<'v>(trace: &Trace<'v>) -> Vec<&'v str> {
    trace
        .frames
        .iter()
        .filter_map(|frame| match frame {
            Frame::ToolCall { name, .. } => Some(*name),
            _ => None,
        })
        .collect()
}

/// `Trace.any_tool_failed`.
pub fn any_tool_failed(trace: &Trace<'_>) -> bool {
    trace
        .frames
        .iter()
        .any(|frame| matches!(frame, Frame::ToolResult { ok: false, .. }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace<'v>(frames: Vec<Frame<'v>>) -> Trace<'v> {
        Trace {
            id: "t",
            task: "task",
            outcome: None,
            frames,
        }
    }

    #[test]
    fn the_answer_is_the_last_turns_last_non_blank_reply() {
        let run = trace(vec![
            Frame::User { content: "first" },
            Frame::Assistant { content: "one" },
            Frame::User { content: "second" },
            Frame::Assistant { content: "two" },
            Frame::Assistant {
                content: " \u{feff}",
            },
        ]);
        assert_eq!(final_answer(&run), "two");
        assert_eq!(reply_status(&run), "answered");
    }

    #[test]
    fn a_closing_message_opens_no_turn() {
        let run = trace(vec![
            Frame::User { content: "ask" },
            Frame::Assistant { content: "reply" },
            Frame::User {
                content: "###STOP###",
            },
        ]);
        assert_eq!(final_answer(&run), "reply");
    }

    #[test]
    fn a_turn_without_reply_is_interrupted_and_blank_replies_are_empty() {
        let asked = trace(vec![
            Frame::Assistant { content: "old" },
            Frame::User { content: "new" },
        ]);
        assert_eq!(
            (final_answer(&asked), reply_status(&asked)),
            ("", "interrupted")
        );
        let blank = trace(vec![
            Frame::User { content: "q" },
            Frame::Assistant { content: "\n" },
        ]);
        assert_eq!(reply_status(&blank), "empty");
    }

    #[test]
    fn collapse_uses_javascript_whitespace() {
        assert_eq!(collapse("  a \u{feff}\n b\u{85}c "), "a b\u{85}c");
        assert_eq!(collapse(""), "");
    }

    #[test]
    fn collapse_is_the_split_and_join_of_every_space() {
        // Every JavaScript space, and characters sharing their lead bytes that are not.
        let spaces = [
            '\u{a0}', '\u{1680}', '\u{2000}', '\u{200a}', '\u{2028}', '\u{2029}',
        ];
        let more = [
            '\u{202f}', '\u{205f}', '\u{3000}', '\u{feff}', '\t', '\x0b', '\x0c',
        ];
        let others = [
            '\u{a1}', '\u{1681}', '\u{200b}', '\u{2030}', '\u{3001}', '\u{fefe}',
        ];
        let letters = ['é', 'x', '\u{85}', '\u{1f600}'];
        let pieces: Vec<char> = spaces
            .iter()
            .chain(&more)
            .chain(&others)
            .chain(&letters)
            .copied()
            .collect();
        for (index, &first) in pieces.iter().enumerate() {
            for &second in pieces.iter().skip(index) {
                let text: String = [first, 'a', second, second, 'b', first].iter().collect();
                let expected = text
                    .split(is_js_space)
                    .filter(|word| !word.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ");
                assert_eq!(collapse(&text), expected, "{text:?}");
            }
        }
    }
}
