#!/usr/bin/env bash
# test-quickstart.sh — README's quick start in its order, `make demo` then `make check`, must end with every suite
# this machine can run: a build directory configured while the check library was missing (make demo installs the
# build packages only) is reconfigured by the next `make` once it is there, and tests/suites.sh --strict notices
# a suite that is still missing. The missing package is simulated by a pkg-config directory without check.pc;
# only `make configure` runs (no compile), in a scratch build directory.
#
# Usage: test-quickstart.sh SOURCE_DIR
# Exit: 0 pass, 1 fail, 77 skipped (no make, no pkg-config or the check library not installed here).
set -u
SRC=$(realpath "${1:?usage: test-quickstart.sh SOURCE_DIR}")
command -v make >/dev/null && command -v pkg-config >/dev/null || { echo "SKIP: make and pkg-config are needed"; exit 77; }
pkg-config --exists check || { echo "SKIP: the check library is not installed, nothing to hide"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-quick.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
n_fail=0
fail() { n_fail=$((n_fail + 1)); echo "FAIL $*"; }
ok() { echo "ok   $*"; }

# every .pc file pkg-config knows, but check.pc: "check is not installed yet"
mkdir "$TMP/pc"
for d in $(pkg-config --variable pc_path pkg-config | tr ':' ' '); do
    [ -d "$d" ] || continue
    for f in "$d"/*.pc; do [ -e "$f" ] && [ "$(basename "$f")" != check.pc ] && ln -sf "$f" "$TMP/pc/"; done
done
B=$TMP/build
# the check-based unit tests (a few unit tests need no check library: they are not counted)
unit_tests() { meson test -C "$B" --list 2>/dev/null | grep -Ec '^tunecost:unit / (util|trace|sim-model|tables|plan)$'; }

# "make demo": configured without check
PKG_CONFIG_LIBDIR=$TMP/pc make -s -C "$SRC" configure BUILD="$B" >"$TMP/demo.log" 2>&1 || { cat "$TMP/demo.log"; echo "FAIL: configure"; exit 1; }
n0=$(unit_tests)
[ "$n0" = 0 ] && ok "configured without check: no unit tests ($n0)" || fail "the hidden check library was found ($n0 unit tests)"
"$SRC/tests/suites.sh" "$B" --strict >"$TMP/s0.txt" 2>&1
[ $? = 1 ] && grep -q "MISSING unit suites" "$TMP/s0.txt" && ok "suites.sh --strict fails while the unit suites are missing" ||
    fail "suites.sh did not notice: $(cat "$TMP/s0.txt")"

# "make check" after deps-test installed check: the next make reconfigures
make -s -C "$SRC" configure BUILD="$B" >"$TMP/check.log" 2>&1 || { cat "$TMP/check.log"; echo "FAIL: reconfigure"; exit 1; }
n1=$(unit_tests)
grep -q "reconfiguring" "$TMP/check.log" && [ "$n1" -gt 0 ] && ok "check installed: reconfigured, $n1 unit tests" ||
    fail "not reconfigured ($n1 unit tests): $(tail -3 "$TMP/check.log")"
"$SRC/tests/suites.sh" "$B" >"$TMP/s1.txt" 2>&1
grep -q "MISSING unit" "$TMP/s1.txt" && fail "suites.sh still misses the unit suites" || ok "suites.sh: unit suites present"
# nothing changed: no second reconfigure
make -s -C "$SRC" configure BUILD="$B" >"$TMP/again.log" 2>&1
grep -q "reconfiguring" "$TMP/again.log" && fail "reconfigured with nothing new" || ok "no reconfigure when nothing changed"

[ "$n_fail" = 0 ] || { echo "$n_fail check(s) failed"; exit 1; }
echo "all quick-start checks passed"
