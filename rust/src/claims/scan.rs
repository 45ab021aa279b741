//! `scan_claims()`: the one pass over the answer (claims/_scan.py `_scan`), the names, the
//! order, and the hedge marks.

use std::collections::HashSet;

use super::Claim;
use super::code::{
    domain_claim, domain_head, email_claim, extension_claim, id_claim, identifier_claim,
    path_claim, quote_claim, url_claim,
};
use super::hedge::{hedged_spans, label_lines, mark_hedged};
use super::lexicon::{Lexicon, holds_lower};
use super::names::{Words, clean_word, name_claim, name_words, split_name};
use super::prose::{
    iso_date_claim, month_day_claim, named_date_claim, ordinal_claim, quantity_claim, score_claim,
    time_claim,
};
use super::shapes::{Shape, after_word, shape_at};
use super::text::{at, starts_str};

/// The reference raises on this answer: the caller runs the reference, which raises alike.
#[derive(Debug, PartialEq, Eq)]
pub struct ReferenceRaises;

const OPENERS: &str = " \t\"'\u{201c}\u{2018}(*#>-\u{2022}";

/// `_opens_sentence()`: the word at `position` opens a sentence, a line or a list item.
fn opens_sentence(t: &[char], position: usize, lexicon: &Lexicon) -> bool {
    let mut index = position;
    while index > 0 && super::text::is(t, index - 1, |c| OPENERS.contains(c)) {
        index -= 1;
    }
    let Some(mark) = index.checked_sub(1).and_then(|i| at(t, i)) else {
        return true;
    };
    let index = index - 1;
    if "!?:;\n".contains(mark) {
        return true;
    }
    if mark != '.' {
        return false;
    }
    let floor = index.saturating_sub(12);
    let mut first = index;
    while first > floor && super::text::word(t, first - 1) {
        first -= 1;
    }
    if first == index {
        return true;
    }
    let before: String = t.get(first..index).unwrap_or_default().iter().collect();
    // "Dr. Smith", "J. K. Rowling": a title or an initial does not end a sentence.
    !(holds_lower(&lexicon.titles, &before)
        || (index - first == 1 && crate::chars::is_upper_text(&before)))
}

/// `answer.startswith("**", start - 2)`, with Python's reading of a negative start.
fn bold_before(t: &[char], start: usize) -> bool {
    let from = if start >= 2 {
        start - 2
    } else {
        (t.len() + start).saturating_sub(2)
    };
    starts_str(t, from, "**")
}

struct Pass {
    enclosing: Vec<Claim>,
    claims: Vec<Claim>,
    names: Vec<(Words, bool)>,
}

fn build(t: &[char], start: usize, end: usize, shape: Shape, lexicon: &Lexicon) -> Option<Claim> {
    let raw = t.get(start..end).unwrap_or_default();
    let part = |(from, to): (usize, usize)| t.get(from..to).unwrap_or_default();
    match shape {
        Shape::Url => url_claim(raw, start),
        Shape::Email => Some(email_claim(raw, start)),
        Shape::Iso => iso_date_claim(raw, start, lexicon),
        Shape::Path if domain_head(raw, lexicon) => url_claim(raw, start),
        Shape::Path | Shape::File => path_claim(raw, start),
        Shape::Extension => Some(extension_claim(raw, start)),
        Shape::Domain => Some(domain_claim(raw, start)),
        Shape::Identifier => identifier_claim(raw, start, false),
        Shape::Id => Some(id_claim(raw, start)),
        Shape::MonthDay { month, day } => {
            month_day_claim(raw, start, part(month), part(day), lexicon)
        }
        Shape::Month | Shape::Weekday => Some(named_date_claim(raw, start)),
        Shape::Score => Some(score_claim(raw, start)),
        Shape::Ordinal => ordinal_claim(raw, start, lexicon),
        Shape::Time {
            hour,
            minute,
            meridiem,
        } => time_claim(raw, start, part(hour), minute.map(part), meridiem.map(part)),
        Shape::Quantity {
            number,
            noun,
            digits,
        } => quantity_claim(raw, start, part(number), part(noun), digits, lexicon),
        Shape::Fence | Shape::Enclosed { .. } | Shape::Name => None,
    }
}

fn pass(t: &[char], lexicon: &Lexicon) -> Pass {
    let mut found = Pass {
        enclosing: Vec::new(),
        claims: Vec::new(),
        names: Vec::new(),
    };
    let labels = label_lines(t);
    let mut closing = None; // the closing mark of the last quote, never the opening of another
    let mut start = 0;
    while start < t.len() {
        let Some((end, shape)) = shape_at(t, start, lexicon) else {
            start += 1;
            while start < t.len() && after_word(t, start) {
                start += 1; // no shape starts inside a word
            }
            continue;
        };
        match shape {
            Shape::Enclosed { body_end, tick } => {
                if closing != Some(start) {
                    closing = Some(body_end);
                    let raw = t.get(start..=body_end).unwrap_or_default();
                    let claim = if tick {
                        identifier_claim(raw, start, true)
                    } else {
                        None
                    };
                    found
                        .enclosing
                        .extend(claim.or_else(|| quote_claim(raw, start)));
                }
            }
            Shape::Name => {
                let label = bold_before(t, start)
                    && (starts_str(t, end, ":**") || starts_str(t, end, "**:"));
                let heading = labels
                    .iter()
                    .any(|&(first, last)| first <= start && start < last);
                if !label && !heading {
                    let mut opens = opens_sentence(t, start, lexicon);
                    for run in split_name(name_words(t, start, end), lexicon) {
                        found.names.push((run, opens));
                        opens = false;
                    }
                }
            }
            shape => found.claims.extend(build(t, start, end, shape, lexicon)),
        }
        start = end;
    }
    found
}

/// The claims of `answer` other than figures, in the reference's order: quoted and
/// backticked ones first, then the others by start, names after the others at one start.
///
/// # Errors
/// [`ReferenceRaises`] where the Python reference raises (the caller runs it instead).
pub fn scan_claims(answer: &str, lexicon: &Lexicon) -> Result<Vec<Claim>, ReferenceRaises> {
    scan_hedged(answer, &hedged_spans(answer, lexicon), lexicon)
}

/// [`scan_claims`] with the answer's [`hedged_spans`] already found.
///
/// # Errors
/// [`ReferenceRaises`] where the Python reference raises (the caller runs it instead).
pub fn scan_hedged(
    answer: &str,
    hedged: &[(usize, usize)],
    lexicon: &Lexicon,
) -> Result<Vec<Claim>, ReferenceRaises> {
    let t: Vec<char> = answer.chars().collect();
    let Pass {
        enclosing,
        mut claims,
        names,
    } = pass(&t, lexicon);
    let named: HashSet<String> = names
        .iter()
        .flat_map(|(words, opens)| {
            words
                .iter()
                .enumerate()
                .filter(move |(i, _)| *i > 0 || !opens)
                .map(|(_, (w, _))| clean_word(w).into_owned())
        })
        .collect();
    for (words, opens) in &names {
        claims
            .extend(name_claim(words, *opens, &t, &named, lexicon).map_err(|()| ReferenceRaises)?);
    }
    claims.sort_by_key(|claim| claim.start);
    let mut all = enclosing;
    all.append(&mut claims);
    mark_hedged(&mut all, hedged);
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::scan_claims;
    use crate::claims::lexicon::sample::lexicon;

    fn found(answer: &str) -> Vec<(&'static str, String, String, usize, usize, bool)> {
        let claims = scan_claims(answer, &lexicon()).unwrap_or_default();
        claims
            .into_iter()
            .map(|c| (c.kind, c.raw, c.text, c.start, c.end, c.hedged))
            .collect()
    }

    #[test]
    fn names_keep_their_connectors_and_drop_titles() {
        let claims = found("We met President Ludwig van Beethoven.");
        assert_eq!(
            claims,
            [(
                "name",
                "Ludwig van Beethoven".into(),
                "Ludwig van Beethoven".into(),
                17,
                37,
                false
            )]
        );
    }

    #[test]
    fn offsets_count_code_points_and_hedges_mark_the_sentence() {
        let claims = found("Café: it is likely in src/app/config.ts. Done at 2 pm.");
        assert_eq!(
            claims.first().map(|c| (c.0, c.3, c.5)),
            Some(("path", 22, true))
        );
        assert_eq!(
            claims.get(1).map(|c| (c.0, c.2.as_str(), c.5)),
            Some(("date", "14:00", false))
        );
    }

    #[test]
    fn quotes_come_first_and_small_counts_are_no_claims() {
        let claims = found("The \"best\" two films, five goals on August 8.");
        let kinds: Vec<_> = claims.iter().map(|c| (c.0, c.2.as_str())).collect();
        assert_eq!(
            kinds,
            [
                ("quote", "best"),
                ("quantity", "5 goals"),
                ("date", "08-08")
            ]
        );
    }

    #[test]
    fn a_name_the_reference_raises_on_is_declined() {
        // No word is left but the connector "y" once the suffix goes: the reference raises.
        assert!(scan_claims("Y Inc", &lexicon()).is_err());
        assert!(scan_claims("X Inc", &lexicon()).is_ok());
    }
}
