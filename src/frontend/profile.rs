//! Tree-sitter front ends driven by a grammar profile (`grammars/<language>.toml`): the
//! profile says which node kinds hold lists and what separates their items, which fields
//! are optional, and what a node may be replaced with; this module interprets it for any
//! tree-sitter language. It describes edits and never decides which to try. Trees are built
//! and searched with explicit stacks, so nesting depth is bounded only by tree-sitter.

use std::borrow::Cow;
use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::ops::Range;
use std::sync::Arc;

use serde::Deserialize;
use tree_sitter::{Language, Node as TsNode, Parser, TreeCursor};

use super::SyntaxError;
use crate::tree::{Along, Edit, Label, Line, Node, NodeId, NodeKind, Separator, Tree};

/// Where tree-sitter's parse of a text goes wrong.
#[derive(Debug, Clone)]
pub struct Misread {
    /// How many ERROR and MISSING nodes the parse holds.
    pub errors: usize,
    /// How many bytes its outermost ERROR nodes cover.
    pub bytes: usize,
    /// The first of them.
    pub first: SyntaxError,
}

impl Misread {
    /// What the user is told about it: `LINE:COLUMN: ...` for a text in `language`.
    pub fn note(&self, language: &str) -> String {
        let more = match self.errors {
            1 => String::new(),
            2 => String::from(" and in 1 more place"),
            n => format!(" and in {} more places", n - 1),
        };
        format!(
            "{}:{}: tree-sitter's {language} grammar cannot read this ({}){more}; reducing anyway, and no candidate may have more such places",
            self.first.line, self.first.column, self.first.message
        )
    }

    /// How many ERROR and MISSING nodes a candidate's parse may hold when its original is
    /// `misread` (none when the original is read in full).
    pub fn allowed(misread: Option<&Misread>) -> usize {
        misread.map_or(0, |m| m.errors)
    }

    /// Where `text` is misread, when tree-sitter's ERROR nodes cover at most half of it:
    /// beyond that, the text is likely in another language, and better refused.
    pub fn tolerable(grammar: &Grammar, text: &str) -> Option<Misread> {
        grammar.misread(text).filter(|m| m.bytes <= text.len() / 2)
    }
}

/// A text's tree-sitter tree, known by the hash of the text: a valid text's, or one with
/// no more ERROR and MISSING nodes than its caller tolerates (see [`Grammar::tree_within`]).
struct Parsed {
    language: &'static str,
    key: u128,
    tree: tree_sitter::Tree,
    /// How many ERROR and MISSING nodes the tree holds (see [`errors`]).
    errors: usize,
    /// Byte offset of the start of every line of the text, made when the text is first
    /// used as a base.
    lines: Option<Vec<usize>>,
    /// Deletion spans of the tree built from the text (see [`Grammar::build`]) whose
    /// removal keeps it parsing, as far as [`Grammar::deletions_stay_valid`] goes on.
    cheap: BTreeSet<(usize, usize)>,
}

impl Parsed {
    fn key(text: &str) -> u128 {
        xxhash_rust::xxh3::xxh3_128(text.as_bytes())
    }

    fn lines(&mut self, text: &str) -> &[usize] {
        self.lines.get_or_insert_with(|| {
            std::iter::once(0)
                .chain(text.match_indices('\n').map(|(at, _)| at + 1))
                .collect()
        })
    }
}

/// How many recent valid trees a thread keeps. The text accepted next is nearly always
/// among the last few candidates found valid (one per speculative job), and its tree then
/// need not be parsed again for the next pass.
const RECENT_TREES: usize = 16;

/// The recent valid trees of this thread, the one used last at the back. A pass's base is
/// looked up for every candidate, so it stays however many candidates it makes.
#[derive(Default)]
struct Recent(VecDeque<Parsed>);

impl Recent {
    fn find(&mut self, language: &'static str, key: u128) -> Option<&mut Parsed> {
        let at = self
            .0
            .iter()
            .rposition(|p| p.key == key && p.language == language)?;
        let found = self.0.remove(at)?;
        self.0.push_back(found);
        self.0.back_mut()
    }

    /// The tree of `key` with at most `allowed` errors.
    fn find_within(
        &mut self,
        language: &'static str,
        key: u128,
        allowed: usize,
    ) -> Option<&mut Parsed> {
        self.find(language, key).filter(|p| p.errors <= allowed)
    }

    fn insert(
        &mut self,
        language: &'static str,
        key: u128,
        tree: tree_sitter::Tree,
        errors: usize,
    ) {
        if self.find(language, key).is_some() {
            return;
        }
        if self.0.len() == RECENT_TREES {
            self.0.pop_front();
        }
        self.0.push_back(Parsed {
            language,
            key,
            tree,
            errors,
            lines: None,
            cheap: BTreeSet::new(),
        });
    }
}

/// True when the deleted text held a line break and the spaces around `at` in `text`
/// (where it was) hold none: the break may have ended a statement (a block comment with a
/// line break stands for a `;` in `var a /*` newline `*/ b`), so the join must be parsed.
fn breaks_no_more(deleted: &str, text: &str, at: usize) -> bool {
    let is_break = |c: char| matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}');
    if !deleted.contains(is_break) {
        return false;
    }
    let (head, tail) = text.split_at(at);
    // At either end of the text, nothing is joined.
    if head.trim_start().is_empty() || tail.trim_end().is_empty() {
        return false;
    }
    let before = head.chars().rev().take_while(|c| c.is_whitespace());
    let after = tail.chars().take_while(|c| c.is_whitespace());
    !before.chain(after).any(is_break)
}

/// More edits than this are merged into as many, over the shortest gaps: every edit copies
/// the path of the tree it touches, and re-parsing a short gap costs less than hundreds of
/// copies.
const MAX_TREE_EDITS: usize = 8;

/// `splices` (disjoint, ascending) merged into at most `max` by absorbing the shortest
/// gaps between neighbours into the replacement text.
fn coalesce<'a>(
    base: &'a str,
    splices: Vec<(Range<usize>, &'a str)>,
    max: usize,
) -> Vec<(Range<usize>, std::borrow::Cow<'a, str>)> {
    use std::borrow::Cow;
    if splices.len() <= max {
        return splices
            .into_iter()
            .map(|(span, text)| (span, Cow::Borrowed(text)))
            .collect();
    }
    // Keep the `max - 1` widest gaps as separators.
    let mut gaps: Vec<usize> = (1..splices.len()).collect();
    gaps.sort_by_key(|&i| std::cmp::Reverse(splices[i].0.start - splices[i - 1].0.end));
    let mut cuts: Vec<usize> = gaps.into_iter().take(max - 1).collect();
    cuts.sort_unstable();
    let mut out = Vec::with_capacity(max);
    let mut first = 0;
    for end in cuts.into_iter().chain(std::iter::once(splices.len())) {
        let group = &splices[first..end];
        let (Some(head), Some(tail)) = (group.first(), group.last()) else {
            continue;
        };
        let mut text = String::new();
        for (k, (span, new)) in group.iter().enumerate() {
            if k > 0 {
                text.push_str(&base[group[k - 1].0.end..span.start]);
            }
            text.push_str(new);
        }
        out.push((head.0.start..tail.0.end, Cow::Owned(text)));
        first = end;
    }
    out
}

thread_local! {
    /// Valid trees recently parsed on this thread (the driver parses and judges on one
    /// thread): bases for incremental re-parses, and texts that need no parse again.
    static RECENT: RefCell<Recent> = RefCell::new(Recent::default());
}

/// The profile as written in TOML. `grammars/README.md` documents every field.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileFile {
    language: String,
    #[serde(default = "default_max_alternatives")]
    max_alternatives: usize,
    #[serde(default)]
    comments: Vec<String>,
    #[serde(default)]
    texts: Vec<String>,
    #[serde(default)]
    joins: Joins,
    #[serde(default)]
    lists: BTreeMap<String, ListFile>,
    #[serde(default)]
    optional: Vec<OptionalFile>,
    #[serde(default)]
    categories: BTreeMap<String, CategoryFile>,
    #[serde(default)]
    replace: Vec<ReplaceFile>,
    #[serde(default)]
    scoped: Vec<ScopedFile>,
    results: Option<ResultsFile>,
    inline: Option<InlineFile>,
    #[serde(default)]
    opaque: Vec<OpaqueFile>,
}

/// Nodes tree-sitter reads otherwise than the language's own parsers do, left whole (see
/// grammars/README.md).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OpaqueFile {
    kinds: Vec<String>,
    at: Vec<String>,
}

/// Declarations whose one use may take their value instead (see grammars/README.md).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct InlineFile {
    declarations: Vec<String>,
    declarator: String,
    name: String,
    value: String,
    reference: String,
    bare: Vec<String>,
    /// How a value may begin that would make a statement of another kind (`{`,
    /// `function`): such a value moved to a statement of its own goes in parentheses.
    #[serde(default)]
    ambiguous_starts: Vec<String>,
}

/// Where a function's result goes, for `unless_result_used` (see grammars/README.md).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultsFile {
    functions: Vec<String>,
    declared: String,
    callee: String,
    statement: String,
    #[serde(default)]
    through: Vec<String>,
    #[serde(default)]
    dropped: Vec<String>,
    #[serde(default)]
    named: Vec<NamedFile>,
    #[serde(default)]
    members: Vec<String>,
    property: Option<String>,
    #[serde(default)]
    implicit: Vec<String>,
    #[serde(default)]
    accessors: Vec<String>,
    #[serde(default)]
    hoist_takes_calls: bool,
}

/// A position that names the function standing there (`variable_declarator.value`, named
/// by the declarator's `name`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NamedFile {
    value: String,
    name: String,
}

/// [`ResultsFile`], checked against the grammar: kind names, and positions as (kind,
/// field).
#[derive(Debug, Default)]
struct Results {
    functions: Vec<String>,
    declared: (String, String),
    callee: (String, String),
    statement: String,
    through: Vec<String>,
    /// Positions (kind, field) where a function's value goes to no one in the text (a
    /// module's default export: its importers are elsewhere, as a script's callers of
    /// `module.exports` are).
    dropped: Vec<(String, String)>,
    /// Positions (kind, field) that name the function standing there, and the field of
    /// that kind that holds the name.
    named: Vec<((String, String), String)>,
    /// Functions named by a field of their own (`method_definition.name`): they give
    /// their result to no one while that name is written only there and as the callee of
    /// calls that are statements.
    members: Vec<(String, String)>,
    /// Where a callee's last word is (`member_expression.property`: `m` of `o.m()`).
    property: Option<(String, String)>,
    /// Names the language calls by itself (`constructor`, `toString`, `then`): a function
    /// named so gives its result to someone however its name is written.
    implicit: Vec<String>,
    /// Tokens that make a member an accessor (`get`, `set`), whose result a property read
    /// takes.
    accessors: Vec<String>,
    /// A declared function whose name is written only there and as the callee of calls
    /// that are whole statements (`f();`), when a statement of its own takes its place (its
    /// body), takes those calls with it: what ran where it was called now runs where it
    /// was declared.
    hoist_takes_calls: bool,
}

fn default_max_alternatives() -> usize {
    6
}

fn one() -> usize {
    1
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListFile {
    separator: Option<String>,
    terminator: Option<String>,
    field: Option<String>,
    #[serde(default)]
    unfielded: bool,
    #[serde(default)]
    spaced: bool,
    #[serde(default)]
    min_items: usize,
    #[serde(default)]
    nonempty_after: Vec<String>,
    #[serde(default)]
    exact: bool,
    #[serde(default)]
    stays_valid: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionalFile {
    kind: String,
    field: Option<String>,
    child: Option<String>,
    prefix: Option<String>,
    requires: Option<String>,
    #[serde(default)]
    unless_parent_has: Vec<String>,
    #[serde(default)]
    unless_sibling: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AvoidFile {
    at: Vec<String>,
    kinds: Vec<String>,
    #[serde(default)]
    leading: bool,
    #[serde(default)]
    when_parent_has: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CategoryFile {
    #[serde(default)]
    kinds: Vec<String>,
    #[serde(default)]
    supertypes: Vec<String>,
    #[serde(default)]
    hoist: bool,
    #[serde(default)]
    through: Vec<String>,
    #[serde(default = "one")]
    through_max: usize,
    #[serde(default)]
    stop: Vec<String>,
    #[serde(default)]
    exclude: Vec<String>,
    #[serde(default)]
    no_hoist: Vec<String>,
    #[serde(default)]
    tight: Vec<String>,
    #[serde(default)]
    loose_at: Vec<String>,
    #[serde(default)]
    loose_unless: Vec<String>,
    #[serde(default)]
    loose_unless_has: Vec<String>,
    #[serde(default)]
    list_only: Vec<String>,
    #[serde(default)]
    fixed: Vec<String>,
    #[serde(default)]
    not_from: Vec<String>,
    placeholder: Option<String>,
    #[serde(default)]
    no_placeholder: Vec<String>,
    #[serde(default)]
    avoid: Vec<AvoidFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReplaceFile {
    kind: String,
    with: Vec<String>,
    in_list: Option<bool>,
    stands_at: Option<String>,
    unless_used: Option<String>,
    #[serde(default)]
    unless_result_used: bool,
    #[serde(default)]
    when_bare: Vec<String>,
    #[serde(default)]
    bare: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScopedFile {
    kinds: Vec<String>,
    within: Vec<String>,
    /// With `barriers`: any enclosure of the group will do, not only the one the kind
    /// stands in (a `return` may move from an inner function to an outer one).
    #[serde(default)]
    any_enclosure: bool,
    /// Kinds between an enclosure and the kind that it does not reach through (a `return`
    /// in a class's static block is not its function's).
    #[serde(default)]
    barriers: Vec<String>,
    /// With `any_enclosure`: only into a function whose result may go to no one, one
    /// that is named (by its declaration, as a member or where it stands) or whose result
    /// goes to no one now (see [`Uses::result_unused`]). Elsewhere (a function passed as
    /// an argument) what moved in would stay for good.
    #[serde(default)]
    unless_result_used: bool,
}

/// How the items of a list go when deleted.
#[derive(Debug)]
struct List {
    /// Items are separated by this token; a deleted item takes one separator with it.
    separator: Option<String>,
    /// Items may end with this token (outside the item node); it goes with the item.
    terminator: Option<String>,
    /// Only children in this field are items.
    field: Option<String>,
    /// Only children in no field are items (a JSX element's, between its tags).
    unfielded: bool,
    /// Items stand apart by whitespace alone, after something that stays (a tag's
    /// attributes after its name): an item on a line with others takes the blanks before it.
    spaced: bool,
    /// Lists this short offer no deletion.
    min_items: usize,
    /// The list keeps one item when a sibling before it is of one of these kinds
    /// (`import(x)`: tree-sitter takes `import()`, engines do not).
    nonempty_after: Vec<String>,
    /// Delete exactly the item's bytes (template parts): whitespace there is content.
    exact: bool,
    /// Any set of items may go without breaking the parse, but for what [`Joins`] says.
    stays_valid: bool,
}

/// What may go wrong where text is joined over deleted items and comments of lists that
/// otherwise stay valid (see [`Grammar::deletions_stay_valid`]); the profile's `[joins]`
/// as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Joins {
    /// Characters that never join the token next to them into one (brackets, say); with
    /// spaces, what may stand on one side of a deletion.
    #[serde(default)]
    apart: String,
    /// Tokens that may continue the item before a deletion when they begin the text after
    /// it (a JavaScript statement without its `;` goes on with `(`).
    #[serde(default)]
    continued_by: Vec<String>,
    /// Where a line comment begins; it ends at the line break.
    line_comment: Option<String>,
    /// How a block comment begins and ends.
    block_comment: Option<(String, String)>,
}

impl Joins {
    /// True when a deletion at `at` makes two tokens of `text` touch: neither the
    /// character before nor the one after it is a space or one of the `apart` ones.
    fn touching(&self, text: &str, at: usize) -> bool {
        let apart = |c: char| c.is_whitespace() || self.apart.contains(c);
        match (text[..at].chars().next_back(), text[at..].chars().next()) {
            (Some(before), Some(after)) => !apart(before) && !apart(after),
            _ => false,
        }
    }

    /// The deletion of `node` without the comments after it on its line that its deletion
    /// span `delete` takes along, when it takes any.
    fn without_comments_after(
        &self,
        text: &str,
        node: TsNode,
        delete: &Range<usize>,
    ) -> Option<Range<usize>> {
        let tail = text.get(node.end_byte()..delete.end)?;
        let starts = self
            .line_comment
            .iter()
            .chain(self.block_comment.iter().map(|(start, _)| start));
        let comment = starts.filter_map(|start| tail.find(start.as_str())).min()?;
        let end = node.end_byte() + tail[..comment].trim_end().len();
        Some(item_span(text, node.start_byte(), end))
    }

    /// True when the profile says how comments look, so that a deletion can be told from
    /// the comment that may follow it.
    fn knows_comments(&self) -> bool {
        self.line_comment.is_some() || self.block_comment.is_some()
    }

    /// True when the text from `at` on, past spaces and comments, begins with one of the
    /// tokens that may continue what stands before `at` (also when a comment never ends).
    fn continued(&self, text: &str, at: usize) -> bool {
        let mut rest = &text[at..];
        loop {
            rest = rest.trim_start();
            if let Some(start) = self.line_comment.as_deref()
                && let Some(after) = rest.strip_prefix(start)
            {
                rest = after.find('\n').map_or("", |end| &after[end..]);
                continue;
            }
            if let Some((start, end)) = &self.block_comment
                && let Some(after) = rest.strip_prefix(start.as_str())
            {
                match after.find(end.as_str()) {
                    Some(at) => rest = &after[at + end.len()..],
                    None => return true,
                }
                continue;
            }
            break;
        }
        self.continued_by
            .iter()
            .any(|t| rest.starts_with(t.as_str()))
    }
}

/// A child that may be dropped, with what goes before it.
#[derive(Debug)]
struct Optional {
    field: Option<String>,
    child: Option<String>,
    prefix: Option<String>,
    requires: Option<String>,
    /// Not when the parent holds one of these tokens (`const x` needs its initializer).
    unless_parent_has: Vec<String>,
    /// Not when the node has a child of one of these kinds (`var [a]` needs one too).
    unless_sibling: Vec<String>,
}

/// How the children of a node go.
struct ChildDeletes {
    /// The deletion span of each child (by index).
    deletes: Vec<Option<Range<usize>>>,
    /// Whether each child is a list item.
    in_list: Vec<bool>,
    /// Whether any set of the items may go without breaking the parse (see
    /// [`List::stays_valid`]).
    stays_valid: bool,
    /// The separators of the list's last item, with its child index (see
    /// [`tail_separators`]).
    tail: Option<(usize, Arc<[Separator]>)>,
}

/// A piece of a replacement template.
#[derive(Debug, Clone)]
enum Segment {
    Text(String),
    Field(String),
    /// `${kind.field}`: that field of the node's only named child of that kind.
    ChildField(String, String),
    Inner,
}

#[derive(Debug)]
struct Replace {
    templates: Vec<Vec<Segment>>,
    in_list: Option<bool>,
    /// Where the new text stands (`expression_statement`): the categories' `avoid` rules
    /// for that position apply to the node the text begins with.
    stands_at: Option<Position>,
    /// Not while the words of this child (a declared name) occur elsewhere in the text.
    unless_used: Option<Segment>,
    /// Only inside a function whose result is dropped (see [`Uses::result_unused`]).
    unless_result_used: bool,
    /// Only while each of these fields, where present, holds nothing: its text, spaces
    /// taken out, is one of `bare` (an `if`'s branches `{}` or `;`, an `else {}`).
    when_bare: Vec<String>,
    bare: Vec<String>,
    /// The characters of the longest `bare` text: a child's text is read no further.
    bare_longest: usize,
}

/// A position is a parent kind and, optionally, the field the child is in.
type Position = (String, Option<String>);

#[derive(Debug)]
struct Category {
    hoist: bool,
    /// Some kinds are `tight`: a `no_hoist` node may give way to them.
    tight: bool,
    /// Positions where a `no_hoist` node gives way to any descendant the avoid rules let
    /// stand there but those of `loose_unless` kinds (parentheses that are a statement, a
    /// value or an argument: `(a - b);`) or that have one of the `loose_unless_has`
    /// tokens (`(a in b)`, which a `for` head's initializer needs in parentheses).
    loose_at: BTreeSet<Position>,
    loose_unless: Vec<String>,
    loose_unless_has: Vec<String>,
    through_max: usize,
    fixed: BTreeSet<Position>,
    /// Positions whose nodes are never offered to replace an ancestor (JSON's member
    /// names: strings, but `{"a": 1}` as `"a"` is no reduction anyone wants).
    not_from: BTreeSet<Position>,
    placeholder: Option<String>,
    no_placeholder: BTreeSet<Position>,
    avoid: Vec<Avoid>,
}

/// Candidate kinds that may not go to some positions; `leading`: nor begin what is there.
#[derive(Debug)]
struct Avoid {
    bit: u32,
    at: BTreeSet<Position>,
    leading: bool,
    /// Only where the node's parent holds one of these tokens (`delete x` is an early error
    /// in strict code, `delete x.y` is not).
    when_parent_has: Vec<String>,
}

/// Everything the profile says about one node kind; one bit per category or scope group.
#[derive(Debug, Default, Clone)]
struct KindInfo {
    /// The kind's name, as the label of its nodes (made once, shared by all of them).
    label: Option<Label>,
    comment: bool,
    /// A node of the tree even when it offers no edit, so that the front end may shrink
    /// its text (see [`super::Frontend::units`]).
    text: bool,
    list: Option<usize>,
    optional: Vec<usize>,
    replace: Vec<usize>,
    member: u32,
    through: u32,
    stop: u32,
    exclude: u32,
    no_hoist: u32,
    tight: u32,
    list_only: u32,
    /// `avoid` entries (numbered across categories) that name this kind.
    avoid: u32,
    /// Scope groups this kind must not leave.
    scoped: u32,
    /// Scope groups this kind encloses.
    within: u32,
    /// Scope groups (of those with `any_enclosure`) whose enclosure this kind cuts off.
    barrier: u32,
    /// `[[opaque]]` entries (numbered) that name this kind.
    opaque: u32,
}

/// A tree-sitter language with its compiled profile.
pub struct Grammar {
    name: &'static str,
    language: Language,
    max_alternatives: usize,
    /// Indexed by tree-sitter kind id.
    kinds: Vec<KindInfo>,
    lists: Vec<List>,
    joins: Joins,
    optional: Vec<Optional>,
    replace: Vec<Replace>,
    categories: Vec<Category>,
    /// Scope groups of which any enclosure will do (see [`ScopedFile`]).
    any_enclosure: u32,
    /// Of those, the groups that move only into a function whose result may go unused.
    unless_result_used: u32,
    /// The positions of each `[[opaque]]` entry.
    opaque: Vec<BTreeSet<Position>>,
    results: Results,
    inline: Option<InlineFile>,
    /// Rewrites a text, keeping every byte offset, into what the grammar reads as the
    /// language reads it (see [`Grammar::reading`]).
    reading: Option<Reading>,
    /// A second reading, of a text as tree-sitter parsed it (see [`Grammar::rereading`]).
    rereading: Option<Rereading>,
}

/// A same-length rewrite of a text for a grammar that lacks a corner of its language.
pub type Reading = fn(&str) -> Cow<'_, str>;

/// `text` with `write` applied to a copy of its bytes: the rewrite of a reading, which puts
/// ASCII bytes in place of whole characters only, so that the text stays UTF-8 (should it
/// not, `text` is given back as it was).
pub fn rewrite_bytes(text: &str, write: impl FnOnce(&mut [u8])) -> String {
    let mut bytes = text.as_bytes().to_vec();
    write(&mut bytes);
    String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())
}

/// Given a text as it was parsed and its tree, the text to parse instead, when the tree
/// shows that tree-sitter misread it in a way a rewrite of the same length mends; `None`
/// when it read it well.
pub type Rereading = fn(&str, &tree_sitter::Tree) -> Option<String>;

impl std::fmt::Debug for Grammar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Grammar({})", self.name)
    }
}

/// Resolves the names a profile uses to tree-sitter ids, with errors naming the profile.
struct Names<'a> {
    language: &'a Language,
    file: &'a str,
    kinds: BTreeMap<String, Vec<u16>>,
}

impl<'a> Names<'a> {
    fn new(language: &'a Language, file: &'a str) -> Self {
        let mut kinds: BTreeMap<String, Vec<u16>> = BTreeMap::new();
        let count = u16::try_from(language.node_kind_count()).unwrap_or(u16::MAX);
        for id in 0..count {
            if language.node_kind_is_named(id)
                && let Some(name) = language.node_kind_for_id(id)
            {
                kinds.entry(name.to_string()).or_default().push(id);
            }
        }
        Names {
            language,
            file,
            kinds,
        }
    }

    fn kind(&self, name: &str) -> Result<Vec<u16>, String> {
        self.kinds.get(name).cloned().ok_or_else(|| {
            format!(
                "{}: unknown node kind `{name}`; see the grammar's node-types.json",
                self.file
            )
        })
    }

    fn field(&self, name: &str) -> Result<String, String> {
        match self.language.field_id_for_name(name) {
            Some(_) => Ok(name.to_string()),
            None => Err(format!("{}: unknown field `{name}`", self.file)),
        }
    }

    /// What `${name}` in a template stands for: `inner`, a field or `kind.field`.
    fn segment(&self, name: &str) -> Result<Segment, String> {
        if name == "inner" {
            return Ok(Segment::Inner);
        }
        match name.split_once('.') {
            Some((kind, field)) => {
                self.kind(kind)?;
                Ok(Segment::ChildField(kind.into(), self.field(field)?))
            }
            None => Ok(Segment::Field(self.field(name)?)),
        }
    }

    /// `kind` or `kind.field`.
    fn position(&self, text: &str) -> Result<Position, String> {
        let (kind, field) = match text.split_once('.') {
            Some((k, f)) => (k, Some(self.field(f)?)),
            None => (text, None),
        };
        self.kind(kind)?;
        Ok((kind.to_string(), field))
    }

    /// The concrete kinds under a supertype, expanding nested supertypes.
    fn supertype(&self, name: &str) -> Result<Vec<u16>, String> {
        let supers = self.language.supertypes();
        let start: Vec<u16> = supers
            .iter()
            .copied()
            .filter(|&id| self.language.node_kind_for_id(id) == Some(name))
            .collect();
        if start.is_empty() {
            return Err(format!("{}: unknown supertype `{name}`", self.file));
        }
        let mut out = Vec::new();
        let mut work = start;
        let mut seen = BTreeSet::new();
        while let Some(id) = work.pop() {
            if !seen.insert(id) {
                continue;
            }
            if supers.contains(&id) {
                work.extend_from_slice(self.language.subtypes_for_supertype(id));
            } else if let Some(name) = self.language.node_kind_for_id(id) {
                // A subtype id may be one alias among several ids of the same name.
                out.extend(self.kind(name)?);
            }
        }
        Ok(out)
    }

    fn template(&self, text: &str) -> Result<Vec<Segment>, String> {
        let mut out = Vec::new();
        let mut rest = text;
        while let Some(at) = rest.find("${") {
            if at > 0 {
                out.push(Segment::Text(rest[..at].to_string()));
            }
            let Some(close) = rest[at..].find('}') else {
                return Err(format!("{}: unclosed `${{` in `{text}`", self.file));
            };
            let name = &rest[at + 2..at + close];
            out.push(self.segment(name)?);
            rest = &rest[at + close + 1..];
        }
        if !rest.is_empty() {
            out.push(Segment::Text(rest.to_string()));
        }
        Ok(out)
    }
}

impl Grammar {
    /// [`Grammar::load`] for a profile compiled into the binary, which a unit test loads:
    /// a failure is a defect of the build, never of the user's input, and panics.
    pub fn built_in(name: &'static str, language: Language, file: &str, source: &str) -> Grammar {
        match Self::load(name, language, file, source) {
            Ok(grammar) => grammar,
            Err(e) => panic!("{file} is not valid: {e}"),
        }
    }

    /// Compiles the profile `source` (named `file` in errors) for `language`. Every kind and
    /// field the profile names must exist in the grammar.
    pub fn load(
        name: &'static str,
        language: Language,
        file: &str,
        source: &str,
    ) -> Result<Grammar, String> {
        let profile: ProfileFile = toml::from_str(source).map_err(|e| format!("{file}: {e}"))?;
        if profile.language != name {
            return Err(format!(
                "{file}: profile is for `{}`, not `{name}`",
                profile.language
            ));
        }
        if profile.categories.len() > 32 || profile.scoped.len() > 32 {
            return Err(format!("{file}: at most 32 categories and 32 scope groups"));
        }
        let names = Names::new(&language, file);
        let mut kinds = vec![KindInfo::default(); language.node_kind_count()];
        for (id, info) in kinds.iter_mut().enumerate() {
            let name = u16::try_from(id)
                .ok()
                .and_then(|id| language.node_kind_for_id(id));
            info.label = name.map(|name| Label::from(name.to_string()));
        }
        let mut each = |name: &str, f: &mut dyn FnMut(&mut KindInfo)| -> Result<(), String> {
            for id in names.kind(name)? {
                f(&mut kinds[usize::from(id)]);
            }
            Ok(())
        };

        for name in &profile.comments {
            each(name, &mut |k| k.comment = true)?;
        }
        for name in &profile.texts {
            each(name, &mut |k| k.text = true)?;
        }
        let mut lists = Vec::new();
        for (kind, l) in &profile.lists {
            let index = lists.len();
            each(kind, &mut |k| k.list = Some(index))?;
            let field = l.field.as_deref().map(|f| names.field(f)).transpose()?;
            // Keywords such as `set` are anonymous kinds.
            for kind in &l.nonempty_after {
                if names.language.id_for_node_kind(kind, false) == 0 {
                    names.kind(kind)?;
                }
            }
            lists.push(List {
                separator: l.separator.clone(),
                terminator: l.terminator.clone(),
                field,
                unfielded: l.unfielded,
                spaced: l.spaced,
                min_items: l.min_items,
                nonempty_after: l.nonempty_after.clone(),
                exact: l.exact,
                stays_valid: l.stays_valid,
            });
            if l.unfielded && l.field.is_some() {
                return Err(format!(
                    "{file}: list `{kind}` takes its items from a field or from none, not both"
                ));
            }
            if l.stays_valid && (l.min_items > 0 || l.exact) {
                return Err(format!(
                    "{file}: list `{kind}` cannot stay valid: it keeps items or its bytes exactly"
                ));
            }
        }
        let mut optional = Vec::new();
        for o in &profile.optional {
            if o.field.is_some() == o.child.is_some() {
                return Err(format!(
                    "{file}: optional `{}` needs exactly one of `field` and `child`",
                    o.kind
                ));
            }
            let index = optional.len();
            each(&o.kind, &mut |k| k.optional.push(index))?;
            if let Some(child) = &o.child {
                names.kind(child)?;
            }
            for kind in &o.unless_sibling {
                names.kind(kind)?;
            }
            optional.push(Optional {
                field: o.field.as_deref().map(|f| names.field(f)).transpose()?,
                child: o.child.clone(),
                prefix: o.prefix.clone(),
                requires: o.requires.as_deref().map(|f| names.field(f)).transpose()?,
                unless_parent_has: o.unless_parent_has.clone(),
                unless_sibling: o.unless_sibling.clone(),
            });
        }
        let mut replace = Vec::new();
        for r in &profile.replace {
            let index = replace.len();
            each(&r.kind, &mut |k| k.replace.push(index))?;
            let templates = r
                .with
                .iter()
                .map(|t| names.template(t))
                .collect::<Result<Vec<_>, _>>()?;
            replace.push(Replace {
                templates,
                in_list: r.in_list,
                stands_at: r
                    .stands_at
                    .as_deref()
                    .map(|p| names.position(p))
                    .transpose()?,
                unless_used: r
                    .unless_used
                    .as_deref()
                    .map(|n| names.segment(n))
                    .transpose()?,
                unless_result_used: r.unless_result_used,
                when_bare: {
                    for f in &r.when_bare {
                        names.field(f)?;
                    }
                    r.when_bare.clone()
                },
                bare: r.bare.clone(),
                bare_longest: r.bare.iter().map(|b| b.chars().count()).max().unwrap_or(0),
            });
        }
        let mut categories = Vec::new();
        let mut avoid_bits = 0;
        for (bit, c) in profile.categories.values().enumerate() {
            let bit = 1u32 << bit;
            let mut members = Vec::new();
            for k in &c.kinds {
                members.extend(names.kind(k)?);
            }
            for s in &c.supertypes {
                members.extend(names.supertype(s)?);
            }
            for id in members {
                kinds[usize::from(id)].member |= bit;
            }
            let mut flag = |list: &Vec<String>, f: fn(&mut KindInfo, u32)| {
                for k in list {
                    for id in names.kind(k)? {
                        f(&mut kinds[usize::from(id)], bit);
                    }
                }
                Ok::<(), String>(())
            };
            flag(&c.through, |k, b| k.through |= b)?;
            flag(&c.stop, |k, b| k.stop |= b)?;
            flag(&c.exclude, |k, b| k.exclude |= b)?;
            flag(&c.no_hoist, |k, b| k.no_hoist |= b)?;
            flag(&c.tight, |k, b| k.tight |= b)?;
            flag(&c.list_only, |k, b| k.list_only |= b)?;
            let positions = |list: &Vec<String>| {
                list.iter()
                    .map(|p| names.position(p))
                    .collect::<Result<BTreeSet<_>, _>>()
            };
            let mut avoid = Vec::new();
            for a in &c.avoid {
                if avoid_bits == 32 {
                    return Err(format!("{file}: at most 32 `avoid` entries"));
                }
                let bit = 1u32 << avoid_bits;
                avoid_bits += 1;
                for k in &a.kinds {
                    for id in names.kind(k)? {
                        kinds[usize::from(id)].avoid |= bit;
                    }
                }
                avoid.push(Avoid {
                    bit,
                    at: positions(&a.at)?,
                    leading: a.leading,
                    when_parent_has: a.when_parent_has.clone(),
                });
            }
            categories.push(Category {
                hoist: c.hoist,
                tight: !c.tight.is_empty(),
                loose_at: positions(&c.loose_at)?,
                loose_unless: {
                    for k in &c.loose_unless {
                        names.kind(k)?;
                    }
                    c.loose_unless.clone()
                },
                loose_unless_has: c.loose_unless_has.clone(),
                through_max: c.through_max,
                fixed: positions(&c.fixed)?,
                not_from: positions(&c.not_from)?,
                placeholder: c.placeholder.clone(),
                no_placeholder: positions(&c.no_placeholder)?,
                avoid,
            });
        }
        let (mut any_enclosure, mut unless_result_used) = (0, 0);
        for (bit, s) in profile.scoped.iter().enumerate() {
            let bit = 1u32 << bit;
            for k in &s.kinds {
                for id in names.kind(k)? {
                    kinds[usize::from(id)].scoped |= bit;
                }
            }
            for k in &s.within {
                for id in names.kind(k)? {
                    kinds[usize::from(id)].within |= bit;
                }
            }
            if s.unless_result_used {
                unless_result_used |= bit;
            }
            if s.any_enclosure {
                any_enclosure |= bit;
                for k in &s.barriers {
                    for id in names.kind(k)? {
                        kinds[usize::from(id)].barrier |= bit;
                    }
                }
            }
        }
        if profile.opaque.len() > 32 {
            return Err(format!("{file}: at most 32 `opaque` entries"));
        }
        let mut opaque = Vec::new();
        for (bit, o) in profile.opaque.iter().enumerate() {
            for k in &o.kinds {
                for id in names.kind(k)? {
                    kinds[usize::from(id)].opaque |= 1 << bit;
                }
            }
            opaque.push(
                o.at.iter()
                    .map(|p| names.position(p))
                    .collect::<Result<BTreeSet<_>, _>>()?,
            );
        }
        let results = match &profile.results {
            None => Results::default(),
            Some(r) => {
                let kinds = |list: &[String]| -> Result<Vec<String>, String> {
                    list.iter()
                        .map(|k| names.kind(k).map(|_| k.clone()))
                        .collect()
                };
                let field = |text: &str| match names.position(text)? {
                    (kind, Some(field)) => Ok((kind, field)),
                    (kind, None) => Err(format!("{file}: `{kind}` needs a field (`kind.field`)")),
                };
                names.kind(&r.statement)?;
                Results {
                    functions: kinds(&r.functions)?,
                    declared: field(&r.declared)?,
                    callee: field(&r.callee)?,
                    statement: r.statement.clone(),
                    through: kinds(&r.through)?,
                    dropped: r
                        .dropped
                        .iter()
                        .map(|at| field(at))
                        .collect::<Result<_, String>>()?,
                    named: r
                        .named
                        .iter()
                        .map(|n| {
                            let at = field(&n.value)?;
                            field(&format!("{}.{}", at.0, n.name))?;
                            Ok((at, n.name.clone()))
                        })
                        .collect::<Result<_, String>>()?,
                    members: r
                        .members
                        .iter()
                        .map(|m| field(m))
                        .collect::<Result<_, String>>()?,
                    property: r.property.as_deref().map(field).transpose()?,
                    implicit: r.implicit.clone(),
                    accessors: r.accessors.clone(),
                    hoist_takes_calls: r.hoist_takes_calls,
                }
            }
        };
        let asks_results = profile.replace.iter().any(|r| r.unless_result_used)
            || profile.scoped.iter().any(|s| s.unless_result_used);
        if asks_results && profile.results.is_none() {
            return Err(format!(
                "{file}: `unless_result_used` needs a `[results]` table"
            ));
        }
        Ok(Grammar {
            name,
            language,
            max_alternatives: profile.max_alternatives,
            kinds,
            lists,
            joins: profile.joins,
            optional,
            replace,
            categories,
            any_enclosure,
            unless_result_used,
            opaque,
            results,
            inline: profile.inline,
            reading: None,
            rereading: None,
        })
    }

    fn info(&self, node: TsNode) -> &KindInfo {
        static NONE: KindInfo = KindInfo {
            label: None,
            comment: false,
            text: false,
            list: None,
            optional: Vec::new(),
            replace: Vec::new(),
            member: 0,
            through: 0,
            stop: 0,
            exclude: 0,
            no_hoist: 0,
            tight: 0,
            list_only: 0,
            avoid: 0,
            scoped: 0,
            within: 0,
            barrier: 0,
            opaque: 0,
        };
        self.kinds.get(usize::from(node.kind_id())).unwrap_or(&NONE)
    }

    /// True when `node` holds a list whose items need no separator and may go in any
    /// number: statements, in most grammars.
    fn holds_statements(&self, node: TsNode) -> bool {
        self.info(node)
            .list
            .and_then(|i| self.lists.get(i))
            .is_some_and(|list| list.separator.is_none() && !list.exact)
    }

    /// True when tree-sitter's reading of `child`, at `field` of `parent`, is one the
    /// language's own parsers never make there (see [`OpaqueFile`]): the node is left
    /// whole, with no node of the tree inside it and no hoist out of it.
    fn is_opaque(&self, parent: TsNode, field: Option<&str>, child: TsNode) -> bool {
        let bits = self.info(child).opaque;
        bits != 0
            && self.opaque.iter().enumerate().any(|(bit, at)| {
                bits & (1 << bit) != 0 && holds_position(at, (parent.kind(), field))
            })
    }

    /// The label of `node`'s kind, shared by all nodes of that kind.
    fn label(&self, node: TsNode) -> Label {
        self.info(node)
            .label
            .clone()
            .unwrap_or_else(|| Label::from(node.kind().to_string()))
    }

    /// Parses `text` with this thread's parser for the language.
    fn parse_ts(&self, text: &str) -> Option<tree_sitter::Tree> {
        self.parse_ts_from(text, None)
    }

    /// Parses `text`, reusing `old` (already told how `text` differs from its source).
    fn parse_ts_from(
        &self,
        text: &str,
        old: Option<&tree_sitter::Tree>,
    ) -> Option<tree_sitter::Tree> {
        thread_local! {
            // Parsers hold allocations worth reusing across the many candidates of a run.
            static PARSERS: RefCell<BTreeMap<&'static str, Parser>> =
                const { RefCell::new(BTreeMap::new()) };
        }
        PARSERS.with(|cell| {
            let mut parsers = cell.borrow_mut();
            if !parsers.contains_key(self.name) {
                let mut parser = Parser::new();
                parser.set_language(&self.language).ok()?;
                parsers.insert(self.name, parser);
            }
            let read = self.reading.map(|reading| reading(text));
            let read = read.as_deref().unwrap_or(text);
            let parser = parsers.get_mut(self.name)?;
            let tree = parser.parse(read, old)?;
            match self.rereading.and_then(|reread| reread(read, &tree)) {
                Some(again) => parser.parse(&again, None),
                None => Some(tree),
            }
        })
    }

    /// This grammar, with `reading` applied to every text before tree-sitter parses it:
    /// for a construct of the language the grammar does not know (tree-sitter-json has no
    /// `+` in an exponent), rewritten into one it does, byte for byte the same length so
    /// that every node's span is the original text's.
    pub fn reading(mut self, reading: Reading) -> Self {
        self.reading = Some(reading);
        self
    }

    /// This grammar, with `rereading` looking at every parse: where it finds tree-sitter
    /// misread the text, the text it gives (as long as the first) is parsed instead. Such
    /// a fix costs a second parse of only the texts it mends, where a reading applied
    /// before the parse would need to parse every text that may need it to tell.
    pub fn rereading(mut self, rereading: Rereading) -> Self {
        self.rereading = Some(rereading);
        self
    }

    /// The tree-sitter tree of `text` when it parses without ERROR or MISSING nodes (a
    /// recent one when `text` was checked or parsed on this thread lately).
    pub fn tree(&self, text: &str) -> Option<tree_sitter::Tree> {
        self.tree_within(text, 0)
    }

    /// The tree-sitter tree of `text` when it holds at most `allowed` ERROR and MISSING
    /// nodes. An original that tree-sitter misreads in a few places the language's own
    /// parsers read (`[(a.b)] = 1` in JavaScript) is reduced with its misread places
    /// tolerated: its candidates may keep as many, never more.
    pub fn tree_within(&self, text: &str, allowed: usize) -> Option<tree_sitter::Tree> {
        self.within(text, Parsed::key(text), allowed)
            .map(|(tree, _)| tree)
    }

    /// Where tree-sitter misreads `text`: `None` when its parse holds no ERROR or MISSING
    /// node (or the parser cannot be set up).
    pub fn misread(&self, text: &str) -> Option<Misread> {
        // Kept among the recent trees whatever it holds: the parse that follows, with the
        // errors it finds allowed, need not be made again.
        let (tree, errors) = self.tree_of(text, Parsed::key(text), usize::MAX)?;
        let root = tree.root_node();
        (errors > 0).then(|| Misread {
            errors,
            bytes: error_bytes(root),
            first: first_error(text, root),
        })
    }

    /// The tree of `text` (hashed to `key`) and its number of errors, when it has at most
    /// `allowed`.
    fn within(&self, text: &str, key: u128, allowed: usize) -> Option<(tree_sitter::Tree, usize)> {
        self.tree_of(text, key, allowed)
            .filter(|&(_, errors)| errors <= allowed)
    }

    /// The tree of `text` (hashed to `key`) and its number of errors: a recent one, else a
    /// fresh parse (kept when it has at most `allowed` errors). `None` only when the parser
    /// cannot be set up.
    fn tree_of(&self, text: &str, key: u128, allowed: usize) -> Option<(tree_sitter::Tree, usize)> {
        let known = RECENT.with(|cell| {
            cell.borrow_mut()
                .find(self.name, key)
                .map(|p| (p.tree.clone(), p.errors))
        });
        if known.is_some() {
            return known;
        }
        let tree = self.parse_ts(text)?;
        let errors = errors(tree.root_node());
        if errors <= allowed {
            RECENT.with(|cell| {
                cell.borrow_mut()
                    .insert(self.name, key, tree.clone(), errors);
            });
        }
        Some((tree, errors))
    }

    /// True when `candidate`, which is the valid `base` with `edits` applied, parses
    /// without ERROR or MISSING nodes, or with at most `allowed` of them and no more than
    /// `base` has (see [`Grammar::tree_within`]). Re-parses incrementally: the tree of
    /// `base` (one of the recent trees of this thread) is told about the edits, and
    /// tree-sitter re-reads only what they touched, which on a large file is many times
    /// faster than a parse from scratch and gives the same tree. A valid candidate's tree
    /// is kept: when it is accepted, the next pass need not parse it again.
    pub fn is_valid_edited(
        &self,
        base: &str,
        edits: &[&Edit],
        candidate: &str,
        allowed: usize,
    ) -> bool {
        let candidate_key = Parsed::key(candidate);
        let base_key = Parsed::key(base);
        // Once a misread place is gone, it may not come back as another.
        let allowed = RECENT
            .with(|cell| {
                let mut recent = cell.borrow_mut();
                recent
                    .find_within(self.name, base_key, allowed)
                    .map(|p| p.errors)
            })
            .unwrap_or(allowed);
        if RECENT.with(|cell| {
            let mut recent = cell.borrow_mut();
            recent
                .find_within(self.name, candidate_key, allowed)
                .is_some()
        }) {
            return true;
        }
        // tree-sitter visits every node an edit covers, so a candidate that keeps less
        // than it removes parses faster from scratch.
        let removed = base.len().saturating_sub(candidate.len());
        if removed > candidate.len() || self.within(base, base_key, allowed).is_none() {
            return self.within(candidate, candidate_key, allowed).is_some();
        }
        let old = RECENT.with(|cell| {
            let mut recent = cell.borrow_mut();
            let parsed = recent.find(self.name, base_key)?;
            let mut tree = parsed.tree.clone();
            let lines = parsed.lines(base);
            let point = |at: usize| {
                let row = lines.partition_point(|&start| start <= at) - 1;
                tree_sitter::Point::new(row, at - lines[row])
            };
            // From the last edit to the first, so that each edit's base offsets are still
            // offsets of the text being edited.
            for (span, text) in coalesce(base, crate::render::splices(base, edits), MAX_TREE_EDITS)
                .into_iter()
                .rev()
            {
                let start = point(span.start);
                let new_end = match text.rfind('\n') {
                    Some(last) => tree_sitter::Point::new(
                        start.row + text.matches('\n').count(),
                        text.len() - last - 1,
                    ),
                    None => tree_sitter::Point::new(start.row, start.column + text.len()),
                };
                tree.edit(&tree_sitter::InputEdit {
                    start_byte: span.start,
                    old_end_byte: span.end,
                    new_end_byte: span.start + text.len(),
                    start_position: start,
                    old_end_position: point(span.end),
                    new_end_position: new_end,
                });
            }
            Some(tree)
        });
        let parsed = match old {
            Some(old) => self.parse_ts_from(candidate, Some(&old)),
            None => self.parse_ts(candidate),
        };
        let Some(tree) = parsed else {
            return false;
        };
        let errors = errors(tree.root_node());
        if errors > allowed {
            return false;
        }
        RECENT.with(|cell| {
            cell.borrow_mut()
                .insert(self.name, candidate_key, tree, errors);
        });
        true
    }

    /// Judges `candidate`, which is the valid `base` with `edits` that delete nodes,
    /// without a parse when it can: `Some(true)` when every edit is the deletion of a
    /// comment or of an item of a list that stays valid (as the tree built from `base` on
    /// this thread offered them), no deletion makes two tokens touch or takes away the
    /// only line break between them, and no text after a deletion begins with a token that
    /// may continue the text before it; `None` otherwise.
    pub fn deletions_stay_valid(
        &self,
        base: &str,
        edits: &[&Edit],
        candidate: &str,
    ) -> Option<bool> {
        if edits.is_empty() || edits.iter().any(|e| !e.is_deletion()) {
            return None;
        }
        let base_key = Parsed::key(base);
        let offered = RECENT.with(|cell| {
            let mut recent = cell.borrow_mut();
            let parsed = recent.find(self.name, base_key)?;
            let all = edits
                .iter()
                .all(|e| parsed.cheap.contains(&(e.span.start, e.span.end)));
            Some(all)
        });
        if offered != Some(true) {
            return None;
        }
        // Where each deletion was, in the candidate.
        let mut removed = 0;
        for (span, text) in crate::render::splices(base, edits) {
            if !text.is_empty() {
                return None;
            }
            let at = span.start - removed;
            removed += span.len();
            if self.joins.touching(candidate, at)
                || self.joins.continued(candidate, at)
                || breaks_no_more(&base[span], candidate, at)
            {
                return None;
            }
        }
        Some(true)
    }

    /// [`Grammar::parse_to`] for `text`, which is the valid `base` with `edits`: the
    /// tree-sitter tree comes from an incremental re-parse of `base`'s when that is at hand.
    pub fn parse_edited_to(
        &self,
        base: &str,
        edits: &[&Edit],
        text: &str,
        limit: Option<u32>,
        allowed: usize,
    ) -> Result<Tree, SyntaxError> {
        // A valid text's tree joins the recent ones, where `parse_to` finds it.
        self.is_valid_edited(base, edits, text, allowed);
        self.parse_to(text, limit, allowed)
    }

    /// Parses `text` into a tree of the nodes the profile gives edits for; it may hold at
    /// most `allowed` ERROR and MISSING nodes (see [`Grammar::tree_within`]).
    pub fn parse(&self, text: &str, allowed: usize) -> Result<Tree, SyntaxError> {
        self.parse_to(text, None, allowed)
    }

    /// Parses `text` (all of it is checked) into a tree of the nodes the profile gives
    /// edits for, down to `limit` (every depth when `None`); the parse may hold at most
    /// `allowed` ERROR and MISSING nodes.
    pub fn parse_to(
        &self,
        text: &str,
        limit: Option<u32>,
        allowed: usize,
    ) -> Result<Tree, SyntaxError> {
        // The text is about to be the base of a pass; its tree stays among the recent ones
        // for the incremental checks of that pass's candidates.
        let text_key = Parsed::key(text);
        let Some((ts, errors)) = self.tree_of(text, text_key, allowed) else {
            return Err(SyntaxError {
                line: 1,
                column: 1,
                message: format!("the {} parser could not be set up", self.name),
            });
        };
        let root = ts.root_node();
        if errors > allowed {
            return Err(first_error(text, root));
        }
        let mut cheap = Vec::new();
        let tree = self.build(text, root, limit, &mut cheap);
        RECENT.with(|cell| {
            if let Some(parsed) = cell.borrow_mut().find(self.name, text_key) {
                parsed.cheap.extend(cheap);
            }
        });
        Ok(tree)
    }

    /// The tree of the nodes the profile gives edits for, down to `limit`. The deletion
    /// spans of comments and of the items of lists that stay valid go to `cheap`.
    fn build(
        &self,
        text: &str,
        root: TsNode,
        limit: Option<u32>,
        cheap: &mut Vec<(usize, usize)>,
    ) -> Tree {
        struct Pending<'t> {
            node: TsNode<'t>,
            parent: NodeId,
            delete: Option<Range<usize>>,
            in_list: bool,
            position: Option<(TsNode<'t>, Option<&'t str>)>,
            /// The positions (parent kind, field) this node begins, each once, its own last.
            leads: Vec<(&'t str, Option<&'t str>)>,
            /// For a separated list's last item (see [`Along::separators`]).
            separators: Option<Arc<[Separator]>>,
            /// For an item of a bracketed list (see [`Along::hollow`]).
            hollow: Option<Line>,
            /// The scope groups with `any_enclosure` whose enclosure holds this node.
            enclosed: u32,
            /// The nearest enclosure of the groups with `unless_result_used`.
            function: Option<TsNode<'t>>,
        }
        let mut tree = Tree::new(text.len());
        let known = Known {
            text,
            root,
            uses: OnceCell::new(),
            spines: RefCell::new(BTreeMap::new()),
        };
        // A tree built to a limit serves the deletion passes, which ask nothing of a
        // deletable node's rewrites: they are left out, and with them, mostly, the walk of
        // the whole text for the words it uses. A node that may not go keeps its rewrites,
        // which decide whether it stands in the tree at all (so the depths stay those of a
        // whole build) and which the smallest document takes (a placeholder).
        let rewrites_of_deletable = limit.is_none();
        if !rewrites_of_deletable {
            tree.leave_out_rewrites();
        }
        let mut truncated = false;
        // Where the lines end, for the lines nodes share (see `shared_line`).
        let breaks: Vec<usize> = text
            .bytes()
            .enumerate()
            .filter(|&(_, b)| b == b'\n')
            .map(|(at, _)| at)
            .collect();
        let line_of = |node: &Node| {
            node.delete
                .clone()
                .and_then(|d| shared_line(text, &breaks, d))
        };
        let mut cursor = root.walk();
        let mut stack = vec![Pending {
            node: root,
            parent: tree.root(),
            delete: None,
            in_list: false,
            position: None,
            leads: Vec::new(),
            separators: None,
            hollow: None,
            enclosed: 0,
            function: None,
        }];
        while let Some(p) = stack.pop() {
            let info = self.info(p.node);
            let parent = p.position.map(|(parent, _)| parent);
            let id = if p.position.is_none() {
                tree.root()
            } else if info.comment {
                let kind = (NodeKind::Comment, self.label(p.node));
                let mut node = leaf(text, kind, p.node, p.delete, Vec::new());
                node.along = Along {
                    line: line_of(&node),
                    hollow: p.hollow,
                    ..Along::default()
                }
                .shared();
                tree.push(p.parent, node);
                continue;
            } else {
                let alternatives = if p.delete.is_none() || rewrites_of_deletable {
                    let place = Place {
                        parent,
                        leads: &p.leads,
                        in_list: p.in_list,
                        enclosed: p.enclosed,
                        function: p.function,
                    };
                    self.alternatives(text, p.node, &place, &known)
                } else {
                    Vec::new()
                };
                if p.delete.is_none() && alternatives.is_empty() && !info.text {
                    p.parent
                } else {
                    let kind = (NodeKind::Element, self.label(p.node));
                    let mut node = leaf(text, kind, p.node, p.delete, alternatives);
                    node.along = Along {
                        separators: p.separators,
                        line: line_of(&node),
                        hollow: p.hollow.filter(|_| p.in_list),
                    }
                    .shared();
                    // A rewrite that takes the node away with its other edits (an
                    // inline) takes what its deletion takes.
                    for edits in &mut node.alternatives {
                        for edit in edits.iter_mut() {
                            if edit.is_deletion() && node.delete.as_ref() == Some(&edit.span) {
                                edit.along.clone_from(&node.along);
                            }
                        }
                    }
                    // An item of a list without separators goes with the comments after it
                    // on its line (`f(); // why`); it may also go alone, as a rewrite,
                    // which only a test that needs such a comment leaves to ask.
                    let unseparated = parent.is_some_and(|p| self.holds_statements(p));
                    if p.in_list
                        && unseparated
                        && rewrites_of_deletable
                        && let Some(alone) = node
                            .delete
                            .as_ref()
                            .and_then(|d| self.joins.without_comments_after(text, p.node, d))
                    {
                        node.alternatives.insert(0, vec![Edit::delete(alone)]);
                    }
                    tree.push(p.parent, node)
                }
            };
            if limit.is_some_and(|limit| tree.node(id).depth >= limit) {
                if p.node.named_child_count() > 0 {
                    truncated = true;
                }
                continue;
            }
            let children = children(p.node, &mut cursor);
            let enclosed = ((p.enclosed & !info.barrier) | info.within) & self.any_enclosure;
            let function = if info.within & self.unless_result_used != 0 {
                Some(p.node)
            } else {
                p.function
                    .filter(|_| info.barrier & self.unless_result_used == 0)
            };
            let ChildDeletes {
                deletes,
                in_list,
                stays_valid: items_stay_valid,
                tail,
            } = self.child_deletes(text, p.node, parent, &children);
            let hollow = info
                .list
                .and_then(|i| self.lists.get(i))
                .filter(|list| !list.exact)
                .and_then(|_| hollow(text, &children));
            for (i, (child, field)) in children.iter().enumerate().rev() {
                if !child.is_named() || self.is_opaque(p.node, *field, *child) {
                    continue;
                }
                let comment = self.info(*child).comment;
                let delete = if comment {
                    Some(item_span(text, child.start_byte(), child.end_byte()))
                } else {
                    deletes[i].clone()
                };
                if let Some(span) = &delete
                    && ((comment && self.joins.knows_comments())
                        || (items_stay_valid && in_list[i]))
                {
                    cheap.push((span.start, span.end));
                }
                let mut leads = if child.start_byte() == p.node.start_byte() {
                    p.leads.clone()
                } else {
                    Vec::new()
                };
                // Each position once (only whether the node begins one is asked, and which
                // is its own, the last): a chain `a + a + ...` 20 000 long begins the same
                // position at every level, and its copies and scans took seconds.
                let own = (p.node.kind(), *field);
                leads.retain(|&lead| lead != own);
                leads.push(own);
                let separators = tail
                    .as_ref()
                    .filter(|(last, _)| *last == i)
                    .map(|(_, s)| s.clone());
                stack.push(Pending {
                    node: *child,
                    parent: id,
                    delete,
                    in_list: in_list[i],
                    position: Some((p.node, *field)),
                    leads,
                    separators,
                    hollow: hollow.clone(),
                    enclosed,
                    function,
                });
            }
        }
        // Only the squeeze takes blank lines, on a whole tree: the deletion passes' trees,
        // built to a depth, are spared the scan (lodash: 0.15 ms per candidate).
        let blanks = if limit.is_none() {
            blank_lines(text, root)
        } else {
            Vec::new()
        };
        for span in blanks {
            tree.push(
                tree.root(),
                Node::new(
                    NodeKind::Whitespace,
                    "#blank-line".into(),
                    span.clone(),
                    Some(span),
                ),
            );
        }
        if let (true, Some(limit)) = (truncated, limit) {
            tree.set_limit(limit);
        }
        tree
    }

    /// How the children of a node go (see [`ChildDeletes`]).
    fn child_deletes(
        &self,
        text: &str,
        node: TsNode,
        parent: Option<TsNode>,
        children: &[(TsNode, Option<&str>)],
    ) -> ChildDeletes {
        let mut deletes = vec![None; children.len()];
        let mut in_list = vec![false; children.len()];
        let mut stays_valid = false;
        let mut tail = None;
        let info = self.info(node);
        if let Some(list) = info.list.and_then(|i| self.lists.get(i)) {
            let items: Vec<usize> = (0..children.len())
                .filter(|&i| {
                    let (c, field) = children[i];
                    c.is_named()
                        && !c.is_extra()
                        && list.field.as_deref().is_none_or(|f| Some(f) == field)
                        && !(list.unfielded && field.is_some())
                })
                .collect();
            for &i in &items {
                in_list[i] = true;
            }
            let n = items.len();
            let after_kept = !list.nonempty_after.is_empty()
                && parent.is_some_and(|p| {
                    let mut cursor = p.walk();
                    p.children(&mut cursor)
                        .take_while(|c| c.start_byte() < node.start_byte())
                        .any(|c| list.nonempty_after.iter().any(|k| k == c.kind()))
                });
            let min_items = if after_kept {
                list.min_items.max(1)
            } else {
                list.min_items
            };
            if n > min_items {
                for (k, &i) in items.iter().enumerate() {
                    deletes[i] = Some(item_delete(text, list, children, &items, k));
                }
                tail = tail_separators(text, list, children, &items, &deletes);
            }
            stays_valid = list.stays_valid && min_items == 0;
        }
        for rule in info.optional.iter().filter_map(|&i| self.optional.get(i)) {
            if let Some(req) = &rule.requires
                && !children.iter().any(|(_, f)| *f == Some(req.as_str()))
            {
                continue;
            }
            if let Some(parent) = parent
                && !rule.unless_parent_has.is_empty()
                && has_token(text, parent, &rule.unless_parent_has)
            {
                continue;
            }
            if children
                .iter()
                .any(|(c, _)| rule.unless_sibling.iter().any(|k| k == c.kind()))
            {
                continue;
            }
            let found = children
                .iter()
                .position(|(c, f)| match (&rule.field, &rule.child) {
                    (Some(field), _) => *f == Some(field.as_str()),
                    (None, Some(kind)) => c.kind() == kind,
                    (None, None) => false,
                });
            let Some(i) = found else { continue };
            if deletes[i].is_some() {
                continue;
            }
            // The child goes with everything back to the sibling before it (and the prefix
            // token, such as the `=` of an initializer).
            let mut j = i;
            let mut start = children[i].0.start_byte();
            while j > 0 {
                j -= 1;
                let prev = children[j].0;
                if prev.is_extra() {
                    continue;
                }
                if !prev.is_named()
                    && rule.prefix.as_deref() == Some(&text[prev.byte_range()])
                    && start == children[i].0.start_byte()
                {
                    start = prev.start_byte();
                    continue;
                }
                start = prev.end_byte();
                break;
            }
            deletes[i] = Some(start..children[i].0.end_byte());
        }
        ChildDeletes {
            deletes,
            in_list,
            stays_valid,
            tail,
        }
    }

    /// Replacement texts for `node`, shortest first, each strictly shorter than the node.
    fn alternatives(
        &self,
        text: &str,
        node: TsNode,
        place: &Place,
        known: &Known,
    ) -> Vec<Alternative> {
        let Place {
            parent,
            leads,
            in_list,
            enclosed,
            function,
        } = *place;
        let spines = &known.spines;
        let info = self.info(node);
        let own_text = &text[node.byte_range()];
        // The groups whose constructs may leave their enclosure for one around `node`,
        // asked only of a hoist that would carry one out.
        let relaxed = OnceCell::new();
        let relax = || {
            *relaxed.get_or_init(|| {
                let picky = enclosed & self.unless_result_used;
                let open = function.is_some_and(|f| self.may_go_unused(text, f, known));
                if picky != 0 && !open {
                    enclosed & !picky
                } else {
                    enclosed
                }
            })
        };
        let mut out: Vec<Alternative> = Vec::new();
        for rule in info.replace.iter().filter_map(|&i| self.replace.get(i)) {
            if rule.in_list.is_some_and(|want| want != in_list) {
                continue;
            }
            if let Some(used) = &rule.unless_used {
                match segment_node(node, used) {
                    Some(name) if !known.uses(&self.results).elsewhere(text, name) => {}
                    _ => continue,
                }
            }
            if rule.unless_result_used
                && !known
                    .uses(&self.results)
                    .result_unused(text, node, &self.results)
            {
                continue;
            }
            // Past the longest bare text, a child's text is not read any further: an `if`
            // around a whole library's body is asked on every parse.
            let bare = |field: &String| {
                node.child_by_field_name(field).is_none_or(|child| {
                    let compact: String = text[child.byte_range()]
                        .chars()
                        .filter(|c| !c.is_whitespace())
                        .take(rule.bare_longest + 1)
                        .collect();
                    rule.bare.contains(&compact)
                })
            };
            if !rule.when_bare.iter().all(bare) {
                continue;
            }
            for template in &rule.templates {
                if let Some(at) = &rule.stands_at
                    && let Some(first) = template.first()
                    && let Some(lead) = match first {
                        Segment::Inner => node.named_child(0),
                        other => segment_node(node, other),
                    }
                    && !self.may_stand_at(lead, at, spines)
                {
                    continue;
                }
                if let Some(t) = render_template(text, node, template) {
                    // A new statement beginning with `(`, `[`, `/`... after one that did not
                    // end with `;` would continue it (`g()` and `[1, 2];` are `g()[1, 2]`).
                    if rule.stands_at.is_some()
                        && self.joins.continued(t.text(text), 0)
                        && !ends_a_statement(text, node)
                    {
                        continue;
                    }
                    out.push(t);
                }
            }
        }
        let own = leads.last().copied().unwrap_or(("", None));
        let at = |set: &BTreeSet<Position>| holds_position(set, own);
        for (bit, category) in self.categories.iter().enumerate() {
            let bit = 1u32 << bit;
            if info.member & bit == 0 || at(&category.fixed) {
                continue;
            }
            // A `no_hoist` kind gives way only to a `tight` descendant, when there are any,
            // but where it stands `loose`.
            let loose = info.no_hoist & bit != 0 && at(&category.loose_at);
            let narrow = info.no_hoist & bit != 0 && !loose;
            if category.hoist && (!narrow || category.tight) {
                // Kinds that may not stand here (`direct`) or begin what stands here.
                let (mut direct, mut leading) = (0, 0);
                let applies = |a: &Avoid| {
                    a.when_parent_has.is_empty()
                        || parent.is_some_and(|p| has_token(text, p, &a.when_parent_has))
                };
                for a in &category.avoid {
                    if a.leading && leads.iter().any(|&p| holds_position(&a.at, p)) && applies(a) {
                        leading |= a.bit;
                    } else if at(&a.at) && applies(a) {
                        direct |= a.bit;
                    }
                }
                let fits = |c: TsNode| {
                    self.info(c).avoid & direct == 0
                        && (!narrow || self.info(c).tight & bit != 0)
                        && !(loose
                            && (category.loose_unless.iter().any(|k| k == c.kind())
                                || has_token(text, c, &category.loose_unless_has)))
                        && (leading == 0 || self.leading_avoid(c, spines) & leading == 0)
                };
                out.extend(
                    self.hoist(node, (bit, category), in_list, &relax, &fits)
                        .into_iter()
                        .map(|kept| Alternative::Keep(kept, Vec::new())),
                );
            }
            if let Some(p) = &category.placeholder
                && node.named_child_count() > 0
                && !at(&category.no_placeholder)
            {
                out.push(Alternative::Text(p.clone()));
            }
        }
        if let Some(calls) = out
            .iter()
            .any(|a| matches!(a, Alternative::Keep(..)))
            .then(|| self.calls_to_take(text, node, known))
            .flatten()
        {
            for alternative in &mut out {
                if let Alternative::Keep(_, also) = alternative {
                    also.clone_from(&calls);
                }
            }
        }
        // The shortest few, shorter than the node, each text once. A wide list offers one
        // hoist per item (a JSON array of 12 000 objects, 12 000), so the texts are sorted
        // by length first (stably: of equal ones the first offered stays) and compared
        // only with the few kept, not pairwise.
        out.retain(|a| a.text(text).len() < own_text.len());
        out.sort_by_key(|a| a.text(text).len());
        let mut kept: Vec<Alternative> = Vec::new();
        for alternative in out {
            if kept.len() == self.max_alternatives {
                break;
            }
            let t = alternative.text(text);
            if !kept.iter().any(|k| k.text(text) == t) {
                kept.push(alternative);
            }
        }
        kept.extend(self.inline_of(text, node, known));
        kept
    }

    /// For a declaration of one name whose value is written once more in the text, as a
    /// reference after it: the declaration goes and the reference takes the value (in
    /// parentheses unless it is `bare`). `var r = -Infinity; return r;` is `return
    /// -Infinity;`. The same for a declarator among others, and one of those whose name
    /// is written nowhere else gives its value a statement of its own (see
    /// [`Grammar::value_after`]). Whether the program still means the same is the test's
    /// to say.
    fn inline_of(&self, text: &str, node: TsNode, known: &Known) -> Option<Alternative> {
        let inline = self.inline.as_ref()?;
        let declaration = |n: TsNode| inline.declarations.iter().any(|k| k == n.kind());
        // A declaration of one name goes whole; a declarator among others goes alone, with
        // its comma (`var a = {}, b = f(a)` is `var b = f({})`), as minifiers write them.
        let declarator = if declaration(node) && node.named_child_count() == 1 {
            node.named_child(0)?
        } else if node.kind() == inline.declarator
            && node.parent().is_some_and(|list| {
                let mut cursor = list.walk();
                declaration(list)
                    && list
                        .named_children(&mut cursor)
                        .filter(|c| !c.is_extra())
                        .count()
                        > 1
            })
        {
            node
        } else {
            return None;
        };
        if declarator.kind() != inline.declarator {
            return None;
        }
        let name = declarator.child_by_field_name(&inline.name)?;
        let value = declarator.child_by_field_name(&inline.value)?;
        if name.kind() != inline.reference {
            return None;
        }
        let word = &text[name.byte_range()];
        let &(count, _, last) = known.uses(&self.results).words.get(word)?;
        if count == 1 && declarator == node {
            return self.value_after(text, node, value);
        }
        // The name is written twice: here, and as the reference if that comes later.
        if count != 2 {
            return None;
        }
        // The reference stands in what holds the declaration, after it: a use anywhere
        // else would find the variable declared elsewhere, or not yet.
        let scope = if declarator == node {
            node.parent()?.parent()?
        } else {
            node.parent()?
        };
        let reference = last..last + word.len();
        if last < node.end_byte() || reference.end > scope.end_byte() {
            return None;
        }
        let found = scope.named_descendant_for_byte_range(reference.start, reference.end)?;
        if found.kind() != inline.reference || found.byte_range() != reference {
            return None;
        }
        let value_text = &text[value.byte_range()];
        let with = if inline.bare.iter().any(|k| k == value.kind()) {
            value_text.to_string()
        } else {
            format!("({value_text})")
        };
        Some(Alternative::Inline(reference, with))
    }

    /// For a declarator among others whose name is written nowhere else, in a declaration
    /// that stands in a list of statements: the declarator goes, and its value stands as a
    /// statement of its own after the declaration (`var a = {}, b = f(a);` is `var a = {};
    /// f(a);`), in parentheses when it begins as a statement of another kind would.
    fn value_after(&self, text: &str, node: TsNode, value: TsNode) -> Option<Alternative> {
        let inline = self.inline.as_ref()?;
        let declaration = node.parent()?;
        if !self.holds_statements(declaration.parent()?) {
            return None;
        }
        let value_text = &text[value.byte_range()];
        // A start is one when what follows it in the value is another token (`function`
        // but not `functions`).
        let ambiguous = inline.ambiguous_starts.iter().any(|start| {
            value_text.strip_prefix(start.as_str()).is_some_and(|rest| {
                match (start.bytes().next_back(), rest.bytes().next()) {
                    (Some(last), Some(next)) => !crate::render::would_fuse(last, next),
                    _ => true,
                }
            })
        });
        let statement = if ambiguous {
            format!("({value_text});")
        } else {
            format!("{value_text};")
        };
        // The statement follows the declaration's `;`, written anew with it, or one put
        // in where the end of a line ended the declaration.
        let end = declaration.end_byte();
        let at = if text[..end].ends_with(';') {
            end - 1..end
        } else {
            end..end
        };
        Some(Alternative::Inline(at, format!(";{statement}")))
    }

    /// With `hoist_takes_calls`, for a declared `function`: the deletions of the calls to
    /// it that are whole statements (`f();`), when its name is written nowhere else, each
    /// call stands as an item of a list (so that the text around it stays whole), and none
    /// lies inside the function. `None` otherwise, or when there are no such calls.
    fn calls_to_take(
        &self,
        text: &str,
        function: TsNode,
        known: &Known,
    ) -> Option<Vec<Range<usize>>> {
        let results = &self.results;
        if !results.hoist_takes_calls || function.kind() != results.declared.0 {
            return None;
        }
        let name = function.child_by_field_name(&results.declared.1)?;
        let word = &text[name.byte_range()];
        let uses = known.uses(results);
        let calls = uses.calls.get(word)?;
        let &(count, loud, _) = uses.words.get(word)?;
        let span = function.byte_range();
        let in_list = |parent: &str| {
            let id = self.language.id_for_node_kind(parent, true);
            self.kinds
                .get(usize::from(id))
                .is_some_and(|info| info.list.is_some())
        };
        let apart = |call: &Range<usize>| call.end <= span.start || call.start >= span.end;
        let all = usize::try_from(count).is_ok_and(|n| n == calls.len() + 1);
        (!loud
            && all
            && calls
                .iter()
                .all(|(call, parent)| apart(call) && in_list(parent)))
        .then(|| {
            calls
                .iter()
                .map(|(call, _)| item_span(text, call.start, call.end))
                .collect()
        })
    }

    /// True when the result of `function` (of a kind in `[results]`) may go to no one:
    /// it is named, by its declaration, as a member or where it stands (its uses may go),
    /// or its result goes to no one now.
    fn may_go_unused(&self, text: &str, function: TsNode, known: &Known) -> bool {
        let results = &self.results;
        let kind = function.kind();
        if kind == results.declared.0 || results.members.iter().any(|(k, _)| k == kind) {
            return true;
        }
        let outer = results.outermost(function);
        let named = outer.parent().is_some_and(|p| {
            results
                .named
                .iter()
                .any(|(position, _)| stands_at(p, outer, position))
        });
        named
            || function
                .child(0)
                .is_some_and(|c| known.uses(results).result_unused(text, c, results))
    }

    /// Whether `node` may stand at `at` by the categories' `avoid` rules (their
    /// `when_parent_has` ones aside): its kind is not avoided there, nor with `leading`,
    /// the kind of any node it begins with.
    fn may_stand_at(
        &self,
        node: TsNode,
        at: &Position,
        spines: &RefCell<BTreeMap<usize, u32>>,
    ) -> bool {
        let (kind, field) = (at.0.as_str(), at.1.as_deref());
        self.categories.iter().flat_map(|c| &c.avoid).all(|a| {
            let here = holds_position(&a.at, (kind, field));
            if !here || !a.when_parent_has.is_empty() {
                return true;
            }
            if a.leading {
                self.leading_avoid(node, spines) & a.bit == 0
            } else {
                self.info(node).avoid & a.bit == 0
            }
        })
    }

    /// Pushes the named children of `node` that are no extras and not opaque onto a hoist
    /// search's `stack`, with the scope groups `mask` and whether each may be offered
    /// (not at a `not_from` position).
    fn push_named<'t>(
        &self,
        stack: &mut Vec<(TsNode<'t>, u32, bool)>,
        cursor: &mut TreeCursor<'t>,
        node: TsNode<'t>,
        mask: u32,
        not_from: &BTreeSet<Position>,
    ) {
        for (c, field) in children(node, cursor).into_iter().rev() {
            if c.is_named() && !c.is_extra() && !self.is_opaque(node, field, c) {
                let offered = !holds_position(not_from, (node.kind(), field));
                stack.push((c, mask, offered));
            }
        }
    }

    /// Spans of the nearest descendants of `node` in the same category that may replace it.
    /// A construct of a scope group with `any_enclosure` may leave its enclosure when
    /// `relax()`, the groups whose enclosure holds `node` (and takes it in), names the
    /// group.
    fn hoist<'t>(
        &self,
        node: TsNode<'t>,
        (bit, category): (u32, &Category),
        in_list: bool,
        relax: &dyn Fn() -> u32,
        fits: &dyn Fn(TsNode<'t>) -> bool,
    ) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        let mut cursor = node.walk();
        // (node, scope groups left on the way down from `node`, not at a `not_from` position)
        let mut stack: Vec<(TsNode<'t>, u32, bool)> = Vec::new();
        let crossed = self.info(node).within;
        let not_from = &category.not_from;
        self.push_named(&mut stack, &mut cursor, node, crossed, not_from);
        let mut reach = HOIST_REACH;
        while let Some((n, crossed, offered)) = stack.pop() {
            reach -= 1;
            if reach == 0 {
                break;
            }
            let info = self.info(n);
            if info.member & bit != 0 {
                let allowed = offered
                    && info.exclude & bit == 0
                    && (in_list || info.list_only & bit == 0)
                    && fits(n)
                    && !(self.leaks_scope(n, crossed, &mut cursor)
                        && self.leaks_scope(n, crossed & !relax(), &mut cursor));
                if allowed {
                    out.push(n.byte_range());
                }
                let items = n
                    .named_children(&mut cursor)
                    .filter(|c| !c.is_extra() && self.info(*c).member & bit != 0)
                    .count();
                if info.through & bit != 0 && items <= category.through_max {
                    self.push_named(&mut stack, &mut cursor, n, crossed | info.within, not_from);
                }
            } else if info.stop & bit == 0 {
                self.push_named(&mut stack, &mut cursor, n, crossed | info.within, not_from);
            }
        }
        out
    }

    /// The `avoid` bits of `node` and of every descendant it begins with (see
    /// [`leftmost`]), remembered in `spines` by node for the parse: each node of a chain
    /// of calls thousands long begins with the whole chain below it, and a walk down it
    /// for every hoist it offers took seconds.
    fn leading_avoid(&self, node: TsNode, spines: &RefCell<BTreeMap<usize, u32>>) -> u32 {
        let mut spines = spines.borrow_mut();
        let mut walked = Vec::new();
        let mut bits = 0;
        for d in leftmost(node) {
            if let Some(&known) = spines.get(&d.id()) {
                bits = known;
                break;
            }
            walked.push(d);
        }
        for d in walked.into_iter().rev() {
            bits |= self.info(d).avoid;
            spines.insert(d.id(), bits);
        }
        bits
    }

    /// True when `node` holds (outside nested enclosures) a construct of a scope group in
    /// `crossed`, such as a `return` lifted out of its function.
    fn leaks_scope<'t>(&self, node: TsNode<'t>, crossed: u32, cursor: &mut TreeCursor<'t>) -> bool {
        if crossed == 0 {
            return false;
        }
        let mut stack = vec![(node, crossed)];
        while let Some((n, active)) = stack.pop() {
            let info = self.info(n);
            let active = active & !info.within;
            if active == 0 {
                continue;
            }
            if info.scoped & active != 0 {
                return true;
            }
            for (c, _) in children(n, cursor) {
                if c.is_named() {
                    stack.push((c, active));
                }
            }
        }
        false
    }
}

/// Where a node stands, for [`Grammar::alternatives`].
#[derive(Clone, Copy)]
struct Place<'a, 't> {
    parent: Option<TsNode<'t>>,
    /// The positions (parent kind, field) the node begins, its own last.
    leads: &'a [(&'t str, Option<&'t str>)],
    in_list: bool,
    /// The scope groups with `any_enclosure` whose enclosure holds the node.
    enclosed: u32,
    /// The nearest enclosure of the groups with `unless_result_used`.
    function: Option<TsNode<'t>>,
}

/// True when `set` names the position `(kind, field)`: the kind alone, or with that field.
fn holds_position(set: &BTreeSet<Position>, (kind, field): (&str, Option<&str>)) -> bool {
    set.iter()
        .any(|(k, f)| k == kind && (f.is_none() || f.as_deref() == field))
}

/// How many descendants a node's hoists look at. A chain of blocks that each hold one
/// block is looked through, and without a bound each of n nested blocks would look at
/// all the blocks inside it: 20 000 nested blocks took six minutes to parse. Past the
/// bound, an outer block hoists one this many levels down, and HDD's chain search takes
/// the depths between.
const HOIST_REACH: usize = 256;

/// What [`Grammar::build`] knows of the whole parse while it gives each node its
/// alternatives.
struct Known<'t> {
    text: &'t str,
    root: TsNode<'t>,
    /// The names and results used (see [`Uses`]), gathered when a rule first asks.
    uses: OnceCell<Uses<'t>>,
    /// The bits [`Grammar::leading_avoid`] found, by node id.
    spines: RefCell<BTreeMap<usize, u32>>,
}

impl<'t> Known<'t> {
    fn uses(&self, results: &Results) -> &Uses<'t> {
        self.uses
            .get_or_init(|| Uses::of(self.text, self.root, results))
    }
}

/// `node` and its descendants that begin where it begins, outermost first.
fn leftmost(node: TsNode) -> impl Iterator<Item = TsNode> {
    let start = node.start_byte();
    std::iter::successors(Some(node), move |n| {
        n.child(0).filter(|c| c.start_byte() == start)
    })
}

/// True when one of `node`'s anonymous children is one of `tokens`.
fn has_token(text: &str, node: TsNode, tokens: &[String]) -> bool {
    let mut cursor = node.walk();
    children(node, &mut cursor)
        .iter()
        .any(|(c, _)| !c.is_named() && tokens.iter().any(|t| *t == text[c.byte_range()]))
}

/// What may stand in a node's place: a new text, or one of its own descendants (by span),
/// which the node's tree keeps as deletions around it, so that no text is copied: a copy
/// per node costs memory quadratic in the nesting depth (50 000 nested arrays).
#[derive(Debug, Clone)]
enum Alternative {
    Text(String),
    /// A piece of the node kept, and what goes with it elsewhere (the calls of a function
    /// that becomes its body, see [`Grammar::calls_to_take`]; mostly nothing).
    Keep(Range<usize>, Vec<Range<usize>>),
    /// The node goes, and the range takes the text: a reference the node's value (see
    /// [`Grammar::inline_of`]), or the end of a declaration a statement.
    Inline(Range<usize>, String),
}

impl Alternative {
    /// The text that would stand in the node's place.
    fn text<'a>(&'a self, source: &'a str) -> &'a str {
        match self {
            Alternative::Text(t) => t,
            Alternative::Keep(r, _) => &source[r.clone()],
            Alternative::Inline(..) => "",
        }
    }
}

/// A tree node for `ts`, a node of `text`, of `kind` and labelled `label`.
fn leaf(
    text: &str,
    (kind, label): (NodeKind, Label),
    ts: TsNode,
    delete: Option<Range<usize>>,
    alternatives: Vec<Alternative>,
) -> Node {
    let span = ts.byte_range();
    // What takes the node's place must not run into the tokens around it: in minified
    // code `typeof(x)` is not `typeof0` (a kept descendant's deletions see to it as they
    // are rendered, see `Edit::apart`). An alternative that the spaces make as long as
    // the node is no reduction (`typeof(b)in c` as `typeof b in c`).
    let bytes = text.as_bytes();
    let fuses = |a: Option<&u8>, b: Option<&u8>| matches!((a, b), (Some(&a), Some(&b)) if crate::render::would_fuse(a, b));
    let before = span.start.checked_sub(1).and_then(|at| bytes.get(at));
    let after = bytes.get(span.end);
    // A new text replaces the node's whole span; a kept descendant is what is left once
    // the text before and after it goes.
    let alternatives = alternatives
        .into_iter()
        .filter_map(|alternative| match alternative {
            Alternative::Text(mut new) => {
                if fuses(before, new.as_bytes().first()) {
                    new.insert(0, ' ');
                }
                if fuses(new.as_bytes().last(), after) {
                    new.push(' ');
                }
                (new.len() < span.len()).then(|| vec![Edit::replace(span.clone(), new)])
            }
            Alternative::Keep(r, also) => {
                let lead = r.start > span.start && fuses(before, bytes.get(r.start));
                let trail = r.end < span.end
                    && fuses(r.end.checked_sub(1).and_then(|at| bytes.get(at)), after);
                let spaces = usize::from(lead) + usize::from(trail);
                (r.len() + spaces < span.len()).then(|| {
                    [span.start..r.start, r.end..span.end]
                        .into_iter()
                        .filter(|d| !d.is_empty())
                        .chain(also)
                        .map(Edit::delete_apart)
                        .collect()
                })
            }
            Alternative::Inline(at, with) => {
                let delete = delete.clone()?;
                (with.len() < at.len() + delete.len())
                    .then(|| vec![Edit::delete(delete), Edit::replace(at, with)])
            }
        })
        .collect();
    Node {
        alternatives,
        ..Node::new(kind, label, span, delete)
    }
}

/// All children of `node` with their field names, in order.
fn children<'t>(
    node: TsNode<'t>,
    cursor: &mut TreeCursor<'t>,
) -> Vec<(TsNode<'t>, Option<&'t str>)> {
    cursor.reset(node);
    let mut out = Vec::new();
    if cursor.goto_first_child() {
        loop {
            out.push((cursor.node(), cursor.field_name()));
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    out
}

/// The bytes that go with the `k`th item of a list.
fn item_delete(
    text: &str,
    list: &List,
    children: &[(TsNode, Option<&str>)],
    items: &[usize],
    k: usize,
) -> Range<usize> {
    let node = children[items[k]].0;
    let span = node.byte_range();
    if list.exact {
        return span;
    }
    // The token right after the item, skipping comments.
    let next_token =
        |token: &str| first_token(text, &children[items[k] + 1..], token).map(|c| c.end_byte());
    // Comments after the item on its last line go with it (`f(); // why`).
    let with_comments = |mut end: usize| {
        for (c, _) in &children[items[k] + 1..] {
            if c.start_byte() < end {
                continue;
            }
            if !c.is_extra() || text[end..c.start_byte()].contains('\n') {
                break;
            }
            end = c.end_byte();
        }
        end
    };
    let Some(sep) = &list.separator else {
        let Range { start, end } = without_layout_breaks(text, &span);
        let end = list
            .terminator
            .as_deref()
            .and_then(next_token)
            .unwrap_or(end);
        let before = blanks_before(text, start);
        if list.spaced && !starts_line(text, before) && whole_lines(text, start, end).is_none() {
            // With the blanks before it, which the one before it or the tag's name
            // leaves; the first on its line keeps its indentation (see `item_span`).
            return before..end;
        }
        return item_span(text, start, with_comments(end));
    };
    // An item with its separator after it, laid out on lines of its own, goes with its
    // lines; this keeps one item per line lists tidy whatever subset goes.
    let end = next_token(sep).unwrap_or(span.end);
    if let Some(lines) = whole_lines(text, span.start, with_comments(end)) {
        return lines;
    }
    if let Some(&next) = items.get(k + 1) {
        // A non-last item takes the separator and the space up to the next item.
        span.start..children[next].0.start_byte()
    } else if k > 0 {
        // The last item takes the separator before it, and a trailing one after it: all
        // items gone, `{a, b,}` would leave `{,}`.
        children[items[k - 1]].0.end_byte()..end
    } else {
        item_span(text, span.start, end)
    }
}

/// `span` without the blanks at either end that hold a line break: a text item (JSX's)
/// may begin or end with a line break of the layout, which stays with the indentation
/// after it. A span of blanks alone stays whole.
fn without_layout_breaks(text: &str, span: &Range<usize>) -> Range<usize> {
    let own = &text[span.clone()];
    let lead = own.len() - own.trim_start().len();
    let trail = own.len() - own.trim_end().len();
    if lead == own.len() {
        return span.clone();
    }
    let breaks = |blanks: &str, n: usize| if blanks.contains('\n') { n } else { 0 };
    span.start + breaks(&own[..lead], lead)..span.end - breaks(&own[own.len() - trail..], trail)
}

/// The first of `children` that is no comment, when it is the anonymous `token`.
fn first_token<'t>(
    text: &str,
    children: &[(TsNode<'t>, Option<&str>)],
    token: &str,
) -> Option<TsNode<'t>> {
    children
        .iter()
        .map(|(c, _)| *c)
        .find(|c| !c.is_extra())
        .filter(|c| !c.is_named() && &text[c.byte_range()] == token)
}

/// The separators the deletion of a separated list's last item may take along (see
/// [`Separator`]), with that item's child index; none for a list written with a separator
/// after its last item (its style allows one: `[\n  1,\n  2,\n]` keeps `1,`).
fn tail_separators(
    text: &str,
    list: &List,
    children: &[(TsNode, Option<&str>)],
    items: &[usize],
    deletes: &[Option<Range<usize>>],
) -> Option<(usize, Arc<[Separator]>)> {
    let sep = list.separator.as_deref().filter(|_| !list.exact)?;
    let (&last, _) = items.split_last()?;
    let token = |range: Range<usize>| first_token(text, &children[range], sep);
    if token(last + 1..children.len()).is_some() {
        return None;
    }
    // When what closes the list stands right after its last item (`c);`, `length;`), it
    // stays right after the new last item: a tail that goes takes the line breaks after
    // the separator too (`g(a);`, not `g(a` and `);` on the next line).
    let after = &text.as_bytes()[children[last].0.end_byte()..];
    let closer = after.iter().find(|&&b| b != b' ' && b != b'\t');
    let tight = closer.is_some_and(|&b| !matches!(b, b'\n' | b'\r' | b'/'));
    let separators: Vec<Separator> = items
        .windows(2)
        .filter_map(|pair| {
            let (previous, item) = (pair[0], pair[1]);
            deletes[item].as_ref()?;
            let end = token(previous + 1..item)?.end_byte();
            let blanks = text[end..]
                .bytes()
                .take_while(|&b| b == b' ' || b == b'\t' || (tight && b.is_ascii_whitespace()))
                .count();
            Some(Separator {
                token: children[previous].0.end_byte()..end,
                reach: children[item].0.start_byte(),
                joined: end + blanks,
            })
        })
        .collect();
    Some((last, separators.into()))
}

/// The bytes that go with a node that may stand on lines of its own: those lines when it
/// does, else the node with the spaces that would otherwise be left doubled.
fn item_span(text: &str, start: usize, end: usize) -> Range<usize> {
    if let Some(lines) = whole_lines(text, start, end) {
        return lines;
    }
    let bytes = text.as_bytes();
    let s = blanks_before(text, start);
    let mut e = end;
    while e < bytes.len() && matches!(bytes[e], b' ' | b'\t') {
        e += 1;
    }
    let last_on_line = e == bytes.len() || matches!(bytes[e], b'\n' | b'\r');
    if starts_line(text, s) || !last_on_line {
        // Something follows on the line: it keeps the spaces before the node (its
        // indentation when the node is first), and deleting the nodes before it leaves
        // no space at the start of the line.
        start..e
    } else {
        // Last on its line: no space is left at the end of the line.
        s..end
    }
}

/// Where the spaces and tabs right before `at` begin.
fn blanks_before(text: &str, at: usize) -> usize {
    text[..at].trim_end_matches([' ', '\t']).len()
}

/// True when `at` begins a line.
fn starts_line(text: &str, at: usize) -> bool {
    at == 0 || text.as_bytes()[at - 1] == b'\n'
}

/// The inside of a list between its brackets (`{`, `[` or `(` first among `children`, its
/// match last), when blanks stand around what it holds (see [`Edit::hollow`]).
fn hollow(text: &str, children: &[(TsNode, Option<&str>)]) -> Option<Line> {
    let (open, close) = (children.first()?.0, children.last()?.0);
    if open.is_named() || close.is_named() || children.len() < 3 {
        return None;
    }
    let pair = (&text[open.byte_range()], &text[close.byte_range()]);
    if !matches!(pair, ("{", "}") | ("[", "]") | ("(", ")")) {
        return None;
    }
    let whole = open.end_byte()..close.start_byte();
    let inside = &text[whole.clone()];
    let first = inside.find(|c: char| !c.is_ascii_whitespace())?;
    let last = inside.rfind(|c: char| !c.is_ascii_whitespace())? + 1;
    let content = whole.start + first..whole.start + last;
    (content != whole).then_some(Line { content, whole })
}

/// The line that the deletion span `delete` lies in, when it lies in one line and does
/// not take it whole (see [`Line`]). `breaks` holds the positions of `text`'s line breaks.
fn shared_line(text: &str, breaks: &[usize], delete: Range<usize>) -> Option<Line> {
    let bytes = text.as_bytes();
    // The first line break at or after the deletion's start.
    let next = breaks.partition_point(|&at| at < delete.start);
    let end = breaks.get(next).copied().unwrap_or(bytes.len());
    if end < delete.end {
        return None;
    }
    // The first line begins after a byte-order mark, which stays when the line goes.
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let start = next.checked_sub(1).map_or(bom, |before| breaks[before] + 1);
    let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
    let first = bytes[start..end].iter().position(|b| !blank(b))? + start;
    let last = bytes[start..end].iter().rposition(|b| !blank(b))? + start + 1;
    let whole = if end < bytes.len() {
        start..end + 1
    } else if start > bom {
        // The last line: the line break before it goes (with its `\r`).
        let from = start - 1;
        (if from > 0 && bytes[from - 1] == b'\r' {
            from - 1
        } else {
            from
        })..end
    } else {
        return None;
    };
    Some(Line {
        content: first..last,
        whole,
    })
}

/// The blank lines of `text` (whose tree is under `root`), each with its line break, and
/// the blanks that end the other lines, for the squeeze: those between tokens, not those
/// inside one (a template's text, a comment, JSX text), which no grammar's kind names need
/// to tell.
fn blank_lines(text: &str, root: TsNode) -> Vec<Range<usize>> {
    let mut blank = Vec::new();
    let mut start = 0;
    // A token covers it (whitespace between tokens is covered by no leaf).
    let inside = |span: &Range<usize>| {
        root.descendant_for_byte_range(span.start, span.end)
            .is_some_and(|n| {
                n.child_count() == 0 && n.start_byte() <= span.start && n.end_byte() >= span.end
            })
    };
    for line in text.split_inclusive('\n') {
        let end = start + line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        let kept = content.trim_end_matches([' ', '\t']).len();
        let span = if kept == 0 {
            start..end
        } else {
            // The blanks that end a line with something on it.
            start + kept..start + content.len()
        };
        if !span.is_empty() && !inside(&span) {
            blank.push(span);
        }
        start = end;
    }
    blank
}

/// When only blanks surround `start..end` on its first and last lines: those whole lines,
/// with the blank lines before and after them. Removing any set of such spans leaves no
/// blank line at the start or end of a block, and none where a removed item was.
fn whole_lines(text: &str, start: usize, end: usize) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let blank = |b: u8| matches!(b, b' ' | b'\t' | b'\r');
    let mut s = blanks_before(text, start);
    if !starts_line(text, s) {
        return None;
    }
    let mut e = end;
    while e < bytes.len() && blank(bytes[e]) {
        e += 1;
    }
    if e < bytes.len() {
        if bytes[e] != b'\n' {
            return None;
        }
        e += 1;
    }
    loop {
        let mut p = e;
        while p < bytes.len() && blank(bytes[p]) {
            p += 1;
        }
        if p < bytes.len() && bytes[p] == b'\n' {
            e = p + 1;
        } else {
            break;
        }
    }
    // `s` starts a line; the line before it ends with the line break at `s - 1`.
    while s > 0 {
        let mut q = s - 1;
        while q > 0 && blank(bytes[q - 1]) {
            q -= 1;
        }
        if q == 0 || bytes[q - 1] == b'\n' {
            s = q;
        } else {
            break;
        }
    }
    Some(s..e)
}

/// A template filled in for `node`; `None` when a field it names is absent.
fn render_template(text: &str, node: TsNode, template: &[Segment]) -> Option<Alternative> {
    let span = |segment: &Segment| match segment {
        Segment::Inner => {
            let count = u32::try_from(node.named_child_count()).ok()?;
            let first = node.named_child(0)?;
            let last = node.named_child(count.checked_sub(1)?)?;
            Some(first.start_byte()..last.end_byte())
        }
        other => Some(segment_node(node, other)?.byte_range()),
    };
    if let [only @ (Segment::Field(_) | Segment::Inner)] = template {
        return span(only).map(|kept| Alternative::Keep(kept, Vec::new()));
    }
    let mut out = String::new();
    for segment in template {
        match segment {
            Segment::Text(t) => out.push_str(t),
            other => out.push_str(&text[span(other)?]),
        }
    }
    Some(Alternative::Text(out))
}

/// The node a field segment of a template stands for; `None` for text, `${inner}`, or a
/// child that is missing or not the only one of its kind.
fn segment_node<'t>(node: TsNode<'t>, segment: &Segment) -> Option<TsNode<'t>> {
    match segment {
        Segment::Field(f) => node.child_by_field_name(f),
        Segment::ChildField(kind, field) => {
            let mut cursor = node.walk();
            let mut of_kind = node
                .named_children(&mut cursor)
                .filter(|c| c.kind() == kind);
            let only = of_kind.next()?;
            if of_kind.next().is_some() {
                return None;
            }
            only.child_by_field_name(field)
        }
        Segment::Text(_) | Segment::Inner => None,
    }
}

/// The words of a text (the texts of its named leaves: names, properties, numbers) and
/// how they are used, gathered in one walk for the rules that ask (`unless_used`,
/// `unless_result_used`).
#[derive(Debug, Default)]
struct Uses<'t> {
    /// For each word: how often it occurs, whether it occurs other than as a declared
    /// function's name or as the callee of a call that stands as a statement (`f();`), that
    /// is, whether a result named so may be used, and where its last occurrence in the
    /// text begins (for `[inline]`). Only looked up, never walked, so the
    /// order of a hash map cannot reach a result; it is built on every parse of inputs of
    /// hundreds of thousands of words, where a B-tree cost lodash 1 ms per candidate.
    #[allow(clippy::disallowed_types)]
    words: std::collections::HashMap<&'t str, (u32, bool, usize)>,
    /// For each word that is the whole callee of a call standing as a statement (`f();`),
    /// with `hoist_takes_calls`: those statements' spans and their parents' kinds, in the
    /// order the walk met them. Looked up only, as `words` is.
    #[allow(clippy::disallowed_types)]
    calls: std::collections::HashMap<&'t str, Vec<(Range<usize>, String)>>,
}

impl<'t> Uses<'t> {
    fn of(text: &'t str, root: TsNode, results: &Results) -> Self {
        let mut uses = Uses::default();
        let mut cursor = root.walk();
        // (node, its parent's kind and its field there, the grandparent's kind); parents
        // are carried down: tree-sitter finds a node's parent by walking from the root.
        let mut stack: Vec<(TsNode, &str, Option<&str>, &str)> = vec![(root, "", None, "")];
        let at = |kind: &str, field: Option<&str>, (k, f): &(String, String)| {
            kind == k && field == Some(f.as_str())
        };
        // Where the words that name a function in a quiet place begin (a method's name, a
        // declarator's name whose value is a function, the last word of the callee of a
        // call that is a statement: `o.m();`).
        let mut quiet_at: BTreeSet<usize> = BTreeSet::new();
        while let Some((n, parent, field, grandparent)) = stack.pop() {
            if n.child_count() > 0 {
                if let Some(word) = results.quiet_word(n, parent) {
                    quiet_at.insert(word.start_byte());
                }
                if results.hoist_takes_calls
                    && let Some(name) = results.statement_callee(n)
                {
                    let calls = uses.calls.entry(&text[name.byte_range()]).or_default();
                    calls.push((n.byte_range(), parent.to_string()));
                }
                cursor.reset(n);
                if cursor.goto_first_child() {
                    loop {
                        stack.push((cursor.node(), n.kind(), cursor.field_name(), parent));
                        if !cursor.goto_next_sibling() {
                            break;
                        }
                    }
                }
                continue;
            }
            if !n.is_named() {
                continue;
            }
            let quiet = at(parent, field, &results.declared)
                || (at(parent, field, &results.callee) && grandparent == results.statement)
                || quiet_at.contains(&n.start_byte());
            let entry = uses.words.entry(&text[n.byte_range()]).or_default();
            entry.0 += 1;
            entry.1 |= !quiet;
            entry.2 = entry.2.max(n.start_byte());
        }
        uses
    }

    /// True when a word of `node` occurs in the text outside it too.
    fn elsewhere(&self, text: &str, node: TsNode) -> bool {
        let own = Uses::of(text, node, &Results::default());
        own.words
            .iter()
            .any(|(word, (n, _, _))| self.words.get(word).map_or(0, |&(count, _, _)| count) > *n)
    }

    /// True when the function around `node` gives its result to no one in the text: a
    /// declared function only ever called as a statement (`f();`), a function called
    /// where it stands as a statement (`(function () {...})();`), one at a `dropped`
    /// position (`export default function () {}`), or one standing where it is named
    /// (`var f = function`, `o.f = () =>`) by a name written nowhere else.
    fn result_unused(&self, text: &str, node: TsNode, results: &Results) -> bool {
        let is = |n: TsNode, kinds: &[String]| kinds.iter().any(|k| k == n.kind());
        let Some(function) = std::iter::successors(node.parent(), |n| n.parent())
            .find(|&n| is(n, &results.functions))
        else {
            return false;
        };
        // A name written only quietly, not one the language calls by itself. An export's
        // importers are not in the text, like the callers of a script's `module.exports`:
        // a test that runs the code needs what it needs of them, one call to learn.
        let quiet = |name: TsNode| {
            let word = &text[name.byte_range()];
            name.kind().ends_with("identifier")
                && !results.implicit.iter().any(|i| i == word)
                && self.words.get(word).is_some_and(|w| !w.1)
        };
        if let Some((_, name)) = results.members.iter().find(|(k, _)| *k == function.kind()) {
            // Not an accessor, whose result a property read takes.
            return !has_token(text, function, &results.accessors)
                && function.child_by_field_name(name).is_some_and(quiet);
        }
        if function.kind() == results.declared.0 {
            return function
                .child_by_field_name(&results.declared.1)
                .is_some_and(|name| {
                    !self
                        .words
                        .get(&text[name.byte_range()])
                        .is_some_and(|w| w.1)
                });
        }
        let callee = results.outermost(function);
        if let Some(parent) = callee.parent() {
            let at = |position: &(String, String)| stands_at(parent, callee, position);
            if results.dropped.iter().any(at) {
                return true;
            }
            for (position, name) in &results.named {
                if !at(position) {
                    continue;
                }
                // The name's last word: `f`, or `f` of `o.f`.
                return parent
                    .child_by_field_name(name)
                    .is_some_and(|word| quiet(last_word(word)));
            }
        }
        let (call, field) = &results.callee;
        callee.parent().is_some_and(|c| {
            c.kind() == call
                && c.child_by_field_name(field)
                    .is_some_and(|f| f.id() == callee.id())
                && c.parent().is_some_and(|s| s.kind() == results.statement)
        })
    }
}

/// True when `value`, a child of `parent`, stands at `position` (kind, field) there.
fn stands_at(parent: TsNode, value: TsNode, (kind, field): &(String, String)) -> bool {
    parent.kind() == kind
        && parent
            .child_by_field_name(field)
            .is_some_and(|v| v.id() == value.id())
}

impl Results {
    /// `function` with the `through` kinds around it (its parentheses): what stands where
    /// its value goes.
    fn outermost<'t>(&self, function: TsNode<'t>) -> TsNode<'t> {
        let mut outer = function;
        while let Some(p) = outer
            .parent()
            .filter(|p| self.through.iter().any(|k| k == p.kind()))
        {
            outer = p;
        }
        outer
    }

    /// The callee of `node` when `node` is a statement that is one call and nothing else,
    /// and the callee a bare name (`f` of `f(x);`).
    fn statement_callee<'t>(&self, node: TsNode<'t>) -> Option<TsNode<'t>> {
        if node.kind() != self.statement || node.named_child_count() != 1 {
            return None;
        }
        let call = node.named_child(0).filter(|c| c.kind() == self.callee.0)?;
        call.child_by_field_name(&self.callee.1)
            .filter(|c| c.is_named() && c.child_count() == 0)
    }

    /// The word of `node` (whose parent is of kind `parent`) that names a function in a
    /// place that takes no result: a member's name (`m` of `m() {}`), the name of a
    /// declarator whose value is a function, the callee's last word of a call that stands
    /// as a statement (`m` of `o.m();`).
    fn quiet_word<'t>(&self, node: TsNode<'t>, parent: &str) -> Option<TsNode<'t>> {
        let is_function = |mut n: TsNode| {
            while self.through.iter().any(|k| k == n.kind()) {
                match n.named_child(0) {
                    Some(inner) => n = inner,
                    None => return false,
                }
            }
            self.functions.iter().any(|k| k == n.kind())
        };
        let kind = node.kind();
        if let Some((_, name)) = self.members.iter().find(|(k, _)| k == kind) {
            return node.child_by_field_name(name);
        }
        if kind == self.callee.0 && parent == self.statement {
            let callee = node.child_by_field_name(&self.callee.1)?;
            return match &self.property {
                Some((member, property)) if callee.kind() == member => {
                    callee.child_by_field_name(property)
                }
                _ => Some(callee).filter(|c| c.named_child_count() == 0),
            };
        }
        let ((_, value), name) = self.named.iter().find(|((k, _), _)| k == kind)?;
        node.child_by_field_name(value)
            .filter(|&v| is_function(v))
            .and_then(|_| node.child_by_field_name(name))
            .map(last_word)
    }
}

/// The last word of `node`: its last named descendant down the last children (`f` of
/// `o.f`).
fn last_word(mut word: TsNode) -> TsNode {
    while let Some(last) = word.named_child(word.named_child_count().saturating_sub(1) as u32) {
        word = last;
    }
    word
}

/// True when what stands before `node` (comments aside) ends a statement for sure: a `;`,
/// the `{` that opens a block, or nothing.
fn ends_a_statement(text: &str, node: TsNode) -> bool {
    let mut before = node.prev_sibling();
    while let Some(b) = before.filter(|b| b.is_extra()) {
        before = b.prev_sibling();
    }
    before.is_none_or(|b| {
        let own = text[b.byte_range()].trim_end();
        own.ends_with(';') || own == "{"
    })
}

/// How many ERROR and MISSING nodes the tree of `root` holds. The walk enters only the
/// subtrees that hold one.
fn errors(root: TsNode) -> usize {
    if !root.has_error() {
        return 0;
    }
    let mut count = 0;
    let mut stack = vec![root];
    let mut cursor = root.walk();
    while let Some(node) = stack.pop() {
        if node.is_error() || node.is_missing() {
            count += 1;
        }
        stack.extend(node.children(&mut cursor).filter(|c| c.has_error()));
    }
    count
}

/// How many bytes the outermost ERROR nodes of the tree of `root` cover.
fn error_bytes(root: TsNode) -> usize {
    let mut bytes = 0;
    let mut stack = vec![root];
    let mut cursor = root.walk();
    while let Some(node) = stack.pop() {
        if node.is_error() {
            bytes += node.byte_range().len();
        } else {
            stack.extend(node.children(&mut cursor).filter(|c| c.has_error()));
        }
    }
    bytes
}

/// The first ERROR or MISSING node in document order, as a syntax error.
fn first_error(text: &str, root: TsNode) -> SyntaxError {
    let mut node = root;
    let mut cursor = root.walk();
    loop {
        if node.is_error() || node.is_missing() {
            break;
        }
        let next = children(node, &mut cursor)
            .into_iter()
            .map(|(c, _)| c)
            .find(|c| c.has_error() || c.is_missing());
        match next {
            Some(c) => node = c,
            None => break,
        }
    }
    let at = node.start_byte();
    let (line, column) = super::line_and_column(text, at);
    let message = if node.is_missing() {
        format!("missing `{}`", node.kind())
    } else {
        let snippet: String = text[at..]
            .chars()
            .take_while(|c| *c != '\n')
            .take(20)
            .collect();
        format!("unexpected `{}`", snippet.trim_end())
    };
    SyntaxError {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        column: u32::try_from(column).unwrap_or(u32::MAX),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deleted line break may have ended a statement, unless another stays where it was,
    /// or nothing is left on one side to join.
    #[test]
    fn a_deleted_line_break_matters_only_between_two_statements() {
        // `var a` newline `b` less the newline is `var a b`: parsed.
        assert!(breaks_no_more("\n", "var a b", 5));
        assert!(!breaks_no_more("\n", "var a \n b", 5));
        assert!(!breaks_no_more(" ", "var a b", 5));
        // At the start or the end of the text, nothing is joined.
        assert!(!breaks_no_more("x\n", "  b", 0));
        assert!(!breaks_no_more("x\n", "  b", 1));
        assert!(!breaks_no_more("\nx", "var a ", 5));
    }
}
