# heatmap.gp — beyond the paper: every configuration's performance relative to the input's best (best time /
# its time), configurations ranked by their mean over inputs; blank cells failed or were not measured.
# Reads heatmap.tsv.
aspect = 1.0
load "plots/common.gp"
set title "Performance relative to the best configuration of each input" . t_device
set xlabel "Configuration, ranked by mean relative performance (0 = best overall)"
set ylabel "Input (M x N x K)"
set cblabel "Relative performance (1 = the input's best)"
set cbrange [0:1]
set palette defined (0 "#fff7ec", 0.5 "#fc8d59", 0.8 "#d7301f", 1 "#4a0000")
set ytics font ",14" nomirror
set grid noxtics noytics
set key off
# fit the cells exactly; configurations that never ran (failed everywhere) are left out at the right
set autoscale xfix
set autoscale yfix
set yrange [*:*] reverse
plot "heatmap.tsv" using "config_rank":"input":(0.5):(0.5):"rel_perf":ytic(2) with boxxyerror \
     fs solid 1.0 noborder lc palette notitle
