/* sim_cost.h — the cost models a replay charges, shared by `tunecost simulate` (sim_replay.c) and the policy
 * engine (policy_engine.c): which compile time a configuration is charged (at the contention of the compiles
 * running together, plus the workers' warm-up) and how compile time adds to tuning
 * time (cost_compile.c: sequential, parallel on a list schedule, pipelined, the paper's ideal) and how much of a
 * configuration's benchmarking overhead is charged (cost_overhead.c: the paper's whole overhead, or its
 * per-execution part). Internal to simulate/. */
#ifndef SIM_COST_H
#define SIM_COST_H

#include "sim.h"

#include <math.h>

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

/* A configuration's compile time as each model charges it (sim_compile_charge): seq_ms for sequential; par_ms,
 * measured with the trace's compile workers (compile_jobs) running together, and iso_ms, the same compile alone,
 * for parallel, pipelined and ideal, which charge the level of contention of the compiles actually running
 * (sim_compile_at). iso_ms == par_ms where no isolated time is charged (--compile-model paper, or none recorded):
 * then every level charges par_ms. */
struct sim_compile_ms {
    double seq_ms, par_ms, iso_ms;
};
/* The charge of one configuration under compile model `m` from its recorded times: compile_ms (NaN: none), its
 * isolated time (NaN: none) and the input's medians of its valid configurations' compile_ms and seq times (the
 * charge of a configuration without any compile time: a failed one in a trace collected without
 * --compile-invalid; its iso_ms is then median_seq_ms, so that it too is charged at k = 1 what sequential charges).
 * Under SIM_CM_PAPER seq_ms and iso_ms are compile_ms. */
struct sim_compile_ms sim_compile_charge(enum sim_compile_model m, double compile_ms, double isolated_ms,
                                         double median_ms, double median_seq_ms);

/* The weight of contention level k between the two measured ones: log2(min(k, jobs)) ÷ log2(jobs) (0 at k = 1, 1
 * at k >= jobs; 1 when jobs <= 1: only the contended level is known). jobs: the trace's compile workers. */
double sim_contention_weight(int k, int jobs);
/* The compile time of c while k compiles run together (jobs: the trace's compile workers): linear in log2 k from
 * iso_ms (k = 1) to par_ms (k = jobs); par_ms from k = jobs on (never extrapolated). Exactly par_ms when the
 * weight is 1 or iso_ms == par_ms. */
double sim_compile_at(struct sim_compile_ms c, int k, int jobs);
/* The same at a weight w computed once (sim_contention_weight), for the replay's inner loop. */
static inline double sim_compile_at_weight(struct sim_compile_ms c, double w)
{
    return w >= 1 || c.iso_ms == c.par_ms ? c.par_ms : c.iso_ms + (c.par_ms - c.iso_ms) * w;
}
/* The concurrency a run's parallel compiles are charged at: min(factor, n) for n compiles on `factor` workers. In
 * a list schedule every compile starts while min(factor, n) compiles run (the first ones start together at 0;
 * each later one starts when a worker frees, the other workers still busy with earlier compiles), so every compile
 * of the run is charged that level; the tail, where workers fall idle, is charged the same (an overestimate of
 * its contention). */
int sim_compile_level(int factor, int n);
/* The compile-worker warm-up a run charges under compile model m: the trace's mean first-compile warm-up
 * (warmup_mean_ms; NaN or <= 0: none recorded) under SIM_CM_MEASURED, else 0 (the paper's model starts its
 * workers warm). Each worker used pays it once, before its first compile; the workers of parallel, pipelined and
 * ideal warm up together, so a run's clock moves by one warm-up whatever the number of workers (sequential: its
 * one worker's; parallel and ideal: + warmup_ms once; pipelined: every compile ready warmup_ms later). */
double sim_warmup_charge(enum sim_compile_model m, double warmup_mean_ms);

/* A run's compile and benchmark sums. */
struct sim_compile_sums {
    double seq_ms;   /* Σ seq_ms */
    double par_ms;   /* Σ par_ms */
    double iso_ms;   /* Σ iso_ms */
    double bench_ms; /* Σ benchmarking */
};
/* The tuning time (ms) of n configurations benchmarked one after another on one GPU, given the sums, the trace's
 * compile workers `jobs` and the warm-up charged (sim_warmup_charge). Sequential: Σ bench + Σ seq_ms + warmup.
 * Ideal (the paper's, an optimistic bound): Σ bench + Σ c(k) ÷ (n ÷ ⌈n ÷ factor⌉) + warmup, i.e. the n compiles
 * in ⌈n ÷ factor⌉ rounds of equal length, c(k) each compile at level k = sim_compile_level(factor, n) (linear in
 * the sums: Σ iso + w·(Σ par − Σ iso)). Parallel: Σ bench + makespan_ms + warmup, makespan_ms the list schedule's
 * (sim_compile_assign) at level k from 0 (the workers' warm-ups shift it as a whole). Pipelined: pipe_gpu_ms, the
 * GPU clock with every compile ready warmup later (sim_pipe_bench). No warm-up when n is 0. */
double sim_compile_total_ms(enum sim_compile model, int factor, int jobs, double warmup_ms, int n,
                            const struct sim_compile_sums *sum, double makespan_ms, double pipe_gpu_ms);
/* List scheduling: the next compile (compile_ms) goes to the worker free first of the `factor` (wfree_ms: when each
 * is free, in ascending order); returns when it is done. n_before: compiles assigned so far in this run; the first
 * `factor` go to idle workers at time 0 (wfree_ms need not be initialised: they set it). Inline, as is
 * sim_pipe_bench: the replay's inner loop calls both once per configuration. */
static inline double sim_compile_assign(double *wfree_ms, int factor, int n_before, double compile_ms)
{
    /* wfree_ms is kept in ascending order, so the worker free first is wfree_ms[0]. Only the multiset of the free
     * times decides when a compile ends (any worker free first gives the same end and leaves the same multiset),
     * so which worker a time belongs to need not be kept. Once every worker has started, the new free time is
     * merged in by min/max without a branch per worker: in bench-sim --paper (2026-11-29, 2-core machine, three
     * alternating runs) the replays took 15-25% less CPU than with the earlier insertion loop, whose exit the
     * processor mispredicts. */
    double done;
    int i;
    if (n_before < factor) { /* an idle worker: the first `factor` compiles start at 0 */
        for (i = n_before; i > 0 && wfree_ms[i - 1] > compile_ms; i--)
            wfree_ms[i] = wfree_ms[i - 1];
        wfree_ms[i] = compile_ms;
        return compile_ms;
    }
    done = wfree_ms[0] + compile_ms;
    /* wfree_ms[0] leaves and done goes in, without a branch per worker: entry j of the result is the smaller of
     * old entry j + 1 and the larger of old entry j and done (for j = 0 that larger one is done, as done =
     * wfree_ms[0] + a compile time >= 0); the last entry is the larger of the old last and done. Ascending j reads
     * entries j and j + 1 before j is written, so the loop has no dependence from one j to the next and is
     * vectorised (simulate/meson.build); in bench-sim --paper (2026-11-29, 2-core machine, three alternating
     * runs) the replays then took 5-20% less CPU again. */
    for (i = 0; i + 1 < factor; i++) {
        double lo = wfree_ms[i], hi = wfree_ms[i + 1];
        double m = lo > done ? lo : done;
        wfree_ms[i] = hi < m ? hi : m;
    }
    wfree_ms[factor - 1] = wfree_ms[factor - 1] > done ? wfree_ms[factor - 1] : done;
    return done;
}

/* Pipelined, one configuration compiled by ready_ms: benchmarked once compiled and the GPU (free at gpu_ms) is
 * free; returns the GPU clock after its bench_ms. */
static inline double sim_pipe_bench(double ready_ms, double gpu_ms, double bench_ms)
{
    return (ready_ms > gpu_ms ? ready_ms : gpu_ms) + bench_ms;
}

/* The same as a run's clock, for a replay that charges one step at a time (the policy engine). The level of
 * contention is that of the compiles so far, min(factor, n): while n <= factor a new compile joins the first wave
 * and the wave is rescheduled at the new level (the compiles and benchmarks of the wave are kept for that), so the
 * clock after n steps is exactly simulate's for a run of those n configurations. */
struct sim_clock {
    enum sim_compile model;
    int factor;              /* workers of parallel, pipelined and ideal; ignored by sequential */
    int jobs;                /* the trace's compile workers (the contended level; <= 1: no interpolation) */
    double warmup_ms;        /* the warm-up charged (sim_warmup_charge) */
    int n;                   /* configurations compiled so far */
    struct sim_compile_sums sum;
    double makespan_ms;      /* parallel: when the last compile so far ends (without the warm-up) */
    double gpu_ms;           /* pipelined: when the GPU is free */
    double pre_ms;           /* pipelined: benchmarking before the first compile */
    double *wfree_ms;        /* parallel, pipelined: [factor] when each compile worker is free */
    double *wave_iso_ms, *wave_par_ms, *wave_after_ms; /* [factor] the first wave's compiles (iso, par) and the
                              * benchmarking after each (pipelined) until the next compile */
};
/* Doubles of caller memory a clock of `factor` workers needs (sim_clock_start). */
#define SIM_CLOCK_WORDS(factor) (4 * (size_t)(factor))
/* Start a run's clock; mem has room for SIM_CLOCK_WORDS(factor) doubles when model is parallel or pipelined (else
 * may be NULL; it need not be initialised). jobs and warmup_ms as in struct sim_clock. */
void sim_clock_start(struct sim_clock *k, enum sim_compile model, int factor, int jobs, double warmup_ms,
                     double *mem);
/* Charge one configuration: its compile times (its first benchmark only: pass compiled = 1) and bench_ms. */
void sim_clock_step(struct sim_clock *k, int compiled, struct sim_compile_ms c, double bench_ms);
/* Charge bench_ms more of benchmarking on the GPU (after a step: a configuration benchmarked further, a failed
 * launch, warm-up): every model adds it to the tuning time. */
void sim_clock_bench(struct sim_clock *k, double bench_ms);
/* The tuning time so far, ms (sim_compile_total_ms of the steps so far). */
double sim_clock_ms(const struct sim_clock *k);

#endif
