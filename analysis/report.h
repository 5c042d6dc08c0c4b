/* report.h — `tunecost report` as a library call, so tests can build a report without the executable.
 * report_write() reads the trace(s) and the studies, writes the characterisation tables, runs the simulations through
 * simulate/sim.h, draws the figures with the gnuplot scripts in plots/ (a child process per figure and format),
 * writes summary.md (with Findings computed from the data) and index.html, all in a temporary directory beside
 * out_dir, then moves it into place (replacing an earlier report there). */
#ifndef REPORT_H
#define REPORT_H

#include "tc_figures.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#define REPORT_EBADINPUT 2 /* returned for a bad trace, input or output directory (exit status 2) */

struct report_options {
    const char *trace_path;       /* the trace to report on (required) */
    const char *triton_path;      /* a triton-protocol trace for Figure 2, or NULL */
    const char *compare_path;     /* a second kernel family's trace of the same inputs (two landscapes), or NULL */
    const char *flush_dir;        /* a directory of traces collected with different flush_bytes (Tables 3, 5), or
                                   * NULL */
    const char *scaling_dir;      /* a directory of compile-scaling TSV files, scaling-*.tsv (Table 7), or NULL */
    const char *recorded_dir;     /* a directory with a `tunecost record` trace and its --protocol triton imitation
                                   * ("A real autotuner's session"), or NULL */
    const char *out_dir;          /* the report directory (required) */
    const char *plots_dir;        /* where the gnuplot scripts are (tc_paths_dir(TC_PATHS_PLOTS)) */
    int64_t input_dims[3];        /* input of the single-input figures */
    char input_label[64];         /* the same as text, "4096x256x4096" */
    int input_given;              /* 1: --input was given, so it must exist in the trace */
    uint64_t seed;                /* seed of every simulation (1) */
    int samples, runs;            /* simulation size (500, 30: the paper's) */
    int compile_factor;           /* workers of the parallel / pipelined scenarios (16) */
    int paper;                    /* 1: every simulation takes the paper's choices (sim_settings_paper) [0] */
    int failed_cost;              /* enum sim_failed_cost, or -1: the default (triton; none with paper) */
    int compile_model;            /* enum sim_compile_model, or -1: the default (measured; paper with paper) */
    int threads;                  /* simulation threads, 0 = all cores; never changes the output */
    int force;                    /* -f: no effect on the rule (util/tc_outdir): a directory holding files the
                                   * report did not write is refused all the same */
    int no_figures;               /* 1: draw no figure (no gnuplot needed); else a figure whose data is there
                                   * and that is not drawn fails the report */
    /* progress: one line per step; progress_tty adds a live sample counter during simulations */
    void (*progress)(const char *msg, void *arg);
    void *progress_arg;
    int progress_tty;
    volatile sig_atomic_t *interrupted; /* checked between steps; non-zero: clean up and fail */
    /* filled by report_write */
    int n_figures;                /* figures the report has */
    int n_missing;                /* figures not drawn (no data for them, or no_figures) */
    char missing_why[256];        /* why, in short ("needs a triton-protocol trace (--triton-trace)") */
};

/* What a section of the report writes, as its row of report.c's report_sections[] declares it; the report fails
 * with an internal error when a section writes a TSV table at the top of the report directory, or a figure's data
 * file, that its row does not declare, or adds a finding with findings 0. A declared output may be absent where
 * the section's input is (a study not given, no triton trace). */
struct report_outputs {
    const char *const *tables;                 /* the TSV files it writes at the top of the report directory (kept
                                                * tables and others, e.g. opening.tsv), NULL-terminated; or NULL */
    const enum tc_figure_data_id *figure_data; /* the figures' data files it writes (util/tc_figures.h), ended by
                                                * TC_N_FIGURE_DATA; or NULL */
    int findings;                              /* 1: it may add findings to summary.md */
};
/* Section i of the report in the order they run: its name and declared outputs; -1 past the last. */
int report_section_outputs(int i, const char **name, struct report_outputs *out);
/* `tunecost report --list-outputs`: a TSV table (section, output, file, figures), one row per output of each
 * section in the order they run: "table" (file), "figure data" (file, the figures reading it), "findings", or
 * "none" for a section that declares nothing. -1 with a message when fp fails. */
int report_list_outputs(FILE *fp);

/* The defaults listed above; out_dir and trace_path NULL. */
void report_options_default(struct report_options *o);
/* Write the report. Returns 0; REPORT_EBADINPUT when the trace, --input, --triton-trace, --compare-trace, a study
 * directory or out_dir is not usable; -1 on a failure while working (interrupted included, and a figure that has
 * its data but could not be drawn: no gnuplot, a failing script, a figure cut short), out_dir then left as it was.
 * tc_errmsg() says what happened. */
int report_write(struct report_options *o);

#endif
