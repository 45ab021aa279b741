//! The reading path's passes: how deep the arrays and objects of a JSON text nest, and
//! which redaction triggers a trace's string values hold and which object keys it has.
//!
//! The references are Python walks over the parsed value (`tracegrade.traces._limits.
//! depth_within`, `tracegrade.redact._scan`). The depth is counted on the text the value was
//! parsed from, without building anything; on text that is not JSON it stops at the end
//! and never fails.

use std::collections::HashSet;

use memchr::memchr2;

use crate::lower::lower_into;
use crate::needles::Search;

/// Where the string that opens at `start` (the byte after its `"`) closes: the index of the
/// closing quote. `None`: the text ends inside it.
fn string_end(json: &[u8], start: usize) -> Option<usize> {
    let mut at = start;
    loop {
        let rest = json.get(at..)?;
        let found = at + memchr2(b'"', b'\\', rest)?;
        if json.get(found) == Some(&b'"') {
            return Some(found);
        }
        at = found + 2; // the backslash and the character it escapes (`u`'s hex digits follow)
    }
}

/// Whether arrays and objects in the JSON `json` nest at most `limit` levels deep.
///
/// The top-level value is level 1 when it is an array or object; brackets inside strings
/// do not count. On a document with a repeated object key this counts the value parsing
/// drops too, so it can only say "too deep" where the parsed value is not: the caller
/// confirms that verdict on the parsed value.
pub fn depth_within(json: &[u8], limit: usize) -> bool {
    let mut depth = 0usize;
    let mut at = 0;
    while let Some(&byte) = json.get(at) {
        match byte {
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return false;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'"' => match string_end(json, at + 1) {
                Some(end) => at = end,
                None => return true,
            },
            _ => {}
        }
        at += 1;
    }
    true
}

/// What a trace's values hold for redaction: the triggers found in its string values and
/// its object keys.
#[derive(Debug, PartialEq, Eq)]
pub struct Scan {
    /// Indices of the needles found in some string value, lower-cased.
    pub present: Vec<usize>,
    /// Every object key, once each.
    pub keys: Vec<String>,
}

/// Looks for needles in a trace's string values, lower-cased, and gathers its keys, as the
/// reference does over the values joined with NULs (`tracegrade.redact._scan`).
///
/// Text rules only ever run on string values, never on keys (a key is redacted by its name),
/// so keys are kept apart. The caller walks the values and hands each string over; each is
/// lower-cased and searched as it comes, so no joined copy of the trace is built,
/// unless a needle holds a NUL and could span two values.
pub struct Collector {
    search: Search,
    joined: Option<String>,
    scratch: String,
    keys: HashSet<String>,
    first: bool,
}

impl Collector {
    /// A collector looking for `needles`.
    pub fn new(needles: &[String]) -> Result<Self, String> {
        Ok(Self {
            search: Search::new(needles)?,
            joined: needles
                .iter()
                .any(|needle| needle.contains('\0'))
                .then(String::new),
            scratch: String::new(),
            keys: HashSet::new(),
            first: true,
        })
    }

    /// A string value.
    pub fn value(&mut self, text: &str) {
        let first = std::mem::replace(&mut self.first, false);
        if let Some(joined) = self.joined.as_mut() {
            if !first {
                joined.push('\0');
            }
            lower_into(text, joined);
        } else if !self.search.done() {
            self.scratch.clear();
            if text.is_ascii() {
                self.scratch.push_str(text);
                self.scratch.make_ascii_lowercase();
            } else {
                lower_into(text, &mut self.scratch);
            }
            self.search.lowered(&self.scratch);
        }
    }

    /// An object key.
    pub fn key(&mut self, text: &str) {
        if !self.keys.contains(text) {
            self.keys.insert(text.to_string());
        }
    }

    /// The needles found in the values (an empty one always is, as `"" in text` in
    /// Python), and the keys.
    pub fn finish(mut self) -> Scan {
        if let Some(joined) = self.joined.take() {
            self.search.lowered(&joined);
        }
        Scan {
            present: self.search.found(),
            keys: self.keys.into_iter().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Collector, Scan, depth_within};

    fn needles(words: &[&str]) -> Vec<String> {
        words.iter().map(|word| (*word).to_string()).collect()
    }

    #[test]
    fn depth_counts_containers_not_brackets_in_strings() {
        assert!(depth_within(b"1", 0));
        assert!(!depth_within(b"[]", 0));
        assert!(depth_within(b"[[1], {\"a\": []}]", 3));
        assert!(!depth_within(b"[[1], {\"a\": []}]", 2));
        assert!(!depth_within(b"[[[1]]]", 2));
        assert!(depth_within(br#"["[[[[", "\"[[[", {"k]": "{{"}]"#, 2));
    }

    #[test]
    fn depth_survives_text_that_is_not_json() {
        assert!(depth_within(b"\"unterminated [[[", 1));
        assert!(depth_within(b"]]]][", 1));
        assert!(!depth_within(b"]]]][[", 1));
    }

    fn collected(values: &[&str], keys: &[&str], words: &[&str]) -> Result<Scan, String> {
        let mut collector = Collector::new(&needles(words))?;
        for value in values {
            collector.value(value);
        }
        for key in keys {
            collector.key(key);
        }
        Ok(collector.finish())
    }

    #[test]
    fn triggers_are_looked_for_in_values_not_keys() {
        let found = collected(
            &["Bearer x", "SK-1"],
            &["max_tokens"],
            &["token", "bearer", "sk-"],
        );
        let keys = vec!["max_tokens".to_string()];
        assert_eq!(
            found,
            Ok(Scan {
                present: vec![1, 2],
                keys
            })
        );
    }

    #[test]
    fn values_do_not_run_into_each_other_but_a_nul_joins_them() {
        let found = collected(&["tok", "en"], &[], &["token", "ken", "k\0e", "\0"]);
        assert_eq!(found.map(|scan| scan.present), Ok(vec![2, 3]));
    }

    #[test]
    fn non_ascii_values_lower_case_as_python() {
        // U+212A KELVIN SIGN lower-cases to ASCII "k"; U+0130 to "i" and a combining dot.
        let found = collected(&["\u{212A}EY", "\u{130}D"], &[], &["key", "i\u{307}d", ""]);
        assert_eq!(found.map(|scan| scan.present), Ok(vec![0, 1, 2]));
    }

    #[test]
    fn ascii_values_are_searched_in_any_case_and_others_lowered() {
        let found = collected(
            &["BeArEr x", "SK-\u{e9}", "\u{c9}T\u{c9}"],
            &[],
            &["bearer", "sk-\u{e9}", "\u{e9}t\u{e9}"],
        );
        assert_eq!(found.map(|scan| scan.present), Ok(vec![0, 1, 2]));
    }

    #[test]
    fn keys_are_kept_once_each() {
        let found = collected(&[], &["a", "b", "a"], &[]);
        let mut keys = found.map(|scan| scan.keys).unwrap_or_default();
        keys.sort();
        assert_eq!(keys, vec!["a".to_string(), "b".into()]);
    }
}
