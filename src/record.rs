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
//!   checked like the `Result` tag;
//! - a line ends at LF, CRLF or a lone CR: a `;` comment stops at any of
//!   them, and a tag line may follow any of them; line breaks inside a
//!   comment are read as LF;
//! - a `;` comment on the line right after another `;` comment (only blanks
//!   before it) continues it: the two are joined with a line break, not a
//!   space. This is how a comment holding `}` (which a `{ }` comment cannot
//!   hold) and line breaks is written and read back exactly: one `;` line per
//!   line of the comment (the gamerec writer does so); each line is trimmed,
//!   like every comment;
//! - a comment's text is kept with its line breaks as LF and each of its
//!   lines trimmed ([`comment_text`]), a `{ }` comment's as well as a `;`
//!   comment's (indentation inside a comment is layout, and a `;` line
//!   could not keep it);
//! - move numbers are kept per move ([`RawGame::numbers`]: the token each
//!   stands before), so conversion can write them back.

use nom::{
    IResult, Parser,
    bytes::complete::{take_while, take_while1},
    character::complete::{char, digit1},
    multi::many1_count,
};

use std::collections::HashSet;

use crate::diag::Diag;
use crate::source::{TOO_LARGE_KEPT, TextBuf};
use crate::span::{Origin, Span};

/// One `[Name "value"]` tag.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tag {
    /// The tag's name.
    pub name: String,
    /// Its value, unescaped.
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

    /// The value of the first tag named `name`.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.get(name).map(|t| t.value.as_str())
    }

    /// The tags in file order.
    pub fn iter(&self) -> impl Iterator<Item = &Tag> {
        self.0.iter()
    }
}

/// A movetext token: a run of non-space text that is neither comment nor move
/// number. The comments that follow it are the game's
/// ([`RawGame::comments`]): a token is a span and nothing to drop, so a
/// game's tokens are cleared at once and sixteen bytes each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Token {
    pub span: Span,
}

impl Token {
    pub fn new(span: Span) -> Self {
        Token { span }
    }

    pub fn text<'s>(&self, src: &'s str) -> &'s str {
        self.span.text(src)
    }
}

/// One game as the container sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawGame {
    /// The tags in file order.
    pub tags: Tags,
    /// Malformed or repeated tags (ply 0).
    pub tag_errors: Vec<Diag>,
    /// Tag errors past `MAX_TAG_ERRORS` the reader dropped, counted in
    /// the game's "more diagnostics not shown".
    pub tag_errors_dropped: usize,
    /// A comment before the first move.
    pub comment: Option<String>,
    /// The movetext's tokens (move numbers, comments and the result token apart).
    pub tokens: Vec<Token>,
    /// The comments that follow tokens: the token's index and its comments
    /// joined, in token order (a comment before the first token is
    /// [`RawGame::comment`]).
    pub comments: Vec<(usize, String)>,
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
    /// The move numbers written in the movetext (`12.`, `12...`): the index
    /// of the token that follows each, and the number's span, in token order.
    pub numbers: Vec<(usize, Span)>,
    /// Automatic passes a document (JSON, YAML) marks `auto: true`: for each,
    /// the index from 0 of the written move it stands before. The replay
    /// checks the engine takes them (`record::bad_auto_move`).
    pub auto_passes: Vec<usize>,
    /// For a game written from a document (JSON, YAML): the index of the
    /// last token of each written move; the replay checks that each reads
    /// as one move of the game (`record::bad_notation_value`).
    pub doc_moves: Vec<usize>,
    /// What a format keeps with a move that gamerec does not interpret
    /// (GGF's evaluation and time, `GGF_eval`, `GGF_time`): the token's
    /// index, the property's name and its value as written, in token
    /// order. The replay hands them to the move's record, so a conversion
    /// keeps them.
    pub move_props: Vec<(usize, String, String)>,
}

impl RawGame {
    /// Puts `d` first among the tag errors (a reader's note that belongs
    /// before them), keeping at most `MAX_TAG_ERRORS` and counting the one
    /// that falls off in `tag_errors_dropped`.
    pub fn tag_error_first(&mut self, d: Diag) {
        self.tag_errors.insert(0, d);
        if self.tag_errors.len() > MAX_TAG_ERRORS {
            self.tag_errors.truncate(MAX_TAG_ERRORS);
            self.tag_errors_dropped += 1;
        }
    }

    /// Moves every span by `f` (a game read on its own and a whole file
    /// count offsets from different starts).
    fn move_spans(&mut self, f: impl Fn(Span) -> Span) {
        let diag = |d: &mut Diag| d.span = d.span.map(&f);
        for t in &mut self.tags.0 {
            t.span = f(t.span);
            t.value_span = f(t.value_span);
        }
        self.tag_errors.iter_mut().for_each(diag);
        // one plain loop over the tokens (a chained iterator is not unrolled)
        for t in &mut self.tokens {
            t.span = f(t.span);
        }
        if let Some(t) = self.result_token.as_mut() {
            t.span = f(t.span);
        }
        if let Some(d) = self.stop.as_mut() {
            diag(d);
        }
        self.span = f(self.span);
        if let Some(w) = self.winner_claim.as_mut() {
            w.span = f(w.span);
        }
        for (_, s) in &mut self.numbers {
            *s = f(*s);
        }
    }

    /// The comments that follow token `token`, joined.
    pub fn token_comment(&self, token: usize) -> Option<&str> {
        let i = self.comments.partition_point(|&(t, _)| t < token);
        self.comments
            .get(i)
            .filter(|(t, _)| *t == token)
            .map(|(_, c)| c.as_str())
    }

    /// The comments of the tokens from `from` to `to` (both included), in order.
    pub fn comments_of(&self, from: usize, to: usize) -> impl Iterator<Item = &str> {
        let i = self.comments.partition_point(|&(t, _)| t < from);
        self.comments
            .get(i..)
            .unwrap_or(&[])
            .iter()
            .take_while(move |(t, _)| *t <= to)
            .map(|(_, c)| c.as_str())
    }

    /// The move number written before token `token`, if any.
    pub fn number_before(&self, token: usize) -> Option<Span> {
        let i = self.numbers.partition_point(|&(t, _)| t < token);
        self.numbers
            .get(i)
            .filter(|&&(t, _)| t == token)
            .map(|&(_, s)| s)
    }

    /// Empties the game for the next one, keeping its buffers' room (a
    /// reader that refills games allocates nothing per game); its tags are
    /// handed to `spare` (up to `keep` of them) so their strings' room is
    /// kept too.
    pub fn clear(&mut self, spare: &mut Vec<Tag>, keep: usize) {
        let RawGame {
            tags,
            tag_errors,
            tag_errors_dropped,
            comment,
            tokens,
            comments,
            result_token,
            stop,
            span,
            winner_claim,
            token_players,
            numbers,
            auto_passes,
            doc_moves,
            move_props,
        } = self;
        let room = keep.saturating_sub(spare.len()).min(tags.0.len());
        spare.extend(tags.0.drain(..room));
        tags.0.clear();
        tag_errors.clear();
        *tag_errors_dropped = 0;
        *comment = None;
        tokens.clear();
        comments.clear();
        *result_token = None;
        *stop = None;
        *span = Span::default();
        *winner_claim = None;
        token_players.clear();
        numbers.clear();
        auto_passes.clear();
        doc_moves.clear();
        move_props.clear();
    }

    /// Lets go of the room of a large game's text and tokens, so that games
    /// kept for reuse hold no more than a typical game each.
    pub fn trim(&mut self, text: &mut String) {
        if text.capacity() > KEPT_TEXT {
            *text = String::new();
        }
        if self.tokens.capacity() > KEPT_TOKENS {
            self.tokens = Vec::new();
        }
    }

    /// Spans `by` bytes later.
    pub fn shift(&mut self, by: usize) {
        self.move_spans(|s| Span::new(s.offset + by, s.length));
    }

    /// Spans `by` bytes earlier.
    pub fn unshift(&mut self, by: usize) {
        self.move_spans(|s| Span::new(s.offset.saturating_sub(by), s.length));
    }
}

/// Who a record says won: seat indices (several on a draw), and where it says so.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WinnerClaim {
    pub seats: Vec<usize>,
    pub span: Span,
    /// What the claim was written as, for the message.
    pub text: String,
    /// The first seat's score minus the second's, when the claim gives it
    /// (Pentobi's `RE[B+5]`): checked too.
    pub margin: Option<i64>,
}

/// Splits a file into games. `src` is the whole file; spans are offsets into it.
/// The tags every game knows besides its player and rules tags (spec §1):
/// `Game`, `Variant`, `Result` and the usual descriptive ones, kept and
/// carried through conversion; `TheoreticalScore` is WTHOR's, `MoveScores`
/// the moves an `.obf` position lists with their scores (Reversi's).
pub const COMMON_TAGS: &[&str] = &[
    "Game",
    "Variant",
    "Result",
    "Event",
    "Site",
    "Date",
    "Round",
    "Annotator",
    "TheoreticalScore",
    "TheoreticalDepth",
    "MoveScores",
];

/// `record::unknown_tag` warnings for tag names that look like a mistake:
/// equal to a known tag but for case (tag names are case-sensitive, so
/// `[result "..."]` is not checked), or one edit away from one
/// (`[Reslut "..."]`, `[Whtie "..."]`). Other unknown tags are kept
/// silently, as spec §1 asks. `known` are the game's known tags; `game`
/// names the game for the help. Allocates nothing when every tag is known.
pub fn unknown_tag_warnings(tags: &Tags, known: &[&[&'static str]], game: &str) -> Vec<Diag> {
    let mut out = Vec::new();
    let all = || known.iter().flat_map(|k| k.iter().copied());
    for t in &tags.0 {
        if all().any(|k| k == t.name) {
            continue;
        }
        let near = all()
            .find(|k| k.eq_ignore_ascii_case(&t.name))
            .or_else(|| crate::diag::closest(&t.name, all(), 1));
        let Some(near) = near else { continue };
        let message = if near.eq_ignore_ascii_case(&t.name) {
            format!("unknown tag `{}`: tag names are case-sensitive", t.name)
        } else {
            format!("unknown tag `{}`", t.name)
        };
        out.push(
            Diag::warning("record::unknown_tag", message)
                .at(t.span)
                .label(format!("kept as an unknown tag, not read as `{near}`"))
                .help(format!(
                    "did you mean `{near}`? (`gamerec tags {game}` lists the known tags)"
                )),
        );
    }
    out
}

/// Every game of a gamerec text, parsed by the container (no rules).
pub fn parse_file(src: &str) -> Vec<RawGame> {
    let mut games = Vec::new();
    let mut reader = Reader::new(TextBuf::of_str(src));
    while let Some(mut g) = reader.next_game() {
        g.raw.shift(g.origin.offset);
        games.push(g.raw);
    }
    games
}

/// One game read on its own: its text (the container's spans point into it)
/// and where that text stands in the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameText {
    pub text: String,
    pub origin: Origin,
    pub raw: RawGame,
}

/// Byte classes for reading plain movetext ([`Reader::plain_tokens`]).
const OTHER: u8 = 0;
const BLANK: u8 = 1;
const TOKEN: u8 = 2;
const DIGIT: u8 = 3;

/// The class of every byte: blanks within a line (space, tab, vertical tab,
/// form feed), ASCII token bytes (digits apart: a token starting with one may
/// be a move number), and the rest (line ends, `{`, `}`, `;`, `[`, other
/// control characters, non-ASCII bytes).
const BYTE_CLASS: [u8; 256] = {
    let mut t = [OTHER; 256];
    let mut b = 0x21;
    while b < 0x7f {
        t[b] = TOKEN;
        b += 1;
    }
    let mut d = b'0' as usize;
    while d <= b'9' as usize {
        t[d] = DIGIT;
        d += 1;
    }
    t[b'{' as usize] = OTHER;
    t[b'}' as usize] = OTHER;
    t[b';' as usize] = OTHER;
    t[b'[' as usize] = OTHER;
    t[b' ' as usize] = BLANK;
    t[b'\t' as usize] = BLANK;
    t[0x0b] = BLANK;
    t[0x0c] = BLANK;
    t
};

/// The class of one byte ([`BYTE_CLASS`]).
#[inline(always)]
fn byte_class(b: u8) -> u8 {
    BYTE_CLASS[usize::from(b)]
}

/// Whether a plain token may end before `b`: a blank or a line end.
#[inline(always)]
fn ends_token(b: u8) -> bool {
    byte_class(b) == BLANK || b == b'\n' || b == b'\r'
}

/// The byte classes of up to 64 bytes as bit masks (bit `i` for byte `i`;
/// past the bytes given, as after a line end), for [`Reader::plain_tokens`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct ClassMasks {
    /// Blanks within a line: space, tab, vertical tab, form feed.
    blank: u64,
    /// Token bytes, digits included.
    token: u64,
    /// Token bytes that may start a plain token (not digits).
    start: u64,
    /// Bytes a token may end at: blanks and line ends (and the end of the
    /// bytes given).
    term: u64,
}

impl ClassMasks {
    /// The masks of the first 64 bytes of `bytes` (all of them when fewer:
    /// past them, as after a line end).
    #[inline]
    fn of(bytes: &[u8]) -> ClassMasks {
        match bytes.first_chunk::<64>() {
            Some(chunk) => ClassMasks::of_chunk(chunk),
            None => {
                // the end of the bytes reads as a line end
                let mut chunk = [b'\n'; 64];
                let n = bytes.len().min(64);
                if let (Some(to), Some(from)) = (chunk.get_mut(..n), bytes.get(..n)) {
                    to.copy_from_slice(from);
                }
                ClassMasks::of_chunk(&chunk)
            }
        }
    }

    #[inline]
    fn of_chunk(chunk: &[u8; 64]) -> ClassMasks {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: SSE2 is part of every x86-64 CPU.
            unsafe { ClassMasks::of_chunk_sse2(chunk) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            ClassMasks::of_chunk_plain(chunk)
        }
    }

    /// A byte at a time, through [`BYTE_CLASS`].
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    fn of_chunk_plain(chunk: &[u8; 64]) -> ClassMasks {
        let mut m = ClassMasks::default();
        for (i, &b) in chunk.iter().enumerate() {
            let class = byte_class(b);
            m.blank |= u64::from(class == BLANK) << i;
            m.term |= u64::from(ends_token(b)) << i;
            m.token |= u64::from(class == TOKEN || class == DIGIT) << i;
            m.start |= u64::from(class == TOKEN) << i;
        }
        m
    }

    /// Sixteen bytes at a time with SSE2 compares: the same classes as
    /// [`BYTE_CLASS`] (a test checks every byte value in every place).
    ///
    /// # Safety
    /// Only where the CPU has SSE2 (every x86-64 CPU).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "sse2")]
    fn of_chunk_sse2(chunk: &[u8; 64]) -> ClassMasks {
        use std::arch::x86_64::*;
        let mut m = ClassMasks::default();
        let eq = |v: __m128i, b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
        for (k, part) in chunk.chunks_exact(16).enumerate() {
            let word = |at: usize| {
                part.get(at..at + 8)
                    .and_then(|w| <[u8; 8]>::try_from(w).ok())
                    .map_or(0, i64::from_le_bytes)
            };
            let v = _mm_set_epi64x(word(8), word(0));
            let blank = _mm_or_si128(
                _mm_or_si128(eq(v, b' '), eq(v, b'\t')),
                _mm_or_si128(eq(v, 0x0b), eq(v, 0x0c)),
            );
            // 0x21..=0x7e (bytes from 0x80 compare as negative) but for the
            // four that open or close something
            let printable = _mm_and_si128(
                _mm_cmpgt_epi8(v, _mm_set1_epi8(0x20)),
                _mm_cmplt_epi8(v, _mm_set1_epi8(0x7f)),
            );
            let special = _mm_or_si128(
                _mm_or_si128(eq(v, b'{'), eq(v, b'}')),
                _mm_or_si128(eq(v, b';'), eq(v, b'[')),
            );
            let token = _mm_andnot_si128(special, printable);
            let digit = _mm_and_si128(
                _mm_cmpgt_epi8(v, _mm_set1_epi8(b'0' as i8 - 1)),
                _mm_cmplt_epi8(v, _mm_set1_epi8(b'9' as i8 + 1)),
            );
            let start = _mm_andnot_si128(digit, token);
            let bits = |x: __m128i| u64::from(_mm_movemask_epi8(x) as u16) << (16 * k);
            m.blank |= bits(blank);
            m.token |= bits(token);
            m.start |= bits(start);
            m.term |= bits(_mm_or_si128(
                blank,
                _mm_or_si128(eq(v, b'\n'), eq(v, b'\r')),
            ));
        }
        m
    }
}

/// Tokens whose room a game kept for reuse keeps ([`RawGame::trim`]).
const KEPT_TOKENS: usize = 256;

/// Spare tags a reader keeps for their strings' room.
const SPARE_TAGS: usize = 64;

/// Text room a game kept for reuse keeps ([`RawGame::trim`]).
const KEPT_TEXT: usize = 64 * 1024;

/// Tag errors reported per game at most (a binary file would give thousands).
pub const MAX_TAG_ERRORS: usize = 20;

/// The container's reader: reads a [`TextBuf`] up to the end of the current
/// game, one game at a time ([`Reader::next_game`]). Every search ahead (the
/// `}` of a comment, the next tag line) looks at each byte once, so time
/// stays linear on any input, and no game grows past the text's size limit
/// (`record::too_large`; reading resumes at the next line that starts with
/// `[`).
pub struct Reader<'a> {
    buf: TextBuf<'a>,
    pos: usize,
    cur: RawGame,
    /// Where the current game's text starts in the buffer.
    game_start: usize,
    started: bool,
    in_movetext: bool,
    /// Movetext stopped (after an error): skip until the next tag section.
    skipping: bool,
    last_number: Option<(u64, Span)>,
    /// A line end (or the end of the text) at or after `pos`, once found.
    line_end: usize,
    /// How far the searches for `}` and for a tag line have looked.
    brace_scan: usize,
    tag_line_scan: usize,
    /// Tag names of this game, once there are many (a linear search before).
    names: HashSet<String>,
    /// A finished game waiting to be handed out (`done` says where its
    /// text stands in the file), and the buffers the next finished game
    /// goes into.
    done: Option<Origin>,
    done_raw: RawGame,
    done_text: String,
    /// Tags of earlier games, their strings reused for new tags.
    spare_tags: Vec<Tag>,
    bom_checked: bool,
    /// Where the last `;` comment ended (a `;` comment on the next line
    /// continues it).
    line_comment_end: Option<usize>,
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

/// Whether a text (a move's notation in a JSON/YAML document, written into
/// gamerec text) reads as move tokens and nothing else; `Err` says what else
/// it holds.
pub fn one_move_text(text: &str) -> Result<(), &'static str> {
    if text.contains(['\n', '\r']) {
        return Err("it holds a line break");
    }
    if text.contains(['{', '}', ';', '[']) {
        return Err("it holds a comment, a brace or a tag (`{`, `}`, `;`, `[`)");
    }
    let games = parse_file(text);
    let [g] = &games[..] else {
        return Err("it is empty");
    };
    if !g.numbers.is_empty() {
        return Err("it holds a move number");
    }
    if g.result_token.is_some() || g.stop.is_some() || !g.tag_errors.is_empty() {
        return Err("it reads as a result, not a move");
    }
    if g.tokens.is_empty() {
        return Err("it is empty");
    }
    Ok(())
}

/// Whether a token is in `Result` syntax: `*`, or integers joined by `-`, or by `,`.
pub fn is_result_syntax(text: &str) -> bool {
    if !text.contains(['-', ',']) {
        // no separator: not scores (most move tokens end here)
        return text == "*";
    }
    each_result_score(text, |_| {}).is_some()
}

/// The scores of a `Result` value: integers joined by `-`, or by `,` with optional
/// spaces (a leading `-` is then a sign). `None` for `*` or malformed text.
pub fn parse_result_scores(text: &str) -> Option<Vec<i64>> {
    let mut scores = Vec::new();
    each_result_score(text, |s| scores.push(s))?;
    Some(scores)
}

/// [`parse_result_scores`] one score at a time, in order, without a
/// vector: how many scores there are, or `None` for `*` or malformed text
/// (the scores before the fault have been handed out).
pub fn each_result_score(text: &str, mut each: impl FnMut(i64)) -> Option<usize> {
    let text = text.trim();
    let signed = text.contains(',');
    if !signed {
        // integers joined by `-` (the usual form): digits only between dashes
        let (mut count, mut value, mut digits) = (0, 0i64, 0);
        for &b in text.as_bytes() {
            match b {
                b'0'..=b'9' => {
                    value = value.checked_mul(10)?.checked_add(i64::from(b - b'0'))?;
                    digits += 1;
                }
                b'-' if digits > 0 => {
                    each(value);
                    (count, value, digits) = (count + 1, 0, 0);
                }
                _ => return None,
            }
        }
        if digits == 0 || count == 0 {
            return None;
        }
        each(value);
        return Some(count + 1);
    }
    let parts = || {
        text.split(if signed { ',' } else { '-' })
            .map(move |p| if signed { p.trim() } else { p })
    };
    // two parts at least
    parts().nth(1)?;
    let mut count = 0;
    for p in parts() {
        let digits = if signed {
            p.strip_prefix('-').unwrap_or(p)
        } else {
            p
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        each(p.parse::<i64>().ok()?);
        count += 1;
    }
    Some(count)
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
    pub fn new(buf: TextBuf<'a>) -> Self {
        Reader {
            buf,
            pos: 0,
            cur: RawGame::default(),
            game_start: 0,
            started: false,
            in_movetext: false,
            skipping: false,
            last_number: None,
            line_end: 0,
            brace_scan: 0,
            tag_line_scan: 0,
            names: HashSet::new(),
            done: None,
            done_raw: RawGame::default(),
            done_text: String::new(),
            spare_tags: Vec::new(),
            bom_checked: false,
            line_comment_end: None,
        }
    }

    /// Why the text ended early (not UTF-8, binary, a read error), once the
    /// games before that point have been read.
    pub fn take_error(&mut self) -> Option<String> {
        self.buf.take_error()
    }

    fn src(&self) -> &str {
        self.buf.text()
    }

    fn rest(&self) -> &str {
        self.src().get(self.pos..).unwrap_or("")
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// Makes sure the text holds the whole line from `pos` (or all that is
    /// left). `false` when the game has grown past the size limit.
    fn line_ready(&mut self) -> bool {
        if self.line_end > self.pos {
            return true;
        }
        let mut at = self.pos;
        loop {
            let rest = self.src().as_bytes().get(at..).unwrap_or(&[]);
            if let Some(i) = crate::span::find_line_end(rest) {
                self.line_end = at + i + 1;
                return true;
            }
            at = self.src().len();
            if !self.buf.fill() {
                if self.buf.full() {
                    return false;
                }
                self.line_end = usize::MAX;
                return true;
            }
        }
    }

    /// The next game, or `None` at the end of the text.
    pub fn next_game(&mut self) -> Option<GameText> {
        let mut raw = RawGame::default();
        let mut text = String::new();
        let origin = self.next_game_into(&mut raw, &mut text)?;
        Some(GameText { text, origin, raw })
    }

    /// The next game into `raw` and `text` (their earlier contents are
    /// dropped, their room reused for later games): where the text stands in
    /// the file, or `None` at the end of the text.
    pub fn next_game_into(&mut self, raw: &mut RawGame, text: &mut String) -> Option<Origin> {
        if !self.bom_checked {
            self.bom_checked = true;
            while self.src().len() < 3 && self.buf.fill() {}
            if self.src().starts_with('\u{feff}') {
                self.pos = 3;
            }
        }
        loop {
            // read, not taken: `take` would write the slot on every turn
            if let Some(origin) = self.done {
                self.done = None;
                std::mem::swap(raw, &mut self.done_raw);
                std::mem::swap(text, &mut self.done_text);
                // the caller's earlier game makes room for the next one
                self.done_raw.clear(&mut self.spare_tags, SPARE_TAGS);
                self.done_raw.trim(&mut self.done_text);
                self.done_text.clear();
                return Some(origin);
            }
            if !self.line_ready() || self.pos - self.game_start > self.buf.limit() {
                self.too_large();
                continue;
            }
            let Some(c) = self.peek() else {
                if self.started {
                    self.finish_game();
                    continue;
                }
                return None;
            };
            if is_space(c) {
                self.pos += c.len_utf8();
                if c.is_ascii() {
                    // the rest of an ASCII blank run on this line, in one go
                    let end = self.line_end.min(self.src().len());
                    let blanks = self
                        .src()
                        .as_bytes()
                        .get(self.pos..end)
                        .unwrap_or(&[])
                        .iter()
                        .take_while(|b| b.is_ascii_whitespace() || **b == 0x0b)
                        .count();
                    self.pos += blanks;
                }
                if !self.started && self.pos - self.game_start > TOO_LARGE_KEPT {
                    // a long run of blank text before a game is not kept
                    self.buf.skip_to(self.pos);
                    self.game_start = self.pos;
                    self.compact();
                }
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
                self.plain_tokens();
            }
        }
    }

    /// The rest of the current line while it holds only blanks and plain
    /// ASCII tokens (no move number, comment, brace, tag or non-ASCII
    /// character), each token as [`Reader::token`] would read it. Stops
    /// before anything else (a line end included), which the main loop then
    /// reads. The line is looked at 64 bytes at a time as bit masks of byte
    /// classes ([`ClassMasks`]): a blank run and a token are each one
    /// trailing-zero count, so no branch depends on a token's length.
    fn plain_tokens(&mut self) {
        if self.skipping {
            return;
        }
        let bytes = self.buf.text().as_bytes();
        let end = self.line_end.min(bytes.len());
        let mut pos = self.pos;
        'window: while pos < end {
            let m = ClassMasks::of(bytes.get(pos..end).unwrap_or(&[]));
            let mut i = 0u32;
            loop {
                // blanks: bits past the line are not blanks, so the count
                // stops there at the latest
                i += (!m.blank).checked_shr(i).unwrap_or(0).trailing_zeros();
                if i >= 64 {
                    pos += 64;
                    continue 'window;
                }
                // a token that starts with a letter or a sign
                if (m.start >> i) & 1 == 0 {
                    pos += i as usize;
                    break 'window;
                }
                let len = (!m.token >> i).trailing_zeros();
                let start = pos + i as usize;
                let len = if i + len < 64 {
                    len as usize
                } else if i > 0 {
                    // it may go on past the window: look again from its start
                    pos = start;
                    continue 'window;
                } else {
                    // longer than a window
                    bytes
                        .get(start..)
                        .unwrap_or(&[])
                        .iter()
                        .take_while(|&&b| matches!(byte_class(b), TOKEN | DIGIT))
                        .count()
                };
                // it must end at a blank, a line end or the end of the text
                let ends_well = if len < 64 - i as usize {
                    (m.term >> (i as usize + len)) & 1 != 0
                } else {
                    bytes.get(start + len).is_none_or(|&b| ends_token(b))
                };
                if !ends_well {
                    pos = start;
                    break 'window;
                }
                self.cur.tokens.push(Token::new(Span::new(start, len)));
                if len >= 64 - i as usize {
                    pos = start + len;
                    continue 'window;
                }
                i += len as u32;
            }
        }
        self.pos = pos;
    }

    fn start_game(&mut self) {
        if !self.started {
            self.started = true;
            self.cur.span = Span::new(self.pos, 0);
        }
    }

    /// Forgets text already taken, moving every position kept.
    fn compact(&mut self) {
        let by = self.buf.compact();
        if by > 0 {
            self.pos -= by;
            self.game_start -= by;
            self.line_end = self.line_end.saturating_sub(by);
            self.brace_scan = self.brace_scan.saturating_sub(by);
            self.tag_line_scan = self.tag_line_scan.saturating_sub(by);
            self.line_comment_end = self.line_comment_end.and_then(|e| e.checked_sub(by));
        }
    }

    /// Hands the current game to the `done` slot; the slot's empty game
    /// becomes the current one.
    fn hand_out(&mut self, end: usize) {
        let origin = self.buf.take_into(end, &mut self.done_text);
        self.cur.unshift(self.game_start);
        std::mem::swap(&mut self.cur, &mut self.done_raw);
        self.done = Some(origin);
    }

    fn finish_game(&mut self) {
        let game = &mut self.cur;
        game.span = Span::between(game.span.offset, self.pos);
        // A final token in result syntax closes the movetext (as in PGN).
        if game.stop.is_none()
            && game
                .tokens
                .last()
                .is_some_and(|t| is_result_syntax(t.text(self.buf.text())))
        {
            let tok = game.tokens.pop();
            // its comment goes to the token before it (or the game)
            let popped = game.tokens.len();
            if game.comments.last().is_some_and(|(t, _)| *t == popped) {
                if let Some((_, comment)) = game.comments.pop() {
                    attach(game, comment);
                }
            }
            game.result_token = tok;
        }
        self.hand_out(self.pos);
        self.fresh_game();
    }

    /// The state for a game that starts at `pos`.
    fn fresh_game(&mut self) {
        self.game_start = self.pos;
        self.started = false;
        self.in_movetext = false;
        self.skipping = false;
        self.last_number = None;
        self.line_comment_end = None;
        self.names.clear();
        self.compact();
    }

    /// The game has grown past the size limit: it is reported with what
    /// was read of its tags, and reading resumes at the next line that starts
    /// with `[`.
    fn too_large(&mut self) {
        let limit = self.buf.limit();
        let start = if self.started {
            self.cur.span.offset
        } else {
            self.pos
        };
        let kept_end = {
            let mut end = (start + TOO_LARGE_KEPT)
                .min(self.pos.max(start))
                .min(self.src().len());
            while !self.src().is_char_boundary(end) {
                end -= 1;
            }
            end
        };
        let inside = |s: Span| s.end() <= kept_end;
        let game = &mut self.cur;
        game.tags.0.retain(|t| inside(t.span));
        game.tag_errors.retain(|d| d.span.is_none_or(inside));
        game.tokens.clear();
        game.result_token = None;
        game.comment = None;
        game.stop = Some(
            Diag::error(
                "record::too_large",
                format!("this game is larger than the limit of {limit} bytes"),
            )
            .at(Span::new(start, usize::from(start < kept_end)))
            .label("the game that starts here is too large")
            .help(
                "split the game, or raise the limit with --max-game-bytes; \
                 reading resumes at the next line that starts with `[`",
            ),
        );
        game.span = Span::between(start, kept_end);
        self.hand_out(kept_end);
        // skip to the next line that starts with `[`, keeping nothing
        let mut scanned = kept_end;
        loop {
            let hay = self.buf.text().as_bytes().get(scanned..).unwrap_or(&[]);
            if let Some(i) = tag_line(hay) {
                self.buf.skip_to(scanned + i + 1);
                break;
            }
            // keep the last character: it may be the `\n` of a `\n[`
            let mut keep = self.src().len().saturating_sub(1).max(self.buf.start());
            while !self.src().is_char_boundary(keep) {
                keep -= 1;
            }
            self.buf.skip_to(keep);
            self.pos = keep;
            self.game_start = keep;
            self.compact();
            scanned = self.pos;
            if !self.buf.fill() {
                let end = self.src().len();
                self.buf.skip_to(end);
                break;
            }
        }
        self.pos = self.buf.start();
        self.line_end = 0;
        self.fresh_game();
    }

    fn stop_movetext(&mut self, diag: Diag) {
        if !self.skipping {
            self.cur.stop = Some(diag);
            self.skipping = true;
        }
    }

    fn tag(&mut self) {
        if self.plain_tag() {
            return;
        }
        let start = self.pos;
        // a spare tag's strings take the name and value (no allocation)
        let mut spare = self.spare_tags.pop().unwrap_or_default();
        let Ok((after_head, name)) = tag_head(self.rest()) else {
            self.bad_tag(
                start,
                "expected a tag name of letters, digits and `_`, then a space",
                "tags are written [Name \"value\"]",
            );
            return;
        };
        spare.name.clear();
        spare.name.push_str(name);
        let name = spare.name;
        let value_start = self.src().len() - after_head.len();
        if !after_head.starts_with('"') {
            self.bad_tag(
                start,
                "the value must be a double-quoted string",
                "tags are written [Name \"value\"]",
            );
            return;
        }
        let mut value = spare.value;
        value.clear();
        let Some(mut p) = self.tag_value(start, value_start + 1, &mut value) else {
            return;
        };
        let mut value_span = Span::between(value_start, p);
        let bytes = self.src().as_bytes();
        while matches!(bytes.get(p), Some(b' ') | Some(b'\t')) {
            p += 1;
        }
        if bytes.get(p) != Some(&b']') {
            if let Some(end) = self.unescaped_quotes(value_start, value_span.end(), &mut value) {
                value_span = Span::between(value_start, end - 1);
                p = end - 1;
            }
        }
        if self.src().as_bytes().get(p) != Some(&b']') {
            self.bad_tag(
                start,
                "expected `]` after the value",
                "tags are written [Name \"value\"]",
            );
            return;
        }
        p += 1;
        self.pos = p;
        self.add_tag(name, value, Span::between(start, p), value_span);
    }

    /// A tag value with quotes left unescaped inside it (an exporter's
    /// habit: `[Event "Parties du "Coq" - 1988"]`): when the value's line
    /// still ends in `"]` (blanks after it allowed) and no other `"]` comes
    /// before that end, the value is read up to that end, its inner quotes
    /// kept, with a `record::unescaped_quote` warning at the first of them.
    /// `value_start` is the opening quote, `stray` the position just after
    /// the quote that ended the value early. The position after the tag's
    /// `]`, or `None` (nothing changed) when the line does not end so.
    fn unescaped_quotes(&mut self, value_start: usize, stray: usize, value: &mut String) -> Option<usize> {
        let src = self.src();
        let rest = src.get(stray..)?;
        let line = &rest[..rest.find(['\n', '\r']).unwrap_or(rest.len())];
        let close = line.trim_end_matches([' ', '\t']).strip_suffix("\"]")?.len();
        if line.get(..close)?.contains("\"]") {
            return None;
        }
        let inner = src.get(value_start + 1..stray + close)?;
        value.clear();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.clone().next() {
                    Some(e @ ('"' | '\\')) => {
                        value.push(e);
                        chars.next();
                    }
                    _ => value.push(c),
                },
                _ => value.push(c),
            }
        }
        let quote = stray - 1;
        self.tag_error(
            Diag::warning(
                "record::unescaped_quote",
                "a quote inside the tag value is not escaped",
            )
            .at(Span::new(quote, 1))
            .label("this quote does not end the value: its line ends in `\"]`")
            .help("write a quote inside a value as `\\\"`; the value is read up to the `\"]` that ends the line"),
        );
        Some(stray + close + 2)
    }

    /// A malformed tag at `start`: it runs to its `]`, or stops before a
    /// line end or the next `[`; reading goes on after it.
    fn bad_tag(&mut self, start: usize, why: &str, help: &str) {
        let rest = self.src().get(start + 1..).unwrap_or("");
        let end = match rest.find([']', '\n', '\r', '[']) {
            Some(i) if rest.as_bytes().get(i) == Some(&b']') => start + 1 + i + 1,
            Some(i) => start + 1 + i,
            None => self.src().len(),
        };
        let end = end.max(start + 1);
        self.tag_error(
            Diag::error("record::bad_tag", format!("malformed tag: {why}"))
                .at(Span::between(start, end))
                .label(why.to_string())
                .help(help.to_string()),
        );
        self.pos = end;
    }

    /// The quoted value of the tag at `start`, from just after its opening
    /// quote at `p`, unescaped into `value`; the position after the closing
    /// quote, or `None` when the tag was malformed (reported).
    fn tag_value(&mut self, start: usize, mut p: usize, value: &mut String) -> Option<usize> {
        loop {
            let bytes = self.src().as_bytes();
            match bytes.get(p) {
                None | Some(b'\n') | Some(b'\r') => {
                    self.broken_tag_value(start, p);
                    return None;
                }
                Some(b'"') => return Some(p + 1),
                Some(b'\\') if matches!(bytes.get(p + 1), Some(b'"') | Some(b'\\')) => {
                    value.push(bytes.get(p + 1).map_or('\\', |&b| b as char));
                    p += 2;
                }
                Some(_) => {
                    // the run up to the next quote, backslash or line end, at once
                    // (those bytes are ASCII, so the run ends on a character boundary)
                    let run = bytes
                        .get(p..)
                        .unwrap_or(&[])
                        .iter()
                        .position(|b| matches!(b, b'"' | b'\\' | b'\n' | b'\r'))
                        .unwrap_or(bytes.len().saturating_sub(p))
                        .max(1);
                    match self.src().get(p..p + run) {
                        Some(text) => {
                            value.push_str(text);
                            p += run;
                        }
                        None => {
                            // a lone backslash: one character
                            let ch = self
                                .src()
                                .get(p..)
                                .and_then(|s| s.chars().next())
                                .unwrap_or('\u{fffd}');
                            value.push(ch);
                            p += ch.len_utf8();
                        }
                    }
                }
            }
        }
    }

    /// The value of the tag at `start` stops at a line end (or the input's
    /// end) at `p`: reported, and reading goes on after its `"]` if one
    /// comes before the next line that starts with `[`, else as for any
    /// malformed tag.
    fn broken_tag_value(&mut self, start: usize, p: usize) {
        let mut scanned = self.tag_line_scan;
        let next_tag = self
            .buf
            .find_from(p, &mut scanned, |t| tag_line(t.as_bytes()))
            .unwrap_or(self.src().len());
        self.tag_line_scan = scanned;
        let closing = self
            .src()
            .get(p..next_tag)
            .and_then(|r| r.find("\"]"))
            .map(|i| p + i + 2);
        if let Some(end) = closing {
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
        self.bad_tag(
            start,
            "the value's closing quote is missing on this line",
            "close the value with `\"` on the same line",
        );
    }

    /// A tag in its usual form, `[Name "value"]` with nothing to unescape
    /// in the value and nothing else on the way: read a byte at a time.
    /// `false` (nothing read) for anything else, which [`Reader::tag`] reads
    /// (the same tag whichever reads it).
    fn plain_tag(&mut self) -> bool {
        let start = self.pos;
        let bytes = self.buf.text().as_bytes();
        let blanks = |mut p: usize| {
            while matches!(bytes.get(p), Some(b' ' | b'\t')) {
                p += 1;
            }
            p
        };
        let name_start = blanks(start + 1);
        let mut p = name_start;
        while bytes
            .get(p)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        {
            p += 1;
        }
        let name_end = p;
        p = blanks(p);
        if name_end == name_start || p == name_end || bytes.get(p) != Some(&b'"') {
            return false;
        }
        let value_start = p;
        let Some(len) = bytes.get(p + 1..).and_then(|r| {
            r.iter()
                .position(|b| matches!(b, b'"' | b'\\' | b'\n' | b'\r'))
        }) else {
            return false;
        };
        p += 1 + len;
        if bytes.get(p) != Some(&b'"') {
            return false;
        }
        let value_span = Span::between(value_start, p + 1);
        p = blanks(p + 1);
        if bytes.get(p) != Some(&b']') {
            return false;
        }
        // the stops are ASCII, so these are character boundaries
        let text = self.buf.text();
        let (Some(name), Some(value)) = (
            text.get(name_start..name_end),
            text.get(value_start + 1..value_start + 1 + len),
        ) else {
            return false;
        };
        let mut tag = self.spare_tags.pop().unwrap_or_default();
        // room for a usual name and value, so that a spare tag, whichever
        // tag it held before, seldom grows
        tag.name.clear();
        tag.name.reserve(name.len().max(16));
        tag.name.push_str(name);
        tag.value.clear();
        tag.value.reserve(value.len().max(48));
        tag.value.push_str(value);
        self.pos = p + 1;
        self.add_tag(tag.name, tag.value, Span::between(start, p + 1), value_span);
        true
    }

    /// Adds a tag read whole to the current game: `record::duplicate_tag`
    /// for a name given before.
    fn add_tag(&mut self, name: String, value: String, span: Span, value_span: Span) {
        if self.has_tag(&name) {
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
        if self.cur.tags.0.len() >= 16 {
            if self.names.is_empty() {
                self.names = self.cur.tags.iter().map(|t| t.name.clone()).collect();
            }
            self.names.insert(name.clone());
        }
        if self.cur.tags.0.capacity() == 0 {
            // a typical tag section at once
            self.cur.tags.0.reserve(8);
        }
        self.cur.tags.0.push(Tag {
            name,
            value,
            span,
            value_span,
        });
    }

    /// Whether the current game has a tag of that name (a set once there
    /// are many, so a game of many tags reads in linear time).
    fn has_tag(&self, name: &str) -> bool {
        if self.names.is_empty() {
            self.cur.tags.get(name).is_some()
        } else {
            self.names.contains(name)
        }
    }

    /// Records a tag error; past [`MAX_TAG_ERRORS`] in one game the rest are
    /// dropped and counted.
    fn tag_error(&mut self, d: Diag) {
        if self.cur.tag_errors.len() < MAX_TAG_ERRORS {
            self.cur.tag_errors.push(d);
        } else {
            self.cur.tag_errors_dropped += 1;
        }
    }

    fn brace_comment(&mut self) {
        let start = self.pos;
        let mut scanned = self.brace_scan;
        let close = self.buf.find_from(start + 1, &mut scanned, |t| {
            memchr::memchr(b'}', t.as_bytes())
        });
        self.brace_scan = scanned;
        match close {
            Some(end) => {
                let text = comment_text(self.src().get(start + 1..end).unwrap_or("").trim());
                self.pos = end + 1;
                self.comment(text);
            }
            None => {
                let full = self.buf.full();
                self.start_game();
                self.in_movetext = true;
                let help = if full {
                    format!(
                        "close the comment with `}}` (none comes within {} bytes)",
                        self.buf.limit()
                    )
                } else {
                    "close the comment with `}`".to_string()
                };
                self.stop_movetext(
                    Diag::error(
                        "record::unterminated_comment",
                        "this `{` comment is never closed",
                    )
                    .at(Span::new(start, 1))
                    .label("comment opened here")
                    .help(help),
                );
                // Resume at the next line that starts with `[`.
                let mut scanned = self.tag_line_scan;
                let next = self
                    .buf
                    .find_from(start, &mut scanned, |t| tag_line(t.as_bytes()))
                    .map(|i| i + 1);
                self.tag_line_scan = scanned;
                match next {
                    Some(next) => {
                        self.pos = next;
                        self.finish_game();
                    }
                    // no tag line within the size limit: the game is too large
                    None if self.buf.full() => self.too_large(),
                    None => self.pos = self.src().len(),
                }
            }
        }
    }

    fn line_comment(&mut self) {
        let start = self.pos + 1;
        let end = self
            .rest()
            .find(['\n', '\r'])
            .map_or(self.src().len(), |i| self.pos + i);
        let text = self.src().get(start..end).unwrap_or("").trim().to_string();
        // a `;` comment on the line right after another continues it
        let continues = self.line_comment_end.is_some_and(|e| {
            let between = self.src().get(e..self.pos).unwrap_or("x");
            let rest = between
                .strip_prefix("\r\n")
                .or_else(|| between.strip_prefix(['\n', '\r']));
            rest.is_some_and(|r| r.bytes().all(|b| b == b' ' || b == b'\t'))
        });
        self.pos = end;
        self.line_comment_end = Some(end);
        if continues {
            if !self.skipping {
                let existing = comment_slot(&mut self.cur);
                existing.push('\n');
                existing.push_str(&text);
            }
        } else {
            self.comment(text);
        }
    }

    fn comment(&mut self, text: String) {
        if self.skipping {
            return;
        }
        attach(&mut self.cur, text);
    }

    fn token(&mut self) {
        self.in_movetext = true;
        let start = self.pos;
        let rest = self.rest();
        // ASCII token bytes first; a non-ASCII byte switches to characters
        let ascii = rest
            .as_bytes()
            .iter()
            .take_while(|&&b| b.is_ascii() && is_token_char(char::from(b)))
            .count();
        let tail = rest.get(ascii..).unwrap_or("");
        let len = if tail.as_bytes().first().is_some_and(|b| !b.is_ascii()) {
            ascii + tail.find(|c: char| !is_token_char(c)).unwrap_or(tail.len())
        } else {
            ascii
        };
        self.pos += len;
        if self.skipping {
            return;
        }
        let text = self.src().get(start..start + len).unwrap_or("");
        let (mut tok_start, mut tok_len) = (start, len);
        let numbered = text.as_bytes().first().is_some_and(u8::is_ascii_digit);
        if let Some(Ok((rest, number))) = numbered.then(|| move_number(text)) {
            let num_span = Span::new(start, text.len() - rest.len());
            let rest_len = rest.len();
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
            let next = self.cur.tokens.len();
            match self.cur.numbers.last_mut() {
                // several numbers before one move: the last one counts
                Some(last) if last.0 == next => last.1 = num_span,
                _ => self.cur.numbers.push((next, num_span)),
            }
            tok_start = start + num_span.length;
            tok_len = rest_len;
        }
        if tok_len == 0 {
            return;
        }
        if self.cur.tokens.capacity() == 0 {
            // room for a typical game's movetext at once
            self.cur.tokens.reserve(64);
        }
        self.cur
            .tokens
            .push(Token::new(Span::new(tok_start, tok_len)));
    }
}

/// A comment's text as gamerec keeps it, whatever format it comes from:
/// line breaks (LF, CRLF, a lone CR) as LF, and each line trimmed of the
/// blanks at its ends, as a `;` line is (so that the `;` lines a comment
/// holding `}` is written as read back the same text).
pub fn comment_text(text: &str) -> String {
    if !text.contains(['\n', '\r']) {
        return text.trim().to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        out.push_str(rest.get(..end).unwrap_or("").trim());
        let Some(tail) = rest.get(end..).filter(|t| !t.is_empty()) else {
            return out;
        };
        out.push('\n');
        rest = tail
            .strip_prefix("\r\n")
            .or_else(|| tail.get(1..))
            .unwrap_or("");
    }
}

/// Where a comment read now goes: the last token's, or the game's (made
/// empty when there is none yet).
fn comment_slot(game: &mut RawGame) -> &mut String {
    let Some(last) = game.tokens.len().checked_sub(1) else {
        return game.comment.get_or_insert_with(String::new);
    };
    if game.comments.last().is_none_or(|(t, _)| *t != last) {
        game.comments.push((last, String::new()));
    }
    match game.comments.last_mut() {
        Some((_, c)) => c,
        // not reached: there is one for the last token now
        None => game.comment.get_or_insert_with(String::new),
    }
}

/// Where the next line starts with `[` (a tag line): the index of the line
/// end before it. Line ends are LF, CRLF and a lone CR.
fn tag_line(t: &[u8]) -> Option<usize> {
    memchr::memchr2_iter(b'\n', b'\r', t).find(|&i| t.get(i + 1) == Some(&b'['))
}

fn attach(game: &mut RawGame, text: String) {
    let slot = comment_slot(game);
    if !text.is_empty() {
        if !slot.is_empty() {
            slot.push(' ');
        }
        slot.push_str(&text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'s>(src: &'s str, g: &RawGame) -> Vec<&'s str> {
        g.tokens.iter().map(|t| t.text(src)).collect()
    }

    /// Games read into reused buffers (an earlier game's text, tags, tokens,
    /// comments, errors) come out as games read fresh.
    #[test]
    fn reused_buffers_read_as_fresh_ones() {
        let src = "[Game \"reversi\"]\n[Black \"A \\\"b\\\"\"]\n[White \"C\"]\n1. f5 {x} d6 ; y\n2. c3 1-0\n\n\
                   [Game \"qwirkle\"]\n[Bad tag]\n{start} a b c } d\n\n\
                   [Game \"reversi\"]\nf5\n\n\
                   f5 d6 {never closed\n\n\
                   [Result \"*\"][Game \"reversi\"][Game \"x\"]\n3. f5 2. d6\n";
        let mut fresh = Reader::new(TextBuf::of_str(src));
        let mut reused = Reader::new(TextBuf::of_str(src));
        let (mut raw, mut text) = (RawGame::default(), String::new());
        let mut n = 0;
        while let Some(want) = fresh.next_game() {
            let origin = reused.next_game_into(&mut raw, &mut text);
            assert_eq!(origin, Some(want.origin), "game {n}");
            assert_eq!(text, want.text, "game {n}");
            assert_eq!(raw, want.raw, "game {n}");
            n += 1;
        }
        assert_eq!(n, 4);
        assert_eq!(reused.next_game_into(&mut raw, &mut text), None);
    }

    /// The vector masks give every byte value, in every place of a window,
    /// the class [`BYTE_CLASS`] gives it.
    #[test]
    fn class_masks_agree_with_the_byte_table() {
        for v in 0..=255u8 {
            for at in 0..64 {
                let mut chunk = [0u8; 64];
                for (i, b) in chunk.iter_mut().enumerate() {
                    *b = (i as u8).wrapping_mul(37).wrapping_add(v);
                }
                chunk[at] = v;
                let plain = ClassMasks::of_chunk_plain(&chunk);
                assert_eq!(ClassMasks::of_chunk(&chunk), plain, "byte {v:#x} at {at}");
                let bit = 1u64 << at;
                let class = byte_class(v);
                assert_eq!(plain.blank & bit != 0, class == BLANK);
                assert_eq!(plain.token & bit != 0, matches!(class, TOKEN | DIGIT));
                assert_eq!(plain.start & bit != 0, class == TOKEN);
                assert_eq!(plain.term & bit != 0, ends_token(v));
            }
            // fewer than 64 bytes: past them, as after a line end
            let short = [v; 5];
            let m = ClassMasks::of(&short);
            assert_eq!((m.blank | m.token | m.start) >> 5, 0);
            assert_eq!(m.term >> 5, u64::MAX >> 5);
        }
    }

    /// Tokens and blank runs of every length up to past two windows, at every
    /// place against the 64-byte windows of the plain token reader: the
    /// tokens are the line's words.
    #[test]
    fn plain_tokens_across_window_edges() {
        for lead in 0..70 {
            for len in [1, 2, 7, 8, 62, 63, 64, 65, 66, 127, 128, 129, 140] {
                let word: String = (0..len)
                    .map(|i| char::from(b'a' + (i % 26) as u8))
                    .collect();
                let blanks = " ".repeat(lead);
                let line = format!("x{blanks}{word}\t{word}{blanks} {word} e5\x0bf6\x0c*");
                for end in ["", "\n", "\r\n"] {
                    let src = format!("[Game \"reversi\"]\n{line}{end}");
                    let games = parse_file(&src);
                    let want: Vec<&str> = line
                        .split(|c: char| c.is_ascii_whitespace() || c == '\x0b')
                        .filter(|w| !w.is_empty() && *w != "*")
                        .collect();
                    assert_eq!(
                        texts(&src, &games[0]),
                        want,
                        "lead {lead} len {len} end {end:?}"
                    );
                }
            }
        }
        // a token that does not end at a blank, a digit, a brace: left to the
        // general reader, as before
        let src = "[Game \"reversi\"]\nf5 d6{c} 12. c3 d3; x\n";
        assert_eq!(texts(src, &parse_file(src)[0]), ["f5", "d6", "c3", "d3"]);
    }

    #[test]
    fn tags_tokens_comments_numbers() {
        let src = "\u{feff}[Game \"reversi\"]\r\n[Event \"A \\\"b\\\" \\\\ c\"]\r\n\r\n1. f5 d6 2.c3 {hi} d3 ; end\r\n3... c4 *\r\n";
        let games = parse_file(src);
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tags.value("Event"), Some("A \"b\" \\ c"));
        assert_eq!(texts(src, g), ["f5", "d6", "c3", "d3", "c4"]);
        assert_eq!(g.token_comment(2), Some("hi"));
        assert_eq!(g.token_comment(3), Some("end"));
        assert!(g.result_token.is_some());
        assert!(g.tag_errors.is_empty() && g.stop.is_none());
    }

    #[test]
    fn unescaped_quotes_read_to_the_line_end() {
        let src = "[Event \"Parties du \"Coq\" - 1988\"]  \n[Site \"a \\\"b\\\" \"c\"]\n\
                   [Round \"x \"y\"] [Black \"z\"]\n[White \"w\"x]\nf5\n";
        let games = parse_file(src);
        let g = &games[0];
        let value = |name: &str| g.tags.get(name).map(|t| t.value.clone());
        assert_eq!(value("Event").as_deref(), Some("Parties du \"Coq\" - 1988"));
        assert_eq!(value("Site").as_deref(), Some("a \"b\" \"c"));
        // another `"]` before the line's end: not read across it
        assert_eq!(value("Round"), None);
        assert_eq!(value("Black").as_deref(), Some("z"));
        assert_eq!(value("White"), None);
        let codes: Vec<_> = g.tag_errors.iter().map(|d| (d.code.as_ref(), d.span)).collect();
        assert_eq!(
            codes,
            [
                ("record::unescaped_quote", Some(Span::new(19, 1))),
                ("record::unescaped_quote", Some(Span::new(51, 1))),
                ("record::bad_tag", Some(Span::new(56, 14))),
                ("record::bad_tag", Some(Span::new(83, 12))),
            ]
        );
        assert_eq!(texts(src, g), ["f5"]);
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
    fn lone_cr_ends_line_comments_and_lines() {
        let src =
            "[Game \"reversi\"]\r[Event \"x\"]\rf5 ; note\rd6 {a\rb} c3\r[Game \"reversi\"]\rf5";
        let games = parse_file(src);
        assert_eq!(games.len(), 2);
        assert_eq!(texts(src, &games[0]), ["f5", "d6", "c3"]);
        assert_eq!(games[0].token_comment(0), Some("note"));
        assert_eq!(games[0].token_comment(1), Some("a\nb"));
        // a broken tag value resumes at a tag line after a lone CR
        let src = "[Event \"x\r[Game \"reversi\"]\rf5";
        let g = &parse_file(src)[0];
        assert_eq!(g.tags.value("Game"), Some("reversi"));
        assert_eq!(texts(src, g), ["f5"]);
    }

    #[test]
    fn consecutive_line_comments_keep_their_line_breaks() {
        let src = "f5 ; a }\n; b\n;\n  ; c\nd6 ; x\n\n; y\ne6 {p} ; q\n";
        let g = &parse_file(src)[0];
        assert_eq!(g.token_comment(0), Some("a }\nb\n\nc"));
        // a blank line between them: two comments, joined with a space
        assert_eq!(g.token_comment(1), Some("x y"));
        assert_eq!(g.token_comment(2), Some("p q"));
    }

    #[test]
    fn move_numbers_are_kept_per_token() {
        let src = "1.f5 d6 2. c3 2... d3 e3 3.";
        let g = &parse_file(src)[0];
        assert_eq!(texts(src, g), ["f5", "d6", "c3", "d3", "e3"]);
        let numbers: Vec<(usize, &str)> =
            g.numbers.iter().map(|&(t, s)| (t, s.text(src))).collect();
        assert_eq!(numbers, [(0, "1."), (2, "2."), (3, "2..."), (5, "3.")]);
        assert_eq!(g.number_before(3).map(|s| s.text(src)), Some("2..."));
        assert_eq!(g.number_before(1), None);
    }

    #[test]
    fn one_move_texts() {
        assert!(one_move_text("f5").is_ok());
        assert!(one_move_text("swap 2 <Rc Bo>").is_ok());
        for bad in [
            "", " ", "f5 {", "}", "a ; b", "[X", "1.f5", "12...", "36-28", "*", "f5\rd6",
        ] {
            assert!(one_move_text(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn result_syntax() {
        assert_eq!(parse_result_scores("36-28"), Some(vec![36, 28]));
        assert_eq!(parse_result_scores("-52, 15"), Some(vec![-52, 15]));
        assert_eq!(parse_result_scores("1-2-3-4"), Some(vec![1, 2, 3, 4]));
        assert_eq!(parse_result_scores("*"), None);
        assert_eq!(parse_result_scores("a-b"), None);
        assert_eq!(parse_result_scores("5"), None);
        let mut seen = Vec::new();
        assert_eq!(each_result_score(" -52, 15 ", |s| seen.push(s)), Some(2));
        assert_eq!(seen, [-52, 15]);
        assert_eq!(each_result_score("1-2-x", |_| {}), None);
        // the dash form read byte by byte agrees with the general reading
        for text in [
            "36-28",
            "0-64",
            "1-2-3-4",
            "007-1",
            "-1-2",
            "1--2",
            "1-2-",
            "1-",
            "-",
            "",
            "99999999999999999999-1",
            "9223372036854775807-0",
            "1-+2",
            "1 -2",
            " 3-4 ",
            "*",
            "١-٢",
        ] {
            let general: Option<Vec<i64>> = text
                .trim()
                .split('-')
                .map(|p| {
                    (!p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
                        .then(|| p.parse::<i64>().ok())
                        .flatten()
                })
                .collect::<Option<Vec<i64>>>()
                .filter(|v| v.len() >= 2);
            assert_eq!(parse_result_scores(text), general, "{text:?}");
        }
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
