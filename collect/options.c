/* options.c — `tunecost collect`'s options: defaults, --help and the strict parse (see options.h). */
#include "options.h"

#include "bench.h"
#include "compile.h"
#include "space.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tc_opt.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* Option values by enum value: enum bench_protocol, enum bench_timer, --space (0 paper, 1 full). */
static const char *const protocol_names[] = {"fixed-time", "triton"};
static const char *const timer_names[] = {"cupti", "events"};
static const char *const space_names[] = {"paper", "full"};
#define N_NAMES(a) ((int)(sizeof(a) / sizeof((a)[0])))
#include <string.h>
#include <unistd.h>

int copt_online_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

static int parse_flush(const char *s, int64_t *out)
{
    if (strcmp(s, "l2") == 0 || strcmp(s, "L2") == 0) {
        *out = -1;
        return 0;
    }
    return tc_parse_bytes("--flush-bytes", s, (int64_t)64 << 30, out);
}

static int add_shape(struct collect_opts *o, const char *s)
{
    int64_t d[SPACE_N_DIMS];
    if (tc_parse_shape("--shape", s, SPACE_N_DIMS, 1 << 20, d) != 0 || space_check_shape("--shape", d) != 0)
        return -1;
    if (o->n_shapes >= COPT_MAX_SHAPES)
        return tc_seterr("--shape: at most %d shapes", COPT_MAX_SHAPES);
    int64_t *nd = realloc(o->dims, (size_t)(o->n_shapes + 1) * SPACE_N_DIMS * sizeof *nd);
    if (nd == NULL)
        return tc_seterr_env("out of memory");
    o->dims = nd;
    memcpy(o->dims + o->n_shapes * SPACE_N_DIMS, d, sizeof d);
    o->n_shapes++;
    return 0;
}

static int parse_flush_opt(const char *arg, void *field)
{
    return parse_flush(arg, field);
}

/* The callbacks below get the whole struct collect_opts (their field is offset 0, the struct itself). */
static int parse_shape_opt(const char *arg, void *o)
{
    return add_shape(o, arg);
}

static int parse_param_opt(const char *arg, void *space)
{
    return space_set_param(space, arg);
}

static int parse_shard_opt(const char *arg, void *field)
{
    struct collect_opts *o = field;
    return space_parse_shard("--shard", arg, &o->shard_i, &o->shard_n);
}

static int parse_device_opt(const char *arg, void *field)
{
    struct collect_opts *o = field;
    o->device_given = 1;
    return tc_parse_int("--device", arg, 0, 1023, &o->device);
}

static int parse_jobs_opt(const char *arg, void *field)
{
    struct collect_opts *o = field;
    o->jobs_given = 1;
    return tc_parse_long_list("--jobs", arg, 1, 1024, o->jobs, COPT_MAX_JOBS, &o->n_jobs);
}

static int parse_arch_opt(const char *arg, void *field)
{
    return tc_parse_int("--arch", strncmp(arg, "sm_", 3) == 0 ? arg + 3 : arg, 50, 200, field);
}

static const char *const family_names[] = {"native", "mma-sync"}; /* enum space_family */
/* enum compile_variant */
static const char *const variant_names[] = {"normal", "wrong", "fault", "bad-syntax", "fault-some"};

#define CO(f) offsetof(struct collect_opts, f)
static const struct tc_optdecl collect_opts_decl[] = {
    {.name = "", .arg = TC_ARG_GROUP, .help = "Search space"},
    {.name = "configs", .arg = TC_ARG_LONG, .field = CO(n_configs), .min = 1, .max = 1000000, .metavar = "N",
     .def = "100", .help = "configurations sampled from the space with --seed"},
    {.name = "space", .arg = TC_ARG_NAME, .field = CO(space_full), .names = space_names, .n_names = 2,
     .metavar = "paper|full", .def = "paper",
     .help = "paper: sample --configs; full: every configuration of the space"},
    {.name = "param", .arg = TC_ARG_CALL, .field = CO(space), .call = parse_param_opt, .metavar = "NAME=v1,...",
     .help = "replace one parameter's values (repeatable): BLOCK_M, BLOCK_N, BLOCK_K in {32,64,128,256}, GROUP_M "
             "(default 8), NUM_STAGES (default 3,4,5), NUM_WARPS in {2,4,8} (default 2,4,8)"},
    TC_OPT_SEED(struct collect_opts, seed, "0", "seed of the sampling and of the random input data"),
    {.name = "family", .arg = TC_ARG_NAME, .field = CO(family), .names = family_names, .n_names = 2, .metavar = "F",
     .def = "native",
     .help = "native: on sm_90 a configuration whose NUM_WARPS is a multiple of 4 and BLOCK_M a multiple of 64 runs "
             "the Hopper kernel (wgmma + TMA, sm_90a), the others the mma.sync kernel; mma-sync: every "
             "configuration on the mma.sync kernel"},
    {.name = "", .arg = TC_ARG_GROUP,
     .help = "Inputs (default: the paper's 64 shapes, M, N, K in {256, 512, 1024, 4096})"},
    {.name = "shape", .arg = TC_ARG_CALL, .field = 0, .call = parse_shape_opt, .metavar = "MxNxK",
     .help = "one input (repeatable); M, N, K multiples of 8"},
    {.name = "shapes-file", .arg = TC_ARG_STRING, .field = CO(shapes_file), .metavar = "FILE",
     .help = "one MxNxK per line ('#' comments)"},
    {.name = "shard", .arg = TC_ARG_CALL, .field = 0, .call = parse_shard_opt, .metavar = "i/n",
     .help = "only inputs j with j % n == i-1 (split a long collection; join with `tunecost merge`)"},
    {.name = "", .arg = TC_ARG_GROUP, .help = "Measurement"},
    {.name = "protocol", .arg = TC_ARG_NAME, .field = CO(protocol), .names = protocol_names, .n_names = 2,
     .metavar = "P", .def = "fixed-time",
     .help = "fixed-time: warm up for --warmup-ms of kernel time, then time executions until --rep-ms of kernel "
             "time, keeping every one; triton: Triton 3.6 do_bench exactly"},
    {.name = "warmup-ms", .arg = TC_ARG_DOUBLE, .field = CO(warmup_ms), .min = 0, .max = 600000, .metavar = "MS",
     .def = "25", .help = "requested warm-up kernel time"},
    {.name = "rep-ms", .arg = TC_ARG_DOUBLE, .field = CO(rep_ms), .min = 0.001, .max = 600000, .metavar = "MS",
     .def = "100", .help = "requested timed kernel time"},
    {.name = "flush-bytes", .arg = TC_ARG_CALL, .field = CO(flush_bytes), .call = parse_flush_opt, .metavar = "B",
     .def = "256M", .words = "0 l2 256M",
     .help = "L2 flush before each timed execution: 0 (none), l2 (the device's L2 size) or a size such as 256M "
             "(like Triton)"},
    {.name = "timer", .arg = TC_ARG_NAME, .field = CO(timer), .names = timer_names, .n_names = 2,
     .metavar = "cupti|events", .def = "cupti",
     .help = "per-execution durations from CUPTI activity records or CUDA events"},
    {.name = "tol", .arg = TC_ARG_DOUBLE, .field = CO(tol), .min = 1e-9, .max = 1e9, .metavar = "X", .def = "0.01",
     .help = "relative Frobenius error vs cuBLAS above which a result is wrong"},
    {.name = "device", .arg = TC_ARG_CALL, .field = 0, .call = parse_device_opt, .metavar = "D", .def_doc = "0",
     .help = "CUDA device ordinal (under mpirun the node-local rank picks it)"},
    {.name = "timeout-s", .arg = TC_ARG_DOUBLE, .field = CO(timeout_s), .min = 1, .max = 1e6, .metavar = "S",
     .def = "60", .help = "a run taking longer is killed and recorded as launch error"},
    {.name = "", .arg = TC_ARG_GROUP, .help = "Compilation"},
    {.name = "jobs", .arg = TC_ARG_CALL, .field = 0, .call = parse_jobs_opt, .metavar = "J",
     .def_doc = "online cores; under mpirun the rank's share of its node's cores",
     .help = "compile worker processes"},
    {.name = "compile-only", .arg = TC_ARG_FLAG, .field = CO(compile_only),
     .help = "compile the space once per worker count of --jobs J1,J2,... and write the wall time and speedup vs a "
             "1-worker pass (nan without one) as TSV to -o (no GPU needed); --arch: target"},
    {.name = "arch", .arg = TC_ARG_CALL, .field = CO(arch), .call = parse_arch_opt, .metavar = "N",
     .def_doc = "the device's, else 90", .help = "target sm_N for --compile-only without a GPU"},
    {.name = "configs-tsv", .arg = TC_ARG_STRING, .field = CO(configs_tsv), .metavar = "FILE",
     .help = "with --compile-only: one row per configuration (status, compile_ms, registers, ...)"},
    {.name = "compile-invalid", .arg = TC_ARG_FLAG, .field = CO(compile_invalid),
     .def_doc = "not compiled, compile_ms NaN",
     .help = "also compile configurations whose shared memory exceeds the device's limit (Triton does; they are "
             "`out of resources` either way and never launched)"},
    {.name = "compile-isolated", .arg = TC_ARG_FLAG, .field = CO(compile_isolated), .def_doc = "off, NaN",
     .help = "after the --jobs workers have compiled the configurations, compile each once more in one worker, one "
             "at a time, and record compile_isolated_ms (no other compile running; overlaps benchmarking, which runs "
             "in another process; --shard i/n: the shard's share); with --compile-only: a compile_isolated_ms "
             "column in --configs-tsv from the 1-worker pass (one more if --jobs has none)"},
    {.name = "compile-isolated-all", .arg = TC_ARG_FLAG, .field = CO(compile_isolated_all),
     .help = "--compile-isolated, but a shard (--shard i/n) measures every configuration, not its share (for a "
             "collection whose shards are not all merged)"},
    {.name = "compile-cache", .arg = TC_ARG_FLAG, .field = CO(compile_cache), .def_doc = "off",
     .help = "let NVRTC reuse the driver's compute cache (compile_ms would then be ~15 ms cache hits for "
             "configurations compiled before on this machine)"},
    {.name = "", .arg = TC_ARG_GROUP, .help = "Output"},
    TC_OPT_OUTPUT(struct collect_opts, output, "FILE",
                  "trace to write; an existing file is refused without --resume or --force", "required"),
    {.name = "resume", .arg = TC_ARG_FLAG, .field = CO(resume),
     .help = "continue FILE (same options), skipping the runs it holds"},
    TC_OPT_FORCE(struct collect_opts, force),
    TC_OPT_QUIET_AS(struct collect_opts, quiet, "no progress and no summary"),
    {.name = "variant", .arg = TC_ARG_NAME, .field = CO(variant), .names = variant_names, .n_names = 5,
     .metavar = "V", .def = "normal",
     .help = "testing only: normal, wrong, fault, fault-some (NUM_WARPS=4 faults) or bad-syntax kernel variants"},
    TC_OPT_HELP,
    TC_OPT_END,
};
#undef CO

const struct tc_cmd collect_cmd = {
    .name = "collect",
    .summary = "tune GEMM variants on the GPU and record every execution into a trace",
    .synopsis = "[OPTIONS] -o TRACE.h5",
    .description =
        "Tune the fp16 GEMM family (kernels/gemm_f16.cu) on an NVIDIA GPU the way an autotuner does and record every\n"
        "execution, compile time and overhead in a trace (format v1). Every finished run is on disk at once; Ctrl-C\n"
        "stops after the current run; --resume continues. A configuration that crashes the GPU context is recorded as\n"
        "`launch error` and the collection goes on.\n"
        "\n"
        "Several GPUs (mpirun -np N tunecost collect ... -o FILE; docs/collector.md): each rank drives one GPU of its\n"
        "node and gets a share of the (input, configuration) pairs balanced by expected cost; it writes FILE.rank-K\n"
        "as it goes, and rank 0 merges the shards into FILE at the end (or lists the pairs missing); --resume\n"
        "continues all.\n",
    .opts = collect_opts_decl,
    .exit_status = "0 ok; 1 a failure while working (GPU, disk); 2 usage error or an existing output without "
                   "--resume or -f; 130 interrupted (the runs done are kept: --resume).",
    .examples = "tunecost collect -o gemm-h200.h5                  # the paper's benchmark: 64 inputs x 100 configs\n"
                "tunecost collect --shape 4096x4096x4096 --flush-bytes 0 -o one.h5\n"
                "tunecost collect --shard 1/4 -o part1.h5 && ... && tunecost merge all.h5 part*.h5\n"
                "tunecost collect --resume -o gemm-h200.h5                   # after Ctrl-C or a crash, same options\n"
                "tunecost collect --protocol triton --shape 256x256x256 -o triton.h5\n"
                "tunecost collect --compile-only --space full --jobs 1,2,4,8,16 -o scaling.tsv\n"
                "mpirun -np 2 --bind-to none tunecost collect -o gemm-h200.h5      # 2 GPUs of one machine\n",
    .min_operands = 0,
    .max_operands = 0,
    .operand_name = "argument (the trace is given with -o)",
};

/* The inputs: --shapes-file, or the paper's shapes when none was given, then the --shard filter. 0 or -1. */
static int copt_inputs(struct collect_opts *o)
{
    if (o->shapes_file != NULL) {
        int64_t *d = NULL;
        int n = 0;
        if (o->n_shapes > 0)
            return tc_seterr("--shape and --shapes-file exclude each other");
        if (space_read_shapes(o->shapes_file, &d, &n) != 0)
            return -1;
        o->dims = d;
        o->n_shapes = n;
    }
    if (o->n_shapes == 0) {
        o->dims = malloc(SPACE_N_DEFAULT_SHAPES * SPACE_N_DIMS * sizeof *o->dims);
        if (o->dims == NULL)
            return tc_seterr_env("out of memory");
        o->n_shapes = space_default_shapes(o->dims);
    }
    if (o->shard_n > 0) {
        int k = 0;
        for (int j = 0; j < o->n_shapes; j++)
            if (j % o->shard_n == o->shard_i - 1)
                memmove(o->dims + (k++) * SPACE_N_DIMS, o->dims + j * SPACE_N_DIMS, SPACE_N_DIMS * sizeof *o->dims);
        if (k == 0)
            return tc_seterr("--shard %d/%d: no input falls in this shard (%d inputs)", o->shard_i, o->shard_n,
                             o->n_shapes);
        o->n_shapes = k;
    }
    return 0;
}

int copt_parse(int argc, char **argv, struct collect_opts *o, int *help)
{
    int first, rc;

    memset(o, 0, sizeof *o);
    space_default(&o->space);
    o->jobs[0] = copt_online_cores();
    o->n_jobs = 1;
    *help = 0;
    if ((rc = tc_cli_parse(&collect_cmd, argc, argv, o, &first)) != TC_CLI_RUN) {
        *help = rc == 0;
        return rc;
    }
    if (o->compile_cache)
        setenv("TC_COMPILE_CACHE", "1", 1);
    if (o->compile_isolated_all)
        o->compile_isolated = 2;
    if (o->output == NULL)
        rc = tc_seterr("-o FILE is required (the trace to write%s)",
                       o->compile_only ? "; a TSV with --compile-only" : "");
    else if (o->resume && o->force)
        rc = tc_seterr("--resume and --force exclude each other");
    else if (o->n_jobs > 1 && !o->compile_only)
        rc = tc_seterr("--jobs: a list of worker counts needs --compile-only");
    else
        rc = copt_inputs(o);
    return rc == 0 ? 0 : tc_cli_usage_error("collect", "%s", tc_errmsg());
}

void copt_free(struct collect_opts *o)
{
    free(o->dims);
    o->dims = NULL;
}

const char *copt_protocol_name(int p)
{
    return tc_name_of(protocol_names, N_NAMES(protocol_names), p);
}

const char *copt_timer_name(int t)
{
    return tc_name_of(timer_names, N_NAMES(timer_names), t);
}
