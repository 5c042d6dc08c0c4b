# fig3-frontier.gp — the paper's Figure 3: tuning time vs TFLOP/s of the tuned kernel for one input; every
# simulated sample faint (coloured by N_CONFIG), the Pareto frontier bold and labelled with N_CONFIG.
# Reads sim/input-baseline.tsv and sim/input-baseline-frontier.tsv (written by `tunecost report`).
load "plots/common.gp"
set title "Pareto frontier of tuning time vs performance" . t_input . t_device
set xlabel "Tuning time (s)"
set ylabel "Performance of the tuned kernel (TFLOP/s)"
set cblabel "N_CONFIG (configurations explored)"
set palette defined (0 "#c6dbef", 1 "#6baed6", 2 "#2171b5", 3 "#08306b")
set key bottom right
set xrange [0:*]
plot "sim/input-baseline.tsv" using "time_s":"tflops":"n_config" with points pt 7 ps psz lc palette \
         title "simulated sample (mean of its runs)", \
     "sim/input-baseline-frontier.tsv" using "time_s":"tflops" with linespoints lw 3 pt 7 ps (psz * 1.3) lc rgb "black" \
         title "Pareto frontier (label: N_CONFIG)", \
     "" using "time_s":"tflops":(sprintf("%d", column("n_config"))) every 2 with labels offset 0,0.9 \
         font ",12" tc rgb "#333333" notitle
