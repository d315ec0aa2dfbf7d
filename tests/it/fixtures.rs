//! Runs every case in `fixtures/<format>/<case>/` through the real `treereduce` binary:
//! the input file is the one whose name starts with `input.`, the oracle is `check.sh`,
//! extra options are in `args` (one per line), and the expected result and oracle-call
//! count are in `expected.<ext>` and `expected-calls`. On a mismatch the runner prints a
//! diff; `BLESS=1 cargo test` rewrites the expectations after an intended change.

use std::path::{Path, PathBuf};
use std::process::Command;

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut cases = Vec::new();
    for format in std::fs::read_dir(&root).unwrap() {
        let format = format.unwrap().path();
        if !format.is_dir() {
            continue;
        }
        for case in std::fs::read_dir(&format).unwrap() {
            let case = case.unwrap().path();
            if case.join("check.sh").exists() {
                cases.push(case);
            }
        }
    }
    cases.sort();
    cases
}

fn input_of(case: &Path) -> PathBuf {
    std::fs::read_dir(case)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("input."))
        })
        .unwrap_or_else(|| panic!("{}: no input.* file", case.display()))
}

/// A line diff good enough to read a fixture mismatch.
fn diff(expected: &str, got: &str) -> String {
    let mut out = String::new();
    let (e, g): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), got.lines().collect());
    for i in 0..e.len().max(g.len()) {
        match (e.get(i), g.get(i)) {
            (Some(a), Some(b)) if a == b => out.push_str(&format!("  {a}\n")),
            (a, b) => {
                if let Some(a) = a {
                    out.push_str(&format!("- {a}\n"));
                }
                if let Some(b) = b {
                    out.push_str(&format!("+ {b}\n"));
                }
            }
        }
    }
    out
}

/// Reads one number out of the `--stats-json` output.
pub fn json_number(json: &str, field: &str) -> usize {
    let key = format!("\"{field}\": ");
    let at = json
        .find(&key)
        .unwrap_or_else(|| panic!("no {field} in {json}"))
        + key.len();
    json[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap()
}

#[test]
fn fixtures_reduce_to_their_expected_output() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    let cases = cases();
    assert!(cases.len() >= 4, "fixtures are missing");
    for case in cases {
        let input = input_of(&case);
        let ext = input.extension().unwrap().to_string_lossy().into_owned();
        let work = tempfile::tempdir().unwrap();
        let out = work.path().join(format!("out.{ext}"));
        let stats = work.path().join("stats.json");
        let mut args: Vec<String> = std::fs::read_to_string(case.join("args"))
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(String::from)
            .collect();
        args.extend(["-j", "1", "-q", "--timeout", "30"].map(String::from));
        let before = std::fs::read(&input).unwrap();
        // Every list's prediction of the first candidate after it (what `-j 2` tests
        // ahead) is checked against the candidate then asked.
        let status = Command::new(env!("CARGO_BIN_EXE_treereduce"))
            .env("TREEREDUCE_AUDIT_PREFETCH", "1")
            .arg(&input)
            .arg(case.join("check.sh"))
            .args(&args)
            .arg("-o")
            .arg(&out)
            .arg("--stats-json")
            .arg(&stats)
            .status()
            .unwrap();
        assert_eq!(
            std::fs::read(&input).unwrap(),
            before,
            "{}: input modified",
            case.display()
        );
        if !status.success() {
            failures.push(format!("{}: exit status {status}", case.display()));
            continue;
        }
        let got = std::fs::read_to_string(&out).unwrap();
        let json = std::fs::read_to_string(&stats).unwrap();
        let calls = json_number(&json, "oracle_calls");
        let (wrong, unpredicted) = (
            json_number(&json, "wrong"),
            json_number(&json, "unpredicted"),
        );
        if wrong + unpredicted > 0 {
            failures.push(format!(
                "{}: {wrong} wrong and {unpredicted} missing predictions of the next list's first candidate",
                case.display()
            ));
        }
        let expected_path = case.join(format!("expected.{ext}"));
        let calls_path = case.join("expected-calls");
        if bless {
            std::fs::write(&expected_path, &got).unwrap();
            std::fs::write(&calls_path, format!("{calls}\n")).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != expected {
            failures.push(format!(
                "{}: output differs (BLESS=1 to accept)\n{}",
                case.display(),
                diff(&expected, &got)
            ));
        }
        let expected_calls: usize = std::fs::read_to_string(&calls_path)
            .unwrap_or_default()
            .trim()
            .parse()
            .unwrap_or(0);
        if calls != expected_calls {
            failures.push(format!(
                "{}: {calls} oracle calls, expected {expected_calls} (BLESS=1 to accept)",
                case.display()
            ));
        }
        // The result must still be interesting to the fixture's own oracle.
        let verdict = Command::new(case.join("check.sh"))
            .arg(&out)
            .status()
            .unwrap();
        if !verdict.success() {
            failures.push(format!("{}: the result is not interesting", case.display()));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// 1-minimality with respect to the offered edits: on every fixture's expected result,
/// each single deletion or rewrite the front end offers either breaks the syntax or makes
/// the fixture's own oracle say "not interesting".
#[test]
fn fixture_results_are_one_minimal() {
    use treereduce::frontend::Format;
    use treereduce::render::render;
    let mut checked = 0;
    for case in cases() {
        let input = input_of(&case);
        let ext = input.extension().unwrap().to_string_lossy().into_owned();
        let expected = case.join(format!("expected.{ext}"));
        let text = std::fs::read_to_string(&expected).unwrap();
        // Held to what the reduction held its candidates to (Python's blocks).
        let original = std::fs::read_to_string(&input).unwrap();
        let frontend = Format::from_path(&input).frontend_for(&input, &original);
        let tree = frontend.parse(&text).unwrap();
        let work = tempfile::tempdir().unwrap();
        let candidate = work.path().join(format!("candidate.{ext}"));
        for id in tree.ids() {
            let node = tree.node(id);
            let deletion = node
                .delete
                .clone()
                .map(|span| vec![treereduce::tree::Edit::delete(span)]);
            for edits in deletion.iter().chain(&node.alternatives) {
                let smaller = render(&text, &edits.iter().collect::<Vec<_>>());
                if smaller == text || !frontend.is_valid(&smaller) {
                    continue;
                }
                std::fs::write(&candidate, &smaller).unwrap();
                let verdict = Command::new(case.join("check.sh"))
                    .arg(&candidate)
                    .status()
                    .unwrap();
                assert!(
                    !verdict.success(),
                    "{}: the result is not 1-minimal; this is still interesting:\n{smaller}",
                    case.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 10, "only {checked} edits checked");
}
