# landscapes.gp — two kernel families on the same benchmark. Left: per input, labelled by its shape, the best
# configuration's TFLOP/s over cuBLAS's for each family (landscapes_tsv; 1 = as fast as cuBLAS). Right: per budget,
# the best mean speedup each family reaches within it against a common reference (per input the faster family's
# optimal), re-evaluated on fresh runs with its 95% CI (landscapes_common_tsv: seed 1, sequential compilation).
# Variables (gnuplot -e), besides common.gp's: ref, cmp  the two families' names (legend; from plots/titles.gp when
# not given).
aspect = 0.5
load "plots/common.gp"
if (!exists("ref")) { if (exists("report_ref")) { ref = report_ref } else { ref = "reference" } }
if (!exists("cmp")) { if (exists("report_cmp")) { cmp = report_cmp } else { cmp = "second family" } }
# the budgets' range of the common-reference comparison (landscapes_common_tsv, seed 1, sequential compilation)
sel(f) = (column("seed_index") == 1 && strcol("model") eq "sequential" && strcol("kind") eq "budget_s" && \
          strcol("family") eq f)
stats landscapes_common_tsv using (sel(ref) || sel(cmp) ? column("value") : 1/0) nooutput name "B"
set multiplot layout 1,2 title sprintf("Two kernel families on the same benchmark%s", t_device)
# the families' names are long: a key font well below the main one (the same share of the width in both formats);
# keys below the panels, where they cover no data
f_lkey = (fmt eq "svg") ? ",8" : ",12"
set key bmargin center vertical font f_lkey samplen 1.5 noopaque
set bmargin 8
set title "Best configuration per input vs cuBLAS"
set xlabel "Input (M x N x K, in the trace's order; every fourth labelled)" offset 0,-1.5
set ylabel "Best TFLOP/s / cuBLAS TFLOP/s"
set yrange [0:1.4]
set ytics 0, 0.2, 1.4
set xrange [-1:*]
set xtics rotate by 60 right font f_lkey
plot 1 with lines dt 2 lc rgb "#777777" title "cuBLAS", \
     landscapes_tsv using "input":"ref_vs_cublas":xtic(int(column("input")) % 4 == 0 ? strcol("label") : "") \
         with points pt 7 ps psz lc rgb c_base title ref, \
     landscapes_tsv using "input":"cmp_vs_cublas" with points pt 5 ps psz lc rgb c_pip title cmp
set title "Within a budget, vs a common reference"
set xlabel "Budget per input (s, log scale)" offset 0,0
set ylabel "Mean speedup vs faster family's best"
set xtics norotate font "" autofreq
set logscale x
eval xtics_125
set xrange [B_min / 1.3 : B_max * 1.3]
set yrange [0:1.02]
set ytics autofreq
# per budget, the point chosen on the simulation and re-evaluated on fresh runs, with its 95% CI (error bars);
# both families against the same reference: per input the faster family's optimal
plot landscapes_common_tsv using (sel(ref) ? column("value") : 1/0):"speedup":"speedup_lo":"speedup_hi" \
         with yerrorlines lw 3 pt 7 ps psz lc rgb c_base title ref, \
     landscapes_common_tsv using (sel(cmp) ? column("value") : 1/0):"speedup":"speedup_lo":"speedup_hi" \
         with yerrorlines lw 3 dt 2 pt 5 ps psz lc rgb c_pip title cmp
unset multiplot
