//! The language-independent tree every front end produces: an arena of nodes with byte
//! spans into the text they were parsed from. A tree only describes structure and the
//! edits each node allows; it never decides what to try (that is `driver`'s job).

use std::ops::Range;
use std::sync::Arc;

/// Index of a node in its [`Tree`]'s arena. Copy, small, and only meaningful for the tree
/// that produced it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(u32);

impl NodeId {
    /// The arena index of this node.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One text replacement: the bytes of `span` in the current text become `text`.
/// A deletion is an edit with an empty `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// Byte range of the current text that is replaced.
    pub span: Range<usize>,
    /// Replacement text.
    pub text: String,
    /// For a deletion around a piece of code that stays (a hoist): when what comes before
    /// it and after it in the candidate would fuse into one token (two words, `/` and `/`,
    /// see [`crate::render::would_fuse`]), a space is left instead (`return{b:l.x}`
    /// keeping `l.x` is `return l.x`).
    pub apart: bool,
    /// For an insertion into a start tag (the namespace declarations an element takes
    /// over from one unwrapped around it): where that tag begins. Should the candidate
    /// also delete the tag (the element is unwrapped too), the text is not lost but goes
    /// into the tag the deletion leaves in its place, whose insertion says so (see
    /// [`crate::render::splices`]); such an insertion may be empty, a mere anchor (every
    /// hoist in a namespaced document has one, so it is no [`Along`]).
    pub carry: Option<usize>,
    /// What the deletion takes along, for the few deletions that take anything (see
    /// [`Along`]); shared, so that an edit stays small and copies cheaply.
    pub along: Option<Arc<Along>>,
}

/// What goes with a deletion besides its own span. Most have none of it, so it lives
/// behind one pointer: a tree of a large flat document holds hundreds of thousands of
/// edits and nodes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Along {
    /// For the deletion of a separated list's last item: the separators that go when the
    /// deletion runs back to an item's start (see [`Separator`]).
    pub separators: Option<Arc<[Separator]>>,
    /// For the deletion of a node that shares its line with others: the line (see
    /// [`Line`]).
    pub line: Option<Line>,
    /// For the deletion of an item of a bracketed list (or of a comment in it): the
    /// brackets' inside, as a [`Line`] whose `content` runs from the first byte other than
    /// a blank to the last and whose `whole` is all between the brackets. When the
    /// deletions of a candidate, merged, take all of `content`, they take `whole` too, so
    /// that a list emptied over several lines is `{}`, not `{` and `}` on two lines.
    pub hollow: Option<Line>,
}

impl Along {
    /// `self` to be shared, or `None` when it holds nothing.
    pub fn shared(self) -> Option<Arc<Along>> {
        (self != Along::default()).then(|| Arc::new(self))
    }
}

/// The line a node shares with other nodes (statements side by side, `a(); b();`): when the
/// deletions of a candidate, merged, take everything on it but blanks, they take the whole
/// line, so that no blank line stays where it stood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// From the line's first byte other than a blank to the end of its last.
    pub content: Range<usize>,
    /// The whole line and one line break: its own, or for a last line without one the
    /// line break before it.
    pub whole: Range<usize>,
}

/// The separator before an item of a separated list (`,` in `f(a, b)`): when the deletion
/// of the list's last item, merged with those of the items before it, begins between the
/// separator and that item (only spaces and comments lie there), the separator goes too, so
/// that the list's tail goes with no separator left behind (`f(a, )`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Separator {
    /// The separator's bytes, from the end of the item before it.
    pub token: Range<usize>,
    /// Where the item after it begins.
    pub reach: usize,
    /// The end of the spaces after the separator on its line (and of the line breaks
    /// after it too when the list's closing token stood right after its last item): a
    /// deletion that begins there or before takes them too (`f(a)`, not `f(a )`).
    pub joined: usize,
}

impl Edit {
    /// An edit that removes `span`.
    pub fn delete(span: Range<usize>) -> Self {
        Edit::replace(span, String::new())
    }

    /// An edit that puts `text` in place of `span`.
    pub fn replace(span: Range<usize>, text: String) -> Self {
        Edit {
            span,
            text,
            apart: false,
            carry: None,
            along: None,
        }
    }

    /// A deletion that leaves a space where it would fuse two tokens (see [`Edit::apart`]).
    pub fn delete_apart(span: Range<usize>) -> Self {
        Edit {
            apart: true,
            ..Edit::delete(span)
        }
    }

    /// An insertion of `text` at `at`, into the start tag that begins at `tag` (see
    /// [`Edit::carry`]).
    pub fn carry(at: usize, text: String, tag: usize) -> Self {
        Edit {
            carry: Some(tag),
            ..Edit::replace(at..at, text)
        }
    }

    /// The separators the deletion may take along (see [`Along::separators`]).
    pub fn separators(&self) -> Option<&[Separator]> {
        self.along.as_ref()?.separators.as_deref()
    }

    /// The line the deletion may take whole (see [`Along::line`]).
    pub fn line(&self) -> Option<&Line> {
        self.along.as_ref()?.line.as_ref()
    }

    /// The brackets' inside the deletion may empty (see [`Along::hollow`]).
    pub fn hollow(&self) -> Option<&Line> {
        self.along.as_ref()?.hollow.as_ref()
    }

    /// True when this edit only removes bytes.
    pub fn is_deletion(&self) -> bool {
        self.text.is_empty()
    }
}

/// A node's label (see [`Node::label`]): a name the front end knows by heart (a tree-sitter
/// kind, `#text`), which costs nothing, or one read from the document (an element's name),
/// shared by the nodes that have it. Compares as its text.
#[derive(Clone)]
pub struct Label(LabelText);

#[derive(Clone)]
enum LabelText {
    Known(&'static str),
    Read(Arc<str>),
}

impl Label {
    /// The label's text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            LabelText::Known(text) => text,
            LabelText::Read(text) => text,
        }
    }
}

impl std::ops::Deref for Label {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl From<&'static str> for Label {
    fn from(text: &'static str) -> Self {
        Label(LabelText::Known(text))
    }
}

impl From<String> for Label {
    fn from(text: String) -> Self {
        Label(LabelText::Read(text.into()))
    }
}

impl From<Arc<str>> for Label {
    fn from(text: Arc<str>) -> Self {
        Label(LabelText::Read(text))
    }
}

impl PartialEq for Label {
    fn eq(&self, other: &Label) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Label {}

impl PartialEq<str> for Label {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Label {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialOrd for Label {
    fn partial_cmp(&self, other: &Label) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Label {
    fn cmp(&self, other: &Label) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl std::hash::Hash for Label {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl std::fmt::Debug for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The labels read from one document: each name is made a [`Label`] once, and the nodes
/// that bear it share it (a page of 25 000 `<item>` elements holds one `item`).
#[derive(Debug, Default)]
pub struct Labels(std::collections::BTreeMap<String, Label>);

impl Labels {
    /// The label for `name`.
    pub fn of(&mut self, name: &str) -> Label {
        if let Some(label) = self.0.get(name) {
            return label.clone();
        }
        let label = Label::from(name.to_string());
        self.0.insert(name.to_string(), label.clone());
        label
    }
}

/// What a node is, as far as the driver cares; the front end keeps the detail in `label`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// The whole document; never removable.
    Document,
    /// An element or other composite node (a tree-sitter named node, say).
    Element,
    /// An attribute of an element.
    Attribute,
    /// Character data.
    Text,
    /// A comment or processing instruction: removable, never needed for structure.
    Comment,
    /// A line in the `lines` front end.
    Line,
    /// Formatting only (whitespace between markup); removed only by the squeeze pass.
    Whitespace,
}

/// A node of the tree.
#[derive(Debug, Clone)]
pub struct Node {
    /// What kind of node this is.
    pub kind: NodeKind,
    /// Front-end specific name: an element's qualified name, a tree-sitter kind.
    pub label: Label,
    /// The node's own bytes.
    pub span: Range<usize>,
    /// The bytes that go when the node is deleted (its span plus, say, the whitespace before
    /// an attribute or a list separator). `None` when the node may not be deleted.
    pub delete: Option<Range<usize>>,
    /// Other bytes that go with the node when it is deleted, outside its subtree: what
    /// names it elsewhere and would be an error without it (a module's `export { a }`
    /// specifier of a declaration of `a`), each as that node's own deletion, separators
    /// and all. Empty for most nodes.
    pub also: Vec<Edit>,
    /// What the node's deletion takes along: for the last item of a separated list, the
    /// separators; for a node that shares its line with others, the line; for an item of
    /// a bracketed list, the brackets' inside (see [`Along`]). `None` for most nodes.
    pub along: Option<Arc<Along>>,
    /// Ways to rewrite the node other than deleting it (placeholder, unwrap, hoist), smallest
    /// result first. Each is a set of edits inside `span`; expressing an unwrap as the
    /// deletion of two tags lets rewrites of nested nodes compose.
    pub alternatives: Vec<Vec<Edit>>,
    /// Parent node, `None` only for the document.
    pub parent: Option<NodeId>,
    /// Distance from the document node (the document is 0).
    pub depth: u32,
    /// Children in document order.
    pub children: Vec<NodeId>,
}

impl Node {
    /// True when the deletion passes may offer this node: it can be deleted and is not
    /// formatting (which only the squeeze pass removes).
    pub fn deletable(&self) -> bool {
        self.delete.is_some() && self.kind != NodeKind::Whitespace
    }

    /// A node of `kind` spanning `span`, deleted as `delete`, with nothing else: no
    /// alternatives, no children, no place in a tree yet.
    pub fn new(
        kind: NodeKind,
        label: Label,
        span: Range<usize>,
        delete: Option<Range<usize>>,
    ) -> Node {
        Node {
            kind,
            label,
            span,
            delete,
            also: Vec::new(),
            along: None,
            alternatives: Vec::new(),
            parent: None,
            depth: 0,
            children: Vec::new(),
        }
    }

    /// The edit that deletes the node's own span (`None` when it cannot be deleted), with
    /// the separators, the line and the brackets' inside that go along with it (see
    /// [`Separator`], [`Line`], [`Edit::hollow`]).
    pub fn deletion(&self) -> Option<Edit> {
        Some(Edit {
            along: self.along.clone(),
            ..Edit::delete(self.delete.clone()?)
        })
    }
}

/// An arena of nodes; node 0 is the document.
#[derive(Debug, Clone)]
pub struct Tree {
    nodes: Vec<Node>,
    /// Nodes deeper than this were left out (see [`crate::frontend::Frontend::parse_to`]);
    /// `None` when every depth is there.
    limit: Option<u32>,
    /// Deletable nodes may lack their rewrites (see [`crate::frontend::Frontend::parse_to`]).
    rewrites_left_out: bool,
}

impl Tree {
    /// A tree holding only a document node spanning `len` bytes.
    pub fn new(len: usize) -> Self {
        Tree {
            nodes: vec![Node::new(
                NodeKind::Document,
                "#document".into(),
                0..len,
                None,
            )],
            limit: None,
            rewrites_left_out: false,
        }
    }

    /// The depth below which nodes were left out, `None` when the tree is whole. Every
    /// node at that depth or above is present.
    pub fn limit(&self) -> Option<u32> {
        self.limit
    }

    /// True when every node at `depth` or above is present.
    pub fn holds(&self, depth: u32) -> bool {
        self.limit.is_none_or(|limit| limit >= depth)
    }

    /// True when every node is there with all its rewrites: what a rewrite pass needs.
    pub fn is_whole(&self) -> bool {
        self.limit.is_none() && !self.rewrites_left_out
    }

    /// Records that deletable nodes may lack their rewrites.
    pub fn leave_out_rewrites(&mut self) {
        self.rewrites_left_out = true;
    }

    /// Records that nodes deeper than `depth` were left out.
    pub fn set_limit(&mut self, depth: u32) {
        self.limit = Some(depth);
    }

    /// The document node.
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// Adds `node` as the last child of `parent` and returns its id. The node's `parent`
    /// and `depth` fields are set here.
    pub fn push(&mut self, parent: NodeId, mut node: Node) -> NodeId {
        let id = NodeId(u32::try_from(self.nodes.len()).unwrap_or(u32::MAX));
        node.parent = Some(parent);
        node.depth = self.nodes[parent.index()].depth + 1;
        node.children.clear();
        self.nodes.push(node);
        self.nodes[parent.index()].children.push(id);
        id
    }

    /// The node behind `id`.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// Mutable access to the node behind `id`.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }

    /// Number of nodes, the document included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the tree holds only the document node.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// All node ids in arena order (which is document order for every front end here).
    pub fn ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        (0..self.nodes.len()).map(|i| NodeId(i as u32))
    }

    /// The greatest depth of any node.
    pub fn max_depth(&self) -> u32 {
        self.nodes.iter().map(|n| n.depth).max().unwrap_or(0)
    }

    /// Every depth's nodes in document order: `index[d]` holds the nodes at depth `d`.
    pub fn depth_index(&self) -> Vec<Vec<NodeId>> {
        let mut index: Vec<Vec<NodeId>> = Vec::new();
        for id in self.ids() {
            let depth = self.node(id).depth as usize;
            if index.len() <= depth {
                index.resize_with(depth + 1, Vec::new);
            }
            index[depth].push(id);
        }
        index
    }

    /// This tree copied node by node in document order, with `graft` called on each copy
    /// (the node's id here, the tree being built, the copy's id there) before the copies
    /// of its children, to add nodes under it: they come first among its children. The
    /// copy keeps this tree's limit and whether it left out rewrites.
    pub fn rebuilt(&self, mut graft: impl FnMut(NodeId, &mut Tree, NodeId)) -> Tree {
        let mut copy = Tree {
            nodes: Vec::with_capacity(self.nodes.len()),
            limit: self.limit,
            rewrites_left_out: self.rewrites_left_out,
        };
        copy.nodes.push(Node {
            children: Vec::new(),
            ..self.nodes[0].clone()
        });
        let root = copy.root();
        graft(self.root(), &mut copy, root);
        let mut stack: Vec<(NodeId, NodeId)> = self.nodes[0]
            .children
            .iter()
            .rev()
            .map(|&child| (child, root))
            .collect();
        while let Some((id, parent)) = stack.pop() {
            let added = copy.push(parent, self.node(id).clone());
            graft(id, &mut copy, added);
            stack.extend(self.node(id).children.iter().rev().map(|&c| (c, added)));
        }
        copy
    }

    /// Nodes at `depth`, in document order.
    pub fn at_depth(&self, depth: u32) -> Vec<NodeId> {
        self.ids()
            .filter(|&id| self.node(id).depth == depth)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A label compares, orders and prints as its text, whether the front end knew it by
    /// heart or read it from the document; a document's names are made once.
    #[test]
    fn labels_are_their_text() {
        let known = Label::from("mi");
        let read = Label::from(String::from("mi"));
        assert_eq!(known, read);
        assert!(known == "mi" && read == *"mi");
        let (a, b) = (Label::from("a"), Label::from(String::from("b")));
        assert!(a < b);
        assert_eq!(b.cmp(&a), std::cmp::Ordering::Greater);
        assert_eq!(format!("{read} {known:?}"), "mi \"mi\"");
        let mut labels = Labels::default();
        let (first, second) = (labels.of("item"), labels.of("item"));
        match (&first.0, &second.0) {
            (LabelText::Read(a), LabelText::Read(b)) => assert!(Arc::ptr_eq(a, b)),
            _ => panic!("a document's name is read"),
        }
    }

    /// What a deletion takes along is shared only when there is any.
    #[test]
    fn along_is_shared_only_when_it_holds_something() {
        assert!(Along::default().shared().is_none());
        let line = Line {
            content: 2..5,
            whole: 0..6,
        };
        let along = Along {
            line: Some(line.clone()),
            ..Along::default()
        }
        .shared();
        let edit = Edit {
            along,
            ..Edit::delete(2..5)
        };
        assert_eq!(edit.line(), Some(&line));
        assert!(edit.hollow().is_none() && edit.separators().is_none());
        assert!(std::mem::size_of::<Edit>() <= 72 && std::mem::size_of::<Node>() <= 160);
    }
}
