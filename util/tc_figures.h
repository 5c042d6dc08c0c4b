/* tc_figures.h — the one table of the figures tunecost draws: for each, its gnuplot script (in plots/), the TSV
 * files the script reads, its title (its section heading on the report's pages), its caption, and when its data
 * can be absent, what it needs. The report draws and describes its figures from this table, `policies` finds its
 * script here, and docs/report.md's figure table is generated from it (tests/figures-doc.c; the `figures-doc` test
 * fails when the two differ). */
#ifndef TC_FIGURES_H
#define TC_FIGURES_H

struct tc_figure {
    const char *name;    /* file stem: NAME.png, NAME.svg */
    const char *script;  /* the gnuplot script, in plots/ */
    const char *reads;   /* the TSV files the script reads, as the report lays them out (comma-separated) */
    const char *title;   /* the section heading of the figure on summary.md and index.html */
    const char *caption; /* the caption under the figure */
    const char *needs;   /* NULL: always drawable; else what its data needs (shown where it is not drawn) */
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
