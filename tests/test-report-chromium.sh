#!/bin/sh
# test-report-chromium.sh — the report's index.html renders in headless Chromium (Debian's `chromium`) with every
# <img> loaded (naturalWidth > 0), and a screenshot of the page is taken (report-screenshot.png in the test's
# working directory, for a human to look at). Skips (77) without chromium or gnuplot.
#   test-report-chromium.sh TUNECOST TEST-REPORT   (TEST-REPORT writes the hand-built fixture traces)
set -u
tunecost=$1
fixture=$2
command -v chromium >/dev/null 2>&1 || { echo "SKIP: chromium not installed (apt-get install chromium)"; exit 77; }
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: gnuplot not installed, the report has no images"; exit 77; }
tmp=$(mktemp -d /tmp/test-report-chromium.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$fixture" fixture "$tmp/fx.h5" || fail "cannot write the fixture trace"
"$fixture" triton "$tmp/tr.h5" || fail "cannot write the triton fixture trace"
"$tunecost" report "$tmp/fx.h5" --triton-trace "$tmp/tr.h5" -o "$tmp/report" --samples 60 --runs 5 -q \
    || fail "tunecost report failed"
n_img=$(grep -o '<img ' "$tmp/report/index.html" | wc -l)
# 8 figures: fig1-fig5, the heatmap, the overhead models and the tuning policies
[ "$n_img" -eq 8 ] || fail "index.html has $n_img <img> elements, expected 8 (every figure drawn)"

# A copy of the page with a script that reports how many images loaded; the report itself has no scripts.
cat > "$tmp/inject.html" <<'JS'
<script>
window.addEventListener("load", function () {
  var imgs = document.images, ok = 0;
  for (var i = 0; i < imgs.length; i++) if (imgs[i].complete && imgs[i].naturalWidth > 0) ok++;
  var p = document.createElement("pre");
  p.textContent = "IMGCHECK total=" + imgs.length + " loaded=" + ok;
  document.body.appendChild(p);
});
</script>
JS
awk -v inj="$tmp/inject.html" '/<\/body>/ { while ((getline l < inj) > 0) print l } { print }' \
    "$tmp/report/index.html" > "$tmp/report/check.html"
flags="--headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir=$tmp/profile"
dom=$(timeout 120 chromium $flags --virtual-time-budget=10000 --dump-dom "file://$tmp/report/check.html" 2>/dev/null)
line=$(printf '%s\n' "$dom" | grep -o 'IMGCHECK total=[0-9]* loaded=[0-9]*' | head -n 1)
echo "chromium: ${line:-no result}"
[ "$line" = "IMGCHECK total=8 loaded=8" ] || fail "not every image loaded in Chromium: ${line:-no result}"

timeout 120 chromium $flags --window-size=1280,4000 --screenshot="$tmp/shot.png" "file://$tmp/report/index.html" \
    >/dev/null 2>&1
[ -s "$tmp/shot.png" ] || fail "Chromium wrote no screenshot"
size=$(wc -c < "$tmp/shot.png")
[ "$size" -gt 50000 ] || fail "screenshot is only $size bytes: the page looks empty"
cp "$tmp/shot.png" report-screenshot.png 2>/dev/null || true
echo "PASS: 8 of 8 images loaded; screenshot $size bytes (report-screenshot.png)"
exit 0
