//! gamerec as a library, through its front only: random games of every
//! game, the legal moves at a position (as notation, and as typed moves of
//! the engine), and a record replayed with its diagnostics.
//!
//!     cargo run --example library

use gamerec::{Options, parse_file, play, replay};

pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 1. A random game of every game that needs no hidden information.
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let starts: &[(&str, &[(&str, &str)])] = &[
        ("reversi", &[]),
        ("blokus", &[("Variant", "duo")]),
        ("blokus", &[("Variant", "trigon"), ("Players", "3")]),
        (
            "deblockle",
            &[
                ("SetupGold", "c1 stop/x, e1 stop/x, c3 stop/x, e3 stop/x"),
                ("SetupBlue", "c5 stop/x, e5 stop/x, c7 stop/x, e7 stop/x"),
            ],
        ),
        ("blokus3d", &[("Area", "cube4"), ("Players", "2")]),
    ];
    for &(game, tags) in starts {
        let mut pos = play::start(game, tags).map_err(|d| format!("{game}: {d:?}"))?;
        while !pos.is_over() && pos.plies() < 10_000 {
            let moves = pos.legal_moves()?;
            let mv = match moves.len() {
                0 => "pass".to_string(),
                n => moves[next(n)].clone(),
            };
            pos.play(&mv)?;
        }
        println!(
            "{game} ({}): {} plies, scores {:?}, won by {}",
            pos.variant(),
            pos.plies(),
            pos.scores(),
            pos.winners().join(" and ")
        );
    }

    // 2. The legal moves at a position.
    let mut pos = play::start("othello", &[]).map_err(|d| format!("{d:?}"))?;
    for mv in ["f5", "d6", "c3"] {
        pos.play(mv)?;
    }
    println!(
        "reversi after f5 d6 c3: {} to move: {}",
        pos.turn().unwrap_or("nobody"),
        pos.legal_moves()?.join(" ")
    );

    // 2b. The same through the engine's typed moves.
    {
        use gamerec::{Position, Setup, reversi::Reversi};
        let mut pos = Reversi::start(&Default::default()).map_err(|d| format!("{d:?}"))?;
        let first = pos.legal_moves()?.next().ok_or("no move")?;
        pos.play(&first).map_err(|why| format!("{why:?}"))?;
        println!(
            "reversi engine: played {first:?}, scores {:?}",
            pos.scores()
        );
    }

    // 3. A record replayed: its verdict and the diagnostic of its illegal move.
    let text = "[Game \"reversi\"]\n1. f5 d6 2. c3 d3 3. c4 g7\n";
    for game in parse_file(text) {
        let report = replay(&game, text, &Options::default());
        println!("record: valid {}, {} plies", report.valid, report.plies);
        for e in &report.errors {
            let at = e.span.map_or("", |s| s.text(text));
            println!("  {} at ply {}: {} (`{at}`)", e.code, e.ply, e.message);
        }
    }
    Ok(())
}
