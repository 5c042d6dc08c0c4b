#!/usr/bin/env bash
# test-suites.sh — tests/suites.sh names every test the last `meson test` skipped with the reason it printed (a
# hand-written meson test log: one skipped test with a SKIP line, one without any output, one that passed).
#
# Usage: test-suites.sh SOURCE_ROOT BUILD_DIR
# Exit: 0 pass, 1 fail, 77 skipped (no python3).
set -u
SRC=${1:?usage: test-suites.sh SOURCE_ROOT BUILD_DIR}
BUILD=${2:?usage}
command -v python3 >/dev/null || { echo "SKIP: python3 is needed"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-suites.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cat >"$TMP/testlog.json" <<'JSON'
{"name": "tunecost:integration / export", "result": "SKIP", "stdout": "SKIP: python3 is needed\n"}
{"name": "tunecost:gpu / collect-gpu", "result": "SKIP", "stdout": ""}
{"name": "tunecost:unit / util", "result": "OK", "stdout": "100%: Checks: 3\n"}
JSON
out=$(SUITES_TESTLOG=$TMP/testlog.json "$SRC/tests/suites.sh" "$BUILD") || { echo "FAIL: suites.sh exit $?"; exit 1; }
n_fail=0
grep -qxF "suites: skipped export: SKIP: python3 is needed" <<<"$out" || { echo "FAIL: export's reason: $out"; n_fail=1; }
grep -qxF "suites: skipped collect-gpu: exit 77, no reason printed" <<<"$out" || { echo "FAIL: collect-gpu: $out"; n_fail=1; }
grep -q "skipped util" <<<"$out" && { echo "FAIL: a passed test listed as skipped"; n_fail=1; }
# the Makefile prints it right after the quick suites' summary, before the slow suite
awk '/^test:/{t=1} t && /suites.sh/{s=NR} t && /--suite slow/{l=NR} END{exit !(s && l && s < l)}' "$SRC/Makefile" ||
    { echo "FAIL: Makefile's test target runs suites.sh after the slow suite"; n_fail=1; }
[ $n_fail = 0 ] && echo "suites: skip reasons listed"
exit $n_fail
