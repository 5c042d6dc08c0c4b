/* trace_h5.c — the trace library's HDF5 helpers: one-line error messages, the compound types of /configs,
 * /inputs and /runs (one member table per struct gives both the memory and the file type), and attributes. */
#include "trace_int.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- compound layouts: one member table per struct gives both the memory and the file type -------------- */


#define MEMBER(type, field, kind) {#field, offsetof(type, field), kind, 0}
#define MEMBER_OPT(type, field, kind) {#field, offsetof(type, field), kind, 1}
static const struct member config_members[] = {
    MEMBER(struct trace_config, status, M_I32),     MEMBER(struct trace_config, compile_ms, M_F64),
    MEMBER(struct trace_config, load_ms, M_F64),    MEMBER(struct trace_config, registers, M_I32),
    MEMBER(struct trace_config, smem_bytes, M_I32), MEMBER(struct trace_config, spill_bytes, M_I32),
    MEMBER_OPT(struct trace_config, path, M_I32),
    MEMBER_OPT(struct trace_config, compile_isolated_ms, M_F64),
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
    MEMBER_OPT(struct trace_run, true_ms, M_F64), MEMBER_OPT(struct trace_run, objective, M_F64),
};
#undef MEMBER
#undef MEMBER_OPT

const struct layout tr_config_layout = {"/configs", config_members, N_OF(config_members),
                                            sizeof(struct trace_config)};
const struct layout tr_input_layout = {"/inputs", input_members, N_OF(input_members),
                                           sizeof(struct trace_input)};
const struct layout tr_run_layout = {"/runs", run_members, N_OF(run_members), sizeof(struct trace_run)};

/* ---- errors ----------------------------------------------------------------------------------------------- */

/* What the walk of HDF5's error stack finds: its innermost message and the first errno any frame reports. */
struct h5_cause {
    char detail[200];
    int os_errno; /* 0: none */
};

static herr_t cause_cb(unsigned n, const H5E_error2_t *err, void *data)
{
    struct h5_cause *c = data;
    const char *e;
    if (err->desc == NULL)
        return 0;
    if (n == 0)
        snprintf(c->detail, sizeof c->detail, "%s", err->desc);
    /* the sec2 driver writes "..., errno = 28, error message = 'No space left on device', ..." */
    if (c->os_errno == 0 && (e = strstr(err->desc, "errno = ")) != NULL)
        c->os_errno = atoi(e + 8);
    return 0;
}

/* An errno that says the machine, not the input, is at fault. */
static int env_errno(int e)
{
    return e == ENOSPC || e == EFBIG || e == EDQUOT || e == EIO || e == ENOMEM || e == EROFS || e == EMFILE ||
           e == ENFILE || e == EACCES || e == EPERM || e == EINTR;
}

/* Set "<path>: <what>: <HDF5's innermost message> [<failing call>]" and clear HDF5's error stack. */
void TC_PRINTF(3, 4) tr_h5fail(const char *path, const char *call, const char *fmt, ...)
{
    char what[512], fn[64] = "";
    struct h5_cause cause = {"", 0};
    char *detail = cause.detail;
    const char *paren = strchr(call, '(');
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    (void)H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, cause_cb, &cause);
    (void)H5Eclear2(H5E_DEFAULT);
    if (cause.os_errno > 0) /* the OS's reason, not HDF5's internal text (cut, with addresses and times) */
        snprintf(cause.detail, sizeof cause.detail, "%s", strerror(cause.os_errno));
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
    if (env_errno(cause.os_errno))
        tc_err_mark_env();
}

void tr_close_id(hid_t *id)
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

/* HDF5 registers an exit handler (H5_term_library) that closes every file still open. After an H5Fclose that
 * failed (a full disk, a file size limit) HDF5 still lists the half-closed file, and that handler crashes on it
 * (SIGSEGV at exit, HDF5 1.10). Every trace is closed explicitly (trace_close), so the handler has nothing to do:
 * it is turned off before any HDF5 call, from a constructor since any command may be the first to use HDF5. */
__attribute__((constructor)) static void tr_no_hdf5_atexit(void)
{
    (void)H5dont_atexit();
}

void tr_quiet_hdf5(void)
{
    /* HDF5 prints its error stack to stderr by default; we turn failures into one-line messages instead. */
    (void)H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

/* ---- types ------------------------------------------------------------------------------------------------ */

/* The memory type (native, at the struct's offsets) or the file type (packed little-endian) of a layout. */
/* With `present` (a dataset's file type), a memory type of the members that type has (optional ones may be
 * missing from older files). */
hid_t tr_layout_type_in(const struct layout *l, int file, hid_t present)
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

hid_t tr_layout_type(const struct layout *l, int file)
{
    return tr_layout_type_in(l, file, H5I_INVALID_HID);
}

hid_t tr_vlen_str_type(void)
{
    hid_t tid = H5Tcopy(H5T_C_S1);
    if (tid >= 0 && (H5Tset_size(tid, H5T_VARIABLE) < 0 || H5Tset_cset(tid, H5T_CSET_UTF8) < 0)) {
        (void)H5Tclose(tid);
        tid = H5I_INVALID_HID;
    }
    return tid;
}

int tr_make_mem_types(struct trace *t)
{
    t->mt_config = tr_layout_type(&tr_config_layout, 0);
    t->mt_input = tr_layout_type(&tr_input_layout, 0);
    t->mt_run = tr_layout_type(&tr_run_layout, 0);
    if (t->mt_config < 0 || t->mt_input < 0 || t->mt_run < 0) {
        tr_h5fail(t->path, "H5Tcreate()", "cannot build the compound types");
        return -1;
    }
    return 0;
}

/* ---- attributes ------------------------------------------------------------------------------------------- */

int tr_attr_write_str(struct trace *t, hid_t loc, const char *name, const char *value)
{
    int rc = -1;
    hid_t st = H5I_INVALID_HID, sp = H5I_INVALID_HID, a = H5I_INVALID_HID;
    H5TRY(st = tr_vlen_str_type(), "cannot write attribute '%s'", name);
    H5TRY(sp = H5Screate(H5S_SCALAR), "cannot write attribute '%s'", name);
    H5TRY(a = H5Acreate2(loc, name, st, sp, H5P_DEFAULT, H5P_DEFAULT), "cannot create attribute '%s'", name);
    H5TRY(H5Awrite(a, st, &value), "cannot write attribute '%s'", name);
    rc = 0;
out:
    tr_close_id(&a);
    tr_close_id(&sp);
    tr_close_id(&st);
    return rc;
}

int tr_attr_write_strs(struct trace *t, hid_t loc, const char *name, char *const *values, int n)
{
    int rc = -1;
    hsize_t dim = (hsize_t)n;
    hid_t st = H5I_INVALID_HID, sp = H5I_INVALID_HID, a = H5I_INVALID_HID;
    H5TRY(st = tr_vlen_str_type(), "cannot write attribute '%s'", name);
    H5TRY(sp = H5Screate_simple(1, &dim, NULL), "cannot write attribute '%s'", name);
    H5TRY(a = H5Acreate2(loc, name, st, sp, H5P_DEFAULT, H5P_DEFAULT), "cannot create attribute '%s'", name);
    H5TRY(H5Awrite(a, st, values), "cannot write attribute '%s'", name);
    rc = 0;
out:
    tr_close_id(&a);
    tr_close_id(&sp);
    tr_close_id(&st);
    return rc;
}

int tr_attr_write_num(struct trace *t, hid_t loc, const char *name, hid_t filetype, hid_t memtype,
                      const void *value)
{
    int rc = -1;
    hid_t sp = H5I_INVALID_HID, a = H5I_INVALID_HID;
    H5TRY(sp = H5Screate(H5S_SCALAR), "cannot write attribute '%s'", name);
    H5TRY(a = H5Acreate2(loc, name, filetype, sp, H5P_DEFAULT, H5P_DEFAULT), "cannot create attribute '%s'", name);
    H5TRY(H5Awrite(a, memtype, value), "cannot write attribute '%s'", name);
    rc = 0;
out:
    tr_close_id(&a);
    tr_close_id(&sp);
    return rc;
}

/* Read a string-typed attribute or dataset (fixed or variable length, any rank) into n malloc'd strings.
 * `obj` is an attribute (is_attr) or a dataset. *n receives the number of elements. */
int tr_read_strs(struct trace *t, hid_t obj, int is_attr, const char *what, char ***out, int *n)
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
        FAIL_ENV("out of memory reading %s", what);
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
                FAIL_ENV("out of memory reading %s", what);
    } else {
        size_t len = H5Tget_size(ft);
        if (len == 0)
            FAIL("%s: cannot read strings of size 0", what);
        if ((fixed = malloc((size_t)np * len)) == NULL)
            FAIL_ENV("out of memory reading %s", what);
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
                FAIL_ENV("out of memory reading %s", what);
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
    tr_free_strs(strs, (int)np);
    tr_close_id(&mt);
    tr_close_id(&sp);
    tr_close_id(&ft);
    return rc;
}

int tr_attr_open(struct trace *t, hid_t loc, const char *objname, const char *name, hid_t *a)
{
    htri_t e = H5Aexists(loc, name);
    if (e < 0) {
        tr_h5fail(t->path, "H5Aexists()", "cannot look up attribute '%s' of %s", name, objname);
        return -1;
    }
    if (e == 0)
        return tc_seterr("%s: %s lacks the attribute '%s'", t->path, objname, name);
    if ((*a = H5Aopen(loc, name, H5P_DEFAULT)) < 0) {
        tr_h5fail(t->path, "H5Aopen()", "cannot open attribute '%s' of %s", name, objname);
        return -1;
    }
    return 0;
}

/* A scalar (or one-element) string attribute, truncated to len-1 characters. */
int tr_attr_read_str(struct trace *t, hid_t loc, const char *objname, const char *name, char *buf, size_t len)
{
    int rc = -1, n = 0;
    char **strs = NULL, what[128];
    hid_t a = H5I_INVALID_HID;
    snprintf(what, sizeof what, "attribute '%s' of %s", name, objname);
    if (tr_attr_open(t, loc, objname, name, &a) < 0)
        goto out;
    if (tr_read_strs(t, a, 1, what, &strs, &n) < 0)
        goto out;
    if (n != 1)
        FAIL("%s must be a single string (found %d)", what, n);
    snprintf(buf, len, "%s", strs[0]);
    rc = 0;
out:
    tr_free_strs(strs, n);
    tr_close_id(&a);
    return rc;
}

/* A scalar (or one-element) numeric attribute, converted by HDF5 to memtype. */
int tr_attr_read_num(struct trace *t, hid_t loc, const char *objname, const char *name, hid_t memtype,
                     void *out)
{
    int rc = -1;
    hid_t a = H5I_INVALID_HID, ft = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    hssize_t np = 0;
    H5T_class_t cls;
    if (tr_attr_open(t, loc, objname, name, &a) < 0)
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
    tr_close_id(&sp);
    tr_close_id(&ft);
    tr_close_id(&a);
    return rc;
}
