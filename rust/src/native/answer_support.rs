//! Was each claim extracted from the answer read, named, or never shown?
//! (`tracegrade.support.support_answer_claims`, and `grade_extracted`'s plain values.)
//!
//! A claim is shown by any of its forms found as a whole word in a line a tool returned or
//! that line's source (`read`), else only in a name (`named-only`); figures by the evidence
//! the graded figures found for them, by `(start, end, value)`.

use std::collections::{HashMap, HashSet};

use super::answer_claims::{asked_figures, asked_texts, extract_answer_claims};
use super::observe::{Field, Observations, Place};
use super::{Fallback, Trace};
use crate::claims::{Claim, Lexicon};
use crate::figures::extract::{Extractor, Figure};
use crate::index::Forms;

/// One entry of a grade's `extracted` list: the claim's plain values with its support.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractedClaim {
    pub kind: &'static str,
    pub raw: String,
    pub text: String,
    pub start: usize,
    pub end: usize,
    pub given: bool,
    pub hedged: bool,
    /// `read`, `named-only` or `unsupported`.
    pub support: &'static str,
    /// Observation ids (`f4.2`), or for a figure the frame that showed it; empty when
    /// unsupported.
    pub evidence: Vec<String>,
}

/// The evidence the graded figures found, by `(start, end, value)` (empty: unsourced).
pub type FigureEvidence = HashMap<(usize, usize, String), Vec<String>>;

/// Every form of the worded claims, each once, in claim order, and each claim's forms as
/// numbers into that list (one lookup per form written; a repeat keeps its number).
struct FormTable<'c> {
    forms: Vec<&'c str>,
    of_claim: Vec<Vec<usize>>,
}

impl<'c> FormTable<'c> {
    fn new(claims: &[&'c Claim]) -> Self {
        let mut number: HashMap<&str, usize> = HashMap::new();
        let mut forms = Vec::new();
        let of_claim = claims
            .iter()
            .map(|claim| {
                claim
                    .forms
                    .iter()
                    .map(|form| {
                        *number.entry(form.as_str()).or_insert_with(|| {
                            forms.push(form.as_str());
                            forms.len() - 1
                        })
                    })
                    .collect()
            })
            .collect();
        Self { forms, of_claim }
    }
}

/// Per form, the places of the observations showing it in any of `fields`, field by field.
fn places_by_form(
    observations: &mut Observations<'_>,
    forms: &Forms<'_>,
    fields: &[Field],
) -> Result<Vec<Vec<Place>>, Fallback> {
    let mut found = vec![Vec::new(); forms.len()];
    if forms.is_empty() {
        return Ok(found); // no form: no index to build
    }
    for &field in fields {
        let places = observations.find_word_places(forms, field)?;
        if places.len() != forms.len() {
            return Err(Fallback("the word search answered for other forms"));
        }
        for (all, places) in found.iter_mut().zip(places) {
            all.extend(places);
        }
    }
    Ok(found)
}

/// The places showing any of a claim's forms, each once, in form order (ids name places
/// one for one, so this is the reference's order of distinct ids).
fn shown(forms: &[usize], places: &[Vec<Place>]) -> Vec<Place> {
    let mut seen = HashSet::new();
    forms
        .iter()
        .filter_map(|&form| places.get(form))
        .flatten()
        .filter(|&&place| seen.insert(place))
        .copied()
        .collect()
}

/// `support_answer_claims(claims, observations, figure_evidence)` as `grade_extracted`
/// writes each: every claim's support, in claim order.
pub fn support_answer_claims(
    claims: &[Claim],
    observations: &mut Observations<'_>,
    figure_evidence: &FigureEvidence,
) -> Result<Vec<ExtractedClaim>, Fallback> {
    let worded: Vec<&Claim> = claims.iter().filter(|c| c.kind != "figure").collect();
    let table = FormTable::new(&worded);
    // Every form prepared once and searched once per field; names only for the forms of
    // the claims no line shows.
    let prepared = Forms::new(&table.forms);
    let read_places = places_by_form(observations, &prepared, &[Field::Text, Field::Source])?;
    let read: Vec<Vec<Place>> = table
        .of_claim
        .iter()
        .map(|forms| shown(forms, &read_places))
        .collect();
    let mut unread: Vec<usize> = Vec::new(); // form numbers, each once, in claim order
    let mut taken = vec![false; table.forms.len()];
    for (forms, _) in table
        .of_claim
        .iter()
        .zip(&read)
        .filter(|(_, p)| p.is_empty())
    {
        for &form in forms {
            if let Some(seen @ false) = taken.get_mut(form) {
                *seen = true;
                unread.push(form);
            }
        }
    }
    let found_named = places_by_form(observations, &prepared.subset(&unread), &[Field::Name])?;
    let mut named_places = vec![Vec::new(); table.forms.len()];
    for (&form, places) in unread.iter().zip(found_named) {
        if let Some(slot) = named_places.get_mut(form) {
            *slot = places;
        }
    }
    let mut read = read.into_iter().zip(&table.of_claim); // in the order of `worded`
    let mut supported = Vec::with_capacity(claims.len());
    for claim in claims {
        let (support, evidence) = if claim.kind == "figure" {
            let key = (claim.start, claim.end, claim.text.clone());
            let seen = figure_evidence.get(&key).cloned().unwrap_or_default();
            (
                if seen.is_empty() {
                    "unsupported"
                } else {
                    "read"
                },
                seen,
            )
        } else {
            let (places, forms) = read.next().ok_or(Fallback("a claim without its forms"))?;
            if !places.is_empty() {
                ("read", observations.ids(&places)?)
            } else {
                let named = shown(forms, &named_places);
                if named.is_empty() {
                    ("unsupported", Vec::new())
                } else {
                    ("named-only", observations.ids(&named)?)
                }
            }
        };
        supported.push(ExtractedClaim {
            kind: claim.kind,
            raw: claim.raw.clone(),
            text: claim.text.clone(),
            start: claim.start,
            end: claim.end,
            given: claim.given,
            hedged: claim.hedged,
            support,
            evidence,
        });
    }
    Ok(supported)
}

/// `grade_extracted(trace, observations, figures, found=figures)`: every claim of `answer`
/// (the trace's final answer) with its support, as a grade's `extracted` list holds them.
///
/// `figures` are `extract_figures(answer)`; `evidence` is what the figures' grade found for
/// each (`figure_sources::figure_evidence(trace, figures, true, extractor)`, in order).
pub fn grade_extracted(
    trace: &Trace<'_>,
    answer: &str,
    observations: &mut Observations<'_>,
    (figures, evidence): (&[Figure], &[Option<String>]),
    extractor: &Extractor,
    lexicon: &Lexicon,
) -> Result<Vec<ExtractedClaim>, Fallback> {
    let asked = asked_texts(trace);
    let index = || asked_figures(&asked, extractor);
    let claims = extract_answer_claims(answer, &asked, figures, index, lexicon)?;
    if claims.is_empty() {
        return Ok(Vec::new());
    }
    if figures.len() != evidence.len() {
        return Err(Fallback("figure evidence for other figures"));
    }
    let by_place: FigureEvidence = figures
        .iter()
        .zip(evidence)
        .map(|(figure, seen)| {
            let key = (figure.start, figure.end, figure.value.clone());
            (key, seen.iter().cloned().collect())
        })
        .collect();
    support_answer_claims(&claims, observations, &by_place)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap (Cargo.toml)
mod tests;
