//! Structured values (`tracegrade.figures._structured`): which numbers of a JSON tool result
//! may source a money amount (`amount_values`, `key_names_money`, `_parsed`), and a bare
//! number's canonical value (`number_figure`'s).

use std::collections::HashMap;
use std::sync::OnceLock;

use super::super::json::{Document, Kind, Number, Refusal};
use super::super::{Fallback, Value, json};
use crate::chars::{is_decimal, is_space};
use crate::figures::decimal::Decimal;

// `_MONEY_WORDS` and `_OTHER_WORDS`, as the reference lists them.
#[rustfmt::skip]
pub const MONEY_WORDS: &[&str] = &[
    "amount", "amounts", "balance", "balances", "price", "prices", "pricing", "priced", "cost",
    "costs", "fee", "fees", "fare", "fares", "charge", "charges", "charged", "total", "totals",
    "subtotal", "subtotals", "refund", "refunds", "refunded", "payment", "payments", "paid",
    "pay", "payout", "payouts", "credit", "debit", "deposit", "deposits", "tax", "taxes", "vat",
    "tip", "tips", "compensation", "budget", "budgets", "revenue", "revenues", "salary",
    "salaries", "wage", "wages", "income", "spend", "spent", "spending", "money", "cash", "usd",
    "eur", "gbp", "dollars", "euros", "premium", "penalty", "surcharge", "savings", "earnings",
    "profit", "worth", "bill", "billed", "invoice", "due", "owed", "owing", "rent", "expense",
    "expenses",
];
#[rustfmt::skip]
pub const OTHER_WORDS: &[&str] = &[
    "id", "ids", "uuid", "guid", "key", "code", "codes", "number", "numbers", "num", "no", "nr",
    "count", "counts", "qty", "quantity", "quantities", "index", "idx", "seat", "seats",
    "available", "availability", "age", "year", "years", "month", "months", "week", "weeks",
    "day", "days", "date", "dates", "dob", "birthday", "time", "times", "timestamp", "created",
    "updated", "modified", "hour", "hours", "minute", "minutes", "second", "seconds", "duration",
    "phone", "zip", "postal", "postcode", "four", "last4", "digits", "version", "page", "pages",
    "limit", "offset", "rank", "rating", "score", "percent", "percentage", "pct", "ratio",
    "status", "port", "bag", "bags", "baggage", "baggages", "items", "passengers", "people",
    "persons", "guests", "adults", "children", "nights", "stops", "length", "size", "weight",
    "height", "width", "distance", "miles", "points", "level", "tier", "floor", "room", "gate",
    "terminal", "line", "lines", "row", "rows", "column", "columns", "serial", "sku", "isbn",
    "account", "reference", "ref", "confirmation", "pin", "cvv", "lat", "latitude", "lon",
    "longitude", "card",
];

/// `_WORD.findall(key)`: `[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+` (`\d` any script), as slices
/// of `key` (the reference lower-cases them: [`say`] compares so).
fn key_words(key: &str) -> Vec<&str> {
    let bytes = key.as_bytes();
    // The length in bytes of the run from `from` of ASCII bytes passing `test`.
    let run = |from: usize, test: fn(&u8) -> bool| {
        bytes
            .get(from..)
            .unwrap_or_default()
            .iter()
            .take_while(|b| test(b))
            .count()
    };
    let mut words = Vec::new();
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        let length = if byte.is_ascii_uppercase() {
            let upper = run(at, u8::is_ascii_uppercase);
            let lower_next = bytes.get(at + upper).is_some_and(u8::is_ascii_lowercase);
            match (lower_next, upper) {
                (false, _) => upper,
                (true, 1) => 1 + run(at + 1, u8::is_ascii_lowercase),
                (true, _) => upper - 1, // the last capital starts the next word
            }
        } else if byte.is_ascii_lowercase() {
            run(at, u8::is_ascii_lowercase)
        } else {
            // A run of decimal digits of any script, else one character that is no word's.
            let rest = key.get(at..).unwrap_or_default();
            let digits: usize = rest
                .chars()
                .take_while(|&c| is_decimal(c))
                .map(char::len_utf8)
                .sum();
            if digits == 0 {
                at += rest.chars().next().map_or(1, char::len_utf8);
                continue;
            }
            digits
        };
        words.extend(key.get(at..at + length));
        at += length;
    }
    words
}

/// What a word of a key says, lower-cased: `Some(true)` money, `Some(false)` something
/// else, `None` nothing (`_OTHER_WORDS` wins over `_MONEY_WORDS`, as the reference asks).
fn say(word: &str) -> Option<bool> {
    static SAYS: OnceLock<HashMap<&'static str, bool>> = OnceLock::new();
    let says = SAYS.get_or_init(|| {
        let money = MONEY_WORDS.iter().map(|&word| (word, true));
        // Inserted last, so a word in both lists is "other".
        let other = OTHER_WORDS.iter().map(|&word| (word, false));
        money.chain(other).collect()
    });
    // No listed word is longer: a longer one says nothing, unlowered.
    let mut lowered = [0u8; 16];
    let buffer = lowered.get_mut(..word.len())?;
    buffer.copy_from_slice(word.as_bytes());
    buffer.make_ascii_lowercase();
    says.get(std::str::from_utf8(buffer).ok()?).copied()
}

/// `key_names_money`: `Some(true)` for money, `Some(false)` for anything else, `None` for
/// a key with no say.
pub fn key_names_money(key: &str) -> Option<bool> {
    let mut words = key_words(key);
    if let Some(per) = words
        .iter()
        .position(|word| word.eq_ignore_ascii_case("per"))
    {
        words.truncate(per);
    }
    words.iter().rev().find_map(|word| say(word))
}

/// `canonical(abs(Decimal(...)))` of a written number (digits, commas, one point).
fn canonical(number: &[char]) -> Result<String, Fallback> {
    let value = Decimal::parse(number).ok_or(Fallback("a number Decimal does not read"))?;
    let value = value
        .scaled(0)
        .map_err(|_| Fallback("a number beyond Decimal's default context"))?;
    Ok(value.canonical())
}

/// `_BARE_NUMBER.fullmatch(text)`'s group 1:
/// `\s*[-+\u2212]?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)\s*`.
fn bare_number(text: &str) -> Option<Vec<char>> {
    let trimmed = text.trim_matches(is_space);
    let body = trimmed
        .strip_prefix(['-', '+', '\u{2212}'])
        .unwrap_or(trimmed);
    let chars: Vec<char> = body.chars().collect();
    let (whole, fraction) = match chars.iter().position(|&c| c == '.') {
        Some(point) => (
            chars.get(..point).unwrap_or(&[]),
            Some(chars.get(point + 1..).unwrap_or(&[])),
        ),
        None => (chars.as_slice(), None),
    };
    if fraction.is_some_and(|digits| digits.is_empty() || !digits.iter().all(|&c| is_decimal(c))) {
        return None;
    }
    let grouped = {
        let mut groups = whole.split(|&c| c == ',');
        let first = groups.next().unwrap_or(&[]);
        let rest: Vec<&[char]> = groups.collect();
        (1..=3).contains(&first.len())
            && !rest.is_empty()
            && std::iter::once(first)
                .chain(rest.iter().copied())
                .all(|group| group.iter().all(|&c| is_decimal(c)))
            && rest.iter().all(|group| group.len() == 3)
    };
    let plain = whole.iter().all(|&c| is_decimal(c)) && (!whole.is_empty() || fraction.is_some());
    (grouped || plain).then_some(chars)
}

/// `number_figure(value).value` for a JSON scalar, or `None` when it is not a bare number.
fn number_value(value: Value<'_>) -> Result<Option<String>, Fallback> {
    match value.kind() {
        Kind::Number(Number::Unsigned(int)) => Ok(Some(int.to_string())),
        Kind::Number(Number::Negative(int)) => Ok(Some(int.unsigned_abs().to_string())),
        Kind::Number(Number::Float(float)) => float_canonical(float).map(Some),
        Kind::String(text) => bare_number(text)
            .map(|digits| canonical(&digits))
            .transpose(),
        _ => Ok(None),
    }
}

/// `canonical(abs(Decimal(repr(value))))`. zmij writes `repr`'s shortest round-trip digits,
/// ties to even as Python (Rust's `{:e}` rounds `940191251759288.25` up).
fn float_canonical(value: f64) -> Result<String, Fallback> {
    if !value.is_finite() {
        return Err(Fallback("an infinite float"));
    }
    let mut buffer = zmij::Buffer::new();
    let written = buffer.format_finite(value.abs());
    let (mantissa, exponent) = match written.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (
            mantissa,
            exponent
                .parse::<i64>()
                .map_err(|_| Fallback("a float written oddly"))?,
        ),
        None => (written, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: Vec<char> = whole.chars().chain(fraction.chars()).collect();
    let length = i64::try_from(digits.len()).map_err(|_| Fallback("a float too long"))?;
    let point = i64::try_from(whole.len()).map_err(|_| Fallback("a float too long"))? + exponent;
    let mut plain: Vec<char> = Vec::new();
    if point <= 0 {
        plain.extend(['0', '.']);
        plain.extend(std::iter::repeat_n(
            '0',
            usize::try_from(-point).unwrap_or(0),
        ));
        plain.extend(&digits);
    } else if point >= length {
        plain.extend(&digits);
        plain.extend(std::iter::repeat_n(
            '0',
            usize::try_from(point - length).unwrap_or(0),
        ));
    } else {
        let (head, tail) = digits.split_at(usize::try_from(point).unwrap_or(0));
        plain.extend(head);
        plain.push('.');
        plain.extend(tail);
    }
    canonical(&plain)
}

/// `_parsed`: a string result that is JSON (led by a bracket) parsed as `orjson.loads`
/// does; `Ok(None)` for prose that starts with a bracket (not JSON: no values).
fn parsed_text(text: &str) -> Result<Option<Document<'_>>, Fallback> {
    match json::read(text.as_bytes()) {
        Ok(document) => Ok(Some(document)),
        Err(Refusal::NotJson) => Ok(None),
        // JSON the core does not read as orjson would: the reference's.
        Err(Refusal::Declined(reason)) => Err(Fallback(reason)),
    }
}

/// Where a value sits (`_Standing`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Standing {
    Keyless,
    Money,
    Other,
    Unsaid,
}

/// `amount_values(result)`: the numbers of a tool result that may source a money amount,
/// as canonical decimals (in no promised order: one result's values share their evidence).
pub fn amount_values(result: Option<Value<'_>>) -> Result<Vec<String>, Fallback> {
    let Some(result) = result else {
        return Ok(Vec::new());
    };
    let owned;
    let root = match result.as_str() {
        Some(text) if text.trim_start_matches(is_space).starts_with(['{', '[']) => {
            match parsed_text(text)? {
                Some(document) => {
                    owned = document;
                    owned.root()
                }
                None => return Ok(Vec::new()),
            }
        }
        _ => result,
    };
    let mut found = Vec::new();
    let mut stack: Vec<(Value<'_>, Standing)> = vec![(root, Standing::Keyless)];
    while let Some((value, standing)) = stack.pop() {
        if let Some(object) = value.as_object() {
            for (key, item) in object.iter() {
                let inner = match key_names_money(key) {
                    Some(true) => Standing::Money,
                    Some(false) => Standing::Other,
                    None if standing == Standing::Keyless => Standing::Unsaid,
                    None => standing,
                };
                stack.push((item, inner));
            }
        } else if let Some(array) = value.as_array() {
            stack.extend(array.iter().map(|item| (item, standing)));
        } else if matches!(standing, Standing::Keyless | Standing::Money) {
            if let Some(number) = number_value(value)? {
                found.push(number);
            }
        }
    }
    Ok(found)
}
