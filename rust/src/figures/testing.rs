//! The reference's extractor for `cargo test`s, built from rust/testdata/figure_rules.json
//! (`compiled_rules()` dumped; tests/figures/test_native_index.py keeps it current).

use super::extract::{Extractor, Tables};
use crate::native::json::{Number, Value, parse};

/// The extractor the Python border would build.
pub fn extractor() -> Extractor {
    let text = include_str!("../../testdata/figure_rules.json");
    let document = parse(text.as_bytes()).unwrap();
    let rules = items(document.root());
    let [
        patterns,
        hedges,
        hedge_window,
        hedge_after,
        scales,
        word_values,
        ordinals,
        qualifiers,
    ]: [Value<'_>; 8] = rules.try_into().unwrap();
    let [symbol_led, word_led, value_part, hedge, any_number]: [(String, bool); 5] =
        pairs(patterns, |flag| flag.as_bool().unwrap())
            .try_into()
            .unwrap();
    let scales = pairs(scales, count)
        .into_iter()
        .map(|(name, value)| (name, value.ilog10()))
        .collect();
    Extractor::new(Tables {
        symbol_led,
        word_led,
        value_part,
        hedge,
        any_number,
        hedges: pairs(hedges, text_of),
        hedge_window: usize::try_from(count(hedge_window)).unwrap(),
        hedge_after: text_of(hedge_after),
        scales,
        word_values: pairs(word_values, count),
        ordinals: items(ordinals).into_iter().map(text_of).collect(),
        qualifiers: pairs(qualifiers, text_of),
    })
    .unwrap()
}

fn items(list: Value<'_>) -> Vec<Value<'_>> {
    list.as_array().unwrap().iter().collect()
}

fn text_of(value: Value<'_>) -> String {
    value.as_str().unwrap().to_string()
}

fn count(value: Value<'_>) -> u64 {
    match value.as_number() {
        Some(Number::Unsigned(count)) => count,
        other => unreachable!("{other:?}"),
    }
}

/// A list of `[text, second]` pairs.
fn pairs<T>(list: Value<'_>, second: impl Fn(Value<'_>) -> T) -> Vec<(String, T)> {
    let pair = |item: Value<'_>| {
        let [first, other]: [Value<'_>; 2] = items(item).try_into().unwrap();
        (text_of(first), second(other))
    };
    items(list).into_iter().map(pair).collect()
}
