//! The JSON front end: tree-sitter-json (compiled in) interpreted through the profile
//! `grammars/json.toml`. The grammar reads comments and any number of values, where JSON
//! has exactly one; a candidate must keep a value, so that every text the test sees is one
//! a JSON parser reads (the original's comments and extra values, as in JSON Lines, are
//! its own and may stay).

use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, LazyLock};

use super::profile::{Grammar, Misread, rewrite_bytes};
use super::{Frontend, Grain, SyntaxError, dedent};
use crate::tree::{Edit, Node, Tree};

/// The profile text, as compiled into the binary.
pub const PROFILE: &str = include_str!("../../grammars/json.toml");

static GRAMMAR: LazyLock<Grammar> = LazyLock::new(|| {
    Grammar::built_in(
        "json",
        tree_sitter_json::LANGUAGE.into(),
        "grammars/json.toml",
        PROFILE,
    )
    .reading(signed_exponents)
});

/// `text` with the `+` of every exponent (`1e+21`, as `JSON.stringify` writes large
/// numbers) read as a `0`: tree-sitter-json takes a `-` there but not a `+`. A `+` after
/// an `e` after a digit stands nowhere else but in a string, where a `0` parses as well.
fn signed_exponents(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let signs: Vec<usize> = (2..bytes.len())
        .filter(|&i| {
            bytes[i] == b'+'
                && matches!(bytes[i - 1], b'e' | b'E')
                && (bytes[i - 2].is_ascii_digit() || bytes[i - 2] == b'.')
        })
        .collect();
    if signs.is_empty() {
        return Cow::Borrowed(text);
    }
    // Only an ASCII `+` becomes an ASCII `0`.
    Cow::Owned(rewrite_bytes(text, |read| {
        for i in signs {
            read[i] = b'0';
        }
    }))
}

/// The length (quotes included) from which a string value also loses characters. Short
/// strings are mostly names and values a test reads whole (`"BSD-2-Clause"`), each costing
/// a few failing calls to keep; long ones are data where the bytes are (a source map's
/// `mappings`, an embedded image, a hash), and a field trial's source map kept 37 KB of
/// one string that no word shrink could touch.
const LONG_STRING: usize = 64;

/// JSON documents (comments allowed, as JSON with comments has them). An original that
/// tree-sitter cannot read in a few places (a trailing comma, as a `tsconfig.json` may
/// have) is reduced as it parses, as JavaScript is (see
/// [`super::JavaScript::for_original`]).
#[derive(Debug, Clone, Default)]
pub struct Json {
    misread: Option<Arc<Misread>>,
}

impl Json {
    /// The front end for reducing `original`.
    pub fn for_original(original: &str) -> Self {
        Json {
            misread: Misread::tolerable(&GRAMMAR, original).map(Arc::new),
        }
    }

    /// How many ERROR and MISSING nodes a candidate's parse may hold.
    fn allowed(&self) -> usize {
        Misread::allowed(self.misread.as_deref())
    }

    /// True when `text`, which parses (misread in at most as many places as the original),
    /// holds a value and not only comments and whitespace, and, when the original is
    /// misread (its trailing commas), has no comma without a value before it.
    fn holds_a_value(&self, text: &str) -> bool {
        holds_a_value(text, self.allowed()) && (self.allowed() == 0 || stray_comma(text).is_none())
    }

    /// `tree`, parsed from `text`, unless `text` holds no value.
    fn valued(&self, text: &str, tree: Result<Tree, SyntaxError>) -> Result<Tree, SyntaxError> {
        valued(text, tree, self.allowed())
    }
}

/// Where `text` holds a comma with no value before it (`[,]`, `{"a": 1,,}`): what is
/// left of `["x",]` without its element. tree-sitter-json reads no trailing comma, so an
/// original with them (JSON with comments, a `tsconfig.json`) is reduced with its misread
/// places counted, and `[,]` counts no more of them than `["x",]`; but no reader of such
/// files takes it. Strings and comments are skipped.
fn stray_comma(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut last = b'[';
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'"' => {
                at += 1;
                while let Some(&c) = bytes.get(at) {
                    at += if c == b'\\' { 2 } else { 1 };
                    if c == b'"' {
                        break;
                    }
                }
                last = b'"';
                continue;
            }
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                at = text[at..].find('\n').map_or(text.len(), |n| at + n);
                continue;
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                at = text[at + 2..]
                    .find("*/")
                    .map_or(text.len(), |n| at + 2 + n + 2);
                continue;
            }
            b',' if matches!(last, b'[' | b'{' | b',' | b':') => return Some(at),
            _ if b.is_ascii_whitespace() => {}
            _ => last = b,
        }
        at += 1;
    }
    None
}

/// True when `text`, which parses with at most `allowed` ERROR and MISSING nodes, holds a
/// value and not only comments and whitespace.
fn holds_a_value(text: &str, allowed: usize) -> bool {
    GRAMMAR.tree_within(text, allowed).is_some_and(|tree| {
        let root = tree.root_node();
        let mut cursor = root.walk();
        root.named_children(&mut cursor).any(|c| !c.is_extra())
    })
}

/// `tree`, parsed from `text`, unless `text` holds no value (only comments and
/// whitespace), which no JSON parser reads.
fn valued(
    text: &str,
    tree: Result<Tree, SyntaxError>,
    allowed: usize,
) -> Result<Tree, SyntaxError> {
    let tree = tree?;
    if allowed > 0
        && let Some(at) = stray_comma(text)
    {
        let (line, column) = super::line_and_column(text, at);
        return Err(SyntaxError {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
            message: String::from("a comma with no value before it"),
        });
    }
    if holds_a_value(text, allowed) {
        Ok(tree)
    } else {
        Err(SyntaxError {
            line: 1,
            column: 1,
            message: String::from("no JSON value in the text"),
        })
    }
}

impl Frontend for Json {
    fn parse(&self, text: &str) -> Result<Tree, SyntaxError> {
        self.valued(text, GRAMMAR.parse(text, self.allowed()))
    }

    fn parse_to(&self, text: &str, depth: u32) -> Result<Tree, SyntaxError> {
        self.valued(text, GRAMMAR.parse_to(text, Some(depth), self.allowed()))
    }

    fn parse_edited_to(
        &self,
        base: &str,
        edits: &[&Edit],
        text: &str,
        depth: Option<u32>,
    ) -> Result<Tree, SyntaxError> {
        let allowed = self.allowed();
        self.valued(
            text,
            GRAMMAR.parse_edited_to(base, edits, text, depth, allowed),
        )
    }

    fn is_valid(&self, text: &str) -> bool {
        self.holds_a_value(text)
    }

    fn is_valid_edited(&self, base: &str, edits: &[&Edit], candidate: &str) -> bool {
        GRAMMAR.is_valid_edited(base, edits, candidate, self.allowed())
            && self.holds_a_value(candidate)
    }

    fn note(&self) -> Option<String> {
        Some(self.misread.as_ref()?.note("JSON"))
    }

    /// Only members, elements and comments are judged without a parse: a document's own
    /// values are no list that stays valid, so the last one never goes unparsed.
    fn deletions_stay_valid(&self, base: &str, edits: &[&Edit], candidate: &str) -> Option<bool> {
        if self.allowed() > 0 && stray_comma(candidate).is_some() {
            return Some(false);
        }
        GRAMMAR.deletions_stay_valid(base, edits, candidate)
    }

    fn blank_is_empty(&self) -> bool {
        true
    }

    /// A value hoisted out of its container keeps its lines under its first (a JSON
    /// string holds no line break, so every line may move).
    fn reindent(&self, text: &str, rewrites: &mut [(Range<usize>, Vec<Edit>)]) {
        for (span, edits) in rewrites.iter_mut() {
            let layout = dedent(text, span.clone(), edits, &|_| false);
            edits.extend(layout);
        }
    }

    /// A string value loses words, as a JavaScript string does (an escape is one
    /// character), and a long one characters too; a member's name, followed by its `:`,
    /// keeps them.
    fn units(&self, text: &str, node: &Node, grain: Grain) -> Vec<Range<usize>> {
        let name = text[node.span.end..].trim_start().starts_with(':');
        let short = node.span.len() < LONG_STRING;
        if node.label != "string" || name || (grain == Grain::Characters && short) {
            return Vec::new();
        }
        super::javascript::string_units(text, node.span.clone(), grain)
    }

    fn needs_are_local(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::render;

    /// A `tsconfig.json` may have trailing commas, which tree-sitter-json does not read:
    /// such an original is reduced around them, and no candidate may add another.
    #[test]
    fn an_original_with_trailing_commas_is_reduced_around_them() {
        let original = "{\n  // c\n  \"a\": 1,\n  \"b\": [1, 2,],\n}\n";
        assert!(Json::default().parse(original).is_err());
        let json = Json::for_original(original);
        json.parse(original).unwrap();
        let note = json.note().unwrap();
        assert!(note.starts_with("4:"), "{note}");
        assert!(json.is_valid("{\n  \"b\": [1, 2,],\n}\n"));
        assert!(json.is_valid("{\"a\": 1}"));
        assert!(!json.is_valid("{\n  \"a\": ,\n  \"b\": [1, 2,],\n}\n"));
        assert!(!json.is_valid("// c\n"));
        // What is left of `[1, 2,]` without its elements is no JSON with trailing commas.
        assert!(!json.is_valid("{\n  \"b\": [,],\n}\n"));
        assert!(!json.is_valid("{\"a\": {,}}"));
        assert!(json.is_valid("{\"b\": [\",\", \"[,\" /* [, */],}"));
        let err = json.parse("{\"a\":\n  [,]}").unwrap_err();
        assert_eq!((err.line, err.column), (2, 4));
        assert!(Json::for_original("not json at all").note().is_none());
    }

    #[test]
    fn the_profile_loads() {
        LazyLock::force(&GRAMMAR);
    }

    fn deletions(text: &str) -> Vec<String> {
        let tree = Json::default().parse(text).unwrap();
        tree.ids()
            .filter_map(|id| tree.node(id).delete.clone())
            .map(|span| text[span].to_string())
            .collect()
    }

    #[test]
    fn members_and_elements_go_with_their_commas() {
        let text = "{\"a\": 1, \"b\": [2, 3], \"c\": null}";
        let found = deletions(text);
        assert!(found.contains(&String::from("\"a\": 1, ")), "{found:?}");
        assert!(found.contains(&String::from(", \"c\": null")), "{found:?}");
        assert!(found.contains(&String::from("2, ")), "{found:?}");
        let tree = Json::default().parse(text).unwrap();
        let all: Vec<Edit> = tree
            .ids()
            .filter_map(|id| tree.node(id).delete.clone())
            .map(Edit::delete)
            .collect();
        let edits: Vec<&Edit> = all.iter().collect();
        assert!(Json::default().is_valid(&render(text, &edits)));
    }

    #[test]
    fn a_document_keeps_one_value() {
        assert!(!Json::default().is_valid(""));
        assert!(!Json::default().is_valid("  // nothing\n"));
        assert!(Json::default().is_valid("[] // a list\n"));
        assert!(!Json::default().is_valid("{\"a\": }"));
        assert!(Json::default().parse("/* only */").is_err());
        // JSON Lines: values may go while one stays.
        let found = deletions("{\"a\": 1}\n[2]\n");
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(found.iter().any(|d| d.starts_with('{')), "{found:?}");
        assert!(found.iter().any(|d| d.starts_with('[')), "{found:?}");
        assert_eq!(deletions("[2]\n"), vec![String::from("2")]);
    }

    #[test]
    fn string_values_lose_words_and_names_keep_them() {
        let text = "{\"a long name\": \"three short words\", \"b\": [\"x y\"]}";
        let tree = Json::default().parse(text).unwrap();
        let words: Vec<usize> = tree
            .ids()
            .map(|id| {
                Json::default()
                    .units(text, tree.node(id), Grain::Words)
                    .len()
            })
            .filter(|&n| n > 0)
            .collect();
        // `three`, two spaces, `short`, `words`; then `x`, a space, `y`.
        assert_eq!(words, vec![5, 3]);
        // Characters: only in long strings.
        let long = "x".repeat(70);
        let text = format!("[\"ab\", \"{long}\"]");
        let tree = Json::default().parse(&text).unwrap();
        let characters: Vec<usize> = tree
            .ids()
            .map(|id| {
                Json::default()
                    .units(&text, tree.node(id), Grain::Characters)
                    .len()
            })
            .filter(|&n| n > 0)
            .collect();
        assert_eq!(characters, vec![70]);
    }

    #[test]
    fn exponents_may_have_a_plus() {
        assert!(Json::default().is_valid("[1e+21, 2.5E+3, \"e+\"]"));
        assert_eq!(signed_exponents("[1e+2, \"a+b\"]"), "[1e02, \"a+b\"]");
        assert!(!Json::default().is_valid("[1+2]"));
        let tree = Json::default()
            .parse("{\"a\": 1e+2, \"b\": [3E+4]}")
            .unwrap();
        assert!(tree.ids().any(|id| tree.node(id).label == "array"));
    }

    #[test]
    fn containers_become_a_nested_value_but_not_a_name() {
        let text = "{\"name\": \"x\", \"list\": [{\"inner\": [1]}]}";
        let tree = Json::default().parse(text).unwrap();
        let root = tree.node(tree.root()).children[0];
        let texts: Vec<String> = tree
            .node(root)
            .alternatives
            .iter()
            .map(|edits| {
                let edits: Vec<&Edit> = edits.iter().collect();
                render(text, &edits)
            })
            .collect();
        // The nearest values only (`[1]` comes in a later round, from `{"inner": [1]}`),
        // the shortest first; the names `"name"` and `"list"` are never offered.
        assert_eq!(texts, ["\"x\"", "[{\"inner\": [1]}]"]);
    }
}
