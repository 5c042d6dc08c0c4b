/* policy_genetic.c — a genetic algorithm over the parameter grid. Generation 0 is GA_POP configurations drawn at
 * random. Each later generation breeds GA_POP children, each from two parents chosen by tournaments of
 * GA_TOURNAMENT among the GA_POP best configurations measured so far (a (mu + lambda) scheme: the best survive
 * across generations): uniform crossover takes each parameter from either parent with probability 1/2, and
 * mutation moves each parameter, with probability GA_MUTATION, one step up or down in its sorted values. A child
 * that is not in the space, was measured already or is already in the brood is bred again, up to GA_TRIES
 * times, and then replaced by a random unmeasured configuration; every configuration is benchmarked at most
 * once, for the full --rep-ms, and the policy is done when all were. Failed configurations never parent.
 * Hyperparameters: GA_POP = 8, GA_TOURNAMENT = 2, GA_MUTATION = 0.1, GA_TRIES = 32. Reference: Goldberg,
 * "Genetic algorithms in search, optimization and machine learning" (1989); Kernel Tuner's "genetic_algorithm"
 * strategy (van Werkhoven, FGCS 90, 2019) uses the same crossover and neighbour mutation on kernel parameters. */
#include "policy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GA_POP 8
#define GA_TOURNAMENT 2
#define GA_MUTATION 0.1
#define GA_TRIES 32

struct st_genetic {
    int *tried, n_left;   /* per configuration: proposed already; how many were not */
    int *brood, n_brood, pos;
    int *par, n_par;      /* parents: the best measured configurations, ascending estimate */
    int *vidx;            /* scratch: a child's value indices, n_params */
};

static void ga_free(struct st_genetic *st)
{
    if (st == NULL)
        return;
    free(st->tried);
    free(st->brood);
    free(st->par);
    free(st->vidx);
    free(st);
}

static void *genetic_start(const struct pol_view *v)
{
    struct st_genetic *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    st->tried = calloc((size_t)v->n_configs + 1, sizeof *st->tried);
    st->brood = malloc(GA_POP * sizeof *st->brood);
    st->par = malloc(GA_POP * sizeof *st->par);
    st->vidx = malloc(((size_t)v->n_params + 1) * sizeof *st->vidx);
    if (st->tried == NULL || st->brood == NULL || st->par == NULL || st->vidx == NULL) {
        ga_free(st);
        return NULL;
    }
    st->n_left = v->n_configs;
    return st;
}

/* The GA_POP best usable measured configurations, ascending estimate (insertion into a short list). */
static void choose_parents(struct st_genetic *st, const struct pol_view *v)
{
    st->n_par = 0;
    for (int k = 0; k < v->n_configs; k++) {
        if (v->failed[k] || isnan(v->est_ms[k]))
            continue;
        int j = st->n_par < GA_POP ? st->n_par++ : GA_POP;
        while (j > 0 && v->est_ms[st->par[j - 1]] > v->est_ms[k]) {
            if (j < GA_POP)
                st->par[j] = st->par[j - 1];
            j--;
        }
        if (j < GA_POP)
            st->par[j] = k;
    }
}

static int tournament(const struct st_genetic *st, const struct pol_view *v)
{
    int best = -1;
    for (int i = 0; i < GA_TOURNAMENT; i++) {
        int c = st->par[gsl_rng_uniform_int(v->rng, (unsigned long)st->n_par)];
        if (best < 0 || v->est_ms[c] < v->est_ms[best])
            best = c;
    }
    return best;
}

static int breed(struct st_genetic *st, const struct pol_view *v)
{
    for (int t = 0; t < GA_TRIES; t++) {
        int a = tournament(st, v), b = tournament(st, v);
        for (int p = 0; p < v->n_params; p++) {
            int from = gsl_rng_uniform(v->rng) < 0.5 ? a : b;
            int i = pol_value_index(v, p, v->cfg[from].params[p]);
            if (gsl_rng_uniform(v->rng) < GA_MUTATION)
                i += gsl_rng_uniform(v->rng) < 0.5 ? -1 : 1;
            if (i < 0)
                i = 1 < v->n_values[p] ? 1 : 0;
            if (i >= v->n_values[p])
                i = v->n_values[p] >= 2 ? v->n_values[p] - 2 : 0;
            st->vidx[p] = i;
        }
        int k = pol_config_at(v, st->vidx);
        if (k >= 0 && !st->tried[k])
            return k;
    }
    return pol_pick_unmarked(v, st->tried, st->n_left);
}

/* Fill the brood of the next generation; every configuration in it is marked tried. */
static void new_generation(struct st_genetic *st, const struct pol_view *v)
{
    choose_parents(st, v);
    st->n_brood = 0;
    st->pos = 0;
    while (st->n_brood < GA_POP && st->n_left > 0) {
        int k = st->n_par >= 2 ? breed(st, v) : pol_pick_unmarked(v, st->tried, st->n_left);
        if (k < 0)
            break;
        st->tried[k] = 1;
        st->n_left--;
        st->brood[st->n_brood++] = k;
    }
}

static int genetic_next(void *p, const struct pol_view *v)
{
    struct st_genetic *st = p;
    if (st->pos == st->n_brood)
        new_generation(st, v);
    return st->pos < st->n_brood ? st->brood[st->pos++] : -1;
}

static double genetic_rep(void *p, const struct pol_view *v, int c)
{
    (void)p;
    return v->n_exec[c] > 0 || v->failed[c] ? 0 : v->rep_ms;
}

static void genetic_stop(void *p)
{
    ga_free(p);
}

const struct policy_ops policy_genetic = {
    "genetic", "genetic algorithm: 8 per generation, tournament of 2, uniform crossover, one-step mutation 0.1",
    "Goldberg 1989; Kernel Tuner (van Werkhoven, FGCS 2019)", genetic_start, genetic_next, genetic_rep, NULL,
    genetic_stop, 0,
};
