//! The `lines` front end: every line (with its line break) is an item. Indentation makes
//! the hierarchy: the lines after a line that are indented deeper than it are its children,
//! and a line that only closes what it opened (`}`, `]`, `)`, `</p>`, `end`...) at the
//! opener's own indentation goes with it; blocks delimited by keyword lines at the opener's
//! own indentation (shell's `if` / `then` / `fi`, `#ifdef` / `#endif`) hold what lies
//! between them; a `{` line below a header at its indentation is the header's; and a clause
//! (`else:`, `except E:`) goes with the statement above it when that goes. Deleting a line
//! then deletes its whole block, so
//! Hierarchical Delta Debugging works on the blocks of code, configuration or pretty-printed
//! data as it does on a tree. A text without indentation is a flat list of lines, which
//! makes the list strategies comparable with Lithium's line mode.

use std::collections::BTreeMap;
use std::ops::Range;

use super::{Frontend, Grain, SyntaxError};
use crate::tree::{Edit, Node, NodeId, NodeKind, Tree};

/// Plain text as lines nested by indentation.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lines;

/// A line of the text: its byte range (line break included) and its indentation, or
/// `None` when it holds nothing but whitespace.
struct Line {
    start: usize,
    end: usize,
    indent: Option<usize>,
}

fn split(text: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_start_matches([' ', '\t']);
        let blank = body.trim().is_empty();
        lines.push(Line {
            start,
            end: start + line.len(),
            indent: (!blank).then_some(line.len() - body.len()),
        });
        start += line.len();
    }
    lines
}

/// True when `line` (indentation removed) only closes a block: a closing bracket first, an
/// end tag, or alone on it a word that ends a block in shell, Ruby, Lua or Fortran-like
/// languages.
fn closes(line: &str) -> bool {
    let line = line.trim();
    if line.starts_with(['}', ']', ')']) || line.starts_with("</") {
        return true;
    }
    // Only a word alone on its line (a `;` may follow): `done = 1` is an assignment.
    matches!(
        line.trim_end_matches(';').trim_end(),
        "end" | "fi" | "done" | "esac" | "endif" | "endfor" | "endwhile" | "endfunction"
    )
}

/// True unless `closer` is an end tag and `opener` does not start the same element
/// (`</html>` under `<body>` belongs to neither).
fn tags_match(opener: &str, closer: &str) -> bool {
    let Some(name) = closer.trim().strip_prefix("</") else {
        return true;
    };
    let name = name
        .split(|c: char| c == '>' || c.is_whitespace())
        .next()
        .unwrap_or("");
    opener
        .trim()
        .strip_prefix('<')
        .and_then(|rest| rest.strip_prefix(name))
        .is_some_and(|rest| rest.starts_with(|c: char| c == '>' || c == '/' || c.is_whitespace()))
}

/// True when `block` (a header with what belongs to it so far) may go on with a body in
/// braces on the next line: its last line ends neither a statement, nor an item, nor a
/// block, nor opens a bracket of its own, and is no preprocessor line or comment's end.
fn awaits_body(block: &str) -> bool {
    let Some(last) = block.lines().rev().map(str::trim).find(|l| !l.is_empty()) else {
        return false;
    };
    !last.starts_with('#')
        && !last.ends_with("*/")
        && !last.ends_with([';', ',', '{', '[', '(', '}', ']'])
}

/// How many more brackets `text` opens than it closes, leaving out those in a quoted
/// string or character closed on its own line (`case '{':`), in a `/* */` comment closed
/// on its line and after `//`. A guess, as the whole front end is: a quote that no later
/// quote on its line closes is an apostrophe.
fn open_brackets(text: &str) -> isize {
    let mut open = 0;
    for line in text.lines() {
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'{' | b'[' | b'(' => open += 1,
                b'}' | b']' | b')' => open -= 1,
                quote @ (b'\'' | b'"') => {
                    let mut j = i + 1;
                    while j < bytes.len() && bytes[j] != quote {
                        j += if bytes[j] == b'\\' { 2 } else { 1 };
                    }
                    if j < bytes.len() {
                        i = j;
                    }
                }
                b'/' if bytes.get(i + 1) == Some(&b'/') => break,
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    if let Some(end) = line[i + 2..].find("*/") {
                        i += 2 + end + 1;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
    open
}

/// True when `line` ends by opening a bracket, so that a closing line at its own
/// indentation belongs to it even when nothing is indented between them.
fn opens(line: &str) -> bool {
    line.trim_end().ends_with(['{', '[', '('])
}

/// Languages whose blocks are delimited by keyword lines at the opener's own indentation:
/// shell's `if` / `then` / `else` / `fi` in git's style, Make's `ifeq` / `else` /
/// `endif`, the C preprocessor's `#ifdef` / `#else` / `#endif` around code that is not
/// indented. Each family: its openers, the lines that continue a block (`else`), its
/// closers. A word is matched as the line's first word.
const KEYWORD_BLOCKS: &[(&[&str], &[&str], &[&str])] = &[
    (&["if"], &["then", "else", "elif"], &["fi"]),
    (&["while", "until", "for", "select"], &["do"], &["done"]),
    (&["case"], &[], &["esac"]),
    (&["ifeq", "ifneq", "ifdef", "ifndef"], &["else"], &["endif"]),
    (
        &["#if", "#ifdef", "#ifndef"],
        &["#else", "#elif", "#elifdef", "#elifndef"],
        &["#endif"],
    ),
];

/// The role a line plays in a keyword block (see [`KEYWORD_BLOCKS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keyword {
    /// Opens a block of family `.0`.
    Opens(usize),
    /// Continues (`else`) or closes a block of any family that has word `.0` so.
    Continues(&'static str),
    /// Closes one.
    Closes(&'static str),
}

/// The keyword role of `line` (indentation removed), if any. A preprocessor directive may
/// have spaces after its `#`; an opener whose closer ends the same line (`if a; then b;
/// fi`) opens nothing, and nor does a line ending in `:`, `{` or `(` (Python's `if a:`,
/// C's `if (a) {`), whose block indentation or brackets give.
fn keyword(line: &str) -> Option<Keyword> {
    let line = line.trim();
    let directive;
    let line = match line.strip_prefix('#') {
        Some(rest) => {
            directive = format!("#{}", rest.trim_start());
            directive.as_str()
        }
        None => line,
    };
    let first = line
        .split(|c: char| c.is_whitespace() || c == ';' || c == '(')
        .next()
        .unwrap_or("");
    let last = line
        .trim_end_matches(';')
        .rsplit(char::is_whitespace)
        .next();
    for (family, (openers, middles, closers)) in KEYWORD_BLOCKS.iter().enumerate() {
        if let Some(word) = closers.iter().find(|&&w| w == first) {
            return Some(Keyword::Closes(word));
        }
        if let Some(word) = middles.iter().find(|&&w| w == first) {
            return Some(Keyword::Continues(word));
        }
        if openers.contains(&first) {
            let closed_here = last.is_some_and(|word| closers.contains(&word));
            let other = line.ends_with([':', '{', '(']);
            return (!closed_here && !other).then_some(Keyword::Opens(family));
        }
    }
    None
}

/// How far down a stack of open blocks a keyword line looks for its opener: further down,
/// thousands of unmatched openers (lines of prose that begin with `for`) would make each
/// closer cost a walk over all of them.
const KEYWORD_REACH: usize = 64;

/// The index of the entry nearest the top of `stack`, among its top [`KEYWORD_REACH`],
/// that `wanted` accepts.
fn near_top<T>(stack: &[T], wanted: impl Fn(&T) -> bool) -> Option<usize> {
    let floor = stack.len().saturating_sub(KEYWORD_REACH);
    stack[floor..].iter().rposition(wanted).map(|at| floor + at)
}

/// For each line that opens a keyword block, the line that closes it, found at the same
/// indentation with nothing less indented between; and for each line that continues or
/// closes a block, the line that opened it. Openers left unmatched hold nothing.
fn keyword_blocks(text: &str, lines: &[Line]) -> (BTreeMap<usize, usize>, BTreeMap<usize, usize>) {
    let mut closer_of = BTreeMap::new();
    let mut opener_of = BTreeMap::new();
    // Open keyword blocks, innermost last: (family, indentation, line).
    let mut open: Vec<(usize, usize, usize)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(indent) = line.indent else {
            continue;
        };
        // A line less indented than a block's opener ends it unmatched.
        while open.last().is_some_and(|&(_, at, _)| at > indent) {
            open.pop();
        }
        let Some(role) = keyword(&text[line.start..line.end]) else {
            continue;
        };
        let (word, closes) = match role {
            Keyword::Opens(family) => {
                open.push((family, indent, i));
                continue;
            }
            Keyword::Continues(word) => (word, false),
            Keyword::Closes(word) => (word, true),
        };
        let Some(at) = near_top(&open, |&(family, at, _)| {
            let (_, middles, closers) = KEYWORD_BLOCKS[family];
            at == indent && if closes { closers } else { middles }.contains(&word)
        }) else {
            continue;
        };
        let opener = open[at].2;
        opener_of.insert(i, opener);
        if closes {
            closer_of.insert(opener, i);
            open.truncate(at);
        }
    }
    // Continuations of blocks that never closed belong to none.
    opener_of.retain(|_, opener| closer_of.contains_key(opener));
    (closer_of, opener_of)
}

impl Frontend for Lines {
    fn parse(&self, text: &str) -> Result<Tree, SyntaxError> {
        let lines = split(text);
        // A blank line takes the indentation of the next line that is not blank, so that it
        // goes with what follows it.
        let mut indents = vec![0; lines.len()];
        let mut next = 0;
        for (i, line) in lines.iter().enumerate().rev() {
            next = line.indent.unwrap_or(next);
            indents[i] = next;
        }
        // How many brackets the lines before each line leave open: a block on the stack
        // below holds every line from its opener on, so what it leaves open is a
        // difference of two of these.
        let mut unclosed = Vec::with_capacity(lines.len() + 1);
        unclosed.push(0);
        for line in &lines {
            let before = unclosed.last().copied().unwrap_or(0);
            unclosed.push(before + open_brackets(&text[line.start..line.end]));
        }
        // What the block opened at line `first` leaves open before line `i`.
        let left_open = |first: usize, i: usize| unclosed[i] - unclosed[first];
        let mut tree = Tree::new(text.len());
        // Open blocks, innermost last: (node, indentation, line index of the opener).
        let mut open: Vec<(NodeId, usize, usize)> = Vec::new();
        // Every line's node and opening line, and the closing lines each block took.
        let mut heads: Vec<(NodeId, usize)> = Vec::new();
        let mut closers: BTreeMap<NodeId, Vec<usize>> = BTreeMap::new();
        let (closer_of, opener_of) = keyword_blocks(text, &lines);
        // A keyword block holds the lines at its own indentation until its closer.
        let holds = |first: usize, i: usize| closer_of.get(&first).is_some_and(|&c| i <= c);
        for (i, line) in lines.iter().enumerate() {
            let indent = indents[i];
            let body = &text[line.start..line.end];
            if let Some(&opener) = opener_of.get(&i)
                && let Some(at) = near_top(&open, |&(_, _, first)| first == opener)
            {
                // `then`, `else`, `fi`: the opener's own lines, deleted with it.
                open.truncate(at + 1);
                let id = open[at].0;
                extend(&mut tree, id, line.end);
                closers.entry(id).or_default().push(i);
                if closer_of.get(&opener) == Some(&i) {
                    open.truncate(at);
                }
                continue;
            }
            // A line that opens a brace block below a header at its own indentation (GNU
            // and Allman style: `int f (void)` or `if (x)` on one line, `{` on the next)
            // is the header's own: deleting one without the other leaves what no compiler
            // takes, and unwrapping the header takes it too.
            if line.indent.is_some() && body.trim_start().starts_with('{') {
                let at = open.iter().rposition(|&(_, at, _)| at <= indent);
                if let Some(at) = at
                    && open[at].1 == indent
                    && awaits_body(&text[tree.node(open[at].0).span.clone()])
                {
                    open.truncate(at + 1);
                    let id = open[at].0;
                    extend(&mut tree, id, line.end);
                    closers.entry(id).or_default().push(i);
                    continue;
                }
            }
            if line.indent.is_some() && closes(body) {
                // Closes the block opened at the same indentation, if the opener either
                // had lines indented below it or opened a bracket itself.
                while open.last().is_some_and(|&(_, at, _)| at > indent) {
                    open.pop();
                }
                // A bracket closes the nearest block at its indentation that left one
                // open: past a C label at column 0 (`fail:`) in the function it closes.
                let bracket = body.trim_start().starts_with(['}', ']', ')']);
                if bracket
                    && let Some(k) = open.iter().rposition(|&(_, at, first)| {
                        at < indent || (at == indent && left_open(first, i) > 0)
                    })
                    && open[k].1 == indent
                {
                    open.truncate(k + 1);
                }
                if let Some(&(id, at, first)) = open.last() {
                    let opener = &lines[first];
                    // A joined `{` line (see above) opened a bracket for the block.
                    let had_children =
                        !tree.node(id).children.is_empty() || closers.contains_key(&id);
                    let head = &text[opener.start..opener.end];
                    // A bracket that closes nothing the block left open is not its own:
                    // after a function's `}`, the `}` of the namespace around it.
                    if at == indent
                        && (had_children || opens(head))
                        && tags_match(head, body)
                        && (!bracket || left_open(first, i) > 0)
                    {
                        // The block stays open: deeper lines after a line like
                        // `} else {` or `) -> int:` are the rest of the same statement.
                        extend(&mut tree, id, line.end);
                        closers.entry(id).or_default().push(i);
                        continue;
                    }
                }
            }
            // A block whose brace is still open holds the lines at its own indentation
            // until its closer: a C function's body or a namespace's declarations written
            // without indentation.
            let brace_open = |id: NodeId, first: usize| {
                let head = text[lines[first].start..lines[first].end].trim_end();
                (head.ends_with('{') || closers.contains_key(&id)) && left_open(first, i) > 0
            };
            while open.last().is_some_and(|&(id, at, first)| {
                at > indent || (at == indent && !holds(first, i) && !brace_open(id, first))
            }) {
                open.pop();
            }
            let parent = open.last().map_or(tree.root(), |&(id, _, _)| id);
            let span = line.start..line.end;
            let id = tree.push(
                parent,
                Node::new(NodeKind::Line, "line".into(), span.clone(), Some(span)),
            );
            // Every block the line is in now reaches at least its end.
            extend(&mut tree, parent, line.end);
            heads.push((id, i));
            if line.indent.is_some() {
                open.push((id, indent, i));
            }
        }
        take_separators(text, &mut tree);
        let chains = take_continuations(text, &mut tree);
        add_unwraps(&lines, &mut tree, &heads, closers, &chains);
        Ok(tree)
    }

    fn is_valid(&self, _text: &str) -> bool {
        true
    }

    fn shrinks_alike(&self) -> bool {
        true
    }

    /// A line loses the words (runs of letters, digits and `_`), runs of blanks and other
    /// characters of its own first line, one at a time, its indentation and line break
    /// aside: a line a test needs may not need all of it (of `declare -A x=(["/"]=1 ...)`
    /// a shell's `(` error needs `x=(`). A block's closing lines stay whole.
    fn units(&self, text: &str, node: &Node, grain: Grain) -> Vec<Range<usize>> {
        if grain != Grain::Words || node.kind != NodeKind::Line {
            return Vec::new();
        }
        let start = node.span.start;
        let own = text.get(node.span.clone()).unwrap_or_default();
        let line = own.split_inclusive('\n').next().unwrap_or(own);
        let body = line.trim_end_matches(['\n', '\r']);
        let indent = body.len() - body.trim_start_matches([' ', '\t']).len();
        let characters = body
            .char_indices()
            .filter(|&(at, _)| at >= indent)
            .map(|(at, c)| start + at..start + at + c.len_utf8())
            .collect();
        super::words(text, characters)
    }
}

/// Lines of code in braces and semicolons (C, C++, Java, Go, CSS...): [`Lines`], but what
/// a line needs is not only around it: a `typedef` whose deletion failed while a later
/// declaration used it may go once that declaration is gone. Failed deletions are then
/// asked again at the passes' fixed point (a sweep), as JavaScript's are.
#[derive(Debug, Clone, Copy, Default)]
pub struct CodeLines;

impl CodeLines {
    /// True when `text` reads as code in braces and semicolons: at least 3 of its lines,
    /// and a third of those not blank, end with `;`, `{` or `}`.
    pub fn reads_as_code(text: &str) -> bool {
        let (mut lines, mut ends) = (0, 0);
        for line in text
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.trim().is_empty())
        {
            lines += 1;
            ends += usize::from(line.ends_with([';', '{', '}']));
        }
        ends >= 3 && 3 * ends >= lines
    }
}

impl Frontend for CodeLines {
    fn parse(&self, text: &str) -> Result<Tree, SyntaxError> {
        Lines.parse(text)
    }

    fn is_valid(&self, text: &str) -> bool {
        Lines.is_valid(text)
    }

    fn shrinks_alike(&self) -> bool {
        Lines.shrinks_alike()
    }

    fn units(&self, text: &str, node: &Node, grain: Grain) -> Vec<Range<usize>> {
        Lines.units(text, node, grain)
    }

    fn needs_are_local(&self) -> bool {
        false
    }
}

/// Blocks longer than this are unwrapped without moving their lines left (the edits per
/// block would grow with its length times its depth).
const DEDENT_LINES: usize = 200;

/// Gives every block with lines inside it the alternative of losing its own opening and
/// closing lines, its inner lines moved left to its indentation (as Python and YAML need),
/// so that what a needed line sits in can go without it. A statement with clauses that
/// continue it (see [`take_continuations`]) loses theirs with its own: without its `if`,
/// an `else` is left dangling, while all the branches' bodies in a row still parse.
fn add_unwraps(
    lines: &[Line],
    tree: &mut Tree,
    heads: &[(NodeId, usize)],
    mut closers: BTreeMap<NodeId, Vec<usize>>,
    chains: &BTreeMap<NodeId, Vec<NodeId>>,
) {
    let mut unwraps: BTreeMap<NodeId, Vec<Edit>> = BTreeMap::new();
    for &(id, head) in heads {
        let node = tree.node(id);
        if node.children.is_empty() {
            continue;
        }
        let end = node.span.end;
        let last = lines.partition_point(|l| l.end < end).min(lines.len() - 1);
        let own = closers.remove(&id).unwrap_or_default();
        let mut edits = vec![Edit::delete(lines[head].start..lines[head].end)];
        edits.extend(
            own.iter()
                .map(|&l| Edit::delete(lines[l].start..lines[l].end)),
        );
        let base = lines[head].indent.unwrap_or(0);
        let inner = || (head + 1..=last).filter(|l| !own.contains(l));
        let shift = inner()
            .filter_map(|l| lines[l].indent)
            .min()
            .unwrap_or(base)
            .saturating_sub(base);
        if shift > 0 && last - head <= DEDENT_LINES {
            for l in inner() {
                let line = &lines[l];
                if line.indent.is_some_and(|indent| indent >= base + shift) {
                    let at = line.start + base;
                    edits.push(Edit::delete(at..at + shift));
                }
            }
        }
        unwraps.insert(id, edits);
    }
    for (&head, clauses) in chains {
        let Some(mut edits) = unwraps.remove(&head) else {
            continue;
        };
        // A clause without lines of its own to keep (`else: pass`) goes whole.
        for clause in clauses {
            match unwraps.get(clause) {
                Some(own) => edits.extend(own.iter().cloned()),
                None => edits.extend(tree.node(*clause).delete.clone().map(Edit::delete)),
            }
        }
        tree.node_mut(head).alternatives.push(edits);
    }
    for (id, edits) in unwraps {
        tree.node_mut(id).alternatives.push(edits);
    }
}

/// A list whose items end in commas has none after its last item (JSON, most code): the
/// last item's deletion takes the comma before it along, so that what stays is still a
/// list. Deleting it with the item before it leaves that item's predecessor with a comma
/// too many; a later round, which sees the shorter list, takes that one.
fn take_separators(text: &str, tree: &mut Tree) {
    for parent in tree.ids().collect::<Vec<_>>() {
        let children = &tree.node(parent).children;
        let [.., before, last] = children[..] else {
            continue;
        };
        let previous = text[tree.node(before).span.clone()].trim_end();
        let span = tree.node(last).span.clone();
        let own = text[span.clone()].trim_end();
        // Only for neighbours (a closing line between them, as in `) -> int:`, ends the
        // list) and for a list that a closing line ends: `Dear Alice,` before a letter's
        // last line is no list.
        let adjacent = tree.node(before).span.end == span.start;
        let closed = text[span.end..]
            .lines()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| l.trim_start().starts_with(['}', ']', ')']));
        if !adjacent || !closed || !previous.ends_with(',') || own.ends_with(',') || own.is_empty()
        {
            continue;
        }
        let comma = tree.node(before).span.start + previous.len() - 1;
        // The item's own line break stays (`\r\n` too), in place of the one after the comma.
        let item = &text[span.clone()];
        let end = span.end - (item.len() - item.trim_end_matches(['\r', '\n']).len());
        tree.node_mut(last).delete = Some(comma..end);
    }
}

/// Words that begin a clause continuing the statement before it at the same indentation
/// (Python's `elif`, `else` and `except`, Allman style's `else` and `catch`, Ruby's
/// `elsif` and `rescue`).
const CONTINUATIONS: &[&str] = &[
    "else", "elif", "elsif", "elseif", "except", "finally", "catch", "rescue", "ensure",
];

/// True when `line` (indentation removed) begins with one of [`CONTINUATIONS`].
fn continues(line: &str) -> bool {
    CONTINUATIONS.iter().any(|word| {
        line.strip_prefix(word)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    })
}

/// A statement's deletion takes along the clauses that continue it on lines of their own
/// at its indentation (`else:`, `except E:`): deleted without it, they would be left
/// dangling. Each clause may still go alone (an `else` whose branch is not needed).
/// Returns the clauses of every statement that has some.
fn take_continuations(text: &str, tree: &mut Tree) -> BTreeMap<NodeId, Vec<NodeId>> {
    let mut chains = BTreeMap::new();
    let indent = |span: &Range<usize>| {
        let line = &text[span.clone()];
        line.len() - line.trim_start_matches([' ', '\t']).len()
    };
    for parent in tree.ids().collect::<Vec<_>>() {
        let children = tree.node(parent).children.clone();
        let mut i = 0;
        while i < children.len() {
            let head = tree.node(children[i]).span.clone();
            let own = text[head.clone()].trim_start();
            let mut end = None;
            let mut clauses = Vec::new();
            let mut j = i + 1;
            while let Some(&next) = children.get(j) {
                let span = tree.node(next).span.clone();
                let line = text[span.clone()].trim_start();
                if line.is_empty() {
                    j += 1;
                    continue;
                }
                if !continues(line) || indent(&span) != indent(&head) {
                    break;
                }
                end = Some(span.end);
                clauses.push(next);
                j += 1;
            }
            let node = tree.node_mut(children[i]);
            if let Some(end) = end
                && !continues(own)
                && node.delete.as_ref() == Some(&head)
            {
                node.delete = Some(head.start..end);
                chains.insert(children[i], clauses);
            }
            i = j.max(i + 1);
        }
    }
    chains
}

/// Makes node `id` and its ancestors (all of them blocks still open) reach `end`; stops
/// at the first that already does.
fn extend(tree: &mut Tree, id: NodeId, end: usize) {
    let mut at = Some(id);
    while let Some(node) = at {
        if node == tree.root() {
            break;
        }
        let node = tree.node_mut(node);
        if node.span.end >= end {
            break;
        }
        node.span.end = end;
        node.delete = Some(node.span.start..end);
        at = node.parent;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_shrinks_by_the_words_of_its_own_first_line() {
        let text = "if [ -n \"$x\" ]; then\r\n  echo a=(1 2)\r\nfi\r\n";
        let tree = Lines.parse(text).unwrap();
        let units = |own: &str, grain: Grain| -> Vec<&str> {
            let id = tree
                .ids()
                .skip(1)
                .find(|&id| text[tree.node(id).span.clone()].starts_with(own))
                .unwrap();
            Lines
                .units(text, tree.node(id), grain)
                .into_iter()
                .map(|u| &text[u])
                .collect()
        };
        // The block's first line only: not its body nor its `fi`, nor the line break.
        assert_eq!(
            units("if", Grain::Words),
            [
                "if", " ", "[", " ", "-", "n", " ", "\"", "$", "x", "\"", " ", "]", ";", " ",
                "then"
            ]
        );
        // No indentation.
        assert_eq!(
            units("  echo", Grain::Words),
            ["echo", " ", "a", "=", "(", "1", " ", "2", ")"]
        );
        assert!(units("  echo", Grain::Characters).is_empty());
    }

    /// Every node as (depth, its text), in document order.
    fn outline(text: &str) -> Vec<(u32, &str)> {
        let tree = Lines.parse(text).unwrap();
        tree.ids()
            .skip(1)
            .map(|id| {
                let node = tree.node(id);
                (node.depth, &text[node.span.clone()])
            })
            .collect()
    }

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

    #[test]
    fn deeper_lines_belong_to_the_line_above_with_its_closing_line() {
        let text = "f() {\n  a;\n  if (x) {\n    b;\n  }\n}\ng();\n";
        assert_eq!(
            outline(text),
            vec![
                (1, "f() {\n  a;\n  if (x) {\n    b;\n  }\n}\n"),
                (2, "  a;\n"),
                (2, "  if (x) {\n    b;\n  }\n"),
                (3, "    b;\n"),
                (1, "g();\n"),
            ]
        );
    }

    #[test]
    fn else_lines_join_the_statement_and_keep_it_open() {
        let text = "if (a) {\n  x;\n} else {\n  y;\n}\nz;\n";
        assert_eq!(
            outline(text),
            vec![
                (1, "if (a) {\n  x;\n} else {\n  y;\n}\n"),
                (2, "  x;\n"),
                (2, "  y;\n"),
                (1, "z;\n"),
            ]
        );
    }

    #[test]
    fn empty_brackets_close_on_the_next_line_and_blank_lines_go_with_what_follows() {
        let text = "{\n  \"a\": [\n  ],\n\n  \"b\": 1\n}\n";
        assert_eq!(
            outline(text),
            vec![
                (1, "{\n  \"a\": [\n  ],\n\n  \"b\": 1\n}\n"),
                (2, "  \"a\": [\n  ],\n"),
                (2, "\n"),
                (2, "  \"b\": 1\n"),
            ]
        );
    }

    #[test]
    fn a_closing_line_without_an_opener_is_a_line_of_its_own() {
        // `x` neither opened a bracket nor has deeper lines; Python-like dedents climb
        // more than one level.
        assert_eq!(outline("x\n}\n"), vec![(1, "x\n"), (1, "}\n")]);
        assert_eq!(
            outline("def f():\n    if a:\n        b\nc\n"),
            vec![
                (1, "def f():\n    if a:\n        b\n"),
                (2, "    if a:\n        b\n"),
                (3, "        b\n"),
                (1, "c\n"),
            ]
        );
    }

    #[test]
    fn the_last_item_of_a_comma_list_takes_the_comma_before_it() {
        let text = "[\n  1,\n  {\n    \"a\": 2\n  }\n]\n";
        let tree = Lines.parse(text).unwrap();
        let deleted: Vec<_> = tree
            .ids()
            .skip(1)
            .map(|id| {
                let d = tree.node(id).delete.clone().unwrap();
                format!("{}|{}", &text[..d.start], &text[d.end..])
            })
            .collect();
        assert_eq!(
            deleted,
            vec![
                "|",
                "[\n|  {\n    \"a\": 2\n  }\n]\n",
                "[\n  1|\n]\n",
                "[\n  1,\n  {\n|  }\n]\n",
            ]
        );
    }

    #[test]
    fn a_body_after_a_closing_line_stays_in_the_statement() {
        let text = "def f(\n    a,\n) -> int:\n    return a\ng()\n";
        assert_eq!(
            outline(text),
            vec![
                (1, "def f(\n    a,\n) -> int:\n    return a\n"),
                (2, "    a,\n"),
                (2, "    return a\n"),
                (1, "g()\n"),
            ]
        );
        let tree = Lines.parse(text).unwrap();
        let last = tree
            .ids()
            .filter(|&id| text[tree.node(id).span.clone()].contains("return"))
            .last();
        let last = tree.node(last.unwrap());
        assert_eq!(last.delete, Some(last.span.clone()));
    }

    #[test]
    fn a_comma_is_taken_only_in_a_closed_list_and_keeps_crlf() {
        let text = "Dear Alice,\nthanks\n";
        let tree = Lines.parse(text).unwrap();
        let last = tree.node(tree.at_depth(1)[1]);
        assert_eq!(last.delete, Some(last.span.clone()));
        let text = "[\r\n  1,\r\n  2\r\n]\r\n";
        let tree = Lines.parse(text).unwrap();
        let two = tree.node(tree.at_depth(2)[1]);
        let d = two.delete.clone().unwrap();
        assert_eq!(
            format!("{}{}", &text[..d.start], &text[d.end..]),
            "[\r\n  1\r\n]\r\n"
        );
    }

    #[test]
    fn a_block_may_lose_its_own_lines_and_move_its_body_left() {
        let unwrapped = |text: &str| -> Vec<String> {
            let tree = Lines.parse(text).unwrap();
            tree.ids()
                .flat_map(|id| tree.node(id).alternatives.clone())
                .map(|edits| crate::render::render(text, &edits.iter().collect::<Vec<_>>()))
                .collect()
        };
        assert_eq!(
            unwrapped("f() {\n  if (x) {\n    y;\n  }\n}\n"),
            vec!["if (x) {\n  y;\n}\n", "f() {\n  y;\n}\n"]
        );
        assert_eq!(unwrapped("def f():\n    a\n\n    b\n"), vec!["a\n\nb\n"]);
        assert!(unwrapped("a\nb\n").is_empty());
    }

    /// What every node's deletion and alternatives leave of `text`: (depth, own text,
    /// text without it, texts with each alternative).
    fn fates(text: &str) -> Vec<(u32, &str, String, Vec<String>)> {
        let tree = Lines.parse(text).unwrap();
        let apply = |edits: &[Edit]| crate::render::render(text, &edits.iter().collect::<Vec<_>>());
        tree.ids()
            .skip(1)
            .map(|id| {
                let node = tree.node(id);
                let deleted = apply(&[Edit::delete(node.delete.clone().unwrap())]);
                let rewrites = node.alternatives.iter().map(|e| apply(e)).collect();
                (node.depth, &text[node.span.clone()], deleted, rewrites)
            })
            .collect()
    }

    /// GNU and Allman style put a body's `{` on the line below its header: it is the
    /// header's, and so is the `}` that closes it. A `{` after a finished statement
    /// opens a block of its own.
    #[test]
    fn a_brace_line_below_a_header_belongs_to_it() {
        let text = "int\nf (int a,\n   int b)\n{\n  return a;\n}\nx;\n{\n  y;\n}\n";
        assert_eq!(
            outline(text),
            vec![
                (1, "int\n"),
                (1, "f (int a,\n   int b)\n{\n  return a;\n}\n"),
                (2, "   int b)\n"),
                (2, "  return a;\n"),
                (1, "x;\n"),
                (1, "{\n  y;\n}\n"),
                (2, "  y;\n"),
            ]
        );
    }

    /// A brace left open holds the lines at its own indentation until the bracket that
    /// closes it: a namespace's functions written without indentation, a label at column
    /// 0 in a function; and a bracket that closes nothing a block left open is not that
    /// block's (the namespace's `}` after the last function's), nor is a brace in a
    /// string, a character or a comment counted.
    #[test]
    fn an_open_brace_holds_its_lines_to_its_closer() {
        let text = "namespace n {\nint f(\n    int a) {\n  return '}';\n}\nint g() {\nfail:\n  return 1; // }\n}\n}  // n\nx;\n";
        assert_eq!(
            outline(text),
            vec![
                (
                    1,
                    "namespace n {\nint f(\n    int a) {\n  return '}';\n}\nint g() {\nfail:\n  return 1; // }\n}\n}  // n\n"
                ),
                (2, "int f(\n    int a) {\n  return '}';\n}\n"),
                (3, "    int a) {\n"),
                (3, "  return '}';\n"),
                (2, "int g() {\nfail:\n  return 1; // }\n}\n"),
                (3, "fail:\n  return 1; // }\n"),
                (4, "  return 1; // }\n"),
                (1, "x;\n"),
            ]
        );
        // Closed, a block holds nothing more: a text of statements stays a flat list.
        let flat = "f() {}\ng();\n(h);\n";
        assert!(outline(flat).iter().all(|&(depth, _)| depth == 1));
    }

    /// `else`, `elif`, `except`, `catch`... on a line of their own continue the statement
    /// above at their indentation: deleting it takes them along, each may go alone, and
    /// the statement's unwrap leaves all the branches' bodies, which still parse.
    #[test]
    fn clauses_go_with_their_statement_and_unwrap_with_it() {
        let text = "def f(x):\n    if x:\n        a\n    elif y:\n        b\n    else:\n        c\n    d\n";
        let fates = fates(text);
        let find = |own: &str| fates.iter().find(|f| f.1 == own).unwrap();
        let head = find("    if x:\n        a\n");
        assert_eq!(head.2, "def f(x):\n    d\n");
        assert_eq!(head.3, vec!["def f(x):\n    a\n    b\n    c\n    d\n"]);
        let other = find("    else:\n        c\n");
        assert_eq!(
            other.2,
            "def f(x):\n    if x:\n        a\n    elif y:\n        b\n    d\n"
        );
        assert_eq!(
            find("    elif y:\n        b\n").2,
            "def f(x):\n    if x:\n        a\n    else:\n        c\n    d\n"
        );
        // Allman style: the `else` block is the `if`'s too; a word that only begins like
        // a clause's (`elsewhere`) is not one.
        let text = "if (x)\n{\n  a;\n}\nelse\n{\n  b;\n}\nelsewhere();\n";
        let fates = self::fates(text);
        assert_eq!(fates[0].2, "elsewhere();\n");
        assert_eq!(fates[0].3, vec!["a;\nb;\nelsewhere();\n"]);
        assert_eq!(fates[2].1, "else\n{\n  b;\n}\n");
        assert_eq!(fates[2].2, "if (x)\n{\n  a;\n}\nelsewhere();\n");
    }

    /// Keyword lines at the opener's own indentation (git's shell style, Make, the C
    /// preprocessor around code that is not indented) make a block: deleting the opener
    /// deletes all of it, and its own lines go with its unwrap.
    #[test]
    fn keyword_blocks_hold_the_lines_up_to_their_closer() {
        let text = "f () {\n\tif test\n\tthen\n\t\ta=1\n\telse\n\t\tb=2\n\tfi\n\tg\n}\n";
        assert_eq!(
            outline(text),
            vec![
                (1, text),
                (2, "\tif test\n\tthen\n\t\ta=1\n\telse\n\t\tb=2\n\tfi\n"),
                (3, "\t\ta=1\n"),
                (3, "\t\tb=2\n"),
                (2, "\tg\n"),
            ]
        );
        let text = "#ifdef A\nint a;\n# else\nint b;\n#endif\nint c;\n";
        assert_eq!(
            outline(text),
            vec![
                (1, "#ifdef A\nint a;\n# else\nint b;\n#endif\n"),
                (2, "int a;\n"),
                (2, "int b;\n"),
                (1, "int c;\n"),
            ]
        );
        let tree = Lines.parse(text).unwrap();
        let block = tree.node(tree.at_depth(1)[0]);
        let edits: Vec<&Edit> = block.alternatives[0].iter().collect();
        assert_eq!(
            crate::render::render(text, &edits),
            "int a;\nint b;\nint c;\n"
        );
        let text = "ifeq ($(D),1)\nX += 1\nelse ifeq ($(D),2)\nX += 2\nendif\nall:\n";
        assert_eq!(
            outline(text)[0],
            (
                1,
                "ifeq ($(D),1)\nX += 1\nelse ifeq ($(D),2)\nX += 2\nendif\n"
            )
        );
        // Without its closer, an opener holds nothing; Python's `if a:` opens no such block.
        assert_eq!(outline("if a\nb\n"), vec![(1, "if a\n"), (1, "b\n")]);
        assert_eq!(
            outline("if a:\n    b\nc\nfi\n"),
            vec![
                (1, "if a:\n    b\n"),
                (2, "    b\n"),
                (1, "c\n"),
                (1, "fi\n")
            ]
        );
    }

    #[test]
    fn shell_and_markup_closers() {
        assert_eq!(
            outline("if x; then\n  y\nfi\n<div>\n  <p/>\n</div>\n"),
            vec![
                (1, "if x; then\n  y\nfi\n"),
                (2, "  y\n"),
                (1, "<div>\n  <p/>\n</div>\n"),
                (2, "  <p/>\n"),
            ]
        );
        // An end tag closes only its own element.
        assert_eq!(
            outline("<html>\n<body>\n  <p>x</p>\n</html>\n"),
            vec![
                (1, "<html>\n"),
                (1, "<body>\n  <p>x</p>\n"),
                (2, "  <p>x</p>\n"),
                (1, "</html>\n"),
            ]
        );
        // A closing word must stand alone: `done = 1` is a statement of its own.
        assert_eq!(
            outline("for i in r:\n    pass\ndone = 1\n"),
            vec![
                (1, "for i in r:\n    pass\n"),
                (2, "    pass\n"),
                (1, "done = 1\n"),
            ]
        );
    }
}
