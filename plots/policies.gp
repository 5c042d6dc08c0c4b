# policies.gp — tuning policies: mean speedup relative to optimal over tuning time, one line per policy with its
# 95% CI band, and the analytic random-search baseline (dashed). Variables (gnuplot -e), besides common.gp's:
#   data      the curves file [policies-curves.tsv, as in a report directory; `tunecost policies` passes curves.tsv]
#   plotsdir  where common.gp is [plots, as in a report directory]
if (!exists("plotsdir")) plotsdir = "plots"
if (!exists("data")) data = "policies-curves.tsv"
load plotsdir . "/common.gp"
set key bottom right
set logscale x
eval xtics_125
# x from the data (the curves' time grid), so the axis does not open on an empty decade
stats data using 2 nooutput
set xrange [STATS_min / 1.15 : STATS_max * 1.15]
set xlabel "Tuning time (s, log scale)"
set ylabel "Speedup relative to optimal (mean)"
set yrange [0:1.02]
set title "Tuning policies, every cost charged" . t_device
policies = system("awk -F'\t' '$1 !~ /^#/ && $1 != \"policy\" && !seen[$1]++ {printf \"%s \", $1}' " . data)
plot for [p in policies] data using (strcol(1) eq p ? column(2) : 1/0):4:5 with filledcurves fs transparent solid 0.15 notitle, \
     for [p in policies] data using (strcol(1) eq p ? column(2) : 1/0):3 with lines lw 2 title p, \
     data using (strcol(1) eq "random" ? column(2) : 1/0):6 with lines dt 2 lc rgb "black" title "random, analytic"
