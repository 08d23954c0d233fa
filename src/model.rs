//! The document model of `convert --to json|yaml` (spec §3), shared by the JSON
//! and YAML readers and writers and by the gamerec text writer.
//!
//! Field names are a contract. On input, each move's `notation` and the tags
//! are authoritative; everything else is recomputed by replaying. `variant`
//! may be left out on input; when given it must name the variant the tags
//! give (the default without a `Variant` tag), else `record::bad_tag`
//! ([`check_variants`]).
//!
//! Each move may carry `number`: the move number written before it in the
//! record, as written (`"12."`, `"12..."`), absent when none was; the text
//! writer writes it back before the move.
//!
//! On input, the fields written into the game's text are checked first
//! ([`check_moves`]): a `notation` holding anything but move tokens (a
//! comment, a brace, `;`, `[`, a move number, a line break, a result, or
//! nothing) or a `number` that is not one is `record::bad_notation_value`;
//! a move marked `auto: true` that is not a pass, or that no written move
//! follows, is `record::bad_auto_move`. Both point at the value in the
//! JSON/YAML document ([`locate_value`]). A notation that the game reads as
//! more than one move (`f5d6`, `f5 d6`) is `record::bad_notation_value`
//! too, found by the replay (`RawGame::doc_moves`); more passes marked automatic
//! before a move than the engine takes there is `record::bad_auto_move` too,
//! found by the replay (`RawGame::auto_passes`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::diag::Diag;
use crate::record::RawGame;
use crate::replay::GameReport;

/// One converted file: a list of games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Document {
    pub games: Vec<DocGame>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DocGame {
    pub game: String,
    /// The effective variant; optional on input, checked against the tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// Every tag in file order, values always strings.
    pub tags: Vec<(String, String)>,
    /// A comment before the first move.
    #[serde(default)]
    pub comment: Option<String>,
    pub moves: Vec<DocMove>,
    #[serde(default)]
    pub result: Option<DocResult>,
    #[serde(default)]
    pub final_position: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DocMove {
    #[serde(default)]
    pub ply: usize,
    #[serde(default)]
    pub player: String,
    pub notation: String,
    #[serde(default)]
    pub comment: Option<String>,
    /// An automatic pass: taken by the engine, not written in the record.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auto: bool,
    /// A setup edit in the middle of the game (a Blokus `+blue:V3:a1,a2,b2`
    /// from a Pentobi file's inner setup): no ply, `ply` is the plies
    /// before it. Written for information, like the ply: on input the
    /// notation says what the move is.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub setup: bool,
    /// The move number written before the move in the record, as written
    /// (`12.`, `12...`); absent when none was. The text writer writes it back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    /// What the record's format kept with the move that gamerec does not
    /// interpret, by name, each value a string as written (GGF's
    /// `GGF_eval` and `GGF_time`, from `B[f5/-25.99/0.20]`); the writers of
    /// formats that hold them write them back, the others name them as a
    /// loss. Absent when empty.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub props: Map<String, Value>,
    /// The game's structured fields for this move.
    #[serde(flatten)]
    pub extras: Map<String, Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DocResult {
    pub over: bool,
    pub scores: Map<String, Value>,
    pub winners: Vec<String>,
    #[serde(flatten)]
    pub extras: Map<String, Value>,
}

/// The scores of a report keyed by seat, in seat order.
pub fn scores_map(report: &GameReport) -> Map<String, Value> {
    report
        .seats
        .iter()
        .zip(&report.scores)
        .map(|(seat, score)| (seat.to_string(), Value::from(*score)))
        .collect()
}

/// [`DocGame::from_report`] without the copies: the same fields, in the
/// same order, serialized straight from the report, so JSON and YAML get
/// the same bytes as from the [`DocGame`] (a test checks it) without a
/// string copied per move.
#[derive(Serialize)]
pub struct ReportDoc<'a> {
    game: &'a str,
    variant: &'a str,
    tags: &'a [(String, String)],
    comment: &'a Option<String>,
    moves: MovesView<'a>,
    result: ResultView<'a>,
    final_position: &'a [String],
}

impl<'a> ReportDoc<'a> {
    pub fn of(report: &'a GameReport) -> ReportDoc<'a> {
        ReportDoc {
            game: report.game,
            variant: report.variant,
            tags: &report.tags,
            comment: &report.comment,
            moves: MovesView(&report.moves),
            result: ResultView {
                over: report.over,
                scores: scores_map(report),
                winners: &report.winners,
                extras: &report.result_extras,
            },
            final_position: &report.position,
        }
    }
}

struct MovesView<'a>(&'a [crate::replay::MoveRecord]);

impl Serialize for MovesView<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|m| MoveView {
            ply: m.ply,
            player: m.player,
            notation: &m.notation,
            comment: &m.comment,
            auto: m.auto,
            setup: m.setup,
            number: m.number.as_deref(),
            props: PropsView(&m.props),
            extras: &m.extras,
        }))
    }
}

/// A [`DocMove`] borrowed from a report's move.
#[derive(Serialize)]
struct MoveView<'a> {
    ply: usize,
    player: &'a str,
    notation: &'a str,
    comment: &'a Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    auto: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    setup: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    number: Option<&'a str>,
    #[serde(skip_serializing_if = "PropsView::is_empty")]
    props: PropsView<'a>,
    #[serde(flatten)]
    extras: &'a Map<String, Value>,
}

/// A move's kept properties as the map [`DocMove::props`] is.
struct PropsView<'a>(&'a [(String, String)]);

impl PropsView<'_> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for PropsView<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// A [`DocResult`] borrowed from a report.
#[derive(Serialize)]
struct ResultView<'a> {
    over: bool,
    scores: Map<String, Value>,
    winners: &'a [&'static str],
    #[serde(flatten)]
    extras: &'a Map<String, Value>,
}

impl DocMove {
    /// A move given by its notation alone, as on input (the rest is
    /// recomputed by replaying).
    pub fn written(notation: impl Into<String>) -> DocMove {
        DocMove {
            ply: 0,
            player: String::new(),
            notation: notation.into(),
            comment: None,
            auto: false,
            setup: false,
            number: None,
            props: Map::new(),
            extras: Map::new(),
        }
    }
}

impl DocGame {
    /// A game given by its tags and its moves' notations, as on input (no
    /// result or final position: they are recomputed by replaying).
    pub fn written(
        game: &str,
        variant: Option<&str>,
        tags: &[(&str, &str)],
        moves: impl IntoIterator<Item = String>,
    ) -> DocGame {
        DocGame {
            game: game.to_string(),
            variant: variant.map(str::to_string),
            tags: tags
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            comment: None,
            moves: moves.into_iter().map(DocMove::written).collect(),
            result: None,
            final_position: Vec::new(),
        }
    }

    /// The document form of a replayed game (replayed with a sink that records moves).
    pub fn from_report(report: &GameReport) -> DocGame {
        DocGame {
            game: report.game.to_string(),
            variant: Some(report.variant.to_string()),
            tags: report.tags.clone(),
            comment: report.comment.clone(),
            moves: report
                .moves
                .iter()
                .map(|m| DocMove {
                    ply: m.ply,
                    player: m.player.to_string(),
                    notation: m.notation.to_string(),
                    comment: m.comment.clone(),
                    auto: m.auto,
                    setup: m.setup,
                    number: m.number.clone(),
                    props: m
                        .props
                        .iter()
                        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                        .collect(),
                    extras: m.extras.clone(),
                })
                .collect(),
            result: Some(DocResult {
                over: report.over,
                scores: scores_map(report),
                winners: report.winners.iter().map(|w| w.to_string()).collect(),
                extras: report.result_extras.clone(),
            }),
            final_position: report.position.clone(),
        }
    }
}

/// Checks each document game's `variant` against the variant its tags give,
/// once the document is read back as text (`games`, one per document game).
/// A disagreement is a `record::bad_tag` on the `Variant` tag (or the `Game`
/// tag when there is none): an error in a rules tag, so the game stops.
pub fn check_variants(doc: &Document, games: &mut [RawGame]) {
    if doc.games.len() != games.len() {
        return;
    }
    for (d, raw) in doc.games.iter().zip(games) {
        check_variant(d, raw);
    }
}

/// [`check_variants`] for one game.
pub fn check_variant(d: &DocGame, raw: &mut RawGame) {
    let Some(given) = d.variant.as_deref() else {
        return;
    };
    let game_tag = raw.tags.get("Game");
    let name = game_tag.map_or(d.game.as_str(), |t| t.value.as_str());
    let Some(game) = crate::registry::by_name(name) else {
        return;
    };
    let variants = game.variants();
    let index = |v: &str| {
        variants
            .iter()
            .position(|known| known.eq_ignore_ascii_case(v.trim()))
    };
    let tag = raw.tags.get("Variant");
    // An unknown Variant tag is the game's own error.
    let Some(from_tags) = tag.map_or(Some(0), |t| index(&t.value)) else {
        return;
    };
    if index(given) == Some(from_tags) {
        return;
    }
    let effective = variants.get(from_tags).copied().unwrap_or_default();
    let Some(at) = tag.or(game_tag) else {
        return;
    };
    let said = if tag.is_some() {
        format!("the Variant tag says {effective}")
    } else {
        format!("no Variant tag: the {} default, {effective}", game.name())
    };
    raw.tag_errors.push(
        Diag::error(
            "record::bad_tag",
            format!("the document's variant `{given}` disagrees with the tags ({said})"),
        )
        .at(at.span)
        .label(format!("the tags give {effective}"))
        .help(format!(
            "leave `variant` out, or make it and the Variant tag agree ({} variants: {})",
            game.name(),
            variants.join(", ")
        )),
    );
}

/// A document move field the text cannot be written from: the move's
/// index, the field's key, and the diagnostic's code, message and help.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadField {
    pub index: usize,
    pub key: &'static str,
    pub code: &'static str,
    pub message: String,
    pub help: String,
}

/// Checks the fields of a document game's moves that are written into its
/// text (spec §3: `notation` is authoritative on input), before it is
/// written:
/// - `notation` must read as moves and nothing else: no comment, brace,
///   tag, move number, line break or result token may hide in it
///   (`record::bad_notation_value`); the game's notation then judges it;
/// - `number`, when given, is a move number as written (`12.`, `12...`)
///   (`record::bad_notation_value`);
/// - a move marked `auto: true` must be a pass followed by a written move
///   (automatic passes are taken only before a move); anything else is
///   `record::bad_auto_move`, not dropped.
///
/// The first bad field, if any.
pub fn check_moves(game: &DocGame) -> Option<BadField> {
    let bad = |index, key, code, message: String, help: &str| BadField {
        index,
        key,
        code,
        message,
        help: help.to_string(),
    };
    let last_written = game.moves.iter().rposition(|m| !m.auto);
    for (i, m) in game.moves.iter().enumerate() {
        if let Err(why) = crate::record::one_move_text(&m.notation) {
            return Some(bad(
                i,
                "notation",
                "record::bad_notation_value",
                format!(
                    "move {} notation {:?} is not a move: {why}",
                    i + 1,
                    m.notation
                ),
                "write one move in the game's notation, without comments, braces, tags, move numbers or line breaks",
            ));
        }
        if let Some(n) = &m.number {
            let digits = n.trim_end_matches('.');
            if digits.is_empty()
                || digits.len() == n.len()
                || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return Some(bad(
                    i,
                    "number",
                    "record::bad_notation_value",
                    format!("move {} number {n:?} is not a move number", i + 1),
                    "a move number is digits then one or more dots (`12.`, `12...`), or leave `number` out",
                ));
            }
        }
        if m.auto {
            if !m.notation.trim().eq_ignore_ascii_case("pass") {
                return Some(bad(
                    i,
                    "notation",
                    "record::bad_auto_move",
                    format!(
                        "move {} is marked `auto: true` but is `{}`, not a pass",
                        i + 1,
                        m.notation
                    ),
                    "only an automatic pass is marked `auto: true`; remove the mark to play the move",
                ));
            }
            if last_written.is_none_or(|w| w < i) {
                return Some(bad(
                    i,
                    "auto",
                    "record::bad_auto_move",
                    format!(
                        "move {} is marked as an automatic pass, but no move follows it",
                        i + 1
                    ),
                    "an automatic pass is taken only before a move; remove this one",
                ));
            }
        }
    }
    None
}

/// The span of the `nth` (from 0) value of the key `key` in a JSON or YAML
/// document text (its quotes included when quoted): where a
/// [`BadField`] is blamed. `None` when it cannot be found.
pub fn locate_value(text: &str, key: &str, nth: usize) -> Option<crate::span::Span> {
    let bytes = text.as_bytes();
    let mut seen = 0;
    let mut from = 0;
    while let Some(i) = text.get(from..).and_then(|t| t.find(key)) {
        let at = from + i;
        from = at + key.len();
        let before = at.checked_sub(1).and_then(|j| bytes.get(j)).copied();
        let quoted = before == Some(b'"');
        if quoted {
            // a JSON key (not an escaped quote inside a string)
            let b2 = at.checked_sub(2).and_then(|j| bytes.get(j)).copied();
            if b2 == Some(b'\\') || bytes.get(from) != Some(&b'"') {
                continue;
            }
            from += 1;
        } else if !before
            .is_none_or(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'{' | b',' | b'-'))
        {
            continue;
        }
        let mut p = from;
        while matches!(bytes.get(p), Some(b' ' | b'\t')) {
            p += 1;
        }
        if bytes.get(p) != Some(&b':') {
            continue;
        }
        p += 1;
        while matches!(bytes.get(p), Some(b' ' | b'\t')) {
            p += 1;
        }
        if seen < nth {
            seen += 1;
            continue;
        }
        let end = match bytes.get(p) {
            Some(&q @ (b'"' | b'\'')) => {
                let mut j = p + 1;
                while let Some(&b) = bytes.get(j) {
                    if b == b'\\' && q == b'"' {
                        j += 2;
                        continue;
                    }
                    if b == q {
                        break;
                    }
                    j += 1;
                }
                (j + 1).min(bytes.len())
            }
            _ => {
                let rest = text.get(p..).unwrap_or("");
                let flow = !quoted
                    && text.get(..at).is_some_and(|t| {
                        let line = t.rsplit(['\n', '\r']).next().unwrap_or("");
                        line.contains('{')
                    });
                let stop: &[char] = if quoted || flow {
                    &[',', '}', '\n', '\r']
                } else {
                    &['\n', '\r']
                };
                p + rest.find(stop).unwrap_or(rest.len())
            }
        };
        let value = text.get(p..end).unwrap_or("");
        return Some(crate::span::Span::new(p, value.trim_end().len()));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The borrowed view serializes as the document form, byte for byte,
    /// in JSON and YAML (moves with extras, automatic passes, numbers,
    /// comments, result extras).
    #[test]
    fn report_doc_serializes_as_doc_game() {
        let opts = crate::replay::Options::keeping(crate::replay::sink::Record);
        for path in [
            "fixtures/reversi/valid/bom-crlf-comments.gamerec",
            "fixtures/reversi/valid/passes-omitted.gamerec",
            "fixtures/blokus/valid/duo.gamerec",
            "fixtures/qwirkle/valid/full_game_hands_draws.gamerec",
            "fixtures/deblockle/valid/deblockled_pass_omitted.gamerec",
            "fixtures/record/valid/conversion_fidelity.gamerec",
        ] {
            let bytes = std::fs::read(path).unwrap_or_default();
            let Ok(input) = crate::formats::read(path, bytes, None) else {
                panic!("{path}: not read");
            };
            assert!(!input.games.is_empty(), "{path}");
            for raw in &input.games {
                let report = crate::registry::replay(raw, &input.text, &opts);
                let doc = DocGame::from_report(&report);
                let view = ReportDoc::of(&report);
                assert_eq!(
                    serde_json::to_string_pretty(&view).ok(),
                    serde_json::to_string_pretty(&doc).ok(),
                    "{path}"
                );
                assert_eq!(
                    serde_yaml::to_string(&[&view]).ok(),
                    serde_yaml::to_string(&[&doc]).ok(),
                    "{path}"
                );
            }
        }
    }

    fn game(moves: &[(&str, bool)]) -> DocGame {
        let mut g = DocGame::written("reversi", None, &[], moves.iter().map(|m| m.0.to_string()));
        for (m, &(_, auto)) in g.moves.iter_mut().zip(moves) {
            m.auto = auto;
        }
        g
    }

    #[test]
    fn notations_that_hide_text_are_refused() {
        assert_eq!(check_moves(&game(&[("f5", false), ("d6", false)])), None);
        for bad in [
            "f5 {",
            "}",
            "f5 ; x",
            "[Game \"x\"]",
            "1.f5",
            "36-28",
            "f5\nd6",
            "",
        ] {
            let b = check_moves(&game(&[(bad, false)]));
            assert_eq!(
                b.map(|b| (b.index, b.code)),
                Some((0, "record::bad_notation_value")),
                "{bad:?}"
            );
        }
        // a Qwirkle turn spans several tokens
        assert_eq!(check_moves(&game(&[("swap 2 <Rc Bo>", false)])), None);
        let b = check_moves(&game(&[("f5", true), ("d6", false)]));
        assert_eq!(b.map(|b| b.code), Some("record::bad_auto_move"));
        let b = check_moves(&game(&[("f5", false), ("pass", true)]));
        assert_eq!(b.map(|b| (b.index, b.key)), Some((1, "auto")));
        assert_eq!(
            check_moves(&game(&[("f5", false), ("pass", true), ("d6", false)])),
            None
        );
    }

    #[test]
    fn values_are_located_in_json_and_yaml() {
        let json =
            r#"{"moves": [{"notation": "f5"}, {"comment": "\"notation\": x", "notation" : "}"}]}"#;
        let s = locate_value(json, "notation", 1).map(|s| s.text(json));
        assert_eq!(s, Some("\"}\""));
        let yaml = "moves:\n- ply: 1\n  notation: f5\n- { ply: 2, notation: zz, auto: true }\n";
        assert_eq!(
            locate_value(yaml, "notation", 0).map(|s| s.text(yaml)),
            Some("f5")
        );
        assert_eq!(
            locate_value(yaml, "notation", 1).map(|s| s.text(yaml)),
            Some("zz")
        );
        assert_eq!(locate_value(yaml, "notation", 2), None);
    }
}
