#!/usr/bin/env bash
# run.sh — fuzz one harness for a while, on one core, keeping what it finds.
# Usage: tests/fuzz/run.sh BUILDDIR HARNESS SECONDS [--keep] [libFuzzer options...]
#   BUILDDIR   where tests/fuzz/build.sh put the binaries (built here if missing)
#   HARNESS    fuzz_opt | fuzz_trace | fuzz_tracegen | fuzz_spool | fuzz_import
#   --keep     afterwards, merge new coverage-increasing inputs into tests/fuzz/corpus/HARNESS (minimised)
# Seeds: tests/fuzz/corpus/HARNESS, plus (fuzz_trace) the malformed-trace corpus of tests/corpus/make_corpus.py.
# Crashes are written to tests/fuzz/crashers/HARNESS/ (commit them once fixed: smoke.sh replays them as
# regressions). For fuzz_trace, whose crashes are mostly inside libhdf5, pass -artifact_prefix=DIR/ (the
# last one wins) and triage before keeping anything; -fork=1 -ignore_crashes=1 keeps going past crashes.
# Example: tests/fuzz/run.sh /tmp/fuzz fuzz_trace 600 --keep
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: run.sh BUILDDIR HARNESS SECONDS [--keep] [libFuzzer options...]}
h=${2:?harness: fuzz_opt | fuzz_trace | fuzz_tracegen | fuzz_spool | fuzz_import}
secs=${3:?seconds}
shift 3
keep=0
if [ "${1:-}" = --keep ]; then keep=1; shift; fi
[ -x "$build/$h" ] || "$here/build.sh" "$build" "$h"

work=$(mktemp -d "${TMPDIR:-/tmp}/tc-fuzz-$h.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/new" "$here/crashers/$h"
seeds=("$here/corpus/$h")
opts=(-max_total_time="$secs" -artifact_prefix="$here/crashers/$h/" -print_final_stats=1)
case $h in
fuzz_opt)   opts+=(-dict="$here/fuzz_opt.dict" -max_len=256) ;;
fuzz_trace) /usr/bin/python3 "$here/../corpus/make_corpus.py" "$work/seed" >/dev/null
            rm -rf "$work/seed/directory.h5" "$work/seed/MANIFEST.tsv" "$work/seed/unreadable.h5"
            seeds+=("$work/seed")
            opts+=(-max_len=65536 -timeout=10 -rss_limit_mb=2048) ;;
fuzz_tracegen|fuzz_spool) opts+=(-max_len=4096 -timeout=10) ;;
fuzz_import) opts+=(-max_len=8192 -timeout=10) ;;
esac
echo "fuzzing $h for $secs s (seeds: ${seeds[*]})"
rc=0
"$build/$h" "${opts[@]}" "$@" "$work/new" "${seeds[@]}" || rc=$?
if [ $keep -eq 1 ]; then
    "$build/$h" -merge=1 "${opts[@]:3}" "$here/corpus/$h" "$work/new" 2>&1 | tail -n 1
fi
exit $rc
