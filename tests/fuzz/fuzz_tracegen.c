/* fuzz_tracegen.c — structure-aware libFuzzer harness for the trace validator (trace_open).
 * fuzz_trace.c feeds raw bytes, which mostly exercise libhdf5's own parser; this harness instead reads the
 * fuzz input as a recipe and writes a well-formed HDF5 file with the HDF5 API — datasets present or absent,
 * wrong ranks and types, rows that disagree, compound members dropped or widened, counts, offsets, indices
 * and durations drawn from edge values (0, -1, INT32_MAX, 2^63, NaN, inf, ...) — so the fuzzer explores
 * the trace library's validation logic. The checks on the result are those of fuzz_trace.c (shared walk below).
 * This test harness calls HDF5 directly to build hostile files; tunecost itself reaches HDF5 only via trace/.
 * Build and run: tests/fuzz/build.sh, tests/fuzz/run.sh (docs/reliability.md). */
#include "tc_err.h"
#include "trace.h"

#include <hdf5.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK(cond)                                                                                            \
    do {                                                                                                       \
        if (!(cond)) {                                                                                         \
            fprintf(stderr, "fuzz_tracegen: contract broken: %s (line %d)\n", #cond, __LINE__);                 \
            abort();                                                                                           \
        }                                                                                                      \
    } while (0)

const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}

/* ---- the recipe reader: every draw consumes input bytes; past the end it yields zeros ------------------- */

struct rd {
    const uint8_t *p;
    size_t n;
};

static uint8_t u8(struct rd *r)
{
    if (r->n == 0)
        return 0;
    r->n--;
    return *r->p++;
}

static uint32_t u32(struct rd *r)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 8 | u8(r);
    return v;
}

/* Edge-biased integers: usually a small or boundary value, sometimes raw bits. */
static int64_t pick_int(struct rd *r, int64_t typical)
{
    static const int64_t edge[] = {0, 1, -1, 2, 5, 7, 63, 64, 127, INT32_MAX, INT32_MIN, (int64_t)INT32_MAX + 1,
                                   INT64_MAX, INT64_MIN, INT64_MAX - 2};
    uint8_t s = u8(r);
    if (s < 128)
        return typical;
    if (s < 128 + 15 * 6)
        return edge[(s - 128) % 15];
    return (int64_t)((uint64_t)u32(r) << 32 | u32(r));
}

static double pick_double(struct rd *r, double typical)
{
    static const double edge[] = {0.0, -0.0, -1.0, 1e-300, 1e300, NAN, INFINITY, -INFINITY, 0.25, 1e9};
    uint8_t s = u8(r);
    if (s < 128)
        return typical;
    return edge[s % 10];
}

static uint64_t pick_ns(struct rd *r, uint64_t typical)
{
    static const uint64_t edge[] = {0, 1, UINT64_MAX, UINT64_MAX - 4, UINT64_C(1) << 63, 1000000000000ULL};
    uint8_t s = u8(r);
    if (s < 200)
        return typical + (s & 15);
    return edge[s % 6];
}

/* ---- writing helpers (errors only make the file less valid, which is fine) ---------------------------- */

static void attr_str(hid_t loc, const char *name, const char *value, int vlen)
{
    hid_t t = H5Tcopy(H5T_C_S1), s = H5Screate(H5S_SCALAR), a;
    if (vlen)
        H5Tset_size(t, H5T_VARIABLE);
    else
        H5Tset_size(t, strlen(value) + 1);
    a = H5Acreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
    if (a >= 0) {
        if (vlen)
            H5Awrite(a, t, &value);
        else
            H5Awrite(a, t, value);
        H5Aclose(a);
    }
    H5Sclose(s);
    H5Tclose(t);
}

static void attr_num(hid_t loc, const char *name, hid_t type, const void *v)
{
    hid_t s = H5Screate(H5S_SCALAR), a = H5Acreate2(loc, name, type, s, H5P_DEFAULT, H5P_DEFAULT);
    if (a >= 0) {
        H5Awrite(a, type, v);
        H5Aclose(a);
    }
    H5Sclose(s);
}

static void attr_names(hid_t loc, int n, const char *prefix)
{
    const char *names[16];
    char buf[16][16];
    hsize_t dim = (hsize_t)n;
    hid_t t = H5Tcopy(H5T_C_S1), s, a;
    H5Tset_size(t, H5T_VARIABLE);
    for (int i = 0; i < n; i++) {
        snprintf(buf[i], sizeof buf[i], "%s%d", prefix, i);
        names[i] = buf[i];
    }
    s = H5Screate_simple(1, &dim, NULL);
    a = H5Acreate2(loc, "names", t, s, H5P_DEFAULT, H5P_DEFAULT);
    if (a >= 0) {
        if (n > 0)
            H5Awrite(a, t, names);
        H5Aclose(a);
    }
    H5Sclose(s);
    H5Tclose(t);
}

static hid_t dataset(hid_t f, const char *name, hid_t type, int rank, const hsize_t *dims, int extendible)
{
    hid_t s, dcpl = H5Pcreate(H5P_DATASET_CREATE), d;
    hsize_t maxd[2] = {H5S_UNLIMITED, rank > 1 ? dims[1] : 0};
    hsize_t chunk[2] = {16, rank > 1 && dims[1] > 0 ? dims[1] : 1};
    if (extendible) {
        s = H5Screate_simple(rank, dims, maxd);
        H5Pset_chunk(dcpl, rank, chunk);
    } else {
        s = H5Screate_simple(rank, dims, NULL);
    }
    d = H5Dcreate2(f, name, type, s, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Sclose(s);
    H5Pclose(dcpl);
    return d;
}

/* A compound of `n` members named in `names`, each int32, int64 or float64 by kinds[i] (0, 1, 2); members
 * whose bit is set in `drop` are left out. Values come from the recipe. */
static void compound(struct rd *r, hid_t f, const char *name, const char *const *names, const int *kinds, int n,
                     unsigned drop, unsigned widen, hsize_t rows, const double *typical, int extendible)
{
    size_t size = 0, off[16];
    hid_t t;
    unsigned char *buf;
    for (int i = 0; i < n; i++)
        if (!(drop >> i & 1)) {
            off[i] = size;
            size += 8;
        }
    if (size == 0)
        size = 8;
    t = H5Tcreate(H5T_COMPOUND, size);
    for (int i = 0; i < n; i++) {
        if (drop >> i & 1)
            continue;
        hid_t mt = kinds[i] == 2 ? H5T_NATIVE_DOUBLE : (kinds[i] == 1 || (widen >> i & 1)) ? H5T_NATIVE_INT64
                                                                                           : H5T_NATIVE_INT32;
        H5Tinsert(t, names[i], off[i], mt);
    }
    buf = calloc(rows ? rows : 1, size);
    for (hsize_t row = 0; row < rows && buf; row++)
        for (int i = 0; i < n; i++) {
            unsigned char *p = buf + row * size + off[i];
            if (drop >> i & 1)
                continue;
            if (kinds[i] == 2) {
                double v = pick_double(r, typical[i]);
                memcpy(p, &v, 8);
            } else if (kinds[i] == 1 || (widen >> i & 1)) {
                int64_t v = pick_int(r, (int64_t)typical[i] + (i == 6 ? (int64_t)row * 7 : 0));
                memcpy(p, &v, 8);
            } else {
                int32_t v = (int32_t)pick_int(r, (int64_t)typical[i] + (i < 2 ? (int64_t)row % 2 : 0));
                memcpy(p, &v, 4);
            }
        }
    hid_t d = dataset(f, name, t, 1, &rows, extendible);
    if (d >= 0 && buf != NULL) {
        if (rows > 0)
            H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
        H5Dclose(d);
    }
    free(buf);
    H5Tclose(t);
}

/* Root attributes: the format name and version (sometimes wrong), the text and number attributes (each
 * sometimes absent). */
static void write_root_attrs(struct rd *r, hid_t f, uint32_t present, int vlen)
{
    char text[201];
    static const char *str_attrs[] = {"generator", "created_utc", "kernel", "device_name", "timer", "protocol"};
    static const char *num_attrs[] = {"device_cc", "device_sms", "device_l2_bytes", "driver_version",
                                      "cuda_version", "warmup_ms", "rep_ms", "flush_bytes", "compile_jobs", "seed"};
    if (present & 1u) {
        uint8_t s = u8(r);
        attr_str(f, "format", s < 240 ? TRACE_FORMAT_NAME : s < 248 ? "tunecost-trac" : "", vlen);
    }
    if (present & 2u) {
        uint8_t s = u8(r);
        if (s < 250) {
            int64_t v = s < 200 ? 1 : pick_int(r, 1);
            attr_num(f, "format_version", s & 1 ? H5T_NATIVE_INT64 : H5T_NATIVE_INT32, &v);
        } else {
            attr_str(f, "format_version", "1", vlen);
        }
    }
    for (int i = 0; i < 6; i++) {
        if (!(present >> (2 + i) & 1))
            continue;
        size_t len = u8(r) < 240 ? 8 : (size_t)u8(r) % 200;
        for (size_t k = 0; k < len; k++)
            text[k] = (char)('a' + u8(r) % 26);
        text[len] = '\0';
        attr_str(f, str_attrs[i], text, vlen);
    }
    for (int i = 0; i < 10; i++) {
        if (!(present >> (8 + i) & 1))
            continue;
        if (i == 5 || i == 6) {
            double v = pick_double(r, 25.0);
            attr_num(f, num_attrs[i], H5T_NATIVE_DOUBLE, &v);
        } else {
            int64_t v = pick_int(r, 90);
            attr_num(f, num_attrs[i], i == 9 ? H5T_NATIVE_UINT64 : H5T_NATIVE_INT64, &v);
        }
    }

}

/* /params and /dims: rows normally match /configs and /inputs. */
static void write_params_dims(struct rd *r, hid_t f, uint32_t present, int n_params, int n_configs, int n_dims,
                              int n_inputs)
{
    if (present >> 18 & 1) {
        hsize_t d[2] = {(hsize_t)(u8(r) < 240 ? n_configs : u8(r) % 9), (hsize_t)n_params};
        int rank = u8(r) < 248 ? 2 : 1;
        hid_t ds = dataset(f, "params", H5T_NATIVE_INT32, rank, d, 0);
        if (ds >= 0) {
            int32_t v[8 * 8];
            for (size_t i = 0; i < d[0] * (rank == 2 ? d[1] : 1) && i < 64; i++)
                v[i] = (int32_t)pick_int(r, 64);
            if (d[0] > 0 && (rank == 1 || d[1] > 0))
                H5Dwrite(ds, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
            if (present >> 19 & 1)
                attr_names(ds, u8(r) < 240 ? n_params : u8(r) % 9, "P");
            H5Dclose(ds);
        }
    }
    if (present >> 20 & 1) {
        hsize_t d[2] = {(hsize_t)(u8(r) < 240 ? n_inputs : u8(r) % 5), (hsize_t)n_dims};
        hid_t ds = dataset(f, "dims", H5T_NATIVE_INT64, 2, d, 0);
        if (ds >= 0) {
            int64_t v[4 * 4];
            for (size_t i = 0; i < d[0] * d[1] && i < 16; i++)
                v[i] = pick_int(r, 256 + (int64_t)i);
            if (d[0] > 0 && d[1] > 0)
                H5Dwrite(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
            if (present >> 21 & 1)
                attr_names(ds, u8(r) < 240 ? n_dims : u8(r) % 5, "D");
            H5Dclose(ds);
        }
    }

}

/* The optional extras: /compile_warmup_ms and /compile_log. */
static void write_extras(struct rd *r, hid_t f, uint32_t present, int n_configs)
{
    if (!(present >> 26 & 1)) {
        hsize_t d = (hsize_t)(u8(r) % 9);
        hid_t ds = dataset(f, "compile_warmup_ms", H5T_NATIVE_DOUBLE, 1, &d, 0);
        double v[8];
        for (hsize_t i = 0; i < d; i++)
            v[i] = pick_double(r, 300);
        if (ds >= 0) {
            if (d > 0)
                H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
            H5Dclose(ds);
        }
    }
    if (!(present >> 27 & 1)) {
        hsize_t d = (hsize_t)(u8(r) < 200 ? n_configs : u8(r) % 9);
        hid_t t = H5Tcopy(H5T_C_S1), ds;
        const char *logs[8] = {"", "error: x", "", "", "", "", "", ""};
        H5Tset_size(t, H5T_VARIABLE);
        ds = dataset(f, "compile_log", t, 1, &d, 0);
        if (ds >= 0) {
            if (d > 0)
                H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, logs);
            H5Dclose(ds);
        }
        H5Tclose(t);
    }
}

static void write_trace(struct rd *r, const char *path)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    uint32_t present = ~u32(r);          /* bit set = present (mostly all) */
    int vlen = u8(r) & 1;
    int n_params = u8(r) % 9, n_configs = u8(r) % 9, n_dims = u8(r) % 5, n_inputs = u8(r) % 5;
    int n_runs = u8(r) % 17, n_exec = u8(r) % 129;
    if (f < 0)
        return;

    write_root_attrs(r, f, present, vlen);

    write_params_dims(r, f, present, n_params, n_configs, n_dims, n_inputs);

    /* compounds */
    static const char *cfg_names[] = {"status", "compile_ms", "load_ms", "registers", "smem_bytes", "spill_bytes"};
    static const int cfg_kinds[] = {0, 2, 2, 0, 0, 0};
    static const double cfg_typ[] = {0, 150, 2, 96, 32768, 0};
    static const char *in_names[] = {"flops", "ref_ms"};
    static const int in_kinds[] = {2, 2};
    static const double in_typ[] = {3.3e7, 0.011};
    static const char *run_names[] = {"input", "config", "status", "n_estimate", "n_warmup", "n_timed",
                                      "exec_offset", "wall_ms", "flush_ms", "verify_ms", "estimate_ms", "rel_error"};
    static const int run_kinds[] = {0, 0, 0, 0, 0, 0, 1, 2, 2, 2, 2, 2};
    static const double run_typ[] = {0, 0, 0, 0, 2, 5, 0, 0.4, 0, 0.3, NAN, 1e-3};
    unsigned drop = u8(r) < 240 ? 0 : 1u << (u8(r) % 12);
    unsigned widen = u8(r) < 200 ? 0 : u32(r);
    if (present >> 22 & 1)
        compound(r, f, "configs", cfg_names, cfg_kinds, 6, drop & 63, widen, (hsize_t)n_configs, cfg_typ, 0);
    if (present >> 23 & 1)
        compound(r, f, "inputs", in_names, in_kinds, 2, drop & 3, 0, (hsize_t)n_inputs, in_typ, 0);
    if (present >> 24 & 1)
        compound(r, f, "runs", run_names, run_kinds, 12, drop, widen, (hsize_t)n_runs, run_typ, 1);

    /* /exec_ns: uint64 normally; an importer's int64 or float64 sometimes */
    if (present >> 25 & 1) {
        uint8_t s = u8(r);
        hid_t type = s < 230 ? H5T_NATIVE_UINT64 : s < 240 ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE;
        hsize_t d[2] = {(hsize_t)n_exec, 1};
        hid_t ds = dataset(f, "exec_ns", type, u8(r) < 250 ? 1 : 2, d, 1);
        uint64_t v[128];
        for (int i = 0; i < n_exec; i++)
            v[i] = pick_ns(r, 20000);
        if (ds >= 0) {
            if (n_exec > 0)
                H5Dwrite(ds, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
            H5Dclose(ds);
        }
    }
    write_extras(r, f, present, n_configs);
    H5Fclose(f);
}

/* Same invariants as fuzz_trace.c: every accessor in bounds, the validator's promises kept. */
static void walk(const struct trace *t)
{
    volatile uint64_t sink = 0;
    int np = trace_n_params(t), nc = trace_n_configs(t), nd = trace_n_dims(t), ni = trace_n_inputs(t);
    size_t nr = trace_n_runs(t), ne = trace_n_exec(t);
    CHECK(np >= 0 && nc >= 0 && nd >= 0 && ni >= 0);
    for (int p = 0; p < np; p++)
        sink += strlen(trace_param_name(t, p));
    for (int d = 0; d < nd; d++)
        sink += strlen(trace_dim_name(t, d));
    for (int c = 0; c < nc; c++) {
        for (int p = 0; p < np; p++)
            sink += (uint64_t)trace_params(t, c)[p];
        sink += strlen(trace_compile_log(t, c));
        sink += (uint64_t)trace_config(t, c)->status;
    }
    for (int i = 0; i < ni; i++) {
        for (int d = 0; d < nd; d++)
            sink += (uint64_t)trace_dims(t, i)[d];
        sink += trace_input(t, i)->flops > 0.0;
    }
    for (int w = 0; w < trace_n_compile_warmup(t); w++)
        sink += trace_compile_warmup(t)[w] > 0.0;
    for (size_t r = 0; r < nr; r++) {
        const struct trace_run *run = trace_run(t, r);
        int64_t n = (int64_t)run->n_estimate + run->n_warmup + run->n_timed;
        CHECK(run->input >= 0 && run->input < ni);
        CHECK(run->config >= 0 && run->config < nc);
        CHECK(run->n_estimate >= 0 && run->n_warmup >= 0 && run->n_timed >= 0);
        CHECK(run->exec_offset >= 0 && (uint64_t)run->exec_offset + (uint64_t)n <= ne);
        for (int64_t k = 0; k < n; k++)
            sink += trace_run_exec(t, r)[k];
        if (trace_run_valid(t, r)) {
            CHECK(run->status == TRACE_OK && run->n_timed > 0);
            for (int k = 0; k < run->n_timed; k++)
                CHECK(trace_run_timed(t, r)[k] > 0);
        }
        CHECK(trace_find_run(t, run->input, run->config) >= 0);
    }
    (void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[256];
    struct rd r = {data, size};
    struct trace *t;
    if (path[0] == '\0') {
        const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(path, sizeof path, "%s/fuzz-tracegen-%ld.h5", dir, (long)getpid());
        H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    }
    write_trace(&r, path);
    tc_clearerr();
    t = trace_open(path);
    if (t == NULL) {
        CHECK(tc_errmsg()[0] != '\0');
        CHECK(strchr(tc_errmsg(), '\n') == NULL);
        CHECK(strstr(tc_errmsg(), path) != NULL);
    } else {
        walk(t);
        trace_close(t);
    }
    if (getenv("TRACEGEN_KEEP") != NULL) /* triage: keep the file written for the last input and say why */
        fprintf(stderr, "fuzz_tracegen: kept %s: %s\n", path, t ? "opened" : tc_errmsg());
    else
        unlink(path);
    return 0;
}
