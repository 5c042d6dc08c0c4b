#!/bin/bash
# collect/device.sh — build `tunecost` with the collector on a GPU machine. Where GSL and check are not installed
# as packages, unpack their Debian packages into .debs/root of the checkout (docs/collector.md, "Build" says how);
# collect/device-env.sh then points PKG_CONFIG_PATH and the library paths at them.
# usage: bash collect/device.sh [BUILD_DIR]   (default build-dev); then BUILD_DIR/tunecost collect ...
set -euo pipefail
cd "$(dirname "$0")/.."
. collect/device-env.sh
B=${1:-build-dev}
[ -f "$B/build.ninja" ] || meson setup "$B" -Dcollector=enabled >"$B.setup.log" 2>&1 || { cat "$B.setup.log"; exit 1; }
ninja -C "$B" tunecost >"$B.ninja.log" 2>&1 || { tail -40 "$B.ninja.log"; exit 1; }
echo "built $B/tunecost"
