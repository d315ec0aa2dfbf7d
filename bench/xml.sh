#!/usr/bin/env bash
# XML benchmark: reduces real pages from ../shared/corpus with structural oracles
# (bench/oracles/tree_property.py) and prints a markdown table of oracle calls, sizes and
# validity. Extra arguments go to treereduce, e.g. `bench/xml.sh --grouping depth`.
# Skips cleanly when the corpus is absent.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
corpus=${CORPUS:-$repo/../shared/corpus}
if [ ! -d "$corpus" ]; then
  echo "skipping: no corpus at $corpus"
  exit 0
fi
cargo build --release --quiet --manifest-path "$repo/Cargo.toml"
bin=$repo/target/release/treereduce
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cases=(
  "fcla/fcla-li9.xhtml sub-fenced"
  "fcla/fcla-li81.xhtml fenced-sub"
  "fcla/fcla-li33.xhtml frac-sqrt"
  "reduction-benchmarks/perses-xml-071d221-1.xml id-under"
  "reduction-benchmarks/synthetic-mathml-seed7.mml sqrt-frac"
)
printf '| input | property | oracle calls | bytes | tokens | well-formed | interesting | seconds |\n'
printf '| --- | --- | ---: | --- | --- | --- | --- | ---: |\n'
for case in "${cases[@]}"; do
  read -r file prop <<< "$case"
  input=$corpus/$file
  [ -f "$input" ] || continue
  name=$(basename "$file")
  oracle=$work/check-$prop.sh
  printf '#!/bin/sh\nexec python3 %s %s "$1"\n' "$here/oracles/tree_property.py" "$prop" > "$oracle"
  chmod +x "$oracle"
  out=$work/$name.out
  start=$(date +%s.%N)
  "$bin" "$input" "$oracle" -o "$out" -q -j 1 --timeout 30 --format xml --stats-json "$work/stats.json" "$@"
  end=$(date +%s.%N)
  json=$(cat "$work/stats.json")
  field() { printf '%s' "$json" | sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" | head -n 1; }
  valid=$(python3 -c 'import sys,xml.dom.minidom as m; m.parse(sys.argv[1])' "$out" 2>/dev/null && echo yes || echo NO)
  interesting=$("$oracle" "$out" && echo yes || echo NO)
  printf '| %s | %s | %s | %s → %s | %s → %s | %s | %s | %.1f |\n' "$name" "$prop" "$(field oracle_calls)" \
    "$(field bytes_before)" "$(field bytes_after)" "$(field tokens_before)" "$(field tokens_after)" \
    "$valid" "$interesting" "$(echo "$end - $start" | bc)"
done
