//! The record container shared by every game (spec §1): tag sections and movetext.
//!
//! This layer knows no rules. It splits a file into games, reads each game's
//! `[Name "value"]` tags, takes comments and move numbers out of the movetext and
//! hands the remaining tokens, each with its byte span, to the game's notation.
//!
//! Decisions where the spec is silent:
//! - several comments after one move are joined with a space;
//! - comments standing between tags, or before the first move, belong to the game;
//! - a malformed tag is reported and skipped; the rest of the tag section is read;
//! - after a stray `}` or a decreasing move number, the rest of that game's
//!   movetext is skipped (its moves cannot be placed), up to the next `[`;
//! - a final token of result syntax (`36-28`, `-3,5`, `*`) is kept apart and
//!   checked like the `Result` tag.

use nom::{
    IResult, Parser,
    bytes::complete::{take_while, take_while1},
    character::complete::{char, digit1},
    multi::many1_count,
};

use crate::diag::Diag;
use crate::span::Span;

/// One `[Name "value"]` tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    pub value: String,
    /// The whole tag, brackets included.
    pub span: Span,
    /// The value, quotes included.
    pub value_span: Span,
}

/// A game's tags, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags(pub Vec<Tag>);

impl Tags {
    /// The first tag of that name (names are case-sensitive).
    pub fn get(&self, name: &str) -> Option<&Tag> {
        self.0.iter().find(|t| t.name == name)
    }

    pub fn value(&self, name: &str) -> Option<&str> {
        self.get(name).map(|t| t.value.as_str())
    }

    pub fn iter(&self) -> impl Iterator<Item = &Tag> {
        self.0.iter()
    }
}

/// A movetext token: a run of non-space text that is neither comment nor move number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub span: Span,
    /// The comments that follow it, joined.
    pub comment: Option<String>,
}

impl Token {
    pub fn text<'s>(&self, src: &'s str) -> &'s str {
        self.span.text(src)
    }
}

/// One game as the container sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawGame {
    pub tags: Tags,
    /// Malformed or repeated tags (ply 0).
    pub tag_errors: Vec<Diag>,
    /// A comment before the first move.
    pub comment: Option<String>,
    pub tokens: Vec<Token>,
    /// A final token in `Result` syntax.
    pub result_token: Option<Token>,
    /// A movetext error after the last token (stray brace, unterminated comment,
    /// decreasing move number); the game's movetext stops there.
    pub stop: Option<Diag>,
    /// From the first tag (or token) to the end of the game.
    pub span: Span,
    /// A claimed winner from an interchange format (a CSV winner column),
    /// checked against the replay once the game is over.
    pub winner_claim: Option<WinnerClaim>,
    /// Who each token's move is for, when the format says so (GGF's `B`/`W`,
    /// Pentobi's colours), by token index: checked against the side to move
    /// (`record::wrong_player`). Empty when the format does not say.
    pub token_players: Vec<Option<String>>,
}

/// Who a record says won: seat indices (several on a draw), and where it says so.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WinnerClaim {
    pub seats: Vec<usize>,
    pub span: Span,
    /// What the claim was written as, for the message.
    pub text: String,
}

/// Splits a file into games. `src` is the whole file; spans are offsets into it.
pub fn parse_file(src: &str) -> Vec<RawGame> {
    Reader::new(src).run()
}

/// Tag errors reported per game at most (a binary file would give thousands).
pub const MAX_TAG_ERRORS: usize = 20;

struct Reader<'a> {
    src: &'a str,
    pos: usize,
    games: Vec<RawGame>,
    cur: RawGame,
    started: bool,
    in_movetext: bool,
    /// Movetext stopped (after an error): skip until the next tag section.
    skipping: bool,
    last_number: Option<(u64, Span)>,
}

fn is_space(c: char) -> bool {
    c.is_whitespace()
}

fn is_token_char(c: char) -> bool {
    !c.is_whitespace() && !matches!(c, '{' | '}' | ';' | '[')
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `12.`, `12...`: returns the number and the text length it takes.
fn move_number(i: &str) -> IResult<&str, u64> {
    let (rest, (digits, _dots)) = (digit1, many1_count(char('.'))).parse(i)?;
    Ok((rest, digits.parse::<u64>().unwrap_or(u64::MAX)))
}

/// `Name` then spaces, up to the opening quote.
fn tag_head(i: &str) -> IResult<&str, &str> {
    let (i, _) = char('[').parse(i)?;
    let (i, _) = take_while(|c: char| c == ' ' || c == '\t').parse(i)?;
    let (i, name) = take_while1(is_name_char).parse(i)?;
    let (i, _) = take_while1(|c: char| c == ' ' || c == '\t').parse(i)?;
    Ok((i, name))
}

/// Whether a token is in `Result` syntax: `*`, or integers joined by `-`, or by `,`.
pub fn is_result_syntax(text: &str) -> bool {
    text == "*" || parse_result_scores(text).is_some()
}

/// The scores of a `Result` value: integers joined by `-`, or by `,` with optional
/// spaces (a leading `-` is then a sign). `None` for `*` or malformed text.
pub fn parse_result_scores(text: &str) -> Option<Vec<i64>> {
    let text = text.trim();
    let parts: Vec<&str> = if text.contains(',') {
        text.split(',').map(str::trim).collect()
    } else {
        text.split('-').collect()
    };
    if parts.len() < 2 {
        return None;
    }
    let signed = text.contains(',');
    parts
        .iter()
        .map(|p| {
            let digits = if signed {
                p.strip_prefix('-').unwrap_or(p)
            } else {
                p
            };
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            p.parse::<i64>().ok()
        })
        .collect()
}

/// The `Result` text for scores: joined by `-`, or by `, ` when one is negative.
pub fn format_result(scores: &[i64]) -> String {
    let parts: Vec<String> = scores.iter().map(i64::to_string).collect();
    if scores.iter().any(|&s| s < 0) {
        parts.join(", ")
    } else {
        parts.join("-")
    }
}

impl<'a> Reader<'a> {
    fn new(src: &'a str) -> Self {
        let pos = if src.starts_with('\u{feff}') { 3 } else { 0 };
        Reader {
            src,
            pos,
            games: Vec::new(),
            cur: RawGame::default(),
            started: false,
            in_movetext: false,
            skipping: false,
            last_number: None,
        }
    }

    fn rest(&self) -> &'a str {
        self.src.get(self.pos..).unwrap_or("")
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn run(mut self) -> Vec<RawGame> {
        while let Some(c) = self.peek() {
            if is_space(c) {
                self.pos += c.len_utf8();
            } else if c == '[' {
                if self.in_movetext {
                    self.finish_game();
                }
                self.start_game();
                self.tag();
            } else if c == '{' {
                self.brace_comment();
            } else if c == ';' {
                self.line_comment();
            } else if c == '}' {
                self.start_game();
                let span = Span::new(self.pos, 1);
                self.pos += 1;
                self.in_movetext = true;
                self.stop_movetext(
                    Diag::error("record::stray_brace", "`}` without an opening `{`")
                        .at(span)
                        .label("no comment to close here")
                        .help("comments are written `{ like this }`"),
                );
            } else {
                self.start_game();
                self.token();
            }
        }
        if self.started {
            self.finish_game();
        }
        self.games
    }

    fn start_game(&mut self) {
        if !self.started {
            self.started = true;
            self.cur.span = Span::new(self.pos, 0);
        }
    }

    fn finish_game(&mut self) {
        let mut game = std::mem::take(&mut self.cur);
        game.span = Span::between(game.span.offset, self.pos);
        // A final token in result syntax closes the movetext (as in PGN).
        if game.stop.is_none()
            && game
                .tokens
                .last()
                .is_some_and(|t| is_result_syntax(t.text(self.src)))
        {
            let tok = game.tokens.pop();
            if let Some(comment) = tok.as_ref().and_then(|t| t.comment.clone()) {
                attach(&mut game, comment);
            }
            game.result_token = tok;
        }
        self.games.push(game);
        self.started = false;
        self.in_movetext = false;
        self.skipping = false;
        self.last_number = None;
    }

    fn stop_movetext(&mut self, diag: Diag) {
        if !self.skipping {
            self.cur.stop = Some(diag);
            self.skipping = true;
        }
    }

    fn tag(&mut self) {
        let start = self.pos;
        let bad = |this: &mut Self, why: &str, help: &str| {
            // The malformed tag runs to its `]`, or stops before a line end or the next `[`.
            let rest = this.src.get(start + 1..).unwrap_or("");
            let end = match rest.find([']', '\n', '[']) {
                Some(i) if rest.as_bytes().get(i) == Some(&b']') => start + 1 + i + 1,
                Some(i) => start + 1 + i,
                None => this.src.len(),
            };
            let end = end.max(start + 1);
            this.tag_error(
                Diag::error("record::bad_tag", format!("malformed tag: {why}"))
                    .at(Span::between(start, end))
                    .label(why.to_string())
                    .help(help.to_string()),
            );
            this.pos = end;
        };
        let Ok((after_head, name)) = tag_head(self.rest()) else {
            bad(
                self,
                "expected a tag name of letters, digits and `_`, then a space",
                "tags are written [Name \"value\"]",
            );
            return;
        };
        let name = name.to_string();
        let mut p = self.src.len() - after_head.len();
        if !after_head.starts_with('"') {
            bad(
                self,
                "the value must be a double-quoted string",
                "tags are written [Name \"value\"]",
            );
            return;
        }
        let value_start = p;
        p += 1;
        let mut value = String::new();
        let bytes = self.src.as_bytes();
        loop {
            match bytes.get(p) {
                None | Some(b'\n') | Some(b'\r') => {
                    // A value broken over lines: skip to its `"]` if one follows.
                    let rest = self.src.get(p..).unwrap_or("");
                    let next_tag = rest.find("\n[").unwrap_or(rest.len());
                    if let Some(i) = rest.find("\"]").filter(|&i| i < next_tag) {
                        let end = p + i + 2;
                        self.tag_error(
                            Diag::error(
                                "record::bad_tag",
                                "malformed tag: a line break inside the value",
                            )
                            .at(Span::between(start, end))
                            .label("the value spans lines")
                            .help("a tag value may not hold a line break; keep it on one line"),
                        );
                        self.pos = end;
                        return;
                    }
                    bad(
                        self,
                        "the value's closing quote is missing on this line",
                        "close the value with `\"` on the same line",
                    );
                    return;
                }
                Some(b'"') => {
                    p += 1;
                    break;
                }
                Some(b'\\') if matches!(bytes.get(p + 1), Some(b'"') | Some(b'\\')) => {
                    value.push(bytes.get(p + 1).map_or('\\', |&b| b as char));
                    p += 2;
                }
                Some(_) => {
                    let ch = self
                        .src
                        .get(p..)
                        .and_then(|s| s.chars().next())
                        .unwrap_or('\u{fffd}');
                    value.push(ch);
                    p += ch.len_utf8();
                }
            }
        }
        let value_span = Span::between(value_start, p);
        while matches!(bytes.get(p), Some(b' ') | Some(b'\t')) {
            p += 1;
        }
        if bytes.get(p) != Some(&b']') {
            bad(
                self,
                "expected `]` after the value",
                "tags are written [Name \"value\"]",
            );
            return;
        }
        p += 1;
        self.pos = p;
        let span = Span::between(start, p);
        if self.cur.tags.get(&name).is_some() {
            self.tag_error(
                Diag::error(
                    "record::duplicate_tag",
                    format!("tag `{name}` is given twice"),
                )
                .at(span)
                .label("repeated here")
                .help(format!(
                    "a game has one `{name}` tag; the first one counts, remove this one"
                )),
            );
            return;
        }
        self.cur.tags.0.push(Tag {
            name,
            value,
            span,
            value_span,
        });
    }

    /// Records a tag error; past [`MAX_TAG_ERRORS`] in one game the rest are dropped.
    fn tag_error(&mut self, d: Diag) {
        if self.cur.tag_errors.len() < MAX_TAG_ERRORS {
            self.cur.tag_errors.push(d);
        }
    }

    fn brace_comment(&mut self) {
        let start = self.pos;
        match self.rest().find('}') {
            Some(i) => {
                let text = self.src.get(start + 1..start + i).unwrap_or("");
                self.pos = start + i + 1;
                self.comment(text.trim().to_string());
            }
            None => {
                self.start_game();
                self.in_movetext = true;
                self.stop_movetext(
                    Diag::error(
                        "record::unterminated_comment",
                        "this `{` comment is never closed",
                    )
                    .at(Span::new(start, 1))
                    .label("comment opened here")
                    .help("close the comment with `}`"),
                );
                // Resume at the next line that starts with `[`.
                let rest = self.rest();
                let next = rest
                    .match_indices("\n[")
                    .next()
                    .map(|(i, _)| self.pos + i + 1);
                self.pos = next.unwrap_or(self.src.len());
                if next.is_some() {
                    self.finish_game();
                }
            }
        }
    }

    fn line_comment(&mut self) {
        let start = self.pos + 1;
        let end = self
            .rest()
            .find('\n')
            .map_or(self.src.len(), |i| self.pos + i);
        let text = self.src.get(start..end).unwrap_or("").trim().to_string();
        self.pos = end;
        self.comment(text);
    }

    fn comment(&mut self, text: String) {
        if self.skipping {
            return;
        }
        let text = if text.contains('\r') {
            text.replace("\r\n", "\n")
        } else {
            text
        };
        attach(&mut self.cur, text);
    }

    fn token(&mut self) {
        self.in_movetext = true;
        let start = self.pos;
        let len = self
            .rest()
            .find(|c: char| !is_token_char(c))
            .unwrap_or(self.rest().len());
        self.pos += len;
        if self.skipping {
            return;
        }
        let mut text = self.src.get(start..start + len).unwrap_or("");
        let mut tok_start = start;
        if let Ok((rest, number)) = move_number(text) {
            let num_span = Span::new(start, text.len() - rest.len());
            if let Some((last, _)) = self.last_number {
                if number < last {
                    self.stop_movetext(
                        Diag::error(
                            "record::move_number_decreases",
                            format!("move number {number} comes after move number {last}"),
                        )
                        .at(num_span)
                        .label("smaller than the one before")
                        .help(format!(
                            "move numbers may repeat or grow, never shrink: use {last} or more"
                        )),
                    );
                    return;
                }
            }
            self.last_number = Some((number, num_span));
            tok_start = start + num_span.length;
            text = rest;
        }
        if text.is_empty() {
            return;
        }
        self.cur.tokens.push(Token {
            span: Span::new(tok_start, text.len()),
            comment: None,
        });
    }
}

fn attach(game: &mut RawGame, text: String) {
    let slot = match game.tokens.last_mut() {
        Some(tok) => &mut tok.comment,
        None => &mut game.comment,
    };
    match slot {
        Some(existing) => {
            if !text.is_empty() {
                if !existing.is_empty() {
                    existing.push(' ');
                }
                existing.push_str(&text);
            }
        }
        None => *slot = Some(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'s>(src: &'s str, g: &RawGame) -> Vec<&'s str> {
        g.tokens.iter().map(|t| t.text(src)).collect()
    }

    #[test]
    fn tags_tokens_comments_numbers() {
        let src = "\u{feff}[Game \"reversi\"]\r\n[Event \"A \\\"b\\\" \\\\ c\"]\r\n\r\n1. f5 d6 2.c3 {hi} d3 ; end\r\n3... c4 *\r\n";
        let games = parse_file(src);
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tags.value("Event"), Some("A \"b\" \\ c"));
        assert_eq!(texts(src, g), ["f5", "d6", "c3", "d3", "c4"]);
        assert_eq!(g.tokens[2].comment.as_deref(), Some("hi"));
        assert_eq!(g.tokens[3].comment.as_deref(), Some("end"));
        assert!(g.result_token.is_some());
        assert!(g.tag_errors.is_empty() && g.stop.is_none());
    }

    #[test]
    fn several_games_and_bad_tags() {
        let src = "[Game reversi]\n[Event \"x\"]\n[Event \"y\"]\nf5\n[Game \"reversi\"]\nd3\n";
        let games = parse_file(src);
        assert_eq!(games.len(), 2);
        let codes: Vec<_> = games[0]
            .tag_errors
            .iter()
            .map(|d| d.code.as_ref())
            .collect();
        assert_eq!(codes, ["record::bad_tag", "record::duplicate_tag"]);
        assert_eq!(texts(src, &games[1]), ["d3"]);
    }

    #[test]
    fn unterminated_comment_resumes_at_next_tag_line() {
        let src = "[Game \"reversi\"]\nf5 { oops\nd6\n[Game \"reversi\"]\nf5\n";
        let games = parse_file(src);
        assert_eq!(games.len(), 2);
        let stop = games[0].stop.as_ref().map(|d| d.code.as_ref());
        assert_eq!(stop, Some("record::unterminated_comment"));
        assert_eq!(
            games[0].stop.as_ref().and_then(|d| d.span),
            Some(Span::new(20, 1))
        );
        assert_eq!(texts(src, &games[1]), ["f5"]);
    }

    #[test]
    fn stray_brace_and_decreasing_numbers_stop_movetext() {
        let src = "f5 } d6";
        let g = &parse_file(src)[0];
        assert_eq!(texts(src, g), ["f5"]);
        assert_eq!(
            g.stop.as_ref().map(|d| d.code.as_ref()),
            Some("record::stray_brace")
        );
        let src = "2. f5 1. d6";
        let g = &parse_file(src)[0];
        assert_eq!(texts(src, g), ["f5"]);
        assert_eq!(g.stop.as_ref().and_then(|d| d.span), Some(Span::new(6, 2)));
    }

    #[test]
    fn result_syntax() {
        assert_eq!(parse_result_scores("36-28"), Some(vec![36, 28]));
        assert_eq!(parse_result_scores("-52, 15"), Some(vec![-52, 15]));
        assert_eq!(parse_result_scores("1-2-3-4"), Some(vec![1, 2, 3, 4]));
        assert_eq!(parse_result_scores("*"), None);
        assert_eq!(parse_result_scores("a-b"), None);
        assert_eq!(parse_result_scores("5"), None);
        assert_eq!(format_result(&[-52, 15]), "-52, 15");
        assert_eq!(format_result(&[36, 28]), "36-28");
    }

    #[test]
    fn empty_and_garbage() {
        assert!(parse_file("").is_empty());
        assert!(parse_file("\u{feff}  \n").is_empty());
        let _ = parse_file("[[[[{{{{}}}}]]]]\"\\");
        let _ = parse_file("[A \"\\");
    }
}
