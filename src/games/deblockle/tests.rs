//! Tests of the whole game: records, hand-worked positions, perft against a
//! slow reference implementation.

use crate::record::parse_file;
use crate::registry::replay;
use crate::replay::{GameReport, Options};

pub(crate) fn run(src: &str) -> GameReport {
    let games = parse_file(src);
    replay(&games[0], src, &Options::default())
}

pub(crate) const EXAMPLE: &str = r#"[Game "deblockle"]
[Event "Club night"]
[Gold "Ben"]
[Blue "Chloe"]
[SetupGold "c1 x/stop, e1 stop/cross"]
[SetupBlue "c7 x/slider, e7 hoops/stop"]
[Result "2-1"]

c1-d1/d7 c7-c6/c1 e1-d1/d4 e7-e6 d4-d5/c6 e6-e5/e1 c6-c5/e6 c1-c2/d3 e6-d6
d3-d4/c2 d7-e7/e6 c2-c3/c2 e6-f6/f5/e5/d5 c2-d2 d5-d6
"#;

#[test]
fn spec_example_record() {
    let r = run(EXAMPLE);
    assert!(r.valid, "{:?}", r.errors);
    assert_eq!(r.plies, 15);
    assert!(r.over);
    assert_eq!(r.scores, [2, 1]);
    assert_eq!(r.winners, ["gold"]);
}

// ---------------------------------------------------------------------------
// A slow reference implementation, written independently of the engine: the
// block as six named faces rolled field by field, orientations found by
// rolling from the spec's picture, the board as a 7x7 array of cells, every
// hoops path tried one by one, slides walked square by square.

mod reference {
    use std::collections::BTreeSet;

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum F {
        Star,
        Stop,
        Cross,
        X,
        Slider,
        Hoops,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Cube {
        pub top: F,
        pub bottom: F,
        pub north: F,
        pub south: F,
        pub east: F,
        pub west: F,
    }

    /// The spec's picture: star up, x north, hoops east, cross south, slider west.
    const PICTURE: Cube = Cube {
        top: F::Star,
        bottom: F::Stop,
        north: F::X,
        south: F::Cross,
        east: F::Hoops,
        west: F::Slider,
    };

    impl Cube {
        pub fn roll(self, dc: i32, dr: i32) -> Cube {
            match (dc, dr) {
                // rolling north: the south face comes up
                (0, 1) => Cube {
                    top: self.south,
                    north: self.top,
                    bottom: self.north,
                    south: self.bottom,
                    ..self
                },
                (0, -1) => Cube {
                    top: self.north,
                    south: self.top,
                    bottom: self.south,
                    north: self.bottom,
                    ..self
                },
                (1, 0) => Cube {
                    top: self.west,
                    east: self.top,
                    bottom: self.east,
                    west: self.bottom,
                    ..self
                },
                (-1, 0) => Cube {
                    top: self.east,
                    west: self.top,
                    bottom: self.west,
                    east: self.bottom,
                    ..self
                },
                _ => panic!("not a roll"),
            }
        }

        /// The cube with this top and north face, found by rolling the picture around.
        pub fn with(top: F, north: F) -> Option<Cube> {
            let mut seen = vec![PICTURE];
            let mut i = 0;
            while i < seen.len() {
                let c = seen[i];
                if c.top == top && c.north == north {
                    return Some(c);
                }
                for (dc, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                    let n = c.roll(dc, dr);
                    if !seen.contains(&n) {
                        seen.push(n);
                    }
                }
                i += 1;
            }
            None
        }
    }

    pub type Cell = Option<(usize, Cube)>;

    /// A turn's identity: block square, tip square, final square, scored.
    type Key = ((i32, i32), (i32, i32), (i32, i32), bool);

    #[derive(Clone, Debug)]
    pub struct Board {
        /// cells[col][row], row 0 = row 1.
        pub cells: [[Cell; 7]; 7],
        pub to_move: usize,
        pub removed: [u32; 2],
        pub total: [u32; 2],
        pub nsbs: bool,
    }

    fn on(c: i32, r: i32) -> bool {
        (0..7).contains(&c) && (0..7).contains(&r)
    }

    fn is_star(c: i32, r: i32) -> bool {
        (c, r) == (3, 1) || (c, r) == (3, 5)
    }

    /// A turn: block square, tip square, final square, scored.
    pub type T = ((i32, i32), (i32, i32), (i32, i32), bool, Cube);

    impl Board {
        pub fn standard(nsbs: bool) -> Board {
            let cube = Cube::with(F::Stop, F::X).unwrap();
            let mut cells = [[None; 7]; 7];
            for (c, r) in [(2, 0), (4, 0), (2, 2), (4, 2)] {
                cells[c][r] = Some((0, cube));
            }
            for (c, r) in [(2, 4), (4, 4), (2, 6), (4, 6)] {
                cells[c][r] = Some((1, cube));
            }
            Board {
                cells,
                to_move: 0,
                removed: [0, 0],
                total: [4, 4],
                nsbs,
            }
        }

        fn get(&self, c: i32, r: i32) -> Cell {
            if on(c, r) {
                self.cells[c as usize][r as usize]
            } else {
                None
            }
        }

        fn empty(&self, c: i32, r: i32) -> bool {
            on(c, r) && self.get(c, r).is_none()
        }

        pub fn turns(&self, side: usize) -> Vec<T> {
            let mut found: BTreeSet<Key> = BTreeSet::new();
            let mut out = Vec::new();
            for c in 0..7 {
                for r in 0..7 {
                    let Some((s, cube)) = self.get(c, r) else {
                        continue;
                    };
                    if s != side {
                        continue;
                    }
                    for (dc, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                        let (tc, tr) = (c + dc, r + dr);
                        if !self.empty(tc, tr) {
                            continue;
                        }
                        let k = cube.roll(dc, dr);
                        let mut lifted = self.clone();
                        lifted.cells[c as usize][r as usize] = None;
                        let ends = hop_ends(&lifted, side, (tc, tr), k.top);
                        for (end, scored) in ends {
                            let t = ((c, r), (tc, tr), end, scored, k);
                            if self.nsbs && self.touching_after(side, &t) {
                                continue;
                            }
                            if found.insert(((c, r), (tc, tr), end, scored)) {
                                out.push(t);
                            }
                        }
                    }
                }
            }
            out
        }

        fn touching_after(&self, side: usize, t: &T) -> bool {
            let after = self.after(t);
            for c in 0..7 {
                for r in 0..7 {
                    if let Some((s, _)) = after.get(c, r) {
                        if s != side {
                            continue;
                        }
                        for (a, b) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                            if matches!(after.get(c + a, r + b), Some((o, _)) if o != side) {
                                return true;
                            }
                        }
                    }
                }
            }
            false
        }

        pub fn after(&self, t: &T) -> Board {
            let mut b = self.clone();
            let ((c, r), _, (x, y), scored, k) = *t;
            let side = b.to_move;
            b.cells[c as usize][r as usize] = None;
            if scored {
                b.removed[side] += 1;
            } else {
                b.cells[x as usize][y as usize] = Some((side, k));
            }
            b.to_move ^= 1;
            b
        }

        pub fn finished(&self) -> bool {
            (0..2).any(|s| self.removed[s] == self.total[s])
        }

        pub fn names(&self) -> Vec<String> {
            let sq = |(c, r): (i32, i32)| format!("{}{}", (b'a' + c as u8) as char, r + 1);
            let mut v: Vec<String> = self
                .turns(self.to_move)
                .iter()
                .map(|&(f, t, e, scored, k)| {
                    if scored || k.top == F::Stop {
                        format!("{}-{}", sq(f), sq(t))
                    } else {
                        format!("{}-{}/{}", sq(f), sq(t), sq(e))
                    }
                })
                .collect();
            v.sort();
            v
        }
    }

    /// The final squares of the turns after a tip onto `(tc, tr)` with `top`
    /// coming up (`lifted`: the board without the block), each with whether
    /// it scores: a face's hops stepped square by square, every hoops path
    /// tried.
    fn hop_ends(
        lifted: &Board,
        side: usize,
        (tc, tr): (i32, i32),
        top: F,
    ) -> Vec<((i32, i32), bool)> {
        let mut ends: Vec<((i32, i32), bool)> = Vec::new();
        if is_star(tc, tr) {
            let goal = if side == 0 { (3, 5) } else { (3, 1) };
            if (tc, tr) == goal && top == F::Star {
                ends.push(((tc, tr), true));
            }
        } else {
            match top {
                F::Star => {}
                F::Stop => ends.push(((tc, tr), false)),
                F::Cross | F::X => {
                    let steps: [(i32, i32); 4] = if top == F::Cross {
                        [(0, 1), (1, 0), (0, -1), (-1, 0)]
                    } else {
                        [(1, 1), (1, -1), (-1, -1), (-1, 1)]
                    };
                    for (a, b) in steps {
                        let (x, y) = (tc + a, tr + b);
                        if lifted.empty(x, y) && !is_star(x, y) {
                            ends.push(((x, y), false));
                        }
                    }
                }
                F::Slider => {
                    for (a, b) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                        let (mut x, mut y) = (tc, tr);
                        while lifted.empty(x + a, y + b) {
                            x += a;
                            y += b;
                        }
                        if (x, y) != (tc, tr) && !is_star(x, y) {
                            ends.push(((x, y), false));
                        }
                    }
                }
                F::Hoops => {
                    let dirs = [(0, 1), (1, 0), (0, -1), (-1, 0)];
                    for p in 0..64 {
                        let (mut x, mut y) = (tc, tr);
                        let mut ok = true;
                        for k in 0..3 {
                            let (a, b) = dirs[(p >> (2 * k)) & 3];
                            x += a;
                            y += b;
                            // the block's own tip square is empty in `lifted`
                            if !lifted.empty(x, y) {
                                ok = false;
                                break;
                            }
                        }
                        if ok && !is_star(x, y) {
                            ends.push(((x, y), false));
                        }
                    }
                }
            }
        }
        ends
    }

    pub fn perft(b: &Board, depth: u32) -> u64 {
        if depth == 0 || b.finished() {
            return 1;
        }
        let turns = b.turns(b.to_move);
        if turns.is_empty() {
            if b.turns(b.to_move ^ 1).is_empty() {
                return 1;
            }
            let mut n = b.clone();
            n.to_move ^= 1;
            return perft(&n, depth - 1);
        }
        turns.iter().map(|t| perft(&b.after(t), depth - 1)).sum()
    }
}

use super::cube::{Dir, Face, Orient};
use super::engine::{self, BLUE, GOLD, Position};

/// The engine's position as the reference's board.
fn to_reference(p: &Position) -> reference::Board {
    use reference::F;
    let f = |x: Face| match x {
        Face::Star => F::Star,
        Face::Stop => F::Stop,
        Face::Cross => F::Cross,
        Face::X => F::X,
        Face::Slider => F::Slider,
        Face::Hoops => F::Hoops,
    };
    let mut cells = [[None; 7]; 7];
    for sq in 0..49u8 {
        if let Some(side) = p.owner(sq) {
            let o = p.orient_at(sq);
            cells[usize::from(sq % 7)][usize::from(sq / 7)] = Some((
                side,
                reference::Cube::with(f(o.top()), f(o.north())).unwrap(),
            ));
        }
    }
    reference::Board {
        cells,
        to_move: p.to_move,
        removed: [u32::from(p.removed[0]), u32::from(p.removed[1])],
        total: [u32::from(p.total[0]), u32::from(p.total[1])],
        nsbs: p.no_side_by_side,
    }
}

#[test]
fn reference_cube_agrees_with_the_tip_table() {
    use reference::{Cube, F};
    let faces = [
        (Face::Star, F::Star),
        (Face::Stop, F::Stop),
        (Face::Cross, F::Cross),
        (Face::X, F::X),
        (Face::Slider, F::Slider),
        (Face::Hoops, F::Hoops),
    ];
    let rf = |x: Face| faces.iter().find(|p| p.0 == x).unwrap().1;
    for i in 0..24 {
        let o = Orient::from_index(i).unwrap();
        let c = Cube::with(rf(o.top()), rf(o.north())).unwrap();
        assert_eq!(c.east, rf(o.east()));
        for (d, (dc, dr)) in Dir::ALL.iter().zip([(0, 1), (1, 0), (0, -1), (-1, 0)]) {
            let n = o.tip(*d);
            let k = c.roll(dc, dr);
            assert_eq!(
                (k.top, k.north, k.east),
                (rf(n.top()), rf(n.north()), rf(n.east()))
            );
        }
    }
}

/// The perft numbers from the standard start, depths 1-4.
pub(crate) const PERFT: [u64; 4] = [55, 3073, 141_593, 6_678_991];

#[test]
fn perft_matches_the_reference() {
    let depth = if cfg!(debug_assertions) { 3 } else { 4 };
    for nsbs in [false, true] {
        let p = Position::standard(nsbs);
        let b = reference::Board::standard(nsbs);
        for d in 1..=depth {
            let fast = engine::perft(&p, d);
            let slow = reference::perft(&b, d);
            println!("perft nsbs={nsbs} depth {d}: {fast}");
            assert_eq!(fast, slow, "depth {d}, no-side-by-side {nsbs}");
            if !nsbs && PERFT[d as usize - 1] != 0 {
                assert_eq!(fast, PERFT[d as usize - 1]);
            }
        }
    }
}

/// A small xorshift generator for reproducible games.
pub(crate) struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One random ply of a game not over: a pass (played, `None`) when the side
/// to move has no turn, else one of its turns at random (not yet played).
fn random_turn(p: &mut Position, rng: &mut Rng) -> Option<engine::Gen> {
    let turns = p.turns(p.to_move);
    if turns.is_empty() {
        p.pass();
        return None;
    }
    turns.get(rng.below(turns.len())).copied()
}

#[test]
fn generator_agrees_with_the_reference_along_random_games() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for game in 0..60 {
        let nsbs = game % 3 == 2;
        let mut p = Position::standard(nsbs);
        // Scatter the start a little: random orientations.
        for sq in 0..49u8 {
            if p.owner(sq).is_some() {
                p.orient[usize::from(sq)] = (rng.next() % 24) as u8;
            }
        }
        for _ply in 0..200 {
            let b = to_reference(&p);
            assert_eq!(super::explain::legal_names(&p), b.names(), "{p:?}");
            assert_eq!(
                p.is_over(),
                b.finished() || (b.turns(0).is_empty() && b.turns(1).is_empty())
            );
            if p.is_over() {
                break;
            }
            let Some(g) = random_turn(&mut p, &mut rng) else {
                continue;
            };
            // Every generated turn is accepted by the judge as written.
            let t = g.as_turn();
            assert_eq!(engine::judge(&p, &t), Ok(g));
            p.play(&g);
        }
    }
}

// ---------------------------------------------------------------------------
// A deterministic game generator for the fixtures: each side either plays
// greedily (the move that most lowers the sum over its blocks of the turns a
// lone block would need to score from its square and orientation, ties and an
// occasional move chosen by a seeded generator) or at random.

use super::notation::{square_name, turn_name};

/// Turns a lone block of `side` needs to score, by `[square][orientation]`.
fn lone_distance(side: usize) -> Vec<[u32; 24]> {
    const FAR: u32 = 1000;
    let mut dist = vec![[FAR; 24]; 49];
    loop {
        let mut changed = false;
        for sq in 0..49u8 {
            if engine::STARS & (1 << sq) != 0 {
                continue;
            }
            for o in 0..24u8 {
                let mut p = Position::empty(false);
                p.put(side, sq, o);
                p.to_move = side;
                let mut best = FAR;
                p.each_turn(side, &mut |g| {
                    let d = if g.scored {
                        0
                    } else {
                        dist[usize::from(g.dest)][usize::from(g.orient.index())]
                    };
                    best = best.min(d);
                    true
                });
                let d = (best + 1).min(FAR);
                if d < dist[usize::from(sq)][usize::from(o)] {
                    dist[usize::from(sq)][usize::from(o)] = d;
                    changed = true;
                }
            }
        }
        if !changed {
            return dist;
        }
    }
}

fn eval(p: &Position, side: usize, dist: &[[u32; 24]]) -> u32 {
    (0..49u8)
        .filter(|&sq| p.owner(sq) == Some(side))
        .map(|sq| dist[usize::from(sq)][usize::from(p.orient_at(sq).index())])
        .sum()
}

/// A three-step path for a hoops turn, as `/s1/s2/s3`.
fn hoops_path(p: &Position, g: &engine::Gen) -> String {
    let others = p.all() & !(1u64 << g.from);
    let step = |sq: u8, d: Dir| -> Option<u8> {
        let (dc, dr) = d.delta();
        let (c, r) = (
            i8::try_from(sq % 7).ok()? + dc,
            i8::try_from(sq / 7).ok()? + dr,
        );
        ((0..7).contains(&c) && (0..7).contains(&r))
            .then(|| (r * 7 + c) as u8)
            .filter(|&n| others & (1u64 << n) == 0)
    };
    for a in Dir::ALL {
        for b in Dir::ALL {
            for c in Dir::ALL {
                if let Some(s1) = step(g.tip, a) {
                    if let Some(s2) = step(s1, b) {
                        if let Some(s3) = step(s2, c) {
                            if s3 == g.dest {
                                return format!(
                                    "/{}/{}/{}",
                                    square_name(s1),
                                    square_name(s2),
                                    square_name(s3)
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    panic!("no hoops path for {g:?}");
}

#[derive(Clone, Copy)]
pub(crate) enum Policy {
    Greedy,
    Random,
}

pub(crate) struct Generated {
    /// Every ply, `pass` included.
    pub plies: Vec<String>,
    pub end: Position,
}

pub(crate) fn generate(
    start: &Position,
    policy: [Policy; 2],
    seed: u64,
    max_plies: usize,
    hoops_paths: bool,
) -> Generated {
    let dist = [lone_distance(GOLD), lone_distance(BLUE)];
    let mut rng = Rng(seed | 1);
    let mut p = *start;
    let mut plies = Vec::new();
    let mut hoops_count = 0;
    while !p.is_over() && plies.len() < max_plies {
        let side = p.to_move;
        let turns = p.turns(side);
        if turns.is_empty() {
            plies.push("pass".to_string());
            p.pass();
            continue;
        }
        let g = match policy[side] {
            Policy::Random => turns[rng.below(turns.len())],
            Policy::Greedy if rng.below(10) == 0 => turns[rng.below(turns.len())],
            Policy::Greedy => {
                let scored: Vec<(u32, u64, engine::Gen)> = turns
                    .iter()
                    .map(|g| {
                        let mut n = p;
                        n.play(g);
                        (eval(&n, side, &dist[side]), rng.next(), *g)
                    })
                    .collect();
                scored
                    .iter()
                    .min_by_key(|s| (s.0, s.1))
                    .map(|s| s.2)
                    .unwrap()
            }
        };
        let mut name = turn_name(&g);
        if g.has_hop() && g.top() == Face::Hoops {
            hoops_count += 1;
            if hoops_paths && hoops_count % 2 == 1 {
                name = format!(
                    "{}-{}{}",
                    square_name(g.from),
                    square_name(g.tip),
                    hoops_path(&p, &g)
                );
            }
        }
        plies.push(name);
        p.play(&g);
    }
    Generated { plies, end: p }
}

/// The value of a setup tag for a side of a position.
pub(crate) fn setup_value(p: &Position, side: usize) -> String {
    (0..49u8)
        .filter(|&sq| p.owner(sq) == Some(side))
        .map(|sq| {
            let o = p.orient_at(sq);
            format!(
                "{} {}/{}",
                square_name(sq),
                o.top().name(),
                o.north().name()
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A record: tags, then the movetext wrapped at ten plies a line.
pub(crate) fn record(
    event: &str,
    extra: &[(&str, String)],
    start: &Position,
    plies: &[String],
    result: &str,
) -> String {
    let mut s = format!("[Event \"{event}\"]\n[Game \"deblockle\"]\n");
    for (k, v) in extra {
        s.push_str(&format!("[{k} \"{v}\"]\n"));
    }
    s.push_str(&format!("[SetupGold \"{}\"]\n", setup_value(start, GOLD)));
    s.push_str(&format!("[SetupBlue \"{}\"]\n", setup_value(start, BLUE)));
    s.push_str(&format!("[Result \"{result}\"]\n\n"));
    for chunk in plies.chunks(10) {
        s.push_str(&chunk.join(" "));
        s.push('\n');
    }
    s
}

/// A start with random orientations on given squares.
pub(crate) fn random_start(gold: &[&str], blue: &[&str], nsbs: bool, rng: &mut Rng) -> Position {
    let mut p = Position::empty(nsbs);
    for (side, squares) in [(GOLD, gold), (BLUE, blue)] {
        for name in squares {
            let b = name.as_bytes();
            let sq = (b[1] - b'1') * 7 + (b[0] - b'a');
            p.put(side, sq, (rng.next() % 24) as u8);
        }
    }
    p
}

// ---------------------------------------------------------------------------
// Fixtures: written by `cargo test --lib games::deblockle::tests::write_fixtures
// -- --ignored`, checked by `fixtures_have_their_verdicts`.

use super::engine::Move;
use super::notation::{TurnSpans, parse as parse_moves};
use crate::game::Parsed;
use crate::record::Token;

fn fixture_dir(kind: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/deblockle")
        .join(kind)
}

/// Reads one move's text.
fn read_move(text: &str) -> Option<Parsed<Move, TurnSpans>> {
    let tok = Token::new(crate::span::Span::new(0, text.len()));
    let p = parse_moves(std::slice::from_ref(&tok), text);
    if p.error.is_some() {
        return None;
    }
    p.moves.into_iter().next()
}

/// The positions before each ply and after the last.
fn positions(start: &Position, plies: &[String]) -> Vec<Position> {
    let mut p = *start;
    let mut out = vec![p];
    for text in plies {
        match read_move(text).unwrap().mv {
            Move::Pass => p.pass(),
            Move::Turn(t) => {
                let g = engine::judge(&p, &t).unwrap();
                p.play(&g);
            }
        }
        out.push(p);
    }
    out
}

/// The code a written move gets in a position (`None`: legal).
fn verdict(p: &Position, text: &str) -> Option<(String, String)> {
    let mv = read_move(text)?;
    let Move::Turn(t) = mv.mv else { return None };
    engine::judge(p, &t).err().map(|why| {
        let d = super::explain::diag(p, &mv, why);
        (
            d.code.trim_start_matches("deblockle::").to_string(),
            d.message,
        )
    })
}

fn nm(c: i32, r: i32) -> Option<String> {
    ((0..=7).contains(&c) && (-1..=7).contains(&r))
        .then(|| format!("{}{}", (b'a' + c as u8) as char, r + 1))
}

/// Written turns of the side to move, most of them illegal.
fn candidates(p: &Position) -> Vec<String> {
    let mut out = Vec::new();
    for sq in 0..49u8 {
        if p.owner(sq) != Some(p.to_move) {
            continue;
        }
        let (c, r) = (i32::from(sq % 7), i32::from(sq / 7));
        let from = nm(c, r).unwrap();
        for (dc, dr) in [
            (0, 1),
            (1, 0),
            (0, -1),
            (-1, 0),
            (1, 1),
            (1, -1),
            (-1, -1),
            (-1, 1),
        ] {
            let (tc, tr) = (c + dc, r + dr);
            let Some(tip) = nm(tc, tr) else { continue };
            out.push(format!("{from}-{tip}"));
            let mut dests: Vec<(bool, i32, i32, i32)> = Vec::new();
            for y in -1..=7 {
                for x in 0..=7 {
                    let off = !(0..7).contains(&x) || !(0..7).contains(&y);
                    if (x, y) == (tc, tr) {
                        continue;
                    }
                    dests.push((off, (x - tc).abs() + (y - tr).abs(), y, x));
                }
            }
            dests.sort();
            for (_, _, y, x) in dests {
                out.push(format!("{from}-{tip}/{}", nm(x, y).unwrap()));
            }
            let steps = [(0, 1), (1, 0), (0, -1), (-1, 0)];
            for a in steps {
                for b in steps {
                    for s in steps {
                        let p1 = (tc + a.0, tr + a.1);
                        let p2 = (p1.0 + b.0, p1.1 + b.1);
                        let p3 = (p2.0 + s.0, p2.1 + s.1);
                        if let (Some(x), Some(y), Some(z)) =
                            (nm(p1.0, p1.1), nm(p2.0, p2.1), nm(p3.0, p3.1))
                        {
                            out.push(format!("{from}-{tip}/{x}/{y}/{z}"));
                        }
                    }
                }
            }
        }
    }
    out
}

/// For each wanted code (with a message filter), the longest prefix of the
/// game after which some written turn breaks exactly that rule.
fn find_breaks(
    start: &Position,
    plies: &[String],
    wanted: &[(&'static str, &'static str)],
) -> Vec<(&'static str, usize, String, String)> {
    let pos = positions(start, plies);
    let mut found: Vec<(&'static str, usize, String, String)> = Vec::new();
    for k in (0..plies.len()).rev() {
        let p = &pos[k];
        if p.is_over() || !p.can_move(p.to_move) || plies[k] == "pass" {
            continue;
        }
        let open: Vec<_> = wanted
            .iter()
            .filter(|(code, _)| !found.iter().any(|f| f.0 == *code))
            .collect();
        if open.is_empty() {
            break;
        }
        for cand in candidates(p) {
            if let Some((code, message)) = verdict(p, &cand) {
                if let Some((c, _)) = open
                    .iter()
                    .find(|(c, filter)| *c == code && message.contains(filter))
                {
                    if !found.iter().any(|f| f.0 == *c) {
                        found.push((c, k, cand, message));
                    }
                }
            }
        }
    }
    found
}

struct Valid {
    file: &'static str,
    event: &'static str,
    start: Position,
    extra: Vec<(&'static str, String)>,
    plies: Vec<String>,
    end: Position,
}

fn result_of(p: &Position) -> String {
    format!("{}-{}", p.removed[GOLD], p.removed[BLUE])
}

/// Searches seeds until a generated game satisfies `ok`.
fn find_game(
    make_start: &dyn Fn(&mut Rng) -> Position,
    policy: [Policy; 2],
    hoops_paths: bool,
    ok: &dyn Fn(&Generated) -> bool,
) -> (Position, Generated) {
    for seed in 1..500u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let start = make_start(&mut rng);
        if start.is_over() {
            continue;
        }
        let g = generate(&start, policy, seed, 400, hoops_paths);
        if g.end.is_over() && ok(&g) {
            return (start, g);
        }
    }
    panic!("no game found");
}

const STD_GOLD: [&str; 4] = ["c1", "e1", "c3", "e3"];
const STD_BLUE: [&str; 4] = ["c5", "e5", "c7", "e7"];

/// A valid fixture game.
fn valid(
    file: &'static str,
    event: &'static str,
    extra: Vec<(&'static str, String)>,
    (start, g): (Position, Generated),
) -> Valid {
    Valid {
        file,
        event,
        start,
        extra,
        plies: g.plies,
        end: g.end,
    }
}

/// The valid fixture games: full games, then the passes, then the
/// variants and hoops.
fn valid_games() -> Vec<Valid> {
    use Policy::{Greedy, Random};
    let mut v = vec![valid(
        "gold_removes_all_four",
        "Full game: gold removes all four blocks and wins",
        vec![],
        find_game(
            &|r| random_start(&STD_GOLD, &STD_BLUE, false, r),
            [Greedy, Random],
            false,
            &|g| g.end.removed[GOLD] == 4 && g.plies.len() > 30,
        ),
    )];
    v.extend(pass_games());
    v.extend(small_games());
    v.push(hoops_game());
    v
}

/// Blue's only block stuck in the corner: the passes written, and left out.
fn pass_games() -> [Valid; 2] {
    let blocked = |r: &mut Rng| {
        let mut p = random_start(&["a6", "b7", "d1"], &["a7"], false, r);
        p.to_move = GOLD;
        p
    };
    let skipped = find_game(&blocked, [Policy::Greedy, Policy::Greedy], false, &|g| {
        g.plies.iter().filter(|m| *m == "pass").count() >= 2
    });
    let omitted = Generated {
        plies: skipped
            .1
            .plies
            .iter()
            .filter(|m| *m != "pass")
            .cloned()
            .collect(),
        end: skipped.1.end,
    };
    let written = Generated {
        plies: skipped.1.plies.clone(),
        end: skipped.1.end,
    };
    [
        valid(
            "deblockled_pass_written",
            "Blue's only block is Deblockle'd in the corner and skipped; the passes are written",
            vec![("First", "gold".into())],
            (skipped.0, written),
        ),
        valid(
            "deblockled_pass_omitted",
            "Blue's only block is Deblockle'd in the corner and skipped; the passes are left out",
            vec![("First", "gold".into())],
            (skipped.0, omitted),
        ),
    ]
}

/// Fewer blocks, and the `no-side-by-side` variant.
fn small_games() -> [Valid; 3] {
    use Policy::Greedy;
    [
        valid(
            "one_block",
            "One block a side, on the suggested squares; blue moves first",
            vec![("First", "blue".into())],
            find_game(
                &|r| {
                    let mut p = random_start(&["d1"], &["d7"], false, r);
                    p.to_move = BLUE;
                    p
                },
                [Greedy, Greedy],
                false,
                &|g| g.plies.len() >= 8,
            ),
        ),
        valid(
            "unequal_3_vs_4",
            "Handicap: gold plays 3 blocks on the suggested squares against blue's 4",
            vec![],
            find_game(
                &|r| random_start(&["c1", "e1", "d3"], &STD_BLUE, false, r),
                [Greedy, Greedy],
                false,
                &|g| g.plies.len() > 20,
            ),
        ),
        valid(
            "no_side_by_side",
            "Variant no-side-by-side: no turn ends with blocks of both sides orthogonally adjacent",
            vec![("Variant", "no-side-by-side".into())],
            find_game(
                &|r| random_start(&STD_GOLD, &STD_BLUE, true, r),
                [Greedy, Greedy],
                false,
                &|g| g.plies.len() > 30 && (g.end.finished(GOLD) || g.end.finished(BLUE)),
            ),
        ),
    ]
}

/// Hoops hops written both ways.
fn hoops_game() -> Valid {
    valid(
        "hoops_both_forms",
        "Hoops hops written both as a full path /S1/S2/S3 and as the destination alone",
        vec![],
        find_game(
            &|r| random_start(&["c1", "e1"], &["c7", "e7"], false, r),
            [Policy::Greedy, Policy::Greedy],
            true,
            &|g| {
                let paths = g
                    .plies
                    .iter()
                    .filter(|m| m.matches('/').count() == 3)
                    .count();
                let hoops_dests = g
                    .plies
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| m.matches('/').count() == 1)
                    .count();
                paths >= 2 && hoops_dests > 0
            },
        ),
    )
}

fn write_valid(v: &Valid) -> String {
    let extra: Vec<(&str, String)> = v.extra.iter().map(|(k, x)| (*k, x.clone())).collect();
    record(v.event, &extra, &v.start, &v.plies, &result_of(&v.end))
}

/// The invalid fixtures found by [`find_breaks`] along the first valid
/// game: code, a word its message must contain, the record's event.
const WANTED: &[(&str, &str, &str)] = &[
    ("diagonal_tip", "diagonally", "A block tips diagonally"),
    ("tip_off_board", "", "A block tips off the board"),
    ("tip_occupied", "", "A block tips onto an occupied square"),
    (
        "tip_onto_star",
        "brings",
        "A block tips onto the opponent's home star with a face other than star coming up",
    ),
    (
        "star_up",
        "",
        "A tip brings star up away from the opponent's home star",
    ),
    (
        "missing_hop",
        "",
        "A tip brings a symbol up but no hop is written",
    ),
    (
        "unexpected_hop",
        "stop came up",
        "A hop is written after stop came up",
    ),
    (
        "short_slide",
        "",
        "The slider stops short of the end of its run",
    ),
    (
        "slide_onto_star",
        "",
        "The slider's run would end on a star space",
    ),
    (
        "hoops_unreachable",
        "no path",
        "Hoops cannot reach the written destination in three steps",
    ),
    (
        "hoops_bad_step",
        "holds a block",
        "A hoops path steps through a block",
    ),
    (
        "hop_blocked",
        "holds a block",
        "A cross or x hop onto an occupied square",
    ),
    ("ends_on_star", "", "A hop ends on a star space"),
];

#[test]
#[ignore]
fn write_fixtures() {
    let valid_dir = fixture_dir("valid");
    let invalid_dir = fixture_dir("invalid");
    std::fs::create_dir_all(&valid_dir).unwrap();
    std::fs::create_dir_all(&invalid_dir).unwrap();
    std::fs::write(valid_dir.join("spec_example.gamerec"), EXAMPLE).unwrap();
    let games = valid_games();
    for v in &games {
        std::fs::write(
            valid_dir.join(format!("{}.gamerec", v.file)),
            write_valid(v),
        )
        .unwrap();
    }
    let base = &games[0];
    write_found_breaks(&invalid_dir, base);
    write_turns_by_hand(&invalid_dir, base);
    // side_by_side, from the no-side-by-side game.
    let nsbs = games.iter().find(|g| g.file == "no_side_by_side").unwrap();
    write_side_by_side(&invalid_dir, nsbs);
    for d in &DEAD_ENDS {
        std::fs::write(
            valid_dir.join(format!("{}.gamerec", d.1)),
            dead_end_record(d),
        )
        .unwrap();
    }
    write_bad_setups(&invalid_dir);
}

/// The [`WANTED`] fixtures, each the first break found along `base`.
fn write_found_breaks(invalid_dir: &std::path::Path, base: &Valid) {
    let wanted = WANTED;
    let pairs: Vec<(&'static str, &'static str)> = wanted.iter().map(|w| (w.0, w.1)).collect();
    let found = find_breaks(&base.start, &base.plies, &pairs);
    for (code, _, event) in wanted {
        let Some((_, k, cand, message)) = found.iter().find(|f| f.0 == *code) else {
            panic!("no position for {code}");
        };
        println!("{code}: after {k} plies, {cand}: {message}");
        let mut plies = base.plies[..*k].to_vec();
        plies.push(cand.clone());
        let text = record(event, &[], &base.start, &plies, "*");
        std::fs::write(invalid_dir.join(format!("{code}.gamerec")), text).unwrap();
    }
}

/// The fixtures written from a position of `base` by hand: a turn of the
/// other side's block, a pass, a square without its row, a turn after the end.
fn write_turns_by_hand(invalid_dir: &std::path::Path, base: &Valid) {
    // not_your_block reads better as a real turn of the other side's block.
    let pos = positions(&base.start, &base.plies);
    let n = base.plies.len();
    let k = (0..n)
        .rev()
        .find(|&k| {
            pos[k].can_move(pos[k].to_move)
                && !pos[k].is_over()
                && pos[k].can_move(pos[k].to_move ^ 1)
        })
        .unwrap();
    let theirs = turn_name(&pos[k].turns(pos[k].to_move ^ 1)[0]);
    let mut plies = base.plies[..k].to_vec();
    plies.push(theirs);
    std::fs::write(
        invalid_dir.join("not_your_block.gamerec"),
        record(
            "A side tries to move the opponent's block",
            &[],
            &base.start,
            &plies,
            "*",
        ),
    )
    .unwrap();
    // illegal_pass: a written pass where a turn exists.
    let mut plies = base.plies[..k].to_vec();
    plies.push("pass".into());
    std::fs::write(
        invalid_dir.join("illegal_pass.gamerec"),
        record(
            "A pass written while a legal turn exists",
            &[],
            &base.start,
            &plies,
            "*",
        ),
    )
    .unwrap();
    // bad_square: a hop square with no row.
    let legal = pos[k].turns(pos[k].to_move);
    let g = legal.iter().find(|g| g.has_hop()).unwrap();
    let mut plies = base.plies[..k].to_vec();
    let name = turn_name(g);
    plies.push(name[..name.len() - 1].to_string());
    std::fs::write(
        invalid_dir.join("bad_square.gamerec"),
        record(
            "A hop square written without its row",
            &[],
            &base.start,
            &plies,
            "*",
        ),
    )
    .unwrap();
    // move_after_end: a turn after gold removed its last block.
    let mut plies = base.plies.clone();
    let blue_turn = {
        let mut p = *pos.last().unwrap();
        p.to_move = BLUE;
        turn_name(&p.turns(BLUE)[0])
    };
    plies.push(blue_turn);
    std::fs::write(
        invalid_dir.join("move_after_end.gamerec"),
        record(
            "A turn written after gold removed its last block",
            &[],
            &base.start,
            &plies,
            &result_of(&base.end),
        ),
    )
    .unwrap();
}

/// `side_by_side`, the first break along the `no-side-by-side` game.
fn write_side_by_side(invalid_dir: &std::path::Path, nsbs: &Valid) {
    let found = find_breaks(&nsbs.start, &nsbs.plies, &[("side_by_side", "")]);
    let (_, k, cand, message) = &found[0];
    println!("side_by_side: after {k} plies, {cand}: {message}");
    let mut plies = nsbs.plies[..*k].to_vec();
    plies.push(cand.clone());
    std::fs::write(
        invalid_dir.join("side_by_side.gamerec"),
        record(
            "Variant no-side-by-side: a turn ends next to an opponent's block",
            &[("Variant", "no-side-by-side".into())],
            &nsbs.start,
            &plies,
            "*",
        ),
    )
    .unwrap();
}

/// `bad_setup`: the spec's example with a broken `SetupBlue`.
fn write_bad_setups(invalid_dir: &std::path::Path) {
    for (file, event, setup) in [
        (
            "bad_setup",
            "Bad setup: two blue blocks on one square",
            "c7 x/slider, c7 hoops/stop",
        ),
        (
            "bad_setup_star_space",
            "Bad setup: a blue block on a star space",
            "d6 x/slider, e7 hoops/stop",
        ),
        (
            "bad_setup_north_opposite",
            "Bad setup: a north face opposite the top face",
            "c7 x/cross, e7 hoops/stop",
        ),
    ] {
        let text = EXAMPLE
            .replace("[Event \"Club night\"]\n", "")
            .replace("c7 x/slider, e7 hoops/stop", setup);
        std::fs::write(
            invalid_dir.join(format!("{file}.gamerec")),
            format!("[Event \"{event}\"]\n{text}"),
        )
        .unwrap();
    }
}

const CODES: [&str; 19] = [
    "bad_square",
    "not_your_block",
    "diagonal_tip",
    "tip_off_board",
    "tip_occupied",
    "tip_onto_star",
    "star_up",
    "missing_hop",
    "unexpected_hop",
    "short_slide",
    "slide_onto_star",
    "hoops_unreachable",
    "hoops_bad_step",
    "hop_blocked",
    "ends_on_star",
    "side_by_side",
    "illegal_pass",
    "move_after_end",
    "bad_setup",
];

fn read_fixture(kind: &str, name: &str) -> String {
    std::fs::read_to_string(fixture_dir(kind).join(format!("{name}.gamerec"))).unwrap()
}

fn run_recorded(src: &str) -> GameReport {
    let games = parse_file(src);
    replay(
        &games[0],
        src,
        &Options::keeping(crate::replay::sink::Record),
    )
}

#[test]
fn every_code_has_an_invalid_fixture_with_that_verdict() {
    let dir = fixture_dir("invalid");
    let mut seen = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        let code = CODES
            .iter()
            .filter(|c| stem.starts_with(*c))
            .max_by_key(|c| c.len())
            .unwrap_or_else(|| panic!("{stem} is named after no code"));
        seen.insert(*code);
        let src = std::fs::read_to_string(&path).unwrap();
        assert!(src.starts_with("[Event "), "{stem}");
        let r = run(&src);
        assert!(!r.valid, "{stem}");
        assert_eq!(r.errors.len(), 1, "{stem}: {:?}", r.errors);
        let e = &r.errors[0];
        assert_eq!(e.code, format!("deblockle::{code}"), "{stem}: {e:?}");
        let games = parse_file(&src);
        if *code == "bad_setup" {
            assert_eq!(e.ply, 0);
            assert_eq!(r.plies, 0);
        } else {
            // The error is in the last move of the record, and everything
            // before it is legal.
            let last = games[0].tokens.last().unwrap().span;
            let span = e.span.unwrap();
            assert!(
                span.offset >= last.offset && span.end() <= last.end(),
                "{stem}: {e:?}"
            );
            assert_eq!(e.ply, r.plies + 1, "{stem}");
        }
        println!(
            "{stem}: {} | {} | {:?}",
            e.message,
            e.label.clone().unwrap_or_default(),
            e.help
        );
    }
    for c in CODES {
        assert!(seen.contains(c), "no invalid fixture for {c}");
    }
}

#[test]
fn valid_fixtures_replay() {
    let dir = fixture_dir("valid");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let src = std::fs::read_to_string(&path).unwrap();
        let r = run(&src);
        assert!(r.valid, "{path:?}: {:?}", r.errors);
        assert!(r.over, "{path:?}");
        assert!(r.warnings.is_empty(), "{path:?}: {:?}", r.warnings);
    }
}

#[test]
fn valid_fixtures_show_what_they_claim() {
    // All four gold blocks removed.
    let r = run(&read_fixture("valid", "gold_removes_all_four"));
    assert_eq!((r.scores[0], r.winners.clone()), (4, vec!["gold"]));

    // The Deblockle'd side is skipped, passes written or not: the same plies.
    let written = run_recorded(&read_fixture("valid", "deblockled_pass_written"));
    let omitted = run_recorded(&read_fixture("valid", "deblockled_pass_omitted"));
    assert!(written.valid && omitted.valid);
    let passes = |r: &GameReport, auto: bool| {
        r.moves
            .iter()
            .filter(|m| m.notation == "pass" && m.auto == auto)
            .count()
    };
    assert!(passes(&written, false) >= 2);
    assert_eq!(passes(&written, true), 0);
    assert_eq!(passes(&omitted, true), passes(&written, false));
    assert_eq!(written.plies, omitted.plies);
    assert_eq!(written.scores, omitted.scores);
    assert_eq!(written.position, omitted.position);

    // One block a side; unequal sides.
    let r = run(&read_fixture("valid", "one_block"));
    assert_eq!(
        r.result_extras["blocks_at_start"],
        serde_json::json!({"gold": 1, "blue": 1})
    );
    let r = run(&read_fixture("valid", "unequal_3_vs_4"));
    assert_eq!(
        r.result_extras["blocks_at_start"],
        serde_json::json!({"gold": 3, "blue": 4})
    );

    // The variant.
    let r = run(&read_fixture("valid", "no_side_by_side"));
    assert_eq!(r.variant, "no-side-by-side");

    // Hoops in both forms.
    let r = run_recorded(&read_fixture("valid", "hoops_both_forms"));
    let src = read_fixture("valid", "hoops_both_forms");
    let games = parse_file(&src);
    let texts: Vec<&str> = games[0].tokens.iter().map(|t| t.text(&src)).collect();
    let hoops: Vec<&str> = r
        .moves
        .iter()
        .zip(&texts)
        .filter(|(m, _)| m.extras.get("face_up") == Some(&serde_json::json!("hoops")))
        .map(|(_, t)| *t)
        .collect();
    assert!(
        hoops.iter().any(|t| t.matches('/').count() == 3),
        "{hoops:?}"
    );
    assert!(
        hoops.iter().any(|t| t.matches('/').count() == 1),
        "{hoops:?}"
    );

    // The spec's example: gold wins 2-1 at ply 15.
    let r = run(&read_fixture("valid", "spec_example"));
    assert_eq!(
        (r.plies, r.scores.clone(), r.winners.clone()),
        (15, vec![2, 1], vec!["gold"])
    );
}

/// Positions where neither side can move after one gold turn (found by a
/// random search): `(event, file, SetupGold, SetupBlue, turn, result)`.
const DEAD_ENDS: [(&str, &str, &str, &str, &str, &str); 2] = [
    (
        "Neither side can move after gold's turn; two blocks each on the board: a draw",
        "stalemate_draw",
        "a6 slider/star, b7 slider/star",
        "c7 cross/star, d7 hoops/x",
        "a6-b6/a7",
        "0-0",
    ),
    (
        "Neither side can move after gold's turn; gold has fewer blocks on the board and wins",
        "stalemate_fewer_blocks_wins",
        "c5 stop/slider, a7 hoops/star, d7 hoops/x",
        "a6 hoops/star, b6 slider/star, b7 star/x, c7 x/hoops",
        "c5-c4/c6",
        "0-0",
    ),
];

fn dead_end_record(d: &(&str, &str, &str, &str, &str, &str)) -> String {
    format!(
        "[Event \"{}\"]\n[Game \"deblockle\"]\n[SetupGold \"{}\"]\n[SetupBlue \"{}\"]\n[Result \"{}\"]\n\n{}\n",
        d.0, d.2, d.3, d.5, d.4
    )
}

#[test]
fn neither_side_can_move() {
    // The draw: both seats win.
    let r = run(&dead_end_record(&DEAD_ENDS[0]));
    assert!(r.valid && r.over, "{:?}", r.errors);
    assert_eq!(r.plies, 1);
    assert_eq!(r.winners, ["gold", "blue"]);
    // Fewer blocks on the board wins, whatever the scores.
    let r = run(&dead_end_record(&DEAD_ENDS[1]));
    assert!(r.valid && r.over, "{:?}", r.errors);
    assert_eq!(r.scores, [0, 0]);
    assert_eq!(r.winners, ["gold"]);
    // The reference agrees that nobody can move.
    for d in &DEAD_ENDS {
        let tags = crate::record::parse_file(&dead_end_record(d));
        let mut st = super::start_state(&tags[0].tags).unwrap();
        let g = st
            .pos
            .turns(GOLD)
            .into_iter()
            .find(|g| turn_name(g) == d.4)
            .unwrap();
        st.pos.play(&g);
        let b = to_reference(&st.pos);
        assert!(b.turns(GOLD).is_empty() && b.turns(BLUE).is_empty());
        assert!(<super::Deblockle as crate::game::Notation>::legal_move_texts(&st).unwrap().is_empty());
    }
}

// ---------------------------------------------------------------------------
// Hand-worked positions and setups.

/// A record with these setups and moves; the first error's code, if any.
fn verdict_of(gold: &str, blue: &str, extra: &str, moves: &str) -> (GameReport, Option<String>) {
    let src = format!(
        "[Game \"deblockle\"]\n{extra}[SetupGold \"{gold}\"]\n[SetupBlue \"{blue}\"]\n\n{moves}\n"
    );
    let r = run(&src);
    let code = r.errors.first().map(|e| e.code.to_string());
    (r, code)
}

fn code_of(gold: &str, blue: &str, moves: &str) -> Option<String> {
    verdict_of(gold, blue, "", moves).1
}

#[test]
fn the_example_ply_one_by_hand() {
    let g = "c1 x/stop, e1 stop/cross";
    let b = "c7 x/slider, e7 hoops/stop";
    // Slider comes up on d1 and slides north over both star spaces to d7.
    assert_eq!(code_of(g, b, "c1-d1/d7"), None);
    assert_eq!(
        code_of(g, b, "c1-d1/d5").as_deref(),
        Some("deblockle::short_slide")
    );
    assert_eq!(
        code_of(g, b, "c1-d1").as_deref(),
        Some("deblockle::missing_hop")
    );
    assert_eq!(code_of(g, b, "c1-d1/a1"), None);
    assert_eq!(
        code_of(g, b, "c1-d1/d1").as_deref(),
        Some("deblockle::unexpected_hop")
    );
    assert_eq!(
        code_of(g, b, "c1-d1/e2").as_deref(),
        Some("deblockle::unexpected_hop")
    );
    assert_eq!(
        code_of(g, b, "c1-d1/d2/d3/d4").as_deref(),
        Some("deblockle::unexpected_hop")
    );
    // East of d1 is e1: the slide east cannot start.
    assert_eq!(
        code_of(g, b, "c1-d1/g1").as_deref(),
        Some("deblockle::hop_blocked")
    );
    let (r, _) = verdict_of(g, b, "", "c1-d1/d7");
    let e = r.errors.first();
    assert!(e.is_none());
    // The message names the symbol and the end of the run.
    let (r, _) = verdict_of(g, b, "", "c1-d1/d5");
    assert_eq!(
        r.errors[0].message,
        "slider must slide to d7, the end of its run, not d5"
    );
    assert_eq!(
        r.errors[0].help.as_deref(),
        Some("legal hops after this tip: /a1 /d7")
    );
}

#[test]
fn moves_list_is_canonical_without_duplicates() {
    let src = EXAMPLE.to_string();
    let games = parse_file(&src);
    let state = super::start_state(&games[0].tags).unwrap();
    // the engine's order; the driver sorts them by text
    let mut moves = <super::Deblockle as crate::game::Notation>::legal_move_texts(&state).unwrap();
    moves.sort();
    assert_eq!(moves, super::explain::legal_names(&state.pos));
    assert!(moves.contains(&"c1-d1/d7".to_string()));
    // e1 stop/cross tipping north brings cross's opposite... check by the cube:
    let o = Orient::new(Face::Stop, Face::Cross).unwrap();
    assert_eq!(o.tip(Dir::North).top(), Face::X);
    // No duplicates: a hoops destination reached by several paths is one move.
    let mut dedup = moves.clone();
    dedup.dedup();
    assert_eq!(dedup.len(), moves.len());
}

#[test]
fn a_tip_without_any_hop_is_no_turn() {
    // a1 stop/cross tips north: the south face (x) comes up on a2; its
    // diagonals b1 and b3 hold blocks.
    let g = "a1 stop/cross, b1 stop/x";
    let b = "b3 stop/x";
    assert_eq!(
        code_of(g, b, "a1-a2").as_deref(),
        Some("deblockle::hop_blocked")
    );
    assert_eq!(
        code_of(g, b, "a1-a2/b3").as_deref(),
        Some("deblockle::hop_blocked")
    );
    assert_eq!(
        code_of(g, b, "a1-a2/b1").as_deref(),
        Some("deblockle::hop_blocked")
    );
    let games = parse_file(&format!(
        "[Game \"deblockle\"]\n[SetupGold \"{g}\"]\n[SetupBlue \"{b}\"]\n"
    ));
    let st = super::start_state(&games[0].tags).unwrap();
    let moves = <super::Deblockle as crate::game::Notation>::legal_move_texts(&st).unwrap();
    assert!(!moves.iter().any(|m| m.starts_with("a1-a2")), "{moves:?}");
}

#[test]
fn hoops_paths_and_destinations() {
    // e1 hoops/... : find an orientation whose tip north brings hoops up:
    // the south face must be hoops, so north is slider.
    let g = "e1 stop/slider";
    let b = "e3 stop/x, f2 stop/x";
    // Hoops on e2; e3 and f2 are blocked, e1 (the square left) is free.
    assert_eq!(code_of(g, b, "e1-e2/e1/d1/c1"), None);
    assert_eq!(code_of(g, b, "e1-e2/c1"), None);
    assert_eq!(code_of(g, b, "e1-e2/e1/e2/e1"), None);
    assert_eq!(code_of(g, b, "e1-e2/e1"), None);
    assert_eq!(
        code_of(g, b, "e1-e2/e3/e4/e5").as_deref(),
        Some("deblockle::hoops_bad_step")
    );
    assert_eq!(
        code_of(g, b, "e1-e2/e1/e0/e1").as_deref(),
        Some("deblockle::hoops_bad_step")
    );
    assert_eq!(
        code_of(g, b, "e1-e2/e1/c1/b1").as_deref(),
        Some("deblockle::hoops_bad_step")
    );
    assert_eq!(code_of(g, b, "e1-e2/d2/c2/b2"), None);
    // Passing over the star space d2 is fine; ending on it is not.
    assert_eq!(code_of(g, b, "e1-e2/d2/c2/c3"), None);
    assert_eq!(
        code_of(g, b, "e1-e2/e1/d1/d2").as_deref(),
        Some("deblockle::ends_on_star")
    );
    assert_eq!(
        code_of(g, b, "e1-e2/d2").as_deref(),
        Some("deblockle::ends_on_star")
    );
    // Two squares away is never three steps away.
    assert_eq!(
        code_of(g, b, "e1-e2/c2").as_deref(),
        Some("deblockle::hoops_unreachable")
    );
    assert_eq!(
        code_of(g, b, "e1-e2/h2").as_deref(),
        Some("deblockle::hoops_unreachable")
    );
    // The path form is written back as its destination.
    let (r, _) = verdict_of(g, b, "", "e1-e2/d2/c2/b2");
    assert!(r.valid);
    let games = parse_file(&format!(
        "[Game \"deblockle\"]\n[SetupGold \"{g}\"]\n[SetupBlue \"{b}\"]\n"
    ));
    let st = super::start_state(&games[0].tags).unwrap();
    let moves = <super::Deblockle as crate::game::Notation>::legal_move_texts(&st).unwrap();
    assert!(moves.contains(&"e1-e2/b2".to_string()));
    assert!(moves.contains(&"e1-e2/e1".to_string()));
    assert!(!moves.contains(&"e1-e2/d2".to_string()));
}

#[test]
fn scoring_and_star_rules() {
    // Gold on d5 with star on its south face: tipping north onto d6 scores.
    // star south = stop north.
    let g = "d5 x/stop, a1 stop/x";
    let b = "g7 stop/x";
    let (r, code) = verdict_of(g, b, "", "d5-d6");
    assert_eq!(code, None, "{:?}", r.errors);
    assert_eq!(r.scores, [1, 0]);
    assert!(!r.over);
    assert_eq!(
        code_of(g, b, "d5-d6/d7").as_deref(),
        Some("deblockle::unexpected_hop")
    );
    // Tipping onto d6 with another face up.
    assert_eq!(
        code_of("d5 stop/x, a1 stop/x", b, "d5-d6").as_deref(),
        Some("deblockle::tip_onto_star")
    );
    // Star up anywhere else.
    assert_eq!(
        code_of("c5 x/stop", b, "c5-c6").as_deref(),
        Some("deblockle::star_up")
    );
    // Gold's own home star, even with star up.
    assert_eq!(
        code_of("d1 x/stop", b, "d1-d2").as_deref(),
        Some("deblockle::tip_onto_star")
    );
    // Blue scores on d2.
    let (r, code) = verdict_of("a1 stop/x", "d1 x/stop", "[First \"blue\"]\n", "d1-d2");
    assert_eq!(code, None, "{:?}", r.errors);
    assert_eq!(
        (r.scores.clone(), r.over, r.winners.clone()),
        (vec![0, 1], true, vec!["blue"])
    );
}

#[test]
fn tip_errors_in_order() {
    let g = "a1 stop/x, b1 stop/x";
    let b = "a2 stop/x";
    assert_eq!(
        code_of(g, b, "a1-a0").as_deref(),
        Some("deblockle::tip_off_board")
    );
    assert_eq!(
        code_of(g, b, "a1-a2").as_deref(),
        Some("deblockle::tip_occupied")
    );
    assert_eq!(
        code_of(g, b, "a1-b2").as_deref(),
        Some("deblockle::diagonal_tip")
    );
    assert_eq!(
        code_of(g, b, "a1-a3").as_deref(),
        Some("deblockle::diagonal_tip")
    );
    assert_eq!(
        code_of(g, b, "a2-a3").as_deref(),
        Some("deblockle::not_your_block")
    );
    assert_eq!(
        code_of(g, b, "c1-c2").as_deref(),
        Some("deblockle::not_your_block")
    );
    assert_eq!(
        code_of(g, b, "h1-g1").as_deref(),
        Some("deblockle::bad_square")
    );
    assert_eq!(
        code_of(g, b, "b1-c1/x").as_deref(),
        Some("deblockle::bad_square")
    );
    // Ownership is judged before the tip's shape.
    assert_eq!(
        code_of(g, b, "c3-d4").as_deref(),
        Some("deblockle::not_your_block")
    );
}

#[test]
fn x_and_cross_hops() {
    // b2 stop/x tips east to c2: the west face comes up. stop up, x north:
    // east slider, so west hoops... pick one whose west is x: stop up, slider
    // north -> east is x? Check with the cube and build the case from it.
    let o = Orient::new(Face::Stop, Face::Hoops).unwrap();
    assert_eq!(o.tip(Dir::North).top(), Face::Slider);
    // a block on c4 with cross coming up when it tips north to c5: south = cross, north = x.
    let g = "c4 stop/x";
    let b = "c7 stop/x, b6 stop/x";
    assert_eq!(code_of(g, b, "c4-c5/c6"), None);
    assert_eq!(code_of(g, b, "c4-c5/c4"), None);
    assert_eq!(code_of(g, b, "c4-c5/d5"), None);
    assert_eq!(
        code_of(g, b, "c4-c5/d6").as_deref(),
        Some("deblockle::unexpected_hop")
    );
    assert_eq!(
        code_of(g, b, "c4-c5/c7").as_deref(),
        Some("deblockle::unexpected_hop")
    );
    // x: tip south to c3 brings the north face (x) up.
    assert_eq!(
        code_of(g, b, "c4-c3/d2").as_deref(),
        Some("deblockle::ends_on_star")
    );
    assert_eq!(code_of(g, b, "c4-c3/b4"), None);
    assert_eq!(
        code_of(g, b, "c4-c3/c4").as_deref(),
        Some("deblockle::unexpected_hop")
    );
    let g = "b5 stop/x";
    assert_eq!(code_of(g, b, "b5-b4/a5"), None);
    let g = "a5 stop/x";
    // a5 tips north to a6 (cross): b6 holds a block.
    assert_eq!(
        code_of(g, b, "a5-a6/b6").as_deref(),
        Some("deblockle::hop_blocked")
    );
    assert_eq!(
        code_of(g, b, "a5-a6/a8").as_deref(),
        Some("deblockle::unexpected_hop")
    );
}

#[test]
fn passes() {
    // Blue's only block is shut in at a7 (gold on a6 and b7).
    let g = "a6 stop/x, b7 stop/x, g1 stop/x";
    let b = "a7 stop/x";
    let (r, code) = verdict_of(g, b, "", "g1-g2/g3 pass g3-g2");
    assert_eq!(code, None, "{:?}", r.errors);
    let (r2, code) = verdict_of(g, b, "", "g1-g2/g3 g3-g2");
    assert_eq!(code, None);
    assert_eq!((r.plies, r2.plies), (3, 3));
    // Gold may not pass.
    let (r, code) = verdict_of(g, b, "", "pass");
    assert_eq!(code.as_deref(), Some("deblockle::illegal_pass"));
    assert!(
        r.errors[0]
            .help
            .as_deref()
            .unwrap()
            .starts_with("gold can play, for example, ")
    );
}

#[test]
fn no_side_by_side_variant() {
    let g = "c3 stop/x";
    let b = "c6 stop/x, e4 stop/x";
    // c3 tips north to c4 (cross up) and hops east to d4, next to e4.
    assert_eq!(code_of(g, b, "c3-c4/d4"), None);
    let (_, code) = verdict_of(g, b, "[Variant \"no-side-by-side\"]\n", "c3-c4/d4");
    assert_eq!(code.as_deref(), Some("deblockle::side_by_side"));
    let (_, code) = verdict_of(g, b, "[Variant \"No-Side-By-Side\"]\n", "c3-c4/b4");
    assert_eq!(code, None);
    let (r, code) = verdict_of(g, b, "[Variant \"side-by-side\"]\n", "c3-c4/b4");
    assert_eq!(code.as_deref(), Some("record::bad_tag"));
    assert_eq!(r.plies, 0);
}

#[test]
fn setups() {
    let bad = |gold: &str, blue: &str, extra: &str| {
        let (r, code) = verdict_of(gold, blue, extra, "");
        assert_eq!(r.plies, 0);
        (
            code,
            r.errors
                .first()
                .map(|e| e.message.clone())
                .unwrap_or_default(),
        )
    };
    let ok = "c5 stop/x";
    // Face names are case-insensitive; spaces around `/` and a trailing comma are fine.
    assert_eq!(bad("c1 STOP/X, E1 Hoops / Star,", ok, "").0, None);
    for (gold, why) in [
        ("c1 stop/x, c1 hoops/star", "two blocks on c1"),
        ("d2 stop/x", "star space"),
        ("d6 stop/x", "star space"),
        ("c1 stop/star", "opposite"),
        ("c1 x/cross", "opposite"),
        ("c1 x/x", "same face"),
        ("c1 stop/circle", "not a face"),
        ("c1 stop", "TOP/NORTH"),
        ("h1 stop/x", "not a square"),
        ("c8 stop/x", "not a square"),
        (
            "a1 stop/x, b1 stop/x, c1 stop/x, e1 stop/x, f1 stop/x",
            "more than 4",
        ),
        ("", "no block"),
        ("c5 stop/x", "already holds a gold block"),
    ] {
        let (code, message) = bad(gold, ok, "");
        assert_eq!(code.as_deref(), Some("deblockle::bad_setup"), "{gold}");
        assert!(message.contains(why), "{gold}: {message}");
    }
    let (code, _) = bad("c1 stop/x", ok, "[First \"red\"]\n");
    assert_eq!(code.as_deref(), Some("deblockle::bad_setup"));
    let (r, _) = verdict_of("c1 stop/x", ok, "[First \"Blue\"]\n", "");
    assert!(r.valid);
    // A missing setup tag.
    let r = run("[Game \"deblockle\"]\n[SetupGold \"c1 stop/x\"]\n\nc1-c2/c3\n");
    assert_eq!(r.errors[0].code, "deblockle::bad_setup");
    assert_eq!(r.plies, 0);
}

#[test]
fn move_extras_and_rows() {
    let src = EXAMPLE;
    let r = run_recorded(src);
    let first = &r.moves[0].extras;
    assert_eq!(
        serde_json::Value::Object(first.clone()),
        serde_json::json!({"block": "gold", "from": "c1", "tip": "d1", "face_up": "slider", "dest": "d7", "removed": false})
    );
    let last = &r.moves[14].extras;
    assert_eq!(last["removed"], serde_json::json!(true));
    assert_eq!(last["dest"], serde_json::json!("d6"));
    assert_eq!(r.position.len(), 7);
    assert_eq!(r.position[1], "...*...");
    assert_eq!(r.position[5], "...*...");
    assert!(r.position.iter().all(|row| row.chars().count() == 7));
}

#[test]
fn nothing_crashes_on_noise() {
    let mut rng = Rng(99);
    let alphabet: Vec<char> = "abcdefghz0123456789-/ pass\n".chars().collect();
    for _ in 0..300 {
        let len = rng.below(200);
        let moves: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        let _ = verdict_of(
            "c1 stop/x, e1 x/stop",
            "c7 hoops/x, e7 slider/star",
            "",
            &moves,
        );
    }
    let long = "c1-c2".to_string() + &"/c3".repeat(100_000);
    let _ = verdict_of("c1 stop/x", "c7 stop/x", "", &long);
    let long = "c".to_string() + &"9".repeat(100_000);
    let _ = verdict_of("c1 stop/x", "c7 stop/x", "", &long);
}

// ---------------------------------------------------------------------------
// The bit-set forms of the engine (`Position::tip`, `can_move`,
// `quick_judge`) against the turn generator and the long judge.

/// A random start: 1 to 4 blocks a side on random squares off the stars,
/// random orientations, either side to move.
fn scattered_start(rng: &mut Rng, nsbs: bool) -> Position {
    let mut p = Position::empty(nsbs);
    for side in [GOLD, BLUE] {
        let n = 1 + rng.below(4);
        let mut placed = 0;
        while placed < n {
            let sq = rng.below(49) as u8;
            if engine::STARS & (1 << sq) != 0 || p.owner(sq).is_some() {
                continue;
            }
            p.put(side, sq, rng.below(24) as u8);
            placed += 1;
        }
    }
    p.to_move = rng.below(2);
    p
}

/// The positions along random games: from the standard start with random
/// orientations, and from random starts; both variants.
fn random_positions(seed: u64, games: usize) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for game in 0..games {
        let nsbs = game % 3 == 2;
        let mut p = if game % 2 == 0 {
            let mut p = Position::standard(nsbs);
            for sq in 0..49u8 {
                if p.owner(sq).is_some() {
                    p.orient[usize::from(sq)] = (rng.next() % 24) as u8;
                }
            }
            p
        } else {
            scattered_start(&mut rng, nsbs)
        };
        for _ply in 0..150 {
            out.push(p);
            if p.is_over() {
                break;
            }
            if let Some(g) = random_turn(&mut p, &mut rng) {
                p.play(&g);
            }
        }
    }
    out
}

#[test]
fn tip_bit_sets_and_can_move_agree_with_the_generator() {
    let positions = random_positions(0x9e37_79b9_7f4a_7c15, 300);
    let (mut scoring, mut stuck) = (0, 0);
    for p in &positions {
        for side in [GOLD, BLUE] {
            let by_generator = !p.each_turn(side, &mut |_| false);
            assert_eq!(p.can_move(side), by_generator, "{p:?} side {side}");
            stuck += usize::from(!by_generator);
            for from in (0..49u8).filter(|&s| p.owner(s) == Some(side)) {
                for d in Dir::ALL {
                    let mut gens = Vec::new();
                    p.tip_turns(side, from, d, &mut |g| {
                        gens.push(g);
                        true
                    });
                    let Some(t) = p.tip(side, from, d) else {
                        assert!(gens.is_empty());
                        let (c, r) = d.delta();
                        let (tc, tr) = (
                            i32::from(from % 7) + i32::from(c),
                            i32::from(from / 7) + i32::from(r),
                        );
                        let off = !(0..7).contains(&tc) || !(0..7).contains(&tr);
                        assert!(
                            off || p.owner((tr * 7 + tc) as u8).is_some(),
                            "{p:?} {from} {d:?}"
                        );
                        continue;
                    };
                    let dests = gens.iter().fold(0u64, |m, g| m | 1 << g.dest);
                    assert_eq!(t.dests, dests, "{p:?} {from} {d:?}");
                    assert_eq!(
                        gens.len() as u32,
                        dests.count_ones(),
                        "one turn per final square"
                    );
                    for g in &gens {
                        assert_eq!((g.tip, g.orient, g.scored), (t.tip, t.orient, t.scored));
                    }
                    scoring += usize::from(t.scored && t.dests != 0);
                }
            }
        }
    }
    assert!(positions.len() > 20_000, "{}", positions.len());
    assert!(
        scoring > 100 && stuck > 20,
        "scoring {scoring}, stuck {stuck}"
    );
}

#[test]
fn quick_judge_accepts_exactly_what_the_long_judge_accepts() {
    let positions = random_positions(0x2545_f491_4f6c_dd1d, 60);
    let (mut legal, mut checked) = (0, 0);
    for (k, p) in positions.iter().enumerate() {
        if k % 50 != 0 {
            continue;
        }
        for text in candidates(p) {
            let Some(Move::Turn(t)) = read_move(&text).map(|m| m.mv) else {
                continue;
            };
            let long = engine::judge_long(p, &t);
            assert_eq!(engine::quick_judge(p, &t), long.ok(), "{text} in {p:?}");
            assert_eq!(engine::judge(p, &t), long);
            legal += usize::from(long.is_ok());
            checked += 1;
        }
    }
    assert!(
        legal > 1_000 && checked > 100_000,
        "{legal} legal of {checked}"
    );
}

#[test]
fn quick_setups_read_as_the_long_way_does() {
    let mut texts: Vec<String> = vec![
        "c1 hoops/stop, e1 stop/slider, c3 stop/slider, e3 x/star".into(),
        " C5 HOOPS / star ,e5 cross/stop,, c7 stop/hoops, e7 slider/cross, ".into(),
        "c1 x/stop, e1 stop/cross".into(),
    ];
    // whole entries, broken entries and separators, strung together
    let units = [
        "a1 x/stop",
        "b5 hoops/star",
        "C3 cross / slider",
        "g7 star/x",
        "a1 slider/hoops",
        "d2 x/stop",
        "c1 x/x",
        "c1 x/star",
        "h1 x/stop",
        "c1x/stop",
        "c1 x/stop/x",
        "c1 circle/x",
        ",",
        ", ",
        " ",
        "\t",
        "é",
        "/",
        "x",
    ];
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    for _ in 0..50_000 {
        let mut t = String::new();
        for _ in 0..rng.below(9) {
            t.push_str(units[rng.below(units.len())]);
            if rng.below(3) > 0 {
                t.push_str(", ");
            }
        }
        texts.push(t);
    }
    let mut quick = 0;
    for t in &texts {
        let tag = crate::record::Tag {
            name: "SetupGold".into(),
            value: t.clone(),
            span: crate::span::Span::new(0, t.len() + 13),
            value_span: crate::span::Span::new(11, t.len() + 2),
        };
        if let Some(q) = super::quick_setup(t) {
            quick += 1;
            assert_eq!(super::parse_setup_long(&tag, "gold"), Ok(q), "{t}");
        } else if let Ok(s) = super::parse_setup_long(&tag, "gold") {
            // Only spellings outside the usual shape go the long way.
            assert!(
                t.contains(['\t', '\u{e9}']),
                "{t} read the long way as {s:?}"
            );
        }
    }
    assert!(quick > 1_000, "{quick}");
}

#[test]
fn slide_ends_from_the_rays_agree_with_stepping() {
    let mut rng = Rng(0x1405_7b7e_f767_814f);
    for _ in 0..20_000 {
        let others = rng.next() & rng.next() & engine::BOARD;
        let sq = rng.below(49) as u8;
        for d in Dir::ALL {
            let (dc, dr) = d.delta();
            let (mut c, mut r) = (i32::from(sq % 7), i32::from(sq / 7));
            let mut end = None;
            loop {
                let (nc, nr) = (c + i32::from(dc), r + i32::from(dr));
                if !(0..7).contains(&nc)
                    || !(0..7).contains(&nr)
                    || others & 1 << (nr * 7 + nc) != 0
                {
                    break;
                }
                (c, r) = (nc, nr);
                end = Some((r * 7 + c) as u8);
            }
            assert_eq!(
                engine::slide_end(sq, d, others),
                end,
                "{sq} {d:?} {others:#x}"
            );
        }
    }
}

#[test]
fn remembered_answers_agree_with_the_generator_along_played_games() {
    use super::State;
    let mut rng = Rng(0xd1b5_4a32_d192_ed03);
    for game in 0..200 {
        let nsbs = game % 4 == 3;
        let start = if game % 2 == 0 {
            Position::standard(nsbs)
        } else {
            scattered_start(&mut rng, nsbs)
        };
        let mut state = State::new(start);
        for _ply in 0..150 {
            let p = state.pos;
            let can = !p.each_turn(p.to_move, &mut |_| false);
            assert_eq!(crate::game::Position::must_pass(&state), !can, "{p:?}");
            assert_eq!(crate::game::Position::is_over(&state), p.is_over(), "{p:?}");
            assert_eq!(crate::game::Position::must_pass(&state), !can, "asked twice: {p:?}");
            if p.is_over() {
                break;
            }
            play_random(&mut state, &mut rng);
        }
    }
}

#[test]
fn kept_easy_tip_masks_agree_with_the_blocks_along_played_games() {
    use super::State;
    let mut rng = Rng(0x8cb9_2ba7_2f3d_8dd7);
    let (mut easy_settled, mut plies) = (0, 0);
    for game in 0..300 {
        let nsbs = game % 4 == 3;
        let start = match game % 3 {
            0 => Position::standard(nsbs),
            1 => {
                let mut p = Position::standard(nsbs);
                for sq in 0..49u8 {
                    if p.owner(sq).is_some() {
                        p.orient[usize::from(sq)] = (rng.next() % 24) as u8;
                    }
                }
                p
            }
            _ => scattered_start(&mut rng, nsbs),
        };
        let mut state = State::new(Position::empty(nsbs));
        state.pos = start;
        state.forget_moves();
        for _ply in 0..200 {
            let p = state.pos;
            for side in [GOLD, BLUE] {
                assert_eq!(state.easy_blocks(side), p.easy_blocks(side), "{p:?}");
                let open = engine::easy_tip_open(&state.easy_blocks(side), p.all());
                assert_eq!(!nsbs && open, p.has_easy_tip(side), "{p:?}");
                let can = !p.each_turn(side, &mut |_| false);
                assert_eq!(state.side_can_move(side), can, "{p:?} side {side}");
                assert_eq!(p.can_move(side), can, "{p:?} side {side}");
                easy_settled += usize::from(!nsbs && open);
            }
            plies += 1;
            if crate::game::Position::is_over(&state) {
                break;
            }
            play_random(&mut state, &mut rng);
        }
    }
    assert!(
        plies > 20_000 && easy_settled > plies,
        "{easy_settled} of {plies}"
    );
}

#[test]
fn setup_faces_read_from_bytes_as_face_parse_reads_the_word() {
    // every face name in three spellings, cut short, run on, and junk
    let mut words: Vec<String> = Vec::new();
    for f in Face::ALL {
        let name = f.name();
        words.push(name.to_string());
        words.push(name.to_uppercase());
        words.push(format!("{}{}", &name[..1].to_uppercase(), &name[1..]));
        words.push(name[..name.len() - 1].to_string());
        words.push(format!("{name}x"));
        words.push(format!("{name}s"));
    }
    words.extend(["", "y", "xx", "sta", "stars", "hoop", "é", "x1"].map(String::from));
    for w in &words {
        for tail in ["", "/", " ", ",", "é", "1"] {
            let text = format!("{w}{tail}");
            let run = text.bytes().take_while(u8::is_ascii_alphabetic).count();
            let want = Face::parse(&text[..run]).map(|f| (f, run));
            assert_eq!(super::quick_face(text.as_bytes()), want, "{text:?}");
        }
    }
}

/// Plays a random legal turn of the side to move through `Explain::judge` (a
/// pass when it has none).
fn play_random(state: &mut super::State, rng: &mut Rng) {
    use super::Deblockle;
    use crate::game::{Explain, Parsed};
    let p = state.pos;
    let turns = p.turns(p.to_move);
    let mv = match turns.get(rng.below(turns.len())) {
        Some(g) => g.as_move(),
        None => Move::Pass,
    };
    let parsed = Parsed {
        mv,
        span: crate::span::Span::default(),
        token: 0,
        parts: Default::default(),
    };
    Deblockle::judge(state, &parsed).unwrap();
}
