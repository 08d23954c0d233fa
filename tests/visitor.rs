//! The driver's visitor, as a library user writes one.

use gamerec::game::{MoveOf, Rules};
use gamerec::games::reversi::Reversi;
use gamerec::record::{RawGame, parse_file};
use gamerec::replay::{GameReport, MoveRecord, Options, Visitor, run};

/// Counts what it sees; records moves and watches positions when asked.
#[derive(Default)]
struct Counter {
    record: bool,
    watch: bool,
    tags: usize,
    moves: Vec<String>,
    positions: Vec<usize>,
    ended: usize,
}

impl<R: Rules> Visitor<R> for Counter {
    fn tags(&mut self, _report: &mut GameReport, raw: &RawGame, _src: &str) {
        self.tags = raw.tags.0.len();
    }
    fn records_moves(&self) -> bool {
        self.record
    }
    fn moved(&mut self, _report: &mut GameReport, record: MoveRecord) {
        self.moves.push(format!(
            "{}{}",
            record.notation,
            if record.auto { "*" } else { "" }
        ));
    }
    fn watches_positions(&self) -> bool {
        self.watch
    }
    fn position(&mut self, ply: usize, _state: &R::Position, _last: Option<&MoveOf<R>>) {
        self.positions.push(ply);
    }
    fn end(&mut self, _report: &mut GameReport, _state: &R::Position) {
        self.ended += 1;
    }
}

const GAME: &str = "[Game \"reversi\"]\n[Black \"b\"]\n1. f5 d6 2. c3 d3 3. c4 g7\n";

#[test]
fn a_visitor_sees_what_it_asks_for() {
    let games = parse_file(GAME);
    let raw = &games[0];
    let mut report = GameReport::default();

    let mut quiet = Counter::default();
    let end = run::<Reversi, _>(raw, GAME, &mut quiet, &mut report);
    assert!(end.is_some());
    assert_eq!((quiet.tags, quiet.ended), (2, 1));
    assert!(quiet.moves.is_empty() && quiet.positions.is_empty());
    // the verdict is the driver's, whatever the visitor keeps
    assert!(!report.valid);
    assert_eq!(report.plies, 5);
    assert_eq!(report.errors[0].code, "reversi::no_flip");
    assert!(report.tags.is_empty());

    let mut all = Counter {
        record: true,
        watch: true,
        ..Counter::default()
    };
    run::<Reversi, _>(raw, GAME, &mut all, &mut report);
    assert_eq!(all.moves, ["f5", "d6", "c3", "d3", "c4"]);
    // the start, then after each ply
    assert_eq!(all.positions, [0, 1, 2, 3, 4, 5]);
    assert_eq!(report.plies, 5);
}

/// `&Options` is the standard visitor: the report it builds is the
/// registry's replay with the same options.
#[test]
fn options_are_the_standard_visitor() {
    let games = parse_file(GAME);
    let opts = Options {
        record_moves: true,
        ..Options::default()
    };
    let mut report = GameReport::default();
    run::<Reversi, _>(&games[0], GAME, &mut &opts, &mut report);
    let whole = gamerec::registry::replay(&games[0], GAME, &opts);
    assert_eq!(report, whole);
    assert_eq!(report.moves.len(), 5);
    assert_eq!(report.tags.len(), 2);
}
