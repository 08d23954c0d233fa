//! A game behind a name, its type erased: [`DynGame`], and [`Game`], the
//! `DynGame` of a [`Rules`] type, which runs the generic driver.

use std::marker::PhantomData;

use crate::game::{MoveOf, PerftError, Position, Rules};
use crate::record::RawGame;
use crate::replay::{Frames, GameReport, Options, View, ViewError, run};

/// A game behind a name, its type erased.
pub trait DynGame: Sync {
    /// The normalised name (`reversi`).
    fn name(&self) -> &'static str;
    /// Other accepted names (`othello`).
    fn aliases(&self) -> &'static [&'static str];
    /// The variants, by name; the first is the default.
    fn variants(&self) -> &'static [&'static str];
    /// The tags that set the rules (besides `Game` and `Variant`).
    fn rules_tags(&self) -> &'static [&'static str];
    /// The player tags of every variant and number of players: the seat
    /// names capitalised, in seat order (for `gamerec tags`).
    fn player_tags(&self) -> Vec<String>;
    /// Replays a game into `report` (an earlier game's, whose room is reused).
    fn replay(&self, raw: &RawGame, src: &str, opts: &Options, report: &mut GameReport);
    /// Replays the whole game and looks at the position after `ply` plies (the
    /// end, or the position before the illegal move, when `None` or past it).
    fn view(
        &self,
        raw: &RawGame,
        src: &str,
        opts: &Options,
        ply: Option<usize>,
        color: bool,
    ) -> Result<View, ViewError>;
    /// See [`Perft::perft_divide`](crate::game::Perft::perft_divide).
    fn perft_divide(
        &self,
        variant: Option<&str>,
        players: Option<u8>,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, PerftError>;
    /// See [`Perft::perft_divide_tags`](crate::game::Perft::perft_divide_tags).
    fn perft_divide_tags(
        &self,
        variant: Option<&str>,
        players: Option<u8>,
        tags: &crate::record::Tags,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, PerftError>;
    /// The leaf count of the move tree from the variant's start.
    fn perft(&self, variant: Option<&str>, depth: u32) -> Result<u64, PerftError> {
        self.perft_divide(variant, None, depth, &|_| {})
            .map(|d| crate::game::perft_total(&d))
    }
    /// [`DynGame::perft`] for a number of players.
    fn perft_players(
        &self,
        variant: Option<&str>,
        players: u8,
        depth: u32,
    ) -> Result<u64, PerftError> {
        self.perft_divide(variant, Some(players), depth, &|_| {})
            .map(|d| crate::game::perft_total(&d))
    }
    /// Replays the whole game keeping the position after every ply (for the
    /// score plot and the HTML viewer); `None` when it could not be set up.
    fn frames(&self, raw: &RawGame, src: &str, opts: &Options) -> Frames;
    /// What the score plot draws after every ply, without the pictures
    /// (`replay::plots_of`).
    fn plots(&self, raw: &RawGame, src: &str, opts: &Options) -> crate::replay::Plots;
    /// Whether the game's notation reads these tokens (the first moves of a
    /// record without a `Game` tag) from the start its tags give, and its
    /// engine plays them.
    fn reads_opening(&self, raw: &RawGame, tokens: &[crate::record::Token], src: &str) -> bool;
    /// The game's 128-bit digest (`game::digest`) from its report:
    /// its tags (when its sink keeps them all), variant and recorded moves
    /// (when its sink records them); with `symmetric`, the least over
    /// the start's symmetries. `None` when the start cannot be set up.
    fn digest(&self, report: &GameReport, symmetric: bool) -> Option<u128>;
    /// The start position the rules tags set up, to play in notation
    /// ([`crate::play`]).
    fn position(
        &self,
        tags: &crate::record::Tags,
    ) -> Result<Box<dyn crate::game::AnyPosition>, Vec<crate::diag::Diag>>;
}

/// The [`DynGame`] of a [`Rules`] type.
pub struct Game<R>(PhantomData<fn() -> R>);

impl<R> Game<R> {
    pub const NEW: Self = Game(PhantomData);
}

impl<R: Rules> DynGame for Game<R>
where
    R::Position: Send + Sync,
    MoveOf<R>: Send + Sync,
{
    fn position(
        &self,
        tags: &crate::record::Tags,
    ) -> Result<Box<dyn crate::game::AnyPosition>, Vec<crate::diag::Diag>> {
        Ok(Box::new(crate::game::Live::<R>::start(tags)?))
    }

    fn name(&self) -> &'static str {
        R::NAME
    }

    fn digest(&self, report: &GameReport, symmetric: bool) -> Option<u128> {
        let tags = crate::record::Tags(
            report
                .tags
                .iter()
                .map(|(name, value)| crate::record::Tag {
                    name: name.clone(),
                    value: value.clone(),
                    ..Default::default()
                })
                .collect(),
        );
        let moves = report.moves.iter().map(|m| m.notation.as_ref());
        crate::game::digest::<R>(&tags, report.variant, moves, symmetric)
    }

    fn aliases(&self) -> &'static [&'static str] {
        R::ALIASES
    }

    fn variants(&self) -> &'static [&'static str] {
        R::VARIANTS
    }

    fn rules_tags(&self) -> &'static [&'static str] {
        R::RULES_TAGS
    }

    fn player_tags(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for v in R::VARIANTS {
            for players in ["", "2", "3", "4", "5", "6"] {
                let mut text = format!("[Variant \"{v}\"]\n");
                if !players.is_empty() {
                    text.push_str(&format!("[Players \"{players}\"]\n"));
                }
                let games = crate::record::parse_file(&text);
                let Some(Ok(state)) = games.first().map(|g| R::start(&g.tags)) else {
                    continue;
                };
                for seat in Position::seats(&state) {
                    let mut chars = seat.chars();
                    let tag: String = chars
                        .next()
                        .map(|c| c.to_ascii_uppercase())
                        .into_iter()
                        .chain(chars)
                        .collect();
                    if !out.contains(&tag) {
                        out.push(tag);
                    }
                }
            }
        }
        out
    }

    fn replay(&self, raw: &RawGame, src: &str, opts: &Options, report: &mut GameReport) {
        run::<R, _>(raw, src, &mut { opts }, report);
    }

    fn frames(&self, raw: &RawGame, src: &str, opts: &Options) -> Frames {
        crate::replay::frames_of::<R>(raw, src, opts)
    }

    fn plots(&self, raw: &RawGame, src: &str, opts: &Options) -> crate::replay::Plots {
        crate::replay::plots_of::<R>(raw, src, opts)
    }

    fn view(
        &self,
        raw: &RawGame,
        src: &str,
        opts: &Options,
        ply: Option<usize>,
        color: bool,
    ) -> Result<View, ViewError> {
        crate::replay::view_at::<R>(raw, src, opts, ply, color)
    }

    fn perft_divide(
        &self,
        variant: Option<&str>,
        players: Option<u8>,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, PerftError> {
        R::perft_divide(variant, players, depth, done)
    }

    fn perft_divide_tags(
        &self,
        variant: Option<&str>,
        players: Option<u8>,
        tags: &crate::record::Tags,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, PerftError> {
        R::perft_divide_tags(variant, players, tags, depth, done)
    }

    fn reads_opening(&self, raw: &RawGame, tokens: &[crate::record::Token], src: &str) -> bool {
        let Ok(mut state) = R::start(&raw.tags) else {
            return false;
        };
        let parsed = R::parse_moves_in(&state, tokens, src);
        parsed.error.is_none()
            && !parsed.moves.is_empty()
            && parsed
                .moves
                .iter()
                .all(|pm| !Position::is_over(&state) && R::judge(&mut state, pm).is_ok())
    }
}
