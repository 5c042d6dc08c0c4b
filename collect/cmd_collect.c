/* cmd_collect.c — `tunecost collect`: the entry point. It parses the options (options.c), then either measures
 * compile scaling (--compile-only, paper Table 7; here) or runs the collection (collect.c), alone or as one rank
 * of an MPI job that splits the pairs over GPUs and nodes and merges the ranks' shards at the end (ranks.c). */
#include "bench.h"
#include "collect.h"
#include "compile.h"
#include "kernels_src.h"
#include "options.h"
#include "plan.h"
#include "progress.h"
#include "ranks.h"
#include "space.h"
#include "tc_atomic.h"
#include "tc_err.h"
#include "tc_time.h"
#include "tc_tsv.h"
#include "tc_version.h"
#include "trace.h"
#include "tunecost.h"

#include <cuda.h> /* CUDA_VERSION only: this process never calls CUDA */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- compile-only: compile scaling (paper Table 7) --------------------------------------------------------- */

/* Compile the configurations c with mine[c] (NULL: all) with `jobs` workers; results into keep[c] (NULL: drop). */
static int compile_all(const struct collect_opts *o, int jobs, int arch, const int32_t *params, int n_all, const unsigned char *mine, int variant,
                       double *wall_ms, double *warm_mean_ms, struct compile_result *keep, int quiet)
{
    int n_cfg = 0;
    struct compile_pool *pool;
    int done = 0, done_tenths = 0, rc = -1, *order = NULL;
    double t0, last;
    compile_pool_set_nice(0); /* nothing is benchmarked here: the workers need not yield to anything */
    pool = compile_pool_start(jobs, arch, tc_src_gemm_f16, variant);
    if (pool == NULL)
        return -1;
    if (!quiet && !isatty(2)) /* a log: say at once what runs (the warm-up of slow, busy workers takes a while) */
        fprintf(stderr, "  jobs %d: %d NVRTC workers warming up\n", jobs, jobs);
    if (compile_pool_wait_warmup(pool) != 0)
        goto out;
    *warm_mean_ms = 0.0;
    for (int w = 0; w < jobs; w++)
        *warm_mean_ms += compile_pool_warmup_ms(pool)[w] / jobs;
    /* Longest first (by accumulators per thread x k-tile depth), so no long compile starts last. */
    order = malloc((size_t)(n_all > 0 ? n_all : 1) * sizeof *order);
    if (order == NULL)
        goto out;
    for (int c = 0; c < n_all; c++)
        if (mine == NULL || mine[c])
            order[n_cfg++] = c;
    plan_sort_compiles(order, n_cfg, params, 1);
    last = t0 = tc_now_ms();
    for (int c = 0; c < n_cfg; c++)
        if (compile_pool_submit(pool, order[c], params + order[c] * SP_N_PARAMS, arch,
                                copt_path(o, arch, params + order[c] * SP_N_PARAMS)) != 0)
            goto out;
    while (done < n_cfg) {
        struct pollfd fds[1024];
        struct compile_result res;
        int nf = compile_pool_pollfds(pool, fds, 1024), r;
        if (poll(fds, (nfds_t)nf, 500) < 0 && errno != EINTR) {
            tc_seterr("poll: %s", strerror(errno));
            goto out;
        }
        if (collect_interrupted()) {
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
        } else if (!quiet && !isatty(2) && (done * 10 / n_cfg > done_tenths || tc_now_ms() - last > 30000.0)) {
            /* a log or a test runner: a line per tenth and at least every 30 s (the longest compiles come first, so
             * the first tenth can take minutes on a loaded machine), with the time left at the rate so far */
            char eta[32];
            double el_s = ((last = tc_now_ms()) - t0) / 1e3;
            done_tenths = done * 10 / n_cfg;
            progress_fmt_dur(done > 0 ? el_s / done * (n_cfg - done) : -1.0, eta, sizeof eta);
            fprintf(stderr, "  jobs %d: compiled %d/%d, %.1f s, eta %s\n", jobs, done, n_cfg, el_s, eta);
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

/* One row per configuration; with iso_ms (--compile-isolated) a last column compile_isolated_ms. */
static int write_configs_tsv(const struct collect_opts *o, int arch, const char *path, const int32_t *params,
                             int n_cfg, const struct compile_result *res, const double *iso_ms, int smem_limit)
{
    struct tc_atomic a;
    FILE *fp = tc_atomic_open(&a, path);
    if (fp == NULL)
        return -1;
    fprintf(fp, "config\tBLOCK_M\tBLOCK_N\tBLOCK_K\tGROUP_M\tNUM_STAGES\tNUM_WARPS\tstatus\tcompile_ms\tregisters\t"
                "spill_bytes\tsmem_bytes\tpath%s\n", iso_ms != NULL ? "\tcompile_isolated_ms" : "");
    for (int c = 0; c < n_cfg; c++) {
        const int32_t *p = params + c * SP_N_PARAMS;
        int64_t smem = copt_smem(o, arch, p);
        int st = res[c].status == TRACE_OK && smem > smem_limit ? TRACE_OUT_OF_RESOURCES : res[c].status;
        fprintf(fp, "%d", c);
        for (int k = 0; k < SP_N_PARAMS; k++)
            fprintf(fp, "\t%d", p[k]);
        fprintf(fp, "\t%s\t%.3f\t%d\t%d\t%lld\t%s", trace_status_name(st), res[c].compile_ms, res[c].registers,
                res[c].spill_bytes, (long long)smem, space_path_name(copt_path(o, arch, p)));
        if (iso_ms != NULL)
            fprintf(fp, "\t%.3f", iso_ms[c]);
        fputc('\n', fp);
    }
    return tc_atomic_commit(&a);
}

/* Under MPI each rank compiles its share of the configurations (balanced by expected compile time); the wall
 * time of a worker count is the slowest rank's, and rank 0 writes the files. */
/* --compile-only over MPI ranks: which configurations this rank compiles (mine[c] = 1), shared by expected compile
 * time (plan_assign). NULL when memory ran out (on every rank alike: the sizes are the same). */
static unsigned char *rank_share(const struct collect_opts *o, const struct ranks *rk, const int32_t *params,
                                 int n_cfg)
{
    struct plan_model m = {0.0, 0.0, 0, 1, o->compile_invalid};
    double *zero = calloc((size_t)n_cfg, sizeof *zero), *cms = malloc((size_t)n_cfg * sizeof *cms);
    int *owner = malloc((size_t)n_cfg * sizeof *owner), rc;
    unsigned char *mine = calloc((size_t)n_cfg, 1);
    if (zero == NULL || cms == NULL || owner == NULL || mine == NULL) {
        free(zero);
        free(cms);
        free(owner);
        free(mine);
        return NULL;
    }
    for (int c = 0; c < n_cfg; c++)
        cms[c] = plan_compile_ms(&m, params + c * SP_N_PARAMS);
    rc = plan_assign(1, n_cfg, zero, cms, rk->size, owner);
    for (int c = 0; c < n_cfg; c++)
        mine[c] = rc == 0 && owner[c] == rk->rank;
    free(zero);
    free(cms);
    free(owner);
    return mine;
}

/* Every configuration's result to rank 0, where exactly one rank must have compiled it: 0, or 1 on a failure
 * (after a message on rank 0 when a configuration was compiled by no rank or by several). */
static int gather_to_root(struct ranks *rk, int n_cfg, const unsigned char *mine, struct compile_result *res,
                          double *iso_ms)
{
    enum { NV = 6 };
    double *v = calloc((size_t)n_cfg * NV, sizeof *v), *sum = calloc((size_t)n_cfg * NV, sizeof *sum);
    int bad = v == NULL || sum == NULL, root = rk->rank == 0;
    for (int c = 0; c < n_cfg && !bad; c++)
        if (mine[c]) {
            v[c * NV] = res[c].status;
            v[c * NV + 1] = res[c].compile_ms;
            v[c * NV + 2] = res[c].registers;
            v[c * NV + 3] = res[c].spill_bytes;
            v[c * NV + 4] = 1.0;
            v[c * NV + 5] = iso_ms != NULL ? iso_ms[c] : 0.0;
        }
    if (!bad && ranks_sum_to_root(rk, v, sum, n_cfg * NV) != 0)
        bad = 1;
    for (int c = 0; c < n_cfg && root && !bad; c++) {
        if (sum[c * NV + 4] != 1.0) {
            fprintf(stderr, "tunecost collect: configuration %d was compiled by %g ranks\n", c, sum[c * NV + 4]);
            bad = 1;
            break;
        }
        res[c].status = (int32_t)sum[c * NV];
        res[c].compile_ms = sum[c * NV + 1];
        res[c].registers = (int32_t)sum[c * NV + 2];
        res[c].spill_bytes = (int32_t)sum[c * NV + 3];
        if (iso_ms != NULL)
            iso_ms[c] = sum[c * NV + 5];
    }
    free(v);
    free(sum);
    return bad;
}

/* The worker-count scaling table (-o): wall time per worker count, speedup relative to a 1-worker pass of this
 * run (base; without one it is unknown, nan, never 1), mean worker warm-up. 0, or -1 (message). */
static int write_scaling_tsv(const struct collect_opts *o, int n_ranks, int arch, int n_cfg, const double *wall,
                             const double *warm, int base)
{
    struct tc_atomic a;
    FILE *fp = tc_atomic_open(&a, o->output);
    if (fp == NULL)
        return -1;
    fprintf(fp, "# tunecost %s collect --compile-only: %d configurations, sm_%d, NVRTC %d.%d; wall time from the "
                "first request to the last result, worker warm-up excluded (mean shown)\n",
            TC_VERSION, n_cfg, arch, CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
    if (n_ranks > 1)
        fprintf(fp, "# %d MPI ranks, each with `jobs` workers and its share of the configurations; wall time of the "
                    "slowest rank\n", n_ranks);
    tc_tsv_write_header(fp, &tc_tsv_scaling);
    for (int j = 0; j < o->n_jobs; j++)
        fprintf(fp, "%ld\t%.1f\t%.3f\t%.1f\n", o->jobs[j], wall[j], base >= 0 ? wall[base] / wall[j] : NAN, warm[j]);
    return tc_atomic_commit(&a);
}

/* What --compile-only found, on stdout: configurations by status (out of resources where the shared memory
 * exceeds smem_limit), the sum of compile times, wall time and speedup per worker count. */
static void collect_print_summary(const struct collect_opts *o, int arch, int smem_limit, const int32_t *params, int n_cfg,
                          const struct compile_result *res, const double *wall, int base)
{
    int count[TRACE_N_STATUS] = {0};
    double sum = 0.0;
    for (int c = 0; c < n_cfg; c++) {
        int st = res[c].status == TRACE_OK && copt_smem(o, arch, params + c * SP_N_PARAMS) > smem_limit
                     ? TRACE_OUT_OF_RESOURCES : res[c].status;
        count[st]++;
        sum += res[c].compile_ms;
    }
    printf("compile-only: %d configurations: %d ok, %d compile error, %d out of resources (shared memory > "
           "%d bytes); sum of compile times %.1f s\n",
           n_cfg, count[TRACE_OK], count[TRACE_COMPILE_ERROR], count[TRACE_OUT_OF_RESOURCES], smem_limit,
           sum / 1e3);
    printf("jobs\twall_s\tspeedup\n"); /* speedup against this run's 1-worker pass: nan without one */
    for (int j = 0; j < o->n_jobs; j++)
        if (base >= 0)
            printf("%ld\t%.2f\t%.2fx\n", o->jobs[j], wall[j] / 1e3, wall[base] / wall[j]);
        else
            printf("%ld\t%.2f\tnan\n", o->jobs[j], wall[j] / 1e3);
    printf("written: %s%s%s\n", o->output, o->configs_tsv ? ", " : "", o->configs_tsv ? o->configs_tsv : "");
}

/* --compile-only --compile-isolated: every configuration's compile time with one worker, into iso_ms. A 1-worker
 * pass of --jobs (base >= 0, its results in res) is that already; else one more pass runs. 0, or 1 on a failure
 * (every rank takes part in the exchange either way). */
static int isolated_pass(const struct collect_opts *o, struct ranks *rk, int arch, const int32_t *params, int n_cfg,
                         const unsigned char *mine, const struct compile_result *res, int base, double *iso_ms)
{
    int failed = 0, quiet = o->quiet || rk->rank != 0;
    double wall = 0.0, warm = 0.0;
    struct compile_result *one = NULL;
    for (int c = 0; c < n_cfg; c++)
        iso_ms[c] = base >= 0 ? res[c].compile_ms : NAN;
    if (base < 0) {
        if (!quiet)
            fprintf(stderr, "  isolated pass (--compile-isolated): 1 worker\n");
        one = calloc((size_t)n_cfg, sizeof *one);
        if (one == NULL || compile_all(o, 1, arch, params, n_cfg, mine, o->variant, &wall, &warm, one, quiet) != 0) {
            fprintf(stderr, "tunecost collect: the isolated pass: %s\n", one == NULL ? "out of memory" : tc_errmsg());
            failed = 1;
        }
        for (int c = 0; c < n_cfg && !failed; c++)
            if (mine == NULL || mine[c])
                iso_ms[c] = one[c].compile_ms;
        if (one != NULL)
            for (int c = 0; c < n_cfg; c++)
                compile_result_free(&one[c]);
        free(one);
    }
    return isinf(ranks_max_double(rk, failed ? INFINITY : 0.0)) ? 1 : 0;
}

/* Refuse an unwritable, existing (without -f) or shared -o or --configs-tsv before minutes of compiling, not
 * after: 0, or -1 after the message. */
static int compile_only_check_outputs(const struct collect_opts *o)
{
    const char *ins[2] = {o->shapes_file, o->configs_tsv};
    if (tc_output_check("-o", o->output, 0, ins, 2) != 0 || tc_output_clobber_check("-o", o->output, o->force) != 0 ||
        (o->configs_tsv != NULL && (tc_output_check("--configs-tsv", o->configs_tsv, 0, ins, 1) != 0 ||
                                    tc_output_clobber_check("--configs-tsv", o->configs_tsv, o->force) != 0))) {
        fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
        return -1;
    }
    if (o->configs_tsv != NULL && strcmp(o->configs_tsv, o->output) == 0) {
        fprintf(stderr, "tunecost collect: --configs-tsv %s: is also -o; the two tables need two files\n",
                o->configs_tsv);
        return -1;
    }
    return 0;
}

static int compile_only(const struct collect_opts *o, struct ranks *rk)
{
    int n_cfg = 0, rc = 1, arch = o->arch ? o->arch : 90, base = -1, failed = 0, root = rk->rank == 0;
    int32_t *params = plan_configs(&o->space, o->space_full, o->n_configs, o->seed, &n_cfg);
    double wall[COPT_MAX_JOBS], warm[COPT_MAX_JOBS];
    struct compile_result *res = NULL;
    unsigned char *mine = NULL;
    double *iso_ms = NULL; /* --compile-isolated: per configuration, from a 1-worker pass */
    int quiet = o->quiet || !root;
    /* The opt-in shared-memory limit per block of the target (sm_90: 227 KiB); what the GPU run would read off
     * the device. */
    int smem_limit = arch == 90 ? 232448 : arch == 80 ? 166912 : arch == 86 || arch == 89 ? 101376 : 232448;

    if (params == NULL) {
        fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
        goto out;
    }
    if (compile_only_check_outputs(o) != 0) {
        rc = 2;
        goto out;
    }
    signal(SIGPIPE, SIG_IGN); /* a worker that is gone shows as a failed write, not as our death */
    res = calloc((size_t)n_cfg, sizeof *res);
    if (res == NULL || (o->compile_isolated && (iso_ms = malloc((size_t)n_cfg * sizeof *iso_ms)) == NULL))
        goto out;
    if (rk->size > 1 && (mine = rank_share(o, rk, params, n_cfg)) == NULL)
        goto out; /* same on every rank: same sizes */
    if (!quiet) {
        fprintf(stderr, "collect --compile-only: %d configurations for sm_%d", n_cfg, arch);
        if (rk->size > 1)
            fprintf(stderr, " over %d ranks", rk->size);
        fprintf(stderr, ", worker counts");
        for (int j = 0; j < o->n_jobs; j++)
            fprintf(stderr, " %ld", o->jobs[j]);
        fprintf(stderr, "\n");
    }
    int keep = 0; /* per-configuration results from the 1-worker pass (uncontended), else the first */
    for (int j = 0; j < o->n_jobs; j++)
        if (o->jobs[j] == 1) {
            keep = j;
            break;
        }
    for (int j = 0; j < o->n_jobs; j++) {
        if (!failed && compile_all(o, (int)o->jobs[j], arch, params, n_cfg, mine, o->variant, &wall[j], &warm[j],
                                   j == keep ? res : NULL, quiet) != 0) {
            fprintf(stderr, "%stunecost collect: compiling with %ld workers: %s\n", rk->size > 1 ? "rank " : "",
                    o->jobs[j], tc_errmsg());
            failed = 1;
        }
        /* every rank takes part in each exchange, failed or not (else the others would wait forever) */
        wall[j] = ranks_max_double(rk, failed ? INFINITY : wall[j]);
        warm[j] = ranks_max_double(rk, failed ? INFINITY : warm[j]);
        if (isinf(wall[j]))
            failed = 1;
        if (o->jobs[j] == 1)
            base = j;
        if (!quiet && !failed)
            fprintf(stderr, "  %3ld workers: %9.1f ms wall\n", o->jobs[j], wall[j]);
    }
    if (o->compile_isolated && !failed && isolated_pass(o, rk, arch, params, n_cfg, mine, res, base, iso_ms) != 0)
        failed = 1;
    if (rk->size > 1 && !failed) /* every configuration's row to rank 0 (exactly one rank compiled it) */
        failed |= gather_to_root(rk, n_cfg, mine, res, iso_ms);
    if (failed || !root) {
        rc = failed;
        goto out;
    }
    if (write_scaling_tsv(o, rk->size, arch, n_cfg, wall, warm, base) != 0) {
        fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
        goto out;
    }
    if (o->configs_tsv != NULL &&
        write_configs_tsv(o, arch, o->configs_tsv, params, n_cfg, res, iso_ms, smem_limit) != 0) {
        fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
        goto out;
    }
    if (!o->quiet)
        collect_print_summary(o, arch, smem_limit, params, n_cfg, res, wall, base);
    rc = 0;
out:
    if (res != NULL)
        for (int c = 0; c < n_cfg; c++)
            compile_result_free(&res[c]);
    free(res);
    free(iso_ms);
    free(params);
    free(mine);
    return rc;
}

/* ---- one collection over the ranks of an MPI job ---------------------------------------------------------- */

struct job {
    struct ranks *rk;
    const struct collect_opts *o;
    int failed_start; /* a rank could not start (its message says why) */
};

/* Cores this process may run on (the launcher may have bound it to fewer than the node has). */
static int usable_cores(void)
{
    cpu_set_t set;
    int n = copt_online_cores();
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0 && CPU_COUNT(&set) < n)
        n = CPU_COUNT(&set);
    return n;
}

/* Devices in CUDA_VISIBLE_DEVICES (comma-separated), or 0 when unset. */
static int visible_devices(void)
{
    const char *s = getenv("CUDA_VISIBLE_DEVICES");
    int n = 1;
    if (s == NULL || *s == '\0')
        return 0;
    for (; *s; s++)
        n += *s == ',';
    return n;
}

struct dev_note {
    int ok, cc;
    char name[128];
};

/* collect_share.sync: every rank's device; one GPU kind per trace. */
static int job_sync(void *ctx, const struct bench_device *dev, int ok)
{
    struct job *j = ctx;
    struct ranks *rk = j->rk;
    struct dev_note me, *all = calloc((size_t)rk->size, sizeof *all);
    int rc = 0;
    memset(&me, 0, sizeof me);
    me.ok = ok;
    if (ok) {
        me.cc = dev->cc;
        snprintf(me.name, sizeof me.name, "%s", dev->name);
    }
    /* an allocation failure still takes part in the exchange (as a failed start) */
    if (ranks_allgather(rk, &me, (int)sizeof me, all != NULL ? all : &me) != 0 || all == NULL)
        rc = 1;
    for (int k = 0; rc == 0 && k < rk->size; k++)
        if (!all[k].ok) {
            if (rk->rank == 0)
                fprintf(stderr, "tunecost collect: rank %d could not start (its message above); stopping every "
                                "rank\n", k);
            j->failed_start = 1;
            rc = 1;
        }
    for (int k = 1; rc == 0 && k < rk->size; k++)
        if (strcmp(all[k].name, all[0].name) != 0 || all[k].cc != all[0].cc) {
            if (rk->rank == 0) {
                fprintf(stderr, "tunecost collect: one trace holds one GPU kind, but the ranks have several:");
                for (int q = 0; q < rk->size; q++)
                    fprintf(stderr, "%s rank %d '%s' (sm_%d)", q ? "," : "", q, all[q].name, all[q].cc);
                fprintf(stderr, "; run one collection per kind (e.g. one mpirun per partition)\n");
            }
            j->failed_start = 1;
            rc = 2;
        }
    free(all);
    return rc;
}

static void job_tick(void *ctx, long finished, long total, long *show_finished, long *show_total)
{
    struct job *j = ctx;
    ranks_progress(j->rk, finished, total, show_finished, show_total);
}

static void shard_name(const char *out, int rank, char *buf, size_t len)
{
    snprintf(buf, len, "%s.rank-%d", out, rank);
}

/* Rank 0, after every rank closed its shard: the pairs each rank was given that its shard does not cover (a
 * run, or a configuration that failed to compile or does not fit). Prints them; returns the count. */
static long report_missing(const struct collect_opts *o, int n_ranks, const int *owner, int n_in, int n_cfg)
{
    long missing = 0;
    char path[4200];
    for (int r = 0; r < n_ranks; r++) {
        struct trace *t;
        unsigned char *cov = calloc((size_t)n_in * n_cfg, 1);
        long mine = 0, miss = 0;
        int first_in = -1, last_in = -1;
        shard_name(o->output, r, path, sizeof path);
        t = access(path, F_OK) == 0 ? trace_open(path) : NULL;
        if (cov == NULL) {
            free(cov);
            return -1;
        }
        if (t != NULL && trace_n_configs(t) == n_cfg && trace_n_inputs(t) == n_in) {
            for (size_t q = 0; q < trace_n_runs(t); q++)
                cov[(size_t)trace_run(t, q)->input * n_cfg + trace_run(t, q)->config] = 1;
            for (int k = 0; k < n_cfg; k++) {
                const struct trace_config *c = trace_config(t, k);
                if (c->status == TRACE_OUT_OF_RESOURCES || (!isnan(c->compile_ms) && c->status != TRACE_OK))
                    for (int i = 0; i < n_in; i++)
                        cov[(size_t)i * n_cfg + k] = 1;
            }
        }
        for (int i = 0; i < n_in; i++)
            for (int k = 0; k < n_cfg; k++)
                if (owner[(size_t)i * n_cfg + k] == r) {
                    mine++;
                    if (!cov[(size_t)i * n_cfg + k]) {
                        miss++;
                        if (first_in < 0)
                            first_in = i;
                        last_in = i;
                    }
                }
        if (miss > 0)
            fprintf(stderr, "tunecost collect: missing: rank %d (%s%s): %ld of its %ld pairs, inputs %d to %d\n", r,
                    path, t == NULL ? ", absent or unreadable" : "", miss, mine, first_in + 1, last_in + 1);
        missing += miss;
        trace_close(t);
        free(cov);
    }
    return missing;
}

/* Rank 0: the shards into OUT with `tunecost merge`, and the summary. */
static int merge_shards(const struct collect_opts *o, int n_ranks, double wall_ms)
{
    char **argv = calloc((size_t)n_ranks + 4, sizeof *argv);
    int rc = 1, argc = 0;
    if (argv == NULL)
        return 1;
    argv[argc++] = "merge";
    argv[argc++] = "--force"; /* OUT is derived from the shards: the start refused an OUT not meant to go */
    argv[argc++] = "--quiet";
    argv[argc++] = (char *)o->output;
    for (int r = 0; r < n_ranks; r++) {
        char path[4200];
        shard_name(o->output, r, path, sizeof path);
        argv[argc] = strdup(path);
        if (argv[argc++] == NULL)
            goto out;
    }
    rc = cmd_merge(argc, argv);
    if (rc == 0 && !o->quiet) {
        struct trace *t = trace_open(o->output);
        if (t == NULL) {
            fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
            rc = 1;
            goto out;
        }
        progress_summary(t, o->output, o->warmup_ms, o->rep_ms, NULL, wall_ms);
        printf("wall time %.2f s over %d ranks (this invocation); shards: %s.rank-0 .. %s.rank-%d (kept)\n",
               wall_ms / 1e3, n_ranks, o->output, o->output, n_ranks - 1);
        trace_close(t);
    }
out:
    for (int q = 4; q < argc; q++)
        free(argv[q]);
    free(argv);
    return rc;
}

/* Rank 0's refusals before any GPU work (an existing output without --resume or --force, shards of another rank
 * count, nothing to resume): 2 after a message, else 0. */
static int collect_ranks_refused(const struct collect_opts *o, const struct ranks *rk)
{
    char path[4200];
    struct stat st;
    shard_name(o->output, rk->size, path, sizeof path);
    if (stat(o->output, &st) == 0 && !o->resume && !o->force) {
        fprintf(stderr, "tunecost collect: %s exists: continue it with --resume (same options and ranks) or "
                        "overwrite it with --force\n", o->output);
        return 2;
    }
    if (o->resume && stat(path, &st) == 0) {
        fprintf(stderr, "tunecost collect: --resume: %s exists: the collection ran with more than %d ranks; "
                        "resume it with the same number\n", path, rk->size);
        return 2;
    }
    if (o->resume) {
        int any = 0;
        for (int r = 0; r < rk->size && !any; r++) {
            shard_name(o->output, r, path, sizeof path);
            any = stat(path, &st) == 0;
        }
        if (!any) {
            fprintf(stderr, "tunecost collect: --resume: no shard %s.rank-K exists (K < %d): nothing to "
                            "continue\n", o->output, rk->size);
            return 2;
        }
    }
    return 0;
}

/* Rank 0's verdict once every rank is done: the worst exit, or the shards merged into the output. */
static int collect_ranks_outcome(const struct collect_opts *o, const struct ranks *rk, const struct job *job,
                                 const int *all_rc, const int *owner, int n_cfg, double wall_ms)
{
    int worst = 0;
    long missing;
    for (int r = 0; r < rk->size; r++)
        worst = all_rc[r] > worst ? all_rc[r] : worst;
    if (job->failed_start || worst == 2)
        return worst ? worst : 1;
    missing = report_missing(o, rk->size, owner, o->n_shapes, n_cfg);
    if (missing != 0 || worst != 0) {
        fprintf(stderr, "tunecost collect: %s not written: %ld pairs missing; run the same command with "
                        "--resume\n", o->output, missing);
        return 1;
    }
    return merge_shards(o, rk->size, wall_ms);
}

/* The device a rank drives: its node-local rank among the visible GPUs (srun --gpus-per-task: one visible each),
 * or --device when there is one rank. */
static int collect_rank_device(const struct collect_opts *o, const struct ranks *rk)
{
    int vis = visible_devices();
    if (o->device_given && rk->size == 1)
        return o->device;
    return vis > 0 ? rk->local_rank % vis : rk->local_rank;
}

/* One rank's part of the collection: its pairs into OUT.rank-K; at the end rank 0 checks that every pair is
 * covered and merges the shards into OUT. Every rank returns rank 0's verdict. */
static int collect_ranks(struct collect_opts *o, struct ranks *rk)
{
    struct collect_share sh;
    struct job job = {rk, o, 0};
    struct plan_model m;
    char path[4200], label[32];
    int n_cfg = 0, rc = 1, refused = 0, *owner = NULL, *all_rc = NULL;
    int32_t *params = plan_configs(&o->space, o->space_full, o->n_configs, o->seed, &n_cfg);
    size_t n_pairs = (size_t)n_cfg * (size_t)o->n_shapes;
    double *run_ms = NULL, *comp_ms = NULL, t0 = tc_now_ms();
    unsigned char *own = NULL;
    long jobs;

    /* Workers: the rank's share of its node's cores (and no more than it may run on). */
    jobs = o->jobs_given ? o->jobs[0] : (long)(copt_online_cores() / rk->local_size);
    if (!o->jobs_given && usable_cores() < jobs)
        jobs = usable_cores();
    if (jobs < 1)
        jobs = 1;
    memset(&m, 0, sizeof m);
    m.warmup_ms = o->warmup_ms;
    m.rep_ms = o->rep_ms;
    m.flush_bytes = o->flush_bytes;
    m.compile_jobs = (int)ranks_min_long(rk, jobs); /* the same plan on every rank */
    m.compile_invalid = o->compile_invalid;
    owner = malloc((n_pairs ? n_pairs : 1) * sizeof *owner);
    own = malloc(n_pairs ? n_pairs : 1);
    run_ms = malloc((n_pairs ? n_pairs : 1) * sizeof *run_ms);
    comp_ms = malloc((size_t)(n_cfg ? n_cfg : 1) * sizeof *comp_ms);
    all_rc = calloc((size_t)rk->size, sizeof *all_rc);
    if (params == NULL || owner == NULL || own == NULL || run_ms == NULL || comp_ms == NULL || all_rc == NULL) {
        fprintf(stderr, "tunecost collect: out of memory\n"); /* the same sizes everywhere: every rank stops */
        goto out;
    }
    for (int k = 0; k < n_cfg; k++) {
        comp_ms[k] = plan_compile_ms(&m, params + k * SP_N_PARAMS) / m.compile_jobs;
        for (int i = 0; i < o->n_shapes; i++)
            run_ms[(size_t)i * n_cfg + k] = plan_run_ms(&m, o->dims + i * SPACE_N_DIMS, params + k * SP_N_PARAMS);
    }
    if (plan_assign(o->n_shapes, n_cfg, run_ms, comp_ms, rk->size, owner) != 0) {
        fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
        goto out;
    }
    for (size_t j = 0; j < n_pairs; j++)
        own[j] = owner[j] == rk->rank;

    /* Refusals every rank agrees on, before any GPU work: decided on rank 0, told to all. */
    if (rk->rank == 0)
        refused = collect_ranks_refused(o, rk);
    ranks_bcast_int(rk, &refused);
    if (refused) {
        rc = refused;
        goto out;
    }

    shard_name(o->output, rk->rank, path, sizeof path);
    snprintf(label, sizeof label, rk->size > 1 ? "rank %d: " : "", rk->rank);
    memset(&sh, 0, sizeof sh);
    sh.path = path;
    sh.own = own;
    sh.device = collect_rank_device(o, rk);
    sh.jobs = jobs;
    sh.fresh_if_missing = 1; /* a rank that died before creating its shard starts it on --resume */
    sh.summary = 0;
    sh.label = label;
    sh.sync = job_sync;
    sh.tick = job_tick;
    sh.ctx = &job;
    if (!o->quiet) {
        size_t n_own = 0;
        for (size_t j = 0; j < n_pairs; j++)
            n_own += own[j];
        fprintf(stderr, "%scollect: rank %d of %d (node-local %d of %d): device %d, %ld compile workers, %zu of %zu "
                        "pairs -> %s\n", label, rk->rank, rk->size, rk->local_rank, rk->local_size, sh.device, jobs,
                n_own, n_pairs, path);
    }
    {
        struct collect_opts mine = *o;
        if (rk->rank != 0)
            mine.quiet = 1; /* rank 0 draws the combined progress; the others print only their failures */
        rc = collect_run(&mine, &sh);
    }
    ranks_progress_end(rk);
    ranks_allgather(rk, &rc, (int)sizeof rc, all_rc);
    t0 = ranks_max_double(rk, tc_now_ms() - t0);
    if (rk->rank == 0)
        rc = collect_ranks_outcome(o, rk, &job, all_rc, owner, n_cfg, t0);
    ranks_bcast_int(rk, &rc);
out:
    free(params);
    free(owner);
    free(own);
    free(run_ms);
    free(comp_ms);
    free(all_rc);
    return rc;
}

int cmd_collect(int argc, char **argv)
{
    struct collect_opts o;
    struct collect_share sh;
    struct ranks rk;
    int help = 0, rc = copt_parse(argc, argv, &o, &help);
    if (rc != 0)
        return rc;
    if (help) {
        copt_free(&o);
        return 0;
    }
    if (ranks_init(&rk, &argc, &argv) != 0) {
        fprintf(stderr, "tunecost collect: %s\n", tc_errmsg());
        copt_free(&o);
        return 2;
    }
    if (rk.active && rk.size > 1 && o.device_given) {
        fprintf(stderr, "tunecost collect: --device: under mpirun the node-local rank picks the device (set "
                        "CUDA_VISIBLE_DEVICES to choose which)\n");
        rc = 2;
    } else if (o.compile_only) {
        if (rk.size > 1 && !o.jobs_given) { /* the rank's share of its node's cores */
            o.jobs[0] = copt_online_cores() / rk.local_size;
            if (usable_cores() < o.jobs[0])
                o.jobs[0] = usable_cores();
            if (o.jobs[0] < 1)
                o.jobs[0] = 1;
        }
        rc = compile_only(&o, &rk);
    } else if (rk.active) {
        rc = collect_ranks(&o, &rk);
    } else {
        memset(&sh, 0, sizeof sh);
        sh.path = o.output;
        sh.device = o.device;
        sh.jobs = o.jobs[0];
        sh.summary = 1;
        sh.label = "";
        rc = collect_run(&o, &sh);
    }
    ranks_finalize(&rk);
    copt_free(&o);
    return rc;
}
