/* test-cost.c — `tunecost cost`'s arithmetic (analysis/cost.h) on a hand-built three-configuration trace (not a
 * measurement: the durations are chosen so that every part sums by hand), and its JSON read back by Python. */
#include "cost.h"
#include "tc_err.h"
#include "test-common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One input 64x64x64 (2*64^3 flops, cuBLAS 0.5 ms), three configurations, 16 compile jobs:
 *   0: valid, compile 100 ms (no isolated time), 1 warm-up of 2 ms, 3 timed of 1 ms, wall 6 ms (launch 1 ms)
 *   1: valid, compile 101 ms, 1 warm-up of 4 ms, 2 timed of 2 ms, flush 0.5 ms, wall 9.5 ms (launch 1 ms)
 *   2: out of resources, no compile time (charged the median of 100 and 101: 100.5 ms), never launched
 * By hand: compile 201, warm-up 6, repetition 7, flush 0.5, launch 2, failed 100.5; total 317 ms;
 * benchmarking 6 + 9.5 = 15.5 ms. */
static struct trace *cost_fixture_warm(int warm)
{
    static const int32_t params[3 * 6] = {64, 64, 32, 8, 3, 4, 128, 64, 32, 8, 3, 4, 256, 256, 64, 8, 5, 8};
    static const int64_t dims[3] = {64, 64, 64};
    struct trace_meta m = tt_meta("test-cost", 100);
    struct trace *t = tt_trace_create(tt_path("cost.h5"), &m, 3, params, 1, dims);
    struct trace_config bad;
    static const uint64_t x0[4] = {2000000, 1000000, 1000000, 1000000}, x1[3] = {4000000, 2000000, 2000000};
    struct trace_run r;

    memset(&r, 0, sizeof r);
    r.status = TRACE_OK;
    r.n_warmup = 1;
    r.estimate_ms = r.verify_ms = r.rel_error = NAN;
    r.config = 0, r.n_timed = 3, r.wall_ms = 6.0;
    ck_assert_msg(trace_append_run(t, &r, x0, 4) == 0, "%s", tc_errmsg());
    r.config = 1, r.n_timed = 2, r.wall_ms = 9.5, r.flush_ms = 0.5;
    ck_assert_msg(trace_append_run(t, &r, x1, 3) == 0, "%s", tc_errmsg());
    bad = *trace_config(t, 2);
    bad.status = TRACE_OUT_OF_RESOURCES;
    bad.compile_ms = NAN;
    ck_assert_msg(trace_update_config(t, 2, &bad) == 0, "%s", tc_errmsg());
    if (warm) { /* two compile workers' first-compile warm-ups, 3 and 5 ms: mean 4 ms */
        static const double w[2] = {3, 5};
        ck_assert_int_eq(trace_write_compile_warmup(t, w, 2), 0);
    }
    ck_assert_int_eq(trace_close(t), 0);
    t = trace_open(tt_path("cost.h5"));
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    return t;
}

static struct trace *cost_fixture(void)
{
    return cost_fixture_warm(0);
}

static void compute(struct trace *t, struct cost_result *r)
{
    struct cost_settings s;
    cost_settings_default(&s);
    s.workers = 2;
    s.runs = 20;
    s.boot = 500;
    ck_assert_msg(cost_compute(t, 0, &s, r) == 0, "%s", tc_errmsg());
}

START_TEST(test_cost_parts_sum_by_hand)
{
    struct cost_result r;
    tt_tmpdir_make("test-cost");
    struct trace *t = cost_fixture();
    compute(t, &r);
    ck_assert_int_eq(r.n_valid, 2);
    ck_assert_int_eq(r.n_failed, 1);
    ck_assert_int_eq(r.n_isolated, 0);        /* imputed: compile_ms under 16 workers */
    ck_assert_int_eq(r.n_failed_compiled, 0); /* imputed: the median of the valid ones */
    ck_assert_double_eq_tol(r.part[COST_COMPILE].ms, 201, 1e-9);
    ck_assert_double_eq_tol(r.part[COST_WARMUP].ms, 6, 1e-9);
    ck_assert_double_eq_tol(r.part[COST_REPETITION].ms, 7, 1e-9);
    ck_assert_double_eq_tol(r.part[COST_FLUSH].ms, 0.5, 1e-9);
    ck_assert_double_eq_tol(r.part[COST_LAUNCH].ms, 2, 1e-9);
    ck_assert_double_eq_tol(r.part[COST_FAILED].ms, 100.5, 1e-9);
    ck_assert_double_eq_tol(r.total.ms, 317, 1e-9);
    ck_assert_double_eq_tol(r.bench_ms, 15.5, 1e-9);
    ck_assert_double_eq_tol(r.compile_share, 301.5 / 317, 1e-12);
    ck_assert_double_eq_tol(r.rep_share, 7.0 / 317, 1e-12);
    /* a bootstrap CI brackets the sum (a replicate of three draws can hold only failures: 3 x 100.5 ms) */
    ck_assert(r.total.lo_ms <= 317 && r.total.hi_ms >= 317 && r.total.lo_ms >= 3 * 100.5 - 1e-9);
    ck_assert(r.total.hi_ms <= 3 * (101 + 4 + 4 + 0.5 + 1) + 1e-9); /* three times the dearest configuration */
    tt_tmpdir_remove();
    trace_close(t);
}
END_TEST

START_TEST(test_cost_models_and_buys)
{
    struct cost_result r;
    tt_tmpdir_make("test-cost");
    struct trace *t = cost_fixture();
    compute(t, &r);
    /* sequential: the simulator's replay of every configuration is the hand sum */
    ck_assert_double_eq_tol(r.model_s[COST_SEQUENTIAL], 0.317, 1e-9);
    /* parallel, 2 workers: the third compile starts when the first of two ends: 200.5 or 201 ms, + 15.5 */
    ck_assert(r.model_s[COST_PARALLEL] >= 0.2160 - 1e-9 && r.model_s[COST_PARALLEL] <= 0.2165 + 1e-9);
    /* ideal: 301.5 ms / (3 / ceil(3/2)) = 201 ms, + 15.5 */
    ck_assert_double_eq_tol(r.model_s[COST_IDEAL], 0.2165, 1e-9);
    /* best: configuration 0, median 1 ms: 524288 flops / 1 ms; the reference 0.5 ms; median of 1 and 2 ms */
    ck_assert_int_eq(r.best_config, 0);
    ck_assert_double_eq_tol(r.best_tflops, 524288 / 1e9, 1e-15);
    ck_assert_double_eq_tol(r.best_tflops_lo, 524288 / 1e9, 1e-15); /* every execution took 1 ms */
    ck_assert_double_eq_tol(r.ref_tflops, 524288 / 0.5e9, 1e-15);
    ck_assert_double_eq_tol(r.median_tflops, (524288 / 1e9 + 524288 / 2e9) / 2, 1e-15);
    tt_tmpdir_remove();
    trace_close(t);
}
END_TEST

/* The compile worker's warm-up, recorded (3 and 5 ms: mean 4), is one part charged once, as simulate charges it:
 * the hand sum 317 ms + 4 = 321 ms, and the simulator's sequential replay of every configuration the same; without
 * a recorded warm-up (the fixture above) the part is 0 and says it was not charged. */
START_TEST(test_cost_compile_warmup_charged_once)
{
    struct cost_result r, r0;
    char json[4096] = "";
    tt_tmpdir_make("test-cost");
    struct trace *t = cost_fixture_warm(1);
    compute(t, &r);
    ck_assert_double_eq_tol(r.part[COST_WORKER].ms, 4, 1e-9);
    ck_assert_double_eq_tol(r.part[COST_WORKER].lo_ms, 4, 1e-9); /* not per configuration: no spread */
    ck_assert_double_eq_tol(r.part[COST_WORKER].hi_ms, 4, 1e-9);
    ck_assert_double_eq_tol(r.total.ms, 321, 1e-9);
    ck_assert_double_eq_tol(r.bench_ms, 15.5, 1e-9);
    ck_assert_double_eq_tol(r.compile_share, 305.5 / 321, 1e-12);
    ck_assert_double_eq_tol(r.model_s[COST_SEQUENTIAL], 0.321, 1e-9);
    FILE *fp = fmemopen(json, sizeof json, "w");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(cost_write_json(fp, &r), 0);
    fclose(fp);
    ck_assert_ptr_nonnull(strstr(json, "\"compile_warmup_s\": {\"value\": 0.004"));
    trace_close(t);
    t = cost_fixture();
    compute(t, &r0);
    ck_assert(r0.part[COST_WORKER].ms == 0);
    ck_assert_int_eq(r0.worker_recorded, 0);
    tt_tmpdir_remove();
    trace_close(t);
}
END_TEST

START_TEST(test_cost_json_parses)
{
    struct cost_result r;
    char cmd[512], line[128] = "";
    tt_tmpdir_make("test-cost");
    struct trace *t = cost_fixture();
    compute(t, &r);
    FILE *fp = fopen(tt_path("cost.json"), "w");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(cost_write_json(fp, &r), 0);
    ck_assert_int_eq(fclose(fp), 0);
    if (system("python3 -c pass >/dev/null 2>&1") != 0) { /* no Python: the arithmetic above still ran */
        tt_tmpdir_remove();
        trace_close(t);
        return;
    }
    snprintf(cmd, sizeof cmd, "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
             "print(d[\"total_s\"][\"value\"], d[\"failed_s\"][\"value\"], d[\"failed\"], d[\"input\"])' %s",
             tt_path("cost.json"));
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, p));
    ck_assert_int_eq(pclose(p), 0);
    ck_assert_str_eq(line, "0.317 0.1005 1 64x64x64\n");
    tt_tmpdir_remove();
    trace_close(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cost");
    TCase *tc = tcase_create("cost");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_cost_parts_sum_by_hand);
    tcase_add_test(tc, test_cost_models_and_buys);
    tcase_add_test(tc, test_cost_json_parses);
    tcase_add_test(tc, test_cost_compile_warmup_charged_once);
    suite_add_tcase(s, tc);
    return tt_run(s);
}
