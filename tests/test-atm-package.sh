#!/usr/bin/env bash
# test-atm-package.sh — `policies --score atm` against the autotuning_methodology package 1.1.0 (installed into a
# venv under the build directory) on the same exported data: three inputs of the reference trace exported as
# Kernel Tuner caches, imported as one trace and replayed by tunecost (every timed execution taken, so a visit costs
# compile + benchmark time: the package's time keys "compilation" and "benchmark"), and exported as T4 files for the
# package. tests/atm-package.py checks the frame (optimum, median, cutoff, time per evaluation) and the score (the
# package's standardisation and aggregation of tunecost's curves) and prints each documented deviation, measured.
#
# Usage: test-atm-package.sh TUNECOST REFERENCE_TRACE VENV_DIR
# Exit: 0 pass, 1 fail, 77 skipped (no network for pip, no venv, import not built).
set -u
TUNECOST=$(realpath "${1:?usage: test-atm-package.sh TUNECOST TRACE VENV_DIR}")
REF=$(realpath "${2:?usage}")
VENV=${3:?usage}
HERE=$(dirname "$(realpath "$0")")
"$TUNECOST" import --help >/dev/null 2>&1 || { echo "SKIP: tunecost import is not built (json-c missing)"; exit 77; }
PY=$("$HERE/pyvenv.sh" "$VENV" kernel_tuner==1.5.0 autotuning_methodology==1.1.0); rc=$?
[ $rc = 0 ] || exit "$rc"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-atmpkg.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
T() { "$TUNECOST" "$@"; }
caches=() t4s=()
for i in 256x256x256 1024x1024x1024 4096x4096x4096; do
    T export kerneltuner "$REF" -i $i -o kt-$i.json -q && T export t4 "$REF" -i $i -o t4-$i.json -q ||
        { echo "FAIL export $i"; exit 1; }
    caches+=("kt-$i.json")
    t4s+=("t4-$i.json")
done
T import kerneltuner "${caches[@]}" -o three.h5 -q >/dev/null || { echo "FAIL import"; exit 1; }
T policies three.h5 -p random,bo-ei,genetic -r 30 --seed 2 --rep-ms 100000 --failed-cost none --costs replay --atm-curves -o pol -q ||
    { echo "FAIL policies"; exit 1; }
"$PY" "$HERE/atm-package.py" pol "${t4s[@]}" 2> >(grep -v -i warn >&2)
