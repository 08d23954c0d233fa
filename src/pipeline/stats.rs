//! What a collection of games holds (`gamerec stats`): counts per game and
//! variant, results by seat, score and length distributions, the most
//! frequent openings with their results, and the players with the most
//! games.
//!
//! [`Stats::add`] counts one replayed game from its [`GameReport`] (replayed
//! with [`Stats::options`]: every tag kept and the moves recorded) and keeps
//! nothing of it past the call: memory is bounded by the distinct keys
//! counted (scores, lengths, openings, players), not by the games.
//!
//! What is counted, per group (a game and its variant):
//!
//! - `games`, `valid`, `invalid` (a game with an error), `unfinished` (valid
//!   but not over), as `validate`'s summary counts them;
//! - results by seat, over the *finished* games (valid and over): a win (the
//!   seat is the only winner), a draw (the seat is one of several winners), a
//!   loss (another seat won); a finished game without a winner is counted in
//!   `no_winner` and for no seat;
//! - the score distribution per seat over the finished games: the replay's
//!   final scores (Reversi: black's and white's discs, with the empty
//!   squares given to the winner in the `wof` variant);
//! - the recorded score distribution per seat: the scores the `Result` tag
//!   claims, for every game whose `Result` gives one score per seat,
//!   finished or not, valid or not (a WTHOR record's stored score);
//! - the length distribution: plies (passes included, as the report counts
//!   them) of the valid games, finished or not;
//! - openings: the first [`StatsOptions::opening_plies`] plies (passes
//!   included) of every valid game at least that long, with the results of
//!   the finished ones. Reversi openings on the 8x8 board from the standard
//!   start (no `Setup` or `Size` tag) are counted up to the board's
//!   symmetries that keep the start position (the two diagonal reflections
//!   and the half turn): each opening is turned so that its first move is
//!   `f5`, as Othello players write openings (`d3`, `c4`, `e6` openings are
//!   counted as the `f5` openings they mirror);
//! - players: the name in each seat's player tag (`Black`, `White`,
//!   `Player1`, ...), counted in every game that names them, with their wins,
//!   draws and losses in finished games.
//!
//! The bound: at most [`StatsOptions::max_keys`] distinct openings and as
//! many distinct players are counted per group; once a table is full, a game
//! with a new key is counted in the table's `untracked` count (never
//! dropped silently), and the keys already in the table keep their exact
//! counts. Score and length tables hold one entry per distinct value.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value, json};

use crate::replay::{GameReport, Options};

/// The default number of plies of an opening.
pub const DEFAULT_OPENING_PLIES: usize = 6;
/// The default bound on distinct openings and players per group.
pub const DEFAULT_MAX_KEYS: usize = 100_000;

/// What [`Stats`] counts.
#[derive(Clone, Copy, Debug)]
pub struct StatsOptions {
    /// The plies of an opening (0: no openings counted).
    pub opening_plies: usize,
    /// The most distinct openings, and the most distinct players, counted per
    /// group.
    pub max_keys: usize,
}

impl Default for StatsOptions {
    fn default() -> Self {
        StatsOptions {
            opening_plies: DEFAULT_OPENING_PLIES,
            max_keys: DEFAULT_MAX_KEYS,
        }
    }
}

/// One seat's results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Results {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// How often each value occurred.
pub type Distribution = BTreeMap<i64, u64>;

/// An opening's games and their results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    /// Valid games that begin with it.
    pub games: u64,
    /// Of them, those that are over.
    pub finished: u64,
    /// Results by seat, in seat order, over the finished games.
    pub results: Vec<Results>,
    /// Finished games without a winner.
    pub no_winner: u64,
}

/// A player's games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// Games whose player tags name them (a game naming them in two seats
    /// counts once per seat).
    pub games: u64,
    /// Their results in finished games.
    pub results: Results,
}

/// A table of distinct keys bounded in size.
#[derive(Clone, Debug, Default)]
pub struct Table<T> {
    pub entries: HashMap<Box<str>, T>,
    /// Games with a key that found the table full.
    pub untracked: u64,
}

impl<T: Default> Table<T> {
    /// The entry of `key`, made if there is room.
    fn entry(&mut self, key: &str, max: usize) -> Option<&mut T> {
        if !self.entries.contains_key(key) {
            if self.entries.len() >= max {
                self.untracked += 1;
                return None;
            }
            self.entries.insert(key.into(), T::default());
        }
        self.entries.get_mut(key)
    }

    /// The entries sorted by `count` (most first, then by key), the first `top`.
    pub fn top(&self, top: usize, count: impl Fn(&T) -> u64) -> Vec<(&str, &T)> {
        let mut v: Vec<(&str, &T)> = self.entries.iter().map(|(k, t)| (&**k, t)).collect();
        v.sort_by(|a, b| count(b.1).cmp(&count(a.1)).then(a.0.cmp(b.0)));
        v.truncate(top);
        v
    }
}

/// The counts of one game and variant.
#[derive(Clone, Debug, Default)]
pub struct Group {
    pub game: &'static str,
    pub variant: &'static str,
    /// The seats, in seat order (empty when no game of the group got past
    /// its tags).
    pub seats: &'static [&'static str],
    pub games: u64,
    pub valid: u64,
    pub invalid: u64,
    pub unfinished: u64,
    /// Results by seat over the finished games.
    pub results: Vec<Results>,
    /// Finished games without a winner.
    pub no_winner: u64,
    /// Final scores by seat over the finished games.
    pub scores: Vec<Distribution>,
    /// The `Result` tag's scores by seat.
    pub recorded: Vec<Distribution>,
    /// Plies of the valid games.
    pub lengths: Distribution,
    pub openings: Table<Opening>,
    pub players: Table<Player>,
}

/// The counts of a run, per game and variant.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub options: StatsOptions,
    /// Keyed by game and variant (an unknown game: both empty).
    pub groups: BTreeMap<(&'static str, &'static str), Group>,
    /// Reused for each game's opening.
    key: String,
}

/// Which seat of a finished game won, drew or lost.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Results {
    fn add(&mut self, o: Outcome) {
        match o {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }
}

/// The outcome of each seat of a finished game (none without a winner).
fn outcomes(r: &GameReport) -> Option<impl Iterator<Item = Outcome> + '_> {
    if !(r.valid && r.over) || r.winners.is_empty() {
        return None;
    }
    let shared = r.winners.len() > 1;
    Some(r.seats.iter().map(move |s| {
        match (r.winners.contains(s), shared) {
            (true, false) => Outcome::Win,
            (true, true) => Outcome::Draw,
            (false, _) => Outcome::Loss,
        }
    }))
}

/// Counts a finished game's results into `results` (one per seat) or `no_winner`.
fn add_results(r: &GameReport, results: &mut Vec<Results>, no_winner: &mut u64) {
    if !(r.valid && r.over) {
        return;
    }
    if results.len() < r.seats.len() {
        results.resize(r.seats.len(), Results::default());
    }
    match outcomes(r) {
        Some(each) => results.iter_mut().zip(each).for_each(|(t, o)| t.add(o)),
        None => *no_winner += 1,
    }
}

/// The value of the tag `name`.
fn tag<'r>(r: &'r GameReport, name: &str) -> Option<&'r str> {
    r.tags
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The player tag of a seat: the seat's name capitalised (`black` reads
/// `Black`, `player1` reads `Player1`), its value trimmed, when not empty.
pub fn player_of<'r>(r: &'r GameReport, seat: &str) -> Option<&'r str> {
    player_tag(r, seat).map(str::trim)
}

/// The value of a seat's player tag as written, when not blank.
pub fn player_tag<'r>(r: &'r GameReport, seat: &str) -> Option<&'r str> {
    let mut chars = seat.chars();
    let first = chars.next()?;
    r.tags
        .iter()
        .find(|(k, _)| {
            let mut kc = k.chars();
            kc.next() == Some(first.to_ascii_uppercase()) && kc.as_str() == chars.as_str()
        })
        .map(|(_, v)| v.as_str())
        .filter(|v| !v.trim().is_empty())
}

impl Stats {
    pub fn new(options: StatsOptions) -> Stats {
        Stats {
            options,
            ..Stats::default()
        }
    }

    /// What a replay must keep for [`Stats::add`]: every tag (players,
    /// `Result`, `Setup`) and the moves (openings); nothing else.
    pub fn options(game: Option<String>) -> Options {
        Options {
            game,
            variant: None,
            sink: std::sync::Arc::new(crate::replay::sink::Moves),
            check_scores: None,
        }
    }

    /// Counts one game.
    pub fn add(&mut self, r: &GameReport) {
        let options = self.options;
        let group = self
            .groups
            .entry((r.game, r.variant))
            .or_insert_with(|| Group {
                game: r.game,
                variant: r.variant,
                ..Group::default()
            });
        if group.seats.is_empty() {
            group.seats = r.seats;
        }
        group.count(r);
        group.add_recorded(r);
        group.add_players(r, options.max_keys);
        if options.opening_plies > 0 && r.valid && r.moves.len() >= options.opening_plies {
            opening_key(r, options.opening_plies, &mut self.key);
            group.add_opening(r, &self.key, options.max_keys);
        }
    }

    /// The groups in order (by game, then variant).
    pub fn groups(&self) -> impl Iterator<Item = &Group> {
        self.groups.values()
    }

    /// The counts of every group added up.
    pub fn total(&self) -> super::Summary {
        let mut s = super::Summary::default();
        for g in self.groups.values() {
            s.games += g.games as usize;
            s.valid += g.valid as usize;
            s.invalid += g.invalid as usize;
            s.unfinished += g.unfinished as usize;
        }
        s
    }
}

impl Group {
    /// The game's counts, result, score and length.
    fn count(&mut self, r: &GameReport) {
        self.games += 1;
        if !r.valid {
            self.invalid += 1;
            return;
        }
        self.valid += 1;
        *self.lengths.entry(r.plies as i64).or_default() += 1;
        if !r.over {
            self.unfinished += 1;
            return;
        }
        add_results(r, &mut self.results, &mut self.no_winner);
        if self.scores.len() < r.scores.len() {
            self.scores.resize_with(r.scores.len(), Distribution::new);
        }
        for (d, &v) in self.scores.iter_mut().zip(&r.scores) {
            *d.entry(v).or_default() += 1;
        }
    }

    /// The `Result` tag's scores, when it gives one per seat.
    fn add_recorded(&mut self, r: &GameReport) {
        let seats = r.seats.len();
        let Some(result) = tag(r, "Result") else {
            return;
        };
        if seats == 0 || crate::record::each_result_score(result, |_| ()) != Some(seats) {
            return;
        }
        if self.recorded.len() < seats {
            self.recorded.resize_with(seats, Distribution::new);
        }
        let mut k = 0;
        crate::record::each_result_score(result, |v| {
            if let Some(d) = self.recorded.get_mut(k) {
                *d.entry(v).or_default() += 1;
            }
            k += 1;
        });
    }

    /// Each seat's player.
    fn add_players(&mut self, r: &GameReport, max: usize) {
        let mut each = outcomes(r).into_iter().flatten();
        for seat in r.seats {
            let outcome = each.next();
            let Some(name) = player_of(r, seat) else {
                continue;
            };
            let Some(p) = self.players.entry(name, max) else {
                continue;
            };
            p.games += 1;
            if let Some(o) = outcome {
                p.results.add(o);
            }
        }
    }

    /// The game's opening, `key`.
    fn add_opening(&mut self, r: &GameReport, key: &str, max: usize) {
        let Some(o) = self.openings.entry(key, max) else {
            return;
        };
        o.games += 1;
        if r.over {
            o.finished += 1;
        }
        add_results(r, &mut o.results, &mut o.no_winner);
    }
}

/// The first `plies` moves of the game, separated by spaces, into `key`
/// (a Reversi opening from the standard start turned to begin with the
/// square `f5` is on its board).
fn opening_key(r: &GameReport, plies: usize, key: &mut String) {
    key.clear();
    let moves = r.moves.iter().take(plies);
    let size = reversi_symmetric(r);
    let turn = size.and_then(|n| {
        let first = moves.clone().find_map(|m| square(&m.notation, n))?;
        Some((n, to_f5(first, n)))
    });
    for (i, m) in moves.enumerate() {
        if i > 0 {
            key.push(' ');
        }
        match (turn, size.and_then(|n| square(&m.notation, n))) {
            (Some((n, t)), Some(sq)) if t != 0 => {
                let (f, rank) = transform(t, sq, n);
                key.push(char::from(b'a' + f));
                key.push_str(&(u32::from(rank) + 1).to_string());
            }
            _ => key.push_str(&m.notation),
        }
    }
}

/// The board's side when the game is Reversi from the standard start (no
/// `Setup` tag): the `Size` tag's, 8 without one.
fn reversi_symmetric(r: &GameReport) -> Option<u8> {
    if r.game != "reversi" || tag(r, "Setup").is_some() {
        return None;
    }
    match tag(r, "Size") {
        None => Some(8),
        Some(s) => s.trim().parse().ok().filter(|n| (4..=16).contains(n)),
    }
}

/// A square of the `n`x`n` board (`f5`, `F5`, `c12`) as file and rank from 0.
fn square(notation: &str, n: u8) -> Option<(u8, u8)> {
    let (&f, rank) = notation.as_bytes().split_first()?;
    let f = f.to_ascii_lowercase().checked_sub(b'a')?;
    if rank.is_empty() || rank.len() > 2 || !rank.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let rank: u8 = std::str::from_utf8(rank).ok()?.parse().ok()?;
    (f < n && (1..=n).contains(&rank)).then(|| (f, rank - 1))
}

/// The symmetry (0 identity, 1 half turn, 2 the a1 diagonal, 3 the other
/// diagonal) that takes the square `first` to the square `f5` is on an 8x8
/// board (the one `n / 2 + 1` files and `n / 2` ranks from `a1` on the
/// `n`x`n` board): identity when none does (not a first move from the
/// standard start). Each is its own inverse.
fn to_f5(first: (u8, u8), n: u8) -> u8 {
    let f5 = (n / 2 + 1, n / 2);
    (0..4).find(|&t| transform(t, f5, n) == first).unwrap_or(0)
}

/// The square `(file, rank)` of the `n`x`n` board under the symmetry `t`.
fn transform(t: u8, (f, r): (u8, u8), n: u8) -> (u8, u8) {
    let m = n.saturating_sub(1);
    match t {
        1 => (m.saturating_sub(f), m.saturating_sub(r)),
        2 => (r, f),
        3 => (m.saturating_sub(r), m.saturating_sub(f)),
        _ => (f, r),
    }
}

/// The lower median of a distribution.
pub fn median(d: &Distribution) -> Option<i64> {
    let n: u64 = d.values().sum();
    if n == 0 {
        return None;
    }
    let mut seen = 0;
    let half = (n - 1) / 2;
    d.iter().find_map(|(&v, &c)| {
        seen += c;
        (seen > half).then_some(v)
    })
}

/// The mean of a distribution.
pub fn mean(d: &Distribution) -> Option<f64> {
    let n: u64 = d.values().sum();
    (n > 0).then(|| d.iter().map(|(&v, &c)| v as f64 * c as f64).sum::<f64>() / n as f64)
}

/// A distribution as JSON: `count`, `min`, `median`, `max`, `mean` (two
/// decimals; all null when empty) and `values`, an object from each value
/// (as a string: JSON keys are strings) to its count, in increasing order of
/// value.
pub fn distribution_json(d: &Distribution) -> Value {
    let mean = mean(d).map(|m| (m * 100.0).round() / 100.0);
    json!({
        "count": d.values().sum::<u64>(),
        "min": d.keys().next(),
        "median": median(d),
        "max": d.keys().next_back(),
        "mean": mean,
        "values": d.iter().map(|(v, c)| (v.to_string(), json!(c))).collect::<Map<_, _>>(),
    })
}

/// Results by seat as JSON: `{seat: {wins, draws, losses}}`.
fn results_json(seats: &[&str], results: &[Results]) -> Value {
    let mut m = Map::new();
    for (k, s) in seats.iter().enumerate() {
        let r = results.get(k).copied().unwrap_or_default();
        m.insert(
            s.to_string(),
            json!({ "wins": r.wins, "draws": r.draws, "losses": r.losses }),
        );
    }
    Value::Object(m)
}

/// Distributions by seat as JSON: `{seat: distribution}`.
fn seats_json(seats: &[&str], ds: &[Distribution]) -> Value {
    let empty = Distribution::new();
    let m: Map<String, Value> = seats
        .iter()
        .enumerate()
        .map(|(k, s)| (s.to_string(), distribution_json(ds.get(k).unwrap_or(&empty))))
        .collect();
    Value::Object(m)
}

impl Group {
    /// The group as JSON, with the `top` openings and players.
    pub fn json(&self, top: usize, opening_plies: usize) -> Value {
        let openings: Vec<Value> = self
            .openings
            .top(top, |o| o.games)
            .into_iter()
            .map(|(moves, o)| {
                json!({
                    "moves": moves,
                    "games": o.games,
                    "finished": o.finished,
                    "results": results_json(self.seats, &o.results),
                    "no_winner": o.no_winner,
                })
            })
            .collect();
        let players: Vec<Value> = self
            .players
            .top(top, |p| p.games)
            .into_iter()
            .map(|(name, p)| {
                json!({
                    "name": name,
                    "games": p.games,
                    "wins": p.results.wins,
                    "draws": p.results.draws,
                    "losses": p.results.losses,
                })
            })
            .collect();
        json!({
            "game": self.game,
            "variant": self.variant,
            "seats": self.seats,
            "games": self.games,
            "valid": self.valid,
            "invalid": self.invalid,
            "unfinished": self.unfinished,
            "finished": self.finished(),
            "results": results_json(self.seats, &self.results),
            "no_winner": self.no_winner,
            "scores": seats_json(self.seats, &self.scores),
            "recorded_scores": seats_json(self.seats, &self.recorded),
            "lengths": distribution_json(&self.lengths),
            "openings": {
                "plies": opening_plies,
                "symmetric": self.game == "reversi",
                "distinct": self.openings.entries.len(),
                "untracked": self.openings.untracked,
                "top": openings,
            },
            "players": {
                "distinct": self.players.entries.len(),
                "untracked": self.players.untracked,
                "top": players,
            },
        })
    }

    /// Valid games that are over.
    pub fn finished(&self) -> u64 {
        self.valid - self.unfinished
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_first_moves_turn_to_f5() {
        for (first, t) in [((5, 4), 0), ((2, 3), 1), ((4, 5), 2), ((3, 2), 3)] {
            assert_eq!(to_f5(first, 8), t);
            assert_eq!(transform(t, first, 8), (5, 4));
        }
        // d3 e3 (the parallel opening from d3) is f5 f4
        let e3 = square("e3", 8);
        assert_eq!(e3.map(|sq| transform(to_f5((3, 2), 8), sq, 8)), Some((5, 3)));
        // on 6x6 the first moves are c2, b3, e4, d5: e4 is f5's place
        assert_eq!(square("B3", 6).map(|sq| to_f5(sq, 6)), Some(1));
        assert_eq!(square("d5", 6).map(|sq| to_f5(sq, 6)), Some(2));
        assert_eq!(square("e4", 6).map(|sq| to_f5(sq, 6)), Some(0));
        assert_eq!(square("c12", 16), Some((2, 11)));
        assert_eq!(square("i1", 8), None);
        assert_eq!(square("pass", 8), None);
    }

    #[test]
    fn medians_and_means() {
        let d: Distribution = [(1, 1), (5, 2), (9, 1)].into_iter().collect();
        assert_eq!(median(&d), Some(5));
        assert_eq!(mean(&d), Some(5.0));
        let two: Distribution = [(1, 1), (3, 1)].into_iter().collect();
        assert_eq!(median(&two), Some(1));
        assert_eq!(median(&Distribution::new()), None);
    }

    #[test]
    fn a_full_table_counts_new_keys_as_untracked() {
        let mut t: Table<Player> = Table::default();
        assert!(t.entry("a", 2).is_some());
        assert!(t.entry("b", 2).is_some());
        assert!(t.entry("c", 2).is_none());
        assert!(t.entry("a", 2).is_some());
        assert_eq!((t.entries.len(), t.untracked), (2, 1));
    }
}
