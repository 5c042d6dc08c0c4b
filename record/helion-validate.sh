#!/usr/bin/env bash
# helion-validate.sh — `tunecost record --helion` against Helion 1.4.0's own telemetry on a GPU machine
# (docs/record.md, "Helion"). For matmul, softmax and layer norm (record/helion-autotune.py), each with Helion's
# default search (LFBOTreeSearch) and with PatternSearch at quick effort: the session is recorded with --helion
# while Helion writes its CSV (HELION_AUTOTUNE_LOG), record/helion-compare.py checks the same configurations, each
# time within 2% (the event view) and the same best; the CSV is imported (tunecost import helion) and replayed by
# the pattern and lfbo policies. Then matmul once at full effort (cut at 540 s), and the recorder's cost: the quick
# matmul session run plain and recorded in this one call (A/B, Helion's own autotuning wall time).
#
# usage: bash record/helion-validate.sh OUTDIR [TUNECOST]     (from the source tree, after meson setup/ninja)
#        HELION_VALIDATE_ONLY="matmul-lfbo-quick softmax-pattern-quick ab" bash record/helion-validate.sh ...
#        runs only the named sessions (names as above; "ab" the recorder's-cost pair), for a short GPU lease
# exit: 0 every comparison passed; 1 one failed (OUTDIR/*.compare say which); 77 no GPU, torch, Triton, Helion
# 1.4.0 or injection library.
set -u
OUT=${1:?usage: helion-validate.sh OUTDIR [TUNECOST]}
TC=$(realpath "${2:-build/tunecost}")
SRC=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-python3}
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no GPU"; exit 77; }
"$PY" -c 'import torch, triton, helion, importlib.metadata as m; assert torch.cuda.is_available();
assert m.version("helion") == "1.4.0", m.version("helion")' 2>/dev/null ||
    { echo "SKIP: $PY needs torch with CUDA, Triton and helion 1.4.0"; exit 77; }
"$TC" record --help >/dev/null 2>&1 || { echo "SKIP: $TC has no record command"; exit 77; }
mkdir -p "$OUT" && OUT=$(realpath "$OUT")
fails=0
ONLY=${HELION_VALIDATE_ONLY:-}
wanted() { [ -z "$ONLY" ] || [[ " $ONLY " == *" $1 "* ]]; }
run() { # run NAME KERNEL SEARCH EFFORT [TIMEOUT]: one recorded session, compared and replayed
    local name=$1 kernel=$2 search=$3 effort=$4 limit=${5:-540} base="$OUT/$1"
    wanted "$name" || return 0
    local -a env=(HELION_AUTOTUNE_EFFORT="$effort" HELION_AUTOTUNE_LOG="$base" HELION_SKIP_CACHE=1
                  HELION_AUTOTUNE_RANDOM_SEED=0)
    [ "$search" = default ] || env+=(HELION_AUTOTUNER="$search")
    local -a flops=()
    [ "$kernel" = matmul ] && flops=(--flops '2*arg0_d0*arg0_d1*arg1_d1') # x is M x K, y is K x N
    rm -rf "$base".*
    echo "== $name: $kernel, search $search, effort $effort ($(date -u +%H:%M:%S))"
    env "${env[@]}" timeout "$limit" "$TC" record --helion "${flops[@]}" --spool "$base.spool" --tsv "$base.tsv" -o "$base.h5" -f \
        -- "$PY" "$SRC/record/helion-autotune.py" --kernel "$kernel" --json "$base.json" >"$base.log" 2>&1
    echo "   record exit $? ($(grep -c . "$base.csv" 2>/dev/null) CSV lines)"; grep '^time:\|^  process' "$base.log"
    if "$PY" "$SRC/record/helion-compare.py" "$base.tsv" "$base.csv" >"$base.compare" 2>&1; then
        echo "   compare: ok"
    else
        echo "   compare: FAILED"; fails=$((fails + 1))
    fi
    sed 's/^/   /' "$base.compare"
    "$TC" import helion "$base.csv" --kernel "$kernel" -o "$base-imported.h5" -f >"$base.import" 2>&1 &&
        "$TC" policies "$base-imported.h5" --policies random,pattern,lfbo -r 10 -o "$base-pol" -f --no-figures \
            >"$base.policies" 2>&1 || { echo "   import/replay FAILED"; fails=$((fails + 1)); }
}
for k in matmul softmax layer_norm; do
    run "$k-lfbo-quick" "$k" default quick
    run "$k-pattern-quick" "$k" PatternSearch quick
done
run matmul-lfbo-full matmul default full 540
# the recorder's cost: the same quick session plain, then recorded (Helion's own autotuning wall time)
wanted ab && for mode in plain recorded; do
    base="$OUT/ab-$mode"
    if [ "$mode" = plain ]; then
        HELION_AUTOTUNE_EFFORT=quick HELION_SKIP_CACHE=1 HELION_AUTOTUNE_RANDOM_SEED=0 \
            "$PY" "$SRC/record/helion-autotune.py" --kernel matmul --json "$base.json" >"$base.log" 2>&1
    else
        HELION_AUTOTUNE_EFFORT=quick HELION_SKIP_CACHE=1 HELION_AUTOTUNE_RANDOM_SEED=0 \
            "$TC" record --helion -o "$base.h5" -f -- "$PY" "$SRC/record/helion-autotune.py" --kernel matmul \
            --json "$base.json" >"$base.log" 2>&1
    fi
done
wanted ab && "$PY" - "$OUT/ab-plain.json" "$OUT/ab-recorded.json" <<'PYEOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
print("A/B: autotuning wall plain %.2f s, recorded %.2f s: %+.1f%%" % (
    a["autotune_wall_s"], b["autotune_wall_s"], 100 * (b["autotune_wall_s"] / a["autotune_wall_s"] - 1)))
PYEOF
echo "$fails comparison(s) failed; outputs in $OUT"
[ "$fails" = 0 ]
