//! JavaScript's early errors that tree-sitter does not report and that deletions and
//! unwraps can cause: a private name used where no enclosing class declares it (its field
//! was deleted), a `let`, `const` or `class` name declared twice in one scope, or also by a
//! `var`, a function or a parameter there (an unwrapped block joined two scopes), and a
//! `super()` call in a class that no longer `extends` anything, a `break a` hoisted out of
//! the statement labelled `a`, an `export { a }` without `a`, a `for await` carried into a
//! function that is not async; and one syntax error tree-sitter's grammar lets through:
//! a `try` left with neither `catch` nor `finally` (each may go while the other stays, and
//! a candidate may take both). V8 refuses such a file
//! before running it, so a test that runs it only wastes a call, and a test that does not
//! (a minifier, a formatter) may accept it as the result.
//!
//! A rule is enforced only where the original input keeps it ([`Checks::of`]): a test case
//! for a wrong early error must be reducible too.

use std::collections::BTreeSet;
use std::ops::Range;

use tree_sitter::Node;

use super::profile::rewrite_bytes;

/// The rules a text is held to: those the original keeps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Checks {
    /// Every private name used is declared by an enclosing class.
    pub private_names: bool,
    /// No lexical name is declared twice in a scope.
    pub lexical: bool,
    /// Every `super()` call is in the constructor of a class that `extends` another.
    pub super_calls: bool,
    /// Every `for await` loop is in an async function (or at a module's top level).
    pub for_await: bool,
    /// Every `yield` expression is in a generator (not in an arrow function inside one).
    pub yields: bool,
    /// The original is a module (it imports or exports): a `for await` may stand at its top
    /// level, and still may once the candidate no longer says so.
    pub module: bool,
    /// Every `try` has a `catch` or a `finally`.
    pub tries: bool,
    /// Every name a module's `export { a }` lists is declared at its top level.
    pub exports: bool,
    /// The script does not begin with a `'use strict'` directive (held only to an original
    /// that does not: a hoisted IIFE body would make sloppy code strict).
    pub sloppy_top: bool,
    /// Every `break L` and `continue L` is inside a statement labelled `L` in its function.
    pub labels: bool,
    /// Every `return` is in a function (see [`leaving`]).
    pub returns: bool,
    /// Every `break` is in a loop or a `switch` of its own function, every `continue` in a
    /// loop, and a labelled `continue`'s label is on a loop (see [`leaving`]).
    pub jumps: bool,
    /// Every V8 native (`%Name`, see [`natives`]) is called where it stands: `%Name` alone
    /// is a syntax error for V8, though the reading of it as a name parses.
    pub natives: bool,
    /// No syntax error that tree-sitter's grammar lets through (see [`syntax_at`]): an
    /// `in` at the top of a `for` loop's first clause, an optional chain tagging a
    /// template, called with `new` or assigned to, a `'use strict'` directive in a
    /// function whose parameters are not simple.
    pub syntax: bool,
    /// No expression statement begins with `{`, and no arrow function's body is an object
    /// without brackets (see [`block_at`]).
    pub blocks: bool,
    /// `await`, `yield` and `arguments` are names only where they may be (see
    /// [`Reserved`]).
    pub names: bool,
}

impl Checks {
    /// Every rule.
    pub const ALL: Checks = Checks {
        private_names: true,
        lexical: true,
        super_calls: true,
        for_await: true,
        yields: true,
        module: false,
        tries: true,
        exports: true,
        sloppy_top: true,
        labels: true,
        returns: true,
        jumps: true,
        natives: true,
        syntax: true,
        blocks: true,
        names: true,
    };

    /// The rules both `self` and `other` keep (the rules for several scripts read apart,
    /// a page's, each of which keeps its own): a module's allowances are kept when either
    /// is a module.
    pub fn both(self, other: Checks) -> Checks {
        Checks {
            private_names: self.private_names && other.private_names,
            lexical: self.lexical && other.lexical,
            super_calls: self.super_calls && other.super_calls,
            for_await: self.for_await && other.for_await,
            yields: self.yields && other.yields,
            module: self.module || other.module,
            tries: self.tries && other.tries,
            exports: self.exports && other.exports,
            sloppy_top: self.sloppy_top && other.sloppy_top,
            labels: self.labels && other.labels,
            returns: self.returns && other.returns,
            jumps: self.jumps && other.jumps,
            natives: self.natives && other.natives,
            syntax: self.syntax && other.syntax,
            blocks: self.blocks && other.blocks,
            names: self.names && other.names,
        }
    }

    /// The rules `root` (a tree of `text` without syntax errors) keeps.
    pub fn of(text: &str, root: Node) -> Checks {
        let (returns, jumps) = all_jumps_ok(text, root);
        Checks {
            private_names: private_names_ok(text, root, root),
            lexical: lexical_ok(text, root),
            super_calls: super_calls_ok(text, root),
            // A module's top level may hold a `for await` loop.
            for_await: for_await_ok(text, root, root, is_module(root)),
            yields: yields_ok(text, root, root),
            module: is_module(root),
            tries: tries_ok(text, root),
            exports: exports_ok(text, root),
            sloppy_top: !strict_top(text, root),
            labels: labels_ok(text, root, root),
            returns,
            jumps,
            natives: natives_ok(text, root),
            syntax: syntax_ok(text, root),
            blocks: blocks_ok(text, root),
            names: names_ok(text, root, Reserved::top(is_module(root))),
        }
    }

    /// True when a text whose tree is under `root` reads as a module: the original did, or
    /// the text itself imports or exports.
    fn module_at(self, root: Node) -> bool {
        self.module || is_module(root)
    }

    /// True when no rule is enforced.
    pub fn none(self) -> bool {
        !self.private_names
            && !self.lexical
            && !self.super_calls
            && !self.for_await
            && !self.yields
            && !self.tries
            && !self.exports
            && !self.sloppy_top
            && !self.labels
            && !self.returns
            && !self.jumps
            && !self.natives
            && !self.syntax
            && !self.blocks
            && !self.names
    }

    /// The first broken rule in the whole tree, as a message, or `None`.
    pub fn violation(self, text: &str, root: Node) -> Option<&'static str> {
        if self.private_names && !private_names_ok(text, root, root) {
            return Some(PRIVATE);
        }
        if self.lexical && !lexical_ok(text, root) {
            return Some(LEXICAL);
        }
        if self.super_calls && !super_calls_ok(text, root) {
            return Some(SUPER);
        }
        if self.for_await && !for_await_ok(text, root, root, self.module_at(root)) {
            return Some(FOR_AWAIT);
        }
        if self.yields && !yields_ok(text, root, root) {
            return Some(YIELD);
        }
        if self.tries && !tries_ok(text, root) {
            return Some(TRY);
        }
        if self.exports && !exports_ok(text, root) {
            return Some(EXPORTS);
        }
        if self.sloppy_top && strict_top(text, root) {
            return Some(STRICT);
        }
        if self.labels && !labels_ok(text, root, root) {
            return Some(LABELS);
        }
        if self.returns || self.jumps {
            let (returns, jumps) = all_jumps_ok(text, root);
            if (self.returns && !returns) || (self.jumps && !jumps) {
                return Some(JUMPS);
            }
        }
        if self.natives && !natives_ok(text, root) {
            return Some(NATIVES);
        }
        if self.syntax && !syntax_ok(text, root) {
            return Some(SYNTAX);
        }
        if self.blocks && !blocks_ok(text, root) {
            return Some(BLOCKS);
        }
        if self.names && !names_ok(text, root, Reserved::top(self.module_at(root))) {
            return Some(NAMES);
        }
        None
    }

    /// The first broken rule in the scopes around the byte offsets `at` (where a text was
    /// edited), as a message, or `None`. Only those scopes can have changed: for each
    /// offset, the nearest scope holding it (an offset between two statements belongs to
    /// their list), the outermost class body and the nearest class around it.
    pub fn violation_near(self, text: &str, root: Node, at: &[usize]) -> Option<&'static str> {
        if self.none() {
            return None;
        }
        let mut at = at.to_vec();
        at.sort_unstable();
        at.dedup();
        let found = surroundings(text, root, &at, self.module_at(root));
        // A hoist may also take a class out of the one that declares its private names:
        // what begins at an edit is looked at too.
        if self.private_names
            && (found
                .bodies
                .iter()
                .any(|&c| !private_names_ok(text, root, c))
                || found
                    .starting
                    .iter()
                    .any(|(n, _)| !private_names_ok(text, root, *n)))
        {
            return Some(PRIVATE);
        }
        if self.lexical && found.scopes.iter().any(|&s| !scope_ok(text, s)) {
            return Some(LEXICAL);
        }
        if self.super_calls && found.classes.iter().any(|&c| !class_ok(text, c)) {
            return Some(SUPER);
        }
        // A hoist carries a loop out of its function into the scope around the edit.
        let module = self.module_at(root);
        if self.for_await
            && found
                .scopes
                .iter()
                .any(|&s| !for_await_ok(text, root, s, module))
        {
            return Some(FOR_AWAIT);
        }
        // A hoist carries a `yield` out of its generator.
        if self.yields && found.scopes.iter().any(|&s| !yields_ok(text, root, s)) {
            return Some(YIELD);
        }
        // The `catch` and the `finally` of a `try` both went: the edit stands right after
        // its block.
        if self.tries && !tries_near_ok(text, root, &at) {
            return Some(TRY);
        }
        // The rules of the top level, when an edit touched it (an export's declaration in
        // a block there is missed).
        let top = found.scopes.iter().any(|s| s.id() == root.id());
        if self.exports && top && !exports_ok(text, root) {
            return Some(EXPORTS);
        }
        if self.sloppy_top && top && strict_top(text, root) {
            return Some(STRICT);
        }
        // A hoist carries a `break L` out of the statement labelled `L` into the scope
        // around the edit (the label check of a `b:` inside it let it through).
        if self.labels && found.scopes.iter().any(|&s| !labels_ok(text, root, s)) {
            return Some(LABELS);
        }
        // A hoist may carry a `return` from an inner function into an outer one (and a
        // `break` from a loop into one around it), while another edit of the same candidate
        // hoists what held it out of that outer one too: what it became begins at an edit.
        if (self.returns || self.jumps)
            && found
                .starting
                .iter()
                .any(|(n, have)| !leaving(text, *n).met_by(have, self.returns, self.jumps))
        {
            return Some(JUMPS);
        }
        // A hoist takes a native out of its call (`%F(f)` as `%F`): found in the text,
        // which holds few `%`.
        if self.natives && !natives_ok(text, root) {
            return Some(NATIVES);
        }
        // An edit can make such an error only in a node it lies in: a `for` loop whose
        // first clause it rewrote, an assignment whose target lost its brackets, a
        // function whose body lost what stood before its `'use strict'`.
        if self.syntax && !found.around.iter().all(|&n| syntax_at(text, n)) {
            return Some(SYNTAX);
        }
        // A deletion left an object first in its statement (`a, { b: 1, c: 2 };` without
        // `a, `): the statement begins at the edit.
        if self.blocks && !found.around.iter().all(|&n| block_at(text, n)) {
            return Some(BLOCKS);
        }
        // A hoist carries a function's code into an async function, a generator or a
        // static block around it (`function g() { await; }` inside an async one).
        if self.names
            && found
                .starting
                .iter()
                .any(|(n, have)| have.reserved.any() && !names_ok(text, *n, have.reserved))
        {
            return Some(NAMES);
        }
        None
    }
}

/// What surrounds a set of offsets (see [`surroundings`]), each node once.
#[derive(Default)]
struct Surroundings<'t> {
    /// The nearest scope of each offset.
    scopes: Vec<Node<'t>>,
    /// The outermost class body around each offset.
    bodies: Vec<Node<'t>>,
    /// The nearest class around each offset.
    classes: Vec<Node<'t>>,
    /// Every node holding an offset that [`syntax_at`] looks at.
    around: Vec<Node<'t>>,
    /// The outermost node beginning at each offset (what a hoist kept, for one), but the
    /// root, and its siblings after it up to the next offset (an unwrapped block's other
    /// statements), each with what stands around it in its function.
    starting: Vec<(Node<'t>, Around<'t>)>,
}

/// `node` and, down from it, its first (or last) child, that child's, and so on: the
/// nodes that begin (or end) where it does.
fn spine(node: Node, from_start: bool) -> impl Iterator<Item = Node> {
    std::iter::successors(Some(node), move |n| {
        let count = n.child_count();
        let child = if from_start { 0 } else { count.checked_sub(1)? };
        n.child(child)
    })
}

/// A node to visit: the offsets strictly inside it, and the nearest scope, the outermost
/// class body and the nearest class around it.
struct Visit<'t, 'a> {
    node: Node<'t>,
    offsets: &'a [usize],
    scope: Option<Node<'t>>,
    body: Option<Node<'t>>,
    class: Option<Node<'t>>,
    /// What stands around the node in its function, for its jumps.
    around: Around<'t>,
}

/// The surroundings of the sorted offsets `at`. One walk down from `root` that enters only
/// the nodes strictly holding an offset and reads each node's children once: a candidate
/// that deletes a thousand statements of one list costs one pass over that list, and no
/// node's parent is asked for (tree-sitter finds a parent by walking down from the root).
fn surroundings<'t>(text: &'t str, root: Node<'t>, at: &[usize], module: bool) -> Surroundings<'t> {
    let mut found = Surroundings::default();
    let mut stack = vec![Visit {
        node: root,
        offsets: at,
        scope: None,
        body: None,
        class: None,
        around: Around {
            reserved: Reserved::top(module),
            ..Around::default()
        },
    }];
    while let Some(visit) = stack.pop() {
        let node = visit.node;
        let kind = node.kind();
        let scope = if is_scope(kind) {
            Some(node)
        } else {
            visit.scope
        };
        let body = visit.body.or((kind == "class_body").then_some(node));
        let class = if is_class(kind) {
            Some(node)
        } else {
            visit.class
        };
        // Each node is visited once: through its parent, with the offsets inside it.
        if SYNTAX_KINDS.contains(&kind) {
            found.around.push(node);
        }
        let mut around = visit.around;
        around.enter(text, node);
        let mut rest = visit.offsets;
        let mut stops_here = false;
        let mut cursor = node.walk();
        // Children that begin before this, after one that begins at an offset, are looked
        // at with it (see `Surroundings::starting`).
        let mut until = 0;
        for child in node.children(&mut cursor) {
            let start = child.start_byte();
            if rest.is_empty() && start >= until {
                break;
            }
            // A hoist's edits end where its new text begins and ends, so the statement it
            // became holds neither: what begins or ends at an offset is looked at too.
            if let Ok(i) = rest.binary_search(&start) {
                found.starting.push((child, around.clone()));
                until = rest.get(i + 1).copied().unwrap_or(start);
            } else if start < until && child.is_named() {
                found.starting.push((child, around.clone()));
            }
            for (at, from_start) in [(start, true), (child.end_byte(), false)] {
                if rest.binary_search(&at).is_ok() {
                    found.around.extend(
                        spine(child, from_start).filter(|n| SYNTAX_KINDS.contains(&n.kind())),
                    );
                }
            }
            let before = rest.partition_point(|&p| p <= child.start_byte());
            stops_here |= before > 0;
            rest = &rest[before..];
            let inside = rest.partition_point(|&p| p < child.end_byte());
            if inside > 0 {
                stack.push(Visit {
                    node: child,
                    offsets: &rest[..inside],
                    scope,
                    body,
                    class,
                    around: around.clone(),
                });
            }
            rest = &rest[inside..];
        }
        if stops_here || !rest.is_empty() {
            for (near, list) in [
                (scope, &mut found.scopes),
                (body, &mut found.bodies),
                (class, &mut found.classes),
            ] {
                if let Some(near) = near
                    && !list.iter().any(|n| n.id() == near.id())
                {
                    list.push(near);
                }
            }
        }
    }
    found
}

fn is_class(kind: &str) -> bool {
    matches!(kind, "class_declaration" | "class")
}

/// True when every class below `root` keeps its `super()` calls in its constructor, and
/// `extends` another when it has any (see [`class_ok`]).
fn super_calls_ok(text: &str, root: Node) -> bool {
    if !text[root.byte_range()].contains("super") {
        return true;
    }
    descendants(root)
        .filter(|n| is_class(n.kind()))
        .all(|class| class_ok(text, class))
}

/// True when every `for await` loop below `root` has an async function around it, or, in
/// a `module`, no function at all (its top level). `top` is the tree's root, from which
/// what lies around a node is read (see [`ancestors`]).
fn for_await_ok<'t>(text: &str, top: Node<'t>, root: Node<'t>, module: bool) -> bool {
    if !mentions_for_await(&text[root.byte_range()]) {
        return true;
    }
    descendants(root)
        .filter(|n| n.kind() == "for_in_statement" && has_token(*n, "await"))
        .all(|lp| {
            // A class's static block is no function, and no top level either.
            let around =
                ancestors(top, lp).find(|n| is_function(n.kind()) || n.kind() == STATIC_BLOCK);
            match around {
                Some(f) => f.kind() != STATIC_BLOCK && has_token(f, "async"),
                None => module,
            }
        })
}

const STATIC_BLOCK: &str = "class_static_block";

/// True when one of `node`'s own children is the token `token` (`async`, `*`, `await`).
fn has_token(node: Node, token: &str) -> bool {
    let mut cursor = node.walk();
    node.children(&mut cursor).any(|c| c.kind() == token)
}

/// True when the function `function` is a generator (a method one by its `*`).
fn is_generator(function: Node) -> bool {
    matches!(
        function.kind(),
        "generator_function" | "generator_function_declaration"
    ) || (function.kind() == "method_definition" && has_token(function, "*"))
}

/// True when every `yield` expression below `root` has a generator around it: the nearest
/// function (an arrow function or a class's static block is no generator) of which it is
/// not in the computed name (`function* g() { class { [yield]() {} } }`). `top` is the
/// tree's root (see [`ancestors`]).
fn yields_ok<'t>(text: &str, top: Node<'t>, root: Node<'t>) -> bool {
    if !mentions_keyword(&text[root.byte_range()], "yield") {
        return true;
    }
    descendants(root)
        .filter(|n| n.kind() == "yield_expression")
        .all(|y| {
            let mut inner = y;
            for n in ancestors(top, y).skip(1) {
                let named_by = n.child_by_field_name("name").is_some_and(|name| {
                    name.start_byte() <= inner.start_byte() && inner.end_byte() <= name.end_byte()
                });
                inner = n;
                if n.kind() == STATIC_BLOCK {
                    return false;
                }
                if !is_function(n.kind()) || named_by {
                    continue;
                }
                return is_generator(n);
            }
            false
        })
}

/// True when every `try` below `root` keeps a `catch` or a `finally`.
fn tries_ok(text: &str, root: Node) -> bool {
    !mentions_keyword(&text[root.byte_range()], "try")
        || descendants(root)
            .filter(|n| n.kind() == "try_statement")
            .all(try_ok)
}

/// True when `try` keeps a `catch` or a `finally`.
fn try_ok(try_statement: Node) -> bool {
    try_statement.child_by_field_name("handler").is_some()
        || try_statement.child_by_field_name("finalizer").is_some()
}

/// [`tries_ok`] for the `try` statements around the last token before each edit at `at`
/// (a `try` that lost its `catch` and `finally` ends with its block right before the
/// edit), without a walk of the whole scope: lodash's candidates took 0.4 ms more each.
fn tries_near_ok(text: &str, root: Node, at: &[usize]) -> bool {
    // Without a `try` in the text there is none to check, and the walks, each as long as
    // the tree is deep, are spared (a candidate of thousands of hoists in a chain of calls
    // thousands deep took a second).
    if !text.contains("try") {
        return true;
    }
    at.iter().all(|&p| {
        let before = text.get(..p).map_or(text.len(), |t| t.trim_end().len());
        if before == 0 {
            return true;
        }
        root.descendant_for_byte_range(before - 1, before)
            .is_none_or(|token| {
                ancestors(root, token)
                    .filter(|n| n.kind() == "try_statement")
                    .all(try_ok)
            })
    })
}

/// True when `text` may hold a `for await` loop: `await` after `for` and spaces (a
/// comment between them is missed, which only lets such a loop through unchecked).
fn mentions_for_await(text: &str) -> bool {
    text.match_indices("await").any(|(at, _)| {
        let before = text[..at].trim_end();
        before.ends_with("for") && !ends_in_a_name(&before[..before.len() - 3])
    })
}

/// True when `text` holds `word` not as the end of a longer name (`entry` holds no `try`).
/// A name that merely begins with `word` (`tryAgain`) counts: the check only spares walks.
fn mentions_keyword(text: &str, word: &str) -> bool {
    text.match_indices(word)
        .any(|(at, _)| !ends_in_a_name(&text[..at]))
}

/// True when `text` ends with a character of a name, so that a keyword right after it
/// would be part of that name (`entry`, `platform`).
pub(crate) fn ends_in_a_name(text: &str) -> bool {
    text.chars().next_back().is_some_and(is_name_char)
}

/// True when `c` may stand inside a JavaScript name (ASCII `$` and `_` and any letter or
/// digit; the rarer joiners are left out, which only makes a check run more often).
pub(crate) fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

fn is_function(kind: &str) -> bool {
    matches!(
        kind,
        "function_declaration"
            | "function_expression"
            | "arrow_function"
            | "method_definition"
            | "generator_function"
            | "generator_function_declaration"
    )
}

/// True when no member of `class` calls `super()` but its constructor, and that only when
/// it `extends` another. A member's calls are those in its parameters, body or value,
/// arrow functions included, other functions and classes not; its name aside (a computed
/// key is evaluated around the class). A constructor may be named by a string.
fn class_ok(text: &str, class: Node) -> bool {
    let Some(body) = class.child_by_field_name("body") else {
        return true;
    };
    if !text[body.byte_range()].contains("super") {
        return true;
    }
    let mut cursor = class.walk();
    let extends = class
        .named_children(&mut cursor)
        .any(|c| c.kind() == "class_heritage");
    let members: Vec<Node> = body.named_children(&mut cursor).collect();
    members.into_iter().all(|member| {
        let constructor = member.kind() == "method_definition"
            && member.child_by_field_name("name").is_some_and(|n| {
                matches!(
                    &text[n.byte_range()],
                    "constructor" | "'constructor'" | "\"constructor\""
                )
            });
        (constructor && extends) || !calls_super(member)
    })
}

/// True when the class member `member` calls `super()` itself (see [`class_ok`]).
fn calls_super(member: Node) -> bool {
    let name = member
        .child_by_field_name("name")
        .or_else(|| member.child_by_field_name("property"))
        .map(|n| n.id());
    let mut cursor = member.walk();
    let mut stack: Vec<Node> = member
        .named_children(&mut cursor)
        .filter(|c| Some(c.id()) != name)
        .collect();
    while let Some(node) = stack.pop() {
        if node.kind() == "call_expression"
            && node
                .child_by_field_name("function")
                .is_some_and(|f| f.kind() == "super")
        {
            return true;
        }
        let mut inner = node.walk();
        stack.extend(node.named_children(&mut inner).filter(|c| {
            !is_class(c.kind()) && (c.kind() == "arrow_function" || !is_function(c.kind()))
        }));
    }
    false
}

const PRIVATE: &str = "a private name is used where no enclosing class declares it";
const LEXICAL: &str = "a lexical name is declared twice in one scope";
const SUPER: &str = "super() is called outside the constructor of a class that extends another";
const FOR_AWAIT: &str = "a for await loop is outside an async function";
const TRY: &str = "a try has neither catch nor finally";
const YIELD: &str = "a yield is outside a generator";
const EXPORTS: &str = "an export lists a name the module does not declare";
const STRICT: &str = "a 'use strict' directive reached the top of a sloppy script";
const LABELS: &str = "a break or continue names a label that does not enclose it";
const JUMPS: &str = "a return is outside a function, a break or continue outside what it leaves, or a label inside another of the same name";
const NATIVES: &str = "a V8 native (%Name) is not called";
const NAMES: &str = "await, yield or arguments stands as a name where it may not (in an async function, a generator, a static block)";
const BLOCKS: &str = "an object literal begins a statement or is an arrow function's body without brackets, where it reads as a block";
const SYNTAX: &str = "a syntax error tree-sitter lets through (an `in` in a for loop's first clause, a misused optional chain, 'use strict' beside non-simple parameters, an expression statement that begins with `function`, `class` or `let [`, a destructuring declaration without a value, a bracketed assignment target that is no name or member, an untagged template with an escape only a tagged one may hold, a for-of target that begins with `let` or is `async`, or a default export that begins with `function` or `class` and goes on)";

/// The kinds of node [`syntax_at`] looks at.
const SYNTAX_KINDS: &[&str] = &[
    "expression_statement",
    "variable_declarator",
    "for_statement",
    "for_in_statement",
    "call_expression",
    "new_expression",
    "assignment_expression",
    "augmented_assignment_expression",
    "update_expression",
    "function_declaration",
    "function_expression",
    "arrow_function",
    "method_definition",
    "generator_function",
    "generator_function_declaration",
    "template_string",
    "export_statement",
];

/// True when no node below `root` is a syntax error that [`syntax_at`] finds.
fn syntax_ok(text: &str, root: Node) -> bool {
    descendants(root).all(|n| syntax_at(text, n))
}

/// False when `node` is a syntax error that tree-sitter's grammar lets through:
/// - a `for` loop whose first clause holds an `in` outside any brackets (`for (0 in b;;)`,
///   where a hoist took `"x" in b` out of a call): the grammar reads a `for`-`in` there;
/// - an optional chain (`a?.b`) outside brackets that tags a template (``a?.b`t` ``), is
///   called with `new`, or is assigned to (`a?.b.c = 1`, `a?.b++`, `for (a?.b of c)`):
///   brackets the reduction took away had made it legal;
/// - a function with default, destructured or rest parameters whose body begins with a
///   `'use strict'` directive (the statements before it went);
/// - an expression statement that begins with `function`, `async function`, `class` or
///   `let [` (`function () {}` without a name, after
///   hoists in one candidate took away what stood before it), which V8 reads as a
///   declaration;
/// - a destructuring pattern declared without a value (`let[a];`, which tree-sitter reads
///   as a declaration once `(let[a])` lost its brackets);
/// - a target of an assignment, `++`, `--` or a `for`-`in` loop in brackets around what is
///   neither a name nor a member (see [`bracketed_target_ok`]);
/// - an untagged template with an escape only a tagged one may hold (see [`template_ok`]);
/// - a `for`-`of` target that begins with `let` or is `async` (see
///   [`lookahead_of_for_of`]);
/// - a default export of an expression that begins with `function` or `class` and goes on
///   (`export default function () {}.x`), which V8 reads as a declaration.
fn syntax_at(text: &str, node: Node) -> bool {
    match node.kind() {
        "expression_statement" => !reads_as_declaration(&text[node.byte_range()]),
        "variable_declarator" => {
            node.child_by_field_name("value").is_some()
                || node
                    .child_by_field_name("name")
                    .is_none_or(|n| !matches!(n.kind(), "array_pattern" | "object_pattern"))
        }
        "for_statement" => node
            .child_by_field_name("initializer")
            .is_none_or(|init| !bare_in(text, init)),
        "call_expression" => {
            !(tagged_template(node).is_some()
                && node
                    .child_by_field_name("function")
                    .is_some_and(optional_chain))
        }
        "new_expression" => node
            .child_by_field_name("constructor")
            .is_none_or(|c| !optional_chain(c)),
        "assignment_expression" | "augmented_assignment_expression" => node
            .child_by_field_name("left")
            .is_none_or(|l| !optional_chain(l) && bracketed_target_ok(l)),
        "for_in_statement" => node.child_by_field_name("left").is_none_or(|l| {
            !optional_chain(l) && bracketed_target_ok(l) && !lookahead_of_for_of(text, node, l)
        }),
        "export_statement" => node.child_by_field_name("value").is_none_or(|v| {
            matches!(
                v.kind(),
                "function_expression" | "class" | "generator_function"
            ) || !reads_as_declaration(&text[v.byte_range()])
        }),
        "update_expression" => node
            .child_by_field_name("argument")
            .is_none_or(|a| !optional_chain(a) && bracketed_target_ok(a)),
        kind if is_function(kind) => !strict_beside_non_simple(text, node),
        "template_string" => template_ok(text, node),
        _ => true,
    }
}

/// False when `template` is untagged and holds an escape only a tagged one may (a hoist
/// took ``String.raw`C:\users\1` `` out of its call): a `\u` or `\x` without its hex
/// digits (see [`raw_only_escapes`]), or a digit other than a `\0` that no digit follows.
fn template_ok(text: &str, template: Node) -> bool {
    let tagged = template
        .parent()
        .and_then(tagged_template)
        .is_some_and(|t| t.id() == template.id());
    if tagged {
        return true;
    }
    // The text between substitutions, each part read on its own.
    let mut cursor = template.walk();
    let mut from = template.start_byte();
    let mut parts = Vec::new();
    for sub in template.children(&mut cursor) {
        if sub.kind() == "template_substitution" {
            parts.push(from..sub.start_byte());
            from = sub.end_byte();
        }
    }
    parts.push(from..template.end_byte());
    parts.into_iter().all(|part| {
        let own = &text[part];
        let bytes = own.as_bytes();
        escapes(own).all(|at| match bytes[at] {
            b'0' => !bytes.get(at + 1).is_some_and(u8::is_ascii_digit),
            b'1'..=b'9' => false,
            _ => hex_escape_ok(bytes, at),
        })
    })
}

/// True when no node below `root` reads as a block where tree-sitter sees an object (see
/// [`block_at`]).
fn blocks_ok(text: &str, root: Node) -> bool {
    descendants(root).all(|n| block_at(text, n))
}

/// False when `node` is an expression statement that begins with `{` or an arrow function
/// whose body is an object literal without brackets. tree-sitter reads an object there
/// (`{ a: 1 }`), engines a block (the label `a` on the statement `1;`), and
/// `{ b: 1, c: 2 };`, which a deletion makes of `a, { b: 1, c: 2 };`, is no JavaScript.
/// An original that holds such a misreading has it left whole (the profile's `opaque`),
/// and is reduced without this rule.
fn block_at(text: &str, node: Node) -> bool {
    match node.kind() {
        "expression_statement" => !text[node.byte_range()].starts_with('{'),
        "arrow_function" => node
            .child_by_field_name("body")
            .is_none_or(|b| b.kind() != "object"),
        _ => true,
    }
}

/// The template `call` tags (``tag`x` ``), when it is such a call.
fn tagged_template(call: Node) -> Option<Node> {
    (call.kind() == "call_expression")
        .then(|| call.child_by_field_name("arguments"))
        .flatten()
        .filter(|a| a.kind() == "template_string")
}

/// True when `left`, the target of the loop `node`, is one a `for`-`of` loop's target may
/// not begin with: `let` (`for (let.x of y)`, once a hoist took `(let).x` out of its
/// brackets), or `async` alone (`for (async of y)`); V8 reads the first as a declaration
/// and the second as an arrow function.
fn lookahead_of_for_of(text: &str, node: Node, left: Node) -> bool {
    let of = node
        .child_by_field_name("operator")
        .is_some_and(|o| &text[o.byte_range()] == "of");
    let declares = node.child_by_field_name("kind").is_some();
    let target = &text[left.byte_range()];
    of && !declares && (after_word(target, "let").is_some() || target == "async")
}

/// True when `statement`, the text of an expression statement, begins as a declaration
/// does: with the keyword `function` or `class`, `async` and `function` on one line, or
/// `let` and `[`.
fn reads_as_declaration(statement: &str) -> bool {
    if [
        after_word(statement, "function"),
        after_word(statement, "class"),
    ]
    .iter()
    .any(Option::is_some)
    {
        return true;
    }
    if let Some(rest) = after_word(statement, "async") {
        return after_word(rest.trim_start_matches([' ', '\t']), "function").is_some();
    }
    after_word(statement, "let").is_some_and(|rest| rest.trim_start().starts_with('['))
}

/// What follows `text`'s first word when that word is `word`.
fn after_word<'t>(text: &'t str, word: &str) -> Option<&'t str> {
    text.strip_prefix(word)
        .filter(|rest| !rest.starts_with(is_name_char))
}

/// True when the expression (or declaration) `node` holds a binary `in` where a `for`
/// loop's first clause does not allow one: not inside brackets, a call's arguments, a
/// template, an object, a function body or a conditional's middle.
fn bare_in(text: &str, node: Node) -> bool {
    if !text[node.byte_range()].contains("in") {
        return false;
    }
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        let field = |name: &str| n.child_by_field_name(name);
        match n.kind() {
            "binary_expression" => {
                if field("operator").is_some_and(|o| &text[o.byte_range()] == "in") {
                    return true;
                }
                stack.extend(field("left"));
                stack.extend(field("right"));
            }
            "assignment_expression" | "augmented_assignment_expression" => {
                stack.extend(field("right"));
            }
            "ternary_expression" => {
                stack.extend(field("condition"));
                stack.extend(field("alternative"));
            }
            "arrow_function" => {
                stack.extend(field("body").filter(|b| b.kind() != "statement_block"));
            }
            "variable_declarator" => stack.extend(field("value")),
            "sequence_expression"
            | "unary_expression"
            | "update_expression"
            | "await_expression"
            | "yield_expression"
            | "variable_declaration"
            | "lexical_declaration"
            | "expression_statement" => {
                let mut cursor = n.walk();
                stack.extend(n.named_children(&mut cursor));
            }
            _ => {}
        }
    }
    false
}

/// False when `target`, what is assigned to, is in brackets around anything but a name or
/// a member (`(a[1]) = 2` is fine, `(1) = 2` is not): tree-sitter reads any expression in
/// brackets there, and a hoist inside them took `a[1]` to `1`.
fn bracketed_target_ok(target: Node) -> bool {
    let mut inner = target;
    while inner.kind() == "parenthesized_expression" {
        let mut cursor = inner.walk();
        let Some(content) = inner.named_children(&mut cursor).find(|c| !c.is_extra()) else {
            return false;
        };
        inner = content;
    }
    inner.id() == target.id()
        || (matches!(
            inner.kind(),
            "identifier" | "member_expression" | "subscript_expression"
        ) && !optional_chain(inner))
}

/// True when the member access, subscript or call `node` reads an optional chain outside
/// brackets (`a?.b.c`, `a?.[0]`, `a?.()`).
fn optional_chain(node: Node) -> bool {
    let mut n = node;
    loop {
        let next = match n.kind() {
            "member_expression" | "subscript_expression" => n.child_by_field_name("object"),
            "call_expression" => n.child_by_field_name("function"),
            _ => return false,
        };
        if has_token(n, "optional_chain") {
            return true;
        }
        match next {
            Some(next) => n = next,
            None => return false,
        }
    }
}

/// True when `function`'s parameters are not all plain names and its body's directives
/// include `'use strict'`.
fn strict_beside_non_simple(text: &str, function: Node) -> bool {
    let Some(body) = function
        .child_by_field_name("body")
        .filter(|b| b.kind() == "statement_block")
    else {
        return false;
    };
    let Some(parameters) = function.child_by_field_name("parameters") else {
        return false;
    };
    let mut cursor = parameters.walk();
    let simple = parameters
        .named_children(&mut cursor)
        .all(|p| matches!(p.kind(), "identifier" | "comment"));
    !simple && strict_top(text, body)
}

/// Where `text` holds V8's native syntax (`%OptimizeFunctionOnNextCall(f)`, in engine
/// tests run with `--allow-natives-syntax`): each `%` that stands where an expression
/// begins with a name after it (spaces between them aside). That is first in the text, or after an operator (not a
/// postfix `++` or `--`), an opening bracket, `,`, `;`, `{`, `}`, the head of an `if`,
/// `while`, `for` or `with`, or a keyword that takes an expression (`return
/// %GetOptimizationStatus(f)`). After a name, a number, a closing bracket or a quote a `%`
/// is the remainder operator, as V8 reads it (`a %b`, also across a line break, where no
/// semicolon is inserted). A `%` in a string, comment or regular expression may be
/// counted too: the reading of it as `$` changes nothing there.
pub fn natives(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    let starts_expression = move |at: usize| {
        let before = text[..at].trim_end();
        let Some(&last) = before.as_bytes().last() else {
            return true;
        };
        // `i++ %n`: a postfix `++` or `--` ends an operand.
        if before.ends_with("++") || before.ends_with("--") {
            return false;
        }
        if b"(,;{}[=!&|?:+-*/%<>~^".contains(&last) {
            return true;
        }
        if last == b')' {
            // The head of an `if`, `while`, `for` or `with`: a statement follows.
            return opening_of(before).is_some_and(|open| {
                let head = text[..open].trim_end();
                ["if", "while", "for", "with"]
                    .iter()
                    .any(|k| head.ends_with(k) && !ends_in_a_name(&head[..head.len() - k.len()]))
            });
        }
        // The word `before` ends with: ASCII, so its start is a character boundary.
        let word_start = before
            .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$')
            .len();
        let keyword = [
            "return",
            "typeof",
            "void",
            "throw",
            "yield",
            "await",
            "case",
            "delete",
            "in",
            "of",
            "instanceof",
            "new",
            "else",
            "do",
        ]
        .contains(&&before[word_start..]);
        // A keyword, not a property of that name (`a.return %b`).
        keyword && !before[..word_start].ends_with('.')
    };
    text.match_indices('%')
        .map(|(at, _)| at)
        .filter(move |&at| {
            // Spaces may stand between the `%` and the name (clang-format writes
            // `% PrepareFunctionForOptimization(f)`).
            let name = at + 1 + blanks_after(bytes, at + 1);
            bytes
                .get(name)
                .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_')
                && starts_expression(at)
        })
}

/// `text` with V8's native calls (see [`natives`]) read as calls of a name that begins
/// with `$` (and `_` for the spaces after the `%`): tree-sitter knows no `%` there. Every
/// node keeps its span, and the check `natives` holds each one to a call (`%F` alone is
/// no JavaScript for V8).
pub fn read_natives(text: &str) -> std::borrow::Cow<'_, str> {
    let mut at = natives(text).peekable();
    if at.peek().is_none() {
        return std::borrow::Cow::Borrowed(text);
    }
    // Only ASCII `%`, spaces and tabs become ASCII `$` and `_`.
    std::borrow::Cow::Owned(rewrite_bytes(text, |read| {
        for i in at {
            // `% F(` is read `$_F(`: one name, as long.
            read[i] = b'$';
            let blanks = blanks_after(text.as_bytes(), i + 1);
            read[i + 1..i + 1 + blanks].fill(b'_');
        }
    }))
}

/// `text` as tree-sitter is given it: with V8's natives read as names (see
/// [`read_natives`]) and with every escape that only a tagged template may hold (see
/// [`raw_only_escapes`]) read as `\\`. The grammar knows no `\u` without its hex digits
/// and reads an ERROR there, while ``String.raw`\usepackage` `` is JavaScript. Byte for
/// byte as long: every node keeps its span, and the rule `syntax` holds such escapes to
/// tagged templates (see [`template_ok`]).
pub fn read_javascript(text: &str) -> std::borrow::Cow<'_, str> {
    let natives = read_natives(text);
    let mut escapes = raw_only_escapes(text).peekable();
    if escapes.peek().is_none() {
        return natives;
    }
    // Only ASCII letters become ASCII backslashes.
    std::borrow::Cow::Owned(rewrite_bytes(&natives, |read| {
        for at in escapes {
            read[at] = b'\\';
        }
    }))
}

/// `text` (as parsed into `tree`) with every `<!--` that begins a comment read as `//--`,
/// when tree-sitter took one for code (see [`html_open_comments`]); `None` when it did not.
pub fn reread_javascript(text: &str, tree: &tree_sitter::Tree) -> Option<String> {
    let comments = html_open_comments(text, tree.root_node());
    if comments.is_empty() {
        return None;
    }
    // Only ASCII `<!` becomes ASCII `//`.
    Some(rewrite_bytes(text, |bytes| {
        for at in comments {
            bytes[at..at + 2].copy_from_slice(b"//");
        }
    }))
}

/// The offsets of the `<!--` in `text` (parsed into `root`) that begin a comment to the end
/// of the line, as engines read a script (not a module), and that tree-sitter took for
/// code: each one outside a string, a template, a regular expression and a comment.
/// tree-sitter reads one as a comment in some places only, and after a `}` or a statement
/// without its `;` as `<`, `!` and `--` (a hunt's `function keep(){}\n<!-- note` lost
/// `--note` to a `0`).
fn html_open_comments(text: &str, root: Node) -> Vec<usize> {
    let found: Vec<usize> = text.match_indices("<!--").map(|(at, _)| at).collect();
    if found.is_empty() || is_module(root) {
        return Vec::new();
    }
    let read_well = |at: usize| {
        std::iter::successors(root.descendant_for_byte_range(at, at + 1), Node::parent).any(|n| {
            matches!(
                n.kind(),
                "string" | "template_string" | "regex" | "comment" | "html_comment"
            )
        })
    };
    found.into_iter().filter(|&at| !read_well(at)).collect()
}

/// The offsets of the letters of the escapes in `text` that JavaScript allows only in a
/// tagged template: `\u` and `\x` without the hex digits they need (`\usepackage`,
/// `\xyz`, `\u{110000}`). A backslash escapes the character after it, so only the last
/// of an odd run of backslashes begins an escape, in strings, templates, regular
/// expressions and comments alike.
pub fn raw_only_escapes(text: &str) -> impl Iterator<Item = usize> + '_ {
    escapes(text).filter(|&at| !hex_escape_ok(text.as_bytes(), at))
}

/// The offsets of the characters that backslashes in `text` escape.
fn escapes(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    let mut from = 0;
    std::iter::from_fn(move || {
        let slash = from + bytes.get(from..)?.iter().position(|&b| b == b'\\')?;
        from = slash + 2;
        // A backslash that ends the text escapes nothing.
        (slash + 1 < bytes.len()).then_some(slash + 1)
    })
}

/// False when the escape whose letter is at `at` is a `\u` or `\x` without the hex digits
/// it needs: four after `u`, or any in braces that stand for at most U+10FFFF; two after `x`.
fn hex_escape_ok(bytes: &[u8], at: usize) -> bool {
    let hex = |from: usize| {
        bytes.get(from..).map_or(0, |r| {
            r.iter().take_while(|b| b.is_ascii_hexdigit()).count()
        })
    };
    match bytes[at] {
        b'x' => hex(at + 1) >= 2,
        b'u' if bytes.get(at + 1) == Some(&b'{') => {
            let digits = hex(at + 2);
            let closed = digits > 0 && bytes.get(at + 2 + digits) == Some(&b'}');
            let value = bytes[at + 2..at + 2 + digits]
                .iter()
                .try_fold(0u32, |v, &b| {
                    v.checked_mul(16)?.checked_add(char::from(b).to_digit(16)?)
                });
            closed && value.is_some_and(|v| v <= 0x10FFFF)
        }
        b'u' => hex(at + 1) >= 4,
        _ => true,
    }
}

/// The number of spaces and tabs in `bytes` from `from` on.
fn blanks_after(bytes: &[u8], from: usize) -> usize {
    bytes.get(from..).map_or(0, |rest| {
        rest.iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count()
    })
}

/// Where the `(` is that the `)` ending `text` closes (brackets in strings and comments
/// are counted as any other).
fn opening_of(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (at, b) in text.bytes().enumerate().rev() {
        match b {
            b')' => depth += 1,
            b'(' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
    }
    None
}

/// True when every V8 native under `root` (see [`natives`]) is the function of a call
/// with parentheses: `%F(f)`, not `%F`, `%F\`x\`` or `%F?.()`.
fn natives_ok(text: &str, root: Node) -> bool {
    let range = root.byte_range();
    natives(&text[..range.end])
        .filter(|&at| at >= range.start)
        .all(|at| {
            let Some(name) = root.descendant_for_byte_range(at, at + 1) else {
                return true;
            };
            if name.kind() != "identifier" || name.start_byte() != at {
                // In a string, a comment or a regular expression.
                return true;
            }
            name.parent().is_some_and(|call| {
                call.kind() == "call_expression"
                    && call
                        .child_by_field_name("function")
                        .is_some_and(|f| f.id() == name.id())
                    && text[name.end_byte()..].trim_start().starts_with('(')
            })
        })
}

/// The offsets in `text` where a `break L` or `continue L` may begin: the word, then on
/// the same line a name (a comment between them is missed, which only lets such a jump
/// through unchecked). Most code's jumps are bare.
fn labelled_jumps(text: &str) -> impl Iterator<Item = (usize, &'static str)> + '_ {
    ["break", "continue"].into_iter().flat_map(move |word| {
        text.match_indices(word).filter_map(move |(at, _)| {
            let rest = &text[at + word.len()..];
            let after = rest.trim_start_matches([' ', '\t']);
            let named = after.len() < rest.len()
                && after.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$');
            named.then_some((at, word))
        })
    })
}

/// True when every `break L` and `continue L` under `root` is inside a statement labelled
/// `L` within its own function (`top` is the tree's root). The jumps are found in the
/// text, not by a walk of every node: a big scope holds many nodes and few labelled jumps.
fn labels_ok<'t>(text: &str, top: Node<'t>, root: Node<'t>) -> bool {
    let start = root.start_byte();
    let name = |n: Node| text.get(n.byte_range()).unwrap_or_default();
    labelled_jumps(&text[root.byte_range()])
        .filter_map(|(at, word)| {
            let at = start + at;
            let token = root.descendant_for_byte_range(at, at + word.len())?;
            let jump = token
                .parent()
                .filter(|j| token.kind() == word && j.start_byte() == at)?;
            Some((jump, name(jump.child_by_field_name("label")?)))
        })
        .all(|(jump, label)| {
            ancestors(top, jump)
                .take_while(|a| !is_function(a.kind()) && a.kind() != "class_static_block")
                .filter(|a| a.kind() == "labeled_statement")
                .any(|a| a.child_by_field_name("label").map(name) == Some(label))
        })
}

/// What a jump needs around it: a function (`return`), a loop (`continue`), a loop or a
/// `switch` (`break`), a label (`break L`), a label on a loop (`continue L`); or what
/// stands around a node, in the same terms.
#[derive(Default, Clone)]
struct Around<'s> {
    function: bool,
    loop_: bool,
    breakable: bool,
    /// Labels, each with whether it is on a loop (through other labels: `a: b: for`).
    labels: Vec<(&'s str, bool)>,
    /// A labelled `continue` inside names a label that is not on a loop.
    misplaced: bool,
    /// The labels of statements inside (in the same function), which no label around may
    /// repeat (`a: { a: ; }` is an early error).
    labelled: Vec<&'s str>,
    /// Where `await`, `yield` and `arguments` may not be names.
    reserved: Reserved,
}

impl<'s> Around<'s> {
    /// What stands around the children of `node` (of `text`), this standing around it.
    fn enter(&mut self, text: &'s str, node: Node) {
        let kind = node.kind();
        if is_function(kind) || kind == STATIC_BLOCK {
            *self = Around {
                function: kind != STATIC_BLOCK,
                reserved: self.reserved.enter(node),
                ..Around::default()
            };
            return;
        }
        self.reserved = self.reserved.enter(node);
        self.loop_ |= is_loop(kind);
        self.breakable |= is_loop(kind) || kind == "switch_statement";
        if kind == "labeled_statement"
            && let Some(l) = node.child_by_field_name("label")
        {
            let name = text.get(l.byte_range()).unwrap_or_default();
            self.labels.push((name, on_loop(node)));
        }
    }

    /// True when `have`, what stands around, gives what these jumps need, by the rules
    /// `returns` (a `return` needs a function) and `jumps` (the others).
    fn met_by(&self, have: &Around, returns: bool, jumps: bool) -> bool {
        (!returns || !self.function || have.function)
            && (!jumps
                || (!self.misplaced
                    && (!self.loop_ || have.loop_)
                    && (!self.breakable || have.breakable)
                    && self
                        .labels
                        .iter()
                        .all(|&(l, _)| have.labels.iter().any(|&(k, looped)| k == l && looped))
                    && self
                        .labelled
                        .iter()
                        .all(|&l| !have.labels.iter().any(|&(k, _)| k == l))))
    }
}

/// Where `await`, `yield` and `arguments` may not be names (tree-sitter reads them as names
/// anywhere): `await` in an async function, a class's static block or a module's top level,
/// `yield` in a generator, `arguments` in a static block or a class field. A function
/// inside sets its own, but an arrow function keeps those around it (and adds `await`
/// when it is async). A hoist takes code out of a function into the one around it, so
/// `function g() { await; }` inside an async function became `await;` there.
#[derive(Default, Clone, Copy, PartialEq)]
struct Reserved {
    awaits: bool,
    yields: bool,
    arguments: bool,
}

impl Reserved {
    /// At the top of a script or a `module`.
    fn top(module: bool) -> Reserved {
        Reserved {
            awaits: module,
            ..Reserved::default()
        }
    }

    /// True when any of the three may not be a name here.
    fn any(self) -> bool {
        self != Reserved::default()
    }

    /// What holds inside `node`, this holding around it.
    fn enter(self, node: Node) -> Reserved {
        match node.kind() {
            "arrow_function" => Reserved {
                awaits: self.awaits || has_token(node, "async"),
                ..self
            },
            STATIC_BLOCK => Reserved {
                awaits: true,
                yields: false,
                arguments: true,
            },
            "field_definition" => Reserved {
                arguments: true,
                ..self
            },
            kind if is_function(kind) => Reserved {
                awaits: has_token(node, "async"),
                yields: is_generator(node),
                arguments: false,
            },
            _ => self,
        }
    }

    /// True when `word` may not be a name here.
    fn forbids(self, word: &str) -> bool {
        match word {
            "await" => self.awaits,
            "yield" => self.yields,
            "arguments" => self.arguments,
            _ => false,
        }
    }
}

/// True when no name below `node` (itself included), where `reserved` holds around it, is
/// one that [`Reserved`] forbids where it stands. Found by a walk only when the text says
/// one of the words.
fn names_ok(text: &str, node: Node, reserved: Reserved) -> bool {
    let span = &text[node.byte_range()];
    if !["await", "yield", "arguments"]
        .iter()
        .any(|w| mentions_keyword(span, w))
    {
        return true;
    }
    let mut stack = vec![(node, reserved)];
    let mut cursor = node.walk();
    while let Some((n, around)) = stack.pop() {
        if matches!(
            n.kind(),
            "identifier"
                | "shorthand_property_identifier"
                | "shorthand_property_identifier_pattern"
        ) {
            if around.forbids(&text[n.byte_range()]) {
                return false;
            }
            continue;
        }
        let inside = around.enter(n);
        stack.extend(n.named_children(&mut cursor).map(|c| (c, inside)));
    }
    true
}

/// Whether every jump below `root` (the root of the tree) has what it needs around it in
/// its own function (see [`leaving`]): by the rule for `return`s, and by the rule for the
/// others (a CommonJS script may `return` at its top level, and keep the other rule).
fn all_jumps_ok(text: &str, root: Node) -> (bool, bool) {
    let words = ["return", "break", "continue"];
    if !words
        .iter()
        .any(|w| mentions_keyword(&text[root.byte_range()], w))
    {
        return (true, true);
    }
    let mut enclosures = vec![(root, Around::default())];
    for n in descendants(root) {
        if is_function(n.kind()) || n.kind() == STATIC_BLOCK {
            let mut have = Around::default();
            have.enter(text, n);
            if let Some(body) = n.child_by_field_name("body") {
                enclosures.push((body, have));
            }
        }
    }
    let ok = |returns, jumps| {
        enclosures
            .iter()
            .all(|(node, have)| leaving(text, *node).met_by(have, returns, jumps))
    };
    (ok(true, false), ok(false, true))
}

/// True when `node` is a loop, or labels one (through other labels: `a: b: for`).
fn on_loop(mut node: Node) -> bool {
    while node.kind() == "labeled_statement" {
        match node.child_by_field_name("body") {
            Some(body) => node = body,
            None => return false,
        }
    }
    is_loop(node.kind())
}

/// What the jumps that leave `node` need around it: for a `return` a function, a `break` a
/// loop or a `switch`, a `continue` a loop, a labelled `continue` its label on a loop (a
/// labelled `break`'s label is [`labels_ok`]'s); whether a labelled `continue` inside
/// names a label there that is not on a loop; and the labels inside, none of which may
/// stand around it. Only statements are looked into, not
/// expressions: a jump inside a function or a class within `node` is that one's.
fn leaving<'s>(text: &'s str, node: Node) -> Around<'s> {
    let name = |n: Node| text.get(n.byte_range()).unwrap_or_default();
    // Each node with what stands around it below `node`.
    let mut needs = Around::default();
    let mut stack = vec![(node, Around::default())];
    while let Some((n, have)) = stack.pop() {
        let kind = n.kind();
        match kind {
            "return_statement" => needs.function = true,
            "break_statement" | "continue_statement" => {
                let continues = kind == "continue_statement";
                match n.child_by_field_name("label").map(name) {
                    Some(l) if continues => {
                        let here = have.labels.iter().any(|&(k, looped)| k == l && looped);
                        if !here && !have.labels.iter().any(|&(k, _)| k == l) {
                            needs.labels.push((l, true));
                        } else if !here {
                            needs.misplaced = true;
                        }
                    }
                    Some(_) => {}
                    None if continues => needs.loop_ |= !have.loop_,
                    None => needs.breakable |= !have.breakable,
                }
            }
            _ if holds_statements(kind) => {
                if kind == "labeled_statement"
                    && let Some(l) = n.child_by_field_name("label")
                {
                    needs.labelled.push(name(l));
                }
                let mut have = have;
                have.enter(text, n);
                let mut cursor = n.walk();
                for child in n.named_children(&mut cursor) {
                    let k = child.kind();
                    if holds_statements(k) || is_jump(k) {
                        stack.push((child, have.clone()));
                    }
                }
            }
            _ => {}
        }
    }
    needs
}

fn is_loop(kind: &str) -> bool {
    matches!(
        kind,
        "for_statement" | "for_in_statement" | "while_statement" | "do_statement"
    )
}

fn is_jump(kind: &str) -> bool {
    matches!(
        kind,
        "return_statement" | "break_statement" | "continue_statement"
    )
}

/// True for the statements and clauses that hold statements (the expressions that do are
/// functions and classes, whose jumps are their own).
fn holds_statements(kind: &str) -> bool {
    is_loop(kind)
        || matches!(
            kind,
            "program"
                | "statement_block"
                | "if_statement"
                | "else_clause"
                | "labeled_statement"
                | "switch_statement"
                | "switch_body"
                | "switch_case"
                | "switch_default"
                | "try_statement"
                | "catch_clause"
                | "finally_clause"
                | "with_statement"
        )
}

/// `node` and its ancestors up to `root`, nearest first: the path down from `root`, read
/// with one cursor. tree-sitter finds a node's parent by walking down from the root, so
/// asking each ancestor for its parent costs the depth squared, and a candidate inside 6000
/// nested `new` took seconds to check.
fn ancestors<'t>(root: Node<'t>, node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    let (start, end) = (node.start_byte(), node.end_byte());
    let mut path = vec![root];
    let mut cursor = root.walk();
    while cursor.node().id() != node.id() && cursor.goto_first_child() {
        // The child holding `node`: of those that do, the first (a zero-width node sits
        // at the end of the one before it).
        loop {
            let child = cursor.node();
            if child.id() == node.id() || (child.start_byte() <= start && end <= child.end_byte()) {
                path.push(child);
                break;
            }
            if child.start_byte() > start || !cursor.goto_next_sibling() {
                // `node` is not below `root`: only what was found.
                return path.into_iter().rev();
            }
        }
    }
    path.into_iter().rev()
}

/// Every node below `root` (itself included), in document order, without recursion.
fn descendants(root: Node) -> impl Iterator<Item = Node> {
    let mut cursor = root.walk();
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let node = cursor.node();
        if cursor.goto_first_child() {
            return Some(node);
        }
        loop {
            if cursor.node() == root {
                done = true;
                return Some(node);
            }
            if cursor.goto_next_sibling() {
                return Some(node);
            }
            if !cursor.goto_parent() {
                done = true;
                return Some(node);
            }
        }
    })
}

fn is_scope(kind: &str) -> bool {
    matches!(kind, "program" | "statement_block" | "switch_body")
}

/// True when a private name is its class member's own name (a declaration).
fn declares(node: Node) -> bool {
    node.parent()
        .is_some_and(|p| matches!(p.kind(), "field_definition" | "method_definition"))
}

/// The private names a class body's members declare.
fn declared<'s>(text: &'s str, body: Node) -> BTreeSet<&'s str> {
    let mut cursor = body.walk();
    body.named_children(&mut cursor)
        .filter_map(|member| {
            let name = member
                .child_by_field_name("property")
                .or_else(|| member.child_by_field_name("name"))?;
            (name.kind() == "private_property_identifier").then(|| &text[name.byte_range()])
        })
        .collect()
}

/// True when `text` may use a private name: a `#` and a name after a `.` (`this.#x`) or
/// before `in` (`#x in o`), spaces aside. What begins at each edit is checked for private
/// names, and a library's `#`s are in its comments and strings (`/#sec-...` in lodash's):
/// without this, each would cost a walk of everything hoisted.
fn mentions_private_use(text: &str) -> bool {
    text.match_indices('#').any(|(at, _)| {
        let after = &text[at + 1..];
        let name = after.len() - after.trim_start_matches(is_name_char).len();
        if name == 0 {
            return false;
        }
        let before = text[..at].trim_end();
        let rest = after[name..].trim_start();
        before.ends_with('.') || (rest.starts_with("in") && !rest[2..].starts_with(is_name_char))
    })
}

/// True when every private name used below `root` is declared by a class body around it
/// (`top` is the tree's root).
fn private_names_ok<'t>(text: &str, top: Node<'t>, root: Node<'t>) -> bool {
    if !mentions_private_use(&text[root.byte_range()]) {
        return true;
    }
    descendants(root)
        .filter(|n| n.kind() == "private_property_identifier" && !declares(*n))
        .all(|used| {
            let name = &text[used.byte_range()];
            ancestors(top, used)
                .filter(|n| n.kind() == "class_body")
                .any(|body| declared(text, body).contains(name))
        })
}

/// True when no scope below `root` declares a lexical name twice.
fn lexical_ok(text: &str, root: Node) -> bool {
    descendants(root)
        .filter(|n| is_scope(n.kind()))
        .all(|scope| scope_ok(text, scope))
}

/// True when the statements of `scope` (a program, a block, or a switch's cases together)
/// declare each `let`, `const`, `class` and imported name once, and none of them by `var`,
/// as a function, or as a parameter of the function or `catch` whose body the scope is.
/// Destructuring patterns count with the names they bind, and a `var` counts anywhere in
/// the scope's blocks short of a function (see [`nested_vars`]).
fn scope_ok(text: &str, scope: Node) -> bool {
    let mut lexical = BTreeSet::new();
    let mut other = BTreeSet::new();
    if let Some(parent) = scope.parent() {
        let field = match parent.kind() {
            "catch_clause" => Some("parameter"),
            kind if is_function(kind) => Some("parameters"),
            _ => None,
        };
        // An arrow function with one parameter and no parentheses names it `parameter`.
        let parameters = field.and_then(|f| {
            parent
                .child_by_field_name(f)
                .or_else(|| parent.child_by_field_name("parameter"))
        });
        if let Some(parameters) = parameters {
            other.extend(bound(text, parameters));
        }
    }
    let mut cursor = scope.walk();
    let mut statements: Vec<Node> = Vec::new();
    for child in scope.named_children(&mut cursor) {
        if matches!(child.kind(), "switch_case" | "switch_default") {
            let mut inner = child.walk();
            statements.extend(child.children_by_field_name("body", &mut inner));
        } else {
            statements.push(child);
        }
    }
    for statement in statements.into_iter().filter_map(declaration) {
        let name = |n: Node| {
            n.child_by_field_name("name")
                .filter(|name| name.kind() == "identifier")
                .map(|name| &text[name.byte_range()])
        };
        let names = match statement.kind() {
            "lexical_declaration" => declarator_names(text, statement),
            "class_declaration" => name(statement).into_iter().collect(),
            "import_statement" => imported(text, statement),
            "function_declaration" | "generator_function_declaration" => {
                other.extend(name(statement));
                continue;
            }
            _ => continue,
        };
        for n in names {
            if !lexical.insert(n) {
                return false;
            }
        }
    }
    if lexical.is_empty() {
        return true;
    }
    // A `var` anywhere in the scope's blocks, short of a function, belongs to the function
    // around them and passes through this scope.
    other.extend(nested_vars(text, scope));
    lexical.is_disjoint(&other)
}

/// The names `var` declares below `scope` (its own statements and loop heads included),
/// not looking into functions or classes.
fn nested_vars<'s>(text: &'s str, scope: Node) -> Vec<&'s str> {
    let mut names = Vec::new();
    let mut stack = vec![scope];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "variable_declaration" => {
                names.extend(declarator_names(text, node));
                continue;
            }
            // `for (var k in o)` holds no declaration node: the `var` is the loop's `kind`.
            "for_in_statement"
                if node
                    .child_by_field_name("kind")
                    .is_some_and(|k| k.kind() == "var") =>
            {
                if let Some(left) = node.child_by_field_name("left") {
                    names.extend(bound(text, left));
                }
            }
            kind if is_function(kind) || is_class(kind) => continue,
            _ => {}
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    names
}

/// The names a `var`, `let` or `const` declaration binds, patterns included.
fn declarator_names<'s>(text: &'s str, declaration: Node) -> Vec<&'s str> {
    let mut cursor = declaration.walk();
    let patterns: Vec<Node> = declaration
        .named_children(&mut cursor)
        .filter(|d| d.kind() == "variable_declarator")
        .filter_map(|d| d.child_by_field_name("name"))
        .collect();
    patterns.into_iter().flat_map(|p| bound(text, p)).collect()
}

/// True when every local name that an `export { a, b as c }` of `program` (one without
/// `from`) lists is declared at its top level: by `var` (in blocks too), `let`, `const`, a
/// class, a function or an import. V8 refuses a module that exports an undeclared name.
fn exports_ok(text: &str, program: Node) -> bool {
    let listed: Vec<&str> = export_specifiers(text, program)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    if listed.is_empty() {
        return true;
    }
    let mut declared: BTreeSet<&str> = nested_vars(text, program).into_iter().collect();
    let mut cursor = program.walk();
    for statement in program.named_children(&mut cursor) {
        declared.extend(top_level_names(text, statement));
    }
    listed.iter().all(|name| declared.contains(name))
}

/// The local names a module's `export { a, b as c }` clauses (those without `from`) list,
/// each with its specifier's span: `a` with the span of `a`, `b` with that of `b as c`.
pub fn export_specifiers<'s>(text: &'s str, program: Node) -> Vec<(&'s str, Range<usize>)> {
    let mut out = Vec::new();
    let mut cursor = program.walk();
    for statement in program.named_children(&mut cursor) {
        if statement.kind() != "export_statement"
            || statement.child_by_field_name("source").is_some()
        {
            continue;
        }
        let mut inner = statement.walk();
        for clause in statement
            .named_children(&mut inner)
            .filter(|c| c.kind() == "export_clause")
        {
            let mut specifiers = clause.walk();
            out.extend(clause.named_children(&mut specifiers).filter_map(|s| {
                let name = s.child_by_field_name("name")?;
                (name.kind() == "identifier").then(|| (&text[name.byte_range()], s.byte_range()))
            }));
        }
    }
    out
}

/// The names a top-level `statement` declares itself (a `var`, `let` or `const`
/// declaration, a class, a function, an import, or one of these exported), not those of
/// `var`s in its blocks.
pub fn top_level_names<'s>(text: &'s str, statement: Node) -> Vec<&'s str> {
    let Some(declared) = declaration(statement) else {
        return Vec::new();
    };
    match declared.kind() {
        "lexical_declaration" | "variable_declaration" => declarator_names(text, declared),
        "class_declaration" | "function_declaration" | "generator_function_declaration" => declared
            .child_by_field_name("name")
            .map(|n| &text[n.byte_range()])
            .into_iter()
            .collect(),
        "import_statement" => imported(text, declared),
        _ => Vec::new(),
    }
}

/// The names `node` declares: a statement's (see [`top_level_names`]), or one
/// declarator's of a `var`, `let` or `const` list.
pub fn declared_names<'s>(text: &'s str, node: Node) -> Vec<&'s str> {
    match node.kind() {
        "variable_declarator" => node
            .child_by_field_name("name")
            .map(|pattern| bound(text, pattern))
            .unwrap_or_default(),
        _ => top_level_names(text, node),
    }
}

/// The names an `import` statement binds.
fn imported<'s>(text: &'s str, statement: Node) -> Vec<&'s str> {
    let mut cursor = statement.walk();
    let clause = statement
        .named_children(&mut cursor)
        .find(|c| c.kind() == "import_clause");
    clause.map(|c| bound(text, c)).unwrap_or_default()
}

/// The statement itself, or what an `export` statement declares (`None` for an export
/// that declares nothing, such as `export { a }`).
fn declaration(statement: Node) -> Option<Node> {
    match statement.kind() {
        "export_statement" => statement.child_by_field_name("declaration"),
        _ => Some(statement),
    }
}

/// True when the program or function body `root` begins with a `'use strict'` directive:
/// one of the string statements that open it.
fn strict_top(text: &str, root: Node) -> bool {
    let mut cursor = root.walk();
    for statement in root.named_children(&mut cursor) {
        if statement.kind() == "comment" {
            continue;
        }
        let Some(string) = statement
            .named_child(0)
            .filter(|s| statement.kind() == "expression_statement" && s.kind() == "string")
        else {
            return false;
        };
        let literal = &text[string.byte_range()];
        if literal.len() == 12 && &literal[1..11] == "use strict" {
            return true;
        }
    }
    false
}

/// True when `root` holds an `import` or `export` statement at its top level.
fn is_module(root: Node) -> bool {
    let mut cursor = root.walk();
    root.named_children(&mut cursor)
        .any(|c| matches!(c.kind(), "import_statement" | "export_statement"))
}

/// The names a binding pattern binds (an identifier, a destructuring pattern, parameters,
/// an import clause): its identifiers, but not those of default values, computed keys or
/// the names an import renames.
fn bound<'s>(text: &'s str, pattern: Node) -> Vec<&'s str> {
    let mut names = Vec::new();
    let mut stack = vec![pattern];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "identifier" | "shorthand_property_identifier_pattern" => {
                names.push(&text[node.byte_range()]);
                continue;
            }
            "assignment_pattern" | "object_assignment_pattern" => {
                stack.extend(node.child_by_field_name("left"));
                continue;
            }
            "pair_pattern" => {
                stack.extend(node.child_by_field_name("value"));
                continue;
            }
            "import_specifier" => {
                stack.extend(
                    node.child_by_field_name("alias")
                        .or_else(|| node.child_by_field_name("name")),
                );
                continue;
            }
            "computed_property_name" | "string" => continue,
            _ => {}
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> tree_sitter::Tree {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_javascript::LANGUAGE.into())
            .unwrap();
        parser.parse(text, None).unwrap()
    }

    fn checks(text: &str) -> Checks {
        let tree = parse(text);
        assert!(!tree.root_node().has_error(), "{text}");
        Checks::of(text, tree.root_node())
    }

    /// Syntax errors tree-sitter reads without complaint: found over the whole tree and
    /// near an edit, and their legal forms left alone.
    #[test]
    fn syntax_errors_the_grammar_lets_through_are_found() {
        let bad = [
            "for (0 in b; ;) break;",
            "for (var i = 'x' in b; ;) break;",
            "for (x => 'x' in b; ;) break;",
            "for (a ? 1 : 'x' in b; ;) break;",
            "a?.b`t`;",
            "a?.b.c`t`;",
            "new a?.b();",
            "a?.b.c = 1;",
            "a?.[0] += 1;",
            "a?.b++;",
            "for (a?.b of c);",
            "function g(a = 1) { 'use strict'; }",
            "function g({ a }) { \"use strict\"; x(); }",
            "var f = (...a) => { 'use strict'; };",
            "class C { m([a]) { 'use strict'; } }",
            "function(){ return; }",
            "function () {}.call(x);",
            "async function () {};",
            "class {};",
            "let[a];",
            "var {a};",
            "for (let.x of y);",
            "for (let of y);",
            "for (async of y);",
            "export default function () {}.x;",
            "export default class {}.x;",
            "export default async function () {}();",
        ];
        for text in bad {
            let tree = parse(text);
            let root = tree.root_node();
            assert!(!root.has_error(), "tree-sitter now rejects {text}");
            assert_eq!(Checks::ALL.violation(text, root), Some(SYNTAX), "{text}");
            assert!(!Checks::of(text, root).syntax, "{text}");
            let middle = text.len() / 2;
            assert_eq!(
                Checks::ALL.violation_near(text, root, &[middle]),
                Some(SYNTAX),
                "{text}"
            );
        }
        // Where a hoist's edits stand: at the ends of the text it left.
        for (text, at) in [
            ("function(){ return; }", [0, 21]),
            ("x;\nfunction(){}.call(y);\nz;", [3, 22]),
            ("let[a]", [0, 6]),
            ("x;\nlet[a];", [3, 9]),
            ("let [a] = [1], [b];", [15, 18]),
        ] {
            let tree = parse(text);
            let root = tree.root_node();
            assert_eq!(
                Checks::ALL.violation_near(text, root, &at),
                Some(SYNTAX),
                "{text}"
            );
        }
        let good = [
            "for (var i = f('x' in b); ;) break;",
            "for (var i = ('x' in b); ;) break;",
            "for (var i = [a in b]; ;) break;",
            "for (var i = { a: a in b }; ;) break;",
            "for (var i = `${a in b}`; ;) break;",
            "for (a ? 'x' in b : 1; ;) break;",
            "for (x => { a in b; }; ;) break;",
            "for (var k in o);",
            "if ('x' in b) f();",
            "(a?.b)`t`;",
            "new (a?.b)();",
            "(a?.b).c = 1;",
            "a?.b.c;",
            "x = a?.b;",
            "function g(a, b) { 'use strict'; }",
            "function g(a = 1) { x(); 'use strict'; }",
            "function g(a = 1) { 'use strict' + x; }",
            "'use strict'; function g(a = 1) {}",
            "(function () {})();",
            "functions();",
            "async\nfunction f() {}",
            "asyncFunction();",
            "classes = 1;",
            "let_[a];",
            "(let[a]);",
            "let[a] = [1];",
            "for (let [a] of b);",
            "for (const {a} in b);",
            "var a, b = 1;",
            "for (let.x in y);",
            "for ((let).x of y);",
            "for (async.x of y);",
            "for (let x of y);",
            "for (x.let of y);",
            "for (lets of y);",
            "export default function () {}",
            "export default function* () {}",
            "export default async function () {}",
            "export default class {}",
            "export default (function () {}).x;",
            "export default functions;",
        ];
        for text in good {
            let tree = parse(text);
            let root = tree.root_node();
            assert!(!root.has_error(), "{text}");
            let only = Checks {
                syntax: true,
                ..Checks::default()
            };
            assert_eq!(only.violation(text, root), None, "{text}");
            assert!(checks(text).syntax, "{text}");
        }
    }

    #[test]
    fn await_yield_and_arguments_are_names_only_where_they_may_be() {
        for text in [
            "function f() { await; }",
            "async function f() { function g() { await; } }",
            "function* g() { function h() { var yield; } }",
            "class C { static { function f() { arguments; } } }",
            "class C { x = function () { return arguments; }; }",
            "async function f() { return { await: 1 }.await; }",
        ] {
            assert!(checks(text).names, "{text}");
        }
        for text in [
            "async function f() { await; }",
            "function* g() { var yield; }",
            "class C { static { var await; } }",
            "class C { static { () => arguments; } }",
            "class C { x = arguments; }",
            "async function f() { ({ await }); }",
        ] {
            assert!(!checks(text).names, "{text}");
        }
        // What a hoist left in an async function, judged near the edit.
        let text = "async function f() { await; }";
        let tree = parse(text);
        let at = text.find("await").unwrap();
        let near = Checks::ALL.violation_near(text, tree.root_node(), &[at, at + 6]);
        assert_eq!(near, Some(NAMES));
        // In a module, `await` is reserved at the top level too.
        assert!(!checks("export const a = 1;\nawait;").names);
    }

    #[test]
    fn private_names_are_looked_for_where_they_are_used() {
        for text in ["this.#x", "a?.#m()", "o .\n #y", "#x in o", "#x\nin o"] {
            assert!(mentions_private_use(text), "{text:?}");
        }
        for text in [
            "#x;",
            "// see /#sec-x",
            "'#'",
            "#x instanceof o",
            "a # b",
            "#in",
        ] {
            assert!(!mentions_private_use(text), "{text:?}");
        }
        // A class taken out of the one that declares its private name, at the top level.
        let text = "class B { n() { this.#x; } }";
        let tree = parse(text);
        let near = Checks::ALL.violation_near(text, tree.root_node(), &[0, text.len()]);
        assert_eq!(near, Some(PRIVATE));
    }

    #[test]
    fn a_label_never_repeats_inside_itself() {
        // `a: ;` hoisted out of `function f() { a: ; }` into the statement labelled `a`.
        let text = "a: a: ;";
        let tree = parse(text);
        let near = Checks::ALL.violation_near(text, tree.root_node(), &[3, 7]);
        assert_eq!(near, Some(JUMPS));
        let text = "a: b: ;";
        let tree = parse(text);
        assert_eq!(
            Checks::ALL.violation_near(text, tree.root_node(), &[3, 7]),
            None
        );
    }

    #[test]
    fn a_bracketed_target_is_a_name_or_a_member() {
        for text in ["(a[1]) = 2;", "((a.b))++;", "for ((a) in b);", "(a) += 1;"] {
            assert!(checks(text).syntax, "{text}");
        }
        for text in [
            "(1) = 2;",
            "(b + c)++;",
            "for ((b + c) in d);",
            "(this) = 1;",
            "(a?.b) = 1;",
        ] {
            let tree = parse(text);
            assert!(!tree.root_node().has_error(), "{text}");
            assert!(!checks(text).syntax, "{text}");
        }
    }

    #[test]
    fn an_object_never_begins_a_statement() {
        // tree-sitter reads these objects; engines read blocks and refuse the first two.
        for (text, edit) in [
            ("{ b: 1, c: 2 };", 0),
            ("f = () => { b: 1, c: 2 };", 10),
            ("{ a: 1 }", 0),
        ] {
            let tree = parse(text);
            assert!(!tree.root_node().has_error(), "{text}");
            assert!(!checks(text).blocks, "{text}");
            let near = Checks::ALL.violation_near(text, tree.root_node(), &[edit]);
            assert_eq!(near, Some(BLOCKS), "{text}");
        }
        for text in [
            "({ b: 1, c: 2 });",
            "f = () => ({ a: 1 });",
            "{ a; }",
            "x = { a: 1 };",
        ] {
            assert!(checks(text).blocks, "{text}");
        }
    }

    #[test]
    fn a_sloppy_script_stays_sloppy_at_its_top() {
        // The rule holds alone: a check that enforces nothing else still looks.
        let only = Checks {
            sloppy_top: true,
            ..Checks::default()
        };
        let text = "'use strict';\nwith_(o);";
        let tree = parse(text);
        assert!(!only.none());
        assert!(only.violation_near(text, tree.root_node(), &[0]).is_some());
        assert!(checks("(function () { 'use strict'; a(); })();").sloppy_top);
        assert!(checks("a(); 'use strict';").sloppy_top);
        assert!(!checks("'use strict';\nwith_(o);").sloppy_top);
        assert!(!checks("// c\n\"other\";\n\"use strict\";\nf();").sloppy_top);
    }

    #[test]
    fn a_labelled_jump_needs_its_label_around_it_in_its_function() {
        assert!(checks("a: { b: { if (x) break a; } }").labels);
        assert!(checks("a: for (;;) { for (;;) continue a; }\nb: break b;").labels);
        assert!(checks("for (;;) break;").labels);
        // Hoisted out of `a:` by way of the `b:` inside it.
        assert!(!checks("b: { if (x) break a; }").labels);
        assert!(!checks("a: { b: break c; }").labels);
        // A label does not reach into a function.
        assert!(!checks("a: { (function () { break a; })(); }").labels);
        assert!(!checks("a: { class C { static { break a; } } }").labels);
        let found = |text| labelled_jumps(text).collect::<Vec<_>>();
        assert_eq!(found("x: for (;;) continue\tx;"), [(12, "continue")]);
        assert!(found("for (;;) { break; }\nbreakfast(x);\nbreak\nb();").is_empty());
        // A jump in a comment or a string is no jump.
        assert!(checks("// break out\nf('continue x');").labels);
        // Near an edit: the scope around it is looked at, alone.
        let only = Checks {
            labels: true,
            ..Checks::default()
        };
        assert!(!only.none());
        let text = "f();\nb: { if (x) break a; }\n";
        let tree = parse(text);
        assert_eq!(
            only.violation_near(text, tree.root_node(), &[5]),
            Some(LABELS)
        );
    }

    #[test]
    fn a_jump_needs_a_function_or_a_loop_of_its_own_function_around_it() {
        for ok in [
            "function f() { if (a) return 1; }",
            "x = () => { return 1; };",
            "for (;;) { if (a) break; else continue; }",
            "switch (a) { case 1: break; }",
            "a: b: for (;;) { c: { continue a; } }",
            "class C { m() { return 1; } static { for (;;) break; } }",
            // Jumps inside a function are its own, whatever lies around it.
            "while (a) { f(function () { return 1; }); }",
        ] {
            assert!(checks(ok).returns && checks(ok).jumps, "{ok}");
        }
        for bad in [
            "if (a) return 1;",
            "function f() { class C { static { return 1; } } }",
        ] {
            assert!(!checks(bad).returns && checks(bad).jumps, "{bad}");
        }
        for bad in [
            "if (a) { break; }",
            "switch (a) { case 1: continue; }",
            "a: { continue a; }",
            "a: for (;;) { b: { continue b; } }",
            "for (;;) { f(function () { break; }); }",
        ] {
            assert!(checks(bad).returns && !checks(bad).jumps, "{bad}");
        }
        // Near an edit: what begins at it is looked at, with what lies around it. Two
        // hoists of one candidate took a `return` out of the inner function and what held
        // it out of the outer one.
        let both = Checks {
            returns: true,
            jumps: true,
            ..Checks::default()
        };
        let text = "f();\nif (c) {\n  return 1;\n}\n";
        let tree = parse(text);
        assert_eq!(
            both.violation_near(text, tree.root_node(), &[5]),
            Some(JUMPS)
        );
        let text = "function g() {\n  if (c) {\n    return 1;\n  }\n}\n";
        let tree = parse(text);
        assert_eq!(both.violation_near(text, tree.root_node(), &[17]), None);
        // A CommonJS script may return at its top level and still keep the other rule: a
        // `continue` carried out of both its loops is found.
        let kept = checks("if (done) return;\nwhile (a) { while (b) { if (c) continue; } }");
        assert!(!kept.returns && kept.jumps);
        let text = "if (done) return;\ncontinue;\n";
        let tree = parse(text);
        assert_eq!(
            kept.violation_near(text, tree.root_node(), &[18]),
            Some(JUMPS)
        );
        // An unwrapped block's statements after the first, up to the next edit, too.
        let text = "f();\ng();\nbreak;\nh();\n";
        let tree = parse(text);
        assert_eq!(
            both.violation_near(text, tree.root_node(), &[5, 17]),
            Some(JUMPS)
        );
        assert_eq!(both.violation_near(text, tree.root_node(), &[5]), None);
    }

    #[test]
    fn exported_names_need_a_declaration() {
        assert!(checks("function h() {}\nconst K = h();\nexport { K };").exports);
        assert!(checks("import x from 'y';\nexport { x as K };").exports);
        assert!(checks("if (a) { var v = 1; }\nexport { v, w as z };\nlet w;").exports);
        assert!(checks("export { q } from 'm';").exports);
        assert!(checks("export class C {}\nexport { C as D };").exports);
        assert!(!checks("export { K };").exports);
        assert!(!checks("function f() { var K; }\nexport { K };").exports);
        assert!(!checks("{ let K; }\nexport { K as L };").exports);
    }

    #[test]
    fn private_names_need_a_declaring_class() {
        assert!(checks("class A { #p = 1; m() { return this.#p; } }").private_names);
        assert!(checks("class A { #m() {} n() { return #m in this; } }").private_names);
        assert!(
            checks("class A { #p; m() { return class { n(o) { return o.#p; } }; } }").private_names
        );
        assert!(!checks("class A { m() { return this.#p; } }").private_names);
        assert!(!checks("class A { #q; m() { return this.#p; } }").private_names);
    }

    #[test]
    fn lexical_names_are_declared_once_per_scope() {
        for fine in [
            "let a = 1; { let a = 2; a; }",
            "var a; var a; function f() {} function f() {}",
            "let a; function g() { let a; }",
            "let a; function g() { if (x) { var a; } }",
            "{ { let a; } var a; }",
            "switch (x) { case 0: { let a; } default: { let a; } }",
            "const { a: b, c = d, [e]: f, ...g } = h; let d, e;",
            "function f(a = b) { let b; }",
            "try {} catch ({ e }) { { let e; } }",
            "import { x as y } from 'm'; let x;",
        ] {
            assert!(checks(fine).lexical, "{fine}");
        }
        for broken in [
            "let a; let a;",
            "let a; const b = 1, a = 2;",
            "class C {} let C;",
            "let a; var a;",
            "{ const f = 1; function f() {} }",
            "switch (x) { case 0: let a; default: let a; }",
            "export let a; export class a {}",
            "const { a, b: [c] } = d; let c;",
            "function f(a) { let a; }",
            "x => { const x = 1; };",
            "(function ({ a }, ...b) { const b = 1; });",
            "try {} catch (e) { let e; }",
            "import a, { b as c } from 'm'; let c;",
            "import * as n from 'm'; class n {}",
            "let i; for (var i = 0; i;) {}",
            "let a; function f() { if (x) { var a = 2; } } { var a; }",
            "let a; if (x) var a;",
            "let k; { for (var k in o) {} }",
            "const k = 1; for (var k in o) {}",
        ] {
            assert!(!checks(broken).lexical, "{broken}");
        }
    }

    #[test]
    fn for_await_needs_an_async_function() {
        for fine in [
            "async function f() { for await (const x of y) g(x); }",
            "const f = async () => { if (a) { for await (x of y) {} } };",
            "class A { async *m() { for await (const x of y) yield x; } }",
            "function f() { for (const x of y) g(x); }",
        ] {
            assert!(checks(fine).for_await, "{fine}");
        }
        // A module may loop at its top level, but not in a function that is not async (a
        // field trial's `export default function` took a loop hoisted out of an async one).
        let module = "import y from 'm'; for await (const x of y) g(x);";
        let rules = checks(module);
        assert!(rules.for_await && rules.module);
        let hoisted = "export default function () { for await (const x of y) {} }";
        assert_eq!(
            rules.violation(hoisted, parse(hoisted).root_node()),
            Some(FOR_AWAIT)
        );
        let alone = "for await (const x of y) {}";
        assert_eq!(rules.violation(alone, parse(alone).root_node()), None);
        // A static block is not the top level (a review's hoist out of an async function).
        let block = "export class A { static { for await (const x of y) g; } }";
        assert_eq!(
            rules.violation(block, parse(block).root_node()),
            Some(FOR_AWAIT)
        );
        assert!(!mentions_for_await("const before = await x;"));
        assert!(mentions_for_await("x;for  await (a of b) {}"));
        for broken in [
            "for await (const x of y) g;",
            "async function f() { function h() { for await (x of y) {} } }",
            "function f() { for await (const x of y) {} }",
        ] {
            assert!(!checks(broken).for_await, "{broken}");
        }
    }

    /// tree-sitter reads `yield x` anywhere; JavaScript only in a generator, where a
    /// hoist out of one breaks it.
    #[test]
    fn yields_need_a_generator() {
        for fine in [
            "function* g() { yield 1; }",
            "function* g() { if (a) { x = yield; } }",
            "x = function* () { yield* y; };",
            "class A { *m() { yield 1; } static async *n() { yield 2; } }",
            "function* g() { (class { [yield]() {} }); }",
            "var yields = 1; function f() { return yields; }",
        ] {
            assert!(checks(fine).yields, "{fine}");
        }
        for broken in [
            "function* g() { const f = () => { yield 1; }; }",
            "function* g() { function h() { yield 1; } }",
            "(class { [yield]() {} });",
            "class A { m() { yield 1; } }",
            "class A { static { yield 1; } }",
        ] {
            assert!(!checks(broken).yields, "{broken}");
        }
        // A hoist carried the class out of its generator: the edits stand at its ends.
        let text = "(class {[yield](){}})";
        let tree = parse(text);
        let at = [0, text.len()];
        let near = Checks::ALL.violation_near(text, tree.root_node(), &at);
        assert_eq!(near, Some(YIELD));
    }

    /// tree-sitter reads `try {}` without a handler; JavaScript does not.
    /// V8's `%Name(...)` stands where an expression begins; elsewhere `%` is the
    /// remainder operator, as V8 reads it.
    #[test]
    fn natives_are_found_where_an_expression_begins() {
        let found = |text: &str| -> Vec<String> {
            natives(text)
                .map(|at| text[at..].chars().take(2).collect())
                .collect()
        };
        assert_eq!(
            found("%A(f);\nx = %B(f);\nreturn %C(f)"),
            ["%A", "%B", "%C"]
        );
        assert_eq!(found("f(%D(g), !%E(h)); if (x) %F(y)"), ["%D", "%E", "%F"]);
        assert!(found("a %b; a%b(c); x = y\n%z(1); (a) %b; 1 %c; o.return %d").is_empty());
        assert!(found("a % 2; %; 100%").is_empty());
        // A postfix `++` ends an operand (rxjs's minified bundle).
        assert!(found("0===f++%a&&g(); i-- %b").is_empty());
        // Spaces after the `%` (clang-format's), also after a declaration.
        assert_eq!(found("% F(x);\nfunction g() {}\n%  G(y);"), ["% ", "% "]);
        assert!(found("a % b; x = 1 %\tc").is_empty());
        // A name of other letters before a `%` (moment's Czech locale).
        assert!(found("'ř' + ř %d; x = ř\n%d").is_empty());
        assert_eq!(found("ř; %F(x)"), ["%F"]);
    }

    /// A native is called where it stands: a hoist of its name out of the call is no
    /// JavaScript for V8.
    #[test]
    fn natives_are_called() {
        let judge = |text: &str| {
            // The tree of the text as the front end reads it.
            let tree = parse(&read_natives(text));
            assert!(!tree.root_node().has_error(), "{text}");
            natives_ok(text, tree.root_node())
        };
        for fine in [
            "%F(f);",
            "x = %F(f, 1) % 2;",
            "'%s'.length; /%x/.test(s); f(%G (1));",
        ] {
            assert!(judge(fine), "{fine}");
        }
        for bad in ["%F;", "x = %F;", "%F`x`;", "%F?.();", "g(%F);"] {
            assert!(!judge(bad), "{bad}");
        }
    }

    /// Escapes only a tagged template may hold are read as `\\`, so tree-sitter parses
    /// them, and an untagged template that holds one is a syntax error.
    #[test]
    fn escapes_only_a_tagged_template_may_hold() {
        let letters = |text: &str| -> String {
            raw_only_escapes(text)
                .map(|at| char::from(text.as_bytes()[at]))
                .collect()
        };
        assert_eq!(letters(r"\usepackage \x4g \u{110000} \u{41 \u12"), "uxuuu");
        // Escapes that are whole, and backslashes that are themselves escaped.
        assert_eq!(
            letters(r"\u0041 \u{10FFFF} \u{000041} \x4F \\u \\\\xyz \n"),
            ""
        );
        assert_eq!(letters(r"\\\u \"), "u");
        // Read as long, and as a parse without errors.
        let text = "x = String.raw`C:\\users\\xyz\\u`;";
        let read = read_javascript(text);
        assert_eq!(read.len(), text.len());
        assert!(
            parse(text).root_node().has_error(),
            "tree-sitter now reads {text}"
        );
        assert!(!parse(&read).root_node().has_error(), "{read}");
        assert_eq!(read_javascript("a = '\\u0041';"), "a = '\\u0041';");

        let judge = |text: &str| {
            let tree = parse(&read_javascript(text));
            assert!(!tree.root_node().has_error(), "{text}");
            (
                Checks::ALL.violation(text, tree.root_node()),
                Checks::ALL.violation_near(text, tree.root_node(), &[0]),
            )
        };
        for fine in [
            "String.raw`\\usepackage`;",
            "tag`\\xyz${a}\\1`;",
            "a.b`\\u{110000}`;",
            "`\\u0041 \\x41 \\0 \\n ${'\\u0041'}`;",
            "`${tag`\\u`}`;",
        ] {
            assert_eq!(judge(fine), (None, None), "{fine}");
        }
        for bad in [
            "`\\usepackage`;",
            "`${a}\\xyz`;",
            "`\\1`;",
            "`\\01`;",
            "f(`\\u{110000}`);",
            "tag`${`\\u`}`;",
        ] {
            let found = judge(bad).0;
            assert_eq!(found, Some(SYNTAX), "{bad}");
        }
        // Where a hoist took the template out of its call.
        assert_eq!(judge("`\\u`;").1, Some(SYNTAX));
    }

    /// In a script, `<!--` outside literals begins a comment to the end of its line, as
    /// engines read it: where tree-sitter took it for code, it is given `//--` there.
    #[test]
    fn html_open_comments_are_read_as_line_comments() {
        for text in [
            "{keep}\n<!-- x\n",
            "function keep(){}\n<!-- html comment\n",
            "a\n<!-- x --> y\n",
            "if (a) { b(); }\n<!-- c\nd();\n",
            "x = 1 <!-- 2\n;\n",
        ] {
            let read = reread_javascript(text, &parse(text)).unwrap_or_else(|| text.to_string());
            let at = text.find("<!--").unwrap();
            assert_eq!(&read[at..at + 4], "//--", "{text}");
            assert!(!parse(&read).root_node().has_error(), "{read}");
        }
        // In literals and comments it is text, and no second parse is made.
        for text in [
            "x = '<!--'; y = `<!--`; z = /<!--/; // <!--\n",
            "/* <!-- */ x;\n",
            "<!-- at the start\nx;\n",
        ] {
            assert_eq!(reread_javascript(text, &parse(text)), None, "{text}");
        }
        // A module has no such comments: `a <!--b` is `a < !(--b)` there.
        let module = "import a from 'b';\nc <!--d;\n";
        assert_eq!(reread_javascript(module, &parse(module)), None);
    }

    #[test]
    fn a_try_keeps_a_catch_or_a_finally() {
        for fine in [
            "try { a(); } catch (e) {}",
            "try { a(); } finally { b(); }",
            "f(); function g() { try {} catch {} finally {} }",
        ] {
            assert!(checks(fine).tries, "{fine}");
        }
        let rules = checks("try { a(); } catch (e) {} finally {}");
        let bare = "function g() { try { a(); } }";
        let tree = parse(bare);
        assert_eq!(rules.violation(bare, tree.root_node()), Some(TRY));
        let at = [bare.find('}').unwrap() + 1];
        assert_eq!(rules.violation_near(bare, tree.root_node(), &at), Some(TRY));
    }

    #[test]
    fn super_calls_need_a_class_that_extends_another() {
        let fine = [
            "class A extends B { constructor() { super(); } }",
            "class A extends B { constructor() { const f = () => super(); } }",
            "class A { m() { return super.m(); } }",
            "class A { constructor() { class C extends D { constructor() { super(); } } } }",
            "class A extends B { 'constructor'() { super(); } }",
            "class A extends B { constructor(c = super()) {} }",
        ];
        for text in fine {
            assert!(checks(text).super_calls, "{text}");
        }
        for text in [
            "class A { constructor() { super(); } }",
            "x = class { constructor() { if (y) super(1); } };",
            "class A extends B { m() { super(); } }",
            "class A extends B { x = super(); }",
            "class A extends B { static { () => super(); } }",
            "class A { constructor(c = super()) {} }",
        ] {
            assert!(!checks(text).super_calls, "{text}");
        }
        let text = "class A { constructor() { super(); } }";
        let tree = parse(text);
        let at = [text.find('{').unwrap()];
        let near = Checks::ALL.violation_near(text, tree.root_node(), &at);
        assert_eq!(near, Some(SUPER));
    }

    /// The near check looks at the scope where an edit joined two statements and at the
    /// class around an edit, not at the other scopes.
    #[test]
    fn near_checks_find_the_scope_and_class_of_an_edit() {
        let near = |text: &str, at: usize| {
            let tree = parse(text);
            Checks::ALL.violation_near(text, tree.root_node(), &[at])
        };
        let text = "let a = 1;\n{ let b; }\nlet a = 2;\n";
        assert_eq!(near(text, text.rfind("let a").unwrap()), Some(LEXICAL));
        assert_eq!(near(text, text.find("let b").unwrap()), None);
        assert_eq!(near(text, text.len()), Some(LEXICAL));
        let text = "class A { m() { return this.#p; } }\nlet c; let c;";
        assert_eq!(near(text, text.find("m()").unwrap()), Some(PRIVATE));
        assert_eq!(near(text, text.find("return").unwrap() + 2), Some(PRIVATE));
        assert_eq!(near(text, text.rfind("let c").unwrap()), Some(LEXICAL));
    }

    #[test]
    fn descendants_visit_every_node_once_in_order() {
        let text = "a(b, [c]); d;";
        let tree = parse(text);
        let root = tree.root_node();
        let starts: Vec<usize> = descendants(root).map(|n| n.start_byte()).collect();
        let mut count = 0;
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            count += 1;
            let mut cursor = n.walk();
            stack.extend(n.children(&mut cursor));
        }
        assert_eq!(starts.len(), count);
        assert!(starts.windows(2).all(|w| w[0] <= w[1]));
        // A subtree's walk stays inside it.
        let call = root.named_child(0).unwrap().named_child(0).unwrap();
        assert!(descendants(call).all(|n| n.end_byte() <= call.end_byte()));
    }

    /// The path read down from the root is the chain of parents, for every node: zero-width
    /// ones (a missing `;`), a node and its only child of the same span, labels, classes.
    #[test]
    fn ancestors_are_the_chain_of_parents() {
        let text = "L: for (;;) { class A { #p; m() { return (((this.#p))) } } break L }\n\
                    x = function () { var a = [[1], [2, [3]]]\n y() }\n`t${`u${v}`}`;";
        let tree = parse(text);
        let root = tree.root_node();
        let mut nodes = 0;
        for node in descendants(root) {
            let by_parent: Vec<usize> = std::iter::successors(Some(node), |n| n.parent())
                .map(|n| n.id())
                .collect();
            let by_path: Vec<usize> = ancestors(root, node).map(|n| n.id()).collect();
            assert_eq!(by_path, by_parent, "{}", node.kind());
            nodes += 1;
        }
        assert!(nodes > 60, "{nodes}");
    }
}
