# models.gp — beyond the paper: the Pareto frontier of one input under other cost models, beside sequential
# compilation (the paper's model only when the report ran with --paper, paper = 1): overhead charged per execution
# actually run (per-exec), compilation pipelined with benchmarking, and parallel compilation (list-scheduled on the
# workers, or the paper's ideal bound when cm_paper = 1). Reads
# sim_input_{baseline,per_exec,pipelined,parallel}_frontier_tsv.
# per-exec often lies on the paper's line (the overhead it drops is small): it is drawn first, wide and pale, and
# the paper's line thin and dark on top, so both stay visible. The key sits under the plot, covering no curve.
load "plots/common.gp"
set title "Pareto frontier under other cost models" . t_input . t_device
set xlabel "Tuning time (s, log scale)"
set ylabel "Performance of the tuned kernel (TFLOP/s)"
set logscale x
eval xtics_125
# x from the data (a little room at both ends), so no empty decade
lo = 1e300; hi = 0
do for [v in "sim_input_baseline_frontier_tsv sim_input_per_exec_frontier_tsv sim_input_pipelined_frontier_tsv " . \
             "sim_input_parallel_frontier_tsv"] {
    stats value(v) using "time_s" nooutput
    lo = (STATS_min < lo) ? STATS_min : lo
    hi = (STATS_max > hi) ? STATS_max : hi
}
set xrange [lo / 1.15 : hi * 1.15]
# the key below the plot (under the x label): it covers no frontier and stays below the title
set key bmargin center horizontal maxcols 2 samplen 3 width -4 font f_key
set bmargin 6.5
# drawn pale and wide first, the paper's line last and on top; the key lists them in the paper's order
plot sim_input_per_exec_frontier_tsv using "time_s":"tflops" with linespoints lw 9 pt 5 ps (psz * 1.6) \
         lc rgb "#e6b8d3" notitle, \
     sim_input_pipelined_frontier_tsv using "time_s":"tflops" with linespoints lw 3 pt 9 ps psz lc rgb c_pip \
         notitle, \
     sim_input_parallel_frontier_tsv using "time_s":"tflops" with linespoints lw 3 pt 11 ps psz lc rgb c_par \
         notitle, \
     sim_input_baseline_frontier_tsv using "time_s":"tflops" with linespoints lw 2 pt 7 ps (psz * 0.7) \
         lc rgb c_base notitle, \
     keyentry with linespoints lw 2 pt 7 ps (psz * 0.7) lc rgb c_base title (paper ? "paper's model (sequential compile)" : "sequential compilation"), \
     keyentry with linespoints lw 9 pt 5 ps (psz * 1.6) lc rgb "#e6b8d3" title "overhead per execution run (per-exec)", \
     keyentry with linespoints lw 3 pt 9 ps psz lc rgb c_pip title sprintf("compilation pipelined, %d workers", factor), \
     keyentry with linespoints lw 3 pt 11 ps psz lc rgb c_par title (cm_paper ? sprintf("ideal parallel compilation x%d (the paper's bound)", factor) : sprintf("parallel compilation x%d (list schedule)", factor))
