#!/usr/bin/env bash
# test-record-helion-gpu.sh — on a GPU machine with Helion 1.4.0: a quick Helion autotune (matmul 256x256x256,
# PatternSearch, quick effort) recorded with `tunecost record --helion`, its labelled configurations, times (2%,
# the event view) and best configuration checked against Helion's own CSV (record/helion-compare.py), and the CSV
# imported and replayed by the pattern and lfbo policies. Exits 77 without a GPU, torch, Triton, Helion 1.4.0 or the
# injection library.
# usage: test-record-helion-gpu.sh TUNECOST SOURCE_ROOT
set -u
TC=$(realpath "${1:?usage: test-record-helion-gpu.sh TUNECOST SOURCE_ROOT}")
SRC=$(realpath "${2:?usage: test-record-helion-gpu.sh TUNECOST SOURCE_ROOT}")
PY=${PYTHON:-python3}
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no GPU"; exit 77; }
"$PY" -c 'import torch, triton, helion, importlib.metadata as m; assert torch.cuda.is_available();
assert m.version("helion") == "1.4.0"' 2>/dev/null || { echo "SKIP: needs torch with CUDA, Triton, helion 1.4.0"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-helion-gpu.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
HELION_AUTOTUNE_EFFORT=quick HELION_AUTOTUNER=PatternSearch HELION_AUTOTUNE_LOG="$TMP/h" HELION_SKIP_CACHE=1 \
    HELION_AUTOTUNE_RANDOM_SEED=0 "$TC" record --helion --tsv r.tsv -o r.h5 -- "$PY" \
    "$SRC/record/helion-autotune.py" --kernel matmul --shape 256x256x256 >log.txt 2>&1
rc=$?
if grep -q "injection library libtcrecord.so was not built" log.txt; then echo "SKIP: no injection library"; exit 77; fi
[ "$rc" = 0 ] || { echo "FAIL: record exited $rc"; tail -20 log.txt; exit 1; }
grep '^time:' log.txt
"$PY" "$SRC/record/helion-compare.py" r.tsv h.csv || { echo "FAIL: the recording disagrees with Helion's CSV"; exit 1; }
"$TC" import helion h.csv -o i.h5 && "$TC" policies i.h5 --policies pattern,lfbo -r 3 -o pol --no-figures -q ||
    { echo "FAIL: import or replay"; exit 1; }
echo "ok   recorded Helion session agrees with its CSV; imported and replayed"
