//! The only module that spawns processes. Each candidate is written under the input's own
//! file name into a fresh private folder, and the user's test runs there in its own process
//! group with the candidate's absolute path as its last argument (or in place of `{}`).
//! Output is drained while the test runs; a timeout or an interrupt kills the whole group.

use std::ffi::OsString;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// Set by the Ctrl-C / SIGTERM handler; every wait loop polls it.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// True once the user asked to stop.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// How much of each output stream is kept for diagnostics.
const TAIL_BYTES: usize = 64 * 1024;

/// How to run the user's test.
#[derive(Debug, Clone)]
pub struct OracleConfig {
    /// The test program (resolved to a path if it contains a slash).
    pub command: PathBuf,
    /// Arguments before the candidate path; `{}` is replaced by the path.
    pub args: Vec<OsString>,
    /// The file name every candidate is written under.
    pub file_name: OsString,
    /// Kill the test after this long and count the candidate as uninteresting.
    pub timeout: Option<Duration>,
}

/// What one test run said.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The test's verdict.
    pub interesting: bool,
    /// Exit status, `None` when killed by us.
    pub status: Option<ExitStatus>,
    /// True when the timeout killed it.
    pub timed_out: bool,
    /// Last bytes of stderr.
    pub stderr_tail: String,
    /// Wall time of the run.
    pub elapsed: Duration,
}

impl Outcome {
    /// The exit status in words: "exited 1", "was killed by signal 9", "timed out".
    pub fn describe_status(&self) -> String {
        if self.timed_out {
            return String::from("timed out");
        }
        match self.status {
            Some(s) => match (s.code(), s.signal()) {
                (Some(c), _) => format!("exited {c}"),
                (None, Some(sig)) => format!("was killed by signal {sig}"),
                _ => String::from("ended"),
            },
            None => String::from("was killed"),
        }
    }
}

/// Runs the test on candidate texts. Safe to share between threads.
#[derive(Debug)]
pub struct Oracle {
    config: OracleConfig,
    root: tempfile::TempDir,
}

impl Oracle {
    /// Checks that the test can be run and makes the private temporary root (under `TMPDIR`).
    pub fn new(mut config: OracleConfig) -> Result<Self> {
        config.command = resolve_command(&config.command)?;
        let root = tempfile::Builder::new()
            .prefix("treereduce-")
            .tempdir()
            .map_err(|e| Error::Test {
                command: config.command.display().to_string(),
                reason: format!("cannot create a temporary folder: {e}"),
            })?;
        Ok(Oracle { config, root })
    }

    /// Changes the per-call time limit.
    pub fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.config.timeout = timeout;
    }

    /// The folder that holds every candidate folder; removed when the oracle is dropped.
    pub fn temp_root(&self) -> &Path {
        self.root.path()
    }

    /// Runs the test on `text`. `Err` only for failures of treereduce itself (cannot write
    /// the candidate, cannot spawn) or an interrupt.
    pub fn test(&self, text: &str) -> Result<Outcome> {
        let dir = tempfile::Builder::new()
            .prefix("c")
            .tempdir_in(self.root.path())
            .map_err(|e| self.fail(format!("cannot create a candidate folder: {e}")))?;
        let path = dir.path().join(&self.config.file_name);
        std::fs::write(&path, text)
            .map_err(|e| self.fail(format!("cannot write {}: {e}", path.display())))?;
        let mut command = Command::new(&self.config.command);
        let mut substituted = false;
        for arg in &self.config.args {
            if let Some(s) = arg.to_str().filter(|s| s.contains("{}")) {
                command.arg(s.replace("{}", &path.to_string_lossy()));
                substituted = true;
            } else {
                command.arg(arg);
            }
        }
        if !substituted {
            command.arg(&path);
        }
        command
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let started = Instant::now();
        let mut child = command
            .spawn()
            .map_err(|e| self.fail(format!("cannot start it: {e}")))?;
        let pid = child.id();
        let stdout = child.stdout.take().map(drain);
        let stderr_tail = Arc::new(Mutex::new(Vec::new()));
        let stderr = child
            .stderr
            .take()
            .map(|s| drain_into(s, stderr_tail.clone()));
        let (tx, rx) = mpsc::channel();
        let waiter = thread::spawn(move || {
            let _ = tx.send(child.wait());
        });
        let deadline = self.config.timeout.map(|t| started + t);
        let mut timed_out = false;
        let mut was_interrupted = false;
        let status = loop {
            let slice = match deadline {
                Some(d) => d
                    .saturating_duration_since(Instant::now())
                    .min(Duration::from_millis(50)),
                None => Duration::from_millis(50),
            };
            match rx.recv_timeout(slice) {
                Ok(status) => break status.ok(),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if interrupted() {
                        was_interrupted = true;
                    } else if deadline.is_some_and(|d| Instant::now() >= d) {
                        timed_out = true;
                    } else {
                        continue;
                    }
                    kill_group(pid);
                    break rx.recv().ok().and_then(|s| s.ok());
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break None,
            }
        };
        let elapsed = started.elapsed();
        // Whatever the test left running in its group goes too.
        kill_group(pid);
        let _ = waiter.join();
        if let Some(h) = stdout {
            let _ = h.join();
        }
        if let Some(h) = stderr {
            let _ = h.join();
        }
        if was_interrupted {
            return Err(Error::Interrupted);
        }
        let tail = stderr_tail.lock().map(|t| t.clone()).unwrap_or_default();
        let status = if timed_out { None } else { status };
        Ok(Outcome {
            interesting: !timed_out && status.is_some_and(|s| s.success()),
            status,
            timed_out,
            stderr_tail: String::from_utf8_lossy(&tail).into_owned(),
            elapsed,
        })
    }

    fn fail(&self, reason: String) -> Error {
        Error::Test {
            command: self.config.command.display().to_string(),
            reason,
        }
    }
}

fn kill_group(pid: u32) {
    if let Ok(pid) = i32::try_from(pid) {
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
}

/// Reads a stream to its end, throwing the bytes away.
fn drain(mut stream: impl Read + Send + 'static) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        let mut buf = [0u8; 64 * 1024];
        while matches!(stream.read(&mut buf), Ok(n) if n > 0) {}
    })
}

/// Reads a stream to its end, keeping the last [`TAIL_BYTES`] in `tail`.
fn drain_into(
    mut stream: impl Read + Send + 'static,
    tail: Arc<Mutex<Vec<u8>>>,
) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        let mut buf = [0u8; 64 * 1024];
        let mut kept: Vec<u8> = Vec::new();
        while let Ok(n) = stream.read(&mut buf) {
            if n == 0 {
                break;
            }
            kept.extend_from_slice(&buf[..n]);
            if kept.len() > 2 * TAIL_BYTES {
                kept.drain(..kept.len() - TAIL_BYTES);
            }
        }
        if kept.len() > TAIL_BYTES {
            kept.drain(..kept.len() - TAIL_BYTES);
        }
        if let Ok(mut t) = tail.lock() {
            *t = kept;
        }
    })
}

/// Finds the test program: a path with a slash is taken relative to the current folder
/// (the test later runs elsewhere); a bare name is looked up on `PATH`.
fn resolve_command(command: &Path) -> Result<PathBuf> {
    let shown = command.display().to_string();
    let err = |reason: String| Error::Test {
        command: shown.clone(),
        reason,
    };
    let candidate = if command.components().count() > 1 || command.is_absolute() {
        std::path::absolute(command).map_err(|e| err(e.to_string()))?
    } else {
        let path = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&path)
            .map(|dir| dir.join(command))
            .find(|p| is_executable(p))
            .ok_or_else(|| err(String::from("not found on PATH")))?
    };
    let meta = std::fs::metadata(&candidate).map_err(|e| err(format!("{e}")))?;
    if !meta.is_file() {
        return Err(err(String::from("it is not a file")));
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Err(err(format!(
            "it is not executable (chmod +x {})",
            command.display()
        )));
    }
    Ok(candidate)
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
