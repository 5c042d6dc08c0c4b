/* sim_table.h — the one builder of per-(input, configuration) data that `tunecost simulate` (sim_data.c) and the
 * policy engine (policy.c) share: each configuration's status, compile times, the median, mean and minimum of
 * its timed executions (its true time under each truth), and its benchmarking overhead split into a fixed and a
 * per-execution part. Internal to
 * simulate/; both callers build their own replay tables on top of these records. */
#ifndef SIM_TABLE_H
#define SIM_TABLE_H

#include "sim.h"

#include <stddef.h>
#include <stdint.h>

struct trace;

/* One configuration's (current) run for one input. */
struct sim_base {
    int config;                 /* the trace's configuration index */
    int status;                 /* TRACE_OK only when the run is valid (trace_run_valid); otherwise the run's
                                 * status, TRACE_LAUNCH_ERROR for a status-0 run without valid executions, or the
                                 * configuration's compile status when there is no run */
    double compile_ms;          /* as recorded (NaN when it never compiled or was not recorded) */
    double compile_isolated_ms; /* measured alone (1 worker); NaN: not in the trace */
    double wall_ms;             /* the run's host wall time; 0 without a run */
    const uint64_t *timed_ns;   /* the timed executions in launch order (the caller's or the trace's memory) */
    int n_timed;
    double untimed_ms;          /* Σ of the estimate and warm-up executions */
    int n_untimed;
    /* valid configurations only: */
    double timed_ms;            /* Σ timed executions */
    double ovh_ms;              /* wall_ms − Σ timed, at least 0: the paper's overhead */
    double gap_ms;              /* (wall_ms − every execution) ÷ executions, at least 0: the per-execution part */
    double true_ms;             /* median of the timed executions (mean of the two middle ones when even) */
    double mean_ms;             /* their mean, Σ ÷ n (the arithmetic of the replay's mean estimate) */
    double min_ms;              /* their minimum */
};

/* The truth of a valid record under statistic e: true_ms, mean_ms or min_ms. */
double sim_base_truth_ms(const struct sim_base *b, enum sim_estimator e);

/* Working memory of the builder (one per building thread); zero-initialise, free with sim_scratch_free. */
struct sim_scratch {
    uint64_t *tmp;              /* copy for the median */
    size_t tmp_cap;
    uint64_t *lo_heap, *hi_heap;/* running medians of prefixes (sim_data.c, median estimator only) */
    size_t heap_cap;
};
void sim_scratch_free(struct sim_scratch *bs);

/* Fill b from one valid run (checked: executions > 0 ns, finite non-negative times; the message names `input`
 * and run->config). Returns 0 or -1 (tc_errmsg). */
int sim_base_fill(struct sim_scratch *bs, const char *input, const struct sim_config_run *run, struct sim_base *b);

/* Every configuration of the trace for input `input` into out[0 .. trace_n_configs): valid ones through
 * sim_base_fill, the others with their status, compile_ms and wall_ms only. timed_ns points into the trace. */
int sim_table_input(const struct trace *t, int input, struct sim_scratch *bs, struct sim_base *out);

/* The trace's isolated (1-worker) compile time of configuration c, ms; NaN where the trace has none. */
double sim_trace_isolated_ms(const struct trace *t, int c);

/* Median of the finite values of v[0..n) (v is sorted in place; NaN when none is finite): the compile time
 * charged to a failed configuration without one is the median of the input's valid ones (sim_compile_charge). */
double sim_median_finite(double *v, int n);

/* Median of x[0..n) in ms, x unchanged (n > 0). Returns 0 or -1 (out of memory). */
int sim_median_ms(struct sim_scratch *bs, const uint64_t *x, size_t n, double *out);

#endif
