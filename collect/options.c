/* options.c — `tunecost collect`'s options: defaults, --help and the strict parse (see options.h). */
#include "options.h"

#include "bench.h"
#include "compile.h"
#include "space.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tc_opt.h"

#include <getopt.h>
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

void copt_usage(FILE *fp)
{
    fprintf(fp,
"usage: tunecost collect [OPTIONS] -o TRACE.h5\n"
"\n"
"Tune the fp16 GEMM family (kernels/gemm_f16.cu) on an NVIDIA GPU the way an autotuner does and record every\n"
"execution, compile time and overhead in a trace (format v1). Every finished run is on disk at once; Ctrl-C\n"
"stops after the current run; --resume continues. A configuration that crashes the GPU context is recorded as\n"
"`launch error` and the collection goes on.\n"
"\n"
"Search space:\n"
"  --configs N          configurations sampled from the space with --seed (default 100)\n"
"  --space paper|full   paper: sample --configs (default); full: every configuration of the space\n"
"  --param NAME=v1,...  replace one parameter's values (repeatable): BLOCK_M, BLOCK_N, BLOCK_K in {32,64,128,256},\n"
"                       GROUP_M (default 8), NUM_STAGES (default 3,4,5), NUM_WARPS in {2,4,8} (default 2,4,8)\n"
"  --seed S             seed of the sampling and of the random input data (default 0)\n"
"  --family F           native (default): on sm_90 a configuration whose NUM_WARPS is a multiple of 4 and\n"
"                       BLOCK_M a multiple of 64 runs the Hopper kernel (wgmma + TMA, sm_90a), the others the\n"
"                       mma.sync kernel; mma-sync: every configuration on the mma.sync kernel\n"
"Inputs (default: the paper's 64 shapes, M, N, K in {256, 512, 1024, 4096}):\n"
"  --shape MxNxK        one input (repeatable); M, N, K multiples of 8\n"
"  --shapes-file FILE   one MxNxK per line ('#' comments)\n"
"  --shard i/n          only inputs j with j %% n == i-1 (split a long collection; join with `tunecost merge`)\n"
"Several GPUs (mpirun -np N tunecost collect ... -o FILE; docs/collector.md):\n"
"                       each rank drives one GPU of its node and gets a share of the (input, configuration)\n"
"                       pairs balanced by expected cost; it writes FILE.rank-K as it goes, and rank 0 merges\n"
"                       the shards into FILE at the end (or lists the pairs missing); --resume continues all\n"
"Measurement:\n"
"  --protocol P         fixed-time (default): warm up for --warmup-ms of kernel time, then time executions\n"
"                       until --rep-ms of kernel time, keeping every one; triton: Triton 3.6 do_bench exactly\n"
"  --warmup-ms MS       requested warm-up kernel time (default 25)\n"
"  --rep-ms MS          requested timed kernel time (default 100)\n"
"  --flush-bytes B      L2 flush before each timed execution: 0 (none), l2 (the device's L2 size) or a size\n"
"                       such as 256M (default 256M, like Triton)\n"
"  --timer cupti|events per-execution durations from CUPTI activity records (default) or CUDA events\n"
"  --tol X              relative Frobenius error vs cuBLAS above which a result is wrong (default 0.01)\n"
"  --device D           CUDA device ordinal (default 0; under mpirun the node-local rank picks it)\n"
"  --timeout-s S        a run taking longer is killed and recorded as launch error (default 60)\n"
"Compilation:\n"
"  --jobs J             compile worker processes (default: online cores, here %d; under mpirun the rank's share\n"
"                       of its node's cores)\n"
"  --compile-only       compile the space once per worker count of --jobs J1,J2,... and write the wall time and\n"
"                       speedup vs a 1-worker pass (nan without one) as TSV to -o (no GPU needed); --arch: target\n"
"  --arch N             target sm_N for --compile-only without a GPU (default: the device's, else 90)\n"
"  --configs-tsv FILE   with --compile-only: one row per configuration (status, compile_ms, registers, ...)\n"
"  --compile-invalid    also compile configurations whose shared memory exceeds the device's limit (Triton\n"
"                       does; they are `out of resources` either way and never launched; default: not compiled,\n"
"                       compile_ms NaN)\n"
"  --compile-isolated   after the --jobs workers have compiled the configurations, compile each once more in\n"
"                       one worker, one at a time, and record compile_isolated_ms (no other compile running;\n"
"                       overlaps benchmarking, which runs in another process; --shard i/n: the shard's share);\n"
"                       with --compile-only: a compile_isolated_ms column in --configs-tsv from the 1-worker\n"
"                       pass (one more if --jobs has none) (default: off, NaN)\n"
"  --compile-isolated-all  --compile-isolated, but a shard (--shard i/n) measures every configuration, not\n"
"                       its share (for a collection whose shards are not all merged)\n"
"  --compile-cache      let NVRTC reuse the driver's compute cache (off by default: compile_ms would then be\n"
"                       ~15 ms cache hits for configurations compiled before on this machine)\n"
"Output:\n"
"  -o, --output FILE    trace to write (required); an existing file is refused without --resume or --force\n"
"  --resume             continue FILE (same options), skipping the runs it holds\n"
"  -f, --force          overwrite FILE\n"
"  -q, --quiet          no progress and no summary\n"
"  --variant V          testing only: normal (default), wrong, fault, fault-some (NUM_WARPS=4 faults) or\n"
"                       bad-syntax kernel variants\n"
"  -h, --help           this help\n"
"\n"
"Examples:\n"
"  tunecost collect -o gemm-h200.h5                            # the paper's benchmark: 64 inputs x 100 configs\n"
"  tunecost collect --shape 4096x4096x4096 --flush-bytes 0 -o one.h5\n"
"  tunecost collect --shard 1/4 -o part1.h5 && ... && tunecost merge all.h5 part*.h5\n"
"  tunecost collect --resume -o gemm-h200.h5                   # after Ctrl-C or a crash, same options\n"
"  tunecost collect --protocol triton --shape 256x256x256 -o triton.h5\n"
"  tunecost collect --compile-only --space full --jobs 1,2,4,8,16 -o scaling.tsv\n"
"  mpirun -np 2 --bind-to none tunecost collect -o gemm-h200.h5      # 2 GPUs of one machine\n",
            copt_online_cores());
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
        return tc_seterr("out of memory");
    o->dims = nd;
    memcpy(o->dims + o->n_shapes * SPACE_N_DIMS, d, sizeof d);
    o->n_shapes++;
    return 0;
}

/* Returns 0, or 2 after printing the usage error. */
int copt_parse(int argc, char **argv, struct collect_opts *o, int *help)
{
    enum { O_CONFIGS = TC_CLI_LOCAL, O_SPACE, O_PARAM, O_SHAPE, O_SHAPES_FILE, O_SHARD, O_PROTOCOL, O_WARMUP,
           O_REP, O_FLUSH, O_TIMER, O_TOL, O_DEVICE, O_TIMEOUT, O_JOBS, O_COMPILE_ONLY, O_ARCH, O_CONFIGS_TSV,
           O_RESUME, O_VARIANT, O_COMPILE_CACHE, O_COMPILE_INVALID, O_FAMILY, O_COMPILE_ISOLATED,
           O_COMPILE_ISOLATED_ALL };
    static const struct option lo[] = {
        {"configs", required_argument, 0, O_CONFIGS}, {"space", required_argument, 0, O_SPACE},
        {"param", required_argument, 0, O_PARAM}, TC_CLI_OPT_SEED,
        {"shape", required_argument, 0, O_SHAPE}, {"shapes-file", required_argument, 0, O_SHAPES_FILE},
        {"shard", required_argument, 0, O_SHARD}, {"protocol", required_argument, 0, O_PROTOCOL},
        {"warmup-ms", required_argument, 0, O_WARMUP}, {"rep-ms", required_argument, 0, O_REP},
        {"flush-bytes", required_argument, 0, O_FLUSH}, {"timer", required_argument, 0, O_TIMER},
        {"tol", required_argument, 0, O_TOL}, {"device", required_argument, 0, O_DEVICE},
        {"timeout-s", required_argument, 0, O_TIMEOUT}, {"jobs", required_argument, 0, O_JOBS},
        {"compile-only", no_argument, 0, O_COMPILE_ONLY}, {"arch", required_argument, 0, O_ARCH},
        {"configs-tsv", required_argument, 0, O_CONFIGS_TSV}, TC_CLI_OPT_OUTPUT,
        {"resume", no_argument, 0, O_RESUME}, TC_CLI_OPT_FORCE,
        TC_CLI_OPT_QUIET, {"variant", required_argument, 0, O_VARIANT},
        {"compile-cache", no_argument, 0, O_COMPILE_CACHE}, {"compile-invalid", no_argument, 0, O_COMPILE_INVALID},
        {"compile-isolated", no_argument, 0, O_COMPILE_ISOLATED},
        {"compile-isolated-all", no_argument, 0, O_COMPILE_ISOLATED_ALL}, {"family", required_argument, 0, O_FAMILY},
        TC_CLI_OPT_HELP, TC_CLI_OPT_END};
    int c, r = 0;

    memset(o, 0, sizeof *o);
    o->n_configs = 100;
    space_default(&o->space);
    o->protocol = BENCH_FIXED_TIME;
    o->timer = BENCH_TIMER_CUPTI;
    o->warmup_ms = 25.0;
    o->rep_ms = 100.0;
    o->tol = BENCH_DEFAULT_TOL;
    o->timeout_s = 60.0;
    o->flush_bytes = (int64_t)256 << 20;
    o->jobs[0] = copt_online_cores();
    o->n_jobs = 1;
    *help = 0;
    optind = 1;
    while ((c = tc_cli_next("collect", argc, argv, "o:fqh", lo)) != -1) {
        switch (c) {
        case TC_CLI_ERROR: return 2;
        case O_CONFIGS: r = tc_parse_long("--configs", optarg, 1, 1000000, &o->n_configs); break;
        case O_SPACE: r = tc_parse_name("--space", optarg, space_names, N_NAMES(space_names), &o->space_full); break;
        case O_PARAM: r = space_set_param(&o->space, optarg); break;
        case TC_CLI_SEED: r = tc_cli_seed(optarg, &o->seed); break;
        case O_SHAPE: r = add_shape(o, optarg); break;
        case O_SHAPES_FILE: o->shapes_file = optarg; break;
        case O_SHARD: r = space_parse_shard("--shard", optarg, &o->shard_i, &o->shard_n); break;
        case O_PROTOCOL:
            r = tc_parse_name("--protocol", optarg, protocol_names, N_NAMES(protocol_names), &o->protocol);
            break;
        case O_WARMUP: r = tc_parse_double("--warmup-ms", optarg, 0.0, 600000.0, &o->warmup_ms); break;
        case O_REP: r = tc_parse_double("--rep-ms", optarg, 0.001, 600000.0, &o->rep_ms); break;
        case O_FLUSH: r = parse_flush(optarg, &o->flush_bytes); break;
        case O_TIMER: r = tc_parse_name("--timer", optarg, timer_names, N_NAMES(timer_names), &o->timer); break;
        case O_TOL: r = tc_parse_double("--tol", optarg, 1e-9, 1e9, &o->tol); break;
        case O_DEVICE:
            r = tc_parse_int("--device", optarg, 0, 1023, &o->device);
            o->device_given = 1;
            break;
        case O_TIMEOUT: r = tc_parse_double("--timeout-s", optarg, 1.0, 1e6, &o->timeout_s); break;
        case O_JOBS:
            r = tc_parse_long_list("--jobs", optarg, 1, 1024, o->jobs, COPT_MAX_JOBS, &o->n_jobs);
            o->jobs_given = 1;
            break;
        case O_COMPILE_ONLY: o->compile_only = 1; break;
        case O_COMPILE_CACHE: setenv("TC_COMPILE_CACHE", "1", 1); break;
        case O_COMPILE_INVALID: o->compile_invalid = 1; break;
        case O_COMPILE_ISOLATED: o->compile_isolated = o->compile_isolated ? o->compile_isolated : 1; break;
        case O_COMPILE_ISOLATED_ALL: o->compile_isolated = 2; break;
        case O_FAMILY:
            if (strcmp(optarg, "native") == 0)
                o->family = SPACE_FAMILY_NATIVE;
            else if (strcmp(optarg, "mma-sync") == 0)
                o->family = SPACE_FAMILY_MMA_SYNC;
            else
                r = tc_seterr("--family: expected native or mma-sync, got '%s'", optarg);
            break;
        case O_ARCH: {
            const char *a = strncmp(optarg, "sm_", 3) == 0 ? optarg + 3 : optarg;
            r = tc_parse_int("--arch", a, 50, 200, &o->arch);
            break;
        }
        case O_CONFIGS_TSV: o->configs_tsv = optarg; break;
        case 'o': o->output = optarg; break;
        case O_RESUME: o->resume = 1; break;
        case 'f': o->force = 1; break;
        case 'q': o->quiet = 1; break;
        case O_VARIANT:
            if (strcmp(optarg, "normal") == 0)
                o->variant = VARIANT_NORMAL;
            else if (strcmp(optarg, "wrong") == 0)
                o->variant = VARIANT_WRONG;
            else if (strcmp(optarg, "fault") == 0)
                o->variant = VARIANT_FAULT;
            else if (strcmp(optarg, "bad-syntax") == 0)
                o->variant = VARIANT_BAD_SYNTAX;
            else if (strcmp(optarg, "fault-some") == 0)
                o->variant = VARIANT_FAULT_SOME;
            else
                r = tc_seterr("--variant: expected normal, wrong, fault, fault-some or bad-syntax, got '%s'", optarg);
            break;
        case 'h': *help = 1; return 0;
        default: r = tc_seterr("unknown option '%s'", argv[optind - 1]); break;
        }
        if (r != 0)
            goto bad;
    }
    if (optind < argc) {
        r = tc_seterr("unexpected argument '%s' (the trace is given with -o)", argv[optind]);
        goto bad;
    }
    if (o->output == NULL) {
        r = tc_seterr("-o FILE is required (the trace to write%s)",
                      o->compile_only ? "; a TSV with --compile-only" : "");
        goto bad;
    }
    if (o->resume && o->force) {
        r = tc_seterr("--resume and --force exclude each other");
        goto bad;
    }
    if (o->n_jobs > 1 && !o->compile_only) {
        r = tc_seterr("--jobs: a list of worker counts needs --compile-only");
        goto bad;
    }
    if (o->shapes_file != NULL) {
        int64_t *d = NULL;
        int n = 0;
        if (o->n_shapes > 0) {
            r = tc_seterr("--shape and --shapes-file exclude each other");
            goto bad;
        }
        if (space_read_shapes(o->shapes_file, &d, &n) != 0) {
            r = -1;
            goto bad;
        }
        o->dims = d;
        o->n_shapes = n;
    }
    if (o->n_shapes == 0) {
        o->dims = malloc(SPACE_N_DEFAULT_SHAPES * SPACE_N_DIMS * sizeof *o->dims);
        if (o->dims == NULL) {
            r = tc_seterr("out of memory");
            goto bad;
        }
        o->n_shapes = space_default_shapes(o->dims);
    }
    if (o->shard_n > 0) {
        int k = 0;
        for (int j = 0; j < o->n_shapes; j++)
            if (j % o->shard_n == o->shard_i - 1)
                memmove(o->dims + (k++) * SPACE_N_DIMS, o->dims + j * SPACE_N_DIMS, SPACE_N_DIMS * sizeof *o->dims);
        if (k == 0) {
            r = tc_seterr("--shard %d/%d: no input falls in this shard (%d inputs)", o->shard_i, o->shard_n,
                          o->n_shapes);
            goto bad;
        }
        o->n_shapes = k;
    }
    return 0;
bad:
    return tc_cli_usage_error("collect", "%s", tc_errmsg());
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
