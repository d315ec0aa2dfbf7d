#!/usr/bin/env bash
# treereduce against the reducers users know, on real inputs, with the same oracles.
#
# Usage: bench/run.sh [--quick] [--cap SECS] [--no-install] [--no-scale | --scale-only]
#   --quick       a few small cases (a few minutes) instead of the full set
#   --cap SECS    stop any one reducer run after SECS (SIGINT; its best result so far counts)
#   --no-install  use the peers, npm packages and build already there
#   --no-scale    skip the scale check (2 MB XHTML page, lodash with a grep oracle)
#   --scale-only  run only the scale check
#
# Installs the peers into bench/peers/ from their registries (Lithium, picire and Shrink Ray
# from PyPI into venvs, treereduce-javascript from crates.io), the JS inputs and crashing
# tools into bench/js/node_modules and MathJax into bench/mathjax/node_modules from npm,
# builds treereduce in release mode, runs every tool on every case with the same oracle
# behind a call-counting wrapper, prints one markdown table on stdout and writes
# bench/RESULTS.md (a full run) or bench/work/partial-RESULTS.md (--quick, --no-scale,
# --scale-only). Progress goes to stderr. Corpus cases are skipped when ../shared/corpus is
# absent. See bench/README.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
corpus=${CORPUS:-$repo/../shared/corpus}
peers=$here/peers
case $here in *[[:space:]]*) echo "bench/run.sh: the checkout path must not contain spaces" >&2; exit 2 ;; esac

mode=full
cap=
# Runs per tool in the scale check (the median wall time counts).
scale_reps=5
cap_given=0
install=1
scale=1
while [ $# -gt 0 ]; do
  case $1 in
    --quick) mode=quick ;;
    --cap) cap=$2; cap_given=1; shift ;;
    --no-install) install=0 ;;
    --no-scale) scale=0 ;;
    --scale-only) scale=only ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "bench/run.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$cap" ]; then
  if [ $mode = quick ]; then cap=40; else cap=180; fi
fi
oracle_timeout=60 # every tool sees the same per-call limit: the wrapper enforces it

mkdir -p "$here/work"
work=$(mktemp -d "$here/work/run.XXXXXX")
cleanup() {
  if [ -n "${KEEP_WORK:-}" ]; then echo "work folder kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
say() { printf '[bench] %s\n' "$*" >&2; }
notes=()
note() { notes+=("$*"); say "note: $*"; }

# ---------------------------------------------------------------- installs and build
if [ ! -x /usr/bin/time ]; then
  say "installing GNU time (apt-get)"
  { apt-get update -qq && apt-get install -y -qq time; } >&2 || true
fi
[ -x /usr/bin/time ] || { echo "bench/run.sh: /usr/bin/time is needed" >&2; exit 2; }

py=$peers/venv/bin/python
if [ $install = 1 ]; then
  mkdir -p "$peers"
  say "installing peers into $peers (log: $work/install.log)"
  [ -x "$py" ] || python3 -m venv "$peers/venv" >> "$work/install.log" 2>&1
  for pkg in lithium-reducer==4.0.0 picire==21.8 picireny==21.8; do
    nice -n 10 "$peers/venv/bin/pip" install -q "$pkg" >> "$work/install.log" 2>&1 ||
      note "pip install $pkg failed (see install log); its runs are skipped"
  done
  # Shrink Ray has its own venv: its pins need not agree with Lithium's and picire's. On
  # Python 3.11, PyPI's newest that installs is 0.0.2.
  [ -x "$peers/shrinkray/bin/python" ] || python3 -m venv "$peers/shrinkray" >> "$work/install.log" 2>&1
  nice -n 10 "$peers/shrinkray/bin/pip" install -q shrinkray >> "$work/install.log" 2>&1 ||
    note "pip install shrinkray failed (see install log); its runs are skipped"
  if ! [ -x "$peers/bin/treereduce-javascript" ]; then
    nice -n 10 cargo install --quiet --locked --root "$peers" treereduce-javascript --version 0.4.1 \
      >> "$work/install.log" 2>&1 ||
      nice -n 10 cargo install --quiet --root "$peers" treereduce-javascript --version 0.4.1 \
        >> "$work/install.log" 2>&1 ||
      note "cargo install treereduce-javascript failed; its runs are skipped"
  fi
  for dir in js mathjax; do
    (cd "$here/$dir" && nice -n 10 npm ci --no-audit --no-fund --silent) >> "$work/install.log" 2>&1 ||
      note "npm ci in bench/$dir failed; cases that need it are skipped"
  done
fi
say "building treereduce (release)"
nice -n 10 cargo build --release --quiet --manifest-path "$repo/Cargo.toml"
bin=$repo/target/release/treereduce
# The commit the binary was built from (the tree may move on while the run goes).
built_at=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git -C "$repo" status --porcelain -- src grammars Cargo.toml Cargo.lock 2>/dev/null)" ] && built_at="$built_at+changes"

have_lithium=0; have_picire=0; have_trjs=0; have_shrinkray=0
"$py" -c 'import lithium' 2>/dev/null && have_lithium=1
[ -x "$peers/venv/bin/picire" ] && have_picire=1
[ -x "$peers/bin/treereduce-javascript" ] && have_trjs=1
[ -x "$peers/shrinkray/bin/shrinkray" ] && have_shrinkray=1
shrinkray_version=$("$peers/shrinkray/bin/pip" show shrinkray 2>/dev/null | sed -n 's/^Version: //p')
[ $have_lithium = 1 ] || note "Lithium is not installed: skipped"
[ $have_picire = 1 ] || note "picire is not installed: skipped"
[ $have_trjs = 1 ] || note "treereduce-javascript is not installed: skipped"
[ $have_shrinkray = 1 ] || note "Shrink Ray is not installed: skipped"
if [ -x "$peers/venv/bin/picireny" ]; then
  note "picireny installed but is not run: it needs the ANTLR v4 tool jar (its helper downloads it from outside the registries) and ANTLR grammars for XML and JavaScript (not in any registry)"
fi
# JavaScript inputs go through treereduce's own front end (`--format js`).
if ! "$bin" --help | grep -Eq 'possible values: [^]]*\bjs\b'; then
  echo "bench/run.sh: this treereduce has no js format (--format js)" >&2
  exit 2
fi
have_js=0; [ -d "$here/js/node_modules/lodash" ] && have_js=1
have_mathjax=0; [ -d "$here/mathjax/node_modules/mathjax-full" ] && have_mathjax=1
have_corpus=0; [ -d "$corpus/fcla" ] && have_corpus=1
[ $have_corpus = 1 ] || note "no corpus at $corpus/fcla: XML cases skipped"

# ---------------------------------------------------------------- cases
# name | format | source | oracle: command and arguments separated by `;` (the file is appended)
# source: corpus:PATH, npm:PATH (under bench/js/node_modules) or plant:KIND:SOURCE
js=$here/js/node_modules
cases_quick=(
  "li9-sub-fenced|xml|corpus:fcla/fcla-li9.xhtml|python3;$here/oracles/tree_property.py;sub-fenced"
  "li9-mathjax-crash|xml|plant:mathjax:corpus:fcla/fcla-li9.xhtml|node;$here/mathjax/render.js;reading 'chars'"
  "li9-html-mathjax-crash|html|plant:mathjax-html:corpus:fcla/fcla-li9.xhtml|node;$here/mathjax/render.js;reading 'chars'"
  "underscore-prettier-crash|js|plant:prettier:npm:underscore/underscore-umd.js|$here/oracles/js_crash.sh;prettier"
)
cases_full=(
  "${cases_quick[@]}"
  "li33-frac-sqrt|xml|corpus:fcla/fcla-li33.xhtml|python3;$here/oracles/tree_property.py;frac-sqrt"
  "li81-mathjax-crash|xml|plant:mathjax:corpus:fcla/fcla-li81.xhtml|node;$here/mathjax/render.js;reading 'chars'"
  "li81-html-mathjax-crash|html|plant:mathjax-html:corpus:fcla/fcla-li81.xhtml|node;$here/mathjax/render.js;reading 'chars'"
  "underscore-debounce|js|npm:underscore/underscore-umd.js|node;$here/oracles/js_property.js;calls-within;debounce;setTimeout"
  "moment-terser-crash|js|plant:terser:npm:moment/moment.js|$here/oracles/js_crash.sh;terser"
  "lodash-debounced|js|npm:lodash/lodash.js|node;$here/oracles/js_property.js;nested-in;debounce;debounced"
)
cases_scale=(
  "li58-grep|xml|corpus:fcla/fcla-li58.xhtml|grep;-qF;id=\"d1e15468\""
  "lodash-grep|js|npm:lodash/lodash.js|grep;-qF;function baseFlatten("
)
if [ $mode = quick ]; then cases=("${cases_quick[@]}"); else cases=("${cases_full[@]}"); fi
[ $scale = only ] && cases=()

# resolve SOURCE DEST: writes the case's input to DEST; fails when it is not available
resolve() {
  local source=$1 dest=$2
  case $source in
    corpus:*) [ $have_corpus = 1 ] && [ -f "$corpus/${source#corpus:}" ] && cp "$corpus/${source#corpus:}" "$dest" ;;
    npm:*) [ $have_js = 1 ] && [ -f "$js/${source#npm:}" ] && cp "$js/${source#npm:}" "$dest" ;;
    plant:*)
      local rest=${source#plant:}
      local kind=${rest%%:*}
      resolve "${rest#*:}" "$dest.orig" && python3 "$here/plant.py" "$kind" "$dest.orig" "$dest" && rm -f "$dest.orig"
      ;;
    *) return 1 ;;
  esac
}

# make_wrapper WRAPPER COUNTER ORACLE...: the call counter every tool runs as its test.
# One `call` line per call before the oracle runs, one `done START END STATUS` line after.
make_wrapper() {
  local wrapper=$1 counter=$2
  shift 2
  {
    printf '#!/usr/bin/env bash\n'
    printf '# Counts calls, then runs the real oracle with a fixed time limit.\n'
    printf 't0=$EPOCHREALTIME\n'
    printf 'printf "call %%s\\n" "$t0" >> %q\n' "$counter"
    printf 'timeout -k 2 %q' "$oracle_timeout"
    printf ' %q' "$@"
    printf ' "$@" > /dev/null 2>&1\n'
    printf 'rc=$?\n'
    printf 'printf "done %%s %%s %%s\\n" "$t0" "$EPOCHREALTIME" "$rc" >> %q\n' "$counter"
    printf 'exit $rc\n'
  } > "$wrapper"
  chmod +x "$wrapper"
}

# timed DIR CWD COMMAND...: runs COMMAND in CWD under the cap and GNU time; sets $wall
# (seconds), $rss_mb (largest resident set among the command and the processes it waited
# for) and $status. Its output goes to DIR/log.
timed() {
  local dir=$1 cwd=$2
  shift 2
  run_t0=$EPOCHREALTIME
  status=0
  (cd "$cwd" && exec nice -n 10 timeout -s INT -k 60 "$cap" /usr/bin/time -f '%M' -o "$dir/rss" "$@") \
    > "$dir/log" 2>&1 || status=$?
  wall=$(echo "$EPOCHREALTIME - $run_t0" | bc)
  local kb
  kb=$(tail -n 1 "$dir/rss" 2> /dev/null | tr -dc 0-9)
  rss_mb=$(( ${kb:-0} / 1024 ))
}

# run_tool TOOL CASEDIR INPUT FORMAT WRAPPER: sets $result (path or empty) and $tool_note
run_tool() {
  local tool=$1 dir=$2 input=$3 format=$4 wrapper=$5
  local name
  name=$(basename "$input")
  mkdir -p "$dir"
  result=
  tool_note=
  case $tool in
    treereduce)
      local args=(-o "$dir/out-$name" -q -j 1 --timeout $((oracle_timeout * 2)) --stats-json "$dir/stats.json")
      args+=(--format "$format")
      timed "$dir" "$dir" "$bin" "$input" "$wrapper" "${args[@]}"
      [ -f "$dir/out-$name" ] && result=$dir/out-$name
      ;;
    lithium)
      cp "$input" "$dir/$name"
      timed "$dir" "$dir" "$py" -m lithium --lines "$here/glue/lithium_exit0.py" "$wrapper" "$dir/$name"
      result=$dir/$name
      ;;
    picire)
      cp "$input" "$dir/$name"
      timed "$dir" "$dir" "$peers/venv/bin/picire" -i "$dir/$name" --test "$wrapper" -a line \
        --encoding utf-8 -o "$dir/picire-out" -l WARNING
      [ -f "$dir/picire-out/$name" ] && result=$dir/picire-out/$name
      ;;
    shrinkray)
      # Shrink Ray hands each candidate to its test on stdin; the glue writes it to a file
      # named like the input (the oracles look at the name) and runs the wrapper on it.
      mkdir -p "$dir/tmp"
      {
        printf '#!/bin/sh\n'
        printf 'd=$(mktemp -d %q/c.XXXXXX) || exit 2\n' "$dir/tmp"
        printf 'cat > "$d"/%q\n' "$name"
        printf '%q "$d"/%q\n' "$wrapper" "$name"
        printf 'rc=$?\n'
        printf 'rm -rf "$d"\n'
        printf 'exit $rc\n'
      } > "$dir/stdin-test.sh"
      chmod +x "$dir/stdin-test.sh"
      timed "$dir" "$dir" "$peers/shrinkray/bin/shrinkray" --parallelism 1 \
        --timeout $((oracle_timeout * 2)) --target "$dir/out-$name" "$dir/stdin-test.sh" "$input"
      [ -f "$dir/out-$name" ] && result=$dir/out-$name
      ;;
    treereduce-javascript)
      mkdir -p "$dir/tmp"
      timed "$dir" "$dir" "$peers/bin/treereduce-javascript" -s "$input" -o "$dir/out-$name" -j 1 \
        --timeout $((oracle_timeout * 2)) --temp-dir "$dir/tmp" -q -- "$wrapper" @@
      [ -f "$dir/out-$name" ] && result=$dir/out-$name
      ;;
  esac
  # A run that ended in another way than "done" says so; Lithium's file always holds its
  # last interesting text, the others keep theirs in their output.
  if [ "$status" = 124 ] || [ "$status" = 130 ]; then
    tool_note="stopped at the ${cap} s cap"
  elif [ "$status" != 0 ]; then
    tool_note="exit status $status"
  fi
  if [ -z "$result" ]; then tool_note="${tool_note:+$tool_note; }no result"; fi
}

tools_for() {
  local format=$1
  printf 'treereduce\n'
  [ $have_lithium = 1 ] && printf 'lithium\n'
  [ $have_picire = 1 ] && printf 'picire\n'
  [ "$format" = js ] && [ $have_trjs = 1 ] && printf 'treereduce-javascript\n'
  [ $have_shrinkray = 1 ] && printf 'shrinkray\n'
  return 0
}

label() {
  case $1 in
    treereduce) echo "treereduce" ;;
    lithium) echo "Lithium (lines)" ;;
    picire) echo "picire (ddmin, lines)" ;;
    treereduce-javascript) echo "treereduce-javascript 0.4.1" ;;
    shrinkray) echo "Shrink Ray ${shrinkray_version:-}" ;;
  esac
}

parses() { # FORMAT FILE INPUT
  if [ "$1" = xml ]; then
    python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$2" > /dev/null 2>&1
  elif [ "$1" = html ]; then
    # Every text is HTML: a result parses when parse5 finds no more errors in it than in
    # the input.
    local mine theirs
    mine=$(node "$here/oracles/html_errors.js" "$2") && theirs=$(node "$here/oracles/html_errors.js" "$3") &&
      [ "$mine" -le "$theirs" ]
  else
    local copy
    copy=$(mktemp "$work/check.XXXXXX.js")
    cp "$2" "$copy"
    node --check "$copy" > /dev/null 2>&1
    local rc=$?
    rm -f "$copy"
    return $rc
  fi
}

table=$work/table.md
scale_table=$work/scale.md
rows=$work/rows.tsv
: > "$rows"
wrapper_start=0
printf '| case | tool | oracle calls | wall s | bytes | tokens | parses | interesting | note |\n' > "$table"
printf '| --- | --- | ---: | ---: | --- | --- | --- | --- | --- |\n' >> "$table"

# bench_case SPEC TABLE KIND: runs every tool on one case and appends rows to TABLE
bench_case() {
  local spec=$1 out_table=$2 kind=$3
  local name format source oracle_text
  IFS='|' read -r name format source oracle_text <<< "$spec"
  IFS=';' read -r -a oracle <<< "$oracle_text"
  local cdir=$work/$name
  mkdir -p "$cdir"
  local input
  input=$cdir/$(basename "${source##*:}")
  if ! resolve "$source" "$input" 2> "$cdir/resolve.log"; then
    note "case $name skipped: its input ($source) is not available"
    return 0
  fi
  case $oracle_text in
    *mathjax*) [ $have_mathjax = 1 ] || { note "case $name skipped: MathJax not installed"; return 0; } ;;
  esac
  if ! "${oracle[@]}" "$input" > /dev/null 2>&1; then
    note "case $name skipped: the original input is not interesting to its oracle"
    return 0
  fi
  local before
  before=$(python3 "$here/measure.py" "$input")
  local tool
  for tool in $(tools_for "$format"); do
    say "$name: $tool"
    local tdir=$cdir/$tool
    mkdir -p "$tdir"
    make_wrapper "$tdir/test.sh" "$tdir/calls" "${oracle[@]}"
    # The scale check's runs take a fraction of a second, where one run's wall time is
    # mostly noise: each tool runs scale_reps times and the run of the median wall time
    # counts (its calls, memory and time split). Every run gives the same calls and result.
    local reps=1 rep
    [ "$kind" = scale ] && reps=$scale_reps
    : > "$tdir/reps"
    for ((rep = 1; rep <= reps; rep++)); do
      [ "$kind" = scale ] && calibrate_wrapper
      : > "$tdir/calls"
      run_tool "$tool" "$tdir" "$input" "$format" "$tdir/test.sh"
      cp "$tdir/calls" "$tdir/calls.$rep"
      printf '%s %s %s %s %s %s\n' "$wall" "$rep" "$rss_mb" "$run_t0" "$status" "$wrapper_start" >> "$tdir/reps"
    done
    read -r wall rep rss_mb run_t0 status wrapper_start <<< "$(sort -n "$tdir/reps" | sed -n "$(( (reps + 1) / 2 ))p")"
    cp "$tdir/calls.$rep" "$tdir/calls"
    local calls
    calls=$(grep -c '^call ' "$tdir/calls" || true)
    local bytes=- tokens=- valid=- interesting=- after="- -"
    if [ -n "$result" ]; then
      after=$(python3 "$here/measure.py" "$result")
      bytes="${before% *} → ${after% *}"
      tokens="${before#* } → ${after#* }"
      if parses "$format" "$result" "$input"; then valid=yes; else valid=NO; fi
      if timeout "$oracle_timeout" "${oracle[@]}" "$result" > /dev/null 2>&1; then interesting=yes; else interesting=NO; fi
    fi
    # Oracle seconds as the wrapper measured them; start-up is the time until the first
    # oracle call (reading and parsing the input); the rest of the wall time, less the
    # wrapper's own start per call (calibrated), is the reducer's work between calls.
    local oracle_s startup_s reducer_s per_call
    oracle_s=$(awk '$1 == "done" { s += $3 - $2 } END { printf "%.3f", s }' "$tdir/calls")
    startup_s=$(awk -v t0="$run_t0" -v w="$wall" '$1 == "call" { printf "%.3f", $2 - t0; found = 1; exit }
      END { if (!found) printf "%.3f", w }' "$tdir/calls")
    reducer_s=$(awk -v w="$wall" -v s="$startup_s" -v o="$oracle_s" -v n="$calls" -v c="$wrapper_start" \
      'BEGIN { r = w - s - o - n * c; if (r < 0) r = 0; printf "%.3f", r }')
    per_call=$(awk -v r="$reducer_s" -v n="$calls" 'BEGIN { if (n > 0) printf "%.1f", 1000 * r / n; else print "-" }')
    # treereduce's own figure, from --stats-json, as a cross-check
    local own_per_candidate=-
    if [ "$tool" = treereduce ] && [ -f "$tdir/stats.json" ]; then
      own_per_candidate=$(sed -n 's/.*"overhead_ms_per_candidate": \([0-9.]*\).*/\1/p' "$tdir/stats.json")
      own_per_candidate=${own_per_candidate:--}
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$name" "$tool" "$calls" \
      "$wall" "$rss_mb" "${before% *}" "${after% *}" "${before#* }" "${after#* }" "$valid" "$interesting" \
      "$startup_s" "$oracle_s" "$reducer_s" "$tool_note" >> "$rows"
    if [ "$kind" = main ]; then
      printf '| %s | %s | %s | %.1f | %s | %s | %s | %s | %s |\n' "$name" "$(label "$tool" "$format")" \
        "$calls" "$wall" "$bytes" "$tokens" "$valid" "$interesting" "$tool_note" >> "$out_table"
    else
      printf '| %s | %s | %s | %.3f | %s | %s | %s | %.3f | %.3f | %.1f | %.3f | %s | %s | %s | %s |\n' "$name" \
        "$(label "$tool" "$format")" "$calls" "$wall" "$rss_mb" "$bytes" "$valid" "$startup_s" "$oracle_s" \
        "$(awk -v c="$wrapper_start" 'BEGIN { print 1000 * c }')" "$reducer_s" "$per_call" "$own_per_candidate" "$interesting" "$tool_note" >> "$out_table"
    fi
  done
}

# The wrapper's own start (bash, before its first timestamp, and its exit after the last)
# is not the reducer's work: measure it with an oracle that does nothing, from a shell
# niced once as the reducers are (their children inherit it; no nice runs per call).
# The scale check calibrates again right before each run, as the machine's load moves.
calibrate_wrapper() {
  local dir=$work/calibrate n=40
  mkdir -p "$dir"
  make_wrapper "$dir/test.sh" "$dir/calls" true
  : > "$dir/calls"
  local span
  span=$(nice -n 10 bash -c 't0=$EPOCHREALTIME
    for ((i = 0; i < $2; i++)); do "$1" x || true; done
    echo "$t0 $EPOCHREALTIME"' calibrate "$dir/test.sh" "$n")
  wrapper_start=$(awk -v span="$span" -v n="$n" 'BEGIN { split(span, t, " ") }
    $1 == "done" { s += $3 - $2 }
    END { c = (t[2] - t[1] - s) / n; if (c < 0) c = 0; printf "%.4f", c }' "$dir/calls")
}

started=$(date -u '+%Y-%m-%d %H:%M UTC')
load_start=$(cut -d ' ' -f 1-3 /proc/loadavg)
t_start=$EPOCHREALTIME
calibrate_wrapper
say "wrapper start-up: $(awk -v c="$wrapper_start" 'BEGIN { printf "%.1f", 1000 * c }') ms per call"
for spec in "${cases[@]}"; do
  bench_case "$spec" "$table" main
done

if [ $scale != 0 ]; then
  printf '| input | tool | oracle calls | wall s | peak RSS MB | bytes | parses | start-up s | oracle s | wrapper ms | reducer s | reducer ms per call | its own ms per candidate | interesting | note |\n' > "$scale_table"
  printf '| --- | --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n' >> "$scale_table"
  saved_picire=$have_picire
  have_picire=0 # ddmin over 30,000 lines is not what this check is about
  saved_trjs=$have_trjs
  have_trjs=0
  saved_shrinkray=$have_shrinkray
  have_shrinkray=0 # its bytes-first search spends about 1500 calls on lodash-grep
  for spec in "${cases_scale[@]}"; do
    bench_case "$spec" "$scale_table" scale
  done
  have_picire=$saved_picire
  have_trjs=$saved_trjs
  have_shrinkray=$saved_shrinkray
fi
total=$(echo "$EPOCHREALTIME - $t_start" | bc)

if [ ${#cases[@]} -gt 0 ]; then cat "$table"; else cat "$scale_table"; fi

# ---------------------------------------------------------------- RESULTS.md
command="bench/run.sh"
[ $mode = quick ] && command+=" --quick"
[ $scale = 0 ] && command+=" --no-scale"
[ $scale = only ] && command+=" --scale-only"
[ $cap_given = 1 ] && command+=" --cap $cap"
[ $install = 0 ] && command+=" --no-install"
mem=$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
# Only a run of every case and the scale check replaces RESULTS.md; a partial run (--quick,
# --no-scale, --scale-only) writes its report beside the work folders, so the committed
# results are never half of a run.
if [ $mode = full ] && [ $scale = 1 ]; then
  results=$here/RESULTS.md
else
  results=$here/work/partial-RESULTS.md
fi
{
  printf '# Benchmark results\n\n'
  printf 'Written by `%s` (cap %s s per reducer run, %s s per oracle call) on %s.\n' "$command" "$cap" "$oracle_timeout" "$started"
  printf 'Machine: %s cores (`nproc`), %s memory, %s; load average %s at the start, %s at the end\n' \
    "$(nproc)" "$mem" "$(uname -sm)" "$load_start" "$(cut -d ' ' -f 1-3 /proc/loadavg)"
  printf '(other work on the machine shares the cores). treereduce %s (commit %s). Whole run: %.0f s.\n\n' \
    "$("$bin" --version | awk '{print $2}')" "$built_at" "$total"
  printf 'Every tool runs with `-j 1` where it has the option, and calls the same oracle through the\n'
  printf 'same call-counting wrapper. Bytes and tokens are before → after; tokens count a run of\n'
  printf 'letters, digits and underscores as one and every other non-space character as one.\n'
  printf '"parses": XML by Python'"'"'s xml.dom.minidom, JavaScript by `node --check`, HTML by no more\n'
  printf 'parse5 errors than the input has. "interesting": the real oracle, run again on the\n'
  printf 'result. See bench/README.md for the cases and oracles.\n\n'
  if [ ${#cases[@]} -gt 0 ]; then
    printf '## Cases\n\n'
    cat "$table"
  fi
  if [ $scale != 0 ]; then
    printf '\n## Scale check (grep oracle)\n\n'
    printf 'Each tool runs %s times on each input; the figures are those of the run whose wall time\n' "$scale_reps"
    printf 'is the median (the runs take a fraction of a second, and one run'"'"'s wall time is noise).\n'
    printf 'Peak RSS is the largest resident set among the reducer and the processes it waited for\n'
    printf '(GNU time; the grep oracle is small). Start-up is the time from launch to the first\n'
    printf 'oracle call (reading and parsing the input). Oracle seconds are summed by the wrapper.\n'
    printf 'Reducer seconds are the rest of the wall time, less the wrapper'"'"'s own start-up per call\n'
    printf '(bash; the "wrapper ms" column, measured right before that run with an oracle that does\n'
    printf 'nothing, as the load on the machine moves): the reducer'"'"'s own work between oracle calls\n'
    printf '(making, writing and checking candidates). "its own ms per\n'
    printf 'candidate" is treereduce'"'"'s `overhead_ms_per_candidate` from `--stats-json` (candidates\n'
    printf 'judged without the oracle included), as a cross-check.\n\n'
    cat "$scale_table"
  fi
  printf '\n'
  python3 "$here/targets.py" "$rows"
  if [ ${#notes[@]} -gt 0 ]; then
    printf '\n## Notes from this run\n\n'
    printf -- '- %s\n' "${notes[@]}"
  fi
} > "$results"
say "wrote ${results#"$repo"/} (whole run: $(printf %.0f "$total") s)"
