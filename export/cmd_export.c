/* cmd_export.c — `tunecost export kerneltuner|t4 [TRACE] -o FILE [-i INPUT]`: one input of a trace as a Kernel
 * Tuner 1.5 cache file (which Kernel Tuner replays in simulation mode) or as T4 results (the open autotuning
 * results schema; what the autotuning_methodology package reads). The inverse of `tunecost import`;
 * docs/import.md ("Exporting") gives the mapping and what is lost. */
#include "export.h"
#include "tc_atomic.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_paths.h"
#include "trace.h"
#include "tunecost.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: tunecost export FORMAT [TRACE] -o FILE [-i MxNxK] [options]\n"
            "\n"
            "Write one input (problem size) of a trace in another autotuner's format, so that its tuning\n"
            "strategies and analysis tools run on tunecost's measurements. Every configuration of the trace is\n"
            "written with its status, compile time, benchmarking wall time and every timed execution; `time` is\n"
            "the trace's true time (the median of the timed executions). docs/import.md (\"Exporting\") gives the\n"
            "mapping. TRACE defaults to the shipped reference trace.\n"
            "\n"
            "FORMAT:\n"
            "  kerneltuner   a Kernel Tuner 1.5 cache file (JSON), for tune_kernel(..., cache=FILE,\n"
            "                simulation_mode=True)\n"
            "  t4            T4 results (JSON, schema 1.0.0), a full search space for autotuning_methodology\n"
            "\n"
            "options:\n"
            "  -o, --output FILE     the file to write (required; complete or absent)\n"
            "  -i, --input MxNxK     the input to export [the trace's first input]\n"
            "  -f, --force           replace FILE if it exists\n"
            "  -q, --quiet           no summary on stderr\n"
            "  -h, --help            this help\n"
            "\n"
            "examples:\n"
            "  tunecost export kerneltuner -i 4096x4096x4096 -o gemm_H200_4096.json\n"
            "  tunecost export t4 data/gemm-h200.h5 -i 256x256x256 -o gemm_H200_256_T4.json\n"
            "  tunecost import kerneltuner gemm_H200_4096.json -o back.h5   # the round trip\n");
}

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
    if ((i = trace_find_input(t, dims)) < 0)
        return tc_seterr("--input: %s is not an input of %s", arg, trace_path(t));
    return i;
}

static int write_file(const struct trace *t, int input, int is_t4, const char *out, struct exp_summary *sum)
{
    struct tc_atomic a;
    FILE *fp = tc_atomic_open(&a, out);
    if (fp == NULL)
        return -1;
    if ((is_t4 ? exp_write_t4(t, input, fp, sum) : exp_write_kerneltuner(t, input, fp, sum)) != 0) {
        tc_atomic_abort(&a);
        return tc_seterr("%s: write error", out);
    }
    return tc_atomic_commit(&a);
}

int cmd_export(int argc, char **argv)
{
    static const struct option longopts[] = {TC_CLI_OPT_OUTPUT, TC_CLI_OPT_INPUT, TC_CLI_OPT_FORCE,
                                              TC_CLI_OPT_QUIET,  TC_CLI_OPT_HELP,  TC_CLI_OPT_END};
    static const char *const formats[] = {"kerneltuner", "t4"};
    const char *out = NULL, *input_arg = NULL, *path;
    int opt, force = 0, quiet = 0, fmt = 0, rc = 2, input;
    struct trace *t = NULL;
    struct exp_summary sum;
    struct stat st;
    optind = 1;
    while ((opt = tc_cli_next("export", argc, argv, "o:i:fqh", longopts)) != -1) {
        switch (opt) {
        case TC_CLI_ERROR: return 2;
        case 'o': out = optarg; break;
        case 'i': input_arg = optarg; break;
        case 'f': force = 1; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default: return tc_cli_usage_error("export", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return tc_cli_usage_error("export", "missing FORMAT (kerneltuner or t4)");
    if (tc_parse_name("FORMAT", argv[optind], formats, 2, &fmt) != 0)
        return tc_cli_usage_error("export", "%s", tc_errmsg());
    if (argc - optind > 2)
        return tc_cli_usage_error("export", "expected at most one TRACE, got %d", argc - optind - 1);
    if (out == NULL)
        return tc_cli_usage_error("export", "missing -o FILE");
    path = optind + 1 < argc ? argv[optind + 1] : tc_paths_default_trace();
    if (tc_output_check("-o", out, 0, &path, 1) != 0) {
        fprintf(stderr, "tunecost export: %s\n", tc_errmsg());
        return 2;
    }
    if (!force && stat(out, &st) == 0) {
        fprintf(stderr, "tunecost export: %s exists (use --force to replace it)\n", out);
        return 2;
    }
    if ((t = trace_open(path)) == NULL || (input = pick_input(t, input_arg)) < 0) {
        fprintf(stderr, "tunecost export: %s\n", tc_errmsg());
        goto out;
    }
    if (write_file(t, input, fmt == 1, out, &sum) != 0) {
        fprintf(stderr, "tunecost export: %s\n", tc_errmsg());
        rc = 1;
        goto out;
    }
    if (!quiet) {
        char shape[128];
        fprintf(stderr, "tunecost export: %s input %s: %d configurations (%d valid)", out,
                tc_format_shape(trace_dims(t, input), trace_n_dims(t), shape, sizeof shape), sum.n_written,
                sum.n_valid);
        if (sum.n_unmeasured > 0)
            fprintf(stderr, "; %d never measured on this input left out", sum.n_unmeasured);
        if (sum.best_config >= 0)
            fprintf(stderr, "; best configuration %d\n", sum.best_config);
        else
            fprintf(stderr, "; no valid configuration\n");
    }
    rc = 0;
out:
    trace_close(t);
    return rc;
}
