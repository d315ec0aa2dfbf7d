//! The JavaScript front end: tree-sitter-javascript (compiled in) interpreted through the
//! profile `grammars/javascript.toml`, which is embedded at build time so nothing is read
//! at run time. All language knowledge is in the profile; this file only names it.

use std::sync::{Arc, LazyLock, OnceLock};

use super::early::{self, Checks};
use super::profile::{Grammar, Misread};
use std::collections::BTreeMap;
use std::ops::Range;

use super::slices;
use super::{Frontend, Grain, Slices, SyntaxError, dedent, words};
use crate::tree::{Edit, Node, NodeId, Tree};

/// The first name a declaring statement or declarator (of kind `label`, at `span` of
/// `text`) binds, read from its text: `f` of `function f` or `async function* f`, `C` of
/// `class C`, `a` of `var a = 1` or of the declarator `a = 1`, and the same of each of
/// them exported. None for a pattern (`const {a} = o`), a comment among the tokens, or
/// another kind.
fn declared_name<'t>(text: &'t str, label: &str, span: Range<usize>) -> Option<&'t str> {
    let own = text.get(span)?;
    let rest = match label {
        "function_declaration" | "generator_function_declaration" => {
            let own = own.strip_prefix("async").map_or(own, str::trim_start);
            let own = own.strip_prefix("function")?.trim_start();
            own.strip_prefix('*').unwrap_or(own).trim_start()
        }
        "class_declaration" => own.strip_prefix("class")?.trim_start(),
        "variable_declaration" => own.strip_prefix("var")?.trim_start(),
        "lexical_declaration" => own
            .strip_prefix("let")
            .or_else(|| own.strip_prefix("const"))?
            .trim_start(),
        "variable_declarator" => own,
        "export_statement" => {
            // `export function f`, `export default class C`, `export const a = 1`: the
            // name of the declaration exported; none for `export default f;`, which
            // names what another statement declares, nor for `export { a }`.
            let own = own.strip_prefix("export")?.trim_start();
            let own = own.strip_prefix("default").map_or(own, str::trim_start);
            let keyword = &own[..own.len() - own.trim_start_matches(early::is_name_char).len()];
            let label = match keyword {
                "async" | "function" => "function_declaration",
                "class" => "class_declaration",
                "var" => "variable_declaration",
                "let" | "const" => "lexical_declaration",
                _ => return None,
            };
            return declared_name(own, label, 0..own.len());
        }
        _ => return None,
    };
    let name = &rest[..rest.len() - rest.trim_start_matches(early::is_name_char).len()];
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then_some(name)
}

/// The most declared names [`JavaScript::likely_needed`] looks for one by one.
const FEW_NAMES: usize = 16;

/// True when the word `name` (a run of letters, digits, `_` and `$`) stands in `text`
/// outside `own`.
fn used_outside(text: &str, name: &str, own: &Range<usize>) -> bool {
    text.match_indices(name).any(|(at, _)| {
        let end = at + name.len();
        (at < own.start || end > own.end)
            && !early::ends_in_a_name(&text[..at])
            && !text[end..].starts_with(early::is_name_char)
    })
}

/// The profile text, as compiled into the binary.
pub const PROFILE: &str = include_str!("../../grammars/javascript.toml");

static GRAMMAR: LazyLock<Grammar> = LazyLock::new(|| {
    Grammar::built_in(
        "javascript",
        tree_sitter_javascript::LANGUAGE.into(),
        "grammars/javascript.toml",
        PROFILE,
    )
    .reading(early::read_javascript)
    .rereading(early::reread_javascript)
});

/// JavaScript (scripts and modules, JSX included as the grammar has it). Candidates are
/// held to the early errors the original keeps (see [`super::early`]); the default, with
/// no original, holds them to none. An original that tree-sitter misreads in a few places
/// is reduced all the same (see [`JavaScript::for_original`]).
#[derive(Debug, Clone, Default)]
pub struct JavaScript {
    original: Option<Arc<Original>>,
}

/// The text being reduced, and the early-error rules it keeps, found the first time a
/// candidate breaks one (most runs never need them, and finding them walks the whole tree).
#[derive(Debug)]
struct Original {
    text: String,
    checks: OnceLock<Checks>,
    /// Where tree-sitter misreads the original, when it does in no more than half of it.
    misread: Option<Misread>,
}

impl JavaScript {
    /// The front end for reducing `original`: candidates keep the early-error rules it keeps.
    ///
    /// tree-sitter's grammar misses a few constructs that engines accept (`[(a.b)] = 1`,
    /// `yield` as a name in sloppy code, `01.a`), and a fuzzer's crash may hold one. When
    /// the ERROR nodes of the original's parse cover at most half of it, it is reduced as
    /// it parses: candidates may hold as many ERROR and MISSING nodes as it does, never
    /// more than their base, and no early-error rule holds. Beyond half, the text is
    /// unlikely to be JavaScript at all, and the start-up parse refuses it.
    pub fn for_original(original: &str) -> Self {
        let misread = Misread::tolerable(&GRAMMAR, original);
        JavaScript {
            original: Some(Arc::new(Original {
                text: original.to_string(),
                checks: OnceLock::new(),
                misread,
            })),
        }
    }

    /// The front end for the codes of a page's scripts, each read apart (a script that
    /// begins with `'use strict'` is strict, though it would not be after another): each
    /// candidate's code keeps the early-error rules that every one of `codes` keeps.
    pub fn for_scripts(codes: &[&str]) -> Self {
        let text = codes.join("\n;\n");
        let checks = codes
            .iter()
            .filter_map(|code| {
                let tree = GRAMMAR.tree(code)?;
                Some(Checks::of(code, tree.root_node()))
            })
            .reduce(Checks::both)
            .unwrap_or_default();
        JavaScript {
            original: Some(Arc::new(Original {
                misread: Misread::tolerable(&GRAMMAR, &text),
                text,
                checks: OnceLock::from(checks),
            })),
        }
    }

    /// How many ERROR and MISSING nodes a candidate's parse may hold.
    fn allowed(&self) -> usize {
        Misread::allowed(self.original.as_ref().and_then(|o| o.misread.as_ref()))
    }

    /// The rules the original keeps.
    fn kept(original: &Original) -> Checks {
        *original.checks.get_or_init(|| {
            GRAMMAR
                .tree(&original.text)
                .map(|tree| Checks::of(&original.text, tree.root_node()))
                .unwrap_or_default()
        })
    }

    /// The early error `text`, whose tree-sitter parse is without errors, breaks of those
    /// the original keeps: near `at` (where edits of a valid base stand), or anywhere.
    fn early_error(&self, text: &str, at: Option<&[usize]>) -> Option<&'static str> {
        let original = self.original.as_ref()?;
        let tree = GRAMMAR.tree(text)?;
        let judge = |checks: Checks| match at {
            Some(at) => checks.violation_near(text, tree.root_node(), at),
            None => checks.violation(text, tree.root_node()),
        };
        judge(Checks::ALL)?;
        judge(Self::kept(original))
    }

    /// Where `edits` of `base` stand in the text they give: the start and the end of each
    /// replacement.
    fn edited_at(base: &str, edits: &[&Edit]) -> Vec<usize> {
        let mut at = Vec::new();
        let mut delta: isize = 0;
        for (span, text) in crate::render::splices(base, edits) {
            let start = span.start.saturating_add_signed(delta);
            at.push(start);
            at.push(start + text.len());
            delta += text.len() as isize - span.len() as isize;
        }
        at
    }
}

/// The outermost templates and strings of `text` (valid JavaScript, or misread in at most
/// `allowed` places) that span lines, in order. Everything when the text cannot be parsed,
/// so that no line is touched.
fn multiline_strings(text: &str, allowed: usize) -> Vec<Range<usize>> {
    let Some(tree) = GRAMMAR.tree_within(text, allowed) else {
        let everything = 0..text.len();
        return vec![everything];
    };
    let mut out = Vec::new();
    let mut cursor = tree.walk();
    let mut down = true;
    loop {
        let node = cursor.node();
        let multiline = node.start_position().row != node.end_position().row;
        if down && multiline && matches!(node.kind(), "template_string" | "string") {
            out.push(node.byte_range());
            down = false;
        }
        if down && multiline && cursor.goto_first_child() {
            continue;
        }
        if cursor.goto_next_sibling() {
            down = true;
            continue;
        }
        if !cursor.goto_parent() {
            break;
        }
        down = false;
    }
    out
}

impl JavaScript {
    /// [`Frontend::reindent`] for `rewrites` of the code at `code` of `text` (all of a
    /// `.js` file, or a page's inline script).
    pub(super) fn reindent_code<'a>(
        &self,
        text: &str,
        code: Range<usize>,
        rewrites: impl Iterator<Item = &'a mut (Range<usize>, Vec<Edit>)>,
    ) {
        let mut strings: Option<Vec<Range<usize>>> = None;
        for (span, edits) in rewrites {
            let own = &text[span.clone()];
            let may_hold = own.contains('`') || own.contains("\\\n") || own.contains("\\\r");
            // The tree is looked at only when some rewrite may hold a string that spans lines.
            let strings: &[Range<usize>] = match (&mut strings, may_hold) {
                (_, false) => &[],
                (Some(found), true) => found,
                (none, true) => none.insert(
                    multiline_strings(&text[code.clone()], self.allowed())
                        .into_iter()
                        .map(|s| s.start + code.start..s.end + code.start)
                        .collect(),
                ),
            };
            let inside = |at: usize| {
                let i = strings.partition_point(|s| s.end <= at);
                strings.get(i).is_some_and(|s| s.start < at)
            };
            let layout = dedent(text, span.clone(), edits, &inside);
            edits.extend(layout);
        }
    }
}

impl Frontend for JavaScript {
    fn parse(&self, text: &str) -> Result<Tree, SyntaxError> {
        let allowed = self.allowed();
        GRAMMAR
            .parse(text, allowed)
            .map(|tree| with_exports(text, tree, allowed))
    }

    fn parse_to(&self, text: &str, depth: u32) -> Result<Tree, SyntaxError> {
        let allowed = self.allowed();
        GRAMMAR
            .parse_to(text, Some(depth), allowed)
            .map(|tree| with_exports(text, tree, allowed))
    }

    fn is_valid(&self, text: &str) -> bool {
        GRAMMAR.tree_within(text, self.allowed()).is_some()
            && self.early_error(text, None).is_none()
    }

    fn note(&self) -> Option<String> {
        let m = self.original.as_ref()?.misread.as_ref()?;
        Some(m.note("JavaScript"))
    }

    /// Line breaks mean the same whatever the spaces after them, but not inside a template
    /// or a string continued on the next line: the lines that begin inside one keep their
    /// spaces.
    fn reindent(&self, text: &str, rewrites: &mut [(Range<usize>, Vec<Edit>)]) {
        self.reindent_code(text, 0..text.len(), rewrites.iter_mut());
    }

    fn parse_edited_to(
        &self,
        base: &str,
        edits: &[&Edit],
        text: &str,
        depth: Option<u32>,
    ) -> Result<Tree, SyntaxError> {
        let allowed = self.allowed();
        let tree = GRAMMAR.parse_edited_to(base, edits, text, depth, allowed)?;
        let tree = with_exports(text, tree, allowed);
        match self.early_error(text, Some(&Self::edited_at(base, edits))) {
            None => Ok(tree),
            Some(message) => Err(SyntaxError {
                line: 1,
                column: 1,
                message: message.to_string(),
            }),
        }
    }

    fn is_valid_edited(&self, base: &str, edits: &[&Edit], candidate: &str) -> bool {
        GRAMMAR.is_valid_edited(base, edits, candidate, self.allowed())
            && self
                .early_error(candidate, Some(&Self::edited_at(base, edits)))
                .is_none()
    }

    fn deletions_stay_valid(&self, base: &str, edits: &[&Edit], candidate: &str) -> Option<bool> {
        // A deleted class member may have declared a private name still used: parsed.
        if self.original.is_some()
            && edits
                .iter()
                .any(|e| may_declare_private(&base[e.span.clone()]))
        {
            return None;
        }
        GRAMMAR.deletions_stay_valid(base, edits, candidate)
    }

    fn blank_is_empty(&self) -> bool {
        true
    }

    /// The whole text is walked only when a statement at `wanted` declares a name used
    /// elsewhere (a check by substring, for a few statements): on lodash the walk costs
    /// 9 ms, and a test that keeps a needle keeps only its ancestors, which nothing uses.
    fn slices(&self, text: &str, wanted: &[(usize, usize)]) -> Slices {
        /// The most statements checked by substring before the walk.
        const CHECKED: usize = 32;
        let Some(tree) = GRAMMAR.tree_within(text, self.allowed()) else {
            return Slices::new();
        };
        let root = tree.root_node();
        if wanted.len() <= CHECKED && !slices::may_slice(text, root, wanted) {
            return Slices::new();
        }
        slices::of(text, root, Some(wanted))
    }

    /// A string literal loses words, not characters: a word that goes takes tokens with
    /// it, a character only bytes, and a test that needs a string usually needs all of
    /// each word in it (`'Hello'` would cost a few calls to keep).
    fn units(&self, text: &str, node: &Node, grain: Grain) -> Vec<Range<usize>> {
        if grain != Grain::Words {
            return Vec::new();
        }
        match &*node.label {
            "string" => string_units(text, node.span.clone(), grain),
            // A template without substitutions reads as a string; with a `$` in it, a
            // deletion could bring a `$` and a `{` together into a substitution.
            "template_string" if !text[node.span.clone()].contains('$') => {
                string_units(text, node.span.clone(), grain)
            }
            "comment" => comment_units(text, node.span.clone()),
            "regex" => regex_units(text, node.span.clone()),
            _ => Vec::new(),
        }
    }

    /// A declaration whose name the text holds outside it too (`function f` and a call of
    /// `f` elsewhere): one that something kept still uses. In a test that runs the code
    /// those are mostly needed, while the others mostly go; in one that only reads the
    /// text (a parser's crash, a grep) few are needed either way.
    fn likely_needed(&self, text: &str, tree: &Tree, nodes: &[NodeId]) -> Vec<bool> {
        let names: Vec<Option<&str>> = nodes
            .iter()
            .map(|&id| {
                let node = tree.node(id);
                declared_name(text, &node.label, node.span.clone())
            })
            .collect();
        let named = names.iter().flatten().count();
        if named == 0 {
            return Vec::new();
        }
        // A few names are looked for one by one, each up to its first use outside its
        // node (on lodash's top depths a walk over every word cost a millisecond a
        // candidate); many are counted in one walk.
        if named <= FEW_NAMES {
            return nodes
                .iter()
                .zip(&names)
                .map(|(&id, name)| {
                    name.is_some_and(|name| used_outside(text, name, &tree.node(id).span))
                })
                .collect();
        }
        let mut counts: BTreeMap<&str, usize> = names.iter().flatten().map(|&n| (n, 0)).collect();
        for word in crate::needed::words(text) {
            if let Some(count) = counts.get_mut(word) {
                *count += 1;
            }
        }
        nodes
            .iter()
            .zip(&names)
            .map(|(&id, name)| {
                name.is_some_and(|name| {
                    let own = text.get(tree.node(id).span.clone()).unwrap_or_default();
                    let inside = crate::needed::words(own).filter(|&w| w == name).count();
                    counts.get(name).is_some_and(|&all| all > inside)
                })
            })
            .collect()
    }

    fn needs_are_local(&self) -> bool {
        false
    }

    fn layout_is_free(&self) -> bool {
        true
    }
}

/// `tree` (of `text`, a module's) with each top-level declaration's deletion taking along
/// the `export { a }` specifiers of the names it declares: alone it would be an early error
/// (an export of an undeclared name), so a module that ends in one export list naming
/// every declaration lost none of them before the list's own depth was reached, and those
/// depths were spent hollowing out every declaration. A name declared twice keeps its
/// specifier. `text` may be misread in `allowed` places.
fn with_exports(text: &str, mut tree: Tree, allowed: usize) -> Tree {
    if !text.contains("export") {
        return tree;
    }
    let Some(ts) = GRAMMAR.tree_within(text, allowed) else {
        return tree;
    };
    let program = ts.root_node();
    let specifiers = early::export_specifiers(text, program);
    if specifiers.is_empty() {
        return tree;
    }
    // Each specifier's deletion, as the tree offers it: the last one's takes the comma
    // before it, and the one before that too when both go.
    let deletions: BTreeMap<usize, Edit> = tree
        .ids()
        .map(|id| tree.node(id))
        .filter(|n| n.label == "export_specifier")
        .filter_map(|n| Some((n.span.start, n.deletion()?)))
        .collect();
    let mut cursor = program.walk();
    // Each top-level statement's names, by its span.
    let statements: BTreeMap<(usize, usize), Vec<&str>> = program
        .named_children(&mut cursor)
        .map(|s| {
            (
                (s.start_byte(), s.end_byte()),
                early::top_level_names(text, s),
            )
        })
        .collect();
    let mut declarations: BTreeMap<&str, usize> = BTreeMap::new();
    for name in statements.values().flatten() {
        *declarations.entry(name).or_default() += 1;
    }
    let top: Vec<NodeId> = tree.node(tree.root()).children.clone();
    for id in top {
        let span = tree.node(id).span.clone();
        let Some(names) = statements.get(&(span.start, span.end)) else {
            continue;
        };
        let also: Vec<Edit> = names
            .iter()
            .filter(|name| declarations.get(*name) == Some(&1))
            .flat_map(|name| specifiers.iter().filter(move |(n, _)| n == name))
            .filter_map(|(_, at)| deletions.get(&at.start).cloned())
            .collect();
        tree.node_mut(id).also = also;
    }
    tree
}

/// True when `deleted` (a list item's deletion span) may be a class member that declares
/// a private name (`#x = 1;`, `static async *#m() {}`): the only deletion that can leave a
/// private name undeclared, since a name declared inside a deleted whole goes with its
/// uses.
fn may_declare_private(deleted: &str) -> bool {
    let mut rest = deleted.trim_start();
    loop {
        let next = ["static", "async", "get", "set", "accessor", "*"]
            .iter()
            .find_map(|word| rest.strip_prefix(word))
            .filter(|after| after.starts_with(|c: char| c.is_whitespace() || c == '#' || c == '*'));
        match next {
            Some(after) => rest = after.trim_start(),
            None => return rest.starts_with('#'),
        }
    }
}

/// The pieces a string literal at `span` may lose: its words and the whitespace between
/// them, or its characters, an escape sequence counting as one. Strings whose content the
/// program's meaning hangs on by name (a module specifier, a directive) and strings with
/// an octal-like escape (which a deletion in front of a digit could change into another
/// escape, an error in strict code) give none.
pub(crate) fn string_units(text: &str, span: Range<usize>, grain: Grain) -> Vec<Range<usize>> {
    let Some(content) = text.get(span.start + 1..span.end.saturating_sub(1)) else {
        return Vec::new();
    };
    let before = text[..span.start].trim_end();
    let names_something = ["from", "import", "require(", "import("]
        .iter()
        .any(|word| before.ends_with(word))
        || matches!(content, "use strict" | "use asm");
    let octal = content
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == b'\\' && w[1].is_ascii_digit());
    if names_something || octal {
        return Vec::new();
    }
    let start = span.start + 1;
    let mut characters: Vec<Range<usize>> = Vec::new();
    let mut i = 0;
    while i < content.len() {
        let rest = &content[i..];
        let len = if rest.starts_with('\\') {
            escape_len(rest)
        } else {
            rest.chars().next().map_or(1, char::len_utf8)
        };
        let len = len.min(content.len() - i);
        characters.push(start + i..start + i + len);
        i += len;
    }
    match grain {
        Grain::Characters => characters,
        Grain::Words => words(text, characters),
    }
}

/// The words of a comment at `span` and the spaces between them, which a test that needs
/// the comment (a formatter's bug about where comments go, a JSDoc type) seldom needs all
/// of: a grep for a word of a licence's paragraph kept the paragraph. Not its delimiters,
/// and not the first run of spaces with a line break in a block comment: such a comment
/// ends a line as a line break would (`return /*\n*/ x` returns nothing). An annotation
/// (`/*#__PURE__*/`, `//# sourceMappingURL=`, `/*! licence */`, `// @ts-check`) keeps its
/// first word, the one that says what it is, and a doc comment (`/** ... */`) its `*`.
fn comment_units(text: &str, span: Range<usize>) -> Vec<Range<usize>> {
    let own = &text[span.clone()];
    let (open, close) = if own.starts_with("//") {
        (2, 0)
    } else if own.starts_with("/*") && own.ends_with("*/") && own.len() >= 4 {
        (2, 2)
    } else {
        return Vec::new();
    };
    let start = span.start + open;
    let content = &own[open..own.len() - close];
    let characters = content
        .char_indices()
        .map(|(i, c)| start + i..start + i + c.len_utf8())
        .collect();
    let mut units = words(text, characters);
    // An annotation's marks and first word stay, and a doc comment's second `*`.
    let is_word = |u: &Range<usize>| {
        text[u.clone()]
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_')
    };
    let kept = if content.starts_with('*') {
        Some(0)
    } else if content.starts_with(['#', '!', '@', '=', '$']) {
        units.iter().position(is_word)
    } else {
        None
    };
    if let Some(last) = kept {
        units.drain(..=last);
    }
    // The first run of spaces with a line break stays: one is all a comment needs to end
    // its line.
    let breaks = |u: &Range<usize>| text[u.clone()].contains(['\n', '\r', '\u{2028}', '\u{2029}']);
    if let Some(first) = units.iter().position(breaks) {
        units.remove(first);
    }
    units
}

/// The pieces of a regular expression literal at `span` that may go one by one and leave
/// a valid pattern: each alternative but the last of every alternation, with the `|` after
/// it (`/a|bc|d/` offers `a|` and `bc|`, so that the pattern never empties into a
/// comment's `//`; a group's kind, `?:` or `?<=`, stays with the group), and each counted
/// quantifier with its lazy mark (`{1,4}` of `Y{1,4}`) while no brace in the pattern stands
/// for itself. None for a pattern that refers to its groups (`\1`, `\k<name>`: a group
/// taken away would leave an error in unicode mode) or uses the `v` flag (nested
/// classes); none for anything unsure, as the parser does not read inside the pattern.
fn regex_units(text: &str, span: Range<usize>) -> Vec<Range<usize>> {
    let own = &text[span.clone()];
    let Some(close) = own.rfind('/').filter(|&c| c > 0 && own.starts_with('/')) else {
        return Vec::new();
    };
    let (pattern, flags) = (&own[1..close], &own[close + 1..]);
    if flags.contains('v') {
        return Vec::new();
    }
    let bytes = pattern.as_bytes();
    let start = span.start + 1;
    // For every group open (the pattern itself first): where its current alternative
    // began, and the alternatives ended so far, each with its bar.
    let mut open: Vec<(usize, Vec<Range<usize>>)> = vec![(0, Vec::new())];
    let mut units: Vec<Range<usize>> = Vec::new();
    let mut class = false;
    // Quantifiers and what they leave depend on no brace standing for itself (`{{1}2}`
    // without `{1}` is a quantifier of nothing): with one, none is offered.
    let mut literal_brace = false;
    let mut quantifiers: Vec<Range<usize>> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                let next = bytes.get(i + 1).copied();
                if next.is_some_and(|b| (b'1'..=b'9').contains(&b)) || next == Some(b'k') {
                    return Vec::new();
                }
                // `\u{1F600}` and `\p{L}` hold braces that are no quantifier.
                let braced =
                    matches!(next, Some(b'u' | b'p' | b'P')) && bytes.get(i + 2) == Some(&b'{');
                i += match braced {
                    true => match bytes[i..].iter().position(|&b| b == b'}') {
                        Some(end) => end + 1,
                        None => return Vec::new(),
                    },
                    false => 2,
                };
                continue;
            }
            b']' if class => class = false,
            _ if class => {}
            b'[' => class = true,
            b'(' => {
                // A group's first alternative begins after what makes it a group of its
                // kind (`?:`, `?=`, `?<=`, `?<name>`, `?i:`), which stays with it.
                let after = match (bytes.get(i + 1), bytes.get(i + 2), bytes.get(i + 3)) {
                    (Some(b'?'), Some(b':' | b'=' | b'!'), _) => i + 3,
                    (Some(b'?'), Some(b'<'), Some(b'=' | b'!')) => i + 4,
                    (Some(b'?'), Some(b'<'), _) => match bytes[i..].iter().position(|&b| b == b'>')
                    {
                        Some(end) => i + end + 1,
                        None => return Vec::new(),
                    },
                    (Some(b'?'), ..) => {
                        let flags = bytes[i + 2..]
                            .iter()
                            .take_while(|b| b.is_ascii_alphabetic() || **b == b'-')
                            .count();
                        if bytes.get(i + 2 + flags) != Some(&b':') {
                            return Vec::new();
                        }
                        i + 3 + flags
                    }
                    _ => i + 1,
                };
                open.push((after, Vec::new()));
                i = after;
                continue;
            }
            b')' => {
                let Some((_, ended)) = open.pop() else {
                    return Vec::new();
                };
                if open.is_empty() {
                    return Vec::new();
                }
                units.extend(ended);
            }
            b'|' => {
                if let Some((from, ended)) = open.last_mut() {
                    ended.push(start + *from..start + i + 1);
                    *from = i + 1;
                }
            }
            b'{' => {
                let digits = |from: usize| {
                    bytes[from..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count()
                };
                let mut end = i + 1;
                let first = digits(end);
                end += first;
                if first > 0 && bytes.get(end) == Some(&b',') {
                    end += 1;
                    end += digits(end);
                }
                if first > 0 && i > 0 && bytes.get(end) == Some(&b'}') {
                    end += 1;
                    if bytes.get(end) == Some(&b'?') {
                        end += 1;
                    }
                    // `\0{2}1` without its quantifier would read `\01`, an octal
                    // escape (an error in unicode mode).
                    let joins = bytes[..i].ends_with(b"\\0")
                        && bytes.get(end).is_some_and(u8::is_ascii_digit);
                    if !joins {
                        quantifiers.push(start + i..start + end);
                    }
                    i = end;
                    continue;
                }
                literal_brace = true;
            }
            b'}' => literal_brace = true,
            _ => {}
        }
        i += 1;
    }
    let [(_, ended)] = open.as_slice() else {
        return Vec::new();
    };
    if class {
        return Vec::new();
    }
    units.extend(ended.iter().cloned());
    if !literal_brace {
        units.extend(quantifiers);
    }
    units.sort_by_key(|u| (u.start, u.end));
    units
}

/// The length of the escape sequence `rest` begins with (`\n`, `\x41`, `\u00e9`,
/// `\u{1F600}`, a backslash before a line break).
fn escape_len(rest: &str) -> usize {
    let hex_run = |from: usize, most: usize| {
        rest[from..]
            .bytes()
            .take(most)
            .take_while(u8::is_ascii_hexdigit)
            .count()
    };
    match rest.as_bytes().get(1) {
        Some(b'x') => 2 + hex_run(2, 2),
        Some(b'u') if rest[2..].starts_with('{') => rest.find('}').map_or(rest.len(), |e| e + 1),
        // A surrogate pair's two escapes stand for one character: they go together, and
        // never leave a lone surrogate, which strict JSON parsers refuse.
        Some(b'u') if hex_run(2, 4) == 4 => {
            let unit = |at: usize| {
                rest.get(at..at + 4)
                    .and_then(|h| u16::from_str_radix(h, 16).ok())
            };
            let high = unit(2).is_some_and(|u| (0xD800..0xDC00).contains(&u));
            let low = rest[6..].starts_with("\\u")
                && unit(8).is_some_and(|u| (0xDC00..0xE000).contains(&u));
            if high && low { 12 } else { 6 }
        }
        Some(b'u') => 2 + hex_run(2, 4),
        Some(b'\r') if rest[2..].starts_with('\n') => 3,
        Some(_) => 1 + rest[1..].chars().next().map_or(0, char::len_utf8),
        None => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::render;
    use crate::tree::Edit;

    /// Statements deleted whole from either end of a script leave nothing to join: the
    /// cheap check judges them (a flat file of 60 000 statements is not parsed once per
    /// candidate).
    #[test]
    fn deletions_at_the_ends_of_the_text_need_no_parse() {
        let text = "var a = 1\nvar b = 2\nvar c = 3\nvar d = 4\n";
        let js = JavaScript::for_original(text);
        let tree = js.parse(text).unwrap();
        let top = tree.at_depth(1);
        assert_eq!(top.len(), 4);
        let judge = |ids: &[NodeId]| {
            let edits: Vec<Edit> = ids
                .iter()
                .map(|&id| tree.node(id).deletion().unwrap())
                .collect();
            let edits: Vec<&Edit> = edits.iter().collect();
            let candidate = render(text, &edits);
            (js.deletions_stay_valid(text, &edits, &candidate), candidate)
        };
        let head = judge(&top[..2]);
        assert_eq!(head, (Some(true), "var c = 3\nvar d = 4\n".to_string()));
        let tail = judge(&top[2..]);
        assert_eq!(tail, (Some(true), "var a = 1\nvar b = 2\n".to_string()));
        // The line break between `b` and `c` goes with `b`'s line.
        let middle = judge(&top[1..3]);
        assert_eq!(middle, (Some(true), "var a = 1\nvar d = 4\n".to_string()));
    }

    /// A tree built to a depth serves the deletion passes: it has the nodes of a whole
    /// build at every depth it holds, and the rewrites of those that may not be deleted,
    /// but not those of the others; and it does not pass for whole.
    #[test]
    fn a_tree_for_deletions_leaves_out_the_rewrites_of_deletable_nodes() {
        let text = "var unused = 1;\nfunction f(a) {\n  if (a) {\n    return g(a);\n  }\n}\n\
                    f(1);\nx = [1, (2)];\n";
        let js = JavaScript::for_original(text);
        let whole = js.parse(text).unwrap();
        let limited = js.parse_to(text, 20).unwrap();
        assert!(whole.is_whole());
        assert!(limited.holds(20) && !limited.is_whole());
        let shape = |tree: &crate::tree::Tree| -> Vec<_> {
            tree.ids()
                .map(|id| {
                    let n = tree.node(id);
                    (n.depth, n.span.clone(), n.delete.clone())
                })
                .collect()
        };
        assert_eq!(shape(&whole), shape(&limited));
        let (mut kept, mut left_out) = (0, 0);
        for (w, l) in whole.ids().zip(limited.ids()) {
            let (w, l) = (whole.node(w), limited.node(l));
            if w.delete.is_some() {
                assert!(l.alternatives.is_empty(), "{:?}", &text[l.span.clone()]);
                left_out += w.alternatives.len();
            } else {
                assert_eq!(w.alternatives, l.alternatives);
                kept += l.alternatives.len();
            }
        }
        // Both kinds are there: the `if` and `return` may go and have rewrites (its
        // consequent, the call alone), the parenthesized `2` may not and has one.
        assert!(left_out >= 2 && kept >= 1, "{left_out} {kept}");
    }

    /// (kind, text, text deleted with it, alternatives) of every node.
    fn nodes(text: &str) -> Vec<(String, String, Option<String>, Vec<String>)> {
        let tree = JavaScript::default().parse(text).unwrap();
        tree.ids()
            .skip(1)
            .map(|id| {
                let n = tree.node(id);
                (
                    n.label.to_string(),
                    text[n.span.clone()].to_string(),
                    n.delete.clone().map(|d| text[d].to_string()),
                    // What stands in the node's place once its edits are applied.
                    n.alternatives
                        .iter()
                        .map(|edits| {
                            let edits: Vec<&Edit> = edits.iter().collect();
                            let whole = render(text, &edits);
                            let after = text.len() - n.span.end;
                            whole[n.span.start..whole.len() - after].to_string()
                        })
                        .collect(),
                )
            })
            .collect()
    }

    /// The edits offered for the node of `kind` whose text is `own`; none when the tree
    /// leaves that node out.
    fn node(text: &str, kind: &str, own: &str) -> (Option<String>, Vec<String>) {
        nodes(text)
            .into_iter()
            .find(|(k, t, _, _)| k == kind && t == own)
            .map_or((None, Vec::new()), |found| (found.2, found.3))
    }

    /// The tree of `text` and its node whose text is `own`.
    fn tree_at(text: &str, own: &str) -> (crate::tree::Tree, crate::tree::NodeId) {
        let tree = JavaScript::default().parse(text).unwrap();
        let id = tree
            .ids()
            .find(|&id| text[tree.node(id).span.clone()] == *own)
            .unwrap();
        (tree, id)
    }

    fn without(text: &str, kind: &str, own: &str) -> String {
        let delete = node(text, kind, own).0.unwrap();
        let at = text.find(&delete).unwrap();
        render(text, &[&Edit::delete(at..at + delete.len())])
    }

    /// Every deletion and every alternative `tree` offers.
    fn all_edits(tree: &Tree) -> Vec<Edit> {
        let mut edits: Vec<Edit> = tree
            .ids()
            .filter_map(|id| tree.node(id).delete.clone().map(Edit::delete))
            .collect();
        edits.extend(
            tree.ids()
                .flat_map(|id| tree.node(id).alternatives.concat()),
        );
        edits
    }

    /// Asserts that `front` judges `text` with `chosen` applied as valid incrementally
    /// exactly when a fresh parse does, and counts the verdict in `counts` (valid, invalid).
    fn agree(front: &JavaScript, text: &str, chosen: &[&Edit], counts: &mut (usize, usize)) {
        let candidate = render(text, chosen);
        let fresh = front.is_valid(&candidate);
        assert_eq!(
            front.is_valid_edited(text, chosen, &candidate),
            fresh,
            "{candidate}"
        );
        if fresh {
            counts.0 += 1;
        } else {
            counts.1 += 1;
        }
    }

    #[test]
    fn incremental_checks_agree_with_fresh_parses() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/js/umd-type-error/input.js"
        ))
        .unwrap();
        let front = JavaScript::default();
        let edits = all_edits(&front.parse(&text).unwrap());
        // Many subsets of the edits, of every size, several of them over the merge limit.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut counts = (0, 0);
        for round in 0..400 {
            let chosen: Vec<&Edit> = edits
                .iter()
                .filter(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state % 64 < (round % 8 + 1) as u64
                })
                .collect();
            agree(&front, &text, &chosen, &mut counts);
        }
        assert!(counts.0 > 10 && counts.1 > 5, "{counts:?} valid, invalid");
    }

    /// Escapes that only tagged templates may hold reach tree-sitter rewritten (see
    /// [`early::read_javascript`]); a re-parse of an edited text reuses the old reading of
    /// bytes no edit touched, and judges every edit and pair of edits as a fresh parse does.
    #[test]
    fn incremental_checks_agree_with_fresh_parses_around_raw_escapes() {
        let text = "a = tag`\\u${b}\\u12${c}34 \\xg`;\nd = String.raw`\\\\\\u` + `\\u0041`;\nf(tag`\\x4${e}1`, `\\x41`);\n";
        let front = JavaScript::for_original(text);
        assert!(front.note().is_none(), "tree-sitter misreads {text}");
        let edits = all_edits(&front.parse(text).unwrap());
        let overlap = |a: &Edit, b: &Edit| a.span.start < b.span.end && b.span.start < a.span.end;
        let mut counts = (0, 0);
        for (i, first) in edits.iter().enumerate() {
            agree(&front, text, &[first], &mut counts);
            for second in edits[i + 1..].iter().filter(|e| !overlap(first, e)) {
                let mut chosen = [first, second];
                chosen.sort_by_key(|e| e.span.start);
                agree(&front, text, &chosen, &mut counts);
            }
        }
        assert!(counts.0 > 10 && counts.1 > 5, "{counts:?} valid, invalid");
    }

    #[test]
    fn private_declarations_are_told_from_other_deletions() {
        for declares in [
            "  #p = 1;",
            "static #q;",
            "\n  static async *#m() {}",
            "get #v() {}",
        ] {
            assert!(may_declare_private(declares), "{declares}");
        }
        for other in [
            "m() { return this.#p; }",
            "x = '#a';",
            "static y = 1;",
            "getter() {}",
        ] {
            assert!(!may_declare_private(other), "{other}");
        }
    }

    #[test]
    fn the_profile_loads() {
        Grammar::load(
            "javascript",
            tree_sitter_javascript::LANGUAGE.into(),
            "grammars/javascript.toml",
            PROFILE,
        )
        .unwrap();
    }

    #[test]
    fn a_profile_naming_an_unknown_kind_is_refused() {
        let err = Grammar::load(
            "javascript",
            tree_sitter_javascript::LANGUAGE.into(),
            "x.toml",
            "language = \"javascript\"\n[lists.no_such_kind]\n",
        )
        .unwrap_err();
        assert!(
            err.contains("x.toml: unknown node kind `no_such_kind`"),
            "{err}"
        );
    }

    #[test]
    fn a_rule_on_results_needs_the_results_table() {
        let load = |extra: &str| {
            Grammar::load(
                "javascript",
                tree_sitter_javascript::LANGUAGE.into(),
                "x.toml",
                &format!(
                    "language = \"javascript\"\n[[replace]]\nkind = \"return_statement\"\nwith = [\"${{inner}};\"]\nunless_result_used = true\n{extra}"
                ),
            )
        };
        let err = load("").unwrap_err();
        assert!(err.contains("needs a `[results]` table"), "{err}");
        let err = load("[results]\nfunctions = []\ndeclared = \"function_declaration\"\ncallee = \"call_expression.function\"\nstatement = \"expression_statement\"\n").unwrap_err();
        assert!(err.contains("needs a field"), "{err}");
    }

    #[test]
    fn list_items_take_one_comma() {
        let text = "f(a, b, c);\n";
        assert_eq!(without(text, "identifier", "a"), "f(b, c);\n");
        assert_eq!(without(text, "identifier", "b"), "f(a, c);\n");
        assert_eq!(without(text, "identifier", "c"), "f(a, b);\n");
        assert_eq!(without("f(a,);", "identifier", "a"), "f();");
        assert_eq!(
            without("x = [\n  1,\n  2,\n];\n", "number", "2"),
            "x = [\n  1,\n];\n"
        );
        assert_eq!(
            without("x = {\n  a: 1,\n  b: 2\n};\n", "pair", "a: 1"),
            "x = {\n  b: 2\n};\n"
        );
    }

    #[test]
    fn a_single_declarator_stays() {
        assert_eq!(node("var a = 1;", "variable_declarator", "a = 1").0, None);
        assert_eq!(
            without("let a = 1, b;", "variable_declarator", "a = 1"),
            "let b;"
        );
    }

    #[test]
    fn statements_take_their_line_and_no_blank_line_stays() {
        let text = "function f() {\n  a();\n\n  b();\n\n  c();\n}\n";
        assert_eq!(
            without(text, "expression_statement", "a();"),
            "function f() {\n  b();\n\n  c();\n}\n"
        );
        assert_eq!(
            without(text, "expression_statement", "b();"),
            "function f() {\n  a();\n  c();\n}\n"
        );
        assert_eq!(
            without(text, "expression_statement", "c();"),
            "function f() {\n  a();\n\n  b();\n}\n"
        );
        assert_eq!(without("// c\nx();\n", "comment", "// c"), "x();\n");
        assert_eq!(
            without("x();\ny();\n", "expression_statement", "x();"),
            "y();\n"
        );
    }

    #[test]
    fn class_members_take_their_semicolon() {
        assert_eq!(
            without(
                "class A {\n  x = 1;\n  m() {}\n}\n",
                "field_definition",
                "x = 1"
            ),
            "class A {\n  m() {}\n}\n"
        );
    }

    #[test]
    fn optional_parts_go_with_their_keyword_or_prefix() {
        let text = "if (a) {\n  b();\n} else {\n  c();\n}\n";
        assert_eq!(
            without(text, "else_clause", "else {\n  c();\n}"),
            "if (a) {\n  b();\n}\n"
        );
        assert_eq!(
            without("var x = 1 + 2;", "binary_expression", "1 + 2"),
            "var x;"
        );
        assert_eq!(
            without(
                "try { a(); } catch (e) {} finally { b(); }",
                "finally_clause",
                "finally { b(); }"
            ),
            "try { a(); } catch (e) {}"
        );
        assert_eq!(
            without(
                "try { a(); } catch (e) {} finally { b(); }",
                "catch_clause",
                "catch (e) {}"
            ),
            "try { a(); } finally { b(); }"
        );
        // A try without a finally keeps its catch.
        assert_eq!(
            node("try {} catch (e) {}", "catch_clause", "catch (e) {}").0,
            None
        );
        assert_eq!(
            without("for (i = 0; i < n; i++) {}", "update_expression", "i++"),
            "for (i = 0; i < n;) {}"
        );
    }

    /// A hoisted descendant is kept by deleting what surrounds it, never copied: a copy
    /// per node made the tree of 50 000 nested arrays hold gigabytes.
    #[test]
    fn hoisting_copies_no_text() {
        let depth = 2000;
        let text = format!("x = {}1{};\n", "[".repeat(depth), "]".repeat(depth));
        let tree = JavaScript::default().parse(&text).unwrap();
        let copied: usize = tree
            .ids()
            .flat_map(|id| tree.node(id).alternatives.iter().flatten())
            .map(|e| e.text.len())
            .sum();
        assert!(copied < 4 * depth, "{copied} bytes of alternative text");
    }

    #[test]
    fn hoisting_offers_nearest_descendants_shortest_first() {
        assert_eq!(
            node("x = a + bb;", "binary_expression", "a + bb").1,
            ["a", "0", "bb"]
        );
        assert_eq!(
            node("z = f(g(x), y);", "call_expression", "f(g(x), y)").1,
            ["f", "y", "0", "g(x)"]
        );
        let text = "if (c) {\n  a();\n} else b();\n";
        assert_eq!(
            node(text, "if_statement", text.trim_end()).1,
            ["a();", "b();", "{\n  a();\n}"]
        );
    }

    /// Spaces at the start of a line are layout, but not in a template or a string
    /// continued with a backslash: the lines that begin inside one keep theirs, the other
    /// lines of the same rewrite move.
    #[test]
    fn hoists_keep_the_layout_of_what_they_keep_but_not_of_strings() {
        let js = JavaScript::default();
        let hoisted = |text: &str, inner: &str| {
            let span = 2..text.len() - 1;
            let at = text.find(inner).unwrap();
            let edits = vec![
                Edit::delete(span.start..at),
                Edit::delete(at + inner.len()..span.end),
            ];
            let mut rewrites = [(span, edits)];
            js.reindent(text, &mut rewrites);
            crate::render::render(text, &rewrites[0].1.iter().collect::<Vec<_>>())
        };
        let text = "  if (c) {\n    a();\n    b();\n  }\n";
        assert_eq!(hoisted(text, "a();\n    b();"), "  a();\n  b();\n");
        let text = "  if (c) {\n    a(`\n    ${x}\n    `);\n    b(`${y}`);\n  }\n";
        assert_eq!(
            hoisted(text, "a(`\n    ${x}\n    `);\n    b(`${y}`);"),
            "  a(`\n    ${x}\n    `);\n  b(`${y}`);\n"
        );
        let text = "  if (c) {\n    a('\\\n    ');\n    b();\n  }\n";
        assert_eq!(
            hoisted(text, "a('\\\n    ');\n    b();"),
            "  a('\\\n    ');\n  b();\n"
        );
    }

    #[test]
    fn an_iife_can_become_its_body() {
        let text = "(function () {\n  a();\n  b();\n})();\n";
        let (_, alternatives) = node(text, "expression_statement", text.trim_end());
        assert_eq!(alternatives, ["{\n  a();\n  b();\n}"]);
        let block = "{\n  a();\n  b();\n}\n";
        assert_eq!(
            node(block, "statement_block", block.trim_end()).1,
            ["a();", "b();", "a();\n  b();"]
        );
    }

    /// A declared function called only as a statement becomes its body with its calls
    /// gone: a call before the declaration would otherwise be a ReferenceError. A name
    /// written anywhere else keeps the calls, and so the plain body is offered.
    #[test]
    fn a_function_becoming_its_body_takes_its_calls() {
        let rewritten = |text: &str, own: &str| {
            let (tree, id) = tree_at(text, own);
            tree.node(id)
                .alternatives
                .iter()
                .map(|edits| render(text, &edits.iter().collect::<Vec<_>>()))
                .collect::<Vec<_>>()
        };
        let function = "function f(o) {\n  g(o.x);\n}";
        let text = format!("a();\nf(1);\n{function}\nf(2);\n");
        assert_eq!(
            rewritten(&text, function),
            ["a();\ng(o.x);\n", "a();\n{\n  g(o.x);\n}\n"]
        );
        // What the body keeps moves left as it would without the calls.
        let text = "f();\nfunction f() {\n  g(\n    1);\n}\n";
        let (tree, id) = tree_at(text, "function f() {\n  g(\n    1);\n}");
        let span = tree.node(id).span.clone();
        let mut rewrites: Vec<_> = (tree.node(id).alternatives.iter())
            .map(|edits| (span.clone(), edits.clone()))
            .collect();
        JavaScript::default().reindent(text, &mut rewrites);
        let texts: Vec<String> = (rewrites.iter())
            .map(|(_, edits)| render(text, &edits.iter().collect::<Vec<_>>()))
            .collect();
        assert_eq!(texts[0], "g(\n  1);\n");
        // Two functions of that name, or the name read as a value: the calls stay.
        for other in ["function g() { function f() {} }\n", "h(f);\n"] {
            let text = format!("f();\n{function}\n{other}");
            let alternatives = rewritten(&text, function);
            assert!(
                alternatives.iter().all(|a| a.starts_with("f();\n")),
                "{other}: {alternatives:?}"
            );
        }
        // A call inside the function itself, or one that is not a list's item.
        for text in [
            "function f() {\n  f();\n}\n",
            "if (c) f();\nfunction f() {\n  g();\n}\n",
        ] {
            let own = &text[text.find("function").unwrap()..text.len() - 1];
            let alternatives = rewritten(text, own);
            assert!(
                alternatives.iter().all(|a| a.contains("f();")),
                "{text}: {alternatives:?}"
            );
        }
    }

    #[test]
    fn nothing_leaves_its_function_or_loop() {
        // The body holds a `return`, which would not parse for an engine at top level.
        let text = "(function () {\n  return 1;\n})();\n";
        assert!(
            node(text, "expression_statement", text.trim_end())
                .1
                .is_empty()
        );
        let text = "while (x) { break; }";
        assert!(
            !node(text, "while_statement", text)
                .1
                .contains(&"break;".to_string())
        );
        // Inside the same loop it may move.
        let text = "while (x) { if (y) break; }";
        assert_eq!(node(text, "if_statement", "if (y) break;").1, ["break;"]);
    }

    /// A `return` may leave its function for another function around it, and a `break` its
    /// loop for another loop, but never for a place that has none, nor through a function
    /// or a class's static block.
    #[test]
    fn a_return_or_break_may_move_to_an_outer_function_or_loop() {
        let text = "function f() {\n  return function () {\n    return 1;\n  };\n}\n";
        let own = "return function () {\n    return 1;\n  };";
        assert!(
            node(text, "return_statement", own)
                .1
                .contains(&"return 1;".to_string())
        );
        // Into a function named where it stands, whose callers may go.
        let text = "var f = function () {\n  x = function () {\n    return 1;\n  };\n};\n";
        let own = "x = function () {\n    return 1;\n  };";
        assert!(
            node(text, "expression_statement", own)
                .1
                .contains(&"return 1;".to_string())
        );
        let text = "while (a) {\n  while (b) {\n    break;\n  }\n}\n";
        let own = "while (b) {\n    break;\n  }";
        assert!(
            node(text, "while_statement", own)
                .1
                .contains(&"break;".to_string())
        );
        for (text, kind, own) in [
            // Not at the top level.
            (
                "x = function () {\n  return 1;\n};\n",
                "expression_statement",
                "x = function () {\n  return 1;\n};",
            ),
            // Not into a static block, whose function is not its own.
            (
                "function f() {\n  class A {\n    static {\n      g(function () {\n        return 1;\n      });\n    }\n  }\n}\n",
                "expression_statement",
                "g(function () {\n        return 1;\n      });",
            ),
            // Not into a function passed to a call, which takes its result.
            (
                "g(function () {\n  x = function () {\n    return 1;\n  };\n});\n",
                "expression_statement",
                "x = function () {\n    return 1;\n  };",
            ),
            // Not out of a function into a loop around it.
            (
                "while (a) {\n  g(function () {\n    while (b) break;\n  });\n}\n",
                "expression_statement",
                "g(function () {\n    while (b) break;\n  });",
            ),
        ] {
            let (_, alternatives) = node(text, kind, own);
            assert!(
                alternatives
                    .iter()
                    .all(|a| !a.contains("return 1") && !a.starts_with("break")),
                "{text}: {alternatives:?}"
            );
        }
    }

    #[test]
    fn declarations_are_not_hoisted_into_a_single_statement_position() {
        let text = "while (x) if (y) { let z = 1; }";
        assert!(
            !node(text, "if_statement", "if (y) { let z = 1; }")
                .1
                .contains(&"let z = 1;".to_string())
        );
        let text = "if (y) { let z = 1; }";
        assert!(
            node(text, "if_statement", text)
                .1
                .contains(&"let z = 1;".to_string())
        );
    }

    /// `return x;` becomes `x;` where the function's result goes to no one: a method or
    /// an object's function whose name is written only where it is defined and as the
    /// callee of calls that are statements (`o.m();`), not where a call's value is taken.
    #[test]
    fn returns_of_methods_called_as_statements_become_statements() {
        let offered = |text: &str| {
            node(text, "return_statement", "return null.x;")
                .1
                .contains(&"null.x;".to_string())
        };
        assert!(offered("class K { m() { return null.x; } }\nnew K().m();"));
        assert!(offered("class K { m() { return null.x; } }"));
        assert!(offered(
            "var o = { m: function () { return null.x; } };\no.m();"
        ));
        assert!(offered("var f = function () { return null.x; };\nf();"));
        assert!(!offered(
            "class K { m() { return null.x; } }\nuse(new K().m());"
        ));
        assert!(!offered(
            "class K { m() { return null.x; } }\nvar v = k.m();"
        ));
        assert!(!offered(
            "var o = { m: function () { return null.x; } };\ng(o.m);"
        ));
        assert!(!offered(
            "var f = function () { return null.x; };\nx = f();"
        ));
        assert!(!offered("g(function () { return null.x; });"));
        // An export's importers are not in the text (as `module.exports`' are not).
        assert!(offered("export class K { m() { return null.x; } }"));
        assert!(offered("export const f = function () { return null.x; };"));
        assert!(offered("export default function () { return null.x; }"));
        assert!(offered("export function f() { return null.x; }"));
        assert!(!offered(
            "export function f() { return null.x; }\nvar v = f();"
        ));
        // Not where the language takes the result by itself: an accessor, a constructor,
        // a conversion or protocol method, a computed name.
        assert!(!offered(
            "class K { get m() { return null.x; } }\nnew K().m();"
        ));
        assert!(!offered(
            "class K { constructor() { return null.x; } }\nnew K();"
        ));
        assert!(!offered(
            "var o = { toString: function () { return null.x; } };"
        ));
        assert!(!offered("var o = { [k]() { return null.x; } };\no[k]();"));
        // Nor where the value would continue the statement before it (`g()` then `[1]`).
        let asi = |text: &str, own: &str, new: &str| {
            node(text, "return_statement", own)
                .1
                .contains(&new.to_string())
        };
        assert!(!asi(
            "class K { m() {\n  g()\n  return [1]\n} }",
            "return [1]",
            "[1];"
        ));
        assert!(asi(
            "class K { m() {\n  g();\n  return [1]\n} }",
            "return [1]",
            "[1];"
        ));
        assert!(asi(
            "class K { m() {\n  return (a)\n} }",
            "return (a)",
            "(a);"
        ));
    }

    /// A statement's deletion takes the comments after it on its line (`f(); // why`); its
    /// first rewrite deletes it alone, for a test that needs such a comment. An item of a
    /// separated list has no such rewrite.
    #[test]
    fn a_statement_may_go_without_its_comment() {
        let alone = |text: &str, own: &str| {
            let (tree, id) = tree_at(text, own);
            let node = tree.node(id);
            let deleted = render(text, &[&node.deletion().unwrap()]);
            let rewritten = node
                .alternatives
                .first()
                .map(|edits| render(text, &edits.iter().collect::<Vec<_>>()));
            (deleted, rewritten)
        };
        let text = "if (a) {\n  let v = 1; // keep\n  f();\n}\n";
        let (deleted, rewritten) = alone(text, "let v = 1;");
        assert_eq!(deleted, "if (a) {\n  f();\n}\n");
        assert_eq!(
            rewritten.as_deref(),
            Some("if (a) {\n  // keep\n  f();\n}\n")
        );
        let text = "g(); h(); /* keep */\n";
        let (_, rewritten) = alone(text, "h();");
        assert_eq!(rewritten.as_deref(), Some("g(); /* keep */\n"));
        let text = "x = [\n  1, // one\n  2\n];\n";
        let (_, rewritten) = alone(text, "1");
        assert_ne!(rewritten.as_deref(), Some("x = [\n  // one\n  2\n];\n"));
    }

    #[test]
    fn conditions_keep_their_parentheses() {
        let (_, alternatives) = node("if ((a)) {}", "parenthesized_expression", "((a))");
        assert!(alternatives.is_empty(), "{alternatives:?}");
        // Parentheses inside them may go: their content is a name.
        assert_eq!(
            node("if ((a)) {}", "parenthesized_expression", "(a)").1,
            ["a", "0"]
        );
        assert_eq!(
            node("x = a && (b = c);", "binary_expression", "a && (b = c)").1,
            ["a", "0", "(b = c)"]
        );
    }

    #[test]
    fn parentheses_give_way_only_to_what_no_operator_splits() {
        let alternatives =
            |text: &str, paren: &str| node(text, "parenthesized_expression", paren).1;
        assert_eq!(alternatives("x = ((f(a)));", "((f(a)))"), ["0", "(f(a))"]);
        assert_eq!(alternatives("x = a.b + (c[0]);", "(c[0])"), ["0", "c[0]"]);
        // A sequence gives way to one of its names; operators, assignments and arrows
        // keep their parentheses.
        assert_eq!(alternatives("const c = (a, b);", "(a, b)"), ["a", "b", "0"]);
        for (text, paren) in [
            ("x = a && (b = c);", "(b = c)"),
            ("y = a ?? (b || c);", "(b || c)"),
            ("z = (-a) ** b;", "(-a)"),
            ("r = (async () => a)();", "(async () => a)"),
        ] {
            assert_eq!(alternatives(text, paren), ["0"], "{text}");
        }
        // The avoid rules hold: no function or object begins a statement, no number is
        // followed by `.`, no object is an arrow's body.
        let kept = |text: &str, paren: &str| {
            let inner = &paren[1..paren.len() - 1];
            !alternatives(text, paren).iter().any(|a| a == inner)
        };
        assert!(kept("(function () {})();", "(function () {})"));
        assert!(kept("({}).x;", "({})"));
        assert!(kept("q = (0).x;", "(0)"));
        assert!(kept("v = () => ({});", "({})"));
        assert_eq!(
            alternatives("w = (function () {})();", "(function () {})"),
            ["0", "function () {}"]
        );
        // Where any expression but a sequence stands (a statement, a value, an argument,
        // an element, a returned value), any content may take the parentheses' place.
        for (text, paren, inner) in [
            ("(a - b);", "(a - b)", "a - b"),
            ("var v = (a ? b : c);", "(a ? b : c)", "a ? b : c"),
            ("f(x, (a || b));", "(a || b)", "a || b"),
            ("y = [(a = 1)];", "(a = 1)", "a = 1"),
            (
                "function g() { return (\n  a + b\n); }",
                "(\n  a + b\n)",
                "a + b",
            ),
        ] {
            assert!(
                alternatives(text, paren).iter().any(|a| a == inner),
                "{text}: {:?}",
                alternatives(text, paren)
            );
        }
        // Not a sequence where it would split, nor an object or a function beginning a
        // statement.
        assert!(kept("f((a, b));", "(a, b)"));
        assert!(kept("var v = (a, b);", "(a, b)"));
        assert!(kept("({} + a);", "({} + a)"));
        assert!(kept("(function () {} + a);", "(function () {} + a)"));
        // Nor an `in` that would end a `for` head's initializer, nor a pattern beginning
        // a statement (`{} = o;` is a block).
        assert!(kept("for (var i = (a in o); i;) {}", "(a in o)"));
        assert!(kept("({} = o);", "({} = o)"));
        // A string alone as a statement would be a directive.
        assert!(kept(
            "function f(a = 1) { (\"use strict\"); }",
            "(\"use strict\")"
        ));
    }

    /// Renders `text` with every subset of its nodes' deletions (separators along, as the
    /// driver makes them) and gives `check` each rendering that parses.
    fn every_valid_deletion(text: &str, mut check: impl FnMut(&str)) {
        let tree = JavaScript::default().parse(text).unwrap();
        let deletes: Vec<Edit> = tree
            .ids()
            .map(|id| tree.node(id))
            .filter_map(|node| node.deletion())
            .collect();
        for mask in 0u32..1 << deletes.len() {
            let chosen: Vec<&Edit> = (0..deletes.len())
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| &deletes[i])
                .collect();
            let out = render(text, &chosen);
            if JavaScript::default().is_valid(&out) {
                check(&out);
            }
        }
    }

    #[test]
    fn any_subset_of_line_items_leaves_tidy_lines() {
        for text in [
            "function f() {\n  a();\n\n  b();\n  c(); // c\n\n\n  d();\n}\n",
            "// head\n\nx = [\n  1,\n\n  2,\n  3,\n];\ny = [\n  4,\n  5\n];\n",
        ] {
            every_valid_deletion(text, |out| {
                let lines: Vec<&str> = out.lines().collect();
                for (i, line) in lines.iter().enumerate() {
                    let blank = line.trim().is_empty();
                    assert!(!blank || line.is_empty(), "spaces left on a line:\n{out}");
                    if blank {
                        let before = if i == 0 { "" } else { lines[i - 1].trim_end() };
                        let after = lines.get(i + 1).map_or("", |l| l.trim_start());
                        assert!(
                            i > 0 && !before.ends_with(['{', '[']),
                            "blank line at the start:\n{out}"
                        );
                        assert!(
                            !after.starts_with(['}', ']']),
                            "blank line at the end:\n{out}"
                        );
                    }
                }
            });
        }
    }

    /// What closes a separated list stays where it stood: right after the last item when
    /// it was (`g(a);` and `var x = 1;`, not `g(a` and `);` on the next line), on a line
    /// of its own when it was.
    #[test]
    fn a_list_closed_right_after_its_last_item_stays_closed_so() {
        let text = "g(a,\n  b,\n  c);\nvar x = 1,\n    y,\n    z;\nh([\n  1,\n  2\n]);\n";
        let mut seen = 0;
        every_valid_deletion(text, |out| {
            for line in out.lines() {
                assert!(!matches!(line.trim(), ");" | ";"), "a closer alone:\n{out}");
            }
            if out.contains("h([\n  1\n]);") {
                seen += 1;
            }
            if out.contains("g(a);\nvar x = 1;\n") {
                seen += 1;
            }
        });
        assert!(
            seen >= 2,
            "the tidy renderings were not among the candidates"
        );
    }

    /// A list whose items all go is left with nothing between its brackets (`{}`, not `{`
    /// and `}` on two lines), however many went and whatever lines they stood on; a comment
    /// left inside keeps its brackets' lines, and a list partly emptied keeps its layout.
    #[test]
    fn an_emptied_list_closes_up() {
        let text = "function f() {\n  a();\n  b(); c();\n}\nvar o = { p: 1 };\n\
                    g([\n  1,\n  2\n], h(\n  x\n));\nclass K {\n  m() {}\n  // note\n}\n";
        let mut seen = Vec::new();
        every_valid_deletion(text, |out| {
            for open in ["{\n", "[\n", "(\n"] {
                let close = match open {
                    "{\n" => '}',
                    "[\n" => ']',
                    _ => ')',
                };
                for (at, _) in out.match_indices(open) {
                    let rest = out[at + 2..].trim_start_matches([' ', '\n']);
                    assert!(!rest.starts_with(close), "{open:?} left open:\n{out}");
                }
            }
            assert!(!out.contains("{ }"), "a space left in braces:\n{out}");
            seen.push(out.to_string());
        });
        for want in [
            "function f() {}\n",
            "var o = {};\n",
            "g([], h());\n",
            "class K {\n  // note\n}\n",
        ] {
            assert!(
                seen.iter().any(|out| out.contains(want)),
                "no candidate holds {want:?}"
            );
        }
    }

    /// Statements side by side on a line take the line with them when they all go, at the
    /// start, in the middle and at the end of a text (they left a blank line: `x(); y();`
    /// gave an empty first line), and a comment sharing a line with code counts as one of
    /// them.
    #[test]
    fn statements_sharing_a_line_leave_no_blank_line() {
        let text = "x(); y();\na();\nb(); // note\nif (c) { d(); e(); }\nf(); g();";
        let mut all_go = 0;
        every_valid_deletion(text, |out| {
            assert!(!out.starts_with('\n'), "a blank first line:\n{out:?}");
            assert!(!out.contains("\n\n"), "a blank line:\n{out:?}");
            if out == "a();\nif (c) { d(); e(); }" {
                all_go += 1;
            }
        });
        assert!(all_go > 0, "no candidate took the shared lines whole");
    }

    /// Whichever items of a separated list go, no separator is left before its end or
    /// doubled: `f(a, )` is a syntax error to engines before ES2017, `var a = 1, ;` to all.
    /// A list written with a comma after its last item keeps that style.
    #[test]
    fn any_subset_of_separated_items_leaves_no_dangling_separator() {
        let texts = [
            "f(a, b, c);\nvar x = 1, y = 2, z = 3;\n",
            "g(\n  1,\n  2,\n  3\n);\nh([p, /* q */ q, r]);\n",
            "k(\n  1,\n  2,\n);\n",
            "m(\n  aa, // first\n  bb, // second\n  cc\n);\n",
        ];
        for text in texts {
            every_valid_deletion(text, |out| {
                if !out.contains("bb") && !out.contains("cc") {
                    assert!(!out.contains("aa,"), "a separator before a comment:\n{out}");
                }
                let squeezed: String = out.split_whitespace().collect();
                for dangling in [",)", ",]", ",;", "(,", "[,", ",,"] {
                    let styled = text.starts_with('k') && dangling == ",)";
                    assert!(
                        styled || !squeezed.contains(dangling),
                        "{dangling} in:\n{out}"
                    );
                }
            });
        }
    }

    /// Statements that share a line: whichever go, what stays does not begin with a space
    /// (the nodes before it took the spaces after them).
    #[test]
    fn items_sharing_a_line_leave_no_space_at_its_start() {
        let text = "a(); b(); c();\nif (x) { d(); e(); } f(); // g\n";
        every_valid_deletion(text, |out| {
            assert!(
                out.lines().all(|l| !l.starts_with([' ', '\t'])),
                "a line begins with a space:\n{out}"
            );
        });
    }

    #[test]
    fn syntax_errors_name_the_first_error_or_missing_node() {
        let err = JavaScript::default()
            .parse("let a = 1;\nlet b = ;\n")
            .unwrap_err();
        assert_eq!((err.line, err.column), (2, 7), "{err}");
        let err = JavaScript::default().parse("f(a, b\n").unwrap_err();
        assert!(
            err.message.contains("missing") || err.message.contains("unexpected"),
            "{err}"
        );
        assert!(!JavaScript::default().is_valid("if (a"));
        assert!(JavaScript::default().is_valid("if (a) b();"));
        // Columns count characters, not bytes.
        let err = JavaScript::default().parse("é = ;").unwrap_err();
        assert_eq!((err.line, err.column), (1, 3), "{err}");
    }

    /// A list's trailing separator goes with its last item: with all items gone, the
    /// list is empty, not `{,}` (which tree-sitter reads without complaint, and V8 does
    /// not; `named_imports` is not even parsed).
    #[test]
    fn a_trailing_separator_goes_with_the_last_item() {
        for (text, items, last_gone, all_gone) in [
            (
                "import {a, b,} from 'm';",
                &["a", "b"][..],
                "import {a} from 'm';",
                "import {} from 'm';",
            ),
            (
                "var {a, b,} = c;",
                &["a", "b"],
                "var {a} = c;",
                "var {} = c;",
            ),
            ("f(a, b, c,);", &["a", "b", "c"], "f(a, b);", "f();"),
            (
                "x = {a: 1, b: 2, };",
                &["a: 1", "b: 2"],
                "x = {a: 1 };",
                "x = {};",
            ),
        ] {
            let tree = JavaScript::default().parse(text).unwrap();
            let deletion = |item: &str| {
                tree.ids()
                    .map(|id| tree.node(id))
                    .find(|n| &text[n.span.clone()] == item && n.delete.is_some())
                    .and_then(|n| n.deletion())
                    .unwrap()
            };
            let all: Vec<Edit> = items.iter().map(|i| deletion(i)).collect();
            let all: Vec<&Edit> = all.iter().collect();
            assert_eq!(render(text, &all), all_gone, "{text}");
            let last = deletion(items[items.len() - 1]);
            assert_eq!(render(text, &[&last]), last_gone, "{text}");
        }
    }

    /// tree-sitter misreads `[(o.b)] = [1]`, which engines run: an original that holds it
    /// is reduced all the same, and its candidates may be misread in no more places than
    /// their base.
    #[test]
    fn an_original_misread_in_a_few_places_is_reduced_around_them() {
        let original = "var o = {};\n[(o.b)] = [1];\nf();\ng(1);\n";
        assert!(JavaScript::default().parse(original).is_err());
        let js = JavaScript::for_original(original);
        let tree = js.parse(original).unwrap();
        assert!(
            tree.ids()
                .any(|id| tree.node(id).label == "call_expression")
        );
        let note = js.note().unwrap();
        assert!(note.starts_with("2:"), "{note}");
        // Another statement goes: the misread place stays, valid.
        let without_f = "var o = {};\n[(o.b)] = [1];\ng(1);\n";
        assert!(js.is_valid(without_f));
        let f = original.find("f();").unwrap();
        let delete_f = Edit::delete(f..f + 5);
        assert!(js.is_valid_edited(original, &[&delete_f], without_f));
        // A broken call adds a misread place: refused.
        let broken = "var o = {};\n[(o.b)] = [1];\nf(;\ng(1);\n";
        assert!(!js.is_valid(broken));
        // Once the misread statement is gone, a candidate may not be misread anywhere.
        let clean = "var o = {};\nf();\ng(1);\n";
        assert!(js.is_valid(clean));
        js.parse(clean).unwrap();
        let g = clean.find("1)").unwrap();
        let delete_1 = Edit::delete(g..g + 1);
        assert!(js.is_valid_edited(clean, &[&delete_1], "var o = {};\nf();\ng();\n"));
        let close = clean.find(");\n").unwrap();
        let delete_paren = Edit::delete(close..close + 1);
        assert!(!js.is_valid_edited(clean, &[&delete_paren], "var o = {};\nf(;\ng(1);\n"));
        // A text mostly misread is not taken for JavaScript.
        let prose = "This is not a script at all, but a sentence.";
        assert!(JavaScript::for_original(prose).parse(prose).is_err());
        assert!(JavaScript::for_original(prose).note().is_none());
    }
    #[test]
    fn deep_nesting_needs_no_recursion() {
        let depth = 20_000;
        let text = format!("x = {}0{};", "[".repeat(depth), "]".repeat(depth));
        let tree = JavaScript::default().parse(&text).unwrap();
        assert!(tree.max_depth() as usize >= depth);
    }

    #[test]
    fn a_declaration_takes_its_export_specifiers_along() {
        let text = "function a() {}\nconst b = 1, c = 2;\nvar d;\nvar d;\nimport e from 'e';\n\
                    export function f() {}\nexport { a, b as B, c, d, e, f as g };\n";
        let tree = JavaScript::default().parse(text).unwrap();
        let also = |start: &str| -> Vec<&str> {
            let id = tree
                .node(tree.root())
                .children
                .iter()
                .copied()
                .find(|&id| text[tree.node(id).span.clone()].starts_with(start))
                .unwrap();
            tree.node(id)
                .also
                .iter()
                .map(|e| text[e.span.clone()].trim())
                .collect()
        };
        assert_eq!(also("function a"), ["a,"]);
        assert_eq!(also("const b"), ["b as B,", "c,"]);
        // A name declared twice keeps its specifier.
        assert_eq!(also("var d"), Vec::<&str>::new());
        assert_eq!(also("import e"), ["e,"]);
        // The last specifier goes with the comma before it.
        assert_eq!(also("export function"), [", f as g"]);
        // A script has none.
        let script = JavaScript::default().parse("function a() {}\n").unwrap();
        assert!(script.ids().all(|id| script.node(id).also.is_empty()));
    }

    #[test]
    fn the_last_two_declarations_take_the_comma_before_their_specifiers() {
        // Each specifier's deletion is the tree's own: the last one's separators reach
        // back over the one before it when both go, as when the specifiers are deleted.
        let text = "function a() {}\nfunction b() {}\nfunction c() {}\nexport { a, b, c };\n";
        let tree = JavaScript::default().parse(text).unwrap();
        let mut edits = Vec::new();
        for &id in &tree.node(tree.root()).children {
            let node = tree.node(id);
            let own = &text[node.span.clone()];
            if own.starts_with("function b") || own.starts_with("function c") {
                edits.push(node.deletion().unwrap());
                edits.extend(node.also.iter().cloned());
            }
        }
        let out = crate::render::render(text, &edits.iter().collect::<Vec<_>>());
        assert_eq!(out, "function a() {}\nexport { a };\n");
        assert!(JavaScript::default().parse(&out).is_ok());
    }

    /// The units of every string node of `text` at `grain`, as texts.
    fn string_pieces(text: &str, grain: Grain) -> Vec<Vec<String>> {
        let tree = JavaScript::default().parse(text).unwrap();
        tree.ids()
            .filter(|&id| tree.node(id).label == "string")
            .map(|id| string_units(text, tree.node(id).span.clone(), grain))
            .filter(|units| !units.is_empty())
            .map(|units| units.into_iter().map(|u| text[u].to_string()).collect())
            .collect()
    }

    #[test]
    fn strings_shrink_by_words_with_escapes_whole() {
        let text = "f('a b\\n\\x41\\u00e9\\u{1F600}\\\\ é', \"\");\n";
        // Every escape is a piece of its own at both grains: by words, as a token.
        let pieces = [vec![
            "a",
            " ",
            "b",
            "\\n",
            "\\x41",
            "\\u00e9",
            "\\u{1F600}",
            "\\\\",
            " ",
            "é",
        ]];
        assert_eq!(string_pieces(text, Grain::Words), pieces);
        assert_eq!(string_pieces(text, Grain::Characters), pieces);
        // Every deletion of one character leaves a string that parses, with the same
        // escapes.
        let js = JavaScript::default();
        let at = text.find('\'').unwrap()..text.rfind('\'').unwrap() + 1;
        for unit in string_units(text, at, Grain::Characters) {
            let candidate = render(text, &[&Edit::delete(unit)]);
            assert!(js.is_valid(&candidate), "{candidate}");
        }
        // The front end offers the words only.
        let tree = js.parse(text).unwrap();
        let offered = |grain| {
            tree.ids()
                .any(|id| !js.units(text, tree.node(id), grain).is_empty())
        };
        assert!(offered(Grain::Words));
        assert!(!offered(Grain::Characters));
    }

    /// The units the front end offers at `grain` to the first node of `text` labelled
    /// `label`.
    fn first_units(text: &str, label: &str, grain: Grain) -> Vec<Range<usize>> {
        let js = JavaScript::default();
        let tree = js.parse(text).unwrap();
        let id = tree.ids().find(|&id| tree.node(id).label == label).unwrap();
        js.units(text, tree.node(id), grain)
    }

    /// The texts of the units the front end offers in its shrink by words to the first
    /// node of `text` labelled `label`, which has none by characters.
    fn first_pieces(text: &str, label: &str) -> Vec<String> {
        assert!(first_units(text, label, Grain::Characters).is_empty());
        first_units(text, label, Grain::Words)
            .into_iter()
            .map(|u| text[u].to_string())
            .collect()
    }

    /// A template literal without substitutions shrinks as a string does; one with a `$`
    /// not at all.
    #[test]
    fn templates_without_substitutions_shrink_by_words() {
        let pieces = |text: &str| first_pieces(text, "template_string");
        assert_eq!(
            pieces("f(`a b\\`\nc`);\n"),
            ["a", " ", "b", "\\`", "\n", "c"]
        );
        assert!(pieces("f(`a ${b} c`);\n").is_empty());
        assert!(pieces("f(`a $ {b}`);\n").is_empty());
    }

    /// A comment loses its words and the spaces between them, never its delimiters, an
    /// annotation's first word, a doc comment's `*` or the first line break of a block.
    #[test]
    fn comments_shrink_by_words_keeping_what_marks_them() {
        let pieces = |text: &str| first_pieces(text, "comment");
        assert_eq!(
            pieces("f(); // a long one\n"),
            [" ", "a", " ", "long", " ", "one"]
        );
        assert_eq!(pieces("/*#__PURE__ x*/ f();\n"), [" ", "x"]);
        assert_eq!(
            pieces("//# sourceMappingURL=a.map\n"),
            ["=", "a", ".", "map"]
        );
        assert_eq!(
            pieces("/**\n * Warn once.\n */\nf();\n"),
            ["*", " ", "Warn", " ", "once", ".", "\n "]
        );
        // Every deletion of all of them leaves a comment that ends its line.
        let text = "return /* a\n b */ x;\n";
        let edits: Vec<Edit> = first_units(text, "comment", Grain::Words)
            .into_iter()
            .map(Edit::delete)
            .collect();
        let out = render(text, &edits.iter().collect::<Vec<_>>());
        assert_eq!(out, "return /*\n */ x;\n");
    }

    /// A declaration whose name stands outside it is likely needed, one named only inside
    /// itself or nowhere is not; a few names looked for one by one and many counted in one
    /// walk give the same verdicts.
    #[test]
    fn declarations_used_elsewhere_are_likely_needed() {
        let text = "function used() { return used; }\nfunction alone() { return alone(); }\n\
                    async function* gen() {}\nclass Kept {}\nvar a = 1, b = a;\n\
                    const {c} = o;\nexport function ex() {}\nused(); new Kept(); gen; ex();\n";
        let tree = JavaScript::default().parse(text).unwrap();
        let flags: Vec<(String, bool)> = tree
            .ids()
            .filter(|&id| tree.node(id).deletable())
            .map(|id| {
                let flag = JavaScript::default().likely_needed(text, &tree, &[id]);
                (text[tree.node(id).span.clone()].to_string(), flag == [true])
            })
            .filter(|(own, _)| !own.contains('\n'))
            .collect();
        let likely = |own: &str| {
            flags
                .iter()
                .find(|(o, _)| o == own)
                .unwrap_or_else(|| panic!("no node {own:?} in {flags:?}"))
                .1
        };
        // Named outside itself: by a call, a `new`, a read, another declarator.
        assert!(likely("function used() { return used; }"));
        assert!(likely("async function* gen() {}"));
        assert!(likely("class Kept {}"));
        assert!(likely("a = 1"));
        assert!(likely("export function ex() {}"));
        // Named only inside itself, or by nothing, or not a name but a pattern.
        assert!(!likely("function alone() { return alone(); }"));
        assert!(!likely("b = a"));
        assert!(!likely("const {c} = o;"));
        assert!(!likely("used();"));
        // Many names are counted in one walk: the same verdicts as one by one.
        let many: String = (0..40)
            .map(|i| format!("function f{i}() {{ return f{}; }}\n", i * 2))
            .collect();
        let tree = JavaScript::default().parse(&many).unwrap();
        let nodes: Vec<_> = tree.ids().filter(|&id| tree.node(id).deletable()).collect();
        let together = JavaScript::default().likely_needed(&many, &tree, &nodes);
        let alone: Vec<bool> = nodes
            .iter()
            .map(|&id| JavaScript::default().likely_needed(&many, &tree, &[id]) == [true])
            .collect();
        assert_eq!(together, alone);
        // f2, f4, ..., f38 are named in other functions' bodies; f0 only in its own, the
        // odd ones nowhere.
        assert_eq!(together.iter().filter(|&&f| f).count(), 19);
        assert_eq!(
            declared_name("var $x=1", "variable_declaration", 0..8),
            Some("$x")
        );
        assert_eq!(declared_name("let[a]=b", "lexical_declaration", 0..8), None);
        let exported = |text: &'static str| declared_name(text, "export_statement", 0..text.len());
        assert_eq!(exported("export function d() {}"), Some("d"));
        assert_eq!(exported("export default async function* g() {}"), Some("g"));
        assert_eq!(exported("export default class C {}"), Some("C"));
        assert_eq!(exported("export const a = 1, b = 2;"), Some("a"));
        assert_eq!(exported("export default d;"), None);
        assert_eq!(exported("export default function () {}"), None);
        assert_eq!(exported("export { d };"), None);
        assert_eq!(exported("export * from 'm';"), None);
    }

    /// A regular expression loses whole alternatives (each but the last of an alternation,
    /// with its bar) and counted quantifiers; never a piece of a class or an escape, and
    /// nothing of a pattern that refers to its groups or reads nested classes.
    #[test]
    fn regexes_shrink_by_alternatives_and_counted_quantifiers() {
        let pieces = |text: &str| first_pieces(text, "regex");
        assert_eq!(
            pieces("f(/\\[a]|Y{1,4}?|(b|c)|[|)]|SSS/g);\n"),
            ["\\[a]|", "Y{1,4}?|", "{1,4}?", "(b|c)|", "b|", "[|)]|"]
        );
        assert_eq!(
            pieces("x = /a{2,}b{3}|c/;\n"),
            ["a{2,}b{3}|", "{2,}", "{3}"]
        );
        assert!(pieces("x = /\\d+/;\n").is_empty());
        // Braces of an escape are no quantifier; nor is one whose going would make an
        // octal escape of `\0` and the digit after it (both found by a fuzzer).
        assert_eq!(pieces("x = /\\u{12}a{2}/u;\n"), ["{2}"]);
        assert_eq!(pieces("x = /\\p{L}{2}|x/u;\n"), ["\\p{L}{2}|", "{2}"]);
        assert_eq!(pieces("x = /\\0{2}1a{3}/u;\n"), ["{3}"]);
        // A brace that stands for itself leaves every quantifier whole.
        assert_eq!(pieces("x = /a|{{1}2}|b{2}/;\n"), ["a|", "{{1}2}|"]);
        // A group keeps what makes it a group of its kind.
        assert_eq!(
            pieces("x = /(?:a|b)(?<n>c|d)(?<=e|f)(?i:g|h)/;\n"),
            ["a|", "c|", "e|", "g|"]
        );
        for whole in [
            "x = /(a)|\\1/;\n",
            "x = /(?<n>a)|\\k<n>/u;\n",
            "x = /[a--b]|c/v;\n",
        ] {
            assert!(pieces(whole).is_empty(), "{whole}");
        }
    }

    /// A surrogate pair written as two escapes is one character: one piece, so that no
    /// deletion leaves half of it (strict JSON parsers refuse a lone surrogate). A lone
    /// one, or two highs in a row, are pieces of their own.
    #[test]
    fn a_surrogate_pair_of_escapes_is_one_piece() {
        let text = "f('x\\ud83d\\ude00y\\ud83d\\ud83dz\\udc00');\n";
        let pieces = [vec![
            "x",
            "\\ud83d\\ude00",
            "y",
            "\\ud83d",
            "\\ud83d",
            "z",
            "\\udc00",
        ]];
        assert_eq!(string_pieces(text, Grain::Characters), pieces);
    }

    #[test]
    fn module_names_directives_and_octal_escapes_do_not_shrink() {
        let text = "'use strict';\nimport a from 'left pad';\nconst b = require('x y');\n\
                    g('\\0 1', 'keep me');\n";
        assert_eq!(string_pieces(text, Grain::Words), [vec!["keep", " ", "me"]]);
    }
}
