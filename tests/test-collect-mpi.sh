#!/bin/bash
# test-collect-mpi.sh TUNECOST — `mpirun -np 2 tunecost collect` without a GPU: --compile-only split over two
# ranks gives every configuration exactly once with the same status, registers, spills and shared memory as one
# process compiling them all (compile times differ: not compared); a collection whose ranks cannot open a GPU,
# an existing output without --resume, --resume without shards and --device under several ranks end on every rank with the right exit
# status instead of one rank waiting for another forever. Skips (77) without mpirun.
set -u
T=$1
command -v mpirun >/dev/null || { echo "mpirun not found: skipped"; exit 77; }
D=$(mktemp -d "${TMPDIR:-/tmp}/tc-mpi.XXXXXX")
trap 'rm -rf "$D"' EXIT
# Under the sanitizer setup, leak checking is off for the ranks: Open MPI keeps what MPI_Init allocates past
# MPI_Finalize (thousands of blocks in libopen-pal/libmpi); the single-process tests check our code for leaks.
[ -n "${ASAN_OPTIONS:-}" ] && export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
MPI="timeout 300 mpirun -np 2 --oversubscribe --allow-run-as-root -x ASAN_OPTIONS -x UBSAN_OPTIONS -x LSAN_OPTIONS"
SP="--param BLOCK_M=32 --param BLOCK_N=32,64 --param BLOCK_K=32 --configs 5 --arch 90"
fail() { echo "FAIL: $*"; exit 1; }

"$T" collect --compile-only $SP --jobs 1 -q -o "$D/one.tsv" --configs-tsv "$D/one-cfg.tsv" || fail "one process"
$MPI "$T" collect --compile-only $SP --jobs 1 -o "$D/two.tsv" --configs-tsv "$D/two-cfg.tsv" >"$D/two.log" 2>&1 ||
  { cat "$D/two.log"; fail "2 ranks: exit $?"; }
grep -q "over 2 ranks" "$D/two.log" || fail "2 ranks: no 'over 2 ranks' in the log"
grep -q "^# 2 MPI ranks" "$D/two.tsv" || fail "two.tsv does not say it came from 2 ranks"
[ "$(grep -c . "$D/two-cfg.tsv")" = 6 ] || fail "two-cfg.tsv: expected a header and 5 rows"
# columns 1-8 (config, parameters, status) and 10-12 (registers, spills, shared memory): identical
cut -f1-8,10-12 "$D/one-cfg.tsv" >"$D/a"; cut -f1-8,10-12 "$D/two-cfg.tsv" >"$D/b"
cmp -s "$D/a" "$D/b" || { diff "$D/a" "$D/b"; fail "per-configuration rows differ between 1 process and 2 ranks"; }
awk -F'\t' 'NR>1 && !($9 > 0) {exit 1}' "$D/two-cfg.tsv" || fail "a configuration without a compile time"

# No GPU here: both ranks fail to open one, and both end (exit 1), with no trace or shard left behind.
$MPI "$T" collect --configs 2 --shape 64x64x64 -o "$D/x.h5" >"$D/x.log" 2>&1; rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] || { cat "$D/x.log"; fail "no GPU: exit $rc (expected a failure, not 0 or a hang)"; }
ls "$D"/x.h5* >/dev/null 2>&1 && fail "no GPU: a trace or shard was left: $(ls "$D"/x.h5*)"

# An existing output is refused by every rank before any GPU work (exit 2), and left as it was.
echo keep >"$D/y.h5"
$MPI "$T" collect --configs 2 --shape 64x64x64 -o "$D/y.h5" >"$D/y.log" 2>&1; rc=$?
[ $rc = 2 ] || { cat "$D/y.log"; fail "existing output: exit $rc, expected 2"; }
grep -q "y.h5 exists" "$D/y.log" || fail "existing output: message does not name the file"
[ "$(cat "$D/y.h5")" = keep ] || fail "existing output was changed"

# --resume with no shard at all is refused (a typo in -o must not start a new collection silently)
$MPI "$T" collect --resume --configs 2 --shape 64x64x64 -o "$D/w.h5" >"$D/w.log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "no shard" "$D/w.log" || { cat "$D/w.log"; fail "--resume without shards: exit $rc"; }

$MPI "$T" collect --device 1 --configs 2 -o "$D/z.h5" >"$D/z.log" 2>&1; rc=$?
[ $rc = 2 ] || { cat "$D/z.log"; fail "--device under 2 ranks: exit $rc, expected 2"; }
echo "ok"
