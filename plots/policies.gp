# policies.gp — tuning policies: mean speedup relative to optimal over tuning time, one line per policy with its
# 95% CI band, and the analytic random-search baseline (dotted grey). Each policy has its own colour and dash
# pattern from palette.gp (no two alike), the key sits outside the plot (right), and the x axis starts where the
# first curve leaves zero. Variables (gnuplot -e), besides common.gp's:
#   policies_curves_tsv  the curves file (the report's plots/titles.gp names it; `tunecost policies` passes it)
#   plotsdir    where common.gp is [plots, as in a report directory]
#   styles_out  if set, a TSV file to which the style of each policy drawn is written (policy, colour, dash): the
#               report-chromium test checks that no two policies share one
if (!exists("plotsdir")) plotsdir = "plots"
aspect = 0.55
load plotsdir . "/common.gp"
data = policies_curves_tsv
set key outside right top vertical font f_key samplen 3 spacing 1.1 noopaque
set logscale x
eval xtics_125
# x from where the first curve leaves zero (the curves' time grid up to there holds nothing) to the budget
# (every curve at zero, as on a tiny trace: from the grid's start)
stats data using 2 nooutput
x_lo = STATS_min
x_hi = STATS_max
undefine STATS_*
stats data using (column(3) > 0 ? column(2) : 1/0) nooutput
if (exists("STATS_min")) { x_lo = STATS_min }
set xrange [x_lo / 1.15 : x_hi * 1.1]
set xlabel "Tuning time (s, log scale)"
set ylabel "Speedup relative to optimal (mean)"
set yrange [0:1.02]
set title "Tuning policies, every cost charged" . t_device
policies = system("awk -F'\t' '$1 !~ /^#/ && $1 != \"policy\" && !seen[$1]++ {printf \"%s \", $1}' " . data)
n_pol = words(policies)
# each policy's style: its place in pal_policies, or the next free one after them
array pidx[n_pol > 0 ? n_pol : 1]
extra = 0
do for [i = 1:n_pol] {
    pidx[i] = 0
    do for [k = 1:words(pal_policies)] { if (word(pal_policies, k) eq word(policies, i)) { pidx[i] = k } }
    if (pidx[i] == 0) { extra = extra + 1; pidx[i] = words(pal_policies) + extra }
}
if (exists("styles_out")) {
    set print styles_out
    print "policy\tcolour\tdash"
    do for [i = 1:n_pol] { print sprintf("%s\t%s\t%d", word(policies, i), pal_colour(pidx[i]), pal_dash(pidx[i])) }
    unset print
}
plot for [i = 1:n_pol] data using (strcol(1) eq word(policies, i) ? column(2) : 1/0):4:5 with filledcurves \
         fs transparent solid band_alpha noborder lc rgb pal_colour(pidx[i]) notitle, \
     for [i = 1:n_pol] data using (strcol(1) eq word(policies, i) ? column(2) : 1/0):3 with lines lw 2.5 \
         lc rgb pal_colour(pidx[i]) dt pal_dash(pidx[i]) title word(policies, i), \
     data using (strcol(1) eq "random" ? column(2) : 1/0):6 with lines dt 3 lw 2 lc rgb "#777777" \
         title "random, analytic"
