# fig3-frontier.gp — the paper's Figure 3: tuning time vs TFLOP/s of the tuned kernel for one input; every
# simulated sample faint (coloured by N_CONFIG), the Pareto frontier bold and labelled with N_CONFIG.
# Reads sim_input_baseline_tsv and sim_input_baseline_frontier_tsv (written by `tunecost report`).
# Labels sit up-left of their point, where no sample or frontier line can be (anything there would dominate the
# point); a label closer than lab_dx and lab_dy (fractions of the plot) to the last one drawn, or repeating its
# N_CONFIG, is left out, so no two overlap; the first point's label is always drawn, beside it on the left edge.
load "plots/common.gp"
samples = sim_input_baseline_tsv
frontier = sim_input_baseline_frontier_tsv
set title "Pareto frontier of tuning time vs performance" . t_input . t_device
set xlabel "Tuning time (s)"
set ylabel "Performance of the tuned kernel (TFLOP/s)"
set cblabel "N_CONFIG (configurations explored)"
set palette defined (0 "#c6dbef", 1 "#6baed6", 2 "#2171b5", 3 "#08306b")
# the key below the plot, where it covers no sample
set key bmargin center horizontal font f_key
set bmargin 6
set xrange [0:*]
# a first pass fixes the ranges, so the labels can be spaced in plot fractions
set output "/dev/null"
plot samples using "time_s":"tflops" notitle, frontier using "time_s":"tflops" notitle
set output out
x0 = GPVAL_X_MIN; xw = GPVAL_X_MAX - GPVAL_X_MIN; y0 = GPVAL_Y_MIN; yw = GPVAL_Y_MAX - GPVAL_Y_MIN
lab_dx = 0.03; lab_dy = 0.045
# kept: " ROW " for every frontier row whose label is drawn (rows numbered from 0, as $0)
kept = ""; lx = -1; ly = -1; ln = -1
stats frontier using (fx = (column("time_s") - x0) / xw, fy = (column("tflops") - y0) / yw, \
    keep = ($0 == 0 || (column("n_config") != ln && (abs(fx - lx) > lab_dx || abs(fy - ly) > lab_dy))), \
    kept = keep ? kept . sprintf(" %d ", $0) : kept, lx = keep ? fx : lx, ly = keep ? fy : ly, \
    ln = keep ? column("n_config") : ln, 0) nooutput
set xrange [x0:x0 + xw]
set yrange [y0:y0 + yw]
drawn(row) = strstrt(kept, sprintf(" %d ", row)) > 0
# too near the left edge for a label on its left (the offset and each digit take about 0.01 of the width)
edge(x, n) = (x - x0) / xw < 0.01 + 0.009 * strlen(sprintf("%d", n))
plot samples using "time_s":"tflops":"n_config" with points pt 7 ps psz lc palette \
         title "simulated sample (mean of its runs)", \
     frontier using "time_s":"tflops" with linespoints lw 3 pt 7 ps (psz * 1.3) lc rgb "black" \
         title "Pareto frontier (label: N_CONFIG)", \
     "" using "time_s":"tflops":((drawn($0) && !edge(column("time_s"), column("n_config"))) ? sprintf("%d", column("n_config")) : "") \
         with labels right offset -0.4,0.6 font f_small tc rgb "#222222" notitle, \
     "" using "time_s":"tflops":((drawn($0) && edge(column("time_s"), column("n_config"))) ? sprintf("%d", column("n_config")) : "") \
         with labels left offset 0.9,0 font f_small tc rgb "#222222" notitle
