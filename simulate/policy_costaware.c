/* policy_costaware.c — random search that uses what a tuner knows before benchmarking: configurations its
 * restrictions exclude (known_invalid: "out of resources", shared memory or registers over the limit, known from
 * the parameters under --failed-cost none; under triton nothing is known, and it pays for the failures it picks
 * as every policy does) are skipped, and among CANDIDATES random unmeasured configurations the one with the lowest predicted
 * compile time is measured next. The prediction of a configuration's compile time is the mean compile time of
 * the configurations compiled so far (the only compile times a tuner knows) that share the most parameter values
 * with it (the overall mean while none is measured). Hyperparameters: CANDIDATES = 4. Reference: cost-aware search as in "Towards Cost-Efficient
 * Autotuners for Machine Learning Systems" (compile time dominates tuning cost) and Kernel Tuner's restrictions,
 * which skip invalid configurations before compiling. */
#include "policy.h"

#include <math.h>
#include <stdlib.h>

#define CA_CANDIDATES 4

struct st_costaware {
    int *done; /* per configuration: measured (or skipped) */
    int n_left;
    /* The configurations a prediction averages over, ascending (the order of the sums): those picked whose
     * compile time is known, and those picked whose compile time is not known yet */
    int *known, n_known, *pending, n_pending;
};

static void *costaware_start(const struct pol_view *v)
{
    struct st_costaware *st = calloc(1, sizeof *st);
    if (st == NULL || (st->done = calloc((size_t)v->n_configs, sizeof *st->done)) == NULL ||
        (st->known = malloc(((size_t)v->n_configs + 1) * sizeof *st->known)) == NULL ||
        (st->pending = malloc(((size_t)v->n_configs + 1) * sizeof *st->pending)) == NULL) {
        if (st != NULL) {
            free(st->done);
            free(st->known);
        }
        free(st);
        return NULL;
    }
    for (int k = 0; k < v->n_configs; k++) {
        st->done[k] = v->cfg[k].known_invalid; /* never compiled, never launched */
        st->n_left += !st->done[k];
    }
    return st;
}

/* Move the picked configurations whose compile time is now known into st->known, keeping it ascending. */
static void learn_compiles(struct st_costaware *st, const struct pol_view *v)
{
    int kept = 0;
    for (int q = 0; q < st->n_pending; q++) {
        int j = st->pending[q], i = st->n_known;
        if (isnan(v->compile_ms[j])) {
            st->pending[kept++] = j;
            continue;
        }
        for (; i > 0 && st->known[i - 1] > j; i--)
            st->known[i] = st->known[i - 1];
        st->known[i] = j;
        st->n_known++;
    }
    st->n_pending = kept;
}

static double predict_compile(const struct st_costaware *st, const struct pol_view *v, int k)
{
    int best_shared = -1, n = 0;
    double sum = 0;
    for (int q = 0; q < st->n_known; q++) { /* ascending: the same sums as a scan of every configuration */
        int j = st->known[q];
        int shared = 0;
        for (int p = 0; p < v->n_params; p++)
            shared += v->cfg[j].params[p] == v->cfg[k].params[p];
        if (shared > best_shared) {
            best_shared = shared;
            sum = 0;
            n = 0;
        }
        if (shared == best_shared) {
            sum += v->compile_ms[j];
            n++;
        }
    }
    return n > 0 ? sum / n : 0; /* nothing measured yet: every candidate alike */
}

static int costaware_next(void *p, const struct pol_view *v)
{
    struct st_costaware *st = p;
    int best = -1;
    double best_pred = INFINITY;
    learn_compiles(st, v);
    for (int c = 0; c < CA_CANDIDATES && st->n_left > 0; c++) {
        int k = pol_pick_unmarked(v, st->done, st->n_left);
        if (k < 0)
            break;
        double pred = predict_compile(st, v, k);
        if (pred < best_pred) {
            best = k;
            best_pred = pred;
        }
    }
    if (best >= 0) {
        st->done[best] = 1;
        st->n_left--;
        st->pending[st->n_pending++] = best; /* known_invalid ones are never picked: they start done */
    }
    return best;
}

static double costaware_rep(void *p, const struct pol_view *v, int c)
{
    (void)p;
    (void)c;
    return v->rep_ms;
}

static void costaware_stop(void *p)
{
    struct st_costaware *st = p;
    free(st->done);
    free(st->known);
    free(st->pending);
    free(st);
}

const struct policy_ops policy_costaware = {
    "costaware", "random, skipping what restrictions exclude, preferring configurations predicted to compile fast",
    "compile-cost-aware search; Kernel Tuner restrictions", costaware_start, costaware_next, costaware_rep, NULL,
    costaware_stop, 0,
};
