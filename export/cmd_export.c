/* cmd_export.c — `tunecost export kerneltuner|t4 [TRACE] -o FILE [-i INPUT]`: one input of a trace as a Kernel
 * Tuner 1.5 cache file (which Kernel Tuner replays in simulation mode) or as T4 results (the open autotuning
 * results schema; what the autotuning_methodology package reads). The inverse of `tunecost import`;
 * docs/import.md ("Exporting") gives the mapping and what is lost. */
#include "export.h"
#include "tc_atomic.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_optdecl.h"
#include "tc_paths.h"
#include "trace.h"
#include "tunecost.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the command line ------------------------------------------------------------------------------------ */

struct export_opts {
    const char *out, *input;
    int force, quiet;
};

static const struct tc_optdecl export_opts[] = {
    TC_OPT_OUTPUT_REQUIRED(struct export_opts, out, "FILE", "the file to write (complete or absent)"),
    TC_OPT_INPUT(struct export_opts, input, "MxNxK", "the input (problem size) to export [the trace's first]"),
    TC_OPT_FORCE(struct export_opts, force),
    TC_OPT_QUIET(struct export_opts, quiet),
    TC_OPT_HELP,
    TC_OPT_END,
};

const struct tc_cmd export_cmd = {
    .name = "export",
    .summary = "export one input of a trace as a Kernel Tuner cache file or T4 results",
    .synopsis = "FORMAT [TRACE] -o FILE [-i MxNxK] [options]",
    .description =
        "Write one input (problem size) of a trace in another autotuner's format, so that its tuning strategies\n"
        "and analysis tools run on tunecost's measurements. Every configuration of the trace is written with its\n"
        "status, compile time, benchmarking wall time and every timed execution; `time` is the trace's true time\n"
        "(the median of the timed executions, or the time an imported file recorded); string, boolean and float\n"
        "parameters are written as their values. docs/import.md (\"Exporting\") gives the mapping.\n",
    .operands = "FORMAT\tkerneltuner (a Kernel Tuner 1.5 cache, simulation mode) or t4 (T4 results 1.0.0)\n"
                "TRACE\ttrace file (default: @TRACE:reference@)\n",
    .opts = export_opts,
    .exit_status = "0 ok; 1 the output could not be written; 2 usage error, or a missing, unreadable or invalid "
                   "trace.",
    .examples = "tunecost export kerneltuner -i 4096x4096x4096 -o gemm_H200_4096.json\n"
                "tunecost export t4 data/gemm-h200.h5 -i 256x256x256 -o gemm_H200_256_T4.json\n"
                "tunecost import kerneltuner gemm_H200_4096.json -o back.h5   # the round trip\n",
    .min_operands = 1,
    .max_operands = 2,
    .operand_name = "FORMAT and TRACE",
};

/* The input named by -i (a shape of the trace's dimensions), or 0 when arg is NULL; -1 after a message. */
static int pick_input(const struct trace *t, const char *arg)
{
    int64_t dims[8];
    int nd = trace_n_dims(t), i;
    if (arg == NULL)
        return trace_n_inputs(t) > 0 ? 0 : tc_seterr("%s: the trace has no inputs", trace_path(t));
    if (nd < 1 || nd > 8)
        return tc_seterr("%s: the trace has no usable input dimensions", trace_path(t));
    if (tc_parse_shape("--input", arg, nd, INT64_MAX / 2, dims) != 0)
        return -1;
    if ((i = trace_find_input(t, dims)) < 0) { /* the message simulate and report give */
        char eg[128];
        return tc_seterr("--input %s: not among the %d inputs of %s (e.g. %s; `tunecost info %s` lists them)", arg,
                         trace_n_inputs(t), trace_path(t),
                         trace_n_inputs(t) > 0 ? tc_format_shape(trace_dims(t, 0), nd, eg, sizeof eg) : "none",
                         trace_path(t));
    }
    return i;
}

static int write_file(const struct trace *t, int input, int is_t4, const char *out, int force,
                      struct exp_summary *sum)
{
    struct tc_atomic a;
    FILE *fp = tc_atomic_open(&a, out);
    if (fp == NULL)
        return -1;
    if ((is_t4 ? exp_write_t4(t, input, fp, sum) : exp_write_kerneltuner(t, input, fp, sum)) != 0) {
        tc_atomic_abort(&a);
        return tc_preferr("%s", out); /* "OUT: write failed: No space left on device" */
    }
    return tc_atomic_commit_force(&a, force); /* without -f: never over a file made meanwhile */
}

int cmd_export(int argc, char **argv)
{
    static const char *const formats[] = {"kerneltuner", "t4"};
    struct export_opts o = {0};
    const char *path;
    int first, fmt = 0, rc, input;
    struct trace *t = NULL;
    struct exp_summary sum;
    struct stat st;
    if ((rc = tc_cli_parse(&export_cmd, argc, argv, &o, &first)) != TC_CLI_RUN)
        return rc;
    rc = 2;
    if (tc_parse_name("FORMAT", argv[first], formats, 2, &fmt) != 0)
        return tc_cli_usage_error("export", "%s", tc_errmsg());
    path = first + 1 < argc ? argv[first + 1] : tc_paths_default_trace();
    if (tc_output_check("-o", o.out, 0, &path, 1) != 0) {
        fprintf(stderr, "tunecost export: %s\n", tc_errmsg());
        return 2;
    }
    if (!o.force && stat(o.out, &st) == 0) {
        fprintf(stderr, "tunecost export: %s exists (use --force to replace it)\n", o.out);
        return 2;
    }
    if ((t = trace_open(path)) == NULL || (input = pick_input(t, o.input)) < 0) {
        fprintf(stderr, "tunecost export: %s\n", tc_errmsg());
        goto out;
    }
    if (exp_count(t, input) == 0) { /* an empty cache or result list: import refuses it, so no file */
        char shape[128];
        fprintf(stderr, "tunecost export: %s input %s: no configuration to export (the trace has none with a run or a "
                "failure on this input)\n", trace_path(t),
                tc_format_shape(trace_dims(t, input), trace_n_dims(t), shape, sizeof shape));
        goto out;
    }
    if (write_file(t, input, fmt == 1, o.out, o.force, &sum) != 0) {
        fprintf(stderr, "tunecost export: %s\n", tc_errmsg());
        rc = tc_err_exit_code(); /* 2: another run took the name */
        goto out;
    }
    if (!o.quiet) {
        char shape[128];
        fprintf(stderr, "tunecost export: %s input %s: %d configurations (%d valid)", o.out,
                tc_format_shape(trace_dims(t, input), trace_n_dims(t), shape, sizeof shape), sum.n_written,
                sum.n_valid);
        if (sum.n_unmeasured > 0)
            fprintf(stderr, "; %d never measured on this input left out", sum.n_unmeasured);
        if (sum.best_config >= 0)
            fprintf(stderr, "; best configuration %d\n", sum.best_config);
        else
            fprintf(stderr, "; no valid configuration\n");
        if (fmt == 0 && exp_grid_size(t) > sum.n_written) /* Kernel Tuner would ask for grid points not there */
            fprintf(stderr, "tunecost export: note: tune_params span %.0f configurations, the cache holds %d: run "
                    "Kernel Tuner's simulation mode with the restriction to the cache's keys (docs/import.md, "
                    "\"Exporting\"; docs/kt-simulate.py)\n", exp_grid_size(t), sum.n_written);
    }
    rc = 0;
out:
    trace_close(t);
    return rc;
}
