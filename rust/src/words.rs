//! Whole-word matching with the exact semantics of the building interpreter's `re`.
//!
//! The reference is `tracegrade._text.form_pattern`: `(?<![^\W_])FORM(?![^\W_])` with
//! `re.IGNORECASE`, the edges only where the form starts (ends) with a letter or digit. An
//! edge tests `str.isalnum` of the neighbouring character as it is; each character of the form
//! is a literal that `re` matches case-insensitively by its *simple* lower case and the extra
//! equivalents it lists (`s` and U+017F...), not by `str.lower`. The tables come from the
//! interpreter (`crate::chars`; char_tables.py checks them against `re` first).

use std::cell::OnceCell;

use memchr::memmem;

use crate::chars::{is_alnum, is_sre_cased, literal_key};

/// One character of a form, as `re` compiles it under `IGNORECASE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Literal {
    /// Uncased: matches only itself.
    Exact(char),
    /// Cased: matches any character of the same key.
    Folded(u32),
}

impl Literal {
    fn of(c: char) -> Self {
        if c.is_ascii() {
            // The ASCII letters are exactly ASCII's cased characters (tested below).
            return if c.is_ascii_alphabetic() {
                Self::Folded(literal_key(c))
            } else {
                Self::Exact(c)
            };
        }
        if is_sre_cased(c) {
            Self::Folded(literal_key(c))
        } else {
            Self::Exact(c)
        }
    }

    fn matches(self, c: char) -> bool {
        match self {
            Self::Exact(literal) => c == literal,
            Self::Folded(literal) => literal_key(c) == literal,
        }
    }
}

/// A form compiled for whole-word search; its literals only when a text needs them
/// character by character (ASCII text is decided from its ASCII lower case).
#[derive(Debug, Clone)]
pub struct Word<'f> {
    form: &'f str,
    literals: OnceCell<Vec<Literal>>,
    /// Whether the form starts / ends with a letter or digit (then that edge is checked).
    pub head: bool,
    pub tail: bool,
}

impl<'f> Word<'f> {
    pub fn new(form: &'f str) -> Self {
        Self {
            form,
            literals: OnceCell::new(),
            head: form.chars().next().is_some_and(is_alnum),
            tail: form.chars().next_back().is_some_and(is_alnum),
        }
    }

    /// The form as given.
    pub fn form(&self) -> &'f str {
        self.form
    }

    /// Whether neither edge is checked: then any substring hit is a hit.
    pub fn edgeless(&self) -> bool {
        !(self.head || self.tail)
    }

    /// Whether `text` holds the form as `form_pattern(form).search(text)` finds it.
    pub fn found_in(&self, text: &str) -> bool {
        let literals = self
            .literals
            .get_or_init(|| self.form.chars().map(Literal::of).collect());
        let chars: Vec<char> = text.chars().collect();
        let width = literals.len();
        if width > chars.len() {
            return false;
        }
        (0..=chars.len() - width).any(|start| {
            let shown = chars.get(start..start + width).is_some_and(|window| {
                window
                    .iter()
                    .zip(literals)
                    .all(|(&c, literal)| literal.matches(c))
            });
            // The edges only where the form matched (most starts fail at its first literal).
            shown && {
                let before = start.checked_sub(1).and_then(|at| chars.get(at));
                let after = chars.get(start + width);
                !((self.head && before.is_some_and(|&c| is_alnum(c)))
                    || (self.tail && after.is_some_and(|&c| is_alnum(c))))
            }
        })
    }
}

/// Whether the ASCII `text`, lower-cased (ASCII only), holds `finder`'s needle (a form
/// lower-cased, ASCII) with the edges of `word` clear: for ASCII text, `re.IGNORECASE` equals
/// comparing ASCII lower cases.
pub fn found_in_ascii(word: &Word, text: &[u8], finder: &memmem::Finder<'_>) -> bool {
    let width = finder.needle().len();
    let mut from = 0;
    while let Some(at) = text.get(from..).and_then(|rest| finder.find(rest)) {
        let start = from + at;
        let before = start.checked_sub(1).and_then(|at| text.get(at));
        let after = text.get(start + width);
        let blocked = (word.head && before.is_some_and(u8::is_ascii_alphanumeric))
            || (word.tail && after.is_some_and(u8::is_ascii_alphanumeric));
        if !blocked {
            return true;
        }
        from = start + 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{Literal, Word, found_in_ascii};
    use crate::chars::{is_alnum, is_sre_cased, literal_key};
    use memchr::memmem::Finder;

    #[test]
    fn edges_are_letters_and_digits_of_any_script() {
        assert!(is_alnum('a') && is_alnum('7') && is_alnum('é') && is_alnum('日'));
        assert!(is_alnum('²') && is_alnum('٣'));
        assert!(!is_alnum('_') && !is_alnum('-') && !is_alnum('\u{301}'));
    }

    #[test]
    fn ascii_literals_are_what_the_tables_make_of_them() {
        for c in (0u8..0x80).map(char::from) {
            let tabled = if is_sre_cased(c) {
                Literal::Folded(literal_key(c))
            } else {
                Literal::Exact(c)
            };
            assert_eq!(Literal::of(c), tabled, "{c:?}");
        }
    }

    #[test]
    fn whole_words_only_where_the_form_has_an_edge() {
        let word = Word::new("NOS-18");
        assert!(word.found_in("see nos-18."));
        assert!(!word.found_in("NOS-183"));
        assert!(word.found_in("NOS-183 and _NOS-18_"));
        assert!(Word::new("(x)").edgeless());
        assert!(!Word::new("x)").edgeless());
        assert!(Word::new("x)").found_in("(x)"));
        assert!(!Word::new("x)").found_in("ax)"));
    }

    #[test]
    fn case_follows_re_not_str_lower() {
        // re matches "s" with U+017F and "i" with U+0131 (its extra cases); str.lower not.
        assert!(Word::new("as").found_in("a\u{17f}"));
        assert!(Word::new("IS").found_in("\u{131}s"));
        // Simple lower cases, one character each: U+0130 matches "i", ß not "ss".
        assert!(Word::new("i").found_in("\u{130}"));
        assert!(Word::new("\u{1e9e}").found_in("ß"));
        assert!(Word::new("ß").found_in("\u{1e9e}"));
        assert!(!Word::new("ß").found_in("ss"));
        assert!(Word::new("\u{3c3}").found_in("\u{3c2}"));
        assert!(!Word::new("ab").found_in("a"));
    }

    #[test]
    fn a_combining_mark_is_no_edge_but_a_letter_after_it_is() {
        assert!(Word::new("e").found_in("e\u{301}"));
        assert!(!Word::new("e").found_in("ex"));
        assert!(Word::new("e").found_in("_e_"));
    }

    #[test]
    fn ascii_text_compares_ascii_lower_cases() {
        let (word, port) = (Word::new("Port"), Finder::new(b"port"));
        assert!(found_in_ascii(&word, b"the port is", &port));
        assert!(!found_in_ascii(&word, b"ports", &port));
        assert!(found_in_ascii(&word, b"ports port_", &port));
        let (word, nana) = (Word::new("ana"), Finder::new(b"ana"));
        assert!(found_in_ascii(&word, b"banana ana", &nana)); // overlapping hits all tried
        assert!(!found_in_ascii(&word, b"bananas", &nana));
    }
}
