//! Front ends turn text into a [`Tree`] and say whether a text still parses. They describe
//! structure and the edits each node allows; they never decide what to try.

mod early;
mod html;
mod javascript;
mod json;
mod lines;
pub mod mathml;
mod profile;
mod python;
mod scripts;
mod slices;
mod xml;

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

pub use html::Html;
pub use javascript::JavaScript;
pub use json::Json;
pub use lines::{CodeLines, Lines};
pub use python::Python;
pub use xml::Xml;
pub(crate) use xml::forbidden_reference;

use crate::tree::{Edit, Node, NodeId, Tree};

/// Why a text does not parse, with a 1-based position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub column: u32,
    /// What the parser said.
    pub message: String,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// A parser for one input format.
pub trait Frontend {
    /// Parses `text` into a tree whose spans index into `text`.
    fn parse(&self, text: &str) -> Result<Tree, SyntaxError>;

    /// Like [`Frontend::parse`] (the whole text is checked), but the tree may leave out
    /// the nodes deeper than `depth`, which saves building what a pass does not look at
    /// on a large input; [`Tree::limit`] then says so. It is built for the deletion passes:
    /// it may also leave out the rewrites of nodes that may be deleted (a node that may
    /// not keeps them), and [`Tree::is_whole`] then says so. The default builds everything.
    fn parse_to(&self, text: &str, _depth: u32) -> Result<Tree, SyntaxError> {
        self.parse(text)
    }

    /// [`Frontend::parse_to`] (or [`Frontend::parse`] when `depth` is `None`) for `text`,
    /// which is the valid `base` with `edits` applied: front ends whose parsers re-parse
    /// incrementally start from `base`'s parse. The default parses `text` afresh.
    fn parse_edited_to(
        &self,
        _base: &str,
        _edits: &[&Edit],
        text: &str,
        depth: Option<u32>,
    ) -> Result<Tree, SyntaxError> {
        match depth {
            Some(depth) => self.parse_to(text, depth),
            None => self.parse(text),
        }
    }

    /// What the user should know about how this front end reads the original, if anything
    /// (a place it misreads and works around), as `LINE:COLUMN: message`.
    fn note(&self) -> Option<String> {
        None
    }

    /// True when `text` parses. The driver calls this on every candidate before it goes
    /// to the oracle; front ends may override it with something cheaper than `parse`.
    fn is_valid(&self, text: &str) -> bool {
        self.parse(text).is_ok()
    }

    /// True when `candidate`, which is `base` (valid) with `edits` applied by
    /// [`crate::render::render`], parses. Front ends whose parsers re-parse incrementally
    /// override it; the default parses `candidate` afresh.
    fn is_valid_edited(&self, _base: &str, _edits: &[&Edit], candidate: &str) -> bool {
        self.is_valid(candidate)
    }

    /// True when all texts of nothing but whitespace are one and the same empty document
    /// in this format (whitespace between its tokens means nothing), so that once the test
    /// found one of them not interesting, it need not be asked about another. The default
    /// says no: a line-based text with two blank lines differs from one with three.
    fn blank_is_empty(&self) -> bool {
        false
    }

    /// True when what a node needs lies in its own surroundings (markup: an element, its
    /// attributes and its children), so a node proven needed stays needed while its parent
    /// is untouched, even after an ancestor was rewritten around it. False for code,
    /// where a name ties a node to others anywhere: there a rewrite of an ancestor (a
    /// wrapper function hoisted away) forgets what was proven about the nodes inside it.
    fn needs_are_local(&self) -> bool {
        true
    }

    /// True when values whose units read alike (the same texts, numbers aside) shrink as
    /// one: each unit's place is one item, deleted in all of them at once (see
    /// `Driver::shrink_lists`). Lines of text and data repeat a shape (200 log lines, a
    /// table's rows), and shrinking each on its own cost a search per line. The default
    /// shrinks each value on its own.
    fn shrinks_alike(&self) -> bool {
        false
    }

    /// True when two texts with the same tokens, laid out differently (other whitespace
    /// between them), may be taken to share a verdict: code, not markup, whose text nodes
    /// and lines are content. Only a failure is carried over, to skip asking what is a
    /// failed candidate laid out anew (one `new ` hoisted out of a run of 6000 broken over
    /// lines leaves a different text from each line); a wrong guess costs a reduction
    /// missed, never a result that is not interesting.
    fn layout_is_free(&self) -> bool {
        false
    }

    /// Judges `candidate`, made from the valid text `base` by `edits` that only delete
    /// whole nodes (their deletion spans) and units (see [`Frontend::units`]), when a
    /// check cheaper than a parse can: `Some(valid)`, or `None` to parse it. The driver
    /// parses the text a list kept on such verdicts before writing it, and undoes the
    /// list's removals since the last parsed text when it does not parse (another round
    /// finds them again): a wrong `Some(true)` never reaches the output, but the test sees
    /// a text that does not parse and oracle calls are lost, so a check must be sure.
    fn deletions_stay_valid(
        &self,
        _base: &str,
        _edits: &[&Edit],
        _candidate: &str,
    ) -> Option<bool> {
        None
    }

    /// The pieces of `node` that may be removed one by one to shrink it, at `grain`
    /// (the words, then the characters of a text or attribute value, say); empty when the
    /// node does not shrink.
    fn units(&self, _text: &str, _node: &Node, _grain: Grain) -> Vec<Range<usize>> {
        Vec::new()
    }

    /// Adds to each of `rewrites` (the span of a node of `text` and the edits that rewrite
    /// it) the deletions that let what the rewrite keeps keep the layout it had (see
    /// [`dedent`]). Only layout that means nothing may change; the default changes none.
    fn reindent(&self, _text: &str, _rewrites: &mut [(Range<usize>, Vec<Edit>)]) {}

    /// The slices of `text`'s declaring statements, by each statement's span: the spans of
    /// the statements that use what it declares, and of those that use what these
    /// declare, and so on (see `slices`). Those of the statements at `wanted` at least;
    /// none when none of those has one. Asked only while they pay (see
    /// `Driver::delete_sliced`); the default has none.
    fn slices(&self, _text: &str, _wanted: &[(usize, usize)]) -> Slices {
        Slices::new()
    }

    /// Which of `nodes` (deletable nodes of `tree`, the tree of `text`) are likely
    /// needed, as flags in their order: a deletion list walks those last, so that the
    /// strategy removes the others in large blocks and meets the needed ones together
    /// (see `Driver::lists`). Empty when nothing is told apart (the default).
    fn likely_needed(&self, _text: &str, _tree: &Tree, _nodes: &[NodeId]) -> Vec<bool> {
        Vec::new()
    }
}

/// What [`Frontend::slices`] gives: for each declaring statement's span (start, end), the
/// spans of the statements that go with it.
pub type Slices = BTreeMap<(usize, usize), Vec<Range<usize>>>;

/// How fine the pieces of a shrinking value are: words first (a sentence loses whole words
/// in a few calls), then characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grain {
    /// Words, and the whitespace between them.
    Words,
    /// Characters, a character reference counting as one.
    Characters,
}

/// The formats treereduce knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// XML, XHTML, MathML, SVG: anything well-formed.
    Xml,
    /// HTML that is not well-formed XML, parsed as tolerantly as a browser does.
    Html,
    /// JavaScript, parsed with tree-sitter and reduced as `grammars/javascript.toml` says.
    JavaScript,
    /// JSON (comments allowed), parsed with tree-sitter and reduced as `grammars/json.toml`
    /// says.
    Json,
    /// Plain text, one item per line; the fallback for unknown extensions.
    Lines,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: &'static [Format] = &[
        Format::Xml,
        Format::Html,
        Format::JavaScript,
        Format::Json,
        Format::Lines,
    ];

    /// The name used by `--format`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Xml => "xml",
            Format::Html => "html",
            Format::JavaScript => "js",
            Format::Json => "json",
            Format::Lines => "lines",
        }
    }

    /// Looks a format up by its `--format` name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// The format implied by a file name's extension, falling back to [`Format::Lines`].
    pub fn from_path(path: &Path) -> Self {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase())
            .unwrap_or_default();
        match ext.as_str() {
            "xml" | "xhtml" | "xht" | "mml" | "svg" | "xsl" | "xslt" | "rss" | "atom" | "opf"
            | "ncx" => Format::Xml,
            "html" | "htm" => Format::Html,
            "js" | "mjs" | "cjs" | "jsx" => Format::JavaScript,
            "json" | "jsonc" | "jsonl" | "ndjson" | "geojson" | "jsonld" | "webmanifest"
            | "har" => Format::Json,
            _ => Format::Lines,
        }
    }

    /// The format of `text` read from `path`: by extension, but XML for a page that is
    /// well-formed XML when its name does not say which format it is in (no extension,
    /// anything unknown), and for a page named `.html` or `.htm` that also says it is XML
    /// (XHTML saved under an HTML name: without a sign, a browser reads the page as HTML,
    /// where `<div/>` opens a `<div>`, and so is it reduced); and HTML for a
    /// text that is not well-formed XML under an unknown name when it begins like an HTML
    /// page (`<!DOCTYPE html`, `<html`), while other markup-like texts (templates, PHP)
    /// stay lines; and JSON for a text under such a name that begins with `{` or `[` and
    /// parses as JSON, while a `.jsonc` file that tree-sitter cannot read in more than half
    /// of it is lines (one with trailing commas is JSON, see [`Json::for_original`]).
    pub fn detect(path: &Path, text: &str) -> Self {
        if Self::may_be_json(path, text) && Json::default().is_valid(text) {
            Format::Json
        } else if Self::is_jsonc(path) && !Json::for_original(text).is_valid(text) {
            Format::Lines
        } else if !Self::may_be_markup(path, text) {
            Self::from_path(path)
        } else if Self::from_path(path) == Format::Html {
            if Self::says_xml(text) && Xml.is_valid(text) {
                Format::Xml
            } else {
                Format::Html
            }
        } else if Xml.is_valid(text) {
            Format::Xml
        } else if Self::begins_like_html(text) {
            Format::Html
        } else {
            Format::Lines
        }
    }

    /// A one-line note on why [`Format::detect`] chose `format` for `text` read from
    /// `path` where the name alone does not say so: an HTML page read as XML, or markup
    /// that is not well-formed XML (with where the XML parser stopped: an XHTML page with
    /// one slip is better mended); `None` where the choice goes without saying.
    pub fn detection_note(path: &Path, text: &str, format: Format) -> Option<String> {
        let name = path.display();
        if Self::is_jsonc(path) && format == Format::Lines {
            let error = Json::default().parse_to(text, 1).err()?;
            return Some(format!(
                "note: {name} is not JSON that treereduce reads ({}:{}: {}; JSON with comments may also have trailing commas); reducing it by lines (--format lines silences this note)",
                error.line, error.column, error.message
            ));
        }
        if !Self::may_be_markup(path, text) {
            return None;
        }
        let named_html = Self::from_path(path) == Format::Html;
        if format == Format::Xml {
            return named_html.then(|| {
                format!(
                    "note: {name} is well-formed XML with an XML declaration or prefixed elements; reducing it as XML (--format html reduces it as HTML, --format xml silences this note)"
                )
            });
        }
        if named_html && !Self::says_xml(text) {
            return None;
        }
        let error = Xml.parse_to(text, 1).err()?;
        let how = if format == Format::Html {
            "as HTML"
        } else {
            "by lines (--format html reduces it as HTML)"
        };
        Some(format!(
            "note: {name} is not well-formed XML ({}:{}: {}); reducing it {how} (--format {} silences this note)",
            error.line,
            error.column,
            error.message,
            format.name()
        ))
    }

    /// True when `text` says it is XML: it opens (after a byte-order mark and whitespace)
    /// with an XML declaration, or has an element with a namespace prefix (`<m:mi/>` in
    /// HTML is an element named `m:mi` that `/>` leaves open; a prefixed attribute such as
    /// inline SVG's `xlink:href` is no sign, HTML knows it).
    fn says_xml(text: &str) -> bool {
        let declared = text
            .trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with("<?xml");
        if declared {
            return true;
        }
        // Element names only: comments (Word's `<!--[if mso]><o:p>`), CDATA sections and
        // processing instructions are passed over.
        let mut rest = text;
        while let Some(at) = rest.find('<') {
            rest = &rest[at..];
            let skip = [("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>")]
                .iter()
                .find(|(open, _)| rest.starts_with(open));
            if let Some((open, close)) = skip {
                match rest[open.len()..].find(close) {
                    Some(end) => rest = &rest[open.len() + end + close.len()..],
                    None => return false,
                }
                continue;
            }
            let name = &rest[1..];
            let end = name
                .find(|c: char| !(c.is_alphanumeric() || matches!(c, ':' | '_' | '-' | '.')))
                .unwrap_or(name.len());
            if name.starts_with(|c: char| c.is_alphabetic() || c == '_')
                && name[..end].contains(':')
            {
                return true;
            }
            rest = name;
        }
        false
    }

    /// The formats to suggest when `text` does not parse in this one: HTML too for markup
    /// that opens like a page or has an HTML body (tag soup named `.xhtml` or `.xml`).
    pub fn instead(self, text: &str) -> &'static str {
        let lower = |needle: &str| {
            text.as_bytes()
                .windows(needle.len())
                .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
        };
        if self == Format::Xml && (Self::begins_like_html(text) || lower("<body")) {
            "--format html, or --format lines"
        } else {
            "--format lines"
        }
    }

    /// True when `text` opens (after a byte-order mark, whitespace and comments) with an
    /// HTML DOCTYPE or an `<html>` start tag, in any case.
    fn begins_like_html(text: &str) -> bool {
        let rest = html::opening(text);
        html::starts_with_ignoring_case(rest, "<!doctype html")
            || html::starts_with_ignoring_case(rest, "<html")
    }

    /// True when `path`'s name does not say which format `text` is in (or says HTML, which
    /// may be XHTML) nor that it is plain text, and `text` begins with `<`.
    fn may_be_markup(path: &Path, text: &str) -> bool {
        matches!(Self::from_path(path), Format::Lines | Format::Html)
            && Self::unsaid(path, text, &['<'])
    }

    /// True when `path` is named `.jsonc`: JSON with comments, where editors and
    /// TypeScript also take trailing commas, which the JSON front end does not read.
    fn is_jsonc(path: &Path) -> bool {
        path.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("jsonc"))
    }

    /// True when `path`'s name does not say which format `text` is in nor that it is
    /// plain text, and `text` begins with `{` or `[` (a source map, `.babelrc`).
    fn may_be_json(path: &Path, text: &str) -> bool {
        Self::from_path(path) == Format::Lines && Self::unsaid(path, text, &['{', '['])
    }

    /// True when `path` is not named `.txt` and `text` begins (after a byte-order mark and
    /// whitespace) with one of `first`.
    fn unsaid(path: &Path, text: &str, first: &[char]) -> bool {
        let says_text = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("txt"));
        !says_text
            && text
                .trim_start_matches('\u{feff}')
                .trim_start()
                .starts_with(first)
    }

    /// The front end for this format.
    pub fn frontend(self) -> Box<dyn Frontend> {
        match self {
            Format::Xml => Box::new(Xml),
            Format::Html => Box::new(Html::default()),
            Format::JavaScript => Box::new(JavaScript::default()),
            Format::Json => Box::new(Json::default()),
            Format::Lines => Box::new(Lines),
        }
    }

    /// The front end for reducing `original`: like [`Format::frontend`], but a candidate is
    /// also held to the rules beyond the grammar that `original` keeps (JavaScript's early
    /// errors, see `early.rs`; Python's blocks, for lines named `.py` or run by `python`,
    /// see `python.rs`), a page's inline scripts read as JavaScript (`scripts.rs`), and
    /// lines that read as code in braces taken as code ([`CodeLines`]).
    pub fn frontend_for(self, path: &Path, original: &str) -> Box<dyn Frontend> {
        match self {
            Format::JavaScript => Box::new(JavaScript::for_original(original)),
            Format::Json => Box::new(Json::for_original(original)),
            Format::Html => {
                scripts::Scripted::around(Box::new(Html::for_original(original)), original, false)
            }
            Format::Xml => scripts::Scripted::around(Box::new(Xml), original, true),
            Format::Lines if is_python(path, original) => Box::new(Python::for_original(original)),
            Format::Lines if CodeLines::reads_as_code(original) => Box::new(CodeLines),
            _ => self.frontend(),
        }
    }
}

/// True when `path` names Python source (`.py`, `.pyw`, `.pyi`) or `text` opens with a
/// `#!` line that runs Python.
fn is_python(path: &Path, text: &str) -> bool {
    let named = path.extension().is_some_and(|e| {
        ["py", "pyw", "pyi"]
            .iter()
            .any(|py| e.eq_ignore_ascii_case(py))
    });
    let run = text
        .trim_start_matches('\u{feff}')
        .lines()
        .next()
        .is_some_and(|first| first.starts_with("#!") && first.contains("python"));
    named || run
}

/// The length of the byte-order mark `text` opens with (0 without one).
pub(crate) fn bom_len(text: &str) -> usize {
    if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    }
}

/// The line and the column (in characters), both from 1, of byte `at` of `text`.
pub(crate) fn line_and_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

/// The bytes that go with a node spanning `start..end` when it is deleted, chosen so that
/// no blank line or dangling spaces stay behind: the indentation before it and one line
/// break when the node starts a line; otherwise the spaces before it, plus the spaces after
/// it when nothing else follows on its line.
pub(crate) fn deletion_span(text: &str, start: usize, end: usize) -> Range<usize> {
    let bytes = text.as_bytes();
    let mut s = start;
    while s > 0 && matches!(bytes[s - 1], b' ' | b'\t') {
        s -= 1;
    }
    if s == 0 || bytes[s - 1] == b'\n' {
        if s > 0 {
            s -= 1;
            if s > 0 && bytes[s - 1] == b'\r' {
                s -= 1;
            }
        }
        return s..end;
    }
    let mut e = end;
    while e < bytes.len() && matches!(bytes[e], b' ' | b'\t') {
        e += 1;
    }
    if e == bytes.len() || matches!(bytes[e], b'\n' | b'\r') {
        s..e
    } else {
        s..end
    }
}

/// When `edits` (deletions inside `span`, a node of `text`) keep one piece of the node, a
/// descendant whose first line was indented more than the node's (a function hoisted out
/// of a wrapper, a block's statements out of an `if`): the deletions that take the
/// difference off the piece's other lines, so that they sit under its first line as they
/// did. Each line loses the columns between the node's indentation and the piece's, never
/// more than its own leading blanks, so that the deletions of nested rewrites in one
/// candidate add up (the node's band, then the piece's own) instead of overlapping. A line
/// for whose start `content` says true (it lies inside a string) is left alone.
pub(crate) fn dedent(
    text: &str,
    span: Range<usize>,
    edits: &[Edit],
    content: &dyn Fn(usize) -> bool,
) -> Vec<Edit> {
    // Only a piece of several lines has lines to move (and minified code has none).
    let Some(kept) = kept_piece(span.clone(), edits).filter(|k| text[k.clone()].contains('\n'))
    else {
        return Vec::new();
    };
    let bytes = text.as_bytes();
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
    let blanks = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count()
    };
    let (node_line, kept_line) = (line_start(span.start), line_start(kept.start));
    if node_line == kept_line {
        return Vec::new();
    }
    let outer = blanks(node_line).min(span.start - node_line);
    let inner = blanks(kept_line).min(kept.start - kept_line);
    if inner <= outer {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut at = kept.start;
    while let Some(i) = text[at..kept.end].find('\n') {
        let line = at + i + 1;
        let lead = blanks(line).min(inner);
        if lead > outer && line + lead <= kept.end && !content(line) {
            out.push(Edit::delete(line + outer..line + lead));
        }
        at = line;
    }
    out
}

/// The one piece of `span` that `edits` (deletions) leave, or `None` when they are not
/// all deletions inside it or leave no piece or several. Deletions wholly outside the
/// span (the calls a function's body takes with it) do not count.
fn kept_piece(span: Range<usize>, edits: &[Edit]) -> Option<Range<usize>> {
    let mut cuts: Vec<Range<usize>> = Vec::with_capacity(edits.len());
    for edit in edits {
        let outside = edit.span.end <= span.start || edit.span.start >= span.end;
        if edit.is_deletion() && outside && !edit.span.is_empty() {
            continue;
        }
        if !edit.is_deletion() || edit.span.start < span.start || edit.span.end > span.end {
            return None;
        }
        cuts.push(edit.span.clone());
    }
    cuts.sort_by_key(|c| c.start);
    let mut pieces = Vec::new();
    let mut at = span.start;
    for cut in cuts {
        if cut.start > at {
            pieces.push(at..cut.start);
        }
        at = at.max(cut.end);
    }
    if at < span.end {
        pieces.push(at..span.end);
    }
    match pieces.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// Joins `characters` (consecutive pieces of `text`, in order: its characters, with a
/// reference or an escape sequence as one) into the units a shrink by words removes, the
/// tokens of [`crate::tokens::count`]: runs of letters, digits and underscores, runs of
/// whitespace (a no-break space among them), and every other piece on its own. A value
/// without spaces (`M9.4.5a2`, `[\\p{L}\\-@]*`) thus still loses what it does not need
/// piece by piece, and what goes is a token fewer each time.
pub(crate) fn words(text: &str, characters: Vec<Range<usize>>) -> Vec<Range<usize>> {
    #[derive(PartialEq)]
    enum Class {
        Space,
        Word,
        Other,
    }
    let class = |unit: &Range<usize>| {
        let piece = &text[unit.clone()];
        let mut chars = piece.chars();
        match (chars.next(), chars.next()) {
            _ if piece.chars().all(char::is_whitespace) => Class::Space,
            (Some(c), None) if c.is_alphanumeric() || c == '_' => Class::Word,
            _ => Class::Other,
        }
    };
    let mut words: Vec<Range<usize>> = Vec::new();
    let mut last_class = Class::Other;
    for unit in characters {
        let class = class(&unit);
        match words.last_mut() {
            Some(last) if class == last_class && class != Class::Other => last.end = unit.end,
            _ => words.push(unit),
        }
        last_class = class;
    }
    words
}

/// Moves `start` back over all whitespace before it.
pub(crate) fn take_whitespace(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    let mut s = start;
    while s > 0 && bytes[s - 1].is_ascii_whitespace() {
        s -= 1;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines named `.py` or run by `python` are held to Python's blocks; other lines are
    /// not (a YAML key may lose all it holds).
    #[test]
    fn python_is_told_by_its_name_or_its_first_line() {
        let emptied = "if a:\n";
        let original = "if a:\n    b\n";
        let valid = |path: &str, original: &str| {
            Format::Lines
                .frontend_for(Path::new(path), original)
                .is_valid(emptied)
        };
        assert!(!valid("t.py", original));
        assert!(!valid("T.PYI", original));
        assert!(!valid(
            "tool",
            &format!("#!/usr/bin/env python3\n{original}")
        ));
        assert!(valid("t.yml", original));
        assert!(valid("t.txt", original));
    }

    /// Lines that read as code in braces and semicolons are swept for failed deletions
    /// (needs not local); a log or a configuration of keys keeps markup's monotone
    /// shortcuts.
    #[test]
    fn code_in_braces_is_told_from_other_lines() {
        let local = |text: &str| {
            Format::Lines
                .frontend_for(Path::new("t"), text)
                .needs_are_local()
        };
        assert!(!local(
            "typedef int T;\nstatic T f(void)\n{\n  return 0;\n}\n"
        ));
        assert!(!local("p {\n  color: red;\n}\n"));
        assert!(local("12:00 start\n12:01 error: x;\n12:02 stop\n"));
        assert!(local("a: 1\nb:\n  c: 2\n"));
        assert!(local(""));
    }

    fn cut(text: &str, start: usize, end: usize) -> String {
        let r = deletion_span(text, start, end);
        format!("{}{}", &text[..r.start], &text[r.end..])
    }

    /// `text` with the node `outer` replaced by its piece `inner` (both found as
    /// substrings), by the deletions around it and those [`dedent`] adds.
    fn hoist(text: &str, outer: &str, inner: &str) -> Vec<Edit> {
        let start = text.find(outer).unwrap();
        let span = start..start + outer.len();
        let at = start + outer.find(inner).unwrap();
        let mut edits = vec![
            Edit::delete(span.start..at),
            Edit::delete(at + inner.len()..span.end),
        ];
        edits.extend(dedent(text, span, &edits, &|_| false));
        edits
    }

    fn apply(text: &str, edits: &[Edit]) -> String {
        crate::render::render(text, &edits.iter().collect::<Vec<_>>())
    }

    #[test]
    fn a_hoisted_piece_keeps_its_lines_under_its_first() {
        let text = "f();\n  if (c) {\n    a();\n\n    if (d) {\n      b();\n    }\n  }\n";
        let inner = "a();\n\n    if (d) {\n      b();\n    }";
        let edits = hoist(text, &text[7..text.len() - 1], inner);
        assert_eq!(
            apply(text, &edits),
            "f();\n  a();\n\n  if (d) {\n    b();\n  }\n"
        );
        // Hoisting onto a line indented as much, or within a line, moves nothing.
        let flat = "if (c) {\n  a();\n} else {\n  b();\n}\n";
        assert_eq!(hoist(flat, "{\n  a();\n}", "a();").len(), 2);
        let call = "x = f(function () {\n  a();\n});\n";
        assert_eq!(
            hoist(call, "f(function () {\n  a();\n})", "function").len(),
            2
        );
    }

    #[test]
    fn dedents_of_nested_hoists_add_up() {
        let text = "  if (c) {\n    while (d) {\n      a();\n      b();\n    }\n  }\n";
        let outer = &text[2..text.len() - 1];
        let middle = "while (d) {\n      a();\n      b();\n    }";
        let mut edits = hoist(text, outer, middle);
        edits.extend(hoist(text, middle, "a();\n      b();"));
        assert_eq!(apply(text, &edits), "  a();\n  b();\n");
    }

    #[test]
    fn a_line_indented_less_than_its_piece_loses_only_its_own_blanks() {
        let text = "    g(\n        x,\n      y,\n  z);\n";
        let edits = hoist(text, "g(\n        x,\n      y,\n  z)", "x,\n      y,\n  z");
        assert_eq!(apply(text, &edits), "    x,\n    y,\n  z;\n");
        // Edits that are not deletions, or keep two pieces, move nothing.
        let text = "{\n  {\n    a;\n  }\n}";
        let swap = [Edit::replace(0..1, String::from("("))];
        assert!(dedent(text, 0..text.len(), &swap, &|_| false).is_empty());
        let two = [Edit::delete(1..2), Edit::delete(6..7)];
        assert!(dedent(text, 0..text.len(), &two, &|_| false).is_empty());
    }

    #[test]
    fn deleting_a_whole_line_leaves_no_blank_line() {
        assert_eq!(cut("<a>\n  <b/>\n  <c/>\n</a>", 6, 10), "<a>\n  <c/>\n</a>");
    }

    #[test]
    fn deleting_the_end_of_a_line_leaves_no_trailing_spaces() {
        assert_eq!(cut("<s>x</s>  Matrix  \n<t/>", 10, 16), "<s>x</s>\n<t/>");
    }

    #[test]
    fn deleting_mid_line_keeps_the_space_after() {
        assert_eq!(cut("foo <b/> bar", 4, 8), "foo bar");
    }
}
