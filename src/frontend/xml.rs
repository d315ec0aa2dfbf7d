//! The XML front end on roxmltree: the XML declaration, DOCTYPE, elements, attributes
//! (namespace declarations included), text (CDATA included), comments and processing
//! instructions become nodes with exact byte spans. Elements offer rewrites besides
//! deletion: unwrap (drop both tags), hoist (keep one child element) and, for positional
//! children of MathML elements, the profile's placeholder. The tree is built without
//! recursion, so nesting depth is bounded only by roxmltree.

use std::borrow::Cow;
use std::ops::Range;

use super::mathml::PROFILE;
use super::{Frontend, Grain, SyntaxError, bom_len, deletion_span, take_whitespace, words};
use crate::tree::{Edit, Labels, Node, NodeId, NodeKind, Tree};

/// Well-formed XML.
#[derive(Debug, Clone, Copy, Default)]
pub struct Xml;

/// The first character reference of `text` (outside comments and CDATA sections) to a
/// character XML does not allow (`&#xD835;`, half of a surrogate pair; `&#1;`), with its
/// place: roxmltree reads it, stricter parsers (expat, libxml2) refuse the document.
pub(crate) fn forbidden_reference(text: &str) -> Option<(usize, &str)> {
    let allowed = |c: u32| matches!(c, 0x9 | 0xA | 0xD | 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF);
    let mut from = 0;
    while let Some(found) = text[from..].find("&#") {
        let at = from + found;
        from = at + 2;
        // Skip what a comment or a CDATA section holds.
        let inside = |open: &str, close: &str| {
            text[..at]
                .rfind(open)
                .is_some_and(|o| !text[o + open.len()..at].contains(close))
        };
        if inside("<!--", "-->") || inside("<![CDATA[", "]]>") {
            continue;
        }
        let Some(end) = text[at..].find(';').map(|e| at + e) else {
            continue;
        };
        let digits = &text[at + 2..end];
        let value = match digits.strip_prefix('x') {
            Some(hex) => u32::from_str_radix(hex, 16),
            None => digits.parse::<u32>(),
        };
        if value.is_ok_and(|c| !allowed(c)) {
            return Some((at, &text[at..=end]));
        }
    }
    None
}

fn options<'a>() -> roxmltree::ParsingOptions<'a> {
    roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: u32::MAX,
        ..roxmltree::ParsingOptions::default()
    }
}

/// `text` with every reference to an entity that neither XML nor the internal DTD subset
/// defines with a value (`&nbsp;` under an XHTML DOCTYPE, whose definitions live in an
/// external DTD that is never fetched; a DocBook chapter declared as an external entity,
/// `<!ENTITY ch1 SYSTEM "ch1.xml">`) overwritten by as many `_` bytes, so that roxmltree,
/// which knows only the internal subset's values, parses it with the same byte offsets.
/// Such a reference is text to every reduction: units keep references whole, and the
/// DOCTYPE stays while any is used.
///
/// Every carriage return is overwritten by a space as well. Both are white space wherever
/// XML allows either (and neither is allowed anywhere else), so what parses does not
/// change; but roxmltree copies every text and attribute value that holds a `\r` to
/// normalize its line ends, and that took half of the parse of a 2 MB page saved with
/// CRLF line ends (30 -> 17 ms; the parse is most of treereduce's own time there).
fn mask_undefined_entities(text: &str) -> Cow<'_, str> {
    let doctype = text
        .find("<!DOCTYPE")
        .map(|start| start..doctype_end(text, start));
    let items = doctype
        .clone()
        .map(|span| subset_items(text, span))
        .unwrap_or_default();
    let defined: Vec<&str> = items
        .iter()
        .filter_map(|item| {
            let rest = text[item.clone()].strip_prefix("<!ENTITY")?.trim_start();
            let rest = rest.strip_prefix('%').map_or(rest, str::trim_start);
            let name = rest.split(|c: char| c.is_whitespace()).next()?;
            let after = rest[name.len()..].trim_start();
            let external = after.starts_with("SYSTEM") || after.starts_with("PUBLIC");
            (!external).then_some(name)
        })
        .collect();
    // A parameter-entity reference between the subset's declarations (`%decls;`) is
    // blanked: roxmltree reads no parameter entities, and what they declare is unknown.
    let mut masked: Option<Vec<u8>> = None;
    let subset = doctype.and_then(|span| {
        let mut open = unquoted(&text[span.clone()]).filter(|&(_, b)| b == b'[' || b == b']');
        let (start, _) = open.next()?;
        let end = open.last().map_or(span.end, |(end, _)| span.start + end);
        Some(span.start + start + 1..end)
    });
    // The subset's bounds and its items' bounds, in order: the gaps between items pair up.
    let mut bounds: Vec<usize> = subset
        .iter()
        .flat_map(|s| [s.start, s.end])
        .chain(items.iter().flat_map(|i| [i.start, i.end]))
        .collect();
    bounds.sort_unstable();
    for gap in bounds.chunks(2).filter_map(|c| match c {
        [a, b] if a < b => Some(*a..*b),
        _ => None,
    }) {
        for (at, _) in text[gap.clone()].match_indices('%') {
            let at = gap.start + at;
            if let Some(end) = text[at..gap.end].find(';') {
                masked.get_or_insert_with(|| text.as_bytes().to_vec())[at..at + end + 1].fill(b' ');
            }
        }
    }
    for (at, _) in text.match_indices('&') {
        let rest = &text[at + 1..];
        let name_len = rest
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':')))
            .unwrap_or(rest.len());
        let name = &rest[..name_len];
        let known =
            matches!(name, "lt" | "gt" | "amp" | "apos" | "quot") || defined.contains(&name);
        if name.is_empty() || known || !rest[name_len..].starts_with(';') {
            continue;
        }
        let bytes = masked.get_or_insert_with(|| text.as_bytes().to_vec());
        bytes[at..at + name_len + 2].fill(b'_');
    }
    if text.contains('\r') {
        let bytes = masked.get_or_insert_with(|| text.as_bytes().to_vec());
        for b in bytes.iter_mut().filter(|b| **b == b'\r') {
            *b = b' ';
        }
    }
    match masked {
        // Whole UTF-8 sequences were replaced by ASCII, so the bytes stay valid UTF-8.
        Some(bytes) => Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())),
        None => Cow::Borrowed(text),
    }
}

impl Frontend for Xml {
    fn parse(&self, text: &str) -> Result<Tree, SyntaxError> {
        parse_to(text, None)
    }

    fn parse_to(&self, text: &str, depth: u32) -> Result<Tree, SyntaxError> {
        parse_to(text, Some(depth))
    }

    fn is_valid(&self, text: &str) -> bool {
        roxmltree::Document::parse_with_options(&mask_undefined_entities(text), options()).is_ok()
    }

    /// Deleting whole nodes keeps a document well-formed: every deletion span is a
    /// balanced piece of content (or an attribute, or a prolog node the front end lets go
    /// only when nothing depends on it), the root element is never deleted, and units keep
    /// references whole. The one way two texts joined over a deletion can go wrong is by
    /// spelling `]]>`, which character data must not contain; when the base has no `]]>` at
    /// all (no CDATA section ends there), its absence in the candidate settles it.
    fn deletions_stay_valid(&self, base: &str, _edits: &[&Edit], candidate: &str) -> Option<bool> {
        const CDATA_END: &str = "]]>";
        (!base.contains(CDATA_END)).then(|| !candidate.contains(CDATA_END))
    }

    fn units(&self, text: &str, node: &Node, grain: Grain) -> Vec<Range<usize>> {
        markup_units(text, node, grain, attribute_value)
    }
}

/// The units of a markup `node` at `grain`: of a text, or of an attribute's value, which
/// `value` finds in the attribute's span.
pub(super) fn markup_units(
    text: &str,
    node: &Node,
    grain: Grain,
    value: fn(&str, Range<usize>) -> Option<Range<usize>>,
) -> Vec<Range<usize>> {
    let span = match node.kind {
        NodeKind::Comment => return comment_units(text, node.span.clone(), grain),
        NodeKind::Text => Some(node.span.clone()),
        NodeKind::Attribute => {
            let own = &text[node.span.clone()];
            let value = value(text, node.span.clone());
            // A standard namespace name is all or nothing: a shorter one names another
            // namespace, which MathJax or a browser does not know (a made-up one may
            // shrink, to a URI still). An `xml:id` stays a name.
            if is_standard_namespace(own) || is_xml_id(own) {
                None
            } else if declares_namespace(own) {
                value.and_then(|v| shrinkable_uri(text, v))
            } else {
                value
            }
        }
        _ => None,
    };
    match (span, grain) {
        (Some(span), Grain::Characters) => character_units(text, span),
        (Some(span), Grain::Words) => word_units(text, span),
        (None, _) => Vec::new(),
    }
}

/// The units of the comment spanning `span` (`<!--` to `-->`) at `grain`, where taking
/// any of them away leaves a comment. A `-` goes and stays with what follows it, so no
/// deletion spells a `--` (which would end the comment in HTML and is not allowed in XML)
/// or leaves one before the closing `-->` (`Plug-In` is `Plug` and `-In`; an Illustrator
/// SVG's comment has one); a comment that holds a `--` already gives none. Nor does
/// one with a word that begins with `>` or `->`, nor characters when any is a `>`
/// (`<!-->` and `<!--->` end at once in HTML).
fn comment_units(text: &str, span: Range<usize>, grain: Grain) -> Vec<Range<usize>> {
    let inner = text[span.clone()]
        .strip_prefix("<!--")
        .and_then(|rest| rest.strip_suffix("-->"));
    let Some(inner) = inner.filter(|inner| !inner.contains("--")) else {
        return Vec::new();
    };
    let content = span.start + 4..span.end - 3;
    let units = match grain {
        Grain::Words => word_units(text, content.clone()),
        Grain::Characters if inner.contains('>') => return Vec::new(),
        Grain::Characters => character_units(text, content.clone()),
    };
    let mut fused: Vec<Range<usize>> = Vec::with_capacity(units.len());
    let mut dash: Option<usize> = None;
    for unit in units {
        let start = dash.take().unwrap_or(unit.start);
        if &text[unit.clone()] == "-" {
            dash = Some(start);
        } else {
            fused.push(start..unit.end);
        }
    }
    // A `-` last (in HTML, `<!-- a--->`) stays with what comes before it.
    if let Some(start) = dash {
        match fused.last_mut() {
            Some(last) => last.end = content.end,
            None => fused.push(start..content.end),
        }
    }
    let opens =
        |u: &Range<usize>| text[u.clone()].starts_with('>') || text[u.clone()].starts_with("->");
    if fused.iter().any(opens) {
        return Vec::new();
    }
    fused
}

/// XML's whitespace: narrower than Unicode's (a no-break space is text).
fn is_xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

fn is_name_byte(b: u8) -> bool {
    !(b.is_ascii_whitespace() || matches!(b, b'/' | b'>' | b'=' | b'"' | b'\''))
}

/// A start tag read by hand: where it ends, whether it is self-closing, and the span of
/// every attribute (namespace declarations included, which roxmltree does not report).
struct StartTag {
    /// Where the element's name ends.
    name_end: usize,
    end: usize,
    empty: bool,
    attributes: Vec<(Range<usize>, Range<usize>)>,
}

/// Reads the start tag that begins at `start` (a `<`). The document is known to be
/// well-formed, so this only has to find boundaries; quoted values may hold `>`.
fn start_tag(text: &str, start: usize) -> StartTag {
    let bytes = text.as_bytes();
    let mut i = start + 1;
    while i < bytes.len() && is_name_byte(bytes[i]) {
        i += 1;
    }
    let name_end = i;
    let mut attributes = Vec::new();
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        match bytes.get(i) {
            None => {
                return StartTag {
                    name_end,
                    end: bytes.len(),
                    empty: false,
                    attributes,
                };
            }
            Some(b'>') => {
                return StartTag {
                    name_end,
                    end: i + 1,
                    empty: false,
                    attributes,
                };
            }
            Some(b'/') => {
                return StartTag {
                    name_end,
                    end: (i + 2).min(bytes.len()),
                    empty: true,
                    attributes,
                };
            }
            Some(_) => {}
        }
        let name_start = i;
        while i < bytes.len() && is_name_byte(bytes[i]) {
            i += 1;
        }
        let name = name_start..i;
        while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\'' {
            i += 1;
        }
        let quote = bytes.get(i).copied().unwrap_or(b'"');
        i += 1;
        while i < bytes.len() && bytes[i] != quote {
            i += 1;
        }
        i = (i + 1).min(bytes.len());
        if name.is_empty() {
            // Not an attribute after all; step on so the loop always advances.
            i = i.max(name_start + 1);
            continue;
        }
        attributes.push((name.clone(), name.start..i));
    }
}

/// The value of an attribute spanning `span` (without its quotes).
pub(super) fn attribute_value(text: &str, span: Range<usize>) -> Option<Range<usize>> {
    let raw = &text[span.clone()];
    let open = raw.find(['"', '\''])?;
    let close = raw.len().checked_sub(1)?;
    (close > open).then(|| span.start + open + 1..span.start + close)
}

/// The words of `span` (runs of characters other than whitespace) and the whitespace
/// between them, each a unit of its own, so that any words may go and leave no space at
/// either end. None for a text holding CDATA, whose markers must not be split from each
/// other.
fn word_units(text: &str, span: Range<usize>) -> Vec<Range<usize>> {
    if text[span.clone()].contains("<![CDATA[") {
        return Vec::new();
    }
    words(text, character_units(text, span))
}

/// Units for shrinking character data: single characters, with entity and character
/// references kept whole and CDATA markers never split.
fn character_units(text: &str, span: Range<usize>) -> Vec<Range<usize>> {
    let mut units = Vec::new();
    let mut i = span.start;
    let mut in_cdata = false;
    while i < span.end {
        let rest = &text[i..span.end];
        if !in_cdata && rest.starts_with("<![CDATA[") {
            in_cdata = true;
            i += 9;
            continue;
        }
        if in_cdata && rest.starts_with("]]>") {
            in_cdata = false;
            i += 3;
            continue;
        }
        let len = if !in_cdata && rest.starts_with('&') {
            // A reference runs to its `;`; HTML's `&` may also stand alone or begin a
            // reference without one (`&amp 2020`), and is then a character of its own.
            let name =
                rest[1..].find(|c: char| c == ';' || c == '&' || c == '<' || c.is_whitespace());
            match name {
                Some(at) if rest[1 + at..].starts_with(';') => at + 2,
                _ => 1,
            }
        } else {
            rest.chars().next().map_or(1, char::len_utf8)
        };
        units.push(i..i + len);
        i += len;
    }
    units
}

/// True when an element or attribute name in `element` (an element's text) uses `prefix`.
fn prefix_in_use(element: &str, prefix: &str) -> bool {
    let qualified = format!("{prefix}:");
    element.match_indices(&qualified).any(|(at, _)| {
        let before = element[..at].chars().next_back();
        before.is_some_and(|c| c == '<' || c == '/' || is_xml_space(c))
    })
}

/// True when an element name in `element` (an element's text) has no prefix, and so is in
/// the default namespace in scope.
fn default_in_use(element: &str) -> bool {
    let bytes = element.as_bytes();
    element.match_indices('<').any(|(at, _)| {
        let name = &bytes[at + 1..];
        let end = name
            .iter()
            .position(|&b| !is_name_byte(b))
            .unwrap_or(name.len());
        end > 0 && !matches!(name[0], b'/' | b'!' | b'?') && !name[..end].contains(&b':')
    })
}

/// True when `text` refers to an entity other than XML's five predefined ones.
fn uses_custom_entities(text: &str) -> bool {
    text.match_indices('&').any(|(at, _)| {
        let rest = &text[at + 1..];
        let name = rest.split(';').next().unwrap_or_default();
        !name.starts_with('#') && !matches!(name, "lt" | "gt" | "amp" | "apos" | "quot")
    })
}

/// Span of the XML declaration and of the DOCTYPE, if present, before `root_start`.
fn prolog(text: &str, root_start: usize) -> (Option<Range<usize>>, Option<Range<usize>>) {
    let head = &text[..root_start];
    let at = bom_len(head);
    let is_decl = head[at..].starts_with("<?xml")
        && head
            .as_bytes()
            .get(at + 5)
            .is_some_and(u8::is_ascii_whitespace);
    let decl = if is_decl {
        head[at..].find("?>").map(|e| at..at + e + 2)
    } else {
        None
    };
    let doctype = head
        .find("<!DOCTYPE")
        .map(|start| start..doctype_end(head, start));
    (decl, doctype)
}

/// The span of the root element's name in the DOCTYPE at `span` (`<!DOCTYPE html>`).
fn doctype_name(text: &str, span: Range<usize>) -> Option<Range<usize>> {
    let after = span.start + "<!DOCTYPE".len();
    let rest = text.get(after..span.end)?;
    let start = after + rest.find(|c: char| !is_xml_space(c))?;
    let len = text[start..span.end]
        .find(|c: char| is_xml_space(c) || c == '[' || c == '>')
        .unwrap_or(span.end - start);
    (len > 0).then_some(start..start + len)
}

/// The bytes of `markup` outside quoted literals (`"..."`, `'...'`), with their offsets;
/// the quotes themselves are left out.
fn unquoted(markup: &str) -> impl Iterator<Item = (usize, u8)> + '_ {
    let mut quote = None;
    markup
        .bytes()
        .enumerate()
        .filter(move |&(_, b)| match quote {
            Some(q) => {
                if b == q {
                    quote = None;
                }
                false
            }
            None if b == b'"' || b == b'\'' => {
                quote = Some(b);
                false
            }
            None => true,
        })
}

/// Where the DOCTYPE that begins at `start` ends: after its `>`, past the internal subset.
fn doctype_end(text: &str, start: usize) -> usize {
    let mut depth = 0i32;
    for (i, b) in unquoted(&text[start..]) {
        match b {
            b'[' => depth += 1,
            b']' => depth -= 1,
            b'>' if depth <= 0 => return start + i + 1,
            _ => {}
        }
    }
    text.len()
}

/// The XML declaration `decl` with its version alone (`<?xml version="1.0"?>`), when it
/// says more (an encoding, `standalone`): a test that needs the declaration rarely needs
/// the rest, and the input is UTF-8, which needs no encoding declared.
fn version_only(decl: &str) -> Option<String> {
    let at = decl.find("version")?;
    let rest = decl[at + "version".len()..]
        .trim_start()
        .strip_prefix('=')?
        .trim_start();
    let quote = rest.chars().next().filter(|&c| c == '"' || c == '\'')?;
    let value = &rest[1..];
    let value = &value[..value.find(quote)?];
    let short = format!("<?xml version={quote}{value}{quote}?>");
    (short.len() < decl.len()).then_some(short)
}

/// The markup declarations, comments and processing instructions of the internal subset of
/// the DOCTYPE at `span`, as children of its node `doctype`. An entity's declaration may
/// go only while nothing refers to the entity (an undefined one would be masked as text
/// of an external DTD, and a strict parser refuses it).
fn add_declarations(text: &str, tree: &mut Tree, doctype: NodeId, span: Range<usize>) {
    for at in subset_items(text, span) {
        let item = &text[at.clone()];
        let referred = entity_name(item).is_some_and(|(parameter, name)| {
            let reference = format!("{}{name};", if parameter { '%' } else { '&' });
            text[..at.start].contains(&reference) || text[at.end..].contains(&reference)
        });
        let delete = (!referred).then(|| deletion_span(text, at.start, at.end));
        tree.push(
            doctype,
            Node::new(NodeKind::Comment, "#declaration".into(), at, delete),
        );
    }
}

/// The spans of the items (`<!ENTITY ...>`, `<!ELEMENT ...>`, comments, processing
/// instructions) of the internal subset, `[...]`, of the DOCTYPE at `span`.
fn subset_items(text: &str, span: Range<usize>) -> Vec<Range<usize>> {
    let doctype = &text[span.clone()];
    let mut items = Vec::new();
    // Past the `[`, outside the quoted system and public ids.
    let Some((open, _)) = unquoted(doctype).find(|&(_, b)| b == b'[') else {
        return items;
    };
    let mut i = open + 1;
    while i < doctype.len() {
        let rest = &doctype[i..];
        let end = if rest.starts_with("<!--") {
            rest.find("-->").map(|e| e + 3)
        } else if rest.starts_with("<?") {
            rest.find("?>").map(|e| e + 2)
        } else if rest.starts_with("<!") {
            declaration_end(rest)
        } else if rest.starts_with(']') {
            break;
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let Some(end) = end else { break };
        items.push(span.start + i..span.start + i + end);
        i += end;
    }
    items
}

/// The length of the markup declaration `rest` begins with: up to its `>` outside quotes.
fn declaration_end(rest: &str) -> Option<usize> {
    unquoted(rest).find(|&(_, b)| b == b'>').map(|(i, _)| i + 1)
}

/// Whether the `<!ENTITY ...>` declaration `item` declares a parameter entity, and the
/// name it declares; `None` for other items.
fn entity_name(item: &str) -> Option<(bool, &str)> {
    let rest = item
        .strip_prefix("<!ENTITY")?
        .trim_start_matches(is_xml_space);
    let (parameter, rest) = match rest.strip_prefix('%') {
        Some(after) => (true, after.trim_start_matches(is_xml_space)),
        None => (false, rest),
    };
    let name = rest.split(|c: char| is_xml_space(c)).next()?;
    (!name.is_empty()).then_some((parameter, name))
}

/// What the builder knows about the parent of the nodes it is adding.
#[derive(Clone)]
struct Context {
    id: NodeId,
    /// Byte range between the parent's tags (the whole text for the document).
    content: Range<usize>,
    /// How many of the parent's first element children are positional (MathML: all of a
    /// fraction's, the first of `semantics`): replaced by the placeholder, never deleted.
    positional: usize,
    /// The parent is inside a `<math>` element.
    in_math: bool,
    /// Some of the parent's children came from an entity that expands to markup: their
    /// ranges lie in the DOCTYPE, not between the parent's tags, so the parent's content is
    /// left whole (no child nodes, no unwrap or hoist).
    opaque: bool,
}

/// Parses `text` into a tree, with the nodes down to `limit` (all when `None`).
fn parse_to(text: &str, limit: Option<u32>) -> Result<Tree, SyntaxError> {
    let masked = mask_undefined_entities(text);
    let doc = roxmltree::Document::parse_with_options(&masked, options())
        .map_err(|e| syntax_error(text, &masked, &e))?;
    Ok(build(text, &doc, limit))
}

/// What went wrong in `text`, where: roxmltree's message without the position it appends
/// (the caller prints one), said plainly where roxmltree's words or place mislead (an
/// element left open is named at its start tag, not at 1:1; a second root is called one).
/// roxmltree read `masked` (see [`mask_undefined_entities`]): the same bytes where it
/// matters, but a masked `&ü;` has more characters, so places are counted in `text`.
fn syntax_error(text: &str, masked: &str, e: &roxmltree::Error) -> SyntaxError {
    let pos = e.pos();
    let at = |offset: usize| {
        let before = &text[..text.floor_char_boundary(offset)];
        let line = before.matches('\n').count() + 1;
        let start = before.rfind('\n').map_or(0, |i| i + 1);
        SyntaxError {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(before[start..].chars().count() + 1).unwrap_or(u32::MAX),
            message: String::new(),
        }
    };
    let own = e.to_string();
    let suffix = format!(" at {pos}");
    let offset = offset_of(masked, pos.row, pos.col);
    let mut error = SyntaxError {
        message: own.strip_suffix(&suffix).unwrap_or(&own).to_string(),
        ..at(offset)
    };
    match e {
        roxmltree::Error::UnclosedRootNode | roxmltree::Error::UnexpectedEndOfStream => {
            let (open, _, unended) = open_elements(masked);
            if let Some((name, offset)) = open.last() {
                let message = if unended {
                    format!(
                        "the start tag <{name} is never ended (is a quoted attribute value left open?)"
                    )
                } else {
                    format!("<{name}> is never closed: the text ends inside it")
                };
                error = SyntaxError {
                    message,
                    ..at(*offset)
                };
            }
        }
        roxmltree::Error::UnknownToken(_) => {
            let (open, ended, _) = open_elements(&masked[..offset]);
            if ended && open.is_empty() {
                error.message = String::from(
                    "content after the root element has ended (an XML document has one root element; only comments and processing instructions may follow it)",
                );
            }
        }
        _ => {}
    }
    error
}

/// The byte offset of 1-based `line` and `column` (in characters) of `text`.
fn offset_of(text: &str, line: u32, column: u32) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1) as usize)
        .map(str::len)
        .sum();
    let rest = &text[start.min(text.len())..];
    start
        + rest
            .char_indices()
            .nth(column.saturating_sub(1) as usize)
            .map_or(rest.len(), |(i, _)| i)
}

/// The elements open at the end of `text`, outermost first, each with the offset of its
/// start tag, and whether an element at the top has ended: a scan of tags that passes over
/// comments, processing instructions, CDATA sections, the DOCTYPE and quoted attribute
/// values, for error messages only.
fn open_elements(text: &str) -> (Vec<(&str, usize)>, bool, bool) {
    let mut open: Vec<(&str, usize)> = Vec::new();
    let mut ended = false;
    // The last start tag has no `>` (outside quotes).
    let mut unended = false;
    let mut pos = 0;
    while let Some(i) = text[pos..].find('<') {
        let start = pos + i;
        let rest = &text[start..];
        let skip_to = |end: &str| rest.find(end).map_or(text.len(), |e| start + e + end.len());
        pos = if rest.starts_with("<!--") {
            skip_to("-->")
        } else if rest.starts_with("<?") {
            skip_to("?>")
        } else if rest.starts_with("<![CDATA[") {
            skip_to("]]>")
        } else if rest.starts_with("<!") {
            doctype_end(text, start)
        } else {
            let closing = rest.starts_with("</");
            let name_at = if closing { 2 } else { 1 };
            let name_len = rest[name_at..]
                .find(|c: char| c.is_whitespace() || c == '/' || c == '>')
                .unwrap_or(rest.len() - name_at);
            let name = &rest[name_at..name_at + name_len];
            // The tag's end: the first `>` outside quotes.
            let mut quote = None;
            let mut end = None;
            for (j, b) in rest.bytes().enumerate().skip(name_at + name_len) {
                match (quote, b) {
                    (None, b'"' | b'\'') => quote = Some(b),
                    (Some(q), _) if q == b => quote = None,
                    (None, b'>') => {
                        end = Some(j);
                        break;
                    }
                    _ => {}
                }
            }
            let Some(end) = end else {
                if !closing {
                    open.push((name, start));
                    unended = true;
                }
                break;
            };
            if closing {
                if let Some(k) = open.iter().rposition(|(n, _)| *n == name) {
                    open.truncate(k);
                    ended |= k == 0;
                }
            } else if rest[..end].ends_with('/') {
                ended |= open.is_empty();
            } else if !name.is_empty() {
                open.push((name, start));
            }
            start + end + 1
        };
    }
    (open, ended, unended)
}

fn build(text: &str, doc: &roxmltree::Document, limit: Option<u32>) -> Tree {
    let mut tree = Tree::new(text.len());
    let mut truncated = false;
    let root_start = doc.root_element().range().start;
    let (decl, doctype) = prolog(text, root_start);
    // A DOCTYPE that defines entities the document uses cannot go.
    let doctype = doctype.map(|d| (d, !uses_custom_entities(&text[root_start..])));
    let decl = decl.map(|d| (d, true));
    let root_name = text[root_start + 1..]
        .split(|c: char| c.is_whitespace() || c == '/' || c == '>')
        .next()
        .unwrap_or_default();
    for (span, label) in [(decl, "#xml-declaration"), (doctype, "#doctype")] {
        if let Some((span, deletable)) = span {
            let delete = deletable.then(|| deletion_span(text, span.start, span.end));
            let mut node = Node::new(NodeKind::Comment, label.into(), span.clone(), delete);
            if label == "#doctype"
                && let Some(name) = doctype_name(text, span.clone())
                && text[name.clone()] != *root_name
                && !text[name.clone()].eq_ignore_ascii_case("html")
            {
                // A root that rewrites of nested elements made in one candidate left
                // under another name than the DOCTYPE's (see `add_element`).
                node.alternatives = vec![vec![Edit::replace(name, root_name.to_string())]];
            }
            if label == "#xml-declaration"
                && let Some(short) = version_only(&text[span.clone()])
            {
                node.alternatives = vec![vec![Edit::replace(span.clone(), short)]];
            }
            let id = tree.push(tree.root(), node);
            if label == "#doctype" {
                add_declarations(text, &mut tree, id, span);
            }
        }
    }
    let top = Context {
        id: tree.root(),
        content: 0..text.len(),
        positional: 0,
        in_math: false,
        opaque: false,
    };
    // Children are pushed in reverse so they pop in document order, which keeps the arena
    // in document order.
    let mut labels = Labels::default();
    let mut stack: Vec<(roxmltree::Node, Context)> = doc
        .root()
        .children()
        .rev()
        .map(|c| (c, top.clone()))
        .collect();
    while let Some((xn, parent)) = stack.pop() {
        match xn.node_type() {
            roxmltree::NodeType::Element => {
                let context = add_element(text, &mut tree, &xn, &parent, &mut labels);
                if context.opaque {
                    continue;
                }
                if limit.is_some_and(|limit| tree.node(context.id).depth >= limit) {
                    truncated |= xn.has_children();
                    continue;
                }
                for child in xn.children().rev() {
                    stack.push((child, context.clone()));
                }
            }
            roxmltree::NodeType::Text => add_text(text, &mut tree, &xn, &parent),
            roxmltree::NodeType::Comment | roxmltree::NodeType::PI => {
                let range = xn.range();
                let delete = deletion_span(text, range.start, range.end);
                let label = if xn.is_comment() { "#comment" } else { "#pi" };
                tree.push(
                    parent.id,
                    Node::new(NodeKind::Comment, label.into(), range, Some(delete)),
                );
            }
            roxmltree::NodeType::Root => {}
        }
    }
    add_top_level_whitespace(text, &mut tree);
    if let (true, Some(limit)) = (truncated, limit) {
        tree.set_limit(limit);
    }
    tree
}

/// Whitespace between the top-level nodes (prolog, root element, trailing comments) is
/// formatting too; roxmltree does not report it.
fn add_top_level_whitespace(text: &str, tree: &mut Tree) {
    let root = tree.root();
    let mut spans: Vec<Range<usize>> = tree
        .node(root)
        .children
        .iter()
        .map(|&id| tree.node(id).span.clone())
        .collect();
    spans.sort_by_key(|s| s.start);
    let mut gaps = Vec::new();
    let mut pos = bom_len(text);
    if pos > 0 {
        // A byte-order mark is no formatting either; it goes with the texts' edges.
        tree.push(root, whitespace(TEXT_EDGE, 0..pos));
    }
    for span in spans
        .iter()
        .chain(std::iter::once(&(text.len()..text.len())))
    {
        if span.start > pos && text[pos..span.start].chars().all(is_xml_space) {
            gaps.push(pos..span.start);
        }
        pos = pos.max(span.end);
    }
    for gap in gaps {
        tree.push(root, whitespace(FORMATTING, gap));
    }
}

fn add_element(
    text: &str,
    tree: &mut Tree,
    xn: &roxmltree::Node,
    parent: &Context,
    labels: &mut Labels,
) -> Context {
    let range = xn.range();
    let tag = start_tag(text, range.start);
    let content = if tag.empty {
        tag.end..tag.end
    } else {
        let close = text[tag.end..range.end]
            .rfind("</")
            .map_or(range.end, |i| tag.end + i);
        tag.end..close
    };
    let at_top = parent.id == tree.root();
    let name = text[range.start + 1..]
        .split(|c: char| c.is_whitespace() || c == '/' || c == '>')
        .next()
        .unwrap_or_default()
        .to_string();
    let local = xn.tag_name().name();
    let namespace = xn.tag_name().namespace();
    // Without a namespace, an element is MathML under `<math>` or when it has a MathML
    // name: once a reduction hoists a fraction out of its `<math>`, it is still one.
    let mathml = namespace == Some(PROFILE.namespace.as_str())
        || (namespace.is_none() && (parent.in_math || PROFILE.knows(local)));
    // A positional parent's first element children keep their place. Only those parents
    // count the elements before this one, and no further than they need: a wide list's
    // children would cost a count of all their elder siblings each.
    let positional = parent.positional > 0
        && std::iter::successors(xn.prev_sibling(), |n| n.prev_sibling())
            .filter(|n| n.is_element())
            .take(parent.positional)
            .count()
            < parent.positional;
    let delete = (!at_top && !positional).then(|| deletion_span(text, range.start, range.end));
    let mut alternatives = Vec::new();
    // The placeholder stays in the namespace of the element it replaces: unprefixed where
    // that is the default namespace around it (or it has none), else with the element's
    // prefix when the parent has it in scope (`<m:mrow/>` where `<m:mi>` was).
    let around = xn.parent_element();
    let default_fits =
        namespace.is_none() || around.and_then(|p| p.lookup_namespace_uri(None)) == namespace;
    let placeholder = match name.split_once(':') {
        Some((prefix, _))
            if !default_fits
                && around.and_then(|p| p.lookup_namespace_uri(Some(prefix))) == namespace =>
        {
            format!("<{prefix}:{}", &PROFILE.placeholder[1..])
        }
        _ => PROFILE.placeholder.clone(),
    };
    if positional && text[range.clone()] != placeholder {
        alternatives.push(vec![Edit::replace(range.clone(), placeholder)]);
    }
    // A MathML element whose children have places (a fraction) keeps them as placeholders,
    // never fewer: a test of its arity (MathJax's "wrong number of children") is then
    // left `<mfrac><mrow/><mrow/><mrow/></mfrac>`. Emptied whole, it has no places to keep.
    if mathml
        && PROFILE.positional(local) > 0
        && !tag.empty
        && xn.children().any(|c| c.is_element())
    {
        alternatives.push(vec![Edit::replace(
            tag.end - 1..range.end,
            String::from("/>"),
        )]);
    }
    // A text's range is taken from its neighbours (see `add_text`), so a text that begins
    // with a reference to an entity (whose range lies in the DOCTYPE) is no reason.
    let opaque = xn.children().any(|c| {
        let r = c.range();
        !c.is_text() && (r.start < content.start || r.end > content.end)
    });
    // `<a>  </a>` says the same as `<a/>`; and content with no nodes of its own (see
    // `Context::opaque`) goes whole this way, else the reference to an entity of markup
    // in it, and so the entity's declaration and the DOCTYPE, would stay for good.
    if !tag.empty && (opaque || text[content.clone()].chars().all(is_xml_space)) {
        alternatives.push(vec![Edit::replace(
            tag.end - 1..range.end,
            String::from("/>"),
        )]);
    }
    let elements: Vec<roxmltree::Node> = xn
        .children()
        .filter(|c| c.is_element() && !opaque)
        .collect();
    let has_text = xn
        .children()
        .any(|c| c.is_text() && c.text().is_some_and(|t| !t.chars().all(is_xml_space)));
    // Unwrapping must leave one element where one element is required.
    let single = elements.len() == 1 && !has_text;
    // A root replaced by an element inside it renames the DOCTYPE that names it, so that
    // a validating parser is not told that the root and the DTD disagree. Not `html`: to
    // a browser that DOCTYPE chooses standards mode, and any other name quirks mode.
    let doctype_name = at_top
        .then(|| prolog(text, range.start).1)
        .flatten()
        .and_then(|span| doctype_name(text, span))
        .filter(|span| text[span.clone()] == name && !name.eq_ignore_ascii_case("html"));
    let renamed = |child: &roxmltree::Node| {
        let span = doctype_name.clone()?;
        let new = text[child.range().start + 1..]
            .split(|c: char| c.is_whitespace() || c == '/' || c == '>')
            .next()?;
        Some(Edit::replace(span, new.to_string()))
    };
    if !tag.empty && !opaque && (single || !(at_top || positional)) {
        let mut unwrap = vec![
            Edit::delete(deletion_span(text, range.start, content.start)),
            Edit::delete(deletion_span(text, content.end, range.end)),
        ];
        if single {
            unwrap.push(carried(text, &tag, elements[0].range()));
            unwrap.extend(renamed(&elements[0]));
        }
        alternatives.push(unwrap);
    }
    if !single && !positional {
        for child in &elements {
            let c = child.range();
            let mut hoist = vec![
                Edit::delete(range.start..c.start),
                Edit::delete(c.end..range.end),
            ];
            hoist.push(carried(text, &tag, c));
            hoist.extend(renamed(child));
            alternatives.push(hoist);
        }
    }
    let element_span = range.clone();
    let mut element = Node::new(NodeKind::Element, labels.of(&name), range, delete);
    element.alternatives = alternatives;
    let id = tree.push(parent.id, element);
    let close = if tag.empty { tag.end - 2 } else { tag.end - 1 };
    let end_tag = content.end..element_span.end;
    for space in tag_spaces(text, tag.name_end, &tag.attributes, close, end_tag) {
        tree.push(id, whitespace(TAG_SPACE, space));
    }
    for (name, span) in tag.attributes {
        let name = &text[name];
        // A namespace prefix still in use inside the element must stay declared.
        let in_use = name
            .strip_prefix("xmlns:")
            .is_some_and(|prefix| prefix_in_use(&text[element_span.clone()], prefix));
        let delete = (!in_use).then(|| take_whitespace(text, span.start)..span.end);
        let mut attribute = Node::new(NodeKind::Attribute, labels.of(name), span.clone(), delete);
        // A test that needs an attribute seldom reads its value (MathJax's "unknown
        // attribute"): the value may go at once, batched with the other rewrites, before
        // the shrink, whose pieces never take all of it. Namespace declarations keep theirs.
        if !name.starts_with("xmlns")
            && name != "xml:id"
            && let Some(value) = attribute_value(text, span).filter(|v| !v.is_empty())
        {
            attribute.alternatives.push(vec![Edit::delete(value)]);
        }
        tree.push(id, attribute);
    }
    Context {
        id,
        content,
        positional: if mathml { PROFILE.positional(local) } else { 0 },
        in_math: mathml,
        opaque,
    }
}

/// The namespace declarations of an element's start `tag` that its descendant element
/// spanning `child` needs once the element is unwrapped or replaced by it (the prefixes
/// the descendant uses and does not declare itself), as an insertion after the
/// descendant's name, empty when it needs none: should the descendant be unwrapped in
/// the same candidate, what the element around it carried in goes on to the next tag
/// through it (see [`Edit::carry`]).
fn carried(text: &str, tag: &StartTag, child: Range<usize>) -> Edit {
    let own = start_tag(text, child.start);
    let mut declarations = String::new();
    for (name, span) in &tag.attributes {
        let name = &text[name.clone()];
        let in_use = if name == "xmlns" {
            default_in_use(&text[child.clone()])
        } else if let Some(prefix) = name.strip_prefix("xmlns:") {
            prefix_in_use(&text[child.clone()], prefix)
        } else {
            continue;
        };
        let declared_here = own.attributes.iter().any(|(n, _)| &text[n.clone()] == name);
        if !declared_here && in_use {
            declarations.push(' ');
            declarations.push_str(&text[span.clone()]);
        }
    }
    Edit::carry(own.name_end, declarations, child.start)
}

/// True when `attribute` (its text, name first) declares a W3C namespace, such as
/// `xmlns="http://www.w3.org/1998/Math/MathML"` or `xmlns:svg="http://www.w3.org/2000/svg"`.
fn is_standard_namespace(attribute: &str) -> bool {
    declares_namespace(attribute) && attribute.contains("://www.w3.org/")
}

/// True when `attribute` (its text, name first) declares a namespace.
fn declares_namespace(attribute: &str) -> bool {
    attribute.strip_prefix("xmlns").is_some_and(|rest| {
        rest.trim_start_matches(is_xml_space)
            .starts_with(['=', ':'])
    })
}

/// True when `attribute` (its text, name first) is an `xml:id`, whose value must stay a
/// name unique in the document (libxml2 refuses `xml:id=""` and `xml:id="1"`).
fn is_xml_id(attribute: &str) -> bool {
    attribute
        .strip_prefix("xml:id")
        .is_some_and(|rest| rest.trim_start_matches(is_xml_space).starts_with('='))
}

/// The part of the namespace name at `value` whose pieces may go, leaving a URI whatever
/// goes: all but its first character, when that is a letter and the rest are letters,
/// digits and `.+-:/`. Then what stands before a first `:` is a scheme, or holds a `/`
/// (`urn:x:1` may become `u:1` or `ux`, never `:1`). A name with other characters stays
/// whole: a `%41` cut to `%4`, a `[` or a `_` before a `:` is no URI for libxml2.
fn shrinkable_uri(text: &str, value: Range<usize>) -> Option<Range<usize>> {
    let own = &text[value.clone()];
    let first = own.chars().next()?;
    let safe = own
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || ".+-:/".contains(c));
    (first.is_ascii_alphabetic() && safe).then(|| value.start + 1..value.end)
}

/// The label of whitespace between markup.
const FORMATTING: &str = "#whitespace";

/// The label of the whitespace before and after the words of a text.
const TEXT_EDGE: &str = "#text-edge";

/// A whitespace node labelled `label` (the squeeze offers each label apart), deleted whole.
pub(super) fn whitespace(label: &'static str, span: Range<usize>) -> Node {
    Node::new(NodeKind::Whitespace, label.into(), span.clone(), Some(span))
}

fn add_text(text: &str, tree: &mut Tree, xn: &roxmltree::Node, parent: &Context) {
    // Text ranges are derived from the neighbours: roxmltree merges text and CDATA pieces
    // into one node whose own range covers only the first piece.
    let start = xn
        .prev_sibling()
        .map_or(parent.content.start, |s| s.range().end);
    let end = xn
        .next_sibling()
        .map_or(parent.content.end, |s| s.range().start);
    add_text_span(text, tree, parent.id, start..end);
}

/// Adds the character data spanning `span` to `parent`: formatting when it is all
/// whitespace, else its words as a text with the whitespace at its edges apart.
pub(super) fn add_text_span(text: &str, tree: &mut Tree, parent: NodeId, span: Range<usize>) {
    let Range { start, end } = span;
    let raw = &text[start..end];
    let trimmed = raw.trim_start_matches(is_xml_space);
    if trimmed.is_empty() {
        tree.push(parent, whitespace(FORMATTING, start..end));
        return;
    }
    let core_start = end - trimmed.len();
    let core_end = core_start + trimmed.trim_end_matches(is_xml_space).len();
    // The spaces around a text's words are no formatting (`<p> a </p>` is not `<p>a</p>`),
    // but they seldom matter: the squeeze offers them apart from the formatting.
    let edge = |tree: &mut Tree, span: Range<usize>| {
        if !span.is_empty() {
            tree.push(parent, whitespace(TEXT_EDGE, span));
        }
    };
    edge(tree, start..core_start);
    // Text inside a positional MathML parent would change arity only if it were an
    // element; deleting it is safe.
    let delete = deletion_span(text, core_start, core_end);
    tree.push(
        parent,
        Node::new(
            NodeKind::Text,
            "#text".into(),
            core_start..core_end,
            Some(delete),
        ),
    );
    edge(tree, core_end..end);
    empty_cdata(text, tree, parent, core_start..core_end);
}

/// The label of the spaces inside tags that separate nothing (`<a\n  >`, `<b  />`,
/// `</a >`) or more than they need to (`<a\n    x="1"`).
pub(super) const TAG_SPACE: &str = "#tag-space";

/// The spaces inside an element's tags that may go: in its start tag (its name ending at
/// `name_end`, its `(name, whole attribute)` spans `attributes`, its `>` or `/>` at
/// `close`) those before the close and all but the last of those before an attribute,
/// and in its end tag (`end`, empty for an empty-element tag) those after the name.
pub(super) fn tag_spaces(
    text: &str,
    name_end: usize,
    attributes: &[(Range<usize>, Range<usize>)],
    close: usize,
    end: Range<usize>,
) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let blank = |span: &Range<usize>| bytes[span.clone()].iter().all(u8::is_ascii_whitespace);
    let mut spaces = Vec::new();
    let mut after = name_end;
    for (_, span) in attributes {
        let from = take_whitespace(text, span.start);
        if span.start - from > 1 {
            spaces.push(from..span.start - 1);
        }
        after = span.end;
    }
    if close > after && blank(&(after..close)) {
        spaces.push(after..close);
    }
    if let Some(name) = text[end.clone()].strip_prefix("</") {
        let name_end = end.start + 2 + name.len()
            - name
                .trim_start_matches(|c: char| !is_xml_space(c) && c != '>')
                .len();
        let close = end.end - 1;
        // (An HTML end tag may hold more than spaces: `</a x>`.)
        if close > name_end && blank(&(name_end..close)) {
            spaces.push(name_end..close);
        }
    }
    spaces
}

/// The label of an empty CDATA section (what a shrunk one leaves).
const EMPTY_CDATA: &str = "#empty-cdata";

/// Empty CDATA sections in `span` (a text): nothing for the parser, markup for the
/// squeeze to take away.
fn empty_cdata(text: &str, tree: &mut Tree, parent: NodeId, span: Range<usize>) {
    const EMPTY: &str = "<![CDATA[]]>";
    for (at, _) in text[span.clone()].match_indices(EMPTY) {
        let at = span.start + at;
        tree.push(parent, whitespace(EMPTY_CDATA, at..at + EMPTY.len()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::render;

    fn nodes(text: &str) -> Vec<(String, String, Option<String>)> {
        let tree = Xml.parse(text).unwrap();
        tree.ids()
            .skip(1)
            .filter(|&id| tree.node(id).kind != NodeKind::Whitespace)
            .map(|id| {
                let n = tree.node(id);
                (
                    n.label.to_string(),
                    text[n.span.clone()].to_string(),
                    n.delete.clone().map(|d| text[d].to_string()),
                )
            })
            .collect()
    }

    fn owned(a: &str, b: &str, c: Option<&str>) -> (String, String, Option<String>) {
        (a.to_string(), b.to_string(), c.map(String::from))
    }

    #[test]
    fn nodes_and_their_deletion_spans() {
        let text = "<?xml version=\"1.0\"?>\n<!-- c -->\n<a xmlns:p=\"u\" x=\"1\"\n   y='>'>\n  <b/>\n  t &amp; u<![CDATA[<z>]]>\n</a>\n";
        let root = &text[33..text.len() - 1];
        assert_eq!(
            nodes(text),
            vec![
                owned(
                    "#xml-declaration",
                    "<?xml version=\"1.0\"?>",
                    Some("<?xml version=\"1.0\"?>")
                ),
                owned("#comment", "<!-- c -->", Some("\n<!-- c -->")),
                owned("a", root, None),
                owned("xmlns:p", "xmlns:p=\"u\"", Some(" xmlns:p=\"u\"")),
                owned("x", "x=\"1\"", Some(" x=\"1\"")),
                owned("y", "y='>'", Some("\n   y='>'")),
                owned("b", "<b/>", Some("\n  <b/>")),
                owned(
                    "#text",
                    "t &amp; u<![CDATA[<z>]]>",
                    Some("\n  t &amp; u<![CDATA[<z>]]>")
                ),
            ]
        );
    }

    /// A declaration the test needs may still lose its encoding and `standalone`.
    #[test]
    fn the_xml_declaration_may_keep_its_version_alone() {
        let text = "<?xml version='1.0' encoding=\"utf-8\" standalone='yes'?>\n<a/>";
        let tree = Xml.parse(text).unwrap();
        let decl = tree
            .ids()
            .map(|id| tree.node(id))
            .find(|n| n.label == "#xml-declaration")
            .unwrap();
        let edits: Vec<&Edit> = decl.alternatives[0].iter().collect();
        let short = crate::render::render(text, &edits);
        assert_eq!(short, "<?xml version='1.0'?>\n<a/>");
        assert!(Xml.is_valid(&short));
        assert_eq!(version_only("<?xml version=\"1.0\"?>"), None);
        assert_eq!(
            version_only("<?xml  version = \"1.1\" ?>").as_deref(),
            Some("<?xml version=\"1.1\"?>")
        );
        assert_eq!(
            version_only("<?xml version = \"1.0\" encoding='UTF-8' ?>").as_deref(),
            Some("<?xml version=\"1.0\"?>")
        );
    }

    #[test]
    fn doctype_with_internal_subset_is_one_node() {
        let text = "<!DOCTYPE a [\n <!ENTITY e \">\">\n]>\n<a>&e;</a>";
        let got = nodes(text);
        assert_eq!(got[0].1, "<!DOCTYPE a [\n <!ENTITY e \">\">\n]>");
    }

    #[test]
    fn the_internal_subset_items_go_while_nothing_refers_to_them() {
        let text = "<!DOCTYPE a PUBLIC \"[x]\" \"y\" [\n <!ENTITY e \"&f;>\">\n <!ENTITY f 'x'>\n \
                    <!ENTITY % p \"\">\n <!ENTITY g \"z\">\n <!ELEMENT a ANY>\n <!-- c -->\n]>\n<a>&e;</a>";
        let got: Vec<(String, Option<String>)> = nodes(text)
            .into_iter()
            .filter(|(label, _, _)| label == "#declaration")
            .map(|(_, own, delete)| (own, delete.map(|d| d.trim().to_string())))
            .collect();
        let deletable = |own: &str| got.iter().find(|(o, _)| o == own).unwrap().1.is_some();
        assert_eq!(got.len(), 6, "{got:?}");
        // Referred to: by the root's text, by another entity's value.
        assert!(!deletable("<!ENTITY e \"&f;>\">"));
        assert!(!deletable("<!ENTITY f 'x'>"));
        assert!(deletable("<!ENTITY % p \"\">"));
        assert_eq!(entity_name("<!ENTITY % p \"\">"), Some((true, "p")));
        assert!(deletable("<!ENTITY g \"z\">"));
        assert!(deletable("<!ELEMENT a ANY>"));
        assert!(deletable("<!-- c -->"));
        // An element whose text begins with a reference keeps its children.
        let text = "<!DOCTYPE r [<!ENTITY u \"zz\">]><r>&u; a <b/></r>";
        assert!(nodes(text).iter().any(|(label, _, _)| label == "b"));
    }

    #[test]
    fn depth_is_nesting() {
        let tree = Xml.parse("<a><b><c/></b>x</a>").unwrap();
        let depths: Vec<(String, u32)> = tree
            .ids()
            .map(|id| (tree.node(id).label.to_string(), tree.node(id).depth))
            .collect();
        assert_eq!(
            depths,
            vec![
                ("#document".into(), 0),
                ("a".into(), 1),
                ("b".into(), 2),
                ("c".into(), 3),
                ("#text".into(), 2)
            ]
        );
    }

    fn rewrites(text: &str, label: &str) -> Vec<String> {
        let tree = Xml.parse(text).unwrap();
        let id = tree.ids().find(|&id| tree.node(id).label == label).unwrap();
        tree.node(id)
            .alternatives
            .iter()
            .map(|edits| render(text, &edits.iter().collect::<Vec<_>>()))
            .collect()
    }

    /// The units of the attribute labelled `label` in `text`, at `grain`.
    fn attribute_units(text: &str, label: &str, grain: Grain) -> Vec<String> {
        let tree = Xml.parse(text).unwrap();
        let id = tree.ids().find(|&id| tree.node(id).label == label).unwrap();
        Xml.units(text, tree.node(id), grain)
            .into_iter()
            .map(|r| text[r].to_string())
            .collect()
    }

    /// An `xml:id` keeps its value, which must stay a name; a namespace name shrinks only
    /// where every piece that may go leaves a URI (a third hunt's `%4`, `[` and `:80` were
    /// none for libxml2).
    #[test]
    fn ids_and_namespace_names_shrink_only_to_what_stays_valid() {
        let text = "<r xmlns:p=\"urn:x-1:a/b\" xmlns:q=\"http://e.org/%41\" xmlns:s=\"u_v:w\"><p:a xml:id=\"sec1\" b=\"c1\"/></r>";
        assert!(rewrites(text, "xml:id").is_empty());
        assert_eq!(rewrites(text, "b").len(), 1);
        for grain in [Grain::Words, Grain::Characters] {
            assert!(attribute_units(text, "xml:id", grain).is_empty());
            assert!(!attribute_units(text, "b", grain).is_empty());
            assert!(attribute_units(text, "xmlns:q", grain).is_empty());
            assert!(attribute_units(text, "xmlns:s", grain).is_empty());
        }
        // The first letter stays: what precedes a first `:` is a scheme or holds a `/`.
        assert_eq!(
            attribute_units(text, "xmlns:p", Grain::Characters).concat(),
            "rn:x-1:a/b"
        );
    }

    /// A MathML element whose children have places may lose them all at once; one child
    /// alone only becomes a placeholder.
    #[test]
    fn a_fraction_may_be_emptied_whole() {
        let text = "<math><mfrac><mi>a</mi><mi>b</mi></mfrac><mi>c</mi></math>";
        assert!(rewrites(text, "mfrac").contains(&"<math><mfrac/><mi>c</mi></math>".to_string()));
        assert!(!rewrites(text, "math").iter().any(|r| r.contains("<math/>")));
    }

    /// An attribute's value may go whole (its shrink leaves one character at least); a
    /// namespace declaration's may not, nor an empty one.
    #[test]
    fn attribute_values_may_be_emptied() {
        let text = "<m:a xmlns:m=\"u\" b=\"false\" c=''/>";
        assert_eq!(rewrites(text, "b"), ["<m:a xmlns:m=\"u\" b=\"\" c=''/>"]);
        assert!(rewrites(text, "xmlns:m").is_empty());
        assert!(rewrites(text, "c").is_empty());
    }

    #[test]
    fn elements_unwrap_and_hoist() {
        let text = "<r><p>a<b>x</b><c/></p></r>";
        assert_eq!(
            rewrites(text, "p"),
            vec![
                "<r>a<b>x</b><c/></r>".to_string(),
                "<r><b>x</b></r>".to_string(),
                "<r><c/></r>".to_string(),
            ]
        );
        // The root unwraps only onto a single element.
        assert_eq!(
            rewrites(text, "r"),
            vec!["<p>a<b>x</b><c/></p>".to_string()]
        );
    }

    /// A root replaced by one of its elements renames the DOCTYPE that named it, and only
    /// that one: a DOCTYPE naming another element is left as it is, and so is `html`,
    /// which a browser reads as standards mode.
    #[test]
    fn a_new_root_renames_its_doctype() {
        let text = "<!DOCTYPE r [\n<!ELEMENT r ANY>]>\n<r><p><b/></p><c/></r>";
        assert_eq!(
            rewrites(text, "r"),
            vec![
                "<!DOCTYPE p [\n<!ELEMENT r ANY>]>\n<p><b/></p>".to_string(),
                "<!DOCTYPE c [\n<!ELEMENT r ANY>]>\n<c/>".to_string(),
            ]
        );
        assert_eq!(
            rewrites("<!DOCTYPE  book><book><body/></book>", "book"),
            vec!["<!DOCTYPE  body><body/>".to_string()]
        );
        assert_eq!(
            rewrites("<!DOCTYPE html><html><body/></html>", "html"),
            vec!["<!DOCTYPE html><body/>".to_string()]
        );
        assert_eq!(
            rewrites("<!DOCTYPE x><r><p/></r>", "r"),
            vec!["<!DOCTYPE x><p/>".to_string()]
        );
        // Rewrites of nested elements in one candidate leave a root the DOCTYPE does not
        // name: the DOCTYPE offers the root's name.
        assert_eq!(
            rewrites("<!DOCTYPE server [<!ENTITY e 'x'>]><script/>", "#doctype"),
            vec!["<!DOCTYPE script [<!ENTITY e 'x'>]><script/>".to_string()]
        );
        assert!(rewrites("<!DOCTYPE html><body/>", "#doctype").is_empty());
        assert!(rewrites("<!DOCTYPE r><r/>", "#doctype").is_empty());
    }

    #[test]
    fn a_fraction_outside_math_keeps_positional_children() {
        let tree = Xml.parse("<mfrac><mi>q</mi><mn>1</mn></mfrac>").unwrap();
        let mn = tree.ids().find(|&id| tree.node(id).label == "mn").unwrap();
        assert_eq!(tree.node(mn).delete, None);
    }

    #[test]
    fn empty_elements_collapse() {
        assert_eq!(
            rewrites("<r><e a='1'>\n  </e></r>", "e")[0],
            "<r><e a='1'/></r>"
        );
    }

    #[test]
    fn mathml_positional_children_take_the_placeholder() {
        let m = "<math xmlns=\"http://www.w3.org/1998/Math/MathML\">";
        let text = format!("{m}<mfrac><mi>a</mi><mrow><mn>1</mn><mn>2</mn></mrow></mfrac></math>");
        let tree = Xml.parse(&text).unwrap();
        let mi = tree.ids().find(|&id| tree.node(id).label == "mi").unwrap();
        assert_eq!(tree.node(mi).delete, None);
        assert_eq!(
            rewrites(&text, "mi")[0],
            format!("{m}<mfrac><mrow/><mrow><mn>1</mn><mn>2</mn></mrow></mfrac></math>")
        );
        // An mrow holding two elements cannot be unwrapped inside a fraction.
        assert_eq!(rewrites(&text, "mrow").len(), 1);
    }

    #[test]
    fn word_units_take_the_spaces_between_words_and_leave_cdata_alone() {
        let words = |text: &str| -> Vec<String> {
            word_units(text, 0..text.len())
                .into_iter()
                .map(|r| text[r].to_string())
                .collect()
        };
        assert_eq!(
            words("Contributed by\n  x&amp;y"),
            vec!["Contributed", " ", "by", "\n  ", "x", "&amp;", "y"]
        );
        assert_eq!(words("one"), vec!["one"]);
        assert_eq!(words("M9.4a2_b-1"), vec!["M9", ".", "4a2_b", "-", "1"]);
        assert_eq!(words("a\u{a0}b"), vec!["a", "\u{a0}", "b"]);
        assert!(words("a <![CDATA[b c]]>").is_empty());
    }

    /// A comment shrinks where no deletion can end it early or spell a `--`.
    #[test]
    fn comment_units_never_end_the_comment() {
        let units = |text: &'static str, grain| -> Vec<&'static str> {
            comment_units(text, 0..text.len(), grain)
                .into_iter()
                .map(|r| &text[r])
                .collect()
        };
        assert_eq!(
            units("<!-- a b -->", Grain::Words),
            [" ", "a", " ", "b", " "]
        );
        assert_eq!(units("<!--ab-->", Grain::Characters), ["a", "b"]);
        // A `-` goes with what follows it: no deletion spells `--` or ends in `-`.
        assert_eq!(
            units("<!-- Plug-In x -->", Grain::Words),
            [" ", "Plug", "-In", " ", "x", " "]
        );
        assert_eq!(
            units("<!-- a - b -->", Grain::Words),
            [" ", "a", " ", "- ", "b", " "]
        );
        assert_eq!(units("<!--a-b-c-->", Grain::Characters), ["a", "-b", "-c"]);
        assert!(units("<!-- a -- b -->", Grain::Words).is_empty());
        assert!(units("<!-- a ->b -->", Grain::Words).is_empty());
        assert!(units("<!-- a >b -->", Grain::Words).is_empty());
        // Its `>` is a word of its own, which deletions before it could bring to the front.
        let conditional = "<!--[if IE]> x <![endif]-->";
        assert!(units(conditional, Grain::Words).is_empty());
        assert_eq!(units("<!-- a: b -->", Grain::Words).len(), 6);
        assert!(units(conditional, Grain::Characters).is_empty());
        assert!(units("<?pi a b?>", Grain::Words).is_empty());
    }

    #[test]
    fn character_units_keep_references_and_cdata_markers_whole() {
        let units = |text: &'static str| -> Vec<&'static str> {
            character_units(text, 0..text.len())
                .into_iter()
                .map(|r| &text[r])
                .collect()
        };
        assert_eq!(units("a&amp;<![CDATA[<b]]>"), vec!["a", "&amp;", "<", "b"]);
        // HTML's references without their `;` (a field trial's text was one unit).
        assert_eq!(
            units("&amp 2&#1;"),
            vec!["&", "a", "m", "p", " ", "2", "&#1;"]
        );
        assert_eq!(units("&a&b;"), vec!["&", "a", "&b;"]);
    }

    #[test]
    fn the_cheap_check_of_deletions_agrees_with_a_parse() {
        let texts = [
            "<?xml version=\"1.0\"?>\n<!DOCTYPE a>\n<a x=\"1\" xmlns:m=\"urn:m\">]]<b y='2'/>><m:c>t&amp;u</m:c><!-- c --><?p i?>\n  <d>e</d></a>\n<!-- end -->",
            "<r>]<s/>]<t/>></r>",
        ];
        for text in texts {
            let tree = Xml.parse(text).unwrap();
            let deletions: Vec<Edit> = tree
                .ids()
                .filter_map(|id| tree.node(id).delete.clone().map(Edit::delete))
                .collect();
            // Every single deletion and every pair of them.
            for (i, a) in deletions.iter().enumerate() {
                for b in &deletions[i..] {
                    let candidate = crate::render::render(text, &[a, b]);
                    assert_eq!(
                        Xml.deletions_stay_valid(text, &[], &candidate),
                        Some(Xml.is_valid(&candidate)),
                        "{candidate}"
                    );
                }
            }
        }
        // With a CDATA section in the base the check declines and a parse decides.
        assert_eq!(
            Xml.deletions_stay_valid("<a><![CDATA[x]]></a>", &[], "<a/>"),
            None
        );
    }

    #[test]
    fn entities_of_an_external_dtd_parse_as_opaque_text() {
        let text = "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.1//EN\" \"x.dtd\" [<!ENTITY me \"x\">]>\n<p a=\"&nbsp;\">&InvisibleTimes;&me;&amp;&#955;<b/></p>";
        assert_eq!(
            mask_undefined_entities(text),
            text.replace("&nbsp;", "______")
                .replace("&InvisibleTimes;", "________________")
        );
        let tree = Xml.parse(text).unwrap();
        // The DOCTYPE holds what the references mean, so it stays.
        let doctype = tree
            .ids()
            .find(|&id| tree.node(id).label == "#doctype")
            .unwrap();
        assert_eq!(tree.node(doctype).delete, None);
        let p = tree.ids().find(|&id| tree.node(id).label == "p").unwrap();
        assert_eq!(
            &text[tree.node(p).span.clone()],
            &text[text.find("<p").unwrap()..]
        );
        assert!(Xml.is_valid(text));
        // An undefined reference is still an error where the syntax is broken around it.
        assert!(!Xml.is_valid("<p>&nbsp</p>"));
        assert!(Xml.parse("<p>&nbsp;<p></p>").is_err());
        // Without such references nothing is copied.
        assert!(matches!(
            mask_undefined_entities("<a>&lt;</a>"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn carriage_returns_are_read_as_spaces_with_the_same_verdict() {
        let texts = [
            "<a>\r\n<b c=\"1\r\n2\"\r\n/>\r</a>\r\n",
            "<?xml version=\"1.0\"?>\r\n<!DOCTYPE a [\r\n<!ENTITY e \"x\">\r\n]>\r\n<a>&e;</a>",
            "<a><!--\r--><?p \r?><![CDATA[\r]]></a>",
            "<\ra/>",
            "<a\r/>",
            "<a></a\r>",
            "<a\rb=\"1\"/>",
            "<ab\r=\"1\"/>",
            "<a>&\r;</a>",
            "<a>\r</b>",
        ];
        for text in texts {
            let plain = roxmltree::Document::parse_with_options(text, options()).is_ok();
            assert_eq!(Xml.is_valid(text), plain, "{text:?}");
            assert!(!mask_undefined_entities(text).contains('\r'));
        }
        let text = texts[0];
        let tree = Xml.parse(text).unwrap();
        let b = tree.ids().find(|&id| tree.node(id).label == "b").unwrap();
        assert_eq!(&text[tree.node(b).span.clone()], "<b c=\"1\r\n2\"\r\n/>");
    }

    #[test]
    fn malformed_reports_line_and_column() {
        let err = Xml.parse("<a>\n  <b></a>").unwrap_err();
        assert_eq!((err.line, err.column), (2, 6));
    }
}
