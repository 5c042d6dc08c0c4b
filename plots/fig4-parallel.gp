# fig4-parallel.gp — the paper's Figure 4: all inputs, mean speedup relative to optimal vs mean tuning time, for
# sequential compilation (Triton's default) and the paper's ideal parallel compilation; frontiers with their 95%
# confidence bands, samples faint. Reads sim/all-{baseline,parallel}[-frontier].tsv.
load "plots/common.gp"
set title "Parallel vs sequential compilation, all inputs" . t_device
set xlabel "Mean tuning time per input (s, log scale)"
set ylabel "Mean speedup relative to optimal"
set logscale x
set key bottom right
set yrange [*:1.02]
plot "sim/all-baseline.tsv" using "time_s":"speedup" with points pt 7 ps psz lc rgb "#b3cde3" \
         title "sequential: samples", \
     "sim/all-parallel.tsv" using "time_s":"speedup" with points pt 7 ps psz lc rgb "#fdd9a5" \
         title sprintf("parallel x%d: samples", factor), \
     "sim/all-baseline-frontier.tsv" using "time_s":"speedup_lo":"speedup_hi" with filledcurves \
         fs transparent solid 0.25 noborder lc rgb c_base title "sequential: 95% CI", \
     "sim/all-parallel-frontier.tsv" using "time_s":"speedup_lo":"speedup_hi" with filledcurves \
         fs transparent solid 0.25 noborder lc rgb c_par title "parallel: 95% CI", \
     "sim/all-baseline-frontier.tsv" using "time_s":"speedup" with linespoints lw 3 pt 7 ps psz lc rgb c_base \
         title "sequential (Triton's default): frontier", \
     "sim/all-parallel-frontier.tsv" using "time_s":"speedup" with linespoints lw 3 pt 7 ps psz lc rgb c_par \
         title sprintf("parallel compilation x%d: frontier", factor)
