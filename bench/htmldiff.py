#!/usr/bin/env python3
"""Compares the element tree of treereduce's HTML front end with parse5's on HTML files.

Usage: bench/htmldiff.py [-v] FILE...
For every element parse5 builds from a tag of the file, looks for an element of ours with
the same start, the same end (trailing whitespace aside: ours leaves an element closed by
what follows without the spaces before it) and the same parent. An element left open
where it needs an end tag is its start tag alone in ours, what it held its parent's (on
purpose: see html.rs); such an element matches by its start, and its children by the
parent ours gives them. Prints, per file and in all, how many of parse5's elements
differ; -v also shows the first few differences.
Needs cargo, node and bench/js/node_modules (bench/run.sh installs it; or npm ci there).
"""
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

here = Path(__file__).resolve().parent
verbose = sys.argv[1:2] == ["-v"]
files = sys.argv[2:] if verbose else sys.argv[1:]
if not files:
    sys.exit(__doc__)
subprocess.run(["cargo", "build", "--quiet", "--release", "--example", "html_elements"],
               cwd=here.parent, check=True)
ours_bin = here.parent / "target" / "release" / "examples" / "html_elements"


def elements(command):
    out = subprocess.run(command + files, capture_output=True, text=True, check=True).stdout
    found = defaultdict(dict)
    for line in out.splitlines():
        path, start, end, parent, name = line.split("\t")
        found[path][int(start)] = (int(end), int(parent), name)
    return found


def trimmed(data, end):
    while end > 0 and data[end - 1] in b" \t\n\r\x0c":
        end -= 1
    return end


ours = elements([str(ours_bin)])
theirs = elements(["node", str(here / "oracles" / "html_elements.js")])
total = differing = 0
for path in files:
    data = Path(path).read_bytes()
    mine = ours.get(path, {})
    parse5 = theirs.get(path, {})

    def flat(start):
        """True when ours holds the element at `start` as its start tag alone."""
        got = mine.get(start)
        return got is not None and start in parse5 and got[0] < parse5[start][0] and \
            b"<" not in data[start + 1:got[0]]

    def parent_in_ours(parent):
        while parent in parse5 and flat(parent):
            parent = parse5[parent][1]
        return parent

    wrong = []
    for start, (end, parent, name) in sorted(parse5.items()):
        got = mine.get(start)
        same = got is not None and got[1] == parent_in_ours(parent) and \
            (flat(start) or trimmed(data, got[0]) == trimmed(data, end))
        if not same:
            wrong.append((start, name, (end, parent), got and got[:2]))
    total += len(theirs.get(path, {}))
    differing += len(wrong)
    print(f"{path}: {len(theirs.get(path, {}))} elements, {len(wrong)} differ")
    if verbose:
        for start, name, want, got in wrong[:5]:
            print(f"  <{name}> at byte {start}: parse5 (end, parent) {want}, ours {got}")
print(f"all: {total} elements, {differing} differ")
