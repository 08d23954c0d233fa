//! What an illegal Deblockle move is told: the engine's [`Illegal`] reason
//! and the squares' spans the notation kept ([`TurnSpans`]) made a
//! [`Diag`] (code, message, the span of the square or part at fault, label,
//! and a help line listing what is legal instead). The only place that
//! words a refused move.

use super::Deblockle;
use super::cube::{Dir, Face};
use super::engine::{Gen, Hop, Illegal, Move, Position, SIDES, State, StepFault, Turn};
use super::engine::{around, target};
use super::notation::{TurnSpans, sq_name, square_name, turn_name};
use crate::diag::{Diag, legal_moves_help};
use crate::game::{Explain, Parsed};
use crate::span::Span;

impl Explain for Deblockle {
    fn explain(position: &State, mv: &Parsed<Move, TurnSpans>, why: Illegal) -> Diag {
        diag(&position.pos, mv, why)
    }
}

/// The diagnostic for `mv`, refused in `pos` for `why`.
pub(super) fn diag(pos: &Position, mv: &Parsed<Move, TurnSpans>, why: Illegal) -> Diag {
    let side = pos.to_move & 1;
    match (&mv.mv, why) {
        (Move::Turn(t), why) if why != Illegal::Pass => {
            let w = Written {
                pos,
                side,
                t,
                parts: &mv.parts,
                ms: mv.span,
            };
            w.diag(why)
        }
        _ => illegal_pass(pos, side, mv.span),
    }
}

#[cold]
#[inline(never)]
fn illegal_pass(pos: &Position, side: usize, span: Span) -> Diag {
    let legal = legal_names(pos);
    let me = SIDES[side];
    let example = legal.first().cloned().unwrap_or_default();
    Diag::error(
        "deblockle::illegal_pass",
        format!("{me} has a legal turn and may not pass"),
    )
    .at(span)
    .label("pass while a turn exists")
    .help(format!(
        "{me} can play, for example, {example} ({} legal turns)",
        legal.len()
    ))
}

fn err(code: &'static str, message: String, span: Span, label: impl Into<String>) -> Diag {
    Diag::error(code, message).at(span).label(label)
}

/// A refused turn as it was written, in the position it was refused in.
struct Written<'a> {
    pos: &'a Position,
    side: usize,
    t: &'a Turn,
    parts: &'a TurnSpans,
    /// The move's span.
    ms: Span,
}

impl Written<'_> {
    fn diag(&self, why: Illegal) -> Diag {
        match why {
            Illegal::Pass => illegal_pass(self.pos, self.side, self.ms),
            Illegal::FromOffBoard => self.start_off_board(),
            Illegal::NotYourBlock { from, theirs } => self.not_your_block(from, theirs),
            Illegal::NotATip { diagonal } => self.not_a_tip(diagonal),
            Illegal::TipOffBoard { dir } => self.tip_off_board(dir),
            Illegal::TipOccupied { tip, owner } => self.tip_occupied(tip, owner),
            Illegal::TipOntoStar { tip, top } => self.tip_onto_star(tip, top),
            Illegal::StarUp { tip } => self.star_up(tip),
            Illegal::HopAfterScoring { tip } => self.hop_after_scoring(tip),
            Illegal::HopAfterStop => self.hop_after_stop(),
            Illegal::CannotHop { top, tip } => self.cannot_hop(top, tip),
            Illegal::MissingHop { top } => self.missing_hop(top),
            Illegal::BadStep { step, fault } => self.bad_step(step, fault),
            Illegal::PathNotHoops { top } => self.path_not_hoops(top),
            Illegal::HopShape { top, tip } => self.hop_shape(top, tip),
            Illegal::HopOffBoard { top } => {
                self.hop_dest_fault(top, "is off the board", "off the board")
            }
            Illegal::HopOccupied { top } => self.hop_dest_fault(top, "holds a block", "occupied"),
            Illegal::EndsOnStar { top, at } => self.ends_on_star(top, at),
            Illegal::SlideBlocked { dir, tip, stop } => self.slide_blocked(dir, tip, stop),
            Illegal::SlideOntoStar { dir, end } => self.slide_onto_star(dir, end),
            Illegal::ShortSlide { end } => self.short_slide(end),
            Illegal::HoopsUnreachable { tip } => self.hoops_unreachable(tip),
            Illegal::SideBySide { turn } => self.side_by_side(&turn),
        }
    }

    // Names and spans of the written turn.

    fn me(&self) -> &'static str {
        SIDES[self.side]
    }

    fn them(&self) -> &'static str {
        SIDES[self.side ^ 1]
    }

    /// The tip as written (`c3-c4`).
    fn tipped(&self) -> String {
        format!("{}-{}", sq_name(self.t.from), sq_name(self.t.to))
    }

    /// The hop's final square as written.
    fn dest(&self) -> String {
        sq_name(self.t.end())
    }

    /// The span of `FROM`, the square the tip starts from.
    fn start_span(&self) -> Span {
        self.parts.square(0, self.ms)
    }

    fn to_span(&self) -> Span {
        self.parts.square(1, self.ms)
    }

    fn tip_span(&self) -> Span {
        self.start_span().join(self.to_span())
    }

    /// The hop part: its square, a hoops path's three, or the move.
    fn hop_span(&self) -> Span {
        match self.t.hop {
            Hop::None => self.ms,
            Hop::Dest(_) => self.parts.square(2, self.ms),
            Hop::Path(_) => self
                .parts
                .square(2, self.ms)
                .join(self.parts.square(4, self.ms)),
        }
    }

    /// The hop's final square (a hoops path's last step).
    fn dest_span(&self) -> Span {
        match self.t.hop {
            Hop::Path(_) => self.parts.square(4, self.ms),
            Hop::None | Hop::Dest(_) => self.parts.square(2, self.ms),
        }
    }

    // Help lines.

    /// The legal turns of the block that tips.
    fn block_help(&self) -> String {
        let from = self.t.from.index().unwrap_or(0);
        let mut v = Vec::new();
        for d in Dir::ALL {
            self.pos.tip_turns(self.side, from, d, &mut |g| {
                v.push(turn_name(&g));
                true
            });
        }
        v.sort();
        if v.is_empty() {
            format!("the block on {} has no legal turn", square_name(from))
        } else {
            legal_moves_help(&v).replace("legal moves here", "legal turns of this block")
        }
    }

    /// The legal hops after this tip, `top` having come up.
    fn hops_help(&self, top: Face) -> String {
        let mut v = Vec::new();
        if let (Some(from), Some(d)) = (self.t.from.index(), self.t.dir()) {
            self.pos.tip_turns(self.side, from, d, &mut |g| {
                v.push(format!("/{}", square_name(g.dest)));
                true
            });
        }
        v.sort();
        if v.is_empty() {
            format!(
                "no legal {} hop follows this tip, so it is not a legal turn",
                top.name()
            )
        } else {
            format!("legal hops after this tip: {}", v.join(" "))
        }
    }

    // Ownership.

    /// `FROM` off the board.
    fn start_off_board(&self) -> Diag {
        err(
            "deblockle::bad_square",
            format!("{} is not a square of the 7x7 board", sq_name(self.t.from)),
            self.start_span(),
            "off the board",
        )
        .help("squares are a1 to g7: a column a-g, then a row 1-7")
    }

    fn not_your_block(&self, from: u8, theirs: bool) -> Diag {
        let (me, them) = (self.me(), self.them());
        let mine: Vec<String> = (0..49u8)
            .filter(|&s| self.pos.occ[self.side] & (1u64 << s) != 0)
            .map(square_name)
            .collect();
        let (message, label) = if theirs {
            (
                format!(
                    "the block on {} is {them}'s, and {me} is to move",
                    square_name(from)
                ),
                format!("a {them} block"),
            )
        } else {
            (
                format!("there is no block on {}", square_name(from)),
                "no block here".to_string(),
            )
        };
        err(
            "deblockle::not_your_block",
            message,
            self.start_span(),
            label,
        )
        .help(format!("{me}'s blocks stand on {}", mine.join(" ")))
    }

    // The tip.

    fn not_a_tip(&self, diagonal: bool) -> Diag {
        let message = if diagonal {
            format!(
                "{} tips diagonally; a block tips only north, east, south or west",
                self.tipped()
            )
        } else {
            format!(
                "{} is not a tip: a block tips onto an orthogonally adjacent square",
                self.tipped()
            )
        };
        err(
            "deblockle::diagonal_tip",
            message,
            self.tip_span(),
            "not an orthogonal tip",
        )
        .help(self.block_help())
    }

    fn tip_off_board(&self, dir: Dir) -> Diag {
        err(
            "deblockle::tip_off_board",
            format!(
                "the block on {} would tip {} off the board",
                sq_name(self.t.from),
                dir.name()
            ),
            self.to_span(),
            "off the board",
        )
        .help(self.block_help())
    }

    fn tip_occupied(&self, tip: u8, owner: Option<usize>) -> Diag {
        let owner = owner.map_or("a", |s| SIDES[s & 1]);
        err(
            "deblockle::tip_occupied",
            format!(
                "{} is occupied by a {owner} block; a block tips only onto an empty square",
                square_name(tip)
            ),
            self.to_span(),
            format!("{owner} block here"),
        )
        .help(self.block_help())
    }

    // Star rules.

    fn tip_onto_star(&self, tip: u8, top: Face) -> Diag {
        let (me, them) = (self.me(), self.them());
        let goal = target(self.side);
        let message = if tip != goal {
            format!(
                "{} is {me}'s own home star; {me} scores only on {}, and no block may tip onto any other star space",
                square_name(tip),
                square_name(goal)
            )
        } else {
            format!(
                "tipping onto {} brings {} up; a block may tip onto {them}'s home star only with star coming up",
                square_name(tip),
                top.name()
            )
        };
        err(
            "deblockle::tip_onto_star",
            message,
            self.to_span(),
            format!("{} comes up on a star space", top.name()),
        )
        .help(self.block_help())
    }

    fn hop_after_scoring(&self, tip: u8) -> Diag {
        err(
            "deblockle::unexpected_hop",
            format!(
                "star came up on {}: the block scores and leaves the board, so no hop follows",
                square_name(tip)
            ),
            self.hop_span(),
            "no hop after a scoring tip",
        )
        .help(format!("write the scoring tip alone: {}", self.tipped()))
    }

    fn star_up(&self, tip: u8) -> Diag {
        err(
            "deblockle::star_up",
            format!(
                "tipping {} brings star up on {}; star may come up only on {} ({}'s home star), where the block scores",
                self.tipped(),
                square_name(tip),
                square_name(target(self.side)),
                self.them()
            ),
            self.tip_span(),
            "star comes up here",
        )
        .help(self.block_help())
    }

    // The hop.

    fn hop_after_stop(&self) -> Diag {
        err(
            "deblockle::unexpected_hop",
            format!(
                "stop came up after {}: the turn ends without a hop",
                self.tipped()
            ),
            self.hop_span(),
            "no hop after stop",
        )
        .help(format!("write the tip alone: {}", self.tipped()))
    }

    fn cannot_hop(&self, top: Face, tip: u8) -> Diag {
        let sym = top.name();
        let code = if top == Face::Hoops {
            "deblockle::hoops_unreachable"
        } else {
            "deblockle::hop_blocked"
        };
        err(
            code,
            format!(
                "{sym} came up after {}, and no {sym} hop is possible from {}: the tip is not a legal turn",
                self.tipped(),
                square_name(tip)
            ),
            self.ms,
            format!("{sym} cannot hop"),
        )
        .help(self.block_help())
    }

    fn missing_hop(&self, top: Face) -> Diag {
        let sym = top.name();
        err(
            "deblockle::missing_hop",
            format!(
                "{sym} came up after {}, so {} {sym} hop must follow",
                self.tipped(),
                article(top)
            ),
            self.ms,
            format!("{sym} hop missing"),
        )
        .help(self.hops_help(top))
    }

    fn bad_step(&self, step: u8, fault: StepFault) -> Diag {
        let path = match self.t.hop {
            Hop::Path(path) => path,
            Hop::None | Hop::Dest(_) => [self.t.end(); 3],
        };
        let k = usize::from(step).min(2);
        let s = path[k];
        let prev = k.checked_sub(1).map_or(self.t.to, |j| path[j]);
        let why = match fault {
            StepFault::NotAStep => format!(
                "{} to {} is not one orthogonal step",
                sq_name(prev),
                sq_name(s)
            ),
            StepFault::OffBoard => format!("{} is off the board", sq_name(s)),
            StepFault::Occupied => format!("{} holds a block", sq_name(s)),
        };
        err(
            "deblockle::hoops_bad_step",
            format!("hoops came up after {}, but its step {why}", self.tipped()),
            self.parts.square(2 + k, self.ms),
            why,
        )
        .help(self.hops_help(Face::Hoops))
    }

    fn path_not_hoops(&self, top: Face) -> Diag {
        let sym = top.name();
        err(
            "deblockle::unexpected_hop",
            format!(
                "{sym} came up after {}: only hoops takes a three-step path; {} {sym} hop is written /DEST",
                self.tipped(),
                article(top)
            ),
            self.hop_span(),
            format!("not {} {sym} hop", article(top)),
        )
        .help(self.hops_help(top))
    }

    fn hop_shape(&self, top: Face, tip: u8) -> Diag {
        let sym = top.name();
        let what = match top {
            Face::Cross => "one orthogonal step",
            Face::X => "one diagonal step",
            Face::Slider => "straight north, east, south or west",
            Face::Star | Face::Stop | Face::Hoops => "a hop",
        };
        err(
            "deblockle::unexpected_hop",
            format!(
                "{sym} came up after {}, and {} is not {what} from {}",
                self.tipped(),
                self.dest(),
                square_name(tip)
            ),
            self.dest_span(),
            format!("not {} {sym} hop", article(top)),
        )
        .help(self.hops_help(top))
    }

    /// A cross or x hop's final square off the board or on a block.
    fn hop_dest_fault(&self, top: Face, what: &str, label: &str) -> Diag {
        err(
            "deblockle::hop_blocked",
            format!(
                "{} came up after {}, but {} {what}",
                top.name(),
                self.tipped(),
                self.dest()
            ),
            self.dest_span(),
            label,
        )
        .help(self.hops_help(top))
    }

    fn ends_on_star(&self, top: Face, at: u8) -> Diag {
        err(
            "deblockle::ends_on_star",
            format!(
                "the {} hop would end on the star space {}; no block may end its turn on a star space",
                top.name(),
                square_name(at)
            ),
            self.dest_span(),
            "a star space",
        )
        .help(self.hops_help(top))
    }

    // Slides and hoops.

    fn slide_blocked(&self, dir: Dir, tip: u8, stop: Option<u8>) -> Diag {
        let why = match stop {
            None => "the board's edge".to_string(),
            Some(n) => format!("the block on {}", square_name(n)),
        };
        err(
            "deblockle::hop_blocked",
            format!(
                "slider came up after {}, but it cannot slide {} from {}: {why} stops it at once",
                self.tipped(),
                dir.name(),
                square_name(tip)
            ),
            self.dest_span(),
            format!("no slide {}", dir.name()),
        )
        .help(self.hops_help(Face::Slider))
    }

    fn slide_onto_star(&self, dir: Dir, end: u8) -> Diag {
        err(
            "deblockle::slide_onto_star",
            format!(
                "slider came up after {}, and its slide {} would end on the star space {}",
                self.tipped(),
                dir.name(),
                square_name(end)
            ),
            self.dest_span(),
            format!("the slide ends on {}", square_name(end)),
        )
        .help(self.hops_help(Face::Slider))
    }

    fn short_slide(&self, end: u8) -> Diag {
        err(
            "deblockle::short_slide",
            format!(
                "slider must slide to {}, the end of its run, not {}",
                square_name(end),
                self.dest()
            ),
            self.dest_span(),
            format!("the slide ends on {}", square_name(end)),
        )
        .help(self.hops_help(Face::Slider))
    }

    fn hoops_unreachable(&self, tip: u8) -> Diag {
        err(
            "deblockle::hoops_unreachable",
            format!(
                "hoops came up after {}, but no path of three orthogonal steps over empty squares leads from {} to {}",
                self.tipped(),
                square_name(tip),
                self.dest()
            ),
            self.dest_span(),
            "hoops cannot reach this square",
        )
        .help(self.hops_help(Face::Hoops))
    }

    // The variant.

    /// `no-side-by-side`: every block of the mover that `g` would leave
    /// next to an opponent's, and the legal turns.
    fn side_by_side(&self, g: &Gen) -> Diag {
        let (pos, side) = (self.pos, self.side);
        let bit = |s: u8| 1u64 << s;
        let mut mine = pos.occ[side] & !bit(g.from);
        if !g.scored {
            mine |= bit(g.dest);
        }
        let theirs = pos.occ[side ^ 1];
        let touching: Vec<String> = (0..49u8)
            .filter(|&s| mine & bit(s) != 0 && around(bit(s)) & theirs != 0)
            .map(|s| {
                let next: Vec<String> = (0..49u8)
                    .filter(|&t| theirs & around(bit(s)) & bit(t) != 0)
                    .map(square_name)
                    .collect();
                format!(
                    "{}'s block on {} would stand orthogonally next to {}'s on {}",
                    SIDES[side],
                    square_name(s),
                    SIDES[side ^ 1],
                    next.join(" and ")
                )
            })
            .collect();
        err(
            "deblockle::side_by_side",
            format!(
                "after {}, {} (variant no-side-by-side)",
                turn_name(g),
                touching.join("; ")
            ),
            self.ms,
            "ends side by side",
        )
        .help(legal_moves_help(&legal_names(pos)).replace("legal moves", "legal turns"))
    }
}

/// `a` or `an` before a symbol's name.
fn article(f: Face) -> &'static str {
    if f == Face::X { "an" } else { "a" }
}

/// Canonical names of the legal turns of the side to move, sorted.
pub fn legal_names(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos.turns(pos.to_move).iter().map(turn_name).collect();
    v.sort();
    v
}
