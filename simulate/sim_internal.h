/* sim_internal.h — the layout of `struct sim_data` (sim.h), shared by the files of `tunecost simulate`: the tables
 * (sim_data.c), the replay (sim_replay.c) and the outputs (sim_output.c). Not for use outside simulate/. */
#ifndef SIM_INTERNAL_H
#define SIM_INTERNAL_H

#include "sim.h"
#include "sim_table.h"

#include <stddef.h>
#include <stdint.h>

/* One EXEC_TIME's view of a configuration's timed executions x1..xn. */
struct e_entry {
    double rep_ms;   /* x1 + ... + xj */
    double med_ms;   /* median(x1..xj); NaN unless the data were built for the median estimator */
    double pmin_ms;  /* min(x1..xj) */
    int32_t j;       /* smallest count whose sum exceeds EXEC_TIME, or n */
    int32_t is_short;/* 1 when even x1 + ... + xn does not exceed EXEC_TIME */
};
/* The first k executions, k = 1 .. min(es_num_hi, n): what an early stop at k ran. */
struct k_entry {
    double sum_ms;   /* x1 + ... + xk */
    double pmin_ms;  /* min(x1..xk) */
};

struct sconf {
    int config;
    int failed;        /* 1: a failed configuration (no executions, n_e = n_k = 0; drawn under failed-cost triton) */
    int n_timed;
    double compile_ms; /* as recorded; NaN: none (failed configurations of traces without --compile-invalid) */
    double compile_iso_ms; /* isolated (1 worker); NaN: none */
    double fail_ms;    /* failed configurations: what the failed launch cost (its run's wall_ms; 0 without) */
    double ovh_ms;     /* wall_ms − Σ timed, clamped at 0: the paper's overhead */
    double gap_ms;     /* per-execution part of the overhead (flush, launch gap, sync) */
    double true_ms;    /* median of all timed executions */
    double mean_ms;    /* their mean */
    double min_ms;     /* their minimum */
    int n_k;           /* entries in k */
    int n_e;           /* entries in e: up to the first EXEC_TIME that all the executions fit in (every later
                        * EXEC_TIME gives that same entry), so memory follows the trace, not the --exec-ms range */
    struct e_entry *e; /* [n_e], index min(EXEC_TIME's grid index, n_e − 1) */
    struct k_entry *k; /* [n_k], index k − 1 */
};

struct sinput {
    char name[64];
    double flops;
    double opt_ms[3];  /* the best valid true time, by truth statistic (enum sim_estimator) */
    int n, cap;        /* configurations kept, valid and failed, in draw order */
    int n_valid;
    struct sconf *c;
};

/* Working memory of building one configuration's tables (one per building thread). */
struct sim_data {
    int n_e;                 /* EXEC_TIME grid points the tables were built for */
    uint64_t *thr_ns;        /* [n_e] their thresholds, ns, ascending */
    int k_max;
    int have_median;
    int n_in, cap_in;
    struct sinput *in;
    size_t bytes;
    char *label;             /* points.tsv's input column in all-inputs mode: NULL ("all") or "A,B,C" for a
                                chosen subset of a trace's inputs */
    struct sim_scratch bs;   /* for sim_data_add_config */
    int n_warmup;            /* compile workers whose first-compile warm-up the trace recorded (0: none) */
    double warmup_mean_ms;   /* their mean warm-up, ms (NaN without any); charged once per worker used under
                                --compile-model measured (sim_warmup_charge) */
    int compile_jobs;        /* the trace's compile workers: the level of its contended compile_ms (0: unknown) */
};

#endif
