//! The gamerec text format: reader (the container in [`crate::record`]) and
//! writer (from the document model).
//!
//! The writer puts the tags in their order, a blank line, the game's comment,
//! then the written moves (automatic passes left out), each after its move
//! number when it has one, separated by spaces and wrapped at 80 columns,
//! each followed by its comment. A comment holding `}` is written as `;` line
//! comments, one per line of the comment, on consecutive lines: the
//! container reads such a run back as one comment with its line breaks
//! ([`crate::record`]), so the comment comes back exactly. Line breaks in
//! comments are written as LF (the container reads CRLF and CR as LF).
//! A line break in a tag value cannot be written (spec §5: a value holds
//! none, and only `\"` and `\\` are escapes): it is written as a space
//! and noted in [`Losses`], so `convert` says so (`--strict`: refused).

use super::{Losses, ReadError, SourceGame};
use crate::model::DocGame;
use crate::record::{RawGame, Reader, parse_file};
use crate::source::TextBuf;

pub fn read(text: &str) -> Vec<RawGame> {
    parse_file(text)
}

/// Reads gamerec text one game at a time (see [`super::open`]).
pub fn games(buf: TextBuf<'_>) -> impl Iterator<Item = Result<Box<SourceGame>, ReadError>> + '_ {
    let mut reader = Reader::new(buf);
    let mut ended = false;
    std::iter::from_fn(move || {
        if ended {
            return None;
        }
        // a recycled game's room takes the next game
        let mut g = crate::formats::pooled();
        match reader.next_game_into(&mut g.raw, g.text.to_mut()) {
            Some(origin) => {
                g.origin = origin;
                Some(Ok(g))
            }
            None => {
                ended = true;
                reader.take_error().map(|e| Err(ReadError::new(e)))
            }
        }
    })
}

fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Tag values may not hold line breaks (spec §5: only `\"` and `\\` are
/// escapes, and a line break in a value is an error): each is written as a
/// space, and noted in `losses` for the tag `name`.
fn tag_value(name: &str, value: &str, losses: &mut Losses) -> String {
    if value.contains(['\r', '\n']) {
        losses.note(format!(
            "the line break in the {name} tag's value (a tag value holds none): written as a space"
        ));
        return escape(&value.replace("\r\n", " ").replace(['\r', '\n'], " "));
    }
    escape(value)
}

struct Wrap {
    out: String,
    col: usize,
}

impl Wrap {
    fn word(&mut self, w: &str) {
        let len = w.chars().count();
        if self.col > 0 && self.col + 1 + len > 80 {
            self.out.push('\n');
            self.col = 0;
        } else if self.col > 0 {
            self.out.push(' ');
            self.col += 1;
        }
        self.out.push_str(w);
        self.col += len;
    }

    fn comment(&mut self, c: &str) {
        let normalized;
        let c = if c.contains('\r') {
            normalized = c.replace("\r\n", "\n").replace('\r', "\n");
            normalized.as_str()
        } else {
            c
        };
        // `;` lines also keep a line break at either end, which a `{ }`
        // comment (trimmed as it is read) loses
        if c.contains('}') || c.starts_with('\n') || c.ends_with('\n') {
            if self.col > 0 {
                self.out.push(' ');
            }
            for (i, line) in c.split('\n').enumerate() {
                if i > 0 {
                    self.out.push('\n');
                }
                self.out.push(';');
                if !line.is_empty() {
                    self.out.push(' ');
                    self.out.push_str(line);
                }
            }
            self.out.push('\n');
            self.col = 0;
        } else if c.is_empty() {
            self.word("{ }");
        } else if c.contains('\n') {
            self.word(&format!("{{ {c} }}"));
            self.col = c.rsplit('\n').next().map_or(0, |l| l.chars().count() + 2);
        } else {
            self.word(&format!("{{ {c} }}"));
        }
    }
}

/// Writes one game as gamerec text; what it cannot keep (a line break in
/// a tag value) is noted in `losses`.
pub fn write_game(game: &DocGame, losses: &mut Losses) -> String {
    let mut out = String::new();
    if !game.tags.iter().any(|(k, _)| k == "Game") {
        out.push_str(&format!(
            "[Game \"{}\"]\n",
            tag_value("Game", &game.game, losses)
        ));
    }
    for (name, value) in &game.tags {
        out.push_str(&format!(
            "[{name} \"{}\"]\n",
            tag_value(name, value, losses)
        ));
    }
    out.push('\n');
    let mut w = Wrap {
        out: String::new(),
        col: 0,
    };
    if let Some(c) = &game.comment {
        w.comment(c);
    }
    losses.move_props(game, "gamerec text", |_| false);
    let mut written = 0;
    for m in game.moves.iter().filter(|m| !m.auto) {
        if let Some(n) = &m.number {
            w.word(n);
        }
        w.word(&m.notation);
        if let Some(c) = &m.comment {
            w.comment(c);
        }
        written += 1;
    }
    // A game without moves writes `*` (spec §5), else the next game's tags
    // would join its tag section.
    if written == 0 {
        w.word("*");
    }
    out.push_str(w.out.trim_end_matches(' '));
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Writes games as one gamerec file, separated by blank lines; what it
/// cannot keep is noted in `losses`.
pub fn write(games: &[DocGame], losses: &mut Losses) -> String {
    games
        .iter()
        .map(|g| write_game(g, losses))
        .collect::<Vec<_>>()
        .join("\n")
}
