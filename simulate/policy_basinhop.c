/* policy_basinhop.c — Kernel Tuner's "basinhopping" (strategies/basinhopping.py, which runs SciPy's
 * optimize.basinhopping on the parameter grid scaled so that each value is a cell of width eps), on the grid
 * itself. From a random configuration, a local minimisation, then NITER = 100 hops: each parameter's value index
 * moves by round(u), u uniform in [-s, s] (SciPy's random displacement of a cell's centre by up to s cells, snapped
 * to a cell; s starts at 1 cell, SciPy's stepsize = eps), clipped to the grid, and a point that is no configuration
 * is repaired to the closest one (least sum of index differences); a local minimisation from there, and the new
 * minimum is accepted when its cost is lower, or else with probability exp(-(f_new - f_old) / T) (Metropolis, T in
 * the cost's unit, ms). Every 50 hops s is divided by 0.9 when more than half were accepted, else multiplied by
 * 0.9 (SciPy's adaptive step size). The local minimisation is steepest descent over the one-step neighbourhood (one
 * parameter one value up or down), the discrete counterpart of the L-BFGS-B minimiser Kernel Tuner passes, whose
 * finite differences probe one cell along each axis. After the last hop the policy is done, as Kernel Tuner's
 * strategy returns. Each configuration is benchmarked once, for --rep-ms. Hyperparameters (Kernel Tuner's and
 * SciPy's defaults): T = 1.0, niter = 100, stepsize 1 cell, interval 50, factor 0.9, target acceptance 0.5.
 * Reference: Wales & Doye, J. Phys. Chem. A 101 (1997); Kernel Tuner 1.5 basinhopping. */
#include "policy_climb.h"

#include <math.h>
#include <stdlib.h>

#define BH_NITER 100
#define BH_T_MS 1.0
#define BH_INTERVAL 50
#define BH_FACTOR 0.9

struct st_bh {
    struct pol_climb cl;
    struct pol_asked a;
    int *vbuf;
    int cur, hops, n_accept, fruitless; /* cur: the accepted minimum (-1 before the first) */
    double cur_cost, step;
};

static void bh_stop(void *p)
{
    struct st_bh *st = p;
    pol_climb_free(&st->cl);
    pol_asked_free(&st->a);
    free(st->vbuf);
    free(st);
}

static void *bh_start(const struct pol_view *v)
{
    struct st_bh *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    st->vbuf = malloc(((size_t)v->n_params + 1) * sizeof *st->vbuf);
    if (st->vbuf == NULL || pol_climb_init(&st->cl, v, POL_NBR_STEP, 0) != 0 || pol_asked_init(&st->a, v) != 0) {
        bh_stop(st);
        return NULL;
    }
    st->cur = -1;
    st->step = 1;
    pol_climb_begin(&st->cl, (int)gsl_rng_uniform_int(v->rng, (unsigned long)v->n_configs));
    return st;
}

/* A hop from the accepted minimum: the start of the next minimisation. */
static int hop(struct st_bh *st, const struct pol_view *v)
{
    if (st->fruitless >= 1000) /* nothing new for a long while: a configuration not measured yet */
        return pol_asked_random(&st->a, v, st->fruitless);
    for (int p = 0; p < v->n_params; p++) {
        double u = (2 * gsl_rng_uniform(v->rng) - 1) * st->step;
        int i = pol_vidx(v, st->cur, p) + (int)lround(u);
        st->vbuf[p] = i < 0 ? 0 : i >= v->n_values[p] ? v->n_values[p] - 1 : i;
    }
    int k = pol_config_at(v, st->vbuf);
    return k >= 0 ? k : pol_closest(v, st->vbuf);
}

static int bh_next(void *p, const struct pol_view *v)
{
    struct st_bh *st = p;
    for (;;) {
        int k = pol_climb_step(&st->cl, v);
        if (k >= 0) {
            st->fruitless = 0;
            return pol_asked_mark(&st->a, k);
        }
        st->fruitless++;
        double f = st->cl.cur_cost;
        if (st->cur < 0) {
            st->cur = st->cl.cur;
            st->cur_cost = f;
        } else {
            double d = f - st->cur_cost;
            if (f < st->cur_cost || gsl_rng_uniform(v->rng) < exp(-d / BH_T_MS)) {
                st->cur = st->cl.cur;
                st->cur_cost = f;
                st->n_accept++;
            }
            if (++st->hops % BH_INTERVAL == 0) {
                st->step = st->n_accept * 2 > BH_INTERVAL ? st->step / BH_FACTOR : st->step * BH_FACTOR;
                st->n_accept = 0;
            }
        }
        if (st->hops >= BH_NITER || st->a.n_asked >= v->n_configs || (k = hop(st, v)) < 0)
            return -1;
        pol_climb_begin(&st->cl, k);
    }
}

const struct policy_ops policy_basinhopping = {
    "basinhopping-grid", "basin hopping with one-step grid descents (not SciPy's L-BFGS-B), T = 1 ms, 100 hops",
    "Wales & Doye 1997; Kernel Tuner 1.5 basinhopping", bh_start, bh_next, pol_rep_once, NULL, bh_stop, 0,
};
