/* policy_internal.h — the layout of the policy engine's tables (struct pol_data in policy.h), shared by the
 * table builder (policy.c), the replay engine (policy_engine.c) and the analytic baseline (policy_baseline.c).
 * Not for use outside simulate/. */
#ifndef POLICY_INTERNAL_H
#define POLICY_INTERNAL_H

#include "policy.h"
#include "sim_cost.h"

#include <pthread.h>
#include <stdint.h>

struct pcfg {
    int status;          /* the current run's status for this input (compile/config status without a run) */
    double compile_ms;   /* 0 when not recorded */
    double compile_rec_ms; /* as recorded (NaN when not): what the view shows once it is compiled */
    double warm_ms;      /* estimate + warm-up executions, with their overhead share */
    double gap_ms;       /* per-execution overhead: (wall_ms - all executions) / executions, >= 0 */
    double ovh_ms;       /* wall_ms - timed executions, >= 0 (the paper's whole overhead) */
    double fail_ms;      /* what a failed launch or a wrong result costs beyond compiling: its wall_ms */
    double src_cost_ms;  /* imported traces: what the source recorded for one visit, charged under source_costs:
                          * compile + verification + benchmark time (policy_source.c); 0 for collected traces */
    const uint64_t *x;   /* timed executions (ns), in the trace's memory */
    int n;
    double true_ms;      /* median of the timed executions */
    double truth_ms[3];  /* their mean, median and minimum (by enum sim_estimator): simulate's truths (sim_costs) */
    struct sim_compile_ms charge[2]; /* what simulate's compile models charge, by enum sim_compile_model (a failed
                          * configuration without a compile time: the input's median, sim_compile_charge) */
    double *blk;         /* per block of BLK executions: sum (ms), sum of squares, min, max (4 values each), so that a
                          * step takes whole blocks at once; the last, partial block is walked one by one */
};
#define BLK 64

/* The engine's costs of a first visit to configuration c, beyond benchmarking, for the analytic baseline and the
 * methodology's frame (policy_baseline.c): the compile that s->compile charges (sim_compile_charge's seq_ms under
 * sequential; under the parallel models the compile at level min(F, the input's configurations) (sim_compile_at)
 * ÷ the F workers; none for a configuration the failure-cost model
 * does not compile, sim_failed_compiles), and for a failed configuration its failed launch (sim_failed_launch_ms).
 * The replay itself charges compiles through the run's clock (sim_clock_step, cost_compile.c), as simulate does. */
struct pol_data;
double pol_visit_compile_ms(const struct pol_data *d, const struct pcfg *c, const struct pol_settings *s);
double pol_visit_fail_ms(const struct pcfg *c, const struct pol_settings *s);
/* The compile workers of s's parallel models: compile_factor with sim_costs, else compile_jobs (at least 1). */
int pol_compile_factor(const struct pol_settings *s);
/* The compile-worker warm-up a run charges once (sim_warmup_charge of the trace's mean; 0 under source_costs). */
double pol_warmup_ms(const struct pol_data *d, const struct pol_settings *s);

/* Imported traces (Kernel Tuner caches, T4 files): input `input`'s configurations in[0 .. nc) (trace indices sel[k],
 * or k when sel is NULL) take the source's objective as their true time (the cache's `time`; for another objective
 * its value, or 1000 / value when higher is better, so that opt / true is the speedup either way) and the costs it
 * recorded (src_cost_ms); opt_ms follows. Returns 1 when t is imported (and in was filled), else 0. */
struct pinput;
int pol_source_input(struct pinput *in, const struct trace *t, int input, const int *sel, int nc);

struct pinput {
    int n_cfg, n_valid;
    struct pcfg *c;
    struct pol_config *pc;   /* 2 x n_cfg: the view's configurations under --failed-cost none (out of resources
                              * known_invalid: a tuner's restrictions exclude it), then under triton (nothing known
                              * before compiling, as Triton compiles every configuration it is given) */
    double *prior_ms;    /* n_cfg, or NULL: the transfer policy's prior (pol_data_set_prior) */
    int prior_same;      /* 1 when the prior is the other trace's same input (else a ranking over its inputs) */
    double opt_ms;
    double opt_truth_ms[3]; /* the best valid truth_ms, by enum sim_estimator */
};

/* The one truth of an evaluation (pol_settings.truth): configuration c's true time and the input's best, ms; every
 * score (the curves, the analytic baseline, the methodology's frames) divides these. */
static inline double pol_truth_ms(const struct pcfg *c, const struct pol_settings *s)
{
    return c->truth_ms[(unsigned)s->truth < 3 ? s->truth : SIM_ESTIMATOR_MEAN];
}
static inline double pol_opt_ms(const struct pinput *in, const struct pol_settings *s)
{
    return in->opt_truth_ms[(unsigned)s->truth < 3 ? s->truth : SIM_ESTIMATOR_MEAN];
}
/* The settings the per-visit costs and truths depend on beyond rep_ms and failed_cost, as one key for the caches
 * (struct pol_bcache's compile_jobs and f_jobs): the workers, the compile model and its times, the truth. */
static inline int pol_cost_key(const struct pol_settings *s)
{
    return pol_compile_factor(s) + 8192 * ((int)s->compile + 4 * ((int)s->compile_model + 2 * (int)s->truth));
}

struct pol_data {
    int n_in, n_params;
    int n_cfg;           /* configurations per input: the trace's, or those of sel */
    int *sel;            /* n_cfg ascending trace indices (pol_data_from_trace_configs), or NULL: every one */
    struct pinput *in;
    int *n_values;
    int32_t **values;
    int *vidx;           /* n_configs x n_params: each configuration's value indices */
    unsigned char *param_kind; /* n_params POL_PARAM_* flags (pol_view.param_kind) */
    int *grid_cfg;       /* the configuration at each point of the parameter grid (mixed radix over the value
                          * indices, parameter 0 fastest), -1 where the space has none; NULL when the grid is too
                          * large to tabulate (pol_config_at then searches) */
    struct pol_bcache *bcache; /* the last baseline computed (pol_baseline_cached), shared by every policy */
    int source;          /* 1: an imported trace, whose own objective is each configuration's true_ms (policy_source.c) */
    int compile_jobs;    /* the trace's compile workers: the level of its contended compile_ms (0: unknown) */
    double warmup_mean_ms; /* the trace's mean compile-worker warm-up, ms (NaN: none recorded) */
};

/* The analytic baseline of the last (rep_ms, compile_jobs, failed_cost, grid) asked for: every policy of an
 * evaluation has the same one, and on a large space it costs more than a policy's runs. And the methodology's
 * frames (score_atm.h) of the last settings they depend on, the same for every policy too (their event sort was an
 * eighth of the default run). */
struct pol_bcache {
    pthread_mutex_t mu;
    double rep_ms;
    int compile_jobs, n, failed_cost;
    double *grid_s, *out; /* n each; NULL: none yet */
    struct atm_frame *frames; /* n_frames (one per input), or NULL: none yet */
    int n_frames, f_jobs, f_failed, f_points;
    double f_rep_ms, f_cutoff, f_budget_s;
    uint64_t f_seed;
};
/* Drop the cached frames (d's inputs changed, or d is freed). The caller holds the lock or is alone. */
void pol_bcache_drop_frames(struct pol_bcache *bc);
/* pol_baseline through d's cache: the same numbers (computed afresh, uncached, when memory is short). */
void pol_baseline_cached(const struct pol_data *d, const struct pol_settings *s, const double *grid_s, int n,
                         double *out);

/* What one visit of c costs random search (policy_baseline.c): compile / jobs, warm-up, the executions up to rep_ms
 * and their overhead, or a failure's costs; 0 for a configuration refused before compiling. The analytic baseline
 * and the methodology's frame (score_atm.h) charge this; the baseline adds the compile-worker warm-up once
 * (pol_warmup_ms). */
double pol_visit_cost_ms(const struct pol_data *d, const struct pcfg *c, const struct pol_settings *s);

#endif
