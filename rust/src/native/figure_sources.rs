//! The figures' evidence over a trace's frames (`tracegrade.figures.FigureSources` with
//! `anchor_pattern`, `FigureIndex` and `amount_values`).
//!
//! The evidence policy is the reference's: human messages (when asked for) and tool results
//! are sources, assistant prose and call arguments never are; a failed result vouches only
//! for what its call's arguments did not say. Only the text around an anchor of the looked-up
//! figures is read (anchors.rs), unless a figure has none (a hedged one): then every source
//! is read whole. A tool result's structured values source money (structured.rs). A result
//! whose text cannot hold an anchor is not written at all (written.rs); a result written
//! alike to an earlier one (a page fetched twice) shares its text and windows, written and
//! scanned once per trace ([`ResultTexts`]), and a window read again is looked up, not
//! extracted again. Once every figure has a frame of its own key, a later frame is read only
//! when it could make the reference raise (settled.rs).

mod anchors;
mod settled;
pub mod structured;
mod texts;
mod written;

use std::collections::{HashMap, HashSet};

pub use anchors::{Anchors, anchor_pattern};
pub use structured::{amount_values, key_names_money};
pub use texts::ResultTexts;

use super::{Fallback, Frame, Trace, Value, json};
use crate::figures::extract::{self, Extractor, Figure};
use crate::figures::index::{FigureIndex, Found, echoed};

fn declined(_: extract::Fallback) -> Fallback {
    Fallback("figure extraction left a source text to the reference")
}

/// For each figure, the first frame (`f4`) that sources it, or `None` when none does.
///
/// As the reference's `FigureSources(lines_matching=anchor_pattern(figures),
/// bare_numbers=False, humans=humans).extend(trace.frames).index.evidence_for(figure)`.
pub fn figure_evidence(
    trace: &Trace<'_>,
    figures: &[Figure],
    humans: bool,
    extractor: &Extractor,
) -> Result<Vec<Option<String>>, Fallback> {
    figure_evidence_in(
        trace,
        figures,
        humans,
        extractor,
        &mut ResultTexts::default(),
    )
}

/// [`figure_evidence`] with the result texts of earlier lookups in the same trace.
pub fn figure_evidence_in<'v>(
    trace: &Trace<'v>,
    figures: &[Figure],
    humans: bool,
    extractor: &Extractor,
    texts: &mut ResultTexts<'v>,
) -> Result<Vec<Option<String>>, Fallback> {
    if figures.is_empty() {
        return Ok(Vec::new()); // nothing to look up: no source need be read
    }
    let anchors = Anchors::kept(figures, extractor.tables())
        .map_err(|_| Fallback("an anchor pattern the matcher does not run"))?;
    let mut sources = Sources {
        extractor,
        anchors: anchors.as_deref(),
        humans,
        args: HashMap::new(),
        index: FigureIndex::new(false),
        read: HashMap::new(),
        windows: HashMap::new(),
    };
    let mut settled = false; // every figure has a frame of its own key (settled.rs)
    for (position, frame) in trace.frames.iter().enumerate() {
        let echoed = match *frame {
            Frame::ToolResult { id, ok: false, .. } => sources.args.get(id).copied().flatten(),
            _ => None,
        };
        if settled && !settled::may_raise_in(frame, humans, echoed) {
            continue; // it would change no answer
        }
        sources.add(frame, position, texts)?;
        settled = settled
            || figures
                .iter()
                .all(|figure| sources.index.has_key(&figure.value));
    }
    Ok(figures
        .iter()
        .map(|figure| sources.index.evidence_for(figure, false).map(str::to_owned))
        .collect())
}

/// `FigureSources` without a system frame (native version 1 has none) and trusting every
/// tool's ok results (its default `results_of`).
struct Sources<'a, 'v> {
    extractor: &'a Extractor,
    anchors: Option<&'a Anchors>,
    humans: bool,
    /// The arguments of each call by id (the last call of an id wins, as a dict keeps it).
    args: HashMap<&'v str, Option<Value<'v>>>,
    index: FigureIndex,
    /// What each text read so far holds: an agent often reads one result again (a page
    /// fetched twice), and its windows are then the same texts.
    read: HashMap<String, Found>,
    /// The windows of each distinct result text ([`ResultTexts`]) found so far.
    windows: HashMap<usize, Vec<(usize, usize)>>,
}

impl<'v> Sources<'_, 'v> {
    /// `FigureSources.add` of the frame at `position` (its evidence is `f{position}`).
    fn add(
        &mut self,
        frame: &Frame<'v>,
        position: usize,
        texts: &mut ResultTexts<'v>,
    ) -> Result<(), Fallback> {
        match *frame {
            Frame::User { content } if self.humans => {
                let spans = self.anchors.map(|anchors| spans(anchors, content));
                let spans = spans.transpose()?;
                if spans.as_ref().is_some_and(Vec::is_empty) {
                    return Ok(());
                }
                let keys = echoed(self.extractor, None).map_err(declined)?;
                self.read_spans(content, spans, &format!("f{position}"), &keys)
            }
            Frame::ToolCall { id, args, .. } => {
                self.args.insert(id, args);
                Ok(())
            }
            Frame::ToolResult { id, ok, result } => {
                let index = texts.index(position, result);
                let spans = match self.anchors {
                    None => None,
                    Some(anchors) => Some(match self.windows.get(&index) {
                        Some(known) => known.clone(),
                        None => {
                            let unwritten = result.filter(|value| value.as_str().is_none());
                            let found = if unwritten
                                .is_some_and(|value| !written::may_hold_anchor(anchors, value))
                            {
                                Vec::new() // no window, as below: the text is not written
                            } else {
                                spans(anchors, texts.text(index)?)?
                            };
                            self.windows.insert(index, found.clone());
                            found
                        }
                    }),
                };
                if spans.as_ref().is_some_and(Vec::is_empty) {
                    return Ok(()); // a structured value writes its digits too: nothing to find
                }
                // The arguments' keys, worked out only when some text is indexed (as the
                // reference).
                let keys = match (!ok).then(|| self.args.get(id).copied().flatten()) {
                    Some(args) => echoed(self.extractor, Some(&json::result_text(args)?)),
                    None => echoed(self.extractor, None),
                }
                .map_err(declined)?;
                let evidence = format!("f{position}");
                self.read_spans(texts.text(index)?, spans, &evidence, &keys)?;
                let amounts = texts.amounts(index)?.iter().cloned();
                self.index
                    .add_values(amounts, &evidence, &keys)
                    .map_err(declined)
            }
            _ => Ok(()),
        }
    }

    /// Read `text` whole, or the windows `spans` of it.
    fn read_spans(
        &mut self,
        text: &str,
        spans: Option<Vec<(usize, usize)>>,
        evidence: &str,
        keys: &HashSet<String>,
    ) -> Result<(), Fallback> {
        match spans {
            None => self.read(text, evidence, keys),
            Some(spans) => spans.into_iter().try_for_each(|(start, end)| {
                self.read(text.get(start..end).unwrap_or(""), evidence, keys)
            }),
        }
    }

    /// `FigureIndex.add(text)`, each distinct text's figures worked out once.
    fn read(&mut self, text: &str, evidence: &str, keys: &HashSet<String>) -> Result<(), Fallback> {
        if let Some(found) = self.read.get(text) {
            self.index.add_found(found, evidence, keys);
            return Ok(());
        }
        // As FigureIndex::add (numbers are never kept here: no bare figures).
        let found = Found::of(self.extractor, text, false).map_err(declined)?;
        self.index.add_found(&found, evidence, keys);
        self.read.insert(text.to_owned(), found);
        Ok(())
    }
}

/// The windows of `text` around the anchors.
fn spans(anchors: &Anchors, text: &str) -> Result<Vec<(usize, usize)>, Fallback> {
    anchors
        .windows(text)
        .map_err(|_| Fallback("an anchor match nested too deep"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap (Cargo.toml)
mod tests {
    use super::key_names_money;
    use super::{Fallback, Frame, ResultTexts, Trace, Value, amount_values, anchor_pattern, json};
    use super::{figure_evidence, figure_evidence_in};
    use crate::figures::testing::extractor;

    fn value(text: &str) -> Value<'static> {
        json::leaked(text, false)
    }

    /// `figure_evidence` of `answer`'s figures over a trace of `frames` (settled.rs's tests too).
    pub(super) fn evidence_over(
        frames: Vec<Frame<'_>>,
        answer: &str,
        humans: bool,
    ) -> Result<Vec<Option<String>>, Fallback> {
        let ex = extractor();
        let trace = Trace {
            id: "t",
            task: "task",
            outcome: None,
            frames,
        };
        let figures = ex.figures(answer).unwrap();
        figure_evidence(&trace, &figures, humans, &ex)
    }

    fn evidence(frames: Vec<Frame<'_>>, answer: &str, humans: bool) -> Vec<Option<String>> {
        evidence_over(frames, answer, humans).unwrap()
    }

    fn parts(pattern: &str) -> Vec<String> {
        let mut parts: Vec<String> = pattern.split('|').map(str::to_owned).collect();
        parts.sort();
        parts
    }

    #[test]
    fn anchors_are_the_references() {
        let ex = extractor();
        let cases = [
            ("$1.5 million and 30 days", r"\bthirty\b|3[,.]?0|1[,.]?5"),
            (
                "12.5% in 2016",
                r"[-\u2013\u2014]\s*16|2[,.]?0[,.]?1[,.]?6|1[,.]?2[,.]?5",
            ),
            ("Section 8.10", "8[,.]?1[,.]?0"),
            ("$0", r"\bzero\b|0"),
            (
                "$20,000 and fifth consecutive year",
                r"\btwentieth\b|\btwenty\b|\bfifth\b|\bfive\b|5|2",
            ),
        ];
        for (text, expected) in cases {
            let figures = ex.figures(text).unwrap();
            let pattern = anchor_pattern(&figures, ex.tables()).unwrap();
            assert_eq!(parts(&pattern), parts(expected), "{text}");
            let lengths: Vec<usize> = pattern.split('|').map(str::len).collect();
            assert!(lengths.is_sorted_by(|a, b| a >= b), "{pattern}");
        }
        let hedged = ex.figures("about $3 million").unwrap();
        assert_eq!(anchor_pattern(&hedged, ex.tables()), None);
    }

    #[test]
    fn structured_values_as_the_reference() {
        let result = value(
            r#""{\"prices\": {\"economy\": 122, \"seats\": 5}, \"total_baggages\": 3, \"amountPaid\": \"1,500.50\", \"x\": [1e20, 0.1]}""#,
        );
        let mut found = amount_values(Some(result)).unwrap();
        found.sort();
        assert_eq!(found, ["122", "1500.5"]);
        let keys = [
            "priceUSD",
            "HTTPStatus",
            "price_per_night",
            "total_baggages",
            "economy",
            "last4",
            "ABCdef",
        ];
        let says: Vec<Option<bool>> = keys.into_iter().map(key_names_money).collect();
        assert_eq!(
            says,
            [
                Some(true),
                Some(false),
                Some(true),
                Some(false),
                None,
                None,
                None
            ]
        );
        // A calculator's bare number, a float repr, prose led by a bracket.
        assert_eq!(amount_values(Some(value("255.0"))).unwrap(), ["255"]);
        assert_eq!(amount_values(Some(value("1e-05"))).unwrap(), ["0.00001"]);
        assert_eq!(
            amount_values(Some(value("1e16"))).unwrap(),
            ["10000000000000000"]
        );
        // repr(940191251759288.25) is '940191251759288.2': ties to even.
        let tie = value("940191251759288.25");
        assert_eq!(amount_values(Some(tie)).unwrap(), ["940191251759288.2"]);
        assert_eq!(amount_values(Some(value("-466.750"))).unwrap(), ["466.75"]);
        assert_eq!(
            amount_values(Some(value("\" -1,500 \""))).unwrap(),
            ["1500"]
        );
        assert!(
            amount_values(Some(value(r#""[1] see above""#)))
                .unwrap()
                .is_empty()
        );
        assert!(amount_values(Some(value("true"))).unwrap().is_empty());
        assert!(amount_values(None).unwrap().is_empty());
        let repeated = value(r#""{\"price\": 1, \"price\": 2}""#);
        // A repeated key is the reference's to read (a dict keeps the last value).
        assert!(amount_values(Some(repeated)).is_err());
    }

    #[test]
    fn failed_results_vouch_only_for_what_the_call_did_not_say() {
        let args = value(r#"{"paid": "$304"}"#);
        let said = value(r#""Error: total is $608, you paid $304""#);
        let frames = vec![
            Frame::User {
                content: "I was charged $1,250 on 2024-03-01.",
            },
            Frame::ToolCall {
                id: "c1",
                name: "refund",
                args: Some(args),
            },
            Frame::ToolResult {
                id: "c1",
                ok: false,
                result: Some(said),
            },
        ];
        let answer = "You paid $304 of $608; you were charged $1,250.";
        assert_eq!(
            evidence(frames, answer, true),
            [None, Some("f2".to_owned()), Some("f0".to_owned())]
        );
    }

    #[test]
    fn texts_written_once_serve_every_lookup() {
        let ex = extractor();
        let first = value(r#"{"note": "the fee is 1,500 dollars", "price": 466.75}"#);
        let second = value(r#"["no figure", {"total": 1500}]"#);
        let again = value(r#"{"note": "the fee is 1,500 dollars", "price": 466.75}"#);
        let reordered = value(r#"{"price": 466.75, "note": "the fee is 1,500 dollars"}"#);
        let trace = Trace {
            id: "t",
            task: "task",
            outcome: None,
            frames: vec![
                Frame::User {
                    content: "The fee is $1,500?",
                },
                Frame::ToolResult {
                    id: "a",
                    ok: true,
                    result: Some(first),
                },
                Frame::ToolResult {
                    id: "b",
                    ok: true,
                    result: Some(second),
                },
                Frame::ToolResult {
                    id: "c",
                    ok: true,
                    result: Some(again),
                },
                Frame::ToolResult {
                    id: "d",
                    ok: false,
                    result: Some(reordered),
                },
            ],
        };
        let mut texts = ResultTexts::default();
        // In turn with one store of texts, as a grade looks up its facts then its answer.
        for (answer, humans) in [
            ("$466.75", false),
            ("$1,500 and $466.75", true),
            ("$1,500", false),
        ] {
            let figures = ex.figures(answer).unwrap();
            let alone = figure_evidence(&trace, &figures, humans, &ex).unwrap();
            let shared = figure_evidence_in(&trace, &figures, humans, &ex, &mut texts).unwrap();
            assert_eq!(shared, alone, "{answer}");
            assert!(alone.iter().all(Option::is_some), "{answer}: {alone:?}");
        }
        // The page read again is not written again; the same members in another order are.
        assert_eq!(texts.distinct.len(), 3, "each distinct result written once");
        assert!(
            texts
                .distinct
                .iter()
                .all(|distinct| distinct.text.is_some())
        );
        assert_eq!(texts.by_frame.iter().flatten().count(), 4);
    }

    #[test]
    fn humans_windows_and_structured_money() {
        let price = value(r#"{"flight": {"price": 466.75, "seats": 9}, "note": "x"}"#);
        let long = format!(
            "\"{} the fee is 1,500,000 dollars {}\"",
            "word ".repeat(40),
            "tail ".repeat(40)
        );
        let long = value(&long);
        let frames = || {
            vec![
                Frame::User {
                    content: "My budget is $2,000.",
                },
                Frame::Assistant {
                    content: "The fee is $9,999.",
                },
                Frame::ToolResult {
                    id: "a",
                    ok: true,
                    result: Some(price),
                },
                Frame::ToolResult {
                    id: "b",
                    ok: true,
                    result: Some(long),
                },
            ]
        };
        let answer = "It costs $466.75, the fee $1.5 million, budget $2,000, not $9,999.";
        assert_eq!(
            evidence(frames(), answer, true),
            [
                Some("f2".to_owned()),
                Some("f3".to_owned()),
                Some("f0".to_owned()),
                None
            ]
        );
        assert_eq!(
            evidence(frames(), answer, false),
            [Some("f2".to_owned()), Some("f3".to_owned()), None, None]
        );
        // A hedged figure reads every source whole.
        assert_eq!(
            evidence(frames(), "about $470 or about $1.5 million", false),
            [Some("f2".to_owned()), Some("f3".to_owned())]
        );
    }
}
