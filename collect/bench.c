/* bench.c — the benchmarking child (see bench.h): device, cuBLAS reference, verification, the fixed-time and
 * Triton protocols, CUPTI activity records (or CUDA events) for every execution, and the pipe protocol that
 * the coordinator drives. Everything CUDA in a collection happens in this file, in the child process. */
#include "bench.h"
#include "cuda_api.h"
#include "ipc.h"
#include "kernels_src.h"
#include "space.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_stats.h"
#include "tc_time.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MSG_HELLO = 1, MSG_ERROR, MSG_INPUT, MSG_INPUT_DONE, MSG_RUN, MSG_RUN_DONE, MSG_QUIT };

struct input_wire {
    int32_t input;
    int32_t pad;
    int64_t dims[SPACE_N_DIMS];
};
struct input_done_wire {
    double ref_ms;
    double ready_ms; /* when the child finished its start-up (CLOCK_MONOTONIC) */
    int32_t ok;
    int32_t kernels_per_ref;
    char msg[256];
};
struct run_wire {
    int32_t config;
    int32_t path; /* enum space_path */
    int32_t params[SP_N_PARAMS];
    uint64_t cubin_len;
};
struct run_done_wire {
    struct trace_run run;
    double load_ms;
    int32_t fatal;
    int32_t pad;
    char msg[256];
    uint64_t n_exec;
};

double bench_median_ms(const uint64_t *ns, size_t n)
{
    return tc_median_u64(ns, n, NULL) / 1e6;
}

/* ======================================= child side ========================================================= */

/* ---- CUPTI activity records: kernel start/end, classified by the kernel's name ---- */
enum { CLS_GEMM, CLS_FLUSH, CLS_HELPER, CLS_OTHER };
struct krec {
    uint64_t start, end;
    int cls;
};
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct krec *g_recs;
static size_t g_n, g_cap;
static int g_rec_oom;

#define CUPTI_BUF_BYTES (8u << 20)

static void CUPTIAPI buf_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, CUPTI_BUF_BYTES);
    *size = *buffer ? CUPTI_BUF_BYTES : 0;
    *max_records = 0;
}

static void CUPTIAPI buf_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
    CUpti_Activity *rec = NULL;
    (void)ctx;
    (void)stream;
    (void)size;
    pthread_mutex_lock(&g_lock);
    while (cpt.cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && rec->kind != CUPTI_ACTIVITY_KIND_KERNEL)
            continue;
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
        if (g_n == g_cap) {
            size_t cap = g_cap ? 2 * g_cap : 65536;
            struct krec *nr = realloc(g_recs, cap * sizeof *nr);
            if (nr == NULL) {
                g_rec_oom = 1;
                break;
            }
            g_recs = nr;
            g_cap = cap;
        }
        int cls = CLS_OTHER;
        if (k->name != NULL) {
            if (strcmp(k->name, "tc_gemm_f16") == 0)
                cls = CLS_GEMM;
            else if (strcmp(k->name, "tc_flush_l2") == 0)
                cls = CLS_FLUSH;
            else if (strncmp(k->name, "tc_", 3) == 0)
                cls = CLS_HELPER;
        }
        g_recs[g_n].start = k->start;
        g_recs[g_n].end = k->end;
        g_recs[g_n].cls = cls;
        g_n++;
    }
    pthread_mutex_unlock(&g_lock);
    free(buffer);
}

static int cmp_krec(const void *a, const void *b)
{
    const struct krec *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* A growing list of durations. */
struct seq {
    uint64_t *ns;
    size_t n, cap;
};

static int seq_push(struct seq *s, uint64_t v)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4096;
        uint64_t *nn = realloc(s->ns, cap * sizeof *nn);
        if (nn == NULL)
            return tc_seterr("out of memory for execution times");
        s->ns = nn;
        s->cap = cap;
    }
    s->ns[s->n++] = v;
    return 0;
}

/* ---- the child's state ---- */
struct module {
    int32_t config;
    int32_t path;        /* enum space_path */
    CUmodule mod;
    CUfunction fn;
    int32_t params[SP_N_PARAMS];
    int64_t tmap_input;  /* wgmma path: the input generation tm[] was encoded for (-1: none) */
    CUtensorMap tm[2];   /* wgmma path: A and B tensor maps */
    int resident;        /* wgmma path: blocks per multiprocessor (its grid is persistent) */
};

/* The helper kernels are compiled by NVRTC on a thread of their own while the main thread opens the device. */
struct helpers_job {
    int cc;
    void *cubin;
    size_t len;
    int rc;
    char err[256];
};

struct gpu {
    struct bench_settings s;
    struct bench_device d;
    CUdevice dev;
    CUcontext ctx;
    CUstream stream;
    CUmodule helpers;
    CUfunction f_random, f_fill, f_flush, f_relerr;
    cublasHandle_t blas;
    CUdeviceptr a, b, c, cref, flush, err;
    int64_t input_gen; /* counts set_input calls (the wgmma path's tensor maps are per input) */
    size_t a_cap, b_cap, c_cap, cref_cap; /* bytes allocated */
    int64_t m, n, k;
    int have_input;
    int ref_per_call;           /* cuBLAS kernels per call */
    struct module *mods;
    int n_mods, cap_mods;
    struct module *cur;         /* module of the run in progress */
    CUevent *ev;                /* event pool (timer events) */
    CUevent mark[2];            /* around Triton's estimate and the verification launch */
    CUevent pipe_ev[6];         /* three start/end pairs around the batches of a pipelined phase */
    int check_timer;            /* TC_TIMER_CHECK=1: events too, around every CUPTI-timed execution */
    int timing;                 /* TC_TIMING=1: start-up phases on stderr */
    struct helpers_job hj;      /* the helper kernels' compilation, on its own thread during start-up */
    pthread_t libs_thread;      /* loads NVRTC, cuBLAS and CUPTI while the main thread runs cuInit */
    int libs_started, libs_rc, libs_cupti;
    char libs_err[256];
    pthread_t hj_thread;
    int hj_started;
    double ready_ms;            /* when start-up finished (CLOCK_MONOTONIC ms, the coordinator's clock too) */
    struct {                    /* TC_TIMING=1: where a run's host time goes (ms), printed per run */
        int batches;
        double launch, sync, cupti, verify_gemm, verify_check;
    } tm;
    double check_events_ms, check_cupti_ms;
    int n_ev;
    char errbuf[256];
};

/* Kinds of launches the protocols time. */
enum target { T_GEMM, T_REF };


static void *helpers_compile(void *arg)
{
    struct helpers_job *j = arg;
    nvrtcProgram prog = NULL;
    char arch[48], *log = NULL;
    const char *opts[2] = {arch, "--std=c++17"};
    int rc = -1;
    nvrtcResult r;
    snprintf(arch, sizeof arch, "--gpu-architecture=sm_%d", j->cc);
    TC_TRY(nvrtc, nvr.nvrtcCreateProgram(&prog, tc_src_helpers, "helpers.cu", 0, NULL, NULL));
    r = nvr.nvrtcCompileProgram(prog, 2, opts);
    if (r != NVRTC_SUCCESS) {
        size_t ll = 0;
        nvr.nvrtcGetProgramLogSize(prog, &ll);
        log = calloc(1, ll + 1);
        if (log)
            nvr.nvrtcGetProgramLog(prog, log);
        tc_seterr("helper kernels failed to compile for sm_%d: %.200s", j->cc, log ? log : "");
        goto out;
    }
    TC_TRY(nvrtc, nvr.nvrtcGetCUBINSize(prog, &j->len));
    j->cubin = malloc(j->len);
    if (j->cubin == NULL) {
        tc_seterr("out of memory");
        goto out;
    }
    TC_TRY(nvrtc, nvr.nvrtcGetCUBIN(prog, j->cubin));
    rc = 0;
out:
    if (rc != 0)
        snprintf(j->err, sizeof j->err, "%s", tc_errmsg());
    j->rc = rc;
    free(log);
    if (prog)
        nvr.nvrtcDestroyProgram(&prog);
    return NULL;
}

static int helpers_load(struct gpu *g, const void *cubin)
{
    int rc = -1;
    TC_TRY(cu, cu.cuModuleLoadData(&g->helpers, cubin));
    TC_TRY(cu, cu.cuModuleGetFunction(&g->f_random, g->helpers, "tc_fill_random"));
    TC_TRY(cu, cu.cuModuleGetFunction(&g->f_fill, g->helpers, "tc_fill_u16"));
    TC_TRY(cu, cu.cuModuleGetFunction(&g->f_flush, g->helpers, "tc_flush_l2"));
    TC_TRY(cu, cu.cuModuleGetFunction(&g->f_relerr, g->helpers, "tc_rel_error"));
    rc = 0;
out:
    return rc;
}

/* TC_TIMING=1: the child's start-up phases on stderr, in ms since the coordinator started (for performance.md). */
static void mark(const struct gpu *g, const char *what)
{
    if (g->timing)
        fprintf(stderr, "timing: child %-22s %8.1f ms\n", what, tc_now_ms() - g->s.t0_ms);
}

static void *load_libs(void *arg)
{
    struct gpu *g = arg;
    g->libs_rc = cuapi_load_nvrtc() != 0 || cuapi_load_cublas() != 0 || (g->libs_cupti && cuapi_load_cupti() != 0);
    if (g->libs_rc != 0)
        snprintf(g->libs_err, sizeof g->libs_err, "%s", tc_errmsg());
    return NULL;
}

/* Start-up, phase 1: the driver and the device's properties, all the coordinator needs to create the trace and
 * start compiling for the right architecture. */
static int gpu_open(struct gpu *g)
{
    int v = 0, count = 0, rc = -1;
    mark(g, "start");
    if (cuapi_load() != 0)
        return -1;
    /* Mapping and relocating cuBLAS (~500 MB with cuBLASLt) and NVRTC takes 60 ms with a warm page cache and
     * ~370 ms on a fresh machine (H200): done beside cuInit, which takes about as long. */
    g->libs_cupti = g->s.timer == BENCH_TIMER_CUPTI;
    g->libs_started = pthread_create(&g->libs_thread, NULL, load_libs, g) == 0;
    TC_TRY(cu, cu.cuInit(0));
    mark(g, "cuInit");
    TC_TRY(cu, cu.cuDeviceGetCount(&count));
    if (g->s.device >= count) {
        tc_seterr("--device %d: this machine has %d CUDA device%s", g->s.device, count, count == 1 ? "" : "s");
        goto out;
    }
    TC_TRY(cu, cu.cuDeviceGet(&g->dev, g->s.device));
    TC_TRY(cu, cu.cuDeviceGetName(g->d.name, sizeof g->d.name, g->dev));
    TC_TRY(cu, cu.cuDriverGetVersion(&v));
    g->d.driver_version = v;
    {
        int maj = 0, min = 0, sms = 0, l2 = 0, optin = 0;
        TC_TRY(cu, cu.cuDeviceGetAttribute(&maj, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, g->dev));
        TC_TRY(cu, cu.cuDeviceGetAttribute(&min, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, g->dev));
        TC_TRY(cu, cu.cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, g->dev));
        TC_TRY(cu, cu.cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, g->dev));
        TC_TRY(cu, cu.cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, g->dev));
        g->d.cc = maj * 10 + min;
        g->d.sms = sms;
        g->d.l2_bytes = l2;
        g->d.smem_optin = optin;
    }
    if (g->d.cc < 80) {
        tc_seterr("device %d (%s, sm_%d): the GEMM kernel needs sm_80 or newer (cp.async, ldmatrix, mma.sync)",
                  g->s.device, g->d.name, g->d.cc);
        goto out;
    }
    g->d.flush_bytes = g->s.flush_bytes < 0 ? g->d.l2_bytes : g->s.flush_bytes;
    mark(g, "device known");
    rc = 0;
out:
    return rc;
}

/* Start-up, phase 2 (after the device is reported): the helper kernels compile on a thread of their own while
 * CUPTI, the context and cuBLAS open; then buffers. */
static int gpu_setup(struct gpu *g)
{
    int rc = -1;
    if (g->libs_started) { /* the loaders are not thread-safe: this thread touches none before the join */
        pthread_join(g->libs_thread, NULL);
        g->libs_started = 0;
    } else {
        load_libs(g); /* the thread could not start: load them here */
    }
    if (g->libs_rc != 0) {
        tc_seterr("%s", g->libs_err);
        goto out;
    }
    g->hj.cc = g->d.cc;
    if (pthread_create(&g->hj_thread, NULL, helpers_compile, &g->hj) != 0) {
        tc_seterr("cannot start a thread");
        goto out;
    }
    g->hj_started = 1;
    mark(g, "libraries loaded");
    if (g->s.timer == BENCH_TIMER_CUPTI) {
        TC_TRY(cupti, cpt.cuptiActivityRegisterCallbacks(buf_requested, buf_completed));
        TC_TRY(cupti, cpt.cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    }
    {
        /* In exclusive-process compute mode the device stays taken until the previous collection's child (which
         * the coordinator does not wait for, bench_detach) has finished its teardown: retry for up to 5 s. */
        CUresult r;
        for (int i = 0; (r = cu.cuDevicePrimaryCtxRetain(&g->ctx, g->dev)) == CUDA_ERROR_DEVICE_UNAVAILABLE && i < 250;
             i++)
            usleep(20000);
        TC_TRY(cu, r);
    }
    TC_TRY(cu, cu.cuCtxSetCurrent(g->ctx));
    TC_TRY(cu, cu.cuStreamCreate(&g->stream, CU_STREAM_NON_BLOCKING));
    mark(g, "context");
    TC_TRY(cublas, cbl.cublasCreate_v2(&g->blas));
    TC_TRY(cublas, cbl.cublasSetStream_v2(g->blas, (cudaStream_t)g->stream));
    mark(g, "cuBLAS");
    pthread_join(g->hj_thread, NULL);
    g->hj_started = 0;
    if (g->hj.rc != 0) {
        tc_seterr("%s", g->hj.err);
        goto out;
    }
    if (helpers_load(g, g->hj.cubin) != 0)
        goto out;
    TC_TRY(cu, cu.cuMemAlloc(&g->err, 4 * sizeof(double)));
    TC_TRY(cu, cu.cuEventCreate(&g->mark[0], CU_EVENT_DEFAULT));
    TC_TRY(cu, cu.cuEventCreate(&g->mark[1], CU_EVENT_DEFAULT));
    for (int i = 0; i < 6; i++)
        TC_TRY(cu, cu.cuEventCreate(&g->pipe_ev[i], CU_EVENT_DEFAULT));
    if (g->d.flush_bytes > 0)
        TC_TRY(cu, cu.cuMemAlloc(&g->flush, (size_t)g->d.flush_bytes));
    mark(g, "ready");
    rc = 0;
out:
    if (g->hj_started)
        pthread_join(g->hj_thread, NULL);
    g->hj_started = 0;
    free(g->hj.cubin);
    g->hj.cubin = NULL;
    return rc;
}

/* Grow the event pool to n. */
static int events_reserve(struct gpu *g, int n)
{
    int rc = -1;
    if (n <= g->n_ev)
        return 0;
    CUevent *ne = realloc(g->ev, (size_t)n * sizeof *ne);
    if (ne == NULL)
        return tc_seterr("out of memory for %d events", n);
    g->ev = ne;
    while (g->n_ev < n) {
        TC_TRY(cu, cu.cuEventCreate(&g->ev[g->n_ev], CU_EVENT_DEFAULT));
        g->n_ev++;
    }
    rc = 0;
out:
    return rc;
}

static CUresult launch_1d(struct gpu *g, CUfunction f, unsigned blocks, unsigned threads, void **args)
{
    return cu.cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, g->stream, args, NULL);
}

static CUresult launch_flush(struct gpu *g)
{
    uint64_t n16 = (uint64_t)g->d.flush_bytes / 16;
    void *args[] = {&g->flush, &n16};
    return launch_1d(g, g->f_flush, (unsigned)g->d.sms * 8, 256, args);
}

/* The wgmma path's tensor maps of the current input (kernels/gemm_f16_wgmma.cu's header says what it expects):
 * A as {K, M}, B as {N, K}, fp16, boxes of one panel (A_W x BLOCK_M, B_W x BLOCK_K) swizzled by the panel's
 * width in bytes, zeros out of bounds. Encoded once per (module, input). */
static CUresult encode_tmaps(struct gpu *g, struct module *md)
{
    const int32_t *p = md->params;
    int a_w, b_w;
    CUresult r;
    space_wgmma_panels(p, &a_w, &b_w);
    cuuint64_t dim_a[2] = {(cuuint64_t)g->k, (cuuint64_t)g->m}, dim_b[2] = {(cuuint64_t)g->n, (cuuint64_t)g->k};
    cuuint64_t str_a[1] = {(cuuint64_t)g->k * 2}, str_b[1] = {(cuuint64_t)g->n * 2};
    cuuint32_t box_a[2] = {(cuuint32_t)a_w, (cuuint32_t)p[SP_BLOCK_M]}, box_b[2] = {(cuuint32_t)b_w, (cuuint32_t)p[SP_BLOCK_K]};
    cuuint32_t es[2] = {1, 1};
#define TC_SWZ(w) ((w) == 64 ? CU_TENSOR_MAP_SWIZZLE_128B : (w) == 32 ? CU_TENSOR_MAP_SWIZZLE_64B : CU_TENSOR_MAP_SWIZZLE_32B)
    CUtensorMap ta, tb; /* aligned as the driver requires (64 bytes); the module array is only malloc-aligned */
    r = cu.cuTensorMapEncodeTiled(&ta, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void *)g->a, dim_a, str_a, box_a, es,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, TC_SWZ(a_w), CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r == CUDA_SUCCESS)
        r = cu.cuTensorMapEncodeTiled(&tb, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void *)g->b, dim_b, str_b, box_b,
                                      es, CU_TENSOR_MAP_INTERLEAVE_NONE, TC_SWZ(b_w), CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
#undef TC_SWZ
    if (r == CUDA_SUCCESS) {
        memcpy(&md->tm[0], &ta, sizeof ta);
        memcpy(&md->tm[1], &tb, sizeof tb);
        md->tmap_input = g->input_gen;
    }
    return r;
}

static CUresult launch_gemm(struct gpu *g)
{
    struct module *md = g->cur;
    const int32_t *p = md->params;
    int m = (int)g->m, n = (int)g->n, k = (int)g->k;
    unsigned grid = (unsigned)(((m + p[SP_BLOCK_M] - 1) / p[SP_BLOCK_M]) * ((n + p[SP_BLOCK_N] - 1) / p[SP_BLOCK_N]));
    unsigned smem = (unsigned)space_smem_bytes_on(p, md->path);
    if (md->path == SPACE_PATH_WGMMA) {
        CUresult r = md->tmap_input == g->input_gen ? CUDA_SUCCESS : encode_tmaps(g, md);
        void *wargs[] = {&md->tm[0], &md->tm[1], &g->c, &m, &n, &k};
        unsigned slots = (unsigned)(g->d.sms * (md->resident > 0 ? md->resident : 1));
        if (r != CUDA_SUCCESS)
            return r;
        return cu.cuLaunchKernel(md->fn, grid < slots ? grid : slots, 1, 1, (unsigned)space_wgmma_threads(p), 1, 1,
                                 smem, g->stream, wargs, NULL);
    }
    void *args[] = {&g->a, &g->b, &g->c, &m, &n, &k};
    return cu.cuLaunchKernel(md->fn, grid, 1, 1, (unsigned)p[SP_NUM_WARPS] * 32, 1, 1, smem, g->stream, args, NULL);
}

/* cuBLAS, row-major C = A B computed as column-major C^T = B^T A^T. Returns 0 or -1. */
static int launch_ref(struct gpu *g)
{
    const float alpha = 1.0f, beta = 0.0f;
    int rc = -1;
    TC_TRY(cublas, cbl.cublasGemmEx(g->blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)g->n, (int)g->m, (int)g->k, &alpha,
                                (const void *)g->b, CUDA_R_16F, (int)g->n, (const void *)g->a, CUDA_R_16F,
                                (int)g->k, &beta, (void *)g->cref, CUDA_R_16F, (int)g->n, CUBLAS_COMPUTE_32F,
                                CUBLAS_GEMM_DEFAULT));
    rc = 0;
out:
    return rc;
}

static int launch_target(struct gpu *g, enum target t)
{
    int rc = -1;
    if (t == T_REF)
        return launch_ref(g);
    TC_TRY(cu, launch_gemm(g));
    rc = 0;
out:
    return rc;
}

/* Take every CUPTI record delivered so far (sorted by start) into *recs (malloc'ed). */
static int cupti_take(struct krec **recs, size_t *n)
{
    int rc = -1;
    TC_TRY(cupti, cpt.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    pthread_mutex_lock(&g_lock);
    *recs = g_recs;
    *n = g_n;
    g_recs = NULL;
    g_n = g_cap = 0;
    if (g_rec_oom) {
        g_rec_oom = 0;
        pthread_mutex_unlock(&g_lock);
        free(*recs);
        return tc_seterr("out of memory for CUPTI records");
    }
    pthread_mutex_unlock(&g_lock);
    if (*n > 0)
        qsort(*recs, *n, sizeof **recs, cmp_krec);
    rc = 0;
out:
    return rc;
}

/* Discard records gathered so far (after verification, before a protocol). */
static int cupti_discard(struct gpu *g)
{
    struct krec *r = NULL;
    size_t n = 0;
    if (g->s.timer != BENCH_TIMER_CUPTI)
        return 0;
    if (cupti_take(&r, &n) != 0)
        return -1;
    free(r);
    return 0;
}

/* After a synchronisation: the CUPTI records of the last n launches of target t, appended to *out as execution
 * durations (a cuBLAS call's kernels summed); flush kernels' time added to *flush_ms; *batch_ms = their sum. */
static int cupti_collect(struct gpu *g, enum target t, long n, struct seq *out, double *flush_ms, double *batch_ms)
{
    struct krec *recs = NULL;
    size_t n_recs = 0, first = out->n;
    long got = 0, calls = 0;
    uint64_t acc = 0;
    int rc = -1, per = t == T_REF ? g->ref_per_call : 1, want = t == T_GEMM ? CLS_GEMM : CLS_OTHER;
    double t0 = tc_now_ms();
    *batch_ms = 0.0;
    if (cupti_take(&recs, &n_recs) != 0)
        return -1;
    g->tm.cupti += tc_now_ms() - t0;
    for (size_t i = 0; i < n_recs; i++) {
        if (recs[i].cls == CLS_FLUSH) {
            *flush_ms += (double)(recs[i].end - recs[i].start) / 1e6;
        } else if (recs[i].cls == want) {
            acc += recs[i].end - recs[i].start;
            if (++got % per == 0) {
                if (seq_push(out, acc) != 0)
                    goto out;
                *batch_ms += (double)acc / 1e6;
                acc = 0;
                calls++;
            }
        }
    }
    if (calls != n || got % per != 0) {
        tc_seterr("CUPTI delivered %ld kernel records for %ld launches of %d kernel%s each", got, n, per,
                  per == 1 ? "" : "s");
        goto out;
    }
    rc = 0;
out:
    if (rc != 0)
        out->n = first;
    free(recs);
    return rc;
}

/* Launch n executions of target t (each preceded by an L2 flush when `flush`), wait, and append their
 * durations to *out (and the flush kernels' GPU time to *flush_ms). *batch_ms receives the batch's summed
 * execution time. */
static int run_batch(struct gpu *g, enum target t, long n, int flush, struct seq *out, double *flush_ms,
                     double *batch_ms, CUevent *mark)
{
    int rc = -1, events = g->s.timer == BENCH_TIMER_EVENTS || g->check_timer;
    size_t first = out->n;
    double t_launch = tc_now_ms();
    flush = flush && g->d.flush_bytes > 0;
    *batch_ms = 0.0;
    if (events && events_reserve(g, (int)(n * (flush ? 4 : 2))) != 0)
        return -1;
    if (mark != NULL)
        TC_TRY(cu, cu.cuEventRecord(mark[0], g->stream));
    for (long i = 0; i < n; i++) {
        if (flush) {
            if (events)
                TC_TRY(cu, cu.cuEventRecord(g->ev[4 * i + 2], g->stream));
            TC_TRY(cu, launch_flush(g));
            if (events)
                TC_TRY(cu, cu.cuEventRecord(g->ev[4 * i + 3], g->stream));
        }
        if (events)
            TC_TRY(cu, cu.cuEventRecord(g->ev[(flush ? 4 : 2) * i], g->stream));
        if (launch_target(g, t) != 0)
            goto out;
        if (events)
            TC_TRY(cu, cu.cuEventRecord(g->ev[(flush ? 4 : 2) * i + 1], g->stream));
    }
    if (mark != NULL)
        TC_TRY(cu, cu.cuEventRecord(mark[1], g->stream));
    g->tm.batches++;
    g->tm.launch += tc_now_ms() - t_launch;
    t_launch = tc_now_ms();
    TC_TRY(cu, cu.cuStreamSynchronize(g->stream));
    g->tm.sync += tc_now_ms() - t_launch;
    if (g->s.timer == BENCH_TIMER_EVENTS) {
        for (long i = 0; i < n; i++) {
            float ms = 0.0f;
            int st = flush ? 4 : 2;
            TC_TRY(cu, cu.cuEventElapsedTime(&ms, g->ev[st * i], g->ev[st * i + 1]));
            if (seq_push(out, (uint64_t)llround((double)ms * 1e6)) != 0)
                goto out;
            *batch_ms += ms;
            if (flush) {
                TC_TRY(cu, cu.cuEventElapsedTime(&ms, g->ev[st * i + 2], g->ev[st * i + 3]));
                *flush_ms += ms;
            }
        }
    } else {
        if (events) { /* TC_TIMER_CHECK: the same executions by events, summed for comparison */
            for (long i = 0; i < n; i++) {
                float ms = 0.0f;
                int st = flush ? 4 : 2;
                TC_TRY(cu, cu.cuEventElapsedTime(&ms, g->ev[st * i], g->ev[st * i + 1]));
                g->check_events_ms += ms;
            }
        }
        if (cupti_collect(g, t, n, out, flush_ms, batch_ms) != 0)
            goto out;
        if (events)
            g->check_cupti_ms += *batch_ms;
    }
    rc = 0;
out:
    if (rc != 0)
        out->n = first;
    return rc;
}

/* Executions for the next batch: when more than 8 remain, `share` of what the estimate says fits (durations drift
 * upward as the GPU warms and its clock drops, and a batch cannot be taken back), else ceil(remaining / per), so
 * the total ends about one execution past the target. Every batch costs a synchronisation and a CUPTI flush
 * (~0.4 ms of idle GPU on the H200), so the share is as large as the estimate allows (protocol()). Clamped to
 * [1, 1<<20]. */
static long batch_size(double remaining_ms, double per_ms, double share)
{
    double n;
    if (per_ms < 1e-4)
        per_ms = 1e-4;
    n = remaining_ms > 8.0 * per_ms ? floor(share * remaining_ms / per_ms) : ceil(remaining_ms / per_ms);
    return n < 1 ? 1 : n > (1 << 20) ? (1 << 20) : (long)n;
}

/* A fixed-time phase (unflushed executions until target_ms of kernel time) with up to two batches in flight: the
 * host sizes the next batch from the event-timed spans of finished ones while the GPU runs the one queued behind,
 * so a batch boundary costs no idle GPU (a synchronous boundary costs ~0.4 ms on the H200: wake-up, CUPTI flush,
 * first launch). Spans include the gaps between launches, so they over-estimate kernel time: the phase may end
 * short of the target, never past it by more than the drift a batch allows; the caller then tops it up from the
 * exact CUPTI sum, synchronously. Only for the CUPTI timer (records are taken once, at the end, with nothing in
 * flight). On return the stream is idle; *n_out executions were appended to ex, *sum_out is their exact kernel
 * time and *est_ms their mean. */
static int phase_pipelined(struct gpu *g, enum target t, double target_ms, double *est_ms, struct seq *ex,
                           long *n_out, double *sum_out)
{
    long qn[2] = {0, 0}, total = 0;
    int qs[2] = {0, 0}, nq = 0, slot = 0, rc = -1;
    double done = 0.0, flush_ms = 0.0;
    *n_out = 0;
    *sum_out = 0.0;
    for (;;) {
        while (nq < 2) {
            double rem = target_ms - done;
            long n;
            CUevent *e = g->pipe_ev + 2 * slot;
            for (int i = 0; i < nq; i++)
                rem -= (double)qn[i] * *est_ms;
            /* the last few executions are sized (ceil) only from a measured estimate, with nothing in flight */
            if (rem <= 0.0 || (nq > 0 && rem <= 8.0 * *est_ms))
                break;
            n = batch_size(rem, *est_ms, 0.8);
            TC_TRY(cu, cu.cuEventRecord(e[0], g->stream));
            for (long i = 0; i < n; i++)
                if (launch_target(g, t) != 0)
                    goto out;
            TC_TRY(cu, cu.cuEventRecord(e[1], g->stream));
            qn[nq] = n;
            qs[nq] = slot;
            nq++;
            slot = (slot + 1) % 3;
            total += n;
            g->tm.batches++;
        }
        if (nq == 0)
            break;
        {
            float ms = 0.0f;
            CUevent *e = g->pipe_ev + 2 * qs[0];
            double t0 = tc_now_ms();
            TC_TRY(cu, cu.cuEventSynchronize(e[1]));
            g->tm.sync += tc_now_ms() - t0;
            TC_TRY(cu, cu.cuEventElapsedTime(&ms, e[0], e[1]));
            done += ms;
            *est_ms = (double)ms / (double)qn[0];
            qn[0] = qn[1];
            qs[0] = qs[1];
            nq--;
        }
    }
    TC_TRY(cu, cu.cuStreamSynchronize(g->stream));
    if (cupti_collect(g, t, total, ex, &flush_ms, sum_out) != 0)
        goto out;
    *n_out = total;
    if (total > 0)
        *est_ms = *sum_out / (double)total;
    rc = 0;
out:
    return rc;
}

/* Run the selected protocol on target t. est_ms: a first per-execution estimate (e.g. the verification). */
static int protocol(struct gpu *g, enum target t, double est_ms, struct trace_run *run, struct seq *ex)
{
    double t0, flush_ms = 0.0, batch = 0.0;
    int rc = -1;
    run->n_estimate = run->n_warmup = run->n_timed = 0;
    run->estimate_ms = NAN;
    /* Records so far (the verification's, an input's untimed calls) are not the protocol's. The verification
     * launch is not part of the warm-up: wall_ms and the warm-up are what an autotuner that does not verify would
     * spend (docs/architecture.md), and verify_ms is kept apart. */
    if (cupti_discard(g) != 0)
        return -1;
    t0 = tc_now_ms();
    if (g->s.protocol == BENCH_FIXED_TIME) {
        /* The share of the estimate a batch may use: 0.8, as durations drift within a run (on the H200 a 4096^3
         * variant went from 0.69 to 0.89 ms per execution within its 100 ms: a batch sized at 95% ended at
         * 111 ms); 0.5 for the first flushed batch, whose estimate comes from unflushed (L2-warm) executions: a
         * flushed small GEMM can take 1.5x as long, and at 0.9 the timed total overshot --rep-ms by up to 43%
         * (256^3, 256 MiB flush, H200). */
        const double share_default = 0.8;
        const int pipelined = g->s.timer == BENCH_TIMER_CUPTI && !g->check_timer;
        const int flushed = g->d.flush_bytes > 0;
        double warm = 0.0, timed = 0.0, share = share_default;
        long n_pipe = 0;
        if (pipelined && !flushed) {
            /* Unflushed warm-up and timed executions are the same launches back to back: one pipelined stretch
             * for both, split afterwards at the first execution that completes the warm-up. */
            size_t first = ex->n;
            long k = 0;
            if (phase_pipelined(g, t, g->s.warmup_ms + g->s.rep_ms, &est_ms, ex, &n_pipe, &batch) != 0)
                goto out;
            for (; k < n_pipe && warm < g->s.warmup_ms; k++)
                warm += (double)ex->ns[first + (size_t)k] / 1e6;
            for (long i = k; i < n_pipe; i++)
                timed += (double)ex->ns[first + (size_t)i] / 1e6;
            run->n_warmup += (int32_t)k;
            run->n_timed += (int32_t)(n_pipe - k);
        } else if (pipelined) {
            if (phase_pipelined(g, t, g->s.warmup_ms, &est_ms, ex, &n_pipe, &batch) != 0)
                goto out;
            warm += batch;
            run->n_warmup += (int32_t)n_pipe;
        }
        /* Synchronous batches: the exact top-up after a pipelined stretch, or the whole protocol. Timed
         * executions only start once the warm-up is complete. */
        while (run->n_timed == 0 && warm < g->s.warmup_ms) {
            long n = batch_size(g->s.warmup_ms - warm, est_ms, share);
            if (run_batch(g, t, n, 0, ex, &flush_ms, &batch, NULL) != 0)
                goto out;
            warm += batch;
            est_ms = batch / (double)n;
            run->n_warmup += (int32_t)n;
        }
        if (flushed) /* no timed execution yet: with a flush, none is pipelined */
            share = 0.5;
        while (timed < g->s.rep_ms) {
            long n = batch_size(g->s.rep_ms - timed, est_ms, share);
            if (run_batch(g, t, n, 1, ex, &flush_ms, &batch, NULL) != 0)
                goto out;
            timed += batch;
            est_ms = batch / (double)n;
            share = share_default;
            run->n_timed += (int32_t)n;
        }
    } else {
        /* Triton 3.6 do_bench: fn(); sync; estimate over 5 flushed calls timed together; n_warmup and
         * n_repeat from it; warm-up unflushed; every repetition flushed. */
        float ms = 0.0f;
        long n_warm, n_rep;
        if (launch_target(g, t) != 0)
            goto out;
        TC_TRY(cu, cu.cuStreamSynchronize(g->stream));
        if (cupti_discard(g) != 0)
            goto out;
        /* 5 flushed executions between two events of their own, as do_bench's estimate */
        if (run_batch(g, t, 5, 1, ex, &flush_ms, &batch, g->mark) != 0)
            goto out;
        TC_TRY(cu, cu.cuEventElapsedTime(&ms, g->mark[0], g->mark[1]));
        run->n_estimate = 5;
        run->estimate_ms = (double)ms / 5.0;
        n_warm = (long)(g->s.warmup_ms / run->estimate_ms);
        n_rep = (long)(g->s.rep_ms / run->estimate_ms);
        n_warm = n_warm < 1 ? 1 : n_warm > (1 << 22) ? (1 << 22) : n_warm;
        n_rep = n_rep < 1 ? 1 : n_rep > (1 << 22) ? (1 << 22) : n_rep;
        if (run_batch(g, t, n_warm, 0, ex, &flush_ms, &batch, NULL) != 0)
            goto out;
        if (run_batch(g, t, n_rep, 1, ex, &flush_ms, &batch, NULL) != 0)
            goto out;
        run->n_warmup = (int32_t)n_warm;
        run->n_timed = (int32_t)n_rep;
    }
    run->wall_ms = tc_now_ms() - t0;
    run->flush_ms = flush_ms;
    rc = 0;
out:
    return rc;
}

/* Allocate (grow) a device buffer to at least `bytes`. */
static int ensure_buf(CUdeviceptr *p, size_t *cap, size_t bytes)
{
    int rc = -1;
    if (bytes <= *cap)
        return 0;
    if (*p != 0)
        TC_TRY(cu, cu.cuMemFree(*p));
    *p = 0;
    *cap = 0;
    TC_TRY(cu, cu.cuMemAlloc(p, bytes));
    *cap = bytes;
    rc = 0;
out:
    return rc;
}

static int fill_u16(struct gpu *g, CUdeviceptr p, uint64_t n, uint16_t v)
{
    void *args[] = {&p, &n, &v};
    int rc = -1;
    TC_TRY(cu, launch_1d(g, g->f_fill, 1024, 256, args));
    rc = 0;
out:
    return rc;
}

static int fill_random(struct gpu *g, CUdeviceptr p, uint64_t n, uint64_t seed)
{
    void *args[] = {&p, &n, &seed};
    int rc = -1;
    TC_TRY(cu, launch_1d(g, g->f_random, 2048, 256, args));
    rc = 0;
out:
    return rc;
}

/* Median of the timed executions (the last n_timed of ex). */
static double timed_median(const struct trace_run *run, const struct seq *ex)
{
    return bench_median_ms(ex->ns + ex->n - (size_t)run->n_timed, (size_t)run->n_timed);
}

static int set_input(struct gpu *g, const int64_t *dims, double *ref_ms)
{
    uint64_t mk, kn, mn, seed;
    struct krec *recs = NULL;
    size_t n_recs = 0;
    struct seq ex = {0};
    struct trace_run run;
    float ms = 0.0f;
    int rc = -1;

    g->have_input = 0;
    g->input_gen++; /* tensor maps of the wgmma path point at the old input's shape */
    g->m = dims[0];
    g->n = dims[1];
    g->k = dims[2];
    mk = (uint64_t)(g->m * g->k);
    kn = (uint64_t)(g->k * g->n);
    mn = (uint64_t)(g->m * g->n);
    if (ensure_buf(&g->a, &g->a_cap, mk * 2) != 0 || ensure_buf(&g->b, &g->b_cap, kn * 2) != 0)
        goto out;
    if (ensure_buf(&g->c, &g->c_cap, mn * 2) != 0 || ensure_buf(&g->cref, &g->cref_cap, mn * 2) != 0)
        goto out;
    /* The data depend on the seed and the shape only, so a shard or a restarted child sees the same inputs. */
    seed = g->s.seed * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)g->m << 42) ^ ((uint64_t)g->n << 21) ^ (uint64_t)g->k;
    if (fill_random(g, g->a, mk, seed * 2 + 1) != 0 || fill_random(g, g->b, kn, seed * 2 + 2) != 0)
        goto out;
    TC_TRY(cu, cu.cuStreamSynchronize(g->stream));
    mark(g, "input: data ready");

    /* Two untimed cuBLAS calls (its own warm-up); the second tells how many kernels one call launches. */
    if (launch_ref(g) != 0)
        goto out;
    TC_TRY(cu, cu.cuStreamSynchronize(g->stream));
    if (cupti_discard(g) != 0)
        goto out;
    TC_TRY(cu, cu.cuEventRecord(g->mark[0], g->stream));
    if (launch_ref(g) != 0)
        goto out;
    TC_TRY(cu, cu.cuEventRecord(g->mark[1], g->stream));
    TC_TRY(cu, cu.cuStreamSynchronize(g->stream));
    TC_TRY(cu, cu.cuEventElapsedTime(&ms, g->mark[0], g->mark[1]));
    g->ref_per_call = 1;
    if (g->s.timer == BENCH_TIMER_CUPTI) {
        int k = 0;
        if (cupti_take(&recs, &n_recs) != 0)
            goto out;
        for (size_t i = 0; i < n_recs; i++)
            k += recs[i].cls == CLS_OTHER;
        if (k < 1) {
            tc_seterr("CUPTI recorded no cuBLAS kernel for one cublasGemmEx call");
            goto out;
        }
        g->ref_per_call = k;
    }
    g->d.kernels_per_ref = g->ref_per_call;
    mark(g, "input: cuBLAS warm");
    memset(&run, 0, sizeof run);
    if (protocol(g, T_REF, (double)ms, &run, &ex) != 0)
        goto out;
    mark(g, "input: cuBLAS timed");
    *ref_ms = timed_median(&run, &ex);
    g->have_input = 1;
    rc = 0;
out:
    free(recs);
    free(ex.ns);
    return rc;
}

/* Load (or find) the module of a configuration. *load_ms = NaN when it was cached. */
static int module_get(struct gpu *g, const struct run_wire *rw, const void *cubin, double *load_ms)
{
    struct module m;
    double t0;
    int rc = -1, smem = (int)space_smem_bytes_on(rw->params, rw->path);
    *load_ms = NAN;
    for (int i = 0; i < g->n_mods; i++)
        if (g->mods[i].config == rw->config) {
            g->cur = &g->mods[i];
            return 0;
        }
    memset(&m, 0, sizeof m);
    m.config = rw->config;
    memcpy(m.params, rw->params, sizeof m.params);
    m.path = rw->path;
    m.tmap_input = -1;
    t0 = tc_now_ms();
    TC_TRY(cu, cu.cuModuleLoadData(&m.mod, cubin));
    TC_TRY(cu, cu.cuModuleGetFunction(&m.fn, m.mod, "tc_gemm_f16"));
    TC_TRY(cu, cu.cuFuncSetAttribute(m.fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem));
    if (m.path == SPACE_PATH_WGMMA)
        TC_TRY(cu, cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&m.resident, m.fn,
                                                                  space_wgmma_threads(m.params), (size_t)smem));
    *load_ms = tc_now_ms() - t0;
    if (g->n_mods == g->cap_mods) {
        int cap = g->cap_mods ? 2 * g->cap_mods : 128;
        struct module *nm = realloc(g->mods, (size_t)cap * sizeof *nm);
        if (nm == NULL) {
            tc_seterr("out of memory");
            goto out;
        }
        g->mods = nm;
        g->cap_mods = cap;
    }
    g->mods[g->n_mods] = m;
    g->cur = &g->mods[g->n_mods++];
    m.mod = NULL;
    rc = 0;
out:
    if (m.mod != NULL)
        cu.cuModuleUnload(m.mod);
    return rc;
}

/* One verification launch on NaN-poisoned C; *rel = ||C - Cref||_F / ||Cref||_F (inf if any C is not finite). */
static int verify(struct gpu *g, double *rel, double *est_ms)
{
    uint64_t mn = (uint64_t)(g->m * g->n), four = 4;
    double h[4];
    float ms = 0.0f;
    int rc = -1;
    void *args[] = {&g->c, &g->cref, &mn, &g->err};
    double t0 = tc_now_ms();
    if (fill_u16(g, g->c, mn, 0x7e00) != 0 || fill_u16(g, g->err, four * 4, 0) != 0)
        goto out;
    TC_TRY(cu, cu.cuEventRecord(g->mark[0], g->stream));
    TC_TRY(cu, launch_gemm(g));
    TC_TRY(cu, cu.cuEventRecord(g->mark[1], g->stream));
    TC_TRY(cu, launch_1d(g, g->f_relerr, 1024, 256, args));
    g->tm.verify_gemm = tc_now_ms() - t0; /* host time to here: launches (a first launch loads the kernel) */
    TC_TRY(cu, cu.cuStreamSynchronize(g->stream));
    TC_TRY(cu, cu.cuEventElapsedTime(&ms, g->mark[0], g->mark[1]));
    *est_ms = ms;
    TC_TRY(cu, cu.cuMemcpyDtoH(h, g->err, sizeof h));
    if (h[2] > 0.0)
        *rel = INFINITY;
    else if (h[1] > 0.0)
        *rel = sqrt(h[0] / h[1]);
    else
        *rel = h[0] > 0.0 ? INFINITY : 0.0;
    g->tm.verify_check = tc_now_ms() - t0 - g->tm.verify_gemm;
    rc = 0;
out:
    return rc;
}

/* 1 if the context no longer works (a sticky error such as an illegal address). */
static int ctx_broken(void)
{
    return cu.cuCtxSynchronize() != CUDA_SUCCESS;
}

static void do_run(struct gpu *g, const struct run_wire *rw, const void *cubin, struct run_done_wire *o,
                   struct seq *ex)
{
    double t0, est = 0.0, rel = NAN;
    memset(o, 0, sizeof *o);
    ex->n = 0;
    o->run.config = rw->config;
    o->run.status = TRACE_OK;
    o->run.estimate_ms = NAN;
    o->run.rel_error = NAN;
    o->run.verify_ms = NAN;
    o->load_ms = NAN;
    if (!g->have_input) {
        o->run.status = TRACE_LAUNCH_ERROR;
        snprintf(o->msg, sizeof o->msg, "no input set");
        return;
    }
    memset(&g->tm, 0, sizeof g->tm);
    if (module_get(g, rw, cubin, &o->load_ms) != 0)
        goto fail;
    t0 = tc_now_ms();
    if (verify(g, &rel, &est) != 0)
        goto fail;
    o->run.verify_ms = tc_now_ms() - t0;
    o->run.rel_error = rel;
    if (!(rel <= g->s.tol)) {
        o->run.status = TRACE_WRONG_RESULT;
        snprintf(o->msg, sizeof o->msg, "relative error %.3g > %.3g", rel, g->s.tol);
        return;
    }
    g->check_events_ms = g->check_cupti_ms = 0.0;
    if (protocol(g, T_GEMM, est, &o->run, ex) != 0)
        goto fail;
    o->n_exec = ex->n;
    if (g->timing) {
        double sum = 0.0;
        for (size_t i = 0; i < ex->n; i++)
            sum += (double)ex->ns[i] / 1e6;
        fprintf(stderr, "timing: run config %d: load %.2f, verify %.2f (gemm %.2f, check %.2f), protocol %.2f = "
                        "executions %.2f + %.2f; %d batches, host: launch %.2f, sync %.2f, cupti %.2f\n",
                rw->config, isnan(o->load_ms) ? 0.0 : o->load_ms, o->run.verify_ms, g->tm.verify_gemm,
                g->tm.verify_check, o->run.wall_ms, sum, o->run.wall_ms - sum, g->tm.batches, g->tm.launch,
                g->tm.sync, g->tm.cupti);
    }
    if (g->check_timer && g->check_cupti_ms > 0.0)
        fprintf(stderr, "timer check: config %d: %zu executions, CUPTI %.3f ms, events %.3f ms, (events - CUPTI) per "
                        "execution %.2f us, events/CUPTI %.4f\n", rw->config, ex->n, g->check_cupti_ms,
                g->check_events_ms, (g->check_events_ms - g->check_cupti_ms) * 1e3 / (double)ex->n,
                g->check_events_ms / g->check_cupti_ms);
    return;
fail:
    o->run.status = TRACE_LAUNCH_ERROR;
    o->run.n_estimate = o->run.n_warmup = o->run.n_timed = 0;
    o->n_exec = 0;
    ex->n = 0;
    snprintf(o->msg, sizeof o->msg, "%s", tc_errmsg());
    o->fatal = ctx_broken();
}

static void child_main(int in_fd, int out_fd, const struct bench_settings *s)
{
    struct gpu g;
    struct seq ex = {0};
    memset(&g, 0, sizeof g);
    g.s = *s;
    g.check_timer = s->timer == BENCH_TIMER_CUPTI && tc_env_flag("TC_TIMER_CHECK");
    signal(SIGINT, SIG_IGN); /* Ctrl-C is the coordinator's: it stops after the current run */
    g.timing = tc_env_flag("TC_TIMING");
    /* The device is reported as soon as it is known, so the coordinator creates the trace and starts compiling
     * for its architecture while this process opens the context, cuBLAS and CUPTI. A failure after that is
     * reported as the answer to the first request. */
    if (gpu_open(&g) != 0) {
        ipc_send(out_fd, MSG_ERROR, tc_errmsg(), strlen(tc_errmsg()), NULL, 0);
        _exit(1);
    }
    if (ipc_send(out_fd, MSG_HELLO, &g.d, sizeof g.d, NULL, 0) != 0)
        _exit(1);
    if (gpu_setup(&g) != 0) {
        ipc_send(out_fd, MSG_ERROR, tc_errmsg(), strlen(tc_errmsg()), NULL, 0);
        _exit(1);
    }
    g.ready_ms = tc_now_ms();
    for (;;) {
        struct ipc_hdr h;
        void *payload = NULL;
        int r = ipc_recv(in_fd, &h, &payload);
        if (r != 0 || h.type == MSG_QUIT)
            _exit(r < 0);
        if (h.type == MSG_INPUT && h.len == sizeof(struct input_wire)) {
            struct input_done_wire d;
            struct input_wire iw;
            memcpy(&iw, payload, sizeof iw);
            memset(&d, 0, sizeof d);
            d.ok = set_input(&g, iw.dims, &d.ref_ms) == 0;
            d.kernels_per_ref = g.ref_per_call;
            d.ready_ms = g.ready_ms;
            if (!d.ok)
                snprintf(d.msg, sizeof d.msg, "%s", tc_errmsg());
            if (ipc_send(out_fd, MSG_INPUT_DONE, &d, sizeof d, NULL, 0) != 0)
                _exit(1);
            if (!d.ok && ctx_broken())
                _exit(1);
        } else if (h.type == MSG_RUN && h.len >= sizeof(struct run_wire)) {
            struct run_wire rw;
            struct run_done_wire o;
            memcpy(&rw, payload, sizeof rw);
            if (h.len != sizeof rw + rw.cubin_len)
                _exit(1);
            do_run(&g, &rw, (const char *)payload + sizeof rw, &o, &ex);
            if (ipc_send(out_fd, MSG_RUN_DONE, &o, sizeof o, ex.ns, o.n_exec * sizeof(uint64_t)) != 0)
                _exit(1);
            if (o.fatal)
                _exit(2);
        } else {
            _exit(1);
        }
        free(payload);
    }
}

/* ======================================= parent side ======================================================== */

struct bench_child {
    pid_t pid;
    int to_fd, from_fd;
    struct bench_settings s;
    int expect; /* MSG_INPUT_DONE or MSG_RUN_DONE, 0 when idle */
    int gone;   /* the last request could not be sent: the child had already ended */
    double ready_ms; /* the first child's start-up end, from its first input reply; 0 before */
};

static void reap(struct bench_child *c, int kill_it)
{
    /* The pipes close first: a child blocked writing a large result to a coordinator that stopped reading gets
     * EPIPE and exits, instead of waiting forever beside our waitpid. */
    if (c->to_fd >= 0)
        close(c->to_fd);
    if (c->from_fd >= 0)
        close(c->from_fd);
    c->to_fd = c->from_fd = -1;
    if (c->pid <= 0)
        return;
    if (kill_it)
        kill(c->pid, SIGKILL);
    while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    c->pid = -1;
}

static int child_spawn(struct bench_child *c, struct bench_device *dev)
{
    int to[2], from[2];
    struct ipc_hdr h;
    void *payload = NULL;
    int r;
    if (pipe(to) != 0 || pipe(from) != 0)
        return tc_seterr("cannot create pipes for the benchmarking process: %s", strerror(errno));
    fflush(NULL);
    c->pid = fork();
    if (c->pid < 0)
        return tc_seterr("cannot fork the benchmarking process: %s", strerror(errno));
    if (c->pid == 0) {
        int keep[2] = {to[0], from[1]};
        ipc_close_others(keep, 2);
        child_main(to[0], from[1], &c->s);
        _exit(0);
    }
    close(to[0]);
    close(from[1]);
    c->to_fd = to[1];
    c->from_fd = from[0];
    c->expect = 0;
    r = ipc_recv(c->from_fd, &h, &payload);
    if (r == 0 && h.type == MSG_HELLO && h.len == sizeof *dev) {
        memcpy(dev, payload, sizeof *dev);
        free(payload);
        return 0;
    }
    if (r == 0 && h.type == MSG_ERROR)
        tc_seterr("%s", (char *)payload);
    else
        tc_seterr("the benchmarking process died while opening the GPU");
    free(payload);
    reap(c, 1);
    return -1;
}

struct bench_child *bench_start(const struct bench_settings *s, struct bench_device *dev)
{
    struct bench_child *c = calloc(1, sizeof *c);
    if (c == NULL) {
        tc_seterr("out of memory");
        return NULL;
    }
    c->s = *s;
    c->pid = -1;
    c->to_fd = c->from_fd = -1;
    if (child_spawn(c, dev) != 0) {
        free(c);
        return NULL;
    }
    return c;
}

int bench_fd(const struct bench_child *c)
{
    return c->from_fd;
}

pid_t bench_pid(const struct bench_child *c)
{
    return c->pid;
}

double bench_ready_ms(const struct bench_child *c)
{
    return c->ready_ms;
}

/* Send a request whose answer is `expect`. A child that is gone (EPIPE) is no failure here: it explains itself on
 * the reply path, where bench_recv reads its last word or its end. */
static int send_request(struct bench_child *c, int expect, uint32_t type, const void *p1, size_t n1, const void *p2,
                        size_t n2)
{
    c->expect = expect;
    if (ipc_send(c->to_fd, type, p1, n1, p2, n2) == 0)
        return 0;
    c->gone = errno == EPIPE;
    return c->gone ? 0 : -1;
}

int bench_send_input(struct bench_child *c, int input, const int64_t *dims)
{
    struct input_wire iw;
    memset(&iw, 0, sizeof iw);
    iw.input = input;
    memcpy(iw.dims, dims, sizeof iw.dims);
    return send_request(c, MSG_INPUT_DONE, MSG_INPUT, &iw, sizeof iw, NULL, 0);
}

int bench_send_run(struct bench_child *c, int config, const int32_t *params, int path, const void *cubin,
                   size_t len)
{
    struct run_wire rw;
    memset(&rw, 0, sizeof rw);
    rw.config = config;
    rw.path = path;
    memcpy(rw.params, params, sizeof rw.params);
    rw.cubin_len = len;
    return send_request(c, MSG_RUN_DONE, MSG_RUN, &rw, sizeof rw, cubin, len);
}

int bench_recv(struct bench_child *c, double *ref_ms, struct bench_result *res)
{
    struct ipc_hdr h;
    void *payload = NULL;
    int expect = c->expect, gone = c->gone, r;
    c->expect = 0;
    c->gone = 0;
    memset(res, 0, sizeof *res);
    r = ipc_recv(c->from_fd, &h, &payload);
    if (r == 1 && gone) /* it ended while idle (killed from outside): the request never ran */
        return BENCH_NOT_RUN;
    if (r != 0) {
        /* The child is gone: a crash, a kill by the watchdog, or an exit after a sticky error. */
        res->fatal = 1;
        res->run.status = TRACE_LAUNCH_ERROR;
        res->run.estimate_ms = res->run.rel_error = res->run.verify_ms = NAN;
        res->load_ms = NAN;
        snprintf(res->msg, sizeof res->msg, "benchmarking process died (%s)",
                 r == 1 ? "crash, timeout or sticky CUDA error" : tc_errmsg());
        if (expect == MSG_INPUT_DONE) {
            free(payload);
            return tc_seterr("the benchmarking process died while preparing an input: %s", res->msg);
        }
        return 1;
    }
    if (h.type == MSG_INPUT_DONE && expect == MSG_INPUT_DONE && h.len == sizeof(struct input_done_wire)) {
        struct input_done_wire d;
        memcpy(&d, payload, sizeof d);
        free(payload);
        if (!d.ok)
            return tc_seterr("preparing the input failed: %s", d.msg);
        *ref_ms = d.ref_ms;
        if (c->ready_ms == 0.0)
            c->ready_ms = d.ready_ms;
        return 0;
    }
    if (h.type == MSG_RUN_DONE && expect == MSG_RUN_DONE && h.len >= sizeof(struct run_done_wire)) {
        struct run_done_wire o;
        memcpy(&o, payload, sizeof o);
        if (h.len != sizeof o + o.n_exec * sizeof(uint64_t)) {
            free(payload);
            return tc_seterr("benchmarking process: corrupt result message");
        }
        res->run = o.run;
        res->load_ms = o.load_ms;
        res->fatal = o.fatal;
        snprintf(res->msg, sizeof res->msg, "%s", o.msg);
        res->n_exec = o.n_exec;
        if (o.n_exec > 0) {
            res->exec_ns = malloc(o.n_exec * sizeof(uint64_t));
            if (res->exec_ns == NULL) {
                free(payload);
                return tc_seterr("out of memory");
            }
            memcpy(res->exec_ns, (char *)payload + sizeof o, o.n_exec * sizeof(uint64_t));
        }
        free(payload);
        return o.fatal ? 1 : 0;
    }
    if (h.type == MSG_ERROR) { /* start-up failed after the device was reported: the child has exited */
        tc_seterr("the benchmarking process could not open the GPU: %.*s", (int)h.len, (char *)payload);
        free(payload);
        reap(c, 1);
        return -1;
    }
    free(payload);
    return tc_seterr("benchmarking process: unexpected message %u", h.type);
}

int bench_restart(struct bench_child *c)
{
    struct bench_device dev;
    reap(c, 1);
    return child_spawn(c, &dev);
}

void bench_kill(struct bench_child *c)
{
    if (c->pid > 0)
        kill(c->pid, SIGKILL);
}

void bench_quit(struct bench_child *c)
{
    if (c == NULL || c->to_fd < 0)
        return;
    ipc_send(c->to_fd, MSG_QUIT, NULL, 0, NULL, 0);
    close(c->to_fd);
    c->to_fd = -1;
}

void bench_detach(struct bench_child *c)
{
    if (c == NULL)
        return;
    bench_quit(c);
    if (c->from_fd >= 0)
        close(c->from_fd);
    free(c);
}

void bench_stop(struct bench_child *c)
{
    int busy;
    if (c == NULL)
        return;
    busy = c->expect != 0; /* a request in flight (the collection stopped on an error): its answer is not wanted */
    bench_quit(c);
    reap(c, busy);
    free(c);
}
