//! Candidate text from a base text and a set of edits, by splicing: bytes no edit touches
//! are copied verbatim, so rendering with no edits returns the base byte for byte.

use std::ops::Range;

use crate::tree::{Edit, Line, Separator};

/// Applies `edits` to `base`. Edits may come in any order. Overlapping deletions merge;
/// an edit nested inside a deletion is dropped (the deletion wins); of two other
/// overlapping edits the one that starts first (or is longer) wins. Spans must lie on
/// `char` boundaries of `base`.
pub fn render(base: &str, edits: &[&Edit]) -> String {
    let splices = splices(base, edits);
    let removed: usize = splices.iter().map(|(span, _)| span.len()).sum();
    let mut out = String::with_capacity(base.len().saturating_sub(removed.min(base.len())));
    let mut pos = 0;
    for (span, text) in splices {
        out.push_str(&base[pos..span.start]);
        out.push_str(text);
        pos = span.end;
    }
    out.push_str(&base[pos..]);
    out
}

/// What [`render`] does with `edits` of `base`: disjoint replacements in ascending order,
/// each a span of the base and its new text, after overlapping deletions merged and
/// overlapped edits dropped. Front ends that re-parse incrementally describe a candidate
/// with these.
pub fn splices<'e>(base: &str, edits: &[&'e Edit]) -> Vec<(Range<usize>, &'e str)> {
    let mut order: Vec<&Edit> = edits.to_vec();
    order.sort_by(|a, b| {
        a.span
            .start
            .cmp(&b.span.start)
            .then(b.span.end.cmp(&a.span.end))
    });
    let mut out: Vec<(Range<usize>, &'e str)> = Vec::with_capacity(order.len());
    // The separators of a list's last item whose deletion is in the last splice.
    let mut tail: Option<&[Separator]> = None;
    let mut pos = 0;
    let mut last_deletion = false;
    // Where the last splice begins, and the texts of insertions into tags that deletions
    // from there took, on their way to the tag after the deletions (see `Edit::carry`).
    let mut last_start = 0;
    let mut carried: Vec<&'e str> = Vec::new();
    for edit in order {
        let (start, end) = (edit.span.start, edit.span.end);
        if start < pos {
            // Overlaps what is already emitted or skipped.
            if last_deletion && edit.is_deletion() && end > pos {
                pos = end;
                if let Some(last) = out.last_mut() {
                    last.0.end = end;
                }
                tail = edit.separators().or(tail);
            } else if let Some(tag) = edit.carry.filter(|&tag| tag >= last_start) {
                // An insertion into a tag that a deletion beginning at it takes away.
                if last_deletion && !edit.text.is_empty() && blank(base, last_start..tag) {
                    carried.push(edit.text.as_str());
                }
            }
            continue;
        }
        if let Some(tag) = edit.carry {
            // The tag after the deletions takes what they carried; an empty insertion is
            // only there for that.
            if !carried.is_empty() && last_deletion && tag >= pos && blank(base, pos..tag) {
                if let Some(separators) = tail.take() {
                    take_separator(base, &mut out, separators);
                }
                let kept = unshadowed(base, tag, &edit.text, &carried);
                out.extend(kept.into_iter().map(|text| (start..start, text)));
            }
            carried.clear();
            if edit.text.is_empty() {
                continue;
            }
        } else if start > pos && !blank(base, pos..start) {
            carried.clear();
        }
        if let Some(separators) = tail.take() {
            take_separator(base, &mut out, separators);
        }
        out.push((start..end, edit.text.as_str()));
        pos = end;
        last_start = start;
        last_deletion = edit.is_deletion();
        tail = edit.separators().filter(|_| last_deletion);
    }
    if let Some(separators) = tail {
        take_separator(base, &mut out, separators);
    }
    // Lines first: a line taken whole may join the deletions before and after it into
    // one run that empties a list (`{\n  a();\n  b(); c();\n}`).
    for field in [Edit::line, Edit::hollow] {
        let mut lines: Vec<&Line> = edits
            .iter()
            .filter(|e| e.is_deletion())
            .filter_map(|e| field(e))
            .collect();
        if !lines.is_empty() {
            lines.sort_by_key(|l| (l.content.start, l.content.end));
            lines.dedup();
            take_lines(&mut out, &lines);
        }
    }
    keep_last_line_open(base, &mut out);
    if edits.iter().any(|e| e.apart) {
        keep_words_apart(base, edits, &mut out);
    }
    out
}

/// Of the attributes in `carried` (texts carried into tags, outermost first, see
/// [`Edit::carry`]), those that the tag of `base` beginning at `tag` and its own
/// insertion `own` do not declare already, nor a text carried after them (from an
/// element further in): the declarations nearest the tag win, and no name is declared
/// twice.
fn unshadowed<'e>(base: &str, tag: usize, own: &str, carried: &[&'e str]) -> Vec<&'e str> {
    // The tag's own attributes: after its name, up to its end.
    let after_name = base[tag + 1..]
        .find(|c: char| c.is_ascii_whitespace() || c == '/' || c == '>')
        .map_or(base.len(), |at| tag + 1 + at);
    let mut taken: Vec<&str> = attributes(&base[after_name..])
        .into_iter()
        .chain(attributes(own))
        .map(|(name, _)| name)
        .collect();
    let mut kept = Vec::new();
    for text in carried.iter().rev() {
        for (name, whole) in attributes(text).into_iter().rev() {
            if !taken.contains(&name) {
                taken.push(name);
                kept.push(whole);
            }
        }
    }
    kept.reverse();
    kept
}

/// The attributes `text` begins with (` a="1" b='2'`, up to anything else such as a tag's
/// `>`): each one's name, and its text with the spaces before it.
fn attributes(text: &str) -> Vec<(&str, &str)> {
    let bytes = text.as_bytes();
    let skip_spaces = |mut i: usize| {
        while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        i
    };
    let mut found = Vec::new();
    let mut at = 0;
    loop {
        let name_start = skip_spaces(at);
        let mut i = name_start;
        while bytes
            .get(i)
            .is_some_and(|&b| !b.is_ascii_whitespace() && !matches!(b, b'=' | b'>' | b'/'))
        {
            i += 1;
        }
        let name_end = i;
        let i = skip_spaces(i);
        if name_end == name_start || bytes.get(i) != Some(&b'=') {
            return found;
        }
        let i = skip_spaces(i + 1);
        let Some(&quote) = bytes.get(i).filter(|&&q| q == b'"' || q == b'\'') else {
            return found;
        };
        let Some(close) = text[i + 1..].find(quote as char) else {
            return found;
        };
        let end = i + 1 + close + 1;
        found.push((&text[name_start..name_end], &text[at..end]));
        at = end;
    }
}

/// True for the bytes of a word in code: an identifier's, a number's, and those of
/// non-ASCII characters.
pub(crate) fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'\\') || b >= 0x80
}

/// True when the bytes `before` and `after`, side by side in code, would make one token of
/// two: two words, `/` and `/` or `*` (a regular expression after a division would open a
/// comment), `+` and `+`, `-` and `-`.
pub(crate) fn would_fuse(before: u8, after: u8) -> bool {
    (is_word_byte(before) && is_word_byte(after))
        || matches!(
            (before, after),
            (b'/', b'/' | b'*') | (b'+', b'+') | (b'-', b'-')
        )
}

/// A deletion in `out` that takes an edit with [`Edit::apart`] in and would join two bytes
/// into one token (see [`would_fuse`]) leaves a space instead. The bytes around each splice
/// are found in one pass each way (a run of adjacent deletions, such as the brackets of
/// 40 000 nested arrays hoisted at once, is walked once, not once per deletion in it).
fn keep_words_apart(base: &str, edits: &[&Edit], out: &mut [(Range<usize>, &str)]) {
    let mut apart: Vec<&Range<usize>> = edits.iter().filter(|e| e.apart).map(|e| &e.span).collect();
    apart.sort_by_key(|span| span.start);
    let bytes = base.as_bytes();
    // The candidate's byte after each splice: a later adjacent splice's first, or the
    // base's. Only splices before the one being looked at change, so this holds.
    let mut after: Vec<Option<u8>> = vec![None; out.len()];
    for i in (0..out.len()).rev() {
        let end = out[i].0.end;
        after[i] = match out.get(i + 1) {
            Some((next, text)) if next.start == end => {
                text.as_bytes().first().copied().or(after[i + 1])
            }
            _ => bytes.get(end).copied(),
        };
    }
    // The candidate's byte before the splice looked at: an earlier adjacent splice's last
    // (as this loop left it), or the base's.
    let mut before: Option<u8> = None;
    for i in 0..out.len() {
        let span = out[i].0.clone();
        before = match i.checked_sub(1).map(|p| &out[p]) {
            Some((previous, text)) if previous.end == span.start => {
                text.as_bytes().last().copied().or(before)
            }
            _ => span.start.checked_sub(1).map(|p| bytes[p]),
        };
        let from = apart.partition_point(|a| a.end <= span.start);
        if !out[i].1.is_empty() || apart.get(from).is_none_or(|a| a.start >= span.end) {
            continue;
        }
        if let (Some(b), Some(a)) = (before, after[i])
            && would_fuse(b, a)
        {
            out[i].1 = " ";
        }
    }
}

/// In a text whose last line has no line break, a deletion that runs from the start of a
/// line to the end takes the line break before it, so that the candidate still ends
/// without one (`a\nb` less `b` is `a`, not `a\n`).
fn keep_last_line_open(base: &str, out: &mut [(Range<usize>, &str)]) {
    if base.ends_with('\n') || out.last().is_none_or(|(span, _)| span.end != base.len()) {
        return;
    }
    // The run of adjacent deletions that ends the text.
    let mut first = out.len();
    while first > 0 && out[first - 1].1.is_empty() {
        if first < out.len() && out[first - 1].0.end != out[first].0.start {
            break;
        }
        first -= 1;
    }
    let Some((run, _)) = out.get(first) else {
        return;
    };
    let bytes = base.as_bytes();
    if run.start == 0 || bytes[run.start - 1] != b'\n' {
        return;
    }
    let mut start = run.start - 1;
    if start > 0 && bytes[start - 1] == b'\r' {
        start -= 1;
    }
    let free = first == 0 || out[first - 1].0.end <= start;
    if free {
        out[first].0.start = start;
    }
}

/// Each run of adjacent deletions in `out` that takes everything on one of `lines` (sorted)
/// but blanks takes the whole line too, unless that would reach into another splice.
fn take_lines<'e>(out: &mut Vec<(Range<usize>, &'e str)>, lines: &[&Line]) {
    let mut taken: Vec<(Range<usize>, &'e str)> = Vec::with_capacity(out.len());
    let mut i = 0;
    while i < out.len() {
        if !out[i].1.is_empty() {
            taken.push(out[i].clone());
            i += 1;
            continue;
        }
        let mut run = out[i].0.clone();
        let mut j = i + 1;
        while j < out.len() && out[j].1.is_empty() && out[j].0.start == run.end {
            run.end = out[j].0.end;
            j += 1;
        }
        let mut wider = run.clone();
        let from = lines.partition_point(|l| l.content.start < run.start);
        for line in lines[from..]
            .iter()
            .take_while(|l| l.content.start < run.end)
        {
            if line.content.end <= run.end {
                wider.start = wider.start.min(line.whole.start);
                wider.end = wider.end.max(line.whole.end);
            }
        }
        let free_before = taken.last().is_none_or(|(s, _)| s.end <= wider.start);
        let free_after = out.get(j).is_none_or(|(s, _)| wider.end <= s.start);
        if wider != run && free_before && free_after {
            taken.push((wider, ""));
        } else {
            taken.extend_from_slice(&out[i..j]);
        }
        i = j;
    }
    *out = taken;
}

/// True when `span` of `base` holds only ASCII whitespace (false for a span outside it).
fn blank(base: &str, span: Range<usize>) -> bool {
    base.get(span)
        .is_some_and(|gap| gap.bytes().all(|b| b.is_ascii_whitespace()))
}

/// `out`'s last splice deletes a separated list's last item: when it runs back to an item
/// (the deletions just before it included) and begins after the separator before that
/// item, the separator goes too.
fn take_separator(base: &str, out: &mut Vec<(Range<usize>, &str)>, separators: &[Separator]) {
    let Some((run, _)) = out.pop() else {
        return;
    };
    // Deletions that end where the run begins are part of it (from `touching` on), and so
    // are those that end before it with only blanks between (an item's deletion that stops
    // at the next line's indent; they are set `apart`): the separator looked for is the
    // one before the first item they take, at `reached`. The blanks go with the
    // separator; should it stay, they stay too.
    let mut touching = run.start;
    let mut apart: Vec<(Range<usize>, &str)> = Vec::new();
    let mut reached = run.start;
    while let Some((before, text)) = out.last() {
        if !text.is_empty() || !blank(base, before.end..reached) {
            break;
        }
        reached = before.start;
        if apart.is_empty() && before.end == touching {
            touching = before.start;
            out.pop();
        } else if let Some(splice) = out.pop() {
            apart.push(splice);
        }
    }
    let found = separators
        .get(separators.partition_point(|s| s.reach < reached))
        .filter(|s| s.token.end <= reached && s.reach < run.end);
    // The separator whose item is the first one the run reaches.
    let Some(separator) = found else {
        // No separator to take: the deletions across blanks stay as they were.
        out.extend(apart.into_iter().rev());
        out.push((touching..run.end, ""));
        return;
    };
    let token = separator.token.clone();
    // Splices between the separator and the run (a comment's deletion) stay where they are.
    let at = out.partition_point(|(span, _)| span.start < token.start);
    let before_clear = out[..at].last().is_none_or(|(s, _)| s.end <= token.start);
    // Deletions inside the separator's bytes (a comment before the comma: `"a" /* c */,`)
    // go with it, or the comma would stay after the new last item (JSON has no trailing
    // comma). What follows them keeps its place in `out` at `at`.
    let inside = out[at..]
        .iter()
        .take_while(|(s, text)| text.is_empty() && s.end <= token.end)
        .count();
    if before_clear
        && out
            .get(at + inside)
            .is_none_or(|(s, _)| s.start >= token.end)
    {
        out.drain(at..at + inside);
    }
    let clear = before_clear && out.get(at).is_none_or(|(s, _)| s.start >= token.end);
    if !clear {
        // Something else was edited on the separator: leave it.
        out.extend(apart.into_iter().rev());
        out.push((touching..run.end, ""));
    } else if reached <= separator.joined {
        out.push((token.start..run.end, ""));
    } else {
        out.insert(at, (token, ""));
        out.push((reached..run.end, ""));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn del(a: usize, b: usize) -> Edit {
        Edit::delete(a..b)
    }

    /// A comment deleted between the new last item and the separator goes with the
    /// separator: no trailing comma stays.
    #[test]
    fn a_comment_before_the_separator_goes_with_it() {
        let base = "[1 /* c */,\n 2\n]";
        let separators: std::sync::Arc<[Separator]> = vec![Separator {
            token: 2..11,
            reach: 13,
            joined: 11,
        }]
        .into();
        let last = Edit {
            along: crate::tree::Along {
                separators: Some(separators),
                ..Default::default()
            }
            .shared(),
            ..Edit::delete(12..15)
        };
        let comment = del(2, 10);
        assert_eq!(render(base, &[&comment, &last]), "[1\n]");
        assert_eq!(render(base, &[&last]), "[1\n]");
    }

    /// Adjacent deletions that would join two words leave one space, before the first of
    /// them; one run of many costs one walk (a chain of hoists: every bracket goes).
    #[test]
    fn adjacent_deletions_keep_words_apart_once() {
        let (a, b) = (Edit::delete_apart(1..2), Edit::delete_apart(2..4));
        assert_eq!(render("a(b)c", &[&a, &b]), "a c");
        let n = 50_000;
        let base = format!("f{}x{}g", "(".repeat(n), ")".repeat(n));
        let edits: Vec<Edit> = (0..n)
            .flat_map(|i| {
                [
                    Edit::delete_apart(1 + i..2 + i),
                    Edit::delete_apart(2 + n + i..3 + n + i),
                ]
            })
            .collect();
        let edits: Vec<&Edit> = edits.iter().collect();
        assert_eq!(render(&base, &edits), "f x g");
    }

    #[test]
    fn no_edits_is_identity() {
        assert_eq!(render("héllo <a/>", &[]), "héllo <a/>");
    }

    #[test]
    fn deletions_merge_when_overlapping() {
        let (a, b) = (del(1, 4), del(3, 6));
        assert_eq!(render("0123456789", &[&b, &a]), "06789");
    }

    #[test]
    fn nested_edit_inside_deletion_is_dropped() {
        let outer = del(2, 8);
        let inner = Edit::replace(3..5, "X".into());
        assert_eq!(render("0123456789", &[&inner, &outer]), "0189");
    }

    /// Two elements unwrapped in one candidate: what the outer one carried into the inner
    /// one's tag goes on to the tag that stays.
    #[test]
    fn carried_insertions_go_through_deleted_tags() {
        let base = "<r xmlns=\"u\"><a><b/></a></r>";
        let outer = [
            del(0, 13),
            Edit::carry(15, " xmlns=\"u\"".into(), 13),
            del(24, 28),
        ];
        let inner = [del(13, 16), Edit::carry(18, String::new(), 16), del(20, 24)];
        let both: Vec<&Edit> = outer.iter().chain(&inner).collect();
        assert_eq!(render(base, &both), "<b xmlns=\"u\"/>");
        let alone: Vec<&Edit> = outer.iter().collect();
        assert_eq!(render(base, &alone), "<a xmlns=\"u\"><b/></a>");
        let inner_alone: Vec<&Edit> = inner.iter().collect();
        assert_eq!(render(base, &inner_alone), "<r xmlns=\"u\"><b/></r>");
        // Formatting between the tags (its own node, deleted apart) breaks nothing.
        let base = "<r xmlns=\"u\">\n<a>\n\n<b/></a></r>";
        let outer = [
            del(0, 13),
            Edit::carry(16, " xmlns=\"u\"".into(), 14),
            del(27, 31),
        ];
        let inner = [del(14, 17), Edit::carry(21, String::new(), 19), del(23, 27)];
        let both: Vec<&Edit> = outer.iter().chain(&inner).collect();
        assert_eq!(render(base, &both), "\n\n\n<b xmlns=\"u\"/>");
        // The tag that stays declares the name itself, or takes it from nearer: no second
        // declaration.
        let base = "<r xmlns=\"u\" xmlns:p=\"p\"><a xmlns:q='q'><b xmlns=\"v\"/></a></r>";
        let outer = [
            del(0, 25),
            Edit::carry(27, " xmlns=\"u\" xmlns:p=\"p\"".into(), 25),
            del(58, 62),
        ];
        let inner = [
            del(25, 40),
            Edit::carry(42, " xmlns:q='q'".into(), 40),
            del(54, 58),
        ];
        let both: Vec<&Edit> = outer.iter().chain(&inner).collect();
        assert_eq!(
            render(base, &both),
            "<b xmlns:p=\"p\" xmlns:q='q' xmlns=\"v\"/>"
        );
    }

    #[test]
    fn attributes_are_read_with_their_spaces() {
        let names = |text| -> Vec<(&str, &str)> { attributes(text) };
        assert_eq!(
            names(" a=\"1 2\"\n b = '>' c>d=\"3\""),
            [("a", " a=\"1 2\""), ("b", "\n b = '>'")]
        );
        assert!(names("/>").is_empty());
    }

    #[test]
    fn a_text_without_a_final_line_break_keeps_none() {
        let text = "a();\r\nb();\r\nc();";
        let (b, c) = (del(6, 12), del(12, 16));
        assert_eq!(render(text, &[&b, &c]), "a();");
        assert_eq!(render(text, &[&c]), "a();\r\nb();");
        // A deletion that does not start a line, or a text that ends with a line break,
        // is left as it is; so is a line break another edit takes part in.
        assert_eq!(render(text, &[&del(14, 16)]), "a();\r\nb();\r\nc(");
        assert_eq!(render("a\nb\n", &[&del(2, 4)]), "a\n");
        let r = Edit::replace(3..5, "X".into());
        assert_eq!(render("ab;\r\nc", &[&r, &del(5, 6)]), "ab;X");
    }

    #[test]
    fn replacement_and_deletion() {
        let r = Edit::replace(0..2, "ab".into());
        let d = del(5, 7);
        assert_eq!(render("0123456789", &[&d, &r]), "ab234789");
    }
}
