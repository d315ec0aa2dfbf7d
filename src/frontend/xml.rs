//! The XML front end on roxmltree: elements, attributes, text (CDATA included), comments
//! and processing instructions become nodes with exact byte spans; the XML declaration, the
//! DOCTYPE and namespace declarations are never nodes, so they survive untouched. The tree
//! is built without recursion, so nesting depth is bounded only by roxmltree.

use std::ops::Range;

use super::{Frontend, SyntaxError, deletion_span, take_whitespace};
use crate::tree::{Node, NodeId, NodeKind, Tree};

/// Well-formed XML.
#[derive(Debug, Clone, Copy, Default)]
pub struct Xml;

fn options<'a>() -> roxmltree::ParsingOptions<'a> {
    roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: u32::MAX,
        ..roxmltree::ParsingOptions::default()
    }
}

impl Frontend for Xml {
    fn parse(&self, text: &str) -> Result<Tree, SyntaxError> {
        let doc = roxmltree::Document::parse_with_options(text, options()).map_err(|e| {
            let pos = e.pos();
            SyntaxError {
                line: pos.row,
                column: pos.col,
                message: e.to_string(),
            }
        })?;
        Ok(build(text, &doc))
    }

    fn is_valid(&self, text: &str) -> bool {
        roxmltree::Document::parse_with_options(text, options()).is_ok()
    }
}

fn node(kind: NodeKind, label: String, span: Range<usize>, delete: Option<Range<usize>>) -> Node {
    Node {
        kind,
        label,
        span,
        delete,
        alternatives: Vec::new(),
        parent: None,
        depth: 0,
        children: Vec::new(),
    }
}

fn qualified_name(text: &str, element: &roxmltree::Node) -> String {
    let start = element.range().start + 1;
    let len = text[start..]
        .find(|c: char| c.is_whitespace() || c == '/' || c == '>')
        .unwrap_or(0);
    text[start..start + len].to_string()
}

/// End of the start tag of the element that begins at `start` (just past its `>`), and
/// whether the tag is self-closing. Quoted attribute values may hold `>`.
fn start_tag_end(text: &str, start: usize) -> (usize, bool) {
    let bytes = text.as_bytes();
    let mut i = start + 1;
    let mut quote: Option<u8> = None;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'"' | b'\'' => quote = Some(b),
                b'>' => return (i + 1, bytes[i - 1] == b'/'),
                _ => {}
            },
        }
        i += 1;
    }
    (bytes.len(), false)
}

/// Byte range of an element's content: between its start tag and its end tag.
fn content_range(text: &str, element: &roxmltree::Node) -> Range<usize> {
    let range = element.range();
    let (open_end, empty) = start_tag_end(text, range.start);
    if empty {
        return open_end..open_end;
    }
    let close_start = text[open_end..range.end]
        .rfind("</")
        .map_or(range.end, |i| open_end + i);
    open_end..close_start
}

fn build(text: &str, doc: &roxmltree::Document) -> Tree {
    let mut tree = Tree::new(text.len());
    // (roxmltree node, our parent id, content range of the parent).
    let mut stack: Vec<(roxmltree::Node, NodeId, Range<usize>)> = Vec::new();
    let top = doc.root();
    for child in top.children().rev() {
        stack.push((child, tree.root(), 0..text.len()));
    }
    // Children are pushed in reverse so they pop in document order, which keeps the arena
    // in document order.
    while let Some((xn, parent, parent_content)) = stack.pop() {
        let at_top = parent == tree.root();
        match xn.node_type() {
            roxmltree::NodeType::Element => {
                let range = xn.range();
                let delete = (!at_top).then(|| deletion_span(text, range.start, range.end));
                let id = tree.push(
                    parent,
                    node(NodeKind::Element, qualified_name(text, &xn), range, delete),
                );
                for attr in xn.attributes() {
                    let span = attr.range();
                    let delete = take_whitespace(text, span.start)..span.end;
                    tree.push(
                        id,
                        node(
                            NodeKind::Attribute,
                            attr.name().to_string(),
                            span,
                            Some(delete),
                        ),
                    );
                }
                let content = content_range(text, &xn);
                for child in xn.children().rev() {
                    stack.push((child, id, content.clone()));
                }
            }
            roxmltree::NodeType::Text => {
                // Text ranges are derived from the neighbours: roxmltree merges text and
                // CDATA pieces into one node whose own range covers only the first piece.
                let start = xn
                    .prev_sibling()
                    .map_or(parent_content.start, |s| s.range().end);
                let end = xn
                    .next_sibling()
                    .map_or(parent_content.end, |s| s.range().start);
                let raw = &text[start..end];
                let trimmed = raw.trim_start();
                if trimmed.is_empty() {
                    continue;
                }
                let core_start = end - trimmed.len();
                let core_end = core_start + trimmed.trim_end().len();
                let delete = deletion_span(text, core_start, core_end);
                tree.push(
                    parent,
                    node(
                        NodeKind::Text,
                        String::from("#text"),
                        core_start..core_end,
                        Some(delete),
                    ),
                );
            }
            roxmltree::NodeType::Comment | roxmltree::NodeType::PI => {
                let range = xn.range();
                let delete = deletion_span(text, range.start, range.end);
                let label = if xn.is_comment() { "#comment" } else { "#pi" };
                tree.push(
                    parent,
                    node(NodeKind::Comment, label.to_string(), range, Some(delete)),
                );
            }
            roxmltree::NodeType::Root => {}
        }
    }
    tree
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<(String, String, Option<String>)> {
        let tree = Xml.parse(text).unwrap();
        tree.ids()
            .skip(1)
            .map(|id| {
                let n = tree.node(id);
                (
                    n.label.clone(),
                    text[n.span.clone()].to_string(),
                    n.delete.clone().map(|d| text[d].to_string()),
                )
            })
            .collect()
    }

    #[test]
    fn nodes_and_their_deletion_spans() {
        let text = "<?xml version=\"1.0\"?>\n<!-- c -->\n<a x=\"1\" y='>'>\n  <b/>\n  t &amp; u<![CDATA[<z>]]>\n</a>\n";
        let got = spans(text);
        let s =
            |a: &str, b: &str, c: Option<&str>| (a.to_string(), b.to_string(), c.map(String::from));
        assert_eq!(
            got,
            vec![
                s("#comment", "<!-- c -->", Some("\n<!-- c -->")),
                s("a", &text[33..], None),
                s("x", "x=\"1\"", Some(" x=\"1\"")),
                s("y", "y='>'", Some(" y='>'")),
                s("b", "<b/>", Some("\n  <b/>")),
                s(
                    "#text",
                    "t &amp; u<![CDATA[<z>]]>",
                    Some("\n  t &amp; u<![CDATA[<z>]]>")
                ),
            ]
            .into_iter()
            .map(|(a, b, c)| (a, b.trim_end().to_string(), c))
            .collect::<Vec<_>>()
        );
    }

    #[test]
    fn depth_is_nesting() {
        let tree = Xml.parse("<a><b><c/></b>x</a>").unwrap();
        let depths: Vec<(String, u32)> = tree
            .ids()
            .map(|id| (tree.node(id).label.clone(), tree.node(id).depth))
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

    #[test]
    fn malformed_reports_line_and_column() {
        let err = Xml.parse("<a>\n  <b></a>").unwrap_err();
        assert_eq!((err.line, err.column), (2, 6));
    }
}
