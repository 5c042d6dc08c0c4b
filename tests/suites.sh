#!/usr/bin/env bash
# suites.sh — which test suites this machine can run, which the build directory holds, and which are skipped
# and why (each test the last `meson test` skipped, with the reason it printed). `make test` prints it right after
# meson's summary of the quick suites; with --strict (make check, .ci/run) it fails when a suite this
# machine can run is missing from the build directory (configured before its dependency was installed).
#
# Usage: tests/suites.sh BUILD_DIR [--strict]
# Exit: 0; 1 with --strict when a suite is missing; 2 usage.
set -u
BUILD=${1:?usage: suites.sh BUILD_DIR [--strict]}
STRICT=${2:-}
[ -f "$BUILD/build.ninja" ] || { echo "suites.sh: $BUILD is not a configured build directory" >&2; exit 2; }
list=$(meson test -C "$BUILD" --list 2>/dev/null) || { echo "suites.sh: cannot list the tests of $BUILD" >&2; exit 2; }
cudadir=$(meson introspect "$BUILD" --buildoptions 2>/dev/null |
    python3 -c 'import json,sys; print(next((o["value"] for o in json.load(sys.stdin) if o["name"] == "cudadir"), "/usr/local/cuda"))' 2>/dev/null)
cudadir=${cudadir:-/usr/local/cuda}
n_missing=0
has_test() { grep -q " / $1\$" <<<"$list"; }
missing() { n_missing=$((n_missing + 1)); echo "suites: MISSING $1"; }
skipped() { echo "suites: skipped here: $1"; }

for s in unit integration gpu slow fuzz; do
    printf 'suites: %-12s %3d tests\n' "$s" "$(grep -Ec "^tunecost:([a-z]+\+)*$s(\+[a-z]+)* / " <<<"$list")"
done

# The tests meson just counted as skipped, each with its reason (the SKIP line it printed), from the last run's log:
# right after meson's summary, not after the slow suite.
TESTLOG=${SUITES_TESTLOG:-$BUILD/meson-logs/testlog.json} # the variable: for tests/test-suites.sh
if [ -f "$TESTLOG" ]; then
    python3 - "$TESTLOG" <<'PYEOF' 2>/dev/null
import json, sys
for line in open(sys.argv[1]):
    try:
        t = json.loads(line)
    except ValueError:
        continue
    if t.get("result") == "SKIP":
        out = [l for l in (t.get("stdout") or "").splitlines() if l.strip()]
        why = next((l for l in out if "SKIP" in l.upper()), out[-1] if out else "exit 77, no reason printed")
        print("suites: skipped %s: %s" % (t.get("name", "?").split(" / ")[-1], why.strip()[:200]))
PYEOF
fi

have_check=0; pkg-config --exists check 2>/dev/null && have_check=1
have_cuda=0; [ -e "$cudadir/lib64/libnvrtc.so" ] && have_cuda=1
have_mpi=0; { pkg-config --exists ompi-c || pkg-config --exists mpi; } 2>/dev/null && have_mpi=1

if [ "$have_check" = 1 ]; then
    has_test util || missing "unit suites: the check library is installed, but $BUILD was configured without it (meson setup --reconfigure $BUILD)"
else
    skipped "the check-based unit and integration tests (trace, sim, tables, merge, ...): the check library is not installed (make deps-test)"
fi
if pkg-config --exists json-c 2>/dev/null; then
    "$BUILD/tunecost" import --help >/dev/null 2>&1 ||
        missing "import: json-c is installed, but tunecost import was built without it (meson setup --reconfigure $BUILD)"
else
    skipped "import (its test exits 77): json-c is not installed (make deps)"
fi
if [ "$have_cuda" = 1 ] && [ "$have_check" = 1 ]; then
    has_test collect-compile || missing "collect-compile: the CUDA toolkit is at $cudadir, but $BUILD was configured without it"
    if [ "$have_mpi" = 1 ]; then
        has_test collect-mpi || missing "collect-mpi: Open MPI is installed, but $BUILD was configured without it"
    else
        skipped "collect-mpi: Open MPI is not installed (make deps)"
    fi
elif [ "$have_cuda" = 0 ]; then
    skipped "collect-compile, collect-compile-all, collect-gpu, collect-mpi, kill-resume: no CUDA toolkit at $cudadir"
fi
if ! [ -e /dev/nvidia0 ] && ! command -v nvidia-smi >/dev/null 2>&1; then
    skipped "suite gpu (its tests exit 77): no NVIDIA GPU on this machine"
fi
command -v chromium >/dev/null 2>&1 || skipped "report-chromium (exits 77): chromium is not installed (make deps-test)"
/usr/bin/python3 -c 'import h5py, numpy' 2>/dev/null ||
    skipped "corpus, reliability, import, atomic, options and the Python cross-checks (exit 77): python3-h5py is not installed (make deps-test)"
command -v valgrind >/dev/null 2>&1 || skipped "meson test --setup valgrind: valgrind is not installed"

if [ "$n_missing" -gt 0 ]; then
    echo "suites: $n_missing suite(s) this machine can run are missing from $BUILD"
    [ "$STRICT" = --strict ] && exit 1
fi
exit 0
