#!/usr/bin/env bash
# MathML benchmark with a real renderer: MathJax 3.2.2 (installed here from npm by this
# script) crashes with "Cannot read properties of undefined (reading 'chars')" when an <mi>
# carries an unknown mathvariant. The script plants that trigger in the middle <mi> of real
# pages from ../shared/corpus/fcla (in a temporary copy), reduces each page with the
# renderer as the oracle, and prints a markdown table. Extra arguments go to treereduce.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
corpus=${CORPUS:-$repo/../shared/corpus}/fcla
if [ ! -d "$corpus" ]; then
  echo "skipping: no corpus at $corpus"
  exit 0
fi
(cd "$here/mathjax" && npm ci --no-audit --no-fund --silent >/dev/null 2>&1 || npm install --no-audit --no-fund --silent >/dev/null)
cargo build --release --quiet --manifest-path "$repo/Cargo.toml"
bin=$repo/target/release/treereduce
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
oracle=$work/crash.sh
printf '#!/bin/sh\nexec node %s "reading '"'"'chars'"'"'" "$1"\n' "$here/mathjax/render.js" > "$oracle"
chmod +x "$oracle"
printf '| page | oracle calls | bytes | tokens | well-formed | still crashes | seconds | result |\n'
printf '| --- | ---: | --- | --- | --- | --- | ---: | --- |\n'
for page in ${PAGES:-fcla-li9.xhtml fcla-li81.xhtml fcla-li33.xhtml}; do
  [ -f "$corpus/$page" ] || continue
  input=$work/$page
  python3 - "$corpus/$page" "$input" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
spots = [m.start() for m in re.finditer(r"<mi>", text)]
at = spots[len(spots) // 2]
open(sys.argv[2], "w", encoding="utf-8").write(text[:at] + '<mi mathvariant="bogus">' + text[at + 4:])
PY
  out=$work/out-$page
  start=$(date +%s.%N)
  "$bin" "$input" "$oracle" -o "$out" -q -j 1 --timeout 60 --stats-json "$work/stats.json" "$@"
  end=$(date +%s.%N)
  json=$(cat "$work/stats.json")
  field() { printf '%s' "$json" | sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" | head -n 1; }
  valid=$(python3 -c 'import sys,xml.dom.minidom as m; m.parse(sys.argv[1])' "$out" 2>/dev/null && echo yes || echo NO)
  crashes=$("$oracle" "$out" >/dev/null && echo yes || echo NO)
  printf '| %s | %s | %s → %s | %s → %s | %s | %s | %.0f | `%s` |\n' "$page" "$(field oracle_calls)" \
    "$(field bytes_before)" "$(field bytes_after)" "$(field tokens_before)" "$(field tokens_after)" \
    "$valid" "$crashes" "$(echo "$end - $start" | bc)" "$(tr -d '\n' < "$out")"
done
