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
    /// The hashes of codes known to be valid, most recent last: a text the passes go on
    /// from was judged before it was taken, and its tree built to a depth (which checks
    /// all of it) finds its codes here rather than checking them whole again.
    valid: Mutex<Vec<u128>>,
}

/// A text's hash and the spans of its scripts' code.
type Codes = (u128, Arc<[Range<usize>]>);

/// A script's code that a candidate's edits change.
struct Changed<'c> {
    /// Its span in the base.
    code: Range<usize>,
    /// The edits inside it, at its own positions.
    inside: Vec<Edit>,
    /// Its text in the candidate.
    new_code: &'c str,
}

/// How many texts' code spans [`Scripted`] keeps.
const KEPT_CODES: usize = 8;

/// How many valid codes' hashes [`Scripted`] keeps.
const KEPT_VALID: usize = 64;

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
        // Candidates keep the early-error rules every one of the original's scripts keeps
        // (a rule one of them breaks is not held in any).
        let codes: Vec<&str> = scripts
            .iter()
            .flat_map(|(_, code)| code.clone())
            .map(|code| &original[code])
            .collect();
        let js = JavaScript::for_scripts(&codes);
        let code: usize = codes.iter().map(|code| code.len()).sum();
        Box::new(Scripted {
            page,
            xml,
            js,
            mostly_code: 2 * code >= original.len(),
            codes: Mutex::new(Vec::new()),
            valid: Mutex::new(codes.iter().map(|code| hash(code)).collect()),
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
            // A tree built to a depth takes the code's nodes down to that depth.
            let below = tree
                .limit()
                .map(|limit| limit.saturating_sub(tree.node(id).depth));
            let code_text = &text[code.clone()];
            let js = match below {
                None => self.js.parse(code_text),
                Some(depth) => self.js.parse_to(code_text, depth),
            };
            let js = js.map_err(|e| at_code(text, code.start, e))?;
            codes.push((id, code.start, js));
        }
        let partial = codes.iter().any(|(_, _, js)| !js.is_whole());
        let mut tree = tree.rebuilt(|old, new, copy| {
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
        });
        if partial {
            tree.leave_out_rewrites();
        }
        Ok(tree)
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
        self.keep_codes(hash(text), spans.clone());
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
        spans.iter().all(|code| {
            let code = &text[code.clone()];
            self.is_known_valid(code) || (self.js.is_valid(code) && self.keep_valid(code))
        })
    }

    fn is_known_valid(&self, code: &str) -> bool {
        let code = hash(code);
        self.valid.lock().is_ok_and(|valid| valid.contains(&code))
    }

    /// Records that `code` is valid; true.
    fn keep_valid(&self, code: &str) -> bool {
        let code = hash(code);
        if let Ok(mut valid) = self.valid.lock()
            && !valid.contains(&code)
        {
            if valid.len() == KEPT_VALID {
                valid.remove(0);
            }
            valid.push(code);
        }
        true
    }

    /// The spans of the code of `text`'s inline scripts, or `None` when the page's front
    /// end does not read it.
    fn code_spans(&self, text: &str) -> Option<Arc<[Range<usize>]>> {
        let hash = hash(text);
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

    /// The codes of `base`'s scripts (at `codes`, the caller's look at them) that `edits`
    /// change, each with the edits inside it and its text in `candidate`; `None` when an
    /// edit crosses the edge of a code, or a code's new text could end it or be read
    /// otherwise by the page (see [`Scripted::read_alike`]): the candidate's scripts are
    /// then read whole.
    fn changed_codes<'c>(
        &self,
        codes: &[Range<usize>],
        base: &str,
        edits: &[&Edit],
        candidate: &'c str,
    ) -> Option<Vec<Changed<'c>>> {
        let splices = crate::render::splices(base, edits);
        let mut changed = Vec::new();
        for code in codes.iter() {
            // How far the code moves, and what changes inside it.
            let mut moved: isize = 0;
            let mut grown: isize = 0;
            let mut inside: Vec<Edit> = Vec::new();
            let mut gone = false;
            for (span, text) in &splices {
                let change = text.len() as isize - span.len() as isize;
                let insertion = span.is_empty();
                let before = if insertion {
                    span.start < code.start
                } else {
                    span.end <= code.start
                };
                let after = if insertion {
                    span.start > code.end
                } else {
                    span.start >= code.end
                };
                if before {
                    moved += change;
                } else if after {
                    break;
                } else if code.start <= span.start && span.end <= code.end {
                    let local = span.start - code.start..span.end - code.start;
                    inside.push(Edit::replace(local, (*text).to_string()));
                    grown += change;
                } else if span.start <= code.start && code.end <= span.end && text.is_empty() {
                    gone = true;
                    break;
                } else {
                    return None;
                }
            }
            if gone || inside.is_empty() {
                continue;
            }
            let start = code.start.checked_add_signed(moved)?;
            let end = code.end.checked_add_signed(moved + grown)?;
            let new_code = candidate.get(start..end)?;
            if !self.read_alike(base, code, &inside, new_code) {
                return None;
            }
            changed.push(Changed {
                code: code.clone(),
                inside,
                new_code,
            });
        }
        Some(changed)
    }

    /// Whether the scripts of `candidate` (`edits` made on `base`) parse, each code that
    /// `edits` change checked as [`JavaScript::is_valid_edited`] checks a `.js` file: from
    /// its code in `base`, near the edits, rather than whole (on a page holding lodash, 44
    /// ms a candidate went into the whole checks); `None` when [`Scripted::changed_codes`]
    /// cannot tell.
    fn codes_valid_edited(&self, base: &str, edits: &[&Edit], candidate: &str) -> Option<bool> {
        let codes = self.code_spans(base)?;
        for changed in self.changed_codes(&codes, base, edits, candidate)? {
            let inside: Vec<&Edit> = changed.inside.iter().collect();
            let code = &base[changed.code];
            if !self.js.is_valid_edited(code, &inside, changed.new_code) {
                return Some(false);
            }
            self.keep_valid(changed.new_code);
        }
        Some(true)
    }

    /// True when `new_code` (the code at `code` of `base` with `inside` made on it) is
    /// surely read by the page as that code was, all of it a script's code.
    fn read_alike(&self, base: &str, code: &Range<usize>, inside: &[Edit], new_code: &str) -> bool {
        if !self.xml {
            return find_ignoring_case(new_code, 0, "</script").is_none()
                && !new_code.contains("<!--");
        }
        if !base[..code.start].ends_with("<![CDATA[") {
            return !new_code.contains(['<', '&']);
        }
        // The first line follows `//<![CDATA[`, and what follows the last line break
        // goes before `//]]>`.
        let own = &base[code.clone()];
        let first = own.find('\n').map_or(own.len(), |at| at + 1);
        let last = own.rfind('\n').unwrap_or(0);
        !new_code.contains("]]>")
            && inside
                .iter()
                .all(|edit| edit.span.start >= first && edit.span.end <= last)
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

    /// A candidate whose edits stay inside scripts' code is judged as a `.js` file's: by a
    /// parse from the base's tree and the early errors near the edits.
    fn is_valid_edited(&self, base: &str, edits: &[&Edit], candidate: &str) -> bool {
        self.page.is_valid_edited(base, edits, candidate)
            && (!self.touches_code(base, edits)
                || self
                    .codes_valid_edited(base, edits, candidate)
                    .unwrap_or_else(|| self.scripts_parse(candidate)))
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

    /// The page's cheap verdict, for a candidate that leaves the scripts' code alone;
    /// JavaScript's for each code, for one whose edits all lie in codes (see
    /// [`Scripted::changed_codes`]); none (a parse) for the others.
    fn deletions_stay_valid(&self, base: &str, edits: &[&Edit], candidate: &str) -> Option<bool> {
        if !self.touches_code(base, edits) {
            return self.page.deletions_stay_valid(base, edits, candidate);
        }
        // Edits all inside codes get JavaScript's cheap verdict for each code.
        let codes = self.code_spans(base)?;
        let within = |span: &Range<usize>| {
            codes
                .iter()
                .any(|code| code.start <= span.start && span.end <= code.end)
        };
        if !edits.iter().all(|edit| within(&edit.span)) {
            return None;
        }
        let changed = self.changed_codes(&codes, base, edits, candidate)?;
        for changed in &changed {
            let inside: Vec<&Edit> = changed.inside.iter().collect();
            let code = &base[changed.code.clone()];
            if !self
                .js
                .deletions_stay_valid(code, &inside, changed.new_code)?
            {
                return Some(false);
            }
        }
        for changed in &changed {
            self.keep_valid(changed.new_code);
        }
        Some(true)
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

    /// A rewrite in a script's code keeps its layout as in a `.js` file; the page's own
    /// (XML's, HTML's) keep theirs as they are.
    fn reindent(&self, text: &str, rewrites: &mut [(Range<usize>, Vec<Edit>)]) {
        let codes = self.code_spans(text).unwrap_or_default();
        let within = |code: &Range<usize>, span: &Range<usize>| {
            code.start <= span.start && span.end <= code.end
        };
        for code in codes.iter() {
            let inside = rewrites.iter_mut().filter(|(span, _)| within(code, span));
            self.js.reindent_code(text, code.clone(), inside);
        }
    }

    /// The page's slices and, for statements of a script's code, the script's own (a
    /// declaration with the statements of the same script that use it).
    fn slices(&self, text: &str, wanted: &[(usize, usize)]) -> Slices {
        let mut slices = self.page.slices(text, wanted);
        let Some(codes) = self.code_spans(text) else {
            return slices;
        };
        for code in codes.iter() {
            let inside: Vec<(usize, usize)> = wanted
                .iter()
                .filter(|&&(start, end)| code.start <= start && end <= code.end)
                .map(|&(start, end)| (start - code.start, end - code.start))
                .collect();
            if inside.is_empty() {
                continue;
            }
            let by = code.start;
            for ((start, end), uses) in self.js.slices(&text[code.clone()], &inside) {
                let uses = uses.iter().map(|u| shift(u, by)).collect();
                slices.insert((start + by, end + by), uses);
            }
        }
        slices
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

fn hash(text: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128(text.as_bytes())
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

    /// A declaration of a script is sliced with the statements of its script that use it,
    /// at their places in the page, and a hoist in a script's code keeps its layout as in
    /// a `.js` file (a template's lines keep their spaces).
    #[test]
    fn declarations_slice_and_hoists_reindent_as_javascript() {
        let page =
            "<!DOCTYPE html><p>f</p>\n<script>\nfunction f() {}\nvar a = 1;\nf();\n</script>";
        let frontend = html(page);
        let at = |s: &str| {
            let start = page.find(s).unwrap();
            (start, start + s.len())
        };
        let declaration = at("function f() {}");
        let wanted = [declaration, at("var a = 1;"), at("f();")];
        let slices = frontend.slices(page, &wanted);
        let (call, end) = at("f();");
        let uses = slices.get(&declaration).unwrap();
        assert_eq!((uses.len(), uses.first()), (1, Some(&(call..end))));
        assert_eq!(slices.len(), 1);

        let page = "<p>x</p><script>\n  if (c) {\n    a(`\n    `);\n    b();\n  }\n</script>";
        let frontend = html(page);
        let (start, end) = {
            let s = "if (c) {\n    a(`\n    `);\n    b();\n  }";
            let start = page.find(s).unwrap();
            (start, start + s.len())
        };
        let inner = page.find("a(`").unwrap()..page.find("b();").unwrap() + 4;
        let edits = vec![
            Edit::delete(start..inner.start),
            Edit::delete(inner.end..end),
        ];
        let mut rewrites = [(start..end, edits)];
        frontend.reindent(page, &mut rewrites);
        let edits: Vec<&Edit> = rewrites[0].1.iter().collect();
        assert_eq!(
            crate::render::render(page, &edits),
            "<p>x</p><script>\n  a(`\n    `);\n  b();\n</script>"
        );
        // Outside the code, the page's layout stays as it is.
        let p = page.find("x").unwrap();
        let mut rewrites = [(p..p + 1, vec![Edit::delete(p..p + 1)])];
        frontend.reindent(page, &mut rewrites);
        assert_eq!(rewrites[0].1.len(), 1);
    }

    /// A candidate that edits a script's code is judged near its edits as the whole
    /// check judges it: every deletion of one character or of a word that touches the
    /// code, in pages where some
    /// make the code end early (`</script`), break it, break an early-error rule (`let`
    /// twice) or move a CDATA section's first line into its `//`.
    #[test]
    fn edits_inside_the_code_are_judged_as_the_whole_check_judges_them() {
        // Each page, its front end, and what its code lies between.
        type Case = (
            &'static str,
            fn(&str) -> Box<dyn Frontend>,
            &'static str,
            &'static str,
        );
        let pages: [Case; 3] = [
            (
                "<!DOCTYPE html><p>a</p><script>\nlet a = 1; let ab = 2;\nx = (a < /script/.test(b));\n</script><p>b</p>",
                html,
                "<script>",
                "</script>",
            ),
            (
                "<html xmlns=\"http://www.w3.org/1999/xhtml\"><script>//<![CDATA[\nlet a = 1 < 2, ab;\nf(a);\n//]]></script></html>",
                xhtml,
                "<![CDATA[",
                "//]]>",
            ),
            (
                "<html xmlns=\"http://www.w3.org/1999/xhtml\"><script>\nlet a = 1, ab;\nf(a);\n</script></html>",
                xhtml,
                "<script>",
                "</script>",
            ),
        ];
        for (page, frontend, opens, closes) in pages {
            let frontend = frontend(page);
            let code = page.find(opens).unwrap() + opens.len()..page.find(closes).unwrap();
            let mut deletions: Vec<Range<usize>> = (0..page.len()).map(|at| at..at + 1).collect();
            let mut at = 0;
            for word in page.split_inclusive(|c: char| !c.is_alphanumeric()) {
                deletions.push(at..at + word.len());
                at += word.len();
            }
            // Those that touch the code (the others keep the page's own verdict).
            deletions.retain(|d| d.start < code.end && d.end > code.start);
            // The tree of the page, as a pass's base has, gives the code's cheap verdicts.
            frontend.parse(page).unwrap();
            let (mut valid, mut invalid, mut cheaply) = (0, 0, 0);
            for span in deletions {
                let edit = Edit::delete(span.clone());
                let candidate = format!("{}{}", &page[..span.start], &page[span.end..]);
                let whole = frontend.is_valid(&candidate);
                let near = frontend.is_valid_edited(page, &[&edit], &candidate);
                assert_eq!(near, whole, "{candidate}");
                let cheap = frontend.deletions_stay_valid(page, &[&edit], &candidate);
                assert!(cheap.is_none_or(|cheap| cheap == whole), "{candidate}");
                cheaply += usize::from(cheap.is_some());
                if whole { valid += 1 } else { invalid += 1 }
            }
            assert!(
                valid > 10 && invalid > 10 && cheaply > 0,
                "{valid} {invalid} {cheaply}"
            );
        }
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
        // Each script is held to the rules every script keeps, read apart: one that begins
        // with 'use strict' is strict, though it would not be after the other (a trial's
        // page was refused at every depth), and a sloppy one may not become strict.
        let page = "<script>if(h){}</script><script>\"use strict\"</script><li><ol><li>x</ol>";
        let frontend = html(page);
        assert_eq!(
            statements(frontend.as_ref(), page),
            ["if(h){}", "\"use strict\""]
        );
        for depth in 0..8 {
            frontend.parse_to(page, depth).unwrap();
        }
        assert!(frontend.is_valid("<script>if(h){}</script><script>\"use strict\";</script>"));
        let page = "<script>(function () { 'use strict'; f(); })();</script><script>g();</script>";
        let frontend = html(page);
        assert!(frontend.is_valid("<script>(function () { 'use strict'; })();</script>"));
        assert!(!frontend.is_valid("<script>'use strict'; f();</script>"));
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
