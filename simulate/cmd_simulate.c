/* cmd_simulate.c — `tunecost simulate`: replay a trace over random tuning budgets (sim.h), write points.tsv and
 * frontier.tsv, and print a one-screen summary. Usage and examples: usage() below; formats: docs/simulation.md. */
#include "frontier.h"
#include "sim.h"
#include "sim_budget.h"
#include "tc_atomic.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tc_outdir.h"
#include "tc_opt.h"
#include "tc_paths.h"
#include "tc_time.h"
#include "trace.h"
#include "tunecost.h"

#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the command line ------------------------------------------------------------------------------------ */

struct simulate_opts {
    struct sim_settings s;
    const char *out_dir, *input, *scenarios;
    int all_inputs, compile_factor, force, quiet, paper;
    enum sim_compile compile;
    enum sim_overhead overhead;
    /* the settings --paper sets: given explicitly, or left at their "not given" marks (-1, NaN) until
     * simulate_resolve puts the default or the paper's choice there */
    int n_config_lo, n_config_hi;
    double exec_lo_ms, exec_hi_ms;
    int exec_dist, estimator, truth, failed_cost, compile_model, inputs;
    const char *budget, *target;           /* --budget S[,S...], --target F[,F...] */
    double budgets[SIM_BUDGET_MAX], targets[SIM_BUDGET_MAX];
    int n_budgets, n_targets;
};

static int parse_compile(const char *arg, void *field)
{
    return sim_compile_parse(arg, field);
}

static int parse_overhead(const char *arg, void *field)
{
    return sim_overhead_parse(arg, field);
}

static int parse_estimator(const char *arg, void *field)
{
    enum sim_estimator e;
    if (sim_estimator_parse(arg, &e) != 0)
        return -1;
    *(int *)field = (int)e;
    return 0;
}

static int parse_truth(const char *arg, void *field)
{
    enum sim_estimator e;
    if (sim_truth_parse(arg, &e) != 0)
        return -1;
    *(int *)field = (int)e;
    return 0;
}

static const char *const inputs_names[] = {"all", "one"};               /* sim_settings.one_input */

#define SO(f) offsetof(struct simulate_opts, f)
static const struct tc_optdecl simulate_opts[] = {
    TC_OPT_OUTPUT(struct simulate_opts, out_dir, "DIR", "write DIR/points.tsv and DIR/frontier.tsv",
                  "only the summary"),
    TC_OPT_INPUT(struct simulate_opts, input, "MxNxK[,...]",
                 "replay one input (the paper's Figure 3, Table 6), or the mean over the inputs listed"),
    {.name = "all-inputs", .arg = TC_ARG_FLAG, .field = SO(all_inputs),
     .help = "replay every input, mean over inputs and runs (Figures 4-5)", .def_doc = "default"},
    TC_OPT_SAMPLES(struct simulate_opts, s.samples, "500", "hyperparameter samples"),
    TC_OPT_RUNS(struct simulate_opts, s.runs, "30", "tuning runs per sample and input"),
    {.name = "inputs", .arg = TC_ARG_NAME, .field = SO(inputs), .names = inputs_names, .n_names = 2,
     .metavar = "all|one", .def_doc = "all",
     .help = "with every input: replay them all in each sample, or one drawn per sample (the paper's Figures 4-5)"},
    {.name = "n-config", .arg = TC_ARG_INT_RANGE, .field = SO(n_config_lo), .field2 = SO(n_config_hi),
     .min = 1, .max = 1000000, .metavar = "A:B", .def_doc = "1:80",
     .help = "N_CONFIG range, or one value (capped at the configurations an input draws from)"},
    {.name = "exec-ms", .arg = TC_ARG_DOUBLE_RANGE, .field = SO(exec_lo_ms), .field2 = SO(exec_hi_ms),
     .min = 0.001, .max = 100000, .metavar = "A:B", .def_doc = "10:100",
     .help = "EXEC_TIME range in ms, or one value (e.g. 0.05:100)"},
    {.name = "exec-dist", .arg = TC_ARG_NAME, .field = SO(exec_dist), .names = sim_exec_dist_names, .n_names = 2,
     .metavar = "D", .def_doc = "uniform",
     .help = "how EXEC_TIME is drawn: uniform (whole ms between whole bounds, else 1001 points) or log "
             "(log-uniform, 100 points per decade)"},
    {.name = "early-stop-num", .arg = TC_ARG_INT_RANGE, .field = SO(s.es_num_lo), .field2 = SO(s.es_num_hi),
     .min = 1, .max = 100000, .metavar = "A:B", .def = "2:100", .help = "EARLY_STOP_NUM range"},
    {.name = "early-stop-threshold", .arg = TC_ARG_DOUBLE_RANGE, .field = SO(s.es_thr_lo), .field2 = SO(s.es_thr_hi),
     .min = 1e-6, .max = 1000, .metavar = "A:B", .def = "1.0:1.1",
     .help = "EARLY_STOP_THRESHOLD range (uniform real)"},
    {.name = "scenarios", .arg = TC_ARG_STRING, .field = SO(scenarios), .metavar = "LIST",
     .def = "baseline,parallel,early-stop",
     .help = "comma-separated scenarios; a scenario is 'baseline' or parts joined by '+': sequential, parallel, "
             "pipelined, ideal, early-stop, per-exec, paper-overhead (e.g. pipelined+early-stop)",
     .words = "baseline sequential parallel pipelined ideal early-stop per-exec paper-overhead"},
    TC_OPT_COMPILE_FACTOR(struct simulate_opts, compile_factor, "16",
                          "compile workers of parallel, pipelined and ideal scenarios"),
    {.name = "compile", .arg = TC_ARG_CALL, .field = SO(compile), .call = parse_compile, .metavar = "MODEL",
     .def = "sequential", .words = "sequential parallel pipelined ideal",
     .help = "compile model of scenarios that name none: sequential, parallel (F workers compile all, "
             "list-scheduled, then the GPU benchmarks), pipelined (F workers compile while the GPU benchmarks) or "
             "ideal (the paper's N/ceil(N/F) speed-up: an optimistic bound)"},
    {.name = "compile-model", .arg = TC_ARG_NAME, .field = SO(compile_model), .names = sim_compile_model_names,
     .n_names = 2, .metavar = "M", .def_doc = "measured",
     .help = "measured: sequential charges isolated (1-worker) compile times, the parallel models each compile "
             "at the min(F, N) compiles running together (log2-interpolated between the isolated and the trace's "
             "contended times), every model one compile-worker warm-up per run; paper: compile_ms everywhere, no "
             "warm-up, and 'parallel' means ideal, the paper's optimistic bound"},
    {.name = "failed-cost", .arg = TC_ARG_NAME, .field = SO(failed_cost), .names = sim_failed_cost_names, .n_names = 2,
     .metavar = "C", .def_doc = "triton",
     .help = "triton: failed configurations are drawn and cost their compile plus the failed launch (no compile "
             "time recorded: the input's median); none: only valid ones are drawn (the paper)"},
    {.name = "overhead", .arg = TC_ARG_CALL, .field = SO(overhead), .call = parse_overhead, .metavar = "MODEL",
     .def = "paper", .words = "paper per-exec",
     .help = "overhead of scenarios that name none: paper (whole recorded overhead per configuration) or "
             "per-exec (per-execution part only for the executions run)"},
    {.name = "estimator", .arg = TC_ARG_CALL, .field = SO(estimator), .call = parse_estimator, .metavar = "E",
     .def_doc = "mean", .words = "mean median min",
     .help = "how a run ranks configurations: mean, median or min of x1..xj; the winner is scored by the same "
             "statistic of all its executions"},
    {.name = "truth", .arg = TC_ARG_CALL, .field = SO(truth), .call = parse_truth, .metavar = "T",
     .def_doc = "the estimator's", .words = "mean median min",
     .help = "score the winner by another statistic of all its executions: mean, median or min"},
    {.name = "paper", .arg = TC_ARG_FLAG, .field = SO(paper),
     .help = "the paper's choices: --failed-cost none --compile-model paper --inputs one --n-config 1:80 "
             "--exec-ms 10:100 --exec-dist uniform --estimator mean; options given explicitly still apply"},
    {.name = "budget", .arg = TC_ARG_STRING, .field = SO(budget), .metavar = "S[,S...]", .def_doc = "none",
     .help = "per budget (seconds) and scenario, the best fraction of optimum within it: chosen on the runs, "
             "reported on fresh runs with its 95% CI (printed; DIR/budget.tsv with -o)"},
    {.name = "target", .arg = TC_ARG_STRING, .field = SO(target), .metavar = "F[,F...]", .def_doc = "none",
     .help = "per fraction of optimum and scenario, the budget it needs, reported where the fresh runs' mean "
             "reaches it (with --budget's table and file)"},
    TC_OPT_SEED(struct simulate_opts, s.seed, "1", "random seed; same seed, same bytes for any --threads"),
    TC_OPT_THREADS(struct simulate_opts, s.threads, "0", "worker threads; 0 = all online cores"),
    TC_OPT_FORCE(struct simulate_opts, force),
    TC_OPT_QUIET(struct simulate_opts, quiet),
    TC_OPT_HELP,
    TC_OPT_END,
};
#undef SO

const struct tc_cmd simulate_cmd = {
    .name = "simulate",
    .summary = "replay a trace over random tuning budgets (points.tsv, frontier.tsv)",
    .synopsis = "[OPTIONS] [TRACE]",
    .description =
        "Replay a trace over random tuning budgets (the paper's section 5.3.2, made exact; docs/simulation.md).\n"
        "Each of S samples draws N_CONFIG, EXEC_TIME (and EARLY_STOP_NUM, EARLY_STOP_THRESHOLD); each of R runs\n"
        "tunes N_CONFIG distinct configurations drawn at random (failed ones too: the tuner cannot know) and\n"
        "keeps the lowest estimate. Every scenario replays the same draws. A point = one (sample, scenario):\n"
        "mean and 95% CI over its runs. --paper restores every choice of the paper (docs/simulation.md,\n"
        "\"Deviations from the paper\").\n",
    .operands = "TRACE\ttrace file (default: @TRACE:reference@)\n",
    .opts = simulate_opts,
    .exit_status = "0 ok; 1 a failure while working (memory, disk); 2 usage error or a bad trace (one line on "
                   "stderr).",
    .examples = "tunecost simulate --input 4096x256x4096 -o sim-4096x256   # Figure 3 / Table 6\n"
                "tunecost simulate --all-inputs -o sim-all                 # Figures 4 and 5\n"
                "tunecost simulate --scenarios baseline,parallel,pipelined,per-exec -o sim-models\n"
                "tunecost simulate --n-config 80 --exec-ms 100 -s 1 -r 1000 --input 4096x4096x4096\n"
                "tunecost simulate --paper -o sim-paper                    # the paper's model throughout\n"
                "tunecost simulate --exec-ms 0.05:100 --exec-dist log -o sim-short   # down to the noise floor\n"
                "tunecost frontier sim-all/points.tsv --by tflops          # recompute a frontier\n"
                "tunecost simulate --budget 1,10,60 --target 0.9,0.95 -o sim-budget   # what 10 s buys\n",
    .min_operands = 0,
    .max_operands = 1,
    .operand_name = "TRACE",
};

struct progress_state {
    int on;
    int printed;
};

static void progress_cb(int done, int total, void *arg)
{
    struct progress_state *ps = arg;
    if (!ps->on)
        return;
    fprintf(stderr, "\rsimulate: %d/%d samples", done, total);
    fflush(stderr);
    ps->printed = 1;
}

/* Split the --scenarios list into s->scenarios. */
static int parse_scenarios(const char *list, enum sim_compile comp, int factor, enum sim_overhead ovh,
                           struct sim_settings *s)
{
    char buf[1024], *save = NULL;
    int n = 0;
    if (strlen(list) >= sizeof buf)
        return tc_seterr("--scenarios: list too long (at most %zu characters)", sizeof buf - 1);
    if (list[0] == ',' || (list[0] != '\0' && list[strlen(list) - 1] == ',') || strstr(list, ",,") != NULL)
        return tc_seterr("--scenarios: empty element in '%s' (expected names separated by single commas)", list);
    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        if (n == SIM_MAX_SCENARIOS)
            return tc_seterr("--scenarios: at most %d scenarios, got more in '%s'", SIM_MAX_SCENARIOS, list);
        if (sim_scenario_parse(tok, comp, factor, ovh, &s->scenarios[n]) != 0)
            return -1;
        n++;
    }
    if (n == 0)
        return tc_seterr("--scenarios: expected a comma-separated list of scenarios, got '%s'", list);
    s->n_scenarios = n;
    return 0;
}

/* The summary's budgets: the best frontier performance reachable within each. */
static const double budgets_s[] = {1, 2, 5, 10, 20, 50, 100};
#define N_BUDGETS (sizeof budgets_s / sizeof budgets_s[0])

static int simulate_print_summary(const struct sim_data *d, const struct sim_settings *s, const struct sim_result *r,
                         int single)
{
    size_t n = (size_t)s->samples;
    double *t = malloc(n * sizeof *t), *p = malloc(n * sizeof *p);
    unsigned char *on = malloc(n);
    int rc = -1;
    if (t == NULL || p == NULL || on == NULL) {
        tc_seterr_env("simulate: out of memory");
        goto out;
    }
    if (single && isnan(sim_data_flops(d, 0)))
        single = 0; /* flops unknown (an imported trace): speedup relative to optimal instead of TFLOP/s */
    printf("\n%-26s %8s %9s %9s %9s %9s  best %s on the frontier within a budget of\n", "scenario", "frontier",
           "time_s", single ? "TFLOP/s" : "speedup", "short", "stopped", single ? "TFLOP/s" : "speedup");
    printf("%-26s %8s %9s %9s %9s %9s ", "", "points", "mean", "mean", "per run", "per run");
    for (size_t b = 0; b < N_BUDGETS; b++)
        printf(" %6gs", budgets_s[b]);
    printf("\n");
    for (int sc = 0; sc < s->n_scenarios; sc++) {
        double mt = 0, mp = 0, sh = 0, st = 0;
        size_t n_on = 0;
        for (size_t i = 0; i < n; i++) {
            const struct sim_point *pt = &r->points[i * (size_t)s->n_scenarios + (size_t)sc];
            t[i] = pt->time_s;
            p[i] = single ? pt->tflops : pt->speedup;
            mt += pt->time_s;
            mp += p[i];
            sh += (double)pt->n_short / (double)pt->results;
            st += pt->stopped;
        }
        if (frontier_mark(n, t, p, on) != 0)
            goto out;
        for (size_t i = 0; i < n; i++)
            n_on += on[i];
        printf("%-26s %8zu %9.3f %9.4g %9.3g %9.3g ", s->scenarios[sc].name, n_on, mt / (double)n,
               mp / (double)n, sh / (double)n, st / (double)n);
        for (size_t b = 0; b < N_BUDGETS; b++) {
            double best = NAN;
            for (size_t i = 0; i < n; i++)
                if (on[i] && t[i] <= budgets_s[b] && !(p[i] <= best))
                    best = p[i];
            if (isnan(best))
                printf(" %7s", "-");
            else
                printf(" %7.4g", best);
        }
        printf("\n");
    }
    (void)d;
    rc = 0;
out:
    free(t);
    free(p);
    free(on);
    return rc;
}

/* Marks the settings --paper sets as not given (before the options are read). */
static void simulate_unset(struct simulate_opts *o)
{
    o->n_config_lo = o->n_config_hi = -1;
    o->exec_lo_ms = o->exec_hi_ms = NAN;
    o->exec_dist = o->estimator = o->truth = o->failed_cost = o->compile_model = o->inputs = -1;
}

/* The settings: the defaults, or the paper's choices under --paper, with what was given explicitly on top; then
 * the scenarios, their compile model as --compile-model says. Checks what the options alone can tell. 0 or -1
 * (tc_errmsg). */
static int simulate_check(struct simulate_opts *o)
{
    struct sim_settings *s = &o->s;
    if (o->input != NULL && o->all_inputs)
        return tc_seterr("--input and --all-inputs exclude each other");
    if (o->paper)
        sim_settings_paper(s);
    if (o->n_config_lo >= 0)
        s->n_config_lo = o->n_config_lo, s->n_config_hi = o->n_config_hi;
    if (!isnan(o->exec_lo_ms))
        s->exec_ms_lo = o->exec_lo_ms, s->exec_ms_hi = o->exec_hi_ms;
    if (o->exec_dist >= 0)
        s->exec_dist = (enum sim_exec_dist)o->exec_dist;
    if (o->estimator >= 0)
        s->estimator = (enum sim_estimator)o->estimator;
    s->truth = o->truth >= 0 ? (enum sim_estimator)o->truth : s->estimator; /* one statistic, unless split */
    if (o->failed_cost >= 0)
        s->failed_cost = (enum sim_failed_cost)o->failed_cost;
    if (o->compile_model >= 0)
        s->compile_model = (enum sim_compile_model)o->compile_model;
    if (o->inputs >= 0)
        s->one_input = o->inputs;
    if (parse_scenarios(o->scenarios, o->compile, o->compile_factor, o->overhead, s) != 0)
        return -1;
    if ((o->budget != NULL && sim_budget_parse_list("--budget", o->budget, 0, o->budgets, &o->n_budgets) != 0) ||
        (o->target != NULL && sim_budget_parse_list("--target", o->target, 1, o->targets, &o->n_targets) != 0))
        return -1;
    sim_scenarios_for_model(s);
    return sim_settings_check(s);
}

/* The notes on stderr about compile times the trace lacks (once each). */
static void note_missing(const struct sim_data *d, const struct sim_settings *s, int compile_jobs)
{
    long no_iso, failed_no_compile;
    char warm[200];
    sim_data_missing(d, &no_iso, &failed_no_compile);
    sim_note_imputed(stderr, "simulate", no_iso, failed_no_compile, s->compile_model == SIM_CM_MEASURED,
                     s->failed_cost == SIM_FAILED_TRITON, compile_jobs,
                     !sim_data_warmup_note(d, SIM_CM_MEASURED, warm, sizeof warm));
}

/* The indices of the inputs named by --input (a comma-separated list of shapes); 0, or -1 with tc_errmsg(). */
static int resolve_inputs(const struct trace *t, const char *path, const char *input_arg, int *idx, int max_idx,
                          int *n_idx)
{
    int nd = trace_n_dims(t), n = 0;
    char list[4096], *save = NULL;
    int64_t dims[8];

    if (nd < 1 || nd > 8)
        return tc_seterr("%s: the trace has no usable input dimensions", path);
    if (strlen(input_arg) >= sizeof list)
        return tc_seterr("--input: list too long (at most %zu characters)", sizeof list - 1);
    snprintf(list, sizeof list, "%s", input_arg);
    for (char *tok = strtok_r(list, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        char buf[64];
        int k;
        if (n == max_idx)
            return tc_seterr("--input: at most %d inputs (use --all-inputs)", max_idx);
        if (tc_parse_shape("--input", tok, nd, INT64_MAX / 2, dims) != 0)
            return -1;
        idx[n] = trace_find_input(t, dims);
        if (idx[n] < 0)
            return tc_seterr("--input %s: not among the %d inputs of %s (e.g. %s; `tunecost info %s` lists them)", tok,
                             trace_n_inputs(t), path,
                             trace_n_inputs(t) > 0 ? tc_format_shape(trace_dims(t, 0), nd, buf, sizeof buf) : "none",
                             path);
        for (k = 0; k < n && idx[k] != idx[n]; k++)
            ;
        if (k < n)
            return tc_seterr("--input: %s is listed twice", tok);
        n++;
    }
    if (n == 0)
        return tc_seterr("--input: expected MxNxK or a comma-separated list, got '%s'", input_arg);
    *n_idx = n;
    return 0;
}

/* The replay's tables from the trace at path (closed before returning: the data keep no pointer into it).
 * NULL with tc_errmsg() on failure. */
static struct sim_data *simulate_load(struct simulate_opts *o, const char *path, struct progress_state *ps,
                                      double *t_load, double *t_build, int *compile_jobs,
                                      double *rec_rep_ms)
{
    double t0 = tc_now_s();
    struct trace *t;
    struct sim_data *d = NULL;
    int idx[256], n_idx = 0;

    if (ps->on)
        fprintf(stderr, "simulate: reading %s ...", path);
    t = trace_open(path);
    if (ps->on)
        fprintf(stderr, "\r%*s\r", (int)strlen(path) + 24, "");
    if (t == NULL)
        return NULL;
    *t_load = tc_now_s() - t0;
    *compile_jobs = trace_get_meta(t)->compile_jobs;
    *rec_rep_ms = trace_get_meta(t)->rep_ms;
    if (o->input != NULL && resolve_inputs(t, path, o->input, idx, (int)(sizeof idx / sizeof idx[0]), &n_idx) != 0)
        goto out;
    if (ps->on)
        fprintf(stderr, "simulate: building tables ...");
    d = sim_data_from_trace(t, o->input != NULL ? idx : NULL, n_idx, &o->s);
    o->s.input = n_idx == 1 ? 0 : -1;
    if (ps->on)
        fprintf(stderr, "\r%40s\r", "");
    *t_build = tc_now_s() - t0 - *t_load;
out:
    trace_close(t);
    return d;
}

/* -1 with tc_errmsg() when no input has a valid run; a note on stderr when some have none. */
static int simulate_check_inputs(const struct sim_data *d, const char *path)
{
    int n_empty = 0;
    for (int i = 0; i < sim_data_n_inputs(d); i++)
        n_empty += sim_data_n_valid(d, i) == 0;
    if (n_empty == sim_data_n_inputs(d))
        return tc_seterr("%s: no input has a valid run (status 0 with timed executions); nothing to replay", path);
    if (n_empty > 0)
        fprintf(stderr, "tunecost simulate: note: %d of %d inputs have no valid run and are left out\n", n_empty,
                sim_data_n_inputs(d));
    return 0;
}

/* Opens the output directory before any work: an existing DIR may hold only what an earlier simulate wrote
 * there (-f or not), and the new one is swapped into place whole at the end (absent or complete, even
 * under SIGKILL). */
static int simulate_output_begin(const char *out_dir, int force, const char *path, struct tc_outdir *od)
{
    static const char *const sim_outputs[] = {"points.tsv", "frontier.tsv", "budget.tsv"}; /* all an earlier -o DIR
                                                                                            may hold */
    (void)force; /* -f never lets a directory holding other files be replaced (tc_outdir_replaceable) */
    const char *inputs[1] = {path};
    if (out_dir == NULL)
        return 0;
    if (tc_output_check("-o", out_dir, 1, inputs, 1) != 0 ||
        tc_outdir_replaceable(out_dir, "simulate (points.tsv, frontier.tsv, budget.tsv)", NULL, sim_outputs, 3) != 0 ||
        tc_outdir_begin(od, out_dir) != 0)
        return -1;
    return 0;
}

/* --budget / --target: the tables on stdout and, with -o, DIR/budget.tsv (in the directory not yet swapped in). */
static int simulate_budgets(const struct simulate_opts *o, const struct sim_data *d, const struct sim_result *res,
                            const char *tmp_dir)
{
    struct sim_budget_row *rows = NULL;
    int n = 0, rc = -1;
    char path[4096];
    FILE *fp = NULL;
    if (o->n_budgets + o->n_targets == 0)
        return 0;
    if (sim_budget_eval(d, &o->s, res, o->budgets, o->n_budgets, o->targets, o->n_targets, &rows, &n) != 0)
        return -1;
    sim_budget_print(stdout, &o->s, rows, n);
    if (tmp_dir != NULL) {
        if (snprintf(path, sizeof path, "%s/budget.tsv", tmp_dir) >= (int)sizeof path) {
            tc_seterr("-o %s: path too long", o->out_dir);
            goto out;
        }
        if ((fp = fopen(path, "w")) == NULL) {
            tc_seterr_env("%s: cannot write", path);
            goto out;
        }
        if (sim_budget_write_tsv(fp, &o->s, rows, n) != 0)
            goto out;
    }
    rc = 0;
out:
    if (fp != NULL && fclose(fp) != 0 && rc == 0)
        rc = tc_seterr_env("%s: write failed", path);
    free(rows);
    return rc;
}

int cmd_simulate(int argc, char **argv)
{
    struct simulate_opts o = {0};
    const char *path;
    int first, rc;
    struct tc_outdir od;
    struct sim_data *d = NULL;
    struct sim_result *res = NULL;
    struct progress_state ps = {0, 0};
    double t_load = 0, t_build = 0;
    int compile_jobs = 0;
    double rec_rep_ms = NAN;

    memset(&od, 0, sizeof od);
    sim_settings_default(&o.s);
    simulate_unset(&o);
    if ((rc = tc_cli_parse(&simulate_cmd, argc, argv, &o, &first)) != TC_CLI_RUN)
        return rc;
    if (simulate_check(&o) != 0)
        return tc_cli_usage_error("simulate", "%s", tc_errmsg());
    path = first < argc ? argv[first] : tc_paths_default_trace();
    if (simulate_output_begin(o.out_dir, o.force, path, &od) != 0) {
        fprintf(stderr, "tunecost simulate: %s\n", tc_errmsg());
        return 2;
    }
    rc = 2;
    ps.on = !o.quiet && isatty(STDERR_FILENO);
    if ((d = simulate_load(&o, path, &ps, &t_load, &t_build, &compile_jobs, &rec_rep_ms)) == NULL ||
        simulate_check_inputs(d, path) != 0) {
        fprintf(stderr, "tunecost simulate: %s\n", tc_errmsg());
        if (first >= argc && access(path, F_OK) != 0)
            fprintf(stderr, "tunecost simulate: the default trace is missing; give a TRACE (a file written by "
                            "`tunecost collect`)\n");
        rc = tc_err_exit_code(); /* 2: the trace or --input is at fault; 1: memory */
        goto out;
    }
    rc = 1;
    note_missing(d, &o.s, compile_jobs);
    if (isfinite(rec_rep_ms) && rec_rep_ms > 0 && o.s.exec_ms_hi > rec_rep_ms)
        fprintf(stderr, "tunecost simulate: note: EXEC_TIME up to %g ms is beyond the %g ms of timed executions the "
                        "trace recorded per configuration; a configuration whose recorded executions sum to no more "
                        "than EXEC_TIME is replayed with all of them (points.tsv counts it as short)\n",
                o.s.exec_ms_hi, rec_rep_ms);
    /* Status on stderr (settings, timings, what was written); the summary table on stdout; data in files. */
    if (!o.quiet) {
        fprintf(stderr, "tunecost simulate: %s\n", path);
        sim_write_settings(stderr, d, &o.s, NULL);
        fprintf(stderr, "# threads: %d\n", sim_threads(o.s.threads));
    }
    res = sim_run(d, &o.s, progress_cb, &ps);
    if (ps.printed)
        fprintf(stderr, "\r%40s\r", "");
    if (res == NULL) {
        fprintf(stderr, "tunecost simulate: %s\n", tc_errmsg());
        goto out;
    }
    if (!o.quiet)
        fprintf(stderr, "%d points (%d samples x %d scenarios), %ld tuning runs each, replayed in %.3f s; trace read "
                        "in %.3f s, tables built in %.3f s (%.1f MiB)\n",
                res->n_points, o.s.samples, o.s.n_scenarios, res->points[0].results, res->elapsed_s, t_load, t_build,
                (double)sim_data_bytes(d) / 1048576.0);
    if (simulate_print_summary(d, &o.s, res, o.s.input >= 0) != 0 ||
        (o.out_dir != NULL && sim_write_outputs(od.tmp, d, &o.s, res, path) != 0) ||
        simulate_budgets(&o, d, res, o.out_dir != NULL ? od.tmp : NULL) != 0 ||
        (o.out_dir != NULL && tc_outdir_commit(&od) != 0)) {
        fprintf(stderr, "tunecost simulate: %s\n", tc_errmsg());
        goto out;
    }
    if (!o.quiet && o.out_dir != NULL)
        fprintf(stderr, "wrote %s/points.tsv and %s/frontier.tsv%s%s%s\n", o.out_dir, o.out_dir,
                o.n_budgets + o.n_targets > 0 ? " and " : "", o.n_budgets + o.n_targets > 0 ? o.out_dir : "",
                o.n_budgets + o.n_targets > 0 ? "/budget.tsv" : "");
    else if (!o.quiet)
        fprintf(stderr, "(no --output DIR: nothing written)\n");
    rc = 0;
out:
    tc_outdir_abort(&od); /* nothing once committed */
    sim_result_free(res);
    sim_data_free(d);
    return rc;
}
