//! Whole-game tests: records replayed through the generic driver.

use super::*;
use crate::replay::{Options, replay};

fn run(src: &str) -> crate::replay::GameReport {
    let games = crate::record::parse_file(src);
    replay(&games[0], src, &Options::default())
}

#[test]
fn spec_example_is_valid_28_10() {
    let src = "[Players \"2\"]\n[Corners \"blue a7, yellow a1, red g1, green g7\"]\n[Game \"blokus\"]\n[Size \"7\"]\n[Result \"28-10\"]\n\n1. d7,a7,b6,b7,c7 2. d1,a1,c1,b1 3. W:g1,e2,f2,f1,e3 5. Y:g6,f5,g5,g4,g7 6... T5:a4,b4,a5,a3,c4 7. pass 8. e6,d5,e7,d4,e5 10. e4 11. d2,b2,c2,d3 13. pass 14. 1:g3 { good move } 15. pass 16. e1 { a comment } 18. pass 19. 2:b3,c3\n";
    let r = run(src);
    assert!(r.valid, "{:?}", r.errors);
    assert!(r.over);
    assert_eq!(r.scores, [28, 10]);
}
