/* test-sim-budget.c — `simulate --budget` / `--target` (simulate/sim_budget.h) on a hand-built input of two
 * configurations (in memory, not a measurement) whose costs and speedups are worked out by hand. */
#include "sim.h"
#include "sim_budget.h"
#include "tc_err.h"
#include "test-common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MS 1000000ull /* ns per ms */

/* One input, EXEC_TIME 10 ms, N_CONFIG 1 or 2, failures not drawn, sequential compilation:
 *   A: 20 executions of 1 ms: j = 11 (11 ms > 10), true 1 ms;  compile 1000 ms, no overhead: 1.011 s
 *   B: 20 executions of 2 ms: j = 6 (12 ms > 10),  true 2 ms;  compile 1000 ms, no overhead: 1.012 s
 * N_CONFIG 1: A or B at random, speedup 1 or 0.5 (mean 0.75), 1.011-1.012 s; N_CONFIG 2: both, speedup 1, 2.023 s. */
static struct sim_data *two_configs(struct sim_settings *s)
{
    static uint64_t a[20], b[20];
    struct sim_config_run r;
    struct sim_data *d;
    for (int i = 0; i < 20; i++)
        a[i] = 1 * MS, b[i] = 2 * MS;
    sim_settings_default(s);
    s->samples = 40;
    s->runs = 10;
    s->n_config_lo = 1, s->n_config_hi = 2;
    s->exec_ms_lo = s->exec_ms_hi = 10;
    s->failed_cost = SIM_FAILED_NONE;
    s->n_scenarios = 1;
    ck_assert_int_eq(sim_scenario_parse("baseline", SIM_COMPILE_SEQUENTIAL, 16, SIM_OVERHEAD_PAPER, &s->scenarios[0]),
                     0);
    d = sim_data_new(s);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(sim_data_add_input(d, "1x1x1", 1e9), 0);
    memset(&r, 0, sizeof r);
    r.compile_ms = r.compile_isolated_ms = 1000;
    r.n_timed = 20;
    r.config = 0, r.timed_ns = a, r.wall_ms = 20;
    ck_assert_msg(sim_data_add_config(d, 0, &r) == 0, "%s", tc_errmsg());
    r.config = 1, r.timed_ns = b, r.wall_ms = 40;
    ck_assert_msg(sim_data_add_config(d, 0, &r) == 0, "%s", tc_errmsg());
    s->input = 0;
    return d;
}

START_TEST(test_sim_budget_best_within_and_target)
{
    struct sim_settings s;
    struct sim_data *d = two_configs(&s);
    struct sim_result *res = sim_run(d, &s, NULL, NULL);
    struct sim_budget_row *rows = NULL;
    static const double budgets[3] = {0.5, 1.5, 3}, targets[2] = {1.0, 0.99};
    int n = 0;
    ck_assert_ptr_nonnull(res);
    ck_assert_int_eq(sim_budget_eval(d, &s, res, budgets, 3, targets, 2, &rows, &n), 0);
    ck_assert_int_eq(n, 5);
    /* 0.5 s: not even one compile fits */
    ck_assert_int_eq(rows[0].sample, -1);
    ck_assert(isnan(rows[0].speedup));
    /* 1.5 s: one configuration, on 300 fresh runs: mean near 0.75, time 1.011-1.012 s */
    ck_assert_int_eq(rows[1].n_config, 1);
    ck_assert_int_eq(rows[1].fresh_runs, 300);
    ck_assert(rows[1].speedup > 0.70 && rows[1].speedup < 0.80);
    ck_assert(rows[1].speedup_lo < rows[1].speedup && rows[1].speedup < rows[1].speedup_hi);
    ck_assert(rows[1].time_s >= 1.011 - 1e-9 && rows[1].time_s <= 1.012 + 1e-9);
    /* 3 s: both configurations: always the best, every run 2.023 s */
    ck_assert_int_eq(rows[2].n_config, 2);
    ck_assert_double_eq_tol(rows[2].speedup, 1, 1e-12);
    ck_assert_double_eq_tol(rows[2].time_s, 2.023, 1e-9);
    /* targets 1 and 0.99: only N_CONFIG 2 reaches them, 2.023 s */
    for (int k = 3; k < 5; k++) {
        ck_assert_int_eq(rows[k].is_target, 1);
        ck_assert_int_eq(rows[k].n_config, 2);
        ck_assert_double_eq_tol(rows[k].time_s, 2.023, 1e-9);
    }
    free(rows);
    sim_result_free(res);
    sim_data_free(d);
}
END_TEST

START_TEST(test_sim_budget_target_not_reached)
{
    struct sim_settings s;
    struct sim_data *d = two_configs(&s);
    struct sim_result *res;
    struct sim_budget_row *rows = NULL;
    static const double targets[1] = {0.9};
    int n = 0;
    s.n_config_lo = s.n_config_hi = 1; /* a mean of 0.75 never reaches 0.9 */
    res = sim_run(d, &s, NULL, NULL);
    ck_assert_ptr_nonnull(res);
    ck_assert_int_eq(sim_budget_eval(d, &s, res, NULL, 0, targets, 1, &rows, &n), 0);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(rows[0].sample, -1);
    ck_assert(isnan(rows[0].time_s));
    free(rows);
    sim_result_free(res);
    sim_data_free(d);
}
END_TEST

START_TEST(test_sim_budget_parse_list)
{
    double v[SIM_BUDGET_MAX];
    int n;
    ck_assert_int_eq(sim_budget_parse_list("--budget", "1,10,60.5", 0, v, &n), 0);
    ck_assert_int_eq(n, 3);
    ck_assert_double_eq(v[2], 60.5);
    ck_assert_int_eq(sim_budget_parse_list("--budget", "1,,2", 0, v, &n), -1);
    ck_assert_int_eq(sim_budget_parse_list("--budget", "1,", 0, v, &n), -1);
    ck_assert_int_eq(sim_budget_parse_list("--budget", "0", 0, v, &n), -1);
    ck_assert_int_eq(sim_budget_parse_list("--target", "1.5", 1, v, &n), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--target"));
    ck_assert_int_eq(sim_budget_parse_list("--target", "0.9,0.95", 1, v, &n), 0);
    ck_assert_int_eq(n, 2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sim-budget");
    TCase *tc = tcase_create("budget");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_sim_budget_best_within_and_target);
    tcase_add_test(tc, test_sim_budget_target_not_reached);
    tcase_add_test(tc, test_sim_budget_parse_list);
    suite_add_tcase(s, tc);
    return tt_run(s);
}
