#!/usr/bin/env python3
"""Structural oracles for the XML benchmark: exit 0 iff the named property holds.

Usage: tree_property.py PROPERTY FILE
  frac-sqrt     some mfrac has an msqrt inside its second child
  frac-sub      some mfrac has an msub inside its first child
  sub-fenced    some msub's first child contains an mfenced
  fenced-sub    some mfenced has an msub somewhere below it
  id-under      the element with id="588" is a descendant of the element with id="14"
  sqrt-frac     some msqrt has an mfrac somewhere below it
"""
import sys
import xml.etree.ElementTree as ET

M = "{http://www.w3.org/1998/Math/MathML}"


def local(tag):
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def main():
    prop, path = sys.argv[1], sys.argv[2]
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError:
        return 1
    every = list(root.iter())
    if prop == "frac-sqrt":
        ok = any(local(e.tag) == "mfrac" and len(e) >= 2 and any(local(d.tag) == "msqrt" for d in e[1].iter()) for e in every)
    elif prop == "frac-sub":
        ok = any(local(e.tag) == "mfrac" and len(e) >= 1 and any(local(d.tag) == "msub" for d in e[0].iter()) for e in every)
    elif prop == "sub-fenced":
        ok = any(local(e.tag) == "msub" and len(e) >= 1 and any(local(d.tag) == "mfenced" for d in e[0].iter()) for e in every)
    elif prop == "fenced-sub":
        ok = any(local(e.tag) == "mfenced" and any(local(d.tag) == "msub" for d in e.iter()) for e in every)
    elif prop == "id-under":
        outer = [e for e in every if e.get("id") == "14"]
        ok = bool(outer) and any(d.get("id") == "588" for d in outer[0].iter())
    elif prop == "sqrt-frac":
        ok = any(local(e.tag) == "msqrt" and any(local(d.tag) == "mfrac" for d in e.iter()) for e in every)
    else:
        print("unknown property " + prop, file=sys.stderr)
        return 2
    return 0 if ok else 1


sys.exit(main())
