/* policy_hyperband.c — Hyperband on repetition time: successive halving run in brackets that trade the number of
 * configurations against the repetition time each starts with. With ETA = 3 and S_MAX = 2, bracket s (2, 1, 0
 * in turn) draws ceil((S_MAX + 1) / (s + 1) * ETA^s) configurations not drawn before (9, 5, 3), gives each
 * rep / ETA^s ms, then repeatedly keeps the best 1/ETA of them (at least one) by estimate and measures the
 * survivors up to ETA times the previous repetition time, until they have had the full --rep-ms. After bracket
 * 0 it starts again at S_MAX with fresh configurations, and it is done when every configuration was drawn.
 * Failed configurations never survive a rung. Hyperparameters: ETA = 3, S_MAX = 2 (rep/9 is the least time a
 * configuration gets). Reference: Li, Jamieson, DeSalvo, Rostamizadeh & Talwalkar, "Hyperband: a novel
 * bandit-based approach to hyperparameter optimization", JMLR 18 (2018). */
#include "policy.h"

#include <math.h>
#include <stdlib.h>

#define HB_ETA 3
#define HB_SMAX 2

struct st_hyperband {
    int *order, n_taken;  /* every configuration in a random order; the first n_taken were drawn */
    int *cand, n_cand, pos;
    int s, rung;          /* current bracket and rung in it */
};

static void hb_free(struct st_hyperband *st)
{
    if (st == NULL)
        return;
    free(st->order);
    free(st->cand);
    free(st);
}

/* Draw the configurations of bracket st->s; 0 when none is left. */
static int hb_begin_bracket(struct st_hyperband *st, const struct pol_view *v)
{
    int n = (int)ceil((double)(HB_SMAX + 1) / (st->s + 1) * pow(HB_ETA, st->s));
    if (n > v->n_configs - st->n_taken)
        n = v->n_configs - st->n_taken;
    for (int i = 0; i < n; i++)
        st->cand[i] = st->order[st->n_taken + i];
    st->n_taken += n;
    st->n_cand = n;
    st->pos = 0;
    st->rung = 0;
    return n > 0;
}

static void *hyperband_start(const struct pol_view *v)
{
    struct st_hyperband *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    st->order = malloc((size_t)v->n_configs * sizeof *st->order);
    st->cand = malloc((size_t)v->n_configs * sizeof *st->cand);
    if (st->order == NULL || st->cand == NULL) {
        hb_free(st);
        return NULL;
    }
    for (int k = 0; k < v->n_configs; k++)
        st->order[k] = k;
    for (int k = v->n_configs - 1; k > 0; k--) {
        int j = (int)gsl_rng_uniform_int(v->rng, (unsigned long)k + 1), t = st->order[k];
        st->order[k] = st->order[j];
        st->order[j] = t;
    }
    st->s = HB_SMAX;
    hb_begin_bracket(st, v);
    return st;
}

static int hb_usable(const struct pol_view *v, int c)
{
    return !v->failed[c] && !isnan(v->est_ms[c]);
}

/* Insertion sort of the candidates by estimate, unusable ones last (brackets hold at most 9). */
static void hb_sort(struct st_hyperband *st, const struct pol_view *v)
{
    for (int i = 1; i < st->n_cand; i++) {
        int c = st->cand[i], j = i;
        while (j > 0) {
            int b = st->cand[j - 1];
            int before = hb_usable(v, c) && (!hb_usable(v, b) || v->est_ms[c] < v->est_ms[b]);
            if (!before)
                break;
            st->cand[j] = b;
            j--;
        }
        st->cand[j] = c;
    }
}

static int hyperband_next(void *p, const struct pol_view *v)
{
    struct st_hyperband *st = p;
    while (st->pos == st->n_cand) {
        if (st->rung < st->s && st->n_cand > 0) {
            hb_sort(st, v);
            int keep = st->n_cand / HB_ETA > 0 ? st->n_cand / HB_ETA : 1;
            while (keep > 0 && !hb_usable(v, st->cand[keep - 1]))
                keep--;
            if (keep > 0) {
                st->n_cand = keep;
                st->pos = 0;
                st->rung++;
                continue;
            }
        }
        st->s = st->s == 0 ? HB_SMAX : st->s - 1;
        if (!hb_begin_bracket(st, v))
            return -1;
    }
    return st->cand[st->pos++];
}

static double hyperband_rep(void *p, const struct pol_view *v, int c)
{
    struct st_hyperband *st = p;
    double target = v->rep_ms / pow(HB_ETA, st->s - st->rung);
    double had = v->n_exec[c] > 0 ? v->est_ms[c] * v->n_exec[c] : 0;
    return target > had ? target - had : 0;
}

static void hyperband_stop(void *p)
{
    hb_free(p);
}

const struct policy_ops policy_hyperband = {
    "hyperband", "Hyperband: successive-halving brackets of 9 at rep/9, 5 at rep/3 and 3 at rep, repeated",
    "Li et al., JMLR 18 (2018)", hyperband_start, hyperband_next, hyperband_rep, NULL, hyperband_stop, 0,
};
