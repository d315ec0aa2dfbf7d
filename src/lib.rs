//! treereduce: shrink an input that triggers a bug into a small one that still triggers it,
//! keeping it valid in its format. The pipeline: a front end parses the text into a tree
//! (`frontend`), the driver picks edits level by level with a list strategy (`driver`,
//! `reduce`), candidates are rendered by splicing (`render`), re-parsed, and judged by the
//! user's test (`oracle`). `run` ties it together for the command line.

pub mod cli;
pub mod driver;
pub mod error;
pub mod frontend;
pub mod oracle;
pub mod output;
pub mod reduce;
pub mod render;
pub mod tokens;
pub mod tree;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use driver::{Driver, DriverOptions, Grouping, Stats, Summary};
use error::{Error, Result};
use frontend::Format;
use oracle::{Oracle, OracleConfig};
use reduce::{StrategyKind, StrategyOptions};

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
            verbose: false,
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
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        // The prefix before the bad byte is valid, so lines and characters can be counted.
        let before = String::from_utf8_lossy(&e.as_bytes()[..offset]);
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Error::Utf8 {
            path: path.to_path_buf(),
            line: before.matches('\n').count() + 1,
            column: before[line_start..].chars().count() + 1,
            offset,
        }
    })
}

/// Time limit derived from how long the original took: ten times that, at least a second.
pub fn derived_timeout(original: Duration) -> Duration {
    (original * 10).max(Duration::from_secs(1))
}

/// Runs a whole reduction. On success or interruption the output file holds the best text
/// the oracle accepted, and the summary says which of the two happened.
pub fn run(config: &Config) -> Result<Summary> {
    let started = Instant::now();
    let original = read_input(&config.input)?;
    let format = config
        .format
        .unwrap_or_else(|| Format::from_path(&config.input));
    let frontend = format.frontend();
    frontend.parse(&original).map_err(|e| Error::Syntax {
        path: config.input.clone(),
        line: e.line,
        column: e.column,
        message: e.message,
        format: format.name(),
    })?;
    let output = config
        .output
        .clone()
        .unwrap_or_else(|| output::default_path(&config.input));
    if same_file(&output, &config.input) {
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
    })?;

    let mut stats = Stats::default();
    let first = oracle.test(&original)?;
    stats.oracle_calls += 1;
    if !first.interesting {
        return Err(not_interesting(config, &first));
    }
    if config.timeout.is_none() {
        let timeout = derived_timeout(first.elapsed);
        if config.verbose {
            eprintln!(
                "the original took {:.2}s; time limit per test: {:.2}s (set it with --timeout)",
                first.elapsed.as_secs_f64(),
                timeout.as_secs_f64()
            );
        }
        oracle.set_timeout(Some(timeout));
    }
    output::write_atomic(&output, &original)?;

    let options = DriverOptions {
        strategy: config.strategy,
        strategy_options: config.strategy_options.clone(),
        grouping: config.grouping,
        jobs: config.jobs,
        output: output.clone(),
        verbose: config.verbose,
    };
    let mut driver = Driver::new(frontend.as_ref(), &oracle, options, original.clone(), stats);
    let outcome = driver.run();
    let mut summary = Summary::new(
        &original,
        driver.current(),
        driver.stats.clone(),
        started,
        output,
    );
    match outcome {
        Ok(()) => Ok(summary),
        Err(Error::Interrupted) => {
            summary.interrupted = true;
            Ok(summary)
        }
        Err(e) => Err(e),
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn not_interesting(config: &Config, outcome: &oracle::Outcome) -> Error {
    let tail: Vec<&str> = outcome.stderr_tail.lines().rev().take(10).collect();
    let mut message = format!(
        "the original input is not interesting: {} {} on it",
        config.test.display(),
        outcome.describe_status()
    );
    if tail.is_empty() {
        message.push_str(" and printed nothing on stderr");
    } else {
        message.push_str("; the last lines of its stderr:");
        for line in tail.iter().rev() {
            message.push_str("\n    ");
            message.push_str(line);
        }
    }
    message.push_str(&format!(
        "\nrun it by hand to see why: {} {}",
        config.test.display(),
        config.input.display()
    ));
    Error::NotInteresting(message)
}
