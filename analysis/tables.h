/* tables.h — the paper's characterisation tables computed from traces (Tables 1, 2, 3/5, Figures 1, 2 data and
 * more), held in the generic table of table.h.
 * Builders (tables_*) read traces through trace/trace.h only; they return a new table, or NULL with a one-line
 * message in tc_errmsg(). Times are milliseconds unless a column name says otherwise (_s, _ns). */
#ifndef TABLES_H
#define TABLES_H

#include "tc_table.h"

#include <stdint.h>
#include <stdio.h>

struct trace;

/* ---- helpers on traces ---------------------------------------------------------------------------------- */

/* "BLOCK_M=128 BLOCK_N=64 ..." for a configuration, in buf; returns buf. */
char *tables_config_label(const struct trace *t, int config, char *buf, int len);
/* 1 when some run's true time is the one its source recorded (an imported file: trace_run_true_ns). */
int tables_recorded_true_times(const struct trace *t);
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

/* Table 7 from compile-scaling TSV files (`tunecost collect --compile-only --jobs LIST -o scaling-X.tsv`): one row
 * per pass (file, configurations, jobs, wall_s, speedup and efficiency against the 1-worker pass of the same file
 * or of 1-worker-only files whose configurations add up to its own). NULL with a message naming the file. */
struct table *tables_scaling(const char *const *paths, int n);

/* The files of dir whose names start with prefix and end with suffix, sorted by name, as "dir/name" in a new
 * array (*paths, *n; free with tables_paths_free). Returns 0, or -1 when dir cannot be read. */
int tables_list_dir(const char *dir, const char *prefix, const char *suffix, char ***paths, int *n);
void tables_paths_free(char **paths, int n);
/* The file name of a path (what follows the last '/'). */
const char *tables_base_name(const char *path);

/* Names of the tables above, in order, and what they read: one trace (build), several traces of one study
 * (flush), or compile-scaling TSV files (scaling). */
enum tables_input { TABLES_ONE_TRACE, TABLES_FLUSH_TRACES, TABLES_SCALING_TSV };
struct tables_def {
    const char *name;
    const char *summary;
    struct table *(*build)(const struct trace *t);  /* NULL unless TABLES_ONE_TRACE */
    enum tables_input input;
};
extern const struct tables_def tables_defs[];
extern const int tables_n_defs;
const struct tables_def *tables_find(const char *name);

#endif
