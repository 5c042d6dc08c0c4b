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
for name in compile tuning split best failures flush scaling estimate heatmap; do
    grep -q "^  $name " "$tmp/out" || fail "--help does not list $name"
done
grep -q "Examples:" "$tmp/out" || fail "--help has no examples"
# every file an example names exists in the checkout (run from the source tree, data/ beside the default trace)
root=$(cd "$(dirname "$0")/.." && pwd)
for f in $(grep -o 'data/[A-Za-z0-9_./*-]*' "$tmp/out" | sort -u); do
    ls -d "$root"/$f >/dev/null 2>&1 || fail "table --help names $f, which is not in the checkout"
done

# flush: a directory stands for its traces
mkdir "$tmp/fl" && cp "$tmp/a.h5" "$tmp/b.h5" "$tmp/fl/" || fail "copy"
expect 0 "$tc" table flush "$tmp/fl" -o "$tmp/flush.tsv"
[ "$(wc -l < "$tmp/flush.tsv")" -eq 3 ] || fail "flush.tsv from a directory should have 2 rows"

# scaling (Table 7) from compile-scaling TSV files: 10 configurations with 1 and 4 workers (1000 -> 500 ms: 2x);
# 10 more in two 1-worker parts (4 + 6 configurations, 300 + 500 ms) and one 8-worker pass (200 ms: 800 / 200 = 4x);
# 3 configurations with 16 workers and no 1-worker pass anywhere (speedup nan)
mkdir "$tmp/sc" "$tmp/empty" || fail "mkdir"
hdr='jobs	wall_ms	speedup	warmup_ms_mean'
printf '# collect --compile-only: 10 configurations, sm_90, NVRTC 13.0; x\n%s\n4\t500.0\t2\t1\n1\t1000.0\t1\t1\n' "$hdr" > "$tmp/sc/scaling-a.tsv"
printf '# collect --compile-only: 4 configurations, sm_90, NVRTC 13.0; x\n%s\n1\t300.0\t1\t1\n' "$hdr" > "$tmp/sc/scaling-p1.tsv"
printf '# collect --compile-only: 6 configurations, sm_90, NVRTC 13.0; x\n%s\n1\t500.0\t1\t1\n' "$hdr" > "$tmp/sc/scaling-p2.tsv"
printf '# collect --compile-only: 10 configurations, sm_90, NVRTC 13.0; x\n%s\n8\t200.0\tnan\t1\n' "$hdr" > "$tmp/sc/scaling-whole.tsv"
printf '# collect --compile-only: 3 configurations, sm_90, NVRTC 13.0; x\n%s\n16\t90.0\tnan\t1\n' "$hdr" > "$tmp/sc/scaling-lone.tsv"
echo "not a table" > "$tmp/sc/notes.txt"
expect 0 "$tc" table scaling "$tmp/sc" -o "$tmp/scaling.tsv"
[ "$(head -n 1 "$tmp/scaling.tsv")" = "$(printf 'file\tconfigs\tjobs\twall_s\tspeedup\tefficiency\tone_worker_s\tone_worker_from')" ] \
    || fail "scaling.tsv header: $(head -n 1 "$tmp/scaling.tsv")"
[ "$(wc -l < "$tmp/scaling.tsv")" -eq 7 ] || fail "scaling.tsv should have 6 passes"
awk -F'\t' '$1 == "scaling-a.tsv" && $3 == 4 && $5 == 2 && $6 == 0.5 { ok = 1 } END { exit !ok }' "$tmp/scaling.tsv" \
    || fail "scaling-a.tsv: 4 workers should be 2x (efficiency 0.5)"
awk -F'\t' '$1 == "scaling-whole.tsv" && $3 == 8 && $4 == 0.2 && $5 == 4 && $7 == 0.8 &&
    $8 == "scaling-p1.tsv + scaling-p2.tsv" { ok = 1 } END { exit !ok }' "$tmp/scaling.tsv" \
    || fail "scaling-whole.tsv: 8 workers should be 4x against the two 1-worker parts"
awk -F'\t' '$1 == "scaling-lone.tsv" && $5 == "nan" && $8 == "nan" { ok = 1 } END { exit !ok }' "$tmp/scaling.tsv" \
    || fail "scaling-lone.tsv: no 1-worker pass, so speedup nan"
grep -q "^file: $tmp/sc/scaling-a.tsv" "$tmp/out" || fail "scaling does not name its files"
expect 0 "$tc" table scaling "$tmp/sc/scaling-a.tsv"
expect 0 "$tc" table scaling                     # the shipped data/compile-scaling/
grep -q "scaling-full-j16.tsv" "$tmp/out" || fail "table scaling without FILES should read the shipped study"
expect 2 "$tc" table scaling "$tmp/a.h5"
grep -q "not a compile-scaling table" "$tmp/err" || fail "message for a trace given to table scaling"
# An empty field is a value (util/tc_tsv, the one TSV reader): with an empty `note` before wall_ms, 4 workers take
# 250 ms against 1000 ms on 1, so 4x (a reader that merges empty fields takes 250 for the note and finds no wall time).
mkdir -p "$tmp/sce"
printf '# 10 configurations, sm_90\njobs\tnote\twall_ms\n1\twarm\t1000\n4\t\t250\n' > "$tmp/sce/scaling-e.tsv"
expect 0 "$tc" table scaling "$tmp/sce" -o "$tmp/scaling-e.tsv"
awk -F'\t' '$1 == "scaling-e.tsv" && $3 == 4 && $5 == 4 { ok = 1 } END { exit !ok }' "$tmp/scaling-e.tsv" \
    || fail "an empty field before wall_ms: 4 workers should be 4x: $(cat "$tmp/err")"
# A row with another number of fields than the header names its line.
printf 'jobs\twall_ms\n1\t1000\n4\t250\textra\n' > "$tmp/sce/scaling-e.tsv"
expect 2 "$tc" table scaling "$tmp/sce"
grep -q "scaling-e.tsv:3: expected 2 tab-separated fields as in the header, got 3" "$tmp/err" \
    || fail "a row with an extra field: $(cat "$tmp/err")"
expect 2 "$tc" table scaling "$tmp/empty"
grep -q "no scaling-\*.tsv files" "$tmp/err" || fail "message for a directory without scaling files"
expect 2 "$tc" table scaling "$tmp/sc/nosuch.tsv"
grep -q "nosuch.tsv" "$tmp/err" || fail "message should name the missing file"

# report: usage errors
expect 2 "$tc" report "$tmp/a.h5"
grep -q "missing -o DIR" "$tmp/err" || fail "report without -o"
expect 2 "$tc" report "$tmp/a.h5" -o "$tmp/r" --samples 0
expect 2 "$tc" report "$tmp/a.h5" -o "$tmp/r" --input 7x7x7
grep -q "input 7x7x7" "$tmp/err" || fail "report with an unknown input"
[ ! -e "$tmp/r" ] || fail "a refused report left a directory"
expect 2 "$tc" report "$tmp/a.h5" -o "$tmp/r" --flush-study "$tmp/nosuch"
grep -q "flush-study" "$tmp/err" || fail "report with a missing flush-study directory"
expect 0 "$tc" report --help
grep -q "Examples:" "$tmp/out" || fail "report --help has no examples"
for f in $(grep -o 'data/[A-Za-z0-9_./*-]*' "$tmp/out" | sort -u); do
    ls -d "$root"/$f >/dev/null 2>&1 || fail "report --help names $f, which is not in the checkout"
done
echo "PASS: $n checks"
