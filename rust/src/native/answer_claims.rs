//! The claims of a final answer with no question (`tracegrade.claims.extract_answer_claims`),
//! each marked `given` when the user's own messages said it: the zero-config part of grading.
//! Their support is answer_support.rs.
//!
//! Figures come first (the figure helper owns them), then the scanners' kinds (crate::claims);
//! a claim overlapping one taken before it is dropped, the rest go in answer order, each
//! (kind, text) once. Offsets are code points, as the reference's.

use std::collections::HashSet;

use super::{Fallback, Frame, Trace};
use crate::claims::{self, Claim, Lexicon};
use crate::figures::extract::{Extractor, Figure};
use crate::figures::index::FigureIndex;
use crate::lower::lower;
use crate::words::Word;

/// What the user said in the run (`asked_texts`): the task and every user message, each text
/// once, in order.
pub fn asked_texts<'v>(trace: &Trace<'v>) -> Vec<&'v str> {
    let said = trace.frames.iter().filter_map(|frame| match frame {
        Frame::User { content } => Some(*content),
        _ => None,
    });
    let mut seen = HashSet::new();
    std::iter::once(trace.task)
        .chain(said)
        .filter(|text| seen.insert(*text))
        .collect()
}

/// The figures of the user's own messages (`FigureIndex()` with each asked text added as
/// `asked{position}`), for the answer's figures to be looked up in.
pub fn asked_figures(asked: &[&str], extractor: &Extractor) -> Result<FigureIndex, Fallback> {
    // No bare numbers: an answer's figures are never bare, so they would never be read.
    let mut index = FigureIndex::new(false);
    let echoed = HashSet::new();
    for (position, text) in asked.iter().enumerate() {
        index
            .add(extractor, text, &format!("asked{position}"), &echoed)
            .map_err(|_| Fallback("a user message's figures are left to the reference"))?;
    }
    Ok(index)
}

/// The answer's characters already backing a claim: sorted, disjoint `(start, end)`.
#[derive(Default)]
struct Taken {
    spans: Vec<(usize, usize)>,
}

impl Taken {
    fn overlaps(&self, start: usize, end: usize) -> bool {
        let at = self.spans.partition_point(|&span| span <= (start, end));
        // Disjoint and sorted: only the neighbours on either side can overlap.
        let before = at
            .checked_sub(1)
            .and_then(|i| self.spans.get(i))
            .is_some_and(|&(_, last)| last > start);
        before || self.spans.get(at).is_some_and(|&(first, _)| first < end)
    }

    fn add(&mut self, start: usize, end: usize) {
        if !self.overlaps(start, end) {
            let at = self.spans.partition_point(|&span| span <= (start, end));
            self.spans.insert(at, (start, end));
        }
    }
}

fn figure_claim(figure: &Figure) -> Claim {
    Claim {
        kind: "figure",
        raw: figure.raw.clone(),
        text: figure.value.clone(),
        start: figure.start,
        end: figure.end,
        forms: vec![figure.raw.clone()],
        hedged: false,
        given: false,
    }
}

/// `shown_in(form, texts, lowered)`: whether any text holds `form` as a whole word,
/// case-insensitively (`lowered`: each text's `str.lower()`, the reference's quick test).
pub fn shown_in(form: &str, texts: &[&str], lowered: &[String]) -> bool {
    let form_lower = lower(form);
    let mut word: Option<Word> = None;
    for (text, low) in texts.iter().zip(lowered) {
        if !low.contains(&form_lower) {
            continue;
        }
        if word.get_or_insert_with(|| Word::new(form)).found_in(text) {
            return true;
        }
    }
    false
}

/// `extract_answer_claims(answer, asked=asked, figures=figures)`.
///
/// `figures` are `extract_figures(answer)` (each value once); `asked_figures` builds the
/// index of the asked texts' figures ([`asked_figures`]), called only when the answer has a
/// figure.
pub fn extract_answer_claims(
    answer: &str,
    asked: &[&str],
    figures: &[Figure],
    asked_figures: impl FnOnce() -> Result<FigureIndex, Fallback>,
    lexicon: &Lexicon,
) -> Result<Vec<Claim>, Fallback> {
    let mut found: Vec<Claim> = figures.iter().map(figure_claim).collect();
    // Figures guess too ("most likely 45 days"): one hedge rule for every kind.
    let hedged = claims::hedged_spans(answer, lexicon);
    claims::mark_hedged(&mut found, &hedged);
    let mut taken = Taken::default();
    for claim in &found {
        taken.add(claim.start, claim.end); // a range's two ends share one span
    }
    let scanned = claims::scan_hedged(answer, &hedged, lexicon)
        .map_err(|claims::ReferenceRaises| Fallback("the reference raises on this answer"))?;
    for claim in scanned {
        if !taken.overlaps(claim.start, claim.end) {
            taken.add(claim.start, claim.end);
            found.push(claim.with_unicode_forms());
        }
    }
    found.sort_by_key(|claim| (claim.start, claim.end));
    let mut seen: HashSet<(&'static str, String)> = HashSet::new();
    let mut unique = found;
    unique.retain(|claim| seen.insert((claim.kind, claim.text.clone())));
    if asked.is_empty() {
        return Ok(unique);
    }
    let index = if figures.is_empty() {
        FigureIndex::new(false) // the index is only asked about the answer's figures
    } else {
        asked_figures()?
    };
    let lowered: Vec<String> = asked.iter().map(|text| lower(text)).collect();
    for claim in &mut unique {
        claim.given = if claim.kind == "figure" {
            figures
                .iter()
                .find(|f| {
                    (f.start, f.end, f.value.as_str()) == (claim.start, claim.end, &claim.text)
                })
                .is_some_and(|figure| index.evidence_for(figure, false).is_some())
        } else {
            claim
                .forms
                .iter()
                .any(|form| shown_in(form, asked, &lowered))
        };
    }
    Ok(unique)
}

#[cfg(test)]
mod tests;
