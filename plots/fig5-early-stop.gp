# fig5-early-stop.gp — the paper's Figure 5: all inputs, mean speedup relative to optimal vs mean tuning time, with
# and without early stopping; frontiers with their 95% confidence bands, samples faint.
# Reads sim_all_{baseline,early_stop}[_frontier]_tsv.
load "plots/common.gp"
set title "Early stopping vs sequential compilation, all inputs" . t_device
set xlabel "Mean tuning time per input (s, log scale)"
set ylabel "Mean speedup relative to optimal"
set logscale x
eval xtics_125
# x from the data (a little room at both ends), so the axis does not open on an empty decade
stats sim_all_baseline_tsv using "time_s" nooutput
lo = STATS_min; hi = STATS_max
stats sim_all_early_stop_tsv using "time_s" nooutput
lo = (STATS_min < lo) ? STATS_min : lo; hi = (STATS_max > hi) ? STATS_max : hi
set xrange [lo / 1.15 : hi * 1.15]
# the key below the plot (under the x label), one column per scenario, so it covers no sample or frontier and
# stays below the title
set key bmargin center horizontal maxrows 3 samplen 2 width -4 font f_key
set bmargin 7.5
set yrange [*:1.02]
# drawn samples first, bands, then frontiers (the baseline wide and pale, early stopping thin on top: they often
# coincide); the key (keyentry) lists one scenario per column
plot sim_all_baseline_tsv using "time_s":"speedup" with points pt 7 ps psz lc rgb "#b3cde3" notitle, \
     sim_all_early_stop_tsv using "time_s":"speedup" with points pt 7 ps psz lc rgb "#b2dfce" notitle, \
     sim_all_baseline_frontier_tsv using "time_s":"speedup_lo":"speedup_hi" with filledcurves \
         fs transparent solid band_alpha noborder lc rgb c_base notitle, \
     sim_all_early_stop_frontier_tsv using "time_s":"speedup_lo":"speedup_hi" with filledcurves \
         fs transparent solid band_alpha noborder lc rgb c_es notitle, \
     sim_all_baseline_frontier_tsv using "time_s":"speedup" with linespoints lw 8 pt 7 ps (psz * 1.2) lc rgb "#8fbfe0" \
         notitle, \
     sim_all_early_stop_frontier_tsv using "time_s":"speedup" with linespoints lw 2.5 pt 9 ps psz lc rgb c_es notitle, \
     keyentry with points pt 7 ps psz lc rgb "#b3cde3" title "sequential (Triton's default): samples", \
     keyentry with filledcurves fs transparent solid band_alpha noborder lc rgb c_base title "sequential (Triton's default): 95% CI", \
     keyentry with linespoints lw 8 pt 7 ps (psz * 1.2) lc rgb "#8fbfe0" title "sequential (Triton's default): frontier", \
     keyentry with points pt 7 ps psz lc rgb "#b2dfce" title "early stopping: samples", \
     keyentry with filledcurves fs transparent solid band_alpha noborder lc rgb c_es title "early stopping: 95% CI", \
     keyentry with linespoints lw 2.5 pt 9 ps psz lc rgb c_es title "early stopping: frontier"
