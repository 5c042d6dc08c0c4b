#!/usr/bin/env bash
# test-floors-probes.sh — the loopholes of tests/check-floors.sh, each closed: on a scratch tree that passes, one
# probe at a time must make it fail with its rule's message: (1) a 101-line function whose '{' sits on the signature
# line; (2) analysis/ including a private header of simulate/ (sim_internal.h); (3) a 101-line CUDA kernel in
# kernels/*.cu; (4) two files of a module that reference each other only through data (a registry holding the
# address of an object whose file calls the registry's file), seen by nm on the compiled objects.
# Usage: test-floors-probes.sh SOURCE_ROOT        Exit: 0 pass, 1 fail, 77 no C compiler or nm.
set -u
FLOORS=$(realpath "${1:?usage: test-floors-probes.sh SOURCE_ROOT}")/tests/check-floors.sh
CC=${CC:-cc}
command -v "$CC" >/dev/null && command -v nm >/dev/null || { echo "SKIP: no $CC or nm"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-floors-probes.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# A tree that passes: one util file, empty entry points.
base() {
    rm -rf "$tmp/t" && mkdir -p "$tmp/t/util" "$tmp/t/simulate" "$tmp/t/analysis" "$tmp/t/kernels"
    : >"$tmp/t/tunecost.c"
    : >"$tmp/t/tunecost.h"
    printf '/* u.h */\nint u_one(void);\n' >"$tmp/t/util/u.h"
    printf '#include "u.h"\n\nint u_one(void)\n{\n    return 1;\n}\n' >"$tmp/t/util/u.c"
}
body() { for i in $(seq 1 "$1"); do echo "    x += $i;"; done; }
# expect NAME PATTERN [BUILD]: check-floors fails and says PATTERN
expect() {
    local out
    out=$(bash "$FLOORS" "$tmp/t" ${3:+"$3"} 2>&1) && { fail "$1: check-floors passed"; return; }
    grep -q -- "$2" <<<"$out" && echo "ok   $1" || fail "$1: no '$2' in: $out"
}

base
bash "$FLOORS" "$tmp/t" >/dev/null 2>&1 || fail "the base tree does not pass: $(bash "$FLOORS" "$tmp/t" 2>&1)"

base # (1) the brace on the signature line
{ echo 'int u_long(int x) {'; body 101; echo '    return x;'; echo '}'; } >"$tmp/t/util/long.c"
expect "brace on the signature line" "function over 100 lines: util/long.c:1: 102 lines"

base # (2) analysis/ including simulate's private header
printf '/* sim_internal.h */\nint sim_x(void);\n' >"$tmp/t/simulate/sim_internal.h"
printf '#include "sim_internal.h"\n' >"$tmp/t/analysis/a.c"
expect "private header" "analysis/a.c (analysis) includes sim_internal.h, private to simulate"

base # (3) a long CUDA kernel
{ echo '__global__ void k(int *p)'; echo '{'; echo '    int x = 0;'; body 100; echo '}'; } >"$tmp/t/kernels/k.cu"
expect "long .cu kernel" "function over 100 lines: kernels/k.cu"

base # (4) a circle by data reference: reg.c holds &ops_a, a.c calls reg.c's helper
printf 'extern const int ops_a;\nconst int *const reg[] = {&ops_a, 0};\n\nint reg_helper(void)\n{\n    return 2;\n}\n' \
    >"$tmp/t/simulate/reg.c"
printf 'int reg_helper(void);\nconst int ops_a = 1;\n\nstatic int a_use(void)\n{\n    return reg_helper();\n}\n' \
    >"$tmp/t/simulate/a.c"
printf 'int (*const a_keep)(void) = a_use;\n' >>"$tmp/t/simulate/a.c"
mkdir -p "$tmp/b/simulate/libx.a.p"
for f in reg a; do
    "$CC" -c -o "$tmp/b/simulate/libx.a.p/$f.c.o" "$tmp/t/simulate/$f.c" || { fail "cannot compile $f.c"; }
done
bash "$FLOORS" "$tmp/t" >/dev/null 2>&1 || fail "the data circle is seen without BUILD_DIR (the probe is not one)"
expect "circle by data reference" "circle: simulate/a.c and simulate/reg.c reference each other" "$tmp/b"

[ $fails -eq 0 ]
