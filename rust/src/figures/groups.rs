//! The named groups the figure patterns have, and `_merge` of the two patterns' matches.

use super::matcher::{Match, Pattern};

/// The named groups of one pattern (absent ones are `None`, as a missing name in
/// `match.re.groupindex`).
#[derive(Debug, Clone, Default)]
pub struct Groups {
    pub number: Option<usize>,
    pub identifier: Option<usize>,
    pub year_end: Option<usize>,
    pub section_id: Option<usize>,
    pub streak: Option<usize>,
    pub streak_unit: Option<usize>,
    pub iso_year: Option<usize>,
    pub dmy_year: Option<usize>,
    pub money_before: Option<usize>,
    pub money_before_scale: Option<usize>,
    pub money_before_values: Option<usize>,
    pub values: Option<usize>,
    pub percent: Option<usize>,
    pub period: Option<usize>,
    pub period_qualifier: Option<usize>,
    pub money_after: Option<usize>,
    pub money_after_scale: Option<usize>,
    pub scaled: Option<usize>,
}

impl Groups {
    pub fn of(pattern: &Pattern) -> Self {
        let g = |name: &str| pattern.group_index(name);
        Self {
            number: g("number"),
            identifier: g("identifier"),
            year_end: g("year_end"),
            section_id: g("section_id"),
            streak: g("streak"),
            streak_unit: g("streak_unit"),
            iso_year: g("iso_year"),
            dmy_year: g("dmy_year"),
            money_before: g("money_before"),
            money_before_scale: g("money_before_scale"),
            money_before_values: g("money_before_values"),
            values: g("values"),
            percent: g("percent"),
            period: g("period"),
            period_qualifier: g("period_qualifier"),
            money_after: g("money_after"),
            money_after_scale: g("money_after_scale"),
            scaled: g("scaled"),
        }
    }
}

/// `_merge`: both patterns' matches in order of start, skipping any inside an earlier one
/// (a word-led match first when both start at one place).
pub fn merge<'g>(
    symbols: Vec<Match>,
    words: Vec<Match>,
    symbol_groups: &'g Groups,
    word_groups: &'g Groups,
) -> Vec<(Match, &'g Groups)> {
    let mut merged = Vec::with_capacity(symbols.len() + words.len());
    let mut end = 0;
    let mut pending = words.into_iter().peekable();
    for hit in symbols {
        while let Some(word) = pending.next_if(|word| word.start() <= hit.start()) {
            if word.start() >= end {
                end = word.end();
                merged.push((word, word_groups));
            }
        }
        if hit.start() >= end {
            end = hit.end();
            merged.push((hit, symbol_groups));
        }
    }
    for word in pending {
        if word.start() >= end {
            end = word.end();
            merged.push((word, word_groups));
        }
    }
    merged
}
