//! Deblockle notation: `pass`, or a turn `FROM-TO` (the tip) followed by the
//! hop, `/DEST` or, for hoops, the full path `/S1/S2/S3`. Stop and scoring
//! tips have no hop part.
//!
//! A square is a column letter and a row number (case-insensitive). The
//! notation reads any letter `a`..`z` and rows `0`..`99`, so that a tip or a
//! hop written off the 7x7 board reaches the engine, which says what is wrong
//! with it (`tip_off_board`, `hop_blocked`, ...); text that is no square at all
//! is `bad_square`. This module knows no rules.

use super::Deblockle;
use super::engine::{Gen, Hop, Move, Sq, State, Turn};
use crate::diag::Diag;
use crate::game::{Notation, Parsed, ParsedMoves};
use crate::record::Token;
use crate::span::Span;

/// Where the squares of a turn stand in its text, for the diagnostics that
/// blame one square: per square (0 `FROM`, 1 `TO`, then the hop's squares),
/// its byte offset from the start of the move's text (a turn that reads is
/// at most 19 bytes long) and its length. The default is a turn in its
/// usual shape (`c3-c4/d4/e4/f4`: every square two bytes, three apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnSpans {
    pub at: [u8; 5],
    pub len: [u8; 5],
}

impl TurnSpans {
    /// The squares of a turn in its usual shape.
    pub const USUAL: TurnSpans = TurnSpans {
        at: [0, 3, 6, 9, 12],
        len: [2; 5],
    };

    /// The span of square `k`'s text (0 `FROM`, 1 `TO`, 2.. the hop's),
    /// given the move's span.
    pub fn square(&self, k: usize, move_span: Span) -> Span {
        match (self.at.get(k), self.len.get(k)) {
            (Some(&at), Some(&len)) if len > 0 => {
                Span::new(move_span.offset + usize::from(at), usize::from(len))
            }
            _ => move_span,
        }
    }
}

impl Default for TurnSpans {
    fn default() -> TurnSpans {
        TurnSpans::USUAL
    }
}

/// A square's name (`c3`; off-board squares too, `h1`, `d0`).
pub fn sq_name(s: Sq) -> String {
    let col = u8::try_from(s.col)
        .ok()
        .and_then(|c| c.checked_add(b'a'))
        .map_or('?', char::from);
    format!("{col}{}", i16::from(s.row) + 1)
}

/// `c3`-style name of a board index.
pub fn square_name(sq: u8) -> String {
    sq_name(Sq::of(sq))
}

/// The canonical spelling: the tip, then `/DEST` (a hoops path is written as
/// its destination).
pub fn write(mv: &Move) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Turn(t) => {
            let mut s = format!("{}-{}", sq_name(t.from), sq_name(t.to));
            match t.hop {
                Hop::None => {}
                Hop::Dest(d) | Hop::Path([_, _, d]) => {
                    s.push('/');
                    s.push_str(&sq_name(d));
                }
            }
            s
        }
    }
}

/// The canonical spelling of a generated turn.
pub fn turn_name(g: &Gen) -> String {
    write(&g.as_move())
}

fn bad(text: &str, span: Span, why: &str) -> Diag {
    Diag::error(
        "deblockle::bad_square",
        format!("`{text}` is not a square or a turn"),
    )
    .at(span)
    .label(why.to_string())
    .help("a turn is FROM-TO then /DEST (or /S1/S2/S3 for hoops), e.g. `c3-c4/e6`; squares are a1 to g7; a pass is `pass`")
}

/// Reads a square at the start of `s`: a letter, then one or two digits.
/// Returns the (column, row) and the length read.
fn square_at(s: &[u8]) -> Option<(i8, i8, usize)> {
    let c = s.first()?.to_ascii_lowercase();
    if !c.is_ascii_lowercase() {
        return None;
    }
    let digits = s
        .get(1..)
        .map_or(0, |r| r.iter().take_while(|b| b.is_ascii_digit()).count());
    if digits == 0 || digits > 2 {
        return None;
    }
    let mut row: i16 = 0;
    for &d in s.get(1..1 + digits)? {
        row = row * 10 + i16::from(d - b'0');
    }
    Some((
        i8::try_from(c - b'a').ok()?,
        i8::try_from(row - 1).ok()?,
        1 + digits,
    ))
}

/// One in every byte.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The letter bytes (0, 3 and 6) of eight bytes `c3-c4/e6` read as a
/// little-endian word; the digits follow them, the separators are bytes 2
/// and 5.
const LETTERS: u64 = 0x00ff_0000_ff00_00ff;
const DIGITS: u64 = LETTERS << 8;
const SEPARATORS: u64 = 0x0000_ff00_00ff_0000;

/// Eight bytes `L D s L D / L D` as a little-endian word, `s` being `sep`:
/// three squares of a letter (either case) and one digit each, checked all
/// at once (a byte `x` is in `lo..=hi` when `x + 0x80 - lo` has its top bit
/// set and `x + 0x7f - hi` has not; no byte carries into the next); `None`
/// for any other bytes.
#[inline(always)]
fn three_squares(w: u64, sep: u8) -> Option<[Sq; 3]> {
    if w & SEPARATORS != ((u64::from(sep) << 16) | (u64::from(b'/') << 40)) {
        return None;
    }
    // letters to lower case; the separators out
    let x = (w | (LETTERS & (ONES * 0x20))) & (LETTERS | DIGITS);
    let low7 = x & (ONES * 0x7f);
    // per byte: `0x80 - lo` and `0x7f - hi`, letters `a..=z`, digits `0..=9`
    let to_low = (LETTERS & (ONES * (0x80 - 0x61))) | (DIGITS & (ONES * (0x80 - 0x30)));
    let to_past_high = (LETTERS & (ONES * (0x7f - 0x7a))) | (DIGITS & (ONES * (0x7f - 0x39)));
    let tops = (LETTERS | DIGITS) & (ONES * 0x80);
    if (low7 + to_low) & !(low7 + to_past_high) & !x & tops != tops {
        return None;
    }
    // per byte: a letter's column, a digit's row (`1` is 0, `0` is -1:
    // adding 0xff to a digit carries into the separator byte after it, which
    // is not read)
    let v = (x - ((LETTERS & (ONES * 0x61)) | (DIGITS & (ONES * 0x30))))
        .wrapping_add(DIGITS & (ONES * 0xff));
    let sq = |k: u32| {
        let pair = (v >> (8 * k)) as u16;
        Sq {
            col: pair as u8 as i8,
            row: (pair >> 8) as u8 as i8,
        }
    };
    Some([sq(0), sq(3), sq(6)])
}

/// A turn in its usual shape, every row one digit: `c3-c4`, `c3-c4/e6` or
/// `c3-c4/d4/e4/f4`, read a word of eight bytes at a time
/// ([`three_squares`]; the length says which shape); `None` for anything
/// else (then [`parse_turn_long`] reads it). `ahead` is the text from the
/// token's start on (`b` at least): a turn without a hop is read as one
/// with (its hop filled in) and the hop dropped after, so that no branch
/// depends on which of the two shapes a token has.
#[inline]
fn quick_turn(b: &[u8], ahead: &[u8]) -> Option<Turn> {
    // a hop that is not there, to fill the word
    let fill = u64::from_le_bytes([0, 0, 0, 0, 0, b'/', b'a', b'1']);
    match b.len() {
        len @ (5 | 8) => {
            // the eight bytes from the token's start (zeros past the text)
            let word = ahead.first_chunk::<8>().copied().unwrap_or_else(|| {
                let mut word = [0u8; 8];
                for (to, from) in word.iter_mut().zip(ahead) {
                    *to = *from;
                }
                word
            });
            let short = len == 5;
            let w = u64::from_le_bytes(word);
            let w = if short {
                (w & 0xff_ffff_ffff) | fill
            } else {
                w
            };
            let [from, to, dest] = three_squares(w, b'-')?;
            let hop = if short { Hop::None } else { Hop::Dest(dest) };
            Some(Turn { from, to, hop })
        }
        14 => {
            let w = u64::from_le_bytes(*b.first_chunk::<8>()?);
            let [from, to, first] = three_squares(w, b'-')?;
            // bytes 6..14: the first step again, then the other two
            let w = u64::from_le_bytes(*b.last_chunk::<8>()?);
            let [_, second, third] = three_squares(w, b'/')?;
            Some(Turn {
                from,
                to,
                hop: Hop::Path([first, second, third]),
            })
        }
        _ => None,
    }
}

impl Notation for Deblockle {
    type Spans = TurnSpans;

    fn parse_moves_into(
        _start: &State,
        tokens: &[Token],
        src: &str,
        moves: &mut Vec<Parsed<Move, TurnSpans>>,
    ) -> Option<Diag> {
        parse_into(tokens, src, moves)
    }

    fn write_move(mv: &Move) -> String {
        write(mv)
    }
}

/// What is wrong with a token read the long way: the offset and length of
/// the part blamed, and why.
type Malformed = (usize, usize, &'static str);

/// Reads one token (not `pass`) as a turn, a square at a time, for any
/// text, with where its squares stand; `Err` blames part of the token.
fn parse_turn_long(text: &str) -> Result<(Turn, TurnSpans), Malformed> {
    let b = text.as_bytes();
    let mut spans = TurnSpans {
        at: [0; 5],
        len: [0; 5],
    };
    let (from, i) = read_square(b, 0, &mut spans, 0)?;
    match b.get(i) {
        Some(b'-') => {}
        None => {
            return Err((
                0,
                b.len(),
                "a turn is FROM-TO: the square the block tips to is missing",
            ));
        }
        Some(_) => {
            return Err((
                i,
                b.len() - i,
                "expected `-` and the square the block tips to",
            ));
        }
    }
    let (to, i) = read_square(b, i + 1, &mut spans, 1)?;
    let hop = read_hop(b, i, to, &mut spans)?;
    Ok((Turn { from, to, hop }, spans))
}

/// The hop part of a turn, from `start` (just after the tip) to the end:
/// none, `/DEST`, or three squares of a hoops path.
fn read_hop(b: &[u8], start: usize, to: Sq, spans: &mut TurnSpans) -> Result<Hop, Malformed> {
    let shape = (
        start,
        b.len() - start,
        "a hop is `/DEST`, or `/S1/S2/S3` for hoops",
    );
    let mut hops: [Sq; 3] = [to; 3];
    let (mut n, mut i) = (0usize, start);
    while i < b.len() {
        if b.get(i) != Some(&b'/') {
            return Err((i, b.len() - i, "expected `/` and the hop's square"));
        }
        let (sq, next) = read_square(b, i + 1, spans, 2 + n)?;
        let Some(slot) = hops.get_mut(n) else {
            return Err(shape);
        };
        *slot = sq;
        n += 1;
        i = next;
    }
    match n {
        0 => Ok(Hop::None),
        1 => Ok(Hop::Dest(hops[0])),
        3 => Ok(Hop::Path(hops)),
        _ => Err(shape),
    }
}

/// The square whose text starts at `i` and runs to the next `-` or `/`,
/// noted as square `k` in `spans`; the square and where its text ends.
fn read_square(
    b: &[u8],
    i: usize,
    spans: &mut TurnSpans,
    k: usize,
) -> Result<(Sq, usize), Malformed> {
    let end = b
        .get(i..)
        .and_then(|r| r.iter().position(|&c| c == b'-' || c == b'/'))
        .map_or(b.len(), |p| i + p);
    match b.get(i..end).and_then(square_at) {
        Some((col, row, len)) if i + len == end => {
            let at = u8::try_from(i).map_err(|_| (i, end - i, "not a square"))?;
            if let (Some(a), Some(l)) = (spans.at.get_mut(k), spans.len.get_mut(k)) {
                *a = at;
                *l = len as u8;
            }
            Ok((Sq { col, row }, end))
        }
        _ => Err((
            i,
            (end - i).max(1).min(b.len().saturating_sub(i)).max(1),
            "not a square",
        )),
    }
}

/// Reads the movetext tokens into moves, up to the first malformed one.
pub fn parse(tokens: &[Token], src: &str) -> ParsedMoves<Move, TurnSpans> {
    ParsedMoves::read(|moves| parse_into(tokens, src, moves))
}

/// [`parse`] into `moves` (emptied first, its room reused): the notation
/// error after the moves read, if any. One move per token
/// ([`crate::game::one_move_per_token`]): a turn in its usual shape read
/// from the bytes, anything else from the text, with its squares' spans.
pub fn parse_into(
    tokens: &[Token],
    src: &str,
    moves: &mut Vec<Parsed<Move, TurnSpans>>,
) -> Option<Diag> {
    let bytes = src.as_bytes();
    crate::game::one_move_per_token(
        tokens,
        moves,
        |tok| {
            // ASCII, so the token's text
            let span = tok.span;
            let b = bytes.get(span.offset..span.end()).unwrap_or(&[]);
            let ahead = bytes.get(span.offset..).unwrap_or(&[]);
            quick_turn(b, ahead).map(|t| (Move::Turn(t), TurnSpans::USUAL))
        },
        |tok| other_move(tok, src),
    )
}

/// A token that is not a turn in its usual shape: a pass, a turn read the
/// long way, or the diagnostic for what is malformed.
#[cold]
#[inline(never)]
fn other_move(tok: &Token, src: &str) -> Result<(Move, TurnSpans), Diag> {
    let text = tok.text(src);
    if text.eq_ignore_ascii_case("pass") {
        return Ok((Move::Pass, TurnSpans::default()));
    }
    parse_turn_long(text)
        .map(|(t, spans)| (Move::Turn(t), spans))
        .map_err(|e| blame(text, tok.span, e, src))
}

/// The `bad_square` diagnostic for part of a token (`text`, at `span`).
fn blame(text: &str, span: Span, (at, len, why): Malformed, src: &str) -> Diag {
    // Keep the blamed span on character boundaries of the token.
    let mut start = at.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (at + len).min(text.len()).max(start);
    while !text.is_char_boundary(end) {
        end += 1;
    }
    if end == start {
        // Blame the last character when the text stops short.
        end = text.len();
        start = text
            .char_indices()
            .next_back()
            .map_or(0, |(i, _)| i.min(start));
    }
    let span = Span::new(span.offset + start, end - start);
    bad(span.text(src), span, why)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::parse_file;

    fn read(src: &str) -> (Vec<String>, Option<String>) {
        let games = parse_file(src);
        let g = &games[0];
        let p = parse(&g.tokens, src);
        (
            p.moves.iter().map(|m| write(&m.mv)).collect(),
            p.error
                .map(|d| d.span.unwrap_or_default().text(src).to_string()),
        )
    }

    /// [`quick_turn`] with the token alone and with text after it (read in
    /// the same word for a short turn): the same answer.
    fn quick_both(b: &[u8]) -> Option<Turn> {
        let alone = quick_turn(b, b);
        for after in [&b" "[..], b"/a1", b"-c9/x7 d", b"\xff\xff\xff\xff"] {
            let ahead = [b, after].concat();
            assert_eq!(quick_turn(b, &ahead), alone, "{b:?} then {after:?}");
        }
        alone
    }

    #[test]
    fn quick_turns_read_as_the_long_way_does() {
        let mut texts: Vec<String> = vec![
            "c3-c4".into(),
            "C3-c4/E6".into(),
            "a0-h9/z1/b2/c3".into(),
            "c3-c4/e6/e7".into(),
            "c3/c4-e6".into(),
            "c3-c4/".into(),
            "é3-c4".into(),
        ];
        // squares, separators and junk, strung together
        let units = ["c4", "Z0", "a1", "-", "/", "é", "x", "44"];
        let mut s = 0x9e37_79b9u32;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        };
        for _ in 0..100_000 {
            let mut t = String::new();
            for _ in 0..next() % 8 {
                t.push_str(units[(next() % 8) as usize]);
            }
            texts.push(t);
        }
        let mut quick = 0;
        for t in &texts {
            if let Some(q) = quick_both(t.as_bytes()) {
                quick += 1;
                let (long, spans) = parse_turn_long(t).unwrap();
                assert_eq!(q, long, "{t}");
                assert_usual_spans(&long, &spans, t);
            }
        }
        assert!(quick > 100, "{quick}");
    }

    #[test]
    fn quick_turns_check_every_byte() {
        // every byte value in every place of each usual shape
        for template in ["c3-c4", "C3-g7/A1", "a0-z9/b2/Y8/c3"] {
            for at in 0..template.len() {
                for byte in 0..=255u8 {
                    let mut b = template.as_bytes().to_vec();
                    b[at] = byte;
                    let quick = quick_both(&b);
                    match std::str::from_utf8(&b) {
                        Ok(text) => assert_eq!(
                            quick.ok_or(()),
                            parse_turn_long(text).map(|(t, _)| t).map_err(|_| ()),
                            "{text}"
                        ),
                        Err(_) => assert_eq!(quick, None, "{b:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn turns_and_passes() {
        assert_eq!(
            read("c1-d1/d7 C7-C6/C1 e7-e6 PASS e6-f6/f5/e5/d5").0,
            ["c1-d1/d7", "c7-c6/c1", "e7-e6", "pass", "e6-f6/d5"]
        );
    }

    #[test]
    fn hoops_path_is_kept() {
        let src = "e6-f6/f5/e5/d5";
        let games = parse_file(src);
        let p = parse(&games[0].tokens, src);
        let Move::Turn(t) = p.moves[0].mv else {
            panic!()
        };
        let Hop::Path([a, b, c]) = t.hop else {
            panic!()
        };
        assert_eq!(
            (sq_name(a), sq_name(b), sq_name(c)),
            ("f5".into(), "e5".into(), "d5".into())
        );
        let (parts, span) = (p.moves[0].parts, p.moves[0].span);
        assert_eq!(parts.square(4, span).text(src), "d5");
        assert_eq!(parts.square(1, span).text(src), "f6");
    }

    #[test]
    fn squares_read_the_long_way_keep_their_spans() {
        let src = "c10-C11/c12/c13/c14 pass";
        let games = parse_file(src);
        let p = parse(&games[0].tokens, src);
        let (parts, span) = (p.moves[0].parts, p.moves[0].span);
        let texts: Vec<&str> = (0..5).map(|k| parts.square(k, span).text(src)).collect();
        assert_eq!(texts, ["c10", "C11", "c12", "c13", "c14"]);
        assert_eq!(p.moves[1].mv, Move::Pass);
    }

    /// The squares a turn has stand where [`TurnSpans::USUAL`] says.
    fn assert_usual_spans(t: &Turn, spans: &TurnSpans, text: &str) {
        let squares = match t.hop {
            Hop::None => 2,
            Hop::Dest(_) => 3,
            Hop::Path(_) => 5,
        };
        for k in 0..squares {
            let span = Span::new(0, text.len());
            assert_eq!(
                spans.square(k, span),
                TurnSpans::USUAL.square(k, span),
                "{text} square {k}"
            );
        }
    }

    #[test]
    fn off_board_squares_reach_the_engine() {
        assert_eq!(read("g1-h1/h2 d1-d0").0, ["g1-h1/h2", "d1-d0"]);
    }

    #[test]
    fn malformed_turns_blame_their_own_span() {
        assert_eq!(read("c1-d1/d7 c1").1.as_deref(), Some("c1"));
        assert_eq!(read("c1-d1/d7 1c-d1").1.as_deref(), Some("1c"));
        assert_eq!(read("c1-d1/d7 c1-d1/").1.as_deref(), Some("/"));
        assert_eq!(read("c1-d1/d7 c1-d1/d2/d3").1.as_deref(), Some("/d2/d3"));
        assert_eq!(read("c1-d1/d2/d3/d4/d5").1.as_deref(), Some("/d2/d3/d4/d5"));
        assert_eq!(read("c1-d1-d2").1.as_deref(), Some("-d2"));
        assert_eq!(read("c100-d1").1.as_deref(), Some("c100"));
        assert_eq!(read("é1-d1").1.as_deref(), Some("é1"));
        assert_eq!(read("c1-é1").1.as_deref(), Some("é1"));
        assert_eq!(read("-").1.as_deref(), Some("-"));
    }
}
