#!/usr/bin/env bash
# test-floors-probes.sh — the loopholes of tests/check-floors.sh, each closed: on a scratch tree that passes, one
# probe at a time must make it fail with its rule's message: (1) a 101-line function whose '{' sits on the signature
# line; (2) analysis/ including a private header of simulate/ (sim_internal.h); (3) a 101-line CUDA kernel in
# kernels/*.cu; (4) two files of a module that reference each other only through data (a registry holding the
# address of an object whose file calls the registry's file), seen by nm on the compiled objects; (5) a report
# section calling a function of another section (declared by hand, past the sections header); (6) a section
# reading another section's data, seen by nm; (7) a section including the sections header, which only the
# registry (analysis/report.c) may.
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

# Report sections (hand-built, in the shape of analysis/): a registry running two sections that share a lower file.
sections() {
    base
    printf '/* report_sections.h */\nint report_a(void);\nint report_b(void);\n' >"$tmp/t/analysis/report_sections.h"
    printf '/* report_low.h */\nint report_low(void);\nextern const int report_b_names[2];\n' \
        >"$tmp/t/analysis/report_low.h"
    printf '#include "report_low.h"\n\nint report_low(void)\n{\n    return 3;\n}\n' >"$tmp/t/analysis/report_low.c"
    printf '#include "report_sections.h"\n\nint report_run(void)\n{\n    return report_a() + report_b();\n}\n' \
        >"$tmp/t/analysis/report.c"
    printf '#include "report_low.h"\n\nint report_a(void)\n{\n    return report_low();\n}\n' \
        >"$tmp/t/analysis/report_a.c"
    printf '#include "report_low.h"\n\nconst int report_b_names[2] = {1, 2};\n\n' >"$tmp/t/analysis/report_b.c"
    printf 'int report_b(void)\n{\n    return report_low();\n}\n' >>"$tmp/t/analysis/report_b.c"
}
# compile SRC...: analysis/SRC.c into the build tree check-floors reads (analysis/*.a.p/SRC.c.o)
compile() {
    rm -rf "$tmp/b" && mkdir -p "$tmp/b/analysis/liba.a.p"
    for f in "$@"; do
        "$CC" -c -o "$tmp/b/analysis/liba.a.p/$f.c.o" "$tmp/t/analysis/$f.c" || fail "cannot compile $f.c"
    done
}
sections
compile report report_a report_b report_low
bash "$FLOORS" "$tmp/t" "$tmp/b" >/dev/null 2>&1 ||
    fail "the sections tree does not pass: $(bash "$FLOORS" "$tmp/t" "$tmp/b" 2>&1)"

sections # (5) section a calls section b's entry point, declared by hand
printf '#include "report_low.h"\n\nint report_b(void);\n\nint report_a(void)\n{\n    return report_b();\n}\n' \
    >"$tmp/t/analysis/report_a.c"
expect "section calling a section" "section analysis/report_a.c calls report_b of section analysis/report_b.c"

sections # (6) section a reads section b's data: only nm sees it
printf '#include "report_low.h"\n\nint report_a(void)\n{\n    return report_b_names[0];\n}\n' \
    >"$tmp/t/analysis/report_a.c"
compile report report_a report_b report_low
bash "$FLOORS" "$tmp/t" >/dev/null 2>&1 || fail "a data reference is seen without BUILD_DIR (the probe is not one)"
expect "section reading a section's data" \
    "section analysis/report_a.c references report_b_names of section analysis/report_b.c (nm" "$tmp/b"

sections # (7) a section including the sections header
sed -i '1i #include "report_sections.h"' "$tmp/t/analysis/report_a.c"
expect "section including the sections header" "analysis/report_a.c includes report_sections.h: only analysis/report.c"

[ $fails -eq 0 ]
