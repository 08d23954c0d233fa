//! The Blokus rules, once for every board: [`State<G>`] over a
//! [`Geometry`] (classic's squares, Trigon's triangles) judges a move in
//! named steps, one per rule, and plays it; it keeps the turns, the players
//! and the scoring, and scores a position. A refused move is a typed
//! [`Illegal`] and leaves the position as it was; [`super::explain`]
//! words it.
//!
//! Order of the checks: the cells on the board, the piece unplaced, the
//! cells free, then the first piece's starting cell or, for a later piece,
//! no edge contact with its own colour and then a corner contact. A legal
//! placement (the common case) is found by the board's quick check first
//! ([`Geometry::legal`]) and played at once.

use super::geometry::{CellList, Geometry, Placement};

/// A typed Blokus move: a placement of classic's squares or of Trigon's
/// triangles (the move names its piece set, so that it is written without
/// the board), or a pass; or one edit of a setup made in the middle of a
/// game (Pentobi's setup in an inner node): a piece put on the board for
/// a colour, a piece taken off, or the colour to move next. An edit is no
/// ply: no colour takes a turn, and it may come after the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Square(Placement),
    Triangle(Placement),
    Pass,
    /// A piece of `colour` (an index in [`PALETTE`], so that the move
    /// names its colour without the board) put on the board (`trigon`:
    /// the placement's cells are triangles).
    Put {
        colour: u8,
        trigon: bool,
        place: Placement,
    },
    /// The piece covering exactly these cells taken off the board.
    Take { trigon: bool, place: Placement },
    /// The colour to move next (an index in [`PALETTE`]).
    ToMove(u8),
}

/// The colours a setup edit names: classic's four, then Duo's two.
pub const PALETTE: [&str; 6] = ["blue", "yellow", "red", "green", "purple", "orange"];

impl Move {
    /// A placement on a board of geometry `G`, as a move.
    pub fn on<G: Geometry>(p: Placement) -> Move
    where
        G::Place: Send + Sync,
    {
        if G::TRIGON {
            Move::Triangle(p)
        } else {
            Move::Square(p)
        }
    }

    /// The placement of a move on a board of geometry `G` (`None` for a
    /// pass, a setup edit, or a placement of the other geometry's cells).
    #[inline]
    pub fn placement_on<G: Geometry>(&self) -> Option<&Placement>
    where
        G::Place: Send + Sync,
    {
        match (self, G::TRIGON) {
            (Move::Square(p), false) | (Move::Triangle(p), true) => Some(p),
            _ => None,
        }
    }

    /// Whether the move is an edit of a setup (no ply).
    #[inline]
    pub fn is_edit(&self) -> bool {
        matches!(self, Move::Put { .. } | Move::Take { .. } | Move::ToMove(_))
    }

    /// The placement a setup edit puts or takes, and whether its cells are
    /// triangles.
    pub fn edit_placement(&self) -> Option<(bool, &Placement)> {
        match self {
            Move::Put { trigon, place, .. } | Move::Take { trigon, place } => Some((*trigon, place)),
            _ => None,
        }
    }
}

/// How a finished game is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    Basic,
    Official,
    Pentobi,
}

/// Cells of a move that are covered already: the index of each in the
/// move's cells, the cell and the colour on it, in the order written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Covered {
    n: u8,
    at: [(u8, (u8, u8), u8); 6],
}

impl Covered {
    fn push(&mut self, index: u8, cell: (u8, u8), owner: u8) {
        if let Some(slot) = self.at.get_mut(usize::from(self.n)) {
            *slot = (index, cell, owner);
            self.n += 1;
        }
    }

    /// `(index in the move, cell, colour on it)`, in the order written.
    pub fn as_slice(&self) -> &[(u8, (u8, u8), u8)] {
        self.at.get(..usize::from(self.n)).unwrap_or(&[])
    }
}

/// Why a move is refused. `index` is a cell's place in the move's cells
/// (as written), so that the diagnostic can blame its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// `colour` can place a piece and passed.
    Pass { colour: u8 },
    /// A placement of the other geometry (the notation never reads one).
    OtherBoard,
    /// A cell past the board's edge.
    OffBoard { index: u8, cell: (u8, u8) },
    /// `colour` placed this piece already.
    PieceUsed { colour: u8, piece: u8 },
    /// Cells covered already.
    Occupied { covered: Covered },
    /// `colour`'s first piece covers none of `starts`.
    StartMissed { colour: u8, starts: CellList },
    /// A cell shares an edge with `own`, a cell of its colour.
    EdgeContact {
        colour: u8,
        index: u8,
        cell: (u8, u8),
        own: (u8, u8),
    },
    /// The piece touches its colour at no corner.
    NoCornerContact { colour: u8, piece: u8 },
    /// Cells the rules accept that form no placement of the board (none
    /// such: every set of cells on the board forming a piece is one).
    NoPlacement,
    /// A setup edit takes off a piece that is not on the board: the cell
    /// (`index` in the edit's cells) is empty, or of another colour
    /// (`owner`) than the edit's first cell, or `owner` placed no such
    /// piece.
    NotOnBoard {
        index: u8,
        cell: (u8, u8),
        owner: Option<u8>,
    },
    /// A setup edit names a colour ([`PALETTE`] entry `colour`) the game
    /// does not have.
    NoColour { colour: u8 },
}

/// A Blokus game in progress on a board of geometry `G`.
#[derive(Clone, Debug, PartialEq)]
pub struct State<G> {
    pub board: G,
    pub duo: bool,
    /// Players: 2, 3 or 4 (Duo: 2).
    pub players: u8,
    pub scoring: Scoring,
    /// Turns taken by each colour, passes included.
    pub turns: [u32; 4],
}

const CLASSIC: [&str; 4] = ["blue", "yellow", "red", "green"];
const DUO: [&str; 2] = ["purple", "orange"];

impl<G: Geometry> State<G>
where
    G::Place: Send + Sync,
{
    /// The start of a game on `board`.
    pub fn new(board: G, duo: bool, players: u8, scoring: Scoring) -> State<G> {
        State {
            board,
            duo,
            players,
            scoring,
            turns: [0; 4],
        }
    }

    /// The name of colour `c`.
    pub fn colour(&self, c: u8) -> &'static str {
        let names: &[&'static str] = if self.duo { &DUO } else { &CLASSIC };
        names.get(usize::from(c)).copied().unwrap_or("?")
    }

    /// The colours, in turn order.
    pub fn colours(&self) -> std::ops::Range<u8> {
        0..self.board.colours()
    }

    /// The colour to move.
    pub fn mover(&self) -> u8 {
        self.board.side()
    }

    /// The effective variant name.
    pub fn variant(&self) -> &'static str {
        if G::TRIGON {
            "trigon"
        } else if self.duo {
            "duo"
        } else {
            "classic"
        }
    }

    /// Seat names in seat order.
    pub fn seats(&self) -> &'static [&'static str] {
        if self.duo {
            return &DUO;
        }
        if G::TRIGON && self.players == 3 {
            return &["blue", "yellow", "red"];
        }
        match self.players {
            2 => &["player1", "player2"],
            3 => &["player1", "player2", "player3"],
            _ => &CLASSIC,
        }
    }

    /// The seat that plays colour `c` now.
    pub fn seat_of(&self, c: u8) -> String {
        if self.duo || self.players == 4 || (G::TRIGON && self.players == 3) {
            return self.colour(c).to_string();
        }
        let n = match (self.players, c) {
            (2, c) => u32::from(c % 2) + 1,
            (_, 3) => self.turns.get(3).copied().unwrap_or(0) % 3 + 1,
            (_, c) => u32::from(c) + 1,
        };
        format!("player{n}")
    }

    /// Cells (squares or triangles) of colour `c` on the board.
    pub fn cells(&self, c: u8) -> u32 {
        self.board.count(c)
    }

    /// The score of colour `c` under the record's scoring.
    pub fn colour_score(&self, c: u8) -> i64 {
        let cells = i64::from(self.cells(c));
        if !self.board.all_placed(c) {
            return match self.scoring {
                Scoring::Official => cells - i64::from(G::ALL_CELLS),
                Scoring::Basic | Scoring::Pentobi => cells,
            };
        }
        let mono_last = self.board.last(c) == Some(G::MONOMINO);
        match self.scoring {
            Scoring::Basic => {
                let alone = self.colours().all(|o| o == c || !self.board.all_placed(o));
                cells + 15 + if alone { 10 } else { 0 }
            }
            Scoring::Official => {
                cells - i64::from(G::ALL_CELLS) + 15 + if mono_last { 5 } else { 0 }
            }
            Scoring::Pentobi => cells + 15 + if mono_last { 5 } else { 0 },
        }
    }

    /// Scores per seat, in seat order: a seat's colours summed.
    pub fn scores_into(&self, out: &mut Vec<i64>) {
        let s = |c: u8| self.colour_score(c);
        out.clear();
        if self.duo {
            return out.extend([s(0), s(1)]);
        }
        match self.players {
            2 => out.extend([s(0) + s(2), s(1) + s(3)]),
            3 => out.extend([s(0), s(1), s(2)]),
            _ => out.extend([s(0), s(1), s(2), s(3)]),
        }
    }

    /// Whether no colour can place.
    pub fn is_over(&self) -> bool {
        self.board.over()
    }

    /// Whether the colour to move has no placement.
    pub fn must_pass(&self) -> bool {
        !self.board.has_move(self.board.side())
    }

    /// The legal placements of the colour to move, as moves.
    pub fn legal(&self) -> Vec<Move> {
        let b = &self.board;
        b.moves(b.side())
            .into_iter()
            .map(|p| Move::on::<G>(b.written(p)))
            .collect()
    }

    /// Each legal placement with the points it earns its colour under the
    /// record's scoring (the change in that colour's score).
    pub fn scored(&self) -> Vec<(Move, i64)> {
        let c = self.board.side();
        let before = self.colour_score(c);
        self.board
            .moves(c)
            .into_iter()
            .map(|p| {
                let mut after = self.clone();
                after.board.play(p);
                (
                    Move::on::<G>(self.board.written(p)),
                    after.colour_score(c) - before,
                )
            })
            .collect()
    }

    /// One legal placement for the colour to move, and how many there are.
    pub fn one_placement(&self) -> Option<(Placement, u64)> {
        let b = &self.board;
        b.one_move(b.side()).map(|(p, n)| (b.written(p), n))
    }

    fn turn_taken(&mut self, c: u8) {
        if let Some(t) = self.turns.get_mut(usize::from(c)) {
            *t += 1;
        }
    }

    /// Judges `mv` for the colour to move and, when it is legal, plays it;
    /// a refused move changes nothing.
    #[inline]
    pub fn play(&mut self, mv: &Move) -> Result<(), Illegal> {
        let c = self.board.side();
        let Some(place) = mv.placement_on::<G>() else {
            return self.play_other(c, mv);
        };
        let p = match self.board.legal(c, place) {
            Some(p) => p,
            None => self.judge(c, place)?,
        };
        self.board.play(p);
        self.turn_taken(c);
        Ok(())
    }

    /// Whether `mv` is a placement the board's quick check finds legal for
    /// the colour to move ([`Geometry::legal`]).
    #[inline]
    pub fn plays_now(&self, mv: &Move) -> bool {
        mv.placement_on::<G>()
            .is_some_and(|p| self.board.legal(self.board.side(), p).is_some())
    }

    /// A move that places nothing for the colour to move `c`: a pass, a
    /// setup edit, or a placement of the other geometry.
    #[inline(never)]
    fn play_other(&mut self, c: u8, mv: &Move) -> Result<(), Illegal> {
        match mv {
            Move::Pass => {
                if self.board.has_move(c) {
                    return Err(Illegal::Pass { colour: c });
                }
                self.board.skip();
                self.turn_taken(c);
                Ok(())
            }
            Move::Put { colour, place, trigon } if *trigon == G::TRIGON => {
                let c = self.of_palette(*colour)?;
                self.put(c, place)
            }
            Move::Take { place, trigon } if *trigon == G::TRIGON => self.take(place),
            Move::ToMove(colour) => {
                let c = self.of_palette(*colour)?;
                self.board.set_side(c);
                self.board.forget_last();
                Ok(())
            }
            _ => Err(Illegal::OtherBoard),
        }
    }

    /// This game's colour that [`PALETTE`] entry `p` names.
    fn of_palette(&self, p: u8) -> Result<u8, Illegal> {
        let c = if self.duo { p.checked_sub(4) } else { Some(p) };
        c.filter(|&c| c < self.board.colours())
            .ok_or(Illegal::NoColour { colour: p })
    }

    /// A setup edit puts `place` on the board for `colour`: its cells on
    /// the board and free, the piece not placed by that colour before (no
    /// contact rule: a setup is any position). As after Pentobi's setup,
    /// no colour has a last piece placed in play any more.
    fn put(&mut self, colour: u8, place: &Placement) -> Result<(), Illegal> {
        let (ids, n) = self.on_board(place)?;
        let ids = ids.get(..n).unwrap_or(&[]);
        self.unplaced(colour, place.piece)?;
        self.free(ids)?;
        let p = self.board.find(place, ids).ok_or(Illegal::NoPlacement)?;
        self.board.put_piece(colour, p);
        self.board.forget_last();
        Ok(())
    }

    /// A setup edit takes `place` off the board: every cell of one colour,
    /// which has placed that piece.
    fn take(&mut self, place: &Placement) -> Result<(), Illegal> {
        let (ids, n) = self.on_board(place)?;
        let ids = ids.get(..n).unwrap_or(&[]);
        let first = ids.first().and_then(|&i| self.board.owner(i));
        for (k, &i) in ids.iter().enumerate() {
            let owner = self.board.owner(i);
            if owner.is_none() || owner != first {
                return Err(Illegal::NotOnBoard {
                    index: k as u8,
                    cell: self.board.coords(i),
                    owner,
                });
            }
        }
        let Some(c) = first else {
            return Err(Illegal::NoPlacement);
        };
        let bit = 1u32.checked_shl(u32::from(place.piece)).unwrap_or(0);
        if self.board.used(c) & bit == 0 {
            let (i, cell) = (0, place.cells().first().copied().unwrap_or((0, 0)));
            return Err(Illegal::NotOnBoard {
                index: i,
                cell,
                owner: Some(c),
            });
        }
        let p = self.board.find(place, ids).ok_or(Illegal::NoPlacement)?;
        self.board.take_piece(c, p);
        self.board.forget_last();
        Ok(())
    }

    /// The rules one by one, for a placement the quick check did not pass.
    fn judge(&self, c: u8, p: &Placement) -> Result<G::Place, Illegal> {
        let (ids, n) = self.on_board(p)?;
        let ids = ids.get(..n).unwrap_or(&[]);
        self.unplaced(c, p.piece)?;
        self.free(ids)?;
        if self.board.first_move(c) {
            self.covers_start(c, p)?;
        } else {
            self.no_edge_contact(c, ids)?;
            self.corner_contact(c, p.piece, ids)?;
        }
        self.board.find(p, ids).ok_or(Illegal::NoPlacement)
    }

    /// Every cell on the board: their indices.
    fn on_board(&self, p: &Placement) -> Result<([u16; 6], usize), Illegal> {
        let mut ids = [0u16; 6];
        for ((k, &(col, row)), slot) in p.cells().iter().enumerate().zip(ids.iter_mut()) {
            *slot = self.board.cell(col, row).ok_or(Illegal::OffBoard {
                index: k as u8,
                cell: (col, row),
            })?;
        }
        Ok((ids, p.cells().len()))
    }

    /// The piece not placed before.
    fn unplaced(&self, c: u8, piece: u8) -> Result<(), Illegal> {
        let bit = 1u32.checked_shl(u32::from(piece)).unwrap_or(0);
        if self.board.used(c) & bit != 0 {
            return Err(Illegal::PieceUsed { colour: c, piece });
        }
        Ok(())
    }

    /// No cell covered already.
    fn free(&self, ids: &[u16]) -> Result<(), Illegal> {
        let mut covered = Covered::default();
        for (k, &i) in ids.iter().enumerate() {
            if let Some(o) = self.board.owner(i) {
                covered.push(k as u8, self.board.coords(i), o);
            }
        }
        if covered.n > 0 {
            return Err(Illegal::Occupied { covered });
        }
        Ok(())
    }

    /// A first piece covers a starting cell.
    fn covers_start(&self, c: u8, p: &Placement) -> Result<(), Illegal> {
        let starts = self.board.starts(c);
        if p.cells()
            .iter()
            .any(|cell| starts.as_slice().contains(cell))
        {
            return Ok(());
        }
        Err(Illegal::StartMissed { colour: c, starts })
    }

    /// No cell shares an edge with its own colour (the first such cell, in
    /// the order written, and the own cell it touches).
    fn no_edge_contact(&self, c: u8, ids: &[u16]) -> Result<(), Illegal> {
        for (k, &i) in ids.iter().enumerate() {
            let b = &self.board;
            if let Some(o) = b.edge_neighbours(i).find(|&o| b.owner(o) == Some(c)) {
                return Err(Illegal::EdgeContact {
                    colour: c,
                    index: k as u8,
                    cell: b.coords(i),
                    own: b.coords(o),
                });
            }
        }
        Ok(())
    }

    /// Some cell touches its own colour at a corner.
    fn corner_contact(&self, c: u8, piece: u8, ids: &[u16]) -> Result<(), Illegal> {
        let b = &self.board;
        let touches = ids
            .iter()
            .any(|&i| b.corner_neighbours(i).any(|o| b.owner(o) == Some(c)));
        if touches {
            return Ok(());
        }
        Err(Illegal::NoCornerContact { colour: c, piece })
    }
}
