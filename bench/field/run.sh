#!/bin/bash
# Field trial: run a treereduce binary on the JavaScript cases, one at a time, -j1.
# usage: bash bench/field/run.sh LABEL [BIN] [CASE...]
#   BIN defaults to the repository's target/release/treereduce (an empty BIN too); CASE
#   defaults to every case in bench/field/work/cases (made by make.py). CAP=N sets the
#   limit in seconds per case (default 600). JOBS=N runs -j N instead of -j1 (its outputs
#   must be those of a -j1 run).
# Writes bench/field/work/results/LABEL.tsv (case, oracle_calls, bytes_in, bytes_after,
# seconds, ok) and keeps each result, stats file and log in bench/field/work/results/LABEL/.
# ok = 1 when the reducer exited 0 and its output still passes the case's check.sh (in a
# fresh folder, under the input's name) and parses (`node --check`, Python's XML parser
# for an XML case, `node --check` of its scripts for an HTML page).
set -u
export LC_NUMERIC=C   # printf reads the seconds with a decimal point
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cases_dir=$here/work/cases
. "$here/lib/case.sh"
usage="usage: bash $0 LABEL [BIN] [CASE...]"
if [ $# -lt 1 ] || [ -z "$1" ]; then echo "$usage" >&2; exit 2; fi
label=$1; shift
if [ ! -d "$cases_dir" ]; then
  echo "run.sh: no cases in $cases_dir: run python3 $here/make.py first" >&2; exit 2
fi
bin=$here/../../target/release/treereduce
# the second argument is the binary unless it names a case
if [ $# -gt 0 ] && { [ -z "$1" ] || [ ! -d "$cases_dir/$1" ]; }; then
  if [ -n "$1" ]; then
    bin=$1
    if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then
      echo "run.sh: $bin is neither a case nor an executable file" >&2; exit 2
    fi
  fi
  shift
fi
if [ ! -x "$bin" ]; then
  echo "run.sh: no treereduce binary at $bin: build it (cargo build --release) or give BIN" >&2
  exit 2
fi
bin=$(readlink -f "$bin")
cap=${CAP:-600}
jobs=${JOBS:-1}
if [ $# -gt 0 ]; then
  cases=("$@")
else
  cases=()
  for d in "$cases_dir"/*/; do d=${d%/}; cases+=("${d##*/}"); done
fi
res=$here/work/results
mkdir -p "$res/$label"
tsv=$res/$label.tsv
printf 'case\toracle_calls\tbytes_in\tbytes_after\tseconds\tok\n' > "$tsv"
now() { date +%s.%N; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
t_all=$(now)
for c in "${cases[@]}"; do
  dir=$cases_dir/$c
  in=$(input_of "$dir")
  if [ -z "$in" ]; then echo "no case $c" >&2; continue; fi
  ext=${in##*.}
  out=$res/$label/$c.out.$ext
  stats=$res/$label/$c.stats.json
  rm -f "$out" "$stats"
  t0=$(now)
  timeout "$cap" "$bin" -j"$jobs" -q "$in" "$dir/check.sh" -o "$out" --stats-json "$stats" \
    > "$res/$label/$c.log" 2>&1
  rc=$?
  secs=$(minus "$(now)" "$t0")
  calls=NA; after=NA
  if [ -s "$stats" ]; then
    read -r calls after < <(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(s.get("oracle_calls","NA"), s.get("bytes_after","NA"))' "$stats")
  fi
  ok=0
  if [ $rc -eq 0 ] && [ -s "$out" ]; then
    tmp=$(mktemp -d)
    cp "$out" "$tmp/input.$ext"
    if (cd "$tmp" && "$dir/check.sh" "$tmp/input.$ext" >/dev/null 2>&1) && parses "$tmp/input.$ext"; then ok=1; fi
    rm -rf "$tmp"
  fi
  bytes_in=$(stat -c %s "$in")
  printf '%s\t%s\t%s\t%s\t%.1f\t%s\n' "$c" "$calls" "$bytes_in" "$after" "$secs" "$ok" >> "$tsv"
  printf '%-34s calls %5s  %7s -> %6s B  %6.1f s  ok=%s%s\n' "$c" "$calls" "$bytes_in" "$after" "$secs" "$ok" \
    "$([ $rc -ne 0 ] && echo "  (exit $rc)")"
done
python3 - "$tsv" "$(minus "$(now)" "$t_all")" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
num = lambda v: int(v) if v not in ("NA", "") else 0
print(f"TOTAL {len(rows)} cases: oracle_calls {sum(num(r['oracle_calls']) for r in rows)}, "
      f"bytes_in {sum(num(r['bytes_in']) for r in rows)}, bytes_after {sum(num(r['bytes_after']) for r in rows)}, "
      f"seconds {sum(float(r['seconds']) for r in rows):.1f} (wall {float(sys.argv[2]):.1f}), "
      f"ok {sum(r['ok'] == '1' for r in rows)}/{len(rows)}")
PY
