/* policy_mls.c — Kernel Tuner's "mls" (multi-start local search, strategies/mls.py with greedy_mls.py): from a
 * uniformly random configuration, steepest-descent hill climbing over the Hamming neighbourhood (configurations
 * that differ in exactly one parameter, by any number of steps, on the space as it is): every neighbour of the
 * base is costed, in Kernel Tuner's order (parameters in a random order, each one's values in a random order), and
 * the climb moves to the best if it beats the base; at a local optimum it restarts from a new random configuration.
 * Each configuration is benchmarked once, for --rep-ms; a configuration already measured costs nothing again (Kernel
 * Tuner's cache). Done when every configuration was benchmarked. Hyperparameters (Kernel Tuner's defaults):
 * neighbor = Hamming, restart = False (best improvement), randomize = True. Reference: Kernel Tuner 1.5
 * (van Werkhoven, FGCS 90, 2019; Schoonhoven et al., "Benchmarking optimization algorithms for auto-tuning GPU
 * kernels", IEEE TEVC 2022). */
#include "policy_climb.h"

#include <stdlib.h>

struct st_mls {
    struct pol_climb cl;
    struct pol_asked a;
    int climbing, fruitless;
};

static void mls_stop(void *p)
{
    struct st_mls *st = p;
    pol_climb_free(&st->cl);
    pol_asked_free(&st->a);
    free(st);
}

static void *mls_start(const struct pol_view *v)
{
    struct st_mls *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    if (pol_climb_init(&st->cl, v, POL_NBR_HAMMING, 0) != 0 || pol_asked_init(&st->a, v) != 0) {
        mls_stop(st);
        return NULL;
    }
    return st;
}

static int mls_next(void *p, const struct pol_view *v)
{
    struct st_mls *st = p;
    for (;;) {
        if (!st->climbing) {
            int k = pol_asked_random(&st->a, v, st->fruitless++);
            if (k < 0)
                return -1;
            pol_climb_begin(&st->cl, k);
            st->climbing = 1;
        }
        int k = pol_climb_step(&st->cl, v);
        if (k >= 0) {
            st->fruitless = 0;
            return pol_asked_mark(&st->a, k);
        }
        st->climbing = 0; /* a local optimum: restart */
    }
}

const struct policy_ops policy_mls = {
    "mls-hamming", "tunecost's repair of Kernel Tuner's mls: steepest descent on true Hamming neighbours, restarts",
    "Kernel Tuner 1.5 mls (Schoonhoven et al., IEEE TEVC 2022)", mls_start, mls_next, pol_rep_once, NULL, mls_stop, 0,
};
