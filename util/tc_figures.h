/* tc_figures.h — the one table of the figures tunecost draws: for each, its gnuplot script (in plots/), the TSV
 * files the script reads (by id, tc_figure_data), its title (its section heading on the report's pages), its
 * caption, and when its data can be absent, what it needs (flags). The report draws and describes its figures from
 * this table, `policies` finds its script here, and docs/report.md's figure table is generated from it
 * (tests/figures-doc.c; the `figures-doc` test fails when the two differ). */
#ifndef TC_FIGURES_H
#define TC_FIGURES_H

/* The files a figure may read, by id: each is one TSV file of the report's directory, and its gnuplot variable
 * holds that file's name (the report passes it with -e, and writes it into plots/titles.gp for a redraw), so no
 * script types a file name. Adding an input: an id here, its row in tc_figure_data, its variable in the script. */
enum tc_figure_data_id {
    TC_FD_FIG1_SPLIT,
    TC_FD_FIG2_ESTIMATE,
    TC_FD_SIM_INPUT_BASELINE,
    TC_FD_SIM_INPUT_BASELINE_FRONTIER,
    TC_FD_SIM_INPUT_PER_EXEC_FRONTIER,
    TC_FD_SIM_INPUT_PIPELINED_FRONTIER,
    TC_FD_SIM_INPUT_PARALLEL_FRONTIER,
    TC_FD_SIM_ALL_BASELINE,
    TC_FD_SIM_ALL_BASELINE_FRONTIER,
    TC_FD_SIM_ALL_PARALLEL,
    TC_FD_SIM_ALL_PARALLEL_FRONTIER,
    TC_FD_SIM_ALL_EARLY_STOP,
    TC_FD_SIM_ALL_EARLY_STOP_FRONTIER,
    TC_FD_HEATMAP,
    TC_FD_POLICIES_CURVES,
    TC_FD_LANDSCAPES,
    TC_FD_LANDSCAPES_COMMON,
    TC_N_FIGURE_DATA
};

struct tc_figure_datum {
    const char *var;    /* the gnuplot variable holding the file's name */
    const char *file;   /* the file, relative to the report's directory */
    const char *remark; /* NULL, or where else the file is written (docs/report.md's table) */
};
extern const struct tc_figure_datum tc_figure_data[TC_N_FIGURE_DATA];

/* What a figure's data needs, as flags: a figure is drawn only when the report has every one. */
enum tc_figure_need {
    TC_FIG_NEEDS_TRITON = 1 << 0, /* a triton-protocol trace (--triton-trace) */
    TC_FIG_NEEDS_FLOPS = 1 << 1,  /* the input's FLOP count */
    TC_FIG_NEEDS_FAMILY = 1 << 2, /* a second kernel family's trace (--compare-trace): else left out, section too */
};
/* The words for the first need in needs (shown where the figure is not drawn), or NULL when needs is 0. */
const char *tc_figure_needs_text(unsigned needs);

#define TC_FIGURE_MAX_READS 4
struct tc_figure {
    const char *name;    /* file stem: NAME.png, NAME.svg */
    const char *script;  /* the gnuplot script, in plots/ */
    int n_reads;
    enum tc_figure_data_id reads[TC_FIGURE_MAX_READS]; /* the files the script reads (tc_figure_data) */
    const char *title;   /* the section heading of the figure on summary.md and index.html */
    const char *caption; /* the caption under the figure */
    unsigned needs;      /* 0: always drawable; else TC_FIG_NEEDS_*, what its data needs */
};

/* The figures in report order; tc_n_figures of them. */
extern const struct tc_figure tc_figures[];
extern const int tc_n_figures;
/* The scripts every figure's script loads (common.gp); they travel with the figure scripts. */
extern const char *const tc_figure_common_script;
/* The palette common.gp loads (colours, dash patterns, the policies' styles). */
extern const char *const tc_figure_palette_script;
/* The figure called name, or NULL. */
const struct tc_figure *tc_figure_find(const char *name);

#endif
