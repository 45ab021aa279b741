//! A parser for the part of Python's regex syntax the figure patterns use.
//!
//! The core runs the reference's own pattern text (`tracegrade.figures._extract`), so the two
//! engines cannot drift apart on a rule; only the matching is re-implemented (matcher.rs).
//! Anything outside the subset (lazy quantifiers, back-references, `^`/`$`, inline flags) is
//! refused with an error, and the caller keeps the Python engine.

use super::sets::{Class, Named, Set, Trie};

#[derive(Debug, Clone)]
pub enum Node {
    Char(Set),
    /// Characters in a row (made by the matcher from `Char`s, to test them in one step).
    Literal(Vec<char>),
    /// A positive lookahead without groups whose body matches a finite set of strings: the
    /// set as a trie (made by the matcher; only whether one string is there matters).
    AheadAny(Trie),
    /// A branch only tried where the text's next character is in the class (made by the
    /// matcher from an alternative's possible first characters).
    Guard(Class, Box<Node>),
    Seq(Vec<Node>),
    Alt(Vec<Node>),
    /// An alternation reached before the match consumes anything, each branch with the bits
    /// of the leading paths through it (made by leading.rs): a branch is tried only where
    /// one of its paths' relaxed forms matches.
    Leading(Vec<(u64, Node)>),
    /// Greedy; `max` is `usize::MAX` for no bound.
    Repeat {
        node: Box<Node>,
        min: usize,
        max: usize,
    },
    /// `(?>...)` and possessive quantifiers; `groups` when captures inside must be undone.
    Atomic {
        node: Box<Node>,
        groups: bool,
    },
    /// A lookahead; `groups` when captures inside must be undone.
    Ahead {
        node: Box<Node>,
        negative: bool,
        groups: bool,
    },
    Behind {
        node: Box<Node>,
        negative: bool,
        width: usize,
    },
    Group {
        index: usize,
        node: Box<Node>,
    },
    Boundary,
    NotBoundary,
    /// `\Z`: the end of the text searched.
    End,
}

impl Node {
    fn has_groups(&self) -> bool {
        match self {
            Node::Group { .. } => true,
            Node::Seq(nodes) | Node::Alt(nodes) => nodes.iter().any(Node::has_groups),
            Node::Leading(branches) => branches.iter().any(|(_, node)| node.has_groups()),
            Node::Repeat { node, .. }
            | Node::Atomic { node, .. }
            | Node::Ahead { node, .. }
            | Node::Behind { node, .. }
            | Node::Guard(_, node) => node.has_groups(),
            Node::Char(_)
            | Node::Literal(_)
            | Node::AheadAny(_)
            | Node::Boundary
            | Node::NotBoundary
            | Node::End => false,
        }
    }

    /// The fixed width of a lookbehind's body, as Python requires.
    fn width(&self) -> Option<usize> {
        match self {
            Node::Char(_) => Some(1),
            Node::Literal(chars) => Some(chars.len()),
            Node::Seq(nodes) => nodes.iter().map(Node::width).sum(),
            Node::Alt(nodes) => {
                let widths: Option<Vec<usize>> = nodes.iter().map(Node::width).collect();
                let widths = widths?;
                let first = *widths.first()?;
                widths.iter().all(|&w| w == first).then_some(first)
            }
            Node::Repeat { node, min, max } if min == max => node.width()?.checked_mul(*min),
            Node::Repeat { .. } | Node::Leading(_) => None,
            Node::Atomic { node, .. } | Node::Group { node, .. } | Node::Guard(_, node) => {
                node.width()
            }
            Node::Ahead { .. }
            | Node::AheadAny(_)
            | Node::Behind { .. }
            | Node::Boundary
            | Node::NotBoundary
            | Node::End => Some(0),
        }
    }
}

/// A parsed pattern: its tree and its named groups (Python numbers groups from 1).
#[derive(Debug, Clone)]
pub struct Parsed {
    pub root: Node,
    pub groups: usize,
    pub names: Vec<(String, usize)>,
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    ignore_case: bool,
    groups: usize,
    names: Vec<(String, usize)>,
}

/// Parse `pattern`; `ignore_case` is `re.IGNORECASE`.
pub fn parse(pattern: &str, ignore_case: bool) -> Result<Parsed, String> {
    let mut parser = Parser {
        chars: pattern.chars().collect(),
        at: 0,
        ignore_case,
        groups: 0,
        names: Vec::new(),
    };
    let root = parser.alternation()?;
    if parser.at != parser.chars.len() {
        return Err(format!("unbalanced ')' at {}", parser.at));
    }
    Ok(Parsed {
        root,
        groups: parser.groups,
        names: parser.names,
    })
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Result<char, String> {
        let c = self.peek().ok_or("unexpected end of pattern")?;
        self.at += 1;
        Ok(c)
    }

    fn eat(&mut self, text: &str) -> bool {
        let wanted: Vec<char> = text.chars().collect();
        let end = self.at + wanted.len();
        if self.chars.get(self.at..end) == Some(&wanted[..]) {
            self.at = end;
            return true;
        }
        false
    }

    fn alternation(&mut self) -> Result<Node, String> {
        let mut branches = vec![self.sequence()?];
        while self.eat("|") {
            branches.push(self.sequence()?);
        }
        Ok(if branches.len() == 1 {
            branches.pop().unwrap_or(Node::Seq(Vec::new()))
        } else {
            Node::Alt(branches)
        })
    }

    fn sequence(&mut self) -> Result<Node, String> {
        let mut nodes = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            nodes.push(self.quantified(atom)?);
        }
        Ok(Node::Seq(nodes))
    }

    fn number(&mut self) -> Option<usize> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let digits: String = self.chars.get(start..self.at)?.iter().collect();
        digits.parse().ok()
    }

    fn quantified(&mut self, atom: Node) -> Result<Node, String> {
        let (min, max) = match self.peek() {
            Some('?') => (0, 1),
            Some('*') => (0, usize::MAX),
            Some('+') => (1, usize::MAX),
            Some('{') => {
                let save = self.at;
                self.at += 1;
                let min = self.number();
                let max = if self.eat(",") {
                    self.number()
                } else {
                    Some(min.ok_or("bad repeat")?)
                };
                if !self.eat("}") {
                    self.at = save;
                    return Err(format!("unsupported '{{' at {save}"));
                }
                self.at -= 1;
                (min.unwrap_or(0), max.unwrap_or(usize::MAX))
            }
            _ => return Ok(atom),
        };
        self.at += 1;
        if matches!(
            atom,
            Node::Ahead { .. } | Node::Behind { .. } | Node::Boundary
        ) {
            return Err("a repeated assertion".into());
        }
        let repeat = Node::Repeat {
            node: Box::new(atom),
            min,
            max,
        };
        match self.peek() {
            Some('+') => {
                self.at += 1;
                let groups = repeat.has_groups();
                Ok(Node::Atomic {
                    node: Box::new(repeat),
                    groups,
                })
            }
            Some('?') => Err("lazy quantifiers are not supported".into()),
            _ => Ok(repeat),
        }
    }

    fn atom(&mut self) -> Result<Node, String> {
        match self.next()? {
            '(' => self.group(),
            '[' => Ok(Node::Char(Set::Class(self.class()?))),
            '\\' => self.escape(),
            '.' => Ok(Node::Char(Set::Class(Class::new(
                true,
                vec![('\n', '\n')],
                Vec::new(),
            )))),
            c @ ('^' | '$' | '*' | '+' | '?' | '{') => Err(format!("unsupported '{c}'")),
            c => self.literal(c),
        }
    }

    fn literal(&self, c: char) -> Result<Node, String> {
        if self.ignore_case && c.is_ascii_alphabetic() {
            return u8::try_from(c)
                .map(|byte| Node::Char(Set::Fold(byte.to_ascii_lowercase())))
                .map_err(|error| error.to_string());
        }
        if self.ignore_case && (c.to_lowercase().ne([c]) || c.to_uppercase().ne([c])) {
            return Err(format!("a cased non-ASCII literal {c:?} under IGNORECASE"));
        }
        Ok(Node::Char(Set::One(c)))
    }

    fn group(&mut self) -> Result<Node, String> {
        let node = if self.eat("?:") {
            self.alternation()?
        } else if self.eat("?P<") {
            let mut name = String::new();
            loop {
                match self.next()? {
                    '>' => break,
                    c => name.push(c),
                }
            }
            self.groups += 1;
            let index = self.groups;
            self.names.push((name, index));
            Node::Group {
                index,
                node: Box::new(self.alternation()?),
            }
        } else if self.eat("?>") {
            let node = self.alternation()?;
            let groups = node.has_groups();
            Node::Atomic {
                node: Box::new(node),
                groups,
            }
        } else if self.eat("?=") || self.eat("?!") {
            let negative = self.chars.get(self.at - 1) == Some(&'!');
            let node = self.alternation()?;
            let groups = node.has_groups();
            Node::Ahead {
                node: Box::new(node),
                negative,
                groups,
            }
        } else if self.eat("?<=") || self.eat("?<!") {
            let negative = self.chars.get(self.at - 1) == Some(&'!');
            let node = self.alternation()?;
            let width = node.width().ok_or("a lookbehind of no fixed width")?;
            Node::Behind {
                node: Box::new(node),
                negative,
                width,
            }
        } else if self.peek() == Some('?') {
            return Err(format!("unsupported group at {}", self.at));
        } else {
            self.groups += 1;
            Node::Group {
                index: self.groups,
                node: Box::new(self.alternation()?),
            }
        };
        if !self.eat(")") {
            return Err("missing ')'".into());
        }
        Ok(node)
    }

    fn hex(&mut self, digits: usize) -> Result<char, String> {
        let mut code = 0u32;
        for _ in 0..digits {
            let digit = self.next()?.to_digit(16).ok_or("bad hex escape")?;
            code = code * 16 + digit;
        }
        char::from_u32(code).ok_or_else(|| "bad code point".into())
    }

    /// An escape that stands for one character, or `None` for a class escape.
    fn escaped_char(&mut self, c: char) -> Result<Option<char>, String> {
        Ok(Some(match c {
            'u' => self.hex(4)?,
            'U' => self.hex(8)?,
            'x' => self.hex(2)?,
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            'f' => '\u{c}',
            'v' => '\u{b}',
            'a' => '\u{7}',
            c if c.is_ascii_alphanumeric() => return Ok(None),
            c => c,
        }))
    }

    fn named(c: char) -> Option<(Named, bool)> {
        match c {
            'd' => Some((Named::Digit, false)),
            'D' => Some((Named::Digit, true)),
            'w' => Some((Named::Word, false)),
            'W' => Some((Named::Word, true)),
            's' => Some((Named::Space, false)),
            'S' => Some((Named::Space, true)),
            _ => None,
        }
    }

    fn escape(&mut self) -> Result<Node, String> {
        let c = self.next()?;
        if let Some(named) = Self::named(c) {
            return Ok(Node::Char(Set::Class(Class::new(
                false,
                Vec::new(),
                vec![named],
            ))));
        }
        match c {
            'b' => return Ok(Node::Boundary),
            'B' => return Ok(Node::NotBoundary),
            'Z' => return Ok(Node::End),
            _ => {}
        }
        match self.escaped_char(c)? {
            Some(one) => self.literal(one),
            None => Err(format!("unsupported escape \\{c}")),
        }
    }

    fn class_char(&mut self) -> Result<ClassItem, String> {
        match self.next()? {
            '\\' => {
                let c = self.next()?;
                if let Some(named) = Self::named(c) {
                    return Ok(ClassItem::Named(named));
                }
                match self.escaped_char(c)? {
                    Some(one) => Ok(ClassItem::Char(one)),
                    None => Err(format!("unsupported class escape \\{c}")),
                }
            }
            c => Ok(ClassItem::Char(c)),
        }
    }

    fn class(&mut self) -> Result<Class, String> {
        let negated = self.eat("^");
        let mut ranges = Vec::new();
        let mut named = Vec::new();
        let mut first = true;
        loop {
            if self.peek() == Some(']') && !first {
                self.at += 1;
                break;
            }
            first = false;
            match self.class_char()? {
                ClassItem::Named(item) => named.push(item),
                ClassItem::Char(low) => {
                    let is_range = self.peek() == Some('-')
                        && self.chars.get(self.at + 1).is_some_and(|&c| c != ']');
                    if is_range {
                        self.at += 1;
                        match self.class_char()? {
                            ClassItem::Char(high) if low <= high => ranges.push((low, high)),
                            _ => return Err("bad class range".into()),
                        }
                    } else {
                        ranges.push((low, low));
                    }
                }
            }
        }
        // A non-ASCII character that `re` holds caseless (the dashes of anchor_pattern's
        // `[-\u2013\u2014]`) matches only itself, as outside IGNORECASE.
        let cased = ranges.iter().any(|&(a, b)| {
            a <= 'z' && b >= 'A'
                || (!a.is_ascii() || !b.is_ascii()) && (a != b || crate::chars::is_sre_cased(a))
        });
        if self.ignore_case && cased {
            return Err("a class with letters under IGNORECASE".into());
        }
        Ok(Class::new(negated, ranges, named))
    }
}

enum ClassItem {
    Char(char),
    Named((Named, bool)),
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap (Cargo.toml)
mod tests {
    use super::parse;

    #[test]
    fn parses_the_constructs_of_the_figure_patterns() {
        let parsed = parse(
            r"(?=[\d$§])(?P<a>\d++(?:\.\d+)*+)(?!\w)|(?<![\w.])x{2,}",
            false,
        );
        let parsed = parsed.unwrap();
        assert_eq!(parsed.groups, 1);
        assert_eq!(parsed.names, vec![("a".to_string(), 1)]);
    }

    #[test]
    fn refuses_what_it_cannot_match_exactly() {
        assert!(parse("a*?", false).is_err());
        assert!(parse("^a", false).is_err());
        assert!(parse(r"(?<!a+)b", false).is_err());
        assert!(parse("[a-z]", true).is_err());
        assert!(parse("(a", false).is_err());
    }
}
