/* tracegen.c — writes small hand-built traces for tests (through the trace library).
 *
 *   tracegen small OUT.h5     the 4-configuration, 2-input trace whose every number is listed below, so that
 *                             tests can check `tunecost info` (and others) against values worked out by hand
 *   tracegen empty OUT.h5     the same configurations and inputs, no runs
 *   tracegen noconfigs OUT.h5 the same inputs, no configurations and no runs
 *   tracegen future OUT.h5    the small trace claiming format_version 2 (which this tunecost must refuse)
 *
 * Other engineers: build target `tracegen` (tests/meson.build); in a meson test use
 * `tracegen_exe.full_path()` or pass it as an argument. Exit 0 on success, 1 on failure, 2 on usage. */
#include "trace.h"
#include "tc_err.h"

#include <hdf5.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The "small" trace (numbers the CLI test checks are worked out in tests/test-cli-info.sh):
 *   configs (BLOCK_M BLOCK_N BLOCK_K GROUP_M NUM_STAGES NUM_WARPS; status; compile_ms):
 *     0: 64  64  32 8 3 4  ok                100 ms
 *     1: 128 128 64 8 4 8  ok                300 ms
 *     2: 256 256 64 8 5 8  out of resources  500 ms
 *     3: 128 64  32 8 3 4  compile error      50 ms  (compile log "error: too many resources requested")
 *   inputs (M N K; flops = 2MNK; ref_ms):
 *     0: 1024 1024 1024  2147483648  0.01
 *     1: 4096 256 4096   8589934592  NaN
 *   runs (input, config, status: estimate | warm-up | timed ns; wall_ms, flush_ms):
 *     0: 0 0 ok:           20000 | 15000 14000 | 10000 12000 11000        5.0  0.5
 *     1: 0 1 ok:           9000  | 9500        | 8000 9000 8500 100000    6.0  0.5
 *     2: 1 0 ok:                 |             | 50000 40000 45000        3.0  0.25
 *     3: 1 1 launch error:       |             | 30000 0                  1.0  0
 *     4: 0 2 out of resources (no executions)                             0.0  0
 *   compile warm-up per worker: 250, 310 ms */
static int write_small(const char *path, int with_runs)
{
    static const char *const pnames[] = {"BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "NUM_STAGES", "NUM_WARPS"};
    static const char *const dnames[] = {"M", "N", "K"};
    static const int32_t params[4][6] = {
        {64, 64, 32, 8, 3, 4}, {128, 128, 64, 8, 4, 8}, {256, 256, 64, 8, 5, 8}, {128, 64, 32, 8, 3, 4}};
    static const struct trace_config configs[4] = {
        {TRACE_OK, 100.0, 2.0, 128, 32768, 0, 0, NAN},
        {TRACE_OK, 300.0, 3.0, 168, 98304, 0, 0, NAN},
        {TRACE_OUT_OF_RESOURCES, 500.0, 0.0, 255, 262144, 64, 0, NAN},
        {TRACE_COMPILE_ERROR, 50.0, 0.0, 0, 0, 0, 0, NAN},
    };
    static const int64_t dims[2][3] = {{1024, 1024, 1024}, {4096, 256, 4096}};
    struct trace_input inputs[2] = {{2147483648.0, 0.01}, {8589934592.0, NAN}};
    static const uint64_t x0[] = {20000, 15000, 14000, 10000, 12000, 11000};
    static const uint64_t x1[] = {9000, 9500, 8000, 9000, 8500, 100000};
    static const uint64_t x2[] = {50000, 40000, 45000};
    static const uint64_t x3[] = {30000, 0};
    const struct {
        struct trace_run run;
        const uint64_t *x;
        size_t n;
    } runs[] = {
        {{0, 0, TRACE_OK, 1, 2, 3, 0, 5.0, 0.5, 1.5, NAN, 1e-6, NAN, NAN}, x0, 6},
        {{0, 1, TRACE_OK, 1, 1, 4, 0, 6.0, 0.5, 1.5, NAN, 2e-6, NAN, NAN}, x1, 6},
        {{1, 0, TRACE_OK, 0, 0, 3, 0, 3.0, 0.25, 2.0, NAN, 1e-6, NAN, NAN}, x2, 3},
        {{1, 1, TRACE_LAUNCH_ERROR, 0, 0, 2, 0, 1.0, 0.0, 0.0, NAN, NAN, NAN, NAN}, x3, 2},
        {{0, 2, TRACE_OUT_OF_RESOURCES, 0, 0, 0, 0, 0.0, 0.0, 0.0, NAN, NAN, NAN, NAN}, NULL, 0},
    };
    static const double warmup[2] = {250.0, 310.0};
    struct trace_meta meta = {
        .generator = "tracegen (tunecost tests)",
        .created_utc = "2026-11-22T10:00:00Z",
        .kernel = "gemm_f16_f32acc",
        .device_name = "NVIDIA H200 (hand-built test trace)",
        .device_cc = 90,
        .device_sms = 132,
        .device_l2_bytes = 62914560,
        .driver_version = 13000,
        .cuda_version = 13000,
        .timer = "cupti",
        .protocol = "fixed-time",
        .warmup_ms = 25.0,
        .rep_ms = 100.0,
        .flush_bytes = 268435456,
        .compile_jobs = 2,
        .seed = 42,
    };
    struct trace *t = trace_create(path, &meta, pnames, 6, dnames, 3);
    if (t == NULL)
        goto fail;
    if (trace_write_configs(t, with_runs == 2 ? 0 : 4, &params[0][0], configs) < 0 ||
        trace_write_inputs(t, 2, &dims[0][0], inputs) < 0)
        goto fail;
    if ((with_runs != 2 && trace_set_compile_log(t, 3, "error: too many resources requested") < 0) ||
        trace_write_compile_warmup(t, warmup, 2) < 0)
        goto fail;
    for (size_t i = 0; with_runs == 1 && i < sizeof runs / sizeof runs[0]; i++)
        if (trace_append_run(t, &runs[i].run, runs[i].x, runs[i].n) < 0)
            goto fail;
    if (trace_close(t) < 0) {
        t = NULL;
        goto fail;
    }
    return 0;
fail:
    fprintf(stderr, "tracegen: %s\n", tc_errmsg());
    (void)trace_close(t);
    return 1;
}

/* Rewrite the root attribute format_version (the one edit here that bypasses the library). */
static int set_version(const char *path, int32_t version)
{
    int rc = 1;
    hid_t f = H5I_INVALID_HID, sp = H5I_INVALID_HID, a = H5I_INVALID_HID;
    if ((f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT)) < 0 || H5Adelete(f, "format_version") < 0 ||
        (sp = H5Screate(H5S_SCALAR)) < 0 ||
        (a = H5Acreate2(f, "format_version", H5T_STD_I32LE, sp, H5P_DEFAULT, H5P_DEFAULT)) < 0 ||
        H5Awrite(a, H5T_NATIVE_INT32, &version) < 0) {
        fprintf(stderr, "tracegen: %s: cannot rewrite format_version\n", path);
        goto out;
    }
    rc = 0;
out:
    if (a >= 0)
        H5Aclose(a);
    if (sp >= 0)
        H5Sclose(sp);
    if (f >= 0 && H5Fclose(f) < 0)
        rc = 1;
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "future") == 0)
        return write_small(argv[2], 1) != 0 ? 1 : set_version(argv[2], 2);
    if (argc == 3 && strcmp(argv[1], "small") == 0)
        return write_small(argv[2], 1);
    if (argc == 3 && strcmp(argv[1], "empty") == 0)
        return write_small(argv[2], 0);
    if (argc == 3 && strcmp(argv[1], "noconfigs") == 0)
        return write_small(argv[2], 2);
    fprintf(stderr, "usage: tracegen small|empty|noconfigs|future OUT.h5\n");
    return 2;
}
