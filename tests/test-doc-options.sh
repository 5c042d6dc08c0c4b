#!/usr/bin/env bash
# test-doc-options.sh — every command's --help, man page and completions come from one declaration.
# For each command given: the options of `tunecost CMD --help` (long name, letter, value name and help text with
# its default, re-joined from the wrapped lines) must equal those of the man page tunecost-CMD.1 (the .TP entries
# of OPTIONS, troff escapes undone, the installed documents' folder written back as docs/), in the same order; the bash completion must offer exactly those long
# options after "--", and the zsh completion must name each of them. A hand-edited help or page fails here.
#
# Usage: test-doc-options.sh TUNECOST MAN_DIR BASH_COMPLETION ZSH_COMPLETION CMD...
# Exit: 0 pass, 1 fail.
set -u
TUNECOST=${1:?usage: test-doc-options.sh TUNECOST MAN_DIR BASH_COMPLETION ZSH_COMPLETION CMD...}
MAN_DIR=${2:?} BASH_COMP=${3:?} ZSH_COMP=${4:?}
shift 4
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-doc-options.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
n_fail=0
fail() { echo "FAIL: $*"; n_fail=$((n_fail + 1)); }

# The Options section of --help, one line per option: "LABEL<TAB>TEXT" (continuation lines joined).
help_options() {
    awk '
        /^Options/ { on = 1; next }
        on && /^$/ { on = 0 }
        !on { next }
        /^[^ ]/ { next }  # a group heading
        /^  -/ || /^      --/ {
            if (label != "") print label "\t" text
            line = $0; sub(/^ +/, "", line)
            if (match(line, /  +/)) { label = substr(line, 1, RSTART - 1); text = substr(line, RSTART + RLENGTH) }
            else { label = line; text = "" }
            next
        }
        { t = $0; sub(/^ +/, "", t); text = (text == "" ? t : text " " t) }
        END { if (label != "") print label "\t" text }
    '
}

# The OPTIONS section of a man page, the same shape.
man_options() {
    awk '
        /^\.SH OPTIONS/ { on = 1; next }
        /^\.SH/ { on = 0 }
        !on { next }
        /^\.TP/ { state = 1; next }
        state == 1 { label = $0; state = 2; next }
        state == 2 { print label "\t" $0; state = 0 }
    ' | sed -E 's/\\f[BIR]//g; s/\\-/-/g; s/\\e/\\/g; s/\\&//g; s#/[^ ()]*/doc/tunecost/#docs/#g'
}

for cmd in "$@"; do
    page=$MAN_DIR/tunecost-$cmd.1
    [ -s "$page" ] || { fail "$cmd: no man page $page"; continue; }
    "$TUNECOST" "$cmd" --help | help_options >"$TMP/help" || fail "$cmd --help failed"
    man_options <"$page" >"$TMP/man"
    [ -s "$TMP/help" ] || fail "$cmd: no options found in --help"
    cp "$TMP/help" "$TMP/help.n"
    if ! cmp -s "$TMP/help.n" "$TMP/man"; then
        fail "$cmd: --help and man page differ: $(diff "$TMP/help.n" "$TMP/man" | head -n 4 | tr '\n' '|')"
    fi
    # Completions offer the same long options.
    cut -f1 "$TMP/help.n" | grep -oE -- '--[a-z0-9-]+' | sort >"$TMP/longs"
    bash -c 'source "$1"; COMP_WORDS=(tunecost "$2" --); COMP_CWORD=2; _tunecost; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$BASH_COMP" "$cmd" | grep -- '^--' | sort >"$TMP/bash"
    cmp -s "$TMP/longs" "$TMP/bash" || fail "$cmd: bash completion offers $(tr '\n' ' ' <"$TMP/bash"), --help lists $(tr '\n' ' ' <"$TMP/longs")"
    awk -v f="_tunecost_$cmd() {" '$0 == f { on = 1; next } on && /^}/ { on = 0 } on' "$ZSH_COMP" >"$TMP/zsh"
    while read -r long; do
        grep -qE -- "(^|[,'{ ])$long[],'[}]" "$TMP/zsh" || fail "$cmd: zsh completion lacks $long"
    done <"$TMP/longs"
done
[ "$n_fail" -eq 0 ] && echo "doc-options: --help, man page and completions agree for: $*"
[ "$n_fail" -eq 0 ]
