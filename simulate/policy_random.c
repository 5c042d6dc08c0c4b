/* policy_random.c — random search: configurations in a uniformly random order without repetition, each given the
 * user's repetition time. The paper's tuner (its §5.3.2) and the baseline every other policy is scored against.
 * Hyperparameters: none (the repetition time is --rep-ms). Reference: Bergstra & Bengio, "Random search for
 * hyper-parameter optimization", JMLR 13 (2012). */
#include "policy.h"

#include <stdlib.h>

struct st_random {
    int *order, next;
};

static void *random_start(const struct pol_view *v)
{
    struct st_random *st = calloc(1, sizeof *st);
    if (st == NULL || (st->order = malloc((size_t)v->n_configs * sizeof *st->order)) == NULL) {
        free(st);
        return NULL;
    }
    for (int k = 0; k < v->n_configs; k++)
        st->order[k] = k;
    return st;
}

/* A Fisher-Yates shuffle taken one position at a time, as `tunecost simulate` draws (sim_sample_start in sim.h):
 * position q swaps with q + U{0 .. n-q-1}. Drawing lazily leaves the stream exactly as simulate's when a run
 * ends after N_CONFIG configurations. */
static int random_next(void *p, const struct pol_view *v)
{
    struct st_random *st = p;
    int q = st->next, n = v->n_configs;
    if (q >= n)
        return -1;
    int j = q + (int)gsl_rng_uniform_int(v->rng, (unsigned long)(n - q)), t = st->order[q];
    st->order[q] = st->order[j];
    st->order[j] = t;
    st->next++;
    return st->order[q];
}

static double random_rep(void *p, const struct pol_view *v, int c)
{
    (void)p;
    (void)c;
    return v->rep_ms;
}

static void random_stop(void *p)
{
    struct st_random *st = p;
    free(st->order);
    free(st);
}

const struct policy_ops policy_random = {
    "random", "uniformly random order, each configuration once for --rep-ms (the paper's tuner)",
    "Bergstra & Bengio, JMLR 13 (2012)", random_start, random_next, random_rep, NULL, random_stop, 0,
};
