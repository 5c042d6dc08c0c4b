#!/usr/bin/env bash
# test-options.sh — bad command-line options for every subcommand, and the options they share.
# Each row of the table below names a command, an option, a value that works and values that must not:
# non-numbers, negatives, zero, huge numbers, inverted ranges, unknown shapes and names, missing arguments.
# For every row the good value runs first as a control (exit 0), so a command that fails for another reason
# (a missing trace, say) cannot make the bad values look rejected. Each bad value must then give a usage
# error: exit 2, stderr naming the option (or the value), no crash, no output left behind. Every command's
# --help must exit 0 with examples on stdout, and an unknown option or a missing argument must exit 2.
#
# Usage: test-options.sh TUNECOST MAKE_CORPUS_PY      (the valid trace of the corpus is the input)
#   TUNECOST_WRAPPER   command prefix for every tunecost run (valgrind: see tests/valgrind-wrap.sh)
# Exit: 0 all pass, 1 a check failed, 77 skipped (no python3 with h5py to build the input trace).
set -u
TUNECOST=$(realpath "${1:?usage: test-options.sh TUNECOST MAKE_CORPUS_PY}")
MAKE_CORPUS=$(realpath "${2:?usage: test-options.sh TUNECOST MAKE_CORPUS_PY}")
read -r -a WRAP <<<"${TUNECOST_WRAPPER:-}"
PY=/usr/bin/python3
"$PY" -c 'import h5py, numpy' 2>/dev/null || { echo "SKIP: $PY with h5py and numpy is needed"; exit 77; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-options.XXXXXX")
trap 'chmod -R u+rwX "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
"$PY" "$MAKE_CORPUS" "$TMP/corpus" >/dev/null || { echo "FAIL: make_corpus.py failed"; exit 1; }
T=$TMP/corpus/valid.h5
T2=$TMP/corpus/valid-fixed-strings.h5
TRITON=$TMP/corpus/valid-triton.h5
BAD=$TMP/corpus/format-wrong.h5
W=$TMP/work
# A small points file for `frontier` (columns as docs/simulation.md describes; hand-written).
PTS=$TMP/points.tsv
printf '# hand-written\nscenario\tsample\ttime_s\tspeedup\ttflops\nbaseline\t0\t1.0\t0.9\t100\nbaseline\t1\t2.0\t0.95\t110\n' >"$PTS"

n_pass=0; n_fail=0
FAILS=()
fail() { n_fail=$((n_fail + 1)); FAILS+=("$*"); }

# run ARGS...: run tunecost in an empty work dir; sets rc, err (stderr), out (stdout), left (files left).
run() {
    rm -rf "$W" && mkdir -p "$W"
    (cd "$W" && timeout -k 5 120 "${WRAP[@]}" "$TUNECOST" "$@" >"$TMP/out" 2>"$TMP/err")
    rc=$?
    err=$(cat "$TMP/err")
    out=$(cat "$TMP/out")
    left=$(cd "$W" && find . -mindepth 1 -maxdepth 1 | head -n 3 | tr '\n' ' ')
}

crashed() { [ "$rc" -ge 124 ] || grep -qE 'Sanitizer|runtime error:|ERROR SUMMARY: [1-9]' "$TMP/err"; }

built() { "$TUNECOST" "$1" --help >/dev/null 2>&1; }

# ---- the table: command, base arguments, option, good value, bad values ('|'-separated; <empty> = "") ----
# {T}, {T2} = valid fixed-time traces, {TRITON} = a valid triton-protocol trace, {BAD} = a file that is not
# a trace, {W} = the empty working directory, {P} = a points file. The option goes last, so that
# it overrides the same option in the base arguments.
TABLE=$(cat <<'EOF'
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	--samples	3	abc|-1|0|99999999999999999999|1.5|<empty>|3x| 3
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	-s	3	abc|-5|0
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	--runs	2	abc|-1|0|99999999999999999999|2.5
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	-r	2	x|0
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	--n-config	1:3	5:2|a:b|1:2:3|:|0:3|-1:4|99999999999999999999|1:
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	--exec-ms	10:20	20:10|x|-5:10|1e999|:|10:20:30
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	--early-stop-num	2:10	10:2|x|-1:5|0:0
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	--early-stop-threshold	1.0:1.1	1.1:1.0|nan|inf|x|nan:1.1
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	--scenarios	baseline,early-stop	nosuch|<empty>|baseline,,parallel|early-stop+nosuch|,
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	--compile-factor	4	0|-1|x|99999999999999999999|2.5
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	--compile	parallel	nosuch|<empty>
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	--overhead	per-exec	nosuch|<empty>
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	--estimator	median	nosuch|<empty>|MEAN
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	--seed	7	-1|x|18446744073709551616|1.5
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	--threads	2	-1|x|99999999999999999999
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	--input	256x256x256	7x7x7|256x256|abc|0x0x0|256x256x256x1|-256x256x256
report	{T} -o {W}/rep -s 2 -r 2 -j 1 -q	--samples	3	abc|-1|0|99999999999999999999
report	{T} -o {W}/rep -s 2 -r 2 -j 1 -q	-s	3	x|0
report	{T} -o {W}/rep -s 2 -r 2 -j 1 -q	-r	2	x|0
report	{T} -o {W}/rep -s 2 -r 2 -j 1 -q	-c	4	0|x
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	-c	4	0|x
simulate	{T} -o {W}/sim -s 2 -r 2 -j 1 -q	-i	256x256x256	7x7x7|abc
report	{T} -o {W}/rep -s 2 -r 2 -j 1 -q	--runs	2	abc|-1|0|99999999999999999999
report	{T} -o {W}/rep -s 2 -r 2 -j 1 -q	--seed	7	-1|x|18446744073709551616
report	{T} -o {W}/rep -s 2 -r 2 -j 1 -q	--compile-factor	4	0|-1|x
report	{T} -o {W}/rep -s 2 -r 2 -j 1 -q	--threads	1	-1|x|99999999999999999999
report	{T} -o {W}/rep -s 2 -r 2 -j 1 -q	--input	512x256x128	7x7x7|abc|512x256|0x1x1
report	{T} -o {W}/rep -s 2 -r 2 -j 1 -q	--triton-trace	{TRITON}	{W}/does-not-exist.h5|{BAD}|{T2}
table	best {T} -o {W}/t.tsv -q	--max-rows	5	-1|x|99999999999999999999|1.5
frontier	{P} -o {W}/f.tsv	--by	tflops	nosuch|<empty>
frontier	{P} -o {W}/f.tsv	--time	time_s	nosuch|speedup2
EOF
)

subst() { local s=${1//\{T\}/$T}; s=${s//\{T2\}/$T2}; s=${s//\{TRITON\}/$TRITON}; s=${s//\{BAD\}/$BAD}; s=${s//\{W\}/$W}; echo "${s//\{P\}/$PTS}"; }

declare -A control_done=()
while IFS=$'\t' read -r cmd base opt good bads; do
    [ -n "$cmd" ] || continue
    built "$cmd" || { echo "note: '$cmd' is not built here; its rows are skipped"; continue; }
    read -r -a B <<<"$(subst "$base")"
    name=${opt#-}; name=${name#-}
    run "$cmd" "${B[@]}" "$opt" "$(subst "$good")"
    if crashed || [ $rc -ne 0 ]; then
        fail "$cmd $opt $good (control): exit $rc, expected 0: $(head -n 1 "$TMP/err")"
        continue
    fi
    n_pass=$((n_pass + 1))
    IFS='|' read -r -a values <<<"$bads"
    for v in "${values[@]}"; do
        [ "$v" = "<empty>" ] && v=""
        v=$(subst "$v")
        run "$cmd" "${B[@]}" "$opt" "$v"
        first=$(head -n 1 "$TMP/err")
        if crashed; then
            fail "$cmd $opt '$v': crash or hang (exit $rc): $first"
        elif [ $rc -ne 2 ]; then
            fail "$cmd $opt '$v': exit $rc, expected 2: $first"
        elif [ -z "$err" ]; then
            fail "$cmd $opt '$v': exit 2 but nothing on stderr"
        elif [ -n "$v" ] && ! grep -qF -- "$name" "$TMP/err" && ! grep -qF -- "$v" "$TMP/err"; then
            fail "$cmd $opt '$v': message names neither the option nor the value: $first"
        elif [ -n "$left" ]; then
            fail "$cmd $opt '$v': left behind: $left"
        else
            n_pass=$((n_pass + 1))
        fi
    done
    control_done[$cmd]=1
done <<<"$TABLE"

# ---- every command: --help, an unknown option, a missing argument, a bad positional -------------------------
for cmd in info table simulate frontier report merge collect policies import export record; do
    built "$cmd" || continue
    run "$cmd" --help
    if [ $rc -ne 0 ] || ! grep -qi 'example' "$TMP/out" || [ -n "$err" ]; then
        fail "$cmd --help: exit $rc, examples on stdout: $(grep -ci example "$TMP/out"), stderr: $(head -n 1 "$TMP/err")"
    else
        n_pass=$((n_pass + 1))
    fi
    for args in "--no-such-option" "-o" "--output"; do
        # shellcheck disable=SC2086
        run "$cmd" $args
        if crashed || [ $rc -ne 2 ] || [ -z "$err" ]; then
            fail "$cmd $args: exit $rc, expected 2 with a message: $(head -n 1 "$TMP/err")"
        else
            n_pass=$((n_pass + 1))
        fi
    done
done
# Positional arguments that are not what the command expects.
check2() { # description args...
    local what=$1; shift
    run "$@"
    if crashed || [ $rc -ne 2 ] || [ -z "$err" ] || [ -n "$left" ]; then
        fail "$what: exit $rc, expected 2 with a message and no output: $(head -n 1 "$TMP/err") ${left:+left: $left}"
    else
        n_pass=$((n_pass + 1))
    fi
}
built table && check2 "table with an unknown name" table nosuch "$T"
built table && check2 "table without a name" table
built simulate && check2 "simulate with two traces" simulate "$T" "$T2" -o "$W/sim" -s 2 -r 2 -q
built simulate && check2 "simulate of a missing trace" simulate "$W/none.h5" -o "$W/sim" -q
built report && check2 "report without -o" report "$T" -s 2 -r 2 -q
built frontier && check2 "frontier without a points file" frontier
built frontier && check2 "frontier of a missing file" frontier "$W/none.tsv"
built frontier && check2 "frontier of a trace (not a TSV)" frontier "$T"
built info && check2 "info of a missing trace" info "$W/none.h5"
built merge && check2 "merge without inputs" merge "$W/m.h5"
built merge && check2 "merge without arguments" merge
built merge && check2 "merge of a missing input" merge "$W/m.h5" "$W/none.h5"
built merge && check2 "merge of a trace with itself (same pairs twice)" merge "$W/m.h5" "$T" "$T"
built merge && check2 "merge of a trace and a non-trace" merge "$W/m.h5" "$T" "$BAD"
built merge && check2 "merge into a directory" merge "$W" "$T"

# ---- shared options: one vocabulary (util/tc_cli.h) ----------------------------------------------------------
# 1. Every --help that lists a shared long option lists it with the shared short letter (none for --seed), and
#    no help gives a shared letter to another long option (report -s was once the seed, simulate -s the samples).
SHARED="output:o input:i samples:s runs:r seed: threads:j compile-factor:c force:f quiet:q help:h"
for cmd in info table simulate frontier report merge collect policies import export record; do
    built "$cmd" || continue
    run "$cmd" --help
    for pair in $SHARED; do
        long=${pair%%:*} short=${pair#*:}
        grep -qE -- "--$long( |=|\$)" "$TMP/out" || continue
        if [ -n "$short" ]; then
            grep -qE -- "-$short, --$long( |\$)" "$TMP/out" || { fail "$cmd --help: --$long without '-$short, --$long'"; continue; }
        else
            grep -qE -- "-[A-Za-z], --$long( |\$)" "$TMP/out" && { fail "$cmd --help: --$long has a short letter"; continue; }
        fi
        n_pass=$((n_pass + 1))
    done
    for pair in $SHARED; do
        long=${pair%%:*} short=${pair#*:}
        [ -n "$short" ] || continue
        other=$(grep -oE -- "-$short, --[a-z-]+" "$TMP/out" | grep -v -- "--$long\$" | head -n 1)
        [ -z "$other" ] && n_pass=$((n_pass + 1)) || fail "$cmd --help: '$other' (-$short is --$long everywhere)"
    done
    # 2. A usage error is exactly two lines: what is wrong, and where to read more (not the whole help).
    run "$cmd" --no-such-option
    want=$(printf "tunecost %s: unknown option '--no-such-option'\nsee 'tunecost %s --help'" "$cmd" "$cmd")
    [ "$rc" -eq 2 ] && [ "$err" = "$want" ] && [ -z "$out" ] && n_pass=$((n_pass + 1)) ||
        fail "$cmd --no-such-option: exit $rc, stderr '$(echo "$err" | head -n 3 | tr '\n' '|')'"
done
# 3. Same range and same message wherever a shared option exists: the out-of-range values below (one past each
#    end of the ranges in util/tc_cli.h) give the identical message after "tunecost CMD: " in every command
#    that has the option; -j 0 (all cores) is accepted by both simulation commands.
shared_msg() { # cmd args... -> the message without its "tunecost CMD: " prefix, or "exit N"
    local cmd=$1; shift
    run "$cmd" "$@"
    [ "$rc" -eq 2 ] && head -n 1 "$TMP/err" | sed "s/^tunecost $cmd: //" || echo "exit $rc"
}
for ov in "--samples 0" "-s 10000001" "--runs 0" "-r 1000001" "--seed 18446744073709551616" "--seed -1" \
          "-j -1" "--threads 4097" "-c 0" "--compile-factor 4097"; do
    # shellcheck disable=SC2086
    m_sim=$(shared_msg simulate "$T" -o "$W/sim" -q $ov)
    # shellcheck disable=SC2086
    m_rep=$(shared_msg report "$T" -o "$W/rep" -q $ov)
    case "$m_sim" in exit*) fail "simulate $ov: $m_sim, expected 2" ;; esac
    [ "$m_sim" = "$m_rep" ] && n_pass=$((n_pass + 1)) || fail "$ov: simulate says '$m_sim', report says '$m_rep'"
    case "$ov" in --runs*|-r*|--seed*|-c*|--compile-factor*)
        if built policies; then
            # shellcheck disable=SC2086
            m_pol=$(shared_msg policies "$T" -o "$W/pol" -q $ov)
            [ "$m_sim" = "$m_pol" ] && n_pass=$((n_pass + 1)) || fail "$ov: simulate says '$m_sim', policies says '$m_pol'"
        fi ;;
    esac
done
m_col=$(shared_msg collect -o "$W/c.h5" --seed 18446744073709551616)
m_sim=$(shared_msg simulate "$T" -o "$W/sim" -q --seed 18446744073709551616)
[ "$m_col" = "$m_sim" ] && n_pass=$((n_pass + 1)) || fail "--seed: collect says '$m_col', simulate says '$m_sim'"
for cmd in simulate report; do
    run "$cmd" "$T" -o "$W/out" -s 2 -r 2 -q -j 0
    [ "$rc" -eq 0 ] && n_pass=$((n_pass + 1)) || fail "$cmd -j 0 (all cores): exit $rc: $(head -n 1 "$TMP/err")"
done

# ---- -f on every command that writes: the shared meaning (util/tc_cli.h, README) -----------------------------
# A file output that exists is refused without -f (exit 2, the file untouched) and replaced with it. A directory
# output that holds something other than the command's earlier output is refused with and without -f (exit 2,
# untouched: -f never deletes a file the command did not write, util/tc_outdir.h). Each command runs twice:
# without -f, then with -f.
KT=$(dirname "$MAKE_CORPUS")/../import/kt-gemm-256.json
force_case() { # kind(file|dir) path command args...  (the path is the output the command writes)
    local kind=$1 path=$2; shift 2
    rm -rf "$path"
    if [ "$kind" = file ]; then echo "earlier content" >"$path"; else mkdir -p "$path" && echo keep >"$path/mine.txt"; fi
    run "$@"
    if crashed || [ "$rc" -ne 2 ] || ! grep -q -- "-f" "$TMP/err"; then
        fail "$1 without -f over an existing $kind: exit $rc, expected 2 naming -f: $(head -n 1 "$TMP/err")"
    elif { [ "$kind" = file ] && [ "$(cat "$path")" != "earlier content" ]; } ||
         { [ "$kind" = dir ] && [ ! -f "$path/mine.txt" ]; }; then
        fail "$1 without -f changed the existing $kind $path"
    else
        n_pass=$((n_pass + 1))
    fi
    run "$@" -f
    if [ "$kind" = dir ]; then
        if crashed || [ "$rc" -ne 2 ] || [ ! -f "$path/mine.txt" ]; then
            fail "$1 -f over a directory holding a user's file: exit $rc, expected 2 and the file kept: $(head -n 1 "$TMP/err")"
        else
            n_pass=$((n_pass + 1))
        fi
        return
    fi
    if crashed || [ "$rc" -ne 0 ]; then
        fail "$1 -f over an existing $kind: exit $rc, expected 0: $(head -n 1 "$TMP/err")"
    elif { [ "$kind" = file ] && [ "$(cat "$path")" = "earlier content" ]; } ||
         { [ "$kind" = dir ] && [ -e "$path/mine.txt" ]; }; then
        fail "$1 -f did not replace the existing $kind $path"
    else
        n_pass=$((n_pass + 1))
    fi
}
F=$TMP/force
mkdir -p "$F"
built table && force_case file "$F/t.tsv" table best "$T" -o "$F/t.tsv" -q
built frontier && force_case file "$F/f.tsv" frontier "$PTS" -o "$F/f.tsv"
built merge && force_case file "$F/m.h5" merge "$F/m.h5" "$T"
# record needs a CUDA program to record for its -f half; here only the refusal (before anything runs).
if built record; then
    echo "earlier content" >"$F/r.h5"
    run record -o "$F/r.h5" -q -- /bin/true
    [ "$rc" -eq 2 ] && grep -q -- "-f" "$TMP/err" && [ "$(cat "$F/r.h5")" = "earlier content" ] &&
        n_pass=$((n_pass + 1)) || fail "record without -f over an existing file: exit $rc: $(head -n 1 "$TMP/err")"
fi
built export && force_case file "$F/e.json" export kerneltuner "$T" -o "$F/e.json" -q
built import && [ -f "$KT" ] && force_case file "$F/i.h5" import kerneltuner "$KT" -o "$F/i.h5" -q
built simulate && force_case dir "$F/sim" simulate "$T" -o "$F/sim" -s 2 -r 2 -j 1 -q
built policies && force_case dir "$F/pol" policies "$T" -o "$F/pol" -r 1 -b 1 -p random -j 1 -q
built report && force_case dir "$F/rep" report "$T" -o "$F/rep" -s 2 -r 2 -j 1 -q --triton-trace none \
    --compare-trace none --flush-study none --scaling none
if built collect && [ -d /usr/local/cuda ]; then
    force_case file "$F/c.tsv" collect --compile-only --configs 1 --jobs 1 --arch 90 -o "$F/c.tsv" -q
fi
# -f never lets an output overwrite an input.
if built table; then
    cp "$T" "$F/in.h5"
    run table best "$F/in.h5" -o "$F/in.h5" -f -q
    [ "$rc" -eq 2 ] && cmp -s "$T" "$F/in.h5" && n_pass=$((n_pass + 1)) || fail "table -o INPUT -f: exit $rc or the input changed"
fi

# ---- -q: no status lines on stderr (the results are still written; notes and warnings still print) ----------
for c in "simulate $T -o $W/q -s 2 -r 2 -j 1" "frontier $PTS -o $W/q.tsv" "merge $W/q.h5 $T"; do
    read -r -a A <<<"$c"
    built "${A[0]}" || continue
    run "${A[@]}" -q
    # notes and warnings about the result may stay; no settings header, progress or "wrote" line
    rest=$(grep -v ': note: \|: warning: ' "$TMP/err")
    [ "$rc" -eq 0 ] && [ -z "$rest" ] && n_pass=$((n_pass + 1)) || fail "${A[0]} -q: exit $rc, stderr '$(echo "$rest" | head -n 2 | tr '\n' '|')'"
done

# ---- one rule for option names and values (README, "Options") -------------------------------------------------
# usage2 DESC PATTERN ARGS...: exit 2, a one-line message matching PATTERN (then at most "see 'tunecost CMD
# --help'"), nothing left in the work dir
usage2() {
    local what=$1 pat=$2; shift 2
    run "$@"
    if crashed || [ $rc -ne 2 ] || [ "$(sed 1d "$TMP/err" | grep -cv "^see 'tunecost ")" -ne 0 ] ||
        ! head -n 1 "$TMP/err" | grep -qE -- "$pat" || [ -n "$left" ]; then
        fail "$what: exit $rc, stderr '$(head -n 3 "$TMP/err" | tr '\n' '|')' ${left:+left: $left}"
    else
        n_pass=$((n_pass + 1))
    fi
}
# 1. long options in full only: a unique prefix (getopt_long's default) is an unknown option in every command
for c in "report $T -o $W/r --sample 2" "simulate $T -o $W/s --run 2" "export kerneltuner $T --o $W/e.json" \
         "table best $T --outp $W/t.tsv" "policies $T -o $W/p --polic random" "import kerneltuner x.json --outpu $W/i.h5" \
         "info $T --jso" "frontier $PTS --colu time_s"; do
    read -r -a A <<<"$c"
    built "${A[0]}" || continue
    usage2 "${A[0]}: an abbreviated long option" "unknown option '--[a-z]+' \(long options are not abbreviated" "${A[@]}"
done
# 2. a short option's value attached with '=' is refused: no file named '=x.json' (or anything else) appears
built export && usage2 "export -o=x.json" "'-o' got the value '=x.json'" export kerneltuner "$T" -o=x.json
built table && usage2 "table -o=t.tsv" "'-o' got the value '=t.tsv'" table best "$T" -o=t.tsv
built simulate && usage2 "simulate -qo=d" "'-o' got the value '=d'" simulate "$T" -qo=d
# 3. hexadecimal numbers are refused by the double options as by the integer ones
built policies && usage2 "policies --budget-s 0x1p3" "--budget-s" policies "$T" -o "$W/p" --budget-s 0x1p3
built policies && usage2 "policies --cutoff 0x0.8p0" "--cutoff" policies "$T" -o "$W/p" --cutoff 0x0.8p0
built simulate && usage2 "simulate --exec-ms 0x10:0x20" "--exec-ms" simulate "$T" -o "$W/s" --exec-ms 0x10:0x20
built simulate && usage2 "simulate --samples 0x10" "--samples" simulate "$T" -o "$W/s" --samples 0x10
built collect && usage2 "collect --rep-ms 0x1p3" "--rep-ms" collect -o "$W/c.h5" --rep-ms 0x1p3
# 4. a list with an empty element (a trailing, leading or doubled comma) is refused by every list option
built simulate && usage2 "simulate --scenarios a trailing comma" "empty element" simulate "$T" -o "$W/s" \
    --scenarios baseline,
built simulate && usage2 "simulate --input a trailing comma" "empty element" simulate "$T" -o "$W/s" \
    --input 256x256x256,
built policies && usage2 "policies --policies a trailing comma" "empty element" policies "$T" -o "$W/p" --policies random,
built policies && usage2 "policies --policies a leading comma" "empty element" policies "$T" -o "$W/p" --policies ,random
built frontier && usage2 "frontier --columns a trailing comma" "empty element" frontier "$PTS" --columns time_s,
built collect && usage2 "collect --param a trailing comma" "empty element" collect -o "$W/c.h5" --param BLOCK_M=64,
# 5. a value with a newline stays on the message's one line (escaped as \n)
built export && usage2 "export FORMAT with a newline" "FORMAT: .*'a\\\\nb'" export $'a\nb' "$T" -o "$W/e.json"
built export && usage2 "export --input with a newline" "--input: .*'5\\\\n5'" export kerneltuner "$T" -o "$W/e.json" \
    -i $'5\n5'
built simulate && usage2 "simulate --scenarios with a newline" "--scenarios" simulate "$T" -o "$W/s" \
    --scenarios $'base\nline'
run $'no\nsuch'
[ $rc -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -qF "unknown command 'no\nsuch'" "$TMP/err" &&
    n_pass=$((n_pass + 1)) || fail "an unknown command with a newline: exit $rc, '$(tr '\n' '|' <"$TMP/err")'"

echo "options: $n_pass pass, $n_fail fail"
for f in "${FAILS[@]}"; do echo "FAIL $f"; done
[ $n_fail -eq 0 ]
