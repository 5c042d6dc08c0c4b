/* bench-space.c — writes a SYNTHETIC trace of a large constrained search space for bench-policies --synthetic (the
 * speed target of docs/performance.md, "Policies": 20,000 configurations). The times are a formula, not
 * measurements; nothing here may be passed off as a tuning result.
 *
 * The space: Kernel Tuner-like parameters (block_size_x 16..1024, block_size_y 1..32, tile_x, tile_y 1..8, unroll
 * 0..8, vector 1..8, pad 0..1) restricted to 32 <= block_size_x x block_size_y <= 1024 and tile_x x tile_y <= 32,
 * from which n configurations are kept by a seeded shuffle (in grid order). One input; per configuration status
 * (1 in 20 a compile error, 1 in 20 out of resources), compile 100-1000 ms, 2 warm-up and 12 timed executions
 * around a level that is a product of per-parameter factors and a jitter, wall = executions + 0.05 ms each. */
#include "bench-space.h"
#include "tc_err.h"
#include "trace.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NP 7

static const int32_t v_bx[] = {16, 32, 64, 128, 256, 512, 1024}, v_by[] = {1, 2, 4, 8, 16, 32};
static const int32_t v_t[] = {1, 2, 3, 4, 5, 6, 7, 8}, v_u[] = {0, 1, 2, 4, 8}, v_v[] = {1, 2, 4, 8};
static const int32_t v_p[] = {0, 1};

/* Every configuration of the restricted grid, NP values each, into rows (grid order); returns how many. */
static int restricted_grid(int32_t *rows)
{
    int n = 0;
    for (int a = 0; a < 7; a++)
        for (int b = 0; b < 6; b++)
            for (int c = 0; c < 8; c++)
                for (int d = 0; d < 8; d++)
                    for (int e = 0; e < 5; e++)
                        for (int f = 0; f < 4; f++)
                            for (int g = 0; g < 2; g++) {
                                int threads = v_bx[a] * v_by[b];
                                if (threads < 32 || threads > 1024 || v_t[c] * v_t[d] > 32)
                                    continue;
                                if (rows != NULL) {
                                    int32_t r[NP] = {v_bx[a], v_by[b], v_t[c], v_t[d], v_u[e], v_v[f], v_p[g]};
                                    memcpy(&rows[(size_t)n * NP], r, sizeof r);
                                }
                                n++;
                            }
    return n;
}

/* The synthetic level of a configuration (ns): a product of per-parameter factors around 200 us. */
static double level_ns(const int32_t *r, gsl_rng *rng)
{
    double x = 2e5;
    x *= 1 + 0.3 * fabs(log2(r[0] * r[1] / 256.0));
    x *= 1 + 0.15 * fabs((double)(r[2] * r[3] - 8)) / 8.0;
    x *= r[4] == 4 ? 0.9 : 1.0;
    x *= r[5] == 4 ? 0.85 : r[5] == 8 ? 0.95 : 1.0;
    x *= r[6] ? 0.97 : 1.0;
    return x * (0.9 + 0.2 * gsl_rng_uniform(rng));
}

/* Write the n-configuration synthetic trace at path. Returns 0, or -1 (tc_errmsg). */
int bench_space_write(const char *path, int n)
{
    static const char *const pn[NP] = {"block_size_x", "block_size_y", "tile_x", "tile_y", "unroll", "vector", "pad"};
    static const char *const dn[] = {"N"};
    int total = restricted_grid(NULL), rc = -1;
    int32_t *all = malloc((size_t)total * NP * sizeof *all), *rows = malloc((size_t)n * NP * sizeof *rows);
    int *keep = calloc((size_t)total, sizeof *keep), *idx = malloc((size_t)total * sizeof *idx);
    struct trace_config *cfg = calloc((size_t)n, sizeof *cfg);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    struct trace *t = NULL;
    struct trace_meta m;
    if (all == NULL || rows == NULL || keep == NULL || idx == NULL || cfg == NULL || rng == NULL) {
        tc_seterr_env("bench-space: out of memory");
        goto out;
    }
    if (n < 1 || n > total) {
        tc_seterr("bench-space: %d configurations asked, the synthetic space has 1 to %d", n, total);
        goto out;
    }
    gsl_rng_set(rng, 1);
    restricted_grid(all);
    for (int i = 0; i < total; i++)
        idx[i] = i;
    for (int i = 0; i < n; i++) { /* a seeded partial shuffle: the first n */
        int j = i + (int)gsl_rng_uniform_int(rng, (unsigned long)(total - i)), x = idx[i];
        idx[i] = idx[j];
        idx[j] = x;
        keep[idx[i]] = 1;
    }
    for (int i = 0, k = 0; i < total; i++)
        if (keep[i])
            memcpy(&rows[(size_t)k++ * NP], &all[(size_t)i * NP], NP * sizeof *rows);
    memset(&m, 0, sizeof m);
    snprintf(m.generator, sizeof m.generator, "bench-space (synthetic)");
    snprintf(m.kernel, sizeof m.kernel, "synthetic");
    snprintf(m.device_name, sizeof m.device_name, "synthetic (not a measurement)");
    snprintf(m.timer, sizeof m.timer, "events");
    snprintf(m.protocol, sizeof m.protocol, "fixed-time");
    m.warmup_ms = 1;
    m.rep_ms = 2.4;
    m.compile_jobs = 1;
    for (int k = 0; k < n; k++) {
        double u = gsl_rng_uniform(rng);
        cfg[k].status = u < 0.05 ? TRACE_COMPILE_ERROR : u < 0.10 ? TRACE_OUT_OF_RESOURCES : TRACE_OK;
        cfg[k].compile_ms = 100 + 900 * gsl_rng_uniform(rng);
        cfg[k].load_ms = 0.1;
    }
    int64_t dims[] = {4096};
    struct trace_input in = {1e12, NAN};
    if ((t = trace_create(path, &m, pn, NP, dn, 1)) == NULL || trace_write_configs(t, n, rows, cfg) != 0 ||
        trace_write_inputs(t, 1, dims, &in) != 0)
        goto out;
    for (int k = 0; k < n; k++) {
        if (cfg[k].status != TRACE_OK)
            continue;
        uint64_t x[14];
        double lv = level_ns(&rows[(size_t)k * NP], rng), sum = 0;
        for (int e = 0; e < 14; e++) {
            x[e] = (uint64_t)(lv * (0.98 + 0.04 * gsl_rng_uniform(rng)));
            sum += (double)x[e] * 1e-6;
        }
        struct trace_run r = {0, k, TRACE_OK, 0, 2, 12, 0, sum + 14 * 0.05, 0, 0, NAN, 1e-4, NAN, NAN};
        if (trace_append_run(t, &r, x, 14) != 0)
            goto out;
    }
    rc = trace_close(t);
    t = NULL;
out:
    if (t != NULL)
        trace_close(t);
    gsl_rng_free(rng);
    free(all);
    free(rows);
    free(keep);
    free(idx);
    free(cfg);
    return rc;
}
