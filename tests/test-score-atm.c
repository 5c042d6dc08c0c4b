/* test-score-atm.c — the methodology's score (simulate/score_atm.h) on tiny spaces worked out by hand: the expected
 * best rank of k draws without replacement, an input's frame (range, baseline) with equal costs and with a failure
 * (six orders enumerated), a run's ranks and score, an input's score from the mean rank, and the bootstrap. */
#include "score_atm.h"
#include "test-common.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

/* 4 valid configurations with run times 1, 2, 4, 8 ms (ranks 1..4). The best of k drawn without replacement, by
 * enumeration: k = 1: (1 + 2 + 3 + 4) / 4 = 2.5; k = 2: the 6 pairs' minima 1,1,1,2,2,3 -> 10/6; k = 3: the 4
 * triples' minima 1,1,1,2 -> 5/4; k = 4: 1. */
START_TEST(test_atm_expected_best_rank_of_four_by_hand)
{
    ck_assert_double_eq_tol(atm_expected_rank(4, 1), 2.5, 1e-15);
    ck_assert_double_eq_tol(atm_expected_rank(4, 2), 10.0 / 6, 1e-15);
    ck_assert_double_eq_tol(atm_expected_rank(4, 3), 5.0 / 4, 1e-15);
    ck_assert_double_eq_tol(atm_expected_rank(4, 4), 1, 1e-15);
}
END_TEST

/* The four configurations, 1 s each, and one refused before compiling (cost 0, invalid): every order has its j-th
 * valid one done at j s. median 3 ms (between ranks 2 and 3), cutoff 0.95: f_cut = 1 + (3 - 1) x 0.05 = 1.1 ms,
 * rank 1.1; the expected best rank is 5 / (j + 1) <= 1.1 only at j = 4: t1 = 4 s; t0 = 1 s (the cheapest valid).
 * With 4 points at 1, 1.75, 2.5, 3.25 s: j = 1, 1, 2, 3 -> ranks 2.5, 2.5, 5/3, 5/4 -> 3, 3, 1 + 2/3, 1.25 ms. */
static void equal_cost_frame(struct atm_frame *f)
{
    const int valid[5] = {1, 1, 0, 1, 1};
    const double tr[5] = {4, 1, NAN, 8, 2}, cost[5] = {1000, 1000, 0, 1000, 1000};
    ck_assert_int_eq(atm_frame_init(f, 5, valid, tr, cost, 0.95, 4, 7), 0);
}

START_TEST(test_atm_frame_equal_costs_by_hand)
{
    struct atm_frame f;
    equal_cost_frame(&f);
    ck_assert_int_eq(f.usable, 1);
    ck_assert_int_eq(f.n_valid, 4);
    ck_assert_double_eq_tol(f.median_ms, 3, 1e-12);
    ck_assert_double_eq_tol(f.cut_ms, 1.1, 1e-12);
    ck_assert_double_eq_tol(f.per_eval_s, 1, 1e-12);
    ck_assert_double_eq_tol(f.t0_s, 1, 1e-12);
    ck_assert_double_eq_tol(f.t1_s, 4, 1e-12);
    const double t[4] = {1, 1.75, 2.5, 3.25}, b[4] = {3, 3, 1 + 2.0 / 3, 1.25};
    for (int g = 0; g < 4; g++) {
        ck_assert_double_eq_tol(f.time_s[g], t[g], 1e-12);
        ck_assert_double_eq_tol(f.base_ms[g], b[g], 1e-12);
    }
    atm_frame_free(&f);
}
END_TEST

/* Two valid configurations (1 and 2 ms) and a compile error, 1 s each. The six orders: failure first (2 orders)
 * -> valid ones done at 2 and 3 s; failure second (2) -> 1 and 3 s; failure last (2) -> 1 and 2 s. E[T_1] =
 * (2+2+1+1+1+1)/6 = 4/3 s = per_eval (1 + 1/(2+1) x 1). Expected best rank: 1.5 until the second valid one is
 * done (0 or 1 done: an uninformed choice, rank (2+1)/2); at 2 s one third of the orders have both: (1/3) 1 +
 * (2/3) 1.5 = 4/3 (1.3333 ms); at 3 s all: rank 1. median 1.5 ms, f_cut = 1.025 ms, rank 1.05: t1 = 3 s. With 4
 * points at 1, 1.5, 2, 2.5 s: 1.5, 1.5, 1.3333, 1.3333 ms (the last two sampled over 1000 orders: within 0.03). */
START_TEST(test_atm_frame_with_a_failure_by_hand)
{
    const int valid[3] = {1, 0, 1};
    const double tr[3] = {2, NAN, 1}, cost[3] = {1000, 1000, 1000};
    struct atm_frame f;
    ck_assert_int_eq(atm_frame_init(&f, 3, valid, tr, cost, 0.95, 4, 11), 0);
    ck_assert_int_eq(f.usable, 1);
    ck_assert_double_eq_tol(f.per_eval_s, 4.0 / 3, 1e-12);
    ck_assert_double_eq_tol(f.t1_s, 3, 1e-12);
    ck_assert_double_eq_tol(f.base_ms[0], 1.5, 1e-12);
    ck_assert_double_eq_tol(f.base_ms[1], 1.5, 1e-12);
    ck_assert_double_eq_tol(f.base_ms[2], 4.0 / 3, 0.03);
    ck_assert_double_eq_tol(f.base_ms[3], 4.0 / 3, 0.03);
    atm_frame_free(&f);
}
END_TEST

/* On the equal-cost frame (base 3, 3, 5/3, 1.25 ms; f_opt 1): run A finds 2 ms at 1.0 s and 1 ms at 2.0 s ->
 * ranks 2, 2, 1, 1, run times 2, 2, 1, 1, score ((3-2)/2 + (3-2)/2 + 1 + 1) / 4 = 0.75. Run B finds nothing ->
 * rank 2.5 (3 ms) throughout: (0 + 0 + (5/3 - 3)/(2/3) + (1.25 - 3)/0.25) / 4 = (-2 - 7) / 4 = -2.25. The input's
 * score from their mean ranks 2.25, 2.25, 1.75, 1.75 (2.5, 2.5, 1.75, 1.75 ms):
 * (0.25 + 0.25 + (5/3 - 1.75)/(2/3) + (1.25 - 1.75)/0.25) / 4 = (0.5 - 0.125 - 2) / 4 = -0.40625. */
START_TEST(test_atm_run_ranks_and_scores_by_hand)
{
    struct atm_frame f;
    double ra[4], rb[4], mean[4], ms[4];
    const double ta[2] = {1.0, 2.0}, fa[2] = {2, 1};
    equal_cost_frame(&f);
    atm_run_ranks(&f, ta, fa, 2, ra);
    atm_run_ranks(&f, NULL, NULL, 0, rb);
    const double want_a[4] = {2, 2, 1, 1};
    for (int g = 0; g < 4; g++) {
        ck_assert_double_eq_tol(ra[g], want_a[g], 1e-15);
        ck_assert_double_eq_tol(rb[g], 2.5, 1e-15);
        mean[g] = (ra[g] + rb[g]) / 2;
    }
    ck_assert_double_eq_tol(atm_input_score(&f, ra, NULL), 0.75, 1e-12);
    ck_assert_double_eq_tol(atm_input_score(&f, rb, NULL), -2.25, 1e-9); /* the baseline is a sum over 1000 orders */
    ck_assert_double_eq_tol(atm_input_score(&f, mean, ms), -0.40625, 1e-9);
    ck_assert_double_eq_tol(ms[0], 2.5, 1e-12);
    ck_assert_double_eq_tol(ms[3], 1.75, 1e-12);
    /* a time computed back from a speedup (opt / (opt / t)) finds its own rank */
    ck_assert_double_eq(atm_rank_of_ms(&f, 1.0 / (1.0 / 4.0)), 3);
    atm_frame_free(&f);
}
END_TEST

/* Three inputs: 0 with 3 runs all like A (score 0.75), 1 not usable, 2 with 3 runs all like B (-2.25). Mean over
 * usable inputs -0.75. Runs within an input are identical, so a replicate is the mean of two inputs drawn with
 * replacement: 0.75 (prob 1/4), -0.75 (1/2), -2.25 (1/4); the 2.5% and 97.5% points of 1000 replicates fall among
 * the extremes. The same seed gives the same interval. */
START_TEST(test_atm_aggregate_over_inputs)
{
    struct atm_frame fr[3];
    double rank[3 * 3 * 4], is[3], m, lo, hi, m2, lo2, hi2;
    const double ta[2] = {1.0, 2.0}, fa[2] = {2, 1};
    equal_cost_frame(&fr[0]);
    fr[1] = fr[0];
    fr[1].usable = 0;
    fr[2] = fr[0];
    for (int r = 0; r < 3; r++) {
        atm_run_ranks(&fr[0], ta, fa, 2, rank + (0 * 3 + r) * 4);
        atm_run_ranks(&fr[0], NULL, NULL, 0, rank + (1 * 3 + r) * 4);
        atm_run_ranks(&fr[0], NULL, NULL, 0, rank + (2 * 3 + r) * 4);
    }
    ck_assert_int_eq(atm_aggregate(fr, rank, 3, 3, 4, 42, 1000, is, &m, &lo, &hi, NULL), 2);
    ck_assert_double_eq_tol(is[0], 0.75, 1e-12);
    ck_assert(isnan(is[1]));
    ck_assert_double_eq_tol(is[2], -2.25, 1e-9);
    ck_assert_double_eq_tol(m, -0.75, 1e-9);
    ck_assert_double_eq_tol(lo, -2.25, 1e-9);
    ck_assert_double_eq_tol(hi, 0.75, 1e-12);
    double *rep = malloc(1000 * sizeof *rep), share[2];
    ck_assert_int_eq(atm_aggregate(fr, rank, 3, 3, 4, 42, 1000, is, &m2, &lo2, &hi2, rep), 2);
    ck_assert(m == m2 && lo == lo2 && hi == hi2);
    int n_hi = 0, n_lo = 0; /* the replicates take the three values with probabilities 1/4, 1/2, 1/4 */
    for (int b = 0; b < 1000; b++) {
        ck_assert(fabs(rep[b] - 0.75) < 1e-9 || fabs(rep[b] + 0.75) < 1e-9 || fabs(rep[b] + 2.25) < 1e-9);
        n_hi += fabs(rep[b] - 0.75) < 1e-9;
        n_lo += fabs(rep[b] + 2.25) < 1e-9;
    }
    ck_assert(n_hi > 200 && n_hi < 300 && n_lo > 200 && n_lo < 300);
    /* a policy paired with itself ties in every replicate: half the first place each */
    const double *both[2] = {rep, rep};
    atm_first_share(both, 2, 1000, share);
    ck_assert_double_eq_tol(share[0], 0.5, 1e-12);
    ck_assert_double_eq_tol(share[1], 0.5, 1e-12);
    free(rep);
    atm_frame_free(&fr[0]);
}
END_TEST

/* The share of replicates in which each policy ranks first, by hand: A = 1, 2, 3, 4 and B = 2, 2, 1, 0 over four
 * replicates: B first, a tie, A first, A first -> A (0.5 + 1 + 1) / 4 = 0.625, B (1 + 0.5) / 4 = 0.375; a policy
 * without replicates gets NaN. */
START_TEST(test_atm_first_share_by_hand)
{
    const double a[4] = {1, 2, 3, 4}, b[4] = {2, 2, 1, 0};
    const double *rep[3] = {a, NULL, b};
    double share[3];
    atm_first_share(rep, 3, 4, share);
    ck_assert_double_eq_tol(share[0], 0.625, 1e-15);
    ck_assert(isnan(share[1]));
    ck_assert_double_eq_tol(share[2], 0.375, 1e-15);
}
END_TEST

/* An input whose valid times are all equal cannot be scored (f_rand - f_opt would be 0), nor one valid time. */
START_TEST(test_atm_unscorable_inputs)
{
    struct atm_frame f;
    const int valid[3] = {1, 1, 0};
    const double tr[3] = {2, 2, NAN}, cost[3] = {10, 10, 10};
    ck_assert_int_eq(atm_frame_init(&f, 3, valid, tr, cost, 0.95, 10, 1), 0);
    ck_assert_int_eq(f.usable, 0);
    atm_frame_free(&f);
    ck_assert_int_eq(atm_frame_init(&f, 1, valid, tr, cost, 0.95, 10, 1), 0);
    ck_assert_int_eq(f.usable, 0);
    atm_frame_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("score-atm");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_atm_expected_best_rank_of_four_by_hand);
    tcase_add_test(tc, test_atm_frame_equal_costs_by_hand);
    tcase_add_test(tc, test_atm_frame_with_a_failure_by_hand);
    tcase_add_test(tc, test_atm_run_ranks_and_scores_by_hand);
    tcase_add_test(tc, test_atm_aggregate_over_inputs);
    tcase_add_test(tc, test_atm_unscorable_inputs);
    tcase_add_test(tc, test_atm_first_share_by_hand);
    suite_add_tcase(s, tc);
    return tt_run(s);
}
