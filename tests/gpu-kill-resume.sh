#!/bin/bash
# tests/gpu-kill-resume.sh — on a GPU workstation: SIGKILL `collect` at five random points,
# `--resume` after each, and compare the final trace with an uninterrupted collection of the same settings:
# the same (input, configuration) pairs with the same statuses, none lost, none twice. Exit 77 without a GPU.
# usage: bash tests/gpu-kill-resume.sh TUNECOST WORKDIR
set -uo pipefail
T=$1; W=$2; mkdir -p "$W"
nvidia-smi >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
args=(--configs 24 --seed 7 --shape 256x256x256 --shape 512x1024x256 --shape 1024x1024x1024 --warmup-ms 5
      --rep-ms 20 --flush-bytes 0 --jobs 8 -q)
rm -f "$W/whole.h5"   # an earlier run's, in the same build directory
"$T" collect "${args[@]}" -o "$W/whole.h5" || exit 1
rm -f "$W/killed.h5"
RANDOM=42
for k in 1 2 3 4 5; do
  delay=$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 1.0 + 3.0 * r / 32767 }')
  if [ -f "$W/killed.h5" ]; then mode=(--resume); else mode=(); fi
  "$T" collect "${args[@]}" "${mode[@]}" -o "$W/killed.h5" & pid=$!
  sleep "$delay"; kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  echo "kill $k after ${delay} s"
done
"$T" collect "${args[@]}" --resume -o "$W/killed.h5" || exit 1
pairs() { python3 - "$1" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    r = f["runs"][:]
    rows = sorted((int(a), int(b), int(s)) for a, b, s in zip(r["input"], r["config"], r["status"]))
    print(len(rows), len(set((a, b) for a, b, _ in rows)))
    for row in rows: print(*row)
PY
}
pairs "$W/whole.h5" >"$W/whole.txt"; pairs "$W/killed.h5" >"$W/killed.txt"
if diff -q "$W/whole.txt" "$W/killed.txt" >/dev/null; then
  echo "PASS: $(head -1 "$W/whole.txt" | cut -d' ' -f1) runs, identical pairs and statuses after 5 kills"; exit 0
fi
echo "FAIL: pairs differ"; diff "$W/whole.txt" "$W/killed.txt" | head; exit 1
