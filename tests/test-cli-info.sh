#!/bin/sh
# test-cli-info.sh — `tunecost info` end to end on the hand-built trace of tests/tracegen.c ("small"), whose
# expected figures are worked out by hand below, plus --json, --help, misuse and bad files (exit 2, one line).
# usage: test-cli-info.sh TUNECOST TRACEGEN
set -u
TC=$1
GEN=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-cli-info.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$GEN" small "$tmp/small.h5" || { echo "tracegen failed"; exit 1; }
"$GEN" empty "$tmp/empty.h5" || { echo "tracegen failed"; exit 1; }
"$GEN" future "$tmp/future.h5" || { echo "tracegen failed"; exit 1; }

# ---- text --------------------------------------------------------------------------------------------------
"$TC" info "$tmp/small.h5" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "info small.h5 exited $rc: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "info small.h5 wrote to stderr: $(cat "$tmp/err")"
expect() { grep -qxF -- "$1" "$tmp/out" || fail "missing line: '$1'"; }
# Hand-worked figures (see the table in tests/tracegen.c):
#  executions: 6 + 6 + 3 + 2 = 17; estimate 1+1 = 2; warm-up 2+1 = 3; timed 3+4+3+2 = 12
#  all durations: 82000 + 144000 + 135000 + 30000 = 391000 ns; timed: 33000 + 125500 + 135000 + 30000 = 323500
#  flush 0.5 + 0.5 + 0.25 = 1.25 ms; wall 5 + 6 + 3 + 1 + 0 = 15 ms
#  compile 50, 100, 300, 500: median (100 + 300) / 2 = 200, total 950
#  input 0: config 0 median(10000, 12000, 11000) = 11000; config 1 median(8000, 9000, 8500, 100000) = 8750 -> 1
#           2147483648 flop / 8750 ns = 245.4 TFLOP/s; ref 0.01 ms = 10000 ns -> 10000 / 8750 = 1.143
#  input 1: config 0 median(50000, 40000, 45000) = 45000 (config 1 failed) -> 8589934592 / 45000 = 190.9
expect "format          tunecost-trace v1, written by tracegen (tunecost tests) at 2026-11-22T10:00:00Z"
expect "device          NVIDIA H200 (hand-built test trace) (sm_90, 132 SMs, L2 60 MiB), driver 13.0, CUDA 13.0"
expect "protocol        fixed-time, timer cupti, warm-up 25 ms, repetition 100 ms, flush_bytes 268435456 (256 MiB), compile jobs 2, seed 42"
expect "configurations  4: 2 valid, 1 compile error, 1 out of resources"
expect "parameters      BLOCK_M BLOCK_N BLOCK_K GROUP_M NUM_STAGES NUM_WARPS"
expect "inputs          2 (M x N x K)"
expect "runs            5: 3 valid, 1 out of resources, 1 launch error; 5 of 8 (input, configuration) pairs measured"
expect "executions      17 (2 estimate, 3 warm-up, 12 timed)"
expect "GPU time        391 us in executions (323.5 us timed), 1250 us in L2 flushes; benchmarking wall time 15 ms"
expect "compile         4 configurations: min 50 ms, median 200 ms, max 500 ms, total 950 ms"
expect "compile warm-up 2 workers: 250 310 ms (mean 280 ms; first compile of each worker, not in the times above)"
grep -Eq '^  1024x1024x1024 +1  128,128,64,8,4,8 +8750 ns +245\.4 +0\.01 +1\.143$' "$tmp/out" ||
    fail "best line of input 0: $(grep 1024x1024x1024 "$tmp/out")"
grep -Eq '^  4096x256x4096 +0  64,64,32,8,3,4 +45 us +190\.9 +- +-$' "$tmp/out" ||
    fail "best line of input 1: $(grep 4096x256x4096 "$tmp/out")"

# ---- JSON --------------------------------------------------------------------------------------------------
"$TC" info --json "$tmp/small.h5" >"$tmp/json" 2>"$tmp/err" || fail "info --json exited $?: $(cat "$tmp/err")"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3 || true)
if [ -n "$PY" ]; then
    "$PY" - "$tmp/json" <<'EOF' || fail "JSON values"
import json, math, sys
j = json.load(open(sys.argv[1]))
def close(a, b): return a is not None and abs(a - b) <= 1e-9 * max(1.0, abs(b))
checks = [
    (j["format_version"], 1), (j["device"]["cc"], 90), (j["device"]["l2_bytes"], 62914560),
    (j["settings"]["protocol"], "fixed-time"), (j["settings"]["seed"], 42), (j["settings"]["flush_bytes"], 268435456),
    (j["configs"]["total"], 4), (j["configs"]["valid"], 2), (j["configs"]["by_status"]["compile error"], 1),
    (j["configs"]["by_status"]["out of resources"], 1), (j["n_inputs"], 2),
    (j["runs"]["total"], 5), (j["runs"]["valid"], 3), (j["runs"]["by_status"]["launch error"], 1),
    (j["runs"]["pairs_measured"], 5), (j["runs"]["pairs_total"], 8),
    (j["executions"], {"total": 17, "estimate": 2, "warmup": 3, "timed": 12}),
    (j["params"], ["BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "NUM_STAGES", "NUM_WARPS"]), (j["dims"], ["M", "N", "K"]),
    (j["compile_warmup_ms"], [250, 310]), (j["best"][0]["config"], 1), (j["best"][0]["params"], [128, 128, 64, 8, 4, 8]),
    (j["best"][1]["config"], 0), (j["best"][1]["ref_ms"], None), (j["best"][1]["ref_over_best"], None),
    (j["best"][0]["dims"], [1024, 1024, 1024]),
]
bad = [(a, b) for a, b in checks if a != b]
nums = [
    (j["gpu_time_ms"]["executions"], 0.391), (j["gpu_time_ms"]["timed"], 0.3235), (j["gpu_time_ms"]["flush"], 1.25),
    (j["wall_ms"], 15.0), (j["compile_ms"]["min"], 50), (j["compile_ms"]["median"], 200),
    (j["compile_ms"]["max"], 500), (j["compile_ms"]["total"], 950),
    (j["best"][0]["median_ns"], 8750), (j["best"][0]["tflops"], 2147483648 / 8750 / 1e3),
    (j["best"][0]["ref_over_best"], 10000 / 8750), (j["best"][1]["median_ns"], 45000),
    (j["best"][1]["tflops"], 8589934592 / 45000 / 1e3),
]
bad += [(a, b) for a, b in nums if not close(a, b)]
for a, b in bad:
    print("got", a, "expected", b)
sys.exit(1 if bad else 0)
EOF
else
    grep -q '"best":\[{"input":0' "$tmp/json" || fail "JSON lacks best[0]"
fi
[ "$(wc -l <"$tmp/json")" -eq 1 ] || fail "JSON is not one line"

# ---- a trace without runs ------------------------------------------------------------------------------------
"$TC" info "$tmp/empty.h5" >"$tmp/out" 2>"$tmp/err" || fail "info empty.h5 exited $?: $(cat "$tmp/err")"
expect "runs            0: 0 valid; 0 of 8 (input, configuration) pairs measured"
grep -q "(no valid run)" "$tmp/out" || fail "empty trace: no '(no valid run)' line"
"$TC" info --json "$tmp/empty.h5" >"$tmp/json" 2>"$tmp/err" || fail "info --json empty.h5 exited $?"
grep -qF '"runs":{"total":0,"valid":0' "$tmp/json" || fail "empty trace JSON runs: $(cat "$tmp/json")"
grep -qF '"config":null,"params":null,"median_ns":null' "$tmp/json" || fail "empty trace JSON best: $(cat "$tmp/json")"

# ---- help and misuse -----------------------------------------------------------------------------------------
"$TC" info --help >"$tmp/out" 2>"$tmp/err" || fail "--help exited $?"
grep -q "^Examples:" "$tmp/out" || fail "--help has no examples"
grep -q -- "--json" "$tmp/out" || fail "--help does not list --json"
[ -s "$tmp/err" ] && fail "--help wrote to stderr"
"$TC" info --frobnicate "$tmp/small.h5" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] || fail "unknown option: exit status not 2"
[ -s "$tmp/out" ] && fail "unknown option: wrote to stdout"
grep -q "unknown option '--frobnicate'" "$tmp/err" || fail "unknown option not named"
"$TC" info "$tmp/small.h5" "$tmp/small.h5" >/dev/null 2>&1
[ $? -eq 2 ] || fail "two traces: exit status not 2"

# ---- bad files: exit 2, one line on stderr naming the file, nothing on stdout ---------------------------------
bad() { # FILE EXPECTED-PART
    "$TC" info "$1" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "$1: exit status $rc, expected 2"
    [ -s "$tmp/out" ] && fail "$1: wrote to stdout"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$1: stderr is not one line: $(cat "$tmp/err")"
    grep -qF -- "tunecost info: $1: $2" "$tmp/err" || fail "$1: expected '$2', got: $(cat "$tmp/err")"
}
bad "$tmp/absent.h5" "No such file or directory"
bad "$tmp" "is a directory, not a trace file"
printf 'M,N,K\n1,2,3\n' >"$tmp/text.h5"
bad "$tmp/text.h5" "not an HDF5 file"
: >"$tmp/zero.h5"
bad "$tmp/zero.h5" "not an HDF5 file (empty)"
bad "$tmp/future.h5" "format_version 2 is newer than this tunecost understands (1)"
size=$(wc -c <"$tmp/small.h5")
head -c $((size / 2)) "$tmp/small.h5" >"$tmp/truncated.h5"
bad "$tmp/truncated.h5" "cannot open the HDF5 file (truncated or damaged?"
cp "$tmp/small.h5" "$tmp/garbled.h5"
printf 'XXXX' | dd of="$tmp/garbled.h5" bs=1 seek=1 conv=notrunc 2>/dev/null
bad "$tmp/garbled.h5" "not an HDF5 file"

# the help's examples name only files that are in the checkout
root=$(cd "$(dirname "$0")/.." && pwd)
for f in $("$TC" info --help | grep -o 'data/[A-Za-z0-9_./-]*' | sort -u); do
    if [ ! -e "$root/$f" ]; then
        echo "FAIL: info --help names $f, which is not in the checkout"
        fails=$((fails + 1))
    fi
done

if [ $fails -gt 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all checks passed"
