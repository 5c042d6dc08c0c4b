/* test-frontier.c — Pareto frontiers (simulate/frontier.h): on random point sets, no frontier point is dominated
 * and every other point is (checked by brute force, independently of the sort-and-sweep under test); ties and
 * NaN; the points.tsv reader and writer on small hand-written tables. */
#include "frontier.h"
#include "tc_err.h"

#include "test-common.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* q dominates p: no worse on both, better on one. */
static int dominates(double tq, double pq, double tp, double pp)
{
    return tq <= tp && pq >= pp && (tq < tp || pq > pp);
}

static void check_frontier(size_t n, const double *t, const double *p, const unsigned char *on)
{
    for (size_t i = 0; i < n; i++) {
        int dominated = 0;
        if (isnan(t[i]) || isnan(p[i])) {
            ck_assert_msg(!on[i], "point %zu has NaN but is on the frontier", i);
            continue;
        }
        for (size_t k = 0; k < n && !dominated; k++)
            dominated = k != i && !isnan(t[k]) && !isnan(p[k]) && dominates(t[k], p[k], t[i], p[i]);
        ck_assert_msg(on[i] == !dominated, "point %zu (%g, %g): on = %d but dominated = %d", i, t[i], p[i], on[i],
                      dominated);
    }
}

START_TEST(test_frontier_random_sets)
{
    srand(42);
    for (int round = 0; round < 200; round++) {
        size_t n = 1 + (size_t)(rand() % 300);
        double *t = malloc(n * sizeof *t), *p = malloc(n * sizeof *p);
        unsigned char *on = malloc(n);
        size_t n_on = 0;
        for (size_t i = 0; i < n; i++) {
            /* coarse grids in some rounds so that equal times and equal performances are common */
            int coarse = round % 3 == 0;
            t[i] = coarse ? (double)(rand() % 10) : rand() / (double)RAND_MAX * 50;
            p[i] = coarse ? (double)(rand() % 10) : 1 - exp(-t[i] / 10) + 0.3 * rand() / (double)RAND_MAX;
            if (round % 7 == 0 && rand() % 20 == 0)
                p[i] = NAN;
        }
        ck_assert_int_eq(frontier_mark(n, t, p, on), 0);
        check_frontier(n, t, p, on);
        for (size_t i = 0; i < n; i++)
            n_on += on[i];
        ck_assert(n_on >= 1 || round % 7 == 0);
        free(t);
        free(p);
        free(on);
    }
}
END_TEST

/* By hand: (1, 5) (2, 4) (2, 6) (3, 6) (3, 6) (0.5, 1) (4, 7):
 *   (1,5) no point has time <= 1 and perf >= 5 except itself -> on; (2,4) dominated by (1,5); (2,6) on;
 *   (3,6) twice: dominated by (2,6) (lower time, same perf); (0.5,1) on (fastest); (4,7) on (best). */
START_TEST(test_frontier_by_hand)
{
    static const double t[] = {1, 2, 2, 3, 3, 0.5, 4};
    static const double p[] = {5, 4, 6, 6, 6, 1, 7};
    static const unsigned char want[] = {1, 0, 1, 0, 0, 1, 1};
    unsigned char on[7];
    ck_assert_int_eq(frontier_mark(7, t, p, on), 0);
    for (int i = 0; i < 7; i++)
        ck_assert_msg(on[i] == want[i], "point %d: on %d, expected %d", i, on[i], want[i]);
    /* exact duplicates of a frontier point are all kept */
    {
        static const double t2[] = {1, 1, 2};
        static const double p2[] = {3, 3, 3};
        unsigned char on2[3];
        ck_assert_int_eq(frontier_mark(3, t2, p2, on2), 0);
        ck_assert(on2[0] && on2[1] && !on2[2]);
    }
}
END_TEST

static struct frontier_table *read_text(const char *text, const char *perf)
{
    FILE *fp = fmemopen((void *)text, strlen(text), "r");
    struct frontier_table *t;
    ck_assert_ptr_nonnull(fp);
    t = frontier_table_read(fp, "pts.tsv", "time_s", perf);
    fclose(fp);
    return t;
}

/* Two scenarios, per-scenario frontiers, sorted by time; comments kept; the note added. */
START_TEST(test_frontier_table_groups)
{
    static const char text[] = "# settings\n"
                               "sample\tscenario\ttime_s\tspeedup\ttflops\n"
                               "0\tbase\t3\t0.9\t90\n"
                               "0\tpar\t1\t0.9\t90\n"
                               "1\tbase\t1\t0.5\t50\n"
                               "1\tpar\t0.5\t0.5\t50\n"
                               "2\tbase\t4\t0.8\t95\n"
                               "2\tpar\t2\t0.8\t80\n";
    static const char want[] = "# settings\n"
                               "# note\n"
                               "sample\tscenario\ttime_s\tspeedup\ttflops\n"
                               "1\tbase\t1\t0.5\t50\n"
                               "0\tbase\t3\t0.9\t90\n"
                               "1\tpar\t0.5\t0.5\t50\n"
                               "0\tpar\t1\t0.9\t90\n";
    struct frontier_table *t = read_text(text, "speedup");
    char *buf = NULL;
    size_t len = 0;
    FILE *out;
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(frontier_table_n_rows(t), 6);
    ck_assert_int_eq(frontier_table_n_frontier(t), 4);
    out = open_memstream(&buf, &len);
    ck_assert_int_eq(frontier_table_write(t, out, "note"), 0);
    fclose(out);
    ck_assert_str_eq(buf, want);
    free(buf);
    frontier_table_free(t);
    /* selected columns of one scenario: the paper's Table 6 layout */
    {
        static const char want_sel[] = "# settings\n"
                                       "time_s\ttflops\tsample\n"
                                       "0.5\t50\t1\n"
                                       "1\t90\t0\n";
        FILE *o;
        t = read_text(text, "speedup");
        buf = NULL;
        o = open_memstream(&buf, &len);
        ck_assert_int_eq(frontier_table_write_select(t, o, NULL, "time_s,tflops,sample", "par"), 0);
        fclose(o);
        ck_assert_str_eq(buf, want_sel);
        free(buf);
        buf = NULL;
        o = open_memstream(&buf, &len);
        ck_assert_int_eq(frontier_table_write_select(t, o, NULL, "time_s,nosuch", NULL), -2);
        ck_assert_int_eq(frontier_table_write_select(t, o, NULL, NULL, "nosuch"), -2);
        fclose(o);
        ck_assert_int_eq(len, 0); /* nothing written */
        free(buf);
        frontier_table_free(t);
    }
    /* by tflops, base's sample 2 (4 s, 95) joins */
    t = read_text(text, "tflops");
    ck_assert_int_eq(frontier_table_n_frontier(t), 5);
    ck_assert(frontier_table_on(t, 4));
    frontier_table_free(t);
}
END_TEST

START_TEST(test_frontier_table_errors)
{
    ck_assert_ptr_null(read_text("# only comments\n", "speedup"));
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "pts.tsv"));
    ck_assert_ptr_null(read_text("a\tb\n1\t2\n", "speedup"));
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "pts.tsv:1"));
    ck_assert_ptr_null(read_text("time_s\tspeedup\n1\t2\n3\n", "speedup"));
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "pts.tsv:3"));
    ck_assert_ptr_null(read_text("time_s\tspeedup\n1\tfast\n", "speedup"));
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "fast"));
    /* NaN is a number (a point with no interval) and is never on the frontier */
    {
        struct frontier_table *t = read_text("time_s\tspeedup\n1\tNaN\n2\t0.5\n", "speedup");
        ck_assert_ptr_nonnull(t);
        ck_assert(!frontier_table_on(t, 0) && frontier_table_on(t, 1));
        frontier_table_free(t);
    }
}
END_TEST

int main(void)
{
    Suite *su = suite_create("frontier");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_frontier_random_sets);
    tcase_add_test(tc, test_frontier_by_hand);
    tcase_add_test(tc, test_frontier_table_groups);
    tcase_add_test(tc, test_frontier_table_errors);
    suite_add_tcase(su, tc);
    return tt_run(su);
}
