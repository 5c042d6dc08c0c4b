/* test-trace.c — the trace library (trace/trace.h) on well-formed files: round trip of every field, empty tables,
 * a writer reading what it wrote, appends it refuses, --resume, compression on close, and (with the argument
 * "big") a 10^7-execution round trip. The traces are small and hand-built from the base trace
 * (test-trace-base.h). Malformed and foreign files: test-trace-validation.c; crashes, full disks and concurrent
 * readers: test-trace-crash.c. */
#include "tc_err.h"
#include "test-common.h"
#include "test-trace-base.h"
#include "trace.h"

#include <check.h>
#include <hdf5.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

START_TEST(test_trace_roundtrip_every_field)
{
    tt_tmpdir_make("test-trace");
    const char *path = tt_path("base.h5");
    write_base(path);
    struct trace *t = trace_open(path);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_str_eq(trace_path(t), path);
    check_base(t, BASE_RUNS);
    ck_assert_str_eq(trace_compile_log(t, 2), "ptxas error: too much shared memory");
    ck_assert_str_eq(trace_compile_log(t, 0), "");
    ck_assert_int_eq(trace_n_compile_warmup(t), 3);
    ck_assert_double_eq(trace_compile_warmup(t)[1], 305.25);
    ck_assert_int_eq(trace_append_run(t, trace_run(t, 0), trace_run_exec(t, 0), BASE_EXEC), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "read-only"));
    ck_assert_int_eq(trace_close(t), 0);
    /* the same through HDF5's H5Dread instead of the parallel inflate, and with one inflating thread */
    static const char *const threads[] = {"0", "1"};
    for (int k = 0; k < 2; k++) {
        setenv("TC_TRACE_THREADS", threads[k], 1);
        t = trace_open(path);
        ck_assert_msg(t != NULL, "%s", tc_errmsg());
        check_base(t, BASE_RUNS);
        trace_close(t);
    }
    unsetenv("TC_TRACE_THREADS");
    tt_tmpdir_remove();
}
END_TEST

/* A trace with no configuration and no input is valid (nothing measured yet): it writes, reads and resumes. */
START_TEST(test_trace_empty_tables_round_trip)
{
    tt_tmpdir_make("test-trace");
    const char *p = tt_path("none.h5");
    struct trace_meta m = base_meta();
    struct trace *t = trace_create(p, &m, pnames, 6, dnames, 3);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_msg(trace_write_configs(t, 0, NULL, NULL) == 0, "%s", tc_errmsg());
    ck_assert_msg(trace_write_inputs(t, 0, NULL, NULL) == 0, "%s", tc_errmsg());
    ck_assert_int_eq(trace_append_run(t, &(struct trace_run){0}, NULL, 0), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "input 0 is outside /inputs (0..-1)"));
    ck_assert_int_eq(trace_close(t), 0);
    for (int k = 0; k < 2; k++) {
        t = k ? trace_open_append(p) : trace_open(p);
        ck_assert_msg(t != NULL, "%s", tc_errmsg());
        ck_assert_int_eq(trace_n_configs(t), 0);
        ck_assert_int_eq(trace_n_inputs(t), 0);
        ck_assert_int_eq(trace_n_params(t), 6);
        ck_assert_uint_eq(trace_n_runs(t), 0);
        ck_assert_int_eq(trace_find_run(t, 0, 0), -1);
        ck_assert_int_eq(trace_close(t), 0);
    }
    tt_tmpdir_remove();
}
END_TEST

/* kernel_family: written when the writer names it and read back as written; a trace without it (the base trace,
 * as traces before format_minor 3) outside the data folder is of an "unknown" family. */
START_TEST(test_trace_kernel_family_round_trip)
{
    tt_tmpdir_make("test-trace");
    const char *p = tt_path("family.h5");
    struct trace_meta m = base_meta();
    snprintf(m.kernel_family, sizeof m.kernel_family, "mma-sync");
    struct trace *t = trace_create(p, &m, pnames, 6, dnames, 3);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_msg(trace_write_configs(t, 0, NULL, NULL) == 0, "%s", tc_errmsg());
    ck_assert_msg(trace_write_inputs(t, 0, NULL, NULL) == 0, "%s", tc_errmsg());
    ck_assert_int_eq(trace_close(t), 0);
    t = trace_open(p);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_str_eq(trace_get_meta(t)->kernel_family, "mma-sync");
    ck_assert_str_eq(trace_kernel_family(t), "mma-sync");
    ck_assert_int_eq(trace_get_meta(t)->format_minor, 3);
    ck_assert_int_eq(trace_close(t), 0);
    write_base(tt_path("base.h5"));
    t = trace_open(tt_path("base.h5"));
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_str_eq(trace_get_meta(t)->kernel_family, "");
    ck_assert_str_eq(trace_kernel_family(t), "unknown");
    ck_assert_int_eq(trace_close(t), 0);
    tt_tmpdir_remove();
}
END_TEST

START_TEST(test_trace_writer_sees_what_it_wrote)
{
    tt_tmpdir_make("test-trace");
    struct trace *t = write_base_open(tt_path("w.h5"), BASE_RUNS);
    check_base(t, BASE_RUNS);
    /* updates of configs and inputs are durable and visible */
    struct trace_config c = base_config(1);
    c.compile_ms = 777.0;
    ck_assert_int_eq(trace_update_config(t, 1, &c), 0);
    struct trace_input in = base_input(1);
    in.ref_ms = 0.5;
    ck_assert_int_eq(trace_update_input(t, 1, &in), 0);
    ck_assert_double_eq(trace_config(t, 1)->compile_ms, 777.0);
    ck_assert_int_eq(trace_close(t), 0);
    t = trace_open(tt_path("w.h5"));
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_double_eq(trace_config(t, 1)->compile_ms, 777.0);
    ck_assert_double_eq(trace_input(t, 1)->ref_ms, 0.5);
    ck_assert_int_eq(trace_n_compile_warmup(t), 0);
    ck_assert_str_eq(trace_compile_log(t, 1), "");
    trace_close(t);
    tt_tmpdir_remove();
}
END_TEST

START_TEST(test_trace_append_rejects_bad_runs)
{
    tt_tmpdir_make("test-trace");
    struct trace *t = write_base_open(tt_path("a.h5"), 2);
    uint64_t x[BASE_EXEC] = {5, 5, 5, 5, 5, 5, 5, 5};
    struct trace_run run = base_run(0);
    run.input = 2;
    ck_assert_int_eq(trace_append_run(t, &run, x, BASE_EXEC), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "input 2 is outside /inputs (0..1)"));
    run = base_run(0);
    ck_assert_int_eq(trace_append_run(t, &run, x, BASE_EXEC - 1), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "= 8 but 7 executions were given"));
    run.wall_ms = -1;
    ck_assert_int_eq(trace_append_run(t, &run, x, BASE_EXEC), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "wall_ms -1 is not a positive, finite duration"));
    run = base_run(0);
    x[5] = UINT64_MAX;
    ck_assert_int_eq(trace_append_run(t, &run, x, BASE_EXEC), -1);
    /* the same check and words as a row read from a file (test_trace_rejects_bad_runs_rows) */
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "appended run for input 0, config 0 (status ok): execution 5 of 8 has "
                                              "duration 18446744073709551615 ns, a negative number stored as unsigned"));
    x[5] = 5;
    x[6] = 0;
    ck_assert_int_eq(trace_append_run(t, &run, x, BASE_EXEC), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "(status ok): execution 6 of 8 has duration 0 ns; a status-0 run needs "
                                              "every duration > 0"));
    run.status = TRACE_LAUNCH_ERROR; /* a failed run may hold zeros */
    ck_assert_int_eq(trace_append_run(t, &run, x, BASE_EXEC), 0);
    ck_assert_int_eq(trace_run_valid(t, 2), 0);
    ck_assert_int_eq(trace_write_configs(t, 3, &base_params[0][0], NULL), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "already written"));
    ck_assert_int_eq(trace_close(t), 0);
    t = trace_open(tt_path("a.h5"));
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(trace_n_runs(t), 3);
    ck_assert_int_eq(trace_run(t, 2)->status, TRACE_LAUNCH_ERROR);
    ck_assert_uint_eq(trace_run_exec(t, 2)[6], 0);
    trace_close(t);
    tt_tmpdir_remove();
}
END_TEST

START_TEST(test_trace_resume_appends_after_existing_runs)
{
    tt_tmpdir_make("test-trace");
    const char *path = tt_path("r.h5");
    struct trace *t = write_base_open(path, 12);
    ck_assert_int_eq(trace_close(t), 0);
    t = trace_open_append(path);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(trace_n_runs(t), 12);
    for (int r = 12; r < BASE_RUNS; r++) {
        struct trace_run run = base_run(r);
        uint64_t x[BASE_EXEC];
        for (size_t j = 0; j < BASE_EXEC; j++)
            x[j] = base_value((size_t)r, j);
        ck_assert_msg(trace_append_run(t, &run, x, BASE_EXEC) == 0, "%s", tc_errmsg());
    }
    ck_assert_int_eq(trace_close(t), 0);
    t = trace_open(path);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    check_base(t, BASE_RUNS);
    trace_close(t);
    tt_tmpdir_remove();
}
END_TEST

/* Number of filters on a dataset of the file (-1 if it cannot be read). */
static int n_filters(const char *path, const char *name)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    hid_t dcpl = H5Dget_create_plist(d);
    int n = dcpl >= 0 ? H5Pget_nfilters(dcpl) : -1;
    H5Pclose(dcpl);
    H5Dclose(d);
    H5Fclose(f);
    return n;
}

/* Unfiltered (crash-safe) while written, shuffle + deflate once closed; resuming a closed trace makes it
 * unfiltered again until the next close. */
START_TEST(test_trace_compressed_on_close_only)
{
    tt_tmpdir_make("test-trace");
    const char *p = tt_path("c.h5");
    struct trace *t = write_base_open(p, 6);
    ck_assert_int_eq(n_filters(p, "/exec_ns"), 0);
    ck_assert_int_eq(n_filters(p, "/runs"), 0);
    ck_assert_int_eq(trace_close(t), 0);
    ck_assert_int_eq(n_filters(p, "/exec_ns"), 2);
    ck_assert_int_eq(n_filters(p, "/runs"), 2);
    t = trace_open_append(p);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(n_filters(p, "/exec_ns"), 0);
    ck_assert_uint_eq(trace_n_runs(t), 6);
    ck_assert_int_eq(trace_close(t), 0);
    ck_assert_int_eq(n_filters(p, "/exec_ns"), 2);
    t = trace_open(p);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    check_base(t, 6);
    trace_close(t);
    /* no temporary left beside it */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq 1", tt_tmpdir());
    ck_assert_int_eq(system(cmd), 0);
    tt_tmpdir_remove();
}
END_TEST

/* ---- 10^7 executions -------------------------------------------------------------------------------------- */

START_TEST(test_trace_big_roundtrip)
{
    enum { PER_RUN = 20000, RUNS = 500 }; /* 10^7 executions */
    tt_tmpdir_make("test-trace");
    const char *p = tt_path("big.h5");
    uint64_t *x = malloc(PER_RUN * sizeof *x);
    struct trace_meta m = base_meta();
    struct trace_config configs[3];
    struct trace_input inputs[2];
    for (int c = 0; c < 3; c++)
        configs[c] = base_config(c);
    for (int i = 0; i < 2; i++)
        inputs[i] = base_input(i);
    struct trace *t = trace_create(p, &m, pnames, 6, dnames, 3);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(trace_write_configs(t, 3, &base_params[0][0], configs), 0);
    ck_assert_int_eq(trace_write_inputs(t, 2, &base_dims[0][0], inputs), 0);
    uint64_t s = 12345;
    for (size_t r = 0; r < RUNS; r++) {
        struct trace_run run = {(int)(r % 2), (int)(r % 3), 0, 5, 5000, PER_RUN - 5005, 0, 130.0, 0, 0, NAN, 0, NAN, NAN};
        for (size_t j = 0; j < PER_RUN; j++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            x[j] = 3000 + 100 * r + (s >> 52); /* 12 random bits */
        }
        ck_assert_msg(trace_append_run(t, &run, x, PER_RUN) == 0, "%s", tc_errmsg());
    }
    ck_assert_int_eq(trace_close(t), 0);
    t = trace_open(p);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(trace_n_exec(t), 10000000);
    ck_assert_uint_eq(trace_n_runs(t), RUNS);
    s = 12345;
    for (size_t r = 0; r < RUNS; r++) {
        const uint64_t *g = trace_run_exec(t, r);
        for (size_t j = 0; j < PER_RUN; j++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            ck_assert_uint_eq(g[j], 3000 + 100 * r + (s >> 52));
        }
        ck_assert_int_eq(trace_run_valid(t, r), 1);
    }
    trace_close(t);
    /* HDF5's H5Dread path reads the same values */
    setenv("TC_TRACE_THREADS", "0", 1);
    t = trace_open(p);
    unsetenv("TC_TRACE_THREADS");
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    s = 12345;
    for (size_t r = 0; r < RUNS; r++) {
        const uint64_t *g = trace_run_exec(t, r);
        for (size_t j = 0; j < PER_RUN; j++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            ck_assert_uint_eq(g[j], 3000 + 100 * r + (s >> 52));
        }
    }
    trace_close(t);
    struct stat st;
    ck_assert_int_eq(stat(p, &st), 0);
    /* 12 random bits per value (1.5 bytes of entropy): compressed well below the 8 bytes of raw uint64 */
    ck_assert_int_lt(st.st_size, 10000000 * 3);
    free(x);
    tt_tmpdir_remove();
}
END_TEST

int main(int argc, char **argv)
{
    int big = argc > 1 && strcmp(argv[1], "big") == 0;
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create(big ? "big" : "core");
    tcase_set_timeout(tc, big ? 600 : 120);
    if (big) {
        tcase_add_test(tc, test_trace_big_roundtrip);
    } else {
        tcase_add_test(tc, test_trace_roundtrip_every_field);
        tcase_add_test(tc, test_trace_writer_sees_what_it_wrote);
        tcase_add_test(tc, test_trace_empty_tables_round_trip);
        tcase_add_test(tc, test_trace_kernel_family_round_trip);
        tcase_add_test(tc, test_trace_append_rejects_bad_runs);
        tcase_add_test(tc, test_trace_resume_appends_after_existing_runs);
        tcase_add_test(tc, test_trace_compressed_on_close_only);
    }
    suite_add_tcase(s, tc);
    return tt_run(s);
}
