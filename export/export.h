/* export.h — private to export/: one (input, configuration) pair of a trace as the other tools see it, and the
 * two writers of `tunecost export` (Kernel Tuner 1.5 cache, T4 results). The mapping, the inverse of
 * `tunecost import`'s, is in docs/import.md ("Exporting"). */
#ifndef TC_EXPORT_H
#define TC_EXPORT_H

#include <stdint.h>
#include <stdio.h>

struct trace;

/* One pair in the units both formats use (milliseconds). */
struct exp_entry {
    int status;               /* enum trace_status: the current run's, TRACE_LAUNCH_ERROR for a status-0 run
                               * without valid executions, the configuration's status when there is no run */
    double compile_ms;        /* as recorded; 0 when not recorded */
    double verify_ms;         /* 0 without a run */
    double wall_ms;           /* the run's benchmarking wall time (warm-up and overhead included); 0 without a run */
    double true_ms;           /* valid runs: median of the timed executions (the trace's true time) */
    double objective;         /* valid runs of a trace ranked by another metric: its value; else NaN */
    const uint64_t *timed_ns; /* valid runs: the timed executions, in launch order */
    int n_timed;
};

/* What a writer wrote. */
struct exp_summary {
    int n_written;            /* configurations written */
    int n_valid;              /* of which valid */
    int n_unmeasured;         /* configurations without a run for the input whose status is ok: left out */
    int best_config;          /* the input's best configuration (trace_best_config), -1 if none */
};

/* The pair (input, config). Returns 1 with *e filled, 0 when the pair has no run although the configuration
 * compiled (never measured for this input: nothing to export). */
int exp_entry_get(const struct trace *t, int input, int config, struct exp_entry *e);

/* The points of the grid a Kernel Tuner cache's tune_params span (the product of each parameter's listed values). */
double exp_grid_size(const struct trace *t);

/* How many configurations the writers write for input `input` (0: nothing that import could read back). */
int exp_count(const struct trace *t, int input);

/* Write input `input` of t to fp. Return 0, or -1 (tc_errmsg) on a write error. */
int exp_write_kerneltuner(const struct trace *t, int input, FILE *fp, struct exp_summary *sum);
int exp_write_t4(const struct trace *t, int input, FILE *fp, struct exp_summary *sum);

/* A duration in nanoseconds written as milliseconds, exactly ("0.002176"): import reads it back to the same ns. */
void exp_ms_of_ns(FILE *fp, uint64_t ns);

#endif
