//! The `treereduce` binary: parse arguments, run the library, map the outcome to an exit
//! code (documented in `--help` and the README).

use std::process::ExitCode;
use std::sync::OnceLock;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use clap::Parser;
use treereduce::cli::Cli;
use treereduce::error::{EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE};
use treereduce::oracle::{self, INTERRUPTED};
use treereduce::output;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let config = match cli.config() {
        Ok(c) => c,
        Err(message) => {
            treereduce::tell!("treereduce: {message}");
            return ExitCode::from(EXIT_USAGE as u8);
        }
    };
    if let Some(stats) = &cli.stats_json {
        let output = config.output_path();
        let clash = [
            (&config.input, "input"),
            (&output, "output"),
            (&config.test, "test"),
        ]
        .into_iter()
        .find(|(path, _)| output::same_file(stats, path));
        if let Some((_, what)) = clash {
            treereduce::tell!(
                "treereduce: --stats-json {} is the {what} file; choose another path",
                stats.display()
            );
            return ExitCode::from(EXIT_USAGE as u8);
        }
        if let Err(e) = output::check_writable(stats) {
            treereduce::tell!("treereduce: --stats-json: {e}");
            return ExitCode::from(EXIT_USAGE as u8);
        }
    }
    // The first Ctrl-C or SIGTERM asks for a clean stop; a second one leaves at once, after
    // killing the running tests and removing the temporary folders. One that comes within
    // SAME_SIGNAL of the first is that one again: `timeout -s INT` signals both the
    // reducer and its process group, and a loaded machine may deliver the two apart.
    const SAME_SIGNAL: Duration = Duration::from_millis(500);
    oracle::adopt_strays();
    let first = OnceLock::new();
    let _ = ctrlc::set_handler(move || {
        let at = *first.get_or_init(Instant::now);
        if INTERRUPTED.swap(true, Ordering::SeqCst) && at.elapsed() >= SAME_SIGNAL {
            oracle::emergency_cleanup();
            output::emergency_cleanup();
            treereduce::tell!(
                "treereduce: interrupted again; stopped at once; the output file, if any, holds the last accepted text that a parse confirmed"
            );
            std::process::exit(EXIT_INTERRUPTED);
        }
    });
    match treereduce::run(&config) {
        Ok(summary) => {
            if let Some(path) = &cli.stats_json
                && let Err(e) = output::write_atomic(path, &summary.to_json())
            {
                treereduce::tell!("treereduce: {e}");
                return ExitCode::from(EXIT_USAGE as u8);
            }
            if config.verbose {
                treereduce::tell!("{summary}");
            } else if summary.interrupted {
                // `-q` prints errors only; where the best result is still needs saying.
                treereduce::tell!(
                    "treereduce: interrupted; the best result so far ({} of {} bytes) is in {}",
                    summary.bytes_after,
                    summary.bytes_before,
                    summary.output.display()
                );
            }
            if let Some(alone) = summary.hang_unconfirmed {
                // Said with -q too: the result may not show the hang it was reduced for.
                treereduce::tell!(
                    "treereduce: warning: the result in {} ended after {:.1} s when tested alone, within --timeout {} s: it hung only while other tests ran beside it (or other work loaded the machine); reduce it again with -j 1, or with a --timeout further below the hang",
                    summary.output.display(),
                    alone.as_secs_f64(),
                    config.timeout.map_or(0.0, |t| t.as_secs_f64())
                );
            }
            ExitCode::from(if summary.interrupted {
                EXIT_INTERRUPTED as u8
            } else {
                EXIT_OK as u8
            })
        }
        Err(e) => {
            treereduce::tell!("treereduce: {e}");
            ExitCode::from(e.exit_code() as u8)
        }
    }
}
