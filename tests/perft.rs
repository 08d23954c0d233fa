//! Perft through the game registry (the path `gamerec perft` takes), against
//! the spec's known counts. Shallow depths run with the tests; deep ones are
//! ignored: `cargo test --release --test perft -- --ignored`.

const REVERSI: [u64; 12] = [
    4,
    12,
    56,
    244,
    1_396,
    8_200,
    55_092,
    390_216,
    3_005_288,
    24_571_284,
    212_258_800,
    1_939_886_636,
];

fn perft(game: &str, variant: Option<&str>, depth: u32) -> u64 {
    gamerec::registry::by_name(game)
        .and_then(|g| g.perft(variant, depth).ok())
        .unwrap_or(0)
}

#[test]
fn reversi_perft_1_to_8() {
    for depth in 1..=8u32 {
        assert_eq!(
            perft("reversi", None, depth),
            REVERSI[depth as usize - 1],
            "depth {depth}"
        );
    }
}

#[test]
#[ignore = "deep perft: run in release"]
fn reversi_perft_9_to_11() {
    for depth in 9..=11u32 {
        assert_eq!(
            perft("reversi", None, depth),
            REVERSI[depth as usize - 1],
            "depth {depth}"
        );
    }
}

#[test]
fn blokus_perft_shallow() {
    assert_eq!(perft("blokus", None, 1), 58);
    assert_eq!(perft("blokus", Some("classic"), 2), 58 * 58);
    assert_eq!(perft("blokus", Some("duo"), 1), 414);
    assert_eq!(perft("blokus", Some("duo"), 2), 171_396);
}

#[test]
#[ignore = "deep perft: run in release"]
fn blokus_perft_deep() {
    assert_eq!(perft("blokus", Some("duo"), 3), 89_204_762);
    assert_eq!(perft("blokus", None, 4), 11_316_496);
}

/// Deblockle's spec gives no counts: these were cross-checked against a
/// slow reference implementation (src/games/deblockle/tests.rs) to depth 4.
#[test]
fn deblockle_perft_shallow() {
    assert_eq!(perft("deblockle", None, 1), 55);
    assert_eq!(perft("deblockle", None, 2), 3_073);
    assert_eq!(perft("deblockle", Some("no-side-by-side"), 2), 2_446);
}

#[test]
#[ignore = "deep perft: run in release"]
fn deblockle_perft_deep() {
    assert_eq!(perft("deblockle", None, 4), 6_678_991);
    assert_eq!(perft("deblockle", Some("no-side-by-side"), 4), 4_274_464);
}

fn perft_players(
    game: &str,
    variant: Option<&str>,
    players: u8,
    depth: u32,
) -> Result<u64, String> {
    gamerec::registry::by_name(game)
        .ok_or_else(|| "no game".to_string())
        .and_then(|g| {
            g.perft_players(variant, players, depth)
                .map_err(|e| e.to_string())
        })
}

/// Trigon's spec counts: the same for every player count (the edge-8 board
/// of three players has 413 placements per starting point too).
#[test]
fn blokus_trigon_perft_shallow() {
    let t = Some("trigon");
    assert_eq!(perft("blokus", t, 1), 2_478);
    assert_eq!(perft("blokus", t, 2), 5_117_070);
    for players in [2, 4] {
        assert_eq!(perft_players("blokus", t, players, 1), Ok(2_478));
    }
    assert_eq!(perft_players("blokus", t, 3, 1), Ok(2_478));
    assert_eq!(perft_players("blokus", t, 3, 2), Ok(5_117_070));
    assert_eq!(perft_players("blokus", None, 3, 1), Ok(58));
    assert!(perft_players("blokus", Some("duo"), 3, 1).is_err());
    assert!(perft_players("blokus", t, 5, 1).is_err());
    assert!(perft_players("reversi", None, 2, 1).is_err());
}

#[test]
#[ignore = "deep perft: run in release"]
fn blokus_trigon_perft_deep() {
    assert_eq!(perft("blokus", Some("trigon"), 3), 8_453_399_640);
}

#[test]
fn qwirkle_has_no_perft() {
    let err = gamerec::registry::by_name("qwirkle").map(|g| g.perft(None, 1));
    assert!(matches!(err, Some(Err(_))));
}
