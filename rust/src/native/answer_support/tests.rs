use super::{ExtractedClaim, FigureEvidence, grade_extracted, support_answer_claims};
use crate::claims::Claim;
use crate::claims::sample::lexicon;
use crate::figures::testing::extractor;
use crate::native::figure_sources::figure_evidence;
use crate::native::json::parse;
use crate::native::observe::observe;
use crate::native::trace::validate;

/// A native trace: the user asks `task`, then one call and result per result in turn.
fn trace_json(task: &str, results: &[&str]) -> String {
    let frames: Vec<String> = results
        .iter()
        .enumerate()
        .map(|(n, result)| {
            format!(
                r#"{{"type": "tool_call", "id": "c{n}", "name": "tool", "args": {{}}}},
                   {{"type": "tool_result", "id": "c{n}", "ok": true, "result": {result}}}"#
            )
        })
        .collect();
    format!(
        r#"{{"id": "t", "task": {task:?}, "commit": null, "model": null, "outcome": null,
            "tokens": [], "frames": [{{"type": "user", "content": {task:?}}}, {}]}}"#,
        frames.join(", ")
    )
}

const LISTING: &str = r#"{"ok": true, "files": ["notes.md", "app/config.ts"]}"#;
const READ: &str =
    r#"{"ok": true, "file": "app/config.ts", "lines": 2, "content": "port = 8080\nPORT again"}"#;

fn claim(kind: &'static str, text: &str, start: usize, forms: &[&str]) -> Claim {
    Claim {
        kind,
        raw: text.into(),
        text: text.into(),
        start,
        end: start + text.len(),
        forms: forms.iter().map(|f| (*f).to_owned()).collect(),
        hedged: false,
        given: false,
    }
}

fn support(found: &[ExtractedClaim]) -> Vec<(&str, &str, Vec<&str>)> {
    found
        .iter()
        .map(|c| {
            let ids = c.evidence.iter().map(String::as_str).collect();
            (c.text.as_str(), c.support, ids)
        })
        .collect()
}

#[test]
fn read_then_named_then_unsupported_and_figures_by_their_evidence() {
    let json = trace_json("go", &[LISTING, READ]);
    let value = parse(json.as_bytes()).unwrap();
    let trace = validate(&value).unwrap();
    let mut observations = observe(&trace).unwrap();
    let claims = [
        claim("identifier", "port", 0, &["port", "PORT"]),
        claim("path", "README.md", 10, &["README.md"]),
        claim("path", "notes.md", 20, &["notes.md"]),
        claim("path", "config.ts", 30, &["app/config.ts", "config.ts"]),
        claim("figure", "8080", 40, &["8080"]),
        claim("figure", "9090", 50, &["9090"]),
    ];
    let mut evidence = FigureEvidence::new();
    evidence.insert((40, 44, "8080".into()), vec!["f4".into()]);
    let found = support_answer_claims(&claims, &mut observations, &evidence).unwrap();
    assert_eq!(
        support(&found),
        [
            ("port", "read", vec!["f4.1", "f4.2"]),
            ("README.md", "unsupported", vec![]),
            ("notes.md", "named-only", vec!["f2.1"]),
            // The document's name (its source) shows it as read, the listing is not needed.
            ("config.ts", "read", vec!["f4.1"]),
            ("8080", "read", vec!["f4"]),
            ("9090", "unsupported", vec![]),
        ]
    );
}

#[test]
fn evidence_is_each_observation_once_in_form_order_over_repeated_forms() {
    let json = trace_json("go", &[LISTING, READ]);
    let value = parse(json.as_bytes()).unwrap();
    let trace = validate(&value).unwrap();
    let mut observations = observe(&trace).unwrap();
    let claims = [
        // A repeated form, one line shown by two forms, the document by its name last.
        claim(
            "identifier",
            "again",
            0,
            &["again", "PORT", "again", "app/config.ts"],
        ),
        // A prefix of a shown word is not shown (nor is the name "app/config.ts" by "app/c").
        claim("identifier", "por", 10, &["por", "app/c"]),
    ];
    let found = support_answer_claims(&claims, &mut observations, &FigureEvidence::new());
    assert_eq!(
        support(&found.unwrap()),
        [
            ("again", "read", vec!["f4.2", "f4.1"]),
            ("por", "unsupported", vec![]),
        ]
    );
}

#[test]
fn no_worded_claim_builds_no_index() {
    let json = trace_json("go", &[LISTING]);
    let value = parse(json.as_bytes()).unwrap();
    let trace = validate(&value).unwrap();
    let mut observations = observe(&trace).unwrap();
    let claims = [claim("figure", "2024", 0, &["2024"])];
    let found = support_answer_claims(&claims, &mut observations, &FigureEvidence::new());
    assert_eq!(found.map(|f| f.len()), Ok(1));
    assert!(!observations.has_source_index() && !observations.has_name_index());
}

#[test]
fn graded_from_a_trace_with_given_claims_and_figure_evidence() {
    let json = trace_json("Is app/config.ts on port 8080?", &[LISTING, READ]);
    let value = parse(json.as_bytes()).unwrap();
    let trace = validate(&value).unwrap();
    let mut observations = observe(&trace).unwrap();
    let extractor = extractor();
    let answer = "Yes: app/config.ts sets port 8080, and notes.md has 2,500 more.";
    let figures = extractor.distinct_figures(answer).unwrap();
    let evidence = figure_evidence(&trace, &figures, true, &extractor).unwrap();
    let found = grade_extracted(
        &trace,
        answer,
        &mut observations,
        (&figures, &evidence),
        &extractor,
        &lexicon(),
    )
    .unwrap();
    let seen: Vec<_> = found
        .iter()
        .map(|c| (c.kind, c.raw.as_str(), c.given, c.support))
        .collect();
    assert_eq!(
        seen,
        [
            ("path", "app/config.ts", true, "read"),
            ("figure", "8080", true, "read"),
            ("path", "notes.md", false, "named-only"),
            ("figure", "2,500", false, "unsupported"),
        ]
    );
}
