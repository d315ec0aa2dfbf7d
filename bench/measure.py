#!/usr/bin/env python3
"""Prints `BYTES TOKENS` for a file: a run of letters, digits and underscores is one token,
every other non-whitespace character is one token (the same count as treereduce's summary)."""
import re
import sys

with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
    text = f.read()
with open(sys.argv[1], "rb") as f:
    size = len(f.read())
print(size, len(re.findall(r"\w+|[^\w\s]", text)))
