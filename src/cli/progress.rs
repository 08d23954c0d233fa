//! The progress display on stderr for long runs (`validate`, `score`,
//! `convert`): files and games done, and the rate.
//!
//! It is drawn only when stderr is a terminal, without `-q` or
//! `--no-progress` ([`super::Ctx::progress`]), and only once a run has
//! lasted [`DELAY`]: a short run prints exactly what it prints without it.
//! Diagnostics written on stderr meanwhile go above the display
//! ([`Progress::above`]); the display is cleared at the end. Standard
//! output is never touched, and when the display is off nothing of it runs.

use std::borrow::Cow;
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::inputs::Event;

/// How long a run goes on before the display is drawn.
pub const DELAY: Duration = Duration::from_secs(1);

/// A run's progress display; [`Progress::off`] does nothing.
pub struct Progress {
    bar: Option<Bar>,
}

struct Bar {
    bar: ProgressBar,
    /// Where it draws once shown (taken when shown).
    target: Option<ProgressDrawTarget>,
    start: Instant,
    delay: Duration,
    files: u64,
    file: String,
}

impl Progress {
    /// No display.
    pub fn off() -> Progress {
        Progress { bar: None }
    }

    /// On stderr when `on` (the caller knows stderr is a terminal).
    pub fn stderr(on: bool) -> Progress {
        if on {
            Progress::to(ProgressDrawTarget::stderr(), DELAY)
        } else {
            Progress::off()
        }
    }

    /// Drawn on `target` once `delay` has passed.
    pub fn to(target: ProgressDrawTarget, delay: Duration) -> Progress {
        let style = ProgressStyle::with_template(
            "{spinner} {human_pos} games ({rate} games/s), {prefix}, {elapsed}: {wide_msg}",
        )
        .map(|s| {
            s.with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0}", state.per_sec());
                },
            )
        })
        .unwrap_or_else(|_| ProgressStyle::default_spinner());
        let bar =
            ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()).with_style(style);
        Progress {
            bar: Some(Bar {
                bar,
                target: Some(target),
                start: Instant::now(),
                delay,
                files: 0,
                file: String::new(),
            }),
        }
    }

    /// Counts one event of the pipeline.
    pub fn event(&mut self, event: &Event) {
        let Some(b) = &mut self.bar else {
            return;
        };
        let file = match event {
            Event::Game(g, _, _) | Event::Filtered(g) => {
                b.bar.inc(1);
                &g.file.name
            }
            Event::FileError(e) | Event::Skipped(e) => &e.file,
        };
        if *file != b.file {
            b.files += 1;
            b.file.clone_from(file);
            b.bar
                .set_prefix(crate::diag::plural(b.files as usize, "file", "files"));
            b.bar
                .set_message(Cow::Owned(super::diagnostics::visible(file).into_owned()));
        }
        if b.target.is_some() && b.start.elapsed() >= b.delay {
            if let Some(t) = b.target.take() {
                b.bar.set_draw_target(t);
                b.bar.tick();
            }
        }
    }

    /// `err` with the display kept below what is written on it: whole lines
    /// are written with the display cleared, then it is drawn again.
    pub fn above<'a>(&self, err: &'a mut dyn Write) -> Above<'a> {
        Above {
            inner: err,
            bar: self.bar.as_ref().map(|b| b.bar.clone()),
            pending: Vec::new(),
        }
    }

    /// Clears the display.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Runs `work` on another thread, giving it a counter of leaves; while it
/// lasts (after [`DELAY`]) a spinner on stderr says `what`, the leaves
/// counted so far, their rate and the time so far, when `on` (`perft`).
pub fn counting<T: Send>(on: bool, what: &str, work: impl FnOnce(&AtomicU64) -> T + Send) -> T {
    if !on {
        return work(&AtomicU64::new(0));
    }
    counting_to(ProgressDrawTarget::stderr(), DELAY, what, work)
}

/// [`counting`] drawn on `target` once `delay` has passed.
pub fn counting_to<T: Send>(
    target: ProgressDrawTarget,
    delay: Duration,
    what: &str,
    work: impl FnOnce(&AtomicU64) -> T + Send,
) -> T {
    let counter = AtomicU64::new(0);
    std::thread::scope(|s| {
        let handle = s.spawn(|| work(&counter));
        let start = Instant::now();
        let mut bar: Option<ProgressBar> = None;
        let mut target = Some(target);
        loop {
            let finished = handle.is_finished();
            if bar.is_none() && start.elapsed() >= delay && !finished {
                let style = ProgressStyle::with_template(
                    "{spinner} {msg}: {human_pos} leaves ({rate} leaves/s), {elapsed}",
                )
                .map(|s| {
                    // the rate over the whole count, from when counting began
                    // (the bar itself starts after the delay)
                    s.with_key(
                        "rate",
                        move |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                            let _ = w.write_str(&si(rate(state.pos(), start.elapsed())));
                        },
                    )
                })
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
                if let Some(t) = target.take() {
                    let b = ProgressBar::with_draw_target(None, t)
                        .with_style(style)
                        .with_elapsed(start.elapsed());
                    b.set_message(what.to_string());
                    bar = Some(b);
                }
            }
            if let Some(b) = &bar {
                b.set_position(counter.load(Ordering::Relaxed));
                b.tick();
            }
            if finished {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        match handle.join() {
            Ok(v) => v,
            // the work's own panic, carried on
            Err(e) => std::panic::resume_unwind(e),
        }
    })
}

/// Leaves per second over `elapsed` (0 before any time has passed).
fn rate(leaves: u64, elapsed: Duration) -> f64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        leaves as f64 / secs
    } else {
        0.0
    }
}

/// A rate in a few digits: `950`, `12.3 k`, `758 M`.
fn si(n: f64) -> String {
    let (v, unit) = if n >= 1e9 {
        (n / 1e9, " G")
    } else if n >= 1e6 {
        (n / 1e6, " M")
    } else if n >= 1e3 {
        (n / 1e3, " k")
    } else {
        (n, "")
    };
    if v >= 100.0 || unit.is_empty() {
        format!("{v:.0}{unit}")
    } else {
        format!("{v:.1}{unit}")
    }
}

/// Stderr under a progress display: see [`Progress::above`].
pub struct Above<'a> {
    inner: &'a mut dyn Write,
    bar: Option<ProgressBar>,
    pending: Vec<u8>,
}

impl Write for Above<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let Some(bar) = &self.bar else {
            return self.inner.write(buf);
        };
        self.pending.extend_from_slice(buf);
        if let Some(end) = self.pending.iter().rposition(|&b| b == b'\n') {
            let rest = self.pending.split_off(end + 1);
            let lines = std::mem::replace(&mut self.pending, rest);
            let inner = &mut *self.inner;
            bar.suspend(|| inner.write_all(&lines).and_then(|()| inner.flush()))?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            let lines = std::mem::take(&mut self.pending);
            let inner = &mut *self.inner;
            match &self.bar {
                Some(bar) => bar.suspend(|| inner.write_all(&lines))?,
                None => inner.write_all(&lines)?,
            }
        }
        self.inner.flush()
    }
}

impl Drop for Above<'_> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A terminal that keeps what is drawn on it.
    #[derive(Debug, Clone, Default)]
    struct FakeTerm(Arc<Mutex<String>>);

    impl FakeTerm {
        fn text(&self) -> String {
            self.0.lock().map(|t| t.clone()).unwrap_or_default()
        }
        fn put(&self, s: &str) -> io::Result<()> {
            if let Ok(mut t) = self.0.lock() {
                t.push_str(s);
            }
            Ok(())
        }
    }

    impl indicatif::TermLike for FakeTerm {
        fn width(&self) -> u16 {
            100
        }
        fn move_cursor_up(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> io::Result<()> {
            self.put(s)?;
            self.put("\n")
        }
        fn write_str(&self, s: &str) -> io::Result<()> {
            self.put(s)
        }
        fn clear_line(&self) -> io::Result<()> {
            self.put("<clear>")
        }
        fn flush(&self) -> io::Result<()> {
            Ok(())
        }
    }

    fn error(file: &str) -> super::super::inputs::FileError {
        super::super::inputs::FileError::new(file, "cannot read")
    }

    #[test]
    fn drawn_after_the_delay_with_files_and_games() {
        let term = FakeTerm::default();
        let target = ProgressDrawTarget::term_like(Box::new(term.clone()));
        let mut p = Progress::to(target, Duration::ZERO);
        let (a, b) = (error("a.gamerec"), error("b.wtb"));
        p.event(&Event::FileError(&a));
        p.event(&Event::FileError(&b));
        let drawn = term.text();
        assert!(drawn.contains("2 files, "), "{drawn}");
        assert!(drawn.contains(": b.wtb"), "{drawn}");
        assert!(drawn.contains("games"), "{drawn}");
        p.finish();
    }

    #[test]
    fn counting_gives_the_work_s_result_and_draws_the_count() {
        assert_eq!(counting(false, "x", |_| 6 * 7), 42);
        let term = FakeTerm::default();
        let target = ProgressDrawTarget::term_like(Box::new(term.clone()));
        let n = counting_to(target, Duration::ZERO, "perft reversi 9", |done| {
            for _ in 0..4 {
                done.fetch_add(1_000_000, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(120));
            }
            7
        });
        assert_eq!(n, 7);
        let drawn = term.text();
        assert!(drawn.contains("perft reversi 9: "), "{drawn}");
        assert!(drawn.contains(" leaves ("), "{drawn}");
        assert!(drawn.contains(" leaves/s), "), "{drawn}");
        assert_eq!(si(758_123_456.0), "758 M");
        assert_eq!(si(12_345.0), "12.3 k");
        assert_eq!(si(950.0), "950");
    }

    /// The rate counts from the start of counting, not from when the
    /// display appeared: leaves counted before it are not "instant".
    #[test]
    fn the_rate_counts_from_the_start() {
        let term = FakeTerm::default();
        let target = ProgressDrawTarget::term_like(Box::new(term.clone()));
        counting_to(target, Duration::from_millis(400), "perft x 1", |done| {
            // a million leaves in the first 400 ms, then nothing for 400 ms
            done.fetch_add(1_000_000, Ordering::Relaxed);
            std::thread::sleep(Duration::from_millis(800));
        });
        let drawn = term.text();
        // at most 1e6 / 0.4 s = 2.5 M leaves/s, whatever the frame
        let rates: Vec<&str> = drawn
            .split(" leaves (")
            .skip(1)
            .filter_map(|r| r.split(" leaves/s").next())
            .collect();
        assert!(!rates.is_empty(), "{drawn}");
        for r in rates {
            let mega = match r {
                "0" => Some(0.0),
                _ => r.strip_suffix(" M").and_then(|m| m.parse::<f64>().ok()),
            };
            assert!(mega.is_some_and(|m| m <= 2.6), "rate {r} in {drawn}");
        }
        assert_eq!(rate(10, Duration::ZERO), 0.0);
    }

    #[test]
    fn a_short_run_draws_nothing() {
        let term = FakeTerm::default();
        let target = ProgressDrawTarget::term_like(Box::new(term.clone()));
        let mut p = Progress::to(target, Duration::from_secs(3600));
        let a = error("a.gamerec");
        p.event(&Event::FileError(&a));
        p.finish();
        assert_eq!(term.text(), "");
    }

    #[test]
    fn lines_go_above_and_off_writes_through() {
        let mut err = Vec::new();
        {
            let p = Progress::off();
            let mut w = p.above(&mut err);
            let _ = write!(w, "error: x");
            let _ = writeln!(w, " y");
        }
        assert_eq!(err, b"error: x y\n");
        let term = FakeTerm::default();
        let target = ProgressDrawTarget::term_like(Box::new(term.clone()));
        let p = Progress::to(target, Duration::ZERO);
        let mut err = Vec::new();
        {
            let mut w = p.above(&mut err);
            let _ = write!(w, "error: x");
            let _ = writeln!(w, " y\nmore");
        }
        assert_eq!(err, b"error: x y\nmore\n");
    }
}
