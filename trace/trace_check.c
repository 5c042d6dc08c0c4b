/* trace_check.c — validation the trace's readers and writers share: compound members, rows a file declares but
 * does not hold, integer members HDF5's conversion would change, and the one definition of an acceptable
 * /runs row (used by trace_append_run and by trace_open alike). */
#include "trace_int.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Check that compound dataset d has every member of the layout, each numeric (extra members are fine). */
int tr_check_members(struct trace *t, hid_t d, const struct layout *l)
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
    tr_close_id(&ft);
    return rc;
}

/* Refuse a dataset that declares more rows than its file holds: a chunked dataset whose chunks were never
 * written past some row (they would read as fill values; 91 KB could declare 10^8 rows and make the reader
 * allocate gigabytes first) or a contiguous one whose storage is shorter than its shape. Cheap: it asks HDF5 for
 * the allocated chunks and the storage size, reads nothing. */
int tr_check_rows_stored(struct trace *t, hid_t d, const char *name, hsize_t rows)
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
    tr_close_id(&sp);
    tr_close_id(&ft);
    tr_close_id(&dcpl);
    return rc;
}

/* Integer members stored as floats, as wider integers or as unsigned ones would be saturated or truncated by
 * HDF5's conversion (int64 2^40 -> 2147483647, float 0.7 -> 0): read each such member on its own, exactly, and
 * refuse a value that is not an integer in the range of the member's type. Members stored as the spec says cost
 * nothing. */
int tr_check_int_members(struct trace *t, hid_t d, const struct layout *l, hsize_t rows)
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
        tr_close_id(&mft);
        if (c == H5T_INTEGER && (size < want || (size == want && !uns)))
            continue; /* converts exactly */
        /* Read the member as long double would be exact for every int64; double is exact up to 2^53, far past
         * int32 and past every offset a file can hold, and for int64 members stored as uint64 a value >= 2^63
         * rounds to >= 2^63 and is refused all the same. */
        if (buf == NULL && (buf = malloc((size_t)rows * sizeof *buf)) == NULL)
            FAIL_ENV("out of memory checking %s", l->dataset);
        H5TRY(mt = H5Tcreate(H5T_COMPOUND, sizeof(double)), "cannot read %s", l->dataset);
        H5TRY(H5Tinsert(mt, m->name, 0, H5T_NATIVE_DOUBLE), "cannot read %s", l->dataset);
        H5TRY(H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf), "cannot read %s", l->dataset);
        tr_close_id(&mt);
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
    tr_close_id(&mft);
    tr_close_id(&mt);
    tr_close_id(&ft);
    return rc;
}

/* How messages name a row: "/runs row 12", or for row < 0 "appended run" (with its input and configuration when
 * `pair`: the durations check runs once both are known to be in range). */
static const char *row_name(char *buf, size_t len, long row, const struct trace_run *run, int pair)
{
    if (row >= 0)
        snprintf(buf, len, "/runs row %ld", row);
    else if (pair)
        snprintf(buf, len, "appended run for input %d, config %d", run->input, run->config);
    else
        snprintf(buf, len, "appended run");
    return buf;
}

int tr_check_run_row(struct trace *t, long row, const struct trace_run *run)
{
    int rc = -1;
    char w[96];
    if (run->input < 0 || run->input >= t->n_inputs)
        FAIL("%s: input %d is outside /inputs (0..%d)", row_name(w, sizeof w, row, run, 0), run->input,
             t->n_inputs - 1);
    if (run->config < 0 || run->config >= t->n_configs)
        FAIL("%s: config %d is outside /configs (0..%d)", row_name(w, sizeof w, row, run, 0), run->config,
             t->n_configs - 1);
    if (run->status < 0 || run->status >= TRACE_N_STATUS)
        FAIL("%s: status %d is not a known status (0..%d)", row_name(w, sizeof w, row, run, 0), run->status,
             TRACE_N_STATUS - 1);
    if (run->n_estimate < 0 || run->n_warmup < 0 || run->n_timed < 0)
        FAIL("%s: negative count (n_estimate %d, n_warmup %d, n_timed %d)", row_name(w, sizeof w, row, run, 0),
             run->n_estimate, run->n_warmup, run->n_timed);
    rc = 0;
out:
    return rc;
}

int tr_check_run_durations(struct trace *t, long row, const struct trace_run *run, const uint64_t *x, size_t count)
{
    int rc = -1;
    char w[96];
    if (run->status != TRACE_OK)
        return 0;
    if (!(run->true_ms == 0 || isnan(run->true_ms) || (isfinite(run->true_ms) && run->true_ms > 0)))
        FAIL("%s (status ok): true_ms %g is not a positive, finite duration (0 or NaN: not recorded)",
             row_name(w, sizeof w, row, run, 1), run->true_ms);
    if (!isfinite(run->wall_ms) || run->wall_ms <= 0)
        FAIL("%s (status ok): wall_ms %g is not a positive, finite duration", row_name(w, sizeof w, row, run, 1),
             run->wall_ms);
    for (size_t i = 0; i < count; i++) {
        if (x[i] == 0)
            FAIL("%s (status ok): execution %zu of %zu has duration 0 ns; a status-0 run needs every duration > 0",
                 row_name(w, sizeof w, row, run, 1), i, count);
        if (x[i] >= EXEC_NS_LIMIT)
            FAIL("%s (status ok): execution %zu of %zu has duration %" PRIu64 " ns, a negative number stored as "
                 "unsigned",
                 row_name(w, sizeof w, row, run, 1), i, count, x[i]);
    }
    rc = 0;
out:
    return rc;
}

/* A run's executions, [start, end) in /exec_ns, and its /runs row. */
struct exec_range {
    int64_t start, end;
    size_t row;
};

static int range_cmp(const void *a, const void *b)
{
    const struct exec_range *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

int tr_check_exec_ranges(struct trace *t)
{
    int rc = -1, sorted = 1;
    size_t n = 0;
    struct exec_range *r = malloc((t->n_runs ? t->n_runs : 1) * sizeof *r);
    if (r == NULL)
        return tc_seterr_env("out of memory checking /runs against /exec_ns");
    for (size_t i = 0; i < t->n_runs; i++) {
        const struct trace_run *run = &t->runs[i];
        int64_t count = (int64_t)run->n_estimate + run->n_warmup + run->n_timed;
        if (count == 0)
            continue; /* owns nothing */
        r[n] = (struct exec_range){run->exec_offset, run->exec_offset + count, i};
        if (n > 0 && r[n].start < r[n - 1].start)
            sorted = 0;
        n++;
    }
    if (!sorted) /* runs written by tunecost are in launch order: sorting is for other files */
        qsort(r, n, sizeof *r, range_cmp);
    size_t owner = 0; /* the range reaching furthest so far */
    for (size_t i = 1; i < n; i++) {
        if (r[i].start < r[owner].end) {
            const struct exec_range *a = r[owner].row < r[i].row ? &r[owner] : &r[i];
            const struct exec_range *b = a == &r[i] ? &r[owner] : &r[i];
            FAIL("/runs rows %zu and %zu claim the same executions of /exec_ns (row %zu: %" PRId64 "..%" PRId64
                 ", row %zu: %" PRId64 "..%" PRId64 "): each execution belongs to one run",
                 a->row, b->row, a->row, a->start, a->end - 1, b->row, b->start, b->end - 1);
        }
        if (r[i].end > r[owner].end)
            owner = i;
    }
    rc = 0;
out:
    free(r);
    return rc;
}
