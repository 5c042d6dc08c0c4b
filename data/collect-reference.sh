#!/bin/bash
# data/collect-reference.sh — how the traces in data/ were collected, on a machine with one NVIDIA H200 and the
# CUDA toolkit (16 cores). The script builds build-dev/tunecost itself (collect/device.sh); GSL and check must be
# installed (libgsl-dev and check), or their Debian packages unpacked into .debs/root of the checkout, where
# collect/device-env.sh points PKG_CONFIG_PATH and the library paths at them.
# The reference trace: the paper's benchmark (64 inputs, 100 configurations sampled with seed 0, warm-up 25 ms,
# repetition 100 ms, fixed-time protocol, CUPTI timer), no L2 flush (docs/characterisation.md says why), in
# 8 shards of 8 inputs each, joined afterwards with `tunecost merge data/gemm-h200.h5 shard*.h5`. The default
# kernel family is the native one (wgmma on sm_90 where the configuration allows it); data/gemm-h200-mmasync.h5
# was collected the same way before that family existed (today: add --family mma-sync to `common`).
#
# usage: bash data/collect-reference.sh OUTDIR ref FIRST LAST [MAX_S]  # reference shards FIRST..LAST of 8
#        bash data/collect-reference.sh OUTDIR triton             # Triton-protocol trace, 8 inputs
#        bash data/collect-reference.sh OUTDIR flush              # L2 flush study: 4 inputs x {256M, l2, 0}
# OUTDIR must exist; the traces and the logs (log-WHAT.txt) are written there. With MAX_S, a shard is started
# only while it is likely to end within MAX_S seconds of the script's start (1.5 x the previous shard's time);
# without it (or 0) every shard FIRST..LAST runs. A shard of 8 inputs took 64-79 s of collection on the H200
# (the mma.sync reference's shards, data/collection-logs.txt).
# `ref` compiles every cost since issue 23: --compile-invalid (the 42 out-of-resources configurations are
# compiled too, so they have a real compile_ms) and --compile-isolated (every configuration compiled once more by
# one worker after the 16 have finished; the 8 shards share that pass, split by expected compile time). Estimated
# time per shard: the 16-worker pass over all 100 configurations ~20 s (data/compile-scaling/scaling-100.tsv:
# 19.96 s), then the shard's share of the 158 s 1-worker pass (configs-100.tsv; 15-27 s per shard with the split,
# recomputed from that file), both overlapping benchmarking (~75 s): ~80-95 s per shard, ~12 min for all 8. A
# shard file that exists is continued with --resume; a shard that ends leaves OUTDIR/ref-i-of-8.h5.done.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=$1; what=$2
max_s=${5:-0}
bash collect/device.sh build-dev || exit 1
. collect/device-env.sh   # GSL and check from .debs/root, if they were unpacked there
T=build-dev/tunecost
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv >>"$OUT/log-$what.txt" 2>&1
common=(--seed 0 --configs 100 --warmup-ms 25 --rep-ms 100 --timer cupti --jobs 16)
case $what in
ref)
  last_s=0
  for i in $(seq "$3" "$4"); do
    if (( max_s > 0 && SECONDS + last_s * 3 / 2 > max_s )); then echo "not starting shard $i: MAX_S ($max_s s) is near"; break; fi
    t0=$SECONDS
    f=$OUT/ref-$i-of-8.h5
    resume=(); [ -f "$f" ] && resume=(--resume)
    if $T collect "${common[@]}" --protocol fixed-time --flush-bytes 0 --compile-invalid --compile-isolated \
         --shard "$i/8" "${resume[@]}" -o "$f" 2>>"$OUT/log-ref.txt"; then
      touch "$f.done"
    else
      echo "shard $i failed or was cut (continue it: same command)"; tail -5 "$OUT/log-ref.txt"
    fi
    last_s=$((SECONDS - t0))
    echo "shard $i/8: ${last_s} s, $(du -h "$OUT/ref-$i-of-8.h5" | cut -f1)"
  done ;;
triton)
  printf '%s\n' 256x256x256 512x512x512 1024x1024x1024 4096x4096x4096 4096x256x4096 256x4096x4096 \
    1024x4096x1024 512x512x4096 >/tmp/triton-shapes.txt
  $T collect "${common[@]}" --protocol triton --flush-bytes 256M --shapes-file /tmp/triton-shapes.txt \
    -o "$OUT/gemm-h200-triton.h5" 2>>"$OUT/log-triton.txt"; echo "triton: $? in $SECONDS s" ;;
flush)
  printf '%s\n' 256x256x256 1024x1024x1024 4096x256x4096 4096x4096x4096 >/tmp/flush-shapes.txt
  for fb in 256M l2 0; do
    t0=$SECONDS
    $T collect "${common[@]}" --protocol fixed-time --flush-bytes "$fb" --shapes-file /tmp/flush-shapes.txt \
      -o "$OUT/flush-$fb.h5" 2>>"$OUT/log-flush.txt"
    echo "flush $fb: rc $? in $((SECONDS - t0)) s (collection wall time)"
  done ;;
esac
ls -la "$OUT"
