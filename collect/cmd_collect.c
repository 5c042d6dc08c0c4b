/* cmd_collect.c — `tunecost collect`: tune the GEMM family on the GPU and record every execution in a trace.
 * This process is the coordinator: it never touches CUDA. It forks the compile workers (compile.c) and the
 * benchmarking child (bench.c), writes the trace (every run durable as soon as it ends), shows progress, and
 * restarts the child when a configuration kills it. `--compile-only` measures compile scaling (paper Table 7). */
#include "bench.h"
#include "compile.h"
#include "kernels_src.h"
#include "space.h"
#include "tc_atomic.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_time.h"
#include "tc_version.h"
#include "trace.h"
#include "tunecost.h"

#include <cuda.h> /* CUDA_VERSION only: this process never calls CUDA */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_SHAPES 4096
#define MAX_JOBS_LIST 16

struct opts {
    long n_configs;
    uint64_t seed;
    int space_full;
    struct space space;
    int64_t *dims; /* n_shapes x 3 */
    int n_shapes;
    const char *shapes_file;
    int shard_i, shard_n;
    int protocol, timer;
    double warmup_ms, rep_ms, tol, timeout_s;
    int64_t flush_bytes; /* -1 = L2 */
    int device;
    long jobs[MAX_JOBS_LIST];
    int n_jobs;
    int compile_only;
    int arch; /* 0 = the device's */
    const char *output;
    const char *configs_tsv;
    int resume, force, quiet, variant;
    int compile_invalid; /* compile configurations that cannot launch (shared memory over the limit) too */
};

static volatile sig_atomic_t g_interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    g_interrupted++;
}

static int online_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

static void usage(FILE *fp)
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
"Inputs (default: the paper's 64 shapes, M, N, K in {256, 512, 1024, 4096}):\n"
"  --shape MxNxK        one input (repeatable); M, N, K multiples of 8\n"
"  --shapes-file FILE   one MxNxK per line ('#' comments)\n"
"  --shard i/n          only inputs j with j %% n == i-1 (split a long collection; join with `tunecost merge`)\n"
"Measurement:\n"
"  --protocol P         fixed-time (default): warm up for --warmup-ms of kernel time, then time executions\n"
"                       until --rep-ms of kernel time, keeping every one; triton: Triton 3.6 do_bench exactly\n"
"  --warmup-ms MS       requested warm-up kernel time (default 25)\n"
"  --rep-ms MS          requested timed kernel time (default 100)\n"
"  --flush-bytes B      L2 flush before each timed execution: 0 (none), l2 (the device's L2 size) or a size\n"
"                       such as 256M (default 256M, like Triton)\n"
"  --timer cupti|events per-execution durations from CUPTI activity records (default) or CUDA events\n"
"  --tol X              relative Frobenius error vs cuBLAS above which a result is wrong (default 0.01)\n"
"  --device D           CUDA device ordinal (default 0)\n"
"  --timeout-s S        a run taking longer is killed and recorded as launch error (default 60)\n"
"Compilation:\n"
"  --jobs J             compile worker processes (default: online cores, here %d)\n"
"  --compile-only       compile the space once per worker count of --jobs J1,J2,... and write the wall time and\n"
"                       speedup vs a 1-worker pass (nan without one) as TSV to -o (no GPU needed); --arch: target\n"
"  --arch N             target sm_N for --compile-only without a GPU (default: the device's, else 90)\n"
"  --configs-tsv FILE   with --compile-only: one row per configuration (status, compile_ms, registers, ...)\n"
"  --compile-invalid    also compile configurations whose shared memory exceeds the device's limit (Triton\n"
"                       does; they are `out of resources` either way and never launched; default: not compiled,\n"
"                       compile_ms NaN)\n"
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
"  tunecost collect --compile-only --space full --jobs 1,2,4,8,16 -o scaling.tsv\n",
            online_cores());
}

static int parse_flush(const char *s, int64_t *out)
{
    if (strcmp(s, "l2") == 0 || strcmp(s, "L2") == 0) {
        *out = -1;
        return 0;
    }
    return tc_parse_bytes("--flush-bytes", s, (int64_t)64 << 30, out);
}

static int add_shape(struct opts *o, const char *s)
{
    int64_t d[SPACE_N_DIMS];
    if (tc_parse_shape("--shape", s, SPACE_N_DIMS, 1 << 20, d) != 0 || space_check_shape("--shape", d) != 0)
        return -1;
    if (o->n_shapes >= MAX_SHAPES)
        return tc_seterr("--shape: at most %d shapes", MAX_SHAPES);
    int64_t *nd = realloc(o->dims, (size_t)(o->n_shapes + 1) * SPACE_N_DIMS * sizeof *nd);
    if (nd == NULL)
        return tc_seterr("out of memory");
    o->dims = nd;
    memcpy(o->dims + o->n_shapes * SPACE_N_DIMS, d, sizeof d);
    o->n_shapes++;
    return 0;
}

/* Returns 0, or 2 after printing the usage error. */
static int parse(int argc, char **argv, struct opts *o, int *help)
{
    enum { O_CONFIGS = TC_CLI_LOCAL, O_SPACE, O_PARAM, O_SHAPE, O_SHAPES_FILE, O_SHARD, O_PROTOCOL, O_WARMUP,
           O_REP, O_FLUSH, O_TIMER, O_TOL, O_DEVICE, O_TIMEOUT, O_JOBS, O_COMPILE_ONLY, O_ARCH, O_CONFIGS_TSV,
           O_RESUME, O_VARIANT, O_COMPILE_CACHE, O_COMPILE_INVALID };
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
        {"compile-cache", no_argument, 0, O_COMPILE_CACHE}, {"compile-invalid", no_argument, 0, O_COMPILE_INVALID}, TC_CLI_OPT_HELP, TC_CLI_OPT_END};
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
    o->jobs[0] = online_cores();
    o->n_jobs = 1;
    *help = 0;
    optind = 1;
    while ((c = tc_cli_next("collect", argc, argv, "o:fqh", lo)) != -1) {
        switch (c) {
        case TC_CLI_ERROR: return 2;
        case O_CONFIGS: r = tc_parse_long("--configs", optarg, 1, 1000000, &o->n_configs); break;
        case O_SPACE:
            if (strcmp(optarg, "paper") == 0)
                o->space_full = 0;
            else if (strcmp(optarg, "full") == 0)
                o->space_full = 1;
            else
                r = tc_seterr("--space: expected paper or full, got '%s'", optarg);
            break;
        case O_PARAM: r = space_set_param(&o->space, optarg); break;
        case TC_CLI_SEED: r = tc_cli_seed(optarg, &o->seed); break;
        case O_SHAPE: r = add_shape(o, optarg); break;
        case O_SHAPES_FILE: o->shapes_file = optarg; break;
        case O_SHARD: r = space_parse_shard("--shard", optarg, &o->shard_i, &o->shard_n); break;
        case O_PROTOCOL:
            if (strcmp(optarg, "fixed-time") == 0)
                o->protocol = BENCH_FIXED_TIME;
            else if (strcmp(optarg, "triton") == 0)
                o->protocol = BENCH_TRITON;
            else
                r = tc_seterr("--protocol: expected fixed-time or triton, got '%s'", optarg);
            break;
        case O_WARMUP: r = tc_parse_double("--warmup-ms", optarg, 0.0, 600000.0, &o->warmup_ms); break;
        case O_REP: r = tc_parse_double("--rep-ms", optarg, 0.001, 600000.0, &o->rep_ms); break;
        case O_FLUSH: r = parse_flush(optarg, &o->flush_bytes); break;
        case O_TIMER:
            if (strcmp(optarg, "cupti") == 0)
                o->timer = BENCH_TIMER_CUPTI;
            else if (strcmp(optarg, "events") == 0)
                o->timer = BENCH_TIMER_EVENTS;
            else
                r = tc_seterr("--timer: expected cupti or events, got '%s'", optarg);
            break;
        case O_TOL: r = tc_parse_double("--tol", optarg, 1e-9, 1e9, &o->tol); break;
        case O_DEVICE: r = tc_parse_int("--device", optarg, 0, 1023, &o->device); break;
        case O_TIMEOUT: r = tc_parse_double("--timeout-s", optarg, 1.0, 1e6, &o->timeout_s); break;
        case O_JOBS: r = tc_parse_long_list("--jobs", optarg, 1, 1024, o->jobs, MAX_JOBS_LIST, &o->n_jobs); break;
        case O_COMPILE_ONLY: o->compile_only = 1; break;
        case O_COMPILE_CACHE: setenv("TC_COMPILE_CACHE", "1", 1); break;
        case O_COMPILE_INVALID: o->compile_invalid = 1; break;
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
        r = tc_seterr("-o FILE is required (the trace to write%s)", o->compile_only ? "; a TSV with --compile-only" : "");
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

/* The configurations of this collection: n x SP_N_PARAMS, malloc'ed. */
static int32_t *make_configs(const struct opts *o, int *n)
{
    long size = space_size(&o->space), want = o->space_full ? size : o->n_configs;
    int32_t *p = malloc((size_t)(want < size ? want : size) * SP_N_PARAMS * sizeof *p);
    long got;
    if (p == NULL) {
        tc_seterr("out of memory");
        return NULL;
    }
    got = space_sample(&o->space, want, o->seed, p);
    if (got < 0) {
        free(p);
        return NULL;
    }
    *n = (int)got;
    return p;
}

static const int32_t *qsort_params;

static long compile_cost(const int32_t *p)
{
    return (long)p[SP_BLOCK_M] * p[SP_BLOCK_N] / (p[SP_NUM_WARPS] * 32) * p[SP_BLOCK_K];
}

static int cmp_compile_cost(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    long cx = compile_cost(qsort_params + x * SP_N_PARAMS), cy = compile_cost(qsort_params + y * SP_N_PARAMS);
    return cx < cy ? -1 : cx > cy ? 1 : x - y;
}

static int cmp_compile_cost_desc(const void *a, const void *b)
{
    return cmp_compile_cost(b, a);
}

/* ---- compile-only: compile scaling (paper Table 7) --------------------------------------------------------- */

static int compile_all(int jobs, int arch, const int32_t *params, int n_cfg, int variant, double *wall_ms,
                       double *warm_mean_ms, struct compile_result *keep, int quiet)
{
    struct compile_pool *pool = compile_pool_start(jobs, arch, tc_src_gemm_f16, variant);
    int done = 0, rc = -1, *order = NULL;
    double t0, last = 0.0;
    if (pool == NULL)
        return -1;
    if (compile_pool_wait_warmup(pool) != 0)
        goto out;
    *warm_mean_ms = 0.0;
    for (int w = 0; w < jobs; w++)
        *warm_mean_ms += compile_pool_warmup_ms(pool)[w] / jobs;
    /* Longest first (by accumulators per thread x k-tile depth), so no long compile starts last. */
    order = malloc((size_t)n_cfg * sizeof *order);
    if (order == NULL)
        goto out;
    for (int c = 0; c < n_cfg; c++)
        order[c] = c;
    qsort_params = params;
    qsort(order, (size_t)n_cfg, sizeof *order, cmp_compile_cost_desc);
    t0 = tc_now_ms();
    for (int c = 0; c < n_cfg; c++)
        if (compile_pool_submit(pool, order[c], params + order[c] * SP_N_PARAMS, arch) != 0)
            goto out;
    while (done < n_cfg) {
        struct pollfd fds[1024];
        struct compile_result res;
        int nf = compile_pool_pollfds(pool, fds, 1024), r;
        if (poll(fds, (nfds_t)nf, 500) < 0 && errno != EINTR) {
            tc_seterr("poll: %s", strerror(errno));
            goto out;
        }
        if (g_interrupted) {
            tc_seterr("interrupted");
            goto out;
        }
        while ((r = compile_pool_take(pool, &res)) == 1) {
            if (keep != NULL) {
                free(res.cubin); /* not needed for scaling */
                res.cubin = NULL;
                keep[res.config] = res;
            } else {
                compile_result_free(&res);
            }
            done++;
        }
        if (r < 0)
            goto out;
        if (!quiet && isatty(2) && tc_now_ms() - last > 200.0) {
            last = tc_now_ms();
            fprintf(stderr, "\r  jobs %-3d compiled %d/%d, %.1f s   ", jobs, done, n_cfg, (last - t0) / 1e3);
        }
    }
    *wall_ms = tc_now_ms() - t0;
    if (!quiet && isatty(2))
        fprintf(stderr, "\r%60s\r", "");
    rc = 0;
out:
    compile_pool_stop(pool);
    free(order);
    return rc;
}

static int write_configs_tsv(const char *path, const int32_t *params, int n_cfg, const struct compile_result *res,
                             int smem_limit)
{
    struct tc_atomic a;
    FILE *fp = tc_atomic_open(&a, path);
    if (fp == NULL)
        return -1;
    fprintf(fp, "config\tBLOCK_M\tBLOCK_N\tBLOCK_K\tGROUP_M\tNUM_STAGES\tNUM_WARPS\tstatus\tcompile_ms\tregisters\t"
                "spill_bytes\tsmem_bytes\n");
    for (int c = 0; c < n_cfg; c++) {
        const int32_t *p = params + c * SP_N_PARAMS;
        int64_t smem = space_smem_bytes(p);
        int st = res[c].status == TRACE_OK && smem > smem_limit ? TRACE_OUT_OF_RESOURCES : res[c].status;
        fprintf(fp, "%d", c);
        for (int k = 0; k < SP_N_PARAMS; k++)
            fprintf(fp, "\t%d", p[k]);
        fprintf(fp, "\t%s\t%.3f\t%d\t%d\t%lld\n", trace_status_name(st), res[c].compile_ms, res[c].registers,
                res[c].spill_bytes, (long long)smem);
    }
    return tc_atomic_commit(&a);
}

static int compile_only(const struct opts *o)
{
    int n_cfg = 0, rc = 1, arch = o->arch ? o->arch : 90, base = -1;
    int32_t *params = make_configs(o, &n_cfg);
    double wall[MAX_JOBS_LIST], warm[MAX_JOBS_LIST];
    struct compile_result *res = NULL;
    struct tc_atomic a;
    FILE *fp = NULL;
    /* The opt-in shared-memory limit per block of the target (sm_90: 227 KiB); what the GPU run would read off
     * the device. */
    int smem_limit = arch == 90 ? 232448 : arch == 80 ? 166912 : arch == 86 || arch == 89 ? 101376 : 232448;

    if (params == NULL)
        goto out;
    signal(SIGPIPE, SIG_IGN); /* a worker that is gone shows as a failed write, not as our death */
    res = calloc((size_t)n_cfg, sizeof *res);
    if (res == NULL)
        goto out;
    if (!o->quiet)
        fprintf(stderr, "collect --compile-only: %d configurations for sm_%d, worker counts", n_cfg, arch);
    for (int j = 0; j < o->n_jobs && !o->quiet; j++)
        fprintf(stderr, " %ld", o->jobs[j]);
    if (!o->quiet)
        fprintf(stderr, "\n");
    int keep = 0; /* per-configuration results from the 1-worker pass (uncontended), else the first */
    for (int j = 0; j < o->n_jobs; j++)
        if (o->jobs[j] == 1) {
            keep = j;
            break;
        }
    for (int j = 0; j < o->n_jobs; j++) {
        if (compile_all((int)o->jobs[j], arch, params, n_cfg, o->variant, &wall[j], &warm[j], j == keep ? res : NULL,
                        o->quiet) != 0) {
            fprintf(stderr, "tunecost collect: compiling with %ld workers: %s\n", o->jobs[j], tc_errmsg());
            goto out;
        }
        if (o->jobs[j] == 1)
            base = j;
        if (!o->quiet)
            fprintf(stderr, "  %3ld workers: %9.1f ms wall\n", o->jobs[j], wall[j]);
    }
    /* speedup is relative to a 1-worker pass of this run; without one it is unknown (nan), never 1. */
    fp = tc_atomic_open(&a, o->output);
    if (fp == NULL) {
        fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
        goto out;
    }
    fprintf(fp, "# tunecost %s collect --compile-only: %d configurations, sm_%d, NVRTC %d.%d; wall time from the "
                "first request to the last result, worker warm-up excluded (mean shown)\n",
            TC_VERSION, n_cfg, arch, CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
    fprintf(fp, "jobs\twall_ms\tspeedup\twarmup_ms_mean\n");
    for (int j = 0; j < o->n_jobs; j++)
        fprintf(fp, "%ld\t%.1f\t%.3f\t%.1f\n", o->jobs[j], wall[j], base >= 0 ? wall[base] / wall[j] : NAN, warm[j]);
    if (tc_atomic_commit(&a) != 0) {
        fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
        goto out;
    }
    if (o->configs_tsv != NULL && write_configs_tsv(o->configs_tsv, params, n_cfg, res, smem_limit) != 0) {
        fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
        goto out;
    }
    if (!o->quiet) {
        int count[TRACE_N_STATUS] = {0};
        double sum = 0.0;
        for (int c = 0; c < n_cfg; c++) {
            int st = res[c].status == TRACE_OK && space_smem_bytes(params + c * SP_N_PARAMS) > smem_limit
                         ? TRACE_OUT_OF_RESOURCES : res[c].status;
            count[st]++;
            sum += res[c].compile_ms;
        }
        printf("compile-only: %d configurations: %d ok, %d compile error, %d out of resources (shared memory > "
               "%d bytes); sum of compile times %.1f s\n",
               n_cfg, count[TRACE_OK], count[TRACE_COMPILE_ERROR], count[TRACE_OUT_OF_RESOURCES], smem_limit,
               sum / 1e3);
        printf("jobs\twall_s\tspeedup\n");
        for (int j = 0; j < o->n_jobs; j++)
            printf("%ld\t%.2f\t%.2fx\n", o->jobs[j], wall[j] / 1e3, base >= 0 ? wall[base] / wall[j] : NAN);
        printf("written: %s%s%s\n", o->output, o->configs_tsv ? ", " : "", o->configs_tsv ? o->configs_tsv : "");
    }
    rc = 0;
out:
    if (res != NULL)
        for (int c = 0; c < n_cfg; c++)
            compile_result_free(&res[c]);
    free(res);
    free(params);
    return rc;
}

/* ---- the collection ------------------------------------------------------------------------------------------ */

struct coll {
    const struct opts *o;
    int n_cfg, n_in, arch;
    int32_t *params;      /* n_cfg x SP_N_PARAMS */
    const int64_t *dims;  /* n_in x 3 */
    struct trace *t;
    struct bench_device dev;
    struct compile_pool *pool;
    struct bench_child *bench;
    void **cubin;         /* per config, once compiled and launchable */
    size_t *cubin_len;
    int *state;           /* per config: 0 not compiled, 1 launchable, 2 never launched (compile error, too big) */
    unsigned char *done;  /* per (input, config): run in the trace, or not to be run */
    long total, finished; /* runs of this invocation */
    int child_input;      /* input the benchmarking child holds, -1 none */
    int busy;             /* 0 idle, 1 preparing an input, 2 running a pair */
    int busy_input, busy_config;
    double busy_since, t_start, last_draw;
    double run_ms_sum;    /* wall of finished runs, for the ETA */
    double t0, hello_ms, first_run_ms; /* process start, device known, first run sent */
    double submit_ms, first_compiled_ms; /* compiles submitted, first launchable configuration back */
    int restarts;
};

static const char *protocol_name(int p)
{
    return p == BENCH_TRITON ? "triton" : "fixed-time";
}

static const char *timer_name(int t)
{
    return t == BENCH_TIMER_EVENTS ? "events" : "cupti";
}

static int trace_new(struct coll *c)
{
    const struct opts *o = c->o;
    struct trace_meta m;
    struct trace_config *cfg = calloc((size_t)c->n_cfg, sizeof *cfg);
    struct trace_input *in = calloc((size_t)c->n_in, sizeof *in);
    int rc = -1;
    if (cfg == NULL || in == NULL) {
        tc_seterr("out of memory");
        goto out;
    }
    memset(&m, 0, sizeof m); /* generator and created_utc left empty: trace_create fills them */
    snprintf(m.kernel, sizeof m.kernel, "gemm_f16_f32acc");
    snprintf(m.device_name, sizeof m.device_name, "%s", c->dev.name);
    m.device_cc = c->dev.cc;
    m.device_sms = c->dev.sms;
    m.device_l2_bytes = c->dev.l2_bytes;
    m.driver_version = c->dev.driver_version;
    m.cuda_version = CUDA_VERSION;
    snprintf(m.timer, sizeof m.timer, "%s", timer_name(o->timer));
    snprintf(m.protocol, sizeof m.protocol, "%s", protocol_name(o->protocol));
    m.warmup_ms = o->warmup_ms;
    m.rep_ms = o->rep_ms;
    m.flush_bytes = c->dev.flush_bytes;
    m.compile_jobs = (int32_t)o->jobs[0];
    m.seed = o->seed;
    c->t = trace_create(o->output, &m, space_param_names, SP_N_PARAMS, space_dim_names, SPACE_N_DIMS);
    if (c->t == NULL)
        goto out;
    for (int k = 0; k < c->n_cfg; k++) {
        /* compile_ms NaN marks "not compiled yet" until the worker's result arrives */
        cfg[k].status = TRACE_OK;
        cfg[k].compile_ms = NAN;
        cfg[k].load_ms = NAN;
        cfg[k].registers = -1;
        cfg[k].spill_bytes = -1;
        cfg[k].smem_bytes = (int32_t)space_smem_bytes(c->params + k * SP_N_PARAMS);
    }
    for (int i = 0; i < c->n_in; i++) {
        const int64_t *d = c->dims + i * SPACE_N_DIMS;
        in[i].flops = 2.0 * (double)d[0] * (double)d[1] * (double)d[2];
        in[i].ref_ms = NAN;
    }
    if (trace_write_configs(c->t, c->n_cfg, c->params, cfg) != 0 ||
        trace_write_inputs(c->t, c->n_in, c->dims, in) != 0)
        goto out;
    rc = 0;
out:
    free(cfg);
    free(in);
    return rc;
}

/* --resume: the trace must come from the same settings. Without the device (with_device 0) the checks that need
 * it (device name, the flush size `l2` resolves to) are left for later. */
static int check_resume(struct coll *c, int with_device)
{
    const struct trace_meta *m = trace_get_meta(c->t);
    const struct opts *o = c->o;
    const char *f = o->output;
    if (strcmp(m->kernel, "gemm_f16_f32acc") != 0)
        return tc_seterr("%s: --resume: kernel '%s' is not this collector's gemm_f16_f32acc", f, m->kernel);
    if (with_device && strcmp(m->device_name, c->dev.name) != 0)
        return tc_seterr("%s: --resume: collected on '%s', this device is '%s'", f, m->device_name, c->dev.name);
    if (strcmp(m->timer, timer_name(o->timer)) != 0)
        return tc_seterr("%s: --resume: collected with --timer %s, not %s", f, m->timer, timer_name(o->timer));
    if (strcmp(m->protocol, protocol_name(o->protocol)) != 0)
        return tc_seterr("%s: --resume: collected with --protocol %s, not %s", f, m->protocol,
                         protocol_name(o->protocol));
    if (m->warmup_ms != o->warmup_ms || m->rep_ms != o->rep_ms)
        return tc_seterr("%s: --resume: collected with --warmup-ms %g --rep-ms %g, not %g and %g", f, m->warmup_ms,
                         m->rep_ms, o->warmup_ms, o->rep_ms);
    if (with_device && m->flush_bytes != c->dev.flush_bytes)
        return tc_seterr("%s: --resume: collected with --flush-bytes %lld, not %lld", f, (long long)m->flush_bytes,
                         (long long)c->dev.flush_bytes);
    if (m->seed != o->seed)
        return tc_seterr("%s: --resume: collected with --seed %llu, not %llu", f, (unsigned long long)m->seed,
                         (unsigned long long)o->seed);
    if (trace_n_params(c->t) != SP_N_PARAMS || trace_n_configs(c->t) != c->n_cfg)
        return tc_seterr("%s: --resume: the trace has %d configurations of %d parameters; these options give %d "
                         "(same --configs/--space/--param/--seed?)", f, trace_n_configs(c->t), trace_n_params(c->t),
                         c->n_cfg);
    for (int k = 0; k < c->n_cfg; k++)
        if (memcmp(trace_params(c->t, k), c->params + k * SP_N_PARAMS, SP_N_PARAMS * sizeof(int32_t)) != 0)
            return tc_seterr("%s: --resume: configuration %d differs (same --configs/--space/--param/--seed?)", f, k);
    if (trace_n_dims(c->t) != SPACE_N_DIMS || trace_n_inputs(c->t) != c->n_in)
        return tc_seterr("%s: --resume: the trace has %d inputs, these options give %d (same --shape/--shard?)", f,
                         trace_n_inputs(c->t), c->n_in);
    for (int i = 0; i < c->n_in; i++)
        if (memcmp(trace_dims(c->t, i), c->dims + i * SPACE_N_DIMS, SPACE_N_DIMS * sizeof(int64_t)) != 0)
            return tc_seterr("%s: --resume: input %d differs (same --shape/--shard?)", f, i);
    return 0;
}

static void fmt_dur(double s, char *buf, size_t len)
{
    if (!(s >= 0.0) || s > 1e7)
        snprintf(buf, len, "--:--");
    else if (s >= 3600)
        snprintf(buf, len, "%d:%02d:%02d", (int)(s / 3600), (int)(s / 60) % 60, (int)s % 60);
    else
        snprintf(buf, len, "%d:%02d", (int)(s / 60), (int)s % 60);
}

static void progress(struct coll *c, int force)
{
    char el[32], eta[32], shape[64], cfg[64] = "";
    double t = tc_now_ms();
    if (c->o->quiet || !isatty(2) || (!force && t - c->last_draw < 250.0))
        return;
    c->last_draw = t;
    fmt_dur((t - c->t_start) / 1e3, el, sizeof el);
    fmt_dur(c->finished > 0 ? (t - c->t_start) / 1e3 / (double)c->finished * (double)(c->total - c->finished)
                            : -1.0,
            eta, sizeof eta);
    if (c->busy_input >= 0)
        tc_format_shape(c->dims + c->busy_input * SPACE_N_DIMS, SPACE_N_DIMS, shape, sizeof shape);
    else
        snprintf(shape, sizeof shape, "-");
    if (c->busy == 2)
        space_format_config(c->params + c->busy_config * SP_N_PARAMS, cfg, sizeof cfg);
    else if (c->busy == 1)
        snprintf(cfg, sizeof cfg, "cuBLAS reference");
    else
        snprintf(cfg, sizeof cfg, "waiting for compiles (%d left)", compile_pool_pending(c->pool));
    fprintf(stderr, "\r\033[K[%ld/%ld runs] %s  %s  elapsed %s  eta %s", c->finished, c->total, shape, cfg, el,
            eta);
}

static void handle_compile(struct coll *c, struct compile_result *r)
{
    int k = r->config;
    struct trace_config cfg = *trace_config(c->t, k);
    int64_t smem = space_smem_bytes(c->params + k * SP_N_PARAMS);
    int fresh = isnan(cfg.compile_ms); /* a resumed trace keeps its first measurement */
    cfg.registers = r->registers;
    cfg.spill_bytes = r->spill_bytes;
    cfg.smem_bytes = (int32_t)smem;
    if (fresh)
        cfg.compile_ms = r->compile_ms;
    if (r->status == TRACE_COMPILE_ERROR) {
        cfg.status = TRACE_COMPILE_ERROR;
        c->state[k] = 2;
    } else if (smem > c->dev.smem_optin) {
        cfg.status = TRACE_OUT_OF_RESOURCES;
        c->state[k] = 2;
    } else {
        cfg.status = TRACE_OK;
        c->state[k] = 1;
        if (c->first_compiled_ms == 0.0)
            c->first_compiled_ms = tc_now_ms();
        c->cubin[k] = r->cubin;
        c->cubin_len[k] = r->cubin_len;
        r->cubin = NULL;
    }
    if (c->state[k] == 2)
        for (int i = 0; i < c->n_in; i++)
            if (!c->done[(size_t)i * c->n_cfg + k]) {
                c->done[(size_t)i * c->n_cfg + k] = 1;
                c->total--;
            }
    if (fresh || cfg.status != trace_config(c->t, k)->status) {
        if (trace_update_config(c->t, k, &cfg) != 0)
            fprintf(stderr, "\ntunecost collect: warning: %s\n", tc_errmsg());
        if (r->status == TRACE_COMPILE_ERROR && trace_set_compile_log(c->t, k, r->log) != 0)
            fprintf(stderr, "\ntunecost collect: warning: %s\n", tc_errmsg());
    }
    compile_result_free(r);
}

/* Record the outcome of the pair in flight. Returns 0 or -1 (trace write failed: stop). */
static int handle_run(struct coll *c, int i, int k, struct bench_result *res)
{
    struct trace_run run = res->run;
    run.input = i;
    run.config = k;
    if (res->fatal || run.status != TRACE_OK) {
        char shape[64], cfg[64];
        if (!c->o->quiet)
            fprintf(stderr, "%s%s %s: %s: %s\n", isatty(2) ? "\r\033[K" : "",
                    tc_format_shape(c->dims + i * SPACE_N_DIMS, SPACE_N_DIMS, shape, sizeof shape),
                    space_format_config(c->params + k * SP_N_PARAMS, cfg, sizeof cfg), trace_status_name(run.status),
                    res->msg);
    }
    if (run.status != TRACE_OK) {
        run.n_estimate = run.n_warmup = run.n_timed = 0;
        res->n_exec = 0;
    }
    if (trace_append_run(c->t, &run, res->exec_ns, res->n_exec) != 0)
        return -1;
    if (!isnan(res->load_ms) && isnan(trace_config(c->t, k)->load_ms)) {
        struct trace_config cfg = *trace_config(c->t, k);
        cfg.load_ms = res->load_ms;
        if (trace_update_config(c->t, k, &cfg) != 0)
            return -1;
    }
    c->done[(size_t)i * c->n_cfg + k] = 1;
    c->finished++;
    if (!c->o->quiet && !isatty(2)) { /* logs: one line per finished input instead of the live progress line */
        int left = 0;
        char shape[64], el[32];
        for (int kk = 0; kk < c->n_cfg; kk++)
            left += !c->done[(size_t)i * c->n_cfg + kk];
        if (left == 0) {
            fmt_dur((tc_now_ms() - c->t_start) / 1e3, el, sizeof el);
            fprintf(stderr, "collect: input %d/%d %s done; %ld/%ld runs, elapsed %s\n", i + 1, c->n_in,
                    tc_format_shape(c->dims + i * SPACE_N_DIMS, SPACE_N_DIMS, shape, sizeof shape), c->finished,
                    c->total, el);
        }
    }
    return 0;
}

/* Next thing for the idle child: 1 = sent, 0 = nothing launchable now, 2 = all done. Inputs go in order; an
 * input's cuBLAS reference is prepared as soon as the input has work left, overlapping its first compiles. */
static int dispatch(struct coll *c)
{
    for (int i = 0; i < c->n_in; i++) {
        int waiting = 0;
        for (int k = 0; k < c->n_cfg; k++) {
            if (c->done[(size_t)i * c->n_cfg + k])
                continue;
            c->busy_input = i;
            if (c->child_input != i) {
                c->busy = 1;
                c->busy_config = -1;
                c->busy_since = tc_now_ms();
                return bench_send_input(c->bench, i, c->dims + i * SPACE_N_DIMS) == 0 ? 1 : -1;
            }
            if (c->state[k] != 1) {
                waiting = 1;
                continue;
            }
            c->busy = 2;
            c->busy_config = k;
            c->busy_since = tc_now_ms();
            if (c->first_run_ms == 0.0)
                c->first_run_ms = c->busy_since;
            return bench_send_run(c->bench, k, c->params + k * SP_N_PARAMS, c->cubin[k], c->cubin_len[k]) == 0 ? 1
                                                                                                               : -1;
        }
        if (waiting)
            return 0; /* inputs are collected in order: wait for this one's compiles */
    }
    return 2;
}

static void summary(struct coll *c, double wall_ms)
{
    int cfg_count[TRACE_N_STATUS] = {0}, run_count[TRACE_N_STATUS] = {0};
    double requested_ms = 0.0, compile_ms = 0.0;
    size_t n_runs = trace_n_runs(c->t);
    for (int k = 0; k < c->n_cfg; k++) {
        const struct trace_config *cfg = trace_config(c->t, k);
        if (cfg->status >= 0 && cfg->status < TRACE_N_STATUS)
            cfg_count[cfg->status]++;
        if (!isnan(cfg->compile_ms))
            compile_ms += cfg->compile_ms;
    }
    for (size_t r = 0; r < n_runs; r++) {
        const struct trace_run *run = trace_run(c->t, r);
        if (run->status >= 0 && run->status < TRACE_N_STATUS)
            run_count[run->status]++;
        if (trace_run_valid(c->t, r))
            requested_ms += c->o->warmup_ms + c->o->rep_ms;
    }
    printf("\nconfigurations: %d: %d ok, %d compile error, %d out of resources; compile time %.1f s in total\n",
           c->n_cfg, cfg_count[0], cfg_count[1], cfg_count[2], compile_ms / 1e3);
    printf("runs: %zu: %d ok, %d launch error, %d wrong result\n", n_runs, run_count[0], run_count[3],
           run_count[4]);
    printf("%-18s %-36s %10s %10s %8s\n", "input", "best configuration", "TFLOP/s", "cuBLAS", "ratio");
    for (int i = 0; i < c->n_in; i++) {
        double best_ns = NAN;
        int best_k = trace_best_config(c->t, i, &best_ns, NULL); /* one definition: a pair's last run counts */
        double best = best_ns / 1e6;
        char shape[64], cfg[64] = "-";
        const struct trace_input *in = trace_input(c->t, i);
        double tf = best_k >= 0 ? in->flops / best / 1e9 : NAN, ref = in->flops / in->ref_ms / 1e9;
        if (best_k >= 0)
            space_format_config(trace_params(c->t, best_k), cfg, sizeof cfg);
        printf("%-18s %-36s %10.1f %10.1f %8.2f\n",
               tc_format_shape(trace_dims(c->t, i), SPACE_N_DIMS, shape, sizeof shape), cfg, tf, ref, tf / ref);
    }
    {
        double ready = bench_ready_ms(c->bench);
#define SINCE(x) ((x) > 0.0 ? ((x) - c->t0) / 1e3 : NAN)
        printf("wall time %.2f s (this invocation, %ld runs; device known after %.2f s, compiling from %.2f s, first "
               "configuration compiled at %.2f s, GPU ready at %.2f s, first run at %.2f s); GPU time asked for "
               "(valid runs x (warm-up + rep), whole trace) %.2f s; ratio %.3f\n", wall_ms / 1e3, c->finished,
               SINCE(c->hello_ms), SINCE(c->submit_ms), SINCE(c->first_compiled_ms), SINCE(ready),
               SINCE(c->first_run_ms), requested_ms / 1e3, requested_ms > 0 ? wall_ms / requested_ms : NAN);
#undef SINCE
    }
    if (c->restarts > 0)
        printf("benchmarking process restarted %d time%s after faults\n", c->restarts, c->restarts == 1 ? "" : "s");
    printf("trace: %s\n", c->o->output);
}

static int collect(const struct opts *o)
{
    struct coll c;
    struct bench_settings bs;
    struct stat st;
    int rc = 1, n_cfg = 0, exists, warm_written = 0, *order = NULL, n_order = 0, created = 0;
    const int timing = tc_env_flag("TC_TIMING");
    size_t n_runs = 0;
    double t0 = tc_now_ms();

    memset(&c, 0, sizeof c);
    /* A child or worker that is gone must show as a failed write (EPIPE) and its reply's end, not kill us. */
    signal(SIGPIPE, SIG_IGN);
    c.o = o;
    c.t0 = t0;
    c.child_input = -1;
    c.busy_input = -1;
    c.dims = o->dims;
    c.n_in = o->n_shapes;
    c.params = make_configs(o, &n_cfg);
    if (c.params == NULL) {
        fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
        return 1;
    }
    c.n_cfg = n_cfg;
    exists = stat(o->output, &st) == 0;
    if (exists && !o->resume && !o->force) {
        fprintf(stderr, "tunecost collect: %s exists: continue it with --resume (same options) or overwrite it with "
                        "--force\n", o->output);
        free(c.params);
        return 2;
    }
    if (!exists && o->resume) {
        fprintf(stderr, "tunecost collect: --resume: %s does not exist\n", o->output);
        free(c.params);
        return 2;
    }

    if (o->resume) {
        /* A file that is not a valid trace of these settings is refused before any GPU work (and untouched). */
        c.t = trace_open(o->output);
        if (c.t == NULL || check_resume(&c, 0) != 0) {
            fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
            trace_close(c.t);
            c.t = NULL;
            free(c.params);
            return 2;
        }
        trace_close(c.t);
        c.t = NULL;
    }

    /* 1. Processes first: compile workers, then the benchmarking child (this process stays CUDA-free). */
    c.arch = o->arch ? o->arch : 90;
    c.pool = compile_pool_start((int)o->jobs[0], c.arch, tc_src_gemm_f16, o->variant);
    if (c.pool == NULL) {
        fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
        goto out;
    }
    memset(&bs, 0, sizeof bs);
    bs.device = o->device;
    bs.timer = o->timer;
    bs.protocol = o->protocol;
    bs.warmup_ms = o->warmup_ms;
    bs.rep_ms = o->rep_ms;
    bs.flush_bytes = o->flush_bytes;
    bs.seed = o->seed;
    bs.tol = o->tol;
    bs.t0_ms = t0;
    c.bench = bench_start(&bs, &c.dev);
    if (c.bench == NULL) {
        fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
        goto out;
    }
    c.hello_ms = tc_now_ms();
    if (!o->arch)
        c.arch = c.dev.cc;

    /* 2. The trace. */
    if (o->resume) {
        /* The device checks too on a read-only open: trace_open_append may rewrite the file into its appendable
         * layout, and a refused trace must stay byte for byte as it was. */
        c.t = trace_open(o->output);
        if (c.t == NULL || check_resume(&c, 1) != 0) {
            fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
            rc = 2;
            goto out;
        }
        trace_close(c.t);
        c.t = trace_open_append(o->output);
        if (c.t == NULL) {
            fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
            rc = 2;
            goto out;
        }
    } else if (trace_new(&c) != 0) {
        fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
        goto out;
    } else {
        created = 1;
    }
    c.cubin = calloc((size_t)c.n_cfg, sizeof *c.cubin);
    c.cubin_len = calloc((size_t)c.n_cfg, sizeof *c.cubin_len);
    c.state = calloc((size_t)c.n_cfg, sizeof *c.state);
    c.done = calloc((size_t)c.n_cfg * (size_t)c.n_in, 1);
    order = calloc((size_t)c.n_cfg, sizeof *order);
    if (c.cubin == NULL || c.cubin_len == NULL || c.state == NULL || c.done == NULL || order == NULL) {
        fprintf(stderr, "tunecost collect: out of memory\n");
        goto out;
    }
    for (size_t r = 0; r < trace_n_runs(c.t); r++) {
        const struct trace_run *run = trace_run(c.t, r);
        c.done[(size_t)run->input * c.n_cfg + run->config] = 1;
    }
    for (int k = 0; k < c.n_cfg; k++) {
        const struct trace_config *cfg = trace_config(c.t, k);
        int needed = 0;
        if (isnan(cfg->compile_ms) && cfg->status == TRACE_OK && !o->compile_invalid &&
            space_smem_bytes(c.params + k * SP_N_PARAMS) > c.dev.smem_optin) {
            struct trace_config oor = *cfg; /* the resource check alone decides: never compiled, never launched */
            oor.status = TRACE_OUT_OF_RESOURCES;
            if (trace_update_config(c.t, k, &oor) != 0) {
                fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
                goto out;
            }
            cfg = trace_config(c.t, k);
        }
        if (cfg->status == TRACE_OUT_OF_RESOURCES || (!isnan(cfg->compile_ms) && cfg->status != TRACE_OK)) {
            c.state[k] = 2; /* compile error or out of resources, known from the first attempt */
            for (int i = 0; i < c.n_in; i++)
                c.done[(size_t)i * c.n_cfg + k] = 1;
            continue;
        }
        for (int i = 0; i < c.n_in; i++)
            if (!c.done[(size_t)i * c.n_cfg + k]) {
                needed = 1;
                c.total++;
            }
        if (needed || isnan(cfg->compile_ms))
            order[n_order++] = k;
    }
    c.submit_ms = tc_now_ms();
    /* Cheapest compiles first (accumulators per thread x k-tile depth), so that benchmarking starts early. */
    qsort_params = c.params;
    qsort(order, (size_t)n_order, sizeof *order, cmp_compile_cost);
    for (int q = 0; q < n_order; q++)
        if (compile_pool_submit(c.pool, order[q], c.params + order[q] * SP_N_PARAMS, c.arch) != 0) {
            fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
            goto out;
        }
    if (!o->quiet) {
        char fl[32];
        if (c.dev.flush_bytes > 0)
            snprintf(fl, sizeof fl, "%lld bytes", (long long)c.dev.flush_bytes);
        else
            snprintf(fl, sizeof fl, "off");
        fprintf(stderr, "collect: %s (sm_%d, %d SMs, driver %d); %d configurations x %d inputs%s; protocol %s, "
                        "warm-up %g ms, rep %g ms, L2 flush %s, timer %s, %ld compile workers, seed %llu%s\n",
                c.dev.name, c.dev.cc, c.dev.sms, c.dev.driver_version, c.n_cfg, c.n_in,
                o->shard_n ? " (shard)" : "", protocol_name(o->protocol), o->warmup_ms, o->rep_ms, fl,
                timer_name(o->timer), o->jobs[0], (unsigned long long)o->seed, o->resume ? "; resuming" : "");
        fprintf(stderr, "collect: %ld runs to do -> %s\n", c.total, o->output);
    }

    /* 3. The loop: compiles arrive, the child runs one pair at a time, every result goes to disk at once. */
    {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigint;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
    }
    c.t_start = tc_now_ms();
    for (;;) {
        struct pollfd fds[1025];
        struct compile_result cr;
        int nf = 0, r;

        while ((r = compile_pool_take(c.pool, &cr)) == 1)
            handle_compile(&c, &cr);
        if (r < 0) {
            fprintf(stderr, "\ntunecost collect: %s\n", tc_errmsg());
            goto out;
        }
        if (!warm_written && compile_pool_pending(c.pool) == 0 && trace_n_compile_warmup(c.t) == 0) {
            if (trace_write_compile_warmup(c.t, compile_pool_warmup_ms(c.pool), compile_pool_jobs(c.pool)) != 0)
                fprintf(stderr, "\ntunecost collect: warning: %s\n", tc_errmsg());
            warm_written = 1;
        }
        if (c.busy == 0) {
            if (g_interrupted)
                break;
            r = dispatch(&c);
            if (r < 0) {
                fprintf(stderr, "\ntunecost collect: benchmarking process: %s\n", tc_errmsg());
                goto out;
            }
            if (r == 2 && compile_pool_pending(c.pool) == 0)
                break;
        }
        if (c.busy) {
            fds[nf].fd = bench_fd(c.bench);
            fds[nf].events = POLLIN;
            fds[nf].revents = 0;
            nf++;
        }
        nf += compile_pool_pollfds(c.pool, fds + nf, 1024);
        if (poll(fds, (nfds_t)nf, 250) < 0 && errno != EINTR) {
            fprintf(stderr, "\ntunecost collect: poll: %s\n", strerror(errno));
            goto out;
        }
        if (g_interrupted > 1 && c.busy) {
            bench_kill(c.bench); /* second Ctrl-C: drop the run in flight */
            break;
        }
        if (c.busy && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            struct bench_result res;
            double ref_ms = NAN;
            int was = c.busy;
            c.busy = 0;
            r = bench_recv(c.bench, &ref_ms, &res);
            if (r < 0) {
                fprintf(stderr, "\ntunecost collect: %s\n", tc_errmsg());
                goto out;
            }
            if (r == BENCH_NOT_RUN) { /* the child had ended before the request: a fresh one gets it again */
                c.child_input = -1;
                if (bench_restart(c.bench) != 0) {
                    fprintf(stderr, "\ntunecost collect: restarting the benchmarking process: %s\n", tc_errmsg());
                    goto out;
                }
                continue;
            }
            if (was == 1) {
                struct trace_input in = *trace_input(c.t, c.busy_input);
                c.child_input = c.busy_input;
                if (isnan(in.ref_ms)) {
                    in.ref_ms = ref_ms;
                    if (trace_update_input(c.t, c.busy_input, &in) != 0) {
                        fprintf(stderr, "\ntunecost collect: %s\n", tc_errmsg());
                        goto out;
                    }
                }
            } else {
                int i = c.busy_input, k = c.busy_config;
                c.run_ms_sum += tc_now_ms() - c.busy_since;
                /* The next pair starts before this one is written, so the GPU does not wait for the disk. */
                c.done[(size_t)i * c.n_cfg + k] = 1;
                if (r == 0 && !g_interrupted && dispatch(&c) < 0) {
                    free(res.exec_ns);
                    fprintf(stderr, "\ntunecost collect: benchmarking process: %s\n", tc_errmsg());
                    goto out;
                }
                if (handle_run(&c, i, k, &res) != 0) {
                    free(res.exec_ns);
                    fprintf(stderr, "\ntunecost collect: %s\n", tc_errmsg());
                    goto out;
                }
            }
            free(res.exec_ns);
            if (r == 1) {
                c.restarts++;
                c.child_input = -1;
                if (bench_restart(c.bench) != 0) {
                    fprintf(stderr, "\ntunecost collect: restarting the benchmarking process: %s\n", tc_errmsg());
                    goto out;
                }
            }
        } else if (c.busy && tc_now_ms() - c.busy_since > o->timeout_s * 1e3) {
            bench_kill(c.bench); /* the watchdog: the next poll sees the child's end */
        }
        progress(&c, 0);
    }
    progress(&c, 1);
    if (!o->quiet && isatty(2))
        fprintf(stderr, "\n");
    if (g_interrupted) {
        fprintf(stderr, "tunecost collect: interrupted: %s holds %zu runs; continue with the same options and "
                        "--resume\n", o->output, trace_n_runs(c.t));
        rc = 1;
        goto out;
    }
    if (!o->quiet)
        summary(&c, tc_now_ms() - t0);
    rc = 0;
out:
    /* The children's exits (the CUDA context's teardown) overlap the trace's compressing close. */
    bench_quit(c.bench);
    compile_pool_quit(c.pool);
    n_runs = c.t != NULL ? trace_n_runs(c.t) : 0;
    if (trace_close(c.t) != 0) {
        fprintf(stderr, "tunecost collect: closing %s: %s\n", o->output, tc_errmsg());
        rc = 1;
    }
    /* The trace is created as soon as the device is known, before the context opens: a GPU that then fails to
     * open leaves no empty trace behind (it would refuse the next attempt without --resume or --force). */
    if (rc != 0 && created && n_runs == 0 && c.bench != NULL && bench_ready_ms(c.bench) == 0.0 &&
        unlink(o->output) == 0)
        fprintf(stderr, "tunecost collect: removed %s: no run was measured\n", o->output);
    if (timing)
        fprintf(stderr, "timing: coordinator trace closed %8.1f ms\n", tc_now_ms() - t0);
    if (rc == 0)
        bench_detach(c.bench); /* idle: nothing of the collection is left in it */
    else
        bench_stop(c.bench);
    compile_pool_stop(c.pool);
    if (timing)
        fprintf(stderr, "timing: coordinator children reaped %8.1f ms\n", tc_now_ms() - t0);
    if (c.cubin != NULL)
        for (int k = 0; k < c.n_cfg; k++)
            free(c.cubin[k]);
    free(c.cubin);
    free(c.cubin_len);
    free(c.state);
    free(c.done);
    free(c.params);
    free(order);
    return rc;
}

int cmd_collect(int argc, char **argv)
{
    struct opts o;
    int help = 0, rc = parse(argc, argv, &o, &help);
    if (rc != 0)
        return rc;
    if (help) {
        usage(stdout);
        free(o.dims);
        return 0;
    }
    rc = o.compile_only ? compile_only(&o) : collect(&o);
    free(o.dims);
    return rc;
}
