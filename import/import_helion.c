/* import_helion.c — `tunecost import helion BASE.csv...`: Helion's autotune telemetry (HELION_AUTOTUNE_LOG=BASE
 * writes BASE.csv: run_id, timestamp_s, config_id, generation, status, perf_ms, compile_time_s, config) as a
 * trace. Each autotuning run in a file (a run_id, or a timestamp that goes back: the sink restarted) is one input;
 * each helion.Config (its repr or its JSON) is one configuration, its named parameters flattened (block_sizes=[64,
 * 32] is block_sizes_0 = 64, block_sizes_1 = 32); a result row is a run with one execution of perf_ms. The
 * mapping and what is lost are in docs/import.md. */
#include "import.h"
#include "tc_atomic.h"
#include "tc_err.h"
#include "tc_version.h"
#include "trace.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define H_NCOL 8
#define H_MAX_FIELD 65536

static const char *const h_cols[H_NCOL] = {"run_id", "timestamp_s", "config_id", "generation",
                                           "status", "perf_ms", "compile_time_s", "config"};
enum { C_RUN, C_TS, C_ID, C_GEN, C_STATUS, C_PERF, C_COMPILE, C_CONFIG };

/* One result row: a configuration benchmarked (or failed) in one autotuning run. */
struct hrow {
    int input, config, status, generation;
    double perf_ms, wall_ms;
};

/* One configuration: its text (the key) and its parameters' values (NULL: the config does not set it). */
struct hcfg {
    char *key;
    char **vals; /* cap_params entries */
    double compile_ms; /* the first compile time recorded; NaN: none */
    int status;        /* ok when it ran on any input, else the first failure; -1 none */
};

struct himp {
    char **names; /* parameter names, in order of first appearance */
    int n_params, cap_params;
    struct hcfg *cfgs;
    int n_cfg, cap_cfg;
    int *hash;
    size_t hash_cap;
    struct hrow *rows;
    size_t n_rows, cap_rows;
    int n_inputs;
    size_t n_started_only, n_filtered, n_no_compile, n_status[5];
    int max_generation;
    size_t *per_gen; /* configurations per generation, max_generation + 1 */
};

/* ---- CSV (RFC 4180 as Python's csv module writes it: "," separated, '"' quoted, '""' inside, CRLF) -------- */

struct csv {
    const char *path, *p, *end;
    long line; /* of the record being read */
    long next_line;
};

/* Read one record into f[] (each NUL-terminated, at most H_MAX_FIELD bytes). Returns the field count, 0 at the end
 * of the file, -1 on an error (tc_errmsg names the file and line). */
static int helion_csv_record(struct csv *c, char **f, int max_f)
{
    int n = 0;
    size_t len = 0;
    int quoted = 0, after_quote = 0;
    if (c->p >= c->end)
        return 0;
    c->line = c->next_line;
    for (;;) {
        int eof = c->p >= c->end;
        char ch = eof ? '\n' : *c->p;
        if (!eof)
            c->p++;
        if (quoted) {
            if (eof)
                return tc_seterr("%s:%ld: a quoted field is not closed before the end of the file", c->path, c->line);
            if (ch == '"') {
                if (c->p < c->end && *c->p == '"') {
                    c->p++;
                } else {
                    quoted = 0;
                    after_quote = 1;
                    continue;
                }
            } else if (ch == '\n') {
                c->next_line++;
            }
        } else if (ch == '"' && len == 0 && !after_quote) {
            quoted = 1;
            continue;
        } else if (ch == ',' || ch == '\n' || (ch == '\r' && (c->p >= c->end || *c->p == '\n'))) {
            if (n == max_f)
                return tc_seterr("%s:%ld: more than %d fields (expected %d)", c->path, c->line, max_f, H_NCOL);
            f[n++][len] = '\0';
            len = 0;
            after_quote = 0;
            if (ch == '\r' && c->p < c->end)
                c->p++; /* the '\n' after it */
            if (ch == '\n' || ch == '\r') {
                c->next_line++;
                return n;
            }
            continue;
        } else if (after_quote) {
            return tc_seterr("%s:%ld: text after a closing quote (expected ',' or the end of the line)", c->path,
                             c->line);
        }
        if (n == max_f)
            return tc_seterr("%s:%ld: more than %d fields (expected %d)", c->path, c->line, max_f, H_NCOL);
        if (len + 1 >= H_MAX_FIELD)
            return tc_seterr("%s:%ld: field %d longer than %d bytes", c->path, c->line, n + 1, H_MAX_FIELD - 1);
        if (ch == '\0')
            return tc_seterr("%s:%ld: a NUL byte (not a text file?)", c->path, c->line);
        f[n][len++] = ch;
    }
}

/* ---- helion.Config's text: its repr, Config(block_sizes=[64, 32], num_warps=4, pid_type='flat'), or JSON ---- */

/* A Python literal starting at p: its end (past it), or NULL when it does not close before end. */
static const char *helion_py_value_end(const char *p, const char *end)
{
    int depth = 0;
    char q = 0;
    for (; p < end; p++) {
        if (q) {
            if (*p == '\\' && p + 1 < end)
                p++;
            else if (*p == q)
                q = 0;
            continue;
        }
        if (*p == '\'' || *p == '"')
            q = *p;
        else if (*p == '[' || *p == '(' || *p == '{')
            depth++;
        else if (*p == ']' || *p == ')' || *p == '}') {
            if (depth == 0)
                return p;
            depth--;
        } else if (*p == ',' && depth == 0)
            return p;
    }
    return depth == 0 && q == 0 ? p : NULL;
}

/* The value's text as the trace keeps it, JSON (as the value tables of other imports, docs/trace-format.md):
 * 'flat' -> "flat", None / True / False -> null / true / false, inside nested lists too; numbers as written. */
static void helion_value_text(const char *a, const char *b, char *out, size_t cap)
{
    size_t n = 0;
    while (a < b && isspace((unsigned char)*a))
        a++;
    while (b > a && isspace((unsigned char)b[-1]))
        b--;
    for (const char *p = a; p < b && n + 8 < cap; p++) {
        if (*p == '\'' || *p == '"') {
            char q = *p;
            out[n++] = '"';
            for (p++; p < b && *p != q && n + 8 < cap; p++) {
                if (*p == '\\' && p + 1 < b)
                    p++;
                if (*p == '"' || *p == '\\')
                    out[n++] = '\\';
                out[n++] = *p;
            }
            out[n++] = '"';
            continue;
        }
        static const char *const py[] = {"None", "True", "False"}, *const js[] = {"null", "true", "false"};
        int w = 0;
        if (isalpha((unsigned char)*p) && (p == a || !isalnum((unsigned char)p[-1])))
            for (; w < 3; w++) {
                size_t l = strlen(py[w]);
                if ((size_t)(b - p) >= l && strncmp(p, py[w], l) == 0 && (p + l == b || !isalnum((unsigned char)p[l])))
                    break;
            }
        if (isalpha((unsigned char)*p) && w < 3 && (p == a || !isalnum((unsigned char)p[-1]))) {
            n += (size_t)snprintf(out + n, cap - n, "%s", js[w]);
            p += strlen(py[w]) - 1;
            continue;
        }
        out[n++] = *p;
    }
    out[n] = '\0';
}

static int helion_param_index(struct himp *h, const char *name)
{
    for (int i = 0; i < h->n_params; i++)
        if (strcmp(h->names[i], name) == 0)
            return i;
    if (h->n_params == h->cap_params) {
        int cap = h->cap_params ? 2 * h->cap_params : 32;
        char **p = realloc(h->names, (size_t)cap * sizeof *p);
        if (p == NULL)
            return tc_seterr_env("out of memory");
        h->names = p;
        for (int c = 0; c < h->n_cfg; c++) {
            char **v = realloc(h->cfgs[c].vals, (size_t)cap * sizeof *v);
            if (v == NULL)
                return tc_seterr_env("out of memory");
            memset(v + h->cap_params, 0, (size_t)(cap - h->cap_params) * sizeof *v);
            h->cfgs[c].vals = v;
        }
        h->cap_params = cap;
    }
    if ((h->names[h->n_params] = strdup(name)) == NULL)
        return tc_seterr_env("out of memory");
    return h->n_params++;
}

static int helion_set_param(struct himp *h, struct hcfg *cf, const char *name, const char *val)
{
    int p = helion_param_index(h, name);
    if (p < 0)
        return -1;
    if (cf->vals[p] != NULL)
        return tc_seterr("parameter '%s' set twice", name);
    if ((cf->vals[p] = strdup(val)) == NULL)
        return tc_seterr_env("out of memory");
    return 0;
}

/* name=value: a list's elements become name_0, name_1, ... (an element that is itself a list keeps its text). */
static int helion_set_flattened(struct himp *h, struct hcfg *cf, const char *name, const char *a, const char *b)
{
    char buf[H_MAX_FIELD], pname[512];
    while (a < b && isspace((unsigned char)*a))
        a++;
    if (a < b && *a == '[') {
        const char *q = a + 1;
        const char *close = b;
        while (close > q && close[-1] != ']')
            close--;
        if (close == q || close[-1] != ']')
            return tc_seterr("parameter '%s': a list without its ']'", name);
        close--;
        for (int i = 0; q < close; i++) {
            const char *e = helion_py_value_end(q, close);
            if (e == NULL)
                return tc_seterr("parameter '%s': element %d does not close", name, i);
            helion_value_text(q, e, buf, sizeof buf);
            if (buf[0] == '\0' && e >= close)
                break; /* a trailing comma */
            snprintf(pname, sizeof pname, "%s_%d", name, i);
            if (helion_set_param(h, cf, pname, buf) != 0)
                return -1;
            q = e < close ? e + 1 : e;
        }
        return 0;
    }
    helion_value_text(a, b, buf, sizeof buf);
    if (buf[0] == '\0')
        return tc_seterr("parameter '%s' has no value", name);
    return helion_set_param(h, cf, name, buf);
}

static int helion_parse_repr(struct himp *h, struct hcfg *cf, const char *s)
{
    const char *open = strchr(s, '(');
    const char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        end--;
    if (open == NULL || end == s || end[-1] != ')')
        return tc_seterr("config '%.60s' is neither Config(...) nor a JSON object", s);
    const char *p = open + 1, *stop = end - 1;
    char name[256];
    while (p < stop) {
        while (p < stop && (isspace((unsigned char)*p) || *p == ','))
            p++;
        if (p >= stop)
            break;
        const char *eq = p;
        while (eq < stop && *eq != '=' && *eq != ',')
            eq++;
        if (eq >= stop || *eq != '=' || eq - p >= (long)sizeof name)
            return tc_seterr("config: expected NAME=VALUE at '%.40s'", p);
        helion_value_text(p, eq, name, sizeof name);
        const char *v = eq + 1, *e = helion_py_value_end(v, stop);
        if (e == NULL)
            return tc_seterr("config: the value of '%s' does not close", name);
        if (helion_set_flattened(h, cf, name, v, e) != 0)
            return -1;
        p = e;
    }
    return 0;
}

/* JSON values as their JSON text, a list as Python prints one ("[0, 1]"), so that both forms give the same values. */
static void helion_json_text(struct json_object *o, char *buf, size_t cap)
{
    if (!json_object_is_type(o, json_type_array)) {
        snprintf(buf, cap, "%s", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
                                                                        JSON_C_TO_STRING_NOSLASHESCAPE));
        return;
    }
    size_t n = (size_t)snprintf(buf, cap, "[");
    for (size_t i = 0; i < json_object_array_length(o) && n + 4 < cap; i++) {
        if (i > 0)
            n += (size_t)snprintf(buf + n, cap - n, ", ");
        if (n + 4 < cap)
            helion_json_text(json_object_array_get_idx(o, i), buf + n, cap - n - 2);
        n += strlen(buf + n);
    }
    snprintf(buf + n, cap - n, "]");
}

static int helion_parse_json(struct himp *h, struct hcfg *cf, const char *s)
{
    char buf[1024], pname[512];
    struct json_object *o = json_tokener_parse(s);
    int rc = 0;
    if (o == NULL || !json_object_is_type(o, json_type_object)) {
        json_object_put(o);
        return tc_seterr("config is not a valid JSON object");
    }
    json_object_object_foreach(o, key, val) {
        if (json_object_is_type(val, json_type_array)) {
            for (size_t i = 0; rc == 0 && i < json_object_array_length(val); i++) {
                snprintf(pname, sizeof pname, "%s_%zu", key, i);
                helion_json_text(json_object_array_get_idx(val, i), buf, sizeof buf);
                rc = helion_set_param(h, cf, pname, buf);
            }
        } else {
            helion_json_text(val, buf, sizeof buf);
            rc = helion_set_param(h, cf, key, buf);
        }
        if (rc != 0)
            break;
    }
    json_object_put(o);
    return rc;
}

/* ---- configurations --------------------------------------------------------------------------------------- */

static uint64_t h_hash(const char *s)
{
    uint64_t x = 1469598103934665603ULL;
    for (; *s; s++)
        x = (x ^ (unsigned char)*s) * 1099511628211ULL;
    return x;
}

static int h_grow_hash(struct himp *h)
{
    size_t cap = h->hash_cap ? h->hash_cap * 2 : 1024;
    int *t = malloc(cap * sizeof *t);
    if (t == NULL)
        return tc_seterr_env("out of memory");
    for (size_t i = 0; i < cap; i++)
        t[i] = -1;
    for (int c = 0; c < h->n_cfg; c++) {
        size_t i = h_hash(h->cfgs[c].key) & (cap - 1);
        while (t[i] >= 0)
            i = (i + 1) & (cap - 1);
        t[i] = c;
    }
    free(h->hash);
    h->hash = t;
    h->hash_cap = cap;
    return 0;
}

/* The configuration of this text, added (and parsed) when new. Returns its index or -1. */
static int h_config(struct himp *h, const char *text)
{
    if ((size_t)(h->n_cfg + 1) * 2 > h->hash_cap && h_grow_hash(h) != 0)
        return -1;
    size_t i = h_hash(text) & (h->hash_cap - 1);
    for (; h->hash[i] >= 0; i = (i + 1) & (h->hash_cap - 1))
        if (strcmp(h->cfgs[h->hash[i]].key, text) == 0)
            return h->hash[i];
    if (h->n_cfg == h->cap_cfg) {
        int cap = h->cap_cfg ? 2 * h->cap_cfg : 256;
        struct hcfg *p = realloc(h->cfgs, (size_t)cap * sizeof *p);
        if (p == NULL)
            return tc_seterr_env("out of memory");
        h->cfgs = p;
        h->cap_cfg = cap;
    }
    struct hcfg *cf = &h->cfgs[h->n_cfg];
    memset(cf, 0, sizeof *cf);
    cf->compile_ms = NAN;
    cf->status = -1;
    cf->key = strdup(text);
    cf->vals = calloc((size_t)(h->cap_params ? h->cap_params : 1), sizeof *cf->vals);
    h->n_cfg++; /* owned from here on (freed with the rest) */
    if (cf->key == NULL || cf->vals == NULL)
        return tc_seterr_env("out of memory");
    const char *s = text;
    while (isspace((unsigned char)*s))
        s++;
    if ((*s == '{' ? helion_parse_json(h, cf, s) : helion_parse_repr(h, cf, s)) != 0)
        return -1;
    h->hash[i] = h->n_cfg - 1;
    return h->n_cfg - 1;
}

/* ---- rows ------------------------------------------------------------------------------------------------- */

static int helion_num_field(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return end != s && *end == '\0' && errno == 0 && isfinite(*out);
}

/* Helion's status names: ok; error (a compile failure, an exception, an accuracy mismatch); timeout (the
 * precompile timed out); peer_compilation_fail (another rank failed to compile it); filtered (a user filter
 * dropped it before compiling); started (written before the benchmark, with its result row after). */
static int helion_status_of(const char *s)
{
    static const char *const names[] = {"ok", "error", "timeout", "peer_compilation_fail", "filtered", "started"};
    for (int i = 0; i < 6; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

struct hfile {
    struct csv c;
    int col[H_NCOL], max_col;
    char *f[H_NCOL + 8];
    char last_run[256];
    double last_ts;
    int have_last;
    double started_ts; /* the timestamp of the open 'started' row, NaN: none */
    int started_cfg;
};

static int helion_header(struct hfile *hf, int n)
{
    for (int k = 0; k < H_NCOL; k++) {
        hf->col[k] = -1;
        for (int j = 0; j < n; j++)
            if (strcmp(hf->f[j], h_cols[k]) == 0)
                hf->col[k] = j;
        if (hf->col[k] > hf->max_col)
            hf->max_col = hf->col[k];
        if (hf->col[k] < 0)
            return tc_seterr("%s:%ld: no column '%s' in the header (expected Helion's autotune log: %s, %s, %s, %s, "
                             "%s, %s, %s, %s)", hf->c.path, hf->c.line, h_cols[k], h_cols[0], h_cols[1],
                             h_cols[2], h_cols[3], h_cols[4], h_cols[5], h_cols[6], h_cols[7]);
    }
    return 0;
}

static int helion_add_row(struct himp *h, const struct hrow *r)
{
    if (h->n_rows == h->cap_rows) {
        size_t cap = h->cap_rows ? 2 * h->cap_rows : 1024;
        struct hrow *p = realloc(h->rows, cap * sizeof *p);
        if (p == NULL)
            return tc_seterr_env("out of memory");
        h->rows = p;
        h->cap_rows = cap;
    }
    h->rows[h->n_rows++] = *r;
    return 0;
}

/* One data row of the file. Returns 0 or -1 with tc_errmsg naming the file and line. */
static int helion_data_row(struct himp *h, struct hfile *hf, int n)
{
    const char *const *v = (const char *const *)hf->f;
    const char *path = hf->c.path;
    long line = hf->c.line;
    double ts = NAN, gen, perf = NAN, comp = NAN;
    if (n <= hf->max_col)
        return tc_seterr("%s:%ld: %d fields, the header has %d", path, line, n, hf->max_col + 1);
    int st = helion_status_of(v[hf->col[C_STATUS]]);
    if (st < 0)
        return tc_seterr("%s:%ld: status '%s' (expected ok, error, timeout, peer_compilation_fail, filtered or "
                         "started)", path, line, v[hf->col[C_STATUS]]);
    if (v[hf->col[C_TS]][0] != '\0' && !helion_num_field(v[hf->col[C_TS]], &ts))
        return tc_seterr("%s:%ld: timestamp_s '%s' is not a number", path, line, v[hf->col[C_TS]]);
    if (!helion_num_field(v[hf->col[C_GEN]], &gen) || gen < 0 || gen > 1e6 || gen != floor(gen))
        return tc_seterr("%s:%ld: generation '%s' is not an integer 0..1000000", path, line, v[hf->col[C_GEN]]);
    if (v[hf->col[C_PERF]][0] != '\0' && (!helion_num_field(v[hf->col[C_PERF]], &perf) || perf <= 0 || perf > 1e9))
        return tc_seterr("%s:%ld: perf_ms '%s' is not a time in ms (> 0)", path, line, v[hf->col[C_PERF]]);
    if (v[hf->col[C_COMPILE]][0] != '\0' && (!helion_num_field(v[hf->col[C_COMPILE]], &comp) || comp < 0 || comp > 1e7))
        return tc_seterr("%s:%ld: compile_time_s '%s' is not a time in s (>= 0)", path, line, v[hf->col[C_COMPILE]]);
    if (st == 0 && isnan(perf))
        return tc_seterr("%s:%ld: status ok without perf_ms", path, line);
    /* a new autotuning run: another run_id, or the sink's clock started again */
    if (!hf->have_last || strcmp(hf->last_run, v[hf->col[C_RUN]]) != 0 ||
        (!isnan(ts) && !isnan(hf->last_ts) && ts < hf->last_ts)) {
        h->n_inputs++;
        hf->started_ts = NAN;
        if (hf->started_cfg >= 0)
            h->n_started_only++;
        hf->started_cfg = -1;
    }
    hf->have_last = 1;
    snprintf(hf->last_run, sizeof hf->last_run, "%s", v[hf->col[C_RUN]]);
    if (!isnan(ts))
        hf->last_ts = ts;
    int c = h_config(h, v[hf->col[C_CONFIG]]);
    if (c < 0)
        return tc_preferr("%s:%ld", path, line);
    if (!isnan(comp) && isnan(h->cfgs[c].compile_ms))
        h->cfgs[c].compile_ms = comp * 1000;
    if (st == 5) { /* started: its result row follows */
        if (hf->started_cfg >= 0)
            h->n_started_only++;
        hf->started_cfg = c;
        hf->started_ts = ts;
        return 0;
    }
    struct hrow r = {.input = h->n_inputs - 1, .config = c, .generation = (int)gen, .perf_ms = perf, .wall_ms = NAN};
    if (hf->started_cfg == c && !isnan(hf->started_ts) && !isnan(ts))
        r.wall_ms = (ts - hf->started_ts) * 1000; /* from 'started' to the result: accuracy check and benchmark */
    hf->started_cfg = -1;
    if (st == 4) { /* filtered: never compiled nor run */
        h->n_filtered++;
        return 0;
    }
    r.status = st == 0 ? TRACE_OK : TRACE_COMPILE_ERROR;
    h->n_status[st]++;
    if (r.generation > h->max_generation)
        h->max_generation = r.generation;
    return helion_add_row(h, &r);
}

static int helion_read_file(struct himp *h, const char *path)
{
    struct hfile hf;
    struct stat st;
    FILE *fp = NULL;
    char *buf = NULL;
    int rc = -1, n;
    memset(&hf, 0, sizeof hf);
    hf.started_cfg = -1;
    hf.last_ts = NAN;
    for (int k = 0; k < H_NCOL + 8; k++)
        if ((hf.f[k] = malloc(H_MAX_FIELD)) == NULL) {
            tc_seterr_env("out of memory");
            goto out;
        }
    if ((fp = fopen(path, "rb")) == NULL || fstat(fileno(fp), &st) != 0) {
        tc_seterr("%s: cannot open: %s", path, strerror(errno));
        goto out;
    }
    if (!S_ISREG(st.st_mode) || st.st_size == 0) {
        tc_seterr("%s: not a regular, non-empty file", path);
        goto out;
    }
    if ((buf = malloc((size_t)st.st_size)) == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    if (fread(buf, 1, (size_t)st.st_size, fp) != (size_t)st.st_size) {
        tc_seterr_env("%s: read failed: %s", path, strerror(errno));
        goto out;
    }
    hf.c = (struct csv){.path = path, .p = buf, .end = buf + st.st_size, .line = 1, .next_line = 1};
    if ((n = helion_csv_record(&hf.c, hf.f, H_NCOL + 8)) < 0 || (n > 0 && helion_header(&hf, n) != 0))
        goto out;
    while ((n = helion_csv_record(&hf.c, hf.f, H_NCOL + 8)) > 0) {
        if (n == 1 && hf.f[0][0] == '\0')
            continue; /* an empty line */
        if (helion_data_row(h, &hf, n) != 0)
            goto out;
    }
    if (n < 0)
        goto out;
    if (hf.started_cfg >= 0)
        h->n_started_only++; /* the run was cut off in that configuration's benchmark */
    rc = 0;
out:
    for (int k = 0; k < H_NCOL + 8; k++)
        free(hf.f[k]);
    free(buf);
    if (fp != NULL)
        fclose(fp);
    return rc;
}

/* ---- the trace -------------------------------------------------------------------------------------------- */

static int helion_int_value(const char *s, int32_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || errno != 0 || v < INT32_MIN || v > INT32_MAX)
        return 0;
    *out = (int32_t)v;
    return 1;
}

/* Column p of /params: the integers where every configuration sets one, else indices into a table of the values'
 * JSON text (in order of first appearance; null where a configuration does not set the parameter). */
static int h_param_column(const struct himp *h, int p, int32_t *params, char ***table, int *n_table)
{
    int all_int = 1;
    int32_t v;
    for (int c = 0; c < h->n_cfg && all_int; c++)
        all_int = h->cfgs[c].vals[p] != NULL && helion_int_value(h->cfgs[c].vals[p], &v);
    *table = NULL;
    *n_table = 0;
    if (all_int) {
        for (int c = 0; c < h->n_cfg; c++) {
            helion_int_value(h->cfgs[c].vals[p], &v);
            params[(size_t)c * h->n_params + p] = v;
        }
        return 0;
    }
    char **tab = calloc((size_t)h->n_cfg, sizeof *tab);
    if (tab == NULL)
        return tc_seterr_env("out of memory");
    *table = tab;
    for (int c = 0; c < h->n_cfg; c++) {
        const char *s = h->cfgs[c].vals[p] != NULL ? h->cfgs[c].vals[p] : "null"; /* not set: Helion's default */
        int k;
        for (k = 0; k < *n_table && strcmp(tab[k], s) != 0; k++)
            ;
        if (k == *n_table && (tab[(*n_table)++] = strdup(s)) == NULL)
            return tc_seterr_env("out of memory");
        params[(size_t)c * h->n_params + p] = k;
    }
    return 0;
}

struct hopts {
    const char *device, *kernel;
};

static int h_write(struct himp *h, const char *tmp, const struct hopts *o)
{
    static const char *const dim_names[] = {"run"};
    struct trace_meta m;
    struct trace *t = NULL;
    int32_t *params = calloc((size_t)h->n_cfg * (size_t)(h->n_params ? h->n_params : 1), sizeof *params);
    char ***tables = calloc((size_t)(h->n_params ? h->n_params : 1), sizeof *tables);
    int *n_tables = calloc((size_t)(h->n_params ? h->n_params : 1), sizeof *n_tables);
    struct trace_config *cfgs = calloc((size_t)h->n_cfg, sizeof *cfgs);
    int64_t *dims = calloc((size_t)h->n_inputs, sizeof *dims);
    struct trace_input *inputs = calloc((size_t)h->n_inputs, sizeof *inputs);
    int rc = -1;
    if (params == NULL || tables == NULL || n_tables == NULL || cfgs == NULL || dims == NULL || inputs == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    for (int p = 0; p < h->n_params; p++)
        if (h_param_column(h, p, params, &tables[p], &n_tables[p]) != 0)
            goto out;
    for (size_t r = 0; r < h->n_rows; r++) { /* ok on any input, else the first failure */
        struct hcfg *cf = &h->cfgs[h->rows[r].config];
        if (cf->status < 0 || h->rows[r].status == TRACE_OK)
            cf->status = h->rows[r].status;
    }
    for (int c = 0; c < h->n_cfg; c++) {
        cfgs[c].status = h->cfgs[c].status < 0 ? TRACE_COMPILE_ERROR : h->cfgs[c].status;
        cfgs[c].compile_ms = h->cfgs[c].compile_ms;
        if (isnan(cfgs[c].compile_ms)) { /* not precompiled in a worker: charged as 0 (docs/import.md) */
            cfgs[c].compile_ms = 0;
            h->n_no_compile++;
        }
        cfgs[c].compile_isolated_ms = NAN;
        cfgs[c].load_ms = NAN;
        cfgs[c].registers = cfgs[c].smem_bytes = cfgs[c].spill_bytes = -1;
    }
    for (int i = 0; i < h->n_inputs; i++) {
        dims[i] = i;
        inputs[i].flops = NAN;
        inputs[i].ref_ms = NAN;
    }
    memset(&m, 0, sizeof m);
    snprintf(m.generator, sizeof m.generator, "tunecost %s import helion", TC_VERSION);
    snprintf(m.kernel, sizeof m.kernel, "%.*s", (int)sizeof m.kernel - 1, o->kernel ? o->kernel : "unknown");
    snprintf(m.device_name, sizeof m.device_name, "%.*s", (int)sizeof m.device_name - 1,
             o->device ? o->device : "unknown");
    snprintf(m.timer, sizeof m.timer, "unknown");
    snprintf(m.protocol, sizeof m.protocol, "helion");
    m.warmup_ms = NAN;
    m.rep_ms = NAN;
    m.compile_jobs = -1; /* Helion precompiles in as many workers as it decides: not in the CSV */
    t = trace_create(tmp, &m, (const char *const *)h->names, h->n_params, dim_names, 1);
    if (t == NULL || trace_write_configs(t, h->n_cfg, params, cfgs) != 0 ||
        trace_write_inputs(t, h->n_inputs, dims, inputs) != 0)
        goto out;
    for (int p = 0; p < h->n_params; p++)
        if (tables[p] != NULL && trace_set_param_values(t, p, (const char *const *)tables[p], n_tables[p]) != 0)
            goto out;
    trace_set_flush_each_run(t, 0);
    for (size_t r = 0; r < h->n_rows; r++) {
        const struct hrow *hr = &h->rows[r];
        struct trace_run run = {.input = hr->input, .config = hr->config, .status = hr->status};
        uint64_t ns = 0;
        run.estimate_ms = run.rel_error = run.verify_ms = NAN;
        run.true_ms = NAN;
        run.objective = NAN;
        if (hr->status == TRACE_OK) {
            run.n_timed = 1; /* Helion logs one statistic, do_bench's median: it stands for the executions */
            ns = (uint64_t)llround(hr->perf_ms * 1e6 < 1 ? 1 : hr->perf_ms * 1e6);
            run.true_ms = hr->perf_ms;
            run.wall_ms = isfinite(hr->wall_ms) && hr->wall_ms >= hr->perf_ms ? hr->wall_ms : hr->perf_ms;
        }
        if (trace_append_run(t, &run, &ns, (size_t)run.n_timed) != 0)
            goto out;
    }
    rc = 0;
out:
    if (t != NULL && trace_close(t) != 0 && rc == 0)
        rc = -1;
    for (int p = 0; tables != NULL && p < h->n_params; p++) {
        for (int k = 0; tables[p] != NULL && k < n_tables[p]; k++)
            free(tables[p][k]);
        free(tables[p]);
    }
    free(tables);
    free(n_tables);
    free(params);
    free(cfgs);
    free(dims);
    free(inputs);
    return rc;
}

static void h_free(struct himp *h)
{
    for (int c = 0; c < h->n_cfg; c++) {
        for (int p = 0; p < h->cap_params && h->cfgs[c].vals != NULL; p++)
            free(h->cfgs[c].vals[p]);
        free(h->cfgs[c].vals);
        free(h->cfgs[c].key);
    }
    for (int p = 0; p < h->n_params; p++)
        free(h->names[p]);
    free(h->names);
    free(h->cfgs);
    free(h->hash);
    free(h->rows);
}

static void h_summary(const struct himp *h, int n_in, const char *out)
{
    printf("imported %d file(s) (helion): %d autotuning runs (inputs), %d configurations, %d parameters, %zu "
           "results (ok %zu, error %zu, timeout %zu, peer_compilation_fail %zu) -> %s\n",
           n_in, h->n_inputs, h->n_cfg, h->n_params, h->n_rows, h->n_status[0], h->n_status[1], h->n_status[2],
           h->n_status[3], out);
    printf("configurations per generation:");
    for (int g = 0; g <= h->max_generation; g++) {
        size_t n = 0;
        for (size_t r = 0; r < h->n_rows; r++)
            n += h->rows[r].generation == g;
        printf(" %d:%zu", g, n);
    }
    printf("\n");
    if (h->n_filtered > 0)
        printf("note: %zu configurations filtered out before compiling (status filtered) are left out\n",
               h->n_filtered);
    if (h->n_started_only > 0)
        printf("note: %zu configurations were started but have no result row (the run was cut off): left out\n",
               h->n_started_only);
    if (h->n_no_compile > 0)
        printf("note: %zu configurations had no compile_time_s (not precompiled in a worker): recorded as 0 ms\n",
               h->n_no_compile);
}

int imp_helion(char *const *in, int n_in, const char *out, int force, int quiet, const char *device,
               const char *kernel)
{
    struct himp h;
    struct hopts o = {.device = device, .kernel = kernel};
    char tmp[PATH_MAX] = "";
    int rc = 0;
    memset(&h, 0, sizeof h);
    for (int i = 0; i < n_in && rc == 0; i++)
        if (helion_read_file(&h, in[i]) != 0)
            rc = tc_err_exit_code();
    if (rc == 0 && h.n_rows == 0) {
        tc_seterr("%s: no result rows (ok, error, timeout or peer_compilation_fail) in it", in[0]);
        rc = 2;
    }
    if (rc == 0 && tc_atomic_tmpname(out, tmp, sizeof tmp) != 0)
        rc = 1;
    if (rc == 0 && h_write(&h, tmp, &o) != 0)
        rc = tc_err_exit_code();
    if (rc == 0) {
        rc = (force ? tc_atomic_rename(tmp, out) : tc_atomic_rename_noreplace(tmp, out)) != 0;
        tmp[0] = '\0';
        if (rc != 0)
            rc = tc_err_exit_code();
    }
    if (rc == 0 && !quiet)
        h_summary(&h, n_in, out);
    if (tmp[0] != '\0')
        unlink(tmp);
    h_free(&h);
    return rc;
}
