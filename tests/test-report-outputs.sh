#!/usr/bin/env bash
# test-report-outputs.sh — the report's outputs are listed in one place, its sections' rows (analysis/report.c,
# report_sections[]): the TSV tables `tunecost report --list-outputs` names must be exactly the top-level TSV files
# of docs/report.md's "What DIR holds" table (a table added to a section, or to the page, without the other fails
# here), each declared by one section; the listing also runs without TRACE or -o (exit 0).
#
# Usage: test-report-outputs.sh TUNECOST REPORT_MD
# Exit: 0 pass, 1 fail.
set -u
TUNECOST=${1:?usage: test-report-outputs.sh TUNECOST REPORT_MD}
MD=${2:?}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-report-outputs.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
n_fail=0
fail() { echo "FAIL: $*"; n_fail=$((n_fail + 1)); }

"$TUNECOST" report --list-outputs > "$TMP/list" 2> "$TMP/err" ||
    fail "report --list-outputs: exit $? ($(cat "$TMP/err"))"
[ -s "$TMP/err" ] && fail "report --list-outputs wrote to stderr: $(cat "$TMP/err")"
header=$(head -n 1 "$TMP/list")
[ "$header" = "$(printf 'section\toutput\tfile\tfigures')" ] || fail "header: $header"
awk -F'\t' 'NR > 1 && $2 == "table" { print $3 }' "$TMP/list" | sort > "$TMP/declared"
while read -r f; do fail "$f declared by two sections"; done < <(uniq -d "$TMP/declared")
[ "$(wc -l < "$TMP/declared")" -ge 20 ] || fail "only $(wc -l < "$TMP/declared") tables listed"

# the first column of "What DIR holds": every `NAME.tsv` without a folder (a row may name two, "`a.tsv`, `b.tsv`")
awk '/^### What DIR holds/ { on = 1; next } on && /^#/ { on = 0 } on && /^\| `/ {
        split($0, cell, "|"); n = split(cell[2], part, "`")
        for (i = 2; i <= n; i += 2) if (part[i] ~ /^[^\/]+\.tsv$/) print part[i]
    }' "$MD" | sort -u > "$TMP/documented"
[ -s "$TMP/documented" ] || fail "no TSV file in the 'What DIR holds' table of $MD"
while read -r f; do
    fail "$f: a section's table (report --list-outputs) that $MD's 'What DIR holds' does not list"
done < <(comm -23 "$TMP/declared" "$TMP/documented")
while read -r f; do
    fail "$f: in $MD's 'What DIR holds' but no section of report_sections[] declares it"
done < <(comm -13 "$TMP/declared" "$TMP/documented")

# a listing needs neither TRACE nor -o; without it, -o is still required
"$TUNECOST" report > /dev/null 2> "$TMP/err2"
rc=$?
[ "$rc" -eq 2 ] && grep -q "missing -o DIR (required)" "$TMP/err2" ||
    fail "report without -o: exit $rc, $(cat "$TMP/err2")"

[ "$n_fail" -eq 0 ] && echo "report outputs: $(wc -l < "$TMP/declared") tables, as declared and documented"
[ "$n_fail" -eq 0 ]
