#!/usr/bin/env python3
"""Compare two field-trial runs: python3 bench/field/cmp.py LABEL1 LABEL2
Reads bench/field/work/results/LABEL1.tsv and LABEL2.tsv, as run.sh writes them.
Per case: oracle calls and bytes after for both labels with the differences (2 - 1);
'LARGER' marks a result that got larger, 'NOT OK' one whose ok flag is 0. Totals over
the cases both runs have."""
import csv
import os
import sys

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "work", "results")

if len(sys.argv) != 3:
    sys.exit(__doc__)


def load(label):
    path = os.path.join(RESULTS, label + ".tsv")
    if not os.path.exists(path):
        sys.exit(f"cmp.py: no run {label!r} ({path} is missing)")
    with open(path) as f:
        return {r["case"]: r for r in csv.DictReader(f, delimiter="\t")}


def num(v):
    try:
        return int(v)
    except ValueError:
        return None


a, b = load(sys.argv[1]), load(sys.argv[2])
l1, l2 = sys.argv[1][:9], sys.argv[2][:9]
print(f"{'case':34} {'calls ' + l1:>15} {'calls ' + l2:>15} {'dcalls':>7} "
      f"{'bytes ' + l1:>15} {'bytes ' + l2:>15} {'dbytes':>7}  {'secs':>11}")
tot = [0, 0, 0, 0, 0.0, 0.0]
larger = []
for case in sorted(set(a) | set(b)):
    if case not in a or case not in b:
        print(f"{case:34} only in {sys.argv[1] if case in a else sys.argv[2]}")
        continue
    r1, r2 = a[case], b[case]
    c1, c2 = num(r1["oracle_calls"]), num(r2["oracle_calls"])
    y1, y2 = num(r1["bytes_after"]), num(r2["bytes_after"])
    dc = c2 - c1 if None not in (c1, c2) else None
    dy = y2 - y1 if None not in (y1, y2) else None
    marks = []
    if dy is not None and dy > 0:
        marks.append("LARGER")
        larger.append(case)
    for lab, r in ((sys.argv[1], r1), (sys.argv[2], r2)):
        if r["ok"] != "1":
            marks.append(f"NOT OK in {lab}")
    fmt = lambda v: "NA" if v is None else str(v)
    fmtd = lambda v: "NA" if v is None else (f"{v:+d}" if v else "0")
    print(f"{case:34} {fmt(c1):>15} {fmt(c2):>15} {fmtd(dc):>7} {fmt(y1):>15} {fmt(y2):>15} {fmtd(dy):>7}  "
          f"{float(r1['seconds']):5.1f}/{float(r2['seconds']):5.1f}  {' '.join(marks)}")
    for i, v in enumerate((c1, c2, y1, y2)):
        tot[i] += v or 0
    tot[4] += float(r1["seconds"])
    tot[5] += float(r2["seconds"])
print(f"{'TOTAL':34} {tot[0]:>15} {tot[1]:>15} {tot[1] - tot[0]:>+7d} {tot[2]:>15} {tot[3]:>15} "
      f"{tot[3] - tot[2]:>+7d}  {tot[4]:5.0f}/{tot[5]:5.0f}")
print(f"larger in {sys.argv[2]}: {', '.join(larger) if larger else 'none'}")
