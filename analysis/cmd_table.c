/* cmd_table.c — `tunecost table NAME TRACE...`: one of the paper's characterisation tables computed from traces,
 * printed aligned on stdout and optionally written as TSV (-o). The tables themselves live in tables.c. */
#include "tables.h"
#include "tc_atomic.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_paths.h"
#include "trace.h"
#include "tunecost.h"

#include <stddef.h>
#include <limits.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_TRACES 64

/* ---- the command line ------------------------------------------------------------------------------------ */

struct table_opts {
    const char *out;
    int max_rows, force, quiet;
};

static const struct tc_optdecl table_opts[] = {
    TC_OPT_OUTPUT(struct table_opts, out, "FILE.tsv", "also write the table as TSV (complete or absent)",
                  "stdout only"),
    {.name = "max-rows", .letter = 'n', .arg = TC_ARG_INT, .field = offsetof(struct table_opts, max_rows), .min = 0,
     .max = 1 << 30, .metavar = "N", .def = "0", .def_doc = "0 = all",
     .help = "print at most N rows on stdout (the TSV has all)"},
    TC_OPT_FORCE(struct table_opts, force),
    TC_OPT_QUIET_AS(struct table_opts, quiet, "print nothing on stdout: no header, no aligned table (use with -o)"),
    TC_OPT_HELP,
    TC_OPT_END,
};

static int table_topic(int i, const char **name, const char **summary)
{
    if (i < 0 || i >= tables_n_defs)
        return 0;
    *name = tables_defs[i].name;
    *summary = tables_defs[i].summary;
    return 1;
}

const struct tc_cmd table_cmd = {
    .name = "table",
    .summary = "print one of the paper's tables (compile times, tuning time, L2 flush, ...) from traces",
    .synopsis = "NAME [TRACE...] [-o FILE.tsv] [--max-rows N]\nflush DIR-or-TRACES...\nscaling [DIR-or-FILES...]",
    .description =
        "Compute one of the paper's characterisation tables from traces. The table is printed aligned on\n"
        "stdout (with totals and notes under it) and, with -o, written as TSV: one header line, then data\n"
        "rows only (no totals), ready for gnuplot, pandas or a spreadsheet.\n",
    .topics_title = "Tables (NAME)",
    .topic = table_topic,
    .operands =
        "TRACE\tdefault: the shipped reference trace, @TRACE:reference@. With several traces, every table but flush "
        "gets a leading `trace` column and the rows of each trace in turn; flush compares the traces (a directory "
        "stands for the .h5 files in it)\n"
        "FILES\tscaling reads the compile-scaling TSV files that `tunecost collect --compile-only --jobs 1,16 -o "
        "scaling-X.tsv` writes (a directory stands for its scaling-*.tsv files; default: the compile-scaling/ "
        "study shipped beside the reference trace)\n",
    .opts = table_opts,
    .exit_status = "0 ok; 1 the output could not be written; 2 usage error, an existing -o FILE without -f, or "
                   "inputs the table cannot use (one line on stderr).",
    .examples = "tunecost table compile                       # Table 1 for the reference trace\n"
                "tunecost table tuning data/gemm-h200.h5 -o tuning.tsv\n"
                "tunecost table split -o split.tsv            # Figure 1 data\n"
                "tunecost table best                          # best configuration per input vs cuBLAS\n"
                "tunecost table failures                      # why configurations fail\n"
                "tunecost table flush data/flush-study        # Tables 3 and 5 (the shipped flush study)\n"
                "tunecost table scaling                       # Table 7 (the shipped data/compile-scaling/)\n"
                "tunecost table scaling data/compile-scaling/scaling-100.tsv -o scaling.tsv\n"
                "tunecost table estimate data/gemm-h200-triton.h5 -n 20      # Figure 2 data\n"
                "tunecost table heatmap -o heatmap.tsv -q\n",
    .min_operands = 0,
    .max_operands = -1,
    .operand_name = "NAME",
};

/* path, copied into the list; -1 on memory. */
static int push(char ***paths, int *n, const char *path)
{
    char **grown = realloc(*paths, (size_t)(*n + 1) * sizeof *grown);
    if (grown == NULL)
        return tc_seterr_env("out of memory");
    *paths = grown;
    if ((grown[*n] = strdup(path)) == NULL)
        return tc_seterr_env("out of memory");
    (*n)++;
    return 0;
}

/* The inputs of a table: the arguments, a directory standing for its traces (flush) or scaling-*.tsv files
 * (scaling), and with no arguments the shipped default (the reference trace, or compile-scaling/ beside it). */
static int gather_paths(const struct tables_def *def, int argc, char **argv, char ***paths, int *n)
{
    char shipped[PATH_MAX], *shipped_argv[1] = {shipped};
    const char *def_trace = tc_paths_default_trace();
    struct stat st;
    *paths = NULL;
    *n = 0;
    if (argc > MAX_TRACES)
        return tc_seterr("at most %d inputs, got %d", MAX_TRACES, argc);
    if (argc == 0 && def->input == TABLES_ONE_TRACE) {
        if (access(def_trace, F_OK) != 0)
            return tc_seterr("no TRACE given and the reference trace %s is missing (it ships in data/ of the source "
                             "tree); name a trace: tunecost table %s TRACE", def_trace, def->name);
        return push(paths, n, def_trace);
    }
    if (argc == 0 && def->input == TABLES_SCALING_TSV) {
        if (tc_paths_shipped("compile-scaling", 1, shipped, sizeof shipped) == NULL)
            return tc_seterr("no FILES given and the shipped compile-scaling study %s/compile-scaling is missing; name "
                             "scaling-*.tsv files or a directory of them (written by `tunecost collect --compile-only "
                             "--jobs 1,16 -o FILE.tsv`)", tc_paths_dir(TC_PATHS_DATA));
        argv = shipped_argv;
        argc = 1;
    }
    for (int i = 0; i < argc; i++) {
        char **found = NULL;
        int nf = 0, rc;
        if (def->input == TABLES_ONE_TRACE || stat(argv[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
            if (push(paths, n, argv[i]) != 0)
                return -1;
            continue;
        }
        if (def->input == TABLES_SCALING_TSV)
            rc = tables_list_dir(argv[i], "scaling-", ".tsv", &found, &nf);
        else
            rc = tables_list_dir(argv[i], "", ".h5", &found, &nf);
        if (rc == 0 && nf == 0)
            rc = tc_seterr("%s: no %s in this directory", argv[i],
                           def->input == TABLES_SCALING_TSV ? "scaling-*.tsv files (compile-scaling tables)"
                                                            : "*.h5 traces");
        for (int k = 0; rc == 0 && k < nf; k++)
            rc = push(paths, n, found[k]);
        tables_paths_free(found, nf);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* Name a trace in a table by its path as given. */
static void describe(const struct trace *t)
{
    const struct trace_meta *m = trace_get_meta(t);
    printf("trace: %s (%s, %s protocol, timer %s, flush_bytes %lld, %d inputs, %d configurations, %zu runs)\n",
           trace_path(t), m->device_name, m->protocol, m->timer, (long long)m->flush_bytes, trace_n_inputs(t),
           trace_n_configs(t), trace_n_runs(t));
}

/* The table from traces[0..n) (paths: their names): one trace's table, flush's comparison, or each trace's
 * rows in turn under a leading `trace` column. NULL with tc_errmsg() on failure. */
static struct table *table_from_traces(const struct tables_def *def, struct trace **traces, char **paths, int n)
{
    struct table *tab = NULL;
    if (def->input == TABLES_FLUSH_TRACES)
        return tables_flush((const struct trace *const *)traces, (const char *const *)paths, n);
    if (n == 1)
        return def->build(traces[0]);
    for (int i = 0; i < n; i++) {
        struct table *one = def->build(traces[i]);
        if (one == NULL) { /* a later trace the table cannot use fails the whole table, not only its rows */
            table_free(tab);
            return NULL;
        }
        if (tab == NULL) {
            const char **cols = malloc(((size_t)table_n_cols(one) + 1) * sizeof *cols);
            if (cols == NULL) {
                table_free(one);
                tc_seterr_env("out of memory");
                return NULL;
            }
            cols[0] = "trace";
            for (int c = 0; c < table_n_cols(one); c++)
                cols[c + 1] = table_col_name(one, c);
            tab = table_new(table_title(one), table_n_cols(one) + 1, cols);
            free(cols);
        }
        if (tab == NULL || table_append_rows(tab, one, paths[i]) != 0) {
            table_free(one);
            table_free(tab);
            return NULL;
        }
        table_free(one);
    }
    return tab;
}

/* The table NAME names; NULL with the message printed (exit 2) when NAME is missing or unknown. */
static const struct tables_def *table_pick(const char *name)
{
    const struct tables_def *def = name != NULL ? tables_find(name) : NULL;
    if (def != NULL)
        return def;
    if (name == NULL)
        fprintf(stderr, "tunecost table: missing NAME (one of:");
    else
        fprintf(stderr, "tunecost table: unknown table '%s'; expected one of:", name);
    for (int i = 0; i < tables_n_defs; i++)
        fprintf(stderr, " %s", tables_defs[i].name);
    fprintf(stderr, name == NULL ? ")\nsee 'tunecost table --help'\n" : "\n");
    return NULL;
}

/* The header and the aligned table on stdout (unless -q), then the TSV (with -o). 0, or 1 after a message. */
static int table_emit(const struct table_opts *o, const struct tables_def *def, const struct table *tab,
                      struct trace **traces, char **paths, int n)
{
    if (!o->quiet) {
        printf("# tunecost table %s\n", def->name);
        for (int i = 0; i < n; i++) {
            if (traces != NULL)
                describe(traces[i]);
            else
                printf("file: %s\n", paths[i]);
        }
        putchar('\n');
        if (table_print(tab, stdout, o->max_rows) != 0) {
            fprintf(stderr, "tunecost table: writing stdout failed\n");
            return 1;
        }
    }
    if (o->out != NULL) {
        struct tc_atomic a;
        FILE *fp = tc_atomic_open(&a, o->out);
        if (fp == NULL) {
            fprintf(stderr, "tunecost table: %s\n", tc_errmsg());
            return 1;
        }
        if (table_write_tsv(tab, fp) != 0) {
            fprintf(stderr, "tunecost table: %s: %s\n", o->out, tc_errmsg());
            tc_atomic_abort(&a);
            return 1;
        }
        if (tc_atomic_commit_force(&a, o->force) != 0) { /* without -f: never over a file made meanwhile */
            fprintf(stderr, "tunecost table: %s\n", tc_errmsg());
            return tc_err_exit_code();
        }
        if (!o->quiet)
            printf("\nwrote %s (%d rows)\n", o->out, table_n_rows(tab));
    }
    return 0;
}

/* Every input opened as a trace; NULL with the message printed. */
static struct trace **table_open_traces(char **paths, int n)
{
    struct trace **traces = calloc((size_t)n, sizeof *traces);
    if (traces == NULL) {
        fprintf(stderr, "tunecost table: out of memory\n");
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if ((traces[i] = trace_open(paths[i])) == NULL) {
            fprintf(stderr, "tunecost table: %s\n", tc_errmsg());
            for (int k = 0; k < i; k++)
                trace_close(traces[k]);
            free(traces);
            return NULL;
        }
    }
    return traces;
}

int cmd_table(int argc, char **argv)
{
    struct table_opts o = {0};
    char **paths = NULL;
    struct trace **traces = NULL;
    const struct tables_def *def;
    struct table *tab = NULL;
    int n = 0, rc, first;

    if ((rc = tc_cli_parse(&table_cmd, argc, argv, &o, &first)) != TC_CLI_RUN)
        return rc;
    rc = 2;
    if ((def = table_pick(first < argc ? argv[first] : NULL)) == NULL)
        return 2;
    if (gather_paths(def, argc - first - 1, argv + first + 1, &paths, &n) != 0) {
        fprintf(stderr, "tunecost table %s: %s\n", def->name, tc_errmsg());
        goto out;
    }
    if (def->input == TABLES_FLUSH_TRACES && n < 2) {
        fprintf(stderr, "tunecost table %s: needs at least two traces of the same inputs collected with different "
                        "--flush-bytes settings, or a directory of them, got %d (shipped: tunecost table flush "
                        "data/flush-study)\n", def->name, n);
        goto out;
    }
    if (o.out != NULL && (tc_output_check("-o", o.out, 0, (const char *const *)paths, n) != 0 ||
                          tc_output_clobber_check("-o", o.out, o.force) != 0)) {
        fprintf(stderr, "tunecost table: %s\n", tc_errmsg());
        goto out;
    }
    if (def->input == TABLES_SCALING_TSV)
        tab = tables_scaling((const char *const *)paths, n);
    else if ((traces = table_open_traces(paths, n)) != NULL)
        tab = table_from_traces(def, traces, paths, n);
    else {
        rc = tc_err_exit_code(); /* an unreadable trace: 2; out of memory or an I/O fault: 1 */
        goto out;
    }
    if (tab == NULL) {
        fprintf(stderr, "tunecost table %s: %s\n", def->name, tc_errmsg());
        rc = tc_err_exit_code(); /* what the inputs hold (e.g. no estimates): 2; memory: 1 */
        goto out;
    }
    rc = table_emit(&o, def, tab, traces, paths, n);
out:
    table_free(tab);
    for (int i = 0; traces != NULL && i < n; i++)
        trace_close(traces[i]);
    free(traces);
    tables_paths_free(paths, n);
    return rc;
}
