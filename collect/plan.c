/* plan.c — configurations, expected costs and the balanced split of a collection (see plan.h). */
#include "plan.h"

#include "tc_err.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int32_t *plan_configs(const struct space *s, int space_full, long n_configs, uint64_t seed, int *n)
{
    long size = space_size(s), want = space_full ? size : n_configs;
    int32_t *p = malloc((size_t)(want < size ? want : size) * SP_N_PARAMS * sizeof *p);
    long got;
    if (p == NULL) {
        tc_seterr_env("out of memory");
        return NULL;
    }
    got = space_sample(s, want, seed, p);
    if (got < 0) {
        free(p);
        return NULL;
    }
    *n = (int)got;
    return p;
}

long plan_compile_weight(const int32_t *p)
{
    return (long)p[SP_BLOCK_M] * p[SP_BLOCK_N] / (p[SP_NUM_WARPS] * 32) * p[SP_BLOCK_K];
}

static int cmp_weight(const void *a, const void *b, void *arg)
{
    const int32_t *params = arg;
    int x = *(const int *)a, y = *(const int *)b;
    long cx = plan_compile_weight(params + x * SP_N_PARAMS), cy = plan_compile_weight(params + y * SP_N_PARAMS);
    return cx < cy ? -1 : cx > cy ? 1 : x - y;
}

static int cmp_weight_desc(const void *a, const void *b, void *arg)
{
    return cmp_weight(b, a, arg);
}

void plan_sort_compiles(int *order, int n, const int32_t *params, int descending)
{
    qsort_r(order, (size_t)n, sizeof *order, descending ? cmp_weight_desc : cmp_weight, (void *)params);
}

static int never_compiled(const struct plan_model *m, const int32_t *params)
{
    return !m->compile_invalid && space_smem_bytes(params) > PLAN_SMEM_MAX;
}

double plan_compile_ms(const struct plan_model *m, const int32_t *params)
{
    return never_compiled(m, params) ? 0.0 : 170.0 + 0.07 * (double)plan_compile_weight(params);
}

double plan_run_ms(const struct plan_model *m, const int64_t *dims, const int32_t *params)
{
    const double gap_ms = 0.003, flops_per_ms = 4e11, bytes_per_ms = 3e9;
    double flops = 2.0 * (double)dims[0] * (double)dims[1] * (double)dims[2];
    double kernel_ms = fmax(0.005, flops / flops_per_ms);
    double flush = m->flush_bytes < 0 ? 50e6 : (double)m->flush_bytes; /* -1: the L2 (H100/H200: 50 MB) */
    if (space_smem_bytes(params) > PLAN_SMEM_MAX)
        return 0.0;
    return 10.0 + m->warmup_ms * (1.0 + gap_ms / kernel_ms) + m->rep_ms * (1.0 + (gap_ms + flush / bytes_per_ms) / kernel_ms);
}

/* A piece of the work: configuration k on inputs [i0, i1). */
struct piece {
    int k, i0, i1;
    double cost;
};

static int cmp_piece(const void *a, const void *b)
{
    const struct piece *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    if (x->k != y->k)
        return x->k - y->k;
    return x->i0 - y->i0;
}

static double cost_of(const double *v, size_t j)
{
    return v[j] > 0.0 ? v[j] : 0.0; /* NaN and negatives count as nothing */
}

int plan_assign(int n_in, int n_cfg, const double *run_ms, const double *compile_ms, int n_ranks, int *owner)
{
    size_t n_pairs = (size_t)n_in * (size_t)n_cfg;
    struct piece *pc = NULL;
    double *load = NULL, total = 0.0, limit;
    int equal = 0, rc = -1;
    size_t n_pc = 0;

    if (n_pairs == 0)
        return 0;
    pc = malloc(n_pairs * sizeof *pc);
    load = calloc((size_t)n_ranks, sizeof *load);
    if (pc == NULL || load == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    for (int k = 0; k < n_cfg; k++) {
        total += cost_of(compile_ms, (size_t)k);
        for (int i = 0; i < n_in; i++)
            total += cost_of(run_ms, (size_t)i * n_cfg + k);
    }
    equal = !(total > 0.0);
    if (equal)
        total = (double)n_pairs;
    /* Pieces of at most 1/16 of a rank's share (one pair at least): with the dearest first to the least loaded
     * rank, no rank ends more than one piece above the mean, i.e. within 1/16 of it. */
    limit = total / n_ranks / 16.0;
    for (int k = 0; k < n_cfg; k++) {
        double comp = equal ? 0.0 : cost_of(compile_ms, (size_t)k), c = comp;
        int i0 = 0;
        for (int i = 0; i < n_in; i++) {
            double r = equal ? 1.0 : cost_of(run_ms, (size_t)i * n_cfg + k);
            if (i > i0 && c + r > limit) {
                pc[n_pc++] = (struct piece){k, i0, i, c};
                i0 = i;
                c = comp; /* the next piece's rank compiles the configuration too */
            }
            c += r;
        }
        pc[n_pc++] = (struct piece){k, i0, n_in, c};
    }
    qsort(pc, n_pc, sizeof *pc, cmp_piece);
    for (size_t p = 0; p < n_pc; p++) {
        int best = 0;
        for (int r = 1; r < n_ranks; r++)
            if (load[r] < load[best])
                best = r;
        load[best] += pc[p].cost;
        for (int i = pc[p].i0; i < pc[p].i1; i++)
            owner[(size_t)i * n_cfg + pc[p].k] = best;
    }
    rc = 0;
out:
    free(pc);
    free(load);
    return rc;
}

void plan_loads(int n_in, int n_cfg, const double *run_ms, const double *compile_ms, const int *owner,
                int n_ranks, double *load)
{
    memset(load, 0, (size_t)n_ranks * sizeof *load);
    for (int k = 0; k < n_cfg; k++)
        for (int r = 0; r < n_ranks; r++) {
            int touches = 0;
            for (int i = 0; i < n_in; i++)
                if (owner[(size_t)i * n_cfg + k] == r) {
                    touches = 1;
                    load[r] += cost_of(run_ms, (size_t)i * n_cfg + k);
                }
            if (touches)
                load[r] += cost_of(compile_ms, (size_t)k);
        }
}

int plan_isolated_shards(const int32_t *params, int n_cfg, int n_shards, int *owner)
{
    const struct plan_model m = {0.0, 0.0, 0, 1, 1};
    double *zero = calloc((size_t)(n_cfg > 0 ? n_cfg : 1), sizeof *zero);
    double *cms = malloc((size_t)(n_cfg > 0 ? n_cfg : 1) * sizeof *cms);
    int rc = -1;
    if (zero == NULL || cms == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    for (int k = 0; k < n_cfg; k++)
        cms[k] = plan_compile_ms(&m, params + k * SP_N_PARAMS);
    rc = plan_assign(1, n_cfg, zero, cms, n_shards, owner);
out:
    free(zero);
    free(cms);
    return rc;
}
