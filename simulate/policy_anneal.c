/* policy_anneal.c — simulated annealing over the parameter grid. Neighbours of a configuration differ from it in
 * exactly one parameter, by one step in that parameter's sorted set of values. From a random start, each step
 * measures a random unmeasured neighbour of the current configuration and moves there if it is faster, or, if
 * slower by a relative amount d, with probability exp(-d / T); T starts at T0 and is multiplied by ALPHA each
 * step. With no unmeasured neighbour left it jumps to a random unmeasured configuration. Hyperparameters:
 * T0 = 0.1, ALPHA = 0.95. Reference: Kirkpatrick, Gelatt & Vecchi, "Optimization by simulated annealing",
 * Science 220 (1983); Kernel Tuner's "simulated_annealing" strategy works on the same neighbourhood. */
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
};

static void *anneal_start(const struct pol_view *v)
{
    struct st_anneal *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    st->tried = calloc((size_t)v->n_configs, sizeof *st->tried);
    st->nbr = malloc((size_t)v->n_configs * sizeof *st->nbr);
    if (st->tried == NULL || st->nbr == NULL) {
        free(st->tried);
        free(st->nbr);
        free(st);
        return NULL;
    }
    st->cur = -1;
    st->n_left = v->n_configs;
    st->temp = SA_T0;
    return st;
}

/* 1 when a and b differ in exactly one parameter, by one step of its sorted values. */
static int neighbours(const struct pol_view *v, int a, int b)
{
    int diff = 0;
    for (int p = 0; p < v->n_params; p++) {
        int32_t x = v->cfg[a].params[p], y = v->cfg[b].params[p];
        if (x == y)
            continue;
        if (++diff > 1 || abs(pol_value_index(v, p, x) - pol_value_index(v, p, y)) != 1)
            return 0;
    }
    return diff == 1;
}

static int anneal_next(void *p, const struct pol_view *v)
{
    struct st_anneal *st = p;
    int k = -1, n = 0;
    if (st->cur >= 0) {
        for (int j = 0; j < v->n_configs; j++)
            if (!st->tried[j] && neighbours(v, st->cur, j))
                st->nbr[n++] = j;
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
    free(st);
}

const struct policy_ops policy_anneal = {
    "anneal", "simulated annealing over the parameter grid (neighbours: one parameter, one step)",
    "Kirkpatrick et al., Science 220 (1983)", anneal_start, anneal_next, anneal_rep, anneal_observe, anneal_stop, 0,
};
