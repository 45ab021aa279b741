//! `FigureIndex`: the sourced figures (`tracegrade.figures._index`), in plain Rust.
//!
//! [`Found`] is what one source text adds (its figures with their hedged forms, and its
//! numbers) and [`Found::record`] puts it into any key store: [`FigureIndex`]'s own maps,
//! or the Python dicts of the reference's `FigureIndex` (rust/src/py_figures.rs). So there
//! is one implementation of `FigureIndex.add`'s loop for both.

use std::collections::{HashMap, HashSet};

use super::extract::{Extractor, Fallback, Figure};
use super::keys::approximate_keys;

/// A map from key to the evidence first seen for it, as `FigureIndex.add` fills it.
pub trait Keys {
    type Error;
    /// Whether `key` is there.
    fn has(&self, key: &str) -> Result<bool, Self::Error>;
    /// Map `key` (known to be absent) to this call's evidence.
    fn put(&mut self, key: &str) -> Result<(), Self::Error>;
}

/// A text's figures, each with its hedged forms (money and numbers only), and its numbers.
#[derive(Debug, Clone, Default)]
pub struct Found {
    figures: Vec<(String, Vec<String>)>,
    numbers: Vec<String>,
}

impl Found {
    /// The figures (`iter_figures`) of `text` and, when `numbers`, every number it writes
    /// (`number_values`); hedged forms first, so a value the reference would raise on
    /// changes nothing.
    pub fn of(extractor: &Extractor, text: &str, numbers: bool) -> Result<Self, Fallback> {
        let figures = extractor.figures(text)?;
        let numbers = if numbers {
            extractor.numbers(text)?
        } else {
            Vec::new()
        };
        let mut keyed = Vec::with_capacity(figures.len());
        for figure in figures {
            let hedged = if matches!(figure.kind, "money" | "number") {
                approximate_keys(&figure.value).ok_or_else(|| {
                    Fallback::Reference(format!("approximate_keys({:?})", figure.value))
                })?
            } else {
                Vec::new()
            };
            keyed.push((figure.value, hedged));
        }
        Ok(Self {
            figures: keyed,
            numbers,
        })
    }

    /// Record what was found, as `FigureIndex.add` does: a figure not yet `known` nor
    /// `echoed` into `known`, its hedged forms into `approximate` where absent; every
    /// number not echoed into `numbers` (when kept) where absent.
    pub fn record<K: Keys, E>(
        &self,
        known: &mut K,
        approximate: &mut K,
        numbers: Option<&mut K>,
        echoed: &E,
    ) -> Result<(), K::Error>
    where
        E: Fn(&str) -> Result<bool, K::Error>,
    {
        for (key, hedged) in &self.figures {
            if known.has(key)? || echoed(key)? {
                continue;
            }
            known.put(key)?;
            for rounded in hedged {
                if !approximate.has(rounded)? {
                    approximate.put(rounded)?;
                }
            }
        }
        if let Some(numbers) = numbers {
            for value in &self.numbers {
                if !echoed(value)? && !numbers.has(value)? {
                    numbers.put(value)?;
                }
            }
        }
        Ok(())
    }
}

/// The figure keys and numbers of a call's arguments, which its answer may only echo
/// (`_echoed`).
pub fn echoed(extractor: &Extractor, echo_of: Option<&str>) -> Result<HashSet<String>, Fallback> {
    let Some(text) = echo_of else {
        return Ok(HashSet::new());
    };
    let mut keys: HashSet<String> = extractor
        .figures(text)?
        .into_iter()
        .map(|figure| figure.value)
        .collect();
    keys.extend(extractor.numbers(text)?);
    Ok(keys)
}

/// One of [`FigureIndex`]'s maps with the evidence of the call filling it.
struct Filling<'a> {
    map: &'a mut HashMap<String, String>,
    evidence: &'a str,
}

impl Keys for Filling<'_> {
    type Error = std::convert::Infallible;

    fn has(&self, key: &str) -> Result<bool, Self::Error> {
        Ok(self.map.contains_key(key))
    }

    fn put(&mut self, key: &str) -> Result<(), Self::Error> {
        self.map.insert(key.to_owned(), self.evidence.to_owned());
        Ok(())
    }
}

/// The incremental set of sourced figures (`tracegrade.figures.FigureIndex`).
#[derive(Debug, Clone, Default)]
pub struct FigureIndex {
    evidence: HashMap<String, String>,
    approximate: HashMap<String, String>,
    /// Amounts shown as structured values, and their hedged forms.
    amounts: HashMap<String, String>,
    /// Every number of every source, for bare figures; `None` when none will be looked up.
    numbers: Option<HashMap<String, String>>,
}

impl FigureIndex {
    /// An empty index; `bare_numbers` keeps every number the sources write.
    pub fn new(bare_numbers: bool) -> Self {
        Self {
            numbers: bare_numbers.then(HashMap::new),
            ..Self::default()
        }
    }

    /// Add the figures of a source text (`FigureIndex.add`); `echoed` is [`echoed`] of the
    /// call's arguments it may only echo.
    pub fn add(
        &mut self,
        extractor: &Extractor,
        text: &str,
        evidence: &str,
        echoed: &HashSet<String>,
    ) -> Result<(), Fallback> {
        let found = Found::of(extractor, text, self.numbers.is_some())?;
        self.add_found(&found, evidence, echoed);
        Ok(())
    }

    /// Record what [`Found::of`] found in a source text.
    pub fn add_found(&mut self, found: &Found, evidence: &str, echoed: &HashSet<String>) {
        let mut known = Filling {
            map: &mut self.evidence,
            evidence,
        };
        let mut approximate = Filling {
            map: &mut self.approximate,
            evidence,
        };
        let mut numbers = self.numbers.as_mut().map(|map| Filling { map, evidence });
        let is_echoed = |key: &str| Ok(echoed.contains(key));
        let Ok(()) = found.record(&mut known, &mut approximate, numbers.as_mut(), &is_echoed);
    }

    /// Add the money amounts a tool result shows as structured values (`add_values`):
    /// `values` are its `amount_values`.
    pub fn add_values<I>(
        &mut self,
        values: I,
        evidence: &str,
        echoed: &HashSet<String>,
    ) -> Result<(), Fallback>
    where
        I: IntoIterator<Item = String>,
    {
        for value in values {
            if echoed.contains(&value) || self.amounts.contains_key(&value) {
                continue;
            }
            let hedged = approximate_keys(&value)
                .ok_or_else(|| Fallback::Reference(format!("approximate_keys({value:?})")))?;
            self.amounts.insert(value, evidence.to_owned());
            for rounded in hedged {
                self.amounts
                    .entry(rounded)
                    .or_insert_with(|| evidence.to_owned());
            }
        }
        Ok(())
    }

    /// The first evidence where `figure` was seen, or `None` if it is unsourced
    /// (`evidence_for`); `bare` is `Figure.bare` (never so for extracted figures).
    pub fn evidence_for(&self, figure: &Figure, bare: bool) -> Option<&str> {
        let hedged = || {
            figure
                .hedge
                .as_ref()
                .map(|hedge| format!("{hedge}:{}", figure.value))
        };
        let mut found = self.evidence.get(&figure.value);
        if found.is_none() && matches!(figure.kind, "money" | "number") {
            found = hedged().and_then(|key| self.approximate.get(&key));
        }
        if found.is_none() && figure.kind == "money" {
            found = self.amounts.get(&figure.value);
            if found.is_none() {
                found = hedged().and_then(|key| self.amounts.get(&key));
            }
        }
        if found.is_none() && bare {
            found = self.numbers.as_ref().and_then(|map| map.get(&figure.value));
        }
        found.map(String::as_str)
    }

    /// Whether a source held a figure of this key (`evidence_for` answers from these
    /// first, and a key keeps the first evidence that held it).
    pub fn has_key(&self, key: &str) -> bool {
        self.evidence.contains_key(key)
    }

    /// How many figures are sourced (`len(index)`).
    pub fn len(&self) -> usize {
        self.evidence.len()
    }

    pub fn is_empty(&self) -> bool {
        self.evidence.is_empty()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap (Cargo.toml)
mod tests {
    use super::{FigureIndex, echoed};
    use crate::figures::testing::extractor;
    use std::collections::HashSet;

    fn figure(extractor: &crate::figures::extract::Extractor, text: &str) -> super::Figure {
        extractor.figures(text).unwrap().into_iter().next().unwrap()
    }

    #[test]
    fn first_evidence_wins_and_hedges_round() {
        let ex = extractor();
        let mut index = FigureIndex::new(false);
        let none = HashSet::new();
        index
            .add(
                &ex,
                "Poseidon grossed $ 181,674,817 on $ 160 million.",
                "f1",
                &none,
            )
            .unwrap();
        index.add(&ex, "Again $181,674,817.", "f2", &none).unwrap();
        assert_eq!(
            index.evidence_for(&figure(&ex, "$181,674,817"), false),
            Some("f1")
        );
        assert_eq!(
            index.evidence_for(&figure(&ex, "$150 million"), false),
            None
        );
        assert_eq!(
            index.evidence_for(&figure(&ex, "over $181 million"), false),
            Some("f1")
        );
        assert_eq!(
            index.evidence_for(&figure(&ex, "about $190 million"), false),
            None
        );
        assert_eq!(index.len(), 2);
    }

    #[test]
    fn echoed_arguments_are_not_sourced() {
        let ex = extractor();
        let mut index = FigureIndex::new(true);
        let args = echoed(&ex, Some(r#"{"amount": "$304"}"#)).unwrap();
        assert!(args.contains("304"));
        index
            .add(&ex, "total is $608, you paid $304", "f3", &args)
            .unwrap();
        assert_eq!(index.evidence_for(&figure(&ex, "$608"), false), Some("f3"));
        assert_eq!(index.evidence_for(&figure(&ex, "$304"), false), None);
        // Bare lookups read every number, but not an echoed one.
        let mut bare = figure(&ex, "$608");
        bare.kind = "number";
        assert_eq!(index.evidence_for(&bare, true), Some("f3"));
        bare.value = "304".into();
        assert_eq!(index.evidence_for(&bare, true), None);
    }

    #[test]
    fn structured_amounts_source_money_only() {
        let ex = extractor();
        let mut index = FigureIndex::new(false);
        let none = HashSet::new();
        index
            .add_values(["466.75".to_owned(), "2956737".to_owned()], "f5", &none)
            .unwrap();
        assert_eq!(
            index.evidence_for(&figure(&ex, "$466.75"), false),
            Some("f5")
        );
        assert_eq!(
            index.evidence_for(&figure(&ex, "about $3 million"), false),
            Some("f5")
        );
        assert_eq!(index.evidence_for(&figure(&ex, "466.75%"), false), None);
        assert!(index.is_empty());
    }
}
