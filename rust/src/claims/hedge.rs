//! Hedged sentences (claims/_scan.py `_hedged_spans`, `mark_hedged`) and the answer's own
//! layout labels (`_label_lines`: Markdown headings and table header rows).

use super::Claim;
use super::lexicon::Lexicon;
use super::text::{WordUnit, at, boundary, is, run, starts_str, words_at};
use crate::chars::is_space;
use crate::lower::lower;

/// The sentences of `answer` that hold a hedge word, as `(start, end)` code-point spans.
pub fn hedged_spans(answer: &str, lexicon: &Lexicon) -> Vec<(usize, usize)> {
    if answer.is_ascii() {
        // Bytes are code points, and the lower case is the ASCII one, whose words start
        // where the answer's do.
        let t = answer.as_bytes();
        let starts = word_starts(t);
        return spans(t, &t.to_ascii_lowercase(), [&starts, &starts], lexicon);
    }
    let t: Vec<char> = answer.chars().collect();
    let lowered: Vec<char> = lower(answer).chars().collect();
    // A rare character whose lower case is longer: the reference matches the answer itself.
    let lowered = if lowered.len() == t.len() {
        lowered
    } else {
        t.clone()
    };
    let (lowered_starts, starts) = (word_starts(&lowered), word_starts(&t));
    spans(&t, &lowered, [&lowered_starts, &starts], lexicon)
}

/// Where each word of `t` starts: a word character with none before it. `\b` before a
/// word character holds there only, so only there can a hedge or "may" match.
fn word_starts<U: WordUnit>(t: &[U]) -> Vec<usize> {
    let mut starts = Vec::with_capacity(t.len() / 2 + 1); // a word and a space at least
    let mut before = false;
    for (index, unit) in t.iter().enumerate() {
        let word = unit.is_word();
        if word && !before {
            starts.push(index);
        }
        before = word;
    }
    starts
}

/// The spans, from the word starts of `lowered` (hedges) and of `t` ("may").
fn spans<U: WordUnit>(
    t: &[U],
    lowered: &[U],
    [lowered_starts, starts]: [&[usize]; 2],
    lexicon: &Lexicon,
) -> Vec<(usize, usize)> {
    let mut hedges = Vec::new();
    let mut after = 0; // the end of the last hedge: the search goes on from there
    for &index in lowered_starts {
        if index < after {
            continue; // inside a hedge of several words
        }
        let found = words_at(lowered, index, &lexicon.hedges)
            .map(|length| index + length)
            .find(|&end| boundary(lowered, end));
        if let Some(end) = found {
            hedges.push((index, end));
            after = end;
        }
    }
    for &index in starts {
        if starts_str(t, index, "may") && boundary(t, index + 3) {
            hedges.push((index, index + 3));
        }
    }
    hedges.sort_by_key(|&(start, _)| start);
    let mut spans: Vec<(usize, usize)> = Vec::new();
    // Swept once, as hedges come in order: where the sentence and the line before them start.
    let (mut swept, mut marks, mut sentence, mut line) = (0, 0, 0, 0);
    for (start, end) in hedges {
        if spans.last().is_some_and(|&(_, last)| start < last) {
            continue;
        }
        while swept < start {
            if at(t, swept) == Some('\n') {
                line = swept + 1;
            }
            swept += 1;
        }
        // ". " and the like wholly before the hedge (rfind over `answer[:start]`).
        while marks + 2 <= start {
            if is(t, marks, |c| ".!?".contains(c)) && at(t, marks + 1) == Some(' ') {
                sentence = marks + 2;
            }
            marks += 1;
        }
        let closing = (end..t.len()).find(|&i| {
            at(t, i) == Some('\n') || (is(t, i, |c| ".!?".contains(c)) && is(t, i + 1, is_space))
        });
        spans.push((sentence.max(line), closing.map_or(t.len(), |i| i + 1)));
    }
    spans
}

/// `mark_hedged()`: the claims whose start lies in a hedged sentence are marked.
pub fn mark_hedged(claims: &mut [Claim], spans: &[(usize, usize)]) {
    for claim in claims {
        let at = spans.partition_point(|&(start, _)| start <= claim.start);
        if let Some(&(_, end)) = at.checked_sub(1).and_then(|i| spans.get(i)) {
            if claim.start < end {
                claim.hedged = true;
            }
        }
    }
}

fn blanks(t: &[char], p: usize) -> usize {
    run(t, p, |c| c == ' ' || c == '\t')
}

/// `_label_lines()`: headings and table header rows, as `(start, end)` spans.
pub fn label_lines(t: &[char]) -> Vec<(usize, usize)> {
    if !t.iter().any(|&c| c == '#' || c == '|') {
        return Vec::new();
    }
    let mut labels = Vec::new();
    let mut start = 0;
    while start <= t.len() {
        let end = (start..t.len())
            .find(|&i| at(t, i) == Some('\n'))
            .unwrap_or(t.len());
        let indent = blanks(t, start);
        let hashes = run(t, indent, |c| c == '#');
        if (1..=6).contains(&(hashes - indent)) && is(t, hashes, |c| c == ' ' || c == '\t') {
            labels.push((start, end));
        } else if at(t, indent) == Some('|') && end < t.len() {
            let mut last = end;
            while last > indent && is(t, last - 1, |c| c == ' ' || c == '\t') {
                last -= 1;
            }
            let next = blanks(t, end + 1);
            let rule = run(t, next + 1, |c| " \t:|-".contains(c));
            let ruled = at(t, next) == Some('|') && (next + 1..rule).any(|i| at(t, i) == Some('-'));
            if last > indent + 1 && at(t, last - 1) == Some('|') && ruled {
                labels.push((start, end));
            }
        }
        start = end + 1;
    }
    labels
}

#[cfg(test)]
mod tests {
    use super::{hedged_spans, spans, word_starts};
    use crate::claims::lexicon::sample::lexicon;

    #[test]
    fn a_hedge_marks_its_sentence_in_any_case_and_may_only_in_lower_case() {
        let lexicon = lexicon();
        let found = |answer: &str| hedged_spans(answer, &lexicon);
        assert_eq!(found("It is done. LIKELY in a/b.py! Next"), [(12, 29)]);
        assert_eq!(found("Done.\nIt may be x"), [(6, 17)]);
        assert_eq!(found("In May it rains."), []);
        assert_eq!(found("unlikely, likelyx, mayor, x_might"), []);
        assert_eq!(found("Café: it is likely here."), [(0, 24)]);
    }

    #[test]
    fn an_ascii_answer_read_as_bytes_gives_the_spans_of_its_code_points() {
        let lexicon = lexicon();
        for answer in [
            "It is done. LIKELY in a/b.py! Next",
            "Likely. may? Might\nmay",
            "x may.y might_ MIGHT likely",
            "",
            "may",
        ] {
            let chars: Vec<char> = answer.chars().collect();
            let lowered: Vec<char> = answer.to_lowercase().chars().collect();
            let (lowered_starts, starts) = (word_starts(&lowered), word_starts(&chars));
            assert_eq!(
                hedged_spans(answer, &lexicon),
                spans(&chars, &lowered, [&lowered_starts, &starts], &lexicon),
                "{answer:?}"
            );
        }
    }
}
