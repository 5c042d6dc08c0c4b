# policies.gp — tuning policies: mean speedup relative to optimal over tuning time, one line per policy with its
# 95% CI band, and the analytic random-search baseline (dashed). Two ways to run it:
#   in a report directory (gnuplot -e "fmt='png'; out='policies.png'; ..." plots/policies.gp): reads
#     policies-curves.tsv, with the conventions of common.gp;
#   in a `tunecost policies -o DIR` directory (gnuplot -e "term='svg'" plots/policies.gp): reads curves.tsv and
#     writes policies.png or policies.svg.
if (exists("fmt")) {
    load "plots/common.gp"
    data = 'policies-curves.tsv'
} else {
    if (!exists("term")) { term = 'pngcairo' }
    if (term eq 'svg') {
        set terminal svg size 900,560 font 'sans,12'
        set output 'policies.svg'
    } else {
        set terminal pngcairo size 900,560 font 'sans,10'
        set output 'policies.png'
    }
    set datafile separator "\t"
    data = 'curves.tsv'
}
set key bottom right
set logscale x
set xlabel 'tuning time (s)'
set ylabel 'speedup relative to optimal (mean over inputs and runs)'
set yrange [0:1.02]
set grid
policies = system("awk -F'\t' '$1 !~ /^#/ && $1 != \"policy\" && !seen[$1]++ {printf \"%s \", $1}' " . data)
plot for [p in policies] data using (strcol(1) eq p ? column(2) : 1/0):4:5 with filledcurves fs transparent solid 0.15 notitle, \
     for [p in policies] data using (strcol(1) eq p ? column(2) : 1/0):3 with lines lw 2 title p, \
     data using (strcol(1) eq "random" ? column(2) : 1/0):6 with lines dt 2 lc 'black' title 'random, analytic'
