//! Hand-worked positions, the fixtures' verdicts, the generator against a
//! slow reference, and the deterministic game generator that wrote the long
//! fixtures (run `cargo test --lib games::qwirkle -- --ignored write_fixtures`
//! with `QWIRKLE_WRITE=1` to rewrite them).

use super::board::{
    Board, Counts, Put, Tile, code, count_add, count_take, largest_group, tiles_of,
};
use super::*;
use crate::record::parse_file;
use crate::registry::replay;
use crate::replay::{GameReport, Options};

fn run(src: &str) -> GameReport {
    let games = parse_file(src);
    let g = games.first().expect("one game");
    replay(g, src, &Options::default())
}

fn error_code(r: &GameReport) -> Option<String> {
    r.errors.first().map(|d| d.code.to_string())
}

fn tile(s: &str) -> Tile {
    let b = s.as_bytes();
    board::from_letters(b[0], b[1]).expect("tile")
}

fn board_of(puts: &[(&str, i64, i64)]) -> Board {
    let mut b = Board::default();
    for &(t, x, y) in puts {
        b.set(Put {
            tile: tile(t),
            x,
            y,
        });
    }
    b
}

fn hand_of(tiles: &[&str]) -> Counts {
    let mut c = [0u8; 36];
    for t in tiles {
        count_add(&mut c, tile(t));
    }
    c
}

/// The board of the scoring example just before the 18-point turn.
const SCORING_PREFIX: &str = "Rc@1,-1 + Rd@1,-2 + Ro@1,-3 =3 Rs@1,-4 + R*@1,-5 =5 \
Gd@-2,-2 + Yd@-1,-2 + Od@0,-2 =4 Gs@-2,-1 + Go@-2,0 + Gc@-2,1 + G*@-2,2 =5 \
Y*@-1,2 + O*@0,2 + P*@1,2 + B*@2,2 =5 Bo@2,1 =2";

fn two_player(moves: &str) -> String {
    format!("[Game \"qwirkle\"]\n[Players \"2\"]\n\n{moves}\n")
}

#[test]
fn publisher_scoring_examples() {
    let r = run(&two_player("Rc@0,0 + Rd@0,-1 + Ro@0,-2 =3"));
    assert!(r.valid, "{:?}", r.errors);
    assert_eq!(r.scores, [3, 0]);
    let r = run(&two_player(&format!(
        "{SCORING_PREFIX} Ox@0,0 + Rx@1,0 + Bx@2,0 =18"
    )));
    assert!(r.valid, "{:?}", r.errors);
    assert_eq!(r.scores, [30, 12]);
    let r = run(&two_player(&format!(
        "{SCORING_PREFIX} Ox@0,0 + Rx@1,0 + Bx@2,0 =17"
    )));
    assert_eq!(error_code(&r).as_deref(), Some("qwirkle::wrong_claim"));
    let d = &r.errors[0];
    assert_eq!(d.message, "this turn scores 18, not 17");
    assert_eq!(
        d.help.as_deref(),
        Some("criss-cross row 3 + red column 6 + Qwirkle 6 + blue column 3 = 18")
    );
    assert_eq!(d.ply, 7);
}

#[test]
fn lone_first_tile_scores_one() {
    let r = run(&two_player("Gx@5,-7 =1 Gs@5,-6 =2"));
    assert!(r.valid, "{:?}", r.errors);
    assert_eq!(r.scores, [1, 2]);
}

#[test]
fn line_errors_name_the_line() {
    let r = run(&two_player(&format!("{SCORING_PREFIX} Bx@1,0")));
    assert_eq!(error_code(&r).as_deref(), Some("qwirkle::mixed_line"));
    assert!(
        r.errors[0]
            .message
            .contains("R*@1,-5 Rs@1,-4 Ro@1,-3 Rd@1,-2 Rc@1,-1 Bx@1,0"),
        "{}",
        r.errors[0].message
    );
}

#[test]
fn judge_orders_its_checks() {
    let b = board_of(&[("Rc", 0, 0), ("Rd", 1, 0)]);
    let put = |v: &[(&str, i64, i64)]| -> Vec<Put> {
        v.iter()
            .map(|&(t, x, y)| Put {
                tile: tile(t),
                x,
                y,
            })
            .collect()
    };
    use board::PlaceError as E;
    assert!(matches!(
        b.judge(&put(&[("Ro", 0, 0)])),
        Err(E::Occupied { dup: false, .. })
    ));
    assert!(matches!(
        b.judge(&put(&[("Ro", 2, 0), ("Rs", 2, 0)])),
        Err(E::Occupied { dup: true, .. })
    ));
    assert!(matches!(
        b.judge(&put(&[("Ro", 2, 0), ("Rs", 3, 1)])),
        Err(E::NotInLine { at: 1 })
    ));
    assert!(matches!(
        b.judge(&put(&[("Ro", 2, 0), ("Rs", 4, 0)])),
        Err(E::Gap { x: 3, y: 0 })
    ));
    assert!(matches!(
        b.judge(&put(&[("Ro", 5, 5)])),
        Err(E::NotTouching)
    ));
    assert!(matches!(
        b.judge(&put(&[("Ro", 2, 0), ("Gs", 3, 0)])),
        Err(E::NoSharedAttribute { at: 1 })
    ));
    // Placed tiles need not touch each other: the board fills the middle.
    let s = b
        .judge(&put(&[("Ro", -1, 0), ("Rs", 2, 0)]))
        .expect("legal");
    assert_eq!(s.total, 4);
    // Extremes of i32 do not overflow.
    let far = put(&[("Ro", i64::from(i32::MAX), i64::from(i32::MIN))]);
    assert!(matches!(b.judge(&far), Err(E::NotTouching)));
    let wide = put(&[
        ("Ro", i64::from(i32::MIN), 0),
        ("Rs", i64::from(i32::MAX), 0),
    ]);
    assert!(matches!(b.judge(&wide), Err(E::Gap { .. })));
}

#[test]
fn largest_group_ignores_duplicates() {
    assert_eq!(
        largest_group(&hand_of(&["Rc", "Rc", "Rd", "Gs", "Bx", "Y*"])),
        2
    );
    assert_eq!(
        largest_group(&hand_of(&["Rc", "Gc", "Bc", "Yc", "Oc", "Pc"])),
        6
    );
}

/// The slow reference: every stretch of a row or column near the board, every
/// ordering of hand tiles on its empty squares, judged by `Board::judge`.
fn slow_placements(b: &Board, hand: &Counts) -> Vec<(String, i64)> {
    let tiles = tiles_of(hand);
    let (x0, x1, y0, y1) = b.bounds.expect("non-empty");
    let mut out = std::collections::BTreeSet::new();
    fn perms(
        tiles: &[Tile],
        k: usize,
        used: &mut Vec<bool>,
        cur: &mut Vec<Tile>,
        f: &mut dyn FnMut(&[Tile]),
    ) {
        if cur.len() == k {
            f(cur);
            return;
        }
        for i in 0..tiles.len() {
            if !used[i] {
                used[i] = true;
                cur.push(tiles[i]);
                perms(tiles, k, used, cur, f);
                cur.pop();
                used[i] = false;
            }
        }
    }
    for row in [true, false] {
        for fixed in if row {
            y0 - 1..=y1 + 1
        } else {
            x0 - 1..=x1 + 1
        } {
            let (lo, hi) = if row {
                (x0 - 6, x1 + 6)
            } else {
                (y0 - 6, y1 + 6)
            };
            for a in lo..=hi {
                for len in 1..=12 {
                    let sq: Vec<(i64, i64)> = (a..a + len)
                        .map(|k| if row { (k, fixed) } else { (fixed, k) })
                        .collect();
                    let empties: Vec<(i64, i64)> = sq
                        .iter()
                        .copied()
                        .filter(|&(x, y)| b.get(x, y).is_none())
                        .collect();
                    // The stretch must start and end on a placed tile.
                    if empties.is_empty()
                        || empties.len() > tiles.len()
                        || empties.first() != sq.first()
                        || empties.last() != sq.last()
                    {
                        continue;
                    }
                    if empties.len() == 1 && !row {
                        continue;
                    }
                    let mut used = vec![false; tiles.len()];
                    let mut cur = Vec::new();
                    perms(&tiles, empties.len(), &mut used, &mut cur, &mut |ts| {
                        let puts: Vec<Put> = ts
                            .iter()
                            .zip(&empties)
                            .map(|(&t, &(x, y))| Put { tile: t, x, y })
                            .collect();
                        if let Ok(s) = b.judge(&puts) {
                            let text = puts
                                .iter()
                                .map(|p| format!("{}@{},{}", code(p.tile), p.x, p.y))
                                .collect::<Vec<_>>()
                                .join(" + ");
                            out.insert((text, s.total));
                        }
                    });
                }
            }
        }
    }
    out.into_iter().collect()
}

fn fast_placements(b: &Board, hand: &Counts) -> Vec<(String, i64)> {
    let mut v: Vec<(String, i64)> = b
        .placements(hand, None)
        .into_iter()
        .map(|(puts, s)| {
            (
                puts.iter()
                    .map(|p| format!("{}@{},{}", code(p.tile), p.x, p.y))
                    .collect::<Vec<_>>()
                    .join(" + "),
                s,
            )
        })
        .collect();
    v.sort();
    let n = v.len();
    v.dedup();
    assert_eq!(n, v.len(), "the generator listed a placement twice");
    v
}

#[test]
fn generator_matches_slow_reference() {
    // Positions along a generated game, with the mover's true hand.
    let mut sim = Sim::new(2, 7);
    let mut checked = 0;
    while !sim.over && sim.ply < 8 {
        if !sim.board.is_empty() {
            let hand = sim.hands[sim.to_move];
            assert_eq!(
                fast_placements(&sim.board, &hand),
                slow_placements(&sim.board, &hand)
            );
            checked += 1;
        }
        sim.step(&Plan::default());
    }
    assert!(checked >= 7);
    // A hand-made position with gaps to bridge and a Qwirkle to make.
    let b = board_of(&[
        ("Rc", 0, 0),
        ("Rd", 1, 0),
        ("Ro", 3, 0),
        ("Rs", 4, 0),
        ("Gc", 0, 1),
    ]);
    let hand = hand_of(&["Rx", "R*", "Bc", "Yc", "Rc", "Gx"]);
    let fast = fast_placements(&b, &hand);
    assert_eq!(fast, slow_placements(&b, &hand));
    assert!(fast.iter().any(|(t, s)| t == "R*@2,0 + Rx@5,0" && *s == 12));
}

// ---------------------------------------------------------------- generator

/// xorshift64*: a small deterministic generator for shuffles.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn shuffle(&mut self, v: &mut [Tile]) {
        for i in (1..v.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

/// What the generated record writes and when it swaps on purpose.
#[derive(Default, Clone)]
struct Plan {
    /// Leave the draws out.
    no_draws: bool,
    /// Leave the claims out on every other turn.
    sparse_claims: bool,
    /// Plies (1-based) at which to swap two tiles, written with their tiles.
    swap_tiles_at: Vec<usize>,
    /// Plies at which to swap two tiles written as a count (`swap 2`).
    swap_count_at: Vec<usize>,
}

/// A whole game with its true hands and bag, played greedily.
struct Sim {
    players: usize,
    board: Board,
    bag: Vec<Tile>,
    hands: Vec<Counts>,
    start_hands: Vec<Counts>,
    scores: Vec<i64>,
    to_move: usize,
    passes: usize,
    over: bool,
    ply: usize,
    moves: Vec<String>,
    rng: Rng,
}

impl Sim {
    fn new(players: usize, seed: u64) -> Sim {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let mut bag: Vec<Tile> = (0..108).map(|i| (i % 36) as Tile).collect();
        rng.shuffle(&mut bag);
        let mut hands = vec![[0u8; 36]; players];
        for h in hands.iter_mut() {
            for _ in 0..6 {
                if let Some(t) = bag.pop() {
                    count_add(h, t);
                }
            }
        }
        // The holder of the largest group starts (ties: the first dealt).
        let starter = (0..players)
            .max_by_key(|&p| (largest_group(&hands[p]), std::cmp::Reverse(p)))
            .unwrap_or(0);
        hands.rotate_left(starter);
        Sim {
            players,
            board: Board::default(),
            bag,
            start_hands: hands.clone(),
            hands,
            scores: vec![0; players],
            to_move: 0,
            passes: 0,
            over: false,
            ply: 0,
            moves: Vec::new(),
            rng,
        }
    }

    fn draw(&mut self, n: usize) -> Vec<Tile> {
        let mut d = Vec::new();
        for _ in 0..n {
            if let Some(t) = self.bag.pop() {
                d.push(t);
            }
        }
        d
    }

    fn list(tiles: &[Tile]) -> String {
        tiles.iter().map(|&t| code(t)).collect::<Vec<_>>().join(",")
    }

    /// The best placement (score, then text), with the going-out bonus.
    fn best(&self) -> Option<(Vec<Put>, i64)> {
        let p = self.to_move;
        let first = if self.board.is_empty() {
            Some(largest_group(&self.hands[p]))
        } else {
            None
        };
        let size: usize = self.hands[p].iter().map(|&n| usize::from(n)).sum();
        let mut all = self.board.placements(&self.hands[p], first);
        for (puts, s) in &mut all {
            if self.bag.is_empty() && puts.len() == size {
                *s += 6;
            }
        }
        let text = |v: &[Put]| {
            v.iter()
                .map(|p| format!("{}@{},{}", code(p.tile), p.x, p.y))
                .collect::<Vec<_>>()
                .join(" + ")
        };
        all.into_iter()
            .max_by(|a, b| a.1.cmp(&b.1).then_with(|| text(&b.0).cmp(&text(&a.0))))
    }

    fn swap(&mut self, k: usize, plan: &Plan, as_count: bool) {
        let p = self.to_move;
        let held = tiles_of(&self.hands[p]);
        let out: Vec<Tile> = held.into_iter().take(k).collect();
        for &t in &out {
            count_take(&mut self.hands[p], t);
        }
        let drawn = self.draw(out.len());
        for &t in &drawn {
            count_add(&mut self.hands[p], t);
        }
        self.bag.extend_from_slice(&out);
        let mut bag = std::mem::take(&mut self.bag);
        self.rng.shuffle(&mut bag);
        self.bag = bag;
        let what = if as_count {
            out.len().to_string()
        } else {
            Self::list(&out)
        };
        let draws = if plan.no_draws {
            String::new()
        } else {
            format!(" <{}>", Self::list(&drawn))
        };
        self.moves.push(format!("swap {what}{draws}"));
    }

    fn step(&mut self, plan: &Plan) {
        let p = self.to_move;
        let ply = self.ply + 1;
        let planned_swap = plan.swap_tiles_at.contains(&ply) || plan.swap_count_at.contains(&ply);
        if planned_swap && self.bag.len() >= 2 {
            self.swap(2, plan, plan.swap_count_at.contains(&ply));
            self.passes = 0;
        } else if let Some((puts, score)) = self.best() {
            for q in &puts {
                count_take(&mut self.hands[p], q.tile);
                self.board.set(*q);
            }
            let drawn = self.draw(puts.len());
            for &t in &drawn {
                count_add(&mut self.hands[p], t);
            }
            self.scores[p] += score;
            let mut text = puts
                .iter()
                .map(|q| format!("{}@{},{}", code(q.tile), q.x, q.y))
                .collect::<Vec<_>>()
                .join(" + ");
            if !plan.sparse_claims || ply % 2 == 1 {
                text.push_str(&format!(" ={score}"));
            }
            if !plan.no_draws {
                text.push_str(&format!(" <{}>", Self::list(&drawn)));
            }
            self.moves.push(text);
            self.passes = 0;
            if self.hands[p].iter().all(|&n| n == 0) {
                self.over = true;
            }
        } else if !self.bag.is_empty() {
            let k = tiles_of(&self.hands[p]).len().min(self.bag.len());
            self.swap(k, plan, false);
            self.passes = 0;
        } else {
            self.moves.push("pass".to_string());
            self.passes += 1;
            if self.passes >= self.players {
                self.over = true;
            }
        }
        self.ply += 1;
        self.to_move = (self.to_move + 1) % self.players;
    }

    fn play_out(&mut self, plan: &Plan) {
        while !self.over && self.ply < 400 {
            self.step(plan);
        }
    }

    fn record(&self, event: &str, hands: bool, result: bool) -> String {
        let mut s = format!(
            "[Event \"{event}\"]\n[Game \"qwirkle\"]\n[Players \"{}\"]\n",
            self.players
        );
        if hands {
            for (i, h) in self.start_hands.iter().enumerate() {
                s.push_str(&format!(
                    "[Hand{} \"{}\"]\n",
                    i + 1,
                    Self::list(&tiles_of(h))
                ));
            }
        }
        if result {
            let r: Vec<String> = self.scores.iter().map(i64::to_string).collect();
            s.push_str(&format!("[Result \"{}\"]\n", r.join("-")));
        }
        s.push('\n');
        let mut line = String::new();
        for m in &self.moves {
            if !line.is_empty() && line.len() + m.len() > 90 {
                s.push_str(line.trim_end());
                s.push('\n');
                line.clear();
            }
            line.push_str(m);
            line.push(' ');
        }
        s.push_str(line.trim_end());
        s.push('\n');
        s
    }
}

/// The generated fixtures: name, players, seed, plan, hands written.
fn generated() -> Vec<(&'static str, &'static str, usize, u64, Plan, bool)> {
    vec![
        (
            "full_game_hands_draws",
            "A full two-player game with hands and draws recorded, to the last tile (end bonus)",
            2,
            1,
            Plan::default(),
            true,
        ),
        (
            "swaps_both_forms",
            "Two players with hands: swaps written with their tiles and as a count (the hand becomes unknown)",
            2,
            2,
            Plan {
                swap_tiles_at: vec![4, 9],
                swap_count_at: vec![12],
                ..Plan::default()
            },
            true,
        ),
        (
            "six_players",
            "A six-player game with hands and draws, played to the end",
            6,
            3,
            Plan::default(),
            true,
        ),
        (
            "no_hands",
            "A three-player game without hands or draws, claims on every other turn, to the end",
            3,
            4,
            Plan {
                no_draws: true,
                sparse_claims: true,
                ..Plan::default()
            },
            false,
        ),
    ]
}

fn fixture_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/qwirkle")
}

/// A prefix of a generated game (hands and draws written) then one more text.
fn tampered(
    players: usize,
    seed: u64,
    event: &str,
    stop: impl Fn(&Sim) -> bool,
    last: impl Fn(&Sim) -> String,
) -> String {
    let mut sim = Sim::new(players, seed);
    let plan = Plan::default();
    while !sim.over && !stop(&sim) {
        sim.step(&plan);
    }
    let extra = last(&sim);
    let mut s = sim.record(event, true, false);
    s.pop();
    s.push(' ');
    s.push_str(&extra);
    s.push('\n');
    s
}

fn board_and_hands(sim: &Sim) -> Counts {
    let mut c = sim.board.on_board;
    for h in &sim.hands {
        for (k, &n) in h.iter().enumerate() {
            c[k] += n;
        }
    }
    c
}

/// The text of a placement (`Rc@0,0 + Rd@0,-1`).
fn placement_text(puts: &[Put]) -> String {
    puts.iter()
        .map(|q| format!("{}@{},{}", code(q.tile), q.x, q.y))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// A tile the mover does not hold, placed legally otherwise.
fn not_in_hand_record() -> String {
    tampered(
        2,
        5,
        "A placement of a tile the mover does not hold (hands known)",
        |s| s.ply == 20,
        |s| {
            let mut other = *s.hands.get(1 - s.to_move).expect("two players");
            let mine = s.hands[s.to_move];
            for (k, n) in other.iter_mut().enumerate() {
                if mine[k] > 0 {
                    *n = 0;
                }
            }
            let (puts, _) = s
                .board
                .placements(&other, None)
                .into_iter()
                .find(|(p, _)| p.len() == 1)
                .expect("a placement from the other hand");
            format!("{}@{},{}", code(puts[0].tile), puts[0].x, puts[0].y)
        },
    )
}

/// A draw of a kind whose three copies are on the board and in the hands.
fn fourth_copy_record() -> String {
    tampered(
        2,
        6,
        "A draw of a fourth copy of a tile (board and known hands hold all three)",
        |s| s.ply == 30,
        |s| {
            let c = board_and_hands(s);
            let full = c
                .iter()
                .position(|&n| n == 3)
                .expect("a kind with three copies out") as Tile;
            let (puts, score) = s.best().expect("a placement");
            let mut drawn = vec![full];
            drawn.extend(std::iter::repeat_n(full, puts.len() - 1));
            format!("{} ={score} <{}>", placement_text(&puts), Sim::list(&drawn))
        },
    )
}

/// A swap larger than the bag, late in the game.
fn swap_too_large_record() -> String {
    tampered(
        2,
        5,
        "A swap of more tiles than the bag holds",
        |s| s.bag.len() < 4,
        |s| {
            let tiles: Vec<Tile> = tiles_of(&s.hands[s.to_move])
                .into_iter()
                .take(s.bag.len() + 1)
                .collect();
            format!("swap {}", Sim::list(&tiles))
        },
    )
}

/// A draw of the wrong number of tiles.
fn wrong_draw_count_record() -> String {
    tampered(
        2,
        5,
        "A placement followed by one drawn tile too many",
        |s| s.ply == 24,
        |s| {
            let (puts, score) = s.best().expect("a placement");
            let n = puts.len() + 1;
            let drawn: Vec<Tile> = s.bag.iter().rev().take(n).copied().collect();
            format!("{} ={score} <{}>", placement_text(&puts), Sim::list(&drawn))
        },
    )
}

fn generated_invalid() -> Vec<(&'static str, String)> {
    vec![
        ("not_in_hand", not_in_hand_record()),
        ("fourth_copy", fourth_copy_record()),
        ("swap_too_large", swap_too_large_record()),
        // A pass with the bag empty while a placement exists.
        (
            "illegal_pass",
            tampered(
                2,
                5,
                "A pass with the bag empty while the mover (hand known) can still place",
                |s| s.bag.is_empty() && s.best().is_some(),
                |_| "pass".to_string(),
            ),
        ),
        ("wrong_draw_count", wrong_draw_count_record()),
        // A move after the last tile went out.
        (
            "move_after_end",
            tampered(
                2,
                1,
                "A full game, then one more turn after the last tile went out",
                |_| false,
                |_| "pass".to_string(),
            ),
        ),
    ]
}

#[test]
#[ignore]
fn write_fixtures() {
    if std::env::var("QWIRKLE_WRITE").is_err() {
        return;
    }
    let dir = fixture_dir();
    for (name, event, players, seed, plan, hands) in generated() {
        let mut sim = Sim::new(players, seed);
        sim.play_out(&plan);
        let text = sim.record(event, hands, true);
        std::fs::write(dir.join("valid").join(format!("{name}.gamerec")), text).expect("write");
    }
    for (name, text) in generated_invalid() {
        std::fs::write(dir.join("invalid").join(format!("{name}.gamerec")), text).expect("write");
    }
}

#[test]
fn generated_games_replay_with_their_scores() {
    for (name, _, players, seed, plan, hands) in generated() {
        let mut sim = Sim::new(players, seed);
        sim.play_out(&plan);
        assert!(sim.over, "{name} did not finish");
        let text = sim.record(name, hands, true);
        let r = run(&text);
        assert!(r.valid, "{name}: {:?}", r.errors);
        assert!(r.over, "{name} not over");
        assert_eq!(r.scores, sim.scores, "{name}");
        // The file on disk is this game.
        let path = fixture_dir().join("valid").join(format!("{name}.gamerec"));
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        let r2 = run(&on_disk);
        assert!(r2.valid && r2.over, "{name} on disk: {:?}", r2.errors);
        assert_eq!(r2.scores, sim.scores, "{name} on disk");
    }
}

#[test]
fn fixtures_have_their_verdicts() {
    let dir = fixture_dir();
    let expect_valid: &[(&str, &[i64], bool)] = &[
        ("spec_example", &[131, 106, 105], true),
        ("scoring_example", &[30, 12], false),
    ];
    for &(name, scores, over) in expect_valid {
        let src = std::fs::read_to_string(dir.join("valid").join(format!("{name}.gamerec")))
            .expect("fixture");
        let r = run(&src);
        assert!(r.valid, "{name}: {:?}", r.errors);
        assert_eq!(r.scores, scores, "{name}");
        assert_eq!(r.over, over, "{name}");
    }
    let mut seen = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(dir.join("invalid")).expect("dir") {
        let path = entry.expect("entry").path();
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("")
            .to_string();
        let src = std::fs::read_to_string(&path).expect("fixture");
        assert!(src.starts_with("[Event "), "{name}: no Event tag first");
        let r = run(&src);
        let code = error_code(&r).unwrap_or_default();
        let kind = code.strip_prefix("qwirkle::").unwrap_or("");
        assert!(
            !kind.is_empty() && (name == kind || name.starts_with(&format!("{kind}_"))),
            "{name}: {:?}",
            r.errors
        );
        assert_eq!(r.errors.len(), 1, "{name}: {:?}", r.errors);
        seen.insert(kind.to_string());
    }
    assert_eq!(
        seen.len(),
        18,
        "one invalid fixture per error code: {seen:?}"
    );
}

#[test]
fn legal_moves_best_first_and_hidden_hands() {
    let src = "[Game \"qwirkle\"]\n[Players \"2\"]\n[Hand1 \"Rc,Rd,Ro,Gs,Bx,Y*\"]\n[Hand2 \"Gc,Gd,Go,Ps,Px,P*\"]\n\nRc@0,0 + Rd@1,0 + Ro@2,0 =3 <Rs,Bs,Os>\n";
    let games = parse_file(src);
    let (game, _) = crate::registry::resolve(&games[0], &Options::default()).expect("game");
    let view = game
        .view(&games[0], src, &Options::default(), None, false)
        .expect("view");
    assert!(view.report.valid, "{:?}", view.report.errors);
    let scored = view
        .scored
        .expect("qwirkle scores moves")
        .expect("hand known");
    assert_eq!(
        scored.first(),
        Some(&("Gc@0,-1 + Gd@1,-1 + Go@2,-1".to_string(), 9))
    );
    assert!(scored.windows(2).all(|w| w[0].1 >= w[1].1));
    assert!(scored.contains(&("swap Go,Gd,Gc,Ps,Px,P*".to_string(), 0)));
    // Without --by-score: the same moves, sorted by text.
    let moves = view.legal.expect("hand known");
    assert!(moves.windows(2).all(|w| w[0] <= w[1]));
    let mut texts: Vec<String> = scored.into_iter().map(|(t, _)| t).collect();
    texts.sort();
    assert_eq!(moves, texts);
    // Without hands: an error naming the seat.
    let src = "[Game \"qwirkle\"]\n[Players \"2\"]\n\nRc@0,0\n";
    let games = parse_file(src);
    let (game, _) = crate::registry::resolve(&games[0], &Options::default()).expect("game");
    let view = game
        .view(&games[0], src, &Options::default(), None, false)
        .expect("view");
    assert_eq!(
        view.legal,
        Err(crate::game::Unlisted(
            "the hand of player2 is not known".to_string()
        ))
    );
    assert!(Qwirkle::perft_divide(None, None, 1, &|_| {}).is_err());
}

#[test]
fn hands_become_unknown_and_unchecked_says_so() {
    let src = "[Game \"qwirkle\"]\n[Players \"2\"]\n[Hand1 \"Rc,Rd,Ro,Gs,Bx,Y*\"]\n[Hand2 \"Gc,Gd,Go,Ps,Px,P*\"]\n\nRc@0,0 + Rd@1,0 + Ro@2,0 =3 swap 2 <Rs,Bs>\n";
    let r = run(src);
    assert!(r.valid, "{:?}", r.errors);
    assert_eq!(
        r.unchecked,
        [
            "hand of player1 unknown from ply 1 (a draw was not written): its tiles and pass legality not checked after that",
            "hand of player2 unknown from ply 2 (a swap without its tiles): its tiles and pass legality not checked after that"
        ]
    );
    let r = run(&two_player("Rc@0,0"));
    assert_eq!(
        r.unchecked,
        [
            "hands not recorded: tiles in hand, drawn tiles, first-turn group and pass legality not checked"
        ]
    );
}

#[test]
fn bag_accounting_without_hands() {
    // Two players: 96 in the bag; a swap of 6 is fine, a pass is not.
    let r = run(&two_player("Rc@0,0 swap 6 pass"));
    assert_eq!(error_code(&r).as_deref(), Some("qwirkle::illegal_pass"));
    assert_eq!(r.errors[0].ply, 3);
    let r = run(&two_player("Rc@0,0 swap 6 <Rc,Rd>"));
    assert_eq!(error_code(&r).as_deref(), Some("qwirkle::wrong_draw_count"));
}

#[test]
fn render_and_rows() {
    let src = two_player(SCORING_PREFIX);
    let games = parse_file(&src);
    let opts = Options::keeping(crate::replay::sink::Record);
    let r = replay(&games[0], &src, &opts);
    assert!(r.valid);
    assert_eq!(r.position.len(), 8);
    assert_eq!(r.position[0], "G*Y*O*P*B*");
    assert_eq!(r.position[7], "......R*..");
    let (game, _) = crate::registry::resolve(&games[0], &Options::default()).expect("game");
    let view = game
        .view(&games[0], &src, &Options::default(), None, false)
        .expect("view");
    assert!(
        view.board
            .starts_with("   -2 -1  0  1  2\n 2 G* Y* O* P* B*\n"),
        "{}",
        view.board
    );
    assert!(view.board.contains("bag: 79 tiles"), "{}", view.board);
}

#[test]
fn garbage_never_panics() {
    for src in [
        "[Players \"2\"]\n+ + = < > , @ @@ Rc@ Rc@- Rc@-, Rc@1,",
        "[Players \"9\"]",
        "[Players \"2\"][Hand1 \"Rc\"]",
        "[Players \"2\"]\nRc@2147483647,2147483647 + Rd@2147483647,-2147483648",
        "[Players \"2\"]\nRc@0,0 + Rd@0,1 + Ro@0,2 + Rs@0,3 + Rx@0,4 + R*@0,5 + Rc@0,6",
        "[Players \"2\"]\nswap 7 swap Rc,Rc,Rc,Rc,Rc,Rc,Rc <<<>",
    ] {
        let src = format!("[Game \"qwirkle\"]\n{src}");
        let _ = run(&src);
    }
}

#[test]
fn everyone_passing_with_an_empty_bag_ends_without_bonus() {
    let spec =
        std::fs::read_to_string(fixture_dir().join("valid/spec_example.gamerec")).expect("fixture");
    let cut = spec.find("Yo@-7,-4 =12").expect("move") + "Yo@-7,-4 =12".len();
    let head = spec
        .get(..cut)
        .expect("prefix")
        .replace("[Result \"131-106-105\"]\n", "");
    let before = run(&head);
    assert!(before.valid && !before.over, "{:?}", before.errors);
    let r = run(&format!("{head} pass pass pass"));
    assert!(r.valid && r.over, "{:?}", r.errors);
    assert_eq!(r.scores, before.scores);
    assert!(r.winners.len() == 1);
    let r = run(&format!("{head} pass pass pass Bo@1,8"));
    assert_eq!(error_code(&r).as_deref(), Some("qwirkle::move_after_end"));
    // Two passes then a placement: the count of passes starts again.
    let r = run(&format!("{head} pass pass Bo@1,8 =3 pass"));
    assert!(r.valid && !r.over, "{:?}", r.errors);
}

#[test]
fn random_movetext_never_panics() {
    let pieces = [
        "Rc@0,0",
        "+",
        "Rd@0,-1",
        "Ro@1,0",
        "=3",
        "=",
        "<",
        ">",
        "<>",
        ",",
        "Gs",
        "swap",
        "2",
        "pass",
        "Rc@0,1",
        "Bx@-1,0",
        "Y*@0,2",
        "<Gs,Bx>",
        "Rc@2147483647,0",
        "@",
        "-",
        "Oo@0,-2",
        "7",
        "Pc@1,1",
        "swap Rc,Bs",
        "SWAP",
        "Pass",
        "RC",
        "oo",
        "Rc@0,",
        "Rc@,0",
        "==",
        "++",
        "<<",
        ">>",
    ];
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for _ in 0..400 {
        let n = (rng.next() % 24) as usize;
        let mut text = String::new();
        for _ in 0..n {
            let p = pieces[(rng.next() % pieces.len() as u64) as usize];
            text.push_str(p);
            if rng.next() % 3 != 0 {
                text.push(' ');
            }
        }
        let with_hands = if rng.next() % 2 == 0 {
            "[Hand1 \"Rc,Rd,Ro,Gs,Bx,Y*\"]\n[Hand2 \"Gc,Gd,Go,Ps,Px,P*\"]\n"
        } else {
            ""
        };
        let src = format!("[Game \"qwirkle\"]\n[Players \"2\"]\n{with_hands}\n{text}\n");
        // A refused turn changes nothing, on the engine alone.
        let _ = play_on_the_engine(&src);
        let r = run(&src);
        // Every error points into the text.
        for d in &r.errors {
            if let Some(s) = d.span {
                assert!(s.end() <= src.len(), "{src}: {d:?}");
            }
        }
    }
}

/// The slow reference over whole games (every position); slow in debug:
/// `cargo test --release --lib games::qwirkle -- --ignored deep`.
#[test]
#[ignore]
fn generator_matches_slow_reference_deep() {
    for (players, seed) in [(2, 11), (3, 12), (4, 13)] {
        let mut sim = Sim::new(players, seed);
        while !sim.over {
            if !sim.board.is_empty() {
                let hand = sim.hands[sim.to_move];
                assert_eq!(
                    fast_placements(&sim.board, &hand),
                    slow_placements(&sim.board, &hand),
                    "seed {seed} ply {}",
                    sim.ply
                );
            }
            sim.step(&Plan::default());
        }
    }
}

#[test]
fn moves_stay_inside_32_bit_squares() {
    let src = "[Game \"qwirkle\"]\n[Players \"2\"]\n[Hand1 \"Rc,Rd,Ro,Gs,Bx,Y*\"]\n[Hand2 \"Gc,Gd,Go,Ps,Px,P*\"]\n\nRc@2147483645,2147483647 + Rd@2147483646,2147483647 + Ro@2147483647,2147483647 =3 <Rs,Bs,Os>\n";
    let games = parse_file(src);
    let (game, _) = crate::registry::resolve(&games[0], &Options::default()).expect("game");
    let view = game
        .view(&games[0], src, &Options::default(), None, false)
        .expect("view");
    assert!(view.report.valid, "{:?}", view.report.errors);
    let moves = view.legal.expect("known hand");
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| !m.contains("2147483648")), "{moves:?}");
    for m in moves.iter().filter(|m| !m.starts_with("swap")) {
        let r = run(&format!("{}{m}\n", src));
        assert!(r.valid, "{m}: {:?}", r.errors);
    }
}

#[test]
fn tile_letters_by_table() {
    for c in 0..=255u8 {
        for s in 0..=255u8 {
            let want = board::COLOURS
                .iter()
                .position(|&x| x == c)
                .zip(board::SHAPES.iter().position(|&x| x == s))
                .map(|(ci, si)| (ci * 6 + si) as Tile);
            assert_eq!(board::from_letters(c, s), want, "{c} {s}");
        }
    }
}

#[test]
fn draws_past_a_hand_are_kept_whole() {
    let mut d = engine::DrawTiles::default();
    assert!(d.is_empty());
    for t in 0..9 {
        d.push(t);
        assert_eq!(&d[..], &(0..=t).collect::<Vec<Tile>>()[..]);
    }
    // a seven-tile draw reaches the engine, which counts all seven
    let src = "[Game \"qwirkle\"]\n[Players \"2\"]\n\nRo@0,0 <Rs,Rd,Rc,Rx,R*,Bo,Bs>\n";
    let r = run(src);
    assert!(!r.valid);
    assert!(
        r.errors.iter().any(|e| e.message.contains('7')),
        "{:?}",
        r.errors
    );
}

/// Placements near the boards of generated games, legal or not: the torus
/// judge scores exactly what the full judge scores, and declines (for the
/// full judge to say why) exactly what the full judge refuses, while board
/// and turn span less than 60 squares.
#[test]
fn fast_judge_matches_full_judge() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let (mut scored, mut refused) = (0, 0);
    for (players, seed) in [(2, 21), (3, 22), (4, 23), (2, 24)] {
        let mut sim = Sim::new(players, seed);
        while !sim.over {
            let b = &sim.board;
            if let Some((x0, x1, y0, y1)) = b.bounds {
                for _ in 0..60 {
                    let n = 1 + (rng.next() % 4) as i64;
                    let row = rng.next() % 2 == 0;
                    let x = x0 - 2 + (rng.next() % (x1 - x0 + 5) as u64) as i64;
                    let y = y0 - 2 + (rng.next() % (y1 - y0 + 5) as u64) as i64;
                    // mostly one colour or one shape, so that lines form
                    let base = (rng.next() % 36) as Tile;
                    let mut puts = Vec::new();
                    for k in 0..n {
                        let tile = match rng.next() % 3 {
                            0 => board::colour(base) * 6 + (rng.next() % 6) as Tile,
                            1 => (rng.next() % 6) as Tile * 6 + board::shape(base),
                            _ => (rng.next() % 36) as Tile,
                        };
                        // a gap or a stray square now and then
                        let step = k + i64::from(rng.next() % 7 == 0);
                        let off = i64::from(rng.next() % 11 == 0);
                        let (px, py) = if row {
                            (x + step, y + off)
                        } else {
                            (x + off, y + step)
                        };
                        puts.push(Put { tile, x: px, y: py });
                    }
                    let full = b.judge(&puts).map(|s| s.total);
                    assert_eq!(b.judge_total(&puts), full, "{puts:?}");
                    match b.judge_fast(&puts) {
                        Some(total) => {
                            assert_eq!(full, Ok(total), "{puts:?}");
                            scored += 1;
                        }
                        None => {
                            assert!(full.is_err(), "declined a legal {puts:?}");
                            refused += 1;
                        }
                    }
                }
            }
            // and every legal placement of the mover's hand
            if !b.is_empty() {
                for (puts, _) in b.placements(&sim.hands[sim.to_move], None) {
                    let full = b.judge(&puts).map(|s| s.total).ok();
                    assert_eq!(b.judge_fast(&puts), full, "{puts:?}");
                    scored += 1;
                }
            }
            sim.step(&Plan::default());
        }
    }
    assert!(scored > 1000 && refused > 1000, "{scored} {refused}");
}

/// A board wider than the torus (tiles 64 squares apart share a bit): every
/// square still reads as the table holds it, and the fast judge declines.
#[test]
fn board_wider_than_the_torus_reads_right() {
    let mut b = Board::default();
    let mut want = std::collections::HashMap::new();
    for (i, x) in (0..70).chain([120, 100]).enumerate() {
        let t = (i % 36) as Tile;
        b.set(Put {
            tile: t,
            x,
            y: x % 3,
        });
        want.insert((x, x % 3), t);
    }
    for y in -70..70 {
        for x in -70..200 {
            assert_eq!(b.get(x, y), want.get(&(x, y)).copied(), "{x},{y}");
        }
    }
    assert_eq!(
        b.judge_fast(&[Put {
            tile: 0,
            x: 0,
            y: 1
        }]),
        None
    );
}

/// The line test by colour and shape sets agrees with the rule's own test
/// on every list of two to six tiles drawn from a few kinds.
#[test]
fn line_test_by_sets_matches_line_faults() {
    let kinds: [Tile; 8] = [0, 1, 2, 6, 7, 12, 13, 35];
    let mut rng = Rng(77);
    for _ in 0..20_000 {
        let n = 2 + (rng.next() % 6) as usize;
        let tiles: Vec<Tile> = (0..n)
            .map(|_| kinds[(rng.next() % 8) as usize] % 36)
            .collect();
        assert_eq!(
            board::line_valid(&tiles),
            board::line_ok(&tiles),
            "{tiles:?}"
        );
    }
    for n in 2..=6usize {
        let same_colour: Vec<Tile> = (0..n as Tile).collect();
        assert!(board::line_valid(&same_colour));
        let same_shape: Vec<Tile> = (0..n as Tile).map(|c| c * 6 + 4).collect();
        assert!(board::line_valid(&same_shape));
    }
}

/// Plays a record's turns on the engine alone (no driver): every refused
/// turn leaves the state as it was, and is explained with the code its
/// fixture is named for. Stops at the first refusal; its code, if any.
fn play_on_the_engine(src: &str) -> Option<String> {
    use crate::game::{Explain, Position, Setup};
    let games = parse_file(src);
    let g = games.first()?;
    let mut state = <Qwirkle as Setup>::start(&g.tags).ok()?;
    for mv in notation::parse(&g.tokens, src).moves {
        if state.is_over() {
            return None;
        }
        let before = state.clone();
        if let Err(why) = state.play(&mv.mv) {
            assert_eq!(state, before, "{why:?} changed the state");
            let d = Qwirkle::explain(&state, &mv, why);
            assert!(d.span.is_some(), "{d:?} blames nothing");
            return Some(d.code.to_string());
        }
    }
    None
}

#[test]
fn refused_turns_leave_the_state_unchanged() {
    let dir = fixture_dir().join("invalid");
    let mut refused = 0;
    for entry in std::fs::read_dir(&dir).expect("fixtures") {
        let path = entry.expect("entry").path();
        let src = std::fs::read_to_string(&path).expect("fixture");
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if let Some(code) = play_on_the_engine(&src) {
            let want = name.trim_end_matches("_same_turn").trim_end_matches("_bag");
            assert_eq!(code, format!("qwirkle::{want}"), "{name}");
            refused += 1;
        }
    }
    assert!(refused >= 15, "{refused}");
}
