//! The redaction rules (`tracegrade.redact._rules.RedactionRule`) compiled for one question:
//! could a rule change this text? (`Redactor.text`, `_apply`).
//!
//! The answer may be "yes" where the reference changes nothing (the core then leaves the
//! trace to the reference, which redacts and grades it), never "no" where it changes
//! something. So whatever is not ported exactly counts as a match: a pattern the matcher
//! cannot compile, a lazy quantifier (run greedy: the same texts hold a match, at other
//! spans), an `accept` test the core does not know, a non-ASCII character where the
//! reference's Unicode test is not ported, a match that needs too deep a stack.

use std::cell::OnceCell;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder};

use super::redaction_triggers::TriggerFinder;

use crate::chars::is_alnum;
use crate::figures::matcher::Pattern;
use crate::figures::relaxed::Relaxed;
use crate::figures::sets::Unit;
use crate::lower::{lower, lower_keeps_length};

const IGNORECASE: u32 = 2;
const MULTILINE: u32 = 8;
const UNICODE: u32 = 32;

/// The further test of a found secret (`RedactionRule.accept`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accept {
    /// None, or one the core does not know: every match is a secret.
    Any,
    /// `_has_digit`.
    Digit,
    /// `_mixed`: an upper- and a lower-case letter and a digit.
    Mixed,
    /// `_bearer_token`: 8 characters or more, and a digit or 24 characters.
    Bearer,
    /// `_basic_credentials`: base64 of `user:password`.
    Basic,
    /// `_pair_value`: 4 characters or more, and not a placeholder (`none`, `xxx`).
    PairValue,
}

impl Accept {
    pub fn named(name: Option<&str>) -> Self {
        match name {
            Some("digit") => Self::Digit,
            Some("mixed") => Self::Mixed,
            Some("bearer") => Self::Bearer,
            Some("basic") => Self::Basic,
            Some("pair-value") => Self::PairValue,
            _ => Self::Any,
        }
    }
}

/// What the caller knows of one rule, as the reference holds it.
#[derive(Debug, Clone)]
pub struct RuleSpec {
    pub kind: String,
    /// The Python pattern's source and flags (`re.Pattern.pattern`, `.flags`).
    pub source: String,
    pub flags: u32,
    pub fold: bool,
    pub triggers: Vec<String>,
    pub group: usize,
    pub accept: Accept,
    pub beside: Option<(String, u32)>,
    pub bounded: bool,
    pub after: String,
}

#[derive(Debug)]
struct Rule {
    kind: String,
    /// `None`: not compiled, so it may match any text it runs on.
    pattern: Option<Pattern>,
    /// The pattern's relaxed form (every match of the pattern is one of it): a text it
    /// finds nothing in is passed over in one automaton run, not searched at each place.
    /// Built when the rule first runs (most never do).
    relaxed: OnceLock<Option<Relaxed>>,
    /// The pattern is the reference's exactly: each match can be checked as `_apply` does.
    exact: bool,
    fold: bool,
    /// Indices into [`Rules::triggers`]; empty: the rule runs on every text.
    triggers: Vec<usize>,
    group: usize,
    accept: Accept,
    /// `None` when the rule has none or it did not compile (then it is not tested).
    beside: Option<Pattern>,
    bounded: bool,
    after: Vec<char>,
}

/// A redactor's rules, ready to tell whether any of them could change a text.
#[derive(Debug)]
pub struct Rules {
    rules: Vec<Rule>,
    /// Every rule's triggers, once each.
    pub triggers: Vec<String>,
    /// Finds every occurrence of each in a text's ASCII lower case.
    finder: TriggerFinder,
    /// Indices of empty triggers, in every text (as `"" in text` in Python).
    empty: Vec<usize>,
    /// Some rule has no trigger, so runs on every text.
    always: bool,
    /// Finds the parts a key must hold to be kept (`None`: every key is kept).
    key_parts: Option<AhoCorasick>,
    /// Values `_pair_value` refuses, lower-cased.
    not_values: Vec<String>,
}

/// The source rewritten for the matcher: flags and anchors spelled as it reads them, lazy
/// quantifiers made greedy (then `false`: the spans may differ, not whether there is one).
fn searchable(source: &str, flags: u32) -> Result<(String, bool), String> {
    if flags & !(IGNORECASE | MULTILINE | UNICODE) != 0 {
        return Err(format!("flags {flags}"));
    }
    let multiline = flags & MULTILINE != 0;
    let mut out = String::with_capacity(source.len());
    let mut exact = true;
    let mut after_quantifier = false;
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        let quantifier = match c {
            '\\' => {
                out.push(c);
                out.extend(chars.next());
                false
            }
            '[' => {
                out.push(c);
                if chars.peek() == Some(&'^') {
                    out.extend(chars.next()); // `[^]...]`: the `]` is still the first
                }
                let mut first = true;
                while let Some(inner) = chars.next() {
                    out.push(inner);
                    match inner {
                        '\\' => out.extend(chars.next()),
                        ']' if !first => break,
                        _ => {}
                    }
                    first = false;
                }
                false
            }
            '(' => {
                out.push(c);
                if chars.peek() == Some(&'?') {
                    out.extend(chars.next());
                }
                false
            }
            '?' if after_quantifier => {
                exact = false; // lazy: dropped
                false
            }
            '+' if after_quantifier => {
                out.push(c); // possessive
                false
            }
            '*' | '+' | '?' => {
                out.push(c);
                true
            }
            '{' => {
                out.push(c);
                let mut counted = String::new();
                while let Some(&next) = chars.peek() {
                    if next.is_ascii_digit() || next == ',' {
                        counted.push(next);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push_str(&counted);
                chars.peek() == Some(&'}') && !counted.is_empty() && {
                    out.extend(chars.next());
                    true
                }
            }
            '^' if multiline => {
                out.push_str(r"(?<![^\n])");
                false
            }
            '$' if multiline => {
                out.push_str(r"(?![^\n])");
                false
            }
            '^' => {
                out.push_str(r"(?<![\s\S])");
                false
            }
            '$' => {
                out.push_str(r"(?=\n?\Z)");
                false
            }
            _ => {
                out.push(c);
                false
            }
        };
        after_quantifier = quantifier;
    }
    Ok((out, exact))
}

fn compiled(source: &str, flags: u32) -> Option<(Pattern, bool)> {
    let (rewritten, exact) = searchable(source, flags).ok()?;
    let pattern = Pattern::new(&rewritten, flags & IGNORECASE != 0).ok()?;
    Some((pattern, exact))
}

/// Whether `rule`'s pattern has no match in `searched`: its relaxed form finds none.
fn never_matches(rule: &Rule, searched: &str) -> bool {
    let relaxed = rule.relaxed.get_or_init(|| {
        rule.pattern
            .as_ref()
            .and_then(|pattern| Relaxed::of(&[pattern]))
    });
    relaxed
        .as_ref()
        .is_some_and(|relaxed| relaxed.may_match(searched.as_bytes()) == Some(false))
}

fn has_digit(text: &str) -> bool {
    !text.is_ascii() || text.bytes().any(|byte| byte.is_ascii_digit())
}

fn mixed(text: &str) -> bool {
    !text.is_ascii()
        || text.bytes().any(|byte| byte.is_ascii_uppercase())
            && text.bytes().any(|byte| byte.is_ascii_lowercase())
            && text.bytes().any(|byte| byte.is_ascii_digit())
}

/// Whether `text` may be base64 of a text holding `:`: its bytes decoded leniently (which
/// the strict decoding gives too, when it succeeds) hold a `:`.
fn basic(text: &str) -> bool {
    let mut bits = 0u32;
    let mut count = 0u32;
    for byte in text.bytes() {
        let value = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => return true, // not ported: the reference decides
        };
        bits = (bits << 6) | u32::from(value);
        count += 6;
        if count >= 8 {
            count -= 8;
            if (bits >> count) & 0xff == u32::from(b':') {
                return true;
            }
            bits &= (1 << count) - 1;
        }
    }
    false
}

impl Rules {
    pub fn new(
        specs: Vec<RuleSpec>,
        not_values: Vec<String>,
        key_parts: Option<Vec<String>>,
    ) -> Self {
        let mut triggers: Vec<String> = specs
            .iter()
            .flat_map(|spec| spec.triggers.iter().cloned())
            .collect();
        triggers.sort();
        triggers.dedup();
        let rules: Vec<Rule> = specs
            .into_iter()
            .map(|spec| {
                let (pattern, exact) = match compiled(&spec.source, spec.flags) {
                    Some((pattern, exact)) => (Some(pattern), exact),
                    None => (None, false),
                };
                Rule {
                    kind: spec.kind,
                    relaxed: OnceLock::new(),
                    pattern,
                    exact,
                    fold: spec.fold,
                    triggers: spec
                        .triggers
                        .iter()
                        .filter_map(|t| triggers.binary_search(t).ok())
                        .collect(),
                    group: spec.group,
                    accept: spec.accept,
                    beside: spec
                        .beside
                        .and_then(|(source, flags)| compiled(&source, flags))
                        .map(|(pattern, _)| pattern),
                    bounded: spec.bounded,
                    after: spec.after.chars().collect(),
                }
            })
            .collect();
        // A trigger with an ASCII capital is never in a lower-cased text (as in Python).
        let finder = TriggerFinder::new(&triggers);
        let empty = (0..triggers.len())
            .filter(|&index| triggers.get(index).is_some_and(String::is_empty))
            .collect();
        let always = rules.iter().any(|rule| rule.triggers.is_empty());
        // Case-blind: an ASCII key's lower case is the ASCII one (others are lowered first).
        let key_parts = key_parts.and_then(|parts| {
            AhoCorasickBuilder::new()
                .ascii_case_insensitive(true)
                .build(parts)
                .ok()
        });
        Self {
            rules,
            triggers,
            finder,
            empty,
            always,
            key_parts,
            not_values: not_values.iter().map(|value| lower(value)).collect(),
        }
    }

    /// How many rules there are, and how many the core could not compile.
    pub fn counts(&self) -> (usize, usize) {
        let missing = self.rules.iter().filter(|r| r.pattern.is_none()).count();
        (self.rules.len(), missing)
    }

    /// Whether some rule has no trigger, so runs on every text.
    pub fn some_always_run(&self) -> bool {
        self.rules.iter().any(|rule| rule.triggers.is_empty())
    }

    /// Whether the caller needs `key` to tell whether it names a credential.
    pub fn keeps_key(&self, key: &str) -> bool {
        match &self.key_parts {
            None => true,
            Some(parts) if key.is_ascii() => parts.is_match(key),
            Some(parts) => parts.is_match(&lower(key)),
        }
    }

    /// Whether every trigger that can be found is ASCII: then a text's triggers are found
    /// alike in its ASCII lower case, unless it holds a character whose lower case holds
    /// ASCII ([`crate::lower::lowers_into_ascii`]).
    pub fn ascii_triggers(&self) -> bool {
        self.finder.ascii()
    }

    /// Clear `present` but for the empty triggers (in every text); whether a rule runs on
    /// every text whatever it holds.
    fn blank(&self, present: &mut [bool]) -> bool {
        present.fill(false);
        let mut any = self.always;
        for &index in &self.empty {
            if let Some(slot) = present.get_mut(index) {
                *slot = true;
                any = true;
            }
        }
        any
    }

    /// Mark in `present` the triggers `text` holds ASCII-lower-cased (its lower case's, when
    /// [`Rules::ascii_triggers`] and it holds neither U+0130 nor U+212A); whether any rule
    /// runs on it.
    pub fn find_triggers(&self, text: &[u8], present: &mut [bool]) -> bool {
        let mut any = self.blank(present);
        self.finder.each(text, |_, _, index| {
            if let Some(slot) = present.get_mut(index) {
                *slot = true;
                any = true;
            }
        });
        any
    }

    fn accepts(&self, accept: Accept, secret: &str) -> bool {
        let length = secret.chars().count();
        match accept {
            Accept::Any => true,
            Accept::Digit => has_digit(secret),
            Accept::Mixed => mixed(secret),
            Accept::Bearer => length >= 8 && (has_digit(secret) || length >= 24),
            Accept::Basic => basic(secret),
            Accept::PairValue => length >= 4 && !self.not_values.contains(&lower(secret)),
        }
    }

    /// The kind of the first rule that could change `text`; `lowered` is its lower case if
    /// the caller has it (else it is made when a rule ignoring case runs); `present[i]`:
    /// whether the lower case holds trigger `i`.
    pub fn changing(&self, text: &str, lowered: Option<&str>, present: &[bool]) -> Option<&str> {
        let mut running = self
            .rules
            .iter()
            .filter(|rule| {
                rule.triggers.is_empty()
                    || rule
                        .triggers
                        .iter()
                        .any(|&t| present.get(t).copied().unwrap_or(true))
            })
            .peekable();
        running.peek()?;
        if text.is_ascii() {
            // Matched on its bytes: its lower case is its ASCII one.
            let own;
            let lowered = match lowered {
                Some(lowered) if lowered.len() == text.len() => lowered,
                _ => {
                    own = text.to_ascii_lowercase();
                    &own
                }
            };
            return running
                .find(|rule| {
                    let (searched, units) = if rule.fold {
                        (lowered, Some(lowered.as_bytes()))
                    } else {
                        (text, None)
                    };
                    !never_matches(rule, searched)
                        && self.rule_changes(rule, text.as_bytes(), units, searched)
                })
                .map(|rule| rule.kind.as_str());
        }
        // Characters, and the lower case's, made only for a rule that may match.
        let own = OnceCell::new();
        let lowered = || lowered.unwrap_or_else(|| own.get_or_init(|| lower(text)));
        let mut chars: Option<Vec<char>> = None;
        let mut folded: Option<Vec<char>> = None;
        for rule in running {
            let searched = if rule.fold {
                if !lower_keeps_length(text) {
                    return Some(&rule.kind); // the reference runs it on the text, ignoring case
                }
                lowered()
            } else {
                text
            };
            if never_matches(rule, searched) {
                continue;
            }
            let chars = chars.get_or_insert_with(|| text.chars().collect());
            let units = rule.fold.then(|| {
                folded
                    .get_or_insert_with(|| searched.chars().collect())
                    .as_slice()
            });
            if self.rule_changes(rule, chars, units, searched) {
                return Some(&rule.kind);
            }
        }
        None
    }

    /// Whether `rule` could change `text` (`lowered`: its lower case, for a rule ignoring
    /// case); `searched` is the text the pattern runs on, in UTF-8.
    fn rule_changes<U: Unit>(
        &self,
        rule: &Rule,
        text: &[U],
        lowered: Option<&[U]>,
        searched: &str,
    ) -> bool {
        if let Some(beside) = &rule.beside {
            if let Ok(None) = beside.search(text, 0) {
                return false; // (too deep: the rule may apply)
            }
        }
        let Some(pattern) = &rule.pattern else {
            return true;
        };
        let units = lowered.unwrap_or(text);
        // Every match in order (`finditer`), tried only where the relaxed form says one
        // may start.
        let hits = match rule.relaxed.get().and_then(Option::as_ref) {
            Some(relaxed) => relaxed.find_all(pattern, units, searched),
            None => pattern.find_all(units),
        };
        let Ok(hits) = hits else {
            return true; // too deep for the matcher
        };
        for hit in hits {
            if !rule.exact || hit.end() == hit.start() {
                return true; // the reference's next match may be elsewhere
            }
            let Some((start, end)) = hit.group(Some(rule.group)) else {
                continue;
            };
            if start == end || !self.starts_ok(rule, text, hit.start()) {
                continue;
            }
            let secret: String = text
                .get(start..end)
                .unwrap_or_default()
                .iter()
                .map(|unit| unit.char())
                .collect();
            if !secret.starts_with("[REDACTED:") && self.accepts(rule.accept, &secret) {
                return true;
            }
        }
        false
    }

    /// `RedactionRule.starts_ok` (a non-ASCII character before: not ported, so it is).
    fn starts_ok<U: Unit>(&self, rule: &Rule, text: &[U], start: usize) -> bool {
        if !rule.bounded || start == 0 {
            return true;
        }
        let Some(before) = text.get(start - 1).map(|unit| unit.char()) else {
            return true;
        };
        !before.is_ascii() || !(is_alnum(before) || before == ']' || rule.after.contains(&before))
    }
}

#[cfg(test)]
impl RuleSpec {
    /// A rule of `kind` for tests: `source` with `flags`, run on texts holding one of
    /// `triggers`, no group, no further test, not bounded.
    pub fn sample(kind: &str, source: &str, flags: u32, triggers: &[&str]) -> Self {
        Self {
            kind: kind.into(),
            source: source.into(),
            flags,
            fold: false,
            triggers: triggers.iter().map(|t| (*t).to_string()).collect(),
            group: 0,
            accept: Accept::Any,
            beside: None,
            bounded: false,
            after: "_".into(),
        }
    }
}

#[cfg(test)]
mod tests;
