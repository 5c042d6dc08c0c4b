/* cost.h — what tuning one input costs end to end and what it buys (`tunecost cost`): every configuration of the
 * trace, failing ones included, its time split into compilation, warm-up, repetition, L2 flush, launch and host
 * overhead, and failed configurations; the compile time again under the simulator's parallel compile models; the
 * best configuration against the vendor library and against a configuration picked at random. Sums are
 * measurements of the trace; their 95% CIs come from a bootstrap over configurations (what a space of this size,
 * drawn like this one, would cost), the compile models' from the spread over draw orders (sim_run), the best
 * TFLOP/s from a bootstrap of its timed executions. Every function returns 0 / -1 with tc_errmsg(). */
#ifndef ANALYSIS_COST_H
#define ANALYSIS_COST_H

#include <stdint.h>
#include <stdio.h>

struct trace;

/* One part of the cost: its sum over the configurations (ms) and the bootstrap 95% CI of that sum. */
struct cost_part {
    double ms, lo_ms, hi_ms;
};

enum cost_kind {
    COST_COMPILE = 0, /* valid configurations' compilation, one after another (isolated times where measured) */
    COST_WARMUP,      /* estimate and warm-up executions (GPU time) */
    COST_REPETITION,  /* timed executions */
    COST_FLUSH,       /* L2 flush kernels (GPU time) */
    COST_LAUNCH,      /* the rest of wall time: launches, synchronisation, host work */
    COST_FAILED,      /* failed configurations: their compilation and their failed launch */
    COST_WORKER,      /* the compile worker's warm-up (its first compile's start-up), once: the trace's mean, as
                       * simulate charges it (sim_warmup_charge); 0 where the trace recorded none */
    COST_N_KINDS
};
/* "compile", "warmup", "repetition", "flush", "launch_overhead", "failed", "compile_warmup". */
const char *cost_kind_name(enum cost_kind k);

/* The compile models replayed on every configuration with `workers` compile workers (sim.h's scenarios). */
enum cost_model { COST_SEQUENTIAL = 0, COST_PARALLEL, COST_PIPELINED, COST_IDEAL, COST_N_MODELS };
const char *cost_model_name(enum cost_model m);

struct cost_settings {
    int workers;      /* compile workers of the parallel models (16) */
    int runs;         /* draw orders replayed per compile model (30) */
    int boot;         /* bootstrap replicates (2000) */
    uint64_t seed;    /* (1) */
};

struct cost_result {
    char input[64], protocol[16], kernel[64], device[128];
    int n_configs, n_valid, n_failed, compile_jobs, workers, runs, boot;
    /* what was measured and what imputed */
    int n_isolated;           /* valid configurations with an isolated (1-worker) compile time */
    int n_failed_compiled;    /* failed configurations with a compile time of their own */
    int n_failed_launched;    /* failed configurations with a run (a failed launch's wall time) */
    struct cost_part part[COST_N_KINDS];
    struct cost_part total;   /* sequential compilation: Σ of the parts */
    int worker_recorded;      /* the trace recorded compile-worker warm-ups (else COST_WORKER is 0, not charged) */
    double compile_share, compile_share_lo, compile_share_hi; /* (compile + failed + compile warm-up) ÷ total */
    double rep_share, rep_share_lo, rep_share_hi;             /* repetition ÷ total */
    /* every configuration replayed under each compile model: tuning time (s) and its CI over draw orders */
    double model_s[COST_N_MODELS], model_lo_s[COST_N_MODELS], model_hi_s[COST_N_MODELS];
    double bench_ms;          /* Σ benchmarking (wall of valid runs + failed launches): model time − compile */
    /* what it buys */
    int best_config;
    double best_tflops, best_tflops_lo, best_tflops_hi; /* median of its timed executions, bootstrap CI */
    double ref_tflops;        /* the vendor library's (NaN: none recorded) */
    double median_tflops;     /* the median valid configuration's (a configuration picked at random) */
    double flops;
};

void cost_settings_default(struct cost_settings *s);
/* Compute the cost of tuning input `input` of t (every configuration). */
int cost_compute(const struct trace *t, int input, const struct cost_settings *s, struct cost_result *out);
/* The result as a table a person reads, and as one JSON object (numbers in ms and s as named). 0, or -1 on a write
 * error. */
int cost_print(FILE *fp, const struct cost_result *r);
int cost_write_json(FILE *fp, const struct cost_result *r);

#endif
