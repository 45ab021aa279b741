//! The claim scanners (`tracegrade.claims._scan.scan_claims`), ported from the Python
//! reference rule for rule: every claim of an answer but its figures, with the same kind,
//! raw text, normalised text, code-point offsets, forms and hedge flag.
//!
//! The reference is one backtracking regular expression; here each of its alternatives is
//! plain code over the answer's characters (`shapes`), trying the same paths in the same
//! order, with CPython's character classes (`crate::chars`). The word lists stay in Python
//! (claims/_scan_words.py and friends) and are handed over once, as a [`Lexicon`].

mod code;
mod hedge;
mod lexicon;
mod names;
mod prose;
mod scan;
mod shapes;
mod text;

pub use hedge::{hedged_spans, mark_hedged};
pub use lexicon::Lexicon;
#[cfg(test)]
pub use lexicon::sample;
pub use scan::{ReferenceRaises, scan_claims, scan_hedged};

/// One claim, as `tracegrade.claims.AnswerClaim` holds it (offsets in code points).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub kind: &'static str,
    pub raw: String,
    pub text: String,
    pub start: usize,
    pub end: usize,
    pub forms: Vec<String>,
    pub hedged: bool,
    /// The user's own messages said it (marked by native::answer_claims; the scanners never).
    pub given: bool,
}

impl Claim {
    /// `_with_unicode_forms`: a claim written with non-ASCII characters is also shown by each
    /// form's NFC, NFD and accent-free spelling (both engines' scans add them so).
    pub fn with_unicode_forms(mut self) -> Self {
        if self.raw.is_ascii() {
            return self;
        }
        let mut seen = std::collections::HashSet::new();
        let mut forms = Vec::with_capacity(self.forms.len() * 4);
        for written in self.forms {
            let [composed, decomposed, bare] = crate::normal::unicode_variants(&written);
            for form in [written, composed, decomposed, bare] {
                if seen.insert(form.clone()) {
                    forms.push(form);
                }
            }
        }
        self.forms = forms;
        self
    }

    fn new(
        kind: &'static str,
        raw: String,
        text: String,
        start: usize,
        forms: Vec<String>,
    ) -> Self {
        let end = start + raw.chars().count();
        Self {
            kind,
            raw,
            text,
            start,
            end,
            forms,
            hedged: false,
            given: false,
        }
    }
}

/// `list(dict.fromkeys(forms))`: the forms in order, each once.
fn unique(mut forms: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::with_capacity(forms.len());
    forms.retain(|form| seen.insert(form.clone()));
    forms
}
