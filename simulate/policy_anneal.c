/* policy_anneal.c — simulated annealing over the parameter grid. Neighbours of a configuration differ from it in
 * exactly one parameter, by one step in that parameter's sorted set of values (pol_neighbours, POL_NBR_STEP).
 * From a random start, each step measures a random unmeasured neighbour of the current configuration and moves
 * there if it is faster, or, if slower by a relative amount d, with probability exp(-d / T); T starts at T0 and is
 * multiplied by ALPHA each step. With no unmeasured neighbour left it jumps to a random unmeasured configuration.
 * Hyperparameters: T0 = 0.1, ALPHA = 0.95. Reference: Kirkpatrick, Gelatt & Vecchi, "Optimization by simulated
 * annealing", Science 220 (1983); Kernel Tuner's "simulated_annealing" strategy works on the same neighbourhood. */
#include "policy.h"

#include <math.h>
#include <stdlib.h>

#define SA_T0 0.1
#define SA_ALPHA 0.95

struct st_anneal {
    int cur, n_left;
    double temp;
    int *tried;  /* per configuration: already proposed */
    int *nbr;    /* scratch: candidate neighbours */
    int *vbuf;   /* scratch: value indices */
};

static void *anneal_start(const struct pol_view *v)
{
    struct st_anneal *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    st->tried = calloc((size_t)v->n_configs, sizeof *st->tried);
    st->nbr = malloc((size_t)v->n_configs * sizeof *st->nbr);
    st->vbuf = malloc(((size_t)v->n_params + 1) * sizeof *st->vbuf);
    if (st->tried == NULL || st->nbr == NULL || st->vbuf == NULL) {
        free(st->tried);
        free(st->nbr);
        free(st->vbuf);
        free(st);
        return NULL;
    }
    st->cur = -1;
    st->n_left = v->n_configs;
    st->temp = SA_T0;
    return st;
}

static int anneal_next(void *p, const struct pol_view *v)
{
    struct st_anneal *st = p;
    int k = -1, n = 0;
    if (st->cur >= 0) { /* the untried one-step neighbours of cur, ascending (pol_neighbours' order) */
        for (int q = 0; q < v->n_params; q++)
            st->vbuf[q] = pol_vidx(v, st->cur, q);
        int n_all = pol_neighbours(v, st->vbuf, POL_NBR_STEP, st->nbr);
        for (int j = 0; j < n_all; j++)
            if (!st->tried[st->nbr[j]])
                st->nbr[n++] = st->nbr[j];
        if (n > 0)
            k = st->nbr[gsl_rng_uniform_int(v->rng, (unsigned long)n)];
    }
    if (k < 0)
        k = pol_pick_unmarked(v, st->tried, st->n_left);
    if (k >= 0) {
        st->tried[k] = 1;
        st->n_left--;
    }
    return k;
}

static double anneal_rep(void *p, const struct pol_view *v, int c)
{
    (void)p;
    (void)c;
    return v->rep_ms;
}

static void anneal_observe(void *p, const struct pol_view *v, int c)
{
    struct st_anneal *st = p;
    double e = v->est_ms[c];
    if (v->failed[c] || isnan(e)) {
        if (st->cur < 0)
            st->cur = -1; /* keep looking for a start that runs */
    } else if (st->cur < 0 || isnan(v->est_ms[st->cur]) || e <= v->est_ms[st->cur]) {
        st->cur = c;
    } else {
        double d = (e - v->est_ms[st->cur]) / v->est_ms[st->cur];
        if (gsl_rng_uniform(v->rng) < exp(-d / st->temp))
            st->cur = c;
    }
    st->temp *= SA_ALPHA;
}

static void anneal_stop(void *p)
{
    struct st_anneal *st = p;
    free(st->tried);
    free(st->nbr);
    free(st->vbuf);
    free(st);
}

const struct policy_ops policy_anneal = {
    "anneal", "simulated annealing over the parameter grid (neighbours: one parameter, one step)",
    "Kirkpatrick et al., Science 220 (1983)", anneal_start, anneal_next, anneal_rep, anneal_observe, anneal_stop, 0,
};
