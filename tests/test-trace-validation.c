/* test-trace-validation.c — the trace library's reader (trace/trace.h) on files it did not write itself: every
 * kind of malformed file rejected with its message (bad run rows, a bad structure, damaged bytes), files written by
 * other tools read, and executions past the last run ignored. Malformed files are made by editing the base trace
 * (test-trace-base.h) with the HDF5 API or by cutting and garbling its bytes. */
#include "tc_err.h"
#include "test-common.h"
#include "test-trace-base.h"
#include "trace.h"

#include <check.h>
#include <hdf5.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* The root attributes of a foreign trace: fixed-length strings, 64-bit integers, 32-bit floats. */
static void foreign_root_attrs(hid_t f)
{
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

}

/* /params int64 [1][2] and /dims int32 [1][1], names as fixed-length strings */
static void foreign_params_dims(hid_t f)
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
static void foreign_tables(hid_t f)
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

/* A trace written the way another tool (h5py, an importer) might: wider integers, members in another order,
 * an extra member, fixed-length strings, contiguous (non-extendible) datasets. It must read and resume. */
START_TEST(test_trace_reads_files_of_other_writers)
{
    tt_tmpdir_make("test-trace");
    const char *p = tt_path("foreign.h5");
    hid_t f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    ck_assert(f >= 0);
    foreign_root_attrs(f);
    foreign_params_dims(f);
    foreign_tables(f);
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
    /* written before format_minor 1: no attribute, no path, no compile_isolated_ms member */
    ck_assert_int_eq(trace_get_meta(t)->format_minor, 0);
    ck_assert_int_eq(trace_config(t, 0)->path, 0);
    ck_assert(isnan(trace_config(t, 0)->compile_isolated_ms));
    ck_assert(isnan(trace_compile_isolated_ms(t, 0)));
    ck_assert(isnan(trace_compile_isolated_ms(t, 1))); /* no such configuration */
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
    struct trace_run more = {0, 0, TRACE_OK, 0, 0, 2, 0, 1.0, 0, 0, NAN, 0, NAN, NAN};
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
    ck_assert_int_eq(trace_get_meta(t)->format_minor, TRACE_FORMAT_MINOR); /* rewritten by this library */
    ck_assert(isnan(trace_compile_isolated_ms(t, 0)));                     /* still "not measured" */
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

int main(void)
{
    Suite *s = suite_create("trace-validation");
    TCase *tc = tcase_create("validation");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_trace_rejects_bad_runs_rows);
    tcase_add_test(tc, test_trace_rejects_bad_structure);
    tcase_add_test(tc, test_trace_rejects_damaged_files);
    tcase_add_test(tc, test_trace_reads_files_of_other_writers);
    tcase_add_test(tc, test_trace_ignores_executions_past_the_last_run);
    suite_add_tcase(s, tc);
    return tt_run(s);
}
