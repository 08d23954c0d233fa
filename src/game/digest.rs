//! A game's 128-bit digest: its name, variant, rules tags and moves in
//! canonical notation, hashed by FNV-1a on 128 bits (the published FNV-128
//! prime and offset; a multiply of a `u128` per byte). With symmetries, the
//! canonical digest is the least of the digests of the game's images
//! ([`Symmetry`]). Two games with the same digest are taken for copies:
//! among 10^8 distinct games, the chance that two of them share a digest
//! is about 10^16 / 2^129, 10^-23.

use crate::game::{Notation, Symmetry};
use crate::record::{Tags, Token};
use crate::span::Span;

const FNV128_OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
const FNV128_PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;

/// FNV-1a over 128 bits.
#[derive(Clone, Copy, Debug)]
pub struct Fnv128(u128);

impl Default for Fnv128 {
    fn default() -> Self {
        Fnv128(FNV128_OFFSET)
    }
}

impl Fnv128 {
    /// Hashes `bytes` and a 0 byte after them (so that `ab`,`c` and `a`,`bc`
    /// differ).
    pub fn field(&mut self, bytes: &[u8]) {
        for &b in bytes.iter().chain([0u8].iter()) {
            self.0 ^= u128::from(b);
            self.0 = self.0.wrapping_mul(FNV128_PRIME);
        }
    }

    pub fn finish(self) -> u128 {
        self.0
    }
}

/// The hash of what makes the game's start: a version mark, the game's
/// name, the variant and the rules tags that are given (name and trimmed
/// value, in `R::RULES_TAGS`' order).
fn start_hash<R: Notation>(tags: &Tags, variant: &str) -> Fnv128 {
    let mut h = Fnv128::default();
    h.field(b"gamerec digest 1");
    h.field(R::NAME.as_bytes());
    h.field(variant.as_bytes());
    for name in R::RULES_TAGS {
        if let Some(value) = tags.value(name) {
            h.field(name.as_bytes());
            h.field(value.trim().as_bytes());
        }
    }
    h
}

/// The digest of a game of `R` from the start `tags` set up, whose moves
/// (automatic passes included) are `moves` in canonical notation; with
/// `symmetric`, the least digest of its images under the start's
/// symmetries. `None` when the start cannot be set up or the moves do not
/// read back as moves.
pub fn digest<'m, R: Notation + Symmetry>(
    tags: &Tags,
    variant: &str,
    moves: impl Iterator<Item = &'m str> + Clone,
    symmetric: bool,
) -> Option<u128> {
    let head = start_hash::<R>(tags, variant);
    if !symmetric {
        let mut h = head;
        moves.for_each(|m| h.field(m.as_bytes()));
        return Some(h.finish());
    }
    let start = R::start(tags).ok()?;
    let symmetries = R::symmetries(&start);
    if symmetries.is_identity() {
        return digest::<R>(tags, variant, moves, false);
    }
    // the moves as one text, a token per word, read back as typed moves
    let mut src = String::new();
    let mut tokens = Vec::new();
    for m in moves {
        for word in m.split_whitespace() {
            tokens.push(Token::new(Span::new(src.len(), word.len())));
            src.push_str(word);
            src.push(' ');
        }
    }
    let parsed = R::parse_moves_in(&start, &tokens, &src);
    if parsed.error.is_some() {
        return None;
    }
    symmetries
        .iter()
        .map(|s| {
            let mut h = head;
            for pm in &parsed.moves {
                h.field(R::write_move(&R::map_move(&start, s, &pm.mv)).as_bytes());
            }
            h.finish()
        })
        .min()
}
