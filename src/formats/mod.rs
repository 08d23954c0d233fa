//! Input and output formats: one reader and one writer per format.
//!
//! Every reader yields a file's games one at a time ([`open`]), each a
//! [`SourceGame`]: its text and the container's game, with spans into that
//! text ([`read_with`] collects them into one [`Input`]). For the gamerec
//! format the text is the file itself; for JSON and YAML it is the gamerec
//! text their games are written as (notation is authoritative on input), so
//! everything downstream has one shape. A new format is a module here and an
//! entry in [`Format`].
//!
//! The interchange formats:
//! - [`wthor`] (`.wtb`, binary): the text is synthesized (gamerec text, one
//!   game after the other) and [`Input::byte_map`] maps its spans back to the
//!   bytes of the file, so diagnostics give the byte offset of the offending
//!   move byte (spec §5);
//! - [`transcript`] (`.txt`, one game per line) and [`csv`] (`.csv`, a column
//!   of moves): the text is the file itself; the readers build the games
//!   directly, the moves token being the moves cell;
//! - [`ggf`] (`.ggf`, Generic Game Format of the GGS server): the text is the
//!   file itself, each move token the square inside `B[...]`/`W[...]`;
//! - [`pentobi`] (`.blksgf`, Pentobi's Blokus files, SGF): the text is the
//!   file itself, each move token the squares inside `1[...]`, `B[...]`...;
//! - [`obf`] (`.obf`, Othello board files: Edax's test positions): the text
//!   is the file itself, each line a Reversi record without moves, its
//!   board the `Setup` tag and its moves with their scores the `MoveScores`
//!   tag.
//!
//! Detection: `--from` wins; then the interchange formats by extension
//! (`.wtb`, `.txt`, `.csv`, `.ggf`, `.blksgf`, `.obf`, case-insensitive; a `.txt`
//! whose first non-blank character is `[` is gamerec text); then JSON by a leading
//! `{` followed by `"` (a gamerec file may start with a `{ comment }`), YAML by
//! a top-level `games:` key, Pentobi by a leading `(` and `GM[Blokus` (or
//! Pentobi's `GM[Nexos`, `GM[Callisto`, `GM[GembloQ`) near the start, GGF by
//! a leading `(;`, an `.obf` position by a first line of 64 cells and a side
//! to move; everything else is gamerec text. A Pentobi file is decoded
//! as its `CA` says, Latin-1 when it has none and is not UTF-8
//! ([`pentobi::charset`]).

pub mod csv;
pub mod detect;
pub mod gamerec;
pub mod ggf;
pub mod json;
pub mod obf;
pub mod pentobi;
mod sgf;
pub mod transcript;
pub mod wthor;
pub mod yaml;

use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;

use crate::diag::Diag;
use crate::model::DocGame;
use crate::record::{GameText, RawGame};
use crate::source::{BLOCK, Chunk, MAX_GAME_BYTES, TextBuf};
use crate::span::{Origin, Span};

/// The formats gamerec reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// gamerec text (spec §1).
    Gamerec,
    /// The JSON document `convert --to json` writes.
    Json,
    /// The YAML form of that document.
    Yaml,
    /// WTHOR `.wtb` (the FFO database), binary.
    Wthor,
    /// Othello transcripts (`f5d6c3...`, one game per line).
    Transcript,
    /// CSV exports (eOthello and others).
    Csv,
    /// GGF (GGS, NBoard).
    Ggf,
    /// Pentobi's `.blksgf` game trees.
    Pentobi,
    /// Othello board files (`.obf`, Edax's test positions).
    Obf,
}

impl Format {
    /// Every format, in the order `--from` lists them.
    pub const ALL: &'static [Format] = &[
        Format::Gamerec,
        Format::Json,
        Format::Yaml,
        Format::Wthor,
        Format::Transcript,
        Format::Csv,
        Format::Ggf,
        Format::Pentobi,
        Format::Obf,
    ];

    /// The format's name (`--from`, `source_format`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Gamerec => "gamerec",
            Format::Json => "json",
            Format::Yaml => "yaml",
            Format::Wthor => "wthor",
            Format::Transcript => "transcript",
            Format::Csv => "csv",
            Format::Ggf => "ggf",
            Format::Pentobi => "pentobi",
            Format::Obf => "obf",
        }
    }

    /// The format of a name (`gamerec`, `json`, ...).
    pub fn by_name(name: &str) -> Option<Format> {
        Format::ALL
            .iter()
            .copied()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// File extensions a directory scan picks up (never JSON or YAML).
    /// `.txt`, `.csv` and `.pgn` are read in a scan only when their content is a
    /// record gamerec reads (`detect::sniff`).
    pub fn scanned_extensions() -> &'static [&'static str] {
        &["gamerec", "wtb", "txt", "csv", "pgn", "ggf", "blksgf", "obf"]
    }
}

/// Maps spans of a synthesized text back to byte ranges of the file it was
/// made from (binary formats: spec §5 wants the byte offset of the offending
/// byte). Made of runs: `count` pieces of `text_step` text bytes each, from
/// text offset `text`, the k-th piece standing for the `file_len` bytes at
/// `file + k * file_len`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ByteMap {
    runs: Vec<Run>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    text: usize,
    text_step: usize,
    count: usize,
    file: usize,
    file_len: usize,
}

impl ByteMap {
    /// Adds a run; runs must be added in increasing text order.
    pub fn push(
        &mut self,
        text: usize,
        text_step: usize,
        count: usize,
        file: usize,
        file_len: usize,
    ) {
        if count == 0 || text_step == 0 {
            return;
        }
        self.runs.push(Run {
            text,
            text_step,
            count,
            file,
            file_len,
        });
    }

    /// Appends the runs of `other`, a map of a text placed at offset `at`
    /// after the texts this one maps.
    pub fn append(&mut self, other: &ByteMap, at: usize) {
        self.runs.extend(other.runs.iter().map(|r| Run {
            text: r.text + at,
            ..*r
        }));
    }

    /// The file bytes a text span stands for (by where it starts), if known.
    pub fn map(&self, span: Span) -> Option<Span> {
        let i = self.runs.partition_point(|r| r.text <= span.offset);
        let run = self.runs.get(i.checked_sub(1)?)?;
        let k = (span.offset - run.text) / run.text_step;
        if k >= run.count {
            return None;
        }
        Some(Span::new(run.file + k * run.file_len, run.file_len))
    }
}

/// How to read files: the forced format and the side files of WTHOR.
#[derive(Clone, Debug)]
pub struct ReadOptions {
    /// `--from`.
    pub forced: Option<Format>,
    /// `--players`: the WTHOR players file (default: `WTHOR.JOU` beside the `.wtb`).
    pub players: Option<PathBuf>,
    /// `--tournaments`: the WTHOR tournaments file (default: `WTHOR.TRN` beside it).
    pub tournaments: Option<PathBuf>,
    /// `--max-game-bytes`: the size limit of one game (`record::too_large`).
    pub max_game_bytes: usize,
    /// `--encoding latin1`: text files are ISO-8859-1 (the CLI decodes them
    /// before the readers see them).
    pub latin1: bool,
    /// The games a run keeps (`--tag`, `--player`, `--date`, `--plies`,
    /// `--valid`, `--invalid`), applied by the pipeline
    /// (`pipeline::Filter`); shared by the options' copies, which
    /// see the same tags seen.
    pub filter: Option<std::sync::Arc<crate::filter::Filter>>,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            forced: None,
            players: None,
            tournaments: None,
            max_game_bytes: MAX_GAME_BYTES,
            latin1: false,
            filter: None,
        }
    }
}

/// The file a game comes from, shared by its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileInfo {
    /// The path as given, or `-` for standard input.
    pub name: String,
    /// The format the file is read as.
    pub format: Format,
}

impl Default for FileInfo {
    fn default() -> Self {
        FileInfo {
            name: String::new(),
            format: Format::Gamerec,
        }
    }
}

impl FileInfo {
    /// The name diagnostics show: the file, or what its text was made from.
    pub fn source_name(&self) -> String {
        match self.format {
            Format::Json | Format::Yaml | Format::Wthor => {
                format!(
                    "{} (as gamerec text, from {})",
                    self.name,
                    self.format.name()
                )
            }
            _ => self.name.clone(),
        }
    }
}

/// The text a game's spans point into: the game's own, or the start of a
/// text several games share (the lines of a Pentobi game tree share their
/// tree's text, which none of them copies). It reads as a `str`.
#[derive(Clone, Debug, Default)]
pub struct SourceText {
    own: String,
    /// When shared: the shared text and how much of it is this game's (a
    /// character boundary); `own` is then unused.
    shared: Option<(Arc<str>, usize)>,
}

impl SourceText {
    /// The first `len` bytes of a shared text.
    pub fn shared(text: Arc<str>, len: usize) -> SourceText {
        SourceText {
            own: String::new(),
            shared: Some((text, len)),
        }
    }

    /// Whether the text is shared with other games.
    pub fn is_shared(&self) -> bool {
        self.shared.is_some()
    }

    /// The game's text as its own, to be written in place (a shared text
    /// is copied first).
    pub fn to_mut(&mut self) -> &mut String {
        if let Some((text, len)) = self.shared.take() {
            self.own = text.get(..len).unwrap_or(&text).to_string();
        }
        &mut self.own
    }

    /// The text as a `str`.
    pub fn as_str(&self) -> &str {
        match &self.shared {
            Some((text, len)) => text.get(..*len).unwrap_or(text),
            None => &self.own,
        }
    }

    /// What the text holds in memory, counted once per allocation: the
    /// text's bytes, and for a shared text the key of its allocation (games
    /// that share one text, the lines of a Pentobi tree, hold it once).
    pub fn held(&self) -> (Option<usize>, usize) {
        match &self.shared {
            Some((text, _)) => (Some(Arc::as_ptr(text).cast::<u8>() as usize), text.len()),
            None => (None, self.own.len()),
        }
    }

    /// The text as a `String` of its own.
    pub fn into_string(mut self) -> String {
        std::mem::take(self.to_mut())
    }
}

impl std::ops::Deref for SourceText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl From<String> for SourceText {
    fn from(own: String) -> Self {
        SourceText { own, shared: None }
    }
}

impl PartialEq<str> for SourceText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SourceText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Display for SourceText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One game as a reader yields it: the container's game, the text its spans
/// point into (this game's own text, not the file's) and where that text
/// stands in the file. Nothing else of the file is kept.
#[derive(Clone, Debug, Default)]
pub struct SourceGame {
    /// The file the game comes from.
    pub file: Arc<FileInfo>,
    /// The game's index in its file, from 0.
    pub index: usize,
    /// The game's own text (for binary formats, written as gamerec text), which its spans point into.
    pub text: SourceText,
    /// Where that text stands in the file.
    pub origin: Origin,
    /// The container's game: tags, tokens, comments, spans.
    pub raw: RawGame,
    /// For a text synthesized from a binary file: where its spans come from
    /// in the file. Diagnostics then give file byte offsets, no line/column.
    pub byte_map: Option<ByteMap>,
    /// A WTHOR record not yet written as text: `validate`, `score` and
    /// `convert` hand a clean one's moves to the driver's packed replay
    /// ([`SourceGame::materialize`] writes the text when needed).
    pub record: Option<wthor::Record>,
    /// For a game read from one line of a game tree with branches (Pentobi):
    /// the child taken at each branching node, 1-based (`1.3.2`).
    pub variation: Option<String>,
}

impl SourceGame {
    /// A game of a text format.
    pub fn of(text: impl Into<SourceText>, origin: Origin, raw: RawGame) -> SourceGame {
        SourceGame {
            text: text.into(),
            origin,
            raw,
            ..SourceGame::default()
        }
    }

    /// A piece of a text format over the size limit: an invalid game that
    /// shows where it starts.
    pub fn too_large(chunk: Chunk) -> SourceGame {
        let (text, origin) = match chunk {
            Chunk::Text(t, o) | Chunk::TooLarge(t, o) => (t, o),
        };
        let start = text.len() - text.trim_start().len();
        let span = Span::new(start, usize::from(start < text.len()));
        let raw = RawGame {
            stop: Some(
                Diag::error(
                    "record::too_large",
                    "this game is larger than the size limit of one game",
                )
                .at(span)
                .label("the game that starts here is too large")
                .help("split the game, or raise the limit with --max-game-bytes"),
            ),
            span: Span::new(start, text.len() - start),
            ..RawGame::default()
        };
        SourceGame::of(text, origin, raw)
    }

    /// Writes a WTHOR record's text and container game, when not done yet.
    pub fn materialize(&mut self) {
        if let Some(rec) = self.record.take() {
            let (text, raw, map) = rec.write();
            self.text = text.into();
            self.raw = raw;
            self.byte_map = Some(map);
        }
    }

    /// Replays the game: a WTHOR record's moves through the driver's packed
    /// replay (`crate::replay::packed`), which takes a clean game; else
    /// (and for every other format) through the generic driver.
    pub fn replay(&mut self, opts: &crate::replay::Options) -> crate::replay::GameReport {
        let mut report = crate::replay::GameReport::default();
        self.replay_into(opts, &mut report);
        report
    }

    /// [`SourceGame::replay`] into `report`, an earlier game's, whose room is
    /// reused.
    pub fn replay_into(
        &mut self,
        opts: &crate::replay::Options,
        report: &mut crate::replay::GameReport,
    ) {
        // a WTHOR record is `wof`: another `--variant` is said by the driver
        let wof = opts.variant.as_deref().is_none_or(|v| v.eq_ignore_ascii_case("wof"));
        if let Some(rec) = self.record.as_ref().filter(|_| wof) {
            if rec.replay_packed(opts, report) {
                return;
            }
        }
        self.materialize();
        self.default_variant(opts.variant.as_deref());
        crate::registry::replay_into(&self.raw, &self.text, opts, report);
    }

    /// `--variant`: a game without a `Variant` tag gets one with `variant`
    /// (at the start of the game, no text of its own), as if written; a
    /// game with one keeps it (`record::variant_mismatch` says when it
    /// differs).
    pub fn default_variant(&mut self, variant: Option<&str>) {
        let Some(v) = variant else { return };
        if self.raw.tags.get("Variant").is_some() {
            return;
        }
        let at = crate::span::Span::new(self.raw.span.offset, 0);
        self.raw.tags.0.push(crate::record::Tag {
            name: "Variant".into(),
            value: v.to_string(),
            span: at,
            value_span: at,
        });
    }

    /// How human output names the game: `game 4`, `game 4 (variation 1.3.2)`.
    pub fn label(&self) -> String {
        game_label(self.index, self.variation.as_deref())
    }

    /// Line and column positions of the game's spans in its file.
    pub fn lines(&self) -> crate::span::LineIndex<'_> {
        crate::span::LineIndex::at(&self.text, self.origin)
    }
}

/// How human output names a game: `game 4`, or `game 4 (variation 1.3.2)`
/// for a line of a game tree; numbered from 1 as people count (spec §5),
/// `index` counting from 0.
pub fn game_label(index: usize, variation: Option<&str>) -> String {
    let number = index + 1;
    match variation {
        Some(v) => format!("game {number} (variation {v})"),
        None => format!("game {number}"),
    }
}

/// A file's games, one at a time, in file order; an `Err` item is a problem
/// that ends the file (the games before it stand).
pub type Games<'a> = Box<dyn Iterator<Item = Result<Box<SourceGame>, ReadError>> + 'a>;

/// A format's games before [`wrap`] names and numbers them.
type Inner<'a> = Box<dyn Iterator<Item = Result<Box<SourceGame>, ReadError>> + 'a>;

/// Games handed back once written ([`recycle`]) so that readers refill
/// them instead of allocating: a game box, its text and its container
/// game's buffers. Per thread: the reading thread is the one that recycles.
const POOLED_GAMES: usize = 1024;

thread_local! {
    // the boxes themselves are what is reused: each goes back into the pipeline as it is
    #[allow(clippy::vec_box)]
    static POOL: std::cell::RefCell<Vec<Box<SourceGame>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A game to fill: a recycled one (its text and container game still hold
/// an earlier game, for the reader to overwrite; the other fields are
/// empty), or a new one.
pub(crate) fn pooled() -> Box<SourceGame> {
    POOL.with(|p| p.try_borrow_mut().ok().and_then(|mut p| p.pop()))
        .unwrap_or_default()
}

/// Hands a game back once it is no longer needed: the next game read on
/// this thread reuses its room.
pub fn recycle(mut g: Box<SourceGame>) {
    g.byte_map = None;
    g.record = None;
    g.variation = None;
    g.index = 0;
    g.origin = Origin::default();
    if g.text.is_shared() {
        g.text = SourceText::default();
    }
    let SourceGame { raw, text, .. } = &mut *g;
    raw.trim(text.to_mut());
    POOL.with(|p| {
        if let Ok(mut p) = p.try_borrow_mut() {
            if p.len() < POOLED_GAMES {
                p.push(g);
            }
        }
    });
}

/// Reads the first bytes of a file (format detection looks at them). An
/// error after some bytes ends the head: the reader reading on meets it
/// again (a damaged compressed stream keeps failing), after the games
/// before it.
fn head(reader: &mut dyn Read) -> Result<Vec<u8>, ReadError> {
    let mut head = vec![0u8; BLOCK];
    let mut n = 0;
    while n < head.len() {
        match reader.read(head.get_mut(n..).unwrap_or(&mut [])) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) if n > 0 => break,
            Err(e) => return Err(ReadError::new(format!("cannot read: {e}"))),
        }
    }
    head.truncate(n);
    Ok(head)
}

/// Opens a file's games: detects its format (`--from`, the extension, then
/// the first bytes), then reads one game at a time. `Err` when the file
/// cannot be read as any format.
pub fn open<'a>(
    name: &str,
    mut reader: Box<dyn Read + 'a>,
    opts: &ReadOptions,
) -> Result<(Format, Games<'a>), ReadError> {
    let first = head(&mut reader)?;
    let limit = opts.max_game_bytes;
    if is_wthor(name, opts) {
        let names = wthor::side_files(name, opts)?;
        let games = wthor::games(first, reader, Arc::new(names))?;
        let games = wrap(name, Format::Wthor, Box::new(games), None);
        return Ok((Format::Wthor, games));
    }
    let head_text = String::from_utf8_lossy(&first);
    let (format, chosen) = detect::choose(name, &head_text, opts.forced);
    // a file with something in it must hold a game (spec §2, no silent passes)
    let has_content = !head_text.trim_start_matches('\u{feff}').trim().is_empty();
    let no_games = has_content.then(|| detect::no_games(format, chosen));
    let buf = if format == Format::Pentobi {
        let charset = pentobi::charset(&first);
        TextBuf::decoded(first, reader, limit, charset)
    } else {
        TextBuf::new(first, reader, limit)
    };
    fn boxed<'a>(games: impl Iterator<Item = Result<SourceGame, ReadError>> + 'a) -> Inner<'a> {
        Box::new(games.map(|g| g.map(Box::new)))
    }
    let games: Inner<'a> = match format {
        Format::Gamerec | Format::Wthor => Box::new(gamerec::games(buf)),
        Format::Json => boxed(json::games(buf)),
        Format::Yaml => boxed(yaml::games(buf)?),
        Format::Transcript => boxed(chunked(buf, crate::source::lines(), |t| {
            Ok((None, transcript::read(t)))
        })),
        Format::Csv => boxed(csv::games(buf)),
        Format::Ggf => boxed(ggf::games(buf)),
        Format::Pentobi => boxed(pentobi::games(buf)),
        Format::Obf => boxed(chunked(buf, crate::source::lines(), |t| {
            Ok((None, obf::read(t)))
        })),
    };
    Ok((format, wrap(name, format, games, no_games)))
}

/// The report with the first tag of each name only, when a name repeats
/// (a Pentobi file's repeated `PB` or `EV` reads as two tags): every format
/// gamerec reads refuses a repeated tag (`record::duplicate_tag`), so each
/// tag dropped is noted in `losses` with its value (said as a warning;
/// `--strict`: refused). `None` when no name repeats.
pub fn first_of_each_tag(
    r: &crate::replay::GameReport,
    losses: &mut Losses,
) -> Option<crate::replay::GameReport> {
    let mut names = std::collections::HashSet::with_capacity(r.tags.len());
    if r.tags.iter().all(|(n, _)| names.insert(n.as_str())) {
        return None;
    }
    let mut kept: Vec<(String, String)> = Vec::with_capacity(names.len());
    for (name, value) in &r.tags {
        match kept.iter().find(|(n, _)| n == name) {
            Some((_, first)) => losses.note(format!(
                "the repeated {name} tag `{value}` (a game has one {name} tag: the first, `{first}`, is kept)"
            )),
            None => kept.push((name.clone(), value.clone())),
        }
    }
    let mut r = r.clone();
    r.tags = kept;
    Some(r)
}

/// Where a game holds the NUL character (U+0000), which the text formats
/// (gamerec text, GGF, Pentobi) cannot hold. `convert` refuses such a game
/// for those targets; JSON and YAML escape it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NulAt {
    /// In the tag of this name (in its name or its value).
    Tag(String),
    /// In the comment before the moves.
    Comment,
    /// In the move, or its comment, of this ply (1-based).
    Ply(usize),
}

/// Where `game` holds the NUL character, if anywhere: the first tag, else
/// the comment, else the first move.
pub fn nul_in(game: &DocGame) -> Option<NulAt> {
    let nul = |s: &str| s.contains('\0');
    if let Some((name, _)) = game.tags.iter().find(|(n, v)| nul(n) || nul(v)) {
        return Some(NulAt::Tag(name.clone()));
    }
    if game.comment.as_deref().is_some_and(nul) {
        return Some(NulAt::Comment);
    }
    game.moves
        .iter()
        .position(|m| nul(&m.notation) || m.comment.as_deref().is_some_and(nul))
        .map(|i| NulAt::Ply(i + 1))
}

/// What a writer could not keep of a game (a tag the target format has no
/// place for, a scoring convention it cannot say): `convert` says each as a
/// warning, so that a conversion never drops or changes anything silently.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Losses(Vec<String>);

impl Losses {
    /// Notes one thing the output does not keep, said as a whole phrase
    /// ("the Event tag: GGF has no place for it").
    pub fn note(&mut self, what: impl Into<String>) {
        self.0.push(what.into());
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(String::as_str)
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Notes the moves' kept properties ([`crate::model::DocMove::props`])
    /// the `target` format cannot hold: each name but those `holds` keeps,
    /// with the number of moves that have it.
    pub fn move_props(&mut self, game: &DocGame, target: &str, holds: impl Fn(&str) -> bool) {
        let mut lost: Vec<(&str, usize)> = Vec::new();
        for name in game.moves.iter().flat_map(|m| m.props.keys()) {
            if holds(name) {
                continue;
            }
            match lost.iter_mut().find(|(n, _)| n == name) {
                Some((_, count)) => *count += 1,
                None => lost.push((name, 1)),
            }
        }
        for (name, count) in lost {
            self.note(format!(
                "the {name} of {}: {target} has no place for it",
                crate::diag::plural(count, "move", "moves")
            ));
        }
    }

    /// Notes the move numbers written before the moves
    /// ([`crate::model::DocMove::number`]: `12.`, `12...`), which the
    /// `target` format has no place for: the moves read back without them.
    pub fn move_numbers(&mut self, game: &DocGame, target: &str) {
        let numbered = game.moves.iter().filter(|m| m.number.is_some()).count();
        if numbered > 0 {
            self.note(format!(
                "the move numbers of {}: {target} has no place for them",
                crate::diag::plural(numbered, "move", "moves")
            ));
        }
    }
}

/// A move's kept property `name` as text, when it has one ([`prop_text`]).
pub fn move_prop(m: &crate::model::DocMove, name: &str) -> Option<String> {
    m.props.get(name).map(prop_text)
}

/// A kept property's value as text: a string as it is, another JSON value
/// as JSON.
pub fn prop_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A problem that ends a file: a file-level error, the error of the
/// formats' reading functions ([`open`], `read`, a format's `games`...).
/// Its message is what the CLI prints after the file's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// A code of the contract, when one applies (`record::no_games`).
    pub code: Option<&'static str>,
    /// What is wrong with the file.
    pub message: String,
}

impl ReadError {
    /// An error without a code of the contract.
    pub fn new(message: impl Into<String>) -> ReadError {
        ReadError {
            code: None,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ReadError {}

/// Why a game cannot be written in a format (GGF holds Othello games only,
/// a Pentobi file no Blokus board it has no `GM` for...): the error of the
/// formats' writers. The CLI says its message about the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    /// What keeps the game out of the format.
    pub message: String,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl WriteError {
    /// The error of this message.
    pub fn new(message: impl Into<String>) -> WriteError {
        WriteError {
            message: message.into(),
        }
    }
}

impl std::error::Error for WriteError {}

/// Names a file's games and numbers them; `no_games` is the error to give
/// when the reader finds none.
fn wrap<'a>(
    name: &str,
    format: Format,
    games: Inner<'a>,
    mut no_games: Option<String>,
) -> Games<'a> {
    let file = Arc::new(FileInfo {
        name: name.to_string(),
        format,
    });
    let mut index = 0;
    let mut games = games.fuse();
    Box::new(std::iter::from_fn(move || match games.next() {
        Some(Ok(mut g)) => {
            g.file = Arc::clone(&file);
            g.index = index;
            index += 1;
            Some(Ok(g))
        }
        Some(Err(e)) => {
            no_games = None;
            Some(Err(e))
        }
        None if index == 0 => no_games.take().map(|message| {
            Err(ReadError {
                code: Some("record::no_games"),
                message,
            })
        }),
        None => None,
    }))
}

/// A text format read a piece at a time (a line, a game tree): `read` turns
/// a piece into its games, and may give the text their spans point into
/// when it is not the piece itself.
type PieceReader = fn(&str) -> Result<(Option<String>, Vec<RawGame>), ReadError>;

fn chunked<'a>(
    mut buf: TextBuf<'a>,
    mut ends_after: impl FnMut(u8) -> bool + 'a,
    read: PieceReader,
) -> impl Iterator<Item = Result<SourceGame, ReadError>> + 'a {
    let mut ready: std::collections::VecDeque<Result<SourceGame, ReadError>> = Default::default();
    std::iter::from_fn(move || {
        loop {
            if let Some(g) = ready.pop_front() {
                return Some(g);
            }
            let Some(chunk) = buf.next_chunk(&mut ends_after) else {
                return buf.take_error().map(|e| Err(ReadError::new(e)));
            };
            match chunk {
                Chunk::Text(text, origin) => match read(&text) {
                    Ok((made, games)) => {
                        push_games(made.unwrap_or(text), origin, games, &mut ready);
                    }
                    Err(e) => ready.push_back(Err(e)),
                },
                large => ready.push_back(Ok(SourceGame::too_large(large))),
            }
        }
    })
}

/// Queues the games read from one piece of text, each keeping the piece's
/// text (the last one takes it, the others a copy).
pub(crate) fn push_games(
    mut text: String,
    origin: Origin,
    games: Vec<RawGame>,
    ready: &mut std::collections::VecDeque<Result<SourceGame, ReadError>>,
) {
    let mut games = games.into_iter().peekable();
    while let Some(raw) = games.next() {
        let t = if games.peek().is_some() {
            text.clone()
        } else {
            std::mem::take(&mut text)
        };
        ready.push_back(Ok(SourceGame::of(t, origin, raw)));
    }
}

/// Games made from a document's games (JSON, YAML): each is written as
/// gamerec text (notation is authoritative on input) and read back; the
/// texts stand one after the other as the whole document's text would.
pub(crate) struct FromDoc {
    origin: Origin,
    /// `notation` and `number` values of the document before this game
    /// (YAML: its games are located in the whole document).
    seen: (usize, usize),
}

/// The document text a game is read from, for blaming a field in it: the
/// JSON element of the game, or the whole YAML document (`whole`), and
/// where that text stands in the file.
pub(crate) struct DocText<'t> {
    pub text: &'t str,
    pub origin: Origin,
    pub whole: bool,
}

impl FromDoc {
    pub(crate) fn new() -> FromDoc {
        FromDoc {
            origin: Origin::default(),
            seen: (0, 0),
        }
    }

    /// A game whose moves cannot be written as text
    /// ([`crate::model::check_moves`]): its diagnostic points into the
    /// document.
    fn bad_field(
        &self,
        game: &DocGame,
        bad: crate::model::BadField,
        doc: Option<&DocText>,
    ) -> SourceGame {
        let moves = game.moves.get(..bad.index).unwrap_or(&[]);
        let (before, nth) = match bad.key {
            "number" => (
                self.seen.1,
                moves.iter().filter(|m| m.number.is_some()).count(),
            ),
            // `auto` appears only where given: blame the move's notation
            _ => (self.seen.0, bad.index),
        };
        let (text, origin) = doc.map_or((String::new(), Origin::default()), |d| {
            (d.text.to_string(), d.origin)
        });
        let key = if bad.key == "number" {
            "number"
        } else {
            "notation"
        };
        let nth = if doc.is_some_and(|d| d.whole) {
            before + nth
        } else {
            nth
        };
        let lead = text.len() - text.trim_start().len();
        let span = crate::model::locate_value(&text, key, nth).unwrap_or(Span::new(lead, 0));
        let tag = |name: &str, value: &str| crate::record::Tag {
            name: name.to_string(),
            value: value.to_string(),
            span,
            value_span: span,
        };
        let mut tags = vec![tag("Game", &game.game)];
        tags.extend(
            game.tags
                .iter()
                .filter(|(k, _)| k != "Game")
                .map(|(k, v)| tag(k, v)),
        );
        let raw = RawGame {
            tags: crate::record::Tags(tags),
            stop: Some(
                Diag::error(bad.code, bad.message)
                    .at(span)
                    .label(format!("this `{}` value", bad.key))
                    .help(bad.help),
            ),
            span: Span::new(0, text.len()),
            ..RawGame::default()
        };
        SourceGame::of(text, origin, raw)
    }

    /// The games of one document game (one, unless its text reads as more).
    pub(crate) fn game(&mut self, game: &DocGame, doc: Option<&DocText>) -> Vec<SourceGame> {
        let checked = crate::model::check_moves(game);
        let out = match checked {
            Some(bad) => vec![self.bad_field(game, bad, doc)],
            None => self.written(game),
        };
        self.seen.0 += game.moves.len();
        self.seen.1 += game.moves.iter().filter(|m| m.number.is_some()).count();
        out
    }

    fn written(&mut self, game: &DocGame) -> Vec<SourceGame> {
        // a line break in a tag value cannot be written: it is put back below
        let mut losses = Losses::default();
        let text = gamerec::write_game(game, &mut losses);
        // each marked automatic pass: the written move it stands before
        // and the last token of each written move
        let mut written = 0;
        let mut marked = Vec::new();
        let mut tokens = 0;
        let mut doc_moves = Vec::new();
        // each written move's kept properties, on its last token
        let mut move_props = Vec::new();
        for m in &game.moves {
            if m.auto {
                marked.push(written);
            } else {
                written += 1;
                tokens += m.notation.split_whitespace().count();
                let last = tokens.saturating_sub(1);
                doc_moves.push(last);
                for (name, v) in &m.props {
                    move_props.push((last, name.clone(), prop_text(v)));
                }
            }
        }
        let origin = self.origin;
        self.origin = origin.after(&text).after("\n");
        let mut out = Vec::new();
        let mut reader = crate::record::Reader::new(TextBuf::of_str(&text));
        while let Some(GameText {
            origin: o, mut raw, ..
        }) = reader.next_game()
        {
            raw.shift(o.offset);
            out.push(SourceGame::of(text.clone(), origin, raw));
        }
        if let [one] = &mut out[..] {
            one.raw.auto_passes = marked;
            one.raw.doc_moves = doc_moves;
            one.raw.move_props = move_props;
            crate::model::check_variant(game, &mut one.raw);
            if !losses.is_empty() {
                keep_line_breaks(game, &mut one.raw);
            }
        }
        out
    }
}

/// A document's tag values with line breaks, which its game's text held
/// as spaces, put back in the game read from that text: the value read is
/// the document's (its span is the value in the text).
fn keep_line_breaks(game: &DocGame, raw: &mut RawGame) {
    // the text has a `Game` tag first when the document's tags have none
    let skip = usize::from(!game.tags.iter().any(|(k, _)| k == "Game"));
    for ((name, value), tag) in game.tags.iter().zip(raw.tags.0.iter_mut().skip(skip)) {
        if tag.name == *name && value.contains(['\r', '\n']) {
            tag.value.clone_from(value);
        }
    }
}

/// A file read into games.
#[derive(Clone, Debug)]
pub struct Input {
    /// The path as given, or `-` for standard input.
    pub name: String,
    /// The text the games' spans point into.
    pub text: String,
    pub games: Vec<RawGame>,
    /// The format the file was in.
    pub format: Format,
    /// For a text synthesized from a binary file: where its spans come from
    /// in the file. Diagnostics then give file byte offsets, no line/column.
    pub byte_map: Option<ByteMap>,
}

/// Reads a file's bytes. `Err` for a file that cannot be read as any format.
pub fn read(name: &str, bytes: Vec<u8>, forced: Option<Format>) -> Result<Input, ReadError> {
    read_with(
        name,
        bytes,
        &ReadOptions {
            forced,
            ..ReadOptions::default()
        },
    )
}

/// Whether a file is read as WTHOR (by `--from` or its extension).
pub fn is_wthor(name: &str, opts: &ReadOptions) -> bool {
    opts.forced.or(detect::named(name)) == Some(Format::Wthor)
}

/// Reads a file's bytes with the given options: the games [`open`] yields,
/// collected. Each game's text is appended to [`Input::text`] (WTHOR
/// records written as text first), its spans shifted to point there, and
/// a WTHOR game's byte map joins [`Input::byte_map`]. `Err` for a file
/// that cannot be read as any format, or for the first problem that ends
/// the file (`record::no_games` included).
pub fn read_with(name: &str, bytes: Vec<u8>, opts: &ReadOptions) -> Result<Input, ReadError> {
    let (format, games) = open(name, Box::new(std::io::Cursor::new(bytes)), opts)?;
    let mut input = Input {
        name: name.to_string(),
        text: String::new(),
        games: Vec::new(),
        format,
        byte_map: (format == Format::Wthor).then(ByteMap::default),
    };
    for game in games {
        let mut game = game?;
        game.materialize();
        let at = input.text.len();
        let SourceGame {
            text,
            mut raw,
            byte_map,
            ..
        } = *game;
        raw.shift(at);
        input.text.push_str(&text);
        input.games.push(raw);
        if let (Some(all), Some(map)) = (input.byte_map.as_mut(), byte_map) {
            all.append(&map, at);
        }
    }
    Ok(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_map_runs() {
        let mut m = ByteMap::default();
        m.push(10, 4, 1, 100, 2);
        m.push(20, 2, 3, 200, 1);
        assert_eq!(m.map(Span::new(5, 1)), None);
        assert_eq!(m.map(Span::new(12, 1)), Some(Span::new(100, 2)));
        assert_eq!(m.map(Span::new(14, 1)), None);
        assert_eq!(m.map(Span::new(22, 2)), Some(Span::new(201, 1)));
        assert_eq!(m.map(Span::new(25, 1)), Some(Span::new(202, 1)));
        assert_eq!(m.map(Span::new(26, 1)), None);
    }

    /// Random and cut-short inputs in every format: no panic, no hang.
    #[test]
    fn arbitrary_bytes_never_panic() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let samples: Vec<Vec<u8>> = vec![
            include_bytes!("../../fixtures/wthor/valid/WTH_1978.wtb").to_vec(),
            include_bytes!("../../fixtures/ggf/valid/games.ggf").to_vec(),
            include_bytes!("../../fixtures/pentobi/valid/duo.blksgf").to_vec(),
            include_bytes!("../../fixtures/transcript/valid/othello_dataset.csv").to_vec(),
            include_bytes!("../../fixtures/reversi/obf/valid/fforum-1-19.obf").to_vec(),
        ];
        let opts = crate::replay::Options::default();
        for round in 0..300 {
            let base = &samples[round % samples.len()];
            let mut bytes = base.clone();
            let cut = (next() as usize) % (bytes.len() + 1);
            bytes.truncate(cut);
            for _ in 0..(next() % 8) {
                if bytes.is_empty() {
                    break;
                }
                let i = (next() as usize) % bytes.len();
                bytes[i] = (next() % 256) as u8;
            }
            for f in Format::ALL {
                let forced = ReadOptions {
                    forced: Some(*f),
                    ..ReadOptions::default()
                };
                if let Ok(input) = read_with("x", bytes.clone(), &forced) {
                    for g in &input.games {
                        let _ = crate::registry::replay(g, &input.text, &opts);
                    }
                }
            }
        }
    }

    #[test]
    fn detection_by_extension() {
        assert_eq!(detect::named("a/WTH_1977.WTB"), Some(Format::Wthor));
        assert_eq!(detect::named("x.csv"), None);
        assert_eq!(detect::named("x.gamerec"), Some(Format::Gamerec));
        assert_eq!(detect::named("x"), None);
    }
}
