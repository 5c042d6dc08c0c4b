/* test-policy-helion.c — Helion's search algorithms as policies (simulate/policy_pattern.c, policy_lfbo.c), driven
 * through their struct policy_ops on a hand-built view (no trace: the test plays the engine's part and writes each
 * benchmark's result). The space is BLOCK_M x BLOCK_N x NUM_WARPS, 5 values each (125 configurations, index =
 * 25 m + 5 n + w); a configuration's time is 1 + |m - 1| + |n - 3| + |w - 2| ms (one minimum, at (1, 3, 2) =
 * configuration 42), and configurations with m = 4 and n = 4 fail. The expected batches are worked out in the
 * test from Helion's rules as its source states them (pattern_search.py, surrogate_pattern_search.py), not from
 * the policy's code. */
#include "policy.h"
#include "test-common.h"

#include <check.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NC 125

struct hv {
    struct pol_view v;
    struct pol_config cfg[NC];
    int32_t params[NC][3], vals[3][5];
    const int32_t *valp[3];
    int n_values[3], n_exec[NC], failed[NC];
    unsigned char kind[3];
    double est[NC];
    gsl_rng *rng;
};

static void hv_init(struct hv *h, unsigned long seed)
{
    memset(h, 0, sizeof *h);
    for (int p = 0; p < 3; p++) {
        for (int i = 0; i < 5; i++)
            h->vals[p][i] = i;
        h->valp[p] = h->vals[p];
        h->n_values[p] = 5;
    }
    for (int c = 0; c < NC; c++) {
        h->params[c][0] = c / 25;
        h->params[c][1] = c / 5 % 5;
        h->params[c][2] = c % 5;
        h->cfg[c].params = h->params[c];
        h->est[c] = NAN;
    }
    h->kind[0] = h->kind[1] = POL_PARAM_BLOCK;
    h->kind[2] = POL_PARAM_WARPS;
    h->rng = gsl_rng_alloc(gsl_rng_mt19937);
    ck_assert_ptr_nonnull(h->rng);
    gsl_rng_set(h->rng, seed);
    h->v.n_configs = NC;
    h->v.n_params = 3;
    h->v.cfg = h->cfg;
    h->v.n_values = h->n_values;
    h->v.values = h->valp;
    h->v.param_kind = h->kind;
    h->v.est_ms = h->est;
    h->v.n_exec = h->n_exec;
    h->v.failed = h->failed;
    h->v.best = -1;
    h->v.rep_ms = 100;
    h->v.rng = h->rng;
}

static double time_of(int c)
{
    if (c / 25 == 4 && c / 5 % 5 == 4)
        return INFINITY;
    return 1 + abs(c / 25 - 1) + abs(c / 5 % 5 - 3) + abs(c % 5 - 2);
}

/* The engine's part: benchmark c once. */
static void bench(struct hv *h, int c)
{
    ck_assert_int_eq(h->n_exec[c], 0); /* every configuration is benchmarked once */
    ck_assert(!h->failed[c]);
    if (isinf(time_of(c))) {
        h->failed[c] = 1;
    } else {
        h->est[c] = time_of(c);
        h->n_exec[c] = 1;
    }
}

/* Run a policy to its end; order[] gets the configurations in the order asked, returns how many. */
static int play(const struct policy_ops *ops, struct hv *h, int *order)
{
    ck_assert_ptr_nonnull(ops);
    void *st = ops->start(&h->v);
    int n = 0, c;
    ck_assert_ptr_nonnull(st);
    while ((c = ops->next(st, &h->v)) >= 0) {
        ck_assert_int_lt(n, NC);
        ck_assert_double_eq(ops->rep_ms(st, &h->v, c), 100);
        bench(h, c);
        order[n++] = c;
    }
    ops->stop(st);
    return n;
}

static int cmp_time(const void *a, const void *b)
{
    double x = time_of(*(const int *)a), y = time_of(*(const int *)b);
    return (x > y) - (x < y);
}

static int at(int m, int n, int w)
{
    return m < 0 || m > 4 || n < 0 || n > 4 || w < 0 || w > 4 ? -1 : 25 * m + 5 * n + w;
}

START_TEST(test_pattern_population_then_neighbour_batches)
{
    /* Helion's PatternSearch at full effort: 100 random configurations first (all distinct); the 5 best that did
     * not fail (stable sort: ties keep the order they were drawn in) start 5 copies; generation 1 is, copy by copy,
     * every single-parameter step of +-1 (in order: BLOCK_M -1, +1, BLOCK_N -1, +1, NUM_WARPS -1, +1) and every
     * combination of a BLOCK_M step and a BLOCK_N step (-1/-1, -1/+1, +1/-1, +1/+1), leaving out what the population
     * or an earlier copy already visited; every later configuration is such a neighbour of one asked before (the
     * copies stand on configurations benchmarked earlier). */
    struct hv h;
    int order[NC], pop[100], want[NC], n_want = 0;
    unsigned char visited[NC] = {0};
    hv_init(&h, 11);
    int n = play(policy_find("pattern"), &h, order);
    ck_assert_int_gt(n, 100);
    memcpy(pop, order, sizeof pop);
    for (int i = 0; i < 100; i++) {
        ck_assert_int_eq(visited[pop[i]], 0);
        visited[pop[i]] = 1;
    }
    /* stable sort by time: insertion keeps the draw order among ties */
    for (int i = 1; i < 100; i++)
        for (int j = i; j > 0 && cmp_time(&pop[j - 1], &pop[j]) > 0; j--) {
            int t = pop[j];
            pop[j] = pop[j - 1];
            pop[j - 1] = t;
        }
    for (int s = 0; s < 5; s++) {
        int c = pop[s], m = c / 25, nn = c / 5 % 5, w = c % 5;
        int single[6] = {at(m - 1, nn, w), at(m + 1, nn, w), at(m, nn - 1, w), at(m, nn + 1, w), at(m, nn, w - 1),
                         at(m, nn, w + 1)};
        int pair[4] = {at(m - 1, nn - 1, w), at(m - 1, nn + 1, w), at(m + 1, nn - 1, w), at(m + 1, nn + 1, w)};
        for (int i = 0; i < 10; i++) {
            int k = i < 6 ? single[i] : pair[i - 6];
            if (k >= 0 && !visited[k]) {
                visited[k] = 1;
                want[n_want++] = k;
            }
        }
    }
    ck_assert_int_gt(n_want, 0); /* (with this seed: the population left neighbours of the 5 best unvisited) */
    /* the batch asks for these in this order; those that fail are asked too (they fail when benchmarked) */
    ck_assert_int_ge(n, 100 + n_want);
    for (int i = 0; i < n_want; i++)
        ck_assert_int_eq(order[100 + i], want[i]);
    for (int i = 100 + n_want; i < n; i++) {
        int near = 0, c = order[i];
        for (int j = 0; j < i && !near; j++) {
            int dm = abs(c / 25 - order[j] / 25), dn = abs(c / 5 % 5 - order[j] / 5 % 5);
            int dw = abs(c % 5 - order[j] % 5);
            near = dm + dn + dw == 1 || (dm == 1 && dn == 1 && dw == 0);
        }
        ck_assert_msg(near, "configuration %d (ask %d) is no pattern neighbour of an earlier one", c, i);
    }
    gsl_rng_free(h.rng);
}
END_TEST

START_TEST(test_pattern_stops_when_the_population_covers_the_space)
{
    /* A space of 125 configurations of which 100 are drawn first leaves 25. With every configuration known
     * invalid but 60 (m <= 1, or m == 2 and n <= 1), the population is the whole space (60 < 100): no copy can
     * propose anything new, and the search ends after exactly 60 benchmarks. */
    struct hv h;
    int order[NC];
    hv_init(&h, 3);
    for (int c = 0; c < NC; c++)
        h.cfg[c].known_invalid = !(c / 25 <= 1 || (c / 25 == 2 && c / 5 % 5 <= 1));
    ck_assert_int_eq(play(policy_find("pattern"), &h, order), 60);
    gsl_rng_free(h.rng);
}
END_TEST

START_TEST(test_lfbo_selects_a_tenth_of_its_random_neighbours)
{
    /* LFBOTreeSearch: the same 100 random configurations first; then per copy 200 neighbours are drawn,
     * of which those unvisited are candidates, and int(0.1 x (candidates + 1)) of them (the copy's own
     * configuration counted in) are benchmarked. Each of a copy's neighbours moves one block size up to 2 steps,
     * NUM_WARPS up to 2 steps and at most 2 further parameters one step (generations 1 and 2), or each parameter on
     * a tree's path up to 2 steps (later): so every configuration of generation 1 lies within 2 steps of a starting
     * point in each parameter, and every later one within 2 steps of a
     * configuration asked before (the copies stand on benchmarked configurations). Which neighbours the forest
     * picks depends on the random stream; these bounds, and that nothing is asked twice (play checks), do not. */
    struct hv h;
    int order[NC], pop[100];
    hv_init(&h, 5);
    int n = play(policy_find("lfbo"), &h, order);
    ck_assert_int_ge(n, 100);
    memcpy(pop, order, sizeof pop);
    for (int i = 1; i < 100; i++)
        for (int j = i; j > 0 && cmp_time(&pop[j - 1], &pop[j]) > 0; j--) {
            int t = pop[j];
            pop[j] = pop[j - 1];
            pop[j - 1] = t;
        }
    for (int i = 100; i < n; i++) {
        int near = 0;
        for (int j = 0; j < i && !near; j++)
            near = abs(order[i] / 25 - order[j] / 25) <= 2 && abs(order[i] / 5 % 5 - order[j] / 5 % 5) <= 2 &&
                   abs(order[i] % 5 - order[j] % 5) <= 2;
        ck_assert(near);
    }
    for (int i = 100; i < n; i++) { /* generation 1 first: near a starting point */
        int near = 0;
        for (int s = 0; s < 5 && !near; s++)
            near = abs(order[i] / 25 - pop[s] / 25) <= 2 && abs(order[i] / 5 % 5 - pop[s] / 5 % 5) <= 2 &&
                   abs(order[i] % 5 - pop[s] % 5) <= 2;
        if (!near)
            break;
    }
    ck_assert_int_le(n, NC);
    gsl_rng_free(h.rng);
}
END_TEST

START_TEST(test_lfbo_stops_at_once_with_few_candidates)
{
    /* 105 configurations in the space (the other 20 known invalid): after the population of 100 a copy has at
     * most 5 unvisited candidates + itself = 6, and int(0.1 x 6) = 0 picks: every copy stops before generation
     * 1, so the search ends after exactly 100 benchmarks (Helion's _surrogate_select returns nothing). */
    struct hv h;
    int order[NC];
    hv_init(&h, 9);
    for (int c = 0; c < 20; c++)
        h.cfg[c].known_invalid = 1;
    ck_assert_int_eq(play(policy_find("lfbo"), &h, order), 100);
    gsl_rng_free(h.rng);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("policy-helion");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_pattern_population_then_neighbour_batches);
    tcase_add_test(tc, test_pattern_stops_when_the_population_covers_the_space);
    tcase_add_test(tc, test_lfbo_selects_a_tenth_of_its_random_neighbours);
    tcase_add_test(tc, test_lfbo_stops_at_once_with_few_candidates);
    suite_add_tcase(s, tc);
    return tt_run(s);
}
