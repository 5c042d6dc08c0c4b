/* collect.c — one collection by this process (see collect.h): the coordinator's event loop. It never touches
 * CUDA. It forks the compile workers (compile.c) and the benchmarking child (bench.c), writes the trace (every
 * run durable as soon as it ends), shows progress, and restarts the child when a configuration kills it. */
#include "collect.h"

#include "bench.h"
#include "compile.h"
#include "kernels_src.h"
#include "plan.h"
#include "progress.h"
#include "space.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_time.h"
#include "trace.h"

#include <cuda.h> /* CUDA_VERSION only: this process never calls CUDA */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile sig_atomic_t g_interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    g_interrupted++;
}

int collect_interrupted(void)
{
    return (int)g_interrupted;
}

enum cfg_state { CFG_PENDING, CFG_LAUNCHABLE, CFG_NEVER /* compile error, or too big for the device */ };
enum busy { BUSY_IDLE, BUSY_INPUT /* preparing an input */, BUSY_RUN /* running a pair */ };

struct coll {
    const struct collect_opts *o;
    const struct collect_share *sh;
    int n_cfg, n_in, arch;
    int32_t *params;      /* n_cfg x SP_N_PARAMS */
    const int64_t *dims;  /* n_in x 3 */
    struct trace *t;
    struct bench_device dev;
    struct compile_pool *pool;
    struct compile_pool *iso_pool; /* --compile-isolated: one worker, fed once `pool` has finished; else NULL */
    int iso_started;               /* the isolated pass has been submitted */
    struct bench_child *bench;
    void **cubin;         /* per config, once compiled and launchable */
    size_t *cubin_len;
    enum cfg_state *state; /* per config */
    unsigned char *done;  /* per (input, config): run in the trace, or not to be run (here) */
    long total, finished; /* runs of this invocation */
    int child_input;      /* input the benchmarking child holds, -1 none */
    enum busy busy;
    int busy_input, busy_config;
    double busy_since;
    double run_ms_sum;    /* wall of finished runs */
    struct progress prog;
    struct progress_times times;
};

static int trace_new(struct coll *c)
{
    const struct collect_opts *o = c->o;
    struct trace_meta m;
    struct trace_config *cfg = calloc((size_t)c->n_cfg, sizeof *cfg);
    struct trace_input *in = calloc((size_t)c->n_in, sizeof *in);
    int rc = -1;
    if (cfg == NULL || in == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    memset(&m, 0, sizeof m); /* generator and created_utc left empty: trace_create fills them */
    snprintf(m.kernel, sizeof m.kernel, "gemm_f16_f32acc");
    snprintf(m.kernel_family, sizeof m.kernel_family, "%s", space_family_name(c->arch, o->family));
    snprintf(m.device_name, sizeof m.device_name, "%s", c->dev.name);
    m.device_cc = c->dev.cc;
    m.device_sms = c->dev.sms;
    m.device_l2_bytes = c->dev.l2_bytes;
    m.driver_version = c->dev.driver_version;
    m.cuda_version = CUDA_VERSION;
    snprintf(m.timer, sizeof m.timer, "%s", copt_timer_name(o->timer));
    snprintf(m.protocol, sizeof m.protocol, "%s", copt_protocol_name(o->protocol));
    m.warmup_ms = o->warmup_ms;
    m.rep_ms = o->rep_ms;
    m.flush_bytes = c->dev.flush_bytes;
    m.compile_jobs = (int32_t)c->sh->jobs;
    m.seed = o->seed;
    c->t = trace_create(c->sh->path, &m, space_param_names, SP_N_PARAMS, space_dim_names, SPACE_N_DIMS);
    if (c->t == NULL)
        goto out;
    for (int k = 0; k < c->n_cfg; k++) {
        /* compile_ms NaN marks "not compiled yet" until the worker's result arrives */
        cfg[k].status = TRACE_OK;
        cfg[k].compile_ms = NAN;
        cfg[k].load_ms = NAN;
        cfg[k].compile_isolated_ms = NAN; /* until the isolated pass measures it (--compile-isolated) */
        cfg[k].registers = -1;
        cfg[k].spill_bytes = -1;
        cfg[k].smem_bytes = (int32_t)copt_smem(c->o, c->arch, c->params + k * SP_N_PARAMS);
        cfg[k].path = copt_path(c->o, c->arch, c->params + k * SP_N_PARAMS);
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
    const struct collect_opts *o = c->o;
    const char *f = c->sh->path;
    if (strcmp(m->kernel, "gemm_f16_f32acc") != 0)
        return tc_seterr("%s: --resume: kernel '%s' is not this collector's gemm_f16_f32acc", f, m->kernel);
    if (with_device && strcmp(m->device_name, c->dev.name) != 0)
        return tc_seterr("%s: --resume: collected on '%s', this device is '%s'", f, m->device_name, c->dev.name);
    if (strcmp(m->timer, copt_timer_name(o->timer)) != 0)
        return tc_seterr("%s: --resume: collected with --timer %s, not %s", f, m->timer, copt_timer_name(o->timer));
    if (strcmp(m->protocol, copt_protocol_name(o->protocol)) != 0)
        return tc_seterr("%s: --resume: collected with --protocol %s, not %s", f, m->protocol,
                         copt_protocol_name(o->protocol));
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

static void show_progress(struct coll *c, int force)
{
    char shape[64], cfg[64] = "";
    long done = c->finished, total = c->total;
    if (c->sh->tick != NULL)
        c->sh->tick(c->sh->ctx, c->finished, c->total, &done, &total);
    if (c->busy_input >= 0)
        tc_format_shape(c->dims + c->busy_input * SPACE_N_DIMS, SPACE_N_DIMS, shape, sizeof shape);
    else
        snprintf(shape, sizeof shape, "-");
    if (c->busy == BUSY_RUN)
        space_format_config(c->params + c->busy_config * SP_N_PARAMS, cfg, sizeof cfg);
    else if (c->busy == BUSY_INPUT)
        snprintf(cfg, sizeof cfg, "cuBLAS reference");
    else if (compile_pool_pending(c->pool) == 0 && c->iso_pool != NULL)
        snprintf(cfg, sizeof cfg, "isolated compiles (%d left)", compile_pool_pending(c->iso_pool));
    else
        snprintf(cfg, sizeof cfg, "waiting for compiles (%d left)", compile_pool_pending(c->pool));
    progress_draw(&c->prog, force, done, total, shape, cfg);
}

static void handle_compile(struct coll *c, struct compile_result *r)
{
    int k = r->config;
    struct trace_config cfg = *trace_config(c->t, k);
    int64_t smem = copt_smem(c->o, c->arch, c->params + k * SP_N_PARAMS);
    int fresh = isnan(cfg.compile_ms); /* a resumed trace keeps its first measurement */
    cfg.registers = r->registers;
    cfg.spill_bytes = r->spill_bytes;
    cfg.smem_bytes = (int32_t)smem;
    if (fresh)
        cfg.compile_ms = r->compile_ms;
    if (r->status == TRACE_COMPILE_ERROR) {
        cfg.status = TRACE_COMPILE_ERROR;
        c->state[k] = CFG_NEVER;
    } else if (smem > c->dev.smem_optin) {
        cfg.status = TRACE_OUT_OF_RESOURCES;
        c->state[k] = CFG_NEVER;
    } else {
        cfg.status = TRACE_OK;
        c->state[k] = CFG_LAUNCHABLE;
        if (c->times.first_compiled_ms == 0.0)
            c->times.first_compiled_ms = tc_now_ms();
        c->cubin[k] = r->cubin;
        c->cubin_len[k] = r->cubin_len;
        r->cubin = NULL;
    }
    if (c->state[k] == CFG_NEVER)
        for (int i = 0; i < c->n_in; i++)
            if (!c->done[(size_t)i * c->n_cfg + k]) {
                c->done[(size_t)i * c->n_cfg + k] = 1;
                c->total--;
            }
    if (fresh || cfg.status != trace_config(c->t, k)->status) {
        if (trace_update_config(c->t, k, &cfg) != 0)
            fprintf(stderr, "\n%stunecost collect: warning: %s\n", c->sh->label, tc_errmsg());
        if (r->status == TRACE_COMPILE_ERROR && trace_set_compile_log(c->t, k, r->log) != 0)
            fprintf(stderr, "\n%stunecost collect: warning: %s\n", c->sh->label, tc_errmsg());
    }
    compile_result_free(r);
}

/* --compile-isolated: whether this process measures configuration k's isolated compile time. It was compiled
 * here or before (compile_ms known) and has no isolated time yet; with --shard i/n the shards of one collection
 * share the pass (iso_shard, balanced by expected compile time; `merge` unites them) unless
 * --compile-isolated-all (iso_shard NULL: every configuration). */
static int isolated_wanted(const struct coll *c, const int *iso_shard, int k)
{
    const struct trace_config *cfg = trace_config(c->t, k);
    if (isnan(cfg->compile_ms) || !isnan(cfg->compile_isolated_ms))
        return 0;
    return iso_shard == NULL || iso_shard[k] == c->o->shard_i - 1;
}

/* Once the contended pool has compiled everything (and its workers have warmed up), send every wanted
 * configuration to the single isolated worker: it compiles them one at a time, dearest first (the split between
 * shards is by expected cost), while the benchmarking child (another process) goes on. */
static int isolated_start(struct coll *c)
{
    int *iso_shard = NULL, *order = malloc((size_t)c->n_cfg * sizeof *order), n = 0, rc = -1;
    c->iso_started = 1;
    if (order == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    int share = c->o->shard_n > 0 && c->o->compile_isolated == 1;
    if (share && ((iso_shard = malloc((size_t)c->n_cfg * sizeof *iso_shard)) == NULL ||
                  plan_isolated_shards(c->params, c->n_cfg, c->o->shard_n, iso_shard) != 0)) {
        tc_seterr_env("out of memory");
        goto out;
    }
    if (compile_pool_wait_warmup(c->pool) != 0)
        goto out;
    for (int k = 0; k < c->n_cfg; k++)
        if (isolated_wanted(c, iso_shard, k))
            order[n++] = k;
    plan_sort_compiles(order, n, c->params, 1);
    for (int q = 0; q < n; q++)
        if (compile_pool_submit(c->iso_pool, order[q], c->params + order[q] * SP_N_PARAMS, c->arch,
                                copt_path(c->o, c->arch, c->params + order[q] * SP_N_PARAMS)) != 0)
            goto out;
    rc = 0;
out:
    free(order);
    free(iso_shard);
    return rc;
}

/* A result of the isolated pass: its compile time becomes compile_isolated_ms (the cubin is not needed). */
static void handle_isolated(struct coll *c, struct compile_result *r)
{
    int k = r->config;
    struct trace_config cfg = *trace_config(c->t, k);
    if ((r->status == TRACE_COMPILE_ERROR) != (cfg.status == TRACE_COMPILE_ERROR))
        fprintf(stderr, "\n%stunecost collect: warning: configuration %d: the isolated compile gave '%s', the first "
                        "'%s'\n", c->sh->label, k, trace_status_name(r->status), trace_status_name(cfg.status));
    if (isnan(cfg.compile_isolated_ms)) {
        cfg.compile_isolated_ms = r->compile_ms;
        if (trace_update_config(c->t, k, &cfg) != 0)
            fprintf(stderr, "\n%stunecost collect: warning: %s\n", c->sh->label, tc_errmsg());
    }
    compile_result_free(r);
}

/* Take what the compile pools have finished. 0, or -1 (message printed). */
static int take_compiles(struct coll *c)
{
    struct compile_result cr;
    int r;
    while ((r = compile_pool_take(c->pool, &cr)) == 1)
        handle_compile(c, &cr);
    if (r == 0 && c->iso_pool != NULL) {
        if (!c->iso_started && compile_pool_pending(c->pool) == 0 && isolated_start(c) != 0)
            r = -1;
        while (r == 0 && (r = compile_pool_take(c->iso_pool, &cr)) == 1) {
            handle_isolated(c, &cr);
            r = 0;
        }
    }
    if (r < 0)
        fprintf(stderr, "\n%stunecost collect: %s\n", c->sh->label, tc_errmsg());
    return r < 0 ? -1 : 0;
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
            fprintf(stderr, "%s%s%s %s: %s: %s\n", isatty(2) ? "\r\033[K" : "", c->sh->label,
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
            double s = (tc_now_ms() - c->prog.t_start) / 1e3;
            long done = c->finished, total = c->total;
            char eta[64] = "";
            progress_fmt_dur(s, el, sizeof el);
            if (c->sh->tick != NULL) { /* the job's counts (all ranks) and ETA at their combined rate */
                char d[32];
                c->sh->tick(c->sh->ctx, c->finished, c->total, &done, &total);
                progress_fmt_dur(done > 0 ? s / (double)done * (double)(total - done) : -1.0, d, sizeof d);
                snprintf(eta, sizeof eta, " (all ranks), eta %s", d);
            }
            fprintf(stderr, "%scollect: input %d/%d %s done; %ld/%ld runs, elapsed %s%s\n", c->sh->label, i + 1,
                    c->n_in, tc_format_shape(c->dims + i * SPACE_N_DIMS, SPACE_N_DIMS, shape, sizeof shape), done,
                    total, el, eta);
        }
    }
    return 0;
}

/* Next thing for the idle child: 1 = sent, 0 = nothing launchable now, 2 = all done. Inputs go in order; an
 * input's cuBLAS reference is prepared as soon as the input has work left, overlapping its first compiles. */
static int collect_dispatch(struct coll *c)
{
    for (int i = 0; i < c->n_in; i++) {
        int waiting = 0;
        for (int k = 0; k < c->n_cfg; k++) {
            if (c->done[(size_t)i * c->n_cfg + k])
                continue;
            c->busy_input = i;
            if (c->child_input != i) {
                c->busy = BUSY_INPUT;
                c->busy_config = -1;
                c->busy_since = tc_now_ms();
                return bench_send_input(c->bench, i, c->dims + i * SPACE_N_DIMS) == 0 ? 1 : -1;
            }
            if (c->state[k] != CFG_LAUNCHABLE) {
                waiting = 1;
                continue;
            }
            c->busy = BUSY_RUN;
            c->busy_config = k;
            c->busy_since = tc_now_ms();
            if (c->times.first_run_ms == 0.0)
                c->times.first_run_ms = c->busy_since;
            return bench_send_run(c->bench, k, c->params + k * SP_N_PARAMS,
                                  copt_path(c->o, c->arch, c->params + k * SP_N_PARAMS), c->cubin[k], c->cubin_len[k]) == 0 ? 1
                                                                                                               : -1;
        }
        if (waiting)
            return 0; /* inputs are collected in order: wait for this one's compiles */
    }
    return 2;
}

/* The pairs of this process that are still to run, and the configurations to compile for them (cheapest
 * compiles first, so that benchmarking starts early): fills c->done, c->state, c->total and order. */
static int plan_work(struct coll *c, int *order, int *n_order)
{
    const struct collect_opts *o = c->o;
    *n_order = 0;
    for (size_t r = 0; r < trace_n_runs(c->t); r++) {
        const struct trace_run *run = trace_run(c->t, r);
        c->done[(size_t)run->input * c->n_cfg + run->config] = 1;
    }
    if (c->sh->own != NULL) /* another rank's pairs are not to be run here */
        for (size_t j = 0; j < (size_t)c->n_in * c->n_cfg; j++)
            if (!c->sh->own[j])
                c->done[j] = 1;
    for (int k = 0; k < c->n_cfg; k++) {
        const struct trace_config *cfg = trace_config(c->t, k);
        int needed = 0, mine = c->sh->own == NULL;
        if (isnan(cfg->compile_ms) && cfg->status == TRACE_OK && !o->compile_invalid &&
            copt_smem(o, c->arch, c->params + k * SP_N_PARAMS) > c->dev.smem_optin) {
            struct trace_config oor = *cfg; /* the resource check alone decides: never compiled, never launched */
            oor.status = TRACE_OUT_OF_RESOURCES;
            if (trace_update_config(c->t, k, &oor) != 0)
                return -1;
            cfg = trace_config(c->t, k);
        }
        if (cfg->status == TRACE_OUT_OF_RESOURCES || (!isnan(cfg->compile_ms) && cfg->status != TRACE_OK)) {
            c->state[k] = CFG_NEVER; /* compile error or out of resources, known from the first attempt */
            for (int i = 0; i < c->n_in; i++)
                c->done[(size_t)i * c->n_cfg + k] = 1;
            continue;
        }
        for (int i = 0; i < c->n_in; i++) {
            mine |= c->sh->own != NULL && c->sh->own[(size_t)i * c->n_cfg + k];
            if (!c->done[(size_t)i * c->n_cfg + k]) {
                needed = 1;
                c->total++;
            }
        }
        if (needed || (isnan(cfg->compile_ms) && mine))
            order[(*n_order)++] = k;
    }
    plan_sort_compiles(order, *n_order, c->params, 0);
    return 0;
}

/* Creates or reopens the trace at sh->path once the device is known. Returns 0, 1 or 2 (refused). */
static int open_trace(struct coll *c, int resume, int *created)
{
    const char *path = c->sh->path;
    if (resume) {
        /* The device checks too on a read-only open: trace_open_append may rewrite the file into its appendable
         * layout, and a refused trace must stay byte for byte as it was. */
        c->t = trace_open(path);
        if (c->t == NULL || check_resume(c, 1) != 0)
            return 2;
        trace_close(c->t);
        c->t = trace_open_append(path);
        return c->t == NULL ? 2 : 0;
    }
    if (trace_new(c) != 0)
        return 1;
    *created = 1;
    return 0;
}

/* Which descriptor woke the loop: the child's reply is handled here. Returns 0, 1 to go round again at once,
 * or -1 (message printed). */
static int take_reply(struct coll *c)
{
    struct bench_result res;
    double ref_ms = NAN;
    enum busy was = c->busy;
    int r;
    const char *lb = c->sh->label;

    c->busy = BUSY_IDLE;
    r = bench_recv(c->bench, &ref_ms, &res);
    if (r < 0) {
        fprintf(stderr, "\n%stunecost collect: %s\n", lb, tc_errmsg());
        return -1;
    }
    if (r == BENCH_NOT_RUN) { /* the child had ended before the request: a fresh one gets it again */
        c->child_input = -1;
        if (bench_restart(c->bench) != 0) {
            fprintf(stderr, "\n%stunecost collect: restarting the benchmarking process: %s\n", lb, tc_errmsg());
            return -1;
        }
        return 1;
    }
    if (was == BUSY_INPUT) {
        struct trace_input in = *trace_input(c->t, c->busy_input);
        c->child_input = c->busy_input;
        if (isnan(in.ref_ms)) {
            in.ref_ms = ref_ms;
            if (trace_update_input(c->t, c->busy_input, &in) != 0) {
                fprintf(stderr, "\n%stunecost collect: %s\n", lb, tc_errmsg());
                return -1;
            }
        }
    } else {
        int i = c->busy_input, k = c->busy_config;
        if (r == 1 && g_interrupted) {
            /* The child died with us (mpirun's or srun's SIGTERM goes to the whole job, children included): the
             * run was cut, not failed. Nothing is recorded; --resume runs the pair again. */
            free(res.exec_ns);
            c->child_input = -1;
            return 0;
        }
        c->run_ms_sum += tc_now_ms() - c->busy_since;
        /* The next pair starts before this one is written, so the GPU does not wait for the disk. */
        c->done[(size_t)i * c->n_cfg + k] = 1;
        if (r == 0 && !g_interrupted && collect_dispatch(c) < 0) {
            free(res.exec_ns);
            fprintf(stderr, "\n%stunecost collect: benchmarking process: %s\n", lb, tc_errmsg());
            return -1;
        }
        if (handle_run(c, i, k, &res) != 0) {
            free(res.exec_ns);
            fprintf(stderr, "\n%stunecost collect: %s\n", lb, tc_errmsg());
            return -1;
        }
    }
    free(res.exec_ns);
    if (r == 1) {
        c->times.restarts++;
        c->child_input = -1;
        if (bench_restart(c->bench) != 0) {
            fprintf(stderr, "\n%stunecost collect: restarting the benchmarking process: %s\n", lb, tc_errmsg());
            return -1;
        }
    }
    return 0;
}

/* The loop: compiles arrive, the child runs one pair at a time, every result goes to disk at once. Returns 0
 * when every pair is done or on an interrupt, -1 on a failure (message printed). */
static int event_loop(struct coll *c)
{
    const char *lb = c->sh->label;
    int warm_written = 0;
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    c->prog.t_start = tc_now_ms();
    for (;;) {
        struct pollfd fds[1026];
        int nf = 0, r;

        if (take_compiles(c) != 0)
            return -1;
        if (!warm_written && compile_pool_pending(c->pool) == 0 && trace_n_compile_warmup(c->t) == 0) {
            if (trace_write_compile_warmup(c->t, compile_pool_warmup_ms(c->pool), compile_pool_jobs(c->pool)) != 0)
                fprintf(stderr, "\n%stunecost collect: warning: %s\n", lb, tc_errmsg());
            warm_written = 1;
        }
        if (c->busy == BUSY_IDLE) {
            if (g_interrupted)
                break;
            r = collect_dispatch(c);
            if (r < 0) {
                fprintf(stderr, "\n%stunecost collect: benchmarking process: %s\n", lb, tc_errmsg());
                return -1;
            }
            if (r == 2 && compile_pool_pending(c->pool) == 0 &&
                (c->iso_pool == NULL || (c->iso_started && compile_pool_pending(c->iso_pool) == 0)))
                break;
        }
        if (c->busy != BUSY_IDLE) {
            fds[nf].fd = bench_fd(c->bench);
            fds[nf].events = POLLIN;
            fds[nf].revents = 0;
            nf++;
        }
        nf += compile_pool_pollfds(c->pool, fds + nf, 1024);
        if (c->iso_pool != NULL)
            nf += compile_pool_pollfds(c->iso_pool, fds + nf, 1);
        if (poll(fds, (nfds_t)nf, 250) < 0 && errno != EINTR) {
            fprintf(stderr, "\n%stunecost collect: poll: %s\n", lb, strerror(errno));
            return -1;
        }
        if (g_interrupted > 1 && c->busy != BUSY_IDLE) {
            bench_kill(c->bench); /* second Ctrl-C: drop the run in flight */
            break;
        }
        if (c->busy != BUSY_IDLE && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            r = take_reply(c);
            if (r < 0)
                return -1;
            if (r == 1)
                continue;
        } else if (c->busy != BUSY_IDLE && tc_now_ms() - c->busy_since > c->o->timeout_s * 1e3) {
            bench_kill(c->bench); /* the watchdog: the next poll sees the child's end */
        }
        show_progress(c, 0);
    }
    show_progress(c, 1);
    return 0;
}

static void show_header(const struct coll *c, int resume)
{
    const struct collect_opts *o = c->o;
    char fl[32];
    if (c->dev.flush_bytes > 0)
        snprintf(fl, sizeof fl, "%lld bytes", (long long)c->dev.flush_bytes);
    else
        snprintf(fl, sizeof fl, "off");
    fprintf(stderr, "%scollect: %s (sm_%d, %d SMs, driver %d); %d configurations x %d inputs%s; protocol %s, "
                    "warm-up %g ms, rep %g ms, L2 flush %s, timer %s, %ld compile workers, seed %llu%s\n",
            c->sh->label, c->dev.name, c->dev.cc, c->dev.sms, c->dev.driver_version, c->n_cfg, c->n_in,
            o->shard_n ? " (shard)" : "", copt_protocol_name(o->protocol), o->warmup_ms, o->rep_ms, fl,
            copt_timer_name(o->timer), c->sh->jobs, (unsigned long long)o->seed, resume ? "; resuming" : "");
    fprintf(stderr, "%scollect: %ld runs to do -> %s\n", c->sh->label, c->total, c->sh->path);
}

/* Whether the output may be written: an existing file only with --resume (a valid trace of these settings,
 * checked before any GPU work and left untouched) or --force. 0, or 2 after a message; *resume is cleared for a
 * rank whose shard is missing (it starts fresh). */
static int collect_check_output(struct coll *c, const char *path, const char *lb, int *resume)
{
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (!exists && *resume && c->sh->fresh_if_missing)
        *resume = 0;
    if (exists && !*resume && !c->o->force) {
        fprintf(stderr, "%stunecost collect: %s exists: continue it with --resume (same options) or overwrite it "
                        "with --force\n", lb, path);
        return 2;
    }
    if (!exists && *resume) {
        fprintf(stderr, "%stunecost collect: --resume: %s does not exist\n", lb, path);
        return 2;
    }
    if (*resume) {
        c->t = trace_open(path);
        if (c->t == NULL || check_resume(c, 0) != 0) {
            fprintf(stderr, "%stunecost collect: %s\n", lb, tc_errmsg());
            return 2;
        }
        trace_close(c->t);
        c->t = NULL;
    }
    return 0;
}

/* The compile workers (and the one isolated worker of --compile-isolated), then the benchmarking child (this
 * process stays CUDA-free). 0, or -1 (message). */
static int collect_start_children(struct coll *c, double t0)
{
    const struct collect_opts *o = c->o;
    struct bench_settings bs;
    c->arch = o->arch ? o->arch : 90;
    c->pool = compile_pool_start((int)c->sh->jobs, c->arch, tc_src_gemm_f16, o->variant);
    if (c->pool == NULL)
        return -1;
    if (o->compile_isolated && (c->iso_pool = compile_pool_start(1, c->arch, tc_src_gemm_f16, o->variant)) == NULL)
        return -1;
    memset(&bs, 0, sizeof bs);
    bs.device = c->sh->device;
    bs.timer = o->timer;
    bs.protocol = o->protocol;
    bs.warmup_ms = o->warmup_ms;
    bs.rep_ms = o->rep_ms;
    bs.flush_bytes = o->flush_bytes;
    bs.seed = o->seed;
    bs.tol = o->tol;
    bs.t0_ms = t0;
    c->bench = bench_start(&bs, &c->dev);
    return c->bench != NULL ? 0 : -1;
}

/* The per-configuration state, the work left (plan_work, in order[]) and every compile of it submitted. 0, or -1
 * (message). */
static int collect_submit_work(struct coll *c, int *order)
{
    int n_order = 0;
    c->cubin = calloc((size_t)c->n_cfg, sizeof *c->cubin);
    c->cubin_len = calloc((size_t)c->n_cfg, sizeof *c->cubin_len);
    c->state = calloc((size_t)c->n_cfg, sizeof *c->state);
    c->done = calloc((size_t)c->n_cfg * (size_t)c->n_in, 1);
    if (c->cubin == NULL || c->cubin_len == NULL || c->state == NULL || c->done == NULL)
        return tc_seterr_env("out of memory");
    if (plan_work(c, order, &n_order) != 0)
        return -1;
    c->times.submit_ms = tc_now_ms();
    for (int q = 0; q < n_order; q++)
        if (compile_pool_submit(c->pool, order[q], c->params + order[q] * SP_N_PARAMS, c->arch,
                                copt_path(c->o, c->arch, c->params + order[q] * SP_N_PARAMS)) != 0)
            return -1;
    return 0;
}

/* The children reaped (the benchmarking child detached when the collection succeeded: idle, nothing of it is
 * left in it; stopped otherwise) and c's buffers freed. */
static void coll_release(struct coll *c, int rc, int timing)
{
    if (rc == 0)
        bench_detach(c->bench);
    else
        bench_stop(c->bench);
    compile_pool_stop(c->pool);
    compile_pool_stop(c->iso_pool);
    if (timing)
        fprintf(stderr, "timing: coordinator children reaped %8.1f ms\n", tc_now_ms() - c->times.t0);
    if (c->cubin != NULL)
        for (int k = 0; k < c->n_cfg; k++)
            free(c->cubin[k]);
    free(c->cubin);
    free(c->cubin_len);
    free(c->state);
    free(c->done);
    free(c->params);
}

int collect_run(const struct collect_opts *o, const struct collect_share *sh)
{
    struct coll c;
    int rc = 1, n_cfg = 0, *order = NULL, created = 0, synced = 0;
    int resume = o->resume;
    const int timing = tc_env_flag("TC_TIMING");
    const char *path = sh->path, *lb = sh->label;
    size_t n_runs = 0;
    double t0 = tc_now_ms();

    memset(&c, 0, sizeof c);
    /* A child or worker that is gone must show as a failed write (EPIPE) and its reply's end, not kill us. */
    signal(SIGPIPE, SIG_IGN);
    c.o = o;
    c.sh = sh;
    c.times.t0 = t0;
    c.prog.enabled = !o->quiet;
    c.child_input = -1;
    c.busy_input = -1;
    c.dims = o->dims;
    c.n_in = o->n_shapes;
    c.params = plan_configs(&o->space, o->space_full, o->n_configs, o->seed, &n_cfg);
    if (c.params == NULL) {
        fprintf(stderr, "%stunecost collect: %s\n", lb, tc_errmsg());
        goto out;
    }
    c.n_cfg = n_cfg;
    if ((rc = collect_check_output(&c, path, lb, &resume)) != 0)
        goto out;
    rc = 1;

    /* 1. Processes first: compile workers, then the benchmarking child (this process stays CUDA-free). */
    if (collect_start_children(&c, t0) != 0) {
        fprintf(stderr, "%stunecost collect: %s\n", lb, tc_errmsg());
        goto out;
    }
    c.times.hello_ms = tc_now_ms();
    synced = 1;
    if (sh->sync != NULL && sh->sync(sh->ctx, &c.dev, 1) != 0)
        goto out; /* the reason is printed by the caller */
    if (!o->arch)
        c.arch = c.dev.cc;

    /* 2. The trace, and the work left in it. */
    rc = open_trace(&c, resume, &created);
    if (rc != 0) {
        fprintf(stderr, "%stunecost collect: %s\n", lb, tc_errmsg());
        goto out;
    }
    rc = 1;
    order = calloc((size_t)c.n_cfg, sizeof *order);
    if (order == NULL || collect_submit_work(&c, order) != 0) {
        fprintf(stderr, "%stunecost collect: %s\n", lb, order == NULL ? "out of memory" : tc_errmsg());
        goto out;
    }
    if (!o->quiet)
        show_header(&c, resume);

    /* 3. The loop. */
    if (event_loop(&c) != 0)
        goto out;
    if (!o->quiet && isatty(2))
        fprintf(stderr, "\n");
    if (g_interrupted) {
        fprintf(stderr, "%stunecost collect: interrupted: %s holds %zu runs; continue with the same options and "
                        "--resume\n", lb, path, trace_n_runs(c.t));
        rc = 1;
        goto out;
    }
    c.times.finished = c.finished;
    c.times.ready_ms = bench_ready_ms(c.bench);
    if (!o->quiet && sh->summary)
        progress_summary(c.t, path, o->warmup_ms, o->rep_ms, &c.times, tc_now_ms() - t0);
    rc = 0;
out:
    if (!synced && sh->sync != NULL)
        sh->sync(sh->ctx, NULL, 0);
    /* The children's exits (the CUDA context's teardown) overlap the trace's compressing close. */
    bench_quit(c.bench);
    compile_pool_quit(c.pool);
    compile_pool_quit(c.iso_pool);
    n_runs = c.t != NULL ? trace_n_runs(c.t) : 0;
    if (c.t != NULL && trace_close(c.t) != 0) {
        fprintf(stderr, "%stunecost collect: closing %s: %s\n", lb, path, tc_errmsg());
        rc = 1;
    }
    /* The trace is created as soon as the device is known, before the context opens: a GPU that then fails to
     * open leaves no empty trace behind (it would refuse the next attempt without --resume or --force). */
    if (rc != 0 && created && n_runs == 0 && c.bench != NULL && bench_ready_ms(c.bench) == 0.0 && unlink(path) == 0)
        fprintf(stderr, "%stunecost collect: removed %s: no run was measured\n", lb, path);
    if (timing)
        fprintf(stderr, "timing: coordinator trace closed %8.1f ms\n", tc_now_ms() - t0);
    coll_release(&c, rc, timing);
    free(order);
    return rc;
}
