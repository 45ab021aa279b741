//! The bytes of a trace parsed, under the reference's limits (`parse_native_trace`), and a
//! value serialised as the reference writes it (`result_text`).
//!
//! The reference is `orjson.loads` then `bounded_depth`. sonic-rs parses the same grammar
//! (strict JSON, UTF-8 checked, lone surrogates refused, infinite floats refused) but
//! differs where the tests here pin it: it keeps every value of a repeated key (a Python
//! dict keeps the last, at the first key's place), it reads `-0` and `-0.0` as the float
//! `0.0` (orjson: the int `0` and the float `-0.0`), and it skips a leading BOM as an error
//! anyway. Those inputs, and integers beyond 64 bits (floats in both, but left to the
//! reference rather than trust two roundings), fall back.

use std::borrow::Cow;
use std::collections::HashSet;

use sonic_rs::{JsonNumberTrait, JsonValueTrait, ValueRef};

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
    if !depth_within(data, MAX_DEPTH) {
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
            if object.len() <= PAIRWISE_KEYS {
                for (at, (key, _)) in object.iter().enumerate() {
                    if object.iter().take(at).any(|(other, _)| other == key) {
                        return Err(Fallback("a repeated object key"));
                    }
                }
            } else {
                let mut keys = HashSet::with_capacity(object.len());
                if !object.iter().all(|(key, _)| keys.insert(key)) {
                    return Err(Fallback("a repeated object key"));
                }
            }
            object.iter().try_for_each(|(_, item)| check(item, seen))
        }
        ValueRef::Null | ValueRef::Bool(_) | ValueRef::String(_) => Ok(()),
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
    out.push('"');
    let bytes = text.as_bytes();
    let mut start = 0; // the first byte not yet written
    let mut at = 0;
    // Most of a tool result needs no escape: a chunk is checked without a branch per byte,
    // and only a chunk holding a byte to escape is walked.
    for chunk in bytes.chunks(32) {
        let special = chunk.iter().fold(false, |any, &byte| {
            any | (byte < 0x20) | (byte == b'"') | (byte == b'\\')
        });
        if special {
            for (offset, &byte) in chunk.iter().enumerate() {
                let escape = match byte {
                    b'"' => "\\\"",
                    b'\\' => "\\\\",
                    b'\n' => "\\n",
                    b'\r' => "\\r",
                    b'\t' => "\\t",
                    0x08 => "\\b",
                    0x0c => "\\f",
                    0..=0x1f => "",
                    _ => continue,
                };
                // An escaped byte is ASCII, so the text before it ends on a character.
                out.push_str(text.get(start..at + offset).unwrap_or_default());
                if escape.is_empty() {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    out.push_str("\\u00");
                    out.push(char::from(
                        HEX.get(usize::from(byte >> 4)).copied().unwrap_or(b'0'),
                    ));
                    out.push(char::from(
                        HEX.get(usize::from(byte & 15)).copied().unwrap_or(b'0'),
                    ));
                } else {
                    out.push_str(escape);
                }
                start = at + offset + 1;
            }
        }
        at += chunk.len();
    }
    out.push_str(text.get(start..).unwrap_or_default());
    out.push('"');
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
#[allow(clippy::unwrap_used, clippy::indexing_slicing)] // tests may unwrap (Cargo.toml)
mod tests {
    use super::{Fallback, parse, result_text};

    fn text(json: &str) -> String {
        let value = parse(json.as_bytes()).unwrap();
        result_text(Some(&value)).unwrap().into_owned()
    }

    fn falls_back(data: &[u8]) -> bool {
        parse(data).is_err()
    }

    #[test]
    fn parses_what_orjson_reads() {
        assert_eq!(
            text(r#" {"b": [1, 2.5, null, true, false, {}], "a": []} "#),
            r#"{"b":[1,2.5,null,true,false,{}],"a":[]}"#
        );
        assert_eq!(text(r#""\ud83d\ude00""#), "😀");
        assert_eq!(text("18446744073709551615"), "18446744073709551615");
        assert_eq!(text("-9223372036854775808"), "-9223372036854775808");
        assert_eq!(text("0.0"), "0.0");
        assert_eq!(text("[-0.5, 0e0]"), "[-0.5,0.0]");
        assert_eq!(text(r#"["a-0", -1]"#), r#"["a-0",-1]"#);
    }

    #[test]
    fn falls_back_where_orjson_refuses_or_differs() {
        for bad in [
            &br#""\ud800""#[..],
            br#""\udc00""#,
            b"\"\xff\"",
            b"\"\xed\xa0\x80\"",
            b"\xef\xbb\xbf{}",
            b"1e400",
            b"[1,]",
            b"{}\n\x00",
            b"NaN",
            b"\"\x01\"",
            b"",
            br#"{"a": 1, "a": 2}"#,
            br#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"a":13}"#,
            b"18446744073709551616",
            b"-9223372036854775809",
            b"-0",
            b"[0.0, -0.0]",
            b"-1e-400",
            b"[1e300, 123456789012345678901234567890]",
            b"[0.0, \"x\", -0e5]",
        ] {
            assert!(falls_back(bad), "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn depth_is_limited_to_two_hundred() {
        // sonic-rs recurses; unoptimised, 200 levels need more than a test thread's stack.
        let run = std::thread::Builder::new().stack_size(64 << 20).spawn(|| {
            let within = format!("{}{}", "[".repeat(200), "]".repeat(200));
            let deeper = format!("{}{}", "[".repeat(201), "]".repeat(201));
            assert!(parse(within.as_bytes()).is_ok());
            assert_eq!(
                parse(deeper.as_bytes()).err(),
                Some(Fallback("nested deeper than the limit"))
            );
        });
        run.unwrap().join().unwrap();
    }

    #[test]
    fn strings_are_escaped_as_orjson_does() {
        let value = parse(br#"["\u001f\u007f\u2028\u0000\b\t\n\f\r\"\\\/\u00e9"]"#).unwrap();
        assert_eq!(
            result_text(Some(&value)).unwrap(),
            "[\"\\u001f\u{7f}\u{2028}\\u0000\\b\\t\\n\\f\\r\\\"\\\\/é\"]"
        );
        let string = parse(br#""as is\n""#).unwrap();
        assert_eq!(result_text(Some(&string)).unwrap(), "as is\n");
        assert_eq!(result_text(None).unwrap(), "null");
    }

    #[test]
    fn floats_are_written_as_orjson_does() {
        // Each pair as orjson 3.11 wrote it (checked through Python).
        for (json, written) in [
            ("1e16", "1e+16"),
            ("1e15", "1000000000000000.0"),
            ("1.2345678901234568e17", "1.2345678901234568e+17"),
            ("1e-7", "1e-7"),
            ("1e-6", "1e-6"),
            ("1.5e-6", "1.5e-6"),
            ("1e-5", "0.00001"),
            ("1.5000000000000002e-05", "0.000015000000000000002"),
            ("0.0001", "0.0001"),
            ("1.2345678901234568e+20", "1.2345678901234568e+20"),
            ("1e100", "1e+100"),
            ("1e-100", "1e-100"),
            ("1.5", "1.5"),
            ("100.0", "100.0"),
            ("123456.0", "123456.0"),
            ("5e-324", "5e-324"),
            ("1.7976931348623157e308", "1.7976931348623157e+308"),
            ("1234567890123456.7", "1234567890123456.8"),
            ("9999999999999998.0", "9999999999999998.0"),
            ("-2.5e-5", "-0.000025"),
            ("0.1", "0.1"),
            ("940191251759288.25", "940191251759288.2"),
            ("-183883952826610.625", "-183883952826610.62"),
            ("1e19", "1e+19"),
            (
                "[1e300, -12345678901234567890e5]",
                "[1e+300,-1.2345678901234568e+24]",
            ),
        ] {
            assert_eq!(text(json), written, "{json}");
        }
    }
}
