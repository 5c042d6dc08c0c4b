#!/usr/bin/env bash
# smoke.sh — the CI fuzz smoke test (≤ 60 s): build the harnesses, replay every kept corpus input and crasher
# as a regression test, then fuzz each harness briefly from its corpus (nothing in the tree is modified).
# Usage: tests/fuzz/smoke.sh BUILDDIR [SECONDS_PER_HARNESS (default 20)]
# Exit: 0 clean, 1 a crash or contract violation (the input is saved in BUILDDIR/fuzz-artifacts/), 77 no clang.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: smoke.sh BUILDDIR [SECONDS]}
secs=${2:-20}
mkdir -p "$build"
build=$(cd "$build" && pwd)
harnesses=(fuzz_opt)
[ -s "$here/../../trace/trace.c" ] && grep -q trace_open "$here/../../trace/trace.c" && harnesses+=(fuzz_trace)

"$here/build.sh" "$build" "${harnesses[@]}" >"$build/fuzz-build.log" 2>&1
rc=$?
[ $rc -eq 77 ] && { cat "$build/fuzz-build.log"; exit 77; }
[ $rc -ne 0 ] && { echo "FAIL: fuzz harnesses do not build:"; tail -n 20 "$build/fuzz-build.log"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tc-fuzz-smoke.XXXXXX")
trap 'rm -rf "$work"' EXIT
art=$build/fuzz-artifacts
mkdir -p "$art"
fail=0
for h in "${harnesses[@]}"; do
    opts=(-artifact_prefix="$art/$h-")
    case $h in
    fuzz_opt)   opts+=(-dict="$here/fuzz_opt.dict" -max_len=256) ;;
    fuzz_trace) opts+=(-max_len=65536 -timeout=10 -rss_limit_mb=2048) ;;
    esac
    # 1. regressions: every kept input and crasher, once each
    mapfile -t kept < <(find "$here/corpus/$h" "$here/crashers/$h" -type f 2>/dev/null | sort)
    if [ ${#kept[@]} -gt 0 ]; then
        if ! "$build/$h" "${opts[@]}" -runs=1 "${kept[@]}" >"$work/$h-replay.log" 2>&1; then
            echo "FAIL: $h crashes on a kept input:"; grep -E 'ERROR|contract|Running:|runtime error' \
                "$work/$h-replay.log" | head -n 10
            fail=1
            continue
        fi
    fi
    echo "$h: replayed ${#kept[@]} kept inputs cleanly"
    # 2. a short fuzzing run from a scratch copy of the corpus
    mkdir -p "$work/$h"
    [ ${#kept[@]} -gt 0 ] && cp "${kept[@]}" "$work/$h/" 2>/dev/null
    if [ "$h" = fuzz_trace ] && /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
        /usr/bin/python3 "$here/../corpus/make_corpus.py" "$work/seed" >/dev/null &&
            find "$work/seed" -maxdepth 1 -type f -name '*.h5' -perm -u+r -exec cp {} "$work/$h/" \;
    fi
    if ! "$build/$h" "${opts[@]}" -max_total_time="$secs" "$work/$h" >"$work/$h-fuzz.log" 2>&1; then
        echo "FAIL: $h found a crash in $secs s (input kept in $art):"
        grep -E 'ERROR|contract|runtime error|SUMMARY' "$work/$h-fuzz.log" | head -n 10
        fail=1
        continue
    fi
    echo "$h: $(grep -E '^Done|#[0-9]+.*DONE' "$work/$h-fuzz.log" | tail -n 1)"
done
exit $fail
