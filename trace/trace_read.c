/* trace_read.c — trace_open: the root attributes, /params, /configs, /dims, /inputs, /runs and /exec_ns read
 * whole into memory and checked (trace_check.c), the file closed again. A reader may open a trace a collector is
 * appending to. */
#include "trace_int.h"
#include "tc_manifest.h"
#include "tc_paths.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

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
    tr_close_id(&ft);
    tr_close_id(&sp);
    if (!ok)
        tr_close_id(&d);
    return d;
}

/* The optional root attributes objective and objective_higher_is_better (absent: ranked by true time). */
static int read_objective(struct trace *t)
{
    struct trace_meta *m = &t->meta;
    htri_t e = H5Aexists(t->file, "objective");
    if (e < 0) {
        tr_h5fail(t->path, "H5Aexists()", "cannot look up attribute 'objective' of the root group");
        return -1;
    }
    if (e == 0)
        return 0;
    if (tr_attr_read_str(t, t->file, "the root group", "objective", m->objective, sizeof m->objective) < 0 ||
        tr_attr_read_num(t, t->file, "the root group", "objective_higher_is_better", H5T_NATIVE_INT32,
                         &m->objective_higher_is_better) < 0)
        return -1;
    if (m->objective_higher_is_better != 0 && m->objective_higher_is_better != 1)
        return tc_seterr("%s: root attribute objective_higher_is_better is %d (expected 0 or 1)", t->path,
                         (int)m->objective_higher_is_better);
    return 0;
}

/* The optional root attribute kernel_family (absent in traces written before format_minor 3: left ""). */
static int read_kernel_family(struct trace *t)
{
    htri_t e = H5Aexists(t->file, "kernel_family");
    if (e < 0) {
        tr_h5fail(t->path, "H5Aexists()", "cannot look up attribute 'kernel_family' of the root group");
        return -1;
    }
    if (e > 0 && tr_attr_read_str(t, t->file, "the root group", "kernel_family", t->meta.kernel_family,
                                  sizeof t->meta.kernel_family) < 0)
        return -1;
    return 0;
}

static int read_meta(struct trace *t)
{
    hid_t root = t->file;
    char format[64];
    int64_t version = 0;
    struct trace_meta *m = &t->meta;
    htri_t e = H5Aexists(root, "format");
    if (e < 0) {
        tr_h5fail(t->path, "H5Aexists()", "cannot read the root attributes");
        return -1;
    }
    if (e == 0)
        return tc_seterr("%s: not a tunecost trace (no root attribute 'format')", t->path);
    if (tr_attr_read_str(t, root, "the root group", "format", format, sizeof format) < 0)
        return -1;
    if (strcmp(format, TRACE_FORMAT_NAME) != 0)
        return tc_seterr("%s: not a tunecost trace (format is '%s', expected '%s')", t->path, format,
                         TRACE_FORMAT_NAME);
    if (tr_attr_read_num(t, root, "the root group", "format_version", H5T_NATIVE_INT64, &version) < 0)
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
        if (tr_attr_read_str(t, root, "the root group", strs[i].name, strs[i].buf, strs[i].len) < 0)
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
        if (tr_attr_read_num(t, root, "the root group", nums[i].name, nums[i].type, nums[i].out) < 0)
            return -1;
    /* Optional: additions a reader may use (docs/trace-format.md, "Versioning"); absent in older traces. */
    m->format_minor = 0;
    if ((e = H5Aexists(root, "format_minor")) < 0) {
        tr_h5fail(t->path, "H5Aexists()", "cannot read the root attributes");
        return -1;
    }
    if (e > 0 && tr_attr_read_num(t, root, "the root group", "format_minor", H5T_NATIVE_INT32, &m->format_minor) < 0)
        return -1;
    if (m->format_minor < 0)
        return tc_seterr("%s: format_minor %d is not valid (expected 0 or more)", t->path, (int)m->format_minor);
    return read_objective(t) != 0 ? -1 : read_kernel_family(t);
}

/* Optional float members the file's type `ft` lacks read as NaN ("not measured"); integer ones stay 0. */
static void fill_absent_optional(const struct layout *l, hid_t ft, void *data, hsize_t rows)
{
    for (size_t i = 0; i < l->n_members; i++) {
        const struct member *m = &l->members[i];
        if (!m->optional || m->kind != M_F64)
            continue;
        if (H5Tget_member_index(ft, m->name) >= 0)
            continue;
        (void)H5Eclear2(H5E_DEFAULT);
        for (hsize_t r = 0; r < rows; r++) {
            double nan = NAN;
            memcpy((char *)data + (size_t)r * l->size + m->offset, &nan, sizeof nan);
        }
    }
}

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
    if (tr_attr_open(t, d, name, "names", &a) < 0)
        goto out;
    if (tr_read_strs(t, a, 1, what, names, n_names) < 0)
        goto out;
    if ((hsize_t)*n_names != dims[1])
        FAIL("%s has %llu columns but its attribute 'names' lists %d", name, (unsigned long long)dims[1],
             *n_names);
    if (dims[1] < 1)
        FAIL("%s has no columns", name);
    if (dims[0] > (hsize_t)INT_MAX)
        FAIL("%s has too many rows (%llu)", name, (unsigned long long)dims[0]);
    if (tr_check_rows_stored(t, d, name, dims[0]) < 0)
        goto out;
    if ((*data = malloc((size_t)(dims[0] * dims[1] > 0 ? dims[0] * dims[1] : 1) * elem)) == NULL)
        FAIL_ENV("out of memory reading %s", name);
    if (dims[0] > 0)
        H5TRY(H5Dread(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, *data), "cannot read %s", name);
    if (dims[0] > 0 && elem == sizeof(int32_t)) {
        /* int32 in the spec: a wider stored value would have been saturated by the conversion above */
        size_t n = (size_t)(dims[0] * dims[1]);
        H5TRY(ft = H5Dget_type(d), "cannot read the type of %s", name);
        if (H5Tget_size(ft) > 4 || (H5Tget_size(ft) == 4 && H5Tget_sign(ft) == H5T_SGN_NONE)) {
            if ((wide = malloc(n * sizeof *wide)) == NULL)
                FAIL_ENV("out of memory reading %s", name);
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
    tr_close_id(&ft);
    tr_close_id(&a);
    tr_close_id(&d);
    return rc;
}

/* The optional value tables of /params (attributes values_NAME, an imported search space): each column that has
 * one must index into it. */
static int read_param_values(struct trace *t)
{
    int rc = -1;
    hid_t d = H5I_INVALID_HID, a = H5I_INVALID_HID;
    char name[300];
    H5TRY(d = H5Dopen2(t->file, "/params", H5P_DEFAULT), "cannot open /params");
    for (int p = 0; p < t->n_params; p++) {
        htri_t e;
        char **vals = NULL;
        int n = 0;
        if (snprintf(name, sizeof name, "values_%s", t->param_names[p]) >= (int)sizeof name)
            continue; /* no writer makes such a name */
        H5TRY(e = H5Aexists(d, name), "cannot look up attribute '%s' of /params", name);
        if (e == 0)
            continue;
        if (t->vtab == NULL && ((t->vtab = calloc((size_t)t->n_params, sizeof *t->vtab)) == NULL ||
                                (t->n_vtab = calloc((size_t)t->n_params, sizeof *t->n_vtab)) == NULL))
            FAIL_ENV("out of memory");
        H5TRY(a = H5Aopen(d, name, H5P_DEFAULT), "cannot open attribute '%s' of /params", name);
        if (tr_read_strs(t, a, 1, name, &vals, &n) < 0)
            goto out;
        tr_close_id(&a);
        t->vtab[p] = vals;
        t->n_vtab[p] = n;
        for (int c = 0; c < t->n_configs; c++) {
            int32_t v = t->params[(size_t)c * t->n_params + p];
            if (v < 0 || v >= n)
                FAIL("/params row %d: %s is %d, not an index into its value table %s (%d values)", c,
                     t->param_names[p], (int)v, name, n);
        }
    }
    rc = 0;
out:
    tr_close_id(&a);
    tr_close_id(&d);
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
    if (tr_check_members(t, d, l) < 0)
        goto out;
    if (expect_rows != (hsize_t)-1 && dim != expect_rows)
        FAIL("%s has %llu rows but %s has %llu", l->dataset, (unsigned long long)dim,
             l == &tr_config_layout ? "/params" : "/dims", (unsigned long long)expect_rows);
    if (dim > (hsize_t)(SIZE_MAX / l->size))
        FAIL("%s has too many rows (%llu)", l->dataset, (unsigned long long)dim);
    if (tr_check_rows_stored(t, d, l->dataset, dim) < 0 || tr_check_int_members(t, d, l, dim) < 0)
        goto out;
    if ((*data = calloc((size_t)(dim ? dim : 1), l->size)) == NULL) /* absent optional integers read as 0 */
        FAIL_ENV("out of memory for %llu rows of %s", (unsigned long long)dim, l->dataset);
    H5TRY(ft = H5Dget_type(d), "cannot read the type of %s", l->dataset);
    H5TRY(mt = tr_layout_type_in(l, 0, ft), "cannot make the memory type of %s", l->dataset);
    (void)memtype;
    if (dim > 0)
        H5TRY(H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, *data), "cannot read %s", l->dataset);
    fill_absent_optional(l, ft, *data, dim);
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
    tr_close_id(&mt);
    tr_close_id(&ft);
    tr_close_id(&d);
    return rc;
}

static int read_runs_and_exec(struct trace *t)
{
    int rc = -1;
    hid_t fs = H5I_INVALID_HID, ms = H5I_INVALID_HID;
    hsize_t n_runs = 0, exec_len = 0, end = 0;
    void *runs = NULL;
    if (read_compound(t, &tr_run_layout, t->mt_run, (hsize_t)-1, &runs, &n_runs, &t->d_runs) < 0)
        goto out;
    t->runs = runs;
    t->n_runs = t->cap_runs = (size_t)n_runs;
    if (trace_objective_is_metric(t)) {
        int idx;
        H5TRY(fs = H5Dget_type(t->d_runs), "cannot read the type of /runs");
        idx = H5Tget_member_index(fs, "objective");
        (void)H5Eclear2(H5E_DEFAULT);
        tr_close_id(&fs);
        if (idx < 0)
            FAIL("root attribute objective is '%s' but /runs lacks the member 'objective' (its values)",
                 t->meta.objective);
    }
    if ((t->valid = malloc(n_runs ? (size_t)n_runs : 1)) == NULL)
        FAIL_ENV("out of memory for %llu runs", (unsigned long long)n_runs);
    if ((t->d_exec = open_dataset(t, "/exec_ns", 1, H5T_INTEGER, &exec_len)) < 0)
        goto out;

    /* Row checks; the executions actually referenced end at `end`, values past it are ignored. */
    for (size_t r = 0; r < t->n_runs; r++) {
        const struct trace_run *run = &t->runs[r];
        if (tr_check_run_row(t, (long)r, run) < 0)
            goto out;
        if (run->exec_offset < 0)
            FAIL("/runs row %zu: exec_offset %lld is negative", r, (long long)run->exec_offset);
        hsize_t count = (hsize_t)run->n_estimate + (hsize_t)run->n_warmup + (hsize_t)run->n_timed;
        if ((hsize_t)run->exec_offset > exec_len || count > exec_len - (hsize_t)run->exec_offset)
            FAIL("/runs row %zu: exec_offset+count %llu exceeds /exec_ns length %llu", r,
                 (unsigned long long)((hsize_t)run->exec_offset + count), (unsigned long long)exec_len);
        if ((hsize_t)run->exec_offset + count > end)
            end = (hsize_t)run->exec_offset + count;
    }
    if (tr_check_exec_ranges(t) < 0)
        goto out;

    if (end > (hsize_t)(SIZE_MAX / sizeof(uint64_t)))
        FAIL("/exec_ns: %llu executions do not fit in memory", (unsigned long long)end);
    if ((t->exec = malloc((size_t)(end ? end : 1) * sizeof *t->exec)) == NULL)
        FAIL_ENV("out of memory for %llu executions (%.1f MB)", (unsigned long long)end, (double)end * 8e-6);
    t->n_exec = t->cap_exec = (size_t)end;
    int fast = end > 0 ? tr_read_exec_fast(t, end) : 1;
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
        if (tr_check_run_durations(t, (long)r, run, x, count) < 0)
            goto out;
        t->valid[r] = tr_run_is_valid(run, x);
    }
    rc = 0;
out:
    tr_close_id(&ms);
    tr_close_id(&fs);
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
        if (tr_read_strs(t, t->d_log, 0, "/compile_log", &logs, &n) < 0)
            goto out;
        if (n != t->n_configs) {
            tr_free_strs(logs, n);
            FAIL("/compile_log has %d entries but /configs has %d", n, t->n_configs);
        }
        tr_free_strs(t->logs, t->n_configs);
        t->logs = logs;
    }
    H5TRY(e = H5Lexists(t->file, "/compile_warmup_ms", H5P_DEFAULT), "cannot look up /compile_warmup_ms");
    if (e > 0) {
        if ((t->d_warmup = open_dataset(t, "/compile_warmup_ms", 1, H5T_FLOAT, &dim)) < 0)
            goto out;
        if (dim > (hsize_t)INT_MAX)
            FAIL("/compile_warmup_ms has too many values (%llu)", (unsigned long long)dim);
        if ((t->warmup_ms = malloc((size_t)(dim ? dim : 1) * sizeof *t->warmup_ms)) == NULL)
            FAIL_ENV("out of memory");
        if (dim > 0)
            H5TRY(H5Dread(t->d_warmup, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, t->warmup_ms),
                  "cannot read /compile_warmup_ms");
        t->n_warmup = (int)dim;
    }
    rc = 0;
out:
    return rc;
}

/* t->path opened read-only into t->file, after the checks that give a plain message (missing, a directory, not
 * readable or writable as asked, empty, not HDF5). 0, or -1 (message). */
static int tr_open_readonly(struct trace *t, int writable)
{
    struct stat st;
    htri_t is_h5;
    hid_t fapl = H5I_INVALID_HID;
    int rc = -1;
    const char *path = t->path;
    if (stat(path, &st) != 0) {
        int e = errno;
        const struct tc_manifest_row *r = e == ENOENT ? tc_paths_row_of(path) : NULL;
        if (r != NULL) /* a shipped trace that is not there: how to collect it */
            FAIL("%s: the shipped %s trace (%s) is not there; collect it: %s", strerror(e), r->role, r->gpu,
                 r->collect);
        FAIL("%s", strerror(e));
    }
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
    if (tr_make_mem_types(t) < 0)
        goto out;
    H5TRY(fapl = H5Pcreate(H5P_FILE_ACCESS), "cannot open");
#if H5_VERSION_GE(1, 10, 7)
    /* Readers may look at a trace while a collector appends to it (every append ends with a flush). */
    H5TRY(H5Pset_file_locking(fapl, 0, 1), "cannot open");
#endif
    if ((t->file = H5Fopen(path, H5F_ACC_RDONLY, fapl)) < 0) {
        /* This process may hold the file open already (a writer) with locking on: HDF5 then wants the same
         * locking flags. Retry with the defaults; report the first failure if that fails too. */
        tr_h5fail(t->path, "H5Fopen()",
                  "cannot open the HDF5 file (truncated or damaged? locked by a running writer?)");
        struct tc_err_saved first;
        tc_err_save(&first);
        if ((t->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0) {
            (void)H5Eclear2(H5E_DEFAULT);
            tc_err_restore(&first);
            goto out;
        }
    }
    rc = 0;
out:
    tr_close_id(&fapl);
    return rc;
}

struct trace *tr_load(const char *path, int writable)
{
    struct trace *t = NULL;
    hsize_t rows = 0;
    void *buf = NULL;
    int ok = 0;
    if (path == NULL) {
        tc_seterr("trace_open: no path given");
        return NULL;
    }
    if ((t = tr_alloc(path)) == NULL)
        return NULL;
    tr_quiet_hdf5();
    if (tr_open_readonly(t, writable) < 0)
        goto out;
    tr_cover_eof(t);
    if (read_meta(t) < 0)
        goto out;

    if (read_table(t, "/params", H5T_NATIVE_INT32, sizeof(int32_t), &buf, &rows, &t->param_names,
                   &t->n_params) < 0)
        goto out;
    t->params = buf;
    buf = NULL;
    if (read_compound(t, &tr_config_layout, t->mt_config, rows, &buf, &rows, &t->d_configs) < 0)
        goto out;
    t->configs = buf;
    buf = NULL;
    t->n_configs = (int)rows;
    if ((t->logs = calloc(rows ? (size_t)rows : 1, sizeof *t->logs)) == NULL)
        FAIL_ENV("out of memory");
    for (int i = 0; i < t->n_configs; i++)
        if (t->configs[i].status < 0 || t->configs[i].status >= TRACE_N_STATUS)
            FAIL("/configs row %d: status %d is not a known status (0..%d)", i, t->configs[i].status,
                 TRACE_N_STATUS - 1);

    if (read_param_values(t) < 0 ||
        read_table(t, "/dims", H5T_NATIVE_INT64, sizeof(int64_t), &buf, &rows, &t->dim_names, &t->n_dims) < 0)
        goto out;
    t->dims = buf;
    buf = NULL;
    if (read_compound(t, &tr_input_layout, t->mt_input, rows, &buf, &rows, &t->d_inputs) < 0)
        goto out;
    t->inputs = buf;
    buf = NULL;
    t->n_inputs = (int)rows;

    if (read_runs_and_exec(t) < 0 || read_extras(t) < 0 || tr_build_run_index(t) < 0)
        goto out;

    if (writable) {
        int a = tr_appendable(t, t->d_runs, "/runs"), b = a > 0 ? tr_appendable(t, t->d_exec, "/exec_ns") : 0;
        if (a < 0 || b < 0)
            goto out;
        t->append_ready = a && b;
    }
    /* Everything is in memory now; the file is closed (trace_open_append reopens it for writing). */
    tr_close_datasets(t);
    H5TRY(H5Fclose(t->file), "cannot close");
    t->file = H5I_INVALID_HID;
    ok = 1;
out:
    free(buf);
    if (!ok) {
        (void)tr_release(t);
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
        struct trace *t = tr_load(path, 0);
        if (t != NULL || attempt == 5 || !known || stat(path, &after) != 0 || (before.st_size == after.st_size &&
            before.st_mtim.tv_sec == after.st_mtim.tv_sec && before.st_mtim.tv_nsec == after.st_mtim.tv_nsec))
            return t;
        nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    }
}
