#!/usr/bin/env bash
# test-score-cli.sh — `tunecost policies --score`: the methodology's score is the default, with its CI in
# scores.tsv and each input's frame in atm.tsv; --score area writes the columns it always wrote; the bytes do not
# depend on the thread count; random search scores about 0 against the methodology's random-search baseline (the
# old baseline, time / mean time per evaluation, gave it -0.16 on this trace: the test fails on such a bias);
# --runs-log t4 writes one file per input and run; bad values are usage errors.
#
# Usage: test-score-cli.sh TUNECOST TRACE
# Exit: 0 pass, 1 fail, 77 skipped (no python3 or no trace).
set -u
TUNECOST=$(realpath "${1:?usage: test-score-cli.sh TUNECOST TRACE}")
TRACE=${2:?usage}
command -v python3 >/dev/null || { echo "SKIP: python3 is needed"; exit 77; }
[ -f "$TRACE" ] || { echo "SKIP: $TRACE is missing"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-score.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
n_fail=0
fail() { n_fail=$((n_fail + 1)); echo "FAIL $*"; }
ok() { echo "ok   $*"; }
P() { "$TUNECOST" policies "$TRACE" -q "$@"; }

P -p random,costaware -r 8 --seed 3 -j 1 -o a1 && P -p random,costaware -r 8 --seed 3 -j 2 -o a2 &&
    P -p random,costaware -r 8 --seed 3 -j 2 --score area -o b || fail "policies runs"
[ "$(head -n 1 a1/scores.tsv)" = "$(printf 'policy\tscore\tscore_lo\tscore_hi\tp_first\tinputs_scored\tscore_area\tt90_s\tt95_s\tt99_s\tfinal_speedup\tsteps\tbudget_stops')" ] &&
    ok "default scores.tsv has the CI columns" || fail "default header: $(head -n 1 a1/scores.tsv)"
[ "$(head -n 1 b/scores.tsv)" = "$(printf 'policy\tscore\tt90_s\tt95_s\tt99_s\tfinal_speedup\tsteps\tbudget_stops')" ] &&
    [ ! -e b/atm.tsv ] && ok "--score area: the earlier columns, no atm.tsv" || fail "area header: $(head -n 1 b/scores.tsv)"
cmp -s a1/scores.tsv a2/scores.tsv && cmp -s a1/atm.tsv a2/atm.tsv && ok "the same bytes with -j 1 and -j 2" ||
    fail "-j 1 and -j 2 differ"
# the area score is the same number under either --score, and every scored input lies inside its range
python3 - a1 b <<'PYEOF' && ok "score_area = --score area's score; atm.tsv consistent" || fail "scores.tsv / atm.tsv"
import csv, sys, math
rd = lambda p: list(csv.DictReader(open(p), delimiter="\t"))
a, b, f = rd(sys.argv[1] + "/scores.tsv"), rd(sys.argv[2] + "/scores.tsv"), rd(sys.argv[1] + "/atm.tsv")
for x, y in zip(a, b):
    assert x["policy"] == y["policy"] and x["score_area"] == y["score"], (x, y)
    assert float(x["score_lo"]) <= float(x["score"]) <= float(x["score_hi"]), x
assert abs(sum(float(x["p_first"]) for x in a) - 1) < 1e-9, a  # the shares of first place add up to 1
for x in a:  # the aggregate is the mean of the inputs' scores
    s = [float(r["score"]) for r in f if r["policy"] == x["policy"] and r["scored"] == "1"]
    assert len(s) == int(x["inputs_scored"]) and abs(sum(s) / len(s) - float(x["score"])) < 1e-12, x
for r in f:
    if r["scored"] == "1":
        assert float(r["t0_s"]) < float(r["t1_s"]) and float(r["opt_ms"]) < float(r["cut_ms"]) < float(r["median_ms"]), r
PYEOF

# random search against itself: 100 runs on every input
P -p random -r 100 --seed 1 -o r || fail "random, 100 runs"
got=$(cut -f2-4 r/scores.tsv | tail -n 1 | tr '\t' ' ')
python3 - r/scores.tsv <<'PYEOF' && ok "random search scores about 0: $got" || fail "random search's score is biased: $got"
import csv, sys
x = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))[0]
s, lo, hi = float(x["score"]), float(x["score_lo"]), float(x["score_hi"])
assert abs(s) < 0.06 and lo < 0.03 and hi > -0.03 and hi - lo < 0.3, (s, lo, hi)
PYEOF

# --runs-log t4: one T4 file per input and run (none without it); the folder is policies' own to replace
P -p random -r 2 --seed 3 --runs-log t4 -o rl || fail "--runs-log t4"
n_in=$(($(cut -f2 rl/atm.tsv | sort -u | wc -l) - 1))
n_logs=$(find rl/runs/random -name 'run-00[01].json' | wc -l)
[ "$n_logs" = $((2 * n_in)) ] && [ ! -e a1/runs ] && ok "--runs-log t4: $n_logs files for $n_in inputs x 2 runs" ||
    fail "--runs-log t4: $n_logs files for $n_in inputs x 2 runs"
P -p random -r 2 --seed 3 -o rl && [ ! -e rl/runs ] && ok "a runs log is replaced like the rest" ||
    fail "-o over a folder with runs/"

# usage errors
P -p random -r 2 --runs-log json -o u 2>err.txt
[ $? = 2 ] && grep -q -- "--runs-log" err.txt && [ ! -e u ] && ok "--runs-log json: exit 2, the option named" ||
    fail "--runs-log json: $(cat err.txt)"
for bad in "--score best" "--cutoff 1" "--cutoff 0" "--cutoff x"; do
    # shellcheck disable=SC2086
    P -p random -r 2 $bad -o u 2>err.txt; rc=$?
    [ $rc = 2 ] && [ -s err.txt ] && [ ! -e u ] && ok "$bad: exit 2" || fail "$bad: exit $rc"
done
[ $n_fail = 0 ] && echo "all passed" || echo "$n_fail failed"
[ $n_fail = 0 ]
