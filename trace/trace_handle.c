/* trace_handle.c — a trace's open HDF5 handles: whether a dataset can grow in place, letting HDF5 address the
 * whole physical file, closing the datasets, and tr_release (flush, close, free) — what the reader, the writer and
 * trace_file.c all need. Below them: it calls only trace.c and trace_h5.c. */
#include "trace_int.h"

#include <stdlib.h>
#include <sys/stat.h>

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

int tr_release(struct trace *t)
{
    int rc = 0;
    if (t == NULL)
        return 0;
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
