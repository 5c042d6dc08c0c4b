/* test-policies.c — the first steps of the random, anneal, hyperband, genetic and bo policies
 * (simulate/policy_*.c) and of the worked example of docs/simulation.md, driven directly through their struct
 * policy_ops on small hand-built views (no trace: the test plays the engine's part and writes the measurements a
 * benchmark would have produced). Every expected value is worked out by hand in the comment beside it; none
 * depends on which random numbers the stream gives (random's order is checked against the documented draw on a
 * clone of the stream; anneal's third acceptance has a chance below 1e-14). */
#include "policy.h"
#include "test-common.h"

#include <check.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A view of a grid of n_params parameters with n_per values each (1..n_per), every combination one
 * configuration, configuration index = mixed-radix number of the value indices (last parameter fastest). */
struct fake {
    struct pol_view v;
    struct pol_config cfg[400];
    int32_t params[400][2], vals[2][400];
    const int32_t *valp[2];
    int n_values[2], n_exec[400], failed[400];
    double est[400];
    gsl_rng *rng;
};

static void fake_init(struct fake *f, int n_params, int n_per, double rep_ms)
{
    memset(f, 0, sizeof *f);
    int n = n_params == 1 ? n_per : n_per * n_per;
    ck_assert_int_le(n, 400);
    for (int p = 0; p < n_params; p++) {
        for (int i = 0; i < n_per; i++)
            f->vals[p][i] = i + 1;
        f->valp[p] = f->vals[p];
        f->n_values[p] = n_per;
    }
    for (int c = 0; c < n; c++) {
        if (n_params == 1) {
            f->params[c][0] = c + 1;
        } else {
            f->params[c][0] = c / n_per + 1;
            f->params[c][1] = c % n_per + 1;
        }
        f->cfg[c].params = f->params[c];
        f->est[c] = NAN;
    }
    f->rng = gsl_rng_alloc(gsl_rng_mt19937);
    ck_assert_ptr_nonnull(f->rng);
    gsl_rng_set(f->rng, 7);
    f->v.n_configs = n;
    f->v.n_params = n_params;
    f->v.cfg = f->cfg;
    f->v.n_values = f->n_values;
    f->v.values = f->valp;
    f->v.est_ms = f->est;
    f->v.n_exec = f->n_exec;
    f->v.failed = f->failed;
    f->v.best = -1;
    f->v.rep_ms = rep_ms;
    f->v.rng = f->rng;
}

static void measured(struct fake *f, int c, double est_ms, int n_exec)
{
    f->est[c] = est_ms;
    f->n_exec[c] = n_exec;
}

START_TEST(test_hyperband_first_bracket_on_three_configurations)
{
    /* 3 configurations, --rep-ms 90. Bracket s = 2 asks for ceil(3/3 * 3^2) = 9 configurations; only 3 exist,
     * so it draws all three (in a random order) and gives each 90 / 3^2 = 10 ms. Say c0 measured 4 ms x 3
     * (12 ms had), c1 2 ms x 5 (10 ms), c2 failed. Rung 1 keeps max(1, floor(3/3)) = 1: the best, c1, which
     * gets 90 / 3 = 30 ms in all, so 30 - 10 = 20 ms more. Rung 2 keeps max(1, floor(1/3)) = 1: c1 again, up to
     * 90 ms: after 15 executions of 2 ms (30 ms) that is 60 ms more. Bracket s = 1 finds no configuration not
     * drawn before, so the policy is done. */
    struct fake f;
    fake_init(&f, 1, 3, 90);
    const struct policy_ops *ops = policy_find("hyperband");
    ck_assert_ptr_nonnull(ops);
    void *st = ops->start(&f.v);
    ck_assert_ptr_nonnull(st);
    int seen[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        int c = ops->next(st, &f.v);
        ck_assert(c >= 0 && c < 3 && !seen[c]);
        seen[c] = 1;
        ck_assert_double_eq_tol(ops->rep_ms(st, &f.v, c), 10, 1e-12);
        if (c == 0)
            measured(&f, 0, 4, 3);
        else if (c == 1)
            measured(&f, 1, 2, 5);
        else
            f.failed[2] = 1;
    }
    ck_assert_int_eq(ops->next(st, &f.v), 1);
    ck_assert_double_eq_tol(ops->rep_ms(st, &f.v, 1), 20, 1e-12);
    measured(&f, 1, 2, 15);
    ck_assert_int_eq(ops->next(st, &f.v), 1);
    ck_assert_double_eq_tol(ops->rep_ms(st, &f.v, 1), 60, 1e-12);
    measured(&f, 1, 2, 45);
    ck_assert_int_eq(ops->next(st, &f.v), -1);
    ops->stop(st);
    gsl_rng_free(f.rng);
}
END_TEST

START_TEST(test_genetic_population_then_the_last_configuration)
{
    /* 2 parameters x 3 values = 9 configurations, --rep-ms 100. Generation 0 is 8 (GA_POP) distinct random
     * configurations, each given the full 100 ms. Generation 1: every child bred from them is either measured
     * already or the one configuration left; bred or drawn as the fallback, the 9th step is that one. Then all
     * were benchmarked, so the policy is done. A configuration measured already is given 0 ms. */
    struct fake f;
    fake_init(&f, 2, 3, 100);
    const struct policy_ops *ops = policy_find("genetic");
    ck_assert_ptr_nonnull(ops);
    void *st = ops->start(&f.v);
    ck_assert_ptr_nonnull(st);
    int seen[9] = {0};
    for (int i = 0; i < 9; i++) {
        int c = ops->next(st, &f.v);
        ck_assert_msg(c >= 0 && c < 9 && !seen[c], "step %d gave %d", i, c);
        seen[c] = 1;
        ck_assert_double_eq(ops->rep_ms(st, &f.v, c), 100);
        measured(&f, c, 1 + c, 1);
        ck_assert_double_eq(ops->rep_ms(st, &f.v, c), 0);
    }
    ck_assert_int_eq(ops->next(st, &f.v), -1);
    ops->stop(st);
    gsl_rng_free(f.rng);
}
END_TEST

START_TEST(test_bo_expected_improvement_by_hand)
{
    /* One parameter with 5 values: coordinates x = 0, .25, .5, .75, 1. Measured: c0 (x = 0) 1 ms and c4 (x = 1)
     * 4 ms, so BO_INIT = 2 observations exist and the model decides. y = log(ms) = 0 and 1.3863, standardised
     * (mean .6931, population deviation .6931) to -1 and +1; y_best = -1.
     * Kernel (length .3): k(0,1) = exp(-1 / .18) = .003866; K = [[1+1e-6, .003866], [.003866, 1+1e-6]];
     * alpha = K^-1 y = (-1, 1) / (1 + 1e-6 - .003866) = (-1.00388, 1.00388).
     *   x = .25: k = (exp(-.0625/.18), exp(-.5625/.18)) = (.70665, .04394); mu = (-.70665 + .04394) 1.00388
     *            = -.66528; k^T K^-1 k = (.70665^2 + .04394^2 - 2 (.003866)(.70665)(.04394)) / (1 - .003866^2)
     *            = .50124, sigma = sqrt(1 - .50124) = .70637; imp = -1 + .66528 - .01 = -.34472, z = -.48802,
     *            EI = -.34472 Phi(z) + .70637 phi(z) = -.34472 (.31277) + .70637 (.35397) = .14235
     *   x = .5:  k = (.24935, .24935), mu = 0, sigma = .93602, imp = -1.01, z = -1.07904,
     *            EI = -1.01 (.14029) + .93602 (.22282) = .06694
     *   x = .75: mu = +.66528, sigma = .70637, imp = -1.67528, z = -2.37167, EI = .00209
     * So the next configuration is c1 (x = .25), given the full 100 ms. */
    struct fake f;
    fake_init(&f, 1, 5, 100);
    measured(&f, 0, 1, 10);
    measured(&f, 4, 4, 10);
    const struct policy_ops *ops = policy_find("bo-ei");
    ck_assert_ptr_nonnull(ops);
    void *st = ops->start(&f.v);
    ck_assert_ptr_nonnull(st);
    int c = ops->next(st, &f.v);
    ck_assert_int_eq(c, 1);
    ck_assert_double_eq(ops->rep_ms(st, &f.v, c), 100);
    ops->stop(st);
    gsl_rng_free(f.rng);
}
END_TEST

START_TEST(test_bo_caps_hold_on_a_larger_space)
{
    /* 2 parameters x 20 values = 400 configurations, 100 of them measured (more than the GP's 32 observations,
     * and 300 unmeasured: more than the 128 candidates scored): every later step must give an unmeasured
     * configuration, each once, and after all 300 the policy is done. The estimates form a bowl with its minimum
     * at configuration 0, times 1 + distance. */
    struct fake f;
    fake_init(&f, 2, 20, 100);
    for (int c = 0; c < 400; c += 4)
        measured(&f, c, 1 + hypot(c / 20, c % 20), 1);
    f.failed[1] = 1; /* a failure among them counts as the worst observed */
    const struct policy_ops *ops = policy_find("bo-ei");
    void *st = ops->start(&f.v);
    ck_assert_ptr_nonnull(st);
    for (int i = 0; i < 299; i++) {
        int c = ops->next(st, &f.v);
        ck_assert_msg(c >= 0 && c < 400 && f.n_exec[c] == 0 && !f.failed[c], "step %d gave %d", i, c);
        measured(&f, c, 1 + hypot(c / 20, c % 20), 1);
    }
    ck_assert_int_eq(ops->next(st, &f.v), -1);
    ops->stop(st);
    gsl_rng_free(f.rng);
}
END_TEST

START_TEST(test_random_first_steps_follow_the_documented_shuffle)
{
    /* 5 configurations, --rep-ms 40. The random policy's draw is documented (sim.h, sim_sample_start): position
     * q takes the configuration at q + U{0 .. n-q-1} of the remaining order, one draw per step. A clone of the
     * stream made before the run gives those draws: the first configuration is draw 1 (of 5), the second the one
     * that draw 2 (of 4) selects from what is left, and so on; each is measured for the full 40 ms; after 5 steps
     * every configuration was measured exactly once and the policy is done. */
    struct fake f;
    fake_init(&f, 1, 5, 40);
    gsl_rng *twin = gsl_rng_clone(f.rng);
    const struct policy_ops *ops = policy_find("random");
    void *st = ops->start(&f.v);
    ck_assert_ptr_nonnull(st);
    int left[5] = {0, 1, 2, 3, 4}, seen[5] = {0};
    for (int q = 0; q < 5; q++) {
        int j = q + (int)gsl_rng_uniform_int(twin, (unsigned long)(5 - q)), t = left[q];
        left[q] = left[j];
        left[j] = t;
        int c = ops->next(st, &f.v);
        ck_assert_int_eq(c, left[q]);
        ck_assert_double_eq(ops->rep_ms(st, &f.v, c), 40);
        ck_assert_int_eq(seen[c]++, 0);
        measured(&f, c, 1 + c, 10);
    }
    ck_assert_int_eq(ops->next(st, &f.v), -1);
    ops->stop(st);
    gsl_rng_free(twin);
    gsl_rng_free(f.rng);
}
END_TEST

START_TEST(test_anneal_first_steps_on_a_line)
{
    /* One parameter with values 1..5 (configurations 0..4 in order; neighbours differ by one index). Whatever the
     * random start k0: the second step is a neighbour k1 (|k1 - k0| = 1); measured faster (5 ms against 10), the
     * walk moves there, so the third is k1's other neighbour 2 k1 - k0 when it exists, else (k1 at an end) a
     * random configuration other than k0, k1. Measured much slower (20 ms: relative d = 3 at temperature
     * 0.1 x 0.95^2 = 0.09025, accepted with probability exp(-3 / 0.09025) < 1e-14), the walk stays at k1, whose
     * neighbours are now all tried: the fourth step jumps to a configuration not tried yet. Every step asks for
     * the full --rep-ms. */
    struct fake f;
    fake_init(&f, 1, 5, 30);
    const struct policy_ops *ops = policy_find("anneal");
    void *st = ops->start(&f.v);
    ck_assert_ptr_nonnull(st);
    int k0 = ops->next(st, &f.v);
    ck_assert(k0 >= 0 && k0 < 5);
    ck_assert_double_eq(ops->rep_ms(st, &f.v, k0), 30);
    measured(&f, k0, 10, 3);
    ops->observe(st, &f.v, k0);
    int k1 = ops->next(st, &f.v);
    ck_assert_int_eq(abs(k1 - k0), 1);
    measured(&f, k1, 5, 6);
    ops->observe(st, &f.v, k1);
    int k2 = ops->next(st, &f.v), other = 2 * k1 - k0;
    if (other >= 0 && other < 5)
        ck_assert_int_eq(k2, other);
    else
        ck_assert(k2 >= 0 && k2 < 5 && k2 != k0 && k2 != k1);
    measured(&f, k2, 20, 2);
    ops->observe(st, &f.v, k2);
    int k3 = ops->next(st, &f.v);
    ck_assert(k3 >= 0 && k3 < 5 && k3 != k0 && k3 != k1 && k3 != k2);
    if (other >= 0 && other < 5) /* k1 had two neighbours, both tried: k3 is a jump, not next to k1 only */
        ck_assert(abs(k3 - k1) != 1);
    ops->stop(st);
    gsl_rng_free(f.rng);
}
END_TEST

/* A stream seed for which the first draw of gsl_rng_uniform_int(., n) is want (found on clones; the policies under
 * test draw their random start first). */
static unsigned long seed_for_first_draw(unsigned long n, unsigned long want)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    unsigned long seed = 1;
    for (;; seed++) {
        gsl_rng_set(r, seed);
        if (gsl_rng_uniform_int(r, n) == want)
            break;
    }
    gsl_rng_free(r);
    return seed;
}

/* Run ops on the fake for up to n_steps steps, each configuration measured at cost[c] ms; the steps into out.
 * Returns how many were taken (fewer when the policy said -1). */
static int drive(struct fake *f, const struct policy_ops *ops, const double *cost, int n_steps, int *out)
{
    void *st = ops->start(&f->v);
    int n = 0;
    ck_assert_ptr_nonnull(st);
    while (n < n_steps) {
        int c = ops->next(st, &f->v);
        if (c < 0)
            break;
        ck_assert_int_lt(c, f->v.n_configs);
        ck_assert_msg(f->n_exec[c] == 0, "%s asked for configuration %d twice", ops->name, c);
        ck_assert_double_eq(ops->rep_ms(st, &f->v, c), f->v.rep_ms);
        measured(f, c, cost[c], 3);
        if (ops->observe != NULL)
            ops->observe(st, &f->v, c);
        out[n++] = c;
    }
    ops->stop(st);
    return n;
}

/* 1 when the n values of got are the set want (of n). */
static int same_set(const int *got, const int *want, int n)
{
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int j = 0; j < n; j++)
            found |= got[i] == want[j];
        if (!found)
            return 0;
    }
    return 1;
}

/* The fixture of the climbs below: the 3 x 3 grid (2 parameters x 3 values, configuration c = (a, b) = (c / 3,
 * c % 3)) at cost c + 1 ms, --rep-ms 50, the stream seeded so that the first draw starts at 8 = (2,2), the most
 * costly configuration. */
static void climb_from_worst(struct fake *f, double cost[9])
{
    fake_init(f, 2, 3, 50);
    for (int c = 0; c < 9; c++)
        cost[c] = c + 1;
    gsl_rng_set(f->rng, seed_for_first_draw(9, 8));
}

START_TEST(test_mls_steepest_descent_then_restart)
{
    /* 2 parameters x 3 values, configuration c = (a, b) = (c / 3, c % 3) at cost 3a + b + 1 ms = c + 1. Hamming
     * neighbours share a row or a column (4 each). From (2,2) = 8 (the seed makes the start draw 8): its 4
     * neighbours 2, 5, 6, 7 are all costed (in a random order), the best, 2 = (0,2), becomes the base; of its
     * neighbours 5 and 8 are known, 0 and 1 are costed; the base moves to 0 = (0,0), whose neighbours 1, 2, 6 are
     * known and 3 = (1,0) is costed; nothing beats 0: a local optimum, and a random restart follows. */
    struct fake f;
    double cost[9];
    int got[9];
    climb_from_worst(&f, cost);
    ck_assert_int_eq(drive(&f, policy_find("mls-hamming"), cost, 8, got), 8);
    ck_assert_int_eq(got[0], 8);
    ck_assert(same_set(&got[1], (const int[]){2, 5, 6, 7}, 4));
    ck_assert(same_set(&got[5], (const int[]){0, 1}, 2));
    ck_assert_int_eq(got[7], 3);
    gsl_rng_free(f.rng);
}
END_TEST

START_TEST(test_mls_and_the_searches_measure_every_configuration_once)
{
    /* On the 3 x 3 grid every Kernel Tuner policy here asks for each configuration at most once (drive checks
     * it) and ends: mls, greedy_ils and diff_evo when all 9 were measured; pso (min(50, round(9 / 2)) = 5
     * particles) and basinhopping (100 hops) may end before, but pso's first iteration costs its 5 particles: at
     * least 4 distinct configurations (particle 0's start may repeat another's). */
    static const char *const names[] = {"mls-hamming", "ils-restart", "diff_evo", "pso", "basinhopping-grid"};
    for (int i = 0; i < 5; i++) {
        struct fake f;
        double cost[9];
        int got[40];
        fake_init(&f, 2, 3, 50);
        for (int c = 0; c < 9; c++)
            cost[c] = 10 - c; /* the optimum is 8 = (2,2) */
        int n = drive(&f, policy_find(names[i]), cost, 40, got);
        if (i < 3)
            ck_assert_msg(n == 9, "%s measured %d of 9", names[i], n);
        else
            ck_assert_msg(n >= 4 && n <= 9, "%s measured %d", names[i], n);
        gsl_rng_free(f.rng);
    }
}
END_TEST

START_TEST(test_basinhopping_first_descent_on_a_line)
{
    /* One parameter, values 1..5 (configurations 0..4), cost |c - 2| + 1 ms. From 0 (the seed makes the start
     * draw 0) the one-step descent costs 0, then its only neighbour 1 (better: the base moves), then 2 (1's other
     * neighbour; better), then 3 (2's unknown neighbour; worse): 2 is the local minimum, reached in 4 steps. */
    struct fake f;
    double cost[5] = {3, 2, 1, 2, 3};
    int got[4];
    fake_init(&f, 1, 5, 20);
    gsl_rng_set(f.rng, seed_for_first_draw(5, 0));
    ck_assert_int_eq(drive(&f, policy_find("basinhopping-grid"), cost, 4, got), 4);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(got[i], i);
    gsl_rng_free(f.rng);
}
END_TEST

START_TEST(test_greedy_ils_moves_at_the_first_improvement)
{
    /* The 3 x 3 grid at cost c + 1 from the start 8 = (2,2), the most costly: every neighbour (2, 5, 6, 7) beats
     * it, so the greedy climb costs exactly one of them and ends there; the random walk then moves one Hamming
     * step (int(0.3 x 2) = 0, at least 1) from it and the next climb starts at that configuration: the third
     * configuration measured is a neighbour of the second or a neighbour of that neighbour, never the first. */
    struct fake f;
    double cost[9];
    int got[3];
    climb_from_worst(&f, cost);
    ck_assert_int_eq(drive(&f, policy_find("ils-restart"), cost, 3, got), 3);
    ck_assert_int_eq(got[0], 8);
    ck_assert(got[1] == 2 || got[1] == 5 || got[1] == 6 || got[1] == 7);
    ck_assert(got[2] != 8 && got[2] != got[1]);
    gsl_rng_free(f.rng);
}
END_TEST

/* The worked example of docs/simulation.md (simulate/examples/policy_blockm.c, compiled into this test): first
 * parameters 3, 1, 4, 2 on configurations 0..3 are measured in the order 1, 3, 0, 2, each for the full rep, and
 * then it is done. */
extern const struct policy_ops policy_blockm;
START_TEST(test_blockm_example_measures_ascending_first_parameter)
{
    struct fake f;
    const int32_t p0[] = {3, 1, 4, 2};
    const int want[] = {1, 3, 0, 2};
    fake_init(&f, 1, 4, 50);
    for (int c = 0; c < 4; c++)
        f.params[c][0] = p0[c];
    void *st = policy_blockm.start(&f.v);
    ck_assert_ptr_nonnull(st);
    for (int i = 0; i < 4; i++) {
        int c = policy_blockm.next(st, &f.v);
        ck_assert_int_eq(c, want[i]);
        ck_assert_double_eq(policy_blockm.rep_ms(st, &f.v, c), 50);
    }
    ck_assert_int_eq(policy_blockm.next(st, &f.v), -1);
    policy_blockm.stop(st);
    gsl_rng_free(f.rng);
}
END_TEST

/* diff_evo's first population is Kernel Tuner's Latin hypercube: on the 20 x 20 grid its 32 members (16 per
 * parameter) fall in 32 strata of each parameter's 20 value indices, so each value index holds at least one
 * member (32 / 20 = 1.6 strata per value); replacing member 0 by Kernel Tuner's random start can empty one, so at
 * least 19 of 20 per parameter. 32 uniform draws cover 19 or more of 20 values of both parameters with
 * probability about 0.0024 (2e5 simulated samples), so five seeds in a row about 1e-13 (the uniform first
 * population fails here at once). */
START_TEST(test_diff_evo_first_population_is_a_latin_hypercube)
{
    struct fake f;
    double cost[400];
    int got[32];
    fake_init(&f, 2, 20, 50);
    for (int c = 0; c < 400; c++)
        cost[c] = 1 + c % 7;
    for (int seed = 1; seed <= 5; seed++) {
        gsl_rng_set(f.rng, (unsigned long)seed);
        memset(f.n_exec, 0, sizeof f.n_exec);
        ck_assert_int_eq(drive(&f, policy_find("diff_evo"), cost, 32, got), 32);
        for (int p = 0; p < 2; p++) {
            int seen[20] = {0}, n = 0;
            for (int i = 0; i < 32; i++)
                seen[p == 0 ? got[i] / 20 : got[i] % 20] = 1;
            for (int k = 0; k < 20; k++)
                n += seen[k];
            ck_assert_msg(n >= 19, "seed %d: parameter %d covers %d of 20 values", seed, p, n);
        }
    }
    gsl_rng_free(f.rng);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("policies");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_hyperband_first_bracket_on_three_configurations);
    tcase_add_test(tc, test_genetic_population_then_the_last_configuration);
    tcase_add_test(tc, test_bo_expected_improvement_by_hand);
    tcase_add_test(tc, test_bo_caps_hold_on_a_larger_space);
    tcase_add_test(tc, test_blockm_example_measures_ascending_first_parameter);
    tcase_add_test(tc, test_random_first_steps_follow_the_documented_shuffle);
    tcase_add_test(tc, test_anneal_first_steps_on_a_line);
    tcase_add_test(tc, test_mls_steepest_descent_then_restart);
    tcase_add_test(tc, test_mls_and_the_searches_measure_every_configuration_once);
    tcase_add_test(tc, test_basinhopping_first_descent_on_a_line);
    tcase_add_test(tc, test_greedy_ils_moves_at_the_first_improvement);
    tcase_add_test(tc, test_diff_evo_first_population_is_a_latin_hypercube);
    suite_add_tcase(s, tc);
    return tt_run(s);
}
