//! Big byte buffers kept per thread between grades: a large trace's search text is joined and
//! lower-cased into fresh buffers each time otherwise, and the allocator hands those back to
//! the system in between, so every grade paid for the page faults of mapping them again
//! (on 07-context/trace-b-on, more time than the lower-casing itself).

use std::cell::RefCell;

/// How many buffers a thread keeps.
const KEPT: usize = 4;
/// A buffer larger than this goes back to the allocator (one huge trace is not kept for life).
const LARGEST_KEPT: usize = 16 << 20;

thread_local! {
    static SPARE: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
}

/// An empty buffer with room for `capacity` bytes: the largest kept one, else a new one.
pub fn buffer(capacity: usize) -> Vec<u8> {
    let kept = SPARE
        .try_with(|spare| {
            let mut spare = spare.try_borrow_mut().ok()?;
            let largest = (0..spare.len()).max_by_key(|&at| spare.get(at).map(Vec::capacity))?;
            Some(spare.swap_remove(largest))
        })
        .ok()
        .flatten();
    let mut buffer = kept.unwrap_or_default();
    buffer.clear();
    buffer.reserve(capacity);
    buffer
}

/// An empty string with room for `capacity` bytes, from [`buffer`].
pub fn string(capacity: usize) -> String {
    // An empty buffer is valid UTF-8: only its capacity is carried over.
    String::from_utf8(buffer(capacity)).unwrap_or_default()
}

/// Keep `buffer` for a later [`buffer`] call on this thread, unless enough are kept.
pub fn recycle(mut buffer: Vec<u8>) {
    if buffer.capacity() == 0 || buffer.capacity() > LARGEST_KEPT {
        return;
    }
    buffer.clear();
    // During the thread's teardown the buffer is simply freed.
    let _ = SPARE.try_with(|spare| {
        if let Ok(mut spare) = spare.try_borrow_mut() {
            if spare.len() < KEPT {
                spare.push(buffer);
            } else if let Some(smallest) = spare.iter_mut().min_by_key(|kept| kept.capacity())
                && smallest.capacity() < buffer.capacity()
            {
                *smallest = buffer; // keep the larger ones
            }
        }
    });
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)] // tests may index (Cargo.toml)
mod tests {
    use super::{buffer, recycle, string};

    #[test]
    fn a_recycled_buffer_is_handed_out_again_empty() {
        let mut first = buffer(1 << 20);
        first.extend_from_slice(b"left over");
        let at = first.as_ptr();
        recycle(first);
        let again = buffer(100);
        assert!(again.is_empty());
        assert_eq!(again.as_ptr(), at, "the kept allocation, not a new one");
        assert!(again.capacity() >= 1 << 20);
        recycle(again);
        let text = string(10);
        assert!(text.is_empty() && text.capacity() >= 1 << 20);
    }

    #[test]
    fn at_most_a_few_buffers_are_kept_the_largest_ones() {
        for size in [10, 20, 30, 40, 50, 60] {
            recycle(Vec::with_capacity(size << 10));
        }
        let handed: Vec<usize> = (0..5).map(|_| buffer(0).capacity()).collect();
        assert!(handed[0] >= 60 << 10 && handed[1] >= 50 << 10, "{handed:?}");
        assert!(handed[2] >= 40 << 10 && handed[3] >= 30 << 10, "{handed:?}");
        assert!(handed[4] < 10 << 10, "only four were kept: {handed:?}");
    }
}
