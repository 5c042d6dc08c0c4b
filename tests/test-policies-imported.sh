#!/usr/bin/env bash
# test-policies-imported.sh — `tunecost policies` on an imported Kernel Tuner cache means what a Kernel Tuner user
# means: the cache's `time` ranks and scores (not the median of its `times`), each first visit is charged the
# compile + verification + benchmark time the cache recorded, and `info --json` names the source's time apart from
# the median of the executions. The cache is hand-written below (not a measurement): four configurations of one
# parameter, whose `time` is not the mean of their `times`:
#   bs 16: time 1.0 ms, times 0.2 0.2 0.2 (lowest times), compile 10 ms, verification 2 ms, benchmark 3 ms
#   bs 32: time 0.5 ms (the cache's best), times 0.9 0.9 0.9, compile 20, verification 4, benchmark 6
#   bs 64: time 0.8 ms, times 0.6 0.6 0.6, compile 30, verification 1, benchmark 2
#   bs 128: InvalidConfig
# brute_force visits all four: ranked by the cache it ends at bs 32 (speedup 1); ranked by the replayed executions
# (--costs replay) it ends at bs 16, whose cache time is 1.0 ms: speedup 0.5 / 1.0 = 0.5.
#
# Usage: test-policies-imported.sh TUNECOST
# Exit: 0 pass, 1 fail, 77 skipped (import not built).
set -u
TUNECOST=$(realpath "${1:?usage: test-policies-imported.sh TUNECOST}")
"$TUNECOST" import --help >/dev/null 2>&1 || { echo "SKIP: tunecost import is not built (json-c missing)"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-polimp.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
n_fail=0
fail() { n_fail=$((n_fail + 1)); echo "FAIL $*"; }
T() { "$TUNECOST" "$@"; }
cat >cache.json <<'JSON'
{"device_name": "Hand GPU", "kernel_name": "hand", "problem_size": [256], "tune_params_keys": ["bs"],
 "tune_params": {"bs": [16, 32, 64, 128]}, "objective": "time", "cache": {
"16": {"bs": 16, "time": 1.0, "times": [0.2, 0.2, 0.2], "compile_time": 10, "verification_time": 2, "benchmark_time": 3},
"32": {"bs": 32, "time": 0.5, "times": [0.9, 0.9, 0.9], "compile_time": 20, "verification_time": 4, "benchmark_time": 6},
"64": {"bs": 64, "time": 0.8, "times": [0.6, 0.6, 0.6], "compile_time": 30, "verification_time": 1, "benchmark_time": 2},
"128": {"bs": 128, "time": "InvalidConfig", "compile_time": 0, "verification_time": 0, "benchmark_time": 0}}}
JSON
T import kerneltuner cache.json -o c.h5 -q >/dev/null 2>&1 || { echo "FAIL import: $(T import kerneltuner cache.json -o c.h5 2>&1 | tail -1)"; exit 1; }

# info --json: the best is the cache's (bs 32), its time_ms the cache's 0.5, its executions' median 0.9 ms
T info --json c.h5 | python3 -c '
import json, sys
b = json.load(sys.stdin)["best"][0]
assert b["params"] == [32] and b["time_ms"] == 0.5 and b["true_ns"] == 500000 and b["exec_median_ns"] == 900000, b' ||
    fail "info --json: the best and its time_ms / exec_median_ns"

# final_speedup of scores.tsv (column 11 under the default --score atm)
final() { awk -F'\t' -v p="$1" '$1 == p { print $11 }' "$2/scores.tsv"; }
T policies c.h5 -p brute_force,exhaustive -r 3 -o src --no-figures -q || fail "policies on the imported cache"
[ "$(final brute_force src)" = 1 ] && [ "$(final exhaustive src)" = 1 ] ||
    fail "ranked by the cache, brute force ends at its best: $(final brute_force src) $(final exhaustive src)"
T policies c.h5 -p brute_force -r 3 --costs replay -o rep --no-figures -q || fail "policies --costs replay"
[ "$(final brute_force rep)" = 0.5 ] || fail "--costs replay ranks by the executions: $(final brute_force rep), want 0.5"
# the banner says which costs and which truth
T policies c.h5 -p random_sample -r 1 -o b --no-figures 2>err.txt >/dev/null
grep -q "costs as the source recorded them" err.txt && grep -q "source's objective ranks and scores" err.txt ||
    fail "the banner does not say what is charged: $(cat err.txt)"
# --max-fevals 1: one configuration, as the strategy's own max_fevals
T policies c.h5 -p brute_force -r 2 --max-fevals 1 -o m --no-figures -q || fail "--max-fevals 1"
[ "$(awk -F'\t' '$1 == "brute_force" { print $12 }' m/scores.tsv)" = 2 ] || fail "--max-fevals 1: steps $(cat m/scores.tsv)"
# a strategy option no chosen policy reads is refused
T policies c.h5 -p random_sample --strategy-options popsize=3 -o x -q 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q "popsize" err.txt || fail "--strategy-options popsize for random_sample: exit $rc, $(cat err.txt)"
[ $n_fail = 0 ] && echo "all passed" || echo "$n_fail failed"
[ $n_fail = 0 ]
