//! The generic driver: runs any game's [`Rules`] over a container game.
//!
//! It resolves the `Game` tag, builds the start state, asks the notation for
//! typed moves, then replays them: automatic passes (taken only before a move
//! that follows them), `move_after_end`, the first illegal move, the
//! container's own movetext errors in text order, and the `Result` check. The
//! outcome is a game-agnostic [`GameReport`].

use std::marker::PhantomData;

use serde_json::{Map, Value};

use crate::diag::{Diag, Severity};
use crate::game::{Parsed, Rules};
use crate::record::{RawGame, parse_result_scores};

/// What the caller wants from a replay.
#[derive(Clone, Debug)]
pub struct Options {
    /// `--game`: the game of records without a `Game` tag.
    pub game: Option<String>,
    /// Keep a record of every move and the final position (for conversion).
    pub record_moves: bool,
    /// Fill in [`GameReport::result_extras`] (the JSON report and conversion
    /// show them). On by default.
    pub result_extras: bool,
    /// Keep every tag in [`GameReport::tags`] (conversion writes them); when
    /// off, the report keeps only [`describe`]'s text, in
    /// [`GameReport::about`]. On by default.
    pub all_tags: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            game: None,
            record_moves: false,
            result_extras: true,
            all_tags: true,
        }
    }
}

/// One move as replayed.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    pub ply: usize,
    pub player: String,
    pub notation: String,
    pub comment: Option<String>,
    /// Taken by the engine, not written in the record.
    pub auto: bool,
    pub extras: Map<String, Value>,
}

/// Everything a replay found out about one game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameReport {
    /// Normalised game name (empty when it could not be told).
    pub game: String,
    pub variant: String,
    /// Every tag in file order (a `Game` tag first when `--game` supplied it);
    /// none when [`Options::all_tags`] is off.
    pub tags: Vec<(String, String)>,
    /// [`describe`]'s text, when [`Options::all_tags`] is off.
    pub about: Option<String>,
    pub comment: Option<String>,
    pub valid: bool,
    pub plies: usize,
    pub over: bool,
    pub seats: Vec<String>,
    pub scores: Vec<i64>,
    /// Winning seats, once over.
    pub winners: Vec<String>,
    pub result_extras: Map<String, Value>,
    /// Checks that could not be made on this record.
    pub unchecked: Vec<String>,
    pub errors: Vec<Diag>,
    pub warnings: Vec<Diag>,
    pub moves: Vec<MoveRecord>,
    pub position: Vec<String>,
}

impl GameReport {
    fn push(&mut self, d: Diag) {
        match d.severity {
            Severity::Error => self.errors.push(d),
            Severity::Warning => self.warnings.push(d),
        }
    }
}

/// The position at a chosen ply, for `show` and `moves`.
pub struct View {
    pub report: GameReport,
    /// The ply the view stands at.
    pub ply: usize,
    pub board: String,
    pub svg: String,
    pub legal: Result<Vec<String>, String>,
}

/// A game behind a name, its type erased.
pub trait DynGame: Sync {
    fn name(&self) -> &'static str;
    fn aliases(&self) -> &'static [&'static str];
    fn replay(&self, raw: &RawGame, src: &str, opts: &Options) -> GameReport;
    /// Replays up to `ply` plies (the end when `None`) and looks at the position.
    /// `Err(plies)` when `ply` is past the end (`plies` is how many there are).
    fn view(
        &self,
        raw: &RawGame,
        src: &str,
        opts: &Options,
        ply: Option<usize>,
        color: bool,
    ) -> Result<View, usize>;
    fn perft(&self, variant: Option<&str>, depth: u32) -> Result<u64, String>;
    fn perft_players(&self, variant: Option<&str>, players: u8, depth: u32) -> Result<u64, String>;
}

/// The [`DynGame`] of a [`Rules`] type.
pub struct Game<R>(PhantomData<fn() -> R>);

impl<R> Game<R> {
    pub const NEW: Self = Game(PhantomData);
}

impl<R: Rules> DynGame for Game<R> {
    fn name(&self) -> &'static str {
        R::NAME
    }

    fn aliases(&self) -> &'static [&'static str] {
        R::ALIASES
    }

    fn replay(&self, raw: &RawGame, src: &str, opts: &Options) -> GameReport {
        run::<R>(raw, src, opts, None).0
    }

    fn view(
        &self,
        raw: &RawGame,
        src: &str,
        opts: &Options,
        ply: Option<usize>,
        color: bool,
    ) -> Result<View, usize> {
        let (report, state, reached) = run::<R>(raw, src, opts, ply);
        if let Some(want) = ply {
            if want > reached && report.valid {
                return Err(report.plies);
            }
        }
        let (board, svg, legal) = match &state {
            Some(s) => (R::render(s, color), R::svg(s), legal_moves::<R>(s)),
            None => (
                String::new(),
                String::new(),
                Err("the game could not be set up".into()),
            ),
        };
        Ok(View {
            report,
            ply: reached,
            board,
            svg,
            legal,
        })
    }

    fn perft(&self, variant: Option<&str>, depth: u32) -> Result<u64, String> {
        R::perft(variant, depth)
    }

    fn perft_players(&self, variant: Option<&str>, players: u8, depth: u32) -> Result<u64, String> {
        R::perft_players(variant, players, depth)
    }
}

/// The moves `moves` lists (spec §5): nothing once the game is over, `pass`
/// alone when a pass is forced, else the game's legal moves.
fn legal_moves<R: Rules>(state: &R::State) -> Result<Vec<String>, String> {
    if R::is_over(state) {
        return Ok(Vec::new());
    }
    let moves = R::legal_moves(state)?;
    Ok(if moves.is_empty() {
        vec!["pass".to_string()]
    } else {
        moves
    })
}

/// Replays a game whose `Game` tag (or `--game`) names a known game.
pub fn replay(raw: &RawGame, src: &str, opts: &Options) -> GameReport {
    let mut report = match resolve(raw, opts) {
        Ok((game, warnings)) => {
            let mut report = game.replay(raw, src, opts);
            report.warnings.splice(0..0, warnings);
            report
        }
        Err(report) => *report,
    };
    if !opts.all_tags {
        let tags = raw
            .tags
            .0
            .iter()
            .map(|t| (t.name.as_str(), t.value.as_str()));
        report.about = Some(describe_tags(tags, &report.seats));
    }
    report
}

/// Which game a record is, from its `Game` tag or `--game`; the warnings to add
/// (`--game` disagreeing with the tag), or the failed report.
pub fn resolve(
    raw: &RawGame,
    opts: &Options,
) -> Result<(&'static dyn DynGame, Vec<Diag>), Box<GameReport>> {
    let fail = |d: Diag| {
        let mut report = GameReport {
            tags: tag_pairs(raw, None, opts),
            comment: raw.comment.clone(),
            ..GameReport::default()
        };
        for e in &raw.tag_errors {
            report.push(e.clone());
        }
        report.push(d);
        Box::new(report)
    };
    let mut warnings = Vec::new();
    let tag = raw.tags.get("Game");
    let cli = opts.game.as_deref();
    let (name, tag_span) = match (tag, cli) {
        (Some(t), cli) => {
            if let Some(c) = cli {
                let same = crate::games::by_name(c)
                    .zip(crate::games::by_name(&t.value))
                    .is_some_and(|(a, b)| a.name() == b.name());
                if !same {
                    warnings.push(
                        Diag::warning(
                            "record::game_mismatch",
                            format!("--game {c} disagrees with the Game tag; the tag wins"),
                        )
                        .at(t.value_span)
                        .label(format!("this record says {}", t.value)),
                    );
                }
            }
            (t.value.as_str(), Some(t.value_span))
        }
        (None, Some(c)) => (c, None),
        (None, None) => {
            // Point at the game's first tag, or its first move.
            let first = raw
                .tags
                .0
                .first()
                .map(|t| t.span)
                .or_else(|| raw.tokens.first().map(|t| t.span))
                .unwrap_or(crate::span::Span::new(raw.span.offset, 0));
            let d = Diag::error(
                "record::missing_game",
                "the record has no `Game` tag and no --game was given",
            )
            .at(first)
            .label("this game does not say which game it is")
            .help("add a tag such as [Game \"reversi\"], or pass --game reversi");
            return Err(fail(d));
        }
    };
    match crate::games::by_name(name) {
        Some(g) => Ok((g, warnings)),
        None => {
            let known: Vec<&str> = crate::games::REGISTRY.iter().map(|g| g.name()).collect();
            let mut d = Diag::error("record::unknown_game", format!("unknown game `{name}`"))
                .label("not a game gamerec knows")
                .help(format!("known games: {}", known.join(", ")));
            if let Some(s) = tag_span {
                d = d.at(s);
            }
            Err(fail(d))
        }
    }
}

fn tag_pairs(raw: &RawGame, game: Option<&str>, opts: &Options) -> Vec<(String, String)> {
    if !opts.all_tags {
        return Vec::new();
    }
    let mut tags: Vec<(String, String)> = Vec::with_capacity(raw.tags.0.len() + 1);
    if let (None, Some(g)) = (raw.tags.get("Game"), game) {
        tags.push(("Game".into(), g.into()));
    }
    tags.extend(raw.tags.iter().map(|t| (t.name.clone(), t.value.clone())));
    tags
}

/// A claimed result: from the `Result` tag or the final result token.
struct Claim {
    scores: Option<Vec<i64>>,
    span: crate::span::Span,
    what: &'static str,
}

fn read_claim(
    text: &str,
    span: crate::span::Span,
    what: &'static str,
    seats: &[String],
    report: &mut GameReport,
) -> Option<Claim> {
    let text = text.trim();
    if text == "*" {
        return Some(Claim {
            scores: None,
            span,
            what,
        });
    }
    match parse_result_scores(text) {
        Some(scores) if scores.len() == seats.len() => Some(Claim {
            scores: Some(scores),
            span,
            what,
        }),
        Some(scores) => {
            report.push(
                Diag::error(
                    "record::bad_result",
                    format!(
                        "the result gives {} scores, but this game has {} seats",
                        scores.len(),
                        seats.len()
                    ),
                )
                .at(span)
                .label("wrong number of scores")
                .help(format!(
                    "one score per seat, in order: {}",
                    seats.join(", ")
                )),
            );
            None
        }
        None => {
            report.push(
                Diag::error("record::bad_result", format!("`{text}` is not a result"))
                    .at(span)
                    .label("not a result")
                    .help(format!(
                        "write one integer per seat ({}) joined by `-`, or by `, ` when one is negative, or `*`",
                        seats.join(", ")
                    )),
            );
            None
        }
    }
}

/// The replay itself. Returns the report, the state reached (when the game
/// could be set up) and the ply it stands at.
fn run<R: Rules>(
    raw: &RawGame,
    src: &str,
    opts: &Options,
    stop_at: Option<usize>,
) -> (GameReport, Option<R::State>, usize) {
    let mut report = GameReport {
        game: R::NAME.to_string(),
        tags: tag_pairs(raw, Some(R::NAME), opts),
        comment: raw.comment.clone(),
        ..GameReport::default()
    };
    let mut stopped = false;
    for e in &raw.tag_errors {
        let rules_tag = e.code == "record::duplicate_tag"
            && e.span
                .map(|s| s.text(src))
                .is_some_and(|t| is_rules_tag::<R>(t));
        stopped |= rules_tag;
        report.push(e.clone());
    }
    let state = if stopped {
        None
    } else {
        match R::start(&raw.tags) {
            Ok(s) => Some(s),
            Err(diags) => {
                for d in diags {
                    report.push(d.ply(0));
                }
                None
            }
        }
    };
    let Some(mut state) = state else {
        report.valid = false;
        return (report, None, 0);
    };
    report.variant = R::variant(&state);
    report.seats = R::seats(&state);

    let mut claims = Vec::new();
    // lent to read_claim, which also writes to the report
    let seats = std::mem::take(&mut report.seats);
    if let Some(t) = raw.tags.get("Result") {
        claims.extend(read_claim(
            &t.value,
            t.value_span,
            "Result tag",
            &seats,
            &mut report,
        ));
    }
    if let Some(t) = &raw.result_token {
        claims.extend(read_claim(
            t.text(src),
            t.span,
            "result token",
            &seats,
            &mut report,
        ));
    }
    report.seats = seats;

    let parsed = R::parse_moves_in(&state, &raw.tokens, src);
    let mut plies = 0usize;
    let mut failed = false;
    let mut next_comment_token = 0usize;
    let auto_pass = |state: &mut R::State,
                     report: &mut GameReport,
                     plies: &mut usize,
                     at: &Parsed<R::Move>|
     -> bool {
        let pass = Parsed {
            mv: R::pass(),
            span: at.span,
            token: at.token,
        };
        let recorded = opts
            .record_moves
            .then(|| (R::to_move(state), R::move_extras(state, &pass.mv)));
        if R::play(state, &pass, src).is_err() {
            return false;
        }
        *plies += 1;
        if let Some((player, extras)) = recorded {
            report.moves.push(MoveRecord {
                ply: *plies,
                player,
                notation: R::write_move(&pass.mv),
                comment: None,
                auto: true,
                extras,
            });
        }
        true
    };
    // Takes the automatic passes owed before `at`; false when the view's ply is reached.
    let passes_before = |state: &mut R::State,
                         report: &mut GameReport,
                         plies: &mut usize,
                         at: &Parsed<R::Move>,
                         written_pass: bool|
     -> bool {
        while !R::is_over(state) && R::must_pass(state) && !written_pass {
            if stop_at == Some(*plies) {
                return false;
            }
            if !auto_pass(state, report, plies, at) {
                break;
            }
        }
        stop_at != Some(*plies)
    };
    let mut reached_stop = false;
    for (k, pm) in parsed.moves.iter().enumerate() {
        if !passes_before(&mut state, &mut report, &mut plies, pm, R::is_pass(&pm.mv)) {
            reached_stop = true;
            break;
        }
        if R::is_over(&state) {
            report.push(
                Diag::error(
                    format!("{}::move_after_end", R::NAME),
                    "the game is already over",
                )
                .at(pm.span)
                .label("move after the end of the game")
                .help("no move of any kind (pass included) may follow the end; remove it")
                .ply(plies + 1),
            );
            failed = true;
            break;
        }
        if let Some(want) = raw.token_players.get(pm.token).and_then(Option::as_deref) {
            let mover = R::to_move(&state);
            if !want.eq_ignore_ascii_case(&mover) {
                report.push(
                    Diag::error(
                        "record::wrong_player",
                        format!("the record gives this move to {want}, but {mover} is to move"),
                    )
                    .at(pm.span)
                    .label(format!("{mover} to move"))
                    .help(format!(
                        "the move's colour must be the side to move ({mover}); a side with no move passes"
                    ))
                    .ply(plies + 1),
                );
                failed = true;
                break;
            }
        }
        // Who moved and the move's fields, read before the move (for conversion).
        let recorded = opts
            .record_moves
            .then(|| (R::to_move(&state), R::move_extras(&state, &pm.mv)));
        if let Err(d) = R::play(&mut state, pm, src) {
            let d = if d.span.is_none() { d.at(pm.span) } else { d };
            report.push(d.ply(plies + 1));
            failed = true;
            break;
        }
        plies += 1;
        if let Some((player, extras)) = recorded {
            let last_of_token = parsed.moves.get(k + 1).is_none_or(|n| n.token > pm.token);
            let mut comment: Option<String> = None;
            if last_of_token {
                for tok in raw.tokens.get(next_comment_token..=pm.token).unwrap_or(&[]) {
                    if let Some(c) = &tok.comment {
                        match &mut comment {
                            Some(existing) => {
                                existing.push(' ');
                                existing.push_str(c);
                            }
                            None => comment = Some(c.clone()),
                        }
                    }
                }
                next_comment_token = pm.token + 1;
            }
            report.moves.push(MoveRecord {
                ply: plies,
                player,
                notation: R::write_move(&pm.mv),
                comment,
                auto: false,
                extras,
            });
        }
    }
    if !failed && !reached_stop {
        let tail = parsed.error.or_else(|| raw.stop.clone());
        if let Some(d) = tail {
            let at = Parsed {
                mv: R::pass(),
                span: d.span.unwrap_or_default(),
                token: raw.tokens.len(),
            };
            if passes_before(&mut state, &mut report, &mut plies, &at, false) {
                report.push(d.ply(plies + 1));
                failed = true;
            } else {
                reached_stop = true;
            }
        }
    }

    report.plies = plies;
    report.over = R::is_over(&state);
    report.scores = R::scores(&state);
    if opts.result_extras {
        report.result_extras = R::result_extras(&state);
    }
    report.unchecked = R::unchecked(&state);
    if report.over {
        report.winners = R::winners(&state)
            .into_iter()
            .filter_map(|i| report.seats.get(i).cloned())
            .collect();
    }
    if opts.record_moves {
        report.position = R::position_rows(&state);
    }
    if !failed && !reached_stop {
        for claim in claims {
            let Some(claimed) = claim.scores else {
                continue;
            };
            if report.over {
                if claimed != report.scores {
                    let actual = crate::record::format_result(&report.scores);
                    report.push(
                        Diag::error(
                            "record::result_mismatch",
                            format!(
                                "the {} claims {}, but the replay gives {actual}",
                                claim.what,
                                crate::record::format_result(&claimed)
                            ),
                        )
                        .at(claim.span)
                        .label(format!("the final scores are {actual}"))
                        .help(format!(
                            "scores in seat order ({}): {actual}",
                            report.seats.join(", ")
                        )),
                    );
                }
            } else {
                report.push(
                    Diag::warning(
                        "record::result_unchecked",
                        format!(
                            "the {} gives scores, but the game is not over; not checked",
                            claim.what
                        ),
                    )
                    .at(claim.span)
                    .label("game not over")
                    .help("write `*` for an unfinished game"),
                );
            }
        }
    }
    if !failed && !reached_stop {
        if let Some(claim) = &raw.winner_claim {
            let claimed: Vec<String> = claim
                .seats
                .iter()
                .filter_map(|&i| report.seats.get(i).cloned())
                .collect();
            let say = |w: &[String]| {
                if w.len() > 1 {
                    format!("a draw ({})", w.join(", "))
                } else if w.is_empty() {
                    "no winner".to_string()
                } else {
                    w.join("")
                }
            };
            if report.over {
                if claimed != report.winners {
                    let actual = say(&report.winners);
                    report.push(
                        Diag::error(
                            format!("{}::winner_mismatch", R::NAME),
                            format!(
                                "the record says the winner is {} (`{}`), but the replay gives {actual}",
                                say(&claimed),
                                claim.text
                            ),
                        )
                        .at(claim.span)
                        .label(format!("the replay gives {actual}"))
                        .help(format!(
                            "final scores ({}): {}",
                            report.seats.join(", "),
                            crate::record::format_result(&report.scores)
                        )),
                    );
                }
            } else {
                report.push(
                    Diag::warning(
                        "record::result_unchecked",
                        "the record names a winner, but the game is not over; not checked",
                    )
                    .at(claim.span)
                    .label("game not over"),
                );
            }
        }
    }
    report.valid = report.errors.is_empty();
    (report, Some(state), plies)
}

fn is_rules_tag<R: Rules>(tag_text: &str) -> bool {
    let name = tag_text
        .trim_start_matches('[')
        .trim_start()
        .split(|c: char| c.is_whitespace())
        .next()
        .unwrap_or("");
    name == "Game" || name == "Variant" || R::RULES_TAGS.contains(&name)
}

/// The player tags: each game's seat names, capitalised.
const PLAYER_TAGS: [&str; 15] = [
    "Black", "White", "Blue", "Yellow", "Red", "Green", "Purple", "Orange", "Gold", "Player1",
    "Player2", "Player3", "Player4", "Player5", "Player6",
];

/// Whether [`describe`] may read the tag `name` (every game's seats,
/// capitalised, are among the player tags).
pub fn described(name: &str) -> bool {
    name == "Event" || PLAYER_TAGS.contains(&name)
}

/// The description of a game for diagnostics: `Event`, then the players in
/// seat order (player tags are the seat names capitalised: `Black`, `Gold`,
/// `Player1`).
pub fn describe(report: &GameReport) -> String {
    match &report.about {
        Some(about) => about.clone(),
        None => describe_tags(
            report.tags.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            &report.seats,
        ),
    }
}

/// [`describe`] from the tags (name, value) in file order and the seats.
pub fn describe_tags<'a, I>(tags: I, seats: &[String]) -> String
where
    I: Iterator<Item = (&'a str, &'a str)> + Clone,
{
    // measured first, so the text is allocated once
    let mut len = 0;
    describe_pieces(tags.clone(), seats, |piece| len += piece.len());
    if len == 0 {
        return String::new();
    }
    let mut out = String::with_capacity(len);
    describe_pieces(tags, seats, |piece| out.push_str(piece));
    out
}

/// The pieces of [`describe_tags`]'s text, in order.
fn describe_pieces<'a, I>(tags: I, seats: &[String], mut piece: impl FnMut(&'a str))
where
    I: Iterator<Item = (&'a str, &'a str)> + Clone,
{
    let event = tags.clone().find(|&(k, _)| k == "Event").map(|(_, v)| v);
    if let Some(e) = event {
        piece(e);
    }
    let mut players = 0;
    let mut add = |player: &'a str| {
        if players > 0 {
            piece(" vs ");
        } else if event.is_some() {
            piece(", ");
        }
        piece(player);
        players += 1;
    };
    if seats.is_empty() {
        // Before the seats are known (a game that could not be set up), the
        // player tags in file order.
        for (_, v) in tags.filter(|&(k, _)| PLAYER_TAGS.contains(&k)) {
            add(v);
        }
    } else {
        for seat in seats {
            if let Some((_, v)) = tags.clone().find(|&(k, _)| is_capitalised(k, seat)) {
                add(v);
            }
        }
    }
}

/// Whether `name` is `seat` with its first letter in upper case.
fn is_capitalised(name: &str, seat: &str) -> bool {
    match (name.as_bytes().split_first(), seat.as_bytes().split_first()) {
        (Some((n, name_rest)), Some((s, seat_rest))) if s.is_ascii() => {
            *n == s.to_ascii_uppercase() && name_rest == seat_rest
        }
        _ => {
            let mut c = seat.chars();
            match c.next() {
                Some(first) => name.chars().eq(first.to_uppercase().chain(c)),
                None => name.is_empty(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::parse_file;

    /// `describe` gives the same text from the kept tags and from `about`.
    #[test]
    fn about_is_describe_of_the_tags() {
        let brief = Options {
            all_tags: false,
            ..Options::default()
        };
        let text = "[Event \"Club, round 2\"]\n[White \"W\"]\n[Black \"B\"]\n[Game \"reversi\"]\nf5 d6\n\n\
            [Black \"only\"]\n[Game \"reversi\"]\nf5\n\n\
            [Event \"\"]\n[White \"w\"]\n[Game \"nope\"]\n[Gold \"g\"]\nf5\n\n\
            [Game \"reversi\"]\n[Variant \"bad\"]\n[White \"x\"]\n[Black \"y\"]\nf5\n\n\
            [Game \"deblockle\"]\n[Gold \"G\"]\n[Blue \"Bl\"]\n[Event \"E\"]\nf5\n\n\
            [Game \"reversi\"]\nf5\n";
        let games = parse_file(text);
        assert_eq!(games.len(), 6);
        let mut seen = Vec::new();
        for g in &games {
            let full = replay(g, text, &Options::default());
            let lean = replay(g, text, &brief);
            assert!(lean.tags.is_empty());
            assert_eq!(lean.about.as_deref(), Some(describe(&full).as_str()));
            assert_eq!(describe(&lean), describe(&full));
            seen.push(describe(&full));
        }
        assert_eq!(
            seen,
            [
                "Club, round 2, B vs W",
                "only",
                ", w vs g",
                "x vs y",
                "E, G vs Bl",
                ""
            ]
        );
    }

    #[test]
    fn capitalised_seats() {
        assert!(is_capitalised("Black", "black"));
        assert!(is_capitalised("Player2", "player2"));
        assert!(!is_capitalised("black", "black"));
        assert!(!is_capitalised("Blacks", "black"));
        assert!(is_capitalised("Élan", "élan"));
        assert!(is_capitalised("", ""));
        assert!(!is_capitalised("B", ""));
    }
}
