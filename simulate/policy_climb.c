/* policy_climb.c — hill climbing on Kernel Tuner's neighbourhoods and the bookkeeping of asked configurations
 * (policy_climb.h), shared by the local-search policies. */
#include "policy_climb.h"

#include <float.h>
#include <stdlib.h>

int pol_climb_init(struct pol_climb *cl, const struct pol_view *v, enum pol_nbr method, int first_improvement)
{
    cl->method = method;
    cl->first_improvement = first_improvement;
    cl->cur = -1;
    cl->n_child = -1;
    cl->child = malloc(((size_t)v->n_configs + 1) * sizeof *cl->child);
    cl->rank = malloc(((size_t)v->n_params + 1) * sizeof *cl->rank);
    cl->vbuf = malloc(((size_t)v->n_params + 1) * sizeof *cl->vbuf);
    if (cl->child == NULL || cl->rank == NULL || cl->vbuf == NULL) {
        pol_climb_free(cl);
        return -1;
    }
    return 0;
}

void pol_climb_free(struct pol_climb *cl)
{
    free(cl->child);
    free(cl->rank);
    free(cl->vbuf);
    cl->child = cl->rank = cl->vbuf = NULL;
}

void pol_climb_begin(struct pol_climb *cl, int start)
{
    cl->cur = start;
    cl->n_child = -1;
    cl->improved = 0;
}

/* The parameter in which neighbour k differs from the base (the first, for an adjacent neighbour). */
static int differing_param(const struct pol_climb *cl, const struct pol_view *v, int k)
{
    for (int p = 0; p < v->n_params; p++)
        if (pol_vidx(v, k, p) != cl->vbuf[p])
            return p;
    return 0;
}

/* List the base's neighbours in Kernel Tuner's order: a random order of the parameters, a random order within
 * each (a shuffle, then a stable insertion sort by the parameter's place). */
static void list_children(struct pol_climb *cl, const struct pol_view *v)
{
    for (int p = 0; p < v->n_params; p++)
        cl->vbuf[p] = pol_vidx(v, cl->cur, p);
    cl->n_child = pol_neighbours(v, cl->vbuf, cl->method, cl->child);
    for (int p = 0; p < v->n_params; p++)
        cl->rank[p] = p;
    for (int p = v->n_params - 1; p > 0; p--) {
        int q = (int)gsl_rng_uniform_int(v->rng, (unsigned long)p + 1), x = cl->rank[p];
        cl->rank[p] = cl->rank[q];
        cl->rank[q] = x;
    }
    for (int i = cl->n_child - 1; i > 0; i--) {
        int j = (int)gsl_rng_uniform_int(v->rng, (unsigned long)i + 1), x = cl->child[i];
        cl->child[i] = cl->child[j];
        cl->child[j] = x;
    }
    /* rank[p] is parameter p's place in the order (the inverse of a uniform permutation is uniform) */
    for (int i = 1; i < cl->n_child; i++) {
        int x = cl->child[i], kx = cl->rank[differing_param(cl, v, x)], j = i;
        while (j > 0 && cl->rank[differing_param(cl, v, cl->child[j - 1])] > kx) {
            cl->child[j] = cl->child[j - 1];
            j--;
        }
        cl->child[j] = x;
    }
    cl->pos = 0;
    cl->best = -1;
    cl->best_cost = cl->cur_cost;
}

int pol_climb_step(struct pol_climb *cl, const struct pol_view *v)
{
    for (;;) {
        if (cl->n_child < 0) {
            if (!pol_cost(v, cl->cur, &cl->cur_cost))
                return cl->cur; /* measure the start point */
            list_children(cl, v);
        }
        while (cl->pos < cl->n_child) {
            int c = cl->child[cl->pos];
            double cost;
            if (!pol_cost(v, c, &cost))
                return c;
            cl->pos++;
            if (cost < cl->best_cost) {
                cl->best = c;
                cl->best_cost = cost;
                if (cl->first_improvement)
                    break;
            }
        }
        if (cl->best < 0)
            return -1; /* no neighbour beats the base: a local optimum */
        cl->cur = cl->best;
        cl->cur_cost = cl->best_cost;
        cl->improved = 1;
        cl->n_child = -1;
        if (cl->first_improvement)
            return -1; /* Kernel Tuner's greedy climb returns at its first improvement */
    }
}

int pol_asked_init(struct pol_asked *a, const struct pol_view *v)
{
    a->n_asked = 0;
    a->asked = calloc((size_t)v->n_configs + 1, sizeof *a->asked);
    return a->asked == NULL ? -1 : 0;
}

void pol_asked_free(struct pol_asked *a)
{
    free(a->asked);
    a->asked = NULL;
}

int pol_asked_mark(struct pol_asked *a, int k)
{
    if (k >= 0 && !a->asked[k]) {
        a->asked[k] = 1;
        a->n_asked++;
    }
    return k;
}

int pol_asked_random(struct pol_asked *a, const struct pol_view *v, int fruitless)
{
    if (a->n_asked >= v->n_configs)
        return -1;
    if (fruitless >= 1000)
        return pol_pick_unmarked(v, a->asked, v->n_configs - a->n_asked);
    return (int)gsl_rng_uniform_int(v->rng, (unsigned long)v->n_configs);
}
