//! Figures of texts each path of `Extractor::figures` takes (ASCII bytes, characters):
//! expected as the reference (`reference_figures`) finds them.

/// A text and its figures' kind, value, start and end (and hedge).
type Case = (
    &'static str,
    &'static [(&'static str, &'static str, usize, usize)],
);
type HedgedCase = (
    &'static str,
    &'static [(
        &'static str,
        &'static str,
        usize,
        usize,
        Option<&'static str>,
    )],
);

#[test]
fn words_signs_and_other_digits_are_found_on_either_path() {
    let extractor = crate::figures::testing::extractor();
    let cases: [Case; 7] = [
        ("Ten percent of them", &[("percent", "10%", 0, 11)]),
        ("about twenty-five days", &[("period", "25 days", 6, 22)]),
        (
            "the third consecutive year",
            &[("period", "3 consecutive years", 4, 26)],
        ),
        ("costs \u{20ac}5 now", &[("money", "5", 6, 8)]),
        ("\u{663}\u{664}% up", &[("percent", "34%", 0, 3)]),
        (
            "it rose \u{663}\u{664} percent \u{2013} see Section 4",
            &[("percent", "34%", 8, 18), ("section", "\u{a7}4", 25, 34)],
        ),
        ("USD 1,500 paid", &[("money", "1500", 0, 9)]),
    ];
    for (text, expected) in cases {
        let found = extractor.figures(text).unwrap();
        let found: Vec<_> = found
            .iter()
            .map(|f| (f.kind, f.value.as_str(), f.start, f.end))
            .collect();
        assert_eq!(found, expected, "{text:?}");
    }
    assert!(
        extractor
            .figures("content often written")
            .unwrap()
            .is_empty()
    );
}

#[test]
fn an_ascii_text_has_the_figures_of_its_characters() {
    let extractor = crate::figures::testing::extractor();
    let cases: [HedgedCase; 3] = [
        ("HAT-1234 and mid-2015", &[("number", "2015", 17, 21, None)]),
        (
            "About $3 million, nearly 40% in FY2016-17",
            &[
                ("money", "3000000", 6, 16, Some("about")),
                ("percent", "40%", 25, 28, None),
            ],
        ),
        (
            "Sec. 4(b): 12 business days, USD 5bn",
            &[
                ("section", "\u{a7}4(b)", 0, 9, None),
                ("period", "12 business days", 11, 27, None),
                ("money", "5000000000", 29, 36, None),
            ],
        ),
    ];
    for (text, expected) in cases {
        let found = extractor.figures(text).unwrap();
        let summary: Vec<_> = found
            .iter()
            .map(|f| (f.kind, f.value.as_str(), f.start, f.end, f.hedge.as_deref()))
            .collect();
        assert_eq!(summary, expected, "{text:?}");
        // A non-ASCII character after it sends the text down the character path.
        let mut longer = extractor.figures(&format!("{text} \u{e9}")).unwrap();
        assert_eq!(longer.len(), found.len(), "{text:?}");
        longer.truncate(found.len());
        assert_eq!(longer, found, "{text:?}");
    }
}
