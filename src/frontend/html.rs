//! The HTML front end, for pages that are not well-formed XML (one that is goes to the XML
//! front end). Its parser is tolerant in the way of the HTML standard's tree construction,
//! cut down to what shapes a tree of spans: void elements (`<br>`), raw text elements
//! (`<script>`, `<style>`, `<textarea>`, `<title>`), end tags left out where HTML allows
//! (a `<p>` ends where the next block begins, an `<li>` where the next `<li>` does, an
//! open element where an end tag of an element around it stands), unquoted and bare
//! attributes, and foreign content (`<math>`, `<svg>`), where `<mi/>` is complete and
//! MathML's positional children take the profile's placeholder as they do in XML.
//!
//! Every text is an HTML document, so validity is relative: a candidate is valid when it
//! has no more parse errors (an end tag that closes nothing, an element left open that
//! needs its end tag, a `<` that starts no markup, a `&name` without its `;`, no DOCTYPE,
//! a tag or comment cut off by the end of the text) than the original has. A candidate
//! therefore never turns text into markup by accident without paying for it, and the
//! original's own faults stay allowed. An element left open is its start tag alone and
//! what it held its parent's, so unclosed tags make a list, not a chain.
//! Both passes (parse, then tree) run without recursion.

use std::collections::BTreeMap;
use std::ops::Range;

use super::mathml::PROFILE;
use super::xml::{TAG_SPACE, add_text_span, markup_units, tag_spaces, whitespace};
use super::{
    Frontend, Grain, SyntaxError, bom_len, deletion_span, line_and_column, take_whitespace,
};
use crate::tree::{Edit, Labels, Node, NodeId, NodeKind, Tree};

/// HTML, held to the parse errors of the page it reduces.
#[derive(Debug, Clone, Copy, Default)]
pub struct Html {
    /// How many parse errors a candidate may have: as many as the original.
    errors: usize,
    /// The original opens with a DOCTYPE, which candidates keep whatever errors they
    /// spare (without it browsers read a page in quirks mode, by other rules).
    doctype: bool,
    /// How many errors of each kind of [`MOVING`] the original has: a candidate has no
    /// more of that kind, whatever other errors it spares.
    moving: [usize; MOVING.len()],
}

/// The parse errors after which a browser's tree is not the text's: it drops a table part
/// or a frame, adds a row, moves content out of a table, reads CDATA as a comment, or
/// leaves open an element whose `/>` closes nothing. Another error the original has (a
/// `&copy` without its `;`) is no licence for one.
const MOVING: [&str; 6] = [
    CDATA_OUTSIDE,
    PART_OUTSIDE,
    CELL_OUTSIDE,
    FRAME_OUTSIDE,
    FOSTERED,
    SELF_CLOSED,
];

const CDATA_OUTSIDE: &str = "a CDATA section outside SVG and MathML";
const PART_OUTSIDE: &str = "a table part outside a table";
const CELL_OUTSIDE: &str = "a table cell outside a row";
const FRAME_OUTSIDE: &str = "a frame outside a frameset";
const FOSTERED: &str = "content in a table outside its cells";
/// `<mi/>` hoisted out of its `<math>`, where `/>` closes nothing and the element holds
/// what follows (`<style/>` all the rest of the page).
const SELF_CLOSED: &str = "a `/>` on an HTML element that is not void";

/// How many of `errors` are of each kind of [`MOVING`].
fn moving(errors: &[(usize, &'static str)]) -> [usize; MOVING.len()] {
    let mut counts = [0; MOVING.len()];
    for (_, what) in errors {
        if let Some(kind) = MOVING.iter().position(|m| m == what) {
            counts[kind] += 1;
        }
    }
    counts
}

impl Html {
    /// The front end for reducing `original`: candidates may have as many parse errors
    /// as it has, no more, and keep its DOCTYPE.
    pub fn for_original(original: &str) -> Self {
        let errors = Dom::parse(original).errors;
        Html {
            doctype: !lacks_doctype(&errors),
            errors: errors.len(),
            moving: moving(&errors),
        }
    }

    /// The tree of `text` down to `limit`, or the parse error that is one too many.
    fn tree(&self, text: &str, limit: Option<u32>) -> Result<Tree, SyntaxError> {
        let dom = self.dom(text)?;
        let slack = dom.errors.len() < self.errors && !self.doctype;
        Ok(build(text, &dom, limit, slack))
    }

    /// The parse error of `dom` that makes it invalid: one beyond the original's count,
    /// one of a kind of [`MOVING`] beyond the original's count of that kind, or a DOCTYPE
    /// lost.
    fn excess<'d>(&self, dom: &'d Dom) -> Option<&'d (usize, &'static str)> {
        if self.doctype && lacks_doctype(&dom.errors) {
            return dom.errors.first();
        }
        let counts = moving(&dom.errors);
        if let Some(kind) = (0..MOVING.len()).find(|&k| counts[k] > self.moving[k]) {
            return dom
                .errors
                .iter()
                .rev()
                .find(|(_, what)| *what == MOVING[kind]);
        }
        dom.errors.get(self.errors)
    }

    /// `text` parsed, or the parse error that makes it invalid.
    fn dom(&self, text: &str) -> Result<Dom, SyntaxError> {
        let dom = Dom::parse(text);
        match self.excess(&dom) {
            None => Ok(dom),
            Some(&(at, what)) => {
                let (line, column) = line_and_column(text, at);
                let why = if what == NO_DOCTYPE {
                    String::from("the original has one")
                } else if MOVING.contains(&what) {
                    String::from("one more than the original has")
                } else {
                    format!("a parse error beyond the {} the original has", self.errors)
                };
                Err(SyntaxError {
                    line: line as u32,
                    column: column as u32,
                    message: format!("{what} ({why})"),
                })
            }
        }
    }
}

/// The parse error of a page without a DOCTYPE.
const NO_DOCTYPE: &str = "no DOCTYPE";

/// True when `errors` (a page's parse errors) say that it has no DOCTYPE.
fn lacks_doctype(errors: &[(usize, &'static str)]) -> bool {
    errors.first().is_some_and(|&(_, what)| what == NO_DOCTYPE)
}

impl Frontend for Html {
    fn parse(&self, text: &str) -> Result<Tree, SyntaxError> {
        self.tree(text, None)
    }

    fn parse_to(&self, text: &str, depth: u32) -> Result<Tree, SyntaxError> {
        self.tree(text, Some(depth))
    }

    fn is_valid(&self, text: &str) -> bool {
        self.excess(&Dom::parse(text)).is_none()
    }

    /// A browser builds the same empty document from any text of nothing but whitespace.
    fn blank_is_empty(&self) -> bool {
        true
    }

    fn units(&self, text: &str, node: &Node, grain: Grain) -> Vec<Range<usize>> {
        markup_units(text, node, grain, attribute_value)
    }
}

/// Elements that never have content or an end tag.
const VOID: &[&str] = &[
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input",
    "keygen", "link", "meta", "param", "source", "track", "wbr",
];

/// Elements whose content is text up to their own end tag, markup or not.
const RAW: &[&str] = &[
    "iframe", "noembed", "noframes", "noscript", "script", "style", "textarea", "title", "xmp",
];

/// Elements whose end tag HTML lets a page leave out: no parse error when one is open
/// where an element around it ends, or at the end of the text.
const OPTIONAL_END: &[&str] = &[
    "body", "caption", "colgroup", "dd", "dt", "head", "html", "li", "optgroup", "option", "p",
    "rb", "rp", "rt", "rtc", "tbody", "td", "tfoot", "th", "thead", "tr",
];

/// Start tags that end an open `<p>`.
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "center",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "li",
    "listing",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "pre",
    "search",
    "section",
    "summary",
    "table",
    "ul",
    "xmp",
];

/// MathML and SVG elements whose children are HTML again.
const INTEGRATION_POINTS: &[&str] = &[
    "annotation-xml",
    "desc",
    "foreignobject",
    "mi",
    "mn",
    "mo",
    "ms",
    "mtext",
    "title",
];

/// Elements HTML's parser treats apart ("special"): a start tag's search for an open
/// `<li>` to close stops at one (but for `address`, `div` and `p`), and so does the
/// search of an end tag of an ordinary element for its element.
const SPECIAL: &[&str] = &[
    "address",
    "applet",
    "area",
    "article",
    "aside",
    "base",
    "basefont",
    "bgsound",
    "blockquote",
    "body",
    "br",
    "button",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "embed",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "iframe",
    "img",
    "input",
    "keygen",
    "li",
    "link",
    "listing",
    "main",
    "marquee",
    "menu",
    "meta",
    "nav",
    "noembed",
    "noframes",
    "noscript",
    "object",
    "ol",
    "p",
    "param",
    "plaintext",
    "pre",
    "script",
    "search",
    "section",
    "select",
    "source",
    "style",
    "summary",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul",
    "wbr",
    "xmp",
];

/// Elements that bound the scope in which a tag looks for the open element it closes.
const SCOPE: &[&str] = &[
    "applet", "caption", "html", "marquee", "object", "table", "td", "template", "th",
];

/// True for the elements that hold a table's rows: the table and its row groups.
fn holds_rows(name: &str) -> bool {
    matches!(name, "table" | "tbody" | "thead" | "tfoot")
}

/// True for the elements whose content, cells aside, stands in a table's body: the table,
/// its row groups and its rows.
fn holds_cells(name: &str) -> bool {
    holds_rows(name) || name == "tr"
}

/// Elements that may stand in a table outside its cells (others are moved out of it).
const IN_TABLE: &[&str] = &[
    "caption", "col", "colgroup", "form", "input", "script", "style", "table", "tbody", "td",
    "template", "tfoot", "th", "thead", "tr",
];

/// Elements whose end tags look for their element in table scope.
const TABLE_PARTS: &[&str] = &[
    "caption", "colgroup", "table", "tbody", "td", "tfoot", "th", "thead", "tr",
];

/// Formatting elements: their end tags look past special elements (browsers then
/// rearrange the tree, which spans cannot show).
const FORMATTING: &[&str] = &[
    "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u",
];

/// Start tags that end foreign content (`<math><mi>x</mi><div>` puts the `<div>` after the
/// `<math>`).
const BREAKOUT: &[&str] = &[
    "b",
    "big",
    "blockquote",
    "body",
    "br",
    "center",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "hr",
    "i",
    "img",
    "li",
    "listing",
    "menu",
    "meta",
    "nobr",
    "ol",
    "p",
    "pre",
    "ruby",
    "s",
    "small",
    "span",
    "strike",
    "strong",
    "sub",
    "sup",
    "table",
    "tt",
    "u",
    "ul",
    "var",
];

/// What may stand in an open `<head>`; any other start tag ends it.
const METADATA: &[&str] = &[
    "base", "basefont", "bgsound", "link", "meta", "noframes", "noscript", "script", "style",
    "template", "title",
];

fn is_heading(name: &str) -> bool {
    matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// True when a start tag named `new` ends the open element named `open` (both lower case).
fn closed_by(open: &str, new: &str) -> bool {
    match open {
        "p" => CLOSES_P.contains(&new),
        "li" => new == "li",
        "dt" | "dd" => matches!(new, "dt" | "dd"),
        "option" => matches!(new, "option" | "optgroup" | "hr"),
        "optgroup" => matches!(new, "optgroup" | "hr"),
        "select" => matches!(new, "input" | "keygen" | "select" | "textarea"),
        "tr" => matches!(new, "tr" | "thead" | "tbody" | "tfoot"),
        "td" | "th" => matches!(new, "td" | "th" | "tr" | "thead" | "tbody" | "tfoot"),
        "thead" | "tbody" | "tfoot" => matches!(new, "thead" | "tbody" | "tfoot"),
        "caption" => matches!(
            new,
            "caption" | "col" | "colgroup" | "tbody" | "td" | "tfoot" | "th" | "thead" | "tr"
        ),
        "rb" | "rt" | "rp" => matches!(new, "rb" | "rt" | "rtc" | "rp"),
        "rtc" => matches!(new, "rb" | "rtc"),
        "head" => !METADATA.contains(&new),
        "colgroup" => new != "col",
        "a" | "button" | "nobr" => new == open,
        _ => false,
    }
}

/// True when the search of a start tag named `new` for an open element it closes stops
/// at the open element `item` (it cannot close what lies beyond).
fn bounds_start(item: &Item, new: &str) -> bool {
    let name = item.name.as_str();
    item.foreign
        || SCOPE.contains(&name)
        || (name == "button" && CLOSES_P.contains(&new))
        || (matches!(new, "li" | "dd" | "dt")
            && SPECIAL.contains(&name)
            && !matches!(name, "address" | "div" | "p"))
        // A second `<a>` inside a block of the first leaves the first open there.
        || (matches!(new, "a" | "nobr") && SPECIAL.contains(&name))
        // These close only elements whose end tags may be left out, from the top down.
        || (matches!(new, "rb" | "rt" | "rtc" | "rp" | "option" | "optgroup")
            && !OPTIONAL_END.contains(&name))
}

/// True when the search of an end tag named `name` for its element stops at the open
/// element `item`, which is not that element.
fn bounds_end(item: &Item, name: &str) -> bool {
    let open = item.name.as_str();
    if item.foreign {
        return false;
    }
    if TABLE_PARTS.contains(&name) {
        // Table scope: a cell's end tag closes its cell's row, a table's its cells.
        return matches!(open, "html" | "table" | "template");
    }
    SCOPE.contains(&open)
        || (name == "p" && open == "button")
        || (name == "li" && matches!(open, "ol" | "ul"))
        || (!SPECIAL.contains(&name) && !FORMATTING.contains(&name) && SPECIAL.contains(&open))
}

/// HTML's whitespace.
fn is_html_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// True when `b` ends a tag's name.
fn ends_name(b: u8) -> bool {
    is_html_space(b) || b == b'/' || b == b'>'
}

/// The name of the tag whose name begins `text`, in lower case.
fn tag_name(text: &str) -> String {
    let end = text.bytes().position(ends_name).unwrap_or(text.len());
    text[..end].to_ascii_lowercase()
}

/// What an item of the parsed page is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The whole text; item 0, never a node of its own.
    Document,
    Element,
    /// A comment, DOCTYPE, processing instruction or other markup that means nothing to
    /// the tree; its label says which.
    Other(&'static str),
}

/// An element, comment or stray tag of the parsed page.
#[derive(Debug, Clone)]
struct Item {
    kind: Kind,
    span: Range<usize>,
    /// The element's name in lower case.
    name: String,
    /// Between the start tag and the end tag (or where the element was closed without one).
    content: Range<usize>,
    /// Whether the element ends with an end tag of its own.
    closed: bool,
    /// MathML or SVG (its own `/>` counts, its children are foreign unless it is an
    /// integration point).
    foreign: bool,
    /// Void, self-closed in foreign content, or raw text: no child elements, no unwrap.
    atomic: bool,
    /// Left open where it needs an end tag: its start tag alone, what it holds its
    /// parent's (see `Dom::close_open`).
    flat: bool,
    /// For a flat element: where what it held ends.
    reach: usize,
    /// `(name, whole attribute)` spans.
    attributes: Vec<(Range<usize>, Range<usize>)>,
    children: Vec<usize>,
}

impl Item {
    fn other(label: &'static str, span: Range<usize>) -> Self {
        Item {
            kind: Kind::Other(label),
            content: span.end..span.end,
            span,
            name: String::new(),
            closed: true,
            foreign: false,
            atomic: true,
            flat: false,
            reach: 0,
            attributes: Vec::new(),
            children: Vec::new(),
        }
    }
}

/// A start tag's pieces.
struct Tag {
    name: Range<usize>,
    end: usize,
    self_closing: bool,
    attributes: Vec<(Range<usize>, Range<usize>)>,
}

/// Reads the start tag at `start` (a `<` and a letter) as HTML's tokenizer does; `None`
/// when the text ends inside it.
fn read_tag(text: &str, start: usize) -> Option<Tag> {
    let bytes = text.as_bytes();
    let mut i = start + 1;
    while i < bytes.len() && !ends_name(bytes[i]) {
        i += 1;
    }
    let name = start + 1..i;
    let mut attributes = Vec::new();
    loop {
        while i < bytes.len() && (is_html_space(bytes[i]) || bytes[i] == b'/') {
            i += 1;
        }
        match bytes.get(i)? {
            b'>' => {
                return Some(Tag {
                    name,
                    end: i + 1,
                    self_closing: bytes[i - 1] == b'/',
                    attributes,
                });
            }
            _ => {
                let name_start = i;
                // A name may begin with `=`; after that `=` ends it.
                i += 1;
                while i < bytes.len() && !ends_name(bytes[i]) && bytes[i] != b'=' {
                    i += 1;
                }
                let name = name_start..i;
                let mut j = i;
                while j < bytes.len() && is_html_space(bytes[j]) {
                    j += 1;
                }
                if bytes.get(j) == Some(&b'=') {
                    j += 1;
                    while j < bytes.len() && is_html_space(bytes[j]) {
                        j += 1;
                    }
                    match bytes.get(j)? {
                        &quote @ (b'"' | b'\'') => {
                            let close = text[j + 1..].find(quote as char)?;
                            i = j + 1 + close + 1;
                        }
                        b'>' => i = j,
                        _ => {
                            i = j;
                            while i < bytes.len() && !is_html_space(bytes[i]) && bytes[i] != b'>' {
                                i += 1;
                            }
                        }
                    }
                }
                attributes.push((name.clone(), name.start..i));
            }
        }
    }
}

/// The value of the attribute spanning `span`, without its quotes; `None` for a bare one.
pub(super) fn attribute_value(text: &str, span: Range<usize>) -> Option<Range<usize>> {
    let raw = &text[span.clone()];
    let eq = raw.find('=')?;
    let value = raw[eq + 1..].trim_start_matches(|c: char| c.is_ascii_whitespace());
    let start = span.end - value.len();
    match value.as_bytes().first() {
        Some(b'"' | b'\'') if value.len() >= 2 => Some(start + 1..span.end - 1),
        Some(_) => Some(start..span.end),
        None => None,
    }
}

/// Where `text` (ASCII, lower case) occurs in `hay` from `from` on, in any case.
pub(super) fn find_ignoring_case(hay: &str, from: usize, text: &str) -> Option<usize> {
    let bytes = hay.as_bytes();
    let needle = text.as_bytes();
    (from..bytes.len().saturating_sub(needle.len() - 1))
        .find(|&i| bytes[i..i + needle.len()].eq_ignore_ascii_case(needle))
}

/// What `text` opens with once a byte-order mark, whitespace and comments are skipped.
pub(super) fn opening(text: &str) -> &str {
    let mut rest = text.trim_start_matches('\u{feff}').trim_start();
    while rest.starts_with("<!--") {
        let (end, _) = comment_end(rest, 0);
        rest = rest[end..].trim_start();
    }
    rest
}

/// Where the comment that begins at `start` of `text` (with `<!--`) ends, as HTML's
/// tokenizer reads it, and the parse error it is, if any: `<!-->` and `<!--->` are whole
/// (empty) comments, and `--!>` ends one as `-->` does.
fn comment_end(text: &str, start: usize) -> (usize, Option<&'static str>) {
    let body = start + "<!--".len();
    let rest = &text[body..];
    for closing in [">", "->"] {
        if rest.starts_with(closing) {
            return (
                body + closing.len(),
                Some("an empty comment closed at once"),
            );
        }
    }
    let plain = rest.find("-->").map(|at| (at, at + 3, None));
    let banged = rest
        .find("--!>")
        .map(|at| (at, at + 4, Some("a comment closed by `--!>`")));
    match [plain, banged]
        .into_iter()
        .flatten()
        .min_by_key(|&(at, _, _)| at)
    {
        Some((_, end, error)) => (body + end, error),
        None => (text.len(), Some("a comment the text ends in")),
    }
}

/// True when `text` starts with `prefix` (ASCII) in any case.
pub(super) fn starts_with_ignoring_case(text: &str, prefix: &str) -> bool {
    text.as_bytes()
        .get(..prefix.len())
        .is_some_and(|b| b.eq_ignore_ascii_case(prefix.as_bytes()))
}

/// Character references the text ends without their `;` (`&not` in `a &not b`, which a
/// shrunk `a & not b` spells), each a parse error at its `&`.
fn unterminated_references(
    text: &str,
    span: Range<usize>,
    errors: &mut Vec<(usize, &'static str)>,
) {
    let bytes = text.as_bytes();
    for (at, _) in text[span.clone()].match_indices('&') {
        let at = span.start + at;
        let mut end = at + 1;
        if bytes.get(end) == Some(&b'#') {
            end += 1;
        }
        let name = end;
        while end < span.end && bytes[end].is_ascii_alphanumeric() {
            end += 1;
        }
        if end > name && bytes.get(end) != Some(&b';') {
            errors.push((at, "a character reference without its `;`"));
        }
    }
}

/// True when `text` holds, at `at`, `tag` (`</script`, `<script`: ASCII, lower case) in
/// any case, followed by what ends a tag name (or the end of the text).
fn tag_at(text: &str, at: usize, tag: &str) -> bool {
    starts_with_ignoring_case(&text[at..], tag)
        && text
            .as_bytes()
            .get(at + tag.len())
            .is_none_or(|&b| ends_name(b))
}

/// Where the end tag of a script whose text begins at `from` begins: the first
/// `</script`, but inside a `<!--` of the script a `<script` starts text in which
/// `</script` ends nothing until `-->` (old pages write `document.write("<!--<script>
/// ...</script>")`); `None` when the text ends first.
fn script_end(text: &str, from: usize) -> Option<usize> {
    #[derive(PartialEq)]
    enum State {
        Data,
        Escaped,
        DoubleEscaped,
    }
    let mut state = State::Data;
    let mut at = from;
    while let Some(next) = text[at..].find(['<', '-']).map(|i| at + i) {
        let rest = &text[next..];
        if state == State::Data && rest.starts_with("<!--") {
            state = State::Escaped;
            // The dashes may also close it (`<!-->`).
            at = next + 2;
        } else if state != State::Data && rest.starts_with("-->") {
            state = State::Data;
            at = next + 3;
        } else if tag_at(text, next, "</script") {
            if state != State::DoubleEscaped {
                return Some(next);
            }
            state = State::Escaped;
            at = next + 8;
        } else if state == State::Escaped && tag_at(text, next, "<script") {
            state = State::DoubleEscaped;
            at = next + 7;
        } else {
            at = next + 1;
        }
    }
    None
}

/// The parsed page: items in document order (item 0 is the document) and its parse errors
/// (where, and what).
struct Dom {
    items: Vec<Item>,
    errors: Vec<(usize, &'static str)>,
    /// While parsing: the open elements, innermost last (the document first).
    open: Vec<usize>,
    /// While parsing: how many elements of each name are open.
    names: BTreeMap<String, usize>,
}

impl Dom {
    fn parse(text: &str) -> Dom {
        let mut dom = Dom {
            items: vec![Item {
                kind: Kind::Document,
                span: 0..text.len(),
                name: String::new(),
                // A byte-order mark is no text: it tells a browser the page is UTF-8 (without
                // it and a `<meta charset>`, a page read from a file is windows-1252).
                content: bom_len(text)..text.len(),
                closed: true,
                foreign: false,
                atomic: false,
                flat: false,
                reach: 0,
                attributes: Vec::new(),
                children: Vec::new(),
            }],
            errors: Vec::new(),
            open: vec![0],
            names: BTreeMap::new(),
        };
        let bytes = text.as_bytes();
        let mut i = 0;
        if !starts_with_ignoring_case(opening(text), "<!doctype") {
            // A page without one is read in quirks mode, by other rules.
            dom.errors.push((0, NO_DOCTYPE));
        }
        while let Some(lt) = text[i..].find('<').map(|at| i + at) {
            unterminated_references(text, i..lt, &mut dom.errors);
            dom.foster_text(text, i..lt);
            i = lt;
            let top = dom.top();
            let rest = &text[i..];
            let next = bytes.get(i + 1).copied().unwrap_or(0);
            if rest.starts_with("<!--") {
                let (end, error) = comment_end(text, i);
                if let Some(error) = error {
                    dom.errors.push((i, error));
                }
                dom.add(top, Item::other("#comment", i..end));
                i = end;
            } else if rest.starts_with("<![CDATA[") && dom.items[top].foreign {
                // Character data; a text like any other.
                i = text[i..].find("]]>").map_or(text.len(), |at| i + at + 3);
            } else if matches!(next, b'!' | b'?') || (next == b'/' && rest.len() > 2) {
                let end_tag = next == b'/' && bytes[i + 2].is_ascii_alphabetic();
                let Some(end) = text[i..].find('>').map(|at| i + at + 1) else {
                    dom.errors.push((i, "markup the text ends in"));
                    break;
                };
                if end_tag {
                    let name = tag_name(&text[i + 2..end]);
                    dom.end_tag(text, &name, i..end);
                } else {
                    let doctype = starts_with_ignoring_case(rest, "<!doctype");
                    let label = if doctype { "#doctype" } else { "#comment" };
                    if rest.starts_with("<![CDATA[") {
                        // Only SVG and MathML hold CDATA sections; elsewhere one is a
                        // bogus comment up to its first `>`.
                        dom.errors.push((i, CDATA_OUTSIDE));
                    } else if !doctype {
                        // `<?pi>`, `<!x>`, `<![endif]>`, `</>` and the like are bogus
                        // comments.
                        dom.errors.push((i, "a bogus comment"));
                    }
                    dom.add(top, Item::other(label, i..end));
                }
                i = end;
            } else if next.is_ascii_alphabetic() {
                let Some(tag) = read_tag(text, i) else {
                    dom.errors.push((i, "a tag the text ends in"));
                    break;
                };
                i = dom.start_tag(text, i, tag);
            } else {
                // A `<` that starts nothing is text.
                dom.errors.push((i, "a `<` that starts no markup"));
                i += 1;
            }
        }
        unterminated_references(text, i..text.len(), &mut dom.errors);
        dom.foster_text(text, i..text.len());
        while dom.open.len() > 1 {
            dom.close_open(text, text.len());
        }
        dom.open.clear();
        dom.names.clear();
        dom.flatten();
        dom
    }

    /// The children of item `id` that are elements.
    fn elements(&self, id: usize) -> Vec<usize> {
        self.items[id]
            .children
            .iter()
            .copied()
            .filter(|&c| self.items[c].kind == Kind::Element)
            .collect()
    }

    /// The innermost open element (or the document).
    fn top(&self) -> usize {
        self.open.last().copied().unwrap_or(0)
    }

    /// Counts the character data spanning `span` of `text` as moved out of a table (in
    /// front of it) when it is more than spaces and stands in a table outside its cells.
    fn foster_text(&mut self, text: &str, span: Range<usize>) {
        let top = &self.items[self.top()];
        let in_table_body = !top.foreign && holds_cells(&top.name);
        if let Some(at) = text[span.clone()].find(|c: char| !c.is_ascii_whitespace())
            && in_table_body
        {
            self.errors.push((span.start + at, FOSTERED));
        }
    }

    /// True when an element named `name` is open.
    fn is_open(&self, name: &str) -> bool {
        self.names.get(name).is_some_and(|&n| n > 0)
    }

    fn add(&mut self, parent: usize, item: Item) -> usize {
        let id = self.items.len();
        self.items.push(item);
        self.items[parent].children.push(id);
        id
    }

    fn push_open(&mut self, id: usize) {
        self.open.push(id);
        *self.names.entry(self.items[id].name.clone()).or_insert(0) += 1;
    }

    fn pop_open(&mut self) -> Option<usize> {
        let id = self.open.pop().filter(|&id| id != 0)?;
        if let Some(n) = self.names.get_mut(&self.items[id].name) {
            *n -= 1;
        }
        Some(id)
    }

    /// Closes the innermost open element where `at` begins, without an end tag.
    fn close_open(&mut self, text: &str, at: usize) {
        let Some(id) = self.pop_open() else { return };
        let last_child = self.items[id]
            .children
            .last()
            .map(|&c| self.items[c].span.end.max(self.items[c].reach));
        let item = &mut self.items[id];
        // Whitespace before what closed it belongs to the parent (but not a child's own,
        // as in a comment the text ends in).
        let end = text[item.content.start..at]
            .trim_end_matches(|c: char| c.is_ascii() && is_html_space(c as u8))
            .len()
            + item.content.start;
        let end = end.max(last_child.unwrap_or(end));
        item.content.end = end;
        item.span.end = end;
        item.closed = false;
        if item.foreign || !OPTIONAL_END.contains(&item.name.as_str()) {
            self.errors.push((item.span.start, "an element left open"));
            // Its start tag alone is its node, and what it held follows it: a page of
            // unclosed `<font>` tags (or XHTML's `<span/>` read as HTML) nests everything
            // after each in it, a chain hierarchical deletion would walk a call or more
            // per level (a 300-entry guestbook: 522 calls, where lines took 20).
            item.reach = end;
            item.span.end = item.content.start;
            item.content.end = item.content.start;
            item.atomic = true;
            item.flat = true;
        }
    }

    /// Gives the children of every element left open (see `close_open`) to the nearest
    /// element around it that was closed, in document order, in one pass over the items.
    fn flatten(&mut self) {
        let mut held = Vec::new();
        for id in 0..self.items.len() {
            let item = &self.items[id];
            if item.flat || !item.children.iter().any(|&c| self.items[c].flat) {
                continue;
            }
            let mut children = Vec::with_capacity(item.children.len());
            held.extend(item.children.iter().rev().copied());
            while let Some(child) = held.pop() {
                children.push(child);
                if self.items[child].flat {
                    held.extend(self.items[child].children.iter().rev().copied());
                }
            }
            self.items[id].children = children;
        }
        for item in &mut self.items {
            if item.flat {
                item.children.clear();
            }
        }
    }

    /// A tag spanning `span` that changes nothing in the tree: an item of the innermost
    /// open element, a parse error when `error` says which.
    fn inert(&mut self, span: Range<usize>, error: Option<&'static str>) {
        if let Some(error) = error {
            self.errors.push((span.start, error));
        }
        let top = self.top();
        self.add(top, Item::other("#tag", span));
    }

    /// An end tag named `name` spanning `span`: closes the innermost open element of that
    /// name (any heading for a heading's) and those inside it, as far as its scope reaches;
    /// closes nothing, a parse error, when it finds none.
    fn end_tag(&mut self, text: &str, name: &str, span: Range<usize>) {
        let heading = is_heading(name);
        let open = if heading {
            (1..=6).any(|n| self.is_open(&format!("h{n}")))
        } else {
            self.is_open(name)
        };
        let matches =
            |item: &Item| !item.foreign && heading && is_heading(&item.name) || item.name == name;
        let found = open
            .then(|| {
                self.open
                    .iter()
                    .enumerate()
                    .skip(1)
                    .rev()
                    .map(|(depth, &id)| (depth, &self.items[id]))
                    .find(|(_, item)| matches(item) || bounds_end(item, name))
                    .filter(|(_, item)| matches(item))
                    .map(|(depth, _)| depth)
            })
            .flatten();
        let Some(depth) = found else {
            return self.inert(span, Some("an end tag that closes nothing"));
        };
        while self.open.len() > depth + 1 {
            self.close_open(text, span.start);
        }
        if let Some(id) = self.pop_open() {
            let item = &mut self.items[id];
            item.content.end = span.start;
            item.span.end = span.end;
        }
    }

    /// Closes the open elements a start tag named `name` at `at` ends: the innermost one
    /// it closes (a `<p>` for a `<div>`, an `<li>` for an `<li>`) within its scope, with
    /// those inside it, and again while another is found.
    fn close_for(&mut self, text: &str, name: &str, at: usize) {
        loop {
            let closable = self
                .names
                .iter()
                .any(|(open, &n)| n > 0 && closed_by(open, name));
            let heading_on_top = is_heading(name) && {
                let top = &self.items[self.top()];
                !top.foreign && is_heading(&top.name)
            };
            if !closable && !heading_on_top {
                return;
            }
            // Whether the open element `from_top` places below the innermost one closes.
            let closes = |from_top: usize, item: &Item| {
                !item.foreign && closed_by(&item.name, name) || (from_top == 0 && heading_on_top)
            };
            let found = self
                .open
                .iter()
                .enumerate()
                .skip(1)
                .rev()
                .map(|(depth, &id)| (depth, &self.items[id]))
                .enumerate()
                .find(|&(from_top, (_, item))| closes(from_top, item) || bounds_start(item, name))
                .filter(|&(from_top, (_, item))| closes(from_top, item))
                .map(|(_, (depth, _))| depth);
            let Some(depth) = found else { return };
            while self.open.len() > depth {
                self.close_open(text, at);
            }
        }
    }

    /// A start tag `tag` at `start`: adds its element and returns where parsing goes on.
    fn start_tag(&mut self, text: &str, start: usize, tag: Tag) -> usize {
        let name = text[tag.name.clone()].to_ascii_lowercase();
        if matches!(name.as_str(), "html" | "body" | "head") && self.is_open(&name) {
            // Its attributes go to the open one; no element of its own.
            self.inert(
                start..tag.end,
                Some("a second start tag of the page's frame"),
            );
            return tag.end;
        }
        // An HTML element ends the foreign content it stands in.
        if BREAKOUT.contains(&name.as_str()) {
            loop {
                let top = &self.items[self.top()];
                if !top.foreign || INTEGRATION_POINTS.contains(&top.name.as_str()) {
                    break;
                }
                self.close_open(text, start);
            }
        }
        self.close_for(text, &name, start);
        let parent = self.top();
        let around = &self.items[parent];
        let foreign = matches!(name.as_str(), "math" | "svg")
            || (around.foreign && !INTEGRATION_POINTS.contains(&around.name.as_str()));
        let in_table_body = holds_cells(&around.name);
        if !foreign && name != "table" && (name == "col" || TABLE_PARTS.contains(&name.as_str())) {
            // A browser drops a table part that stands in no table (a `<td>` hoisted out
            // of its `<table>`), and puts a row around a cell that stands in none.
            let rowless = matches!(name.as_str(), "td" | "th") && holds_rows(&around.name);
            if !self.is_open("table") && !self.is_open("template") {
                self.errors.push((start, PART_OUTSIDE));
            } else if rowless {
                self.errors.push((start, CELL_OUTSIDE));
            }
        }
        if !foreign && tag.self_closing && !VOID.contains(&name.as_str()) {
            self.errors.push((start, SELF_CLOSED));
        }
        if !foreign && name == "frame" && !self.is_open("frameset") {
            self.errors.push((start, FRAME_OUTSIDE));
        }
        if !foreign && in_table_body && !IN_TABLE.contains(&name.as_str()) {
            // Moved out, in front of the table.
            self.errors.push((start, FOSTERED));
        }
        let mut item = Item {
            kind: Kind::Element,
            span: start..tag.end,
            name,
            content: tag.end..tag.end,
            closed: true,
            foreign,
            atomic: true,
            flat: false,
            reach: 0,
            attributes: tag.attributes,
            children: Vec::new(),
        };
        if foreign && tag.self_closing || !foreign && VOID.contains(&item.name.as_str()) {
            // Complete as it stands.
        } else if !foreign && item.name == "plaintext" {
            // Text to the end of the page: no tag ends it, and no parse error.
            item.content.end = text.len();
            item.span.end = text.len();
            item.closed = false;
        } else if !foreign && RAW.contains(&item.name.as_str()) {
            let close = format!("</{}", item.name);
            let end_tag = if item.name == "script" {
                script_end(text, tag.end)
            } else {
                std::iter::successors(find_ignoring_case(text, tag.end, &close), |&at| {
                    find_ignoring_case(text, at + 1, &close)
                })
                .find(|&at| tag_at(text, at, &close))
            };
            match end_tag.and_then(|at| text[at..].find('>').map(|gt| (at, at + gt + 1))) {
                Some((at, end)) => {
                    item.content.end = at;
                    item.span.end = end;
                }
                None => {
                    self.errors
                        .push((start, "an element whose end tag is missing"));
                    item.content.end = text.len();
                    item.span.end = text.len();
                    item.closed = false;
                }
            }
        } else {
            item.atomic = false;
            let id = self.add(parent, item);
            self.push_open(id);
            return tag.end;
        }
        let end = item.span.end;
        self.add(parent, item);
        end
    }
}

/// What a child needs to know of the element it is added to.
#[derive(Clone)]
struct Context {
    id: NodeId,
    /// The parent's item.
    item: usize,
    /// How many of its children are elements.
    elements: usize,
    /// How many of its first element children are positional (MathML).
    positional: usize,
    in_math: bool,
    /// The element's end tag, when it may go without changing the tree (see
    /// [`redundant_end_tag`]).
    end_tag: Option<Range<usize>>,
}

/// The tree of `dom` (parsed from `text`), with the nodes down to `limit` (all when `None`).
/// `slack`: whether the DOCTYPE may go (a candidate of this text may have a parse error
/// more, and the original had no DOCTYPE to keep).
fn build(text: &str, dom: &Dom, limit: Option<u32>, slack: bool) -> Tree {
    let mut tree = Tree::new(text.len());
    let mut truncated = false;
    let top = Context {
        id: tree.root(),
        item: 0,
        elements: dom.elements(0).len(),
        positional: 0,
        in_math: false,
        end_tag: None,
    };
    // What to add, pushed in reverse so that it pops in document order (the arena and
    // every node's children stay in document order): items, and the character data
    // between them.
    let mut stack: Vec<Next> = Vec::new();
    let mut labels = Labels::default();
    push_content(&mut stack, dom, &top);
    while let Some(next) = stack.pop() {
        let (id, parent) = match next {
            Next::Text(span, parent) => {
                add_text_span(text, &mut tree, parent, span);
                continue;
            }
            Next::EndTag(span, parent) => {
                let label = OPTIONAL_END_TAG.into();
                tree.push(
                    parent,
                    Node::new(NodeKind::Whitespace, label, span.clone(), Some(span)),
                );
                continue;
            }
            Next::Item(id, parent) => (id, parent),
        };
        let item = &dom.items[id];
        match item.kind {
            Kind::Element => {
                let context = add_element(text, &mut tree, dom, id, &parent, &mut labels);
                if limit.is_some_and(|limit| tree.node(context.id).depth >= limit) {
                    truncated |= !item.content.is_empty();
                    continue;
                }
                push_content(&mut stack, dom, &context);
            }
            Kind::Other(label) => {
                let delete = (slack || label != "#doctype")
                    .then(|| deletion_span(text, item.span.start, item.span.end));
                let mut other =
                    Node::new(NodeKind::Comment, label.into(), item.span.clone(), delete);
                // A legacy DOCTYPE (HTML 4.01's, with its public and system identifiers)
                // may give way to the shortest. That may change the mode browsers read the
                // page in (quirks to standards, for a Transitional one): not a parse
                // error, but a change the test judges, as it judges any edit.
                const SHORTEST: &str = "<!DOCTYPE html>";
                if label == "#doctype" && item.span.len() > SHORTEST.len() {
                    other.alternatives =
                        vec![vec![Edit::replace(item.span.clone(), SHORTEST.into())]];
                }
                tree.push(parent.id, other);
            }
            Kind::Document => {}
        }
    }
    if let (true, Some(limit)) = (truncated, limit) {
        tree.set_limit(limit);
    }
    tree
}

/// What `build` adds next: an item under a parent, or a text of a parent.
enum Next {
    Item(usize, Context),
    Text(Range<usize>, NodeId),
    EndTag(Range<usize>, NodeId),
}

/// Pushes the content of the element (or document) of `context` on `stack`, last first:
/// its children and the character data between them.
fn push_content(stack: &mut Vec<Next>, dom: &Dom, context: &Context) {
    let item = &dom.items[context.item];
    let mut content = Vec::with_capacity(2 * item.children.len() + 1);
    let mut at = item.content.start;
    for &child in &item.children {
        let span = &dom.items[child].span;
        if span.start > at {
            content.push(Next::Text(at..span.start, context.id));
        }
        content.push(Next::Item(child, context.clone()));
        at = at.max(span.end);
    }
    if item.content.end > at {
        content.push(Next::Text(at..item.content.end, context.id));
    }
    if let Some(span) = context.end_tag.clone() {
        content.push(Next::EndTag(span, context.id));
    }
    stack.extend(content.into_iter().rev());
}

/// The label of an end tag that may go (see [`redundant_end_tag`]).
const OPTIONAL_END_TAG: &str = "#optional-end-tag";

/// The end tag of `item` (within `parent`) when it may go without changing the tree:
/// its end is one HTML lets a page leave out (`</li>`, `</td>`, `</p>`), and what follows
/// it (past whitespace) would close the element anyway: the end of the text, the end tag
/// of the element around it, or a start tag that closes it (`<li>` after `</li>`). The
/// squeeze pass takes such tags away with the formatting.
fn redundant_end_tag(text: &str, item: &Item, parent: &Item) -> Option<Range<usize>> {
    let tag = item.content.end..item.span.end;
    if item.foreign
        || item.atomic
        || !item.closed
        || tag.is_empty()
        || !OPTIONAL_END.contains(&item.name.as_str())
    {
        return None;
    }
    let rest = text[tag.end..].trim_start_matches(|c: char| c.is_ascii() && is_html_space(c as u8));
    let closes = if rest.is_empty() {
        true
    } else if let Some(after) = rest.strip_prefix("</") {
        after.starts_with(|c: char| c.is_ascii_alphabetic()) && tag_name(after) == parent.name
    } else {
        rest.len() > 1
            && rest.as_bytes()[1].is_ascii_alphabetic()
            && rest.starts_with('<')
            && closed_by(&item.name, &tag_name(&rest[1..]))
    };
    closes.then_some(tag)
}

/// A table's structure undone: the tags of the table, its row groups, rows, cells and
/// caption go (column groups go whole), and what the cells hold stays, each cell's apart
/// from the next. Any one of those unwrapped alone leaves a row or a cell outside its
/// table, a parse error the page did not have, so a needle in a cell would keep the table
/// around it (unless the page's tables have all their parts, `<tbody>` too, which makes
/// them a chain of single children). Nested tables and what else the table holds (a
/// form, a script) stay as they are.
fn table_unwrap(text: &str, dom: &Dom, table: usize) -> Vec<Edit> {
    let mut edits = Vec::new();
    let mut stack = vec![table];
    while let Some(id) = stack.pop() {
        let item = &dom.items[id];
        if matches!(item.name.as_str(), "col" | "colgroup") {
            edits.push(Edit::delete(item.span.clone()));
            continue;
        }
        edits.push(Edit::delete_apart(item.span.start..item.content.start));
        if item.closed {
            edits.push(Edit::delete_apart(item.content.end..item.span.end));
        }
        if holds_cells(&item.name) {
            stack.extend(dom.elements(id).into_iter().filter(|&c| {
                let name = dom.items[c].name.as_str();
                let part = name != "table" && (TABLE_PARTS.contains(&name) || name == "col");
                part && !dom.items[c].foreign
            }));
        }
    }
    edits.retain(|e| !e.span.is_empty() && e.span.end <= text.len());
    edits.sort_by_key(|e| e.span.start);
    edits
}

fn add_element(
    text: &str,
    tree: &mut Tree,
    dom: &Dom,
    id: usize,
    parent: &Context,
    labels: &mut Labels,
) -> Context {
    let item = &dom.items[id];
    let range = item.span.clone();
    let content = item.content.clone();
    let around = &dom.items[parent.item];
    let elements = dom.elements(id);
    // An element is MathML inside `<math>` only: out of it, a browser makes `<mfrac>` an
    // unknown HTML element whose children are positional no more (a field trial's
    // `<msup><mi></mi><mn></mn></msup>` kept its placeholders once `<math>` had gone).
    let mathml = parent.in_math || item.name == "math";
    let positional = parent.positional > 0
        && around
            .children
            .iter()
            .take_while(|&&c| c != id)
            .filter(|&&c| dom.items[c].kind == Kind::Element)
            .take(parent.positional)
            .count()
            < parent.positional;
    let at_top = parent.item == 0;
    let alone_at_top = at_top && parent.elements == 1;
    let delete =
        (!alone_at_top && !positional).then(|| deletion_span(text, range.start, range.end));
    let mut alternatives = Vec::new();
    // Where `/>` closes nothing (a fraction hoisted out of its `<math>`), the placeholder
    // closes with an end tag.
    let placeholder = match PROFILE.placeholder.strip_suffix("/>") {
        Some(open) if !around.foreign => format!("{open}></{}>", &open[1..]),
        _ => PROFILE.placeholder.clone(),
    };
    if positional && text[range.clone()] != placeholder {
        alternatives.push(vec![Edit::replace(range.clone(), placeholder)]);
    }
    let blank = text[content.clone()].bytes().all(is_html_space);
    // As in XML, a MathML element whose children have places may be emptied whole (in
    // MathML, `/>` closes it).
    if mathml
        && item.foreign
        && item.closed
        && !item.atomic
        && PROFILE.positional(&item.name) > 0
        && !elements.is_empty()
    {
        alternatives.push(vec![Edit::replace(
            content.start - 1..range.end,
            String::from("/>"),
        )]);
    }
    // `<mi> </mi>` says the same as `<mi/>`, in foreign content only: `<p/>` opens a `<p>`.
    if item.foreign && item.closed && !item.atomic && blank {
        alternatives.push(vec![Edit::replace(
            content.start - 1..range.end,
            String::from("/>"),
        )]);
    }
    let has_text = !item.atomic && !blank && {
        let mut at = content.start;
        let mut found = false;
        for &c in &item.children {
            let span = &dom.items[c].span;
            found |= !text[at..span.start].bytes().all(is_html_space);
            at = span.end;
        }
        found || !text[at..content.end].bytes().all(is_html_space)
    };
    let single = elements.len() == 1 && !has_text;
    if item.name == "table" && !item.foreign {
        alternatives.push(table_unwrap(text, dom, id));
    }
    if !item.atomic && (single || !positional) {
        let mut unwrap = vec![Edit::delete(deletion_span(
            text,
            range.start,
            content.start,
        ))];
        if item.closed {
            unwrap.push(Edit::delete(deletion_span(text, content.end, range.end)));
        }
        alternatives.push(unwrap);
    }
    if !single && !positional {
        for &child in &elements {
            let c = dom.items[child].span.clone();
            let mut hoist = vec![Edit::delete(range.start..c.start)];
            if c.end < range.end {
                hoist.push(Edit::delete(c.end..range.end));
            }
            alternatives.push(hoist);
        }
    }
    let name_end = range.start + 1 + item.name.len();
    let label = labels.of(&text[range.start + 1..name_end]);
    let end_tag = if item.closed {
        content.end..range.end
    } else {
        range.end..range.end
    };
    let mut element = Node::new(NodeKind::Element, label, range, delete);
    element.alternatives = alternatives;
    let node_id = tree.push(parent.id, element);
    // Spaces before `>` only: before `/>` a space may end an unquoted value (`<a href=x />`).
    let close = content.start - 1;
    for space in tag_spaces(text, name_end, &item.attributes, close, end_tag) {
        tree.push(node_id, whitespace(TAG_SPACE, space));
    }
    for (name, span) in &item.attributes {
        let delete = Some(take_whitespace(text, span.start)..span.end);
        let label = labels.of(&text[name.clone()]);
        let mut attribute = Node::new(NodeKind::Attribute, label, span.clone(), delete);
        // A quoted value may go at once, as in XML (an unquoted one emptied would leave
        // `=` before what follows).
        if let Some(value) = attribute_value(text, span.clone())
            && !value.is_empty()
            && text[..value.start].ends_with(['"', '\''])
            && !text[name.clone()].starts_with("xmlns")
        {
            attribute.alternatives.push(vec![Edit::delete(value)]);
        }
        tree.push(node_id, attribute);
    }
    Context {
        id: node_id,
        item: id,
        elements: elements.len(),
        positional: if mathml {
            PROFILE.positional(&item.name)
        } else {
            0
        },
        in_math: mathml,
        end_tag: redundant_end_tag(text, item, around),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(label, text)` of every node of `text`'s tree but the root, in arena order.
    fn nodes(text: &str) -> Vec<(String, String)> {
        let tree = Html::for_original(text).parse(text).unwrap();
        tree.ids()
            .skip(1)
            .map(|id| {
                let n = tree.node(id);
                (n.label.to_string(), text[n.span.clone()].to_string())
            })
            .collect()
    }

    fn elements(text: &str) -> Vec<String> {
        let tree = Html::for_original(text).parse(text).unwrap();
        tree.ids()
            .filter(|&id| tree.node(id).kind == NodeKind::Element)
            .map(|id| text[tree.node(id).span.clone()].to_string())
            .collect()
    }

    #[test]
    fn void_and_unclosed_elements_take_the_spans_html_gives_them() {
        let page = "<!DOCTYPE html>\n<ul>\n<li>a<br>b\n<li>c\n</ul>\n<p>d<div>e</div>";
        assert_eq!(
            elements(page),
            [
                "<ul>\n<li>a<br>b\n<li>c\n</ul>",
                "<li>a<br>b",
                "<br>",
                "<li>c",
                "<p>d",
                "<div>e</div>"
            ]
        );
        assert!(Dom::parse(page).errors.is_empty());
    }

    /// Each page's elements as browsers build them (checked against parse5, the HTML
    /// standard's parser), where spans can show it.
    #[test]
    fn implied_ends_follow_the_standard_s_scopes() {
        let cases: &[(&str, &[&str])] = &[
            // A block closes the paragraph around the inline element it stands in (the
            // `<span>`, left open, is its start tag alone).
            (
                "<p><span>a<div>b</div>",
                &["<p><span>a", "<span>", "<div>b</div>"],
            ),
            // An item closes the item open in its list, not one in a list further out.
            (
                "<ul><li>a<ul><li>b</ul><li>c</ul>",
                &[
                    "<ul><li>a<ul><li>b</ul><li>c</ul>",
                    "<li>a<ul><li>b</ul>",
                    "<ul><li>b</ul>",
                    "<li>b",
                    "<li>c",
                ],
            ),
            ("<a href=1>x<a href=2>y", &["<a href=1>", "<a href=2>"]),
            // An HTML block ends the MathML around it (left open, so its start tag alone),
            // whose end tag then closes nothing.
            (
                "<math><mi>x</mi><div>y</div></math>",
                &["<math>", "<mi>x</mi>", "<div>y</div>"],
            ),
            // A row's end tag closes its cell; a table's its rows.
            (
                "<table><tr><td>a</tr><tr><td>b</table>",
                &[
                    "<table><tr><td>a</tr><tr><td>b</table>",
                    "<tr><td>a</tr>",
                    "<td>a",
                    "<tr><td>b",
                    "<td>b",
                ],
            ),
            // An inline element's end tag does not reach past a block.
            (
                "<span><div>a</span>b</div>",
                &["<span>", "<div>a</span>b</div>"],
            ),
            ("<h5>a</h3><p>b", &["<h5>a</h3>", "<p>b"]),
            (
                "<head><title>t</title><div>d",
                &["<head><title>t</title>", "<title>t</title>", "<div>"],
            ),
            (
                "<svg><title><i>t</i></title></svg>",
                &[
                    "<svg><title><i>t</i></title></svg>",
                    "<title><i>t</i></title>",
                    "<i>t</i>",
                ],
            ),
        ];
        for (page, expected) in cases {
            assert_eq!(&elements(page), expected, "{page}");
        }
    }

    /// An element left open where it needs its end tag is its start tag alone, and what
    /// it held follows it, so unclosed tags make a list, not a chain.
    #[test]
    fn elements_left_open_hold_nothing() {
        let page = "<!DOCTYPE html><p><font>a<b>b</b><font>c<br></p><div><span>d";
        assert_eq!(
            elements(page),
            [
                "<p><font>a<b>b</b><font>c<br></p>",
                "<font>",
                "<b>b</b>",
                "<font>",
                "<br>",
                "<div>",
                "<span>"
            ]
        );
        let tree = Html::for_original(page).parse(page).unwrap();
        let p = tree.ids().find(|&id| tree.node(id).label == "p").unwrap();
        let texts: Vec<&str> = tree
            .node(p)
            .children
            .iter()
            .map(|&c| &page[tree.node(c).span.clone()])
            .collect();
        assert_eq!(
            texts,
            ["<font>", "a", "<b>b</b>", "<font>", "c", "<br>", "</p>"]
        );
    }

    /// A script that writes `<!--<script>...</script>` ends at the second `</script>`, as
    /// in browsers; without the `<!--`, at the first.
    #[test]
    fn a_script_inside_a_script_comment_does_not_end_it() {
        let page = "<!DOCTYPE html><script><!--\nw('<script>x</script>');\n//--></script><p>a";
        assert_eq!(
            elements(page)[0],
            "<script><!--\nw('<script>x</script>');\n//--></script>"
        );
        let page = "<!DOCTYPE html><script>w('<script>x</script>');</script><p>a";
        assert_eq!(elements(page)[0], "<script>w('<script>x</script>");
        let page = "<!DOCTYPE html><script><!-->a</script><p>";
        assert_eq!(elements(page)[0], "<script><!-->a</script>");
    }

    /// The kinds of parse error in `page`, in order.
    fn error_kinds(page: &str) -> Vec<&'static str> {
        Dom::parse(page)
            .errors
            .into_iter()
            .map(|(_, e)| e)
            .collect()
    }

    /// `<!-->` and `<!--->` are whole comments and `--!>` ends one, as in browsers: what
    /// follows is markup, and the end tags in it close their elements.
    #[test]
    fn comments_end_where_browsers_end_them() {
        let page = "<!DOCTYPE html><p>z</p><template><!-->x</template><div><!--->y</div>";
        assert_eq!(
            elements(page),
            [
                "<p>z</p>",
                "<template><!-->x</template>",
                "<div><!--->y</div>"
            ]
        );
        let page = "<!DOCTYPE html><div><!-- c --!>x</div><p>a";
        assert_eq!(elements(page), ["<div><!-- c --!>x</div>", "<p>a"]);
        assert_eq!(
            error_kinds("<!DOCTYPE html><!-->"),
            ["an empty comment closed at once"]
        );
        assert_eq!(
            error_kinds("<!DOCTYPE html><!-- a --!>"),
            ["a comment closed by `--!>`"]
        );
        assert!(error_kinds("<!DOCTYPE html><!-- a -- b --><!---->").is_empty());
        assert_eq!(opening("<!--> <!--- a --!> <p>"), "<p>");
    }

    /// A MathML or SVG element's `/>` closes nothing outside `<math>` and `<svg>`: a parse
    /// error of its own, so that no hoist makes one where the page had none (the hoisted
    /// `<g/>` held what followed, a hoisted `<style/>` the rest of the page).
    #[test]
    fn a_slash_closes_only_foreign_and_void_elements() {
        assert!(error_kinds("<!DOCTYPE html><svg><g/><style/></svg><br/><p>x").is_empty());
        assert!(error_kinds("<!DOCTYPE html><g/>x").contains(&SELF_CLOSED));
        assert!(error_kinds("<!DOCTYPE html><style/>y</p>").contains(&SELF_CLOSED));
        let html = Html::for_original("<!DOCTYPE html><b><svg><g/></svg>x");
        assert!(!html.is_valid("<!DOCTYPE html><g/>x"));
        // Other errors of the page are no licence for one (four `&copy` without `;`).
        let html = Html::for_original("<!DOCTYPE html>&copy&copy&copy&copy<svg><g/></svg>x");
        assert!(!html.is_valid("<!DOCTYPE html><g/>x"));
    }

    /// Everything after `<plaintext>` is its text: no tag there is markup.
    #[test]
    fn plaintext_holds_the_rest_of_the_page() {
        let page = "<!DOCTYPE html><plaintext>a<script>b</plaintext><i>";
        assert_eq!(elements(page), [&page[15..]]);
        assert!(Dom::parse(page).errors.is_empty());
    }

    /// End tags HTML lets a page leave out, where what follows would close the element
    /// anyway, are formatting for the squeeze pass; elsewhere (a `</p>` before inline
    /// content, which would then be in the paragraph) they stay.
    #[test]
    fn end_tags_that_change_nothing_are_formatting() {
        let page = "<!DOCTYPE html><ul><li>a</li> <li>b</li></ul><p>x</p><div>y</div><p>z</p><span>s</span><p>t</p>";
        let tree = Html::for_original(page).parse(page).unwrap();
        let optional: Vec<usize> = tree
            .ids()
            .map(|id| tree.node(id))
            .filter(|n| n.label == OPTIONAL_END_TAG)
            .map(|n| n.span.start)
            .collect();
        let expected: Vec<usize> = ["</li> <li>b", "</li></ul>", "</p><div>"]
            .iter()
            .map(|tag| page.find(tag).unwrap())
            .chain([page.len() - 4])
            .collect();
        assert_eq!(optional, expected);
    }

    #[test]
    fn raw_text_is_one_text_whatever_it_holds() {
        let page = "<!DOCTYPE html><p><script>if (a<b) x = '</p>';</SCRIPT ></p>";
        let all = nodes(page);
        assert!(
            all.contains(&("#text".into(), "if (a<b) x = '</p>';".into())),
            "{all:?}"
        );
        assert_eq!(elements(page)[1], "<script>if (a<b) x = '</p>';</SCRIPT >");
        assert!(Dom::parse(page).errors.is_empty());
    }

    #[test]
    fn attributes_may_be_bare_unquoted_or_quoted() {
        let page = "<input disabled value=a&amp;b title = 'x > y' data-x=\"q\">";
        let attributes: Vec<(String, String)> = nodes(page)
            .into_iter()
            .filter(|(label, _)| label != "input")
            .collect();
        assert_eq!(
            attributes,
            [
                ("disabled".into(), "disabled".into()),
                ("value".into(), "value=a&amp;b".into()),
                ("title".into(), "title = 'x > y'".into()),
                ("data-x".into(), "data-x=\"q\"".into()),
            ]
        );
        let units = |span: Range<usize>| attribute_value(page, span).map(|v| &page[v]);
        assert_eq!(units(7..15), None);
        assert_eq!(units(16..29), Some("a&amp;b"));
        assert_eq!(units(30..45), Some("x > y"));
    }

    #[test]
    fn foreign_content_closes_with_a_slash_and_keeps_positional_children() {
        let page = "<p>x <math><mfrac><mi>a</mi><mi/></mfrac></math> y</p>";
        assert_eq!(
            elements(page),
            [
                "<p>x <math><mfrac><mi>a</mi><mi/></mfrac></math> y</p>",
                "<math><mfrac><mi>a</mi><mi/></mfrac></math>",
                "<mfrac><mi>a</mi><mi/></mfrac>",
                "<mi>a</mi>",
                "<mi/>"
            ]
        );
        let tree = Html::for_original(page).parse(page).unwrap();
        let mi = tree
            .ids()
            .find(|&id| &page[tree.node(id).span.clone()] == "<mi>a</mi>")
            .unwrap();
        // A fraction's child is replaced, not deleted.
        assert_eq!(tree.node(mi).delete, None);
        assert!(
            tree.node(mi)
                .alternatives
                .iter()
                .any(|edits| edits[0].text == "<mrow/>")
        );
    }

    /// A page with a DOCTYPE keeps it (without, browsers read it in quirks mode, where
    /// a table does not close a paragraph), also when it has an error to spare (a field
    /// trial's stray `</input>` bought the DOCTYPE's loss), and a shrunk text spells no
    /// character reference without its `;` (`a & not b` losing a space is `a &not b`, a
    /// `¬`).
    #[test]
    fn quirks_mode_and_new_references_are_errors() {
        let html = Html::for_original("<!DOCTYPE html><p>a & not b");
        assert!(html.is_valid("<!-- c -->\n<!doctype HTML><p>a & b"));
        assert!(!html.is_valid("<p>a & not b"));
        let spare = Html::for_original("<!DOCTYPE html><p>a</input>");
        assert!(spare.is_valid("<!DOCTYPE html><p>a"));
        assert!(!spare.is_valid("<p>a"));
        let message = spare.parse("<p>a").unwrap_err().message;
        assert_eq!(message, "no DOCTYPE (the original has one)");
        let tree = spare.parse("<!DOCTYPE html><p>a").unwrap();
        assert!(
            tree.ids()
                .all(|id| tree.node(id).label != "#doctype" || tree.node(id).delete.is_none())
        );
        assert!(!html.is_valid("<!DOCTYPE html><p>a &not b"));
        assert!(html.is_valid("<!DOCTYPE html><p>a &not; b"));
        let without = Html::for_original("<p>AT&T");
        assert!(without.is_valid("<p>T&T"));
        assert!(!without.is_valid("<p>&A&T"));
    }

    /// A legacy DOCTYPE may become the shortest one; that one offers nothing.
    #[test]
    fn a_long_doctype_may_become_the_shortest() {
        let legacy = "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\"><p>a";
        let tree = Html::for_original(legacy).parse(legacy).unwrap();
        let doctype = tree
            .ids()
            .find(|&id| tree.node(id).label == "#doctype")
            .unwrap();
        let rewrite = &tree.node(doctype).alternatives[0][0];
        assert_eq!(rewrite.text, "<!DOCTYPE html>");
        let short = "<!DOCTYPE html><p>a";
        let tree = Html::for_original(short).parse(short).unwrap();
        assert!(
            tree.ids().all(
                |id| tree.node(id).alternatives.is_empty() || tree.node(id).label != "#doctype"
            )
        );
    }

    #[test]
    fn candidates_may_not_add_parse_errors() {
        let html = Html::for_original("<p>a < b</p>");
        assert!(html.is_valid("<p>a < </p>"));
        // One `<` that starts nothing stays allowed; a stray end tag is one error more.
        assert!(!html.is_valid("<p>a < b</p></div>"));
        let strict = Html::for_original("<div><p>a</div>");
        assert!(strict.is_valid("<div></div>"));
        assert!(!strict.is_valid("<div><span></div>"));
        assert!(!strict.is_valid("<div><!-- a"));
        // A table part hoisted out of its table is dropped, a cell out of its row gets one.
        let table = Html::for_original("<table><tr><td><a>x</a></td></tr></table>");
        assert!(table.is_valid("<table><tr><td>x</table>"));
        assert!(table.is_valid("<table><tr><td><a>x</a></tr></table>"));
        assert!(!table.is_valid("<td><a>x</a></td>"));
        assert!(!table.is_valid("<table><td><a>x</a></td></table>"));
        assert_eq!(
            Dom::parse("<template><td>x</td></template>").errors,
            [(0, NO_DOCTYPE)]
        );
        let frames = Html::for_original("<frameset><frame src=a></frameset>");
        assert!(!frames.is_valid("<frame src=a>"));
        // Another error the page has (a reference without its `;`) pays for none of these.
        let spare = Html::for_original(
            "<!DOCTYPE html><p>&copy 2020</p><table><tr><td><b>M</b></td></tr></table>",
        );
        assert!(spare.is_valid("<!DOCTYPE html><table><tr><td>M</table>"));
        assert!(!spare.is_valid("<!DOCTYPE html><td>M"));
        // Content in a table outside its cells is moved out, in front of it.
        assert!(!spare.is_valid("<!DOCTYPE html><table>M</table>"));
        assert!(!spare.is_valid("<!DOCTYPE html><table><b>M</b></table>"));
        assert!(spare.is_valid("<!DOCTYPE html><table> <tr> <td>M</table>"));
        // A byte-order mark says the page is UTF-8: it is no node, and stays.
        let bom = "\u{feff}<!DOCTYPE html><p>caf\u{e9}";
        let tree = Html::for_original(bom).parse(bom).unwrap();
        assert!(tree.ids().skip(1).all(|id| tree.node(id).span.start >= 3));
        // A CDATA section holds text in SVG and MathML; hoisted out, it is a bogus comment.
        let cdata = Html::for_original("<svg><![CDATA[ a < b ]]><text>T</text></svg>");
        assert!(cdata.is_valid("<svg><![CDATA[ a < b ]]></svg>"));
        assert!(!cdata.is_valid("<![CDATA[ a < b ]]>"));
    }

    /// Spaces inside tags go with the squeeze, as in XML (DocBook's `<DL\n>`), but not
    /// before a `/>` (after an unquoted value the `/` would join it) nor in an end tag
    /// holding more than spaces.
    #[test]
    fn spaces_inside_tags_are_formatting() {
        let page = "<!DOCTYPE html><DL\n><DT\n  class=x  id=y >a</DL\n><a href=x />b</a x>";
        let spaces: Vec<String> = nodes(page)
            .into_iter()
            .filter(|(label, _)| label == TAG_SPACE)
            .map(|(_, text)| text)
            .collect();
        assert_eq!(spaces, ["\n", "\n", "\n ", " ", " "]);
        let tree = Html::for_original(page).parse(page).unwrap();
        let squeezed: Vec<Edit> = tree
            .ids()
            .filter(|&id| tree.node(id).label == TAG_SPACE)
            .filter_map(|id| tree.node(id).deletion())
            .collect();
        let text = crate::render::render(page, &squeezed.iter().collect::<Vec<_>>());
        assert_eq!(
            text,
            "<!DOCTYPE html><DL><DT class=x id=y>a</DL><a href=x />b</a x>"
        );
    }

    /// What the first node of `page` labelled `label` may become, one text per alternative.
    fn rewrites_of(page: &str, label: &str) -> Vec<String> {
        let tree = Html::for_original(page).parse(page).unwrap();
        let id = tree.ids().find(|&id| tree.node(id).label == label).unwrap();
        tree.node(id)
            .alternatives
            .iter()
            .map(|edits| crate::render::render(page, &edits.iter().collect::<Vec<_>>()))
            .collect()
    }

    /// In a page's MathML, a fraction may be emptied whole: `/>` closes it there.
    #[test]
    fn a_fraction_in_html_may_be_emptied_whole() {
        let page = "<!DOCTYPE html><math><mfrac><mi>a</mi><mi>b</mi></mfrac></math>";
        let emptied = "<!DOCTYPE html><math><mfrac/></math>";
        assert!(rewrites_of(page, "mfrac").contains(&emptied.to_string()));
        assert!(Html::for_original(page).is_valid(emptied));
    }

    /// A quoted attribute value may go whole; an unquoted one may not (`<a b=>`).
    #[test]
    fn quoted_attribute_values_may_be_emptied() {
        let page = "<!DOCTYPE html><p title='x y' id=z>a";
        assert_eq!(
            rewrites_of(page, "title"),
            ["<!DOCTYPE html><p title='' id=z>a"]
        );
        assert!(rewrites_of(page, "id").is_empty());
    }

    /// A table without `<tbody>` is no chain of single children to unwrap one by one
    /// (each unwrap alone leaves a row or cell outside its table): its first rewrite takes
    /// its whole structure, cells kept apart, caption text kept, columns gone.
    #[test]
    fn a_table_unwraps_whole_to_what_its_cells_hold() {
        let page = "<!DOCTYPE html><table><caption>c</caption><col><tr><th>h<td>a</td></tr>\n<tr><td><table><tr><td>in</table></table>";
        let html = Html::for_original(page);
        let tree = html.parse(page).unwrap();
        let table = tree
            .ids()
            .find(|&id| tree.node(id).label == "table")
            .unwrap();
        let edits: Vec<&Edit> = tree.node(table).alternatives[0].iter().collect();
        let unwrapped = crate::render::render(page, &edits);
        assert_eq!(unwrapped, "<!DOCTYPE html>c h a\n<table><tr><td>in</table>");
        assert!(html.is_valid(&unwrapped));
    }

    #[test]
    fn elements_unwrap_and_hoist_without_end_tags_where_there_are_none() {
        let page = "<div><p>a <b>b</b> <i>c</i>\n</div>";
        let tree = Html::for_original(page).parse(page).unwrap();
        let p = tree.ids().find(|&id| tree.node(id).label == "p").unwrap();
        let apply =
            |edits: &Vec<Edit>| crate::render::render(page, &edits.iter().collect::<Vec<_>>());
        let rewrites: Vec<String> = tree.node(p).alternatives.iter().map(apply).collect();
        assert_eq!(
            rewrites,
            [
                "<div>a <b>b</b> <i>c</i>\n</div>",
                "<div><b>b</b>\n</div>",
                "<div><i>c</i>\n</div>"
            ]
        );
    }

    #[test]
    fn deep_nesting_needs_no_deep_stack() {
        let page = format!("{}{}", "<div>".repeat(100_000), "</div>".repeat(100_000));
        let tree = Html::for_original(&page).parse(&page).unwrap();
        assert_eq!(tree.max_depth(), 100_000);
        // Left open, they are 100 000 start tags side by side.
        let page = "<div>".repeat(100_000);
        let tree = Html::for_original(&page).parse(&page).unwrap();
        assert_eq!(tree.max_depth(), 1);
        assert_eq!(tree.node(tree.root()).children.len(), 100_000);
    }
}
