#!/bin/bash
# data/collect-isolated.sh — isolated (1-worker) NVRTC compile times of every configuration of the full space, on
# a host with many cores, without a GPU run: the 576 configurations are split into 16 parts by BLOCK_M x BLOCK_N
# (36 each), and the 16 parts are compiled at once, each by one worker (`tunecost collect --compile-only --jobs 1
# --compile-isolated`), so each compile has one core but shares the host's memory bandwidth and caches with 15
# others. How near that is to a truly isolated compile is measured on a sample: one part (BLOCK_M=64, BLOCK_N=64,
# NUM_WARPS=4: 12 configurations) compiled again alone afterwards.
# usage: bash data/collect-isolated.sh OUTDIR [TUNECOST]     writes OUTDIR/iso-BMxBN.tsv, OUTDIR/alone-64x64.tsv
set -uo pipefail
OUT=$1; T=${2:-build-dev/tunecost}
mkdir -p "$OUT"
t0=$SECONDS
for bm in 32 64 128 256; do for bn in 32 64 128 256; do
  "$T" collect --compile-only --space full --param BLOCK_M=$bm --param BLOCK_N=$bn --jobs 1 --compile-isolated \
    --configs-tsv "$OUT/iso-${bm}x${bn}.tsv" -o "$OUT/iso-wall-${bm}x${bn}.tsv" -f >"$OUT/iso-${bm}x${bn}.log" 2>&1 &
done; done
wait
echo "16 single-worker parts at once: $((SECONDS - t0)) s"
t1=$SECONDS
"$T" collect --compile-only --space full --param BLOCK_M=64 --param BLOCK_N=64 --param NUM_WARPS=4 --jobs 1 \
  --compile-isolated --configs-tsv "$OUT/alone-64x64.tsv" -o "$OUT/alone-wall-64x64.tsv" -f >"$OUT/alone-64x64.log" 2>&1
echo "the sample alone: $((SECONDS - t1)) s"
