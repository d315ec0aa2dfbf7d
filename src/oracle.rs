//! The only module that spawns processes. Each candidate is written under the input's own
//! file name into a fresh private folder, and the user's test runs there in its own process
//! group with the candidate's absolute path as its last argument (or in place of `{}`).
//! Output is drained while the test runs (bounded memory); a timeout, an interrupt or a
//! cancellation kills the whole group. A global registry of live groups and temporary roots
//! lets the second Ctrl-C clean up from the signal-handling thread before leaving at once.

use std::ffi::OsString;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use nix::sys::signal::Signal;
use regex::bytes::Regex;

use crate::error::{Error, Result};
use crate::progress::Progress;

/// Set by the Ctrl-C / SIGTERM handler; every wait loop polls it.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// True once the user asked to stop.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// How much of stderr is kept for diagnostics.
const TAIL_BYTES: usize = 64 * 1024;

/// With `--match`, the pattern is searched in the first and in the last `MATCH_WINDOW`
/// bytes of each of stdout and stderr; the middle of a longer stream is never held.
pub const MATCH_WINDOW: usize = 2 * 1024 * 1024;

/// How often wait loops look at the clock, the interrupt flag and cancellation. A
/// cancelled speculative test holds its job until it is seen to be cancelled, and the
/// call the wrong guess held up waits for that job: at 50 ms, -j 2 on a 0.2 s oracle
/// lost about a tenth of a call per wrong guess (bench/parallel.sh: mathml-fraction
/// 0.61 -> 0.59 of -j 1's wall time, needles 0.73 -> 0.69).
const POLL: Duration = Duration::from_millis(5);

/// How long to wait for the output pipes to close once the test's group is dead. Only a
/// process that left the group (`setsid`) and that no sweep kills (see [`kill_strays`])
/// can hold them longer; then we stop listening.
const PIPE_GRACE: Duration = Duration::from_secs(2);

/// How long a test that is stopped before it ends has, after SIGTERM, to end by itself
/// before SIGKILL (see [`stop`]).
const STOP_GRACE: Duration = Duration::from_secs(1);

/// Process groups of running tests and temporary roots of live oracles, for the
/// emergency exit on a second interrupt; and the calls running, whose strays stay.
struct Registry {
    groups: Vec<i32>,
    roots: Vec<PathBuf>,
    calls: Vec<u64>,
}

static LIVE: Mutex<Registry> = Mutex::new(Registry {
    groups: Vec::new(),
    roots: Vec::new(),
    calls: Vec::new(),
});

/// The environment variable every test runs with: this process's id and a number no
/// other call of the run has (`4242:17`), which the test's descendants inherit. A process
/// that leaves the test's group (`setsid`, a browser a harness launches detached) and
/// outlives its parent comes to us on Linux (see [`adopt_strays`]), which tells by it
/// whose the process is.
pub const CALL_VARIABLE: &str = "TREEREDUCE_CALL";

/// The number of the next call (see [`CALL_VARIABLE`]).
static NEXT_CALL: AtomicU64 = AtomicU64::new(1);

/// Whether this process takes in the orphans of its tests (see [`adopt_strays`]).
static ADOPTING: AtomicBool = AtomicBool::new(false);

/// Makes this process the reaper of the orphans among its descendants (Linux's child
/// subreaper), so that a process a test started outside its process group, and left
/// behind, is killed once that call is over rather than running on: a browser a killed
/// test had launched detached, a server it never stopped. Only processes that carry a
/// call's [`CALL_VARIABLE`] are ever killed. For the binary: a library user's own
/// children are none of its business. Elsewhere than on Linux it does nothing.
pub fn adopt_strays() {
    #[cfg(target_os = "linux")]
    if nix::sys::prctl::set_child_subreaper(true).is_ok() {
        ADOPTING.store(true, Ordering::SeqCst);
    }
}

/// The value of [`CALL_VARIABLE`] for call `n`.
fn call_tag(n: u64) -> String {
    format!("{}:{n}", std::process::id())
}

/// Kills the strays of calls that are over, the processes that came to us when their
/// parents ended and carry the tag of a call no longer running (of any call, when
/// `everything`), and reaps those that are gone. Each is killed with its process group
/// when it leads one (a `setsid` makes it lead a group of its own). With `everything`,
/// goes on until none is left (their own children come to us as they die), for at most
/// about a second.
fn kill_strays(everything: bool) {
    if !ADOPTING.load(Ordering::SeqCst) {
        return;
    }
    let deadline = Instant::now() + Duration::from_secs(1);
    loop {
        // Under the lock no test starts or ends, so the running calls are known and no
        // reaped id is reused before the walk is over.
        let left = sweep(&live(), everything);
        if !(everything && left) || Instant::now() >= deadline {
            return;
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// One walk of [`kill_strays`] over this process's children, with `registry` locked:
/// kills the strays it is to kill and reaps the ended ones; true when it killed any.
fn sweep(registry: &Registry, everything: bool) -> bool {
    let mut killed = false;
    for pid in children() {
        if registry.groups.contains(&pid) {
            continue;
        }
        match stray_call(pid) {
            Stray::Call(n) if everything || !registry.calls.contains(&n) => {
                kill_stray(pid);
                killed = true;
            }
            Stray::Gone => {
                let flags = nix::sys::wait::WaitPidFlag::WNOHANG;
                let _ = nix::sys::wait::waitpid(nix::unistd::Pid::from_raw(pid), Some(flags));
            }
            Stray::Call(_) | Stray::Other => {}
        }
    }
    killed
}

/// Kills the stray `pid`, with its process group when it leads one.
fn kill_stray(pid: i32) {
    signal_stray(pid, Signal::SIGKILL);
}

/// Sends `signal` to the stray `pid`, and to its process group when it leads one.
fn signal_stray(pid: i32, signal: Signal) {
    let id = nix::unistd::Pid::from_raw(pid);
    if nix::unistd::getpgid(Some(id)).is_ok_and(|group| group == id) {
        signal_group(pid, signal);
    }
    let _ = nix::sys::signal::kill(id, signal);
}

/// The live strays of call `call` (see [`kill_strays`]), with `registry` locked.
fn strays_of(registry: &Registry, call: u64) -> Vec<i32> {
    children()
        .into_iter()
        .filter(|pid| !registry.groups.contains(pid))
        .filter(|&pid| matches!(stray_call(pid), Stray::Call(n) if n == call))
        .collect()
}

/// Stops call `call` while its test still runs (it timed out, its answer is no longer
/// needed, or the user interrupted the run): SIGTERM to its process group and to its
/// strays, then SIGKILL to the group once the leader has ended and no stray of the call
/// is alive, or after [`STOP_GRACE`]. A test that cleans up on SIGTERM (a harness that
/// closes its browser and removes its profile folder) thus can; a stray that appears
/// meanwhile (the leader's orphaned child: coreutils' `timeout`, in a group of its own)
/// is asked too. `leader_ended` says when the leader has ended. Without the subreaper
/// (see [`adopt_strays`]) the group's other processes cannot be watched, and the group
/// is killed as soon as the leader ends.
fn stop(group: i32, call: u64, leader_ended: &mpsc::Receiver<()>) {
    signal_group(group, Signal::SIGTERM);
    let watch = ADOPTING.load(Ordering::SeqCst);
    let deadline = Instant::now() + STOP_GRACE;
    let mut ended = false;
    let mut asked: Vec<i32> = Vec::new();
    loop {
        if !ended {
            let slice = deadline.saturating_duration_since(Instant::now()).min(POLL);
            ended = !matches!(
                leader_ended.recv_timeout(slice),
                Err(mpsc::RecvTimeoutError::Timeout)
            );
        }
        let strays = if watch {
            let registry = live();
            let strays = strays_of(&registry, call);
            for &pid in &strays {
                if !asked.contains(&pid) {
                    signal_stray(pid, Signal::SIGTERM);
                    asked.push(pid);
                }
            }
            strays.len()
        } else {
            0
        };
        if (ended && strays == 0) || Instant::now() >= deadline {
            break;
        }
        if ended {
            thread::sleep(POLL);
        }
    }
    kill_group(group);
    if !ended {
        let _ = leader_ended.recv();
    }
}

/// What a child of this process that is not a running test's leader is.
enum Stray {
    /// A live process of call `n` of this run.
    Call(u64),
    /// A process that ended and waits to be reaped.
    Gone,
    /// Anything else: a process that cleared its environment, or another run's.
    Other,
}

/// The ids of this process's children, from each thread's list (an orphan comes to one
/// of the threads).
fn children() -> Vec<i32> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    let mut pids = Vec::new();
    for task in tasks.flatten() {
        if let Ok(list) = std::fs::read_to_string(task.path().join("children")) {
            pids.extend(
                list.split_whitespace()
                    .filter_map(|p| p.parse::<i32>().ok()),
            );
        }
    }
    pids
}

/// Whose child `pid` is: the call in its environment, when it is alive.
fn stray_call(pid: i32) -> Stray {
    let proc = PathBuf::from(format!("/proc/{pid}"));
    let stat = std::fs::read_to_string(proc.join("stat")).unwrap_or_default();
    // The state follows the command's name, which is in parentheses and may hold any.
    let state = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.trim_start().chars().next());
    if matches!(state, Some('Z' | 'X')) {
        return Stray::Gone;
    }
    let environ = std::fs::read(proc.join("environ")).unwrap_or_default();
    let prefix = format!("{CALL_VARIABLE}={}:", std::process::id());
    environ
        .split(|&b| b == 0)
        .find_map(|entry| entry.strip_prefix(prefix.as_bytes()))
        .and_then(|n| std::str::from_utf8(n).ok()?.parse().ok())
        .map_or(Stray::Other, Stray::Call)
}

fn live() -> MutexGuard<'static, Registry> {
    // A panic while holding the lock leaves valid vectors behind; keep using them.
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Kills every running test's process group and removes every temporary root. Meant for
/// the signal-handling thread just before `std::process::exit`: it keeps the registry
/// locked when it returns, so no test can start afterwards.
pub fn emergency_cleanup() {
    let registry = live();
    for &group in &registry.groups {
        kill_group(group);
    }
    // Strays of calls that were running; their children may still come and go on.
    if ADOPTING.load(Ordering::SeqCst) {
        sweep(&registry, true);
    }
    for root in &registry.roots {
        // A killed test may still be finishing a file operation; try a few times.
        for _ in 0..5 {
            if force_remove(root) {
                break;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }
    // Keep the lock until the process exits so no new test starts.
    std::mem::forget(registry);
}

/// Removes the folder `path` and everything in it; `true` when it is gone. A test may
/// leave folders it made read-only or unsearchable (`chmod 500 .`, a Go module cache),
/// which `remove_dir_all` cannot empty when not running as root: those get their owner's
/// permissions back first. The walk keeps its own stack (a test may nest folders deeply)
/// and never follows a symbolic link out of the folder.
fn force_remove(path: &Path) -> bool {
    if std::fs::remove_dir_all(path).is_ok() || !path.exists() {
        return true;
    }
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(entry.path());
            }
        }
    }
    std::fs::remove_dir_all(path).is_ok() || !path.exists()
}

/// Which runs count as interesting. All given conditions must hold.
#[derive(Debug, Clone, Default)]
pub struct Condition {
    /// The exit status that means "interesting" (default 0).
    pub exit_code: i32,
    /// The combined output must match this (searched in each stream's first and last
    /// [`MATCH_WINDOW`] bytes).
    pub pattern: Option<Regex>,
    /// Hang reduction: a run that hits the time limit is interesting and a run that ends
    /// in time is not, whatever its exit status.
    pub timeout_is_interesting: bool,
}

/// How to run the user's test.
#[derive(Debug, Clone)]
pub struct OracleConfig {
    /// The test program (resolved to a path if it contains a slash).
    pub command: PathBuf,
    /// Arguments before the candidate path; `{}` is replaced by the path.
    pub args: Vec<OsString>,
    /// The file name every candidate is written under.
    pub file_name: OsString,
    /// Kill the test after this long.
    pub timeout: Option<Duration>,
    /// What counts as interesting.
    pub condition: Condition,
}

/// What one test run said.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The verdict under the configured [`Condition`].
    pub interesting: bool,
    /// Exit status, `None` when killed by us.
    pub status: Option<ExitStatus>,
    /// True when the timeout killed it.
    pub timed_out: bool,
    /// True when the caller cancelled the run; the verdict then means nothing.
    pub cancelled: bool,
    /// Whether `--match` found its pattern; `None` without a pattern.
    pub matched: Option<bool>,
    /// Last bytes of stderr.
    pub stderr_tail: String,
    /// Wall time of the run.
    pub elapsed: Duration,
    /// Time treereduce itself spent on the call outside the test's run: making the
    /// candidate folder, writing the candidate, spawning, removing the folder.
    pub overhead: Duration,
}

/// The status a shell reports for a test that ended: its exit code, or 128 + the signal
/// that killed it (a crashing program run as the test itself, not from a script).
fn shell_status(status: ExitStatus) -> Option<i32> {
    status
        .code()
        .or_else(|| status.signal().map(|signal| 128 + signal))
}

impl Outcome {
    /// The exit status in words: "exited 1", "was killed by signal 9", "timed out".
    pub fn describe_status(&self) -> String {
        if self.timed_out {
            return String::from("timed out");
        }
        if self.cancelled {
            return String::from("was cancelled");
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
    progress: Option<Progress>,
}

/// The arguments a test gets for `file`: `args`, with `file` in place of `{}` where an
/// argument holds it, else after them.
pub fn test_arguments(args: &[OsString], file: &Path) -> Vec<OsString> {
    let mut out = Vec::with_capacity(args.len() + 1);
    let mut substituted = false;
    for arg in args {
        if let Some(s) = arg.to_str().filter(|s| s.contains("{}")) {
            out.push(s.replace("{}", &file.to_string_lossy()).into());
            substituted = true;
        } else {
            out.push(arg.clone());
        }
    }
    if !substituted {
        out.push(file.into());
    }
    out
}

/// `args` with every argument that names a file by a path relative to the current folder
/// (`render.js` in `node render.js`) made absolute, or `None` when none does. The test runs
/// in a fresh folder, where such a path names nothing.
pub fn absolute_file_args(args: &[OsString]) -> Option<Vec<OsString>> {
    let mut changed = false;
    let out = args
        .iter()
        .map(|arg| {
            let path = Path::new(arg);
            let relative_file = arg.to_str().is_none_or(|s| !s.contains("{}"))
                && path.is_relative()
                && path.is_file();
            match relative_file.then(|| std::path::absolute(path)) {
                Some(Ok(absolute)) => {
                    changed = true;
                    absolute.into_os_string()
                }
                _ => arg.clone(),
            }
        })
        .collect();
    changed.then_some(out)
}

impl Oracle {
    /// Checks that the test can be run and makes the private temporary root (under `TMPDIR`).
    pub fn new(mut config: OracleConfig) -> Result<Self> {
        config.command = resolve_command(&config.command)?;
        let mut registry = live();
        let root = tempfile::Builder::new()
            .prefix("treereduce-")
            .tempdir()
            .map_err(|e| Error::Test {
                command: config.command.display().to_string(),
                reason: format!(
                    "cannot create a temporary folder: {e}; check that TMPDIR names a writable folder"
                ),
            })?;
        registry.roots.push(root.path().to_path_buf());
        Ok(Oracle {
            config,
            root,
            progress: None,
        })
    }

    /// The test's arguments (before the candidate's path).
    pub fn args(&self) -> &[OsString] {
        &self.config.args
    }

    /// Changes the test's arguments.
    pub fn set_args(&mut self, args: Vec<OsString>) {
        self.config.args = args;
    }

    /// Changes the per-call time limit.
    pub fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.config.timeout = timeout;
    }

    /// The per-call time limit.
    pub fn timeout(&self) -> Option<Duration> {
        self.config.timeout
    }

    /// Reports every finished call to `progress`.
    pub fn set_progress(&mut self, progress: Progress) {
        self.progress = Some(progress);
    }

    /// The folder that holds every candidate folder; removed when the oracle is dropped.
    pub fn temp_root(&self) -> &Path {
        self.root.path()
    }

    /// Runs the test on `text`. `Err` only for failures of treereduce itself (cannot write
    /// the candidate, cannot spawn) or an interrupt.
    pub fn test(&self, text: &str) -> Result<Outcome> {
        self.test_cancellable(text, &AtomicBool::new(false))
    }

    /// Like [`Oracle::test`], but once `cancel` becomes true the test's group is killed
    /// and the outcome comes back with `cancelled` set (its verdict must not be used or
    /// cached). Meant for speculative calls that an earlier success made useless.
    pub fn test_cancellable(&self, text: &str, cancel: &AtomicBool) -> Result<Outcome> {
        if interrupted() {
            return Err(Error::Interrupted);
        }
        let entered = Instant::now();
        let dir = tempfile::Builder::new()
            .prefix("c")
            .tempdir_in(self.root.path())
            .map_err(|e| self.fail(format!("cannot create a candidate folder: {e}")))?;
        let path = dir.path().join(&self.config.file_name);
        std::fs::write(&path, text)
            .map_err(|e| self.fail(format!("cannot write {}: {e}", path.display())))?;
        let mut command = self.command(&path);
        command.current_dir(dir.path());
        let mut run = self.run(command, cancel);
        force_remove(dir.path());
        drop(dir);
        if let Ok(outcome) = &mut run {
            outcome.overhead = entered.elapsed().saturating_sub(outcome.elapsed);
        }
        if let Some(progress) = &self.progress
            && let Ok(outcome) = &run
            && !outcome.cancelled
        {
            progress.call_finished();
        }
        run
    }

    /// The test's command for `candidate`: its path as the last argument (or for `{}`),
    /// and its text on stdin too, for a test that reads it there (`grep -q bug`, as
    /// Shrink Ray's tests may).
    fn command(&self, candidate: &Path) -> Command {
        let mut command = Command::new(&self.config.command);
        command.args(test_arguments(&self.config.args, candidate));
        let stdin = std::fs::File::open(candidate).map_or_else(|_| Stdio::null(), Stdio::from);
        command
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        command
    }

    /// Spawns, drains, waits with the time limit, and kills the whole group at the end.
    fn run(&self, mut command: Command, cancel: &AtomicBool) -> Result<Outcome> {
        let window = if self.config.condition.pattern.is_some() {
            MATCH_WINDOW
        } else {
            0
        };
        let started = Instant::now();
        let call = NEXT_CALL.fetch_add(1, Ordering::SeqCst);
        command.env(CALL_VARIABLE, call_tag(call));
        // Spawning under the registry lock means the emergency cleanup either sees this
        // group or runs before it exists.
        let (mut child, group) = {
            let mut registry = live();
            if interrupted() {
                return Err(Error::Interrupted);
            }
            let child = command
                .spawn()
                .map_err(|e| self.fail(start_error(&e, &self.config.command)))?;
            let group = i32::try_from(child.id()).unwrap_or(i32::MAX);
            registry.groups.push(group);
            registry.calls.push(call);
            (child, group)
        };
        let (done_tx, done_rx) = mpsc::channel();
        let stdout = Arc::new(Mutex::new(Capture::new(window, 0)));
        let stderr = Arc::new(Mutex::new(Capture::new(window, TAIL_BYTES)));
        let mut drains = 0;
        if let Some(s) = child.stdout.take() {
            drain(s, stdout.clone(), done_tx.clone());
            drains += 1;
        }
        if let Some(s) = child.stderr.take() {
            drain(s, stderr.clone(), done_tx.clone());
            drains += 1;
        }
        // Waits for the leader to end without reaping it, so its id (the group id) stays
        // reserved until we have killed the rest of the group.
        let (exit_tx, exit_rx) = mpsc::channel();
        thread::spawn(move || {
            let pid = nix::unistd::Pid::from_raw(group);
            let flags = nix::sys::wait::WaitPidFlag::WEXITED | nix::sys::wait::WaitPidFlag::WNOWAIT;
            let wait = || nix::sys::wait::waitid(nix::sys::wait::Id::Pid(pid), flags);
            while let Err(nix::errno::Errno::EINTR) = wait() {}
            let _ = exit_tx.send(());
        });
        let deadline = self.config.timeout.and_then(|t| started.checked_add(t));
        let mut timed_out = false;
        let mut was_interrupted = false;
        let mut cancelled = false;
        loop {
            let slice = deadline.map_or(POLL, |d| {
                d.saturating_duration_since(Instant::now()).min(POLL)
            });
            match exit_rx.recv_timeout(slice) {
                Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if interrupted() {
                        was_interrupted = true;
                    } else if cancel.load(Ordering::SeqCst) {
                        cancelled = true;
                    } else if deadline.is_some_and(|d| Instant::now() >= d) {
                        timed_out = true;
                    } else {
                        continue;
                    }
                    stop(group, call, &exit_rx);
                    break;
                }
            }
        }
        let elapsed = started.elapsed();
        // Whatever the test left running in its group goes too; the leader is still an
        // unreaped zombie here, so the group id cannot have been reused.
        kill_group(group);
        let status = child.wait().ok();
        {
            let mut registry = live();
            registry.groups.retain(|&g| g != group);
            registry.calls.retain(|&c| c != call);
        }
        kill_strays(false);
        let grace = Instant::now() + PIPE_GRACE;
        for _ in 0..drains {
            if done_rx
                .recv_timeout(grace.saturating_duration_since(Instant::now()))
                .is_err()
            {
                break;
            }
        }
        if was_interrupted {
            return Err(Error::Interrupted);
        }
        let status = if timed_out || cancelled { None } else { status };
        let matched = self.config.condition.pattern.as_ref().map(|re| {
            let found = |c: &Arc<Mutex<Capture>>| c.lock().map(|c| c.is_match(re)).unwrap_or(false);
            found(&stdout) || found(&stderr)
        });
        let condition = &self.config.condition;
        let ended_as_wanted = if condition.timeout_is_interesting {
            timed_out
        } else {
            !timed_out && !cancelled && status.and_then(shell_status) == Some(condition.exit_code)
        };
        let tail = stderr.lock().map(|c| c.tail()).unwrap_or_default();
        Ok(Outcome {
            interesting: ended_as_wanted && matched.unwrap_or(true),
            status,
            timed_out,
            cancelled,
            matched,
            stderr_tail: String::from_utf8_lossy(&tail).into_owned(),
            elapsed,
            overhead: Duration::ZERO,
        })
    }

    fn fail(&self, reason: String) -> Error {
        Error::Test {
            command: self.config.command.display().to_string(),
            reason,
        }
    }
}

/// Why the test `command` could not start, with what to do when the cause is a common one.
fn start_error(e: &std::io::Error, command: &Path) -> String {
    // ENOEXEC: an executable text without a `#!` line (a shell would have run it as sh).
    if e.raw_os_error() == Some(8) {
        return format!("cannot start it: {e}; a script needs a first line such as #!/bin/sh");
    }
    // ENOENT for a file that exists: the interpreter its `#!` line names does not.
    if e.raw_os_error() == Some(2)
        && let Some(interpreter) = interpreter_of(command)
    {
        return format!("cannot start it: its #! line names {interpreter}, which does not exist");
    }
    format!("cannot start it: {e}")
}

/// The `#!` line of the file `path`, without the `#!` and the line feed (of its first 256
/// bytes), if it has one.
fn shebang(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let read = std::fs::File::open(path).ok()?.read(&mut head).ok()?;
    let line = head[..read].strip_prefix(b"#!")?;
    line.split(|&b| b == b'\n').next().map(<[u8]>::to_vec)
}

/// The interpreter the `#!` line of the file `path` names, if it has one.
fn interpreter_of(path: &Path) -> Option<String> {
    let line = shebang(path)?;
    let line = String::from_utf8_lossy(&line);
    line.split_whitespace().next().map(str::to_string)
}

impl Drop for Oracle {
    fn drop(&mut self) {
        kill_strays(true);
        let root = self.root.path().to_path_buf();
        force_remove(&root);
        live().roots.retain(|r| *r != root);
    }
}

fn kill_group(group: i32) {
    signal_group(group, Signal::SIGKILL);
}

fn signal_group(group: i32, signal: Signal) {
    let _ = nix::sys::signal::killpg(nix::unistd::Pid::from_raw(group), signal);
}

/// The bytes of one output stream that are kept: the first `head_limit` bytes and the last
/// `tail_limit.max(head_limit)` bytes, never more than about three times that in memory.
#[derive(Debug)]
struct Capture {
    head: Vec<u8>,
    head_limit: usize,
    tail: Vec<u8>,
    tail_limit: usize,
    /// True once bytes were dropped between `head` and `tail`.
    gap: bool,
}

impl Capture {
    fn new(head_limit: usize, tail_limit: usize) -> Self {
        Capture {
            head: Vec::new(),
            head_limit,
            tail: Vec::new(),
            tail_limit: tail_limit.max(head_limit),
            gap: false,
        }
    }

    fn push(&mut self, mut bytes: &[u8]) {
        if self.head.len() < self.head_limit {
            let take = bytes.len().min(self.head_limit - self.head.len());
            self.head.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
        }
        self.tail.extend_from_slice(bytes);
        if self.tail.len() > 2 * self.tail_limit.max(1) {
            let cut = self.tail.len() - self.tail_limit;
            self.tail.drain(..cut);
            self.gap = true;
        }
    }

    /// True when `re` matches the kept bytes: the whole stream when it was kept whole,
    /// otherwise its head and its tail separately (a match never spans the gap).
    fn is_match(&self, re: &Regex) -> bool {
        if self.gap {
            re.is_match(&self.head) || re.is_match(self.tail_slice())
        } else {
            let mut whole = self.head.clone();
            whole.extend_from_slice(&self.tail);
            re.is_match(&whole)
        }
    }

    fn tail_slice(&self) -> &[u8] {
        let start = self.tail.len().saturating_sub(self.tail_limit);
        &self.tail[start..]
    }

    /// The last bytes of the stream, at most [`TAIL_BYTES`].
    fn tail(&self) -> Vec<u8> {
        let mut all = Vec::new();
        if self.gap {
            all.extend_from_slice(self.tail_slice());
        } else {
            all.extend_from_slice(&self.head);
            all.extend_from_slice(&self.tail);
        }
        let start = all.len().saturating_sub(TAIL_BYTES);
        all.split_off(start)
    }
}

/// Reads a stream to its end into `capture`, then says so on `done`.
fn drain(
    mut stream: impl Read + Send + 'static,
    capture: Arc<Mutex<Capture>>,
    done: mpsc::Sender<()>,
) {
    thread::spawn(move || {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match stream.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    if let Ok(mut c) = capture.lock() {
                        c.push(&buf[..n]);
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let _ = done.send(());
    });
}

/// Finds the test program: a path with a slash is taken relative to the current folder
/// (the test later runs elsewhere); so is a bare name when the current folder holds an
/// executable file of that name (`treereduce page.xml check.sh`, as C-Reduce takes it);
/// any other bare name is looked up on `PATH` (`node`, `grep`).
fn resolve_command(command: &Path) -> Result<PathBuf> {
    let shown = command.display().to_string();
    let err = |reason: String| Error::Test {
        command: shown.clone(),
        reason,
    };
    let absolute = |path: &Path| std::path::absolute(path).map_err(|e| err(e.to_string()));
    let named_here = command.components().count() > 1 || command.is_absolute();
    let candidate = if named_here || is_executable(command) {
        absolute(command)?
    } else {
        let path = std::env::var_os("PATH").unwrap_or_default();
        match std::env::split_paths(&path)
            .map(|dir| dir.join(command))
            .find(|p| is_executable(p))
        {
            Some(found) => found,
            // A file here that is not executable: say so below rather than "not found".
            None if command.is_file() => absolute(command)?,
            None if command.is_dir() => {
                return Err(err(String::from(
                    "it is a folder here, and no program on PATH",
                )));
            }
            None => return Err(err(String::from("not found here nor on PATH"))),
        }
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
    // A script saved with Windows line ends: the system takes the carriage return for
    // part of the interpreter's name (`/bin/sh\r` does not exist) or of its last
    // argument (`env` finds no `bash\r`, and the original looks not interesting).
    if shebang(&candidate).is_some_and(|line| line.ends_with(b"\r")) {
        return Err(err(format!(
            "its lines end in CR LF (Windows line ends), and the system reads the carriage \
             return as part of its #! line; convert it: sed -i 's/\\r$//' {}",
            shell_word(&candidate.display().to_string())
        )));
    }
    Ok(candidate)
}

/// `word` as a shell reads it back: as it is when it holds only characters a shell takes
/// literally, else in single quotes.
pub(crate) fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oracle(dir: &Path, body: &str) -> Oracle {
        let script = dir.join("t.sh");
        std::fs::write(&script, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        Oracle::new(OracleConfig {
            command: script,
            args: Vec::new(),
            file_name: OsString::from("c.txt"),
            timeout: Some(Duration::from_secs(300)),
            condition: Condition::default(),
        })
        .unwrap()
    }

    #[test]
    fn cancelling_kills_the_test_and_marks_the_outcome() {
        let dir = tempfile::tempdir().unwrap();
        let oracle = oracle(dir.path(), "sleep 300");
        let cancel = AtomicBool::new(false);
        let started = Instant::now();
        let outcome = thread::scope(|scope| {
            scope.spawn(|| {
                thread::sleep(Duration::from_millis(300));
                cancel.store(true, Ordering::SeqCst);
            });
            oracle.test_cancellable("x", &cancel).unwrap()
        });
        assert!(outcome.cancelled && !outcome.interesting && !outcome.timed_out);
        assert!(started.elapsed() < Duration::from_secs(60));
    }

    #[test]
    fn capture_keeps_head_and_tail_and_matches_within_them() {
        let mut capture = Capture::new(4, 4);
        for chunk in [&b"abcdef"[..], b"ghijkl", b"mnopqr"] {
            capture.push(chunk);
        }
        assert_eq!(capture.head, b"abcd");
        assert_eq!(capture.tail_slice(), b"opqr");
        assert!(capture.is_match(&Regex::new("^abcd").unwrap()));
        assert!(capture.is_match(&Regex::new("pqr$").unwrap()));
        assert!(!capture.is_match(&Regex::new("ijk").unwrap()));
        let mut whole = Capture::new(4, 4);
        whole.push(b"abcdefg");
        whole.push(b"hijkl");
        assert!(whole.is_match(&Regex::new("cdefgh").unwrap()));
        assert_eq!(whole.tail(), b"abcdefghijkl");
    }
}
