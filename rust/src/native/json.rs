//! The bytes of a trace parsed, under the reference's limits (`parse_native_trace`), and a
//! value serialised as the reference writes it (`result_text`).
//!
//! The reference is `orjson.loads` then `bounded_depth`. sonic-rs parses the same grammar
//! (strict JSON, UTF-8 checked, lone surrogates, a leading BOM and infinite floats refused)
//! but differs where the tests here pin it: it keeps every value of a repeated key (a
//! Python dict keeps the last, at the first key's place) and it reads `-0` and `-0.0` as
//! the float `0.0` (orjson: the int `0` and the float `-0.0`). Those inputs, and integers
//! beyond 64 bits (floats in both, but left to the reference rather than trust two
//! roundings), fall back. The depth is checked before sonic-rs runs: it recurses per level.
//!
//! tests/engines/test_native_parse.py holds all of it to the reference through
//! `_core.native_trace_values`.

use std::borrow::Cow;
use std::collections::HashSet;

use memchr::{memchr2_iter, memchr3_iter};
use sonic_rs::{JsonNumberTrait, JsonValueTrait, Object, ValueRef};

use super::{Fallback, Value};
use crate::json_scan::depth_within;

/// How deep arrays and objects may nest (`tracegrade.traces._limits.MAX_DEPTH`).
pub const MAX_DEPTH: usize = 200;

/// Objects up to this many keys are checked for a repeated key pair by pair.
const PAIRWISE_KEYS: usize = 12;

/// 2**63: an integral float this large may be an integer beyond 64 bits in the text.
const BIG_INTEGRAL: f64 = 9_223_372_036_854_775_808.0;

/// Parse a trace file's bytes as `orjson.loads` would, or leave them to the reference.
pub fn parse(data: &[u8]) -> Result<Value, Fallback> {
    if data.starts_with(b"\xef\xbb\xbf") {
        return Err(Fallback("a byte order mark (orjson refuses it)"));
    }
    // Counted on the text before sonic-rs recurses into it; the reference confirms a text
    // too deep on its value (a repeated key may drop the deep part), so only fall back.
    // No more opening brackets than the limit (in strings or not) cannot nest deeper: the
    // real traces have at most 161, found by memchr far faster than the strings are skipped.
    let few = memchr2_iter(b'[', b'{', data).take(MAX_DEPTH + 1).count() <= MAX_DEPTH;
    if !few && !depth_within(data, MAX_DEPTH) {
        return Err(Fallback("nested deeper than the limit"));
    }
    let value: Value =
        sonic_rs::from_slice(data).map_err(|_| Fallback("not JSON as sonic-rs reads it"))?;
    let mut seen = Seen::default();
    check(&value, &mut seen)?;
    if seen.zero_float && any_number(data, is_negative_zero) {
        return Err(Fallback(
            "a negative zero (sonic-rs reads -0 as the float 0.0)",
        ));
    }
    if seen.big_float && any_number(data, is_big_integer) {
        return Err(Fallback("an integer beyond 64 bits"));
    }
    Ok(value)
}

#[derive(Default)]
struct Seen {
    /// A float 0.0: sonic-rs reads `-0` and `-0.0` so, the text says whether it was.
    zero_float: bool,
    /// An integral float of 2**63 or more: it may be an integer beyond 64 bits in the text.
    big_float: bool,
}

/// Refuse repeated keys (sonic-rs keeps each value) and note the floats to look up in the text.
fn check(value: &Value, seen: &mut Seen) -> Result<(), Fallback> {
    match value.as_ref() {
        ValueRef::Number(number) => {
            if let Some(float) = number.as_f64().filter(|_| number.is_f64()) {
                if float == 0.0 {
                    seen.zero_float = true;
                } else if float.abs() >= BIG_INTEGRAL && float.fract() == 0.0 {
                    seen.big_float = true;
                }
            }
            Ok(())
        }
        ValueRef::Array(array) => array.iter().try_for_each(|item| check(item, seen)),
        ValueRef::Object(object) => {
            // One pass over the pairs: each key is read out of the tree once (it costs).
            let mut keys = Keys::for_object(object);
            for (key, item) in object.iter() {
                if !keys.insert(key) {
                    return Err(Fallback("a repeated object key"));
                }
                check(item, seen)?;
            }
            Ok(())
        }
        ValueRef::Null | ValueRef::Bool(_) | ValueRef::String(_) => Ok(()),
    }
}

/// The keys of an object seen so far: up to [`PAIRWISE_KEYS`] on the stack, compared pair
/// by pair; more in a set.
enum Keys<'v> {
    Few([&'v str; PAIRWISE_KEYS], usize),
    Many(HashSet<&'v str>),
}

impl<'v> Keys<'v> {
    fn for_object(object: &Object) -> Self {
        if object.len() > PAIRWISE_KEYS {
            Keys::Many(HashSet::with_capacity(object.len()))
        } else {
            Keys::Few([""; PAIRWISE_KEYS], 0)
        }
    }

    /// Note `key`; `false` when it was seen before.
    fn insert(&mut self, key: &'v str) -> bool {
        match self {
            Keys::Many(keys) => keys.insert(key),
            Keys::Few(keys, count) => {
                if keys.get(..*count).unwrap_or_default().contains(&key) {
                    return false;
                }
                if let Some(slot) = keys.get_mut(*count) {
                    *slot = key;
                    *count += 1;
                }
                true
            }
        }
    }
}

/// Whether some number token of the JSON text (outside its strings) satisfies `test`.
fn any_number(data: &[u8], test: impl Fn(&str) -> bool) -> bool {
    let mut at = 0;
    while let Some(&byte) = data.get(at) {
        match byte {
            b'"' => {
                at += 1;
                // Skip the string: an escape takes the byte after the backslash with it.
                while let Some(&inner) = data.get(at) {
                    match inner {
                        b'"' => break,
                        b'\\' => at += 2,
                        _ => at += 1,
                    }
                }
            }
            b'-' | b'0'..=b'9' => {
                let rest = data.get(at..).unwrap_or_default();
                let end = rest
                    .iter()
                    .position(|byte| {
                        !matches!(byte, b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
                    })
                    .unwrap_or(rest.len());
                // Only ASCII bytes were taken, so the token is text.
                let token = std::str::from_utf8(rest.get(..end).unwrap_or_default()).unwrap_or("");
                if test(token) {
                    return true;
                }
                at += end.max(1) - 1;
            }
            _ => {}
        }
        at += 1;
    }
    false
}

/// A negative number token that reads as zero (`-0`, `-0.0`, `-1e-400`).
fn is_negative_zero(token: &str) -> bool {
    token.starts_with('-') && token.parse::<f64>().is_ok_and(|number| number == 0.0)
}

/// An integer token beyond 64 bits (orjson and sonic-rs both make it a float).
fn is_big_integer(token: &str) -> bool {
    let digits = token.strip_prefix('-').unwrap_or(token);
    digits.bytes().all(|byte| byte.is_ascii_digit())
        && token.parse::<i64>().is_err()
        && token.parse::<u64>().is_err()
}

/// A tool result as the text the model saw (`tracegrade.figures.result_text`): a string as
/// it is, anything else (`None` too) as `orjson.dumps` writes it.
pub fn result_text(value: Option<&Value>) -> Result<Cow<'_, str>, Fallback> {
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
pub fn writes_alike(one: Option<&Value>, other: Option<&Value>) -> bool {
    match (one, other) {
        (Some(one), Some(other)) => alike(one, other),
        (one, other) => one.is_none() && other.is_none(),
    }
}

fn alike(one: &Value, other: &Value) -> bool {
    match (one.as_ref(), other.as_ref()) {
        (ValueRef::Null, ValueRef::Null) => true,
        (ValueRef::Bool(one), ValueRef::Bool(other)) => one == other,
        // As `write_value` chooses: an i64, else a u64, else a float.
        (ValueRef::Number(one), ValueRef::Number(other)) => {
            one.as_i64() == other.as_i64()
                && one.as_u64() == other.as_u64()
                && one.as_f64().map(f64::to_bits) == other.as_f64().map(f64::to_bits)
        }
        (ValueRef::String(one), ValueRef::String(other)) => one == other,
        (ValueRef::Array(one), ValueRef::Array(other)) => {
            one.len() == other.len() && one.iter().zip(other.iter()).all(|(a, b)| alike(a, b))
        }
        (ValueRef::Object(one), ValueRef::Object(other)) => {
            one.len() == other.len()
                && one
                    .iter()
                    .zip(other.iter())
                    .all(|((key, a), (other_key, b))| key == other_key && alike(a, b))
        }
        _ => false,
    }
}

fn write_value(value: &Value, out: &mut String) -> Result<(), Fallback> {
    match value.as_ref() {
        ValueRef::Null => out.push_str("null"),
        ValueRef::Bool(true) => out.push_str("true"),
        ValueRef::Bool(false) => out.push_str("false"),
        ValueRef::Number(number) => {
            if let Some(int) = number.as_i64() {
                out.push_str(itoa::Buffer::new().format(int));
            } else if let Some(int) = number.as_u64() {
                out.push_str(itoa::Buffer::new().format(int));
            } else if let Some(float) = number.as_f64() {
                write_float(float, out)?;
            } else {
                return Err(Fallback("a number of no known kind"));
            }
        }
        ValueRef::String(text) => write_string(text, out),
        ValueRef::Array(array) => {
            out.push('[');
            for (at, item) in array.iter().enumerate() {
                if at > 0 {
                    out.push(',');
                }
                write_value(item, out)?;
            }
            out.push(']');
        }
        ValueRef::Object(object) => {
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
