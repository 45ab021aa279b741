//! What redaction could do to a native trace (`tracegrade.redact._trace._values`): the task
//! and each frame's content, arguments, result and summary, each text handed to the rules
//! its triggers let run (redaction_rules.rs), and every object key gathered. When a rule
//! could change a text, or a key names a credential (the caller checks the keys), the
//! reference grades the redacted trace.
//!
//! The texts are gathered first, then taken in order: each text's triggers are found in its
//! own bytes ignoring ASCII case (redaction_triggers.rs), and the rules they let run are run
//! on it, as the reference would. With ASCII triggers that finds what the reference finds
//! in the text's lower case (see `Rules::ascii_triggers`) unless the text holds U+0130 or
//! U+212A; such a text, and with other triggers any non-ASCII text, is lowered in full and
//! searched there. A text is lowered otherwise only if a rule ignoring case runs on it.

use std::collections::HashSet;

use super::redaction_rules::Rules;
use super::{Frame, Trace, Value};
use crate::lower::{lower_into, lowers_into_ascii};

/// The texts and keys of a trace, in the reference's order.
struct Gathered<'r, 'v> {
    rules: &'r Rules,
    texts: Vec<&'v str>,
    /// The keys looked at lately, by a few of their bytes ([`met`]): a trace repeats a few
    /// keys many times, and one found here is not looked at again.
    met: [Option<&'v str>; MET],
    kept: HashSet<&'v str>,
    keys: Vec<String>,
}

const MET: usize = 64;

/// The slot of `key` among the keys met: its length and end bytes (keys differ there).
fn met(key: &str) -> usize {
    let bytes = key.as_bytes();
    let first = usize::from(bytes.first().copied().unwrap_or(0));
    let last = usize::from(bytes.last().copied().unwrap_or(0));
    (bytes.len() ^ (first << 1) ^ (last * 5)) % MET
}

impl<'v> Gathered<'_, 'v> {
    fn value(&mut self, value: Value<'v>) {
        if let Some(text) = value.as_str() {
            self.texts.push(text);
        } else if let Some(object) = value.as_object() {
            for (key, item) in object.iter() {
                self.key(key);
                self.value(item);
            }
        } else if let Some(array) = value.as_array() {
            for item in array.iter() {
                self.value(item);
            }
        }
    }

    /// Keep `key` once if it may name a credential ([`Rules::keeps_key`]).
    fn key(&mut self, key: &'v str) {
        // A key met before is not looked at again (most are rejected: they are the many).
        let Some(slot) = self.met.get_mut(met(key)) else {
            return;
        };
        if *slot == Some(key) {
            return;
        }
        *slot = Some(key);
        if self.rules.keeps_key(key) && self.kept.insert(key) {
            self.keys.push(key.to_string());
        }
    }
}

/// The kind of the first rule that could change one of `texts`, taken in order.
pub fn first_changing<'r>(rules: &'r Rules, texts: &[&str]) -> Option<&'r str> {
    let mut present = vec![false; rules.triggers.len()];
    let mut full = String::new();
    for text in texts {
        let in_full = if rules.ascii_triggers() {
            lowers_into_ascii(text.as_bytes())
        } else {
            !text.is_ascii()
        };
        let lowered = in_full.then(|| {
            full.clear();
            lower_into(text, &mut full);
            full.as_str()
        });
        let searched = lowered.unwrap_or(text);
        if !rules.find_triggers(searched.as_bytes(), &mut present) {
            continue; // no rule runs on it
        }
        if let Some(kind) = rules.changing(text, lowered, &present) {
            return Some(kind);
        }
    }
    None
}

/// What redaction could do to a trace by its text rules: the kind of a rule that could
/// change one of its texts (`None`: no rule changes any), and the object keys (whose names
/// the caller checks: a key naming a credential has its whole value replaced), those that
/// may name one ([`Rules::keeps_key`]).
pub fn check<'v>(trace: &Trace<'v>, rules: &Rules) -> (Option<String>, Vec<String>) {
    let mut gathered = Gathered {
        rules,
        texts: vec![trace.task],
        met: [None; MET],
        kept: HashSet::new(),
        keys: Vec::new(),
    };
    for frame in &trace.frames {
        match frame {
            Frame::User { content } | Frame::Assistant { content } => gathered.texts.push(content),
            Frame::ToolCall {
                args: Some(value), ..
            }
            | Frame::ToolResult {
                result: Some(value),
                ..
            } => gathered.value(*value),
            Frame::Compaction { summary } => gathered.texts.push(summary),
            Frame::ToolCall { .. } | Frame::ToolResult { .. } | Frame::Approval => {}
        }
    }
    let kind = first_changing(rules, &gathered.texts).map(str::to_string);
    (kind, gathered.keys)
}

#[cfg(test)]
mod tests {
    use super::{Gathered, MET, first_changing, met};
    use crate::native::redaction_rules::{RuleSpec, Rules};
    use std::collections::HashSet;

    fn gathered(rules: &Rules, json: &str) -> (Vec<String>, Vec<String>) {
        let value = crate::native::json::leaked(json, false);
        let mut gathered = Gathered {
            rules,
            texts: Vec::new(),
            met: [None; MET],
            kept: HashSet::new(),
            keys: Vec::new(),
        };
        gathered.value(value);
        let texts = gathered.texts.iter().map(|t| (*t).to_string()).collect();
        (texts, gathered.keys)
    }

    #[test]
    fn every_key_naming_a_part_is_kept_once_whatever_its_slot() {
        let parts = Some(vec!["key".to_string()]);
        let rules = Rules::new(Vec::new(), Vec::new(), parts);
        // Keys sharing a slot replace one another there: each is still looked at.
        let names: Vec<String> = (0..200).map(|n| format!("key{n}")).collect();
        let slot = met("key10");
        let sharing: Vec<&String> = names.iter().filter(|n| met(n) == slot).collect();
        assert!(sharing.len() > 2);
        let body: Vec<String> = sharing
            .iter()
            .map(|n| format!("{{\"{n}\": \"v\"}}"))
            .collect();
        let json = format!(
            "[{0}, {0}, {{\"other\": [1, \"w\", null]}}]",
            body.join(", ")
        );
        let (texts, keys) = gathered(&rules, &json);
        let expected: Vec<String> = sharing.iter().map(|n| (*n).clone()).collect();
        assert_eq!(keys, expected);
        assert_eq!(texts.len(), 2 * sharing.len() + 1);
        // With no parts every key is kept, the empty one too.
        let all = Rules::new(Vec::new(), Vec::new(), None);
        let (_, keys) = gathered(&all, r#"{"": 1, "a": {"": 2, "b": 3}}"#);
        assert_eq!(keys, ["", "a", "b"]);
    }

    fn rules(specs: Vec<RuleSpec>) -> Rules {
        let rules = Rules::new(specs, Vec::new(), None);
        assert_eq!(rules.counts().1, rules.counts().0, "every rule runs blind");
        rules
    }

    #[test]
    fn a_trigger_spanning_two_texts_does_not_count() {
        let rules = rules(vec![RuleSpec::sample("k", "(?i)x", 0, &["ab", "a\0b"])]);
        assert_eq!(first_changing(&rules, &["xa", "by"]), None);
        // One holding the separator would be found across it: not inside one text.
        assert_eq!(first_changing(&rules, &["xa", "b"]), None);
        assert_eq!(first_changing(&rules, &["a", "", "b"]), None);
        assert_eq!(first_changing(&rules, &["x", "a\0b"]), Some("k"));
    }

    #[test]
    fn a_trigger_at_a_text_start_or_end_counts() {
        let rules = rules(vec![RuleSpec::sample("k", "(?i)x", 0, &["ab"])]);
        for texts in [
            &["ab"][..],
            &["ab", "z"],
            &["z", "ab"],
            &["zab", "z"],
            &["z", "abz"],
            &["", "AB", ""],
            &["é", "zAb"],
            &["z", "\u{130}ab"], // lower-cases to three characters, then "ab"
        ] {
            assert_eq!(first_changing(&rules, texts), Some("k"), "{texts:?}");
        }
        assert_eq!(first_changing(&rules, &["", "a", "b", "zb"]), None);
        assert_eq!(first_changing(&rules, &[]), None);
        // The KELVIN SIGN lower-cases to an ASCII "k".
        let rules = self::rules(vec![RuleSpec::sample("k", "(?i)x", 0, &["key"])]);
        assert_eq!(first_changing(&rules, &["a", "\u{212a}ey"]), Some("k"));
        // A non-ASCII trigger: every non-ASCII text is lowered in full.
        let rules = self::rules(vec![RuleSpec::sample("k", "(?i)x", 0, &["é"])]);
        assert_eq!(first_changing(&rules, &["a", "XÉ"]), Some("k"));
    }

    #[test]
    fn a_trigger_counts_in_any_ascii_case_and_in_the_lower_case_of_any_text() {
        let rules = rules(vec![RuleSpec::sample("k", "(?i)x", 0, &["api", "key"])]);
        let long = format!("{} ApI", "é z".repeat(30));
        for texts in [
            &["API"][..],
            &["z", "a ApI b"],
            &[long.as_str()],
            &["AP\u{130}"],  // lower-cased: "api" and a combining dot
            &["\u{212a}EY"], // the KELVIN SIGN lower-cases to "k"
            &["é \u{212a}Ey"],
        ] {
            assert_eq!(first_changing(&rules, texts), Some("k"), "{texts:?}");
        }
        for texts in [&["AP", "I"][..], &["A\u{130}"], &["\u{212a}E"], &["ÁPI"]] {
            assert_eq!(first_changing(&rules, texts), None, "{texts:?}");
        }
    }

    #[test]
    fn the_first_text_that_changes_decides_the_kind() {
        let rules = rules(vec![
            RuleSpec::sample("one", "(?i)x", 0, &["aa"]),
            RuleSpec::sample("two", "(?i)x", 0, &["bb"]),
        ]);
        assert_eq!(first_changing(&rules, &["x", "bb", "aa"]), Some("two"));
        assert_eq!(first_changing(&rules, &["aa bb"]), Some("one"));
        assert_eq!(first_changing(&rules, &["bb aa"]), Some("one"));
    }

    #[test]
    fn rules_run_only_on_the_texts_holding_their_triggers() {
        // Compiled: it changes a text holding "sk-" and three letters.
        let found = Rules::new(
            vec![RuleSpec::sample("sk", "sk-[a-z]{3}", 0, &["sk-"])],
            Vec::new(),
            None,
        );
        assert_eq!(found.counts(), (1, 0));
        assert_eq!(first_changing(&found, &["sk-", "abc"]), None);
        assert_eq!(first_changing(&found, &["sk-ab", "c sk-abc"]), Some("sk"));
        // A rule with no trigger runs on every text, hits or none.
        let always = Rules::new(vec![RuleSpec::sample("q", "q", 0, &[])], Vec::new(), None);
        assert_eq!(first_changing(&always, &["a", "b"]), None);
        assert_eq!(first_changing(&always, &["a", "xq"]), Some("q"));
        let empty = Rules::new(vec![RuleSpec::sample("q", "q", 0, &[""])], Vec::new(), None);
        assert_eq!(first_changing(&empty, &["a", "xq"]), Some("q"));
    }

    #[test]
    fn a_rule_ignoring_case_sees_the_whole_text_lower_cased() {
        // The buffer holds "É sk-abc" (ASCII-lower-cased only); the rule sees "é sk-abc".
        let mut folded = RuleSpec::sample("sk", "é sk-[a-z]{3}", 0, &["sk-"]);
        folded.fold = true;
        let rules = Rules::new(vec![folded], Vec::new(), None);
        assert_eq!(rules.counts(), (1, 0));
        assert_eq!(first_changing(&rules, &["x", "É SK-ABC"]), Some("sk"));
        assert_eq!(first_changing(&rules, &["É", "SK-ABC"]), None);
    }
}
