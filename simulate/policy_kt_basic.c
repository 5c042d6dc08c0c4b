/* policy_kt_basic.c — Kernel Tuner's `random_sample` and `brute_force` (kernel_tuner/strategies/random_sample.py,
 * brute_force.py, release 1.5.0), each configuration evaluated once.
 * random_sample: ceil(fraction x space size) configurations (option fraction, default 0.1) drawn uniformly without
 * replacement and evaluated in the order drawn; with --max-fevals N the sample is min(N, size) instead, whatever
 * the fraction (Kernel Tuner's override).
 * brute_force: every configuration in Kernel Tuner's sorted order (Searchspace.sorted_list: by the index of each
 * parameter's value, the first parameter most significant; tunecost's value indices are of the values ascending,
 * which is the order tune_params lists them in every published cache we read). */
#include "policy.h"
#include "policy_kt.h"

#include <math.h>
#include <stdlib.h>

struct st_kt_list {
    int *order, n, next;
};

static struct st_kt_list *list_alloc(const struct pol_view *v)
{
    struct st_kt_list *st = calloc(1, sizeof *st);
    if (st == NULL || (st->order = malloc(((size_t)v->n_configs + 1) * sizeof *st->order)) == NULL) {
        free(st);
        return NULL;
    }
    for (int k = 0; k < v->n_configs; k++)
        if (!v->cfg[k].known_invalid)
            st->order[st->n++] = k;
    return st;
}

static void *rs_start(const struct pol_view *v)
{
    struct st_kt_list *st = list_alloc(v);
    if (st == NULL)
        return NULL;
    double fraction = pol_option(v, "fraction", 0.1);
    fraction = fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
    int want = (int)ceil(st->n * fraction);
    double mf = pol_option(v, "max_fevals", 0);
    if (mf > 0) /* Kernel Tuner: max_fevals replaces the fraction */
        want = mf < st->n ? (int)mf : st->n;
    for (int q = 0; q < want; q++) { /* a uniform sample without replacement, in the order drawn */
        int j = q + (int)gsl_rng_uniform_int(v->rng, (unsigned long)(st->n - q)), t = st->order[q];
        st->order[q] = st->order[j];
        st->order[j] = t;
    }
    st->n = want;
    return st;
}

static int list_next(void *p, const struct pol_view *v)
{
    struct st_kt_list *st = p;
    (void)v;
    return st->next < st->n ? st->order[st->next++] : -1;
}

static void list_stop(void *p)
{
    struct st_kt_list *st = p;
    free(st->order);
    free(st);
}

/* The view whose value indices brute_force sorts by (qsort has no context argument; one sort at a time). */
static _Thread_local const struct pol_view *sort_view;

static int cmp_vidx(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    for (int p = 0; p < sort_view->n_params; p++) {
        int dx = pol_vidx(sort_view, x, p), dy = pol_vidx(sort_view, y, p);
        if (dx != dy)
            return dx < dy ? -1 : 1;
    }
    return x < y ? -1 : x > y;
}

static void *bf_start(const struct pol_view *v)
{
    struct st_kt_list *st = list_alloc(v);
    if (st == NULL)
        return NULL;
    sort_view = v;
    qsort(st->order, (size_t)st->n, sizeof *st->order, cmp_vidx);
    sort_view = NULL;
    return st;
}

const struct policy_ops policy_kt_random_sample = {
    "random_sample", "Kernel Tuner's random_sample: ceil(fraction x size) configurations drawn without replacement "
                     "(fraction 0.1; max_fevals replaces it)",
    "Kernel Tuner 1.5, strategies/random_sample.py", rs_start, list_next, pol_rep_once, NULL, list_stop, 0,
};

const struct policy_ops policy_kt_brute_force = {
    "brute_force", "Kernel Tuner's brute_force: every configuration in its sorted order",
    "Kernel Tuner 1.5, strategies/brute_force.py", bf_start, list_next, pol_rep_once, NULL, list_stop, 0,
};
