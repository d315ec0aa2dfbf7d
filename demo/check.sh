#!/bin/sh
# The bug we pretend to chase: the page still renders the "not a subset of" operator
# (U+2284) inside MathML. A real oracle would run a renderer and grep its crash message.
grep -q '<mo>&#x2284;</mo>' "$1" && grep -q '<math' "$1"
