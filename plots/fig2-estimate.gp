# fig2-estimate.gp — the paper's Figure 2: Triton's per-execution estimate against the warmed execution time
# (left, log-log, the diagonal is a perfect estimate) and the timed total against the requested repetition time
# (right). Reads fig2_estimate_tsv (from a triton-protocol trace).
load "plots/common.gp"
stats fig2_estimate_tsv using "rep_ms" nooutput
rep = STATS_max
# both panels share the x axis, from the data (a little room at both ends)
stats fig2_estimate_tsv using "warm_median_ms" nooutput
set xrange [STATS_min / 1.3 : STATS_max * 1.3]
# the estimates' own range on the left panel's y axis (no empty decades below the smallest estimate)
stats fig2_estimate_tsv using "estimate_ms" nooutput
y_lo = STATS_min / 1.3; y_hi = STATS_max * 1.3
set multiplot layout 1,2 title "Triton-protocol estimate vs warmed execution time" . t_device
set logscale xy
set xlabel "Warmed execution time, median (ms)"
set ylabel "Estimated time per execution (ms)"
set yrange [y_lo:y_hi]
# labels at 1, 2 and 5 of every decade: the estimates may span less than one decade
set ytics add ("0.002" 0.002, "0.005" 0.005, "0.02" 0.02, "0.05" 0.05, "0.2" 0.2, "0.5" 0.5, "2" 2, "5" 5, \
    "20" 20, "50" 50)
# keys below the panels, where they cover no run
set key bmargin center horizontal font f_key samplen 3
set bmargin 7
plot fig2_estimate_tsv using "warm_median_ms":"estimate_ms" with points pt 7 ps 1.0 lc rgb c_base \
         title "one run (input, config.)", \
     x with lines dt 2 lw 2 lc rgb "#333333" title "estimate = warmed"
unset logscale y
set ytics autofreq
set ylabel "Timed executions, total (ms)"
set yrange [0:rep * 1.15]
plot fig2_estimate_tsv using "warm_median_ms":"timed_total_ms" with points pt 7 ps 1.0 lc rgb c_pip \
         title "one run (input, config.)", \
     rep with lines dt 2 lw 2 lc rgb "#333333" title sprintf("requested %.0f ms", rep)
unset multiplot
