#!/bin/bash
# collect/device.sh — build `tunecost` on a GPU machine whose image lacks GSL and check (the H100/H200 image):
# they come from Debian packages unpacked into .debs/root (docs/collector.md says how), named in `carry`.
# usage: bash collect/device.sh [BUILD_DIR]   (default build-dev); then BUILD_DIR/tunecost collect ...
set -euo pipefail
cd "$(dirname "$0")/.."
. collect/device-env.sh
B=${1:-build-dev}
[ -f "$B/build.ninja" ] || meson setup "$B" -Dcollector=enabled >"$B.setup.log" 2>&1 || { cat "$B.setup.log"; exit 1; }
ninja -C "$B" tunecost >"$B.ninja.log" 2>&1 || { tail -40 "$B.ninja.log"; exit 1; }
echo "built $B/tunecost"
