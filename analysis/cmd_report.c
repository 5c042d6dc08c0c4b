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
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ids of report's own long options (no short letter) */
enum { O_COMPARE = TC_CLI_LOCAL, O_FLUSH, O_SCALING, O_NO_FIGURES, O_RECORDED };

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

static void usage(FILE *fp)
{
    struct report_options o;
    report_options_default(&o);
    fprintf(fp,
            "usage: tunecost report [TRACE] -o DIR [--input MxNxK] [--seed S] [--triton-trace T] [options]\n"
            "\n"
            "Write every figure and table of the paper for TRACE as a report directory: DIR/index.html (opens\n"
            "offline), DIR/summary.md with a Findings section computed from the data, every table as TSV and every\n"
            "figure as PNG and SVG (drawn by gnuplot; --no-figures: the rest without it). Simulations run in-process\n"
            "with the paper's model (docs/simulation.md). The report is built beside DIR and moved into place when\n"
            "complete; an existing report in DIR is replaced.\n"
            "\n"
            "TRACE defaults to the shipped reference trace: %s\n"
            "\n"
            "Options:\n"
            "  -o, --output DIR        where to write the report (required)\n"
            "  -i, --input MxNxK       input of the single-input figures (Figure 3, Table 6, models)\n"
            "                          (default %s; the first input if the trace lacks it)\n"
            "      --seed S            seed of every simulation; same seed, same files (default %llu)\n"
            "  -t, --triton-trace T    a triton-protocol trace for the estimation study (Figure 2); `none`: skip it\n"
            "                          (default: with no TRACE, the shipped gemm-h200-triton.h5 if there is one;\n"
            "                          else none, and the report says the figure needs one)\n"
            "      --compare-trace T   a second kernel family's trace of the same inputs, compared with TRACE (best vs\n"
            "                          cuBLAS, frontiers, compile share); `none`: skip (default: the\n"
            "                          gemm-h200-mmasync.h5 beside TRACE, if there is one and it is not TRACE)\n"
            "      --flush-study DIR   traces of the same inputs with different --flush-bytes, for Tables 3 and 5;\n"
            "                          `none`: skip (default: the flush-study/ beside TRACE, if there is one)\n"
            "      --scaling DIR       compile-scaling tables (scaling-*.tsv of `collect --compile-only`) for\n"
            "                          Table 7; `none`: skip (default: the compile-scaling/ beside TRACE, if any)\n"
            "      --recorded DIR      a `tunecost record` trace and its `collect --protocol triton` imitation, for\n"
            "                          \"A real autotuner's session\"; `none`: skip (default: the recorded/ beside\n"
            "                          TRACE, if any)\n"
            "  -s, --samples N         hyperparameter samples per simulation (default %d, the paper's)\n"
            "  -r, --runs N            simulated tuning runs per sample and input (default %d, the paper's)\n"
            "  -c, --compile-factor F  compile workers of the parallel and pipelined scenarios (default %d)\n"
            "  -j, --threads N         simulation threads; never changes the output (default 0 = all cores)\n"
            "      --no-figures        draw no figure (no gnuplot needed); without it, a figure that has its data\n"
            "                          and is not drawn fails the report (exit 1, DIR left as it was)\n"
            "  -f, --force             replace DIR even if it is not a tunecost report\n"
            "  -q, --quiet             no progress on stderr\n"
            "  -h, --help              this help\n"
            "\n"
            "Examples:\n"
            "  tunecost report -o report                     # the reference trace; open report/index.html\n"
            "  tunecost report data/gemm-h200.h5 -o report --triton-trace data/gemm-h200-triton.h5\n"
            "  tunecost report data/gemm-h200-mmasync.h5 -o old --compare-trace data/gemm-h200.h5\n"
            "  tunecost report -o quick --compare-trace none --flush-study none --scaling none\n"
            "  tunecost report data/gemm-h200.h5 -o quick --samples 100 --runs 10 --input 1024x1024x1024\n"
            "  tunecost report -o report --seed 7           # another draw of the simulations\n"
            "\n"
            "Figures need gnuplot (Debian: gnuplot-nox) on PATH; the scripts are in %s and are copied into\n"
            "DIR/plots, so `cd DIR && gnuplot -e \"fmt='svg'; out='fig3.svg'\" plots/fig3-frontier.gp` redraws one.\n",
            tc_paths_default_trace(), o.input_label, (unsigned long long)o.seed, o.samples, o.runs, o.compile_factor,
            tc_paths_dir(TC_PATHS_PLOTS));
}

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

int cmd_report(int argc, char **argv)
{
    static const struct option longopts[] = {
        TC_CLI_OPT_OUTPUT,
        TC_CLI_OPT_INPUT,
        TC_CLI_OPT_SEED,
        {"triton-trace", required_argument, NULL, 't'},
        {"compare-trace", required_argument, NULL, O_COMPARE},
        {"flush-study", required_argument, NULL, O_FLUSH},
        {"scaling", required_argument, NULL, O_SCALING},
        {"no-figures", no_argument, NULL, O_NO_FIGURES},
        {"recorded", required_argument, NULL, O_RECORDED},
        TC_CLI_OPT_SAMPLES,
        TC_CLI_OPT_RUNS,
        TC_CLI_OPT_COMPILE_FACTOR,
        TC_CLI_OPT_THREADS,
        TC_CLI_OPT_FORCE,
        TC_CLI_OPT_QUIET,
        TC_CLI_OPT_HELP,
        TC_CLI_OPT_END,
    };
    struct report_options o;
    struct sigaction sa, old_int, old_term;
    char triton_buf[PATH_MAX], cmp_buf[PATH_MAX], flush_buf[PATH_MAX], scaling_buf[PATH_MAX], rec_buf[PATH_MAX];
    const char *cmp = NULL, *flush = NULL, *scaling = NULL, *recorded = NULL;
    int opt, quiet = 0, rc;

    report_options_default(&o);
    optind = 1;
    while ((opt = tc_cli_next("report", argc, argv, "o:i:t:s:r:c:j:fqh", longopts)) != -1) {
        int bad = 0;
        switch (opt) {
        case TC_CLI_ERROR:
            return 2;
        case 'o':
            o.out_dir = optarg;
            break;
        case 'i':
            bad = tc_parse_shape("--input", optarg, 3, INT64_MAX / 4, o.input_dims);
            if (!bad) {
                o.input_given = 1;
                snprintf(o.input_label, sizeof o.input_label, "%s", optarg);
            }
            break;
        case TC_CLI_SEED:
            bad = tc_cli_seed(optarg, &o.seed);
            break;
        case 't':
            o.triton_path = optarg;
            break;
        case O_COMPARE:
            cmp = optarg;
            break;
        case O_FLUSH:
            flush = optarg;
            break;
        case O_SCALING:
            scaling = optarg;
            break;
        case O_NO_FIGURES:
            o.no_figures = 1;
            break;
        case O_RECORDED:
            recorded = optarg;
            break;
        case 's':
            bad = tc_cli_samples(optarg, &o.samples);
            break;
        case 'r':
            bad = tc_cli_runs(optarg, &o.runs);
            break;
        case 'c':
            bad = tc_cli_compile_factor(optarg, &o.compile_factor);
            break;
        case 'j':
            bad = tc_cli_threads(optarg, &o.threads);
            break;
        case 'f':
            o.force = 1;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            return tc_cli_usage_error("report", "unknown option '%s'", argv[optind - 1]);
        }
        if (bad)
            return tc_cli_usage_error("report", "%s", tc_errmsg());
    }
    if (argc - optind > 1)
        return tc_cli_usage_error("report", "expected at most one TRACE, got %d (a triton-protocol trace goes with "
                                  "--triton-trace)", argc - optind);
    if (o.out_dir == NULL)
        return tc_cli_usage_error("report", "missing -o DIR (where to write the report)");
    o.trace_path = optind < argc ? argv[optind] : tc_paths_default_trace();
    if (o.triton_path != NULL && strcmp(o.triton_path, "none") == 0)
        o.triton_path = NULL;
    else if (o.triton_path == NULL && optind >= argc &&
             (o.triton_path = tc_paths_shipped("gemm-h200-triton.h5", 0, triton_buf, sizeof triton_buf)) != NULL &&
             !quiet)
        fprintf(stderr, "report: with the triton-protocol trace shipped beside it, %s (--triton-trace none: "
                        "without)\n", o.triton_path);
    o.compare_path = study(cmp, o.trace_path, "gemm-h200-mmasync.h5", 0, cmp_buf, sizeof cmp_buf);
    o.flush_dir = study(flush, o.trace_path, "flush-study", 1, flush_buf, sizeof flush_buf);
    o.scaling_dir = study(scaling, o.trace_path, "compile-scaling", 1, scaling_buf, sizeof scaling_buf);
    o.recorded_dir = study(recorded, o.trace_path, "recorded", 1, rec_buf, sizeof rec_buf);
    {
        struct stat st;
        if (o.flush_dir != NULL && (stat(o.flush_dir, &st) != 0 || !S_ISDIR(st.st_mode)))
            return tc_cli_usage_error("report", "--flush-study %s: expected a directory of traces (or none)",
                                      o.flush_dir);
        if (o.recorded_dir != NULL && (stat(o.recorded_dir, &st) != 0 || !S_ISDIR(st.st_mode)))
            return tc_cli_usage_error("report", "--recorded %s: expected a directory with a recorded trace and its "
                                      "imitation (or none)", o.recorded_dir);
        if (o.scaling_dir != NULL && (stat(o.scaling_dir, &st) != 0 || !S_ISDIR(st.st_mode)))
            return tc_cli_usage_error("report", "--scaling %s: expected a directory of scaling-*.tsv files (or none)",
                                      o.scaling_dir);
    }
    o.plots_dir = tc_paths_dir(TC_PATHS_PLOTS);
    o.progress = progress;
    o.progress_arg = &quiet;
    o.progress_tty = !quiet && isatty(STDERR_FILENO);
    o.interrupted = &interrupted;

    /* Ctrl-C: finish the current step, remove the temporary directory, exit 130. A second one kills. */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = (int)SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    if (optind >= argc && access(o.trace_path, F_OK) != 0) {
        fprintf(stderr, "tunecost report: no TRACE given and the reference trace %s is missing (it ships in data/ "
                        "of the source tree); name a trace: tunecost report TRACE -o DIR\n", o.trace_path);
        return 2;
    }
    {
        const char *inputs[5] = {o.trace_path, o.triton_path, o.compare_path, o.flush_dir, o.scaling_dir};
        if (tc_output_check("-o", o.out_dir, 1, inputs, 5) != 0) {
            fprintf(stderr, "tunecost report: %s\n", tc_errmsg());
            return 2;
        }
    }
    rc = report_write(&o);
    if (rc != 0 && !interrupted)
        fprintf(stderr, "tunecost report: %s\n", tc_errmsg());

    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (interrupted) {
        fprintf(stderr, "tunecost report: interrupted; %s left as it was\n", o.out_dir);
        return 130;
    }
    if (rc == 0) {
        printf("report: %s/index.html\n", o.out_dir);
        if (o.n_missing > 0)
            printf("report: %d figure(s) not drawn (%s); see %s/summary.md\n", o.n_missing, o.missing_why,
                   o.out_dir);
    }
    return rc == 0 ? 0 : (rc == REPORT_EBADINPUT ? 2 : 1);
}
