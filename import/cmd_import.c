/* cmd_import.c — `tunecost import kerneltuner|t4 IN... -o OUT.h5`: other autotuners' recorded search spaces as
 * a trace (format v1), so that info, simulate and report run on them. The mapping and what is lost are in
 * docs/import.md.
 *
 * Memory: each input file is mapped (mmap), never read into the heap; the top-level structure is walked by a
 * small scanner and each cache entry (or T4 result) is parsed on its own with json-c and freed at once. Two
 * passes: the first learns the configurations (the trace needs /params before any run), the second appends the
 * runs. The trace library keeps the executions in memory as it writes them (8 bytes each). */
#include "tc_atomic.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_version.h"
#include "trace.h"
#include "tunecost.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_PARAMS 64
#define MAX_DIMS 8

enum fmt { FMT_KT, FMT_T4 };

/* One input file: its bytes (mapped) and what its header says. */
struct src {
    const char *path;
    const char *buf; /* mapped file, len bytes */
    size_t len;
    int versioned;   /* Kernel Tuner: a schema_version was present */
    char device[512], kernel[512]; /* compared in full; the trace keeps the first 127 / 63 bytes */
    char objective[64];             /* Kernel Tuner's objective key (a failure marker may sit there) */
    int n_dims;
    int64_t dims[MAX_DIMS];
    int n_params;
    char *params[MAX_PARAMS];       /* tune_params_keys (T4: the first result's configuration keys) */
    struct json_object *tune_params; /* Kernel Tuner: the values of each parameter, or NULL */
    size_t body;                    /* offset of the cache object's '{' (KT) or the results array's '[' (T4) */
    int truncated;                  /* the file ends inside the cache: an interrupted tuning run */
};

/* One parsed entry, in trace units. */
struct entry {
    char key[1024];   /* the parameter values' text joined by ',' */
    const char *vals[MAX_PARAMS]; /* each value's JSON text (points into `texts`) */
    char texts[1024];
    int status;       /* enum trace_status */
    double compile_ms, verify_ms, bench_ms;
    size_t n_times;
    double *times_ms; /* n_times, owned by the caller's buffer */
};

/* A configuration: its key and, per parameter, the value's text. */
struct cfg {
    char *key;
    char **vals;
    int status;
    double compile_ms;
};

struct imp {
    enum fmt fmt;
    int n_src;
    struct src *src;
    /* configurations, with an open-addressing hash of their keys */
    struct cfg *cfgs;
    int n_cfg, cap_cfg;
    int *hash;
    size_t hash_cap;
    double *times; /* scratch for one entry's times */
    size_t times_cap;
    int n_params; /* of every source (checked equal) */
    const char *opt_device, *opt_kernel, *opt_dims;
    size_t n_entries, n_wall_fallback, n_single_time, n_revisits, n_no_compile, n_nan_time;
};

/* ---- the top-level scanner -------------------------------------------------------------------------------- */

static void skip_ws(const struct src *s, size_t *pos)
{
    while (*pos < s->len && (s->buf[*pos] == ' ' || s->buf[*pos] == '\t' || s->buf[*pos] == '\n' ||
                             s->buf[*pos] == '\r'))
        (*pos)++;
}

/* Parse the one JSON value at *pos (advancing past it). Returns the value (the caller puts it), or NULL with
 * tc_errmsg set; *eof is set when the file ends inside the value. */
static struct json_object *parse_at(struct json_tokener *tok, const struct src *s, size_t *pos, const char *what,
                                    int *eof)
{
    struct json_object *v;
    size_t n = s->len - *pos;
    *eof = 0;
    json_tokener_reset(tok);
    if (n > INT_MAX)
        n = INT_MAX;
    v = json_tokener_parse_ex(tok, s->buf + *pos, (int)n);
    if (v == NULL) {
        enum json_tokener_error e = json_tokener_get_error(tok);
        if (e == json_tokener_continue) {
            /* a bare number at the very end needs a terminator: give it one */
            v = json_tokener_parse_ex(tok, " ", 1);
            if (v == NULL) {
                *eof = 1;
                tc_seterr("%s: %s: the file ends inside it (truncated JSON)", s->path, what);
                return NULL;
            }
            *pos = s->len;
            return v;
        }
        tc_seterr("%s: %s: malformed JSON at byte %zu (%s)", s->path, what, *pos + json_tokener_get_parse_end(tok),
                  json_tokener_error_desc(e));
        return NULL;
    }
    *pos += json_tokener_get_parse_end(tok);
    return v;
}

/* Skip one JSON value without building it (strings, nesting). Returns 0, or -1 when the file ends first. */
static int skip_value(const struct src *s, size_t *pos)
{
    int depth = 0, in_str = 0;
    size_t i = *pos;
    for (; i < s->len; i++) {
        char c = s->buf[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = 0;
            else
                continue;
            if (depth == 0 && !in_str) {
                *pos = i + 1;
                return 0;
            }
            continue;
        }
        if (c == '"')
            in_str = 1;
        else if (c == '{' || c == '[')
            depth++;
        else if (c == '}' || c == ']') {
            if (--depth <= 0) {
                *pos = i + 1;
                return depth == 0 ? 0 : -1;
            }
        } else if (depth == 0 && (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' ||
                                  c == '\t')) {
            *pos = i;
            return 0;
        }
    }
    return -1;
}

/* Read a key string and the ':' after it. Returns 1 with the key in buf, 0 at the object's closing '}', -1 on
 * an error, -2 when the file ends here. */
static int next_key(struct json_tokener *tok, const struct src *s, size_t *pos, int first, char *buf, size_t len,
                    const char *what)
{
    struct json_object *k;
    int eof;
    skip_ws(s, pos);
    if (*pos >= s->len)
        return -2;
    if (s->buf[*pos] == '}') {
        (*pos)++;
        return 0;
    }
    if (!first) {
        if (s->buf[*pos] != ',')
            return tc_seterr("%s: %s: malformed JSON at byte %zu (expected ',' or '}')", s->path, what, *pos);
        (*pos)++;
        skip_ws(s, pos);
        if (*pos >= s->len)
            return -2;
    }
    if (s->buf[*pos] != '"')
        return tc_seterr("%s: %s: malformed JSON at byte %zu (expected a key)", s->path, what, *pos);
    if ((k = parse_at(tok, s, pos, what, &eof)) == NULL)
        return eof ? -2 : -1;
    snprintf(buf, len, "%s", json_object_get_string(k));
    json_object_put(k);
    skip_ws(s, pos);
    if (*pos >= s->len)
        return -2;
    if (s->buf[*pos] != ':')
        return tc_seterr("%s: %s: malformed JSON at byte %zu (expected ':')", s->path, what, *pos);
    (*pos)++;
    skip_ws(s, pos);
    return 1;
}

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
    int first = 1, r, have_cache = 0, have_keys = 0, have_ps = 0;
    skip_ws(s, &pos);
    if (pos >= s->len || s->buf[pos] != '{')
        return tc_seterr("%s: expected a JSON object (a Kernel Tuner cache file)", s->path);
    pos++;
    while ((r = next_key(tok, s, &pos, first, key, sizeof key, "top level")) == 1) {
        first = 0;
        if (strcmp(key, "cache") == 0) {
            have_cache = 1;
            s->body = pos;
            if (pos >= s->len || s->buf[pos] != '{')
                return tc_seterr("%s: key 'cache': expected an object", s->path);
            if (skip_value(s, &pos) != 0) { /* an interrupted tuning run: the file ends inside the cache */
                s->truncated = 1;
                break;
            }
            (void)madvise((void *)s->buf, pos / (size_t)sysconf(_SC_PAGESIZE) * (size_t)sysconf(_SC_PAGESIZE),
                          MADV_DONTNEED);
            continue;
        }
        int eof;
        struct json_object *v = parse_at(tok, s, &pos, key, &eof);
        if (v == NULL)
            return -1;
        if (strcmp(key, "schema_version") == 0) {
            s->versioned = 1;
        } else if (strcmp(key, "device_name") == 0 && json_object_is_type(v, json_type_string)) {
            snprintf(s->device, sizeof s->device, "%s", json_object_get_string(v));
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
                s->params[i] = strdup(json_object_get_string(e));
                s->n_params = (int)i + 1;
            }
            s->n_params = (int)n;
            have_keys = 1;
        } else if (strcmp(key, "objective") == 0 && json_object_is_type(v, json_type_string)) {
            snprintf(s->objective, sizeof s->objective, "%s", json_object_get_string(v));
        } else if (strcmp(key, "tune_params") == 0 && json_object_is_type(v, json_type_object)) {
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
    if (s->device[0] == '\0')
        return tc_seterr("%s: missing key 'device_name'", s->path);
    if (s->kernel[0] == '\0')
        return tc_seterr("%s: missing key 'kernel_name'", s->path);
    if (!have_ps)
        s->n_dims = 0; /* Kernel Tuner before 0.4.5 wrote none: the inputs are numbered */
    return 0;
}

static int read_t4_header(struct json_tokener *tok, struct src *s)
{
    size_t pos = 0;
    char key[256];
    int first = 1, r, have_results = 0;
    skip_ws(s, &pos);
    if (pos >= s->len || s->buf[pos] != '{')
        return tc_seterr("%s: expected a JSON object (T4 results)", s->path);
    pos++;
    while ((r = next_key(tok, s, &pos, first, key, sizeof key, "top level")) == 1) {
        first = 0;
        if (strcmp(key, "results") == 0) {
            have_results = 1;
            s->body = pos;
            if (pos >= s->len || s->buf[pos] != '[')
                return tc_seterr("%s: key 'results': expected an array", s->path);
        }
        if (skip_value(s, &pos) != 0)
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
    if (isfinite(*out) && *out < 0)
        return tc_seterr("%s: %s: key '%s' is negative (%g)", s->path, where, name, *out);
    return 0;
}

static int reserve_times(struct imp *im, size_t n)
{
    if (n <= im->times_cap)
        return 0;
    double *p = realloc(im->times, n * sizeof *p);
    if (p == NULL)
        return tc_seterr("out of memory");
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

/* Kernel Tuner: one cache entry. A failure marker in any member, or, in old caches, a time of 1e20 or more, makes
 * it a failed run; else its "times" (or, without them, its mean "time" as one execution) are the executions. */
static int kt_entry(struct imp *im, const struct src *s, const char *cache_key, struct json_object *o,
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
    json_object_object_foreach(o, mk, mv) {
        (void)mk;
        int st;
        if (json_object_is_type(mv, json_type_string) && (st = kt_marker(json_object_get_string(mv))) >= 0) {
            e->status = st;
            if (st == TRACE_OUT_OF_RESOURCES)
                e->compile_ms = NAN; /* refused before compilation: no compile time */
            return 0;
        }
    }
    int has_time = json_object_object_get_ex(o, "time", &t) && !json_object_is_type(t, json_type_null);
    int has_times = json_object_object_get_ex(o, "times", &times) && json_object_is_type(times, json_type_array) &&
                    json_object_array_length(times) > 0;
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
        if (isfinite(time_ms) && time_ms <= 0)
            return tc_seterr("%s: %s: key 'time' is %g (expected a positive number of milliseconds)", s->path,
                             where, time_ms);
    }
    if (has_times) {
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
            im->times[i] = v;
        }
        e->n_times = n;
    } else { /* old caches: only the mean; one execution of that length (docs/import.md) */
        if (!isfinite(time_ms))
            return tc_seterr("%s: %s: key 'time' is %g and there are no 'times' (expected a positive number of "
                             "milliseconds or a failure marker)", s->path, where, time_ms);
        if (reserve_times(im, 1) != 0)
            return -1;
        im->times[0] = time_ms;
        e->n_times = 1;
        im->n_single_time++;
    }
    e->times_ms = im->times;
    return 0;
}

/* T4: one result. */
static int t4_entry(struct imp *im, struct src *s, size_t idx, struct json_object *o, struct entry *e)
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
    /* runtimes' unit: the "time" measurement's unit where given (Kernel Tuner writes "ms"), else ms */
    double scale = 1.0;
    struct json_object *ms;
    if (json_object_object_get_ex(o, "measurements", &ms) && json_object_is_type(ms, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(ms); i++) {
            struct json_object *m = json_object_array_get_idx(ms, i), *nm, *un;
            const char *name = NULL, *u = NULL;
            if (json_object_object_get_ex(m, "name", &nm))
                name = json_object_get_string(nm); /* NULL for JSON null */
            if (name == NULL || strcmp(name, "time") != 0)
                continue;
            if (!json_object_object_get_ex(m, "unit", &un) || (u = json_object_get_string(un)) == NULL)
                continue; /* no unit: Kernel Tuner's milliseconds */
            static const struct {
                const char *unit;
                double to_ms;
            } units[] = {{"s", 1e3}, {"seconds", 1e3}, {"ms", 1.0}, {"milliseconds", 1.0}, {"us", 1e-3},
                         {"\xc2\xb5s", 1e-3}, {"\xce\xbcs", 1e-3}, {"microseconds", 1e-3}, {"ns", 1e-6},
                         {"nanoseconds", 1e-6}};
            size_t k;
            for (k = 0; k < sizeof units / sizeof units[0] && strcmp(units[k].unit, u) != 0; k++)
                ;
            if (k == sizeof units / sizeof units[0])
                return tc_seterr("%s: %s: key 'measurements': unit '%s' of 'time' is not one of s, ms, us, ns", s->path,
                                 where, u);
            scale = units[k].to_ms;
        }
    }
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
        im->times[i] = v;
    }
    e->n_times = n;
    e->times_ms = im->times;
    return 0;
}

/* Let the kernel take back the pages of the mapped file behind `pos` (they are read again only by the next
 * pass): the file is never resident as a whole, so a 500 MB cache costs tens of MB of mapping, not 500. */
static void release_behind(const struct src *s, size_t pos, size_t *released)
{
    const size_t step = (size_t)64 << 20, page = (size_t)sysconf(_SC_PAGESIZE);
    if (pos < *released + step)
        return;
    size_t end = pos / page * page;
    (void)madvise((void *)(s->buf + *released), end - *released, MADV_DONTNEED);
    *released = end;
}

/* Call fn for every entry of source s, in file order. */
typedef int (*entry_fn)(struct imp *im, int src, const struct entry *e);

static int walk(struct imp *im, struct json_tokener *tok, int si, entry_fn fn)
{
    struct src *s = &im->src[si];
    size_t pos = s->body + 1, idx = 0;
    char key[1024];
    struct entry e;
    int first = 1, eof;
    size_t released = 0;
    if (im->fmt == FMT_KT) {
        int r;
        while ((r = next_key(tok, s, &pos, first, key, sizeof key, "key 'cache'")) == 1) {
            first = 0;
            struct json_object *o = parse_at(tok, s, &pos, "key 'cache'", &eof);
            if (o == NULL) {
                if (eof && s->truncated)
                    return tc_seterr("%s: the file ends inside cache entry '%s' (truncated JSON)", s->path, key);
                return -1;
            }
            int rc = kt_entry(im, s, key, o, &e);
            json_object_put(o);
            if (rc != 0 || fn(im, si, &e) != 0)
                return -1;
            release_behind(s, pos, &released);
        }
        if (r == -1)
            return -1;
        if (r == -2 && !s->truncated)
            return tc_seterr("%s: the file ends inside key 'cache' (truncated JSON)", s->path);
        return 0;
    }
    for (;; idx++) { /* T4: the results array */
        skip_ws(s, &pos);
        if (pos >= s->len)
            return tc_seterr("%s: the file ends inside key 'results' (truncated JSON)", s->path);
        if (s->buf[pos] == ']')
            return 0;
        if (idx > 0) {
            if (s->buf[pos] != ',')
                return tc_seterr("%s: key 'results': malformed JSON at byte %zu (expected ',' or ']')", s->path, pos);
            pos++;
            skip_ws(s, &pos);
        }
        struct json_object *o = parse_at(tok, s, &pos, "key 'results'", &eof);
        if (o == NULL)
            return -1;
        int rc = t4_entry(im, s, idx, o, &e);
        json_object_put(o);
        if (rc != 0 || fn(im, si, &e) != 0)
            return -1;
        release_behind(s, pos, &released);
    }
}

/* ---- configurations --------------------------------------------------------------------------------------- */

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static int find_cfg(const struct imp *im, const char *key)
{
    if (im->hash_cap == 0)
        return -1;
    for (size_t i = hash_str(key) & (im->hash_cap - 1);; i = (i + 1) & (im->hash_cap - 1)) {
        if (im->hash[i] < 0)
            return -1;
        if (strcmp(im->cfgs[im->hash[i]].key, key) == 0)
            return im->hash[i];
    }
}

static int add_cfg(struct imp *im, const struct entry *e, int n_params)
{
    if ((size_t)(im->n_cfg + 1) * 2 > im->hash_cap) { /* grow and rehash */
        size_t cap = im->hash_cap ? im->hash_cap * 2 : 1024;
        int *h = malloc(cap * sizeof *h);
        if (h == NULL)
            return tc_seterr("out of memory");
        for (size_t i = 0; i < cap; i++)
            h[i] = -1;
        for (int c = 0; c < im->n_cfg; c++) {
            size_t i = hash_str(im->cfgs[c].key) & (cap - 1);
            while (h[i] >= 0)
                i = (i + 1) & (cap - 1);
            h[i] = c;
        }
        free(im->hash);
        im->hash = h;
        im->hash_cap = cap;
    }
    if (im->n_cfg == im->cap_cfg) {
        int cap = im->cap_cfg ? 2 * im->cap_cfg : 256;
        struct cfg *p = realloc(im->cfgs, (size_t)cap * sizeof *p);
        if (p == NULL)
            return tc_seterr("out of memory");
        im->cfgs = p;
        im->cap_cfg = cap;
    }
    struct cfg *c = &im->cfgs[im->n_cfg];
    memset(c, 0, sizeof *c);
    c->key = strdup(e->key);
    c->vals = calloc((size_t)n_params, sizeof *c->vals);
    if (c->key == NULL || c->vals == NULL)
        return tc_seterr("out of memory");
    for (int p = 0; p < n_params; p++)
        if ((c->vals[p] = strdup(e->vals[p])) == NULL)
            return tc_seterr("out of memory");
    c->status = e->status;
    c->compile_ms = e->compile_ms;
    size_t i = hash_str(c->key) & (im->hash_cap - 1);
    while (im->hash[i] >= 0)
        i = (i + 1) & (im->hash_cap - 1);
    im->hash[i] = im->n_cfg;
    return im->n_cfg++;
}

/* Pass 1: learn every configuration; a configuration's status is ok when it ran correctly on any input, else
 * the first failure seen; its compile time is the first one recorded. */
static int learn(struct imp *im, int si, const struct entry *e)
{
    int c = find_cfg(im, e->key);
    (void)si;
    if (c < 0 && (c = add_cfg(im, e, im->n_params)) < 0)
        return -1;
    struct cfg *cf = &im->cfgs[c];
    if (e->status == TRACE_OK)
        cf->status = TRACE_OK;
    if (isnan(cf->compile_ms) && !isnan(e->compile_ms))
        cf->compile_ms = e->compile_ms;
    im->n_entries++;
    return 0;
}

/* ---- pass 2: runs ----------------------------------------------------------------------------------------- */

struct writer {
    struct imp *im;
    struct trace *t;
    uint64_t *exec;
    size_t exec_cap;
    unsigned char *seen; /* per configuration: already has a run from the current file */
    int seen_file;
};
static struct writer *g_writer; /* walk()'s callback has no context slot: the one writer of this process */

static int append(struct imp *im, int si, const struct entry *e)
{
    struct writer *w = g_writer;
    struct trace_run run;
    int c = find_cfg(im, e->key);
    if (c < 0)
        return tc_seterr("%s: configuration '%s' appeared in the second pass only (the file changed?)",
                         im->src[si].path, e->key);
    if (w->seen_file != si) { /* a new file: nothing of it seen yet */
        memset(w->seen, 0, (size_t)im->n_cfg);
        w->seen_file = si;
    }
    if (w->seen[c]) { /* a revisit (T4 lists every visit; a revisit repeats the first one's times): kept once */
        im->n_revisits++;
        return 0;
    }
    w->seen[c] = 1;
    memset(&run, 0, sizeof run);
    run.input = si;
    run.config = c;
    run.status = e->status;
    run.n_timed = (int32_t)e->n_times;
    run.verify_ms = e->verify_ms;
    run.flush_ms = 0;
    run.estimate_ms = NAN;
    run.rel_error = NAN;
    if (e->n_times > w->exec_cap) {
        uint64_t *p = realloc(w->exec, e->n_times * sizeof *p);
        if (p == NULL)
            return tc_seterr("out of memory");
        w->exec = p;
        w->exec_cap = e->n_times;
    }
    double sum_ms = 0;
    for (size_t i = 0; i < e->n_times; i++) {
        double ns = e->times_ms[i] * 1e6;
        w->exec[i] = ns < 1 ? 1 : ns >= 9.2e18 ? (uint64_t)9.2e18 : (uint64_t)llround(ns);
        sum_ms += e->times_ms[i];
    }
    /* benchmark time covers the executions and what surrounds them; where it is missing or smaller than the
     * executions it cannot be, and the executions alone stand for it (no overhead; docs/import.md) */
    if (isfinite(e->bench_ms) && e->bench_ms >= sum_ms && e->bench_ms > 0) {
        run.wall_ms = e->bench_ms;
    } else {
        run.wall_ms = sum_ms;
        if (e->status == TRACE_OK)
            im->n_wall_fallback++;
    }
    return trace_append_run(w->t, &run, w->exec, e->n_times);
}

/* ---- the command ------------------------------------------------------------------------------------------ */

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: tunecost import FORMAT IN... -o OUT.h5 [options]\n"
            "\n"
            "Import another autotuner's recorded search space as a tunecost trace, so that info, simulate and\n"
            "report run on it. Each IN file is one input (problem size) of one kernel on one device; several files\n"
            "of the same kernel, parameters and device make one trace with several inputs. docs/import.md gives\n"
            "the mapping and what is lost (warm-up executions are not recorded by these formats; flops are not\n"
            "known, so commands show times instead of TFLOP/s).\n"
            "\n"
            "FORMAT:\n"
            "  kerneltuner   a Kernel Tuner cache file (JSON; schema 1.0.0, 1.1.0 or the older unversioned form;\n"
            "                a cache whose tuning run was interrupted is read up to its last complete entry)\n"
            "  t4            T4 results (JSON, the open autotuning results schema Kernel Tuner writes)\n"
            "\n"
            "options:\n"
            "  -o, --output OUT.h5     the trace to write (required; complete or absent)\n"
            "  -f, --force             replace OUT.h5 if it exists\n"
            "      --device NAME       t4: the device name (T4 results do not name it) [unknown]\n"
            "      --kernel NAME       t4: the kernel name [unknown]\n"
            "      --problem-size AxB  t4, one IN file: the problem size (default: inputs numbered 0, 1, ...)\n"
            "  -q, --quiet             no summary on stdout\n"
            "  -h, --help              this help\n"
            "\n"
            "examples:\n"
            "  tunecost import kerneltuner gemm_A100_4096.json -o gemm-a100.h5\n"
            "  tunecost import kerneltuner convolution_*_A100.json -o conv-a100.h5   # one input per file\n"
            "  tunecost import t4 results.json --device A100 --kernel gemm --problem-size 4096x4096 -o t.h5\n"
            "  tunecost info gemm-a100.h5 && tunecost simulate gemm-a100.h5 --all-inputs -o sim\n");
}

static int map_file(struct src *s)
{
    struct stat st;
    int fd = open(s->path, O_RDONLY);
    if (fd < 0)
        return tc_seterr("%s: cannot open: %s", s->path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return tc_seterr("%s: not a regular file", s->path);
    }
    if (st.st_size == 0) {
        close(fd);
        return tc_seterr("%s: empty file (expected JSON)", s->path);
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return tc_seterr("%s: cannot map: %s", s->path, strerror(errno));
    (void)madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
    s->buf = p;
    s->len = (size_t)st.st_size;
    return 0;
}

static void imp_free(struct imp *im)
{
    for (int i = 0; i < im->n_src; i++) {
        struct src *s = &im->src[i];
        if (s->buf != NULL)
            munmap((void *)s->buf, s->len);
        for (int p = 0; p < s->n_params; p++)
            free(s->params[p]);
        json_object_put(s->tune_params);
    }
    free(im->src);
    for (int c = 0; c < im->n_cfg; c++) {
        for (int p = 0; p < im->n_params; p++)
            free(im->cfgs[c].vals[p]);
        free(im->cfgs[c].vals);
        free(im->cfgs[c].key);
    }
    free(im->cfgs);
    free(im->hash);
    free(im->times);
}

/* The headers of all sources agree: one kernel, one device, one parameter set, one number of dimensions. */
static int check_sources(struct imp *im)
{
    const struct src *a = &im->src[0];
    for (int i = 1; i < im->n_src; i++) {
        const struct src *b = &im->src[i];
        if (strcmp(a->kernel, b->kernel) != 0)
            return tc_seterr("%s: kernel '%s' differs from %s's '%s' (one kernel per trace)", b->path, b->kernel,
                             a->path, a->kernel);
        if (strcmp(a->device, b->device) != 0)
            return tc_seterr("%s: device '%s' differs from %s's '%s' (one device per trace)", b->path, b->device,
                             a->path, a->device);
        if (a->n_params != b->n_params)
            return tc_seterr("%s: %d tunable parameters, %s has %d (one parameter set per trace)", b->path,
                             b->n_params, a->path, a->n_params);
        for (int p = 0; p < a->n_params; p++)
            if (strcmp(a->params[p], b->params[p]) != 0)
                return tc_seterr("%s: parameter %d is '%s', in %s '%s' (one parameter set per trace)", b->path, p,
                                 b->params[p], a->path, a->params[p]);
        if (a->n_dims != b->n_dims)
            return tc_seterr("%s: key 'problem_size' has %d dimensions, %s's %d", b->path, b->n_dims, a->path,
                             a->n_dims);
    }
    im->n_params = a->n_params;
    return 0;
}

/* A JSON integer text within int32 ("16", "-3"; not "1.0", "true", "\"a\""). */
static int int_text(const char *s, int32_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || errno != 0 || v < INT32_MIN || v > INT32_MAX)
        return 0;
    *out = (int32_t)v;
    return 1;
}

/* /params: integer parameters as they are; any other parameter as indices into its value table (the
 * tune_params order where the cache gives it, else the order of first appearance). */
static int build_params(struct imp *im, int32_t *params, char ***tables, int *n_table)
{
    for (int p = 0; p < im->n_params; p++) {
        int all_int = 1;
        int32_t v;
        for (int c = 0; c < im->n_cfg && all_int; c++)
            all_int = int_text(im->cfgs[c].vals[p], &v);
        tables[p] = NULL;
        n_table[p] = 0;
        if (all_int) {
            for (int c = 0; c < im->n_cfg; c++) {
                int_text(im->cfgs[c].vals[p], &v);
                params[(size_t)c * im->n_params + p] = v;
            }
            continue;
        }
        char **tab = calloc((size_t)im->n_cfg + 64, sizeof *tab);
        int n = 0;
        struct json_object *vals;
        if (tab == NULL)
            return tc_seterr("out of memory");
        tables[p] = tab;
        if (im->src[0].tune_params != NULL &&
            json_object_object_get_ex(im->src[0].tune_params, im->src[0].params[p], &vals) &&
            json_object_is_type(vals, json_type_array)) {
            for (size_t i = 0; i < json_object_array_length(vals) && n < im->n_cfg + 63; i++) {
                const char *txt = json_object_to_json_string_ext(json_object_array_get_idx(vals, i),
                                                                 JSON_C_TO_STRING_PLAIN |
                                                                     JSON_C_TO_STRING_NOSLASHESCAPE);
                int k;
                for (k = 0; k < n && strcmp(tab[k], txt) != 0; k++)
                    ;
                if (k == n && (tab[n++] = strdup(txt)) == NULL)
                    return tc_seterr("out of memory");
            }
        }
        for (int c = 0; c < im->n_cfg; c++) {
            int k;
            for (k = 0; k < n && strcmp(tab[k], im->cfgs[c].vals[p]) != 0; k++)
                ;
            if (k == n && (tab[n++] = strdup(im->cfgs[c].vals[p])) == NULL)
                return tc_seterr("out of memory");
            params[(size_t)c * im->n_params + p] = k;
        }
        n_table[p] = n;
    }
    return 0;
}

int cmd_import(int argc, char **argv)
{
    static const struct option longopts[] = {
        TC_CLI_OPT_OUTPUT, TC_CLI_OPT_FORCE,
        {"device", required_argument, NULL, 'D'},  {"kernel", required_argument, NULL, 'K'},
        {"problem-size", required_argument, NULL, 'P'}, TC_CLI_OPT_QUIET,
        TC_CLI_OPT_HELP, TC_CLI_OPT_END,
    };
    struct imp im;
    struct json_tokener *tok = NULL;
    struct trace *t = NULL;
    struct writer w;
    const char *out = NULL;
    char tmp[PATH_MAX] = "";
    int force = 0, quiet = 0, opt, rc = 2, n_dims = 0;
    int32_t *params = NULL;
    char **tables[MAX_PARAMS] = {NULL};
    int n_table[MAX_PARAMS] = {0};
    int64_t *dims = NULL, ps[MAX_DIMS];
    struct trace_config *configs = NULL;
    struct trace_input *inputs = NULL;
    struct stat st;

    memset(&im, 0, sizeof im);
    memset(&w, 0, sizeof w);
    optind = 1;
    while ((opt = tc_cli_next("import", argc, argv, "o:fqh", longopts)) != -1) {
        switch (opt) {
        case TC_CLI_ERROR: return 2;
        case 'o': out = optarg; break;
        case 'f': force = 1; break;
        case 'q': quiet = 1; break;
        case 'D': im.opt_device = optarg; break;
        case 'K': im.opt_kernel = optarg; break;
        case 'P': im.opt_dims = optarg; break;
        case 'h': usage(stdout); return 0;
        default: return tc_cli_usage_error("import", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind < 2)
        return tc_cli_usage_error("import", "expected FORMAT (kerneltuner or t4) and at least one IN file");
    if (strcmp(argv[optind], "kerneltuner") == 0)
        im.fmt = FMT_KT;
    else if (strcmp(argv[optind], "t4") == 0)
        im.fmt = FMT_T4;
    else {
        return tc_cli_usage_error("import", "unknown FORMAT '%s' (expected kerneltuner or t4)", argv[optind]);
    }
    if (out == NULL) {
        return tc_cli_usage_error("import", "missing -o OUT.h5 (the trace to write)");
    }
    im.n_src = argc - optind - 1;
    if (im.fmt == FMT_KT && (im.opt_device || im.opt_kernel || im.opt_dims)) {
        fprintf(stderr, "tunecost import: --device, --kernel and --problem-size are for t4 (a Kernel Tuner cache "
                        "names them itself)\n");
        return 2;
    }
    if (im.opt_dims != NULL) {
        if (im.n_src != 1) {
            fprintf(stderr, "tunecost import: --problem-size: only with one IN file (got %d)\n", im.n_src);
            return 2;
        }
        for (n_dims = 1; n_dims <= MAX_DIMS; n_dims++)
            if (tc_parse_shape("--problem-size", im.opt_dims, n_dims, INT64_MAX / 2, ps) == 0)
                break;
        if (n_dims > MAX_DIMS) {
            fprintf(stderr, "tunecost import: --problem-size: expected AxB... (1 to %d positive integers), got '%s'\n",
                    MAX_DIMS, im.opt_dims);
            return 2;
        }
    }
    if (tc_output_check("-o", out, 0, (const char *const *)argv + optind + 1, im.n_src) != 0) {
        fprintf(stderr, "tunecost import: %s\n", tc_errmsg());
        return 2;
    }
    if (!force && stat(out, &st) == 0) {
        fprintf(stderr, "tunecost import: %s exists (use --force to replace it)\n", out);
        return 2;
    }
    if ((im.src = calloc((size_t)im.n_src, sizeof *im.src)) == NULL || (tok = json_tokener_new()) == NULL) {
        fprintf(stderr, "tunecost import: out of memory\n");
        rc = 1;
        goto out;
    }

    /* Headers, then pass 1: the configurations. */
    for (int i = 0; i < im.n_src; i++) {
        struct src *s = &im.src[i];
        s->path = argv[optind + 1 + i];
        if (map_file(s) != 0)
            goto fail;
        if (im.fmt == FMT_KT) {
            if (read_kt_header(tok, s) != 0)
                goto fail;
        } else {
            if (read_t4_header(tok, s) != 0)
                goto fail;
            snprintf(s->device, sizeof s->device, "%s", im.opt_device ? im.opt_device : "unknown");
            snprintf(s->kernel, sizeof s->kernel, "%s", im.opt_kernel ? im.opt_kernel : "unknown");
            s->n_dims = 0;
            if (im.opt_dims != NULL) {
                s->n_dims = n_dims;
                memcpy(s->dims, ps, sizeof ps);
            }
        }
    }
    if (im.fmt == FMT_KT && check_sources(&im) != 0)
        goto fail;
    if (im.fmt == FMT_T4) {
        /* T4 names no parameters in a header: the first result's configuration gives them (in its order), and
         * every other file must use the same names (a missing one is reported by name) */
        struct src *s0 = &im.src[0];
        size_t pos = s0->body + 1;
        int eof;
        struct entry e;
        skip_ws(s0, &pos);
        if (pos < s0->len && s0->buf[pos] != ']') {
            struct json_object *o = parse_at(tok, s0, &pos, "key 'results'", &eof);
            if (o == NULL)
                goto fail;
            int r = t4_entry(&im, s0, 0, o, &e);
            json_object_put(o);
            if (r != 0)
                goto fail;
        }
        im.n_params = s0->n_params;
        for (int j = 1; j < im.n_src; j++) {
            for (int p = 0; p < im.n_params; p++)
                if ((im.src[j].params[p] = strdup(s0->params[p])) == NULL) {
                    tc_seterr("out of memory");
                    goto fail_work;
                }
            im.src[j].n_params = im.n_params;
        }
    }
    for (int i = 0; i < im.n_src; i++) {
        if (walk(&im, tok, i, learn) != 0)
            goto fail;
        if (!quiet && im.src[i].truncated)
            fprintf(stderr, "import: note: %s ends inside its cache (an interrupted tuning run?): read up to its "
                            "last complete entry\n", im.src[i].path);
    }
    if (im.fmt == FMT_T4 && check_sources(&im) != 0)
        goto fail;
    if (im.n_cfg == 0) {
        fprintf(stderr, "tunecost import: %s: no configurations in it (an empty cache or results list)\n",
                im.src[0].path);
        goto out;
    }

    /* The trace: params and configs, dims and inputs, then pass 2: the runs. */
    n_dims = im.src[0].n_dims;
    const char *dim_names_xyz[] = {"x", "y", "z", "d3", "d4", "d5", "d6", "d7"};
    const char *dim_names_idx[] = {"input"};
    const char *const *dnames = n_dims > 0 ? dim_names_xyz : dim_names_idx;
    int nd = n_dims > 0 ? n_dims : 1;
    params = malloc((size_t)im.n_cfg * (size_t)im.n_params * sizeof *params);
    configs = calloc((size_t)im.n_cfg, sizeof *configs);
    dims = calloc((size_t)im.n_src * (size_t)nd, sizeof *dims);
    inputs = calloc((size_t)im.n_src, sizeof *inputs);
    if (params == NULL || configs == NULL || dims == NULL || inputs == NULL) {
        tc_seterr("out of memory");
        goto fail_work;
    }
    if (build_params(&im, params, tables, n_table) != 0)
        goto fail_work;
    for (int c = 0; c < im.n_cfg; c++) {
        configs[c].status = im.cfgs[c].status;
        configs[c].compile_ms = im.cfgs[c].compile_ms;
        if (isnan(configs[c].compile_ms) && configs[c].status != TRACE_OUT_OF_RESOURCES) {
            configs[c].compile_ms = 0; /* not recorded (Kernel Tuner before 0.4.3): charged as 0 (docs/import.md) */
            im.n_no_compile++;
        }
        configs[c].load_ms = NAN;
        configs[c].registers = -1;
        configs[c].smem_bytes = -1;
        configs[c].spill_bytes = -1;
    }
    for (int i = 0; i < im.n_src; i++) {
        for (int d = 0; d < nd; d++)
            dims[(size_t)i * nd + d] = n_dims > 0 ? im.src[i].dims[d] : i;
        inputs[i].flops = NAN; /* not known: commands show times instead of TFLOP/s */
        inputs[i].ref_ms = NAN;
    }
    for (int i = 0; i < im.n_src; i++)
        for (int j = 0; j < i; j++)
            if (memcmp(dims + (size_t)i * nd, dims + (size_t)j * nd, (size_t)nd * sizeof *dims) == 0) {
                fprintf(stderr, "tunecost import: %s: key 'problem_size' is the same as %s's (one file per input)\n",
                        im.src[i].path, im.src[j].path);
                goto out;
            }
    {
        struct trace_meta m;
        memset(&m, 0, sizeof m);
        snprintf(m.generator, sizeof m.generator, "tunecost %s import %s", TC_VERSION, argv[optind]);
        /* the trace keeps the first 63 / 127 bytes (the files were compared in full above) */
        snprintf(m.kernel, sizeof m.kernel, "%.*s", (int)sizeof m.kernel - 1, im.src[0].kernel);
        snprintf(m.device_name, sizeof m.device_name, "%.*s", (int)sizeof m.device_name - 1, im.src[0].device);
        snprintf(m.timer, sizeof m.timer, "unknown");
        snprintf(m.protocol, sizeof m.protocol, "%s", im.fmt == FMT_KT ? "kerneltuner" : "t4");
        m.warmup_ms = NAN;
        m.rep_ms = NAN;
        m.compile_jobs = 1;
        if (tc_atomic_tmpname(out, tmp, sizeof tmp) != 0)
            goto fail_work;
        t = trace_create(tmp, &m, (const char *const *)im.src[0].params, im.n_params, dnames, nd);
    }
    if (t == NULL || trace_write_configs(t, im.n_cfg, params, configs) != 0 ||
        trace_write_inputs(t, im.n_src, dims, inputs) != 0)
        goto fail_work;
    for (int p = 0; p < im.n_params; p++)
        if (tables[p] != NULL && trace_set_param_values(t, p, (const char *const *)tables[p], n_table[p]) != 0)
            goto fail_work;
    trace_set_flush_each_run(t, 0);
    w.im = &im;
    w.t = t;
    w.seen_file = -1;
    im.n_single_time = im.n_nan_time = 0; /* counted again, once, in the second pass */
    if ((w.seen = calloc((size_t)im.n_cfg, 1)) == NULL) {
        tc_seterr("out of memory");
        goto fail_work;
    }
    g_writer = &w;
    for (int i = 0; i < im.n_src; i++)
        if (walk(&im, tok, i, append) != 0)
            goto fail;
    size_t n_runs = trace_n_runs(t), n_exec = trace_n_exec(t);
    int rc_close = trace_close(t);
    t = NULL;
    if (rc_close != 0 || tc_atomic_rename(tmp, out) != 0) {
        tmp[0] = '\0';
        goto fail_work;
    }
    tmp[0] = '\0';
    if (!quiet) {
        printf("imported %d file(s) (%s): %d inputs, %d configurations, %zu runs, %zu timed executions -> %s\n",
               im.n_src, argv[optind], im.n_src, im.n_cfg, n_runs, n_exec, out);
        if (im.n_wall_fallback > 0)
            printf("note: %zu runs had no usable benchmark_time: their tuning time is their executions alone "
                   "(no overhead)\n", im.n_wall_fallback);
        if (im.n_nan_time > 0)
            printf("note: %zu entries had a NaN 'time' (a failed measurement): recorded as launch errors\n",
                   im.n_nan_time);
        if (im.n_no_compile > 0)
            printf("note: %zu configurations had no compile time: recorded as 0 ms (compilation is not charged)\n",
                   im.n_no_compile);
        if (im.n_revisits > 0)
            printf("note: %zu revisits of a configuration already imported from the same file were skipped\n",
                   im.n_revisits);
        if (im.n_single_time > 0)
            printf("note: %zu entries had no 'times': each counts as one execution of its mean 'time'\n",
                   im.n_single_time);
    }
    rc = 0;
    goto out;
fail_work: /* a failure while writing (memory, disk) */
    fprintf(stderr, "tunecost import: %s\n", tc_errmsg());
    rc = 1;
    goto out;
fail: /* the input is at fault */
    fprintf(stderr, "tunecost import: %s\n", tc_errmsg());
    rc = 2;
out:
    if (t != NULL)
        (void)trace_close(t);
    if (tmp[0] != '\0')
        unlink(tmp);
    for (int p = 0; p < MAX_PARAMS; p++) {
        for (int k = 0; tables[p] != NULL && k < n_table[p]; k++)
            free(tables[p][k]);
        free(tables[p]);
    }
    free(w.exec);
    free(w.seen);
    free(params);
    free(configs);
    free(dims);
    free(inputs);
    if (tok != NULL)
        json_tokener_free(tok);
    imp_free(&im);
    return rc;
}
