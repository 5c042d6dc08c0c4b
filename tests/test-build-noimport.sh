#!/usr/bin/env bash
# test-build-noimport.sh — a build without json-c says so: configured with -Dimport=disabled (as meson does when
# json-c is missing), `tunecost import` exits 2 with "not available in this build (json-c was not found; ...)",
# not the collector's CUDA message, and `tunecost --help` lists import as not in this build for that reason.
# Builds only the tunecost executable in a scratch build directory (about a minute on 2 cores).
#
# Usage: test-build-noimport.sh SOURCE_ROOT
# Exit: 0 pass, 1 fail, 77 skipped (meson or ninja missing).
set -u
SRC=$(realpath "${1:?usage: test-build-noimport.sh SOURCE_ROOT}")
command -v meson >/dev/null && command -v ninja >/dev/null || { echo "SKIP: meson and ninja are needed"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-noimport.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

meson setup "$TMP/b" "$SRC" -Dimport=disabled -Dcollector=disabled -Dmpi=disabled -Dtests=disabled \
    -Dbuildtype=plain >"$TMP/setup.log" 2>&1 || fail "meson setup: $(tail -n 3 "$TMP/setup.log")"
ninja -C "$TMP/b" tunecost >"$TMP/build.log" 2>&1 || fail "ninja tunecost: $(tail -n 3 "$TMP/build.log")"
"$TMP/b/tunecost" import -o x.h5 y.json >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 2 ] || fail "import in a build without json-c: exit $rc, expected 2: $(cat "$TMP/err")"
[ "$(wc -l <"$TMP/err")" = 1 ] || fail "expected one line on stderr, got: $(cat "$TMP/err")"
grep -q "^tunecost import: not available in this build (json-c was not found; .*-Dimport=enabled)$" "$TMP/err" ||
    fail "import's message does not name json-c: $(cat "$TMP/err")"
grep -qi "cuda" "$TMP/err" && fail "import's message speaks of CUDA: $(cat "$TMP/err")"
"$TMP/b/tunecost" --help | grep -q "^  import .*not in this build: json-c was not found" ||
    fail "--help does not say import is missing for json-c"
echo "noimport: $(cat "$TMP/err")"
