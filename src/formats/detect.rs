//! Which format a file is read as (spec §2, "No silent passes", and §5,
//! "Input detection").
//!
//! - `--from` wins;
//! - then an extension that names one format, never overridden by content:
//!   `.gamerec`, `.wtb`, `.ggf`, `.blksgf`, `.obf`, `.json`, `.yaml`/`.yml`, also
//!   under a compression extension (`.wtb.gz`, `.gamerec.zst`, `.bz2`, `.xz`);
//! - the general extensions `.txt`, `.csv`, `.pgn` (and standard input, and
//!   a file without an extension) are told by their first bytes
//!   ([`sniff`]); when nothing fits, a file named on the command line is read
//!   as its extension's usual format (`.txt` a transcript, `.csv` CSV, else
//!   gamerec text), and a directory scan leaves it out.
//!
//! A file in which the chosen reader finds no game is an error
//! (`record::no_games`) that says the format tried, how it was chosen and
//! what that format expects ([`no_games`]).

use std::path::Path;

use super::{Format, csv, obf, transcript};

/// How a file's format was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chosen {
    /// `--from`.
    Forced,
    /// An extension that names the format.
    Extension,
    /// The file's first bytes.
    Content,
    /// Nothing fitted: the extension's usual format.
    Default,
}

impl Chosen {
    fn says(self) -> &'static str {
        match self {
            Chosen::Forced => "as --from says",
            Chosen::Extension => "by its extension",
            Chosen::Content => "by its content",
            Chosen::Default => "as its extension suggests (its content fits no format)",
        }
    }
}

/// The extension of a file name, lower case, looking through a
/// compression extension (`.wtb.gz` is `wtb`: `crate::codec::inner_name`).
fn extension(name: &str) -> Option<String> {
    Path::new(crate::codec::inner_name(name))
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

/// The format an extension names on its own.
pub fn named(name: &str) -> Option<Format> {
    if name == "-" {
        return None;
    }
    match extension(name)?.as_str() {
        "gamerec" => Some(Format::Gamerec),
        "wtb" => Some(Format::Wthor),
        "ggf" => Some(Format::Ggf),
        "blksgf" => Some(Format::Pentobi),
        "obf" => Some(Format::Obf),
        "json" => Some(Format::Json),
        "yaml" | "yml" => Some(Format::Yaml),
        _ => None,
    }
}

/// Extensions that name no single format: content decides.
pub const GENERAL: &[&str] = &["txt", "csv", "pgn"];

/// Whether a file name has a general extension.
pub fn is_general(name: &str) -> bool {
    extension(name).is_some_and(|e| GENERAL.contains(&e.as_str()))
}

/// The format of a file's first bytes, if they look like one gamerec reads.
pub fn sniff(head: &str) -> Option<Format> {
    let t = head.strip_prefix('\u{feff}').unwrap_or(head).trim_start();
    if let Some(rest) = t.strip_prefix('{') {
        let rest = rest.trim_start();
        if rest.starts_with('"') || rest.starts_with('}') {
            return Some(Format::Json);
        }
    }
    if first_yaml_line(t).is_some_and(|l| l.starts_with("games:")) {
        return Some(Format::Yaml);
    }
    if t.starts_with('(') {
        let head: String = t.chars().take(400).collect::<String>().to_ascii_lowercase();
        // Pentobi's own games too (`GM[Nexos]`...), so that they are named
        let pentobi = ["blokus", "nexos", "callisto", "gembloq"]
            .iter()
            .any(|g| head.contains(&format!("gm[{g}")) || head.contains(&format!("gm[ {g}")));
        if pentobi {
            return Some(Format::Pentobi);
        }
        if t.starts_with("(;") {
            return Some(Format::Ggf);
        }
    }
    if t.starts_with('[') {
        return Some(Format::Gamerec);
    }
    // whole lines only: the head may end inside one
    let lines = match head.rfind('\n') {
        Some(i) if head.len() >= super::BLOCK => head.get(..=i).unwrap_or(head),
        _ => head,
    };
    if is_transcript(lines) {
        return Some(Format::Transcript);
    }
    if obf::looks_like(lines) {
        return Some(Format::Obf);
    }
    if csv::read(lines).is_ok_and(|g| !g.is_empty()) && lines.contains([',', ';', '\t']) {
        return Some(Format::Csv);
    }
    None
}

/// The first line of a YAML text that is not blank, a comment or `---`.
fn first_yaml_line(t: &str) -> Option<&str> {
    t.lines().map(str::trim_end).find(|l| {
        let l = l.trim_start();
        !l.is_empty() && !l.starts_with('#') && l != "---"
    })
}

/// Whether the first line of a text that is not blank or a `#` comment is a
/// game of moves (squares, compact or spaced).
fn is_transcript(text: &str) -> bool {
    let games = transcript::read(text);
    let Some(first) = games.first() else {
        return false;
    };
    !first.tokens.is_empty()
        && first.tokens.iter().all(|t| {
            let s = t.text(text).as_bytes();
            s.len() % 2 == 0
                && s.chunks(2).all(|c| {
                    matches!(c, [col, row] if (b'a'..=b'h').contains(&col.to_ascii_lowercase())
                        && (b'1'..=b'8').contains(row))
                })
        })
}

/// The format to read a file as, and how it was chosen.
pub fn choose(name: &str, head: &str, forced: Option<Format>) -> (Format, Chosen) {
    if let Some(f) = forced {
        return (f, Chosen::Forced);
    }
    if let Some(f) = named(name) {
        return (f, Chosen::Extension);
    }
    if let Some(f) = sniff(head) {
        return (f, Chosen::Content);
    }
    let default = match extension(name).as_deref() {
        Some("txt") if name != "-" => Format::Transcript,
        Some("csv") if name != "-" => Format::Csv,
        _ => Format::Gamerec,
    };
    (default, Chosen::Default)
}

/// The message of `record::no_games`: the format tried, how it was chosen,
/// what it expects.
pub fn no_games(format: Format, chosen: Chosen) -> String {
    let expected = match format {
        Format::Gamerec => "tag sections such as [Game \"reversi\"] followed by moves (spec §1)",
        Format::Json => "a JSON document {\"games\": [...]}",
        Format::Yaml => "a YAML document with a top-level `games:` list",
        Format::Wthor => "68-byte game records after a 16-byte header",
        Format::Transcript => {
            "one game per line, its moves as squares (f5d6c3..., f5 d6 c3, f5,d6,c3 or f5-d6-c3), optionally then a score such as 33-31"
        }
        Format::Csv => {
            "rows of fields separated by `,`, `;` or tabs, with a column of moves (named game_moves, moves or transcript)"
        }
        Format::Ggf => "GGF games (;GM[Othello]...;)",
        Format::Pentobi => "Pentobi game trees (;GM[Blokus]...)",
        Format::Obf => {
            "one position per line: 64 cells (X, O, -), the side to move (X or O), then moves with their scores (G8:+18;)"
        }
    };
    format!(
        "no game found: read as {} ({}), which expects {expected}",
        format.name(),
        chosen.says()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_that_name_a_format_win() {
        let yaml_like = "[Game \"reversi\"]\n; games: in a comment\nf5\n";
        assert_eq!(
            choose("x.gamerec", yaml_like, None),
            (Format::Gamerec, Chosen::Extension)
        );
        assert_eq!(
            choose("x.ggf", "[Game \"reversi\"] f5", None),
            (Format::Ggf, Chosen::Extension)
        );
        assert_eq!(choose("x.JSON", "", None).0, Format::Json);
        assert_eq!(choose("x.yml", "", None).0, Format::Yaml);
        assert_eq!(choose("WTH_1990.wtb.gz", "", None).0, Format::Wthor);
        assert_eq!(choose("club.GAMEREC.zst", "", None).0, Format::Gamerec);
        assert_eq!(choose("a.ggf.bz2", "", None).0, Format::Ggf);
        assert!(is_general("notes.txt.xz"));
        assert_eq!(
            choose("x.gamerec", "", Some(Format::Ggf)),
            (Format::Ggf, Chosen::Forced)
        );
    }

    #[test]
    fn general_extensions_and_standard_input_by_content() {
        assert_eq!(sniff("# games\nf5d6c3d3\n"), Some(Format::Transcript));
        assert_eq!(sniff("f5 d6 c3\n"), Some(Format::Transcript));
        assert_eq!(sniff("id,game_moves\n1,f5d6\n"), Some(Format::Csv));
        assert_eq!(sniff("[Event \"x\"]\n1. F5 D6\n"), Some(Format::Gamerec));
        assert_eq!(
            sniff("# c\n---\ngames:\n- game: reversi\n"),
            Some(Format::Yaml)
        );
        assert_eq!(sniff("{ comment }\ngames:\n"), None);
        assert_eq!(sniff("These are my notes.\n"), None);
        assert_eq!(sniff("name,age\nann,3\n"), None);
        assert_eq!(
            choose("notes.txt", "These are notes.\n", None).0,
            Format::Transcript
        );
        assert_eq!(choose("-", "f5 zz", None).0, Format::Gamerec);
    }
}
