/* sim.h — Monte Carlo replay of autotuning over random budgets (the paper's §5.3.2, made exact; docs/simulation.md).
 * Two layers: `struct sim_data` holds, per input and per configuration, everything a replay needs (built
 * from a trace, or in memory by tests and benchmarks), and sim_run() draws S samples × R runs over it and returns
 * one `struct sim_point` per (sample, scenario). No HDF5 here: the trace is read through trace/trace.h only.
 * Files: sim_settings.c (settings, scenario names), sim_table.c (per-configuration records, shared with the policy
 * engine), sim_data.c (the EXEC_TIME / EARLY_STOP_NUM tables), cost_compile.c and cost_overhead.c (the cost
 * models, shared with the policy engine), sim_replay.c (sim_run), sim_output.c (points.tsv, frontier.tsv).
 *
 * Typical in-process use (the report does this):
 *
 *     struct sim_settings s;
 *     sim_settings_default(&s);                       // 500 × 30, N_CONFIG 1:80, EXEC_TIME 10:100
 *     s.seed = 7;
 *     struct sim_data *d = sim_data_from_trace(t, NULL, 0, &s);   // all inputs of trace t
 *     struct sim_result *res = sim_run(d, &s, NULL, NULL);
 *     for (int i = 0; i < res->n_points; i++) use(&res->points[i]);
 *     sim_write_points(stdout, d, &s, res);           // or sim_write_outputs(dir, ...)
 *     sim_result_free(res); sim_data_free(d);
 *
 * Every function returns 0 / a pointer on success and -1 / NULL on failure with tc_errmsg() set. */
#ifndef SIM_H
#define SIM_H

#include <gsl/gsl_rng.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct trace;

#define SIM_MAX_SCENARIOS 16
#define SIM_NAME_LEN 48

/* How a run's compile time is charged (docs/simulation.md, "Compile models"). Under --compile-model measured
 * (the default) sequential charges each configuration's isolated (1-worker) compile time and the parallel models
 * the contended time the trace measured with its compile workers; under --compile-model paper every model
 * charges the trace's compile_ms and the name "parallel" means SIM_COMPILE_IDEAL (the paper's Figure 4). */
enum sim_compile {
    SIM_COMPILE_SEQUENTIAL = 0, /* Σ compile time, one after another */
    SIM_COMPILE_PARALLEL,       /* `factor` workers compile every drawn configuration first (list scheduling in
                                   draw order: each compile to the worker free first), then the GPU benchmarks:
                                   makespan + Σ bench; the makespan is >= the slowest compile */
    SIM_COMPILE_PIPELINED,      /* `factor` workers compile in draw order while the GPU benchmarks; a
                                   configuration is benchmarked once it is compiled and the GPU is free */
    SIM_COMPILE_IDEAL           /* the paper's ideal, an optimistic bound: Σ compile ÷ (N ÷ ⌈N ÷ factor⌉) */
};
/* Which compile times the compile models charge (--compile-model). */
enum sim_compile_model {
    SIM_CM_MEASURED = 0,        /* sequential: isolated times (compile_ms where the trace has none); parallel,
                                   pipelined, ideal: compile_ms (measured under the trace's compile_jobs) */
    SIM_CM_PAPER                /* every model compile_ms; "parallel" in a scenario name means ideal */
};
/* What a configuration that fails (compile error, out of resources, launch error, wrong result) costs. */
enum sim_failed_cost {
    SIM_FAILED_TRITON = 0,      /* drawn like any other (the tuner cannot know it fails) and charged what Triton
                                   pays: its compile time plus its failed launch's wall_ms (0 without a run);
                                   never selected */
    SIM_FAILED_NONE             /* never drawn: N_CONFIG draws among the valid configurations (the paper's) */
};
/* How EXEC_TIME is drawn between --exec-ms LO and HI. */
enum sim_exec_dist {
    SIM_EXEC_UNIFORM = 0,       /* uniform over a grid: whole ms when LO and HI are whole, else 1001 points */
    SIM_EXEC_LOG                /* log-uniform over a geometric grid of 100 points per decade */
};
/* How a configuration's benchmarking overhead (wall_ms − Σ timed executions) is charged. */
enum sim_overhead {
    SIM_OVERHEAD_PAPER = 0,     /* the whole overhead recorded at the full repetition time, whatever j is */
    SIM_OVERHEAD_PER_EXEC       /* fixed part + per-execution part (flush, launch gap) × executions run */
};
/* A statistic of a configuration's executions: the estimator ranks configurations by it over the executions a
 * run took (x1..xj); the truth scores the winner by it over all its timed executions. */
enum sim_estimator {
    SIM_ESTIMATOR_MEAN = 0,     /* the paper's */
    SIM_ESTIMATOR_MEDIAN,
    SIM_ESTIMATOR_MIN
};

/* One scenario: a way of tuning replayed on the same draws as the others. */
struct sim_scenario {
    char name[SIM_NAME_LEN];    /* as written to points.tsv, e.g. "parallel", "pipelined+early-stop" */
    enum sim_compile compile;
    int compile_factor;         /* workers for parallel / pipelined; ignored for sequential */
    enum sim_overhead overhead;
    int early_stop;             /* 1: EARLY_STOP_NUM / EARLY_STOP_THRESHOLD rule on */
    int paper_compile;          /* 1: compile charged as --compile-model paper charges it (the contended compile_ms
                                 * at every level, no warm-up) whatever the settings' compile_model, so that one
                                 * replay serves both models on the same draws (the report's costs.tsv); 0: the
                                 * settings' model */
    int weighted;               /* 1: its speedup is input i's against another reference, x input_weight[i] of the
                                 * settings (the report's two kernel families against the better one's optimal);
                                 * 0: against the input's own optimal */
};

struct sim_settings {
    int samples;                      /* S hyperparameter samples (500) */
    int runs;                         /* R runs per sample and input (30) */
    int n_config_lo, n_config_hi;     /* N_CONFIG ~ U{lo..hi}, capped at an input's configurations (1:80) */
    double exec_ms_lo, exec_ms_hi;    /* EXEC_TIME range, ms (10:100), drawn by exec_dist over a grid */
    enum sim_exec_dist exec_dist;     /* (uniform: whole ms, U{10..100}) */
    int es_num_lo, es_num_hi;         /* EARLY_STOP_NUM ~ U{lo..hi} (2:100) */
    double es_thr_lo, es_thr_hi;      /* EARLY_STOP_THRESHOLD ~ U[lo, hi) (1.0:1.1); lo == hi fixes it */
    enum sim_estimator estimator;     /* ranks configurations (mean) */
    enum sim_estimator truth;         /* scores the winner and the optimum; the same as estimator unless set
                                         apart (mean) */
    enum sim_failed_cost failed_cost; /* (triton) */
    enum sim_compile_model compile_model; /* (measured) */
    int one_input;                    /* all-inputs mode: 1 = each sample replays one input drawn uniformly
                                         among those with a valid configuration (the paper's Figures 4-5), 0 =
                                         every input (0) */
    int input;                        /* index into the data's inputs, or -1: every input (mean over inputs and
                                         runs) (-1) */
    const double *input_weight;       /* NULL, or per input of the data (every input mode): the factor of a
                                         weighted scenario's speedup; NaN leaves the input out of the replay, for
                                         every scenario (NULL) */
    uint64_t seed;                    /* (1) */
    int threads;                      /* worker threads (replay and table building); 0 = online cores. Never
                                         changes the output. (0) */
    int n_scenarios;                  /* (3: baseline, parallel ×16, early-stop) */
    struct sim_scenario scenarios[SIM_MAX_SCENARIOS];
};

/* Fill `s` with the defaults (values in parentheses above). */
void sim_settings_default(struct sim_settings *s);
/* Set every choice the paper made (docs/simulation.md, "Deviations from the paper"): failed configurations not
 * drawn, compile model paper, one input per sample, N_CONFIG 1:80, EXEC_TIME U{10..100} ms, mean estimator and
 * truth (and the scenarios' parallel as ideal); samples, runs, seed, threads, overheads and early stopping are left
 * as they are. */
void sim_settings_paper(struct sim_settings *s);
/* Check ranges and scenarios; on error the message names the setting (as its command-line option). */
int sim_settings_check(const struct sim_settings *s);

/* The EXEC_TIME grid of the settings: its number of points, and point k (0 <= k < n), ms. Uniform between whole
 * LO and HI: LO, LO+1, ..., HI; uniform otherwise: 1001 evenly spaced points (one when LO == HI); log: 1 +
 * round(100 log10(HI/LO)) points LO·(HI/LO)^(k/(n−1)). A sample draws k uniformly. */
int sim_exec_grid_n(const struct sim_settings *s);
double sim_exec_grid_ms(const struct sim_settings *s, int k);

/* Parse a scenario name: "baseline", or modifiers joined by '+': "sequential", "parallel", "pipelined",
 * "ideal", "early-stop", "per-exec", "paper-overhead" (e.g. "pipelined+early-stop"). Aspects a name does not set
 * come from the defaults given (the command's --compile, --compile-factor and --overhead). Under compile model
 * paper, pass def_compile through sim_compile_for_model and call sim_scenarios_for_model afterwards. */
int sim_scenario_parse(const char *name, enum sim_compile def_compile, int def_factor,
                       enum sim_overhead def_overhead, struct sim_scenario *out);
/* Under compile model paper, "parallel" is the paper's ideal model: SIM_COMPILE_IDEAL for SIM_COMPILE_PARALLEL. */
enum sim_compile sim_compile_for_model(enum sim_compile_model m, enum sim_compile c);
/* Apply sim_compile_for_model to every scenario of s (after they are parsed and s->compile_model is set). */
void sim_scenarios_for_model(struct sim_settings *s);
/* Names: "sequential" / "parallel" / "pipelined" / "ideal", "paper" / "per-exec", "mean" / "median" / "min",
 * "triton" / "none", "measured" / "paper", "uniform" / "log". */
const char *sim_compile_name(enum sim_compile c);
const char *sim_compile_model_name(enum sim_compile_model m);
const char *sim_failed_cost_name(enum sim_failed_cost f);
const char *sim_exec_dist_name(enum sim_exec_dist e);
/* The same names as tables indexed by the enums, for the commands' option declarations (TC_ARG_NAME). */
extern const char *const sim_compile_names[4];
extern const char *const sim_compile_model_names[2];
extern const char *const sim_failed_cost_names[2];
extern const char *const sim_exec_dist_names[2];
/* The (input, configuration) pairs of trace t whose compile charges a replay imputes (`info`, `simulate`,
 * `policies`): *no_isolated of the *pairs lack an isolated (1-worker) compile time (sequential charges their
 * compile_ms), *failed_no_compile of the *failed_pairs (no valid run) lack any compile time (charged the input's
 * median valid one). A failing pair is one of the current runs' without a valid run. */
struct trace;
void sim_trace_imputed(const struct trace *t, long *pairs, long *no_isolated, long *failed_pairs,
                       long *failed_no_compile);
/* The notes on fp, once each, as `tunecost CMD: note: ...`: the isolated times missing (when measured: compile
 * model measured, whose sequential model charges isolated times and parallel models interpolate from them), the
 * failing pairs' compile times missing (when triton) and the compile-worker warm-up missing (no_warmup: the trace
 * records none, and measured would charge it). */
void sim_note_imputed(FILE *fp, const char *cmd, long no_isolated, long failed_no_compile, int measured,
                      int triton, int compile_jobs, int no_warmup);
/* --truth: like sim_estimator_parse, but names the option --truth. */
int sim_truth_parse(const char *s, enum sim_estimator *out);
const char *sim_overhead_name(enum sim_overhead o);
const char *sim_estimator_name(enum sim_estimator e);
int sim_compile_parse(const char *s, enum sim_compile *out);
int sim_overhead_parse(const char *s, enum sim_overhead *out);
int sim_estimator_parse(const char *s, enum sim_estimator *out);

/* ---- the data a replay needs ------------------------------------------------------------------------- */

struct sim_data; /* opaque */

/* Build from a loaded trace: the inputs listed (indices into the trace), or all of them when inputs == NULL.
 * Per input, a configuration is valid when its (last) run is trace_run_valid; the others are kept as failed
 * (drawn under --failed-cost triton). The tables are built for the ranges of `s` (the EXEC_TIME grid,
 * es_num_hi, estimator); sim_run accepts settings within them. The trace may be closed afterwards: the data keep
 * no pointer into it. Fails on an input without any valid configuration only when that input was asked for
 * explicitly (inputs != NULL); with inputs == NULL such inputs are kept and skipped by sim_run
 * (sim_data_n_valid() == 0). */
struct sim_data *sim_data_from_trace(const struct trace *t, const int *inputs, int n_inputs,
                                     const struct sim_settings *s);

/* Build in memory (tests, benchmarks): new, then inputs, then their configurations, valid and failed, in the
 * order a draw sees them (a trace's configuration order). */
struct sim_data *sim_data_new(const struct sim_settings *s);
/* Returns the new input's index, or -1. `name` is what points.tsv shows, e.g. "4096x256x4096". */
int sim_data_add_input(struct sim_data *d, const char *name, double flops);
/* One valid configuration's run for input `input`. Nothing is kept of the arrays after the call. */
struct sim_config_run {
    int config;                 /* the trace's configuration index (for reports) */
    double compile_ms;          /* as the trace measured it (under its compile_jobs workers) */
    double compile_isolated_ms; /* measured alone (1 worker); NaN: not measured (compile_ms is charged) */
    double wall_ms;             /* host wall time of the benchmarking; overhead = wall_ms − Σ timed */
    const uint64_t *timed_ns;   /* the timed executions, in launch order */
    int n_timed;                /* > 0 */
    double untimed_ms;          /* Σ of the estimate and warm-up executions (part of the overhead) */
    int n_untimed;              /* their count; used to split the overhead per execution */
};
int sim_data_add_config(struct sim_data *d, int input, const struct sim_config_run *run);
/* One failed configuration of input `input`: its compile times as above (NaN: not recorded; the median of the
 * input's valid ones is then charged) and fail_ms, what its failed launch cost (>= 0; 0 without a run). */
int sim_data_add_failed(struct sim_data *d, int input, int config, double compile_ms, double compile_isolated_ms,
                        double fail_ms);
void sim_data_free(struct sim_data *d);

int sim_data_n_inputs(const struct sim_data *d);
const char *sim_data_input_name(const struct sim_data *d, int input);
int sim_data_n_valid(const struct sim_data *d, int input);
int sim_data_n_failed(const struct sim_data *d, int input);
/* Over every input: configuration records without an isolated compile time (sequential charges their
 * compile_ms), and failed configurations without any compile time (charged the median of the valid ones). */
void sim_data_missing(const struct sim_data *d, long *n_no_isolated, long *n_failed_no_compile);
/* The compile workers' first-compile warm-up the trace recorded, as a phrase ("compile-worker warm-up (...)")
 * into buf: what compile model m charges of it (once per worker used under measured, when the trace recorded any;
 * nothing under paper: every worker starts warm). Returns 1 when it is charged (the outputs' "# charged:" line),
 * 0 when not ("# not charged:"). */
int sim_data_warmup_note(const struct sim_data *d, enum sim_compile_model m, char *buf, size_t len);
/* In-memory data (tests): the trace's compile workers (the level of compile_ms; 0: unknown, the contended time
 * charged at every level) and the mean of the n_warmup first-compile warm-ups it recorded (n_warmup 0: none).
 * sim_data_from_trace sets both from the trace. */
void sim_data_set_compile_env(struct sim_data *d, int compile_jobs, double warmup_mean_ms, int n_warmup);
/* The best valid configuration's true time under truth statistic `truth` (of all its timed executions), ms;
 * NaN if none valid. */
double sim_data_optimal_ms(const struct sim_data *d, int input, enum sim_estimator truth);
/* The exact expected speedup vs optimal (under `truth`) of random search drawing n_config configurations without
 * replacement from input's pool (its valid ones, and its failed ones under SIM_FAILED_TRITON), when every estimate
 * is its configuration's true time (no measurement noise: EXEC_TIME beyond every sum, or constant executions):
 * Σ over valid ranks r of speedup_r · C(pool − r, N − 1) / C(pool, N), N = min(n_config, pool). The Monte Carlo
 * replay's mean converges to it (tests/test-sim.c); NaN when memory is short. */
double sim_random_search_expected(const struct sim_data *d, int input, int n_config, enum sim_failed_cost f,
                                  enum sim_estimator truth);
double sim_data_flops(const struct sim_data *d, int input);
/* Bytes the data holds (tables included). */
size_t sim_data_bytes(const struct sim_data *d);

/* ---- running ----------------------------------------------------------------------------------------- */

/* One (sample, scenario): the sample's draws and the mean and 95% confidence interval (t distribution) over its
 * `results` = runs × inputs tuning runs. With several inputs the standard error is stratified by input (the
 * inputs are fixed; only the spread within an input is noise): mean ± t(0.975, K(R−1)) · sqrt(Σ_i s_i²/R) / K.
 * CI bounds are NaN when runs < 2. */
struct sim_point {
    int sample;
    int scenario;                       /* index into settings.scenarios */
    int n_config;                       /* drawn N_CONFIG (before capping at an input's configurations) */
    double exec_ms;                     /* drawn EXEC_TIME */
    int input;                          /* the input drawn for this sample (one_input), else -1 */
    int es_num;                         /* drawn EARLY_STOP_NUM (drawn for every sample; used by early-stop) */
    double es_thr;                      /* drawn EARLY_STOP_THRESHOLD */
    long results;
    double time_s, time_s_lo, time_s_hi;       /* tuning time */
    double tflops, tflops_lo, tflops_hi;       /* true performance of the tuned configuration */
    double speedup, speedup_lo, speedup_hi;    /* optimal true time ÷ tuned true time, ≤ 1 (0 for a run that
                                                  drew only failed configurations: nothing tuned) */
    long n_short;                       /* configuration benchmarks whose executions never exceeded EXEC_TIME */
    double stopped;                     /* mean early-stopped configurations per run */
    double explored;                    /* mean configurations explored per run: min(N_CONFIG, configurations
                                           drawn from: valid ones, or all under failed-cost triton) */
    double failed;                      /* mean failed configurations drawn per run */
};

struct sim_result {
    int n_points;                       /* samples × n_scenarios, sample-major */
    struct sim_point *points;           /* points[sample * n_scenarios + scenario] */
    int n_inputs_used;                  /* inputs with ≥ 1 valid configuration that were replayed */
    double elapsed_s;                   /* wall time of sim_run */
};

/* The worker threads a `threads` setting means: itself, or the online cores when 0 (at least 1). */
int sim_threads(int threads);

/* Called from the calling thread about every 0.2 s with samples done so far (never after sim_run returns). */
typedef void (*sim_progress_fn)(int done, int total, void *arg);

/* Replay. Output is a function of (data, settings except threads) only. */
struct sim_result *sim_run(const struct sim_data *d, const struct sim_settings *s, sim_progress_fn progress,
                           void *arg);
void sim_result_free(struct sim_result *r);

/* Sample `sample`'s random stream, as sim_run uses it: seeds r from (s->seed, sample) and draws N_CONFIG,
 * EXEC_TIME (its grid index, sim_exec_grid_ms), EARLY_STOP_NUM and EARLY_STOP_THRESHOLD, in this order (then,
 * in sim_run, the input of a one_input sample). sim_run's runs then draw their configurations from r: per input
 * (in order; only s->input when >= 0), a permutation of the input's configurations drawn from (the valid ones,
 * or all of them under failed-cost triton, in the trace's order) starts as the identity, and each run takes
 * n = min(N_CONFIG, v) of them by a partial Fisher-Yates shuffle of it: position q (0 .. n-1) swaps with
 * q + gsl_rng_uniform_int(r, v - q). With runs = 1 that is exactly the random policy's draw (policy_random.c)
 * over the same configurations, which tests/test-policy.c uses to show that the policy engine reproduces
 * simulate's numbers. */
void sim_sample_start(gsl_rng *r, const struct sim_settings *s, int sample, int *n_config, double *exec_ms,
                      int *es_num, double *es_thr);

/* ---- outputs (formats in docs/simulation.md) -------------------------------------------------------- */

/* The settings as '#' comment lines (no thread count: it never changes the output). `source` names the data
 * (the trace path) or NULL. */
void sim_write_settings(FILE *fp, const struct sim_data *d, const struct sim_settings *s, const char *source);
/* points.tsv: settings comments, one header line, one row per point. Returns -1 on a write error. */
int sim_write_points(FILE *fp, const struct sim_data *d, const struct sim_settings *s,
                     const struct sim_result *r, const char *source);
/* The points of scenario sc (of n_sc) of r: every one, in sample order, or with frontier only those on its
 * Pareto frontier over (time_s, speedup with by_speedup, else tflops), sorted by time ascending, performance
 * descending, then sample. With written, time and performance are compared as a points file shows them (%.9g), so
 * that the frontier is the one `tunecost frontier` finds in that file. *out: a malloc'd array of pointers into r
 * (the caller frees it). Returns how many, or -1 out of memory. The one frontier of simulate's frontier.tsv, the
 * report's sim/ files and Table 6. */
int sim_scenario_frontier(const struct sim_result *r, int n_sc, int sc, int frontier, int by_speedup, int written,
                          const struct sim_point ***out);
/* One scenario's rows of points.tsv (index sc of s->scenarios), in the same columns (sim_columns.h) and formats,
 * after the header and without the settings comments: sim_scenario_frontier's points. Returns -1 on a write error
 * or out of memory. */
int sim_write_scenario_points(FILE *fp, const struct sim_data *d, const struct sim_settings *s,
                              const struct sim_result *r, int sc, int frontier, int by_speedup);
/* DIR/points.tsv and DIR/frontier.tsv (creating DIR), each complete or absent. */
int sim_write_outputs(const char *dir, const struct sim_data *d, const struct sim_settings *s,
                      const struct sim_result *r, const char *source);

#endif
