#!/bin/bash
# record/device-record.sh — `tunecost record`'s runs on a GPU machine (docs/record.md, "Validation"): builds
# build-dev/tunecost and libtcrecord (collect/device.sh), then
#   smoke     the gpu-suite test (a tiny Triton autotune recorded) and the same script recorded without labels
#   validate  the smoke test, then Triton's autotuner over the paper's 100 configurations on 4 inputs, cold Triton cache, recorded with
#             --triton; compared with what Triton reports (bench/record-compare.py)
#   ab        the smoke test, Triton's cache filled, then the recorder's own cost: the validate run with a warm
#             cache, alternately plain and recorded (each recorded run compared with Triton's report), and
#             tunecost's `collect --protocol triton` imitation of the same inputs and configurations
#   full      one call for everything else (docs/record.md, "torch.compile" and "Per-configuration times"): Triton's
#             cache filled in the background while the gpu-suite test (meson test record-gpu) runs and
#             torch.compile(mode="max-autotune") of the small MLP and of the transformer stack is recorded
#             (record/validate-torch.py, no labels, cold Inductor caches); then the validate run recorded once with
#             the final code (spool kept), compared with Triton's report in both views (kernel and CUDA-event
#             interval); the MLP again with Inductor's benchmarking in a subprocess if time is left. Results in
#             OUT/results.tgz, spool files in OUT/spool-*.tgz*.
#   torch-ab  the recorder's effect on Inductor: validate-torch.py for the MLP and the transformer, plain and then
#             recorded (each with a cold Inductor cache of its own); what Inductor measured and picked in each
#             (its JSON), and the recorded runs against it (torch-compare.py). Results in OUT/torch-ab.tgz.
# Logs, traces and tables go to OUT (default $OUT); a short table is printed last.
# usage: bash record/device-record.sh smoke|validate|ab|full|torch-ab [OUT]
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
  [ "$what" != validate ] || return "$rc"
  $T record -o /tmp/unlabelled.h5 -f --tsv /tmp/unlabelled.tsv -- python3 bench/record-triton.py --configs tiny \
    --shape 512x512x512 --shape 1024x1024x1024 2>&1 | tail -4
  head -4 /tmp/unlabelled.tsv | cut -f1-10
  return "$rc"
}

# torch_run NAME TIMEOUT_S ARGS...: record validate-torch.py with a cold Inductor cache of its own
torch_run() {
  local name=$1 to=$2; shift 2
  (( to >= 30 )) || { echo "$name: no time left"; return; }
  local t1=$SECONDS
  env -u TRITON_CACHE_DIR TORCHINDUCTOR_CACHE_DIR=/tmp/inductor-$name $T record --spool /tmp/spool-$name \
    -o "$R/$name.h5" --tsv "$R/$name.tsv" -- timeout "$to" python3 record/validate-torch.py "$@" \
    --json "$R/$name.json" >"$R/$name.log" 2>&1
  echo "$name: rc $? in $((SECONDS - t1)) s"; grep -v "^ " "$R/$name.log" | grep -E "^(mlp|transformer|recorded|reconstructed|time)|AUTOTUNE.*takes|Error" | tail -12
}

case $what in
torch-ab)
  R=/tmp/results; mkdir -p $R
  for m in mlp transformer; do
    t1=$SECONDS
    env -u TRITON_CACHE_DIR TORCHINDUCTOR_CACHE_DIR=/tmp/inductor-$m-plain timeout 150 python3 \
      record/validate-torch.py --model $m --json "$R/$m-plain.json" >"$R/$m-plain.log" 2>&1
    echo "$m plain: rc $? in $((SECONDS - t1)) s"; grep "^$m:" "$R/$m-plain.log"
    torch_run $m-rec 150 --model $m
    python3 record/torch-compare.py "$R/$m-rec.tsv" "$R/$m-rec.json" --out "$R/$m-rec-compare.tsv"
  done
  python3 - "$R" <<'PY'
import json, sys
r = sys.argv[1]
for m in ("mlp", "transformer"):
    for mode in ("plain", "rec"):
        j = json.load(open("%s/%s-%s.json" % (r, m, mode)))
        picks = []
        for d in j["decisions"]:
            ch = [c for c in d.get("choices", []) if c["ms"] != float("inf")]
            p = min(ch, key=lambda c: c["ms"])
            tri = sorted(c["ms"] * 1e3 for c in ch if c["name"].startswith("triton_mm"))
            ext = sorted(c["ms"] * 1e3 for c in ch if not c["name"].startswith("triton_"))
            picks.append("%s %.1f (triton %.1f-%.1f, extern %s)" % (p["name"], p["ms"] * 1e3, tri[0], tri[-1],
                                                                 "/".join("%.1f" % e for e in ext)))
        print("%-11s %-5s first call %5.1f s, forward %.4f ms: %s" % (m, mode, j["first_call_s"], j["compiled_ms"],
                                                                       "; ".join(picks[:4])))
PY
  tar -C /tmp -czf "$O/torch-ab.tgz" results
  ;;
full)
  R=/tmp/results; mkdir -p $R
  python3 bench/record-triton.py --configs bench/record-configs-paper.tsv --shape 64x64x64 --precompile 16 \
    >/tmp/precompile.log 2>&1 &
  pre=$!
  meson test -C build-dev --no-rebuild record-gpu --print-errorlogs >$R/gpu-test.log 2>&1
  echo "meson test record-gpu: rc $?"; grep -E "record-gpu|^ok|FAIL|best conf|compile:" $R/gpu-test.log | tail -6
  cp build-dev/meson-logs/testlog.txt $R/gpu-testlog.txt 2>/dev/null
  if ! grep -q "record-gpu" $R/gpu-test.log; then   # meson could not run it: the script itself
    bash tests/test-record-gpu.sh "$T" "$PWD" /tmp/gpu-test >>$R/gpu-test.log 2>&1; echo "test-record-gpu.sh: rc $?"
  fi
  torch_run mlp 150 --model mlp
  torch_run transformer 240 --model transformer
  while kill -0 $pre 2>/dev/null && (( SECONDS < ${PRECOMPILE_UNTIL_S:-420} )); do sleep 2; done
  kill $pre 2>/dev/null && echo "precompile killed at $SECONDS s"
  cat /tmp/precompile.log | tail -2; echo "triton recording starts at $SECONDS s"
  to=$(( 575 - SECONDS )); (( to < 200 )) || to=200
  $T record --triton --flops '2*M*N*K' --spool /tmp/spool-triton -o "$R/triton.h5" --tsv "$R/triton.tsv" -- \
    timeout $to python3 bench/record-triton.py --configs bench/record-configs-paper.tsv "${SHAPES[@]}" \
    --json "$R/triton.json" >"$R/triton.log" 2>&1
  echo "triton recording: rc $? at $SECONDS s"; grep -v "^Autotuning" "$R/triton.log" | tail -3
  python3 bench/record-compare.py "$R/triton.tsv" "$R/triton.json" --tol-pct 2 --out "$R/compare.tsv" \
    | tee "$R/compare.txt"
  torch_run mlp-subproc $(( ${FULL_END_S:-560} - SECONDS )) --model mlp --subproc
  tar -C /tmp -czf "$O/results.tgz" results
  tar -C /tmp -czf "$O/spool-torch.tgz" $(cd /tmp && ls -d spool-mlp* spool-transformer 2>/dev/null)
  tar -C /tmp -czf - spool-triton | split -b 15M - "$O/spool-triton.tgz."
  ls -la "$O"
  ;;
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
  # smoke test; Triton's cache filled in 16 processes; then plain and recorded runs alternately (warm cache), each
  # recorded run compared with what Triton reported in it; tunecost's --protocol triton imitation last
  smoke | tail -12
  t1=$SECONDS
  python3 bench/record-triton.py --configs bench/record-configs-paper.tsv --shape 64x64x64 --precompile 16
  echo "precompile: $((SECONDS - t1)) s"
  : >"$O/ab.tsv"
  for i in 1 2 3; do
    (( i < 3 || SECONDS < ${AB_THIRD_BEFORE_S:-380} )) || break
    for mode in plain recorded; do
      s=$(date +%s%N)
      if [ $mode = plain ]; then
        timeout 240 python3 bench/record-triton.py --configs bench/record-configs-paper.tsv "${SHAPES[@]}" \
          --json "/tmp/$mode-$i.json" >"/tmp/$mode-$i.log" 2>&1
      else
        $T record --triton -f -o "/tmp/$mode-$i.h5" --tsv "/tmp/$mode-$i.tsv" -- timeout 240 python3 bench/record-triton.py \
          --configs bench/record-configs-paper.tsv "${SHAPES[@]}" --json "/tmp/$mode-$i.json" >"/tmp/$mode-$i.log" 2>&1
      fi
      e=$(date +%s%N)
      printf '%s\t%d\t%d\t%s\n' $mode $i $(( (e - s) / 1000000 )) \
        "$(python3 -c "import json;print('%.3f'%json.load(open('/tmp/$mode-$i.json'))['total_s'])")" >>"$O/ab.tsv"
    done
    grep -v "^Autotuning" "/tmp/recorded-$i.log" | tail -3
    python3 bench/record-compare.py "/tmp/recorded-$i.tsv" "/tmp/recorded-$i.json" --tol-pct 2 \
      --out "/tmp/compare-$i.tsv"
  done
  cp /tmp/recorded-1.h5 "$O/recorded.h5"; cp /tmp/recorded-1.tsv "$O/recorded.tsv"
  cp /tmp/recorded-1.json "$O/triton.json"; cp /tmp/compare-1.tsv "$O/compare.tsv"
  if (( SECONDS < ${IMITATION_BEFORE_S:-470} )); then
    printf '%s\n' 4096x4096x4096 4096x256x4096 1024x1024x1024 512x512x4096 >/tmp/shapes.txt
    t1=$SECONDS
    $T collect --seed 0 --configs 100 --warmup-ms 25 --rep-ms 100 --timer cupti --jobs 16 --protocol triton \
      --flush-bytes 256M --shapes-file /tmp/shapes.txt -q -o "$O/imitation.h5" 2>/tmp/collect.log \
      && echo "imitation: $((SECONDS - t1)) s" || tail -3 /tmp/collect.log
  fi
  echo -e "mode\trun\twall_ms\tautotune_s (inside the script)"; cat "$O/ab.tsv"
  rm -f "$O/build.log"
  ;;
esac
echo "done in $((SECONDS - t0)) s"
