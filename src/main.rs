//! The `treereduce` binary: parse arguments, run the library, map the outcome to an exit
//! code (documented in `--help` and the README).

use std::process::ExitCode;
use std::sync::atomic::Ordering;

use clap::Parser;
use treereduce::cli::Cli;
use treereduce::error::{EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE};
use treereduce::oracle::{self, INTERRUPTED};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let config = match cli.config() {
        Ok(c) => c,
        Err(message) => {
            eprintln!("treereduce: {message}");
            return ExitCode::from(EXIT_USAGE as u8);
        }
    };
    // The first Ctrl-C or SIGTERM asks for a clean stop; a second one leaves at once, after
    // killing the running tests and removing the temporary folders.
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            oracle::emergency_cleanup();
            eprintln!(
                "treereduce: interrupted again; stopped at once; the output file, if any, holds the last accepted text that a parse confirmed"
            );
            std::process::exit(EXIT_INTERRUPTED);
        }
    });
    match treereduce::run(&config) {
        Ok(summary) => {
            if let Some(path) = &cli.stats_json
                && let Err(e) = std::fs::write(path, summary.to_json())
            {
                eprintln!("treereduce: cannot write {}: {e}", path.display());
                return ExitCode::from(EXIT_USAGE as u8);
            }
            if config.verbose || summary.interrupted {
                eprintln!("{summary}");
            }
            ExitCode::from(if summary.interrupted {
                EXIT_INTERRUPTED as u8
            } else {
                EXIT_OK as u8
            })
        }
        Err(e) => {
            eprintln!("treereduce: {e}");
            ExitCode::from(e.exit_code() as u8)
        }
    }
}
