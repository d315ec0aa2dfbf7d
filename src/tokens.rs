//! A language-neutral token count used in summaries and benchmarks: a run of letters,
//! digits and underscores is one token, every other non-whitespace character is one token.

/// Counts tokens in `text`. ASCII bytes are classified directly, other characters
/// decoded (a 2 MB page is counted at start-up, so this is on the clock).
pub fn count(text: &str) -> usize {
    let mut n = 0;
    let mut in_word = false;
    let mut rest = text;
    while let Some(&b) = rest.as_bytes().first() {
        let (word, space, len) = if b.is_ascii() {
            let space = matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r');
            (b.is_ascii_alphanumeric() || b == b'_', space, 1)
        } else {
            match rest.chars().next() {
                Some(c) => (c.is_alphanumeric(), c.is_whitespace(), c.len_utf8()),
                None => break,
            }
        };
        if word {
            if !in_word {
                n += 1;
            }
        } else if !space {
            n += 1;
        }
        in_word = word;
        rest = &rest[len..];
    }
    n
}

#[cfg(test)]
mod tests {
    #[test]
    fn words_and_punctuation() {
        assert_eq!(super::count("<math><mo>⊄</mo></math>"), 15);
        assert_eq!(super::count("  foo_bar(1, 23) "), 6);
        assert_eq!(super::count(""), 0);
    }

    /// The ASCII shortcut classifies every character as `char` does.
    #[test]
    fn same_as_char_classes() {
        let by_char = |text: &str| {
            let (mut n, mut in_word) = (0, false);
            for c in text.chars() {
                let word = c.is_alphanumeric() || c == '_';
                n += usize::from((word && !in_word) || (!word && !c.is_whitespace()));
                in_word = word;
            }
            n
        };
        let text = "a\x0bb\x0c c\u{a0}d\u{2003}é_ü9 ;\r\n\t<x>ℒ\u{0}\u{7f}";
        for end in 0..=text.len() {
            if let Some(prefix) = text.get(..end) {
                assert_eq!(super::count(prefix), by_char(prefix), "{prefix:?}");
            }
        }
    }
}
