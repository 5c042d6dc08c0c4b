/* test-tables.c — unit tests of analysis/tables.c and table.c on the hand-built traces of test-tables-fixture.c.
 * Expected values are worked out by hand from the numbers listed at the top of test-tables-fixture.c. */
#include "tables.h"
#include "tc_err.h"
#include "test-common.h"
#include "test-tables-fixture.h"
#include "trace.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char small[256], small_noflush[256], triton[256];

static void setup(void)
{
    tt_tmpdir_make("test-tables");
    snprintf(small, sizeof small, "%s", tt_path("small.h5"));
    snprintf(small_noflush, sizeof small_noflush, "%s", tt_path("small-noflush.h5"));
    snprintf(triton, sizeof triton, "%s", tt_path("triton.h5"));
    ck_assert_msg(fixture_small(small, 256 << 20, 0) == 0, "%s", tc_errmsg());
    ck_assert_msg(fixture_small(small_noflush, 0, 1) == 0, "%s", tc_errmsg());
    ck_assert_msg(fixture_triton(triton) == 0, "%s", tc_errmsg());
}


static struct trace *open_ok(const char *path)
{
    struct trace *t = trace_open(path);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    return t;
}

/* The cell of column `col` in row `row`, as a number. */
static double num(const struct table *t, int row, const char *col)
{
    int c = table_col_index(t, col);
    ck_assert_msg(c >= 0, "no column '%s' in '%s'", col, table_title(t));
    return table_num(t, row, c);
}

static const char *str(const struct table *t, int row, const char *col)
{
    int c = table_col_index(t, col);
    ck_assert_msg(c >= 0, "no column '%s' in '%s'", col, table_title(t));
    return table_cell(t, row, c);
}

static int has_note(const struct table *t, const char *needle)
{
    for (int i = 0; i < table_n_notes(t); i++)
        if (strstr(table_note(t, i), needle) != NULL)
            return 1;
    return 0;
}

START_TEST(test_tables_median_odd_even)
{
    struct trace *t = open_ok(small);
    /* the tables' run times (trace_run_median_ns in ms): run 0: timed 1 2 3 ms -> 2; run 1: timed 4 1 1 2 ->
     * (1 + 2) / 2 = 1.5; run 3: none -> NaN */
    ck_assert_double_eq_tol(trace_run_median_ns(t, 0) / 1e6, 2.0, 1e-12);
    ck_assert_double_eq_tol(trace_run_median_ns(t, 1) / 1e6, 1.5, 1e-12);
    ck_assert(isnan(trace_run_median_ns(t, 3)));
    trace_close(t);
}
END_TEST

START_TEST(test_tables_compile_rows_and_totals)
{
    struct trace *t = open_ok(small);
    struct table *tab = tables_compile(t);
    ck_assert_ptr_nonnull(tab);
    ck_assert_int_eq(table_n_rows(tab), 3);
    ck_assert_double_eq(num(tab, 1, "BLOCK_M"), 128);
    ck_assert_double_eq(num(tab, 1, "compile_ms"), 200);
    ck_assert_str_eq(str(tab, 2, "status"), "out of resources");
    /* 100 + 200 + 50 = 350 ms in all; 300 ms over the 2 valid; load 1 + 2 + 0 = 3 ms */
    ck_assert_msg(has_note(tab, "0.35 s over 3 configurations (0.30 s over the 2"), "%s", table_note(tab, 0));
    ck_assert(has_note(tab, "module load 0.00 s"));
    table_free(tab);
    trace_close(t);
}
END_TEST

START_TEST(test_tables_tuning_sums_wall)
{
    struct trace *t = open_ok(small);
    struct table *tab = tables_tuning(t);
    ck_assert_ptr_nonnull(tab);
    ck_assert_int_eq(table_n_rows(tab), 2);
    /* input 0: 10 + 20 ms = 0.030 s over 2 runs; input 1: 5 + 1 ms (the failed run too) = 0.006 s */
    ck_assert_double_eq_tol(num(tab, 0, "tuning_s"), 0.030, 1e-12);
    ck_assert_double_eq_tol(num(tab, 0, "per_run_ms"), 15.0, 1e-12);
    ck_assert_double_eq(num(tab, 0, "valid_runs"), 2);
    ck_assert_double_eq_tol(num(tab, 1, "tuning_s"), 0.006, 1e-12);
    ck_assert_double_eq(num(tab, 1, "runs"), 2);
    ck_assert_double_eq(num(tab, 1, "valid_runs"), 1);
    ck_assert_double_eq(num(tab, 1, "N"), 64);
    ck_assert(has_note(tab, "total: 0.0 s over 2 inputs and 4 runs"));
    table_free(tab);
    trace_close(t);
}
END_TEST

START_TEST(test_tables_split_repetition_overhead_compile)
{
    struct trace *t = open_ok(small);
    struct table *tab = tables_split(t);
    ck_assert_ptr_nonnull(tab);
    /* input 0: timed 6 + 8 = 14 ms; overhead (10 - 6) + (20 - 8) = 16 ms; compile 100 + 200 of the valid ones and
     * 50 of configuration 2, which fails for resources but is compiled too (a tuner pays for it): 350 ms;
     * total 380 ms; overhead 16/380 = 4.21%; mean wall 15 ms, mean repetition 7 ms */
    ck_assert_double_eq_tol(num(tab, 0, "repetition_ms"), 14.0, 1e-9);
    ck_assert_double_eq_tol(num(tab, 0, "overhead_ms"), 16.0, 1e-9);
    ck_assert_double_eq_tol(num(tab, 0, "compile_ms"), 350.0, 1e-9);
    ck_assert_double_eq_tol(num(tab, 0, "total_ms"), 380.0, 1e-9);
    ck_assert_double_eq_tol(num(tab, 0, "overhead_pct"), 100.0 * 16 / 380, 1e-9);
    ck_assert_double_eq_tol(num(tab, 0, "mean_wall_ms"), 15.0, 1e-9);
    ck_assert_double_eq_tol(num(tab, 0, "mean_repetition_ms"), 7.0, 1e-9);
    ck_assert_str_eq(str(tab, 1, "label"), "128x64x32");
    /* input 1: only run 2 is valid: timed 1.8 ms, overhead 3.2 ms; compile of config 0 (100 ms) and of the failing
     * ones, config 1 (a launch error: 200 ms) and config 2 (out of resources: 50 ms): 350 ms */
    ck_assert_double_eq_tol(num(tab, 1, "repetition_ms"), 1.8, 1e-9);
    ck_assert_double_eq_tol(num(tab, 1, "overhead_ms"), 3.2, 1e-9);
    ck_assert_double_eq_tol(num(tab, 1, "compile_ms"), 350.0, 1e-9);
    ck_assert_double_eq(num(tab, 1, "valid_runs"), 1);
    /* every valid run took less than 25 + 100 ms */
    ck_assert(has_note(tab, "3 of 3 valid runs took less wall time"));
    table_free(tab);
    trace_close(t);
}
END_TEST

START_TEST(test_tables_best_vs_cublas)
{
    struct trace *t = open_ok(small);
    struct table *tab = tables_best(t);
    ck_assert_ptr_nonnull(tab);
    /* input 0: config 1 (median 1.5 ms) beats config 0 (2 ms); 3e12 flops / 1.5 ms = 2000 TFLOP/s;
     * cuBLAS 3e12 / 2 ms = 1500 TFLOP/s; ratio 4/3 */
    ck_assert_double_eq(num(tab, 0, "best_config"), 1);
    ck_assert_double_eq_tol(num(tab, 0, "best_ms"), 1.5, 1e-12);
    ck_assert_double_eq_tol(num(tab, 0, "best_tflops"), 2000.0, 1e-9);
    ck_assert_double_eq_tol(num(tab, 0, "cublas_tflops"), 1500.0, 1e-9);
    ck_assert_double_eq_tol(num(tab, 0, "vs_cublas"), 4.0 / 3.0, 1e-9);
    ck_assert_str_eq(str(tab, 0, "best_params"), "BLOCK_M=128 BLOCK_N=64");
    ck_assert_double_eq(num(tab, 0, "valid_configs"), 2);
    /* input 1: only config 0 valid: median 0.6 ms -> 1.2e12 / 0.6 ms = 2000 TFLOP/s; no cuBLAS time */
    ck_assert_double_eq(num(tab, 1, "best_config"), 0);
    ck_assert_double_eq_tol(num(tab, 1, "best_ms"), 0.6, 1e-12);
    ck_assert(isnan(num(tab, 1, "vs_cublas")));
    ck_assert(has_note(tab, "median 1.333 over 1 inputs; tuned kernel at least as fast on 1"));
    table_free(tab);
    trace_close(t);
}
END_TEST

START_TEST(test_tables_failures_by_reason)
{
    struct trace *t = open_ok(small);
    struct table *tab = tables_failures(t);
    int found_cfg = 0, found_run = 0;
    ck_assert_ptr_nonnull(tab);
    for (int r = 0; r < table_n_rows(tab); r++) {
        if (strcmp(str(tab, r, "scope"), "configs") == 0 && strcmp(str(tab, r, "status"), "out of resources") == 0) {
            ck_assert_str_eq(str(tab, r, "reason"), "too much shared memory");
            ck_assert_double_eq(num(tab, r, "count"), 1);
            ck_assert_double_eq_tol(num(tab, r, "share_pct"), 100.0 / 3, 1e-9);
            ck_assert_double_eq(num(tab, r, "example"), 2);
            found_cfg = 1;
        }
        if (strcmp(str(tab, r, "scope"), "runs") == 0 && strcmp(str(tab, r, "status"), "launch error") == 0) {
            ck_assert_double_eq(num(tab, r, "count"), 1);
            ck_assert_double_eq(num(tab, r, "example"), 3);
            found_run = 1;
        }
        if (strcmp(str(tab, r, "scope"), "configs") == 0 && strcmp(str(tab, r, "status"), "ok") == 0)
            ck_assert_double_eq(num(tab, r, "count"), 2);
        if (strcmp(str(tab, r, "status"), "ok") == 0) /* no reason: the one NA token, as in every TSV */
            ck_assert_str_eq(str(tab, r, "reason"), "nan");
    }
    ck_assert(found_cfg && found_run);
    ck_assert(has_note(tab, "1 of 3 configurations failed"));
    table_free(tab);
    trace_close(t);
}
END_TEST

START_TEST(test_tables_heatmap_relative_and_ranked)
{
    struct trace *t = open_ok(small);
    struct table *tab = tables_heatmap(t);
    ck_assert_ptr_nonnull(tab);
    /* 2 inputs x 3 configs; relative: input 0: c0 1.5/2 = 0.75, c1 1, c2 nan; input 1: c0 1, c1 nan, c2 nan.
     * Means over inputs (missing = 0): c0 0.875, c1 0.5, c2 0 -> ranks c0, c1, c2 */
    ck_assert_int_eq(table_n_rows(tab), 6);
    ck_assert_double_eq(num(tab, 0, "config"), 0);
    ck_assert_double_eq_tol(num(tab, 0, "rel_perf"), 0.75, 1e-12);
    ck_assert_double_eq(num(tab, 1, "config"), 1);
    ck_assert_double_eq_tol(num(tab, 1, "rel_perf"), 1.0, 1e-12);
    ck_assert_double_eq(num(tab, 2, "config"), 2);
    ck_assert(isnan(num(tab, 2, "rel_perf")));
    ck_assert_double_eq(num(tab, 3, "input"), 1);
    ck_assert_double_eq_tol(num(tab, 3, "rel_perf"), 1.0, 1e-12);
    ck_assert(isnan(num(tab, 4, "rel_perf")));
    ck_assert_double_eq(num(tab, 5, "config_rank"), 2);
    table_free(tab);
    trace_close(t);
}
END_TEST

START_TEST(test_tables_flush_compares_with_largest)
{
    struct trace *a = open_ok(small_noflush), *b = open_ok(small);
    const struct trace *ts[] = {a, b};
    const char *names[] = {"noflush", "flush256"};
    struct table *tab = tables_flush(ts, names, 2);
    ck_assert_msg(tab != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(table_n_rows(tab), 2);
    /* reference = flush256 (row 1): benchmark 36 ms, compile+load 353 ms, total 0.389 s; flush 4 x 0.5 ms;
     * GEMM executions 11 + 17 + 1.8 ms = 29.8 ms */
    ck_assert_str_eq(str(tab, 1, "trace"), "flush256");
    ck_assert_double_eq_tol(num(tab, 1, "benchmark_s"), 0.036, 1e-9);
    ck_assert_double_eq_tol(num(tab, 1, "total_s"), 0.389, 1e-9);
    ck_assert_double_eq_tol(num(tab, 1, "speedup"), 1.0, 1e-9);
    ck_assert_double_eq_tol(num(tab, 1, "flush_gpu_s"), 0.002, 1e-9);
    ck_assert_double_eq_tol(num(tab, 1, "gemm_gpu_s"), 0.0298, 1e-9);
    ck_assert_double_eq(num(tab, 1, "best_changed"), 0);
    /* no flush (row 0): walls halved -> benchmark 18 ms, total 0.371 s, speedup 0.389 / 0.371;
     * input 0's best moves to config 0 (1 ms vs 1.5 ms): 1 change, |1 - 1.5| / 1.5 = 33.3%; input 1: 0% */
    ck_assert_double_eq(num(tab, 0, "flush_bytes"), 0);
    ck_assert_double_eq_tol(num(tab, 0, "total_s"), 0.371, 1e-9);
    ck_assert_double_eq_tol(num(tab, 0, "speedup"), 0.389 / 0.371, 1e-9);
    ck_assert_double_eq(num(tab, 0, "common_inputs"), 2);
    ck_assert_double_eq(num(tab, 0, "best_changed"), 1);
    ck_assert_double_eq_tol(num(tab, 0, "best_ms_change_max_pct"), 100.0 / 3, 1e-9);
    ck_assert_double_eq_tol(num(tab, 0, "best_ms_change_median_pct"), 100.0 / 6, 1e-9);
    table_free(tab);
    /* a single trace is refused with a message */
    ck_assert_ptr_null(tables_flush(ts, names, 1));
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "at least two traces"));
    trace_close(a);
    trace_close(b);
}
END_TEST

START_TEST(test_tables_estimate_triton_and_refusal)
{
    struct trace *t = open_ok(triton), *f = open_ok(small);
    struct table *tab = tables_estimate(t);
    ck_assert_msg(tab != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(table_n_rows(tab), 1);
    /* estimate 2.5 ms = mean of the estimate executions (3, 2); warm median 1 ms; flush 0.6 ms over the 5 flushed
     * executions (2 estimate + 3 timed: the warm-up is not flushed);
     * timed 3 ms of the requested 100 */
    ck_assert_double_eq_tol(num(tab, 0, "estimate_ms"), 2.5, 1e-12);
    ck_assert_double_eq_tol(num(tab, 0, "est_exec_mean_ms"), 2.5, 1e-12);
    ck_assert_double_eq_tol(num(tab, 0, "first_exec_ms"), 3.0, 1e-12);
    ck_assert_double_eq_tol(num(tab, 0, "warm_median_ms"), 1.0, 1e-12);
    ck_assert_double_eq_tol(num(tab, 0, "estimate_ratio"), 2.5, 1e-12);
    ck_assert_double_eq_tol(num(tab, 0, "flush_per_exec_ms"), 0.12, 1e-12);
    ck_assert_double_eq_tol(num(tab, 0, "timed_total_ms"), 3.0, 1e-9);
    ck_assert_double_eq_tol(num(tab, 0, "timed_vs_requested"), 0.03, 1e-12);
    ck_assert(has_note(tab, "1 of 1 runs timed less than 90% of the requested 100 ms"));
    ck_assert(has_note(tab, "the first fits better in 1 runs, the second in 0"));
    table_free(tab);
    ck_assert_ptr_null(tables_estimate(f));
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "triton protocol"));
    trace_close(t);
    trace_close(f);
}
END_TEST

/* Code that reads another builder's columns looks them up by name; a name that is not there is an error that names
 * the table and the column, never a column index of -1 that reads back as NaN. */
START_TEST(test_table_col_need_fails_loudly)
{
    static const char *cols[] = {"repetition_ms", "overhead_ms"};
    struct table *t = table_new("Figure 1", 2, cols);
    ck_assert_int_eq(table_col_need(t, "overhead_ms"), 1);
    ck_assert_int_eq(table_col_need(t, "overhead"), -1);
    ck_assert_str_eq(tc_errmsg(), "internal: table 'Figure 1' has no column 'overhead'");
    table_free(t);
}
END_TEST

START_TEST(test_table_outputs_tsv_markdown_html)
{
    static const char *cols[] = {"name", "value"};
    struct table *t = table_new("demo", 2, cols);
    char *buf = NULL;
    size_t len = 0;
    FILE *fp;
    int r = table_add_row(t);
    table_set_str(t, r, 0, "a\tb|<c>");
    table_set_num(t, r, 1, 1.23456, 2);
    r = table_add_row(t);
    table_set_str(t, r, 0, "nan row");
    table_set_num(t, r, 1, NAN, 2);
    table_add_note(t, "total %d", 7);

    fp = open_memstream(&buf, &len);
    ck_assert_int_eq(table_write_tsv(t, fp), 0);
    fclose(fp);
    /* tabs inside a cell become spaces; notes stay out of the TSV; the TSV keeps the number whole (1.23456,
     * not the 2 decimals the aligned text shows); a missing value is "nan" */
    ck_assert_str_eq(buf, "name\tvalue\na b|<c>\t1.23456\nnan row\tnan\n");
    free(buf);

    fp = open_memstream(&buf, &len);
    ck_assert_int_eq(table_write_markdown(t, fp, 0), 0);
    fclose(fp);
    ck_assert_ptr_nonnull(strstr(buf, "| a b\\|<c> | 1.23 |"));
    ck_assert_ptr_nonnull(strstr(buf, "| --- | ---: |"));
    ck_assert_ptr_nonnull(strstr(buf, "- total 7"));
    free(buf);

    fp = open_memstream(&buf, &len);
    ck_assert_int_eq(table_write_html(t, fp, 1), 0);
    fclose(fp);
    ck_assert_ptr_nonnull(strstr(buf, "<td>a b|&lt;c&gt;</td><td class=\"num\">1.23</td>"));
    ck_assert_ptr_nonnull(strstr(buf, "1 more rows in the TSV"));
    free(buf);

    fp = open_memstream(&buf, &len);
    ck_assert_int_eq(table_print(t, fp, 0), 0);
    fclose(fp);
    /* numbers right-aligned under their header */
    ck_assert_ptr_nonnull(strstr(buf, "value\n"));
    ck_assert_ptr_nonnull(strstr(buf, " 1.23\n"));
    ck_assert_ptr_nonnull(strstr(buf, "  nan\n"));
    free(buf);
    ck_assert(isnan(table_num(t, 0, 0)));
    ck_assert_double_eq(table_num(t, 0, 1), 1.23456);
    table_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tables");
    TCase *tc = tcase_create("tables");
    tcase_add_checked_fixture(tc, setup, tt_tmpdir_remove);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_tables_median_odd_even);
    tcase_add_test(tc, test_tables_compile_rows_and_totals);
    tcase_add_test(tc, test_tables_tuning_sums_wall);
    tcase_add_test(tc, test_tables_split_repetition_overhead_compile);
    tcase_add_test(tc, test_tables_best_vs_cublas);
    tcase_add_test(tc, test_tables_failures_by_reason);
    tcase_add_test(tc, test_tables_heatmap_relative_and_ranked);
    tcase_add_test(tc, test_tables_flush_compares_with_largest);
    tcase_add_test(tc, test_tables_estimate_triton_and_refusal);
    tcase_add_test(tc, test_table_outputs_tsv_markdown_html);
    tcase_add_test(tc, test_table_col_need_fails_loudly);
    suite_add_tcase(s, tc);
    return tt_run(s);
}
