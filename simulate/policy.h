/* policy.h — tuning policies replayed on a recorded trace, charged every cost a real tuner pays.
 *
 * A policy decides which configuration to benchmark next and for how long; the replay engine (policy_engine.c) charges
 * what that costs from the trace — the configuration's compile time the first time it is chosen, its warm-up
 * executions, its timed executions one by one until the repetition time asked for is used, and the
 * per-execution overhead (launch gaps, synchronisation) — and tells the policy what it measured. After every
 * step the engine records the tuning time spent and the TRUE speedup (relative to the input's best) of the
 * configuration the policy would choose at that moment: the one with the lowest estimate so far.
 *
 * A new policy is one file: a `struct policy_ops` with its hyperparameters and a reference, registered in
 * policy_registry (policy_registry.c). docs/simulation.md ("Tuning policies") has a worked example. */
#ifndef POLICY_H
#define POLICY_H

#include "score_atm.h"
#include "sim.h"

#include <gsl/gsl_rng.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct trace;

/* What a policy may know about a configuration before benchmarking it: its parameters only. Nothing recorded about
 * it (compile time, status, times) is visible until the engine has charged for it; those results are in the view's
 * per-configuration arrays (tests/test-policy.c checks that an unmeasured configuration shows none). */
struct pol_config {
    const int32_t *params;  /* n_params values (the trace's /params row) */
    int known_invalid;      /* 1 when the configuration is refused before any launch (out of resources: shared
                             * memory or registers over the limit) and the tuner knows it from the parameters alone
                             * (Kernel Tuner's `restrictions`), so the engine charges nothing for it: under
                             * --failed-cost none. Under triton no configuration is known invalid (Triton compiles
                             * every configuration it is given and learns of the failure then, paying for it). The
                             * grid helpers (pol_config_at, pol_neighbours, pol_closest) leave these out: the space
                             * searched is what the restrictions leave */
};

/* The view of one input a policy sees while it runs. */
struct pol_view {
    int n_configs, n_params;
    const struct pol_config *cfg;   /* n_configs */
    const int *n_values;            /* per parameter: number of distinct values in the space */
    const int32_t *const *values;   /* per parameter: its distinct values, ascending */
    const int *grid_cfg;            /* for pol_config_at (may be NULL) */
    const int *vidx;                /* n_configs x n_params: each configuration's value indices (may be NULL:
                                     * then pol_vidx searches values[]) */
    const unsigned char *param_kind; /* per parameter: POL_PARAM_* flags from its name and values (Helion's
                                     * policies, policy_pattern.c), or NULL: none known */
    const double *prior_ms;         /* per configuration: another GPU's true time for this input (the transfer
                                     * policy's warm start, policy_transfer.c), NaN where it has none; NULL when no
                                     * prior was given (pol_data_set_prior) */
    /* measurements so far (filled by the engine; NaN / 0 for a configuration not yet benchmarked): */
    const double *est_ms;           /* per configuration: mean of its timed executions so far; NaN if none */
    const int *n_exec;              /* per configuration: timed executions so far */
    const int *failed;              /* per configuration: 1 once it failed (compile, launch, wrong result) */
    const double *compile_ms;       /* per configuration: the compile time recorded for it, once the engine has
                                     * compiled it (charged it); NaN before, and for what was never compiled */
    int best;                       /* configuration with the lowest estimate so far, or -1 */
    double time_s;                  /* tuning time spent so far */
    double rep_ms;                  /* the repetition time per configuration the user set (--rep-ms) */
    gsl_rng *rng;                   /* the only source of randomness a policy may use */
    const char *options;            /* --strategy-options "name=value,...", or NULL (pol_option) */
};

/* What a parameter is, as far as its name and values tell (pol_view.param_kind): a block (tile) size (BLOCK_M,
 * block_sizes_0, ...), the number of warps, a choice among values that have no order (text: pid_type, indexing). */
enum { POL_PARAM_BLOCK = 1, POL_PARAM_WARPS = 2, POL_PARAM_CHOICE = 4 };
/* A policy: a struct of function pointers. Every slot gets the policy's own state (made by `start`). */
struct policy_ops {
    const char *name;       /* "random", as given to --policies */
    const char *summary;    /* one line for --help */
    const char *reference;  /* where the method comes from */
    /* Make the state for one tuning run on one input. Returns NULL on out of memory. */
    void *(*start)(const struct pol_view *v);
    /* The next configuration to benchmark (it may be one already measured: then more of its executions are
     * taken), or -1 when the policy is done. */
    int (*next)(void *st, const struct pol_view *v);
    /* How much repetition time (ms of timed executions) to give configuration c now. */
    double (*rep_ms)(void *st, const struct pol_view *v, int c);
    /* After the engine benchmarked c: est_ms[c] and n_exec[c] are updated (or failed[c] set). May be NULL. */
    void (*observe)(void *st, const struct pol_view *v, int c);
    /* Free the state. */
    void (*stop)(void *st);
    int needs_prior;        /* 1: runs only with a prior (pol_view.prior_ms), see pol_data_set_prior */
};

/* Option `name` of v->options ("name=value,..."; the last one given counts) as a number, or def when it is not
 * given. pol_options_check: 0 when every name in `options` is read by some policy of ops[0 .. n) (max_fevals by
 * all) and every value is a number; else -1 (tc_errmsg names the option and what was expected).
 * pol_policy_options: the option names policy `name` reads, comma-separated, or NULL (policy_kt_common.c). */
double pol_option(const struct pol_view *v, const char *name, double def);
int pol_options_check(const char *options, const struct policy_ops *const *ops, int n);
const char *pol_policy_options(const char *name);

/* Helpers for policies. pol_pick_unmarked: the configuration at a uniformly random position among those with
 * marked[k] == 0 (n_unmarked of them), one draw from v->rng; -1 (and no draw) when n_unmarked is 0.
 * pol_value_index: the index of value x among parameter p's sorted values (v->values[p]), or -1. */
int pol_pick_unmarked(const struct pol_view *v, const int *marked, int n_unmarked);
int pol_value_index(const struct pol_view *v, int p, int32_t x);
/* The configuration whose parameter p has value v->values[p][vidx[p]] for every p (the first in trace order), or
 * -1 when the space has none (or it is known_invalid). O(n_params) from a table when the grid is small enough to tabulate. */
int pol_config_at(const struct pol_view *v, const int *vidx);

/* Search-space helpers of the grid-search policies (policy_search.c), on the space as it is: the configurations
 * in the trace, whose parameters take the values in v->values (Kernel Tuner's neighbour methods, searchspace.py),
 * less those known_invalid.
 * pol_vidx: the value index of configuration c's parameter p.
 * pol_neighbours: the configurations that are neighbours of the grid point vidx (which need not be a
 * configuration itself; it is never its own neighbour), into out (room for n_configs), ascending configuration
 * index; returns how many. POL_NBR_HAMMING: differ in exactly one parameter, by any number of steps;
 * POL_NBR_ADJACENT: every parameter within one step of its sorted values, at least one different (Kernel
 * Tuner's "strictly-adjacent"; its "adjacent" is the same wherever every value of a parameter occurs in some
 * configuration, as here, where values[] are the values that occur); POL_NBR_STEP: one parameter one step, the
 * others equal (Kernel Tuner's "Hamming-adjacent" on such a space; anneal's and genetic's moves).
 * pol_closest: a configuration at the least sum of |value index differences| from vidx, uniformly among ties
 * (one draw from v->rng when there are several; Kernel Tuner's "closest-param-indices"), or -1 for an empty space.
 * pol_cost: Kernel Tuner's cost of configuration c as far as it is known: 1 and its estimate (DBL_MAX when it
 * failed or has none) once benchmarked, else 0.
 * pol_rep_once: rep_ms for a policy that benchmarks each configuration once: v->rep_ms the first time, 0 after. */
enum pol_nbr { POL_NBR_HAMMING = 0, POL_NBR_ADJACENT = 1, POL_NBR_STEP = 2 };
int pol_vidx(const struct pol_view *v, int c, int p);
int pol_neighbours(const struct pol_view *v, const int *vidx, enum pol_nbr method, int *out);
int pol_closest(const struct pol_view *v, const int *vidx);
int pol_cost(const struct pol_view *v, int c, double *cost);
double pol_rep_once(void *st, const struct pol_view *v, int c);

/* The registry: every built-in policy, NULL-terminated. policy_kt_registry: Kernel Tuner 1.5's strategies under
 * its names (policy_kt_*.c), NULL-terminated; `policies` offers both, the report's studies the first. policy_find
 * searches both. */
extern const struct policy_ops *const policy_registry[];
extern const struct policy_ops *const policy_kt_registry[];
const struct policy_ops *policy_find(const char *name);

/* Stopping rules that combine with any policy (engine side). */
enum pol_stop_rule {
    POL_STOP_NONE = 0,
    POL_STOP_EARLY = 1,       /* the paper's early stopping: after es_num executions, stop a configuration whose
                               * mean exceeds es_threshold x the best single execution seen */
    POL_STOP_STATISTICAL = 2, /* stop a configuration once the lower 95% bound of its mean exceeds the best
                               * estimate so far (it cannot beat it), checked after each execution from 3 on */
};

struct pol_settings {
    double budget_s;          /* tuning-time budget per run: a step that would pass it is not charged, the run
                               * ends, and the run is counted as stopped by the budget */
    double rep_ms;            /* repetition time per configuration (policies may scale it) [100] */
    int compile_jobs;         /* compile workers of the parallel compile models (`compile`), without sim_costs
                               * (>= 1) [1] */
    enum pol_stop_rule stop_rule;
    int es_num;               /* early stopping: executions before the check [5] */
    double es_threshold;      /* early stopping: threshold [1.5] */
    int runs;                 /* tuning runs per input and policy [30] */
    uint64_t seed;
    int n_grid;               /* points of the common time grid [60] */
    int threads;              /* worker threads over inputs, 1..64; the result does not depend on it [1] */
    int max_configs;          /* a run ends when the policy asks for a configuration beyond this many distinct
                               * ones (simulate's N_CONFIG; Kernel Tuner's max_fevals); 0: no limit [0] */
    const char *strategy_options; /* --strategy-options, handed to the policies (pol_view.options) [NULL] */
    int source_costs;         /* 1: charge what an imported trace's source recorded, as Kernel Tuner's simulation
                               * mode does: a first visit costs its compile + verification + benchmark time, a
                               * revisit nothing, and the measurement the policy sees is the source's objective
                               * (policy_source.c; rep_ms, compile_jobs and failed_cost then charge nothing) [0] */
    /* simulate's costs (sim_cost.h) in place of the engine's own, so that the random policy reproduces
     * `tunecost simulate` exactly (tests/test-policy.c shows it) [0: off]. With sim_costs = 1 a configuration is
     * benchmarked once, at its first step: the executions the paper's rule takes for rep_ms (integer ms, as
     * EXEC_TIME), charged as their sum plus the overhead of model `overhead`; compile time goes through the
     * clock of model `compile` with `compile_factor` workers (compile_jobs is ignored); POL_STOP_EARLY is
     * simulate's rule (the mean of the first es_num executions exceeds es_threshold x the fastest execution of
     * the configurations benchmarked before, and more than es_num would run); the budget is checked per step;
     * failed configurations are charged per failed_cost and speedups scored by `truth`. */
    int sim_costs;
    enum sim_compile compile;     /* how compile time adds to tuning time, through simulate's clock (sim_cost.h):
                                   * sequential charges the isolated times, parallel and pipelined a list schedule
                                   * on pol_compile_factor workers at the contention of the compiles so far, and
                                   * under compile model measured one compile-worker warm-up
                                   * [SIM_COMPILE_SEQUENTIAL] */
    int compile_factor;           /* [16] */
    enum sim_overhead overhead;   /* [SIM_OVERHEAD_PAPER] */
    enum sim_compile_model compile_model; /* which compile times the models charge, as
                                   * simulate's --compile-model [SIM_CM_MEASURED] */
    enum sim_failed_cost failed_cost; /* SIM_FAILED_TRITON: a failed configuration costs its compile (every
                                   * status; none recorded: the input's median) plus its failed launch's wall_ms,
                                   * as simulate charges it; NONE: no compile for out of resources, the wall_ms of
                                   * a launch error or wrong result only, and an out-of-resources configuration
                                   * is known_invalid (a tuner's restrictions exclude it). Both cost models read
                                   * it (simulate draws no failed configuration under NONE) [SIM_FAILED_TRITON:
                                   * a real tuner pays for the configurations that fail, as Triton compiles them] */
    enum sim_estimator truth;     /* the truth every speedup is scored by (simulate's --truth): the statistic of
                                   * all of a configuration's timed executions; the engine ranks by the mean of
                                   * those it took, so the mean (the default) makes exhaustive search end at 1.0
                                   * [SIM_ESTIMATOR_MEAN] */
    /* the methodology's score (score_atm.h; its baseline charges the engine's own costs, also with sim_costs): */
    double atm_cutoff;            /* the fraction of the way from the median to the optimum where the range ends [0.95] */
    int atm_points;               /* times in each input's linear range; 0: the score is not computed [100] */
    int atm_boot;                 /* bootstrap replicates for its CI [1000]; 0: the score alone, no CI (NaN) */
    int runs_log;                 /* 1: keep every run's steps (pol_curve.runlog), for `policies --runs-log` [0] */
};

void pol_settings_default(struct pol_settings *s);
/* 1 when t was imported from another tuner's records (protocol kerneltuner or t4): its own objective is the truth
 * and the costs it recorded can be charged (pol_settings.source_costs). */
int pol_trace_imported(const struct trace *t);

/* The tables the engine replays: one per input, built from a trace (current runs only). */
struct pol_data;
struct pol_data *pol_data_from_trace(const struct trace *t);
/* The same on a part of the space: the configurations sel[0 .. n_sel) of t (ascending trace indices), as if the
 * trace held only those (its grid, neighbours and medians are of them). pol_data_set_prior then takes the same t.
 * Returns the tables, or NULL (tc_errmsg: a selection not ascending within the trace, out of memory). */
struct pol_data *pol_data_from_trace_configs(const struct trace *t, const int *sel, int n_sel);
/* The transfer policy's prior (pol_view.prior_ms) from another trace `other` of the same kernel, another GPU:
 * configurations matched by parameter values, inputs by their dimensions (trace_match_configs, trace_match_inputs:
 * the same parameter and dimension names, in any order; either trace may hold configurations the other lacks:
 * those of t get NaN); an input of d that `other` lacks gets, per configuration, the geometric mean over other's
 * inputs of its time relative to that input's best (a ranking, not times). Returns 0, or -1 (tc_errmsg: the
 * parameters differ, no configuration in common, out of memory). */
int pol_data_set_prior(struct pol_data *d, const struct trace *t, const struct trace *other);
int pol_data_has_prior(const struct pol_data *d);
/* Drop from d the inputs whose prior is not the other trace's same input (a study of the inputs both GPUs have):
 * the inputs left keep their order and are numbered from 0. Returns how many are left. */
int pol_data_restrict_to_prior(struct pol_data *d);
/* The shipped traces of one kernel on two GPUs, as data/manifest.tsv names them (util/tc_paths): the reference
 * trace in ref and, in full, another GPU's full space (the cross-gpu row, else the full-space row when its GPU is
 * not the reference's; the report's cross-GPU study pairs them by parameter values and dimensions,
 * trace_match_configs). Returns 0 with both paths, or -1 when no such pair is shipped (full then holds ""). */
int pol_shipped_pair(char *ref, char *full, size_t len);
/* The default TRACE of `policies` and its prior (the transfer policy's, --transfer-from), as data/manifest.tsv
 * names them: the shipped full-space trace, its prior the first shipped trace of another GPU among the cross-gpu and
 * reference rows; with no full-space trace the reference and no prior. prior is "" when there is none. Both buffers len bytes. Returns 0,
 * or -1 (tc_errmsg: the trace that is missing and how to collect it) when not even the reference is shipped. */
int pol_shipped_default(char *trace, char *prior, size_t len);
void pol_data_free(struct pol_data *d);
int pol_data_n_inputs(const struct pol_data *d);

/* One run's steps, in order (pol_settings.runs_log): step e benchmarked configuration cfg[e] (an index of the
 * input's configurations) and ended at t_s[e], the run's tuning time as the methodology's score ranks it (the
 * clock less the compile-worker warm-up a run pays once, pol_warmup_ms); comp_s[e] of the time since the step
 * before (t_s[e] - t_s[e-1], from 0) was the compile the step charged, the rest its benchmarking (warm-up,
 * executions, overhead, a failure's launch, what the source recorded under source_costs). */
struct pol_runlog {
    int n;
    int *cfg;
    double *t_s, *comp_s;
};

/* Results of one policy over every input and run, on the common time grid. */
struct pol_curve {
    const char *policy;
    int n_grid;
    double *grid_s;                  /* n_grid tuning times (s), shared by every policy of one evaluation */
    double *mean, *lo, *hi;          /* mean speedup vs optimal and its 95% CI over inputs x runs */
    double *baseline;                /* analytic random-search expectation at each grid time (mean over inputs) */
    double score;                    /* sum over the grid of (mean - baseline) / sum of (1 - baseline), see docs */
    double score_lo, score_hi;       /* its 95% CI over inputs x runs (each run's own area ratio; NaN for one run) */
    double t90_s, t95_s, t99_s;      /* first grid time where the mean reaches 0.90 / 0.95 / 0.99 (NaN: never) */
    long n_steps;                    /* benchmark steps taken, all runs */
    long n_budget_stops;             /* runs the budget ended before the policy was done */
    double final_speedup;            /* mean speedup at the end of the runs */
    /* the methodology's score (score_atm.h; docs/simulation.md): */
    double atm_score, atm_lo, atm_hi; /* mean over usable inputs, and its 95% bootstrap CI over runs and inputs */
    int atm_n_inputs;                /* usable inputs (NaN scores when 0) */
    int n_inputs, runs;
    struct atm_frame *atm;           /* n_inputs: each input's range and baseline */
    double *atm_input_score;         /* n_inputs: each input's score (NaN where not usable) */
    double *atm_mean_ms;             /* n_inputs x s->atm_points: the run time at the mean rank over runs at each of
                                      * the frame's times (0 where not usable) */
    double *atm_boot;                /* s->atm_boot bootstrap replicates of atm_score, paired across policies of one
                                      * evaluation (atm_first_share), or NULL */
    int n_boot;
    struct pol_runlog *runlog;       /* n_inputs x runs (input-major) with s->runs_log, else NULL */
};

/* Replay `ops` on every input of d, s->runs times each, on s->threads threads; grid_s holds s->n_grid times.
 * The same bytes for a seed whatever the thread count (each (seed, policy, input, run) has its own random stream,
 * and per-input sums are added in input order). Policies must keep all their state in what `start` returns.
 * Returns 0, or -1 (tc_errmsg). */
int pol_evaluate(const struct pol_data *d, const struct policy_ops *ops, const struct pol_settings *s,
                 const double *grid_s, struct pol_curve *curve);
/* The common grid: n log-spaced times from lo_s to hi_s. */
void pol_grid(double lo_s, double hi_s, int n, double *grid_s);
/* The analytic random-search baseline (mean over inputs) at each grid time; see policy_baseline.c. */
void pol_baseline(const struct pol_data *d, const struct pol_settings *s, const double *grid_s, int n, double *out);
/* Sampled references for the baseline's accuracy (docs/simulation.md): `perms` uniformly random orders of every
 * input's configurations, each charged as the baseline charges it and measured perfectly. exact[g]: the mean best
 * true speedup done by grid time g (what the baseline estimates); indep[g]: the baseline's formula with the
 * sampled distribution of T_j in place of the gamma law (only the independence of cost and speed assumed). Means
 * over inputs, as pol_baseline. Returns 0, or -1 (tc_errmsg: out of memory). */
int pol_baseline_sampled(const struct pol_data *d, const struct pol_settings *s, const double *grid_s, int n,
                         int perms, uint64_t seed, double *exact, double *indep);
void pol_curve_free(struct pol_curve *c);
/* Run `run` of input `input` of c (evaluated with runs_log on d, a pol_data of t) as Kernel Tuner's T4 results,
 * the form the autotuning_methodology package reads a tuning run in (docs/simulation.md, "The runs log"): one
 * result per step, in order, with the configuration's parameters, "times" in seconds ("compilation" the compile
 * the step charged, "benchmark" the rest of the time since the step before: the two add up to the run's tuning
 * time at the end of the step; "framework" and "search_algorithm" 0), the "time" measurement the configuration's
 * true time in ms as tunecost scores it (%.15g, as `export t4` writes it) or a failure marker, and
 * "invalidity". Returns 0, or -1 (tc_errmsg) on a write error. */
int pol_runlog_write_t4(FILE *fp, const struct trace *t, const struct pol_data *d, const struct pol_settings *s,
                        const struct pol_curve *c, int input, int run);
/* The curves as TSV (util/tc_tsv: tc_tsv_curves), the one writer of `policies`' curves.tsv and the report's
 * policies-curves.tsv: the header, then one row per policy and grid time, every number with 17 significant digits.
 * The caller checks the stream for write errors. */
void pol_write_curves(FILE *fp, const struct pol_curve *c, int n);

/* One tuning run of `ops` on input `input`, drawing from `rng` as it is (not reseeded): the tuning time at its end
 * and the true speedup of the configuration it would choose then (0 when none). pol_evaluate runs exactly this,
 * with a stream per (seed, policy, input, run). Returns 0, or -1 (tc_errmsg). */
int pol_run(const struct pol_data *d, int input, const struct policy_ops *ops, const struct pol_settings *s,
            gsl_rng *rng, double *time_s, double *speedup);

#endif
