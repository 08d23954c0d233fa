//! A conversion never drops or changes something silently (README,
//! "Formats"): every property of every game comes back from every target
//! that can hold it, or a warning of the conversion names what did not.
//!
//! For every valid fixture (the files under a `valid/` directory and under
//! `fixtures/reversi/obf/` but its `invalid/`: gamerec text, PGN exports,
//! transcripts, CSV, GGF, Pentobi, WTHOR and `.obf` files, each with the
//! arguments its first line declares, [`common::fixture_args`]), for the
//! small real files of `../shared/data/` beside the checkout (skipped when
//! absent), and for every target of `convert --to`:
//!
//! 1. `A = convert FILE --to json`, the reference document;
//! 2. `T = convert FILE --to TARGET -o t.EXT`, its warnings kept, then
//!    `B = convert t.EXT --to json` (the file read back as a user would, by
//!    its extension, the WTHOR names files beside it). A target that cannot
//!    hold a game refuses the conversion (exit 2, `error: not converted:
//!    FILE game N: why`, nothing written): the pair is counted as refused;
//! 3. A and B compared game by game, property by property: the `game` and
//!    `variant`, every tag (name and value; their order too where the
//!    target keeps it: gamerec text, JSON, YAML), the game's comment, every
//!    move's notation, comment, `number`, `auto`, player and kept `props`,
//!    the plies, whether over, the scores, the winners and the final
//!    position. Each difference must be explained by a rule below; one that
//!    is not fails the test with the file, the target, the game, the
//!    property and both values;
//! 4. written by gamerec, read back: `convert t.EXT --to TARGET` gives
//!    `t.EXT` again byte for byte (WTHOR: but the creation date in the
//!    first four bytes of the `.wtb` file and of its names files).
//!
//! What each format keeps, and what its writer says it does not
//! (`warning: FILE game N: not kept in FORMAT: WHAT`):
//! - gamerec text, JSON, YAML: everything, tags in their order (gamerec
//!   text: a line break in a tag value is written as a space, said);
//! - GGF (Reversi): `Black`, `White`, `Site`, `Date`, `Result` (as GGF
//!   scores it), `Size`, `Komi`, `Setup`, `GGF_*` tags, written passes and
//!   each move's `GGF_eval`/`GGF_time`; said: every other tag, the
//!   comments, the move numbers, other moves' props, a `Size` of 8 (read
//!   back as no tag), a `standard` game
//!   (GGF's results give the empty squares to the winner: it reads back
//!   `wof`, its scores so counted), a `Result` GGF cannot write;
//! - WTHOR (8x8 Reversi): `Event`, `Black`, `White` (fitted to their
//!   fields), the year of `Date`, black's score as `Result`,
//!   `TheoreticalScore`; said: every other tag, comments, move numbers,
//!   written passes (read back automatic), props, the `standard` scoring,
//!   a name cut, respelt or trimmed, a missing name (`???`), a date that
//!   is not a year, a `Result` the record does not read back as, a `Size`
//!   of 8 and a `Komi` of 0 (read back as no tag);
//! - transcripts (standard 8x8 Reversi): the moves and, for a game claiming
//!   one, the final disc count; said: the tags, comments, move numbers,
//!   written passes, props, the `wof` variant (read back as
//!   standard: the discs' count);
//! - CSV (standard 8x8 Reversi): the moves and a column per tag of the
//!   first game; said: a later game's tags without a column, a value a
//!   cell does not keep, comments, move numbers, written passes, props;
//! - Pentobi (Blokus Pentobi plays): `Date`, `Event`, `Site`, `Round`, the
//!   players, a `Result` under Pentobi's scoring, the other tags as `GC`
//!   lines, setups, move comments and each move's `SGF_*` props; said: a
//!   scoring other than Pentobi's (rescored: `Scoring "pentobi"`) and a
//!   `Result` under it, corners other than Pentobi's (the board written
//!   reflected onto them), the tags with no place.
//!
//! Loss warnings carry no code (`validate`'s and `convert`'s diagnostics
//! do, `record::result_unchecked`; a loss is a phrase): each rule of
//! [`RULES`] reads the phrases of one kind of loss, for the targets that
//! say it, as a pattern of the phrase's fixed words, `{}` the tag or
//! property it names, `*` anything; what the warning explains is listed
//! with the rule ([`Covers`] and the tags named). A loss warning no rule
//! reads fails the test, so a new or reworded warning needs its rule. No
//! rule excuses a difference it does not name: a warning naming the `Event`
//! tag explains a change of `Event` and nothing else.
//!
//! Besides the warnings, two kinds of difference are the format's design,
//! each a rule of its own ([`by_design`]), none a loss: the same thing
//! spelt the format's way (`game-named`: the `Game` tag naming the same
//! game, `Othello` for `reversi`, or added naming the game the record was
//! read as; `setup-cells`: a Reversi `Setup` giving the same cells and side
//! in GGF's `*`/`O`/`-`), and what the writer works out and the file keeps
//! (`wthor-theoretical-score`: WTHOR's `TheoreticalScore`, searched by the
//! writer, and its `TheoreticalDepth` when not 24; `pentobi-re`: Pentobi's own `RE` of a two-seat game, the lead of
//! its final scores, read back as `SGF_RE`). The tags' order is compared
//! where the target keeps it (gamerec text, JSON, YAML) and nowhere else.
//!
//! Known defects of the Pentobi writer (`src/formats/pentobi.rs`, not
//! changed here) are left out by [`KNOWN_DEFECTS`], each for the one target
//! and kind of difference it makes, and must still be seen (a fixed
//! defect's entry then fails the test, to be removed).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{fixture_args, fixture_files, gamerec, games_of, wof};
use serde_json::Value;

/// A target of `convert --to`: its name, the extension of its files and
/// the name its warnings give it.
struct Target {
    to: &'static str,
    ext: &'static str,
    said: &'static str,
}

const TARGETS: &[Target] = &[
    Target {
        to: "json",
        ext: "json",
        said: "JSON",
    },
    Target {
        to: "yaml",
        ext: "yaml",
        said: "YAML",
    },
    Target {
        to: "gamerec",
        ext: "gamerec",
        said: "gamerec text",
    },
    Target {
        to: "ggf",
        ext: "ggf",
        said: "GGF",
    },
    Target {
        to: "blksgf",
        ext: "blksgf",
        said: "a Pentobi file",
    },
    Target {
        to: "wthor",
        ext: "wtb",
        said: "WTHOR",
    },
    Target {
        to: "transcript",
        ext: "txt",
        said: "a transcript",
    },
    Target {
        to: "csv",
        ext: "csv",
        said: "CSV",
    },
];

/// The targets that keep everything, tags in their order.
const WHOLE: &[&str] = &["json", "yaml", "gamerec"];
/// The targets but those that keep everything.
const LOSSY: &[&str] = &["ggf", "blksgf", "wthor", "transcript", "csv"];
/// Every target.
const ALL: &[&str] = &[
    "json",
    "yaml",
    "gamerec",
    "ggf",
    "blksgf",
    "wthor",
    "transcript",
    "csv",
];

// ---------------------------------------------------------------------------
// The rules: which warning explains which difference
// ---------------------------------------------------------------------------

/// What a warning explains besides the tags it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Covers {
    /// The game's comment and the moves' comments, dropped.
    Comments,
    /// The moves' `number`, dropped.
    MoveNumbers,
    /// The property the warning names (`{}`), dropped from the moves.
    MoveProp,
    /// A written pass read back as an automatic one.
    WrittenPasses,
    /// A `standard` game scored `wof`: the variant and `Variant` tag become
    /// `wof`, the scores those of the empty squares given to the winner (the
    /// winners the same), the `Result` those scores.
    ToWof,
    /// A `wof` game read as standard: the variant becomes `standard` (no
    /// `Variant` tag), the scores the discs' count (the winners the same),
    /// the `Result` those scores.
    ToStandard,
    /// A Blokus game rescored by Pentobi's rules: its `Scoring` tag becomes
    /// `pentobi`, its scores and winners Pentobi's.
    PentobiScoring,
    /// A classic Blokus board written reflected onto Pentobi's corners: the
    /// moves (the same pieces), the setup tags and the final position
    /// reflected, the `Corners` tag Pentobi's.
    Reflected,
}

/// How a rule reads the `{}` of its pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Capture {
    /// No `{}`.
    Nothing,
    /// One tag's name.
    Tag,
    /// Tag names joined by `, `.
    Tags,
    /// A move property's name.
    Prop,
}

/// One kind of loss warning: the targets that say it, the phrase, and what
/// it explains.
struct Rule {
    id: &'static str,
    targets: &'static [&'static str],
    /// The phrase after `not kept in FORMAT: `: fixed words, `{}` the name
    /// captured, `*` any text.
    pattern: &'static str,
    capture: Capture,
    /// The tags it explains besides the one it captures.
    tags: &'static [&'static str],
    covers: &'static [Covers],
}

const fn rule(
    id: &'static str,
    targets: &'static [&'static str],
    pattern: &'static str,
    capture: Capture,
    tags: &'static [&'static str],
    covers: &'static [Covers],
) -> Rule {
    Rule {
        id,
        targets,
        pattern,
        capture,
        tags,
        covers,
    }
}

use Capture::{Nothing, Prop, Tag, Tags};

/// Every loss warning the writers give, and what each explains.
#[rustfmt::skip]
const RULES: &[Rule] = &[
    // a tag the format has no place for: GGF, WTHOR, Pentobi
    rule("tag-dropped", &["ggf", "wthor", "blksgf"], "the {} tag: * has no place for it", Tag, &[], &[]),
    // the tags of a transcript line, a later CSV row's tags without a column
    rule("tags-dropped", &["transcript"], "* ({}): a transcript has no place for tags", Tags, &[], &[]),
    rule("csv-columns", &["csv"], "* ({}): the CSV's columns are the first game's tags", Tags, &[], &[]),
    rule("csv-column-name", &["csv"], "the {} tag: its name cannot be a CSV column", Tag, &[], &[]),
    rule("csv-cell", &["csv"], "the {} tag's value `*`: CSV cells are read trimmed, empty ones left out", Tag, &[], &[]),
    // gamerec text: a line break in a tag value written as a space
    rule("line-break", &["gamerec"], "the line break in the {} tag's value *", Tag, &[], &[]),
    // WTHOR's fixed fields: a name cut or respelt, a missing one, the year
    rule("name-fitted", &["wthor"], "the {} name `*`: *", Tag, &[], &[]),
    rule("name-missing", &["wthor"], "no {} tag: written as `???`", Tag, &[], &[]),
    rule("date-missing", &["wthor"], "no Date tag: *", Nothing, &["Date"], &[]),
    rule("date-year", &["wthor"], "the Date *: *", Nothing, &["Date"], &[]),
    rule("result-stored", &["wthor"], "* a WTHOR record stores black's score, so the game reads back with the Result *", Nothing, &["Result"], &[]),
    rule("theoretical-score", &["wthor"], "the TheoreticalScore *", Nothing, &["TheoreticalScore"], &[]),
    rule("size-komi", &["wthor"], "the {} tag `*`: WTHOR holds 8x8 games without komi only, and reads back without the tag", Tag, &[], &[]),
    rule("size-8", &["ggf"], "the Size tag `*`: GGF's type says 8x8 by the size alone (TY[8]), which reads back as no tag", Nothing, &["Size"], &[]),
    // GGF's results
    rule("result-unwritten", &["ggf"], "the Result tag `*`: not scores GGF can write", Nothing, &["Result"], &[]),
    rule("anti-result", &["ggf"], "the Result tag `*` of an anti game: GGF keeps black's margin only *", Nothing, &["Result", "GGF_RE"], &[]),
    // said with the game after the match, or at the end: of every game (see `said_per_game`)
    rule("match-cut", &["ggf"], "a match of *: only * of it written, as a match of *", Nothing, &["GGF_match"], &[]),
    rule("match-cut", &["ggf"], "the match before this game: a match of *: only * of it written, as a match of *", Nothing, &["GGF_match"], &[]),
    // Pentobi's scoring and corners
    rule("pentobi-result", &["blksgf"], "the Result tag \"*\": its scores are under the * scoring, and a Pentobi file's are Pentobi's", Nothing, &["Result"], &[]),
    rule("pentobi-scoring", &["blksgf"], "the basic scoring (no Scoring tag): a Pentobi file is scored by Pentobi's rules *", Nothing, &["Scoring"], &[Covers::PentobiScoring]),
    rule("pentobi-scoring", &["blksgf"], "the Scoring tag \"*\": a Pentobi file is scored by Pentobi's rules *", Nothing, &["Scoring"], &[Covers::PentobiScoring]),
    rule("pentobi-corners", &["blksgf"], "the corners \"*\": Pentobi's are \"*\", so the board is written * (every square of the moves and the setup)", Nothing, &[], &[Covers::Reflected]),
    // the scoring conventions of the Reversi formats
    rule("to-wof", &["ggf"], "the Variant `standard`: GGF results give the empty squares to the winner (read back, the game is `wof`)", Nothing, &[], &[Covers::ToWof]),
    rule("to-wof", &["wthor"], "the standard scoring: WTHOR *", Nothing, &[], &[Covers::ToWof]),
    rule("to-standard", &["transcript"], "the `wof` variant: a transcript is read as standard Othello *", Nothing, &[], &[Covers::ToStandard]),
    rule("game-spelling", &["transcript", "csv"], "the Game tag's spelling `*`: * is read as `reversi`", Nothing, &["Game"], &[]),
    // comments, move numbers, passes, the moves' kept properties
    rule("comments", &["ggf", "wthor", "transcript", "csv"], "* comment: * has no place for them", Nothing, &[], &[Covers::Comments]),
    rule("comments", &["ggf", "wthor", "transcript", "csv"], "* comments: * has no place for them", Nothing, &[], &[Covers::Comments]),
    rule("move-numbers", LOSSY, "the move numbers of * move*: * has no place for them", Nothing, &[], &[Covers::MoveNumbers]),
    rule("written-passes", &["wthor", "transcript", "csv", "blksgf"], "* written pass*: * leaves passes out (reading it back takes them as automatic passes)", Nothing, &[], &[Covers::WrittenPasses]),
    rule("move-props", &["gamerec", "ggf", "blksgf", "wthor", "transcript", "csv"], "the {} of * move*: * has no place for it", Prop, &[], &[Covers::MoveProp]),
    // said of the reference too (JSON): what every target writes the same way
    rule("branches", ALL, "the game tree's branches: this is its line *, written as a game of its own", Nothing, &[], &[]),
    rule("repeated-tag", ALL, "the repeated {} tag `*` (*)", Tag, &[], &[]),
];

/// The rules whose warnings the reference (`--to json`) may give: what
/// every conversion does alike, so A and B agree on it.
const SAID_OF_THE_REFERENCE: &[&str] = &["branches", "repeated-tag"];

/// Known defects of the Pentobi writer, not changed here, each left out
/// for the one target and kind of difference it makes: `(id, target,
/// difference, what)`. Each must still be seen in the fixtures' run.
const KNOWN_DEFECTS: &[(&str, &str, Covers, &str)] = &[];

/// A loss warning as the rules read it: the rule, and the tags and
/// property it names.
#[derive(Clone)]
struct Said {
    rule: &'static Rule,
    tags: Vec<String>,
    prop: Option<String>,
}

impl Said {
    fn names_tag(&self, name: &str) -> bool {
        self.rule.tags.contains(&name) || self.tags.iter().any(|t| t == name)
    }
}

/// The pieces of a rule's pattern.
enum Piece<'p> {
    Words(&'p str),
    Any,
    Name,
}

fn pieces(pattern: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = pattern;
    while let Some(i) = rest.find(['*', '{']) {
        if i > 0 {
            out.push(Piece::Words(&rest[..i]));
        }
        if rest[i..].starts_with("{}") {
            out.push(Piece::Name);
            rest = &rest[i + 2..];
        } else {
            out.push(Piece::Any);
            rest = &rest[i + 1..];
        }
    }
    if !rest.is_empty() {
        out.push(Piece::Words(rest));
    }
    out
}

/// Whether `text` matches `pieces` whole, the names captured into `out`
/// (each as short as the match allows).
fn matches(pieces: &[Piece<'_>], text: &str, out: &mut Vec<String>) -> bool {
    match pieces.split_first() {
        None => text.is_empty(),
        Some((Piece::Words(w), rest)) => {
            text.strip_prefix(w).is_some_and(|t| matches(rest, t, out))
        }
        Some((piece, rest)) => {
            let name = matches!(piece, Piece::Name);
            for i in (usize::from(name)..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                let kept = out.len();
                if name {
                    out.push(text[..i].to_string());
                }
                if matches(rest, &text[i..], out) {
                    return true;
                }
                out.truncate(kept);
            }
            false
        }
    }
}

/// The rules that read the warning `what` of a conversion to `target`.
fn read(target: &str, what: &str) -> Vec<Said> {
    let mut out = Vec::new();
    for rule in RULES.iter().filter(|r| r.targets.contains(&target)) {
        let mut names = Vec::new();
        if !matches(&pieces(rule.pattern), what, &mut names) {
            continue;
        }
        let name = names.first().cloned().unwrap_or_default();
        out.push(Said {
            rule,
            tags: match rule.capture {
                Tag => vec![name.clone()],
                Tags => name.split(", ").map(String::from).collect(),
                Nothing | Prop => Vec::new(),
            },
            prop: (rule.capture == Prop).then_some(name),
        });
    }
    out
}

/// The loss warnings of a conversion's stderr: the game each names
/// (0-based; `None`: the output as a whole) and what it says.
fn losses_of(stderr: &str, target: &Target) -> Vec<(Option<usize>, String)> {
    let mut out = Vec::new();
    for line in stderr.lines() {
        let Some(rest) = line.strip_prefix("warning: ") else {
            continue;
        };
        let (game, said) = if let Some(said) = rest.strip_prefix("not kept in ") {
            (None, said)
        } else if let Some((head, said)) = rest.split_once(": not kept in ") {
            let n = head
                .rsplit_once(" game ")
                .and_then(|(_, n)| n.parse::<usize>().ok());
            (n.map(|n| n - 1), said)
        } else {
            continue;
        };
        let what = said
            .strip_prefix(target.said)
            .and_then(|w| w.strip_prefix(": "))
            .unwrap_or(said);
        out.push((game, what.to_string()));
    }
    out
}

// ---------------------------------------------------------------------------
// The differences between A and B
// ---------------------------------------------------------------------------

/// Which property differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Game,
    Variant,
    Tag,
    TagOrder,
    Comment,
    Plies,
    Notation,
    MoveComment,
    Number,
    Auto,
    Player,
    MoveProp,
    Over,
    Scores,
    Winners,
    FinalPosition,
}

/// One property of a game that B does not give as A does.
#[derive(Debug)]
struct Diff {
    kind: Kind,
    /// The tag's or move property's name.
    name: String,
    /// The move's ply (from 1).
    ply: usize,
    a: Option<String>,
    b: Option<String>,
}

impl Diff {
    fn describe(&self) -> String {
        let what = match self.kind {
            Kind::Tag => format!("tag {}", self.name),
            Kind::MoveProp => format!("ply {}: prop {}", self.ply, self.name),
            k if self.ply > 0 => format!("ply {}: {k:?}", self.ply),
            k => format!("{k:?}"),
        };
        let show = |v: &Option<String>| v.as_deref().map_or("(none)".into(), |v| format!("`{v}`"));
        format!("{what}: A {} / B {}", show(&self.a), show(&self.b))
    }
}

/// A JSON value as text: a string as it is, `null` as `None`.
fn text(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

fn tags_of(g: &Value) -> Vec<(String, String)> {
    g["tags"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| Some((t[0].as_str()?.to_string(), t[1].as_str()?.to_string())))
        .collect()
}

fn tag<'g>(tags: &'g [(String, String)], name: &str) -> Option<&'g str> {
    tags.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The differences found so far.
#[derive(Default)]
struct Differ(Vec<Diff>);

impl Differ {
    /// A difference of `kind` (at `ply`, of `name`) when `a` and `b` differ.
    fn values(
        &mut self,
        (kind, ply, name): (Kind, usize, &str),
        a: Option<String>,
        b: Option<String>,
    ) {
        if a != b {
            let name = name.to_string();
            self.0.push(Diff {
                kind,
                name,
                ply,
                a,
                b,
            });
        }
    }

    /// The fields `keys` of `a` and `b`, each a property of `kind`, at `ply`.
    fn fields(&mut self, ply: usize, a: &Value, b: &Value, keys: &[(&str, Kind)]) {
        for &(key, kind) in keys {
            self.values((kind, ply, ""), text(&a[key]), text(&b[key]));
        }
    }
}

/// The differences between the reference game `a` and `b`, read back from
/// a target that keeps the tags' order when `ordered`.
fn differences(a: &Value, b: &Value, ordered: bool) -> Vec<Diff> {
    let mut out = Differ::default();
    let game = [
        ("game", Kind::Game),
        ("variant", Kind::Variant),
        ("comment", Kind::Comment),
    ];
    out.fields(0, a, b, &game);
    let (ta, tb) = (tags_of(a), tags_of(b));
    let mut names: Vec<&str> = ta.iter().chain(&tb).map(|(k, _)| k.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    for name in names {
        let (va, vb) = (tag(&ta, name), tag(&tb, name));
        out.values(
            (Kind::Tag, 0, name),
            va.map(String::from),
            vb.map(String::from),
        );
    }
    if ordered {
        let order = |t: &[(String, String)]| {
            Some(
                t.iter()
                    .map(|(k, _)| k.as_str())
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        };
        out.values((Kind::TagOrder, 0, ""), order(&ta), order(&tb));
    }
    move_differences(a, b, &mut out);
    let result = [
        ("over", Kind::Over),
        ("scores", Kind::Scores),
        ("winners", Kind::Winners),
    ];
    out.fields(0, &a["result"], &b["result"], &result);
    out.fields(0, a, b, &[("final_position", Kind::FinalPosition)]);
    out.0
}

/// The differences of the moves, ply by ply (their number first).
fn move_differences(a: &Value, b: &Value, out: &mut Differ) {
    let none = Vec::new();
    let ma = a["moves"].as_array().unwrap_or(&none);
    let mb = b["moves"].as_array().unwrap_or(&none);
    if ma.len() != mb.len() {
        let count = |m: &Vec<Value>| Some(m.len().to_string());
        out.values((Kind::Plies, 0, ""), count(ma), count(mb));
        return;
    }
    let fields = [
        ("notation", Kind::Notation),
        ("comment", Kind::MoveComment),
        ("number", Kind::Number),
        ("player", Kind::Player),
    ];
    let empty = serde_json::Map::new();
    for (i, (x, y)) in ma.iter().zip(mb).enumerate() {
        let ply = i + 1;
        out.fields(ply, x, y, &fields);
        let auto = |m: &Value| Some(m["auto"].as_bool().unwrap_or(false).to_string());
        out.values((Kind::Auto, ply, ""), auto(x), auto(y));
        let props = |m: &Value| m["props"].as_object().unwrap_or(&empty).clone();
        let (pa, pb) = (props(x), props(y));
        let mut names: Vec<&String> = pa.keys().chain(pb.keys()).collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            let (va, vb) = (pa.get(name).and_then(text), pb.get(name).and_then(text));
            out.values((Kind::MoveProp, ply, name), va, vb);
        }
    }
}

// ---------------------------------------------------------------------------
// Explaining a difference
// ---------------------------------------------------------------------------

/// A and B of one game, and the target B was read back from.
struct Pair<'a> {
    target: &'a str,
    a: &'a Value,
    b: &'a Value,
}

impl Pair<'_> {
    /// A move's notation in A.
    fn a_notation(&self, ply: usize) -> &str {
        self.a["moves"][ply - 1]["notation"].as_str().unwrap_or("")
    }

    /// B's scores as a `Result` value.
    fn b_result(&self) -> String {
        let scores: Vec<i64> = self.b["result"]["scores"]
            .as_object()
            .into_iter()
            .flat_map(|s| s.values().filter_map(Value::as_i64))
            .collect();
        gamerec::record::format_result(&scores)
    }
}

/// Whether the warning `said` explains the difference `d`: a tag it
/// names, or what it covers.
fn explains(said: &Said, d: &Diff, p: &Pair<'_>) -> bool {
    (d.kind == Kind::Tag && said.names_tag(&d.name))
        || said
            .rule
            .covers
            .iter()
            .any(|&c| covered(c, d, p, said.prop.as_deref()))
}

/// Whether `d` is a difference of the kind `c` says (`prop`: the move
/// property a warning names).
fn covered(c: Covers, d: &Diff, p: &Pair<'_>, prop: Option<&str>) -> bool {
    let dropped = d.b.is_none();
    match c {
        Covers::Comments => matches!(d.kind, Kind::Comment | Kind::MoveComment) && dropped,
        Covers::MoveNumbers => d.kind == Kind::Number && dropped,
        Covers::MoveProp => d.kind == Kind::MoveProp && prop == Some(d.name.as_str()) && dropped,
        Covers::WrittenPasses => {
            d.kind == Kind::Auto && p.a_notation(d.ply) == "pass" && d.b.as_deref() == Some("true")
        }
        Covers::ToWof => rescored(d, p, "standard", "wof"),
        Covers::ToStandard => rescored(d, p, "wof", "standard"),
        Covers::PentobiScoring => match d.kind {
            Kind::Scores | Kind::Winners => true,
            Kind::Tag => d.name == "Scoring" && d.b.as_deref() == Some("pentobi"),
            _ => false,
        },
        Covers::Reflected => reflected(d),
    }
}

/// Whether `d` is what scoring a Reversi game `to` instead of `from` changes:
/// the variant, the `Variant` tag, the scores as that scoring counts them
/// (the winners are not changed), the `Result` as those scores.
fn rescored(d: &Diff, p: &Pair<'_>, from: &str, to: &str) -> bool {
    let is = |v: &Option<String>, want: &str| v.as_deref() == Some(want);
    match d.kind {
        Kind::Variant => is(&d.a, from) && is(&d.b, to),
        Kind::Tag if d.name == "Variant" => match to {
            "wof" => is(&d.b, "wof"),
            _ => d.b.is_none(),
        },
        Kind::Tag if d.name == "Result" => d.b.is_none() || is(&d.b, &p.b_result()),
        Kind::Scores => {
            let (ra, rb) = (&p.a["result"], &p.b["result"]);
            let want = if to == "wof" {
                let side: i64 = tag(&tags_of(p.a), "Size")
                    .and_then(|s| s.trim().parse().ok())
                    .unwrap_or(8);
                wof(&ra["scores"], side * side)
            } else {
                ra["discs"].clone()
            };
            ra["over"] == Value::Bool(true) && rb["scores"] == want
        }
        _ => false,
    }
}

/// Whether `d` is what writing a classic Blokus board reflected onto
/// Pentobi's corners changes: each move's squares (the same piece), the
/// setup tags, the final position, the `Corners` tag.
fn reflected(d: &Diff) -> bool {
    match d.kind {
        Kind::Notation => {
            let piece = |n: &Option<String>| {
                let n = n.as_deref().unwrap_or("");
                let (name, squares) = n.rsplit_once(':').unwrap_or(("", n));
                (name.to_string(), squares.split(',').count())
            };
            piece(&d.a) == piece(&d.b)
        }
        Kind::Tag if d.name.starts_with("Setup") => true,
        Kind::Tag if d.name == "Corners" => {
            d.b.as_deref() == Some(gamerec::formats::pentobi::PENTOBI_CORNERS)
        }
        Kind::FinalPosition => true,
        _ => false,
    }
}

/// The name of the game a `Game` tag names, as the registry reads it.
fn game_named(value: &str) -> String {
    match value.trim().to_ascii_lowercase().as_str() {
        "othello" => "reversi".to_string(),
        "rumis" => "blokus3d".to_string(),
        other => other.to_string(),
    }
}

/// A Reversi `Setup` as its cells and side: `X` black, `O` white, `.`
/// empty, `b`/`w` to move, whichever spelling (gamerec's `X`/`O`/`.`,
/// GGF's `*`/`O`/`-`).
fn setup_cells(value: &str) -> String {
    value
        .trim()
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c.to_ascii_uppercase() {
            'X' | '*' => 'X',
            '-' | '.' => '.',
            other => other,
        })
        .collect()
}

/// Pentobi's own result of a two-seat game, as its `RE` says it: the first
/// seat's lead (`B+5`), the second's (`W+5`), or `0`.
fn pentobi_re(scores: &Value) -> Option<String> {
    let s: Vec<i64> = scores
        .as_object()?
        .values()
        .filter_map(Value::as_i64)
        .collect();
    let [first, second] = s[..] else { return None };
    Some(match first - second {
        0 => "0".to_string(),
        d if d > 0 => format!("B+{d}"),
        d => format!("W+{}", -d),
    })
}

/// The differences that are the target's design, not a loss (see the
/// module docs): the rule's name when `d` is one.
fn by_design(d: &Diff, p: &Pair<'_>) -> Option<&'static str> {
    let b = d.b.as_deref();
    match (d.kind, d.name.as_str(), p.target) {
        (Kind::Tag, "Game", _) => {
            let game = p.a["game"].as_str().unwrap_or("");
            let names = |v: Option<&str>| v.is_some_and(|v| game_named(v) == game);
            (names(b) && (d.a.is_none() || names(d.a.as_deref()))).then_some("game-named")
        }
        (Kind::Tag, "Setup", "ggf") => {
            let same = d.a.as_deref().map(setup_cells) == b.map(setup_cells);
            same.then_some("setup-cells")
        }
        (Kind::Tag, "TheoreticalScore", "wthor") => {
            let score = b
                .and_then(|v| v.parse::<u8>().ok())
                .is_some_and(|t| t <= 64);
            (d.a.is_none() && score).then_some("wthor-theoretical-score")
        }
        // the depth the writer searched it from, when not the FFO database's
        (Kind::Tag, "TheoreticalDepth", "wthor") => {
            let depth = b
                .and_then(|v| v.parse::<u8>().ok())
                .is_some_and(|t| t != 24);
            (d.a.is_none() && depth).then_some("wthor-theoretical-score")
        }
        (Kind::Tag, "SGF_RE", "blksgf") => {
            let lead = pentobi_re(&p.b["result"]["scores"]);
            (d.a.is_none() && b.is_some() && b == lead.as_deref()).then_some("pentobi-re")
        }
        _ => None,
    }
}

/// The known defect that leaves `d` out, if any.
fn known_defect(d: &Diff, p: &Pair<'_>) -> Option<&'static str> {
    KNOWN_DEFECTS
        .iter()
        .find(|(_, t, c, _)| *t == p.target && covered(*c, d, p, None))
        .map(|(id, ..)| *id)
}

// ---------------------------------------------------------------------------
// Running the matrix
// ---------------------------------------------------------------------------

/// What a run over some files found.
#[derive(Default)]
struct Tally {
    files: usize,
    games: usize,
    /// Pairs (file, target) converted, read back and compared.
    pairs: usize,
    /// Pairs the target refused, by target.
    refused: BTreeMap<&'static str, usize>,
    /// Differences explained, by rule.
    excused: BTreeMap<&'static str, usize>,
    /// Outputs converted again to the same bytes.
    fixed_points: usize,
    /// The rules that read a warning.
    read: std::collections::BTreeSet<&'static str>,
    failures: Vec<String>,
}

impl Tally {
    fn summary(&self) -> String {
        format!(
            "{} files, {} games: {} pairs compared, refused {:?}; {} outputs written again the same; differences explained {:?}",
            self.files, self.games, self.pairs, self.refused, self.fixed_points, self.excused
        )
    }

    fn assert_clean(&self) {
        assert!(
            self.failures.is_empty(),
            "{} failures:\n{}\n\n{}",
            self.failures.len(),
            self.failures.join("\n"),
            self.summary()
        );
    }
}

fn run(args: &[&str]) -> common::Run {
    gamerec(args, b"")
}

/// Checks one file against every target.
fn check_file(file: &Path, tally: &mut Tally) {
    let name = file.display().to_string();
    let args = fixture_args(file);
    let mut argv: Vec<&str> = vec!["convert", "--to", "json"];
    argv.extend(args.iter().map(String::as_str));
    argv.push(&name);
    let reference = run(&argv);
    let games = match (reference.code, games_of(&reference.stdout)) {
        (0, Ok(games)) => games,
        (code, e) => {
            let why = e.err().unwrap_or_default();
            tally.failures.push(format!(
                "{name}: --to json: exit {code} {why}\n{}",
                reference.stderr
            ));
            return;
        }
    };
    let json = &TARGETS[0];
    for (_, what) in losses_of(&reference.stderr, json) {
        let said = read("json", &what);
        if !said
            .iter()
            .any(|s| SAID_OF_THE_REFERENCE.contains(&s.rule.id))
        {
            tally
                .failures
                .push(format!("{name} --to json: the reference loses `{what}`"));
        }
    }
    tally.files += 1;
    tally.games += games.len();
    for target in TARGETS {
        check_pair(file, &args, &games, target, tally);
    }
}

/// Converts `file` to `target`, reads it back and compares (steps 2 to 4).
fn check_pair(file: &Path, args: &[String], a: &[Value], target: &Target, tally: &mut Tally) {
    let name = file.display().to_string();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join(format!("t.{}", target.ext));
    let out_name = out.to_string_lossy().into_owned();
    let mut argv: Vec<&str> = vec!["convert", "--to", target.to];
    argv.extend(args.iter().map(String::as_str));
    argv.extend([name.as_str(), "-o", &out_name]);
    let t = run(&argv);
    if t.code == 2 && t.stderr.contains("error: not converted: ") && !out.exists() {
        *tally.refused.entry(target.to).or_default() += 1;
        return;
    }
    let here = format!("{name} --to {}", target.to);
    if t.code != 0 {
        tally
            .failures
            .push(format!("{here}: exit {}\n{}", t.code, t.stderr));
        return;
    }
    let back = run(&["convert", "--to", "json", &out_name]);
    let b = match (back.code, games_of(&back.stdout)) {
        (0, Ok(b)) if b.len() == a.len() => b,
        (code, b) => {
            let n = b.map_or(0, |b| b.len());
            tally.failures.push(format!(
                "{here}: read back: exit {code}, {n} games of {}\n{}",
                a.len(),
                back.stderr
            ));
            return;
        }
    };
    tally.pairs += 1;
    let said = said_per_game(&here, &t.stderr, target, a.len(), tally);
    for (i, (ga, gb)) in a.iter().zip(&b).enumerate() {
        let pair = Pair {
            target: target.to,
            a: ga,
            b: gb,
        };
        compare_game(&here, i, &pair, &said[i], tally);
    }
    fixed_point(&here, &out, target, tally);
}

/// The loss warnings of a conversion to `target`, as the rules read them,
/// for each of its `games` (a warning naming no game, and a GGF match cut
/// short, said with the game after it: for each); a warning no rule reads
/// is a failure.
fn said_per_game(
    here: &str,
    stderr: &str,
    target: &Target,
    games: usize,
    tally: &mut Tally,
) -> Vec<Vec<Said>> {
    let mut said: Vec<Vec<Said>> = vec![Vec::new(); games];
    for (game, what) in losses_of(stderr, target) {
        let got = read(target.to, &what);
        tally.read.extend(got.iter().map(|s| s.rule.id));
        if got.is_empty() {
            tally
                .failures
                .push(format!("{here}: no rule reads the warning `{what}`"));
        }
        let of_each = got.iter().any(|s| s.rule.id == "match-cut");
        match game {
            Some(g) if g < games && !of_each => said[g].extend(got),
            _ => said.iter_mut().for_each(|s| s.extend(got.iter().cloned())),
        }
    }
    said
}

/// Step 3 for one game: every difference explained, or a failure (the
/// differences of one property at several plies said once, with their
/// count).
fn compare_game(here: &str, i: usize, p: &Pair<'_>, said: &[Said], tally: &mut Tally) {
    let mut unexplained: Vec<(Diff, usize)> = Vec::new();
    for d in differences(p.a, p.b, WHOLE.contains(&p.target)) {
        let why = said
            .iter()
            .find(|s| explains(s, &d, p))
            .map(|s| s.rule.id)
            .or_else(|| by_design(&d, p))
            .or_else(|| known_defect(&d, p));
        match why {
            Some(rule) => *tally.excused.entry(rule).or_default() += 1,
            None => match unexplained
                .iter_mut()
                .find(|(u, _)| u.kind == d.kind && u.name == d.name)
            {
                Some((_, more)) => *more += 1,
                None => unexplained.push((d, 0)),
            },
        }
    }
    let warned: Vec<&str> = said.iter().map(|s| s.rule.id).collect();
    for (d, more) in unexplained {
        let more = if more > 0 {
            format!(" (and at {more} more plies)")
        } else {
            String::new()
        };
        tally.failures.push(format!(
            "{here}, game {}: {}{more}: no warning explains it (warnings read: {warned:?})",
            i + 1,
            d.describe()
        ));
    }
}

/// Step 4: the output converted to its own format again gives the same
/// bytes. WTHOR: but the creation date (the first four bytes of the file
/// and of its names files); the depth of its theoretical scores is read
/// back (`TheoreticalDepth`), so none is given.
fn fixed_point(here: &str, out: &Path, target: &Target, tally: &mut Tally) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let again = dir.path().join(format!("t.{}", target.ext));
    let out_name = out.to_string_lossy().into_owned();
    let again_name = again.to_string_lossy().into_owned();
    let argv: Vec<&str> = vec![
        "convert",
        "--to",
        target.to,
        out_name.as_str(),
        "-o",
        again_name.as_str(),
    ];
    let r = run(&argv);
    if r.code != 0 {
        tally.failures.push(format!(
            "{here}: written again: exit {}\n{}",
            r.code, r.stderr
        ));
        return;
    }
    let mut files: Vec<(PathBuf, PathBuf)> = vec![(out.to_path_buf(), again.clone())];
    if target.to == "wthor" {
        for names in ["WTHOR.JOU", "WTHOR.TRN"] {
            let from = out.with_file_name(names);
            files.push((from, dir.path().join(names)));
        }
    }
    let skip = if target.to == "wthor" { 4 } else { 0 };
    for (first, second) in files {
        let (x, y) = (
            std::fs::read(&first).unwrap_or_default(),
            std::fs::read(&second).unwrap_or_default(),
        );
        if x.get(skip..) != y.get(skip..) || x.is_empty() {
            tally.failures.push(format!(
                "{here}: {} written again differs (or is missing): {} bytes, then {}",
                first.file_name().unwrap_or_default().to_string_lossy(),
                x.len(),
                y.len()
            ));
            return;
        }
    }
    tally.fixed_points += 1;
}

// ---------------------------------------------------------------------------
// The files
// ---------------------------------------------------------------------------

/// The valid fixtures: every file under a `valid/` directory, and those
/// under `fixtures/reversi/obf/` but its `invalid/`.
fn valid_fixtures() -> Vec<PathBuf> {
    fixture_files(Path::new("fixtures"))
        .into_iter()
        .filter(|p| {
            let s = p.to_string_lossy().replace('\\', "/");
            s.contains("/valid/")
                || (s.starts_with("fixtures/reversi/obf/") && !s.contains("/invalid/"))
        })
        .collect()
}

/// The real data beside the checkout.
const SHARED: &str = "../shared/data";

#[test]
fn every_property_of_the_fixtures() {
    let started = std::time::Instant::now();
    let mut tally = Tally::default();
    let files = valid_fixtures();
    assert!(files.len() > 90, "{} fixtures", files.len());
    for file in &files {
        check_file(file, &mut tally);
    }
    for (id, target, kind, what) in KNOWN_DEFECTS {
        assert!(
            tally.excused.contains_key(id),
            "the known defect {id} ({target}, {kind:?}: {what}) is no longer seen: remove it from KNOWN_DEFECTS"
        );
    }
    eprintln!("{} ({:.1?})", tally.summary(), started.elapsed());
    tally.assert_clean();
    assert!(tally.pairs > 300, "{}", tally.summary());
}

/// The small files of the real data beside the checkout (below 2 MB, the
/// WTHOR database's year files below 16 KB: the database as a whole is
/// [`every_property_of_the_wthor_database`]'s); skipped when absent.
#[test]
fn every_property_of_the_shared_data() {
    let files: Vec<PathBuf> = fixture_files(Path::new(SHARED))
        .into_iter()
        .filter(|p| {
            let size = std::fs::metadata(p).map_or(u64::MAX, |m| m.len());
            let database = p.starts_with(common::WTHOR_DIR);
            size < if database { 16 << 10 } else { 2 << 20 }
        })
        .collect();
    if files.is_empty() {
        eprintln!("skipped: no small files in {SHARED}");
        return;
    }
    let mut tally = Tally::default();
    for file in &files {
        check_file(file, &mut tally);
    }
    eprintln!("{}", tally.summary());
    tally.assert_clean();
}

/// A few years of the WTHOR database beside the checkout, a few thousand
/// games each (`cargo test --release --test every_property -- --ignored`).
#[test]
#[ignore = "needs ../shared/data/wthor; a few minutes in a debug build"]
fn every_property_of_the_wthor_database() {
    let Some(years) = common::wthor_years(None) else {
        return;
    };
    let mut tally = Tally::default();
    for year in years.iter().filter(|p| {
        let name = p.to_string_lossy();
        ["1985", "1997", "2009", "2021"]
            .iter()
            .any(|y| name.contains(y))
    }) {
        check_file(year, &mut tally);
    }
    eprintln!("{}", tally.summary());
    tally.assert_clean();
    assert!(tally.files > 0, "{}", tally.summary());
}

/// A JSON document whose game has what the fixtures lack: a line break in
/// a tag value, blanks around a name, a tag whose name a CSV column cannot
/// have, a `TheoreticalScore` out of range, a GGF match left short.
const EDGE_JSON: &str = r#"{"games": [{
  "game": "reversi",
  "tags": [["Event", "two\nlines"], ["Black", "Ann"], ["White", " Ben "],
           ["moves_seen", "3"], ["TheoreticalScore", "99"], ["GGF_match", "1/2"],
           ["Date", "2003.05.01"]],
  "comment": "a game comment",
  "moves": [{"notation": "f5", "number": "1."}, {"notation": "d6"},
            {"notation": "c3", "comment": "a move comment"}, {"notation": "d3"}]
}]}
"#;

/// A game whose `Size` and `Komi` tags say the defaults, and a game after
/// it (a GGF match left short is said with the game after it).
const EDGE_DEFAULTS: &str = "[Game \"reversi\"]\n[Size \"8\"]\n[Komi \"0\"]\n[Black \"Cid\"]\n[GGF_match \"1/2\"]\n\nf5 d6\n\n[Game \"reversi\"]\n\nf5 f6\n";

/// A Pentobi file repeating a property (the reference keeps the first).
const EDGE_PENTOBI: &str = "(;FF[4]CA[UTF-8]GM[Blokus Duo]PB[Ann]PB[Bob]EV[Cup]\n;B[e9,e10,f10,f11,g11]\n;W[j4,j5,k5,k6,l6]\n)\n";

/// What the fixtures lack, in JSON and YAML documents (containers the
/// fixtures do not hold) and a Pentobi file: each rule no fixture reaches
/// must read its warning here, and explain what it says.
#[test]
fn every_property_of_the_edge_cases() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let json = dir.path().join("edge.json");
    std::fs::write(&json, EDGE_JSON).expect("written");
    let yaml = run(&["convert", "--to", "yaml", &json.to_string_lossy()]);
    assert_eq!(yaml.code, 0, "{}", yaml.stderr);
    let yaml_file = dir.path().join("edge.yaml");
    std::fs::write(&yaml_file, &yaml.stdout).expect("written");
    let pentobi = dir.path().join("repeated.blksgf");
    std::fs::write(&pentobi, EDGE_PENTOBI).expect("written");
    let defaults = dir.path().join("defaults.gamerec");
    std::fs::write(&defaults, EDGE_DEFAULTS).expect("written");
    let mut tally = Tally::default();
    for file in [&json, &yaml_file, &pentobi, &defaults] {
        check_file(file, &mut tally);
    }
    eprintln!("{}", tally.summary());
    tally.assert_clean();
    for id in [
        "line-break",
        "name-fitted",
        "csv-column-name",
        "csv-cell",
        "theoretical-score",
        "match-cut",
        "repeated-tag",
        "size-komi",
        "size-8",
    ] {
        assert!(
            tally.read.contains(id),
            "no warning read by {id}: {:?}",
            tally.read
        );
    }
}
