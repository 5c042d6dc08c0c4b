/* policy_kt_ls.c — Kernel Tuner's local searches `mls` and `greedy_ils` (kernel_tuner/strategies/mls.py,
 * greedy_mls.py, greedy_ils.py and hillclimbers.base_hillclimb, release 1.5.0), with its defaults and quirks.
 *
 * Kernel Tuner's climb from a base: its children are built from a running copy `child` of the base: for each
 * parameter in a random order, the distinct values that parameter takes among child's Hamming neighbours (the
 * configurations that differ from child in that parameter alone), in a random order, each written into child and
 * the result appended. So child keeps what earlier parameters wrote: only the first parameter's children are true
 * Hamming neighbours of the base (tunecost's repaired climb, `mls-hamming`, is policy_mls.c). With restart false
 * (mls) every child is evaluated and the climb moves to the best that beats the base, and goes on from there; with
 * restart true (greedy_ils) it moves to the first child that beats the base and the climb ends.
 * mls: from a random configuration, climb; then from a new random configuration, until the unique evaluations
 * reach max_fevals (option; default 100, Kernel Tuner's, capped at the space size: mls stops near 100 evaluations
 * unless told otherwise).
 * greedy_ils: from a random configuration, a greedy climb, then the climb's end is evaluated again (free), and a
 * random walk of max(1, int(0.3 x n_params)) random Hamming neighbours (option random_walk 0.3) starts the next
 * climb; after no_improvement (50) climbs in a row that did not beat the start's cost, a random configuration
 * instead. Kernel Tuner's quirk kept: the cost compared with is the start's and is never updated. Until max_fevals
 * (default 100) unique evaluations. A failure costs DBL_MAX; a configuration evaluated before costs nothing. */
#include "policy.h"
#include "policy_kt.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

struct kt_ls {
    int greedy;              /* 1: greedy_ils (restart true), 0: mls */
    int *seen, n_unique, max_fevals;
    int *children, n_children, pos, *vbuf, *order, *nbr, *vals;
    int base, climbing, best;
    double best_score;
    /* greedy_ils */
    int started, perm_size, no_improvement, last_improvement, pending_end;
    double start_score;
};

static void ls_free(void *p)
{
    struct kt_ls *st = p;
    if (st == NULL)
        return;
    free(st->seen);
    free(st->children);
    free(st->vbuf);
    free(st->order);
    free(st->nbr);
    free(st->vals);
    free(st);
}

static struct kt_ls *ls_alloc(const struct pol_view *v, int greedy)
{
    struct kt_ls *st = calloc(1, sizeof *st);
    size_t nc = (size_t)v->n_configs + 1, np = (size_t)v->n_params + 1, nv = 1;
    if (st == NULL)
        return NULL;
    for (int p = 0; p < v->n_params; p++)
        nv += (size_t)v->n_values[p];
    st->seen = calloc(nc, sizeof *st->seen);
    st->children = malloc(nv * sizeof *st->children);
    st->vbuf = malloc(np * sizeof *st->vbuf);
    st->order = malloc(np * sizeof *st->order);
    st->nbr = malloc(nc * sizeof *st->nbr);
    st->vals = malloc(nv * sizeof *st->vals);
    if (st->seen == NULL || st->children == NULL || st->vbuf == NULL || st->order == NULL || st->nbr == NULL ||
        st->vals == NULL) {
        ls_free(st);
        return NULL;
    }
    int size = 0;
    for (int k = 0; k < v->n_configs; k++)
        size += !v->cfg[k].known_invalid;
    double mf = pol_option(v, "max_fevals", 100);
    st->max_fevals = mf < size ? (int)mf : size;
    st->greedy = greedy;
    st->base = -1;
    return st;
}

static void shuffle(int *a, int n, const struct pol_view *v)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)gsl_rng_uniform_int(v->rng, (unsigned long)i + 1), x = a[i];
        a[i] = a[j];
        a[j] = x;
    }
}

/* Kernel Tuner's children of st->base (see the file's comment) into st->children. */
static void ls_children(struct kt_ls *st, const struct pol_view *v)
{
    int np = v->n_params;
    st->n_children = st->pos = 0;
    for (int p = 0; p < np; p++) {
        st->vbuf[p] = pol_vidx(v, st->base, p);
        st->order[p] = p;
    }
    shuffle(st->order, np, v);
    for (int i = 0; i < np; i++) {
        int p = st->order[i], nn = pol_neighbours(v, st->vbuf, POL_NBR_HAMMING, st->nbr), n_vals = 0;
        for (int k = 0; k < nn; k++) { /* the distinct values of p among child's neighbours, other than its own */
            int x = pol_vidx(v, st->nbr[k], p), dup = x == st->vbuf[p];
            for (int q = 0; q < n_vals && !dup; q++)
                dup = st->vals[q] == x;
            if (!dup)
                st->vals[n_vals++] = x;
        }
        shuffle(st->vals, n_vals, v);
        for (int q = 0; q < n_vals; q++) {
            st->vbuf[p] = st->vals[q];
            int c = pol_config_at(v, st->vbuf);
            if (c >= 0)
                st->children[st->n_children++] = c;
        }
    }
}

/* Mark c as asked for (a unique evaluation once the engine has run it) and return it. */
static int ls_ask(struct kt_ls *st, int c)
{
    if (c >= 0 && !st->seen[c]) {
        st->seen[c] = 1;
        st->n_unique++;
    }
    return c;
}

/* One step of the climb: a configuration to evaluate (>= 0), or -1 when the climb is over (st->base its end). */
static int ls_climb(struct kt_ls *st, const struct pol_view *v)
{
    double cost;
    if (st->climbing == 1) { /* evaluate the base first */
        if (!pol_cost(v, st->base, &cost))
            return st->base;
        st->best_score = kt_cost(v, st->base);
        ls_children(st, v);
        st->climbing = 2;
        st->best = -1;
    }
    while (st->climbing == 2) {
        while (st->pos < st->n_children) {
            int c = st->children[st->pos];
            if (!pol_cost(v, c, &cost))
                return c;
            st->pos++;
            if (kt_cost(v, c) < st->best_score) {
                st->best_score = kt_cost(v, c);
                st->best = c;
                if (st->greedy)
                    break;
            }
        }
        if (st->best < 0 || st->greedy) {
            st->base = st->best >= 0 ? st->best : st->base;
            st->climbing = 0;
            return -1;
        }
        st->base = st->best; /* mls: go on from the best child */
        ls_children(st, v);
        st->best = -1;
    }
    return -1;
}

static int mls_next(void *p, const struct pol_view *v)
{
    struct kt_ls *st = p;
    for (long guard = 0; guard < 1000000; guard++) {
        if (!st->climbing) {
            if (st->base >= 0 && st->n_unique >= st->max_fevals)
                return -1;
            st->base = kt_random_config(v);
            if (st->base < 0)
                return -1;
            st->climbing = 1;
        }
        int c = ls_climb(st, v);
        if (c >= 0)
            return ls_ask(st, c);
    }
    return -1;
}

/* greedy_ils' random walk from st->base: perm_size random Hamming neighbours, or a random configuration. */
static void ils_walk(struct kt_ls *st, const struct pol_view *v)
{
    if (st->last_improvement >= st->no_improvement) {
        st->base = kt_random_config(v);
        return;
    }
    for (int i = 0; i < st->perm_size; i++) {
        int q = kt_random_neighbour(v, st->base, POL_NBR_HAMMING, st->nbr);
        st->base = q >= 0 ? q : st->base; /* Kernel Tuner would fail on a configuration without one */
    }
}

static int ils_next(void *p, const struct pol_view *v)
{
    struct kt_ls *st = p;
    double cost;
    if (!st->started) {
        st->started = 1;
        st->base = kt_random_config(v);
        return ls_ask(st, st->base);
    }
    for (long guard = 0; guard < 1000000 && st->base >= 0; guard++) {
        if (!st->climbing && !st->pending_end) {
            if (st->n_unique >= st->max_fevals)
                return -1;
            if (st->started == 1) {
                st->start_score = kt_cost(v, st->base); /* Kernel Tuner's best_score, never updated */
                st->started = 2;
            }
            st->climbing = 1;
        }
        if (st->climbing) {
            int c = ls_climb(st, v);
            if (c >= 0)
                return ls_ask(st, c);
            st->pending_end = 1;
        }
        if (!pol_cost(v, st->base, &cost)) /* the climb's end evaluated again (it was: free) */
            return ls_ask(st, st->base);
        st->pending_end = 0;
        st->last_improvement = kt_cost(v, st->base) < st->start_score ? 0 : st->last_improvement + 1;
        ils_walk(st, v);
    }
    return -1;
}

static void *mls_start(const struct pol_view *v)
{
    return ls_alloc(v, 0);
}

static void *ils_start(const struct pol_view *v)
{
    struct kt_ls *st = ls_alloc(v, 1);
    if (st == NULL)
        return NULL;
    st->perm_size = (int)(pol_option(v, "random_walk", 0.3) * v->n_params);
    st->perm_size = st->perm_size > 0 ? st->perm_size : 1;
    st->no_improvement = (int)pol_option(v, "no_improvement", 50);
    return st;
}

const struct policy_ops policy_kt_mls = {
    "mls", "Kernel Tuner's mls: best-improvement climbs on its cumulative Hamming children, random restarts, "
           "max_fevals 100",
    "Kernel Tuner 1.5, strategies/mls.py, greedy_mls.py, hillclimbers.py", mls_start, mls_next, pol_rep_once, NULL,
    ls_free, 0,
};

const struct policy_ops policy_kt_greedy_ils = {
    "greedy_ils", "Kernel Tuner's greedy_ils: first-improvement climbs, random walks of 0.3 x parameters, restart "
                  "after 50 fruitless climbs, max_fevals 100",
    "Kernel Tuner 1.5, strategies/greedy_ils.py, hillclimbers.py", ils_start, ils_next, pol_rep_once, NULL, ls_free,
    0,
};
