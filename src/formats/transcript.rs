//! Othello transcripts (`.txt`): one game per line, its moves as a compact
//! transcript (`f5d6c3...`) or squares separated by spaces, commas or
//! hyphens (`f5 d6 c3`, `f5,d6,c3`, `f5-d6-c3`), optionally followed by a
//! final score (`33-31`, after a space or a comma).
//!
//! The text is the file itself: each game's tokens are the line's pieces
//! between separators, with their spans in the file; a final score is the
//! game's result token, checked like a `Result` tag. A line ends at LF, CRLF
//! or a lone CR. Blank lines and lines starting with `#` are skipped. Every
//! game is Reversi (standard scoring; the `Game` tag is synthesized, its
//! span the start of the line).
//!
//! Writing (`convert --to transcript`): a line per game, its moves as a
//! compact transcript (`f5d6c3...`, passes left out: a pass is forced, and
//! read back the engine takes it), then the final disc count (`33-31`) when
//! the game is over and its record claims a result (a `Result` tag other
//! than `*`: the line's score is read back as that claim). Only standard 8x8 Othello games from the usual start
//! fit (no `Setup`, `Size` or `Komi`, variant `standard` or `wof`), with at
//! least one move (a blank line is no game); any other game is refused.
//! What a line cannot keep is named as a loss: tags, comments, move
//! numbers, written passes (read back, the engine takes them), per-move
//! claimed scores, and the `wof` variant (read back, the game is standard:
//! its score is the discs' count, which the line carries).

use super::{Losses, WriteError};
use crate::model::DocGame;
use crate::record::{RawGame, Tag, Tags, Token};
use crate::span::Span;

/// A synthesized `Game "reversi"` tag standing at `span`.
pub(crate) fn game_tag(span: Span) -> Tag {
    Tag {
        name: "Game".into(),
        value: "reversi".into(),
        span,
        value_span: span,
    }
}

/// The lines of a text with their byte offsets, line ends (LF, CRLF, a
/// lone CR) removed, and a byte-order mark before the first (its offset is
/// then 3).
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = if text.starts_with('\u{feff}') { 3 } else { 0 };
    std::iter::from_fn(move || {
        let rest = text.get(at..).filter(|r| !r.is_empty())?;
        let start = at;
        let (len, next) = match rest.find(['\n', '\r']) {
            Some(i) if rest.get(i..i + 2) == Some("\r\n") => (i, i + 2),
            Some(i) => (i, i + 1),
            None => (rest.len(), rest.len()),
        };
        at += next;
        Some((start, rest.get(..len).unwrap_or("")))
    })
}

/// Separators between the moves of a line (besides white space).
fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == ','
}

/// The move tokens of a line standing at `at`, and its final score.
fn moves(line: &str, at: usize) -> (Vec<Token>, Option<Token>) {
    let token = |pos: usize, len: usize| Token::new(Span::new(at + pos, len));
    // a final score: the last piece after a space or a comma, when moves
    // come before it
    let body = line.trim_end_matches(is_separator);
    let last = body.rfind(is_separator).map_or(0, |i| i + 1);
    let (body, result_token) = match body.get(last..) {
        Some(piece) if last > 0 && is_score(piece) => (
            body.get(..last).unwrap_or(""),
            Some(token(last, piece.len())),
        ),
        _ => (body, None),
    };
    let mut tokens = Vec::new();
    let mut start = None;
    for (i, c) in body.char_indices() {
        let sep = is_separator(c) || c == '-';
        match (sep, start) {
            (true, Some(s)) => {
                tokens.push(token(s, i - s));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        tokens.push(token(s, body.len() - s));
    }
    (tokens, result_token)
}

/// A final score: two integers joined by `-` (`33-31`).
fn is_score(piece: &str) -> bool {
    piece.contains('-')
        && !piece.contains(',')
        && crate::record::parse_result_scores(piece).is_some_and(|s| s.len() == 2)
}

pub fn read(text: &str) -> Vec<RawGame> {
    let mut games = Vec::new();
    for (at, line) in lines(text) {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (tokens, result_token) = moves(line, at);
        let first = tokens
            .first()
            .or(result_token.as_ref())
            .map_or(Span::new(at, 0), |t| t.span);
        games.push(RawGame {
            tags: Tags(vec![game_tag(first)]),
            tokens,
            result_token,
            span: Span::new(at, line.len()),
            ..RawGame::default()
        });
    }
    games
}

/// The pass notations of Reversi (any case).
fn is_pass(notation: &str) -> bool {
    ["pass", "pa", "ps", "--"]
        .iter()
        .any(|p| notation.eq_ignore_ascii_case(p))
}

/// The value of a game's tag.
pub(crate) fn tag<'g>(g: &'g DocGame, name: &str) -> Option<&'g str> {
    g.tags
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.trim())
}

/// A game's variant (its document field, else its tag), lower case.
pub(crate) fn variant(g: &DocGame) -> String {
    g.variant
        .as_deref()
        .or(tag(g, "Variant"))
        .unwrap_or("standard")
        .to_ascii_lowercase()
}

/// Why a game is not standard 8x8 Othello from the usual start, which is
/// all a transcript (or gamerec's CSV) can say; `format` names the target.
pub(crate) fn check_standard(g: &DocGame, format: &str) -> Result<(), WriteError> {
    if g.game != "reversi" {
        return Err(WriteError::new(format!("{format} holds Othello games only, not {}", g.game)));
    }
    for name in ["Setup", "Komi"] {
        if tag(g, name).is_some_and(|v| !v.is_empty()) {
            return Err(WriteError::new(format!(
                "{format} holds games from the usual start without komi only: this one has a `{name}` tag"
            )));
        }
    }
    if tag(g, "Size").is_some_and(|v| v != "8") {
        return Err(WriteError::new(format!("{format} holds 8x8 games only")));
    }
    let variant = variant(g);
    if variant != "standard" && variant != "wof" {
        return Err(WriteError::new(format!("{format} holds standard Othello only, not the `{variant}` variant")));
    }
    Ok(())
}

/// A game's moves as a compact transcript (passes left out, squares in
/// lower case); per-move claimed scores (`f5/+2`) and other suffixes, and
/// the passes the record writes (read back, they are automatic passes),
/// are noted in `losses`, `format` naming the target.
pub(crate) fn compact_moves(
    g: &DocGame,
    format: &str,
    losses: &mut Losses,
) -> Result<String, WriteError> {
    let mut out = String::with_capacity(g.moves.len() * 2);
    let mut suffixes = 0;
    let mut passes = 0;
    for m in g.moves.iter().filter(|m| !m.auto) {
        let n = m.notation.trim();
        if is_pass(n) {
            passes += 1;
            continue;
        }
        let square = n.get(..2).filter(|sq| {
            let b = sq.as_bytes();
            matches!(b, [c, r] if (b'a'..=b'h').contains(&c.to_ascii_lowercase()) && (b'1'..=b'8').contains(r))
        });
        let Some(square) = square else {
            return Err(WriteError::new(format!("ply {}: `{n}` is not a square a1-h8", m.ply)));
        };
        out.push_str(&square.to_ascii_lowercase());
        suffixes += usize::from(n.len() > 2);
    }
    if suffixes > 0 {
        losses.note(format!(
            "{} ({}): {format} holds squares only",
            crate::diag::plural(suffixes, "move's suffix", "moves' suffixes"),
            "claimed scores"
        ));
    }
    if passes > 0 {
        losses.note(format!(
            "{}: {format} leaves passes out (reading it back takes them as automatic passes)",
            crate::diag::plural(passes, "written pass", "written passes")
        ));
    }
    Ok(out)
}

/// The final disc count of a finished game, `black-white`; `None` for a
/// game not over.
pub(crate) fn final_discs(g: &DocGame) -> Option<String> {
    let r = g.result.as_ref().filter(|r| r.over)?;
    // a `wof` game's scores give the empty squares to the winner; its
    // `discs` are the count a standard reading checks
    let counts = r
        .extras
        .get("discs")
        .and_then(|d| d.as_object())
        .unwrap_or(&r.scores);
    let black = counts.get("black")?.as_i64()?;
    let white = counts.get("white")?.as_i64()?;
    Some(format!("{black}-{white}"))
}

/// Notes the comments and the move numbers of a game, which neither a
/// transcript nor a CSV row holds, and a `Game` tag spelt otherwise than
/// `reversi` (`Othello`, from GGF), which reads back as `reversi`.
pub(crate) fn note_comments(g: &DocGame, format: &str, losses: &mut Losses) {
    if let Some(spelt) = tag(g, "Game").filter(|v| *v != "reversi") {
        losses.note(format!(
            "the Game tag's spelling `{spelt}`: {format} is read as `reversi`"
        ));
    }
    let comments =
        usize::from(g.comment.is_some()) + g.moves.iter().filter(|m| m.comment.is_some()).count();
    if comments > 0 {
        losses.note(format!(
            "{}: {format} has no place for them",
            crate::diag::plural(comments, "comment", "comments")
        ));
    }
    losses.move_props(g, format, |_| false);
    losses.move_numbers(g, format);
}

/// Writes a game as one transcript line (see the module docs).
pub fn write_game(g: &DocGame, losses: &mut Losses) -> Result<String, WriteError> {
    check_standard(g, "a transcript")?;
    let mut line = compact_moves(g, "a transcript", losses)?;
    if line.is_empty() {
        return Err(WriteError::new("a transcript line holds a game with moves only (a blank line is no game)"));
    }
    // the score is the record's claim: written when the record made one
    let claimed = tag(g, "Result").is_some_and(|r| r != "*" && !r.is_empty());
    let discs = final_discs(g).filter(|_| claimed);
    if let Some(d) = &discs {
        line.push(' ');
        line.push_str(d);
    }
    line.push('\n');
    let dropped: Vec<&str> = g
        .tags
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| match *k {
            // the variant is said below when it is not the standard one
            "Game" | "Variant" => false,
            // the line's score is the result (a line without one reads
            // back with no `Result`, not with `*`)
            "Result" => tag(g, "Result").is_some_and(|r| Some(r) != discs.as_deref()),
            _ => true,
        })
        .collect();
    if !dropped.is_empty() {
        losses.note(format!(
            "{} ({}): a transcript has no place for tags",
            crate::diag::plural(dropped.len(), "tag", "tags"),
            dropped.join(", ")
        ));
    }
    if variant(g) == "wof" {
        losses.note("the `wof` variant: a transcript is read as standard Othello (its score is the discs' count)");
    }
    note_comments(g, "a transcript", losses);
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_game_per_line_spans_in_the_file() {
        let text = "\u{feff}f5d6c3\r\n\n# comment\n  f5 d6\n";
        let games = read(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tokens[0].text(text), "f5d6c3");
        let t: Vec<&str> = games[1].tokens.iter().map(|t| t.text(text)).collect();
        assert_eq!(t, ["f5", "d6"]);
    }

    #[test]
    fn separators_scores_and_lone_cr() {
        let text = "f5,d6,c3\rf5-d6 33-31\r\nf5 d6, 40-24\nf5d6c3 -\n";
        let games = read(text);
        assert_eq!(games.len(), 4);
        let toks = |g: &RawGame| -> Vec<&str> { g.tokens.iter().map(|t| t.text(text)).collect() };
        assert_eq!(toks(&games[0]), ["f5", "d6", "c3"]);
        assert_eq!(toks(&games[1]), ["f5", "d6"]);
        assert_eq!(
            games[1].result_token.as_ref().map(|t| t.text(text)),
            Some("33-31")
        );
        assert_eq!(toks(&games[2]), ["f5", "d6"]);
        assert_eq!(
            games[2].result_token.as_ref().map(|t| t.text(text)),
            Some("40-24")
        );
        assert_eq!(toks(&games[3]), ["f5d6c3"]);
        assert!(games[0].result_token.is_none());
        // a line of a score alone is not a result: its pieces are moves
        let lone = read("33-31\n");
        assert!(lone[0].result_token.is_none());
        assert_eq!(lone[0].tokens.len(), 2);
    }

    /// A written pass (read back, an automatic pass), the move numbers and
    /// a `Result` of `*` (read back, no `Result`) are said.
    #[test]
    fn says_written_passes_move_numbers_and_a_result_of_no_claim() {
        let moves = ["f5", "pass", "d6"].map(String::from);
        let tags = [("Game", "reversi"), ("Result", "*")];
        let mut g = DocGame::written("reversi", Some("standard"), &tags, moves);
        g.moves[0].number = Some("1.".into());
        let mut losses = Losses::default();
        assert_eq!(write_game(&g, &mut losses).unwrap(), "f5d6\n");
        assert_eq!(
            losses.iter().collect::<Vec<_>>(),
            [
                "1 written pass: a transcript leaves passes out (reading it back takes them as automatic passes)",
                "1 tag (Result): a transcript has no place for tags",
                "the move numbers of 1 move: a transcript has no place for them",
            ]
        );
    }
}
