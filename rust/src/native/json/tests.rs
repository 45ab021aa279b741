//! The parse and `result_text` held to what orjson reads and writes.

#![allow(clippy::unwrap_used, clippy::indexing_slicing)] // tests may unwrap (Cargo.toml)

use super::{Fallback, Refusal, parse, read, result_text, write_string};

fn text(json: &str) -> String {
    let document = parse(json.as_bytes()).unwrap();
    result_text(Some(document.root())).unwrap().into_owned()
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
fn what_orjson_refuses_is_told_from_what_is_declined() {
    // `NotJson` lets the figures read a string result as prose: only where orjson refuses it
    // too (tests/engines/test_native_json.py holds the parser to orjson on many more).
    for not_json in [
        &b"01"[..],
        b"-01",
        b"1.",
        b".5",
        b"-",
        b"1e+",
        b"tru",
        b"truex",
        b"\x0c1",
        b"\xef\xbb\xbf[]",
        br#""\ud800\u0041""#,
        br#""\ud800x""#,
        br#""\u12g4""#,
        br#""\u+123""#,
        b"\"a\tb\"",
        b"\"\xc0\x80\"",
        b"{,}",
        br#"{"a":1,}"#,
        b"[1 2]",
        b"[] []",
        b"[1,,2[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    ] {
        let got = read(not_json).map(|_| ());
        assert_eq!(
            got,
            Err(Refusal::NotJson),
            "{}",
            String::from_utf8_lossy(not_json)
        );
    }
    let mut many = (0..40)
        .map(|n| format!("\"k{n}\": {n}"))
        .collect::<Vec<_>>();
    many.push("\"k7\": 0".to_string());
    let many = format!("{{{}}}", many.join(","));
    for declined in [
        &b"-0"[..],
        b"-1e-400",
        b"-9223372036854775809",
        br#"{"a": 1, "\u0061": 2}"#,
        many.as_bytes(),
    ] {
        let got = read(declined).map(|_| ());
        assert!(
            matches!(got, Err(Refusal::Declined(_))),
            "{}",
            String::from_utf8_lossy(declined)
        );
    }
    // Keys alike in length and first and last bytes are still told apart.
    assert_eq!(text(r#"{"axb": 1, "ayb": 2}"#), r#"{"axb":1,"ayb":2}"#);
    let keys = (0..40)
        .map(|n| format!("\"k{n}\": {n}"))
        .collect::<Vec<_>>();
    assert!(read(format!("{{{}}}", keys.join(",")).as_bytes()).is_ok());
}

#[test]
fn depth_is_limited_to_two_hundred() {
    // The reader recurses; unoptimised, 200 levels need more than a test thread's stack.
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
        result_text(Some(value.root())).unwrap(),
        "[\"\\u001f\u{7f}\u{2028}\\u0000\\b\\t\\n\\f\\r\\\"\\\\/é\"]"
    );
    let string = parse(br#""as is\n""#).unwrap();
    assert_eq!(result_text(Some(string.root())).unwrap(), "as is\n");
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

/// Every object of `keys.len()` keys, as JSON text, with the keys in that order.
fn object_of(keys: &[String]) -> String {
    let pairs: Vec<String> = keys
        .iter()
        .enumerate()
        .map(|(at, key)| format!("\"{key}\":{at}"))
        .collect();
    format!("{{{}}}", pairs.join(","))
}

#[test]
fn a_repeated_key_is_found_wherever_it_is() {
    // Keys of many lengths, some prefixes of others and an empty one; both sides of the
    // pairwise limit (12 keys), the repeat at every pair of places, nested or not.
    let names = |count: usize| -> Vec<String> {
        (0..count)
            .map(|at| match at % 3 {
                0 => "k".repeat(at / 3),
                1 => format!("k{at}"),
                _ => format!("x{}", "k".repeat(at)),
            })
            .collect()
    };
    for count in 0..=20 {
        let distinct = names(count);
        let mut unique: Vec<&String> = distinct.iter().collect();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), count, "the generated keys are distinct");
        assert!(
            parse(object_of(&distinct).as_bytes()).is_ok(),
            "{count} keys"
        );
        for first in 0..count {
            for second in first + 1..count {
                let mut keys = distinct.clone();
                keys[second] = keys[first].clone();
                let flat = object_of(&keys);
                for json in [flat.clone(), format!("[1, {{\"in\": {flat}}}]")] {
                    assert_eq!(
                        parse(json.as_bytes()).err(),
                        Some(Fallback("a repeated object key")),
                        "{json}"
                    );
                }
            }
        }
    }
}

/// The reference escaper, the oracle of `write_string`: one character at a time, as orjson
/// writes a string.
fn escaped(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[test]
fn escapes_land_right_across_chunk_boundaries() {
    // Lengths around the 32-byte chunk, a byte to escape at each place, non-ASCII around it;
    // with and without a control other than LF (the two ways of finding them).
    for length in [0, 1, 31, 32, 33, 63, 64, 65, 100] {
        for at in 0..length {
            for special in ['"', '\\', '\n', '\u{1}', '\u{1f}', '\u{7f}', '\u{e9}'] {
                for next in [None, Some('\u{1f}'), Some('\t'), Some('"'), Some('\n')] {
                    let mut text: Vec<char> =
                        "ab\u{e9}\u{2028}c".chars().cycle().take(length).collect();
                    text[at] = special;
                    if let Some(next) = next
                        && at + 1 < length
                    {
                        text[at + 1] = next;
                    }
                    let text: String = text.into_iter().collect();
                    let mut written = String::new();
                    write_string(&text, &mut written);
                    assert_eq!(written, escaped(&text), "{text:?}");
                }
            }
        }
    }
}

#[test]
fn every_character_is_escaped_at_every_place_of_every_length() {
    // Every ASCII character and some of two to four bytes, at each offset of strings
    // short (tested a word at a time) and long (memchr or chunks), with and without a
    // control other than LF elsewhere in the string.
    let mut specials: Vec<char> = (0u8..=0x7f).map(char::from).collect();
    specials.extend(['\u{80}', 'é', '\u{2028}', '日', '😀', '\u{ffff}']);
    for length in (0..80).chain([127, 128, 129, 200]) {
        for (at, &special) in specials.iter().enumerate() {
            for filler in ['a', '\n', '\u{1}'] {
                let mut chars: Vec<char> = (0..length)
                    .map(|i| if i % 7 == 3 { filler } else { 'x' })
                    .collect();
                let place = if length == 0 { 0 } else { at % (length + 1) };
                chars.insert(place, special);
                let text: String = chars.into_iter().collect();
                let mut written = String::new();
                super::write_string(&text, &mut written);
                assert_eq!(written, escaped(&text), "{text:?}");
            }
        }
    }
}

#[test]
fn values_written_alike_are_written_the_same() {
    let texts = [
        "null",
        "true",
        "false",
        "1",
        "1.0",
        "-1",
        "18446744073709551615",
        "1e16",
        "\"1\"",
        "[1,2]",
        "[2,1]",
        "[1]",
        "{\"a\":1,\"b\":2}",
        "{\"b\":2,\"a\":1}",
        "{\"a\":1}",
        "{\"a\":[1,{\"c\":\"x\"}]}",
        "{\"a\":[1,{\"c\":\"y\"}]}",
        "[]",
        "{}",
        "\"\"",
    ]; // fmt: skip
    let mut alike = 0;
    for one in texts {
        for other in texts {
            let (a, b) = (
                parse(one.as_bytes()).unwrap(),
                parse(other.as_bytes()).unwrap(),
            );
            if super::writes_alike(Some(a.root()), Some(b.root())) {
                assert_eq!(
                    result_text(Some(a.root())).unwrap(),
                    result_text(Some(b.root())).unwrap()
                );
                alike += 1;
            }
            assert_eq!(
                super::writes_alike(Some(a.root()), Some(b.root())),
                one == other,
                "{one} {other}"
            );
        }
    }
    assert_eq!(alike, texts.len());
    assert!(super::writes_alike(None, None));
    assert!(!super::writes_alike(
        None,
        Some(parse(b"null").unwrap().root())
    ));
}

#[test]
fn the_unescaped_buffer_is_sized_once_at_the_first_escape() {
    // Each growth of the buffer copied all of it: it is reserved once, for the rest of the
    // text, and every later string fits.
    let json = r#"{"a": "plain", "b": "x\ny", "c": "\u00e9\t\"long enough to grow a small buffer\"", "d": "\\"}"#;
    let document = parse(json.as_bytes()).unwrap();
    let first = json.find(r"x\n").unwrap();
    assert_eq!(document.unescaped.capacity(), json.len() - first);
    assert_eq!(
        text(json),
        r#"{"a":"plain","b":"x\ny","c":"é\t\"long enough to grow a small buffer\"","d":"\\"}"#
    );
}
