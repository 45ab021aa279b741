//! `approximate_keys`: the hedged forms a source number vouches for (`figures._index`).

use crate::chars::decimal_value;

/// The `"hedge:value"` keys of `value`, as `tracegrade.figures._index.approximate_keys`
/// gives them: for 1 to 3 significant digits (fewer than the whole part has), the value
/// truncated (`over`), rounded half up (`about`) and, when rounding went up, `under` too.
/// The whole part keeps its script (a plain number of Arabic-Indic digits stays so); a
/// rounded head is written in ASCII, as Python's `int(head) + 1` is. `None` when a head is
/// not digits (the reference would raise).
pub fn approximate_keys(value: &str) -> Option<Vec<String>> {
    let whole = value.split('.').next().unwrap_or("");
    let count = whole.chars().count();
    let most = count.saturating_sub(1).min(3);
    let mut keys = Vec::with_capacity(3 * most);
    let mut chars = whole.char_indices().peekable();
    // int(head), while the head is digits.
    let mut number = Some(0u64);
    for significant in 1..=most {
        let (_, last) = chars.next()?;
        number = number.and_then(|n| Some(n * 10 + u64::from(decimal_value(last)?)));
        let &(end, next) = chars.peek()?;
        let zeros = count - significant;
        let key = |hedge: &str, head: &str| {
            let mut key = String::with_capacity(hedge.len() + head.len() + zeros);
            key.push_str(hedge);
            key.push_str(head);
            key.extend(std::iter::repeat_n('0', zeros));
            key
        };
        let head = whole.get(..end)?;
        keys.push(key("over:", head));
        // Python compares the characters as strings: by code point.
        if next >= '5' {
            let rounded = (number? + 1).to_string();
            keys.push(key("about:", &rounded));
            keys.push(key("under:", &rounded));
        } else {
            keys.push(key("about:", head));
        }
    }
    Some(keys)
}

#[cfg(test)]
mod tests {
    use super::approximate_keys;
    use crate::chars::decimal_value;
    use crate::testing::Xorshift;

    /// The reference's loop as it reads (the oracle of the test below).
    fn as_written(value: &str) -> Option<Vec<String>> {
        let whole: Vec<char> = value.split('.').next().unwrap_or("").chars().collect();
        let mut keys = Vec::new();
        for significant in 1..=whole.len().saturating_sub(1).min(3) {
            let zeros = "0".repeat(whole.len() - significant);
            let head: String = whole.get(..significant)?.iter().collect();
            keys.push(format!("over:{head}{zeros}"));
            if *whole.get(significant)? >= '5' {
                let mut number = 0u64;
                for c in head.chars() {
                    number = number * 10 + u64::from(decimal_value(c)?);
                }
                keys.push(format!("about:{}{zeros}", number + 1));
                keys.push(format!("under:{}{zeros}", number + 1));
            } else {
                keys.push(format!("about:{head}{zeros}"));
            }
        }
        Some(keys)
    }

    #[test]
    fn as_the_loop_written_out() {
        let pieces = [
            "0", "1", "4", "5", "9", ".", "\u{663}", "\u{669}", "x", "99",
        ];
        let mut rng = Xorshift::new(0x9e37_79b9_7f4a_7c15);
        let (mut some, mut none) = (0, 0);
        for _ in 0..5000 {
            let mut next = || rng.below(1000);
            let length = next() % 9;
            let value: String = (0..length)
                .map(|_| pieces.get(next() % pieces.len()).copied().unwrap_or(""))
                .collect();
            let expected = as_written(&value);
            assert_eq!(approximate_keys(&value), expected, "{value:?}");
            some += usize::from(expected.as_ref().is_some_and(|keys| !keys.is_empty()));
            none += usize::from(expected.is_none());
        }
        assert!(
            some > 1000 && none > 100,
            "{some} with keys, {none} refused"
        );
    }

    #[test]
    fn as_the_reference() {
        let keys = approximate_keys("2956737").unwrap_or_default();
        assert_eq!(
            keys,
            [
                "over:2000000",
                "about:3000000",
                "under:3000000",
                "over:2900000",
                "about:3000000",
                "under:3000000",
                "over:2950000",
                "about:2960000",
                "under:2960000",
            ]
        );
        assert_eq!(approximate_keys("7.5"), Some(Vec::new()));
        assert_eq!(
            approximate_keys("95.5").unwrap_or_default(),
            ["over:90", "about:100", "under:100"]
        );
    }
}
