//! `iter_figures`: the figures of a text, as `tracegrade.figures._extract` finds them.
//!
//! The patterns and word tables are the reference's own (passed in by the border); this
//! module is the port of what the reference does with a match: `_merge`, `_figures`,
//! `_number`, `_quantities`, `_values`, `_period_value`, `_hedge` and the identifier prefix.

use super::decimal::Decimal;
use super::groups::{Groups, merge};
use super::matcher::{Match, Pattern, Span, TooDeep};
use super::relaxed::{Relaxed, Starts, char_indices, none, tried};
use super::sets::Unit;
use crate::lower::lower;
use std::sync::OnceLock;

/// Why the compiled engine leaves a text to the Python one (which then gives the answer,
/// or raises as the reference does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fallback {
    /// Lower-casing changes the text's length (e.g. "İ"): the reference then matches the
    /// original text case-insensitively.
    LengthChanges,
    /// Matching needs more nesting than the matcher allows.
    TooDeep,
    /// Something the reference would raise on, or a number beyond the default context.
    Reference(String),
}

impl From<TooDeep> for Fallback {
    fn from(_: TooDeep) -> Self {
        Fallback::TooDeep
    }
}

/// One figure: the fields of `tracegrade.figures.Figure` (never `bare`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figure {
    pub kind: &'static str,
    pub raw: String,
    pub value: String,
    pub start: usize,
    pub end: usize,
    pub hedge: Option<String>,
}

/// The reference's patterns and tables (`_extract`, `_numbers`).
#[derive(Debug, Clone)]
pub struct Tables {
    /// `_SYMBOL_LED`, `_WORD_LED`, `_VALUE_PART` and `_HEDGE`, with their IGNORECASE flag.
    pub symbol_led: (String, bool),
    pub word_led: (String, bool),
    pub value_part: (String, bool),
    pub hedge: (String, bool),
    /// `ANY_NUMBER`: every number of any size (its group 1).
    pub any_number: (String, bool),
    pub hedges: Vec<(String, String)>,
    pub hedge_window: usize,
    pub hedge_after: String,
    /// `SCALES`, each as a power of ten.
    pub scales: Vec<(String, u32)>,
    pub word_values: Vec<(String, u64)>,
    pub ordinals: Vec<String>,
    pub qualifiers: Vec<(String, String)>,
}

/// The compiled extractor.
#[derive(Debug, Clone)]
pub struct Extractor {
    symbol_led: Pattern,
    word_led: Pattern,
    /// Their relaxed forms (where a match may start), built at the first text: 4 ms that
    /// start-up need not pay.
    relaxed: OnceLock<Option<Relaxed>>,
    /// The hedge pattern's, for the few characters before a figure.
    hedge_relaxed: OnceLock<Option<Relaxed>>,
    value_part: Pattern,
    hedge: Pattern,
    any_number: Pattern,
    symbol_groups: Groups,
    word_groups: Groups,
    digits: Option<usize>,
    words: Option<usize>,
    repeat: Option<usize>,
    hedge_word: Option<usize>,
    tables: Tables,
}

fn text<U: Unit>(units: &[U], span: (usize, usize)) -> String {
    let units = units.get(span.0..span.1).unwrap_or(&[]);
    units.iter().map(|unit| unit.char()).collect()
}

fn chars_of<U: Unit>(units: &[U], span: (usize, usize)) -> &[U] {
    units.get(span.0..span.1).unwrap_or(&[])
}

fn lookup<'a, V>(table: &'a [(String, V)], key: &str) -> Result<&'a V, Fallback> {
    table
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
        .ok_or_else(|| Fallback::Reference(format!("KeyError: {key:?}")))
}

fn python_strip(text: &str) -> &str {
    text.trim_matches(crate::chars::is_space)
}

impl Extractor {
    pub fn new(tables: Tables) -> Result<Self, String> {
        let compile = |(pattern, flag): &(String, bool)| Pattern::new(pattern, *flag);
        let symbol_led = compile(&tables.symbol_led)?;
        let word_led = compile(&tables.word_led)?;
        let value_part = compile(&tables.value_part)?;
        let hedge = compile(&tables.hedge)?;
        let any_number = compile(&tables.any_number)?;
        Ok(Self {
            any_number,
            relaxed: OnceLock::new(),
            hedge_relaxed: OnceLock::new(),
            symbol_groups: Groups::of(&symbol_led),
            word_groups: Groups::of(&word_led),
            digits: value_part.group_index("digits"),
            words: value_part.group_index("words"),
            repeat: value_part.group_index("repeat"),
            hedge_word: hedge.group_index("word"),
            symbol_led,
            word_led,
            value_part,
            hedge,
            tables,
        })
    }

    /// The tables it was built from (the anchors of figure_sources spell numbers by them).
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The figures of `text`, the first of each value (`extract_figures`).
    pub fn distinct_figures(&self, text: &str) -> Result<Vec<Figure>, Fallback> {
        let mut found = self.figures(text)?;
        let mut seen = std::collections::HashSet::new();
        found.retain(|figure| seen.insert(figure.value.clone()));
        Ok(found)
    }

    /// Every figure of `text` in order of appearance, repeats included (`iter_figures`).
    pub fn figures(&self, text: &str) -> Result<Vec<Figure>, Fallback> {
        let relaxed = self
            .relaxed
            .get_or_init(|| Relaxed::of(&[&self.symbol_led, &self.word_led]));
        if text.is_ascii() {
            // `str.lower` of ASCII is ASCII lower case; the bytes are the characters.
            let lowered = text.as_bytes().to_ascii_lowercase();
            let starts = relaxed
                .as_ref()
                .and_then(|relaxed| relaxed.starts(&lowered));
            if starts.as_ref().is_some_and(|starts| none(starts)) {
                return Ok(Vec::new());
            }
            return self.figures_of(text.as_bytes(), &lowered, starts);
        }
        let lowered = lower(text);
        // The reference matches the lower case in its place: one character for one.
        let count = text.chars().count();
        if lowered.chars().count() != count {
            return Err(Fallback::LengthChanges);
        }
        let starts = relaxed
            .as_ref()
            .and_then(|relaxed| relaxed.starts(lowered.as_bytes()));
        if starts.as_ref().is_some_and(|starts| none(starts)) {
            return Ok(Vec::new()); // no character decoded
        }
        let starts = starts.map(|starts| {
            let indices = |places: &Starts| char_indices(&lowered, places);
            starts.iter().map(indices).collect()
        });
        // Sized at once: collecting grows a vector by doubling from a quarter of the bytes.
        let mut original = Vec::with_capacity(count);
        original.extend(text.chars());
        let mut units = Vec::with_capacity(count);
        units.extend(lowered.chars());
        self.figures_of(&original, &units, starts)
    }

    /// [`Extractor::figures`] of a text and its lower case, one unit for one; `starts`:
    /// where each pattern's relaxed matches start (`None`: try every place).
    fn figures_of<U: Unit>(
        &self,
        original: &[U],
        lowered: &[U],
        starts: Option<Vec<Starts>>,
    ) -> Result<Vec<Figure>, Fallback> {
        let scan = |pattern: &Pattern, places: Option<&Starts>| match places {
            Some(places) => tried(pattern, lowered, places),
            None => pattern.find_all(lowered),
        };
        let starts = starts.as_ref();
        let words = scan(&self.word_led, starts.and_then(|starts| starts.get(1)))?;
        let symbols = scan(&self.symbol_led, starts.and_then(|starts| starts.first()))?;
        let mut found = Vec::new();
        for (hit, groups) in merge(symbols, words, &self.symbol_groups, &self.word_groups) {
            let start = hit.start();
            let prefixed = start >= 2
                && original
                    .get(start - 2)
                    .is_some_and(|unit| unit.char().is_ascii_uppercase())
                && original.get(start - 1).map(|unit| unit.char()) == Some('-');
            if prefixed {
                continue;
            }
            let mut figures = self.match_figures(&hit, groups, original, lowered)?;
            let lead = figures.first().map(|f| f.kind);
            if matches!(lead, Some("money" | "number")) && start > 0 {
                if let Some(hedge) = self.hedge_before(lowered, start)? {
                    for figure in &mut figures {
                        if matches!(figure.kind, "money" | "number") {
                            figure.hedge = Some(hedge.clone());
                        }
                    }
                }
            }
            found.extend(figures);
        }
        Ok(found)
    }

    /// The canonical value of every number `text` writes (`reference_numbers`).
    pub fn numbers(&self, text: &str) -> Result<Vec<String>, Fallback> {
        if text.is_ascii() {
            return self.numbers_of(text.as_bytes());
        }
        self.numbers_of(&text.chars().collect::<Vec<char>>())
    }

    fn numbers_of<U: Unit>(&self, units: &[U]) -> Result<Vec<String>, Fallback> {
        let mut found = Vec::new();
        for hit in self.any_number.find_all(units)? {
            let number = hit.group(Some(1)).unwrap_or((0, 0));
            found.push(parsed(chars_of(units, number))?.canonical());
        }
        Ok(found)
    }

    fn match_figures<U: Unit>(
        &self,
        hit: &Match,
        g: &Groups,
        original: &[U],
        lowered: &[U],
    ) -> Result<Vec<Figure>, Fallback> {
        if let Some(number) = hit.group(g.number) {
            return self.number(hit, g, number, original);
        }
        if hit.group(g.identifier).is_some() {
            return Ok(Vec::new());
        }
        let (start, end) = (hit.start(), hit.end());
        let raw = text(original, (start, end));
        let figure = |kind, value| Figure {
            kind,
            raw: raw.clone(),
            value,
            start,
            end,
            hedge: None,
        };
        if let Some(section) = hit.group(g.section_id) {
            let id = lower(&text(lowered, section));
            return Ok(vec![figure("section", format!("§{id}"))]);
        }
        if let Some(streak) = hit.group(g.streak) {
            let days = self.ordinal_value(chars_of(lowered, streak))?;
            let unit = text(lowered, hit.group(g.streak_unit).unwrap_or((0, 0)));
            let value = self.period_value(&days, &unit, Some("consecutive"))?;
            return Ok(vec![figure("period", value)]);
        }
        for year in [g.iso_year, g.dmy_year] {
            if let Some(span) = hit.group(year) {
                let year = text(original, span);
                return Ok(vec![Figure {
                    kind: "number",
                    raw: year.clone(),
                    value: year,
                    start: span.0,
                    end: span.1,
                    hedge: None,
                }]);
            }
        }
        self.quantities(hit, g, lowered)
            .map(|found| found.into_iter().map(|(k, v)| figure(k, v)).collect())
    }

    /// `_number`: a number of four or more digits; "2016-17" also stands for 2017.
    fn number<U: Unit>(
        &self,
        hit: &Match,
        g: &Groups,
        span: (usize, usize),
        original: &[U],
    ) -> Result<Vec<Figure>, Fallback> {
        let digits = chars_of(original, span);
        let written = text(original, span);
        let plain = !written.contains([',', '.']);
        let value = if plain {
            let stripped = written.trim_start_matches('0');
            if stripped.is_empty() { "0" } else { stripped }.to_string()
        } else {
            parsed(digits)?.canonical()
        };
        let mut figures = vec![Figure {
            kind: "number",
            raw: written,
            value,
            start: span.0,
            end: span.1,
            hedge: None,
        }];
        if let Some(year_end) = hit.group(g.year_end) {
            if plain && digits.len() == 4 {
                let first = int(digits)?;
                let mut last = first / 100 * 100 + int(chars_of(original, year_end))?;
                if last <= first {
                    last += 100;
                }
                let (start, end) = (hit.start(), hit.end());
                figures.push(Figure {
                    kind: "number",
                    raw: text(original, (start, end)),
                    value: last.to_string(),
                    start,
                    end,
                    hedge: None,
                });
            }
        }
        Ok(figures)
    }

    /// `_quantities`: (kind, value) per end of a range of money, percentages, periods and
    /// scaled numbers.
    fn quantities<U: Unit>(
        &self,
        hit: &Match,
        g: &Groups,
        lowered: &[U],
    ) -> Result<Vec<(&'static str, String)>, Fallback> {
        let period = hit.group(g.period).map(|span| text(lowered, span));
        let (kind, scale, values): (&'static str, Span, Span) =
            if hit.group(g.money_before).is_some() {
                let values = hit.group(g.money_before_values);
                ("money", hit.group(g.money_before_scale), values)
            } else {
                let values = hit.group(g.values);
                if hit.group(g.percent).is_some() {
                    ("percent", None, values)
                } else if period.is_some() {
                    ("period", None, values)
                } else if hit.group(g.money_after).is_some() {
                    ("money", hit.group(g.money_after_scale), values)
                } else {
                    ("number", hit.group(g.scaled), values)
                }
            };
        let power = match scale.map(|span| text(lowered, span)) {
            Some(scale) if !scale.is_empty() => *lookup(&self.tables.scales, python_strip(&scale))?,
            _ => 0,
        };
        let qualifier = hit.group(g.period_qualifier).map(|s| text(lowered, s));
        let values = values.ok_or_else(|| Fallback::Reference("no values group".into()))?;
        let mut found = Vec::new();
        for value in self.values(chars_of(lowered, values))? {
            let normalised = if kind == "percent" {
                value.canonical() + "%"
            } else if let Some(unit) = &period {
                self.period_value(&value, unit, qualifier.as_deref())?
            } else {
                value
                    .scaled(power)
                    .map_err(|_| Fallback::Reference("a number beyond the context".into()))?
                    .canonical()
            };
            found.push((kind, normalised));
        }
        Ok(found)
    }

    /// `_values`: the numbers inside a matched range ("5-10", "thirty (30)", "$5-$10").
    fn values<U: Unit>(&self, values: &[U]) -> Result<Vec<Decimal>, Fallback> {
        let mut found = Vec::new();
        for part in self.value_part.find_all(values)? {
            let digits = part.group(self.digits).or(part.group(self.repeat));
            found.push(match digits {
                Some(span) => parsed(chars_of(values, span))?,
                None => {
                    let words = part.group(self.words).unwrap_or((0, 0));
                    Decimal::from_int(self.spelled_value(&text(values, words))?)
                }
            });
        }
        Ok(found)
    }

    fn spelled_value(&self, words: &str) -> Result<u64, Fallback> {
        let words = lower(words).replace('-', " ");
        let mut total = 0u64;
        for part in words
            .split(crate::chars::is_space)
            .filter(|p| !p.is_empty())
        {
            total = total.saturating_add(*lookup(&self.tables.word_values, part)?);
        }
        Ok(total)
    }

    fn ordinal_value<U: Unit>(&self, ordinal: &[U]) -> Result<Decimal, Fallback> {
        let ordinal: String = ordinal.iter().map(|unit| unit.char()).collect();
        let lowered: Vec<char> = lower(&ordinal).chars().collect();
        if lowered
            .first()
            .is_some_and(|&c| crate::chars::is_decimal(c))
        {
            let digits = lowered
                .get(..lowered.len().saturating_sub(2))
                .unwrap_or(&[]);
            // int() refuses more digits than sys.get_int_max_str_digits(): 640 at the least.
            if digits.len() > 640 {
                return Err(Fallback::Reference("an ordinal of many digits".into()));
            }
            return Decimal::from_digits(digits)
                .ok_or_else(|| Fallback::Reference("ValueError: int()".into()));
        }
        let word: String = lowered.iter().collect();
        let index = self.tables.ordinals.iter().position(|o| *o == word);
        let index = index.ok_or_else(|| Fallback::Reference(format!("ValueError: {word:?}")))?;
        Ok(Decimal::from_int(index as u64 + 1))
    }

    fn period_value(
        &self,
        value: &Decimal,
        unit: &str,
        qualifier: Option<&str>,
    ) -> Result<String, Fallback> {
        let number = value.canonical();
        let plural = if number == "1" { "" } else { "s" };
        let prefix = match qualifier {
            Some(qualifier) if !qualifier.is_empty() => {
                let mapped =
                    lookup(&self.tables.qualifiers, qualifier).map_or(qualifier, String::as_str);
                format!("{} ", lower(mapped))
            }
            _ => String::new(),
        };
        Ok(format!("{number} {prefix}{}{plural}", lower(unit)))
    }

    /// `_hedge`: the hedge written just before `start` ("about $3 million"), if any.
    fn hedge_before<U: Unit>(
        &self,
        lowered: &[U],
        start: usize,
    ) -> Result<Option<String>, Fallback> {
        let before = lowered.get(start.wrapping_sub(1)).map(|unit| unit.char());
        if !before.is_some_and(|c| self.tables.hedge_after.contains(c)) {
            return Ok(None);
        }
        let scanned = lowered.get(..start).unwrap_or(&[]);
        let from = start.saturating_sub(self.tables.hedge_window);
        let relaxed = self
            .hedge_relaxed
            .get_or_init(|| Relaxed::of(&[&self.hedge]));
        let found = match relaxed {
            Some(relaxed) => relaxed.search(&self.hedge, scanned, from)?,
            None => self.hedge.search(scanned, from)?,
        };
        let Some(found) = found else {
            return Ok(None);
        };
        let word = text(scanned, found.group(self.hedge_word).unwrap_or((0, 0)));
        // IGNORECASE also matches the long s and the dotless i, which lower-casing keeps
        // (the reference's `_RE_CASE_EXTRAS`).
        let word: String = word
            .chars()
            .map(|c| match c {
                '\u{17f}' => 's',
                '\u{131}' => 'i',
                other => other,
            })
            .collect();
        lookup(&self.tables.hedges, &word).map(|hedge| Some(hedge.clone()))
    }
}

fn parsed<U: Unit>(digits: &[U]) -> Result<Decimal, Fallback> {
    Decimal::parse(digits).ok_or_else(|| Fallback::Reference("InvalidOperation".into()))
}

fn int<U: Unit>(digits: &[U]) -> Result<u64, Fallback> {
    let mut value = 0u64;
    for unit in digits {
        let digit = crate::chars::decimal_value(unit.char())
            .ok_or_else(|| Fallback::Reference("ValueError: int()".into()))?;
        value = value.saturating_mul(10).saturating_add(u64::from(digit));
    }
    Ok(value)
}
