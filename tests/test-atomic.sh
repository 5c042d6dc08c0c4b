#!/usr/bin/env bash
# test-atomic.sh — outputs appear complete or not at all, even under SIGKILL.
# For `simulate -o DIR` and `report -o DIR`: one uninterrupted run gives the reference output (both commands
# are deterministic for a seed). Then, over an older output already in place, the same command is killed with
# SIGKILL at 7 points spread over its run time (denser towards the end, where the files are written). After
# each kill every output file must be either the old one, unchanged, or byte-identical to the reference — never a partial or mixed file — and a rerun must succeed
# and give the reference. Temporaries left beside the output by the kill are reported as warnings (they are
# hidden dot-names, not partial outputs; a later run of the same command may remove them).
#
# Usage: test-atomic.sh TUNECOST MAKE_CORPUS_PY
#   TUNECOST_WRAPPER   command prefix for every tunecost run (e.g. valgrind)
# Exit: 0 pass, 1 fail, 77 skipped (no python3 with h5py, or neither command built).
set -u
TUNECOST=$(realpath "${1:?usage: test-atomic.sh TUNECOST MAKE_CORPUS_PY}")
MAKE_CORPUS=$(realpath "${2:?usage: test-atomic.sh TUNECOST MAKE_CORPUS_PY}")
read -r -a WRAP <<<"${TUNECOST_WRAPPER:-}"
PY=/usr/bin/python3
"$PY" -c 'import h5py, numpy' 2>/dev/null || { echo "SKIP: $PY with h5py and numpy is needed"; exit 77; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-atomic.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
"$PY" "$MAKE_CORPUS" "$TMP/corpus" >/dev/null || { echo "FAIL: make_corpus.py failed"; exit 1; }
T=$TMP/corpus/valid.h5
cd "$TMP" || exit 1

n_fail=0; n_pass=0; n_warn=0; tested=0
fail() { n_fail=$((n_fail + 1)); echo "FAIL $*"; }
warn() { n_warn=$((n_warn + 1)); echo "WARN $*"; }

now() { date +%s.%N; }
# checksums of every file under a directory, relative names, sorted ("" if the directory is absent)
sums() { [ -d "$1" ] && (cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r md5sum); }

# check_command NAME OLD_ARGS... -- NEW_ARGS...: OLD_ARGS make the older output, NEW_ARGS the one that is killed
check_command() {
    local name=$1; shift
    local old=() new=()
    while [ "$1" != -- ]; do old+=("$1"); shift; done
    shift
    new=("$@")
    "$TUNECOST" "$name" --help >/dev/null 2>&1 || { echo "note: '$name' is not built; skipped"; return; }
    tested=$((tested + 1))
    local base=$TMP/$name out=$TMP/$name/out log=$TMP/$name-logs
    rm -rf "$base" "$log" && mkdir -p "$base" "$log"

    # reference: an uninterrupted run; its duration spaces the kill points
    local t0 t1 dur
    t0=$(now)
    if ! "${WRAP[@]}" "$TUNECOST" "$name" "${new[@]}" -o "$out" >"$log/ref.log" 2>&1; then
        fail "$name reference run failed: $(tail -n 1 "$log/ref.log")"
        return
    fi
    t1=$(now)
    dur=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')  # awk: bc is not in a minimal image
    # the machine may be loaded: time a second run and space the kills by the shorter of the two
    rm -rf "$out"
    t0=$(now)
    "${WRAP[@]}" "$TUNECOST" "$name" "${new[@]}" -o "$out" >/dev/null 2>&1 || { fail "$name: second run failed"; return; }
    t1=$(now)
    dur=$(awk -v a="$t0" -v b="$t1" -v d="$dur" 'BEGIN { x = b - a; printf "%.3f", x < d ? x : d }')
    sums "$out" >"$log/ref.md5"
    rm -rf "$out"
    "${WRAP[@]}" "$TUNECOST" "$name" "${old[@]}" -o "$out" >/dev/null 2>&1 || { fail "$name: old run failed"; return; }
    sums "$out" >"$log/old.md5"
    if cmp -s "$log/ref.md5" "$log/old.md5"; then
        fail "$name: the old and new settings give the same output; the test could not tell them apart"
        return
    fi
    echo "$name: reference run took $dur s (the shorter of two), $(wc -l <"$log/ref.md5") files"

    local k=0 f killed=0 writing=0
    for f in 0.1 0.3 0.5 0.7 0.85 0.93 0.98; do
        local delay pid state after open_out
        k=$((k + 1))
        delay=$(awk -v d="$dur" -v f="$f" 'BEGIN { printf "%.3f", d * f }')
        "${WRAP[@]}" "$TUNECOST" "$name" "${new[@]}" -o "$out" >"$log/kill$k.log" 2>&1 &
        pid=$!
        sleep "$delay"
        state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)
        # files the process holds open under $base at the moment of the kill (an O_TMPFILE shows as deleted)
        open_out=$(ls -l "/proc/$pid/fd" 2>/dev/null | grep -c -- "$base")
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        if [ -z "$state" ] || [ "$state" = Z ]; then
            echo "$name kill $k at $(printf %.2f "$delay") s: the run had already finished"
        else
            killed=$((killed + 1))
            [ "$open_out" -gt 0 ] && writing=$((writing + 1))
        fi
        sums "$out" >"$log/after.md5"
        if cmp -s "$log/after.md5" "$log/old.md5"; then
            after=old
        elif cmp -s "$log/after.md5" "$log/ref.md5"; then
            after=new
        else
            # not one whole output: name the files that are neither old nor new
            after=mixed
            local bad
            bad=$(join -v 1 <(sort "$log/after.md5") <(sort -u "$log/old.md5" "$log/ref.md5") | head -n 3)
            # per-file atomicity: a mix of whole old files and whole new files is still acceptable
            if [ -n "$bad" ] || [ ! -s "$log/after.md5" ]; then
                fail "$name kill $k at $(printf %.2f "$delay") s: partial output visible: ${bad:-output gone}"
                after=partial
            fi
        fi
        local debris
        debris=$(cd "$base" && find . -mindepth 1 -maxdepth 1 ! -name out | tr '\n' ' ')
        [ -n "$debris" ] && warn "$name kill $k: left beside the output: $debris"
        debris=$(cd "$out" 2>/dev/null && comm -13 <(sed 's/^[^ ]*  //' "$log/ref.md5" "$log/old.md5" | sort -u) \
                 <(find . -type f | sort) | tr '\n' ' ')
        [ -n "$debris" ] && warn "$name kill $k: unexpected files inside the output: $debris"
        [ "$after" != partial ] && n_pass=$((n_pass + 1))
        echo "$name kill $k at $(printf %.2f "$delay") s (state ${state:-gone}, $open_out output files open):" \
             "output is $after"
    done
    [ $killed -ge 3 ] || fail "$name: only $killed of 7 kills hit a running process (make the run longer)"
    echo "$name: $killed of 7 kills hit the running process, $writing of them while it held an output file open"

    # recovery: a normal rerun after the kills succeeds and gives the reference
    if ! "${WRAP[@]}" "$TUNECOST" "$name" "${new[@]}" -o "$out" >"$log/rerun.log" 2>&1; then
        fail "$name: rerun after the kills failed: $(tail -n 1 "$log/rerun.log")"
    elif ! sums "$out" | cmp -s - "$log/ref.md5"; then
        fail "$name: rerun after the kills differs from the reference"
    else
        n_pass=$((n_pass + 1))
        debris=$(cd "$base" && find . -mindepth 1 -maxdepth 1 ! -name out | tr '\n' ' ')
        [ -n "$debris" ] && warn "$name: temporaries still beside the output after a clean rerun: $debris"
    fi
}

# simulate: about 2-3 s on this trace; the old output has another seed.
check_command simulate "$T" -s 20000 -r 50 -j 1 -q --seed 2 -- "$T" -s 50000 -r 50 -j 1 -q --seed 1
# report: about 3 s; the old report has another seed.
check_command report "$T" -s 50 -r 5 -j 1 -q --seed 2 -- "$T" -s 5000 -r 30 -j 1 -q --seed 1

[ $tested -gt 0 ] || { echo "SKIP: neither simulate nor report is built"; exit 77; }
echo "atomic: $n_pass pass, $n_fail fail, $n_warn warnings"
[ $n_fail -eq 0 ]
