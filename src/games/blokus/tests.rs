//! Whole-game tests: records replayed through the generic driver.

use super::*;
use crate::game::{Explain, Notation, Parsed, Render};
use crate::registry::replay;
use crate::replay::Options;
use crate::span::Span;

type State = super::State<board::Board>;

/// The start of a square-board game (classic or Duo).
fn start(tags: &Tags) -> Result<State, Vec<Diag>> {
    match <Blokus as Setup>::start(tags)? {
        Position::Squares(s) => Ok(s),
        Position::Triangles(_) => panic!("a Trigon game"),
    }
}

/// Judges and plays a move as the driver does: an illegal one explained.
fn play(state: &mut State, mv: &Parsed<Move, CellSpans>) -> Result<(), Diag> {
    state
        .play(&mv.mv)
        .map_err(|why| <Blokus as Explain>::explain(&Position::Squares(state.clone()), mv, why))
}

fn scores(state: &State) -> Vec<i64> {
    let mut out = Vec::new();
    state.scores_into(&mut out);
    out
}

fn legal_moves(state: &State) -> Result<Vec<String>, String> {
    <Blokus as Notation>::legal_move_texts(&Position::Squares(state.clone())).map_err(|why| why.0)
}

/// A generated placement in canonical notation.
fn placement_name(p: &board::Place) -> String {
    notation::write_placement::<board::Board>(&board::Board::classic().written(*p))
}

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

/// Deterministic game generator for fixtures: `BLOKUS_GEN=dir cargo test
/// --release --lib games::blokus::tests::generate -- --ignored`.
mod generator {
    use super::*;
    use board::Place as Placement;

    pub struct Rng(pub u64);
    impl Rng {
        pub fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        pub fn pick(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    #[derive(Clone, Copy)]
    pub enum Policy {
        Random,
        /// Biggest piece first, random among those.
        Big,
        /// Biggest piece first, keeping the most own placements afterwards.
        BigMobile,
    }

    fn choose(state: &State, moves: &[Placement], policy: Policy, rng: &mut Rng) -> Placement {
        let c = state.board.to_move;
        let best_size = moves
            .iter()
            .map(|p| pieces::size(p.piece()))
            .max()
            .unwrap_or(0);
        let big: Vec<Placement> = moves
            .iter()
            .copied()
            .filter(|p| pieces::size(p.piece()) == best_size)
            .collect();
        match policy {
            Policy::Random => moves[rng.pick(moves.len())],
            Policy::Big => big[rng.pick(big.len())],
            Policy::BigMobile => {
                let mut best = (0u64, big[0]);
                for &p in &big {
                    let mut b = state.board.clone();
                    b.place(p);
                    b.to_move = c;
                    let n = b.count_moves(c) * 1000 + rng.pick(1000) as u64;
                    if n > best.0 {
                        best = (n, p);
                    }
                }
                best.1
            }
        }
    }

    /// Plays a game to the end; returns the movetext and the final state.
    pub fn play(tags: &str, policies: [Policy; 4], seed: u64, passes: bool) -> (String, State) {
        let games = crate::record::parse_file(tags);
        let mut state = start(&games[0].tags).unwrap_or_else(|_| panic!("bad tags"));
        let mut rng = Rng(seed);
        let mut out = String::new();
        let mut ply = 0;
        let mut line = 0;
        while !state.board.is_over() {
            let c = state.board.to_move;
            let moves = state.board.moves(c);
            ply += 1;
            let text = if moves.is_empty() {
                state.board.pass();
                state.turns[usize::from(c)] += 1;
                if !passes {
                    continue;
                }
                "pass".to_string()
            } else {
                let p = choose(&state, &moves, policies[usize::from(c)], &mut rng);
                state.board.place(p);
                state.turns[usize::from(c)] += 1;
                placement_name(&p)
            };
            let item = format!("{ply}. {text}");
            if line + item.len() > 76 {
                out.push('\n');
                line = 0;
            } else if line > 0 {
                out.push(' ');
                line += 1;
            }
            line += item.len();
            out.push_str(&item);
        }
        out.push('\n');
        (out, state)
    }

    pub fn summary(state: &State) -> String {
        let mut s = String::new();
        for c in state.colours() {
            s.push_str(&format!(
                "{} sq={} all={} last={:?}; ",
                state.colour(c),
                state.board.squares(c),
                state.board.all_placed(c),
                state.board.placed.last[usize::from(c)].map(pieces::name)
            ));
        }
        s
    }
}

#[test]
#[ignore = "writes fixture candidates; run by hand"]
fn generate() {
    use generator::Policy::*;
    let Ok(dir) = std::env::var("BLOKUS_GEN") else {
        return;
    };
    let write = |name: &str, tags: &str, body: &str, state: &State| {
        let result = crate::record::format_result(&scores(state));
        let text = format!("{tags}[Result \"{result}\"]\n\n{body}");
        std::fs::write(format!("{dir}/{name}.gamerec"), text).unwrap();
        println!("{name}: {result} {}", generator::summary(state));
    };
    let t4 = "[Game \"blokus\"]\n";
    let (body, st) = generator::play(t4, [Big, Random, Big, Random], 7, false);
    write(
        "classic_4p",
        "[Event \"x\"]\n[Game \"blokus\"]\n",
        &body,
        &st,
    );
    let (body, st) = generator::play(t4, [Big, Random, Big, Random], 7, true);
    write(
        "classic_4p_passes",
        "[Event \"x\"]\n[Game \"blokus\"]\n",
        &body,
        &st,
    );
    let t = "[Game \"blokus\"]\n[Players \"2\"]\n";
    let (body, st) = generator::play(t, [Big, Big, Random, Random], 11, false);
    write("classic_2p", &format!("[Event \"x\"]\n{t}"), &body, &st);
    let t = "[Game \"blokus\"]\n[Players \"3\"]\n";
    let (body, st) = generator::play(t, [Big, BigMobile, Random, Random], 13, false);
    write("classic_3p", &format!("[Event \"x\"]\n{t}"), &body, &st);
    let t = "[Game \"blokus\"]\n[Variant \"duo\"]\n";
    let (body, st) = generator::play(t, [BigMobile, Big, Random, Random], 17, false);
    write("duo", &format!("[Event \"x\"]\n{t}"), &body, &st);
    let t = "[Game \"blokus\"]\n[Size \"14\"]\n";
    let (body, st) = generator::play(t, [Big, Big, Big, Big], 19, false);
    write("size14", &format!("[Event \"x\"]\n{t}"), &body, &st);
    let t = "[Game \"blokus\"]\n[Corners \"blue a20, yellow t20, red t1, green a1\"]\n";
    let (body, st) = generator::play(t, [BigMobile, Random, Big, Random], 23, false);
    write("corners", &format!("[Event \"x\"]\n{t}"), &body, &st);
    // A game where exactly one colour places all 21 pieces, the monomino last.
    for seed in 1..200u64 {
        let t = "[Game \"blokus\"]\n[Players \"2\"]\n";
        let (body, st) = generator::play(t, [BigMobile, Random, Random, Random], seed, false);
        let b = &st.board;
        let alls: Vec<u8> = st.colours().filter(|&c| b.all_placed(c)).collect();
        if alls == [0] && b.placed.last[0] == Some(0) {
            for s in ["basic", "official", "pentobi"] {
                let tags = format!("[Event \"x\"]\n{t}[Scoring \"{s}\"]\n");
                let games = crate::record::parse_file(&tags);
                let mut st2 = st.clone();
                st2.scoring = start(&games[0].tags).unwrap().scoring;
                write(&format!("scoring_{s}"), &tags, &body, &st2);
            }
            println!("seed {seed}");
            break;
        }
    }
}

/// The state after the first `k` written moves of a record (forced passes
/// taken as the driver takes them), and the text of those moves.
fn prefix(src: &str, k: usize) -> (State, Vec<String>, String) {
    let games = crate::record::parse_file(src);
    let g = &games[0];
    let mut state = start(&g.tags).unwrap_or_else(|_| panic!("tags"));
    let parsed = super::notation::parse(&g.tokens, src);
    let mut texts = Vec::new();
    for pm in parsed.moves.iter().take(k) {
        while !state.is_over() && state.must_pass() && !(pm.mv == Move::Pass) {
            let pass = Parsed {
                mv: Move::Pass,
                span: pm.span,
                token: pm.token,
                parts: Default::default(),
            };
            play(&mut state, &pass).unwrap();
        }
        play(&mut state, pm).unwrap();
        texts.push(pm.span.text(src).to_string());
    }
    // Forced passes before the next move are written out, so that the colour
    // to move can place.
    while !state.is_over() && state.must_pass() && k < parsed.moves.len() {
        play(
            &mut state,
            &Parsed {
                mv: Move::Pass,
                span: Default::default(),
                token: 0,
                parts: Default::default(),
            },
        )
        .unwrap();
        texts.push("pass".into());
    }
    let tags: String = g
        .tags
        .iter()
        .filter(|t| t.name != "Event" && t.name != "Result")
        .map(|t| format!("{}\n", t.span.text(src)))
        .collect();
    (state, texts, tags)
}

/// Every placement on the board for the colour to move, with the code `play`
/// gives it (`None` when legal).
fn classify(state: &State) -> Vec<(board::Place, Option<String>)> {
    let n = state.board.size;
    let mut out = Vec::new();
    for (oi, o) in pieces::TABLE.orients.iter().enumerate() {
        for y in 0..n.saturating_sub(o.h - 1) {
            for x in 0..n.saturating_sub(o.w - 1) {
                let p = board::Place {
                    orient: oi as u8,
                    x,
                    y,
                };
                let mv = Parsed {
                    mv: Move::Square(state.board.written(p)),
                    span: Default::default(),
                    token: 0,
                    parts: Default::default(),
                };
                let mut s = state.clone();
                let code = play(&mut s, &mv).err().map(|d| d.code.to_string());
                out.push((p, code));
            }
        }
    }
    out
}

#[test]
#[ignore = "writes invalid fixture candidates; run by hand"]
fn generate_invalid() {
    let Ok(dir) = std::env::var("BLOKUS_GEN") else {
        return;
    };
    let root = env!("CARGO_MANIFEST_DIR");
    let src = std::fs::read_to_string(format!("{root}/fixtures/blokus/valid/classic_4p.gamerec"))
        .unwrap();
    let total = prefix(&src, usize::MAX).1.len();
    let (state, texts, tags) = prefix(&src, total - 4);
    let out = Invalid {
        dir,
        tags,
        moves: texts,
    };
    rule_candidates(&out, &state);
    notation_candidates(&out, &state);
    let (_, all_texts, tags4) = prefix(&src, usize::MAX);
    let end = Invalid {
        dir: out.dir.clone(),
        tags: tags4,
        moves: all_texts,
    };
    end.write(
        "move_after_end",
        "a pass written after the game is over",
        "pass",
    );
    // start_missed: yellow's first piece away from a1.
    let (s1, t1, tags1) = prefix(&src, 1);
    let bad = classify(&s1)
        .iter()
        .find(|(p, c)| {
            c.as_deref() == Some("blokus::start_missed")
                && p.squares().all(|(x, y)| x > 0 && y == 0)
        })
        .map(|(p, _)| placement_name(p))
        .unwrap();
    let first = Invalid {
        dir: out.dir.clone(),
        tags: tags1,
        moves: t1,
    };
    first.write(
        "start_missed",
        "yellow's first piece misses its starting corner a1",
        &bad,
    );
}

/// Where invalid fixture candidates go, and the record they continue.
struct Invalid {
    dir: String,
    tags: String,
    moves: Vec<String>,
}

impl Invalid {
    /// Writes the record's moves then `bad`, as the candidate for `code`.
    fn write(&self, code: &str, event: &str, bad: &str) {
        let mut body = String::new();
        let bad = bad.to_string();
        for (i, m) in self.moves.iter().chain(std::iter::once(&bad)).enumerate() {
            body.push_str(&format!("{}. {m}", i + 1));
            body.push(if i % 5 == 4 { '\n' } else { ' ' });
        }
        let text = format!("[Event \"{event}\"]\n{}\n{}\n", self.tags, body.trim_end());
        std::fs::write(format!("{}/{code}.gamerec", self.dir), text).unwrap();
        println!("{code}: {bad}");
    }
}

/// Placements the rules refuse: a piece used, occupied squares, an edge
/// contact, no corner contact, and a pass while a placement exists.
fn rule_candidates(out: &Invalid, state: &State) {
    let all = classify(state);
    let colour = state.colour(state.board.to_move);
    let pick = |code: &str, ok: &dyn Fn(&board::Place) -> bool| {
        all.iter()
            .find(|(p, c)| c.as_deref() == Some(code) && ok(p))
            .map(|(p, _)| placement_name(p))
            .unwrap_or_else(|| panic!("no {code}"))
    };
    let b = &state.board;
    let me = b.to_move;
    // piece_used: a used piece placed where it would otherwise be legal.
    let bad = pick("blokus::piece_used", &|p| {
        let mut s = state.clone();
        s.board.placed.used[usize::from(me)] &= !(1 << p.piece());
        classify(&s).iter().any(|(q, c)| q == p && c.is_none())
    });
    let what = format!("{colour} places a piece it has already placed");
    out.write("piece_used", &what, &bad);
    // occupied: legal but for the squares other colours hold.
    let bad = pick("blokus::occupied", &|p| {
        let mut s = state.clone();
        for c in (0..4).filter(|&c| c != usize::from(me)) {
            for (x, y) in p.squares() {
                s.board.occ[c][usize::from(y)] &= !(1 << x);
            }
        }
        classify(&s).iter().any(|(q, c)| q == p && c.is_none())
    });
    out.write(
        "occupied",
        &format!("{colour} covers another colour's square"),
        &bad,
    );
    let own = |x: i32, y: i32| x >= 0 && y >= 0 && b.at(x as u8, y as u8) == Some(me);
    let bad = pick("blokus::edge_contact", &|p| {
        p.squares().any(|(x, y)| {
            let (x, y) = (i32::from(x), i32::from(y));
            own(x + 1, y + 1) || own(x - 1, y + 1) || own(x + 1, y - 1) || own(x - 1, y - 1)
        })
    });
    let what = format!("{colour} touches its own colour along an edge");
    out.write("edge_contact", &what, &bad);
    let bad = pick("blokus::no_corner_contact", &|_| true);
    let what = format!("{colour} places a piece touching none of its own squares");
    out.write("no_corner_contact", &what, &bad);
    let what = format!("{colour} passes while it can place a piece");
    out.write("illegal_pass", &what, "pass");
}

/// Moves the notation refuses, made from a legal placement: a square
/// listed twice, a wrong piece name, squares forming no piece.
fn notation_candidates(out: &Invalid, state: &State) {
    let all = classify(state);
    let legal: Vec<board::Place> = all
        .iter()
        .filter(|(_, c)| c.is_none())
        .map(|(p, _)| *p)
        .collect();
    let l = legal
        .iter()
        .find(|p| pieces::size(p.piece()) >= 3)
        .copied()
        .unwrap_or(legal[0]);
    let sq: Vec<String> = l
        .squares()
        .map(|(x, y)| notation::square_name(x, y))
        .collect();
    let name = pieces::name(l.piece());
    let twice = format!("{name}:{},{}", sq.join(","), sq[0]);
    out.write(
        "repeated_square",
        "a square listed twice in one move",
        &twice,
    );
    let wrong = match name {
        "I4" => "L4",
        _ if pieces::size(l.piece()) == 4 => "I4",
        "I5" => "L5",
        "I3" => "V3",
        _ => "I5",
    };
    let named = format!("{wrong}:{}", sq.join(","));
    out.write(
        "wrong_piece_name",
        "a piece name that does not match the squares",
        &named,
    );
    // not_a_piece: a legal piece and one more square next to it.
    let n = state.board.size;
    let extra = l
        .squares()
        .flat_map(|(x, y)| [(x + 1, y), (x, y + 1)])
        .find(|&(x, y)| x < n && y < n && !l.squares().any(|s| s == (x, y)))
        .unwrap();
    let mut six = sq.clone();
    six.push(notation::square_name(extra.0, extra.1));
    let bad = if l.squares().count() == 5 {
        six.join(",")
    } else {
        format!("{},{}", sq[0], notation::square_name((l.x + 7) % n, l.y))
    };
    out.write("not_a_piece", "squares forming none of the 21 pieces", &bad);
}

fn fixture(kind: &str, name: &str) -> (String, crate::replay::GameReport) {
    let root = env!("CARGO_MANIFEST_DIR");
    let path = format!("{root}/fixtures/blokus/{kind}/{name}.gamerec");
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let games = crate::record::parse_file(&src);
    assert_eq!(games.len(), 1);
    let opts = Options::keeping(crate::replay::sink::Record);
    let r = replay(&games[0], &src, &opts);
    (src, r)
}

/// Checks a finished valid game independently of the engine's counters: the
/// squares of each colour's moves add up to the sizes of the pieces named,
/// and match the letters of the final position; no piece is placed twice.
fn check_valid(name: &str, scores: &[i64]) -> crate::replay::GameReport {
    let (_, r) = fixture("valid", name);
    assert!(r.valid, "{name}: {:?}", r.errors);
    assert!(r.over, "{name} is not over");
    assert!(r.warnings.is_empty(), "{name}: {:?}", r.warnings);
    assert_eq!(r.scores, scores, "{name}");
    let mut per_colour: std::collections::BTreeMap<String, (usize, Vec<String>)> =
        Default::default();
    for m in &r.moves {
        let colour = m.extras["colour"].as_str().unwrap().to_string();
        assert_eq!(colour, m.player);
        let e = per_colour.entry(colour).or_default();
        if let Some(piece) = m.extras.get("piece").and_then(|p| p.as_str()) {
            let sq = m.extras["squares"].as_array().unwrap().len();
            let p = pieces::by_name(piece).unwrap();
            assert_eq!(sq as u32, pieces::size(p));
            assert!(!e.1.contains(&piece.to_string()), "{name}: {piece} twice");
            e.1.push(piece.to_string());
            e.0 += sq;
        }
    }
    let squares = r.result_extras["squares"].as_object().unwrap();
    for (colour, (n, _)) in &per_colour {
        let letter = colour.chars().next().unwrap().to_ascii_uppercase();
        let on_board: usize = r
            .position
            .iter()
            .map(|row| row.chars().filter(|&c| c == letter).count())
            .sum();
        assert_eq!(*n, on_board, "{name}: {colour}");
        assert_eq!(squares[colour].as_u64(), Some(*n as u64));
    }
    r
}

#[test]
fn valid_fixtures() {
    // Scores by hand from the square counts in `squares`.
    let a = check_valid("classic_4p", &[77, 56, 79, 48]);
    let b = check_valid("classic_4p_passes", &[77, 56, 79, 48]);
    assert_eq!(a.position, b.position);
    assert_eq!(a.plies, b.plies);
    assert_eq!(a.moves.iter().filter(|m| m.auto).count(), 12);
    assert_eq!(b.moves.iter().filter(|m| m.auto).count(), 0);
    // 81 + 59 and 78 + 56 squares.
    check_valid("classic_2p", &[140, 134]);
    // Yellow: 89 + 15 + 10 (alone); green's 61 squares count for nobody.
    let r = check_valid("classic_3p", &[61, 114, 46]);
    assert_eq!(r.result_extras["squares"]["green"], 61);
    check_valid("duo", &[81, 66]);
    check_valid("size14", &[48, 47, 28, 33]);
    // Blue 89 + 15 + 10.
    check_valid("corners", &[114, 57, 68, 51]);
    // Blue placed all 21, the monomino last, alone; red 61, yellow 66, green 64.
    let r = check_valid("scoring_basic", &[89 + 25 + 61, 66 + 64]);
    assert_eq!(r.result_extras["colours"]["blue"], 114);
    let r = check_valid("scoring_official", &[20 + (61 - 89), (66 - 89) + (64 - 89)]);
    assert_eq!(r.result_extras["colours"]["blue"], 20);
    let r = check_valid("scoring_pentobi", &[89 + 20 + 61, 130]);
    assert_eq!(r.result_extras["colours"]["blue"], 109);
    let r = check_valid("spec_example", &[28, 10]);
    assert_eq!(r.winners, ["player1"]);
}

#[test]
fn invalid_fixtures() {
    for code in [
        "not_a_square",
        "repeated_square",
        "not_a_piece",
        "piece_used",
        "wrong_piece_name",
        "occupied",
        "start_missed",
        "edge_contact",
        "no_corner_contact",
        "illegal_pass",
        "move_after_end",
        "bad_tags",
    ] {
        let (src, r) = fixture("invalid", code);
        assert!(!r.valid);
        let codes: Vec<&str> = r.errors.iter().map(|d| d.code.as_ref()).collect();
        assert_eq!(codes, [format!("blokus::{code}")], "{code}");
        let d = &r.errors[0];
        let blamed = d.span.unwrap().text(&src);
        if code == "bad_tags" {
            assert_eq!(d.ply, 0);
            assert_eq!(blamed, "[Size \"14\"]");
        } else {
            // The error is at the last move of the record.
            let end = src.trim_end().len();
            assert!(
                d.span.unwrap().end() == end || blamed.len() < 5,
                "{code}: {blamed}"
            );
            assert!(d.ply > 0);
        }
        println!("{code}: {} [{blamed}] help: {:?}", d.message, d.help);
    }
}

fn codes(src: &str) -> Vec<String> {
    run(src).errors.iter().map(|d| d.code.to_string()).collect()
}

#[test]
fn tags() {
    let g = "[Game \"blokus\"]\n";
    for (tags, code) in [
        ("[Variant \"duo\"]\n[Players \"2\"]", "blokus::bad_tags"),
        (
            "[Variant \"duo\"]\n[Corners \"blue a1\"]",
            "blokus::bad_tags",
        ),
        ("[Variant \"hexagon\"]", "record::bad_tag"),
        ("[Variant \"trigon\"]\n[Size \"14\"]", "blokus::bad_tags"),
        ("[Variant \"trigon\"]\n[Players \"5\"]", "blokus::bad_tags"),
        ("[Size \"4\"]", "blokus::bad_tags"),
        ("[Size \"27\"]", "blokus::bad_tags"),
        ("[Size \"-1\"]", "blokus::bad_tags"),
        ("[Players \"5\"]", "blokus::bad_tags"),
        ("[Scoring \"fancy\"]", "blokus::bad_tags"),
        (
            "[Corners \"blue a20, yellow a1, red t1\"]",
            "blokus::bad_tags",
        ),
        (
            "[Corners \"blue a20, yellow a1, red t1, green a1\"]",
            "blokus::bad_tags",
        ),
        (
            "[Corners \"blue a20, yellow a1, red t1, blue t20\"]",
            "blokus::bad_tags",
        ),
        (
            "[Corners \"blue a19, yellow a1, red t1, green t20\"]",
            "blokus::bad_tags",
        ),
        (
            "[Corners \"pink a20, yellow a1, red t1, green t20\"]",
            "blokus::bad_tags",
        ),
        (
            "[Size \"14\"]\n[Corners \"blue a20, yellow a1, red t1, green t20\"]",
            "blokus::bad_tags",
        ),
    ] {
        let r = run(&format!("{g}{tags}\n\na20\n"));
        let got: Vec<&str> = r.errors.iter().map(|d| d.code.as_ref()).collect();
        assert_eq!(got, [code], "{tags}");
        assert_eq!(r.plies, 0);
        assert_eq!(r.errors[0].ply, 0);
    }
    // Pentobi's corners, case-insensitive; green moves from a1.
    let r = run(&format!(
        "{g}[Corners \"Blue a20, YELLOW T20, red t1, green A1\"]\n[Scoring \"Pentobi\"]\n\na20 t20 t1 a1\n"
    ));
    assert!(r.valid, "{:?}", r.errors);
    assert_eq!(r.scores, [1, 1, 1, 1]);
    // Players and seats.
    let r = run(&format!("{g}[Players \"3\"]\n\na20 a1 t1 t20\n"));
    assert_eq!(r.seats, ["player1", "player2", "player3"]);
    assert_eq!(r.scores, [1, 1, 1]);
    let r = run(&format!("{g}[Players \"2\"]\n\na20 a1 t1 t20\n"));
    assert_eq!(r.scores, [2, 2]);
    let r = run(&format!("{g}[Variant \"Duo\"]\n\ne10 j5\n"));
    assert_eq!(r.seats, ["purple", "orange"]);
    assert!(r.valid);
}

#[test]
fn rules_in_play() {
    let g = "[Game \"blokus\"]\n[Size \"7\"]\n\n";
    // On 5x5, blue's I5 covers yellow's corner a1: yellow never moves and is
    // skipped, and blue has no corner left either.
    let g5 = "[Game \"blokus\"]\n[Size \"5\"]\n\n";
    let r = run(&format!("{g5}a5,a4,a3,a2,a1 pass e1 e5 pass pass c2,d2\n"));
    assert!(r.valid, "{:?}", r.errors);
    let r = run(&format!("{g5}a5,a4,a3,a2,a1 e1 e5 c2,d2\n"));
    assert!(r.valid, "{:?}", r.errors);
    assert_eq!(r.plies, 7, "three automatic passes");
    assert_eq!(
        codes(&format!("{g}a7 a1 g1 g7 a7,a6\n")),
        ["blokus::occupied"]
    );
    assert_eq!(
        codes(&format!("{g}a7 a1 g1 g7 b7,c7\n")),
        ["blokus::edge_contact"]
    );
    assert_eq!(
        codes(&format!("{g}a7 a1 g1 g7 c5,c4\n")),
        ["blokus::no_corner_contact"]
    );
    assert_eq!(
        codes(&format!("{g}a7 a1 g1 g7 b6\n")),
        ["blokus::piece_used"]
    );
    assert_eq!(codes(&format!("{g}a6\n")), ["blokus::start_missed"]);
    assert_eq!(codes(&format!("{g}pass\n")), ["blokus::illegal_pass"]);
    assert_eq!(codes(&format!("{g}h1\n")), ["blokus::not_a_square"]);
    // The squares blamed: the one that touches, the one occupied.
    let src = format!("{g}a7 a1 g1 g7 c6,b6,b7\n");
    let r = run(&src);
    assert_eq!(r.errors[0].span.unwrap().text(&src), "b7");
    assert!(
        r.errors[0].message.contains("a7"),
        "{}",
        r.errors[0].message
    );
    let src = format!("{g}a7 a1 g1 g7 b6,b5 a2,a1\n");
    let r = run(&src);
    assert_eq!(r.errors[0].code, "blokus::occupied");
    assert_eq!(r.errors[0].span.unwrap().text(&src), "a1");
    assert!(r.errors[0].message.contains("yellow"));
}

#[test]
fn legal_moves_listing() {
    let games = crate::record::parse_file("[Game \"blokus\"]\n");
    let state = start(&games[0].tags).unwrap();
    // The engine lists each placement once; the driver sorts them by text.
    let mut moves = legal_moves(&state).unwrap();
    moves.sort();
    assert_eq!(moves.len(), 58);
    assert!(moves.windows(2).all(|w| w[0] < w[1]));
    assert!(moves.contains(&"1:a20".to_string()));
    assert!(moves.contains(&"V3:a19,a20,b20".to_string()));
    let rows = <Blokus as Render>::position_rows(&Position::Squares(state.clone()));
    assert_eq!(rows.len(), 20);
    assert!(rows.iter().all(|r| r == &".".repeat(20)));
}

#[test]
fn hostile_input_does_not_panic() {
    let long: String = (0..3000)
        .map(|i| format!("{}{},", (b'a' + (i % 26) as u8) as char, i % 26 + 1))
        .collect();
    for body in [
        long.as_str(),
        ",,,,",
        ":::",
        "a1:b2:c3",
        "zz99999999999999999999",
        "a1,a2,a3,a4,a5,a6,a7,a8,a9,a10,a11,a12,a13,a14,a15,a16,a17,a18,a19,a20,a21,a22,a23,a24,a25,a26",
        "\u{00e9}\u{00e9},\u{1F600}",
        "1:",
        "pass pass pass pass pass",
    ] {
        for tags in ["", "[Size \"5\"]\n", "[Variant \"duo\"]\n"] {
            let src = format!("[Game \"blokus\"]\n{tags}\n{body}\n");
            let r = run(&src);
            assert!(!r.valid || body.is_empty(), "{body}");
        }
    }
}

#[test]
fn scoring_bonuses() {
    let games = crate::record::parse_file("[Game \"blokus\"]\n[Scoring \"official\"]\n");
    let mut state = start(&games[0].tags).unwrap();
    assert_eq!(scores(&state), [-89, -89, -89, -89]);
    // Blue and yellow both "placed all 21" (counters only; squares as set).
    state.board.placed.used = [pieces::ALL_PIECES, pieces::ALL_PIECES, 1, 0];
    state.board.placed.last = [Some(0), Some(5), Some(0), None];
    state.board.occ[0][0] = (1 << 20) - 1; // 20 squares
    state.board.occ[1][1] = 1; // 1 square
    state.scoring = Scoring::Official;
    assert_eq!(scores(&state), [-69 + 20, -88 + 15, -89, -89]);
    state.scoring = Scoring::Pentobi;
    assert_eq!(scores(&state), [20 + 20, 1 + 15, 0, 0]);
    // Basic: +15 each, no +10 since two colours placed all their pieces.
    state.scoring = Scoring::Basic;
    assert_eq!(scores(&state), [35, 16, 0, 0]);
    state.board.placed.used[1] = 0;
    assert_eq!(scores(&state), [45, 1, 0, 0]);
    // Two players sum their colours; three players leave green out.
    state.players = 2;
    assert_eq!(scores(&state), [45, 1]);
    state.players = 3;
    state.board.occ[3][5] = 7;
    assert_eq!(scores(&state), [45, 1, 0]);
    assert_eq!(state.seat_of(3), "player1");
    state.turns[3] = 4;
    assert_eq!(state.seat_of(3), "player2");
}

/// The first error's code and the text it blames.
fn first_error(src: &str) -> (String, String, usize) {
    let r = run(src);
    let d = r
        .errors
        .first()
        .unwrap_or_else(|| panic!("no error: {src}"));
    (
        d.code.to_string(),
        d.span.unwrap_or_default().text(src).to_string(),
        d.ply,
    )
}

#[test]
fn setup_tags_are_rules_tags() {
    for name in setup::CLASSIC_TAGS
        .iter()
        .chain(setup::DUO_TAGS.iter())
        .chain([setup::FIRST].iter())
    {
        assert!(<Blokus as Setup>::RULES_TAGS.contains(name), "{name}");
    }
}

#[test]
fn setup_parsing() {
    let src = "[Game \"blokus\"]\n[SetupBlue \"V3:a20,a19,b19  1:e17\"]\n[SetupYellow \"a1\"]\n[First \"RED\"]\n\n";
    let games = crate::record::parse_file(src);
    let state = start(&games[0].tags).unwrap();
    assert_eq!(state.board.to_move, 2);
    assert_eq!(state.board.squares(0), 4);
    assert_eq!(state.board.squares(1), 1);
    assert_eq!(state.board.at(4, 16), Some(0));
    assert!(!state.board.first_move(0));
    assert!(state.board.first_move(2));
    assert_eq!(state.turns, [0; 4]);
    // Duo: orange to move; an empty setup value sets nothing up.
    let src = "[Game \"blokus\"]\n[Variant \"duo\"]\n[SetupPurple \"\"]\n[SetupOrange \"j5\"]\n[First \"orange\"]\n\n";
    let r = run(src);
    assert!(r.valid, "{:?}", r.errors);
    let games = crate::record::parse_file(src);
    let state = start(&games[0].tags).unwrap();
    assert_eq!(state.colour(state.mover()), "orange");
    assert_eq!(state.board.squares(0), 0);
    let g = "[Game \"blokus\"]\n";
    let bt = "blokus::bad_tags";
    for (tags, code, blamed) in [
        // overlapping pieces: the first square set up twice
        ("[SetupBlue \"a1,a2 a2,b2,c2\"]", bt, "a2"),
        ("[SetupBlue \"a1\"]\n[SetupRed \"b1,a1\"]", bt, "a1"),
        // a piece twice
        ("[SetupBlue \"a1,a2 c1,c2\"]", bt, "c1,c2"),
        // off a smaller board
        ("[Size \"7\"]\n[SetupBlue \"g7,h7\"]", bt, "h7"),
        ("[SetupBlue \"pass\"]", bt, "pass"),
        ("[SetupPurple \"a1\"]", bt, "[SetupPurple \"a1\"]"),
        ("[First \"purple\"]", bt, "\"purple\""),
        // the notation's own errors
        ("[SetupBlue \"a1,c1\"]", "blokus::not_a_piece", "a1,c1"),
        (
            "[SetupBlue \"a1 L4:b1,c1,d1\"]",
            "blokus::wrong_piece_name",
            "L4",
        ),
        ("[SetupBlue \"a1 b0\"]", "blokus::not_a_square", "b0"),
        ("[SetupBlue \"a1,a1\"]", "blokus::repeated_square", "a1"),
    ] {
        let src = format!("{g}{tags}\n\na20\n");
        let (got, text, ply) = first_error(&src);
        assert_eq!(
            (got.as_str(), text.as_str(), ply),
            (code, blamed, 0),
            "{tags}"
        );
        assert_eq!(run(&src).plies, 0);
    }
    let src = format!("{g}[Variant \"duo\"]\n[SetupBlue \"a1\"]\n\ne10\n");
    assert_eq!(first_error(&src).0, bt);
    // An escaped value cannot be pointed into: the whole value is blamed.
    let src = format!("{g}[SetupBlue \"a1,\\\"b1\"]\n\n");
    assert_eq!(first_error(&src).1, "\"a1,\\\"b1\"");
}

#[test]
fn first_move_after_setup_follows_the_corner_rule() {
    let g = "[Game \"blokus\"]\n[SetupBlue \"1:j10\"]\n\n";
    // Blue has made its first move: its start square no longer counts.
    assert_eq!(
        first_error(&format!("{g}a20,a19\n")).0,
        "blokus::no_corner_contact"
    );
    assert_eq!(
        first_error(&format!("{g}j11,j12\n")).0,
        "blokus::edge_contact"
    );
    assert_eq!(first_error(&format!("{g}1:i9\n")).0, "blokus::piece_used");
    // Corner to corner with its set-up piece; yellow, without one, still
    // needs its start square.
    let r = run(&format!("{g}i9,i8 a1\n"));
    assert!(r.valid, "{:?}", r.errors);
    assert_eq!(
        first_error(&format!("{g}i9,i8 b1\n")).0,
        "blokus::start_missed"
    );
    // The legal placements start from the setup.
    let games = crate::record::parse_file(g);
    let state = start(&games[0].tags).unwrap();
    let legal = legal_moves(&state).unwrap();
    assert!(legal.contains(&"2:i8,i9".to_string()), "{legal:?}");
    assert!(!legal.iter().any(|m| m.contains("a20")));
}

/// A setup of all 21 pieces of blue, packed in 5x3 boxes from `a1`.
fn all_pieces_setup() -> String {
    let t = &*pieces::TABLE;
    let mut items = Vec::new();
    for p in 0..pieces::PIECES {
        let (oi, _) = t
            .orients
            .iter()
            .enumerate()
            .find(|(_, o)| usize::from(o.piece) == p && o.h <= 3 && o.w <= 5)
            .unwrap();
        let (bx, by) = (p % 4, p / 4);
        let pl = board::Place {
            orient: oi as u8,
            x: (bx * 5) as u8,
            y: (by * 3) as u8,
        };
        items.push(placement_name(&pl));
    }
    items.join(" ")
}

#[test]
fn scores_count_setup_pieces() {
    let g = "[Game \"blokus\"]\n";
    // Six squares set up for blue, four placed in play.
    let r = run(&format!(
        "{g}[SetupBlue \"1:j10 I5:a1,a2,a3,a4,a5\"]\n\ni9,i8,i7,i6\n"
    ));
    assert!(r.valid, "{:?}", r.errors);
    assert_eq!(r.scores, [10, 0, 0, 0]);
    assert_eq!(r.result_extras["squares"]["blue"], 10);
    // All 21 set up: the bonuses for placing every piece, but the monomino
    // was not placed last (set-up pieces have no order).
    let all = all_pieces_setup();
    for (scoring, blue) in [
        ("basic", 89 + 15 + 10),
        ("pentobi", 89 + 15),
        ("official", 15),
    ] {
        let src = format!("{g}[Scoring \"{scoring}\"]\n[SetupBlue \"{all}\"]\n\n");
        let r = run(&src);
        assert!(r.valid, "{scoring}: {:?}", r.errors);
        assert_eq!(r.scores.first(), Some(&blue), "{scoring}");
    }
}

#[test]
fn setup_fixtures() {
    // Blue: setup V3 + L4 and 65 squares in play, 17 left (I3 I4 V5 X);
    // yellow 21 left (I4 T4 O Z4 Z5); red 8 (I4 T4); green: setup I4 and
    // 65 in play, 20 left (2 T4 O T5 X).
    let (_, r) = fixture("valid", "setup_classic");
    assert!(r.valid, "{:?}", r.errors);
    assert!(r.over);
    assert_eq!(r.scores, [89 - 17, 89 - 21, 89 - 8, 89 - 20]);
    assert_eq!(r.moves.first().map(|m| m.player), Some("yellow"));
    let (src, r) = fixture("invalid", "bad_tags_setup");
    let codes: Vec<&str> = r.errors.iter().map(|d| d.code.as_ref()).collect();
    assert_eq!(codes, ["blokus::bad_tags"]);
    assert_eq!(r.errors[0].ply, 0);
    assert_eq!(r.plies, 0);
    let span = r.errors[0].span.unwrap();
    assert_eq!(span.text(&src), "b19");
    assert!(src[..span.offset].ends_with("[SetupGreen \"I4:q20,r20,s20,t20 V3:"));
}

/// The engine's answer to a refused move is a typed reason with the data
/// its message needs, and the position is left as it was.
#[test]
fn refused_moves_are_typed_and_change_nothing() {
    let games = crate::record::parse_file("[Game \"blokus\"]\n");
    let mut state = start(&games[0].tags).unwrap();
    let before = state.clone();
    let (off, _) = notation::placement("1:e5", 0, Span::new(0, 4)).unwrap();
    assert_eq!(
        state.play(&Move::Square(off)),
        Err(Illegal::StartMissed {
            colour: 0,
            starts: state.board.starts(0),
        })
    );
    assert_eq!(state.play(&Move::Pass), Err(Illegal::Pass { colour: 0 }));
    assert_eq!(state.play(&Move::Triangle(off)), Err(Illegal::OtherBoard));
    assert_eq!(state, before);
    let (corner, _) = notation::placement("1:a20", 0, Span::new(0, 5)).unwrap();
    assert_eq!(state.play(&Move::Square(corner)), Ok(()));
    assert_eq!(state.play(&Move::Square(corner)).map_err(|_| ()), Err(()));
}

/// The variant picks the board: Trigon's triangles, else squares; the
/// legal moves are typed moves of that board.
#[test]
fn the_variant_picks_the_geometry() {
    use crate::game::Position as _;
    let tags = |t: &str| crate::record::parse_file(t)[0].tags.clone();
    let trigon = <Blokus as Setup>::start(&tags("[Game \"blokus\"]\n[Variant \"trigon\"]\n"));
    let Ok(Position::Triangles(t)) = &trigon else {
        panic!("not a Trigon position");
    };
    assert_eq!(t.variant(), "trigon");
    let moves: Vec<Move> = trigon.as_ref().unwrap().legal_moves().unwrap().collect();
    assert!(moves.iter().all(|m| matches!(m, Move::Triangle(_))));
    let duo = <Blokus as Setup>::start(&tags("[Game \"blokus\"]\n[Variant \"duo\"]\n")).unwrap();
    assert!(matches!(&duo, Position::Squares(s) if s.variant() == "duo"));
    assert_eq!(duo.legal_moves().unwrap().count(), 414);
}
