//! The alternatives of the reference's one pattern (claims/_scan.py `_PATTERN`), each as
//! code that tries the regex's paths in the regex's order: greedy loops longest first,
//! word tries longest word first, possessive runs without backtracking, lookarounds as
//! tests of the characters around. [`shape_at`] is the whole pattern at one position.

mod code;
mod prose;

use super::lexicon::Lexicon;
use super::names::name_run;
use super::text::{
    Words, at, before_is, boundary, is, run, run_at_most, starts_str, word, words_at,
};
use crate::chars::{is_space, is_word};
use code::{camel, domain, dotted, email, extension, file, id, iso, path, snake, url};
use prose::{bounded_word, day_month, month_day, ordinal, quantity, score, time};

pub type Span = (usize, usize);

/// What matched at a position; `end` is where the match ends.
pub enum Shape {
    Fence,
    /// A backtick, quote or single quote whose body ends at `body_end` (the closing mark).
    Enclosed {
        body_end: usize,
        tick: bool,
    },
    Url,
    Email,
    Iso,
    /// A path, or a URL without its scheme (the builder decides).
    Path,
    File,
    Extension,
    Domain,
    Identifier,
    Id,
    MonthDay {
        month: Span,
        day: Span,
    },
    Time {
        hour: Span,
        minute: Option<Span>,
        meridiem: Option<Span>,
    },
    Month,
    Weekday,
    Ordinal,
    Score,
    Quantity {
        number: Span,
        noun: Span,
        digits: bool,
    },
    Name,
}

pub(super) fn ascii_lower(c: char) -> bool {
    c.is_ascii_lowercase()
}

/// `_NOT_AFTER`: `(?<![\w.,:$€£¥@/\\-])`.
pub(super) fn not_after(t: &[char], p: usize) -> bool {
    !before_is(t, p, |c| {
        is_word(c)
            || matches!(
                c,
                '.' | ',' | ':' | '$' | '€' | '£' | '¥' | '@' | '/' | '\\' | '-'
            )
    })
}

/// A body of 1 to `most` characters from `p + 1`, none of them in `excluded` or a line
/// break, then one of `closers`: where the body ends.
fn body(t: &[char], p: usize, excluded: &str, closers: &str, most: usize) -> Option<usize> {
    let body_end = run_at_most(t, p + 1, most.saturating_add(1), |c| {
        c != '\n' && !excluded.contains(c)
    });
    let length = body_end - (p + 1);
    ((1..=most).contains(&length) && is(t, body_end, |c| closers.contains(c))).then_some(body_end)
}

/// The tick, quote and single-quote shapes: only the opening mark is consumed (the body is a
/// lookahead), so the scan still reads inside. The body's end, and whether it is a tick.
fn enclosing(t: &[char], p: usize) -> Option<(usize, bool)> {
    match at(t, p)? {
        '`' => body(t, p, "`", "`", usize::MAX).map(|end| (end, true)),
        '"' | '\u{201c}' => {
            body(t, p, "\"\u{201c}\u{201d}", "\"\u{201d}", 300).map(|end| (end, false))
        }
        '\'' | '\u{2018}' if !before_is(t, p, is_word) => {
            let end = body(t, p, "'\u{2018}\u{2019}", "'\u{2019}", 100)?;
            (!word(t, end + 1)).then_some((end, false))
        }
        _ => None,
    }
}

fn fence(t: &[char], p: usize) -> Option<usize> {
    if !starts_str(t, p, "```") {
        return None;
    }
    let mut index = p + 3;
    while index < t.len() {
        if starts_str(t, index, "```") {
            return Some(index + 3);
        }
        index += 1;
    }
    Some(t.len())
}

/// What `(?:SPELLED|_ORDINAL_WORD)\b` and the like test: one of `words` at `p`, then `\b`.
fn word_then_boundary(t: &[char], p: usize, words: &Words) -> bool {
    words_at(t, p, words).any(|length| boundary(t, p + length))
}

/// The pattern's first test: no shape starts after a word character or a combining accent
/// (so inside a word).
pub fn after_word(t: &[char], p: usize) -> bool {
    before_is(t, p, |c| is_word(c) || ('\u{300}'..='\u{36f}').contains(&c))
}

/// The pattern's first tests: no shape starts at `p` unless they pass.
fn may_start(t: &[char], p: usize, lexicon: &Lexicon) -> bool {
    if after_word(t, p) {
        return false;
    }
    if !is(t, p, |c| {
        is_word(c)
            || matches!(
                c,
                '`' | '"' | '\'' | '\u{2018}' | '\u{201c}' | '.' | '/' | '~'
            )
    }) {
        return false;
    }
    if !is(t, p, ascii_lower) {
        return true;
    }
    let end = run(t, p, ascii_lower);
    let plain_word = end == t.len()
        || is(t, end, |c| is_space(c) || ",;!?)]\"\u{201d}".contains(c))
        || (at(t, end) == Some('.') && (end + 1 == t.len() || is(t, end + 1, is_space)));
    !plain_word || word_then_boundary(t, p, &lexicon.counting_words)
}

/// `_PLAIN_CAPITAL`: a capitalised word that is no month, weekday, number or ordinal word.
fn plain_capital(t: &[char], p: usize, lexicon: &Lexicon) -> bool {
    if !is(t, p, |c| c.is_ascii_uppercase()) {
        return false;
    }
    if word_then_boundary(t, p, &lexicon.named_words) {
        return false;
    }
    let end = run(t, p + 1, ascii_lower);
    end > p + 1
        && (end == t.len()
            || is(t, end, |c| is_space(c) || ",;:!?)]\"\u{201d}".contains(c))
            || (at(t, end) == Some('.') && (end + 1 == t.len() || is(t, end + 1, is_space))))
}

/// The pattern at `p`: the first alternative that matches, and where it ends.
pub fn shape_at(t: &[char], p: usize, lexicon: &Lexicon) -> Option<(usize, Shape)> {
    if !may_start(t, p, lexicon) {
        return None;
    }
    if plain_capital(t, p, lexicon) {
        if let Some(end) = name_run(t, p, lexicon) {
            return Some((end, Shape::Name));
        }
    }
    let simple = |end: Option<usize>, shape: Shape| end.map(|e| (e, shape));
    if let Some(end) = fence(t, p) {
        return Some((end, Shape::Fence));
    }
    if let Some((body_end, tick)) = enclosing(t, p) {
        return Some((p + 1, Shape::Enclosed { body_end, tick }));
    }
    let code = || {
        simple(url(t, p), Shape::Url)
            .or_else(|| simple(email(t, p), Shape::Email))
            .or_else(|| simple(iso(t, p), Shape::Iso))
            .or_else(|| simple(path(t, p), Shape::Path))
            .or_else(|| simple(file(t, p, lexicon), Shape::File))
            .or_else(|| simple(extension(t, p), Shape::Extension))
            .or_else(|| simple(domain(t, p, lexicon), Shape::Domain))
            .or_else(|| simple(snake(t, p), Shape::Identifier))
            .or_else(|| simple(dotted(t, p), Shape::Identifier))
            .or_else(|| simple(camel(t, p), Shape::Identifier))
            .or_else(|| simple(id(t, p), Shape::Id))
    };
    code()
        .or_else(|| month_day(t, p, lexicon))
        .or_else(|| day_month(t, p, lexicon))
        .or_else(|| time(t, p))
        .or_else(|| simple(bounded_word(t, p, &lexicon.full_months), Shape::Month))
        .or_else(|| simple(bounded_word(t, p, &lexicon.weekdays), Shape::Weekday))
        .or_else(|| simple(ordinal(t, p, lexicon), Shape::Ordinal))
        .or_else(|| simple(score(t, p), Shape::Score))
        .or_else(|| quantity(t, p, lexicon))
        .or_else(|| simple(name_run(t, p, lexicon), Shape::Name))
}

#[cfg(test)]
mod tests {
    use super::{Shape, shape_at};
    use crate::claims::lexicon::sample::lexicon;

    fn at(text: &str, p: usize) -> Option<(usize, &'static str)> {
        let chars: Vec<char> = text.chars().collect();
        let kind = |shape: &Shape| match shape {
            Shape::Time { .. } => "time",
            Shape::File => "file",
            Shape::Path => "path",
            Shape::Identifier => "identifier",
            Shape::Id => "id",
            Shape::Name => "name",
            Shape::Enclosed { .. } => "enclosed",
            _ => "other",
        };
        shape_at(&chars, p, &lexicon()).map(|(end, shape)| (end, kind(&shape)))
    }

    #[test]
    fn hours_stop_at_23_and_a_time_needs_minutes_or_a_meridiem() {
        assert_eq!(at("23:59", 0), Some((5, "time")));
        assert_eq!(at("2 pm", 0), Some((4, "time")));
        assert_ne!(at("24:00", 0).map(|f| f.1), Some("time"));
        assert_ne!(at("10:305", 0).map(|f| f.1), Some("time"));
    }

    #[test]
    fn a_file_name_backtracks_to_its_last_known_extension() {
        // ".zz" is no extension, and ".py" followed by ".z" is inside a longer name.
        assert_eq!(at("a.b.py.zz", 0), None);
        assert_eq!(at("a.b.py.-x", 0), Some((6, "file")));
        assert_eq!(at("config.ts", 0), Some((9, "file")));
        assert_eq!(at("x.tsx", 0), None); // not an extension of this lexicon
    }

    #[test]
    fn a_call_is_dropped_when_a_word_follows_it() {
        assert_eq!(at("os.path()x", 0), Some((7, "identifier")));
        assert_eq!(at("os.path()", 0), Some((9, "identifier")));
    }

    #[test]
    fn a_capital_word_ends_before_an_accent_when_a_word_character_follows() {
        // "Jose\u{301}_x": the whole word is followed by `_`, so the word gives up its accent.
        assert_eq!(at("Jose\u{301}_x", 0), Some((4, "name")));
        assert_eq!(at("Jose\u{301} x", 0), Some((5, "name")));
    }
}
