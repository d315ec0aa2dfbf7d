//! The library's one error type and the process exit codes it maps to. Messages are
//! lowercase, carry the file and position involved, and say what to do next.

use std::path::PathBuf;

/// Exit status: reduced, or nothing could be removed.
pub const EXIT_OK: i32 = 0;
/// Exit status: the test cannot guide a reduction: the original input is not interesting,
/// the verdict on the original changes between two runs (flaky), or the smallest document
/// is interesting too (the test accepts anything; `--allow-trivial` overrides).
pub const EXIT_NOT_INTERESTING: i32 = 1;
/// Exit status: bad usage or bad input (unreadable, empty or blank, binary, non-UTF-8 or
/// malformed file; test not found or not executable; output folder not writable).
pub const EXIT_USAGE: i32 = 2;
/// Exit status: interrupted by Ctrl-C or SIGTERM; the output holds the best text so far.
pub const EXIT_INTERRUPTED: i32 = 130;

/// Everything that can stop a reduction.
// The fields are the facts each message names; documenting them again adds nothing.
#[allow(missing_docs)]
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The input file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The input is not UTF-8; `declared` is the encoding it names for itself, if any.
    #[error(
        "{path}:{line}:{column}: invalid UTF-8 at byte offset {offset}; treereduce reads UTF-8 text: {}",
        convert_hint(declared.as_deref())
    )]
    Utf8 {
        path: PathBuf,
        line: usize,
        column: usize,
        offset: usize,
        declared: Option<String>,
    },
    /// The input starts with the byte-order mark of an encoding other than UTF-8.
    #[error(
        "{path}: the text is {encoding} (its byte-order mark says so); treereduce reads UTF-8: convert it first, e.g. iconv -f {encoding} -t UTF-8"
    )]
    Encoding {
        path: PathBuf,
        encoding: &'static str,
    },
    /// The input holds a NUL byte.
    #[error(
        "{path}: binary file (NUL byte at byte offset {offset}); treereduce reduces text files"
    )]
    Binary { path: PathBuf, offset: usize },
    /// The input is empty.
    #[error("{path}: the input is empty; there is nothing to reduce")]
    Empty { path: PathBuf },
    /// The input holds nothing but whitespace (and a byte-order mark).
    #[error("{path}: the input holds only whitespace; there is nothing to reduce")]
    Blank { path: PathBuf },
    /// The input does not parse in its format.
    #[error("{path}:{line}:{column}: {message} (is this really {format}? try {instead})")]
    Syntax {
        path: PathBuf,
        line: u32,
        column: u32,
        message: String,
        format: &'static str,
        /// The formats to try instead (`--format lines`).
        instead: &'static str,
    },
    /// The test command cannot be run.
    #[error("cannot run the test {command}: {reason}")]
    Test { command: String, reason: String },
    /// The output cannot be written.
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A usage error detected after argument parsing.
    #[error("{0}")]
    Usage(String),
    /// The original input is not interesting.
    #[error("{0}")]
    NotInteresting(String),
    /// The test gives different verdicts on the same original.
    #[error("{0}")]
    Flaky(String),
    /// The test also accepts the smallest document.
    #[error("{0}")]
    Trivial(String),
    /// The run was interrupted.
    #[error("interrupted before the original was accepted; nothing was written")]
    Interrupted,
}

impl Error {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::NotInteresting(_) | Error::Flaky(_) | Error::Trivial(_) => EXIT_NOT_INTERESTING,
            Error::Interrupted => EXIT_INTERRUPTED,
            _ => EXIT_USAGE,
        }
    }
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// How to convert a text that is not UTF-8: from the encoding it declares, else from
/// Latin-1, the likely one.
fn convert_hint(declared: Option<&str>) -> String {
    match declared {
        Some(name) => format!(
            "the file declares the encoding {name}: convert it first, e.g. iconv -f {name} -t UTF-8, and declare UTF-8 in it"
        ),
        None => String::from(
            "if the file is in another encoding, convert it first, e.g. iconv -f LATIN1 -t UTF-8",
        ),
    }
}
