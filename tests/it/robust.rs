//! Robustness of the real binary against real `sh` tests: timeouts that kill whole process
//! groups, tests that print tens of megabytes, SIGINT and SIGTERM, start-up sanity checks,
//! built-in conditions, `-j` independence, deep and binary inputs, and temporary folders
//! that never outlive a run. Time bounds are generous: only "finishes within N s".

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::fixtures::json_number;

/// A scratch folder with the input, the test scripts, and a private `TMPDIR`.
struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("tmp")).unwrap();
        Scratch { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn tmpdir(&self) -> PathBuf {
        self.path().join("tmp")
    }

    fn write(&self, name: &str, text: &str) {
        std::fs::write(self.path().join(name), text).unwrap();
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path().join(name)).unwrap()
    }

    fn script(&self, name: &str, body: &str) {
        use std::os::unix::fs::PermissionsExt;
        let path = self.path().join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    fn command(&self, args: &[&str]) -> Command {
        self.command_of(env!("CARGO_BIN_EXE_treereduce"), args)
    }

    /// `program` with `args`, run in the folder with its `TMPDIR`, stdin closed, and
    /// stdout and stderr read.
    fn command_of(&self, program: &str, args: &[&str]) -> Command {
        let mut command = Command::new(program);
        command
            .current_dir(self.path())
            .env("TMPDIR", self.tmpdir())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    }

    fn run(&self, args: &[&str]) -> Output {
        let child = self.command(args).spawn().unwrap();
        finish(child, 300)
    }

    /// Names left in the private `TMPDIR`.
    fn leftovers(&self) -> Vec<String> {
        std::fs::read_dir(self.tmpdir())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }
}

/// Waits for `child` at most `secs` seconds (then kills it and fails).
fn finish(mut child: Child, secs: u64) -> Output {
    let deadline = Instant::now() + Duration::from_secs(secs);
    // Read the pipes on threads so a chatty child cannot block on them.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut buf).unwrap();
        buf
    });
    let err = std::thread::spawn(move || {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut buf).unwrap();
        buf
    });
    let status: ExitStatus = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("treereduce did not finish within {secs} s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A number no other process on the machine has on its command line, to be used as a
/// `sleep` duration so `pgrep -f` can find exactly the processes of one test.
fn marker(seconds: u32) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!(
        "{seconds}.{}{}7",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    )
}

/// True when some process has `sleep <marker>` on its command line.
fn alive(marker: &str) -> bool {
    Command::new("pgrep")
        .args(["-f", &format!("sleep {marker}")])
        .stdout(Stdio::null())
        .status()
        .unwrap()
        .success()
}

/// Polls `condition` every 50 ms for at most `secs` seconds.
fn eventually(secs: u64, mut condition: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < deadline {
        if condition() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    condition()
}

fn signal(child: &Child, sig: nix::sys::signal::Signal) {
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, sig).unwrap();
}

/// `<a>` holding `n` children, every third of which is `<keep/>`.
fn list_input(n: usize) -> String {
    let mut text = String::from("<?xml version=\"1.0\"?>\n<a>\n");
    for i in 0..n {
        if i % 3 == 0 {
            text.push_str("  <keep/>\n");
        } else {
            text.push_str(&format!("  <x{i} v=\"{i}\">t{i}</x{i}>\n"));
        }
    }
    text.push_str("</a>\n");
    text
}

#[test]
fn timeout_kills_the_whole_process_group_and_is_counted() {
    let s = Scratch::new();
    s.write("a.xml", "<a>\n  <keep/>\n  <hang/>\n  <x/>\n  <y/>\n</a>\n");
    let mark = marker(1000);
    // Without <hang/> the test starts a background sleeper and then sleeps itself.
    s.script(
        "t.sh",
        &format!(
            "grep -q keep \"$1\" || exit 1\ngrep -q hang \"$1\" && exit 0\nsleep {mark} &\nsleep {mark}\n"
        ),
    );
    let child = s
        .command(&[
            "a.xml",
            "./t.sh",
            "-j",
            "1",
            "--timeout",
            "1",
            "--stats-json",
            "stats.json",
        ])
        .spawn()
        .unwrap();
    // The sleepers do appear while it runs, so the final check can see them.
    assert!(eventually(120, || alive(&mark)), "no test ever hung");
    let out = finish(child, 300);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        eventually(10, || !alive(&mark)),
        "a process of a timed-out test survived"
    );
    assert_eq!(s.read("a.reduced.xml"), "<a><keep/><hang/></a>");
    let json = s.read("stats.json");
    let timeouts = json_number(&json, "timeouts");
    assert!(timeouts >= 1, "{json}");
    assert!(json_number(&json, "oracle_calls") >= timeouts + 3, "{json}");
    assert!(s.leftovers().is_empty(), "{:?}", s.leftovers());
}

/// A process a test starts outside its process group (`setsid`, as a harness launches a
/// browser detached; coreutils' `timeout`, which makes a group of its own) is killed once
/// its call is over, whether the test ended or timed out, even when the process that
/// started it ended first (a double fork). Such a process also held the test's output
/// open: each timed-out call waited two seconds more for it.
#[cfg(target_os = "linux")]
#[test]
fn processes_that_left_the_test_group_do_not_outlive_their_call() {
    // The last two are what the reducer uses; a kernel or sandbox without them leaves
    // strays be, and the test needs `setsid` to make some.
    let children = format!("/proc/self/task/{}/children", std::process::id());
    let setsid = Command::new("setsid")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !setsid || !Path::new(&children).exists() || nix::sys::prctl::get_child_subreaper().is_err()
    {
        eprintln!("skipped: no setsid, no {children} or no child subreaper here");
        return;
    }
    let s = Scratch::new();
    s.write("a.xml", "<a>\n  <keep/>\n  <hang/>\n  <x/>\n  <y/>\n</a>\n");
    let (detached, forked, limited) = (marker(1000), marker(1000), marker(1000));
    s.script(
        "t.sh",
        &format!(
            "setsid sleep {detached} </dev/null >/dev/null 2>&1 &\n\
             (setsid sh -c 'sleep {forked}' </dev/null >/dev/null 2>&1 &)\n\
             grep -q keep \"$1\" || exit 1\ngrep -q hang \"$1\" && exit 0\n\
             timeout 1000 sleep {limited}\n"
        ),
    );
    let child = s
        .command(&["a.xml", "./t.sh", "-j", "2", "--timeout", "1"])
        .spawn()
        .unwrap();
    assert!(
        eventually(120, || alive(&detached) && alive(&limited)),
        "no stray ever started"
    );
    // While a call runs, its strays run: they may be what the test is waiting for.
    let out = finish(child, 300);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(s.read("a.reduced.xml"), "<a><keep/><hang/></a>");
    let strays = [detached, forked, limited];
    assert!(
        eventually(10, || strays.iter().all(|m| !alive(m))),
        "a process that left a test's group survived the run"
    );
}

/// A test that is stopped (here, timed out) gets SIGTERM before SIGKILL, and its group
/// the time to clean up: a harness closing its browser and removing its profile folder.
/// The one cleaning up here is the test's child, which outlives the leader that SIGTERM
/// ends at once; a test that ignores SIGTERM still ends, a second later.
#[test]
fn a_stopped_test_may_clean_up_before_it_is_killed() {
    let s = Scratch::new();
    s.write("a.xml", "<a>\n  <keep/>\n  <hang/>\n  <x/>\n  <y/>\n</a>\n");
    let marks = s.path().join("marks");
    std::fs::create_dir(&marks).unwrap();
    s.script(
        "t.sh",
        &format!(
            "grep -q keep \"$1\" || exit 1\ngrep -q hang \"$1\" && exit 0\n\
             sh -c 'trap \"sleep 0.1; mktemp {}/cleaned.XXXXXX; exit 1\" TERM; sleep {} & wait'\n",
            marks.display(),
            marker(1000)
        ),
    );
    let out = s.run(&[
        "a.xml",
        "./t.sh",
        "-j1",
        "--timeout=1",
        "--stats-json=stats.json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(s.read("a.reduced.xml"), "<a><keep/><hang/></a>");
    let timeouts = json_number(&s.read("stats.json"), "timeouts");
    assert!(timeouts > 0);
    let cleaned = std::fs::read_dir(&marks).unwrap().count();
    assert_eq!(cleaned, timeouts, "{}", stderr(&out));
    // A test that ignores SIGTERM, children and all.
    s.script(
        "deaf.sh",
        &format!(
            "grep -q keep \"$1\" || exit 1\ngrep -q hang \"$1\" && exit 0\n\
             trap '' TERM\nsleep {}\n",
            marker(1000)
        ),
    );
    let out = s.run(&[
        "a.xml",
        "./deaf.sh",
        "-j",
        "1",
        "--timeout",
        "1",
        "-o",
        "deaf.xml",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(s.read("deaf.xml"), "<a><keep/><hang/></a>");
    assert!(s.leftovers().is_empty());
}

#[test]
fn derived_time_limit_is_printed_unless_quiet() {
    let s = Scratch::new();
    s.write("a.xml", "<a><keep/><b/></a>");
    s.script("t.sh", "grep -q keep \"$1\"");
    let out = s.run(&["a.xml", "./t.sh"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("time limit per test: 1.00s"),
        "{}",
        stderr(&out)
    );
    let out = s.run(&["a.xml", "./t.sh", "-q"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "");
}

#[test]
fn forty_megabytes_of_output_do_not_block_and_match_sees_the_end() {
    let s = Scratch::new();
    s.write("a.xml", "<a>\n  <keep/>\n  <b/>\n</a>\n");
    // 40 MB on each stream, then a marker at the very end of stderr.
    s.script(
        "t.sh",
        "head -c 40000000 /dev/zero\nhead -c 40000000 /dev/zero >&2\ngrep -q keep \"$1\" || exit 1\necho END-MARK >&2",
    );
    let started = Instant::now();
    let out = s.run(&["a.xml", "./t.sh", "-q", "-j", "1", "--timeout", "120"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(s.read("a.reduced.xml"), "<keep/>");
    let out = s.run(&[
        "a.xml",
        "./t.sh",
        "-q",
        "--timeout",
        "120",
        "--match",
        "END-MARK",
        "-o",
        "m.xml",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(s.read("m.xml"), "<keep/>");
    assert!(started.elapsed() < Duration::from_secs(280));
    assert!(s.leftovers().is_empty());
}

#[test]
fn match_only_searches_the_head_and_tail_windows() {
    let s = Scratch::new();
    s.write("a.xml", "<a>\n  <keep/>\n  <b/>\n</a>\n");
    // The marker sits 10 MB into a 20 MB stream: past the 2 MiB windows at both ends.
    s.script(
        "t.sh",
        "head -c 10000000 /dev/zero\necho MID-MARK\nhead -c 10000000 /dev/zero\ngrep -q keep \"$1\"",
    );
    let out = s.run(&["a.xml", "./t.sh", "-q", "--match", "MID-MARK"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("did not match --match"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn sigint_stops_with_the_best_text_a_summary_and_exit_130() {
    let s = Scratch::new();
    s.write("a.xml", &list_input(60));
    // About 0.2 s per call; interesting while all 20 <keep/> stay, so the reduction needs
    // well over 40 calls.
    let mark = format!("0.2{}", marker(0).trim_start_matches("0."));
    s.script(
        "t.sh",
        &format!("sleep {mark}\ntest \"$(grep -c '<keep/>' \"$1\")\" -eq 20"),
    );
    let child = s
        .command(&["a.xml", "./t.sh", "-j", "2", "--timeout", "30"])
        .spawn()
        .unwrap();
    // Interrupt once the start-up checks are over and the reduction runs.
    let output = s.path().join("a.reduced.xml");
    assert!(
        eventually(120, || output.exists()),
        "never started reducing"
    );
    std::thread::sleep(Duration::from_secs(2));
    signal(&child, nix::sys::signal::Signal::SIGINT);
    let out = finish(child, 60);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(stderr(&out).contains("interrupted: "), "{}", stderr(&out));
    let result = s.read("a.reduced.xml");
    assert!(
        treereduce::frontend::Format::Xml
            .frontend()
            .is_valid(&result)
    );
    let check = Command::new(s.path().join("t.sh"))
        .arg(&output)
        .status()
        .unwrap();
    assert!(check.success(), "the output is not interesting: {result}");
    assert!(s.leftovers().is_empty(), "{:?}", s.leftovers());
    assert!(eventually(10, || !alive(&mark)));
    // With -q, one line says where the result is.
    std::fs::remove_file(&output).unwrap();
    let child = s
        .command(&["a.xml", "./t.sh", "-q", "--timeout", "30"])
        .spawn()
        .unwrap();
    assert!(
        eventually(120, || output.exists()),
        "never started reducing"
    );
    signal(&child, nix::sys::signal::Signal::SIGINT);
    let out = finish(child, 60);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let said = stderr(&out);
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(said.contains("the best result so far"), "{said}");
    assert!(said.contains("a.reduced.xml"), "{said}");
}

#[test]
fn sigterm_then_sigint_stops_at_once_and_cleans_up() {
    let s = Scratch::new();
    s.write("a.xml", "<a>\n  <keep/>\n  <b/>\n</a>\n");
    let mark = marker(300);
    // The original passes at once; every other candidate sleeps for five minutes.
    s.script(
        "t.sh",
        &format!("grep -q '<b/>' \"$1\" && exit 0\nsleep {mark}\nexit 1"),
    );
    let child = s
        .command(&["a.xml", "./t.sh", "-j", "2", "--timeout", "600"])
        .spawn()
        .unwrap();
    assert!(eventually(120, || alive(&mark)), "no test started sleeping");
    signal(&child, nix::sys::signal::Signal::SIGTERM);
    // Later than the half second within which a signal counts as the first one again.
    std::thread::sleep(Duration::from_millis(700));
    signal(&child, nix::sys::signal::Signal::SIGINT);
    let out = finish(child, 60);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(eventually(10, || !alive(&mark)), "a test survived");
    assert!(s.leftovers().is_empty(), "{:?}", s.leftovers());
}

/// Stopped while the original's first run is still going, though the smallest document
/// beside it was answered: nothing was accepted, so nothing is written.
#[test]
fn a_stop_before_the_original_passed_writes_nothing() {
    let s = Scratch::new();
    s.write("a.xml", "<a>\n  <keep/>\n  <b/>\n</a>\n");
    let mark = marker(300);
    // The smallest document fails at once; the original would pass after five minutes.
    s.script(
        "t.sh",
        &format!("grep -q '<b/>' \"$1\" || exit 1\nsleep {mark}\nexit 0"),
    );
    let child = s
        .command(&["a.xml", "./t.sh", "-q", "-j", "2"])
        .spawn()
        .unwrap();
    assert!(
        eventually(120, || alive(&mark)),
        "the original's run did not start"
    );
    // Time for the smallest document's run to end beside it.
    std::thread::sleep(Duration::from_millis(500));
    signal(&child, nix::sys::signal::Signal::SIGINT);
    let out = finish(child, 60);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).trim_end(),
        "treereduce: interrupted before the original was accepted; nothing was written"
    );
    assert!(!s.path().join("a.reduced.xml").exists());
    assert!(eventually(10, || !alive(&mark)), "a test survived");
    assert!(s.leftovers().is_empty(), "{:?}", s.leftovers());
}

#[test]
fn temporary_folders_are_removed_after_success_and_errors() {
    let s = Scratch::new();
    s.write("a.xml", "<a><keep/><b/></a>");
    s.script("ok.sh", "grep -q keep \"$1\"");
    s.script("no.sh", "exit 1");
    s.script("any.sh", "exit 0");
    assert_eq!(s.run(&["a.xml", "./ok.sh", "-q"]).status.code(), Some(0));
    assert_eq!(s.run(&["a.xml", "./no.sh", "-q"]).status.code(), Some(1));
    assert_eq!(s.run(&["a.xml", "./any.sh", "-q"]).status.code(), Some(1));
    assert!(s.leftovers().is_empty(), "{:?}", s.leftovers());
}

#[test]
fn a_flaky_test_is_reported() {
    let s = Scratch::new();
    s.write("a.xml", "<a><keep/><b/></a>");
    let flag = s.path().join("seen");
    // Accepts the first run on a text with <keep/> only. The smallest document (without
    // it) may run beside the first run of the original, so it must not take that turn.
    s.script(
        "t.sh",
        &format!(
            "grep -q keep \"$1\" || exit 1\ntest -e '{0}' && exit 1\ntouch '{0}'\nexit 0",
            flag.display()
        ),
    );
    for jobs in ["1", "2"] {
        let _ = std::fs::remove_file(&flag);
        let out = s.run(&["a.xml", "./t.sh", "-q", "-j", jobs]);
        assert_eq!(out.status.code(), Some(1));
        let err = stderr(&out);
        assert!(err.starts_with("treereduce: flaky test:"), "{err}");
        assert!(err.contains("exited 1"), "{err}");
        assert!(!s.path().join("a.reduced.xml").exists());
    }
}

/// A test that never ends on the original is stopped at the original's time limit
/// (600 s unless `--timeout` is given; 1 s here, through the library) and reported as
/// such, instead of being waited for forever; its process group is killed.
#[test]
fn a_test_that_hangs_on_the_original_is_reported() {
    let s = Scratch::new();
    s.write("a.xml", "<a><b/></a>");
    let seconds = 7;
    let marker = marker(seconds);
    s.script("t.sh", &format!("sleep {marker}\nexit 0"));
    let mut config = treereduce::Config::new(s.path().join("a.xml"), s.path().join("t.sh"));
    config.original_limit = Duration::from_secs(1);
    let began = Instant::now();
    let outcome = treereduce::run(&config);
    assert!(began.elapsed() < Duration::from_secs(u64::from(seconds)));
    match outcome {
        Err(treereduce::error::Error::NotInteresting(message)) => {
            assert!(
                message.starts_with("the test did not end on the original input within 1 s"),
                "{message}"
            );
            assert!(message.contains("--timeout"), "{message}");
        }
        other => panic!("expected a hang to be reported, got {other:?}"),
    }
    assert!(eventually(5, || !alive(&marker)));
    assert!(!s.path().join("a.reduced.xml").exists());

    // With a --timeout the original outlasts, the message names that limit.
    config.timeout = Some(Duration::from_millis(300));
    match treereduce::run(&config) {
        Err(treereduce::error::Error::NotInteresting(message)) => assert!(
            message.starts_with(
                "the test did not end on the original input within --timeout 0.3 s; give a --timeout above its run time"
            ),
            "{message}"
        ),
        other => panic!("expected the --timeout to be named, got {other:?}"),
    }
    assert!(eventually(5, || !alive(&marker)));
}

/// The smallest document of a page that is one MathML fraction puts placeholders for its
/// children (which may not go): kept whole, a test that needs one of them was taken for
/// a test that accepts anything (found by a field trial, in XML and in HTML). In HTML a
/// fraction outside `<math>` is an unknown element with children like any other's.
#[test]
fn a_lone_fraction_is_no_sign_of_a_test_that_accepts_anything() {
    let s = Scratch::new();
    s.write("f.xml", "<mfrac><mi>KEY</mi><mi>b</mi></mfrac>\n");
    s.write("f.html", "<mfrac><mi>KEY</mi><mi>b</mi>&nbsp;</mfrac>\n");
    s.script("t.sh", "grep -q KEY \"$1\"");
    for (input, output, result) in [
        ("f.xml", "f.reduced.xml", "<mi>KEY</mi>"),
        ("f.html", "f.reduced.html", "KEY"),
    ] {
        let out = s.run(&[input, "./t.sh", "-q"]);
        assert_eq!(out.status.code(), Some(0), "{input}: {}", stderr(&out));
        assert_eq!(s.read(output), result);
    }
}

#[test]
fn a_test_that_accepts_anything_is_refused_unless_allowed() {
    let s = Scratch::new();
    s.write(
        "a.xml",
        "<?xml version=\"1.0\"?>\n<!-- c -->\n<a x=\"1\">\n  <b/>\n  text\n</a>\n",
    );
    s.write("a.txt", "one\ntwo\n");
    s.script("t.sh", "exit 0");
    let out = s.run(&["a.xml", "./t.sh", "-q"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("the test accepts anything"), "{err}");
    assert!(err.contains("--allow-trivial"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let out = s.run(&["a.txt", "./t.sh", "-q"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("document \"\" is"),
        "{}",
        stderr(&out)
    );
    let out = s.run(&["a.xml", "./t.sh", "-q", "--allow-trivial"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(s.read("a.reduced.xml"), "<a/>");
}

#[test]
fn smallest_document_deletes_everything_deletable() {
    use treereduce::frontend::Format;
    let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE a>\n<!-- c -->\n<a xmlns=\"u\" x=\"1\">\n  <b/>\n  t\n</a>\n<?pi?>\n";
    assert_eq!(
        treereduce::smallest_document(Format::Xml.frontend().as_ref(), xml).as_deref(),
        Some("\n<a>\n</a>\n")
    );
    assert_eq!(
        treereduce::smallest_document(Format::Lines.frontend().as_ref(), "a\nb\n").as_deref(),
        Some("")
    );
}

#[test]
fn exit_code_and_match_conditions() {
    let s = Scratch::new();
    s.write("a.xml", "<a>\n  <b/>\n  <bug/>\n  <c/>\n</a>\n");
    s.script("code.sh", "grep -q bug \"$1\" && exit 3\nexit 0");
    s.script(
        "says.sh",
        "grep -q bug \"$1\" && echo 'fatal: segfault in parse' >&2\nexit 0",
    );
    let out = s.run(&["a.xml", "./code.sh", "-q", "--exit-code", "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(s.read("a.reduced.xml"), "<bug/>");
    std::fs::remove_file(s.path().join("a.reduced.xml")).unwrap();
    // Exit status 0 alone accepts anything; the pattern makes it a real test.
    let out = s.run(&["a.xml", "./says.sh", "-q"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = s.run(&["a.xml", "./says.sh", "-q", "--match", "segfault in \\w+"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(s.read("a.reduced.xml"), "<bug/>");
    // `$` ends a line, as in grep, though the stream goes on past its line break.
    let out = s.run(&["a.xml", "./says.sh", "-q", "--match", "^fatal: .*parse$"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The conditions are AND-ed: the right text with the wrong status is not enough.
    let out = s.run(&["a.xml", "./code.sh", "-q", "--match", "."]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = s.run(&["a.xml", "./says.sh", "--match", "(unclosed"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("invalid --match pattern"));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
}

/// A hang reduction of `a.xml` by `./t.sh`, one call at a time, with its figures in
/// `s.json`.
const HANG_RUN: &[&str] = &[
    "a.xml",
    "./t.sh",
    "-q",
    "-j",
    "1",
    "--timeout-is-interesting",
    "--timeout",
    "0.5",
    "--stats-json",
    "s.json",
];

#[test]
fn timeout_is_interesting_reduces_a_hang() {
    let s = Scratch::new();
    s.write("a.xml", "<a>\n  <b/>\n  <loop/>\n  <c/>\n</a>\n");
    let mark = marker(100);
    s.script(
        "t.sh",
        &format!("grep -q loop \"$1\" && sleep {mark}\nexit 0"),
    );
    let out = s.run(&["a.xml", "./t.sh", "-q", "--timeout-is-interesting"]);
    assert_eq!(out.status.code(), Some(2), "needs --timeout");
    let out = s.run(HANG_RUN);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(s.read("a.reduced.xml"), "<loop/>");
    assert!(json_number(&s.read("s.json"), "timeouts") >= 2);
    // The result hangs alone too: tested once more at the end, nothing to warn about.
    assert!(
        s.read("s.json")
            .contains("\"hang_unconfirmed_seconds\": null")
    );
    assert_eq!(stderr(&out), "");
    assert!(eventually(10, || !alive(&mark)));
}

/// A hang reduction tests its result once more, alone, at the end: a result that ends in
/// time then (here each smaller text hangs only the first time it is tested, as a run
/// slowed by the calls beside it would) is reported with a warning, -q or not.
#[test]
fn a_hang_that_does_not_hold_alone_is_warned_about() {
    let s = Scratch::new();
    s.write("a.xml", "<a>\n  <b/>\n  <loop/>\n  <c/>\n</a>\n");
    let mark = marker(100);
    let seen = s.path().join("seen");
    std::fs::create_dir(&seen).unwrap();
    s.script(
        "t.sh",
        &format!(
            "grep -q loop \"$1\" || exit 0\n\
             [ $(wc -c < \"$1\") -ge 33 ] && exec sleep {mark}\n\
             sum=$(cksum < \"$1\" | cut -d' ' -f1)\n\
             [ -e '{}'/$sum ] && exit 0\n\
             touch '{}'/$sum\n\
             exec sleep {mark}",
            seen.display(),
            seen.display()
        ),
    );
    let out = s.run(HANG_RUN);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(s.read("a.reduced.xml"), "<loop/>");
    let err = stderr(&out);
    assert!(
        err.contains("s when tested alone, within --timeout 0.5 s: it hung only while"),
        "{err}"
    );
    assert!(err.contains("reduce it again with -j 1"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // It ran well under the limit (the integer part of its seconds).
    assert_eq!(
        json_number(&s.read("s.json"), "hang_unconfirmed_seconds"),
        0
    );
    assert!(eventually(10, || !alive(&mark)));
}

#[test]
fn binary_input_exits_2_naming_the_first_nul() {
    let s = Scratch::new();
    std::fs::write(s.path().join("a.xml"), b"<a>\0</a>").unwrap();
    s.script("t.sh", "exit 0");
    let out = s.run(&["a.xml", "./t.sh"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("binary file"), "{err}");
    assert!(err.contains("byte offset 3"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A UTF-16 file (its NUL bytes would say "binary") is named as UTF-16, with the way out.
#[test]
fn utf16_input_exits_2_naming_its_encoding() {
    let s = Scratch::new();
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend("<a/>".encode_utf16().flat_map(u16::to_le_bytes));
    std::fs::write(s.path().join("a.xml"), bytes).unwrap();
    s.script("t.sh", "exit 0");
    let out = s.run(&["a.xml", "./t.sh"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("a.xml: the text is UTF-16LE"), "{err}");
    assert!(err.contains("iconv -f UTF-16LE -t UTF-8"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A text that is not UTF-8 and names its encoding (an XML declaration, an HTML
/// `charset`) is to be converted from that one, not from Latin-1 (found by a robustness
/// sweep on Shift_JIS, EUC-KR and windows-1251 files).
#[test]
fn a_text_that_declares_another_encoding_is_told_to_convert_from_it() {
    let s = Scratch::new();
    s.script("t.sh", "exit 0");
    let cases: [(&str, &[u8], &str); 3] = [
        (
            "a.xml",
            b"<?xml version='1.0' encoding='Shift_JIS'?>\n<a>\x82\xa0</a>\n",
            "iconv -f Shift_JIS -t UTF-8",
        ),
        (
            "b.html",
            b"<html><head><meta charset=\"windows-1251\"></head><p>\xe0</p></html>",
            "iconv -f windows-1251 -t UTF-8",
        ),
        // A declaration of UTF-8 that the bytes belie: Latin-1 is the likely truth.
        (
            "c.xml",
            b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>\xe9</a>",
            "iconv -f LATIN1 -t UTF-8",
        ),
    ];
    for (name, bytes, hint) in cases {
        std::fs::write(s.path().join(name), bytes).unwrap();
        let out = s.run(&[name, "./t.sh"]);
        assert_eq!(out.status.code(), Some(2));
        let err = stderr(&out);
        assert!(err.contains("invalid UTF-8"), "{err}");
        assert!(err.contains(hint), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn unwritable_output_folder_exits_2_before_any_test() {
    let s = Scratch::new();
    s.write("a.xml", "<a><keep/></a>");
    let ran = s.path().join("ran");
    s.script("t.sh", &format!("touch '{}'\nexit 0", ran.display()));
    let out = s.run(&["a.xml", "./t.sh", "-o", "/nonexistent-dir/x.xml"]);
    assert_eq!(out.status.code(), Some(2));
    // The folder is named as missing, not the temporary file that could not be made.
    let err = stderr(&out);
    assert!(err.contains("/nonexistent-dir/x.xml"), "{err}");
    assert!(err.contains("no such folder: /nonexistent-dir"), "{err}");
    assert!(!err.contains(".tmp"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!ran.exists(), "the test ran");
    // A folder that takes no new file is named with the system's reason.
    let out = s.run(&["a.xml", "./t.sh", "-o", "/proc/x.xml"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("no file can be made (No such file"), "{err}");
    assert!(err.contains("in the folder /proc"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!ran.exists(), "the test ran");
}

#[test]
fn hundred_thousand_nested_elements_do_not_overflow() {
    let s = Scratch::new();
    let n = 100_000;
    let text = format!("<r>{}<keep/>{}</r>\n", "<e>".repeat(n), "</e>".repeat(n));
    s.write("deep.xml", &text);
    s.script("any.sh", "exit 0");
    s.script("no.sh", "exit 1");
    let out = s.run(&["deep.xml", "./no.sh", "-q"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = s.run(&["deep.xml", "./any.sh", "-q"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = s.run(&["deep.xml", "./any.sh", "-q", "--allow-trivial"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(s.read("deep.reduced.xml"), "<r/>");
}

/// Deep inputs reduce in memory that grows with their size, not with its square: 100 000
/// nested elements and 50 000 nested JavaScript arrays around what the test needs (the old
/// code needed 2.5 GB for the arrays), and 20 000 nested blocks, each under a 2 GB limit
/// on the address space. A rewrite list
/// once wrote out what each unwrap left in its node's place (35 GB for the elements), the
/// records of needed nodes were carried in time quadratic in the depth, and each block's
/// hoists looked at every block inside it (six minutes for the blocks).
#[test]
fn deep_inputs_reduce_in_bounded_memory() {
    let s = Scratch::new();
    let n = 100_000;
    s.write(
        "deep.xml",
        &format!("<r>{}<keep/>{}</r>\n", "<e>".repeat(n), "</e>".repeat(n)),
    );
    let arrays = 50_000;
    s.write(
        "arrays.js",
        &format!("{}keep{};\n", "[".repeat(arrays), "]".repeat(arrays)),
    );
    let m = 20_000;
    s.write(
        "blocks.js",
        &format!("{}keep;{}\n", "{".repeat(m), "}".repeat(m)),
    );
    s.script("keep.sh", "grep -q keep \"$1\"");
    for (input, expected) in [
        ("deep.xml", "<keep/>"),
        ("arrays.js", "keep;\n"),
        ("blocks.js", "keep;\n"),
    ] {
        let limited = ["-c", "ulimit -v 2000000 && exec \"$@\"", "sh"];
        let binary = env!("CARGO_BIN_EXE_treereduce");
        let reduce = [binary, input, "./keep.sh", "-q", "-j", "1", "-o", "out"];
        let child = s
            .command_of("sh", &[&limited[..], &reduce[..]].concat())
            .spawn()
            .unwrap();
        let out = finish(child, 300);
        assert_eq!(out.status.code(), Some(0), "{input}: {}", stderr(&out));
        assert_eq!(s.read("out"), expected, "{input}");
    }
}

/// A test killed by a signal ends with 128 + the signal's number, as a shell reports it:
/// `--exit-code 139` reduces for a program that crashes with a segmentation fault when it
/// is the test itself.
#[test]
fn a_test_killed_by_a_signal_counts_as_128_plus_the_signal() {
    let s = Scratch::new();
    s.write("a.xml", "<a>\n  <b/>\n  <crash/>\n  <c/>\n</a>\n");
    s.script("segv.sh", "grep -q crash \"$1\" && kill -SEGV $$\nexit 1");
    let out = s.run(&[
        "a.xml",
        "./segv.sh",
        "-q",
        "--exit-code",
        "139",
        "-o",
        "out.xml",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(s.read("out.xml"), "<crash/>");
    let out = s.run(&["a.xml", "./segv.sh", "-q", "-o", "zero.xml"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("signal 11"), "{}", stderr(&out));
}

#[test]
fn one_and_two_jobs_give_the_same_output() {
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/xml/mathml-notsubset");
    let s = Scratch::new();
    let input = std::fs::read_dir(&case)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("input.")
        })
        .unwrap();
    let name = input.file_name().unwrap().to_string_lossy().into_owned();
    std::fs::copy(&input, s.path().join(&name)).unwrap();
    std::fs::copy(case.join("check.sh"), s.path().join("check.sh")).unwrap();
    let run = |jobs: &str, out: &str, stats: &str| {
        let args = [&name, "./check.sh", "-q", "-j", jobs, "-o", out];
        let run = s.run(&[&args[..], &["--stats-json", stats]].concat());
        assert_eq!(run.status.code(), Some(0), "-j {jobs}: {}", stderr(&run));
        let json = s.read(stats);
        let calls = json_number(&json, "oracle_calls");
        (calls, json_number(&json, "wasted"))
    };
    let (one_calls, one_wasted) = run("1", "one.xml", "one.json");
    let (two_calls, two_wasted) = run("2", "two.xml", "two.json");
    assert_eq!(s.read("one.xml"), s.read("two.xml"));
    assert!(s.read("one.xml").len() < std::fs::metadata(&input).unwrap().len() as usize);
    // Every verdict used is asked once whatever -j is; speculation only adds waste (and
    // a text the window holds twice shares one call).
    assert_eq!(one_wasted, 0);
    assert_eq!(two_calls - two_wasted, one_calls);
}

#[test]
fn start_up_checks_give_the_same_verdicts_for_every_jobs_count() {
    let s = Scratch::new();
    s.write("a.xml", "<a x=\"1\">\n  <b/>\n  <keep/>\n</a>\n");
    s.script("any.sh", "exit 0");
    s.script("keep.sh", "grep -q keep \"$1\"");
    // The smallest document runs beside the first run of the original with -j 2; it is
    // held to the time limit that run gives, as it is when it runs after it.
    s.script("slow.sh", "grep -q keep \"$1\" || sleep 30");
    for jobs in ["1", "2"] {
        let out = s.run(&["a.xml", "./any.sh", "-q", "-j", jobs]);
        assert_eq!(out.status.code(), Some(1), "-j {jobs}");
        assert!(
            stderr(&out).contains("the test accepts anything"),
            "-j {jobs}"
        );
        let out = s.run(&["a.xml", "./any.sh", "-q", "-j", jobs, "--allow-trivial"]);
        assert_eq!(out.status.code(), Some(0), "-j {jobs}: {}", stderr(&out));
        assert_eq!(s.read("a.reduced.xml"), "<a/>", "-j {jobs}");
        let out = s.run(&["a.xml", "./keep.sh", "-q", "-j", jobs]);
        assert_eq!(out.status.code(), Some(0), "-j {jobs}: {}", stderr(&out));
        assert_eq!(s.read("a.reduced.xml"), "<keep/>", "-j {jobs}");
        let started = std::time::Instant::now();
        let out = s.run(&["a.xml", "./slow.sh", "-q", "-j", jobs]);
        assert_eq!(out.status.code(), Some(0), "-j {jobs}: {}", stderr(&out));
        assert_eq!(s.read("a.reduced.xml"), "<keep/>", "-j {jobs}");
        assert!(started.elapsed().as_secs() < 25, "-j {jobs}");
    }
    assert!(s.leftovers().is_empty(), "{:?}", s.leftovers());
}

/// `--stats-json` naming the input, the output or the test is refused before any test
/// runs (it overwrote the input once, and a review's test script), and so is a stats path
/// whose folder does not exist.
#[test]
fn stats_json_never_replaces_the_input_or_the_output() {
    let s = Scratch::new();
    let input = "<a><keep/><drop/></a>";
    s.write("a.xml", input);
    let ran = s.path().join("ran");
    s.script(
        "t.sh",
        &format!("touch '{}'\ngrep -q keep \"$1\"", ran.display()),
    );
    for args in [
        ["a.xml", "./t.sh", "-o", "out.xml", "--stats-json", "a.xml"],
        [
            "a.xml",
            "./t.sh",
            "-o",
            "out.xml",
            "--stats-json",
            "out.xml",
        ],
        [
            "a.xml",
            "./t.sh",
            "-o",
            "out.xml",
            "--stats-json",
            "/nonexistent-dir/s.json",
        ],
        ["a.xml", "./t.sh", "-o", "out.xml", "--stats-json", "t.sh"],
    ] {
        let out = s.run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(args[5]), "{}", stderr(&out));
        assert!(!ran.exists(), "{args:?}: the test ran");
        assert!(!s.path().join("out.xml").exists(), "{args:?}");
    }
    assert_eq!(s.read("a.xml"), input);
    assert!(s.read("t.sh").contains("grep -q keep"));
    let out = s.run(&["a.xml", "./t.sh", "-o", "out.xml", "--stats-json", "s.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(json_number(&s.read("s.json"), "oracle_calls") > 0);
}

/// The output gets the permissions a new file usually gets (0666 less the umask, here
/// 022), not a temporary file's 0600; an existing output keeps its own; an output that is
/// a symbolic link stays one, and the file it points to receives the result; a device is
/// refused.
#[test]
fn the_output_keeps_usual_permissions_and_symbolic_links() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let s = Scratch::new();
    s.write("a.xml", "<a><keep/><drop/></a>");
    s.script("t.sh", "grep -q keep \"$1\"");
    // The umask is set by a shell in between.
    let run = |out: &str| {
        let status = Command::new("sh")
            .current_dir(s.path())
            .env("TMPDIR", s.tmpdir())
            .arg("-c")
            .arg("umask 022; exec \"$0\" a.xml ./t.sh -q -o \"$1\"")
            .arg(env!("CARGO_BIN_EXE_treereduce"))
            .arg(out)
            .status()
            .unwrap();
        assert!(status.success(), "{out}: {status}");
    };
    run("new.xml");
    assert_eq!(mode(&s.path().join("new.xml")), 0o644);
    s.write("old.xml", "");
    std::fs::set_permissions(
        s.path().join("old.xml"),
        std::fs::Permissions::from_mode(0o640),
    )
    .unwrap();
    run("old.xml");
    assert_eq!(mode(&s.path().join("old.xml")), 0o640);
    std::os::unix::fs::symlink("target.xml", s.path().join("link.xml")).unwrap();
    run("link.xml");
    let link = std::fs::symlink_metadata(s.path().join("link.xml")).unwrap();
    assert!(link.file_type().is_symlink(), "the link was replaced");
    assert_eq!(s.read("target.xml"), s.read("new.xml"));
    assert!(s.read("new.xml").contains("keep"));
    // A device is refused before any test: the output is replaced as the run goes (as
    // root, the rename once replaced /dev/null itself).
    let out = s.run(&["a.xml", "./t.sh", "-o", "/dev/null"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("not a regular file"),
        "{}",
        stderr(&out)
    );
    use std::os::unix::fs::FileTypeExt;
    let null = std::fs::metadata("/dev/null").unwrap().file_type();
    assert!(null.is_char_device());
}

/// A `--timeout` too large for the clock, or too small to mean anything, is a usage error,
/// never a panic (`Duration` and `Instant` arithmetic overflowed on 1e19).
#[test]
fn absurd_timeouts_are_usage_errors() {
    let s = Scratch::new();
    s.write("a.xml", "<a><keep/></a>");
    s.script("t.sh", "grep -q keep \"$1\"");
    for t in ["1e300", "1e19", "18446744073709551616", "1e-300", "-1", "0"] {
        let out = s.run(&["a.xml", "./t.sh", "--timeout", t]);
        assert_eq!(out.status.code(), Some(2), "{t}: {}", stderr(&out));
        assert!(stderr(&out).contains("--timeout"), "{t}: {}", stderr(&out));
        // One short line, whatever the number's size.
        assert!(stderr(&out).trim_end().len() < 120, "{t}: {}", stderr(&out));
    }
}

/// A test that leaves a folder without permissions and makes its own folder read-only
/// (as a Go module cache does) leaves nothing behind: treereduce gives the folders their
/// owner's permissions back before removing them. Root ignores permissions, so as root
/// the run drops to user `nobody` through `setpriv` (skipped where that cannot run the
/// binary).
#[test]
fn read_only_folders_left_by_a_test_are_removed() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new();
    s.write("a.xml", "<a><keep/><drop/></a>");
    s.script(
        "t.sh",
        "grep -q keep \"$1\"; r=$?\nmkdir -p sub; touch sub/f; chmod 000 sub; chmod 500 .\nexit $r",
    );
    let bin = env!("CARGO_BIN_EXE_treereduce");
    // /proc/self belongs to the process's user.
    let as_root =
        std::os::unix::fs::MetadataExt::uid(&std::fs::metadata("/proc/self").unwrap()) == 0;
    let mut command = if as_root {
        let drop_to_nobody = ["--reuid=65534", "--regid=65534", "--clear-groups"];
        let usable = Command::new("setpriv")
            .args(drop_to_nobody)
            .args([bin, "--version"])
            .output()
            .is_ok_and(|o| o.status.success());
        if !usable {
            eprintln!("skipped: setpriv cannot run {bin} as nobody");
            return;
        }
        for dir in [s.path(), &s.tmpdir()] {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        }
        let mut c = Command::new("setpriv");
        c.args(drop_to_nobody).arg(bin);
        c
    } else {
        Command::new(bin)
    };
    let out = command
        .current_dir(s.path())
        .env("TMPDIR", s.tmpdir())
        .args(["a.xml", "./t.sh", "-q", "-o"])
        .arg(s.tmpdir().join("..").join("out.xml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(s.leftovers(), Vec::<String>::new());
    assert!(s.read("out.xml").contains("keep"));
}

/// What `-j 2` tests ahead at the end of a list is the candidate asked next (checked on
/// the real verdicts with `TREEREDUCE_AUDIT_PREFETCH`, whatever `-j`), in two shapes the
/// fixtures lack: a chain whose deepest node may go (the chain is then asked top-down,
/// with no depth settled), and code whose next deletable node lies below the depth the
/// tree was first built to.
#[test]
fn predictions_of_the_next_candidate_hold_after_a_chain_probe_and_below_a_cut_tree() {
    let cases = [
        (
            "chain.xml",
            "<r><a x=\"1\"><b y=\"2\"><c z=\"3\"><d w=\"4\"><e/></d></c></b></a><keep/></r>\n"
                .to_string(),
            "grep -q '<keep/>' \"$1\"",
        ),
        (
            "deep.js",
            format!(
                "f(1);\nvar v = {}h(3), k(4){};\n",
                "(".repeat(12),
                ")".repeat(12)
            ),
            "grep -q 'h(3)' \"$1\"",
        ),
    ];
    for (name, input, test) in cases {
        let s = Scratch::new();
        s.write(name, &input);
        s.script("t.sh", test);
        let args = [
            name,
            "./t.sh",
            "-q",
            "-j",
            "1",
            "-o",
            "out",
            "--stats-json",
            "s.json",
        ];
        let mut command = s.command(&args);
        command.env("TREEREDUCE_AUDIT_PREFETCH", "1");
        let out = finish(command.spawn().unwrap(), 300);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        let json = s.read("s.json");
        let right = json_number(&json, "right");
        let wrong = json_number(&json, "wrong");
        let unpredicted = json_number(&json, "unpredicted");
        assert!(right >= 3, "{name}: {json}");
        assert_eq!((wrong, unpredicted), (0, 0), "{name}: {json}");
    }
}
