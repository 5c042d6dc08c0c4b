#!/bin/sh
# test-report-chromium.sh — every figure of the report renders in headless Chromium (Debian's `chromium`) and is
# not blank. On index.html, for each of the 8 figures: its <img> loaded, is laid out at a readable size, and its
# pixels (read back through a canvas) hold data-coloured ink, not only axes, text and a key. Each figure's part of
# the page is screenshot on its own (report-NAME.png in the test's working directory, for a human to look at),
# and the whole page too (report-screenshot.png). A figure redrawn with the command the docs give must not read
# "..., ()" in its title. Skips (77) without chromium or gnuplot.
#   test-report-chromium.sh TUNECOST TEST-REPORT   (TEST-REPORT writes the hand-built fixture traces)
set -u
tunecost=$1
fixture=$2
command -v chromium >/dev/null 2>&1 || { echo "SKIP: chromium not installed (apt-get install chromium)"; exit 77; }
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: gnuplot not installed, the report has no images"; exit 77; }
tmp=$(mktemp -d /tmp/test-report-chromium.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# every figure of the report, as named in index.html (<figure id="NAME"> around NAME.png)
figures="fig1-split fig2-estimate fig3-frontier fig4-parallel fig5-early-stop heatmap models policies"
n_fig=8

"$fixture" fixture "$tmp/fx.h5" || fail "cannot write the fixture trace"
"$fixture" triton "$tmp/tr.h5" || fail "cannot write the triton fixture trace"
"$tunecost" report "$tmp/fx.h5" --triton-trace "$tmp/tr.h5" -o "$tmp/report" --samples 60 --runs 5 -q \
    || fail "tunecost report failed"
# Figures that can be told apart. The palette (plots/palette.gp, loaded by every script) holds at least 14 styles
# of which no two share both colour and dash; the styles policies.gp drew the report's policies with (its
# styles_out file) are all different; and every figure's key lies outside the plot area (a margin, outside, or at
# screen coordinates beyond the plot), where it cannot cover data.
(cd "$tmp/report" && gnuplot -e "out='/dev/null'; styles_out='styles.tsv'" plots/policies.gp) 2>/dev/null \
    || fail "plots/policies.gp did not run in the report directory"
n_pol=$(awk -F'\t' 'NR > 1' "$tmp/report/styles.tsv" | wc -l)
n_pol_tsv=$(awk -F'\t' '$1 !~ /^#/ && $1 != "policy" && !seen[$1]++' "$tmp/report/policies-curves.tsv" | wc -l)
[ "$n_pol" -ge 2 ] && [ "$n_pol" -eq "$n_pol_tsv" ] \
    || fail "policies.gp styled $n_pol policies, policies-curves.tsv holds $n_pol_tsv"
dup=$(awk -F'\t' 'NR > 1 {print $2, $3}' "$tmp/report/styles.tsv" | sort | uniq -d)
[ -z "$dup" ] || fail "two policy curves share a style (colour, dash): $dup"
n_styles=$(cd "$tmp/report" && gnuplot -e 'load "plots/palette.gp"; do for [i=1:pal_n] { print pal_colour(i), pal_dash(i) }' \
    2>&1 | sort -u | wc -l)
[ "$n_styles" -ge 14 ] || fail "plots/palette.gp has $n_styles distinct styles, expected 14 or more"
for gp in "$tmp"/report/plots/*.gp; do
    case $gp in */common.gp|*/palette.gp|*/titles.gp) continue ;; esac
    bad=$(grep -E '^[[:space:]]*set key' "$gp" | grep -vE 'outside|[tblr]margin|at screen|set key off') && \
        fail "$(basename "$gp") puts its key inside the plot area: $bad"
done
echo "styles: $n_pol policies, $n_styles palette styles, no two alike; every key outside the plot area"
# Wide tables scroll instead of being cut: every table sits in a <div class="scroll"> (overflow-x: auto).
n_tab=$(grep -c '<table>' "$tmp/report/index.html")
n_scroll=$(grep -B1 '<table>' "$tmp/report/index.html" | grep -c '<div class="scroll">')
[ "$n_tab" -ge 1 ] && [ "$n_scroll" -eq "$n_tab" ] || fail "$n_scroll of $n_tab tables can scroll sideways"
grep -q '\.scroll{overflow-x:auto}' "$tmp/report/index.html" || fail "the page's style lacks .scroll{overflow-x:auto}"

n_img=$(grep -o '<img ' "$tmp/report/index.html" | wc -l)
[ "$n_img" -eq "$n_fig" ] || fail "index.html has $n_img <img> elements, expected $n_fig (every figure drawn)"

# A copy of the page with a script that reports, per image, whether it loaded, its laid-out height, and the
# share of its pixels (per ten thousand) that are ink (darker than near-white) and colour (max - min channel > 40:
# the data's colours; axes, text and grid are grey). The report itself has no scripts.
cat > "$tmp/inject.html" <<'JS'
<script>
window.addEventListener("load", function () {
  var imgs = document.images, out = [];
  for (var i = 0; i < imgs.length; i++) {
    var im = imgs[i], w = im.naturalWidth, h = im.naturalHeight, src = im.getAttribute("src");
    if (!im.complete || w === 0) { out.push("FIGCHECK " + src + " loaded=0"); continue; }
    var cv = document.createElement("canvas"); cv.width = w; cv.height = h;
    var cx = cv.getContext("2d"); cx.drawImage(im, 0, 0);
    var d, ink = 0, col = 0;
    try { d = cx.getImageData(0, 0, w, h).data; } catch (e) { out.push("FIGCHECK " + src + " unreadable=" + e.name); continue; }
    for (var p = 0; p < d.length; p += 4) {
      var mx = Math.max(d[p], d[p + 1], d[p + 2]), mn = Math.min(d[p], d[p + 1], d[p + 2]);
      if (mn < 230) ink++;
      if (mx - mn > 40) col++;
    }
    out.push("FIGCHECK " + src + " loaded=1 shown_px=" + Math.round(im.getBoundingClientRect().height) +
             " ink=" + Math.round(10000 * ink / (w * h)) + " colour=" + Math.round(10000 * col / (w * h)));
  }
  var pre = document.createElement("pre"); pre.textContent = out.join("\n"); document.body.appendChild(pre);
});
</script>
JS
awk -v inj="$tmp/inject.html" '/<\/body>/ { while ((getline l < inj) > 0) print l } { print }' \
    "$tmp/report/index.html" > "$tmp/report/check.html"
# --allow-file-access-from-files: the PNGs, like the page, are file:// URLs, so the canvas may read them back
flags="--headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir=$tmp/profile"
timeout 120 chromium $flags --allow-file-access-from-files --window-size=1280,2000 --virtual-time-budget=10000 \
    --dump-dom "file://$tmp/report/check.html" 2>/dev/null | grep -o 'FIGCHECK [a-z0-9-]*\.png [^<]*' > "$tmp/imgs.txt"
cat "$tmp/imgs.txt"
[ "$(wc -l < "$tmp/imgs.txt")" -eq "$n_fig" ] || fail "Chromium reported on $(wc -l < "$tmp/imgs.txt") images, expected $n_fig"
for name in $figures; do
    line=$(grep "^FIGCHECK $name.png " "$tmp/imgs.txt") || fail "$name.png is not on the page"
    case $line in *" loaded=1 "*) ;; *) fail "$name.png did not load in Chromium: $line" ;; esac
    # the numbers after '=': shown height in px, ink and colour per ten thousand pixels
    set -- $(printf '%s\n' "$line" | sed 's/[^ ]*=//g')
    shown=$4; ink=$5; colour=$6
    [ "$shown" -ge 300 ] || fail "$name.png is laid out only $shown px high on the page"
    # A white or nearly white image has almost no ink (axes, title and labels alone are about 270 / 10000).
    # Axes and a key of six coloured entries without data measured 17 / 10000 of colour; the fixture's figures
    # measure 220 or more, except Figure 2, whose triton fixture holds a single run (two dots, 1 / 10000): for it
    # only an image with no colour at all fails.
    min_colour=50
    [ "$name" = fig2-estimate ] && min_colour=1
    [ "$ink" -ge 200 ] || fail "$name.png is nearly empty: $ink / 10000 of its pixels are ink"
    [ "$colour" -ge "$min_colour" ] || fail "$name.png shows no data: $colour / 10000 of its pixels are coloured"
done

# Each figure's part of the page on its own: the page's own style, everything but the heading and the figure
# hidden. Chromium must write a screenshot of it; a human looks at them (report-NAME.png in the build directory).
for name in $figures; do
    awk -v id="$name" '/<\/head>/ { print "<style>body > *:not(h1):not(#" id "){display:none}</style>" } { print }' \
        "$tmp/report/index.html" > "$tmp/report/only-$name.html"
    timeout 120 chromium $flags --window-size=1280,1500 --screenshot="$tmp/$name.png" \
        "file://$tmp/report/only-$name.html" >/dev/null 2>&1
    [ -s "$tmp/$name.png" ] || fail "Chromium wrote no screenshot of $name's part of the page"
    cp "$tmp/$name.png" "report-$name.png" 2>/dev/null || true
done

timeout 120 chromium $flags --window-size=1280,4000 --screenshot="$tmp/shot.png" "file://$tmp/report/index.html" \
    >/dev/null 2>&1
[ -s "$tmp/shot.png" ] || fail "Chromium wrote no screenshot"
size=$(wc -c < "$tmp/shot.png")
[ "$size" -gt 50000 ] || fail "screenshot is only $size bytes: the page looks empty"
cp "$tmp/shot.png" report-screenshot.png 2>/dev/null || true

# The redraw the docs give (cd DIR && gnuplot -e "fmt='svg'; out=..." plots/NAME.gp) titles the figure without
# an empty "()"; where the report left plots/titles.gp, exactly as the report titled it.
(cd "$tmp/report" && gnuplot -e "fmt='svg'; out='redraw.svg'" plots/fig3-frontier.gp) 2>/dev/null \
    || fail "the documented redraw of fig3-frontier failed"
title_of() { grep -o '>Pareto frontier of tuning time[^<]*<' "$1" | head -n 1; }
redrawn=$(title_of "$tmp/report/redraw.svg")
[ -n "$redrawn" ] || fail "the redrawn fig3-frontier.svg has no title"
case $redrawn in *"()"*|*", ("*) fail "the redrawn title has an empty part: $redrawn" ;; esac
if [ -f "$tmp/report/plots/titles.gp" ]; then
    [ "$redrawn" = "$(title_of "$tmp/report/fig3-frontier.svg")" ] \
        || fail "the redrawn title $redrawn differs from the report's $(title_of "$tmp/report/fig3-frontier.svg")"
fi
echo "PASS: $n_fig of $n_fig figures loaded, laid out and not blank; screenshots report-*.png ($size bytes for the page)"
exit 0
