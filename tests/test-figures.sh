#!/usr/bin/env bash
# test-figures.sh — a figure that was asked for and not drawn is an error (issue 22, item 8): `policies` and
# `report` exit 1 with gnuplot's reason when gnuplot fails (too few file descriptors) or leaves a figure cut short
# (a file-size limit standing in for a nearly full disk: gnuplot exits 0 after its write failed), leave an earlier
# output as it was, and succeed without figures only when asked to (--no-figures).
# Runs on the shipped reference trace with small settings (a few seconds per command).
#
# Usage: test-figures.sh TUNECOST
# Exit: 0 pass, 1 fail, 77 skipped (no gnuplot on PATH).
set -u
TUNECOST=$(realpath "${1:?usage: test-figures.sh TUNECOST}")
command -v gnuplot >/dev/null || { echo "SKIP: gnuplot is not on PATH"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-figures.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
n_fail=0
fail() { n_fail=$((n_fail + 1)); echo "FAIL $*"; }
ok() { echo "ok   $*"; }
POL=(policies -p random -r 2 -b 5 -q)
REP=(report -q --samples 5 --runs 2 --triton-trace none --compare-trace none --flush-study none --scaling none)
# sums DIR: the md5 of every file in DIR, by name
sums() { (cd "$1" && find . -type f | sort | xargs md5sum); }

# ---- policies: a complete first output ----------------------------------------------------------------------
"$TUNECOST" "${POL[@]}" -o p >/dev/null 2>err.txt || fail "policies: $(head -c 300 err.txt)"
for f in curves.tsv scores.tsv policies.png policies.svg; do [ -s "p/$f" ] || fail "policies wrote no p/$f"; done
before=$(sums p)

# ---- policies on a "nearly full disk": figures cut short -> exit 1, the earlier output kept ----------------
# The TSV files are under 8 KiB, the figures over 20 KiB: a 20 KiB file-size limit with SIGXFSZ ignored makes
# gnuplot's writes fail with EFBIG, as on a full disk, and gnuplot still exits 0.
(trap '' XFSZ; ulimit -f 20; exec "$TUNECOST" "${POL[@]}" -o p) >/dev/null 2>err.txt
rc=$?
if [ "$rc" = 1 ] && grep -q "policies.png is cut short" err.txt; then ok "policies, figure cut short: $(cat err.txt)"
else fail "policies, figure cut short: exit $rc: $(head -c 300 err.txt)"; fi
[ "$(sums p)" = "$before" ] || fail "policies with its figure cut short changed the earlier output"
ls -a | grep -q '^\.p\.tmp' && fail "policies left its temporary directory"

# ---- policies with too few file descriptors (6: fewer than gnuplot needs for its fonts and files): gnuplot fails
# -> exit 1, gnuplot's reason
(ulimit -n 6; exec "$TUNECOST" "${POL[@]}" -o p2) >/dev/null 2>err.txt
rc=$?
if [ "$rc" = 1 ] && grep -q "the figure was not drawn: .*Too many open files" err.txt && [ ! -e p2 ]; then
    ok "policies, ulimit -n 6: $(cat err.txt)"
else fail "policies, ulimit -n 6: exit $rc, p2 $([ -e p2 ] && echo exists || echo absent): $(head -c 300 err.txt)"; fi

# ---- policies --no-figures: the TSV files only, no gnuplot needed ------------------------------------------
mkdir nobin
PATH=$TMP/nobin "$TUNECOST" "${POL[@]}" --no-figures -o p3 >/dev/null 2>err.txt
rc=$?
if [ "$rc" = 0 ] && [ -s p3/curves.tsv ] && [ -s p3/scores.tsv ] && [ ! -e p3/policies.png ]; then
    ok "policies --no-figures without gnuplot"
else fail "policies --no-figures without gnuplot: exit $rc: $(head -c 300 err.txt)"; fi
PATH=$TMP/nobin "$TUNECOST" "${POL[@]}" -o p4 >/dev/null 2>err.txt
rc=$?
if [ "$rc" = 1 ] && grep -q "gnuplot not found" err.txt && [ ! -e p4 ]; then ok "policies without gnuplot: exit 1"
else fail "policies without gnuplot: exit $rc: $(head -c 300 err.txt)"; fi

# ---- report: a complete first output, then the same failures --------------------------------------------------
"$TUNECOST" "${REP[@]}" -o r >/dev/null 2>err.txt || fail "report: $(head -c 300 err.txt)"
[ -s r/heatmap.png ] && [ -s r/fig3-frontier.svg ] || fail "report drew no heatmap.png or fig3-frontier.svg"
before=$(sums r)
# heatmap.tsv is 217 KB, heatmap.png 273 KB: a 250 KiB limit cuts the figure short, not the table.
(trap '' XFSZ; ulimit -f 250; exec "$TUNECOST" "${REP[@]}" -o r) >/dev/null 2>err.txt
rc=$?
if [ "$rc" = 1 ] && grep -q "figure heatmap was not drawn: .*heatmap.png is cut short" err.txt; then
    ok "report, figure cut short: $(cat err.txt)"
else fail "report, figure cut short: exit $rc: $(head -c 300 err.txt)"; fi
[ "$(sums r)" = "$before" ] || fail "report with a figure cut short changed the earlier report"
(ulimit -n 6; exec "$TUNECOST" "${REP[@]}" -o r2) >/dev/null 2>err.txt
rc=$?
if [ "$rc" = 1 ] && grep -q "was not drawn: .*Too many open files" err.txt && [ ! -e r2 ]; then
    ok "report, ulimit -n 6: $(cat err.txt)"
else fail "report, ulimit -n 6: exit $rc, r2 $([ -e r2 ] && echo exists || echo absent): $(head -c 300 err.txt)"; fi
PATH=$TMP/nobin "$TUNECOST" "${REP[@]}" -o r3 >/dev/null 2>err.txt
rc=$?
if [ "$rc" = 1 ] && grep -q "gnuplot not found" err.txt && [ ! -e r3 ]; then ok "report without gnuplot: exit 1"
else fail "report without gnuplot: exit $rc: $(head -c 300 err.txt)"; fi
PATH=$TMP/nobin "$TUNECOST" "${REP[@]}" --no-figures -o r4 >out.txt 2>err.txt
rc=$?
if [ "$rc" = 0 ] && [ -s r4/index.html ] && [ -s r4/heatmap.tsv ] && ! ls r4 | grep -q '\.png$' &&
    grep -q "not asked for (--no-figures)" r4/summary.md; then
    ok "report --no-figures without gnuplot"
else fail "report --no-figures without gnuplot: exit $rc: $(head -c 300 err.txt)"; fi

[ "$n_fail" = 0 ] || { echo "$n_fail failure(s)"; exit 1; }
echo "figures: every figure asked for is drawn whole or the command fails"
