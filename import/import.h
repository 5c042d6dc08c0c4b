/* import.h — private to import/: the state of `tunecost import` shared by its three files. import_scan.c maps
 * a JSON file and walks its top level without building it (one value at a time is parsed with json-c);
 * import_formats.c reads the Kernel Tuner and T4 formats into trace units; import_helion.c reads Helion's
 * autotune CSV and writes its trace itself; cmd_import.c learns the
 * configurations (pass 1), writes the trace (pass 2) and is the command. Memory stays bounded: files are
 * mapped, entries parsed one at a time and freed at once. */
#ifndef TC_IMPORT_H
#define TC_IMPORT_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_PARAMS 64
#define MAX_DIMS 8

enum fmt { FMT_KT, FMT_T4, FMT_HELION };

/* One input file: its bytes (mapped) and what its header says. */
struct src {
    const char *path;
    const char *buf; /* mapped file, len bytes */
    size_t len;
    int versioned;   /* Kernel Tuner: a schema_version was present */
    char device[512], kernel[512]; /* compared in full; the trace keeps the first 127 / 63 bytes */
    char objective[64];             /* Kernel Tuner's objective key (a failure marker may sit there); "" = time */
    int objective_is_metric;        /* the objective is not time: entries are ranked by that key's value */
    int higher_is_better;           /* objective_higher_is_better */
    int n_dims;
    int64_t dims[MAX_DIMS];
    int n_params;
    char *params[MAX_PARAMS];       /* tune_params_keys (T4: the first result's configuration keys) */
    struct json_object *tune_params; /* Kernel Tuner: the values of each parameter, or NULL */
    size_t body;                    /* offset of the cache object's '{' (KT) or the results array's '[' (T4) */
    int truncated;                  /* the file ends inside the cache: an interrupted tuning run */
    double t4_timeunit_ms;          /* T4: metadata.timeunit in ms (Kernel Tuner's converter: "miliseconds"); 0: none */
};

/* One parsed entry, in trace units. */
struct entry {
    char key[1024];   /* the parameter values' text joined by ',' */
    const char *vals[MAX_PARAMS]; /* each value's JSON text (points into `texts`) */
    char texts[1024];
    int status;       /* enum trace_status */
    double compile_ms, verify_ms, bench_ms;
    double time_ms;   /* the source's own true time (Kernel Tuner's `time`, T4's `time` measurement); NaN: none */
    double objective; /* the value of the source's objective metric when that is not time; NaN: none */
    size_t n_times;
    double *times_ms; /* n_times, owned by the caller's buffer */
};

/* A configuration: its key and, per parameter, the value's text. */
struct cfg {
    char *key;
    char **vals;
    int status;        /* over the files folded so far; -1: none yet */
    double compile_ms;
    /* what the file being read says of it (learnt in pass 1, folded into status/compile_ms at the file's end):
     * Kernel Tuner, its last entry (a key written twice: Python's json, so Kernel Tuner, keeps the last); T4, its
     * first visit (a revisit repeats it) */
    int file_seen;     /* the source index these describe; -1: none */
    int file_status;
    double file_compile_ms;
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
    /* Kernel Tuner: the entry's "times" read straight into `times` by imp_walk (a plain array of JSON numbers:
     * no json-c object per number, the bulk of an entry's memory); pre_times: valid, pre_n values */
    int pre_times;
    size_t pre_n;
    int n_params; /* of every source (checked equal) */
    const char *opt_device, *opt_kernel, *opt_dims;
    size_t n_entries, n_wall_fallback, n_single_time, n_revisits, n_no_compile, n_nan_time;
    size_t n_time_disagree; /* entries whose `time` is not the mean of their `times` (within 1%) */
    size_t n_t4_objective;  /* T4 results naming an objective other than time (ranked by time: no direction) */
    size_t n_dup_keys;      /* Kernel Tuner: cache keys written again in the same file (the last counts) */
};

/* ---- import_scan.c ---- */

/* Map s->path read-only into s->buf / s->len (a regular, non-empty file). */
int imp_map_file(struct src *s);
void imp_skip_ws(const struct src *s, size_t *pos);
/* Parse the one JSON value at *pos (advancing past it). Returns the value (the caller puts it), or NULL with
 * tc_errmsg set; *eof is set when the file ends inside the value. */
/* 1 when the JSON value at pos is the literal null (json-c parses it to NULL). */
int imp_is_null(const struct src *s, size_t pos);
struct json_object *imp_parse_at(struct json_tokener *tok, const struct src *s, size_t *pos, const char *what,
                                 int *eof);
/* Skip one JSON value without building it. Returns 0, or -1 when the file ends first. */
int imp_skip_value(const struct src *s, size_t *pos);
/* Read a key string and the ':' after it: 1 with the key in buf, 0 at the object's closing '}', -1 on an
 * error, -2 when the file ends here. */
int imp_next_key(struct json_tokener *tok, const struct src *s, size_t *pos, int first, char *buf, size_t len,
                 const char *what);
/* Give the mapped pages behind pos back to the kernel, 64 MiB at a time (*released: done so far). */
void imp_release_behind(const struct src *s, size_t pos, size_t *released);

/* ---- import_formats.c ---- */

/* A Kernel Tuner cache's / T4 results' header: device, kernel, parameters, problem size, where the body is. */
int imp_read_kt_header(struct json_tokener *tok, struct src *s);
int imp_read_t4_header(struct json_tokener *tok, struct src *s);
/* One cache entry / T4 result (o) in trace units; e->times_ms points into im's scratch buffer. */
int imp_kt_entry(struct imp *im, const struct src *s, const char *cache_key, struct json_object *o,
                 struct entry *e);
int imp_t4_entry(struct imp *im, struct src *s, size_t idx, struct json_object *o, struct entry *e);
/* Call fn(im, si, e, ctx) for every entry of source si, in file order; stops at fn's first non-zero. */
typedef int (*entry_fn)(struct imp *im, int si, const struct entry *e, void *ctx);
int imp_walk(struct imp *im, struct json_tokener *tok, int si, entry_fn fn, void *ctx);

/* ---- import_helion.c ---- */

/* `tunecost import helion IN... -o OUT`: Helion's autotune CSV files as one trace, written complete or not at all.
 * Returns the exit code (0; 1 the machine; 2 the input, tc_errmsg naming the file and line). */
int imp_helion(char *const *in, int n_in, const char *out, int force, int quiet, const char *device,
               const char *kernel);

#endif
