//! Prints the elements treereduce's HTML front end finds in each file given, one per line:
//! `FILE START END PARENT NAME`, tab-separated, in UTF-8 byte offsets (PARENT is the
//! start of the enclosing element, -1 at the top). `bench/htmldiff.py` compares these with
//! what parse5 (the HTML standard's parser) builds.

use treereduce::frontend::Format;
use treereduce::tree::NodeKind;

fn main() {
    for path in std::env::args().skip(1) {
        let text = match std::fs::read(&path).map(String::from_utf8) {
            Ok(Ok(text)) => text,
            _ => {
                eprintln!("html_elements: {path}: not readable as UTF-8 text");
                std::process::exit(2);
            }
        };
        let frontend = Format::Html.frontend_for(std::path::Path::new(&path), &text);
        let Ok(tree) = frontend.parse(&text) else {
            eprintln!("html_elements: {path}: does not parse against itself");
            std::process::exit(2);
        };
        for id in tree.ids() {
            let node = tree.node(id);
            if node.kind != NodeKind::Element {
                continue;
            }
            let parent = node
                .parent
                .map(|p| tree.node(p))
                .filter(|p| p.kind == NodeKind::Element)
                .map_or(-1, |p| p.span.start as i64);
            let name = node.label.to_ascii_lowercase();
            println!(
                "{path}\t{}\t{}\t{parent}\t{name}",
                node.span.start, node.span.end
            );
        }
    }
}
