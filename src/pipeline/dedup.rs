//! Finding the games entered more than once, as they stream past: each
//! game's 128-bit digest ([`crate::game::digest`]: game, variant, rules
//! tags and moves, with `symmetric` the least over the start's symmetries,
//! [`crate::game::Symmetry`]) against the digests of the games before it.
//! A game whose digest was seen is a copy of the first game that had it.
//!
//! Memory: one entry per distinct game, its digest and the first game's
//! place (file number and game number, 8 bytes): 24 bytes in a hash table
//! kept at most 7/8 full and grown by doubling, so 28 to 57 bytes per
//! distinct game (100 million distinct games: 3 to 6 GB); a copy adds its
//! place to its group (8 bytes), a group its digest and first place; a
//! game read from a line of a game tree (Pentobi) also keeps its label.
//! No game, text or report is kept.
//!
//! Only valid games are compared (an invalid game's moves after its first
//! error are not replayed, and two different games may share the moves
//! before it): the others are counted as not compared.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::formats::SourceGame;
use crate::replay::{GameReport, Options};

/// A game's place: the file (in the order files were first seen) and the
/// game's number in it, from 0, in the order read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place {
    pub file: u32,
    pub game: u32,
}

/// A digest, as a key: two halves (8-byte aligned, unlike `u128`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key(u64, u64);

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // already a hash: one half is enough to place it
        state.write_u64(self.0);
    }
}

/// The hasher of [`Key`]s: their first half as it is.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type Table<V> = HashMap<Key, V, BuildHasherDefault<KeyHasher>>;

/// A game and its copies, in the order read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The game's digest.
    pub digest: u128,
    pub first: Place,
    pub copies: Vec<Place>,
}

/// What [`Dedup::add`] made of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// The first game with these moves.
    First,
    /// A copy of the game at that place.
    Copy(Place),
    /// Not compared: invalid, or its game could not be told.
    NotCompared,
}

/// The run's counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Every game read.
    pub games: u64,
    /// Games not compared (invalid).
    pub not_compared: u64,
    /// Distinct games among those compared.
    pub distinct: u64,
    /// Copies of an earlier game.
    pub duplicates: u64,
    /// Groups: distinct games with at least one copy.
    pub groups: u64,
}

/// The digests seen so far and the groups of copies.
#[derive(Debug, Default)]
pub struct Dedup {
    pub symmetric: bool,
    /// The files, by number.
    pub files: Vec<String>,
    /// The next game's number in the current (last) file.
    next_game: u32,
    /// The current file's record (told apart from the next one's, which
    /// may have the same name).
    last_file: usize,
    firsts: Table<Place>,
    /// The groups, by digest: their index in `groups`.
    grouped: Table<u32>,
    groups: Vec<Group>,
    /// The labels of games that are not named by their number alone.
    /// The game's index in its file and its variation, for games read from
    /// a game tree's lines (whose number is not their place's).
    labels: HashMap<Place, (usize, String)>,
    pub counts: Counts,
}

impl Dedup {
    pub fn new(symmetric: bool) -> Dedup {
        Dedup {
            symmetric,
            ..Dedup::default()
        }
    }

    /// What a replay must keep for [`Dedup::add`]: the tags and the moves.
    pub fn options(game: Option<String>, variant: Option<String>) -> Options {
        Options {
            game,
            variant,
            sink: std::sync::Arc::new(crate::replay::sink::Moves),
            check_scores: None,
        }
    }

    /// The place the next game of `file` takes.
    fn place(&mut self, g: &SourceGame) -> Place {
        let file = &g.file.name;
        let id = std::sync::Arc::as_ptr(&g.file) as usize;
        if self.last_file != id || self.files.last().is_none_or(|f| f != file) {
            self.last_file = id;
            self.files.push(file.clone());
            self.next_game = 0;
        }
        let place = Place {
            file: u32::try_from(self.files.len() - 1).unwrap_or(u32::MAX),
            game: self.next_game,
        };
        self.next_game = self.next_game.saturating_add(1);
        place
    }

    /// The digest of a game from its report (made with [`Dedup::options`]):
    /// `None` when it is not compared (invalid, or its game unknown). Any
    /// thread may work it out; [`Dedup::add`] takes it in input order.
    pub fn digest(r: &GameReport, symmetric: bool) -> Option<u128> {
        match crate::registry::by_name(r.game) {
            Some(game) if r.valid => game.digest(r, symmetric),
            _ => None,
        }
    }

    /// [`Dedup::digest`] as text (32 hexadecimal digits; empty when not
    /// compared), for a pipeline's `prepare` step; [`Dedup::add_text`]
    /// reads it back.
    pub fn digest_text(r: &GameReport, symmetric: bool) -> String {
        Dedup::digest(r, symmetric).map_or_else(String::new, |d| format!("{d:032x}"))
    }

    /// [`Dedup::add`] with the digest [`Dedup::digest_text`] wrote.
    pub fn add_text(&mut self, g: &SourceGame, digest: &str) -> Seen {
        self.add(g, u128::from_str_radix(digest, 16).ok())
    }

    /// Takes in one game, in input order, with its digest
    /// ([`Dedup::digest`]).
    pub fn add(&mut self, g: &SourceGame, digest: Option<u128>) -> Seen {
        let place = self.place(g);
        self.counts.games += 1;
        let Some(digest) = digest else {
            self.counts.not_compared += 1;
            return Seen::NotCompared;
        };
        if g.variation.is_some() || g.index != place.game as usize {
            let variation = g.variation.clone().unwrap_or_default();
            self.labels.insert(place, (g.index, variation));
        }
        let key = Key((digest >> 64) as u64, digest as u64);
        let Some(&first) = self.firsts.get(&key) else {
            self.firsts.insert(key, place);
            self.counts.distinct += 1;
            return Seen::First;
        };
        self.counts.duplicates += 1;
        let group = *self.grouped.entry(key).or_insert_with(|| {
            self.groups.push(Group {
                digest,
                first,
                copies: Vec::new(),
            });
            u32::try_from(self.groups.len() - 1).unwrap_or(u32::MAX)
        });
        if let Some(g) = self.groups.get_mut(group as usize) {
            g.copies.push(place);
        }
        self.counts.groups = self.groups.len() as u64;
        Seen::Copy(first)
    }

    /// The groups, in the order of their first games.
    pub fn groups(&self) -> Vec<&Group> {
        let mut groups: Vec<&Group> = self.groups.iter().collect();
        groups.sort_by_key(|g| g.first);
        groups
    }

    /// The file of a place.
    pub fn file(&self, place: Place) -> &str {
        self.files
            .get(place.file as usize)
            .map_or("", String::as_str)
    }

    /// The game's index in its file (from 0) and its variation, if any.
    pub fn game_of(&self, place: Place) -> (usize, Option<&str>) {
        match self.labels.get(&place) {
            Some((index, v)) => (*index, (!v.is_empty()).then_some(v.as_str())),
            None => (place.game as usize, None),
        }
    }

    /// How human output names the game at a place: `game 4`, or with its
    /// variation.
    pub fn label(&self, place: Place) -> String {
        let (index, variation) = self.game_of(place);
        crate::formats::game_label(index, variation)
    }
}
