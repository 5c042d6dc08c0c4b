# policies.gp — mean speedup relative to optimal over tuning time, one line per policy with its 95% CI band, and
# the analytic random-search baseline (dashed). Reads curves.tsv of `tunecost policies` in the current
# directory; `term` is 'pngcairo' or 'svg' (gnuplot -e "term='svg'").
if (!exists("term")) term = 'pngcairo'
if (term eq 'svg') { set terminal svg size 900,560 font 'sans,12'; set output 'policies.svg' } \
else { set terminal pngcairo size 900,560 font 'sans,10'; set output 'policies.png' }
set datafile separator "\t"
set key bottom right
set logscale x
set xlabel 'tuning time (s)'
set ylabel 'speedup relative to optimal (mean over inputs and runs)'
set yrange [0:1.02]
set grid
policies = system("awk -F'\t' 'NR>2 && !seen[$1]++ {printf \"%s \", $1}' curves.tsv")
plot for [p in policies] 'curves.tsv' using (strcol(1) eq p ? $2 : 1/0):4:5 with filledcurves fs transparent solid 0.15 notitle, \
     for [p in policies] 'curves.tsv' using (strcol(1) eq p ? $2 : 1/0):3 with lines lw 2 title p, \
     'curves.tsv' using (strcol(1) eq "random" ? $2 : 1/0):6 with lines dt 2 lc 'black' title 'random, analytic'
