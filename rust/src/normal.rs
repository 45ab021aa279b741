//! Unicode normalisation with the building interpreter's `unicodedata` (NFC, NFD, and a
//! text without its combining marks): the extra forms a claim with non-ASCII characters is
//! shown by (claims/_scan.py `_unicode_variants`). The tables come from CPython
//! (char_tables.py); Hangul syllables are decomposed and composed by rule.

use std::cmp::Ordering;

use crate::chars::{self, is_normal};

const S_BASE: u32 = 0xAC00;
const L_BASE: u32 = 0x1100;
const V_BASE: u32 = 0x1161;
const T_BASE: u32 = 0x11A7;
const L_COUNT: u32 = 19;
const V_COUNT: u32 = 21;
const T_COUNT: u32 = 28;
const N_COUNT: u32 = V_COUNT * T_COUNT;
const S_COUNT: u32 = L_COUNT * N_COUNT;

/// `unicodedata.combining(c)`: the canonical combining class.
pub fn combining(c: char) -> u8 {
    if c.is_ascii() {
        return 0;
    }
    let code = u32::from(c);
    chars::tables::COMBINING
        .binary_search_by_key(&code, |&(from, _)| from)
        .ok()
        .and_then(|at| chars::tables::COMBINING.get(at))
        .map_or(0, |&(_, class)| class)
}

fn decompose_into(c: char, out: &mut Vec<char>) {
    let code = u32::from(c);
    if (S_BASE..S_BASE + S_COUNT).contains(&code) {
        let index = code - S_BASE;
        let jamo = [
            L_BASE + index / N_COUNT,
            V_BASE + (index % N_COUNT) / T_COUNT,
            T_BASE + index % T_COUNT,
        ];
        let trailing = index % T_COUNT != 0;
        out.extend(
            jamo.iter()
                .take(if trailing { 3 } else { 2 })
                .filter_map(|&j| char::from_u32(j)),
        );
        return;
    }
    match chars::tables::DECOMPOSE.binary_search_by_key(&code, |&(from, _)| from) {
        Ok(at) => match chars::tables::DECOMPOSE.get(at) {
            Some(&(_, text)) => out.extend(text.chars()),
            None => out.push(c),
        },
        Err(_) => out.push(c),
    }
}

/// `unicodedata.normalize("NFD", text)`, as characters.
fn nfd_chars(text: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        decompose_into(c, &mut out);
    }
    // Canonical order: each run of marks sorted by class, stably.
    let mut start = 0;
    while start < out.len() {
        let Some(run) = out.get(start..) else { break };
        let marks = run.iter().take_while(|&&c| combining(c) != 0).count();
        if marks > 1 {
            if let Some(slice) = out.get_mut(start..start + marks) {
                slice.sort_by_key(|&c| combining(c));
            }
        }
        start += marks.max(1);
    }
    out
}

fn compose_pair(first: char, second: char) -> Option<char> {
    let (a, b) = (u32::from(first), u32::from(second));
    if (L_BASE..L_BASE + L_COUNT).contains(&a) && (V_BASE..V_BASE + V_COUNT).contains(&b) {
        return char::from_u32(S_BASE + ((a - L_BASE) * V_COUNT + (b - V_BASE)) * T_COUNT);
    }
    let syllable = (S_BASE..S_BASE + S_COUNT).contains(&a) && (a - S_BASE) % T_COUNT == 0;
    if syllable && (T_BASE + 1..T_BASE + T_COUNT).contains(&b) {
        return char::from_u32(a + (b - T_BASE));
    }
    let table = &chars::tables::COMPOSE;
    let at = table
        .binary_search_by(|&(pair, _)| pair.cmp(&(a, b)).then(Ordering::Equal))
        .ok()?;
    table.get(at).and_then(|&(_, to)| char::from_u32(to))
}

/// `unicodedata.normalize("NFD", text)`.
pub fn nfd(text: &str) -> String {
    nfd_chars(text).into_iter().collect()
}

/// `unicodedata.normalize("NFC", text)`.
pub fn nfc(text: &str) -> String {
    let mut out: Vec<char> = Vec::with_capacity(text.len());
    let mut starter: Option<usize> = None;
    // The class of the last character kept after the starter; `None`: it is the starter.
    let mut last: Option<u8> = None;
    for c in nfd_chars(text) {
        let class = combining(c);
        let open = last.is_none_or(|last| last < class);
        if let (Some(at), true) = (starter, open) {
            if let Some(slot) = out.get_mut(at) {
                if let Some(composed) = compose_pair(*slot, c) {
                    *slot = composed;
                    continue;
                }
            }
        }
        if class == 0 {
            starter = Some(out.len());
            last = None;
        } else {
            last = Some(class);
        }
        out.push(c);
    }
    out.into_iter().collect()
}

/// `_unicode_variants(form)`: its NFC, its NFD and its NFD without combining marks.
pub fn unicode_variants(form: &str) -> [String; 3] {
    if form.chars().all(is_normal) {
        return [form.to_owned(), form.to_owned(), form.to_owned()];
    }
    let decomposed = nfd_chars(form);
    let bare = decomposed.iter().filter(|&&c| combining(c) == 0).collect();
    [nfc(form), decomposed.into_iter().collect(), bare]
}

#[cfg(test)]
mod tests {
    use super::{nfc, nfd, unicode_variants};

    #[test]
    fn accents_compose_decompose_and_go() {
        assert_eq!(nfd("Caf\u{e9}"), "Cafe\u{301}");
        assert_eq!(nfc("Cafe\u{301}"), "Caf\u{e9}");
        let [composed, decomposed, bare] = unicode_variants("Angoul\u{ea}me");
        assert_eq!(composed, "Angoul\u{ea}me");
        assert_eq!(decomposed, "Angoule\u{302}me");
        assert_eq!(bare, "Angouleme");
    }

    #[test]
    fn marks_are_put_in_canonical_order_and_blocked_ones_stay() {
        // Dot below (220) sorts before the acute (230), whatever the written order.
        assert_eq!(nfd("e\u{301}\u{323}"), "e\u{323}\u{301}");
        assert_eq!(nfc("e\u{301}\u{323}"), "\u{1eb9}\u{301}");
        // Two acutes: the second is blocked by the first (same class) once it composed.
        assert_eq!(nfc("e\u{301}\u{301}"), "\u{e9}\u{301}");
    }

    #[test]
    fn hangul_by_rule_and_singletons_never_come_back() {
        assert_eq!(nfd("\u{d55c}"), "\u{1112}\u{1161}\u{11ab}");
        assert_eq!(nfc("\u{1112}\u{1161}\u{11ab}"), "\u{d55c}");
        assert_eq!(nfc("\u{212b}"), "\u{c5}"); // the angstrom sign is A with ring
        assert_eq!(nfc("\u{2000}"), "\u{2002}");
    }
}
