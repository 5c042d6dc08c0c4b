/* record_write.c — a reconstructed session (record.h) written as a trace, complete or absent: into a temporary
 * beside the target (tc_atomic_tmpname), renamed into place when whole. */
#include "record.h"
#include "tc_atomic.h"
#include "tc_err.h"

#include <limits.h>
#include <unistd.h>

static int write_tables(const struct rec_session *r, struct trace *t)
{
    if (trace_write_configs(t, r->n_configs, r->params, r->configs) != 0 ||
        trace_write_inputs(t, r->n_inputs, r->dims, r->inputs) != 0)
        return -1;
    for (int c = 0; c < r->n_params; c++)
        if (r->param_values[c] != NULL &&
            trace_set_param_values(t, c, (const char *const *)r->param_values[c], r->n_param_values[c]) != 0)
            return -1;
    trace_set_flush_each_run(t, 0);
    for (size_t i = 0; i < r->n_runs; i++) {
        const struct trace_run *run = &r->runs[i];
        size_t n = (size_t)run->n_estimate + (size_t)run->n_warmup + (size_t)run->n_timed;
        if (trace_append_run(t, run, r->exec_ns + run->exec_offset, n) != 0)
            return -1;
    }
    return 0;
}

int rec_session_write(const struct rec_session *r, const struct trace_meta *meta, const char *path)
{
    char tmp[PATH_MAX];
    struct trace *t;
    int rc = -1;
    if (tc_atomic_tmpname(path, tmp, sizeof tmp) != 0)
        return -1;
    t = trace_create(tmp, meta, (const char *const *)r->param_names, r->n_params,
                     (const char *const *)r->dim_names, r->n_dims);
    if (t == NULL)
        goto out;
    rc = write_tables(r, t);
    if (trace_close(t) != 0)
        rc = -1;
    if (rc == 0)
        return tc_atomic_rename(tmp, path); /* removes tmp on failure */
out:
    unlink(tmp);
    return -1;
}
