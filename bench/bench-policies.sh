#!/usr/bin/env bash
# bench-policies.sh — time `tunecost policies` on the shipped reference trace (64 inputs x every built-in policy x
# 30 runs), with each stopping rule, three times each; prints the wall time of each run (the command's own
# "(N s)" figure: the evaluation, without loading the trace) and the total with /usr/bin/time when available.
# usage: bash bench/bench-policies.sh [TUNECOST]        (results: docs/performance.md, "Policies")
set -u
T=${1:-build/tunecost}
out=$(mktemp -d "${TMPDIR:-/tmp}/bench-policies.XXXXXX")
trap 'rm -rf "$out"' EXIT
for stop in none early statistical; do
    for i in 1 2 3; do
        rm -rf "$out/p"
        s=$(date +%s.%N)
        "$T" policies --stop "$stop" -q -o "$out/p" 2>"$out/err" || { cat "$out/err"; exit 1; }
        e=$(date +%s.%N)
        eval_s=$(sed -n 's/.*(\([0-9.]*\) s)$/\1/p' "$out/err")
        printf '%-12s run %d: evaluation %6s s, whole command %6.2f s\n' "$stop" "$i" "$eval_s" \
            "$(awk -v a="$s" -v b="$e" 'BEGIN { print b - a }')"
    done
done
