#!/usr/bin/env bash
# test-install.sh — the installed program finds its shipped default trace.
# `meson install --destdir D` puts the binary at D/PREFIX/BINDIR/tunecost and the traces at
# D/PREFIX/DATADIR/tunecost/; the binary looks first beside itself (BINDIR/../DATADIR/tunecost), so the staged
# copy must report that path as its default TRACE and read it: `info` with no TRACE must print the shipped
# trace's summary, byte for byte the same as `info data/gemm-h200.h5` from the checkout.
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
for f in gemm-h200-triton.h5 flush-study/gemm-h200-flush-0.h5 compile-scaling; do
    [ -e "$ROOT/$DATADIR/tunecost/$f" ] || fail "not installed: $DATADIR/tunecost/$f"
done
# The default named in --help is the installed copy (resolved through the binary's folder).
want=$(realpath "$DATA")
got=$("$EXE" simulate --help | tr '\n' ' ' | sed -n 's/.*  TRACE  *trace file (default: *\([^)]*\)).*/\1/p')
[ -n "$got" ] || fail "simulate --help names no default TRACE"
[ "$(realpath "$got")" = "$want" ] || fail "installed binary's default is '$got', expected $want"
# A man page per declared command, and the completions, generated from the declarations.
for c in $DOC_CMDS; do
    [ -s "$ROOT/$MANDIR/man1/tunecost-$c.1" ] || fail "not installed: $MANDIR/man1/tunecost-$c.1"
done
[ -s "$ROOT/$DATADIR/bash-completion/completions/tunecost" ] || fail "no bash completion installed"
[ -s "$ROOT/$DATADIR/zsh/site-functions/_tunecost" ] || fail "no zsh completion installed"
# And it reads it: same summary as the checkout's trace.
"$EXE" info >"$TMP/installed.txt" 2>"$TMP/err" || fail "installed 'tunecost info': $(head -n 1 "$TMP/err")"
"$EXE" info "$SRC/data/gemm-h200.h5" >"$TMP/source.txt" 2>/dev/null || fail "info of the checkout's trace failed"
sed -i '/^trace /d;/^file /d;/gemm-h200.h5/d' "$TMP/installed.txt" "$TMP/source.txt"
cmp -s "$TMP/installed.txt" "$TMP/source.txt" || fail "installed default reads differently: $(diff "$TMP/installed.txt" "$TMP/source.txt" | head -n 3)"
echo "install: binary, traces and default TRACE found under $ROOT"
