/* sim_cost.h — the cost models a replay charges, shared by `tunecost simulate` (sim_replay.c) and the policy
 * engine (policy_engine.c): which compile time a configuration is charged and how compile time adds to tuning
 * time (cost_compile.c: sequential, parallel on a list schedule, pipelined, the paper's ideal) and how much of a
 * configuration's benchmarking overhead is charged (cost_overhead.c: the paper's whole overhead, or its
 * per-execution part). Internal to simulate/. */
#ifndef SIM_COST_H
#define SIM_COST_H

#include "sim.h"

/* ---- overhead (cost_overhead.c) ---- */

/* The overhead charged for a configuration after m of its n_timed recorded timed executions ran, under model
 * `o`: SIM_OVERHEAD_PAPER charges ovh_ms whatever m is; SIM_OVERHEAD_PER_EXEC charges ovh_ms − gap_ms·(n_timed − m),
 * at least 0 (ovh_ms and gap_ms as in struct sim_base). */
double sim_overhead_ms(enum sim_overhead o, double ovh_ms, double gap_ms, int n_timed, int m);

/* ---- failed configurations (cost_overhead.c) ---- */

/* 1 when a failed configuration of trace status `status` is compiled (and charged its compile) under failure-cost
 * model f: every one under SIM_FAILED_TRITON (Triton compiles a configuration before its launch fails); under
 * SIM_FAILED_NONE all but an out-of-resources one (a tuner's restrictions exclude it before compiling). A valid
 * configuration is always compiled. */
int sim_failed_compiles(enum sim_failed_cost f, int status);
/* What a failed configuration costs beyond its compile: its failed launch's wall_ms (0 when it has no run) under
 * SIM_FAILED_TRITON, and for a launch error or a wrong result under SIM_FAILED_NONE; 0 for a valid one. */
double sim_failed_launch_ms(enum sim_failed_cost f, int status, double wall_ms);

/* ---- compile (cost_compile.c) ---- */

/* A configuration's compile time as each model charges it (sim_compile_charge): seq_ms for sequential, par_ms
 * (measured with the trace's compile workers running together) for parallel, pipelined and ideal. */
struct sim_compile_ms {
    double seq_ms, par_ms;
};
/* The charge of one configuration under compile model `m` from its recorded times: compile_ms (NaN: none), its
 * isolated time (NaN: none) and the input's medians of its valid configurations' compile_ms and seq times (the
 * charge of a configuration without any compile time: a failed one in a trace collected without
 * --compile-invalid). Under SIM_CM_PAPER seq_ms is compile_ms. */
struct sim_compile_ms sim_compile_charge(enum sim_compile_model m, double compile_ms, double isolated_ms,
                                         double median_ms, double median_seq_ms);

/* The tuning time (ms) of n configurations benchmarked one after another on one GPU, given Σ benchmarking of
 * all n and the compile sums. Sequential: Σ bench + Σ seq_ms. Ideal (the paper's, an optimistic bound):
 * Σ bench + Σ par_ms ÷ (n ÷ ⌈n ÷ factor⌉), i.e. the n compiles in ⌈n ÷ factor⌉ rounds of equal length.
 * Parallel: Σ bench + makespan_ms, the list schedule's makespan (sim_compile_assign). Pipelined: pipe_gpu_ms, the
 * GPU clock sim_pipe_step kept. */
double sim_compile_total_ms(enum sim_compile model, int factor, int n, double sum_seq_ms, double sum_par_ms,
                            double sum_bench_ms, double makespan_ms, double pipe_gpu_ms);
/* List scheduling: the next compile (compile_ms) goes to the worker free first of the `factor` (wfree_ms: when each
 * is free, in ascending order); returns when it is done. n_before: compiles assigned so far in this run; the first
 * `factor` go to idle workers at time 0 (wfree_ms need not be initialised: they set it). */
double sim_compile_assign(double *wfree_ms, int factor, int n_before, double compile_ms);
/* Pipelined, one configuration compiled by ready_ms: benchmarked once compiled and the GPU (free at gpu_ms) is
 * free; returns the GPU clock after its bench_ms. */
double sim_pipe_bench(double ready_ms, double gpu_ms, double bench_ms);
/* Pipelined: sim_compile_assign, then the configuration is benchmarked once compiled and the GPU is free;
 * returns the GPU clock after benchmarking it (gpu_ms: before). */
double sim_pipe_step(double *wfree_ms, int factor, int n_before, double gpu_ms, double compile_ms, double bench_ms);

/* The same as a run's clock, for a replay that charges one step at a time (the policy engine). */
struct sim_clock {
    enum sim_compile model;
    int factor;              /* workers of parallel, pipelined and ideal; ignored by sequential */
    int n;                   /* configurations compiled so far */
    double sum_seq_ms;       /* Σ seq_ms so far */
    double sum_par_ms;       /* Σ par_ms so far */
    double sum_bench_ms;     /* Σ benchmarking so far */
    double makespan_ms;      /* parallel: when the last compile so far ends */
    double gpu_ms;           /* pipelined: when the GPU is free */
    double *wfree_ms;        /* parallel, pipelined: [factor] when each compile worker is free (caller's memory) */
};
/* Start a run's clock; wfree_ms has room for `factor` values when model is parallel or pipelined (else may be
 * NULL; it need not be initialised). */
void sim_clock_start(struct sim_clock *k, enum sim_compile model, int factor, double *wfree_ms);
/* Charge one configuration: its compile times (its first benchmark only: pass compiled = 1) and bench_ms. */
void sim_clock_step(struct sim_clock *k, int compiled, struct sim_compile_ms c, double bench_ms);
/* Charge bench_ms more of benchmarking on the GPU (after a step: a configuration benchmarked further, a failed
 * launch, warm-up): every model adds it to the tuning time. */
void sim_clock_bench(struct sim_clock *k, double bench_ms);
/* The tuning time so far, ms (sim_compile_total_ms of the steps so far). */
double sim_clock_ms(const struct sim_clock *k);

#endif
