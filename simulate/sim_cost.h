/* sim_cost.h — the cost models a replay charges, shared by `tunecost simulate` (sim_replay.c) and the policy
 * engine (policy_engine.c): how compile time adds to tuning time (cost_compile.c: sequential, the paper's ideal
 * parallel, pipelined) and how much of a configuration's benchmarking overhead is charged (cost_overhead.c: the
 * paper's whole overhead, or its per-execution part). Internal to simulate/. */
#ifndef SIM_COST_H
#define SIM_COST_H

#include "sim.h"

/* ---- overhead (cost_overhead.c) ---- */

/* The overhead charged for a configuration after m of its n_timed recorded timed executions ran, under model
 * `o`: SIM_OVERHEAD_PAPER charges ovh_ms whatever m is; SIM_OVERHEAD_PER_EXEC charges ovh_ms − gap_ms·(n_timed − m),
 * at least 0 (ovh_ms and gap_ms as in struct sim_base). */
double sim_overhead_ms(enum sim_overhead o, double ovh_ms, double gap_ms, int n_timed, int m);

/* ---- compile (cost_compile.c) ---- */

/* The tuning time (ms) of n configurations benchmarked one after another on one GPU, given Σ compile_ms and
 * Σ benchmarking of all n. Sequential: Σ bench + Σ compile. Parallel (the paper's ideal): Σ bench +
 * Σ compile ÷ (n ÷ ⌈n ÷ factor⌉), i.e. the n compiles in ⌈n ÷ factor⌉ rounds of equal length. Pipelined: the
 * `factor` workers compile in draw order while the GPU benchmarks; a configuration is benchmarked once it is
 * compiled and the GPU is free: pipe_gpu_ms, the GPU clock sim_pipe_step kept. */
double sim_compile_total_ms(enum sim_compile model, int factor, int n, double sum_compile_ms, double sum_bench_ms,
                            double pipe_gpu_ms);
/* Pipelined: the next compile goes to the first free of the `factor` workers (wfree_ms: when each is free, all 0
 * at the start of a run); returns the GPU clock after benchmarking the configuration (gpu_ms: before). */
double sim_pipe_step(double *wfree_ms, int factor, double gpu_ms, double compile_ms, double bench_ms);

/* The same as a run's clock, for a replay that charges one step at a time (the policy engine). */
struct sim_clock {
    enum sim_compile model;
    int factor;              /* workers of parallel and pipelined; ignored by sequential */
    int n;                   /* configurations compiled so far */
    double sum_compile_ms;   /* Σ compile_ms so far */
    double sum_bench_ms;     /* Σ benchmarking so far */
    double gpu_ms;           /* pipelined: when the GPU is free */
    double *wfree_ms;        /* pipelined: [factor] when each compile worker is free (the caller's memory) */
};
/* Start a run's clock; wfree_ms has room for `factor` values when model is pipelined (else may be NULL). */
void sim_clock_start(struct sim_clock *k, enum sim_compile model, int factor, double *wfree_ms);
/* Charge one configuration: compile_ms (its first benchmark only: pass compiled = 1) and bench_ms. */
void sim_clock_step(struct sim_clock *k, int compiled, double compile_ms, double bench_ms);
/* The tuning time so far, ms (sim_compile_total_ms of the steps so far). */
double sim_clock_ms(const struct sim_clock *k);

#endif
