//! The settled behaviour of spec §5 that fixtures alone cannot show: `moves`
//! ordering and `--by-score`, `show`/`moves` on invalid games (exit 1 with
//! the diagnostic, whatever `--ply` asks for), snapshot-tested.

mod common;

use common::gamerec;

/// Runs `gamerec ARGS` and snapshots the transcript under `name`.
fn check(name: &str, args: &[&str]) {
    let r = gamerec(args, b"");
    let transcript = r.transcript(&format!("gamerec {}", args.join(" ")));
    insta::with_settings!({ prepend_module_to_snapshot => false, omit_expression => true }, {
        insta::assert_snapshot!(name, transcript);
    });
}

const QWIRKLE: &str = "fixtures/qwirkle/valid/full_game_hands_draws.gamerec";
const BLOKUS: &str = "fixtures/blokus/valid/classic_2p.gamerec";

#[test]
fn moves_are_sorted_by_text() {
    check(
        "settled__moves_qwirkle_by_text",
        &["moves", QWIRKLE, "--ply", "0"],
    );
    check(
        "settled__moves_blokus_by_text",
        &["moves", BLOKUS, "--ply", "68"],
    );
}

#[test]
fn moves_by_score_put_the_best_first() {
    check(
        "settled__moves_qwirkle_by_score",
        &["moves", QWIRKLE, "--ply", "0", "--by-score"],
    );
    check(
        "settled__moves_blokus_by_score",
        &["moves", BLOKUS, "--ply", "68", "--by-score"],
    );
    // A game that does not score moves: a usage error.
    check(
        "settled__moves_reversi_by_score",
        &[
            "moves",
            "fixtures/reversi/valid/full-game.gamerec",
            "--ply",
            "0",
            "--by-score",
        ],
    );
}

#[test]
fn show_and_moves_on_a_game_whose_tags_fail() {
    let bad = "fixtures/reversi/invalid/bad_setup.gamerec";
    check("settled__show_bad_setup", &["show", bad]);
    check("settled__moves_bad_setup", &["moves", bad]);
    check("settled__show_bad_setup_ply", &["show", bad, "--ply", "0"]);
}

#[test]
fn show_and_moves_before_the_illegal_move() {
    let bad = "fixtures/reversi/invalid/no_flip.gamerec";
    check("settled__show_before_illegal", &["show", bad, "--ply", "2"]);
    check(
        "settled__moves_before_illegal",
        &["moves", bad, "--ply", "2"],
    );
    // Past the illegal move: the position before it, still exit 1.
    check("settled__show_past_illegal", &["show", bad, "--ply", "40"]);
    // Past the end of a valid game: a usage error.
    check(
        "settled__show_past_end",
        &[
            "show",
            "fixtures/reversi/valid/full-game.gamerec",
            "--ply",
            "61",
        ],
    );
}

/// Runs `gamerec ARGS` with `stdin` and snapshots the transcript under `name`.
fn check_stdin(name: &str, args: &[&str], stdin: &str) {
    let r = gamerec(args, stdin.as_bytes());
    let transcript = format!(
        "$ gamerec {} <<'EOF'\n{stdin}EOF\nexit: {}\n--- stdout\n{}--- stderr\n{}",
        args.join(" "),
        r.code,
        r.stdout,
        r.stderr
    );
    insta::with_settings!({ prepend_module_to_snapshot => false, omit_expression => true }, {
        insta::assert_snapshot!(name, transcript);
    });
}

/// A JSON document of one Reversi game, with `variant` as given (or none).
fn reversi_json(variant: Option<&str>, tags: &str) -> String {
    let variant = variant.map_or(String::new(), |v| format!("\"variant\": \"{v}\", "));
    format!(
        "{{\"games\": [{{\"game\": \"reversi\", {variant}\"tags\": [[\"Game\", \"reversi\"]{tags}],\n  \"moves\": [{{\"notation\": \"f5\"}}, {{\"notation\": \"d6\"}}]}}]}}\n"
    )
}

#[test]
fn json_input_variant_is_optional_and_must_agree() {
    // No `variant`: recomputed from the tags.
    check_stdin(
        "settled__json_variant_missing",
        &["score", "-"],
        &reversi_json(None, ""),
    );
    // The same variant as the tag, in another case: fine.
    check_stdin(
        "settled__json_variant_agrees",
        &["score", "-"],
        &reversi_json(Some("WOF"), ", [\"Variant\", \"wof\"]"),
    );
    // A variant the tags do not give (no Variant tag: the default).
    check_stdin(
        "settled__json_variant_without_tag",
        &["validate", "-"],
        &reversi_json(Some("wof"), ""),
    );
    check_stdin(
        "settled__json_variant_disagrees",
        &["validate", "--format", "json", "-"],
        &reversi_json(Some("standard"), ", [\"Variant\", \"wof\"]"),
    );
    // YAML: the same rule.
    check_stdin(
        "settled__yaml_variant_without_tag",
        &["validate", "-"],
        "games:\n  - game: reversi\n    variant: wof\n    tags: [[Game, reversi]]\n    moves: [{notation: f5}]\n",
    );
}

#[test]
fn a_game_without_moves_writes_a_star() {
    // Without the `*`, the next game's tags would join its tag section.
    let doc = "{\"games\": [\
        {\"game\": \"reversi\", \"tags\": [[\"Game\", \"reversi\"], [\"Event\", \"a\"]], \"moves\": []},\n\
        {\"game\": \"reversi\", \"tags\": [[\"Game\", \"reversi\"], [\"Event\", \"b\"]], \"moves\": [{\"notation\": \"f5\"}]}]}\n";
    check_stdin(
        "settled__json_game_without_moves",
        &["convert", "--to", "gamerec", "-"],
        doc,
    );
}
