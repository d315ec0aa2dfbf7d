//! treereduce: shrink an input that triggers a bug into a small one that still triggers it,
//! keeping it valid in its format. The pipeline: a front end parses the text into a tree
//! (`frontend`), the driver picks edits level by level with a list strategy (`driver`,
//! `reduce`), candidates are rendered by splicing (`render`), re-parsed, and judged by the
//! user's test (`oracle`). `run` ties it together for the command line.

/// Like `eprintln!`, but a closed or broken stderr (`treereduce ... 2>&1 | head -1`) is no
/// reason to stop a reduction: what cannot be written is dropped.
#[macro_export]
macro_rules! tell {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod cli;
pub mod driver;
pub mod error;
pub mod frontend;
pub mod needed;
pub mod oracle;
pub mod output;
pub mod progress;
pub mod reduce;
pub mod render;
pub mod tokens;
pub mod tree;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use driver::{Driver, DriverOptions, Grouping, Stats, Summary};
use error::{Error, Result};
use frontend::{Format, Frontend};
use oracle::{Condition, Oracle, OracleConfig, Outcome};
use progress::{Progress, ProgressMode, ProgressOptions};
use reduce::{StrategyKind, StrategyOptions};
use render::render;
use tree::{Edit, NodeKind, Tree};

/// Everything a run needs, as the command line gives it.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file to reduce; never modified.
    pub input: PathBuf,
    /// The test program.
    pub test: PathBuf,
    /// Arguments given to the test before the candidate path.
    pub test_args: Vec<OsString>,
    /// Where the result goes; `None` for `<stem>.reduced.<ext>` beside the input.
    pub output: Option<PathBuf>,
    /// Input format; `None` to choose by extension.
    pub format: Option<Format>,
    /// List strategy.
    pub strategy: StrategyKind,
    /// Strategy settings.
    pub strategy_options: StrategyOptions,
    /// Grouping of nodes into lists.
    pub grouping: Grouping,
    /// Oracle calls in flight at once.
    pub jobs: usize,
    /// Per-call time limit; `None` derives one from the original's run time.
    pub timeout: Option<Duration>,
    /// The time limit of the original's runs at start-up while `timeout` is `None`
    /// ([`ORIGINAL_LIMIT`] unless changed): a test that hangs on it is reported.
    pub original_limit: Duration,
    /// Which test runs count as interesting.
    pub condition: Condition,
    /// Go on even when the test also accepts the smallest document.
    pub allow_trivial: bool,
    /// Print progress on stderr.
    pub verbose: bool,
}

impl Config {
    /// A configuration with default settings for `input` and `test`.
    pub fn new(input: impl Into<PathBuf>, test: impl Into<PathBuf>) -> Self {
        Config {
            input: input.into(),
            test: test.into(),
            test_args: Vec::new(),
            output: None,
            format: None,
            strategy: StrategyKind::default(),
            strategy_options: StrategyOptions::default(),
            grouping: Grouping::default(),
            jobs: 1,
            timeout: None,
            original_limit: ORIGINAL_LIMIT,
            condition: Condition::default(),
            allow_trivial: false,
            verbose: false,
        }
    }

    /// Where the result goes: `output`, or `<stem>.reduced.<ext>` beside the input; in
    /// `output` when it is a folder (one that exists, or a path ending in `/`).
    pub fn output_path(&self) -> PathBuf {
        let default = output::default_path(&self.input);
        match &self.output {
            Some(path) if path.is_dir() || path.as_os_str().as_encoded_bytes().ends_with(b"/") => {
                match default.file_name() {
                    Some(name) => path.join(name),
                    None => path.clone(),
                }
            }
            Some(path) => path.clone(),
            None => default,
        }
    }
}

/// Reads `path` as UTF-8 text, with errors naming the file and byte offset.
pub fn read_input(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|source| Error::Read {
        path: path.to_path_buf(),
        source,
    })?;
    if bytes.is_empty() {
        return Err(Error::Empty {
            path: path.to_path_buf(),
        });
    }
    // A byte-order mark says UTF-16 or UTF-32 (whose NUL bytes would say "binary").
    let wide = [
        (&[0xFF, 0xFE, 0, 0][..], "UTF-32LE"),
        (&[0, 0, 0xFE, 0xFF][..], "UTF-32BE"),
        (&[0xFF, 0xFE][..], "UTF-16LE"),
        (&[0xFE, 0xFF][..], "UTF-16BE"),
    ];
    if let Some((_, encoding)) = wide.iter().find(|(mark, _)| bytes.starts_with(mark)) {
        return Err(Error::Encoding {
            path: path.to_path_buf(),
            encoding,
        });
    }
    if let Some(offset) = bytes.iter().position(|&b| b == 0) {
        return Err(Error::Binary {
            path: path.to_path_buf(),
            offset,
        });
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        // The prefix before the bad byte is valid, so lines and characters can be counted.
        let before = String::from_utf8_lossy(&e.as_bytes()[..offset]);
        let (line, column) = frontend::line_and_column(&before, before.len());
        Error::Utf8 {
            path: path.to_path_buf(),
            line,
            column,
            offset,
            declared: declared_encoding(e.as_bytes()),
        }
    })?;
    // Every format reads such a text as an empty document (lines: blank lines only).
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        return Err(Error::Blank {
            path: path.to_path_buf(),
        });
    }
    Ok(text)
}

/// The encoding other than UTF-8 that the head of a text names for itself: an XML
/// declaration's `encoding` (`<?xml version="1.0" encoding="Shift_JIS"?>`) or an HTML
/// `charset` (`<meta charset="windows-1251">`), within its first 1024 bytes.
fn declared_encoding(bytes: &[u8]) -> Option<String> {
    let head = &bytes[..bytes.len().min(1024)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let lower = head.to_ascii_lowercase();
    let find = |within: &[u8], word: &[u8]| within.windows(word.len()).position(|w| w == word);
    let start = head.iter().position(|b| !b.is_ascii_whitespace())?;
    // An XML declaration's pseudo-attribute, else a charset anywhere in the head.
    let declaration = lower[start..].starts_with(b"<?xml").then(|| {
        let end = find(&lower[start..], b"?>").map_or(lower.len(), |e| start + e);
        start..end
    });
    let value_at = declaration
        .and_then(|d| find(&lower[d.clone()], b"encoding").map(|at| d.start + at + 8))
        .or_else(|| find(&lower, b"charset").map(|at| at + 7))?;
    let rest = head[value_at..]
        .trim_ascii_start()
        .strip_prefix(b"=")?
        .trim_ascii_start();
    let rest = rest
        .strip_prefix(b"\"")
        .or_else(|| rest.strip_prefix(b"'"))
        .unwrap_or(rest);
    let end = rest
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || b"-_.:".contains(b)))
        .unwrap_or(rest.len());
    let found = std::str::from_utf8(&rest[..end]).ok()?;
    let utf8 = found.eq_ignore_ascii_case("utf-8") || found.eq_ignore_ascii_case("utf8");
    (!found.is_empty() && !utf8).then(|| found.to_string())
}

/// Time limit of the runs of the original when no `--timeout` was given: long enough for
/// a slow test (a browser, a build), short enough that a test that never ends is reported.
pub const ORIGINAL_LIMIT: Duration = Duration::from_secs(600);

/// Time limit derived from how long the original took: ten times that, at least a second.
pub fn derived_timeout(original: Duration) -> Duration {
    (original * 10).max(Duration::from_secs(1))
}

/// The smallest document the front end allows for `text`: every deletable top-level node
/// deleted, and every deletable child of a top-level node that must stay (for XML: the
/// root element emptied, its prolog kept; for lines: the empty text), a child that may
/// not go replaced by its placeholder when it has one (a fraction's `<mrow/>`), formatting
/// whitespace left where it is, as the deletion passes leave it. `None` when that
/// text would not parse. Used to check that the test does not accept anything.
pub fn smallest_document(frontend: &dyn Frontend, text: &str) -> Option<String> {
    // Only the top two levels matter here.
    let tree = frontend.parse_to(text, 2).ok()?;
    smallest_of(frontend, text, &tree)
}

/// `smallest` made smaller while emptying makes more deletable: a DOCTYPE whose entities
/// only the emptied root used may then go. Asked only when the test accepts `smallest`,
/// before it is said to accept anything (a test that looks for an entity's text, which
/// only the DOCTYPE then holds); not as the smallest document itself, whose verdict the
/// deletion passes reuse for the text they make first.
fn smaller_still(frontend: &dyn Frontend, mut smallest: String) -> String {
    for _ in 0..3 {
        let Some(next) = frontend
            .parse_to(&smallest, 2)
            .ok()
            .and_then(|tree| smallest_of(frontend, &smallest, &tree))
        else {
            break;
        };
        if next.len() >= smallest.len() {
            break;
        }
        smallest = next;
    }
    smallest
}

/// [`smallest_document`] with `text`'s tree (built at least two levels deep) at hand.
fn smallest_of(frontend: &dyn Frontend, text: &str, tree: &Tree) -> Option<String> {
    // Formatting whitespace stays, as in the deletion passes: then this is the very text
    // their first candidates make once the prolog has gone, and its verdict is known.
    // A child that may not go but may be replaced by a placeholder (a fraction's
    // numerator: `<mrow/>`) takes it: kept whole, a test that needs it would be taken
    // for one that accepts anything.
    let deletion = |id| {
        let node = tree.node(id);
        if node.kind == NodeKind::Whitespace {
            return None;
        }
        // With its separators, line and brackets (`node.deletion()`), as the deletion passes
        // take it: a JSON object emptied is `{}`, not `{` and `}` on two lines.
        node.deletion().or_else(|| {
            node.alternatives
                .iter()
                .find(|edits| matches!(edits.as_slice(), [e] if e.span == node.span && e.text.len() < node.span.len()))
                .and_then(|edits| edits.first().cloned())
        })
    };
    let mut edits = Vec::new();
    for &top in &tree.node(tree.root()).children {
        let node = tree.node(top);
        match &node.delete {
            Some(_) => edits.extend(deletion(top)),
            None => edits.extend(node.children.iter().filter_map(|&child| deletion(child))),
        }
    }
    let edits: Vec<&Edit> = edits.iter().collect();
    let smallest = render(text, &edits);
    frontend.is_valid(&smallest).then_some(smallest)
}

/// Runs a whole reduction. On success or interruption the output file holds the best text
/// the oracle accepted, and the summary says which of the two happened.
pub fn run(config: &Config) -> Result<Summary> {
    let started = Instant::now();
    if config.condition.timeout_is_interesting && config.timeout.is_none() {
        return Err(Error::Usage(String::from(
            "--timeout-is-interesting needs an explicit --timeout SECS (the time after which a run counts as a hang)",
        )));
    }
    let original = read_input(&config.input)?;
    let format = config
        .format
        .unwrap_or_else(|| Format::detect(&config.input, &original));
    if config.verbose
        && config.format.is_none()
        && let Some(note) = Format::detection_note(&config.input, &original, format)
    {
        crate::tell!("{note}");
    }
    // Any text reads as HTML: one without markup is a single text, shrunk word by word.
    if config.verbose && config.format == Some(Format::Html) && !original.contains('<') {
        let own = match Format::from_path(&config.input) {
            Format::Html | Format::Xml => Format::Lines,
            other => other,
        };
        crate::tell!(
            "note: {} holds no markup (not one <): as HTML it is a single text, shrunk a word at a time; --format {} reduces it by its own structure",
            config.input.display(),
            own.name()
        );
    }
    if config.verbose
        && format == Format::Xml
        && let Some((at, reference)) = frontend::forbidden_reference(&original)
    {
        let (line, column) = frontend::line_and_column(&original, at);
        crate::tell!(
            "note: {}:{line}:{column}: {reference} is a character XML does not allow; treereduce reads it, stricter parsers (expat, libxml2) refuse the input, and the result while it keeps it",
            config.input.display()
        );
    }
    let frontend = format.frontend_for(&config.input, &original);
    if config.verbose
        && let Some(note) = frontend.note()
    {
        crate::tell!("treereduce: {}:{note}", config.input.display());
    }
    // Deep enough for the start-up checks and the first deletion pass, which takes it.
    let tree = frontend
        .parse_to(&original, driver::FIRST_LIMIT)
        .map_err(|e| Error::Syntax {
            path: config.input.clone(),
            line: e.line,
            column: e.column,
            message: e.message,
            format: format.name(),
            instead: format.instead(&original),
        })?;
    let output = config.output_path();
    if output::same_file(&output, &config.input) {
        return Err(Error::Usage(format!(
            "the output {} is the input; treereduce never modifies its input, choose another -o",
            output.display()
        )));
    }
    output::check_writable(&output)?;
    let file_name = config
        .input
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| OsString::from("input"));
    let mut oracle = Oracle::new(OracleConfig {
        command: config.test.clone(),
        args: config.test_args.clone(),
        file_name,
        timeout: config.timeout,
        condition: config.condition.clone(),
    })?;
    let progress = Progress::new(ProgressOptions {
        mode: if config.verbose {
            ProgressMode::Auto
        } else {
            ProgressMode::Quiet
        },
        ..ProgressOptions::new(original.len())
    });
    oracle.set_progress(progress.clone());

    let mut stats = Stats::default();
    let checks = StartupChecks {
        config,
        frontend: frontend.as_ref(),
        progress: &progress,
        original: &original,
        tree,
    };
    let options = DriverOptions {
        strategy: config.strategy,
        strategy_options: config.strategy_options.clone(),
        grouping: config.grouping,
        jobs: config.jobs,
        output: output.clone(),
        verbose: config.verbose,
    };
    progress.update(original.len(), "start-up checks");
    let mut driver = match checks.start(oracle, &mut stats, options) {
        Ok(driver) => driver,
        // The original passed once: it is the best accepted text so far.
        Err(Error::Interrupted) if stats.original_accepted => {
            progress.finish();
            output::write_atomic(&output, &original)?;
            let mut summary = Summary::new(&original, &original, stats, started, output);
            summary.interrupted = true;
            return Ok(summary);
        }
        Err(e) => {
            progress.finish();
            return Err(e);
        }
    };
    output::write_atomic(&output, driver.current())?;
    progress.update(driver.current().len(), "reducing");
    driver.set_progress(progress.clone());
    let mut outcome = driver.run();
    // A hang found beside other calls, or on a loaded machine, may not be one alone.
    let mut hang_unconfirmed = None;
    if outcome.is_ok()
        && config.condition.timeout_is_interesting
        && driver.current() != original.as_str()
    {
        progress.update(driver.current().len(), "testing the result alone");
        match driver.ask_alone() {
            Ok(alone) if !alone.interesting => hang_unconfirmed = Some(alone.elapsed),
            Ok(_) => {}
            Err(e) => outcome = Err(e),
        }
    }
    progress.finish();
    let mut summary = Summary::new(
        &original,
        driver.current(),
        driver.stats.clone(),
        started,
        output,
    );
    summary.hang_unconfirmed = hang_unconfirmed;
    match outcome {
        Ok(()) => Ok(summary),
        Err(Error::Interrupted) => {
            summary.interrupted = true;
            Ok(summary)
        }
        Err(e) => Err(e),
    }
}

/// What the start-up checks need to know.
struct StartupChecks<'a> {
    config: &'a Config,
    frontend: &'a dyn Frontend,
    progress: &'a Progress,
    original: &'a str,
    /// The original's tree, at least [`driver::FIRST_LIMIT`] levels deep.
    tree: Tree,
}

impl<'a> StartupChecks<'a> {
    /// Runs the start-up checks in the order the answers are reported: the original
    /// (it must be interesting; its run time gives the time limit), the original again (a
    /// different verdict means a flaky test), the smallest document (it must not be
    /// interesting unless `--allow-trivial`). Returns the driver, ready to reduce from the
    /// original (or from the smallest document with `--allow-trivial`). `stats` counts the
    /// calls, also when a check fails.
    ///
    /// With several jobs the calls overlap and the verdicts stay the same: the smallest
    /// document runs beside the first run of the original (held to the time limit that
    /// run gives, counted from its own start), and the reduction's first candidate beside
    /// the second run.
    fn start(
        self,
        mut oracle: Oracle,
        stats: &mut Stats,
        options: DriverOptions,
    ) -> Result<Driver<'a>> {
        let smallest = smallest_of(self.frontend, self.original, &self.tree)
            .filter(|s| s.as_str() != self.original);
        let beside = smallest.as_deref().filter(|_| self.config.jobs > 1);
        let trivial = self.original_is_interesting(&mut oracle, stats, beside)?;
        let oracle = Arc::new(oracle);
        let new_driver = |start: &str, stats: Stats| {
            Driver::new(
                self.frontend,
                oracle.clone(),
                options.clone(),
                start.into(),
                stats,
            )
        };
        let (mut driver, second, trivial) = match (trivial, &smallest) {
            // The smallest document is judged already: the reduction can start.
            (Some(trivial), Some(smallest)) => {
                let start = if trivial.interesting && self.config.allow_trivial {
                    smallest.as_str()
                } else {
                    self.original
                };
                let mut driver = new_driver(start, std::mem::take(stats));
                if !trivial.interesting {
                    // Known before the prefetch, which may well build that very text.
                    driver.remember(smallest, false);
                    driver.prefetch_start();
                }
                let second = self.ask(&oracle, &mut driver.stats, self.original);
                // Every call is counted before a check may fail.
                if second.is_err() {
                    driver.finish_calls();
                }
                *stats = driver.stats.clone();
                (Some(driver), second?, Some(trivial))
            }
            (_, smallest) => {
                let second = self.ask(&oracle, stats, self.original)?;
                let trivial = match smallest {
                    Some(smallest) => Some(self.ask(&oracle, stats, smallest)?),
                    None => None,
                };
                (None, second, trivial)
            }
        };
        let stop = |driver: Option<Driver>, stats: &mut Stats, error: Error| {
            if let Some(mut driver) = driver {
                driver.finish_calls();
                *stats = driver.stats.clone();
            }
            Err(error)
        };
        if !second.interesting {
            let error = Error::Flaky(format!(
                "flaky test: {} accepted the original {} once, then {} on it{}; make the test deterministic (or give a larger --timeout if it is slow) and try again",
                self.config.test.display(),
                self.config.input.display(),
                verdict(&second),
                stderr_excerpt(&second),
            ));
            return stop(driver, stats, error);
        }
        let (start, boring) = match (smallest, trivial) {
            (Some(smallest), Some(trivial))
                if trivial.interesting && !self.config.allow_trivial =>
            {
                let still = smaller_still(self.frontend, smallest.clone());
                let mut boring = false;
                if still != smallest {
                    // Counted where the calls before it were.
                    let counted = match &mut driver {
                        Some(driver) => &mut driver.stats,
                        None => &mut *stats,
                    };
                    match self.ask(&oracle, counted, &still) {
                        Ok(verdict) => boring = !verdict.interesting,
                        Err(error) => return stop(driver, stats, error),
                    }
                }
                if boring {
                    (self.original.to_string(), Some(still))
                } else {
                    const SHOWN: usize = 60;
                    let shown: String = still.chars().take(SHOWN).collect();
                    let cut = if still.chars().nth(SHOWN).is_some() {
                        " (its beginning)"
                    } else {
                        ""
                    };
                    let error = Error::Trivial(format!(
                        "the test accepts anything: {} also says the smallest document {:?}{cut} is interesting; make it check for the bug (e.g. grep for the error message), or pass --allow-trivial to reduce anyway",
                        self.config.test.display(),
                        shown.trim_end(),
                    ));
                    return stop(driver, stats, error);
                }
            }
            (Some(smallest), Some(trivial)) if trivial.interesting => (smallest, None),
            (smallest, _) => (self.original.to_string(), smallest),
        };
        let mut driver = match driver.take() {
            Some(driver) => driver,
            None => new_driver(&start, std::mem::take(stats)),
        };
        // The test found the smallest document not interesting: never ask again.
        if let Some(boring) = &boring {
            driver.remember(boring, false);
        }
        if driver.current() == self.original {
            driver.offer_tree(self.original, self.tree);
        }
        Ok(driver)
    }

    /// Tests the original once; it must be interesting. Sets the derived time limit. With
    /// `beside`, tests that text at the same time and returns its outcome; when no
    /// `--timeout` was given, that call is held to the limit derived from the original.
    fn original_is_interesting(
        &self,
        oracle: &mut Oracle,
        stats: &mut Stats,
        beside: Option<&str>,
    ) -> Result<Option<Outcome>> {
        let first = self.original_is_interesting_once(oracle, stats, beside);
        // `node render.js` names a file of the current folder, but the test runs in a
        // fresh one: when the test fails so, try once more with such paths made absolute.
        let Err(Error::NotInteresting(message)) = first else {
            return first;
        };
        let Some(args) = oracle::absolute_file_args(oracle.args()) else {
            return Err(Error::NotInteresting(message));
        };
        let given = oracle.args().to_vec();
        oracle.set_args(args);
        match self.original_is_interesting_once(oracle, stats, beside) {
            Err(Error::NotInteresting(_)) => {
                oracle.set_args(given);
                Err(Error::NotInteresting(message))
            }
            Err(e) => Err(e),
            Ok(outcome) => {
                if self.config.verbose {
                    let shown: Vec<String> = oracle
                        .args()
                        .iter()
                        .zip(&given)
                        .filter(|(now, before)| now != before)
                        .map(|(now, before)| {
                            format!("{} as {}", before.to_string_lossy(), now.to_string_lossy())
                        })
                        .collect();
                    self.progress.println(&format!(
                        "note: the test runs in a fresh folder and failed there with the paths it was given; it passes with {}, which it now gets",
                        shown.join(", ")
                    ));
                }
                Ok(outcome)
            }
        }
    }

    /// [`StartupChecks::original_is_interesting`] with the test's arguments as they are.
    fn original_is_interesting_once(
        &self,
        oracle: &mut Oracle,
        stats: &mut Stats,
        beside: Option<&str>,
    ) -> Result<Option<Outcome>> {
        let config = self.config;
        if config.timeout.is_none() {
            oracle.set_timeout(Some(config.original_limit));
        }
        let (first, other) = match beside {
            None => (oracle.test(self.original), None),
            Some(text) => {
                let oracle: &Oracle = oracle;
                let cancel = AtomicBool::new(false);
                std::thread::scope(|scope| {
                    let began = Instant::now();
                    let other = scope.spawn(|| oracle.test_cancellable(text, &cancel));
                    let first = oracle.test(self.original);
                    let limit = match &first {
                        Ok(first) if first.interesting => {
                            config.timeout.unwrap_or(derived_timeout(first.elapsed))
                        }
                        // Its verdict will not be used.
                        _ => Duration::ZERO,
                    };
                    while !other.is_finished() && began.elapsed() < limit {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    cancel.store(true, Ordering::SeqCst);
                    let other = other.join().unwrap_or(Err(Error::Interrupted));
                    (first, Some(other))
                })
            }
        };
        let other = other.map(|o| self.count(stats, o));
        let first = self.count(stats, first)?;
        if !first.interesting {
            return Err(not_interesting(config, &first));
        }
        stats.original_accepted = true;
        if config.timeout.is_none() {
            let timeout = derived_timeout(first.elapsed);
            if config.verbose {
                self.progress.println(&format!(
                    "the original took {:.2}s; time limit per test: {:.2}s (set it with --timeout)",
                    first.elapsed.as_secs_f64(),
                    timeout.as_secs_f64()
                ));
            }
            oracle.set_timeout(Some(timeout));
        }
        let Some(mut other) = other.transpose()? else {
            return Ok(None);
        };
        if other.cancelled {
            // Stopped at the time limit the original gave: a timeout, as it would have
            // been had it run after the original.
            other.cancelled = false;
            other.timed_out = true;
            other.interesting = false;
            stats.timeouts += 1;
        }
        Ok(Some(other))
    }

    fn ask(&self, oracle: &Oracle, stats: &mut Stats, text: &str) -> Result<Outcome> {
        self.count(stats, oracle.test(text))
    }

    fn count(&self, stats: &mut Stats, outcome: Result<Outcome>) -> Result<Outcome> {
        let outcome = outcome?;
        stats.oracle_calls += 1;
        if outcome.timed_out {
            stats.timeouts += 1;
        }
        Ok(outcome)
    }
}

/// Why a run was not interesting, in words: "exited 3", "exited 0 but its output did not
/// match --match".
fn verdict(outcome: &Outcome) -> String {
    let status = outcome.describe_status();
    if outcome.matched == Some(false) {
        format!("{status} but its output did not match --match")
    } else {
        status
    }
}

/// "; the last lines of its stderr: ..." or " and printed nothing on stderr".
fn stderr_excerpt(outcome: &Outcome) -> String {
    let tail: Vec<&str> = outcome.stderr_tail.lines().rev().take(10).collect();
    if tail.is_empty() {
        return String::from(" and printed nothing on stderr");
    }
    let mut message = String::from("; the last lines of its stderr:");
    for line in tail.iter().rev() {
        message.push_str("\n    ");
        // Binary noise and endless lines would bury the message.
        let shown: String = line
            .chars()
            .take(200)
            .map(|c| if c.is_control() && c != '\t' { '?' } else { c })
            .collect();
        message.push_str(&shown);
    }
    message
}

/// The command line that runs the test on the input, as the reducer runs it on a
/// candidate (see [`oracle::test_arguments`]), quoted for a shell.
fn by_hand(config: &Config) -> String {
    let quote = oracle::shell_word;
    let arguments = oracle::test_arguments(&config.test_args, &config.input);
    // A bare name that is a file here ran that file; a shell would look it up on PATH.
    let test = &config.test;
    let here = test.components().count() == 1 && !test.is_absolute() && test.is_file();
    let command = if here {
        Path::new(".").join(test).into_os_string()
    } else {
        test.clone().into_os_string()
    };
    let mut line = std::iter::once(command.as_os_str())
        .chain(arguments.iter().map(|a| a.as_os_str()))
        .map(|word| quote(&word.to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ");
    // The test also reads the candidate on stdin.
    line.push_str(" < ");
    line.push_str(&quote(&config.input.to_string_lossy()));
    line
}

fn not_interesting(config: &Config, outcome: &Outcome) -> Error {
    // A timeout is interesting in a hang reduction, whose --timeout is required.
    if outcome.timed_out && !config.condition.timeout_is_interesting {
        let (limit, advice) = match config.timeout {
            None => (
                format!(
                    "{} s (the limit of the original's runs without --timeout)",
                    config.original_limit.as_secs_f64()
                ),
                "if it needs longer, give a --timeout SECS above its run time, else see why it hangs",
            ),
            Some(limit) => (
                format!("--timeout {} s", limit.as_secs_f64()),
                "give a --timeout above its run time, or see why it hangs",
            ),
        };
        return Error::NotInteresting(format!(
            "the test did not end on the original input within {limit}; {advice}: {}",
            by_hand(config)
        ));
    }
    let mut message = format!(
        "the original input is not interesting: {} {} on it{}",
        config.test.display(),
        verdict(outcome),
        stderr_excerpt(outcome),
    );
    message.push_str(&format!("\nrun it by hand to see why: {}", by_hand(config)));
    // By hand it runs where the user stands; here in a folder holding only the candidate.
    let code = outcome.status.and_then(|s| s.code());
    let tail = outcome.stderr_tail.to_lowercase();
    let missing = [
        "not found",
        "no such file",
        "can't open",
        "cannot find",
        "cannot open",
    ];
    if code == Some(127) || missing.iter().any(|m| tail.contains(m)) {
        message.push_str(
            "\nnote: the test runs in a fresh folder that holds only the candidate, not in the current folder: name the files it uses by absolute paths",
        );
    }
    Error::NotInteresting(message)
}
