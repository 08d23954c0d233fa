//! Pentobi's Blokus game files (`.blksgf`): SGF with `GM[Blokus]`,
//! `GM[Blokus Two-Player]`, `GM[Blokus Three-Player]`, `GM[Blokus Duo]`,
//! `GM[Blokus Trigon]`, `GM[Blokus Trigon Two-Player]` or `GM[Blokus Trigon
//! Three-Player]` (case-insensitive, trimmed). Read and written (`convert
//! --to blksgf`).
//!
//! The text is the file itself; each move's token is the value inside
//! `B[...]`, `W[...]` or `1[...]`..`4[...]` (the comma-separated squares).
//!
//! Reading:
//! - `Game "blokus"`; `Blokus Duo` is `Variant "duo"`; `Two-Player` and
//!   `Three-Player` set `Players "2"`/`"3"`; classic games get Pentobi's
//!   corners, `Corners "blue a20, yellow t20, red t1, green a1"`, and every
//!   game `Scoring "pentobi"`. The Trigon names are `Variant "trigon"`
//!   (with `Players "2"`/`"3"` likewise, no `Corners`: the starting points
//!   are shared). Another `GM` is `record::unknown_game` at it.
//! - Moves: `B` is the first colour, `W` the second, `1`..`4` the colours in
//!   turn order; the colour must be the side to move once the replay has
//!   passed for colours without a move (Pentobi writes no passes), else
//!   `record::wrong_player`.
//!   A move node's `C[...]` is the move's comment; the root's is the game's.
//! - Names: `PB`/`PW` are the first two seats' tags (`Purple`/`Orange` in
//!   Duo, `Player1`/`Player2` with two players, `Blue`/`Yellow` with four);
//!   `P1`..`P4` the seats in order (Trigon: `PB`/`PW` with two players,
//!   `P1`..`P3` blue, yellow, red with three). `DT` is `Date`, `EV` `Event`, `PC` `Site`,
//!   `RE` is kept as `SGF_RE` (Pentobi's result text is not a score list);
//!   `FF`, `CA`, `AP`, `GM` are format data and dropped; any other root
//!   property `XX` is kept as `SGF_XX`.
//! - A move property with several values (`1[r12][r13]...`, one point
//!   per value, as Pentobi wrote moves before its version 0.3 and still
//!   reads them, e.g. in its Trigon opening book) is one move of those
//!   points, read from a normalised copy like the values below.
//! - SGF escapes: `\` takes the next character literally, `\` before a line
//!   break removes it. A move value holding white space or escapes is read
//!   from a normalised copy appended after the file's text (its spans point
//!   there); Pentobi writes none.
//! - Variations: the main line (the first child at every branch) is
//!   validated; the others are skipped, and a warning
//!   (`pentobi::variations_ignored`) says how many.
//! - Setup properties in the root: `AB`/`AW` (first/second colour) and
//!   `A1`..`A4` (colours in turn order), each value one piece as its squares,
//!   become the Blokus setup tags (`SetupPurple`/`SetupOrange` in Duo,
//!   `SetupBlue`..`SetupGreen` in classic), one tag per colour holding its
//!   pieces separated by spaces (`AB` and `A1` both feed the first colour).
//!   With one plain value the tag's value is the file's text and errors
//!   point into it; with several, errors blame all of the values. `PL` (`B`,
//!   `W`, `1`..`4`) becomes `First` with the colour's name. A colour Duo
//!   does not have (`A3`, `PL[3]`) and `AE` (remove squares: the setup starts
//!   from an empty board, there is nothing to remove) are `blokus::bad_tags`
//!   at the property, and the game is not replayed. Setup values are checked
//!   by the Blokus rules (`src/games/blokus/setup.rs`).
//! - Malformed SGF (text outside nodes, an unterminated value or tree) is
//!   `pentobi::syntax`.
//!
//! Writing (Blokus games that Pentobi can hold: Duo, Trigon, or classic on 20x20 with
//! Pentobi's corners; a classic game with the rule text's corners, the
//! default, is refused since Pentobi's differ): `FF[4]`,
//! `CA[UTF-8]`, `GM`, the names and the tags above, then one node per
//! written move (`;B[..]` in Duo, `;1[..]`..`;4[..]` in classic) with the
//! squares sorted from `a1` row by row and the piece name left out; passes are
//! not written. Setup tags are written back as `AB`/`AW` (Duo) or `A1`..`A4`
//! (classic), one value per piece, squares sorted the same way, and `First`
//! as `PL`. A file whose setup squares are already sorted (Pentobi's own)
//! reads back to the same games; otherwise a second write is a fixed point.

use crate::diag::Diag;
use crate::formats::Losses;
use crate::games::blokus::setup;
use crate::model::DocGame;
use crate::record::{RawGame, Tag, Tags, Token};
use crate::span::Span;

pub const PENTOBI_CORNERS: &str = "blue a20, yellow t20, red t1, green a1";

struct Prop {
    id: String,
    /// Unescaped values, with the span of each raw value (inside brackets).
    values: Vec<(String, Span)>,
    span: Span,
}

struct Node {
    props: Vec<Prop>,
}

fn syntax(msg: impl Into<String>, span: Span) -> Diag {
    Diag::error("pentobi::syntax", msg)
        .at(span)
        .label("malformed SGF")
        .help("an SGF game is `(;` properties `ID[value]`, more `;` nodes, then `)`")
}

struct Parser<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.b.get(self.i).is_some_and(u8::is_ascii_whitespace) {
            self.i += 1;
        }
    }

    /// A bracketed value from `[`; `None` when unterminated.
    fn value(&mut self) -> Option<(String, Span)> {
        let start = self.i + 1;
        let mut j = start;
        let mut out = String::new();
        loop {
            match self.b.get(j)? {
                b']' => break,
                b'\\' => {
                    let next = self.text.get(j + 1..)?.chars().next()?;
                    j += 1 + next.len_utf8();
                    if next == '\r' && self.b.get(j) == Some(&b'\n') {
                        j += 1;
                    } else if next != '\n' && next != '\r' {
                        out.push(next);
                    }
                }
                _ => {
                    let c = self.text.get(j..)?.chars().next()?;
                    out.push(c);
                    j += c.len_utf8();
                }
            }
        }
        self.i = j + 1;
        Some((out, Span::between(start, j)))
    }

    /// A node's properties after its `;`.
    fn node(&mut self) -> Result<Node, Diag> {
        let mut props = Vec::new();
        loop {
            self.ws();
            let start = self.i;
            while self
                .b
                .get(self.i)
                .is_some_and(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            {
                self.i += 1;
            }
            if self.i == start {
                return Ok(Node { props });
            }
            let id = self.text.get(start..self.i).unwrap_or("").to_string();
            let mut values = Vec::new();
            loop {
                self.ws();
                if self.b.get(self.i) != Some(&b'[') {
                    break;
                }
                let at = self.i;
                match self.value() {
                    Some(v) => values.push(v),
                    None => {
                        return Err(syntax(
                            format!("the value of `{id}` has no closing `]`"),
                            Span::new(at, 1),
                        ));
                    }
                }
            }
            if values.is_empty() {
                return Err(syntax(
                    format!("property `{id}` has no value"),
                    Span::between(start, self.i),
                ));
            }
            props.push(Prop {
                id,
                values,
                span: Span::between(start, self.i),
            });
        }
    }

    /// Skips a subtree from its `(`; `false` when unterminated.
    fn skip_tree(&mut self) -> bool {
        let mut depth = 0usize;
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.i += 1;
                        return true;
                    }
                }
                b'[' => {
                    if self.value().is_none() {
                        self.i = self.b.len();
                        return false;
                    }
                    continue;
                }
                _ => {}
            }
            self.i += 1;
        }
        false
    }

    /// One game tree from its `(`: the main line's nodes, the number of
    /// variations skipped, a syntax error.
    fn tree(&mut self) -> (Vec<Node>, usize, Option<Diag>) {
        let mut nodes = Vec::new();
        let mut variations = 0;
        let mut open = 1usize; // trees entered along the main line
        self.i += 1;
        let mut main_done = false;
        loop {
            self.ws();
            let Some(&c) = self.b.get(self.i) else {
                let d = syntax(
                    "the game tree has no closing `)`",
                    Span::new(self.b.len(), 0),
                );
                return (nodes, variations, Some(d));
            };
            match c {
                b';' if !main_done => {
                    self.i += 1;
                    match self.node() {
                        Ok(n) => nodes.push(n),
                        Err(d) => {
                            self.recover(open);
                            return (nodes, variations, Some(d));
                        }
                    }
                }
                b'(' if !main_done => {
                    open += 1;
                    self.i += 1;
                }
                b'(' => {
                    variations += 1;
                    if !self.skip_tree() {
                        let d =
                            syntax("a variation has no closing `)`", Span::new(self.b.len(), 0));
                        return (nodes, variations, Some(d));
                    }
                }
                b')' => {
                    main_done = true;
                    open -= 1;
                    self.i += 1;
                    if open == 0 {
                        return (nodes, variations, None);
                    }
                }
                _ => {
                    let len = self
                        .text
                        .get(self.i..)
                        .and_then(|r| r.chars().next())
                        .map_or(1, char::len_utf8);
                    let d = syntax("unexpected text in the game tree", Span::new(self.i, len));
                    self.recover(open);
                    return (nodes, variations, Some(d));
                }
            }
        }
    }

    /// After an error: skip to the end of the enclosing trees.
    fn recover(&mut self, mut open: usize) {
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b'[' => {
                    if self.value().is_none() {
                        self.i = self.b.len();
                    }
                    continue;
                }
                b'(' => open += 1,
                b')' => {
                    open = open.saturating_sub(1);
                    if open == 0 {
                        self.i += 1;
                        return;
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
    }
}

/// The kind of game a `GM` names: (variant duo, players, trigon), `None`
/// if not Blokus.
fn kind(gm: &str) -> Option<(bool, u8, bool)> {
    match gm.trim().to_ascii_lowercase().as_str() {
        "blokus" => Some((false, 4, false)),
        "blokus two-player" => Some((false, 2, false)),
        "blokus three-player" => Some((false, 3, false)),
        "blokus duo" => Some((true, 2, false)),
        "blokus trigon" => Some((false, 4, true)),
        "blokus trigon two-player" => Some((false, 2, true)),
        "blokus trigon three-player" => Some((false, 3, true)),
        _ => None,
    }
}

fn seat_tags(duo: bool, players: u8, trigon: bool) -> &'static [&'static str] {
    match (duo, players, trigon) {
        (true, _, _) => &["Purple", "Orange"],
        (false, 2, _) => &["Player1", "Player2"],
        (false, 3, true) => &["Blue", "Yellow", "Red"],
        (false, 3, false) => &["Player1", "Player2", "Player3"],
        _ => &["Blue", "Yellow", "Red", "Green"],
    }
}

/// A setup tag from a colour's property values: the placements separated by
/// spaces (white space inside a value dropped). Its span covers the values;
/// with one value written plainly the value is that text.
fn setup_tag(name: &str, values: &[(String, Span)]) -> Option<Tag> {
    let first = values.first()?.1;
    let last = values.last()?.1;
    let items: Vec<String> = values
        .iter()
        .map(|(v, _)| v.chars().filter(|c| !c.is_whitespace()).collect())
        .collect();
    let span = Span::between(first.offset, last.offset + last.length);
    Some(synth(name, &items.join(" "), span))
}

fn synth(name: &str, value: &str, span: Span) -> Tag {
    Tag {
        name: name.into(),
        value: value.into(),
        span,
        value_span: span,
    }
}

/// Reads every game tree of a `.blksgf` file. Returns the text the spans
/// point into (the file, plus normalised move values where needed).
pub fn read(text: &str) -> (String, Vec<RawGame>) {
    let mut out_text = text.to_string();
    let mut p = Parser {
        text,
        b: text.as_bytes(),
        i: 0,
    };
    let mut games = Vec::new();
    while let Some(k) = text.get(p.i..).and_then(|r| r.find('(')) {
        let start = p.i + k;
        p.i = start;
        let (nodes, variations, err) = p.tree();
        let end = p.i.max(start + 1);
        p.i = end;
        games.push(game(&mut out_text, start, end, nodes, variations, err));
    }
    (out_text, games)
}

fn game(
    out_text: &mut String,
    start: usize,
    end: usize,
    nodes: Vec<Node>,
    variations: usize,
    err: Option<Diag>,
) -> RawGame {
    let head = Span::new(start, 1);
    let mut tags = Vec::new();
    let mut tag_errors = Vec::new();
    let mut tokens: Vec<Token> = Vec::new();
    let mut claims = Vec::new();
    let mut comment = None;
    let mut no_replay = false;
    let root = nodes.first();
    let gm = root.and_then(|n| n.props.iter().find(|p| p.id == "GM"));
    let (duo, players, trigon) = match gm {
        Some(p) => {
            let (v, s) = p.values.first().cloned().unwrap_or_default();
            match kind(&v) {
                Some(k) => {
                    tags.push(synth("Game", "blokus", s));
                    k
                }
                None => {
                    tags.push(synth("Game", v.trim(), s));
                    (false, 4, false)
                }
            }
        }
        None => {
            tags.push(synth("Game", "blokus", head));
            (false, 4, false)
        }
    };
    if duo {
        tags.push(synth("Variant", "duo", head));
    } else if trigon {
        tags.push(synth("Variant", "trigon", head));
        if players != 4 {
            tags.push(synth("Players", &players.to_string(), head));
        }
    } else {
        if players != 4 {
            tags.push(synth("Players", &players.to_string(), head));
        }
        tags.push(synth("Corners", PENTOBI_CORNERS, head));
    }
    tags.push(synth("Scoring", "pentobi", head));
    let seats = seat_tags(duo, players, trigon);
    let colour_names: &[&str] = if duo {
        &["purple", "orange"]
    } else {
        &["blue", "yellow", "red", "green"]
    };
    let colours = colour_names.len() as u8;
    // setup values per colour, and where in the tags each colour's tag goes
    let mut setup: [Vec<(String, Span)>; 4] = Default::default();
    let mut setup_at = [0usize; 4];
    if let Some(root) = root {
        for p in &root.props {
            let (v, s) = p.values.first().cloned().unwrap_or_default();
            let mut push = |name: &str| {
                tags.push(Tag {
                    name: name.to_string(),
                    value: v.clone(),
                    span: p.span,
                    value_span: s,
                })
            };
            match p.id.as_str() {
                "GM" | "FF" | "CA" | "AP" => {}
                "PB" => push(seats.first().copied().unwrap_or("Player1")),
                "PW" => push(seats.get(1).copied().unwrap_or("Player2")),
                "P1" | "P2" | "P3" | "P4" => {
                    let k = usize::from(p.id.as_bytes().get(1).copied().unwrap_or(b'1') - b'1');
                    match seats.get(k) {
                        Some(n) => push(n),
                        None => push(&format!("SGF_{}", p.id)),
                    }
                }
                "DT" => push("Date"),
                "EV" => push("Event"),
                "PC" => push("Site"),
                "C" => comment = Some(v.clone()),
                "AB" | "AW" | "A1" | "A2" | "A3" | "A4" => {
                    let c: u8 = match p.id.as_str() {
                        "AB" | "A1" => 0,
                        "AW" | "A2" => 1,
                        "A3" => 2,
                        _ => 3,
                    };
                    match setup.get_mut(usize::from(c)).filter(|_| c < colours) {
                        Some(slot) => {
                            slot.extend(p.values.iter().cloned());
                            if slot.len() == p.values.len() {
                                if let Some(at) = setup_at.get_mut(usize::from(c)) {
                                    *at = tags.len();
                                }
                            }
                        }
                        None => {
                            no_replay = true;
                            tag_errors.push(
                                Diag::error(
                                    "blokus::bad_tags",
                                    format!(
                                        "setup property `{}` names a colour Blokus Duo does not have",
                                        p.id
                                    ),
                                )
                                .at(p.span)
                                .label("no such colour")
                                .help("Blokus Duo's colours are AB (purple) and AW (orange)"),
                            );
                        }
                    }
                }
                "AE" => {
                    no_replay = true;
                    tag_errors.push(
                        Diag::error(
                            "blokus::bad_tags",
                            "setup property `AE` (remove squares) is not supported: a game's setup starts from an empty board, so there is nothing to remove",
                        )
                        .at(p.span)
                        .label("squares removed from the setup")
                        .help("write the position with AB/AW or A1..A4 only"),
                    );
                }
                "PL" => {
                    let c: Option<u8> = match v.trim() {
                        "B" | "1" => Some(0),
                        "W" | "2" => Some(1),
                        "3" => Some(2),
                        "4" => Some(3),
                        _ => None,
                    };
                    match c.and_then(|c| colour_names.get(usize::from(c))) {
                        Some(name) => tags.push(synth(setup::FIRST, name, s)),
                        None => {
                            no_replay = true;
                            tag_errors.push(
                                Diag::error(
                                    "blokus::bad_tags",
                                    format!("PL[{}] names no colour of this game", v.trim()),
                                )
                                .at(s)
                                .label("not a colour")
                                .help(if duo {
                                    "Blokus Duo's colours are PL[B] (purple) and PL[W] (orange)"
                                } else {
                                    "classic colours are PL[1] (blue) to PL[4] (green)"
                                }),
                            );
                        }
                    }
                }
                other => push(&format!("SGF_{other}")),
            }
        }
    }
    // insert from the last position so earlier positions stay valid
    let mut order: Vec<usize> = (0..4).collect();
    order.sort_by_key(|&c| std::cmp::Reverse((setup_at.get(c).copied().unwrap_or(0), c)));
    for c in order {
        let (Some(values), Some(name)) = (setup.get(c), setup::tag_name(duo, c as u8)) else {
            continue;
        };
        if let Some(tag) = setup_tag(name, values) {
            let at = setup_at.get(c).copied().unwrap_or(0).min(tags.len());
            tags.insert(at, tag);
        }
    }
    for (k, node) in nodes.iter().enumerate() {
        let mut has_move = false;
        for p in &node.props {
            if !matches!(p.id.as_str(), "B" | "W" | "1" | "2" | "3" | "4") {
                continue;
            }
            let Some((v, s)) = p.values.first() else {
                continue;
            };
            let several = p.values.len() > 1;
            let span = if several || v.chars().any(char::is_whitespace) || v.len() != s.length {
                // normalise into a copy after the file's text; old files
                // give a move as one value per point: join them
                let norm: String = p
                    .values
                    .iter()
                    .map(|(v, _)| v.chars().filter(|c| !c.is_whitespace()).collect::<String>())
                    .collect::<Vec<_>>()
                    .join(",");
                out_text.push_str("\n; ");
                let at = out_text.len();
                out_text.push_str(&norm);
                Span::new(at, norm.len())
            } else {
                *s
            };
            tokens.push(Token {
                span,
                comment: None,
            });
            let colour = match p.id.as_str() {
                "B" | "1" => 0,
                "W" | "2" => 1,
                "3" => 2,
                _ => 3,
            };
            let names: &[&str] = if duo {
                &["purple", "orange"]
            } else {
                &["blue", "yellow", "red", "green"]
            };
            claims.push(names.get(colour).map(|n| n.to_string()));
            has_move = true;
        }
        if has_move && k > 0 {
            if let Some(c) = node.props.iter().find(|p| p.id == "C") {
                if let (Some(t), Some((v, _))) = (tokens.last_mut(), c.values.first()) {
                    t.comment = Some(v.clone());
                }
            }
        }
    }
    if variations > 0 {
        tag_errors.push(
            Diag::warning(
                "pentobi::variations_ignored",
                format!(
                    "{variations} variation{} ignored: only the main line is validated",
                    if variations == 1 { "" } else { "s" }
                ),
            )
            .at(head)
            .label("this game tree has variations"),
        );
    }
    if no_replay {
        tokens.clear();
    }
    RawGame {
        tags: Tags(tags),
        tag_errors,
        comment,
        tokens,
        stop: if no_replay { None } else { err },
        span: Span::between(start, end),
        token_players: claims,
        ..RawGame::default()
    }
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace(']', "\\]")
}

/// Writes games as a Pentobi file. `Err` for a game Pentobi cannot hold.
pub fn write(games: &[DocGame]) -> Result<String, String> {
    let mut out = String::new();
    for g in games {
        out.push_str(&write_game(g, &mut Losses::default())?);
    }
    Ok(out)
}

/// Writes one game as a Pentobi file, noting in `losses` what Pentobi
/// cannot keep. `Err` for a game Pentobi cannot hold.
pub fn write_game(g: &DocGame, losses: &mut Losses) -> Result<String, String> {
    let _ = losses;
    let mut out = String::new();
    {
        if g.game != "blokus" {
            return Err(format!(
                "Pentobi files hold Blokus games only, not {}",
                g.game
            ));
        }
        let tag = |n: &str| g.tags.iter().find(|(k, _)| k == n).map(|(_, v)| v.trim());
        let duo = g.variant.as_deref() == Some("duo");
        let trigon = g.variant.as_deref() == Some("trigon");
        let players: u8 = tag("Players").and_then(|p| p.parse().ok()).unwrap_or(4);
        if !duo && !trigon {
            if tag("Size").is_some_and(|s| s != "20") {
                return Err("Pentobi plays classic Blokus on 20x20 boards only".into());
            }
            let corners = tag("Corners").map(|c| c.to_ascii_lowercase().replace(' ', ""));
            if corners.as_deref() != Some(&PENTOBI_CORNERS.replace(' ', "")) {
                return Err(format!(
                    "Pentobi's corners are \"{PENTOBI_CORNERS}\"; this game's are {}",
                    tag("Corners")
                        .map_or("the rule text's (no Corners tag)".to_string(), |c| format!(
                            "\"{c}\""
                        ))
                ));
            }
        }
        let gm = match (duo, players, trigon) {
            (true, _, _) => "Blokus Duo",
            (false, 2, false) => "Blokus Two-Player",
            (false, 3, false) => "Blokus Three-Player",
            (false, 2, true) => "Blokus Trigon Two-Player",
            (false, 3, true) => "Blokus Trigon Three-Player",
            (false, _, true) => "Blokus Trigon",
            _ => "Blokus",
        };
        out.push_str(&format!("(;FF[4]CA[UTF-8]GM[{gm}]"));
        let seats = seat_tags(duo, players, trigon);
        let colour_names: &[&str] = if duo {
            &["purple", "orange"]
        } else {
            &["blue", "yellow", "red", "green"]
        };
        let colour_ids: &[&str] = if duo {
            &["B", "W"]
        } else {
            &["1", "2", "3", "4"]
        };
        for (name, value) in &g.tags {
            let setup_colour = (0..colour_names.len() as u8)
                .position(|c| setup::tag_name(duo, c) == Some(name.as_str()));
            if let Some(c) = setup_colour {
                let id = if duo {
                    ["AB", "AW"].get(c).copied().unwrap_or("AW").to_string()
                } else {
                    format!("A{}", c + 1)
                };
                let items = setup::squares_sorted(value);
                if !items.is_empty() {
                    out.push_str(&id);
                    for item in items {
                        out.push_str(&format!("[{}]", escape(&item)));
                    }
                }
                continue;
            }
            if name == setup::FIRST {
                let c = colour_names
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(value.trim()));
                if let Some(id) = c.and_then(|c| colour_ids.get(c)) {
                    out.push_str(&format!("PL[{id}]"));
                }
                continue;
            }
            let id = match name.as_str() {
                "Date" => "DT".to_string(),
                "Event" => "EV".to_string(),
                "Site" => "PC".to_string(),
                n => {
                    if let Some(k) = seats.iter().position(|s| s == &n) {
                        if seats.len() == 2 {
                            if k == 0 { "PB" } else { "PW" }.to_string()
                        } else {
                            format!("P{}", k + 1)
                        }
                    } else {
                        match n.strip_prefix("SGF_") {
                            Some(p)
                                if !p.is_empty()
                                    && p.bytes()
                                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()) =>
                            {
                                p.to_string()
                            }
                            _ => continue,
                        }
                    }
                }
            };
            out.push_str(&format!("{id}[{}]", escape(value)));
        }
        if let Some(c) = &g.comment {
            out.push_str(&format!("C[{}]", escape(c)));
        }
        out.push('\n');
        for m in g.moves.iter().filter(|m| !m.auto && m.notation != "pass") {
            let colour = match (duo, m.player.as_str()) {
                (true, "purple") => "B",
                (true, _) => "W",
                (false, "blue") => "1",
                (false, "yellow") => "2",
                (false, "red") => "3",
                _ => "4",
            };
            let squares = m.notation.rsplit(':').next().unwrap_or("");
            out.push_str(&format!(";{colour}[{squares}]"));
            if let Some(c) = &m.comment {
                out.push_str(&format!("C[{}]", escape(c)));
            }
            out.push('\n');
        }
        out.push_str(")\n");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_line_variations_and_escapes() {
        let text = "(;GM[ blokus duo ]PB[a\\]b]C[hi];B[e10,e9]C[first](;W[j5];B[x])(;W[k5]))";
        let (t, games) = read(text);
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tags.value("Variant"), Some("duo"));
        assert_eq!(g.tags.value("Purple"), Some("a]b"));
        assert_eq!(g.comment.as_deref(), Some("hi"));
        let moves: Vec<&str> = g.tokens.iter().map(|k| k.text(&t)).collect();
        assert_eq!(moves, ["e10,e9", "j5", "x"]);
        assert_eq!(g.tokens[0].comment.as_deref(), Some("first"));
        assert_eq!(g.tag_errors[0].code, "pentobi::variations_ignored");
    }

    #[test]
    fn malformed_files_do_not_panic() {
        for text in [
            "(",
            "(;",
            "(;GM[Blokus",
            "(;GM[Blokus](;1[a1]",
            "(;X",
            "(;GM[Blokus]junk)",
            "((((((((",
            "(;1[a 1])",
        ] {
            let (_, games) = read(text);
            assert!(!games.is_empty(), "{text}");
        }
        let (t, games) = read("(;GM[Blokus];1[a20, a19])");
        assert_eq!(games[0].tokens[0].text(&t), "a20,a19");
        let (_, games) = read("(;GM[Blokus]AE[a1];1[a20])");
        assert!(games[0].tokens.is_empty());
        assert_eq!(games[0].tag_errors[0].code, "blokus::bad_tags");
        let (_, games) = read("(;GM[Blokus Duo]A3[a1];B[e10])");
        assert!(games[0].tokens.is_empty());
        assert_eq!(games[0].tag_errors[0].code, "blokus::bad_tags");
        let (_, games) = read("(;GM[Blokus Duo]PL[3];B[e10])");
        assert_eq!(games[0].tag_errors[0].code, "blokus::bad_tags");
    }

    #[test]
    fn trigon_names_and_old_move_values() {
        let text = "(;GM[Blokus Trigon Three-Player]P1[Ann];1[p14][o13][p13];2[P3])";
        let (t, games) = read(text);
        let g = &games[0];
        assert_eq!(g.tags.value("Variant"), Some("trigon"));
        assert_eq!(g.tags.value("Players"), Some("3"));
        assert_eq!(g.tags.value("Blue"), Some("Ann"));
        assert_eq!(g.tags.get("Corners"), None);
        let moves: Vec<&str> = g.tokens.iter().map(|k| k.text(&t)).collect();
        assert_eq!(moves, ["p14,o13,p13", "P3"]);
        for (gm, players) in [
            ("Blokus Trigon", None),
            ("blokus trigon two-player", Some("2")),
        ] {
            let g = &read(&format!("(;GM[{gm}])")).1[0];
            assert_eq!(g.tags.value("Variant"), Some("trigon"));
            assert_eq!(g.tags.value("Players"), players);
        }
    }

    #[test]
    fn setup_properties_become_tags() {
        let text = "(;GM[Blokus]A2[t20]PB[x]A1[a20,a19,b19][e17, e18,f18]AB[c1]PL[3];3[t1])";
        let (t, games) = read(text);
        let g = &games[0];
        assert!(g.tag_errors.is_empty());
        assert_eq!(g.tokens.len(), 1);
        let names: Vec<&str> = g.tags.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Game",
                "Corners",
                "Scoring",
                "SetupYellow",
                "Blue",
                "SetupBlue",
                "First"
            ]
        );
        assert_eq!(
            g.tags.value("SetupBlue"),
            Some("a20,a19,b19 e17,e18,f18 c1")
        );
        assert_eq!(g.tags.value("First"), Some("red"));
        let yellow = g.tags.get("SetupYellow").unwrap();
        assert_eq!(yellow.value_span.text(&t), "t20");
        let duo = read("(;GM[Blokus Duo]AW[j5]AB[e10,e9]PL[W])").1;
        assert_eq!(duo[0].tags.value("SetupPurple"), Some("e10,e9"));
        assert_eq!(duo[0].tags.value("SetupOrange"), Some("j5"));
        assert_eq!(duo[0].tags.value("First"), Some("orange"));
    }

    #[test]
    fn setup_tags_are_written_back() {
        let doc = DocGame {
            game: "blokus".into(),
            variant: Some("duo".into()),
            tags: vec![
                ("Game".into(), "blokus".into()),
                ("SetupPurple".into(), "V3:e10,e9,f9  1:a1".into()),
                ("SetupOrange".into(), "j5".into()),
                ("First".into(), "Orange".into()),
            ],
            comment: None,
            moves: Vec::new(),
            result: None,
            final_position: Vec::new(),
        };
        let out = write(&[doc]).unwrap();
        assert!(out.contains("AB[e9,f9,e10][a1]AW[j5]PL[W]"), "{out}");
    }
}
