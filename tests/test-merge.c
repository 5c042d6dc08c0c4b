/* test-merge.c — `tunecost merge` on small hand-built traces (written here with the trace library): shards are
 * joined with every run and execution intact and inputs re-indexed by shape; mismatched settings, differing
 * configurations and a pair measured twice are refused with exit status 2 and no output file.
 * usage: test-merge TUNECOST */
#include "trace.h"
#include "tc_err.h"
#include "test-common.h"

#include <check.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *g_tunecost;

static const int32_t params[2][6] = {{64, 64, 32, 8, 3, 4}, {128, 128, 64, 8, 4, 8}};

static void setup(void)
{
    tt_tmpdir_make("test-merge");
}

/* A shard with the given inputs (n x 3 dims); every (input, config) pair gets a run of 3 executions (1 warm-up,
 * 2 timed) whose durations encode (shape M, config, index): M * 1000 + config * 10 + j + 1 ns. */
static const char *shard_family = ""; /* the kernel_family the next make_shard writes ("": none) */

static void make_shard(const char *file, double rep_ms, const int64_t *dims, int n, const int32_t *prm)
{
    struct trace_meta m = tt_meta("test-merge", rep_ms);
    snprintf(m.kernel_family, sizeof m.kernel_family, "%s", shard_family);
    struct trace *t = tt_trace_create(file, &m, 2, prm, n, dims);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            uint64_t ex[3];
            for (int j = 0; j < 3; j++)
                ex[j] = (uint64_t)(dims[i * 3] * 1000 + k * 10 + j + 1);
            tt_trace_run(t, i, k, 1, 2, ex);
        }
    ck_assert_int_eq(trace_close(t), 0);
}

/* Set configuration k's compile_isolated_ms in a finished trace (as a resumed collector would). */
static void set_isolated(const char *file, int k, double ms)
{
    struct trace *t = trace_open_append(file);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    struct trace_config c = *trace_config(t, k);
    c.compile_isolated_ms = ms;
    ck_assert_int_eq(trace_update_config(t, k, &c), 0);
    ck_assert_int_eq(trace_close(t), 0);
}

static int run_merge(const char *out, const char *a, const char *b, const char *extra)
{
    char cmd[2048];
    int st;
    snprintf(cmd, sizeof cmd, "'%s' merge -q %s '%s' '%s' '%s' 2>/dev/null", g_tunecost, extra, out, a, b);
    st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

START_TEST(test_merge_joins_shards)
{
    const int64_t d1[6] = {256, 256, 256, 512, 256, 256}, d2[3] = {1024, 256, 256};
    struct trace *t;
    make_shard(tt_path("a.h5"), 100, d1, 2, &params[0][0]);
    make_shard(tt_path("b.h5"), 100, d2, 1, &params[0][0]);
    /* isolated compile times: a measured configuration 0 (80 ms), b both (70, 90 ms): the first file's wins */
    set_isolated(tt_path("a.h5"), 0, 80.0);
    set_isolated(tt_path("b.h5"), 0, 70.0);
    set_isolated(tt_path("b.h5"), 1, 90.0);
    ck_assert_int_eq(run_merge(tt_path("m.h5"), tt_path("a.h5"), tt_path("b.h5"), ""), 0);
    t = trace_open(tt_path("m.h5"));
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(trace_n_inputs(t), 3);
    ck_assert_int_eq(trace_n_configs(t), 2);
    ck_assert_int_eq((int)trace_n_runs(t), 6);
    ck_assert_int_eq((int)trace_n_exec(t), 18);
    ck_assert_int_eq(trace_dims(t, 2)[0], 1024); /* b's input comes third */
    for (size_t r = 0; r < trace_n_runs(t); r++) {
        const struct trace_run *run = trace_run(t, r);
        const uint64_t *x = trace_run_exec(t, r);
        int64_t m = trace_dims(t, run->input)[0];
        for (int j = 0; j < 3; j++) /* each execution still belongs to its own shape and configuration */
            ck_assert_int_eq((int64_t)x[j], m * 1000 + run->config * 10 + j + 1);
    }
    ck_assert_double_eq_tol(trace_config(t, 1)->compile_ms, 101.0, 1e-9);
    ck_assert_double_eq(trace_compile_isolated_ms(t, 0), 80.0);
    ck_assert_double_eq(trace_compile_isolated_ms(t, 1), 90.0);
    ck_assert_int_eq(trace_get_meta(t)->format_minor, TRACE_FORMAT_MINOR);
    ck_assert_str_eq(trace_get_meta(t)->device_name, "NVIDIA H200");
    ck_assert_double_eq_tol(trace_get_meta(t)->rep_ms, 100.0, 1e-12);
    trace_close(t);
}
END_TEST

/* Shards given in any order merge into the collection's input order: dimensions ascending, M first. */
START_TEST(test_merge_orders_inputs_by_shape)
{
    const int64_t d1[6] = {512, 256, 256, 256, 512, 256}, d2[3] = {256, 256, 1024};
    const int64_t want[3][3] = {{256, 256, 1024}, {256, 512, 256}, {512, 256, 256}};
    struct trace *t;
    make_shard(tt_path("a.h5"), 100, d1, 2, &params[0][0]);
    make_shard(tt_path("b.h5"), 100, d2, 1, &params[0][0]);
    /* isolated compile times: a measured configuration 0 (80 ms), b both (70, 90 ms): the first file's wins */
    set_isolated(tt_path("a.h5"), 0, 80.0);
    set_isolated(tt_path("b.h5"), 0, 70.0);
    set_isolated(tt_path("b.h5"), 1, 90.0);
    ck_assert_int_eq(run_merge(tt_path("m.h5"), tt_path("a.h5"), tt_path("b.h5"), ""), 0);
    t = trace_open(tt_path("m.h5"));
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(trace_n_inputs(t), 3);
    for (int i = 0; i < 3; i++)
        for (int d = 0; d < 3; d++)
            ck_assert_int_eq(trace_dims(t, i)[d], want[i][d]);
    for (size_t r = 0; r < trace_n_runs(t); r++) { /* runs follow their inputs to the new indices */
        const struct trace_run *run = trace_run(t, r);
        ck_assert_int_eq((int64_t)trace_run_exec(t, r)[0], trace_dims(t, run->input)[0] * 1000 + run->config * 10 + 1);
    }
    trace_close(t);
}
END_TEST

START_TEST(test_merge_refuses_other_settings)
{
    const int64_t d1[3] = {256, 256, 256}, d2[3] = {512, 512, 512};
    make_shard(tt_path("a.h5"), 100, d1, 1, &params[0][0]);
    make_shard(tt_path("b.h5"), 50, d2, 1, &params[0][0]);
    ck_assert_int_eq(run_merge(tt_path("m.h5"), tt_path("a.h5"), tt_path("b.h5"), ""), 2);
    ck_assert(!exists(tt_path("m.h5")));
}
END_TEST

/* Shards of two kernel families (collect --family) are two collections: refused, nothing written; one family's
 * shards merge and the merged trace keeps it, also when the first shard was written before the attribute. */
START_TEST(test_merge_refuses_other_kernel_family)
{
    const int64_t d1[3] = {256, 256, 256}, d2[3] = {512, 512, 512};
    shard_family = "wgmma-tma";
    make_shard(tt_path("a.h5"), 100, d1, 1, &params[0][0]);
    shard_family = "mma-sync";
    make_shard(tt_path("b.h5"), 100, d2, 1, &params[0][0]);
    ck_assert_int_eq(run_merge(tt_path("m.h5"), tt_path("a.h5"), tt_path("b.h5"), ""), 2);
    ck_assert(!exists(tt_path("m.h5")));
    make_shard(tt_path("c.h5"), 100, d1, 1, &params[0][0]);
    shard_family = "";
    make_shard(tt_path("d.h5"), 100, d1, 1, &params[0][0]);
    static const char *const firsts[2] = {"c.h5", "d.h5"};
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(run_merge(tt_path("m.h5"), tt_path(firsts[k]), tt_path("b.h5"), "-f"), 0);
        struct trace *t = trace_open(tt_path("m.h5"));
        ck_assert_msg(t != NULL, "%s", tc_errmsg());
        ck_assert_str_eq(trace_get_meta(t)->kernel_family, "mma-sync");
        trace_close(t);
    }
}
END_TEST

START_TEST(test_merge_refuses_other_configurations)
{
    const int64_t d1[3] = {256, 256, 256}, d2[3] = {512, 512, 512};
    int32_t other[2][6];
    memcpy(other, params, sizeof other);
    other[1][4] = 5;
    make_shard(tt_path("a.h5"), 100, d1, 1, &params[0][0]);
    make_shard(tt_path("b.h5"), 100, d2, 1, &other[0][0]);
    ck_assert_int_eq(run_merge(tt_path("m.h5"), tt_path("a.h5"), tt_path("b.h5"), ""), 2);
    ck_assert(!exists(tt_path("m.h5")));
}
END_TEST

START_TEST(test_merge_refuses_pair_twice)
{
    const int64_t d1[3] = {256, 256, 256};
    make_shard(tt_path("a.h5"), 100, d1, 1, &params[0][0]);
    make_shard(tt_path("b.h5"), 100, d1, 1, &params[0][0]);
    ck_assert_int_eq(run_merge(tt_path("m.h5"), tt_path("a.h5"), tt_path("b.h5"), ""), 2);
    ck_assert(!exists(tt_path("m.h5")));
}
END_TEST

START_TEST(test_merge_keeps_existing_output_without_force)
{
    const int64_t d1[3] = {256, 256, 256}, d2[3] = {512, 512, 512};
    FILE *fp;
    char buf[16] = "";
    make_shard(tt_path("a.h5"), 100, d1, 1, &params[0][0]);
    make_shard(tt_path("b.h5"), 100, d2, 1, &params[0][0]);
    fp = fopen(tt_path("m.h5"), "w");
    fputs("precious", fp);
    fclose(fp);
    ck_assert_int_eq(run_merge(tt_path("m.h5"), tt_path("a.h5"), tt_path("b.h5"), ""), 2);
    fp = fopen(tt_path("m.h5"), "r");
    ck_assert_ptr_nonnull(fgets(buf, sizeof buf, fp));
    fclose(fp);
    ck_assert_str_eq(buf, "precious");
    ck_assert_int_eq(run_merge(tt_path("m.h5"), tt_path("a.h5"), tt_path("b.h5"), "--force"), 0);
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s = suite_create("merge");
    TCase *tc = tcase_create("core");
    if (argc < 2) {
        fprintf(stderr, "usage: test-merge TUNECOST\n");
        return 2;
    }
    g_tunecost = argv[1];
    tcase_add_checked_fixture(tc, setup, tt_tmpdir_remove);
    tcase_add_test(tc, test_merge_joins_shards);
    tcase_add_test(tc, test_merge_orders_inputs_by_shape);
    tcase_add_test(tc, test_merge_refuses_other_settings);
    tcase_add_test(tc, test_merge_refuses_other_kernel_family);
    tcase_add_test(tc, test_merge_refuses_other_configurations);
    tcase_add_test(tc, test_merge_refuses_pair_twice);
    tcase_add_test(tc, test_merge_keeps_existing_output_without_force);
    suite_add_tcase(s, tc);
    return tt_run(s);
}
