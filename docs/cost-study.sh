#!/usr/bin/env bash
# cost-study.sh — what charging failing configurations and isolated vs contended compile times changes: the time
# random search (tunecost simulate) needs to reach a target share of the optimum, per compile model, chosen and
# re-evaluated as the report does (docs/report.md, "Honest statistics"), on three seeds. docs/simulation.md
# ("Every compile cost, measured: the H100 trace") prints its output for data/gemm-h100-compile.h5.
#
# For each cost setting (--failed-cost none|triton x --compile-model paper|measured), scenario and seed S:
#   1. selection: tunecost simulate TRACE --seed S (500 samples x 30 runs, N_CONFIG 1:80, EXEC_TIME 10:100 ms);
#      the chosen sample is the cheapest (lowest mean time_s) whose 95% CI lower bound of speedup reaches TARGET;
#   2. re-evaluation: that sample's N_CONFIG and EXEC_TIME replayed alone on RUNS fresh runs with seed S + 1000
#      (tunecost simulate --n-config N --exec-ms E -s 1 -r RUNS); the row prints its mean time, its 95% CI and
#      its mean speedup. A scenario with no qualifying sample prints "never".
# Under --compile-model paper the sequential model charges the contended compile_ms and `parallel` means `ideal`,
# so the list-scheduled `parallel` is replayed under `measured` only.
#
# usage: docs/cost-study.sh [TUNECOST [TRACE [TARGET [RUNS [OPTIONS]]]]]   (defaults: build/tunecost,
#        data/gemm-h100-compile.h5, 0.95, 4000, none); OPTIONS: more `simulate` options for both steps, one word
#        each, e.g. "--exec-ms 1:10" for a trace collected with a 10 ms repetition; prints a TSV on stdout; needs awk.
set -eu
T=${1:-build/tunecost}
TRACE=${2:-data/gemm-h100-compile.h5}
TARGET=${3:-0.95}
RUNS=${4:-4000}
read -r -a EXTRA <<<"${5:-}"
dir=$(mktemp -d "${TMPDIR:-/tmp}/cost-study.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# column number of NAME in the header of FILE (the first line not starting with #)
col() { awk -F'\t' -v n="$2" '!/^#/ { for (i = 1; i <= NF; i++) if ($i == n) { print i; exit } }' "$1"; }

printf 'failed_cost\tcompile_model\tscenario\tseed\tsample\tn_config\texec_ms\tsel_time_s\ttime_s\ttime_s_lo\ttime_s_hi\tspeedup\n'
for fc in none triton; do
    for cm in paper measured; do
        scen=sequential,pipelined,ideal
        [ "$cm" = measured ] && scen=$scen,parallel
        for seed in 1 2 3; do
            out=$dir/$fc-$cm-$seed
            "$T" simulate -q "$TRACE" ${EXTRA[@]+"${EXTRA[@]}"} --failed-cost "$fc" --compile-model "$cm" \
                --scenarios "$scen" --seed "$seed" -o "$out" >/dev/null 2>&1
            p=$out/points.tsv
            cs=$(col "$p" scenario) ct=$(col "$p" time_s) cl=$(col "$p" speedup_lo) cn=$(col "$p" n_config)
            ce=$(col "$p" exec_ms) ck=$(col "$p" sample)
            for sc in ${scen//,/ }; do
                pick=$(awk -F'\t' -v sc="$sc" -v tg="$TARGET" -v cs="$cs" -v ct="$ct" -v cl="$cl" -v cn="$cn" \
                    -v ce="$ce" -v ck="$ck" '!/^#/ && $cs == sc && $cl + 0 >= tg + 0 && (best == "" || $ct + 0 < bt) {
                        bt = $ct + 0; best = $ck "\t" $cn "\t" $ce "\t" $ct } END { print best }' "$p")
                if [ -z "$pick" ]; then
                    printf '%s\t%s\t%s\t%s\t-1\tnan\tnan\tnan\tnever\tnan\tnan\tnan\n' "$fc" "$cm" "$sc" "$seed"
                    continue
                fi
                n=$(cut -f2 <<<"$pick") e=$(cut -f3 <<<"$pick")
                "$T" simulate -q "$TRACE" ${EXTRA[@]+"${EXTRA[@]}"} --failed-cost "$fc" --compile-model "$cm" \
                    --scenarios "$sc" --n-config "$n" --exec-ms "$e" -s 1 -r "$RUNS" --seed $((seed + 1000)) \
                    -o "$out-re" >/dev/null 2>&1
                q=$out-re/points.tsv
                awk -F'\t' -v pre="$fc	$cm	$sc	$seed	$pick" -v a="$(col "$q" time_s)" -v b="$(col "$q" time_s_lo)" \
                    -v c="$(col "$q" time_s_hi)" -v d="$(col "$q" speedup)" \
                    '!/^#/ && ++k == 2 { printf "%s\t%.3f\t%.3f\t%.3f\t%.4f\n", pre, $a, $b, $c, $d }' "$q"
            done
        done
    done
done
