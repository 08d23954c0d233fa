//! `gamerec html PATH... -o DIR`: a site for a collection of any size, written
//! as the games are read, so that memory is bounded by one chunk of games
//! whatever the input's size.
//!
//! The site is static files, opened from disk as well as served over HTTP:
//! - `DIR/index.html`: the viewer (the page's style, its script
//!   `view.js`, then `site.js` for the site's index), the run's summary, the
//!   number of games and how they are split. Written last, when the summary is
//!   known.
//! - `DIR/index/K.js`: the index rows of games `K * R ..` (`R` is ten times
//!   the games per data file): file and place in it, game, event, date,
//!   players, result, valid, plies, as `gamerecIndex(K, rows)`.
//! - `DIR/games/K.js`: the data of games `K * C ..` (`C`: `--chunk-games`,
//!   500 by default, about 0.5 MB of WTHOR games) in the page's encoding,
//!   with the backgrounds, glyphs, kinds and styles they use (the site's ids,
//!   so a chunk needs no other), as `gamerecGames(K, data)`.
//!
//! The files are scripts, not JSON to fetch: a browser refuses `fetch` of a
//! `file://` URL, and loads a `<script src>` from one. The index shows 100
//! rows a page and loads only the index file a page needs; searching, the
//! validity filter and sorting load the whole index (about 110 bytes a
//! game: 14 MB for the WTHOR database, in 26 files) once. A game's data file
//! is loaded when the game is opened. Games are numbered across the site
//! from 0 as in a page, and the state is in the URL: `#game=N&ply=K` as in
//! a page, and `q=` (search), `valid=yes|no`, `sort=COLUMN` (`-` after it:
//! descending) and `page=P` (from 1) for the index, so a search or a page of
//! the index can be linked to.
//!
//! Without scripts a site shows a note and nothing else (a page's no-script
//! index and final positions would be the whole collection again). Files of
//! an earlier site in `DIR` are overwritten; chunk files past this site's
//! count are left, unread.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::{Map, Value, json};

use super::{DIGITS, Defs, Entry, VIEWER, finish, head, place, result, script_json};

/// A site's style: the page's, and the search box and pager.
const SITE_CSS: &str = concat!(include_str!("page.css"), include_str!("site.css"));

/// A site's script: the viewer, then the site's index and loaders.
const SITE_JS: &str = concat!(include_str!("view.js"), include_str!("site.js"));

/// Index rows shown a page (the script's, written in the site's data).
const PAGE_ROWS: usize = 100;

/// A site being written: the tables shared by every chunk (each chunk file
/// repeats the entries it uses), the current chunk of games and of index
/// rows, the first error met.
pub(super) struct Site {
    dir: PathBuf,
    /// Games per data file, index rows per index file.
    chunk: usize,
    rows_per_file: usize,
    defs: Defs,
    kinds: Vec<Value>,
    styles: Vec<Value>,
    games: Vec<Value>,
    rows: Vec<Value>,
    /// What the current chunk of games uses: kinds, styles, backgrounds,
    /// glyphs.
    used: Used,
    /// Games added.
    n: usize,
    error: Option<String>,
}

#[derive(Default)]
struct Used {
    kinds: BTreeSet<usize>,
    styles: BTreeSet<usize>,
    backgrounds: BTreeSet<usize>,
    glyphs: BTreeSet<usize>,
}

impl Site {
    /// A site in `dir` (created with its `games` and `index` folders),
    /// `chunk` games a data file.
    pub(super) fn create(dir: &str, chunk: usize) -> Result<Site, String> {
        let dir = PathBuf::from(dir);
        for sub in ["games", "index"] {
            std::fs::create_dir_all(dir.join(sub))
                .map_err(|e| format!("cannot create {}: {e}", dir.join(sub).display()))?;
        }
        let chunk = chunk.max(1);
        Ok(Site {
            dir,
            chunk,
            rows_per_file: chunk.saturating_mul(10),
            defs: Defs::default(),
            kinds: Vec::new(),
            styles: Vec::new(),
            games: Vec::new(),
            rows: Vec::with_capacity(chunk.saturating_mul(10).min(1 << 16)),
            used: Used::default(),
            n: 0,
            error: None,
        })
    }

    /// Game `e`, the next of the site: its data and index row, written out
    /// when a chunk is full. After an error nothing more is written.
    pub(super) fn add(&mut self, e: &Entry) {
        if self.error.is_some() {
            return;
        }
        // without its row: that is in the index's files
        let data = finish(
            self.n,
            e,
            false,
            &mut self.defs,
            &mut self.kinds,
            &mut self.styles,
        );
        if let Value::Object(m) = &data {
            self.note_used(m);
        }
        self.games.push(data);
        let r = &e.report;
        self.rows.push(json!([
            place(e),
            r.game,
            e.event,
            e.date,
            e.players,
            result(e),
            u8::from(r.valid),
            r.plies
        ]));
        self.n += 1;
        if self.games.len() >= self.chunk {
            self.write_games();
        }
        if self.rows.len() >= self.rows_per_file {
            self.write_rows();
        }
    }

    /// The shared entries game `m` uses, for its chunk's file.
    fn note_used(&mut self, m: &Map<String, Value>) {
        let id = |v: Option<&Value>| {
            v.and_then(Value::as_u64)
                .and_then(|i| usize::try_from(i).ok())
        };
        if let Some(k) = id(m.get("k")) {
            self.used.kinds.insert(k);
            if let Some(kind) = self.kinds.get(k) {
                self.used.backgrounds.extend(id(kind.get("bg")));
                self.used
                    .backgrounds
                    .extend(id(kind.get("s").and_then(|s| s.get("bg"))));
            }
        }
        self.used.styles.extend(id(m.get("st")));
        if let Some(Value::Array(gl)) = m.get("gl") {
            // the first is the empty cell's place, no glyph
            self.used
                .glyphs
                .extend(gl.iter().skip(1).filter_map(|g| id(Some(g))));
        }
    }

    /// The current chunk of games as `games/K.js`, with the shared entries
    /// it uses.
    fn write_games(&mut self) {
        if self.games.is_empty() {
            return;
        }
        let k = (self.n - self.games.len()) / self.chunk;
        let used = std::mem::take(&mut self.used);
        let table = |ids: &BTreeSet<usize>, all: &[Value]| -> Map<String, Value> {
            ids.iter()
                .filter_map(|&i| Some((i.to_string(), all.get(i)?.clone())))
                .collect()
        };
        let mut defs = Map::new();
        for &b in &used.backgrounds {
            if let Some(markup) = self.defs.background_list.get(b) {
                defs.insert(format!("b{b}"), json!(markup));
            }
        }
        for &g in &used.glyphs {
            if let Some(markup) = self.defs.glyph_list.get(g) {
                defs.insert(format!("g{g}"), json!(markup));
            }
        }
        let data = json!({
            "defs": defs,
            "kinds": table(&used.kinds, &self.kinds),
            "styles": table(&used.styles, &self.styles),
            "games": std::mem::take(&mut self.games),
        });
        self.write_script("games", k, "gamerecGames", &data);
    }

    /// The current index rows as `index/K.js`.
    fn write_rows(&mut self) {
        if self.rows.is_empty() {
            return;
        }
        let k = (self.n - self.rows.len()) / self.rows_per_file;
        let rows = Value::Array(std::mem::take(&mut self.rows));
        self.write_script("index", k, "gamerecIndex", &rows);
    }

    /// `sub/K.js`: a call `call(K, data)`.
    fn write_script(&mut self, sub: &str, k: usize, call: &str, data: &Value) {
        if self.error.is_some() {
            return;
        }
        let json = serde_json::to_string(data).unwrap_or_default();
        let text = format!("{call}({k}, {});\n", script_json(&json));
        let path = self.dir.join(sub).join(format!("{k}.js"));
        if let Err(e) = std::fs::write(&path, text) {
            self.error = Some(format!("{}: {e}", path.display()));
        }
    }

    /// The last chunks, then `index.html` with the run's `summary`.
    pub(super) fn finish(mut self, summary: &super::super::report::Summary) -> Result<(), String> {
        self.write_games();
        self.write_rows();
        if let Some(e) = self.error {
            return Err(e);
        }
        let summary = summary.line();
        let data = json!({
            "site": {
                "games": self.n,
                "chunk": self.chunk,
                "rows": self.rows_per_file,
                "page": PAGE_ROWS,
            },
            "kinds": [],
            "styles": [],
            "games": [],
            "digits": String::from_utf8_lossy(DIGITS),
        });
        let data = script_json(&serde_json::to_string(&data).unwrap_or_default());
        let mut out = String::new();
        // the defs are in the games' files: none here
        head(&mut out, &summary, SITE_CSS, &Defs::default());
        out.push_str(FINDER);
        out.push_str("<div id=\"index-box\"></div>\n");
        out.push_str(PAGER);
        out.push_str(VIEWER);
        let _ = write!(
            out,
            "<noscript><p>This site draws its index and games with JavaScript, which is off. <code>gamerec validate</code> lists the same games.</p></noscript>\n</main>\n<script type=\"application/json\" id=\"data\">{data}</script>\n<script>\n{SITE_JS}</script>\n</body>\n</html>\n"
        );
        let path = self.dir.join("index.html");
        std::fs::write(&path, out).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(())
    }
}

/// The search box, the validity filter and the count of games shown.
const FINDER: &str = "<div id=\"finder\"><input id=\"q\" type=\"search\" placeholder=\"search players, events, dates, files, results\" aria-label=\"search the index\"> <select id=\"valid\" aria-label=\"validity\"><option value=\"\">all games</option><option value=\"yes\">valid games</option><option value=\"no\">invalid games</option></select> <span id=\"count\"></span></div>\n";

/// The index's pager.
const PAGER: &str = "<p id=\"pager\"><button id=\"p-first\" title=\"first page\">&#xAB;</button> <button id=\"p-prev\" title=\"previous page\">&#x2039;</button> <span id=\"p-at\"></span> <button id=\"p-next\" title=\"next page\">&#x203A;</button> <button id=\"p-last\" title=\"last page\">&#xBB;</button></p>\n";
