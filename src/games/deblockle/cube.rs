//! The Deblockle block: six faces, 24 orientations, tipping.
//!
//! Faces are numbered so that a face's opposite is `face ^ 1`: star 0 / stop 1,
//! cross 2 / x 3, slider 4 / hoops 5. The handedness is fixed by the spec:
//! looking down on a block with star on top, the side faces run clockwise
//! x, hoops, cross, slider, so star up with x north puts hoops east, cross
//! south and slider west.
//!
//! Geometrically each face is an axis of the cube's own frame (star `+z`,
//! stop `-z`, x `+y`, cross `-y`, hoops `+x`, slider `-x`); with the world's
//! east = north x up, the face pointing east of an orientation with top face
//! `T` and north face `N` is the one whose vector is `N x T`. Everything is
//! computed at compile time: the 24 orientations (identified by their top and
//! north faces), their full face layout and the 24x4 tip table.

/// A face of the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Face {
    Star = 0,
    Stop = 1,
    Cross = 2,
    X = 3,
    Slider = 4,
    Hoops = 5,
}

impl Face {
    pub const ALL: [Face; 6] = [
        Face::Star,
        Face::Stop,
        Face::Cross,
        Face::X,
        Face::Slider,
        Face::Hoops,
    ];

    pub const fn from_u8(n: u8) -> Face {
        match n {
            0 => Face::Star,
            1 => Face::Stop,
            2 => Face::Cross,
            3 => Face::X,
            4 => Face::Slider,
            _ => Face::Hoops,
        }
    }

    /// The face on the other side of the block.
    pub const fn opposite(self) -> Face {
        Face::from_u8(self as u8 ^ 1)
    }

    /// The name used in setups and messages.
    pub const fn name(self) -> &'static str {
        match self {
            Face::Star => "star",
            Face::Stop => "stop",
            Face::Cross => "cross",
            Face::X => "x",
            Face::Slider => "slider",
            Face::Hoops => "hoops",
        }
    }

    /// The upper-case letter of compact drawings (`S P C X L H`).
    pub const fn letter(self) -> char {
        match self {
            Face::Star => 'S',
            Face::Stop => 'P',
            Face::Cross => 'C',
            Face::X => 'X',
            Face::Slider => 'L',
            Face::Hoops => 'H',
        }
    }

    /// A face from its name, case-insensitive: the one name of its length
    /// and first letter, compared.
    pub fn parse(name: &str) -> Option<Face> {
        let first = name.as_bytes().first()?.to_ascii_lowercase();
        let f = match (name.len(), first) {
            (1, _) => Face::X,
            (4, b's') => {
                if name.as_bytes().get(2)?.eq_ignore_ascii_case(&b'a') {
                    Face::Star
                } else {
                    Face::Stop
                }
            }
            (5, b'c') => Face::Cross,
            (5, _) => Face::Hoops,
            (6, _) => Face::Slider,
            _ => return None,
        };
        f.name().eq_ignore_ascii_case(name).then_some(f)
    }
}

/// A direction on the board; north is toward row 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Dir {
    North = 0,
    East = 1,
    South = 2,
    West = 3,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    pub const fn name(self) -> &'static str {
        match self {
            Dir::North => "north",
            Dir::East => "east",
            Dir::South => "south",
            Dir::West => "west",
        }
    }

    /// (column, row) step.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::North => (0, 1),
            Dir::East => (1, 0),
            Dir::South => (0, -1),
            Dir::West => (-1, 0),
        }
    }
}

/// Positions in a face layout: what faces which way.
pub const TOP: usize = 0;
pub const NORTH: usize = 1;
pub const EAST: usize = 2;
pub const SOUTH: usize = 3;
pub const WEST: usize = 4;
pub const BOTTOM: usize = 5;

/// The side position a direction points to (`NORTH`..`WEST`).
const fn side(d: usize) -> usize {
    1 + d
}

/// One of the 24 orientations, an index `0..24`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Orient(u8);

/// Each face as a unit vector of the block's own frame.
const VEC: [[i8; 3]; 6] = [
    [0, 0, 1],  // star
    [0, 0, -1], // stop
    [0, -1, 0], // cross
    [0, 1, 0],  // x
    [-1, 0, 0], // slider
    [1, 0, 0],  // hoops
];

const fn cross_product(a: [i8; 3], b: [i8; 3]) -> [i8; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

const fn face_of(v: [i8; 3]) -> u8 {
    let mut f = 0;
    while f < 6 {
        if VEC[f][0] == v[0] && VEC[f][1] == v[1] && VEC[f][2] == v[2] {
            return f as u8;
        }
        f += 1;
    }
    255
}

/// The full layout `[top, north, east, south, west, bottom]` of a block with
/// `top` up and `north` to the north (a side face of `top`).
const fn layout_of(top: u8, north: u8) -> [u8; 6] {
    let east = face_of(cross_product(VEC[north as usize], VEC[top as usize]));
    [top, north, east, north ^ 1, east ^ 1, top ^ 1]
}

/// Rows per orientation table: 24 orientations and 8 unused rows, so that
/// an orientation's index masked with `ROWS - 1` picks its row without a
/// bounds check or a division.
const ROWS: usize = 32;

struct Tables {
    /// Face layout of each orientation.
    layout: [[u8; 6]; ROWS],
    /// Orientation index by `[top][north]` (255: not an orientation).
    index: [[u8; 6]; 6],
    /// Orientation after tipping in each direction.
    tip: [[u8; 4]; ROWS],
    /// The top face after tipping in each direction.
    tip_top: [[u8; 4]; ROWS],
    /// Per face, the directions (bit `d`) whose tip brings that face up.
    tips_up: [[u8; 6]; ROWS],
}

const fn build() -> Tables {
    let mut t = Tables {
        layout: [[0; 6]; ROWS],
        index: [[255; 6]; 6],
        tip: [[0; 4]; ROWS],
        tip_top: [[0; 4]; ROWS],
        tips_up: [[0; 6]; ROWS],
    };
    let mut n = 0;
    let mut top = 0u8;
    while top < 6 {
        let mut north = 0u8;
        while north < 6 {
            if north != top && north != top ^ 1 {
                t.layout[n] = layout_of(top, north);
                t.index[top as usize][north as usize] = n as u8;
                n += 1;
            }
            north += 1;
        }
        top += 1;
    }
    let mut o = 0;
    while o < 24 {
        let l = t.layout[o];
        let mut d = 0;
        while d < 4 {
            // Tipping toward d: the top face comes to face d, the face on the
            // far side (opposite d) comes up, the face at d goes down, the
            // bottom comes to face the far side.
            let far = (d + 2) % 4;
            let mut n = l;
            n[TOP] = l[side(far)];
            n[side(d)] = l[TOP];
            n[BOTTOM] = l[side(d)];
            n[side(far)] = l[BOTTOM];
            t.tip[o][d] = t.index[n[TOP] as usize][n[NORTH] as usize];
            t.tip_top[o][d] = n[TOP];
            t.tips_up[o][n[TOP] as usize] |= 1 << d;
            d += 1;
        }
        o += 1;
    }
    t
}

static TABLES: Tables = build();

impl Orient {
    /// The orientation with `top` up and `north` to the north; `None` when
    /// `north` is `top` or its opposite.
    pub fn new(top: Face, north: Face) -> Option<Orient> {
        let i = *TABLES.index.get(top as usize)?.get(north as usize)?;
        (i < 24).then_some(Orient(i))
    }

    /// The orientation with this index (`0..24`).
    pub fn from_index(i: u8) -> Option<Orient> {
        (i < 24).then_some(Orient(i))
    }

    /// The orientation with index `i % 24` (no division for an index).
    #[inline]
    pub const fn wrapping(i: u8) -> Orient {
        if i < 24 { Orient(i) } else { Orient(i % 24) }
    }

    pub const fn index(self) -> u8 {
        self.0
    }

    /// This orientation's row in the tables (the index is below 24).
    #[inline(always)]
    const fn row(self) -> usize {
        self.0 as usize & (ROWS - 1)
    }

    /// The face at a layout position (`TOP`, `NORTH`, ...).
    #[inline]
    pub fn face(self, at: usize) -> Face {
        let l = TABLES.layout[self.row()];
        Face::from_u8(l.get(at).copied().unwrap_or(0))
    }

    #[inline]
    pub fn top(self) -> Face {
        self.face(TOP)
    }

    #[inline]
    pub fn north(self) -> Face {
        self.face(NORTH)
    }

    #[inline]
    pub fn east(self) -> Face {
        self.face(EAST)
    }

    /// The orientation after tipping one square toward `d`.
    #[inline]
    pub fn tip(self, d: Dir) -> Orient {
        Orient(TABLES.tip[self.row()][d as usize])
    }

    /// The top face after tipping one square toward `d`: `self.tip(d).top()`
    /// in one look-up.
    #[inline]
    pub fn tip_top(self, d: Dir) -> Face {
        Face::from_u8(TABLES.tip_top[self.row()][d as usize])
    }

    /// The directions (bit `d as u8`) in which a tip brings `face` up.
    #[inline]
    pub fn tips_up(self, face: Face) -> u8 {
        TABLES.tips_up[self.row()][face as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_24_distinct_orientations() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..24 {
            let o = Orient::from_index(i).unwrap();
            let faces: Vec<Face> = (0..6).map(|p| o.face(p)).collect();
            let mut sorted: Vec<u8> = faces.iter().map(|&f| f as u8).collect();
            sorted.sort();
            assert_eq!(sorted, [0, 1, 2, 3, 4, 5], "each face once");
            assert_eq!(o.face(BOTTOM), o.top().opposite());
            assert_eq!(o.face(SOUTH), o.north().opposite());
            assert_eq!(o.face(WEST), o.east().opposite());
            assert!(seen.insert((o.top(), o.north())));
            assert_eq!(Orient::new(o.top(), o.north()), Some(o));
        }
        assert_eq!(Orient::new(Face::Star, Face::Stop), None);
        assert_eq!(Orient::new(Face::Star, Face::Star), None);
    }

    #[test]
    fn spec_handedness() {
        // Star up with x north: hoops east, cross south, slider west.
        let o = Orient::new(Face::Star, Face::X).unwrap();
        assert_eq!(o.east(), Face::Hoops);
        assert_eq!(o.face(SOUTH), Face::Cross);
        assert_eq!(o.face(WEST), Face::Slider);
        assert_eq!(o.face(BOTTOM), Face::Stop);
        // Turning the block a quarter clockwise (seen from above) keeps the
        // clockwise order x, hoops, cross, slider.
        let o = Orient::new(Face::Star, Face::Slider).unwrap();
        assert_eq!(o.east(), Face::X);
        // Stop up (star down) reverses the order as seen from above.
        let o = Orient::new(Face::Stop, Face::X).unwrap();
        assert_eq!(o.east(), Face::Slider);
    }

    #[test]
    fn spec_record_ply_one() {
        // The c1 block, x on top and stop north, tips east: slider comes up.
        let o = Orient::new(Face::X, Face::Stop).unwrap();
        assert_eq!(o.tip(Dir::East).top(), Face::Slider);
    }

    #[test]
    fn four_tips_return_to_the_start() {
        for i in 0..24 {
            let o = Orient::from_index(i).unwrap();
            for d in Dir::ALL {
                let mut p = o;
                for k in 0..4 {
                    p = p.tip(d);
                    assert_eq!(p == o, k == 3, "{o:?} tipped {d:?} {} times", k + 1);
                }
            }
        }
    }

    #[test]
    fn tips_follow_the_spec_wording() {
        for i in 0..24 {
            let o = Orient::from_index(i).unwrap();
            // North: the south face comes on top, the top faces north, the
            // north goes to the bottom, the bottom faces south; east and west stay.
            let n = o.tip(Dir::North);
            assert_eq!(n.top(), o.face(SOUTH));
            assert_eq!(n.north(), o.top());
            assert_eq!(n.face(BOTTOM), o.north());
            assert_eq!(n.face(SOUTH), o.face(BOTTOM));
            assert_eq!(n.east(), o.east());
            assert_eq!(n.face(WEST), o.face(WEST));
            let e = o.tip(Dir::East);
            assert_eq!(e.top(), o.face(WEST));
            assert_eq!(e.east(), o.top());
            assert_eq!(e.north(), o.north());
            // Tipping back undoes a tip.
            assert_eq!(o.tip(Dir::North).tip(Dir::South), o);
            assert_eq!(o.tip(Dir::East).tip(Dir::West), o);
        }
    }

    #[test]
    fn tip_tables_agree_with_tipping() {
        for i in 0..24 {
            let o = Orient::from_index(i).unwrap();
            for f in Face::ALL {
                let mut dirs = 0;
                for d in Dir::ALL {
                    assert_eq!(o.tip_top(d), o.tip(d).top());
                    if o.tip(d).top() == f {
                        dirs |= 1 << d as u8;
                    }
                }
                assert_eq!(o.tips_up(f), dirs, "{o:?} {f:?}");
            }
        }
    }

    #[test]
    fn face_names_are_case_insensitive() {
        assert_eq!(Face::parse("HOOPS"), Some(Face::Hoops));
        assert_eq!(Face::parse("X"), Some(Face::X));
        assert_eq!(Face::parse("Slider"), Some(Face::Slider));
        assert_eq!(Face::parse("circle"), None);
        for f in Face::ALL {
            assert_eq!(Face::parse(f.name()), Some(f));
            assert_eq!(Face::parse(&f.name().to_uppercase()), Some(f));
        }
        for name in [
            "", "s", "y", "sta", "sTaR ", "stor", "spot", "crass", "hoop", "slidex", "é", "xx",
        ] {
            assert_eq!(
                Face::parse(name),
                Face::ALL
                    .into_iter()
                    .find(|f| f.name().eq_ignore_ascii_case(name)),
                "{name}"
            );
        }
    }
}
