/* policy_search.c — the search-space helpers of the grid-search policies (policy.h): value indices, Kernel Tuner's
 * neighbourhoods (Hamming, adjacent, one step) and closest configuration on the space as it is, and the cost of a
 * configuration as Kernel Tuner's cost function sees it (known only once it was benchmarked). */
#include "policy.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 64

int pol_vidx(const struct pol_view *v, int c, int p)
{
    return v->vidx != NULL ? v->vidx[(size_t)c * v->n_params + p] : pol_value_index(v, p, v->cfg[c].params[p]);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Configuration k's value indices: the view's table, or computed into buf. */
static const int *row_of(const struct pol_view *v, int k, int *buf)
{
    if (v->vidx != NULL)
        return &v->vidx[(size_t)k * v->n_params];
    for (int p = 0; p < v->n_params; p++)
        buf[p] = pol_value_index(v, p, v->cfg[k].params[p]);
    return buf;
}

/* Neighbours by a scan of every configuration (when the grid is not tabulated, or too many offsets). */
static int scan_neighbours(const struct pol_view *v, const int *vidx, enum pol_nbr method, int *out)
{
    int n = 0, buf[MAX_PARAMS];
    for (int k = 0; k < v->n_configs; k++) {
        int n_diff = 0, max_diff = 0;
        const int *row = row_of(v, k, buf);
        for (int p = 0; p < v->n_params; p++) {
            int dv = abs(row[p] - vidx[p]);
            n_diff += dv != 0;
            max_diff = dv > max_diff ? dv : max_diff;
        }
        if (method == POL_NBR_HAMMING ? n_diff == 1
                                      : n_diff >= 1 && max_diff == 1 && (method == POL_NBR_ADJACENT || n_diff == 1))
            out[n++] = k;
    }
    return n;
}

/* Every point within one step in each parameter, from the grid table. */
static int adjacent_from_grid(const struct pol_view *v, const int *vidx, int *out)
{
    int off[MAX_PARAMS], idx[MAX_PARAMS], n = 0;
    for (int p = 0; p < v->n_params; p++)
        off[p] = -1;
    for (;;) {
        int ok = 1, any = 0;
        for (int p = 0; p < v->n_params; p++) {
            idx[p] = vidx[p] + off[p];
            ok &= idx[p] >= 0 && idx[p] < v->n_values[p];
            any |= off[p] != 0;
        }
        if (ok && any) {
            int k = pol_config_at(v, idx);
            if (k >= 0)
                out[n++] = k;
        }
        int p = 0; /* the next offset vector, odometer order */
        while (p < v->n_params && off[p] == 1)
            off[p++] = -1;
        if (p == v->n_params)
            break;
        off[p]++;
    }
    return n;
}

int pol_neighbours(const struct pol_view *v, const int *vidx, enum pol_nbr method, int *out)
{
    int n = 0, idx[MAX_PARAMS];
    double n_offsets = 1;
    for (int p = 0; p < v->n_params; p++)
        n_offsets *= v->n_values[p] > 1 ? 3 : 1;
    if (v->n_params > MAX_PARAMS)
        return 0; /* not a grid search's space (policy_search's limit) */
    if (v->grid_cfg == NULL ||
        (method == POL_NBR_ADJACENT && n_offsets > (double)v->n_configs))
        return scan_neighbours(v, vidx, method, out);
    if (method == POL_NBR_ADJACENT) {
        n = adjacent_from_grid(v, vidx, out);
    } else {
        memcpy(idx, vidx, (size_t)v->n_params * sizeof *idx);
        for (int p = 0; p < v->n_params; p++) {
            int lo = method == POL_NBR_STEP ? vidx[p] - 1 : 0;
            int hi = method == POL_NBR_STEP ? vidx[p] + 1 : v->n_values[p] - 1;
            for (int i = lo < 0 ? 0 : lo; i <= hi && i < v->n_values[p]; i++) {
                if (i == vidx[p])
                    continue;
                idx[p] = i;
                int k = pol_config_at(v, idx);
                if (k >= 0)
                    out[n++] = k;
            }
            idx[p] = vidx[p];
        }
    }
    qsort(out, (size_t)n, sizeof *out, cmp_int);
    return n;
}

int pol_closest(const struct pol_view *v, const int *vidx)
{
    long best = -1;
    int n_ties = 0, pick = -1, buf[MAX_PARAMS];
    if (v->n_params > MAX_PARAMS)
        return v->n_configs > 0 ? 0 : -1;
    for (int pass = 0; pass < 2; pass++) { /* the least distance and its ties; then the tie drawn */
        long r = pass == 1 && n_ties > 1 ? (long)gsl_rng_uniform_int(v->rng, (unsigned long)n_ties) : 0;
        if (pass == 1 && n_ties <= 1)
            break;
        for (int k = 0; k < v->n_configs; k++) {
            const int *row = row_of(v, k, buf);
            long dist = 0;
            for (int p = 0; p < v->n_params && (best < 0 || dist <= best); p++)
                dist += labs((long)row[p] - vidx[p]);
            if (pass == 1) {
                if (dist == best && r-- == 0)
                    return k;
            } else if (best < 0 || dist < best) {
                best = dist;
                n_ties = 1;
                pick = k;
            } else if (dist == best) {
                n_ties++;
            }
        }
    }
    return pick;
}

int pol_cost(const struct pol_view *v, int c, double *cost)
{
    if (v->failed[c]) {
        *cost = DBL_MAX;
        return 1;
    }
    if (v->n_exec[c] > 0) { /* benchmarked; a configuration an early stop dropped may have no estimate */
        *cost = isnan(v->est_ms[c]) ? DBL_MAX : v->est_ms[c];
        return 1;
    }
    return 0;
}

double pol_rep_once(void *st, const struct pol_view *v, int c)
{
    (void)st;
    return v->n_exec[c] > 0 || v->failed[c] ? 0 : v->rep_ms;
}
