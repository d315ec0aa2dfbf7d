//! A language-neutral token count used in summaries and benchmarks: a run of letters,
//! digits and underscores is one token, every other non-whitespace character is one token.

/// Counts tokens in `text`.
pub fn count(text: &str) -> usize {
    let mut n = 0;
    let mut in_word = false;
    for c in text.chars() {
        let word = c.is_alphanumeric() || c == '_';
        if word {
            if !in_word {
                n += 1;
            }
        } else if !c.is_whitespace() {
            n += 1;
        }
        in_word = word;
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
}
