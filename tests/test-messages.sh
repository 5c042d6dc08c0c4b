#!/usr/bin/env bash
# test-messages.sh — what the commands say, alike everywhere: a wrong input name gets one message in simulate,
# report and export (the input, how many the trace has, one of them, and `tunecost info TRACE` to list them), and
# report says it before any note or progress line; `info` on a JSON file points to `tunecost import`; import's
# note about a truncated cache carries the `tunecost import:` prefix; `policies` names every file it wrote; `report
# -q` prints nothing when all went well. Traces: tests/tracegen.c's small trace (hand-built, inputs 1024x1024x1024
# and 4096x256x4096), a Kernel Tuner cache of tests/import cut inside its cache.
#
# Usage: test-messages.sh TUNECOST TRACEGEN IMPORT_DIR
# Exit: 0 pass, 1 fail.
set -u
TUNECOST=$(realpath "${1:?usage: test-messages.sh TUNECOST TRACEGEN IMPORT_DIR}")
TRACEGEN=$(realpath "${2:?usage}")
IMP=$(realpath "${3:?usage}")
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-messages.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
n_fail=0
fail() { n_fail=$((n_fail + 1)); echo "FAIL $*"; }
ok() { echo "ok   $*"; }
T() { "$TUNECOST" "$@"; }
"$TRACEGEN" small small.h5 || { echo "FAIL tracegen"; exit 1; }

# one message for a wrong input name; worked out: 2 inputs, the first 1024x1024x1024
want="--input 5x5x5: not among the 2 inputs of small.h5 (e.g. 1024x1024x1024; \`tunecost info small.h5\` lists them)"
for c in "simulate small.h5 -o sim -s 2 -r 2 -i 5x5x5" "report small.h5 -o rep -s 2 -r 2 -i 5x5x5" \
         "export kerneltuner small.h5 -o e.json -i 5x5x5"; do
    read -r -a A <<<"$c"
    T "${A[@]}" >out.txt 2>err.txt; rc=$?
    first=$(head -n 1 err.txt)
    [ $rc = 2 ] && [ "$first" = "tunecost ${A[0]}: $want" ] && ok "${A[0]}: the one wrong-input message, first" ||
        fail "${A[0]} -i 5x5x5: exit $rc, first line '$first'"
done

# info on a Kernel Tuner cache: says how to import it
T info "$IMP/kt-gemm-256.json" 2>err.txt; rc=$?
[ $rc = 2 ] && [ "$(wc -l <err.txt)" = 1 ] && grep -qF "tunecost import kerneltuner" err.txt &&
    ok "info CACHE.json points to tunecost import" || fail "info CACHE.json: exit $rc: $(cat err.txt)"

# import of a cache cut inside its cache: the note carries the command's prefix
if T import --help >/dev/null 2>&1; then
    # cut after the last complete entry before two thirds of the file (an interrupted tuning run's file)
    python3 -c 'import sys; s = open(sys.argv[1]).read(); i = s.rindex("},", 0, len(s) * 2 // 3); open("cut.json", "w").write(s[:i + 2])' \
        "$IMP/kt-gemm-256.json"
    T import kerneltuner cut.json -o cut.h5 >/dev/null 2>err.txt
    grep -q "ends inside its cache" err.txt && ! grep -v "^tunecost import: " err.txt | grep -q . &&
        ok "import's notes on stderr carry 'tunecost import:'" || fail "import note: $(cat err.txt)"
fi

# policies names every file it wrote, and their number is what the directory holds
T policies small.h5 -p random -r 2 -b 1 -j 1 --no-figures -o pol >/dev/null 2>err.txt || fail "policies: $(cat err.txt)"
n=$(find pol -maxdepth 1 -type f | wc -l)
line=$(grep "wrote" err.txt)
case "$line" in
    "tunecost policies: wrote $n files in pol: atm.tsv, curves.tsv, scores.tsv ("*) ok "policies: wrote $n files, named" ;;
    *) fail "policies' summary '$line' ($n files in pol)" ;;
esac

# report -q: nothing on stdout or stderr when it succeeds
T report small.h5 -o rq -s 2 -r 2 -j 1 -q --no-figures --triton-trace none --compare-trace none --flush-study none \
    --scaling none --recorded none >out.txt 2>err.txt; rc=$?
[ $rc = 0 ] && [ ! -s out.txt ] && [ ! -s err.txt ] && ok "report -q prints nothing" ||
    fail "report -q: exit $rc, stdout '$(head -c 200 out.txt)', stderr '$(head -c 200 err.txt)'"

[ $n_fail = 0 ] && echo "all passed" || echo "$n_fail failed"
[ $n_fail = 0 ]
