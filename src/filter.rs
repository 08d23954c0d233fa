//! Which games a run keeps: `--tag NAME=GLOB` (`NAME!=GLOB` excludes),
//! `--player GLOB`, `--date FROM..TO`, `--plies MIN..MAX`, `--valid` and
//! `--invalid`, as data ([`Filter`]), parsed from the options' strings with
//! typed errors ([`FilterError`]).
//!
//! The pipeline applies a filter in two steps: the tag, player and date
//! tests on a game's tags before it is replayed ([`Filter::keeps_tags`]:
//! a game they leave out costs no replay), the plies and validity tests on
//! its report after ([`Filter::keeps_report`]). A game left out is handed to
//! the sink as [`crate::pipeline::Event::Filtered`]: counted in the summary
//! (`N skipped`), never written.
//!
//! Decisions, as pgn-extract's users expect them:
//! - every test given must hold (`--tag` repeated: all of them; `--player`
//!   repeated: each glob some seat's player, the games between them);
//! - globs: `*` any run of characters, `?` one, `[abc]`, `[a-z]`, `[!a-z]`
//!   one of (not of) a set; a small matcher of its own (the library does not
//!   depend on the command line's `ignore`/`globset`); matched against the
//!   whole value, case-sensitively as tag names and values are in the
//!   container (`[Bb]lack*` matches both cases);
//! - `NAME=GLOB` needs the tag (a game without it is left out); `NAME!=GLOB`
//!   leaves out the games whose tag matches, and keeps those without it;
//! - a seat's player tag is its name capitalised (`Black`, `White`, `Blue`,
//!   ...: every player tag of every game, as `gamerec tags GAME` lists them);
//!   `--player` matches the value trimmed;
//! - dates are PGN's `YYYY.MM.DD` with parts unknown (`1990`, `1990.05`,
//!   `1990.??.??`, `-` also read as the separator in records). A date names
//!   every day it may be; the game is kept when all of them lie in the range
//!   (`1990.??.??` is in `1989..1990` but not in `1990.05..1990.08`): a
//!   filter keeps only the games it knows to be in range. A game without a
//!   date, or with one that cannot be read, is left out by any `--date`;
//! - ranges are inclusive, either end open (`1990..`, `..1990.06`,
//!   `..60`), one value alone is both ends (`--date 1990`, `--plies 60`).

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::record::Tags;
use crate::replay::GameReport;

/// Why an option's value is not a filter: the option, the value, what was
/// expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterError {
    /// The option (`--tag`, `--player`, `--date`, `--plies`).
    pub option: &'static str,
    /// The value given.
    pub value: String,
    /// What was expected.
    pub expected: String,
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid value `{}` for {}: {}",
            self.value, self.option, self.expected
        )
    }
}

impl std::error::Error for FilterError {}

/// One element of a glob.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    /// A character itself.
    Char(char),
    /// `?`.
    Any,
    /// `*`.
    Star,
    /// `[...]`: ranges (a character alone is a range of one), negated.
    Set(Vec<(char, char)>, bool),
}

/// A glob over a whole value: `*`, `?`, `[...]`, `\` quoting the next character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glob {
    text: String,
    parts: Vec<Part>,
}

impl Glob {
    /// Parses a glob; `option` names the option in the error.
    pub fn parse(text: &str, option: &'static str) -> Result<Glob, FilterError> {
        let bad = |expected: &str| FilterError {
            option,
            value: text.to_string(),
            expected: expected.to_string(),
        };
        let mut parts = Vec::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            parts.push(match c {
                '*' => Part::Star,
                '?' => Part::Any,
                '\\' => Part::Char(
                    chars
                        .next()
                        .ok_or_else(|| bad("a glob: `\\` at the end quotes nothing"))?,
                ),
                '[' => set(&mut chars).ok_or_else(|| {
                    bad("a glob: `[` opens a set of characters that `]` closes, not empty, its ranges low to high (`[abc]`, `[a-z]`, `[!a-z]`)")
                })?,
                c => Part::Char(c),
            });
        }
        Ok(Glob {
            text: text.to_string(),
            parts,
        })
    }

    /// A pattern of `*` (any run of characters) and `?` (one), every other
    /// character itself (`--allow reversi::*`): never an error.
    pub fn wildcards(text: &str) -> Glob {
        let parts = text
            .chars()
            .map(|c| match c {
                '*' => Part::Star,
                '?' => Part::Any,
                c => Part::Char(c),
            })
            .collect();
        Glob {
            text: text.to_string(),
            parts,
        }
    }

    /// The glob as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether the glob matches the whole of `value`.
    pub fn matches(&self, value: &str) -> bool {
        let v: Vec<char> = value.chars().collect();
        let (mut i, mut j) = (0, 0);
        // the usual wildcard walk: back up to the last `*` on a mismatch
        let mut star: Option<(usize, usize)> = None;
        while j < v.len() {
            let c = v.get(j).copied().unwrap_or_default();
            match self.parts.get(i) {
                Some(Part::Star) => {
                    star = Some((i, j));
                    i += 1;
                }
                Some(p) if one(p, c) => {
                    i += 1;
                    j += 1;
                }
                _ => match star {
                    Some((si, sj)) => {
                        i = si + 1;
                        j = sj + 1;
                        star = Some((si, sj + 1));
                    }
                    None => return false,
                },
            }
        }
        self.parts
            .get(i..)
            .is_some_and(|rest| rest.iter().all(|p| *p == Part::Star))
    }
}

/// Whether a part other than `*` matches one character.
fn one(p: &Part, c: char) -> bool {
    match p {
        Part::Char(x) => *x == c,
        Part::Any => true,
        Part::Star => false,
        Part::Set(ranges, negated) => ranges.iter().any(|(a, b)| (*a..=*b).contains(&c)) != *negated,
    }
}

/// The rest of a `[...]` set after its `[`; `None` when no `]` closes it,
/// it is empty, or a range is backwards.
fn set(chars: &mut std::str::Chars) -> Option<Part> {
    let mut negated = false;
    let mut ranges = Vec::new();
    let mut first = true;
    loop {
        let c = chars.next()?;
        match c {
            '!' | '^' if first && !negated => {
                negated = true;
                continue;
            }
            ']' if !first => break,
            _ => {}
        }
        first = false;
        let c = if c == '\\' { chars.next()? } else { c };
        let mut ahead = chars.clone();
        if ahead.next() == Some('-') && ahead.clone().next().is_some_and(|e| e != ']') {
            let end = ahead.next()?;
            if end < c {
                return None;
            }
            *chars = ahead;
            ranges.push((c, end));
        } else {
            ranges.push((c, c));
        }
    }
    (!ranges.is_empty()).then_some(Part::Set(ranges, negated))
}

/// `--tag NAME=GLOB` or `NAME!=GLOB`.
#[derive(Debug)]
pub struct TagTest {
    /// The tag's name.
    pub name: String,
    pub glob: Glob,
    /// `!=`: games whose tag matches are left out.
    pub negated: bool,
    /// Whether a game of the run had the tag (for the warning at the end).
    seen: AtomicBool,
}

impl TagTest {
    /// Parses `NAME=GLOB` or `NAME!=GLOB`.
    pub fn parse(text: &str) -> Result<TagTest, FilterError> {
        let bad = |expected: &str| FilterError {
            option: "--tag",
            value: text.to_string(),
            expected: expected.to_string(),
        };
        let Some((name, glob)) = text.split_once('=') else {
            return Err(bad("NAME=GLOB (or NAME!=GLOB to leave those games out)"));
        };
        let (name, negated) = match name.strip_suffix('!') {
            Some(n) => (n, true),
            None => (name, false),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(bad(
                "a tag name (letters, digits and `_`) before `=` (NAME=GLOB)",
            ));
        }
        Ok(TagTest {
            name: name.to_string(),
            glob: Glob::parse(glob, "--tag")?,
            negated,
            seen: AtomicBool::new(false),
        })
    }

    /// Whether it tests what the replay resolves, not a tag as written:
    /// `Game` and `Variant` match the names gamerec plays the game by
    /// (`reversi`, `standard`), the default filled in for a record without
    /// the tag.
    fn resolved(&self) -> bool {
        self.name == "Game" || self.name == "Variant"
    }

    /// The test on a resolved name.
    fn keeps_name(&self, value: &str) -> bool {
        if !self.seen.load(Ordering::Relaxed) {
            self.seen.store(true, Ordering::Relaxed);
        }
        self.glob.matches(value) != self.negated
    }

    fn keeps(&self, tags: &Tags) -> bool {
        match tags.get(&self.name) {
            Some(t) => {
                if !self.seen.load(Ordering::Relaxed) {
                    self.seen.store(true, Ordering::Relaxed);
                }
                self.glob.matches(&t.value) != self.negated
            }
            None => self.negated,
        }
    }
}

impl Clone for TagTest {
    fn clone(&self) -> TagTest {
        TagTest {
            name: self.name.clone(),
            glob: self.glob.clone(),
            negated: self.negated,
            seen: AtomicBool::new(self.seen.load(Ordering::Relaxed)),
        }
    }
}

/// A date as PGN writes it, its unknown parts `None`.
type Day = (u32, Option<u32>, Option<u32>);

/// A date's first and last days, as `(year, month, day)`.
fn bounds(d: Day) -> ((u32, u32, u32), (u32, u32, u32)) {
    let (y, m, day) = d;
    let first = (y, m.unwrap_or(1), m.and(day).unwrap_or(1));
    let last = (y, m.unwrap_or(12), m.and(day).unwrap_or(31));
    (first, last)
}

/// Reads a date: `YYYY`, `YYYY.MM`, `YYYY.MM.DD`, parts `??` unknown
/// (a year `????`: `None`); `strict` (an option's value) takes only `.`
/// and no unknown parts.
fn read_date(text: &str, strict: bool) -> Option<Day> {
    let text = text.trim();
    let mut parts = text.split(|c| c == '.' || (!strict && (c == '-' || c == '/')));
    let number = |p: Option<&str>, digits: usize, max: u32| -> Option<Option<u32>> {
        match p {
            None => Some(None),
            Some(p) if !strict && p.len() == digits && p.bytes().all(|b| b == b'?') => Some(None),
            Some(p) if p.len() == digits && p.bytes().all(|b| b.is_ascii_digit()) => {
                let n: u32 = p.parse().ok()?;
                (1..=max).contains(&n).then_some(Some(n))
            }
            Some(_) => None,
        }
    };
    let year = number(parts.next(), 4, 9999)??;
    let month = number(parts.next(), 2, 12)?;
    let day = number(parts.next(), 2, 31)?;
    if parts.next().is_some() || (month.is_none() && day.is_some()) {
        return None;
    }
    Some((year, month, day))
}

/// An inclusive range, either end open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range<T> {
    pub from: Option<T>,
    pub to: Option<T>,
}

impl<T: PartialOrd + Copy> Range<T> {
    fn contains(&self, first: T, last: T) -> bool {
        self.from.is_none_or(|f| f <= first) && self.to.is_none_or(|t| last <= t)
    }
}

/// Splits `FROM..TO` (or a value alone, both ends) and reads each end.
fn range<T: PartialOrd + Copy>(
    text: &str,
    option: &'static str,
    expected: &str,
    read: impl Fn(&str) -> Option<(T, T)>,
) -> Result<Range<T>, FilterError> {
    let bad = || FilterError {
        option,
        value: text.to_string(),
        expected: expected.to_string(),
    };
    let end = |s: &str| -> Result<Option<(T, T)>, FilterError> {
        if s.is_empty() {
            Ok(None)
        } else {
            read(s).map(Some).ok_or_else(bad)
        }
    };
    let (from, to) = match text.split_once("..") {
        Some((a, b)) => (end(a)?.map(|r| r.0), end(b)?.map(|r| r.1)),
        None => {
            let one = end(text)?.ok_or_else(bad)?;
            (Some(one.0), Some(one.1))
        }
    };
    if from.is_none() && to.is_none() {
        return Err(bad());
    }
    if let (Some(f), Some(t)) = (from, to) {
        if t < f {
            return Err(FilterError {
                expected: format!("{expected}; its start is after its end"),
                ..bad()
            });
        }
    }
    Ok(Range { from, to })
}

/// What the options ask for, before parsing.
#[derive(Clone, Debug, Default)]
pub struct FilterArgs<'a> {
    pub tags: &'a [String],
    pub players: &'a [String],
    pub date: Option<&'a str>,
    pub plies: Option<&'a str>,
    /// `--valid` (`Some(true)`) or `--invalid` (`Some(false)`).
    pub valid: Option<bool>,
}

/// The games a run keeps.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    pub tags: Vec<TagTest>,
    pub players: Vec<Glob>,
    pub date: Option<Range<(u32, u32, u32)>>,
    pub plies: Option<Range<usize>>,
    pub valid: Option<bool>,
    /// Every player tag of every game (`Black`, `White`, `Blue`, ...).
    player_tags: Vec<String>,
    /// Whether a game of the run had a player tag (for the warning at the end).
    players_seen: std::sync::Arc<AtomicBool>,
}

impl Filter {
    /// The filter the options ask for; `None` when they ask for nothing.
    pub fn parse(args: &FilterArgs) -> Result<Option<Filter>, FilterError> {
        let tags = args
            .tags
            .iter()
            .map(|t| TagTest::parse(t))
            .collect::<Result<Vec<_>, _>>()?;
        let players = args
            .players
            .iter()
            .map(|p| Glob::parse(p, "--player"))
            .collect::<Result<Vec<_>, _>>()?;
        let date = args
            .date
            .map(|d| {
                range(
                    d,
                    "--date",
                    "FROM..TO, dates as YYYY, YYYY.MM or YYYY.MM.DD, either end left out (`1990..1995`, `..1990.06`, `2001`)",
                    |s| read_date(s, true).map(bounds),
                )
            })
            .transpose()?;
        let plies = args
            .plies
            .map(|p| {
                range(
                    p,
                    "--plies",
                    "MIN..MAX, whole numbers, either end left out (`20..60`, `..30`, `60`)",
                    |s| s.parse::<usize>().ok().map(|n| (n, n)),
                )
            })
            .transpose()?;
        let filter = Filter {
            player_tags: if players.is_empty() {
                Vec::new()
            } else {
                all_player_tags()
            },
            tags,
            players,
            date,
            plies,
            valid: args.valid,
            players_seen: std::sync::Arc::default(),
        };
        Ok(filter.asks().then_some(filter))
    }

    /// Whether any test is given.
    fn asks(&self) -> bool {
        !self.tags.is_empty()
            || !self.players.is_empty()
            || self.date.is_some()
            || self.plies.is_some()
            || self.valid.is_some()
    }

    /// Whether the tests on tags are given (a WTHOR record is then written
    /// as text to be tested).
    pub fn tests_tags(&self) -> bool {
        self.tags.iter().any(|t| !t.resolved()) || !self.players.is_empty() || self.date.is_some()
    }

    /// Whether the tests on the report are given.
    pub fn tests_report(&self) -> bool {
        self.plies.is_some() || self.valid.is_some() || self.tags.iter().any(TagTest::resolved)
    }

    /// The tests on a game's tags: `--tag`, `--player`, `--date`.
    pub fn keeps_tags(&self, tags: &Tags) -> bool {
        // every tag test runs, so that each knows whether the run has its tag
        let mut keep = true;
        for t in self.tags.iter().filter(|t| !t.resolved()) {
            keep &= t.keeps(tags);
        }
        if !self.players.is_empty() && !self.players_seen.load(Ordering::Relaxed) {
            let seen = self.player_tags.iter().any(|name| tags.get(name).is_some());
            if seen {
                self.players_seen.store(true, Ordering::Relaxed);
            }
        }
        keep && self.players.iter().all(|p| {
            self.player_tags
                .iter()
                .filter_map(|name| tags.value(name))
                .any(|v| p.matches(v.trim()))
        }) && self.date.is_none_or(|range| {
            tags.value("Date")
                .and_then(|d| read_date(d, false))
                .is_some_and(|d| {
                    let (first, last) = bounds(d);
                    range.contains(first, last)
                })
        })
    }

    /// The tests on a game's report: `--plies`, `--valid`, `--invalid`,
    /// and `--tag` on `Game` and `Variant` (the names the replay resolved).
    pub fn keeps_report(&self, r: &GameReport) -> bool {
        let mut keep = true;
        for t in self.tags.iter().filter(|t| t.resolved()) {
            keep &= t.keeps_name(if t.name == "Game" { r.game } else { r.variant });
        }
        keep && self.plies.is_none_or(|p| p.contains(r.plies, r.plies))
            && self.valid.is_none_or(|v| v == r.valid)
    }

    /// The warnings of a run: each `--tag` whose tag no game of the run had
    /// and that is not a tag gamerec knows, with the known tag it may mean;
    /// `--player` when no game had a player tag.
    pub fn warnings(&self) -> Vec<String> {
        let known = known_tags();
        let mut out = Vec::new();
        if !self.players.is_empty() && !self.players_seen.load(Ordering::Relaxed) {
            out.push(
                "--player: no game of the run has a player tag (`Black`, `White`, ...: `gamerec tags GAME` lists a game's), so it left out every game"
                    .to_string(),
            );
        }
        for t in &self.tags {
            if t.seen.load(Ordering::Relaxed) || known.contains(&t.name) {
                continue;
            }
            let near = known
                .iter()
                .find(|k| k.eq_ignore_ascii_case(&t.name))
                .map(String::as_str)
                .or_else(|| crate::diag::closest(&t.name, known.iter().map(String::as_str), 2));
            let hint = match near {
                Some(n) if n.eq_ignore_ascii_case(&t.name) => {
                    format!("; did you mean `{n}`? (tag names are case-sensitive)")
                }
                Some(n) => format!("; did you mean `{n}`?"),
                None => " (`gamerec tags GAME` lists the known tags)".to_string(),
            };
            let effect = if t.negated {
                "it left out no game"
            } else {
                "it left out every game"
            };
            out.push(format!(
                "--tag {}: no game of the run has the tag `{}`, so {effect}{hint}",
                t.name, t.name
            ));
        }
        out
    }
}

/// Every player tag of every game gamerec knows.
fn all_player_tags() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for g in crate::registry::REGISTRY {
        for t in g.player_tags() {
            if !out.contains(&t) {
                out.push(t);
            }
        }
    }
    out
}

/// The tags gamerec knows: the common ones, every game's player and rules tags.
fn known_tags() -> Vec<String> {
    let mut out: Vec<String> = crate::record::COMMON_TAGS
        .iter()
        .map(|t| t.to_string())
        .collect();
    for g in crate::registry::REGISTRY {
        for t in g.rules_tags() {
            if !out.iter().any(|k| k == t) {
                out.push(t.to_string());
            }
        }
    }
    for t in all_player_tags() {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glob(g: &str) -> Glob {
        Glob::parse(g, "--tag").unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn globs_match_whole_values() {
        assert!(glob("Tam*").matches("Tamenori Hideshi"));
        assert!(!glob("Tam*").matches("A Tamenori"));
        assert!(glob("*ori*").matches("Tamenori Hideshi"));
        assert!(glob("19?0").matches("1990"));
        assert!(!glob("19?0").matches("19900"));
        assert!(glob("[BS]*").matches("Shaman"));
        assert!(glob("[a-c]x").matches("bx"));
        assert!(!glob("[!a-c]x").matches("bx"));
        assert!(glob("[!a-c]x").matches("dx"));
        assert!(glob("a\\*").matches("a*"));
        assert!(!glob("a\\*").matches("ab"));
        assert!(glob("").matches(""));
        assert!(glob("*").matches(""));
        assert!(!glob("black").matches("Black"));
        assert!(glob("[]]").matches("]"));
    }

    #[test]
    fn code_patterns_know_only_star_and_question_mark() {
        let w = Glob::wildcards;
        assert!(w("reversi::*").matches("reversi::no_flip"));
        assert!(!w("reversi::*").matches("record::bad_tag"));
        assert!(w("*::bad_?ag").matches("record::bad_tag"));
        assert!(w("record::result_unchecked").matches("record::result_unchecked"));
        assert!(!w("record::result").matches("record::result_unchecked"));
        // `[` and `\` are themselves
        assert!(w("a[b").matches("a[b"));
        assert!(w("a\\b").matches("a\\b"));
        assert!(w("**").matches(""));
    }

    #[test]
    fn bad_globs_are_refused() {
        for g in ["[abc", "[]", "a\\", "[z-a]"] {
            let e = Glob::parse(g, "--player").err();
            assert_eq!(e.map(|e| e.option), Some("--player"), "{g}");
        }
    }

    #[test]
    fn tag_tests() {
        assert!(TagTest::parse("Event").is_err());
        assert!(TagTest::parse("=x").is_err());
        assert!(TagTest::parse("Ev ent=x").is_err());
        let t = TagTest::parse("Event!=Club*").unwrap_or_else(|e| panic!("{e}"));
        assert!(t.negated);
        assert_eq!(t.name, "Event");
        let t = TagTest::parse("Event=a=b").unwrap_or_else(|e| panic!("{e}"));
        assert!(t.glob.matches("a=b"));
    }

    #[test]
    fn dates() {
        assert_eq!(read_date("1990", true), Some((1990, None, None)));
        assert_eq!(read_date("1990.05", true), Some((1990, Some(5), None)));
        assert_eq!(read_date("1990.??.??", true), None);
        assert_eq!(read_date("1990.??.??", false), Some((1990, None, None)));
        assert_eq!(read_date("1990-05-06", false), Some((1990, Some(5), Some(6))));
        assert_eq!(read_date("????.??.??", false), None);
        assert_eq!(read_date("1990.13", true), None);
        assert_eq!(read_date("90", true), None);
        assert_eq!(read_date("1990.??.05", false), None);
        let r = |s: &str| {
            range(s, "--date", "", |s| read_date(s, true).map(bounds))
                .unwrap_or_else(|e| panic!("{e}"))
        };
        let within = |range: Range<(u32, u32, u32)>, d: &str| {
            read_date(d, false).is_some_and(|d| {
                let (a, b) = bounds(d);
                range.contains(a, b)
            })
        };
        assert!(within(r("1990..1995"), "1990.??.??"));
        assert!(within(r("1990..1995"), "1995.12.31"));
        assert!(!within(r("1990..1995"), "1996"));
        assert!(!within(r("1990.05..1990.08"), "1990"));
        assert!(within(r("1990.05..1990.08"), "1990.08.31"));
        assert!(within(r("..1990.06"), "1990.06"));
        assert!(!within(r("..1990.06"), "1990"));
        assert!(within(r("2001"), "2001.??.??"));
        for bad in ["1995..1990", "..", "", "1990...", "x..1990", "1990.1"] {
            assert!(
                range(bad, "--date", "", |s| read_date(s, true).map(bounds)).is_err(),
                "{bad}"
            );
        }
    }
}
