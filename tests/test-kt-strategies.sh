#!/usr/bin/env bash
# test-kt-strategies.sh — tunecost's policies under Kernel Tuner's names against Kernel Tuner 1.5's strategies
# themselves (PyPI kernel_tuner, in the venv the other peer tests use): on three published brute-forced spaces (the
# shipped traces' inputs, exported as Kernel Tuner caches with every cost recorded), Kernel Tuner runs each strategy
# in simulation mode and tunecost replays the imported cache with the same charged costs (--costs source: compile +
# verification + benchmark time per first visit). Every pair's score CIs must overlap and the rank correlation of
# the two tools' scores over every (space, strategy) pair must be at least 0.9, or at least what two identical
# strategies reach with the measured CIs (at 10 runs 0.9 is out of noise's reach; tests/kt-strategies.py says how).
# The table it prints is the one in docs/simulation.md.
#
# Usage: test-kt-strategies.sh TUNECOST DATA_DIR VENV_DIR
# Environment: KT_STRAT_RUNS (10), KT_STRAT_BUDGET_S (60), KT_STRAT_LIST (the strategies compared).
# Exit: 0 pass, 1 fail, 77 skipped (no network for pip, no venv, import not built, a shipped trace missing).
set -u
TUNECOST=$(realpath "${1:?usage: test-kt-strategies.sh TUNECOST DATA_DIR VENV_DIR}")
DATA=$(realpath "${2:?usage}")
VENV=${3:?usage}
HERE=$(dirname "$(realpath "$0")")
RUNS=${KT_STRAT_RUNS:-10}
BUDGET=${KT_STRAT_BUDGET_S:-60}
LIST=${KT_STRAT_LIST:-random_sample,brute_force,genetic_algorithm,simulated_annealing,greedy_ils,mls,diff_evo,pso,firefly_algorithm,basinhopping,dual_annealing,bayes_opt}
"$TUNECOST" import --help >/dev/null 2>&1 || { echo "SKIP: tunecost import is not built (json-c missing)"; exit 77; }
for f in gemm-h100-full.h5 gemm-h200.h5 gemm-h200-mmasync.h5; do
    [ -r "$DATA/$f" ] || { echo "SKIP: $DATA/$f is not shipped"; exit 77; }
done
PY=$("$HERE/pyvenv.sh" "$VENV" kernel_tuner==1.5.0 autotuning_methodology==1.1.0); rc=$?
[ $rc = 0 ] || exit "$rc"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-ktstrat.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
T() { "$TUNECOST" "$@"; }
spaces=()
# name trace input: export the input as a Kernel Tuner cache, import it, replay tunecost's policies on it
space() {
    T export kerneltuner "$DATA/$2" -i "$3" -o "$1.json" -q &&
        T import kerneltuner "$1.json" -o "$1.h5" -q >/dev/null &&
        T policies "$1.h5" -p "$LIST" -r "$RUNS" --seed 1 --budget-s "$BUDGET" --no-figures -o "$1" -q ||
        { echo "FAIL tunecost on $1"; exit 1; }
    spaces+=("$1=$1.json=$1/curves.tsv")
}
space h100-1024x4096x4096 gemm-h100-full.h5 1024x4096x4096
space h200-4096x256x4096 gemm-h200.h5 4096x256x4096
space h200mma-1024x1024x1024 gemm-h200-mmasync.h5 1024x1024x1024
"$PY" "$HERE/kt-strategies.py" "$RUNS" "$BUDGET" table.tsv "$LIST" "${spaces[@]}"
