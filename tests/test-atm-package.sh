#!/usr/bin/env bash
# test-atm-package.sh — `policies --score atm` against the autotuning_methodology package 1.1.0 (installed into a
# venv under the build directory) scoring with its own parts: three inputs of the reference trace exported as
# Kernel Tuner caches and imported as one trace, replayed by tunecost as Kernel Tuner's simulation mode charges it
# (--costs source: a first visit costs what the cache recorded), with every run's steps written as T4 results
# (--runs-log t4); each input of the imported trace exported as T4 for the package's search-space statistics.
# tests/atm-package.py checks the frame and that the runs logs hold what tunecost scored, and measures the package's
# score against tunecost's, split into its parts (baseline, range, curve).
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
INPUTS="256x256x256 1024x1024x1024 4096x4096x4096"
caches=()
for i in $INPUTS; do
    T export kerneltuner "$REF" -i $i -o kt-$i.json -q || { echo "FAIL export $i"; exit 1; }
    caches+=("kt-$i.json")
done
T import kerneltuner "${caches[@]}" -o three.h5 -q 2>/dev/null >/dev/null || { echo "FAIL import"; exit 1; }
for i in $INPUTS; do
    T export t4 three.h5 -i $i -o t4-$i.json -q || { echo "FAIL export t4 $i"; exit 1; }
done
T policies three.h5 -p random,bo-ei,genetic -r 30 --seed 2 --costs source --atm-curves --runs-log t4 --no-figures \
    -o pol -q || { echo "FAIL policies"; exit 1; }
# the runs log: one file per policy, input and run
n=$(find pol/runs -name 'run-*.json' | wc -l)
[ "$n" = 270 ] || { echo "FAIL runs log: $n files, expected 3 policies x 3 inputs x 30 runs = 270"; exit 1; }
"$PY" "$HERE/atm-package.py" pol . 2> >(grep -v -i warn >&2)
