/* policy_blockm.c — the worked example of docs/simulation.md ("Adding a policy"): configurations in ascending
 * order of their first parameter, each measured once for --rep-ms. Hyperparameters: none. Reference: none (a
 * demonstration). Compiled into tests/test-policies, which checks its order; to make it a built-in policy, move
 * it to simulate/, list it in simulate/meson.build and add &policy_blockm to policy_registry (policy_registry.c). */
#include "policy.h"

#include <stdlib.h>

struct st_blockm {
    int *order, next;
};

/* qsort_r order: ascending first parameter of the pol_view ctx's configurations. */
static int by_p0(const void *a, const void *b, void *ctx)
{
    const struct pol_view *v = ctx;
    int32_t x = v->cfg[*(const int *)a].params[0], y = v->cfg[*(const int *)b].params[0];
    return (x > y) - (x < y);
}

static void *blockm_start(const struct pol_view *v)
{
    struct st_blockm *st = calloc(1, sizeof *st);
    if (st == NULL || (st->order = malloc(((size_t)v->n_configs + 1) * sizeof *st->order)) == NULL) {
        free(st);
        return NULL;
    }
    for (int k = 0; k < v->n_configs; k++)
        st->order[k] = k;
    qsort_r(st->order, (size_t)v->n_configs, sizeof *st->order, by_p0, (void *)v);
    return st;
}

static int blockm_next(void *p, const struct pol_view *v)
{
    struct st_blockm *st = p;
    return st->next < v->n_configs ? st->order[st->next++] : -1;
}

static double blockm_rep(void *p, const struct pol_view *v, int c)
{
    (void)p;
    (void)c;
    return v->rep_ms;
}

static void blockm_stop(void *p)
{
    struct st_blockm *st = p;
    free(st->order);
    free(st);
}

const struct policy_ops policy_blockm = {
    "blockm", "ascending first parameter, each once for --rep-ms", "none (a demonstration)",
    blockm_start, blockm_next, blockm_rep, NULL /* observe: not needed */, blockm_stop, 0,
};
