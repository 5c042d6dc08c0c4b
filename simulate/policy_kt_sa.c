/* policy_kt_sa.c — Kernel Tuner's `simulated_annealing` (kernel_tuner/strategies/simulated_annealing.py, release
 * 1.5.0), constraint-aware as its default.
 * Options (Kernel Tuner's defaults): T 0.1 (starting temperature), T_min 0.0001, alpha 0.9975, maxiter 1 (moves
 * per temperature step), max_fevals (else ceil(log T_min / log alpha) = 3680), capped at the space size.
 * The algorithm: start at a random configuration and evaluate it; then, while T > T_min: maxiter times, move to a
 * neighbour (each parameter in turn with probability 0.2 a random Hamming neighbour, then a random adjacent
 * neighbour; a configuration without one stays), evaluate it and accept it with probability
 * exp(((old - new) / |old|) / T) when it is not better (always when it is; a failure costs DBL_MAX, so a
 * failed start is always left and a failure never entered); then T = T0 alpha^(max_iter / max_fevals x unique
 * evaluations), and after more than 100 steps without a new configuration, jump to a random configuration
 * without evaluating it (its cost stays the old one's). Kernel Tuner's quirks kept: the acceptance of an equal
 * cost is certain (exp(0) = 1 > r), the restart keeps the old cost, and the 10 x max_iter safeguard counts only
 * verbose iterations (so never fires; the engine's step cap ends a run stuck in revisits). On an objective where
 * higher is better tunecost's cost is 1000 / value where Kernel Tuner's is -value: the relative difference is
 * 1 - old/new instead of new/old - 1. */
#include "policy.h"
#include "policy_kt.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

struct st_kt_sa {
    int *seen, *buf;
    int pos, cand, started, moves, n_unique, c_old, stuck;
    double old_cost, T, T0, T_min, alpha, max_iter, max_fevals;
    int niter;
};

static void *sa_start(const struct pol_view *v)
{
    struct st_kt_sa *st = calloc(1, sizeof *st);
    if (st == NULL || (st->seen = calloc((size_t)v->n_configs + 1, sizeof *st->seen)) == NULL ||
        (st->buf = malloc(((size_t)v->n_configs + 1) * sizeof *st->buf)) == NULL) {
        if (st != NULL)
            free(st->seen);
        free(st);
        return NULL;
    }
    st->T0 = st->T = pol_option(v, "T", 0.1);
    st->T_min = pol_option(v, "T_min", 0.0001);
    st->alpha = pol_option(v, "alpha", 0.9975);
    st->niter = (int)pol_option(v, "maxiter", 1);
    st->niter = st->niter < 1 ? 1 : st->niter;
    st->max_iter = ceil(log(st->T_min) / log(st->alpha));
    int size = 0;
    for (int k = 0; k < v->n_configs; k++)
        size += !v->cfg[k].known_invalid;
    st->max_fevals = pol_option(v, "max_fevals", st->max_iter);
    st->max_fevals = st->max_fevals < size ? st->max_fevals : size;
    st->pos = st->cand = -1;
    return st;
}

/* Kernel Tuner's neighbor(): each parameter with probability 0.2 a Hamming step, then an adjacent one. */
static int sa_neighbour(struct st_kt_sa *st, const struct pol_view *v, int pos)
{
    for (int p = 0; p < v->n_params; p++)
        if (gsl_rng_uniform(v->rng) < 0.2) {
            int q = kt_random_neighbour(v, pos, POL_NBR_HAMMING, st->buf);
            pos = q >= 0 ? q : pos;
        }
    int q = kt_random_neighbour(v, pos, POL_NBR_ADJACENT, st->buf);
    return q >= 0 ? q : pos;
}

/* The end of one temperature step: the new T, and the restart rule. */
static void sa_cool(struct st_kt_sa *st, const struct pol_view *v)
{
    st->T = st->T0 * pow(st->alpha, st->max_iter / st->max_fevals * st->n_unique);
    st->stuck = st->n_unique == st->c_old ? st->stuck + 1 : 0;
    st->c_old = st->n_unique;
    if (st->stuck > 100) {
        int q = kt_random_config(v);
        st->pos = q >= 0 ? q : st->pos; /* not evaluated: old_cost stays (Kernel Tuner's quirk) */
        st->stuck = 0;
    }
}

static int sa_next(void *p, const struct pol_view *v)
{
    struct st_kt_sa *st = p;
    if (!st->started) {
        st->started = 1;
        st->cand = kt_random_config(v);
        return st->cand;
    }
    if (st->pos < 0 || st->max_fevals <= 0 || !(st->T > st->T_min))
        return -1;
    st->cand = sa_neighbour(st, v, st->pos);
    return st->cand;
}

static void sa_observe(void *p, const struct pol_view *v, int c)
{
    struct st_kt_sa *st = p;
    if (!st->seen[c]) {
        st->seen[c] = 1;
        st->n_unique++;
    }
    double cost = kt_cost(v, c);
    if (st->pos < 0) { /* the start */
        st->pos = c;
        st->old_cost = cost;
        return;
    }
    double ap;
    if (cost < st->old_cost)
        ap = 1;
    else if (cost == DBL_MAX)
        ap = st->old_cost == DBL_MAX ? 1 : 0; /* DBL_MAX - DBL_MAX is 0: exp(0), as Kernel Tuner computes it */
    else
        ap = exp(((st->old_cost - cost) / (st->old_cost != 0 ? fabs(st->old_cost) : 1e-20)) / st->T);
    if (ap > gsl_rng_uniform(v->rng)) {
        st->pos = c;
        st->old_cost = cost;
    }
    if (++st->moves % st->niter == 0)
        sa_cool(st, v);
}

static void sa_stop(void *p)
{
    struct st_kt_sa *st = p;
    free(st->seen);
    free(st->buf);
    free(st);
}

const struct policy_ops policy_kt_simulated_annealing = {
    "simulated_annealing", "Kernel Tuner's simulated_annealing: T 0.1 to 0.0001, alpha 0.9975, schedule over "
                           "max_fevals unique evaluations, Hamming + adjacent moves",
    "Kernel Tuner 1.5, strategies/simulated_annealing.py", sa_start, sa_next, pol_rep_once, sa_observe, sa_stop, 0,
};
