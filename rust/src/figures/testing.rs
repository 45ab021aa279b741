//! The reference's extractor for `cargo test`s, built from rust/testdata/figure_rules.json
//! (`compiled_rules()` dumped; tests/figures/test_native_index.py keeps it current).

use super::extract::{Extractor, Tables};

type Rules = (
    Vec<(String, bool)>,
    Vec<(String, String)>,
    usize,
    String,
    Vec<(String, u64)>,
    Vec<(String, u64)>,
    Vec<String>,
    Vec<(String, String)>,
);

/// The extractor the Python border would build.
pub fn extractor() -> Extractor {
    let text = include_str!("../../testdata/figure_rules.json");
    let (patterns, hedges, hedge_window, hedge_after, scales, word_values, ordinals, qualifiers): Rules =
        sonic_rs::from_str(text).unwrap();
    let [symbol_led, word_led, value_part, hedge, any_number]: [(String, bool); 5] =
        patterns.try_into().unwrap();
    let scales = scales
        .into_iter()
        .map(|(name, value)| (name, value.ilog10()))
        .collect();
    Extractor::new(Tables {
        symbol_led,
        word_led,
        value_part,
        hedge,
        any_number,
        hedges,
        hedge_window,
        hedge_after,
        scales,
        word_values,
        ordinals,
        qualifiers,
    })
    .unwrap()
}
