//! The matcher's tests: `re`'s semantics, and its rewrites held to the pattern as parsed.

use super::{Match, Pattern, Span, TooDeep};
use crate::figures::relaxed::Relaxed;
use crate::testing::Xorshift;

fn chars(text: &str) -> Vec<char> {
    text.chars().collect()
}

fn spans(pattern: &str, text: &str) -> Vec<(usize, usize)> {
    let pattern = Pattern::new(pattern, false).unwrap();
    let found = pattern.find_all(&chars(text)).unwrap();
    found.iter().map(|m| (m.start(), m.end())).collect()
}

#[test]
fn backtracks_like_sre() {
    assert_eq!(spans(r"\d+5", "12345"), vec![(0, 5)]);
    assert_eq!(spans(r"(?>\d+)5", "12345"), vec![]);
    assert_eq!(spans(r"\d++\b", "12 345x"), vec![(0, 2)]);
    assert_eq!(spans(r"(?<![\w.])\d+", "a1 .2 3"), vec![(6, 7)]);
    assert_eq!(spans(r"a|ab", "ab"), vec![(0, 1)]);
    assert_eq!(spans(r"(?:ab|a)c", "ac abc"), vec![(0, 2), (3, 6)]);
    assert_eq!(spans(r"x\Z", "xx"), vec![(1, 2)]);
}

#[test]
fn a_leading_lookahead_of_few_strings_is_a_trie_with_the_same_matches() {
    // Expected spans as Python's re.finditer gives them.
    let pattern = r"\b(?=s(?:ec(?:t(?:ion)?)?)?|u(?:s\$|sd)|two|ten)\w+\b";
    assert!(Pattern::new(pattern, false).unwrap().lead.is_some());
    let text = "xsec sect us$ usd ten tens two s";
    assert_eq!(
        spans(pattern, text),
        vec![
            (5, 9),
            (10, 12),
            (14, 17),
            (18, 21),
            (22, 26),
            (27, 30),
            (31, 32)
        ]
    );
}

#[test]
fn groups_hold_the_successful_path_only() {
    let pattern = Pattern::new(r"(?:(?P<a>x)y|x(?P<b>z))", false).unwrap();
    let found = pattern.find_all(&chars("xz")).unwrap();
    let hit = found.first().unwrap();
    assert_eq!(hit.group(pattern.group_index("a")), None);
    assert_eq!(hit.group(pattern.group_index("b")), Some((1, 2)));
}

#[test]
fn python_classes_and_ignore_case() {
    assert_eq!(spans(r"\d+", "x٣٤y"), vec![(1, 3)]);
    let folded = Pattern::new("some", true).unwrap();
    assert_eq!(folded.find_all(&chars("ſome")).unwrap().len(), 1);
    // Caseless non-ASCII class members are allowed under IGNORECASE; cased ones not yet.
    let dashes = Pattern::new(r"[-\u2013\u2014]\s*17", true).unwrap();
    assert_eq!(
        dashes
            .find_all(&chars("2016\u{2013}17, 2016 - 17"))
            .unwrap()
            .len(),
        2
    );
    assert!(Pattern::new("[é]", true).is_err());
    assert!(Pattern::new(r"[\u00e0-\u00ff]", true).is_err());
}

/// Texts of the tokens the figure patterns look for, joined at random.
fn generated_texts(count: usize) -> Vec<Vec<char>> {
    // Split at '|'; the spaces and the newline are tokens too.
    let tokens: Vec<&str> = concat!(
        "5|12|1,500|2024|3.5|,|.| |  |-|\u{2013}|%|$|us$|\u{20ac}|\u{a7}|",
        "percent|per cent|pct|million|bn|m|k|to|days|day|-day|year|old|",
        "consecutive|business|ten|thirty|one|first|third|7th|usd|eur|dollars|",
        "pounds|sterling|section|sec.|(b)|(|)|/|01|about|over|~|x|a|\u{663}|",
        "\u{ff15}|\n",
    )
    .split('|')
    .collect();
    let mut rng = Xorshift::new(0x9e37_79b9_7f4a_7c15);
    let mut next = move || rng.below(1_000_000);
    (0..count)
        .map(|_| {
            let length = 1 + next() % 12;
            let text: String = (0..length)
                .map(|_| *tokens.get(next() % tokens.len()).unwrap())
                .collect();
            chars(&text)
        })
        .collect()
}

#[test]
fn the_rewrites_keep_every_match_and_group_of_the_figure_patterns() {
    let tables = crate::figures::testing::extractor().tables().clone();
    let patterns = [
        &tables.symbol_led,
        &tables.word_led,
        &tables.value_part,
        &tables.hedge,
        &tables.any_number,
    ];
    let texts = generated_texts(4000);
    let mut matched = 0;
    for (pattern, flag) in patterns {
        let fast = Pattern::new(pattern, *flag).unwrap();
        let plain = Pattern::unoptimised(pattern, *flag).unwrap();
        for text in &texts {
            let fast_found = fast.find_all(text).unwrap();
            let plain_found = plain.find_all(text).unwrap();
            let spans = |found: &[Match]| -> Vec<Vec<Span>> {
                found.iter().map(|m| m.spans.clone()).collect()
            };
            let text: String = text.iter().collect();
            assert_eq!(
                spans(&fast_found),
                spans(&plain_found),
                "{pattern} {text:?}"
            );
            if text.is_ascii() {
                let bytes = fast.find_all(text.as_bytes()).unwrap();
                assert_eq!(
                    spans(&bytes),
                    spans(&plain_found),
                    "{pattern} {text:?} bytes"
                );
            }
            matched += fast_found.len();
        }
    }
    assert!(matched > 3000, "{matched} matches: the texts test little");
}

#[test]
fn a_match_starts_only_where_a_relaxed_match_does_and_by_a_path_that_does() {
    let tables = crate::figures::testing::extractor().tables().clone();
    let patterns: Vec<Pattern> = [
        &tables.symbol_led,
        &tables.word_led,
        &tables.value_part,
        &tables.hedge,
        &tables.any_number,
    ]
    .into_iter()
    .map(|(pattern, flag)| Pattern::new(pattern, *flag).unwrap())
    .collect();
    // The symbol-led pattern's eight shapes, the word-led one's four.
    let paths: Vec<usize> = patterns.iter().map(|p| p.paths().len()).collect();
    assert_eq!(paths, [8, 4, 2, 1, 1]);
    // All five in one automaton: each pattern's places are its own.
    let relaxed = Relaxed::of(&patterns.iter().collect::<Vec<&Pattern>>()).unwrap();
    let (mut matches, mut ruled_out, mut some_paths) = (0, 0, 0);
    for units in generated_texts(1000) {
        let text: String = units.iter().collect();
        let starts = relaxed.starts(text.as_bytes()).unwrap();
        let bytes: Vec<usize> = (0..=units.len())
            .map(|at| units.iter().take(at).map(|c| c.len_utf8()).sum())
            .collect();
        for (pattern, places) in patterns.iter().zip(&starts) {
            let all = u64::MAX >> (64 - pattern.paths().len());
            for (at, byte) in bytes.iter().enumerate() {
                let found = places.binary_search_by_key(byte, |&(place, _)| place);
                let paths = found.ok().and_then(|i| places.get(i)).map_or(0, |p| p.1);
                let full = pattern.match_at(&units, at).unwrap();
                if full.is_some() {
                    assert_ne!(paths, 0, "{:?} at {at} of {text:?}", pattern.tree());
                    matches += 1;
                } else if paths == 0 && pattern.next_start(&units, at) == Some(at) {
                    ruled_out += 1;
                }
                if paths != 0 {
                    // The paths ruled out there change nothing.
                    let tried = pattern.match_on(&units, at, paths).unwrap();
                    let spans = |found: Option<Match>| found.map(|m| m.spans);
                    assert_eq!(spans(tried), spans(full), "{at} of {text:?}");
                    some_paths += usize::from(paths != all);
                }
            }
        }
    }
    // Places with matches, places the first characters allow and the relaxed forms rule
    // out, and places where only some paths may match: all are met.
    assert!(
        matches > 2000 && ruled_out > 15_000 && some_paths > 2000,
        "{matches} matches, {ruled_out} places ruled out, {some_paths} with some paths"
    );
}

#[test]
fn deep_nesting_is_reported_not_overflowed() {
    let text = format!("1{}", ",000".repeat(5000));
    let pattern = Pattern::new(r"\d(?:,\d{3})+", false).unwrap();
    assert_eq!(pattern.find_all(&chars(&text)).err(), Some(TooDeep));
}

#[test]
fn a_relaxed_search_finds_the_first_match_a_search_does() {
    let tables = crate::figures::testing::extractor().tables().clone();
    let (pattern, flag) = &tables.hedge;
    let hedge = Pattern::new(pattern, *flag).unwrap();
    let relaxed = Relaxed::of(&[&hedge]).unwrap();
    let tokens = [
        "about",
        "over",
        "nearly",
        "up to",
        "more than",
        "an estimated",
        "estimated",
        "approx.",
        "\u{17f}ome",
        "c\u{131}rca",
        "just",
        " ",
        "  ",
        "\n",
        "x",
        "5",
        "~",
        "\u{2248}",
        "\u{e9}",
        "a",
        "$",
    ];
    let mut rng = Xorshift::new(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.below(1_000_000);
    let mut found = 0;
    for _ in 0..2000 {
        let text: String = (0..1 + next() % 8)
            .map(|_| *tokens.get(next() % tokens.len()).unwrap())
            .collect();
        let units = chars(&text);
        // As a figure at each place looks back for its hedge: up to it, from 16 before.
        for start in 0..=units.len() {
            let scanned = units.get(..start).unwrap();
            let from = start.saturating_sub(16);
            let expected = hedge.search(scanned, from).unwrap();
            let spans = |found: Option<Match>| found.map(|m| m.spans);
            let tried = relaxed.search(&hedge, scanned, from).unwrap();
            found += usize::from(expected.is_some());
            assert_eq!(spans(tried), spans(expected), "{start} of {text:?}");
        }
    }
    assert!(found > 1000, "{found} hedges found");
}
