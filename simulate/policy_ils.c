/* policy_ils.c — Kernel Tuner's "greedy_ils" (greedy iterative local search, strategies/greedy_ils.py): from a
 * random configuration, a greedy climb over the Hamming neighbourhood (neighbours in Kernel Tuner's order; the climb
 * moves to the first neighbour that beats the base and ends there, restart = True, as Kernel Tuner 1.5's
 * hillclimbers.base_hillclimb does), then a random walk: PERM = max(1, int(0.3 x parameters)) moves to a uniformly
 * random Hamming neighbour, from which the next climb starts; after NO_IMPROVEMENT = 50 climbs in a row that did not
 * improve on the best cost so far, the next climb starts from a uniformly random configuration. (Kernel Tuner 1.5
 * compares each climb with the cost of the first configuration only, which it never updates; here the comparison
 * is with the best so far, as its option's description says.) Each configuration is benchmarked once, for
 * --rep-ms; done when every configuration was. Hyperparameters (Kernel Tuner's defaults): neighbor = Hamming,
 * restart = True, no_improvement = 50, random_walk = 0.3. Reference: Kernel Tuner 1.5 greedy_ils (Schoonhoven et
 * al., IEEE TEVC 2022). */
#include "policy_climb.h"

#include <math.h>
#include <stdlib.h>

#define ILS_NO_IMPROVEMENT 50
#define ILS_RANDOM_WALK 0.3

struct st_ils {
    struct pol_climb cl;
    struct pol_asked a;
    int *nbr, *vbuf;
    int perm, last_improvement, fruitless;
    double best_cost;
};

static void ils_stop(void *p)
{
    struct st_ils *st = p;
    pol_climb_free(&st->cl);
    pol_asked_free(&st->a);
    free(st->nbr);
    free(st->vbuf);
    free(st);
}

static void *ils_start(const struct pol_view *v)
{
    struct st_ils *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    st->nbr = malloc(((size_t)v->n_configs + 1) * sizeof *st->nbr);
    st->vbuf = malloc(((size_t)v->n_params + 1) * sizeof *st->vbuf);
    if (st->nbr == NULL || st->vbuf == NULL || pol_climb_init(&st->cl, v, POL_NBR_HAMMING, 1) != 0 ||
        pol_asked_init(&st->a, v) != 0) {
        ils_stop(st);
        return NULL;
    }
    st->perm = (int)(ILS_RANDOM_WALK * v->n_params);
    st->perm = st->perm < 1 ? 1 : st->perm;
    st->best_cost = INFINITY;
    pol_climb_begin(&st->cl, (int)gsl_rng_uniform_int(v->rng, (unsigned long)v->n_configs));
    return st;
}

/* The random walk after a climb that ended at c: the next climb's start, or -1 when everything was asked. */
static int walk(struct st_ils *st, const struct pol_view *v, int c)
{
    if (st->last_improvement >= ILS_NO_IMPROVEMENT || st->fruitless >= 1000)
        return pol_asked_random(&st->a, v, st->fruitless);
    for (int i = 0; i < st->perm; i++) {
        for (int p = 0; p < v->n_params; p++)
            st->vbuf[p] = pol_vidx(v, c, p);
        int n = pol_neighbours(v, st->vbuf, POL_NBR_HAMMING, st->nbr);
        if (n > 0)
            c = st->nbr[gsl_rng_uniform_int(v->rng, (unsigned long)n)];
    }
    return st->a.n_asked < v->n_configs ? c : -1;
}

static int ils_next(void *p, const struct pol_view *v)
{
    struct st_ils *st = p;
    for (;;) {
        int k = pol_climb_step(&st->cl, v);
        if (k >= 0) {
            st->fruitless = 0;
            return pol_asked_mark(&st->a, k);
        }
        if (st->cl.cur_cost < st->best_cost) {
            st->best_cost = st->cl.cur_cost;
            st->last_improvement = 0;
        } else {
            st->last_improvement++;
        }
        st->fruitless++;
        if ((k = walk(st, v, st->cl.cur)) < 0)
            return -1;
        pol_climb_begin(&st->cl, k);
    }
}

const struct policy_ops policy_greedy_ils = {
    "ils-restart", "tunecost's greedy iterated local search after Kernel Tuner's greedy_ils: greedy climbs, kicks",
    "Kernel Tuner 1.5 greedy_ils (Schoonhoven et al., IEEE TEVC 2022)", ils_start, ils_next, pol_rep_once, NULL,
    ils_stop, 0,
};
