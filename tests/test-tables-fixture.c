/* test-tables-fixture.c — hand-built traces for test-tables.c and test-report.c (see the header).
 *
 * The small trace (variant 0), every number the table tests check:
 *   params BLOCK_M BLOCK_N; dims M N K
 *   configs: 0: 64 64   ok                 compile 100 ms, load 1 ms
 *            1: 128 64  ok                 compile 200 ms, load 2 ms
 *            2: 256 256 out of resources   compile  50 ms, load 0 ms, log "too much shared memory\nsecond line"
 *   inputs:  0: 64x64x64    flops 3e12,   ref_ms 2.0
 *            1: 128x64x32   flops 1.2e12, ref_ms NaN
 *   runs (input, config: warm-up | timed, in ms; wall_ms, flush_ms):
 *     0: 0 0 ok:            5 | 1 2 3        wall 10  flush 0.5
 *     1: 0 1 ok:            9 | 4 1 1 2      wall 20  flush 0.5
 *     2: 1 0 ok:              | 0.5 0.7 0.6  wall 5   flush 0.5
 *     3: 1 1 launch error:    | (none)       wall 1   flush 0.5
 * Variant 1: run 0 timed 1 1 1; every wall halved; flush_ms 0. */
#include "test-tables-fixture.h"
#include "trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct trace *create(const char *path, const char *protocol, int64_t flush_bytes, int n_params)
{
    static const char *const pnames[] = {"BLOCK_M", "BLOCK_N", "BLOCK_K", "NUM_WARPS"};
    static const char *const dnames[] = {"M", "N", "K"};
    struct trace_meta m;
    memset(&m, 0, sizeof m);
    snprintf(m.generator, sizeof m.generator, "tunecost test fixture");
    snprintf(m.created_utc, sizeof m.created_utc, "2026-11-22T00:00:00Z");
    snprintf(m.kernel, sizeof m.kernel, "gemm_f16_f32acc");
    snprintf(m.device_name, sizeof m.device_name, "Hand-built GPU");
    m.device_cc = 90;
    m.device_sms = 132;
    m.device_l2_bytes = 50 << 20;
    m.driver_version = 13000;
    m.cuda_version = 13000;
    snprintf(m.timer, sizeof m.timer, "cupti");
    snprintf(m.protocol, sizeof m.protocol, "%s", protocol);
    m.warmup_ms = 25;
    m.rep_ms = 100;
    m.flush_bytes = flush_bytes;
    m.compile_jobs = 1;
    m.seed = 1;
    return trace_create(path, &m, pnames, n_params, dnames, 3);
}

static int add_run(struct trace *t, int input, int config, int status, const double *warm_ms, int n_warm,
                   const double *timed_ms, int n_timed, double wall_ms, double flush_ms)
{
    uint64_t x[64];
    struct trace_run r;
    memset(&r, 0, sizeof r);
    r.input = input;
    r.config = config;
    r.status = status;
    r.n_warmup = n_warm;
    r.n_timed = n_timed;
    r.wall_ms = wall_ms;
    r.flush_ms = flush_ms;
    r.estimate_ms = NAN;
    r.rel_error = 0;
    for (int i = 0; i < n_warm; i++)
        x[i] = (uint64_t)llround(warm_ms[i] * 1e6);
    for (int i = 0; i < n_timed; i++)
        x[n_warm + i] = (uint64_t)llround(timed_ms[i] * 1e6);
    return trace_append_run(t, &r, x, (size_t)(n_warm + n_timed));
}

int fixture_small(const char *path, int64_t flush_bytes, int variant)
{
    static const int32_t params[] = {64, 64, 128, 64, 256, 256};
    static const struct trace_config configs[] = {
        {TRACE_OK, 100, 1, 128, 32768, 0, 0, NAN},
        {TRACE_OK, 200, 2, 168, 65536, 0, 0, NAN},
        {TRACE_OUT_OF_RESOURCES, 50, 0, 0, 300000, 0, 0, NAN},
    };
    static const int64_t dims[] = {64, 64, 64, 128, 64, 32};
    struct trace_input inputs[] = {{3e12, 2.0}, {1.2e12, NAN}};
    static const double w0[] = {5}, w1[] = {9};
    static const double t0[] = {1, 2, 3}, t0v[] = {1, 1, 1}, t1[] = {4, 1, 1, 2}, t2[] = {0.5, 0.7, 0.6};
    double half = variant ? 0.5 : 1.0, fl = variant ? 0 : 0.5;
    struct trace *t = create(path, "fixed-time", flush_bytes, 2);
    int rc = -1;
    if (t == NULL)
        return -1;
    if (trace_write_configs(t, 3, params, configs) != 0 || trace_write_inputs(t, 2, dims, inputs) != 0 ||
        trace_set_compile_log(t, 2, "too much shared memory\nsecond line") != 0)
        goto out;
    if (add_run(t, 0, 0, TRACE_OK, w0, 1, variant ? t0v : t0, 3, 10 * half, fl) != 0 ||
        add_run(t, 0, 1, TRACE_OK, w1, 1, t1, 4, 20 * half, fl) != 0 ||
        add_run(t, 1, 0, TRACE_OK, NULL, 0, t2, 3, 5 * half, fl) != 0 ||
        add_run(t, 1, 1, TRACE_LAUNCH_ERROR, NULL, 0, NULL, 0, 1 * half, fl) != 0)
        goto out;
    rc = 0;
out:
    if (trace_close(t) != 0)
        rc = -1;
    return rc;
}

int fixture_triton(const char *path)
{
    static const int32_t params[] = {64, 64, 128, 64, 256, 256};
    static const struct trace_config configs[] = {
        {TRACE_OK, 100, 1, 128, 32768, 0, 0, NAN},
        {TRACE_OK, 200, 2, 168, 65536, 0, 0, NAN},
        {TRACE_OUT_OF_RESOURCES, 50, 0, 0, 300000, 0, 0, NAN},
    };
    static const int64_t dims[] = {64, 64, 64, 128, 64, 32};
    struct trace_input inputs[] = {{3e12, 2.0}, {1.2e12, NAN}};
    /* run: 2 estimate executions (3, 2 ms: mean 2.5 = the estimate), 1 warm-up, 3 timed of 1 ms, flush 0.6 ms
     * over the 6 executions (0.1 each) */
    static const uint64_t x[] = {3000000, 2000000, 1000000, 1000000, 1000000, 1000000};
    struct trace_run r;
    struct trace *t = create(path, "triton", 256 << 20, 2);
    int rc = -1;
    if (t == NULL)
        return -1;
    memset(&r, 0, sizeof r);
    r.input = 0;
    r.config = 1;
    r.status = TRACE_OK;
    r.n_estimate = 2;
    r.n_warmup = 1;
    r.n_timed = 3;
    r.wall_ms = 12;
    r.flush_ms = 0.6;
    r.estimate_ms = 2.5;
    if (trace_write_configs(t, 3, params, configs) != 0 || trace_write_inputs(t, 2, dims, inputs) != 0 ||
        trace_append_run(t, &r, x, 6) != 0)
        goto out;
    rc = 0;
out:
    if (trace_close(t) != 0)
        rc = -1;
    return rc;
}

/* Deterministic pseudo-random numbers in [0, 1) (64-bit LCG, top 53 bits). */
static double lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* The report fixture; with_isolated: every configuration also has an isolated (1-worker) compile time, its
 * compile_ms / (1 + 0.5 u) with u from a stream of its own (the rest of the data is fixture_report's). */
static int fixture_report_with(const char *path, int with_isolated)
{
    enum { NC = 24, NI = 4, NW = 20, MAX_NT = 4000 };
    static const int64_t dims[NI * 3] = {4096, 256, 4096, 1024, 1024, 1024, 256, 4096, 512, 4096, 4096, 4096};
    int32_t params[NC * 4];
    struct trace_config configs[NC];
    struct trace_input inputs[NI];
    static uint64_t x[NW + MAX_NT];
    uint64_t seed = 42;
    struct trace *t = create(path, "fixed-time", 0, 4);
    int rc = -1;
    if (t == NULL)
        return -1;
    for (int c = 0; c < NC; c++) {
        params[c * 4 + 0] = 32 << (c % 4);
        params[c * 4 + 1] = 32 << ((c / 4) % 4);
        params[c * 4 + 2] = 32 << (c % 3);
        params[c * 4 + 3] = 4 << (c % 2);
        configs[c] = (struct trace_config){c == NC - 1 ? TRACE_COMPILE_ERROR : TRACE_OK, 150 + 250 * lcg(&seed),
                                           1 + lcg(&seed), 128, 49152, 0, 0, NAN};
    }
    if (with_isolated) {
        uint64_t iso_seed = 7;
        for (int c = 0; c < NC; c++)
            configs[c].compile_isolated_ms = configs[c].compile_ms / (1 + 0.5 * lcg(&iso_seed));
    }
    for (int i = 0; i < NI; i++) {
        double f = 2.0 * (double)dims[i * 3] * (double)dims[i * 3 + 1] * (double)dims[i * 3 + 2];
        inputs[i] = (struct trace_input){f, f / 400e9}; /* cuBLAS at 400 TFLOP/s */
    }
    if (trace_write_configs(t, NC, params, configs) != 0 || trace_write_inputs(t, NI, dims, inputs) != 0 ||
        trace_set_compile_log(t, NC - 1, "error: too many resources requested for launch") != 0)
        goto out;
    for (int i = 0; i < NI; i++) {
        for (int c = 0; c < NC - 1; c++) {
            /* a configuration's speed: 40-100% of 420 TFLOP/s, input-dependent; 2% noise; first runs cold */
            double tflops = 420 * (0.4 + 0.6 * lcg(&seed)), ms = inputs[i].flops / tflops / 1e9, timed = 0;
            /* timed executions until 100 ms (at most MAX_NT), as a fixed-time collector records them */
            int NT = (int)fmin(MAX_NT, ceil(100.0 / ms));
            struct trace_run r;
            memset(&r, 0, sizeof r);
            for (int k = 0; k < NW + NT; k++) {
                double v = ms * (1 + 0.02 * lcg(&seed)) * (k < 3 ? 1.5 : 1.0);
                x[k] = (uint64_t)llround(v * 1e6);
                if (k >= NW)
                    timed += (double)x[k] / 1e6;
            }
            r.input = i;
            r.config = c;
            r.status = TRACE_OK;
            r.n_warmup = NW;
            r.n_timed = NT;
            r.wall_ms = timed + 25 + 30 * lcg(&seed);
            r.flush_ms = 0;
            r.estimate_ms = NAN;
            if (trace_append_run(t, &r, x, (size_t)(NW + NT)) != 0)
                goto out;
        }
    }
    rc = 0;
out:
    if (trace_close(t) != 0)
        rc = -1;
    return rc;
}

int fixture_report(const char *path)
{
    return fixture_report_with(path, 0);
}

int fixture_report_costs(const char *path)
{
    return fixture_report_with(path, 1);
}

int fixture_full(const char *path, int max_timed)
{
    enum { NC = 100, NI = 64, NW = 20 };
    static const int64_t sizes[] = {256, 512, 1024, 4096};
    int64_t dims[NI * 3];
    int32_t params[NC * 4];
    struct trace_config configs[NC];
    struct trace_input inputs[NI];
    uint64_t seed = 7, *x = malloc(sizeof *x * (size_t)(NW + max_timed));
    struct trace *t = create(path, "fixed-time", 0, 4);
    int rc = -1;
    if (t == NULL || x == NULL)
        goto out;
    for (int c = 0; c < NC; c++) {
        params[c * 4 + 0] = 32 << (c % 4);
        params[c * 4 + 1] = 32 << ((c / 4) % 4);
        params[c * 4 + 2] = 32 << ((c / 16) % 4);
        params[c * 4 + 3] = 2 << (c % 3);
        /* a third fail for shared memory, as on the H200 */
        configs[c] = (struct trace_config){c % 3 == 2 ? TRACE_OUT_OF_RESOURCES : TRACE_OK, 150 + 250 * lcg(&seed),
                                           1 + lcg(&seed), 128, 49152, 0, 0, NAN};
    }
    for (int i = 0; i < NI; i++) {
        dims[i * 3] = sizes[i / 16];
        dims[i * 3 + 1] = sizes[(i / 4) % 4];
        dims[i * 3 + 2] = sizes[i % 4];
        inputs[i].flops = 2.0 * (double)dims[i * 3] * (double)dims[i * 3 + 1] * (double)dims[i * 3 + 2];
        inputs[i].ref_ms = fmax(0.004, inputs[i].flops / 600e9);
    }
    if (trace_write_configs(t, NC, params, configs) != 0 || trace_write_inputs(t, NI, dims, inputs) != 0)
        goto out;
    for (int c = 0; c < NC; c++)
        if (configs[c].status != TRACE_OK &&
            trace_set_compile_log(t, c, "out of resources: shared memory 262144 > 232448 bytes") != 0)
            goto out;
    for (int i = 0; i < NI; i++) {
        for (int c = 0; c < NC; c++) {
            double tflops = 600 * (0.2 + 0.8 * lcg(&seed)), ms = fmax(0.005, inputs[i].flops / tflops / 1e9);
            int nt = (int)fmin(max_timed, ceil(100.0 / ms));
            double timed = 0;
            struct trace_run r;
            if (configs[c].status != TRACE_OK)
                continue;
            memset(&r, 0, sizeof r);
            for (int k = 0; k < NW + nt; k++) {
                x[k] = (uint64_t)llround(ms * (1 + 0.03 * lcg(&seed)) * (k < 3 ? 1.5 : 1.0) * 1e6);
                if (k >= NW)
                    timed += (double)x[k] / 1e6;
            }
            r.input = i;
            r.config = c;
            r.status = TRACE_OK;
            r.n_warmup = NW;
            r.n_timed = nt;
            r.wall_ms = timed + 25 + 20 * lcg(&seed);
            r.estimate_ms = NAN;
            if (trace_append_run(t, &r, x, (size_t)(NW + nt)) != 0)
                goto out;
        }
    }
    rc = 0;
out:
    free(x);
    if (trace_close(t) != 0)
        rc = -1;
    return rc;
}
