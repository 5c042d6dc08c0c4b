/* trace_write.c — writing a trace: trace_create, the fixed tables (/params, /configs, /dims, /inputs), their
 * updates, trace_append_run (executions, flush, then the row that makes them reachable), compile logs and the
 * compile workers' warm-up. */
#include "trace_int.h"
#include "tc_version.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>

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
    int32_t version = TRACE_FORMAT_VERSION, minor = TRACE_FORMAT_MINOR;
    for (size_t i = 0; i < N_OF(strs); i++)
        if (tr_attr_write_str(t, root, strs[i].name, strs[i].value) < 0)
            return -1;
    if (tr_attr_write_num(t, root, "format_version", H5T_STD_I32LE, H5T_NATIVE_INT32, &version) < 0 ||
        tr_attr_write_num(t, root, "format_minor", H5T_STD_I32LE, H5T_NATIVE_INT32, &minor) < 0 ||
        tr_attr_write_num(t, root, "device_cc", H5T_STD_I32LE, H5T_NATIVE_INT32, &m->device_cc) < 0 ||
        tr_attr_write_num(t, root, "device_sms", H5T_STD_I32LE, H5T_NATIVE_INT32, &m->device_sms) < 0 ||
        tr_attr_write_num(t, root, "device_l2_bytes", H5T_STD_I64LE, H5T_NATIVE_INT64, &m->device_l2_bytes) < 0 ||
        tr_attr_write_num(t, root, "driver_version", H5T_STD_I32LE, H5T_NATIVE_INT32, &m->driver_version) < 0 ||
        tr_attr_write_num(t, root, "cuda_version", H5T_STD_I32LE, H5T_NATIVE_INT32, &m->cuda_version) < 0 ||
        tr_attr_write_num(t, root, "warmup_ms", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &m->warmup_ms) < 0 ||
        tr_attr_write_num(t, root, "rep_ms", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &m->rep_ms) < 0 ||
        tr_attr_write_num(t, root, "flush_bytes", H5T_STD_I64LE, H5T_NATIVE_INT64, &m->flush_bytes) < 0 ||
        tr_attr_write_num(t, root, "compile_jobs", H5T_STD_I32LE, H5T_NATIVE_INT32, &m->compile_jobs) < 0 ||
        tr_attr_write_num(t, root, "seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, &m->seed) < 0)
        return -1;
    if (m->objective[0] != '\0' && strcmp(m->objective, "time") != 0 && /* optional: only another metric */
        (tr_attr_write_str(t, root, "objective", m->objective) < 0 ||
         tr_attr_write_num(t, root, "objective_higher_is_better", H5T_STD_I32LE, H5T_NATIVE_INT32,
                           &m->objective_higher_is_better) < 0))
        return -1;
    if (m->kernel_family[0] != '\0' && tr_attr_write_str(t, root, "kernel_family", m->kernel_family) < 0)
        return -1; /* optional: written when the writer knows it */
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
    tr_close_id(&dcpl);
    tr_close_id(&sp);
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
struct trace *tr_create_storage(const char *path, const struct trace_meta *meta, const char *const *param_names,
                                int n_params, const char *const *dim_names, int n_dims, int compress)
{
    struct trace *t = NULL;
    hid_t ft = H5I_INVALID_HID;
    int ok = 0;
    if (path == NULL || meta == NULL) {
        tc_seterr("trace_create: path and meta are required");
        return NULL;
    }
    if ((t = tr_alloc(path)) == NULL)
        return NULL;
    tr_quiet_hdf5();
    t->writable = 1;
    t->meta = *meta;
    t->meta.format_minor = TRACE_FORMAT_MINOR; /* what write_meta writes */
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
    if ((t->param_names = tr_dup_strs(param_names, n_params)) == NULL ||
        (t->dim_names = tr_dup_strs(dim_names, n_dims)) == NULL)
        FAIL_ENV("out of memory");
    if (tr_make_mem_types(t) < 0)
        goto out;
    H5TRY(t->file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), "cannot create the trace file");
    if (write_meta(t, &t->meta) < 0)
        goto out;
    H5TRY(ft = tr_layout_type(&tr_run_layout, 1), "cannot build the /runs type");
    if ((t->d_runs = create_extendible(t, "/runs", ft, RUNS_CHUNK, compress ? RUNS_DEFLATE : 0)) < 0)
        goto out;
    if ((t->d_exec = create_extendible(t, "/exec_ns", H5T_STD_U64LE, EXEC_CHUNK, compress ? EXEC_DEFLATE : 0)) < 0)
        goto out;
    H5TRY(H5Fflush(t->file, H5F_SCOPE_LOCAL), "cannot flush the new trace");
    ok = 1;
out:
    tr_close_id(&ft);
    if (!ok) {
        (void)tr_release(t);
        return NULL;
    }
    return t;
}

struct trace *trace_create(const char *path, const struct trace_meta *meta, const char *const *param_names,
                           int n_params, const char *const *dim_names, int n_dims)
{
    struct trace *t = tr_create_storage(path, meta, param_names, n_params, dim_names, n_dims, 0);
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
    tr_close_id(&sp);
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
    if (tr_attr_write_strs(t, d, "names", names, n_names) < 0)
        goto out;
    H5TRY(ft = tr_layout_type(l, 1), "cannot build the %s type", l->dataset);
    if ((*d_recs = create_fixed(t, l->dataset, ft, (hsize_t)rows, 0)) < 0)
        goto out;
    if (rows > 0)
        H5TRY(H5Dwrite(*d_recs, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, recs), "cannot write %s", l->dataset);
    H5TRY(H5Fflush(t->file, H5F_SCOPE_LOCAL), "cannot flush after writing %s", l->dataset);
    rc = 0;
out:
    tr_close_id(&ft);
    tr_close_id(&d);
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
        FAIL_ENV("out of memory for %d configurations", n_configs);
    if (n_configs > 0) {
        memcpy(t->params, params, np * sizeof *t->params);
        memcpy(t->configs, configs, (size_t)n_configs * sizeof *t->configs);
    }

    if (write_fixed_pair(t, "/params", H5T_STD_I32LE, H5T_NATIVE_INT32, params, t->param_names, t->n_params,
                         &tr_config_layout, t->mt_config, configs, n_configs, &t->d_configs) < 0)
        goto out;
    t->n_configs = n_configs;
    if (tr_build_run_index(t) < 0)
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
        FAIL_ENV("out of memory for %d inputs", n_inputs);
    if (n_inputs > 0) {
        memcpy(t->dims, dims, nd * sizeof *t->dims);
        memcpy(t->inputs, inputs, (size_t)n_inputs * sizeof *t->inputs);
    }

    if (write_fixed_pair(t, "/dims", H5T_STD_I64LE, H5T_NATIVE_INT64, dims, t->dim_names, t->n_dims, &tr_input_layout,
                         t->mt_input, inputs, n_inputs, &t->d_inputs) < 0)
        goto out;
    t->n_inputs = n_inputs;
    if (tr_build_run_index(t) < 0)
        goto out;
    rc = 0;
out:
    return rc;
}

/* Write `count` elements of memtype from buf at [start, start+count) of 1-D dataset d (no extent change). */
int tr_write_rows(struct trace *t, hid_t d, const char *name, hid_t memtype, hsize_t start, hsize_t count,
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
    tr_close_id(&ms);
    tr_close_id(&fs);
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
    if (tr_write_rows(t, t->d_configs, "/configs", t->mt_config, (hsize_t)config, 1, c) < 0)
        return -1;
    if (H5Fflush(t->file, H5F_SCOPE_LOCAL) < 0) {
        tr_h5fail(t->path, "H5Fflush()", "cannot flush after updating /configs");
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
    if (tr_write_rows(t, t->d_inputs, "/inputs", t->mt_input, (hsize_t)input, 1, in) < 0)
        return -1;
    if (H5Fflush(t->file, H5F_SCOPE_LOCAL) < 0) {
        tr_h5fail(t->path, "H5Fflush()", "cannot flush after updating /inputs");
        return -1;
    }
    t->inputs[input] = *in;
    return 0;
}

/* Refuse an append that may not fit: HDF5 cannot undo a failed write, and once it has recorded an end of file
 * past what the disk took, the whole file is unreadable ("truncated file"; tests/test-trace-crash.c,
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
    if (tr_check_run_row(t, -1, run) < 0)
        goto out;
    if ((size_t)run->n_estimate + (size_t)run->n_warmup + (size_t)run->n_timed != n_exec)
        FAIL("appended run: n_estimate + n_warmup + n_timed = %zu but %zu executions were given",
             (size_t)run->n_estimate + (size_t)run->n_warmup + (size_t)run->n_timed, n_exec);
    if (tr_check_run_durations(t, -1, run, exec_ns, n_exec) < 0)
        goto out;
    /* Memory first, so that a failed allocation leaves the file as it was. */
    if (tr_reserve(t, t->n_runs + 1, t->n_exec + n_exec + 1) < 0)
        goto out;
    row = *run;
    row.exec_offset = (int64_t)t->n_exec;
    if (t->no_run_flush && t->compress_on_close) /* deferred: trace_close writes everything, compressed */
        goto in_memory;
    if (check_space(t, n_exec) < 0)
        goto out;

    /* Executions, flush, then the run row that makes them reachable, flush. A process killed between the two
     * leaves values past the last run's end, which readers ignore and resumed writers overwrite. Within a flush
     * HDF5 writes raw data before the metadata that makes it visible. */
    if (n_exec > 0) {
        ext = (hsize_t)(t->n_exec + n_exec);
        H5TRY(H5Dset_extent(t->d_exec, &ext), "cannot extend /exec_ns to %llu values", (unsigned long long)ext);
        if (tr_write_rows(t, t->d_exec, "/exec_ns", H5T_NATIVE_UINT64, (hsize_t)t->n_exec, (hsize_t)n_exec,
                          exec_ns) < 0)
            goto out;
        if (!t->no_run_flush)
            H5TRY(H5Fflush(t->file, H5F_SCOPE_LOCAL), "cannot flush the appended executions");
    }
    ext = (hsize_t)(t->n_runs + 1);
    H5TRY(H5Dset_extent(t->d_runs, &ext), "cannot extend /runs to %llu rows", (unsigned long long)ext);
    runs_extended = 1;
    if (tr_write_rows(t, t->d_runs, "/runs", t->mt_run, (hsize_t)t->n_runs, 1, &row) < 0)
        goto out;
    if (!t->no_run_flush)
        H5TRY(H5Fflush(t->file, H5F_SCOPE_LOCAL), "cannot flush the appended run");
    runs_extended = 0;
in_memory:
    if (n_exec > 0)
        memcpy(t->exec + t->n_exec, exec_ns, n_exec * sizeof *exec_ns);
    t->runs[t->n_runs] = row;
    t->valid[t->n_runs] = tr_run_is_valid(&row, t->exec + t->n_exec);
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
        FAIL_ENV("out of memory");
    H5TRY(st = tr_vlen_str_type(), "cannot write /compile_log");
    if (t->d_log < 0) {
        hsize_t n = (hsize_t)t->n_configs;
        if ((empty = calloc((size_t)t->n_configs, sizeof *empty)) == NULL)
            FAIL_ENV("out of memory");
        for (int i = 0; i < t->n_configs; i++)
            empty[i] = (char *)"";
        H5TRY(sp = H5Screate_simple(1, &n, NULL), "cannot create /compile_log");
        H5TRY(t->d_log = H5Dcreate2(t->file, "/compile_log", st, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
              "cannot create /compile_log");
        H5TRY(H5Dwrite(t->d_log, st, H5S_ALL, H5S_ALL, H5P_DEFAULT, empty), "cannot write /compile_log");
    }
    if (tr_write_rows(t, t->d_log, "/compile_log", st, (hsize_t)config, 1, &copy) < 0)
        goto out;
    H5TRY(H5Fflush(t->file, H5F_SCOPE_LOCAL), "cannot flush after writing /compile_log");
    free(t->logs[config]);
    t->logs[config] = copy;
    copy = NULL;
    rc = 0;
out:
    free(copy);
    free(empty);
    tr_close_id(&sp);
    tr_close_id(&st);
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
        FAIL_ENV("out of memory");
    if (n > 0)
        memcpy(copy, warmup_ms, n * sizeof *copy);
    if (t->d_warmup < 0 &&
        (t->d_warmup = create_extendible(t, "/compile_warmup_ms", H5T_IEEE_F64LE, WARMUP_CHUNK, 0)) < 0)
        goto out;
    H5TRY(H5Dset_extent(t->d_warmup, &n), "cannot resize /compile_warmup_ms");
    if (n > 0 && tr_write_rows(t, t->d_warmup, "/compile_warmup_ms", H5T_NATIVE_DOUBLE, 0, n, warmup_ms) < 0)
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
    if (tr_attr_write_strs(t, d, name, (char *const *)values, n) < 0)
        goto out;
    if (t->vtab == NULL && ((t->vtab = calloc((size_t)t->n_params, sizeof *t->vtab)) == NULL ||
                            (t->n_vtab = calloc((size_t)t->n_params, sizeof *t->n_vtab)) == NULL))
        FAIL_ENV("out of memory");
    tr_free_strs(t->vtab[p], t->n_vtab[p]);
    t->n_vtab[p] = 0;
    if ((t->vtab[p] = tr_dup_strs(values, n)) == NULL)
        FAIL_ENV("out of memory");
    t->n_vtab[p] = n;
    rc = 0;
out:
    tr_close_id(&d);
    return rc;
}
