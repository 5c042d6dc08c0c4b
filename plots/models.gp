# models.gp — beyond the paper: the Pareto frontier of one input under other cost models, beside the paper's:
# overhead charged per execution actually run (per-exec), compilation pipelined with benchmarking, and the paper's
# ideal parallel compilation. Reads sim/input-{baseline,per-exec,pipelined,parallel}-frontier.tsv.
load "plots/common.gp"
set title "Pareto frontier under other cost models" . t_input . t_device
set xlabel "Tuning time (s, log scale)"
set ylabel "Performance of the tuned kernel (TFLOP/s)"
set logscale x
set key top left
plot "sim/input-baseline-frontier.tsv" using "time_s":"tflops" with linespoints lw 3 pt 7 ps (psz * 0.9) lc rgb c_base \
         title "paper's model (sequential compile, full overhead)", \
     "sim/input-per-exec-frontier.tsv" using "time_s":"tflops" with linespoints lw 3 pt 5 ps (psz * 0.9) lc rgb c_pex \
         title "overhead per execution run (per-exec)", \
     "sim/input-pipelined-frontier.tsv" using "time_s":"tflops" with linespoints lw 3 pt 9 ps psz lc rgb c_pip \
         title sprintf("compilation pipelined, %d workers", factor), \
     "sim/input-parallel-frontier.tsv" using "time_s":"tflops" with linespoints lw 3 pt 11 ps psz lc rgb c_par \
         title sprintf("ideal parallel compilation x%d (paper)", factor)
