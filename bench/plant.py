#!/usr/bin/env python3
"""Plants a known bug trigger into a temporary copy of a real input (never into the input).

Usage: plant.py KIND SOURCE DEST
  mathjax   replace the middle `<mi>` of an XHTML/MathML page by `<mi mathvariant="bogus">`
            (MathJax 3.2.2 then crashes: "Cannot read properties of undefined (reading 'chars')")
  mathjax-html  the same, and the page turned into HTML as many pages on the web are: no
            XML declaration, an HTML5 DOCTYPE, void elements without their `/` (`<br>`,
            `<meta ...>`), so that it is no longer well-formed XML
  prettier  in underscore's debounce, inside its nested `later` function: a `while` whose body
            is an if/else-if pair with a line comment after the inner consequent (prettier
            2.7.1: 'Comment "stop here" was not printed. Please report this error!')
  terser    in moment's createLocal: a nested async function testing `await import(path)` in
            an `if` (terser 5.49.1 -c: "Cannot read properties of null (reading 'length')" in
            AST_DynamicImport._size)
"""
import re
import sys


def insert_after(text, anchor, addition):
    if text.count(anchor) != 1:
        sys.exit(f"plant: anchor not found exactly once: {anchor!r}")
    return text.replace(anchor, anchor + addition)


def main():
    kind, source, dest = sys.argv[1:4]
    with open(source, encoding="utf-8") as f:
        text = f.read()
    if kind in ("mathjax", "mathjax-html"):
        spots = [m.start() for m in re.finditer(r"<mi>", text)]
        if not spots:
            sys.exit("plant: no <mi> in " + source)
        at = spots[len(spots) // 2]
        text = text[:at] + '<mi mathvariant="bogus">' + text[at + 4:]
        if kind == "mathjax-html":
            text = re.sub(r"\A(\ufeff)?<\?xml[^>]*\?>\s*", "", text)
            text = re.sub(r"<!DOCTYPE[^>]*>", "<!DOCTYPE html>", text, count=1)
            void = "area|base|br|col|embed|hr|img|input|link|meta|source|track|wbr"
            text = re.sub(r"<(" + void + r")\b([^>]*?)\s*/>", r"<\1\2>", text)
    elif kind == "prettier":
        text = insert_after(
            text,
            "      var passed = now() - previous;\n",
            "      while (passed) {\n"
            "        if (wait !== undefined)\n"
            "            if (wait <= 0) break; // stop here\n"
            "          else wait -= 1;\n"
            "      }\n",
        )
    elif kind == "terser":
        text = insert_after(
            text,
            "    function createLocal(input, format, locale, strict) {\n",
            "        var probe = async function (name, path) {\n"
            "            if (await import(path)) console.log(name);\n"
            "        };\n",
        )
    else:
        sys.exit("plant: unknown kind " + kind)
    with open(dest, "w", encoding="utf-8") as f:
        f.write(text)


main()
