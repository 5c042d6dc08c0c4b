#!/usr/bin/env bash
# bench-policies.sh — time the default run of `tunecost policies` (the shipped full-space trace, every policy,
# 100 runs, 2 threads: the issue-24 target, <= 30 s on 2 cores), three times, and each stopping rule once; prints
# per run the command's own evaluation time ("(N s)": without loading the trace), the whole command's wall time
# and its CPU (user + system) seconds, and the load average before it: on a shared machine CPU seconds are the
# figure to compare. usage: bash bench/bench-policies.sh [TUNECOST]   (results: docs/performance.md, "Policies")
set -u
T=${1:-build/tunecost}
out=$(mktemp -d "${TMPDIR:-/tmp}/bench-policies.XXXXXX")
trap 'rm -rf "$out"' EXIT
"$T" policies -r 1 -p random --no-figures -o "$out/probe" 2>&1 | head -1 # names the default trace and its GPU
run() { # label, then the options
    local label=$1
    shift
    rm -rf "$out/p"
    local load
    load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
    if ! /usr/bin/time -f '%e %U %S' -o "$out/time" "$T" policies "$@" -j 2 --no-figures -o "$out/p" \
            >/dev/null 2>"$out/err"; then
        cat "$out/err"
        exit 1
    fi
    read -r wall user sys <"$out/time"
    eval_s=$(sed -n 's/.*(\([0-9.]*\) s)$/\1/p' "$out/err")
    printf '%-28s evaluation %6s s, whole command %6.2f s wall, %6.2f CPU s (load %s)\n' "$label" "$eval_s" "$wall" \
        "$(awk -v a="$user" -v b="$sys" 'BEGIN { print a + b }')" "$load"
}
for i in 1 2 3; do
    run "default, 100 runs, #$i" -r 100
done
for stop in early statistical; do
    run "--stop $stop, 100 runs" -r 100 --stop "$stop"
done
