//! Pentobi's Blokus game files (`.blksgf`): SGF with `GM[Blokus]`,
//! `GM[Blokus Two-Player]`, `GM[Blokus Three-Player]`, `GM[Blokus Duo]`,
//! `GM[Blokus Trigon]`, `GM[Blokus Trigon Two-Player]` or `GM[Blokus Trigon
//! Three-Player]` (case-insensitive, trimmed). Read and written (`convert
//! --to blksgf`).
//!
//! The text is the file itself; each move's token is the value inside
//! `B[...]`, `W[...]` or `1[...]`..`4[...]` (the comma-separated squares).
//!
//! Reading (the tokens from the SGF lexer shared with GGF, [`super::sgf`];
//! the tree structure is a loop over them with an explicit stack, so that no
//! nesting depth can exhaust the call stack):
//! - Charset: `CA[UTF-8]` is UTF-8 (a byte that is not is an error of the
//!   file), `CA[ISO-8859-1]` (or `Latin1`) is Latin-1. Without `CA`, or with
//!   another name (`pentobi::charset` warns), the text is UTF-8 unless the
//!   first byte past ASCII does not start a UTF-8 character: then the whole
//!   file is Latin-1, SGF's default charset (Pentobi before 13.0 read such
//!   files so). The first tree's `CA` (in the first 64 KiB) decides for the
//!   file. Spans of a Latin-1 file count the UTF-8 text's bytes.
//! - `Game "blokus"`; `Blokus Duo` is `Variant "duo"`; `Two-Player` and
//!   `Three-Player` set `Players "2"`/`"3"`; classic games get Pentobi's
//!   corners, `Corners "blue a20, yellow t20, red t1, green a1"`, and every
//!   game `Scoring "pentobi"`. The Trigon names are `Variant "trigon"`
//!   (with `Players "2"`/`"3"` likewise, no `Corners`: the starting points
//!   are shared). A tree whose root names another `GM` (Pentobi's `Blokus
//!   Junior`, `Nexos`, `Callisto`, `GembloQ`, or anything else) is no game
//!   gamerec plays and not a corrupt one either: it is read past as an error
//!   of its own kind, `pentobi::unsupported` (the line and column of its
//!   `GM`, the values gamerec reads), which the summary counts as
//!   `unsupported` (exit 2, as for a file that cannot be read), never as an
//!   invalid game; the trees after it are read.
//! - Variations: every line of a game tree, from the root to a leaf, is a
//!   game (in file order: first children first), sharing the root's tags.
//!   In a tree with branches each carries its variation path
//!   (`SourceGame::variation`, `1.3.2`: the child taken at each branching
//!   node, 1-based). A tree is read whole (it is one piece of text); its
//!   lines are made one at a time, each with the tree's text up to the file
//!   line of its last node.
//! - Moves, one per node as Pentobi reads them: with two colours (Duo) the
//!   first of `B`, `W`, `1`, `2`, `BLUE`, `GREEN` in the node; otherwise the
//!   first of `1`..`4`, `BLUE`, `YELLOW`, `RED`, `GREEN` (Pentobi 0.1's
//!   colour properties). Another move property in the node is
//!   `pentobi::move_ignored` (a warning). A move for a colour the game does
//!   not have (`4[...]` with three colours), which Pentobi skips, is read as
//!   that colour's move so that the replay names it. The colour must be the
//!   side to move once the replay has passed for colours without a move
//!   (Pentobi writes no passes), else `record::wrong_player`. An empty value
//!   (`B[]`, written by early Pentobi versions) is a pass. A move node's
//!   `C[...]` is the move's comment; the root's is the game's. A move
//!   node's other properties (Pentobi's move marks `TE`, `BM`, `DO`, `IT`,
//!   labels, anything else but a setup) are kept with the move as
//!   `SGF_XX` (its `props` in JSON and YAML), their values as SGF writes
//!   them (escaped, several joined by `][`), and written back in the
//!   move's node after its comment, in their order; a document's property
//!   whose name the reader would take for a move, a comment or a setup
//!   (`SGF_B`, `SGF_C`, `SGF_AB`, `SGF_PL`) or that is no SGF identifier
//!   is not written, and named as a loss. A node past the root with
//!   neither a move nor a setup edit of its own (a comment or marks alone,
//!   or a setup folded into the start) keeps its comment and properties
//!   with the move before it, or the first move when none came before
//!   (their values after the move's own: `TE[1][2]`; comments joined),
//!   with one `pentobi::node_without_move` warning for the line: written
//!   back, they are in that move's node. In a line with no move at all
//!   the comments join the game's and the properties are named as lost in
//!   the warning.
//! - Names: `PB`/`PW` are the first two seats' tags (`Purple`/`Orange` in
//!   Duo, `Player1`/`Player2` with two players, `Blue`/`Yellow` with four);
//!   `P1`..`P4` the seats in order (Trigon: `PB`/`PW` with two players,
//!   `P1`..`P3` blue, yellow, red with three). `DT` is `Date`, `EV` `Event`,
//!   `PC` `Site`, `RO` `Round`; `RE` is `Result` when it is a score list
//!   (`81-66`, `5, -3`), else kept as `SGF_RE`; in a game of two seats
//!   Pentobi's own `RE` (`B+5`: the first seat 5 points ahead, `W+5`, `0`
//!   a draw, as `PentobiTree::set_result` writes it) is also a claim the
//!   replay checks (`record::result_mismatch` when the lead differs). `GC` lines of the form
//!   `[Name "value"]` (`\` escapes `"` and `\`) are tags (the writer keeps
//!   there the tags Pentobi has no property for); the rest of `GC` is
//!   `SGF_GC`. `FF`, `CA`, `AP`, `GM` are format data and dropped; any other
//!   root property `XX` is kept as `SGF_XX`.
//! - A move property with several values (`1[r12][r13]...`, one point per
//!   value, as Pentobi wrote moves before its version 0.3 and still reads
//!   them, e.g. in its Trigon opening book) is one move of those points,
//!   read from a normalised copy like the values below.
//! - SGF escapes: `\` takes the next character literally, `\` before a line
//!   break (LF, CRLF, LFCR or a lone CR) removes it. A move value holding
//!   white space or escapes, and an empty one, is read from a normalised copy
//!   appended after the file's text (its spans point there); Pentobi writes
//!   none.
//! - Setup: `AB`/`AW` (first/second colour) and `A1`..`A4` (colours in turn
//!   order), each value one piece as its squares, become the Blokus setup
//!   tags (`SetupPurple`/`SetupOrange` in Duo, `SetupBlue`..`SetupGreen` in
//!   classic), one tag per colour holding its pieces separated by spaces
//!   (`AB` and `A1` both feed the first colour). With one plain value the
//!   tag's value is the file's text and errors point into it; with several,
//!   errors blame all of the values. `PL` (`B`, `W`, `1`..`4`) becomes
//!   `First` with the colour's name. Pentobi reads setup in any node: in
//!   the root and in every node of the line before its first move they
//!   make the game's starting setup together (a `PL` outside the root
//!   counts only in a node with setup, as in Pentobi). A setup in a node
//!   after a move (Pentobi makes the position so far plus the setup a new
//!   start), and every setup from the first `AE` on (it takes pieces off;
//!   an `AE` in the root takes off root pieces, after them), is setup edits
//!   in the movetext ([`crate::games::blokus`]'s `+blue:..`, `-..`,
//!   `>red`) before the node's move, in the order Pentobi applies them:
//!   the pieces of `A1`..`A4`, `AB`, `AW`, then `AE`'s, then `PL` (a `PL`
//!   that names no colour is an edit the replay refuses; Pentobi ignores
//!   it). The edits are read from a normalised copy after the file's text
//!   (their errors point there). A node of setup without a move keeps its
//!   comment and other properties with its last edit. A colour the game
//!   does not have (`A3`, `PL[3]` in Duo) in the start setup is
//!   `blokus::bad_tags` at the property, and the game is not replayed; in
//!   an edit it is the edit's `blokus::bad_setup`. Setup values are checked
//!   by the Blokus rules (`src/games/blokus/setup.rs`).
//! - Malformed SGF (text outside nodes, an unterminated value or tree, an
//!   empty tree) is `pentobi::syntax`, given to the first line through the
//!   node read last; the lines read before it stand.
//!
//! Writing (Blokus games that Pentobi can hold: Duo, Trigon, or classic on
//! 20x20): `FF[4]`, `CA[UTF-8]`, `GM`, the names and the tags above, then one
//! node per written move (`;B[..]` in Duo, `;1[..]`..`;4[..]` in classic)
//! with the squares sorted from `a1` row by row and the piece name left out;
//! passes are not written. Setup tags are written back as `AB`/`AW` (Duo) or
//! `A1`..`A4` (classic), one value per piece, squares sorted the same way,
//! and `First` as `PL`. Setup edits are written as the setup properties of
//! the node of the move after them (a node of their own at the end, or when
//! one carries a comment or kept properties, written there): the pieces put
//! on as `AB`/`AW` or `A1`..`A4`, those taken off as `AE`, the colour to
//! move as `PL`, in Pentobi's order; an edit that Pentobi would apply
//! before one already in the node (a piece put on after one taken off, a
//! second `PL`) starts a new node, so that the file reads back to the same
//! position. A file whose setup squares are already sorted
//! (Pentobi's own) reads back to the same games; otherwise a second write is
//! a fixed point. What a Pentobi file cannot keep is noted in
//! [`Losses`](crate::formats::Losses):
//! - a classic game whose corners are not Pentobi's (the rule text's, the
//!   default, or a `Corners` tag) is written moved by the symmetry of the
//!   board that takes each colour's corner to Pentobi's (the rule text's
//!   corners: the reflection in the diagonal from a20 to t1), every square of
//!   its moves and setup; scores, winners and plies read back the same.
//!   Corners no symmetry maps onto Pentobi's are refused;
//! - a scoring other than `pentobi` (the file reads back as `Scoring
//!   "pentobi"`), and a `Result` under it (its scores are not Pentobi's).
//!   A finished game of two seats that claims a result gets Pentobi's `RE` (`B+15`) from its
//!   final position under Pentobi's scoring whatever the record's (replayed
//!   once under it when scored otherwise), and its `Result` under Pentobi's
//!   scoring goes into `GC`; in a game of three or four seats (for which
//!   Pentobi writes no `RE`) a `Result` under Pentobi's scoring is written as
//!   `RE`;
//! - a tag with no property and no `[Name "value"]` line for it in `GC` (a
//!   value holding a line break);
//! - the move numbers a record writes (`12.`), and its written passes
//!   (Pentobi writes none: they read back as automatic passes).

use super::sgf::{self, Kind, Lexer, escape};
use crate::diag::Diag;
use crate::formats::{Losses, ReadError, SourceGame, SourceText, WriteError};
use crate::games::blokus::setup;
use crate::games::blokus::trigon::notation::{parse_triangle, triangle_name};
use crate::model::DocGame;
use crate::record::{RawGame, Tag, Tags, Token, WinnerClaim};
use crate::source::{Charset, Chunk, TextBuf};
use crate::span::{Origin, Span};

pub const PENTOBI_CORNERS: &str = "blue a20, yellow t20, red t1, green a1";

/// The `GM` values gamerec reads, as Pentobi writes them.
const SUPPORTED: &str = "Blokus, Blokus Two-Player, Blokus Three-Player, Blokus Duo, Blokus Trigon, Blokus Trigon Two-Player, Blokus Trigon Three-Player";

struct Prop {
    id: Box<str>,
    /// Unescaped values, with the span of each raw value (inside brackets).
    values: Box<[(String, Span)]>,
    span: Span,
}

struct Node {
    /// Boxed slices, not vectors: a tree holds them all (see [`PROP_COST`]).
    props: Box<[Prop]>,
    children: Vec<usize>,
    /// Where its last property ends.
    end: usize,
}

impl Node {
    fn prop(&self, id: &str) -> Option<&Prop> {
        self.props.iter().find(|p| &*p.id == id)
    }
}

/// One game tree: its nodes (the root first, children after their
/// parent), where it stands in the text and the syntax error that ended it.
struct Tree {
    nodes: Vec<Node>,
    start: usize,
    end: usize,
    /// A syntax error, and the node read last before it.
    err: Option<(Diag, Option<usize>)>,
}

/// What a tree costs beyond its bytes, per node and per property value:
/// about what each holds in memory while the tree's lines are made (a node
/// of one move holds some 300 bytes). A tree costing more than the size
/// limit (`--max-game-bytes`) is `record::too_large`: at the default limit,
/// a tree of about 120,000 moves (a book of 1 MB written tightly). The
/// streaming reader counts the cost as it reads the tree's text
/// ([`crate::source::costed_trees`]), so a tree over the limit is neither
/// kept nor parsed.
pub const TREE_ITEM_COST: usize = 64;

fn syntax(msg: impl Into<String>, span: Span) -> Diag {
    Diag::error("pentobi::syntax", msg)
        .at(span)
        .label("malformed SGF")
        .help("an SGF game is `(;` properties `ID[value]`, more `;` nodes, then `)`")
}

impl Tree {
    /// Reads the game tree whose `(` is at `start` (its cost is the
    /// reader's to bound, [`TREE_ITEM_COST`]).
    fn read(text: &str, start: usize) -> Tree {
        let mut tree = Tree {
            nodes: Vec::new(),
            start,
            end: text.len(),
            err: None,
        };
        // per open `(`: the node its first node follows
        let mut open: Vec<Option<usize>> = Vec::new();
        let mut cur: Option<usize> = None;
        let mut lex = Tokens::new(text, start);
        loop {
            let here = cur;
            let fail = |msg: String, span: Span| Some((syntax(msg, span), here));
            let Some(t) = lex.next() else {
                tree.err = fail(
                    "the game tree has no closing `)`".into(),
                    Span::new(text.len(), 0),
                );
                break;
            };
            match t.kind {
                Kind::Open => {
                    if cur.is_none() && !tree.nodes.is_empty() {
                        tree.err = fail("a variation must follow a node".into(), t.span);
                        break;
                    }
                    open.push(cur);
                }
                Kind::Node => {
                    if !tree.add_node(&mut lex, &mut cur) {
                        break;
                    }
                }
                Kind::Close => {
                    cur = open.pop().flatten();
                    if open.is_empty() {
                        tree.end = t.end();
                        if tree.nodes.is_empty() {
                            tree.err =
                                fail("an empty game tree".into(), Span::between(start, t.end()));
                        }
                        return tree;
                    }
                }
                _ => {
                    let at = t.start();
                    let len = text
                        .get(at..)
                        .and_then(|r| r.chars().next())
                        .map_or(1, char::len_utf8);
                    tree.err = fail("unexpected text in the game tree".into(), Span::new(at, len));
                    break;
                }
            }
        }
        tree.end = tree.end.max(start + 1).min(text.len());
        tree
    }

    /// Reads the node after a `;` as the child of `cur`, which it becomes;
    /// `false` when the tree stops there (its error set).
    fn add_node(&mut self, lex: &mut Tokens, cur: &mut Option<usize>) -> bool {
        match Tree::node(lex) {
            Ok(node) => {
                let n = self.nodes.len();
                match cur.and_then(|c| self.nodes.get_mut(c)) {
                    Some(parent) => parent.children.push(n),
                    None if n == 0 => {}
                    None => {
                        let d = syntax(
                            "a second root node: a tree has one root",
                            Span::new(lex.next_start(), 0),
                        );
                        self.err = Some((d, *cur));
                        return false;
                    }
                }
                self.nodes.push(node);
                *cur = Some(n);
                true
            }
            Err((d, end)) => {
                // the broken node, empty: the line through it carries the
                // error
                let n = self.nodes.len();
                if let Some(parent) = cur.and_then(|c| self.nodes.get_mut(c)) {
                    parent.children.push(n);
                    self.nodes.push(Node {
                        props: Box::default(),
                        children: Vec::new(),
                        end,
                    });
                    *cur = Some(n);
                }
                self.err = Some((d, *cur));
                false
            }
        }
    }

    /// A node's properties after its `;`; a syntax error with where the
    /// node's text read so far ends.
    fn node(lex: &mut Tokens) -> Result<Node, (Diag, usize)> {
        let text = lex.text;
        let mut props: Vec<Prop> = Vec::new();
        while let Some(t) = lex.next_if(|t| t.kind == Kind::Ident) {
            let id = t.span.text(text);
            let mut values = Vec::new();
            let mut end = t.end();
            while let Some(v) = lex.next_if(|v| matches!(v.kind, Kind::Value { .. } | Kind::Unclosed)) {
                if v.kind == Kind::Unclosed {
                    let d = syntax(
                        format!("the value of `{id}` has no closing `]`"),
                        Span::new(v.start(), 1),
                    );
                    return Err((d, end));
                }
                values.push((sgf::sgf_value(v.span.text(text)), v.span));
                end = v.end();
            }
            if values.is_empty() {
                let d = syntax(format!("property `{id}` has no value"), t.span);
                return Err((d, end));
            }
            props.push(Prop {
                id: id.into(),
                values: values.into_boxed_slice(),
                span: Span::between(t.start(), end),
            });
        }
        let end = props
            .last()
            .map_or_else(|| lex.next_start(), |p| p.span.offset + p.span.length);
        Ok(Node {
            props: props.into_boxed_slice(),
            children: Vec::new(),
            end,
        })
    }

    fn branches(&self) -> bool {
        self.nodes.iter().any(|n| n.children.len() > 1)
    }

    fn gm(&self) -> Option<&Prop> {
        self.nodes.first().and_then(|n| n.prop("GM"))
    }

    /// Whether the tree's lines are replayed (its `GM` is one gamerec reads).
    fn replayed(&self) -> bool {
        self.gm()
            .is_none_or(|p| p.values.first().is_some_and(|(v, _)| kind(v).is_some()))
    }
}

/// The tokens of a tree, with one looked at ahead.
struct Tokens<'t> {
    text: &'t str,
    lex: Lexer<'t>,
    peeked: Option<Option<sgf::Token>>,
}

impl<'t> Tokens<'t> {
    fn new(text: &'t str, at: usize) -> Self {
        Tokens {
            text,
            lex: Lexer::new(text, at, &sgf::SGF),
            peeked: None,
        }
    }

    fn peek(&mut self) -> Option<sgf::Token> {
        *self.peeked.get_or_insert_with(|| self.lex.next())
    }

    fn next(&mut self) -> Option<sgf::Token> {
        self.peeked.take().unwrap_or_else(|| self.lex.next())
    }

    /// The next token if it is one `pred` takes.
    fn next_if(&mut self, pred: impl Fn(&sgf::Token) -> bool) -> Option<sgf::Token> {
        let t = self.peek().filter(|t| pred(t))?;
        self.peeked = None;
        Some(t)
    }

    /// Where the next token starts (the end of the text when none).
    fn next_start(&mut self) -> usize {
        self.peek().map_or(self.text.len(), |t| t.start())
    }
}

/// The lines of a tree from the root to each leaf, one at a time, in file
/// order; each with its variation path when the tree branches.
struct Lines {
    /// The path to the current leaf: each node and the child taken.
    path: Vec<(usize, usize)>,
    started: bool,
    branches: bool,
}

impl Lines {
    fn new(tree: &Tree) -> Lines {
        Lines {
            path: Vec::new(),
            started: false,
            branches: tree.branches(),
        }
    }

    /// Descends by first children from the last node of the path.
    fn descend(&mut self, tree: &Tree) {
        while let Some(&(n, k)) = self.path.last() {
            match tree.nodes.get(n).and_then(|node| node.children.get(k)) {
                Some(&child) => self.path.push((child, 0)),
                None => break,
            }
        }
    }

    /// The next line: its nodes and its variation path.
    fn next(&mut self, tree: &Tree) -> Option<(Vec<usize>, Option<String>)> {
        if !self.started {
            self.started = true;
            if tree.nodes.is_empty() {
                return Some((Vec::new(), None));
            }
            self.path.push((0, 0));
            self.descend(tree);
        } else {
            // back up to the nearest node with a further child
            self.path.pop();
            loop {
                let (n, k) = self.path.pop()?;
                let more = tree
                    .nodes
                    .get(n)
                    .is_some_and(|node| k + 1 < node.children.len());
                if more {
                    self.path.push((n, k + 1));
                    self.descend(tree);
                    break;
                }
            }
        }
        let nodes: Vec<usize> = self.path.iter().map(|&(n, _)| n).collect();
        let variation = self.branches.then(|| {
            self.path
                .iter()
                .filter(|&&(n, _)| {
                    tree.nodes
                        .get(n)
                        .is_some_and(|node| node.children.len() > 1)
                })
                .map(|&(_, k)| (k + 1).to_string())
                .collect::<Vec<_>>()
                .join(".")
        });
        Some((nodes, variation))
    }
}

/// The kind of game a `GM` names: (variant duo, players, trigon), `None`
/// if not one gamerec reads.
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

/// The colour a move property gives, in Pentobi's order of preference
/// (it reads one move per node: the first of these it finds), for a game
/// of `colours` colours. Pentobi before 0.2 wrote `BLUE`..`GREEN` (`BLUE`
/// and `GREEN` with two colours).
fn move_colour(id: &str, colours: u8) -> Option<(usize, u8)> {
    let order: &[(&str, u8)] = if colours == 2 {
        &[
            ("B", 0),
            ("W", 1),
            ("1", 0),
            ("2", 1),
            ("BLUE", 0),
            ("GREEN", 1),
        ]
    } else {
        &[
            ("1", 0),
            ("2", 1),
            ("3", 2),
            ("4", 3),
            ("BLUE", 0),
            ("YELLOW", 1),
            ("RED", 2),
            ("GREEN", 3),
        ]
    };
    let (rank, &(_, c)) = order.iter().enumerate().find(|(_, (i, _))| *i == id)?;
    (c < colours).then_some((rank, c))
}

fn is_move_id(id: &str) -> bool {
    matches!(
        id,
        "B" | "W" | "1" | "2" | "3" | "4" | "BLUE" | "YELLOW" | "RED" | "GREEN"
    )
}

fn is_setup_id(id: &str) -> bool {
    matches!(id, "AB" | "AW" | "A1" | "A2" | "A3" | "A4" | "AE")
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

/// The charset a file's first bytes declare with `CA` (the first tree's
/// root): UTF-8 or Latin-1 as named; without `CA` (or with another name),
/// UTF-8 unless the text is not UTF-8, then Latin-1 (SGF's default).
pub fn charset(head: &[u8]) -> Charset {
    let mut from = 0;
    while let Some(k) = head
        .get(from..)
        .and_then(|h| memchr::memmem::find(h, b"CA["))
    {
        let at = from + k;
        from = at + 3;
        if at > 0 && head.get(at - 1).is_some_and(u8::is_ascii_uppercase) {
            continue;
        }
        let value = head.get(from..).unwrap_or(&[]);
        let end = memchr::memchr(b']', value).unwrap_or(value.len());
        let name = String::from_utf8_lossy(value.get(..end).unwrap_or(&[])).to_string();
        return match charset_named(&name) {
            Some(c) => c,
            None => Charset::Utf8OrLatin1,
        };
    }
    Charset::Utf8OrLatin1
}

fn charset_named(name: &str) -> Option<Charset> {
    let n: String = name
        .trim()
        .to_ascii_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    match n.as_str() {
        "utf8" => Some(Charset::Utf8),
        "iso88591" | "latin1" | "l1" | "iso885911987" => Some(Charset::Latin1),
        _ => None,
    }
}

/// A whole file's text from its bytes, decoded as [`charset`] says.
pub fn decode(bytes: &[u8]) -> Result<String, ReadError> {
    let head = bytes.get(..crate::source::BLOCK).unwrap_or(bytes);
    let latin1 = |b: &[u8]| b.iter().map(|&c| char::from(c)).collect::<String>();
    match (std::str::from_utf8(bytes), charset(head)) {
        (_, Charset::Latin1) => Ok(latin1(bytes)),
        (Ok(s), _) => Ok(s.to_string()),
        (Err(e), Charset::Utf8OrLatin1)
            if bytes.iter().position(|b| !b.is_ascii()) == Some(e.valid_up_to()) =>
        {
            Ok(latin1(bytes))
        }
        (Err(e), _) => Err(ReadError::new(format!(
            "not UTF-8 text (invalid byte at offset {})",
            e.valid_up_to()
        ))),
    }
}

/// A file's games, one line of a game tree at a time (each tree is read
/// whole, then its lines are made one by one).
pub fn games<'a>(buf: TextBuf<'a>) -> impl Iterator<Item = Result<SourceGame, ReadError>> + 'a {
    games_within(buf, LINES_BUDGET)
}

/// How much the lines of a file's branching trees may hold in all, at 16
/// bytes per node of each line (the lines share their tree's text, which
/// none of them copies, but a tree of many long lines holds the square of
/// its size in moves): past it, a tree's remaining lines are one error
/// (`pentobi::too_many_lines`), so that no file keeps the reader busy for
/// long. 8,388,608 nodes: a book of 16,000 lines of 30 moves is 480,000.
pub const LINES_BUDGET: usize = 128 << 20;

fn games_within<'a>(
    mut buf: TextBuf<'a>,
    budget: usize,
) -> impl Iterator<Item = Result<SourceGame, ReadError>> + 'a {
    let mut spent = 0usize;
    let limit = buf.limit();
    // a tree that costs more than the limit is not kept past that point
    let mut step = crate::source::costed_trees(limit, TREE_ITEM_COST);
    let mut current: Option<TreeLines> = None;
    std::iter::from_fn(move || {
        loop {
            if let Some(c) = current.as_mut() {
                match c.next_line(&mut spent, budget) {
                    Some((g, last)) => {
                        if last {
                            current = None;
                        }
                        return Some(Ok(g));
                    }
                    None => current = None,
                }
            }
            match buf.next_piece(&mut step) {
                None => return buf.take_error().map(|e| Err(ReadError::new(e))),
                Some(Chunk::Text(text, origin)) => {
                    let Some(start) = text.find('(') else {
                        continue;
                    };
                    let lines = TreeLines::new(text, origin, start);
                    if let Some(e) = lines.unsupported() {
                        return Some(Err(e));
                    }
                    current = Some(lines);
                }
                Some(Chunk::TooLarge(kept, origin)) => {
                    let start = kept.find('(').unwrap_or(0);
                    return Some(Ok(tree_too_large(kept, origin, start, limit)));
                }
            }
        }
    })
}

/// The one game of a tree over the size limit (`record::too_large`),
/// blamed on its `(` at `start`, with the tree's first bytes (all the
/// reader kept of it).
fn tree_too_large(mut text: String, origin: Origin, start: usize, limit: usize) -> SourceGame {
    let mut keep = crate::source::TOO_LARGE_KEPT.max(start + 1);
    while !text.is_char_boundary(keep.min(text.len())) {
        keep += 1;
    }
    text.truncate(keep);
    let at = Span::new(start, usize::from(start < text.len()));
    let mut g = SourceGame::too_large(Chunk::TooLarge(text, origin));
    g.raw.stop = Some(
        Diag::error(
            "record::too_large",
            format!("this game tree is larger than the limit of {limit} bytes"),
        )
        .at(at)
        .label("the tree that starts here is too large")
        .help(format!(
            "a tree costs its bytes and {TREE_ITEM_COST} bytes per node and per property value; split the tree, or raise the limit with --max-game-bytes"
        )),
    );
    g
}

/// A tree read from its text, whose lines are made one at a time.
struct TreeLines {
    /// The tree's text, while no line has taken it (a tree of one line).
    own: String,
    /// The tree's text, shared by its lines (a tree with branches).
    shared: Option<std::sync::Arc<str>>,
    origin: Origin,
    tree: Tree,
    lines: Lines,
    replayed: bool,
    /// Where the shared text's CRs and LFs are.
    line_ends: Vec<usize>,
}

/// Normalised move values written after a text of `base` bytes (see
/// [`move_span`]): their spans point past the text.
#[derive(Default)]
struct Appended {
    base: usize,
    text: String,
}

impl TreeLines {
    fn new(text: String, origin: Origin, start: usize) -> TreeLines {
        let tree = Tree::read(&text, start);
        let lines = Lines::new(&tree);
        let replayed = tree.replayed();
        let (own, shared, line_ends) = if lines.branches && replayed {
            let ends = memchr::memchr2_iter(b'\n', b'\r', text.as_bytes()).collect();
            (String::new(), Some(std::sync::Arc::from(text)), ends)
        } else {
            (text, None, Vec::new())
        };
        TreeLines {
            own,
            shared,
            origin,
            tree,
            lines,
            replayed,
            line_ends,
        }
    }

    /// A tree of a variant gamerec does not play (its root's `GM` is no
    /// Blokus game gamerec reads: Pentobi's Junior, Nexos, Callisto,
    /// GembloQ, or any other): not a game, an error of its own kind
    /// (`pentobi::unsupported`), naming the line and the variant.
    fn unsupported(&self) -> Option<ReadError> {
        let gm = self.tree.nodes.first()?.prop("GM")?;
        let (v, s) = gm.values.first().cloned().unwrap_or((String::new(), gm.span));
        if kind(&v).is_some() {
            return None;
        }
        let text = self.shared.as_deref().unwrap_or(&self.own);
        let (line, column) = crate::span::LineIndex::at(text, self.origin).line_col(s.offset);
        Some(ReadError {
            code: Some("pentobi::unsupported"),
            message: format!(
                "line {line}, column {column}: a game of Pentobi's `{}`, a variant gamerec does not play (it reads {SUPPORTED}): not read",
                v.trim()
            ),
        })
    }

    /// The next line's game, and whether it is the tree's last (past the
    /// budget, the rest of the tree is one game).
    fn next_line(&mut self, spent: &mut usize, budget: usize) -> Option<(SourceGame, bool)> {
        let (path, variation) = if self.replayed {
            self.lines.next(&self.tree)?
        } else if !self.lines.started {
            self.lines.started = true;
            let root = self.tree.nodes.first().map(|_| vec![0]);
            (root.unwrap_or_default(), None)
        } else {
            return None;
        };
        let Some(shared) = self.shared.clone() else {
            // the tree's one line: the tree's text is its own
            let mut text = std::mem::take(&mut self.own);
            let end = text.len();
            let raw = line_game(&self.tree, &path, &mut text, end);
            let mut g = SourceGame::of(text, self.origin, raw);
            g.variation = variation;
            return Some((g, false));
        };
        // the text to the end of the file line of the line's last node;
        // whole with a syntax error
        let leaf = path.last().and_then(|&n| self.tree.nodes.get(n));
        let cut = match (leaf, &self.tree.err) {
            (Some(leaf), None) => {
                // the first line end at or after the leaf, found among the
                // text's line ends (searched once for the tree, not per line)
                let k = self.line_ends.partition_point(|&e| e < leaf.end);
                self.line_ends.get(k).copied().unwrap_or(shared.len())
            }
            _ => shared.len(),
        };
        *spent = spent.saturating_add(path.len() * 16);
        if *spent > budget {
            let end = self.tree.end;
            let mut raw = line_game(&self.tree, &[], &mut Appended::default(), end);
            raw.stop = Some(too_many_lines(self.tree.start));
            let text = SourceText::shared(shared.clone(), shared.len());
            return Some((SourceGame::of(text, self.origin, raw), true));
        }
        let mut extra = Appended {
            base: cut,
            text: String::new(),
        };
        let raw = line_game(&self.tree, &path, &mut extra, cut);
        let text = if extra.text.is_empty() {
            SourceText::shared(shared, cut)
        } else {
            // a normalised move value: this line's text is its own
            let mut own = shared.get(..cut).unwrap_or(&shared).to_string();
            own.push_str(&extra.text);
            own.into()
        };
        let mut g = SourceGame::of(text, self.origin, raw);
        g.variation = variation;
        Some((g, false))
    }
}

/// Reads every game tree of a `.blksgf` text: a game per line of each tree.
/// Returns the text the spans point into (the file, plus normalised move
/// values where needed) and each game with its variation path.
pub fn read_lines(text: &str) -> (String, Vec<(RawGame, Option<String>)>) {
    let mut out_text = text.to_string();
    let mut games = Vec::new();
    let mut i = 0;
    let mut spent = 0usize;
    while let Some(k) = text.get(i..).and_then(|r| r.find('(')) {
        let tree = Tree::read(text, i + k);
        i = tree.end.max(i + k + 1);
        let mut lines = Lines::new(&tree);
        let line = |path: &[usize], out_text: &mut String| {
            let mut extra = Appended {
                base: out_text.len(),
                text: String::new(),
            };
            let raw = line_game(&tree, path, &mut extra, tree.end);
            out_text.push_str(&extra.text);
            raw
        };
        if tree.replayed() {
            while let Some((path, variation)) = lines.next(&tree) {
                // the lines' moves in all, as the streaming reader's budget
                spent = spent.saturating_add(path.len() * 16);
                if spent > LINES_BUDGET {
                    let mut raw = line(&[], &mut out_text);
                    raw.stop = Some(too_many_lines(tree.start));
                    games.push((raw, None));
                    break;
                }
                games.push((line(&path, &mut out_text), variation));
            }
        } else {
            let path = tree.nodes.first().map(|_| vec![0]).unwrap_or_default();
            games.push((line(&path, &mut out_text), None));
        }
    }
    (out_text, games)
}

fn too_many_lines(start: usize) -> Diag {
    Diag::error(
        "pentobi::too_many_lines",
        "the lines of this file's game trees hold more text than gamerec validates; the rest of this tree is not validated",
    )
    .at(Span::new(start, 1))
    .label("this tree's remaining lines")
    .help("split the tree into several files")
}

/// Reads every game tree of a `.blksgf` text (see [`read_lines`]).
pub fn read(text: &str) -> (String, Vec<RawGame>) {
    let (text, games) = read_lines(text);
    (text, games.into_iter().map(|(g, _)| g).collect())
}

/// Tags written in a `GC` game comment, one `[Name "value"]` per line (the
/// tags Pentobi has no property for): read back as tags; other text stays
/// the comment (`SGF_GC`).
fn gc_tags(value: &str) -> (Vec<(String, String)>, String) {
    let mut tags = Vec::new();
    let mut rest = Vec::new();
    for line in value.split('\n') {
        match gc_tag(line.trim_end_matches('\r')) {
            Some(t) => tags.push(t),
            None => rest.push(line),
        }
    }
    (tags, rest.join("\n"))
}

fn gc_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix("\"]")?;
    let (name, value) = inner.split_once(" \"")?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let mut out = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            '"' => return None,
            c => out.push(c),
        }
    }
    Some((name.to_string(), out))
}

/// Whether a Pentobi `RE` value reads as a gamerec `Result` (scores
/// separated by `-`).
fn is_score_list(v: &str) -> bool {
    let v = v.trim();
    let (sep, signed) = if v.contains(',') {
        (',', true)
    } else {
        ('-', false)
    };
    let parts: Vec<&str> = v.split(sep).map(str::trim).collect();
    parts.len() >= 2
        && parts.iter().all(|p| {
            let digits = if signed {
                p.strip_prefix('-').unwrap_or(p)
            } else {
                p
            };
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        })
}

/// The game one line of a tree stands for; normalised move values are
/// appended to `out` (the text its spans point into, the tree's text up to
/// `end` at least).
fn line_game(tree: &Tree, path: &[usize], out: &mut impl Append, end: usize) -> RawGame {
    let head = Span::new(tree.start, 1);
    let mut tags = Vec::new();
    let mut tag_errors = Vec::new();
    let mut comment = None;
    let nodes: Vec<&Node> = path.iter().filter_map(|&n| tree.nodes.get(n)).collect();
    let root = nodes.first().copied();
    let (duo, players, trigon) = kind_tags(root, head, &mut tags);
    let mut no_replay = false;
    let seats = seat_tags(duo, players, trigon);
    let colour_names: &[&str] = if duo {
        &["purple", "orange"]
    } else {
        &["blue", "yellow", "red", "green"]
    };
    let colours: u8 = if duo || (trigon && players == 3) {
        if duo { 2 } else { 3 }
    } else {
        4
    };
    let mut ctx = SetupCtx {
        tags: &mut tags,
        tag_errors: &mut tag_errors,
        setup: Default::default(),
        setup_at: [0; 4],
        no_replay,
        duo,
        colours,
        colour_names,
    };
    if let Some(root) = root {
        for p in &root.props {
            root_prop(p, seats, &mut ctx, &mut comment);
        }
    }
    let mut moves = line_moves(&nodes, out, &mut ctx);
    merged_nodes(&mut moves, &mut comment, ctx.tag_errors);
    let SetupCtx {
        setup,
        setup_at,
        no_replay: setup_failed,
        ..
    } = ctx;
    no_replay |= setup_failed;
    insert_setup_tags(&setup, setup_at, duo, &mut tags);
    if moves.stop.is_none() {
        moves.stop = tree_error(tree, path);
    }
    if no_replay {
        moves = LineMoves::default();
    }
    let winner_claim = (seats.len() == 2 && !no_replay)
        .then(|| pentobi_claim(&tags))
        .flatten();
    RawGame {
        tags: Tags(tags),
        tag_errors,
        comment,
        winner_claim,
        tokens: moves.tokens,
        comments: moves.comments,
        move_props: moves.props,
        stop: moves.stop,
        span: Span::between(tree.start, end.min(tree.end)),
        token_players: moves.claims,
        ..RawGame::default()
    }
}

/// The claim of Pentobi's own `RE` in a game of two seats (`RE[B+5]`: the
/// first seat ahead by 5 points, `W+5` the second, `0` a draw; Pentobi's
/// `PentobiTree::set_result` writes it so), kept as the `SGF_RE` tag.
fn pentobi_claim(tags: &[Tag]) -> Option<WinnerClaim> {
    let t = tags.iter().find(|t| t.name == "SGF_RE")?;
    let margin = margin_of(&t.value)?;
    Some(WinnerClaim {
        seats: match margin.cmp(&0) {
            std::cmp::Ordering::Greater => vec![0],
            std::cmp::Ordering::Less => vec![1],
            std::cmp::Ordering::Equal => vec![0, 1],
        },
        span: t.value_span,
        text: format!("RE[{}]", t.value.trim()),
        margin: Some(margin),
    })
}

/// The first seat's lead a Pentobi `RE` gives: `B+N` is N, `W+N` is -N,
/// `0` is 0.
pub(crate) fn margin_of(v: &str) -> Option<i64> {
    let v = v.trim();
    if v == "0" {
        return Some(0);
    }
    let (sign, n) = match v.split_at_checked(2)? {
        ("B+", n) => (1, n),
        ("W+", n) => (-1, n),
        _ => return None,
    };
    if !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse::<i64>().ok().filter(|&n| n > 0).map(|n| sign * n)
}

/// Pentobi's `RE` for a game of two seats whose first seat is `margin`
/// points ahead under Pentobi's scoring.
pub(crate) fn re_of_margin(margin: i64) -> String {
    match margin.cmp(&0) {
        std::cmp::Ordering::Greater => format!("B+{margin}"),
        std::cmp::Ordering::Less => format!("W+{}", -margin),
        std::cmp::Ordering::Equal => "0".to_string(),
    }
}

/// The game and variant tags the root's `GM` gives, and the kind of game:
/// (Duo, players, Trigon).
fn kind_tags(root: Option<&Node>, head: Span, tags: &mut Vec<Tag>) -> (bool, u8, bool) {
    let gm = root.and_then(|n| n.prop("GM"));
    let (duo, players, trigon) = match gm {
        Some(p) => {
            let (v, s) = p.values.first().cloned().unwrap_or_default();
            tags.push(synth("Game", "blokus", s));
            // a GM gamerec does not play is no game: `TreeLines::unsupported`
            kind(&v).unwrap_or((false, 4, false))
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
    (duo, players, trigon)
}

/// What one property of the root node becomes: a tag (the common ones by
/// their names, the players by their seats, the others `SGF_XX`), the
/// game's comment, part of the setup, or nothing.
fn root_prop(p: &Prop, seats: &[&str], ctx: &mut SetupCtx, comment: &mut Option<String>) {
    let (v, s) = p.values.first().cloned().unwrap_or_default();
    let tag = |name: String, value: String| Tag {
        name,
        value,
        span: p.span,
        value_span: s,
    };
    let mut push = |name: &str| ctx.tags.push(tag(name.to_string(), v.clone()));
    match &*p.id {
        "GM" | "FF" | "AP" => {}
        "CA" => {
            if charset_named(&v).is_none() {
                ctx.tag_errors.push(
                    Diag::warning(
                        "pentobi::charset",
                        format!("charset `{}` is not known", v.trim()),
                    )
                    .at(s)
                    .label("read as UTF-8, or as Latin-1 where it is not UTF-8")
                    .help("gamerec reads CA[UTF-8] and CA[ISO-8859-1]"),
                );
            }
        }
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
        "RO" => push("Round"),
        "RE" if is_score_list(&v) => push("Result"),
        "GC" => {
            let (found, rest) = gc_tags(&v);
            for (name, value) in found {
                ctx.tags.push(tag(name, value));
            }
            if !rest.trim().is_empty() {
                ctx.tags.push(tag("SGF_GC".into(), rest));
            }
        }
        "C" => *comment = Some(crate::record::comment_text(v.trim())),
        id if id == "PL" || is_setup_id(id) => setup_prop(p, ctx),
        id if is_move_id(id) => {}
        other => push(&format!("SGF_{other}")),
    }
}

/// The moves of a line: their tokens (setup edits among them), comments,
/// kept properties and claimed colours.
#[derive(Default)]
struct LineMoves {
    tokens: Vec<Token>,
    comments: Vec<(usize, String)>,
    /// The move nodes' other properties (`TE[1]`), by token index.
    props: Vec<(usize, String, String)>,
    claims: Vec<Option<String>>,
    stop: Option<Diag>,
    /// Nodes without a token of their own whose comment or properties
    /// were kept with a move's, and the first one's place.
    merged: usize,
    merged_at: Option<Span>,
    /// Such nodes before the first move: kept with it once it comes.
    pending: Vec<Said>,
}

/// What a node says beside its move: its comment and kept properties.
type Said = (Option<String>, Vec<(String, String)>);

impl LineMoves {
    /// A node of no token of its own (no move, no setup edit): its comment
    /// and other properties go with the token before it, or with the next
    /// one when none has come yet.
    fn merge(&mut self, node: &Node, has_setup: bool) {
        let comment = node_comment(node);
        let props = kept_props(node, has_setup);
        if comment.is_none() && props.is_empty() {
            return;
        }
        self.merged += 1;
        if self.merged_at.is_none() {
            self.merged_at = node.props.first().map(|p| p.span);
        }
        match self.tokens.len().checked_sub(1) {
            Some(last) => self.keep(last, comment, props),
            None => self.pending.push((comment, props)),
        }
    }

    /// What nodes before the first token said, kept with token `token`
    /// (the first), before anything else kept with it.
    fn flush_pending(&mut self, token: usize) {
        let pending = std::mem::take(&mut self.pending);
        let (mut comments, mut props) = (Vec::new(), Vec::new());
        for (c, ps) in pending {
            comments.extend(c.map(|c| (token, c)));
            props.extend(ps.into_iter().map(|(n, v)| (token, n, v)));
        }
        let at = self.comments.partition_point(|c| c.0 < token);
        self.comments.splice(at..at, comments);
        let at = self.props.partition_point(|p| p.0 < token);
        self.props.splice(at..at, props);
    }

    /// Keeps a comment and properties with token `token`; a property the
    /// token has already gets the new values after its own (`TE[1][2]`).
    fn keep(&mut self, token: usize, comment: Option<String>, props: Vec<(String, String)>) {
        if let Some(c) = comment {
            self.comments.push((token, c));
        }
        for (name, value) in props {
            let from = self.props.partition_point(|p| p.0 < token);
            let same = self
                .props
                .get_mut(from..)
                .and_then(|ps| ps.iter_mut().find(|p| p.0 == token && p.1 == name));
            match same {
                Some(p) => {
                    p.2.push_str("][");
                    p.2.push_str(&value);
                }
                None => self.props.push((token, name, value)),
            }
        }
    }

    /// Keeps a node's comment and its other properties (`TE[1]`) with
    /// token `token`.
    fn keep_with(&mut self, token: usize, node: &Node, has_setup: bool) {
        self.keep(token, node_comment(node), kept_props(node, has_setup));
    }

    /// A setup edit's token (`+blue:a1,a2`, `-a1,a2`, `>red`), written
    /// into the normalised copy after the file's text.
    fn edit(&mut self, text: &str, out: &mut impl Append) {
        out.append("\n; ");
        let at = out.len();
        out.append(text);
        self.tokens.push(Token::new(Span::new(at, text.len())));
        self.claims.push(None);
    }
}

/// Reads the moves of a line's nodes. The setups of the root and of the
/// nodes before the first move are the game's start (its setup tags);
/// from the first move on, and from the first `AE` on (a removal has
/// nothing to remove from an empty board), a node's setup is setup edits
/// in the movetext before its move ([`setup_edits`]). A move value that is
/// not the file's text as it stands, and every edit, is normalised into
/// `out`.
fn line_moves(nodes: &[&Node], out: &mut impl Append, ctx: &mut SetupCtx) -> LineMoves {
    let mut moves = LineMoves::default();
    let mut edits = false;
    for (k, node) in nodes.iter().enumerate() {
        let has_setup = node.props.iter().any(|p| is_setup_id(&p.id));
        let before = moves.tokens.len();
        if has_setup && (edits || node.prop("AE").is_some()) {
            edits = true;
            setup_edits(node, k == 0, out, ctx, &mut moves);
        } else if has_setup && k > 0 {
            for p in &node.props {
                setup_prop(p, ctx);
            }
        }
        let found = node_move(node, ctx);
        if moves.tokens.len() > before || found.is_some() {
            moves.flush_pending(before);
        }
        let Some((colour, p)) = found else {
            if k == 0 {
                continue;
            }
            if moves.tokens.len() > before {
                // a node of setup only: what else it says goes with its last edit
                moves.keep_with(moves.tokens.len() - 1, node, has_setup);
            } else {
                moves.merge(node, has_setup);
            }
            continue;
        };
        edits = true;
        let Some((v, s)) = p.values.first() else {
            continue;
        };
        let span = move_span(p, v, *s, out);
        moves.keep_with(moves.tokens.len(), node, has_setup);
        moves.tokens.push(Token::new(span));
        let name = ctx.colour_names.get(usize::from(colour));
        moves.claims.push(name.map(|n| n.to_string()));
    }
    moves
}

/// What nodes without a move said, kept with the moves: one warning for
/// the line; in a line of no move at all their comments join the game's
/// comment and their properties are named as not kept.
fn merged_nodes(moves: &mut LineMoves, comment: &mut Option<String>, errors: &mut Vec<Diag>) {
    let Some(at) = moves.merged_at else { return };
    let mut lost = Vec::new();
    for (c, props) in std::mem::take(&mut moves.pending) {
        if let Some(c) = c {
            match comment {
                Some(g) => {
                    g.push('\n');
                    g.push_str(&c);
                }
                None => *comment = Some(c),
            }
        }
        lost.extend(props.into_iter().map(|(n, _)| n));
    }
    let n = moves.merged;
    let mut d = Diag::warning(
        "pentobi::node_without_move",
        format!(
            "{}: {} comment and properties are kept with the move before {} (the first move, before any)",
            crate::diag::plural(n, "node without a move or setup", "nodes without a move or setup"),
            if n == 1 { "its" } else { "their" },
            if n == 1 { "it" } else { "each" },
        ),
    )
    .at(at)
    .label("no move here")
    .help("gamerec keeps a Pentobi node's comment and marks with its move; written back, they are in that move's node");
    if !lost.is_empty() {
        d = d.help(format!(
            "this line has no move: its nodes' comments are the game's, and {} not kept",
            lost.join(", ")
        ));
    }
    errors.push(d);
}

/// A node's comment (`C`), as a comment.
fn node_comment(node: &Node) -> Option<String> {
    node.prop("C")
        .and_then(|c| c.values.first())
        .map(|(v, _)| crate::record::comment_text(v.trim()))
}

/// A node's properties kept with its move (`SGF_TE`), their values as SGF
/// writes them.
fn kept_props(node: &Node, has_setup: bool) -> Vec<(String, String)> {
    node.props
        .iter()
        .filter(|q| kept_with_move(q, has_setup))
        .map(|q| {
            let values: Vec<String> = q.values.iter().map(|(v, _)| escape(v)).collect();
            (format!("{MOVE_PROP_PREFIX}{}", q.id), values.join("]["))
        })
        .collect()
}

/// A node's setup as setup edits, in the order Pentobi applies them (its
/// `BoardUpdater`): the pieces of `A1`..`A4`, then `AB`, `AW` (each value
/// a piece, `+blue:a20,a19,b19`), then the pieces `AE` takes off
/// (`-a20,a19,b19`), then `PL` (`>red`). In the root (`root`), whose
/// pieces and `PL` are the start's tags, only `AE`.
fn setup_edits(node: &Node, root: bool, out: &mut impl Append, ctx: &SetupCtx, moves: &mut LineMoves) {
    const CLASSIC: [&str; 4] = ["blue", "yellow", "red", "green"];
    let name = |c: usize| {
        ctx.colour_names
            .get(c)
            .or_else(|| CLASSIC.get(c))
            .copied()
            .unwrap_or("?")
    };
    let squares = |v: &str| v.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    if !root {
        for (id, c) in [("A1", 0), ("A2", 1), ("A3", 2), ("A4", 3), ("AB", 0), ("AW", 1)] {
            for (v, _) in node.prop(id).map_or(&[][..], |p| &p.values[..]) {
                moves.edit(&format!("+{}:{}", name(c), squares(v)), out);
            }
        }
    }
    for (v, _) in node.prop("AE").map_or(&[][..], |p| &p.values[..]) {
        moves.edit(&format!("-{}", squares(v)), out);
    }
    if let (false, Some((v, _))) = (root, node.prop("PL").and_then(|p| p.values.first())) {
        let colour = match v.trim() {
            "B" | "1" => name(0).to_string(),
            "W" | "2" => name(1).to_string(),
            "3" => name(2).to_string(),
            "4" => name(3).to_string(),
            other => squares(other),
        };
        moves.edit(&format!(">{colour}"), out);
    }
}

/// The prefix of a move node's property kept with its move (`SGF_TE`).
pub const MOVE_PROP_PREFIX: &str = "SGF_";

/// Whether a property of a move node is one gamerec keeps with the move as
/// it is (not a move, the comment or a setup it reads).
fn kept_with_move(p: &Prop, has_setup: bool) -> bool {
    !(is_move_id(&p.id)
        || &*p.id == "C"
        || is_setup_id(&p.id)
        || (has_setup && &*p.id == "PL"))
}

/// Whether `id` may be written back as a move node's property: an SGF
/// identifier (capital letters) that is none of those the reader takes as
/// a move, a comment or a setup (a document's `SGF_B` is no move).
fn is_prop_id(id: &str) -> bool {
    (1..=8).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_uppercase())
        && !(is_move_id(id) || id == "C" || id == "PL" || is_setup_id(id))
}

/// The move of a node, and its colour: one per node, the first in
/// Pentobi's order; the node's other move properties get
/// `pentobi::move_ignored`.
fn node_move<'n>(node: &'n Node, ctx: &mut SetupCtx) -> Option<(u8, &'n Prop)> {
    let mut chosen: Option<(usize, u8, &Prop)> = None;
    for p in node.props.iter().filter(|p| is_move_id(&p.id)) {
        if let Some((rank, c)) = move_colour(&p.id, ctx.colours) {
            if chosen.is_none_or(|(r, _, _)| rank < r) {
                chosen = Some((rank, c, p));
            }
        }
    }
    if chosen.is_none() {
        // a colour this game does not have (`4[...]` with three
        // colours): Pentobi skips the node; read it as a move of that
        // colour, so that the replay says whose turn it was
        chosen = node
            .props
            .iter()
            .find(|p| is_move_id(&p.id))
            .and_then(|p| move_colour(&p.id, 4).map(|(r, c)| (r, c, p)));
    }
    for p in node.props.iter().filter(|p| is_move_id(&p.id)) {
        if chosen.is_some_and(|(_, _, q)| std::ptr::eq(p, q)) {
            continue;
        }
        let why = match chosen {
            Some((_, _, q)) => format!("Pentobi reads one move per node, here `{}`", q.id),
            None => "no colour of a game of this kind".to_string(),
        };
        ctx.tag_errors.push(
            Diag::warning(
                "pentobi::move_ignored",
                format!("`{}` is not read as a move: {why}", p.id),
            )
            .at(p.span)
            .label("ignored, as Pentobi does"),
        );
    }
    chosen.map(|(_, c, p)| (c, p))
}

/// The span of a move's token: its value (`v` at `s`) as the file has it,
/// or a normalised copy appended to `out`.
fn move_span(p: &Prop, v: &str, s: Span, out: &mut impl Append) -> Span {
    let several = p.values.len() > 1;
    if !(several || v.is_empty() || v.chars().any(char::is_whitespace) || v.len() != s.length) {
        return s;
    }
    // normalise into a copy after the file's text: old files give a
    // move as one value per point (join them); `B[]` is a pass
    let norm: String = p
        .values
        .iter()
        .map(|(v, _)| v.chars().filter(|c| !c.is_whitespace()).collect::<String>())
        .collect::<Vec<_>>()
        .join(",");
    let norm = if norm.is_empty() {
        "pass".to_string()
    } else {
        norm
    };
    out.append("\n; ");
    let at = out.len();
    out.append(&norm);
    Span::new(at, norm.len())
}

/// Where normalised move values go: after a line's text, or after the
/// text of a whole file.
trait Append {
    fn append(&mut self, s: &str);
    /// The length of the text with what was appended.
    fn len(&self) -> usize;
}

impl Append for String {
    fn append(&mut self, s: &str) {
        self.push_str(s);
    }
    fn len(&self) -> usize {
        String::len(self)
    }
}

impl Append for Appended {
    fn append(&mut self, s: &str) {
        self.text.push_str(s);
    }
    fn len(&self) -> usize {
        self.base + self.text.len()
    }
}

/// Puts each colour's setup tag where its first setup property stood.
fn insert_setup_tags(
    setup: &[Vec<(String, Span)>; 4],
    setup_at: [usize; 4],
    duo: bool,
    tags: &mut Vec<Tag>,
) {
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
}

/// The tree's syntax error, for the first line through the node read
/// last (every line when it has no node).
fn tree_error(tree: &Tree, path: &[usize]) -> Option<Diag> {
    let (d, at) = tree.err.as_ref()?;
    let last = path.last().copied();
    let first_through = match at {
        Some(n) => path.contains(n) && first_line_through(tree, path, *n),
        None => true,
    };
    (first_through || last.is_none()).then(|| d.clone())
}

/// What setup properties build: the setup values per colour, where in the
/// tags each colour's tag goes, and the errors that stop the replay.
struct SetupCtx<'a> {
    tags: &'a mut Vec<Tag>,
    tag_errors: &'a mut Vec<Diag>,
    setup: [Vec<(String, Span)>; 4],
    setup_at: [usize; 4],
    no_replay: bool,
    duo: bool,
    colours: u8,
    colour_names: &'static [&'static str],
}

/// A setup property (`AB`/`AW`/`A1`..`A4`, `AE`, `PL`) of a node before
/// the first move: the start setup of the game.
fn setup_prop(p: &Prop, ctx: &mut SetupCtx) {
    match &*p.id {
        "AB" | "A1" => setup_colour(p, 0, ctx),
        "AW" | "A2" => setup_colour(p, 1, ctx),
        "A3" => setup_colour(p, 2, ctx),
        "A4" => setup_colour(p, 3, ctx),
        // the pieces taken off are setup edits (`line_moves`)
        "AE" => {}
        "PL" => first_player(p, ctx),
        _ => {}
    }
}

/// Squares set up for colour `c` (`AB`/`AW`/`A1`..`A4`).
fn setup_colour(p: &Prop, c: u8, ctx: &mut SetupCtx) {
    match ctx
        .setup
        .get_mut(usize::from(c))
        .filter(|_| c < ctx.colours)
    {
        Some(slot) => {
            slot.extend(p.values.iter().cloned());
            if slot.len() == p.values.len() {
                if let Some(at) = ctx.setup_at.get_mut(usize::from(c)) {
                    *at = ctx.tags.len();
                }
            }
        }
        None => {
            ctx.no_replay = true;
            ctx.tag_errors.push(
                Diag::error(
                    "blokus::bad_tags",
                    format!(
                        "setup property `{}` names a colour this game does not have",
                        p.id
                    ),
                )
                .at(p.span)
                .label("no such colour")
                .help(if ctx.duo {
                    "Blokus Duo's colours are AB (purple) and AW (orange)"
                } else {
                    "the colours are A1 to A4 in turn order"
                }),
            );
        }
    }
}

/// The colour to move first after the setup (`PL`).
fn first_player(p: &Prop, ctx: &mut SetupCtx) {
    let v = p.values.first().map(|(v, _)| v.as_str()).unwrap_or("");
    let s = p.values.first().map_or(p.span, |(_, s)| *s);
    let c: Option<u8> = match v.trim() {
        "B" | "1" => Some(0),
        "W" | "2" => Some(1),
        "3" => Some(2),
        "4" => Some(3),
        _ => None,
    };
    match c
        .filter(|&c| c < ctx.colours)
        .and_then(|c| ctx.colour_names.get(usize::from(c)))
    {
        Some(name) => ctx.tags.push(synth(setup::FIRST, name, s)),
        None => {
            ctx.no_replay = true;
            ctx.tag_errors.push(
                Diag::error(
                    "blokus::bad_tags",
                    format!("PL[{}] names no colour of this game", v.trim()),
                )
                .at(s)
                .label("not a colour")
                .help(if ctx.duo {
                    "Blokus Duo's colours are PL[B] (purple) and PL[W] (orange)"
                } else {
                    "the colours are PL[1] to PL[4] in turn order"
                }),
            );
        }
    }
}

/// Whether `path` is the first line (by first children) through node `n`.
fn first_line_through(tree: &Tree, path: &[usize], n: usize) -> bool {
    let Some(k) = path.iter().position(|&m| m == n) else {
        return false;
    };
    path.windows(2).skip(k).all(|w| match w {
        [a, b] => tree.nodes.get(*a).and_then(|node| node.children.first()) == Some(b),
        _ => true,
    })
}

/// Writes games as a Pentobi file. `Err` for a game Pentobi cannot hold.
pub fn write(games: &[DocGame]) -> Result<String, WriteError> {
    let mut out = String::new();
    for g in games {
        out.push_str(&write_game(g, &mut Losses::default())?);
    }
    Ok(out)
}

/// Writes one game as a Pentobi file, noting in `losses` what Pentobi
/// cannot keep. `Err` for a game Pentobi cannot hold.
pub fn write_game(g: &DocGame, losses: &mut Losses) -> Result<String, WriteError> {
    if g.game != "blokus" {
        return Err(WriteError::new(format!("Pentobi files hold Blokus games only, not {}", g.game)));
    }
    let tag = |n: &str| g.tags.iter().find(|(k, _)| k == n).map(|(_, v)| v.trim());
    let duo = g.variant.as_deref() == Some("duo");
    let trigon = g.variant.as_deref() == Some("trigon");
    let players: u8 = tag("Players").and_then(|p| p.parse().ok()).unwrap_or(4);
    let turn = if !duo && !trigon {
        board_turn(tag("Size"), tag("Corners"), losses)
            .map_err(|e| WriteError::new(e.to_string()))?
    } else {
        Turn::Identity
    };
    losses.move_numbers(g, "Pentobi");
    let passes = g.moves.iter().filter(|m| !m.auto && m.notation == "pass").count();
    if passes > 0 {
        losses.note(format!(
            "{}: Pentobi leaves passes out (reading it back takes them as automatic passes)",
            crate::diag::plural(passes, "written pass", "written passes")
        ));
    }
    losses.move_props(g, "Pentobi", |name| {
        name.strip_prefix(MOVE_PROP_PREFIX).is_some_and(is_prop_id)
    });
    let scoring = tag("Scoring").unwrap_or("basic");
    let pentobi_scored = scoring.eq_ignore_ascii_case("pentobi");
    if !pentobi_scored {
        let which = match tag("Scoring") {
            Some(s) => format!("the Scoring tag \"{s}\""),
            None => "the basic scoring (no Scoring tag)".to_string(),
        };
        losses.note(format!(
            "{which}: a Pentobi file is scored by Pentobi's rules (it reads back as [Scoring \"pentobi\"])"
        ));
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
    let mut w = RootWriter {
        out: format!("(;FF[4]CA[UTF-8]GM[{gm}]"),
        duo,
        turn,
        seats: seat_tags(duo, players, trigon),
        colour_names: if duo {
            &["purple", "orange"]
        } else {
            &["blue", "yellow", "red", "green"]
        },
        pentobi_scored,
        scoring,
        gc: Vec::new(),
        re: two_seat_re(g, duo, players, trigon, pentobi_scored),
    };
    for (name, value) in &g.tags {
        w.tag(name, value, losses);
    }
    if let Some(re) = &w.re {
        w.out.push_str(&format!("RE[{re}]"));
    }
    if !w.gc.is_empty() {
        w.out.push_str(&format!("GC[{}]", escape(&w.gc.join("\n"))));
    }
    let mut out = w.out;
    if let Some(c) = &g.comment {
        out.push_str(&format!("C[{}]", escape(c)));
    }
    out.push('\n');
    write_moves(&mut out, g, duo, turn);
    out.push_str(")\n");
    Ok(out)
}

/// Pentobi's `RE` of a finished game of two seats (Duo, two-player classic
/// and Trigon) that claims a result (a `Result` or `SGF_RE` tag: a game
/// without one gets none, as Pentobi writes `RE` only once a game is
/// scored), from its final position under Pentobi's scoring whatever the
/// record's: the first seat's points minus the second's, as Pentobi
/// writes it (`B+5`, `W+3`, `0`). A game scored otherwise is replayed once
/// under Pentobi's scoring for it. `None` for other games.
fn two_seat_re(g: &DocGame, duo: bool, players: u8, trigon: bool, pentobi_scored: bool) -> Option<String> {
    let claims = g.tags.iter().any(|(k, _)| k == "Result" || k == "SGF_RE");
    if seat_tags(duo, players, trigon).len() != 2 || !claims {
        return None;
    }
    let result = g.result.as_ref().filter(|r| r.over)?;
    let scores: Vec<i64> = if pentobi_scored {
        result.scores.values().filter_map(serde_json::Value::as_i64).collect()
    } else {
        pentobi_scores(g)?
    };
    match scores.as_slice() {
        [a, b] => Some(re_of_margin(a - b)),
        _ => None,
    }
}

/// The final scores of a game replayed under Pentobi's scoring.
fn pentobi_scores(g: &DocGame) -> Option<Vec<i64>> {
    let mut g = g.clone();
    g.tags.retain(|(k, _)| k != "Scoring" && k != "Result");
    g.tags.push(("Scoring".into(), "pentobi".into()));
    let text = super::gamerec::write_game(&g, &mut Losses::default());
    let raw = crate::record::parse_file(&text).into_iter().next()?;
    let r = crate::registry::replay(&raw, &text, &crate::replay::Options::default());
    (r.valid && r.over).then_some(r.scores)
}

/// Why a classic game's board cannot be turned to Pentobi's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// A `Size` other than 20.
    Size,
    /// Corners (the `Corners` value) that no symmetry takes to Pentobi's.
    Corners(String),
}

impl std::fmt::Display for TurnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TurnError::Size => f.write_str("Pentobi plays classic Blokus on 20x20 boards only"),
            TurnError::Corners(corners) => write!(
                f,
                "Pentobi's corners are \"{PENTOBI_CORNERS}\"; this game's (\"{corners}\") are no reflection or rotation of them"
            ),
        }
    }
}

impl std::error::Error for TurnError {}

/// The symmetry that takes a classic game's corners to Pentobi's (noted
/// when it is not the identity); `Err` for a board Pentobi does not play.
fn board_turn(
    size: Option<&str>,
    corners: Option<&str>,
    losses: &mut Losses,
) -> Result<Turn, TurnError> {
    if size.is_some_and(|s| s != "20") {
        return Err(TurnError::Size);
    }
    let corners = corners.unwrap_or(RULE_TEXT_CORNERS);
    let turn =
        Turn::to_pentobi(corners).ok_or_else(|| TurnError::Corners(corners.to_string()))?;
    if let Some(how) = turn.describe() {
        losses.note(format!(
            "the corners \"{corners}\": Pentobi's are \"{PENTOBI_CORNERS}\", so the board is written {how} (every square of the moves and the setup)"
        ));
    }
    Ok(turn)
}

/// The root node's properties being written from a game's tags.
struct RootWriter<'g> {
    out: String,
    duo: bool,
    turn: Turn,
    seats: &'static [&'static str],
    colour_names: &'static [&'static str],
    pentobi_scored: bool,
    scoring: &'g str,
    /// Pentobi's `RE` for a finished game of two seats (`B+5`).
    re: Option<String>,
    /// Tags Pentobi has no property for, kept in the game comment `GC`.
    gc: Vec<String>,
}

impl RootWriter<'_> {
    /// Writes one tag's property: the setup, the first colour, a property
    /// of its own, or a line of `GC`; or notes that Pentobi has no place
    /// for it.
    fn tag(&mut self, name: &str, value: &str, losses: &mut Losses) {
        let duo = self.duo;
        let setup_colour =
            (0..self.colour_names.len() as u8).position(|c| setup::tag_name(duo, c) == Some(name));
        if let Some(c) = setup_colour {
            let id = if duo {
                ["AB", "AW"].get(c).copied().unwrap_or("AW").to_string()
            } else {
                format!("A{}", c + 1)
            };
            let items = setup::squares_sorted(&self.turn.apply(value));
            if !items.is_empty() {
                self.out.push_str(&id);
                for item in items {
                    self.out.push_str(&format!("[{}]", escape(&item)));
                }
            }
            return;
        }
        if name == setup::FIRST {
            let colour_ids: &[&str] = if duo {
                &["B", "W"]
            } else {
                &["1", "2", "3", "4"]
            };
            let c = self
                .colour_names
                .iter()
                .position(|n| n.eq_ignore_ascii_case(value.trim()));
            if let Some(id) = c.and_then(|c| colour_ids.get(c)) {
                self.out.push_str(&format!("PL[{id}]"));
            }
            return;
        }
        if let Some(id) = self.property_id(name, value, losses) {
            self.out.push_str(&format!("{id}[{}]", escape(value)));
        }
    }

    /// The property a tag is written as, `None` when it is said elsewhere
    /// (by `GM`, the corners, the scoring, `GC`) or has no place.
    fn property_id(&mut self, name: &str, value: &str, losses: &mut Losses) -> Option<String> {
        let id = match name {
            // said by GM, the corners and the scoring above
            "Game" | "Variant" | "Players" | "Size" | "Corners" | "Scoring" => return None,
            "Date" => "DT".to_string(),
            "Event" => "EV".to_string(),
            "Site" => "PC".to_string(),
            "Round" => "RO".to_string(),
            // a game of two seats gets Pentobi's own RE (written after
            // the tags); its scores stay in GC
            "Result" | "SGF_RE" if self.re.is_some() => {
                if name == "Result" && self.pentobi_scored {
                    self.gc_line(name, value, losses);
                } else if name == "Result" {
                    self.lost_result(value, losses);
                }
                return None;
            }
            "Result" if self.pentobi_scored => "RE".to_string(),
            "Result" => {
                self.lost_result(value, losses);
                return None;
            }
            "SGF_GC" => {
                self.gc.insert(0, value.to_string());
                return None;
            }
            n => {
                if let Some(k) = self.seats.iter().position(|s| s == &n) {
                    if self.seats.len() == 2 {
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
                        _ => {
                            self.gc_line(n, value, losses);
                            return None;
                        }
                    }
                }
            }
        };
        Some(id)
    }

    /// A `Result` under another scoring than Pentobi's: noted as lost.
    fn lost_result(&self, value: &str, losses: &mut Losses) {
        losses.note(format!(
            "the Result tag \"{value}\": its scores are under the {} scoring, and a Pentobi file's are Pentobi's",
            self.scoring
        ));
    }

    /// A tag with no property, as a line `[Name "value"]` of `GC` when it
    /// reads back so; else noted as lost.
    fn gc_line(&mut self, name: &str, value: &str, losses: &mut Losses) {
        let line = format!(
            "[{name} \"{}\"]",
            value.replace('\\', "\\\\").replace('"', "\\\"")
        );
        if gc_tag(&line).is_some() && !value.contains(['\n', '\r']) {
            self.gc.push(line);
        } else {
            losses.note(format!("the {name} tag: Pentobi has no place for it"));
        }
    }
}

/// The game's moves, a node each (passes left out), with their comments
/// and kept properties; setup edits as the setup properties of the node of
/// the move after them ([`SetupNode`]).
fn write_moves(out: &mut String, g: &DocGame, duo: bool, turn: Turn) {
    let squares_of = |notation: &str| {
        let squares = notation.rsplit(':').next().unwrap_or("");
        match turn {
            Turn::Identity => squares.to_string(),
            _ => setup::squares_sorted(&turn.apply(squares)).join(" "),
        }
    };
    let mut node = SetupNode::default();
    for m in g.moves.iter().filter(|m| !m.auto && m.notation != "pass") {
        if let Some((id, value)) = setup_prop_of(&m.notation, duo, &squares_of) {
            if !node.takes(id) {
                node.write(out);
                out.push('\n');
                node = SetupNode::default();
            }
            node.add(id, value);
            if m.comment.is_some() || !m.props.is_empty() {
                // what an edit says needs a node of its own
                node.write(out);
                move_extras(out, m);
                out.push('\n');
                node = SetupNode::default();
            }
            continue;
        }
        let colour = match (duo, m.player.as_str()) {
            (true, "purple") => "B",
            (true, _) => "W",
            (false, "blue") => "1",
            (false, "yellow") => "2",
            (false, "red") => "3",
            _ => "4",
        };
        if node.is_empty() {
            out.push(';');
        } else {
            node.write(out);
            node = SetupNode::default();
        }
        out.push_str(&format!("{colour}[{}]", squares_of(&m.notation)));
        move_extras(out, m);
        out.push('\n');
    }
    if !node.is_empty() {
        node.write(out);
        out.push('\n');
    }
}

/// A move's comment and its node's other properties, as read (their
/// values as SGF writes them).
fn move_extras(out: &mut String, m: &crate::model::DocMove) {
    if let Some(c) = &m.comment {
        out.push_str(&format!("C[{}]", escape(c)));
    }
    for (name, v) in &m.props {
        if let Some(id) = name.strip_prefix(MOVE_PROP_PREFIX).filter(|id| is_prop_id(id)) {
            out.push_str(&format!("{id}[{}]", super::prop_text(v)));
        }
    }
}

/// The setup property and value of a setup edit's notation
/// (`+blue:V3:a20,a19,b19` is `A1[a19,b19,a20]`, `-V3:..` is `AE[..]`,
/// `>red` is `PL[3]`); `None` for a move.
fn setup_prop_of(
    notation: &str,
    duo: bool,
    squares_of: &dyn Fn(&str) -> String,
) -> Option<(&'static str, String)> {
    const IDS: [&str; 6] = ["A1", "A2", "A3", "A4", "AB", "AW"];
    const PL: [&str; 6] = ["1", "2", "3", "4", "B", "W"];
    let colour = |name: &str| {
        let c = crate::games::blokus::notation::PALETTE
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))?;
        // Duo's purple and orange are the first two colours
        (if duo { c >= 4 } else { c < 4 }).then_some(c)
    };
    match notation.as_bytes().first()? {
        b'+' => {
            let rest = notation.get(1..)?;
            let (name, cells) = rest.split_once(':')?;
            let id = IDS.get(colour(name)?)?;
            Some((id, squares_of(cells)))
        }
        b'-' => Some(("AE", squares_of(notation.get(1..)?))),
        b'>' => Some(("PL", PL.get(colour(notation.get(1..)?)?)?.to_string())),
        _ => None,
    }
}

/// The setup properties of one node being written, from consecutive
/// setup edits. Pentobi applies a node's setup in a fixed order (the
/// pieces put, then `AE`, then `PL`), so an edit that would come before
/// one already in the node by that order (a piece put after one taken
/// off, a second `PL`) starts a new node; within the node the properties
/// are written in that order (pieces put commute), so that a file written
/// so reads back to the same edits and is written again the same.
#[derive(Default)]
struct SetupNode {
    props: Vec<(&'static str, Vec<String>)>,
}

/// The order of Pentobi's setup properties in a node.
const SETUP_ORDER: [&str; 8] = ["A1", "A2", "A3", "A4", "AB", "AW", "AE", "PL"];

fn setup_rank(id: &str) -> usize {
    SETUP_ORDER.iter().position(|&o| o == id).unwrap_or(0)
}

/// The class of a setup property: a piece put (0), taken off (1), `PL` (2).
fn setup_class(id: &str) -> usize {
    match id {
        "AE" => 1,
        "PL" => 2,
        _ => 0,
    }
}

impl SetupNode {
    fn is_empty(&self) -> bool {
        self.props.is_empty()
    }

    /// Whether an edit's property `id` belongs in this node (`false`: in
    /// a new one).
    fn takes(&self, id: &str) -> bool {
        let last = self.props.iter().map(|(i, _)| setup_class(i)).max();
        !(last.is_some_and(|c| c > setup_class(id)) || (id == "PL" && last == Some(2)))
    }

    /// Adds an edit's property value (the node [`SetupNode::takes`] it).
    fn add(&mut self, id: &'static str, value: String) {
        match self.props.iter_mut().find(|(i, _)| *i == id) {
            Some((_, values)) => values.push(value),
            None => self.props.push((id, vec![value])),
        }
    }

    /// `;` and the properties, in Pentobi's order.
    fn write(&mut self, out: &mut String) {
        self.props.sort_by_key(|(id, _)| setup_rank(id));
        out.push(';');
        for (id, values) in &self.props {
            out.push_str(id);
            for v in values {
                out.push_str(&format!("[{}]", escape(v)));
            }
        }
    }
}

/// The rule text's corners (a classic game without a `Corners` tag).
const RULE_TEXT_CORNERS: &str = "blue a20, yellow a1, red t1, green t20";

/// One of the eight symmetries of the 20x20 board: the one that takes a
/// game's corners to Pentobi's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    Identity,
    /// `(x, y)` to each of these, x and y from 0 at `a1`.
    Map(bool, bool, bool),
}

impl Turn {
    /// The square `(x, y)` (from 0) moved.
    fn at(self, x: u8, y: u8) -> (u8, u8) {
        match self {
            Turn::Identity => (x, y),
            Turn::Map(swap, flip_x, flip_y) => {
                let (x, y) = if swap { (y, x) } else { (x, y) };
                let x = if flip_x { 19 - x.min(19) } else { x };
                let y = if flip_y { 19 - y.min(19) } else { y };
                (x, y)
            }
        }
    }

    fn all() -> impl Iterator<Item = Turn> {
        (0..8u8).map(|k| {
            if k == 0 {
                Turn::Identity
            } else {
                Turn::Map(k & 4 != 0, k & 2 != 0, k & 1 != 0)
            }
        })
    }

    /// The symmetry taking each colour's corner in `corners` to Pentobi's.
    fn to_pentobi(corners: &str) -> Option<Turn> {
        let from = corner_squares(corners)?;
        let to = corner_squares(PENTOBI_CORNERS)?;
        Turn::all().find(|t| {
            from.iter()
                .zip(&to)
                .all(|(&(x, y), &want)| t.at(x, y) == want)
        })
    }

    /// How the board is moved, for a warning (`None` when it is not).
    fn describe(self) -> Option<&'static str> {
        match self {
            Turn::Identity => None,
            Turn::Map(false, true, false) => Some("reflected left to right"),
            Turn::Map(false, false, true) => Some("reflected top to bottom"),
            Turn::Map(false, _, _) => Some("turned half a turn"),
            Turn::Map(true, false, false) => Some("reflected in the diagonal from a1 to t20"),
            Turn::Map(true, true, true) => Some("reflected in the diagonal from a20 to t1"),
            Turn::Map(true, true, false) => Some("turned a quarter turn anticlockwise"),
            Turn::Map(true, false, true) => Some("turned a quarter turn clockwise"),
        }
    }

    /// A move's or setup value's squares moved (piece names and item
    /// separators kept; what is not a square kept as written).
    fn apply(self, value: &str) -> String {
        if self == Turn::Identity {
            return value.to_string();
        }
        let mut out = String::with_capacity(value.len());
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut String| {
            match parse_triangle(word) {
                Some((col, row)) if col < 20 && row < 20 => {
                    let (x, y) = self.at(col, row);
                    out.push_str(&setup_name(x, y));
                }
                _ => out.push_str(word),
            }
            word.clear();
        };
        for c in value.chars() {
            if c == ',' || c.is_whitespace() {
                flush(&mut word, &mut out);
                out.push(c);
            } else if c == ':' {
                out.push_str(&word);
                out.push(c);
                word.clear();
            } else {
                word.push(c);
            }
        }
        flush(&mut word, &mut out);
        out
    }
}

fn setup_name(x: u8, y: u8) -> String {
    triangle_name(x, y)
}

/// The corner squares `(x, y)` of blue, yellow, red, green in a `Corners`
/// value (20x20).
fn corner_squares(corners: &str) -> Option<[(u8, u8); 4]> {
    let mut out = [None; 4];
    for entry in corners.split(',') {
        let mut parts = entry.split_whitespace();
        let (colour, square) = (parts.next()?, parts.next()?);
        let c = ["blue", "yellow", "red", "green"]
            .iter()
            .position(|n| n.eq_ignore_ascii_case(colour))?;
        let (col, row) = parse_triangle(square)?;
        if col >= 20 || row >= 20 {
            return None;
        }
        *out.get_mut(c)? = Some((col, row));
    }
    let [a, b, c, d] = out;
    Some([a?, b?, c?, d?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_a_tree_and_escapes() {
        let text = "(;GM[ blokus duo ]PB[a\\]b]C[hi];B[e10,e9]C[first](;W[j5];B[x])(;W[k5]))";
        let (t, games) = read_lines(text);
        assert_eq!(games.len(), 2);
        let (g, v) = &games[0];
        assert_eq!(v.as_deref(), Some("1"));
        assert_eq!(g.tags.value("Variant"), Some("duo"));
        assert_eq!(g.tags.value("Purple"), Some("a]b"));
        assert_eq!(g.comment.as_deref(), Some("hi"));
        let moves: Vec<&str> = g.tokens.iter().map(|k| k.text(&t)).collect();
        assert_eq!(moves, ["e10,e9", "j5", "x"]);
        assert_eq!(g.token_comment(0), Some("first"));
        assert!(g.tag_errors.is_empty());
        let (g, v) = &games[1];
        assert_eq!(v.as_deref(), Some("2"));
        assert_eq!(g.tags.value("Purple"), Some("a]b"));
        let moves: Vec<&str> = g.tokens.iter().map(|k| k.text(&t)).collect();
        assert_eq!(moves, ["e10,e9", "k5"]);
        // no branches: no variation path
        let (_, games) = read_lines("(;GM[Blokus Duo];B[e10];W[j5])");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].1, None);
    }

    #[test]
    fn variation_paths_name_the_child_at_each_branch() {
        let text = "(;GM[Blokus](;1[a]
(;2[b];3[c](;4[d])(;4[e])(;4[f]))(;2[g]))(;1[h];2[i]))";
        let (t, games) = read_lines(text);
        let got: Vec<(String, String)> = games
            .iter()
            .map(|(g, v)| {
                let moves: Vec<&str> = g.tokens.iter().map(|k| k.text(&t)).collect();
                (v.clone().unwrap_or_default(), moves.join(" "))
            })
            .collect();
        let want = [
            ("1.1.1", "a b c d"),
            ("1.1.2", "a b c e"),
            ("1.1.3", "a b c f"),
            ("1.2", "a g"),
            ("2", "h i"),
        ];
        assert_eq!(got, want.map(|(a, b)| (a.to_string(), b.to_string())));
    }

    #[test]
    fn streaming_gives_one_game_per_line() {
        let text = "(;GM[Blokus Duo](;B[e10])(;B[e9]))\n(;GM[Nexos](;1[a1])(;1[a2]))";
        let buf = TextBuf::of_str(text);
        let items: Vec<Result<SourceGame, ReadError>> = games(buf).collect();
        assert_eq!(items.len(), 3);
        let games: Vec<&SourceGame> = items.iter().filter_map(|g| g.as_ref().ok()).collect();
        assert_eq!(games[0].variation.as_deref(), Some("1"));
        assert_eq!(games[1].variation.as_deref(), Some("2"));
        assert_eq!(games[1].raw.tokens[0].text(&games[1].text), "e9");
        // a variant gamerec does not play: no game, an error of its own
        // kind naming the line and the variants gamerec reads
        let nexos = items[2].as_ref().unwrap_err();
        assert_eq!(nexos.code, Some("pentobi::unsupported"));
        assert!(nexos.message.starts_with("line 2, column 6: "), "{}", nexos.message);
        assert!(nexos.message.contains("Nexos"));
        assert!(nexos.message.contains("Blokus Trigon Three-Player"));
    }

    #[test]
    fn old_colour_properties_empty_moves_and_one_move_per_node() {
        let (t, games) =
            read("(;GM[Blokus];BLUE[a20];YELLOW[t20][s20];RED[t1];GREEN[a1];1[b19]BLUE[c3])");
        let g = &games[0];
        let moves: Vec<&str> = g.tokens.iter().map(|k| k.text(&t)).collect();
        assert_eq!(moves, ["a20", "t20,s20", "t1", "a1", "b19"]);
        let players: Vec<&str> = g
            .token_players
            .iter()
            .map(|p| p.as_deref().unwrap_or(""))
            .collect();
        assert_eq!(players, ["blue", "yellow", "red", "green", "blue"]);
        assert_eq!(g.tag_errors[0].code, "pentobi::move_ignored");
        // Duo: BLUE and GREEN are its two colours; B[] is a pass
        let (t, games) = read("(;GM[Blokus Duo];BLUE[e10];GREEN[j5];B[];W[k5]RED[a1])");
        let g = &games[0];
        let moves: Vec<&str> = g.tokens.iter().map(|k| k.text(&t)).collect();
        assert_eq!(moves, ["e10", "j5", "pass", "k5"]);
        assert_eq!(g.token_players[2].as_deref(), Some("purple"));
        assert_eq!(g.tag_errors.len(), 1);
    }

    #[test]
    fn setup_before_the_first_move_is_the_start_and_after_it_edits() {
        let (_, games) = read("(;GM[Blokus Duo];AB[e10];AW[j5]PL[W];W[k4])");
        let g = &games[0];
        assert_eq!(g.tags.value("SetupPurple"), Some("e10"));
        assert_eq!(g.tags.value("SetupOrange"), Some("j5"));
        assert_eq!(g.tags.value("First"), Some("orange"));
        assert_eq!(g.tokens.len(), 1);
        assert!(g.stop.is_none());
        // after a move: setup edits, in Pentobi's order, before the
        // node's move; a node of setup only keeps its comment with its
        // last edit
        let (t, games) =
            read("(;GM[Blokus Duo];B[e10];AW[j5]AE[e10]AB[a1][b 2]PL[B]C[c]TE[1];B[d11])");
        let g = &games[0];
        let tokens: Vec<&str> = g.tokens.iter().map(|k| k.text(&t)).collect();
        assert_eq!(tokens, ["e10", "+purple:a1", "+purple:b2", "+orange:j5", "-e10", ">purple", "d11"]);
        let players: Vec<Option<&str>> = g.token_players.iter().map(Option::as_deref).collect();
        assert_eq!(players, [Some("purple"), None, None, None, None, None, Some("purple")]);
        assert!(g.stop.is_none());
        assert_eq!(g.comments, [(5, "c".to_string())]);
        assert_eq!(g.move_props, [(5, "SGF_TE".to_string(), "1".to_string())]);
        assert_eq!(g.tags.get("SetupOrange"), None);
        // AE before the first move: edits from it on, in the root too
        let (t, games) = read("(;GM[Blokus Duo]AB[e10]AE[e10];AW[j5];W[k4])");
        let g = &games[0];
        let tokens: Vec<&str> = g.tokens.iter().map(|k| k.text(&t)).collect();
        assert_eq!(tokens, ["-e10", "+orange:j5", "k4"]);
        assert_eq!(g.tags.value("SetupPurple"), Some("e10"));
    }

    #[test]
    fn a_syntax_error_goes_with_its_line() {
        let (t, games) = read_lines("(;GM[Blokus Duo];B[e10](;W[j5];B[d9])(;W[k4];B[x");
        assert_eq!(games.len(), 2);
        assert!(games[0].0.stop.is_none());
        let moves: Vec<&str> = games[1].0.tokens.iter().map(|k| k.text(&t)).collect();
        assert_eq!(moves, ["e10", "k4"]);
        assert_eq!(
            games[1].0.stop.as_ref().map(|d| d.code.as_ref()),
            Some("pentobi::syntax")
        );
        assert_eq!(games[1].1.as_deref(), Some("2"));
        let (_, games) = read_lines("(;GM[Blokus Duo];B[e10](;W[j5])(;W[k4]");
        assert_eq!(games.len(), 2);
        assert!(games[0].0.stop.is_none());
        assert!(games[1].0.stop.is_some());
    }

    #[test]
    fn deep_and_wide_trees_stay_bounded() {
        // nesting deeper than any call stack: read without recursion
        let deep = format!(
            "(;GM[Blokus Duo]{}{})",
            "(;B[e10]".repeat(100_000),
            ")".repeat(100_000)
        );
        let (_, games) = read(&deep);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tokens.len(), 100_000);
        // a comb (a long line branching at every node): past the budget, one
        // error for the rest of the tree
        let mut comb = String::from("(;GM[Blokus Duo]");
        for _ in 0..300 {
            comb.push_str("(;B[e10])(;B[e10]");
        }
        comb.push_str(&")".repeat(301));
        let got: Vec<SourceGame> = games_within(TextBuf::of_str(&comb), 1 << 16)
            .map(|g| g.unwrap())
            .collect();
        assert!(got.len() < 301, "{}", got.len());
        let last = got.last().unwrap();
        assert_eq!(
            last.raw.stop.as_ref().map(|d| d.code.as_ref()),
            Some("pentobi::too_many_lines")
        );
        let all: Vec<SourceGame> = super::games(TextBuf::of_str(&comb))
            .map(|g| g.unwrap())
            .collect();
        assert_eq!(all.len(), 301);
    }

    #[test]
    fn charsets() {
        assert_eq!(charset(b"(;FF[4]CA[UTF-8]GM[Blokus]"), Charset::Utf8);
        assert_eq!(charset(b"(;CA[ISO-8859-1]"), Charset::Latin1);
        assert_eq!(charset(b"(;CA[latin1]"), Charset::Latin1);
        assert_eq!(charset(b"(;GM[Blokus]"), Charset::Utf8OrLatin1);
        assert_eq!(decode(b"(;PB[Jos\xe9])").unwrap(), "(;PB[Jos\u{e9}])");
        assert_eq!(
            decode("(;PB[Jos\u{e9}])".as_bytes()).unwrap(),
            "(;PB[Jos\u{e9}])"
        );
        assert_eq!(
            decode(b"(;CA[ISO-8859-1]PB[\xc3\xa9])").unwrap(),
            "(;CA[ISO-8859-1]PB[\u{c3}\u{a9}])"
        );
        assert!(decode(b"(;CA[UTF-8]PB[\xe9])").is_err());
        // after UTF-8 text, a byte that is not UTF-8 is an error still
        assert!(decode(b"(;PB[\xc3\xa9]C[\xe9])").is_err());
        // streaming: the same decision a block at a time
        let bytes = b"(;GM[Blokus Duo]PB[Jos\xe9];B[e10])".to_vec();
        let buf = TextBuf::decoded(
            Vec::new(),
            Box::new(std::io::Cursor::new(bytes.clone())),
            1 << 20,
            charset(&bytes),
        );
        let games: Vec<SourceGame> = games(buf).map(|g| g.unwrap()).collect();
        assert_eq!(games[0].raw.tags.value("Purple"), Some("Jos\u{e9}"));
    }

    #[test]
    fn escaped_line_breaks_of_every_kind() {
        for brk in ["\n", "\r\n", "\r", "\n\r"] {
            let text = format!("(;GM[Blokus Duo]C[a\\{brk}b];B[e10])");
            let (_, games) = read(&text);
            assert_eq!(games[0].comment.as_deref(), Some("ab"), "{brk:?}");
        }
    }

    #[test]
    fn result_round_and_tags_in_the_game_comment() {
        let text = r#"(;GM[Blokus Duo]RE[5-3]RO[2]GC[free text
[Annotator "A \\\"B\\\""\]];B[e10])"#;
        let (_, games) = read(text);
        let g = &games[0];
        assert_eq!(g.tags.value("Result"), Some("5-3"));
        assert_eq!(g.tags.value("Round"), Some("2"));
        assert_eq!(g.tags.value("Annotator"), Some("A \"B\""));
        assert_eq!(g.tags.value("SGF_GC"), Some("free text"));
        let (_, games) = read("(;GM[Blokus Duo]RE[B+3];B[e10])");
        assert_eq!(games[0].tags.value("SGF_RE"), Some("B+3"));
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
        let (t, games) = read("(;GM[Blokus]AE[a1];1[a20])");
        let tokens: Vec<&str> = games[0].tokens.iter().map(|k| k.text(&t)).collect();
        assert_eq!(tokens, ["-a1", "a20"]);
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
