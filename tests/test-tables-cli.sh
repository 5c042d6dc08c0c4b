#!/bin/sh
# test-tables-cli.sh — `tunecost table` and `tunecost report` on the command line: TSV output, exit codes and
# messages for bad names, traces and options. Expected numbers come from the small hand-built trace listed at the
# top of tests/test-tables-fixture.c.
#   test-tables-cli.sh TUNECOST TEST-REPORT   (TEST-REPORT writes the fixture traces)
set -u
tc=$1
fixture=$2
tmp=$(mktemp -d /tmp/test-tables-cli.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
fail() { echo "FAIL: $*"; exit 1; }
ok() { n=$((n + 1)); }
# expect STATUS CMD...: run, keep stdout/stderr in $tmp/out, $tmp/err
expect() {
    want=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    [ "$got" -eq "$want" ] || { cat "$tmp/err"; fail "exit $got (expected $want): $*"; }
    ok
}

"$fixture" small "$tmp/a.h5" 268435456 0 || fail "fixture"
"$fixture" small "$tmp/b.h5" 0 1 || fail "fixture"

expect 0 "$tc" table compile "$tmp/a.h5" -o "$tmp/compile.tsv"
[ "$(head -n 1 "$tmp/compile.tsv")" = "$(printf 'config\tBLOCK_M\tBLOCK_N\tstatus\tcompile_ms\tload_ms\tregisters\tsmem_bytes\tspill_bytes')" ] \
    || fail "compile.tsv header: $(head -n 1 "$tmp/compile.tsv")"
[ "$(wc -l < "$tmp/compile.tsv")" -eq 4 ] || fail "compile.tsv should have a header and 3 rows"
grep -q "total compile time: 0.35 s over 3 configurations" "$tmp/out" || fail "compile totals missing on stdout"
grep -q "^trace: $tmp/a.h5 (Hand-built GPU, fixed-time protocol" "$tmp/out" || fail "settings not echoed"
ok

# the same table of two traces gets a leading trace column
expect 0 "$tc" table tuning "$tmp/a.h5" "$tmp/b.h5" -o "$tmp/tuning.tsv" -q
[ ! -s "$tmp/out" ] || fail "--quiet printed on stdout"
head -n 1 "$tmp/tuning.tsv" | grep -q "^trace	input	M	N	K	runs" || fail "tuning.tsv header"
[ "$(wc -l < "$tmp/tuning.tsv")" -eq 5 ] || fail "tuning.tsv should have 4 rows"
ok

expect 0 "$tc" table flush "$tmp/a.h5" "$tmp/b.h5"
grep -q "reference for speedup and best-configuration changes: $tmp/a.h5" "$tmp/out" || fail "flush reference"
expect 0 "$tc" table best "$tmp/a.h5" --max-rows 1
grep -q "1 more rows" "$tmp/out" || fail "--max-rows did not cut the table"

# misuse and bad input: exit 2 with one line naming the problem, nothing written
expect 2 "$tc" table nosuch "$tmp/a.h5"
grep -q "unknown table 'nosuch'" "$tmp/err" || fail "message for an unknown table"
expect 2 "$tc" table
expect 2 "$tc" table flush "$tmp/a.h5"
grep -q "at least two traces" "$tmp/err" || fail "message for flush with one trace"
expect 2 "$tc" table estimate "$tmp/a.h5" -o "$tmp/est.tsv"
grep -q "triton protocol" "$tmp/err" || fail "message for estimate on a fixed-time trace"
[ ! -e "$tmp/est.tsv" ] || fail "estimate wrote a file after failing"
expect 2 "$tc" table tuning "$tmp/none.h5"
grep -q "none.h5" "$tmp/err" || fail "message should name the missing trace"
expect 2 "$tc" table tuning "$tmp/a.h5" --max-rows -3
expect 2 "$tc" table tuning "$tmp/a.h5" -o "$tmp/no/such/dir/x.tsv"   # refused before any work (a usage error)
grep -q "no/such/dir" "$tmp/err" || fail "message should name the missing directory"
expect 0 "$tc" table --help
for name in compile tuning split best failures flush estimate heatmap; do
    grep -q "^  $name " "$tmp/out" || fail "--help does not list $name"
done
grep -q "Examples:" "$tmp/out" || fail "--help has no examples"

# report: usage errors
expect 2 "$tc" report "$tmp/a.h5"
grep -q "missing -o DIR" "$tmp/err" || fail "report without -o"
expect 2 "$tc" report "$tmp/a.h5" -o "$tmp/r" --samples 0
expect 2 "$tc" report "$tmp/a.h5" -o "$tmp/r" --input 7x7x7
grep -q "input 7x7x7" "$tmp/err" || fail "report with an unknown input"
[ ! -e "$tmp/r" ] || fail "a refused report left a directory"
expect 0 "$tc" report --help
grep -q "Examples:" "$tmp/out" || fail "report --help has no examples"
echo "PASS: $n checks"
