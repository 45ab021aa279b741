//! The grade of one run, as plain values (`tracegrade.verdicts.grade_observed`).
//!
//! Claims of the question's facts and their support, the provenance of the answer, the
//! answer's figures and (with `auto`) every claim extracted from the answer; the border turns
//! [`GradeValues`] into the dict `Grade.model_validate` takes.

use std::collections::HashSet;

use super::answer_support::{ExtractedClaim, grade_extracted};
use super::figure_sources::{ResultTexts, figure_evidence_in};
use super::observe::{Field, Observations, Sighting, observe};
use super::run::{any_tool_failed, collapse, final_answer, is_blank, reply_status, tool_path};
use super::{Fallback, Trace};
use crate::claims::Lexicon;
use crate::figures::extract::{Extractor, Figure};
use crate::index::Needle;
use crate::lower::lower;

/// A question as grading reads it (`tracegrade.claims.Question`), prepared once for every
/// trace graded against it: each fact's searched forms and the figure it is, the tell's.
pub struct Question {
    pub id: String,
    facts: Vec<Fact>,
    /// Each fact's figure (`figure_of`), or why the core leaves them to the reference.
    figures: Result<Vec<Option<Figure>>, Fallback>,
    truth_file: Option<String>,
    tell: Option<Needle>,
}

/// An expected fact of a question, prepared.
struct Fact {
    id: String,
    text: String,
    needle: Needle,
}

impl Question {
    /// `facts` are `(id, text)` in order.
    pub fn new(
        id: String,
        facts: Vec<(String, String)>,
        truth_file: Option<String>,
        tell: Option<String>,
        extractor: &Extractor,
    ) -> Self {
        let figures: Result<Vec<_>, _> = facts
            .iter()
            .map(|(_, text)| figure_of(text, extractor))
            .collect();
        let facts = facts
            .into_iter()
            .map(|(id, text)| Fact {
                needle: Needle::new(&text),
                id,
                text,
            })
            .collect();
        Self {
            id,
            facts,
            figures: figures.map_err(Fallback::from),
            truth_file,
            tell: tell.as_deref().map(Needle::new),
        }
    }
}

/// One fact's claim, graded (`Grade.claims`).
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimValues {
    pub id: String,
    pub text: String,
    pub in_answer: bool,
    pub support: &'static str,
    pub evidence: Vec<String>,
}

/// One figure of the answer, graded (`Grade.figures`).
#[derive(Debug, Clone, PartialEq)]
pub struct FigureValues {
    pub figure: Figure,
    /// The frame that sources it; `None`: unsourced.
    pub evidence: Option<String>,
}

/// The plain values of a `Grade` (the fields `grade_observed` validates).
#[derive(Debug)]
pub struct GradeValues<'v> {
    pub trace_id: &'v str,
    pub question_id: String,
    pub tools: Vec<&'v str>,
    pub observations: usize,
    pub recorded_outcome: Option<&'v str>,
    pub answer: &'static str,
    pub claims: Vec<ClaimValues>,
    pub unread: Vec<String>,
    pub provenance: &'static str,
    pub truth: Vec<Sighting>,
    pub copies: Vec<Sighting>,
    pub final_answer: String,
    pub figures: Vec<FigureValues>,
    /// With `auto`: every claim extracted from the answer, with its support.
    pub extracted: Vec<ExtractedClaim>,
    pub reply: &'static str,
}

impl From<crate::figures::extract::Fallback> for Fallback {
    fn from(_: crate::figures::extract::Fallback) -> Self {
        Fallback("figure extraction left to the reference")
    }
}

/// `figure_of`: the figure a text is as a whole, else `None`.
fn figure_of(
    text: &str,
    extractor: &Extractor,
) -> Result<Option<Figure>, crate::figures::extract::Fallback> {
    let stripped = text.trim_matches(crate::chars::is_space);
    let mut figures = extractor.figures(stripped)?;
    if figures.len() != 1 {
        return Ok(None);
    }
    Ok(figures.pop().filter(|figure| figure.raw == stripped))
}

/// A fact of the question as a claim (`tracegrade.claims.Claim`).
struct FactClaim<'q> {
    id: &'q str,
    text: &'q str,
    needle: &'q Needle,
    in_answer: bool,
    figure: Option<&'q Figure>,
}

/// `extract_claims`: one claim per fact, in order; `found` is `extract_figures(answer)`.
fn fact_claims<'q>(
    answer: &str,
    found: &[Figure],
    question: &'q Question,
) -> Result<Vec<FactClaim<'q>>, Fallback> {
    if question.facts.is_empty() {
        return Ok(Vec::new());
    }
    let figures = question.figures.as_ref().map_err(Clone::clone)?;
    let lowered = lower(answer);
    let written: HashSet<&str> = found.iter().map(|figure| figure.value.as_str()).collect();
    Ok(question
        .facts
        .iter()
        .zip(figures)
        .map(|(fact, figure)| {
            let written_as_figure = figure
                .as_ref()
                .is_some_and(|figure| written.contains(figure.value.as_str()));
            FactClaim {
                id: &fact.id,
                text: &fact.text,
                needle: &fact.needle,
                in_answer: lowered.contains(fact.needle.lowered()) || written_as_figure,
                figure: figure.as_ref(),
            }
        })
        .collect())
}

/// `support_claim`: read, named-only or unsupported, with the evidence.
fn support_claim(
    claim: &FactClaim<'_>,
    observations: &mut Observations<'_>,
    figure_seen: Option<&String>,
) -> Result<(&'static str, Vec<String>), Fallback> {
    let mut read = observations.find_places(claim.needle, Field::Text)?;
    let by_source = observations.find_places(claim.needle, Field::Source)?;
    if !read.is_empty() || !by_source.is_empty() {
        read.extend(by_source);
        let mut seen = HashSet::new(); // places name ids one for one
        read.retain(|&place| seen.insert(place));
        return Ok(("read", observations.ids(&read)?));
    }
    if let Some(frame) = figure_seen {
        return Ok(("read", vec![frame.clone()]));
    }
    let named = observations.find_ids(claim.needle, Field::Name)?;
    if named.is_empty() {
        Ok(("unsupported", Vec::new()))
    } else {
        Ok(("named-only", named))
    }
}

/// `grade_answer`: the recorder's prose rule.
fn answer_grade(answer: &str, claims: &[FactClaim<'_>], any_failed: bool) -> &'static str {
    if claims.is_empty() {
        return "ungraded";
    }
    if is_blank(answer) {
        return "failure";
    }
    let hits = claims.iter().filter(|claim| claim.in_answer).count();
    if hits == 0 {
        "failure"
    } else if hits < claims.len() || any_failed {
        "partial"
    } else {
        "success"
    }
}

/// `_provenance`: did the run see the true source, a copy of it, both or neither?
fn provenance(
    observations: &mut Observations<'_>,
    question: &Question,
) -> Result<(&'static str, Vec<Sighting>, Vec<Sighting>), Fallback> {
    let (Some(truth_file), Some(tell)) = (&question.truth_file, &question.tell) else {
        return Ok(("ungradable", Vec::new(), Vec::new()));
    };
    let (truth, copies): (Vec<Sighting>, Vec<Sighting>) = observations
        .lines_containing(tell)?
        .into_iter()
        .partition(|sighting| &sighting.file == truth_file);
    let verdict = match (truth.is_empty(), copies.is_empty()) {
        (false, false) => "undecidable",
        (false, true) => "grounded",
        (true, false) => "from-copy",
        (true, true) => "unevidenced",
    };
    Ok((verdict, truth, copies))
}

/// Grade one validated native trace against a question (`grade_observed`); with `auto`,
/// also every claim extracted from the answer.
pub fn grade<'v>(
    trace: &Trace<'v>,
    question: &Question,
    auto: bool,
    extractor: &Extractor,
    lexicon: &Lexicon,
) -> Result<GradeValues<'v>, Fallback> {
    let mut observations = observe(trace)?;
    let answer = final_answer(trace);
    // Once, for the facts, the figures' grade and the extracted claims (the reference
    // extracts them for the facts only when a fact is a figure: either way the same figures).
    let found = extractor.distinct_figures(answer)?;
    let claims = fact_claims(answer, &found, question)?;
    let fact_figures: Vec<Figure> = claims.iter().filter_map(|c| c.figure.cloned()).collect();
    // Both lookups read the same tool results: each is written once.
    let mut texts = ResultTexts::default();
    let mut fact_seen = if fact_figures.is_empty() {
        Vec::new()
    } else {
        figure_evidence_in(trace, &fact_figures, false, extractor, &mut texts)?
    }
    .into_iter();
    let mut graded = Vec::with_capacity(claims.len());
    let mut unread = Vec::new();
    for claim in &claims {
        let seen = if claim.figure.is_some() {
            fact_seen.next().flatten()
        } else {
            None
        };
        let (support, evidence) = support_claim(claim, &mut observations, seen.as_ref())?;
        if claim.in_answer && support != "read" {
            unread.push(claim.id.to_owned());
        }
        graded.push(ClaimValues {
            id: claim.id.to_owned(),
            text: claim.text.to_owned(),
            in_answer: claim.in_answer,
            support,
            evidence,
        });
    }
    let (verdict, truth, copies) = provenance(&mut observations, question)?;
    let seen = if found.is_empty() {
        Vec::new()
    } else {
        figure_evidence_in(trace, &found, true, extractor, &mut texts)?
    };
    let extracted = if auto {
        let figures = (found.as_slice(), seen.as_slice());
        grade_extracted(
            trace,
            answer,
            &mut observations,
            figures,
            extractor,
            lexicon,
        )?
    } else {
        Vec::new()
    };
    let figures = found
        .into_iter()
        .zip(seen)
        .map(|(figure, evidence)| FigureValues { figure, evidence })
        .collect();
    Ok(GradeValues {
        trace_id: trace.id,
        question_id: question.id.clone(),
        tools: tool_path(trace),
        observations: observations.count(),
        recorded_outcome: trace.outcome,
        answer: answer_grade(answer, &claims, any_tool_failed(trace)),
        claims: graded,
        unread,
        provenance: verdict,
        truth,
        copies,
        final_answer: collapse(answer),
        figures,
        extracted,
        reply: reply_status(trace),
    })
}
