/* trace.c — the in-memory trace every command reads (trace.h): allocation, the (input, configuration) -> run
 * index, run validity and the accessors. A trace is loaded whole into memory on open (trace_read.c; the simulator
 * replays every execution); a writer keeps the same copy up to date (trace_write.c), so the accessors work alike
 * on a trace being read, written or resumed. The format: docs/trace-format.md. */
#include "trace_int.h"
#include "tc_manifest.h"
#include "tc_paths.h"
#include "tc_opt.h"
#include "tc_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *trace_status_name(int status)
{
    static const char *const names[TRACE_N_STATUS] = {"ok", "compile error", "out of resources", "launch error",
                                                       "wrong result"};
    return tc_name_of(names, TRACE_N_STATUS, status);
}

/* ---- allocation ------------------------------------------------------------------------------------------- */

struct trace *tr_alloc(const char *path)
{
    struct trace *t = calloc(1, sizeof *t);
    if (t == NULL || (t->path = strdup(path)) == NULL) {
        free(t);
        tc_seterr_env("%s: out of memory", path);
        return NULL;
    }
    t->file = t->d_configs = t->d_inputs = t->d_runs = t->d_exec = t->d_log = t->d_warmup = H5I_INVALID_HID;
    t->mt_config = t->mt_input = t->mt_run = H5I_INVALID_HID;
    t->n_configs = t->n_inputs = -1;
    return t;
}

void tr_free_strs(char **s, int n)
{
    if (s == NULL)
        return;
    for (int i = 0; i < n; i++)
        free(s[i]);
    free(s);
}

char **tr_dup_strs(const char *const *s, int n)
{
    char **d = calloc((size_t)(n > 0 ? n : 1), sizeof *d);
    if (d == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        if ((d[i] = strdup(s[i] != NULL ? s[i] : "")) == NULL) {
            tr_free_strs(d, n);
            return NULL;
        }
    }
    return d;
}

/* Grow runs (and valid) to hold `need` rows, exec to hold `need_exec` values. */
int tr_reserve(struct trace *t, size_t need_runs, size_t need_exec)
{
    if (need_runs > t->cap_runs) {
        size_t cap = t->cap_runs ? t->cap_runs : 256;
        while (cap < need_runs)
            cap *= 2;
        struct trace_run *r = realloc(t->runs, cap * sizeof *r);
        if (r == NULL)
            return tc_seterr_env("%s: out of memory for %zu runs", t->path, need_runs);
        t->runs = r;
        unsigned char *v = realloc(t->valid, cap);
        if (v == NULL)
            return tc_seterr_env("%s: out of memory for %zu runs", t->path, need_runs);
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
            return tc_seterr_env("%s: out of memory for %zu executions (%.1f MB)", t->path, need_exec,
                                 (double)need_exec * 8e-6);
        t->exec = e;
        t->cap_exec = cap;
    }
    return 0;
}

/* The (input, config) -> run index, once both sizes are known. */
int tr_build_run_index(struct trace *t)
{
    if (t->n_configs < 0 || t->n_inputs < 0 || t->run_index != NULL)
        return 0;
    size_t n = (size_t)t->n_configs * (size_t)t->n_inputs;
    t->run_index = malloc((n ? n : 1) * sizeof *t->run_index);
    if (t->run_index == NULL)
        return tc_seterr_env("%s: out of memory", t->path);
    for (size_t i = 0; i < n; i++)
        t->run_index[i] = -1;
    for (size_t r = 0; r < t->n_runs; r++)
        t->run_index[(size_t)t->runs[r].input * (size_t)t->n_configs + (size_t)t->runs[r].config] = (long)r;
    return 0;
}

/* Valid: status 0, n_timed > 0 and every duration > 0. */
unsigned char tr_run_is_valid(const struct trace_run *run, const uint64_t *exec)
{
    if (run->status != TRACE_OK || run->n_timed <= 0)
        return 0;
    size_t n = (size_t)run->n_estimate + (size_t)run->n_warmup + (size_t)run->n_timed;
    for (size_t i = 0; i < n; i++)
        if (exec[i] == 0)
            return 0;
    return 1;
}

/* ---- accessors -------------------------------------------------------------------------------------------- */

const char *trace_path(const struct trace *t)
{
    return t->path;
}

const char *trace_kernel_family(const struct trace *t)
{
    const struct tc_manifest *m;
    const struct tc_manifest_row *r;
    if (t->meta.kernel_family[0] != '\0')
        return t->meta.kernel_family;
    m = tc_paths_manifest();
    r = m != NULL ? tc_manifest_trace(m, t->meta.device_name, t->meta.created_utc) : NULL;
    return r != NULL ? r->kernel_family : "unknown";
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

double trace_compile_isolated_ms(const struct trace *t, int config)
{
    return config >= 0 && config < t->n_configs ? t->configs[config].compile_isolated_ms : NAN;
}

int trace_n_compile_warmup(const struct trace *t)
{
    return t->n_warmup;
}

const double *trace_compile_warmup(const struct trace *t)
{
    return t->warmup_ms;
}

double trace_compile_warmup_mean(const struct trace *t)
{
    double sum = 0;
    if (t->n_warmup <= 0)
        return NAN;
    for (int w = 0; w < t->n_warmup; w++)
        sum += t->warmup_ms[w];
    return sum / t->n_warmup;
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
    return trace_timed_median_ns(&t->runs[r], trace_run_exec(t, r));
}

double trace_timed_median_ns(const struct trace_run *run, const uint64_t *exec)
{
    return tc_median_u64(exec + run->n_estimate + run->n_warmup, (size_t)run->n_timed, NULL);
}

int trace_param_values(const struct trace *t, int p, const char *const **values)
{
    int has = t->vtab != NULL && t->n_vtab != NULL && p >= 0 && p < t->n_params && t->vtab[p] != NULL;
    *values = has ? (const char *const *)t->vtab[p] : NULL;
    return has ? t->n_vtab[p] : 0;
}

const char *trace_param_text(const struct trace *t, int config, int p, int json, char *buf, size_t len)
{
    const char *const *vals;
    int32_t v = t->params[(size_t)config * t->n_params + p];
    int n = trace_param_values(t, p, &vals);
    if (n == 0 || v < 0 || v >= n) { /* an integer parameter (the reader checked every index) */
        snprintf(buf, len, "%d", (int)v);
        return buf;
    }
    size_t l = strlen(vals[v]);
    if (!json && l >= 2 && vals[v][0] == '"' && vals[v][l - 1] == '"') /* a JSON string: its text */
        snprintf(buf, len, "%.*s", (int)(l - 2), vals[v] + 1);
    else
        snprintf(buf, len, "%s", vals[v]);
    return buf;
}

int trace_objective_is_metric(const struct trace *t)
{
    return t->meta.objective[0] != '\0' && strcmp(t->meta.objective, "time") != 0;
}

double trace_run_true_ns(const struct trace *t, size_t r)
{
    double ms = t->runs[r].true_ms;
    return isfinite(ms) && ms > 0 ? ms * 1e6 : trace_run_median_ns(t, r);
}

int trace_best_config(const struct trace *t, int input, double *true_ns, int *n_valid)
{
    int best = -1, nv = 0, metric = trace_objective_is_metric(t);
    int higher = metric && t->meta.objective_higher_is_better;
    double best_ns = NAN, best_score = NAN;
    for (int c = 0; c < t->n_configs; c++) {
        long r = trace_find_run(t, input, c);
        if (r < 0 || !trace_run_valid(t, (size_t)r))
            continue;
        double ns = trace_run_true_ns(t, (size_t)r);
        if (isnan(ns)) {
            tc_seterr_env("%s: out of memory", t->path);
            best = -1;
            best_ns = NAN;
            break;
        }
        nv++;
        double score = metric ? t->runs[r].objective : ns; /* lower is better unless `higher` */
        if (isnan(score))
            continue;
        if (best < 0 || (higher ? score > best_score : score < best_score)) {
            best = c;
            best_ns = ns;
            best_score = score;
        }
    }
    if (true_ns != NULL)
        *true_ns = best_ns;
    if (n_valid != NULL)
        *n_valid = nv;
    return best;
}

void trace_set_flush_each_run(struct trace *t, int per_run)
{
    if (t != NULL)
        t->no_run_flush = !per_run;
}
