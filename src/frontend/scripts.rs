//! JavaScript inside a page: the code of a page's inline `<script>` elements is reduced as
//! JavaScript (statements, declarations, their rewrites), not as text, and a candidate
//! whose script no longer parses is not valid. A browser bug that needs two statements of
//! a library inlined in a page is found as it is in a `.js` file, rather than by deleting
//! the words of 100 KB of code one search at a time.
//!
//! [`Scripted`] wraps the XML or HTML front end. It is used only when the original holds
//! an inline script and tree-sitter reads every one of them without an error (a page
//! whose script is broken, or is the bug, keeps its scripts as text); every other
//! question goes to the page's own front end.

use std::ops::Range;
use std::sync::{Arc, Mutex};

use super::html::find_ignoring_case;
use super::{Frontend, Grain, JavaScript, Slices, SyntaxError, line_and_column};
use crate::tree::{Along, Edit, Line, Node, NodeId, NodeKind, Separator, Tree};

/// The label of the node that holds a script's code (the text the page's front end made
/// of it): deletable as that text was, never shrunk as text.
const SCRIPT_CODE: &str = "#script-code";

/// The page's front end, with the code of its inline scripts read as JavaScript.
pub struct Scripted {
    page: Box<dyn Frontend>,
    /// True for XML (XHTML), where a script's code may sit in a CDATA section.
    xml: bool,
    /// What a script's code is held to: tree-sitter's grammar and the early errors the
    /// original's scripts keep.
    js: JavaScript,
    /// True when the original is mostly code (its scripts hold half its bytes or more):
    /// needs are then taken as code's, not local (see [`Frontend::needs_are_local`]).
    mostly_code: bool,
    /// The spans of the scripts' code in the last texts looked at, by each text's hash,
    /// most recent last: the base of a list's candidates is looked at once (a candidate
    /// whose edits leave every script's code alone, or take it whole, needs no look at its
    /// scripts, and the page's own cheap verdict holds), and so is the accepted text whose
    /// tree is built to a depth and then becomes the next base.
    codes: Mutex<Vec<Codes>>,
}

/// A text's hash and the spans of its scripts' code.
type Codes = (u128, Arc<[Range<usize>]>);

/// How many texts' code spans [`Scripted`] keeps.
const KEPT_CODES: usize = 8;

impl Scripted {
    /// `page` (the front end for `original`, XML when `xml`), wrapped when `original`
    /// holds inline scripts that all parse as JavaScript; else `page` itself.
    pub fn around(page: Box<dyn Frontend>, original: &str, xml: bool) -> Box<dyn Frontend> {
        if find_ignoring_case(original, 0, SCRIPT_TAG).is_none() {
            return page;
        }
        let Ok(tree) = page.parse(original) else {
            return page;
        };
        let scripts = inline_scripts(original, &tree, xml);
        let all_parse = scripts.iter().all(|(_, code)| {
            code.as_ref()
                .is_some_and(|code| JavaScript::default().is_valid(&original[code.clone()]))
        });
        if scripts.is_empty() || !all_parse {
            return page;
        }
        // Candidates keep the early-error rules the original's scripts keep, read from
        // their codes together (a rule one of them breaks is not held in any).
        let codes: Vec<&str> = scripts
            .iter()
            .flat_map(|(_, code)| code.clone())
            .map(|code| &original[code])
            .collect();
        let js = JavaScript::for_original(&codes.join("\n;\n"));
        let code: usize = codes.iter().map(|code| code.len()).sum();
        Box::new(Scripted {
            page,
            xml,
            js,
            mostly_code: 2 * code >= original.len(),
            codes: Mutex::new(Vec::new()),
        })
    }

    /// `tree` (the page's tree of `text`) with the JavaScript tree of each inline
    /// script's code under the node of its text, or the first script that does not parse.
    fn graft(&self, text: &str, tree: Tree) -> Result<Tree, SyntaxError> {
        let scripts = inline_scripts(text, &tree, self.xml);
        if scripts.is_empty() {
            return Ok(tree);
        }
        let mut codes = Vec::with_capacity(scripts.len());
        for (id, code) in scripts {
            let Some(code) = code else {
                let (line, column) = line_and_column(text, tree.node(id).span.start);
                return Err(SyntaxError {
                    line: line as u32,
                    column: column as u32,
                    message: String::from("an inline script whose content is no longer code"),
                });
            };
            let js = self
                .js
                .parse(&text[code.clone()])
                .map_err(|e| at_code(text, code.start, e))?;
            codes.push((id, code.start, js));
        }
        Ok(tree.rebuilt(|old, new, copy| {
            let Ok(i) = codes.binary_search_by_key(&old, |(id, _, _)| *id) else {
                return;
            };
            let (_, offset, js) = &codes[i];
            let node = new.node_mut(copy);
            node.kind = NodeKind::Element;
            node.label = SCRIPT_CODE.into();
            let mut stack: Vec<(NodeId, NodeId)> = js
                .node(js.root())
                .children
                .iter()
                .rev()
                .map(|&child| (child, copy))
                .collect();
            while let Some((id, parent)) = stack.pop() {
                let added = new.push(parent, shifted(js.node(id), *offset));
                stack.extend(js.node(id).children.iter().rev().map(|&c| (c, added)));
            }
        }))
    }

    /// [`Scripted::code_spans`] of `text`, read from `tree` (its tree, built to a depth)
    /// when that holds every script element: when it holds as many as the text has
    /// `<script` in it (a comment or a string that says `<script` makes the count differ,
    /// and the whole tree is built).
    fn code_spans_in(&self, text: &str, tree: &Tree) -> Option<Arc<[Range<usize>]>> {
        let mut elements = 0;
        for id in tree.ids() {
            let node = tree.node(id);
            if node.kind != NodeKind::Element || !is_script(&node.label) {
                continue;
            }
            // Its content may be left out, or `<script` not spell it (`<h:script`).
            if !tree.holds(node.depth + 1) || !node.label.eq_ignore_ascii_case("script") {
                return self.code_spans(text);
            }
            elements += 1;
        }
        let written = std::iter::successors(find_ignoring_case(text, 0, SCRIPT_TAG), |&at| {
            find_ignoring_case(text, at + 1, SCRIPT_TAG)
        })
        .count();
        if elements != written {
            return self.code_spans(text);
        }
        let spans = readable_codes(text, tree, self.xml)?;
        self.keep_codes(xxhash_rust::xxh3::xxh3_128(text.as_bytes()), spans.clone());
        Some(spans)
    }

    fn keep_codes(&self, hash: u128, spans: Arc<[Range<usize>]>) {
        if let Ok(mut codes) = self.codes.lock()
            && !codes.iter().any(|(h, _)| *h == hash)
        {
            if codes.len() == KEPT_CODES {
                codes.remove(0);
            }
            codes.push((hash, spans));
        }
    }

    /// True when every one of `spans` of `text` is valid JavaScript.
    fn codes_parse(&self, text: &str, spans: &[Range<usize>]) -> bool {
        spans
            .iter()
            .all(|code| self.js.is_valid(&text[code.clone()]))
    }

    /// The spans of the code of `text`'s inline scripts, or `None` when the page's front
    /// end does not read it.
    fn code_spans(&self, text: &str) -> Option<Arc<[Range<usize>]>> {
        let hash = xxhash_rust::xxh3::xxh3_128(text.as_bytes());
        let known = self.codes.lock().ok().and_then(|codes| {
            codes
                .iter()
                .find(|(h, _)| *h == hash)
                .map(|(_, spans)| spans.clone())
        });
        if known.is_some() {
            return known;
        }
        let tree = self.page.parse(text).ok()?;
        let spans = readable_codes(text, &tree, self.xml)?;
        self.keep_codes(hash, spans.clone());
        Some(spans)
    }

    /// True when one of `edits` (made on `base`) changes the code of a script of `base`
    /// without taking it whole, or an insertion touches it.
    fn touches_code(&self, base: &str, edits: &[&Edit]) -> bool {
        let Some(codes) = self.code_spans(base) else {
            return true;
        };
        edits.iter().any(|edit| {
            let span = &edit.span;
            codes.iter().any(|code| {
                let covers = span.start <= code.start && span.end >= code.end;
                if span.is_empty() {
                    code.start <= span.start && span.start <= code.end
                } else {
                    span.start < code.end && span.end > code.start && !covers
                }
            }) || edit.along.is_some()
        })
    }

    /// True when every inline script of `text` (which the page's front end reads) parses.
    fn scripts_parse(&self, text: &str) -> bool {
        self.code_spans(text)
            .is_some_and(|codes| self.codes_parse(text, &codes))
    }

    /// `tree` (the page's tree of `text`, maybe built to a depth) grafted, once every
    /// script of `text` is known to parse.
    fn checked(&self, text: &str, tree: Tree) -> Result<Tree, SyntaxError> {
        if tree.limit().is_some()
            && !self
                .code_spans_in(text, &tree)
                .is_some_and(|codes| self.codes_parse(text, &codes))
        {
            return Err(SyntaxError {
                line: 1,
                column: 1,
                message: String::from("an inline script does not parse as JavaScript"),
            });
        }
        self.graft(text, tree)
    }
}

impl Frontend for Scripted {
    fn parse(&self, text: &str) -> Result<Tree, SyntaxError> {
        let tree = self.page.parse(text)?;
        self.graft(text, tree)
    }

    /// A script left out by the depth is checked too.
    fn parse_to(&self, text: &str, depth: u32) -> Result<Tree, SyntaxError> {
        let tree = self.page.parse_to(text, depth)?;
        self.checked(text, tree)
    }

    fn parse_edited_to(
        &self,
        base: &str,
        edits: &[&Edit],
        text: &str,
        depth: Option<u32>,
    ) -> Result<Tree, SyntaxError> {
        let tree = self.page.parse_edited_to(base, edits, text, depth)?;
        self.checked(text, tree)
    }

    fn note(&self) -> Option<String> {
        self.page.note()
    }

    fn is_valid(&self, text: &str) -> bool {
        self.page.is_valid(text) && self.scripts_parse(text)
    }

    fn is_valid_edited(&self, base: &str, edits: &[&Edit], candidate: &str) -> bool {
        self.page.is_valid_edited(base, edits, candidate)
            && (!self.touches_code(base, edits) || self.scripts_parse(candidate))
    }

    fn blank_is_empty(&self) -> bool {
        self.page.blank_is_empty()
    }

    /// Code is not local (see [`Frontend::needs_are_local`]): a name ties a statement to
    /// others anywhere in the scripts. A page that is mostly code is taken as code; one
    /// with a little script keeps its markup's shortcuts (which may leave its code a
    /// statement or a wrapper short of 1-minimal).
    fn needs_are_local(&self) -> bool {
        !self.mostly_code && self.page.needs_are_local()
    }

    fn shrinks_alike(&self) -> bool {
        self.page.shrinks_alike()
    }

    fn layout_is_free(&self) -> bool {
        self.page.layout_is_free()
    }

    /// The page's cheap verdict, for a candidate that leaves the scripts' code alone; one
    /// that deletes in it is parsed.
    fn deletions_stay_valid(&self, base: &str, edits: &[&Edit], candidate: &str) -> Option<bool> {
        if self.touches_code(base, edits) {
            return None;
        }
        self.page.deletions_stay_valid(base, edits, candidate)
    }

    /// A node of a script's code shrinks as in a `.js` file (strings, comments, regular
    /// expressions); the page's nodes as the page's front end says.
    fn units(&self, text: &str, node: &Node, grain: Grain) -> Vec<Range<usize>> {
        let in_code = self.code_spans(text).is_some_and(|codes| {
            codes
                .iter()
                .any(|c| c.start <= node.span.start && node.span.end <= c.end)
        });
        if in_code {
            self.js.units(text, node, grain)
        } else {
            self.page.units(text, node, grain)
        }
    }

    fn reindent(&self, text: &str, rewrites: &mut [(Range<usize>, Vec<Edit>)]) {
        self.page.reindent(text, rewrites)
    }

    fn slices(&self, text: &str, wanted: &[(usize, usize)]) -> Slices {
        self.page.slices(text, wanted)
    }

    /// The page's markup tells none apart; the scripts' declarations are told as in a
    /// `.js` file.
    fn likely_needed(&self, text: &str, tree: &Tree, nodes: &[NodeId]) -> Vec<bool> {
        JavaScript::default().likely_needed(text, tree, nodes)
    }
}

/// The code spans of the inline scripts of `tree` (a page's tree of `text`), or `None`
/// when one of them cannot be read as code.
fn readable_codes(text: &str, tree: &Tree, xml: bool) -> Option<Arc<[Range<usize>]>> {
    inline_scripts(text, tree, xml)
        .into_iter()
        .map(|(_, code)| code)
        .collect()
}

/// How a script element begins, in any case.
const SCRIPT_TAG: &str = "<script";

/// True when an element's `label` names a script (`script`, `SCRIPT`, `h:script`).
fn is_script(label: &str) -> bool {
    label
        .rsplit(':')
        .next()
        .is_some_and(|name| name.eq_ignore_ascii_case("script"))
}

/// The inline scripts of `tree` (a page's tree of `text`) that run JavaScript: for each,
/// the text node that holds its code and the code's span, or no span when its content
/// cannot be read as code as it stands (see below). A script with a `src`, a `type` that
/// is not JavaScript (JSON, a template), or nothing but blanks is left out. In XML the
/// code is the text, or the inside of the one CDATA section it is (`//` before and after
/// it allowed, as pages write it); a text with a reference or other markup, or a child
/// other than text, cannot be read. In HTML a script inside `<svg>` or `<math>` cannot:
/// a browser reads its references and CDATA sections there.
fn inline_scripts(text: &str, tree: &Tree, xml: bool) -> Vec<(NodeId, Option<Range<usize>>)> {
    let attribute_value = if xml {
        super::xml::attribute_value
    } else {
        super::html::attribute_value
    };
    let mut found = Vec::new();
    for id in tree.ids() {
        let node = tree.node(id);
        if node.kind != NodeKind::Element || !is_script(&node.label) {
            continue;
        }
        let mut code = None;
        let mut runs = true;
        let mut readable = true;
        for &child in &node.children {
            let child_node = tree.node(child);
            match child_node.kind {
                NodeKind::Attribute => {
                    let name = &child_node.label;
                    let value = attribute_value(text, child_node.span.clone())
                        .map_or("", |value| &text[value]);
                    runs &= !name.eq_ignore_ascii_case("src")
                        && (!name.eq_ignore_ascii_case("type") || is_javascript(value));
                }
                NodeKind::Text if code.is_none() => code = Some(child),
                NodeKind::Whitespace => {}
                _ => readable = false,
            }
        }
        let Some(code) = code.filter(|_| runs) else {
            if runs && !readable {
                found.push((id, None));
            }
            continue;
        };
        let span = tree.node(code).span.clone();
        if text[span.clone()].trim().is_empty() {
            continue;
        }
        let foreign = || {
            let mut at = node.parent;
            while let Some(up) = at {
                let label = &tree.node(up).label;
                if label.eq_ignore_ascii_case("svg") || label.eq_ignore_ascii_case("math") {
                    return true;
                }
                at = tree.node(up).parent;
            }
            false
        };
        let body = if !readable || (!xml && foreign()) {
            None
        } else if xml {
            xml_code(text, span)
        } else {
            Some(span)
        };
        if body
            .as_ref()
            .is_some_and(|b| text[b.clone()].trim().is_empty())
        {
            continue;
        }
        found.push((code, body));
    }
    found
}

/// The code of an XHTML script's text at `span`: the text itself when it holds no markup
/// and no reference, or the inside of the CDATA section it is, `//<![CDATA[` and
/// `//]]>` included (the code then ends before that `//`).
fn xml_code(text: &str, span: Range<usize>) -> Option<Range<usize>> {
    const OPEN: &str = "<![CDATA[";
    const CLOSE: &str = "]]>";
    let own = &text[span.clone()];
    if !own.contains(['<', '&']) {
        return Some(span);
    }
    let after_slashes = own.strip_prefix("//").unwrap_or(own);
    let inner = after_slashes.strip_prefix(OPEN)?.strip_suffix(CLOSE)?;
    if inner.contains(CLOSE) {
        return None;
    }
    // `//<![CDATA[` comments out the rest of its line for the script: nothing may follow.
    if after_slashes.len() < own.len() && !inner.starts_with(['\n', '\r']) {
        return None;
    }
    let start = span.end - CLOSE.len() - inner.len();
    let inner = inner.strip_suffix("//").unwrap_or(inner);
    Some(start..start + inner.len())
}

/// True when a script of `type` runs as JavaScript (the types HTML takes for it, a module,
/// and MathJax 2's configuration, which it runs as code).
fn is_javascript(kind: &str) -> bool {
    let kind = kind.split(';').next().unwrap_or_default().trim();
    [
        "",
        "module",
        "text/javascript",
        "application/javascript",
        "application/x-javascript",
        "text/x-javascript",
        "text/ecmascript",
        "application/ecmascript",
        "text/jscript",
        "text/x-mathjax-config",
    ]
    .iter()
    .any(|k| k.eq_ignore_ascii_case(kind))
}

/// A syntax error `e` of a script's code that begins at `start` of `text`, placed in `text`.
fn at_code(text: &str, start: usize, e: SyntaxError) -> SyntaxError {
    let (line, column) = line_and_column(text, start);
    let (line, column) = (line as u32, column as u32);
    SyntaxError {
        line: line + e.line - 1,
        column: if e.line == 1 {
            column - 1 + e.column
        } else {
            e.column
        },
        message: format!("in an inline script: {}", e.message),
    }
}

/// `node` (of a tree of a script's code) with every position moved `by` bytes on, out of
/// any tree.
fn shifted(node: &Node, by: usize) -> Node {
    let mut moved = Node::new(
        node.kind,
        node.label.clone(),
        shift(&node.span, by),
        node.delete.as_ref().map(|d| shift(d, by)),
    );
    moved.also = node.also.iter().map(|e| shifted_edit(e, by)).collect();
    moved.along = node.along.as_ref().map(|a| shifted_along(a, by));
    moved.alternatives = node
        .alternatives
        .iter()
        .map(|edits| edits.iter().map(|e| shifted_edit(e, by)).collect())
        .collect();
    moved
}

fn shift(span: &Range<usize>, by: usize) -> Range<usize> {
    span.start + by..span.end + by
}

fn shifted_edit(edit: &Edit, by: usize) -> Edit {
    Edit {
        span: shift(&edit.span, by),
        text: edit.text.clone(),
        apart: edit.apart,
        carry: edit.carry.map(|at| at + by),
        along: edit.along.as_ref().map(|a| shifted_along(a, by)),
    }
}

fn shifted_along(along: &Along, by: usize) -> Arc<Along> {
    let line = |l: &Line| Line {
        content: shift(&l.content, by),
        whole: shift(&l.whole, by),
    };
    Arc::new(Along {
        separators: along.separators.as_ref().map(|all| {
            all.iter()
                .map(|s| Separator {
                    token: shift(&s.token, by),
                    reach: s.reach + by,
                    joined: s.joined + by,
                })
                .collect()
        }),
        line: along.line.as_ref().map(line),
        hollow: along.hollow.as_ref().map(line),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::{Html, Xml};

    fn html(page: &str) -> Box<dyn Frontend> {
        Scripted::around(Box::new(Html::for_original(page)), page, false)
    }

    fn xhtml(page: &str) -> Box<dyn Frontend> {
        Scripted::around(Box::new(Xml), page, true)
    }

    /// The texts of the statements of `page`'s scripts, as its tree has them.
    fn statements(frontend: &dyn Frontend, page: &str) -> Vec<String> {
        let tree = frontend.parse(page).unwrap();
        tree.ids()
            .filter(|&id| tree.node(id).label.ends_with("statement"))
            .map(|id| page[tree.node(id).span.clone()].to_string())
            .collect()
    }

    /// An inline script's code is a tree of statements at their places in the page, and
    /// a candidate whose code no longer parses is not valid, though the page still is.
    #[test]
    fn an_inline_script_is_reduced_as_javascript() {
        let page = "<!DOCTYPE html><p>a</p><script>\nf(1);\nif (x) { g(); }\n</script><p>b</p>";
        let frontend = html(page);
        assert_eq!(
            statements(frontend.as_ref(), page),
            ["f(1);", "if (x) { g(); }", "g();"]
        );
        let tree = frontend.parse(page).unwrap();
        let code = tree
            .ids()
            .find(|&id| tree.node(id).label == SCRIPT_CODE)
            .unwrap();
        assert_eq!(
            &page[tree.node(code).span.clone()],
            "f(1);\nif (x) { g(); }"
        );
        assert!(frontend.is_valid("<!DOCTYPE html><script>\nf(1);\n</script>"));
        assert!(!frontend.is_valid("<!DOCTYPE html><script>\nf(1;\n</script>"));
        assert!(!frontend.is_valid("<!DOCTYPE html><script>\nif (x) { g();\n</script>"));
        assert!(frontend.is_valid("<!DOCTYPE html><p>a</p>"));
        // A comment of the code does not shrink as a markup comment would.
        let page = "<!DOCTYPE html><script>/* a -- b */ f();</script>";
        let frontend = html(page);
        let tree = frontend.parse(page).unwrap();
        let comment = tree
            .ids()
            .find(|&id| tree.node(id).kind == NodeKind::Comment)
            .unwrap();
        assert!(
            frontend
                .units(page, tree.node(comment), Grain::Words)
                .is_empty()
        );
    }

    /// Scripts that are not code (JSON, a `src`), or a page whose script tree-sitter cannot
    /// read, keep the page's own front end and its scripts as text.
    #[test]
    fn only_scripts_that_all_parse_are_read_as_code() {
        for page in [
            "<!DOCTYPE html><script type=\"application/json\">{\"a\": 1}</script>",
            "<!DOCTYPE html><script src=\"a.js\"></script><p>f();</p>",
            "<!DOCTYPE html><script>f(1);</script><script>if (</script>",
            "<!DOCTYPE html><p>no script</p>",
        ] {
            assert!(statements(html(page).as_ref(), page).is_empty(), "{page}");
        }
        let page = "<!DOCTYPE html><script type='module'>import a from 'a'; a();</script>";
        assert_eq!(statements(html(page).as_ref(), page).len(), 2);
        // An early error of the original is no parse error: the code is still code, and
        // held to the rules it keeps.
        let page = "<!DOCTYPE html><script>let k = 1; let k = 2; f();</script>";
        assert_eq!(statements(html(page).as_ref(), page), ["f();"]);
    }

    /// In XHTML the code may sit in a CDATA section, `//` before and after it or not;
    /// a text with a reference is left as text.
    #[test]
    fn xhtml_scripts_are_read_inside_their_cdata_section() {
        let page = "<html><script>//<![CDATA[\nif (a < b) { f(); }\n//]]></script></html>";
        assert_eq!(
            statements(xhtml(page).as_ref(), page),
            ["if (a < b) { f(); }", "f();"]
        );
        let page = "<html><script><![CDATA[ g(a<b); ]]></script><script>h();</script></html>";
        assert_eq!(statements(xhtml(page).as_ref(), page), ["g(a<b);", "h();"]);
        let page = "<html><script>if (a &lt; b) f();</script></html>";
        assert!(statements(xhtml(page).as_ref(), page).is_empty());
        assert_eq!(xml_code("//<![CDATA[ f(); //]]>", 0..22), None);
    }

    /// A script is held to JavaScript's early errors too; a script whose content is no
    /// longer code (the squeeze joining `//<![CDATA[` and the first line) is not valid;
    /// a tree built to a depth that leaves out a script's content does not hide it.
    #[test]
    fn scripts_stay_code_with_no_early_error() {
        let page =
            "<!DOCTYPE html><script>class C { #s; get() { return this.#s; } }\nlet k = 1;</script>";
        let frontend = html(page);
        assert!(frontend.is_valid(page));
        let private = page.replace("#s; get", "get");
        assert!(!frontend.is_valid(&private), "{private}");
        assert!(!frontend.is_valid(&page.replace("let k = 1;", "let k = 1; let k = 2;")));
        let page = "<html><script>//<![CDATA[\nfirst(1);\n//]]></script></html>";
        let frontend = xhtml(page);
        assert_eq!(statements(frontend.as_ref(), page), ["first(1);"]);
        let joined = page.replace("[CDATA[\n", "[CDATA[");
        let at = page.find("[CDATA[").unwrap() + 7;
        let edit = Edit::delete(at..at + 1);
        assert_eq!(crate::render::render(page, &[&edit]), joined);
        assert!(!frontend.is_valid(&joined));
        assert!(!frontend.is_valid_edited(page, &[&edit], &joined));
        assert!(frontend.parse(&joined).is_err());
        // At every depth a tree is built to, an edit inside the code is seen.
        let page = "<!DOCTYPE html><html><body><div><div><script>f(1); g(2);</script></div></div></body></html>";
        for depth in 1..8 {
            let frontend = html(page);
            frontend.parse_to(page, depth).unwrap();
            let at = page.find("(1)").unwrap() + 2;
            let edit = Edit::delete(at..at + 1);
            let candidate = crate::render::render(page, &[&edit]);
            assert!(
                !frontend.is_valid_edited(page, &[&edit], &candidate),
                "{depth}"
            );
            assert_eq!(
                frontend.deletions_stay_valid(page, &[&edit], &candidate),
                None
            );
        }
        // A script in SVG is read by a browser with its references: left as text.
        let page = "<!DOCTYPE html><svg><script>var q = a &lt; b;</script></svg>";
        assert!(statements(html(page).as_ref(), page).is_empty());
    }

    /// A string of a script's code shrinks as in a `.js` file; a page's text as the page's.
    #[test]
    fn strings_of_the_code_shrink_as_javascript() {
        let page = "<!DOCTYPE html><p>two words</p><script>f(\"a b c\");</script>";
        let frontend = html(page);
        let tree = frontend.parse(page).unwrap();
        let units = |label: &str| {
            let id = tree.ids().find(|&id| tree.node(id).label == label).unwrap();
            frontend.units(page, tree.node(id), Grain::Words)
        };
        assert!(!units("string").is_empty());
        assert!(!units("#text").is_empty());
    }

    /// A candidate that leaves the code alone, or takes a script's code whole, keeps the
    /// page's cheap verdict; one that deletes inside the code is parsed.
    #[test]
    fn only_edits_inside_the_code_need_a_parse() {
        let page = "<html><p>a</p><script>f(1); g(2);</script></html>";
        let frontend = xhtml(page);
        let judge = |span: Range<usize>| {
            let edit = Edit::delete(span);
            let candidate = crate::render::render(page, &[&edit]);
            let cheap = frontend.deletions_stay_valid(page, &[&edit], &candidate);
            let full = frontend.is_valid_edited(page, &[&edit], &candidate);
            (cheap, full)
        };
        let at = |needle: &str| page.find(needle).unwrap();
        assert_eq!(judge(at("<p>")..at("<script>")), (Some(true), true));
        let code = at("f(1)")..at("</script>");
        assert_eq!(judge(code.clone()), (Some(true), true));
        assert_eq!(judge(at("f(1)")..at("g(2)")), (None, true));
        assert_eq!(judge(at("f(1)")..at("f(1)") + 2), (None, false));
    }
}
