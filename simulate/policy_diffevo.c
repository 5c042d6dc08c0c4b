/* policy_diffevo.c — Kernel Tuner's "diff_evo" (differential evolution, strategies/diff_evo.py, method best1bin)
 * on the value indices of the grid. POP = 16 x (parameters with more than one value) individuals, distinct random
 * configurations (individual 0 another random one, Kernel Tuner's start position), are costed. Each generation
 * builds POP trial individuals: for target i, two distinct other individuals b and c are drawn, the donor is
 * round(best + F (b - c)) per parameter (rounded half to even, clipped to the grid), binomial crossover takes
 * each parameter from the donor with probability CR (at least one), and a trial that is no configuration is
 * repaired to the closest one (least sum of index differences, ties at random); a trial already in the list is
 * drawn again, and after 20 such draws a random configuration is taken instead. After two generations in a row
 * that changed nothing, every later generation's trials are a new random population, as in Kernel Tuner 1.5.
 * Selection: a trial at most as costly as its target replaces it unless it is in the population already; the best
 * is updated on a strictly lower cost. Done after as many generations as configurations. Each configuration is
 * benchmarked once, for --rep-ms. Hyperparameters (Kernel Tuner's defaults): popsize 16 per parameter, F 0.7,
 * CR 0.6, best1bin. Populations (the first and the regenerated ones) are Kernel Tuner's Latin hypercube sample
 * (Searchspace.get_LHS_sample, SciPy's scrambled LatinHypercube over the value indices): per parameter a random
 * permutation of n strata, value index floor((stratum + U) / n x values); a point that is no configuration becomes
 * the first configuration (trace order) at the least sum of index differences; duplicates are dropped and the
 * sample filled up with random configurations; the members in the order Kernel Tuner's list(set(indices)) gives
 * them (kt_py_set_order: CPython's hash table of the indices, which are positions in Kernel Tuner's order of the
 * space, kt_space_order; ascending for a space under 256, not beyond), and the closest configuration is the first in
 * that order. A population of at least the space's size is drawn uniformly (Kernel Tuner would halve it, or fail
 * on np.shuffle).
 * Reference: Storn & Price, J. Global Optim. 11 (1997); Kernel Tuner 1.5 diff_evo. */
#include "policy_climb.h"
#include "policy_kt.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#define DE_POP_PER_PARAM 16
#define DE_F 0.7
#define DE_CR 0.6
#define DE_STUCK 20

struct st_de {
    struct pol_asked a;
    int n, np, gen, pos, evaluating_trials, stabilized;
    int *pop, *trial;       /* n configurations each */
    double *pop_cost;
    int best;               /* configuration */
    double best_cost;
    int *vbuf, *donor, *take, *mark;
    int *lhs;               /* n x np: the Latin hypercube's value indices */
    int *kt_order, *kt_rank, n_kt; /* Kernel Tuner's order of the space, each configuration's position in it */
};

static void de_stop(void *p)
{
    struct st_de *st = p;
    pol_asked_free(&st->a);
    free(st->pop);
    free(st->trial);
    free(st->pop_cost);
    free(st->vbuf);
    free(st->donor);
    free(st->take);
    free(st->mark);
    free(st->lhs);
    free(st->kt_order);
    free(st->kt_rank);
    free(st);
}

/* n distinct random configurations into out (repeats only when the space has fewer). */
static void random_population(struct st_de *st, const struct pol_view *v, int *out)
{
    int left = v->n_configs;
    for (int j = 0; j < st->n; j++) {
        int c = left > 0 ? pol_pick_unmarked(v, st->mark, left--)
                         : (int)gsl_rng_uniform_int(v->rng, (unsigned long)v->n_configs);
        st->mark[c] = 1;
        out[j] = c;
    }
    for (int j = 0; j < st->n; j++)
        st->mark[out[j]] = 0;
}

/* The first configuration in Kernel Tuner's order of the space (st->kt_order) at the least sum of |value index
 * differences| from vidx. */
static int closest_first(const struct st_de *st, const struct pol_view *v, const int *vidx)
{
    long best_d = -1;
    int best = -1;
    for (int i = 0; i < st->n_kt; i++) {
        int k = st->kt_order[i];
        long d = 0;
        for (int p = 0; p < v->n_params; p++) {
            int x = pol_vidx(v, k, p) - vidx[p];
            d += x < 0 ? -x : x;
        }
        if (best < 0 || d < best_d) {
            best_d = d;
            best = k;
        }
    }
    return best;
}

/* Kernel Tuner's Latin hypercube population of st->n (the file's comment) into out; uniform when st->n is at least
 * the space. */
static void lhs_population(struct st_de *st, const struct pol_view *v, int *out)
{
    int n = st->n, m = 0;
    if (n >= st->n_kt) {
        random_population(st, v, out);
        return;
    }
    for (int p = 0; p < st->np; p++) { /* strata per parameter: out[] holds one permutation at a time */
        for (int j = 0; j < n; j++)
            out[j] = j;
        for (int j = n - 1; j > 0; j--) {
            int q = (int)gsl_rng_uniform_int(v->rng, (unsigned long)j + 1), x = out[j];
            out[j] = out[q];
            out[q] = x;
        }
        for (int j = 0; j < n; j++) {
            double u = (out[j] + gsl_rng_uniform(v->rng)) / n;
            int x = (int)(u * v->n_values[p]);
            st->lhs[(size_t)j * (size_t)st->np + (size_t)p] = x < v->n_values[p] ? x : v->n_values[p] - 1;
        }
    }
    for (int j = 0; j < n; j++) { /* Kernel Tuner's indices (positions in its order), duplicates kept */
        const int *pt = &st->lhs[(size_t)j * (size_t)st->np];
        int c = pol_config_at(v, pt);
        c = c >= 0 ? c : closest_first(st, v, pt);
        out[m++] = st->kt_rank[c];
    }
    m = kt_py_set_order(out, m);
    m = m < 0 ? 0 : m;
    if (m < n) { /* fill up with random configurations, then list(set(...)) again */
        for (int j = 0; j < m; j++)
            st->mark[st->kt_order[out[j]]] = 1;
        for (int left = st->n_kt - m; m < n && left > 0; left--) {
            int c = pol_pick_unmarked(v, st->mark, left);
            st->mark[c] = 1;
            out[m++] = st->kt_rank[c];
        }
        for (int j = 0; j < m; j++)
            st->mark[st->kt_order[out[j]]] = 0;
        m = kt_py_set_order(out, m);
        m = m < 0 ? 0 : m;
    }
    for (int j = 0; j < m; j++)
        out[j] = st->kt_order[out[j]];
}

static void *de_start(const struct pol_view *v)
{
    struct st_de *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    st->np = v->n_params;
    for (int p = 0; p < v->n_params; p++)
        st->n += v->n_values[p] > 1 ? DE_POP_PER_PARAM : 0;
    st->n = st->n < 1 ? 1 : st->n;
    st->pop = malloc(((size_t)st->n + 1) * sizeof *st->pop);
    st->trial = malloc(((size_t)st->n + 1) * sizeof *st->trial);
    st->pop_cost = malloc(((size_t)st->n + 1) * sizeof *st->pop_cost);
    st->vbuf = malloc(((size_t)st->np + 1) * sizeof *st->vbuf);
    st->donor = malloc(((size_t)st->np + 1) * sizeof *st->donor);
    st->take = malloc(((size_t)st->np + 1) * sizeof *st->take);
    st->mark = calloc((size_t)v->n_configs + 1, sizeof *st->mark);
    st->lhs = malloc(((size_t)st->n * (size_t)st->np + 1) * sizeof *st->lhs);
    st->kt_order = malloc(((size_t)v->n_configs + 1) * sizeof *st->kt_order);
    st->kt_rank = malloc(((size_t)v->n_configs + 1) * sizeof *st->kt_rank);
    if (st->kt_order != NULL && st->kt_rank != NULL && (st->n_kt = kt_space_order(v, st->kt_order)) > 0)
        for (int i = 0; i < st->n_kt; i++)
            st->kt_rank[st->kt_order[i]] = i;
    if (st->lhs == NULL || st->kt_order == NULL || st->kt_rank == NULL || st->n_kt <= 0 || st->pop == NULL || st->trial == NULL || st->pop_cost == NULL || st->vbuf == NULL || st->donor == NULL ||
        st->take == NULL || st->mark == NULL ||
        pol_asked_init(&st->a, v) != 0) {
        de_stop(st);
        return NULL;
    }
    lhs_population(st, v, st->pop);
    st->pop[0] = kt_random_config(v);
    st->best = -1;
    return st;
}

static int in_list(const int *list, int n, int c)
{
    for (int j = 0; j < n; j++)
        if (list[j] == c)
            return 1;
    return 0;
}

/* The trial for target i (best1bin, repaired). */
static int make_trial(struct st_de *st, const struct pol_view *v, int i)
{
    int b, c;
    if (st->n - 1 >= 2) { /* two distinct individuals other than i */
        b = (int)gsl_rng_uniform_int(v->rng, (unsigned long)st->n - 1);
        c = (int)gsl_rng_uniform_int(v->rng, (unsigned long)st->n - 2);
        c += c >= b;
        b += b >= i;
        c += c >= i;
    } else {
        b = c = (int)gsl_rng_uniform_int(v->rng, (unsigned long)st->n);
    }
    int any = 0;
    for (int p = 0; p < st->np; p++) { /* the donor, then which parameters come from it */
        double d = pol_vidx(v, st->best, p) + DE_F * (pol_vidx(v, st->pop[b], p) - pol_vidx(v, st->pop[c], p));
        int donor = (int)rint(d);
        st->donor[p] = donor < 0 ? 0 : donor >= v->n_values[p] ? v->n_values[p] - 1 : donor;
    }
    for (int p = 0; p < st->np; p++)
        any |= st->take[p] = gsl_rng_uniform(v->rng) < DE_CR;
    if (!any)
        st->take[gsl_rng_uniform_int(v->rng, (unsigned long)st->np)] = 1;
    for (int p = 0; p < st->np; p++)
        st->vbuf[p] = st->take[p] ? st->donor[p] : pol_vidx(v, st->pop[i], p);
    int k = pol_config_at(v, st->vbuf);
    return k >= 0 ? k : pol_closest(v, st->vbuf);
}

static void new_trials(struct st_de *st, const struct pol_view *v)
{
    if (st->stabilized > 2) {
        lhs_population(st, v, st->trial);
        return;
    }
    for (int i = 0, n = 0, stuck = 0; n < st->n;) {
        int k = make_trial(st, v, i);
        if (!in_list(st->trial, n, k)) {
            st->trial[n++] = k;
            i++;
            stuck = 0;
        } else if (++stuck >= DE_STUCK) {
            st->trial[n++] = (int)gsl_rng_uniform_int(v->rng, (unsigned long)v->n_configs);
            i++;
            stuck = 0;
        }
    }
}

static void select_trials(struct st_de *st, const struct pol_view *v)
{
    int changed = 0;
    for (int i = 0; i < st->n; i++) {
        double cost;
        pol_cost(v, st->trial[i], &cost);
        if (cost <= st->pop_cost[i]) {
            if (!in_list(st->pop, st->n, st->trial[i])) {
                st->pop[i] = st->trial[i];
                st->pop_cost[i] = cost;
                changed = 1;
            }
            if (cost < st->best_cost) {
                st->best_cost = cost;
                st->best = st->trial[i];
            }
        }
    }
    st->stabilized += !changed;
}

static int de_next(void *p, const struct pol_view *v)
{
    struct st_de *st = p;
    for (;;) {
        int *list = st->evaluating_trials ? st->trial : st->pop;
        while (st->pos < st->n) {
            double cost;
            if (!pol_cost(v, list[st->pos], &cost))
                return pol_asked_mark(&st->a, list[st->pos]);
            st->pos++;
        }
        if (!st->evaluating_trials) { /* the first population costed: its best */
            for (int i = 0; i < st->n; i++) {
                pol_cost(v, st->pop[i], &st->pop_cost[i]);
                if (st->best < 0 || st->pop_cost[i] < st->best_cost) {
                    st->best = st->pop[i];
                    st->best_cost = st->pop_cost[i];
                }
            }
            st->evaluating_trials = 1;
        } else {
            select_trials(st, v);
        }
        if (st->gen++ >= v->n_configs || st->a.n_asked >= v->n_configs)
            return -1;
        new_trials(st, v);
        st->pos = 0;
    }
}

const struct policy_ops policy_diff_evo = {
    "diff_evo", "Kernel Tuner's differential evolution: best1bin, 16 per parameter, F 0.7, CR 0.6",
    "Storn & Price 1997; Kernel Tuner 1.5 diff_evo", de_start, de_next, pol_rep_once, NULL, de_stop, 0,
};
