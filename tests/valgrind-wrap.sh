#!/usr/bin/env bash
# valgrind-wrap.sh — exe_wrapper of the meson test setup `valgrind` (top-level meson.build).
# A compiled test runs under valgrind memcheck directly; a script test (#!) runs as it is, with
# TUNECOST_WRAPPER set so that the scripts that honour it (test-corpus.sh, test-options.sh) run every tunecost
# process under memcheck. Any memcheck error or definite leak makes the process exit 99, failing the test.
# Usage: meson test -C BUILD --setup valgrind [--suite unit] [--suite integration]
set -u
if ! command -v valgrind >/dev/null; then
    echo "SKIP: valgrind is not installed (apt-get install valgrind)"
    exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
--show-leak-kinds=definite --track-origins=yes --suppressions=$here/valgrind.supp"
if [ "$(head -c 2 "$1" 2>/dev/null)" = "#!" ]; then
    export TUNECOST_WRAPPER=$vg
    exec "$@"
fi
# shellcheck disable=SC2086
exec $vg "$@"
