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
            "tunes N_CONFIG distinct valid configurations drawn at random and keeps the lowest estimate. Every\n"
            "scenario replays the same draws. A point = one (sample, scenario): mean and 95%% CI over its runs.\n"
            "\n"
            "TRACE defaults to %s\n"
            "\n"
            "Options (default in brackets):\n"
            "  -o, --output DIR          write DIR/points.tsv and DIR/frontier.tsv [only the summary]\n"
            "  -i, --input MxNxK[,...]   replay one input (the paper's Figure 3, Table 6), or the mean over\n"
            "                            the inputs listed\n"
            "      --all-inputs          replay every input, mean over inputs and runs (Figures 4-5) [default]\n"
            "  -s, --samples S           hyperparameter samples [500]\n"
            "  -r, --runs R              tuning runs per sample and input [30]\n"
            "      --n-config A:B        N_CONFIG range, or one value (capped at an input's valid count) [1:80]\n"
            "      --exec-ms A:B         EXEC_TIME range in integer ms, or one value [10:100]\n"
            "      --early-stop-num A:B  EARLY_STOP_NUM range [2:100]\n"
            "      --early-stop-threshold A:B\n"
            "                            EARLY_STOP_THRESHOLD range (uniform real) [1.0:1.1]\n"
            "      --scenarios LIST      comma-separated scenarios [baseline,parallel,early-stop]; a scenario is\n"
            "                            'baseline' or parts joined by '+': sequential, parallel, pipelined,\n"
            "                            early-stop, per-exec, paper-overhead (e.g. pipelined+early-stop)\n"
            "  -c, --compile-factor F    compile workers of parallel and pipelined scenarios [16]\n"
            "      --compile MODEL       compile model of scenarios that name none: sequential, parallel\n"
            "                            (the paper's ideal N/ceil(N/F)) or pipelined (F workers compile while\n"
            "                            the GPU benchmarks) [sequential]\n"
            "      --overhead MODEL      overhead of scenarios that name none: paper (whole recorded overhead\n"
            "                            per configuration) or per-exec (per-execution part only for the\n"
            "                            executions run) [paper]\n"
            "      --estimator E         how a run ranks configurations: mean, median or min of x1..xj [mean]\n"
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
    OPT_ESTIMATOR
};

int cmd_simulate(int argc, char **argv)
{
    static const char *const sim_outputs[] = {"points.tsv", "frontier.tsv"}; /* all an earlier -o DIR may hold */
    static const struct option longopts[] = {
        TC_CLI_OPT_OUTPUT,
        TC_CLI_OPT_INPUT,
        {"all-inputs", no_argument, NULL, OPT_ALL},
        TC_CLI_OPT_SAMPLES,
        TC_CLI_OPT_RUNS,
        {"n-config", required_argument, NULL, OPT_NCONFIG},
        {"exec-ms", required_argument, NULL, OPT_EXEC},
        {"early-stop-num", required_argument, NULL, OPT_ESNUM},
        {"early-stop-threshold", required_argument, NULL, OPT_ESTHR},
        {"scenarios", required_argument, NULL, OPT_SCEN},
        TC_CLI_OPT_COMPILE_FACTOR,
        {"compile", required_argument, NULL, OPT_COMPILE},
        {"overhead", required_argument, NULL, OPT_OVERHEAD},
        {"estimator", required_argument, NULL, OPT_ESTIMATOR},
        TC_CLI_OPT_SEED,
        TC_CLI_OPT_THREADS,
        TC_CLI_OPT_QUIET,
        TC_CLI_OPT_HELP,
        TC_CLI_OPT_END,
    };
    struct sim_settings s;
    const char *out_dir = NULL, *input_arg = NULL, *scen_arg = "baseline,parallel,early-stop", *path;
    enum sim_compile comp = SIM_COMPILE_SEQUENTIAL;
    enum sim_overhead ovh = SIM_OVERHEAD_PAPER;
    int factor = 16, all_inputs = 0, quiet = 0, opt, rc = 1, n_threads;
    struct tc_outdir od;
    long lo, hi;
    struct trace *t = NULL;
    struct sim_data *d = NULL;
    struct sim_result *res = NULL;
    struct progress_state ps = {0, 0};
    double t0, t_load, t_build;
    int64_t dims[8];

    memset(&od, 0, sizeof od);
    sim_settings_default(&s);
    optind = 1;
    while ((opt = tc_cli_next("simulate", argc, argv, "o:i:s:r:c:j:qh", longopts)) != -1) {
        int bad = 0;
        switch (opt) {
        case TC_CLI_ERROR: return 2;
        case 'o': out_dir = optarg; break;
        case 'i': input_arg = optarg; break;
        case OPT_ALL: all_inputs = 1; break;
        case 's': bad = tc_cli_samples(optarg, &s.samples); break;
        case 'r': bad = tc_cli_runs(optarg, &s.runs); break;
        case OPT_NCONFIG:
            bad = tc_parse_range_long("--n-config", optarg, 1, 1000000, &lo, &hi);
            s.n_config_lo = (int)lo, s.n_config_hi = (int)hi;
            break;
        case OPT_EXEC:
            bad = tc_parse_range_long("--exec-ms", optarg, 1, 100000, &lo, &hi);
            s.exec_ms_lo = (int)lo, s.exec_ms_hi = (int)hi;
            break;
        case OPT_ESNUM:
            bad = tc_parse_range_long("--early-stop-num", optarg, 1, 100000, &lo, &hi);
            s.es_num_lo = (int)lo, s.es_num_hi = (int)hi;
            break;
        case OPT_ESTHR:
            bad = tc_parse_range_double("--early-stop-threshold", optarg, 1e-6, 1000, &s.es_thr_lo, &s.es_thr_hi);
            break;
        case OPT_SCEN: scen_arg = optarg; break;
        case 'c': bad = tc_cli_compile_factor(optarg, &factor); break;
        case OPT_COMPILE: bad = sim_compile_parse(optarg, &comp); break;
        case OPT_OVERHEAD: bad = sim_overhead_parse(optarg, &ovh); break;
        case OPT_ESTIMATOR: bad = sim_estimator_parse(optarg, &s.estimator); break;
        case TC_CLI_SEED: bad = tc_cli_seed(optarg, &s.seed); break;
        case 'j': bad = tc_cli_threads(optarg, &s.threads); break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default: return tc_cli_usage_error("simulate", "unknown option '%s'", argv[optind - 1]);
        }
        if (bad)
            return tc_cli_usage_error("simulate", "%s", tc_errmsg());
    }
    if (optind < argc - 1)
        return tc_cli_usage_error("simulate", "expected at most one TRACE, got '%s' and '%s'", argv[optind],
                                  argv[optind + 1]);
    if (input_arg != NULL && all_inputs)
        return tc_cli_usage_error("simulate", "--input and --all-inputs exclude each other");
    if (parse_scenarios(scen_arg, comp, factor, ovh, &s) != 0 || sim_settings_check(&s) != 0)
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
        rc = tc_err_exit_code();
        goto out;
    }
    t_load = tc_now_s() - t0;
    if (input_arg != NULL) {
        /* one input, or a comma-separated list of them (replayed like --all-inputs over that subset) */
        int nd = trace_n_dims(t), n_idx = 0, idx[256];
        char list[4096], *save = NULL;
        if (nd < 1 || nd > 8) {
            fprintf(stderr, "tunecost simulate: %s: the trace has no usable input dimensions\n", path);
            rc = 2;
            goto out;
        }
        if (strlen(input_arg) >= sizeof list) {
            fprintf(stderr, "tunecost simulate: --input: list too long (at most %zu characters)\n", sizeof list - 1);
            rc = 2;
            goto out;
        }
        snprintf(list, sizeof list, "%s", input_arg);
        for (char *tok = strtok_r(list, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
            char buf[64];
            int k;
            if (n_idx == (int)(sizeof idx / sizeof idx[0])) {
                fprintf(stderr, "tunecost simulate: --input: at most %zu inputs (use --all-inputs)\n",
                        sizeof idx / sizeof idx[0]);
                rc = 2;
                goto out;
            }
            if (tc_parse_shape("--input", tok, nd, INT64_MAX / 2, dims) != 0) {
                fprintf(stderr, "tunecost simulate: %s\n", tc_errmsg());
                rc = 2;
                goto out;
            }
            idx[n_idx] = trace_find_input(t, dims);
            if (idx[n_idx] < 0) {
                fprintf(stderr, "tunecost simulate: --input %s: not among the %d inputs of %s (e.g. %s; `tunecost "
                                "info %s` lists them)\n", tok, trace_n_inputs(t), path,
                        trace_n_inputs(t) > 0 ? tc_format_shape(trace_dims(t, 0), nd, buf, sizeof buf) : "none",
                        path);
                rc = 2;
                goto out;
            }
            for (k = 0; k < n_idx && idx[k] != idx[n_idx]; k++)
                ;
            if (k < n_idx) {
                fprintf(stderr, "tunecost simulate: --input: %s is listed twice\n", tok);
                rc = 2;
                goto out;
            }
            n_idx++;
        }
        if (n_idx == 0) {
            fprintf(stderr, "tunecost simulate: --input: expected MxNxK or a comma-separated list, got '%s'\n",
                    input_arg);
            rc = 2;
            goto out;
        }
        if (ps.on)
            fprintf(stderr, "simulate: building tables ...");
        d = sim_data_from_trace(t, idx, n_idx, &s);
        s.input = n_idx == 1 ? 0 : -1;
    } else {
        if (ps.on)
            fprintf(stderr, "simulate: building tables ...");
        d = sim_data_from_trace(t, NULL, 0, &s);
        s.input = -1;
    }
    if (ps.on)
        fprintf(stderr, "\r%40s\r", "");
    if (d == NULL) {
        fprintf(stderr, "tunecost simulate: %s\n", tc_errmsg());
        rc = tc_err_exit_code();
        goto out;
    }
    trace_close(t); /* the data keep no pointer into it: free the executions before replaying */
    t = NULL;
    t_build = tc_now_s() - t0 - t_load;
    {
        int n_empty = 0;
        for (int i = 0; i < sim_data_n_inputs(d); i++)
            n_empty += sim_data_n_valid(d, i) == 0;
        if (n_empty == sim_data_n_inputs(d)) {
            fprintf(stderr, "tunecost simulate: %s: no input has a valid run (status 0 with timed executions); "
                            "nothing to replay\n", path);
            rc = 2;
            goto out;
        }
        if (n_empty > 0)
            fprintf(stderr, "tunecost simulate: note: %d of %d inputs have no valid run and are left out\n",
                    n_empty, sim_data_n_inputs(d));
    }

    n_threads = sim_threads(s.threads);
    /* Echo the settings. */
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
    if (print_summary(d, &s, res, s.input >= 0) != 0) {
        fprintf(stderr, "tunecost simulate: %s\n", tc_errmsg());
        goto out;
    }
    if (out_dir != NULL) {
        if (sim_write_outputs(od.tmp, d, &s, res, path) != 0 || tc_outdir_commit(&od) != 0) {
            fprintf(stderr, "tunecost simulate: %s\n", tc_errmsg());
            goto out;
        }
        fprintf(stderr, "wrote %s/points.tsv and %s/frontier.tsv\n", out_dir, out_dir);
    } else {
        fprintf(stderr, "(no --output DIR: nothing written)\n");
    }
    rc = 0;
out:
    tc_outdir_abort(&od); /* nothing once committed */
    trace_close(t);
    sim_result_free(res);
    sim_data_free(d);
    return rc;
}
