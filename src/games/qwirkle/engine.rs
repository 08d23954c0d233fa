//! The Qwirkle engine: a game in progress ([`State`]), its typed turns
//! ([`Move`], no spans: where a turn was written is the driver's to keep),
//! and why a turn is refused ([`Illegal`], with the data its message
//! needs). A turn is judged in named steps, one per rule, before anything
//! changes: a refused turn leaves the state as it was, so
//! [`super::explain`] can say why from it. Nothing here builds a message.
//! The board, its judge and the placement generator are [`super::board`].

use crate::game::{Position, Unlisted};

use super::board::{
    self, Board, Counts, Few, MAX_LINE, PlaceError, Put, Tile, count_add, count_take, tiles_of,
};

/// A tile on a square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Placed {
    pub tile: Tile,
    pub x: i32,
    pub y: i32,
}

impl Placed {
    /// The tile on its square, widened for the board's arithmetic.
    #[inline]
    pub fn put(self) -> Put {
        Put {
            tile: self.tile,
            x: i64::from(self.x),
            y: i64::from(self.y),
        }
    }
}

/// The tiles of a draw after a turn (`<Gs,Bx>`; `<>` is none): up to six
/// (a hand) in place, a longer list (always refused, `wrong_draw_count`)
/// in a `Vec`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawTiles {
    len: u8,
    inline: [Tile; MAX_LINE],
    spill: Vec<Tile>,
}

impl DrawTiles {
    pub fn push(&mut self, t: Tile) {
        if self.spill.is_empty() {
            if let Some(slot) = self.inline.get_mut(usize::from(self.len)) {
                *slot = t;
                self.len += 1;
                return;
            }
            self.spill.extend_from_slice(&self.inline);
        }
        self.spill.push(t);
    }
}

impl std::ops::Deref for DrawTiles {
    type Target = [Tile];
    fn deref(&self) -> &[Tile] {
        if self.spill.is_empty() {
            self.inline.get(..usize::from(self.len)).unwrap_or(&[])
        } else {
            &self.spill
        }
    }
}

/// The tiles of a placement: a turn places at most six.
pub type PlacedTiles = Few<Placed, MAX_LINE>;

/// The tiles of a swap: a hand holds six.
pub type SwapTiles = Few<Tile, MAX_LINE>;

/// A typed Qwirkle turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Move {
    Place {
        tiles: PlacedTiles,
        /// The claimed score `=N`, when written.
        claim: Option<i64>,
        /// The tiles drawn, when written.
        draw: Option<DrawTiles>,
    },
    Swap {
        /// The tiles put back, when written (`swap Rc,Bs`).
        tiles: Option<SwapTiles>,
        /// How many tiles are put back.
        count: usize,
        /// The tiles drawn, when written.
        draw: Option<DrawTiles>,
    },
    Pass,
}

/// Why a turn is illegal. Indices (`at`) are into the turn's tiles as
/// written; the seat is always the one to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The board refuses the placement (`occupied` .. `mixed_line`).
    Board(PlaceError),
    /// A placement of more tiles than the hand holds.
    PlacesMoreThanHeld { held: usize, placed: usize },
    /// The tile at `at` of the placement is not in the known hand, which
    /// holds `held` of it while the turn uses `wanted`.
    PlacedNotHeld {
        at: usize,
        tile: Tile,
        held: u8,
        wanted: usize,
    },
    /// First turn: `starter` holds a larger group (`group`) than the
    /// mover's `mine`, and starts.
    NotTheStarter {
        starter: usize,
        group: usize,
        mine: usize,
    },
    /// First turn: `placed` tiles where the mover's largest group holds
    /// `group`.
    FirstGroupSize { placed: usize, group: usize },
    /// The written draw holds `written` tiles where the turn draws `expect`
    /// (the bag holding `bag`).
    WrongDrawCount {
        expect: usize,
        written: usize,
        bag: usize,
    },
    /// The turn would make a fourth copy of `tile` (placed, or drawn).
    FourthCopy { tile: Tile },
    /// The claim `claimed` is not the turn's score `total` (`out`: with the
    /// 6 for going out).
    WrongClaim { claimed: i64, total: i64, out: bool },
    /// A swap as the first turn, which places the largest group.
    FirstTurnSwap,
    /// A swap of more tiles than the hand holds.
    SwapsMoreThanHeld { held: usize, count: usize },
    /// The tile at `at` of the swap is not in the known hand, which holds
    /// `held` of it while the swap uses `wanted`.
    SwappedNotHeld {
        at: usize,
        tile: Tile,
        held: u8,
        wanted: usize,
    },
    /// A swap of more tiles than the bag holds.
    SwapTooLarge { bag: usize, count: usize },
    /// A pass while the bag holds tiles.
    PassWithBag { bag: usize },
    /// A pass (bag empty, hand known) while a placement exists.
    PassWithPlacement,
}

/// Why a hand stopped being known, and from which ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unknown {
    pub ply: usize,
    pub why: &'static str,
}

/// The most players.
pub const SEATS_MOST: usize = 6;

/// The seats' names, in turn order.
pub const SEATS: [&str; SEATS_MOST] = [
    "player1", "player2", "player3", "player4", "player5", "player6",
];

/// A Qwirkle game in progress. The per-seat arrays hold six seats; those
/// past `players` stay as they start (six tiles, unknown, no score).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub players: usize,
    pub board: Board,
    /// Tiles left in the bag.
    pub bag: usize,
    /// Tiles in each hand (always known).
    pub hand_size: [usize; SEATS_MOST],
    /// Each hand's tiles, while known.
    pub hands: [Option<Counts>; SEATS_MOST],
    /// Whether each hand was given by a `HandN` tag.
    pub tagged: [bool; SEATS_MOST],
    /// When a tagged hand became unknown.
    pub lost: [Option<Unknown>; SEATS_MOST],
    pub scores: [i64; SEATS_MOST],
    pub to_move: usize,
    /// Passes in a row.
    pub passes: usize,
    pub over: bool,
    /// The seat that placed its last tile (and got the 6).
    pub went_out: Option<usize>,
    /// Turns played.
    pub ply: usize,
}

/// The placed tiles, then the drawn ones of an unknown hand: at most six
/// and six (a draw holds as many tiles as the turn draws when it gets here).
type Extra = Few<Tile, 12>;

impl State {
    /// The start: `players` seats, the hands the tags gave.
    pub fn new(players: usize, hands: [Option<Counts>; SEATS_MOST]) -> State {
        State {
            players,
            board: Board::default(),
            bag: 108 - 6 * players,
            hand_size: [6; SEATS_MOST],
            hands,
            tagged: hands.map(|h| h.is_some()),
            lost: [const { None }; SEATS_MOST],
            scores: [0; SEATS_MOST],
            to_move: 0,
            passes: 0,
            over: false,
            went_out: None,
            ply: 0,
        }
    }

    /// The mover's hand, when known.
    pub fn hand(&self) -> Option<&Counts> {
        self.hands.get(self.to_move).and_then(|h| h.as_ref())
    }

    /// How many tiles the mover holds.
    pub fn size(&self) -> usize {
        self.hand_size.get(self.to_move).copied().unwrap_or(0)
    }

    /// The seats' hands.
    pub fn seat_hands(&self) -> &[Option<Counts>] {
        self.hands.get(..self.players).unwrap_or(&self.hands)
    }

    /// Whether each seat's hand was tagged.
    pub fn seat_tagged(&self) -> &[bool] {
        self.tagged.get(..self.players).unwrap_or(&self.tagged)
    }

    fn all_known(&self) -> bool {
        self.seat_hands().iter().all(Option::is_some)
    }

    /// The first-turn group size when the rule applies: first turn, all hands known.
    pub fn first_group(&self) -> Option<usize> {
        if self.ply == 0 && self.board.is_empty() && self.all_known() {
            self.hand().map(board::largest_group)
        } else {
            None
        }
    }

    /// Legal placements of the mover (known hand) with their scores, the 6
    /// for going out included, in the generator's order.
    pub fn placements(&self) -> Vec<(Move, i64)> {
        let Some(hand) = self.hand() else {
            return Vec::new();
        };
        // Going out with the bag empty earns the 6.
        let size = self.size();
        self.board
            .placements(hand, self.first_group())
            .into_iter()
            .filter_map(|(puts, score)| {
                let mut tiles = PlacedTiles::default();
                for p in &puts {
                    // Squares are 32-bit: a board at the edge of that range
                    // has no squares beyond it.
                    let (Ok(x), Ok(y)) = (i32::try_from(p.x), i32::try_from(p.y)) else {
                        return None;
                    };
                    tiles.push(Placed { tile: p.tile, x, y });
                }
                let out = self.bag == 0 && puts.len() == size;
                let place = Move::Place {
                    tiles,
                    claim: None,
                    draw: None,
                };
                Some((place, score + if out { 6 } else { 0 }))
            })
            .collect()
    }

    /// Whether the mover (known hand) has a legal placement.
    pub fn has_placement(&self) -> bool {
        let Some(hand) = self.hand() else {
            return false;
        };
        self.board
            .placements(hand, self.first_group())
            .iter()
            .any(|(puts, _)| {
                puts.iter()
                    .all(|p| i32::try_from(p.x).is_ok() && i32::try_from(p.y).is_ok())
            })
    }

    /// Every distinct swap the bag allows (known hand, not the first turn).
    pub fn swaps(&self) -> Vec<Move> {
        let Some(hand) = self.hand() else {
            return Vec::new();
        };
        if self.first_group().is_some() {
            return Vec::new();
        }
        let mut tiles = tiles_of(hand);
        // A hand holds at most six tiles; keep the subset count bounded anyway.
        tiles.truncate(MAX_LINE);
        let mut picks: Vec<Vec<Tile>> = (1u32..(1u32 << tiles.len()))
            .map(|mask| {
                tiles
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask & (1 << i) != 0)
                    .map(|(_, &t)| t)
                    .collect::<Vec<Tile>>()
            })
            .filter(|pick| pick.len() <= self.bag)
            .collect();
        // The hand's tiles are in kind order: equal sets are equal lists.
        picks.sort();
        picks.dedup();
        picks
            .into_iter()
            .map(|pick| {
                let mut tiles = SwapTiles::default();
                for &t in &pick {
                    tiles.push(t);
                }
                Move::Swap {
                    tiles: Some(tiles),
                    count: pick.len(),
                    draw: None,
                }
            })
            .collect()
    }

    /// Marks the mover's hand unknown from this ply.
    fn lose(&mut self, p: usize, why: &'static str) {
        if let Some(h) = self.hands.get_mut(p) {
            if h.is_some() {
                *h = None;
                if let Some(l) = self.lost.get_mut(p) {
                    *l = Some(Unknown {
                        ply: self.ply + 1,
                        why,
                    });
                }
            }
        }
    }

    /// The supply check: board plus known hands (the mover's replaced by
    /// `mine`), plus `extra`, hold at most 3 of each kind; the first kind
    /// with a fourth copy, if any.
    ///
    /// Board plus known hands never hold a fourth copy between turns (the
    /// start checks the tagged hands, every turn this check), and a turn
    /// adds copies only of the kinds it places or draws (`extra` and
    /// `drawn`): only those are counted.
    fn fourth_copy(&self, mine: Option<&Counts>, extra: &[Tile], drawn: &[Tile]) -> Option<Tile> {
        let count = |k: Tile| {
            let i = usize::from(k);
            let mut n = u32::from(self.board.on_board.get(i).copied().unwrap_or(0));
            for (p, h) in self.seat_hands().iter().enumerate() {
                let h = if p == self.to_move { mine } else { h.as_ref() };
                n += u32::from(h.and_then(|h| h.get(i)).copied().unwrap_or(0));
            }
            n + extra.iter().filter(|&&t| t == k).count() as u32
        };
        let first = extra
            .iter()
            .chain(drawn)
            .copied()
            .filter(|&k| count(k) > 3)
            .min();
        #[cfg(debug_assertions)]
        debug_assert_eq!(
            first,
            self.fourth_copy_full(mine, extra),
            "{extra:?} {drawn:?}"
        );
        first
    }

    /// [`State::fourth_copy`] counting every kind (the plain computation the
    /// debug build checks it against).
    #[cfg(debug_assertions)]
    fn fourth_copy_full(&self, mine: Option<&Counts>, extra: &[Tile]) -> Option<Tile> {
        let mut c = self.board.on_board;
        for (p, h) in self.seat_hands().iter().enumerate() {
            let h = if p == self.to_move { mine } else { h.as_ref() };
            if let Some(h) = h {
                for (x, &n) in c.iter_mut().zip(h) {
                    *x = x.saturating_add(n);
                }
            }
        }
        for &t in extra {
            count_add(&mut c, t);
        }
        c.iter().position(|&n| n > 3).map(|k| k as Tile)
    }

    fn next_turn(&mut self) {
        self.ply += 1;
        self.to_move = (self.to_move + 1) % self.players.max(1);
    }
}

/// The judge's steps, one per rule, in the order the rules docs give
/// (`super`): each refuses with the reason or lets the turn on.
impl State {
    /// A turn of at most `held` tiles (the mover's hand size).
    fn check_hand_size(&self, n: usize) -> Result<usize, usize> {
        let held = self.size();
        if n > held { Err(held) } else { Ok(held) }
    }

    /// The mover's known hand without `tiles` (`None` for an unknown
    /// hand); `Err` with the index of the first tile it does not hold, the
    /// copies it holds of it, and how many the turn uses.
    fn take_from_hand(&self, tiles: &[Tile]) -> Result<Option<Counts>, (usize, Tile, u8, usize)> {
        let Some(hand) = self.hand() else {
            return Ok(None);
        };
        let mut mine = *hand;
        for (at, &t) in tiles.iter().enumerate() {
            if !count_take(&mut mine, t) {
                let held = hand.get(usize::from(t)).copied().unwrap_or(0);
                let wanted = tiles.iter().filter(|&&u| u == t).count();
                return Err((at, t, held, wanted));
            }
        }
        Ok(Some(mine))
    }

    /// The first turn places a largest group, by the player who holds the
    /// largest one.
    fn check_first_group(&self, group: usize, placed: usize) -> Result<(), Illegal> {
        let best = self
            .seat_hands()
            .iter()
            .enumerate()
            .filter_map(|(p, h)| h.as_ref().map(|h| (p, board::largest_group(h))))
            .max_by_key(|&(p, g)| (g, std::cmp::Reverse(p)));
        if let Some((starter, g)) = best {
            if g > group {
                return Err(Illegal::NotTheStarter {
                    starter,
                    group: g,
                    mine: group,
                });
            }
        }
        if placed != group {
            return Err(Illegal::FirstGroupSize { placed, group });
        }
        Ok(())
    }

    /// A written draw holds exactly the tiles the turn draws.
    fn check_draw(&self, draw: Option<&DrawTiles>, expect: usize) -> Result<(), Illegal> {
        match draw {
            Some(d) if d.len() != expect => Err(Illegal::WrongDrawCount {
                expect,
                written: d.len(),
                bag: self.bag,
            }),
            _ => Ok(()),
        }
    }

    /// The claim, when written, is the turn's score.
    fn check_claim(claim: Option<i64>, total: i64, out: bool) -> Result<(), Illegal> {
        match claim {
            Some(claimed) if claimed != total => Err(Illegal::WrongClaim {
                claimed,
                total,
                out,
            }),
            _ => Ok(()),
        }
    }
}

/// Playing a turn: judge every step, then change the state.
impl State {
    fn play_place(
        &mut self,
        tiles: &[Placed],
        claim: Option<i64>,
        draw: Option<&DrawTiles>,
    ) -> Result<(), Illegal> {
        // a turn's tiles on the stack (a placement holds at most six)
        let mut puts = Few::<Put, MAX_LINE>::default();
        let mut kinds = Few::<Tile, MAX_LINE>::default();
        for p in tiles {
            puts.push(p.put());
            kinds.push(p.tile);
        }
        let score = self.board.judge_total(&puts).map_err(Illegal::Board)?;
        let size =
            self.check_hand_size(puts.len())
                .map_err(|held| Illegal::PlacesMoreThanHeld {
                    held,
                    placed: puts.len(),
                })?;
        let mut mine = self
            .take_from_hand(&kinds)
            .map_err(|(at, tile, held, wanted)| Illegal::PlacedNotHeld {
                at,
                tile,
                held,
                wanted,
            })?;
        if let Some(g) = self.first_group() {
            self.check_first_group(g, puts.len())?;
        }
        let expect = puts.len().min(self.bag);
        self.check_draw(draw, expect)?;
        let drawn: &[Tile] = draw.map_or(&[], |d| &d[..]);
        // `mine` becomes the hand after the draw (without a draw, nothing changes)
        if let Some(h) = &mut mine {
            for &t in drawn {
                count_add(h, t);
            }
        }
        let mut extra = Extra::default();
        for &t in kinds.iter() {
            extra.push(t);
        }
        if mine.is_none() {
            for &t in drawn {
                extra.push(t);
            }
        }
        if let Some(tile) = self.fourth_copy(mine.as_ref(), &extra, drawn) {
            return Err(Illegal::FourthCopy { tile });
        }
        let new_size = size - puts.len() + expect;
        let out = self.bag == 0 && new_size == 0;
        let total = score + if out { 6 } else { 0 };
        Self::check_claim(claim, total, out)?;
        self.commit_place(&puts, mine, draw.is_some(), expect, total, out);
        Ok(())
    }

    /// Puts a judged placement on the board: the hand after it (`mine`,
    /// kept known when the draw is written or there is none), the bag, the
    /// score, the end when the mover went out.
    fn commit_place(
        &mut self,
        puts: &[Put],
        mine: Option<Counts>,
        drawn: bool,
        expect: usize,
        total: i64,
        out: bool,
    ) {
        for p in puts {
            self.board.set(*p);
        }
        let p = self.to_move;
        if drawn || expect == 0 {
            if let Some(h) = self.hands.get_mut(p) {
                *h = mine;
            }
        } else {
            self.lose(p, "a draw was not written");
        }
        self.bag -= expect;
        if let Some(s) = self.hand_size.get_mut(p) {
            *s = *s - puts.len() + expect;
        }
        if let Some(s) = self.scores.get_mut(p) {
            *s += total;
        }
        self.passes = 0;
        if out {
            self.over = true;
            self.went_out = Some(p);
        }
        self.next_turn();
    }

    fn play_swap(
        &mut self,
        tiles: Option<&[Tile]>,
        count: usize,
        draw: Option<&DrawTiles>,
    ) -> Result<(), Illegal> {
        if self.first_group().is_some() {
            return Err(Illegal::FirstTurnSwap);
        }
        self.check_hand_size(count)
            .map_err(|held| Illegal::SwapsMoreThanHeld { held, count })?;
        let mine = match tiles {
            Some(ts) => self
                .take_from_hand(ts)
                .map_err(|(at, tile, held, wanted)| Illegal::SwappedNotHeld {
                    at,
                    tile,
                    held,
                    wanted,
                })?,
            None => None,
        };
        if count > self.bag {
            return Err(Illegal::SwapTooLarge {
                bag: self.bag,
                count,
            });
        }
        self.check_draw(draw, count)?;
        let drawn: &[Tile] = draw.map_or(&[], |d| &d[..]);
        let known_after = tiles.is_some() && draw.is_some();
        let mut after = if known_after { mine } else { None };
        if let Some(h) = &mut after {
            for &t in drawn {
                count_add(h, t);
            }
        }
        let extra: &[Tile] = if after.is_none() { drawn } else { &[] };
        // The swapped tiles are back in the bag: out of the supply count.
        if let Some(tile) = self.fourth_copy(after.as_ref(), extra, drawn) {
            return Err(Illegal::FourthCopy { tile });
        }
        let p = self.to_move;
        if known_after {
            if let Some(h) = self.hands.get_mut(p) {
                *h = after;
            }
        } else if tiles.is_none() {
            self.lose(p, "a swap without its tiles");
        } else {
            self.lose(p, "a draw was not written");
        }
        self.passes = 0;
        self.next_turn();
        Ok(())
    }

    fn play_pass(&mut self) -> Result<(), Illegal> {
        if self.bag > 0 {
            return Err(Illegal::PassWithBag { bag: self.bag });
        }
        if self.has_placement() {
            return Err(Illegal::PassWithPlacement);
        }
        self.passes += 1;
        if self.passes >= self.players {
            self.over = true;
        }
        self.next_turn();
        Ok(())
    }
}

impl Position for State {
    type Move = Move;
    type Illegal = Illegal;

    const SCORES_MOVES: bool = true;

    fn variant(&self) -> &'static str {
        "standard"
    }

    fn seats(&self) -> &'static [&'static str] {
        SEATS.get(..self.players).unwrap_or(&SEATS)
    }

    fn to_move(&self) -> &'static str {
        SEATS.get(self.to_move).copied().unwrap_or("player?")
    }

    fn is_over(&self) -> bool {
        self.over
    }

    fn is_pass(mv: &Move) -> bool {
        *mv == Move::Pass
    }

    fn pass() -> Move {
        Move::Pass
    }

    fn play(&mut self, mv: &Move) -> Result<(), Illegal> {
        match mv {
            Move::Pass => self.play_pass(),
            Move::Place { tiles, claim, draw } => self.play_place(tiles, *claim, draw.as_ref()),
            Move::Swap { tiles, count, draw } => {
                self.play_swap(tiles.as_deref(), *count, draw.as_ref())
            }
        }
    }

    fn scores_into(&self, out: &mut Vec<i64>) {
        out.clear();
        out.extend_from_slice(self.scores.get(..self.players).unwrap_or(&[]));
    }

    fn legal_moves(&self) -> Result<impl Iterator<Item = Move> + '_, Unlisted> {
        Ok(self.scored_moves()?.into_iter().map(|(mv, _)| mv))
    }

    /// Placements with their score (the 6 for going out included), then the
    /// swaps the bag allows, scoring 0.
    fn scored_moves(&self) -> Result<Vec<(Move, i64)>, Unlisted> {
        if self.hand().is_none() {
            return Err(Unlisted(format!(
                "the hand of {} is not known",
                Position::to_move(self)
            )));
        }
        let mut out = self.placements();
        if self.bag > 0 {
            out.extend(self.swaps().into_iter().map(|s| (s, 0)));
        }
        Ok(out)
    }
}
