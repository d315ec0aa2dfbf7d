//! Error paths of the binary: each bad input gets a one-line error with the documented
//! exit code, and nothing is written.

use std::path::Path;
use std::process::{Command, Output};

/// Runs the binary in `dir` with `args`.
pub fn treereduce(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_treereduce"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// Writes an executable shell script `name` in `dir` running `body`.
pub fn script(dir: &Path, name: &str, body: &str) {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn uninteresting_original_exits_1_with_status_and_stderr() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.xml"), "<a><b/></a>").unwrap();
    script(dir.path(), "t.sh", "echo 'no crash here' >&2; exit 3");
    let out = treereduce(dir.path(), &["a.xml", "./t.sh"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("not interesting"), "{err}");
    assert!(err.contains("exited 3"), "{err}");
    assert!(err.contains("no crash here"), "{err}");
    assert!(!dir.path().join("a.reduced.xml").exists());
    assert!(!err.contains("fresh folder"), "{err}");
}

/// The command to run by hand is the one the reducer ran: the test's arguments included,
/// the input in place of `{}` when one holds it, quoted for a shell.
#[test]
fn the_command_to_run_by_hand_keeps_the_arguments() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.xml"), "<a><b/></a>").unwrap();
    let out = treereduce(
        dir.path(),
        &["a.xml", "--", "sh", "-c", "grep -q 'x y' \"$1\"", "arg0"],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(
            "run it by hand to see why: sh -c 'grep -q '\\''x y'\\'' \"$1\"' arg0 a.xml < a.xml"
        ),
        "{err}"
    );
    let out = treereduce(dir.path(), &["a.xml", "grep", "--", "-q", "nothing {}"]);
    assert!(
        stderr(&out).contains("run it by hand to see why: grep -q 'nothing a.xml' < a.xml"),
        "{}",
        stderr(&out)
    );
}

/// Progress and trace lines go to stderr; when nobody reads it any more (`2>&1 | head -1`)
/// the reduction goes on to its end (it used to panic with exit 101 at the first line).
#[test]
fn a_closed_stderr_does_not_stop_the_reduction() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.xml"), "<r><a>KEEP</a><b/><c/></r>\n").unwrap();
    script(dir.path(), "t.sh", "grep -q KEEP \"$1\"");
    let mut child = Command::new(env!("CARGO_BIN_EXE_treereduce"))
        .current_dir(dir.path())
        .args(["a.xml", "./t.sh", "-j", "1", "-o", "out.xml"])
        .env("TREEREDUCE_TRACE", "1")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    let result = std::fs::read_to_string(dir.path().join("out.xml")).unwrap();
    assert_eq!(result, "<a>KEEP</a>");
}

/// A test that calls a helper by a relative path works by hand but not in the candidate's
/// folder: the error says where the test runs.
#[test]
fn a_relative_path_in_the_test_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.xml"), "<a><b/></a>").unwrap();
    script(dir.path(), "helper.sh", "exit 0");
    script(dir.path(), "t.sh", "./helper.sh \"$1\"");
    let out = treereduce(dir.path(), &["a.xml", "./t.sh"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("exited 127"), "{err}");
    assert!(err.contains("runs in a fresh folder"), "{err}");
}

#[test]
fn malformed_xml_exits_2_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.xml"), "<a>\n  <b></a>\n").unwrap();
    script(dir.path(), "t.sh", "exit 0");
    let out = treereduce(dir.path(), &["a.xml", "./t.sh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("a.xml:2:6:"), "{}", stderr(&out));
    assert_eq!(stderr(&out).lines().count(), 1);
}

/// The errors whose place or words the XML parser gets wrong: an element left open is
/// named where it opens (the parser says 1:1), a second root is called so (the parser says
/// "unknown token"), the position is given once, and tag soup named `.xhtml` is pointed
/// to the HTML front end.
#[test]
fn malformed_xml_errors_say_what_and_where() {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "t.sh", "exit 0");
    for (text, want) in [
        (
            "<r>\n  <a>\n    <b x='>'>text</b>\n    <c>\n",
            "a.xhtml:4:5: <c> is never closed",
        ),
        (
            "<r/>\n<r/>\n",
            "a.xhtml:2:1: content after the root element",
        ),
        // An undefined entity is read as opaque text; its characters count once each.
        ("<r>&ü; <a>", "a.xhtml:1:8: <a> is never closed"),
        (
            "<r><a b=\"1>\n",
            "a.xhtml:1:4: the start tag <a is never ended",
        ),
        (
            "<html><body><p>a<br></p></body></html>",
            "try --format html, or --format lines)",
        ),
    ] {
        std::fs::write(dir.path().join("a.xhtml"), text).unwrap();
        let out = treereduce(dir.path(), &["a.xhtml", "./t.sh"]);
        assert_eq!(out.status.code(), Some(2));
        let err = stderr(&out);
        assert!(err.contains(want), "{text:?}: {err}");
        assert!(!err.contains(" at 1:"), "the position twice: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn invalid_utf8_exits_2_naming_the_offset() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.js"), b"let x = 1;\n\xff\xfe\n").unwrap();
    script(dir.path(), "t.sh", "exit 0");
    let out = treereduce(dir.path(), &["a.js", "./t.sh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("byte offset 11"), "{}", stderr(&out));
}

#[test]
fn empty_input_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.xml"), "").unwrap();
    script(dir.path(), "t.sh", "exit 0");
    let out = treereduce(dir.path(), &["a.xml", "./t.sh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("empty"), "{}", stderr(&out));
}

/// A file of blank lines (or a byte-order mark and spaces) is empty in every format: the
/// same error, whatever its name says it is, before any test runs.
#[test]
fn whitespace_only_input_exits_2_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let ran = dir.path().join("ran");
    script(
        dir.path(),
        "t.sh",
        &format!("touch '{}'\nexit 0", ran.display()),
    );
    for (name, text) in [
        ("a.js", "\n\n\n"),
        ("a.html", "  \n"),
        ("a.txt", "\n \n"),
        ("a.xml", "\u{feff}\n"),
        ("a.json", "\t\r\n"),
    ] {
        std::fs::write(dir.path().join(name), text).unwrap();
        let out = treereduce(dir.path(), &[name, "./t.sh"]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        assert!(stderr(&out).contains("only whitespace"), "{}", stderr(&out));
    }
    assert!(!ran.exists(), "the test ran");
}

#[test]
fn missing_or_non_executable_test_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.xml"), "<a/>").unwrap();
    let out = treereduce(dir.path(), &["a.xml", "./nope.sh"]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::write(dir.path().join("plain.sh"), "exit 0").unwrap();
    let out = treereduce(dir.path(), &["a.xml", "./plain.sh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not executable"), "{}", stderr(&out));
    // A bare name that is a file here but not executable is refused as such.
    let out = treereduce(dir.path(), &["a.xml", "plain.sh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not executable"), "{}", stderr(&out));
    let out = treereduce(dir.path(), &["a.xml", "nowhere.sh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("nor on PATH"), "{}", stderr(&out));
}

/// `treereduce page.xml check.sh` runs the check.sh of the current folder, as C-Reduce
/// does; other bare names (`sh`) come from PATH, and a file the test's arguments name
/// relative to the current folder is found.
#[test]
fn a_bare_test_name_is_the_file_here_else_a_program_on_path() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.xml"), "<a><b/><keep/></a>").unwrap();
    script(dir.path(), "check.sh", "grep -q keep \"$1\"");
    let out = treereduce(dir.path(), &["a.xml", "check.sh", "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let result = std::fs::read_to_string(dir.path().join("a.reduced.xml")).unwrap();
    assert_eq!(result, "<keep/>");
    // `sh plain` names a file here, which the test's fresh folder lacks: the start-up
    // check finds the test failing, and passing with the file's absolute path.
    std::fs::write(dir.path().join("plain"), "grep -q keep \"$1\"").unwrap();
    let out = treereduce(dir.path(), &["a.xml", "sh", "plain", "-o", "b.xml"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let absolute = dir.path().join("plain").canonicalize().unwrap();
    let note = format!("plain as {}", absolute.display());
    assert!(stderr(&out).contains(&note), "{}", stderr(&out));
    let result = std::fs::read_to_string(dir.path().join("b.xml")).unwrap();
    assert_eq!(result, "<keep/>");
    // A test that fails anyway is reported with the arguments it was given.
    std::fs::write(dir.path().join("never"), "exit 1").unwrap();
    let out = treereduce(dir.path(), &["a.xml", "sh", "never", "-o", "c.xml"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("by hand to see why: sh never a.xml < a.xml"),
        "{}",
        stderr(&out)
    );
    // By hand, a shell needs `./` to run the file here that a bare name stood for.
    script(dir.path(), "fails.sh", "exit 1");
    let out = treereduce(dir.path(), &["a.xml", "fails.sh", "-o", "d.xml"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let by_hand = "by hand to see why: ./fails.sh a.xml < a.xml";
    assert!(stderr(&out).contains(by_hand), "{}", stderr(&out));
}

/// A test may read the candidate on stdin instead of from the path it is given.
#[test]
fn the_test_gets_the_candidate_on_stdin_too() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.xml"), "<a><b/><keep/><c/></a>").unwrap();
    script(dir.path(), "t.sh", "grep -q keep");
    let out = treereduce(dir.path(), &["a.xml", "./t.sh", "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let result = std::fs::read_to_string(dir.path().join("a.reduced.xml")).unwrap();
    assert_eq!(result, "<keep/>");
}

#[test]
fn output_equal_to_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.xml"), "<a><b/></a>").unwrap();
    script(dir.path(), "t.sh", "exit 0");
    let out = treereduce(dir.path(), &["a.xml", "./t.sh", "-o", "a.xml"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.xml")).unwrap(),
        "<a><b/></a>"
    );
}

/// An output that names a folder gets the default name in it, as `cp` would; a folder
/// that does not exist is an error before any work, not a file by that name.
#[test]
fn an_output_folder_takes_the_default_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("page.xml"), "<a><b/><keep/></a>\n").unwrap();
    std::fs::create_dir(dir.path().join("out")).unwrap();
    script(dir.path(), "t.sh", "grep -q keep \"$1\"");
    for given in ["out", "out/"] {
        let out = treereduce(dir.path(), &["page.xml", "./t.sh", "-q", "-o", given]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let written = dir.path().join("out/page.reduced.xml");
        assert_eq!(std::fs::read_to_string(&written).unwrap(), "<keep/>");
        std::fs::remove_file(written).unwrap();
    }
    let out = treereduce(dir.path(), &["page.xml", "./t.sh", "-q", "-o", "missing/"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("missing"), "{}", stderr(&out));
    assert!(!dir.path().join("missing").exists());
}

#[test]
fn default_output_beside_input_and_placeholder_argument() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("page.xml"),
        "<a>\n  <b/>\n  <keep/>\n  <c x='1'/>\n</a>\n",
    )
    .unwrap();
    // The test gets its arguments and the candidate through `{}`.
    script(
        dir.path(),
        "t.sh",
        "test \"$1\" = marker && grep -q keep \"$2\"",
    );
    let out = treereduce(
        dir.path(),
        &["page.xml", "./t.sh", "-q", "-j", "1", "--", "marker", "{}"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let result = std::fs::read_to_string(dir.path().join("page.reduced.xml")).unwrap();
    assert_eq!(result, "<keep/>");
}

/// A page named `.html` is HTML, as a browser reads it, also when it happens to be
/// well-formed XML (a field trial's `<div></div>` became `<div/>`, which a browser reads as
/// an open `<div>`); it is XML only when it opens with an XML declaration or has an
/// element with a namespace prefix.
#[test]
fn html_pages_reduce_as_html_unless_they_declare_xml() {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "t.sh", "grep -q 'keep' \"$1\"");
    // Reduces `page` saved as `<stem>.html`; returns the result.
    let reduce = |stem: &str, page: &str| {
        let name = format!("{stem}.html");
        std::fs::write(dir.path().join(&name), page).unwrap();
        let out = treereduce(dir.path(), &[&name, "./t.sh", "-q", "-j", "1"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        std::fs::read_to_string(dir.path().join(format!("{stem}.reduced.html"))).unwrap()
    };
    let page = "<html>\n<body>\n<p>drop</p>\n<div class=\"keep\">text</div>\n</body>\n</html>\n";
    assert_eq!(reduce("w", page), "<div class=\"keep\"></div>");
    // Declared XHTML: reduced as XML, so the result is an empty element; so is a page
    // with namespace prefixes, which HTML does not know.
    let xhtml = format!("<?xml version=\"1.0\"?>\n{page}");
    assert_eq!(reduce("x", &xhtml), "<div class=\"keep\"/>");
    let prefixed = "<html xmlns:m=\"urn:m\"><m:keep>t</m:keep><p>drop</p></html>";
    // A namespace name keeps its first letter, so as to stay a URI.
    assert_eq!(reduce("v", prefixed), "<m:keep xmlns:m=\"um\"/>");
    // Prefixed elements in a comment (Word's and Outlook's `<!--[if mso]><o:p>`) are no
    // sign either, nor is a prefixed attribute (inline SVG's `xlink:href`), HTML's own.
    let mso =
        "<html><!--[if mso]><o:p>96</o:p><![endif]--><p>drop</p><div class=\"keep\">t</div></html>";
    assert_eq!(reduce("s", mso), "<div class=\"keep\"></div>");
    let svg = "<div xmlns:xlink=\"urn:x\"><svg><use xlink:href=\"#keep\"></use></svg></div>";
    assert_eq!(reduce("u", svg), "<use xlink:href=\"keep\"></use>");
    // Tag soup is not XML: reduced as HTML, where a `<p>` needs no end tag and `<p/>` would
    // not be one (by lines, `text` stayed on the line the test needs).
    let soup = "<html>\n<body>\n<p>drop\n<p class=\"keep\">text\n<br>\n</html>\n";
    assert_eq!(reduce("y", soup), "<p class=\"keep\">");
    // A script's code is JavaScript, whatever `<` it holds, reduced by its statements and
    // their rewrites; the DOCTYPE stays (without it a browser reads the page in quirks
    // mode).
    let script =
        "<!DOCTYPE html>\n<title>t</title>\n<script>\nif (a < b) keep(1);\n</script>\n<p>x";
    assert_eq!(reduce("z", script), "<!DOCTYPE html><script>keep;</script>");
}

/// `.json` files, and JSON under a name that does not say (a `.babelrc`, a source map
/// without its extension), reduce as JSON: a minified file too, which has one line, and
/// the result is still JSON. JSON tree-sitter cannot read in a few places is reduced
/// around them; text that is mostly not JSON exits 2 with its position.
#[test]
fn json_files_reduce_as_json() {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "t.sh", "grep -q '\"keep\"' \"$1\"");
    let text = "{\"a\":[1,2,{\"b\":\"keep\",\"c\":null}],\"d\":1e+21}\n";
    for (name, reduced) in [("m.json", "m.reduced.json"), ("rc", "rc.reduced")] {
        std::fs::write(dir.path().join(name), text).unwrap();
        let out = treereduce(dir.path(), &[name, "./t.sh", "-q", "-j", "1"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let result = std::fs::read_to_string(dir.path().join(reduced)).unwrap();
        assert_eq!(result, "\"keep\"\n", "{name}");
    }
    // A trailing comma tree-sitter cannot read: reduced around it, with a note.
    std::fs::write(
        dir.path().join("comma.json"),
        "{\"a\": [1,\n 2,], \"b\": \"keep\"}\n",
    )
    .unwrap();
    let out = treereduce(dir.path(), &["comma.json", "./t.sh", "-j", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("comma.json:2:"), "{}", stderr(&out));
    let result = std::fs::read_to_string(dir.path().join("comma.reduced.json")).unwrap();
    assert_eq!(result, "\"keep\"\n");
    // Text that is mostly not JSON: refused with its position.
    std::fs::write(dir.path().join("bad.json"), "keep this, not JSON\n").unwrap();
    let out = treereduce(dir.path(), &["bad.json", "./t.sh", "-q"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad.json:1:"), "{}", stderr(&out));
    // JSON with comments may have trailing commas (tsconfig, VS Code settings): as JSON,
    // around them, with a note; by lines when it is mostly something else.
    let jsonc = "{\n  // why\n  \"a\": 1,\n  \"b\": \"keep\",\n}\n";
    std::fs::write(dir.path().join("s.jsonc"), jsonc).unwrap();
    let out = treereduce(dir.path(), &["s.jsonc", "./t.sh", "-j", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("s.jsonc:4:14: tree-sitter"),
        "{}",
        stderr(&out)
    );
    let result = std::fs::read_to_string(dir.path().join("s.reduced.jsonc")).unwrap();
    assert_eq!(result, "\"keep\"\n");
    let prose = "keep: this is\nnot JSON at all\n";
    std::fs::write(dir.path().join("p.jsonc"), prose).unwrap();
    let out = treereduce(dir.path(), &["p.jsonc", "./t.sh", "-j", "1"]);
    assert!(
        stderr(&out).contains("reducing it by lines"),
        "{}",
        stderr(&out)
    );
}

/// Reduces `text`, saved as `name` (`<stem>.<ext>`) beside a test `t.sh` running `test`,
/// at `-j 1`: the result and the number of oracle calls.
fn reduce_counting(name: &str, text: &str, test: &str) -> (String, usize) {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "t.sh", test);
    std::fs::write(dir.path().join(name), text).unwrap();
    let args = [name, "./t.sh", "-q", "-j", "1", "--stats-json", "s.json"];
    let out = treereduce(dir.path(), &args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (stem, ext) = name.split_once('.').unwrap();
    let reduced = dir.path().join(format!("{stem}.reduced.{ext}"));
    let result = std::fs::read_to_string(reduced).unwrap();
    let stats = std::fs::read_to_string(dir.path().join("s.json")).unwrap();
    (result, crate::fixtures::json_number(&stats, "oracle_calls"))
}

/// Lines that read alike but for their numbers shrink as one: each word's place is one
/// item, deleted from all of them at once, so 40 log lines the test needs lose their
/// values in one search, not one search each. A line of another shape shrinks on its own.
#[test]
fn lines_that_read_alike_shrink_as_one() {
    let mut text = String::new();
    for i in 0..80 {
        if i % 2 == 0 {
            text.push_str(&format!("KEEP item {i} = value({}, {})\n", i * 3, i * 7));
        } else {
            text.push_str(&format!("filler {i} of no use\n"));
        }
    }
    text.push_str("LAST one here\n");
    let test = "[ \"$(grep -c '^KEEP item' \"$1\")\" -ge 40 ] && grep -q '^LAST' \"$1\"";
    let (result, calls) = reduce_counting("log.txt", &text, test);
    assert_eq!(result, format!("{}LAST\n", "KEEP item\n".repeat(40)));
    // 457 with each line shrunk on its own.
    assert_eq!(calls, 106);
}

/// A chain of objects, each the value of its parent's only member, costs a few calls, not
/// one per level: the chain rule passes through the objects (which may not go; their
/// members may) to the deepest member, as it does through arrays.
#[test]
fn a_chain_of_json_objects_is_probed_at_its_bottom() {
    let levels = 100;
    let text = format!(
        "{}{{\"x\": 1, \"y\": 2}}{}\n",
        "{\"a\": ".repeat(levels),
        "}".repeat(levels)
    );
    let (result, calls) = reduce_counting("c.json", &text, "grep -q '\"x\"' \"$1\"");
    assert_eq!(result, "{\"x\": 1}\n");
    // About one call per level before (113).
    assert_eq!(calls, 15);
}

/// A test that needs some depth of a deep chain (a parser that fails past a nesting
/// limit): the shallowest level that may go is searched for, doubling then halving, and
/// exactly the levels needed stay. Asking the deepest node, then the chain top-down, had
/// cost two calls a level.
#[test]
fn a_chain_keeps_the_depth_a_test_needs_in_logarithmic_calls() {
    let levels = 2000;
    let text = format!(
        "<r>{}x{}</r>\n",
        "<a>".repeat(levels),
        "</a>".repeat(levels)
    );
    let test = "[ \"$(grep -o '<a>' \"$1\" | wc -l)\" -ge 500 ]";
    let (result, calls) = reduce_counting("d.xml", &text, test);
    assert_eq!(result.matches("<a>").count(), 500);
    // 1016 before.
    assert_eq!(calls, 35);
}

/// The same in code: `new new ... new X` with a test that needs 400 of 600 `new` (an
/// engine whose parser overflows its stack). Each level's shortest rewrite hoists `X`,
/// leaving one level more than the rewrite around it; asked one by one, each failed in
/// turn once the depth the test needs was reached (about one call a level). Only the
/// outermost few are offered, and the rewrites of each level to its child find the depth.
#[test]
fn a_chain_of_rewrites_in_code_keeps_the_depth_a_test_needs_in_few_calls() {
    let text = format!("var x = {}X;\n", "new ".repeat(600));
    let test = "[ \"$(grep -o 'new' \"$1\" | wc -l)\" -ge 400 ]";
    let (result, calls) = reduce_counting("d.js", &text, test);
    assert_eq!(result.matches("new").count(), 400);
    // 415 before.
    assert_eq!(calls, 32);
}

/// A bare chain in code (nothing deletable beside it: a fuzzer's `[[[...]]]` that
/// overflows a parser's stack) is searched as markup's chains are, although code's needs
/// are not local: each level deleted takes only the one below and its own brackets more.
/// Top-down, every level the test needs failed once in each round.
#[test]
fn a_bare_chain_in_code_keeps_the_depth_a_test_needs_in_few_calls() {
    let levels = 600;
    let text = format!(
        "var x = 1;\nvar a = {}1{};\nconsole.log(a);\n",
        "[".repeat(levels),
        "]".repeat(levels)
    );
    let test = "[ \"$(grep -o '\\[' \"$1\" | wc -l)\" -ge 400 ] && grep -q console \"$1\"";
    let (result, calls) = reduce_counting("a.js", &text, test);
    assert_eq!(result.matches('[').count(), 400);
    assert_eq!(result.matches(']').count(), 400);
    assert!(!result.contains("var x"), "{result}");
    // 821 before; 47 before the sweep of code's left-out edits, which asks once more
    // each level the chain's search tried before the rewrites changed the text (five,
    // logarithmic in the chain's length).
    assert_eq!(calls, 52);
}

/// In code a failed candidate laid out anew is not asked again: a run of 600 `new`
/// broken over lines, of which a test needs 400, where hoisting one level out leaves a
/// different text on each line (the line that loses a `new`), and once the depth is found
/// each of those failed in turn.
#[test]
fn a_failure_laid_out_anew_is_not_asked_again_in_code() {
    let news = vec!["new"; 600];
    let lines: Vec<String> = news.chunks(7).map(|line| line.join(" ")).collect();
    let text = format!(
        "var x = 1;\nvar o =\n  {} Ctor;\nconsole.log(o);\n",
        lines.join("\n  ")
    );
    let test = "[ \"$(grep -o 'new' \"$1\" | wc -l)\" -ge 400 ] && grep -q Ctor \"$1\"";
    let (result, calls) = reduce_counting("n.js", &text, test);
    assert_eq!(result.matches("new").count(), 400);
    assert!(result.contains("Ctor"), "{result}");
    // 156 before; 35 before a later rewrite pass's lists of 8 rewrites or more ran
    // dense (`Driver::rewrote`); 34 before `var o`, which the log uses, was asked after
    // `var x` (`Frontend::likely_needed`).
    assert_eq!(calls, 32);
}

/// Nested objects with a member beside the one that nests (`{"k": 0, "v": {...}}`): the
/// member's value lies one depth below where the tree was built, which had made the chain
/// rule stop (two nodes that might hold deletable ones) and cost a call per level; a tree
/// built deeper tells, and the depth the test needs is searched for.
#[test]
fn a_chain_of_json_objects_with_members_beside_is_searched() {
    let levels = 300;
    let text = format!(
        "{}1{}\n",
        "{\"k\": 0, \"v\": ".repeat(levels),
        "}".repeat(levels)
    );
    let test = "[ \"$(grep -o '{' \"$1\" | wc -l)\" -ge 100 ]";
    let (result, calls) = reduce_counting("n.json", &text, test);
    assert_eq!(result.matches('{').count(), 100);
    // About one call per level before (201).
    assert_eq!(calls, 28);
}

/// In the lines format blank texts differ (the number of lines is content): a test that
/// wants one empty line gets it, although the smallest document (no line at all) was
/// found not interesting.
#[test]
fn a_blank_lines_text_is_not_taken_for_the_empty_one() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "a\nb\n\nc\n").unwrap();
    script(dir.path(), "t.sh", "grep -qx '' \"$1\"");
    let out = treereduce(
        dir.path(),
        &[
            "a.txt", "./t.sh", "--format", "lines", "-q", "-o", "out.txt",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let result = std::fs::read_to_string(dir.path().join("out.txt")).unwrap();
    assert_eq!(result, "\n");
}

/// An executable script without a `#!` line cannot be started by the kernel: the error
/// says so and how to mend it, and the run stops with the usage exit code.
#[test]
fn a_script_without_a_shebang_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.txt"), "a\nb\n").unwrap();
    let path = dir.path().join("t.sh");
    std::fs::write(&path, "grep -q b \"$1\"\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = treereduce(dir.path(), &["in.txt", "./t.sh", "-q"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = stderr(&out);
    assert!(
        err.contains("a script needs a first line such as #!/bin/sh"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A script whose `#!` line names an interpreter that does not exist is explained as such
/// (the system only says "No such file or directory", of a file that is there), and a
/// bare test name that is a folder here is called one.
#[test]
fn a_missing_interpreter_and_a_folder_as_test_are_explained() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.txt"), "a\nb\n").unwrap();
    script(dir.path(), "t.sh", "exit 0");
    let path = dir.path().join("t.sh");
    let body = std::fs::read_to_string(&path).unwrap();
    let (_, rest) = body.split_once('\n').unwrap();
    std::fs::write(&path, format!("#!/nonexistent/sh -e\n{rest}")).unwrap();
    let out = treereduce(dir.path(), &["in.txt", "./t.sh", "-q"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = stderr(&out);
    assert!(
        err.contains("/nonexistent/sh, which does not exist"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    std::fs::create_dir(dir.path().join("checks")).unwrap();
    let out = treereduce(dir.path(), &["in.txt", "checks", "-q"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("a folder"), "{}", stderr(&out));
}

/// A script with Windows line ends (`#!/bin/sh\r`, `#!/usr/bin/env bash\r`) is explained
/// before any test runs, with the command that converts it; the system's own words name
/// an interpreter that does not exist, or make the original look not interesting.
#[test]
fn a_script_with_windows_line_ends_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.txt"), "a\nb\n").unwrap();
    for first in ["#!/bin/sh", "#!/usr/bin/env sh"] {
        script(dir.path(), "t.sh", "exit 0");
        let path = dir.path().join("t.sh");
        std::fs::write(&path, format!("{first}\r\nexit 0\r\n")).unwrap();
        let out = treereduce(dir.path(), &["in.txt", "./t.sh", "-q"]);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        let err = stderr(&out);
        assert!(err.contains("CR LF"), "{err}");
        // The script's own path, quoted for a shell where it needs it.
        let path = std::fs::canonicalize(dir.path()).unwrap().join("t.sh");
        let shown = path.display().to_string();
        let word = if shown.contains(' ') {
            format!("'{shown}'")
        } else {
            shown
        };
        assert!(err.contains(&format!("sed -i 's/\\r$//' {word}")), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// The first `note:` line a successful run in `dir` with `args` prints on stderr.
fn first_note(dir: &Path, args: &[&str]) -> Option<String> {
    let out = treereduce(dir, args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stderr(&out)
        .lines()
        .find(|l| l.starts_with("note:"))
        .map(String::from)
}

/// An XML input with a reference to a character XML forbids (`&#xD835;`, half of a
/// surrogate pair) gets a note naming its place: roxmltree reads it, expat does not. One
/// in a comment does not count; `-q` silences the note.
#[test]
fn a_reference_to_a_character_xml_forbids_is_noted() {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "t.sh", "grep -q keep \"$1\"");
    let page = "<r>\n<!-- &#1; -->\n<p>keep</p><m>&#xD835;</m></r>\n";
    std::fs::write(dir.path().join("s.xhtml"), page).unwrap();
    std::fs::write(
        dir.path().join("ok.xhtml"),
        "<r><p>keep &#x1D49C;</p></r>\n",
    )
    .unwrap();
    let note = |args: &[&str]| first_note(dir.path(), args);
    let said = note(&["s.xhtml", "./t.sh", "-j", "1"]).unwrap();
    assert!(
        said.contains("s.xhtml:3:15: &#xD835; is a character XML does not allow"),
        "{said}"
    );
    assert_eq!(note(&["s.xhtml", "./t.sh", "-q"]), None);
    assert_eq!(note(&["ok.xhtml", "./t.sh"]), None);
}

/// A page whose name does not say it is HTML (`.saved`) but that begins like one is
/// reduced as HTML when it is not well-formed XML, and the run says why it is not reduced
/// as XML in one note on stderr (with where the XML parser stopped: an XHTML page with one
/// slip is better mended); so does a page named `.html` that declares itself XML, and one
/// that is read as XML says so. Other markup-like text under an unknown name (a template)
/// is reduced by lines, with the same note; `-q` and an explicit `--format` silence it,
/// and an `.html` page without an XML declaration, HTML as its name says, gets no note.
#[test]
fn markup_reduced_as_html_is_noted() {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "t.sh", "grep -q keep \"$1\"");
    let declared = "<?xml version=\"1.0\"?>\n";
    let soup = "<p>a<br>b</p>\n<p>keep</p>\n";
    std::fs::write(dir.path().join("soup.html"), format!("{declared}{soup}")).unwrap();
    std::fs::write(dir.path().join("plain.html"), soup).unwrap();
    let fine = "<r><p>a</p>\n<p>keep</p></r>\n";
    std::fs::write(dir.path().join("fine.html"), fine).unwrap();
    std::fs::write(dir.path().join("xhtml.html"), format!("{declared}{fine}")).unwrap();
    let note = |args: &[&str]| first_note(dir.path(), args);
    let said = note(&["soup.html", "./t.sh", "-j", "1"]).unwrap();
    assert!(
        said.contains("soup.html is not well-formed XML (2:10:"),
        "{said}"
    );
    assert!(said.contains("reducing it as HTML"), "{said}");
    assert_eq!(note(&["soup.html", "./t.sh", "-q"]), None);
    assert_eq!(note(&["soup.html", "./t.sh", "--format", "html"]), None);
    assert_eq!(note(&["plain.html", "./t.sh"]), None);
    assert_eq!(note(&["fine.html", "./t.sh"]), None);
    let said = note(&["xhtml.html", "./t.sh"]).unwrap();
    assert!(
        said.contains("XML declaration or prefixed elements"),
        "{said}"
    );
    assert_eq!(note(&["xhtml.html", "./t.sh", "--format", "xml"]), None);
    let page = "<!-- saved -->\n<!doctype HTML>\n<p>a<br>\n<p>keep\n";
    std::fs::write(dir.path().join("page.saved"), page).unwrap();
    std::fs::write(dir.path().join("t.tmpl"), "<p>{{a}}<br>\n<p>keep\n").unwrap();
    let said = note(&["page.saved", "./t.sh"]).unwrap();
    assert!(said.contains("reducing it as HTML"), "{said}");
    let said = note(&["t.tmpl", "./t.sh"]).unwrap();
    assert!(said.contains("reducing it by lines"), "{said}");
    assert!(said.contains("--format lines silences"), "{said}");
    // Code given as HTML by mistake is one text to HTML: said, with the way out.
    std::fs::write(dir.path().join("a.js"), "f(1);\nkeep();\n").unwrap();
    let said = note(&["a.js", "./t.sh", "--format", "html"]).unwrap();
    assert!(said.contains("a.js holds no markup"), "{said}");
    assert!(said.contains("--format js reduces it"), "{said}");
    assert_eq!(note(&["a.js", "./t.sh", "--format", "html", "-q"]), None);
}

/// `TREEREDUCE_TRACE_DIR` keeps every candidate, numbered, whether or not
/// `TREEREDUCE_TRACE` also prints them, in a folder it makes when missing.
#[test]
fn the_trace_folder_keeps_candidates_on_its_own() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.txt"), "a\nb\nc\n").unwrap();
    script(dir.path(), "t.sh", "grep -q b \"$1\"");
    // A missing folder is made (a field trial's candidates went nowhere, silently).
    let kept = dir.path().join("kept").join("here");
    let out = Command::new(env!("CARGO_BIN_EXE_treereduce"))
        .current_dir(dir.path())
        .args(["in.txt", "./t.sh", "-q", "-j", "1"])
        .env("TREEREDUCE_TRACE_DIR", &kept)
        .env_remove("TREEREDUCE_TRACE")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("candidate"), "{}", stderr(&out));
    let mut names: Vec<String> = std::fs::read_dir(&kept)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(!names.is_empty());
    assert!(names[0].starts_with("00000-"), "{names:?}");
    let interesting: Vec<&String> = names
        .iter()
        .filter(|n| n.ends_with("-interesting"))
        .collect();
    assert!(!interesting.is_empty(), "{names:?}");
}
