#!/bin/sh
# test-researcher-questions.sh — the six questions a researcher asks of tunecost, each answered by one command on
# the shipped traces, each answer with a 95% CI (small sample counts, so the whole test takes well under a minute
# on two cores):
#   1. what does tuning one 4096^3 GEMM cost with Triton's protocol, and where does the time go?   `cost --protocol`
#   2. what fraction of the optimum do I reach in 10 s?                                          `simulate --budget`
#   3. when does early stopping pay? (which cost dominates)                                      `cost`
#   4. how much does tuning cost and what does it buy?                                           `cost`
#   5. which curve of the policies figure is which policy? (no two alike; scores with CIs)       `policies -o`
#   6. does a ranking on one input warn that it says little, and name the policy left out?       `policies`
#   test-researcher-questions.sh TUNECOST SOURCE-ROOT
set -u
tunecost=$1
src=$2
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed (parses --json)"; exit 77; }
tmp=$(mktemp -d /tmp/test-researcher.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export TUNECOST_DATA_DIR="$src/data" TUNECOST_PLOTS_DIR="$src/plots"

# 1. Triton's protocol: the shipped triton-protocol trace is picked, said to be another kernel family, and the cost
#    split into its parts (which sum to the total) with CIs.
"$tunecost" cost -i 4096x4096x4096 --protocol triton --json -r 5 --bootstrap 300 > "$tmp/q1.json" 2> "$tmp/q1.err" \
    || fail "q1: tunecost cost --protocol triton failed: $(cat "$tmp/q1.err")"
grep -q "gemm-h200-triton.h5 is a different kernel family" "$tmp/q1.err" \
    || fail "q1: no note that the triton-protocol trace is another kernel family: $(cat "$tmp/q1.err")"
python3 - "$tmp/q1.json" <<'PY' || fail "q1: the JSON answer"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["protocol"] == "triton", d["protocol"]
parts = ["compile_s", "warmup_s", "repetition_s", "flush_s", "launch_overhead_s", "failed_s", "compile_warmup_s"]
tot = d["total_s"]
assert abs(sum(d[p]["value"] for p in parts) - tot["value"]) < 1e-9 * tot["value"], "parts do not sum to the total"
assert tot["lo"] < tot["value"] < tot["hi"], tot
assert d["flush_s"]["value"] > 0, "the triton protocol flushes L2"
assert "imputed" in d["failed_how"], d["failed_how"]
print(f"q1: {tot['value']:.1f} s [{tot['lo']:.1f}, {tot['hi']:.1f}], compile share {d['compile_share']['value']:.2f}")
PY

# 2. 10 s: the best fraction of the optimum within the budget per scenario, chosen on the runs, reported on fresh
#    runs with its CI.
"$tunecost" simulate -s 40 -r 5 --budget 10 -q > "$tmp/q2.txt" 2> "$tmp/q2.err" || fail "q2: simulate --budget failed"
row=$(grep -E '^10 ' "$tmp/q2.txt") || fail "q2: no row for the 10 s budget: $(cat "$tmp/q2.txt")"
python3 - "$row" <<'PY' || fail "q2: the 10 s row $row"
import re, sys
cells = re.findall(r"([0-9.]+) \[([0-9.]+), ([0-9.]+)\]", sys.argv[1])
assert len(cells) == 3, cells            # baseline, parallel, early-stop
for v, lo, hi in cells:
    assert float(lo) <= float(v) <= float(hi) <= 1, (v, lo, hi)
print("q2: within 10 s:", ", ".join(c[0] for c in cells))
PY

# 3 and 4. The default trace, one input: the total and its parts with CIs, the compile and repetition shares with
#    CIs and what follows for early stopping, and what tuning buys (best TFLOP/s with a CI, against cuBLAS and a
#    configuration picked at random).
"$tunecost" cost -i 4096x4096x4096 -r 5 --bootstrap 300 > "$tmp/q3.txt" 2> "$tmp/q3.err" || fail "q3: cost failed"
python3 - "$tmp/q3.txt" <<'PY' || fail "q3/q4: the cost answer: $(cat "$tmp/q3.txt")"
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"is ([0-9.]+)% \[([0-9.]+)%, ([0-9.]+)%\] of it, repetition ([0-9.]+)% \[([0-9.]+)%, ([0-9.]+)%\]", t)
assert m, "no compile and repetition shares with CIs"
c, clo, chi, r, rlo, rhi = map(float, m.groups())
assert clo <= c <= chi and rlo <= r <= rhi
assert "early stopping can save at most the repetition share" in t
assert clo > rhi, "on the shipped trace compilation dominates"
print(f"q3: compile {c}% [{clo}, {chi}], repetition {r}% [{rlo}, {rhi}]: early stopping saves little")
m = re.search(r"^total +([0-9.]+) \[ *([0-9.]+), +([0-9.]+)\]", t, re.M)
assert m and float(m.group(2)) < float(m.group(1)) < float(m.group(3)), "no total with a CI"
m = re.search(r"best configuration \(\d+\): ([0-9.]+) TFLOP/s \[([0-9.]+), ([0-9.]+)\]", t)
assert m and float(m.group(2)) <= float(m.group(1)) <= float(m.group(3)), "no best TFLOP/s with a CI"
assert re.search(r"the best reaches [0-9.]+% of it", t) and re.search(r"tuning buys [0-9.]+x", t)
print("q4: total", re.search(r"^total.*$", t, re.M).group(0).split()[1], "s; best", m.group(1), "TFLOP/s")
PY

# 5 and 6. Policies on a one-input trace with 5 runs: a warning that the ranking says little, a note naming the
#    policy left out, scores with CIs, and a figure whose curves all differ in colour or dash.
"$tunecost" policies "$src/data/gemm-h100-compile.h5" -r 5 -o "$tmp/pol" > "$tmp/q5.txt" 2> "$tmp/q5.err" \
    || fail "q5: policies failed: $(cat "$tmp/q5.err")"
grep -q "warning: the ranking rests on 1 input(s) x 5 run(s)" "$tmp/q5.err" || fail "q6: no warning: $(cat "$tmp/q5.err")"
grep -q "note: transfer needs another GPU's trace (--transfer-from T); not run" "$tmp/q5.err" \
    || fail "q6: transfer left out without a note"
python3 - "$tmp/pol/scores.tsv" <<'PY' || fail "q5: scores.tsv"
import csv, sys
rows = list(csv.DictReader((l for l in open(sys.argv[1]) if not l.startswith("#")), delimiter="\t"))
assert len(rows) >= 10
for r in rows:
    assert float(r["score_lo"]) <= float(r["score"]) <= float(r["score_hi"]), r
PY
if command -v gnuplot >/dev/null 2>&1; then
    (cd "$tmp/pol" && gnuplot -e "policies_curves_tsv='curves.tsv'; plotsdir='$src/plots'; out='/dev/null'; styles_out='st.tsv'" \
        "$src/plots/policies.gp") || fail "q5: policies.gp"
    dup=$(awk -F'\t' 'NR > 1 {print $2, $3}' "$tmp/pol/st.tsv" | sort | uniq -d)
    [ -z "$dup" ] || fail "q5: two policies share a style: $dup"
    echo "q5: $(($(wc -l < "$tmp/pol/st.tsv") - 1)) policies, each its own colour and dash"
fi
echo "PASS: six questions, one command each, each answer with a 95% CI"
