#!/bin/bash
# record/device-record.sh — `tunecost record`'s runs on a GPU machine (docs/record.md, "Validation"): builds
# build-dev/tunecost and libtcrecord (collect/device.sh), then
#   smoke     the gpu-suite test (a tiny Triton autotune recorded) and the same script recorded without labels
#   validate  the smoke test, then Triton's autotuner over the paper's 100 configurations on 4 inputs, cold Triton cache, recorded with
#             --triton; compared with what Triton reports (bench/record-compare.py)
#   ab        the recorder's own cost: the same run with a warm Triton cache, alternately plain and recorded
# Logs, traces and tables go to OUT (default $OUT); a short table is printed last.
# usage: bash record/device-record.sh smoke|validate|ab [OUT]
set -uo pipefail
cd "$(dirname "$0")/.."
what=$1
O=${2:-$OUT}
mkdir -p "$O"
export PYTHONUNBUFFERED=1 TRITON_CACHE_DIR=$PWD/.triton-cache
SHAPES=(--shape 4096x4096x4096 --shape 4096x256x4096 --shape 1024x1024x1024 --shape 512x512x4096)
t0=$SECONDS
bash collect/device.sh build-dev >"$O/build.log" 2>&1 || { tail -30 "$O/build.log"; exit 1; }
. collect/device-env.sh
ninja -C build-dev record/libtcrecord.so >>"$O/build.log" 2>&1 || { tail -30 "$O/build.log"; exit 1; }
T=build-dev/tunecost
echo "built in $((SECONDS - t0)) s; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'

smoke() {
  bash tests/test-record-gpu.sh "$T" "$PWD" /tmp/gpu-test 2>&1 | grep -v "^Autotuning"
  local rc=${PIPESTATUS[0]}
  echo "gpu test: rc $rc"
  [ "$what" = smoke ] || return "$rc"
  $T record -o /tmp/unlabelled.h5 -f --tsv /tmp/unlabelled.tsv -- python3 bench/record-triton.py --configs tiny \
    --shape 512x512x512 --shape 1024x1024x1024 2>&1 | tail -4
  head -4 /tmp/unlabelled.tsv | cut -f1-10
  return "$rc"
}

case $what in
smoke)
  smoke
  ;;
validate)
  smoke || echo "the smoke test failed: recording anyway (the spool files come back for --from-spool)"
  $T record --triton --spool /tmp/spool -o "$O/recorded.h5" --tsv "$O/recorded.tsv" -- timeout "${VALIDATE_S:-430}" \
    python3 bench/record-triton.py --configs bench/record-configs-paper.tsv "${SHAPES[@]}" --json "$O/triton.json" \
    2>&1 | grep -v "^Autotuning\|^\s*$" | tail -12
  tar -C /tmp -czf - spool | split -b 15M - "$O/spool.tgz."   # files back from \$OUT: 16 MB at most each
  rm -f "$O/build.log"
  $T info "$O/recorded.h5" | head -30
  python3 bench/record-compare.py "$O/recorded.tsv" "$O/triton.json" --tol-pct 2 --out "$O/compare.tsv"
  ;;
ab)
  python3 bench/record-triton.py --configs bench/record-configs-paper.tsv --shape 64x64x64 --precompile 16
  # one untimed warm run (Triton's cache, the autotuner's first compile in this process), then plain and
  # recorded runs alternately
  python3 bench/record-triton.py --configs bench/record-configs-paper.tsv "${SHAPES[@]}" >/dev/null 2>&1
  : >"$O/ab.tsv"
  for i in 1 2 3; do
    for mode in plain recorded; do
      s=$(date +%s%N)
      if [ $mode = plain ]; then
        python3 bench/record-triton.py --configs bench/record-configs-paper.tsv "${SHAPES[@]}" \
          --json "$O/ab-$mode-$i.json" >/dev/null 2>&1
      else
        $T record --triton -o "$O/ab-$i.h5" -f --tsv "$O/ab-$i.tsv" -- python3 bench/record-triton.py \
          --configs bench/record-configs-paper.tsv "${SHAPES[@]}" --json "$O/ab-$mode-$i.json" >"$O/ab-rec-$i.log" 2>&1
      fi
      e=$(date +%s%N)
      printf '%s\t%d\t%d\t%s\n' $mode $i $(( (e - s) / 1000000 )) \
        "$(python3 -c "import json;print('%.3f'%json.load(open('$O/ab-$mode-$i.json'))['total_s'])")" >>"$O/ab.tsv"
    done
  done
  echo -e "mode\trun\twall_ms\tautotune_s (in the script)"; cat "$O/ab.tsv"
  cat "$O/ab-rec-1.log" | tail -3
  ;;
esac
echo "done in $((SECONDS - t0)) s"
