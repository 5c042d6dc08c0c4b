#!/usr/bin/env bash
# smoke.sh — the CI fuzz smoke test (≤ 60 s): build the harnesses, replay every kept corpus input and crasher
# of each as a regression test, then fuzz fuzz_opt, fuzz_tracegen, fuzz_spool and fuzz_import briefly (nothing in
# the tree changes; fuzz_import only where json-c is installed).
# fuzz_trace (raw bytes) is replayed only: fuzzing it mostly finds bugs inside libhdf5 1.10 itself, which
# tunecost cannot fix (docs/reliability.md); run it locally with run.sh.
# Usage: tests/fuzz/smoke.sh BUILDDIR [TOTAL_FUZZ_SECONDS (default 40)]
# Exit: 0 clean, 1 a crash or broken contract (the input is saved in BUILDDIR/fuzz-artifacts/), 77 no clang.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: smoke.sh BUILDDIR [SECONDS]}
total=${2:-40}
mkdir -p "$build"
build=$(cd "$build" && pwd)

"$here/build.sh" "$build" >"$build/fuzz-build.log" 2>&1
rc=$?
[ $rc -eq 77 ] && { cat "$build/fuzz-build.log"; exit 77; }
[ $rc -ne 0 ] && { echo "FAIL: fuzz harnesses do not build:"; tail -n 20 "$build/fuzz-build.log"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tc-fuzz-smoke.XXXXXX")
trap 'rm -rf "$work"' EXIT
art=$build/fuzz-artifacts
mkdir -p "$art"
fail=0
for h in fuzz_opt fuzz_tracegen fuzz_trace fuzz_spool fuzz_import; do
    [ -x "$build/$h" ] || { echo "$h: not built here (json-c missing?)"; continue; }
    opts=(-artifact_prefix="$art/$h-")
    secs=0
    case $h in
    fuzz_opt)      opts+=(-dict="$here/fuzz_opt.dict" -max_len=256); secs=$((total / 4)) ;;
    fuzz_tracegen) opts+=(-max_len=4096 -timeout=10); secs=$((total - total / 4 - 2 * (total / 8))) ;;
    fuzz_spool)    opts+=(-max_len=4096 -timeout=10); secs=$((total / 8)) ;;
    fuzz_import)   opts+=(-max_len=8192 -timeout=10); secs=$((total / 8)) ;;
    fuzz_trace)    opts+=(-max_len=65536 -timeout=10) ;;
    esac
    # 1. regressions: every kept input and crasher, once each
    mapfile -t kept < <(find "$here/corpus/$h" "$here/crashers/$h" -type f 2>/dev/null | sort)
    if [ ${#kept[@]} -gt 0 ]; then
        if ! "$build/$h" "${opts[@]}" "${kept[@]}" >"$work/$h-replay.log" 2>&1; then
            echo "FAIL: $h crashes on a kept input:"
            grep -E 'ERROR|contract|Running:|runtime error' "$work/$h-replay.log" | tail -n 10
            fail=1
            continue
        fi
    fi
    echo "$h: replayed ${#kept[@]} kept inputs cleanly"
    [ $secs -gt 0 ] || continue
    # 2. a short fuzzing run from a scratch copy of the corpus
    mkdir -p "$work/$h"
    [ ${#kept[@]} -gt 0 ] && cp "${kept[@]}" "$work/$h/"
    if ! "$build/$h" "${opts[@]}" -max_total_time="$secs" "$work/$h" >"$work/$h-fuzz.log" 2>&1; then
        echo "FAIL: $h found a crash in $secs s (input kept in $art):"
        grep -E 'ERROR|contract|runtime error|SUMMARY' "$work/$h-fuzz.log" | head -n 10
        fail=1
        continue
    fi
    echo "$h: $(grep -E '^Done' "$work/$h-fuzz.log" | tail -n 1)"
done
exit $fail
