#!/usr/bin/env bash
# bench-report.sh — the CPU time of the default report (`tunecost report -o DIR`, the shipped reference trace and
# every shipped study, figures included: gnuplot's CPU counts, as /usr/bin/time adds waited children) for one or
# more tunecost binaries, run alternately ROUNDS times, so that binaries compared see the same machine. Prints one
# TSV row per run: binary, round, user, system and user + system CPU seconds, wall seconds, peak RSS (KB); then
# the mean CPU per binary. The project's target: 60 s of CPU on a 2-core machine (docs/performance.md, "Report").
#
# Usage: bench/bench-report.sh [-r ROUNDS] [-a "REPORT ARGS"] TUNECOST [TUNECOST...]
#   e.g. bench/bench-report.sh -r 2 /tmp/old/tunecost build/tunecost
# Exit: 0, 1 when a report fails (its stderr is printed), 2 on bad usage.
set -u
rounds=2
args=""
while getopts "r:a:" o; do
    case $o in
    r) rounds=$OPTARG ;;
    a) args=$OPTARG ;;
    *) echo "usage: bench-report.sh [-r ROUNDS] [-a ARGS] TUNECOST..." >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "bench-report.sh: needs at least one tunecost binary" >&2; exit 2; }
case $rounds in '' | *[!0-9]*) echo "bench-report.sh: -r: expected a count, got '$rounds'" >&2; exit 2 ;; esac
for b in "$@"; do
    [ -x "$b" ] || { echo "bench-report.sh: $b: not an executable tunecost" >&2; exit 2; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tc-bench-report.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'binary\tround\tuser_s\tsys_s\tcpu_s\twall_s\tpeak_kb\n'
declare -A sum
for ((r = 1; r <= rounds; r++)); do
    for b in "$@"; do
        rm -rf "$tmp/out"
        # shellcheck disable=SC2086
        if ! /usr/bin/time -f '%U %S %e %M' -o "$tmp/time" "$b" report $args -o "$tmp/out" -q 2>"$tmp/err" >/dev/null; then
            echo "bench-report.sh: $b report failed:" >&2
            cat "$tmp/err" >&2
            exit 1
        fi
        read -r u s e m <"$tmp/time"
        cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
        printf '%s\t%d\t%s\t%s\t%s\t%s\t%s\n' "$b" "$r" "$u" "$s" "$cpu" "$e" "$m"
        sum[$b]=$(awk -v a="${sum[$b]:-0}" -v c="$cpu" 'BEGIN { printf "%.2f", a + c }')
    done
done
for b in "$@"; do
    awk -v b="$b" -v t="${sum[$b]}" -v n="$rounds" 'BEGIN { printf "# %s: mean CPU %.1f s over %d runs\n", b, t / n, n }'
done
