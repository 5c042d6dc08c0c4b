#!/bin/bash
# collect/measure.sh — the collector's measurements for docs/performance.md, on the GPU machine.
# usage: bash collect/measure.sh OUTDIR [e2e|timer|shapes|search|scaling|gpu-tests]...
set -uo pipefail
cd "$(dirname "$0")/.."
O=$1; shift
. collect/device-env.sh
T=./build-dev/tunecost
for what in "$@"; do
  case $what in
  gpu-tests)
    ninja -C build-dev tests/test-collect-gpu >/dev/null && meson test -C build-dev --no-rebuild --suite gpu \
      --print-errorlogs >"$O/gpu-tests.log" 2>&1; cp build-dev/meson-logs/testlog.txt "$O/gpu-testlog.txt"
    grep -E "^ *[0-9]+/[0-9]+ |^Ok|^Fail|^Skip" "$O/gpu-tests.log" ;;
  e2e)   # end-to-end cost: one input, the paper's 100 configurations, no flush; twice; start-up phases logged
    for rep in 1 2; do
      TC_TIMING=1 /usr/bin/time -f "e2e process wall %e s" $T collect --shape 4096x4096x4096 --flush-bytes 0 \
        -o "$O/e2e-$rep.h5" >"$O/e2e-$rep.log" 2>&1
      grep -E "^timing|wall time|process wall|^4096" "$O/e2e-$rep.log"
    done ;;
  timer) # CUPTI vs CUDA events on the same executions
    TC_TIMER_CHECK=1 $T collect --configs 30 --shape 4096x4096x4096 --shape 1024x1024x1024 --shape 256x256x256 \
      -q -o "$O/timer.h5" >"$O/timer-full.log" 2>&1; grep "timer check" "$O/timer-full.log" >"$O/timer.log"
    awk '{r=$NF; n++; s+=r; if(n==1||r<mn)mn=r; if(n==1||r>mx)mx=r; d=(r>1?r-1:1-r); if(d>md)md=d}
         END {printf "timer check: %d runs, events/CUPTI mean %.4f min %.4f max %.4f, max |dev| %.2f%%\n", n, s/n, mn, mx, 100*md}' \
      "$O/timer.log" | tee -a "$O/timer.log" ;;
  shapes) # best of the paper's 100 configurations vs cuBLAS
    printf '%s\n' 4096x4096x4096 4096x256x4096 256x4096x4096 4096x4096x256 1024x1024x1024 512x512x512 \
      256x256x256 1024x4096x1024 >/tmp/shapes.txt
    $T collect --shapes-file /tmp/shapes.txt --flush-bytes 0 -o "$O/shapes.h5" >"$O/shapes.log" 2>&1
    tail -14 "$O/shapes.log" ;;
  search) # kernel quality: the best of a 216-configuration search at 4096^3 vs cuBLAS, the default protocol
    $T collect --space full --param BLOCK_M=64,128,256 --param BLOCK_N=64,128,256 --param BLOCK_K=32,64,128 \
      --param NUM_WARPS=4,8 --param NUM_STAGES=3,4 --flush-bytes 0 --shape 4096x4096x4096 -o "$O/search.h5" \
      >"$O/search.log" 2>&1
    tail -5 "$O/search.log" ;;
  scaling) # compile scaling: the paper's 100-configuration sample with 1..16 workers; the full space with 16
    $T collect --compile-only --jobs 16,8,4,2,1 -o "$O/scaling-100.tsv" --configs-tsv "$O/configs-100.tsv" 2>&1 | tail -8
    $T collect --compile-only --space full --jobs 16 -o "$O/scaling-full16.tsv" --configs-tsv "$O/configs-full.tsv" 2>&1 | tail -4 ;;
  esac
done
