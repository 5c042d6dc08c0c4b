/* record_write.c — a reconstructed session (record.h) written as a trace, complete or absent: into a temporary
 * beside the target (tc_atomic_tmpname), renamed into place when whole; and as one TSV row per run, for comparison
 * with a tuner's own log. */
#include "record.h"
#include "tc_atomic.h"
#include "tc_err.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

int rec_session_write(const struct rec_session *r, const struct trace_meta *meta, const char *path, int force)
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
        return force ? tc_atomic_rename(tmp, path) : tc_atomic_rename_noreplace(tmp, path); /* remove tmp on failure */
out:
    unlink(tmp);
    return -1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The median of the n values v[i] > 0 (the mean of the two middle ones when their count is even), NaN when none;
 * tmp has room for n. */
static double median_positive(const uint64_t *v, size_t n, uint64_t *tmp)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] > 0)
            tmp[m++] = v[i];
    if (m == 0)
        return NAN;
    qsort(tmp, m, sizeof *tmp, cmp_u64);
    return m % 2 ? (double)tmp[m / 2] : 0.5 * ((double)tmp[m / 2 - 1] + (double)tmp[m / 2]);
}

/* Copy a label into out with tabs and newlines as spaces. */
static void tsv_text(char *out, size_t len, const char *text)
{
    snprintf(out, len, "%s", text);
    for (char *p = out; *p; p++)
        *p = (*p == '\t' || *p == '\n') ? ' ' : *p;
}

int rec_session_write_tsv(const struct rec_session *r, const char *path, int force)
{
    struct tc_atomic a;
    uint64_t *tmp = malloc((r->n_exec + 1) * sizeof *tmp);
    FILE *fp = tmp ? tc_atomic_open(&a, path) : NULL;
    if (fp == NULL) {
        if (tmp == NULL)
            tc_seterr_env("record: out of memory");
        free(tmp);
        return -1;
    }
    fprintf(fp, "run\tinput\tconfig\tinput_label\tconfig_label\tstatus\tn_estimate\tn_warmup\tn_timed\tmedian_ns\t"
                "wall_ms\tflush_ms\testimate_ms\tcompile_ms\tload_ms\tevent_median_ns\tmin_ns\tevent_min_ns\n");
    for (size_t i = 0; i < r->n_runs; i++) {
        const struct trace_run *run = &r->runs[i];
        const struct trace_config *c = &r->configs[run->config];
        const uint64_t *exec = r->exec_ns + run->exec_offset, *event = r->exec_event_ns + run->exec_offset;
        size_t n = (size_t)run->n_estimate + (size_t)run->n_warmup + (size_t)run->n_timed;
        size_t first_timed = n - (size_t)run->n_timed;
        double min_ns = NAN, event_min_ns = NAN;
        char il[4096], cl[8192]; /* as long as the labels reconstruct_table.c builds */
        for (size_t j = 0; j < n; j++)
            if (event[j] > 0 && (j >= first_timed || j < (size_t)run->n_estimate)) {
                min_ns = isnan(min_ns) || (double)exec[j] < min_ns ? (double)exec[j] : min_ns;
                event_min_ns = isnan(event_min_ns) || (double)event[j] < event_min_ns ? (double)event[j] : event_min_ns;
            }
        tsv_text(il, sizeof il, r->input_labels[run->input]);
        tsv_text(cl, sizeof cl, r->config_labels[run->config]);
        fprintf(fp, "%zu\t%d\t%d\t%s\t%s\t%s\t%d\t%d\t%d\t%.1f\t%.4f\t%.4f\t%.6f\t%.3f\t%.3f\t%.1f\t%.1f\t%.1f\n", i,
                run->input, run->config, il, cl, trace_status_name(run->status), run->n_estimate, run->n_warmup,
                run->n_timed, trace_timed_median_ns(run, exec), run->wall_ms, run->flush_ms, run->estimate_ms,
                c->compile_ms, c->load_ms, median_positive(event + first_timed, (size_t)run->n_timed, tmp), min_ns,
                event_min_ns);
    }
    free(tmp);
    return tc_atomic_commit_force(&a, force);
}
