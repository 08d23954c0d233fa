//! Blokus 3D tests: pieces, areas, notation, perft, the fast generator
//! against a slow one written from the rules.

use super::engine::{Board, Stuck};
use super::*;
use crate::game::{Explain, Notation, ParsedMoves, Position};
use crate::record::parse_file;

fn board(area: &str, colours: u8) -> Board {
    Board::new(area_of(area, colours).unwrap(), colours, Stuck::Out)
}

#[test]
fn orientation_counts() {
    let o = pieces::orientations();
    assert_eq!(o.len(), 104);
    let per: Vec<usize> = (0..pieces::STONES as u8)
        .map(|s| o.iter().filter(|x| x.stone == s).count())
        .collect();
    assert_eq!(per, [3, 3, 12, 3, 3, 12, 24, 12, 8, 12, 12]);
    let by_size = |n: usize| o.iter().filter(|x| x.cubes.len() == n).count();
    assert_eq!((by_size(2), by_size(3), by_size(4)), (3, 15, 86));
}

#[test]
fn screws_are_mirror_images_not_rotations() {
    let o = pieces::orientations();
    let sr = pieces::normalise(
        &pieces::SHAPES[usize::from(pieces::SR)]
            .iter()
            .map(|&(x, y, z)| (i32::from(x), i32::from(y), i32::from(z)))
            .collect::<Vec<_>>(),
    );
    let rots: Vec<_> = o.iter().filter(|x| x.stone == pieces::SR).collect();
    assert!(rots.iter().any(|x| x.cubes == sr));
    let m = pieces::mirror(&sr);
    assert!(
        !rots.iter().any(|x| x.cubes == m),
        "SR's mirror is a rotation"
    );
    let found = pieces::find(&m).map(|i| o[usize::from(i)].stone);
    assert_eq!(found, Some(pieces::SL));
    // No other stone is chiral.
    for s in 0..pieces::SR {
        let first = o.iter().find(|x| x.stone == s).unwrap();
        let mi = pieces::find(&pieces::mirror(&first.cubes)).unwrap();
        assert_eq!(o[usize::from(mi)].stone, s, "{}", pieces::name(s));
    }
}

fn perft(area: &str, colours: u8, depth: u32) -> u64 {
    engine::perft(&board(area, colours), depth)
}

#[test]
fn perft_tower() {
    for colours in 2..=4 {
        assert_eq!(perft("tower", colours, 1), 687);
        assert_eq!(perft("tower", colours, 2), 165_662);
    }
}

#[test]
fn perft_cubes() {
    assert_eq!(perft("cube3", 2, 1), 214);
    assert_eq!(perft("cube3", 2, 2), 18_004);
    assert_eq!(perft("cube3", 2, 3), 846_924);
    assert_eq!(perft("cube4", 4, 1), 513);
    assert_eq!(perft("cube4", 4, 2), 101_336);
    assert_eq!(perft("cube5", 4, 1), 919);
    assert_eq!(perft("cube5", 4, 2), 266_872);
}

/// Every placement of colour `c` by brute force: each orientation of each
/// unplaced stone at every file, rank and level, judged rule by rule.
fn slow_moves(b: &Board, c: u8) -> Vec<String> {
    let a = &*b.area;
    let filled = |x: i32, y: i32, z: i32| -> Option<u8> {
        if x < 0 || y < 0 || z < 0 || x >= 16 || y >= 16 {
            return None;
        }
        b.owner(engine::col(x as u8, y as u8), z as u8)
    };
    let mut out = Vec::new();
    for (oi, o) in pieces::orientations().iter().enumerate() {
        if b.used[usize::from(c)] >> o.stone & 1 == 1 {
            continue;
        }
        for z in 0..9i32 {
            for y in 0..16i32 {
                for x in 0..16i32 {
                    let cubes: Vec<(i32, i32, i32)> = o
                        .cubes
                        .iter()
                        .map(|&(dx, dy, dz)| {
                            (x + i32::from(dx), y + i32::from(dy), z + i32::from(dz))
                        })
                        .collect();
                    // In the area and within the limits.
                    if !cubes.iter().all(|&(cx, cy, cz)| {
                        cx < 16 && cy < 16 && cz < i32::from(a.limit_at(cx as u8, cy as u8))
                    }) {
                        continue;
                    }
                    // Empty.
                    if cubes
                        .iter()
                        .any(|&(cx, cy, cz)| filled(cx, cy, cz).is_some())
                    {
                        continue;
                    }
                    // Supported: every level under each cube holds a cube.
                    let mine = |p: (i32, i32, i32)| cubes.contains(&p);
                    if !cubes.iter().all(|&(cx, cy, cz)| {
                        (0..cz).all(|k| mine((cx, cy, k)) || filled(cx, cy, k).is_some())
                    }) {
                        continue;
                    }
                    let touching = |own: bool| {
                        cubes.iter().any(|&(cx, cy, cz)| {
                            [
                                (1, 0, 0),
                                (-1, 0, 0),
                                (0, 1, 0),
                                (0, -1, 0),
                                (0, 0, 1),
                                (0, 0, -1),
                            ]
                            .iter()
                            .any(|&(ex, ey, ez)| {
                                filled(cx + ex, cy + ey, cz + ez).is_some_and(|o| !own || o == c)
                            })
                        })
                    };
                    let ok = if b.cubes == 0 {
                        true
                    } else if b.first_own(c) {
                        cubes.iter().any(|p| p.2 == 0) && touching(false)
                    } else {
                        touching(true)
                    };
                    if ok {
                        out.push(notation::write_at(oi as u16, x as u8, y as u8, z as u8));
                    }
                }
            }
        }
    }
    out.sort();
    out
}

fn fast_moves(b: &Board) -> Vec<String> {
    let mut out = Vec::new();
    b.each_move(b.to_move, |i, z| {
        let fp = &b.area.fps[usize::from(i)];
        out.push(notation::write_at(fp.orient, fp.x, fp.y, z));
        true
    });
    out.sort();
    out
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn fast_generator_matches_slow_one_on_random_games() {
    let areas = [
        ("tower", 4, Stuck::Out),
        ("tower", 2, Stuck::Skip),
        ("cube3", 1, Stuck::Out),
        ("cube4", 3, Stuck::Skip),
        ("map:3.3/343/3.3", 2, Stuck::Out),
        ("map:..2./9999/1.1.", 3, Stuck::Out),
        // Over 64 cells: judged without the masks.
        (
            "map:3.2222222/222222222/222222222/222222222/222222222/222222222/222222222/22222222.",
            4,
            Stuck::Out,
        ),
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut positions = 0;
    for (area, colours, stuck) in areas {
        for _ in 0..4 {
            let mut b = Board::new(area_of(area, colours).unwrap(), colours, stuck);
            while !b.is_over() {
                let fast = fast_moves(&b);
                assert_eq!(fast, slow_moves(&b, b.to_move), "{area}");
                // what has_move keeps between placements is what a search finds
                for c in 0..b.colours {
                    assert_eq!(b.has_move(c), b.each_move(c, |_, _| false), "{area}");
                }
                assert_eq!(b.count_moves(b.to_move), fast.len() as u64, "{area}");
                positions += 1;
                let mut picks = Vec::new();
                b.each_move(b.to_move, |i, z| {
                    picks.push((i, z));
                    true
                });
                if picks.is_empty() {
                    b.pass();
                } else {
                    let (i, z) = picks[(rng.next() % picks.len() as u64) as usize];
                    b.place(i, z);
                }
            }
            for c in 0..b.colours {
                assert!(b.out >> c & 1 == 1 || b.done(c) || slow_moves(&b, c).is_empty());
            }
        }
    }
    assert!(positions > 300, "{positions}");
    assert!(
        area_of(
            "map:3.2222222/222222222/222222222/222222222/222222222/222222222/222222222/22222222.",
            4
        )
        .unwrap()
        .shapes
        .is_empty()
    );
    assert!(!area_of("tower", 4).unwrap().shapes.is_empty());
}

fn replay(text: &str) -> Result<State, (String, String)> {
    let g = &parse_file(text)[0];
    let mut s =
        Blokus3d::start(&g.tags).map_err(|e| (e[0].code.to_string(), e[0].message.clone()))?;
    let parsed = ParsedMoves::read(|m| Blokus3d::parse_moves_into(&s, &g.tokens, text, m));
    for m in &parsed.moves {
        if s.must_pass() && !State::is_pass(&m.mv) {
            s.board.pass();
        }
        let before = s.clone();
        if let Err(why) = s.play(&m.mv) {
            assert_eq!(
                format!("{s:?}"),
                format!("{before:?}"),
                "refused, unchanged"
            );
            let d = Blokus3d::explain(&s, m, why);
            return Err((d.code.to_string(), d.message));
        }
    }
    if let Some(d) = parsed.error {
        return Err((d.code.to_string(), d.message));
    }
    Ok(s)
}

fn err(text: &str) -> String {
    replay(text).err().map(|e| e.0).unwrap_or_default()
}

#[test]
fn notation_errors() {
    let g = "[Game \"blokus3d\"]\n[Players \"2\"]\n";
    let e = |m: &str| err(&format!("{g}{m}"));
    assert_eq!(e("a1.1,q1.1"), "blokus3d::not_a_cell");
    assert_eq!(e("a1.1,a01.1"), "blokus3d::not_a_cell");
    assert_eq!(e("a1.1,a1.0"), "blokus3d::not_a_cell");
    assert_eq!(e("a1.1,a1"), "blokus3d::not_a_cell");
    assert_eq!(e("a1.1,"), "blokus3d::not_a_cell");
    assert_eq!(e("a1.1,A1.1"), "blokus3d::repeated_cell");
    assert_eq!(e("a1.1,c1.1"), "blokus3d::not_a_piece");
    assert_eq!(e("a1.1"), "blokus3d::not_a_piece");
    assert_eq!(e("a1.1,b1.1,c1.1,d1.1,e1.1"), "blokus3d::not_a_piece");
    assert_eq!(e("I3:a1.1,b1.1"), "blokus3d::wrong_piece_name");
    assert_eq!(e("Q9:a1.1,b1.1"), "blokus3d::wrong_piece_name");
    assert_eq!(e("SR:a1.1,a2.1,b2.1,b2.2"), "blokus3d::wrong_piece_name");
    assert!(replay(&format!("{g}SL:a1.1,a2.1,b2.1,b2.2")).is_ok());
}

#[test]
fn rule_errors() {
    let g = "[Game \"blokus3d\"]\n[Players \"2\"]\n";
    let e = |m: &str| err(&format!("{g}{m}"));
    assert_eq!(
        e("I2:a1.1,b1.1 I2:a2.1,b2.1 I2:c1.1,d1.1"),
        "blokus3d::piece_used"
    );
    assert_eq!(e("I2:e4.1,f4.1"), "blokus3d::not_a_cell");
    assert_eq!(e("I2:a5.1,b5.1"), "blokus3d::not_a_cell");
    assert_eq!(e("I2:a1.1,b1.1 I3:a1.1,a2.1,a3.1"), "blokus3d::occupied");
    assert_eq!(e("I2:a1.2,b1.2"), "blokus3d::unsupported");
    assert_eq!(
        e("I4:a1.1,a1.2,a1.3,a1.4 I2:a1.5,a2.5"),
        "blokus3d::unsupported"
    );
    assert_eq!(
        e("I4:a1.1,a1.2,a1.3,a1.4 I2:a1.5,a1.6"),
        "blokus3d::too_high"
    );
    assert_eq!(e("I2:a1.1,b1.1 I2:a1.2,b1.2"), "blokus3d::first_off_base");
    assert_eq!(e("I2:a1.1,b1.1 I2:d4.1,e4.1"), "blokus3d::first_no_contact");
    assert_eq!(
        e("I2:a1.1,b1.1 I2:a2.1,b2.1 I3:e1.1,e2.1,e3.1"),
        "blokus3d::no_contact"
    );
    assert_eq!(e("pass"), "blokus3d::illegal_pass");
    assert!(replay(&format!("{g}I2:a1.1,b1.1 I2:a2.1,b2.1 V3:a1.2,b1.2,a2.2")).is_ok());
}

/// The typed reasons name the cube at fault by its index in the move as
/// written, with the numbers the message gives.
#[test]
fn illegal_reasons() {
    let g = "[Game \"blokus3d\"]\n[Players \"2\"]\n";
    let refused = |before: &str, mv: &str| {
        let mut s = replay(&format!("{g}{before}")).unwrap();
        let (mv, _) = notation::read(mv, crate::span::Span::new(0, mv.len())).unwrap();
        s.play(&mv).unwrap_err()
    };
    assert_eq!(refused("", "I2:e4.1,f4.1"), Illegal::NotACell { cube: 1 });
    assert_eq!(
        refused("I2:a1.1,b1.1", "I3:a3.1,a2.1,a1.1"),
        Illegal::Occupied {
            cube: 2,
            owner: Some(0)
        }
    );
    assert_eq!(
        refused("I4:a1.1,a1.2,a1.3,a1.4", "I2:a2.5,a1.5"),
        Illegal::Unsupported { cube: 0, height: 0 }
    );
    assert_eq!(
        refused("I4:a1.1,a1.2,a1.3,a1.4", "I2:a1.5,a1.6"),
        Illegal::TooHigh { cube: 0, limit: 4 }
    );
    assert_eq!(
        refused("I2:a1.1,b1.1 I2:a2.1,b2.1", "I2:c1.1,d1.1"),
        Illegal::PieceUsed { stone: 0 }
    );
    assert_eq!(refused("", "pass"), Illegal::Pass);
}

#[test]
fn tag_errors() {
    let e = |t: &str| err(&format!("[Game \"blokus3d\"]\n{t}\n"));
    assert_eq!(e("[Area \"cube6\"]"), "blokus3d::bad_area");
    assert_eq!(e("[Players \"5\"]"), "blokus3d::bad_players");
    assert_eq!(e("[Variant \"duo\"]"), "blokus3d::bad_variant");
    assert_eq!(
        e("[Variant \"two-colours\"]\n[Players \"3\"]"),
        "blokus3d::bad_variant"
    );
    assert_eq!(e("[Stuck \"wait\"]"), "blokus3d::bad_stuck");
}

#[test]
fn map_errors_name_row_and_character() {
    assert_eq!(
        parse_map("333/3x3/333").unwrap_err().to_string(),
        "row 2 of the map (from the top), character 2: `x` is not a limit (1 to 9) or `.`"
    );
    assert!(parse_map("333/33/333").unwrap_err().to_string().contains("row 2"));
    assert!(parse_map("333//333").unwrap_err().to_string().contains("row 2"));
    assert!(parse_map("000/...").unwrap_err().to_string().contains("no column"));
    assert!(
        parse_map(&"1".repeat(17))
            .unwrap_err()
            .to_string()
            .contains("at most 16")
    );
    let (w, h, l) = parse_map("12/34").unwrap();
    assert_eq!((w, h), (2, 2));
    assert_eq!(l, [3, 4, 1, 2], "rank 1 first");
}

#[test]
fn example_record_scores() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/blokus3d/valid/example.gamerec"
    ))
    .unwrap();
    let s = replay(&text).unwrap();
    assert!(s.is_over());
    assert_eq!(s.scores(), [9, 7]);
    assert_eq!((s.board.visible(0), s.board.visible(1)), (11, 9));
    assert_eq!(
        render::rows(&s),
        [
            "B3 B3 B4 B4 B1",
            "Y1 Y3 B4 Y4 Y3",
            "Y4 B4 B3 B4 Y2",
            "Y3 Y4 B3 B3 Y4"
        ]
    );
}

#[test]
fn writer_sorts_by_level_rank_file() {
    let src = "d2.2,d3.1,d2.1,d1.1";
    let g = &parse_file(src)[0];
    let s = Blokus3d::start(&g.tags).unwrap();
    let p = ParsedMoves::read(|m| Blokus3d::parse_moves_into(&s, &g.tokens, src, m));
    assert_eq!(
        Blokus3d::write_move(&p.moves[0].mv),
        "T4:d1.1,d2.1,d3.1,d2.2"
    );
}

#[test]
fn plain_reader_agrees_with_the_checked_one() {
    use crate::span::Span;
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let alphabet = b"adpqADP0123456789.,:I2I3V3L4SRSLT4x";
    let mut tokens: Vec<String> = Vec::new();
    // every placement on an empty cube5, named and not, in another order
    let b = board("cube5", 1);
    b.each_move(0, |i, z| {
        let fp = &b.area.fps[usize::from(i)];
        let t = notation::write_at(fp.orient, fp.x, fp.y, z + 2);
        let body = t.split_once(':').unwrap().1.to_string();
        let mut parts: Vec<&str> = body.split(',').collect();
        parts.reverse();
        tokens.push(t.clone());
        tokens.push(t.to_uppercase());
        tokens.push(parts.join(","));
        tokens.push(format!("SR:{body}"));
        true
    });
    for t in ["p16.9,p15.9", "a1.1,a1.1", "a10.1,a11.1", "a17.1,a16.1", "a01.1,a1.2", "d2.1,"] {
        tokens.push(t.into());
    }
    // and mangled ones
    let base = tokens.clone();
    for t in base.iter().step_by(7) {
        let mut bytes = t.clone().into_bytes();
        let k = (rng.next() % bytes.len() as u64) as usize;
        bytes[k] = alphabet[(rng.next() % alphabet.len() as u64) as usize];
        tokens.push(String::from_utf8(bytes).unwrap());
    }
    let mut plain = 0;
    for t in &tokens {
        let whole = Span::new(3, t.len());
        let checked = notation::read_checked(t, whole).ok();
        if let Some(read) = notation::read_plain(t, whole) {
            plain += 1;
            assert_eq!(Some(read), checked, "{t}");
        }
    }
    assert!(plain > tokens.len() / 2, "{plain} of {}", tokens.len());
}

#[test]
fn stone_names_and_shape_keys_look_up_as_the_tables_say() {
    for a in 0u8..128 {
        for b in 0u8..128 {
            let bytes = [a, b];
            let name = std::str::from_utf8(&bytes).unwrap();
            let want = pieces::NAMES
                .iter()
                .position(|n| n.eq_ignore_ascii_case(name))
                .map(|i| i as u8);
            assert_eq!(pieces::by_name(name), want, "{name:?}");
        }
    }
    let mut keys = std::collections::HashMap::new();
    for (i, o) in pieces::orientations().iter().enumerate() {
        keys.insert(pieces::key(&o.cubes), (i as u16, o.stone));
    }
    assert_eq!(keys.len(), pieces::orientations().len());
    // every set of 1 to 4 cells of the 4 x 4 x 4 box
    let mut sets = vec![0u64];
    for _ in 0..4 {
        let mut next = Vec::new();
        for &k in &sets {
            let top = if k == 0 { 0 } else { 64 - k.leading_zeros() };
            for bit in top..64 {
                let key = k | 1 << bit;
                assert_eq!(pieces::find_key_stone(key), keys.get(&key).copied());
                next.push(key);
            }
        }
        sets = next;
    }
    assert_eq!(pieces::find_key_stone(0), None);
}
