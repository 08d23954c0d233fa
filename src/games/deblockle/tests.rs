//! Tests of the whole game: records, hand-worked positions, perft against a
//! slow reference implementation.

use crate::record::parse_file;
use crate::replay::{GameReport, Options, replay};

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
