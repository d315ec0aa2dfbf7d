#!/bin/sh
# Parallel speed-up on a slow oracle (issue 5): every case is reduced with -j 1 and -j 2
# by the release binary, with an oracle that sleeps 0.2 s before it decides, so wall time
# is dominated by oracle calls and insensitive to CPU load. Each run is repeated REPS
# times; the table shows the medians of wall time, oracle calls and wasted speculative
# calls (from --stats-json) and the ratio of the median wall times (-j 2 / -j 1, the goal
# is <= 0.6). Fails if -j 2 ever gives an output different from -j 1.
#
# Cases: the mathml-fraction fixture (its own check.sh behind the sleep), a 50 KB FCLA
# page (skipped when ../shared/corpus is absent) and the lines needles fixture.
#
# Usage: bench/parallel.sh [REPS]     (default 3; run from anywhere in the repository)
set -eu

reps=${1:-3}
delay=${DELAY:-0.2}
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS:-$root/../shared/corpus}
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin="$root/target/release/treereduce"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# slow_oracle NAME BODY: writes $work/NAME.sh, which sleeps, then runs BODY ($1 = file).
slow_oracle() {
    printf '#!/bin/sh\nsleep %s\n%s\n' "$delay" "$2" > "$work/$1.sh"
    chmod +x "$work/$1.sh"
}

median() {
    tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

field() {
    sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p" "$2" | head -n 1
}

# bench NAME INPUT ORACLE [TREEREDUCE ARGS]: one table row.
bench() {
    name=$1 input=$2 oracle=$3
    shift 3
    ext=${input##*.}
    for j in 1 2; do
        eval "t$j='' c$j='' w$j=''"
    done
    rep=0
    while [ "$rep" -lt "$reps" ]; do
        rep=$((rep + 1))
        for j in 1 2; do
            out="$work/$name.j$j.$ext"
            start=$(date +%s.%N)
            "$bin" "$input" "$oracle" -j "$j" -q -o "$out" \
                --stats-json "$work/stats.json" "$@"
            end=$(date +%s.%N)
            secs=$(echo "$start $end" | awk '{ printf "%.2f", $2 - $1 }')
            eval "t$j=\"\$t$j $secs\" c$j=\"\$c$j $(field oracle_calls "$work/stats.json")\""
            eval "w$j=\"\$w$j $(field wasted "$work/stats.json")\""
        done
        if ! cmp -s "$work/$name.j1.$ext" "$work/$name.j2.$ext"; then
            echo "bench/parallel.sh: $name: -j 2 gave a different output than -j 1" >&2
            exit 1
        fi
    done
    m1=$(echo "$t1" | median) m2=$(echo "$t2" | median)
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" \
        "$m1" "$(echo "$c1" | median)" "$(echo "$w1" | median)" \
        "$m2" "$(echo "$c2" | median)" "$(echo "$w2" | median)" \
        "$(echo "$m1 $m2" | awk '{ printf "%.2f", $2 / $1 }')"
    echo "$name -j 1:$t1 s; -j 2:$t2 s" >> "$work/raw.txt"
}

printf '| case | -j 1 s | calls | wasted | -j 2 s | calls | wasted | ratio |\n'
printf '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n'

fixture="$root/fixtures/xml/mathml-fraction"
slow_oracle fraction "exec \"$fixture/check.sh\" \"\$1\""
bench mathml-fraction "$fixture/input.mml" "$work/fraction.sh"

page="$corpus/fcla/fcla-li9.xhtml"
if [ -f "$page" ]; then
    slow_oracle fcla "tr -d ' \\r\\n' < \"\$1\" | grep -q '<mover><mi'"
    bench fcla-li9 "$page" "$work/fcla.sh"
else
    echo "| fcla-li9 | skipped: no corpus at $corpus | | | | | | |"
fi

needles="$root/fixtures/lines/needles"
slow_oracle needles "exec \"$needles/check.sh\" \"\$1\""
bench needles "$needles/input.txt" "$work/needles.sh" --format lines

echo
echo "wall times of every run (reps: $reps, oracle delay: ${delay}s):"
cat "$work/raw.txt"
