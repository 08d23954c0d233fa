//! SGF's property-tree syntax as GGF and Pentobi's files share it, written
//! once: the lexer both readers build on, and a value's escaping.
//!
//! The lexer turns a text into a flat stream of [`Token`]s, looking at each
//! byte once: `(` a game tree opens, `)` it closes, `;` a node starts, a
//! property identifier, a value `[...]` (its span inside the brackets), a
//! value missing its `]` (to the end of the text), and any other character
//! on its own. White space between tokens is skipped. It keeps no state
//! but its position: the tree structure (which `(` a `)` closes, which node
//! a property belongs to) is the reader's, so that no input makes it grow.
//!
//! The two formats differ in details, given by a [`Dialect`]: what an
//! identifier is (GGF: an upper-case letter, then letters and digits;
//! SGF/Pentobi: upper-case letters and digits), what white space is (GGF:
//! space, tab, CR, LF; SGF: ASCII white space, form feed too), and how a
//! value is unescaped ([`ggf_value`], [`sgf_value`]). Where a value ends is
//! the same in both: at the first `]` not taken by a `\` (a `\` takes the
//! byte after it). A reader that needs two tokens side by side (GGF's `;)`
//! and `(;`, a value right after its identifier) compares their spans.
//!
//! Writing: inside a value, `]` and `\` are written `\]` and `\\`; any
//! other character stands for itself ([`escape`]).

use std::borrow::Cow;

use crate::span::Span;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `(`: a game tree opens.
    Open,
    /// `)`: a game tree closes.
    Close,
    /// `;`: a node starts.
    Node,
    /// A property identifier.
    Ident,
    /// A value; its span is inside the brackets. `escaped`: it holds a `\`.
    Value { escaped: bool },
    /// A value without its closing `]`: from after its `[` to the end.
    Unclosed,
    /// One character that starts no other token.
    Text,
}

/// A token and where it stands in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: Kind,
    pub span: Span,
}

impl Token {
    /// Where the token starts in the text (a value at its `[`).
    pub fn start(&self) -> usize {
        match self.kind {
            Kind::Value { .. } | Kind::Unclosed => self.span.offset.saturating_sub(1),
            _ => self.span.offset,
        }
    }

    /// Where the token ends in the text (a value after its `]`).
    pub fn end(&self) -> usize {
        match self.kind {
            Kind::Value { .. } => self.span.end() + 1,
            _ => self.span.end(),
        }
    }
}

/// What the formats' syntaxes differ in: a class for every byte (white
/// space, what may start an identifier, what may go on with one).
pub(crate) struct Dialect {
    class: [u8; 256],
}

const BLANK: u8 = 1;
const IDENT_FIRST: u8 = 2;
const IDENT_REST: u8 = 4;

impl Dialect {
    /// `digit_first`: an identifier may start with a digit; `lower_rest`:
    /// go on with lower-case letters (upper-case letters do both always,
    /// digits go on always).
    const fn new(blank: &[u8], digit_first: bool, lower_rest: bool) -> Dialect {
        let mut class = [0u8; 256];
        let mut b = 0;
        while b < 256 {
            let c = b as u8;
            let mut k = 0;
            while k < blank.len() {
                if blank[k] == c {
                    class[b] |= BLANK;
                }
                k += 1;
            }
            if c.is_ascii_uppercase() || (digit_first && c.is_ascii_digit()) {
                class[b] |= IDENT_FIRST;
            }
            if c.is_ascii_uppercase() || c.is_ascii_digit() || (lower_rest && c.is_ascii_lowercase())
            {
                class[b] |= IDENT_REST;
            }
            b += 1;
        }
        Dialect { class }
    }

    fn is(&self, b: u8, class: u8) -> bool {
        self.class[usize::from(b)] & class != 0
    }
}

/// GGF: identifiers `[A-Z][A-Za-z0-9]*`, white space space, tab, CR, LF.
pub(crate) const GGF: Dialect = Dialect::new(b" \t\r\n", false, true);

/// SGF as Pentobi writes it: identifiers `[A-Z0-9]+`, ASCII white space
/// (form feed too).
pub(crate) const SGF: Dialect = Dialect::new(b" \t\r\n\x0c", true, false);

/// The tokens of a text from a position on (see the module docs).
pub(crate) struct Lexer<'t> {
    text: &'t str,
    at: usize,
    dialect: &'static Dialect,
}

impl<'t> Lexer<'t> {
    /// A lexer of `text` from byte `at` (a character boundary).
    pub fn new(text: &'t str, at: usize, dialect: &'static Dialect) -> Self {
        Lexer {
            text,
            at: at.min(text.len()),
            dialect,
        }
    }

    /// A value's rest after its `[` at `open`: a value, or unclosed.
    fn value(&mut self, open: usize) -> Token {
        let bytes = self.text.as_bytes();
        let from = open + 1;
        let mut at = from;
        let mut escaped = false;
        // values are short (a move, a name): a plain loop beats a search
        while let Some(&b) = bytes.get(at) {
            match b {
                b']' => {
                    self.at = at + 1;
                    return Token {
                        kind: Kind::Value { escaped },
                        span: Span::between(from, at),
                    };
                }
                // a `\` takes the byte after it (a character's first byte:
                // the rest of it is neither `]` nor `\`)
                b'\\' => {
                    escaped = true;
                    at += 2;
                }
                _ => at += 1,
            }
        }
        self.at = self.text.len();
        Token {
            kind: Kind::Unclosed,
            span: Span::between(from, self.text.len()),
        }
    }
}

impl Iterator for Lexer<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        let bytes = self.text.as_bytes();
        let d = self.dialect;
        while bytes.get(self.at).is_some_and(|&b| d.is(b, BLANK)) {
            self.at += 1;
        }
        let start = self.at;
        let &b = bytes.get(start)?;
        let one = |kind| Token {
            kind,
            span: Span::new(start, 1),
        };
        let token = match b {
            b'(' => one(Kind::Open),
            b')' => one(Kind::Close),
            b';' => one(Kind::Node),
            b'[' => return Some(self.value(start)),
            _ if d.is(b, IDENT_FIRST) => {
                let len = 1 + bytes
                    .get(start + 1..)
                    .map_or(0, |r| r.iter().take_while(|&&c| d.is(c, IDENT_REST)).count());
                Token {
                    kind: Kind::Ident,
                    span: Span::new(start, len),
                }
            }
            _ => {
                let len = self
                    .text
                    .get(start..)
                    .and_then(|r| r.chars().next())
                    .map_or(1, char::len_utf8);
                Token {
                    kind: Kind::Text,
                    span: Span::new(start, len),
                }
            }
        };
        self.at = start + token.span.length;
        Some(token)
    }
}

/// A GGF value's text (`raw`, inside its brackets) without its escapes:
/// `\]` and `\\` stand for `]` and `\`; any other `\` for itself.
/// `escaped`: whether it holds a `\` (as its token says).
pub(crate) fn ggf_value(raw: &str, escaped: bool) -> Cow<'_, str> {
    if !escaped {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(k) = rest.find('\\') {
        out.push_str(rest.get(..k).unwrap_or(""));
        let after = rest.get(k + 1..).unwrap_or("");
        match after.as_bytes().first() {
            Some(&c @ (b']' | b'\\')) => {
                out.push(char::from(c));
                rest = after.get(1..).unwrap_or("");
            }
            _ => {
                out.push('\\');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// An SGF value's text (`raw`, inside its brackets) without its escapes:
/// `\` takes the next character literally; `\` before a line break (LF,
/// CRLF, LFCR or a lone CR) removes it.
pub(crate) fn sgf_value(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(n @ ('\n' | '\r')) => {
                let pair = if n == '\n' { '\r' } else { '\n' };
                if chars.peek() == Some(&pair) {
                    chars.next();
                }
            }
            Some(n) => out.push(n),
            None => {}
        }
    }
    out
}

/// A property value as SGF writes it: `\` and `]` escaped.
pub(crate) fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds<'a>(text: &'a str, dialect: &'static Dialect) -> Vec<(Kind, &'a str)> {
        Lexer::new(text, 0, dialect)
            .map(|t| (t.kind, t.span.text(text)))
            .collect()
    }

    #[test]
    fn tokens_of_a_tree() {
        let text = "(;GM[Blokus] C[a\\]b]\n(;1[a1][b2])é)";
        assert_eq!(
            kinds(text, &SGF),
            [
                (Kind::Open, "("),
                (Kind::Node, ";"),
                (Kind::Ident, "GM"),
                (Kind::Value { escaped: false }, "Blokus"),
                (Kind::Ident, "C"),
                (Kind::Value { escaped: true }, "a\\]b"),
                (Kind::Open, "("),
                (Kind::Node, ";"),
                (Kind::Ident, "1"),
                (Kind::Value { escaped: false }, "a1"),
                (Kind::Value { escaped: false }, "b2"),
                (Kind::Close, ")"),
                (Kind::Text, "é"),
                (Kind::Close, ")"),
            ]
        );
    }

    #[test]
    fn dialects_differ_in_identifiers_and_blanks() {
        assert_eq!(
            kinds("Ab1[x]\x0c", &GGF),
            [(Kind::Ident, "Ab1"), (Kind::Value { escaped: false }, "x"), (Kind::Text, "\x0c")]
        );
        assert_eq!(
            kinds("Ab1[x]\x0c", &SGF),
            [
                (Kind::Ident, "A"),
                (Kind::Text, "b"),
                (Kind::Ident, "1"),
                (Kind::Value { escaped: false }, "x")
            ]
        );
    }

    #[test]
    fn unclosed_values_run_to_the_end() {
        assert_eq!(kinds("B[f5\\]", &GGF), [(Kind::Ident, "B"), (Kind::Unclosed, "f5\\]")]);
        assert_eq!(kinds("B[f5\\", &GGF), [(Kind::Ident, "B"), (Kind::Unclosed, "f5\\")]);
        let t = Lexer::new("[é\\é]", 0, &SGF).next().unwrap();
        assert_eq!((t.kind, t.start(), t.end()), (Kind::Value { escaped: true }, 0, 7));
    }

    #[test]
    fn unescaping() {
        assert_eq!(ggf_value(r"a\]b\\c\d", true), r"a]b\c\d");
        assert!(matches!(ggf_value("plain", false), Cow::Borrowed("plain")));
        assert_eq!(sgf_value("a\\]b\\\\c\\d\\\r\ne"), "a]b\\cde");
    }

    #[test]
    fn escapes_the_closing_bracket_and_the_backslash() {
        assert_eq!(escape(r"a]b\c[d"), r"a\]b\\c[d");
        assert_eq!(escape("plain"), "plain");
    }
}
