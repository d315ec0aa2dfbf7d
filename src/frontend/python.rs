//! Python as lines (see [`super::Lines`]), with a cheap check of what Python's tokenizer
//! and the simplest of its grammar ask of the blocks: a header (`if x:`) is followed by
//! a deeper line, a line is deeper than the one before only after a header, a dedent
//! returns to an indentation met before, a clause (`elif`, `else`, `except`, `finally`)
//! follows a statement it may continue at its indentation, a `try` block is followed by an
//! `except` or `finally`, a decorator by what it decorates, `return` and `yield` stand in
//! a function, and `break` and `continue` in a loop. A candidate that breaks
//! one of them is refused without the test: an emptied `if x:` or a dangling decorator
//! never runs. The check reads strings and comments only far enough to skip them; each
//! rule holds only where the original keeps it (a test of "`return` outside function"
//! keeps the others), and none where the check cannot tell the original's strings and
//! brackets apart, so a text it misreads is reduced as plain lines.

use super::{Frontend, Lines, SyntaxError};
use crate::tree::Tree;

/// Python source as lines, its candidates held to the block rules the original keeps.
#[derive(Debug, Clone, Copy)]
pub struct Python {
    /// The rules the original breaks (see [`broken`]), which candidates may break too.
    allowed: u8,
}

impl Python {
    /// The front end for reducing `original`.
    pub fn for_original(original: &str) -> Self {
        let broken = broken(original);
        Python {
            allowed: if broken & UNREAD != 0 {
                u8::MAX
            } else {
                broken
            },
        }
    }
}

/// The check could not tell strings and brackets apart (one is open at the end).
const UNREAD: u8 = 1;
/// Indentation: a header without a deeper line, a deeper line without a header, a
/// dedent to an indentation not met before.
const INDENT: u8 = 2;
/// A clause where no statement it may continue stands.
const CLAUSE: u8 = 4;
/// A `try` without its `except` or `finally`.
const TRY: u8 = 8;
/// A decorator before something it cannot decorate.
const DECORATOR: u8 = 16;
/// `return` or `yield` outside a function.
const RETURN: u8 = 32;
/// `break` or `continue` outside a loop.
const LOOP: u8 = 64;

impl Frontend for Python {
    fn parse(&self, text: &str) -> Result<Tree, SyntaxError> {
        Lines.parse(text)
    }

    fn is_valid(&self, text: &str) -> bool {
        self.allowed == u8::MAX || broken(text) & !self.allowed == 0
    }
}

/// One logical line: the indentation of its first physical line, its first word, and
/// whether it ends with the colon of a header.
struct Logical<'t> {
    indent: usize,
    word: &'t str,
    header: bool,
}

/// The logical lines of `text` that hold code (not only comments or blank), or `None`
/// when a string or a bracket is still open at the end.
fn logical_lines(text: &str) -> Option<Vec<Logical<'_>>> {
    let mut out = Vec::new();
    // Open brackets, and the quote of a string still open at a line's end (a triple
    // quote, or a single one whose line ends in a backslash).
    let mut depth = 0usize;
    let mut open: Option<&str> = None;
    let mut continued = false;
    let mut current: Option<Logical> = None;
    for line in text.lines() {
        let starts_logical = depth == 0 && open.is_none() && !continued;
        let body = line.trim_start_matches([' ', '\t']);
        let mut last_code: Option<char> = None;
        let mut rest = line;
        if let Some(quote) = open {
            match string_end(rest, quote) {
                Ok(after) => {
                    open = None;
                    rest = &rest[after..];
                    last_code = Some('"');
                }
                Err(escaped) => {
                    // A one-line string without its closing quote nor a backslash ends
                    // here (Python refuses it; it is not this check's to say).
                    if quote.len() == 1 && !escaped {
                        open = None;
                    }
                    continue;
                }
            }
        }
        let mut chars = rest.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            match c {
                '#' => break,
                '\'' | '"' => {
                    last_code = Some(c);
                    let tail = &rest[at..];
                    let triple = if c == '"' { "\"\"\"" } else { "'''" };
                    let quote = if tail.starts_with(triple) {
                        triple
                    } else {
                        &triple[..1]
                    };
                    match string_end(&tail[quote.len()..], quote) {
                        Ok(after) => {
                            let skip = at + quote.len() + after;
                            while chars.peek().is_some_and(|&(i, _)| i < skip) {
                                chars.next();
                            }
                        }
                        Err(escaped) => {
                            if quote.len() == 3 || escaped {
                                open = Some(quote);
                            }
                            break;
                        }
                    }
                }
                '(' | '[' | '{' => {
                    depth += 1;
                    last_code = Some(c);
                }
                ')' | ']' | '}' => {
                    depth = depth.checked_sub(1)?;
                    last_code = Some(c);
                }
                c if c.is_whitespace() => {}
                c => last_code = Some(c),
            }
        }
        // A backslash at the end of code, not of a comment or a string.
        continued = open.is_none() && last_code == Some('\\') && line.trim_end().ends_with('\\');
        if last_code.is_none() && starts_logical {
            continue;
        }
        if starts_logical {
            // `async for` is a `for` to the clauses after it.
            let (first, after) = first_word(body);
            let first = if first == "async" {
                first_word(after).0
            } else {
                first
            };
            out.extend(current.take());
            current = Some(Logical {
                indent: line.len() - body.len(),
                word: first,
                header: false,
            });
        }
        if depth == 0
            && open.is_none()
            && !continued
            && let Some(logical) = current.as_mut()
        {
            logical.header = last_code == Some(':');
        }
    }
    out.extend(current);
    (depth == 0 && open.is_none()).then_some(out)
}

/// The word `s` begins with (a decorator's `@` included) and what follows it.
fn first_word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '@'))
        .unwrap_or(s.len());
    s.split_at(end)
}

/// Where the string that `quote` closes ends in `rest` (the byte after the quote), past
/// escapes; else whether `rest` ends in a backslash that escapes the line break.
fn string_end(rest: &str, quote: &str) -> Result<usize, bool> {
    let mut escaped = false;
    for (at, c) in rest.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if rest[at..].starts_with(quote) {
            return Ok(at + quote.len());
        }
    }
    Err(escaped)
}

/// The statements a clause may continue.
fn continues(clause: &str, head: &str) -> bool {
    match clause {
        "elif" => matches!(head, "if" | "elif"),
        "else" => matches!(head, "if" | "elif" | "for" | "while" | "try" | "except"),
        "except" => matches!(head, "try" | "except"),
        "finally" => matches!(head, "try" | "except" | "else"),
        _ => true,
    }
}

/// The rules of the module's comment that `text` breaks, as a set of bits.
fn broken(text: &str) -> u8 {
    let Some(lines) = logical_lines(text) else {
        return UNREAD;
    };
    let mut broken = 0;
    // Each open level: its indentation, the first word of its last line (a clause
    // continues the statement that line began), whether a `try` there still waits for its
    // `except` or `finally`, and the first word of the header that opened it.
    let mut levels: Vec<(usize, &str, bool, &str)> = vec![(0, "", false, "")];
    let mut expect_block = false;
    let mut decorated = false;
    for line in &lines {
        let top = levels.last().map_or(0, |l| l.0);
        if line.indent > top {
            if !expect_block {
                broken |= INDENT;
            }
            let opener = levels.last().map_or("", |l| l.1);
            levels.push((line.indent, "", false, opener));
        } else {
            if expect_block {
                broken |= INDENT;
            }
            while levels.len() > 1 && levels.last().is_some_and(|l| l.0 > line.indent) {
                if levels.pop().is_some_and(|l| l.2) {
                    broken |= TRY;
                }
            }
            if levels.last().is_none_or(|l| l.0 != line.indent) {
                broken |= INDENT;
            }
        }
        // The headers around the line, innermost first, up to its function or class.
        let around = || {
            let mut inside = true;
            levels.iter().rev().map(|l| l.3).take_while(move |&w| {
                let went = inside;
                inside = !matches!(w, "def" | "class");
                went
            })
        };
        match line.word {
            "return" | "yield" if around().last() != Some("def") => broken |= RETURN,
            "break" | "continue" if !around().any(|w| matches!(w, "for" | "while")) => {
                broken |= LOOP;
            }
            _ => {}
        }
        let Some(level) = levels.last_mut() else {
            return broken | INDENT;
        };
        let clause = matches!(line.word, "elif" | "else" | "except" | "finally");
        if clause && !continues(line.word, level.1) {
            broken |= CLAUSE;
        }
        if level.2 && !matches!(line.word, "except" | "finally") {
            broken |= TRY;
        }
        if decorated && !matches!(line.word, "def" | "class") && !line.word.starts_with('@') {
            broken |= DECORATOR;
        }
        decorated = line.word.starts_with('@');
        level.1 = line.word;
        level.2 = line.word == "try" && line.header;
        expect_block = line.header;
    }
    if expect_block {
        broken |= INDENT;
    }
    if decorated {
        broken |= DECORATOR;
    }
    if levels.iter().any(|l| l.2) {
        broken |= TRY;
    }
    broken
}

/// True when `text` breaks none of the rules.
#[cfg(test)]
fn blocks_hold(text: &str) -> bool {
    broken(text) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_that_python_reads() {
        for text in [
            "",
            "x = 1\n",
            "def f(a,\n      b):\n    '''Doc:\nnot a header'''\n    return a  # note:\n",
            "if a:\n    b\nelif c:\n    d\nelse:\n    e\n",
            "try:\n    a\nexcept E:\n    b\nelse:\n    c\nfinally:\n    d\n",
            "for x in y:\n    pass\nelse:\n    z\n",
            "@dec\n@other(1)\ndef f():\n    pass\n",
            "x = {\n    'a':\n        1,\n}\n",
            "if a and \\\n        b:\n    c\n",
            "class A: pass\ns = \"a # b:\"\n",
            "def f():\n    \"\"\"doc\"\"\"\n",
            "if a:\n    # a comment that ends in \\\n    b\n",
            "def f():\n    for x in y:\n        if x:\n            break\n    return x\n",
            "class A:\n    def g(self):\n        yield 1\nreturn_value = 2\n",
            "while a:\n    def g():\n        return\n    continue\n",
            "async def f():\n    async for x in y:\n        pass\n    else:\n        pass\n",
            "if a:\n    x = 'a: \\\n  b'\n",
            "x = \"\"\"a\n\\\"\"\"b\"\"\"\n",
        ] {
            assert!(blocks_hold(text), "{text:?}");
        }
    }

    #[test]
    fn blocks_that_python_refuses() {
        for text in [
            "if a:\n",
            "if a:\n# only a comment\n",
            "if a:\nb\n",
            "a\n    b\n",
            "if a:\n        b\n    c\n",
            "else:\n    b\n",
            "if a:\n    b\nx\nelse:\n    c\n",
            "while a:\n    b\nexcept E:\n    c\n",
            "try:\n    a\nb\n",
            "try:\n    a\n",
            "@dec\nx = 1\n",
            "@dec\n",
            "x = (1,\n",
            "s = '''open\n",
            "return 1\n",
            "class A:\n    yield 1\n",
            "if a:\n    break\n",
            "for x in y:\n    def g():\n        continue\n",
        ] {
            assert!(!blocks_hold(text), "{text:?}");
        }
    }

    /// The check is only as strict as the original lets it be: a rule the original breaks
    /// is off, the others stay on, and none holds where its strings are misread.
    #[test]
    fn a_rule_the_original_breaks_is_off() {
        let fine = "if a:\n    b\n";
        assert!(!Python::for_original(fine).is_valid("if a:\n"));
        let odd = "x = 1\n    y = 2\nif a:\n    b\n";
        assert!(Python::for_original(odd).is_valid("    y = 2\n"));
        let planted = "return 1\nif a:\n    b\n";
        let python = Python::for_original(planted);
        assert!(python.is_valid("return 1\n"));
        assert!(!python.is_valid("return 1\nif a:\n"));
        let unread = "s = '''open\nif a:\n    b\n";
        assert!(Python::for_original(unread).is_valid("if a:\n"));
    }
}
