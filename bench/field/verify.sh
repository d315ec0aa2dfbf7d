#!/bin/bash
# usage: bash bench/field/verify.sh [CASE...]   (no names: every case in bench/field/work/cases)
# For each case: its check.sh passes on the input twice (run in a fresh folder, the first
# run timed), fails on an empty file, and the input parses (`node --check`, Python's XML
# parser for an XML case, `node --check` of its scripts for an HTML page). Prints one line
# per case and exits 1 when any case fails.
set -u
export LC_NUMERIC=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cases_dir=$here/work/cases
. "$here/lib/case.sh"
if [ ! -d "$cases_dir" ]; then
  echo "verify.sh: no cases in $cases_dir: run python3 $here/make.py first" >&2; exit 2
fi
if [ $# -gt 0 ]; then
  cases=("$@")
else
  cases=()
  for d in "$cases_dir"/*/; do d=${d%/}; cases+=("${d##*/}"); done
fi
# run the case's check on FILE from FILE's folder; prints its exit status
check() { (cd "$(dirname "$2")" && "$cases_dir/$1/check.sh" "$2" >/dev/null 2>&1); echo $?; }
bad=0
for c in "${cases[@]}"; do
  dir=$cases_dir/$c
  in=$(input_of "$dir")
  if [ -z "$in" ]; then echo "$c: no such case" >&2; bad=1; continue; fi
  ext=${in##*.}
  tmp=$(mktemp -d)
  cp "$in" "$tmp/input.$ext"
  s=$(date +%s.%N)
  r1=$(check "$c" "$tmp/input.$ext")
  e=$(date +%s.%N)
  r2=$(check "$c" "$tmp/input.$ext")
  : > "$tmp/input.$ext"
  r3=$(check "$c" "$tmp/input.$ext")
  nc=0; parses "$in" || nc=$?
  rm -rf "$tmp"
  verdict=ok
  if [ "$r1" != 0 ] || [ "$r2" != 0 ] || [ "$r3" = 0 ] || [ "$nc" != 0 ]; then verdict=FAIL; bad=1; fi
  printf '%-34s %7d  pass=%s,%s empty=%s parses=%s  %5.2fs  %s\n' "$c" "$(stat -c %s "$in")" \
    "$r1" "$r2" "$r3" "$nc" "$(awk -v a="$e" -v b="$s" 'BEGIN { print a - b }')" "$verdict"
done
exit $bad
