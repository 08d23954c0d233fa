//! A game's pictures: terminal text and SVG scenes of a position.

use crate::game::{MoveOf, Position, Setup};

/// Draws a game's positions.
pub trait Render: Setup {
    /// The unit of [`Render::plot`]'s values (`discs`, `points`).
    const PLOT_UNIT: &'static str = "score";

    /// The position for a terminal, with coordinates; `color` for ANSI colours.
    fn render(position: &Self::Position, color: bool) -> String;

    /// The position's horizontal slices for a terminal, bottom level first
    /// (`show --level K` prints the K-th), for games built in levels (Blokus
    /// 3D); empty for flat games.
    fn render_levels(_position: &Self::Position, _color: bool) -> Vec<String> {
        Vec::new()
    }

    /// The position as rows of letters, top to bottom (`final_position` in JSON).
    fn position_rows(position: &Self::Position) -> Vec<String>;

    /// The position as a picture (`crate::svg` draws it): the board's cells,
    /// the cells of `last` (the move that led here, when known) marked.
    fn scene(position: &Self::Position, last: Option<&MoveOf<Self>>) -> crate::svg::Scene;

    /// What the score plot draws per seat after each ply: the scores by default.
    fn plot(position: &Self::Position) -> Vec<i64> {
        position.scores()
    }
}
