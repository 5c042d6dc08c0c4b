# fig5-early-stop.gp — the paper's Figure 5: all inputs, mean speedup relative to optimal vs mean tuning time, with
# and without early stopping; frontiers with their 95% confidence bands, samples faint.
# Reads sim/all-{baseline,early-stop}[-frontier].tsv.
load "plots/common.gp"
set title "Early stopping vs baseline, all inputs" . t_device
set xlabel "Mean tuning time per input (s, log scale)"
set ylabel "Mean speedup relative to optimal"
set logscale x
set key bottom right
set yrange [*:1.02]
plot "sim/all-baseline.tsv" using "time_s":"speedup" with points pt 7 ps psz lc rgb "#b3cde3" \
         title "baseline: samples", \
     "sim/all-early-stop.tsv" using "time_s":"speedup" with points pt 7 ps psz lc rgb "#b2dfce" \
         title "early stop: samples", \
     "sim/all-baseline-frontier.tsv" using "time_s":"speedup_lo":"speedup_hi" with filledcurves \
         fs transparent solid 0.25 noborder lc rgb c_base title "baseline: 95% CI", \
     "sim/all-early-stop-frontier.tsv" using "time_s":"speedup_lo":"speedup_hi" with filledcurves \
         fs transparent solid 0.25 noborder lc rgb c_es title "early stop: 95% CI", \
     "sim/all-baseline-frontier.tsv" using "time_s":"speedup" with linespoints lw 3 pt 7 ps psz lc rgb c_base \
         title "baseline (Triton's default): frontier", \
     "sim/all-early-stop-frontier.tsv" using "time_s":"speedup" with linespoints lw 3 pt 9 ps psz lc rgb c_es \
         title "early stopping: frontier"
