use super::{asked_figures, extract_answer_claims, shown_in};
use crate::claims::sample::lexicon;
use crate::figures::extract::Figure;
use crate::figures::index::FigureIndex;
use crate::figures::testing::extractor;

/// `(kind, text, start, end, hedged, given)` of each claim.
type Seen = Vec<(&'static str, String, usize, usize, bool, bool)>;

/// `extract_figures(answer)`: each value once.
fn figures_of(answer: &str) -> Vec<Figure> {
    extractor().distinct_figures(answer).unwrap_or_default()
}

fn claims(answer: &str, asked: &[&str]) -> Seen {
    let extractor = extractor();
    let index = || asked_figures(asked, &extractor);
    let found = extract_answer_claims(answer, asked, &figures_of(answer), index, &lexicon());
    found
        .unwrap_or_default()
        .into_iter()
        .map(|c| (c.kind, c.text, c.start, c.end, c.hedged, c.given))
        .collect()
}

#[test]
fn figures_win_over_what_they_overlap_and_order_is_by_place() {
    // "2024-03-03" is an ISO date to the scanner, "2024" a figure: the figure is taken first;
    // the second path is the first one again.
    let found = claims("See src/app.py on 2024-03-03, and src/app.py again.", &[]);
    assert_eq!(
        found,
        [
            ("path", "src/app.py".into(), 4, 14, false, false),
            ("figure", "2024".into(), 18, 22, false, false),
            ("date", "03-03".into(), 23, 28, false, false), // what the figure leaves
        ]
    );
}

#[test]
fn a_range_keeps_both_ends_and_hedges_mark_figures_too() {
    let found = claims("It likely costs $5-10 million.", &[]);
    let kinds: Vec<_> = found
        .iter()
        .map(|c| (c.0, c.1.as_str(), c.2, c.4))
        .collect();
    assert_eq!(
        kinds,
        [
            ("figure", "5000000", 16, true),
            ("figure", "10000000", 16, true)
        ]
    );
}

#[test]
fn given_by_a_whole_word_of_what_the_user_said() {
    let answer = "Open src/app.py and ask Ludwig van Beethoven.";
    let found = claims(answer, &["please fix SRC/APP.PY", "ludwig van beethovenx"]);
    let given: Vec<_> = found.iter().map(|c| (c.1.as_str(), c.5)).collect();
    assert_eq!(
        given,
        [("src/app.py", true), ("Ludwig van Beethoven", false)]
    );
}

#[test]
fn figures_are_given_by_value_or_a_hedged_rounding() {
    let answer = "About $3 million, and 2,500 more.";
    let found = claims(answer, &["It made $2,956,737."]);
    let given: Vec<_> = found
        .iter()
        .filter(|c| c.0 == "figure")
        .map(|c| (c.1.as_str(), c.5))
        .collect();
    assert_eq!(given, [("3000000", true), ("2500", false)]);
    let found = claims(answer, &["It made $2,456,737.", "2,400 and 25,000"]);
    let given: Vec<_> = found
        .iter()
        .filter(|c| c.0 == "figure")
        .map(|c| c.5)
        .collect();
    assert_eq!(given, [false, false]); // other roundings, other values
}

#[test]
fn a_claim_once_at_its_first_place() {
    let found = claims("See a/b.py, then a/b.py.", &[]);
    assert_eq!(found, [("path", "a/b.py".into(), 4, 10, false, false)]);
}

#[test]
fn accented_claims_get_their_unicode_forms_curly_quotes_none() {
    let table = lexicon();
    let none = || Ok(FigureIndex::new(false));
    let accented = extract_answer_claims("We met Ludwig Beethov\u{e9}n.", &[], &[], none, &table);
    let forms = accented
        .unwrap_or_default()
        .into_iter()
        .map(|c| c.forms)
        .next();
    let forms = forms.unwrap_or_default();
    assert!(
        forms.contains(&"Ludwig Beethove\u{301}n".to_owned()),
        "{forms:?}"
    );
    assert!(forms.contains(&"Ludwig Beethoven".to_owned()), "{forms:?}");
    let quoted = extract_answer_claims("He said \u{201c}best\u{201d}.", &[], &[], none, &table);
    let quoted = quoted.unwrap_or_default();
    assert_eq!(
        quoted.first().map(|c| (c.kind, c.forms.len())),
        Some(("quote", 1))
    );
}

#[test]
fn shown_in_tests_lower_cases_then_the_whole_word() {
    let texts = ["NOS-183 and more", "the nos-18."];
    let lowered: Vec<String> = texts.iter().map(|t| crate::lower::lower(t)).collect();
    assert!(shown_in("NOS-18", &texts, &lowered));
    assert!(!shown_in(
        "NOS-18",
        &["NOS-183 and more"],
        &["nos-183 and more".into()]
    ));
    // re matches "s" with U+017F, but str.lower's quick test does not see it: not shown.
    assert!(!shown_in("as", &["a\u{17f}"], &["a\u{17f}".into()]));
}
