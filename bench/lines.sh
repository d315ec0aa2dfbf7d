#!/bin/sh
# End-to-end check of the list strategies through the real binary (issue 4): n-line files
# with m needle lines (at random positions, or in one contiguous run), a grep oracle,
# `--format lines -j 1`. Prints a markdown table of `oracle_calls` from --stats-json (the
# start-up test of the original counts as one call) per seed and their median, for the
# default strategy and for Lithium, and fails if a result is not exactly the needle lines.
#
# Usage: bench/lines.sh [SEEDS]      (default 5 seeds; run from anywhere in the repository)
set -eu

seeds=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin="$root/target/release/treereduce"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# make_input N M LAYOUT SEED FILE: filler lines "line K <hash>" and needle lines
# "NEEDLE K"; LAYOUT is "random" (M distinct positions) or "run" (M consecutive lines).
make_input() {
    awk -v n="$1" -v m="$2" -v layout="$3" -v seed="$4" 'BEGIN {
        srand(seed);
        if (layout == "run") {
            start = int(rand() * (n - m + 1));
            for (i = start; i < start + m; i++) needle[i] = 1;
        } else {
            chosen = 0;
            while (chosen < m) {
                i = int(rand() * n);
                if (!(i in needle)) { needle[i] = 1; chosen++ }
            }
        }
        for (i = 0; i < n; i++) {
            if (i in needle) print "NEEDLE " i;
            else printf "line %d %08x\n", i, int(rand() * 4294967295);
        }
    }' > "$5"
}

# calls STRATEGY FILE M: runs the reduction and prints oracle_calls; checks the result.
# The oracle wants each needle line whole: the shrink pass would otherwise take `NEEDLE 7`
# to `NEEDLE` (its calls, a few for all the needle lines at once, are in the counts).
calls() {
    cat > "$work/grep-oracle.sh" <<EOF
#!/bin/sh
test "\$(grep -cx 'NEEDLE [0-9][0-9]*' "\$1")" -eq $3
EOF
    chmod +x "$work/grep-oracle.sh"
    (cd "$work" && "$bin" "$2" ./grep-oracle.sh --format lines -j 1 -q \
        --strategy "$1" -o out.txt --stats-json stats.json)
    grep '^NEEDLE' "$2" > "$work/want.txt"
    if ! cmp -s "$work/out.txt" "$work/want.txt"; then
        echo "bench/lines.sh: $1 on $2: the result is not exactly the needle lines" >&2
        exit 1
    fi
    sed -n 's/.*"oracle_calls": \([0-9]*\).*/\1/p' "$work/stats.json"
}

median() {
    tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

echo "| case | limit | default (gbs): calls per seed | median | lithium median |"
echo "|---|---|---|---|---|"
# name n m layout limit
while read -r name n m layout limit; do
    ours=""
    theirs=""
    seed=1
    while [ "$seed" -le "$seeds" ]; do
        make_input "$n" "$m" "$layout" "$seed" "$work/input.txt"
        ours="$ours $(calls gbs "$work/input.txt" "$m")"
        theirs="$theirs $(calls lithium "$work/input.txt" "$m")"
        seed=$((seed + 1))
    done
    echo "| $name | $limit |$ours | $(echo "$ours" | median) | $(echo "$theirs" | median) |"
done <<EOF
n=1024,m=16,random 1024 16 random 161.8
n=1024,m=4,random 1024 4 random 49.6
n=1024,16-line-run 1024 16 run 45
n=1024,m=1 1024 1 random 14
n=4096,m=64,random 4096 64 random 659.8
EOF
