/* cmd_merge.c — `tunecost merge OUT IN...`: join trace shards of one collection (same device, same settings,
 * same configurations) into one trace. Inputs are united by their dimensions; a pair measured in two files is
 * refused. The output is written to a temporary name and renamed into place: complete or absent. No CUDA. */
#include "tc_atomic.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tc_version.h"
#include "trace.h"
#include "tunecost.h"

#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct merge_opts {
    int force, quiet;
};

static const struct tc_optdecl merge_opts[] = {
    TC_OPT_FORCE(struct merge_opts, force),
    TC_OPT_QUIET(struct merge_opts, quiet),
    TC_OPT_HELP,
    TC_OPT_END,
};

const struct tc_cmd merge_cmd = {
    .name = "merge",
    .summary = "merge trace shards of one collection into one trace",
    .synopsis = "[OPTIONS] OUT.h5 IN.h5 [IN.h5 ...]",
    .description =
        "Join traces of one collection split with `collect --shard i/n` or `--shape` into one trace. The inputs\n"
        "must come from the same device (name, compute capability) and the same settings (kernel, timer,\n"
        "protocol, --warmup-ms, --rep-ms, --flush-bytes, --seed) and hold the same configurations; anything else\n"
        "is refused with the attribute that differs. Inputs (shapes) are united; a pair (input, configuration)\n"
        "measured in two files is refused. Configuration rows (compile times, registers) come from the first\n"
        "file that compiled the configuration, the isolated compile time (--compile-isolated) from the first\n"
        "file that measured it; the first file's compile-worker warm-up is kept.\n",
    .operands = "OUT.h5\tthe merged trace (complete or absent; an existing file only with -f)\n"
                "IN.h5\tthe shards, in order\n",
    .opts = merge_opts,
    .exit_status = "0 ok; 1 a failure of the environment (disk, memory); 2 usage error, an existing OUT.h5 "
                   "without -f, or inputs that cannot be merged (one line on stderr).",
    .examples = "tunecost merge gemm-h200.h5 part1.h5 part2.h5 part3.h5 part4.h5\n"
                "tunecost merge -f all.h5 shard-*.h5\n",
    .min_operands = 2,
    .max_operands = -1,
    .operand_name = "OUT.h5 and at least one IN.h5",
};

/* A settings mismatch between the first file and file f, or NULL. */
static int check_same(const struct trace *a, const char *fa, const struct trace *b, const char *fb)
{
    const struct trace_meta *x = trace_get_meta(a), *y = trace_get_meta(b);
#define SAME_STR(field, what)                                                                                 \
    if (strcmp(x->field, y->field) != 0)                                                                      \
        return tc_seterr("%s: %s is '%s', but %s has '%s': only traces of one collection can be merged", fb,   \
                         what, y->field, fa, x->field);
/* equal, or both NaN (an imported trace has no warm-up or repetition setting: NaN in every file) */
#define SAME_NUM(field, what, fmt, cast)                                                                      \
    if (x->field != y->field && !(isnan((double)x->field) && isnan((double)y->field)))                        \
        return tc_seterr("%s: %s is " fmt ", but %s has " fmt ": only traces of one collection can be merged",  \
                         fb, what, (cast)y->field, fa, (cast)x->field);
    SAME_STR(kernel, "kernel")
    if (x->kernel_family[0] != '\0' && y->kernel_family[0] != '\0') /* a shard written before it has none */
        SAME_STR(kernel_family, "kernel_family")
    SAME_STR(device_name, "device_name")
    SAME_NUM(device_cc, "device_cc", "%d", int)
    SAME_STR(timer, "timer")
    SAME_STR(protocol, "protocol")
    SAME_NUM(warmup_ms, "warmup_ms", "%g", double)
    SAME_NUM(rep_ms, "rep_ms", "%g", double)
    SAME_NUM(flush_bytes, "flush_bytes", "%lld", long long)
    SAME_NUM(seed, "seed", "%llu", unsigned long long)
    SAME_STR(objective, "objective")
    SAME_NUM(objective_higher_is_better, "objective_higher_is_better", "%d", int)
#undef SAME_STR
#undef SAME_NUM
    if (trace_n_params(a) != trace_n_params(b) || trace_n_dims(a) != trace_n_dims(b))
        return tc_seterr("%s: %d parameters and %d dimensions, but %s has %d and %d", fb, trace_n_params(b),
                         trace_n_dims(b), fa, trace_n_params(a), trace_n_dims(a));
    for (int p = 0; p < trace_n_params(a); p++)
        if (strcmp(trace_param_name(a, p), trace_param_name(b, p)) != 0)
            return tc_seterr("%s: parameter %d is '%s', but %s has '%s'", fb, p, trace_param_name(b, p), fa,
                             trace_param_name(a, p));
    for (int d = 0; d < trace_n_dims(a); d++)
        if (strcmp(trace_dim_name(a, d), trace_dim_name(b, d)) != 0)
            return tc_seterr("%s: dimension %d is '%s', but %s has '%s'", fb, d, trace_dim_name(b, d), fa,
                             trace_dim_name(a, d));
    if (trace_n_configs(a) != trace_n_configs(b))
        return tc_seterr("%s: %d configurations, but %s has %d (collected with other --configs/--space/--param?)",
                         fb, trace_n_configs(b), fa, trace_n_configs(a));
    for (int k = 0; k < trace_n_configs(a); k++)
        if (memcmp(trace_params(a, k), trace_params(b, k), (size_t)trace_n_params(a) * sizeof(int32_t)) != 0)
            return tc_seterr("%s: configuration %d differs from %s's (collected with another --seed or --param?)",
                             fb, k, fa);
    for (int p = 0; p < trace_n_params(a); p++) { /* imported traces: the indices mean the same values */
        const char *const *va, *const *vb;
        int na = trace_param_values(a, p, &va), nb = trace_param_values(b, p, &vb);
        for (int k = 0; na == nb && k < na; k++)
            if (strcmp(va[k], vb[k]) != 0)
                nb = -1;
        if (na != nb)
            return tc_seterr("%s: parameter '%s' has another value table than in %s (attribute values_%s of /params)",
                             fb, trace_param_name(a, p), fa, trace_param_name(a, p));
    }
    return 0;
}

/* The value tables of an imported trace's parameters (the inputs' are equal: check_same). */
static int copy_value_tables(const struct trace *in, struct trace *out)
{
    for (int p = 0; p < trace_n_params(in); p++) {
        const char *const *v;
        int n = trace_param_values(in, p, &v);
        if (n > 0 && trace_set_param_values(out, p, v, n) != 0)
            return -1;
    }
    return 0;
}

static int dims_cmp(const int64_t *a, const int64_t *b, int n_dim)
{
    for (int d = 0; d < n_dim; d++)
        if (a[d] != b[d])
            return a[d] < b[d] ? -1 : 1;
    return 0;
}

/* Reorder dims/inputs (n_inputs rows) by dims_cmp and renumber map[f][i] for each of the n_in files. Insertion
 * sort: a trace has tens of inputs. Returns -1 when out of memory (nothing changed then). */
static int sort_inputs(int n_inputs, int n_dim, int64_t *dims, struct trace_input *inputs, int **map,
                       struct trace *const *in, int n_in)
{
    int *order, *rank, rc = -1;
    int64_t *d2;
    struct trace_input *i2;
    if (n_inputs == 0)
        return 0;
    order = malloc((size_t)n_inputs * sizeof *order);
    rank = malloc((size_t)n_inputs * sizeof *rank);
    d2 = malloc((size_t)n_inputs * n_dim * sizeof *d2);
    i2 = malloc((size_t)n_inputs * sizeof *i2);
    if (order == NULL || rank == NULL || d2 == NULL || i2 == NULL)
        goto out;
    for (int i = 0; i < n_inputs; i++) {
        int j = i;
        for (; j > 0 && dims_cmp(dims + (size_t)order[j - 1] * n_dim, dims + (size_t)i * n_dim, n_dim) > 0; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    for (int r = 0; r < n_inputs; r++) {
        rank[order[r]] = r;
        memcpy(d2 + (size_t)r * n_dim, dims + (size_t)order[r] * n_dim, (size_t)n_dim * sizeof *d2);
        i2[r] = inputs[order[r]];
    }
    memcpy(dims, d2, (size_t)n_inputs * n_dim * sizeof *d2);
    memcpy(inputs, i2, (size_t)n_inputs * sizeof *i2);
    for (int f = 0; f < n_in; f++)
        for (int i = 0; i < trace_n_inputs(in[f]); i++)
            map[f][i] = rank[map[f][i]];
    rc = 0;
out:
    free(order);
    free(rank);
    free(d2);
    free(i2);
    return rc;
}

/* A merge in progress: the input traces and what is built from them. */
struct merge {
    int n_in;                  /* input files */
    char *const *paths;        /* their names */
    struct trace **in;
    int n_cfg, n_par, n_dim, n_inputs;
    int64_t *dims;             /* n_inputs x n_dim: the union of the files' inputs, sorted */
    struct trace_input *inputs;
    struct trace_config *configs;
    int32_t *params;
    int **map;                 /* map[f][input of file f] -> merged input */
    int *seen;                 /* merged input x config: 1 + the file that measured it, 0 if none */
    const char **pnames, **dnames;
    size_t n_runs;
};

/* Inputs: the union by dimensions, then sorted by dims_cmp; fills dims, inputs, n_inputs and map. 0, or -1 when
 * memory ran out. */
static int unite_inputs(struct merge *mg)
{
    int cap = 0, n_dim = mg->n_dim;
    for (int f = 0; f < mg->n_in; f++) {
        struct trace *t = mg->in[f];
        mg->map[f] = malloc((size_t)(trace_n_inputs(t) > 0 ? trace_n_inputs(t) : 1) * sizeof **mg->map);
        if (mg->map[f] == NULL)
            return -1;
        for (int i = 0; i < trace_n_inputs(t); i++) {
            const int64_t *d = trace_dims(t, i);
            int j;
            for (j = 0; j < mg->n_inputs; j++)
                if (memcmp(mg->dims + (size_t)j * n_dim, d, (size_t)n_dim * sizeof *d) == 0)
                    break;
            if (j == mg->n_inputs) {
                if (mg->n_inputs == cap) {
                    cap = cap ? 2 * cap : 64;
                    int64_t *nd = realloc(mg->dims, (size_t)cap * n_dim * sizeof *nd);
                    struct trace_input *ni;
                    if (nd == NULL)
                        return -1;
                    mg->dims = nd;
                    ni = realloc(mg->inputs, (size_t)cap * sizeof *ni);
                    if (ni == NULL)
                        return -1;
                    mg->inputs = ni;
                }
                memcpy(mg->dims + (size_t)mg->n_inputs * n_dim, d, (size_t)n_dim * sizeof *d);
                mg->inputs[mg->n_inputs] = *trace_input(t, i);
                mg->n_inputs++;
            } else if (isnan(mg->inputs[j].ref_ms)) {
                mg->inputs[j].ref_ms = trace_input(t, i)->ref_ms;
            }
            mg->map[f][i] = j;
        }
    }
    /* Sort the united inputs by their dimensions (first dimension most significant): the order the collector
     * gives the paper's shapes, so shards of one collection merge back into the collection's own order. */
    return sort_inputs(mg->n_inputs, n_dim, mg->dims, mg->inputs, mg->map, mg->in, mg->n_in);
}

/* Configurations: the first file's rows, completed by later files where the first never compiled one; parameter
 * and dimension names. 0, or -1 when memory ran out. */
static int unite_configs(struct merge *mg)
{
    mg->configs = malloc((size_t)mg->n_cfg * sizeof *mg->configs);
    mg->params = malloc((size_t)mg->n_cfg * mg->n_par * sizeof *mg->params);
    mg->seen = calloc((size_t)mg->n_inputs * mg->n_cfg, sizeof *mg->seen);
    mg->pnames = malloc((size_t)mg->n_par * sizeof *mg->pnames);
    mg->dnames = malloc((size_t)mg->n_dim * sizeof *mg->dnames);
    if (mg->configs == NULL || mg->params == NULL || mg->seen == NULL || mg->pnames == NULL || mg->dnames == NULL)
        return -1;
    for (int k = 0; k < mg->n_cfg; k++) {
        mg->configs[k] = *trace_config(mg->in[0], k);
        for (int f = 1; f < mg->n_in && isnan(mg->configs[k].compile_ms); f++)
            if (!isnan(trace_config(mg->in[f], k)->compile_ms))
                mg->configs[k] = *trace_config(mg->in[f], k);
        /* The isolated compile time likewise from the first file that measured it (every shard compiles every
         * configuration, each under the same single worker; the first is kept, as for compile_ms). */
        for (int f = 0; f < mg->n_in && isnan(mg->configs[k].compile_isolated_ms); f++)
            mg->configs[k].compile_isolated_ms = trace_compile_isolated_ms(mg->in[f], k);
        memcpy(mg->params + (size_t)k * mg->n_par, trace_params(mg->in[0], k), (size_t)mg->n_par * sizeof *mg->params);
    }
    for (int p = 0; p < mg->n_par; p++)
        mg->pnames[p] = trace_param_name(mg->in[0], p);
    for (int d = 0; d < mg->n_dim; d++)
        mg->dnames[d] = trace_dim_name(mg->in[0], d);
    return 0;
}

/* Duplicate pairs are refused before anything is written: 0 (n_runs counted), or 2 after the message. */
static int refuse_duplicate_pairs(struct merge *mg)
{
    for (int f = 0; f < mg->n_in; f++)
        for (size_t r = 0; r < trace_n_runs(mg->in[f]); r++) {
            const struct trace_run *run = trace_run(mg->in[f], r);
            size_t key = (size_t)mg->map[f][run->input] * mg->n_cfg + run->config;
            if (mg->seen[key] != 0 && mg->seen[key] != f + 1) { /* a pair re-measured within one file is kept as
                                                                 * it is: its last run counts */
                fprintf(stderr, "tunecost merge: %s: input %d, configuration %d was measured in an earlier file too; "
                                "merge refuses to choose between two measurements of one pair\n",
                        mg->paths[f], run->input, run->config);
                return 2;
            }
            mg->seen[key] = f + 1;
            mg->n_runs++;
        }
    return 0;
}

/* Write the merged trace to a temporary beside out_path and rename it into place: 0, or the exit code after the
 * message (1; 2 when out_path appeared meanwhile and force is off). */
static int write_merged(struct merge *mg, const char *out_path, int quiet, int force)
{
    struct trace *out = NULL;
    char tmp[4096] = "";
    int rc = 1;
    if (tc_atomic_tmpname(out_path, tmp, sizeof tmp) != 0) {
        fprintf(stderr, "tunecost merge: %s\n", tc_errmsg());
        goto out;
    }
    {
        struct trace_meta m = *trace_get_meta(mg->in[0]);
        m.created_utc[0] = '\0'; /* trace_create fills in the time of the merge */
        for (int i = 1; m.kernel_family[0] == '\0' && i < mg->n_in; i++) /* a shard written before it has none */
            snprintf(m.kernel_family, sizeof m.kernel_family, "%s", trace_get_meta(mg->in[i])->kernel_family);
        snprintf(m.generator, sizeof m.generator, "tunecost %s (merge of %d)", TC_VERSION, mg->n_in);
        out = trace_create(tmp, &m, mg->pnames, mg->n_par, mg->dnames, mg->n_dim);
    }
    if (out == NULL || trace_write_configs(out, mg->n_cfg, mg->params, mg->configs) != 0 ||
        trace_write_inputs(out, mg->n_inputs, mg->dims, mg->inputs) != 0 || copy_value_tables(mg->in[0], out) != 0)
        goto fail;
    trace_set_flush_each_run(out, 0); /* the runs are written once, compressed, on close: disk ~ the output */
    for (int k = 0; k < mg->n_cfg; k++) {
        for (int f = 0; f < mg->n_in; f++) {
            const char *log = trace_compile_log(mg->in[f], k);
            if (log != NULL && log[0] != '\0') {
                if (trace_set_compile_log(out, k, log) != 0)
                    goto fail;
                break;
            }
        }
    }
    for (int f = 0; f < mg->n_in; f++)
        for (size_t r = 0; r < trace_n_runs(mg->in[f]); r++) {
            struct trace_run run = *trace_run(mg->in[f], r);
            size_t n = (size_t)run.n_estimate + (size_t)run.n_warmup + (size_t)run.n_timed;
            run.input = mg->map[f][run.input];
            if (trace_append_run(out, &run, trace_run_exec(mg->in[f], r), n) != 0)
                goto fail;
        }
    for (int f = 0; f < mg->n_in; f++)
        if (trace_n_compile_warmup(mg->in[f]) > 0) {
            if (trace_write_compile_warmup(out, trace_compile_warmup(mg->in[f]), trace_n_compile_warmup(mg->in[f])) !=
                0)
                goto fail;
            break;
        }
    if (trace_close(out) != 0) {
        out = NULL;
        goto fail;
    }
    out = NULL;
    /* without --force, never over a file that appeared since the check at the start (another merge) */
    if ((force ? tc_atomic_rename(tmp, out_path) : tc_atomic_rename_noreplace(tmp, out_path)) != 0) {
        fprintf(stderr, "tunecost merge: %s\n", tc_errmsg());
        rc = tc_err_exit_code();
        tmp[0] = '\0';
        goto out;
    }
    tmp[0] = '\0';
    if (!quiet)
        printf("merged %d trace%s: %d inputs, %d configurations, %zu runs -> %s\n", mg->n_in,
               mg->n_in == 1 ? "" : "s", mg->n_inputs, mg->n_cfg, mg->n_runs, out_path);
    rc = 0;
    goto out;
fail:
    fprintf(stderr, "tunecost merge: writing %s: %s\n", out_path, tc_errmsg());
out:
    if (out != NULL)
        trace_close(out);
    if (tmp[0] != '\0')
        unlink(tmp);
    return rc;
}

static void merge_free(struct merge *mg)
{
    if (mg->in != NULL)
        for (int f = 0; f < mg->n_in; f++)
            trace_close(mg->in[f]);
    if (mg->map != NULL)
        for (int f = 0; f < mg->n_in; f++)
            free(mg->map[f]);
    free(mg->map);
    free(mg->in);
    free(mg->dims);
    free(mg->inputs);
    free(mg->configs);
    free(mg->params);
    free(mg->seen);
    free(mg->pnames);
    free(mg->dnames);
}

int cmd_merge(int argc, char **argv)
{
    struct merge_opts o = {0};
    int first, rc;
    const char *out_path;
    struct stat st;
    struct merge mg;

    if ((rc = tc_cli_parse(&merge_cmd, argc, argv, &o, &first)) != TC_CLI_RUN)
        return rc;
    rc = 1;
    out_path = argv[first];
    memset(&mg, 0, sizeof mg);
    mg.n_in = argc - first - 1;
    mg.paths = argv + first + 1;
    if (tc_output_check("OUT.h5", out_path, 0, (const char *const *)mg.paths, mg.n_in) != 0) {
        fprintf(stderr, "tunecost merge: %s\n", tc_errmsg());
        return 2;
    }
    for (int f = 0; f < mg.n_in; f++) {
        struct stat si;
        if (stat(out_path, &st) == 0 && stat(mg.paths[f], &si) == 0 && st.st_dev == si.st_dev &&
            st.st_ino == si.st_ino) {
            fprintf(stderr, "tunecost merge: %s: the output is also an input; write to a new file\n", out_path);
            return 2;
        }
    }
    if (!o.force && stat(out_path, &st) == 0) {
        fprintf(stderr, "tunecost merge: %s exists (use --force to overwrite)\n", out_path);
        return 2;
    }
    mg.in = calloc((size_t)mg.n_in, sizeof *mg.in);
    mg.map = calloc((size_t)mg.n_in, sizeof *mg.map);
    if (mg.in == NULL || mg.map == NULL)
        goto oom;
    for (int f = 0; f < mg.n_in; f++) {
        mg.in[f] = trace_open(mg.paths[f]);
        if (mg.in[f] == NULL || (f > 0 && check_same(mg.in[0], mg.paths[0], mg.in[f], mg.paths[f]) != 0)) {
            fprintf(stderr, "tunecost merge: %s\n", tc_errmsg());
            rc = tc_err_exit_code();
            goto out;
        }
    }
    mg.n_cfg = trace_n_configs(mg.in[0]);
    mg.n_par = trace_n_params(mg.in[0]);
    mg.n_dim = trace_n_dims(mg.in[0]);
    if (unite_inputs(&mg) != 0 || unite_configs(&mg) != 0)
        goto oom;
    if ((rc = refuse_duplicate_pairs(&mg)) != 0)
        goto out;
    rc = write_merged(&mg, out_path, o.quiet, o.force);
    goto out;
oom:
    fprintf(stderr, "tunecost merge: out of memory\n");
    rc = 1;
out:
    merge_free(&mg);
    return rc;
}
