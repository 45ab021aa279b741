use super::{ExtractedClaim, FigureEvidence, FindWords, support_answer_claims};
use crate::native::Fallback;
use crate::native::answer_claims::AnswerClaim;
use crate::native::observe::Field;

/// Observations as (id, text, source, name): whole words by ASCII lower case, enough here.
struct Seen(
    Vec<(&'static str, &'static str, &'static str, &'static str)>,
    Vec<Field>,
);

impl FindWords for Seen {
    fn find_word_ids(
        &mut self,
        forms: &[&str],
        field: Field,
    ) -> Result<Vec<Vec<String>>, Fallback> {
        self.1.push(field);
        let word = |form: &str, text: &str| crate::words::Word::new(form).found_in(text);
        Ok(forms
            .iter()
            .map(|form| {
                self.0
                    .iter()
                    .filter(|(_, text, source, name)| match field {
                        Field::Text => word(form, text),
                        Field::Source => word(form, source),
                        Field::Name => word(form, name),
                    })
                    .map(|(id, ..)| (*id).to_owned())
                    .collect()
            })
            .collect())
    }
}

fn claim(kind: &'static str, text: &str, start: usize, forms: &[&str]) -> AnswerClaim {
    AnswerClaim {
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

fn support(found: &[ExtractedClaim]) -> Vec<(&str, &str, Vec<String>)> {
    found
        .iter()
        .map(|c| (c.text.as_str(), c.support, c.evidence.clone()))
        .collect()
}

#[test]
fn read_then_named_then_unsupported_and_figures_by_their_evidence() {
    let mut seen = Seen(
        vec![
            ("f2.1", "listing", "", "config.ts"),
            ("f4.1", "port = 8080 in config.ts", "app/config.ts", ""),
            ("f4.2", "the PORT again", "app/other.ts", ""),
        ],
        Vec::new(),
    );
    let claims = [
        claim("identifier", "port", 0, &["port", "PORT"]),
        claim("path", "README.md", 10, &["README.md"]),
        claim("path", "config.ts", 20, &["config.ts"]),
        claim("figure", "8080", 30, &["8080"]),
        claim("figure", "9090", 40, &["9090"]),
    ];
    let mut evidence = FigureEvidence::new();
    evidence.insert((30, 34, "8080".into()), vec!["f4".into()]);
    let found = support_answer_claims(&claims, &mut seen, &evidence).unwrap_or_default();
    let ids = |ids: &[&str]| ids.iter().map(|i| (*i).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        support(&found),
        [
            ("port", "read", ids(&["f4.1", "f4.2"])),
            ("README.md", "unsupported", ids(&[])),
            ("config.ts", "read", ids(&["f4.1"])),
            ("8080", "read", ids(&["f4"])),
            ("9090", "unsupported", ids(&[])),
        ]
    );
    // Text and source once for every form, names once for the unread ones.
    assert_eq!(seen.1, [Field::Text, Field::Source, Field::Name]);
}

#[test]
fn a_name_only_listing_is_named_only() {
    let mut seen = Seen(vec![("f2.1", "", "", "notes.md")], Vec::new());
    let claims = [claim("path", "notes.md", 0, &["notes.md"])];
    let found = support_answer_claims(&claims, &mut seen, &FigureEvidence::new());
    let found = found.unwrap_or_default();
    assert_eq!(
        support(&found),
        [("notes.md", "named-only", vec!["f2.1".to_owned()])]
    );
}

#[test]
fn no_worded_claim_searches_nothing() {
    let mut seen = Seen(Vec::new(), Vec::new());
    let claims = [claim("figure", "2024", 0, &["2024"])];
    let found = support_answer_claims(&claims, &mut seen, &FigureEvidence::new());
    assert_eq!(found.map(|f| f.len()), Ok(1));
    assert!(seen.1.is_empty());
}
