//! Engine tests: the spec's counts, and the generator against a slow one
//! written from the spec's formulas (row spans, neighbour offsets) on
//! coordinates, sharing nothing with the engine but the piece shapes.

use std::collections::{BTreeSet, HashSet};

use super::board::*;
use super::pieces::{self, ORIENTS};
use crate::games::blokus::Placements;
use crate::games::blokus::perft;

#[test]
fn geometry_sizes() {
    assert_eq!(EDGE9.len(), 486);
    assert_eq!(EDGE8.len(), 384);
    assert_eq!(EDGE9.places.len(), 32_131);
    assert_eq!(EDGE8.places.len(), 24_859);
}

#[test]
fn first_moves_and_perft_2() {
    for three in [false, true] {
        let b = Board::new(three);
        assert_eq!(b.count_moves(0), 2_478);
        assert_eq!(perft(&b, 1), 2_478);
        assert_eq!(perft(&b, 2), 5_117_070);
    }
}

/// A placement as its sorted `(column, row)` triangles.
type Cells = BTreeSet<(i32, i32)>;

/// The slow generator's position: triangles per colour by coordinates.
struct Slow {
    edge: i32,
    own: Vec<HashSet<(i32, i32)>>,
    used: Vec<u32>,
}

impl Slow {
    fn on_board(&self, x: i32, r: i32) -> bool {
        // row number r + 1; rows k and 2n + 1 - k span the same columns
        let n = self.edge;
        let row = r + 1;
        if !(1..=2 * n).contains(&row) {
            return false;
        }
        let k = row.min(2 * n + 1 - row);
        let first = n - k;
        x >= first && x <= 4 * n - 2 - first
    }

    fn up(&self, x: i32, r: i32) -> bool {
        let row = r + 1;
        if self.edge == 9 {
            (x + row) % 2 == 0
        } else {
            (x + row) % 2 == 1
        }
    }

    fn edge_nb(&self, x: i32, r: i32) -> Vec<(i32, i32)> {
        let v = if self.up(x, r) { r - 1 } else { r + 1 };
        vec![(x - 1, r), (x + 1, r), (x, v)]
    }

    fn corner_nb(&self, x: i32, r: i32) -> Vec<(i32, i32)> {
        let (a, b) = if self.up(x, r) {
            (r + 1, r - 1)
        } else {
            (r - 1, r + 1)
        };
        vec![
            (x - 2, r),
            (x + 2, r),
            (x - 1, a),
            (x, a),
            (x + 1, a),
            (x - 2, b),
            (x - 1, b),
            (x + 1, b),
            (x + 2, b),
        ]
    }

    fn starts(&self) -> Vec<(i32, i32)> {
        let names: [&str; 6] = if self.edge == 9 {
            ["r15", "r4", "j12", "j7", "z12", "z7"]
        } else {
            ["p14", "p3", "h11", "h6", "x11", "x6"]
        };
        names
            .iter()
            .map(|s| {
                let x = i32::from(s.as_bytes()[0] - b'a');
                let r: i32 = s[1..].parse().unwrap();
                (x, r - 1)
            })
            .collect()
    }

    fn occupied(&self, t: (i32, i32)) -> bool {
        self.own.iter().any(|s| s.contains(&t))
    }

    fn mine(&self, c: usize, t: &(i32, i32)) -> bool {
        self.own[c].contains(t)
    }

    /// Every legal placement of colour `c`: every orientation at every
    /// offset, checked triangle by triangle.
    fn moves(&self, c: usize) -> HashSet<Cells> {
        let mut out = HashSet::new();
        let n = self.edge;
        let first = self.used[c] == 0;
        let starts = self.starts();
        for o in ORIENTS.iter() {
            if self.used[c] & (1 << o.piece) != 0 {
                continue;
            }
            for dr in -2..2 * n + 2 {
                for dx in -4..4 * n + 4 {
                    // the shape's own directions: (x, r) up when x + r even
                    let (x0, r0) = (i32::from(o.cells()[0].0), i32::from(o.cells()[0].1));
                    if self.up(x0 + dx, r0 + dr) != ((x0 + r0) % 2 == 0) {
                        continue;
                    }
                    if !o
                        .cells()
                        .iter()
                        .all(|&(x, r)| self.on_board(i32::from(x) + dx, i32::from(r) + dr))
                    {
                        continue;
                    }
                    let cells: Vec<(i32, i32)> = o
                        .cells()
                        .iter()
                        .map(|&(x, r)| (i32::from(x) + dx, i32::from(r) + dr))
                        .collect();
                    if cells
                        .iter()
                        .any(|&(x, r)| !self.on_board(x, r) || self.occupied((x, r)))
                    {
                        continue;
                    }
                    if cells
                        .iter()
                        .any(|&(x, r)| self.edge_nb(x, r).iter().any(|t| self.mine(c, t)))
                    {
                        continue;
                    }
                    let ok = if first {
                        starts.iter().any(|s| cells.contains(s))
                    } else {
                        cells
                            .iter()
                            .any(|&(x, r)| self.corner_nb(x, r).iter().any(|t| self.mine(c, t)))
                    };
                    if ok {
                        out.insert(cells.into_iter().collect());
                    }
                }
            }
        }
        out
    }
}

fn slow_of(b: &Board) -> Slow {
    let g = b.geo();
    let own = (0..usize::from(b.placed.colours))
        .map(|c| {
            b.occ[c]
                .iter()
                .map(|i| {
                    let (x, r) = g.cells[usize::from(i)];
                    (i32::from(x), i32::from(r))
                })
                .collect()
        })
        .collect();
    Slow {
        edge: i32::from(b.edge),
        own,
        used: b.placed.used[..usize::from(b.placed.colours)].to_vec(),
    }
}

fn cells_of(g: &Hexagon, id: u16) -> Cells {
    g.place(id)
        .unwrap()
        .cells()
        .iter()
        .map(|&i| {
            let (x, r) = g.cells[usize::from(i)];
            (i32::from(x), i32::from(r))
        })
        .collect()
}

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

/// Plays `plies` random placements (passing when needed).
fn random_position(three: bool, seed: u64, plies: usize) -> Board {
    let mut s = seed;
    let mut b = Board::new(three);
    for _ in 0..plies {
        if b.is_over() {
            break;
        }
        let m = b.moves(b.to_move);
        if m.is_empty() {
            b.pass();
        } else {
            b.place(m[(xorshift(&mut s) % m.len() as u64) as usize]);
        }
    }
    b
}

#[test]
fn generator_agrees_with_slow_one_on_random_games() {
    for (three, seed) in [
        (false, 0x9e37_79b9_7f4a_7c15u64),
        (true, 0x1234_5678_9abc_def1),
    ] {
        let mut s = seed;
        let mut b = Board::new(three);
        let g = b.geo();
        // a whole game, checking every tenth position (the slow one is slow)
        for ply in 0..400 {
            if b.is_over() {
                break;
            }
            let c = b.to_move;
            let fast = b.moves(c);
            if ply % 10 == 0 || ply < 4 {
                let set: HashSet<Cells> = fast.iter().map(|&id| cells_of(g, id)).collect();
                assert_eq!(set.len(), fast.len(), "duplicate placements");
                assert_eq!(set, slow_of(&b).moves(usize::from(c)), "ply {ply}");
            }
            if fast.is_empty() {
                b.pass();
            } else {
                b.place(fast[(xorshift(&mut s) % fast.len() as u64) as usize]);
            }
        }
        assert!(b.is_over());
    }
}

/// Mid-game positions (seeded random games) and their perft 2 and 3,
/// cross-checked against the slow generator by
/// `perft_mid_game_agrees_with_slow_generator` (release build, ignored).
const MID_GAME: [(bool, u64, usize, u64, u64); 4] = [
    (false, 7, 12, 1_411_309, 1_542_812_700),
    (true, 11, 9, 1_025_528, 0),
    (false, 23, 48, 3_127, 115_633),
    (true, 5, 40, 748, 12_895),
];

#[test]
#[ignore = "prints counts"]
fn print_mid_game() {
    for (three, seed, plies, _, _) in MID_GAME {
        let b = random_position(three, seed, plies);
        let p2 = perft(&b, 2);
        let p3 = if plies > 30 { perft(&b, 3) } else { 0 };
        // (the 12-ply perft 3 is 1,542,812,700: release builds only)
        eprintln!("({three}, {seed}, {plies}, {p2}, {p3}),");
    }
}

#[test]
fn perft_mid_game() {
    for (three, seed, plies, p2, p3) in MID_GAME {
        let b = random_position(three, seed, plies);
        assert_eq!(perft(&b, 2), p2, "{three} {seed} {plies}");
        if plies > 30 {
            assert_eq!(perft(&b, 3), p3, "{three} {seed} {plies}");
        }
    }
}

#[test]
#[ignore = "deep perft: run in release"]
fn perft_mid_game_deep() {
    for (three, seed, plies, _, p3) in MID_GAME {
        if p3 == 0 || plies > 30 {
            continue;
        }
        let b = random_position(three, seed, plies);
        assert_eq!(perft(&b, 3), p3, "{three} {seed} {plies}");
    }
}

/// The slow generator's perft.
fn slow_perft(b: &Board, s: &Slow, c: usize, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = s.moves(c);
    let next_c = (c + 1) % usize::from(b.placed.colours);
    if moves.is_empty() {
        let over = (0..usize::from(b.placed.colours)).all(|k| s.moves(k).is_empty());
        return if over || depth == 1 {
            1
        } else {
            slow_perft(b, s, next_c, depth - 1)
        };
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    let g = b.geo();
    let mut total = 0;
    for cells in &moves {
        let ids: Vec<u16> = cells.iter().map(|&(x, r)| g.at(x, r).unwrap()).collect();
        let piece = g.place(g.find_place(&ids).unwrap()).unwrap().piece;
        let mut next = Slow {
            edge: s.edge,
            own: s.own.clone(),
            used: s.used.clone(),
        };
        next.own[c].extend(cells.iter().copied());
        next.used[c] |= 1 << piece;
        total += slow_perft(b, &next, next_c, depth - 1);
    }
    total
}

#[test]
#[ignore = "slow generator: run in release"]
fn perft_mid_game_agrees_with_slow_generator() {
    for (three, seed, plies, p2, p3) in MID_GAME {
        let b = random_position(three, seed, plies);
        let s = slow_of(&b);
        let c = usize::from(b.to_move);
        let slow2 = slow_perft(&b, &s, c, 2);
        eprintln!(
            "{three} {seed} {plies}: perft 2 {} slow {slow2}",
            perft(&b, 2)
        );
        assert_eq!(slow2, p2);
        if p3 != 0 && p3 < 50_000_000 {
            let slow3 = slow_perft(&b, &s, c, 3);
            eprintln!("  perft 3 {} slow {slow3}", perft(&b, 3));
            assert_eq!(slow3, p3);
        }
    }
}

#[test]
#[ignore = "slow in debug builds; run with --release"]
fn perft_3() {
    assert_eq!(perft(&Board::new(false), 3), 8_453_399_640);
}

#[test]
fn piece_sizes_match_placements() {
    for p in 0..22u8 {
        assert!(placements_of(&EDGE9, p) > 0, "{}", pieces::name(p));
    }
}

/// Deterministic game generator for fixtures: `TRIGON_GEN=dir cargo test
/// --release --lib games::blokus::trigon::tests::generate -- --ignored`.
/// Each colour plays one of its biggest pieces, keeping the most corner
/// candidates open, ties broken by a seeded generator.
mod generator {
    use super::super::notation::write_place;
    use super::*;

    fn free_corners(b: &Board, c: u8) -> u32 {
        let ci = usize::from(c);
        b.cand[ci].and_not(&b.all.or(&b.forb[ci])).count()
    }

    /// Plays to the end; the moves written (passes left out when `passes`
    /// is false) and the final board.
    pub fn play(three: bool, seed: u64, passes: bool) -> (Vec<String>, Board) {
        let mut s = seed;
        let mut b = Board::new(three);
        let g = b.geo();
        let mut out = Vec::new();
        while !b.is_over() {
            let c = b.to_move;
            let moves = b.moves(c);
            if moves.is_empty() {
                if passes {
                    out.push("pass".to_string());
                }
                b.pass();
                continue;
            }
            let size = |id: u16| pieces::size(g.place(id).unwrap().piece);
            let best = moves.iter().map(|&m| size(m)).max().unwrap();
            let mut pick = (0u64, moves[0]);
            for &m in moves.iter().filter(|&&m| size(m) == best) {
                let mut n = b.clone();
                n.place(m);
                let score = u64::from(free_corners(&n, c)) * 1024 + xorshift(&mut s) % 1024;
                if score > pick.0 {
                    pick = (score, m);
                }
            }
            out.push(write_place(g, pick.1));
            b.place(pick.1);
        }
        (out, b)
    }

    /// A corpus of random games for speed checks: `TRIGON_CORPUS=file
    /// TRIGON_GAMES=n cargo test --lib games::blokus::trigon::tests::generator::corpus
    /// -- --ignored` (every fourth game for three players).
    #[test]
    #[ignore = "writes a corpus: set TRIGON_CORPUS"]
    fn corpus() {
        let Ok(path) = std::env::var("TRIGON_CORPUS") else {
            return;
        };
        let games = std::env::var("TRIGON_GAMES").ok();
        let n: usize = games.and_then(|v| v.parse().ok()).unwrap_or(1000);
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut out = String::new();
        for k in 0..n {
            let three = k % 4 == 3;
            let mut b = Board::new(three);
            let g = b.geo();
            let mut moves = Vec::new();
            while !b.is_over() {
                let list = b.moves(b.to_move);
                if list.is_empty() {
                    b.pass();
                    continue;
                }
                let m = list[(xorshift(&mut s) % list.len() as u64) as usize];
                moves.push(write_place(g, m));
                b.place(m);
            }
            out.push_str("[Game \"blokus\"]\n[Variant \"trigon\"]\n");
            if three {
                out.push_str("[Players \"3\"]\n");
            }
            out.push_str(&format!("\n{}\n\n", moves.join(" ")));
        }
        std::fs::write(path, out).unwrap();
    }

    #[test]
    #[ignore = "writes fixtures: set TRIGON_GEN"]
    fn generate() {
        let Ok(dir) = std::env::var("TRIGON_GEN") else {
            return;
        };
        for (three, seed) in [(false, 1u64), (false, 2), (true, 3), (true, 4), (false, 5)] {
            for k in 0..8u64 {
                let (moves, b) = play(three, seed * 1000 + k, true);
                let all: Vec<bool> = (0..b.placed.colours).map(|c| b.all_placed(c)).collect();
                let mono: Vec<bool> = (0..b.placed.colours)
                    .map(|c| b.placed.last[usize::from(c)] == Some(pieces::MONOMINO))
                    .collect();
                let text = moves.join(" ");
                let quiet: Vec<&str> = moves
                    .iter()
                    .map(String::as_str)
                    .filter(|m| *m != "pass")
                    .collect();
                let text = format!("{text}\n; without passes:\n{}", quiet.join(" "));
                std::fs::write(
                    format!("{dir}/g_{}_{seed}_{k}.txt", if three { 3 } else { 4 }),
                    format!(
                        "; all {all:?} mono_last {mono:?} plies {}\n{text}\n",
                        moves.len()
                    ),
                )
                .unwrap();
            }
        }
    }
}

/// The code the spec's order of checks gives a placement (piece used,
/// occupied, starting point or side contact then corner contact), judged by
/// the slow reference; `None` when legal.
fn expected_code(s: &Slow, c: usize, piece: u8, cells: &[(i32, i32)]) -> Option<&'static str> {
    if s.used[c] & (1 << piece) != 0 {
        return Some("blokus::piece_used");
    }
    if cells.iter().any(|&t| s.occupied(t)) {
        return Some("blokus::occupied");
    }
    if s.used[c] == 0 {
        let starts = s.starts();
        return if cells.iter().any(|t| starts.contains(t)) {
            None
        } else {
            Some("blokus::start_missed")
        };
    }
    if cells
        .iter()
        .any(|&(x, r)| s.edge_nb(x, r).iter().any(|t| s.mine(c, t)))
    {
        return Some("blokus::edge_contact");
    }
    if !cells
        .iter()
        .any(|&(x, r)| s.corner_nb(x, r).iter().any(|t| s.mine(c, t)))
    {
        return Some("blokus::no_corner_contact");
    }
    None
}

/// Placements (legal or not) put into generated records at several plies:
/// the driver reports the slow reference's code at that ply, or accepts it.
#[test]
fn placements_in_records_get_the_right_code_at_the_right_ply() {
    use crate::registry::replay;
    use crate::replay::Options;
    for (three, seed) in [(false, 31u64), (true, 37)] {
        let (moves, _) = generator::play(three, seed, true);
        let tags = format!(
            "[Game \"blokus\"]\n[Variant \"trigon\"]\n{}\n",
            if three { "[Players \"3\"]\n" } else { "" }
        );
        let mut s = seed;
        let mut seen = HashSet::new();
        for k in [0usize, 2, 9, 25, 40, 55] {
            let Some(prefix) = moves.get(..k) else {
                continue;
            };
            // the position after k plies, by the engine
            let mut b = Board::new(three);
            let g = b.geo();
            for m in prefix {
                if m == "pass" {
                    b.pass();
                } else {
                    let ids: Vec<u16> = m
                        .split(':')
                        .nth(1)
                        .unwrap()
                        .split(',')
                        .map(|t| {
                            let (x, r) = super::notation::parse_triangle(t).unwrap();
                            g.at(i32::from(x), i32::from(r)).unwrap()
                        })
                        .collect();
                    b.place(g.find_place(&ids).unwrap());
                }
            }
            if !b.has_move(b.to_move) {
                continue;
            }
            let slow = slow_of(&b);
            let c = usize::from(b.to_move);
            // random placements, plus one legal one
            let mut ids: Vec<u16> = (0..12)
                .map(|_| (xorshift(&mut s) % g.places.len() as u64) as u16)
                .collect();
            ids.push(b.moves(b.to_move)[0]);
            // near the colour's own triangles: side contacts, used pieces
            let near = b.forb[c].and_not(&b.all).or(&b.cand[c].and_not(&b.all));
            for (n, t) in near.iter().enumerate().filter(|(n, _)| n % 5 == 0).take(6) {
                let list = g.covering(t, n % 22);
                if let Some(&id) = list.get(n % list.len().max(1)) {
                    ids.push(id);
                }
            }
            for id in ids {
                let cells: Vec<(i32, i32)> = cells_of(g, id).into_iter().collect();
                let want = expected_code(&slow, c, g.place(id).unwrap().piece, &cells);
                let text = super::notation::write_place(g, id);
                let src = format!("{tags}{} {text}\n", prefix.join(" "));
                let games = crate::record::parse_file(&src);
                let r = replay(&games[0], &src, &Options::default());
                match want {
                    None => assert!(r.valid, "{text} at {k}: {:?}", r.errors),
                    Some(code) => {
                        let e = &r.errors[0];
                        assert_eq!(e.code, code, "{text} at {k}");
                        assert_eq!(e.ply, k + 1, "{text} at {k}");
                        seen.insert(code);
                    }
                }
            }
        }
        for code in [
            "blokus::piece_used",
            "blokus::occupied",
            "blokus::start_missed",
            "blokus::edge_contact",
            "blokus::no_corner_contact",
        ] {
            assert!(seen.contains(code), "{code} never produced");
        }
    }
}

fn run(src: &str) -> crate::replay::GameReport {
    let games = crate::record::parse_file(src);
    crate::registry::replay(&games[0], src, &crate::replay::Options::default())
}

#[test]
fn setup_tags() {
    let head = "[Game \"blokus\"]\n[Variant \"trigon\"]\n";
    // a set-up colour is past its first piece: corner contact needed
    let r = run(&format!(
        "{head}[SetupBlue \"I3:r15,s15,t15\"]\n[First \"yellow\"]\n\nr4 j12 j7 2:p15,q15\n"
    ));
    assert_eq!(r.errors[0].code, "blokus::edge_contact", "{:?}", r.errors);
    assert_eq!(r.errors[0].ply, 4);
    let r = run(&format!(
        "{head}[SetupBlue \"I3:r15,s15,t15\"]\n[First \"yellow\"]\n\nr4 j12 j7 2:o14,p14\n"
    ));
    assert!(r.valid, "{:?}", r.errors);
    for (tags, blamed) in [
        ("[SetupBlue \"1:a1\"]", "a1"),
        ("[SetupBlue \"1:r15 1:s15\"]", "1:s15"),
        ("[SetupBlue \"1:r15\"]\n[SetupRed \"2:r15,s15\"]", "r15"),
        ("[SetupBlue \"V3:r15,s15,t15\"]", "V3"),
        ("[SetupPurple \"1:r15\"]", "[SetupPurple \"1:r15\"]"),
        ("[First \"purple\"]", "\"purple\""),
    ] {
        let src = format!("{head}{tags}\n\n*\n");
        let r = run(&src);
        let e = &r.errors[0];
        assert!(
            e.code == "blokus::bad_tags" || e.code == "blokus::wrong_piece_name",
            "{tags}: {e:?}"
        );
        assert_eq!(e.span.unwrap().text(&src), blamed, "{tags}");
        assert_eq!(r.plies, 0);
    }
}

#[test]
fn seats_and_scores() {
    let r = run(
        "[Game \"blokus\"]\n[Variant \"trigon\"]\n[Players \"2\"]\n\nI3:r15,s15,t15 r4 2:j12,k12\n",
    );
    assert!(r.valid);
    assert_eq!(r.seats, ["player1", "player2"]);
    assert_eq!(r.scores, [5, 1]);
    let r = run(
        "[Game \"blokus\"]\n[Variant \"trigon\"]\n[Players \"3\"]\n[Scoring \"official\"]\n\np14\n",
    );
    assert_eq!(r.seats, ["blue", "yellow", "red"]);
    assert_eq!(r.scores, [-109, -110, -110]);
}

/// A `NAME:` that does not match the triangles names both pieces and the
/// spelling to write.
#[test]
fn wrong_piece_name_names_both_pieces() {
    let g = super::board::geometry(9);
    let whole = crate::span::Span::new(0, 8);
    // the one-triangle piece
    let one = "1";
    let Err(d) = super::notation::placement(g, "I6:r15", 0, whole) else {
        panic!("a single triangle named I6 was read");
    };
    assert_eq!(d.code, "blokus::wrong_piece_name");
    assert_eq!(
        d.message,
        format!("the triangles form the {one} piece, not the I6")
    );
    assert_eq!(
        d.help.as_deref(),
        Some(format!("write {one}:r15 or leave the name out").as_str())
    );
}
