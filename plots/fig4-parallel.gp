# fig4-parallel.gp — the paper's Figure 4: all inputs, mean speedup relative to optimal vs mean tuning time, for
# sequential compilation (Triton's default) and parallel compilation (list-scheduled; the paper's ideal bound with
# compile model paper, as under report --paper); frontiers with their 95%
# confidence bands, samples faint. Reads sim_all_{baseline,parallel}[_frontier]_tsv.
load "plots/common.gp"
set title "Parallel vs sequential compilation, all inputs" . t_device
set xlabel "Mean tuning time per input (s, log scale)"
set ylabel "Mean speedup relative to optimal"
set logscale x
eval xtics_125
# x from the data (a little room at both ends), so the axis does not open on an empty decade
stats sim_all_baseline_tsv using "time_s" nooutput
lo = STATS_min; hi = STATS_max
stats sim_all_parallel_tsv using "time_s" nooutput
lo = (STATS_min < lo) ? STATS_min : lo; hi = (STATS_max > hi) ? STATS_max : hi
set xrange [lo / 1.15 : hi * 1.15]
# the key below the plot (under the x label), one column per scenario, so it covers no sample or frontier and
# stays below the title
set key bmargin center horizontal maxrows 3 samplen 2 width -4 font f_key
set bmargin 7.5
set yrange [*:1.02]
# drawn samples first, bands, then frontiers; the key (keyentry) lists one scenario per column
plot sim_all_baseline_tsv using "time_s":"speedup" with points pt 7 ps psz lc rgb "#b3cde3" notitle, \
     sim_all_parallel_tsv using "time_s":"speedup" with points pt 7 ps psz lc rgb "#fdd9a5" notitle, \
     sim_all_baseline_frontier_tsv using "time_s":"speedup_lo":"speedup_hi" with filledcurves \
         fs transparent solid band_alpha noborder lc rgb c_base notitle, \
     sim_all_parallel_frontier_tsv using "time_s":"speedup_lo":"speedup_hi" with filledcurves \
         fs transparent solid band_alpha noborder lc rgb c_par notitle, \
     sim_all_baseline_frontier_tsv using "time_s":"speedup" with linespoints lw 3 pt 7 ps psz lc rgb c_base notitle, \
     sim_all_parallel_frontier_tsv using "time_s":"speedup" with linespoints lw 3 pt 7 ps psz lc rgb c_par notitle, \
     keyentry with points pt 7 ps psz lc rgb "#b3cde3" title "sequential (Triton's default): samples", \
     keyentry with filledcurves fs transparent solid band_alpha noborder lc rgb c_base title "sequential (Triton's default): 95% CI", \
     keyentry with linespoints lw 3 pt 7 ps psz lc rgb c_base title "sequential (Triton's default): frontier", \
     keyentry with points pt 7 ps psz lc rgb "#fdd9a5" title sprintf("parallel compilation x%d: samples", factor), \
     keyentry with filledcurves fs transparent solid band_alpha noborder lc rgb c_par title sprintf("parallel compilation x%d: 95%% CI", factor), \
     keyentry with linespoints lw 3 pt 7 ps psz lc rgb c_par title sprintf("parallel compilation x%d: frontier", factor)
