/* import_formats.c — the two formats `tunecost import` reads: a Kernel Tuner cache's header and entries, T4
 * results' header and results, each entry turned into trace units (struct entry), and the walk over a file's
 * entries in file order (import.h; docs/import.md gives the mapping). */
#include "import.h"
#include "tc_err.h"
#include "trace.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- headers ---------------------------------------------------------------------------------------------- */

static int set_dims_from(struct src *s, struct json_object *ps)
{
    if (json_object_is_type(ps, json_type_int)) {
        s->n_dims = 1;
        s->dims[0] = json_object_get_int64(ps);
    } else if (json_object_is_type(ps, json_type_array)) {
        size_t n = json_object_array_length(ps);
        if (n < 1 || n > MAX_DIMS)
            return tc_seterr("%s: key 'problem_size': expected 1 to %d integers, got %zu values", s->path, MAX_DIMS,
                             n);
        for (size_t i = 0; i < n; i++) {
            struct json_object *v = json_object_array_get_idx(ps, i);
            if (json_object_is_type(v, json_type_string)) { /* an expression of the parameters: numbered */
                s->n_dims = 0;
                return 0;
            }
            if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
                return tc_seterr("%s: key 'problem_size': value %zu is not a non-negative integer", s->path, i);
            s->dims[i] = json_object_get_int64(v);
        }
        s->n_dims = (int)n;
    } else {
        s->n_dims = 0; /* a string (schema 1.1.0): the inputs are numbered instead (docs/import.md) */
    }
    return 0;
}

static int read_kt_header(struct json_tokener *tok, struct src *s)
{
    size_t pos = 0;
    char key[256];
    int first = 1, r, have_cache = 0, have_keys = 0, have_ps = 0, have_device = 0;
    imp_skip_ws(s, &pos);
    if (pos >= s->len || s->buf[pos] != '{')
        return tc_seterr("%s: expected a JSON object (a Kernel Tuner cache file)", s->path);
    pos++;
    while ((r = imp_next_key(tok, s, &pos, first, key, sizeof key, "top level")) == 1) {
        first = 0;
        if (strcmp(key, "cache") == 0) {
            have_cache = 1;
            s->body = pos;
            if (pos >= s->len || s->buf[pos] != '{')
                return tc_seterr("%s: key 'cache': expected an object", s->path);
            if (imp_skip_value(s, &pos) != 0) { /* an interrupted tuning run: the file ends inside the cache */
                s->truncated = 1;
                break;
            }
            (void)madvise((void *)s->buf, pos / (size_t)sysconf(_SC_PAGESIZE) * (size_t)sysconf(_SC_PAGESIZE),
                          MADV_DONTNEED);
            continue;
        }
        int eof;
        struct json_object *v = imp_parse_at(tok, s, &pos, key, &eof);
        if (v == NULL)
            return -1;
        if (strcmp(key, "schema_version") == 0) {
            s->versioned = 1;
        } else if (strcmp(key, "device_name") == 0 && json_object_is_type(v, json_type_string)) {
            /* Kernel Tuner writes "" where it could not name the device: recorded as "unknown", like T4's */
            const char *dev = json_object_get_string(v);
            snprintf(s->device, sizeof s->device, "%s", dev[0] != '\0' ? dev : "unknown");
            have_device = 1;
        } else if (strcmp(key, "kernel_name") == 0 && json_object_is_type(v, json_type_string)) {
            snprintf(s->kernel, sizeof s->kernel, "%s", json_object_get_string(v));
        } else if (strcmp(key, "problem_size") == 0) {
            have_ps = 1;
            if (set_dims_from(s, v) != 0) {
                json_object_put(v);
                return -1;
            }
        } else if (strcmp(key, "tune_params_keys") == 0) {
            size_t n = json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 0;
            if (n < 1 || n > MAX_PARAMS) {
                json_object_put(v);
                return tc_seterr("%s: key 'tune_params_keys': expected 1 to %d parameter names", s->path, MAX_PARAMS);
            }
            for (int i = 0; i < MAX_PARAMS; i++) { /* the key written twice: the last counts, as in Python */
                free(s->params[i]);
                s->params[i] = NULL;
            }
            s->n_params = 0;
            for (size_t i = 0; i < n; i++) {
                struct json_object *e = json_object_array_get_idx(v, i);
                if (!json_object_is_type(e, json_type_string) || json_object_get_string(e)[0] == '\0') {
                    json_object_put(v);
                    return tc_seterr("%s: key 'tune_params_keys': entry %zu is not a non-empty string", s->path, i);
                }
                for (size_t j = 0; j < i; j++)
                    if (strcmp(s->params[j], json_object_get_string(e)) == 0) {
                        json_object_put(v);
                        return tc_seterr("%s: key 'tune_params_keys': '%s' is listed twice", s->path, s->params[j]);
                    }
                if ((s->params[i] = strdup(json_object_get_string(e))) == NULL) {
                    json_object_put(v);
                    return tc_seterr_env("%s: out of memory", s->path);
                }
                s->n_params = (int)i + 1;
            }
            s->n_params = (int)n;
            have_keys = 1;
        } else if (strcmp(key, "objective") == 0 && json_object_is_type(v, json_type_string)) {
            snprintf(s->objective, sizeof s->objective, "%s", json_object_get_string(v));
            s->objective_is_metric = strcmp(s->objective, "time") != 0 && s->objective[0] != '\0';
        } else if (strcmp(key, "objective_higher_is_better") == 0 && json_object_is_type(v, json_type_boolean)) {
            s->higher_is_better = json_object_get_boolean(v);
        } else if (strcmp(key, "tune_params") == 0 && json_object_is_type(v, json_type_object)) {
            json_object_put(s->tune_params); /* the key written twice: the last counts */
            s->tune_params = json_object_get(v);
        }
        json_object_put(v);
    }
    if (r == -1)
        return -1;
    if (r == -2 && !have_cache)
        return tc_seterr("%s: the file ends before key 'cache' (truncated JSON)", s->path);
    if (!have_cache)
        return tc_seterr("%s: missing key 'cache'", s->path);
    if (!have_keys)
        return tc_seterr("%s: missing key 'tune_params_keys'", s->path);
    if (!have_device)
        return tc_seterr("%s: missing key 'device_name'", s->path);
    if (s->kernel[0] == '\0')
        return tc_seterr("%s: missing key 'kernel_name'", s->path);
    if (!have_ps)
        s->n_dims = 0; /* Kernel Tuner before 0.4.5 wrote none: the inputs are numbered */
    return 0;
}

/* A time unit's length in ms: the names T4 files use, "" (Kernel Tuner's converter writes it for milliseconds) and
 * the converter's misspelt "miliseconds"; 0 for an unknown unit. */
static double unit_to_ms(const char *u)
{
    static const struct {
        const char *unit;
        double to_ms;
    } units[] = {{"s", 1e3},           {"seconds", 1e3},      {"ms", 1.0},           {"milliseconds", 1.0},
                 {"miliseconds", 1.0}, {"", 1.0},             {"us", 1e-3},          {"\xc2\xb5s", 1e-3},
                 {"\xce\xbcs", 1e-3},  {"microseconds", 1e-3}, {"ns", 1e-6},          {"nanoseconds", 1e-6}};
    for (size_t k = 0; k < sizeof units / sizeof units[0]; k++)
        if (strcmp(units[k].unit, u) == 0)
            return units[k].to_ms;
    return 0;
}

/* T4 metadata that `tunecost export t4` writes (and Kernel Tuner's converter, in part): the problem size, the
 * device and the kernel (the import's --problem-size, --device and --kernel take precedence), and a metric
 * objective with its direction (T4 itself gives none). */
static int t4_metadata(struct src *s, struct json_object *md)
{
    struct json_object *v;
    if (json_object_object_get_ex(md, "problem_size", &v) && set_dims_from(s, v) != 0)
        return -1;
    if (json_object_object_get_ex(md, "device_name", &v) && json_object_is_type(v, json_type_string))
        snprintf(s->device, sizeof s->device, "%s", json_object_get_string(v));
    if (json_object_object_get_ex(md, "kernel_name", &v) && json_object_is_type(v, json_type_string))
        snprintf(s->kernel, sizeof s->kernel, "%s", json_object_get_string(v));
    if (json_object_object_get_ex(md, "objective", &v) && json_object_is_type(v, json_type_string)) {
        snprintf(s->objective, sizeof s->objective, "%s", json_object_get_string(v));
        s->objective_is_metric = strcmp(s->objective, "time") != 0 && s->objective[0] != '\0';
    }
    if (json_object_object_get_ex(md, "objective_higher_is_better", &v) && json_object_is_type(v, json_type_boolean))
        s->higher_is_better = json_object_get_boolean(v);
    return 0;
}

static int read_t4_header(struct json_tokener *tok, struct src *s)
{
    size_t pos = 0;
    char key[256];
    int first = 1, r, have_results = 0;
    imp_skip_ws(s, &pos);
    if (pos >= s->len || s->buf[pos] != '{')
        return tc_seterr("%s: expected a JSON object (T4 results)", s->path);
    pos++;
    while ((r = imp_next_key(tok, s, &pos, first, key, sizeof key, "top level")) == 1) {
        first = 0;
        if (strcmp(key, "results") == 0) {
            have_results = 1;
            s->body = pos;
            if (pos >= s->len || s->buf[pos] != '[')
                return tc_seterr("%s: key 'results': expected an array", s->path);
        } else if (strcmp(key, "metadata") == 0) { /* its timeunit, where given, is the runtimes' unit */
            int eof;
            struct json_object *v = imp_parse_at(tok, s, &pos, key, &eof), *u;
            if (v == NULL)
                return -1;
            if (json_object_is_type(v, json_type_object) && json_object_object_get_ex(v, "timeunit", &u) &&
                json_object_is_type(u, json_type_string) &&
                (s->t4_timeunit_ms = unit_to_ms(json_object_get_string(u))) == 0) {
                tc_seterr("%s: key 'metadata': timeunit '%s' is not one of s, ms, us, ns", s->path,
                          json_object_get_string(u));
                json_object_put(v);
                return -1;
            }
            if (json_object_is_type(v, json_type_object) && t4_metadata(s, v) != 0) {
                json_object_put(v);
                return -1;
            }
            json_object_put(v);
            continue;
        }
        if (imp_skip_value(s, &pos) != 0)
            return tc_seterr("%s: key '%s': the file ends inside it (truncated JSON)", s->path, key);
    }
    if (r == -1)
        return -1;
    if (r == -2)
        return tc_seterr("%s: the file ends inside the top-level object (truncated JSON)", s->path);
    if (!have_results)
        return tc_seterr("%s: missing key 'results'", s->path);
    return 0;
}

/* The longest execution a trace holds: 2^63 ns (292 years) in ms; longer ones are refused, not cut short. */
#define MAX_EXEC_MS 9.2e12

/* ---- entries ---------------------------------------------------------------------------------------------- */

static int number_of(struct json_object *o, const char *name, double *out, int required, const struct src *s,
                     const char *where)
{
    struct json_object *v;
    if (!json_object_object_get_ex(o, name, &v) || json_object_is_type(v, json_type_null)) {
        *out = NAN;
        return required ? tc_seterr("%s: %s: missing key '%s'", s->path, where, name) : 0;
    }
    if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
        return tc_seterr("%s: %s: key '%s' is not a number", s->path, where, name);
    *out = json_object_get_double(v);
    if (isinf(*out)) /* NaN: not recorded; an infinite duration no reader could use */
        return tc_seterr("%s: %s: key '%s' is %s (expected a finite number of milliseconds)", s->path, where, name,
                         *out > 0 ? "Infinity" : "-Infinity");
    if (*out < 0)
        return tc_seterr("%s: %s: key '%s' is negative (%g)", s->path, where, name, *out);
    return 0;
}

static int reserve_times(struct imp *im, size_t n)
{
    if (n <= im->times_cap)
        return 0;
    double *p = realloc(im->times, n * sizeof *p);
    if (p == NULL)
        return tc_seterr_env("out of memory");
    im->times = p;
    im->times_cap = n;
    return 0;
}

/* The parameter values of an entry: from its members (Kernel Tuner, T4 "configuration"), or, in an old cache
 * without them, from the cache key split at ','. */
static int entry_values(const struct src *s, struct json_object *conf, const char *cache_key, struct entry *e,
                        const char *where)
{
    char keycopy[1024];
    const char *parts[MAX_PARAMS];
    int n_parts = 0;
    size_t used = 0, klen = 0;
    if (cache_key != NULL) {
        snprintf(keycopy, sizeof keycopy, "%s", cache_key);
        for (char *save = NULL, *t = strtok_r(keycopy, ",", &save); t != NULL && n_parts < MAX_PARAMS;
             t = strtok_r(NULL, ",", &save))
            parts[n_parts++] = t;
    }
    e->key[0] = '\0';
    for (int p = 0; p < s->n_params; p++) {
        struct json_object *v;
        const char *txt;
        if (conf != NULL && json_object_object_get_ex(conf, s->params[p], &v))
            txt = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
        else if (p < n_parts)
            txt = parts[p];
        else
            return tc_seterr("%s: %s: missing key '%s' (a tunable parameter)", s->path, where, s->params[p]);
        size_t l = strlen(txt);
        if (used + l + 1 > sizeof e->texts || klen + l + 2 > sizeof e->key)
            return tc_seterr("%s: %s: parameter values too long", s->path, where);
        memcpy(e->texts + used, txt, l + 1);
        e->vals[p] = e->texts + used;
        used += l + 1;
        if (p > 0)
            e->key[klen++] = ',';
        memcpy(e->key + klen, txt, l + 1);
        klen += l;
    }
    return 0;
}

/* Kernel Tuner's failure markers: a member whose value is one of these strings marks the entry failed (Kernel
 * Tuner 1.4 writes it under "__error__", 1.0-1.3 under "time" or the objective; its own reader looks at every
 * member). ErrorConfig, the base class, counts as a launch error. */
static int kt_marker(const char *m)
{
    return strcmp(m, "InvalidConfig") == 0             ? TRACE_OUT_OF_RESOURCES
           : strcmp(m, "CompilationFailedConfig") == 0 ? TRACE_COMPILE_ERROR
           : strcmp(m, "RuntimeFailedConfig") == 0     ? TRACE_LAUNCH_ERROR
           : strcmp(m, "ErrorConfig") == 0             ? TRACE_LAUNCH_ERROR
                                                       : -1;
}

/* Kernel Tuner: the failure an entry records, or -1 for none. A marker string in any member (Kernel Tuner's own
 * reader looks at every member), or any value at all under "__error__" (Kernel Tuner 1.4 treats every entry that
 * has one as failed: an unknown one is a launch error). */
static int kt_failure(struct json_object *o)
{
    struct json_object *err;
    json_object_object_foreach(o, mk, mv) {
        (void)mk;
        int st;
        if (json_object_is_type(mv, json_type_string) && (st = kt_marker(json_object_get_string(mv))) >= 0)
            return st;
    }
    if (json_object_object_get_ex(o, "__error__", &err))
        return TRACE_LAUNCH_ERROR;
    return -1;
}

/* Kernel Tuner: an entry's "times" into im->times (e->n_times); none: its mean `time` as one execution. */
static int kt_times(struct imp *im, const struct src *s, const char *where, struct json_object *times,
                    double time_ms, struct entry *e)
{
    if (times == NULL && im->pre_times && im->pre_n > 0) { /* read by imp_walk: checked as json-c's would be */
        for (size_t i = 0; i < im->pre_n; i++) {
            double v = im->times[i];
            if (!isfinite(v) || v <= 0)
                return tc_seterr("%s: %s: key 'times': value %zu is not a positive number of milliseconds", s->path,
                                 where, i);
            if (v >= MAX_EXEC_MS)
                return tc_seterr("%s: %s: key 'times': value %zu is %g ms, longer than a trace holds (2^63 ns, 292 "
                                 "years)", s->path, where, i, v);
        }
        e->n_times = im->pre_n;
    } else if (times != NULL) {
        size_t n = json_object_array_length(times);
        if (reserve_times(im, n + 1) != 0)
            return -1;
        for (size_t i = 0; i < n; i++) {
            struct json_object *x = json_object_array_get_idx(times, i);
            double v = json_object_get_double(x);
            if ((!json_object_is_type(x, json_type_double) && !json_object_is_type(x, json_type_int)) ||
                !isfinite(v) || v <= 0)
                return tc_seterr("%s: %s: key 'times': value %zu is not a positive number of milliseconds", s->path,
                                 where, i);
            if (v >= MAX_EXEC_MS)
                return tc_seterr("%s: %s: key 'times': value %zu is %g ms, longer than a trace holds (2^63 ns, 292 "
                                 "years)", s->path, where, i, v);
            im->times[i] = v;
        }
        e->n_times = n;
    } else { /* old caches: only the mean; one execution of that length (docs/import.md) */
        if (!isfinite(time_ms))
            return tc_seterr("%s: %s: key 'time' is %g and there are no 'times' (expected a positive number of "
                             "milliseconds or a failure marker)", s->path, where, time_ms);
        if (time_ms >= MAX_EXEC_MS)
            return tc_seterr("%s: %s: key 'time' is %g ms, longer than a trace holds (2^63 ns, 292 years)", s->path,
                             where, time_ms);
        if (reserve_times(im, 1) != 0)
            return -1;
        im->times[0] = time_ms;
        e->n_times = 1;
        im->n_single_time++;
    }
    e->times_ms = im->times;
    return 0;
}

/* Kernel Tuner: the value of the cache's objective metric (other than time) in entry o, NaN where absent. */
static int kt_objective(const struct src *s, const char *where, struct json_object *o, struct entry *e)
{
    struct json_object *v;
    e->objective = NAN;
    if (!s->objective_is_metric || !json_object_object_get_ex(o, s->objective, &v) ||
        json_object_is_type(v, json_type_null))
        return 0;
    if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
        return tc_seterr("%s: %s: key '%s' (the cache's objective) is not a number", s->path, where, s->objective);
    e->objective = json_object_get_double(v);
    if (isinf(e->objective))
        return tc_seterr("%s: %s: key '%s' (the cache's objective) is %g (expected a finite number)", s->path, where,
                         s->objective, e->objective);
    return 0;
}

/* Kernel Tuner: one cache entry. A failure (kt_failure) or, in old caches, a time of 1e20 or more makes it a
 * failed run; else its "times" (or, without them, its mean "time" as one execution) are the executions, and its
 * `time` is its true time (Kernel Tuner ranks by it, whatever the aggregation of `times` it came from). */
int imp_kt_entry(struct imp *im, const struct src *s, const char *cache_key, struct json_object *o,
                    struct entry *e)
{
    char where[1100];
    struct json_object *t = NULL, *times;
    snprintf(where, sizeof where, "cache entry '%s'", cache_key);
    if (!json_object_is_type(o, json_type_object))
        return tc_seterr("%s: %s: expected an object", s->path, where);
    if (entry_values(s, o, cache_key, e, where) != 0)
        return -1;
    if (number_of(o, "compile_time", &e->compile_ms, 0, s, where) != 0 ||
        number_of(o, "verification_time", &e->verify_ms, 0, s, where) != 0 ||
        number_of(o, "benchmark_time", &e->bench_ms, 0, s, where) != 0)
        return -1;
    e->n_times = 0;
    e->status = TRACE_OK;
    e->time_ms = e->objective = NAN;
    if ((e->status = kt_failure(o)) >= 0) {
        if (e->status == TRACE_OUT_OF_RESOURCES)
            e->compile_ms = NAN; /* refused before compilation: no compile time */
        return 0;
    }
    e->status = TRACE_OK;
    int has_time = json_object_object_get_ex(o, "time", &t) && !json_object_is_type(t, json_type_null);
    int has_times = json_object_object_get_ex(o, "times", &times) && json_object_is_type(times, json_type_array) &&
                    json_object_array_length(times) > 0;
    if (!has_times && im->pre_times && im->pre_n > 0) { /* "times" read by imp_walk */
        has_times = 1;
        times = NULL;
    }
    if (!has_time && !has_times)
        return tc_seterr("%s: %s: missing key 'time' (and no 'times' or failure marker)", s->path, where);
    double time_ms = NAN;
    if (has_time) {
        if (json_object_is_type(t, json_type_string))
            return tc_seterr("%s: %s: key 'time' is '%s' (expected a number, InvalidConfig, CompilationFailedConfig, "
                             "RuntimeFailedConfig or ErrorConfig)", s->path, where, json_object_get_string(t));
        if (!json_object_is_type(t, json_type_double) && !json_object_is_type(t, json_type_int))
            return tc_seterr("%s: %s: key 'time' is not a number or a failure marker", s->path, where);
        time_ms = json_object_get_double(t);
        if (time_ms >= 1e20 || isnan(time_ms)) { /* old caches: 1e20; a NaN mean: a failed measurement */
            e->status = TRACE_LAUNCH_ERROR;
            im->n_nan_time += isnan(time_ms);
            return 0;
        }
        if (time_ms <= 0)
            return tc_seterr("%s: %s: key 'time' is %g (expected a positive number of milliseconds)", s->path,
                             where, time_ms);
        e->time_ms = time_ms;
    }
    if (kt_times(im, s, where, has_times ? times : NULL, time_ms, e) != 0 || kt_objective(s, where, o, e) != 0)
        return -1;
    if (has_time && has_times) { /* Kernel Tuner's `time` is the mean of `times`; a file where it is not is noted */
        double sum = 0;
        for (size_t i = 0; i < e->n_times; i++)
            sum += e->times_ms[i];
        if (fabs(sum / (double)e->n_times - time_ms) > 0.01 * time_ms)
            im->n_time_disagree++;
    }
    return 0;
}

/* T4: the "time" measurement of result o: its unit (`unit`, else `timeunit`; else `times.timeunit`; else the
 * file's metadata.timeunit; none or "": milliseconds) as *scale, and its value in ms as *time_ms (NaN when absent). An unknown unit is refused. */
static int t4_time_measurement(const struct src *s, const char *where, struct json_object *o,
                               struct json_object *times, double *scale, double *time_ms)
{
    struct json_object *ms, *un, *val;
    const char *u = NULL;
    *scale = s->t4_timeunit_ms > 0 ? s->t4_timeunit_ms : 1.0;
    *time_ms = NAN;
    if (json_object_object_get_ex(times, "timeunit", &un) && json_object_is_type(un, json_type_string))
        u = json_object_get_string(un);
    if (!json_object_object_get_ex(o, "measurements", &ms) || !json_object_is_type(ms, json_type_array))
        ms = NULL;
    for (size_t i = 0; ms != NULL && i < json_object_array_length(ms); i++) {
        struct json_object *m = json_object_array_get_idx(ms, i), *nm;
        const char *name = NULL;
        if (json_object_object_get_ex(m, "name", &nm))
            name = json_object_get_string(nm); /* NULL for JSON null */
        if (name == NULL || strcmp(name, "time") != 0)
            continue;
        if ((json_object_object_get_ex(m, "unit", &un) && json_object_is_type(un, json_type_string)) ||
            (json_object_object_get_ex(m, "timeunit", &un) && json_object_is_type(un, json_type_string)))
            u = json_object_get_string(un);
        if (json_object_object_get_ex(m, "value", &val) &&
            (json_object_is_type(val, json_type_double) || json_object_is_type(val, json_type_int)))
            *time_ms = json_object_get_double(val);
    }
    if (u != NULL && u[0] != '\0' && (*scale = unit_to_ms(u)) == 0) /* "": the converter's ms, or metadata's */
        return tc_seterr("%s: %s: key 'measurements': unit '%s' of 'time' is not one of s, ms, us, ns", s->path,
                         where, u);
    *time_ms *= *scale;
    if (!(isfinite(*time_ms) && *time_ms > 0))
        *time_ms = NAN; /* not usable: the median of the runtimes stands for it */
    return 0;
}

/* T4: the result names an objective other than time (T4 gives no direction: ranked by time, with a note). */
static int t4_objective_is_metric(struct json_object *o)
{
    struct json_object *obj, *first;
    if (!json_object_object_get_ex(o, "objectives", &obj) || !json_object_is_type(obj, json_type_array) ||
        json_object_array_length(obj) == 0)
        return 0;
    first = json_object_array_get_idx(obj, 0);
    return json_object_is_type(first, json_type_string) && strcmp(json_object_get_string(first), "time") != 0;
}

/* T4: the value of the metadata's objective metric among result o's measurements (NaN where absent). */
static int t4_metric(const struct src *s, const char *where, struct json_object *o, struct entry *e)
{
    struct json_object *ms, *m, *nm, *val;
    e->objective = NAN;
    if (!json_object_object_get_ex(o, "measurements", &ms) || !json_object_is_type(ms, json_type_array))
        return 0;
    for (size_t i = 0; i < json_object_array_length(ms); i++) {
        m = json_object_array_get_idx(ms, i);
        if (!json_object_object_get_ex(m, "name", &nm) || !json_object_is_type(nm, json_type_string) ||
            strcmp(json_object_get_string(nm), s->objective) != 0 || !json_object_object_get_ex(m, "value", &val))
            continue;
        if (!json_object_is_type(val, json_type_double) && !json_object_is_type(val, json_type_int))
            return tc_seterr("%s: %s: measurement '%s' (the objective) is not a number", s->path, where,
                             s->objective);
        e->objective = json_object_get_double(val);
        if (!isfinite(e->objective))
            return tc_seterr("%s: %s: measurement '%s' (the objective) is not finite", s->path, where, s->objective);
    }
    return 0;
}

/* T4: one result. */
int imp_t4_entry(struct imp *im, struct src *s, size_t idx, struct json_object *o, struct entry *e)
{
    char where[64];
    struct json_object *conf, *times, *inv, *rt;
    snprintf(where, sizeof where, "results[%zu]", idx);
    if (!json_object_is_type(o, json_type_object))
        return tc_seterr("%s: %s: expected an object", s->path, where);
    if (!json_object_object_get_ex(o, "configuration", &conf) || !json_object_is_type(conf, json_type_object))
        return tc_seterr("%s: %s: missing key 'configuration'", s->path, where);
    if (!json_object_object_get_ex(o, "times", &times) || !json_object_is_type(times, json_type_object))
        return tc_seterr("%s: %s: missing key 'times'", s->path, where);
    if (!json_object_object_get_ex(o, "invalidity", &inv) || !json_object_is_type(inv, json_type_string))
        return tc_seterr("%s: %s: missing key 'invalidity'", s->path, where);
    if (s->n_params == 0) { /* the parameter names: the first result's configuration, in its order */
        json_object_object_foreach(conf, k, v) {
            (void)v;
            if (s->n_params == MAX_PARAMS)
                return tc_seterr("%s: %s: more than %d parameters", s->path, where, MAX_PARAMS);
            s->params[s->n_params++] = strdup(k);
        }
        if (s->n_params == 0)
            return tc_seterr("%s: %s: key 'configuration' is empty", s->path, where);
    } else if ((int)json_object_object_length(conf) != s->n_params) {
        return tc_seterr("%s: %s: key 'configuration' has %d parameters, the first result %d", s->path, where,
                         (int)json_object_object_length(conf), s->n_params);
    }
    if (entry_values(s, conf, NULL, e, where) != 0)
        return -1;
    /* the schema names compilation_time; Kernel Tuner's writer writes compilation and benchmark */
    if (number_of(times, "compilation_time", &e->compile_ms, 0, s, where) != 0 ||
        (isnan(e->compile_ms) && number_of(times, "compilation", &e->compile_ms, 0, s, where) != 0) ||
        number_of(times, "validation", &e->verify_ms, 0, s, where) != 0 ||
        number_of(times, "benchmark", &e->bench_ms, 0, s, where) != 0)
        return -1;
    const char *iv = json_object_get_string(inv);
    e->n_times = 0;
    e->time_ms = e->objective = NAN;
    if (strcmp(iv, "correct") == 0)
        e->status = TRACE_OK;
    else if (strcmp(iv, "compile") == 0)
        e->status = TRACE_COMPILE_ERROR;
    else if (strcmp(iv, "constraints") == 0)
        e->status = TRACE_OUT_OF_RESOURCES;
    else if (strcmp(iv, "runtime") == 0 || strcmp(iv, "timeout") == 0)
        e->status = TRACE_LAUNCH_ERROR;
    else if (strcmp(iv, "correctness") == 0)
        e->status = TRACE_WRONG_RESULT;
    else
        return tc_seterr("%s: %s: key 'invalidity' is '%s' (expected correct, compile, constraints, runtime, "
                         "timeout or correctness)", s->path, where, iv);
    if (e->status != TRACE_OK)
        return 0;
    /* runtimes' unit and the true time: the "time" measurement (Kernel Tuner writes its mean, unit "ms") */
    double scale = 1.0;
    if (t4_time_measurement(s, where, o, times, &scale, &e->time_ms) != 0)
        return -1;
    if (!json_object_object_get_ex(times, "runtimes", &rt) || !json_object_is_type(rt, json_type_array) ||
        json_object_array_length(rt) == 0)
        return tc_seterr("%s: %s: missing key 'times.runtimes' (a correct result needs its run times)", s->path,
                         where);
    size_t n = json_object_array_length(rt);
    if (reserve_times(im, n) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        struct json_object *x = json_object_array_get_idx(rt, i);
        double v = json_object_get_double(x) * scale;
        if ((!json_object_is_type(x, json_type_double) && !json_object_is_type(x, json_type_int)) || !isfinite(v) ||
            v <= 0)
            return tc_seterr("%s: %s: key 'times.runtimes': value %zu is not a positive duration", s->path, where,
                             i);
        if (v >= MAX_EXEC_MS)
            return tc_seterr("%s: %s: key 'times.runtimes': value %zu is %g ms, longer than a trace holds (2^63 ns, "
                             "292 years)", s->path, where, i, v);
        im->times[i] = v;
    }
    e->n_times = n;
    e->times_ms = im->times;
    if (s->objective_is_metric) /* metadata named the metric and its direction (tunecost export t4 writes them) */
        return t4_metric(s, where, o, e);
    if (t4_objective_is_metric(o))
        im->n_t4_objective++;
    return 0;
}

/* Is text[0..n) one JSON number (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?)? */
static int json_number(const char *t, size_t n)
{
    size_t i = 0;
    if (i < n && t[i] == '-')
        i++;
    if (i < n && t[i] == '0')
        i++;
    else if (i < n && t[i] >= '1' && t[i] <= '9')
        while (i < n && t[i] >= '0' && t[i] <= '9')
            i++;
    else
        return 0;
    if (i < n && t[i] == '.') {
        size_t d = ++i;
        while (i < n && t[i] >= '0' && t[i] <= '9')
            i++;
        if (i == d)
            return 0;
    }
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        i++;
        if (i < n && (t[i] == '+' || t[i] == '-'))
            i++;
        size_t d = i;
        while (i < n && t[i] >= '0' && t[i] <= '9')
            i++;
        if (i == d)
            return 0;
    }
    return i == n;
}

/* The array at *pos when it holds only JSON numbers (at least one): into im->times (im->pre_n), *pos past its
 * ']', 1. Anything else (a string, null, NaN, an empty or cut array): 0, *pos unchanged, for json-c to parse
 * and the entry's checks to name. -1: out of memory. */
static int read_number_array(struct imp *im, const struct src *s, size_t *pos)
{
    size_t p = *pos + 1, n = 0;
    char num[64];
    for (;;) {
        imp_skip_ws(s, &p);
        if (p >= s->len)
            return 0;
        if (s->buf[p] == ']' && n > 0)
            break;
        if (n > 0) {
            if (s->buf[p] != ',')
                return 0;
            p++;
            imp_skip_ws(s, &p);
        }
        size_t len = 0;
        while (p + len < s->len && len < sizeof num - 1 && strchr("+-.0123456789eE", s->buf[p + len]) != NULL &&
               s->buf[p + len] != '\0')
            len++;
        if (len == 0 || p + len >= s->len || !json_number(s->buf + p, len))
            return 0;
        memcpy(num, s->buf + p, len); /* the mapping has no NUL after it */
        num[len] = '\0';
        if (reserve_times(im, n + 2) != 0)
            return tc_err_mark_env(), -1;
        im->times[n++] = strtod(num, NULL);
        p += len;
    }
    im->pre_n = n;
    *pos = p + 1;
    return 1;
}

/* A Kernel Tuner cache entry at *pos: an object built member by member with json-c, but its "times" read
 * straight into im->times when they are plain numbers (read_number_array): a json-c number takes about 20 times
 * its text. Members repeated: the last counts, as in json-c's own parse. Not an object: json-c's parse (whose
 * type the entry's check names). NULL with the message set (*eof when the file ends inside it). */
static struct json_object *kt_parse_entry(struct imp *im, struct json_tokener *tok, const struct src *s,
                                          size_t *pos, int *eof)
{
    static const char *const what = "key 'cache'";
    char k[1024];
    size_t p = *pos + 1;
    int first = 1, r;
    struct json_object *o, *v;
    im->pre_times = 0;
    im->pre_n = 0;
    *eof = 0;
    if (*pos >= s->len || s->buf[*pos] != '{')
        return imp_parse_at(tok, s, pos, what, eof);
    if ((o = json_object_new_object()) == NULL)
        return tc_seterr_env("%s: %s: out of memory", s->path, what), NULL;
    while ((r = imp_next_key(tok, s, &p, first, k, sizeof k, what)) == 1) {
        first = 0;
        if (strcmp(k, "times") == 0 && s->buf[p] == '[') {
            int got = read_number_array(im, s, &p);
            if (got < 0)
                break;
            if (got == 1) {
                im->pre_times = 1;
                json_object_object_del(o, "times");
                continue;
            }
        }
        if (imp_is_null(s, p)) { /* json-c parses JSON null to NULL, which imp_parse_at cannot return */
            p += 4;
            v = NULL;
        } else if ((v = imp_parse_at(tok, s, &p, what, eof)) == NULL) {
            r = -1;
            break;
        }
        if (json_object_object_add(o, k, v) != 0) {
            json_object_put(v);
            tc_seterr_env("%s: %s: out of memory", s->path, what);
            r = -1;
            break;
        }
        if (strcmp(k, "times") == 0)
            im->pre_times = 0; /* a later "times" of json-c's counts */
    }
    if (r == 0) {
        *pos = p;
        return o;
    }
    json_object_put(o);
    if (r == -2 || *eof) {
        *eof = 1;
        tc_seterr("%s: %s: the file ends inside it (truncated JSON)", s->path, what);
    } else if (r == 1) { /* read_number_array: memory */
        tc_seterr_env("%s: %s: out of memory reading 'times'", s->path, what);
    }
    return NULL;
}

static int walk_entries(struct imp *im, struct json_tokener *tok, int si, entry_fn fn, void *ctx)
{
    struct src *s = &im->src[si];
    size_t pos = s->body + 1, idx = 0;
    char key[1024];
    struct entry e;
    int first = 1, eof;
    size_t released = 0;
    if (im->fmt == FMT_KT) {
        int r;
        while ((r = imp_next_key(tok, s, &pos, first, key, sizeof key, "key 'cache'")) == 1) {
            first = 0;
            struct json_object *o = kt_parse_entry(im, tok, s, &pos, &eof);
            if (o == NULL) {
                if (eof && s->truncated)
                    return tc_seterr("%s: the file ends inside cache entry '%s' (truncated JSON)", s->path, key);
                return -1;
            }
            int rc = imp_kt_entry(im, s, key, o, &e);
            json_object_put(o);
            if (rc != 0 || fn(im, si, &e, ctx) != 0)
                return -1;
            imp_release_behind(s, pos, &released);
        }
        if (r == -1)
            return -1;
        if (r == -2 && !s->truncated)
            return tc_seterr("%s: the file ends inside key 'cache' (truncated JSON)", s->path);
        return 0;
    }
    for (;; idx++) { /* T4: the results array */
        imp_skip_ws(s, &pos);
        if (pos >= s->len)
            return tc_seterr("%s: the file ends inside key 'results' (truncated JSON)", s->path);
        if (s->buf[pos] == ']')
            return 0;
        if (idx > 0) {
            if (s->buf[pos] != ',')
                return tc_seterr("%s: key 'results': malformed JSON at byte %zu (expected ',' or ']')", s->path, pos);
            pos++;
            imp_skip_ws(s, &pos);
        }
        struct json_object *o = imp_parse_at(tok, s, &pos, "key 'results'", &eof);
        if (o == NULL)
            return -1;
        int rc = imp_t4_entry(im, s, idx, o, &e);
        json_object_put(o);
        if (rc != 0 || fn(im, si, &e, ctx) != 0)
            return -1;
        imp_release_behind(s, pos, &released);
    }
}

/* The file's own text (a key, a value) quoted in a message may hold a newline or other control character (json-c
 * accepts them raw in strings): the message stays one line, each such byte shown as '?'. */
static int imp_one_line(int rc)
{
    char msg[1024];
    int changed = 0, env = tc_err_is_env();
    if (rc == 0)
        return 0;
    snprintf(msg, sizeof msg, "%s", tc_errmsg());
    for (char *p = msg; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f) {
            *p = '?';
            changed = 1;
        }
    if (changed) {
        tc_seterr("%s", msg);
        if (env)
            tc_err_mark_env();
    }
    return rc;
}

int imp_read_kt_header(struct json_tokener *tok, struct src *s)
{
    return imp_one_line(read_kt_header(tok, s));
}

int imp_read_t4_header(struct json_tokener *tok, struct src *s)
{
    return imp_one_line(read_t4_header(tok, s));
}

int imp_walk(struct imp *im, struct json_tokener *tok, int si, entry_fn fn, void *ctx)
{
    return imp_one_line(walk_entries(im, tok, si, fn, ctx));
}
