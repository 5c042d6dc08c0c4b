# common.gp — terminal, fonts and data conventions shared by every tunecost figure; loaded first by each script.
# Every script runs in the report directory and reads only the TSV files there (never HDF5). Variables, set with
# gnuplot -e "fmt='svg'; out='fig3-frontier.svg'; input='4096x256x4096'; device='NVIDIA H200'; factor=16":
#   fmt     png (pngcairo) or svg                          (default png)
#   out     output file                                   (default figure.<fmt>)
#   input   the single input's label, device the GPU name, factor the compile workers (titles only)
#   *_tsv   the data files a script reads, one variable each (util/tc_figures.c: tc_figure_data); no script types a
#           file name: the report passes them with -e and writes them into plots/titles.gp for a redraw
# A report directory may hold plots/titles.gp, setting report_input, report_device and report_factor to the values
# the report drew its figures with; a redraw that does not give input, device or factor takes them from there, so
# `cd DIR && gnuplot -e "fmt='svg'; out='x.svg'" plots/NAME.gp` titles the figure as the report did.
if (!exists("plotsdir")) plotsdir = "plots"
if (system("test -r '" . plotsdir . "/titles.gp' && echo yes") eq "yes") load plotsdir . "/titles.gp"
if (!exists("fmt")) fmt = "png"
if (!exists("out")) out = "figure." . fmt
if (!exists("input")) { if (exists("report_input")) { input = report_input } else { input = "" } }
if (!exists("device")) { if (exists("report_device")) { device = report_device } else { device = "" } }
if (!exists("factor")) { if (exists("report_factor")) { factor = report_factor } else { factor = 16 } }
# paper: 1 when the report ran the paper's model (--paper); cm_paper: 1 when its scenario 'parallel' is the paper's
# ideal bound (compile model paper), else the list schedule. Legends name the model that was run.
if (!exists("paper")) { if (exists("report_paper")) { paper = report_paper } else { paper = 0 } }
if (!exists("cm_paper")) { if (exists("report_cm_paper")) { cm_paper = report_cm_paper } else { cm_paper = 0 } }
# title suffixes ", INPUT" and " (DEVICE)": empty where the value is unknown, never ", ()"
t_input = (input eq "") ? "" : ", " . input
t_device = (device eq "") ? "" : " (" . device . ")"
# a script may set aspect = height / width before loading this file (the heat map is square)
if (!exists("aspect")) aspect = 0.62
if (fmt eq "svg") {
    set terminal svg size 1000,int(1000*aspect) dynamic noenhanced font "DejaVu Sans,15" background rgb "white"
} else {
    set terminal pngcairo size 1500,int(1500*aspect) noenhanced font "DejaVu Sans,21" background rgb "white" \
        linewidth 1.5
}
set output out
# TSV with one header line; columns are used by name; "nan" marks a missing value
set datafile separator "\t"
set datafile columnheaders
set datafile missing "nan"
set grid lc rgb "#dddddd" lw 1
set border lc rgb "#444444"
set key opaque box lc rgb "#bbbbbb"
set tics nomirror
# size of a sample's point (svg draws points larger than pngcairo)
psz = (fmt eq "svg") ? 0.45 : 0.9
# a small font for dense labels, the same share of the figure's width in both formats (svg is 1000 px wide)
f_small = (fmt eq "svg") ? ",12" : ",16"
# a key of two columns above the plot needs a font a little smaller than the main one
f_key = (fmt eq "svg") ? ",14" : ",19"
# a log-scale x axis labelled at 1, 2 and 5 of every decade (`eval xtics_125` after `set logscale x`)
xtics_125 = 'set xtics add ("0.002" 0.002, "0.005" 0.005, "0.02" 0.02, "0.05" 0.05, "0.2" 0.2, "0.5" 0.5, ' . \
    '"2" 2, "5" 5, "20" 20, "50" 50, "200" 200, "500" 500, "2000" 2000, "5000" 5000)'
# colours, dash patterns and the policies' styles: one palette for every figure
load plotsdir . "/palette.gp"
