/* trace_file.c — a trace file's lifecycle: resuming one (trace_open_append: rewritten uncompressed when it cannot
 * grow in place, then reopened for appending), the compressed snapshot a writer leaves on close, trace_close. A
 * file is replaced complete or not at all (tc_atomic). */
#include "trace_int.h"
#include "tc_atomic.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* 1 if the dataset can grow in place: chunked, unlimited first dimension, no filters; 0 if not; -1 on error. */
int tr_appendable(struct trace *t, hid_t d, const char *name)
{
    int rc = -1;
    hid_t sp = H5I_INVALID_HID, dcpl = H5I_INVALID_HID;
    hsize_t dim = 0, maxdim = 0;
    H5TRY(sp = H5Dget_space(d), "cannot read the shape of %s", name);
    H5TRY(H5Sget_simple_extent_dims(sp, &dim, &maxdim), "cannot read the shape of %s", name);
    H5TRY(dcpl = H5Dget_create_plist(d), "cannot read the layout of %s", name);
    rc = H5Pget_layout(dcpl) == H5D_CHUNKED && maxdim == H5S_UNLIMITED && H5Pget_nfilters(dcpl) == 0;
out:
    tr_close_id(&dcpl);
    tr_close_id(&sp);
    return rc;
}

/* A writer killed inside a flush can leave metadata pointing at chunks it wrote past the end of file it had
 * recorded (raw data goes out before metadata). Let HDF5 address the whole physical file, so that those chunks
 * read (and a resumed writer allocates past them, instead of failing with "addr overflow"). In memory only;
 * a read-only open leaves the file untouched. */
void tr_cover_eof(struct trace *t)
{
    struct stat st;
    haddr_t eoa = 0;
    if (stat(t->path, &st) == 0 && H5Fget_eoa(t->file, &eoa) >= 0 && (haddr_t)st.st_size > eoa)
        (void)H5Fincrement_filesize(t->file, 0);
    (void)H5Eclear2(H5E_DEFAULT);
}

/* All runs and executions of src into the (new, empty) trace t in one write each; flushed. */
static int bulk_write(struct trace *t, const struct trace *src)
{
    int rc = -1;
    hsize_t n = (hsize_t)src->n_exec;
    H5TRY(H5Dset_extent(t->d_exec, &n), "cannot extend /exec_ns to %llu values", (unsigned long long)n);
    if (n > 0 && tr_write_rows(t, t->d_exec, "/exec_ns", H5T_NATIVE_UINT64, 0, n, src->exec) < 0)
        goto out;
    n = (hsize_t)src->n_runs;
    H5TRY(H5Dset_extent(t->d_runs, &n), "cannot extend /runs to %llu rows", (unsigned long long)n);
    if (n > 0 && tr_write_rows(t, t->d_runs, "/runs", t->mt_run, 0, n, src->runs) < 0)
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
    s = tr_create_storage(tmp, &t->meta, (const char *const *)t->param_names, t->n_params,
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
        tc_preferr("%s: cannot %s", t->path,
                   !compress          ? "rewrite the trace for appending"
                   : t->no_run_flush ? "write the trace" /* deferred appends: nothing complete is on disk */
                                     : "rewrite the trace compressed (it is complete, but uncompressed)");
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
    tr_cover_eof(t);
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
    struct trace *t = tr_load(path, 1);
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

/* Close the datasets a reader or writer keeps open (each only if open). */
void tr_close_datasets(struct trace *t)
{
    tr_close_id(&t->d_configs);
    tr_close_id(&t->d_inputs);
    tr_close_id(&t->d_runs);
    tr_close_id(&t->d_exec);
    tr_close_id(&t->d_log);
    tr_close_id(&t->d_warmup);
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
        tr_close_datasets(t);
        if (H5Fclose(t->file) < 0) {
            tr_h5fail(t->path, "H5Fclose()", "cannot close the trace");
            rc = -1;
        }
        t->file = H5I_INVALID_HID;
        if (rc == 0 && snapshot(t, 1) < 0)
            rc = -1;
    }
    if (t->writable && t->file >= 0 && H5Fflush(t->file, H5F_SCOPE_LOCAL) < 0) {
        tr_h5fail(t->path, "H5Fflush()", "cannot flush the trace on close");
        rc = -1;
    }
    tr_close_datasets(t);
    tr_close_id(&t->mt_config);
    tr_close_id(&t->mt_input);
    tr_close_id(&t->mt_run);
    if (t->file >= 0 && H5Fclose(t->file) < 0 && rc == 0) {
        tr_h5fail(t->path, "H5Fclose()", "cannot close the trace");
        rc = -1;
    }
    t->file = H5I_INVALID_HID;
    for (int p = 0; t->vtab != NULL && t->n_vtab != NULL && p < t->n_params; p++)
        tr_free_strs(t->vtab[p], t->n_vtab[p]);
    free(t->vtab);
    free(t->n_vtab);
    tr_free_strs(t->param_names, t->n_params);
    tr_free_strs(t->dim_names, t->n_dims);
    tr_free_strs(t->logs, t->n_configs > 0 ? t->n_configs : 0);
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
