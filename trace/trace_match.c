/* trace_match.c — the same configurations and inputs in two traces of one kernel (trace.h: trace_match_configs,
 * trace_match_inputs): configurations matched by their parameter values, inputs by their dimensions, both by
 * name, so that two traces with the same parameters in another order, other subsets of the space or of the
 * inputs (a 100-configuration sample on one GPU, the full grid on another) still pair up. */
#include "trace_int.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* perm[q] = the index in `a` of b's name q; -1 (message set) when the two lists are not the same set of names. */
static int same_names(const struct trace *a, const struct trace *b, int n_a, int n_b,
                      const char *(*name)(const struct trace *, int), const char *what, int *perm)
{
    if (n_a != n_b)
        return tc_seterr("%s has %d %s, %s has %d: not the same search space", b->path, n_b, what, a->path, n_a);
    for (int q = 0; q < n_b; q++) {
        perm[q] = -1;
        for (int p = 0; p < n_a && perm[q] < 0; p++)
            if (strcmp(name(a, p), name(b, q)) == 0)
                perm[q] = p;
        if (perm[q] < 0)
            return tc_seterr("%s: %s '%s' is not one of %s's: not the same search space", b->path, what,
                             name(b, q), a->path);
    }
    return 0;
}

/* *out: the code in b of parameter q (a's parameter p) for a's configuration k: the same integer, or the value
 * table entry with the same JSON text. Returns 0, or -1 when b has no such value (a value b's table lacks, a text
 * that is no integer). */
static int value_in_b(const struct trace *a, int k, int p, const struct trace *b, int q, int32_t *out)
{
    const char *const *va, *const *vb;
    int na = trace_param_values(a, p, &va), nb = trace_param_values(b, q, &vb);
    int32_t x = trace_params(a, k)[p];
    char text[64];
    if (na == 0 && nb == 0) {
        *out = x;
        return 0;
    }
    const char *s = na > 0 ? va[x] : (snprintf(text, sizeof text, "%d", (int)x), text);
    if (nb > 0) {
        for (int i = 0; i < nb; i++)
            if (strcmp(vb[i], s) == 0) {
                *out = i;
                return 0;
            }
        return -1;
    }
    char *end; /* a's table entry as b's integer: the whole text, an int32 */
    errno = 0;
    long long y = strtoll(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || y < INT32_MIN || y > INT32_MAX)
        return -1;
    *out = (int32_t)y;
    return 0;
}

struct key_order {
    const int32_t *keys; /* n x np */
    int np;
};

/* qsort_r order of b's configurations: lexicographic codes, then index (so the first of equal ones is first). */
static int cmp_key(const void *x, const void *y, void *ctx)
{
    const struct key_order *o = ctx;
    int i = *(const int *)x, j = *(const int *)y;
    const int32_t *ki = o->keys + (size_t)i * o->np, *kj = o->keys + (size_t)j * o->np;
    for (int p = 0; p < o->np; p++)
        if (ki[p] != kj[p])
            return ki[p] < kj[p] ? -1 : 1;
    return (i > j) - (i < j);
}

int trace_match_configs(const struct trace *a, const struct trace *b, int *map)
{
    int np = trace_n_params(b), nb = trace_n_configs(b), na = trace_n_configs(a), n_match = 0, rc = -1;
    int *perm = malloc(((size_t)np + 1) * sizeof *perm), *order = malloc(((size_t)nb + 1) * sizeof *order);
    int32_t *key = malloc(((size_t)np + 1) * sizeof *key);
    struct key_order o = {NULL, np};
    if (perm == NULL || order == NULL || key == NULL) {
        tc_seterr_env("%s: out of memory", b->path);
        goto out;
    }
    if (same_names(a, b, trace_n_params(a), np, trace_param_name, "parameter", perm) != 0)
        goto out;
    o.keys = b->params;
    for (int m = 0; m < nb; m++)
        order[m] = m;
    qsort_r(order, (size_t)nb, sizeof *order, cmp_key, &o);
    for (int k = 0; k < na; k++) {
        int ok = 1, lo = 0, hi = nb;
        for (int q = 0; q < np && ok; q++)
            ok = value_in_b(a, k, perm[q], b, q, &key[q]) == 0;
        map[k] = -1;
        if (!ok)
            continue;
        while (lo < hi) { /* the first of b's configurations (in that order) not below the key */
            int mid = (lo + hi) / 2, c = 0;
            const int32_t *km = b->params + (size_t)order[mid] * np;
            for (int q = 0; q < np && c == 0; q++)
                c = km[q] != key[q] ? (km[q] < key[q] ? -1 : 1) : 0;
            if (c < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < nb && memcmp(b->params + (size_t)order[lo] * np, key, (size_t)np * sizeof *key) == 0) {
            map[k] = order[lo];
            n_match++;
        }
    }
    rc = n_match;
out:
    free(perm);
    free(order);
    free(key);
    return rc;
}

int trace_match_inputs(const struct trace *a, const struct trace *b, int *map)
{
    int nd = trace_n_dims(b), n_match = 0;
    int *perm = malloc(((size_t)nd + 1) * sizeof *perm);
    int64_t *dims = malloc(((size_t)nd + 1) * sizeof *dims);
    if (perm == NULL || dims == NULL) {
        free(perm);
        free(dims);
        return tc_seterr_env("%s: out of memory", b->path);
    }
    if (same_names(a, b, trace_n_dims(a), nd, trace_dim_name, "dimension", perm) != 0) {
        free(perm);
        free(dims);
        return -1;
    }
    for (int i = 0; i < trace_n_inputs(a); i++) {
        for (int q = 0; q < nd; q++)
            dims[q] = trace_dims(a, i)[perm[q]];
        map[i] = trace_find_input(b, dims);
        n_match += map[i] >= 0;
    }
    free(perm);
    free(dims);
    return n_match;
}
