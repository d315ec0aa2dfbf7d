//! Front-end properties: rendering with no edits returns the input byte for byte, and
//! every deletion a front end offers leaves a text that still parses.

use std::path::Path;

use proptest::prelude::*;
use treereduce::frontend::Format;
use treereduce::render::render;
use treereduce::tree::Edit;

/// Checks both properties for one text; returns how many deletions were checked.
fn check_text(format: Format, text: &str) -> usize {
    let frontend = format.frontend();
    let tree = frontend.parse(text).unwrap();
    assert_eq!(render(text, &[]), text);
    let mut checked = 0;
    for id in tree.ids() {
        let node = tree.node(id);
        if let Some(edit) = node.deletion() {
            let candidate = render(text, &[&edit]);
            assert!(
                frontend.is_valid(&candidate),
                "deleting {} {:?} breaks the text:\n{candidate}",
                node.label,
                &text[node.span.clone()]
            );
            checked += 1;
        }
    }
    checked
}

/// Every file of every fixture case (`fixtures/<format>/<case>/<file>`), with its name.
fn fixture_files() -> Vec<(std::path::PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut files = Vec::new();
    for format in std::fs::read_dir(root).unwrap() {
        for case in std::fs::read_dir(format.unwrap().path()).unwrap() {
            for file in std::fs::read_dir(case.unwrap().path()).unwrap() {
                let path = file.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                files.push((path, name));
            }
        }
    }
    files
}

#[test]
fn every_fixture_round_trips_and_every_deletion_parses() {
    let mut checked = 0;
    for (path, name) in fixture_files() {
        if name.starts_with("input.") || name.starts_with("expected.") {
            let text = std::fs::read_to_string(&path).unwrap();
            checked += check_text(Format::from_path(&path), &text);
        }
    }
    assert!(checked > 50, "only {checked} deletions checked");
}

/// What a node offers, for comparing trees built to different depths.
type Shape = (
    String,
    std::ops::Range<usize>,
    Option<std::ops::Range<usize>>,
    Vec<Vec<Edit>>,
    u32,
);

/// The nodes of `tree` down to `deepest`, but for JavaScript's blank lines, which only the
/// squeeze takes, from a whole tree: a tree built to a depth leaves them out. The rewrites
/// of deletable nodes are there when `rewrites` says so.
fn shapes(tree: &treereduce::tree::Tree, deepest: u32, rewrites: bool) -> Vec<Shape> {
    tree.ids()
        .map(|id| tree.node(id))
        .filter(|n| n.depth <= deepest && n.label != "#blank-line")
        .map(|n| {
            (
                n.label.to_string(),
                n.span.clone(),
                n.delete.clone(),
                if rewrites || n.delete.is_none() {
                    n.alternatives.clone()
                } else {
                    Vec::new()
                },
                n.depth,
            )
        })
        .collect()
}

/// A tree built only down to a depth (what deletion passes ask for on large inputs) holds
/// exactly the top of the whole tree (JavaScript's blank lines aside), and says that it
/// was cut whenever it was. Unless it passes for whole, it may leave out the rewrites of
/// the nodes that may be deleted (the deletion passes ask none).
#[test]
fn a_tree_built_to_a_depth_is_the_top_of_the_whole_tree() {
    let mut cut = 0;
    for (path, name) in fixture_files() {
        if !name.starts_with("input.") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let frontend = Format::from_path(&path).frontend();
        let whole = frontend.parse(&text).unwrap();
        assert_eq!(whole.limit(), None);
        assert!(whole.is_whole());
        for depth in 0..=whole.max_depth() + 1 {
            let top = frontend.parse_to(&text, depth).unwrap();
            let rewrites = top.is_whole();
            assert_eq!(
                shapes(&top, depth, rewrites),
                shapes(&whole, depth, rewrites),
                "{name} at {depth}"
            );
            match top.limit() {
                Some(limit) => {
                    assert_eq!(limit, depth);
                    cut += 1;
                }
                None => assert_eq!(
                    shapes(&top, u32::MAX, rewrites),
                    shapes(&whole, u32::MAX, rewrites)
                ),
            }
        }
    }
    assert!(cut > 10, "no front end cut a tree");
}

#[test]
fn corpus_pages_round_trip_when_present() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/fcla/fcla-li9.xhtml");
    let Ok(text) = std::fs::read_to_string(&corpus) else {
        eprintln!("skipping: {} is absent", corpus.display());
        return;
    };
    assert!(check_text(Format::Xml, &text) > 1000);
}

/// Random well-formed XML with attributes, text, comments, CDATA and nesting, formatted
/// with random whitespace.
fn xml_tree() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        "[a-z &]{1,8}".prop_map(|t| t.replace('&', "&amp;")),
        "[a-z ]{0,6}".prop_map(|t| format!("<!--{t}-->")),
        "[a-z<>]{0,6}".prop_map(|t| format!("<![CDATA[{t}]]>")),
        Just(String::from("<?pi data?>")),
        (
            "[a-c]",
            proptest::collection::vec(("[d-f]", "[a-z\"']{0,4}"), 0..3)
        )
            .prop_map(|(name, attrs)| {
                let mut tag = format!("<{name}");
                let mut seen = Vec::new();
                for (k, v) in attrs {
                    if !seen.contains(&k) {
                        let q = if v.contains('"') { '\'' } else { '"' };
                        let v = v.replace(q, "");
                        tag.push_str(&format!(" {k}={q}{v}{q}"));
                        seen.push(k);
                    }
                }
                tag.push_str("/>");
                tag
            }),
    ];
    leaf.prop_recursive(4, 40, 5, |inner| {
        (
            "[a-c]",
            proptest::collection::vec((inner, "[ \n]{0,3}"), 0..5),
            "[ ]{0,2}",
        )
            .prop_map(|(name, children, pad)| {
                let mut s = format!("<{name} x{pad}='1'>");
                for (child, ws) in children {
                    s.push_str(&ws);
                    s.push_str(&child);
                }
                s.push_str(&format!("</{name}>"));
                s
            })
    })
}

proptest! {
    /// The reading of V8's natives looks back from every `%` over any text: words of other
    /// scripts, brackets that do not match, `++`, keywords. It never panics, and a text
    /// read so parses or is refused with an error.
    #[test]
    fn any_text_with_percent_signs_is_read_without_a_panic(
        text in "(%|[a-zř]|\\+\\+|if|return|[(){};'\n ]){0,40}"
    ) {
        let js = Format::JavaScript.frontend();
        let _ = js.parse(&text);
        let _ = js.is_valid(&text);
    }

    #[test]
    fn random_xml_deletions_stay_well_formed(body in xml_tree(), ws in "[ \n]{0,3}") {
        let text = format!("<?xml version=\"1.0\"?>\n<root>{ws}{body}{ws}</root>\n");
        check_text(Format::Xml, &text);
    }
}

/// The XML front end with a cheap deletion check that always says "still valid": a stand-in
/// for a cheap check with a bug, to show what the driver does when one is wrong.
struct OverconfidentXml;

impl treereduce::frontend::Frontend for OverconfidentXml {
    fn parse(
        &self,
        text: &str,
    ) -> Result<treereduce::tree::Tree, treereduce::frontend::SyntaxError> {
        treereduce::frontend::Xml.parse(text)
    }

    fn deletions_stay_valid(
        &self,
        _base: &str,
        _edits: &[&Edit],
        _candidate: &str,
    ) -> Option<bool> {
        Some(true)
    }
}

/// A wrong cheap verdict never reaches the output: the text a list kept on cheap checks is
/// parsed before it is written, and when it does not parse the list's removals since the
/// last parsed text are undone, and found again in another round. Here the removal of
/// `<x/>` leaves `]]>` in character data (not well-formed); the oracle accepts it, so the
/// driver keeps it until the list ends, then finds it broken.
#[test]
fn a_wrong_cheap_verdict_is_undone_before_it_is_written() {
    use std::sync::Arc;
    use treereduce::driver::{Driver, DriverOptions, Grouping, Stats};
    use treereduce::frontend::Frontend;
    use treereduce::oracle::{Condition, Oracle, OracleConfig};
    use treereduce::reduce::{StrategyKind, StrategyOptions};

    let work = tempfile::tempdir().unwrap();
    let test = work.path().join("t.sh");
    // Interesting as it is and with `<x/>` gone (which leaves `]]>` before `<keep/>`).
    std::fs::write(
        &test,
        "#!/bin/sh\ngrep -q -F -e ']]<x/>><keep/>' -e ']]><keep/>' \"$1\"\n",
    )
    .unwrap();
    let mut permissions = std::fs::metadata(&test).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&test, permissions).unwrap();
    let oracle = Oracle::new(OracleConfig {
        command: test,
        args: Vec::new(),
        file_name: "a.xml".into(),
        timeout: Some(std::time::Duration::from_secs(30)),
        condition: Condition::default(),
    })
    .unwrap();
    let output = work.path().join("out.xml");
    let original = "<r><a/><b/><c/><d/>]]<x/>><keep/></r>";
    std::fs::write(&output, original).unwrap();
    let options = DriverOptions {
        strategy: StrategyKind::default(),
        strategy_options: StrategyOptions::default(),
        grouping: Grouping::default(),
        jobs: 1,
        output: output.clone(),
        verbose: false,
    };
    let frontend = OverconfidentXml;
    let mut driver = Driver::new(
        &frontend,
        Arc::new(oracle),
        options,
        original.into(),
        Stats::default(),
    );
    driver.run().unwrap();
    let written = std::fs::read_to_string(&output).unwrap();
    assert!(treereduce::frontend::Xml.is_valid(&written), "{written}");
    // The removals the rolled-back list had found are found again.
    assert_eq!(written, "<r>]]<x/>><keep/></r>");
    assert_eq!(driver.current(), written);
    assert!(driver.stats.rejected >= 1);
}

/// Tag soup: pieces of HTML in any order, with multi-byte text and cut-off markup.
fn html_soup() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "<p>",
        "</p>",
        "<br>",
        "<li>",
        "</div>",
        "<div x=1 y='2' z>",
        "<math>",
        "</math>",
        "<mfrac>",
        "</mfrac>",
        "<mi/>",
        "<mi>",
        "</mi>",
        "<!--",
        "-->",
        "<script>",
        "</script>",
        "<![CDATA[",
        "]]>",
        "<!DOCTYPE html>",
        "<",
        ">",
        "&amp;",
        "a",
        " ",
        "\n",
        "é",
        "€",
        "<td>",
        "<tr>",
        "</table>",
        "<svg>",
        "<a href=\"",
        "</",
        "<?x",
    ]);
    proptest::collection::vec(pieces, 0..40).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Any text parses as HTML against itself, renders back byte for byte, and every edit
    /// its tree offers applies without a panic (spans in order and on character
    /// boundaries); what an edit leaves is judged, never a panic either.
    #[test]
    fn any_tag_soup_parses_and_its_edits_apply(text in html_soup()) {
        let frontend = Format::Html.frontend_for(Path::new("page.html"), &text);
        let tree = frontend.parse(&text).unwrap();
        prop_assert_eq!(render(&text, &[]), text.clone());
        for id in tree.ids() {
            let node = tree.node(id);
            let deletion = node.delete.clone().map(|span| vec![Edit::delete(span)]);
            for edits in node.alternatives.iter().chain(deletion.iter()) {
                let edits: Vec<&Edit> = edits.iter().collect();
                let candidate = render(&text, &edits);
                let _ = frontend.is_valid(&candidate);
            }
        }
    }
}

/// A JSON value with random layout: nested objects and arrays, escapes, numbers with
/// fractions and exponents, the three words.
fn json_value() -> impl Strategy<Value = String> {
    let ws = "[ \n]{0,2}";
    let leaf = prop_oneof![
        Just(String::from("true")),
        Just(String::from("null")),
        "-?(0|[1-9][0-9]{0,3})(\\.[0-9]{1,2})?([eE][+-]?[0-9])?",
        "\"([a-z ]|\\\\n|\\\\\"|\\\\u00e9){0,6}\"",
    ];
    leaf.prop_recursive(4, 40, 5, move |inner| {
        prop_oneof![
            proptest::collection::vec((ws, inner.clone(), ws), 0..5).prop_map(|items| {
                let items: Vec<String> = items.into_iter().map(|(a, v, b)| a + &v + &b).collect();
                format!("[{}]", items.join(","))
            }),
            proptest::collection::vec(("[a-c]{1,2}", ws, inner), 0..5).prop_map(|members| {
                let members: Vec<String> = members
                    .into_iter()
                    .map(|(k, s, v)| format!("{s}\"{k}\":{s}{v}"))
                    .collect();
                format!("{{{}}}", members.join(","))
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Every set of deletions of one depth, and every replacement, leaves strict JSON (what
    /// serde_json reads), and the front end's verdicts (parsed or cheap) agree.
    #[test]
    fn random_json_edits_stay_json(value in json_value(), picks in proptest::collection::vec(any::<bool>(), 64), depth in 1u32..6) {
        let text = format!("{value}\n");
        prop_assume!(serde_json::from_str::<serde_json::Value>(&text).is_ok());
        let frontend = Format::Json.frontend();
        let tree = frontend.parse(&text).unwrap();
        let strict = |t: &str| serde_json::from_str::<serde_json::Value>(t).is_ok();
        let deletions: Vec<Edit> = tree
            .ids()
            .map(|id| tree.node(id))
            .filter(|n| n.depth == depth)
            .filter_map(|n| n.deletion())
            .zip(&picks)
            .filter(|(_, pick)| **pick)
            .map(|(edit, _)| edit)
            .collect();
        let edits: Vec<&Edit> = deletions.iter().collect();
        let candidate = render(&text, &edits);
        if !edits.is_empty() {
            let cheap = frontend.deletions_stay_valid(&text, &edits, &candidate);
            prop_assert!(cheap != Some(true) || strict(&candidate), "cheap verdict wrong:\n{candidate}");
        }
        prop_assert_eq!(frontend.is_valid_edited(&text, &edits, &candidate), strict(&candidate), "{}", candidate);
        for id in tree.ids() {
            for alternative in &tree.node(id).alternatives {
                let edits: Vec<&Edit> = alternative.iter().collect();
                let candidate = render(&text, &edits);
                prop_assert!(strict(&candidate), "replacement breaks the text:\n{candidate}");
                prop_assert!(frontend.is_valid_edited(&text, &edits, &candidate));
            }
        }
    }
}

/// A text that is JSON for tree-sitter but for no JSON parser is refused.
#[test]
fn json_needs_a_value() {
    let json = Format::Json.frontend();
    for text in ["", "\n", "/* c */\n", "// c\n"] {
        assert!(!json.is_valid(text), "{text:?}");
    }
    assert!(json.is_valid("{} // c\n"));
}

/// Deleting the middle members of an object whose members are split over lines leaves
/// no comma before the closing brace, and the cheap check does not say otherwise.
#[test]
fn json_member_deletions_across_lines_keep_the_commas_right() {
    let text = "{\"a\":true,\n\"a\":\ntrue,\n \"a\":\n true,\"a\":true}\n";
    let frontend = Format::Json.frontend();
    let tree = frontend.parse(text).unwrap();
    let members: Vec<Edit> = tree
        .ids()
        .map(|id| tree.node(id))
        .filter(|n| n.depth == 2)
        .filter_map(|n| n.deletion())
        .collect();
    assert_eq!(members.len(), 4, "{members:?}");
    let strict = |t: &str| serde_json::from_str::<serde_json::Value>(t).is_ok();
    for mask in 1..16u32 {
        let edits: Vec<&Edit> = (0..4)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| &members[i])
            .collect();
        let candidate = render(text, &edits);
        let cheap = frontend.deletions_stay_valid(text, &edits, &candidate);
        assert!(
            cheap != Some(true) || strict(&candidate),
            "mask {mask:04b}: {candidate:?}"
        );
        assert_eq!(
            frontend.is_valid_edited(text, &edits, &candidate),
            strict(&candidate),
            "mask {mask:04b}: {candidate:?}"
        );
    }
}
