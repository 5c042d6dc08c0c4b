/* policy_halving.c — successive halving on repetition time (multi-fidelity): all configurations, in a random
 * order, get rep/ETA^(R-1) ms; the best 1/ETA of them (by estimate) get measured further up to rep/ETA^(R-2),
 * and so on until the survivors have had the full --rep-ms. Hyperparameters: ETA = 3, R = 3 rungs. Reference:
 * Jamieson & Talwalkar, "Non-stochastic best arm identification and hyperparameter optimization", AISTATS 2016. */
#include "policy.h"

#include <math.h>
#include <stdlib.h>

#define SH_ETA 3
#define SH_RUNGS 3

struct st_halving {
    int *cand, n_cand, pos, rung;
    double *target_ms; /* per configuration: timed ms it should have had by the end of this rung */
};

static void *halving_start(const struct pol_view *v)
{
    struct st_halving *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    st->cand = malloc((size_t)v->n_configs * sizeof *st->cand);
    st->target_ms = calloc((size_t)v->n_configs, sizeof *st->target_ms);
    if (st->cand == NULL || st->target_ms == NULL) {
        free(st->cand);
        free(st->target_ms);
        free(st);
        return NULL;
    }
    for (int k = 0; k < v->n_configs; k++)
        st->cand[k] = k;
    for (int k = v->n_configs - 1; k > 0; k--) {
        int j = (int)gsl_rng_uniform_int(v->rng, (unsigned long)k + 1), t = st->cand[k];
        st->cand[k] = st->cand[j];
        st->cand[j] = t;
    }
    st->n_cand = v->n_configs;
    return st;
}

/* qsort_r order of configurations: measured ones by lower estimate (of the pol_view ctx), then failed or
 * unmeasured ones by index. */
static int by_estimate(const void *a, const void *b, void *ctx)
{
    const struct pol_view *v = ctx;
    double x = v->est_ms[*(const int *)a], y = v->est_ms[*(const int *)b];
    int fx = v->failed[*(const int *)a] || isnan(x), fy = v->failed[*(const int *)b] || isnan(y);
    if (fx != fy)
        return fx - fy;
    if (fx)
        return *(const int *)a - *(const int *)b;
    return (x > y) - (x < y);
}

static int halving_next(void *p, const struct pol_view *v)
{
    struct st_halving *st = p;
    while (st->pos == st->n_cand) { /* rung done: keep the best 1/ETA, go up one rung */
        if (st->rung == SH_RUNGS - 1)
            return -1;
        qsort_r(st->cand, (size_t)st->n_cand, sizeof *st->cand, by_estimate, (void *)v);
        int keep = st->n_cand / SH_ETA;
        while (keep > 0 && (v->failed[st->cand[keep - 1]] || isnan(v->est_ms[st->cand[keep - 1]])))
            keep--;
        if (keep == 0)
            return -1;
        st->n_cand = keep;
        st->pos = 0;
        st->rung++;
    }
    return st->cand[st->pos++];
}

static double halving_rep(void *p, const struct pol_view *v, int c)
{
    struct st_halving *st = p;
    double target = v->rep_ms / pow(SH_ETA, SH_RUNGS - 1 - st->rung);
    double had = v->n_exec[c] > 0 ? v->est_ms[c] * v->n_exec[c] : 0;
    return target > had ? target - had : 0;
}

static void halving_stop(void *p)
{
    struct st_halving *st = p;
    free(st->cand);
    free(st->target_ms);
    free(st);
}

const struct policy_ops policy_halving = {
    "halving", "successive halving on repetition time: all at rep/9, the best third at rep/3, the best ninth at rep",
    "Jamieson & Talwalkar, AISTATS 2016", halving_start, halving_next, halving_rep, NULL, halving_stop, 0,
};
