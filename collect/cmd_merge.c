/* cmd_merge.c — `tunecost merge OUT IN...`: join trace shards of one collection (same device, same settings,
 * same configurations) into one trace. Inputs are united by their dimensions; a pair measured in two files is
 * refused. The output is written to a temporary name and renamed into place: complete or absent. No CUDA. */
#include "tc_atomic.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tc_version.h"
#include "trace.h"
#include "tunecost.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void merge_usage(FILE *fp)
{
    fprintf(fp,
            "usage: tunecost merge [OPTIONS] OUT.h5 IN.h5 [IN.h5 ...]\n"
            "\n"
            "Join traces of one collection split with `collect --shard i/n` or `--shape` into one trace. The inputs\n"
            "must come from the same device (name, compute capability) and the same settings (kernel, timer,\n"
            "protocol, --warmup-ms, --rep-ms, --flush-bytes, --seed) and hold the same configurations; anything else\n"
            "is refused with the attribute that differs. Inputs (shapes) are united; a pair (input, configuration)\n"
            "measured in two files is refused. Configuration rows (compile times, registers) come from the first\n"
            "file that compiled the configuration; the first file's compile-worker warm-up is kept.\n"
            "\n"
            "Options:\n"
            "  -f, --force   overwrite OUT.h5 if it exists (default: refuse)\n"
            "  -q, --quiet   no summary line\n"
            "  -h, --help    this help\n"
            "\n"
            "Examples:\n"
            "  tunecost merge gemm-h200.h5 part1.h5 part2.h5 part3.h5 part4.h5\n"
            "  tunecost merge -f all.h5 shard-*.h5\n");
}

/* A settings mismatch between the first file and file f, or NULL. */
static int check_same(const struct trace *a, const char *fa, const struct trace *b, const char *fb)
{
    const struct trace_meta *x = trace_get_meta(a), *y = trace_get_meta(b);
#define SAME_STR(field, what)                                                                                 \
    if (strcmp(x->field, y->field) != 0)                                                                      \
        return tc_seterr("%s: %s is '%s', but %s has '%s': only traces of one collection can be merged", fb,   \
                         what, y->field, fa, x->field);
#define SAME_NUM(field, what, fmt, cast)                                                                      \
    if (x->field != y->field)                                                                                 \
        return tc_seterr("%s: %s is " fmt ", but %s has " fmt ": only traces of one collection can be merged",  \
                         fb, what, (cast)y->field, fa, (cast)x->field);
    SAME_STR(kernel, "kernel")
    SAME_STR(device_name, "device_name")
    SAME_NUM(device_cc, "device_cc", "%d", int)
    SAME_STR(timer, "timer")
    SAME_STR(protocol, "protocol")
    SAME_NUM(warmup_ms, "warmup_ms", "%g", double)
    SAME_NUM(rep_ms, "rep_ms", "%g", double)
    SAME_NUM(flush_bytes, "flush_bytes", "%lld", long long)
    SAME_NUM(seed, "seed", "%llu", unsigned long long)
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

int cmd_merge(int argc, char **argv)
{
    static const struct option lo[] = {TC_CLI_OPT_FORCE, TC_CLI_OPT_QUIET, TC_CLI_OPT_HELP, TC_CLI_OPT_END};
    int c, force = 0, quiet = 0, n_in = 0, rc = 1, n_cfg, n_par, n_dim, n_inputs = 0;
    struct trace **in = NULL, *out = NULL;
    const char *out_path;
    char tmp[4096] = "";
    struct stat st;
    int64_t *dims = NULL;
    struct trace_input *inputs = NULL;
    struct trace_config *configs = NULL;
    int32_t *params = NULL;
    int **map = NULL;          /* map[f][input of file f] -> merged input */
    int *seen = NULL; /* merged input x config: 1 + the file that measured it, 0 if none */
    const char **pnames = NULL, **dnames = NULL;
    size_t n_runs = 0;

    optind = 1;
    while ((c = tc_cli_next("merge", argc, argv, "fqh", lo)) != -1) {
        switch (c) {
        case 'f': force = 1; break;
        case 'q': quiet = 1; break;
        case 'h': merge_usage(stdout); return 0;
        case TC_CLI_ERROR: return 2;
        default: return tc_cli_usage_error("merge", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind < 2)
        return tc_cli_usage_error("merge", "expected OUT.h5 and at least one IN.h5");
    out_path = argv[optind];
    n_in = argc - optind - 1;
    if (tc_output_check("OUT.h5", out_path, 0, (const char *const *)argv + optind + 1, n_in) != 0) {
        fprintf(stderr, "tunecost merge: %s\n", tc_errmsg());
        return 2;
    }
    for (int f = 0; f < n_in; f++) {
        struct stat si;
        if (stat(out_path, &st) == 0 && stat(argv[optind + 1 + f], &si) == 0 && st.st_dev == si.st_dev &&
            st.st_ino == si.st_ino) {
            fprintf(stderr, "tunecost merge: %s: the output is also an input; write to a new file\n", out_path);
            return 2;
        }
    }
    if (!force && stat(out_path, &st) == 0) {
        fprintf(stderr, "tunecost merge: %s exists (use --force to overwrite)\n", out_path);
        return 2;
    }
    in = calloc((size_t)n_in, sizeof *in);
    map = calloc((size_t)n_in, sizeof *map);
    if (in == NULL || map == NULL)
        goto oom;
    for (int f = 0; f < n_in; f++) {
        in[f] = trace_open(argv[optind + 1 + f]);
        if (in[f] == NULL) {
            fprintf(stderr, "tunecost merge: %s\n", tc_errmsg());
            rc = 2;
            goto out;
        }
        if (f > 0 && check_same(in[0], argv[optind + 1], in[f], argv[optind + 1 + f]) != 0) {
            fprintf(stderr, "tunecost merge: %s\n", tc_errmsg());
            rc = 2;
            goto out;
        }
    }
    n_cfg = trace_n_configs(in[0]);
    n_par = trace_n_params(in[0]);
    n_dim = trace_n_dims(in[0]);

    /* Inputs: the union by dimensions. */
    {
        int cap = 0;
        for (int f = 0; f < n_in; f++) {
            map[f] = malloc((size_t)(trace_n_inputs(in[f]) > 0 ? trace_n_inputs(in[f]) : 1) * sizeof **map);
            if (map[f] == NULL)
                goto oom;
            for (int i = 0; i < trace_n_inputs(in[f]); i++) {
                const int64_t *d = trace_dims(in[f], i);
                int j;
                for (j = 0; j < n_inputs; j++)
                    if (memcmp(dims + (size_t)j * n_dim, d, (size_t)n_dim * sizeof *d) == 0)
                        break;
                if (j == n_inputs) {
                    if (n_inputs == cap) {
                        cap = cap ? 2 * cap : 64;
                        int64_t *nd = realloc(dims, (size_t)cap * n_dim * sizeof *nd);
                        struct trace_input *ni;
                        if (nd == NULL)
                            goto oom;
                        dims = nd;
                        ni = realloc(inputs, (size_t)cap * sizeof *ni);
                        if (ni == NULL)
                            goto oom;
                        inputs = ni;
                    }
                    memcpy(dims + (size_t)n_inputs * n_dim, d, (size_t)n_dim * sizeof *d);
                    inputs[n_inputs] = *trace_input(in[f], i);
                    n_inputs++;
                } else if (isnan(inputs[j].ref_ms)) {
                    inputs[j].ref_ms = trace_input(in[f], i)->ref_ms;
                }
                map[f][i] = j;
            }
        }
    }
    /* Sort the united inputs by their dimensions (first dimension most significant): the order the collector
     * gives the paper's shapes, so shards of one collection merge back into the collection's own order. */
    if (sort_inputs(n_inputs, n_dim, dims, inputs, map, in, n_in) != 0)
        goto oom;
    /* Configurations: the first file's rows, completed by later files where the first never compiled one. */
    configs = malloc((size_t)n_cfg * sizeof *configs);
    params = malloc((size_t)n_cfg * n_par * sizeof *params);
    seen = calloc((size_t)n_inputs * n_cfg, sizeof *seen);
    pnames = malloc((size_t)n_par * sizeof *pnames);
    dnames = malloc((size_t)n_dim * sizeof *dnames);
    if (configs == NULL || params == NULL || seen == NULL || pnames == NULL || dnames == NULL)
        goto oom;
    for (int k = 0; k < n_cfg; k++) {
        configs[k] = *trace_config(in[0], k);
        for (int f = 1; f < n_in && isnan(configs[k].compile_ms); f++)
            if (!isnan(trace_config(in[f], k)->compile_ms))
                configs[k] = *trace_config(in[f], k);
        memcpy(params + (size_t)k * n_par, trace_params(in[0], k), (size_t)n_par * sizeof *params);
    }
    for (int p = 0; p < n_par; p++)
        pnames[p] = trace_param_name(in[0], p);
    for (int d = 0; d < n_dim; d++)
        dnames[d] = trace_dim_name(in[0], d);
    /* Duplicate pairs are refused before anything is written. */
    for (int f = 0; f < n_in; f++)
        for (size_t r = 0; r < trace_n_runs(in[f]); r++) {
            const struct trace_run *run = trace_run(in[f], r);
            size_t key = (size_t)map[f][run->input] * n_cfg + run->config;
            if (seen[key] != 0 && seen[key] != f + 1) { /* a pair re-measured within one file
                                                                          * is kept as it is: its last run counts */
                fprintf(stderr, "tunecost merge: %s: input %d, configuration %d was measured in an earlier file too; "
                                "merge refuses to choose between two measurements of one pair\n",
                        argv[optind + 1 + f], run->input, run->config);
                rc = 2;
                goto out;
            }
            seen[key] = f + 1;
            n_runs++;
        }

    if (tc_atomic_tmpname(out_path, tmp, sizeof tmp) != 0) {
        fprintf(stderr, "tunecost merge: %s\n", tc_errmsg());
        goto out;
    }
    {
        struct trace_meta m = *trace_get_meta(in[0]);
        m.created_utc[0] = '\0'; /* trace_create fills in the time of the merge */
        snprintf(m.generator, sizeof m.generator, "tunecost %s (merge of %d)", TC_VERSION, n_in);
        out = trace_create(tmp, &m, pnames, n_par, dnames, n_dim);
    }
    if (out == NULL || trace_write_configs(out, n_cfg, params, configs) != 0 ||
        trace_write_inputs(out, n_inputs, dims, inputs) != 0)
        goto fail;
    for (int k = 0; k < n_cfg; k++) {
        for (int f = 0; f < n_in; f++) {
            const char *log = trace_compile_log(in[f], k);
            if (log != NULL && log[0] != '\0') {
                if (trace_set_compile_log(out, k, log) != 0)
                    goto fail;
                break;
            }
        }
    }
    for (int f = 0; f < n_in; f++)
        for (size_t r = 0; r < trace_n_runs(in[f]); r++) {
            struct trace_run run = *trace_run(in[f], r);
            size_t n = (size_t)run.n_estimate + (size_t)run.n_warmup + (size_t)run.n_timed;
            run.input = map[f][run.input];
            if (trace_append_run(out, &run, trace_run_exec(in[f], r), n) != 0)
                goto fail;
        }
    for (int f = 0; f < n_in; f++)
        if (trace_n_compile_warmup(in[f]) > 0) {
            if (trace_write_compile_warmup(out, trace_compile_warmup(in[f]), trace_n_compile_warmup(in[f])) != 0)
                goto fail;
            break;
        }
    if (trace_close(out) != 0) {
        out = NULL;
        goto fail;
    }
    out = NULL;
    if (tc_atomic_rename(tmp, out_path) != 0) {
        fprintf(stderr, "tunecost merge: %s\n", tc_errmsg());
        goto out;
    }
    tmp[0] = '\0';
    if (!quiet)
        printf("merged %d trace%s: %d inputs, %d configurations, %zu runs -> %s\n", n_in, n_in == 1 ? "" : "s",
               n_inputs, n_cfg, n_runs, out_path);
    rc = 0;
    goto out;
oom:
    fprintf(stderr, "tunecost merge: out of memory\n");
    goto out;
fail:
    fprintf(stderr, "tunecost merge: writing %s: %s\n", out_path, tc_errmsg());
out:
    if (out != NULL)
        trace_close(out);
    if (tmp[0] != '\0')
        unlink(tmp);
    if (in != NULL)
        for (int f = 0; f < n_in; f++)
            trace_close(in[f]);
    if (map != NULL)
        for (int f = 0; f < n_in; f++)
            free(map[f]);
    free(map);
    free(in);
    free(dims);
    free(inputs);
    free(configs);
    free(params);
    free(seen);
    free(pnames);
    free(dnames);
    return rc;
}
