#!/bin/sh
# test-trace-doc.sh — runs the h5py examples of docs/trace-format.md as they stand in the document: writes a
# trace from Python, reads it from Python and with `tunecost info`, and reads tracegen's hand-built trace from
# Python. Skips (77) where /usr/bin/python3 (or python3) lacks h5py.
# usage: test-trace-doc.sh TUNECOST TRACEGEN docs/trace-format.md
set -u
TC=$1
GEN=$2
DOC=$3
PY=/usr/bin/python3
if ! "$PY" -c 'import h5py, numpy' 2>/dev/null; then
    PY=$(command -v python3 || true)
    if [ -z "$PY" ] || ! "$PY" -c 'import h5py, numpy' 2>/dev/null; then
        echo "SKIP: no python3 with h5py and numpy"
        exit 77
    fi
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-trace-doc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# Each ```python block that starts with "# file: NAME" becomes $tmp/NAME.
awk -v dir="$tmp" '
    /^```python$/ { inblock = 1; name = ""; next }
    /^```$/ && inblock { inblock = 0; if (name != "") close(dir "/" name); next }
    inblock && name == "" && /^# file: / { split($3, a, " "); name = a[1] }
    inblock && name != "" { print > (dir "/" name) }
' "$DOC"
for f in read_trace.py write_trace.py; do
    [ -s "$tmp/$f" ] || { echo "FAIL: $DOC has no python block '# file: $f'"; exit 1; }
done

"$PY" "$tmp/write_trace.py" "$tmp/example.h5" || fail "write_trace.py failed"
"$PY" "$tmp/read_trace.py" "$tmp/example.h5" >"$tmp/out" || fail "read_trace.py example.h5 failed"
grep -qxF "4096x4096x4096: config 0 [128, 128, 64, 8, 4, 8] median 235500 ns, 583.6 TFLOP/s" "$tmp/out" ||
    fail "read_trace.py example.h5 printed: $(cat "$tmp/out")"
"$TC" info "$tmp/example.h5" >"$tmp/info" 2>&1 || fail "tunecost info on the h5py-written trace: $(cat "$tmp/info")"
grep -Eq '^  4096x4096x4096 +0  128,128,64,8,4,8 +235\.5 us +583\.6 +0\.205 +0\.870$' "$tmp/info" ||
    fail "tunecost info on example.h5: $(tail -2 "$tmp/info")"

"$GEN" small "$tmp/small.h5" || fail "tracegen failed"
"$PY" "$tmp/read_trace.py" "$tmp/small.h5" >"$tmp/out" || fail "read_trace.py small.h5 failed"
grep -qxF "1024x1024x1024: config 1 [128, 128, 64, 8, 4, 8] median 8750 ns, 245.4 TFLOP/s" "$tmp/out" ||
    fail "read_trace.py small.h5 printed: $(cat "$tmp/out")"
grep -qxF "4096x256x4096: config 0 [64, 64, 32, 8, 3, 4] median 45000 ns, 190.9 TFLOP/s" "$tmp/out" ||
    fail "read_trace.py small.h5 printed: $(cat "$tmp/out")"

[ $fails -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all checks passed"
