#!/usr/bin/env bash
# test-kt-strategies.sh — tunecost's policies under Kernel Tuner's names against Kernel Tuner 1.5's strategies
# themselves (PyPI kernel_tuner, in the venv the other peer tests use): on three published brute-forced spaces
# (Kernel Tuner caches from AutoTuningAssociation/benchmark_hub, shipped in data/published/: convolution on an A100
# and an RTX A4000, dedispersion on an A100), Kernel Tuner runs each strategy in simulation mode and tunecost
# replays the imported cache with the same charged costs (--costs source: compile + verification + benchmark time
# per first visit). Every pair's score CIs must overlap and the rank correlation of the two tools' scores over every
# (space, strategy) pair must be at least 0.9, or at least what two identical strategies reach with the measured
# CIs (tests/kt-strategies.py says how). The table it prints is the one in docs/simulation.md.
#
# Usage: test-kt-strategies.sh TUNECOST DATA_DIR VENV_DIR
# Environment: KT_STRAT_RUNS (10); KT_STRAT_BUDGET_S (each space's: 600 on the published, 60 on tunecost's own);
# KT_STRAT_LIST (the strategies compared); KT_STRAT_JOBS (1): (space, strategy) pairs of tunecost and Kernel Tuner's
# runs in that many processes (the table is the same for any number); KT_STRAT_OWN=1 adds three inputs of the shipped
# traces exported as Kernel Tuner caches (the spaces the comparison ran on before published ones shipped). pip reads
# PIP_FIND_LINKS / PIP_NO_INDEX itself (an offline wheel folder); TC_PYVENV_SYSTEM=1 lets the venv see the system's
# packages (tests/pyvenv.sh).
# Exit: 0 pass, 1 fail, 77 skipped (no network for pip, no venv, import not built, a shipped space missing).
set -u
TUNECOST=$(realpath "${1:?usage: test-kt-strategies.sh TUNECOST DATA_DIR VENV_DIR}")
DATA=$(realpath "${2:?usage}")
VENV=${3:?usage}
HERE=$(dirname "$(realpath "$0")")
RUNS=${KT_STRAT_RUNS:-10}
JOBS=${KT_STRAT_JOBS:-1}
LIST=${KT_STRAT_LIST:-random_sample,brute_force,genetic_algorithm,simulated_annealing,greedy_ils,mls,diff_evo,pso}
[ -n "${KT_STRAT_LIST:-}" ] || LIST=$LIST,firefly_algorithm,basinhopping,dual_annealing,bayes_opt
PUBLISHED="convolution-a100 convolution-a4000 dedispersion-a100"
case "$JOBS" in '' | *[!0-9]* | 0) echo "FAIL KT_STRAT_JOBS must be a positive integer, not '$JOBS'"; exit 1 ;; esac
"$TUNECOST" import --help >/dev/null 2>&1 || { echo "SKIP: tunecost import is not built (json-c missing)"; exit 77; }
for f in $PUBLISHED; do
    [ -r "$DATA/published/$f.json.gz" ] || { echo "SKIP: $DATA/published/$f.json.gz is not shipped"; exit 77; }
done
if [ "${KT_STRAT_OWN:-0}" = 1 ]; then
    for f in gemm-h100-full.h5 gemm-h200.h5 gemm-h200-mmasync.h5; do
        [ -r "$DATA/$f" ] || { echo "SKIP: $DATA/$f is not shipped"; exit 77; }
    done
fi
PY=$("$HERE/pyvenv.sh" "$VENV" kernel_tuner==1.5.0 autotuning_methodology==1.1.0); rc=$?
[ $rc = 0 ] || exit "$rc"
# one BLAS thread per process: Kernel Tuner's time_limit counts its own wall time too, which JOBS processes each
# spawning a thread per core would inflate
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
export MKL_NUM_THREADS=${MKL_NUM_THREADS:-1}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-ktstrat.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
T() { "$TUNECOST" "$@"; }
spaces=()
# name cache.json budget: import the cache; tunecost's policies are replayed below, one process per (space, strategy)
space() {
    mkdir "$1" && T import kerneltuner "$2" -o "$1.h5" -q >/dev/null || { echo "FAIL tunecost import of $2"; exit 1; }
    local b=${KT_STRAT_BUDGET_S:-$3}
    spaces+=("$1=$2=$1/curves.tsv=$b")
    for s in ${LIST//,/ }; do printf '%s\t%s\t%s\n' "$1" "$s" "$b"; done >>pairs.tsv
}
for f in $PUBLISHED; do
    gzip -dc "$DATA/published/$f.json.gz" >"$f.json" || { echo "FAIL gunzip $DATA/published/$f.json.gz"; exit 1; }
    space "$f" "$f.json" 600
done
if [ "${KT_STRAT_OWN:-0}" = 1 ]; then
    own() { T export kerneltuner "$DATA/$2" -i "$3" -o "$1.json" -q || { echo "FAIL export $2 $3"; exit 1; }; }
    own h100-1024x4096x4096 gemm-h100-full.h5 1024x4096x4096 && space h100-1024x4096x4096 h100-1024x4096x4096.json 60
    own h200-4096x256x4096 gemm-h200.h5 4096x256x4096 && space h200-4096x256x4096 h200-4096x256x4096.json 60
    own h200mma-1024x1024x1024 gemm-h200-mmasync.h5 1024x1024x1024 &&
        space h200mma-1024x1024x1024 h200mma-1024x1024x1024.json 60
fi
# tunecost: a policy's curves do not depend on the other policies of its run, so one process per pair gives the
# bytes of one run of them all; the pairs' curves are joined per space
export TUNECOST RUNS
xargs -P "$JOBS" -L 1 sh -c '"$TUNECOST" policies "$0.h5" -p "$1" -r "$RUNS" --seed 1 --budget-s "$2" --costs source \
    -j 1 --no-figures -o "$0/$1" -q >"$0/$1.log" 2>&1 ||
    { cat "$0/$1.log"; echo "FAIL tunecost policies $1 on $0"; exit 255; }' <pairs.tsv ||
    exit 1
for sp in "${spaces[@]}"; do
    n=${sp%%=*}
    first=1
    for s in ${LIST//,/ }; do
        if [ $first = 1 ]; then grep -v '^#' "$n/$s/curves.tsv"; else grep -v '^#' "$n/$s/curves.tsv" | tail -n +2; fi
        first=0
    done >"$n/curves.tsv"
done
"$PY" "$HERE/kt-strategies.py" -j "$JOBS" "$RUNS" 600 table.tsv "$LIST" "${spaces[@]}"
