# landscapes.gp — two kernel families on the same benchmark. Left: per input, the best configuration's TFLOP/s
# over cuBLAS's for each family (landscapes.tsv; inputs in the trace's order, 1 = as fast as cuBLAS). Right: each
# family's Pareto frontier of mean speedup relative to its own optimal vs mean tuning time, all inputs, the
# paper's model (sim/all-baseline-frontier.tsv, sim/compare-baseline-frontier.tsv). Variables (gnuplot -e),
# besides common.gp's: ref, cmp  the two families' names (legend; from plots/titles.gp when not given).
aspect = 0.5
load "plots/common.gp"
if (!exists("ref")) { if (exists("report_ref")) { ref = report_ref } else { ref = "reference" } }
if (!exists("cmp")) { if (exists("report_cmp")) { cmp = report_cmp } else { cmp = "second family" } }
# the frontiers' time range, so that the log axis starts near the cheapest point rather than a decade below
stats "sim/all-baseline-frontier.tsv" using "time_s" nooutput name "A"
stats "sim/compare-baseline-frontier.tsv" using "time_s" nooutput name "B"
t_lo = 0.8 * (A_min < B_min ? A_min : B_min)
t_hi = 1.25 * (A_max > B_max ? A_max : B_max)
stats "sim/all-baseline-frontier.tsv" using "speedup" nooutput name "SA"
stats "sim/compare-baseline-frontier.tsv" using "speedup" nooutput name "SB"
# room below the curves for the key
s_lo = (SA_min < SB_min ? SA_min : SB_min) - 0.15
set multiplot layout 1,2 title sprintf("Two kernel families on the same benchmark%s", t_device)
# the families' names are long: a key font well below the main one (the same share of the width in both formats)
f_lkey = (fmt eq "svg") ? ",8" : ",12"
set key top left opaque box font f_lkey samplen 1.5 maxrows 3
set title "Best configuration per input vs cuBLAS"
set xlabel "Input (in the trace's order)"
set ylabel "Best TFLOP/s / cuBLAS TFLOP/s"
# room above the points for the key
set yrange [0:1.6]
set ytics 0, 0.2, 1.4
set xrange [-1:*]
plot 1 with lines dt 2 lc rgb "#777777" title "cuBLAS", \
     "landscapes.tsv" using "input":"ref_vs_cublas" with points pt 7 ps psz lc rgb c_base title ref, \
     "landscapes.tsv" using "input":"cmp_vs_cublas" with points pt 5 ps psz lc rgb c_pip title cmp
set title "Pareto frontier, all inputs"
set xlabel "Mean tuning time per input (s, log scale)"
set ylabel "Mean speedup relative to the family's optimal"
set logscale x
eval xtics_125
set xrange [t_lo:t_hi]
set yrange [s_lo:1.02]
set ytics autofreq
set key bottom right
plot "sim/all-baseline-frontier.tsv" using "time_s":"speedup_lo":"speedup_hi" with filledcurves \
         fs transparent solid 0.2 noborder lc rgb c_base notitle, \
     "sim/compare-baseline-frontier.tsv" using "time_s":"speedup_lo":"speedup_hi" with filledcurves \
         fs transparent solid 0.2 noborder lc rgb c_pip notitle, \
     "sim/all-baseline-frontier.tsv" using "time_s":"speedup" with linespoints lw 3 pt 7 ps psz lc rgb c_base \
         title ref, \
     "sim/compare-baseline-frontier.tsv" using "time_s":"speedup" with linespoints lw 3 pt 5 ps psz lc rgb c_pip \
         title cmp
unset multiplot
