#!/usr/bin/env bash
# test-policies-default.sh — which trace `tunecost policies` replays when none is given (pol_shipped_default, from
# data/manifest.tsv), and that it says so: a data folder ($TUNECOST_DATA_DIR) holding the shipped manifest and
# (a) the full-space, cross-gpu and reference traces, as shipped today -> the full space (H200), the cross-gpu
# trace (H100) as transfer's prior; (b) the full space and the reference of one GPU, no cross-gpu trace -> no prior
# (a prior is another GPU's); (c) a manifest whose cross-gpu row names the full space's GPU -> the next other-GPU
# row, none here -> no prior; (d) the reference alone -> it, and no transfer; (e) neither -> exit 2, one line that
# says how to collect the missing trace. The folders hold links to the shipped traces.
#
# Usage: test-policies-default.sh TUNECOST DATA_DIR
# Exit: 0 pass, 1 fail, 77 skipped (a shipped trace missing).
set -u
TUNECOST=$(realpath "${1:?usage: test-policies-default.sh TUNECOST DATA_DIR}")
DATA=$(realpath "${2:?usage}")
for f in gemm-h200-full.h5 gemm-h100-full.h5 gemm-h200.h5; do
    [ -f "$DATA/$f" ] || { echo "SKIP: $DATA/$f is missing"; exit 77; }
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-poldef.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
n_fail=0
fail() { n_fail=$((n_fail + 1)); echo "FAIL $*"; }
ok() { echo "ok   $*"; }

# case DIR WANT_TRACE WANT_PRIOR(or -) WANT_GPU: run policies with DIR as the data folder and check the first line of
# curves.tsv, the status line and the stdout header
check() {
    local dir=$1 want=$2 prior=$3 gpu=$4
    rm -rf "pol-$dir"
    TUNECOST_DATA_DIR=$TMP/$dir "$TUNECOST" policies -p random -r 1 -b 1 --no-figures -o "pol-$dir" \
        >"out-$dir" 2>"err-$dir" || { fail "$dir: policies failed: $(tail -1 "err-$dir")"; return; }
    local head
    head=$(head -n 1 "pol-$dir/curves.tsv")
    case "$head" in
    *"/$dir/$want ($gpu"*) ok "$dir: replays $want ($gpu)" ;;
    *) fail "$dir: curves.tsv says '$head', expected $want ($gpu)" ;;
    esac
    if [ "$prior" = - ]; then
        case "$head" in *"transfer from"*) fail "$dir: a prior where none is shipped: $head" ;; *) ok "$dir: no prior" ;; esac
    else
        case "$head" in
        *"transfer from $TMP/$dir/$prior;"*) ok "$dir: transfer's prior $prior" ;;
        *) fail "$dir: expected the prior $prior in '$head'" ;;
        esac
    fi
    grep -q "^trace $TMP/$dir/$want, GPU $gpu" "out-$dir" || fail "$dir: stdout names no trace/GPU: $(head -1 "out-$dir")"
    grep -q "policies: $TMP/$dir/$want ($gpu" "err-$dir" || fail "$dir: stderr names no trace/GPU: $(head -1 "err-$dir")"
}

full=$(awk -F'\t' '$2 == "full-space" { print $1; exit }' "$DATA/manifest.tsv")
cross=$(awk -F'\t' '$2 == "cross-gpu" { print $1; exit }' "$DATA/manifest.tsv")
ref=$(awk -F'\t' '$2 == "reference" { print $1; exit }' "$DATA/manifest.tsv")
[ "$full" = gemm-h200-full.h5 ] && [ "$cross" = gemm-h100-full.h5 ] && [ "$ref" = gemm-h200.h5 ] ||
    fail "manifest: full-space '$full', cross-gpu '$cross', reference '$ref'"
mkdir today samegpu samecross ref none
for d in today samegpu samecross ref none; do cp "$DATA/manifest.tsv" "$d/manifest.tsv"; done
for f in gemm-h200-full.h5 gemm-h100-full.h5 gemm-h200.h5; do ln -s "$DATA/$f" today/$f; ln -s "$DATA/$f" samecross/$f; done
ln -s "$DATA/gemm-h200-full.h5" samegpu/gemm-h200-full.h5
ln -s "$DATA/gemm-h200.h5" samegpu/gemm-h200.h5
awk -F'\t' -v OFS='\t' '$2 == "cross-gpu" { $3 = "NVIDIA H200" } { print }' "$DATA/manifest.tsv" \
    >samecross/manifest.tsv
ln -s "$DATA/gemm-h200.h5" ref/gemm-h200.h5
check today gemm-h200-full.h5 gemm-h100-full.h5 "NVIDIA H200"
check samegpu gemm-h200-full.h5 - "NVIDIA H200"
check samecross gemm-h200-full.h5 - "NVIDIA H200"
check ref gemm-h200.h5 - "NVIDIA H200"
TUNECOST_DATA_DIR=$TMP/none "$TUNECOST" policies -p random -r 1 -b 1 --no-figures -o pol-none >out-none 2>err-none
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <err-none)" -eq 1 ] && grep -q "gemm-h200.h5.*collect it: bash data/collect-reference.sh" err-none
then ok "none: exit 2, one line naming the missing reference and how to collect it"
else fail "none: exit $rc, stderr: $(cat err-none)"; fi
[ $n_fail -eq 0 ] || exit 1
