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
    let opts = Options::keeping(gamerec::sink::Record);
    let mut report = GameReport::default();
    run::<Reversi, _>(&games[0], GAME, &mut &opts, &mut report);
    let whole = gamerec::registry::replay(&games[0], GAME, &opts);
    assert_eq!(report, whole);
    assert_eq!(report.moves.len(), 5);
    assert_eq!(report.tags.len(), 2);
}

/// A sink as a library user writes one: it keeps the score notes and the
/// one-line description, nothing else; the library's sinks keep what they
/// say.
#[test]
fn a_sink_keeps_what_it_asks_for() {
    use gamerec::sink::{Brief, End, Record, Sink, TagsKept, Verdict};
    #[derive(Debug)]
    struct Notes;
    impl Sink for Notes {
        fn tags(&self) -> TagsKept {
            TagsKept::Described
        }
        fn end(&self, report: &mut GameReport, end: &dyn End) {
            report.score_notes = end.score_notes();
        }
    }
    let games = parse_file(GAME);
    let replay = |opts: Options| gamerec::registry::replay(&games[0], GAME, &opts);
    let notes = replay(Options::keeping(Notes));
    assert!(notes.tags.is_empty() && notes.moves.is_empty());
    assert!(notes.result_extras.is_empty());
    assert!(!notes.score_notes.is_empty());
    assert!(notes.about.is_some());
    let whole = replay(Options::keeping(Record));
    assert_eq!(whole.tags.len(), 2);
    assert_eq!(whole.moves.len(), 5);
    assert!(!whole.position.is_empty() && !whole.result_extras.is_empty());
    assert!(whole.score_notes.is_empty() && whole.about.is_none());
    let brief = replay(Options::keeping(Brief));
    assert_eq!(brief.about, notes.about);
    assert!(brief.tags.is_empty() && brief.score_notes.is_empty());
    let verdict = replay(Options::keeping(Verdict));
    assert!(verdict.tags.is_empty() && verdict.about.is_none());
    assert!(verdict.moves.is_empty() && verdict.result_extras.is_empty());
    // the verdict is the same whatever the sink keeps
    for r in [&notes, &brief, &verdict] {
        assert_eq!(
            (r.plies, r.valid, &r.scores),
            (whole.plies, whole.valid, &whole.scores)
        );
    }
}
