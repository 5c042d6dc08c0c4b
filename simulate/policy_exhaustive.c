/* policy_exhaustive.c — exhaustive search in the trace's order: every configuration once, for the user's
 * repetition time. Hyperparameters: none. Reference: brute force, as Kernel Tuner's "brute_force" strategy. */
#include "policy.h"

#include <stdlib.h>

static void *exhaustive_start(const struct pol_view *v)
{
    (void)v;
    return calloc(1, sizeof(int));
}

static int exhaustive_next(void *p, const struct pol_view *v)
{
    int *next = p;
    return *next < v->n_configs ? (*next)++ : -1;
}

static double exhaustive_rep(void *p, const struct pol_view *v, int c)
{
    (void)p;
    (void)c;
    return v->rep_ms;
}

const struct policy_ops policy_exhaustive = {
    "exhaustive", "every configuration once, in the trace's order", "brute force (Kernel Tuner's brute_force)",
    exhaustive_start, exhaustive_next, exhaustive_rep, NULL, free, 0,
};
