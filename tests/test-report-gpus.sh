#!/bin/sh
# test-report-gpus.sh — the report's cross-GPU findings (analysis/report_gpus.c) recomputed from its TSVs. `tunecost
# report` writes them only with --runs 5 or more on the shipped pair (gemm-h200.h5 and its H100 twin
# gemm-h100-full.h5), so test-report.c (2 runs) never sees them. This runs a small report on the shipped traces
# (every other study off) and, with python3's standard library only, recomputes from cross-gpu.tsv and
# policies-gpu.tsv every number of the findings "**Cross-GPU**", "**Policies on the ...**" and "**Warm start on the
# ...**" in summary.md: the two keep percentages (keep_mean) with their CIs and the inputs with the same best, each
# block's first policy with its score and CI (or the two highest when no CI separates), its configurations and
# inputs, the runs and seeds, the largest change of a policy's rank over the three seeds (rank, rank_seed2,
# rank_seed3), and transfer's warm-start counts (the policies from scratch whose CI lies wholly below / above
# transfer's). It then checks that the checker fails on copies of summary.md with one number changed.
#
# Usage: test-report-gpus.sh TUNECOST DATA_DIR
# Exit: 0 pass, 1 fail, 77 skipped (no python3, or a shipped trace missing).
set -u
TUNECOST=$(realpath "${1:?usage: test-report-gpus.sh TUNECOST DATA_DIR}")
DATA=$(realpath "${2:?usage: test-report-gpus.sh TUNECOST DATA_DIR}")
command -v python3 >/dev/null || { echo "SKIP: python3 is needed"; exit 77; }
for f in gemm-h200.h5 gemm-h100-full.h5; do
    [ -f "$DATA/$f" ] || { echo "SKIP: $DATA/$f is missing"; exit 77; }
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-report-gpus.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
RUNS=5
SEED=1

start=$(date +%s)
TUNECOST_DATA_DIR=$DATA "$TUNECOST" report "$DATA/gemm-h200.h5" -o rep --runs $RUNS --seed $SEED --samples 20 \
    --triton-trace none --compare-trace none --flush-study none --scaling none --recorded none --no-figures -j 2 \
    >out 2>err || { tail -n 20 err; echo "FAIL: tunecost report exited non-zero"; exit 1; }
echo "report: $(($(date +%s) - start)) s"

cat >check.py <<'PY'
import csv, re, sys

rep, summary, runs, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
fails = []
def check(ok, what):
    if not ok:
        fails.append(what)
def rows(name):
    with open(f"{rep}/{name}", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))
f3 = lambda x: "%.3f" % float(x)
lines = [l.rstrip("\n") for l in open(summary, encoding="utf-8")]
NUM = r"(-?\d+\.\d{3})"

# Cross-GPU: keep_mean of each direction, as a percentage with one decimal
keep = {r["best_of"]: r for r in rows("cross-gpu.tsv")}
check(set(keep) == {"H200 best on the H100", "H100 best on the H200"}, f"cross-gpu.tsv rows: {sorted(keep)}")
xg = [l for l in lines if l.startswith("- **Cross-GPU**")]
check(len(xg) == 1, f"{len(xg)} Cross-GPU findings (expected 1)")
for l in xg:
    P = r"(-?\d+\.\d)"
    m = re.fullmatch(r"- \*\*Cross-GPU\*\* \((\S+) and (\S+), (\d+) inputs, (\d+) shared configurations\): "
                     r"the H200's best keeps " + P + r"% \(95% CI " + P + "-" + P + r"%\) of the H100's optimum among "
                     r"them, the H100's best " + P + r"% \(95% CI " + P + "-" + P + r"%\) of the H200's; same best on "
                     r"(\d+) of (\d+) inputs \(cross-gpu\.tsv\)\.", l)
    if not m:
        check(False, f"Cross-GPU finding does not parse: {l}")
        continue
    check(m.group(1, 2) == ("gemm-h200.h5", "gemm-h100-full.h5"), f"Cross-GPU traces: {m.group(1, 2)}")
    pct = lambda r, col: "%.1f" % (100 * float(r[col]))
    a, b = keep.get("H200 best on the H100"), keep.get("H100 best on the H200")
    if a is None or b is None:
        continue
    want = [a["inputs"], a["configs"], pct(a, "keep_mean"), pct(a, "keep_lo"), pct(a, "keep_hi"),
            pct(b, "keep_mean"), pct(b, "keep_lo"), pct(b, "keep_hi"), a["same_best"], a["inputs"]]
    for k, (got, w) in enumerate(zip(m.groups()[2:], want)):
        check(got == w, f"Cross-GPU number {k + 1} of the finding: summary {got}, cross-gpu.tsv gives {w}")

# Policies per GPU: the blocks of policies-gpu.tsv in their order
blocks = {}
for r in rows("policies-gpu.tsv"):
    blocks.setdefault(r["gpu"], []).append(r)
names = list(blocks)
check(names[:2] == ["H200", "H100"] and len(names) in (2, 3) and
      (len(names) == 2 or names[2] == "H100 on the H200's configurations"), f"policies-gpu.tsv blocks: {names}")
other = {"H200": "H100", "H100": "H200", "H100 on the H200's configurations": "H200"}
pol_lines = [l for l in lines if l.startswith("- **Policies on the ")]
warm_lines = [l for l in lines if l.startswith("- **Warm start on the ")]
check(len(pol_lines) == len(names), f"{len(pol_lines)} Policies findings for {len(names)} blocks")
check(len(warm_lines) == len(names), f"{len(warm_lines)} Warm start findings for {len(names)} blocks")
for g in names:
    b = blocks[g]
    n = len(b)
    for r in b:
        r["score_f"], r["lo_f"], r["hi_f"] = float(r["score"]), float(r["score_lo"]), float(r["score_hi"])
    for col in ("rank", "rank_seed2", "rank_seed3"):
        check(sorted(int(r[col]) for r in b) == list(range(1, n + 1)), f"{g}: {col} is not a ranking 1..{n}")
    check([int(r["rank"]) for r in b] == list(range(1, n + 1)), f"{g}: rows not in rank order")
    # rank is seed 1's order by score, highest first
    check(all(b[k]["score_f"] >= b[k + 1]["score_f"] for k in range(n - 1)), f"{g}: rank does not follow score")
    cfg = {r["configs"] for r in b}
    inp = {r["inputs"] for r in b}
    check(len(cfg) == 1 and len(inp) == 1, f"{g}: configs/inputs differ within the block")
    first, second = b[0], b[1]
    separated = all(first["lo_f"] > r["hi_f"] for r in b[1:])
    max_change = max(abs(int(r[c]) - int(r["rank"])) for r in b for c in ("rank_seed2", "rank_seed3"))
    head = (f"- **Policies on the {g}** ({cfg.pop()} configurations, {inp.pop()} inputs x {runs} runs; transfer "
            f"warm-started, the others from scratch): ")
    if separated:
        want = (head + f"{first['policy']} ranks first, {f3(first['score'])} [{f3(first['score_lo'])}, "
                f"{f3(first['score_hi'])}], its 95% CI above every other's; ranks move by at most {max_change} over "
                f"seeds {seed}-{seed + 2} (policies-gpu.tsv).")
    else:
        want = (head + "no 95% CI lies above all others'; highest "
                f"{first['policy']} {f3(first['score'])} [{f3(first['score_lo'])}, {f3(first['score_hi'])}], then "
                f"{second['policy']} {f3(second['score'])} [{f3(second['score_lo'])}, {f3(second['score_hi'])}] "
                "(policies-gpu.tsv).")
    got = [l for l in pol_lines if l.startswith(f"- **Policies on the {g}**")]
    check(got == [want], f"{g}: Policies finding\n  summary: {got}\n  from TSV: {want}")

    # warm start: transfer against each policy from scratch, by their CIs
    tr = [r for r in b if r["policy"] == "transfer"]
    if len(tr) != 1:
        check(False, f"{g}: {len(tr)} transfer rows")
        continue
    t = tr[0]
    rest = [r for r in b if r is not t]
    above = {r["policy"] for r in rest if t["lo_f"] > r["hi_f"]}
    not_above = {r["policy"] for r in rest if not t["lo_f"] > r["hi_f"]}
    below = sum(t["hi_f"] < r["lo_f"] for r in rest)
    got = [l for l in warm_lines if l.startswith(f"- **Warm start on the {g}** ")]
    if len(got) != 1:
        check(False, f"{g}: {len(got)} Warm start findings")
        continue
    m = re.fullmatch(re.escape(f"- **Warm start on the {g}** from the ") + r"(.+?)'s measurements \(transfer " + NUM +
                     r" \[" + NUM + ", " + NUM + r"\]\): its 95% CI lies above that of (\d+) and below that of (\d+) "
                     r"of the (\d+) policies from scratch \(policies-gpu\.tsv\)\.", got[0])
    if not m:
        check(False, f"{g}: Warm start finding does not parse: {got[0]}")
        continue
    o, sc, lo, hi, n_above, n_below, n_from = m.groups()
    check(o == other[g], f"{g}: warm start from the {o} (expected {other[g]})")
    check((sc, lo, hi) == (f3(t["score"]), f3(t["score_lo"]), f3(t["score_hi"])),
          f"{g}: transfer {sc} [{lo}, {hi}] in summary, {f3(t['score'])} [{f3(t['score_lo'])}, {f3(t['score_hi'])}] "
          "in the TSV")
    check(int(n_above) == len(above), f"{g}: transfer's CI above {n_above} in summary, {len(above)} from the TSV")
    check(int(n_from) == n - 1, f"{g}: policies from scratch {n_from}, TSV {n - 1}")
    check(int(n_below) == below, f"{g}: transfer's CI below {n_below} in summary, {below} from the TSV")
    check(len(above) + len(not_above) == n - 1, f"{g}: {len(above)} + {len(not_above)} policies from scratch")
for f in fails:
    print("FAIL", f)
sys.exit(1 if fails else 0)
PY

fail=0
python3 check.py rep rep/summary.md $RUNS $SEED && echo "ok   the cross-GPU findings agree with cross-gpu.tsv and policies-gpu.tsv" ||
    fail=1
grep -F -e '**Cross-GPU**' -e '**Policies on the' -e '**Warm start on the' rep/summary.md

# the checker must catch a changed number: the first percentage, a lowest share, a score, a rank change, a count
n_mut=0
for expr in 's/best keeps \([0-9]*\)\.\([0-9]\)%/best keeps \1.\2\2%/' \
            's/same best on \([0-9]*\) of/same best on 1\1 of/' \
            '/Policies on the H200\*\*/s/ranks first, -\{0,1\}[0-9]*\.[0-9]*/ranks first, 9.999/' \
            "/Policies on the H100\\*\\*/s/at most \\([0-9]*\\) over/at most 1\\1 over/" \
            '/Warm start on the H200\*\*/s/below that of \([0-9]*\) of/below that of 1\1 of/' \
            '/Warm start on the H100\*\*/s/lies above that of \([0-9]*\) and/lies above that of 1\1 and/'; do
    n_mut=$((n_mut + 1))
    sed "$expr" rep/summary.md >mut.md
    if cmp -s mut.md rep/summary.md; then
        echo "FAIL: mutation $n_mut left summary.md unchanged"; fail=1
    elif python3 check.py rep mut.md $RUNS $SEED >/dev/null; then
        echo "FAIL: the checker passes summary.md with mutation $n_mut ($expr)"; fail=1
    fi
done
[ $fail -eq 0 ] && echo "ok   the checker fails on each of $n_mut changed numbers"
exit $fail
