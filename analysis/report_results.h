/* report_results.h — the floor below the report's sections (private to analysis/report*.c): the context every
 * section reads and fills (struct report_ctx: the inputs, the results the sections share, what the report keeps)
 * and the lower files' functions: report_io.c (messages and files), report_results.c (the simulations, Table 6,
 * budget and times to target), report_reeval.c and report_stats.c (statistics). A section includes this header,
 * never report_sections.h (their entry points), and calls no other section: report.c alone runs them, in the order
 * of its report_sections[]. */
#ifndef REPORT_RESULTS_H
#define REPORT_RESULTS_H

#include "report.h"
#include "sim.h"
#include "tables.h"
#include "tc_err.h"
#include "tc_outdir.h"

#include <limits.h>
#include <stdio.h>

#define REPORT_MARKER ".tunecost-report"
#define REPORT_MAX_FINDINGS 40
#define REPORT_MAX_TABLES 32
#define REPORT_MAX_FIGURES 12

/* The report's scenarios, one table: X(id, name, compile, parallel, overhead, early_stop, all_inputs). The
 * single-input simulation (Figure 3, Table 6, models) runs every one; the all-inputs one (Figures 4, 5) those with
 * all_inputs, which must come first; the second family's simulation (two landscapes) the baseline only. name is
 * the scenario column and the file-name part (sim/SET-NAME.tsv); parallel: compile with the report's
 * --compile-factor workers, else one. */
#define REPORT_SCENARIOS(X)                                                                    \
    X(SC_BASELINE, "baseline", SIM_COMPILE_SEQUENTIAL, 0, SIM_OVERHEAD_PAPER, 0, 1)             \
    X(SC_PARALLEL, "parallel", SIM_COMPILE_PARALLEL, 1, SIM_OVERHEAD_PAPER, 0, 1)               \
    X(SC_EARLY, "early-stop", SIM_COMPILE_SEQUENTIAL, 0, SIM_OVERHEAD_PAPER, 1, 1)              \
    X(SC_PEREXEC, "per-exec", SIM_COMPILE_SEQUENTIAL, 0, SIM_OVERHEAD_PER_EXEC, 0, 0)           \
    X(SC_PIPELINED, "pipelined", SIM_COMPILE_PIPELINED, 1, SIM_OVERHEAD_PAPER, 0, 0)
#define REPORT_SC_ID(id, name, compile, parallel, overhead, early_stop, all_inputs) id,
#define REPORT_SC_ALL(id, name, compile, parallel, overhead, early_stop, all_inputs) +(all_inputs)
enum { REPORT_SCENARIOS(REPORT_SC_ID) N_SC_INPUT };
enum { N_SC_ALL = 0 REPORT_SCENARIOS(REPORT_SC_ALL) };
struct report_scenario {
    const char *name;
    enum sim_compile compile;
    int parallel;
    enum sim_overhead overhead;
    int early_stop;
};
extern const struct report_scenario report_scenarios[N_SC_INPUT];

/* Columns of Table 6 (table6-frontier.tsv), as report_results.c builds it. */
enum { T6_TIME_S, T6_TFLOPS, T6_N_CONFIG, T6_EXEC_MS, T6_TIME_S_LO, T6_TIME_S_HI, T6_TFLOPS_LO, T6_TFLOPS_HI };

/* Which simulation: the single input, all inputs, all inputs of the second family's trace. */
enum report_sim { REPORT_SIM_INPUT, REPORT_SIM_ALL, REPORT_SIM_CMP, N_REPORT_SIM };

struct report_figure {
    const char *name;      /* file stem: NAME.png, NAME.svg (util/tc_figures) */
    const char *script;    /* plots/SCRIPT */
    const struct tc_figure *row; /* its row in util/tc_figures: the files SCRIPT reads (checked before it runs) */
    const char *title;
    const char *caption;
    const char *needs;     /* why it is not drawn when its data is absent; NULL = always drawable */
    int have_data;
    int drawn;
    char why[256];         /* why it was not drawn */
};

/* The results the sections share (the results layer): each field is filled once, by the section or lower function
 * named (in report.c's order), and only read by the sections after it; NULL / 0 until then. report.c frees them
 * (those kept, with the kept tables). */
struct report_results {
    /* the characterisation tables (report.c, trace_tables): read by the findings, the studies and the figures */
    struct table *split, *best, *failures, *estimate;
    /* the simulations (report_simulate: the sections of report.c; REPORT_SIM_CMP: report_landscapes): read by
     * every section that replays or re-evaluates */
    struct sim_settings s[N_REPORT_SIM];
    struct sim_data *d[N_REPORT_SIM];
    struct sim_result *r[N_REPORT_SIM];
    /* the verdict set's simulation of seed 1 (report_verdict_run), when report_simulate replayed it for
     * REPORT_SIM_ALL (whose scenarios are among it, on the same draws); taken by report_verdicts */
    struct sim_result *verdict1;
    /* per verdict seed, the points of costs.tsv's setting that the verdict set replayed beside its own scenarios
     * (report_verdict_run: report_cost_fold), until cost_settings takes them */
    struct sim_result *cost_fold[3];
    /* the two kernel families' common reference (report_common_ref), and per verdict seed the first family's points
     * against it that the verdict set replayed beside its own scenarios (report_verdict_run), until the two-family
     * study takes them */
    struct report_common {
        int ready, n;
        int *in[2];    /* [n] common input k's index in each family's data */
        double *w[2];  /* [n] its factor min(optimal_a, optimal_b) / optimal_family (<= 1) */
        double *wd[2]; /* per input of each family's data: the factor, NaN where not common (sim input_weight) */
    } common;
    struct sim_result *common_fold[3];
    /* Table 6 (report_write_sim_files), the budget and the times to target (report_budget_tables): read by the
     * findings, kept by report.c */
    struct table *t6, *budget, *ttt_all, *ttt_input;
    /* report_verdicts.c: per cost model and seed; read by the findings */
    struct table *verdicts, *stability;
    struct table *es_cond;                   /* early stopping's paired time ratio over EXEC_TIME x compile model
                                              * (early-stop-conditions.tsv) */
    struct table *costs;                     /* what each cost setting changes (costs.tsv), or NULL where the trace
                                                lacks a compile cost (report_costs_missing) */
    long no_isolated, failed_no_compile;     /* (input, configuration) pairs of the all-inputs data without an
                                                isolated compile time; failed ones without any compile time */
    /* report_studies.c: the L2 flush study, compile scaling, the two kernel families (landscape: read by the
     * figures) */
    struct table *flush, *scaling, *landscape;
    struct table *cmp_split;                 /* the second family's Figure 1 data (compile share) */
    struct table *fam_paired;                /* the two families on shared draws (stability.tsv's columns,
                                              * landscapes-paired.tsv) */
};

struct report_ctx {
    struct report_options *o;
    struct trace *t, *tt;  /* trace, triton trace (or NULL) */
    struct trace *cmp;     /* the second kernel family's trace (or NULL) */
    int input;             /* index of the single input */
    char input_label[64];
    struct tc_outdir od;   /* the report is written into od.tmp, then swapped into place whole */
    struct table *tabs[REPORT_MAX_TABLES];
    const char *tab_files[REPORT_MAX_TABLES];
    const char *tab_heads[REPORT_MAX_TABLES];
    int tab_max_rows[REPORT_MAX_TABLES];
    int n_tabs;
    struct report_results res; /* what the sections share: each filled once, read by the sections after */
    char *findings[REPORT_MAX_FINDINGS];
    int n_findings;
    int opening_at, n_opening;               /* findings[opening_at ..] open the summary (report_opening.c) */
    struct report_figure figs[REPORT_MAX_FIGURES];
    int n_figs;
    const char *section;                     /* the section running (report.c) and what its row declares it */
    const struct report_outputs *declared;   /* writes; NULL: no section running, nothing checked */
};

/* ---- report_io.c: messages and files (the floor below every other report_*.c file) ---- */
/* snprintf for paths and lines: -1 (message set) when the result would not fit. */
int report_fmt(char *buf, size_t len, const char *fmt, ...) TC_PRINTF(3, 4);
void report_say(struct report_ctx *c, const char *fmt, ...) TC_PRINTF(2, 3);
int report_finding(struct report_ctx *c, const char *fmt, ...) TC_PRINTF(2, 3);
int report_check_interrupt(struct report_ctx *c);
/* Create od.tmp/name for writing (path receives the full name); NULL with a message, an internal error naming the
 * section and the file when name is a figure's data (tc_figure_data) or a TSV file at the top of the directory
 * that the running section's row (c->declared; NULL: none running) does not declare. */
FILE *report_open(struct report_ctx *c, const char *name, char *path, size_t len);
/* fclose with the write checked; -1 with a message naming path. */
int report_close(FILE *fp, const char *path);
int report_write_tsv(struct report_ctx *c, const char *name, const struct table *t);
/* Keep a table: written now as TSV, shown later in summary.md and index.html (head = section title; max_rows
 * < 0: file only). t NULL returns -1 (the builder's message stands). */
int report_keep_table(struct report_ctx *c, struct table *t, const char *file, const char *head, int max_rows);
int report_copy_file(const char *from, const char *to);

/* ---- report_results.c: the results several sections read, each built once ---- */
/* Run simulation `which` (its settings into c->s[which], its data and result into c->d, c->r). For REPORT_SIM_ALL,
 * when the verdict set of stability seed 1 (report_verdict_settings) replays the same draws with every scenario of
 * it (the report's seed is 1 and each scenario is one of the set's), that set is replayed instead and the
 * scenarios' points are taken from it: a scenario's points do not depend on the others replayed beside it (the
 * draws of a sample do not depend on the scenarios), so they are the same bits, and the set is kept for
 * report_verdict_run (c->res.verdict1). */
int report_simulate(struct report_ctx *c, enum report_sim which);
/* The verdicts' simulation of stability seed k (0, 1, 2): all inputs, REPORT_SIM_ALL's settings on seed
 * report_seed_k, scenario 2m + e the cost model m (report_model_scenario) with early stopping e. Where
 * report_cost_fold gives a cost setting, its scenarios (report_cost_models, paper_compile) follow those eight: that
 * setting differs from the report's own only in how compile is charged, so one replay serves both on the same draws
 * (the same bits as a replay of each). */
#define REPORT_N_VERDICT_SC (2 * REPORT_N_MODELS)
void report_verdict_settings(struct report_ctx *c, int k, struct sim_settings *s);
/* Its result (the eight verdict scenarios): for k = 0 the one report_simulate kept (handed over: the caller frees
 * it), else replayed; a folded cost setting's points go to c->res.cost_fold[k]. NULL with the message. */
struct sim_result *report_verdict_run(struct report_ctx *c, int k);
/* The common reference of the two kernel families (c->res.common, built once): the inputs both traces hold with a
 * valid configuration, and the factor of each family's speedup. 1 when built, 0 when there is no second family of
 * the same benchmark (then nothing is built), -1 with the message (building the second family's data failed). */
int report_common_ref(struct report_ctx *c);
/* The simulation of family f (0: the trace, 1: the second family) on verdict seed k against the common reference:
 * the cost models m as scenarios m (report_model_scenario, weighted), the common inputs only (input_weight). */
void report_common_settings(const struct report_ctx *c, int f, int k, struct sim_settings *s);
/* The single input's time to 0.95 per model on the three verdict seeds (stability.tsv rows "time-to-target",
 * model, "time_s_0.95"; report_verdicts.c writes them, the finding "Beyond the paper" reads them): sequential,
 * sequential with the per-execution overhead, pipelined and parallel compilation. */
#define REPORT_N_AT95 4
extern const char *const report_at95_names[REPORT_N_AT95];
/* The index of the cost setting of costs.tsv whose replay rides on the verdict set (the report's own setting is
 * failed-cost triton, compile model measured, and the trace has every compile cost: then triton+paper), else -1. */
int report_cost_fold(const struct report_ctx *c);
/* Its TSV files under sim/; for the single input also Table 6 (c->t6). */
int report_write_sim_files(struct report_ctx *c, enum report_sim which);
/* budget.tsv and the time-to-target tables (c->budget, c->ttt_all, c->ttt_input). */
int report_budget_tables(struct report_ctx *c);

/* ---- report_reeval.c: honest statistics ---- */
/* A point chosen on the simulation's runs (the selection set) and re-evaluated on fresh runs (another seed). */
struct report_est {
    int sample;                       /* the chosen sample of the selection set; -1: none qualifies */
    int n_config, es_num;             /* its hyperparameters */
    double exec_ms;
    double es_thr;
    double sel_time_s, sel_speedup;   /* what the selection set said (means) */
    double time_s, time_lo, time_hi; /* fresh runs: mean tuning time and its 95% CI; NaN without a sample, and
                                      * for a time to target whose fresh mean speedup falls short of the target */
    double speedup, speedup_lo, speedup_hi; /* fresh runs: mean speedup (the best attained when short) and CI */
    double fresh_time_s;              /* fresh runs' mean tuning time whether or not the target was reached */
    int reached;                      /* time to target: 1 when the fresh runs' mean speedup reaches it */
    char chosen_by[32];               /* report_ttt_set: which rule chose the sample ("own", ...) */
};
/* Fresh runs per re-evaluation: 10 x the simulation's runs, at least this many. */
#define REPORT_REEVAL_MIN_RUNS 300
int report_reeval_runs(int runs);
/* Seed number k derived from the report's seed (splitmix64): every re-evaluation and every extra seed of the
 * stability check draws from its own stream, never from the selection set's. */
uint64_t report_derive_seed(uint64_t seed, uint64_t k);
/* The cheapest point of scenario sc whose 95% CI lower bound of speedup reaches target (its mean when runs < 2);
 * NULL when none. (The best point within a budget is simulate's: sim_budget_pick, sim_budget_eval.) */
const struct sim_point *report_pick_ttt(const struct sim_result *r, int n_sc, int sc, double target);
/* Replay point p's hyperparameters (scenario sc of s) on report_reeval_runs(s->runs) fresh runs seeded with seed;
 * p NULL gives sample -1 and NaN numbers. */
int report_reeval(const struct sim_data *d, const struct sim_settings *s, int sc, const struct sim_point *p,
                  uint64_t seed, struct report_est *out);
/* Time to target: picked on r, re-evaluated (report_reeval). */
int report_ttt(const struct sim_data *d, const struct sim_settings *s, const struct sim_result *r, int sc,
               double target, uint64_t seed, struct report_est *out);
/* A row of simulate's budget table (sim_budget_eval: the report's budget.tsv and its opening's 10 s) as an estimate. */
struct sim_budget_row;
void report_est_from_budget(const struct sim_budget_row *w, struct report_est *e);
/* The held-out rule on a re-evaluated time to target: out keeps its time only when its fresh mean speedup reaches
 * target (reached = 1); else time_s and its CI become NaN (speedup and fresh_time_s: the best attained, when). */
void report_held_out(struct report_est *out, double target);
/* The targets every time to target of the report is selected for, ascending. */
#define REPORT_N_TTT 4
extern const double report_ttt_targets[REPORT_N_TTT];
/* The report's one selection of times to target (time-to-target-*.tsv, verdicts.tsv, stability.tsv, costs.tsv and
 * every finding on them), out[i * s->n_scenarios + sc] for report_ttt_targets[i] and scenario sc, re-evaluated on
 * fresh runs seeded report_derive_seed(seed, stream + i * SIM_MAX_SCENARIOS + sc):
 * 1. each target's own sample (report_ttt: the cheapest whose CI lower bound reaches it, kept when the fresh runs'
 *    mean reaches it);
 * 2. a pipelined scenario short of a target that the parallel scenario of the same workers reaches: parallel's
 *    sample replayed under pipelined compilation on parallel's fresh runs (the same draws; pipelining never takes
 *    longer), kept when its fresh mean reaches the target;
 * 3. a sample whose fresh mean reaches a higher target reaches this one: where this target's falls short or is
 *    dearer, the higher target's gives the time (times to target never fall as the target rises).
 * chosen_by says which ("own", "parallel's sample", "sample for 0.98"). only_sc >= 0: that scenario (and the one
 * bounding it) only; targets below from_target are not asked for: those and the other scenarios are "not
 * computed" (sample -1); the targets asked for get the same answer as when every target is. */
int report_ttt_set(const struct sim_data *d, const struct sim_settings *s, const struct sim_result *r, uint64_t seed,
                   uint64_t stream, int only_sc, double from_target, struct report_est *out);

/* The cost settings of every simulation of the report (report_results.c): simulate's defaults, the paper's choices
 * with o->paper, then o->failed_cost and o->compile_model where given (the scenarios are the caller's). */
void report_cost_settings(const struct report_options *o, struct sim_settings *s);

/* A proportion's CI (an eta squared, a share kept) clipped to [0, 1]: a t interval may pass either end. */
static inline void report_clip01(double *lo, double *hi)
{
    *lo = *lo < 0 ? 0 : *lo > 1 ? 1 : *lo;
    *hi = *hi > 1 ? 1 : *hi < 0 ? 0 : *hi;
}

/* ---- report_stats.c: the verdicts' seeds, cost models, paired comparisons and stability rows ---- */
/* The verdicts' seeds are 1, 2, 3 whatever the report's --seed (report_seed_k), and their re-evaluations derive
 * from this base: a verdict is printed only when it is the same under seeds 1, 2 and 3, so it does not move with
 * the report's seed. */
#define REPORT_VERDICT_SEED 1u
/* The cost settings costs.tsv compares (when the trace has every compile cost): the report's own (failed
 * configurations charged, isolated times for sequential), failures free, contended times for sequential. */
#define REPORT_N_COSTS 3
extern const char *const report_cost_names[REPORT_N_COSTS];
/* Each setting's failed cost and compile model, and the cost models (report_model_names) replayed under each. */
extern const enum sim_failed_cost report_cost_failed[REPORT_N_COSTS];
extern const enum sim_compile_model report_cost_model[REPORT_N_COSTS];
#define REPORT_N_COST_MODELS 3
extern const int report_cost_models[REPORT_N_COST_MODELS];
/* Those models as scenarios sc[0..REPORT_N_COST_MODELS) (report_model_scenario, no early stopping). */
void report_cost_scenarios(struct sim_scenario *sc, int factor);
/* The compile cost models the verdicts are stated for: "sequential", "parallel" (list-scheduled on F workers
 * before benchmarking), "pipelined", "ideal" (the paper's parallel model, an optimistic bound), and a scenario of
 * model m, early stopping on or off, F workers (simulate/sim.h, enum sim_compile). */
#define REPORT_N_MODELS 4
extern const char *const report_model_names[REPORT_N_MODELS];
/* How a finding describes model m: "the paper's ideal model (an optimistic bound: ...)". */
extern const char *const report_model_labels[REPORT_N_MODELS];
void report_model_scenario(struct sim_scenario *sc, int model, int early, int factor);
/* A paired comparison on common random numbers: sample i of arm a (a[i * stride]) and of arm b replay the same
 * draws (the same gsl_rng stream per sample: N_CONFIG, EXEC_TIME and every run's configurations), so per sample
 * d_i = log(time_a / time_b) (speedup 0) or speedup_a - speedup_b (speedup 1), and the mean of d over the samples
 * with EXEC_TIME in [x_lo, x_hi], with its 95% t interval, is the comparison's, free of the noise the draws share.
 * est, lo, hi: the geometric-mean time ratio a / b, or the mean speedup difference a - b; n: the samples. */
struct report_paired {
    double est, lo, hi;
    int n;
};
struct report_paired report_paired_points(const struct sim_point *a, const struct sim_point *b, int n, size_t stride,
                                          int speedup, double x_lo, double x_hi);
/* Its category by its own CI: `above` when the CI lies above t_hi, `below` under t_lo, `within` inside
 * [t_lo, t_hi]; "n/a" when it straddles a threshold. */
const char *report_paired_cat(struct report_paired p, double t_lo, double t_hi, const char *below,
                              const char *within, const char *above);
/* A table of stability.tsv's columns (verdict, model, measure, each seed's estimate and category, the mean and CI
 * over the seeds, the verdict, stable, each seed's own CI), and one paired row in it: each seed's category by its
 * own CI, the verdict only when the three agree. */
struct table *report_stability_new(const char *title);
int report_paired_row(struct table *st, const char *verdict, const char *model, const char *measure,
                      const struct report_paired p[3], double t_lo, double t_hi, const char *below,
                      const char *within, const char *above);
/* The stability check's seeds (report_seed_k). */
#define REPORT_N_SEEDS 3
/* A measure on the three seeds. Its verdict over the seeds (category) is decided one of two ways:
 * - by_ci: the seeds are three independent replicates of the whole procedure (selection set and fresh runs), so
 *   mean ± t(0.975, 2)·sd/√3 is a 95% CI of what the procedure gives; the verdict is `above` when the CI lies above
 *   thr_hi, `below` when below thr_lo, `within` when inside [thr_lo, thr_hi], and "no verdict" when it reaches
 *   past a threshold. A value near a threshold thus gives no verdict under any seed, where the three seeds'
 *   categories could agree under one seed and not under another;
 * - else: the three seeds' categories (cat) must agree (for measures far from their thresholds, eta squared). */
struct report_measure {
    const char *verdict, *model, *measure;
    double v[REPORT_N_SEEDS];
    const char *cat[REPORT_N_SEEDS];
    int by_ci;
    double thr_lo, thr_hi;
    const char *below, *within, *above;
    int paired;                    /* lo, hi: each seed's own 95% CI (a paired comparison on shared draws) */
    double lo[REPORT_N_SEEDS], hi[REPORT_N_SEEDS];
};
/* A measure's category on one seed's value v (thresholds thr_lo, thr_hi); "n/a" when v is not finite. */
const char *report_measure_cat(const struct report_measure *m, double v);
/* Add m as a row of a stability table (report_stability_new): each seed's value and category, the mean and CI over
 * the seeds, the verdict (by its CI or by the seeds' agreement) and, for a paired measure, each seed's own CI. */
int report_stability_row(struct table *tab, const struct report_measure *m);
/* Three seeds as independent replicates of a measure: their mean and its 95% CI, mean ± t(0.975, 2)·sd/√3. */
void report_seeds_ci(const double v[3], double *mean, double *lo, double *hi);
/* The selection seed of stability seed k (0: the report's own seed). */
uint64_t report_seed_k(uint64_t seed, int k);
/* Share of the variance of y explained by grouping the samples on x into up to 10 equal-width bins (eta²). */
double report_eta_squared(const double *x, const double *y, int n, double lo, double hi);

/* ---- report_results.c: the shares of Figure 1 and a kernel family's name ---- */
/* Figure 1 data (tables_split) summed over the inputs. */
struct report_split {
    double repetition_ms, overhead_ms, compile_ms;
    int n_inputs, over_half;   /* inputs whose overhead is more than half of their tuning time */
    int mean_wall_col;         /* the column of a configuration's mean wall time */
};
int report_split_shares(const struct table *split, struct report_split *out);
/* "gemm-h200.h5: wgmma on 38 of 100 configurations" or "gemm-h200-mmasync.h5: mma.sync", in buf. */
void report_family_name(const struct trace *t, char *buf, size_t len);

#endif
