/* cmd_report.c — `tunecost report`: from one trace, every figure and table of the paper as a report directory
 * (index.html, summary.md with computed Findings, every table as TSV, every figure as PNG and SVG).
 * Simulations run in-process through simulate/sim.h; figures are drawn by the gnuplot scripts in plots/, which
 * read only the TSV files written here. The report is built in a temporary directory beside DIR and renamed into
 * place at the end, so an interrupted run leaves DIR as it was. */
#include "frontier.h"
#include "report.h"
#include "sim.h"
#include "tables.h"
#include "tc_atomic.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_paths.h"
#include "trace.h"
#include "tunecost.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <math.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

/* ---- the command line ------------------------------------------------------------------------------------ */

struct report_cli {
    struct report_options o;
    const char *compare, *flush, *scaling, *recorded; /* as given: a path, "none", or NULL (the default beside TRACE) */
    int quiet;
    int list_outputs;
};

static int parse_input(const char *arg, void *field)
{
    struct report_options *o = field;
    if (tc_parse_shape("--input", arg, 3, INT64_MAX / 4, o->input_dims) != 0)
        return -1;
    o->input_given = 1;
    snprintf(o->input_label, sizeof o->input_label, "%s", arg);
    return 0;
}

#define RO(f) offsetof(struct report_cli, f)
static const struct tc_optdecl report_opts[] = {
    TC_OPT_OUTPUT_REQUIRED(struct report_cli, o.out_dir, "DIR", "where to write the report"),
    {.name = "input", .letter = 'i', .arg = TC_ARG_CALL, .field = RO(o), .call = parse_input, .metavar = "MxNxK",
     .def_doc = "4096x256x4096; the first input if the trace lacks it",
     .help = "input of the single-input figures (Figure 3, Table 6, models)"},
    TC_OPT_SEED(struct report_cli, o.seed, "1", "seed of every simulation; same seed, same files"),
    {.name = "triton-trace", .letter = 't', .arg = TC_ARG_STRING, .field = RO(o.triton_path), .metavar = "TRACE",
     .def_doc = "with no TRACE, the shipped gemm-h200-triton.h5 if there is one; else none, and the report says "
                "the figure needs one",
     .help = "a triton-protocol trace for the estimation study (Figure 2); `none`: skip it"},
    {.name = "compare-trace", .arg = TC_ARG_STRING, .field = RO(compare), .metavar = "TRACE",
     .def_doc = "the gemm-h200-mmasync.h5 beside TRACE, if there is one and it is not TRACE",
     .help = "a second kernel family's trace of the same inputs, compared with TRACE (best vs cuBLAS, frontiers, "
             "compile share); `none`: skip"},
    {.name = "flush-study", .arg = TC_ARG_STRING, .field = RO(flush), .metavar = "DIR",
     .def_doc = "the flush-study/ beside TRACE, if there is one",
     .help = "traces of the same inputs with different --flush-bytes, for Tables 3 and 5; `none`: skip"},
    {.name = "scaling", .arg = TC_ARG_STRING, .field = RO(scaling), .metavar = "DIR",
     .def_doc = "the compile-scaling/ beside TRACE, if any",
     .help = "compile-scaling tables (scaling-*.tsv of `collect --compile-only`) for Table 7; `none`: skip"},
    {.name = "recorded", .arg = TC_ARG_STRING, .field = RO(recorded), .metavar = "DIR",
     .def_doc = "the recorded/ beside TRACE, if any",
     .help = "a `tunecost record` trace and its `collect --protocol triton` imitation, for \"A real autotuner's "
             "session\"; `none`: skip"},
    {.name = "no-figures", .arg = TC_ARG_FLAG, .field = RO(o.no_figures),
     .help = "draw no figure (no gnuplot needed); without it, a figure that has its data and is not drawn fails the "
             "report (exit 1, DIR left as it was)"},
    TC_OPT_SAMPLES(struct report_cli, o.samples, "500", "hyperparameter samples per simulation (the paper's)"),
    TC_OPT_RUNS(struct report_cli, o.runs, "30", "simulated tuning runs per sample and input (the paper's)"),
    TC_OPT_COMPILE_FACTOR(struct report_cli, o.compile_factor, "16",
                          "compile workers of the parallel and pipelined scenarios"),
    {.name = "paper", .arg = TC_ARG_FLAG, .field = RO(o.paper),
     .help = "every simulation takes the paper's choices, as `simulate --paper` (failed configurations not drawn, "
             "one compile time as measured, parallel compilation the ideal bound, one input per sample); "
             "--failed-cost and --compile-model still apply; the labels then name the paper's model"},
    {.name = "failed-cost", .arg = TC_ARG_NAME, .field = RO(o.failed_cost), .names = sim_failed_cost_names,
     .n_names = 2, .metavar = "C",
     .def_doc = "triton; none with --paper",
     .help = "as simulate's: triton (failed configurations drawn, charged compile + failed launch) or none"},
    {.name = "compile-model", .arg = TC_ARG_NAME, .field = RO(o.compile_model), .names = sim_compile_model_names,
     .n_names = 2, .metavar = "M", .def_doc = "measured; paper with --paper",
     .help = "as simulate's: measured (sequential charges isolated compile times where the trace has them) or "
             "paper (the contended compile_ms everywhere, parallel = the ideal bound)"},
    TC_OPT_THREADS(struct report_cli, o.threads, "0", "simulation threads, 0 = all cores; never changes the output"),
    {.name = "list-outputs", .arg = TC_ARG_FLAG, .field = RO(list_outputs), .alone = 1,
     .help = "list what each section of the report writes (its TSV tables, the figures' data it feeds, whether "
             "it adds findings), in the order they run, and exit; needs no TRACE or -o"},
    TC_OPT_FORCE(struct report_cli, o.force),
    TC_OPT_QUIET(struct report_cli, quiet),
    TC_OPT_HELP,
    TC_OPT_END,
};
#undef RO

const struct tc_cmd report_cmd = {
    .name = "report",
    .summary = "write every figure and table of the paper as an HTML report",
    .synopsis = "[TRACE] -o DIR [--input MxNxK] [--seed S] [--triton-trace T] [options]",
    .description =
        "Write every figure and table of the paper for TRACE as a report directory: DIR/index.html (opens\n"
        "offline), DIR/summary.md with a Findings section computed from the data, every table as TSV and every\n"
        "figure as PNG and SVG (drawn by gnuplot; --no-figures: the rest without it). Simulations run in-process\n"
        "with simulate's default cost model (failed configurations charged, isolated compile times for\n"
        "sequential compilation, parallel compilation list-scheduled), or the paper's with --paper\n"
        "(docs/simulation.md); the summary names the model used. The report is built beside DIR and moved into place when\n"
        "complete; an existing report in DIR is replaced.\n"
        "\n"
        "Figures need gnuplot (Debian: gnuplot-nox) on PATH; the scripts (plots/ of the source tree, or\n"
        "share/tunecost/plots when installed; $TUNECOST_PLOTS_DIR overrides) are copied into DIR/plots, so\n"
        "`cd DIR && gnuplot -e \"fmt='svg'; out='fig3.svg'\" plots/fig3-frontier.gp` redraws one.\n",
    .operands = "TRACE\tthe trace to report on (default: the shipped reference trace, @TRACE:reference@)\n",
    .opts = report_opts,
    .exit_status = "0 ok; 1 a failure while working (disk, memory, a figure asked for and not drawn); 2 usage "
                   "error or an input the report cannot use; 130 interrupted (DIR left as it was).",
    .examples = "tunecost report -o report                     # the reference trace; open report/index.html\n"
                "tunecost report data/gemm-h200.h5 -o report --triton-trace data/gemm-h200-triton.h5\n"
                "tunecost report data/gemm-h200-mmasync.h5 -o old --compare-trace data/gemm-h200.h5\n"
                "tunecost report -o quick --compare-trace none --flush-study none --scaling none\n"
                "tunecost report data/gemm-h200.h5 -o quick --samples 100 --runs 10 --input 1024x1024x1024\n"
                "tunecost report -o report --seed 7           # another draw of the simulations\n"
                "tunecost report --list-outputs               # what each section writes\n",
    .min_operands = 0,
    .max_operands = 1,
    .operand_name = "TRACE (a triton-protocol trace goes with --triton-trace)",
};

/* A study option: "none" is NULL, else the value; unset (NULL) takes the default beside the trace. */
static const char *study(const char *given, const char *trace, const char *name, int want_dir, char *buf,
                         size_t len)
{
    if (given != NULL)
        return strcmp(given, "none") == 0 ? NULL : given;
    return tc_paths_beside(trace, name, want_dir, buf, len);
}

static void progress(const char *msg, void *arg)
{
    if (!*(int *)arg)
        fprintf(stderr, "report: %s\n", msg);
}

/* -i names an input of the trace: else the message simulate and export give, and -1. A trace that cannot be read
 * is left to the report (its message names the file). */
static int check_input(const struct report_options *o)
{
    struct trace *t = trace_open(o->trace_path);
    int nd, n, found;
    char eg[128];
    if (t == NULL)
        return 0;
    nd = trace_n_dims(t);
    n = trace_n_inputs(t);
    found = nd == 3 && trace_find_input(t, o->input_dims) >= 0;
    if (!found)
        fprintf(stderr, "tunecost report: --input %s: not among the %d inputs of %s (e.g. %s; `tunecost info %s` "
                "lists them)\n", o->input_label, n, o->trace_path,
                n > 0 && nd > 0 ? tc_format_shape(trace_dims(t, 0), nd, eg, sizeof eg) : "none", o->trace_path);
    trace_close(t);
    return found ? 0 : -1;
}

/* The studies' inputs: given, "none", or the default beside the trace; 2 after a usage error, else 0. */
static int report_resolve_inputs(struct report_cli *c, int trace_given, char bufs[5][PATH_MAX])
{
    struct report_options *o = &c->o;
    struct stat st;
    if (o->triton_path != NULL && strcmp(o->triton_path, "none") == 0)
        o->triton_path = NULL;
    else if (o->triton_path == NULL && !trace_given &&
             (o->triton_path = tc_paths_role("triton-protocol", bufs[0], PATH_MAX)) != NULL && !c->quiet)
        fprintf(stderr, "report: with the triton-protocol trace shipped beside it, %s (--triton-trace none: "
                        "without)\n", o->triton_path);
    o->compare_path = study(c->compare, o->trace_path, tc_paths_role_file("second-family"), 0, bufs[1],
                             PATH_MAX);
    o->flush_dir = study(c->flush, o->trace_path, "flush-study", 1, bufs[2], PATH_MAX);
    o->scaling_dir = study(c->scaling, o->trace_path, "compile-scaling", 1, bufs[3], PATH_MAX);
    o->recorded_dir = study(c->recorded, o->trace_path, "recorded", 1, bufs[4], PATH_MAX);
    if (o->flush_dir != NULL && (stat(o->flush_dir, &st) != 0 || !S_ISDIR(st.st_mode)))
        return tc_cli_usage_error("report", "--flush-study %s: expected a directory of traces (or none)",
                                  o->flush_dir);
    if (o->recorded_dir != NULL && (stat(o->recorded_dir, &st) != 0 || !S_ISDIR(st.st_mode)))
        return tc_cli_usage_error("report", "--recorded %s: expected a directory with a recorded trace and its "
                                  "imitation (or none)", o->recorded_dir);
    if (o->scaling_dir != NULL && (stat(o->scaling_dir, &st) != 0 || !S_ISDIR(st.st_mode)))
        return tc_cli_usage_error("report", "--scaling %s: expected a directory of scaling-*.tsv files (or none)",
                                  o->scaling_dir);
    return 0;
}

/* Writes the report with Ctrl-C (and SIGTERM) turned into a clean stop: the current step finishes, the temporary
 * directory is removed, exit 130. A second signal kills. Returns report_write's result. */
static int report_write_interruptible(struct report_options *o)
{
    struct sigaction sa, old_int, old_term;
    int rc;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = (int)SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    rc = report_write(o);
    if (rc != 0 && !interrupted)
        fprintf(stderr, "tunecost report: %s\n", tc_errmsg());
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    struct report_cli c = {0};
    struct report_options *o = &c.o;
    char bufs[5][PATH_MAX];
    int first, rc;

    report_options_default(o);
    if ((rc = tc_cli_parse(&report_cmd, argc, argv, &c, &first)) != TC_CLI_RUN)
        return rc;
    if (c.list_outputs) {
        if (report_list_outputs(stdout) != 0) {
            fprintf(stderr, "tunecost report: %s\n", tc_errmsg());
            return 1;
        }
        return 0;
    }
    o->trace_path = first < argc ? argv[first] : tc_paths_default_trace();
    if (o->input_given && check_input(o) != 0) /* before any note or progress line */
        return 2;
    if (report_resolve_inputs(&c, first < argc, bufs) != 0)
        return 2;
    o->plots_dir = tc_paths_dir(TC_PATHS_PLOTS);
    o->progress = progress;
    o->progress_arg = &c.quiet;
    o->progress_tty = !c.quiet && isatty(STDERR_FILENO);
    o->interrupted = &interrupted;
    if (first >= argc && access(o->trace_path, F_OK) != 0) {
        fprintf(stderr, "tunecost report: no TRACE given and the reference trace %s is missing (it ships in data/ "
                        "of the source tree); name a trace: tunecost report TRACE -o DIR\n", o->trace_path);
        return 2;
    }
    {
        const char *inputs[5] = {o->trace_path, o->triton_path, o->compare_path, o->flush_dir, o->scaling_dir};
        if (tc_output_check("-o", o->out_dir, 1, inputs, 5) != 0) {
            fprintf(stderr, "tunecost report: %s\n", tc_errmsg());
            return 2;
        }
    }
    rc = report_write_interruptible(o);
    if (interrupted) {
        fprintf(stderr, "tunecost report: interrupted; %s left as it was\n", o->out_dir);
        return 130;
    }
    if (rc == 0 && !c.quiet) /* the result's address, on stdout; -q prints only errors and warnings */
        printf("report: %s/index.html\n", o->out_dir);
    if (rc == 0 && o->n_missing > 0 && !(c.quiet && o->no_figures)) /* -q --no-figures: as asked, nothing to say */
        fprintf(c.quiet ? stderr : stdout, "%sreport: %d figure(s) not drawn (%s); see %s/summary.md\n",
                c.quiet ? "tunecost " : "", o->n_missing, o->missing_why, o->out_dir);
    return rc == 0 ? 0 : (rc == REPORT_EBADINPUT && !tc_err_is_env() ? 2 : 1);
}
