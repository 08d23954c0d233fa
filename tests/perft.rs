//! Perft through the CLI's game registry. Depths 1-8 run with the tests;
//! 9-11 are ignored (run them with `cargo test --release --test perft -- --ignored`).

const COUNTS: [u64; 12] = [
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

fn perft(depth: u32) -> u64 {
    gamerec::games::by_name("reversi")
        .and_then(|g| g.perft(None, depth).ok())
        .unwrap_or(0)
}

#[test]
fn reversi_perft_1_to_8() {
    for depth in 1..=8u32 {
        assert_eq!(perft(depth), COUNTS[depth as usize - 1], "depth {depth}");
    }
}

#[test]
#[ignore = "deep perft: run in release"]
fn reversi_perft_9_to_11() {
    for depth in 9..=11u32 {
        assert_eq!(perft(depth), COUNTS[depth as usize - 1], "depth {depth}");
    }
}
