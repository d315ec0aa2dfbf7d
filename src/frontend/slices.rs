//! Declarations deleted with their uses, for JavaScript. A function that other statements
//! call cannot go alone: the test then stops at a `ReferenceError` instead of the bug. So
//! HDD deleted the callers first (at their own depth, often deeper), and the declaration
//! only in a later round, once nothing named it any more; a `main` that called every
//! function of a file kept them all until its own statements had gone one by one.
//!
//! Here each statement that declares names (a function, a class, `const`, `var`,
//! `import`) is deleted together with its slice: the statements that use one of its names,
//! and, when those declare names in turn, the statements that use those, and so on. The
//! statements are the items of the lists that may lose any item (a program's, a block's, a
//! class body's, a `switch` case's), each use counting for the innermost one around it; so
//! are an object literal's members, so that a function named in a module's table of
//! exports (`var all = { max: max, min }`) goes with its member, not with the whole table
//! the test needs for the others; and so are the declarators of a `var` and the
//! expressions of a sequence, when there are two or more (see [`MEMBER_PARENTS`]).
//! A use belongs to the innermost binding of its name whose scope holds it (a block, a
//! function, a `for` or `catch` with its own bindings), so a parameter of the same name
//! keeps its function's uses to itself; `var` is taken as scoped to its block, which at
//! worst leaves a use out of a slice. A slice that would take a statement around the
//! declaration itself, or more than [`MOST_ITEMS`] statements, is not offered. The driver
//! offers the slices after the plain deletions, or before them once slices have paid
//! (see `Driver::delete_sliced`).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use tree_sitter::Node as TsNode;

use super::{Slices, early};

/// Kinds whose named children are items that may go one by one (what a slice deletes): the
/// lists of statements and an object literal's members.
const ITEM_PARENTS: &[&str] = &[
    "program",
    "statement_block",
    "class_body",
    "switch_case",
    "switch_default",
    "object",
];

/// Kinds whose named children are items too when there are two or more, one of which
/// must stay: the declarators of `var a = f(), b = g;` and the expressions of a sequence
/// (`X.prototype.clear = clear, X.prototype.get = get;`, which minifiers make of a run of
/// statements), so that a declaration goes with the one declarator or expression that
/// uses it rather than with the whole statement. When a slice would take every one of
/// them, it takes the item around them instead.
const MEMBER_PARENTS: &[&str] = &[
    "variable_declaration",
    "lexical_declaration",
    "sequence_expression",
];

/// The most statements a slice takes; a larger one is not offered (it would seldom be
/// uninteresting to lose, and finding it costs a walk for every statement it holds).
const MOST_ITEMS: usize = 256;

/// A statement that may go on its own.
struct Item<'t> {
    span: Range<usize>,
    /// The names it declares (see [`early::declared_names`]).
    names: Vec<&'t str>,
    /// For a member of a list of [`MEMBER_PARENTS`], that list (an index into the
    /// walk's lists of members).
    group: Option<usize>,
    /// The items that are members of a list directly inside this one (its declarators,
    /// whose names are its own).
    members: Vec<usize>,
}

/// A list of [`MEMBER_PARENTS`] whose members are items.
struct Members {
    /// The innermost item around the list, which a slice takes when it would take every
    /// member (none at the top of the text: such a slice is not offered).
    holder: Option<usize>,
    items: Vec<usize>,
    /// Every member is an item: one that is not (see [`of`]) always stays.
    complete: bool,
}

/// Where a name is bound: the span of the scope it is bound in, and the statement that
/// declares it, when it is one of the names that statement declares (not a parameter).
struct Binding {
    scope: Range<usize>,
    owner: Option<usize>,
}

/// What the walk carries down to a node.
#[derive(Clone)]
struct Context {
    /// The innermost item around the node.
    item: Option<usize>,
    /// Whether the node stands where names are bound, and whether in the scope around
    /// its parent (a declared function's or class's name) rather than its own.
    binding: Option<bool>,
    /// The innermost scope around the node, and the one around that.
    scope: Range<usize>,
    outer: Range<usize>,
}

/// The slices of the declaring statements of `root` (the tree of `text`) at `wanted`
/// (all when `None`): for each such statement's span, the spans of the statements that go
/// with it, in text order.
pub fn of(text: &str, root: TsNode, wanted: Option<&[(usize, usize)]>) -> Slices {
    let mut items: Vec<Item> = Vec::new();
    let mut groups: Vec<Members> = Vec::new();
    // A declarator whose names an `export { a }` lists is no item: its deletion alone
    // would leave the specifier naming nothing (a whole statement's takes it along).
    let exported: BTreeSet<&str> = early::export_specifiers(text, root)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let mut bindings: BTreeMap<&str, Vec<Binding>> = BTreeMap::new();
    // Each name's uses: where each is, and the innermost item around it.
    let mut uses: BTreeMap<&str, Vec<(usize, usize)>> = BTreeMap::new();
    let mut cursor = root.walk();
    let whole = root.byte_range();
    let top = Context {
        item: None,
        binding: None,
        scope: whole.clone(),
        outer: whole,
    };
    let mut stack: Vec<(TsNode, Context)> = vec![(root, top)];
    while let Some((node, context)) = stack.pop() {
        if node.child_count() == 0 {
            let named = matches!(
                node.kind(),
                "identifier"
                    | "shorthand_property_identifier"
                    | "shorthand_property_identifier_pattern"
            );
            let name = &text[node.byte_range()];
            match (named, context.binding, context.item) {
                (false, _, _) | (true, None, None) => {}
                (true, Some(outer), item) => {
                    let owner = item.filter(|&i| items[i].names.contains(&name));
                    let scope = if outer { context.outer } else { context.scope };
                    bindings
                        .entry(name)
                        .or_default()
                        .push(Binding { scope, owner });
                }
                (true, None, Some(item)) => {
                    uses.entry(name)
                        .or_default()
                        .push((node.start_byte(), item));
                }
            }
            continue;
        }
        let kind = node.kind();
        // `export { a }` names what is declared elsewhere; the declaration's deletion
        // takes the specifier along (see `javascript::with_exports`).
        if kind == "export_clause" {
            continue;
        }
        cursor.reset(node);
        if !cursor.goto_first_child() {
            continue;
        }
        let members = MEMBER_PARENTS.contains(&kind) && !alone(node);
        let lists = members || ITEM_PARENTS.contains(&kind);
        let group = members.then(|| {
            groups.push(Members {
                holder: context.item,
                items: Vec::new(),
                complete: true,
            });
            groups.len() - 1
        });
        let (scope, outer) = if opens_scope(kind) {
            (node.byte_range(), context.scope.clone())
        } else {
            (context.scope.clone(), context.outer.clone())
        };
        loop {
            let child = cursor.node();
            let field = cursor.field_name();
            let listed =
                lists && child.is_named() && field != Some("value") && child.kind() != "comment";
            let names = if listed {
                early::declared_names(text, child)
            } else {
                Vec::new()
            };
            let exported_member =
                group.filter(|_| listed && names.iter().any(|n| exported.contains(n)));
            let item = if let Some(g) = exported_member {
                groups[g].complete = false;
                context.item
            } else if listed {
                let at = items.len();
                items.push(Item {
                    span: child.byte_range(),
                    names,
                    group,
                    members: Vec::new(),
                });
                if let Some(g) = group {
                    groups[g].items.push(at);
                    if let Some(holder) = context.item {
                        items[holder].members.push(at);
                    }
                }
                Some(at)
            } else {
                context.item
            };
            let binding = context.binding.or_else(|| binds(kind, field));
            let child_context = Context {
                item,
                binding,
                scope: scope.clone(),
                outer: outer.clone(),
            };
            stack.push((child, child_context));
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    // The statements each declaring statement's names are used in: each use belongs to
    // the innermost binding of its name whose scope holds it. Scopes are nodes, nested or
    // apart, so one sweep over a name's bindings and uses in text order finds it with a
    // stack of the scopes open (minified code binds `e` in every function).
    let mut used: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (name, mut sites) in bindings {
        let Some(uses) = uses.get_mut(name) else {
            continue;
        };
        sites.sort_by_key(|b| (b.scope.start, std::cmp::Reverse(b.scope.end)));
        uses.sort_unstable();
        let mut open: Vec<&Binding> = Vec::new();
        let mut next = sites.iter().peekable();
        for &(at, item) in uses.iter() {
            while let Some(site) = next.next_if(|b| b.scope.start <= at) {
                while open.last().is_some_and(|o| o.scope.end <= site.scope.start) {
                    open.pop();
                }
                open.push(site);
            }
            while open.last().is_some_and(|o| o.scope.end <= at) {
                open.pop();
            }
            if let Some(owner) = open.last().and_then(|b| b.owner) {
                used.entry(owner).or_default().push(item);
            }
        }
    }
    // Items are nodes too: one lies within another when its span does.
    let within = |at: usize, outer: usize| {
        let (inner, outer) = (&items[at].span, &items[outer].span);
        outer.start <= inner.start && inner.end <= outer.end
    };
    let wanted: Option<BTreeSet<(usize, usize)>> = wanted.map(|w| w.iter().copied().collect());
    let mut slices = BTreeMap::new();
    for (d, it) in items.iter().enumerate() {
        if wanted
            .as_ref()
            .is_some_and(|w| !w.contains(&(it.span.start, it.span.end)))
        {
            continue;
        }
        // A statement's names are its declarators'.
        let mut next: Vec<usize> = vec![d];
        next.extend(&it.members);
        let mut taken: BTreeSet<usize> = BTreeSet::new();
        let mut whole = true;
        'walk: while let Some(from) = next.pop() {
            for &at in used.get(&from).map_or(&[][..], Vec::as_slice) {
                let mut at = at;
                loop {
                    if within(at, d) || taken.contains(&at) {
                        break;
                    }
                    if within(d, at) || taken.len() == MOST_ITEMS {
                        whole = false;
                        break 'walk;
                    }
                    taken.insert(at);
                    next.push(at);
                    // The last member of its list to go takes the item around the list.
                    let Some(group) = items[at].group.map(|g| &groups[g]) else {
                        break;
                    };
                    let gone = |&m: &usize| within(m, d) || taken.contains(&m);
                    if !group.complete || !group.items.iter().all(gone) {
                        break;
                    }
                    let Some(holder) = group.holder else {
                        whole = false;
                        break 'walk;
                    };
                    at = holder;
                }
            }
        }
        if whole && !taken.is_empty() {
            // Members of an item the slice takes go with it.
            let mut spans: Vec<Range<usize>> =
                taken.into_iter().map(|at| items[at].span.clone()).collect();
            spans.sort_by_key(|s| (s.start, std::cmp::Reverse(s.end)));
            let mut outer: Vec<Range<usize>> = Vec::with_capacity(spans.len());
            for span in spans {
                if outer.last().is_none_or(|o| span.end > o.end) {
                    outer.push(span);
                }
            }
            slices.insert((it.span.start, it.span.end), outer);
        }
    }
    slices
}

/// True when some statement at one of `spans` (of `text`, whose tree is `root`) declares a
/// name that `text` holds outside that statement, as a whole word: else none has a slice,
/// and the walk of [`of`] is not needed (a reduction whose test keeps a needle keeps its
/// ancestors, whose names nothing uses any more).
pub fn may_slice(text: &str, root: TsNode, spans: &[(usize, usize)]) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80;
    let bytes = text.as_bytes();
    spans.iter().any(|&(start, end)| {
        let Some(mut node) = root.descendant_for_byte_range(start, end) else {
            return true;
        };
        // The statement is the outermost node with its span.
        while let Some(parent) = node.parent().filter(|p| p.byte_range() == (start..end)) {
            node = parent;
        }
        early::declared_names(text, node).iter().any(|name| {
            text.match_indices(name).any(|(at, _)| {
                let after = at + name.len();
                let whole =
                    (at == 0 || !word(bytes[at - 1])) && bytes.get(after).is_none_or(|&b| !word(b));
                whole && (at < start || at >= end)
            })
        })
    })
}

/// True when the list `node` holds fewer than two items (comments aside).
fn alone(node: TsNode) -> bool {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .nth(1)
        .is_none()
}

/// True for the kinds of node that hold the names bound in them: blocks, functions, and
/// the statements that bind a name for their own body (`for (let i ...)`, `catch (e)`).
fn opens_scope(kind: &str) -> bool {
    matches!(
        kind,
        "program"
            | "statement_block"
            | "switch_body"
            | "for_statement"
            | "for_in_statement"
            | "catch_clause"
            | "function_declaration"
            | "generator_function_declaration"
            | "function_expression"
            | "generator_function"
            | "arrow_function"
            | "method_definition"
            | "class_body"
    )
}

/// Whether the child in `field` of a `parent` node binds the names in it, and if so
/// whether in the scope around `parent` (`Some(true)`: a declared function's or class's
/// name) or in `parent`'s own: a declared variable, parameters, a `catch` parameter, the
/// left side of a `for ... in`/`of`, an import's bindings. Default values of parameters
/// count too (a use taken for a binding only leaves a statement out of a slice).
fn binds(parent: &str, field: Option<&str>) -> Option<bool> {
    match parent {
        "formal_parameters" | "import_clause" | "import_specifier" | "namespace_import" => {
            Some(false)
        }
        "variable_declarator" if field == Some("name") => Some(false),
        "catch_clause" if field == Some("parameter") => Some(false),
        "arrow_function" if field == Some("parameter") => Some(false),
        "for_in_statement" if field == Some("left") => Some(false),
        "function_expression" | "generator_function" | "class" if field == Some("name") => {
            Some(false)
        }
        "function_declaration" | "generator_function_declaration" | "class_declaration"
            if field == Some("name") =>
        {
            Some(true)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each slice as the texts of its declaration and of the statements it takes.
    fn slices(text: &str) -> Vec<(&str, Vec<&str>)> {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_javascript::LANGUAGE.into())
            .unwrap();
        let tree = parser.parse(text, None).unwrap();
        of(text, tree.root_node(), None)
            .into_iter()
            .map(|((start, end), spans)| {
                (
                    &text[start..end],
                    spans.into_iter().map(|s| &text[s]).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn a_declaration_takes_the_statements_that_use_it_and_what_they_declare() {
        let text = "function sum(a) { return a; }\nfunction main() {\n  const n = sum(1);\n  \
                    log(n);\n  other();\n}\nmain();\n";
        assert_eq!(
            slices(text),
            [
                (
                    "function sum(a) { return a; }",
                    vec!["const n = sum(1);", "log(n);"]
                ),
                (
                    "function main() {\n  const n = sum(1);\n  log(n);\n  other();\n}",
                    vec!["main();"]
                ),
                ("const n = sum(1);", vec!["log(n);"]),
            ]
        );
    }

    #[test]
    fn a_use_belongs_to_the_innermost_binding_of_its_name() {
        // The parameter `n` of `twice` and the `n` of `f` are other names than the
        // top-level `n`; the `n` in `g` is the top-level one.
        let text = "const n = 1;\nfunction twice(n) { return n * 2; }\n\
                    function f() { let n = 2; n++; }\nfunction g() { return n; }\n";
        assert_eq!(
            slices(text),
            [
                ("const n = 1;", vec!["return n;"]),
                ("let n = 2;", vec!["n++;"]),
            ]
        );
    }

    #[test]
    fn a_use_in_an_object_literal_takes_its_member_not_the_statement() {
        // A module's table of exports names every function: `max` goes with its member,
        // not with the table (which the test needs for the others).
        let text = "function max() {}\nfunction min() {}\n\
                    var table = { max: max, min, other: 1 };\nuse(table);\n";
        assert_eq!(
            slices(text),
            [
                ("function max() {}", vec!["max: max"]),
                ("function min() {}", vec!["min"]),
                (
                    "var table = { max: max, min, other: 1 };",
                    vec!["use(table);"]
                ),
            ]
        );
    }

    #[test]
    fn a_use_in_a_declarator_or_a_sequence_takes_that_member_alone() {
        // `clear` goes with its expression of the sequence and `get` with its declarator
        // (whose own name `g` takes `use(g)` along); `both` is used by every declarator of
        // its `var` and every expression of its sequence, so it takes the two statements,
        // which could not stand without them; the `var` of `a` and `b` has the slices of
        // its declarators.
        let text = "function clear() {}\nfunction get() {}\nfunction both() {}\n\
                    X.clear = clear, X.other = 1;\nvar g = get, h = 2;\nuse(g);\n\
                    var a = both, b = both;\nY.a = both, Y.b = both;\n";
        assert_eq!(
            slices(text),
            [
                ("function clear() {}", vec!["X.clear = clear"]),
                ("function get() {}", vec!["g = get", "use(g);"]),
                (
                    "function both() {}",
                    vec!["var a = both, b = both;", "Y.a = both, Y.b = both;"]
                ),
                ("var g = get, h = 2;", vec!["use(g);"]),
                ("g = get", vec!["use(g);"]),
            ]
        );
    }

    #[test]
    fn every_member_of_one_list_takes_its_holder_and_an_exported_declarator_is_no_item() {
        // Two lists in one statement: emptying the `for`'s declarators takes the `for`,
        // while `h` takes its expression of the update alone. `b` is exported by name, so
        // `b = g` is no item: its use of `g` takes the whole `var` (whose deletion takes
        // the specifier along), and `a = g` goes with it.
        let text = "function f() {}\nfunction g() {}\nfunction h() {}\n\
                    for (var x = f, y = f; ; h(), i++) {}\nvar a = g, b = g;\nexport { b };\n";
        assert_eq!(
            slices(text),
            [
                (
                    "function f() {}",
                    vec!["for (var x = f, y = f; ; h(), i++) {}"]
                ),
                ("function g() {}", vec!["var a = g, b = g;"]),
                ("function h() {}", vec!["h()"]),
            ]
        );
    }

    #[test]
    fn uses_inside_the_declaration_and_export_lists_take_nothing() {
        // `f` is used inside itself (that goes with it anyway) and named by an export
        // list (its specifier goes along, see `javascript::with_exports`); `g` is used by
        // a statement beside it in its block.
        let text = "function f() { f(); }\nlabel: { function g() {} g(); }\nexport { f };\n";
        assert_eq!(slices(text), [("function g() {}", vec!["g();"])]);
    }
}
