//! The `lines` front end: every line (with its line break) is an item at depth 1. It makes
//! the list strategies usable on any text and comparable with Lithium's line mode.

use super::{Frontend, SyntaxError};
use crate::tree::{Node, NodeKind, Tree};

/// Plain text as a flat list of lines.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lines;

impl Frontend for Lines {
    fn parse(&self, text: &str) -> Result<Tree, SyntaxError> {
        let mut tree = Tree::new(text.len());
        let root = tree.root();
        let mut start = 0;
        for line in text.split_inclusive('\n') {
            let span = start..start + line.len();
            start = span.end;
            tree.push(
                root,
                Node {
                    kind: NodeKind::Line,
                    label: String::from("line"),
                    delete: Some(span.clone()),
                    span,
                    alternatives: Vec::new(),
                    parent: None,
                    depth: 0,
                    children: Vec::new(),
                },
            );
        }
        Ok(tree)
    }

    fn is_valid(&self, _text: &str) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_node_per_line_including_last_without_newline() {
        let tree = Lines.parse("a\nbb\nc").unwrap();
        let spans: Vec<_> = tree
            .at_depth(1)
            .iter()
            .map(|&id| tree.node(id).span.clone())
            .collect();
        assert_eq!(spans, vec![0..2, 2..5, 5..6]);
    }
}
