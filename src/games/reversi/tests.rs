//! Checks of the sized engine against the 8x8 bitboards, published 6x6
//! counts and a plain reference on every 4x4 game; the tags and scoring.

use super::engine::{self, Engine, Bitboard};
use super::sized::{self, Bits, Board};
use super::*;
use crate::game::{Explain, Position as _};
use crate::record::parse_file;

/// The sized engine's squares as 8x8 bits (`None` when off 8x8).
fn to_u64(b: Bits) -> u64 {
    b.squares()
        .fold(0, |acc, sq| acc | 1u64 << ((sq / 16) * 8 + sq % 16))
}

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

#[test]
fn sized_engine_at_8_agrees_with_bitboards() {
    let mut s = 0x1234_5678_9abc_def1u64;
    for _ in 0..400 {
        let mut pos = Bitboard::START;
        let mut board = Board::start(8);
        loop {
            assert_eq!(to_u64(board.black), pos.black);
            assert_eq!(to_u64(board.white), pos.white);
            assert_eq!(board.black_to_move, pos.black_to_move);
            let (p, o) = pos.mover();
            let legal = engine::legal_moves(p, o);
            assert_eq!(to_u64(board.moves), legal);
            assert_eq!(board.is_over(), pos.is_over());
            if pos.is_over() {
                break;
            }
            if legal == 0 {
                pos.pass();
                board.pass();
                continue;
            }
            let mut bits = legal;
            for _ in 0..(xorshift(&mut s) % u64::from(legal.count_ones())) {
                bits &= bits - 1;
            }
            let sq = bits.trailing_zeros();
            let f = engine::flips(p, o, sq);
            let ssq = sized::square((sq / 8) as u8, (sq % 8) as u8);
            assert_eq!(to_u64(board.flips(ssq)), f);
            pos.play(sq, f);
            board.play(ssq, board.flips(ssq));
        }
    }
}

#[test]
fn sized_perft_at_8_agrees() {
    for d in 0..=6 {
        assert_eq!(
            sized::perft(&Board::start(8), d),
            engine::perft(Bitboard::START, d)
        );
    }
}

/// 6x6 Othello from the standard start, depths 0 to 8, on the sized
/// engine and on the plain reference below (no published table of these
/// counts was at hand; the two are independent implementations).
#[test]
fn perft_6x6() {
    let want = [1u64, 4, 12, 56, 244, 1364, 7604, 47_740, 308_716];
    for (d, &n) in want.iter().enumerate() {
        assert_eq!(sized::perft(&Board::start(6), d as u32), n, "depth {d}");
    }
    for (d, &n) in want.iter().enumerate().take(8) {
        assert_eq!(Plain::start(6).perft(d as u32), n, "depth {d}");
    }
}

/// A plain reference for small boards: a `Vec` of cells, flips found by
/// walking each direction.
#[derive(Clone)]
struct Plain {
    n: i32,
    cells: Vec<u8>,
    black: bool,
}

impl Plain {
    fn start(n: i32) -> Plain {
        let mut cells = vec![0u8; (n * n) as usize];
        let h = n / 2;
        cells[((h - 1) * n + h - 1) as usize] = 2;
        cells[(h * n + h) as usize] = 2;
        cells[(h * n + h - 1) as usize] = 1;
        cells[((h - 1) * n + h) as usize] = 1;
        Plain {
            n,
            cells,
            black: true,
        }
    }

    fn flips(&self, black: bool, i: i32) -> Vec<i32> {
        let (me, them) = if black { (1, 2) } else { (2, 1) };
        if self.cells[i as usize] != 0 {
            return Vec::new();
        }
        let mut all = Vec::new();
        for dr in -1..=1 {
            for dc in -1..=1 {
                if (dr, dc) == (0, 0) {
                    continue;
                }
                let (mut r, mut c) = (i / self.n + dr, i % self.n + dc);
                let mut run = Vec::new();
                while r >= 0 && r < self.n && c >= 0 && c < self.n {
                    let v = self.cells[(r * self.n + c) as usize];
                    if v == them {
                        run.push(r * self.n + c);
                    } else {
                        if v == me {
                            all.extend(run);
                        }
                        break;
                    }
                    r += dr;
                    c += dc;
                }
            }
        }
        all
    }

    fn moves(&self, black: bool) -> Vec<i32> {
        (0..self.n * self.n)
            .filter(|&i| !self.flips(black, i).is_empty())
            .collect()
    }

    fn play(&self, i: i32) -> Plain {
        let mut p = self.clone();
        let v = if p.black { 1 } else { 2 };
        for f in p.flips(p.black, i) {
            p.cells[f as usize] = v;
        }
        p.cells[i as usize] = v;
        p.black = !p.black;
        p
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(self.black);
        if moves.is_empty() {
            if self.moves(!self.black).is_empty() {
                return 1;
            }
            let mut p = self.clone();
            p.black = !p.black;
            return p.perft(depth - 1);
        }
        moves.iter().map(|&i| self.play(i).perft(depth - 1)).sum()
    }
}

/// Walks every 4x4 game to its end on both engines, comparing every
/// position and its legal moves; counts (games, black wins, white wins,
/// draws) in `tally` and returns the final disc difference (black - white)
/// under perfect play.
fn walk(board: &Board, plain: &Plain, tally: &mut [u64; 4]) -> i64 {
    let n = plain.n;
    let on = |b: Bits| -> Vec<u8> {
        (0..n * n)
            .map(|i| u8::from(b.has(sized::square((i / n) as u8, (i % n) as u8))))
            .collect()
    };
    let cells: Vec<u8> = on(board.black)
        .iter()
        .zip(on(board.white))
        .map(|(&b, w)| b + 2 * w)
        .collect();
    assert_eq!(cells, plain.cells);
    let want: Vec<u8> = plain
        .moves(plain.black)
        .iter()
        .map(|&i| sized::square((i / n) as u8, (i % n) as u8))
        .collect();
    assert_eq!(board.moves.squares().collect::<Vec<_>>(), want);
    if board.is_over() {
        tally[0] += 1;
        let d = i64::from(board.black.count()) - i64::from(board.white.count());
        tally[(1 + usize::from(d < 0) + usize::from(d == 0) * 2).min(3)] += 1;
        return d;
    }
    if want.is_empty() {
        let mut b = *board;
        b.pass();
        let mut p = plain.clone();
        p.black = !p.black;
        return walk(&b, &p, tally);
    }
    let mut best: Option<i64> = None;
    for &i in &plain.moves(plain.black) {
        let sq = sized::square((i / n) as u8, (i % n) as u8);
        let mut b = *board;
        b.play(sq, board.flips(sq));
        let d = walk(&b, &plain.play(i), tally);
        best = Some(match best {
            None => d,
            Some(x) if plain.black => x.max(d),
            Some(x) => x.min(d),
        });
    }
    best.unwrap_or(0)
}

#[test]
fn every_4x4_game() {
    let mut tally = [0u64; 4];
    let value = walk(&Board::start(4), &Plain::start(4), &mut tally);
    // 60,060 games; with perfect play white wins by 8 discs (3-11)
    assert_eq!(value, -8, "{tally:?}");
    assert_eq!(
        tally,
        [60_060, 24_632, 30_116, 5_312],
        "games, black wins, white wins, draws"
    );
}

fn start(text: &str) -> Result<State, Vec<Diag>> {
    let games = parse_file(text);
    Reversi::start(&games[0].tags)
}

/// The side to move's legal moves in notation, sorted.
fn legal_names(s: &State) -> Vec<String> {
    let mut names: Vec<String> = s.legal_moves().unwrap().map(notation::write).collect();
    names.sort();
    names
}

fn codes(r: Result<State, Vec<Diag>>) -> Vec<String> {
    r.err()
        .unwrap_or_default()
        .iter()
        .map(|d| d.code.to_string())
        .collect()
}

#[test]
fn size_and_komi_tags() {
    let s = start("[Size \"10\"] [Komi \"-1.25\"] *").unwrap();
    assert_eq!(s.size(), 10);
    assert_eq!(s.komi, Some(Komi(-1_250_000_000)));
    assert_eq!(legal_names(&s), ["d5", "e4", "f7", "g6"]);
    for bad in ["3", "7", "18", "0", "x", "", "-8"] {
        assert_eq!(
            codes(start(&format!("[Size \"{bad}\"] *"))),
            ["reversi::bad_size"],
            "{bad}"
        );
    }
    for (text, k) in [
        ("0", 0),
        ("1.5", 1_500_000_000),
        ("-2", -2_000_000_000),
        ("+0.25", 250_000_000),
        ("3.10", 3_100_000_000),
        ("-3.133", -3_133_000_000),
        ("0.000000001", 1),
    ] {
        assert_eq!(
            start(&format!("[Komi \"{text}\"] *")).unwrap().komi,
            Some(Komi(k))
        );
        assert_eq!(
            Komi(k).to_string(),
            text.trim_start_matches('+').replace("3.10", "3.1")
        );
    }
    for bad in ["1.0000000001", "x", "1.", ".5", "--1", "1e3", "99999"] {
        assert_eq!(
            codes(start(&format!("[Komi \"{bad}\"] *"))),
            ["reversi::bad_komi"],
            "{bad}"
        );
    }
    assert_eq!(
        codes(start("[Size \"4\"] [Setup \"................ b\"] *")),
        Vec::<String>::new()
    );
    assert_eq!(
        codes(start("[Size \"6\"] [Setup \"................ b\"] *")),
        ["reversi::bad_setup"]
    );
}

/// Scores and winners of a finished position under each variant and komi.
#[test]
fn winners_under_komi_and_anti() {
    // 6x6, black 12, white 22, a1 and b1 empty: every line from them runs
    // through white discs to the edge, so neither side can move
    let cells = "..OOOO OOOXXX OOOOXX OOXOOX OOXXOO OOXXXO".replace(' ', "");
    let setup = |variant: &str, komi: &str| {
        start(&format!(
            "[Size \"6\"] [Variant \"{variant}\"] [Komi \"{komi}\"] [Setup \"{cells} b\"] *"
        ))
        .unwrap()
    };
    let s = setup("standard", "0");
    assert!(s.is_over());
    assert_eq!(s.scores(), [12, 22]);
    assert_eq!(s.winners(), [1]);
    assert_eq!(setup("standard", "-10").winners(), [0, 1]);
    assert_eq!(setup("standard", "-10.5").winners(), [0]);
    assert_eq!(setup("anti", "0").winners(), [0]);
    assert_eq!(setup("anti", "-10.5").winners(), [1]);
    assert_eq!(setup("anti", "-10").winners(), [0, 1]);
    // wof: the empty squares go to the side with more discs, then the komi
    // is added to white's score (GGS's rule)
    assert_eq!(setup("wof", "0").scores(), [12, 24]);
    assert_eq!(setup("wof", "-11").scores(), [12, 24]);
    assert_eq!(setup("wof", "-10").winners(), [1]);
    assert_eq!(setup("wof", "-12").winners(), [0, 1]);
    assert_eq!(setup("wof", "-12.5").winners(), [0]);
    assert_eq!(setup("anti", "0").scores(), [12, 22]);
    assert_eq!(
        Reversi::result_help(&s, &[12, 24]).as_deref(),
        Some(
            "the claim holds under the `wof` scoring (empty squares to the winner): add [Variant \"wof\"], or --variant wof for records without a Variant tag"
        )
    );
    assert_eq!(
        Reversi::result_help(&setup("wof", "0"), &[12, 22]).as_deref(),
        Some(
            "the claim holds under the `standard` scoring (discs on the board): add [Variant \"standard\"], or --variant standard for records without a Variant tag"
        )
    );
    assert_eq!(Reversi::result_help(&s, &[13, 22]), None);
}

#[test]
fn perft_other_sizes_agree_with_plain() {
    for (size, depth) in [(4u8, 6u32), (10, 4), (12, 4), (16, 3)] {
        for d in 0..=depth {
            assert_eq!(
                sized::perft(&Board::start(size), d),
                Plain::start(i32::from(size)).perft(d),
                "size {size}, depth {d}"
            );
        }
    }
}

/// Arbitrary bytes as movetext, on every size, read without a panic; every
/// square read is on the board.
#[test]
fn any_movetext_reads_on_every_size() {
    let mut s = 0x0bad_cafe_f00d_1234u64;
    for size in (4..=16).step_by(2) {
        for _ in 0..300 {
            let len = (xorshift(&mut s) % 12) as usize;
            let text: String = (0..len)
                .map(|_| {
                    let pick = b"aAjJpPqz019!-/ .#\x7f";
                    char::from(pick[(xorshift(&mut s) % pick.len() as u64) as usize])
                })
                .collect();
            let games = parse_file(&text);
            let Some(g) = games.first() else { continue };
            let read = notation::parse_sized(&g.tokens, &text, size);
            for m in read.moves {
                match m.mv {
                    Move::At(sq) => assert!(sq / 16 < size && sq % 16 < size, "{text:?}"),
                    Move::Place(sq) => assert!(size == 8 && sq < 64),
                    Move::Pass => {}
                }
            }
        }
    }
    for k in [
        "",
        "-",
        "+",
        ".",
        "1..2",
        "٣",
        "99999999999999999999",
        "1 2",
        "-0.0",
    ] {
        let _ = parse_komi(k);
    }
    assert_eq!(parse_komi("-0.0"), Ok(Komi(0)));
}

/// A random start of the middle game around the standard one.
fn random_start(s: &mut u64) -> Bitboard {
    let a = xorshift(s);
    let b = xorshift(s);
    Bitboard {
        black: a & b & !Bitboard::START.white | Bitboard::START.black,
        white: a & !b & !Bitboard::START.black | Bitboard::START.white,
        black_to_move: b & 1 == 0,
    }
}

/// A legal move mostly; now and then any square or a pass.
fn pick_move(s: &mut u64, state: &State) -> Move {
    let r = xorshift(s);
    match r % 8 {
        0 => Move::Place((r >> 8) as u8 % 70),
        1 => Move::Pass,
        _ if state.moves == 0 => Move::Pass,
        _ => {
            let mut bits = state.moves;
            for _ in 0..(r >> 8) % u64::from(bits.count_ones()) {
                bits &= bits - 1;
            }
            Move::Place(bits.trailing_zeros() as u8)
        }
    }
}

/// The plain `Bitboard` bookkeeping of a game, to check `State` against.
struct Reference {
    pos: Bitboard,
    placed: [u32; 2],
}

impl Reference {
    /// `plain` (the portable engine) and `fast` (this CPU's) are the
    /// reference's position.
    fn check(&self, plain: &State, fast: &State) {
        let (p, o) = self.pos.mover();
        assert_eq!(plain.pos(), self.pos);
        assert_eq!(plain.moves, engine::legal_moves(p, o));
        assert_eq!(plain.over, self.pos.is_over());
        assert_eq!(plain.placed, self.placed);
        let same_engine = State {
            engine: fast.engine,
            ..plain.clone()
        };
        assert_eq!(same_engine, *fast);
    }

    /// Follows a move the engines took.
    fn play(&mut self, mv: Move) {
        let (p, o) = self.pos.mover();
        match mv {
            Move::Place(sq) => {
                let sq = u32::from(sq);
                if let Some(n) = self.placed.get_mut(usize::from(!self.pos.black_to_move)) {
                    *n += 1;
                }
                self.pos.play(sq, engine::flips(p, o, sq));
            }
            _ => self.pos.pass(),
        }
    }
}

/// `game::Position::play` on the portable 8x8 engine and on the one this CPU
/// runs (AVX2 where it has it), against the plain `Bitboard` bookkeeping:
/// the same states after every ply (discs, side to move, legal moves,
/// whether over, discs placed), the same reasons for illegal moves and
/// passes, which leave the state as it was, on random games from the
/// start and from setups.
#[test]
fn play_engines_agree() {
    let mut s = 0x0123_4567_89ab_cdefu64;
    // (legal moves, passes, illegal moves) seen
    let mut seen = [0; 3];
    for game in 0..400 {
        // every other game from a random setup of the middle game
        let start = if game % 2 == 0 {
            Bitboard::START
        } else {
            random_start(&mut s)
        };
        let mut plain = State::new(start, Scoring::Standard);
        plain.engine = Engine::Plain;
        let mut fast = State::new(start, Scoring::Standard);
        let mut reference = Reference {
            pos: start,
            placed: [0; 2],
        };
        loop {
            reference.check(&plain, &fast);
            if reference.pos.is_over() {
                break;
            }
            let mv = pick_move(&mut s, &plain);
            let before = plain.clone();
            let (a, b) = (plain.play(&mv), fast.play(&mv));
            assert_eq!(a, b, "{mv:?}");
            match a {
                Err(_) => {
                    assert_eq!(plain, before, "{mv:?} refused, the state unchanged");
                    seen[2] += 1;
                }
                Ok(()) => {
                    seen[usize::from(mv == Move::Pass)] += 1;
                    reference.play(mv);
                }
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
}

/// The typed reasons: a pass with a move, a taken square (and whose), a
/// square that outflanks nothing, a square off a small board; each
/// refusal changes nothing.
#[test]
fn illegal_reasons() {
    let mut s = start("*").unwrap();
    let before = s.clone();
    let d4 = Square { row: 3, col: 3 };
    assert_eq!(s.play(&Move::Pass), Err(Illegal::Pass));
    assert_eq!(
        s.play(&Move::Place(27)),
        Err(Illegal::Occupied {
            square: d4,
            black: false
        })
    );
    let a1 = Square { row: 0, col: 0 };
    assert_eq!(s.play(&Move::Place(0)), Err(Illegal::NoFlip(a1)));
    assert_eq!(s, before);
    let mut small = start("[Size \"6\"] *").unwrap();
    let before = small.clone();
    let g7 = Square { row: 6, col: 6 };
    assert_eq!(
        small.play(&Move::At(6 * 16 + 6)),
        Err(Illegal::OffBoard(g7))
    );
    assert_eq!(small.play(&Move::At(0)), Err(Illegal::NoFlip(a1)));
    assert_eq!(small, before);
    assert_eq!(notation::square_text(g7), "g7");
}
