//! The run of one game, in the steps of spec §5 (see the module's front).

use super::claims::{Claim, read_claim};
use super::describe::PLAYER_TAGS;
use super::report::{GameReport, MoveRecord, Options};
use super::scratch;
use super::visit::Visitor;
use crate::diag::{Diag, Severity, plural};
use crate::game::{MoveOf, Parsed, Position, Rules};
use crate::record::RawGame;
use crate::span::Span;

pub(crate) fn tag_pairs(
    raw: &RawGame,
    game: Option<&str>,
    opts: &Options,
) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    tag_pairs_into(&mut tags, raw, game, opts);
    tags
}

/// [`tag_pairs`] into `tags` (empty).
pub(super) fn tag_pairs_into(
    tags: &mut Vec<(String, String)>,
    raw: &RawGame,
    game: Option<&str>,
    opts: &Options,
) {
    if !opts.all_tags() {
        return;
    }
    tags.reserve(raw.tags.0.len() + 1);
    if let (None, Some(g)) = (raw.tags.get("Game"), game) {
        tags.push(("Game".into(), g.into()));
    }
    tags.extend(raw.tags.iter().map(|t| (t.name.clone(), t.value.clone())));
}

/// The replay, in the steps of spec §5: the tags, the start, the moves with
/// their automatic passes, the end of the movetext, then the result checks.
/// The verdict is written into `report` (an earlier game's: its room is
/// reused; it is filled in place, never moved); `visitor` sees each step
/// and keeps what its command needs ([`Visitor`]). The replay runs to the
/// end, so an illegal move after a position a visitor looks at is
/// reported. Returns the final state (the position before the move that
/// failed), `None` when the game could not be set up.
pub fn run<R: Rules, V: Visitor<R>>(
    raw: &RawGame,
    src: &str,
    visitor: &mut V,
    report: &mut GameReport,
) -> Option<R::Position> {
    report.reset();
    report.game = R::NAME;
    visitor.tags(report, raw, src);
    report.comment.clone_from(&raw.comment);
    let search = visitor.check_scores();
    let (state, seats, result_tag) = tags::<R>(raw, src, report, search);
    let Some(state) = state else {
        report.valid = false;
        return None;
    };
    report.variant = Position::variant(&state);
    report.seats = seats.unwrap_or_else(|| Position::seats(&state));
    let mut replay = Replay::<R, V> {
        raw,
        src,
        records: visitor.records_moves(),
        watched: visitor.watches_positions(),
        visitor,
        report,
        state,
        plies: 0,
        next_comment_token: 0,
    };
    replay.played(None);
    // the parsed moves go into this thread's buffer for the game's moves
    let mut moves: Vec<Parsed<MoveOf<R>, R::Spans>> = scratch::take();
    let error = R::parse_moves_into(&replay.state, &raw.tokens, src, &mut moves);
    let split = split_document_move::<R>(raw, src, &moves);
    let failed = match split {
        None => replay.moves(&moves).is_err() || replay.movetext_end(error, moves.last()).is_err(),
        Some((k, d)) => {
            if replay.moves(moves.get(..k).unwrap_or(&[])).is_ok() {
                let ply = replay.plies + 1;
                replay.report.push(d.ply(ply));
            }
            true
        }
    };
    scratch::give(moves);
    let token_claim = raw.result_token.as_ref().and_then(|t| {
        read_claim(
            t.text(src),
            t.span,
            "result token",
            Some(replay.report.seats),
        )
        .map_err(|d| replay.report.push(d))
        .ok()
    });
    replay.finish();
    if !failed {
        replay.check_claims([result_tag, token_claim]);
        replay.check_winner_claim();
    }
    let report = replay.report;
    report.valid = report.errors.is_empty();
    Some(replay.state)
}

/// A document (JSON, YAML) move whose notation reads as more or less than
/// one move of the game (`f5d6`, `f5 d6` for Reversi): the index of the
/// first parsed move that does not end where a document move does, and its
/// `record::bad_notation_value`.
fn split_document_move<R: Rules>(
    raw: &RawGame,
    src: &str,
    moves: &[Parsed<MoveOf<R>, R::Spans>],
) -> Option<(usize, Diag)> {
    if raw.doc_moves.is_empty() {
        return None;
    }
    let k = moves
        .iter()
        .zip(&raw.doc_moves)
        .position(|(pm, &last)| pm.token != last)?;
    let pm = moves.get(k)?;
    // the document move whose tokens hold this move
    let j = raw.doc_moves.partition_point(|&last| last < pm.token);
    let first = j
        .checked_sub(1)
        .and_then(|i| raw.doc_moves.get(i))
        .map_or(0, |&l| l + 1);
    let last = raw.doc_moves.get(j).copied().unwrap_or(first);
    let notation = match (raw.tokens.get(first), raw.tokens.get(last)) {
        (Some(a), Some(b)) => a.span.join(b.span).text(src),
        _ => pm.span.text(src),
    };
    Some((
        k,
        Diag::error(
            "record::bad_notation_value",
            format!(
                "the notation `{notation}` of written move {} of the document is not one {} move",
                j + 1,
                R::NAME
            ),
        )
        .at(pm.span)
        .label("one move of the game, not all of this notation")
        .help("write one move per document move (`f5`, not `f5d6` or `f5 d6`)"),
    ))
}

/// The tag step: every tag error in file order (the container's, the rules
/// tags', a malformed `Result`), and the start state unless a rules tag failed.
/// Also returns the seats when it needed them, and the `Result` tag's claim
/// when it reads.
fn tags<'a, R: Rules>(
    raw: &'a RawGame,
    src: &str,
    report: &mut GameReport,
    search: Option<u32>,
) -> (
    Option<R::Position>,
    Option<&'static [&'static str]>,
    Option<Claim<'a>>,
) {
    let mut errors: Vec<Diag> = raw.tag_errors.clone();
    // an error in a rules tag stops the game: in its text, or the game's
    // own error inside its value (a reader that checked the value it read,
    // as `.obf` boards, blames the character, with the code `start` gives)
    let stopped = raw.tag_errors.iter().any(|e| {
        e.severity == Severity::Error
            && e.span.is_some_and(|s| {
                is_rules_tag::<R>(s.text(src))
                    || (e.code.strip_prefix(R::NAME).is_some_and(|c| c.starts_with("::"))
                        && in_rules_value::<R>(raw, s))
            })
    });
    let state = if stopped {
        None
    } else {
        match R::start(&raw.tags) {
            Ok(s) => {
                errors.extend(R::start_claims(&raw.tags, src, &s, search));
                Some(s)
            }
            Err(diags) => {
                // A missing rules tag has no span of its own: blame the
                // game's tag section (its first token when it has no tags).
                let section = tag_section(raw);
                errors.extend(
                    diags
                        .into_iter()
                        .map(|d| if d.span.is_none() { d.at(section) } else { d }),
                );
                None
            }
        }
    };
    let mut seats = None;
    let mut claim = None;
    if let Some(t) = raw.tags.get("Result") {
        seats = state.as_ref().map(Position::seats);
        match read_claim(&t.value, t.value_span, "Result tag", seats) {
            Ok(c) => claim = Some(c),
            Err(d) => errors.push(d),
        }
    }
    // misspelled or mis-cased tag names: warnings
    errors.extend(crate::record::unknown_tag_warnings(
        &raw.tags,
        &[crate::record::COMMON_TAGS, &PLAYER_TAGS, R::RULES_TAGS],
        R::NAME,
    ));
    errors.sort_by_key(|d| d.span.map_or(0, |s| s.offset));
    for d in errors {
        report.push(d.ply(0));
    }
    (state, seats, claim)
}

/// A game's tag section, from its first tag to its last; its first token when
/// it has no tags.
pub(crate) fn tag_section(raw: &RawGame) -> Span {
    match (raw.tags.0.first(), raw.tags.0.last()) {
        (Some(first), Some(last)) => first.span.join(last.span),
        _ => raw
            .tokens
            .first()
            .map(|t| t.span)
            .unwrap_or(Span::new(raw.span.offset, 0)),
    }
}

/// The error of a move (or any token) after the end of the game.
fn after_end<R: Rules>(span: Span, ply: usize) -> Diag {
    Diag::error(
        format!("{}::move_after_end", R::NAME),
        "the game is already over",
    )
    .at(span)
    .label("move after the end of the game")
    .help("no move of any kind (pass included) may follow the end; remove it")
    .ply(ply)
}

/// A replay under way, past its start.
pub(super) struct Replay<'a, R: Rules, V> {
    pub(super) raw: &'a RawGame,
    pub(super) src: &'a str,
    pub(super) visitor: &'a mut V,
    /// The visitor's answers, asked once per game.
    records: bool,
    watched: bool,
    pub(super) report: &'a mut GameReport,
    pub(super) state: R::Position,
    pub(super) plies: usize,
    /// The first token whose comment is not yet attached to a recorded move.
    pub(super) next_comment_token: usize,
}

/// A move failed: the replay of the moves stops (its diagnostic is in the report).
struct Stopped;

impl<R: Rules, V: Visitor<R>> Replay<'_, R, V> {
    /// A ply was played (or the start position set up): the visitor sees
    /// it, when it watches positions.
    #[inline]
    fn played(&mut self, mv: Option<&MoveOf<R>>) {
        if self.watched {
            self.visitor.position(self.plies, &self.state, mv);
        }
    }

    /// Takes the automatic passes owed before a move at `span` (spec §5:
    /// only before a move, legal or not; the end of the game is checked first).
    #[inline(never)]
    fn auto_passes(&mut self, span: Span, token: usize) {
        // `must_pass` first: the cheaper question, and most often no
        while Position::must_pass(&self.state) && !Position::is_over(&self.state) {
            let pass = Parsed {
                mv: <R::Position as Position>::pass(),
                span,
                token,
                parts: Default::default(),
            };
            let recorded = self.records.then(|| {
                (
                    Position::to_move(&self.state),
                    R::move_extras(&self.state, &pass.mv),
                )
            });
            if R::judge(&mut self.state, &pass).is_err() {
                return;
            }
            self.plies += 1;
            if let Some((player, extras)) = recorded {
                let record = MoveRecord {
                    ply: self.plies,
                    player,
                    notation: R::write_move(&pass.mv).into(),
                    comment: None,
                    auto: true,
                    setup: false,
                    extras,
                    number: None,
                    props: Vec::new(),
                };
                self.visitor.moved(self.report, record);
            }
            self.played(Some(&pass.mv));
        }
    }

    /// The moves step: each move after its automatic passes, up to the first
    /// that fails (after the end, by the wrong player, or illegal).
    fn moves(&mut self, moves: &[Parsed<MoveOf<R>, R::Spans>]) -> Result<(), Stopped> {
        // what most records lack, asked once per game rather than per ply
        let marks_passes = !self.raw.auto_passes.is_empty();
        let names_players = !self.raw.token_players.is_empty();
        let watched = self.watched;
        for (k, pm) in moves.iter().enumerate() {
            if <R::Position as Position>::is_setup(&pm.mv) {
                self.setup(k, moves, pm)?;
                continue;
            }
            let before = self.plies;
            // a move legal now owes no pass and comes before the end
            let now = Position::plays_now(&self.state, &pm.mv);
            // the loop's own first question, asked here so that the
            // common case (a side that can move) makes no call
            if !now
                && !<R::Position as Position>::is_pass(&pm.mv)
                && Position::must_pass(&self.state)
            {
                self.auto_passes(pm.span, pm.token);
            }
            if marks_passes {
                self.check_marked_passes(k, self.plies - before, pm)?;
            }
            if !now && Position::is_over(&self.state) {
                self.report.push(after_end::<R>(pm.span, self.plies + 1));
                return Err(Stopped);
            }
            if names_players {
                self.check_player(pm)?;
            }
            // Who moved and the move's fields, read before the move (for conversion).
            let recorded = self
                .records
                .then(|| (Position::to_move(&self.state), R::move_extras(&self.state, &pm.mv)));
            if let Err(d) = R::judge(&mut self.state, pm) {
                let d = if d.span.is_none() { d.at(pm.span) } else { d };
                self.report.push(d.ply(self.plies + 1));
                return Err(Stopped);
            }
            self.plies += 1;
            if let Some((player, extras)) = recorded {
                self.record(k, moves, player, extras, false);
            }
            if watched {
                self.played(Some(&pm.mv));
            }
        }
        Ok(())
    }

    /// A setup edit ([`Position::is_setup`]): judged and made where it
    /// stands, no ply, no automatic pass before it, after the end as well;
    /// the position after the ply before it is now this one.
    #[inline(never)]
    fn setup(
        &mut self,
        k: usize,
        moves: &[Parsed<MoveOf<R>, R::Spans>],
        pm: &Parsed<MoveOf<R>, R::Spans>,
    ) -> Result<(), Stopped> {
        if !self.raw.auto_passes.is_empty() {
            self.check_marked_passes(k, 0, pm)?;
        }
        let player = Position::to_move(&self.state);
        if let Err(d) = R::judge(&mut self.state, pm) {
            let d = if d.span.is_none() { d.at(pm.span) } else { d };
            self.report.push(d.ply(self.plies + 1));
            return Err(Stopped);
        }
        if self.records {
            self.record(k, moves, player, Default::default(), true);
        }
        self.played(Some(&pm.mv));
        Ok(())
    }

    /// Hands the visitor the record of parsed move `k`, just made by
    /// `player` (its comment, properties and number from the record).
    fn record(
        &mut self,
        k: usize,
        moves: &[Parsed<MoveOf<R>, R::Spans>],
        player: &'static str,
        extras: serde_json::Map<String, serde_json::Value>,
        setup: bool,
    ) {
        let Some(pm) = moves.get(k) else { return };
        let last_of_token = moves.get(k + 1).is_none_or(|n| n.token > pm.token);
        let (comment, props) = if last_of_token {
            (self.comments_up_to(pm.token), self.props_of(pm.token))
        } else {
            (None, Vec::new())
        };
        // the number written before the move's first token
        let after = k.checked_sub(1).and_then(|j| moves.get(j)).map(|p| p.token);
        let number = self
            .raw
            .numbers
            .iter()
            .rev()
            .find(|&&(t, _)| t <= pm.token && after.is_none_or(|a| t > a))
            .map(|&(_, s)| s.text(self.src).to_string());
        let record = MoveRecord {
            ply: self.plies,
            player,
            notation: R::write_move(&pm.mv).into(),
            comment,
            auto: false,
            setup,
            extras,
            number,
            props,
        };
        self.visitor.moved(self.report, record);
    }

    /// `record::bad_auto_move`: a document marks more automatic passes
    /// before its `k`-th written move than the engine took (`taken`).
    fn check_marked_passes(
        &mut self,
        k: usize,
        taken: usize,
        pm: &Parsed<MoveOf<R>, R::Spans>,
    ) -> Result<(), Stopped> {
        let marked = self.raw.auto_passes.iter().filter(|&&i| i == k).count();
        if marked <= taken {
            return Ok(());
        }
        let mover = Position::to_move(&self.state);
        self.report.push(
            Diag::error(
                "record::bad_auto_move",
                format!(
                    "the document marks {} before this move, but the engine takes {taken}: {mover} has a move",
                    plural(marked, "automatic pass", "automatic passes"),
                ),
            )
            .at(pm.span)
            .label(format!("{mover} to move here"))
            .help("an automatic pass is marked `auto: true` only where the side to move has no move")
            .ply(self.plies + 1),
        );
        Err(Stopped)
    }

    /// `record::wrong_player`: a format that says whose move it is
    /// disagrees with the side to move.
    fn check_player(&mut self, pm: &Parsed<MoveOf<R>, R::Spans>) -> Result<(), Stopped> {
        let Some(want) = self
            .raw
            .token_players
            .get(pm.token)
            .and_then(Option::as_deref)
        else {
            return Ok(());
        };
        let mover = Position::to_move(&self.state);
        if want.eq_ignore_ascii_case(mover) {
            return Ok(());
        }
        self.report.push(
            Diag::error(
                "record::wrong_player",
                format!("the record gives this move to {want}, but {mover} is to move"),
            )
            .at(pm.span)
            .label(format!("{mover} to move"))
            .help(format!(
                "the move's colour must be the side to move ({mover}); a side with no move passes"
            ))
            .ply(self.plies + 1),
        );
        Err(Stopped)
    }

    /// The properties a format kept with token `token` (none for most
    /// formats: no search then).
    fn props_of(&self, token: usize) -> Vec<(String, String)> {
        if self.raw.move_props.is_empty() {
            return Vec::new();
        }
        let props = &self.raw.move_props;
        let from = props.partition_point(|&(t, _, _)| t < token);
        props
            .get(from..)
            .unwrap_or(&[])
            .iter()
            .take_while(|&&(t, _, _)| t == token)
            .map(|(_, k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// The comments of the tokens not yet attached, up to `token`, joined.
    fn comments_up_to(&mut self, token: usize) -> Option<String> {
        let mut comment: Option<String> = None;
        for c in self.raw.comments_of(self.next_comment_token, token) {
            match &mut comment {
                Some(existing) => {
                    existing.push(' ');
                    existing.push_str(c);
                }
                None => comment = Some(c.to_string()),
            }
        }
        self.next_comment_token = token + 1;
        comment
    }

    /// The end of the movetext, once every move read has been played: a
    /// token the notation could not read is a move (after its automatic
    /// passes; after the end of the game it is `move_after_end`, whatever it
    /// says); the container's own stop (a stray `}`, a decreasing move
    /// number, an unterminated comment) is not a move, so no pass is taken.
    fn movetext_end(
        &mut self,
        notation_error: Option<Diag>,
        last: Option<&Parsed<MoveOf<R>, R::Spans>>,
    ) -> Result<(), Stopped> {
        if let Some(d) = notation_error {
            let span = d.span.unwrap_or_default();
            let token = last.map_or(0, |m| m.token + 1);
            self.auto_passes(span, token);
            let d = if Position::is_over(&self.state) {
                // The first token not read, unless the error is inside the
                // last move's token (a compact transcript).
                let at = self
                    .raw
                    .tokens
                    .get(token)
                    .map(|t| t.span)
                    .filter(|t| t.offset <= span.offset)
                    .unwrap_or(span);
                after_end::<R>(at, self.plies + 1)
            } else {
                d.ply(self.plies + 1)
            };
            self.report.push(d);
            return Err(Stopped);
        }
        if let Some(d) = &self.raw.stop {
            self.report.push(d.clone().ply(self.plies + 1));
            return Err(Stopped);
        }
        Ok(())
    }

    /// The end step: plies, whether over, scores, winners; then the
    /// visitor's end.
    fn finish(&mut self) {
        verdict::<R>(self.report, &self.state, self.plies);
        self.visitor.end(self.report, &self.state);
    }
}

/// The end step's verdict of a game at its end `state` after `plies`
/// plies: plies, whether over, scores, winners, what could not be checked
/// (the driver's [`Replay::finish`] and the packed replay's
/// [`super::end_report`]).
pub(super) fn verdict<R: Rules>(report: &mut GameReport, state: &R::Position, plies: usize) {
    report.plies = plies;
    report.over = Position::is_over(state);
    Position::scores_into(state, &mut report.scores);
    report.unchecked = R::unchecked(state);
    report.winners.clear();
    if report.over {
        let set = Position::winner_set(state, &report.scores);
        let seats = report.seats.iter().enumerate();
        report.winners.extend(
            seats
                .filter(|&(i, _)| set.checked_shr(i as u32).is_some_and(|s| s & 1 == 1))
                .map(|(_, &seat)| seat),
        );
    }
}

/// Whether `span` lies inside the value of one of the game's rules tags.
fn in_rules_value<R: Rules>(raw: &RawGame, span: Span) -> bool {
    raw.tags.iter().any(|t| {
        let v = t.value_span;
        (t.name == "Variant" || R::RULES_TAGS.contains(&t.name.as_str()))
            && v.offset <= span.offset
            && span.offset + span.length <= v.offset + v.length
    })
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
