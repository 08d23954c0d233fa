//! GGF, the Generic Game Format of the GGS game server, for Othello:
//! `(;GM[Othello]PC[..]DT[..]PB[..]PW[..]RE[..]TY[8]BO[8 ... *]B[f5//1.2]W[d6/-3.5/0.4]...;)`,
//! several games per file. Read and written (`convert --to ggf`).
//!
//! The text is the file itself; each move's token is the square (or pass)
//! inside `B[...]`/`W[...]`, so spans point into the file.
//!
//! Reading:
//! - `GM` becomes the `Game` tag (compared case-insensitively: `Othello` is
//!   Reversi's alias; another game is `record::unknown_game` at the value); a
//!   game without `GM` is taken as Othello;
//! - every game gets `Variant "wof"`: `RE` is black's disc difference with the
//!   empty squares counted for the winner;
//! - `PC`, `DT`, `PB`, `PW` become `Site`, `Date`, `Black`, `White`;
//! - `RE` as a number `d` (`+12.000`, `-4`, `0`) with `d` even and within
//!   -64..64 becomes `Result` with `b - w = d`, `b + w = 64`; any other `RE`
//!   (`+12:r` resigned, `:t` time, `?`, odd) is kept as `GGF_RE` and no
//!   `Result` is made;
//! - `BO[8 cells side]` becomes `Setup` (cells `-` empty, `*` black, `O`
//!   white; side `*` black, `O` white), left out when it is the standard
//!   start with black to move; a `BO` or `TY` of another size than 8 is
//!   `reversi::bad_setup` and the game is not replayed;
//! - every other property `XX` is kept as a tag `GGF_XX` (`TY`, `TI`, `KM`,
//!   `C`...), values unescaped (`\]` and `\\`);
//! - a move is `square[/eval[/time]]`; eval and time are dropped; passes are
//!   `PA` or `pass`, any case. The `B`/`W` colour of a move must be the side
//!   to move once the replay has passed automatically for a side without a
//!   move (`record::wrong_player` otherwise);
//! - text that is no property inside a game, an unterminated value or a game
//!   without `;)` is `ggf::syntax` (the moves before it are replayed).
//!
//! Writing (Reversi games only): `GM[Othello]` (a `Game` tag spelling
//! `othello` another way is kept), then the tags in their order
//! as properties (`Site` `PC`, `Date` `DT`, `Black` `PB`, `White` `PW`,
//! `Result` `RE` as black's difference, `Setup` `BO`, `GGF_XX` `XX`; other
//! tags have no GGF property and are left out), `TY[8]` and `BO` when not
//! given, then the written moves (`B[f5]`, `W[PA]`; automatic passes left
//! out), `;)`. Reading what was written gives the same games.

use crate::diag::Diag;
use crate::formats::Losses;
use crate::model::DocGame;
use crate::record::{RawGame, Tag, Tags, Token};
use crate::span::Span;

/// One property: name, unescaped value, spans of the whole and of the value.
struct Prop {
    name: String,
    value: String,
    span: Span,
    value_span: Span,
}

const START_CELLS: &str = "---------------------------O*------*O---------------------------";

fn syntax(msg: impl Into<String>, span: Span, label: &str) -> Diag {
    Diag::error("ggf::syntax", msg)
        .at(span)
        .label(label.to_string())
        .help("a GGF game is `(;` then properties `XX[value]` then `;)`")
}

/// Reads the properties of one game from `i` (after `(;`); returns them, the
/// position after `;)` and a syntax error if one stopped the game.
fn props(text: &str, mut i: usize) -> (Vec<Prop>, usize, Option<Diag>) {
    let b = text.as_bytes();
    let mut out = Vec::new();
    loop {
        while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
            i += 1;
        }
        match b.get(i) {
            None => {
                let d = syntax(
                    "the game has no closing `;)`",
                    Span::new(text.len(), 0),
                    "the file ends here",
                );
                return (out, i, Some(d));
            }
            Some(b';') if b.get(i + 1) == Some(&b')') => return (out, i + 2, None),
            Some(c) if c.is_ascii_uppercase() => {
                let start = i;
                while b.get(i).is_some_and(|c| c.is_ascii_alphanumeric()) {
                    i += 1;
                }
                let name = text.get(start..i).unwrap_or("").to_string();
                if b.get(i) != Some(&b'[') {
                    let d = syntax(
                        format!("property `{name}` has no `[value]`"),
                        Span::between(start, i),
                        "expected `[` after this",
                    );
                    return (out, skip_game(text, i), Some(d));
                }
                i += 1;
                let vstart = i;
                let mut value = String::new();
                loop {
                    match b.get(i) {
                        None => {
                            let d = syntax(
                                format!("the value of `{name}` has no closing `]`"),
                                Span::between(start, vstart),
                                "unterminated",
                            );
                            return (out, i, Some(d));
                        }
                        Some(b']') => break,
                        Some(b'\\') if b.get(i + 1).is_some_and(|&c| c == b']' || c == b'\\') => {
                            value.push(char::from(*b.get(i + 1).unwrap_or(&b']')));
                            i += 2;
                        }
                        Some(_) => {
                            let ch = text.get(i..).and_then(|r| r.chars().next()).unwrap_or(' ');
                            value.push(ch);
                            i += ch.len_utf8();
                        }
                    }
                }
                out.push(Prop {
                    name,
                    value,
                    span: Span::between(start, i + 1),
                    value_span: Span::between(vstart, i),
                });
                i += 1;
            }
            Some(_) => {
                let len = text
                    .get(i..)
                    .and_then(|r| r.chars().next())
                    .map_or(1, char::len_utf8);
                let d = syntax(
                    "unexpected text inside a game",
                    Span::new(i, len),
                    "not a property",
                );
                return (out, skip_game(text, i), Some(d));
            }
        }
    }
}

/// The position after the `;)` that ends the game from `i`, or the end.
fn skip_game(text: &str, i: usize) -> usize {
    text.get(i..)
        .and_then(|r| r.find(";)"))
        .map_or(text.len(), |k| i + k + 2)
}

/// Reads `RE`: black's disc difference as scores, when it is one.
fn result_of(re: &str) -> Option<(i64, i64)> {
    let v: f64 = re.trim().parse().ok()?;
    if !v.is_finite() || v.fract() != 0.0 || !(-64.0..=64.0).contains(&v) {
        return None;
    }
    let d = v as i64;
    if d % 2 != 0 {
        return None;
    }
    Some(((64 + d) / 2, (64 - d) / 2))
}

/// `BO` to a `Setup` value: `Ok(None)` for the standard start, `Err` for a
/// board that is not 8x8 or malformed.
fn setup_of(bo: &str) -> Result<Option<String>, String> {
    let mut parts = bo.split_whitespace();
    let size = parts.next().unwrap_or("");
    if size != "8" {
        return Err(format!("a board of size `{size}`: only 8x8 is supported"));
    }
    let rest: String = parts.collect();
    let mut chars: Vec<char> = rest.chars().collect();
    let side = match chars.pop() {
        Some('*') => 'b',
        Some('O' | 'o') => 'w',
        other => {
            return Err(format!(
                "the side to move is `{}`, not `*` or `O`",
                other.map(String::from).unwrap_or_default()
            ));
        }
    };
    if chars.len() != 64 {
        return Err(format!(
            "{} instead of 64",
            crate::diag::plural(chars.len(), "cell", "cells")
        ));
    }
    let mut cells = String::with_capacity(64);
    for c in chars {
        cells.push(match c {
            '-' | '.' => '-',
            '*' | 'X' | 'x' => '*',
            'O' | 'o' => 'O',
            other => return Err(format!("cell `{other}` is not -, * or O")),
        });
    }
    if cells == START_CELLS && side == 'b' {
        return Ok(None);
    }
    Ok(Some(format!("{cells} {side}")))
}

fn tag(name: &str, value: String, p: &Prop) -> Tag {
    Tag {
        name: name.to_string(),
        value,
        span: p.span,
        value_span: p.value_span,
    }
}

fn game(text: &str, start: usize, props: Vec<Prop>, stop: Option<Diag>, end: usize) -> RawGame {
    let mut tags = Vec::new();
    let mut tag_errors = Vec::new();
    let mut tokens = Vec::new();
    let mut players = Vec::new();
    let mut no_replay = false;
    let head = Span::new(start, 2);
    match props.iter().find(|p| p.name == "GM") {
        Some(p) => tags.push(tag("Game", p.value.trim().to_string(), p)),
        None => tags.push(Tag {
            name: "Game".into(),
            value: "reversi".into(),
            span: head,
            value_span: head,
        }),
    }
    tags.push(Tag {
        name: "Variant".into(),
        value: "wof".into(),
        span: head,
        value_span: head,
    });
    for p in &props {
        match p.name.as_str() {
            "GM" => {}
            "B" | "W" => {
                let raw = p.value.split('/').next().unwrap_or("");
                let lead = raw.len() - raw.trim_start().len();
                let sq = raw.trim();
                // the value is unescaped: find the square in the file text
                let at = p.value_span.offset + lead;
                let span = if text.get(at..at + sq.len()) == Some(sq) {
                    Span::new(at, sq.len())
                } else {
                    p.value_span
                };
                tokens.push(Token {
                    span,
                    comment: None,
                });
                players.push(Some(
                    if p.name == "B" { "black" } else { "white" }.to_string(),
                ));
            }
            "PC" => tags.push(tag("Site", p.value.clone(), p)),
            "DT" => tags.push(tag("Date", p.value.clone(), p)),
            "PB" => tags.push(tag("Black", p.value.clone(), p)),
            "PW" => tags.push(tag("White", p.value.clone(), p)),
            "RE" => match result_of(&p.value) {
                Some((b, w)) => tags.push(tag("Result", format!("{b}-{w}"), p)),
                None => tags.push(tag("GGF_RE", p.value.clone(), p)),
            },
            "BO" => match setup_of(&p.value) {
                Ok(Some(setup)) => tags.push(tag("Setup", setup, p)),
                Ok(None) => {}
                Err(why) => {
                    no_replay = true;
                    tag_errors.push(
                        Diag::error("reversi::bad_setup", format!("bad BO: {why}"))
                            .at(p.value_span)
                            .label(why)
                            .help("BO[8 then 64 cells (- empty, * black, O white) then * or O to move]"),
                    );
                }
            },
            "TY" => {
                let digits: String = p
                    .value
                    .chars()
                    .skip_while(|c| !c.is_ascii_digit())
                    .take_while(char::is_ascii_digit)
                    .collect();
                if !digits.is_empty() && digits != "8" {
                    no_replay = true;
                    tag_errors.push(
                        Diag::error(
                            "reversi::bad_setup",
                            format!("a {digits}x{digits} game: only 8x8 is supported"),
                        )
                        .at(p.value_span)
                        .label("not an 8x8 board"),
                    );
                }
                tags.push(tag("GGF_TY", p.value.clone(), p));
            }
            other => tags.push(tag(&format!("GGF_{other}"), p.value.clone(), p)),
        }
    }
    if no_replay {
        tokens.clear();
    }
    tag_errors.truncate(crate::record::MAX_TAG_ERRORS);
    RawGame {
        tags: Tags(tags),
        tag_errors,
        tokens,
        stop: if no_replay { None } else { stop },
        span: Span::between(start, end),
        token_players: players,
        ..RawGame::default()
    }
}

/// Reads every `(; ... ;)` game of a GGF file.
pub fn read(text: &str) -> Vec<RawGame> {
    let mut games = Vec::new();
    let mut i = 0;
    while let Some(k) = text.get(i..).and_then(|r| r.find("(;")) {
        let start = i + k;
        let (props, end, stop) = props(text, start + 2);
        games.push(game(text, start, props, stop, end));
        i = end.max(start + 2);
    }
    games
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace(']', "\\]")
}

/// Writes games as GGF. `Err` for a game that is not Reversi.
pub fn write(games: &[DocGame]) -> Result<String, String> {
    let mut out = String::new();
    for g in games {
        out.push_str(&write_game(g, &mut Losses::default())?);
    }
    Ok(out)
}

/// Writes one game as GGF, noting in `losses` what GGF cannot keep. `Err`
/// for a game that is not Reversi.
pub fn write_game(g: &DocGame, losses: &mut Losses) -> Result<String, String> {
    let _ = losses;
    let mut out = String::new();
    {
        if g.game != "reversi" {
            return Err(format!("GGF holds Othello games only, not {}", g.game));
        }
        let gm = g
            .tags
            .iter()
            .find(|(k, v)| k == "Game" && v.trim().eq_ignore_ascii_case("othello"))
            .map_or("Othello", |(_, v)| v.as_str());
        out.push_str(&format!("(;GM[{}]", escape(gm)));
        let mut ty = false;
        let mut bo = false;
        for (name, value) in &g.tags {
            let prop = match name.as_str() {
                "Site" => "PC".to_string(),
                "Date" => "DT".to_string(),
                "Black" => "PB".to_string(),
                "White" => "PW".to_string(),
                "Result" => {
                    let Some(scores) = crate::record::parse_result_scores(value) else {
                        continue;
                    };
                    if let [b, w] = scores[..] {
                        out.push_str(&format!("RE[{:+}]", b - w));
                    }
                    continue;
                }
                "Setup" => {
                    let v = value.trim();
                    let (cells, side) = v.rsplit_once(char::is_whitespace).unwrap_or((v, "b"));
                    let cells: String = cells
                        .trim()
                        .chars()
                        .map(|c| match c {
                            'X' | 'x' | '*' => '*',
                            'O' | 'o' => 'O',
                            _ => '-',
                        })
                        .collect();
                    let side = if side.eq_ignore_ascii_case("w") {
                        'O'
                    } else {
                        '*'
                    };
                    out.push_str(&format!("BO[8 {cells} {side}]"));
                    bo = true;
                    continue;
                }
                other => match other.strip_prefix("GGF_") {
                    Some(p) if !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric()) => {
                        ty |= p == "TY";
                        bo |= p == "BO";
                        p.to_string()
                    }
                    _ => continue,
                },
            };
            out.push_str(&format!("{prop}[{}]", escape(value)));
        }
        if !ty {
            out.push_str("TY[8]");
        }
        if !bo {
            out.push_str(&format!("BO[8 {START_CELLS} *]"));
        }
        for m in g.moves.iter().filter(|m| !m.auto) {
            let colour = if m.player == "white" { "W" } else { "B" };
            let mv = if m.notation == "pass" {
                "PA"
            } else {
                m.notation.as_str()
            };
            out.push_str(&format!("{colour}[{mv}]"));
        }
        out.push_str(";)\n");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_properties_moves_and_spans() {
        let text =
            "junk (;GM[othello]PC[GGS]PB[a\\]b]RE[+2.000]TY[8]B[f5//1.2]W[ d6/-3.5/0.4]B[PA];)";
        let games = read(text);
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tags.value("Game"), Some("othello"));
        assert_eq!(g.tags.value("Black"), Some("a]b"));
        assert_eq!(g.tags.value("Result"), Some("33-31"));
        assert_eq!(g.tags.value("GGF_TY"), Some("8"));
        let t: Vec<&str> = g.tokens.iter().map(|t| t.text(text)).collect();
        assert_eq!(t, ["f5", "d6", "PA"]);
        assert!(g.stop.is_none());
    }

    #[test]
    fn results_boards_and_errors() {
        assert_eq!(result_of("+64"), Some((64, 0)));
        assert_eq!(result_of("-4.000"), Some((30, 34)));
        assert_eq!(result_of("+3"), None);
        assert_eq!(result_of("+12:r"), None);
        assert_eq!(setup_of(&format!("8 {START_CELLS} *")), Ok(None));
        assert!(setup_of(&format!("8 {START_CELLS} O")).unwrap().is_some());
        assert!(setup_of("10 --- *").is_err());
        let games = read("(;GM[Othello]B[f5");
        assert_eq!(games[0].stop.as_ref().unwrap().code, "ggf::syntax");
        let games = read("(;GM[Othello]B[f5]x;)(;B[f5];)");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].stop.as_ref().unwrap().code, "ggf::syntax");
        let games = read("(;GM[Othello]TY[10]B[f5];)");
        assert!(games[0].tokens.is_empty());
        assert_eq!(games[0].tag_errors[0].code, "reversi::bad_setup");
    }
}
