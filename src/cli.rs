//! Command-line arguments (clap derive) and their translation into a [`Config`].

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

use crate::Config;
use crate::driver::Grouping;
use crate::frontend::Format;
use crate::oracle::Condition;
use crate::reduce::{Order, StrategyKind, StrategyOptions};

const AFTER_HELP: &str = "\
The test is run once per candidate, in a fresh private folder that holds the candidate under
the input's file name; the candidate's absolute path is appended to the test's arguments (or
replaces `{}` where an argument contains it), and its text is on the test's stdin. A bare
TEST name is a file of the current folder when there is one, else a program on PATH. Exit
status 0 means the candidate is still interesting (it still shows the bug); --exit-code,
--match and --timeout-is-interesting change that. Before reducing, the original is tested
twice and the smallest document once. Each test runs in its own process group, killed when
the test ends; on Linux, processes it started outside that group (setsid) are killed too
once its call is over, as long as they keep the TREEREDUCE_CALL variable it runs with. A
test stopped early (timeout, cancelled, Ctrl-C) gets SIGTERM and a second to clean up
before SIGKILL.

Exit codes:
  0    reduced (or nothing could be removed); the result is in the output file
  1    the test cannot guide a reduction: the original input is not interesting, the test
       is flaky on it or does not end on it (within 600 s unless --timeout is given), or
       the test accepts even the smallest document (see --allow-trivial)
  2    usage or input error (unreadable, empty or blank, binary, non-UTF-8 or malformed
       input; test not found or not executable; output or --stats-json not writable, the
       input, or not a regular file)
  130  interrupted (Ctrl-C or SIGTERM); the output file holds the best result so far; a
       second Ctrl-C (half a second after the first or later) stops at once, still killing
       the running tests";

/// Shrink a file that triggers a bug into a small, still valid one that still triggers it.
#[derive(Debug, Parser)]
#[command(name = "treereduce", version, after_help = AFTER_HELP)]
pub struct Cli {
    /// The file to reduce (never modified).
    pub input: PathBuf,
    /// The test: exits 0 while a candidate is still interesting.
    pub test: PathBuf,
    /// Arguments for the test, before the candidate's path (put them after `--` when they
    /// start with a dash).
    pub test_args: Vec<OsString>,
    /// Where to write the result [default: <stem>.reduced.<ext> beside the input; in a folder given here, that same name; a path ending in / must be an existing folder].
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Input format [default: by extension; .html and unknown ones beginning with < are XML when well-formed, else HTML (.html, .htm, or a text opening with <!DOCTYPE html or <html) or lines; unknown ones beginning with { or [ are JSON when they parse as JSON; .jsonc is JSON read around its trailing commas, or lines when most of it is not JSON].
    #[arg(long, value_parser = ["xml", "html", "js", "json", "lines"])]
    pub format: Option<String>,
    /// List strategy.
    #[arg(long, default_value = "gbs", value_parser = ["gbs", "lithium", "ddmin", "adaptive-ddmin", "greedy"])]
    pub strategy: String,
    /// Order in which strategies walk a list.
    #[arg(long, default_value = "forward", value_parser = ["forward", "reverse", "random"])]
    pub order: String,
    /// Seed for --order random.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// How the nodes of one depth form lists: one per parent or one per depth.
    #[arg(long, default_value = "depth", value_parser = ["depth", "parent"])]
    pub grouping: String,
    /// Oracle calls run in parallel (speculatively; the result is the same for every value;
    /// one at a time while the test is quicker than making a candidate).
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Time limit per test in seconds (fractions allowed) [default: 10x the original's run
    /// time, at least 1 s; the original's own runs: 600 s]; a test that runs longer counts
    /// as uninteresting.
    #[arg(long, value_name = "SECS", allow_negative_numbers = true)]
    pub timeout: Option<f64>,
    /// The exit status that means "interesting"; a test killed by signal S ends with
    /// status 128+S, as a shell reports it (139 for a segmentation fault).
    #[arg(long, value_name = "N", default_value_t = 0, allow_negative_numbers = true, value_parser = clap::value_parser!(i32).range(0..=255))]
    pub exit_code: i32,
    /// Interesting only if the test's stdout or stderr also matches this regular
    /// expression (a stream of up to 6 MiB is searched whole, a longer one in its first
    /// and its last 2 MiB; `^` and `$` match at each line's start and end, as in grep).
    #[arg(long = "match", value_name = "REGEX")]
    pub pattern: Option<String>,
    /// Hang reduction: a run that hits --timeout is interesting and a run that ends in time
    /// is not. Needs --timeout. The result is tested once more alone at the end, with a
    /// warning if it then ends in time.
    #[arg(long, requires = "timeout")]
    pub timeout_is_interesting: bool,
    /// Reduce even when the test also accepts the smallest document (normally a sign that
    /// the test does not check for the bug).
    #[arg(long)]
    pub allow_trivial: bool,
    /// Write run figures (sizes, oracle calls, cache hits, timeouts, per-pass figures) as
    /// JSON here.
    #[arg(long, value_name = "FILE")]
    pub stats_json: Option<PathBuf>,
    /// Print nothing but errors.
    #[arg(short, long)]
    pub quiet: bool,
}

/// The longest `--timeout`: a year, far beyond any test and far from `Instant` overflow.
const MAX_TIMEOUT: Duration = Duration::from_secs(365 * 24 * 3600);

impl Cli {
    /// The run configuration these arguments describe.
    pub fn config(&self) -> Result<Config, String> {
        let mut config = Config::new(&self.input, &self.test);
        config.test_args = self.test_args.clone();
        config.output = self.output.clone();
        config.format = match &self.format {
            Some(name) => Some(Format::from_name(name).ok_or(format!("unknown format {name}"))?),
            None => None,
        };
        config.strategy = StrategyKind::from_name(&self.strategy)
            .ok_or(format!("unknown strategy {}", self.strategy))?;
        config.strategy_options = StrategyOptions {
            order: match self.order.as_str() {
                "reverse" => Order::Reverse,
                "random" => Order::Random,
                _ => Order::Forward,
            },
            seed: self.seed,
            ..StrategyOptions::default()
        };
        config.grouping = if self.grouping == "parent" {
            Grouping::Parent
        } else {
            Grouping::Depth
        };
        config.jobs = match self.jobs {
            Some(0) => return Err(String::from("--jobs must be at least 1")),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        config.timeout = match self.timeout {
            Some(t) => match Duration::try_from_secs_f64(t) {
                Ok(d) if d >= Duration::from_millis(1) && d <= MAX_TIMEOUT => Some(d),
                _ => {
                    // 1e300 or 1e-300 written out would be a line of 300 digits.
                    let given = if t == 0.0 || (1e-4..1e9).contains(&t.abs()) {
                        t.to_string()
                    } else {
                        format!("{t:e}")
                    };
                    return Err(format!(
                        "--timeout must be a number of seconds from 0.001 to {}, not {given}",
                        MAX_TIMEOUT.as_secs()
                    ));
                }
            },
            None => None,
        };
        let pattern = match &self.pattern {
            Some(p) => Some(
                regex::bytes::RegexBuilder::new(p)
                    .multi_line(true)
                    .build()
                    .map_err(|e| {
                        let reason = e.to_string();
                        let last = reason.lines().rev().find(|l| !l.trim().is_empty());
                        format!(
                            "invalid --match pattern {p:?}: {}",
                            last.unwrap_or("syntax error").trim()
                        )
                    })?,
            ),
            None => None,
        };
        config.condition = Condition {
            exit_code: self.exit_code,
            pattern,
            timeout_is_interesting: self.timeout_is_interesting,
        };
        config.allow_trivial = self.allow_trivial;
        config.verbose = !self.quiet;
        Ok(config)
    }
}
