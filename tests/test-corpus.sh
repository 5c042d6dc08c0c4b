#!/usr/bin/env bash
# test-corpus.sh — feed every file of the malformed-trace corpus to every command that reads traces.
# For each (command, file) pair, run in an empty working directory with its output pointed there, it checks:
#   - no crash: exit status below 128, no sanitizer report, no hang (timeout 60 s);
#   - `reject` files: exit 2 and exactly one line on stderr that names the file;
#   - `accept` files (the valid controls): exit 0, so a reader that rejects everything cannot pass;
#   - `either` files: exit 0, or exit 2 with one line naming the file;
#   - `nodata` files: simulate and report exit 2 with one line; open, info, table and merge may accept them;
#   - after a failure, nothing is left behind: the working directory is empty and the corpus unchanged.
#
# Usage: test-corpus.sh TUNECOST MAKE_CORPUS_PY [CORPUS_OPEN [RESULTS_TSV]]
#   CORPUS_OPEN        tests/corpus/corpus-open (the trace library alone), run as the pseudo-command "open"
#   RESULTS_TSV        write one row per (command, file) with the verdict and the first line of stderr
#   TUNECOST_WRAPPER   command prefix for every run, e.g. "valgrind -q --error-exitcode=99"
#   CORPUS_ONLY        run only files whose name contains this string
#   CORPUS_DIR         use this ready-made corpus (make_corpus.py OUTDIR run elsewhere) instead of making one
#   CORPUS_COMMANDS    space-separated subset of: open info table simulate report merge collect
# Exit: 0 all pass, 1 a check failed, 77 skipped (no python3 with h5py).
set -u

usage="usage: test-corpus.sh TUNECOST MAKE_CORPUS_PY [CORPUS_OPEN [RESULTS_TSV]]"
TUNECOST=$(realpath "${1:?$usage}")
MAKE_CORPUS=$(realpath "${2:?$usage}")
OPEN=${3:+$(realpath "$3")}
RESULTS=${4:-}
PY=/usr/bin/python3
read -r -a WRAP <<<"${TUNECOST_WRAPPER:-}"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-corpus.XXXXXX")
cleanup() { chmod -R u+rwX "$TMP" 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT
CORPUS=$TMP/corpus
if [ -n "${CORPUS_DIR:-}" ]; then
    # a corpus made elsewhere (a machine without h5py): copied, so that the check below sees only our runs
    cp -a "$CORPUS_DIR" "$CORPUS" || { echo "FAIL: cannot copy $CORPUS_DIR"; exit 1; }
elif ! "$PY" -c 'import h5py, numpy' 2>/dev/null; then
    echo "SKIP: $PY with h5py and numpy is needed to build the corpus"
    exit 77
else
    "$PY" "$MAKE_CORPUS" "$CORPUS" >/dev/null || { echo "FAIL: make_corpus.py failed"; exit 1; }
fi

# A command is tested when it is built: `tunecost CMD --help` exits 0 (placeholders and absent collect do not).
COMMANDS=()
for c in ${CORPUS_COMMANDS:-open info table simulate report merge collect}; do
    if [ "$c" = open ]; then
        [ -n "$OPEN" ] && COMMANDS+=(open)
    elif "$TUNECOST" "$c" --help >/dev/null 2>&1; then
        COMMANDS+=("$c")
    else
        echo "note: '$c' is not built here; skipped"
    fi
done
[ ${#COMMANDS[@]} -gt 0 ] || { echo "SKIP: no trace-reading command is built yet"; exit 77; }

# The invocation of each command on one trace, with all output under the working directory $2. Settings are
# small so that accepted files finish quickly.
invocation() {
    local cmd=$1 trace=$2 work=$3
    EXE=$TUNECOST
    case $cmd in
    open)     EXE=$OPEN; ARGS=("$trace") ;;
    info)     ARGS=(info "$trace") ;;
    simulate) ARGS=(simulate "$trace" -o "$work/sim" --samples 4 --runs 2 --threads 1 --quiet) ;;
    report)   ARGS=(report "$trace" -o "$work/report" --samples 4 --runs 2 --threads 1 --quiet) ;;
    table)    ARGS=(table best "$trace" -o "$work/best.tsv" -q) ;;
    merge)    ARGS=(merge -q "$work/merged.h5" "$trace") ;;
    collect)  # --resume appends to its file: it gets a copy (which a refusal must leave unchanged)
              RESUMED=$work/resume-$(basename "$trace")
              [ -e "$trace" ] && cp -a "$trace" "$RESUMED"
              ARGS=(collect --resume -o "$RESUMED" -q) ;;
    esac
}

snapshot() { (cd "$CORPUS" && find . -printf '%p %s %T@\n' 2>/dev/null | sort); }
BEFORE=$(snapshot)

n_pass=0; n_fail=0; n_skip=0
declare -a FAILS=()
[ -n "$RESULTS" ] && printf 'command\tfile\texpect\texit\tverdict\tstderr\n' >"$RESULTS"

record() { # command file expect rc verdict first-stderr-line
    [ -n "$RESULTS" ] && printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$RESULTS"
    case $5 in
    pass) n_pass=$((n_pass + 1)) ;;
    skip) n_skip=$((n_skip + 1)) ;;
    *) n_fail=$((n_fail + 1)); FAILS+=("$1 $2 [$3]: $5 (exit $4) stderr: $6") ;;
    esac
}

while IFS=$'\t' read -r file class expect desc; do
    [ "$file" = file ] && continue
    case $file in *"${CORPUS_ONLY:-}"*) ;; *) continue ;; esac
    for cmd in "${COMMANDS[@]}"; do
        if [ "$expect" = skip-root ]; then
            record "$cmd" "$file" "$expect" - skip "mode 000 does not stop root from reading"
            continue
        fi
        work=$TMP/work
        rm -rf "$work" && mkdir "$work"
        invocation "$cmd" "$CORPUS/$file" "$work"
        (cd "$work" && timeout -k 5 60 "${WRAP[@]}" "$EXE" "${ARGS[@]}" >"$TMP/out" 2>"$TMP/err")
        rc=$?
        nlines=$(wc -l <"$TMP/err")
        first=$(head -n 1 "$TMP/err" | cut -c1-300)
        base=${file%.h5}
        names_file=0
        grep -qF -- "$base" "$TMP/err" && names_file=1
        left=$(cd "$work" && find . -mindepth 1 ! -path './resume-*' | head -n 3 | tr '\n' ' ')
        if [ -n "$left" ] && [ -z "$(cd "$work" && find . -mindepth 1 ! -type d ! -path './resume-*')" ]; then
            left="empty directory $left(created before the input was checked)"
        fi
        if [ "$cmd" = collect ] && [ -f "$CORPUS/$file" ] && ! cmp -s "$CORPUS/$file" "$work/resume-$file"; then
            left="$left(the resumed file was changed) "
        fi
        verdict=pass
        want=$expect
        if [ "$expect" = nodata ]; then
            case $cmd in simulate|report) want=reject ;; *) want=either ;; esac  # open, info, merge: either
        fi
        # collect --resume refuses even valid traces from another device ("Corpus GPU"), so never "accept"
        [ "$cmd" = collect ] && [ "$want" = accept ] && want=either
        if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
            verdict="hang (killed after 60 s)"
        elif [ $rc -ge 128 ]; then
            verdict="crash (signal $((rc - 128)))"
        elif grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:|== ERROR SUMMARY: [1-9]' "$TMP/err"; then
            verdict="sanitizer report"
            first=$(grep -m1 -E 'Sanitizer|runtime error|ERROR SUMMARY' "$TMP/err" | cut -c1-300)
        elif [ "$want" = accept ]; then
            [ $rc -eq 0 ] || verdict="valid file rejected"
        elif [ "$want" = reject ] || { [ "$want" = either ] && [ $rc -ne 0 ]; }; then
            if [ $rc -ne 2 ]; then
                verdict="exit $rc, expected 2"
            elif [ "$nlines" -ne 1 ]; then
                verdict="$nlines lines on stderr, expected 1"
            elif [ $names_file -eq 0 ]; then
                verdict="message does not name the file"
            elif [ -n "$left" ]; then
                verdict="left behind: $left"
            fi
        fi
        record "$cmd" "$file" "$expect" "$rc" "$verdict" "$first"
    done
done <"$CORPUS/MANIFEST.tsv"

AFTER=$(snapshot)
if [ "$BEFORE" != "$AFTER" ]; then
    record all corpus - - "corpus directory changed" "$(diff <(echo "$BEFORE") <(echo "$AFTER") | head -n 3 | tr '\n' ' ')"
fi

echo "corpus: ${#COMMANDS[@]} commands (${COMMANDS[*]}), $n_pass pass, $n_fail fail, $n_skip skipped"
# Failures grouped by command and kind (one root cause often fails many files): count, then 3 examples.
declare -A group_n=()
for f in "${FAILS[@]}"; do
    key=$(echo "$f" | sed -E 's/^([a-z]+) [^ ]+ \[[a-z-]+\]: ([^(]*).*/\1: \2/')
    group_n[$key]=$(( ${group_n[$key]:-0} + 1 ))
    [ "${group_n[$key]}" -le 3 ] && echo "FAIL $f"
done
for key in "${!group_n[@]}"; do
    [ "${group_n[$key]}" -gt 3 ] && echo "  ... $key: ${group_n[$key]} files in all"
done
[ $n_fail -eq 0 ]
