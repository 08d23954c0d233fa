//! `gamerec tags GAME`: every tag the game knows, in the spec's words
//! (spec §1 and the game's file). A tag name one edit away from one of
//! these, or equal to one but for case, is a `record::unknown_tag` warning.

use super::{Ctx, EXIT_OK};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game (reversi, othello, blokus, qwirkle, deblockle).
    pub game: String,
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let game = match ctx.game(&args.game) {
        Ok(game) => game,
        Err(code) => return code,
    };
    let mut names = vec![game.name()];
    names.extend(game.aliases().iter().copied());
    let rules = game.rules_tags();
    let lines = [
        (
            "Game".to_string(),
            format!(
                "the game, case-insensitive: {} (required unless --game is given)",
                names.join(", ")
            ),
        ),
        (
            "Variant".to_string(),
            format!(
                "the rule variant: {} (default {})",
                game.variants().join(", "),
                game.variants().first().copied().unwrap_or("-")
            ),
        ),
        (
            game.player_tags().join(", "),
            "player tags, named after the seats of the game".to_string(),
        ),
        (
            "Result".to_string(),
            "the final scores claimed, one integer per seat in seat order \
             (`36-28`, or `-52, 15` with a negative score), or `*` for an unfinished game"
                .to_string(),
        ),
        (
            rules.join(", "),
            format!(
                "tags that set the rules (see the {} rules); an error in one stops the game",
                game.name()
            ),
        ),
        (
            "Event, Site, Date, Round, Annotator".to_string(),
            "kept and carried through conversion unchanged, as any other tag".to_string(),
        ),
        (
            "TheoreticalScore".to_string(),
            "a WTHOR record's theoretical score, kept".to_string(),
        ),
        (
            "TheoreticalDepth".to_string(),
            "the empty squares its TheoreticalScore was searched from, when not the FFO database's 24 (a WTHOR file written at another depth), kept".to_string(),
        ),
        (
            "MoveScores".to_string(),
            "Reversi: moves of the start position with their scores, `G8:+18; H1:+12;` \
             (an .obf position's), each move checked legal, each score with validate --check-scores"
                .to_string(),
        ),
    ];
    let _ = writeln!(
        ctx.out,
        "Tags of {} (names are case-sensitive):",
        game.name()
    );
    for (tags, about) in lines.iter().filter(|(t, _)| !t.is_empty()) {
        let _ = writeln!(ctx.out, "  {tags}\n      {about}");
    }
    EXIT_OK
}
