//! Qwirkle notation: tiles `Rc` (colour `ROYGBP` upper case, shape `osdcx*`,
//! exact case: `O` orange, `o` circle), placements `Rc@0,0 + Rd@0,-1` with an
//! optional claimed score `=3` and drawn tiles `<Gs,Bx>`, swaps `swap Rc,Bs`
//! or `swap 2` (optionally `<Po,Pd>`), and `pass`. Keywords are
//! case-insensitive.
//!
//! The container splits at white space, so a turn spans several tokens. The
//! reader cuts the tokens' bytes into lexemes (a tile with or without its
//! square, `+`, `=`, a number, `<`, `>`, `,`, a keyword) one at a time, as
//! the turn being read asks for them, so `+` and `=` may be glued to their
//! neighbours or spaced, and `<Gs, Bx>` may hold spaces; tiles on squares
//! joined by `+` are one turn, and a tile on a square not preceded by `+`
//! starts the next turn. A malformed lexeme ends the lexemes: a turn cut
//! short by it is blamed on it. The claim is read before
//! or after the drawn tiles (`=3 <Gs>` or `<Gs> =3`); the writer puts it first.

use crate::diag::Diag;
use crate::game::{Notation, Parsed, ParsedMoves};
use crate::record::Token;
use crate::span::Span;

use super::Qwirkle;
use super::board::{Few, MAX_LINE, Tile, code, from_letters};
use super::engine::{DrawTiles, Move, Placed, PlacedTiles, State, SwapTiles};

/// Where the parts of a turn are written, for the diagnostics that blame
/// one part ([`super::explain`]); what is not written keeps the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spans {
    /// Each tile placed (`Rc@0,0`) or swapped (`Rc`), in written order.
    pub tiles: Few<Span, MAX_LINE>,
    /// The claimed score `=N`.
    pub claim: Span,
    /// The drawn tiles `<..>`.
    pub draw: Span,
    /// A swap's tiles or count.
    pub what: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lex {
    /// A tile alone (`Gs`).
    Tile(Tile),
    /// A tile on a square (`Gs@1,-2`).
    Placed(Tile, i32, i32),
    Plus,
    Eq,
    Num(u64),
    Open,
    Close,
    Comma,
    Pass,
    Swap,
}

#[derive(Clone, Copy, Debug)]
struct Item {
    lex: Lex,
    span: Span,
    token: usize,
}

#[cold]
fn bad(message: String, span: Span, label: &str, help: &str) -> Diag {
    Diag::error("qwirkle::bad_tile", message)
        .at(span)
        .label(label.to_string())
        .help(help.to_string())
}

#[cold]
fn bad_box(message: String, span: Span, label: &str, help: &str) -> Box<Diag> {
    Box::new(bad(message, span, label, help))
}

const TILE_HELP: &str = "a tile is a colour R O Y G B P (upper case) then a shape o s d c x * (lower case or `*`), e.g. `Rc`; on a square: `Rc@0,-1`";

fn is_sep(b: u8) -> bool {
    matches!(b, b'+' | b'=' | b'<' | b'>' | b',')
}

/// A signed 32-bit integer at the start of `b`: its value (`None` when out of
/// range) and length (0 when there is none).
#[inline]
fn int(b: &[u8]) -> (Option<i32>, usize) {
    let sign = usize::from(b.first() == Some(&b'-'));
    // one pass: the magnitude in i64, saturating past i32's range (12
    // digits and more stay far above it)
    let mut v: i64 = 0;
    let mut digits = 0;
    for &d in b.get(sign..).unwrap_or(&[]) {
        if !d.is_ascii_digit() {
            break;
        }
        v = (v * 10 + i64::from(d - b'0')).min(1 << 40);
        digits += 1;
    }
    if digits == 0 {
        return (None, 0);
    }
    let v = if sign == 1 { -v } else { v };
    (i32::try_from(v).ok(), sign + digits)
}

/// The lexeme of a token's text that starts at byte `i`, and its length.
///
/// A malformed lexeme is `Err` with its diagnostic boxed: the lexemes are
/// read one at a time on the hot path, and a small `Result` moves in registers.
#[inline(always)]
fn lex_one(text: &[u8], offset: usize, i: usize, token: usize) -> Result<(Item, usize), Box<Diag>> {
    let at = offset + i;
    let rest = text.get(i..).unwrap_or(&[]);
    let c = rest.first().copied().unwrap_or(0);
    let simple = match c {
        b'+' => Some(Lex::Plus),
        b'=' => Some(Lex::Eq),
        b'<' => Some(Lex::Open),
        b'>' => Some(Lex::Close),
        b',' => Some(Lex::Comma),
        _ => None,
    };
    if let Some(lex) = simple {
        let span = Span::new(at, 1);
        return Ok((Item { lex, span, token }, 1));
    }
    let (lex, len) = if c.is_ascii_digit() {
        lex_number(text, offset, at, rest)?
    } else {
        // A tile (`pass` and `swap` start with no colour and shape letter),
        // or else a keyword.
        let tile = match (rest.first(), rest.get(1)) {
            (Some(&cc), Some(&sc)) => from_letters(cc, sc),
            _ => None,
        };
        match tile.is_none().then(|| keyword(rest)).flatten() {
            Some(lex) => (lex, 4),
            None => lex_tile(text, offset, at, rest, tile)?,
        }
    };
    let span = Span::new(at, len);
    Ok((Item { lex, span, token }, len))
}

/// A number at the start of `rest`: too many digits for a u64 is an error.
#[inline(always)]
fn lex_number(
    text: &[u8],
    offset: usize,
    at: usize,
    rest: &[u8],
) -> Result<(Lex, usize), Box<Diag>> {
    let n = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut v: Option<u64> = Some(0);
    for &d in rest.get(..n).unwrap_or(&[]) {
        v = v
            .and_then(|v| v.checked_mul(10))
            .and_then(|v| v.checked_add(u64::from(d - b'0')));
    }
    match v {
        Some(v) => Ok((Lex::Num(v), n)),
        None => {
            let span = Span::new(at, n);
            Err(bad_box(
                format!(
                    "the number `{}` is out of range",
                    span.text_in(text, offset)
                ),
                span,
                "number too large",
                "scores and swap counts are small whole numbers",
            ))
        }
    }
}

/// A keyword at the start of `rest`: `pass` or `swap`, any case, not
/// followed by a letter or digit.
#[inline(always)]
fn keyword(rest: &[u8]) -> Option<Lex> {
    if rest.len() < 4 || rest.get(4).is_some_and(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let w = rest.get(..4).unwrap_or(&[]);
    if w.eq_ignore_ascii_case(b"pass") {
        Some(Lex::Pass)
    } else if w.eq_ignore_ascii_case(b"swap") {
        Some(Lex::Swap)
    } else {
        None
    }
}

/// The end of the text of the lexeme at the start of `rest` (the next
/// separator), for the diagnostics.
fn lexeme_end(rest: &[u8]) -> usize {
    rest.iter().position(|&c| is_sep(c)).unwrap_or(rest.len())
}

/// The end of a tile's code in `rest` (`@`, or the lexeme's end): a bad
/// tile on a square is blamed without its square (`rc` of `rc@0,0`).
fn code_end(rest: &[u8]) -> usize {
    let end = lexeme_end(rest);
    rest.get(..end)
        .and_then(|r| r.iter().position(|&c| c == b'@'))
        .unwrap_or(end)
}

/// A tile (`tile`, read from the first two bytes of `rest`), maybe on a
/// square; whatever follows must be a separator (or the token's end).
#[inline(always)]
fn lex_tile(
    text: &[u8],
    offset: usize,
    at: usize,
    rest: &[u8],
    tile: Option<Tile>,
) -> Result<(Lex, usize), Box<Diag>> {
    let Some(tile) = tile else {
        let span = Span::new(at, code_end(rest).max(1));
        return Err(bad_box(
            format!(
                "`{}` is not a tile or a keyword",
                span.text_in(text, offset)
            ),
            span,
            "not a tile",
            TILE_HELP,
        ));
    };
    let (lex, len) = if rest.get(2) == Some(&b'@') {
        let (x, y, len) = lex_square(text, offset, at, rest)?;
        (Lex::Placed(tile, x, y), len)
    } else {
        (Lex::Tile(tile), 2)
    };
    if let Some(&next) = rest.get(len) {
        if !is_sep(next) {
            let span = Span::new(at, code_end(rest).max(len + 1));
            return Err(bad_box(
                format!("`{}` is not a tile", span.text_in(text, offset)),
                span,
                "unexpected text after the tile",
                TILE_HELP,
            ));
        }
    }
    Ok((lex, len))
}

/// The square after a tile's `@` (`rest` starts with the tile): x then `,`
/// then y (the comma belongs to the square), and the length of it all.
#[inline(always)]
fn lex_square(
    text: &[u8],
    offset: usize,
    at: usize,
    rest: &[u8],
) -> Result<(i32, i32, usize), Box<Diag>> {
    let after = rest.get(3..).unwrap_or(&[]);
    let (x, xl) = int(after);
    let comma = after.get(xl) == Some(&b',');
    let (y, yl) = int(after.get(xl + 1..).unwrap_or(&[]));
    if xl == 0 || !comma || yl == 0 {
        let len = 3 + xl + usize::from(comma) + yl;
        let span = Span::new(at, len.max(lexeme_end(rest)).min(rest.len()).max(1));
        return Err(bad_box(
            format!("`{}` is not a tile on a square", span.text_in(text, offset)),
            span,
            "expected a square `x,y` after `@`",
            "write the square as two integers, east then north: `Rc@0,-1`",
        ));
    }
    let len = 3 + xl + 1 + yl;
    let (Some(x), Some(y)) = (x, y) else {
        let span = Span::new(at, len);
        return Err(bad_box(
            format!(
                "the square of `{}` is out of range",
                span.text_in(text, offset)
            ),
            span,
            "coordinate out of range",
            "coordinates are 32-bit integers (-2147483648 to 2147483647)",
        ));
    };
    Ok((x, y, len))
}

trait TextIn {
    fn text_in(self, text: &[u8], offset: usize) -> &str;
}

impl TextIn for Span {
    /// The span's text in a token's bytes; `""` when it does not fall on
    /// whole characters (as `str::get` says).
    fn text_in(self, text: &[u8], offset: usize) -> &str {
        let s = self.offset.saturating_sub(offset);
        text.get(s..s + self.length)
            .and_then(|b| std::str::from_utf8(b).ok())
            .unwrap_or("")
    }
}

/// Reads the lexemes of the tokens one at a time, as the turns ask for
/// them (nothing is kept but the one looked ahead at and the last read).
struct Reader<'a> {
    tokens: &'a [Token],
    src: &'a str,
    /// The token being cut: its index, text, offset, and the next byte.
    token: usize,
    text: &'a [u8],
    offset: usize,
    pos: usize,
    ahead: Option<Item>,
    last: Option<Item>,
    /// The first malformed lexeme: the lexemes end before it.
    error: Option<Diag>,
}

impl<'a> Reader<'a> {
    fn new(tokens: &'a [Token], src: &'a str) -> Reader<'a> {
        let mut r = Reader {
            tokens,
            src,
            token: 0,
            text: &[],
            offset: 0,
            pos: 0,
            ahead: None,
            last: None,
            error: None,
        };
        if let Some(t) = tokens.first() {
            r.text = t.text(src).as_bytes();
            r.offset = t.span.offset;
        }
        r
    }

    /// Cuts the next lexeme, moving on to the next token at a token's end.
    #[inline(always)]
    fn cut(&mut self) -> Option<Item> {
        if self.error.is_some() {
            return None;
        }
        while self.pos >= self.text.len() {
            self.token += 1;
            let t = self.tokens.get(self.token)?;
            self.text = t.text(self.src).as_bytes();
            self.offset = t.span.offset;
            self.pos = 0;
        }
        match lex_one(self.text, self.offset, self.pos, self.token) {
            Ok((item, len)) => {
                self.pos += len;
                Some(item)
            }
            Err(d) => {
                self.error = Some(*d);
                None
            }
        }
    }

    #[inline(always)]
    fn peek(&mut self) -> Option<Item> {
        if let Some(it) = self.ahead {
            return Some(it);
        }
        let it = self.cut();
        self.ahead = it;
        it
    }

    #[inline(always)]
    fn next(&mut self) -> Option<Item> {
        let it = self.peek();
        if it.is_some() {
            self.ahead = None;
            self.last = it;
        }
        it
    }

    /// Takes the lexeme looked at.
    #[inline(always)]
    fn bump(&mut self) {
        self.next();
    }

    fn last_span(&self) -> Span {
        self.last.map(|it| it.span).unwrap_or_default()
    }

    /// Whether every well-formed lexeme has been read and a malformed one follows.
    fn at_error(&mut self) -> bool {
        self.peek().is_none() && self.error.is_some()
    }

    /// `=N` after a placement, if present, and its span.
    #[inline(always)]
    fn claim(&mut self) -> Result<Option<(i64, Span)>, Diag> {
        let Some(eq) = self.peek().filter(|it| it.lex == Lex::Eq) else {
            return Ok(None);
        };
        self.bump();
        match self.next() {
            Some(Item {
                lex: Lex::Num(n),
                span,
                ..
            }) if n <= 10_000 => Ok(Some((n as i64, eq.span.join(span)))),
            _ => Err(bad(
                "`=` must be followed by the turn's score".into(),
                eq.span.join(self.last_span()),
                "expected a score such as `=3`",
                "write the claimed score as `=N` after the tiles",
            )),
        }
    }

    /// `<` tiles `>` after a turn, if present, and its span.
    #[inline(always)]
    fn draw(&mut self) -> Result<Option<(DrawTiles, Span)>, Diag> {
        let Some(open) = self.peek().filter(|it| it.lex == Lex::Open) else {
            return Ok(None);
        };
        self.bump();
        let mut tiles = DrawTiles::default();
        loop {
            let Some(it) = self.next() else {
                return Err(bad(
                    "the drawn tiles are not closed with `>`".into(),
                    open.span,
                    "`<` opened here",
                    "write the drawn tiles as `<Gs,Bx,Y*>` (or `<>` for none)",
                ));
            };
            match it.lex {
                Lex::Close => break,
                Lex::Comma if !tiles.is_empty() => {}
                Lex::Tile(t) => tiles.push(t),
                Lex::Placed(..) => {
                    return Err(bad(
                        "a drawn tile has no square".into(),
                        it.span,
                        "drawn tiles go to the hand",
                        "write the drawn tiles without squares: `<Gs,Bx>`",
                    ));
                }
                _ => {
                    return Err(bad(
                        "expected a drawn tile, `,` or `>`".into(),
                        it.span,
                        "not a drawn tile",
                        "write the drawn tiles as `<Gs,Bx,Y*>` (or `<>` for none)",
                    ));
                }
            }
        }
        Ok(Some((tiles, open.span.join(self.last_span()))))
    }

    /// The draw after a turn into the move's field and its span into `parts`.
    #[inline(always)]
    fn draw_into(&mut self, draw: &mut Option<DrawTiles>, parts: &mut Spans) -> Result<(), Diag> {
        if let Some((tiles, span)) = self.draw()? {
            *draw = Some(tiles);
            parts.draw = span;
        }
        Ok(())
    }

    /// Reads the turn that starts with `first` into `mv` and `parts` (in
    /// place: a turn is a few hundred bytes, written once).
    #[inline(always)]
    fn turn(&mut self, first: Item, mv: &mut Move, parts: &mut Spans) -> Result<(), Diag> {
        match first.lex {
            Lex::Pass => {
                *mv = Move::Pass;
                Ok(())
            }
            Lex::Swap => {
                let (tiles, count) = self.swapped(first, parts)?;
                let mut draw = None;
                self.draw_into(&mut draw, parts)?;
                *mv = Move::Swap { tiles, count, draw };
                Ok(())
            }
            Lex::Placed(tile, x, y) => self.placement(Placed { tile, x, y }, first.span, mv, parts),
            Lex::Tile(_) => Err(bad(
                format!("the tile `{}` has no square", first_text(first)),
                first.span,
                "expected `@x,y` after the tile",
                "a placement names its square: `Rc@0,0`; a swap is `swap Rc,Bs`",
            )),
            _ => Err(bad(
                "expected a placement, `swap` or `pass`".into(),
                first.span,
                "a turn cannot start here",
                "a turn is `Rc@0,0 + Rd@0,-1 =3 <Gs,Bx>`, `swap Rc,Bs`, `swap 2` or `pass`",
            )),
        }
    }

    /// What a swap puts back, after `swap` (`first`): the tiles or their
    /// count; their span into `parts.what`, each tile's into `parts.tiles`.
    fn swapped(
        &mut self,
        first: Item,
        parts: &mut Spans,
    ) -> Result<(Option<SwapTiles>, usize), Diag> {
        let what = self.next();
        match what.map(|w| (w.lex, w.span)) {
            Some((Lex::Num(n), span)) => {
                parts.what = span;
                match usize::try_from(n).ok().filter(|&c| (1..=6).contains(&c)) {
                    Some(count) => Ok((None, count)),
                    None => Err(bad(
                        format!("`swap {n}`: a swap puts back 1 to 6 tiles"),
                        span,
                        "not a swap count",
                        "write `swap 2` or `swap Rc,Bs`",
                    )),
                }
            }
            Some((Lex::Tile(t), span)) => self.swapped_tiles(t, span, parts),
            _ => Err(bad(
                "`swap` must be followed by the tiles put back or their count".into(),
                what.map_or(first.span, |w| w.span),
                "expected tiles or a count",
                "write `swap Rc,Bs` or `swap 2`",
            )),
        }
    }

    /// The tiles a swap puts back, from the first (`t` at `span0`) on.
    fn swapped_tiles(
        &mut self,
        t: Tile,
        span0: Span,
        parts: &mut Spans,
    ) -> Result<(Option<SwapTiles>, usize), Diag> {
        let mut tiles = SwapTiles::default();
        tiles.push(t);
        parts.tiles.push(span0);
        // past six tiles only the count and the span grow
        let mut count = 1;
        let mut span = span0;
        while self.peek().is_some_and(|it| it.lex == Lex::Comma) {
            self.bump();
            match self.next() {
                Some(Item {
                    lex: Lex::Tile(t),
                    span: s,
                    ..
                }) => {
                    tiles.push(t);
                    parts.tiles.push(s);
                    count += 1;
                    span = span.join(s);
                }
                _ => {
                    return Err(bad(
                        "expected a tile after `,` in a swap".into(),
                        self.last_span(),
                        "not a tile",
                        "write `swap Rc,Bs` (tiles without squares)",
                    ));
                }
            }
        }
        if count > 6 {
            return Err(bad(
                "a swap puts back at most 6 tiles".into(),
                span,
                "too many tiles",
                "a hand holds six tiles",
            ));
        }
        parts.what = span;
        Ok((Some(tiles), count))
    }

    /// A placement from its first tile (`first` at `span`) on: the tiles
    /// joined by `+`, then the claim and the draw (the other order is read
    /// too).
    #[inline(always)]
    fn placement(
        &mut self,
        first: Placed,
        span: Span,
        mv: &mut Move,
        parts: &mut Spans,
    ) -> Result<(), Diag> {
        *mv = Move::Place {
            tiles: PlacedTiles::default(),
            claim: None,
            draw: None,
        };
        let Move::Place { tiles, claim, draw } = mv else {
            return Ok(());
        };
        tiles.push(first);
        parts.tiles.push(span);
        while let Some(plus) = self.peek().filter(|it| it.lex == Lex::Plus) {
            self.bump();
            let (placed, span) = self.plus_tile(plus, tiles.len())?;
            tiles.push(placed);
            parts.tiles.push(span);
        }
        self.claim_into(claim, parts)?;
        self.draw_into(draw, parts)?;
        if claim.is_none() && draw.is_some() {
            self.claim_into(claim, parts)?;
        }
        Ok(())
    }

    /// The claim after a placement into the move's field and its span into
    /// `parts`.
    #[inline(always)]
    fn claim_into(&mut self, claim: &mut Option<i64>, parts: &mut Spans) -> Result<(), Diag> {
        if let Some((n, span)) = self.claim()? {
            *claim = Some(n);
            parts.claim = span;
        }
        Ok(())
    }

    /// The tile on a square after a `+` (the turn holding `held` tiles).
    #[inline(always)]
    fn plus_tile(&mut self, plus: Item, held: usize) -> Result<(Placed, Span), Diag> {
        match self.next() {
            Some(Item {
                lex: Lex::Placed(tile, x, y),
                span,
                ..
            }) => {
                if held >= 6 {
                    return Err(bad(
                        "a turn places at most 6 tiles".into(),
                        span,
                        "a seventh tile",
                        "a hand holds six tiles",
                    ));
                }
                Ok((Placed { tile, x, y }, span))
            }
            Some(it) => Err(bad(
                "`+` must be followed by a tile on a square".into(),
                it.span,
                "expected a tile on a square, like `Rd@0,-1`",
                TILE_HELP,
            )),
            None => Err(bad(
                "`+` must be followed by a tile on a square".into(),
                plus.span,
                "nothing follows this `+`",
                TILE_HELP,
            )),
        }
    }
}

fn first_text(it: Item) -> String {
    match it.lex {
        Lex::Tile(t) | Lex::Placed(t, ..) => code(t),
        _ => String::new(),
    }
}

/// A parsed turn, with the spans of its parts.
pub type ParsedTurn = Parsed<Move, Spans>;

/// Reads the movetext tokens into turns, up to the first malformed one.
pub fn parse(tokens: &[Token], src: &str) -> ParsedMoves<Move, Spans> {
    ParsedMoves::read(|moves| parse_into(tokens, src, moves))
}

/// [`parse`] into `moves` (emptied first, its room reused): the notation
/// error after the turns read, if any.
pub fn parse_into(tokens: &[Token], src: &str, moves: &mut Vec<ParsedTurn>) -> Option<Diag> {
    moves.clear();
    // a turn is two or three tokens in most records
    moves.reserve(tokens.len().min(1 << 16) / 2);
    let mut r = Reader::new(tokens, src);
    while let Some(first) = r.next() {
        moves.push(Parsed {
            mv: Move::Pass,
            span: first.span,
            token: first.token,
            parts: Spans::default(),
        });
        let Some(slot) = moves.last_mut() else {
            break;
        };
        match r.turn(first, &mut slot.mv, &mut slot.parts) {
            Ok(()) => {
                let last = r.last.unwrap_or(first);
                slot.span = first.span.join(last.span);
                slot.token = last.token;
            }
            Err(d) => {
                moves.pop();
                // A turn cut short by a malformed lexeme: blame the lexeme.
                let d = if r.at_error() {
                    r.error.take().unwrap_or(d)
                } else {
                    d
                };
                return Some(d);
            }
        }
    }
    r.error
}

fn list(tiles: &[Tile]) -> String {
    tiles.iter().map(|&t| code(t)).collect::<Vec<_>>().join(",")
}

/// The canonical spelling of a turn: `Rc@0,0 + Rd@0,-1 =3 <Gs,Bx>`,
/// `swap Rc,Bs <Po,Pd>`, `swap 2`, `pass`.
pub fn write(mv: &Move) -> String {
    let draw = |d: &Option<DrawTiles>| match d {
        Some(d) => format!(" <{}>", list(d)),
        None => String::new(),
    };
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Swap {
            tiles,
            count,
            draw: d,
        } => {
            let what = match tiles {
                Some(t) => list(t),
                None => count.to_string(),
            };
            format!("swap {what}{}", draw(d))
        }
        Move::Place {
            tiles,
            claim,
            draw: d,
        } => {
            let mut s = tiles
                .iter()
                .map(|p| format!("{}@{},{}", code(p.tile), p.x, p.y))
                .collect::<Vec<_>>()
                .join(" + ");
            if let Some(n) = claim {
                s.push_str(&format!(" ={n}"));
            }
            s.push_str(&draw(d));
            s
        }
    }
}

impl Notation for Qwirkle {
    type Spans = Spans;

    fn parse_moves_into(
        _start: &State,
        tokens: &[Token],
        src: &str,
        moves: &mut Vec<ParsedTurn>,
    ) -> Option<Diag> {
        parse_into(tokens, src, moves)
    }

    fn write_move(mv: &Move) -> String {
        write(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::parse_file;

    fn read(src: &str) -> (Vec<String>, Option<(String, String)>) {
        let games = parse_file(src);
        let g = &games[0];
        let p = parse(&g.tokens, src);
        (
            p.moves.iter().map(|m| write(&m.mv)).collect(),
            p.error.map(|d| {
                (
                    d.code.to_string(),
                    d.span.unwrap_or_default().text(src).to_string(),
                )
            }),
        )
    }

    #[test]
    fn placements_claims_draws() {
        assert_eq!(
            read("Rc@0,0 + Rd@0,-1 + Ro@0,-2 =3 <Gs,Bx,Y*>").0,
            ["Rc@0,0 + Rd@0,-1 + Ro@0,-2 =3 <Gs,Bx,Y*>"]
        );
        assert_eq!(
            read("Rc@0,0+Rd@0,-1 +Ro@0,-2= 3 < Gs , Bx >  Gx@1,1 <>").0,
            ["Rc@0,0 + Rd@0,-1 + Ro@0,-2 =3 <Gs,Bx>", "Gx@1,1 <>"]
        );
        assert_eq!(read("Rc@0,0 <Gs> =1").0, ["Rc@0,0 =1 <Gs>"]);
        assert_eq!(
            read("Gx@-5,5 R*@-2,-1 + Rd@-2,1 =5").0,
            ["Gx@-5,5", "R*@-2,-1 + Rd@-2,1 =5"]
        );
    }

    #[test]
    fn swaps_and_passes() {
        assert_eq!(
            read("swap Rc,Bs <Po,Pd> SWAP 2 Swap Oo, Y* PASS pass swap 1 <Gs>").0,
            [
                "swap Rc,Bs <Po,Pd>",
                "swap 2",
                "swap Oo,Y*",
                "pass",
                "pass",
                "swap 1 <Gs>"
            ]
        );
    }

    /// The lexemes cut one at a time are those of cutting every token whole,
    /// up to the same first malformed one.
    #[test]
    fn lexemes_cut_on_demand_match_cutting_every_token() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let pieces = [
            "Rc@0,0",
            "+",
            "Rd@0,-1",
            "=3",
            "<Gs,Bx>",
            "<",
            ">",
            ",",
            "swap",
            "PASS",
            "2",
            "Zz",
            "Rc@",
            "Rc@1,",
            "=",
            "99999999999999999999999",
            "Y*",
            "+Go@-4,2",
            "oO",
            "\u{e9}",
        ];
        let (mut lexemes, mut errors) = (0, 0);
        for _ in 0..3000 {
            let mut src = String::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            for _ in 0..(seed % 9) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                src.push_str(pieces[(seed % pieces.len() as u64) as usize]);
                src.push(if seed % 3 == 0 { ' ' } else { '\n' });
                if seed % 5 == 0 {
                    src.push_str("Bo@1,1");
                }
            }
            let games = parse_file(&src);
            let Some(g) = games.first() else { continue };
            // whole tokens, one after the other
            let mut want = Vec::new();
            let mut want_err = None;
            'tokens: for (k, t) in g.tokens.iter().enumerate() {
                let text = t.text(&src).as_bytes();
                let mut i = 0;
                while i < text.len() {
                    match lex_one(text, t.span.offset, i, k) {
                        Ok((item, len)) => {
                            want.push((item.lex, item.span, item.token));
                            i += len;
                        }
                        Err(d) => {
                            want_err = Some(d.span);
                            break 'tokens;
                        }
                    }
                }
            }
            let mut r = Reader::new(&g.tokens, &src);
            let mut got = Vec::new();
            while let Some(it) = r.next() {
                got.push((it.lex, it.span, it.token));
            }
            assert_eq!(got, want, "{src:?}");
            assert_eq!(r.error.map(|d| d.span), want_err, "{src:?}");
            lexemes += got.len();
            errors += usize::from(want_err.is_some());
        }
        assert!(lexemes > 5000 && errors > 500, "{lexemes} {errors}");
    }

    #[test]
    fn integers_read_in_one_pass_match_the_plain_reading() {
        let plain = |b: &str| {
            let sign = usize::from(b.starts_with('-'));
            let digits = b[sign..].bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                return (None, 0);
            }
            let v = b[..sign + digits].parse::<i128>().ok();
            (v.and_then(|v| i32::try_from(v).ok()), sign + digits)
        };
        for s in [
            "0",
            "-0",
            "7,",
            "-12x",
            "2147483647",
            "2147483648",
            "-2147483648",
            "-2147483649",
            "99999999999",
            "000000000000000000000012",
            "-",
            "",
            "x1",
            "123456789012345678901234567890",
            "-00",
            "42",
            "1099511627776",
            "1099511627775",
        ] {
            assert_eq!(int(s.as_bytes()), plain(s), "{s}");
        }
    }

    #[test]
    fn case_matters_for_tiles() {
        // `O` orange, `o` circle: `Oo` is an orange circle, `oO` is nothing.
        assert_eq!(read("Oo@0,0").0, ["Oo@0,0"]);
        let (_, err) = read("oO@0,0");
        assert_eq!(
            err,
            Some(("qwirkle::bad_tile".to_string(), "oO".to_string()))
        );
        let (_, err) = read("RC@0,0");
        assert!(err.is_some());
    }

    #[test]
    fn malformed_blames_its_text() {
        let e = |s: &str| read(s).1.map(|(_, t)| t);
        assert_eq!(e("Rc@0,0 + Zz@1,0").as_deref(), Some("Zz"));
        assert_eq!(e("Rc@0").as_deref(), Some("Rc@0"));
        assert_eq!(e("Rc@0,0 +").as_deref(), Some("+"));
        assert_eq!(e("Rc@0,0 <Gs").as_deref(), Some("<"));
        assert_eq!(e("Rc@3000000000,0").as_deref(), Some("Rc@3000000000,0"));
        assert_eq!(e("Rc@0,0 =x").as_deref(), Some("x"));
        assert_eq!(e("swap 0").as_deref(), Some("0"));
        assert_eq!(e("swap").as_deref(), Some("swap"));
        assert_eq!(e("Rc").as_deref(), Some("Rc"));
        assert_eq!(e("=3").as_deref(), Some("="));
        assert!(e("Rc@0,0 =99999999999999999999999").is_some());
        assert_eq!(e("Rcx@0,0").as_deref(), Some("Rcx"));
        assert_eq!(
            read("Rc@-2147483648,2147483647").0,
            ["Rc@-2147483648,2147483647"]
        );
    }
}
