/* bench_gpu.c — the benchmarking child's GPU: start-up (driver, libraries, context, cuBLAS, the helper kernels),
 * device buffers, configuration modules, an input's data and cuBLAS reference (timed with bench_protocol.c), and
 * a configuration's verification. The launches themselves are bench_launch.c's, one floor below both. */
#include "bench_int.h"
#include "kernels_src.h"
#include "tc_err.h"
#include "tc_time.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
        tc_seterr_env("out of memory");
        goto out;
    }
    TC_TRY(nvrtc, nvr.nvrtcGetCUBIN(prog, j->cubin));
    rc = 0;
out:
    if (rc != 0)
        tc_err_save(&j->err);
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
static void bench_gpu_mark(const struct gpu *g, const char *what)
{
    if (g->timing)
        fprintf(stderr, "timing: child %-22s %8.1f ms\n", what, tc_now_ms() - g->s.t0_ms);
}

static void *load_libs(void *arg)
{
    struct gpu *g = arg;
    g->libs_rc = cuapi_load_nvrtc() != 0 || cuapi_load_cublas() != 0 || (g->libs_cupti && cuapi_load_cupti() != 0);
    if (g->libs_rc != 0)
        tc_err_save(&g->libs_err);
    return NULL;
}

/* Start-up, phase 1: the driver and the device's properties, all the coordinator needs to create the trace and
 * start compiling for the right architecture. */
int bench_gpu_open(struct gpu *g)
{
    int v = 0, count = 0, rc = -1;
    bench_gpu_mark(g, "start");
    if (cuapi_load() != 0)
        return -1;
    /* Mapping and relocating cuBLAS (~500 MB with cuBLASLt) and NVRTC takes 60 ms with a warm page cache and
     * ~370 ms on a fresh machine (H200): done beside cuInit, which takes about as long. */
    g->libs_cupti = g->s.timer == BENCH_TIMER_CUPTI;
    g->libs_started = pthread_create(&g->libs_thread, NULL, load_libs, g) == 0;
    TC_TRY(cu, cu.cuInit(0));
    bench_gpu_mark(g, "cuInit");
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
    bench_gpu_mark(g, "device known");
    rc = 0;
out:
    return rc;
}

/* Start-up, phase 2 (after the device is reported): the helper kernels compile on a thread of their own while
 * CUPTI, the context and cuBLAS open; then buffers. */
int bench_gpu_setup(struct gpu *g)
{
    int rc = -1;
    if (g->libs_started) { /* the loaders are not thread-safe: this thread touches none before the join */
        pthread_join(g->libs_thread, NULL);
        g->libs_started = 0;
    } else {
        load_libs(g); /* the thread could not start: load them here */
    }
    if (g->libs_rc != 0) {
        tc_err_restore(&g->libs_err);
        goto out;
    }
    g->hj.cc = g->d.cc;
    if (pthread_create(&g->hj_thread, NULL, helpers_compile, &g->hj) != 0) {
        tc_seterr("cannot start a thread");
        goto out;
    }
    g->hj_started = 1;
    bench_gpu_mark(g, "libraries loaded");
    if (g->s.timer == BENCH_TIMER_CUPTI && bench_cupti_enable() != 0)
        goto out;
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
    bench_gpu_mark(g, "context");
    TC_TRY(cublas, cbl.cublasCreate_v2(&g->blas));
    TC_TRY(cublas, cbl.cublasSetStream_v2(g->blas, (cudaStream_t)g->stream));
    bench_gpu_mark(g, "cuBLAS");
    pthread_join(g->hj_thread, NULL);
    g->hj_started = 0;
    if (g->hj.rc != 0) {
        tc_err_restore(&g->hj.err);
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
    bench_gpu_mark(g, "ready");
    rc = 0;
out:
    if (g->hj_started)
        pthread_join(g->hj_thread, NULL);
    g->hj_started = 0;
    free(g->hj.cubin);
    g->hj.cubin = NULL;
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
    TC_TRY(cu, bench_launch_1d(g, g->f_fill, 1024, 256, args));
    rc = 0;
out:
    return rc;
}

static int fill_random(struct gpu *g, CUdeviceptr p, uint64_t n, uint64_t seed)
{
    void *args[] = {&p, &n, &seed};
    int rc = -1;
    TC_TRY(cu, bench_launch_1d(g, g->f_random, 2048, 256, args));
    rc = 0;
out:
    return rc;
}

int bench_set_input(struct gpu *g, const int64_t *dims, double *ref_ms)
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
    bench_gpu_mark(g, "input: data ready");

    /* Two untimed cuBLAS calls (its own warm-up); the second tells how many kernels one call launches. */
    if (bench_launch_ref(g) != 0)
        goto out;
    TC_TRY(cu, cu.cuStreamSynchronize(g->stream));
    if (bench_cupti_discard(g) != 0)
        goto out;
    TC_TRY(cu, cu.cuEventRecord(g->mark[0], g->stream));
    if (bench_launch_ref(g) != 0)
        goto out;
    TC_TRY(cu, cu.cuEventRecord(g->mark[1], g->stream));
    TC_TRY(cu, cu.cuStreamSynchronize(g->stream));
    TC_TRY(cu, cu.cuEventElapsedTime(&ms, g->mark[0], g->mark[1]));
    g->ref_per_call = 1;
    if (g->s.timer == BENCH_TIMER_CUPTI) {
        int k = 0;
        if (bench_cupti_take(&recs, &n_recs) != 0)
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
    bench_gpu_mark(g, "input: cuBLAS warm");
    memset(&run, 0, sizeof run);
    if (bench_run_protocol(g, T_REF, (double)ms, &run, &ex) != 0)
        goto out;
    bench_gpu_mark(g, "input: cuBLAS timed");
    *ref_ms = trace_timed_median_ns(&run, ex.ns) / 1e6; /* ex holds this run's executions alone */
    g->have_input = 1;
    rc = 0;
out:
    free(recs);
    free(ex.ns);
    return rc;
}

/* Load (or find) the module of a configuration. *load_ms = NaN when it was cached. */
int bench_module_get(struct gpu *g, const struct run_wire *rw, const void *cubin, double *load_ms)
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
            tc_seterr_env("out of memory");
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
int bench_verify(struct gpu *g, double *rel, double *est_ms)
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
    TC_TRY(cu, bench_launch_gemm(g));
    TC_TRY(cu, cu.cuEventRecord(g->mark[1], g->stream));
    TC_TRY(cu, bench_launch_1d(g, g->f_relerr, 1024, 256, args));
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
