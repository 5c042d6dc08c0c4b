/* trace.c — reads, writes and validates tunecost traces: HDF5 (1.10 API), format v1, docs/trace-format.md.
 * A trace is loaded whole into memory on open (the simulator replays every execution); a writer keeps the same
 * in-memory copy up to date, so the accessors work alike on a trace being read, written or resumed. */
#include "trace.h"
#include "tc_atomic.h"
#include "tc_err.h"
#include "tc_stats.h"
#include "tc_version.h"

#include <hdf5.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#ifdef TC_HAVE_ZLIB
#include <pthread.h>
#include <zlib.h>
#endif

/* Storage. While a writer appends, /runs and /exec_ns are chunked and unfiltered: an unfiltered chunk keeps its
 * place in the file when rewritten, so a process killed in the middle of an append cannot damage what earlier
 * appends flushed (with compression, HDF5 moves a rewritten chunk and may reuse the freed space before the
 * metadata pointing at it is rewritten; tests/test-trace.c caught exactly that). trace_close() then rewrites
 * the trace compressed: /exec_ns in chunks of 32768 values (256 KiB raw), byte shuffle + deflate 4, about 1.2
 * bytes per execution on realistic durations (bench/bench-trace.c, docs/performance.md). */
#define EXEC_CHUNK 32768
#define EXEC_DEFLATE 4
#define RUNS_CHUNK 1024
#define RUNS_DEFLATE 4
#define WARMUP_CHUNK 64
/* Durations from 2^63 ns up are negative numbers stored as unsigned (an importer's int64 -5 is 2^64-5). */
#define EXEC_NS_LIMIT (UINT64_C(1) << 63)

/* ---- compound layouts: one member table per struct gives both the memory and the file type -------------- */

enum member_kind { M_I32, M_I64, M_F64 };
struct member {
    const char *name;
    size_t offset;
    enum member_kind kind;
    int optional; /* added after format v1 first shipped: a file without it reads as 0 */
};

#define MEMBER(type, field, kind) {#field, offsetof(type, field), kind, 0}
#define MEMBER_OPT(type, field, kind) {#field, offsetof(type, field), kind, 1}
static const struct member config_members[] = {
    MEMBER(struct trace_config, status, M_I32),     MEMBER(struct trace_config, compile_ms, M_F64),
    MEMBER(struct trace_config, load_ms, M_F64),    MEMBER(struct trace_config, registers, M_I32),
    MEMBER(struct trace_config, smem_bytes, M_I32), MEMBER(struct trace_config, spill_bytes, M_I32),
    MEMBER_OPT(struct trace_config, path, M_I32),
};
static const struct member input_members[] = {
    MEMBER(struct trace_input, flops, M_F64),
    MEMBER(struct trace_input, ref_ms, M_F64),
};
static const struct member run_members[] = {
    MEMBER(struct trace_run, input, M_I32),       MEMBER(struct trace_run, config, M_I32),
    MEMBER(struct trace_run, status, M_I32),      MEMBER(struct trace_run, n_estimate, M_I32),
    MEMBER(struct trace_run, n_warmup, M_I32),    MEMBER(struct trace_run, n_timed, M_I32),
    MEMBER(struct trace_run, exec_offset, M_I64), MEMBER(struct trace_run, wall_ms, M_F64),
    MEMBER(struct trace_run, flush_ms, M_F64),    MEMBER(struct trace_run, verify_ms, M_F64),
    MEMBER(struct trace_run, estimate_ms, M_F64), MEMBER(struct trace_run, rel_error, M_F64),
};
#undef MEMBER
#undef MEMBER_OPT
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

struct layout {
    const char *dataset; /* "/configs" */
    const struct member *members;
    size_t n_members;
    size_t size; /* sizeof the struct */
};
static const struct layout config_layout = {"/configs", config_members, N_OF(config_members),
                                            sizeof(struct trace_config)};
static const struct layout input_layout = {"/inputs", input_members, N_OF(input_members),
                                           sizeof(struct trace_input)};
static const struct layout run_layout = {"/runs", run_members, N_OF(run_members), sizeof(struct trace_run)};

struct trace {
    char *path;
    int writable;
    int compress_on_close; /* a writer rewrites the trace compressed when it closes */
    int append_ready;      /* /runs and /exec_ns can grow in place (chunked, unlimited, unfiltered) */
    int no_run_flush;      /* trace_set_flush_each_run(t, 0): appends are not flushed one by one */
    hid_t file, d_configs, d_inputs, d_runs, d_exec, d_log, d_warmup;
    hid_t mt_config, mt_input, mt_run; /* memory compound types */
    struct trace_meta meta;

    int n_params, n_dims;
    char **param_names, **dim_names;

    int n_configs; /* -1 until written */
    int32_t *params; /* n_configs x n_params */
    struct trace_config *configs;
    char **logs; /* n_configs, NULL entries read as "" */

    int n_inputs; /* -1 until written */
    int64_t *dims; /* n_inputs x n_dims */
    struct trace_input *inputs;

    size_t n_runs, cap_runs;
    struct trace_run *runs;
    unsigned char *valid; /* per run, trace_run_valid */
    long *run_index;      /* [input * n_configs + config] -> last run, or -1 */

    size_t n_exec, cap_exec; /* n_exec = end of the last run's executions */
    uint64_t *exec;

    int n_warmup;
    double *warmup_ms;

    char ***vtab; /* NULL, or per parameter NULL or its value table (trace_set_param_values), kept for snapshot */
    int *n_vtab;
};

/* ---- errors ----------------------------------------------------------------------------------------------- */

static herr_t innermost_cb(unsigned n, const H5E_error2_t *err, void *data)
{
    if (n == 0 && err->desc != NULL)
        snprintf((char *)data, 200, "%s", err->desc);
    return 0;
}

/* Set "<path>: <what>: <HDF5's innermost message> [<failing call>]" and clear HDF5's error stack. */
static void TC_PRINTF(3, 4) h5fail(const char *path, const char *call, const char *fmt, ...)
{
    char what[512], detail[200] = "", fn[64] = "";
    const char *paren = strchr(call, '(');
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    (void)H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost_cb, detail);
    (void)H5Eclear2(H5E_DEFAULT);
    for (char *c = detail; *c != '\0'; c++) /* one line: HDF5 puts ctime()'s newline into some messages */
        if (*c == '\n' || *c == '\r' || *c == '\t')
            *c = ' ';
    if (paren != NULL) { /* the identifier just before the first '(' of the call's text */
        const char *b = paren;
        while (b > call && (b[-1] == '_' || (b[-1] >= 'A' && b[-1] <= 'Z') || (b[-1] >= 'a' && b[-1] <= 'z') ||
                            (b[-1] >= '0' && b[-1] <= '9')))
            b--;
        snprintf(fn, sizeof fn, "%.*s", (int)(paren - b), b);
    }
    if (detail[0] != '\0')
        tc_seterr("%s: %s: %s [%s]", path, what, detail, fn);
    else
        tc_seterr("%s: %s [%s]", path, what, fn);
}

/* Run an HDF5 call; on a negative result set the message and jump to `out`. Needs `t` in scope. */
#define H5TRY(call, ...)                                                                                         \
    do {                                                                                                         \
        if ((call) < 0) {                                                                                        \
            h5fail(t->path, #call, __VA_ARGS__);                                                                 \
            goto out;                                                                                            \
        }                                                                                                        \
    } while (0)
/* A validation failure: message naming the file, jump to `out`. */
#define FAIL(...)                                                                                                \
    do {                                                                                                         \
        tc_seterr(__VA_ARGS__);                                                                                  \
        tc_preferr("%s", t->path);                                                                               \
        goto out;                                                                                                \
    } while (0)

static void close_id(hid_t *id)
{
    if (*id >= 0) {
        switch (H5Iget_type(*id)) {
        case H5I_FILE: (void)H5Fclose(*id); break;
        case H5I_DATASET: (void)H5Dclose(*id); break;
        case H5I_DATATYPE: (void)H5Tclose(*id); break;
        case H5I_DATASPACE: (void)H5Sclose(*id); break;
        case H5I_ATTR: (void)H5Aclose(*id); break;
        case H5I_GENPROP_LST: (void)H5Pclose(*id); break;
        default: break;
        }
    }
    *id = H5I_INVALID_HID;
}

static void quiet_hdf5(void)
{
    /* HDF5 prints its error stack to stderr by default; we turn failures into one-line messages instead. */
    (void)H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

const char *trace_status_name(int status)
{
    static const char *const names[TRACE_N_STATUS] = {"ok", "compile error", "out of resources", "launch error",
                                                       "wrong result"};
    return status >= 0 && status < TRACE_N_STATUS ? names[status] : "unknown";
}

/* ---- types ------------------------------------------------------------------------------------------------ */

/* The memory type (native, at the struct's offsets) or the file type (packed little-endian) of a layout. */
/* With `present` (a dataset's file type), a memory type of the members that type has (optional ones may be
 * missing from older files). */
static hid_t layout_type_in(const struct layout *l, int file, hid_t present)
{
    size_t size = 0;
    hid_t tid = H5I_INVALID_HID;
    for (size_t i = 0; i < l->n_members; i++)
        size += l->members[i].kind == M_I32 ? 4 : 8;
    tid = H5Tcreate(H5T_COMPOUND, file ? size : l->size);
    if (tid < 0)
        return H5I_INVALID_HID;
    size = 0;
    for (size_t i = 0; i < l->n_members; i++) {
        const struct member *m = &l->members[i];
        if (present >= 0 && m->optional && H5Tget_member_index(present, m->name) < 0) {
            (void)H5Eclear2(H5E_DEFAULT);
            continue;
        }
        hid_t mt = m->kind == M_I32 ? (file ? H5T_STD_I32LE : H5T_NATIVE_INT32)
                   : m->kind == M_I64 ? (file ? H5T_STD_I64LE : H5T_NATIVE_INT64)
                                      : (file ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE);
        if (H5Tinsert(tid, m->name, file ? size : m->offset, mt) < 0) {
            (void)H5Tclose(tid);
            return H5I_INVALID_HID;
        }
        size += m->kind == M_I32 ? 4 : 8;
    }
    return tid;
}

static hid_t layout_type(const struct layout *l, int file)
{
    return layout_type_in(l, file, H5I_INVALID_HID);
}

static hid_t vlen_str_type(void)
{
    hid_t tid = H5Tcopy(H5T_C_S1);
    if (tid >= 0 && (H5Tset_size(tid, H5T_VARIABLE) < 0 || H5Tset_cset(tid, H5T_CSET_UTF8) < 0)) {
        (void)H5Tclose(tid);
        tid = H5I_INVALID_HID;
    }
    return tid;
}

static int make_mem_types(struct trace *t)
{
    t->mt_config = layout_type(&config_layout, 0);
    t->mt_input = layout_type(&input_layout, 0);
    t->mt_run = layout_type(&run_layout, 0);
    if (t->mt_config < 0 || t->mt_input < 0 || t->mt_run < 0) {
        h5fail(t->path, "H5Tcreate()", "cannot build the compound types");
        return -1;
    }
    return 0;
}

/* ---- allocation ------------------------------------------------------------------------------------------- */

static struct trace *trace_alloc(const char *path)
{
    struct trace *t = calloc(1, sizeof *t);
    if (t == NULL || (t->path = strdup(path)) == NULL) {
        free(t);
        tc_seterr("%s: out of memory", path);
        return NULL;
    }
    t->file = t->d_configs = t->d_inputs = t->d_runs = t->d_exec = t->d_log = t->d_warmup = H5I_INVALID_HID;
    t->mt_config = t->mt_input = t->mt_run = H5I_INVALID_HID;
    t->n_configs = t->n_inputs = -1;
    quiet_hdf5();
    return t;
}

static void free_strs(char **s, int n)
{
    if (s == NULL)
        return;
    for (int i = 0; i < n; i++)
        free(s[i]);
    free(s);
}

static char **dup_strs(const char *const *s, int n)
{
    char **d = calloc((size_t)(n > 0 ? n : 1), sizeof *d);
    if (d == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        if ((d[i] = strdup(s[i] != NULL ? s[i] : "")) == NULL) {
            free_strs(d, n);
            return NULL;
        }
    }
    return d;
}

/* Grow runs (and valid) to hold `need` rows, exec to hold `need_exec` values. */
static int reserve(struct trace *t, size_t need_runs, size_t need_exec)
{
    if (need_runs > t->cap_runs) {
        size_t cap = t->cap_runs ? t->cap_runs : 256;
        while (cap < need_runs)
            cap *= 2;
        struct trace_run *r = realloc(t->runs, cap * sizeof *r);
        if (r == NULL)
            return tc_seterr("%s: out of memory for %zu runs", t->path, need_runs);
        t->runs = r;
        unsigned char *v = realloc(t->valid, cap);
        if (v == NULL)
            return tc_seterr("%s: out of memory for %zu runs", t->path, need_runs);
        t->valid = v;
        t->cap_runs = cap;
    }
    if (need_exec > t->cap_exec) {
        size_t cap = t->cap_exec ? t->cap_exec : 65536;
        while (cap < need_exec)
            cap *= 2;
        if (cap > SIZE_MAX / sizeof(uint64_t))
            return tc_seterr("%s: %zu executions do not fit in memory", t->path, need_exec);
        uint64_t *e = realloc(t->exec, cap * sizeof *e);
        if (e == NULL)
            return tc_seterr("%s: out of memory for %zu executions (%.1f MB)", t->path, need_exec,
                             (double)need_exec * 8e-6);
        t->exec = e;
        t->cap_exec = cap;
    }
    return 0;
}

/* The (input, config) -> run index, once both sizes are known. */
static int build_run_index(struct trace *t)
{
    if (t->n_configs < 0 || t->n_inputs < 0 || t->run_index != NULL)
        return 0;
    size_t n = (size_t)t->n_configs * (size_t)t->n_inputs;
    t->run_index = malloc((n ? n : 1) * sizeof *t->run_index);
    if (t->run_index == NULL)
        return tc_seterr("%s: out of memory", t->path);
    for (size_t i = 0; i < n; i++)
        t->run_index[i] = -1;
    for (size_t r = 0; r < t->n_runs; r++)
        t->run_index[(size_t)t->runs[r].input * (size_t)t->n_configs + (size_t)t->runs[r].config] = (long)r;
    return 0;
}

/* Valid: status 0, n_timed > 0 and every duration > 0. */
static unsigned char run_is_valid(const struct trace_run *run, const uint64_t *exec)
{
    if (run->status != TRACE_OK || run->n_timed <= 0)
        return 0;
    size_t n = (size_t)run->n_estimate + (size_t)run->n_warmup + (size_t)run->n_timed;
    for (size_t i = 0; i < n; i++)
        if (exec[i] == 0)
            return 0;
    return 1;
}

/* ---- attributes ------------------------------------------------------------------------------------------- */

static int attr_write_str(struct trace *t, hid_t loc, const char *name, const char *value)
{
    int rc = -1;
    hid_t st = H5I_INVALID_HID, sp = H5I_INVALID_HID, a = H5I_INVALID_HID;
    H5TRY(st = vlen_str_type(), "cannot write attribute '%s'", name);
    H5TRY(sp = H5Screate(H5S_SCALAR), "cannot write attribute '%s'", name);
    H5TRY(a = H5Acreate2(loc, name, st, sp, H5P_DEFAULT, H5P_DEFAULT), "cannot create attribute '%s'", name);
    H5TRY(H5Awrite(a, st, &value), "cannot write attribute '%s'", name);
    rc = 0;
out:
    close_id(&a);
    close_id(&sp);
    close_id(&st);
    return rc;
}

static int attr_write_strs(struct trace *t, hid_t loc, const char *name, char *const *values, int n)
{
    int rc = -1;
    hsize_t dim = (hsize_t)n;
    hid_t st = H5I_INVALID_HID, sp = H5I_INVALID_HID, a = H5I_INVALID_HID;
    H5TRY(st = vlen_str_type(), "cannot write attribute '%s'", name);
    H5TRY(sp = H5Screate_simple(1, &dim, NULL), "cannot write attribute '%s'", name);
    H5TRY(a = H5Acreate2(loc, name, st, sp, H5P_DEFAULT, H5P_DEFAULT), "cannot create attribute '%s'", name);
    H5TRY(H5Awrite(a, st, values), "cannot write attribute '%s'", name);
    rc = 0;
out:
    close_id(&a);
    close_id(&sp);
    close_id(&st);
    return rc;
}

static int attr_write_num(struct trace *t, hid_t loc, const char *name, hid_t filetype, hid_t memtype,
                          const void *value)
{
    int rc = -1;
    hid_t sp = H5I_INVALID_HID, a = H5I_INVALID_HID;
    H5TRY(sp = H5Screate(H5S_SCALAR), "cannot write attribute '%s'", name);
    H5TRY(a = H5Acreate2(loc, name, filetype, sp, H5P_DEFAULT, H5P_DEFAULT), "cannot create attribute '%s'", name);
    H5TRY(H5Awrite(a, memtype, value), "cannot write attribute '%s'", name);
    rc = 0;
out:
    close_id(&a);
    close_id(&sp);
    return rc;
}

/* Read a string-typed attribute or dataset (fixed or variable length, any rank) into n malloc'd strings.
 * `obj` is an attribute (is_attr) or a dataset. *n receives the number of elements. */
static int read_strs(struct trace *t, hid_t obj, int is_attr, const char *what, char ***out, int *n)
{
    int rc = -1;
    hid_t ft = H5I_INVALID_HID, sp = H5I_INVALID_HID, mt = H5I_INVALID_HID;
    char **strs = NULL, *fixed = NULL;
    hssize_t np = 0;
    H5TRY(ft = is_attr ? H5Aget_type(obj) : H5Dget_type(obj), "cannot read %s", what);
    if (H5Tget_class(ft) != H5T_STRING)
        FAIL("%s must hold strings", what);
    H5TRY(sp = is_attr ? H5Aget_space(obj) : H5Dget_space(obj), "cannot read %s", what);
    H5TRY(np = H5Sget_simple_extent_npoints(sp), "cannot read %s", what);
    if (np > INT_MAX)
        FAIL("%s has too many elements (%lld)", what, (long long)np);
    strs = calloc((size_t)(np > 0 ? np : 1), sizeof *strs);
    if (strs == NULL)
        FAIL("out of memory reading %s", what);
    if (np == 0) {
        /* nothing to read */
    } else if (H5Tis_variable_str(ft) > 0) {
        H5TRY(mt = H5Tcopy(H5T_C_S1), "cannot read %s", what);
        H5TRY(H5Tset_size(mt, H5T_VARIABLE), "cannot read %s", what);
        H5TRY(H5Tset_cset(mt, H5Tget_cset(ft)), "cannot read %s", what);
        H5TRY(is_attr ? H5Aread(obj, mt, strs) : H5Dread(obj, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, strs),
              "cannot read %s", what);
        for (hssize_t i = 0; i < np; i++) { /* copy out of HDF5's allocations */
            char *s = strdup(strs[i] != NULL ? strs[i] : "");
            H5free_memory(strs[i]);
            strs[i] = s;
        }
        for (hssize_t i = 0; i < np; i++)
            if (strs[i] == NULL)
                FAIL("out of memory reading %s", what);
    } else {
        size_t len = H5Tget_size(ft);
        if (len == 0)
            FAIL("%s: cannot read strings of size 0", what);
        if ((fixed = malloc((size_t)np * len)) == NULL)
            FAIL("out of memory reading %s", what);
        H5TRY(mt = H5Tcopy(ft), "cannot read %s", what);
        H5TRY(is_attr ? H5Aread(obj, mt, fixed) : H5Dread(obj, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, fixed),
              "cannot read %s", what);
        for (hssize_t i = 0; i < np; i++) {
            const char *s = fixed + (size_t)i * len;
            size_t l = strnlen(s, len);
            for (size_t k = l; k < len; k++) /* NUL padding only: a NUL inside the text would cut it short */
                if (s[k] != '\0')
                    FAIL("%s holds a NUL byte inside its text (at byte %zu of %zu)", what, l, len);
            while (l > 0 && s[l - 1] == ' ') /* space-padded (Fortran-style) strings */
                l--;
            if ((strs[i] = malloc(l + 1)) == NULL)
                FAIL("out of memory reading %s", what);
            memcpy(strs[i], s, l);
            strs[i][l] = '\0';
        }
    }
    *out = strs;
    *n = (int)np;
    strs = NULL;
    rc = 0;
out:
    free(fixed);
    free_strs(strs, (int)np);
    close_id(&mt);
    close_id(&sp);
    close_id(&ft);
    return rc;
}

static int attr_open(struct trace *t, hid_t loc, const char *objname, const char *name, hid_t *a)
{
    htri_t e = H5Aexists(loc, name);
    if (e < 0) {
        h5fail(t->path, "H5Aexists()", "cannot look up attribute '%s' of %s", name, objname);
        return -1;
    }
    if (e == 0)
        return tc_seterr("%s: %s lacks the attribute '%s'", t->path, objname, name);
    if ((*a = H5Aopen(loc, name, H5P_DEFAULT)) < 0) {
        h5fail(t->path, "H5Aopen()", "cannot open attribute '%s' of %s", name, objname);
        return -1;
    }
    return 0;
}

/* A scalar (or one-element) string attribute, truncated to len-1 characters. */
static int attr_read_str(struct trace *t, hid_t loc, const char *objname, const char *name, char *buf, size_t len)
{
    int rc = -1, n = 0;
    char **strs = NULL, what[128];
    hid_t a = H5I_INVALID_HID;
    snprintf(what, sizeof what, "attribute '%s' of %s", name, objname);
    if (attr_open(t, loc, objname, name, &a) < 0)
        goto out;
    if (read_strs(t, a, 1, what, &strs, &n) < 0)
        goto out;
    if (n != 1)
        FAIL("%s must be a single string (found %d)", what, n);
    snprintf(buf, len, "%s", strs[0]);
    rc = 0;
out:
    free_strs(strs, n);
    close_id(&a);
    return rc;
}

/* A scalar (or one-element) numeric attribute, converted by HDF5 to memtype. */
static int attr_read_num(struct trace *t, hid_t loc, const char *objname, const char *name, hid_t memtype,
                         void *out)
{
    int rc = -1;
    hid_t a = H5I_INVALID_HID, ft = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    hssize_t np = 0;
    H5T_class_t cls;
    if (attr_open(t, loc, objname, name, &a) < 0)
        goto out;
    H5TRY(ft = H5Aget_type(a), "cannot read attribute '%s'", name);
    H5TRY(sp = H5Aget_space(a), "cannot read attribute '%s'", name);
    H5TRY(np = H5Sget_simple_extent_npoints(sp), "cannot read attribute '%s'", name);
    cls = H5Tget_class(ft);
    if ((cls != H5T_INTEGER && cls != H5T_FLOAT) || np != 1)
        FAIL("attribute '%s' of %s must be a single number", name, objname);
    if (H5Tequal(memtype, H5T_NATIVE_DOUBLE) > 0) {
        H5TRY(H5Aread(a, memtype, out), "cannot read attribute '%s'", name);
    } else {
        /* An integer destination: read the stored value exactly (as double, int64 or uint64), then refuse what
         * HDF5's conversion would saturate or truncate instead of passing it on silently. */
        int is_i32 = H5Tequal(memtype, H5T_NATIVE_INT32) > 0, is_u64 = H5Tequal(memtype, H5T_NATIVE_UINT64) > 0;
        long double v;
        if (cls == H5T_FLOAT) {
            double d = 0;
            H5TRY(H5Aread(a, H5T_NATIVE_DOUBLE, &d), "cannot read attribute '%s'", name);
            if (!isfinite(d) || d != floor(d))
                FAIL("attribute '%s' of %s must be an integer, found %g", name, objname, d);
            v = d;
        } else if (H5Tget_sign(ft) == H5T_SGN_NONE) {
            uint64_t u = 0;
            H5TRY(H5Aread(a, H5T_NATIVE_UINT64, &u), "cannot read attribute '%s'", name);
            v = (long double)u;
        } else {
            int64_t i = 0;
            H5TRY(H5Aread(a, H5T_NATIVE_INT64, &i), "cannot read attribute '%s'", name);
            v = (long double)i;
        }
        long double lo = is_u64 ? 0.0L : is_i32 ? (long double)INT32_MIN : (long double)INT64_MIN;
        long double hi = is_u64 ? 18446744073709551615.0L : is_i32 ? (long double)INT32_MAX : (long double)INT64_MAX;
        if (v < lo || v > hi)
            FAIL("attribute '%s' of %s is %.0Lf, outside the range of %s", name, objname, v,
                 is_u64 ? "uint64" : is_i32 ? "int32" : "int64");
        if (is_u64)
            *(uint64_t *)out = (uint64_t)v;
        else if (is_i32)
            *(int32_t *)out = (int32_t)v;
        else
            *(int64_t *)out = (int64_t)v;
    }
    rc = 0;
out:
    close_id(&sp);
    close_id(&ft);
    close_id(&a);
    return rc;
}

/* ---- writing ---------------------------------------------------------------------------------------------- */

static int write_meta(struct trace *t, const struct trace_meta *m)
{
    hid_t root = t->file;
    const struct {
        const char *name;
        const char *value;
    } strs[] = {
        {"format", TRACE_FORMAT_NAME}, {"generator", m->generator}, {"created_utc", m->created_utc},
        {"kernel", m->kernel},         {"device_name", m->device_name}, {"timer", m->timer},
        {"protocol", m->protocol},
    };
    int32_t version = TRACE_FORMAT_VERSION;
    for (size_t i = 0; i < N_OF(strs); i++)
        if (attr_write_str(t, root, strs[i].name, strs[i].value) < 0)
            return -1;
    if (attr_write_num(t, root, "format_version", H5T_STD_I32LE, H5T_NATIVE_INT32, &version) < 0 ||
        attr_write_num(t, root, "device_cc", H5T_STD_I32LE, H5T_NATIVE_INT32, &m->device_cc) < 0 ||
        attr_write_num(t, root, "device_sms", H5T_STD_I32LE, H5T_NATIVE_INT32, &m->device_sms) < 0 ||
        attr_write_num(t, root, "device_l2_bytes", H5T_STD_I64LE, H5T_NATIVE_INT64, &m->device_l2_bytes) < 0 ||
        attr_write_num(t, root, "driver_version", H5T_STD_I32LE, H5T_NATIVE_INT32, &m->driver_version) < 0 ||
        attr_write_num(t, root, "cuda_version", H5T_STD_I32LE, H5T_NATIVE_INT32, &m->cuda_version) < 0 ||
        attr_write_num(t, root, "warmup_ms", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &m->warmup_ms) < 0 ||
        attr_write_num(t, root, "rep_ms", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &m->rep_ms) < 0 ||
        attr_write_num(t, root, "flush_bytes", H5T_STD_I64LE, H5T_NATIVE_INT64, &m->flush_bytes) < 0 ||
        attr_write_num(t, root, "compile_jobs", H5T_STD_I32LE, H5T_NATIVE_INT32, &m->compile_jobs) < 0 ||
        attr_write_num(t, root, "seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, &m->seed) < 0)
        return -1;
    return 0;
}

/* An empty, unlimited 1-D chunked dataset of `type`, compressed with shuffle + deflate. */
static hid_t create_extendible(struct trace *t, const char *name, hid_t type, hsize_t chunk, unsigned deflate)
{
    hid_t d = H5I_INVALID_HID, sp = H5I_INVALID_HID, dcpl = H5I_INVALID_HID;
    hsize_t dim = 0, maxdim = H5S_UNLIMITED;
    H5TRY(sp = H5Screate_simple(1, &dim, &maxdim), "cannot create %s", name);
    H5TRY(dcpl = H5Pcreate(H5P_DATASET_CREATE), "cannot create %s", name);
    H5TRY(H5Pset_chunk(dcpl, 1, &chunk), "cannot create %s", name);
    if (deflate > 0) {
        H5TRY(H5Pset_shuffle(dcpl), "cannot create %s", name);
        H5TRY(H5Pset_deflate(dcpl, deflate), "cannot create %s (is zlib missing from libhdf5?)", name);
    }
    H5TRY(d = H5Dcreate2(t->file, name, type, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT), "cannot create %s", name);
out:
    close_id(&dcpl);
    close_id(&sp);
    return d;
}

/* Make the in-memory meta what the file says: fill generator and created_utc when the caller left them empty. */
static void complete_meta(struct trace_meta *m)
{
    if (m->generator[0] == '\0')
        snprintf(m->generator, sizeof m->generator, "tunecost %s", TC_VERSION);
    if (m->created_utc[0] == '\0') {
        time_t now = time(NULL);
        struct tm tm;
        if (gmtime_r(&now, &tm) != NULL)
            strftime(m->created_utc, sizeof m->created_utc, "%Y-%m-%dT%H:%M:%SZ", &tm);
    }
}

/* trace_create with the growing datasets compressed (a finished trace) or not (a trace being written). */
static struct trace *create_storage(const char *path, const struct trace_meta *meta,
                                    const char *const *param_names, int n_params, const char *const *dim_names,
                                    int n_dims, int compress)
{
    struct trace *t = NULL;
    hid_t ft = H5I_INVALID_HID;
    int ok = 0;
    if (path == NULL || meta == NULL) {
        tc_seterr("trace_create: path and meta are required");
        return NULL;
    }
    if ((t = trace_alloc(path)) == NULL)
        return NULL;
    t->writable = 1;
    t->meta = *meta;
    complete_meta(&t->meta);
    if (n_params < 1 || n_dims < 1 || param_names == NULL || dim_names == NULL)
        FAIL("a trace needs at least one parameter name and one dimension name (got %d and %d)", n_params,
             n_dims);
    for (int i = 0; i < n_params; i++)
        if (param_names[i] == NULL || param_names[i][0] == '\0')
            FAIL("parameter name %d is empty", i);
    for (int i = 0; i < n_dims; i++)
        if (dim_names[i] == NULL || dim_names[i][0] == '\0')
            FAIL("dimension name %d is empty", i);
    t->n_params = n_params;
    t->n_dims = n_dims;
    if ((t->param_names = dup_strs(param_names, n_params)) == NULL ||
        (t->dim_names = dup_strs(dim_names, n_dims)) == NULL)
        FAIL("out of memory");
    if (make_mem_types(t) < 0)
        goto out;
    H5TRY(t->file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), "cannot create the trace file");
    if (write_meta(t, &t->meta) < 0)
        goto out;
    H5TRY(ft = layout_type(&run_layout, 1), "cannot build the /runs type");
    if ((t->d_runs = create_extendible(t, "/runs", ft, RUNS_CHUNK, compress ? RUNS_DEFLATE : 0)) < 0)
        goto out;
    if ((t->d_exec = create_extendible(t, "/exec_ns", H5T_STD_U64LE, EXEC_CHUNK, compress ? EXEC_DEFLATE : 0)) < 0)
        goto out;
    H5TRY(H5Fflush(t->file, H5F_SCOPE_LOCAL), "cannot flush the new trace");
    ok = 1;
out:
    close_id(&ft);
    if (!ok) {
        (void)trace_close(t);
        return NULL;
    }
    return t;
}

struct trace *trace_create(const char *path, const struct trace_meta *meta, const char *const *param_names,
                           int n_params, const char *const *dim_names, int n_dims)
{
    struct trace *t = create_storage(path, meta, param_names, n_params, dim_names, n_dims, 0);
    if (t != NULL) {
        t->compress_on_close = 1;
        t->append_ready = 1;
    }
    return t;
}

/* A fixed-size dataset: 1-D compound (cols == 0) or 2-D integer table of rows x cols. */
static hid_t create_fixed(struct trace *t, const char *name, hid_t type, hsize_t rows, hsize_t cols)
{
    hid_t d = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    hsize_t dims[2] = {rows, cols};
    H5TRY(sp = H5Screate_simple(cols ? 2 : 1, dims, NULL), "cannot create %s", name);
    H5TRY(d = H5Dcreate2(t->file, name, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "cannot create %s", name);
out:
    close_id(&sp);
    return d;
}

static int check_writable(struct trace *t, const char *fn)
{
    if (t == NULL)
        return tc_seterr("%s: no trace", fn);
    if (!t->writable)
        return tc_seterr("%s: %s: the trace was opened read-only", t->path, fn);
    return 0;
}

/* Write a fixed-size table pair and flush: the integer matrix mat_name (rows x n_names of file type ftype, from
 * mat in memory type mtype, with the column names as attribute "names") and the compound dataset l->dataset (rows
 * of memory type mt from recs), whose identifier goes to *d_recs. */
static int write_fixed_pair(struct trace *t, const char *mat_name, hid_t ftype, hid_t mtype, const void *mat,
                            char *const *names, int n_names, const struct layout *l, hid_t mt, const void *recs,
                            int rows, hid_t *d_recs)
{
    int rc = -1;
    hid_t d = H5I_INVALID_HID, ft = H5I_INVALID_HID;
    if ((d = create_fixed(t, mat_name, ftype, (hsize_t)rows, (hsize_t)n_names)) < 0)
        goto out;
    if (rows > 0)
        H5TRY(H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, mat), "cannot write %s", mat_name);
    if (attr_write_strs(t, d, "names", names, n_names) < 0)
        goto out;
    H5TRY(ft = layout_type(l, 1), "cannot build the %s type", l->dataset);
    if ((*d_recs = create_fixed(t, l->dataset, ft, (hsize_t)rows, 0)) < 0)
        goto out;
    if (rows > 0)
        H5TRY(H5Dwrite(*d_recs, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, recs), "cannot write %s", l->dataset);
    H5TRY(H5Fflush(t->file, H5F_SCOPE_LOCAL), "cannot flush after writing %s", l->dataset);
    rc = 0;
out:
    close_id(&ft);
    close_id(&d);
    return rc;
}

int trace_write_configs(struct trace *t, int n_configs, const int32_t *params, const struct trace_config *configs)
{
    int rc = -1;
    if (check_writable(t, "trace_write_configs") < 0)
        return -1;
    if (t->n_configs >= 0)
        FAIL("/configs is already written");
    if (n_configs < 0 || (n_configs > 0 && (params == NULL || configs == NULL)))
        FAIL("trace_write_configs: bad arguments (%d configurations)", n_configs);
    for (int i = 0; i < n_configs; i++)
        if (configs[i].status < 0 || configs[i].status >= TRACE_N_STATUS)
            FAIL("configuration %d: status %d is not a known status (0..%d)", i, configs[i].status,
                 TRACE_N_STATUS - 1);
    size_t np = (size_t)n_configs * (size_t)t->n_params;
    size_t nc = (size_t)n_configs > 0 ? (size_t)n_configs : 1; /* a trace may hold no configuration */
    if ((t->params = malloc((np > 0 ? np : 1) * sizeof *t->params)) == NULL ||
        (t->configs = malloc(nc * sizeof *t->configs)) == NULL || (t->logs = calloc(nc, sizeof *t->logs)) == NULL)
        FAIL("out of memory for %d configurations", n_configs);
    if (n_configs > 0) {
        memcpy(t->params, params, np * sizeof *t->params);
        memcpy(t->configs, configs, (size_t)n_configs * sizeof *t->configs);
    }

    if (write_fixed_pair(t, "/params", H5T_STD_I32LE, H5T_NATIVE_INT32, params, t->param_names, t->n_params,
                         &config_layout, t->mt_config, configs, n_configs, &t->d_configs) < 0)
        goto out;
    t->n_configs = n_configs;
    if (build_run_index(t) < 0)
        goto out;
    rc = 0;
out:
    return rc;
}

int trace_write_inputs(struct trace *t, int n_inputs, const int64_t *dims, const struct trace_input *inputs)
{
    int rc = -1;
    if (check_writable(t, "trace_write_inputs") < 0)
        return -1;
    if (t->n_inputs >= 0)
        FAIL("/inputs is already written");
    if (n_inputs < 0 || (n_inputs > 0 && (dims == NULL || inputs == NULL)))
        FAIL("trace_write_inputs: bad arguments (%d inputs)", n_inputs);
    size_t nd = (size_t)n_inputs * (size_t)t->n_dims, ni = n_inputs > 0 ? (size_t)n_inputs : 1;
    if ((t->dims = malloc((nd > 0 ? nd : 1) * sizeof *t->dims)) == NULL ||
        (t->inputs = malloc(ni * sizeof *t->inputs)) == NULL)
        FAIL("out of memory for %d inputs", n_inputs);
    if (n_inputs > 0) {
        memcpy(t->dims, dims, nd * sizeof *t->dims);
        memcpy(t->inputs, inputs, (size_t)n_inputs * sizeof *t->inputs);
    }

    if (write_fixed_pair(t, "/dims", H5T_STD_I64LE, H5T_NATIVE_INT64, dims, t->dim_names, t->n_dims, &input_layout,
                         t->mt_input, inputs, n_inputs, &t->d_inputs) < 0)
        goto out;
    t->n_inputs = n_inputs;
    if (build_run_index(t) < 0)
        goto out;
    rc = 0;
out:
    return rc;
}

/* Write `count` elements of memtype from buf at [start, start+count) of 1-D dataset d (no extent change). */
static int write_rows(struct trace *t, hid_t d, const char *name, hid_t memtype, hsize_t start, hsize_t count,
                      const void *buf)
{
    int rc = -1;
    hid_t fs = H5I_INVALID_HID, ms = H5I_INVALID_HID;
    H5TRY(fs = H5Dget_space(d), "cannot write %s", name);
    H5TRY(H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL, &count, NULL), "cannot write %s", name);
    H5TRY(ms = H5Screate_simple(1, &count, NULL), "cannot write %s", name);
    H5TRY(H5Dwrite(d, memtype, ms, fs, H5P_DEFAULT, buf), "cannot write %s rows %llu..%llu", name,
          (unsigned long long)start, (unsigned long long)(start + count - 1));
    rc = 0;
out:
    close_id(&ms);
    close_id(&fs);
    return rc;
}

int trace_update_config(struct trace *t, int config, const struct trace_config *c)
{
    if (check_writable(t, "trace_update_config") < 0)
        return -1;
    if (config < 0 || config >= t->n_configs || c == NULL)
        return tc_seterr("%s: trace_update_config: configuration %d is outside /configs (0..%d)", t->path, config,
                         t->n_configs - 1);
    if (c->status < 0 || c->status >= TRACE_N_STATUS)
        return tc_seterr("%s: configuration %d: status %d is not a known status (0..%d)", t->path, config,
                         c->status, TRACE_N_STATUS - 1);
    if (write_rows(t, t->d_configs, "/configs", t->mt_config, (hsize_t)config, 1, c) < 0)
        return -1;
    if (H5Fflush(t->file, H5F_SCOPE_LOCAL) < 0) {
        h5fail(t->path, "H5Fflush()", "cannot flush after updating /configs");
        return -1;
    }
    t->configs[config] = *c;
    return 0;
}

int trace_update_input(struct trace *t, int input, const struct trace_input *in)
{
    if (check_writable(t, "trace_update_input") < 0)
        return -1;
    if (input < 0 || input >= t->n_inputs || in == NULL)
        return tc_seterr("%s: trace_update_input: input %d is outside /inputs (0..%d)", t->path, input,
                         t->n_inputs - 1);
    if (write_rows(t, t->d_inputs, "/inputs", t->mt_input, (hsize_t)input, 1, in) < 0)
        return -1;
    if (H5Fflush(t->file, H5F_SCOPE_LOCAL) < 0) {
        h5fail(t->path, "H5Fflush()", "cannot flush after updating /inputs");
        return -1;
    }
    t->inputs[input] = *in;
    return 0;
}

/* Refuse an append that may not fit: HDF5 cannot undo a failed write, and once it has recorded an end of file
 * past what the disk took, the whole file is unreadable ("truncated file"; tests/test-trace.c,
 * test_trace_disk_full_keeps_a_valid_file). Checks the file system's free space and RLIMIT_FSIZE, with a margin
 * for a new chunk of /exec_ns and of /runs and metadata. Another process can still fill the disk in between. */
static int check_space(struct trace *t, size_t n_exec)
{
    double need = (double)n_exec * 8.0 + 2.0 * EXEC_CHUNK * 8 + RUNS_CHUNK * sizeof(struct trace_run) + 262144;
    struct statvfs fs;
    struct stat st;
    struct rlimit lim;
    if (statvfs(t->path, &fs) == 0 && (double)fs.f_bavail * (double)fs.f_frsize < need)
        return tc_seterr("%s: cannot append a run of %zu executions: %.1f MiB free on its file system, %.1f MiB "
                         "needed (nothing was written; free space, then resume)",
                         t->path, n_exec, (double)fs.f_bavail * (double)fs.f_frsize / 1048576.0, need / 1048576.0);
    if (getrlimit(RLIMIT_FSIZE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY && stat(t->path, &st) == 0 &&
        (double)st.st_size + need > (double)lim.rlim_cur)
        return tc_seterr("%s: cannot append a run of %zu executions: the file size limit (ulimit -f) is %.1f MiB, "
                         "the file would grow past it (nothing was written)",
                         t->path, n_exec, (double)lim.rlim_cur / 1048576.0);
    return 0;
}

int trace_append_run(struct trace *t, const struct trace_run *run, const uint64_t *exec_ns, size_t n_exec)
{
    int rc = -1, runs_extended = 0;
    struct trace_run row;
    hsize_t ext;
    if (check_writable(t, "trace_append_run") < 0)
        return -1;
    if (run == NULL || (n_exec > 0 && exec_ns == NULL))
        FAIL("trace_append_run: run and exec_ns are required");
    if (t->n_configs < 0 || t->n_inputs < 0)
        FAIL("trace_append_run: write /configs and /inputs first");
    if (run->input < 0 || run->input >= t->n_inputs)
        FAIL("appended run: input %d is outside /inputs (0..%d)", run->input, t->n_inputs - 1);
    if (run->config < 0 || run->config >= t->n_configs)
        FAIL("appended run: config %d is outside /configs (0..%d)", run->config, t->n_configs - 1);
    if (run->status < 0 || run->status >= TRACE_N_STATUS)
        FAIL("appended run: status %d is not a known status (0..%d)", run->status, TRACE_N_STATUS - 1);
    if (run->n_estimate < 0 || run->n_warmup < 0 || run->n_timed < 0)
        FAIL("appended run: negative count (n_estimate %d, n_warmup %d, n_timed %d)", run->n_estimate,
             run->n_warmup, run->n_timed);
    if ((size_t)run->n_estimate + (size_t)run->n_warmup + (size_t)run->n_timed != n_exec)
        FAIL("appended run: n_estimate + n_warmup + n_timed = %zu but %zu executions were given",
             (size_t)run->n_estimate + (size_t)run->n_warmup + (size_t)run->n_timed, n_exec);
    if (run->status == TRACE_OK) {
        if (!isfinite(run->wall_ms) || run->wall_ms <= 0)
            FAIL("appended run (input %d, config %d, status ok): wall_ms %g is not a positive, finite duration",
                 run->input, run->config, run->wall_ms);
        for (size_t i = 0; i < n_exec; i++)
            if (exec_ns[i] == 0 || exec_ns[i] >= EXEC_NS_LIMIT)
                FAIL("appended run (input %d, config %d, status ok): execution %zu has duration %" PRIu64
                     " ns; a status-0 run needs every duration > 0 and < 2^63 (record it with a failure "
                     "status instead)",
                     run->input, run->config, i, exec_ns[i]);
    }
    /* Memory first, so that a failed allocation leaves the file as it was. */
    if (reserve(t, t->n_runs + 1, t->n_exec + n_exec + 1) < 0)
        goto out;
    if (check_space(t, n_exec) < 0)
        goto out;
    row = *run;
    row.exec_offset = (int64_t)t->n_exec;

    /* Executions, flush, then the run row that makes them reachable, flush. A process killed between the two
     * leaves values past the last run's end, which readers ignore and resumed writers overwrite. Within a flush
     * HDF5 writes raw data before the metadata that makes it visible. */
    if (n_exec > 0) {
        ext = (hsize_t)(t->n_exec + n_exec);
        H5TRY(H5Dset_extent(t->d_exec, &ext), "cannot extend /exec_ns to %llu values", (unsigned long long)ext);
        if (write_rows(t, t->d_exec, "/exec_ns", H5T_NATIVE_UINT64, (hsize_t)t->n_exec, (hsize_t)n_exec,
                       exec_ns) < 0)
            goto out;
        if (!t->no_run_flush)
            H5TRY(H5Fflush(t->file, H5F_SCOPE_LOCAL), "cannot flush the appended executions");
    }
    ext = (hsize_t)(t->n_runs + 1);
    H5TRY(H5Dset_extent(t->d_runs, &ext), "cannot extend /runs to %llu rows", (unsigned long long)ext);
    runs_extended = 1;
    if (write_rows(t, t->d_runs, "/runs", t->mt_run, (hsize_t)t->n_runs, 1, &row) < 0)
        goto out;
    if (!t->no_run_flush)
        H5TRY(H5Fflush(t->file, H5F_SCOPE_LOCAL), "cannot flush the appended run");
    runs_extended = 0;

    if (n_exec > 0)
        memcpy(t->exec + t->n_exec, exec_ns, n_exec * sizeof *exec_ns);
    t->runs[t->n_runs] = row;
    t->valid[t->n_runs] = run_is_valid(&row, t->exec + t->n_exec);
    t->run_index[(size_t)row.input * (size_t)t->n_configs + (size_t)row.config] = (long)t->n_runs;
    t->n_runs++;
    t->n_exec += n_exec;
    rc = 0;
out:
    if (runs_extended) {
        /* The row may not be in the file (disk full?): shrink /runs back, so that no row of fill values (a
         * status-0 run with wall_ms 0, which readers refuse) is left in it. Best effort; the message stays. */
        ext = (hsize_t)t->n_runs;
        (void)H5Dset_extent(t->d_runs, &ext);
        (void)H5Fflush(t->file, H5F_SCOPE_LOCAL);
        (void)H5Eclear2(H5E_DEFAULT);
    }
    return rc;
}

int trace_set_compile_log(struct trace *t, int config, const char *log)
{
    int rc = -1;
    hid_t st = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    char **empty = NULL, *copy = NULL;
    if (check_writable(t, "trace_set_compile_log") < 0)
        return -1;
    if (config < 0 || config >= t->n_configs)
        FAIL("trace_set_compile_log: configuration %d is outside /configs (0..%d)", config, t->n_configs - 1);
    if ((copy = strdup(log != NULL ? log : "")) == NULL)
        FAIL("out of memory");
    H5TRY(st = vlen_str_type(), "cannot write /compile_log");
    if (t->d_log < 0) {
        hsize_t n = (hsize_t)t->n_configs;
        if ((empty = calloc((size_t)t->n_configs, sizeof *empty)) == NULL)
            FAIL("out of memory");
        for (int i = 0; i < t->n_configs; i++)
            empty[i] = (char *)"";
        H5TRY(sp = H5Screate_simple(1, &n, NULL), "cannot create /compile_log");
        H5TRY(t->d_log = H5Dcreate2(t->file, "/compile_log", st, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
              "cannot create /compile_log");
        H5TRY(H5Dwrite(t->d_log, st, H5S_ALL, H5S_ALL, H5P_DEFAULT, empty), "cannot write /compile_log");
    }
    if (write_rows(t, t->d_log, "/compile_log", st, (hsize_t)config, 1, &copy) < 0)
        goto out;
    H5TRY(H5Fflush(t->file, H5F_SCOPE_LOCAL), "cannot flush after writing /compile_log");
    free(t->logs[config]);
    t->logs[config] = copy;
    copy = NULL;
    rc = 0;
out:
    free(copy);
    free(empty);
    close_id(&sp);
    close_id(&st);
    return rc;
}

int trace_write_compile_warmup(struct trace *t, const double *warmup_ms, int n_workers)
{
    int rc = -1;
    double *copy = NULL;
    hsize_t n = (hsize_t)(n_workers > 0 ? n_workers : 0);
    if (check_writable(t, "trace_write_compile_warmup") < 0)
        return -1;
    if (n_workers < 0 || (n_workers > 0 && warmup_ms == NULL))
        FAIL("trace_write_compile_warmup: bad worker count %d", n_workers);
    if ((copy = malloc((n ? n : 1) * sizeof *copy)) == NULL)
        FAIL("out of memory");
    if (n > 0)
        memcpy(copy, warmup_ms, n * sizeof *copy);
    if (t->d_warmup < 0 &&
        (t->d_warmup = create_extendible(t, "/compile_warmup_ms", H5T_IEEE_F64LE, WARMUP_CHUNK, 0)) < 0)
        goto out;
    H5TRY(H5Dset_extent(t->d_warmup, &n), "cannot resize /compile_warmup_ms");
    if (n > 0 && write_rows(t, t->d_warmup, "/compile_warmup_ms", H5T_NATIVE_DOUBLE, 0, n, warmup_ms) < 0)
        goto out;
    H5TRY(H5Fflush(t->file, H5F_SCOPE_LOCAL), "cannot flush after writing /compile_warmup_ms");
    free(t->warmup_ms);
    t->warmup_ms = copy;
    t->n_warmup = n_workers;
    copy = NULL;
    rc = 0;
out:
    free(copy);
    return rc;
}

/* ---- reading ---------------------------------------------------------------------------------------------- */

/* Open dataset `name`, which must exist, with the given rank and type class; dims receives its shape. */
static hid_t open_dataset(struct trace *t, const char *name, int rank, H5T_class_t cls, hsize_t *dims)
{
    hid_t d = H5I_INVALID_HID, sp = H5I_INVALID_HID, ft = H5I_INVALID_HID;
    htri_t e;
    int ok = 0, r;
    static const char *const class_names[] = {"integer", "float", "time", "string", "bitfield", "opaque",
                                              "compound", "reference", "enum", "vlen", "array"};
    H5TRY(e = H5Lexists(t->file, name, H5P_DEFAULT), "cannot look up %s", name);
    if (e == 0)
        FAIL("missing dataset %s", name);
    H5TRY(d = H5Dopen2(t->file, name, H5P_DEFAULT), "cannot open %s", name);
    H5TRY(sp = H5Dget_space(d), "cannot read the shape of %s", name);
    H5TRY(ft = H5Dget_type(d), "cannot read the type of %s", name);
    r = H5Sget_simple_extent_ndims(sp);
    if (H5Tget_class(ft) != cls || r != rank)
        FAIL("%s must be a %d-D %s dataset (found a %d-D %s one)", name, rank, class_names[cls], r,
             (int)H5Tget_class(ft) >= 0 && (int)H5Tget_class(ft) < (int)N_OF(class_names)
                 ? class_names[H5Tget_class(ft)]
                 : "unknown");
    H5TRY(H5Sget_simple_extent_dims(sp, dims, NULL), "cannot read the shape of %s", name);
    ok = 1;
out:
    close_id(&ft);
    close_id(&sp);
    if (!ok)
        close_id(&d);
    return d;
}

/* Check that compound dataset d has every member of the layout, each numeric (extra members are fine). */
static int check_members(struct trace *t, hid_t d, const struct layout *l)
{
    int rc = -1;
    hid_t ft = H5I_INVALID_HID;
    H5TRY(ft = H5Dget_type(d), "cannot read the type of %s", l->dataset);
    for (size_t i = 0; i < l->n_members; i++) {
        int idx = H5Tget_member_index(ft, l->members[i].name);
        if (idx < 0 && l->members[i].optional) {
            (void)H5Eclear2(H5E_DEFAULT);
            continue;
        }
        if (idx < 0) {
            (void)H5Eclear2(H5E_DEFAULT);
            FAIL("%s lacks the member '%s'", l->dataset, l->members[i].name);
        }
        H5T_class_t c = H5Tget_member_class(ft, (unsigned)idx);
        if (c != H5T_INTEGER && c != H5T_FLOAT)
            FAIL("%s member '%s' must be numeric", l->dataset, l->members[i].name);
    }
    rc = 0;
out:
    close_id(&ft);
    return rc;
}

static int read_meta(struct trace *t)
{
    hid_t root = t->file;
    char format[64];
    int64_t version = 0;
    struct trace_meta *m = &t->meta;
    htri_t e = H5Aexists(root, "format");
    if (e < 0) {
        h5fail(t->path, "H5Aexists()", "cannot read the root attributes");
        return -1;
    }
    if (e == 0)
        return tc_seterr("%s: not a tunecost trace (no root attribute 'format')", t->path);
    if (attr_read_str(t, root, "the root group", "format", format, sizeof format) < 0)
        return -1;
    if (strcmp(format, TRACE_FORMAT_NAME) != 0)
        return tc_seterr("%s: not a tunecost trace (format is '%s', expected '%s')", t->path, format,
                         TRACE_FORMAT_NAME);
    if (attr_read_num(t, root, "the root group", "format_version", H5T_NATIVE_INT64, &version) < 0)
        return -1;
    if (version > TRACE_FORMAT_VERSION)
        return tc_seterr("%s: format_version %lld is newer than this tunecost understands (%d)", t->path,
                         (long long)version, TRACE_FORMAT_VERSION);
    if (version < 1)
        return tc_seterr("%s: format_version %lld is not valid (this tunecost reads version %d)", t->path,
                         (long long)version, TRACE_FORMAT_VERSION);
    const struct {
        const char *name;
        char *buf;
        size_t len;
    } strs[] = {
        {"generator", m->generator, sizeof m->generator},
        {"created_utc", m->created_utc, sizeof m->created_utc},
        {"kernel", m->kernel, sizeof m->kernel},
        {"device_name", m->device_name, sizeof m->device_name},
        {"timer", m->timer, sizeof m->timer},
        {"protocol", m->protocol, sizeof m->protocol},
    };
    for (size_t i = 0; i < N_OF(strs); i++)
        if (attr_read_str(t, root, "the root group", strs[i].name, strs[i].buf, strs[i].len) < 0)
            return -1;
    const struct {
        const char *name;
        hid_t type;
        void *out;
    } nums[] = {
        {"device_cc", H5T_NATIVE_INT32, &m->device_cc},
        {"device_sms", H5T_NATIVE_INT32, &m->device_sms},
        {"device_l2_bytes", H5T_NATIVE_INT64, &m->device_l2_bytes},
        {"driver_version", H5T_NATIVE_INT32, &m->driver_version},
        {"cuda_version", H5T_NATIVE_INT32, &m->cuda_version},
        {"warmup_ms", H5T_NATIVE_DOUBLE, &m->warmup_ms},
        {"rep_ms", H5T_NATIVE_DOUBLE, &m->rep_ms},
        {"flush_bytes", H5T_NATIVE_INT64, &m->flush_bytes},
        {"compile_jobs", H5T_NATIVE_INT32, &m->compile_jobs},
        {"seed", H5T_NATIVE_UINT64, &m->seed},
    };
    for (size_t i = 0; i < N_OF(nums); i++)
        if (attr_read_num(t, root, "the root group", nums[i].name, nums[i].type, nums[i].out) < 0)
            return -1;
    return 0;
}

static int check_rows_stored(struct trace *t, hid_t d, const char *name, hsize_t rows);

/* /params + names (table = "/params", n_rows = configs) or /dims + names. */
static int read_table(struct trace *t, const char *name, hid_t memtype, size_t elem, void **data, hsize_t *rows,
                      char ***names, int *n_names)
{
    int rc = -1;
    hid_t d = H5I_INVALID_HID, a = H5I_INVALID_HID, ft = H5I_INVALID_HID;
    hsize_t dims[2] = {0, 0};
    double *wide = NULL;
    char what[64];
    snprintf(what, sizeof what, "attribute 'names' of %s", name);
    if ((d = open_dataset(t, name, 2, H5T_INTEGER, dims)) < 0)
        goto out;
    if (attr_open(t, d, name, "names", &a) < 0)
        goto out;
    if (read_strs(t, a, 1, what, names, n_names) < 0)
        goto out;
    if ((hsize_t)*n_names != dims[1])
        FAIL("%s has %llu columns but its attribute 'names' lists %d", name, (unsigned long long)dims[1],
             *n_names);
    if (dims[1] < 1)
        FAIL("%s has no columns", name);
    if (dims[0] > (hsize_t)INT_MAX)
        FAIL("%s has too many rows (%llu)", name, (unsigned long long)dims[0]);
    if (check_rows_stored(t, d, name, dims[0]) < 0)
        goto out;
    if ((*data = malloc((size_t)(dims[0] * dims[1] > 0 ? dims[0] * dims[1] : 1) * elem)) == NULL)
        FAIL("out of memory reading %s", name);
    if (dims[0] > 0)
        H5TRY(H5Dread(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, *data), "cannot read %s", name);
    if (dims[0] > 0 && elem == sizeof(int32_t)) {
        /* int32 in the spec: a wider stored value would have been saturated by the conversion above */
        size_t n = (size_t)(dims[0] * dims[1]);
        H5TRY(ft = H5Dget_type(d), "cannot read the type of %s", name);
        if (H5Tget_size(ft) > 4 || (H5Tget_size(ft) == 4 && H5Tget_sign(ft) == H5T_SGN_NONE)) {
            if ((wide = malloc(n * sizeof *wide)) == NULL)
                FAIL("out of memory reading %s", name);
            H5TRY(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, wide), "cannot read %s", name);
            for (size_t i = 0; i < n; i++)
                if (wide[i] < (double)INT32_MIN || wide[i] > (double)INT32_MAX)
                    FAIL("%s row %zu column %zu: %.17g is outside the range of int32", name, i / (size_t)dims[1],
                         i % (size_t)dims[1], wide[i]);
        }
    }
    *rows = dims[0];
    rc = 0;
out:
    if (rc != 0) {
        free(*data);
        *data = NULL;
    }
    free(wide);
    close_id(&ft);
    close_id(&a);
    close_id(&d);
    return rc;
}

/* Refuse a dataset that declares more rows than its file holds: a chunked dataset whose chunks were never
 * written past some row (they would read as fill values; 91 KB could declare 10^8 rows and make the reader
 * allocate gigabytes first) or a contiguous one whose storage is shorter than its shape. Cheap: it asks HDF5 for
 * the allocated chunks and the storage size, reads nothing. */
static int check_rows_stored(struct trace *t, hid_t d, const char *name, hsize_t rows)
{
    int rc = -1;
    hid_t dcpl = H5I_INVALID_HID, ft = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    if (rows == 0)
        return 0;
    H5TRY(dcpl = H5Dget_create_plist(d), "cannot read the layout of %s", name);
    H5D_layout_t layout = H5Pget_layout(dcpl);
    if (layout == H5D_CHUNKED) {
        hsize_t chunk = 0, n_chunks = 0;
        if (H5Pget_chunk(dcpl, 1, &chunk) != 1 || chunk == 0)
            FAIL("cannot read the chunk size of %s", name);
        H5TRY(sp = H5Dget_space(d), "cannot read the shape of %s", name);
        H5TRY(H5Dget_num_chunks(d, sp, &n_chunks), "cannot count the chunks of %s", name);
        hsize_t need = (rows + chunk - 1) / chunk;
        if (n_chunks < need)
            FAIL("%s declares %llu rows but only %llu chunks of %llu rows are stored (%llu needed): rows that were "
                 "never written",
                 name, (unsigned long long)rows, (unsigned long long)n_chunks, (unsigned long long)chunk,
                 (unsigned long long)need);
    } else if (layout == H5D_CONTIGUOUS) {
        size_t elem;
        H5TRY(ft = H5Dget_type(d), "cannot read the type of %s", name);
        elem = H5Tget_size(ft);
        if (elem > 0 && H5Dget_storage_size(d) / elem < rows)
            FAIL("%s declares %llu rows but its storage holds %llu", name, (unsigned long long)rows,
                 (unsigned long long)(H5Dget_storage_size(d) / elem));
    }
    rc = 0;
out:
    close_id(&sp);
    close_id(&ft);
    close_id(&dcpl);
    return rc;
}

/* Integer members stored as floats, as wider integers or as unsigned ones would be saturated or truncated by
 * HDF5's conversion (int64 2^40 -> 2147483647, float 0.7 -> 0): read each such member on its own, exactly, and
 * refuse a value that is not an integer in the range of the member's type. Members stored as the spec says cost
 * nothing. */
static int check_int_members(struct trace *t, hid_t d, const struct layout *l, hsize_t rows)
{
    int rc = -1;
    hid_t ft = H5I_INVALID_HID, mt = H5I_INVALID_HID, mft = H5I_INVALID_HID;
    double *buf = NULL;
    if (rows == 0)
        return 0;
    H5TRY(ft = H5Dget_type(d), "cannot read the type of %s", l->dataset);
    for (size_t i = 0; i < l->n_members; i++) {
        const struct member *m = &l->members[i];
        if (m->kind == M_F64)
            continue;
        int idx = H5Tget_member_index(ft, m->name);
        if (idx < 0)
            continue; /* check_members reported it */
        H5TRY(mft = H5Tget_member_type(ft, (unsigned)idx), "cannot read the type of %s", l->dataset);
        H5T_class_t c = H5Tget_class(mft);
        size_t size = H5Tget_size(mft), want = m->kind == M_I32 ? 4 : 8;
        int uns = c == H5T_INTEGER && H5Tget_sign(mft) == H5T_SGN_NONE;
        close_id(&mft);
        if (c == H5T_INTEGER && (size < want || (size == want && !uns)))
            continue; /* converts exactly */
        /* Read the member as long double would be exact for every int64; double is exact up to 2^53, far past
         * int32 and past every offset a file can hold, and for int64 members stored as uint64 a value >= 2^63
         * rounds to >= 2^63 and is refused all the same. */
        if (buf == NULL && (buf = malloc((size_t)rows * sizeof *buf)) == NULL)
            FAIL("out of memory checking %s", l->dataset);
        H5TRY(mt = H5Tcreate(H5T_COMPOUND, sizeof(double)), "cannot read %s", l->dataset);
        H5TRY(H5Tinsert(mt, m->name, 0, H5T_NATIVE_DOUBLE), "cannot read %s", l->dataset);
        H5TRY(H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf), "cannot read %s", l->dataset);
        close_id(&mt);
        double lo = m->kind == M_I32 ? (double)INT32_MIN : -9223372036854775808.0;
        double hi = m->kind == M_I32 ? (double)INT32_MAX : 9223372036854775807.0;
        for (hsize_t r = 0; r < rows; r++)
            if (!isfinite(buf[r]) || buf[r] != floor(buf[r]) || buf[r] < lo || buf[r] >= hi + (m->kind == M_I32))
                FAIL("%s row %llu: member '%s' is %.17g, not an integer in the range of its type (%s)", l->dataset,
                     (unsigned long long)r, m->name, buf[r], m->kind == M_I32 ? "int32" : "int64");
    }
    rc = 0;
out:
    free(buf);
    close_id(&mft);
    close_id(&mt);
    close_id(&ft);
    return rc;
}

/* A compound dataset of the layout: opened (kept in *dp if dp != NULL), members checked, rows read. */
static int read_compound(struct trace *t, const struct layout *l, hid_t memtype, hsize_t expect_rows,
                         void **data, hsize_t *rows, hid_t *dp)
{
    int rc = -1;
    hid_t d = H5I_INVALID_HID, ft = H5I_INVALID_HID, mt = H5I_INVALID_HID;
    hsize_t dim = 0;
    if ((d = open_dataset(t, l->dataset, 1, H5T_COMPOUND, &dim)) < 0)
        goto out;
    if (check_members(t, d, l) < 0)
        goto out;
    if (expect_rows != (hsize_t)-1 && dim != expect_rows)
        FAIL("%s has %llu rows but %s has %llu", l->dataset, (unsigned long long)dim,
             l == &config_layout ? "/params" : "/dims", (unsigned long long)expect_rows);
    if (dim > (hsize_t)(SIZE_MAX / l->size))
        FAIL("%s has too many rows (%llu)", l->dataset, (unsigned long long)dim);
    if (check_rows_stored(t, d, l->dataset, dim) < 0 || check_int_members(t, d, l, dim) < 0)
        goto out;
    if ((*data = calloc((size_t)(dim ? dim : 1), l->size)) == NULL) /* absent optional members read as 0 */
        FAIL("out of memory for %llu rows of %s", (unsigned long long)dim, l->dataset);
    H5TRY(ft = H5Dget_type(d), "cannot read the type of %s", l->dataset);
    H5TRY(mt = layout_type_in(l, 0, ft), "cannot make the memory type of %s", l->dataset);
    (void)memtype;
    if (dim > 0)
        H5TRY(H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, *data), "cannot read %s", l->dataset);
    *rows = dim;
    if (dp != NULL) {
        *dp = d;
        d = H5I_INVALID_HID;
    }
    rc = 0;
out:
    if (rc != 0) {
        free(*data);
        *data = NULL;
    }
    close_id(&mt);
    close_id(&ft);
    close_id(&d);
    return rc;
}

/* ---- the fast path for /exec_ns: compressed chunks read raw, inflated and unshuffled by several threads ---- */

#ifdef TC_HAVE_ZLIB
struct chunk_job {
    const unsigned char *src; /* the stored (filtered) chunk; NULL: never written, reads as `fill` */
    uint64_t fill;            /* the dataset's fill value */
    size_t src_len;
    uint32_t skipped;         /* HDF5 filter mask: bit 0 shuffle, bit 1 deflate skipped for this chunk */
    uint64_t *dst;            /* where the chunk's first value goes */
    size_t n_keep;            /* values to keep (the last chunk extends past the data) */
    int zerr;                 /* 0, or the zlib error */
};

struct chunk_worker {
    pthread_t thread;
    struct chunk_job *jobs;
    size_t n_jobs, first, stride, chunk_values;
    int failed; /* could not allocate its buffer */
};

/* Undo HDF5's byte shuffle of 8-byte little-endian values: byte b of value i is src[b * n + i]. */
static void unshuffle8(const unsigned char *src, size_t n, uint64_t *dst, size_t keep)
{
    const uint16_t probe = 1;
    if (*(const unsigned char *)&probe == 1) { /* little-endian host: scatter each byte plane in place */
        unsigned char *d = (unsigned char *)dst;
        for (unsigned b = 0; b < 8; b++) {
            const unsigned char *plane = src + (size_t)b * n;
            for (size_t i = 0; i < keep; i++)
                d[i * 8 + b] = plane[i];
        }
        return;
    }
    for (size_t i = 0; i < keep; i++) {
        uint64_t v = 0;
        for (unsigned b = 0; b < 8; b++)
            v |= (uint64_t)src[b * n + i] << (8 * b);
        dst[i] = v;
    }
}

static void *chunk_worker_run(void *arg)
{
    struct chunk_worker *w = arg;
    size_t bytes = w->chunk_values * 8;
    unsigned char *buf = malloc(bytes);
    if (buf == NULL) {
        w->failed = 1;
        return NULL;
    }
    for (size_t j = w->first; j < w->n_jobs; j += w->stride) {
        struct chunk_job *job = &w->jobs[j];
        const unsigned char *data = job->src;
        if (data == NULL) {
            for (size_t i = 0; i < job->n_keep; i++)
                job->dst[i] = job->fill;
            continue;
        }
        if (!(job->skipped & 2)) {
            uLongf out = (uLongf)bytes;
            int z = uncompress(buf, &out, job->src, (uLong)job->src_len);
            if (z != Z_OK || out != bytes) {
                job->zerr = z != Z_OK ? z : Z_DATA_ERROR;
                continue;
            }
            data = buf;
        } else if (job->src_len != bytes) {
            job->zerr = Z_DATA_ERROR;
            continue;
        }
        if (!(job->skipped & 1))
            unshuffle8(data, w->chunk_values, job->dst, job->n_keep);
        else
            for (size_t i = 0; i < job->n_keep; i++) { /* stored little-endian */
                uint64_t v = 0;
                for (unsigned b = 0; b < 8; b++)
                    v |= (uint64_t)data[i * 8 + b] << (8 * b);
                job->dst[i] = v;
            }
    }
    free(buf);
    return NULL;
}

/* Read /exec_ns[0, end) into t->exec when it is stored as this library writes it (uint64 LE, 1-D chunks, byte
 * shuffle then deflate): HDF5 reads the stored chunks one by one, then up to 16 threads inflate them (zlib still
 * checks every chunk's Adler-32). About 57% of a load was inflate in one thread (perf, 10^7 executions).
 * Returns 1 when done, 0 when the dataset is stored otherwise (the caller uses H5Dread), -1 on error. */
static int read_exec_fast(struct trace *t, hsize_t end)
{
    int rc = -1;
    hid_t dcpl = H5I_INVALID_HID, ft = H5I_INVALID_HID;
    hsize_t chunk = 0;
    unsigned flags = 0;
    size_t nelmts = 0;
    unsigned cd[8];
    unsigned char *arena = NULL;
    struct chunk_job *jobs = NULL;
    struct chunk_worker workers[16];
    H5TRY(dcpl = H5Dget_create_plist(t->d_exec), "cannot read the layout of /exec_ns");
    H5TRY(ft = H5Dget_type(t->d_exec), "cannot read the type of /exec_ns");
    nelmts = N_OF(cd);
    if (H5Pget_layout(dcpl) != H5D_CHUNKED || H5Pget_chunk(dcpl, 1, &chunk) != 1 || chunk < 2 ||
        H5Pget_nfilters(dcpl) != 2 || H5Tequal(ft, H5T_STD_U64LE) <= 0 ||
        H5Pget_filter2(dcpl, 0, &flags, &nelmts, cd, 0, NULL, NULL) != H5Z_FILTER_SHUFFLE ||
        (nelmts = N_OF(cd), H5Pget_filter2(dcpl, 1, &flags, &nelmts, cd, 0, NULL, NULL)) != H5Z_FILTER_DEFLATE ||
        chunk > (hsize_t)(SIZE_MAX / 8 / 64)) {
        (void)H5Eclear2(H5E_DEFAULT);
        rc = 0;
        goto out;
    }
    /* TC_TRACE_THREADS: how many threads inflate (default: the online CPUs, at most 16); 0 reads through
     * H5Dread alone (for comparison and as an escape hatch). */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const char *env = getenv("TC_TRACE_THREADS");
    if (env != NULL && env[0] != '\0') {
        char *e = NULL;
        long v = strtol(env, &e, 10);
        if (*e == '\0' && v >= 0 && v <= 1024)
            cpus = v;
        if (cpus == 0) {
            rc = 0;
            goto out;
        }
    }
    uint64_t fill = 0;
    H5D_fill_value_t fill_state = H5D_FILL_VALUE_DEFAULT;
    H5TRY(H5Pfill_value_defined(dcpl, &fill_state), "cannot read the fill value of /exec_ns");
    if (fill_state == H5D_FILL_VALUE_USER_DEFINED)
        H5TRY(H5Pget_fill_value(dcpl, H5T_NATIVE_UINT64, &fill), "cannot read the fill value of /exec_ns");
    size_t n_threads = cpus < 1 ? 1 : cpus > 16 ? 16 : (size_t)cpus;
    size_t batch = n_threads * 8, chunk_bytes = (size_t)chunk * 8, n_chunks = (size_t)((end + chunk - 1) / chunk);
    size_t max_stored = chunk_bytes + chunk_bytes / 500 + 64; /* deflate may grow incompressible data by 0.1% */
    if ((jobs = calloc(batch, sizeof *jobs)) == NULL || (arena = malloc(batch * max_stored)) == NULL)
        FAIL("out of memory reading /exec_ns");
    for (size_t first = 0; first < n_chunks; first += batch) {
        size_t n_jobs = n_chunks - first < batch ? n_chunks - first : batch, used = 0;
        for (size_t j = 0; j < n_jobs; j++) {
            hsize_t off = (hsize_t)(first + j) * chunk, stored = 0;
            struct chunk_job *job = &jobs[j];
            memset(job, 0, sizeof *job);
            job->dst = t->exec + off;
            job->n_keep = (size_t)(end - off < chunk ? end - off : chunk);
            haddr_t addr = HADDR_UNDEF;
            unsigned mask = 0;
            /* H5Dget_chunk_storage_size fails on a chunk that was never allocated; this call reports it */
            H5TRY(H5Dget_chunk_info_by_coord(t->d_exec, &off, &mask, &addr, &stored),
                  "cannot read /exec_ns (%llu values)", (unsigned long long)end);
            job->fill = fill;
            if (addr == HADDR_UNDEF || stored == 0)
                continue; /* never written: reads as the fill value, as H5Dread gives it */
            if (stored > max_stored)
                FAIL("cannot read /exec_ns (%llu values): the chunk at value %llu is stored in %llu bytes, more "
                     "than it can hold",
                     (unsigned long long)end, (unsigned long long)off, (unsigned long long)stored);
            H5TRY(H5Dread_chunk(t->d_exec, H5P_DEFAULT, &off, &job->skipped, arena + used),
                  "cannot read /exec_ns (%llu values)", (unsigned long long)end);
            job->src = arena + used;
            job->src_len = (size_t)stored;
            used += (size_t)stored;
        }
        size_t n_w = n_threads < n_jobs ? n_threads : n_jobs, started = 0;
        for (size_t w = 0; w < n_w; w++) {
            workers[w] = (struct chunk_worker){.jobs = jobs, .n_jobs = n_jobs, .first = w, .stride = n_w,
                                               .chunk_values = (size_t)chunk};
            if (w > 0 && pthread_create(&workers[w].thread, NULL, chunk_worker_run, &workers[w]) != 0)
                break; /* fewer threads: the rest of this worker's share is done below by thread 0 */
            started = w + 1;
        }
        if (started < n_w) { /* could not start every thread: one thread takes all the jobs */
            for (size_t w = 1; w < started; w++)
                pthread_join(workers[w].thread, NULL);
            workers[0].stride = 1;
            started = 1;
        }
        chunk_worker_run(&workers[0]);
        for (size_t w = 1; w < started; w++)
            pthread_join(workers[w].thread, NULL);
        for (size_t w = 0; w < started; w++)
            if (workers[w].failed)
                FAIL("out of memory reading /exec_ns");
        for (size_t j = 0; j < n_jobs; j++)
            if (jobs[j].zerr != 0)
                FAIL("cannot read /exec_ns (%llu values): the chunk at value %llu does not inflate (zlib error %d: "
                     "damaged file)",
                     (unsigned long long)end, (unsigned long long)((first + j) * (size_t)chunk), jobs[j].zerr);
    }
    rc = 1;
out:
    free(arena);
    free(jobs);
    close_id(&ft);
    close_id(&dcpl);
    return rc;
}
#else
static int read_exec_fast(struct trace *t, hsize_t end)
{
    (void)t;
    (void)end;
    return 0;
}
#endif

static int read_runs_and_exec(struct trace *t)
{
    int rc = -1;
    hid_t fs = H5I_INVALID_HID, ms = H5I_INVALID_HID;
    hsize_t n_runs = 0, exec_len = 0, end = 0;
    void *runs = NULL;
    if (read_compound(t, &run_layout, t->mt_run, (hsize_t)-1, &runs, &n_runs, &t->d_runs) < 0)
        goto out;
    t->runs = runs;
    t->n_runs = t->cap_runs = (size_t)n_runs;
    if ((t->valid = malloc(n_runs ? (size_t)n_runs : 1)) == NULL)
        FAIL("out of memory for %llu runs", (unsigned long long)n_runs);
    if ((t->d_exec = open_dataset(t, "/exec_ns", 1, H5T_INTEGER, &exec_len)) < 0)
        goto out;

    /* Row checks; the executions actually referenced end at `end`, values past it are ignored. */
    for (size_t r = 0; r < t->n_runs; r++) {
        const struct trace_run *run = &t->runs[r];
        if (run->input < 0 || run->input >= t->n_inputs)
            FAIL("/runs row %zu: input %d is outside /inputs (0..%d)", r, run->input, t->n_inputs - 1);
        if (run->config < 0 || run->config >= t->n_configs)
            FAIL("/runs row %zu: config %d is outside /configs (0..%d)", r, run->config, t->n_configs - 1);
        if (run->status < 0 || run->status >= TRACE_N_STATUS)
            FAIL("/runs row %zu: status %d is not a known status (0..%d)", r, run->status, TRACE_N_STATUS - 1);
        if (run->n_estimate < 0 || run->n_warmup < 0 || run->n_timed < 0)
            FAIL("/runs row %zu: negative count (n_estimate %d, n_warmup %d, n_timed %d)", r, run->n_estimate,
                 run->n_warmup, run->n_timed);
        if (run->exec_offset < 0)
            FAIL("/runs row %zu: exec_offset %lld is negative", r, (long long)run->exec_offset);
        hsize_t count = (hsize_t)run->n_estimate + (hsize_t)run->n_warmup + (hsize_t)run->n_timed;
        if ((hsize_t)run->exec_offset > exec_len || count > exec_len - (hsize_t)run->exec_offset)
            FAIL("/runs row %zu: exec_offset+count %llu exceeds /exec_ns length %llu", r,
                 (unsigned long long)((hsize_t)run->exec_offset + count), (unsigned long long)exec_len);
        if ((hsize_t)run->exec_offset + count > end)
            end = (hsize_t)run->exec_offset + count;
    }

    if (end > (hsize_t)(SIZE_MAX / sizeof(uint64_t)))
        FAIL("/exec_ns: %llu executions do not fit in memory", (unsigned long long)end);
    if ((t->exec = malloc((size_t)(end ? end : 1) * sizeof *t->exec)) == NULL)
        FAIL("out of memory for %llu executions (%.1f MB)", (unsigned long long)end, (double)end * 8e-6);
    t->n_exec = t->cap_exec = (size_t)end;
    int fast = end > 0 ? read_exec_fast(t, end) : 1;
    if (fast < 0)
        goto out;
    if (!fast) {
        hsize_t start = 0;
        H5TRY(fs = H5Dget_space(t->d_exec), "cannot read /exec_ns");
        H5TRY(H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL, &end, NULL), "cannot read /exec_ns");
        H5TRY(ms = H5Screate_simple(1, &end, NULL), "cannot read /exec_ns");
        H5TRY(H5Dread(t->d_exec, H5T_NATIVE_UINT64, ms, fs, H5P_DEFAULT, t->exec),
              "cannot read /exec_ns (%llu values)", (unsigned long long)end);
    }

    for (size_t r = 0; r < t->n_runs; r++) {
        const struct trace_run *run = &t->runs[r];
        const uint64_t *x = t->exec + run->exec_offset;
        size_t count = (size_t)run->n_estimate + (size_t)run->n_warmup + (size_t)run->n_timed;
        if (run->status == TRACE_OK) {
            if (!isfinite(run->wall_ms) || run->wall_ms <= 0)
                FAIL("/runs row %zu (status ok): wall_ms %g is not a positive, finite duration", r, run->wall_ms);
            for (size_t i = 0; i < count; i++) {
                if (x[i] == 0)
                    FAIL("/runs row %zu (status ok): execution %zu of %zu has duration 0 ns; a status-0 run "
                         "needs every duration > 0",
                         r, i, count);
                if (x[i] >= EXEC_NS_LIMIT)
                    FAIL("/runs row %zu (status ok): execution %zu of %zu has duration %" PRIu64 " ns, a negative "
                         "number stored as unsigned",
                         r, i, count, x[i]);
            }
        }
        t->valid[r] = run_is_valid(run, x);
    }
    rc = 0;
out:
    close_id(&ms);
    close_id(&fs);
    return rc;
}

static int read_extras(struct trace *t)
{
    int rc = -1, n = 0;
    htri_t e;
    hsize_t dim = 0;
    char **logs = NULL;
    H5TRY(e = H5Lexists(t->file, "/compile_log", H5P_DEFAULT), "cannot look up /compile_log");
    if (e > 0) {
        if ((t->d_log = open_dataset(t, "/compile_log", 1, H5T_STRING, &dim)) < 0)
            goto out;
        if (read_strs(t, t->d_log, 0, "/compile_log", &logs, &n) < 0)
            goto out;
        if (n != t->n_configs) {
            free_strs(logs, n);
            FAIL("/compile_log has %d entries but /configs has %d", n, t->n_configs);
        }
        free_strs(t->logs, t->n_configs);
        t->logs = logs;
    }
    H5TRY(e = H5Lexists(t->file, "/compile_warmup_ms", H5P_DEFAULT), "cannot look up /compile_warmup_ms");
    if (e > 0) {
        if ((t->d_warmup = open_dataset(t, "/compile_warmup_ms", 1, H5T_FLOAT, &dim)) < 0)
            goto out;
        if (dim > (hsize_t)INT_MAX)
            FAIL("/compile_warmup_ms has too many values (%llu)", (unsigned long long)dim);
        if ((t->warmup_ms = malloc((size_t)(dim ? dim : 1) * sizeof *t->warmup_ms)) == NULL)
            FAIL("out of memory");
        if (dim > 0)
            H5TRY(H5Dread(t->d_warmup, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, t->warmup_ms),
                  "cannot read /compile_warmup_ms");
        t->n_warmup = (int)dim;
    }
    rc = 0;
out:
    return rc;
}

/* 1 if the dataset can grow in place: chunked, unlimited first dimension, no filters; 0 if not; -1 on error. */
static int appendable(struct trace *t, hid_t d, const char *name)
{
    int rc = -1;
    hid_t sp = H5I_INVALID_HID, dcpl = H5I_INVALID_HID;
    hsize_t dim = 0, maxdim = 0;
    H5TRY(sp = H5Dget_space(d), "cannot read the shape of %s", name);
    H5TRY(H5Sget_simple_extent_dims(sp, &dim, &maxdim), "cannot read the shape of %s", name);
    H5TRY(dcpl = H5Dget_create_plist(d), "cannot read the layout of %s", name);
    rc = H5Pget_layout(dcpl) == H5D_CHUNKED && maxdim == H5S_UNLIMITED && H5Pget_nfilters(dcpl) == 0;
out:
    close_id(&dcpl);
    close_id(&sp);
    return rc;
}

/* A writer killed inside a flush can leave metadata pointing at chunks it wrote past the end of file it had
 * recorded (raw data goes out before metadata). Let HDF5 address the whole physical file, so that those chunks
 * read (and a resumed writer allocates past them, instead of failing with "addr overflow"). In memory only;
 * a read-only open leaves the file untouched. */
static void cover_eof(struct trace *t)
{
    struct stat st;
    haddr_t eoa = 0;
    if (stat(t->path, &st) == 0 && H5Fget_eoa(t->file, &eoa) >= 0 && (haddr_t)st.st_size > eoa)
        (void)H5Fincrement_filesize(t->file, 0);
    (void)H5Eclear2(H5E_DEFAULT);
}

static struct trace *trace_load(const char *path, int writable)
{
    struct trace *t = NULL;
    struct stat st;
    htri_t is_h5;
    hid_t fapl = H5I_INVALID_HID;
    hsize_t rows = 0;
    void *buf = NULL;
    int ok = 0;
    if (path == NULL) {
        tc_seterr("trace_open: no path given");
        return NULL;
    }
    if ((t = trace_alloc(path)) == NULL)
        return NULL;
    if (stat(path, &st) != 0)
        FAIL("%s", strerror(errno));
    if (S_ISDIR(st.st_mode))
        FAIL("is a directory, not a trace file");
    {
        FILE *fp = fopen(path, writable ? "r+b" : "rb");
        if (fp == NULL)
            FAIL("cannot open for %s: %s", writable ? "writing" : "reading", strerror(errno));
        fclose(fp);
    }
    if (st.st_size == 0)
        FAIL("not an HDF5 file (empty)");
    H5TRY(is_h5 = H5Fis_hdf5(path), "cannot read");
    if (is_h5 == 0)
        FAIL("not an HDF5 file");
    if (make_mem_types(t) < 0)
        goto out;
    H5TRY(fapl = H5Pcreate(H5P_FILE_ACCESS), "cannot open");
#if H5_VERSION_GE(1, 10, 7)
    /* Readers may look at a trace while a collector appends to it (every append ends with a flush). */
    H5TRY(H5Pset_file_locking(fapl, 0, 1), "cannot open");
#endif
    if ((t->file = H5Fopen(path, H5F_ACC_RDONLY, fapl)) < 0) {
        /* This process may hold the file open already (a writer) with locking on: HDF5 then wants the same
         * locking flags. Retry with the defaults; report the first failure if that fails too. */
        h5fail(t->path, "H5Fopen()", "cannot open the HDF5 file (truncated or damaged? locked by a running writer?)");
        char first[1024];
        snprintf(first, sizeof first, "%s", tc_errmsg());
        if ((t->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0) {
            (void)H5Eclear2(H5E_DEFAULT);
            tc_seterr("%s", first);
            goto out;
        }
    }
    cover_eof(t);
    if (read_meta(t) < 0)
        goto out;

    if (read_table(t, "/params", H5T_NATIVE_INT32, sizeof(int32_t), &buf, &rows, &t->param_names,
                   &t->n_params) < 0)
        goto out;
    t->params = buf;
    buf = NULL;
    if (read_compound(t, &config_layout, t->mt_config, rows, &buf, &rows, &t->d_configs) < 0)
        goto out;
    t->configs = buf;
    buf = NULL;
    t->n_configs = (int)rows;
    if ((t->logs = calloc(rows ? (size_t)rows : 1, sizeof *t->logs)) == NULL)
        FAIL("out of memory");
    for (int i = 0; i < t->n_configs; i++)
        if (t->configs[i].status < 0 || t->configs[i].status >= TRACE_N_STATUS)
            FAIL("/configs row %d: status %d is not a known status (0..%d)", i, t->configs[i].status,
                 TRACE_N_STATUS - 1);

    if (read_table(t, "/dims", H5T_NATIVE_INT64, sizeof(int64_t), &buf, &rows, &t->dim_names, &t->n_dims) < 0)
        goto out;
    t->dims = buf;
    buf = NULL;
    if (read_compound(t, &input_layout, t->mt_input, rows, &buf, &rows, &t->d_inputs) < 0)
        goto out;
    t->inputs = buf;
    buf = NULL;
    t->n_inputs = (int)rows;

    if (read_runs_and_exec(t) < 0 || read_extras(t) < 0 || build_run_index(t) < 0)
        goto out;

    if (writable) {
        int a = appendable(t, t->d_runs, "/runs"), b = a > 0 ? appendable(t, t->d_exec, "/exec_ns") : 0;
        if (a < 0 || b < 0)
            goto out;
        t->append_ready = a && b;
    }
    /* Everything is in memory now; the file is closed (trace_open_append reopens it for writing). */
    close_id(&t->d_configs);
    close_id(&t->d_inputs);
    close_id(&t->d_runs);
    close_id(&t->d_exec);
    close_id(&t->d_log);
    close_id(&t->d_warmup);
    H5TRY(H5Fclose(t->file), "cannot close");
    t->file = H5I_INVALID_HID;
    ok = 1;
out:
    free(buf);
    close_id(&fapl);
    if (!ok) {
        (void)trace_close(t);
        return NULL;
    }
    return t;
}

struct trace *trace_open(const char *path)
{
    /* A trace being appended to by a collector may be caught between two of its writes (measured: 1-3 opens in
     * 150 fail that way). If the file changed while we read it, read it again, up to 5 times. */
    for (int attempt = 1;; attempt++) {
        struct stat before, after;
        int known = path != NULL && stat(path, &before) == 0;
        struct trace *t = trace_load(path, 0);
        if (t != NULL || attempt == 5 || !known || stat(path, &after) != 0 || (before.st_size == after.st_size &&
            before.st_mtim.tv_sec == after.st_mtim.tv_sec && before.st_mtim.tv_nsec == after.st_mtim.tv_nsec))
            return t;
        nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    }
}

/* All runs and executions of src into the (new, empty) trace t in one write each; flushed. */
static int bulk_write(struct trace *t, const struct trace *src)
{
    int rc = -1;
    hsize_t n = (hsize_t)src->n_exec;
    H5TRY(H5Dset_extent(t->d_exec, &n), "cannot extend /exec_ns to %llu values", (unsigned long long)n);
    if (n > 0 && write_rows(t, t->d_exec, "/exec_ns", H5T_NATIVE_UINT64, 0, n, src->exec) < 0)
        goto out;
    n = (hsize_t)src->n_runs;
    H5TRY(H5Dset_extent(t->d_runs, &n), "cannot extend /runs to %llu rows", (unsigned long long)n);
    if (n > 0 && write_rows(t, t->d_runs, "/runs", t->mt_run, 0, n, src->runs) < 0)
        goto out;
    H5TRY(H5Fflush(t->file, H5F_SCOPE_LOCAL), "cannot flush");
    rc = 0;
out:
    return rc;
}

/* Write the whole in-memory trace to a temporary beside t->path and rename it over t->path: compressed (a
 * finished trace) or not (a trace about to be appended to). The file is replaced complete or not at all. */
static int snapshot(struct trace *t, int compress)
{
    int rc = -1;
    char tmp[PATH_MAX];
    struct trace *s = NULL;
    if (tc_atomic_tmpname(t->path, tmp, sizeof tmp) < 0)
        return -1;
    s = create_storage(tmp, &t->meta, (const char *const *)t->param_names, t->n_params,
                       (const char *const *)t->dim_names, t->n_dims, compress);
    if (s == NULL)
        goto out;
    if (trace_write_configs(s, t->n_configs, t->params, t->configs) < 0 ||
        trace_write_inputs(s, t->n_inputs, t->dims, t->inputs) < 0)
        goto out;
    for (int i = 0; i < t->n_configs; i++)
        if (t->logs[i] != NULL && t->logs[i][0] != '\0' && trace_set_compile_log(s, i, t->logs[i]) < 0)
            goto out;
    if (t->warmup_ms != NULL && trace_write_compile_warmup(s, t->warmup_ms, t->n_warmup) < 0)
        goto out;
    for (int p = 0; t->vtab != NULL && t->n_vtab != NULL && p < t->n_params; p++)
        if (t->vtab[p] != NULL && trace_set_param_values(s, p, (const char *const *)t->vtab[p], t->n_vtab[p]) < 0)
            goto out;
    if (bulk_write(s, t) < 0)
        goto out;
    if (trace_close(s) < 0) {
        s = NULL;
        goto out;
    }
    s = NULL;
    if (tc_atomic_rename(tmp, t->path) < 0)
        goto out;
    rc = 0;
out:
    if (s != NULL)
        (void)trace_close(s);
    if (rc != 0) {
        (void)unlink(tmp);
        tc_preferr("%s: cannot rewrite the trace %s", t->path,
                   compress ? "compressed (it is complete, but uncompressed)" : "for appending");
    }
    return rc;
}

/* Open t->path for writing and the datasets a writer updates; trim /exec_ns to the end of the last run. */
static int reopen_rw(struct trace *t)
{
    int rc = -1;
    hsize_t end = (hsize_t)t->n_exec;
    htri_t e;
    H5TRY(t->file = H5Fopen(t->path, H5F_ACC_RDWR, H5P_DEFAULT),
          "cannot open for appending (is another process writing it?)");
    cover_eof(t);
    H5TRY(t->d_configs = H5Dopen2(t->file, "/configs", H5P_DEFAULT), "cannot open /configs");
    H5TRY(t->d_inputs = H5Dopen2(t->file, "/inputs", H5P_DEFAULT), "cannot open /inputs");
    H5TRY(t->d_runs = H5Dopen2(t->file, "/runs", H5P_DEFAULT), "cannot open /runs");
    H5TRY(t->d_exec = H5Dopen2(t->file, "/exec_ns", H5P_DEFAULT), "cannot open /exec_ns");
    H5TRY(e = H5Lexists(t->file, "/compile_log", H5P_DEFAULT), "cannot look up /compile_log");
    if (e > 0)
        H5TRY(t->d_log = H5Dopen2(t->file, "/compile_log", H5P_DEFAULT), "cannot open /compile_log");
    H5TRY(e = H5Lexists(t->file, "/compile_warmup_ms", H5P_DEFAULT), "cannot look up /compile_warmup_ms");
    if (e > 0)
        H5TRY(t->d_warmup = H5Dopen2(t->file, "/compile_warmup_ms", H5P_DEFAULT),
              "cannot open /compile_warmup_ms");
    /* Values past the last run's end (a writer killed between its two writes) are overwritten by appends. */
    H5TRY(H5Dset_extent(t->d_exec, &end), "cannot trim /exec_ns to %llu values", (unsigned long long)end);
    H5TRY(H5Fflush(t->file, H5F_SCOPE_LOCAL), "cannot flush");
    rc = 0;
out:
    return rc;
}

struct trace *trace_open_append(const char *path)
{
    struct trace *t = trace_load(path, 1);
    if (t == NULL)
        return NULL;
    /* A finished (compressed) trace, or one written by another tool, is first rewritten in the layout that
     * appends safely; trace_close() compresses it again. */
    if ((!t->append_ready && snapshot(t, 0) < 0) || reopen_rw(t) < 0) {
        (void)trace_close(t);
        return NULL;
    }
    t->writable = 1;
    t->compress_on_close = 1;
    return t;
}

int trace_close(struct trace *t)
{
    int rc = 0;
    if (t == NULL)
        return 0;
    if (t->compress_on_close && t->file >= 0 && t->n_configs >= 0 && t->n_inputs >= 0) {
        /* Everything is flushed already; close the appendable file and replace it by a compressed copy. */
        t->compress_on_close = 0;
        t->writable = 0;
        close_id(&t->d_configs);
        close_id(&t->d_inputs);
        close_id(&t->d_runs);
        close_id(&t->d_exec);
        close_id(&t->d_log);
        close_id(&t->d_warmup);
        if (H5Fclose(t->file) < 0) {
            h5fail(t->path, "H5Fclose()", "cannot close the trace");
            rc = -1;
        }
        t->file = H5I_INVALID_HID;
        if (rc == 0 && snapshot(t, 1) < 0)
            rc = -1;
    }
    if (t->writable && t->file >= 0 && H5Fflush(t->file, H5F_SCOPE_LOCAL) < 0) {
        h5fail(t->path, "H5Fflush()", "cannot flush the trace on close");
        rc = -1;
    }
    close_id(&t->d_configs);
    close_id(&t->d_inputs);
    close_id(&t->d_runs);
    close_id(&t->d_exec);
    close_id(&t->d_log);
    close_id(&t->d_warmup);
    close_id(&t->mt_config);
    close_id(&t->mt_input);
    close_id(&t->mt_run);
    if (t->file >= 0 && H5Fclose(t->file) < 0 && rc == 0) {
        h5fail(t->path, "H5Fclose()", "cannot close the trace");
        rc = -1;
    }
    t->file = H5I_INVALID_HID;
    for (int p = 0; t->vtab != NULL && t->n_vtab != NULL && p < t->n_params; p++)
        free_strs(t->vtab[p], t->n_vtab[p]);
    free(t->vtab);
    free(t->n_vtab);
    free_strs(t->param_names, t->n_params);
    free_strs(t->dim_names, t->n_dims);
    free_strs(t->logs, t->n_configs > 0 ? t->n_configs : 0);
    free(t->params);
    free(t->configs);
    free(t->dims);
    free(t->inputs);
    free(t->runs);
    free(t->valid);
    free(t->run_index);
    free(t->exec);
    free(t->warmup_ms);
    free(t->path);
    free(t);
    return rc;
}

/* ---- accessors -------------------------------------------------------------------------------------------- */

const char *trace_path(const struct trace *t)
{
    return t->path;
}

const struct trace_meta *trace_get_meta(const struct trace *t)
{
    return &t->meta;
}

int trace_n_params(const struct trace *t)
{
    return t->n_params;
}

const char *trace_param_name(const struct trace *t, int p)
{
    return p >= 0 && p < t->n_params ? t->param_names[p] : NULL;
}

int trace_n_configs(const struct trace *t)
{
    return t->n_configs > 0 ? t->n_configs : 0;
}

const int32_t *trace_params(const struct trace *t, int config)
{
    return config >= 0 && config < t->n_configs ? t->params + (size_t)config * (size_t)t->n_params : NULL;
}

const struct trace_config *trace_config(const struct trace *t, int config)
{
    return config >= 0 && config < t->n_configs ? &t->configs[config] : NULL;
}

const char *trace_compile_log(const struct trace *t, int config)
{
    if (config < 0 || config >= t->n_configs || t->logs == NULL || t->logs[config] == NULL)
        return "";
    return t->logs[config];
}

int trace_n_compile_warmup(const struct trace *t)
{
    return t->n_warmup;
}

const double *trace_compile_warmup(const struct trace *t)
{
    return t->warmup_ms;
}

int trace_n_dims(const struct trace *t)
{
    return t->n_dims;
}

const char *trace_dim_name(const struct trace *t, int d)
{
    return d >= 0 && d < t->n_dims ? t->dim_names[d] : NULL;
}

int trace_n_inputs(const struct trace *t)
{
    return t->n_inputs > 0 ? t->n_inputs : 0;
}

const int64_t *trace_dims(const struct trace *t, int input)
{
    return input >= 0 && input < t->n_inputs ? t->dims + (size_t)input * (size_t)t->n_dims : NULL;
}

const struct trace_input *trace_input(const struct trace *t, int input)
{
    return input >= 0 && input < t->n_inputs ? &t->inputs[input] : NULL;
}

int trace_find_input(const struct trace *t, const int64_t *dims)
{
    for (int i = 0; i < t->n_inputs; i++)
        if (memcmp(t->dims + (size_t)i * (size_t)t->n_dims, dims, (size_t)t->n_dims * sizeof *dims) == 0)
            return i;
    return -1;
}

size_t trace_n_runs(const struct trace *t)
{
    return t->n_runs;
}

const struct trace_run *trace_run(const struct trace *t, size_t r)
{
    return r < t->n_runs ? &t->runs[r] : NULL;
}

long trace_find_run(const struct trace *t, int input, int config)
{
    if (t->run_index == NULL || input < 0 || input >= t->n_inputs || config < 0 || config >= t->n_configs)
        return -1;
    return t->run_index[(size_t)input * (size_t)t->n_configs + (size_t)config];
}

const uint64_t *trace_run_exec(const struct trace *t, size_t r)
{
    return r < t->n_runs ? t->exec + t->runs[r].exec_offset : NULL;
}

const uint64_t *trace_run_timed(const struct trace *t, size_t r)
{
    if (r >= t->n_runs)
        return NULL;
    const struct trace_run *run = &t->runs[r];
    return t->exec + run->exec_offset + run->n_estimate + run->n_warmup;
}

size_t trace_n_exec(const struct trace *t)
{
    return t->n_exec;
}

int trace_run_valid(const struct trace *t, size_t r)
{
    return r < t->n_runs ? t->valid[r] : 0;
}

double trace_run_median_ns(const struct trace *t, size_t r)
{
    const struct trace_run *run = &t->runs[r];
    return tc_median_u64(trace_run_timed(t, r), (size_t)run->n_timed, NULL);
}

int trace_best_config(const struct trace *t, int input, double *median_ns, int *n_valid)
{
    int best = -1, nv = 0;
    double best_ns = NAN;
    for (int c = 0; c < t->n_configs; c++) {
        long r = trace_find_run(t, input, c);
        if (r < 0 || !trace_run_valid(t, (size_t)r))
            continue;
        double ns = trace_run_median_ns(t, (size_t)r);
        if (isnan(ns)) {
            tc_seterr("%s: out of memory", t->path);
            best = -1;
            best_ns = NAN;
            break;
        }
        nv++;
        if (best < 0 || ns < best_ns) {
            best = c;
            best_ns = ns;
        }
    }
    if (median_ns != NULL)
        *median_ns = best_ns;
    if (n_valid != NULL)
        *n_valid = nv;
    return best;
}

void trace_set_flush_each_run(struct trace *t, int per_run)
{
    if (t != NULL)
        t->no_run_flush = !per_run;
}

int trace_set_param_values(struct trace *t, int p, const char *const *values, int n)
{
    int rc = -1;
    hid_t d = H5I_INVALID_HID;
    char name[128];
    if (check_writable(t, "trace_set_param_values") < 0)
        return -1;
    if (t->n_configs < 0 || p < 0 || p >= t->n_params || n < 1 || values == NULL)
        FAIL("trace_set_param_values: write /configs first; parameter %d of %d, %d values", p, t->n_params, n);
    if (snprintf(name, sizeof name, "values_%s", t->param_names[p]) >= (int)sizeof name)
        FAIL("parameter name '%s' is too long for its value table", t->param_names[p]);
    H5TRY(d = H5Dopen2(t->file, "/params", H5P_DEFAULT), "cannot open /params");
    if (attr_write_strs(t, d, name, (char *const *)values, n) < 0)
        goto out;
    if (t->vtab == NULL && ((t->vtab = calloc((size_t)t->n_params, sizeof *t->vtab)) == NULL ||
                            (t->n_vtab = calloc((size_t)t->n_params, sizeof *t->n_vtab)) == NULL))
        FAIL("out of memory");
    free_strs(t->vtab[p], t->n_vtab[p]);
    t->n_vtab[p] = 0;
    if ((t->vtab[p] = dup_strs(values, n)) == NULL)
        FAIL("out of memory");
    t->n_vtab[p] = n;
    rc = 0;
out:
    close_id(&d);
    return rc;
}
