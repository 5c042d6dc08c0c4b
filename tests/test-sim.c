/* test-sim.c — the simulator's model (simulate/sim.h) on data sets hand-built in memory: against values worked out
 * by hand from the model in docs/architecture.md, against the closed form of best-of-N under sampling without
 * replacement, and for thread-count independence. The comment beside each data set lists every number it uses.
 * The simulator through a trace file and on the command line: test-sim-trace.c. */
#include "frontier.h"
#include "sim.h"
#include "sim_columns.h"
#include "sim_cost.h"
#include "tc_err.h"
#include "test-common.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS 1000000ull /* ns per ms */

/* A configuration of n executions of `ms` milliseconds each (plus optional overrides), no untimed executions,
 * wall_ms = Σ timed + ovh_ms; iso_ms its isolated compile time (NaN: none recorded). */
static void add_run(struct sim_data *d, int input, int config, double compile_ms, double iso_ms, double ovh_ms,
                    const uint64_t *x, int n)
{
    struct sim_config_run r;
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += (double)x[i] * 1e-6;
    memset(&r, 0, sizeof r);
    r.config = config;
    r.compile_ms = compile_ms;
    r.compile_isolated_ms = iso_ms;
    r.wall_ms = sum + ovh_ms;
    r.timed_ns = x;
    r.n_timed = n;
    ck_assert_msg(sim_data_add_config(d, input, &r) == 0, "%s", tc_errmsg());
}

static void add_const(struct sim_data *d, int input, int config, double compile_ms, double ovh_ms,
                      const uint64_t *x, int n)
{
    add_run(d, input, config, compile_ms, NAN, ovh_ms, x, n);
}

static void fixed(struct sim_settings *s, int n_config, int exec_ms)
{
    s->n_config_lo = s->n_config_hi = n_config;
    s->exec_ms_lo = s->exec_ms_hi = exec_ms;
}

static void scen(struct sim_settings *s, int i, const char *name, int factor)
{
    ck_assert_msg(sim_scenario_parse(name, SIM_COMPILE_SEQUENTIAL, factor, SIM_OVERHEAD_PAPER, &s->scenarios[i]) ==
                      0,
                  "%s", tc_errmsg());
    if (i + 1 > s->n_scenarios)
        s->n_scenarios = i + 1;
}

#define ck_near(a, b)                                                                                         \
    ck_assert_msg(fabs((double)(a) - (double)(b)) <= 1e-9 * (1 + fabs((double)(b))), "%s = %.17g, expected %.17g", \
                  #a, (double)(a), (double)(b))

/* Three configurations of one input, EXEC_TIME 10 ms, flops 2e12 (TFLOP/s = 2000 / true_ms):
 *   A: 4 3 3 3 3 3 ms   prefix 4 7 10 13 -> j = 4, rep 13, estimate 3.25, true (median) 3;  compile 100, overhead 20
 *   B: 2 ms x 7         prefix ... 10 12 -> j = 6, rep 12, estimate 2,    true 2;            compile 50,  overhead 10
 *   C: 5 5              sum 10, never > 10: short, j = 2, rep 10, estimate 5, true 5;        compile 30,  overhead 5
 * Every run explores all three, so, whatever the order:
 *   baseline time = (13+100+20) + (12+50+10) + (10+30+5) = 250 ms; winner B: 1000 TFLOP/s, speedup 1; 1 short
 *   ideal x2: effective factor 3 / ceil(3/2) = 1.5: (13+20)+(12+10)+(10+5) + 180/1.5 = 190 ms */
static void add_abc(struct sim_data *d, int input)
{
    static const uint64_t a[] = {4 * MS, 3 * MS, 3 * MS, 3 * MS, 3 * MS, 3 * MS};
    static const uint64_t b[] = {2 * MS, 2 * MS, 2 * MS, 2 * MS, 2 * MS, 2 * MS, 2 * MS};
    static const uint64_t c[] = {5 * MS, 5 * MS};
    add_const(d, input, 10, 100, 20, a, 6);
    add_const(d, input, 11, 50, 10, b, 7);
    add_const(d, input, 12, 30, 5, c, 2);
}

static struct sim_data *data_abc(struct sim_settings *s)
{
    struct sim_data *d = sim_data_new(s);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(sim_data_add_input(d, "1x2x3", 2e12), 0);
    add_abc(d, 0);
    return d;
}

/* The points' column table drives header, rows and reader alike: a test-only table with one more column (a dummy
 * over sim_point.failed, which points.tsv does not show) writes it in the header and in every row, and reads it
 * back; the early-stop columns read nan where the scenario does not stop early. The values are exact in %.9g. */
START_TEST(test_sim_columns_dummy_column)
{
    struct sim_column cols[32];
    int n = sim_points_columns.n, map[32];
    memcpy(cols, sim_points_columns.cols, (size_t)n * sizeof cols[0]);
    cols[n] = (struct sim_column){"dummy", SIM_COL_NUM, offsetof(struct sim_point, failed), SIM_COL_ALWAYS};
    struct sim_columns t = {"test points", n + 1, cols};
    struct sim_scenario es = {.name = "es", .early_stop = 1}, plain = {.name = "base"};
    struct sim_point p[2] = {{.sample = 3, .n_config = 7, .exec_ms = 12.5, .es_num = 4, .es_thr = 1.25,
                              .results = 40, .time_s = 2.5, .time_s_lo = 2.25, .time_s_hi = 2.75, .tflops = 100.5,
                              .tflops_lo = 99, .tflops_hi = 102, .speedup = 0.75, .speedup_lo = 0.5,
                              .speedup_hi = 1, .n_short = 2, .stopped = 1.5, .explored = 6, .failed = 0.375},
                             {.sample = 4, .n_config = 1, .exec_ms = 10, .es_num = 9, .es_thr = 2, .results = 1,
                              .time_s = NAN, .speedup = 0, .failed = 2}};
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(fp);
    sim_columns_header(fp, &t);
    sim_columns_row(fp, &t, &es, "256x256x256", &p[0]);
    sim_columns_row(fp, &t, &plain, "all", &p[1]);
    ck_assert_int_eq(fclose(fp), 0);
    /* the header is the documented columns (docs/simulation.md, "Output") and the dummy, last */
    ck_assert_ptr_nonnull(strchr(buf, '\n'));
    ck_assert_str_eq(strndupa(buf, (size_t)(strchr(buf, '\n') - buf)),
                     "sample\tscenario\tinput\tn_config\texec_ms\tes_num\tes_threshold\tresults\ttime_s\ttime_s_lo\t"
                     "time_s_hi\ttflops\ttflops_lo\ttflops_hi\tspeedup\tspeedup_lo\tspeedup_hi\tshort\tstopped\t"
                     "explored\tdummy");
    ck_assert_ptr_nonnull(strstr(buf, "\n3\tes\t256x256x256\t7\t12.5\t4\t1.250000\t40\t2.5\t2.25\t2.75\t100.5\t99\t102\t"
                                      "0.75\t0.5\t1\t2\t1.5\t6\t0.375\n"));
    ck_assert_ptr_nonnull(strstr(buf, "\n4\tbase\tall\t1\t10\tnan\tnan\t1\tnan\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t2\n"));
    fp = fmemopen(buf, len, "r");
    struct tc_tsv *r = tc_tsv_open(fp, "points");
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(sim_columns_map(r, &t, map), 0);
    ck_assert_int_eq(map[n], n); /* the dummy is the last column */
    for (int i = 0; i < 2; i++) {
        struct sim_point q;
        const char *sc = NULL, *in = NULL;
        memset(&q, 0, sizeof q);
        ck_assert_int_eq(tc_tsv_next(r), 1);
        ck_assert_msg(sim_columns_read(r, &t, map, &q, &sc, &in) == 0, "%s", tc_errmsg());
        ck_assert_str_eq(sc, i ? "base" : "es");
        ck_assert_str_eq(in, i ? "all" : "256x256x256");
        ck_assert_double_eq(q.failed, p[i].failed);
        ck_assert_int_eq(q.sample, p[i].sample);
        ck_assert_int_eq(q.results, p[i].results);
        ck_assert_int_eq(q.es_num, i ? 0 : 4); /* nan: not drawn for a scenario without early stopping */
        ck_assert(i ? isnan(q.es_thr) : q.es_thr == 1.25);
        ck_assert(i ? isnan(q.time_s) : q.time_s == 2.5);
        ck_assert_double_eq(q.tflops_hi, p[i].tflops_hi);
        ck_assert_double_eq(q.explored, p[i].explored);
    }
    ck_assert_int_eq(tc_tsv_next(r), 0);
    tc_tsv_close(r);
    fclose(fp);
    free(buf);
}
END_TEST

START_TEST(test_sim_exact_baseline_and_parallel)
{
    struct sim_settings s;
    struct sim_data *d;
    struct sim_result *r;
    sim_settings_default(&s);
    fixed(&s, 3, 10);
    s.samples = 3;
    s.runs = 7;
    s.n_scenarios = 0;
    scen(&s, 0, "baseline", 2);
    scen(&s, 1, "ideal", 2); /* the paper's parallel model; the list-scheduled one: test_sim_parallel_makespan */
    d = data_abc(&s);
    ck_near(sim_data_optimal_ms(d, 0, SIM_ESTIMATOR_MEDIAN), 2.0);
    ck_assert_int_eq(sim_data_n_valid(d, 0), 3);
    r = sim_run(d, &s, NULL, NULL);
    ck_assert_msg(r != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(r->n_points, 6);
    for (int i = 0; i < s.samples; i++) {
        const struct sim_point *b = &r->points[i * 2], *p = &r->points[i * 2 + 1];
        ck_assert_int_eq(b->results, 7);
        ck_near(b->time_s, 0.250);
        ck_near(b->time_s_lo, 0.250);
        ck_near(b->time_s_hi, 0.250);
        ck_near(b->tflops, 1000.0);
        ck_near(b->speedup, 1.0);
        ck_assert_int_eq(b->n_short, 7);
        ck_near(p->time_s, 0.190);
        ck_near(p->speedup, 1.0);
        ck_assert_int_eq(p->n_config, 3);
        ck_assert_int_eq(p->exec_ms, 10);
    }
    sim_result_free(r);
    sim_data_free(d);
}
END_TEST

/* The two configurations of the estimator tests, one input "x" (flops 1e9), no compile time, no overhead:
 *   P (config 0): 1 1 1 1 1 1 9 ms — mean 15/7 = 2.14, median 1, min 1
 *   Q (config 1): 2 2 2 2 2 2 ms   — mean 2, median 2, min 2
 * Settings for `est` ranking and `truth` scoring, N_CONFIG 2 (every run explores both), exec_ms, 2 samples x 5 runs,
 * the baseline scenario; the data built for them. */
static struct sim_data *data_pq(struct sim_settings *s, enum sim_estimator est, enum sim_estimator truth,
                                int exec_ms)
{
    static const uint64_t p[] = {1 * MS, 1 * MS, 1 * MS, 1 * MS, 1 * MS, 1 * MS, 9 * MS};
    static const uint64_t q[] = {2 * MS, 2 * MS, 2 * MS, 2 * MS, 2 * MS, 2 * MS};
    struct sim_data *d;
    sim_settings_default(s);
    fixed(s, 2, exec_ms);
    s->samples = 2;
    s->runs = 5;
    s->estimator = est;
    s->truth = truth;
    s->n_scenarios = 0;
    scen(s, 0, "baseline", 1);
    d = sim_data_new(s);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(sim_data_add_input(d, "x", 1e9), 0);
    add_const(d, 0, 0, 0, 0, p, 7);
    add_const(d, 0, 1, 0, 0, q, 6);
    return d;
}

/* The estimator decides the winner. Two configurations, EXEC_TIME 10 ms, all executions run (j = n):
 *   P: 1 1 1 1 1 1 9 ms (sum 15 > 10 only at j = 7): mean 15/7 = 2.14, median 1, min 1; true median 1
 *   Q: 2 2 2 2 2 2 ms (sum 12 > 10 at j = 6): mean 2, median 2, min 2; true 2
 * mean picks Q (speedup 1/2), median and min pick P (speedup 1). */
START_TEST(test_sim_estimators)
{
    static const enum sim_estimator est[3] = {SIM_ESTIMATOR_MEAN, SIM_ESTIMATOR_MEDIAN, SIM_ESTIMATOR_MIN};
    static const double want[3] = {0.5, 1.0, 1.0};
    for (int e = 0; e < 3; e++) {
        struct sim_settings s;
        /* scored by the true median whatever ranks (--truth median) */
        struct sim_data *d = data_pq(&s, est[e], SIM_ESTIMATOR_MEDIAN, 10);
        struct sim_result *r = sim_run(d, &s, NULL, NULL);
        ck_assert_msg(r != NULL, "%s", tc_errmsg());
        ck_near(r->points[0].speedup, want[e]);
        ck_near(r->points[0].time_s, (15.0 + 12.0) * 1e-3);
        sim_result_free(r);
        sim_data_free(d);
    }
}
END_TEST

/* j at its boundaries: executions of exactly 1 ms, n = 50, no compile, no overhead (tuning time = x1+...+xj):
 *   EXEC_TIME 10: prefix 10 is not > 10, so j = 11 -> 11 ms; EXEC_TIME 49: j = 50 -> 50 ms, not short;
 *   EXEC_TIME 50: the sum 50 never exceeds 50 -> j = 50, short; EXEC_TIME 60: short as well.
 * A first execution longer than EXEC_TIME: 12 ms then 1 ms: EXEC_TIME 10 -> j = 1, 12 ms. */
START_TEST(test_sim_j_boundaries)
{
    static const int exec_ms[] = {10, 49, 50, 60, 1};
    static const double want_ms[] = {11, 50, 50, 50, 1 + 1};
    static const long want_short[] = {0, 0, 1, 1, 0};
    uint64_t x[50];
    for (int i = 0; i < 50; i++)
        x[i] = MS;
    for (int k = 0; k < 5; k++) {
        struct sim_settings s;
        struct sim_data *d;
        struct sim_result *r;
        sim_settings_default(&s);
        fixed(&s, 1, exec_ms[k]);
        s.samples = 1;
        s.runs = 3;
        s.n_scenarios = 0;
        scen(&s, 0, "baseline", 1);
        d = sim_data_new(&s);
        ck_assert_int_eq(sim_data_add_input(d, "x", 1e9), 0);
        add_const(d, 0, 0, 0, 0, x, 50);
        r = sim_run(d, &s, NULL, NULL);
        ck_assert_msg(r != NULL, "%s", tc_errmsg());
        ck_near(r->points[0].time_s, want_ms[k] * 1e-3);
        ck_assert_int_eq(r->points[0].n_short, want_short[k] * 3);
        sim_result_free(r);
        sim_data_free(d);
    }
    {
        static const uint64_t y[] = {12 * MS, 1 * MS};
        struct sim_settings s;
        struct sim_data *d;
        struct sim_result *r;
        sim_settings_default(&s);
        fixed(&s, 1, 10);
        s.samples = 1;
        s.runs = 1;
        s.n_scenarios = 0;
        scen(&s, 0, "baseline", 1);
        d = sim_data_new(&s);
        ck_assert_int_eq(sim_data_add_input(d, "x", 1e9), 0);
        add_const(d, 0, 0, 0, 0, y, 2);
        r = sim_run(d, &s, NULL, NULL);
        ck_near(r->points[0].time_s, 12e-3);
        ck_assert(isnan(r->points[0].time_s_lo)); /* one result: no interval */
        sim_result_free(r);
        sim_data_free(d);
    }
}
END_TEST

/* Early stopping. EXEC_TIME 9 ms, no compile or overhead:
 *   P: 1 ms x 10, then 0.1 ms: prefix 10 > 9 at j = 10, so the 0.1 ms execution is never run: BEST_KNOWN after P
 *      is 1 ms (not 0.1); rep 10 ms
 *   Q: 2 ms x 10: j = 5 (prefix 10 > 9), rep 10 ms; mean of its first k executions is 2 ms
 * Runs that explore P first: Q is stopped iff j = 5 > EARLY_STOP_NUM and 2 > 1 x THRESHOLD; stopped at
 * EARLY_STOP_NUM = 4 it costs 8 ms instead of 10. Runs that explore Q first never stop (BEST_KNOWN = inf, then
 * P's mean 1 is not > 2 x THRESHOLD). So time = 20 ms − 2 ms x (stopped per run) and the winner is P always.
 *   ESN 4, thr 1.999 -> stops in P-first runs (about half: 0 < stopped < 1), time = 20 − 2 x stopped
 *   ESN 4, thr 2.0   -> 2 > 2 is false: never (and never if BEST_KNOWN wrongly counted the unrun 0.1 ms: then
 *                       it would stop)
 *   ESN 5, thr 1.5   -> j = 5 is not > 5: never */
START_TEST(test_sim_early_stop_rule)
{
    uint64_t p[11], q[10];
    static const int esn[3] = {4, 4, 5};
    static const double thr[3] = {1.999, 2.0, 1.5};
    for (int i = 0; i < 10; i++)
        p[i] = MS, q[i] = 2 * MS;
    p[10] = MS / 10;
    for (int k = 0; k < 3; k++) {
        struct sim_settings s;
        struct sim_data *d;
        struct sim_result *r;
        const struct sim_point *base, *es;
        sim_settings_default(&s);
        fixed(&s, 2, 9);
        s.es_num_lo = s.es_num_hi = esn[k];
        s.es_thr_lo = s.es_thr_hi = thr[k];
        s.samples = 1;
        s.runs = 400;
        s.n_scenarios = 0;
        scen(&s, 0, "baseline", 1);
        scen(&s, 1, "early-stop", 1);
        d = sim_data_new(&s);
        ck_assert_int_eq(sim_data_add_input(d, "x", 1e9), 0);
        add_const(d, 0, 0, 0, 0, p, 11);
        add_const(d, 0, 1, 0, 0, q, 10);
        r = sim_run(d, &s, NULL, NULL);
        ck_assert_msg(r != NULL, "%s", tc_errmsg());
        base = &r->points[0];
        es = &r->points[1];
        ck_near(base->time_s, 20e-3);
        ck_near(base->stopped, 0);
        ck_near(es->speedup, 1.0);
        ck_assert_int_eq(es->es_num, esn[k]);
        ck_near(es->es_thr, thr[k]);
        if (k == 0) {
            ck_assert_msg(es->stopped > 0.3 && es->stopped < 0.7, "stopped %g", es->stopped);
            ck_near(es->time_s, (20.0 - 2.0 * es->stopped) * 1e-3);
        } else {
            ck_near(es->stopped, 0);
            ck_near(es->time_s, 20e-3);
        }
        sim_result_free(r);
        sim_data_free(d);
    }
}
END_TEST

/* The effective compile factor when N_CONFIG is not a multiple of the factor, and N_CONFIG capped at the valid
 * count. Five configurations of 1 ms x 20 (EXEC_TIME 10: j = 11, rep 11 ms), compile 30 ms, overhead 4 ms:
 *   sequential: 5 x (11 + 30 + 4) = 225 ms
 *   parallel x2: effective 5 / ceil(5/2) = 5/3: 55 + 20 + 150 / (5/3) = 75 + 90 = 165 ms
 *   parallel x4: 5 / ceil(5/4) = 2.5: 75 + 60 = 135 ms; parallel x16: 5 / 1 = 5: 75 + 30 = 105 ms;
 *   parallel x5 (divisible): 5 / 1 = 5: 105 ms
 *   pipelined x1: compiles end at 30, 60, ..., 150; each benchmark (15 ms) starts when its compile is done and
 *     the GPU is free: the last starts at 150 -> 165 ms; pipelined x16: all compiled at 30 -> 30 + 5 x 15 = 105 ms
 * N_CONFIG is drawn as 9 and capped at 5 valid. With equal compile times the list schedule of "parallel" runs in
 * ceil(5 / F) rounds of 30 ms, exactly the paper's ideal model (the two differ when compile times do:
 * test_sim_parallel_makespan). */
START_TEST(test_sim_compile_factor)
{
    static const char *names[] = {"baseline", "parallel", "parallel", "parallel", "pipelined", "pipelined",
                                  "parallel"};
    static const int factor[] = {1, 2, 4, 16, 1, 16, 5};
    static const double want_ms[] = {225, 165, 135, 105, 165, 105, 105};
    uint64_t x[20];
    struct sim_settings s;
    struct sim_data *d;
    struct sim_result *r;
    for (int i = 0; i < 20; i++)
        x[i] = MS;
    sim_settings_default(&s);
    fixed(&s, 9, 10);
    s.samples = 2;
    s.runs = 4;
    s.n_scenarios = 0;
    for (int k = 0; k < 7; k++) {
        scen(&s, k, names[k], factor[k]);
        snprintf(s.scenarios[k].name, sizeof s.scenarios[k].name, "%s-%d", names[k], factor[k]);
    }
    d = sim_data_new(&s);
    ck_assert_int_eq(sim_data_add_input(d, "x", 1e9), 0);
    for (int c = 0; c < 5; c++)
        add_const(d, 0, c, 30, 4, x, 20);
    r = sim_run(d, &s, NULL, NULL);
    ck_assert_msg(r != NULL, "%s", tc_errmsg());
    for (int k = 0; k < 7; k++) {
        ck_assert_int_eq(r->points[k].n_config, 9);
        ck_near(r->points[k].explored, 5);
        ck_near(r->points[k].time_s, want_ms[k] * 1e-3);
    }
    sim_result_free(r);
    sim_data_free(d);
}
END_TEST

/* Pipelined compilation where the draw order does not matter: three configurations with the same compile
 * (50 ms) and benchmark cost (rep 27 ms + overhead 3 ms = 30 ms) but different speed, EXEC_TIME 25:
 *   X: 3 ms x 9 (j = 9), Y: 9 ms x 3 (j = 3), Z: 27 ms (j = 1): winner X (true 3 ms; optimal 3 ms -> speedup 1)
 *   sequential 3 x 80 = 240; pipelined x1: compiles end 50, 100, 150 -> last benchmark 150..180 = 180 ms;
 *   pipelined x2: compiles end 50, 50, 100; GPU 50..80, 80..110, 110..140 = 140 ms; x3 the same 140 ms. */
START_TEST(test_sim_pipelined)
{
    static const uint64_t xx[] = {3 * MS, 3 * MS, 3 * MS, 3 * MS, 3 * MS, 3 * MS, 3 * MS, 3 * MS, 3 * MS};
    static const uint64_t yy[] = {9 * MS, 9 * MS, 9 * MS};
    static const uint64_t zz[] = {27 * MS};
    static const int factor[] = {1, 1, 2, 3};
    static const double want_ms[] = {240, 180, 140, 140};
    struct sim_settings s;
    struct sim_data *d;
    struct sim_result *r;
    sim_settings_default(&s);
    fixed(&s, 3, 25);
    s.samples = 2;
    s.runs = 6;
    s.n_scenarios = 0;
    for (int k = 0; k < 4; k++) {
        scen(&s, k, k == 0 ? "baseline" : "pipelined", factor[k]);
        snprintf(s.scenarios[k].name, sizeof s.scenarios[k].name, "s%d", k);
    }
    d = sim_data_new(&s);
    ck_assert_int_eq(sim_data_add_input(d, "x", 1e9), 0);
    add_const(d, 0, 0, 50, 3, xx, 9);
    add_const(d, 0, 1, 50, 3, yy, 3);
    add_const(d, 0, 2, 50, 3, zz, 1);
    r = sim_run(d, &s, NULL, NULL);
    ck_assert_msg(r != NULL, "%s", tc_errmsg());
    for (int k = 0; k < 4; k++) {
        ck_near(r->points[k].time_s, want_ms[k] * 1e-3);
        ck_near(r->points[k].speedup, 1.0);
        ck_near(r->points[k].tflops, 1e9 / 3.0 * 1e-9);
    }
    sim_result_free(r);
    sim_data_free(d);
}
END_TEST

/* The per-execution overhead model. One configuration: 1 estimate execution of 3 ms (untimed), 9 timed of 3 ms,
 * wall 33 ms: overhead = 33 − 27 = 6 ms, of which 3 ms of gaps over 10 launches = 0.3 ms per execution.
 * EXEC_TIME 10: j = 4 (12 > 10), rep 12.
 *   paper:    12 + 6 = 18 ms
 *   per-exec: 12 + 6 − 0.3 x (9 − 4) = 16.5 ms
 * EXEC_TIME 30 (short, all 9 run): both 27 + 6 = 33 ms. */
START_TEST(test_sim_overhead_per_exec)
{
    static const uint64_t x[] = {3 * MS, 3 * MS, 3 * MS, 3 * MS, 3 * MS, 3 * MS, 3 * MS, 3 * MS, 3 * MS};
    static const int exec_ms[] = {10, 30};
    static const double want_paper[] = {18, 33}, want_pe[] = {16.5, 33};
    for (int k = 0; k < 2; k++) {
        struct sim_settings s;
        struct sim_data *d;
        struct sim_result *r;
        struct sim_config_run cr;
        sim_settings_default(&s);
        fixed(&s, 1, exec_ms[k]);
        s.samples = 1;
        s.runs = 2;
        s.n_scenarios = 0;
        scen(&s, 0, "baseline", 1);
        scen(&s, 1, "per-exec", 1);
        d = sim_data_new(&s);
        ck_assert_int_eq(sim_data_add_input(d, "x", 1e9), 0);
        memset(&cr, 0, sizeof cr);
        cr.wall_ms = 33;
        cr.timed_ns = x;
        cr.n_timed = 9;
        cr.untimed_ms = 3;
        cr.n_untimed = 1;
        ck_assert_int_eq(sim_data_add_config(d, 0, &cr), 0);
        r = sim_run(d, &s, NULL, NULL);
        ck_assert_msg(r != NULL, "%s", tc_errmsg());
        ck_near(r->points[0].time_s, want_paper[k] * 1e-3);
        ck_near(r->points[1].time_s, want_pe[k] * 1e-3);
        sim_result_free(r);
        sim_data_free(d);
    }
}
END_TEST

static double choose(int n, int k)
{
    double c = 1;
    if (k < 0 || k > n)
        return 0;
    for (int i = 1; i <= k; i++)
        c = c * (double)(n - k + i) / (double)i;
    return c;
}

/* Monte Carlo against theory. V = 12 configurations whose executions are constant (every estimate is the true
 * time), true times t_k = 1 + 0.75 k ms for k = 1..12 (rank k). Best of N drawn uniformly without replacement:
 * P(best has rank k) = C(V − k, N − 1) / C(V, N), so E[speedup] = Σ_k P(k) t_1 / t_k. The simulated mean over
 * 3000 runs must agree with it within its confidence interval, for N = 1, 2, 3, 5, 8 and 12. */
START_TEST(test_sim_monte_carlo_order_statistics)
{
    static const int ns[] = {1, 2, 3, 5, 8, 12};
    const int v = 12;
    uint64_t x[12][40];
    for (int k = 0; k < v; k++)
        for (int i = 0; i < 40; i++)
            x[k][i] = (uint64_t)((1 + 0.75 * (k + 1)) * (double)MS);
    for (size_t q = 0; q < sizeof ns / sizeof ns[0]; q++) {
        int n = ns[q];
        double expect = 0;
        struct sim_settings s;
        struct sim_data *d;
        struct sim_result *r;
        const struct sim_point *p;
        for (int k = 1; k <= v; k++)
            expect += choose(v - k, n - 1) / choose(v, n) * (1 + 0.75) / (1 + 0.75 * k);
        sim_settings_default(&s);
        fixed(&s, n, 20);
        s.samples = 1;
        s.runs = 3000;
        s.seed = 12345;
        s.n_scenarios = 0;
        scen(&s, 0, "baseline", 1);
        d = sim_data_new(&s);
        ck_assert_int_eq(sim_data_add_input(d, "x", 1e9), 0);
        /* added in shuffled order so that rank and index differ */
        for (int c = 0; c < v; c++) {
            int k = (c * 5) % v;
            add_const(d, 0, c, 10, 1, x[k], 40);
        }
        r = sim_run(d, &s, NULL, NULL);
        ck_assert_msg(r != NULL, "%s", tc_errmsg());
        p = &r->points[0];
        /* simulate's own closed form (sim_random_search_expected) is the one above */
        ck_assert_msg(fabs(sim_random_search_expected(d, 0, n, s.failed_cost, s.truth) - expect) < 1e-12,
                      "N = %d: sim_random_search_expected %.15f vs %.15f", n, sim_random_search_expected(d, 0, n,
                      s.failed_cost, s.truth), expect);
        if (n == v) {
            ck_near(p->speedup, 1.0);
        } else {
            /* The 95% CI the simulator reports, widened to 99.9% (z 3.2905 / t 1.9608) so that six checks on
             * one fixed seed fail by chance in about 0.6% of seeds rather than 26%; it still catches a sampler
             * with replacement or an off-by-one in the draw (each moves the mean by several widths). */
            double half = (p->speedup_hi - p->speedup_lo) / 2 * 3.2905 / 1.9608;
            ck_assert_msg(fabs(p->speedup - expect) <= half,
                          "N = %d: closed form %.6f outside mean %.6f +- %.6f (95%% CI [%.6f, %.6f])", n, expect,
                          p->speedup, half, p->speedup_lo, p->speedup_hi);
            ck_assert_msg(p->speedup_hi - p->speedup_lo < 0.05, "CI too wide to test anything");
        }
        sim_result_free(r);
        sim_data_free(d);
    }
}
END_TEST

/* The same with failures drawn (--failed-cost triton): V = 12 valid configurations as above and F = 6 failed ones
 * (never the winner; a run that draws only failures scores 0). The valid one of rank k is the best drawn with
 * probability C(V + F - k, N - 1) / C(V + F, N). simulate's closed form (sim_random_search_expected) equals this
 * sum, and the Monte Carlo replay's mean agrees with it within its 99.9% CI, for N = 1, 3, 7 and 18 (all). */
START_TEST(test_sim_monte_carlo_order_statistics_with_failures)
{
    static const int ns[] = {1, 3, 7, 18};
    const int v = 12, f = 6;
    uint64_t x[12][40];
    for (int k = 0; k < v; k++)
        for (int i = 0; i < 40; i++)
            x[k][i] = (uint64_t)((1 + 0.75 * (k + 1)) * (double)MS);
    for (size_t q = 0; q < sizeof ns / sizeof ns[0]; q++) {
        int n = ns[q];
        double expect = 0;
        struct sim_settings s;
        struct sim_data *d;
        struct sim_result *r;
        for (int k = 1; k <= v; k++)
            expect += choose(v + f - k, n - 1) / choose(v + f, n) * (1 + 0.75) / (1 + 0.75 * k);
        sim_settings_default(&s);
        fixed(&s, n, 20);
        s.failed_cost = SIM_FAILED_TRITON;
        s.samples = 1;
        s.runs = 3000;
        s.seed = 777;
        s.n_scenarios = 0;
        scen(&s, 0, "baseline", 1);
        d = sim_data_new(&s);
        ck_assert_int_eq(sim_data_add_input(d, "x", 1e9), 0);
        for (int c = 0; c < v + f; c++) {
            if (c % 3 == 2)
                ck_assert_int_eq(sim_data_add_failed(d, 0, c, 10, 10, 1), 0);
            else
                add_const(d, 0, c, 10, 1, x[(c - c / 3) % v], 40);
        }
        double closed = sim_random_search_expected(d, 0, n, SIM_FAILED_TRITON, s.truth);
        ck_assert_msg(fabs(closed - expect) < 1e-12, "N = %d: %.15f vs %.15f", n, closed, expect);
        r = sim_run(d, &s, NULL, NULL);
        ck_assert_msg(r != NULL, "%s", tc_errmsg());
        const struct sim_point *p = &r->points[0];
        double half = (p->speedup_hi - p->speedup_lo) / 2 * 3.2905 / 1.9608;
        if (n == v + f)
            ck_near(p->speedup, 1.0);
        else
            ck_assert_msg(fabs(p->speedup - closed) <= half, "N = %d: closed form %.6f outside mean %.6f +- %.6f",
                          n, closed, p->speedup, half);
        sim_result_free(r);
        sim_data_free(d);
    }
}
END_TEST

/* Random data: 3 inputs x 25 configurations of 50..400 executions of 0.05..2 ms, random compile and overhead. */
static struct sim_data *data_random(struct sim_settings *s, unsigned seed)
{
    struct sim_data *d = sim_data_new(s);
    uint64_t x[400];
    ck_assert_ptr_nonnull(d);
    srand(seed);
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "in%d", i);
        ck_assert_int_eq(sim_data_add_input(d, name, 1e9 * (i + 1)), i);
        for (int c = 0; c < 25; c++) {
            int n = 50 + rand() % 351;
            double base = 0.05 + 1.95 * rand() / (double)RAND_MAX;
            struct sim_config_run cr;
            double sum = 0;
            for (int k = 0; k < n; k++) {
                x[k] = (uint64_t)(base * (1 + 0.2 * rand() / (double)RAND_MAX) * (double)MS);
                sum += (double)x[k] * 1e-6;
            }
            memset(&cr, 0, sizeof cr);
            cr.config = c;
            cr.compile_ms = 100 + rand() % 900;
            cr.compile_isolated_ms = NAN;
            cr.untimed_ms = 5;
            cr.n_untimed = 10;
            cr.wall_ms = sum + 5 + 0.01 * (n + 10);
            cr.timed_ns = x;
            cr.n_timed = n;
            ck_assert_int_eq(sim_data_add_config(d, i, &cr), 0);
        }
    }
    return d;
}

static char *points_text(const struct sim_data *d, const struct sim_settings *s, const struct sim_result *r,
                         size_t *len)
{
    char *buf = NULL;
    FILE *fp = open_memstream(&buf, len);
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(sim_write_points(fp, d, s, r, "test"), 0);
    fclose(fp);
    return buf;
}

/* Same seed -> byte-identical points for 1, 2 and 7 threads; another seed -> different points. */
START_TEST(test_sim_threads_identical)
{
    static const int threads[] = {1, 2, 7};
    static const char *names[] = {"baseline", "parallel", "early-stop", "pipelined+early-stop", "per-exec"};
    char *first = NULL;
    size_t first_len = 0;
    struct sim_settings s;
    struct sim_data *d;
    sim_settings_default(&s);
    s.samples = 60;
    s.runs = 8;
    s.n_config_hi = 30;
    s.seed = 99;
    s.n_scenarios = 0;
    for (int k = 0; k < 5; k++)
        scen(&s, k, names[k], 16);
    d = data_random(&s, 7);
    for (int t = 0; t < 4; t++) {
        struct sim_result *r;
        char *text;
        size_t len;
        s.threads = t < 3 ? threads[t] : 1;
        if (t == 3)
            s.seed = 100;
        r = sim_run(d, &s, NULL, NULL);
        ck_assert_msg(r != NULL, "%s", tc_errmsg());
        ck_assert_int_eq(r->n_inputs_used, 3);
        text = points_text(d, &s, r, &len);
        if (t == 0) {
            first = text;
            first_len = len;
        } else {
            int same = len == first_len && memcmp(text, first, len) == 0;
            ck_assert_msg(t < 3 ? same : !same, "threads %d seed %llu: output %s", s.threads,
                          (unsigned long long)s.seed, same ? "unchanged" : "differs");
            free(text);
        }
        sim_result_free(r);
    }
    free(first);
    sim_data_free(d);
}
END_TEST

/* Scenarios replay the same draws: adding a scenario changes no other scenario's points, and the parallel
 * scenario is never slower than the baseline on the same sample (same draws, compile divided by >= 1). */
START_TEST(test_sim_shared_draws)
{
    struct sim_settings s, s2;
    struct sim_data *d;
    struct sim_result *r, *r2;
    sim_settings_default(&s);
    s.samples = 40;
    s.runs = 5;
    s.n_scenarios = 0;
    scen(&s, 0, "baseline", 16);
    scen(&s, 1, "parallel", 16);
    d = data_random(&s, 3);
    s2 = s;
    s2.n_scenarios = 1;
    r = sim_run(d, &s, NULL, NULL);
    r2 = sim_run(d, &s2, NULL, NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert_ptr_nonnull(r2);
    for (int i = 0; i < s.samples; i++) {
        const struct sim_point *b = &r->points[2 * i], *p = &r->points[2 * i + 1], *b2 = &r2->points[i];
        ck_assert(b->time_s == b2->time_s && b->speedup == b2->speedup);
        ck_assert(p->time_s <= b->time_s);
        ck_assert(p->speedup == b->speedup); /* same draws, same winners */
    }
    sim_result_free(r);
    sim_result_free(r2);
    sim_data_free(d);
}
END_TEST

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The true time is the median of all timed executions (the mean of the two middle ones for even n). Checked
 * against a sort for n = 1..9 and larger n, for constant, narrow, wide, heavy-tailed and two-valued data
 * (one input per case, one configuration each, so the optimal time is that median). */
START_TEST(test_sim_true_time_median)
{
    static const size_t sizes[] = {1, 2, 3, 4, 5, 8, 9, 1000, 1001, 30000};
    uint64_t *x = malloc(30000 * sizeof *x), *y = malloc(30000 * sizeof *y);
    struct sim_settings s;
    struct sim_data *d;
    int input = 0;
    sim_settings_default(&s);
    d = sim_data_new(&s);
    srand(5);
    for (int kind = 0; kind < 6; kind++)
        for (size_t q = 0; q < sizeof sizes / sizeof sizes[0]; q++) {
            size_t n = sizes[q];
            double want;
            char name[32];
            for (size_t i = 0; i < n; i++) {
                uint64_t r = (uint64_t)rand();
                switch (kind) {
                case 0: x[i] = 5 * MS; break;                                       /* constant */
                case 1: x[i] = 7000 + r % 300; break;                               /* narrow: one value per bin */
                case 2: x[i] = 1 + r * 997; break;                                  /* wide */
                case 3: x[i] = 20000 + r % 2000 + (i % 97 == 0 ? 50 * MS : 0); break; /* far outliers */
                case 4: x[i] = i % 2 ? 3 * MS : 4 * MS; break;                      /* two values */
                default: x[i] = (uint64_t)1 << (r % 60); break;                     /* powers of two up to 2^59 */
                }
            }
            memcpy(y, x, n * sizeof *x);
            qsort(y, n, sizeof *y, cmp_u64);
            want = n % 2 ? (double)y[n / 2] * 1e-6 : ((double)y[n / 2 - 1] + (double)y[n / 2]) * 0.5e-6;
            snprintf(name, sizeof name, "k%d-n%zu", kind, n);
            ck_assert_int_eq(sim_data_add_input(d, name, 1e9), input);
            add_const(d, input, 0, 0, 0, x, (int)n);
            ck_assert_msg(sim_data_optimal_ms(d, input, SIM_ESTIMATOR_MEDIAN) == want,
                          "%s: median %.17g, expected %.17g", name,
                          sim_data_optimal_ms(d, input, SIM_ESTIMATOR_MEDIAN), want);
            input++;
        }
    sim_data_free(d);
    free(x);
    free(y);
}
END_TEST

START_TEST(test_sim_bad_settings)
{
    struct sim_settings s;
    struct sim_scenario sc;
    struct sim_data *d;
    sim_settings_default(&s);
    ck_assert_int_eq(sim_settings_check(&s), 0);
    s.exec_ms_lo = 0;
    ck_assert_int_eq(sim_settings_check(&s), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--exec-ms"));
    sim_settings_default(&s);
    s.n_config_lo = 5, s.n_config_hi = 4;
    ck_assert_int_eq(sim_settings_check(&s), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--n-config"));
    ck_assert_int_eq(sim_scenario_parse("parallel+turbo", SIM_COMPILE_SEQUENTIAL, 16, SIM_OVERHEAD_PAPER, &sc), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "turbo"));
    ck_assert_int_eq(sim_scenario_parse("parallel+pipelined", SIM_COMPILE_SEQUENTIAL, 16, SIM_OVERHEAD_PAPER, &sc),
                     -1);
    ck_assert_int_eq(sim_scenario_parse("pipelined+early-stop+per-exec", SIM_COMPILE_SEQUENTIAL, 8,
                                        SIM_OVERHEAD_PAPER, &sc),
                     0);
    ck_assert(sc.compile == SIM_COMPILE_PIPELINED && sc.compile_factor == 8 && sc.early_stop &&
              sc.overhead == SIM_OVERHEAD_PER_EXEC);
    /* settings outside the tables the data were built for */
    sim_settings_default(&s);
    d = data_random(&s, 1);
    s.exec_ms_hi = 200;
    ck_assert_ptr_null(sim_run(d, &s, NULL, NULL));
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--exec-ms"));
    sim_settings_default(&s);
    s.estimator = SIM_ESTIMATOR_MEDIAN;
    ck_assert_ptr_null(sim_run(d, &s, NULL, NULL));
    sim_data_free(d);
    /* a zero-length execution is refused */
    {
        static const uint64_t z[] = {MS, 0};
        struct sim_config_run cr;
        sim_settings_default(&s);
        d = sim_data_new(&s);
        sim_data_add_input(d, "x", 1e9);
        memset(&cr, 0, sizeof cr);
        cr.timed_ns = z;
        cr.n_timed = 2;
        cr.wall_ms = 5;
        ck_assert_int_eq(sim_data_add_config(d, 0, &cr), -1);
        ck_assert_ptr_nonnull(strstr(tc_errmsg(), "0 ns"));
        sim_data_free(d);
    }
}
END_TEST

/* The parallel model's list schedule, by hand: compiles go, in draw order, to the worker free first (ties: the
 * lower index). {5, 4, 3, 3, 3} ms on 2 workers: w0 5, w1 4, w1 7, w0 8, w1 10 -> makespan 10 (the optimum is 9,
 * {5, 4} | {3, 3, 3}; list scheduling, here the same as LPT since the order is descending, does not find it).
 * {3, 3, 3, 4, 5}: w0 3, w1 3, w0 6, w1 7, w0 11 -> 11. The paper's ideal for N = 5, F = 2: 18 / (5/3) = 10.8. The
 * clock charges makespan + Σ bench (bench 1 ms each: + 5). Pipelined {5, 4, 3, 3, 3}, bench 1 ms: compiles end
 * 5, 4, 7, 8, 10; GPU 5-6 (first), 6-7, 7-8, 8-9, 10-11 -> 11 ms. */
START_TEST(test_sim_parallel_makespan)
{
    static const double desc[] = {5, 4, 3, 3, 3}, asc[] = {3, 3, 3, 4, 5};
    const double *orders[] = {desc, asc};
    static const double want_par[] = {10 + 5, 11 + 5};
    double wf[SIM_CLOCK_WORDS(2)];
    struct sim_clock k;
    for (int o = 0; o < 2; o++) {
        sim_clock_start(&k, SIM_COMPILE_PARALLEL, 2, 0, 0, wf);
        for (int q = 0; q < 5; q++)
            sim_clock_step(&k, 1, (struct sim_compile_ms){orders[o][q], orders[o][q], orders[o][q]}, 1);
        ck_near(sim_clock_ms(&k), want_par[o]);
        sim_clock_start(&k, SIM_COMPILE_IDEAL, 2, 0, 0, NULL);
        for (int q = 0; q < 5; q++)
            sim_clock_step(&k, 1, (struct sim_compile_ms){orders[o][q], orders[o][q], orders[o][q]}, 1);
        ck_near(sim_clock_ms(&k), 10.8 + 5);
        /* sequential charges seq_ms, which may differ from the parallel models' par_ms */
        sim_clock_start(&k, SIM_COMPILE_SEQUENTIAL, 2, 0, 0, NULL);
        for (int q = 0; q < 5; q++)
            sim_clock_step(&k, 1, (struct sim_compile_ms){1, orders[o][q], orders[o][q]}, 1);
        ck_near(sim_clock_ms(&k), 5 + 5);
    }
    sim_clock_start(&k, SIM_COMPILE_PIPELINED, 2, 0, 0, wf);
    for (int q = 0; q < 5; q++)
        sim_clock_step(&k, 1, (struct sim_compile_ms){desc[q], desc[q], desc[q]}, 1);
    ck_near(sim_clock_ms(&k), 11);
}
END_TEST

/* Through the replay, where the draw order cannot matter: data_abc (compile 100, 50, 30 ms; benchmarks 33, 22,
 * 15 ms) on F = 3 workers. parallel: all three compile at once, makespan = the slowest, 100 ms: 70 + 100 = 170 ms.
 * ideal: 180 / (3 / ceil(3/3)) = 60: 70 + 60 = 130 ms, sooner than the slowest compile allows. pipelined: the
 * compiles end at 100, 50 and 30; the GPU benchmarks in draw order, each once compiled, so A (100 + 33) ends no
 * sooner than 133 ms, and nothing waits longer than for the whole makespan: at most parallel's 170 ms (drawn A
 * first: 100..133, 133..155, 155..170). */
START_TEST(test_sim_parallel_makespan_replay)
{
    struct sim_settings s;
    struct sim_data *d;
    struct sim_result *r;
    sim_settings_default(&s);
    fixed(&s, 3, 10);
    s.samples = 4;
    s.runs = 6;
    s.n_scenarios = 0;
    scen(&s, 0, "parallel", 3);
    scen(&s, 1, "ideal", 3);
    scen(&s, 2, "pipelined", 3);
    d = data_abc(&s);
    r = sim_run(d, &s, NULL, NULL);
    ck_assert_msg(r != NULL, "%s", tc_errmsg());
    for (int i = 0; i < s.samples; i++) {
        ck_near(r->points[i * 3].time_s, 0.170);
        ck_near(r->points[i * 3 + 1].time_s, 0.130);
        ck_assert(r->points[i * 3 + 2].time_s >= 0.133 - 1e-12);
        ck_assert(r->points[i * 3 + 2].time_s <= 0.170 + 1e-12);
    }
    sim_result_free(r);
    sim_data_free(d);
}
END_TEST

/* The warm-up and the contention level, on a hand-built trace (data_abc's benchmarks: A 33, B 22, C 15 ms, Σ 70)
 * whose compile times are contended ones of 9 workers (compile_jobs 9), with isolated times A 40 (contended 100),
 * B 20 (50), C none (30: contended at every level), and a recorded mean warm-up of 7 ms. N_CONFIG 3: every run
 * compiles all three, so with F >= 3 they all run together, k = min(F, 3) = 3, weight log2 3 ÷ log2 9 = 1/2:
 *   A 40 + (100 − 40)/2 = 70, B 20 + 30/2 = 35, C 30.
 *   sequential (isolated, C its contended 30): 40 + 20 + 30 + 70 + one warm-up 7 = 167 ms
 *   parallel x3: all start at 0, makespan 70: 70 + 70 + 7 = 147 ms (the warm-ups run together: one 7 ms)
 *   ideal x3: (70 + 35 + 30) ÷ (3 / ceil(3/3)) = 45: 45 + 70 + 7 = 122 ms
 *   parallel x1: k = 1, the isolated times one after another: 40 + 20 + 30 + 70 + 7 = 167 ms = sequential
 *   pipelined x3: compiles ready at 70 + 7, 35 + 7, 30 + 7; A's benchmark cannot end before 77 + 33 = 110 ms, and
 *   nothing ends later than parallel's 147 ms
 * Under --compile-model paper nothing of this: sequential 180 + 70 = 250 ms, ideal 180 ÷ 3 + 70 = 130 ms. */
static void add_iso(struct sim_data *d, int config, double compile_ms, double iso_ms, double ovh_ms,
                    const uint64_t *x, int n)
{
    add_run(d, 0, config, compile_ms, iso_ms, ovh_ms, x, n);
}

static struct sim_data *data_abc_iso(struct sim_settings *s)
{
    static const uint64_t a[] = {4 * MS, 3 * MS, 3 * MS, 3 * MS, 3 * MS, 3 * MS};
    static const uint64_t b[] = {2 * MS, 2 * MS, 2 * MS, 2 * MS, 2 * MS, 2 * MS, 2 * MS};
    static const uint64_t c[] = {5 * MS, 5 * MS};
    struct sim_data *d = sim_data_new(s);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(sim_data_add_input(d, "1x2x3", 2e12), 0);
    add_iso(d, 10, 100, 40, 20, a, 6);
    add_iso(d, 11, 50, 20, 10, b, 7);
    add_iso(d, 12, 30, NAN, 5, c, 2);
    sim_data_set_compile_env(d, 9, 7, 16);
    return d;
}

START_TEST(test_sim_warmup_and_contention)
{
    for (int paper = 0; paper < 2; paper++) {
        struct sim_settings s;
        struct sim_data *d;
        struct sim_result *r;
        char note[200];
        sim_settings_default(&s);
        fixed(&s, 3, 10);
        s.samples = 3;
        s.runs = 4;
        s.n_scenarios = 0;
        s.compile_model = paper ? SIM_CM_PAPER : SIM_CM_MEASURED;
        scen(&s, 0, "baseline", 3);
        scen(&s, 1, "parallel", 3);
        scen(&s, 2, "ideal", 3);
        scen(&s, 3, "parallel", 1);
        snprintf(s.scenarios[3].name, sizeof s.scenarios[3].name, "parallel-x1"); /* names are unique */
        scen(&s, 4, "pipelined", 3);
        d = data_abc_iso(&s);
        r = sim_run(d, &s, NULL, NULL);
        ck_assert_msg(r != NULL, "%s", tc_errmsg());
        for (int i = 0; i < s.samples; i++) {
            const struct sim_point *p = &r->points[i * 5];
            ck_near(p[0].time_s, paper ? 0.250 : 0.167);
            if (!paper) {
                ck_near(p[1].time_s, 0.147);
                ck_near(p[3].time_s, 0.167);
                ck_assert(p[4].time_s >= 0.110 - 1e-12 && p[4].time_s <= 0.147 + 1e-12);
            }
            ck_near(p[2].time_s, paper ? 0.130 : 0.122);
        }
        ck_assert_int_eq(sim_data_warmup_note(d, s.compile_model, note, sizeof note), !paper);
        ck_assert_ptr_nonnull(strstr(note, paper ? "every model starts its workers warm" : "mean 7 ms; charged"));
        sim_result_free(r);
        sim_data_free(d);
    }
}
END_TEST

/* A scenario with paper_compile charges compile as --compile-model paper does, whatever the settings' model, on
 * the same draws as the others of its run (the report's costs.tsv replays both models in one pass): on the data
 * above, sequential 250 ms and ideal 130 ms (the paper's, by hand above) beside the measured model's 167 and 122 ms
 * in the same run, and every paper_compile point (pipelined too) the same bits as a run under --compile-model
 * paper. */
START_TEST(test_sim_paper_compile_scenario)
{
    struct sim_settings s, p;
    struct sim_data *d;
    struct sim_result *r, *q;
    sim_settings_default(&s);
    fixed(&s, 3, 10);
    s.samples = 3;
    s.runs = 4;
    s.n_scenarios = 0;
    scen(&s, 0, "baseline", 3);
    scen(&s, 1, "ideal", 3);
    scen(&s, 2, "pipelined", 3);
    p = s; /* the paper's model, the same three scenarios */
    p.compile_model = SIM_CM_PAPER;
    for (int k = 0; k < 3; k++) {
        static const char *const name[3] = {"baseline@paper", "ideal@paper", "pipelined@paper"};
        s.scenarios[3 + k] = s.scenarios[k];
        s.scenarios[3 + k].paper_compile = 1;
        snprintf(s.scenarios[3 + k].name, sizeof s.scenarios[3 + k].name, "%s", name[k]);
    }
    s.n_scenarios = 6;
    d = data_abc_iso(&s);
    r = sim_run(d, &s, NULL, NULL);
    ck_assert_msg(r != NULL, "%s", tc_errmsg());
    q = sim_run(d, &p, NULL, NULL);
    ck_assert_msg(q != NULL, "%s", tc_errmsg());
    for (int i = 0; i < s.samples; i++) {
        const struct sim_point *a = &r->points[i * 6];
        ck_near(a[0].time_s, 0.167);
        ck_near(a[1].time_s, 0.122);
        ck_near(a[3].time_s, 0.250);
        ck_near(a[4].time_s, 0.130);
        for (int k = 0; k < 3; k++) {
            const struct sim_point *b = &q->points[i * 3 + k];
            ck_assert(memcmp(&a[3 + k].time_s, &b->time_s, sizeof b->time_s) == 0);
            ck_assert(memcmp(&a[3 + k].time_s_hi, &b->time_s_hi, sizeof b->time_s_hi) == 0);
            ck_assert(memcmp(&a[3 + k].speedup, &b->speedup, sizeof b->speedup) == 0);
        }
    }
    sim_result_free(r);
    sim_result_free(q);
    sim_data_free(d);
}
END_TEST

/* A weighted scenario's speedup is its input's x the settings' input_weight; a NaN weight leaves the input out of
 * every scenario. Two inputs, data_abc's three configurations each, every run exploring all three (the winner B:
 * speedup 1, time 250 ms): weights 0.5 and 1 give (0.5 + 1) / 2 = 0.75 for the weighted scenario and 1 for the
 * unweighted one beside it; weights 0.5 and NaN give 0.5 and 1 on one input (results of R runs, not 2R). */
START_TEST(test_sim_weighted_scenario)
{
    const double weights[2][2] = {{0.5, 1}, {0.5, NAN}};
    for (int w = 0; w < 2; w++) {
        struct sim_settings s;
        struct sim_data *d;
        struct sim_result *r;
        sim_settings_default(&s);
        fixed(&s, 3, 10);
        s.samples = 4;
        s.runs = 5;
        s.n_scenarios = 0;
        scen(&s, 0, "baseline", 1);
        scen(&s, 1, "parallel", 2);
        s.scenarios[1].weighted = 1;
        ck_assert_int_eq(sim_settings_check(&s), -1); /* weighted without weights: refused */
        s.input_weight = weights[w];
        d = sim_data_new(&s);
        ck_assert_ptr_nonnull(d);
        for (int i = 0; i < 2; i++) {
            ck_assert_int_eq(sim_data_add_input(d, i == 0 ? "1x2x3" : "4x5x6", 2e12), i);
            add_abc(d, i);
        }
        r = sim_run(d, &s, NULL, NULL);
        ck_assert_msg(r != NULL, "%s", tc_errmsg());
        ck_assert_int_eq(r->n_inputs_used, w == 0 ? 2 : 1);
        for (int i = 0; i < s.samples; i++) {
            ck_near(r->points[i * 2].speedup, 1.0);
            ck_near(r->points[i * 2].time_s, 0.250);
            ck_near(r->points[i * 2 + 1].speedup, w == 0 ? 0.75 : 0.5);
            ck_near(r->points[i * 2 + 1].tflops, 1000);
            ck_assert_int_eq(r->points[i * 2 + 1].results, w == 0 ? 2 * s.runs : s.runs);
        }
        sim_result_free(r);
        sim_data_free(d);
    }
}
END_TEST

/* With N_CONFIG 1 a parallel run compiles one configuration alone (k = 1): its isolated time, as sequential
 * charges it, and one warm-up either way, so parallel x16 and sequential give the same time run by run. Without
 * a recorded warm-up (in-memory data: none) nothing is added, and a configuration without an isolated time is
 * charged its contended one by both. */
START_TEST(test_sim_one_config_parallel_is_sequential)
{
    for (int warm = 0; warm < 2; warm++) {
        struct sim_settings s;
        struct sim_data *d;
        struct sim_result *r;
        sim_settings_default(&s);
        fixed(&s, 1, 10);
        s.samples = 20;
        s.runs = 5;
        s.n_scenarios = 0;
        scen(&s, 0, "baseline", 16);
        scen(&s, 1, "parallel", 16);
        scen(&s, 2, "pipelined", 16);
        d = data_abc_iso(&s);
        if (!warm)
            sim_data_set_compile_env(d, 9, NAN, 0);
        r = sim_run(d, &s, NULL, NULL);
        ck_assert_msg(r != NULL, "%s", tc_errmsg());
        for (int i = 0; i < s.samples; i++) {
            ck_near(r->points[i * 3 + 1].time_s, r->points[i * 3].time_s);
            ck_near(r->points[i * 3 + 2].time_s, r->points[i * 3].time_s);
        }
        sim_result_free(r);
        sim_data_free(d);
    }
}
END_TEST

/* The level arithmetic (sim_cost.h), by hand: isolated 40, contended 100 at 16 workers: k = 4 is log2 4 ÷ log2 16
 * = 1/2 of the way, 70; k = 1 40; k = 16 and k = 32 (never extrapolated) 100; jobs 1 (only the contended level
 * known) 100; no isolated time (iso == par) 100 at every level. And the clock one step at a time (the policy
 * engine's), A (iso 40, contended 100, bench 33), B (20, 50, 22), C (30, 30, 15), warm-up 7:
 *   jobs 9, pipelined x3: after A alone (k = 1) ready 40 + 7, GPU 47..80 -> 80; after all three (k = 3, weight
 *   1/2: 70, 35, 30) ready 77, 42, 37: GPU 77..110, 110..132, 132..147 -> 147 (the first wave rescheduled).
 *   jobs 4, parallel x2: after A 40 + 33 + 7 = 80; after A, B (k = 2, weight 1/2: 70, 35) 70 + 55 + 7 = 132; after
 *   C (k = 2: 30, to the worker free at 35, ends 65) makespan 70: 70 + 70 + 7 = 147.
 *   jobs 4, ideal x2: (70 + 35 + 30) ÷ (3 / ceil(3/2)) = 90: 90 + 70 + 7 = 167.
 *   sequential: 40 + 20 + 30 + 70 + 7 = 167; before any compile, 0 (no warm-up). */
START_TEST(test_sim_contention_levels)
{
    struct sim_compile_ms a = {40, 100, 40}, b = {20, 50, 20}, c = {30, 30, 30};
    const double bench[] = {33, 22, 15};
    const struct sim_compile_ms *abc[] = {&a, &b, &c};
    double mem[SIM_CLOCK_WORDS(3)];
    struct sim_clock k;
    ck_near(sim_compile_at(a, 4, 16), 70);
    ck_near(sim_compile_at(a, 1, 16), 40);
    ck_assert(sim_compile_at(a, 16, 16) == 100 && sim_compile_at(a, 32, 16) == 100);
    ck_assert(sim_compile_at(a, 4, 1) == 100 && sim_compile_at(c, 2, 16) == 30);
    ck_assert_int_eq(sim_compile_level(16, 3), 3);
    ck_assert_int_eq(sim_compile_level(16, 40), 16);
    ck_assert(sim_warmup_charge(SIM_CM_MEASURED, 7) == 7 && sim_warmup_charge(SIM_CM_PAPER, 7) == 0 &&
              sim_warmup_charge(SIM_CM_MEASURED, NAN) == 0);

    sim_clock_start(&k, SIM_COMPILE_PIPELINED, 3, 9, 7, mem);
    ck_assert(sim_clock_ms(&k) == 0);
    for (int q = 0; q < 3; q++) {
        sim_clock_step(&k, 1, *abc[q], bench[q]);
        if (q == 0)
            ck_near(sim_clock_ms(&k), 80);
    }
    ck_near(sim_clock_ms(&k), 147);

    static const double want_par[] = {80, 132, 147};
    sim_clock_start(&k, SIM_COMPILE_PARALLEL, 2, 4, 7, mem);
    for (int q = 0; q < 3; q++) {
        sim_clock_step(&k, 1, *abc[q], bench[q]);
        ck_near(sim_clock_ms(&k), want_par[q]);
    }
    sim_clock_start(&k, SIM_COMPILE_IDEAL, 2, 4, 7, NULL);
    for (int q = 0; q < 3; q++)
        sim_clock_step(&k, 1, *abc[q], bench[q]);
    ck_near(sim_clock_ms(&k), 167);
    sim_clock_start(&k, SIM_COMPILE_SEQUENTIAL, 2, 4, 7, NULL);
    ck_assert(sim_clock_ms(&k) == 0);
    for (int q = 0; q < 3; q++)
        sim_clock_step(&k, 1, *abc[q], bench[q]);
    ck_near(sim_clock_ms(&k), 167);
}
END_TEST

/* Isolated compile times: sequential charges them, the parallel models the contended compile_ms; under compile
 * model paper every model charges compile_ms. One configuration, compile_ms 300 (contended), isolated 120,
 * 2 ms x 6 (EXEC_TIME 10: j = 6, 12 ms), overhead 3: sequential 12 + 3 + 120 = 135 ms; ideal x2 (N = 1: factor 1)
 * 15 + 300 = 315; paper: sequential 15 + 300 = 315. A second configuration without an isolated time (NaN):
 * sequential charges its compile_ms. */
START_TEST(test_sim_isolated_compile)
{
    static const uint64_t x[] = {2 * MS, 2 * MS, 2 * MS, 2 * MS, 2 * MS, 2 * MS};
    for (int m = 0; m < 3; m++) {
        struct sim_settings s;
        struct sim_data *d;
        struct sim_result *r;
        struct sim_config_run cr;
        sim_settings_default(&s);
        fixed(&s, 1, 10);
        s.samples = 1;
        s.runs = 3;
        s.n_scenarios = 0;
        s.compile_model = m == 1 ? SIM_CM_PAPER : SIM_CM_MEASURED;
        scen(&s, 0, "baseline", 2);
        scen(&s, 1, "ideal", 2);
        d = sim_data_new(&s);
        ck_assert_int_eq(sim_data_add_input(d, "x", 1e9), 0);
        memset(&cr, 0, sizeof cr);
        cr.compile_ms = 300;
        cr.compile_isolated_ms = m == 2 ? NAN : 120;
        cr.wall_ms = 15;
        cr.timed_ns = x;
        cr.n_timed = 6;
        ck_assert_msg(sim_data_add_config(d, 0, &cr) == 0, "%s", tc_errmsg());
        r = sim_run(d, &s, NULL, NULL);
        ck_assert_msg(r != NULL, "%s", tc_errmsg());
        ck_near(r->points[0].time_s, m == 0 ? 0.135 : 0.315);
        ck_near(r->points[1].time_s, 0.315);
        sim_result_free(r);
        sim_data_free(d);
    }
}
END_TEST

/* --failed-cost: two valid configurations (A: compile 100, 2 ms x 6, overhead 3 -> bench 15; B: compile 50,
 * 3 ms x 4 (j = 4, 12 ms), overhead 2 -> bench 14) and two failed ones (F: compile 40, failed launch 7 ms; G: no
 * compile time -> the median of the valid ones', 75, and no run -> 0). N_CONFIG 4, EXEC_TIME 10:
 *   triton: every run draws all four: 115 + 64 + 47 + 75 = 301 ms, winner A (speedup 1), 2 failed per run;
 *   none: A and B only: 115 + 64 = 179 ms, explored 2. */
static struct sim_data *data_failed(struct sim_settings *s)
{
    static const uint64_t a[] = {2 * MS, 2 * MS, 2 * MS, 2 * MS, 2 * MS, 2 * MS};
    static const uint64_t b[] = {3 * MS, 3 * MS, 3 * MS, 3 * MS};
    struct sim_data *d = sim_data_new(s);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(sim_data_add_input(d, "x", 1e9), 0);
    add_const(d, 0, 0, 100, 3, a, 6);
    ck_assert_int_eq(sim_data_add_failed(d, 0, 1, 40, NAN, 7), 0);
    add_const(d, 0, 2, 50, 2, b, 4);
    ck_assert_int_eq(sim_data_add_failed(d, 0, 3, NAN, NAN, 0), 0);
    return d;
}

START_TEST(test_sim_failed_cost)
{
    for (int f = 0; f < 2; f++) {
        struct sim_settings s;
        struct sim_data *d;
        struct sim_result *r;
        long no_iso, no_compile;
        sim_settings_default(&s);
        fixed(&s, 4, 10);
        s.samples = 2;
        s.runs = 5;
        s.failed_cost = f == 0 ? SIM_FAILED_TRITON : SIM_FAILED_NONE;
        s.n_scenarios = 0;
        scen(&s, 0, "baseline", 1);
        d = data_failed(&s);
        ck_assert_int_eq(sim_data_n_valid(d, 0), 2);
        ck_assert_int_eq(sim_data_n_failed(d, 0), 2);
        sim_data_missing(d, &no_iso, &no_compile);
        ck_assert_int_eq(no_iso, 4);
        ck_assert_int_eq(no_compile, 1);
        r = sim_run(d, &s, NULL, NULL);
        ck_assert_msg(r != NULL, "%s", tc_errmsg());
        for (int i = 0; i < s.samples; i++) {
            ck_near(r->points[i].time_s, f == 0 ? 0.301 : 0.179);
            ck_near(r->points[i].speedup, 1.0);
            ck_near(r->points[i].explored, f == 0 ? 4 : 2);
            ck_near(r->points[i].failed, f == 0 ? 2 : 0);
        }
        sim_result_free(r);
        sim_data_free(d);
    }
}
END_TEST

/* A run that draws only failed configurations tunes nothing: speedup 0. data_failed with N_CONFIG 1: a run draws
 * A (115 ms, speedup 1), B (64 ms; B's true 3 ms vs A's 2 -> speedup 2/3), F (47 ms, 0) or G (75 ms, 0). Each
 * point's mean time and speedup are then tied by the counts of each draw; with 400 runs every kind is drawn
 * (the chance that one of the four is missed is below 4 (3/4)^400). */
START_TEST(test_sim_failed_only_run)
{
    struct sim_settings s;
    struct sim_data *d;
    struct sim_result *r;
    sim_settings_default(&s);
    fixed(&s, 1, 10);
    s.samples = 3;
    s.runs = 400;
    s.n_scenarios = 0;
    scen(&s, 0, "baseline", 1);
    d = data_failed(&s);
    r = sim_run(d, &s, NULL, NULL);
    ck_assert_msg(r != NULL, "%s", tc_errmsg());
    for (int i = 0; i < s.samples; i++) {
        const struct sim_point *p = &r->points[i];
        /* speedup = (nA + nB 2/3) / R and failed = (nF + nG) / R; time = (115 nA + 64 nB + 47 nF + 75 nG) / R:
         * with speedup, failed and the time three equations in four counts that sum to R */
        ck_assert(p->speedup > 0.3 && p->speedup < 0.7);
        ck_assert(p->failed > 0.3 && p->failed < 0.7);
        ck_assert(p->time_s > 0.047 && p->time_s < 0.115);
    }
    sim_result_free(r);
    sim_data_free(d);
}
END_TEST

/* One statistic ranks and scores, so exhaustive search that runs every execution (EXEC_TIME 20 >= every sum:
 * j = n) finds exactly the best, speedup 1.0 bit for bit. The data of test_sim_estimators (data_pq): P 1 1 1 1 1 1
 * 9 ms (mean 15/7, median 1), Q 2 ms x 6 (mean 2, median 2). mean/mean: Q wins, best mean Q -> 1; median/median:
 * P, best median P -> 1; mean ranked, median scored (the old rule): Q wins, the best median is P's 1 -> 1/2. */
START_TEST(test_sim_exhaustive_reaches_one)
{
    static const enum sim_estimator est[3] = {SIM_ESTIMATOR_MEAN, SIM_ESTIMATOR_MEDIAN, SIM_ESTIMATOR_MEAN};
    static const enum sim_estimator truth[3] = {SIM_ESTIMATOR_MEAN, SIM_ESTIMATOR_MEDIAN, SIM_ESTIMATOR_MEDIAN};
    static const double want[3] = {1.0, 1.0, 0.5};
    for (int e = 0; e < 3; e++) {
        struct sim_settings s;
        struct sim_data *d = data_pq(&s, est[e], truth[e], 20);
        struct sim_result *r = sim_run(d, &s, NULL, NULL);
        ck_assert_msg(r != NULL, "%s", tc_errmsg());
        ck_assert_msg(r->points[0].speedup == want[e], "case %d: speedup %.17g, expected %g", e,
                      r->points[0].speedup, want[e]);
        ck_assert_int_eq(r->points[0].n_short, 10);
        sim_result_free(r);
        sim_data_free(d);
    }
}
END_TEST

/* The EXEC_TIME grid: uniform between whole bounds is whole ms (10:100 -> 91 points, 10 + k); between fractional
 * bounds 1001 points (0.05:100: step 99.95 / 1000, point 1 = 0.14995); log 0.05:100: 1 + round(100 log10 2000) =
 * 331 points, point 100 = 0.05 * 2000^(100/330) = 0.50036 (python). A sub-millisecond EXEC_TIME in the replay:
 * executions of 0.02 ms, EXEC_TIME 0.05: j = 3 (0.06 > 0.05), tuning time 0.06 ms. */
START_TEST(test_sim_exec_grid)
{
    struct sim_settings s;
    struct sim_data *d;
    struct sim_result *r;
    uint64_t x[50];
    sim_settings_default(&s);
    ck_assert_int_eq(sim_exec_grid_n(&s), 91);
    ck_near(sim_exec_grid_ms(&s, 0), 10);
    ck_near(sim_exec_grid_ms(&s, 37), 47);
    ck_near(sim_exec_grid_ms(&s, 90), 100);
    s.exec_ms_lo = 0.05;
    ck_assert_int_eq(sim_exec_grid_n(&s), 1001);
    ck_near(sim_exec_grid_ms(&s, 1), 0.14995);
    ck_near(sim_exec_grid_ms(&s, 1000), 100);
    s.exec_dist = SIM_EXEC_LOG;
    ck_assert_int_eq(sim_exec_grid_n(&s), 331);
    ck_near(sim_exec_grid_ms(&s, 0), 0.05);
    ck_assert(fabs(sim_exec_grid_ms(&s, 100) - 0.5003594704695016) < 1e-12);
    ck_near(sim_exec_grid_ms(&s, 330), 100);
    for (int i = 0; i < 50; i++)
        x[i] = 20000; /* 0.02 ms */
    s.samples = 20;
    s.runs = 2;
    s.n_config_lo = s.n_config_hi = 1;
    s.exec_ms_lo = s.exec_ms_hi = 0.05;
    s.n_scenarios = 0;
    scen(&s, 0, "baseline", 1);
    ck_assert_int_eq(sim_settings_check(&s), 0);
    d = sim_data_new(&s);
    ck_assert_int_eq(sim_data_add_input(d, "x", 1e9), 0);
    add_const(d, 0, 0, 0, 0, x, 50);
    r = sim_run(d, &s, NULL, NULL);
    ck_assert_msg(r != NULL, "%s", tc_errmsg());
    ck_near(r->points[0].time_s, 0.06e-3);
    ck_near(r->points[0].exec_ms, 0.05);
    sim_result_free(r);
    /* data built for one grid refuse settings whose EXEC_TIME is not on it */
    s.exec_ms_hi = 0.07;
    s.exec_dist = SIM_EXEC_UNIFORM;
    ck_assert_ptr_null(sim_run(d, &s, NULL, NULL));
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--exec-ms"));
    sim_data_free(d);
}
END_TEST

/* One input per sample (the paper's Figures 4-5): two inputs of fixed cost (data_abc's 250 ms, and one of a
 * single configuration: compile 10, 1 ms x 12 (j = 11), overhead 2 -> 23 ms). Each point replays the R runs of
 * the input it drew, named in sim_point.input; over 40 samples both are drawn. */
START_TEST(test_sim_one_input)
{
    static const uint64_t x[12] = {MS, MS, MS, MS, MS, MS, MS, MS, MS, MS, MS, MS};
    struct sim_settings s;
    struct sim_data *d;
    struct sim_result *r;
    int seen[2] = {0, 0};
    sim_settings_default(&s);
    fixed(&s, 3, 10);
    s.samples = 40;
    s.runs = 3;
    s.one_input = 1;
    s.n_scenarios = 0;
    scen(&s, 0, "baseline", 1);
    d = data_abc(&s);
    ck_assert_int_eq(sim_data_add_input(d, "4x5x6", 1e9), 1);
    add_const(d, 1, 0, 10, 2, x, 12);
    r = sim_run(d, &s, NULL, NULL);
    ck_assert_msg(r != NULL, "%s", tc_errmsg());
    for (int i = 0; i < s.samples; i++) {
        const struct sim_point *p = &r->points[i];
        ck_assert(p->input == 0 || p->input == 1);
        ck_assert_int_eq(p->results, 3);
        ck_near(p->time_s, p->input == 0 ? 0.250 : 0.023);
        seen[p->input]++;
    }
    ck_assert(seen[0] > 0 && seen[1] > 0);
    sim_result_free(r);
    sim_data_free(d);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("sim");
    TCase *tc = tcase_create("model");
    tcase_add_test(tc, test_sim_columns_dummy_column);
    tcase_add_test(tc, test_sim_exact_baseline_and_parallel);
    tcase_add_test(tc, test_sim_estimators);
    tcase_add_test(tc, test_sim_j_boundaries);
    tcase_add_test(tc, test_sim_early_stop_rule);
    tcase_add_test(tc, test_sim_compile_factor);
    tcase_add_test(tc, test_sim_pipelined);
    tcase_add_test(tc, test_sim_overhead_per_exec);
    tcase_add_test(tc, test_sim_monte_carlo_order_statistics);
    tcase_add_test(tc, test_sim_monte_carlo_order_statistics_with_failures);
    tcase_add_test(tc, test_sim_threads_identical);
    tcase_add_test(tc, test_sim_shared_draws);
    tcase_add_test(tc, test_sim_bad_settings);
    tcase_add_test(tc, test_sim_true_time_median);
    tcase_add_test(tc, test_sim_parallel_makespan);
    tcase_add_test(tc, test_sim_parallel_makespan_replay);
    tcase_add_test(tc, test_sim_warmup_and_contention);
    tcase_add_test(tc, test_sim_paper_compile_scenario);
    tcase_add_test(tc, test_sim_weighted_scenario);
    tcase_add_test(tc, test_sim_one_config_parallel_is_sequential);
    tcase_add_test(tc, test_sim_contention_levels);
    tcase_add_test(tc, test_sim_isolated_compile);
    tcase_add_test(tc, test_sim_failed_cost);
    tcase_add_test(tc, test_sim_failed_only_run);
    tcase_add_test(tc, test_sim_exhaustive_reaches_one);
    tcase_add_test(tc, test_sim_exec_grid);
    tcase_add_test(tc, test_sim_one_input);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(su, tc);
    return tt_run(su);
}
