/* trace_file.c — a trace file's lifecycle: resuming one (trace_open_append: rewritten uncompressed when it cannot
 * grow in place, then reopened for appending), the compressed snapshot a writer leaves on close, trace_close. A
 * file is replaced complete or not at all (tc_atomic). The top of trace/: it calls the reader and the writer;
 * they release a trace through trace_handle.c, never through trace_close. */
#include "trace_int.h"
#include "tc_atomic.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

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
    return tr_release(t) < 0 || rc < 0 ? -1 : 0;
}
