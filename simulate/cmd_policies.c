/* cmd_policies.c — `tunecost policies`: replay tuning policies on a trace, every cost charged (policy.h), and
 * compare them on a common tuning-time grid: curves.tsv, scores.tsv and a figure (plots/policies.gp). */
#include "policy.h"
#include "tc_cli.h"
#include "tc_atomic.h"
#include "tc_err.h"
#include "tc_figures.h"
#include "tc_gnuplot.h"
#include "tc_opt.h"
#include "tc_paths.h"
#include "tc_outdir.h"
#include "tc_time.h"
#include "trace.h"
#include "tunecost.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_POLICIES 40

/* ---- the command line ------------------------------------------------------------------------------------ */

/* --stop's names, indexed by enum pol_stop_rule. */
static const char *const stop_names[] = {"none", "early", "statistical"};
/* --score's names: 0 the methodology's score (atm), 1 the earlier area ratio. */
static const char *const score_names[] = {"atm", "area"};
/* --costs' names: 0 auto (source on an imported trace, else replay), 1 replay, 2 source. */
static const char *const costs_names[] = {"auto", "replay", "source"};
/* --runs-log's names: 0 none, 1 t4 (Kernel Tuner's T4 results, one file per run). */
static const char *const runs_log_names[] = {"none", "t4"};

struct policies_opts {
    struct pol_settings s;
    const char *out, *list, *prior; /* prior: --transfer-from, or with the default TRACE the other GPU's */
    int threads, stop, no_figures, force, quiet, score_kind, atm_curves; /* score_kind: index in score_names */
    int failed_cost; /* index in sim_failed_cost_names = enum sim_failed_cost */
    int compile, compile_model; /* indices in sim_compile_names, sim_compile_model_names */
    int costs;       /* index in costs_names */
    int runs_log;    /* index in runs_log_names */
    const char *strategy_options; /* --strategy-options as given */
    char opt_buf[1200];           /* what the policies read: it, and max_fevals=N from --max-fevals */
};

#define PO(f) offsetof(struct policies_opts, f)
static const struct tc_optdecl policies_opts[] = {
    TC_OPT_OUTPUT_REQUIRED(struct policies_opts, out, "DIR",
                           "write DIR/curves.tsv, DIR/scores.tsv, DIR/atm.tsv, DIR/policies.png|svg (and DIR/runs/ with "
                           "--runs-log t4); DIR is replaced only when all of them are written (a figure not drawn: "
                           "exit 1)"),
    {.name = "policies", .letter = 'p', .arg = TC_ARG_STRING, .field = PO(list), .metavar = "LIST", .def = "all",
     .help = "comma-separated policies (listed above), or 'all'"},
    {.name = "budget-s", .letter = 'b', .arg = TC_ARG_DOUBLE, .field = PO(s.budget_s), .min = 1e-9, .max = 1e6,
     .metavar = "S", .def = "60", .help = "tuning-time budget per run, seconds, in (0, 1e6]"},
    {.name = "rep-ms", .arg = TC_ARG_DOUBLE, .field = PO(s.rep_ms), .min = 1e-9, .max = 1e5, .metavar = "MS",
     .def = "100", .help = "repetition time per configuration, ms, in (0, 100000]"},
    {.name = "compile", .arg = TC_ARG_NAME, .field = PO(compile), .names = sim_compile_names, .n_names = 4,
     .metavar = "MODEL", .def = "sequential",
     .help = "how compile time adds to tuning time, as in simulate (docs/simulation.md): sequential (each compile "
             "before its benchmark), parallel (F workers, list schedule, then the benchmarks), pipelined (F workers "
             "compile while the GPU benchmarks) or ideal (the paper's optimistic bound)"},
    {.name = "compile-model", .arg = TC_ARG_NAME, .field = PO(compile_model), .names = sim_compile_model_names,
     .n_names = 2, .metavar = "M", .def = "measured",
     .help = "which recorded compile times are charged, as in simulate: measured (sequential the isolated "
             "1-worker times where the trace has them, the parallel models each compile at the contention of the "
             "compiles running together, one compile-worker warm-up per run) or paper (the contended times "
             "everywhere, no warm-up)"},
    TC_OPT_COMPILE_FACTOR(struct policies_opts, s.compile_jobs, "16",
                          "compile workers of --compile parallel, pipelined and ideal"),
    {.name = "compile-jobs", .arg = TC_ARG_INT, .field = PO(s.compile_jobs), .min = 1, .max = 4096, .metavar = "F",
     .help = "the older name of --compile-factor"},
    {.name = "stop", .arg = TC_ARG_NAME, .field = PO(stop), .names = stop_names, .n_names = 3, .metavar = "RULE",
     .def = "none", .help = "none, early (the paper's early stopping) or statistical"},
    {.name = "failed-cost", .arg = TC_ARG_NAME, .field = PO(failed_cost), .names = sim_failed_cost_names, .n_names = 2,
     .metavar = "C", .def = "triton",
     .help = "triton: every failed configuration is compiled before it fails and is paid for (as Triton compiles "
             "every configuration it is given; no compile time recorded: the input's median), nothing is known "
             "invalid beforehand; none: an out-of-resources configuration is known invalid from its parameters "
             "(restrictions) and costs nothing, a failed launch its wall time"},
    {.name = "costs", .arg = TC_ARG_NAME, .field = PO(costs), .names = costs_names, .n_names = 3, .metavar = "M",
     .def = "auto",
     .help = "replay: tunecost's replay (compile, warm-up, each execution up to --rep-ms, overhead); source: what an "
             "imported trace's source recorded, as Kernel Tuner's simulation mode charges it (a first visit its "
             "compile + verification + benchmark time, a revisit nothing; --rep-ms, --compile-factor and "
             "--failed-cost then change nothing); auto: source on an imported trace (kerneltuner, t4), else replay"},
    {.name = "max-fevals", .arg = TC_ARG_INT, .field = PO(s.max_configs), .min = 0, .max = INT_MAX, .metavar = "N",
     .def = "0", .help = "a run ends once N distinct configurations are evaluated (Kernel Tuner's max_fevals); 0: no "
                         "limit but the budget"},
    {.name = "strategy-options", .arg = TC_ARG_STRING, .field = PO(strategy_options), .metavar = "LIST",
     .def_doc = "each policy's own defaults",
     .help = "NAME=VALUE,... for Kernel Tuner's strategies, with Kernel Tuner's names: random_sample fraction; "
             "genetic_algorithm popsize, maxiter, mutation_chance; simulated_annealing T, T_min, alpha, maxiter; "
             "greedy_ils random_walk, no_improvement; firefly_algorithm popsize, maxiter, B0, gamma, alpha; "
             "max_fevals for all (as --max-fevals); a name no chosen policy reads is refused"},
    TC_OPT_RUNS(struct policies_opts, s.runs, "30", "tuning runs per input and policy"),
    TC_OPT_SEED(struct policies_opts, s.seed, "0", "random seed; the same seed gives the same bytes for any --threads"),
    TC_OPT_THREADS(struct policies_opts, threads, "0",
                   "worker threads (inputs are shared out), 0 = all cores (at most 64)"),
    {.name = "grid", .arg = TC_ARG_INT, .field = PO(s.n_grid), .min = 2, .max = 10000, .metavar = "N", .def = "60",
     .help = "points of the common time grid"},
    {.name = "score", .arg = TC_ARG_NAME, .field = PO(score_kind), .names = score_names, .n_names = 2,
     .metavar = "NAME", .def = "atm",
     .help = "atm (the methodology's score, with its CI) or area (the earlier area ratio against the analytic "
             "baseline on the log grid)"},
    {.name = "cutoff", .arg = TC_ARG_DOUBLE, .field = PO(s.atm_cutoff), .min = 1e-6, .max = 1 - 1e-6,
     .metavar = "P", .def = "0.95",
     .help = "atm: each input's range ends where random search is expected to be this fraction of the way from the "
             "median to the optimum, in (0, 1)"},
    {.name = "atm-curves", .arg = TC_ARG_FLAG, .field = PO(atm_curves),
     .help = "also write DIR/atm-curves.tsv: per input, the baseline and each policy's mean run time at each time of "
             "its range"},
    {.name = "runs-log", .arg = TC_ARG_NAME, .field = PO(runs_log), .names = runs_log_names, .n_names = 2,
     .metavar = "FORMAT", .def = "none",
     .help = "t4: also write every run's steps as Kernel Tuner T4 results, the form the autotuning_methodology "
             "package reads a run in: DIR/runs/POLICY/INPUT/run-R.json, one result per step in order (the "
             "configuration, its compile and benchmark seconds since the step before, adding up to the run's tuning "
             "time as the score ranks it, and its true time in ms or a failure marker; docs/simulation.md, \"The "
             "runs log\"); none: no runs log"},
    {.name = "transfer-from", .arg = TC_ARG_STRING, .field = PO(prior), .metavar = "T",
     .def_doc = "with the default TRACE: its shipped H100 twin; else none, and 'all' leaves 'transfer' out",
     .help = "the other GPU's trace, the prior of policy 'transfer'"},
    {.name = "no-figures", .arg = TC_ARG_FLAG, .field = PO(no_figures), .help = "write no figure (no gnuplot needed)"},
    TC_OPT_FORCE(struct policies_opts, force),
    TC_OPT_QUIET_AS(struct policies_opts, quiet,
                    "no status lines on stderr, no table on stdout (the files are the result)"),
    TC_OPT_HELP,
    TC_OPT_END,
};
#undef PO

/* The i-th policy of both registries (policy_registry, then policy_kt_registry), or NULL past the end. */
static const struct policy_ops *policy_nth(int i)
{
    int n = 0;
    while (policy_registry[n] != NULL)
        n++;
    if (i < n)
        return policy_registry[i];
    for (int k = 0; k <= i - n; k++)
        if (policy_kt_registry[k] == NULL)
            return NULL;
    return policy_kt_registry[i - n];
}

static int policies_topic(int i, const char **name, const char **summary)
{
    const struct policy_ops *p = policy_nth(i);
    if (p == NULL)
        return 0;
    *name = p->name;
    *summary = p->summary;
    return 1;
}

const struct tc_cmd policies_cmd = {
    .name = "policies",
    .summary = "compare tuning policies on a trace, every cost charged (curves, scores)",
    .synopsis = "[TRACE] -o DIR [--policies LIST] [--budget-s S] [options]",
    .description =
        "Replay tuning policies on a recorded trace, charging what a real tuner pays for every step: the\n"
        "configuration's compile time (once), its warm-up, each timed execution up to the repetition time the\n"
        "policy asks for, and the overhead around each execution. Every input is tuned --runs times by every\n"
        "policy; the result is the mean speedup relative to the input's best configuration over tuning time,\n"
        "with its 95% confidence interval, beside the analytic random-search baseline (docs/simulation.md,\n"
        "\"Tuning policies\"). Each policy is scored by the published methodology (Willemsen et al. 2024; --score\n"
        "atm): per input, the mean over a linear time range of (f_rand - f) / (f_rand - f_opt) in run time against\n"
        "the exact random-search baseline, then the mean over inputs with a bootstrap 95% CI over runs and\n"
        "inputs; each input's range ends at the budget where random search reaches the cutoff later.\n"
        "TRACE defaults to the shipped full-space trace, @TRACE:full-space@, with another GPU's shipped trace\n"
        "as the prior of 'transfer': the cross-GPU trace, @TRACE:cross-gpu@, else the reference when it is of\n"
        "another GPU (data/manifest.tsv lists them); the first lines name the trace and its GPU.\n",
    .topics_title = "Policies (for --policies)",
    .topics_option = "policies",
    .topic = policies_topic,
    .operands = "TRACE\tthe trace to replay (default: the shipped full-space trace, @TRACE:full-space@; without one "
                "the reference trace, @TRACE:reference@)\n",
    .opts = policies_opts,
    .exit_status = "0 ok; 1 a failure while working (disk, memory); 2 usage error or a trace without a valid run "
                   "(one line on stderr).",
    .examples = "tunecost policies -o pol                                  # every policy, the full-space trace\n"
                "tunecost policies --policies random,halving,anneal --budget-s 30 -o pol\n"
                "tunecost policies --stop statistical --compile pipelined -c 16 -o pol-par\n"
                "tunecost policies --runs 30 --seed 7 -j 1 -o pol-seq          # the same bytes as with -j 2\n"
                "tunecost policies kt.h5 -p random,genetic --costs source --runs-log t4 -o pol  # pol/runs/*/*/run-*.json\n",
    .min_operands = 0,
    .max_operands = 1,
    .operand_name = "TRACE",
};

/* scores.tsv: one row per policy. --score area keeps the columns it always had; atm (the default) puts the
 * methodology's score first, with its bootstrap CI, the share of the (paired) bootstrap replicates in which the
 * policy scores highest of those evaluated, the number of inputs it could score, and keeps the area score as
 * score_area. */
static int write_scores(const char *dir, const struct pol_curve *c, int n, int atm)
{
    char path[4096];
    struct tc_atomic a;
    FILE *fp;
    const double *rep[MAX_POLICIES];
    double first[MAX_POLICIES];
    for (int i = 0; i < n; i++)
        rep[i] = c[i].atm_boot;
    atm_first_share(rep, n, n > 0 ? c[0].n_boot : 0, first);
    if (snprintf(path, sizeof path, "%s/scores.tsv", dir) >= (int)sizeof path)
        return tc_seterr("%s: path too long", dir);
    if ((fp = tc_atomic_open(&a, path)) == NULL)
        return -1;
    fprintf(fp, "policy\tscore%s\tt90_s\tt95_s\tt99_s\tfinal_speedup\tsteps\tbudget_stops\n",
            atm ? "\tscore_lo\tscore_hi\tp_first\tinputs_scored\tscore_area" : "");
    for (int i = 0; i < n; i++) {
        if (atm) {
            fprintf(fp, "%s", c[i].policy);
            double v[4] = {c[i].atm_score, c[i].atm_lo, c[i].atm_hi, first[i]};
            for (int k = 0; k < 4; k++) /* NaN: no input could be scored */
                isnan(v[k]) ? fputs("\tnan", fp) : fprintf(fp, "\t%.17g", v[k]);
            fprintf(fp, "\t%d\t%.17g", c[i].atm_n_inputs, c[i].score);
        } else {
            fprintf(fp, "%s\t%.17g", c[i].policy, c[i].score);
        }
        double t[3] = {c[i].t90_s, c[i].t95_s, c[i].t99_s};
        for (int k = 0; k < 3; k++) {
            if (isnan(t[k]))
                fputs("\tnan", fp); /* not reached within the budget: the one NA token of tunecost TSVs */
            else
                fprintf(fp, "\t%.17g", t[k]);
        }
        fprintf(fp, "\t%.17g\t%ld\t%ld\n", c[i].final_speedup, c[i].n_steps, c[i].n_budget_stops);
    }
    return tc_atomic_commit(&a);
}

/* atm.tsv: per policy and input, the methodology's frame (its range, baseline scale) and the input's score;
 * atm-curves.tsv (with --atm-curves): per policy, input and time of the range, the baseline and the mean f. */
static int write_atm(const char *dir, const struct pol_curve *c, int n, const struct trace *t, int with_curves)
{
    char path[4096], shape[128];
    struct tc_atomic a;
    FILE *fp;
    for (int pass = 0; pass < 1 + with_curves; pass++) {
        if (snprintf(path, sizeof path, "%s/%s", dir, pass ? "atm-curves.tsv" : "atm.tsv") >= (int)sizeof path)
            return tc_seterr("%s: path too long", dir);
        if ((fp = tc_atomic_open(&a, path)) == NULL)
            return -1;
        fputs(pass ? "policy\tinput\ttime_s\tbaseline_ms\tmean_ms\n"
                   : "policy\tinput\tscored\tscore\tt0_s\tt1_s\tper_eval_s\topt_ms\tmedian_ms\tcut_ms\tt_cut_s\n", fp);
        for (int i = 0; i < n; i++)
            for (int in = 0; in < c[i].n_inputs; in++) {
                const struct atm_frame *f = &c[i].atm[in];
                tc_format_shape(trace_dims(t, in), trace_n_dims(t), shape, sizeof shape);
                if (pass == 0 && !f->usable)
                    fprintf(fp, "%s\t%s\t0\tnan\tnan\tnan\tnan\tnan\tnan\tnan\tnan\n", c[i].policy, shape);
                else if (pass == 0)
                    fprintf(fp, "%s\t%s\t1\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\n", c[i].policy,
                            shape, c[i].atm_input_score[in], f->t0_s, f->t1_s, f->per_eval_s, f->opt_ms,
                            f->median_ms, f->cut_ms, f->t_cut_s);
                for (int g = 0; pass == 1 && f->usable && g < f->n_points; g++)
                    fprintf(fp, "%s\t%s\t%.17g\t%.17g\t%.17g\n", c[i].policy, shape, f->time_s[g], f->base_ms[g],
                            c[i].atm_mean_ms[(size_t)in * f->n_points + g]);
            }
        if (tc_atomic_commit(&a) != 0)
            return -1;
    }
    return 0;
}

/* DIR/runs/POLICY/INPUT/run-R.json (R from 0, three digits at least): every run of every policy and input as T4
 * results (pol_runlog_write_t4), each file written whole (tc_atomic) inside the output's temporary directory.
 * Returns 0, or -1 (tc_errmsg names the path). */
static int write_runs_log(const char *dir, const struct pol_curve *c, int n, const struct trace *t,
                          const struct pol_data *d, const struct pol_settings *s)
{
    char path[4096], shape[128];
    struct tc_atomic a;
    FILE *fp;
    for (int i = 0; i < n; i++)
        for (int in = 0; in < c[i].n_inputs; in++) {
            tc_format_shape(trace_dims(t, in), trace_n_dims(t), shape, sizeof shape);
            for (int lvl = 0; lvl < 3; lvl++) { /* runs, runs/POLICY, runs/POLICY/INPUT */
                int len = lvl == 0   ? snprintf(path, sizeof path, "%s/runs", dir)
                          : lvl == 1 ? snprintf(path, sizeof path, "%s/runs/%s", dir, c[i].policy)
                                     : snprintf(path, sizeof path, "%s/runs/%s/%s", dir, c[i].policy, shape);
                if (len >= (int)sizeof path)
                    return tc_seterr("%s: path too long", dir);
                if (mkdir(path, 0777) != 0 && errno != EEXIST)
                    return tc_seterr_env("%s: cannot create the folder: %s", path, strerror(errno));
            }
            for (int r = 0; r < c[i].runs; r++) {
                if (snprintf(path, sizeof path, "%s/runs/%s/%s/run-%03d.json", dir, c[i].policy, shape, r) >=
                    (int)sizeof path)
                    return tc_seterr("%s: path too long", dir);
                if ((fp = tc_atomic_open(&a, path)) == NULL)
                    return -1;
                if (pol_runlog_write_t4(fp, t, d, s, &c[i], in, r) != 0) {
                    tc_atomic_abort(&a);
                    return -1;
                }
                if (tc_atomic_commit(&a) != 0)
                    return -1;
            }
        }
    return 0;
}

static int write_outputs(const char *dir, struct pol_curve *c, int n, const struct trace *t, const char *prior_path,
                         const struct pol_settings *s, int atm, int with_curves)
{
    static const char *const stop_name[] = {[POL_STOP_NONE] = "none", [POL_STOP_EARLY] = "early",
                                            [POL_STOP_STATISTICAL] = "statistical"}; /* as --stop spells them */
    char path[4096];
    struct tc_atomic a;
    FILE *fp;
    if (snprintf(path, sizeof path, "%s/curves.tsv", dir) >= (int)sizeof path)
        return tc_seterr("%s: path too long", dir);
    if ((fp = tc_atomic_open(&a, path)) == NULL)
        return -1;
    fprintf(fp, "# tunecost policies: %s (%s)%s%s; budget %g s, rep %g ms, compile %s x%d (compile model %s), "
                "stop rule %s, %d runs, seed %llu, failed cost %s, truth %s%s\n",
            trace_path(t), trace_get_meta(t)->device_name, prior_path != NULL ? "; transfer from " : "",
            prior_path != NULL ? prior_path : "", s->budget_s, s->rep_ms, sim_compile_name(s->compile),
            s->compile == SIM_COMPILE_SEQUENTIAL ? 1 : s->compile_jobs, sim_compile_model_name(s->compile_model),
            stop_name[s->stop_rule], s->runs, (unsigned long long)s->seed,
            s->failed_cost == SIM_FAILED_TRITON ? "triton (failed configurations compile)" : "none",
            s->source_costs ? "the source's objective" : sim_estimator_name(s->truth),
            s->source_costs ? ", costs source (as recorded)" : "");
    pol_write_curves(fp, c, n);
    if (tc_atomic_commit(&a) != 0 || write_scores(dir, c, n, atm) != 0)
        return -1;
    return atm ? write_atm(dir, c, n, t, with_curves) : 0;
}

/* The figure (policies.png and policies.svg in dir), drawn with its script (util/tc_figures) in plots_dir.
 * Returns 0 when both are drawn whole; else -1 with a message naming the script and gnuplot's reason (the last
 * line it printed) or the output cut short. A figure drawn leaves no dir/gnuplot.log behind. */
static int policies_draw(const char *dir, const char *plots_dir)
{
    static const char *const fmts[] = {"png", "svg"};
    char gnuplot[PATH_MAX], script[PATH_MAX], expr[PATH_MAX + 128], out[32], log[PATH_MAX];
    struct tc_gnuplot_job j = {gnuplot, dir, script, expr, out, "gnuplot.log"};
    const struct tc_figure *fig = tc_figure_find("policies");
    int rc = 0;
    if (snprintf(script, sizeof script, "%s/%s", plots_dir, fig->script) >= (int)sizeof script)
        rc = tc_seterr("%s/%s: path too long", plots_dir, fig->script);
    else if (strchr(plots_dir, '\'') != NULL)
        rc = tc_seterr("%s: a quote in the plots folder cannot be passed to gnuplot", script);
    else if (access(script, R_OK) != 0)
        rc = tc_seterr("%s: cannot read the figure's script: %s (set TUNECOST_PLOTS_DIR to the folder holding it)",
                       script, strerror(errno));
    else
        rc = tc_gnuplot_find(gnuplot, sizeof gnuplot);
    for (int k = 0; k < 2 && rc == 0; k++) {
        snprintf(out, sizeof out, "policies.%s", fmts[k]);
        snprintf(expr, sizeof expr, "fmt='%s'; out='%s'; %s='curves.tsv'; plotsdir='%s'", fmts[k], out,
                 tc_figure_data[TC_FD_POLICIES_CURVES].var, plots_dir);
        rc = tc_gnuplot_run(&j);
    }
    if (rc == 0 && snprintf(log, sizeof log, "%s/gnuplot.log", dir) < (int)sizeof log)
        unlink(log);
    return rc;
}

/* --policies LIST ("all" or names separated by commas) into ops[MAX_POLICIES]: the number of policies, or -1 after
 * a message on stderr (an unknown name, with the known ones; a name listed twice; too many; an empty list). */
static int policy_list(const char *list, const struct policy_ops **ops, int have_prior)
{
    char buf[1024], *save = NULL;
    int n_ops = 0;
    if (strcmp(list, "all") == 0) {
        for (int i = 0; policy_nth(i) != NULL && n_ops < MAX_POLICIES; i++)
            if (have_prior || !policy_nth(i)->needs_prior)
                ops[n_ops++] = policy_nth(i);
        return n_ops;
    }
    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        const struct policy_ops *p = policy_find(tok);
        if (p == NULL) {
            fprintf(stderr, "tunecost policies: --policies: unknown policy '%s'; one of:", tok);
            for (int i = 0; policy_nth(i) != NULL; i++)
                fprintf(stderr, " %s", policy_nth(i)->name);
            fprintf(stderr, "\n");
            return -1;
        }
        for (int i = 0; i < n_ops; i++)
            if (ops[i] == p) {
                fprintf(stderr, "tunecost policies: --policies: '%s' is listed twice\n", tok);
                return -1;
            }
        if (n_ops == MAX_POLICIES) {
            fprintf(stderr, "tunecost policies: --policies: at most %d\n", MAX_POLICIES);
            return -1;
        }
        if (p->needs_prior && !have_prior) {
            fprintf(stderr, "tunecost policies: --policies: '%s' needs --transfer-from TRACE (another GPU's trace)\n",
                    tok);
            return -1;
        }
        ops[n_ops++] = p;
    }
    if (n_ops == 0) {
        fprintf(stderr, "tunecost policies: --policies: expected a comma-separated list, got '%s'\n", list);
        return -1;
    }
    return n_ops;
}

/* The summary table on stdout: one line per policy. */
static void print_scores(const struct pol_curve *c, int n, int atm, const struct trace *t)
{
    const double *rep[MAX_POLICIES];
    double first[MAX_POLICIES];
    for (int i = 0; i < n; i++)
        rep[i] = c[i].atm_boot;
    atm_first_share(rep, n, n > 0 ? c[0].n_boot : 0, first);
    printf("trace %s, GPU %s\n", trace_path(t), trace_get_meta(t)->device_name);
    if (atm)
        printf("%-12s %7s %17s %7s %9s %9s %9s %9s %8s %8s\n", "policy", "score", "95% CI", "first", "t90_s", "t95_s",
               "t99_s", "final", "steps", "stopped");
    else
        printf("%-12s %7s %9s %9s %9s %9s %8s %8s\n", "policy", "score", "t90_s", "t95_s", "t99_s", "final", "steps",
               "stopped");
    for (int i = 0; i < n; i++) {
        if (atm)
            printf("%-12s %7.3f [%6.3f, %6.3f] %6.1f%% ", c[i].policy, c[i].atm_score, c[i].atm_lo, c[i].atm_hi,
                   100 * first[i]);
        else
            printf("%-12s %7.3f ", c[i].policy, c[i].score);
        for (int q = 0; q < 3; q++) { /* a target never reached reads "-" here (the TSVs keep nan) */
            double v = q == 0 ? c[i].t90_s : q == 1 ? c[i].t95_s : c[i].t99_s;
            if (isfinite(v))
                printf("%9.3g ", v);
            else
                printf("%9s ", "-");
        }
        printf("%9.4f %8ld %8ld\n", c[i].final_speedup, c[i].n_steps, c[i].n_budget_stops);
    }
}

/* A note on stderr when on some input random search reaches the score's cutoff after the budget (the range then
 * ends at the budget: the score compares less than the methodology's whole range there). */
static void note_late_ranges(const struct pol_curve *c, double budget_s)
{
    int late = 0, usable = 0;
    for (int i = 0; c->atm != NULL && i < c->n_inputs; i++) {
        usable += c->atm[i].usable;
        late += c->atm[i].usable && c->atm[i].t_cut_s > c->atm[i].t1_s;
    }
    if (late > 0)
        fprintf(stderr, "tunecost policies: note: on %d of %d input(s) random search reaches the score's cutoff only "
                        "after the %g s budget; their range ends at the budget (atm.tsv: t1_s, t_cut_s)\n", late,
                usable, budget_s);
}

/* One warning line when the ranking rests on fewer than POL_FEW_INPUTS inputs or POL_FEW_RUNS runs (its CIs and
 * shares of first place then say little), and, when no prior was given or found, a note naming each policy left out
 * for want of one. */
#define POL_FEW_INPUTS 8
#define POL_FEW_RUNS 10
static void policies_warn(int n_inputs, int runs, const struct policy_ops *const *ops, int n_ops, int quiet,
                          int have_prior)
{
    if (n_inputs < POL_FEW_INPUTS || runs < POL_FEW_RUNS)
        fprintf(stderr, "tunecost policies: warning: the ranking rests on %d input(s) x %d run(s) (fewer than %d "
                        "inputs or %d runs): its CIs and 'first' shares say little\n", n_inputs, runs,
                POL_FEW_INPUTS, POL_FEW_RUNS);
    for (int i = 0; !quiet && !have_prior && policy_registry[i] != NULL; i++) {
        int in = 0;
        for (int k = 0; k < n_ops; k++)
            in |= ops[k] == policy_registry[i];
        if (!in && policy_registry[i]->needs_prior)
            fprintf(stderr, "tunecost policies: note: %s needs another GPU's trace (--transfer-from T); not run\n",
                    policy_registry[i]->name);
    }
}

/* --strategy-options checked against the chosen policies, and joined with --max-fevals (either sets both):
 * o->s.strategy_options and o->s.max_configs. 0, or -1 after a message. */
static int policies_strategy_options(struct policies_opts *o, const struct policy_ops **ops, int n_ops)
{
    const char *given = o->strategy_options != NULL ? o->strategy_options : "";
    if (pol_options_check(given, ops, n_ops) != 0) {
        fprintf(stderr, "tunecost policies: %s\n", tc_errmsg());
        return -1;
    }
    if (strlen(given) > 1000) {
        fprintf(stderr, "tunecost policies: --strategy-options: at most 1000 characters\n");
        return -1;
    }
    struct pol_view probe = {.options = given};
    double mf = pol_option(&probe, "max_fevals", 0);
    if (o->s.max_configs == 0 && mf >= 1 && mf <= INT_MAX)
        o->s.max_configs = (int)mf;
    if (o->s.max_configs > 0)
        snprintf(o->opt_buf, sizeof o->opt_buf, "%s%smax_fevals=%d", given, given[0] ? "," : "", o->s.max_configs);
    else
        snprintf(o->opt_buf, sizeof o->opt_buf, "%s", given);
    o->s.strategy_options = o->opt_buf;
    return 0;
}

/* Checks the options together and opens the output directory: 0, or 2 after a message. */
static int policies_begin(struct policies_opts *o, const char *path, const struct policy_ops **ops, int *n_ops,
                          struct tc_outdir *od)
{
    static const char *const pol_outputs[] = {"curves.tsv",   "scores.tsv",   "atm.tsv", "atm-curves.tsv",
                                              "policies.png", "policies.svg", "runs"};
    const char *inputs[2] = {path, o->prior};
    long nc = sysconf(_SC_NPROCESSORS_ONLN); /* -j 0 (the shared meaning): all online cores, at most 64 */
    int j = o->threads > 0 ? o->threads : nc < 1 ? 1 : (int)nc;
    o->s.threads = j > 64 ? 64 : j;
    o->s.stop_rule = (enum pol_stop_rule)o->stop;
    if (o->score_kind == 1)
        o->s.atm_points = 0; /* --score area: the methodology's score is not computed */
    o->s.runs_log = o->runs_log == 1;
    if ((*n_ops = policy_list(o->list, ops, o->prior != NULL)) < 0)
        return 2;
    if (policies_strategy_options(o, ops, *n_ops) != 0)
        return 2;
    if (tc_output_check("-o", o->out, 1, inputs, o->prior != NULL ? 2 : 1) != 0 ||
        tc_outdir_replaceable(o->out, "policies (curves.tsv, scores.tsv, atm*.tsv, policies.png|svg, runs/)", NULL,
                              pol_outputs, 7) != 0 ||
        tc_outdir_begin(od, o->out) != 0) {
        fprintf(stderr, "tunecost policies: %s\n", tc_errmsg());
        return 2;
    }
    return 0;
}

/* Every policy over the data, curves[i] for ops[i]; the number done, or -1 after a message (*rc set). */
static int policies_run(const struct policies_opts *o, const struct pol_data *d, const struct policy_ops **ops,
                        int n_ops, const double *grid, struct pol_curve *curves, int *rc)
{
    double t0 = tc_now_s();
    int n_done = 0;
    for (int i = 0; i < n_ops; i++) {
        if (pol_evaluate(d, ops[i], &o->s, grid, &curves[i]) != 0) {
            fprintf(stderr, "tunecost policies: %s\n", tc_errmsg());
            *rc = tc_err_exit_code(); /* 2: no input has a valid run, a missing prior; 1: memory, threads */
            return -1 - n_done;
        }
        n_done++;
        if (!o->quiet && isatty(STDERR_FILENO))
            fprintf(stderr, "\rpolicies: %d/%d done (%.1f s)", n_done, n_ops, tc_now_s() - t0);
    }
    if (!o->quiet && isatty(STDERR_FILENO))
        fputc('\n', stderr);
    return n_done;
}

/* The notes on stderr: simulate's on the compile times this trace lacks (imputed), and one when --rep-ms asks for
 * more than the trace recorded per configuration (what is replayed then). */
static void policies_notes(const struct trace *t, const struct pol_settings *s)
{
    long pairs, no_iso, failed, failed_nc;
    sim_trace_imputed(t, &pairs, &no_iso, &failed, &failed_nc);
    sim_note_imputed(stderr, "policies", no_iso, failed_nc, s->compile_model == SIM_CM_MEASURED,
                     s->failed_cost == SIM_FAILED_TRITON, trace_get_meta(t)->compile_jobs,
                     trace_n_compile_warmup(t) <= 0);
    double rec = trace_get_meta(t)->rep_ms;
    if (isfinite(rec) && rec > 0 && s->rep_ms > rec)
        fprintf(stderr, "tunecost policies: note: --rep-ms %g is beyond the %g ms of timed executions the trace "
                        "recorded per configuration; a configuration is replayed with all its recorded executions "
                        "(about %g ms), so repetition times above %g ms (halving and hyperband scale theirs) all "
                        "give the same steps\n", s->rep_ms, rec, rec, rec);
}

/* "wrote N files in DIR: a, b, ..." from the committed directory itself (it holds this command's output alone), so
 * the count is what is there: the TSVs, and the figures when they were drawn. */
static void print_written(const char *dir, double secs)
{
    struct dirent **names = NULL;
    int n = scandir(dir, &names, NULL, alphasort), shown = 0;
    char list[1024] = "";
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.' && len < sizeof list)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", shown++ ? ", " : "", names[i]->d_name);
        free(names[i]);
    }
    free(names);
    fprintf(stderr, "tunecost policies: wrote %d files in %s: %s (%.2f s)\n", shown, dir, list, secs);
}

/* The lines on stderr that say what is replayed and how it is charged. */
static void print_banner(const struct policies_opts *o, const char *path, const struct trace *t,
                         const struct pol_data *d, const struct trace *other, int n_ops)
{
    fprintf(stderr, "tunecost policies: %s (%s: %d inputs x %d configurations), %d policies x %d runs, budget %g "
            "s, rep %g ms, failed cost %s\n", path, trace_get_meta(t)->device_name, pol_data_n_inputs(d),
            trace_n_configs(t), n_ops, o->s.runs, o->s.budget_s, o->s.rep_ms,
            o->s.failed_cost == SIM_FAILED_TRITON ? "triton" : "none");
    if (o->s.source_costs)
        fprintf(stderr, "tunecost policies: costs as the source recorded them (Kernel Tuner's simulation mode): "
                        "a first visit is charged its compile + verification + benchmark time, a revisit "
                        "nothing; the %s ranks and scores%s\n",
                pol_trace_imported(t) ? "source's objective" : "median of the timed executions",
                o->costs == 0 ? " (--costs replay: tunecost's replay)" : "");
    else if (pol_trace_imported(t))
        fprintf(stderr, "tunecost policies: costs replayed from the recorded executions (--costs replay); the "
                        "source's objective ranks and scores\n");
    if (other != NULL)
        fprintf(stderr, "tunecost policies: transfer's prior: %s (%s: %d inputs x %d configurations)\n", o->prior,
                trace_get_meta(other)->device_name, trace_n_inputs(other), trace_n_configs(other));
}

int cmd_policies(int argc, char **argv)
{
    struct policies_opts o = {0};
    const char *path;
    char full_buf[PATH_MAX], other_buf[PATH_MAX];
    const struct policy_ops *ops[MAX_POLICIES];
    struct pol_curve curves[MAX_POLICIES];
    int n_ops = 0, n_done = 0, rc, first;
    struct trace *t = NULL, *other = NULL;
    struct pol_data *d = NULL;
    struct tc_outdir od;
    double *grid = NULL, t0;

    memset(&od, 0, sizeof od);
    memset(curves, 0, sizeof curves);
    pol_settings_default(&o.s);
    o.s.compile_jobs = 16; /* as simulate's --compile-factor; sequential (the default) ignores it */
    if ((rc = tc_cli_parse(&policies_cmd, argc, argv, &o, &first)) != TC_CLI_RUN)
        return rc;
    /* The default TRACE: the shipped full-space trace with another GPU's shipped trace as the prior, else the
     * reference (pol_shipped_default). */
    o.s.failed_cost = (enum sim_failed_cost)o.failed_cost;
    o.s.compile_model = (enum sim_compile_model)o.compile_model;
    o.s.compile = sim_compile_for_model(o.s.compile_model, (enum sim_compile)o.compile);
    if (first < argc) {
        path = argv[first];
    } else if (pol_shipped_default(full_buf, other_buf, sizeof full_buf) == 0) {
        path = full_buf; /* the shipped full-space trace, else the reference; the other GPU's as the prior */
        o.prior = o.prior != NULL ? o.prior : other_buf[0] != '\0' ? other_buf : NULL;
    } else {
        path = tc_paths_default_trace();
    }
    if ((rc = policies_begin(&o, path, ops, &n_ops, &od)) != 0)
        return rc;
    rc = 2;
    if ((t = trace_open(path)) == NULL || (d = pol_data_from_trace(t)) == NULL) {
        fprintf(stderr, "tunecost policies: %s\n", tc_errmsg());
        rc = tc_err_exit_code();
        goto out;
    }
    o.s.source_costs = o.costs == 2 || (o.costs == 0 && pol_trace_imported(t));
    if (o.s.source_costs)
        o.s.failed_cost = SIM_FAILED_TRITON; /* nothing known invalid: a cache's failures are visited and paid */
    if (!o.quiet && !o.s.source_costs) /* imputation notes concern tunecost's replay, not recorded costs */
        policies_notes(t, &o.s);
    if (o.prior != NULL && ((other = trace_open(o.prior)) == NULL || pol_data_set_prior(d, t, other) != 0)) {
        fprintf(stderr, "tunecost policies: --transfer-from: %s\n", tc_errmsg());
        goto out;
    }
    if ((grid = malloc((size_t)o.s.n_grid * sizeof *grid)) == NULL) {
        fprintf(stderr, "tunecost policies: out of memory\n");
        rc = 1;
        goto out;
    }
    pol_grid(o.s.budget_s * 1e-4 > 1e-3 ? o.s.budget_s * 1e-4 : 1e-3, o.s.budget_s, o.s.n_grid, grid);
    if (!o.quiet)
        print_banner(&o, path, t, d, other, n_ops);
    t0 = tc_now_s();
    if ((n_done = policies_run(&o, d, ops, n_ops, grid, curves, &rc)) < 0) {
        n_done = -1 - n_done;
        goto out;
    }
    rc = 1;
    if (!o.quiet && o.score_kind == 0 && n_done > 0)
        note_late_ranges(&curves[0], o.s.budget_s);
    if (write_outputs(od.tmp, curves, n_done, t, o.prior, &o.s, o.score_kind == 0, o.atm_curves) != 0 ||
        (o.s.runs_log && write_runs_log(od.tmp, curves, n_done, t, d, &o.s) != 0)) {
        fprintf(stderr, "tunecost policies: %s\n", tc_errmsg());
        goto out;
    }
    if (!o.no_figures && policies_draw(od.tmp, tc_paths_dir(TC_PATHS_PLOTS)) != 0) {
        fprintf(stderr, "tunecost policies: the figure was not drawn: %s; %s left as it was (--no-figures writes "
                        "the TSV files without it)\n", tc_errmsg(), o.out);
        goto out;
    }
    if (tc_outdir_commit(&od) != 0) {
        fprintf(stderr, "tunecost policies: %s\n", tc_errmsg());
        goto out;
    }
    policies_warn(pol_data_n_inputs(d), o.s.runs, ops, n_ops, o.quiet, other != NULL);
    if (!o.quiet) {
        print_scores(curves, n_done, o.score_kind == 0, t);
        print_written(o.out, tc_now_s() - t0);
    }
    rc = 0;
out:
    tc_outdir_abort(&od);
    for (int i = 0; i < n_done; i++)
        pol_curve_free(&curves[i]);
    free(grid);
    pol_data_free(d);
    trace_close(t);
    trace_close(other);
    return rc;
}
