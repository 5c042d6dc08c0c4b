/* space.c — search space enumeration, seeded sampling, input shapes and shards (see space.h). */
#include "space.h"
#include "tc_err.h"
#include "tc_opt.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const space_param_names[SP_N_PARAMS] = {"BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "NUM_STAGES",
                                                    "NUM_WARPS"};
const char *const space_dim_names[SPACE_N_DIMS] = {"M", "N", "K"};

static const int32_t default_values[SP_N_PARAMS][4] = {
    {32, 64, 128, 256}, {32, 64, 128, 256}, {32, 64, 128, 256}, {8}, {3, 4, 5}, {2, 4, 8}};
static const int default_n[SP_N_PARAMS] = {4, 4, 4, 1, 3, 3};

void space_default(struct space *s)
{
    memset(s, 0, sizeof *s);
    for (int p = 0; p < SP_N_PARAMS; p++) {
        s->n_values[p] = default_n[p];
        for (int v = 0; v < default_n[p]; v++)
            s->values[p][v] = default_values[p][v];
    }
}

/* What the kernel template accepts for each parameter (kernels/gemm_f16.cu). */
static int value_ok(int p, long v)
{
    switch (p) {
    case SP_BLOCK_M:
    case SP_BLOCK_N:
    case SP_BLOCK_K:
        return v == 32 || v == 64 || v == 128 || v == 256;
    case SP_GROUP_M:
        return v >= 1 && v <= 64;
    case SP_NUM_STAGES:
        return v >= 2 && v <= 8;
    case SP_NUM_WARPS:
        return v == 1 || v == 2 || v == 4 || v == 8;
    }
    return 0;
}

static const char *const accepted[SP_N_PARAMS] = {"32, 64, 128 or 256", "32, 64, 128 or 256",
                                                  "32, 64, 128 or 256", "1..64", "2..8", "1, 2, 4 or 8"};

int space_set_param(struct space *s, const char *spec)
{
    const char *eq = strchr(spec, '=');
    long vals[SPACE_MAX_VALUES];
    int n = 0, p;
    if (eq == NULL)
        return tc_seterr("--param: expected NAME=v1,v2,... (NAME one of BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, "
                         "NUM_STAGES, NUM_WARPS), got '%s'", spec);
    for (p = 0; p < SP_N_PARAMS; p++)
        if (strlen(space_param_names[p]) == (size_t)(eq - spec) &&
            strncasecmp(spec, space_param_names[p], (size_t)(eq - spec)) == 0)
            break;
    if (p == SP_N_PARAMS)
        return tc_seterr("--param: unknown parameter '%.*s' (expected BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, "
                         "NUM_STAGES or NUM_WARPS)", (int)(eq - spec), spec);
    if (tc_parse_long_list("--param", eq + 1, 1, 1024, vals, SPACE_MAX_VALUES, &n) != 0)
        return -1;
    for (int i = 0; i < n; i++) {
        if (!value_ok(p, vals[i]))
            return tc_seterr("--param %s: %ld is not supported by the kernel (expected %s)", space_param_names[p],
                             vals[i], accepted[p]);
        for (int j = 0; j < i; j++)
            if (vals[j] == vals[i])
                return tc_seterr("--param %s: value %ld given twice", space_param_names[p], vals[i]);
    }
    s->n_values[p] = n;
    for (int i = 0; i < n; i++)
        s->values[p][i] = (int32_t)vals[i];
    return 0;
}

long space_size(const struct space *s)
{
    long n = 1;
    for (int p = 0; p < SP_N_PARAMS; p++)
        n *= s->n_values[p];
    return n;
}

void space_config(const struct space *s, long idx, int32_t *params)
{
    for (int p = SP_N_PARAMS - 1; p >= 0; p--) {
        params[p] = s->values[p][idx % s->n_values[p]];
        idx /= s->n_values[p];
    }
}

long space_sample(const struct space *s, long n, uint64_t seed, int32_t *params)
{
    long size = space_size(s), *all, *pick;
    gsl_rng *rng;
    if (n >= size) {
        for (long i = 0; i < size; i++)
            space_config(s, i, params + i * SP_N_PARAMS);
        return size;
    }
    all = malloc((size_t)size * sizeof *all);
    pick = malloc((size_t)n * sizeof *pick);
    rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (all == NULL || pick == NULL || rng == NULL) {
        free(all);
        free(pick);
        if (rng)
            gsl_rng_free(rng);
        return tc_seterr_env("out of memory sampling %ld configurations", n);
    }
    gsl_rng_set(rng, (unsigned long)seed);
    for (long i = 0; i < size; i++)
        all[i] = i;
    gsl_ran_choose(rng, pick, (size_t)n, all, (size_t)size, sizeof *all);
    for (long i = 0; i < n; i++)
        space_config(s, pick[i], params + i * SP_N_PARAMS);
    gsl_rng_free(rng);
    free(all);
    free(pick);
    return n;
}

int64_t space_smem_bytes(const int32_t *p)
{
    return (int64_t)p[SP_NUM_STAGES] * (p[SP_BLOCK_M] + p[SP_BLOCK_N]) * p[SP_BLOCK_K] * 2;
}

int space_path(const int32_t *p, int arch, int family)
{
    if (family == SPACE_FAMILY_NATIVE && arch == 90 && p[SP_NUM_WARPS] % 4 == 0 && p[SP_BLOCK_M] % 64 == 0 &&
        p[SP_BLOCK_M] <= 256 && p[SP_BLOCK_K] <= 256 && p[SP_BLOCK_K] % 16 == 0 && p[SP_BLOCK_N] % 32 == 0 &&
        p[SP_BLOCK_N] <= 256)
        return SPACE_PATH_WGMMA;
    return SPACE_PATH_MMA_SYNC;
}

const char *space_path_name(int path)
{
    return path == SPACE_PATH_WGMMA ? "wgmma" : "mma.sync";
}

const char *space_family_name(int arch, int family)
{
    return family == SPACE_FAMILY_NATIVE && arch == 90 ? "wgmma-tma" : "mma-sync";
}

int64_t space_smem_bytes_on(const int32_t *p, int path)
{
    return space_smem_bytes(p) + (path == SPACE_PATH_WGMMA ? 16 * (int64_t)p[SP_NUM_STAGES] : 0);
}

int space_wgmma_threads(const int32_t *p)
{
    /* kernels/gemm_f16_wgmma.cu: NUM_WARPS consumer warps, then a producer warpgroup (PRODUCER_WG: 8 warps and
     * more shared memory than lets two blocks share a multiprocessor) or a producer warp */
    int wg = p[SP_NUM_WARPS] == 8 && space_smem_bytes_on(p, SPACE_PATH_WGMMA) > 115712;
    return p[SP_NUM_WARPS] * 32 + (wg ? 128 : 32);
}

void space_wgmma_panels(const int32_t *p, int *a_w, int *b_w)
{
    int n_wg = p[SP_NUM_WARPS] / 4;
    int wg_n = p[SP_BLOCK_M] / 64 >= n_wg ? p[SP_BLOCK_N] : p[SP_BLOCK_N] / n_wg;
    *a_w = p[SP_BLOCK_K] < 64 ? p[SP_BLOCK_K] : 64;
    *b_w = wg_n < 64 ? wg_n : 64;
}

char *space_format_config(const int32_t *p, char *buf, int len)
{
    snprintf(buf, (size_t)len, "BM=%d BN=%d BK=%d G=%d S=%d W=%d", p[SP_BLOCK_M], p[SP_BLOCK_N], p[SP_BLOCK_K],
             p[SP_GROUP_M], p[SP_NUM_STAGES], p[SP_NUM_WARPS]);
    return buf;
}

int space_default_shapes(int64_t *dims)
{
    static const int64_t sizes[4] = {256, 512, 1024, 4096};
    int n = 0;
    for (int m = 0; m < 4; m++)
        for (int nn = 0; nn < 4; nn++)
            for (int k = 0; k < 4; k++) {
                dims[n * 3 + 0] = sizes[m];
                dims[n * 3 + 1] = sizes[nn];
                dims[n * 3 + 2] = sizes[k];
                n++;
            }
    return n;
}

int space_check_shape(const char *what, const int64_t *d)
{
    for (int i = 0; i < SPACE_N_DIMS; i++)
        if (d[i] < 8 || d[i] % 8 != 0 || d[i] > (1 << 20))
            return tc_seterr("%s: %s = %lld is not supported (the kernel needs M, N, K to be multiples of 8, "
                             "from 8 to 1048576)", what, space_dim_names[i], (long long)d[i]);
    return 0;
}

int space_read_shapes(const char *path, int64_t **dims, int *n)
{
    FILE *fp = fopen(path, "r");
    char line[512], what[600];
    int cap = 0, count = 0, lineno = 0;
    int64_t *d = NULL;
    if (fp == NULL)
        return tc_seterr("%s: cannot open shapes file: %s", path, strerror(errno));
    while (fgets(line, sizeof line, fp) != NULL) {
        char *s = line, *e;
        lineno++;
        if ((e = strchr(s, '#')) != NULL)
            *e = '\0';
        while (*s == ' ' || *s == '\t')
            s++;
        e = s + strlen(s);
        while (e > s && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
            *--e = '\0';
        if (*s == '\0')
            continue;
        if (count == cap) {
            int64_t *nd;
            cap = cap ? cap * 2 : 64;
            nd = realloc(d, (size_t)cap * SPACE_N_DIMS * sizeof *d);
            if (nd == NULL) {
                free(d);
                fclose(fp);
                return tc_seterr_env("%s: out of memory", path);
            }
            d = nd;
        }
        snprintf(what, sizeof what, "%s:%d", path, lineno);
        if (tc_parse_shape(what, s, SPACE_N_DIMS, 1 << 20, d + count * SPACE_N_DIMS) != 0 ||
            space_check_shape(what, d + count * SPACE_N_DIMS) != 0) {
            free(d);
            fclose(fp);
            return -1;
        }
        count++;
    }
    fclose(fp);
    if (count == 0) {
        free(d);
        return tc_seterr("%s: no shapes in file (expected lines such as 4096x4096x4096)", path);
    }
    *dims = d;
    *n = count;
    return 0;
}

int space_parse_shard(const char *opt, const char *s, int *i, int *n)
{
    const char *slash = strchr(s, '/');
    char a[32];
    int ii, nn;
    if (slash == NULL || (size_t)(slash - s) >= sizeof a)
        return tc_seterr("%s: expected i/n with 1 <= i <= n (e.g. 2/4), got '%s'", opt, s);
    memcpy(a, s, (size_t)(slash - s));
    a[slash - s] = '\0';
    if (tc_parse_int(opt, slash + 1, 1, 100000, &nn) != 0 || tc_parse_int(opt, a, 1, nn, &ii) != 0)
        return tc_seterr("%s: expected i/n with 1 <= i <= n (e.g. 2/4), got '%s'", opt, s);
    *i = ii;
    *n = nn;
    return 0;
}
