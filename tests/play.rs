//! Playing every game move by move through `gamerec::play`: random games to
//! their end, every listed move accepted, a refused move changing nothing.

use gamerec::play::{AnyPosition, start};

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plays random legal moves from `pos` until the game ends, its moves
/// cannot be listed, or `max` plies; returns the plies played.
fn random_game(pos: &mut Box<dyn AnyPosition>, rng: &mut Rng, max: usize) -> usize {
    for _ in 0..max {
        if pos.is_over() {
            break;
        }
        let Ok(moves) = pos.legal_moves() else {
            break;
        };
        let mv = if moves.is_empty() {
            "pass".to_string()
        } else {
            moves[rng.below(moves.len())].clone()
        };
        let before = pos.plies();
        if let Err(d) = pos.play(&mv) {
            panic!("{} refused its own legal move {mv}: {d:?}", pos.game());
        }
        assert_eq!(pos.plies(), before + 1);
    }
    pos.plies()
}

#[test]
fn random_games_of_every_game_play_to_their_end() {
    let starts: &[(&str, &[(&str, &str)])] = &[
        ("reversi", &[]),
        ("reversi", &[("Size", "6")]),
        ("blokus", &[("Variant", "duo")]),
        ("blokus", &[("Variant", "trigon")]),
        (
            "deblockle",
            &[
                ("SetupGold", "c1 stop/x, e1 stop/x, c3 stop/x, e3 stop/x"),
                ("SetupBlue", "c5 stop/x, e5 stop/x, c7 stop/x, e7 stop/x"),
            ],
        ),
        ("blokus3d", &[("Area", "cube3")]),
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for &(game, tags) in starts {
        for _ in 0..3 {
            let mut pos = start(game, tags).unwrap();
            let plies = random_game(&mut pos, &mut rng, 5000);
            assert!(plies > 4, "{game} {tags:?}: {plies} plies");
            assert!(
                pos.is_over(),
                "{game} {tags:?} not over after {plies} plies"
            );
            assert_eq!(pos.turn(), None);
            assert!(!pos.winners().is_empty(), "{game}: no winner");
            assert_eq!(pos.scores().len(), pos.seats().len());
            assert!(pos.svg().starts_with("<svg"), "{game}");
        }
    }
}

#[test]
fn a_refused_move_changes_nothing() {
    let mut pos = start("othello", &[]).unwrap();
    pos.play("f5").unwrap();
    let copy = pos.clone();
    let d = pos.play("a1").unwrap_err();
    assert_eq!(d.code, "reversi::no_flip");
    assert_eq!(d.span.map(|s| (s.offset, s.length)), Some((0, 2)));
    assert_eq!(pos.legal_moves(), copy.legal_moves());
    assert_eq!(pos.plies(), 1);
    let d = pos.play("f5 d6").unwrap_err();
    assert_eq!(d.code, "record::bad_move");
    assert!(start("chess", &[]).is_err());
    assert!(start("reversi", &[("Size", "7")]).is_err());
}
