/* cmd_import.c — `tunecost import kerneltuner|t4 IN... -o OUT.h5`: other autotuners' recorded search spaces as
 * a trace (format v1), so that info, simulate and report run on them. The mapping and what is lost are in
 * docs/import.md.
 *
 * Memory: each input file is mapped (mmap), never read into the heap; the top-level structure is walked by a
 * small scanner and each cache entry (or T4 result) is parsed on its own with json-c and freed at once. Two
 * passes: the first learns the configurations (the trace needs /params before any run), the second appends the
 * runs. The trace library keeps the executions in memory as it writes them (8 bytes each). */
#include "import.h"
#include "tc_atomic.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_version.h"
#include "trace.h"
#include "tunecost.h"

#include <errno.h>
#include <stddef.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
            return tc_seterr_env("out of memory");
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
            return tc_seterr_env("out of memory");
        im->cfgs = p;
        im->cap_cfg = cap;
    }
    struct cfg *c = &im->cfgs[im->n_cfg];
    memset(c, 0, sizeof *c);
    c->key = strdup(e->key);
    c->vals = calloc((size_t)n_params, sizeof *c->vals);
    if (c->key == NULL || c->vals == NULL)
        return tc_seterr_env("out of memory");
    for (int p = 0; p < n_params; p++)
        if ((c->vals[p] = strdup(e->vals[p])) == NULL)
            return tc_seterr_env("out of memory");
    c->status = -1;
    c->compile_ms = NAN;
    c->file_seen = -1;
    size_t i = hash_str(c->key) & (im->hash_cap - 1);
    while (im->hash[i] >= 0)
        i = (i + 1) & (im->hash_cap - 1);
    im->hash[i] = im->n_cfg;
    return im->n_cfg++;
}

/* Pass 1: learn every configuration and what file si says of it (struct cfg: its last entry, Kernel Tuner; its
 * first visit, T4). */
static int learn(struct imp *im, int si, const struct entry *e, void *ctx)
{
    (void)ctx;
    int c = find_cfg(im, e->key);
    if (c < 0 && (c = add_cfg(im, e, im->n_params)) < 0)
        return -1;
    struct cfg *cf = &im->cfgs[c];
    if (cf->file_seen != si || im->fmt == FMT_KT) {
        cf->file_seen = si;
        cf->file_status = e->status;
        cf->file_compile_ms = e->compile_ms;
    }
    im->n_entries++;
    return 0;
}

/* At the end of file si: a configuration's status is ok when it ran correctly on any input, else the first
 * failure seen; its compile time is the first one recorded. */
static void fold_file(struct imp *im, int si)
{
    for (int c = 0; c < im->n_cfg; c++) {
        struct cfg *cf = &im->cfgs[c];
        if (cf->file_seen != si)
            continue;
        if (cf->status < 0 || cf->file_status == TRACE_OK)
            cf->status = cf->file_status;
        if (isnan(cf->compile_ms) && !isnan(cf->file_compile_ms))
            cf->compile_ms = cf->file_compile_ms;
    }
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

static int append(struct imp *im, int si, const struct entry *e, void *ctx)
{
    struct writer *w = ctx;
    struct trace_run run;
    int c = find_cfg(im, e->key);
    if (c < 0)
        return tc_seterr("%s: configuration '%s' appeared in the second pass only (the file changed?)",
                         im->src[si].path, e->key);
    if (w->seen_file != si) { /* a new file: nothing of it seen yet */
        memset(w->seen, 0, (size_t)im->n_cfg);
        w->seen_file = si;
    }
    if (w->seen[c] && im->fmt == FMT_T4) { /* T4 lists every visit; a revisit repeats the first one's times */
        im->n_revisits++;
        return 0;
    }
    if (w->seen[c]) /* Kernel Tuner: a key written twice; both are runs, the last is the pair's current run */
        im->n_dup_keys++;
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
    run.true_ms = e->time_ms; /* the source's own true time: the best configuration is the one it reports */
    run.objective = e->objective;
    if (e->n_times > w->exec_cap) {
        uint64_t *p = realloc(w->exec, e->n_times * sizeof *p);
        if (p == NULL)
            return tc_seterr_env("out of memory");
        w->exec = p;
        w->exec_cap = e->n_times;
    }
    double sum_ms = 0;
    for (size_t i = 0; i < e->n_times; i++) {
        double ns = e->times_ms[i] * 1e6;
        w->exec[i] = ns < 1 ? 1 : (uint64_t)llround(ns); /* < 2^63 ns: longer times were refused (MAX_EXEC_MS) */
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
        if (strcmp(a->objective[0] ? a->objective : "time", b->objective[0] ? b->objective : "time") != 0 ||
            a->higher_is_better != b->higher_is_better)
            return tc_seterr("%s: objective '%s'%s differs from %s's '%s'%s (one objective per trace)", b->path,
                             b->objective[0] ? b->objective : "time", b->higher_is_better ? " (higher is better)" : "",
                             a->path, a->objective[0] ? a->objective : "time",
                             a->higher_is_better ? " (higher is better)" : "");
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
        /* room for every value tune_params lists (entries may use few of them) and every configuration's */
        struct json_object *vals = NULL;
        size_t n_listed = 0;
        if (im->src[0].tune_params != NULL &&
            json_object_object_get_ex(im->src[0].tune_params, im->src[0].params[p], &vals) &&
            json_object_is_type(vals, json_type_array))
            n_listed = json_object_array_length(vals);
        else
            vals = NULL;
        if (n_listed + (size_t)im->n_cfg > INT32_MAX)
            return tc_seterr("%s: parameter '%s' lists too many values", im->src[0].path, im->src[0].params[p]);
        char **tab = calloc(n_listed + (size_t)im->n_cfg, sizeof *tab);
        int n = 0;
        if (tab == NULL)
            return tc_seterr_env("out of memory");
        tables[p] = tab;
        if (vals != NULL) {
            for (size_t i = 0; i < n_listed; i++) {
                const char *txt = json_object_to_json_string_ext(json_object_array_get_idx(vals, i),
                                                                 JSON_C_TO_STRING_PLAIN |
                                                                     JSON_C_TO_STRING_NOSLASHESCAPE);
                int k;
                for (k = 0; k < n && strcmp(tab[k], txt) != 0; k++)
                    ;
                if (k == n && (tab[n++] = strdup(txt)) == NULL)
                    return tc_seterr_env("out of memory");
            }
        }
        for (int c = 0; c < im->n_cfg; c++) {
            int k;
            for (k = 0; k < n && strcmp(tab[k], im->cfgs[c].vals[p]) != 0; k++)
                ;
            if (k == n && (tab[n++] = strdup(im->cfgs[c].vals[p])) == NULL)
                return tc_seterr_env("out of memory");
            params[(size_t)c * im->n_params + p] = k;
        }
        n_table[p] = n;
    }
    return 0;
}

/* What the command line asks for. */
struct opts {
    const char *out, *format;
    const char *device, *kernel, *dims; /* t4 only: --device, --kernel, --problem-size as given */
    int force, quiet;
    int n_dims;           /* --problem-size's dimensions (0: not given) */
    int64_t ps[MAX_DIMS];
    char **in;            /* the IN files, im->n_src of them */
};

#define IO(f) offsetof(struct opts, f)
static const struct tc_optdecl import_opts[] = {
    TC_OPT_OUTPUT_REQUIRED(struct opts, out, "OUT.h5", "the trace to write (complete or absent)"),
    TC_OPT_FORCE(struct opts, force),
    {.name = "device", .arg = TC_ARG_STRING, .field = IO(device), .metavar = "NAME", .def_doc = "unknown",
     .help = "t4, helion: the device name (T4 results and Helion's CSV do not name it)"},
    {.name = "kernel", .arg = TC_ARG_STRING, .field = IO(kernel), .metavar = "NAME", .def_doc = "unknown",
     .help = "t4, helion: the kernel name"},
    {.name = "problem-size", .arg = TC_ARG_STRING, .field = IO(dims), .metavar = "AxB",
     .def_doc = "inputs numbered 0, 1, ...", .help = "t4, one IN file: the problem size"},
    TC_OPT_QUIET_AS(struct opts, quiet, "no summary on stdout"),
    TC_OPT_HELP,
    TC_OPT_END,
};
#undef IO

static int import_topic(int i, const char **name, const char **summary)
{
    static const char *const names[] = {"kerneltuner", "t4", "helion"};
    static const char *const summaries[] = {
        "a Kernel Tuner cache file (JSON; schema 1.0.0, 1.1.0 or the older unversioned form; a cache whose "
        "tuning run was interrupted is read up to its last complete entry)",
        "T4 results (JSON, the open autotuning results schema Kernel Tuner writes)",
        "Helion's autotune log BASE.csv (HELION_AUTOTUNE_LOG=BASE; each autotuning run in it is one input, each "
        "helion.Config one configuration, its parameters flattened: block_sizes_0, block_sizes_1, ...)"};
    if (i < 0 || i >= 3)
        return 0;
    *name = names[i];
    *summary = summaries[i];
    return 1;
}

const struct tc_cmd import_cmd = {
    .name = "import",
    .summary = "import Kernel Tuner cache files, T4 results or Helion's autotune log as a trace",
    .synopsis = "FORMAT IN... -o OUT.h5 [options]",
    .description =
        "Import another autotuner's recorded search space as a tunecost trace, so that info, simulate and\n"
        "report run on it. Each IN file is one input (problem size) of one kernel on one device; several files\n"
        "of the same kernel, parameters and device make one trace with several inputs. docs/import.md gives\n"
        "the mapping and what is lost (warm-up executions are not recorded by these formats; flops are not\n"
        "known, so commands show times instead of TFLOP/s).\n",
    .topics_title = "FORMAT",
    .topic = import_topic,
    .opts = import_opts,
    .exit_status = "0 ok; 1 a failure of the environment (disk, memory); 2 usage error, an existing OUT.h5 "
                   "without -f, or an input file that cannot be imported (one line on stderr).",
    .examples = "tunecost import kerneltuner gemm_A100_4096.json -o gemm-a100.h5\n"
                "tunecost import kerneltuner convolution_*_A100.json -o conv-a100.h5   # one input per file\n"
                "tunecost import t4 results.json --device A100 --kernel gemm --problem-size 4096x4096 -o t.h5\n"
                "tunecost import helion matmul.csv --device H100 --kernel matmul -o helion.h5\n"
                "tunecost info gemm-a100.h5 && tunecost simulate gemm-a100.h5 --all-inputs -o sim\n",
    .min_operands = 2,
    .max_operands = -1,
    .operand_name = "FORMAT (kerneltuner, t4 or helion) and at least one IN file",
};

/* Options and arguments into im and o. Returns -1 to go on, else the exit code (usage errors printed). */
static int parse_args(int argc, char **argv, struct imp *im, struct opts *o)
{
    struct stat st;
    int first, rc;
    if ((rc = tc_cli_parse(&import_cmd, argc, argv, o, &first)) != TC_CLI_RUN)
        return rc;
    im->opt_device = o->device;
    im->opt_kernel = o->kernel;
    im->opt_dims = o->dims;
    o->format = argv[first];
    if (strcmp(o->format, "kerneltuner") == 0)
        im->fmt = FMT_KT;
    else if (strcmp(o->format, "t4") == 0)
        im->fmt = FMT_T4;
    else if (strcmp(o->format, "helion") == 0)
        im->fmt = FMT_HELION;
    else
        return tc_cli_usage_error("import", "unknown FORMAT '%s' (expected kerneltuner, t4 or helion)", o->format);
    im->n_src = argc - first - 1;
    o->in = argv + first + 1;
    if (im->fmt == FMT_KT && (im->opt_device || im->opt_kernel || im->opt_dims)) {
        fprintf(stderr, "tunecost import: --device, --kernel and --problem-size are for t4 (a Kernel Tuner cache "
                        "names them itself)\n");
        return 2;
    }
    if (im->fmt == FMT_HELION && im->opt_dims != NULL) {
        fprintf(stderr, "tunecost import: --problem-size is for t4 (Helion's runs are numbered)\n");
        return 2;
    }
    if (im->opt_dims != NULL) {
        if (im->n_src != 1) {
            fprintf(stderr, "tunecost import: --problem-size: only with one IN file (got %d)\n", im->n_src);
            return 2;
        }
        for (o->n_dims = 1; o->n_dims <= MAX_DIMS; o->n_dims++)
            if (tc_parse_shape("--problem-size", im->opt_dims, o->n_dims, INT64_MAX / 2, o->ps) == 0)
                break;
        if (o->n_dims > MAX_DIMS) {
            fprintf(stderr, "tunecost import: --problem-size: expected AxB... (1 to %d positive integers), got '%s'\n",
                    MAX_DIMS, im->opt_dims);
            return 2;
        }
    }
    if (tc_output_check("-o", o->out, 0, (const char *const *)o->in, im->n_src) != 0) {
        fprintf(stderr, "tunecost import: %s\n", tc_errmsg());
        return 2;
    }
    if (!o->force && stat(o->out, &st) == 0) {
        fprintf(stderr, "tunecost import: %s exists (use --force to replace it)\n", o->out);
        return 2;
    }
    return -1;
}

/* T4 names no parameters in a header: the first result's configuration gives them (in its order), and every
 * other file must use the same names (a missing one is reported by name). Returns 0, or the exit code. */
static int t4_param_names(struct imp *im, struct json_tokener *tok)
{
    struct src *s0 = &im->src[0];
    size_t pos = s0->body + 1;
    int eof;
    struct entry e;
    imp_skip_ws(s0, &pos);
    if (pos < s0->len && s0->buf[pos] != ']') {
        struct json_object *o = imp_parse_at(tok, s0, &pos, "key 'results'", &eof);
        if (o == NULL)
            return tc_err_exit_code(); /* the file (2) or memory (1) */
        int r = imp_t4_entry(im, s0, 0, o, &e);
        json_object_put(o);
        if (r != 0)
            return tc_err_exit_code();
    }
    im->n_params = s0->n_params;
    for (int j = 1; j < im->n_src; j++) {
        for (int p = 0; p < im->n_params; p++)
            if ((im->src[j].params[p] = strdup(s0->params[p])) == NULL) {
                tc_seterr_env("out of memory");
                return 1;
            }
        im->src[j].n_params = im->n_params;
    }
    return 0;
}

/* Map every IN file, read its header, then pass 1: the configurations. Returns 0, or the exit code (2: the
 * input is at fault; 1: memory) with tc_errmsg set. */
static int read_sources(struct imp *im, struct json_tokener *tok, const struct opts *o)
{
    int rc;
    for (int i = 0; i < im->n_src; i++) {
        struct src *s = &im->src[i];
        s->path = o->in[i];
        if (imp_map_file(s) != 0)
            return tc_err_exit_code();
        if (im->fmt == FMT_KT) {
            if (imp_read_kt_header(tok, s) != 0)
                return tc_err_exit_code(); /* the file (2) or memory (1) */
        } else {
            if (imp_read_t4_header(tok, s) != 0)
                return tc_err_exit_code();
            if (im->opt_device != NULL || s->device[0] == '\0') /* else metadata.device_name */
                snprintf(s->device, sizeof s->device, "%s", im->opt_device ? im->opt_device : "unknown");
            if (im->opt_kernel != NULL || s->kernel[0] == '\0')
                snprintf(s->kernel, sizeof s->kernel, "%s", im->opt_kernel ? im->opt_kernel : "unknown");
            if (o->n_dims > 0) { /* else metadata.problem_size, or numbered inputs */
                s->n_dims = o->n_dims;
                memcpy(s->dims, o->ps, sizeof o->ps);
            }
        }
    }
    if (im->fmt == FMT_KT && check_sources(im) != 0)
        return 2;
    if (im->fmt == FMT_T4 && (rc = t4_param_names(im, tok)) != 0)
        return rc;
    for (int i = 0; i < im->n_src; i++) {
        if (imp_walk(im, tok, i, learn, NULL) != 0)
            return tc_err_exit_code(); /* the file (2) or memory (1) */
        fold_file(im, i);
        if (!o->quiet && im->src[i].truncated)
            fprintf(stderr, "tunecost import: note: %s ends inside its cache (an interrupted tuning run?): read up to its "
                            "last complete entry\n", im->src[i].path);
    }
    if (im->fmt == FMT_T4 && check_sources(im) != 0)
        return 2;
    if (im->n_cfg == 0) {
        tc_seterr("%s: no configurations in it (an empty cache or results list)", im->src[0].path);
        return 2;
    }
    return 0;
}

/* The trace's tables, built from what pass 1 learnt. */
struct tables {
    int n_dims, nd;           /* the problem size's dimensions (0: numbered inputs), the trace's (≥ 1) */
    int32_t *params;          /* n_cfg x n_params */
    char **values[MAX_PARAMS]; /* a non-integer parameter's value table, n_values[p] texts */
    int n_values[MAX_PARAMS];
    int64_t *dims;            /* n_src x nd */
    struct trace_config *configs;
    struct trace_input *inputs;
};

static void tables_free(struct tables *tt)
{
    for (int p = 0; p < MAX_PARAMS; p++) {
        for (int k = 0; tt->values[p] != NULL && k < tt->n_values[p]; k++)
            free(tt->values[p][k]);
        free(tt->values[p]);
    }
    free(tt->params);
    free(tt->configs);
    free(tt->dims);
    free(tt->inputs);
}

/* /params, /configs, /dims and /inputs. Returns 0, or the exit code with tc_errmsg set. */
static int build_tables(struct imp *im, struct tables *tt)
{
    tt->n_dims = im->src[0].n_dims;
    tt->nd = tt->n_dims > 0 ? tt->n_dims : 1;
    int nd = tt->nd;
    tt->params = malloc((size_t)im->n_cfg * (size_t)im->n_params * sizeof *tt->params);
    tt->configs = calloc((size_t)im->n_cfg, sizeof *tt->configs);
    tt->dims = calloc((size_t)im->n_src * (size_t)nd, sizeof *tt->dims);
    tt->inputs = calloc((size_t)im->n_src, sizeof *tt->inputs);
    if (tt->params == NULL || tt->configs == NULL || tt->dims == NULL || tt->inputs == NULL) {
        tc_seterr_env("out of memory");
        return 1;
    }
    if (build_params(im, tt->params, tt->values, tt->n_values) != 0)
        return 1;
    for (int c = 0; c < im->n_cfg; c++) {
        struct trace_config *tc = &tt->configs[c];
        tc->status = im->cfgs[c].status;
        tc->compile_ms = im->cfgs[c].compile_ms;
        tc->compile_isolated_ms = NAN; /* other tools record one compile time: compile_ms */
        if (isnan(tc->compile_ms) && tc->status != TRACE_OUT_OF_RESOURCES) {
            tc->compile_ms = 0; /* not recorded (Kernel Tuner before 0.4.3): charged as 0 (docs/import.md) */
            im->n_no_compile++;
        }
        tc->load_ms = NAN;
        tc->registers = -1;
        tc->smem_bytes = -1;
        tc->spill_bytes = -1;
    }
    for (int i = 0; i < im->n_src; i++) {
        for (int d = 0; d < nd; d++)
            tt->dims[(size_t)i * nd + d] = tt->n_dims > 0 ? im->src[i].dims[d] : i;
        tt->inputs[i].flops = NAN; /* not known: commands show times instead of TFLOP/s */
        tt->inputs[i].ref_ms = NAN;
    }
    for (int i = 0; i < im->n_src; i++)
        for (int j = 0; j < i; j++)
            if (memcmp(tt->dims + (size_t)i * nd, tt->dims + (size_t)j * nd, (size_t)nd * sizeof *tt->dims) == 0) {
                tc_seterr("%s: key 'problem_size' is the same as %s's (one file per input)", im->src[i].path,
                          im->src[j].path);
                return 2;
            }
    return 0;
}

/* Write the trace to tmp: header and tables, then pass 2 (the runs). Returns 0, or the exit code with tc_errmsg
 * set; the caller removes tmp on failure. */
static int write_trace(struct imp *im, struct json_tokener *tok, const struct tables *tt, const char *format,
                       const char *tmp, size_t *n_runs, size_t *n_exec)
{
    static const char *const dim_names_xyz[] = {"x", "y", "z", "d3", "d4", "d5", "d6", "d7"};
    static const char *const dim_names_idx[] = {"input"};
    struct trace_meta m;
    struct writer w;
    int rc = 1;
    memset(&m, 0, sizeof m);
    memset(&w, 0, sizeof w);
    snprintf(m.generator, sizeof m.generator, "tunecost %s import %s", TC_VERSION, format);
    /* the trace keeps the first 63 / 127 bytes (the files were compared in full) */
    snprintf(m.kernel, sizeof m.kernel, "%.*s", (int)sizeof m.kernel - 1, im->src[0].kernel);
    snprintf(m.device_name, sizeof m.device_name, "%.*s", (int)sizeof m.device_name - 1, im->src[0].device);
    snprintf(m.timer, sizeof m.timer, "unknown");
    snprintf(m.protocol, sizeof m.protocol, "%s", im->fmt == FMT_KT ? "kerneltuner" : "t4");
    m.warmup_ms = NAN;
    m.rep_ms = NAN;
    m.compile_jobs = 1;
    if (im->src[0].objective_is_metric) {
        snprintf(m.objective, sizeof m.objective, "%s", im->src[0].objective);
        m.objective_higher_is_better = im->src[0].higher_is_better;
    }
    w.t = trace_create(tmp, &m, (const char *const *)im->src[0].params, im->n_params,
                       tt->n_dims > 0 ? dim_names_xyz : dim_names_idx, tt->nd);
    if (w.t == NULL || trace_write_configs(w.t, im->n_cfg, tt->params, tt->configs) != 0 ||
        trace_write_inputs(w.t, im->n_src, tt->dims, tt->inputs) != 0)
        goto out;
    for (int p = 0; p < im->n_params; p++)
        if (tt->values[p] != NULL &&
            trace_set_param_values(w.t, p, (const char *const *)tt->values[p], tt->n_values[p]) != 0)
            goto out;
    trace_set_flush_each_run(w.t, 0);
    w.im = im;
    w.seen_file = -1;
    /* counted again, once, in the second pass */
    im->n_single_time = im->n_nan_time = im->n_time_disagree = im->n_t4_objective = im->n_dup_keys = 0;
    if ((w.seen = calloc((size_t)im->n_cfg, 1)) == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    for (int i = 0; i < im->n_src; i++)
        if (imp_walk(im, tok, i, append, &w) != 0) {
            rc = tc_err_exit_code();
            goto out;
        }
    *n_runs = trace_n_runs(w.t);
    *n_exec = trace_n_exec(w.t);
    rc = 0;
out:
    if (w.t != NULL && trace_close(w.t) != 0 && rc == 0)
        rc = 1;
    free(w.exec);
    free(w.seen);
    return rc;
}

static void import_print_summary(const struct imp *im, const struct opts *o, size_t n_runs, size_t n_exec)
{
    printf("imported %d file(s) (%s): %d inputs, %d configurations, %zu runs, %zu timed executions -> %s\n",
           im->n_src, o->format, im->n_src, im->n_cfg, n_runs, n_exec, o->out);
    if (im->n_wall_fallback > 0)
        printf("note: %zu runs had no usable benchmark_time: their tuning time is their executions alone "
               "(no overhead)\n", im->n_wall_fallback);
    if (im->n_nan_time > 0)
        printf("note: %zu entries had a NaN 'time' (a failed measurement): recorded as launch errors\n",
               im->n_nan_time);
    if (im->n_no_compile > 0)
        printf("note: %zu configurations had no compile time: recorded as 0 ms (compilation is not charged)\n",
               im->n_no_compile);
    if (im->n_dup_keys > 0)
        printf("note: %zu cache keys appear twice in their file: the last entry counts (as Python's json, so Kernel "
               "Tuner, reads it); the earlier one is kept as an earlier run of the pair\n", im->n_dup_keys);
    if (im->n_revisits > 0)
        printf("note: %zu revisits of a configuration already imported from the same file were skipped\n",
               im->n_revisits);
    if (im->n_single_time > 0)
        printf("note: %zu entries had no 'times': each counts as one execution of its mean 'time'\n",
               im->n_single_time);
    if (im->src[0].objective_is_metric)
        printf("note: the best configuration of each input is the one with the %s '%s' (the cache's objective)\n",
               im->src[0].higher_is_better ? "highest" : "lowest", im->src[0].objective);
    if (im->n_t4_objective > 0)
        printf("note: %zu results name an objective other than time, with no direction in T4: ranked by time\n",
               im->n_t4_objective);
}

/* Warnings go to stderr, -q or not: the trace holds what the file says, but the file contradicts itself. */
static void print_warnings(const struct imp *im)
{
    if (im->n_time_disagree > 0)
        fprintf(stderr, "tunecost import: warning: %zu entries have a 'time' that is not the mean of their 'times' (off by more "
                        "than 1%%): their true time is 'time', as Kernel Tuner ranks them; the simulator replays "
                        "'times'\n", im->n_time_disagree);
}

/* The files are mapped: one that another process truncates while it is read faults with SIGBUS on the pages past
 * its new end. The handler turns such a fault (and only one inside a mapped input) into a jump back to
 * cmd_import, which reports it in one line and removes its temporary; nothing of the half-done run is used
 * after the jump but the message and the temporary's name. Any other SIGBUS keeps its default action. */
static sigjmp_buf bus_jmp;
static struct imp *volatile bus_im;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    struct imp *im = bus_im;
    for (int i = 0; im != NULL && i < im->n_src; i++) {
        const char *b = im->src[i].buf, *a = si->si_addr;
        if (b != NULL && a >= b && a < b + im->src[i].len + (size_t)sysconf(_SC_PAGESIZE))
            siglongjmp(bus_jmp, i + 1);
    }
    signal(sig, SIG_DFL); /* not ours: returning repeats the fault, now with the default action */
}

static void catch_sigbus(struct imp *im, int on)
{
    struct sigaction sa = {.sa_flags = SA_SIGINFO};
    sigemptyset(&sa.sa_mask);
    if (on)
        sa.sa_sigaction = on_sigbus;
    else
        sa.sa_handler = SIG_DFL;
    bus_im = on ? im : NULL;
    sigaction(SIGBUS, &sa, NULL);
}

/* Read the sources and write the trace into tmp, a SIGBUS in a mapped input turned into a one-line error (exit
 * 1). Nothing but the arguments is used after the jump. */
static int import_guarded(struct imp *im, const struct opts *o, struct tables *tt, struct json_tokener *tok,
                          char *tmp, size_t tmp_len, size_t *n_runs, size_t *n_exec)
{
    int bus = sigsetjmp(bus_jmp, 1);
    if (bus != 0) { /* an input shrank under the mapping (on_sigbus) */
        catch_sigbus(im, 0);
        return tc_seterr_env("%s: the file shrank while it was being imported (another process truncated or "
                             "rewrote it); nothing written", im->src[bus - 1].path), 1;
    }
    catch_sigbus(im, 1);
    int rc = read_sources(im, tok, o);
    if (rc == 0)
        rc = build_tables(im, tt);
    if (rc == 0 && tc_atomic_tmpname(o->out, tmp, tmp_len) != 0)
        rc = 1;
    if (rc == 0)
        rc = write_trace(im, tok, tt, o->format, tmp, n_runs, n_exec);
    catch_sigbus(im, 0);
    return rc;
}

int cmd_import(int argc, char **argv)
{
    struct imp im;
    struct opts o;
    struct tables tt;
    struct json_tokener *tok = NULL;
    char tmp[PATH_MAX] = "";
    size_t n_runs = 0, n_exec = 0;
    int rc;

    memset(&im, 0, sizeof im);
    memset(&o, 0, sizeof o);
    memset(&tt, 0, sizeof tt);
    if ((rc = parse_args(argc, argv, &im, &o)) >= 0)
        return rc;
    if (im.fmt == FMT_HELION) {
        if ((rc = imp_helion(o.in, im.n_src, o.out, o.force, o.quiet, o.device, o.kernel)) != 0)
            fprintf(stderr, "tunecost import: %s\n", tc_errmsg());
        return rc;
    }
    if ((im.src = calloc((size_t)im.n_src, sizeof *im.src)) == NULL || (tok = json_tokener_new()) == NULL) {
        tc_seterr_env("out of memory");
        rc = 1;
        goto out;
    }
    if ((rc = import_guarded(&im, &o, &tt, tok, tmp, sizeof tmp, &n_runs, &n_exec)) != 0)
        goto out;
    /* removes tmp either way; without --force never over a file another run made since the check at the start */
    rc = (o.force ? tc_atomic_rename(tmp, o.out) : tc_atomic_rename_noreplace(tmp, o.out)) != 0;
    tmp[0] = '\0';
    if (rc != 0) {
        rc = tc_err_exit_code();
        goto out;
    }
    print_warnings(&im);
    if (!o.quiet)
        import_print_summary(&im, &o, n_runs, n_exec);
out:
    if (rc != 0)
        fprintf(stderr, "tunecost import: %s\n", tc_errmsg());
    if (tmp[0] != '\0')
        unlink(tmp);
    tables_free(&tt);
    if (tok != NULL)
        json_tokener_free(tok);
    imp_free(&im);
    return rc;
}
