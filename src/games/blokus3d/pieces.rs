//! The 11 stones (every polycube of 2 to 4 cubes up to rotation, the two
//! screws apart) and their 104 orientations under the 24 rotations of the
//! cube. Orientations are computed once and kept in a table.

use std::sync::OnceLock;

/// A cube offset inside a stone: (x = file, y = rank, z = level), from 0.
pub type Cube = (u8, u8, u8);

/// Number of stones per colour.
pub const STONES: usize = 11;
/// Cubes per colour (all 11 stones).
pub const CUBES: u32 = 40;

/// Stone names, in table order.
pub const NAMES: [&str; STONES] = [
    "I2", "I3", "V3", "I4", "O4", "T4", "L4", "Z4", "B4", "SR", "SL",
];

/// Each stone's cubes as the spec lists them.
pub const SHAPES: [&[Cube]; STONES] = [
    &[(0, 0, 0), (1, 0, 0)],
    &[(0, 0, 0), (1, 0, 0), (2, 0, 0)],
    &[(0, 0, 0), (1, 0, 0), (0, 1, 0)],
    &[(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)],
    &[(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)],
    &[(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)],
    &[(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)],
    &[(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)],
    &[(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],
    &[(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)],
    &[(0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 1, 1)],
];

/// The index of the right screw and the left screw.
pub const SR: u8 = 9;
pub const SL: u8 = 10;

/// The stone named `name` (case-insensitive): one match on its two bytes
/// (it is read once per move).
pub fn by_name(name: &str) -> Option<u8> {
    // every name is two ASCII characters
    let &[a, b] = name.as_bytes() else {
        return None;
    };
    let stone = match (a.to_ascii_uppercase(), b.to_ascii_uppercase()) {
        (b'I', b'2') => 0,
        (b'I', b'3') => 1,
        (b'V', b'3') => 2,
        (b'I', b'4') => 3,
        (b'O', b'4') => 4,
        (b'T', b'4') => 5,
        (b'L', b'4') => 6,
        (b'Z', b'4') => 7,
        (b'B', b'4') => 8,
        (b'S', b'R') => SR,
        (b'S', b'L') => SL,
        _ => return None,
    };
    Some(stone)
}

/// A stone's name (`?` past the table).
pub fn name(stone: u8) -> &'static str {
    NAMES.get(usize::from(stone)).copied().unwrap_or("?")
}

/// One orientation: its stone and its cubes, translated so that each
/// coordinate's minimum is 0, sorted by (z, y, x).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orientation {
    pub stone: u8,
    pub cubes: Vec<Cube>,
    /// Extent along x, y, z (the largest offset plus one).
    pub size: (u8, u8, u8),
}

/// The 24 proper rotations of the cube, as signed permutation matrices.
fn rotations() -> Vec<[[i8; 3]; 3]> {
    let mut out = Vec::new();
    let perms = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    for p in perms {
        for signs in 0..8u8 {
            let mut m = [[0i8; 3]; 3];
            for (row, &col) in p.iter().enumerate() {
                if let Some(r) = m.get_mut(row)
                    && let Some(v) = r.get_mut(col)
                {
                    *v = if signs >> row & 1 == 1 { -1 } else { 1 };
                }
            }
            if det(&m) == 1 {
                out.push(m);
            }
        }
    }
    out
}

fn det(m: &[[i8; 3]; 3]) -> i8 {
    let [[a, b, c], [d, e, f], [g, h, i]] = *m;
    a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
}

/// Translates cubes so each coordinate starts at 0 and sorts them by (z, y, x).
pub fn normalise(cubes: &[(i32, i32, i32)]) -> Vec<Cube> {
    let mx = cubes.iter().map(|c| c.0).min().unwrap_or(0);
    let my = cubes.iter().map(|c| c.1).min().unwrap_or(0);
    let mz = cubes.iter().map(|c| c.2).min().unwrap_or(0);
    let mut out: Vec<Cube> = cubes
        .iter()
        .map(|&(x, y, z)| ((x - mx) as u8, (y - my) as u8, (z - mz) as u8))
        .collect();
    out.sort_by_key(|&(x, y, z)| (z, y, x));
    out
}

fn rotate(m: &[[i8; 3]; 3], cubes: &[Cube]) -> Vec<Cube> {
    let turned: Vec<(i32, i32, i32)> = cubes
        .iter()
        .map(|&(x, y, z)| {
            let v = [i32::from(x), i32::from(y), i32::from(z)];
            let row = |r: &[i8; 3]| r.iter().zip(v).map(|(&a, b)| i32::from(a) * b).sum();
            (row(&m[0]), row(&m[1]), row(&m[2]))
        })
        .collect();
    normalise(&turned)
}

fn build() -> Vec<Orientation> {
    let rots = rotations();
    let mut out: Vec<Orientation> = Vec::new();
    for (stone, shape) in SHAPES.iter().enumerate() {
        let mut seen: Vec<Vec<Cube>> = Vec::new();
        for m in &rots {
            let cubes = rotate(m, shape);
            if !seen.contains(&cubes) {
                seen.push(cubes);
            }
        }
        seen.sort();
        for cubes in seen {
            let ext = |f: fn(&Cube) -> u8| cubes.iter().map(f).max().unwrap_or(0) + 1;
            let size = (ext(|c| c.0), ext(|c| c.1), ext(|c| c.2));
            out.push(Orientation {
                stone: stone as u8,
                cubes,
                size,
            });
        }
    }
    out
}

/// Every orientation of every stone, stone by stone.
pub fn orientations() -> &'static [Orientation] {
    static TABLE: OnceLock<Vec<Orientation>> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// The orientation whose normalised cubes are `cubes`.
pub fn find(cubes: &[Cube]) -> Option<u16> {
    orientations()
        .iter()
        .position(|o| o.cubes == cubes)
        .map(|i| i as u16)
}

/// The bit of a cube in a shape's 4 x 4 x 4 box: [`key`].
fn box_bit(&(x, y, z): &Cube) -> u64 {
    if x > 3 || y > 3 || z > 3 {
        return 0;
    }
    1 << ((u32::from(z) * 4 + u32::from(y)) * 4 + u32::from(x))
}

/// The cubes of a normalised shape as bits of its 4 x 4 x 4 box (0 when a
/// cube is outside it: no stone is that long).
pub fn key(cubes: &[Cube]) -> u64 {
    cubes.iter().try_fold(0, |k, c| match box_bit(c) {
        0 => None,
        b => Some(k | b),
    })
    .unwrap_or(0)
}

/// The orientation whose cubes, translated so that each coordinate
/// starts at 0, have the box bits `key` ([`key`]).
pub fn find_key(key: u64) -> Option<u16> {
    find_key_stone(key).map(|(o, _)| o)
}

/// Slots of [`KeyTable`], as a power of 2.
const KEY_BITS: u32 = 11;

/// The orientations by their box bits: a perfect hash (a multiplier under
/// which no two keys share a slot, found once), or, should none be found,
/// the keys sorted.
struct KeyTable {
    mul: u64,
    /// (key, orientation, stone) per slot (key 0: empty).
    slots: Vec<(u64, u16, u8)>,
    sorted: Vec<(u64, u16, u8)>,
}

fn key_slot(key: u64, mul: u64) -> usize {
    (key.wrapping_mul(mul) >> (64 - KEY_BITS)) as usize
}

fn key_table() -> KeyTable {
    let mut sorted: Vec<(u64, u16, u8)> = orientations()
        .iter()
        .enumerate()
        .map(|(i, o)| (key(&o.cubes), i as u16, o.stone))
        .collect();
    sorted.sort_unstable();
    // multipliers from a fixed sequence (splitmix64): the same table on
    // every run
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..10_000 {
        seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        let mul = (z ^ (z >> 31)) | 1;
        let mut slots = vec![(0u64, 0u16, 0u8); 1 << KEY_BITS];
        let fits = sorted.iter().all(|&e| match slots.get_mut(key_slot(e.0, mul)) {
            Some(slot) if slot.0 == 0 => {
                *slot = e;
                true
            }
            _ => false,
        });
        if fits {
            return KeyTable { mul, slots, sorted };
        }
    }
    KeyTable {
        mul: 0,
        slots: Vec::new(),
        sorted,
    }
}

/// [`find_key`] with the orientation's stone.
#[inline]
pub fn find_key_stone(key: u64) -> Option<(u16, u8)> {
    static TABLE: OnceLock<KeyTable> = OnceLock::new();
    let table = TABLE.get_or_init(key_table);
    if key == 0 {
        return None;
    }
    if table.mul != 0 {
        let &(k, o, s) = table.slots.get(key_slot(key, table.mul))?;
        return (k == key).then_some((o, s));
    }
    let i = table.sorted.binary_search_by_key(&key, |e| e.0).ok()?;
    table.sorted.get(i).map(|&(_, o, s)| (o, s))
}

/// The cubes mirrored in x (a mirror image), normalised.
pub fn mirror(cubes: &[Cube]) -> Vec<Cube> {
    let m: Vec<(i32, i32, i32)> = cubes
        .iter()
        .map(|&(x, y, z)| (-i32::from(x), i32::from(y), i32::from(z)))
        .collect();
    normalise(&m)
}
