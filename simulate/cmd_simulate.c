/* cmd_simulate.c — `tunecost simulate`: replay a trace over random tuning budgets (sim.h), write points.tsv and
 * frontier.tsv, and print a one-screen summary. Usage and examples: usage() below; formats: docs/simulation.md. */
#include "frontier.h"
#include "sim.h"
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
    int all_inputs, compile_factor, force, quiet;
    enum sim_compile compile;
    enum sim_overhead overhead;
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
    return sim_estimator_parse(arg, field);
}

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
    {.name = "n-config", .arg = TC_ARG_INT_RANGE, .field = SO(s.n_config_lo), .field2 = SO(s.n_config_hi),
     .min = 1, .max = 1000000, .metavar = "A:B", .def = "1:80",
     .help = "N_CONFIG range, or one value (capped at an input's valid count)"},
    {.name = "exec-ms", .arg = TC_ARG_INT_RANGE, .field = SO(s.exec_ms_lo), .field2 = SO(s.exec_ms_hi), .min = 1,
     .max = 100000, .metavar = "A:B", .def = "10:100", .help = "EXEC_TIME range in integer ms, or one value"},
    {.name = "early-stop-num", .arg = TC_ARG_INT_RANGE, .field = SO(s.es_num_lo), .field2 = SO(s.es_num_hi),
     .min = 1, .max = 100000, .metavar = "A:B", .def = "2:100", .help = "EARLY_STOP_NUM range"},
    {.name = "early-stop-threshold", .arg = TC_ARG_DOUBLE_RANGE, .field = SO(s.es_thr_lo), .field2 = SO(s.es_thr_hi),
     .min = 1e-6, .max = 1000, .metavar = "A:B", .def = "1.0:1.1",
     .help = "EARLY_STOP_THRESHOLD range (uniform real)"},
    {.name = "scenarios", .arg = TC_ARG_STRING, .field = SO(scenarios), .metavar = "LIST",
     .def = "baseline,parallel,early-stop",
     .help = "comma-separated scenarios; a scenario is 'baseline' or parts joined by '+': sequential, parallel, "
             "pipelined, early-stop, per-exec, paper-overhead (e.g. pipelined+early-stop)",
     .words = "baseline parallel pipelined early-stop per-exec paper-overhead"},
    TC_OPT_COMPILE_FACTOR(struct simulate_opts, compile_factor, "16",
                          "compile workers of parallel and pipelined scenarios"),
    {.name = "compile", .arg = TC_ARG_CALL, .field = SO(compile), .call = parse_compile, .metavar = "MODEL",
     .def = "sequential", .words = "sequential parallel pipelined",
     .help = "compile model of scenarios that name none: sequential, parallel (the paper's ideal N/ceil(N/F)) "
             "or pipelined (F workers compile while the GPU benchmarks)"},
    {.name = "overhead", .arg = TC_ARG_CALL, .field = SO(overhead), .call = parse_overhead, .metavar = "MODEL",
     .def = "paper", .words = "paper per-exec",
     .help = "overhead of scenarios that name none: paper (whole recorded overhead per configuration) or "
             "per-exec (per-execution part only for the executions run)"},
    {.name = "estimator", .arg = TC_ARG_CALL, .field = SO(s.estimator), .call = parse_estimator, .metavar = "E",
     .def = "mean", .words = "mean median min", .help = "how a run ranks configurations: mean, median or min of x1..xj"},
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
        "tunes N_CONFIG distinct valid configurations drawn at random and keeps the lowest estimate. Every\n"
        "scenario replays the same draws. A point = one (sample, scenario): mean and 95% CI over its runs.\n",
    .operands = "TRACE\ttrace file (default: @TRACE@)\n",
    .opts = simulate_opts,
    .exit_status = "0 ok; 1 a failure while working (memory, disk); 2 usage error or a bad trace (one line on "
                   "stderr).",
    .examples = "tunecost simulate --input 4096x256x4096 -o sim-4096x256   # Figure 3 / Table 6\n"
                "tunecost simulate --all-inputs -o sim-all                 # Figures 4 and 5\n"
                "tunecost simulate --scenarios baseline,parallel,pipelined,per-exec -o sim-models\n"
                "tunecost simulate --n-config 80 --exec-ms 100 -s 1 -r 1000 --input 4096x4096x4096\n"
                "tunecost frontier sim-all/points.tsv --by tflops          # recompute a frontier\n",
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
        tc_seterr("simulate: out of memory");
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

/* Checks what the options alone can tell, and turns --scenarios into o->s.scenarios. 0 or -1 (tc_errmsg). */
static int simulate_check(struct simulate_opts *o)
{
    if (o->input != NULL && o->all_inputs)
        return tc_seterr("--input and --all-inputs exclude each other");
    if (parse_scenarios(o->scenarios, o->compile, o->compile_factor, o->overhead, &o->s) != 0)
        return -1;
    return sim_settings_check(&o->s);
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
                                      double *t_load, double *t_build)
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
 * there (anything, with -f), and the new one is swapped into place whole at the end (absent or complete, even under SIGKILL). */
static int simulate_output_begin(const char *out_dir, int force, const char *path, struct tc_outdir *od)
{
    static const char *const sim_outputs[] = {"points.tsv", "frontier.tsv"}; /* all an earlier -o DIR may hold */
    const char *inputs[1] = {path};
    if (out_dir == NULL)
        return 0;
    if (tc_output_check("-o", out_dir, 1, inputs, 1) != 0 ||
        (!force && tc_outdir_replaceable(out_dir, "simulate's points.tsv and frontier.tsv", sim_outputs, 2) != 0) ||
        tc_outdir_begin(od, out_dir) != 0)
        return -1;
    return 0;
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

    memset(&od, 0, sizeof od);
    sim_settings_default(&o.s);
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
    if ((d = simulate_load(&o, path, &ps, &t_load, &t_build)) == NULL || simulate_check_inputs(d, path) != 0) {
        fprintf(stderr, "tunecost simulate: %s\n", tc_errmsg());
        if (first >= argc && access(path, F_OK) != 0)
            fprintf(stderr, "tunecost simulate: the default trace is missing; give a TRACE (a file written by "
                            "`tunecost collect`)\n");
        goto out;
    }
    rc = 1;
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
        (o.out_dir != NULL && (sim_write_outputs(od.tmp, d, &o.s, res, path) != 0 || tc_outdir_commit(&od) != 0))) {
        fprintf(stderr, "tunecost simulate: %s\n", tc_errmsg());
        goto out;
    }
    if (!o.quiet && o.out_dir != NULL)
        fprintf(stderr, "wrote %s/points.tsv and %s/frontier.tsv\n", o.out_dir, o.out_dir);
    else if (!o.quiet)
        fprintf(stderr, "(no --output DIR: nothing written)\n");
    rc = 0;
out:
    tc_outdir_abort(&od); /* nothing once committed */
    sim_result_free(res);
    sim_data_free(d);
    return rc;
}
