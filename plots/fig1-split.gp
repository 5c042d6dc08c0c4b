# fig1-split.gp — the paper's Figure 1: per input, tuning time split into repetition (timed executions), overhead
# (wall time minus timed executions, warm-up included) and compilation, stacked. Reads the file named by
# fig1_split_tsv (given with gnuplot -e, or plots/titles.gp; util/tc_figures.c names it).
# Two panels on one input axis: the top one with compilation, the bottom one without it, where compilation's
# share would squash repetition and overhead into a thin strip.
aspect = 0.95
load "plots/common.gp"
data = fig1_split_tsv
set style data histograms
set style histogram rowstacked
set style fill solid 0.9 border rgb "#555555"
set boxwidth 0.8
set grid noxtics
set key at screen 0.5, screen 0.95 center top horizontal maxcols 3 samplen 1.5 width -2
# panels share the left and right margins so their bars line up; the bottom one keeps room for the input labels
set multiplot layout 2,1 title "Where tuning time goes, per input" . t_device \
    margins 0.1, 0.97, 0.17, 0.87 spacing 0, 0.04
set ylabel "Tuning time (s)"
unset xtics
set label 2 "with compilation" at graph 0.01, graph 0.95 left front
plot data using (column("repetition_ms")/1e3):xtic(2) lc rgb c_base title "repetition (timed executions)", \
     "" using (column("overhead_ms")/1e3) lc rgb c_par title "overhead (warm-up, flush, launch, sync)", \
     "" using (column("compile_ms")/1e3) lc rgb "#999999" title "compilation"
unset key
set xtics rotate by 90 right font f_small nomirror
set label 2 "without compilation" at graph 0.01, graph 0.95 left front
set label 1 "Input (M x N x K)" at screen 0.5, screen 0.012 center
plot data using (column("repetition_ms")/1e3):xtic(2) lc rgb c_base notitle, \
     "" using (column("overhead_ms")/1e3) lc rgb c_par notitle
unset multiplot
