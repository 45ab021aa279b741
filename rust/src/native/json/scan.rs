//! The two runs the reader skips most: a string's plain characters and a line's indentation,
//! sixteen bytes at a time with SSE2 (part of every x86_64 CPU), a byte at a time elsewhere.

/// Where the plain run of a string from `from` ends: at the first quote, backslash or control
/// character (refused in a string), or at the end of `bytes`.
#[cfg(target_arch = "x86_64")]
pub fn plain_end(bytes: &[u8], from: usize) -> usize {
    // Most strings are short (keys, names): the first sixteen bytes are looked at alone.
    if let Some(chunk) = bytes.get(from..from + 16) {
        let found = specials(chunk);
        if found != 0 {
            return from + found.trailing_zeros() as usize;
        }
    } else {
        return plain_end_bytewise(bytes, from);
    }
    // A long one (a file's content, a page) 64 bytes at a time, then 16, then bytewise.
    let mut at = from + 16;
    while let Some(block) = bytes.get(at..at + 64) {
        let (one, rest) = block.split_at(16);
        let (two, rest) = rest.split_at(16);
        let (three, four) = rest.split_at(16);
        let found =
            specials(one) | specials(two) << 16 | specials(three) << 32 | specials(four) << 48;
        if found != 0 {
            return at + found.trailing_zeros() as usize;
        }
        at += 64;
    }
    while let Some(chunk) = bytes.get(at..at + 16) {
        let found = specials(chunk);
        if found != 0 {
            return at + found.trailing_zeros() as usize;
        }
        at += 16;
    }
    plain_end_bytewise(bytes, at)
}

/// A bit for each of the sixteen bytes of `chunk` that is a quote, a backslash or a control.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn specials(chunk: &[u8]) -> u64 {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    if chunk.len() < 16 {
        return 0;
    }
    // SAFETY: SSE2 is part of x86_64; the unaligned load reads 16 bytes of `chunk`.
    let found = unsafe {
        let lanes = _mm_loadu_si128(chunk.as_ptr().cast());
        let quote = _mm_cmpeq_epi8(lanes, _mm_set1_epi8(b'"' as i8));
        let backslash = _mm_cmpeq_epi8(lanes, _mm_set1_epi8(b'\\' as i8));
        // Below 0x20 exactly where the unsigned minimum with 0x1f is the byte itself.
        let control = _mm_cmpeq_epi8(_mm_min_epu8(lanes, _mm_set1_epi8(0x1f)), lanes);
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control))
    };
    u64::from(found.unsigned_abs())
}

#[cfg(not(target_arch = "x86_64"))]
pub fn plain_end(bytes: &[u8], from: usize) -> usize {
    plain_end_bytewise(bytes, from)
}

/// [`plain_end`] a byte at a time.
pub fn plain_end_bytewise(bytes: &[u8], from: usize) -> usize {
    let rest = bytes.get(from..).unwrap_or_default();
    let plain = rest
        .iter()
        .take_while(|&&byte| byte != b'"' && byte != b'\\' && byte >= 0x20)
        .count();
    from + plain
}

/// Where the spaces from `from` end (a pretty-printed line's indentation).
#[cfg(target_arch = "x86_64")]
pub fn spaces_end(bytes: &[u8], from: usize) -> usize {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8};
    let mut at = from;
    while let Some(chunk) = bytes.get(at..at + 16) {
        // SAFETY: SSE2 is part of x86_64; the unaligned load reads the 16 bytes of `chunk`.
        let spaces = unsafe {
            let lanes = _mm_loadu_si128(chunk.as_ptr().cast());
            _mm_movemask_epi8(_mm_cmpeq_epi8(lanes, _mm_set1_epi8(b' ' as i8)))
        };
        if spaces != 0xffff {
            return at + (!spaces).trailing_zeros() as usize;
        }
        at += 16;
    }
    spaces_end_bytewise(bytes, at)
}

#[cfg(not(target_arch = "x86_64"))]
pub fn spaces_end(bytes: &[u8], from: usize) -> usize {
    spaces_end_bytewise(bytes, from)
}

/// [`spaces_end`] a byte at a time.
pub fn spaces_end_bytewise(bytes: &[u8], from: usize) -> usize {
    let rest = bytes.get(from..).unwrap_or_default();
    from + rest.iter().take_while(|&&byte| byte == b' ').count()
}

#[cfg(test)]
mod tests {
    use super::{plain_end, plain_end_bytewise, spaces_end, spaces_end_bytewise};
    use crate::testing::Xorshift;

    #[test]
    #[allow(clippy::indexing_slicing)] // tests may index (Cargo.toml)
    fn the_runs_end_where_a_byte_at_a_time_says() {
        // Runs of every length to past two 64-byte blocks, ended by each kind of byte, read
        // from several starts (each place in the first chunk, the blocks' edges).
        let mut rng = Xorshift::new(0x9e37_79b9_7f4a_7c15);
        let mut random = move |below: usize| rng.below(below);
        let plain = [b'a', b' ', 0x20, 0x7f, 0x80, 0xff, b'/'];
        let ending = [b'"', b'\\', 0x00, 0x1f, b'\n', b'\t', b'a', b' '];
        for length in 0..200 {
            for _ in 0..20 {
                // A byte that ends a run one time in `rarity`: long runs and short ones.
                let rarity = [2, 20, 1000][random(3)];
                let text: Vec<u8> = (0..length)
                    .map(|_| match random(rarity) {
                        0 => ending[random(8)],
                        _ => plain[random(7)],
                    })
                    .collect();
                for from in (0..=length.min(17)).chain([63, 64, 65, 80, 81, 144, length]) {
                    assert_eq!(
                        plain_end(&text, from),
                        plain_end_bytewise(&text, from),
                        "{text:?} from {from}"
                    );
                    assert_eq!(
                        spaces_end(&text, from),
                        spaces_end_bytewise(&text, from),
                        "{text:?} from {from}"
                    );
                }
            }
        }
        assert_eq!(plain_end(b"ab", 5), 5);
        assert_eq!(spaces_end(b"ab", 5), 5);
    }
}
