//! Hedged sentences (claims/_scan.py `_hedged_spans`, `mark_hedged`) and the answer's own
//! layout labels (`_label_lines`: Markdown headings and table header rows).

use super::Claim;
use super::chars::{is_space, is_word};
use super::lexicon::Lexicon;
use super::text::{at, before_is, boundary, is, run, starts_str, words_at};
use crate::lower::lower;

/// The sentences that hold a hedge word, as `(start, end)` code-point spans.
pub fn hedged_spans(t: &[char], lexicon: &Lexicon) -> Vec<(usize, usize)> {
    let text: String = t.iter().collect();
    let lowered: Vec<char> = lower(&text).chars().collect();
    // A rare character whose lower case is longer: the reference matches the answer itself.
    let lowered = if lowered.len() == t.len() {
        lowered
    } else {
        t.to_vec()
    };
    let mut hedges = Vec::new();
    let mut index = 0;
    while index < lowered.len() {
        // Every hedge starts with a letter: `\b` before it means no word character before.
        let found = (!before_is(&lowered, index, is_word))
            .then(|| {
                words_at(&lowered, index, &lexicon.hedges)
                    .map(|length| index + length)
                    .find(|&end| boundary(&lowered, index) && boundary(&lowered, end))
            })
            .flatten();
        match found {
            Some(end) => {
                hedges.push((index, end));
                index = end;
            }
            None => index += 1,
        }
    }
    let mut index = 0;
    while index < t.len() {
        if boundary(t, index) && starts_str(t, index, "may") && boundary(t, index + 3) {
            hedges.push((index, index + 3));
            index += 3;
        } else {
            index += 1;
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
