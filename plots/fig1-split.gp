# fig1-split.gp — the paper's Figure 1: per input, tuning time split into repetition (timed executions), overhead
# (wall time minus timed executions, warm-up included) and compilation, stacked. Reads fig1-split.tsv.
load "plots/common.gp"
set title "Where tuning time goes, per input" . t_device
set ylabel "Tuning time of the input (s)"
# gnuplot sizes the room for rotated tic labels by the main font: give the room they need, label at the bottom
unset xlabel
set bmargin 9
set label 1 "Input (M x N x K)" at screen 0.5, screen 0.03 center
set style data histograms
set style histogram rowstacked
set style fill solid 0.9 border rgb "#555555"
set boxwidth 0.8
set xtics rotate by 90 right font ",14" nomirror
set key outside top center horizontal maxcols 3 samplen 1.5 width -2
set grid noxtics
plot "fig1-split.tsv" using (column("repetition_ms")/1e3):xtic(2) lc rgb c_base title "repetition (timed executions)", \
     "" using (column("overhead_ms")/1e3) lc rgb c_par title "overhead (warm-up, flush, launch, sync)", \
     "" using (column("compile_ms")/1e3) lc rgb "#999999" title "compilation"
