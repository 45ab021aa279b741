//! Whole-word matching with the exact semantics of the building interpreter's `re`.
//!
//! The reference is `tracegrade._text.form_pattern`: `(?<![^\W_])FORM(?![^\W_])` with
//! `re.IGNORECASE`, the edges only where the form starts (ends) with a letter or digit. An
//! edge tests `str.isalnum` of the neighbouring character as it is; each character of the form
//! is a literal that `re` matches case-insensitively by its *simple* lower case and the extra
//! equivalents it lists (`s` and U+017F...), not by `str.lower`. The tables come from the
//! interpreter (build.rs runs word_tables.py, which checks them against `re` first).

use memchr::memmem;

mod tables {
    include!(concat!(env!("OUT_DIR"), "/word_tables.rs"));
}

fn in_ranges(ranges: &[(u32, u32)], code: u32) -> bool {
    ranges
        .binary_search_by(|&(start, end)| {
            if end < code {
                std::cmp::Ordering::Less
            } else if start > code {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

fn mapped(pairs: &[(u32, u32)], code: u32) -> u32 {
    pairs
        .binary_search_by_key(&code, |&(from, _)| from)
        .ok()
        .and_then(|found| pairs.get(found))
        .map_or(code, |&(_, to)| to)
}

/// `str.isalnum()` of one character (what `[^\W_]` matches).
pub fn is_alnum(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    in_ranges(&tables::ALNUM, u32::from(c))
}

/// What `re.IGNORECASE` compares a character of the text by, against a cased literal.
fn key(c: char) -> u32 {
    let code = u32::from(c);
    if let Some(&key) = usize::try_from(code)
        .ok()
        .and_then(|at| tables::ASCII_KEY.get(at))
    {
        return key;
    }
    mapped(&tables::SRE_GROUP, mapped(&tables::SRE_LOWER, code))
}

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
        if in_ranges(&tables::SRE_CASED, u32::from(c)) {
            Self::Folded(key(c))
        } else {
            Self::Exact(c)
        }
    }

    fn matches(self, c: char) -> bool {
        match self {
            Self::Exact(literal) => c == literal,
            Self::Folded(literal) => key(c) == literal,
        }
    }
}

/// A form compiled for whole-word search.
#[derive(Debug)]
pub struct Word {
    literals: Vec<Literal>,
    /// Whether the form starts / ends with a letter or digit (then that edge is checked).
    pub head: bool,
    pub tail: bool,
}

impl Word {
    pub fn new(form: &str) -> Self {
        Self {
            literals: form.chars().map(Literal::of).collect(),
            head: form.chars().next().is_some_and(is_alnum),
            tail: form.chars().next_back().is_some_and(is_alnum),
        }
    }

    /// Whether neither edge is checked: then any substring hit is a hit.
    pub fn edgeless(&self) -> bool {
        !(self.head || self.tail)
    }

    /// Whether `text` holds the form as `form_pattern(form).search(text)` finds it.
    pub fn found_in(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        let width = self.literals.len();
        if width > chars.len() {
            return false;
        }
        (0..=chars.len() - width).any(|start| {
            let shown = chars.get(start..start + width).is_some_and(|window| {
                window
                    .iter()
                    .zip(&self.literals)
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
    use super::{Word, found_in_ascii, is_alnum};
    use memchr::memmem::Finder;

    #[test]
    fn edges_are_letters_and_digits_of_any_script() {
        assert!(is_alnum('a') && is_alnum('7') && is_alnum('é') && is_alnum('日'));
        assert!(is_alnum('²') && is_alnum('٣'));
        assert!(!is_alnum('_') && !is_alnum('-') && !is_alnum('\u{301}'));
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
