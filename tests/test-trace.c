/* test-trace.c — the trace library (trace/trace.h): round trip of every field, files written by other tools,
 * every kind of malformed file rejected with its message, durable appends under SIGKILL, --resume, and (with the
 * argument "big") a 10^7-execution round trip. The traces here are small and hand-built by the tests themselves;
 * malformed ones are made by editing a valid file with the HDF5 API or by cutting and garbling its bytes.
 * Over 800 lines on purpose: every case starts from the same base trace and its checks (write_base, check_base),
 * and the malformed-file cases are edits of that file; one executable keeps them beside the fixture they edit. */
#include "trace.h"
#include "tc_err.h"
#include "test-common.h"
#include "tc_time.h"

#include <check.h>
#include <hdf5.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


/* ---- a base trace: 3 configs, 2 inputs, 20 runs of 8 executions (1 estimate, 2 warm-up, 5 timed) ---------- */

#define BASE_RUNS 20
#define BASE_EXEC 8

static const char *const pnames[] = {"BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "NUM_STAGES", "NUM_WARPS"};
static const char *const dnames[] = {"M", "N", "K"};
static const int32_t base_params[3][6] = {{64, 64, 32, 8, 3, 4}, {128, 128, 64, 8, 4, 8}, {256, 128, 64, 4, 3, 8}};
static const int64_t base_dims[2][3] = {{1024, 1024, 1024}, {4096, 256, 4096}};

static struct trace_meta base_meta(void)
{
    struct trace_meta m = {
        .generator = "test-trace",
        .created_utc = "2026-11-22T10:00:00Z",
        .kernel = "gemm_f16_f32acc",
        .device_name = "NVIDIA H200",
        .device_cc = 90,
        .device_sms = 132,
        .device_l2_bytes = 62914560,
        .driver_version = 13000,
        .cuda_version = 13000,
        .timer = "cupti",
        .protocol = "triton",
        .warmup_ms = 25.0,
        .rep_ms = 100.0,
        .flush_bytes = 268435456,
        .compile_jobs = 16,
        .seed = 18446744073709551557ull, /* needs all 64 bits */
    };
    return m;
}

static struct trace_config base_config(int c)
{
    struct trace_config cfg = {c == 2 ? TRACE_OUT_OF_RESOURCES : TRACE_OK, 100.0 + c, 2.5 + c, 96 + c, 32768 * (c + 1),
                               c * 8, c % 2};
    return cfg;
}

static struct trace_input base_input(int i)
{
    struct trace_input in = {2.0 * (double)base_dims[i][0] * (double)base_dims[i][1] * (double)base_dims[i][2],
                             i == 0 ? 0.0125 : NAN};
    return in;
}

static uint64_t base_value(size_t r, size_t j)
{
    return 1000 + 10 * r + j;
}

static struct trace_run base_run(int r)
{
    struct trace_run run = {r % 2, r % 3, r % 3 == 2 ? TRACE_OUT_OF_RESOURCES : TRACE_OK, 1, 2, 5, -1,
                            10.0 + r, 0.5 * r, 1.25, r % 2 ? 0.01 * r : NAN, 1e-7 * r};
    return run;
}

/* Create a trace with the base configs and inputs and the first n_runs base runs; returns it open. */
static struct trace *write_base_open(const char *path, int n_runs)
{
    struct trace_meta m = base_meta();
    struct trace_config configs[3];
    struct trace_input inputs[2];
    uint64_t x[BASE_EXEC];
    for (int c = 0; c < 3; c++)
        configs[c] = base_config(c);
    for (int i = 0; i < 2; i++)
        inputs[i] = base_input(i);
    struct trace *t = trace_create(path, &m, pnames, 6, dnames, 3);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_msg(trace_write_configs(t, 3, &base_params[0][0], configs) == 0, "%s", tc_errmsg());
    ck_assert_msg(trace_write_inputs(t, 2, &base_dims[0][0], inputs) == 0, "%s", tc_errmsg());
    for (int r = 0; r < n_runs; r++) {
        struct trace_run run = base_run(r);
        for (size_t j = 0; j < BASE_EXEC; j++)
            x[j] = base_value((size_t)r, j);
        ck_assert_msg(trace_append_run(t, &run, x, BASE_EXEC) == 0, "%s", tc_errmsg());
    }
    return t;
}

static void write_base(const char *path)
{
    struct trace *t = write_base_open(path, BASE_RUNS);
    ck_assert_msg(trace_set_compile_log(t, 2, "ptxas error: too much shared memory") == 0, "%s", tc_errmsg());
    double warm[3] = {210.5, 305.25, 280.0};
    ck_assert_msg(trace_write_compile_warmup(t, warm, 3) == 0, "%s", tc_errmsg());
    ck_assert_int_eq(trace_close(t), 0);
}

static void check_base(const struct trace *t, size_t n_runs)
{
    const struct trace_meta *m = trace_get_meta(t);
    struct trace_meta e = base_meta();
    ck_assert_str_eq(m->generator, e.generator);
    ck_assert_str_eq(m->created_utc, e.created_utc);
    ck_assert_str_eq(m->kernel, e.kernel);
    ck_assert_str_eq(m->device_name, e.device_name);
    ck_assert_int_eq(m->device_cc, 90);
    ck_assert_int_eq(m->device_sms, 132);
    ck_assert_int_eq(m->device_l2_bytes, 62914560);
    ck_assert_int_eq(m->driver_version, 13000);
    ck_assert_int_eq(m->cuda_version, 13000);
    ck_assert_str_eq(m->timer, "cupti");
    ck_assert_str_eq(m->protocol, "triton");
    ck_assert_double_eq(m->warmup_ms, 25.0);
    ck_assert_double_eq(m->rep_ms, 100.0);
    ck_assert_int_eq(m->flush_bytes, 268435456);
    ck_assert_int_eq(m->compile_jobs, 16);
    ck_assert_uint_eq(m->seed, 18446744073709551557ull);

    ck_assert_int_eq(trace_n_params(t), 6);
    for (int p = 0; p < 6; p++)
        ck_assert_str_eq(trace_param_name(t, p), pnames[p]);
    ck_assert_ptr_null(trace_param_name(t, 6));
    ck_assert_int_eq(trace_n_configs(t), 3);
    for (int c = 0; c < 3; c++) {
        struct trace_config e_c = base_config(c);
        const struct trace_config *g = trace_config(t, c);
        ck_assert_mem_eq(trace_params(t, c), base_params[c], sizeof base_params[c]);
        ck_assert_int_eq(g->status, e_c.status);
        ck_assert_double_eq(g->compile_ms, e_c.compile_ms);
        ck_assert_double_eq(g->load_ms, e_c.load_ms);
        ck_assert_int_eq(g->registers, e_c.registers);
        ck_assert_int_eq(g->smem_bytes, e_c.smem_bytes);
        ck_assert_int_eq(g->spill_bytes, e_c.spill_bytes);
        ck_assert_int_eq(g->path, e_c.path); /* the optional member round-trips (1 = wgmma for odd c) */
    }
    ck_assert_ptr_null(trace_config(t, 3));
    ck_assert_int_eq(trace_n_dims(t), 3);
    for (int d = 0; d < 3; d++)
        ck_assert_str_eq(trace_dim_name(t, d), dnames[d]);
    ck_assert_int_eq(trace_n_inputs(t), 2);
    for (int i = 0; i < 2; i++) {
        ck_assert_mem_eq(trace_dims(t, i), base_dims[i], sizeof base_dims[i]);
        ck_assert_double_eq(trace_input(t, i)->flops, base_input(i).flops);
    }
    ck_assert_double_eq(trace_input(t, 0)->ref_ms, 0.0125);
    ck_assert(isnan(trace_input(t, 1)->ref_ms));
    ck_assert_int_eq(trace_find_input(t, base_dims[1]), 1);
    int64_t nodims[3] = {1, 2, 3};
    ck_assert_int_eq(trace_find_input(t, nodims), -1);

    ck_assert_uint_eq(trace_n_runs(t), n_runs);
    ck_assert_uint_eq(trace_n_exec(t), n_runs * BASE_EXEC);
    for (size_t r = 0; r < n_runs; r++) {
        struct trace_run e_r = base_run((int)r);
        const struct trace_run *g = trace_run(t, r);
        ck_assert_int_eq(g->input, e_r.input);
        ck_assert_int_eq(g->config, e_r.config);
        ck_assert_int_eq(g->status, e_r.status);
        ck_assert_int_eq(g->n_estimate, 1);
        ck_assert_int_eq(g->n_warmup, 2);
        ck_assert_int_eq(g->n_timed, 5);
        ck_assert_int_eq(g->exec_offset, (int64_t)(r * BASE_EXEC));
        ck_assert_double_eq(g->wall_ms, e_r.wall_ms);
        ck_assert_double_eq(g->flush_ms, e_r.flush_ms);
        ck_assert_double_eq(g->verify_ms, e_r.verify_ms);
        if (r % 2)
            ck_assert_double_eq(g->estimate_ms, e_r.estimate_ms);
        else
            ck_assert(isnan(g->estimate_ms));
        ck_assert_double_eq(g->rel_error, e_r.rel_error);
        for (size_t j = 0; j < BASE_EXEC; j++)
            ck_assert_uint_eq(trace_run_exec(t, r)[j], base_value(r, j));
        ck_assert_uint_eq(trace_run_timed(t, r)[0], base_value(r, 3));
        ck_assert_int_eq(trace_run_valid(t, r), e_r.status == TRACE_OK);
    }
    ck_assert_ptr_null(trace_run(t, n_runs));
    /* (input, config) -> the last run of that pair: run r is (r % 2, r % 3), so pairs repeat every 6 rows */
    for (int i = 0; i < 2; i++)
        for (int c = 0; c < 3; c++) {
            long last = -1;
            for (size_t r = 0; r < n_runs; r++)
                if ((int)(r % 2) == i && (int)(r % 3) == c)
                    last = (long)r;
            ck_assert_int_eq(trace_find_run(t, i, c), last);
        }
    if (n_runs == BASE_RUNS) {
        ck_assert_int_eq(trace_find_run(t, 1, 1), 19);
        ck_assert_int_eq(trace_find_run(t, 0, 0), 18);
    }
    ck_assert_int_eq(trace_find_run(t, 5, 0), -1);
}

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

/* ---- editing files with the HDF5 API --------------------------------------------------------------------- */

/* The /runs row layout, built here independently of the library. */
static hid_t run_memtype(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct trace_run));
#define INS(f, ty) H5Tinsert(t, #f, offsetof(struct trace_run, f), ty)
    INS(input, H5T_NATIVE_INT32);
    INS(config, H5T_NATIVE_INT32);
    INS(status, H5T_NATIVE_INT32);
    INS(n_estimate, H5T_NATIVE_INT32);
    INS(n_warmup, H5T_NATIVE_INT32);
    INS(n_timed, H5T_NATIVE_INT32);
    INS(exec_offset, H5T_NATIVE_INT64);
    INS(wall_ms, H5T_NATIVE_DOUBLE);
    INS(flush_ms, H5T_NATIVE_DOUBLE);
    INS(verify_ms, H5T_NATIVE_DOUBLE);
    INS(estimate_ms, H5T_NATIVE_DOUBLE);
    INS(rel_error, H5T_NATIVE_DOUBLE);
#undef INS
    return t;
}

/* Rewrite one /runs row of the file with `edit` applied. */
static void edit_run(const char *path, size_t row, void (*edit)(struct trace_run *))
{
    struct trace_run runs[BASE_RUNS];
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/runs", H5P_DEFAULT);
    hid_t mt = run_memtype();
    ck_assert(f >= 0 && d >= 0 && mt >= 0);
    ck_assert_int_ge(H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, runs), 0);
    edit(&runs[row]);
    ck_assert_int_ge(H5Dwrite(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, runs), 0);
    H5Tclose(mt);
    H5Dclose(d);
    ck_assert_int_ge(H5Fclose(f), 0);
}

static void set_root_attr_int(const char *path, const char *name, int64_t v)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t sp = H5Screate(H5S_SCALAR);
    ck_assert(f >= 0);
    if (H5Aexists(f, name) > 0)
        ck_assert_int_ge(H5Adelete(f, name), 0);
    hid_t a = H5Acreate2(f, name, H5T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
    ck_assert_int_ge(H5Awrite(a, H5T_NATIVE_INT64, &v), 0);
    H5Aclose(a);
    H5Sclose(sp);
    ck_assert_int_ge(H5Fclose(f), 0);
}

/* A fixed-length (not variable-length) string attribute, as some tools write them. */
static void set_root_attr_fixed_str(hid_t f, const char *name, const char *v)
{
    hid_t st = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR);
    H5Tset_size(st, strlen(v) + 5);
    H5Tset_strpad(st, H5T_STR_NULLPAD);
    if (H5Aexists(f, name) > 0)
        ck_assert_int_ge(H5Adelete(f, name), 0);
    hid_t a = H5Acreate2(f, name, st, sp, H5P_DEFAULT, H5P_DEFAULT);
    char buf[256] = {0};
    snprintf(buf, sizeof buf, "%s", v);
    ck_assert_int_ge(H5Awrite(a, st, buf), 0);
    H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(st);
}

static void delete_link(const char *path, const char *name)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    ck_assert(f >= 0);
    ck_assert_int_ge(H5Ldelete(f, name, H5P_DEFAULT), 0);
    ck_assert_int_ge(H5Fclose(f), 0);
}

static void delete_root_attr(const char *path, const char *name)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    ck_assert(f >= 0);
    ck_assert_int_ge(H5Adelete(f, name), 0);
    ck_assert_int_ge(H5Fclose(f), 0);
}

/* Expect trace_open to fail with exactly "<path>: <tail>". */
static void expect_error(const char *path, const char *tail)
{
    char want[1024];
    struct trace *t = trace_open(path);
    if (t != NULL)
        trace_close(t);
    ck_assert_msg(t == NULL, "%s opened, expected: %s", path, tail);
    snprintf(want, sizeof want, "%s: %s", path, tail);
    ck_assert_str_eq(tc_errmsg(), want);
}

/* Expect trace_open to fail with a message that starts with "<path>: " and contains `part`. */
static void expect_error_part(const char *path, const char *part)
{
    struct trace *t = trace_open(path);
    if (t != NULL)
        trace_close(t);
    ck_assert_msg(t == NULL, "%s opened, expected an error containing: %s", path, part);
    ck_assert_msg(strncmp(tc_errmsg(), path, strlen(path)) == 0 && tc_errmsg()[strlen(path)] == ':',
                  "message does not start with the path: %s", tc_errmsg());
    ck_assert_msg(strstr(tc_errmsg(), part) != NULL, "'%s' not in: %s", part, tc_errmsg());
    ck_assert_ptr_null(strchr(tc_errmsg(), '\n'));
}

static void edit_exec_too_long(struct trace_run *r) { r->n_timed += 100; }
static void edit_input_outside(struct trace_run *r) { r->input = 7; }
static void edit_config_negative(struct trace_run *r) { r->config = -1; }
static void edit_negative_count(struct trace_run *r) { r->n_warmup = -2; }
static void edit_bad_status(struct trace_run *r) { r->status = 9; }
static void edit_negative_offset(struct trace_run *r) { r->exec_offset = -8; }
static void edit_wall_nan(struct trace_run *r) { r->wall_ms = NAN; }
static void edit_wall_zero(struct trace_run *r) { r->wall_ms = 0; }

static void set_exec(const char *path, hsize_t at, uint64_t v)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/exec_ns", H5P_DEFAULT);
    hid_t fs = H5Dget_space(d);
    hsize_t one = 1;
    hid_t ms = H5Screate_simple(1, &one, NULL);
    H5Sselect_hyperslab(fs, H5S_SELECT_SET, &at, NULL, &one, NULL);
    ck_assert_int_ge(H5Dwrite(d, H5T_NATIVE_UINT64, ms, fs, H5P_DEFAULT, &v), 0);
    H5Sclose(ms);
    H5Sclose(fs);
    H5Dclose(d);
    ck_assert_int_ge(H5Fclose(f), 0);
}

static void copy_file(const char *from, const char *to)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", from, to);
    ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_trace_rejects_bad_runs_rows)
{
    tt_tmpdir_make("test-trace");
    const char *base = tt_path("base.h5");
    write_base(base);
    const char *p = tt_path("bad.h5");
    char want[256];

    copy_file(base, p);
    edit_run(p, 17, edit_exec_too_long); /* offset 136 + 1 + 2 + 105 = 244 > 160 values */
    expect_error(p, "/runs row 17: exec_offset+count 244 exceeds /exec_ns length 160");

    copy_file(base, p);
    edit_run(p, 3, edit_input_outside);
    expect_error(p, "/runs row 3: input 7 is outside /inputs (0..1)");

    copy_file(base, p);
    edit_run(p, 0, edit_config_negative);
    expect_error(p, "/runs row 0: config -1 is outside /configs (0..2)");

    copy_file(base, p);
    edit_run(p, 5, edit_negative_count);
    expect_error(p, "/runs row 5: negative count (n_estimate 1, n_warmup -2, n_timed 5)");

    copy_file(base, p);
    edit_run(p, 4, edit_bad_status);
    expect_error(p, "/runs row 4: status 9 is not a known status (0..4)");

    copy_file(base, p);
    edit_run(p, 1, edit_negative_offset);
    expect_error(p, "/runs row 1: exec_offset -8 is negative");

    /* run 4 is status ok (4 % 3 != 2); its executions are values 32..39, timed ones from 35 */
    copy_file(base, p);
    set_exec(p, 4 * BASE_EXEC + 6, 0);
    snprintf(want, sizeof want,
             "/runs row 4 (status ok): execution 6 of 8 has duration 0 ns; a status-0 run needs every duration > 0");
    expect_error(p, want);

    /* run 5 failed (out of resources): a zero duration there is fine, the file opens */
    copy_file(base, p);
    set_exec(p, 4 * BASE_EXEC + 7, 18446744073709551611ull); /* -5 as uint64 */
    expect_error(p, "/runs row 4 (status ok): execution 7 of 8 has duration 18446744073709551611 ns, a negative "
                    "number stored as unsigned");

    copy_file(base, p);
    edit_run(p, 4, edit_wall_nan);
    expect_error(p, "/runs row 4 (status ok): wall_ms nan is not a positive, finite duration");
    copy_file(base, p);
    edit_run(p, 3, edit_wall_zero);
    expect_error(p, "/runs row 3 (status ok): wall_ms 0 is not a positive, finite duration");

    copy_file(base, p);
    set_exec(p, 5 * BASE_EXEC + 6, 0);
    struct trace *t = trace_open(p);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    trace_close(t);
    tt_tmpdir_remove();
}
END_TEST

START_TEST(test_trace_rejects_bad_structure)
{
    tt_tmpdir_make("test-trace");
    const char *base = tt_path("base.h5");
    write_base(base);
    const char *p = tt_path("bad.h5");

    copy_file(base, p);
    set_root_attr_int(p, "format_version", 2);
    expect_error(p, "format_version 2 is newer than this tunecost understands (1)");

    copy_file(base, p);
    set_root_attr_int(p, "format_version", 0);
    expect_error(p, "format_version 0 is not valid (this tunecost reads version 1)");

    copy_file(base, p);
    {
        hid_t f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
        set_root_attr_fixed_str(f, "format", "some-other-format");
        H5Fclose(f);
    }
    expect_error(p, "not a tunecost trace (format is 'some-other-format', expected 'tunecost-trace')");

    copy_file(base, p);
    delete_root_attr(p, "format");
    expect_error(p, "not a tunecost trace (no root attribute 'format')");

    copy_file(base, p);
    delete_root_attr(p, "device_sms");
    expect_error(p, "the root group lacks the attribute 'device_sms'");

    static const char *const required[] = {"/params", "/configs", "/dims", "/inputs", "/runs", "/exec_ns"};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        char want[64];
        copy_file(base, p);
        delete_link(p, required[i]);
        snprintf(want, sizeof want, "missing dataset %s", required[i]);
        expect_error(p, want);
    }

    /* /params with 2 rows while /configs has 3 */
    copy_file(base, p);
    {
        hid_t f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
        hsize_t dims[2] = {2, 6};
        const char *names[6] = {"BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "NUM_STAGES", "NUM_WARPS"};
        H5Ldelete(f, "/params", H5P_DEFAULT);
        hid_t sp = H5Screate_simple(2, dims, NULL);
        hid_t d = H5Dcreate2(f, "/params", H5T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        int64_t v[12] = {0};
        H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
        hid_t st = H5Tcopy(H5T_C_S1);
        H5Tset_size(st, H5T_VARIABLE);
        hsize_t n = 5; /* and one name short */
        hid_t asp = H5Screate_simple(1, &n, NULL);
        hid_t a = H5Acreate2(d, "names", st, asp, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(a, st, names);
        H5Aclose(a);
        H5Sclose(asp);
        H5Tclose(st);
        H5Dclose(d);
        H5Sclose(sp);
        ck_assert_int_ge(H5Fclose(f), 0);
    }
    expect_error(p, "/params has 6 columns but its attribute 'names' lists 5");

    /* /exec_ns as a 2-D float dataset */
    copy_file(base, p);
    {
        hid_t f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
        hsize_t dims[2] = {80, 2};
        H5Ldelete(f, "/exec_ns", H5P_DEFAULT);
        hid_t sp = H5Screate_simple(2, dims, NULL);
        hid_t d = H5Dcreate2(f, "/exec_ns", H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dclose(d);
        H5Sclose(sp);
        ck_assert_int_ge(H5Fclose(f), 0);
    }
    expect_error(p, "/exec_ns must be a 1-D integer dataset (found a 2-D float one)");
    tt_tmpdir_remove();
}
END_TEST

START_TEST(test_trace_rejects_damaged_files)
{
    tt_tmpdir_make("test-trace");
    const char *base = tt_path("base.h5");
    write_base(base);
    const char *p = tt_path("bad.h5");
    char want[600];
    struct stat st;

    expect_error(tt_path("absent.h5"), "No such file or directory");
    expect_error(tt_tmpdir(), "is a directory, not a trace file");

    FILE *fp = fopen(p, "w");
    fputs("M,N,K\n1024,1024,1024\n", fp);
    fclose(fp);
    expect_error(p, "not an HDF5 file");

    fp = fopen(p, "w");
    fclose(fp);
    expect_error(p, "not an HDF5 file (empty)");

    if (geteuid() != 0) { /* root reads anything */
        copy_file(base, p);
        chmod(p, 0);
        snprintf(want, sizeof want, "cannot open for reading: %s", strerror(EACCES));
        expect_error(p, want);
        chmod(p, 0644);
    }

    /* truncated: HDF5 notices that the file ends before its recorded end */
    ck_assert_int_eq(stat(base, &st), 0);
    copy_file(base, p);
    ck_assert_int_eq(truncate(p, st.st_size / 2), 0);
    expect_error_part(p, "cannot open the HDF5 file (truncated or damaged? locked by a running writer?)");
    expect_error_part(p, "truncated file");

    /* garbled: the first compressed /exec_ns chunk overwritten with noise */
    copy_file(base, p);
    {
        hid_t f = H5Fopen(p, H5F_ACC_RDONLY, H5P_DEFAULT);
        hid_t d = H5Dopen2(f, "/exec_ns", H5P_DEFAULT);
        hsize_t off[1] = {0};
        haddr_t addr = 0;
        hsize_t size = 0;
        unsigned mask = 0;
        ck_assert_int_ge(H5Dget_chunk_info_by_coord(d, off, &mask, &addr, &size), 0);
        H5Dclose(d);
        H5Fclose(f);
        int fd = open(p, O_WRONLY);
        unsigned char noise[64];
        for (size_t i = 0; i < sizeof noise; i++)
            noise[i] = (unsigned char)(i * 37 + 11);
        ck_assert_int_eq(pwrite(fd, noise, size < sizeof noise ? size : sizeof noise, (off_t)addr),
                         (ssize_t)(size < sizeof noise ? size : sizeof noise));
        close(fd);
    }
    expect_error_part(p, "cannot read /exec_ns (160 values)"); /* parallel inflate */
    expect_error_part(p, "does not inflate (zlib error");
    setenv("TC_TRACE_THREADS", "0", 1); /* HDF5's own H5Dread */
    expect_error_part(p, "cannot read /exec_ns (160 values)");
    unsetenv("TC_TRACE_THREADS");

    /* garbled superblock signature */
    copy_file(base, p);
    {
        int fd = open(p, O_WRONLY);
        ck_assert_int_eq(pwrite(fd, "XXXX", 4, 1), 4);
        close(fd);
    }
    expect_error(p, "not an HDF5 file");
    tt_tmpdir_remove();
}
END_TEST

/* A trace written the way another tool (h5py, an importer) might: wider integers, members in another order,
 * an extra member, fixed-length strings, contiguous (non-extendible) datasets. It must read and resume. */
START_TEST(test_trace_reads_files_of_other_writers)
{
    tt_tmpdir_make("test-trace");
    const char *p = tt_path("foreign.h5");
    hid_t f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    ck_assert(f >= 0);
    set_root_attr_fixed_str(f, "format", "tunecost-trace");
    static const char *const sattr[][2] = {{"generator", "importer 1.0"}, {"created_utc", "2026-01-01T00:00:00Z"},
                                           {"kernel", "gemm"}, {"device_name", "A40"}, {"timer", "events"},
                                           {"protocol", "fixed-time"}};
    for (size_t i = 0; i < 6; i++)
        set_root_attr_fixed_str(f, sattr[i][0], sattr[i][1]);
    static const char *const iattr[] = {"format_version", "device_cc", "device_sms", "device_l2_bytes",
                                        "driver_version", "cuda_version", "flush_bytes", "compile_jobs", "seed"};
    static const int64_t ivals[] = {1, 86, 84, 6291456, 12040, 12040, 8388608, 1, 7};
    hid_t sp = H5Screate(H5S_SCALAR);
    for (size_t i = 0; i < 9; i++) {
        hid_t a = H5Acreate2(f, iattr[i], H5T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(a, H5T_NATIVE_INT64, &ivals[i]);
        H5Aclose(a);
    }
    static const char *const fattr[] = {"warmup_ms", "rep_ms"};
    static const double fvals[] = {25.0, 100.0};
    for (size_t i = 0; i < 2; i++) {
        hid_t a = H5Acreate2(f, fattr[i], H5T_IEEE_F32LE, sp, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(a, H5T_NATIVE_DOUBLE, &fvals[i]);
        H5Aclose(a);
    }
    H5Sclose(sp);

    /* /params int64 [1][2] and /dims int32 [1][1], names as fixed-length strings */
    {
        hsize_t pd[2] = {1, 2}, dd[2] = {1, 1}, n2 = 2, n1 = 1;
        int64_t pv[2] = {64, 128};
        int32_t dv[1] = {4096};
        hid_t s = H5Screate_simple(2, pd, NULL);
        hid_t d = H5Dcreate2(f, "/params", H5T_STD_I64BE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, pv);
        hid_t st = H5Tcopy(H5T_C_S1);
        H5Tset_size(st, 8);
        hid_t as = H5Screate_simple(1, &n2, NULL);
        hid_t a = H5Acreate2(d, "names", st, as, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(a, st, "BLOCK_M\0BLOCK_N\0");
        H5Aclose(a);
        H5Sclose(as);
        H5Dclose(d);
        H5Sclose(s);
        s = H5Screate_simple(2, dd, NULL);
        d = H5Dcreate2(f, "/dims", H5T_STD_I32LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, dv);
        as = H5Screate_simple(1, &n1, NULL);
        a = H5Acreate2(d, "names", st, as, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(a, st, "N\0\0\0\0\0\0\0");
        H5Aclose(a);
        H5Sclose(as);
        H5Dclose(d);
        H5Sclose(s);
        H5Tclose(st);
    }
    /* /configs with members reordered, int64 and float32, plus an extra "note" member */
    {
        struct cfg {
            int64_t spill_bytes, smem_bytes, registers;
            float load_ms, compile_ms;
            int64_t status;
            double note;
        } c = {16, 49152, 200, 1.5f, 250.0f, 0, 3.0};
        hid_t ct = H5Tcreate(H5T_COMPOUND, sizeof c);
        H5Tinsert(ct, "spill_bytes", offsetof(struct cfg, spill_bytes), H5T_NATIVE_INT64);
        H5Tinsert(ct, "smem_bytes", offsetof(struct cfg, smem_bytes), H5T_NATIVE_INT64);
        H5Tinsert(ct, "registers", offsetof(struct cfg, registers), H5T_NATIVE_INT64);
        H5Tinsert(ct, "load_ms", offsetof(struct cfg, load_ms), H5T_NATIVE_FLOAT);
        H5Tinsert(ct, "compile_ms", offsetof(struct cfg, compile_ms), H5T_NATIVE_FLOAT);
        H5Tinsert(ct, "status", offsetof(struct cfg, status), H5T_NATIVE_INT64);
        H5Tinsert(ct, "note", offsetof(struct cfg, note), H5T_NATIVE_DOUBLE);
        hsize_t n = 1;
        hid_t s = H5Screate_simple(1, &n, NULL);
        hid_t d = H5Dcreate2(f, "/configs", ct, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        ck_assert_int_ge(H5Dwrite(d, ct, H5S_ALL, H5S_ALL, H5P_DEFAULT, &c), 0);
        H5Dclose(d);
        H5Tclose(ct);
        struct inp {
            double ref_ms, flops;
        } in = {0.5, 1e9};
        hid_t it = H5Tcreate(H5T_COMPOUND, sizeof in);
        H5Tinsert(it, "ref_ms", offsetof(struct inp, ref_ms), H5T_NATIVE_DOUBLE);
        H5Tinsert(it, "flops", offsetof(struct inp, flops), H5T_NATIVE_DOUBLE);
        d = H5Dcreate2(f, "/inputs", it, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(d, it, H5S_ALL, H5S_ALL, H5P_DEFAULT, &in);
        H5Dclose(d);
        H5Tclose(it);
        /* /runs: every member int64 or double */
        struct run64 {
            int64_t input, config, status, n_estimate, n_warmup, n_timed, exec_offset;
            double wall_ms, flush_ms, verify_ms, estimate_ms, rel_error;
        } r = {0, 0, 0, 0, 1, 2, 0, 4.0, 0.1, 0.2, NAN, 1e-3};
        hid_t rt = H5Tcreate(H5T_COMPOUND, sizeof r);
#define INS(m, ty) H5Tinsert(rt, #m, offsetof(struct run64, m), ty)
        INS(input, H5T_NATIVE_INT64);
        INS(config, H5T_NATIVE_INT64);
        INS(status, H5T_NATIVE_INT64);
        INS(n_estimate, H5T_NATIVE_INT64);
        INS(n_warmup, H5T_NATIVE_INT64);
        INS(n_timed, H5T_NATIVE_INT64);
        INS(exec_offset, H5T_NATIVE_INT64);
        INS(wall_ms, H5T_NATIVE_DOUBLE);
        INS(flush_ms, H5T_NATIVE_DOUBLE);
        INS(verify_ms, H5T_NATIVE_DOUBLE);
        INS(estimate_ms, H5T_NATIVE_DOUBLE);
        INS(rel_error, H5T_NATIVE_DOUBLE);
#undef INS
        d = H5Dcreate2(f, "/runs", rt, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(d, rt, H5S_ALL, H5S_ALL, H5P_DEFAULT, &r);
        H5Dclose(d);
        H5Tclose(rt);
        H5Sclose(s);
        /* /exec_ns int64, with one value past the last run (ignored) */
        int64_t x[4] = {900, 800, 700, 12345};
        n = 4;
        s = H5Screate_simple(1, &n, NULL);
        d = H5Dcreate2(f, "/exec_ns", H5T_STD_I64LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, x);
        H5Dclose(d);
        H5Sclose(s);
    }
    ck_assert_int_ge(H5Fclose(f), 0);

    struct trace *t = trace_open(p);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_str_eq(trace_get_meta(t)->device_name, "A40");
    ck_assert_str_eq(trace_get_meta(t)->protocol, "fixed-time");
    ck_assert_int_eq(trace_get_meta(t)->device_l2_bytes, 6291456);
    ck_assert_uint_eq(trace_get_meta(t)->seed, 7);
    ck_assert_double_eq(trace_get_meta(t)->rep_ms, 100.0);
    ck_assert_str_eq(trace_param_name(t, 1), "BLOCK_N");
    ck_assert_int_eq(trace_params(t, 0)[1], 128);
    ck_assert_str_eq(trace_dim_name(t, 0), "N");
    ck_assert_int_eq(trace_dims(t, 0)[0], 4096);
    ck_assert_int_eq(trace_config(t, 0)->registers, 200);
    ck_assert_int_eq(trace_config(t, 0)->spill_bytes, 16);
    ck_assert_double_eq(trace_config(t, 0)->compile_ms, 250.0);
    ck_assert_double_eq(trace_config(t, 0)->load_ms, 1.5);
    ck_assert_double_eq(trace_input(t, 0)->flops, 1e9);
    ck_assert_double_eq(trace_input(t, 0)->ref_ms, 0.5);
    ck_assert_uint_eq(trace_n_runs(t), 1);
    ck_assert_uint_eq(trace_n_exec(t), 3);
    ck_assert_uint_eq(trace_run_timed(t, 0)[1], 700);
    ck_assert_double_eq(trace_run(t, 0)->wall_ms, 4.0);
    ck_assert_int_eq(trace_run_valid(t, 0), 1);
    trace_close(t);

    /* resuming rewrites it in the library's own layout (extra members are not kept) and appends */
    t = trace_open_append(p);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    struct trace_run more = {0, 0, TRACE_OK, 0, 0, 2, 0, 1.0, 0, 0, NAN, 0};
    uint64_t mx[2] = {650, 640};
    ck_assert_msg(trace_append_run(t, &more, mx, 2) == 0, "%s", tc_errmsg());
    ck_assert_int_eq(trace_close(t), 0);
    t = trace_open(p);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(trace_n_runs(t), 2);
    ck_assert_int_eq(trace_run(t, 1)->exec_offset, 3);
    ck_assert_uint_eq(trace_run_timed(t, 1)[1], 640);
    ck_assert_uint_eq(trace_run_timed(t, 0)[1], 700);
    ck_assert_int_eq(trace_config(t, 0)->registers, 200);
    ck_assert_str_eq(trace_get_meta(t)->device_name, "A40");
    trace_close(t);

    /* a member missing from /runs */
    f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
    {
        hid_t rt = H5Tcreate(H5T_COMPOUND, 8);
        H5Tinsert(rt, "input", 0, H5T_NATIVE_INT64);
        hsize_t n = 1;
        hid_t s = H5Screate_simple(1, &n, NULL);
        H5Ldelete(f, "/runs", H5P_DEFAULT);
        hid_t d = H5Dcreate2(f, "/runs", rt, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dclose(d);
        H5Sclose(s);
        H5Tclose(rt);
    }
    H5Fclose(f);
    expect_error(p, "/runs lacks the member 'config'");
    tt_tmpdir_remove();
}
END_TEST

/* A writer killed between writing executions and the run row leaves values past the last run: readers ignore
 * them and a resumed writer overwrites them. */
START_TEST(test_trace_ignores_executions_past_the_last_run)
{
    tt_tmpdir_make("test-trace");
    const char *p = tt_path("tail.h5");
    struct trace *t = write_base_open(p, 3);
    ck_assert_int_eq(trace_close(t), 0);
    {
        hid_t f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
        hid_t d = H5Dopen2(f, "/exec_ns", H5P_DEFAULT);
        hsize_t n = 3 * BASE_EXEC + 5, start = 3 * BASE_EXEC, five = 5;
        uint64_t orphans[5] = {1, 2, 3, 4, 5};
        ck_assert_int_ge(H5Dset_extent(d, &n), 0);
        hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, &five, NULL);
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL, &five, NULL);
        ck_assert_int_ge(H5Dwrite(d, H5T_NATIVE_UINT64, ms, fs, H5P_DEFAULT, orphans), 0);
        H5Sclose(ms);
        H5Sclose(fs);
        H5Dclose(d);
        ck_assert_int_ge(H5Fclose(f), 0);
    }
    t = trace_open(p);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(trace_n_exec(t), 3 * BASE_EXEC);
    trace_close(t);
    t = trace_open_append(p);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    struct trace_run run = base_run(3);
    uint64_t x[BASE_EXEC];
    for (size_t j = 0; j < BASE_EXEC; j++)
        x[j] = base_value(3, j);
    ck_assert_int_eq(trace_append_run(t, &run, x, BASE_EXEC), 0);
    ck_assert_int_eq(trace_run(t, 3)->exec_offset, 3 * BASE_EXEC);
    ck_assert_int_eq(trace_close(t), 0);
    t = trace_open(p);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(trace_n_exec(t), 4 * BASE_EXEC);
    ck_assert_uint_eq(trace_run_exec(t, 3)[0], base_value(3, 0));
    trace_close(t);
    tt_tmpdir_remove();
}
END_TEST

/* ---- SIGKILL: a child appends runs as fast as it can and reports each one; the parent kills it at a point
 * that varies from round to round (often in the middle of an append) and reopens the file. ------------------ */

static int kill_rounds = 12;

static uint64_t kill_value(size_t r, size_t j)
{
    return 5000 + 37 * r + (j % 13);
}

#define KILL_EXEC 3000 /* per run: several runs per /exec_ns chunk, chunks rewritten across appends */

static void child_append_forever(const char *path, int fd)
{
    struct trace *t = write_base_open(path, 0);
    static uint64_t x[KILL_EXEC];
    for (size_t r = 0;; r++) {
        struct trace_run run = base_run((int)(r % 6));
        run.n_estimate = 0;
        run.n_warmup = 1000;
        run.n_timed = KILL_EXEC - 1000;
        run.status = TRACE_OK;
        for (size_t j = 0; j < KILL_EXEC; j++)
            x[j] = kill_value(r, j);
        if (trace_append_run(t, &run, x, KILL_EXEC) != 0)
            _exit(3);
        if (write(fd, &r, sizeof r) != sizeof r)
            _exit(4);
    }
}

START_TEST(test_trace_appends_survive_sigkill)
{
    tt_tmpdir_make("test-trace");
    for (int round = 0; round < kill_rounds; round++) {
        const char *p = tt_path("killed.h5");
        size_t k = 1 + (size_t)round * 3, seen = 0, r = 0;
        int fds[2];
        ck_assert_int_eq(pipe(fds), 0);
        pid_t pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            close(fds[0]);
            child_append_forever(p, fds[1]);
        }
        close(fds[1]);
        while (seen < k && read(fds[0], &r, sizeof r) == sizeof r)
            seen = r + 1;
        ck_assert_uint_eq(seen, k);
        if (round % 2) /* let it get into the next append */
            usleep(200 * (unsigned)round);
        ck_assert_int_eq(kill(pid, SIGKILL), 0);
        int status = 0;
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        close(fds[0]);

        struct trace *t = trace_open(p);
        ck_assert_msg(t != NULL, "round %d (killed after %zu appends): %s", round, k, tc_errmsg());
        size_t n = trace_n_runs(t);
        ck_assert_uint_ge(n, k);
        for (size_t q = 0; q < n; q++) {
            const uint64_t *x = trace_run_exec(t, q);
            ck_assert_int_eq(trace_run(t, q)->exec_offset, (int64_t)(q * KILL_EXEC));
            for (size_t j = 0; j < KILL_EXEC; j += 97)
                ck_assert_uint_eq(x[j], kill_value(q, j));
            ck_assert_uint_eq(x[KILL_EXEC - 1], kill_value(q, KILL_EXEC - 1));
        }
        trace_close(t);
        /* and it can be resumed: the next run goes right after the last complete one, over any executions a
         * killed append left behind */
        t = trace_open_append(p);
        ck_assert_msg(t != NULL, "%s", tc_errmsg());
        ck_assert_uint_eq(trace_n_runs(t), n);
        static uint64_t x[KILL_EXEC];
        for (size_t j = 0; j < KILL_EXEC; j++)
            x[j] = kill_value(n, j);
        struct trace_run run = base_run(0);
        run.n_estimate = 0;
        run.n_warmup = 1000;
        run.n_timed = KILL_EXEC - 1000;
        ck_assert_msg(trace_append_run(t, &run, x, KILL_EXEC) == 0, "%s", tc_errmsg());
        ck_assert_int_eq(trace_close(t), 0);
        t = trace_open(p);
        ck_assert_msg(t != NULL, "%s", tc_errmsg());
        ck_assert_uint_eq(trace_n_runs(t), n + 1);
        ck_assert_uint_eq(trace_n_exec(t), (n + 1) * KILL_EXEC);
        ck_assert_uint_eq(trace_run_exec(t, n)[KILL_EXEC - 1], kill_value(n, KILL_EXEC - 1));
        ck_assert_uint_eq(trace_run_exec(t, n - 1)[0], kill_value(n - 1, 0));
        trace_close(t);
    }
    tt_tmpdir_remove();
}
END_TEST

/* Disk full, simulated with RLIMIT_FSIZE in a child: appends start failing with a message, the failed close
 * leaves the uncompressed trace, and that file opens with every run whose append succeeded. */
START_TEST(test_trace_disk_full_keeps_a_valid_file)
{
    tt_tmpdir_make("test-trace");
    const char *p = tt_path("full.h5");
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        signal(SIGXFSZ, SIG_IGN);
        struct trace *t = write_base_open(p, 0);
        struct stat st;
        if (stat(p, &st) != 0)
            _exit(4);
        struct rlimit lim = {(rlim_t)st.st_size + 2000000, (rlim_t)st.st_size + 2000000};
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0)
            _exit(5);
        static uint64_t x[KILL_EXEC];
        size_t ok = 0;
        char msg[1024] = "";
        for (size_t r = 0; r < 1000; r++) {
            struct trace_run run = base_run(0);
            run.n_estimate = 0;
            run.n_warmup = 1000;
            run.n_timed = KILL_EXEC - 1000;
            for (size_t j = 0; j < KILL_EXEC; j++)
                x[j] = kill_value(r, j);
            if (trace_append_run(t, &run, x, KILL_EXEC) != 0) {
                snprintf(msg, sizeof msg, "%s", tc_errmsg());
                break;
            }
            ok++;
        }
        int closed = trace_close(t);
        char close_msg[1024];
        snprintf(close_msg, sizeof close_msg, "%s", tc_errmsg());
        dprintf(fds[1], "%zu %d\n%s\n%s\n", ok, closed, msg, close_msg);
        _exit(0);
    }
    close(fds[1]);
    char buf[4096] = "";
    size_t got = 0;
    ssize_t k;
    while ((k = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0)
        got += (size_t)k;
    close(fds[0]);
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    size_t ok = 0;
    int closed = 0;
    ck_assert_int_eq(sscanf(buf, "%zu %d", &ok, &closed), 2);
    char *append_msg = strchr(buf, '\n') + 1, *close_msg = strchr(append_msg, '\n') + 1;
    ck_assert_msg(ok > 0 && ok < 1000, "%zu appends succeeded", ok);
    ck_assert_msg(strstr(append_msg, p) == append_msg, "append failure message: %s", append_msg);
    ck_assert_msg(strstr(append_msg, "nothing was written") != NULL, "append failure message: %s", append_msg);
    if (closed != 0) /* the compressed copy (about 1/6 of the size) fits under this limit; if not: */
        ck_assert_msg(strstr(close_msg, p) == close_msg && strstr(close_msg, "complete, but uncompressed") != NULL,
                      "close message: %s", close_msg);

    struct trace *t = trace_open(p);
    ck_assert_msg(t != NULL, "after disk full: %s", tc_errmsg());
    ck_assert_uint_eq(trace_n_runs(t), ok);
    for (size_t q = 0; q < ok; q++)
        ck_assert_uint_eq(trace_run_exec(t, q)[KILL_EXEC - 1], kill_value(q, KILL_EXEC - 1));
    trace_close(t);
    char cmd[600]; /* the failed compressed copy left nothing behind */
    snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq 1", tt_tmpdir());
    ck_assert_int_eq(system(cmd), 0);
    tt_tmpdir_remove();
}
END_TEST

/* `tunecost info` during a collection: a reader opens the trace while another process appends to it. The writer
 * appends at intervals of 10 times the time an open takes here (measured first: valgrind slows it 50-fold),
 * as a collector appends a run every 130 ms or more while a load of its trace takes milliseconds. */
#define LIVE_RUNS 40
#define LIVE_EXEC 2000
START_TEST(test_trace_reads_a_trace_being_written)
{
    tt_tmpdir_make("test-trace");
    const char *p = tt_path("live.h5"), *ref = tt_path("ref.h5");
    static uint64_t x[LIVE_EXEC];
    for (size_t j = 0; j < LIVE_EXEC; j++)
        x[j] = kill_value(0, j);
    struct trace_run run = base_run(0);
    run.n_estimate = run.n_warmup = 0;
    run.n_timed = LIVE_EXEC;
    /* how long an open of the finished file takes on this machine, under this tool */
    struct trace *t = write_base_open(ref, 0);
    for (int q = 0; q < LIVE_RUNS; q++)
        ck_assert_int_eq(trace_append_run(t, &run, x, LIVE_EXEC), 0);
    ck_assert_int_eq(trace_close(t), 0);
    double t0 = tc_now_s();
    t = trace_open(ref);
    double open_s = tc_now_s() - t0;
    ck_assert_ptr_nonnull(t);
    trace_close(t);
    useconds_t interval_us = (useconds_t)(open_s * 10 * 1e6) + 2000;

    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        t = write_base_open(p, 0);
        if (write(fds[1], "x", 1) != 1)
            _exit(4);
        for (int q = 0; q < LIVE_RUNS; q++) {
            usleep(interval_us);
            if (trace_append_run(t, &run, x, LIVE_EXEC) != 0)
                _exit(3);
        }
        _exit(trace_close(t) == 0 ? 0 : 5);
    }
    close(fds[1]);
    char c;
    ck_assert_int_eq(read(fds[0], &c, 1), 1);
    close(fds[0]);
    size_t last = 0;
    int opens = 0, status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        t = trace_open(p);
        ck_assert_msg(t != NULL, "open %d while being written: %s", opens, tc_errmsg());
        ck_assert_uint_ge(trace_n_runs(t), last);
        last = trace_n_runs(t);
        if (last > 0)
            ck_assert_uint_eq(trace_run_timed(t, last - 1)[LIVE_EXEC - 1], kill_value(0, LIVE_EXEC - 1));
        trace_close(t);
        opens++;
        usleep(interval_us / 3);
    }
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ck_assert_int_ge(opens, LIVE_RUNS);
    t = trace_open(p);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(trace_n_runs(t), LIVE_RUNS);
    trace_close(t);
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
        struct trace_run run = {(int)(r % 2), (int)(r % 3), 0, 5, 5000, PER_RUN - 5005, 0, 130.0, 0, 0, NAN, 0};
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
    if (getenv("TEST_TRACE_KILL_ROUNDS") != NULL) /* for stress runs by hand */
        kill_rounds = atoi(getenv("TEST_TRACE_KILL_ROUNDS"));
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create(big ? "big" : "core");
    tcase_set_timeout(tc, big ? 600 : 120);
    if (big) {
        tcase_add_test(tc, test_trace_big_roundtrip);
    } else {
        tcase_add_test(tc, test_trace_roundtrip_every_field);
        tcase_add_test(tc, test_trace_writer_sees_what_it_wrote);
        tcase_add_test(tc, test_trace_empty_tables_round_trip);
        tcase_add_test(tc, test_trace_append_rejects_bad_runs);
        tcase_add_test(tc, test_trace_resume_appends_after_existing_runs);
        tcase_add_test(tc, test_trace_compressed_on_close_only);
        tcase_add_test(tc, test_trace_rejects_bad_runs_rows);
        tcase_add_test(tc, test_trace_rejects_bad_structure);
        tcase_add_test(tc, test_trace_rejects_damaged_files);
        tcase_add_test(tc, test_trace_reads_files_of_other_writers);
        tcase_add_test(tc, test_trace_ignores_executions_past_the_last_run);
        tcase_add_test(tc, test_trace_appends_survive_sigkill);
        tcase_add_test(tc, test_trace_reads_a_trace_being_written);
        tcase_add_test(tc, test_trace_disk_full_keeps_a_valid_file);
    }
    suite_add_tcase(s, tc);
    return tt_run(s);
}
