#!/bin/bash
# data/collect-fullspace.sh — the full 576-configuration space (`--space full`) on 16 of the paper's inputs, on
# whatever single GPU the machine has, with every cost in the trace: failed configurations compiled
# (--compile-invalid) and every configuration's 1-worker compile time (--compile-isolated; issue 23). Builds
# build-dev/tunecost itself (collect/device.sh), like data/collect-reference.sh.
#
# usage: bash data/collect-fullspace.sh OUTDIR FIRST LAST [MAX_S]   # shards FIRST..LAST of 4
# OUTDIR must exist; shard i goes to OUTDIR/full-i-of-4.h5, the log to OUTDIR/log-full.txt. A shard file that
# exists is continued with --resume (a shard cut by a time limit loses nothing that was written). With MAX_S, a
# shard is started only while it is likely to end within MAX_S seconds of the script's start (1.5 x the previous
# shard's time, 330 s for the first); without it (or 0) every shard FIRST..LAST runs. A shard that ends leaves
# OUTDIR/full-i-of-4.h5.done; once all 4 have ended the script joins them: OUTDIR/gemm-full.h5 (tunecost merge;
# each configuration's isolated compile time comes from the one shard that measured it).
#
# Inputs: M in {256, 512, 1024, 4096} x N in {512, 4096} x K in {512, 4096}; shard i/4 takes inputs j with
# j mod 4 = i - 1 (4 inputs each). Settings: fixed-time protocol, CUPTI timer, no L2 flush, seed 0, 16 compile
# workers, warm-up 10 ms, repetition 10 ms.
#
# Why 10/10 ms (size limit: the merged trace <= 6 MB). The shipped reference data/gemm-h200.h5 holds 46 838 735
# executions in 25 070 501 bytes: 0.535 bytes per execution compressed (measured with h5py, 2026-11-25). Its 16
# inputs above hold 7 205 445 executions over 928 valid pairs at 25 + 100 ms, 7 764 per pair. The full space has
# about 375 valid configurations of 576 (data/compile-scaling/configs-full.tsv: 375 ok, 201 out of resources), so
# 16 x 375 = 6 000 pairs x 7 764 x (W + R) / 125 ms executions: at W + R = 20 ms 7.45 M executions, ~4.0 MB, plus
# ~0.1 MB of /runs. 10/10 leaves ~30% headroom under 6 MB (the per-pair count assumes the full space's extra
# configurations are no faster than the sampled 58; slower ones make the trace smaller). 10 + 15 ms would be
# ~5.0 MB, too close. The trace then covers EXEC_TIME only up to 10 ms (longer samples are "short" runs).
#
# Why 4 shards, not 2: the isolated pass is one worker compiling all 576 configurations, 858 s on the H200 for the
# mma.sync kernels (configs-full.tsv, 74% of it the 201 out-of-resources ones; the native family's compiles were
# ~14% slower on the reference's 58 valid configurations: 34.8 s against 30.5 s). The shards share the pass, split
# by expected compile time; with that split the largest share of the 858 s is 443 s over 2 shards, 329 s over 3,
# 235 s over 4 (recomputed from configs-full.tsv). Each shard also compiles the whole space once with 16 workers
# (~51-54 s, scaling-full*.tsv) before its share of the isolated pass starts.
# Estimated time per shard (4 shards): 55-65 s contended compile + 200-270 s isolated share (x1.0-1.15) + start-up
# ~10 s = ~4.5-5.7 min; its benchmarking (4 inputs x ~375 configurations x ~25 ms, ~40 s) overlaps the compiles.
# Whole collection ~20 min of GPU-machine time. With 2 shards a shard would take ~8.5-9.5 min.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=$1; first=$2; last=$3
max_s=${4:-0}
N=4
bash collect/device.sh build-dev || exit 1
. collect/device-env.sh   # GSL and check from .debs/root, if they were unpacked there
T=build-dev/tunecost
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv >>"$OUT/log-full.txt" 2>&1
shapes=$OUT/full-shapes.txt
for m in 256 512 1024 4096; do
  for n in 512 4096; do for k in 512 4096; do echo "${m}x${n}x${k}"; done; done
done >"$shapes"
common=(--space full --seed 0 --warmup-ms 10 --rep-ms 10 --timer cupti --protocol fixed-time --flush-bytes 0
        --jobs 16 --compile-invalid --compile-isolated --shapes-file "$shapes")
last_s=220
for i in $(seq "$first" "$last"); do
  if (( max_s > 0 && SECONDS + last_s * 3 / 2 > max_s )); then
    echo "not starting shard $i: MAX_S ($max_s s) is near"; break
  fi
  f=$OUT/full-$i-of-$N.h5
  resume=(); [ -f "$f" ] && resume=(--resume)
  t0=$SECONDS
  if $T collect "${common[@]}" --shard "$i/$N" "${resume[@]}" -o "$f" 2>>"$OUT/log-full.txt"; then
    touch "$f.done"
  else
    echo "shard $i failed or was cut (continue it: same command)"; tail -5 "$OUT/log-full.txt"
  fi
  last_s=$((SECONDS - t0))
  echo "shard $i/$N: ${last_s} s, $(du -h "$f" | cut -f1)"
done
all=1; for i in $(seq 1 $N); do [ -f "$OUT/full-$i-of-$N.h5.done" ] || all=0; done
if (( all )); then
  $T merge -f "$OUT/gemm-full.h5" "$OUT"/full-*-of-$N.h5 && echo "merged: $(du -h "$OUT/gemm-full.h5" | cut -f1)"
fi
ls -la "$OUT"
