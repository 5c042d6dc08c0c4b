/* tables.h — the paper's characterisation tables computed from traces (Tables 1, 2, 3/5, Figures 1, 2 data and
 * more), held in a small generic table that prints aligned, as TSV, Markdown or HTML.
 * Builders (tables_*) read traces through trace/trace.h only; they return a new table, or NULL with a one-line
 * message in tc_errmsg(). Times are milliseconds unless a column name says otherwise (_s, _ns). */
#ifndef TABLES_H
#define TABLES_H

#include <stdint.h>
#include <stdio.h>

struct trace;

/* ---- the generic table --------------------------------------------------------------------------------- */

struct table; /* opaque: a title, named columns, rows of cells (text + numeric value), notes */

/* A table with n_cols columns named cols[] (copied). NULL on allocation failure. */
struct table *table_new(const char *title, int n_cols, const char *const *cols);
void table_free(struct table *t);
/* Append an empty row; returns its index, or -1. */
int table_add_row(struct table *t);
/* Set a cell. Numbers keep their value for table_num(); text cells read back as NaN. NaN prints as "nan".
 * decimals < 0 prints with %g. Out-of-range row/col returns -1. */
int table_set_str(struct table *t, int row, int col, const char *s);
int table_set_num(struct table *t, int row, int col, double v, int decimals);
int table_set_int(struct table *t, int row, int col, long long v);
/* A line shown under the table (totals, what was excluded); not written to TSV, which stays pure data. */
int table_add_note(struct table *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

const char *table_title(const struct table *t);
int table_n_rows(const struct table *t);
int table_n_cols(const struct table *t);
const char *table_col_name(const struct table *t, int col);
int table_col_index(const struct table *t, const char *name);  /* -1 if absent */
const char *table_cell(const struct table *t, int row, int col); /* "" for unset cells */
double table_num(const struct table *t, int row, int col);       /* NaN for text or unset cells */
int table_n_notes(const struct table *t);
const char *table_note(const struct table *t, int i);

/* Append every row of src to dst, whose first column receives `first` and whose other columns must be src's
 * (same names, same order): how several traces share one table with a leading "trace" column. */
int table_append_rows(struct table *dst, const struct table *src, const char *first);

/* Output. TSV: one header line of column names, then one line per row; tabs and newlines inside cells become
 * spaces. Aligned: title, header, rule, rows (numbers right-aligned), notes; at most max_rows rows (<= 0: all),
 * then a line saying how many were left out. Markdown and HTML: the same, for summary.md and index.html. */
int table_write_tsv(const struct table *t, FILE *fp);
int table_print(const struct table *t, FILE *fp, int max_rows);
int table_write_markdown(const struct table *t, FILE *fp, int max_rows);
int table_write_html(const struct table *t, FILE *fp, int max_rows);
/* Write s with HTML special characters escaped. */
void html_escape(FILE *fp, const char *s);

/* ---- helpers on traces ---------------------------------------------------------------------------------- */

/* Median of the timed executions of run r in ms (mean of the two middle values for an even count); NaN if the
 * run has none. */
double tables_run_median_ms(const struct trace *t, size_t r);
/* "BLOCK_M=128 BLOCK_N=64 ..." for a configuration, in buf; returns buf. */
char *tables_config_label(const struct trace *t, int config, char *buf, int len);
/* "4096x256x4096" for an input, in buf; returns buf. */
char *tables_input_label(const struct trace *t, int input, char *buf, int len);

/* ---- the tables ------------------------------------------------------------------------------------------ */

/* Table 1: one row per configuration: its parameters, status, compile_ms, load_ms, registers, smem, spills;
 * notes give the totals (all, valid) and the compile workers' first-compile warm-up. */
struct table *tables_compile(const struct trace *t);
/* Table 2: one row per input: runs, valid runs, tuning time excluding compilation = sum of wall_ms over all its
 * runs (s), and per run (ms). */
struct table *tables_tuning(const struct trace *t);
/* Figure 1 data: per input, over its valid runs: repetition = sum of timed executions, overhead = sum of
 * (wall - timed), compilation = sum of compile_ms of the configurations measured on it; and means per run. */
struct table *tables_split(const struct trace *t);
/* Best configuration per input vs the vendor library (cuBLAS): median ms, TFLOP/s, ratio. */
struct table *tables_best(const struct trace *t);
/* Configurations and runs by status and reason (first line of the compile log). */
struct table *tables_failures(const struct trace *t);
/* Tables 3/5 from n >= 2 traces of the same inputs with different flush_bytes: per trace, collection time,
 * GPU time of GEMM vs flush kernels, GEMM kernel statistics, and against the trace with the largest flush:
 * speedup of collection, inputs whose best configuration changes, median and largest change of best time. */
struct table *tables_flush(const struct trace *const *traces, const char *const *names, int n);
/* Figure 2 data from a triton-protocol trace: per valid run, estimate_ms vs the median of warmed timed
 * executions, the mean of the estimate executions themselves, the flush time per execution, and the timed
 * total against the requested rep_ms. Fails (message) for a trace without estimates. */
struct table *tables_estimate(const struct trace *t);
/* Every (input, configuration) pair: performance relative to the input's best (best_ms / median_ms; NaN where
 * no valid run), with configurations ranked by their mean relative performance over inputs. */
struct table *tables_heatmap(const struct trace *t);

/* Names of the tables above, in order, and their builder. Flush takes several traces; the others one. */
struct tables_def {
    const char *name;
    const char *summary;
    struct table *(*build)(const struct trace *t);  /* NULL for flush */
};
extern const struct tables_def tables_defs[];
extern const int tables_n_defs;
const struct tables_def *tables_find(const char *name);

#endif
