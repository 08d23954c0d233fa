//! Why a Qwirkle turn is refused, in words: an [`Illegal`] from the engine
//! and the spans the notation kept ([`Spans`]) made a [`Diag`]. The state
//! is the one before the turn (a refused turn changes nothing), so the
//! help can list the placements the mover has.

use crate::diag::{Diag, legal_moves_help};
use crate::game::Explain;
use crate::span::Span;

use super::Qwirkle;
use super::board::{Line, PlaceError, Put, Tile, code, tiles_of};
use super::engine::{Illegal, Move, State};
use super::notation::{ParsedTurn, write};

/// `1 tile`, `3 tiles`.
pub(super) fn n_tiles(n: usize) -> String {
    crate::diag::plural(n, "tile", "tiles")
}

/// `Rc,Gs`.
pub(super) fn tile_list(tiles: &[Tile]) -> String {
    tiles.iter().map(|&t| code(t)).collect::<Vec<_>>().join(",")
}

/// A seat's name (`player1`).
pub(super) fn seat(p: usize) -> String {
    format!("player{}", p + 1)
}

/// `x,y`.
fn sq(x: i64, y: i64) -> String {
    format!("{x},{y}")
}

/// `row` or `column`.
fn dir(row: bool) -> &'static str {
    if row { "row" } else { "column" }
}

/// The mover's placements with their scores, best first then by text, as
/// a help line.
fn moves_help(state: &State) -> String {
    let mut placements: Vec<(String, i64)> = state
        .placements()
        .into_iter()
        .map(|(mv, score)| (write(&mv), score))
        .collect();
    placements.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let names: Vec<String> = placements
        .into_iter()
        .map(|(t, s)| format!("{t} ={s}"))
        .collect();
    legal_moves_help(&names)
}

/// [`moves_help`] when the mover's hand is known, else `fallback`.
fn moves_help_or(state: &State, fallback: &str) -> String {
    if state.hand().is_some() {
        moves_help(state)
    } else {
        fallback.to_string()
    }
}

/// The span of the turn's tile `at`, or of the whole turn.
fn tile_span(mv: &ParsedTurn, at: usize) -> Span {
    mv.parts.tiles.get(at).copied().unwrap_or(mv.span)
}

/// The placed tiles of a turn, on their squares.
fn puts_of(mv: &Move) -> Vec<Put> {
    match mv {
        Move::Place { tiles, .. } => tiles.iter().map(|p| p.put()).collect(),
        _ => Vec::new(),
    }
}

impl Explain for Qwirkle {
    fn explain(state: &State, mv: &ParsedTurn, why: Illegal) -> Diag {
        let me = seat(state.to_move);
        match why {
            Illegal::Board(e) => board_error(state, mv, e),
            Illegal::PlacesMoreThanHeld { held, placed } => Diag::error(
                "qwirkle::not_in_hand",
                format!("{me} holds only {} but places {placed}", n_tiles(held)),
            )
            .at(mv.span)
            .label(format!("{} placed", n_tiles(placed)))
            .help(format!("{me} may place at most {}", n_tiles(held))),
            Illegal::PlacedNotHeld {
                at,
                tile,
                held,
                wanted,
            }
            | Illegal::SwappedNotHeld {
                at,
                tile,
                held,
                wanted,
            } => not_held(state, tile, held, wanted).at(tile_span(mv, at)),
            Illegal::NotTheStarter {
                starter,
                group,
                mine,
            } => not_the_starter(state, mv, starter, group, mine),
            Illegal::FirstGroupSize { placed, group } => first_group_size(state, mv, placed, group),
            Illegal::FirstTurnSwap => Diag::error(
                "qwirkle::first_turn",
                "the first turn places the largest group; it may not swap",
            )
            .at(mv.span)
            .label("swap as the first turn")
            .help(moves_help(state)),
            Illegal::WrongDrawCount {
                expect,
                written,
                bag,
            } => wrong_draw_count(mv, expect, written, bag),
            Illegal::FourthCopy { tile } => fourth_copy(mv, tile),
            Illegal::WrongClaim {
                claimed,
                total,
                out,
            } => wrong_claim(state, mv, claimed, total, out),
            Illegal::SwapsMoreThanHeld { held, count } => Diag::error(
                "qwirkle::not_in_hand",
                format!("{me} holds only {} but swaps {count}", n_tiles(held)),
            )
            .at(mv.parts.what)
            .label(n_tiles(count))
            .help(format!("swap at most {}", n_tiles(held))),
            Illegal::SwapTooLarge { bag, count } => swap_too_large(mv, bag, count),
            Illegal::PassWithBag { bag } => pass_with_bag(state, mv, bag),
            Illegal::PassWithPlacement => Diag::error(
                "qwirkle::illegal_pass",
                format!("{me} may not pass: a placement exists"),
            )
            .at(mv.span)
            .label("pass while a placement exists")
            .help(moves_help(state)),
        }
    }
}

/// `occupied` .. `mixed_line`: what the board refuses.
fn board_error(state: &State, mv: &ParsedTurn, e: PlaceError) -> Diag {
    let puts = puts_of(&mv.mv);
    let tile = |at: usize| puts.get(at).map_or(0, |p| p.tile);
    match e {
        PlaceError::Occupied { at, dup, held } => {
            let p = puts.get(at).copied().unwrap_or_default();
            let msg = if dup {
                format!(
                    "square {} is given two tiles in this turn ({} and {})",
                    sq(p.x, p.y),
                    code(held),
                    code(p.tile)
                )
            } else {
                format!("square {} already holds {}", sq(p.x, p.y), code(held))
            };
            Diag::error("qwirkle::occupied", msg)
                .at(tile_span(mv, at))
                .label(format!("{} is taken", sq(p.x, p.y)))
                .help("a square holds one tile")
        }
        PlaceError::NotInLine { at } => Diag::error(
            "qwirkle::not_in_line",
            "the tiles of a turn must lie in one row or one column",
        )
        .at(tile_span(mv, at))
        .label("not in the row or column of the first tile")
        .help("place all of a turn's tiles along one row (same y) or one column (same x)"),
        PlaceError::Gap { x, y } => Diag::error(
            "qwirkle::gap",
            format!("square {} between the placed tiles is empty", sq(x, y)),
        )
        .at(mv.span)
        .label(format!("gap at {}", sq(x, y)))
        .help("the squares between a turn's outermost tiles must all hold tiles"),
        PlaceError::NotTouching => Diag::error(
            "qwirkle::not_touching",
            "none of the placed tiles touches a tile on the board",
        )
        .at(mv.span)
        .label("not touching the board")
        .help(moves_help_or(
            state,
            "place next to a tile already on the board",
        )),
        PlaceError::NoSharedAttribute { at } => Diag::error(
            "qwirkle::no_shared_attribute",
            format!(
                "{} and {} share neither colour nor shape",
                code(tile(0)),
                code(tile(at))
            ),
        )
        .at(tile_span(mv, at))
        .label("no attribute in common with the turn's first tile")
        .help("all tiles of a turn share one colour or one shape"),
        PlaceError::TooLong { at, line } => Diag::error(
            "qwirkle::line_too_long",
            format!(
                "this makes a {} of {} tiles: {}",
                dir(line.row),
                line.tiles.len(),
                line.squares()
            ),
        )
        .at(tile_span(mv, at))
        .label("line longer than 6")
        .help("a line holds at most 6 tiles"),
        PlaceError::Duplicate { at, line, tile } => duplicate_in_line(mv, at, &line, tile),
        PlaceError::Mixed { at, line } => mixed_line(mv, at, &line),
    }
}

/// `duplicate_in_line`: a line the turn makes, with its squares.
fn duplicate_in_line(mv: &ParsedTurn, at: usize, line: &Line, tile: Tile) -> Diag {
    Diag::error(
        "qwirkle::duplicate_in_line",
        format!(
            "the {} {} holds {} twice",
            dir(line.row),
            line.squares(),
            code(tile)
        ),
    )
    .at(tile_span(mv, at))
    .label(format!("second {} in this line", code(tile)))
    .help("no line holds the same tile twice")
}

/// `mixed_line`: a line the turn makes, with its squares.
fn mixed_line(mv: &ParsedTurn, at: usize, line: &Line) -> Diag {
    Diag::error(
        "qwirkle::mixed_line",
        format!(
            "the {} {} is neither one colour nor one shape",
            dir(line.row),
            line.squares()
        ),
    )
    .at(tile_span(mv, at))
    .label("this tile mixes the line")
    .help("a line is all one colour with different shapes, or all one shape with different colours")
}

/// `not_in_hand` for a tile the known hand does not hold (`player1 does
/// not hold G*`, or `holds only one Rc` when the turn uses more); the
/// caller puts it at the tile.
fn not_held(state: &State, t: Tile, held: u8, wanted: usize) -> Diag {
    let me = seat(state.to_move);
    let message = if held == 0 {
        format!("{me} does not hold {}", code(t))
    } else {
        format!("{me} holds {held} {} but this turn uses {wanted}", code(t))
    };
    Diag::error("qwirkle::not_in_hand", message)
        .label("not in the hand")
        .help(format!(
            "{me} holds {}",
            tile_list(&tiles_of(state.hand().unwrap_or(&[0; 36])))
        ))
}

/// `first_turn`: another player holds a larger group, and starts.
fn not_the_starter(
    state: &State,
    mv: &ParsedTurn,
    starter: usize,
    group: usize,
    mine: usize,
) -> Diag {
    Diag::error(
        "qwirkle::first_turn",
        format!(
            "{} holds a group of {group}, larger than {}'s {mine}, and starts",
            seat(starter),
            seat(state.to_move)
        ),
    )
    .at(mv.span)
    .label("not the player who starts")
    .help("the player holding the largest group of one colour or one shape starts")
}

/// `first_turn`: the group placed is not the mover's largest.
fn first_group_size(state: &State, mv: &ParsedTurn, placed: usize, group: usize) -> Diag {
    Diag::error(
        "qwirkle::first_turn",
        format!(
            "the first turn places {}, but {}'s largest group holds {group}",
            n_tiles(placed),
            seat(state.to_move)
        ),
    )
    .at(mv.span)
    .label(format!("{} instead of {group}", n_tiles(placed)))
    .help(moves_help(state))
}

/// `wrong_draw_count`, at the written draw.
fn wrong_draw_count(mv: &ParsedTurn, expect: usize, written: usize, bag: usize) -> Diag {
    let what = match mv.mv {
        Move::Swap { .. } => "this swap",
        _ => "this placement",
    };
    Diag::error(
        "qwirkle::wrong_draw_count",
        format!(
            "{what} draws {} (the bag holds {bag}), not {written}",
            n_tiles(expect)
        ),
    )
    .at(mv.parts.draw)
    .label(format!("{} drawn", n_tiles(written)))
    .help(format!("write exactly {} drawn", n_tiles(expect)))
}

/// `fourth_copy`: at the first placed tile of that kind, else at the draw,
/// else at the turn.
fn fourth_copy(mv: &ParsedTurn, t: Tile) -> Diag {
    let (placed, drawn) = match &mv.mv {
        Move::Place { tiles, draw, .. } => (tiles.iter().position(|p| p.tile == t), draw.is_some()),
        Move::Swap { draw, .. } => (None, draw.is_some()),
        Move::Pass => (None, false),
    };
    let blame = match placed {
        Some(at) => tile_span(mv, at),
        None if drawn => mv.parts.draw,
        None => mv.span,
    };
    Diag::error(
        "qwirkle::fourth_copy",
        format!(
            "this would be a fourth {} (there are three of each tile)",
            code(t)
        ),
    )
    .at(blame)
    .label(format!("a fourth {}", code(t)))
    .help("the board and the known hands already hold all three copies")
}

/// `wrong_claim`, at the claim, with the right score line by line.
fn wrong_claim(state: &State, mv: &ParsedTurn, claimed: i64, total: i64, out: bool) -> Diag {
    let mut parts = state
        .board
        .judge(&puts_of(&mv.mv))
        .map(|s| s.parts())
        .unwrap_or_default();
    if out {
        parts.push("going out 6".to_string());
    }
    Diag::error(
        "qwirkle::wrong_claim",
        format!("this turn scores {total}, not {claimed}"),
    )
    .at(mv.parts.claim)
    .label(format!("the turn scores {total}"))
    .help(format!("{} = {total}", parts.join(" + ")))
}

/// `swap_too_large`, at the swap's tiles or count.
fn swap_too_large(mv: &ParsedTurn, bag: usize, count: usize) -> Diag {
    Diag::error(
        "qwirkle::swap_too_large",
        format!("the bag holds {}, too few to swap {count}", n_tiles(bag)),
    )
    .at(mv.parts.what)
    .label(format!("{} to swap", n_tiles(count)))
    .help(if bag == 0 {
        "with the bag empty, a player who cannot place passes".to_string()
    } else {
        format!("swap at most {}", n_tiles(bag))
    })
}

/// `illegal_pass` while the bag holds tiles.
fn pass_with_bag(state: &State, mv: &ParsedTurn, bag: usize) -> Diag {
    let help = if state.hand().is_some() && state.has_placement() {
        moves_help(state)
    } else {
        "a player who cannot place swaps tiles while the bag holds any".to_string()
    };
    Diag::error(
        "qwirkle::illegal_pass",
        format!(
            "{} may not pass: the bag still holds {}",
            seat(state.to_move),
            n_tiles(bag)
        ),
    )
    .at(mv.span)
    .label("pass while the bag holds tiles")
    .help(help)
}
