use super::{Accept, RuleSpec, Rules, basic, searchable};

fn changes(rules: &Rules, text: &str) -> bool {
    let lowered = crate::lower::lower(text);
    let mut present = vec![false; rules.triggers.len()];
    rules.find_triggers(lowered.as_bytes(), &mut present)
        && rules.changing(text, Some(&lowered), &present).is_some()
}

#[test]
fn lazy_quantifiers_become_greedy_and_anchors_lookarounds() {
    assert_eq!(searchable("a*?b", 0), Ok(("a*b".into(), false)));
    assert_eq!(searchable("a*+b[?*]", 0), Ok(("a*+b[?*]".into(), true)));
    assert_eq!(searchable(r"(?:x)\??", 0), Ok((r"(?:x)\??".into(), true)));
    assert_eq!(searchable("a{2,}?", 0), Ok(("a{2,}".into(), false)));
    assert_eq!(
        searchable("^a$", 8),
        Ok((r"(?<![^\n])a(?![^\n])".into(), true))
    );
    assert_eq!(searchable("[]^]", 0), Ok(("[]^]".into(), true)));
    assert_eq!(searchable("[^]^]*?", 0), Ok(("[^]^]*".into(), false)));
    assert!(searchable("a", 16).is_err()); // DOTALL
}

#[test]
fn a_rule_runs_only_on_a_text_with_its_trigger() {
    let rules = Rules::new(
        vec![RuleSpec::sample("k", "sk-[a-z]{3}", 0, &["sk-"])],
        Vec::new(),
        None,
    );
    assert!(changes(&rules, "key sk-abc"));
    assert!(!changes(&rules, "key sk-ab"));
    assert!(!changes(&rules, "key SK-abc")); // the pattern is case-sensitive
}

#[test]
fn an_ascii_text_is_matched_as_written_or_lower_cased_for_a_fold_rule() {
    let mut folded = RuleSpec::sample("fold", "sk-[a-z]{3}", 0, &["sk-"]);
    folded.fold = true;
    let rules = Rules::new(vec![folded], Vec::new(), None);
    assert!(changes(&rules, "key SK-ABC"));
    let rules = Rules::new(
        vec![RuleSpec::sample("k", "SK-[A-Z]{3}", 0, &["sk-"])],
        Vec::new(),
        None,
    );
    assert!(changes(&rules, "key SK-ABC"));
    assert!(!changes(&rules, "key sk-abc"));
}

#[test]
fn a_fold_rule_declines_a_text_whose_lower_case_is_longer() {
    let mut folded = RuleSpec::sample("fold", "sk-[a-z]{3}", 0, &["sk-"]);
    folded.fold = true;
    let rules = Rules::new(vec![folded], Vec::new(), None);
    // U+0130 lower-cases to two characters: the reference matches the text itself.
    assert!(changes(&rules, "\u{130} sk-"));
    assert!(!changes(&rules, "\u{c9} \u{131} sk-"));
    assert!(changes(&rules, "\u{c9} SK-ABC"));
}

#[test]
fn a_pattern_the_matcher_cannot_compile_may_match_where_it_runs() {
    let rules = Rules::new(
        vec![RuleSpec::sample("k", r"(?i)x\d", 0, &["x"])],
        Vec::new(),
        None,
    );
    assert_eq!(rules.counts(), (1, 1));
    assert!(changes(&rules, "x"));
    assert!(!changes(&rules, "y"));
}

#[test]
fn multiline_anchors_match_at_line_starts() {
    let rules = Rules::new(
        vec![RuleSpec::sample(
            "k",
            "^cookie: (\\S+)",
            8 | 32,
            &["cookie"],
        )],
        Vec::new(),
        None,
    );
    assert!(changes(&rules, "a\ncookie: x"));
    assert!(!changes(&rules, "a cookie: x"));
}

#[test]
fn accept_bounded_and_group_as_the_reference() {
    let mut pair = RuleSpec::sample("k", r"token\s*=\s*(\S+)", 32, &["token"]);
    pair.group = 1;
    pair.accept = Accept::PairValue;
    pair.bounded = true;
    pair.after = "_.-".into();
    let rules = Rules::new(vec![pair], vec!["none".into()], None);
    assert!(changes(&rules, "token = abcd"));
    assert!(!changes(&rules, "token = abc"));
    assert!(!changes(&rules, "token = None"));
    assert!(!changes(&rules, "max_token = abcd"));
    assert!(changes(&rules, "max_token=1 token = abcd"));
}

#[test]
fn only_keys_holding_a_part_are_kept_lowered_as_python_does() {
    let rules = Rules::new(Vec::new(), Vec::new(), Some(vec!["key".into()]));
    assert!(rules.keeps_key("API_KEY"));
    assert!(rules.keeps_key("\u{212a}ey")); // KELVIN SIGN lower-cases to "k"
    assert!(!rules.keeps_key("tokens"));
    assert!(Rules::new(Vec::new(), Vec::new(), None).keeps_key("tokens"));
}

#[test]
fn basic_credentials_need_a_colon_once_decoded() {
    assert!(basic("dXNlcjpwYXNz")); // user:pass
    assert!(!basic("information"));
    assert!(basic("éé"));
}
