/* policy_transfer.c — a warm start from another GPU: the configurations in the order of their times on the other
 * GPU for the same input (pol_data_set_prior; `tunecost policies --transfer-from TRACE`), each the start of a
 * local search as in `mls` (steepest descent over Hamming neighbours). The first start is the other GPU's best;
 * after each local optimum the next start is the best-ranked configuration not yet benchmarked; once the ranking is
 * used up (configurations that failed there or are missing there come last), starts are random. Each
 * configuration is benchmarked once, for --rep-ms. Needs a prior. Hyperparameters: none. Reference: transfer of
 * tuning results across GPUs as in "Towards a Benchmarking Suite for Kernel Tuners" (Tørring et al., 2023) and
 * Kernel Tuner's x0 start; the local search is Kernel Tuner 1.5's mls. */
#include "policy_climb.h"

#include <math.h>
#include <stdlib.h>

struct st_transfer {
    struct pol_climb cl;
    struct pol_asked a;
    int *order, n_order, pos; /* configurations with a prior, ascending prior time */
    int climbing, fruitless;
};

static void transfer_stop(void *p)
{
    struct st_transfer *st = p;
    pol_climb_free(&st->cl);
    pol_asked_free(&st->a);
    free(st->order);
    free(st);
}

/* qsort_r order: ascending prior time, then configuration index. */
static int by_prior(const void *a, const void *b, void *ctx)
{
    const double *prior = ctx;
    int x = *(const int *)a, y = *(const int *)b;
    if (prior[x] != prior[y])
        return prior[x] < prior[y] ? -1 : 1;
    return (x > y) - (x < y);
}

static void *transfer_start(const struct pol_view *v)
{
    struct st_transfer *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    st->order = malloc(((size_t)v->n_configs + 1) * sizeof *st->order);
    if (st->order == NULL || pol_climb_init(&st->cl, v, POL_NBR_HAMMING, 0) != 0 || pol_asked_init(&st->a, v) != 0) {
        transfer_stop(st);
        return NULL;
    }
    for (int k = 0; v->prior_ms != NULL && k < v->n_configs; k++)
        if (!isnan(v->prior_ms[k]))
            st->order[st->n_order++] = k;
    qsort_r(st->order, (size_t)st->n_order, sizeof *st->order, by_prior, (void *)v->prior_ms);
    return st;
}

static int transfer_next(void *p, const struct pol_view *v)
{
    struct st_transfer *st = p;
    for (;;) {
        if (!st->climbing) {
            int k = -1;
            while (st->pos < st->n_order && st->a.asked[st->order[st->pos]])
                st->pos++;
            k = st->pos < st->n_order ? st->order[st->pos] : pol_asked_random(&st->a, v, st->fruitless++);
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
        st->climbing = 0;
    }
}

const struct policy_ops policy_transfer = {
    "transfer", "another GPU's ranking as the starts of mls-hamming's local search (--transfer-from)",
    "warm start from another GPU; Kernel Tuner 1.5 mls", transfer_start, transfer_next, pol_rep_once, NULL,
    transfer_stop, 1,
};
