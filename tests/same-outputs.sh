#!/usr/bin/env bash
# same-outputs.sh — a refactoring check: do two tunecost binaries (before and after a change) give the same bytes
# on the shipped traces? It runs both on every trace under DATA (default: data/ beside this script) and compares
# stdout, stderr and exit status of `info` (text and --json), every `table` kind on each trace (kinds that do not
# apply compare their error), `table flush` over the flush study, and the files and summaries of `simulate`,
# `policies` and `report` (same seed). Only the elapsed times and memory sizes in simulate's and policies' summary
# lines are masked.
#
# usage: tests/same-outputs.sh OLD_TUNECOST NEW_TUNECOST [DATA]
#   SAMPLES=100 RUNS=10 SEED=1   simulation size and seed of simulate and report (smaller = faster)
#   REPORT=0                     skip `report` (the slowest part: ~20 s per trace and binary)
#   KEEP=1                       keep the scratch folder (its path is printed)
# Exit status: 0 every output identical, 1 some differ (each named, with the first lines of its diff), 2 misuse.
#
# Typical use: build the commit before the change in a second build directory, e.g.
#   git archive HEAD~1 | (mkdir -p /tmp/before && tar -x -C /tmp/before)
#   (cd /tmp/before && meson setup build -Dtests=disabled && ninja -C build tunecost)
#   tests/same-outputs.sh /tmp/before/build/tunecost build/tunecost
# It is not a meson test: CI has only one commit checked out, and comparing a binary with itself proves nothing.
# Each binary draws the report's figures with the gnuplot scripts of its own source tree (plots/): a change to
# plots/ between the two commits shows up as different figures, as it should.
set -u

usage() {
    echo "usage: $0 OLD_TUNECOST NEW_TUNECOST [DATA]" >&2
    exit 2
}
[ $# -ge 2 ] && [ $# -le 3 ] || usage
OLD=$(realpath -e "$1" 2>/dev/null) || { echo "$0: $1: no such binary" >&2; exit 2; }
NEW=$(realpath -e "$2" 2>/dev/null) || { echo "$0: $2: no such binary" >&2; exit 2; }
DATA=$(realpath -e "${3:-$(dirname "$0")/../data}" 2>/dev/null) || { echo "$0: ${3:-data}: no such folder" >&2; exit 2; }
SAMPLES=${SAMPLES:-100}
RUNS=${RUNS:-10}
SEED=${SEED:-1}
REPORT=${REPORT:-1}

mapfile -t TRACES < <(find "$DATA" -maxdepth 2 -name '*.h5' | sort)
[ ${#TRACES[@]} -gt 0 ] || { echo "$0: $DATA: no traces (*.h5)" >&2; exit 2; }
mapfile -t FLUSH < <(find "$DATA" -path '*flush*' -name '*.h5' | sort)

W=$(mktemp -d "${TMPDIR:-/tmp}/same-outputs.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
    echo "scratch: $W"
else
    trap 'rm -rf "$W"' EXIT
fi
mkdir -p "$W/old" "$W/new"

# run NAME ARGS...: both binaries, each in its own folder (so relative output paths are the same), capturing
# stdout, stderr and the exit status as NAME.out, NAME.err, NAME.rc.
run() {
    local name=$1 side bin
    shift
    for side in old new; do
        bin=$OLD
        [ $side = new ] && bin=$NEW
        (cd "$W/$side" && "$bin" "$@" >"$name.out" 2>"$name.err"; echo $? >"$name.rc")
    done
}

n=0
for tr in "${TRACES[@]}"; do
    b=$(basename "$tr" .h5)
    run "info-$b" info "$tr"
    run "info-json-$b" info "$tr" --json
    for kind in compile tuning split best failures estimate heatmap; do
        run "table-$kind-$b" table "$kind" "$tr" -o "table-$kind-$b.tsv"
    done
    run "simulate-$b" simulate -s "$SAMPLES" -r "$RUNS" --seed "$SEED" -j 2 -o "sim-$b" "$tr"
    run "policies-$b" policies -r 2 --seed "$SEED" -j 2 -o "pol-$b" "$tr"
    n=$((n + 1))
done
if [ ${#FLUSH[@]} -ge 2 ]; then
    run table-flush table flush "${FLUSH[@]}" -o table-flush.tsv
fi
run table-several table best "${TRACES[@]}"
if [ "$REPORT" != 0 ]; then
    for tr in "${TRACES[@]}"; do
        case "$tr" in *flush*) continue ;; esac # three small traces of one study: the larger ones suffice
        b=$(basename "$tr" .h5)
        run "report-$b" report -q -s "$SAMPLES" -r "$RUNS" --seed "$SEED" -j 2 --triton-trace none -o "report-$b" "$tr"
    done
fi

# The elapsed times and memory sizes in the summary lines of simulate ("replayed in 0.112 s; ... (16.2 MiB)") and
# policies ("(3.33 s)") are the only bytes allowed to differ.
for side in old new; do
    for f in "$W/$side"/simulate-*.out "$W/$side"/simulate-*.err "$W/$side"/policies-*.out \
        "$W/$side"/policies-*.err; do
        [ -f "$f" ] && sed -E -i 's/ in [0-9.]+ s\b/ in T s/g; s/\([0-9.]+ (s|MiB)\)/(N \1)/g' "$f"
    done
done

files=$(cd "$W/old" && find . -type f | wc -l)
if diff -r -q "$W/old" "$W/new" >"$W/diffs" 2>&1; then
    what="info, table, simulate, policies"
    [ "$REPORT" != 0 ] && what="$what, report"
    echo "same-outputs: identical: $files files (stdout, stderr, exit status and outputs of $what) on $n traces," \
        "seed $SEED, $SAMPLES samples x $RUNS runs"
    echo "  old: $OLD"
    echo "  new: $NEW"
    exit 0
fi
echo "same-outputs: DIFFERENT ($(wc -l <"$W/diffs") of $files files):"
while read -r line; do
    echo "  $line"
    set -- $line
    if [ "$1" = Files ]; then
        diff "$2" "$4" | head -6 | cut -c 1-200 | sed 's/^/      /'
    fi
done <"$W/diffs"
exit 1
