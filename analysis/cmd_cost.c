/* cmd_cost.c — `tunecost cost [TRACE] -i MxNxK`: what tuning one input costs end to end (every configuration,
 * failing ones included), split by part and by compile model, with 95% CIs, and what it buys (analysis/cost.h).
 * --protocol picks the shipped trace of that measuring protocol and says when it is another kernel family. */
#include "cost.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_paths.h"
#include "trace.h"
#include "tunecost.h"

#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cost_opts {
    struct cost_settings s;
    const char *input, *protocol;
    int json;
};

#define CO(f) offsetof(struct cost_opts, f)
static const struct tc_optdecl cost_opts[] = {
    TC_OPT_INPUT(struct cost_opts, input, "MxNxK", "the input whose tuning is costed (required)"),
    {.name = "protocol", .arg = TC_ARG_STRING, .field = CO(protocol), .metavar = "NAME", .def_doc = "the trace's",
     .words = "fixed-time triton recorded",
     .help = "the measuring protocol (fixed-time, triton): without TRACE, the shipped trace collected with it; with "
             "TRACE, an error unless TRACE's protocol is NAME"},
    TC_OPT_COMPILE_FACTOR(struct cost_opts, s.workers, "16", "compile workers of the parallel compile models"),
    TC_OPT_RUNS(struct cost_opts, s.runs, "30", "draw orders replayed per compile model (their CI)"),
    {.name = "bootstrap", .arg = TC_ARG_INT, .field = CO(s.boot), .min = 100, .max = 1000000, .metavar = "B",
     .def = "2000", .help = "bootstrap replicates of the CIs over configurations and executions"},
    TC_OPT_SEED(struct cost_opts, s.seed, "1", "random seed of the bootstrap and the replays"),
    {.name = "json", .arg = TC_ARG_FLAG, .field = CO(json), .help = "print one JSON object instead of text",
     .def_doc = "text"},
    TC_OPT_HELP,
    TC_OPT_END,
};
#undef CO

const struct tc_cmd cost_cmd = {
    .name = "cost",
    .summary = "what tuning one input costs end to end, where the time goes, and what it buys (with 95% CIs)",
    .synopsis = "[OPTIONS] [TRACE] -i MxNxK",
    .description =
        "What tuning one input costs end to end: every configuration of the trace, failing ones included, split\n"
        "into compilation (one after another), warm-up, repetition, L2 flush, launch/overhead and failed\n"
        "configurations, each with a 95% CI (a bootstrap over configurations: what a space of this size drawn\n"
        "like this one costs); which parts are measured and which imputed (a failing configuration's compile time\n"
        "the trace lacks is charged the median of the valid ones, as simulate does); the tuning time under the\n"
        "simulator's compile models with -c workers (every configuration replayed in -r draw orders); and what it\n"
        "buys: the best configuration's TFLOP/s (CI: bootstrap of its executions' median) against the vendor\n"
        "library and a configuration picked at random. The shipped triton-protocol trace is another kernel family\n"
        "(mma.sync) than the reference: --protocol triton says so.\n",
    .operands = "TRACE\ttrace file (default: @TRACE@, or with --protocol the shipped trace of that protocol)\n",
    .opts = cost_opts,
    .exit_status = "0 ok; 1 the machine failed it (memory, I/O); 2 usage error, a bad trace, an input it lacks or "
                   "a protocol it was not collected with (one line on stderr).",
    .examples = "tunecost cost -i 4096x4096x4096                   # the reference trace, 16 compile workers\n"
                "tunecost cost -i 4096x4096x4096 --protocol triton # Triton's do_bench protocol (shipped trace)\n"
                "tunecost cost data/gemm-h100-compile.h5 -i 256x256x256 -c 8 --json\n",
    .min_operands = 0,
    .max_operands = 1,
    .operand_name = "TRACE",
};

/* Configurations run on the wgmma kernel (/configs.path 1): with the kernel name, what tells two families apart. */
static int cost_n_wgmma(const struct trace *t)
{
    int n = 0;
    for (int c = 0; c < trace_n_configs(t); c++)
        n += trace_config(t, c)->path == 1;
    return n;
}

static int by_name_protocol_first(const void *a, const void *b, void *proto)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int hx = strstr(x, proto) != NULL, hy = strstr(y, proto) != NULL;
    return hx != hy ? hy - hx : strcmp(x, y);
}

/* The shipped trace collected with protocol `proto` (files whose name holds it tried first), opened; NULL with
 * tc_errmsg() naming what the data folder holds when none is. */
static struct trace *cost_find_shipped(const char *proto, char *path, size_t len)
{
    const char *dir = tc_paths_dir(TC_PATHS_DATA);
    DIR *dp = opendir(dir);
    char *names[64], seen[512] = "";
    int n = 0;
    struct trace *t = NULL;
    if (dp == NULL) {
        tc_seterr("--protocol %s: cannot list the shipped traces in %s", proto, dir);
        return NULL;
    }
    for (struct dirent *e; (e = readdir(dp)) != NULL && n < 64;) {
        size_t l = strlen(e->d_name);
        if (l > 3 && strcmp(e->d_name + l - 3, ".h5") == 0 && (names[n] = strdup(e->d_name)) != NULL)
            n++;
    }
    closedir(dp);
    qsort_r(names, (size_t)n, sizeof *names, by_name_protocol_first, (void *)proto);
    for (int k = 0; k < n && t == NULL; k++) {
        snprintf(path, len, "%s/%s", dir, names[k]);
        if ((t = trace_open(path)) != NULL && strcmp(trace_get_meta(t)->protocol, proto) != 0) {
            size_t u = strlen(seen);
            snprintf(seen + u, sizeof seen - u, "%s%s (%s)", u ? ", " : "", names[k], trace_get_meta(t)->protocol);
            trace_close(t);
            t = NULL;
        }
    }
    for (int k = 0; k < n; k++)
        free(names[k]);
    if (t == NULL)
        tc_seterr("--protocol %s: no shipped trace in %s was collected with it (%s)", proto, dir, seen);
    return t;
}

/* One line on stderr when the trace --protocol picked is another kernel family than the reference. */
static void cost_note_family(const struct trace *t, const char *path)
{
    const char *ref = tc_paths_default_trace();
    struct trace *r = trace_open(ref);
    if (r == NULL)
        return;
    if (strcmp(trace_get_meta(r)->kernel, trace_get_meta(t)->kernel) != 0 || cost_n_wgmma(r) != cost_n_wgmma(t) ||
        trace_n_configs(r) != trace_n_configs(t))
        fprintf(stderr, "tunecost cost: note: %s is a different kernel family from the reference %s (%s, %d of %d "
                        "configurations on the wgmma kernel, against %s, %d of %d): its costs and TFLOP/s are not "
                        "the reference's under another protocol\n", path, ref, trace_get_meta(t)->kernel,
                cost_n_wgmma(t), trace_n_configs(t), trace_get_meta(r)->kernel, cost_n_wgmma(r), trace_n_configs(r));
    trace_close(r);
}

/* The trace: TRACE, or the default, or with --protocol and no TRACE the shipped trace of that protocol. */
static struct trace *cost_open(const struct cost_opts *o, const char *given, char *path, size_t len)
{
    struct trace *t;
    snprintf(path, len, "%s", given != NULL ? given : tc_paths_default_trace());
    if ((t = trace_open(path)) == NULL)
        return NULL;
    if (o->protocol == NULL || strcmp(trace_get_meta(t)->protocol, o->protocol) == 0)
        return t;
    if (given != NULL) {
        tc_seterr("%s: collected with the %s protocol, not --protocol %s", path, trace_get_meta(t)->protocol,
                  o->protocol);
        trace_close(t);
        return NULL;
    }
    trace_close(t);
    if ((t = cost_find_shipped(o->protocol, path, len)) != NULL)
        cost_note_family(t, path);
    return t;
}

int cmd_cost(int argc, char **argv)
{
    struct cost_opts o;
    struct cost_result r;
    struct trace *t = NULL;
    char path[4096], buf[64];
    int64_t dims[8];
    int first, rc, input;

    memset(&o, 0, sizeof o);
    if ((rc = tc_cli_parse(&cost_cmd, argc, argv, &o, &first)) != TC_CLI_RUN)
        return rc;
    if (o.input == NULL)
        return tc_cli_usage_error("cost", "expected --input MxNxK (the input whose tuning is costed)");
    if ((t = cost_open(&o, first < argc ? argv[first] : NULL, path, sizeof path)) == NULL) {
        fprintf(stderr, "tunecost cost: %s\n", tc_errmsg());
        return tc_err_exit_code();
    }
    rc = 2;
    if (trace_n_dims(t) < 1 || trace_n_dims(t) > 8 ||
        tc_parse_shape("--input", o.input, trace_n_dims(t), INT64_MAX / 2, dims) != 0) {
        fprintf(stderr, "tunecost cost: %s\n", tc_errmsg());
        goto out;
    }
    if ((input = trace_find_input(t, dims)) < 0) {
        fprintf(stderr, "tunecost cost: --input %s: not among the %d inputs of %s (e.g. %s; `tunecost info %s` lists "
                        "them)\n", o.input, trace_n_inputs(t), path,
                tc_format_shape(trace_dims(t, 0), trace_n_dims(t), buf, sizeof buf), path);
        goto out;
    }
    if (cost_compute(t, input, &o.s, &r) != 0) {
        fprintf(stderr, "tunecost cost: %s\n", tc_errmsg());
        rc = tc_err_exit_code();
        goto out;
    }
    if (!o.json)
        printf("tunecost cost: %s\n", path);
    if ((o.json ? cost_write_json(stdout, &r) : cost_print(stdout, &r)) != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "tunecost cost: %s\n", tc_errmsg());
        rc = 1;
        goto out;
    }
    rc = 0;
out:
    trace_close(t);
    return rc;
}
