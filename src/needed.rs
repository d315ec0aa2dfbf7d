//! Edits known to fail. When HDD* reaches its fixed point, every node it could delete is
//! needed, each deletion having failed on the very text it is in; and when a rewrite list
//! ends, every rewrite it kept out failed. Later passes change the text (a rewrite, the
//! deletions a rewrite made possible, another rewrite round), and without a record they
//! would ask about every one of those edits again, in texts that differ from the old ones
//! only away from them.
//!
//! A record holds while no edit touches the node's parent (its span, tags included): the
//! node's own subtree, its siblings and the parent itself are as they were when the edit
//! failed. That covers the usual reasons a needed node stops being needed, a sibling that
//! used it going away (a definition and its use in one block) and a parent rewritten (an
//! `<msub>` unwrapped no longer needs two children). A node whose parent is the document is
//! released by any edit. Edits inside the node itself leave its deletion's record: the text
//! without the node is the one that failed (a chain of calls around what a bug needs,
//! rewritten on the inside, keeps its records for HDD*'s next round). Records move with the
//! text: each pass's edits shift the spans after them.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::tree::{Edit, Label, Node, NodeId, Tree};

/// Which edit of a node a record is about.
pub const DELETE: u32 = 0;

/// The rewrite of `rank` (0 for a node's first alternative).
pub fn rewrite(rank: usize) -> u32 {
    match u32::try_from(rank) {
        Ok(rank) => rank.saturating_add(1),
        Err(_) => u32::MAX,
    }
}

/// One edit of a node that is known to fail.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Record {
    label: Label,
    what: u32,
    parent: Range<usize>,
    /// Also released by an edit anywhere that takes away a word the node holds (see
    /// [`Subject::guarded`]).
    guarded: bool,
}

/// A node and one of its edits, as a list item: what a record is made from.
#[derive(Debug, Clone)]
pub struct Subject {
    span: Range<usize>,
    record: Record,
}

impl Subject {
    /// Edit `what` of node `id` of `tree`; `None` for the document.
    pub fn of(tree: &Tree, id: NodeId, what: u32) -> Option<Subject> {
        let node = tree.node(id);
        let parent = tree.node(node.parent?).span.clone();
        Some(Subject {
            span: node.span.clone(),
            record: Record {
                label: node.label.clone(),
                what,
                parent,
                guarded: false,
            },
        })
    }

    /// The same subject, whose record an edit anywhere also releases when it takes away
    /// a word (a run of letters, digits, `_` and `$`) that the node holds: in code a node
    /// may be needed by a use far away (a method and a call of it elsewhere), which is
    /// gone only with its name. HDD*'s rounds record their failed deletions so (a chain
    /// of calls around what a bug needs was asked level by level again in the next round,
    /// after an unrelated `extends` went).
    pub fn guarded(mut self) -> Subject {
        self.record.guarded = true;
        self
    }

    /// The span of the subject's parent.
    pub fn parent(&self) -> &Range<usize> {
        &self.record.parent
    }

    /// The span of the node itself.
    pub fn span(&self) -> &Range<usize> {
        &self.span
    }
}

/// The needed nodes of the current text, by their spans.
#[derive(Debug, Clone, Default)]
pub struct Needed {
    by_span: BTreeMap<(usize, usize), Vec<Record>>,
    /// Edits of code that failed, by what they change and the text around them (see
    /// [`Needed::skips`]), each with where it was last asked: the hash of the whole text
    /// its list left (`None` when its failure may not hold there, see [`Needed::failed`]), and
    /// where the node begins in it. Kept whatever edits elsewhere did.
    failed: BTreeMap<u128, (Option<u128>, usize)>,
    /// While true, only the edits left out as failed are asked (see [`Needed::skips`]).
    sweep: bool,
}

/// How many bytes on either side of a node its failed edits' signatures take in.
const AROUND: usize = 24;

/// How many bytes of a node's start and of its end its failed edits' signatures take in
/// (with its length): a signature costs the same for a node of any size.
const ENDS: usize = 32;

/// The signature of edit `what` of the node `label` spanning `span` of `text`: what it
/// changes, the node's length and ends, and the bytes around it.
fn signature(text: &str, span: &Range<usize>, label: &str, what: u32) -> u128 {
    let bytes = text.as_bytes();
    let before = span.start.saturating_sub(AROUND);
    let after = span.end.saturating_add(AROUND).min(bytes.len());
    let head = span.end.min(span.start.saturating_add(ENDS));
    let tail = span.start.max(span.end.saturating_sub(ENDS));
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(&what.to_le_bytes());
    hasher.update(label.as_bytes());
    hasher.update(&[0]);
    for n in [span.len(), span.start - before, after - span.end] {
        hasher.update(&n.to_le_bytes());
    }
    for piece in [before..head, tail..after] {
        hasher.update(bytes.get(piece).unwrap_or_default());
    }
    hasher.digest128()
}

impl Needed {
    /// Remembers that `subject`'s edit failed on `text` (the text its span indexes), for
    /// [`Needed::skips`]; `after` is the hash of the text the list that asked it left,
    /// when its failure holds for that very text (`None` when the list accepted edits
    /// after its question that may have freed it), and `at` where the node begins in that
    /// text.
    pub fn failed(&mut self, text: &str, subject: &Subject, after: Option<u128>, at: usize) {
        let record = &subject.record;
        let signature = signature(text, &subject.span, &record.label, record.what);
        self.failed.insert(signature, (after, at));
    }

    /// True when edits were remembered as failed (see [`Needed::failed`]).
    pub fn any_failed(&self) -> bool {
        !self.failed.is_empty()
    }

    /// Where edit `what` of `node` (of `text`) last failed, when it did where it stands.
    fn failure(&self, text: &str, node: &Node, what: u32) -> Option<(Option<u128>, usize)> {
        if self.failed.is_empty() {
            return None;
        }
        let signature = signature(text, &node.span, &node.label, what);
        self.failed.get(&signature).copied()
    }

    /// True when edit `what` of `node` of `text` (whose hash is `text_key`) failed where it
    /// stands, but was not asked on this very text, there: it was left out since.
    fn left_out(&self, text: &str, text_key: u128, node: &Node, what: u32) -> bool {
        self.failure(text, node, what)
            .is_some_and(|last| last != (Some(text_key), node.span.start))
    }

    /// True when edit `what` of `node` (of `text`, whose hash is `text_key`) is not to be
    /// asked, as far as failures are concerned. Outside a sweep: when it failed before on
    /// a text that was the same in and around the node, whatever edits elsewhere did
    /// since. Code is not monotone, and an edit elsewhere may let it go after all, but
    /// seldom does, so the passes leave it out until their fixed point. In a sweep (see
    /// [`Needed::set_sweep`]) only such edits are asked: those left out since, not asked
    /// on this very text where the node stands. `text_key` is only read in a sweep;
    /// without it the sweep asks every failed edit.
    pub fn skips(&self, text: &str, text_key: Option<u128>, node: &Node, what: u32) -> bool {
        if !self.sweep {
            return self.failure(text, node, what).is_some();
        }
        match (self.failure(text, node, what), text_key) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(last), Some(key)) => last == (Some(key), node.span.start),
        }
    }

    /// True when some edit of a node of `tree` (of `text`, whose hash is `text_key`) that
    /// no record holds was left out as failed (see [`Needed::skips`]): a sweep has
    /// something to ask. Two nodes alike (the same text around them) share a signature,
    /// so this looks at the nodes, not at the failures.
    pub fn any_left_out(&self, text: &str, text_key: u128, tree: &Tree) -> bool {
        if self.failed.is_empty() {
            return false;
        }
        tree.ids().any(|id| {
            let node = tree.node(id);
            let deletion = node.deletable().then_some(DELETE);
            let rewrites = (0..node.alternatives.len()).map(rewrite);
            deletion
                .into_iter()
                .chain(rewrites)
                .filter(|&what| !self.holds(node, what))
                .any(|what| self.left_out(text, text_key, node, what))
        })
    }

    /// True during a sweep (see [`Needed::set_sweep`]).
    pub fn sweeping(&self) -> bool {
        self.sweep
    }

    /// Starts or ends a sweep, in which only the edits left out as failed are asked (see
    /// [`Needed::skips`]). Any edit carried (see [`Needed::carry`]) ends it: after a
    /// change, the passes ask as usual.
    pub fn set_sweep(&mut self, on: bool) {
        self.sweep = on;
    }

    /// Forgets every record.
    pub fn clear(&mut self) {
        self.by_span.clear();
    }

    /// Number of nodes recorded.
    pub fn len(&self) -> usize {
        self.by_span.values().map(Vec::len).sum()
    }

    /// True when nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.by_span.is_empty()
    }

    /// Records that `subject`'s edit fails on the current text.
    pub fn record(&mut self, subject: &Subject) {
        let records = self
            .by_span
            .entry((subject.span.start, subject.span.end))
            .or_default();
        if !records.contains(&subject.record) {
            records.push(subject.record.clone());
        }
    }

    /// Records every deletable node of `tree` (of `text`, whose hash is `text_key`;
    /// whitespace aside) as needed, but for those left out as failed on an earlier text:
    /// those the last lists did not ask. `tree` must be whole.
    pub fn record_all(&mut self, text: &str, text_key: u128, tree: &Tree) {
        for id in tree.ids() {
            let node = tree.node(id);
            if !node.deletable() || self.left_out(text, text_key, node, DELETE) {
                continue;
            }
            if let Some(subject) = Subject::of(tree, id, DELETE) {
                self.record(&subject);
            }
        }
    }

    /// Forgets every record of a node inside `range` (a node that was rewritten: what it
    /// keeps of itself now stands in another context).
    pub fn release_within(&mut self, range: &Range<usize>) {
        let inside: Vec<(usize, usize)> = self
            .by_span
            .range((range.start, range.start)..)
            .map(|(&key, _)| key)
            .take_while(|&(start, _)| start < range.end)
            .filter(|&(_, end)| end <= range.end)
            .collect();
        for key in inside {
            self.by_span.remove(&key);
        }
    }

    /// True when edit `what` of `node` (of the current text) is recorded as failing.
    pub fn holds(&self, node: &Node, what: u32) -> bool {
        self.by_span
            .get(&(node.span.start, node.span.end))
            .is_some_and(|records| {
                records
                    .iter()
                    .any(|r| r.what == what && r.label == node.label)
            })
    }

    /// True when `edits` take away the whole of a node recorded as needed (its deletion
    /// failed): by monotonicity a candidate that removes that node and more fails too.
    /// Edits that meet or overlap are taken as one; a node inside counts as taken away
    /// when what replaces it all is shorter than the node itself (so it cannot hold it
    /// again: a deletion, a MathML `<mrow/>` placeholder, not a copy of a child) and is
    /// not the node's own span written anew, nor an attribute that the edits write again.
    pub fn deleted_by<'e>(&self, edits: impl IntoIterator<Item = &'e Edit>) -> bool {
        if self.by_span.is_empty() {
            return false;
        }
        let edits: Vec<&Edit> = edits.into_iter().collect();
        // An attribute written again elsewhere (a namespace declaration carried to the
        // child that an unwrap keeps) is not gone.
        let carried = |label: &str| {
            edits.iter().any(|e| {
                e.text.match_indices(label).any(|(at, _)| {
                    e.text[..at].ends_with(' ') && e.text[at + label.len()..].starts_with('=')
                })
            })
        };
        let mut spans: Vec<(Range<usize>, usize)> = edits
            .iter()
            .filter(|e| !e.span.is_empty())
            .map(|e| (e.span.clone(), e.text.len()))
            .collect();
        spans.sort_by_key(|(span, _)| span.start);
        let mut merged: Vec<(Range<usize>, usize)> = Vec::with_capacity(spans.len());
        for (span, written) in spans {
            match merged.last_mut() {
                Some((last, total)) if span.start <= last.end => {
                    last.end = last.end.max(span.end);
                    *total += written;
                }
                _ => merged.push((span, written)),
            }
        }
        merged.iter().any(|(range, written)| {
            self.by_span
                .range((range.start, range.start)..)
                .take_while(|&(&(start, _), _)| start < range.end)
                .any(|(&(start, end), records)| {
                    let inside = end <= range.end && end - start > *written;
                    // A text written over the node's own span is the node rewritten
                    // (`<a></a>` as `<a/>`), not the node gone.
                    let rewritten = *written > 0 && start == range.start && end == range.end;
                    inside
                        && !rewritten
                        && records
                            .iter()
                            .any(|r| r.what == DELETE && !carried(&r.label))
                })
        })
    }

    /// Moves the records to the text that `splices` (disjoint, ascending replacements of
    /// the current text, as [`crate::render::splices`] gives them) make, dropping those
    /// whose parent a splice touches, but for a deletion's record the splices inside its
    /// node. A change ends a sweep.
    pub fn carry(&mut self, base: &str, splices: &[(Range<usize>, &str)]) {
        if !splices.is_empty() {
            self.sweep = false;
        }
        if splices.is_empty() || self.by_span.is_empty() {
            return;
        }
        // For guarded records: every word the splices take away, with the first and the
        // last splice that takes it; made when a guarded record is first met.
        let mut spread: Option<BTreeMap<&str, (usize, usize)>> = None;
        // Where in `base` the words of `spread` stand, made when first needed.
        let mut places: Option<BTreeMap<&str, Vec<usize>>> = None;
        let moves = Moves::new(splices);
        let old = std::mem::take(&mut self.by_span);
        for ((start, end), records) in old {
            // Splices within the node change nothing its deletion leaves: the text without
            // it is the same (a deeper level's deletion inside a chain the bug needs).
            // Those splices lie side by side: `inside` is their range of indices, empty
            // when there are none; the others are `outside`.
            let own = start..end;
            let inside = within(splices, &own);
            let outside: [&[(Range<usize>, &str)]; 2] =
                [&splices[..inside.start], &splices[inside.end..]];
            for record in records {
                let around: [&[(Range<usize>, &str)]; 2] = if record.what == DELETE {
                    outside
                } else {
                    [splices, &[]]
                };
                if around.iter().any(|part| touches(part, &record.parent)) {
                    continue;
                }
                // The words a splice inside the node takes away were its own.
                if record.guarded {
                    let spread = spread.get_or_insert_with(|| spread_of(base, splices));
                    // A word counts when a splice outside the node takes it.
                    let taken_outside = |&(first, last): &(usize, usize)| {
                        inside.is_empty() || first < inside.start || last >= inside.end
                    };
                    // The node's words are read, or where it is large beside what the
                    // splices took (the outer ones of thousands of nested functions),
                    // the places of the words taken are looked up in it.
                    let gone = if own.len() <= spread.len().saturating_mul(16) {
                        base.get(own.clone()).is_some_and(|t| {
                            words(t).any(|w| spread.get(w).is_some_and(taken_outside))
                        })
                    } else {
                        let places = places.get_or_insert_with(|| places_of(base, spread));
                        spread.iter().any(|(word, span)| {
                            taken_outside(span)
                                && places.get(word).is_some_and(|at| {
                                    let i = at.partition_point(|&p| p < own.start);
                                    at.get(i).is_some_and(|&p| p < own.end)
                                })
                        })
                    };
                    if gone {
                        continue;
                    }
                }
                let parent = moves.of(record.parent.start)..moves.of(record.parent.end);
                self.by_span
                    .entry((moves.of(start), moves.of(end)))
                    .or_default()
                    .push(Record { parent, ..record });
            }
        }
    }
}

/// Where the positions of a text go when splices (disjoint, ascending, as
/// [`crate::render::splices`] gives them) are made in it.
pub struct Moves {
    /// Where each splice ends.
    ends: Vec<usize>,
    /// shift[i]: how much the splices before splice i moved the text to the left
    /// (negative when they inserted more than they removed).
    shift: Vec<isize>,
}

impl Moves {
    /// The moves `splices` make.
    pub fn new(splices: &[(Range<usize>, &str)]) -> Self {
        let mut shift: Vec<isize> = Vec::with_capacity(splices.len() + 1);
        let mut total = 0isize;
        shift.push(0);
        for (span, text) in splices {
            total += span.len() as isize - text.len() as isize;
            shift.push(total);
        }
        let ends = splices.iter().map(|(span, _)| span.end).collect();
        Moves { ends, shift }
    }

    /// Where the position `at`, which no splice touches, goes: it moves as every splice
    /// ending at or before it moved the text.
    pub fn of(&self, at: usize) -> usize {
        let before = self.ends.partition_point(|&end| end <= at);
        at.saturating_add_signed(-self.shift[before])
    }
}

/// Every word that `splices` of `base` take away, with the first and the last splice that
/// takes it.
fn spread_of<'b>(
    base: &'b str,
    splices: &[(Range<usize>, &str)],
) -> BTreeMap<&'b str, (usize, usize)> {
    let mut spread: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (i, (span, _)) in splices.iter().enumerate() {
        for word in base.get(span.clone()).into_iter().flat_map(words) {
            spread
                .entry(word)
                .and_modify(|(_, last)| *last = i)
                .or_insert((i, i));
        }
    }
    spread
}

/// Where in `base` each word of `spread` stands (the offsets of its first bytes, in
/// ascending order).
fn places_of<'b>(
    base: &'b str,
    spread: &BTreeMap<&str, (usize, usize)>,
) -> BTreeMap<&'b str, Vec<usize>> {
    let mut places: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let origin = base.as_ptr() as usize;
    for word in words(base) {
        if spread.contains_key(word) {
            places
                .entry(word)
                .or_default()
                .push(word.as_ptr() as usize - origin);
        }
    }
    places
}

/// The indices of the `splices` (disjoint, ascending) that lie strictly within `own` (see
/// [`strictly_within`]): side by side, found by two binary searches and a look at the
/// ends, so that carrying the records of a chain of nested nodes costs no more than
/// linear work per record.
fn within(splices: &[(Range<usize>, &str)], own: &Range<usize>) -> Range<usize> {
    let mut lo = splices.partition_point(|(span, _)| span.start < own.start);
    let mut hi = splices.partition_point(|(span, _)| span.start < own.end);
    // Only at the ends may one not be: an insertion at the node's start, a replacement
    // of all of it, one that runs past its end.
    while lo < hi && !strictly_within(&splices[lo].0, own) {
        lo += 1;
    }
    while hi > lo && !strictly_within(&splices[hi - 1].0, own) {
        hi -= 1;
    }
    lo..hi
}

/// The words of `text`: runs of letters, digits, `_` and `$`.
pub(crate) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty())
}

/// True when `span` (a splice's) lies inside `own` and is not all of it: an insertion
/// strictly inside, or a replacement of bytes of `own` that leaves some of them.
fn strictly_within(span: &Range<usize>, own: &Range<usize>) -> bool {
    if span.is_empty() {
        own.start < span.start && span.start < own.end
    } else {
        own.start <= span.start && span.end <= own.end && span.len() < own.len()
    }
}

/// True when one of `splices` (disjoint, ascending) changes bytes of `range`, or inserts
/// strictly inside it.
pub fn touches(splices: &[(Range<usize>, &str)], range: &Range<usize>) -> bool {
    let first = splices.partition_point(|(span, _)| span.end <= range.start);
    splices[first..]
        .iter()
        .take_while(|(span, _)| span.start <= range.end)
        .any(|(span, _)| {
            if span.is_empty() {
                range.start < span.start && span.start < range.end
            } else {
                span.start < range.end && span.end > range.start
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::{Format, Frontend};
    use crate::render::{render, splices};
    use crate::tree::Edit;

    fn xml() -> Box<dyn Frontend> {
        Format::Xml.frontend()
    }

    /// The labels of the nodes of `text` that `needed` holds, in document order.
    fn held(needed: &Needed, text: &str) -> Vec<String> {
        let tree = xml().parse(text).expect("parses");
        tree.ids()
            .map(|id| tree.node(id))
            .filter(|node| needed.holds(node, DELETE))
            .map(|node| format!("{}@{}", node.label, &text[node.span.clone()]))
            .collect()
    }

    /// Records the whole tree of `text`, applies `edits` and returns the new text.
    fn carried(needed: &mut Needed, text: &str, edits: &[Edit]) -> String {
        let tree = xml().parse(text).expect("parses");
        needed.record_all(text, 0, &tree);
        let edits: Vec<&Edit> = edits.iter().collect();
        needed.carry(text, &splices(text, &edits));
        render(text, &edits)
    }

    fn span_of(text: &str, piece: &str) -> Range<usize> {
        let start = text.find(piece).expect("piece in text");
        start..start + piece.len()
    }

    /// A guarded record is released by an edit anywhere that takes away one of its words,
    /// and kept through other edits outside its parent, as a plain one.
    #[test]
    fn a_guarded_record_goes_with_a_word_of_its_node() {
        let text = "<r><p><a>foo</a></p><q>bar</q><s>foo</s></r>";
        let record = |needed: &mut Needed| {
            let tree = xml().parse(text).expect("parses");
            let a = tree
                .ids()
                .find(|&id| tree.node(id).label == "a")
                .expect("a");
            let subject = Subject::of(&tree, a, DELETE).expect("a parent").guarded();
            needed.record(&subject);
        };
        let after = |piece: &str| {
            let mut needed = Needed::default();
            record(&mut needed);
            let edits = [Edit::delete(span_of(text, piece))];
            let edits: Vec<&Edit> = edits.iter().collect();
            needed.carry(text, &splices(text, &edits));
            held(&needed, &render(text, &edits))
        };
        assert_eq!(after("<q>bar</q>"), ["a@<a>foo</a>"]);
        assert!(after("<s>foo</s>").is_empty());
        // Inside the node, its own words may go (the first `foo` is its text).
        assert_eq!(after("foo"), ["a@<a></a>"]);
    }

    /// An edit inside a needed node leaves its deletion's record: the text without the
    /// node is what it was.
    #[test]
    fn a_deletion_record_stays_through_edits_inside_its_node() {
        let text = "<r><a><b>t</b><c/></a><d/></r>";
        let mut needed = Needed::default();
        let after = carried(&mut needed, text, &[Edit::delete(span_of(text, "<c/>"))]);
        assert_eq!(after, "<r><a><b>t</b></a><d/></r>");
        let kept = held(&needed, &after);
        assert!(kept.contains(&"a@<a><b>t</b></a>".to_string()), "{kept:?}");
        // Its siblings' records go (their parent changed), and its children's.
        assert!(!kept.iter().any(|h| h.starts_with("d@")), "{kept:?}");
        assert!(!kept.iter().any(|h| h.starts_with("b@")), "{kept:?}");
        // Written over whole, the node is another one.
        let mut needed = Needed::default();
        let a = span_of(text, "<a><b>t</b><c/></a>");
        let after = carried(&mut needed, text, &[Edit::replace(a, "<a/>".into())]);
        let kept = held(&needed, &after);
        assert!(!kept.iter().any(|h| h.starts_with("a@")), "{kept:?}");
    }

    #[test]
    fn records_follow_edits_away_from_their_parent() {
        let text = "<r><a><b x=\"1\">t</b></a><c/></r>";
        let mut needed = Needed::default();
        // Deleting <c/> touches the parent of <a> and <c> (the root), not <a>'s children.
        let after = carried(&mut needed, text, &[Edit::delete(span_of(text, "<c/>"))]);
        assert_eq!(after, "<r><a><b x=\"1\">t</b></a></r>");
        let held = held(&needed, &after);
        assert!(held.contains(&"b@<b x=\"1\">t</b>".to_string()), "{held:?}");
        assert!(!held.iter().any(|h| h.starts_with("a@")), "{held:?}");
    }

    #[test]
    fn an_unwrapped_parent_releases_its_children_but_not_theirs() {
        let text = "<r><p><m><i v=\"x\">E</i></m></p></r>";
        let mut needed = Needed::default();
        // Unwrap <m>: its two tags go; <i> now has another parent.
        let edits = [
            Edit::delete(span_of(text, "<m>")),
            Edit::delete(span_of(text, "</m>")),
        ];
        let after = carried(&mut needed, text, &edits);
        assert_eq!(after, "<r><p><i v=\"x\">E</i></p></r>");
        let held = held(&needed, &after);
        assert!(!held.iter().any(|h| h.starts_with("i@")), "{held:?}");
        // The attribute and the text of <i> still have <i> as it was, and <p> lost only
        // what is inside it.
        assert!(
            held.iter().any(|h| h.contains("E") && !h.starts_with("i@")),
            "{held:?}"
        );
        assert!(held.iter().any(|h| h.starts_with("p@")), "{held:?}");
        assert_eq!(held.len(), 3, "{held:?}");
    }

    #[test]
    fn an_edit_before_a_node_moves_it() {
        let text = "<r><q>long text</q><s><t/></s></r>";
        let mut needed = Needed::default();
        let edits = [Edit::replace(span_of(text, "long text"), String::from("x"))];
        let after = carried(&mut needed, text, &edits);
        // <q>'s text changed: its own deletion's record stays, its text's goes.
        assert_eq!(
            held(&needed, &after),
            vec!["q@<q>x</q>".to_string(), "t@<t/>".to_string()]
        );
        let tree = xml().parse(&after).expect("parses");
        let t = tree
            .ids()
            .find(|&id| tree.node(id).label == "t")
            .expect("t");
        assert!(needed.holds(tree.node(t), DELETE));
    }

    #[test]
    fn a_node_with_the_same_span_and_another_label_is_not_held() {
        let text = "<r><a/></r>";
        let mut needed = Needed::default();
        needed.record_all(text, 0, &xml().parse(text).expect("parses"));
        let mut other = xml().parse("<r><b/></r>").expect("parses");
        let b = other
            .ids()
            .find(|&id| other.node(id).label == "b")
            .expect("b");
        assert!(!needed.holds(other.node(b), DELETE));
        other.node_mut(b).label = "a".into();
        assert!(needed.holds(other.node(b), DELETE));
    }

    #[test]
    fn deletions_that_take_away_a_needed_node_are_seen() {
        let text = "<r><a><b/></a><c/></r>";
        let mut needed = Needed::default();
        needed.record_all(text, 0, &xml().parse(text).expect("parses"));
        let b = span_of(text, "<b/>");
        // The node itself, or more.
        assert!(needed.deleted_by(&[Edit::delete(b.clone())]));
        assert!(needed.deleted_by(&[Edit::delete(span_of(text, "<a><b/></a>"))]));
        // Two deletions that meet take it away together.
        let halves = [
            Edit::delete(b.start + 2..b.end),
            Edit::delete(b.start..b.start + 2),
        ];
        assert!(needed.deleted_by(&halves));
        // A shorter replacement of the node's parent cannot hold it again.
        let a = span_of(text, "<a><b/></a>");
        assert!(needed.deleted_by(&[Edit::replace(a.clone(), String::from("m"))]));
        // Part of it, tags around it, or a replacement that may hold it again: no.
        assert!(!needed.deleted_by(&[Edit::delete(b.start..b.end - 1)]));
        let tags = [
            Edit::delete(span_of(text, "<a>")),
            Edit::delete(span_of(text, "</a>")),
        ];
        assert!(!needed.deleted_by(&tags));
        assert!(!needed.deleted_by(&[Edit::replace(b, String::from("<b/>"))]));
        assert!(!needed.deleted_by(&[Edit::replace(a, String::from("<a><b/></a>"))]));
        let c = span_of(text, "<c/>");
        assert!(!needed.deleted_by(&[Edit::replace(c, String::from("<c>"))]));
        assert!(!Needed::default().deleted_by(&halves));
    }

    #[test]
    fn a_rewritten_node_releases_everything_inside_it() {
        let text = "<r><p><m><i v=\"x\">E</i></m></p><q/></r>";
        let mut needed = Needed::default();
        needed.record_all(text, 0, &xml().parse(text).expect("parses"));
        needed.release_within(&span_of(text, "<p><m><i v=\"x\">E</i></m></p>"));
        assert_eq!(held(&needed, text), vec!["q@<q/>".to_string()]);
    }
}
