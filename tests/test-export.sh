#!/usr/bin/env bash
# test-export.sh — `tunecost export kerneltuner|t4` on tracegen's small trace (every number listed in
# tests/tracegen.c) and on the shipped reference trace: the files hold the values worked out by hand below, a Kernel
# Tuner cache ends as Kernel Tuner's reader wants, and importing an exported file gives back the same best
# configuration with the same median (the round trip). Needs no network: the files are read with Python's json.
#
# Usage: test-export.sh TUNECOST TRACEGEN REFERENCE_TRACE
# Exit: 0 pass, 1 fail, 77 skipped (no python3, or import not built).
set -u
TUNECOST=$(realpath "${1:?usage: test-export.sh TUNECOST TRACEGEN REFERENCE_TRACE}")
TRACEGEN=$(realpath "${2:?usage}")
REF=$(realpath "${3:?usage}")
PY=python3
"$PY" -c 'import json' 2>/dev/null || { echo "SKIP: python3 is needed"; exit 77; }
"$TUNECOST" import --help >/dev/null 2>&1 || { echo "SKIP: tunecost import is not built (json-c missing)"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-export.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
n_fail=0
fail() { n_fail=$((n_fail + 1)); echo "FAIL $*"; }
ok() { echo "ok   $*"; }
T() { "$TUNECOST" "$@"; }
# pycheck FILE PYTHON: runs the assertions with d = the parsed JSON file, raw = its text
pycheck() {
    "$PY" - "$1" "$2" <<'PYEOF'
import json, sys
raw = open(sys.argv[1]).read()
d = json.loads(raw)
exec(sys.argv[2])
PYEOF
}
# best FILE.h5 INPUT: "params median_ns" of the input's best configuration, from `tunecost info --json`
best() {
    T info --json "$1" | "$PY" -c "import json,sys; b=json.load(sys.stdin)['best'][$2]; print(','.join(map(str,b['params'])), b['median_ns'])"
}

"$TRACEGEN" small small.h5 || { echo "FAIL tracegen"; exit 1; }

# ---- Kernel Tuner cache of input 0 (1024x1024x1024) ----------------------------------------------------------
# tracegen small, input 0: config 0 (64,64,32,8,3,4) ok, timed 10000 12000 11000 ns -> median 11000 ns = 0.011 ms,
# compile 100 ms, wall 5 ms; config 1 (128,128,64,8,4,8) ok, timed 8000 9000 8500 100000 -> median 8750 ns, compile
# 300, wall 6; config 2 out of resources (a run without executions) -> InvalidConfig, compile time 0; config 3 has no
# run and compile status "compile error" -> CompilationFailedConfig, compile 50 ms. tune_params: each parameter's
# distinct values ascending.
if T export kerneltuner small.h5 -o kt0.json -q && pycheck kt0.json '
c = d["cache"]
assert d["tune_params_keys"] == ["BLOCK_M","BLOCK_N","BLOCK_K","GROUP_M","NUM_STAGES","NUM_WARPS"], d["tune_params_keys"]
assert d["tune_params"]["BLOCK_M"] == [64,128,256] and d["tune_params"]["NUM_WARPS"] == [4,8], d["tune_params"]
assert d["problem_size"] == [1024,1024,1024] and d["objective"] == "time"
assert list(c) == ["64,64,32,8,3,4","128,128,64,8,4,8","256,256,64,8,5,8","128,64,32,8,3,4"], list(c)
a = c["64,64,32,8,3,4"]
assert a["times"] == [0.010, 0.012, 0.011] and a["time"] == 0.011, a
assert a["compile_time"] == 100 and a["benchmark_time"] == 5 and a["BLOCK_K"] == 32, a
b = c["128,128,64,8,4,8"]
assert b["time"] == 0.00875 and b["times"] == [0.008, 0.009, 0.0085, 0.1] and b["benchmark_time"] == 6, b
assert c["256,256,64,8,5,8"]["__error__"] == "InvalidConfig" and c["256,256,64,8,5,8"]["compile_time"] == 0
assert c["128,64,32,8,3,4"]["__error__"] == "CompilationFailedConfig" and c["128,64,32,8,3,4"]["compile_time"] == 50
for e in c.values():
    for k in ("compile_time", "verification_time", "benchmark_time"):   # simulation mode with a time limit needs them
        assert isinstance(e[k], (int, float)), (k, e)
# kernel_tuner.util.correct_open_cache: a closed cache ends in "}\n}" once stripped, else it appends one
assert raw.strip()[-3:] == "}\n}", repr(raw[-10:])
'; then ok "kerneltuner: the small trace's input 0 by hand"; else fail "kerneltuner: the small trace's input 0"; fi

# ---- T4 of input 1 (4096x256x4096) ---------------------------------------------------------------------------
# input 1: config 0 ok, timed 50000 40000 45000 -> median 0.045 ms; config 1 launch error -> "runtime"; config 2
# no run, status out of resources -> "constraints"; config 3 compile error -> "compile".
if T export t4 small.h5 -i 4096x256x4096 -o t4.json -q && pycheck t4.json '
assert d["schema_version"] == "1.0.0" and d["metadata"]["timeunit"] == "milliseconds"
r = d["results"]
assert [x["invalidity"] for x in r] == ["correct", "runtime", "constraints", "compile"], [x["invalidity"] for x in r]
for x in r:   # the schema (results-schema.json) requires these four
    assert all(k in x for k in ("configuration", "times", "invalidity", "correctness")), x
assert r[0]["configuration"] == {"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":32,"GROUP_M":8,"NUM_STAGES":3,"NUM_WARPS":4}
assert r[0]["times"]["runtimes"] == [0.05, 0.04, 0.045] and r[0]["times"]["compilation_time"] == 100
assert r[0]["times"]["benchmark"] == 3 and r[0]["measurements"] == [{"name":"time","value":0.045,"unit":"ms"}]
assert r[1]["times"]["runtimes"] == [] and r[1]["measurements"][0]["value"] == "RuntimeFailedConfig"
'; then ok "t4: the small trace's input 1 by hand"; else fail "t4: the small trace's input 1"; fi

# ---- round trips: import gives back the best configuration and its median ------------------------------------
# input 0's best is config 1 (128,128,64,8,4,8), median 8750 ns; input 1's is config 0 (64,64,32,8,3,4), 45000 ns
T export kerneltuner small.h5 -i 4096x256x4096 -o kt1.json -q
for f in kt0 kt1 t4; do
    fmt=kerneltuner; [ $f = t4 ] && fmt=t4
    T import $fmt $f.json -o $f.h5 -q >/dev/null 2>&1 || fail "import $f.json"
done
[ "$(best kt0.h5 0)" = "128,128,64,8,4,8 8750" ] && ok "round trip kerneltuner, input 0" ||
    fail "round trip kerneltuner input 0: $(best kt0.h5 0)"
[ "$(best kt1.h5 0)" = "64,64,32,8,3,4 45000" ] && ok "round trip kerneltuner, input 1" ||
    fail "round trip kerneltuner input 1: $(best kt1.h5 0)"
[ "$(best t4.h5 0)" = "64,64,32,8,3,4 45000" ] && ok "round trip t4, input 1" || fail "round trip t4: $(best t4.h5 0)"
# the statuses come back: input 1 has one ok, one launch error, one out of resources, one compile error
st=$(T info --json kt1.h5 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["runs"]["by_status"])')
[ "$st" = "{'ok': 1, 'compile error': 1, 'out of resources': 1, 'launch error': 1, 'wrong result': 0}" ] &&
    ok "round trip keeps every status" || fail "statuses after the round trip: $st"

# the shipped reference trace, its largest input: the same best configuration and median after the round trip
if [ -f "$REF" ]; then
    want=$(T info --json "$REF" | "$PY" -c '
import json,sys
for b in json.load(sys.stdin)["best"]:
    if b["dims"] == [4096,4096,4096]: print(",".join(map(str,b["params"])), b["median_ns"])')
    T export kerneltuner "$REF" -i 4096x4096x4096 -o ref.json -q && T import kerneltuner ref.json -o ref.h5 -q >/dev/null 2>&1
    got=$(best ref.h5 0)
    [ -n "$want" ] && [ "$got" = "$want" ] && ok "round trip of the reference trace: $got" ||
        fail "round trip of the reference trace: want '$want', got '$got'"
fi

# tracegen empty: the same configurations, no runs: configs 0 and 1 compiled but were never measured (nothing to
# replay: left out, and said so), 2 out of resources and 3 a compile error are written with their markers; the
# tune_params grid (BLOCK_M 3 x BLOCK_N 3 x BLOCK_K 2 x GROUP_M 1 x NUM_STAGES 3 x NUM_WARPS 2 = 108 points) is larger
# than the cache, so the note says Kernel Tuner needs the restriction (docs/kt-simulate.py)
"$TRACEGEN" empty empty.h5 && T export kerneltuner empty.h5 -o e.json 2>e.txt && pycheck e.json '
c = d["cache"]
assert list(c) == ["256,256,64,8,5,8", "128,64,32,8,3,4"], list(c)
assert c["256,256,64,8,5,8"]["__error__"] == "InvalidConfig" and c["128,64,32,8,3,4"]["__error__"] == "CompilationFailedConfig"
' && grep -q "2 never measured on this input left out; no valid configuration" e.txt &&
    grep -q "note: tune_params span 108 configurations, the cache holds 2: run Kernel Tuner's simulation mode with the restriction" e.txt &&
    ok "never-measured configurations left out, and said so" || fail "empty trace: $(cat e.txt)"

# ---- values: escaped once, never cut, Python's str() in keys, a metric objective kept ---------------------------
# A hand-built Kernel Tuner cache (written here, not a measurement): a string parameter S with a quote, a backslash,
# a tab, two 256-byte values sharing their first 255 bytes and one with the byte 0xff (not UTF-8); F a float
# (1.0, 1e-05), B True, N None. Objective GFLOPs, higher is better: entry i (1..12) has time i ms and GFLOPs 100/i,
# except entry 3 (back\slash, 1.0) with 1000: the best configuration by GFLOPs (entry 1 is the best by time).
"$PY" - <<'PYEOF'
import json
vals = ['a"b', 'back\\slash', 'tab\there', 'x' * 255 + 'A', 'x' * 255 + 'B', 'badQQ']
cache, i = {}, 0
for s in vals:
    for f in (1.0, 1e-05):
        i += 1
        cache[",".join(str(x) for x in (s, f, True, None))] = {"S": s, "F": f, "B": True, "N": None, "time": float(i),
            "times": [float(i)], "GFLOPs": 1000.0 if i == 3 else 100.0 / i, "compile_time": 1, "verification_time": 0,
            "benchmark_time": 1, "strategy_time": 0, "framework_time": 0}
d = {"device_name": "GPU", "kernel_name": "k", "problem_size": [7, 8, 9], "tune_params_keys": ["S", "F", "B", "N"],
     "tune_params": {"S": vals, "F": [1.0, 1e-05], "B": [True], "N": [None]}, "objective": "GFLOPs",
     "objective_higher_is_better": True, "cache": cache}
open("vals.json", "wb").write(json.dumps(d).replace("QQ", "\udcff").encode("utf-8", "surrogateescape"))
PYEOF
T import kerneltuner vals.json -o vals.h5 -q >/dev/null 2>&1 || fail "import of the hand-built value cache"
for f in kerneltuner t4; do T export $f vals.h5 -o vals-$f.json -q || fail "export $f of the value trace"; done
# Python reads both files (strict UTF-8); the key of every entry is ','.join(str(v)) of its values (Kernel Tuner's
# rule); the strings come back as they went in; 12 distinct entries (the 256-byte values not cut to one)
if pycheck vals-kerneltuner.json '
c = d["cache"]
assert len(c) == 12, len(c)
for k, v in c.items():
    assert k == ",".join(str(v[p]) for p in d["tune_params_keys"]), (k, v)
S = sorted({v["S"] for v in c.values()})
assert S == sorted([chr(34).join("ab"), "back" + chr(92) + "slash", "tab" + chr(9) + "here", "x" * 255 + "A",
                    "x" * 255 + "B", "bad" + chr(0xfffd)]), S
assert "a" + chr(34) + "b,1.0,True,None" in c and "a" + chr(34) + "b,1e-05,True,None" in c, list(c)[:2]
assert d["objective"] == "GFLOPs" and d["objective_higher_is_better"] is True
assert c["back" + chr(92) + "slash,1.0,True,None"]["GFLOPs"] == 1000.0
assert sorted(d["tune_params"]["S"]) == S, d["tune_params"]["S"]
' && pycheck vals-t4.json '
r = d["results"]
assert len(r) == 12 and sorted({x["configuration"]["S"] for x in r})[0] == chr(34).join("ab")
assert d["metadata"]["problem_size"] == [7, 8, 9]
assert d["metadata"]["objective"] == "GFLOPs" and d["metadata"]["objective_higher_is_better"] is True
g = [m["value"] for x in r for m in x["measurements"] if m["name"] == "GFLOPs"]
assert len(g) == 12 and max(g) == 1000.0 and all(x["objectives"] == ["GFLOPs"] for x in r), g
'; then ok "values escaped once, not cut, keys as Python str(), objective kept"; else fail "value export"; fi
# the round trip: the same best configuration (entry 3 by GFLOPs); T4 keeps the problem size
T import kerneltuner vals-kerneltuner.json -o vals-back.h5 -q >/dev/null 2>&1 || fail "re-import of the value cache"
b=$(T info --json vals-back.h5 | "$PY" -c "import json,sys; b=json.load(sys.stdin)['best'][0]; print(b['params'], b['dims'])")
[ "$b" = '['"'"'back\\slash'"'"', 1.0, True, None] [7, 8, 9]' ] && ok "round trip keeps a GFLOP/s objective's best" ||
    fail "round trip with a GFLOP/s objective: $b"
T import t4 vals-t4.json -o vals-t4.h5 -q >/dev/null 2>&1 || fail "re-import of the value T4 file"
b=$(T info --json vals-t4.h5 | "$PY" -c "import json,sys; b=json.load(sys.stdin)['best'][0]; print(b['params'], b['dims'])")
[ "$b" = '['"'"'back\\slash'"'"', 1.0, True, None] [7, 8, 9]' ] &&
    ok "T4 round trip keeps the problem size and the GFLOP/s objective's best" || fail "T4 round trip: $b"

# float values in keys: Python's str() of each (shortest digits; fixed notation for exponents -4 to 15, else
# scientific): a hand-built cache of ten floats, each entry's key str(F); exported, every key must again be str(F)
"$PY" - <<'PYEOF'
import json
fl = [1e16, 0.1, 1234.5, 1.5e-7, 123456789012345.6, 1e-4, 2.5e+20, 0.30000000000000004, 100.0, -0.0001]
cache = {str(f): {"F": f, "time": 1.0 + i, "times": [1.0 + i], "compile_time": 1, "verification_time": 0,
                  "benchmark_time": 1} for i, f in enumerate(fl)}
json.dump({"device_name": "G", "kernel_name": "k", "problem_size": [1], "tune_params_keys": ["F"],
           "tune_params": {"F": fl}, "objective": "time", "cache": cache}, open("floats.json", "w"))
PYEOF
if T import kerneltuner floats.json -o floats.h5 -q >/dev/null 2>&1 && T export kerneltuner floats.h5 -o floats-out.json -q &&
    pycheck floats-out.json '
c = d["cache"]
assert len(c) == 10 and all(k == str(v["F"]) for k, v in c.items()), [(k, v["F"]) for k, v in c.items()]
'; then ok "float keys as Python's str()"; else fail "float keys"; fi

# a trace without configurations (tracegen noconfigs): nothing import could read back, so a one-line refusal, exit 2,
# no file, in both formats
"$TRACEGEN" noconfigs nc.h5 || fail "tracegen noconfigs"
for f in kerneltuner t4; do
    T export $f nc.h5 -o nc.json 2>err.txt; rc=$?
    [ $rc = 2 ] && [ ! -e nc.json ] && [ "$(wc -l <err.txt)" = 1 ] && grep -q "no configuration to export" err.txt &&
        ok "$f: a trace without configurations refused" || fail "$f: no configurations: rc $rc $(cat err.txt)"
done

# a full disk (a 16 KiB tmpfs, where this runs as root and may mount one): exit 1, one line with the OS's reason, no
# file left
mkdir -p full
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=16k tmpfs full 2>/dev/null; then
    T export kerneltuner "$REF" -i 4096x4096x4096 -o full/x.json 2>err.txt; rc=$?
    left=$(ls -A full)
    umount full
    [ $rc = 1 ] && [ "$(wc -l <err.txt)" = 1 ] && grep -q "No space left on device" err.txt && [ -z "$left" ] &&
        ok "a full disk: exit 1 with the OS's reason, nothing left" || fail "full disk: rc $rc, $(cat err.txt), left '$left'"
else
    echo "note: the full-disk check needs root and tmpfs (not run here)"
fi

# ---- usage errors: exit 2, nothing written -------------------------------------------------------------------
T export csv small.h5 -o bad.json 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q "FORMAT" err.txt && [ ! -e bad.json ] && ok "unknown format: exit 2" || fail "unknown format: rc $rc"
T export kerneltuner small.h5 -i 7x7x7 -o bad.json 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q "7x7x7" err.txt && [ ! -e bad.json ] && ok "unknown input: exit 2" || fail "unknown input: rc $rc"
T export kerneltuner small.h5 -o kt0.json 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q "force" err.txt && ok "existing output refused without --force" || fail "existing output: rc $rc"
T export kerneltuner small.h5 -o small.h5 -f 2>err.txt; rc=$?
[ $rc = 2 ] && "$TUNECOST" info small.h5 >/dev/null && ok "the trace itself as output refused" || fail "output = input: rc $rc"
T export kerneltuner 2>err.txt; rc=$?
[ $rc = 2 ] && ok "missing -o: exit 2" || fail "missing -o: rc $rc"

[ $n_fail = 0 ] && echo "all passed" || echo "$n_fail failed"
[ $n_fail = 0 ]
