//! `approximate_keys`: the hedged forms a source number vouches for (`figures._index`).

use crate::chars::decimal_value;

/// The `"hedge:value"` keys of `value`, as `tracegrade.figures._index.approximate_keys`
/// gives them: for 1 to 3 significant digits (fewer than the whole part has), the value
/// truncated (`over`), rounded half up (`about`) and, when rounding went up, `under` too.
/// The whole part keeps its script (a plain number of Arabic-Indic digits stays so); a
/// rounded head is written in ASCII, as Python's `int(head) + 1` is. `None` when a head is
/// not digits (the reference would raise).
pub fn approximate_keys(value: &str) -> Option<Vec<String>> {
    let whole: Vec<char> = value.split('.').next().unwrap_or("").chars().collect();
    let mut keys = Vec::new();
    for significant in 1..=whole.len().saturating_sub(1).min(3) {
        let zeros = "0".repeat(whole.len() - significant);
        let head: String = whole.get(..significant)?.iter().collect();
        keys.push(format!("over:{head}{zeros}"));
        // Python compares the characters as strings: by code point.
        if *whole.get(significant)? >= '5' {
            let mut number = 0u64;
            for c in head.chars() {
                number = number * 10 + u64::from(decimal_value(c)?);
            }
            let rounded = number + 1;
            keys.push(format!("about:{rounded}{zeros}"));
            keys.push(format!("under:{rounded}{zeros}"));
        } else {
            keys.push(format!("about:{head}{zeros}"));
        }
    }
    Some(keys)
}

#[cfg(test)]
mod tests {
    use super::approximate_keys;

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
