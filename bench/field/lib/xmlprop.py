#!/usr/bin/env python3
"""Structural tests for the field trial's XML cases: exit 0 iff PROPERTY holds in FILE.

Usage: xmlprop.py PROPERTY FILE
  table-sup    some mtable has two mtr or more and an msup inside one of its mtd
  three-mi     some math holds three mi or more with the same text
  eq-frac      some element has a child mo whose text is "=" and, after it, a child that
               is or holds an mfrac
  p-word-math  some p holds a math and the word WORD in its text (env WORD, default matrix)
  title-sub    the title's text holds the word "Notation" and the body holds an msub
  p-words      some p's text holds both words "Modified" and "Version"
  three-p      the body holds three p or more, each with some text
  id-under     the element with id="588" is inside the element with id="14"
A file that is not well-formed XML fails every test.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET


def local(tag):
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def text_of(e):
    return "".join(e.itertext())


def has_word(text, word):
    return re.search(r"\b" + re.escape(word) + r"\b", text) is not None


def table_sup(every):
    for t in every:
        if local(t.tag) != "mtable":
            continue
        rows = [r for r in t if local(r.tag) == "mtr"]
        if len(rows) >= 2 and any(local(d.tag) == "msup" for r in rows for c in r
                                  if local(c.tag) == "mtd" for d in c.iter()):
            return True
    return False


def three_mi(every):
    for m in every:
        if local(m.tag) != "math":
            continue
        seen = {}
        for d in m.iter():
            if local(d.tag) == "mi":
                key = text_of(d).strip()
                seen[key] = seen.get(key, 0) + 1
                if key and seen[key] >= 3:
                    return True
    return False


def eq_frac(every):
    for e in every:
        eq = False
        for c in e:
            if local(c.tag) == "mo" and text_of(c).strip() == "=":
                eq = True
            elif eq and any(local(d.tag) == "mfrac" for d in c.iter()):
                return True
    return False


def p_word_math(every):
    word = os.environ.get("WORD", "matrix")
    return any(local(p.tag) == "p" and any(local(d.tag) == "math" for d in p.iter())
               and has_word(text_of(p), word) for p in every)


def title_sub(every):
    titles = [e for e in every if local(e.tag) == "title"]
    bodies = [e for e in every if local(e.tag) == "body"]
    return (bool(titles) and has_word(text_of(titles[0]), "Notation") and bool(bodies)
            and any(local(d.tag) == "msub" for d in bodies[0].iter()))


def p_words(every):
    return any(local(p.tag) == "p" and has_word(text_of(p), "Modified")
               and has_word(text_of(p), "Version") for p in every)


def three_p(every):
    bodies = [e for e in every if local(e.tag) == "body"]
    return bool(bodies) and sum(1 for d in bodies[0].iter()
                                if local(d.tag) == "p" and text_of(d).strip()) >= 3


def id_under(every):
    outer = [e for e in every if e.get("id") == "14"]
    return bool(outer) and any(d.get("id") == "588" for d in outer[0].iter())


TESTS = {
    "table-sup": table_sup,
    "three-mi": three_mi,
    "eq-frac": eq_frac,
    "p-word-math": p_word_math,
    "title-sub": title_sub,
    "p-words": p_words,
    "three-p": three_p,
    "id-under": id_under,
}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in TESTS:
        sys.exit(__doc__)
    try:
        root = ET.parse(sys.argv[2]).getroot()
    except (ET.ParseError, OSError):
        return 1
    return 0 if TESTS[sys.argv[1]](list(root.iter())) else 1


sys.exit(main())
