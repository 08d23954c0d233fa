//! What every fuzz target checks, in one place.
//!
//! A reader's target hands its bytes to [`read`] with the format forced; a
//! game notation's target hands them to [`notation`], which reads them as
//! gamerec text after a `Game` tag of its game (the input may add tags of
//! its own: a variant, players, a start). Either way:
//!
//! - reading, replaying and writing never panic (libFuzzer reports a panic
//!   as a crash) and stay within the memory `-rss_limit_mb` allows;
//! - every game that replays valid is converted as `convert` converts it,
//!   to JSON, YAML and gamerec text, and each conversion is read back: it
//!   must read as one game, valid, with the same game, variant, tags,
//!   comments, moves (notation, move number, comment, automatic or not),
//!   end, scores and winners. A difference panics with both games shown.
//!   What `convert` itself changes, and says it changes, is changed first
//!   the same way: a repeated tag keeps its first value
//!   (`formats::first_of_each_tag`); a game holding a NUL is not written as
//!   text (`formats::nul_in`: `convert` refuses it); a line break in a tag
//!   value is written as a space in gamerec text (a loss the writer notes).

use std::io::Cursor;

use gamerec::formats::{self, Format, Losses, ReadOptions, SourceGame};
use gamerec::model::{DocGame, ReportDoc};
use gamerec::replay::{GameReport, Options};

/// The name a format's input is read under: nothing beside it (no WTHOR
/// side files), the extension of its format.
fn file_name(format: Format) -> &'static str {
    match format {
        Format::Gamerec => "/nonexistent/fuzz.gamerec",
        Format::Json => "/nonexistent/fuzz.json",
        Format::Yaml => "/nonexistent/fuzz.yaml",
        Format::Wthor => "/nonexistent/fuzz.wtb",
        Format::Transcript => "/nonexistent/fuzz.txt",
        Format::Csv => "/nonexistent/fuzz.csv",
        Format::Ggf => "/nonexistent/fuzz.ggf",
        Format::Pentobi => "/nonexistent/fuzz.blksgf",
        Format::Obf => "/nonexistent/fuzz.obf",
    }
}

/// Reads `bytes` as `format`: every game replayed, the valid ones converted
/// and read back.
pub fn read(format: Format, bytes: &[u8]) {
    let opts = ReadOptions {
        forced: Some(format),
        ..ReadOptions::default()
    };
    let Ok((_, games)) = formats::open(
        file_name(format),
        Box::new(Cursor::new(bytes.to_vec())),
        &opts,
    ) else {
        return;
    };
    for game in games {
        let Ok(mut game) = game else { break };
        check_game(&mut game);
    }
}

/// Reads `bytes` (UTF-8, else nothing to do) as the movetext of a record of
/// `game`, after its `Game` tag: the input may begin with more tags.
pub fn notation(game: &str, bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    read(
        Format::Gamerec,
        format!("[Game \"{game}\"]\n{text}").as_bytes(),
    );
}

/// The replay `convert` makes.
fn convert_options() -> Options {
    Options::keeping(gamerec::replay::sink::Record)
}

/// Replays a game; a valid one is written in each text format and read back.
fn check_game(game: &mut SourceGame) {
    let replayed = game.replay(&convert_options());
    if !replayed.valid {
        return;
    }
    let mut losses = Losses::default();
    let deduped = formats::first_of_each_tag(&replayed, &mut losses);
    let report = deduped.as_ref().unwrap_or(&replayed);
    let doc = DocGame::from_report(report);
    let json = json_of(report);
    read_back(report, Format::Json, &json);
    let yaml = yaml_of(report);
    read_back(report, Format::Yaml, &yaml);
    if formats::nul_in(&doc).is_some() {
        return;
    }
    let mut text_losses = Losses::default();
    let text = formats::gamerec::write_game(&doc, &mut text_losses);
    if text_losses.is_empty() {
        read_back(report, Format::Gamerec, &text);
    } else {
        read_back(&with_spaces_for_line_breaks(report), Format::Gamerec, &text);
    }
}

/// The report as gamerec text keeps it: line breaks in tag values written
/// as spaces (a CR LF as one space).
fn with_spaces_for_line_breaks(report: &GameReport) -> GameReport {
    let mut r = report.clone();
    for (_, value) in &mut r.tags {
        *value = value.replace("\r\n", " ").replace(['\r', '\n'], " ");
    }
    r
}

/// The JSON document `convert --to json` writes for one game.
fn json_of(report: &GameReport) -> String {
    let mut out = b"{\n  \"games\": [\n    ".to_vec();
    formats::json::write_report(&mut out, report, 4);
    out.extend_from_slice(b"\n  ]\n}\n");
    String::from_utf8_lossy(&out).into_owned()
}

/// The YAML document `convert --to yaml` writes for one game.
fn yaml_of(report: &GameReport) -> String {
    match serde_yaml::to_string(&[ReportDoc::of(report)]) {
        Ok(item) => format!("games:\n{item}"),
        Err(e) => panic!("the YAML writer fails: {e}: {report:#?}"),
    }
}

/// Reads `written` (a conversion of `original`'s game to `format`) and
/// panics unless it is that one game again.
fn read_back(original: &GameReport, format: Format, written: &str) {
    let opts = ReadOptions {
        forced: Some(format),
        ..ReadOptions::default()
    };
    let fail = |why: &str| -> ! {
        panic!(
            "{} conversion does not read back: {why}\n--- written:\n{written}\n--- original: {original:#?}",
            format.name()
        )
    };
    let games = match formats::open(
        file_name(format),
        Box::new(Cursor::new(written.as_bytes().to_vec())),
        &opts,
    ) {
        Ok((_, games)) => games,
        Err(e) => fail(&e.message),
    };
    let mut back = Vec::new();
    for game in games {
        match game {
            Ok(mut g) => back.push(g.replay(&convert_options())),
            Err(e) => fail(&e.message),
        }
    }
    let [again] = &back[..] else {
        fail(&format!("{} games read", back.len()))
    };
    if !again.valid {
        fail(&format!("invalid: {:#?}", again.errors));
    }
    if let Some(what) = difference(original, again) {
        fail(&format!("{what} differ; read back: {again:#?}"));
    }
}

/// What differs between a game and its conversion read back, if anything.
fn difference(a: &GameReport, b: &GameReport) -> Option<&'static str> {
    let moves = |r: &GameReport| -> Vec<(String, Option<String>, Option<String>, bool)> {
        r.moves
            .iter()
            .map(|m| {
                (
                    m.notation.to_string(),
                    m.number.clone(),
                    m.comment.clone(),
                    m.auto,
                )
            })
            .collect()
    };
    [
        (a.game != b.game, "games"),
        (a.variant != b.variant, "variants"),
        (a.tags != b.tags, "tags"),
        (a.comment != b.comment, "comments before the moves"),
        (moves(a) != moves(b), "moves"),
        (a.plies != b.plies, "plies"),
        (a.over != b.over, "ends"),
        (a.scores != b.scores, "scores"),
        (a.winners != b.winners, "winners"),
    ]
    .into_iter()
    .find_map(|(differs, what)| differs.then_some(what))
}
