#!/usr/bin/env bash
# check-floors.sh — the house rules a reader relies on, checked on the source tree (docs/architecture.md, "Floors"):
#  1. floors: a file includes headers of its own module or of modules on lower floors only (util 0; trace and
#     kernels 1; collect, import, export, record and simulate 2, which do not include each other; analysis 3; the
#     commands' entry points, */cmd_*.c with tunecost.h, 4; tunecost.c 5). A header no floor knows is an error.
#  2. no static function shares its name with a static function of another module (a reader, and every
#     cross-reference tool, would take them for one);
#  3. no function body longer than 100 lines, tests and benchmarks included (bodies counted from the opening '{' in
#     column 0 to the closing '}');
#     A body counts from its opening '{' in column 0, or from a signature line that ends in '{' (the brace on the
#     signature line is no way around the rule); the CUDA kernels (kernels/*.cu) are read too, the two kernels
#     written before that under a ceiling of their length then (KERNEL_CEILING: they may shrink, not grow);
#  4. no circle between two files of a module: when a.c calls a function b.c defines, b.c calls none a.c defines
#     (a lower file owns what both need: report_io.c, trace_handle.c, bench_launch.c);
#  5. a private header (PRIVATE_HEADERS: the layout a module keeps to itself) is included only by its own module;
#  6. with BUILD_DIR, the same as 4 for every symbol the compiled objects reference (nm: functions and data), so
#     that a file holding the addresses of another's objects (a registry) is seen as using it;
#  7. sections call no other section (SECTIONS: a sections header and its registry, the one file that includes it
#     and knows their order): a section file, one that defines a function the header declares, names no function
#     another section file defines, and with BUILD_DIR its object references no symbol (function or data) another
#     section's object defines; what sections share lives in a lower file (analysis/report_results.c).
# Usage: check-floors.sh SOURCE_ROOT [BUILD_DIR]        Exit: 0 clean, 1 a rule is broken (each case named).
set -u
ROOT=$(realpath "${1:?usage: check-floors.sh SOURCE_ROOT [BUILD_DIR]}")
BUILD=${2:+$(realpath "$2")}
cd "$ROOT" || exit 1
PRIVATE_HEADERS="trace_int.h sim_internal.h policy_internal.h bench_int.h bench_wire.h reconstruct_int.h"
SECTIONS="analysis/report_sections.h:analysis/report.c" # HEADER:REGISTRY, one pair per set of sections
declare -A KERNEL_CEILING=([kernels/gemm_f16.cu]=109 [kernels/gemm_f16_wgmma.cu]=173)
MODULES="util trace kernels collect import export record simulate analysis"
floor_of_module() {
    case "$1" in
    util) echo 0 ;; trace | kernels) echo 1 ;; collect | import | export | record | simulate) echo 2 ;;
    analysis) echo 3 ;; commands) echo 4 ;; top) echo 5 ;; *) echo "" ;;
    esac
}
# The module a source file belongs to: its folder, "commands" for an entry point, "top" for tunecost.c.
module_of_file() {
    case "$1" in
    tunecost.c) echo top ;; tunecost.h | */cmd_*.c) echo commands ;; */*) echo "${1%%/*}" ;; *) echo "?" ;;
    esac
}
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

mapfile -t FILES < <(for m in $MODULES; do [ -d "$m" ] && find "$m" -name '*.[ch]' -not -path '*/python/*'; done | sort)
FILES+=(tunecost.c tunecost.h)
declare -A HDR_MODULE=([tc_version.h]=util [kernels_src.h]=kernels)
for f in "${FILES[@]}"; do
    case "$f" in *.h) HDR_MODULE[$(basename "$f")]=$(module_of_file "$f") ;; esac
done

# 1. floors
for f in "${FILES[@]}"; do
    mod=$(module_of_file "$f")
    fl=$(floor_of_module "$mod")
    [ -n "$fl" ] || { fail "$f: module '$mod' has no floor (add it to tests/check-floors.sh and docs/architecture.md)"; continue; }
    while IFS= read -r inc; do
        hm=${HDR_MODULE[$inc]:-}
        [ -n "$hm" ] || { fail "$f: includes \"$inc\", a header no module owns"; continue; }
        case " $PRIVATE_HEADERS " in
        *" $inc "*) [ "$hm" = "$mod" ] || fail "$f ($mod) includes $inc, private to $hm" ;;
        esac
        [ "$hm" = "$mod" ] && continue
        hf=$(floor_of_module "$hm")
        if [ "$hf" -gt "$fl" ]; then
            fail "$f (floor $fl, $mod) includes $inc of $hm (floor $hf): a higher floor"
        elif [ "$hf" -eq "$fl" ]; then
            fail "$f ($mod) includes $inc of $hm: modules on one floor do not use each other"
        fi
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done

# 2. static functions with one name in two modules
dups=$(for f in "${FILES[@]}"; do
    case "$f" in *.c) ;; *) continue ;; esac
    sed -nE 's/^static [A-Za-z_][A-Za-z0-9_ *]*[ *]([a-z_][a-z0-9_]*)\(.*/\1/p' "$f" | sort -u |
        sed "s|\$| $(module_of_file "$f") $f|"
done | sort | awk '{ if ($1 == name && $2 != mod) print name ": " file " and " $3; name = $1; mod = $2; file = $3 }')
[ -z "$dups" ] || while IFS= read -r d; do fail "static function $d (give each a name of its module)"; done <<<"$dups"

# 3. function bodies over 100 lines (a kernel of KERNEL_CEILING: over its ceiling)
long=$(for f in "${FILES[@]}" bench/*.c tests/*.c tests/fuzz/*.c tests/corpus/*.c kernels/*.cu; do
    case "$f" in *.c | *.cu) [ -f "$f" ] || continue ;; *) continue ;; esac
    awk -v f="$f" -v max="${KERNEL_CEILING[$f]:-100}" '
        /^\{/ { start = FNR; head = prev }
        /^[A-Za-z_].*\)[ \t]*\{[ \t]*$/ && $0 !~ /=/ { start = FNR; head = $0 }
        /^\}/ && start { n = FNR - start - 1; if (n > max) print f ":" start ": " n " lines: " head; start = 0 }
        { if ($0 !~ /^[ \t]*$/ && $0 !~ /^\{/) prev = $0 }
    ' "$f"
done)
[ -z "$long" ] || while IFS= read -r l; do fail "function over 100 lines: $l"; done <<<"$long"

# 4. circles between two files of one module: the functions each file defines (not static: name at column 0 after
#    the return type, then its body's '{' on the next line) and, for each pair, whether each calls the other's.
defined() { awk '/^\{/ && prev ~ /^[A-Za-z].*[ *]([a-z_][a-z0-9_]*)\(/ && prev !~ /^static/ {
                 s = prev; sub(/\(.*/, "", s); n = split(s, w, /[ *]+/); print w[n] } { prev = $0 }' "$1" | sort -u; }
calls_any() { # stripped-file names-file: 0 if the file (comments stripped) names one of the names
    grep -qwFf "$2" "$1"
}
CIRC=$(mktemp -d "${TMPDIR:-/tmp}/tc-floors.XXXXXX")
trap 'rm -rf "$CIRC"' EXIT
for m in $MODULES; do
    [ -d "$m" ] || continue
    mapfile -t CS < <(find "$m" -maxdepth 1 -name '*.c' | sort)
    for f in "${CS[@]}"; do
        defined "$f" >"$CIRC/$(basename "$f").defs"
        perl -0777 -pe 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g' "$f" >"$CIRC/$(basename "$f").code"
    done
    for ((i = 0; i < ${#CS[@]}; i++)); do
        for ((j = i + 1; j < ${#CS[@]}; j++)); do
            a=${CS[i]} b=${CS[j]}
            da=$CIRC/$(basename "$a").defs db=$CIRC/$(basename "$b").defs
            [ -s "$da" ] && [ -s "$db" ] || continue
            if calls_any "$CIRC/$(basename "$a").code" "$db" && calls_any "$CIRC/$(basename "$b").code" "$da"; then
                fail "circle: $a and $b call each other (move what both need to a lower file)"
            fi
        done
    done
done

# 6. circles by any reference (nm on the compiled objects: <module>/*.a.p/FILE.c.o), functions and data alike:
#    "FILE def SYMBOL" and "FILE use SYMBOL" lines, one awk per module finds the pairs that use each other.
if [ -n "$BUILD" ]; then
    for m in $MODULES; do
        circles=$(find "$BUILD/$m" -path '*.a.p/*.c.o' 2>/dev/null | sort | while IFS= read -r o; do
            src=$(basename "$o" .o)
            [ -f "$m/$src" ] || continue # a stale object of a removed source
            nm --defined-only -g "$o" 2>/dev/null | awk -v f="$src" 'NF == 3 { print f, "def", $3 }'
            nm -u "$o" 2>/dev/null | awk -v f="$src" '{ print f, "use", $NF }'
        done | awk '
            $2 == "def" { by[$3] = $1; next }
            { uses[++n] = $1 SUBSEP $3 }
            END {
                for (i = 1; i <= n; i++) {
                    split(uses[i], u, SUBSEP)
                    if ((u[2] in by) && by[u[2]] != u[1] && !((u[1], by[u[2]]) in edge))
                        edge[u[1], by[u[2]]] = u[2]
                }
                for (k in edge) {
                    split(k, e, SUBSEP)
                    if (e[1] < e[2] && ((e[2], e[1]) in edge))
                        print e[1] " and " e[2] " reference each other (" edge[k] ", " edge[e[2], e[1]] ")"
                }
            }' | sort)
        [ -z "$circles" ] || while IFS= read -r l; do fail "circle: $m/${l/ and / and $m/}"; done <<<"$circles"
    done
fi

# 7. sections call no other section: by name in the source (functions), and with BUILD_DIR by nm (functions, data).
for pair in $SECTIONS; do
    hdr=${pair%%:*} reg=${pair#*:}
    [ -f "$hdr" ] || continue
    dir=$(dirname "$hdr") SD=$CIRC/sections/$dir
    mkdir -p "$SD"
    sed -nE 's/^[A-Za-z].*[ *]([a-z_][a-z0-9_]*)\(.*/\1/p' "$hdr" | sort -u >"$SD/entries"
    secs=()
    for f in $(find "$dir" -maxdepth 1 -name '*.c' | sort); do
        b=$(basename "$f")
        grep -q "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$(basename "$hdr")\"" "$f" && [ "$f" != "$reg" ] &&
            fail "$f includes $(basename "$hdr"): only $reg runs the sections (a section includes the floor below)"
        [ "$f" = "$reg" ] && continue
        defined "$f" >"$SD/$b.defs"
        grep -qxFf "$SD/entries" "$SD/$b.defs" || continue
        secs+=("$f")
        perl -0777 -pe 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g' "$f" >"$SD/$b.code"
    done
    for a in "${secs[@]}"; do
        for b in "${secs[@]}"; do
            [ "$a" != "$b" ] || continue
            name=$(grep -owFf "$SD/$(basename "$b").defs" "$SD/$(basename "$a").code" | head -1)
            [ -z "$name" ] || fail "section $a calls $name of section $b (sections share results through a lower" \
                "file, not by calling each other)"
        done
    done
    [ -n "$BUILD" ] && [ ${#secs[@]} -gt 1 ] || continue
    refs=$(for a in "${secs[@]}"; do
        o=$(find "$BUILD/$dir" -path "*.a.p/$(basename "$a").o" 2>/dev/null | head -1)
        [ -n "$o" ] || continue
        nm --defined-only -g "$o" 2>/dev/null | awk -v f="$a" 'NF == 3 { print f, "def", $3 }'
        nm -u "$o" 2>/dev/null | awk -v f="$a" '{ print f, "use", $NF }'
    done | awk '
        $2 == "def" { by[$3] = $1; next }
        { use[++n] = $1 " " $3 }
        END {
            for (i = 1; i <= n; i++) {
                split(use[i], u, " ")
                if ((u[2] in by) && by[u[2]] != u[1])
                    print u[1], u[2], by[u[2]]
            }
        }' | sort -u)
    [ -z "$refs" ] || while read -r a sym b; do
        fail "section $a references $sym of section $b (nm; sections share results through a lower file)"
    done <<<"$refs"
done

[ "$fails" -eq 0 ] && echo "floors: ${#FILES[@]} files, includes by floor, private headers, static names, function" \
    "lengths, sections${BUILD:+ and circles by reference} ok"
[ "$fails" -eq 0 ]
