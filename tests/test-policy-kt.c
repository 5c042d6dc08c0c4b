/* test-policy-kt.c — policies on imported traces as a Kernel Tuner user means them (simulate/policy_source.c): the
 * source's objective ranks and scores, each first visit is charged what the source recorded, and max_fevals ends a
 * run; and Kernel Tuner's strategies under its names (simulate/policy_kt_*.c).
 *
 * The hand-built trace (written through the trace library as `tunecost import kerneltuner` writes one; not a
 * measurement): protocol kerneltuner, one input, one parameter BLOCK = 16, 32, 64, 128:
 *   c0: compile 10 ms, verification 2 ms, benchmark 3 ms; the cache's time 1.0 ms, its times 0.2, 0.2, 0.2 ms
 *   c1: compile 20 ms, verification 4 ms, benchmark 6 ms; time 0.5 ms (the optimum), times 0.9, 0.9, 0.9 ms
 *   c2: compile 30 ms, verification 1 ms, benchmark 2 ms; time 0.8 ms, times 0.6, 0.6, 0.6 ms
 *   c3: InvalidConfig (out of resources): no compile time, nothing recorded, costs 0
 * so `time` is not the mean (nor the median) of `times`: by the times c0 would be best, by the cache c1.
 * Source costs, exhaustive in trace order: c0 ends at 15 ms (speedup 0.5 / 1.0 = 0.5), c1 at 15 + 30 = 45 ms
 * (speedup 1), c2 at 45 + 33 = 78 ms, c3 adds nothing. */
#include "policy.h"
#include "policy_kt.h"
#include "tc_err.h"
#include "test-common.h"
#include "trace.h"

#include <check.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

/* The trace above; with `metric` the objective is GFLOP/s, higher is better, with values 100, 300, 200 (c0..c2). */
static const char *build_kt(int metric)
{
    const char *path = tt_path(metric ? "kt-metric.h5" : "kt.h5");
    const char *pn[] = {"BLOCK"}, *dn[] = {"x"};
    struct trace_meta m;
    memset(&m, 0, sizeof m);
    snprintf(m.kernel, sizeof m.kernel, "hand");
    snprintf(m.device_name, sizeof m.device_name, "hand-built");
    snprintf(m.timer, sizeof m.timer, "unknown");
    snprintf(m.protocol, sizeof m.protocol, "kerneltuner");
    m.warmup_ms = m.rep_ms = NAN;
    if (metric) {
        snprintf(m.objective, sizeof m.objective, "GFLOP/s");
        m.objective_higher_is_better = 1;
    }
    struct trace *t = trace_create(path, &m, pn, 1, dn, 1);
    ck_assert_ptr_nonnull(t);
    int32_t params[] = {16, 32, 64, 128};
    struct trace_config cfg[4] = {{0, 10, NAN, -1, -1, -1, 0, NAN}, {0, 20, NAN, -1, -1, -1, 0, NAN},
                                  {0, 30, NAN, -1, -1, -1, 0, NAN}, {2, NAN, NAN, -1, -1, -1, 0, NAN}};
    int64_t dims[] = {256};
    struct trace_input in = {NAN, NAN};
    ck_assert_int_eq(trace_write_configs(t, 4, params, cfg), 0);
    ck_assert_int_eq(trace_write_inputs(t, 1, dims, &in), 0);
    uint64_t e0[] = {200000, 200000, 200000}, e1[] = {900000, 900000, 900000}, e2[] = {600000, 600000, 600000};
    struct trace_run r0 = {0, 0, 0, 0, 0, 3, 0, 3, 0, 2, NAN, NAN, 1.0, metric ? 100 : NAN};
    struct trace_run r1 = {0, 1, 0, 0, 0, 3, 0, 6, 0, 4, NAN, NAN, 0.5, metric ? 300 : NAN};
    struct trace_run r2 = {0, 2, 0, 0, 0, 3, 0, 2, 0, 1, NAN, NAN, 0.8, metric ? 200 : NAN};
    struct trace_run r3 = {0, 3, 2, 0, 0, 0, 0, 0, 0, NAN, NAN, NAN, NAN, NAN};
    ck_assert_int_eq(trace_append_run(t, &r0, e0, 3), 0);
    ck_assert_int_eq(trace_append_run(t, &r1, e1, 3), 0);
    ck_assert_int_eq(trace_append_run(t, &r2, e2, 3), 0);
    ck_assert_int_eq(trace_append_run(t, &r3, NULL, 0), 0);
    ck_assert_int_eq(trace_close(t), 0);
    return path;
}

static struct pol_data *kt_data(int metric, struct trace **tp)
{
    *tp = trace_open(build_kt(metric));
    ck_assert_msg(*tp != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(pol_trace_imported(*tp), 1);
    struct pol_data *d = pol_data_from_trace(*tp);
    ck_assert_ptr_nonnull(d);
    return d;
}

static void kt_settings(struct pol_settings *s)
{
    pol_settings_default(s);
    s->runs = 1;
    s->budget_s = 10;
    s->source_costs = 1;
}

/* One run of `name` on input 0: its end time and final speedup. */
static void run_one(const struct pol_data *d, const char *name, const struct pol_settings *s, double *time_s,
                    double *speedup)
{
    const struct policy_ops *ops = policy_find(name);
    ck_assert_msg(ops != NULL, "no policy %s", name);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 1);
    ck_assert_msg(pol_run(d, 0, ops, s, rng, time_s, speedup) == 0, "%s", tc_errmsg());
    gsl_rng_free(rng);
}

/* The acceptance case: the optimum is the cache's best `time` (c1), not the configuration whose `times` are
 * lowest (c0), and exhaustive search ends at the hand-worked 78 ms of recorded compile + verification +
 * benchmark time. */
START_TEST(test_policy_kt_source_time_is_the_truth)
{
    struct trace *t;
    struct pol_data *d = kt_data(0, &t);
    struct pol_settings s;
    struct pol_curve c;
    double grid[] = {0.0149, 0.0151, 0.0449, 0.0451, 1.0}, time_s, sp;
    kt_settings(&s);
    s.n_grid = 5;
    ck_assert_int_eq(pol_evaluate(d, policy_find("exhaustive"), &s, grid, &c), 0);
    ck_assert_double_eq(c.mean[0], 0.0);
    ck_assert_double_eq_tol(c.mean[1], 0.5, 1e-12); /* c0: 0.5 / 1.0 */
    ck_assert_double_eq_tol(c.mean[2], 0.5, 1e-12);
    ck_assert_double_eq(c.mean[3], 1.0); /* c1, the cache's best time */
    ck_assert_double_eq(c.mean[4], 1.0);
    pol_curve_free(&c);
    run_one(d, "exhaustive", &s, &time_s, &sp);
    ck_assert_double_eq_tol(time_s, 0.078, 1e-12);
    ck_assert_double_eq(sp, 1.0);
    /* tunecost's replay ranks by the executions it replays (c0's 0.2 ms) and scores by the source: 0.5 */
    s.source_costs = 0;
    run_one(d, "exhaustive", &s, &time_s, &sp);
    ck_assert_double_eq_tol(sp, 0.5, 1e-12);
    pol_data_free(d);
    trace_close(t);
}
END_TEST

/* A declared objective and direction: GFLOP/s, higher is better; the best is c1 (300), c0 scores 100 / 300. */
START_TEST(test_policy_kt_source_metric_higher_is_better)
{
    struct trace *t;
    struct pol_data *d = kt_data(1, &t);
    struct pol_settings s;
    double time_s, sp;
    kt_settings(&s);
    s.max_configs = 1; /* max_fevals 1: c0 alone */
    run_one(d, "exhaustive", &s, &time_s, &sp);
    ck_assert_double_eq_tol(sp, 100.0 / 300.0, 1e-12);
    ck_assert_double_eq_tol(time_s, 0.015, 1e-12);
    s.max_configs = 0;
    run_one(d, "exhaustive", &s, &time_s, &sp);
    ck_assert_double_eq(sp, 1.0);
    pol_data_free(d);
    trace_close(t);
}
END_TEST

/* max_fevals 2: the run ends when a third distinct configuration is asked for, after c0 and c1 (45 ms). */
START_TEST(test_policy_kt_max_fevals_ends_the_run)
{
    struct trace *t;
    struct pol_data *d = kt_data(0, &t);
    struct pol_settings s;
    double time_s, sp;
    kt_settings(&s);
    s.max_configs = 2;
    run_one(d, "exhaustive", &s, &time_s, &sp);
    ck_assert_double_eq_tol(time_s, 0.045, 1e-12);
    ck_assert_double_eq(sp, 1.0);
    pol_data_free(d);
    trace_close(t);
}
END_TEST

/* Kernel Tuner's random_sample evaluates ceil(fraction x 4) configurations: 1 at the default 0.1, 2 at 0.5; with
 * max_fevals 3 the sample is 3 whatever the fraction (Kernel Tuner's override). Steps counted over 5 runs. */
START_TEST(test_policy_kt_random_sample_size)
{
    struct trace *t;
    struct pol_data *d = kt_data(0, &t);
    struct pol_settings s;
    struct pol_curve c;
    double grid[] = {0.01, 1.0};
    const char *opts[] = {NULL, "fraction=0.5", "fraction=0.5,max_fevals=3"};
    const long steps[] = {5, 10, 15};
    kt_settings(&s);
    s.runs = 5;
    s.n_grid = 2;
    for (int i = 0; i < 3; i++) {
        s.strategy_options = opts[i];
        ck_assert_int_eq(pol_evaluate(d, policy_find("random_sample"), &s, grid, &c), 0);
        ck_assert_int_eq(c.n_steps, steps[i]);
        pol_curve_free(&c);
    }
    pol_data_free(d);
    trace_close(t);
}
END_TEST

/* brute_force, simulated_annealing, mls and greedy_ils visit every configuration of the 4-configuration space:
 * brute_force in sorted order, simulated_annealing because its schedule spans min(size, 3680) = 4 unique
 * evaluations (T reaches 0.1 x 0.9975^3680 < T_min only at the fourth), mls and greedy_ils because they run until
 * min(size, 100) = 4 unique evaluations, firefly_algorithm because its min(20, 4) = 4 fireflies start at distinct
 * configurations, bayes_opt because its min(20, 4) = 4 Latin-hypercube points over 4 values take one stratum, so
 * one value, each, basinhopping because its 101 local searches each evaluate the start's neighbour cell and its
 * hops move by up to one cell (stepsize eps = 1/4); all end at the 78 ms of recorded costs, at the optimum. */
START_TEST(test_policy_kt_brute_force_and_annealing_cover_the_space)
{
    struct trace *t;
    struct pol_data *d = kt_data(0, &t);
    struct pol_settings s;
    double time_s, sp;
    kt_settings(&s);
    const char *names[] = {"brute_force", "simulated_annealing", "mls", "greedy_ils", "firefly_algorithm",
                           "bayes_opt", "basinhopping"};
    for (int i = 0; i < 7; i++) {
        run_one(d, names[i], &s, &time_s, &sp);
        ck_assert_msg(fabs(time_s - 0.078) < 1e-12, "%s ended at %g s", names[i], time_s);
        ck_assert_double_eq(sp, 1.0);
    }
    pol_data_free(d);
    trace_close(t);
}
END_TEST

/* Kernel Tuner's max_fevals in its strategies' own counts: bayes_opt evaluates exactly max_fevals = 2 of its 4
 * initial points; dual_annealing with maxfun 1 stops after SciPy's first check, which comes after the start and the
 * first visit: 1 or 2 distinct configurations per run. Steps counted over 5 runs. */
START_TEST(test_policy_kt_max_fevals_own_counts)
{
    struct trace *t;
    struct pol_data *d = kt_data(0, &t);
    struct pol_settings s;
    struct pol_curve c;
    double grid[] = {0.01, 1.0};
    kt_settings(&s);
    s.runs = 5;
    s.n_grid = 2;
    s.strategy_options = "max_fevals=2";
    ck_assert_int_eq(pol_evaluate(d, policy_find("bayes_opt"), &s, grid, &c), 0);
    ck_assert_int_eq(c.n_steps, 10);
    pol_curve_free(&c);
    s.strategy_options = "max_fevals=1";
    ck_assert_int_eq(pol_evaluate(d, policy_find("dual_annealing"), &s, grid, &c), 0);
    ck_assert_msg(c.n_steps >= 5 && c.n_steps <= 10, "dual_annealing took %ld steps", c.n_steps);
    pol_curve_free(&c);
    pol_data_free(d);
    trace_close(t);
}
END_TEST

/* list(set(x)) as CPython orders it (diff_evo's population), worked by hand from Objects/setobject.c: a table of 8
 * slots, slot = value & mask; a taken slot near the table's end probes no further slots linearly and jumps to
 * (5 i + 1 + perturb) & mask (perturb = value >> 5, 0 here); at 5 entries (5 x 5 >= 3 x 7) the table grows to 32
 * and the entries go in again in slot order. [16, 8, 0]: 16 in slot 0, 8 collides and jumps to 1, 0 collides
 * twice and lands in 6. [40, 9, 1, 2, 3, 72]: 40, 9, 2, 3 in slots 0, 1, 2, 3 and 1 in 6; regrown: 1, 2, 3 in
 * their slots, 40 in 8, 9 in 9; 72 collides in 8 and 9 and probes on to 10. (Python 3.11 prints the same.) */
START_TEST(test_policy_kt_python_set_order)
{
    int a[] = {3, 1, 2, 3}, b[] = {16, 8, 0}, c[] = {40, 9, 1, 2, 3, 72};
    const int wa[] = {1, 2, 3}, wb[] = {16, 8, 0}, wc[] = {1, 2, 3, 40, 9, 72};
    ck_assert_int_eq(kt_py_set_order(a, 4), 3);
    ck_assert_int_eq(kt_py_set_order(b, 3), 3);
    ck_assert_int_eq(kt_py_set_order(c, 6), 6);
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(c[i], wc[i]);
        if (i < 3) {
            ck_assert_int_eq(a[i], wa[i]);
            ck_assert_int_eq(b[i], wb[i]);
        }
    }
}
END_TEST

/* --strategy-options: a name none of the chosen policies reads, or a value that is not a number, is refused. */
START_TEST(test_policy_kt_strategy_options_checked)
{
    const struct policy_ops *ops[] = {policy_find("random_sample"), policy_find("random")};
    ck_assert_int_eq(pol_options_check("fraction=0.2", ops, 2), 0);
    ck_assert_int_eq(pol_options_check("max_fevals=5", ops + 1, 1), 0);
    ck_assert_int_eq(pol_options_check("T=0.2", ops, 2), -1);
    ck_assert_int_eq(pol_options_check("fraction=abc", ops, 1), -1);
    ck_assert_int_eq(pol_options_check("fraction", ops, 1), -1);
    const struct policy_ops *kt[] = {policy_find("basinhopping"), policy_find("bayes_opt")};
    ck_assert_int_eq(pol_options_check("T=0.5,popsize=5,covariancelengthscale=2", kt, 2), 0);
    ck_assert_int_eq(pol_options_check("T=0.5", kt + 1, 1), -1);
    struct pol_view v = {.options = "fraction=0.2,fraction=0.3"};
    ck_assert_double_eq(pol_option(&v, "fraction", 0.1), 0.3); /* the last one given counts */
    ck_assert_double_eq(pol_option(&v, "popsize", 26), 26);
}
END_TEST

static void setup(void)
{
    tt_tmpdir_make("tc-policy-kt");
}

static Suite *policy_kt_suite(void)
{
    Suite *su = suite_create("policy-kt");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, tt_tmpdir_remove);
    tcase_set_timeout(tc, 120); /* the methodology's bootstrap, under valgrind */
    tcase_add_test(tc, test_policy_kt_source_time_is_the_truth);
    tcase_add_test(tc, test_policy_kt_source_metric_higher_is_better);
    tcase_add_test(tc, test_policy_kt_max_fevals_ends_the_run);
    tcase_add_test(tc, test_policy_kt_random_sample_size);
    tcase_add_test(tc, test_policy_kt_brute_force_and_annealing_cover_the_space);
    tcase_add_test(tc, test_policy_kt_max_fevals_own_counts);
    tcase_add_test(tc, test_policy_kt_python_set_order);
    tcase_add_test(tc, test_policy_kt_strategy_options_checked);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    return tt_run(policy_kt_suite());
}
