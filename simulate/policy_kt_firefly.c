/* policy_kt_firefly.c — Kernel Tuner's `firefly_algorithm` (kernel_tuner/strategies/firefly_algorithm.py with
 * pso.Particle and common.CostFunc, release 1.5.0), its defaults and quirks.
 * Options (Kernel Tuner's defaults): popsize 20, maxiter 100, B0 1.0, gamma 1.0, alpha 0.2.
 * The space is scaled as Kernel Tuner scales it: eps = min over parameters of 1 / values, parameter p on [0, eps x
 * values(p)], value index i at (i + 0.5) eps; a point snaps to the nearest such value per parameter. The fireflies
 * start at distinct random configurations (the first at another random one, Kernel Tuner's x0), each is evaluated,
 * and then maxiter times: for each firefly i and each j, when i is less bright than j (brightness = -cost), i moves
 * towards j by beta = B0 exp(-gamma |x_i - x_j|^2) of the way, plus alpha x U(-0.5, 0.5) per axis, clipped to the
 * bounds, and is evaluated; after each sweep the swarm is sorted by cost (stably). Quirks kept: CostFunc repairs a
 * point only when the user's strategy_options name constraint_aware (the strategy's own default True is not handed
 * to it), so a point that snaps outside the space is an invalid configuration: cost DBL_MAX, nothing run, nothing
 * charged; the brightness compared is the one after the firefly's last evaluation, so a firefly moved earlier in
 * the sweep compares with its new brightness. */
#include "policy.h"
#include "policy_kt.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

struct st_ff {
    int n, np, maxiter, iter, i, j, phase, pending, pending_ff;
    double B0, gamma, alpha, eps;
    double *x, *score;       /* n x np positions, n costs */
    int *order, *vbuf, *idx; /* the swarm's order (sorted by cost), scratch */
};

static void ff_stop(void *p)
{
    struct st_ff *st = p;
    if (st == NULL)
        return;
    free(st->x);
    free(st->score);
    free(st->order);
    free(st->vbuf);
    free(st->idx);
    free(st);
}

static void ff_place(struct st_ff *st, const struct pol_view *v, int f, int c)
{
    for (int p = 0; p < st->np; p++)
        st->x[(size_t)f * st->np + p] = (pol_vidx(v, c, p) + 0.5) * st->eps;
}

static void *ff_start(const struct pol_view *v)
{
    struct st_ff *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    st->np = v->n_params;
    st->n = (int)pol_option(v, "popsize", 20);
    st->n = st->n < 1 ? 1 : st->n > v->n_configs ? v->n_configs : st->n;
    st->maxiter = (int)pol_option(v, "maxiter", 100);
    st->B0 = pol_option(v, "B0", 1.0);
    st->gamma = pol_option(v, "gamma", 1.0);
    st->alpha = pol_option(v, "alpha", 0.2);
    size_t nx = (size_t)(st->n > 0 ? st->n : 1) * (size_t)(st->np + 1);
    st->x = malloc(nx * sizeof *st->x);
    st->score = malloc(((size_t)st->n + 1) * sizeof *st->score);
    st->order = malloc(((size_t)st->n + 1) * sizeof *st->order);
    st->vbuf = malloc(((size_t)st->np + 1) * sizeof *st->vbuf);
    st->idx = malloc(((size_t)v->n_configs + 1) * sizeof *st->idx);
    if (st->x == NULL || st->score == NULL || st->order == NULL || st->vbuf == NULL || st->idx == NULL) {
        ff_stop(st);
        return NULL;
    }
    st->eps = 1;
    for (int p = 0; p < st->np; p++)
        st->eps = fmin(st->eps, 1.0 / (v->n_values[p] > 0 ? v->n_values[p] : 1));
    int m = 0;
    for (int k = 0; k < v->n_configs; k++)
        if (!v->cfg[k].known_invalid)
            st->idx[m++] = k;
    for (int f = 0; f < st->n && f < m; f++) { /* a sample without replacement */
        int q = f + (int)gsl_rng_uniform_int(v->rng, (unsigned long)(m - f)), t = st->idx[f];
        st->idx[f] = st->idx[q];
        st->idx[q] = t;
        ff_place(st, v, f, st->idx[f]);
    }
    st->n = st->n < m ? st->n : m;
    if (st->n > 0)
        ff_place(st, v, 0, kt_random_config(v)); /* x0 */
    for (int f = 0; f < st->n; f++) {
        st->score[f] = DBL_MAX;
        st->order[f] = f;
    }
    st->pending = -1;
    return st;
}

/* The configuration firefly f's position snaps to, or -1 (outside the space: not repaired, Kernel Tuner's default). */
static int ff_snap(struct st_ff *st, const struct pol_view *v, int f)
{
    for (int p = 0; p < st->np; p++) {
        long i = lround(st->x[(size_t)f * st->np + p] / st->eps - 0.5);
        st->vbuf[p] = i < 0 ? 0 : i >= v->n_values[p] ? v->n_values[p] - 1 : (int)i;
    }
    return pol_config_at(v, st->vbuf);
}

/* Evaluate firefly f: its cost now when known (or invalid), else 1 with the configuration in *ask. */
static int ff_eval(struct st_ff *st, const struct pol_view *v, int f, int *ask)
{
    double cost;
    int c = ff_snap(st, v, f);
    if (c < 0) {
        st->score[f] = DBL_MAX;
        return 0;
    }
    if (pol_cost(v, c, &cost)) {
        st->score[f] = kt_cost(v, c);
        return 0;
    }
    st->pending = c;
    st->pending_ff = f;
    *ask = c;
    return 1;
}

static void ff_move(struct st_ff *st, const struct pol_view *v, int fi, int fj)
{
    double *xi = &st->x[(size_t)fi * st->np], *xj = &st->x[(size_t)fj * st->np], d2 = 0;
    for (int p = 0; p < st->np; p++)
        d2 += (xi[p] - xj[p]) * (xi[p] - xj[p]);
    double beta = st->B0 * exp(-st->gamma * d2);
    for (int p = 0; p < st->np; p++)
        xi[p] += beta * (xj[p] - xi[p]);
    for (int p = 0; p < st->np; p++) {
        double hi = st->eps * v->n_values[p];
        xi[p] += st->alpha * (gsl_rng_uniform(v->rng) - 0.5);
        xi[p] = xi[p] > hi ? hi : xi[p] < 0 ? 0 : xi[p];
    }
}

/* The stable sort of the swarm by cost (insertion sort: a swarm is small). */
static void ff_sort(struct st_ff *st)
{
    for (int a = 1; a < st->n; a++) {
        int f = st->order[a], b = a;
        while (b > 0 && st->score[st->order[b - 1]] > st->score[f]) {
            st->order[b] = st->order[b - 1];
            b--;
        }
        st->order[b] = f;
    }
}

static int ff_next(void *p, const struct pol_view *v)
{
    struct st_ff *st = p;
    int ask;
    if (st->pending >= 0) { /* the engine evaluated it */
        st->score[st->pending_ff] = kt_cost(v, st->pending);
        st->pending = -1;
    }
    while (st->phase == 0) { /* the first evaluation of every firefly */
        if (st->i >= st->n) {
            st->phase = 1;
            st->i = st->j = 0;
            break;
        }
        if (ff_eval(st, v, st->i++, &ask))
            return ask;
    }
    while (st->iter < st->maxiter && st->n > 0) {
        if (st->j >= st->n) {
            st->j = 0;
            st->i++;
        }
        if (st->i >= st->n) {
            ff_sort(st);
            st->i = st->j = 0;
            st->iter++;
            continue;
        }
        int fi = st->order[st->i], fj = st->order[st->j++];
        if (-st->score[fi] < -st->score[fj]) {
            ff_move(st, v, fi, fj);
            if (ff_eval(st, v, fi, &ask))
                return ask;
        }
    }
    return -1;
}

const struct policy_ops policy_kt_firefly_algorithm = {
    "firefly_algorithm", "Kernel Tuner's firefly_algorithm: 20 fireflies, 100 iterations, B0 1, gamma 1, alpha 0.2, "
                         "no repair of points outside the space",
    "Kernel Tuner 1.5, strategies/firefly_algorithm.py", ff_start, ff_next, pol_rep_once, NULL, ff_stop, 0,
};
