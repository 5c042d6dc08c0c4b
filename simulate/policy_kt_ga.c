/* policy_kt_ga.c — Kernel Tuner's `genetic_algorithm` (kernel_tuner/strategies/genetic_algorithm.py, release 1.5.0),
 * constraint-aware with single-point crossover, its defaults.
 * Options (Kernel Tuner's defaults): popsize 26, maxiter 90 (generations), mutation_chance 55 (a child mutates with
 * chance 1 in 55). A population larger than half the space (or below 2) becomes min(max(round(size / maxiter x
 * 3), 2), popsize). The first population is a uniform sample without replacement whose first member is replaced by
 * another random configuration (Kernel Tuner's x0; it may repeat a member). Each generation evaluates its members
 * in order (a configuration evaluated before costs nothing again), sorts them by cost (stably; a failure costs
 * DBL_MAX) and breeds the next: two distinct parents at indices int(Beta(1, 2.5) x n) of the sorted population,
 * a crossover at int(U x n_params) giving two children, each repaired when it is not in the space (a random
 * adjacent neighbour of its grid point, else a random Hamming one) and mutated to a random Hamming neighbour with
 * chance 1 in mutation_chance; a child joins when it is valid and not yet in the new population. Breeding stops
 * once the population is full or the configurations evaluated so far (counted per generation, revisits included:
 * Kernel Tuner's num_evaluated) plus the new population reach the space size. The run ends after maxiter
 * generations or an empty population (or one of a single member, from which Kernel Tuner would draw two distinct
 * parents forever). Kernel Tuner's "strictly-adjacent" and "adjacent" are the same on these
 * spaces (policy.h), so the repair tries one of them. */
#include "policy.h"
#include "policy_kt.h"

#include <float.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct st_kt_ga {
    int *pop, *next_pop, *order, *buf, *a, *b;
    double *cost;
    int pop_size, n_pop, idx, gen, generations, size;
    long num_evaluated;
    double mutation_chance;
};

static void *ga_start(const struct pol_view *v)
{
    struct st_kt_ga *st = calloc(1, sizeof *st);
    size_t nc = (size_t)v->n_configs + 1, np = (size_t)v->n_params + 1;
    if (st == NULL)
        return NULL;
    for (int k = 0; k < v->n_configs; k++)
        st->size += !v->cfg[k].known_invalid;
    st->pop_size = (int)pol_option(v, "popsize", 26);
    st->generations = (int)pol_option(v, "maxiter", 90);
    st->mutation_chance = pol_option(v, "mutation_chance", 55);
    if (st->pop_size < 2 || st->pop_size > floor(st->size / 2.0)) {
        int alt = (int)round((double)st->size / st->generations * 3);
        alt = alt > 2 ? alt : 2;
        st->pop_size = alt < st->pop_size ? alt : st->pop_size;
    }
    st->pop = malloc(nc * sizeof *st->pop);
    st->next_pop = malloc(nc * sizeof *st->next_pop);
    st->order = malloc(nc * sizeof *st->order);
    st->buf = malloc(nc * sizeof *st->buf);
    st->cost = malloc(nc * sizeof *st->cost);
    st->a = malloc(np * sizeof *st->a);
    st->b = malloc(np * sizeof *st->b);
    if (st->pop == NULL || st->next_pop == NULL || st->order == NULL || st->buf == NULL || st->cost == NULL ||
        st->a == NULL || st->b == NULL)
        goto fail;
    int n = 0;
    for (int k = 0; k < v->n_configs; k++)
        if (!v->cfg[k].known_invalid)
            st->order[n++] = k;
    st->n_pop = st->pop_size < n ? st->pop_size : n;
    for (int q = 0; q < st->n_pop; q++) { /* a sample without replacement */
        int j = q + (int)gsl_rng_uniform_int(v->rng, (unsigned long)(n - q)), t = st->order[q];
        st->order[q] = st->order[j];
        st->order[j] = t;
        st->pop[q] = st->order[q];
    }
    if (st->n_pop > 0)
        st->pop[0] = kt_random_config(v); /* Kernel Tuner: population[0] = get_start_pos() */
    return st;
fail:
    free(st->pop);
    free(st->next_pop);
    free(st->order);
    free(st->buf);
    free(st->cost);
    free(st->a);
    free(st->b);
    free(st);
    return NULL;
}

/* A child's grid point (value indices in dna) as a configuration: itself when valid, else a repair (a random
 * adjacent neighbour, else a random Hamming one), -1 when none. */
static int ga_repair(struct st_kt_ga *st, const struct pol_view *v, const int *dna)
{
    int c = pol_config_at(v, dna), n;
    if (c >= 0)
        return c;
    if ((n = pol_neighbours(v, dna, POL_NBR_ADJACENT, st->buf)) == 0)
        n = pol_neighbours(v, dna, POL_NBR_HAMMING, st->buf);
    return n > 0 ? st->buf[gsl_rng_uniform_int(v->rng, (unsigned long)n)] : -1;
}

static int ga_in(const int *pop, int n, int c)
{
    for (int i = 0; i < n; i++)
        if (pop[i] == c)
            return 1;
    return 0;
}

/* The stable sort of the evaluated population by cost (insertion sort: populations are small). */
static void ga_sort(struct st_kt_ga *st, const struct pol_view *v)
{
    for (int i = 0; i < st->n_pop; i++) {
        int c = st->pop[i];
        double x = kt_cost(v, c);
        int j = i;
        while (j > 0 && st->cost[j - 1] > x) {
            st->cost[j] = st->cost[j - 1];
            st->order[j] = st->order[j - 1];
            j--;
        }
        st->cost[j] = x;
        st->order[j] = c;
    }
}

/* The next generation into st->pop: its size. */
static int ga_breed(struct st_kt_ga *st, const struct pol_view *v)
{
    int n = 0, np = v->n_params, w = st->n_pop;
    ga_sort(st, v);
    st->num_evaluated += st->n_pop;
    if (w < 2)
        return 0; /* two distinct parents cannot be drawn (Kernel Tuner would draw forever) */
    while (n < st->pop_size && st->size > st->num_evaluated + n) {
        int i1 = (int)(gsl_ran_beta(v->rng, 1, 2.5) * w), i2 = (int)(gsl_ran_beta(v->rng, 1, 2.5) * w);
        while (i2 == i1)
            i2 = (int)(gsl_ran_beta(v->rng, 1, 2.5) * w);
        int pos = (int)(gsl_rng_uniform(v->rng) * np), kids[2];
        for (int p = 0; p < np; p++) {
            int x = pol_vidx(v, st->order[i1], p), y = pol_vidx(v, st->order[i2], p);
            st->a[p] = p < pos ? x : y;
            st->b[p] = p < pos ? y : x;
        }
        kids[0] = ga_repair(st, v, st->a);
        kids[1] = ga_repair(st, v, st->b);
        for (int k = 0; k < 2; k++) {
            int c = kids[k];
            if (c >= 0 && (int)(gsl_rng_uniform(v->rng) * st->mutation_chance) == 0) {
                int q = kt_random_neighbour(v, c, POL_NBR_HAMMING, st->buf);
                c = q >= 0 ? q : c;
            }
            if (c >= 0 && !ga_in(st->next_pop, n, c))
                st->next_pop[n++] = c;
            if (n >= st->pop_size)
                break;
        }
    }
    memcpy(st->pop, st->next_pop, (size_t)n * sizeof *st->pop);
    return n;
}

static int ga_next(void *p, const struct pol_view *v)
{
    struct st_kt_ga *st = p;
    while (st->idx >= st->n_pop) {
        if (st->n_pop == 0 || ++st->gen >= st->generations)
            return -1;
        st->n_pop = ga_breed(st, v);
        st->idx = 0;
    }
    return st->pop[st->idx++];
}

static void ga_stop(void *p)
{
    struct st_kt_ga *st = p;
    free(st->pop);
    free(st->next_pop);
    free(st->order);
    free(st->buf);
    free(st->cost);
    free(st->a);
    free(st->b);
    free(st);
}

const struct policy_ops policy_kt_genetic_algorithm = {
    "genetic_algorithm", "Kernel Tuner's genetic_algorithm: population 26, 90 generations, single-point crossover, "
                         "mutation 1 in 55, constraint-aware repair",
    "Kernel Tuner 1.5, strategies/genetic_algorithm.py", ga_start, ga_next, pol_rep_once, NULL, ga_stop, 0,
};
