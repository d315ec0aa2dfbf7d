//! Progress on stderr while a reduction runs: a live status line (indicatif) when stderr is
//! a terminal, a plain line at most every few seconds otherwise, nothing with `-q`. It only
//! displays figures it is given; it never decides anything and never touches the oracle.
//! Cheap to clone and safe to share: the oracle's worker threads report finished calls.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How progress is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgressMode {
    /// Nothing at all (`-q`).
    Quiet,
    /// A live line on a terminal, plain periodic lines otherwise.
    Auto,
}

/// Settings of a [`Progress`].
#[derive(Debug, Clone)]
pub struct ProgressOptions {
    /// Quiet or automatic.
    pub mode: ProgressMode,
    /// Size of the original input in bytes, the base of "% smaller".
    pub original_size: usize,
    /// Least time between two plain lines when stderr is not a terminal; the first comes
    /// after one interval, so short runs print none.
    pub interval: Duration,
}

impl ProgressOptions {
    /// Automatic progress for an input of `original_size` bytes, a plain line every 10 s.
    pub fn new(original_size: usize) -> Self {
        ProgressOptions {
            mode: ProgressMode::Auto,
            original_size,
            interval: Duration::from_secs(10),
        }
    }
}

enum Display {
    Hidden,
    Bar(ProgressBar),
    Lines(Box<dyn Write + Send>),
}

struct State {
    display: Display,
    size: usize,
    calls: usize,
    pass: String,
    last_line: Option<Instant>,
}

struct Inner {
    options: ProgressOptions,
    started: Instant,
    state: Mutex<State>,
}

/// The progress display of one run.
#[derive(Clone)]
pub struct Progress {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Progress")
            .field("options", &self.inner.options)
            .finish_non_exhaustive()
    }
}

/// True when the user asked for no colours (<https://no-color.org>).
pub fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

impl Progress {
    /// Progress on stderr as `options` say: a live line if stderr is a terminal.
    pub fn new(options: ProgressOptions) -> Self {
        let display = match options.mode {
            ProgressMode::Quiet => Display::Hidden,
            ProgressMode::Auto if std::io::stderr().is_terminal() => {
                let template = if no_color() {
                    "{spinner} [{elapsed}] {msg}"
                } else {
                    "{spinner:.cyan} [{elapsed}] {msg:.bold}"
                };
                let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                if let Ok(style) = ProgressStyle::with_template(template) {
                    bar.set_style(style);
                }
                bar.enable_steady_tick(Duration::from_millis(200));
                Display::Bar(bar)
            }
            ProgressMode::Auto => Display::Lines(Box::new(std::io::stderr())),
        };
        Self::with_display(options, display)
    }

    /// Plain lines into `sink` whatever stderr is (for tests and log files).
    pub fn to_writer(options: ProgressOptions, sink: Box<dyn Write + Send>) -> Self {
        let display = match options.mode {
            ProgressMode::Quiet => Display::Hidden,
            ProgressMode::Auto => Display::Lines(sink),
        };
        Self::with_display(options, display)
    }

    fn with_display(options: ProgressOptions, display: Display) -> Self {
        Progress {
            inner: Arc::new(Inner {
                options: options.clone(),
                started: Instant::now(),
                state: Mutex::new(State {
                    display,
                    size: options.original_size,
                    calls: 0,
                    pass: String::from("start-up checks"),
                    last_line: (!options.interval.is_zero()).then(Instant::now),
                }),
            }),
        }
    }

    /// True when a live line is drawn: other output must then go through
    /// [`Progress::println`] or it tears the line.
    pub fn is_live(&self) -> bool {
        self.inner
            .state
            .lock()
            .is_ok_and(|s| matches!(s.display, Display::Bar(_)))
    }

    /// The driver's report: the current best size and the pass it is in. Call it when a
    /// pass starts and after every accepted candidate.
    pub fn update(&self, size: usize, pass: &str) {
        self.with_state(|state| {
            state.size = size;
            if state.pass != pass {
                state.pass = pass.to_string();
            }
        });
    }

    /// The oracle's report: one more call finished.
    pub fn call_finished(&self) {
        self.with_state(|state| state.calls += 1);
    }

    /// Prints a whole line on stderr without tearing the live line.
    pub fn println(&self, line: &str) {
        if let Ok(mut state) = self.inner.state.lock() {
            match &mut state.display {
                Display::Hidden => {}
                Display::Bar(bar) => bar.suspend(|| crate::tell!("{line}")),
                Display::Lines(sink) => {
                    let _ = writeln!(sink, "{line}");
                }
            }
        }
    }

    /// Removes the live line (before the summary is printed).
    pub fn finish(&self) {
        if let Ok(state) = self.inner.state.lock()
            && let Display::Bar(bar) = &state.display
        {
            bar.finish_and_clear();
        }
    }

    fn with_state(&self, change: impl FnOnce(&mut State)) {
        let Ok(mut state) = self.inner.state.lock() else {
            return;
        };
        change(&mut state);
        if matches!(state.display, Display::Hidden) {
            return;
        }
        let due = state
            .last_line
            .is_none_or(|t| t.elapsed() >= self.inner.options.interval);
        let is_bar = matches!(state.display, Display::Bar(_));
        if !is_bar && !due {
            return;
        }
        let message = self.message(&state);
        match &mut state.display {
            Display::Hidden => {}
            Display::Bar(bar) => bar.set_message(message),
            Display::Lines(sink) => {
                let _ = writeln!(sink, "progress: {message}");
                state.last_line = Some(Instant::now());
            }
        }
    }

    /// "1234 bytes (45.2% smaller), 120 calls, 3.1 calls/s, delete depth 3".
    fn message(&self, state: &State) -> String {
        let options = &self.inner.options;
        let size = state.size;
        let smaller = if options.original_size == 0 {
            0.0
        } else {
            100.0 * (options.original_size as f64 - size as f64) / options.original_size as f64
        };
        let seconds = self.inner.started.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 {
            state.calls as f64 / seconds
        } else {
            0.0
        };
        format!(
            "{size} bytes ({smaller:.1}% smaller), {} calls, {rate:.1} calls/s, {}",
            state.calls, state.pass
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn lines_of(sink: &Shared) -> Vec<String> {
        String::from_utf8(sink.0.lock().unwrap().clone())
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }

    #[test]
    fn plain_lines_show_size_reduction_calls_and_pass() {
        let sink = Shared::default();
        let options = ProgressOptions {
            interval: Duration::ZERO,
            ..ProgressOptions::new(200)
        };
        let progress = Progress::to_writer(options, Box::new(sink.clone()));
        progress.call_finished();
        progress.update(50, "delete depth 2");
        let lines = lines_of(&sink);
        assert_eq!(lines.len(), 2);
        assert!(lines[0].starts_with("progress: 200 bytes (0.0% smaller), 1 calls"));
        assert!(lines[1].starts_with("progress: 50 bytes (75.0% smaller), 1 calls"));
        assert!(lines[1].ends_with(", delete depth 2"), "{}", lines[1]);
    }

    #[test]
    fn plain_lines_are_rate_limited_and_quiet_prints_nothing() {
        let sink = Shared::default();
        let progress = Progress::to_writer(ProgressOptions::new(10), Box::new(sink.clone()));
        for _ in 0..100 {
            progress.call_finished();
        }
        // The first line comes only after one interval (10 s).
        assert!(lines_of(&sink).is_empty());
        let quiet_sink = Shared::default();
        let options = ProgressOptions {
            mode: ProgressMode::Quiet,
            ..ProgressOptions::new(10)
        };
        let quiet = Progress::to_writer(options, Box::new(quiet_sink.clone()));
        quiet.call_finished();
        quiet.println("x");
        assert!(lines_of(&quiet_sink).is_empty());
    }
}
