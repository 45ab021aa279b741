//! A native trace file read for grading in one call (`NativeGrader.grade_file`), as
//! `tracegrade grade DIR`, a suite's cases and a trace graded against a question read one
//! (src/tracegrade/suites/_native_files.py).
//!
//! Only a regular file is opened (a device may act on being opened), without waiting for a
//! writer (a FIFO put in its place after the check reads empty), in one read of one byte more
//! than its size: a regular file reads short only at its end, and one that grew since is
//! read on to its new end. Its first bytes are then asked whether they surely hold a native
//! trace, by the native reader's own signature (`_looks_native` in traces/_native.py); a file
//! that is not surely native is left to the registry, which reads and detects it as usual.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// How many first bytes a reader's signature is looked for in (`SNIFF_BYTES`).
pub const SNIFF_BYTES: usize = 4096;

/// The bytes of the regular file at `path`; `None` for anything else, or when it cannot be
/// read (the caller's usual reading then names the problem).
pub fn read_regular(path: &Path) -> Option<Vec<u8>> {
    let info = std::fs::metadata(path).ok()?; // follows links, as os.stat does
    if !info.is_file() {
        return None;
    }
    let size = usize::try_from(info.len()).ok()?;
    read_whole(&mut open_without_waiting(path).ok()?, size).ok()
}

fn open_without_waiting(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK); // std opens with O_CLOEXEC
    }
    options.open(path)
}

/// All of `file`, whose size was `size` when looked at: one read when it has not grown.
fn read_whole(file: &mut impl Read, size: usize) -> io::Result<Vec<u8>> {
    let mut data = Vec::with_capacity(size.saturating_add(1));
    // `take` reads into the spare room as it is (no zeroing); a read of fewer bytes than
    // asked is the end of a regular file.
    let read = file.take(size as u64 + 1).read_to_end(&mut data)?;
    if read > size {
        file.read_to_end(&mut data)?;
    }
    Ok(data)
}

/// Whether `head`, a file's first bytes, surely holds a native trace: a JSON object (after a
/// byte order mark and white space) starting with `"schema_version": 2`, or holding the
/// reference format's four keys near the top (`_looks_native`, its file name aside).
pub fn surely_native(head: &[u8]) -> bool {
    let head = head.get(..SNIFF_BYTES).unwrap_or(head);
    let skipped = head
        .iter()
        .position(|byte| !b"\xef\xbb\xbf \t\r\n".contains(byte))
        .unwrap_or(head.len());
    if head.get(skipped) != Some(&b'{') {
        return false;
    }
    version_2(head)
        || [
            &b"\"frames\""[..],
            b"\"tokens\"",
            b"\"outcome\"",
            b"\"commit\"",
        ]
        .iter()
        .all(|key| memchr::memmem::find(head, key).is_some())
}

/// `re.match(rb'\A\s*\{\s*"schema_version"\s*:\s*2\b', head)`.
fn version_2(head: &[u8]) -> bool {
    // Python's bytes `\s`: ASCII white space, with \v and \f.
    let space = |byte: &u8| b" \t\n\r\x0b\x0c".contains(byte);
    let mut rest = head;
    let mut expect = |token: &[u8]| {
        let start = rest
            .iter()
            .position(|byte| !space(byte))
            .unwrap_or(rest.len());
        let after = rest.get(start..).unwrap_or_default();
        let found = after.starts_with(token);
        rest = after.get(token.len()..).unwrap_or_default();
        found
    };
    let matched = expect(b"{") && expect(b"\"schema_version\"") && expect(b":") && expect(b"2");
    // `\b` after the 2: the next byte is not a word character (or there is none).
    matched
        && !rest
            .first()
            .is_some_and(|byte| byte.is_ascii_alphanumeric() || *byte == b'_')
}

#[cfg(test)]
mod tests {
    use super::{SNIFF_BYTES, read_whole, surely_native, version_2};
    use std::io::Cursor;

    #[test]
    fn a_file_is_read_to_its_end_whatever_size_it_had_when_looked_at() {
        let bytes: Vec<u8> = (0..100).collect();
        for size in [0, 1, 99, 100, 101, 5000] {
            let read = read_whole(&mut Cursor::new(bytes.clone()), size);
            assert_eq!(read.ok(), Some(bytes.clone()), "size {size}");
        }
    }

    #[test]
    fn schema_version_2_first_is_native_as_the_pattern_says() {
        for head in [
            &b"{\"schema_version\": 2, \"x\": 1}"[..],
            b" \n{ \"schema_version\"\x0b:\x0c2}",
            b"{\"schema_version\":2",
            b"{\"schema_version\":2.5}",
        ] {
            assert!(version_2(head), "{head:?}");
            assert!(surely_native(head), "{head:?}");
        }
        for head in [
            &b"{\"schema_version\": 20}"[..],
            b"{\"schema_version\": 2_0}",
            b"{\"schema_version\": 1}",
            b"[{\"schema_version\": 2}]",
            b"{\"schema_version \": 2}",
            b"\xef\xbb\xbf{\"schema_version\": 2}", // the pattern allows no byte order mark
        ] {
            assert!(!version_2(head), "{head:?}");
        }
    }

    #[test]
    fn the_four_keys_near_the_top_of_an_object_are_native() {
        let keys = b"\"commit\": 1, \"outcome\": 2, \"tokens\": 3, \"frames\": []}";
        let object = [&b"\xef\xbb\xbf \r\n\t{"[..], keys].concat();
        assert!(surely_native(&object));
        assert!(!surely_native(&[&b"["[..], keys].concat()));
        assert!(!surely_native(&[&b"\x0c{"[..], keys].concat())); // \f is not stripped
        assert!(!surely_native(
            b"{\"commit\": 1, \"outcome\": 2, \"tokens\": 3}"
        ));
        // A key beyond the first SNIFF_BYTES bytes is not looked for.
        let late = [&b"{\"x\": \""[..], &vec![b'a'; SNIFF_BYTES], b"\", ", keys].concat();
        assert!(!surely_native(&late));
    }
}
