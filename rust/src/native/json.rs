//! The bytes of a trace parsed, under the reference's limits (`parse_native_trace`), and a
//! value serialised as the reference writes it (`result_text`).
//!
//! The reference is `orjson.loads` then `bounded_depth`. read.rs reads the same grammar in
//! one pass (strict JSON, UTF-8 checked, lone surrogates, a leading BOM and infinite floats
//! refused) and leaves to the reference what it would read otherwise: a repeated key (a
//! Python dict keeps the last value at the first key's place), `-0` and `-0.0` (orjson: the
//! int `0` and the float `-0.0`), integers beyond 64 bits (orjson: floats), and nesting
//! deeper than `bounded_depth` allows.
//!
//! tests/engines/test_native_parse.py holds all of it to the reference through
//! `_core.native_trace_values`.

mod read;
mod scan;
mod value;

use std::borrow::Cow;

use memchr::memchr3_iter;

pub use read::Refusal;
pub use value::{Array, Document, Kind, Number, Object, Value};

use super::Fallback;

/// How deep arrays and objects may nest (`tracegrade.traces._limits.MAX_DEPTH`).
pub const MAX_DEPTH: usize = 200;

/// Parse a trace file's bytes as `orjson.loads` would, or leave them to the reference.
pub fn parse(data: &[u8]) -> Result<Document<'_>, Fallback> {
    read(data).map_err(|refusal| match refusal {
        Refusal::NotJson => Fallback("not JSON as orjson reads it"),
        Refusal::Declined(reason) => Fallback(reason),
    })
}

/// [`parse`], saying whether orjson refuses the text too.
pub fn read(data: &[u8]) -> Result<Document<'_>, Refusal> {
    read::read(data, MAX_DEPTH)
}

/// For tests of what reads a value: `json` parsed, kept for the rest of the test run; with
/// `repeated`, a repeated key is kept (the parse leaves such a text to the reference).
#[cfg(test)]
#[allow(clippy::panic)] // tests may panic (Cargo.toml)
pub fn leaked(json: &str, repeated: bool) -> Value<'static> {
    let json: &'static str = json.to_owned().leak();
    let document = match read::read_noting(json.as_bytes(), MAX_DEPTH) {
        Ok((document, None)) => document,
        Ok((document, Some(read::REPEATED_KEY))) if repeated => document,
        other => panic!("{other:?}: {json}"),
    };
    let document: &'static Document<'static> = Box::leak(Box::new(document));
    document.root()
}

/// For tests: `text` as a JSON string value ([`leaked`]).
#[cfg(test)]
pub fn leaked_string(text: &str) -> Value<'static> {
    let mut json = String::new();
    write_string(text, &mut json);
    leaked(&json, false)
}

/// A tool result as the text the model saw (`tracegrade.figures.result_text`): a string as
/// it is, anything else (`None` too) as `orjson.dumps` writes it.
pub fn result_text<'v>(value: Option<Value<'v>>) -> Result<Cow<'v, str>, Fallback> {
    let Some(value) = value else {
        return Ok(Cow::Borrowed("null"));
    };
    if let Some(text) = value.as_str() {
        return Ok(Cow::Borrowed(text));
    }
    let mut out = String::with_capacity(256);
    write_value(value, &mut out)?;
    Ok(Cow::Owned(out))
}

/// Whether two results surely have the same `result_text` (an agent often reads one page
/// twice): the same tree, keys in the same order, numbers the writer writes alike.
pub fn writes_alike(one: Option<Value<'_>>, other: Option<Value<'_>>) -> bool {
    match (one, other) {
        (Some(one), Some(other)) => alike(one, other),
        (one, other) => one.is_none() && other.is_none(),
    }
}

fn alike(one: Value<'_>, other: Value<'_>) -> bool {
    match (one.kind(), other.kind()) {
        (Kind::Null, Kind::Null) => true,
        (Kind::Bool(one), Kind::Bool(other)) => one == other,
        (Kind::Number(Number::Float(one)), Kind::Number(Number::Float(other))) => {
            one.to_bits() == other.to_bits()
        }
        (Kind::Number(one), Kind::Number(other)) => one == other,
        (Kind::String(one), Kind::String(other)) => one == other,
        (Kind::Array(one), Kind::Array(other)) => {
            one.len() == other.len() && one.iter().zip(other.iter()).all(|(a, b)| alike(a, b))
        }
        (Kind::Object(one), Kind::Object(other)) => {
            one.len() == other.len()
                && one
                    .iter()
                    .zip(other.iter())
                    .all(|((key, a), (other_key, b))| key == other_key && alike(a, b))
        }
        _ => false,
    }
}

fn write_value(value: Value<'_>, out: &mut String) -> Result<(), Fallback> {
    match value.kind() {
        Kind::Null => out.push_str("null"),
        Kind::Bool(true) => out.push_str("true"),
        Kind::Bool(false) => out.push_str("false"),
        Kind::Number(Number::Unsigned(int)) => out.push_str(itoa::Buffer::new().format(int)),
        Kind::Number(Number::Negative(int)) => out.push_str(itoa::Buffer::new().format(int)),
        Kind::Number(Number::Float(float)) => write_float(float, out)?,
        Kind::String(text) => write_string(text, out),
        Kind::Array(array) => {
            out.push('[');
            for (at, item) in array.iter().enumerate() {
                if at > 0 {
                    out.push(',');
                }
                write_value(item, out)?;
            }
            out.push(']');
        }
        Kind::Object(object) => {
            out.push('{');
            for (at, (key, item)) in object.iter().enumerate() {
                if at > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_value(item, out)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

/// A string as orjson escapes it: `"` and `\`, the short escapes, other controls as
/// `\u00xx` (lower-case hex); DEL and everything else as it is.
fn write_string(text: &str, out: &mut String) {
    // Room for the string unescaped: a long tool result grows the buffer once, not by doubling.
    out.reserve(text.len() + 2);
    out.push('"');
    let bytes = text.as_bytes();
    let mut start = 0; // the first byte not yet written
    let mut escape = |at: usize| {
        // An escaped byte is ASCII, so the text before it ends on a character.
        out.push_str(text.get(start..at).unwrap_or_default());
        push_escape(bytes.get(at).copied().unwrap_or_default(), out);
        start = at + 1;
    };
    if bytes.len() < LONG {
        // Most strings of a result are short (keys, titles, URLs): memchr's set-up would cost
        // more than the whole string, so eight bytes are tested at once, in a register.
        let mut words = bytes.chunks_exact(WORD);
        for (number, word) in words.by_ref().enumerate() {
            if has_special(word) {
                escape_in(word, number * WORD, &mut escape);
            }
        }
        let tail = words.remainder();
        escape_in(tail, bytes.len() - tail.len(), &mut escape);
    } else if bytes
        .iter()
        .fold(false, |any, &byte| any | ((byte < 0x20) & (byte != b'\n')))
    {
        // Tool results rarely hold a control other than LF; this one does: chunks.
        for (number, chunk) in bytes.chunks(CHUNK).enumerate() {
            if chunk
                .iter()
                .fold(false, |any, &byte| any | is_special(byte))
            {
                escape_in(chunk, number * CHUNK, &mut escape);
            }
        }
    } else {
        // Every byte to escape is `"`, `\` or LF, which memchr finds (five times as fast as
        // a walk in chunks); the check above is one pass without a branch per byte.
        memchr3_iter(b'"', b'\\', b'\n', bytes).for_each(&mut escape);
    }
    out.push_str(text.get(start..).unwrap_or_default());
    out.push('"');
}

/// Strings this long or longer are searched by memchr; shorter ones a word at a time.
const LONG: usize = 64;

/// The bytes `write_string` tests at once in a register.
const WORD: usize = 8;

/// Escape each byte of `bytes` (found at `offset` in the string) that `is_special` marks.
fn escape_in(bytes: &[u8], offset: usize, escape: &mut impl FnMut(usize)) {
    for (at, &byte) in bytes.iter().enumerate() {
        if is_special(byte) {
            escape(offset + at);
        }
    }
}

/// Whether some byte of `word` (eight bytes) is special, without a branch per byte: the
/// high bit of a lane is set by the subtraction only where the lane was below the bound
/// (the classic "has a byte less than n"; a lane above a true one may be set by its borrow,
/// which only the answer "some", never "none", depends on).
fn has_special(word: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut lanes = [0u8; WORD];
    lanes
        .iter_mut()
        .zip(word)
        .for_each(|(lane, &byte)| *lane = byte);
    let word = u64::from_le_bytes(lanes);
    let below = |value: u64, bound: u64| value.wrapping_sub(ONES * bound) & !value & HIGH;
    let controls = below(word, 0x20);
    let quotes = below(word ^ (ONES * u64::from(b'"')), 1);
    let backslashes = below(word ^ (ONES * u64::from(b'\\')), 1);
    (controls | quotes | backslashes) != 0
}

/// The bytes of a chunk `write_string` checks at once for a byte to escape.
const CHUNK: usize = 32;

/// A byte orjson escapes: a control, `"` or `\`.
fn is_special(byte: u8) -> bool {
    (byte < 0x20) | (byte == b'"') | (byte == b'\\')
}

/// The escape of one byte `is_special` marks.
fn push_escape(byte: u8, out: &mut String) {
    let short = match byte {
        b'"' => "\\\"",
        b'\\' => "\\\\",
        b'\n' => "\\n",
        b'\r' => "\\r",
        b'\t' => "\\t",
        0x08 => "\\b",
        0x0c => "\\f",
        _ => "",
    };
    if short.is_empty() {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        out.push_str("\\u00");
        out.push(char::from(
            HEX.get(usize::from(byte >> 4)).copied().unwrap_or(b'0'),
        ));
        out.push(char::from(
            HEX.get(usize::from(byte & 15)).copied().unwrap_or(b'0'),
        ));
    } else {
        out.push_str(short);
    }
}

/// A float as orjson writes it: the shortest digits that read back (a tie rounded to even,
/// as Python's `repr`), positionally for decimal exponents -5 to 15 (`100.0`, `0.00001`),
/// else `1e+16`, `1.5e-7`. That is żmij's layout exactly; Rust's own `{:e}` rounds a tie up
/// (`940191251759288.3` for `940191251759288.25`).
fn write_float(float: f64, out: &mut String) -> Result<(), Fallback> {
    if !float.is_finite() {
        return Err(Fallback("a float that is not finite"));
    }
    out.push_str(zmij::Buffer::new().format_finite(float));
    Ok(())
}

#[cfg(test)]
mod tests;
