#!/usr/bin/env bash
# test-install.sh — the installed program finds its shipped files (util/tc_paths).
# `meson install --destdir D` puts the binary at D/PREFIX/BINDIR/tunecost, the traces at D/PREFIX/DATADIR/tunecost/
# and the gnuplot scripts at D/PREFIX/DATADIR/tunecost/plots/; the binary looks in its own installation
# (BINDIR/../DATADIR/tunecost) before the source tree, so the staged copy must report that path as its default
# TRACE and read it: `info` with no TRACE must print the shipped trace's summary, byte for byte the same as
# `info data/gemm-h200.h5` from the checkout. Then, with $TUNECOST_SOURCE_ROOT naming an empty folder (so the
# binary's fallback to the source tree finds nothing; the checkout itself is never touched), the installed
# `policies` and `report` draw every figure from the installed scripts.
#
# Usage: test-install.sh BUILD_DIR PREFIX BINDIR DATADIR SOURCE_ROOT MANDIR "CMD..."
# Exit: 0 pass, 1 fail, 77 skipped (bindir or datadir is absolute: no relocatable layout to check).
set -u
BUILD=${1:?usage: test-install.sh BUILD_DIR PREFIX BINDIR DATADIR SOURCE_ROOT}
PREFIX=${2:?} BINDIR=${3:?} DATADIR=${4:?} SRC=${5:?} MANDIR=${6:?} DOC_CMDS=${7:?}
case "$BINDIR$DATADIR" in /*) echo "SKIP: absolute bindir or datadir"; exit 77 ;; esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-install.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

meson install -C "$BUILD" --no-rebuild --destdir "$TMP/dest" --quiet >"$TMP/log" 2>&1 ||
    fail "meson install --destdir: $(tail -n 3 "$TMP/log")"
ROOT=$TMP/dest$PREFIX
EXE=$ROOT/$BINDIR/tunecost
DATA=$ROOT/$DATADIR/tunecost/gemm-h200.h5
[ -x "$EXE" ] || fail "no installed binary at $EXE"
[ -f "$DATA" ] || fail "no installed trace at $DATA"
cmp -s "$DATA" "$SRC/data/gemm-h200.h5" || fail "$DATA differs from data/gemm-h200.h5"
for f in manifest.tsv gemm-h200-triton.h5 gemm-h200-full.h5 gemm-h100-full.h5 gemm-h100-compile.h5 flush-study/gemm-h200-flush-0.h5 compile-scaling; do
    [ -e "$ROOT/$DATADIR/tunecost/$f" ] || fail "not installed: $DATADIR/tunecost/$f"
done
# The default named in --help is the installed copy (resolved through the binary's folder).
want=$(realpath "$DATA")
got=$("$EXE" simulate --help | tr '\n' ' ' | sed -n 's/.*  TRACE  *trace file (default: *\([^ )]*\).*/\1/p')
[ -n "$got" ] || fail "simulate --help names no default TRACE"
[ "$(realpath "$got")" = "$want" ] || fail "installed binary's default is '$got', expected $want"
# A man page per declared command, and the completions, generated from the declarations.
for c in $DOC_CMDS; do
    [ -s "$ROOT/$MANDIR/man1/tunecost-$c.1" ] || fail "not installed: $MANDIR/man1/tunecost-$c.1"
done
[ -s "$ROOT/$MANDIR/man1/tunecost.1" ] || fail "not installed: $MANDIR/man1/tunecost.1 (man tunecost)"
grep -q '^\.SH COMMANDS' "$ROOT/$MANDIR/man1/tunecost.1" && grep -q "130 interrupted" "$ROOT/$MANDIR/man1/tunecost.1" ||
    fail "man tunecost lists no commands or no exit status 130"
# The man pages cite the documents where they are installed (<datadir>/doc/tunecost), never the source tree's docs/
for f in architecture import simulation record report reliability trace-format; do
    [ -s "$ROOT/$DATADIR/doc/tunecost/$f.md" ] || fail "not installed: $DATADIR/doc/tunecost/$f.md"
done
grep -l 'docs/' "$ROOT/$MANDIR"/man1/tunecost*.1 && fail "a man page cites docs/ (not installed there)"
for cited in $(grep -ho "$PREFIX/$DATADIR/doc/tunecost/[a-z-]*\.md" "$ROOT/$MANDIR"/man1/tunecost*.1 | sort -u); do
    [ -s "$TMP/dest$cited" ] || fail "a man page cites $cited, which is not installed"
done
[ -s "$ROOT/$DATADIR/bash-completion/completions/tunecost" ] || fail "no bash completion installed"
[ -s "$ROOT/$DATADIR/zsh/site-functions/_tunecost" ] || fail "no zsh completion installed"
# And it reads it: same summary as the checkout's trace.
"$EXE" info >"$TMP/installed.txt" 2>"$TMP/err" || fail "installed 'tunecost info': $(head -n 1 "$TMP/err")"
"$EXE" info "$SRC/data/gemm-h200.h5" >"$TMP/source.txt" 2>/dev/null || fail "info of the checkout's trace failed"
sed -i '/^trace /d;/^file /d;/gemm-h200.h5/d' "$TMP/installed.txt" "$TMP/source.txt"
cmp -s "$TMP/installed.txt" "$TMP/source.txt" || fail "installed default reads differently: $(diff "$TMP/installed.txt" "$TMP/source.txt" | head -n 3)"

# Figures from the installed scripts alone: the source-tree fallback pointed at an empty folder, no
# TUNECOST_PLOTS_DIR.
command -v gnuplot >/dev/null || { echo "install: traces found; figures not checked (no gnuplot on PATH)"; exit 0; }
[ -f "$ROOT/$DATADIR/tunecost/plots/policies.gp" ] || fail "not installed: $DATADIR/tunecost/plots/policies.gp"
mkdir -p "$TMP/no-source" || fail "cannot create $TMP/no-source"
export TUNECOST_SOURCE_ROOT=$TMP/no-source
unset TUNECOST_PLOTS_DIR TUNECOST_DATA_DIR
# the fallback really is redirected: a binary of the build tree (no installation) now finds no scripts
TUNECOST_SOURCE_ROOT=$TMP/no-source "$BUILD/tunecost" policies -p random -r 2 -b 5 -q -o "$TMP/nopol" >/dev/null 2>&1 &&
    fail "the build tree's policies drew figures with TUNECOST_SOURCE_ROOT pointing at an empty folder"
cd "$TMP" || exit 1
"$EXE" policies -p random -r 2 -b 5 -q -o pol >/dev/null 2>err || fail "installed policies: $(head -c 300 err)"
head -n 1 pol/curves.tsv | grep -q "tunecost/gemm-h200-full.h5 (" ||
    fail "installed policies did not default to the installed full-space trace: $(head -n 1 pol/curves.tsv)"
for f in policies.png policies.svg; do [ -s "pol/$f" ] || fail "installed policies drew no $f"; done
"$EXE" report -q --samples 5 --runs 2 -o rep >/dev/null 2>err || fail "installed report: $(head -c 300 err)"
# Every figure: the paper's five (Figure 2 from the shipped triton trace), the heat map, the cost models, the
# policies and the two kernel families (the shipped mma.sync trace).
for f in fig1-split fig2-estimate fig3-frontier fig4-parallel fig5-early-stop heatmap models policies landscapes; do
    for ext in png svg; do [ -s "rep/$f.$ext" ] || fail "installed report drew no $f.$ext"; done
done
grep -q "Not drawn" rep/summary.md && fail "installed report: $(grep -m1 "Not drawn" rep/summary.md)"
echo "install: binary, traces, default TRACE and scripts found under $ROOT; every figure drawn"
