/* cmd_simulate.c — `tunecost simulate`: replay a trace over random tuning budgets (sim.h), write points.tsv and
 * frontier.tsv, and print a one-screen summary. Usage and examples: usage() below; formats: docs/simulation.md. */
#include "frontier.h"
#include "sim.h"
#include "tc_atomic.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tc_outdir.h"
#include "tc_opt.h"
#include "tc_time.h"
#include "trace.h"
#include "tunecost.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: tunecost simulate [OPTIONS] [TRACE]\n"
            "\n"
            "Replay a trace over random tuning budgets (the paper's section 5.3.2, made exact; docs/simulation.md).\n"
            "Each of S samples draws N_CONFIG, EXEC_TIME (and EARLY_STOP_NUM, EARLY_STOP_THRESHOLD); each of R runs\n"
            "tunes N_CONFIG distinct configurations drawn at random (failed ones too: the tuner cannot know) and\n"
            "keeps the lowest estimate. Every scenario replays the same draws. A point = one (sample, scenario):\n"
            "mean and 95%% CI over its runs. --paper restores every choice of the paper (docs/simulation.md,\n"
            "\"Deviations from the paper\").\n"
            "\n"
            "TRACE defaults to %s\n"
            "\n"
            "Options (default in brackets):\n"
            "  -o, --output DIR          write DIR/points.tsv and DIR/frontier.tsv [only the summary]\n"
            "  -i, --input MxNxK[,...]   replay one input (the paper's Figure 3, Table 6), or the mean over\n"
            "                            the inputs listed\n"
            "      --all-inputs          replay every input, mean over inputs and runs (Figures 4-5) [default]\n"
            "      --inputs all|one      all-inputs mode: every input per sample, or one drawn per sample (the\n"
            "                            paper's Figures 4-5) [all]\n"
            "  -s, --samples S           hyperparameter samples [500]\n"
            "  -r, --runs R              tuning runs per sample and input [30]\n"
            "      --n-config A:B        N_CONFIG range, or one value (capped at an input's configurations) [1:80]\n"
            "      --exec-ms A:B         EXEC_TIME range in ms (0.001 to 100000), or one value [10:100]\n"
            "      --exec-dist D         uniform (whole ms between whole bounds, else 1001 points) or log\n"
            "                            (log-uniform, 100 points per decade, e.g. --exec-ms 0.05:100) [uniform]\n"
            "      --early-stop-num A:B  EARLY_STOP_NUM range [2:100]\n"
            "      --early-stop-threshold A:B\n"
            "                            EARLY_STOP_THRESHOLD range (uniform real) [1.0:1.1]\n"
            "      --scenarios LIST      comma-separated scenarios [baseline,parallel,early-stop]; a scenario is\n"
            "                            'baseline' or parts joined by '+': sequential, parallel, pipelined,\n"
            "                            ideal, early-stop, per-exec, paper-overhead (e.g. pipelined+early-stop)\n"
            "  -c, --compile-factor F    compile workers of parallel, pipelined and ideal scenarios [16]\n"
            "      --compile MODEL       compile model of scenarios that name none: sequential, parallel (F\n"
            "                            workers compile all, list-scheduled, then the GPU benchmarks),\n"
            "                            pipelined (F workers compile while the GPU benchmarks) or ideal (the\n"
            "                            paper's N/ceil(N/F) speed-up: an optimistic bound) [sequential]\n"
            "      --compile-model M     measured: sequential charges isolated (1-worker) compile times, the\n"
            "                            parallel models the trace's contended ones; paper: compile_ms everywhere\n"
            "                            and 'parallel' means ideal, the paper's optimistic bound [measured]\n"
            "      --failed-cost C       triton: failed configurations are drawn and cost their compile plus\n"
            "                            the failed launch; none: only valid ones are drawn (the paper) [triton]\n"
            "      --overhead MODEL      overhead of scenarios that name none: paper (whole recorded overhead\n"
            "                            per configuration) or per-exec (per-execution part only for the\n"
            "                            executions run) [paper]\n"
            "      --estimator E         how a run ranks configurations: mean, median or min of x1..xj; the\n"
            "                            winner is scored by the same statistic of all its executions [mean]\n"
            "      --truth T             score by another statistic (mean, median, min) [the estimator's]\n"
            "      --paper               the paper's choices: --failed-cost none --compile-model paper --inputs\n"
            "                            one --n-config 1:80 --exec-ms 10:100 --exec-dist uniform --estimator\n"
            "                            mean; options given explicitly still apply\n"
            "      --seed N              random seed; same seed, same bytes for any --threads [1]\n"
            "  -j, --threads T           worker threads; 0 = all online cores [0]\n"
            "  -q, --quiet               no progress line on stderr\n"
            "  -h, --help                this help\n"
            "\n"
            "Examples:\n"
            "  tunecost simulate --input 4096x256x4096 -o sim-4096x256   # Figure 3 / Table 6\n"
            "  tunecost simulate --all-inputs -o sim-all                 # Figures 4 and 5\n"
            "  tunecost simulate --scenarios baseline,parallel,pipelined,per-exec -o sim-models\n"
            "  tunecost simulate --n-config 80 --exec-ms 100 -s 1 -r 1000 --input 4096x4096x4096\n"
            "  tunecost simulate --paper -o sim-paper                    # the paper's model throughout\n"
            "  tunecost simulate --exec-ms 0.05:100 --exec-dist log -o sim-short   # down to the noise floor\n"
            "  tunecost frontier sim-all/points.tsv --by tflops          # recompute a frontier\n",
            tc_default_trace());
}

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

static int print_summary(const struct sim_data *d, const struct sim_settings *s, const struct sim_result *r,
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

enum {
    OPT_ALL = TC_CLI_LOCAL,
    OPT_NCONFIG,
    OPT_EXEC,
    OPT_ESNUM,
    OPT_ESTHR,
    OPT_SCEN,
    OPT_COMPILE,
    OPT_OVERHEAD,
    OPT_ESTIMATOR,
    OPT_TRUTH,
    OPT_FAILED,
    OPT_CMODEL,
    OPT_EXECDIST,
    OPT_INPUTS,
    OPT_PAPER
};

/* Settings --paper sets, unless given explicitly (bits of struct cli.set). */
enum { SET_NCONFIG = 1, SET_EXEC = 2, SET_DIST = 4, SET_EST = 8, SET_TRUTH = 16, SET_FAILED = 32, SET_CMODEL = 64,
       SET_INPUTS = 128 };

/* The command line, parsed. */
struct cli {
    struct sim_settings x;     /* values given explicitly (the fields `set` names, and the rest) */
    unsigned set;
    int paper, all_inputs, quiet, factor, help;
    const char *out_dir, *input_arg, *scen_arg;
    enum sim_compile comp;
    enum sim_overhead ovh;
};

/* One option into c; 0, or -1 with the message (a usage error). */
static int parse_one(struct cli *c, int opt, const char *arg)
{
    struct sim_settings *x = &c->x;
    long lo, hi;
    int bad = 0;
    switch (opt) {
    case 'o': c->out_dir = arg; break;
    case 'i': c->input_arg = arg; break;
    case OPT_ALL: c->all_inputs = 1; break;
    case 's': bad = tc_cli_samples(arg, &x->samples); break;
    case 'r': bad = tc_cli_runs(arg, &x->runs); break;
    case OPT_NCONFIG:
        bad = tc_parse_range_long("--n-config", arg, 1, 1000000, &lo, &hi);
        x->n_config_lo = (int)lo, x->n_config_hi = (int)hi, c->set |= SET_NCONFIG;
        break;
    case OPT_EXEC:
        bad = tc_parse_range_double("--exec-ms", arg, 0.001, 100000, &x->exec_ms_lo, &x->exec_ms_hi);
        c->set |= SET_EXEC;
        break;
    case OPT_ESNUM:
        bad = tc_parse_range_long("--early-stop-num", arg, 1, 100000, &lo, &hi);
        x->es_num_lo = (int)lo, x->es_num_hi = (int)hi;
        break;
    case OPT_ESTHR:
        bad = tc_parse_range_double("--early-stop-threshold", arg, 1e-6, 1000, &x->es_thr_lo, &x->es_thr_hi);
        break;
    case OPT_SCEN: c->scen_arg = arg; break;
    case 'c': bad = tc_cli_compile_factor(arg, &c->factor); break;
    case OPT_COMPILE: bad = sim_compile_parse(arg, &c->comp); break;
    case OPT_OVERHEAD: bad = sim_overhead_parse(arg, &c->ovh); break;
    case OPT_ESTIMATOR: bad = sim_estimator_parse(arg, &x->estimator), c->set |= SET_EST; break;
    case OPT_TRUTH: bad = sim_truth_parse(arg, &x->truth), c->set |= SET_TRUTH; break;
    case OPT_FAILED: bad = sim_failed_cost_parse(arg, &x->failed_cost), c->set |= SET_FAILED; break;
    case OPT_CMODEL: bad = sim_compile_model_parse(arg, &x->compile_model), c->set |= SET_CMODEL; break;
    case OPT_EXECDIST: bad = sim_exec_dist_parse(arg, &x->exec_dist), c->set |= SET_DIST; break;
    case OPT_INPUTS:
        if (strcmp(arg, "all") != 0 && strcmp(arg, "one") != 0)
            return tc_seterr("--inputs: expected 'all' or 'one', got '%s'", arg);
        x->one_input = arg[0] == 'o', c->set |= SET_INPUTS;
        break;
    case OPT_PAPER: c->paper = 1; break;
    case TC_CLI_SEED: bad = tc_cli_seed(arg, &x->seed); break;
    case 'j': bad = tc_cli_threads(arg, &x->threads); break;
    case 'q': c->quiet = 1; break;
    case 'h': c->help = 1; break;
    default: return tc_seterr("unknown option");
    }
    return bad ? -1 : 0;
}

/* The settings: the defaults, or the paper's choices under --paper, with what was given explicitly on top; then
 * the scenarios. 0, or -1 with the message. */
static int resolve(struct cli *c, struct sim_settings *s)
{
    const struct sim_settings *x = &c->x;
    *s = *x; /* samples, runs, early stopping, seed, threads: explicit or default alike */
    if (c->paper)
        sim_settings_paper(s);
    if (c->set & SET_NCONFIG)
        s->n_config_lo = x->n_config_lo, s->n_config_hi = x->n_config_hi;
    if (c->set & SET_EXEC)
        s->exec_ms_lo = x->exec_ms_lo, s->exec_ms_hi = x->exec_ms_hi;
    if (c->set & SET_DIST)
        s->exec_dist = x->exec_dist;
    if (c->set & SET_EST)
        s->estimator = x->estimator;
    s->truth = c->set & SET_TRUTH ? x->truth : s->estimator; /* one statistic picks and scores, unless split */
    if (c->set & SET_FAILED)
        s->failed_cost = x->failed_cost;
    if (c->set & SET_CMODEL)
        s->compile_model = x->compile_model;
    if (c->set & SET_INPUTS)
        s->one_input = x->one_input;
    if (parse_scenarios(c->scen_arg, c->comp, c->factor, c->ovh, s) != 0)
        return -1;
    sim_scenarios_for_model(s);
    return sim_settings_check(s);
}

/* Parse argv into c (optind is left after the options). Returns 0, or the exit code: 0 after --help (c->help
 * set), 2 on a usage error (reported). */
static int parse_cli(int argc, char **argv, struct cli *c)
{
    static const struct option longopts[] = {
        TC_CLI_OPT_OUTPUT,
        TC_CLI_OPT_INPUT,
        {"all-inputs", no_argument, NULL, OPT_ALL},
        TC_CLI_OPT_SAMPLES,
        TC_CLI_OPT_RUNS,
        {"n-config", required_argument, NULL, OPT_NCONFIG},
        {"exec-ms", required_argument, NULL, OPT_EXEC},
        {"exec-dist", required_argument, NULL, OPT_EXECDIST},
        {"early-stop-num", required_argument, NULL, OPT_ESNUM},
        {"early-stop-threshold", required_argument, NULL, OPT_ESTHR},
        {"scenarios", required_argument, NULL, OPT_SCEN},
        TC_CLI_OPT_COMPILE_FACTOR,
        {"compile", required_argument, NULL, OPT_COMPILE},
        {"compile-model", required_argument, NULL, OPT_CMODEL},
        {"failed-cost", required_argument, NULL, OPT_FAILED},
        {"overhead", required_argument, NULL, OPT_OVERHEAD},
        {"estimator", required_argument, NULL, OPT_ESTIMATOR},
        {"truth", required_argument, NULL, OPT_TRUTH},
        {"inputs", required_argument, NULL, OPT_INPUTS},
        {"paper", no_argument, NULL, OPT_PAPER},
        TC_CLI_OPT_SEED,
        TC_CLI_OPT_THREADS,
        TC_CLI_OPT_QUIET,
        TC_CLI_OPT_HELP,
        TC_CLI_OPT_END,
    };
    int opt;
    memset(c, 0, sizeof *c);
    sim_settings_default(&c->x);
    c->factor = 16;
    c->scen_arg = "baseline,parallel,early-stop";
    c->comp = SIM_COMPILE_SEQUENTIAL;
    c->ovh = SIM_OVERHEAD_PAPER;
    optind = 1;
    while ((opt = tc_cli_next("simulate", argc, argv, "o:i:s:r:c:j:qh", longopts)) != -1) {
        if (opt == TC_CLI_ERROR)
            return 2;
        if (parse_one(c, opt, optarg) != 0)
            return tc_cli_usage_error("simulate", "%s", tc_errmsg());
        if (c->help)
            return 0;
    }
    return 0;
}

/* The notes on stderr about compile times the trace lacks (once each). */
static void note_missing(const struct sim_data *d, const struct sim_settings *s, int compile_jobs)
{
    long no_iso, failed_no_compile;
    int seq = 0;
    for (int i = 0; i < s->n_scenarios; i++)
        seq |= s->scenarios[i].compile == SIM_COMPILE_SEQUENTIAL;
    sim_data_missing(d, &no_iso, &failed_no_compile);
    if (no_iso > 0 && seq && s->compile_model == SIM_CM_MEASURED)
        fprintf(stderr, "tunecost simulate: note: %ld (input, configuration) pairs have no isolated (1-worker) "
                        "compile time; sequential charges their compile_ms, measured with %d workers\n", no_iso,
                compile_jobs);
    if (failed_no_compile > 0 && s->failed_cost == SIM_FAILED_TRITON)
        fprintf(stderr, "tunecost simulate: note: %ld failed (input, configuration) pairs have no compile time (a "
                        "trace collected without --compile-invalid); each is charged the median compile time of "
                        "its input's valid configurations\n", failed_no_compile);
}

/* The trace's indices of the inputs listed in arg ("MxNxK[,...]") into idx (room for max), *n_idx of them.
 * Returns 0, or -1 with the message. */
static int find_inputs(const struct trace *t, const char *path, const char *arg, int *idx, int max, int *n_idx)
{
    int nd = trace_n_dims(t);
    int64_t dims[8];
    char list[4096], *save = NULL;
    *n_idx = 0;
    if (nd < 1 || nd > 8)
        return tc_seterr("%s: the trace has no usable input dimensions", path);
    if (strlen(arg) >= sizeof list)
        return tc_seterr("--input: list too long (at most %zu characters)", sizeof list - 1);
    snprintf(list, sizeof list, "%s", arg);
    for (char *tok = strtok_r(list, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        char buf[64];
        int k;
        if (*n_idx == max)
            return tc_seterr("--input: at most %d inputs (use --all-inputs)", max);
        if (tc_parse_shape("--input", tok, nd, INT64_MAX / 2, dims) != 0)
            return -1;
        idx[*n_idx] = trace_find_input(t, dims);
        if (idx[*n_idx] < 0)
            return tc_seterr("--input %s: not among the %d inputs of %s (e.g. %s; `tunecost info %s` lists them)",
                             tok, trace_n_inputs(t), path,
                             trace_n_inputs(t) > 0 ? tc_format_shape(trace_dims(t, 0), nd, buf, sizeof buf) : "none",
                             path);
        for (k = 0; k < *n_idx && idx[k] != idx[*n_idx]; k++)
            ;
        if (k < *n_idx)
            return tc_seterr("--input: %s is listed twice", tok);
        (*n_idx)++;
    }
    if (*n_idx == 0)
        return tc_seterr("--input: expected MxNxK or a comma-separated list, got '%s'", arg);
    return 0;
}

/* The replay's data from trace t: the inputs listed in input_arg (NULL: all), s->input set to match. Notes on
 * stderr the inputs without a valid run. Returns NULL with the message when an input is not found or no input has
 * a valid run. */
static struct sim_data *load_data(const struct trace *t, const char *path, const char *input_arg,
                                  struct sim_settings *s, int progress_on)
{
    struct sim_data *d;
    int n_idx = 0, idx[256], n_empty = 0;
    /* one input, or a comma-separated list of them (replayed like --all-inputs over that subset) */
    if (input_arg != NULL && find_inputs(t, path, input_arg, idx, (int)(sizeof idx / sizeof idx[0]), &n_idx) != 0)
        return NULL;
    if (progress_on)
        fprintf(stderr, "simulate: building tables ...");
    d = input_arg != NULL ? sim_data_from_trace(t, idx, n_idx, s) : sim_data_from_trace(t, NULL, 0, s);
    s->input = input_arg != NULL && n_idx == 1 ? 0 : -1;
    if (progress_on)
        fprintf(stderr, "\r%40s\r", "");
    if (d == NULL)
        return NULL;
    for (int i = 0; i < sim_data_n_inputs(d); i++)
        n_empty += sim_data_n_valid(d, i) == 0;
    if (n_empty == sim_data_n_inputs(d)) {
        sim_data_free(d);
        tc_seterr("%s: no input has a valid run (status 0 with timed executions); nothing to replay", path);
        return NULL;
    }
    if (n_empty > 0)
        fprintf(stderr, "tunecost simulate: note: %d of %d inputs have no valid run and are left out\n", n_empty,
                sim_data_n_inputs(d));
    return d;
}

/* DIR/points.tsv and DIR/frontier.tsv through the output directory od (none without -o), and the status line. */
static int write_outputs(struct tc_outdir *od, const char *out_dir, const struct sim_data *d,
                         const struct sim_settings *s, const struct sim_result *res, const char *path)
{
    if (out_dir == NULL) {
        fprintf(stderr, "(no --output DIR: nothing written)\n");
        return 0;
    }
    if (sim_write_outputs(od->tmp, d, s, res, path) != 0 || tc_outdir_commit(od) != 0)
        return -1;
    fprintf(stderr, "wrote %s/points.tsv and %s/frontier.tsv\n", out_dir, out_dir);
    return 0;
}

int cmd_simulate(int argc, char **argv)
{
    static const char *const sim_outputs[] = {"points.tsv", "frontier.tsv"}; /* all an earlier -o DIR may hold */
    struct sim_settings s;
    struct cli cl;
    const char *out_dir, *input_arg, *path;
    int quiet, rc = 1, n_threads, compile_jobs;
    struct tc_outdir od;
    struct trace *t = NULL;
    struct sim_data *d = NULL;
    struct sim_result *res = NULL;
    struct progress_state ps = {0, 0};
    double t0, t_load, t_build;

    memset(&od, 0, sizeof od);
    if ((rc = parse_cli(argc, argv, &cl)) != 0 || cl.help) {
        if (cl.help)
            usage(stdout);
        return rc;
    }
    rc = 1;
    out_dir = cl.out_dir, input_arg = cl.input_arg, quiet = cl.quiet;
    if (optind < argc - 1)
        return tc_cli_usage_error("simulate", "expected at most one TRACE, got '%s' and '%s'", argv[optind],
                                  argv[optind + 1]);
    if (input_arg != NULL && cl.all_inputs)
        return tc_cli_usage_error("simulate", "--input and --all-inputs exclude each other");
    if (resolve(&cl, &s) != 0)
        return tc_cli_usage_error("simulate", "%s", tc_errmsg());
    path = optind < argc ? argv[optind] : tc_default_trace();
    if (out_dir != NULL) {
        /* Find out now, not after the replay, whether the results can be written: the output is a new
         * directory swapped into place whole at the end (absent or complete, even under SIGKILL), so an
         * existing DIR may hold only what an earlier simulate wrote there. */
        const char *inputs[1] = {path};
        if (tc_output_check("-o", out_dir, 1, inputs, 1) != 0 ||
            tc_outdir_replaceable(out_dir, "simulate's points.tsv and frontier.tsv", sim_outputs, 2) != 0 ||
            tc_outdir_begin(&od, out_dir) != 0) {
            fprintf(stderr, "tunecost simulate: %s\n", tc_errmsg());
            return 2;
        }
    }

    ps.on = !quiet && isatty(STDERR_FILENO);
    if (ps.on)
        fprintf(stderr, "simulate: reading %s ...", path);
    t0 = tc_now_s();
    t = trace_open(path);
    if (ps.on)
        fprintf(stderr, "\r%*s\r", (int)strlen(path) + 24, "");
    if (t == NULL) {
        fprintf(stderr, "tunecost simulate: %s\n", tc_errmsg());
        if (optind >= argc && access(path, F_OK) != 0)
            fprintf(stderr, "tunecost simulate: the default trace is missing; give a TRACE (a file written by "
                            "`tunecost collect`)\n");
        rc = 2;
        goto out;
    }
    t_load = tc_now_s() - t0;
    compile_jobs = trace_get_meta(t)->compile_jobs;
    d = load_data(t, path, input_arg, &s, ps.on);
    if (d == NULL) {
        fprintf(stderr, "tunecost simulate: %s\n", tc_errmsg());
        rc = 2;
        goto out;
    }
    trace_close(t); /* the data keep no pointer into it: free the executions before replaying */
    t = NULL;
    t_build = tc_now_s() - t0 - t_load;
    note_missing(d, &s, compile_jobs);
    n_threads = sim_threads(s.threads);
    /* Status on stderr (settings, timings, what was written); the summary table on stdout; data in files. */
    fprintf(stderr, "tunecost simulate: %s\n", path);
    sim_write_settings(stderr, d, &s, NULL);
    fprintf(stderr, "# threads: %d\n", n_threads);

    res = sim_run(d, &s, progress_cb, &ps);
    if (ps.printed)
        fprintf(stderr, "\r%40s\r", "");
    if (res == NULL) {
        fprintf(stderr, "tunecost simulate: %s\n", tc_errmsg());
        goto out;
    }
    fprintf(stderr, "%d points (%d samples x %d scenarios), %ld tuning runs each, replayed in %.3f s; trace read in "
           "%.3f s, tables built in %.3f s (%.1f MiB)\n",
           res->n_points, s.samples, s.n_scenarios, res->points[0].results, res->elapsed_s, t_load, t_build,
           (double)sim_data_bytes(d) / 1048576.0);
    if (print_summary(d, &s, res, s.input >= 0) != 0 || write_outputs(&od, out_dir, d, &s, res, path) != 0) {
        fprintf(stderr, "tunecost simulate: %s\n", tc_errmsg());
        goto out;
    }
    rc = 0;
out:
    tc_outdir_abort(&od); /* nothing once committed */
    trace_close(t);
    sim_result_free(res);
    sim_data_free(d);
    return rc;
}
