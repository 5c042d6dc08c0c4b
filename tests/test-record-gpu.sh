#!/bin/bash
# test-record-gpu.sh — `tunecost record --triton` on a tiny Triton autotune (bench/record-triton.py: 4 GEMM
# configurations, one of them too large for shared memory; 2 inputs): the trace has both inputs and all four
# configurations, the large one out of resources; each valid run was classified as do_bench issued it (the first
# call and 5 flushed estimate calls, then warm-up and timed ones); and the recorded best configuration is
# Triton's best_config on both inputs (bench/record-compare.py). Exits 77 without a GPU, torch and Triton, or the
# injection library (meson option recorder).
# usage: test-record-gpu.sh TUNECOST SRCDIR [WORKDIR]
set -u
T=$1; SRC=$2; W=${3:-}
nvidia-smi -L >/dev/null 2>&1 || { echo "no NVIDIA GPU: skipped"; exit 77; }
python3 -c 'import torch, triton; assert torch.cuda.is_available()' 2>/dev/null \
  || { echo "no torch and Triton with CUDA: skipped"; exit 77; }
if [ -z "$W" ]; then W=$(mktemp -d); trap 'rm -rf "$W"' EXIT; else mkdir -p "$W"; fi
$T record -o "$W/probe.h5" -- true 2>"$W/probe.err"
if grep -q "was not built" "$W/probe.err"; then echo "injection library not built: skipped"; exit 77; fi
fail() { echo "FAIL: $*"; exit 1; }
$T record --triton -o "$W/t.h5" --tsv "$W/t.tsv" -- python3 "$SRC/bench/record-triton.py" --configs tiny \
  --shape 512x512x512 --shape 1024x1024x1024 --json "$W/triton.json" || fail "tunecost record exited $?"
$T info "$W/t.h5" >"$W/info.txt" || fail "info cannot read the trace"
grep -q "^inputs  *2 " "$W/info.txt" || fail "expected 2 inputs: $(grep ^inputs "$W/info.txt")"
grep -q "^configurations  *4: 3 valid, 1 out of resources" "$W/info.txt" \
  || fail "expected 4 configurations, 3 valid: $(grep ^configurations "$W/info.txt")"
python3 - "$W/t.tsv" <<'PY' || fail "runs not classified as do_bench issues them"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
assert len(rows) == 8, len(rows)
for r in rows:
    big = "BLOCK_M=256," in r["config_label"]
    assert (r["status"] == "out of resources") == big, r
    if not big:
        assert int(r["n_estimate"]) == 6 and int(r["n_warmup"]) >= 1 and int(r["n_timed"]) >= 1, r
PY
python3 "$SRC/bench/record-compare.py" "$W/t.tsv" "$W/triton.json" --tol-pct 10 || fail "best configurations differ"
echo "ok"
