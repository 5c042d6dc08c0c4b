#!/usr/bin/env bash
# test-shipped.sh — every default names a trace that ships: data/manifest.tsv (the one list of shipped traces,
# util/tc_manifest) lists exactly the traces in data/, each with a role, GPU, kernel family and how to collect it;
# the defaults `tunecost` prints (the default trace, each command's --help with its defaults and examples) name no
# trace that is not shipped: a path into data/ must be a shipped file, and a bare name in the shipped naming scheme
# (gemm-h<GPU>...h5) must be one of the manifest's. README.md's data table lists the same files. A data folder that
# lacks a default trace gives a one-line error that says how to collect it (exit 2). Each shipped trace's kernel
# family, as `info` shows it, is the manifest's, and README.md's row says it.
# Usage: test-shipped.sh TUNECOST SOURCE_ROOT        Exit: 0 pass, 1 fail.
set -u
TC=$(realpath "${1:?usage: test-shipped.sh TUNECOST SOURCE_ROOT}")
ROOT=$(realpath "${2:?usage}")
DATA=$ROOT/data
MF=$DATA/manifest.tsv
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-shipped.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# ---- the manifest against data/ --------------------------------------------------------------------------------
[ -f "$MF" ] || { echo "FAIL: $MF is missing"; exit 1; }
awk -F'\t' '!/^#/ && NR > 0 && $1 != "file" && NF > 0 { print $1 }' "$MF" | sort >"$tmp/listed"
(cd "$DATA" && ls -1 ./*.h5 | sed 's|^\./||' | sort) >"$tmp/present"
while IFS= read -r f; do fail "data/manifest.tsv lists $f, which is not in data/"; done \
    < <(comm -23 "$tmp/listed" "$tmp/present")
while IFS= read -r f; do fail "data/$f ships but data/manifest.tsv does not list it"; done \
    < <(comm -13 "$tmp/listed" "$tmp/present")
awk -F'\t' '!/^#/ && $1 != "file" && NF > 0 && (NF != 7 || $2 == "" || $3 == "" || $4 == "" || $5 == "" || $6 == "" || $7 == "") {
    print FILENAME ":" FNR ": expected 7 non-empty fields" }' "$MF" | while IFS= read -r l; do echo "FAIL: $l"; done |
    grep -q FAIL && fail "a manifest row lacks a field"
for role in reference full-space triton-protocol second-family; do
    [ "$(awk -F'\t' -v r="$role" '$2 == r' "$MF" | wc -l)" -eq 1 ] || fail "data/manifest.tsv: not one '$role' row"
done

# ---- every trace a default or a help text names --------------------------------------------------------------
# A name is checked when it is a path into the data folder, or a bare gemm-h<GPU> name (the shipped scheme);
# output names in examples (tuned.h5, part1.h5, gemm-a100.h5 from an import) are not defaults.
check_names() { # FROM FILE
    grep -oE '[A-Za-z0-9_./-]*\.h5' "$2" | sort -u | while IFS= read -r n; do
        case "$n" in
        */data/*.h5 | data/*.h5)
            rel=${n##*data/}
            [ -f "$DATA/$rel" ] || echo "FAIL: $1 names $n, which does not ship"
            case "$rel" in */*) ;; *) grep -q "^$rel	" "$MF" || echo "FAIL: $1 names $n, not in data/manifest.tsv" ;; esac ;;
        gemm-h[0-9]*.h5)
            grep -q "^$n	" "$MF" || echo "FAIL: $1 names $n, not a shipped trace (data/manifest.tsv)" ;;
        esac
    done
}
"$TC" --help >"$tmp/help" 2>&1
check_names "tunecost --help" "$tmp/help" >>"$tmp/fails"
cmds=$(awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }' "$tmp/help")
[ -n "$cmds" ] || fail "tunecost --help lists no command"
for c in $cmds; do
    "$TC" "$c" --help >"$tmp/help-$c" 2>&1 || continue # a command not in this build says why and exits non-zero
    check_names "tunecost $c --help" "$tmp/help-$c" >>"$tmp/fails"
done
while IFS= read -r l; do fail "${l#FAIL: }"; done <"$tmp/fails"
grep -q "Default trace: $DATA/$(awk -F'\t' '$2 == "reference" { print $1 " (" $3 }' "$MF")" "$tmp/help" ||
    fail "tunecost --help does not name the manifest's reference as the default trace"

# ---- README's data table: the same files ---------------------------------------------------------------------
grep -oE '^\| `data/[a-z0-9-]+\.h5`' "$ROOT/README.md" | sed 's/^| `data\///; s/`$//' | sort >"$tmp/readme"
cmp -s "$tmp/readme" "$tmp/listed" || fail "README.md's data table lists $(tr '\n' ' ' <"$tmp/readme")" \
    "but data/manifest.tsv $(tr '\n' ' ' <"$tmp/listed")"

# ---- the kernel family of each shipped trace, as info shows it (and of a copy elsewhere: by its attributes) ------
while IFS=$'\t' read -r f role gpu fam rest; do
    case "$f" in '#'* | file | '') continue ;; esac
    "$TC" info "$DATA/$f" 2>/dev/null | grep -qx "kernel family   $fam.*" || fail "info $f: kernel family is not $fam"
    grep -q "^| \`data/$f\` |.*Kernel family \`$fam\`" "$ROOT/README.md" || fail "README.md's row of $f names no family $fam"
done <"$MF"
cp "$DATA/gemm-h200-triton.h5" "$tmp/copy.h5"
"$TC" info "$tmp/copy.h5" --json 2>/dev/null | grep -q '"kernel_family":"mma-sync"' ||
    fail "info --json of a copy of gemm-h200-triton.h5: kernel_family is not mma-sync"

# ---- a missing default trace: one line, how to collect it, exit 2 ---------------------------------------------
mkdir "$tmp/nodata"
cp "$MF" "$tmp/nodata/"
TUNECOST_DATA_DIR=$tmp/nodata "$TC" info >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "info without the reference trace exited $rc (expected 2)"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "info without the reference trace: not one line: $(cat "$tmp/err")"
grep -q "nodata/gemm-h200.h5.*NVIDIA H200.*collect it: bash data/collect-reference.sh" "$tmp/err" ||
    fail "info without the reference trace does not say how to collect it: $(cat "$tmp/err")"

[ $fails -eq 0 ] && echo "shipped: manifest = data/, every default and help names a shipped trace, README agrees"
[ $fails -eq 0 ]
