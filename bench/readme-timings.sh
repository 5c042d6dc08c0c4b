#!/usr/bin/env bash
# readme-timings.sh — re-measure the quick start's timing that README.md quotes: `make demo` (configure, build,
# report of the shipped trace) on a clean clone, with /usr/bin/time, split into the build and the report. Prints
# wall seconds and CPU seconds (user + sys, children included: less sensitive to a shared machine's load than wall
# time), the load average at the start, the commit, the date and the host, as one block to paste into README.md.
#
# Usage: bash bench/readme-timings.sh [REPO] [WORKDIR]
#   REPO     what to clone (default: the checkout this script is in; its HEAD, so commit first)
#   WORKDIR  where the clone goes (default: a new folder under $TMPDIR; removed at the end unless KEEP=1)
# Needs the build packages installed (make deps), /usr/bin/time (Debian package time).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
REPO=${1:-$HERE}
WORK=${2:-$(mktemp -d "${TMPDIR:-/tmp}/tc-readme-timings.XXXXXX")}
[ -x /usr/bin/time ] || { echo "readme-timings: /usr/bin/time is needed (apt-get install time)" >&2; exit 2; }
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$WORK"' EXIT
git clone -q "$REPO" "$WORK/clone" || { echo "readme-timings: cannot clone $REPO" >&2; exit 1; }
cd "$WORK/clone" || exit 1
load=$(cut -d' ' -f1-3 /proc/loadavg)
# the two halves of `make demo`, each timed: `make build` (deps check, configure, ninja), then the report
/usr/bin/time -f "%e %U %S" -o "$WORK/build.time" make build >"$WORK/build.log" 2>&1 ||
    { echo "readme-timings: make build failed: $(tail -n 3 "$WORK/build.log")" >&2; exit 1; }
/usr/bin/time -f "%e %U %S" -o "$WORK/demo.time" make demo >"$WORK/demo.log" 2>&1 ||
    { echo "readme-timings: make demo failed: $(tail -n 3 "$WORK/demo.log")" >&2; exit 1; }
read -r bw bu bs <"$WORK/build.time"
read -r rw ru rs <"$WORK/demo.time" # make demo after the build: the report (the build is up to date)
awk -v bw="$bw" -v bu="$bu" -v bs="$bs" -v rw="$rw" -v ru="$ru" -v rs="$rs" 'BEGIN {
    printf "make demo on a clean clone: %.0f s wall, %.0f CPU s (user + sys)\n", bw + rw, bu + bs + ru + rs
    printf "  build (configure + ninja): %.0f s wall, %.0f CPU s\n", bw, bu + bs
    printf "  report of the shipped trace: %.0f s wall, %.0f CPU s\n", rw, ru + rs }'
echo "commit $(git rev-parse --short HEAD), $(date -u +%Y-%m-%d), $(nproc) cores ($(uname -m)), load average at start $load"
