//! A JSON text read as `orjson.loads` reads it, in one pass: strict RFC 8259 grammar on
//! UTF-8 (a leading BOM, a control character in a string, a lone surrogate escape, a float
//! that reads as infinite are all refused, as orjson refuses them). What the core leaves to
//! the reference is noted on the way (repeated keys, a negative zero, an integer beyond 64
//! bits), so no second walk over the value or the text is needed; nesting deeper than the
//! limit stops the reading.

use super::scan::{plain_end, spaces_end};
use super::value::{Document, Node};

/// Why a text was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// orjson refuses the text too.
    NotJson,
    /// JSON that the core leaves to the reference.
    Declined(&'static str),
}

use Refusal::NotJson;

/// Why an object with a repeated key is left to the reference.
pub const REPEATED_KEY: &str = "a repeated object key";

/// Objects up to this many keys are checked for a repeated key pair by pair.
const PAIRWISE_KEYS: usize = 16;

/// The value of the JSON text `data`, with arrays and objects nested at most `max_depth`
/// levels (`bounded_depth`'s count: the top-level container is level 1).
pub fn read(data: &[u8], max_depth: usize) -> Result<Document<'_>, Refusal> {
    let (document, declined) = read_noting(data, max_depth)?;
    match declined {
        Some(reason) => Err(Refusal::Declined(reason)),
        None => Ok(document),
    }
}

/// The value of `data` and the first reason to leave it to the reference, if any (the
/// value is then not orjson's where that reason says so).
pub fn read_noting(
    data: &[u8],
    max_depth: usize,
) -> Result<(Document<'_>, Option<&'static str>), Refusal> {
    if u32::try_from(data.len()).is_err() {
        // Places are kept in 32 bits.
        return Err(Refusal::Declined("a text of 4 GB or more"));
    }
    let text = simdutf8::basic::from_utf8(data).map_err(|_| NotJson)?;
    let mut reader = Reader {
        text,
        bytes: data,
        at: 0,
        max_depth,
        declined: None,
        // About one value per 64 bytes in the traces.
        nodes: Vec::with_capacity(data.len() / 64 + 8),
        unescaped: String::new(),
        keys: Vec::new(),
    };
    reader.value(0)?;
    if reader.skip_space().is_some() {
        return Err(NotJson);
    }
    let document = Document {
        text,
        nodes: reader.nodes,
        unescaped: reader.unescaped,
    };
    Ok((document, reader.declined))
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    /// The next byte to read.
    at: usize,
    max_depth: usize,
    /// The first reason to leave the text to the reference; reading goes on, so a text that
    /// is not JSON further on is still found to be so.
    declined: Option<&'static str>,
    nodes: Vec<Node>,
    unescaped: String,
    /// The keys of the objects being read, innermost last, each with its [`outline`].
    keys: Vec<(u64, Node)>,
}

/// The bytes below 0x21 that are JSON's whitespace, as bits of their values.
const WHITESPACE: u64 = 1 << b' ' | 1 << b'\t' | 1 << b'\n' | 1 << b'\r';

/// A key's length, first and last bytes in one number: two keys alike must be outlined alike.
fn outline(key: &str) -> u64 {
    let bytes = key.as_bytes();
    let edge = |byte: Option<&u8>| u64::from(byte.copied().unwrap_or(0));
    (key.len() as u64) << 16 | edge(bytes.first()) << 8 | edge(bytes.last())
}

/// A place in the text or in a buffer no longer than it (checked to fit at the start).
fn place(at: usize) -> u32 {
    u32::try_from(at).unwrap_or(u32::MAX)
}

impl<'a> Reader<'a> {
    fn decline(&mut self, reason: &'static str) {
        self.declined.get_or_insert(reason);
    }

    /// The next byte that is not whitespace (not taken), or `None` at the end.
    #[inline]
    fn skip_space(&mut self) -> Option<u8> {
        let mut at = self.at;
        loop {
            let byte = *self.bytes.get(at)?;
            if byte > b' ' || (WHITESPACE >> byte) & 1 == 0 {
                self.at = at;
                return Some(byte);
            }
            at = if byte == b'\n' {
                // A pretty-printed text indents each line: the spaces are counted at once.
                spaces_end(self.bytes, at + 1)
            } else {
                at + 1
            };
        }
    }

    /// A value at `depth` levels (of its containers), its nodes pushed.
    fn value(&mut self, depth: usize) -> Result<(), Refusal> {
        let byte = self.skip_space().ok_or(NotJson)?;
        self.at += 1;
        let node = match byte {
            b'"' => self.string()?,
            b'{' => return self.object(depth + 1),
            b'[' => return self.array(depth + 1),
            b't' => self.literal(b"rue", Node::Bool(true))?,
            b'f' => self.literal(b"alse", Node::Bool(false))?,
            b'n' => self.literal(b"ull", Node::Null)?,
            b'-' | b'0'..=b'9' => self.number()?,
            _ => return Err(NotJson),
        };
        self.nodes.push(node);
        Ok(())
    }

    fn literal(&mut self, rest: &[u8], node: Node) -> Result<Node, Refusal> {
        let end = self.at + rest.len();
        if self.bytes.get(self.at..end) != Some(rest) {
            return Err(NotJson);
        }
        self.at = end;
        Ok(node)
    }

    fn deeper(&self, depth: usize) -> Result<(), Refusal> {
        if depth > self.max_depth {
            // bounded_depth refuses it (or orjson, past its own limit): nothing to read on.
            return Err(Refusal::Declined("nested deeper than the limit"));
        }
        Ok(())
    }

    /// Sets the container pushed at `at`, now that its nodes are read.
    fn close(&mut self, at: usize, node: Node) {
        if let Some(slot) = self.nodes.get_mut(at) {
            *slot = node;
        }
    }

    /// An array; its `[` is taken.
    fn array(&mut self, depth: usize) -> Result<(), Refusal> {
        self.deeper(depth)?;
        let at = self.nodes.len();
        self.nodes.push(Node::Null);
        let mut len = 0;
        if self.skip_space() == Some(b']') {
            self.at += 1;
        } else {
            loop {
                self.value(depth)?;
                len += 1;
                match self.skip_space() {
                    Some(b',') => self.at += 1,
                    Some(b']') => break,
                    _ => return Err(NotJson),
                }
            }
            self.at += 1;
        }
        let end = place(self.nodes.len());
        self.close(at, Node::Array { len, end });
        Ok(())
    }

    /// An object; its `{` is taken.
    fn object(&mut self, depth: usize) -> Result<(), Refusal> {
        self.deeper(depth)?;
        let at = self.nodes.len();
        self.nodes.push(Node::Null);
        let first_key = self.keys.len();
        let mut next = self.skip_space();
        if next == Some(b'}') {
            self.at += 1;
        } else {
            loop {
                if next != Some(b'"') {
                    return Err(NotJson);
                }
                self.at += 1;
                let key = self.string()?;
                self.nodes.push(key);
                let outline = outline(key.string(self.text, &self.unescaped));
                self.keys.push((outline, key));
                if self.skip_space() != Some(b':') {
                    return Err(NotJson);
                }
                self.at += 1;
                self.value(depth)?;
                match self.skip_space() {
                    Some(b',') => {
                        self.at += 1;
                        next = self.skip_space();
                    }
                    Some(b'}') => break,
                    _ => return Err(NotJson),
                }
            }
            self.at += 1;
        }
        let len = place(self.keys.len() - first_key);
        if self.has_repeated_key(first_key) {
            // A Python dict keeps the last value at the first key's place.
            self.decline(REPEATED_KEY);
        }
        self.keys.truncate(first_key);
        let end = place(self.nodes.len());
        self.close(at, Node::Object { len, end });
        Ok(())
    }

    /// Whether a key of the object whose keys start at `first` is written twice.
    fn has_repeated_key(&self, first: usize) -> bool {
        let keys = self.keys.get(first..).unwrap_or_default();
        let string = |node: Node| node.string(self.text, &self.unescaped);
        if keys.len() <= PAIRWISE_KEYS {
            // Keys of one object seldom share an outline: their bytes are rarely compared.
            return keys.iter().enumerate().any(|(at, &(outline, key))| {
                let earlier = keys.get(..at).unwrap_or_default();
                earlier
                    .iter()
                    .any(|&(other, node)| other == outline && string(node) == string(key))
            });
        }
        let mut sorted: Vec<&str> = keys.iter().map(|&(_, key)| string(key)).collect();
        sorted.sort_unstable();
        sorted.windows(2).any(|two| two.first() == two.last())
    }

    /// A number; its first byte (`-` or a digit) is taken.
    fn number(&mut self) -> Result<Node, Refusal> {
        let start = self.at - 1;
        let negative = self.bytes.get(start) == Some(&b'-');
        let digits = if negative { self.at } else { start };
        // The integer part, its value worked out on the way (`None` past 64 bits).
        let mut at = digits;
        let mut magnitude = Some(0u64);
        while let Some(&byte) = self.bytes.get(at).filter(|byte| byte.is_ascii_digit()) {
            magnitude = magnitude
                .and_then(|sum| sum.checked_mul(10))
                .and_then(|sum| sum.checked_add(u64::from(byte - b'0')));
            at += 1;
        }
        let leading_zero = self.bytes.get(digits) == Some(&b'0') && at > digits + 1;
        if at == digits || leading_zero {
            return Err(NotJson);
        }
        let mut float = false;
        if self.bytes.get(at) == Some(&b'.') {
            at = self.digits_after(at + 1)?;
            float = true;
        }
        if matches!(self.bytes.get(at), Some(b'e' | b'E')) {
            at += 1;
            if matches!(self.bytes.get(at), Some(b'+' | b'-')) {
                at += 1;
            }
            at = self.digits_after(at)?;
            float = true;
        }
        self.at = at;
        if float {
            // Rust reads a decimal to the nearest double, as orjson does.
            let token = self.text.get(start..at).ok_or(NotJson)?;
            let float: f64 = token.parse().map_err(|_| NotJson)?;
            if float.is_infinite() {
                return Err(NotJson);
            }
            if float == 0.0 && negative {
                // orjson reads -0.0 as the float -0.0; left to it.
                self.decline("a negative zero");
            }
            return Ok(Node::Float(float));
        }
        Ok(match (magnitude, negative) {
            (Some(0), true) => {
                // orjson reads -0 as the int 0; left to it.
                self.decline("a negative zero");
                Node::Unsigned(0)
            }
            (Some(magnitude), false) => Node::Unsigned(magnitude),
            (Some(magnitude), true) => match 0i64.checked_sub_unsigned(magnitude) {
                Some(int) => Node::Negative(int),
                None => self.beyond_64_bits(),
            },
            (None, _) => self.beyond_64_bits(),
        })
    }

    /// orjson reads an integer beyond 64 bits as a float; left to it.
    fn beyond_64_bits(&mut self) -> Node {
        self.decline("an integer beyond 64 bits");
        Node::Unsigned(0)
    }

    /// Where the digits from `at` end: at least one is needed.
    fn digits_after(&self, at: usize) -> Result<usize, Refusal> {
        let count = self
            .bytes
            .get(at..)
            .unwrap_or_default()
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count();
        if count == 0 {
            return Err(NotJson);
        }
        Ok(at + count)
    }

    /// A string's node; its opening quote is taken.
    #[inline(always)]
    fn string(&mut self) -> Result<Node, Refusal> {
        let start = self.at;
        let end = plain_end(self.bytes, start);
        match self.bytes.get(end) {
            Some(b'"') => {
                self.at = end + 1;
                Ok(Node::Text(place(start), place(end)))
            }
            Some(b'\\') => self.escaped(start, end),
            // A control character, or the end of the text.
            _ => Err(NotJson),
        }
    }

    /// A string with escapes, from `start`, into `unescaped`; its first backslash is at `at`.
    #[inline(never)]
    fn escaped(&mut self, start: usize, mut at: usize) -> Result<Node, Refusal> {
        let first = self.unescaped.len();
        if self.unescaped.capacity() == 0 {
            // Every string unescaped from here on lies in the rest of the text, and an escape
            // is never shorter than what it stands for: the buffer never grows (each growth
            // copied all of it, 6% of a grade on the generated traces).
            self.unescaped.reserve(self.bytes.len() - start);
        }
        let text = self.text;
        let slice = |from: usize, to: usize| text.get(from..to).ok_or(NotJson);
        self.unescaped.push_str(slice(start, at)?);
        loop {
            let escape = self.bytes.get(at + 1).copied();
            at += 2;
            let unescaped = match escape {
                Some(b'"') => '"',
                Some(b'\\') => '\\',
                Some(b'/') => '/',
                Some(b'b') => '\u{8}',
                Some(b'f') => '\u{c}',
                Some(b'n') => '\n',
                Some(b'r') => '\r',
                Some(b't') => '\t',
                Some(b'u') => {
                    let unit = self.hex(at)?;
                    at += 4;
                    let code = match unit {
                        0xD800..=0xDBFF => {
                            // A high surrogate must be followed by an escaped low one.
                            if self.bytes.get(at..at + 2) != Some(b"\\u") {
                                return Err(NotJson);
                            }
                            let low = self.hex(at + 2)?;
                            if !(0xDC00..=0xDFFF).contains(&low) {
                                return Err(NotJson);
                            }
                            at += 6;
                            0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        }
                        0xDC00..=0xDFFF => return Err(NotJson),
                        _ => unit,
                    };
                    char::from_u32(code).ok_or(NotJson)?
                }
                _ => return Err(NotJson),
            };
            self.unescaped.push(unescaped);
            let end = plain_end(self.bytes, at);
            self.unescaped.push_str(slice(at, end)?);
            match self.bytes.get(end) {
                Some(b'"') => {
                    self.at = end + 1;
                    return Ok(Node::Unescaped(place(first), place(self.unescaped.len())));
                }
                Some(b'\\') => at = end,
                _ => return Err(NotJson),
            }
        }
    }

    /// The four hex digits at `at` (either case).
    fn hex(&self, at: usize) -> Result<u32, Refusal> {
        let digits = self.bytes.get(at..at + 4).ok_or(NotJson)?;
        digits.iter().try_fold(0, |sum, &byte| {
            let digit = char::from(byte).to_digit(16).ok_or(NotJson)?;
            Ok(sum * 16 + digit)
        })
    }
}
