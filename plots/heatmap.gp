# heatmap.gp — beyond the paper: every configuration's performance relative to the input's best (best time /
# its time), configurations ranked by their mean over inputs; grey cells failed or were not measured.
# Reads heatmap_tsv. The palette (viridis) runs from dark purple (0) to yellow (1), so no value reads as a blank
# or grey cell; configurations that failed on every input are left out at the right and counted under the plot.
aspect = 1.0
load "plots/common.gp"
data = heatmap_tsv
c_na = "#b8b8b8"
stats data using "config_rank" nooutput
n_config = int(STATS_max) + 1
stats data using "config_rank":"rel_perf" nooutput
n_shown = int(STATS_max_x) + 1
set title "Performance relative to the best configuration of each input" . t_device
set xlabel "Configuration, ranked by mean relative performance (0 = best overall)"
set ylabel "Input (M x N x K)"
set cblabel "Relative performance (1 = the input's best)"
set cbrange [0:1]
set palette defined (0 "#440154", 0.25 "#3b528b", 0.5 "#21918c", 0.75 "#5ec962", 1 "#fde725")
set ytics font f_small nomirror scale 0
set grid noxtics noytics
set key off
# a cell with no valid run is not drawn: the grey behind the cells shows through
set object 1 rectangle from graph 0, graph 0 to graph 1, graph 1 behind fillcolor rgb c_na fillstyle solid 1.0 noborder
set bmargin 6
set label 1 sprintf("grey: failed or not measured%s", n_config > n_shown ? \
    sprintf("; %d of %d configurations failed on every input and are not shown", n_config - n_shown, n_config) : "") \
    at screen 0.5, screen 0.015 center font f_key
# fit the cells exactly: every input's row (the first at the top), every configuration with a valid run somewhere
stats data using "input" nooutput
set yrange [STATS_max + 0.5 : STATS_min - 0.5]
set xrange [-0.5 : n_shown - 0.5]
# the first, invisible plot gives every input its row and label, even one with no valid run
plot data using (0):"input":ytic(2) with points ps 0 notitle, \
     data using "config_rank":"input":(0.5):(0.5):"rel_perf" with boxxyerror fs solid 1.0 noborder lc palette notitle
