use super::{Joined, TextIndex};

fn index(pieces: &[&str], counts: &[usize]) -> TextIndex {
    match TextIndex::new(pieces.iter().copied(), counts) {
        Ok(index) => index,
        Err(error) => unreachable!("{}", error.message),
    }
}

#[test]
fn finds_each_entry_once_across_segments() {
    let mut idx = index(&["Alpha\nbeta alpha", "", "ALPHA"], &[2, 0, 1]);
    assert_eq!(idx.search("alpha"), Some(vec![(0, 0), (0, 1), (2, 0)]));
    assert_eq!(idx.search("Beta"), Some(vec![(0, 1)]));
    assert_eq!(idx.search("gamma"), Some(vec![]));
    assert_eq!(idx.total(), 3);
}

#[test]
fn line_breaks_and_nul_in_needles_are_left_to_the_caller() {
    let mut idx = index(&["a\nb"], &[2]);
    assert_eq!(idx.search("a\nb"), None);
    assert_eq!(idx.search("a\rb"), None);
    assert_eq!(idx.search("\0"), None);
}

#[test]
fn empty_needle_finds_every_entry() {
    let mut idx = index(&["x\ny", "z"], &[2, 1]);
    assert_eq!(idx.search(""), Some(vec![(0, 0), (0, 1), (1, 0)]));
    let mut empty = index(&[], &[]);
    assert_eq!(empty.search(""), Some(vec![]));
}

#[test]
fn dotted_capital_i_takes_the_unicode_path() {
    // "İ" lower-cases to "i̇": an ASCII "i" appears only after full lower-casing.
    let mut idx = index(&["\u{130}x", "\u{212a}m"], &[1, 1]);
    assert_eq!(idx.search("i"), Some(vec![(0, 0)]));
    assert_eq!(idx.search("KM"), Some(vec![(1, 0)]));
}

#[test]
fn whole_words_are_checked_in_the_entry_they_were_found_in() {
    let mut idx = index(&["port 80\nports", "", "PORT\nsupport"], &[2, 0, 2]);
    assert_eq!(idx.find_word("Port"), Some(vec![(0, 0), (2, 0)]));
    assert_eq!(idx.find_word("or"), Some(vec![]));
    // No letter or digit at either end: every substring hit counts.
    assert_eq!(idx.find_word(" "), Some(vec![(0, 0)]));
    assert_eq!(idx.find_word("a\nb"), None);
}

#[test]
fn many_forms_at_once_find_what_each_finds_alone() {
    let pieces = ["port 80\nports", "", "PORT\nsupport \u{e9}t\u{c9}", "sup"];
    let counts = [2, 0, 2, 1];
    let forms = [
        "port",
        "Port",
        "or",
        "sup",
        "\u{c9}T\u{e9}",
        "",
        "a\nb",
        "zzz",
        "p",
    ];
    let mut many = index(&pieces, &counts);
    let together = many.find_words(&forms);
    for (form, found) in forms.iter().zip(together) {
        let mut alone = index(&pieces, &counts);
        assert_eq!(found, alone.find_word(form), "{form}");
        assert_eq!(many.search(form), alone.search(form), "{form}");
    }
}

#[test]
fn whole_words_at_entry_edges_among_prefixes_overlaps_and_repeats() {
    let pieces = [
        "port\nsupport port\nportable\n\u{e9}port\nport\u{eb} port\nbanana\nnan ana",
        "PORTS\ncaf\u{e9}\nna\u{ef}ve na",
    ];
    let counts = [7, 3];
    // A form that is a prefix of another, one that ends inside it, a repeat in another
    // case, overlapping hits ("ana" in "banana"), non-ASCII letters as edges.
    let forms = [
        "port",
        "por",
        " port",
        "PORT",
        "port",
        "ana",
        "caf",
        "CAF\u{c9}",
        "na",
    ];
    let expected: [&[(usize, usize)]; 9] = [
        &[(0, 0), (0, 1), (0, 4)], // at an entry's start and end, after "support"
        &[],
        &[(0, 1), (0, 4)], // no edge at its start: only the end is checked
        &[(0, 0), (0, 1), (0, 4)],
        &[(0, 0), (0, 1), (0, 4)],
        &[(0, 6)],
        &[], // "é" is a letter
        &[(1, 1)],
        &[(1, 2)], // "ï" is a letter: only the last "na"
    ];
    let mut many = index(&pieces, &counts);
    let together = many.find_words(&forms);
    for ((form, found), expected) in forms.iter().zip(together).zip(expected) {
        assert_eq!(found.as_deref(), Some(expected), "{form:?}");
        let mut alone = index(&pieces, &counts);
        assert_eq!(alone.find_word(form).as_deref(), Some(expected), "{form:?}");
    }
    // The substring hits under them are every entry holding the form.
    assert_eq!(
        many.search("por"),
        Some(vec![(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (1, 0)])
    );
}

#[test]
fn whole_words_in_non_ascii_entries_follow_re() {
    // "ſ" (U+017F) is an "s" to re.IGNORECASE, not to str.lower: the substring hit
    // "xas" is inside a word, the whole word "aſ" is another spelling.
    let mut idx = index(&["xas a\u{17f}", "caf\u{e9}s caf\u{c9}"], &[1, 1]);
    assert_eq!(idx.find_word("as"), Some(vec![(0, 0)]));
    assert_eq!(idx.find_word("CAF\u{c9}"), Some(vec![(1, 0)]));
    assert_eq!(idx.find_word("caf"), Some(vec![]));
}

#[test]
fn mismatched_lengths_say_what_zip_says() {
    let short = TextIndex::new(["a"].into_iter(), &[1, 1]).err();
    assert_eq!(
        short.map(|e| e.message),
        Some(String::from("zip() argument 2 is longer than argument 1"))
    );
}

#[test]
fn an_all_ascii_index_answers_as_one_that_keeps_its_text() {
    // The first is joined lower-cased only; one non-ASCII entry keeps the second as given.
    let mut ascii = index(&["Kilo\ncafe\nPORT 80", "OK"], &[3, 1]);
    let mut mixed = index(&["Kilo\ncafe\nPORT 80", "OK", "\u{e9}"], &[3, 1, 1]);
    for needle in ["k", "\u{212a}", "CAF\u{c9}", "port 8", "OK"] {
        assert_eq!(ascii.search(needle), mixed.search(needle), "{needle:?}");
    }
    for form in ["\u{212a}ilo", "kil", "Port", "80", "caf\u{e9}", "ok"] {
        assert_eq!(ascii.find_word(form), mixed.find_word(form), "{form:?}");
    }
    // KELVIN SIGN lower-cases to "k"; "é" is in no ASCII entry.
    assert_eq!(ascii.search("\u{212a}"), Some(vec![(0, 0), (1, 0)]));
    assert_eq!(ascii.search("CAF\u{c9}"), Some(vec![]));
    assert_eq!(ascii.find_word("port"), Some(vec![(0, 2)]));
}

#[test]
fn a_dotted_capital_i_in_any_piece_sends_ascii_needles_to_the_full_lower_case() {
    // The first piece ASCII, the second not ASCII but without either character.
    let mut idx = index(&["plain", "caf\u{e9}", "\u{130}x\n\u{212a}m"], &[1, 1, 2]);
    assert_eq!(idx.search("i"), Some(vec![(0, 0), (2, 0)]));
    assert_eq!(idx.search("km"), Some(vec![(2, 1)]));
    assert_eq!(idx.find_word("KM"), Some(vec![(2, 1)]));
    let mut without = index(&["plain", "caf\u{e9}"], &[1, 1]);
    assert_eq!(without.search("i"), Some(vec![(0, 0)]));
}

#[test]
fn entries_written_one_by_one_keep_their_line_breaks_inside() {
    // A segment of two entries, one holding CR and LF (written as NUL), an empty segment,
    // an empty first entry of the next: entry numbers count entries, not lines.
    let mut joined = Joined::with_capacity(0);
    joined.segment(2);
    joined.entry("Alpha\r\nBeta");
    joined.entry("gamma");
    joined.segment(0);
    joined.segment(3);
    joined.entry("");
    joined.text("Delta\n\u{e9}psilon");
    // Entries last: lower-cased, and looked at for non-ASCII, when the index is made.
    joined.segment(2);
    joined.entry("\u{212a}M");
    joined.entry("\u{c9}T\u{c9}\nZ");
    let mut idx = joined.index();
    assert_eq!(idx.total(), 7);
    assert_eq!(idx.search("km"), Some(vec![(3, 0)]));
    assert_eq!(idx.search("\u{e9}t\u{e9}"), Some(vec![(3, 1)]));
    assert_eq!(idx.search("z"), Some(vec![(3, 1)]));
    assert_eq!(idx.search("beta"), Some(vec![(0, 0)]));
    assert_eq!(idx.search("GAMMA"), Some(vec![(0, 1)]));
    assert_eq!(idx.search("delta"), Some(vec![(2, 1)]));
    assert_eq!(idx.search("\u{c9}PSILON"), Some(vec![(2, 2)]));
    assert_eq!(
        idx.search(""),
        Some(vec![(0, 0), (0, 1), (2, 0), (2, 1), (2, 2), (3, 0), (3, 1)])
    );
}

#[test]
fn non_ascii_entries_are_searched_in_their_ascii_lower_case_alone() {
    // Only the ASCII lower case is kept: the full lower case (a non-ASCII needle) and the
    // whole-word test of a non-ASCII entry are made from it.
    let mut idx = index(&["\u{c9}T\u{c9} PORT\nXS AΣ", "Port"], &[2, 1]);
    assert_eq!(idx.search("\u{e9}t\u{e9} port"), Some(vec![(0, 0)]));
    assert_eq!(idx.search("PORT"), Some(vec![(0, 0), (1, 0)]));
    assert_eq!(idx.find_word("port"), Some(vec![(0, 0), (1, 0)]));
    assert_eq!(idx.find_word("\u{c9}t\u{e9}"), Some(vec![(0, 0)]));
    assert_eq!(idx.find_word("\u{e9}T"), Some(vec![]));
    // The final sigma: after a cased letter, whatever its case.
    assert_eq!(idx.search("a\u{3c2}"), Some(vec![(0, 1)]));
    assert_eq!(idx.search("a\u{3c3}"), Some(vec![]));
    // U+0130 in one entry: ASCII needles go to the full lower case, capitals lower-cased.
    let mut dotted = index(&["\u{130}X PORT", "PORTS"], &[1, 1]);
    assert_eq!(dotted.search("i\u{307}x port"), Some(vec![(0, 0)]));
    assert_eq!(dotted.find_word("port"), Some(vec![(0, 0)]));
}

#[test]
fn needles_searched_again_find_what_they_found_first() {
    // The first ones are kept, the later ones searched again: all answer alike.
    let mut idx = index(&["a0 a1 a2\nb0 b1\nc0", "a1 c1 c2"], &[3, 1]);
    let needles: Vec<String> = (0..40)
        .map(|n| format!("{}{}", char::from(b'a' + (n % 3) as u8), n % 4))
        .collect();
    let first: Vec<_> = needles.iter().map(|needle| idx.search(needle)).collect();
    for (needle, found) in needles.iter().zip(&first).rev() {
        let mut fresh = index(&["a0 a1 a2\nb0 b1\nc0", "a1 c1 c2"], &[3, 1]);
        assert_eq!(&idx.search(needle), found, "{needle}");
        assert_eq!(&fresh.search(needle), found, "{needle}");
    }
}
