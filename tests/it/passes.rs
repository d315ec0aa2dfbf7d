//! What the passes ask: questions whose answers are known are not asked again.

use std::path::Path;

use crate::cli::{script, treereduce};

/// Reduces `input` (an XML text) with a test that logs every candidate (spaces and line
/// breaks taken out, one per line) and is interesting when `condition` (shell, on "$1")
/// holds. Returns the logged candidates and the result.
fn reduce_logged(dir: &Path, input: &str, condition: &str) -> (Vec<String>, String) {
    std::fs::write(dir.join("in.xml"), input).unwrap();
    // Tests run in a folder of their own: the log goes beside the input.
    let log = dir.join("asked");
    let body = format!(
        "tr -d ' \\n' < \"$1\" >> '{log}'\necho >> '{log}'\n{condition}",
        log = log.display()
    );
    script(dir, "t.sh", &body);
    let out = treereduce(dir, &["in.xml", "./t.sh", "-q", "-j", "1", "-o", "out.xml"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let asked = std::fs::read_to_string(&log).unwrap();
    let result = std::fs::read_to_string(dir.join("out.xml")).unwrap();
    (asked.lines().map(String::from).collect(), result)
}

/// Reduces the JavaScript `input` in `dir` with a test whose body is `condition`, and
/// returns the result.
fn reduce_js(dir: &Path, input: &str, condition: &str) -> String {
    std::fs::write(dir.join("in.js"), input).unwrap();
    script(dir, "t.sh", condition);
    let out = treereduce(dir, &["in.js", "./t.sh", "-q", "-j", "1", "-o", "out.js"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    std::fs::read_to_string(dir.join("out.js")).unwrap()
}

/// After HDD* every node left is needed; a rewrite that only takes away what lies outside
/// a node's parent (here the hoist of `<a>` to the root) leaves it needed, so the
/// deletion passes that follow do not ask about its attribute and text again.
#[test]
fn needed_nodes_are_not_asked_again_after_a_rewrite() {
    let dir = tempfile::tempdir().unwrap();
    let (asked, result) = reduce_logged(
        dir.path(),
        "<r>\n  <w>\n    <a x=\"1\">k</a>\n  </w>\n  <b/>\n</r>\n",
        "grep -q 'x=\"1\"' \"$1\" && grep -q '>k<' \"$1\"",
    );
    assert_eq!(result, "<a x=\"1\">k</a>");
    // Asked once each, before the hoist.
    for before in ["<r><w><a>k</a></w></r>", "<r><w><ax=\"1\"></a></w></r>"] {
        assert!(asked.iter().any(|a| a == before), "{before} in {asked:?}");
    }
    // Not asked after it.
    for after in ["<a>k</a>", "<ax=\"1\"></a>", "<a></a>"] {
        assert!(!asked.iter().any(|a| a == after), "{after} in {asked:?}");
    }
}

/// A rewrite that would take away a node proven needed is not asked in markup: hoisting
/// `<r>` to `<p>` (or, once `<p>` is unwrapped, to `<a>`) throws away `<q>`, whose
/// deletion failed, so it fails too.
#[test]
fn a_rewrite_taking_away_a_needed_node_is_not_asked_in_markup() {
    let dir = tempfile::tempdir().unwrap();
    let (asked, result) = reduce_logged(
        dir.path(),
        "<r>\n  <p>\n    <a>k</a>\n  </p>\n  <q>m</q>\n</r>\n",
        "grep -q '>k<' \"$1\" && grep -q '>m<' \"$1\"",
    );
    assert_eq!(result, "<r><a>k</a><q>m</q></r>");
    // Deleting <q> was asked, and failed.
    assert!(
        asked.iter().any(|a| a == "<r><p><a>k</a></p></r>"),
        "{asked:?}"
    );
    for hoist in ["<p><a>k</a></p>", "<a>k</a>", "<q>m</q>", "<r><a>k</a></r>"] {
        assert!(!asked.iter().any(|a| a == hoist), "{hoist} in {asked:?}");
    }
}

/// In code such a rewrite is still asked, last: a test may be satisfied by `f` where
/// `f()` fails. Deleting the argument `x` fails here, the hoist of `g(x)` to `g` (which
/// takes `x` away) does not.
#[test]
fn a_rewrite_taking_away_a_needed_node_is_asked_last_in_code() {
    let dir = tempfile::tempdir().unwrap();
    let result = reduce_js(
        dir.path(),
        "function g(a) {\n  return a;\n}\nvar x = 2;\nvar y = g(x);\n",
        "grep -q 'y = g' \"$1\" && ! grep -q 'g()' \"$1\"",
    );
    assert_eq!(result, "var y = g;\n");
}

/// HDD*'s later rounds go from the deepest depth up, and do not ask about the ancestors
/// of a node whose deletion failed on the same text: deleting `<a>` would delete `k` too.
/// Round 1 asked about `<a>` while `<q>` was there; once `<q>` went, the text is another,
/// so a top-down round asked again.
#[test]
fn later_rounds_skip_the_ancestors_of_a_needed_node() {
    let dir = tempfile::tempdir().unwrap();
    let (asked, result) = reduce_logged(
        dir.path(),
        "<r>\n  <a>\n    <b>k</b>\n  </a>\n  <p>\n    <q>\n      <e/>\n    </q>\n  </p>\n</r>\n",
        "grep -q '>k<' \"$1\" && grep -q '<p' \"$1\"",
    );
    assert_eq!(result, "<r><b>k</b><p/></r>");
    // Round 1: <a> goes, then <q>.
    assert!(
        asked.iter().any(|a| a == "<r><p><q><e/></q></p></r>"),
        "{asked:?}"
    );
    assert!(
        asked.iter().any(|a| a == "<r><a><b>k</b></a><p></p></r>"),
        "{asked:?}"
    );
    // Round 2 would have asked about <a> again.
    assert!(!asked.iter().any(|a| a == "<r><p></p></r>"), "{asked:?}");
}

/// A deletion that a later one made possible is still found by a later round: `<m/>` is
/// needed while `<c/>` is there, and `<c/>` lies deeper.
#[test]
fn later_rounds_find_what_a_deeper_deletion_made_possible() {
    let dir = tempfile::tempdir().unwrap();
    let (asked, result) = reduce_logged(
        dir.path(),
        "<r>\n  <w>\n    <m/>\n  </w>\n  <x>\n    <y>\n      <c/>\n      k\n    </y>\n  </x>\n</r>\n",
        "grep -q k \"$1\" && { ! grep -q '<c' \"$1\" || grep -q '<m' \"$1\"; }",
    );
    assert_eq!(result, "<y>k</y>");
    // <m/> went in round 2, after <c/>.
    let c_gone = asked
        .iter()
        .position(|a| a == "<r><w><m/></w><x><y>k</y></x></r>");
    let m_gone = asked
        .iter()
        .position(|a| a == "<r><w></w><x><y>k</y></x></r>");
    assert!(c_gone.is_some() && c_gone < m_gone, "{asked:?}");
}

/// A chain of lone wrappers is proven needed by one call on its deepest node; when that
/// node may go, the chain is asked top-down as before and reduces as far.
#[test]
fn chains_of_wrappers_are_asked_from_their_deepest_node() {
    let dir = tempfile::tempdir().unwrap();
    let depth = 40;
    let open: String = (0..depth)
        .map(|i| format!("<w{} n=\"{i}\">", i % 3))
        .collect();
    let close: String = (0..depth).rev().map(|i| format!("</w{}>", i % 3)).collect();
    let (asked, result) = reduce_logged(
        dir.path(),
        &format!("<r>{open}<k>x</k>{close}</r>\n"),
        "grep -q '<k>x</k>' \"$1\"",
    );
    assert_eq!(result, "<k>x</k>");
    // One call for the 41 levels of the chain and one for their attributes, where each
    // level cost a failing call before.
    assert!(asked.len() < 20, "{} calls: {asked:?}", asked.len());
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(
        dir.path(),
        "<r>\n  <a>\n    <b>\n      <c>\n        <d/>\n      </c>\n    </b>\n  </a>\n</r>\n",
        "grep -q '<a' \"$1\"",
    );
    assert_eq!(result, "<a/>");
}

/// Code is not monotone, so its later rounds ask every kept node again: `f` may go only
/// once `S;` has gone from `g`, though nothing inside `f` may go alone (a later round that
/// took `BOT;` failing for proof that `f` is needed kept `f`).
#[test]
fn later_rounds_in_code_ask_ancestors_again() {
    let dir = tempfile::tempdir().unwrap();
    let result = reduce_js(
        dir.path(),
        "// KEEP\nfunction g() { S; }\nfunction f() { if (b) { BOT; } }\n",
        "f=\"$1\"\ngrep -q KEEP \"$f\" || exit 1\ngrep -q 'function g' \"$f\" || exit 1\n\
         grep -q 'function f' \"$f\" && ! grep -q BOT \"$f\" && exit 1\n\
         grep -q BOT \"$f\" && ! grep -q 'if (b) { BOT' \"$f\" && exit 1\n\
         grep -q 'function f' \"$f\" || { grep -q 'S;' \"$f\" && exit 1; }\n\
         grep -q 'if (' \"$f\" && ! grep -q 'function f' \"$f\" && exit 1\n\
         grep -q '^{' \"$f\" && exit 1\nexit 0",
    );
    assert!(!result.contains("function f"), "{result}");
}

/// A node whose parent a rewrite changed is asked about again: `<c/>` is needed only
/// while `<w>` is there, and goes once `<w>` is unwrapped.
#[test]
fn a_rewritten_parent_releases_its_children() {
    let dir = tempfile::tempdir().unwrap();
    let (asked, result) = reduce_logged(
        dir.path(),
        "<r>\n  <w>\n    <c/>\n    <a>k</a>\n  </w>\n</r>\n",
        "grep -q '<r' \"$1\" && grep -q k \"$1\" && { ! grep -q '<w' \"$1\" || grep -q '<c' \"$1\"; }",
    );
    // Deleting <c/> failed while <w> was there.
    assert!(
        asked.iter().any(|a| a == "<r><w><a>k</a></w></r>"),
        "{asked:?}"
    );
    assert_eq!(result, "<r>k</r>");
}

/// A rewrite that failed is not asked again in a later rewrite round while its node's
/// parent stays as it was: unwrapping `<b>` fails in the first round and is not tried in
/// the second (which runs because unwrapping `<w>` let `<d/>` go), while unwrapping `<a>`,
/// whose parent `<s>` was unwrapped in the same round, is asked again.
#[test]
fn a_failed_rewrite_is_not_asked_again_while_its_parent_stays() {
    let dir = tempfile::tempdir().unwrap();
    let (asked, result) = reduce_logged(
        dir.path(),
        "<r>\n  <s>\n    <a><b>k</b></a>\n  </s>\n  <w><d/>x</w>\n</r>\n",
        "grep -q '<r' \"$1\" && grep -q '<a><b>k</b></a>' \"$1\" && grep -q x \"$1\" \
         && { ! grep -q '<w' \"$1\" || grep -q '<d' \"$1\"; }",
    );
    assert_eq!(result, "<r><a><b>k</b></a>x</r>");
    let times = |text: &str| asked.iter().filter(|a| *a == text).count();
    // Unwrapping <b>, in the first round only.
    assert_eq!(times("<r><a>k</a><d/>x</r>"), 1, "{asked:?}");
    assert_eq!(times("<r><a>k</a>x</r>"), 0, "{asked:?}");
    // Unwrapping <a>, in both.
    assert_eq!(times("<r><b>k</b><w><d/>x</w></r>"), 1, "{asked:?}");
    assert_eq!(times("<r><b>k</b>x</r>"), 1, "{asked:?}");
}

/// A value or a text needed only at its start still shrinks: the shrink pass tries the
/// other half of a value once its first half failed, before it gives up (with the front
/// halves alone it spent its patience on ever smaller front blocks and kept both whole).
#[test]
fn values_needed_only_at_their_start_shrink() {
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(
        dir.path(),
        "<r><e title=\"scriptxxxxxxxxxxxxxxxxxx\">E</e></r>\n",
        "grep -q 'title=\"s' \"$1\"",
    );
    assert_eq!(result, "<e title=\"s\"/>");
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(
        dir.path(),
        "<r><e>Xneed and a long tail of many words that could go</e></r>\n",
        "grep -q '<e>[^<]*Xneed' \"$1\"",
    );
    assert_eq!(result, "<e>Xneed</e>");
}

/// Prefixed markup: a hoist or unwrap that takes away the element declaring a prefix
/// carries the declaration onto the element that stays (before, `<doc xmlns:m>` had to
/// stay around it), and a positional child's placeholder takes its prefix (`<m:mrow/>`,
/// not `<mrow/>`, which would fall out of the namespace).
#[test]
fn prefixed_elements_keep_their_namespace_when_hoisted() {
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(
        dir.path(),
        "<doc xmlns:m=\"http://www.w3.org/1998/Math/MathML\">\n  <p>text</p>\n  <m:math><m:mfrac><m:mi>a</m:mi><m:mn>2</m:mn></m:mfrac></m:math>\n</doc>\n",
        // With its end tag: a fraction emptied whole (`<m:mfrac/>`) keeps no placeholders.
        "grep -q '<m:mfrac' \"$1\" && grep -q '</m:mfrac>' \"$1\"",
    );
    assert!(result.starts_with("<m:mfrac xmlns:m=\""), "{result}");
    assert!(
        result.ends_with("\"><m:mrow/><m:mrow/></m:mfrac>"),
        "{result}"
    );
    // An element that declares its prefix itself, where MathML is the default namespace
    // (as on FCLA pages), becomes the plain placeholder.
    let dir = tempfile::tempdir().unwrap();
    let math = "<math xmlns=\"http://www.w3.org/1998/Math/MathML\">";
    let own = "<m:mi xmlns:m=\"http://www.w3.org/1998/Math/MathML\">y</m:mi>";
    let (_, result) = reduce_logged(
        dir.path(),
        &format!("{math}<mover><mi>x</mi>{own}</mover></math>\n"),
        "grep -q '<mover><mi' \"$1\"",
    );
    assert_eq!(result, "<mover><mi/><mrow/></mover>");
    // A child that declares the prefix itself (spaces around its `=`) gets no second
    // declaration: the wrapper still goes.
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(
        dir.path(),
        "<doc xmlns:m=\"u\"><m:a xmlns:m = \"u\"/><c/></doc>\n",
        "grep -q 'm:a' \"$1\"",
    );
    assert!(result.starts_with("<m:a xmlns:m = \""), "{result}");
}

/// A default namespace goes along with the child that a hoist or unwrap keeps, as a
/// prefixed one does, even once the test has shown it needs the declaration (SVG, XHTML
/// and Atom roots stayed around their one needed child); an element with a prefix takes
/// none.
#[test]
fn default_namespaces_go_with_the_child_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(
        dir.path(),
        "<root xmlns=\"urn:d\"><w id=\"1\"><dd/></w><x/></root>\n",
        "grep -q 'xmlns=\"urn:d\"' \"$1\" && grep -q '<dd' \"$1\"",
    );
    assert_eq!(result, "<dd xmlns=\"urn:d\"/>");
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(
        dir.path(),
        "<root xmlns=\"urn:d\" xmlns:p=\"urn:p\"><p:a/><x/></root>\n",
        "grep -q '<p:a' \"$1\" && grep -q 'urn:p' \"$1\" && grep -q 'urn:d' \"$1\"",
    );
    assert_eq!(
        result,
        "<root xmlns=\"urn:d\" xmlns:p=\"urn:p\"><p:a/></root>"
    );
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(
        dir.path(),
        "<root xmlns=\"urn:d\" xmlns:p=\"urn:p\"><p:a/><x/></root>\n",
        "grep -q '<p:a' \"$1\" && grep -q 'urn:p' \"$1\"",
    );
    assert_eq!(result, "<p:a xmlns:p=\"urn:p\"/>");
}

/// A chain of elements unwrapped in one candidate passes the default namespace down to
/// the element that stays (it was dropped with the tags it had gone into, and a test
/// that reads namespaces refused the chain: 21 calls, then 16; 18 since a value shrinks by
/// tokens; 19 since a namespace name keeps its first letter).
#[test]
fn a_namespace_goes_down_a_chain_unwrapped_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let condition = "python3 -c \"import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); sys.exit(0 if r.tag == '{urn:d}c' or r.find('.//{urn:d}c') is not None else 1)\" \"$1\"";
    let (asked, result) = reduce_logged(
        dir.path(),
        "<r xmlns=\"urn:d\"><a><b><c/></b></a><z/></r>\n",
        condition,
    );
    assert_eq!(result, "<c xmlns=\"urn:d\"/>");
    // The first text with `<c>` alone has its namespace (the attribute pass asks `<c/>`
    // later), and the run costs 19 calls (21 when the chain lost it; 16 before the shrink
    // took `urn:d` as three words, which the test needs whole; 18 before a namespace name
    // kept its first letter, so as to stay a URI).
    let first = asked.iter().find(|t| t.starts_with("<c"));
    assert_eq!(first.map(String::as_str), Some("<cxmlns=\"urn:d\"/>"));
    assert_eq!(asked.len(), 19, "{asked:?}");
}

/// When one whitespace-only text is needed, the rest of the formatting still goes: the
/// squeeze then searches that kind of whitespace node by node.
#[test]
fn needed_whitespace_leaves_the_rest_of_the_squeeze() {
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(
        dir.path(),
        "<r>\n  <pre> </pre>\n  <q/>\n</r>\n",
        "grep -q '<pre> </pre>' \"$1\"",
    );
    assert_eq!(result, "<pre> </pre>");
}

/// Whitespace the test needs is thinned to one line break, or one space where it holds
/// none (a field trial's MathJax result kept 17 bytes of indentation where one sufficed).
#[test]
fn needed_whitespace_is_thinned() {
    let dir = tempfile::tempdir().unwrap();
    let input = "<math>\n  <mrow>\n            <mi>x</mi>\n  </mrow>\n</math>\n";
    let (_, result) = reduce_logged(dir.path(), input, "grep -Pzq '<mrow>\\s+<mi' \"$1\"");
    assert_eq!(result, "<mrow>\n<mi/></mrow>");
    let input = "<r><a>x</a>   \t <b/></r>";
    let (_, result) = reduce_logged(dir.path(), input, "grep -q '</a>[ \t]' \"$1\"");
    assert_eq!(result, "<r><a></a> <b/></r>");
}

/// A comment the test needs shrinks by words and characters like a text.
#[test]
fn comments_shrink() {
    let dir = tempfile::tempdir().unwrap();
    let input = "<r>\n  <!-- generated by tool 1.2 from MARK source -->\n  <a/>\n</r>\n";
    let (_, result) = reduce_logged(dir.path(), input, "grep -q 'MARK' \"$1\"");
    assert_eq!(result, "<r><!--MARK--></r>");
}

/// The squeeze takes the spaces inside tags that separate nothing, and all but one of
/// those before an attribute, when the test allows.
#[test]
fn spaces_inside_tags_go_in_the_squeeze() {
    let input = "<r>\n  <a\n    x=\"1\"\n    y=\"2\"\n  >hit</a\n  >\n  <b   z=\"3\"  />\n</r>\n";
    for (condition, expected) in [
        ("grep -q hit \"$1\"", "<a>hit</a>"),
        ("grep -q '<b' \"$1\"", "<b/>"),
        (
            "grep -q 'x=' \"$1\" && grep -q 'y=' \"$1\" && grep -q hit \"$1\"",
            "<a x=\"\" y=\"\">hit</a>",
        ),
        // The one tag space needed stays, the other goes.
        ("grep -q 'a$' \"$1\" && grep -q hit \"$1\"", "<a>hit</a\n>"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (_, result) = reduce_logged(dir.path(), input, condition);
        assert_eq!(result, expected, "{condition}");
    }
}

/// A text that needs several words far apart still shrinks: the first candidates take
/// large pieces, which all fail, and the shrink does not give up on them too soon.
#[test]
fn a_long_text_needing_three_words_shrinks() {
    let mut words: Vec<String> = (0..400).map(|i| format!("w{i:03}x")).collect();
    for (at, word) in [(50, "beta"), (200, "kappa"), (350, "sigma")] {
        words[at] = word.to_string();
    }
    let input = format!("<r><t>{}</t></r>\n", words.join("\n"));
    let dir = tempfile::tempdir().unwrap();
    let (asked, result) = reduce_logged(
        dir.path(),
        &input,
        "grep -q beta \"$1\" && grep -q kappa \"$1\" && grep -q sigma \"$1\"",
    );
    assert!(result.len() < 40, "{result}");
    assert!(asked.len() < 60, "{} calls", asked.len());
}

/// A declaration that its depth's own pass frees (the element holding the last reference
/// to the entity goes, at the same depth as the DOCTYPE's declarations) is offered then:
/// the next round skips a depth whose pass ran to its end.
#[test]
fn declarations_freed_at_their_own_depth_go() {
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(
        dir.path(),
        "<!DOCTYPE r [<!ENTITY host \"h\"><!ENTITY keep \"K\">]>\n<r><opt url=\"&host;\"/><k>&keep;EEP</k></r>\n",
        "grep -q '&keep;EEP' \"$1\"",
    );
    assert_eq!(
        result,
        "<!DOCTYPE k [<!ENTITY keep \"K\">]><k>&keep;EEP</k>"
    );
}

/// A reference to an external parsed entity (a DocBook chapter, `<!ENTITY ch SYSTEM
/// "ch.xml">`) is opaque text, as one to an entity of an external DTD: the document is
/// read, not refused, and the declaration stays while the reference does.
#[test]
fn external_entities_are_opaque_references() {
    let input = "<!DOCTYPE book [<!ENTITY chap1 SYSTEM \"chap1.xml\">]>\n<book><title>T</title>&chap1;<p>KEEP</p></book>\n";
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(dir.path(), input, "grep -q '&chap1;' \"$1\"");
    assert_eq!(
        result,
        "<!DOCTYPE book [<!ENTITY chap1 SYSTEM \"chap1.xml\">]><book>&chap1;</book>"
    );
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(dir.path(), input, "grep -q KEEP \"$1\"");
    assert_eq!(result, "<p>KEEP</p>");
}

/// A parameter-entity reference between the internal subset's declarations (`%decls;`)
/// is read, not refused: roxmltree reads no parameter entities, so it is blanked for the
/// parse, and what it declares is opaque text.
#[test]
fn parameter_entity_references_are_read() {
    let input = "<!DOCTYPE r [\n  <!ENTITY % decls \"<!ENTITY x 'X'>\">\n  %decls;\n]>\n<r><a>&x;</a><b>KEEP</b></r>\n";
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(dir.path(), input, "grep -q '&x;' \"$1\"");
    assert!(
        result.starts_with("<!DOCTYPE a [") && result.contains("%decls;"),
        "{result}"
    );
    assert!(result.ends_with(">&x;</a>"), "{result}");
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(dir.path(), input, "grep -q KEEP \"$1\"");
    assert_eq!(result, "<b>KEEP</b>");
}

/// An entity that expands to markup gives nodes whose positions lie in the DOCTYPE: the
/// element holding its reference is reduced as a whole (this panicked when text came
/// before the reference), and nothing inside the DOCTYPE is cut.
#[test]
fn entities_expanding_to_markup_leave_their_element_whole() {
    for (entity, keep) in [
        ("<b/>", "KEEP"),
        ("<!--c-->", "KEEP"),
        ("<?pi x?>", "KEEP"),
        ("<b>in</b>tail", "KEEP"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let input = format!(
            "<!DOCTYPE d [<!ENTITY n \"{entity}\">]>\n<d><e>a&n;b</e><f>x</f><g>{keep}</g></d>\n"
        );
        let (asked, result) = reduce_logged(dir.path(), &input, "grep -q 'KEEP' \"$1\"");
        // Every candidate the test saw kept the declaration whole, or (once nothing
        // referred to it) took it whole.
        for candidate in &asked {
            if candidate.contains("<!ENTITY") {
                assert!(
                    candidate.contains(&entity.replace(' ', "")),
                    "{entity}: {candidate}"
                );
            }
        }
        assert!(result.contains("KEEP"), "{entity}: {result}");
        assert!(!result.contains("<f>"), "{entity}: {result}");
    }
}

/// An element whose content comes from an entity of markup may be emptied as a whole, and
/// then the entity's declaration and the DOCTYPE go (they stayed for good). A test that
/// looks for the entity's text accepts the smallest document while it keeps the DOCTYPE,
/// which is not a test that accepts anything: the root emptied lets the DOCTYPE go too,
/// and the test refuses that.
#[test]
fn an_element_of_entity_markup_may_be_emptied_and_the_doctype_go() {
    let input = "<!DOCTYPE r [\n<!ENTITY e \"<b>FOO</b>\">\n]>\n<r><a x=\"1\">&e;</a><c/></r>\n";
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(dir.path(), input, "grep -q 'x=\"1\"' \"$1\"");
    assert_eq!(result, "<a x=\"1\"/>");
    let dir = tempfile::tempdir().unwrap();
    let (asked, result) = reduce_logged(dir.path(), input, "grep -q FOO \"$1\"");
    assert!(asked.iter().any(|a| a == "<r></r>"), "{asked:?}");
    assert!(result.contains("<!ENTITY e \"<b>FOO</b>\">"), "{result}");
    assert!(result.ends_with("<r/>"), "{result}");
}

/// A DOCTYPE stays while the document references its entities; once the shrink pass took
/// the last reference out of a text, the DOCTYPE is offered for deletion again (it used to
/// stay in the result), and so is an external one that `&nbsp;` needed.
#[test]
fn a_doctype_goes_once_shrinking_removed_its_last_entity_reference() {
    for input in [
        "<!DOCTYPE r [<!ENTITY e \"v\">]>\n<r><a>x &e; KEEP</a><b/></r>\n",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\">\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>Price:&nbsp;10&nbsp;EUR KEEP</p><p>other</p></body></html>\n",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (_, result) = reduce_logged(dir.path(), input, "grep -q KEEP \"$1\"");
        assert!(!result.contains("DOCTYPE"), "{result}");
        assert!(result.contains("KEEP"), "{result}");
    }
}

/// The spaces around a text's words go in the squeeze, apart from the formatting between
/// elements: all of it when the test allows, only the formatting when it needs the spaces,
/// and of those all but one when it needs one.
#[test]
fn the_spaces_around_a_text_go_unless_needed() {
    let input = "<r>\n  <p>   Linear   </p>\n  <q/>\n</r>\n";
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(dir.path(), input, "grep -q 'Linear' \"$1\"");
    assert_eq!(result, "<p>Linear</p>");
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(dir.path(), input, "grep -q ' Linear ' \"$1\"");
    assert_eq!(result, "<p> Linear </p>");
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(
        dir.path(),
        input,
        "grep -q '<r>' \"$1\" && grep -q '   Linear   ' \"$1\"",
    );
    assert_eq!(result, "<r><p>   Linear   </p></r>");
}

/// A W3C namespace name is never shortened: the test sees each value whole or not at all.
/// A made-up one shrinks.
#[test]
fn standard_namespace_names_do_not_shrink() {
    let dir = tempfile::tempdir().unwrap();
    let (asked, result) = reduce_logged(
        dir.path(),
        "<r xmlns=\"http://www.w3.org/1998/Math/MathML\" xmlns:m=\"urn:made:up\"><m:a t=\"v\"/></r>\n",
        "grep -q 'xmlns=' \"$1\" && grep -q 'm:a' \"$1\"",
    );
    let standard = "xmlns=\"http://www.w3.org/1998/Math/MathML\"";
    assert!(
        result.starts_with(&format!("<r {standard} xmlns:m=")),
        "{result}"
    );
    assert!(!result.contains("urn:made:up"), "{result}");
    assert!(
        asked
            .iter()
            .all(|a| !a.contains("xmlns=") || a.contains(standard)),
        "{asked:?}"
    );
}

/// `semantics` keeps its first child in place and loses its annotations like a list; a
/// fraction's children are only ever replaced by `<mrow/>`.
#[test]
fn annotations_go_and_fractions_keep_their_children() {
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(
        dir.path(),
        "<math><semantics><mi>needle</mi><annotation>a</annotation>\
         <annotation-xml><b/></annotation-xml></semantics></math>\n",
        "grep -q '<semantics><mi>needle' \"$1\"",
    );
    assert_eq!(result, "<semantics><mi>needle</mi></semantics>");
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(
        dir.path(),
        "<math><mfrac><mn>1</mn><mi>needle</mi><mn>2</mn></mfrac></math>\n",
        "grep -q '<mfrac>.*needle' \"$1\"",
    );
    assert_eq!(result, "<mfrac><mrow/><mi>needle</mi><mrow/></mfrac>");
}

/// A comment with a `-` in it shrinks too, each `-` with what follows it: no candidate
/// spells `--` or ends the comment in `--->` (an Adobe Illustrator SVG opens with
/// `<!-- Generator: ... Plug-In ... -->`, and a strict parser's bug on its `-` kept all
/// of it).
#[test]
fn comments_with_a_dash_shrink() {
    let dir = tempfile::tempdir().unwrap();
    let (asked, result) = reduce_logged(
        dir.path(),
        "<svg><!-- Generator: Adobe Illustrator 15.1.0, SVG Export Plug-In . SVG Version: 6.00 --><g/></svg>\n",
        "grep -q -- '-In' \"$1\" && python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' \"$1\"",
    );
    assert_eq!(result, "<svg><!---In--></svg>");
    // What the comments asked hold (the log has no spaces).
    let inside = asked.iter().filter_map(|t| {
        let start = t.find("<!--")? + 4;
        let end = t.rfind("-->")?;
        t.get(start..end)
    });
    for content in inside {
        assert!(
            !content.contains("--") && !content.ends_with('-'),
            "{asked:?}"
        );
    }
}

/// A CDATA section whose characters the shrink took out goes in the squeeze, markers and
/// all; one that still holds what the test needs stays.
#[test]
fn emptied_cdata_sections_go() {
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(
        dir.path(),
        "<r><a>KEEP<![CDATA[some data here]]></a><b/></r>\n",
        "grep -q '<a>KEEP' \"$1\"",
    );
    assert_eq!(result, "<a>KEEP</a>");
    let dir = tempfile::tempdir().unwrap();
    let (_, result) = reduce_logged(
        dir.path(),
        "<r><a><![CDATA[some KEEP data]]></a><b/></r>\n",
        "grep -q 'CDATA.[^]]*KEEP' \"$1\"",
    );
    assert_eq!(result, "<a><![CDATA[KEEP]]></a>");
}

/// In code, a deletion that failed is left out while the text in and around its node
/// stays the same, and asked once more at the fixed point: `alpha;` may only go once
/// `beta;` has gone, far from it, so it waits for the sweep (after the rewrites asked
/// with it still there) rather than being asked in every round, and still goes.
#[test]
fn a_failed_edit_in_code_waits_for_the_sweep_and_still_goes() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("asked");
    std::fs::write(
        dir.path().join("in.js"),
        "alpha;\nfunction the_function_with_a_long_name() {\n  beta;\n  keep;\n}\n",
    )
    .unwrap();
    let body = format!(
        "tr -d ' \\n' < \"$1\" >> '{log}'\necho >> '{log}'\n\
         tr -d '\\n' < \"$1\" | grep -q 'function.*keep' && \
         {{ grep -q alpha \"$1\" || ! grep -q beta \"$1\"; }}",
        log = log.display()
    );
    script(dir.path(), "t.sh", &body);
    let out = treereduce(
        dir.path(),
        &["in.js", "./t.sh", "-q", "-j", "1", "-o", "out.js"],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let result = std::fs::read_to_string(dir.path().join("out.js")).unwrap();
    assert_eq!(
        result,
        "function the_function_with_a_long_name() {\n  keep;\n}\n"
    );
    let asked = std::fs::read_to_string(&log).unwrap();
    let asked: Vec<&str> = asked.lines().collect();
    let at = |text: &str| asked.iter().position(|a| *a == text);
    let sweep = at("functionthe_function_with_a_long_name(){keep;}");
    let rewrite = at("alpha;{keep;}");
    assert!(rewrite.is_some() && sweep > rewrite, "{asked:?}");
}

/// Two statements alike, with the same text around them (deep indents are all blanks),
/// share a failure's signature: the first one failed (the test needs it), and the second,
/// deeper, was left out for it. The sweep still asks the second where it stands, and it
/// goes (it was kept as `1;` when asking the first one again counted for both).
#[test]
fn twin_statements_are_each_asked() {
    let dir = tempfile::tempdir().unwrap();
    let indent = " ".repeat(28);
    let input = format!(
        "{indent}out.push(1);\n{indent}if (ok) {{\n{indent}    return out;\n\
         {indent}    out.push(1);\n{indent}}}\n"
    );
    let result = reduce_js(
        dir.path(),
        &input,
        "tr -d ' \\n' < \"$1\" | grep -q 'push(1);if(ok){returnout;'",
    );
    assert_eq!(
        result,
        format!("{indent}out.push(1);\n{indent}if (ok) {{\n{indent}    return out;\n{indent}}}\n")
    );
}

/// Lists do not start over after a success, so in code an item asked before one that went
/// may have been needed only by it: `xray` fails while `yankee` stands, then `yankee`
/// goes. The depth's list accepted edits, so the next round asks it again (it passed
/// over the depth as settled, and kept `xray;`).
#[test]
fn an_item_freed_later_in_its_list_is_asked_again() {
    let dir = tempfile::tempdir().unwrap();
    let result = reduce_js(
        dir.path(),
        "xray;\nwhisky;\nyankee;\npapa;\n",
        "grep -q papa \"$1\" && { ! grep -q yankee \"$1\" || grep -q xray \"$1\"; }",
    );
    assert_eq!(result, "papa;\n");
}
