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

#include <getopt.h>
#include <limits.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_TRACES 64

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: tunecost table NAME [TRACE...] [-o FILE.tsv] [--max-rows N]\n"
            "       tunecost table flush DIR-or-TRACES...   tunecost table scaling [DIR-or-FILES...]\n"
            "\n"
            "Compute one of the paper's characterisation tables from traces. The table is printed aligned on\n"
            "stdout (with totals and notes under it) and, with -o, written as TSV: one header line, then data\n"
            "rows only (no totals), ready for gnuplot, pandas or a spreadsheet.\n"
            "\n"
            "Tables (NAME):\n");
    for (int i = 0; i < tables_n_defs; i++)
        fprintf(fp, "  %-9s %s\n", tables_defs[i].name, tables_defs[i].summary);
    fprintf(fp,
            "\n"
            "TRACE defaults to the shipped reference trace (%s). With several traces, every table but\n"
            "flush gets a leading `trace` column and the rows of each trace in turn; flush compares the traces (a\n"
            "directory stands for the .h5 files in it). scaling reads the compile-scaling TSV files that\n"
            "`tunecost collect --compile-only --jobs 1,16 -o scaling-X.tsv` writes (a directory stands for its\n"
            "scaling-*.tsv files; default: the compile-scaling/ study shipped beside the reference trace).\n"
            "\n"
            "Options:\n"
            "  -o, --output FILE.tsv  also write the table as TSV (complete or absent; default: stdout only)\n"
            "  -n, --max-rows N       print at most N rows on stdout (default 0 = all; the TSV has all)\n"
            "  -q, --quiet            print nothing on stdout (use with -o)\n"
            "  -h, --help             this help\n"
            "\n"
            "Examples:\n"
            "  tunecost table compile                       # Table 1 for the reference trace\n"
            "  tunecost table tuning data/gemm-h200.h5 -o tuning.tsv\n"
            "  tunecost table split -o split.tsv            # Figure 1 data\n"
            "  tunecost table best                          # best configuration per input vs cuBLAS\n"
            "  tunecost table failures                      # why configurations fail\n"
            "  tunecost table flush data/flush-study        # Tables 3 and 5 (the shipped flush study)\n"
            "  tunecost table scaling                       # Table 7 (the shipped data/compile-scaling/)\n"
            "  tunecost table scaling data/compile-scaling/scaling-100.tsv -o scaling.tsv\n"
            "  tunecost table estimate data/gemm-h200-triton.h5 -n 20      # Figure 2 data\n"
            "  tunecost table heatmap -o heatmap.tsv -q\n",
            tc_paths_default_trace());
}

/* path, copied into the list; -1 on memory. */
static int push(char ***paths, int *n, const char *path)
{
    char **grown = realloc(*paths, (size_t)(*n + 1) * sizeof *grown);
    if (grown == NULL)
        return tc_seterr("out of memory");
    *paths = grown;
    if ((grown[*n] = strdup(path)) == NULL)
        return tc_seterr("out of memory");
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

int cmd_table(int argc, char **argv)
{
    static const struct option longopts[] = {
        TC_CLI_OPT_OUTPUT,
        {"max-rows", required_argument, NULL, 'n'},
        TC_CLI_OPT_QUIET,
        TC_CLI_OPT_HELP,
        TC_CLI_OPT_END,
    };
    const char *out = NULL;
    char **paths = NULL;
    struct trace **traces = NULL;
    const struct tables_def *def;
    struct table *tab = NULL;
    int max_rows = 0, quiet = 0, n = 0, rc = 2, opt;

    optind = 1;
    while ((opt = tc_cli_next("table", argc, argv, "o:n:qh", longopts)) != -1) {
        switch (opt) {
        case TC_CLI_ERROR:
            return 2;
        case 'o':
            out = optarg;
            break;
        case 'n':
            if (tc_parse_int("--max-rows", optarg, 0, 1 << 30, &max_rows) != 0)
                return tc_cli_usage_error("table", "%s", tc_errmsg());
            break;
        case 'q':
            quiet = 1;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            return tc_cli_usage_error("table", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "tunecost table: missing NAME (one of:");
        for (int i = 0; i < tables_n_defs; i++)
            fprintf(stderr, " %s", tables_defs[i].name);
        fprintf(stderr, ")\n");
        fprintf(stderr, "see 'tunecost table --help'\n");
        return 2;
    }
    if ((def = tables_find(argv[optind])) == NULL) {
        fprintf(stderr, "tunecost table: unknown table '%s'; expected one of:", argv[optind]);
        for (int i = 0; i < tables_n_defs; i++)
            fprintf(stderr, " %s", tables_defs[i].name);
        fprintf(stderr, "\n");
        return 2;
    }
    optind++;
    if (gather_paths(def, argc - optind, argv + optind, &paths, &n) != 0) {
        fprintf(stderr, "tunecost table %s: %s\n", def->name, tc_errmsg());
        goto out;
    }
    if (def->input == TABLES_FLUSH_TRACES && n < 2) {
        fprintf(stderr, "tunecost table %s: needs at least two traces of the same inputs collected with different "
                        "--flush-bytes settings, or a directory of them, got %d (shipped: tunecost table flush "
                        "data/flush-study)\n", def->name, n);
        goto out;
    }
    if (out != NULL && tc_output_check("-o", out, 0, (const char *const *)paths, n) != 0) {
        fprintf(stderr, "tunecost table: %s\n", tc_errmsg());
        goto out;
    }
    if (def->input == TABLES_SCALING_TSV) {
        tab = tables_scaling((const char *const *)paths, n);
        goto built;
    }
    if ((traces = calloc((size_t)n, sizeof *traces)) == NULL) {
        fprintf(stderr, "tunecost table: out of memory\n");
        goto out;
    }
    for (int i = 0; i < n; i++) {
        if ((traces[i] = trace_open(paths[i])) == NULL) {
            fprintf(stderr, "tunecost table: %s\n", tc_errmsg());
            goto out;
        }
    }

    if (def->input == TABLES_FLUSH_TRACES) {
        tab = tables_flush((const struct trace *const *)traces, (const char *const *)paths, n);
    } else if (n == 1) {
        tab = def->build(traces[0]);
    } else {
        for (int i = 0; i < n; i++) {
            struct table *one = def->build(traces[i]);
            if (one == NULL)
                break;
            if (tab == NULL) {
                const char **cols = malloc(((size_t)table_n_cols(one) + 1) * sizeof *cols);
                if (cols == NULL) {
                    table_free(one);
                    tc_seterr("out of memory");
                    break;
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
                tab = NULL;
                break;
            }
            table_free(one);
        }
    }
built:
    if (tab == NULL) {
        fprintf(stderr, "tunecost table %s: %s\n", def->name, tc_errmsg());
        goto out; /* the builders fail only on what the inputs hold (e.g. no estimates) or on memory: status 2 */
    }
    rc = 1;

    if (!quiet) {
        printf("# tunecost table %s\n", def->name);
        for (int i = 0; i < n; i++) {
            if (traces != NULL)
                describe(traces[i]);
            else
                printf("file: %s\n", paths[i]);
        }
        putchar('\n');
        if (table_print(tab, stdout, max_rows) != 0) {
            fprintf(stderr, "tunecost table: writing stdout failed\n");
            goto out;
        }
    }
    if (out != NULL) {
        struct tc_atomic a;
        FILE *fp = tc_atomic_open(&a, out);
        if (fp == NULL) {
            fprintf(stderr, "tunecost table: %s\n", tc_errmsg());
            goto out;
        }
        if (table_write_tsv(tab, fp) != 0 || tc_atomic_commit(&a) != 0) {
            fprintf(stderr, "tunecost table: %s: %s\n", out, tc_errmsg());
            tc_atomic_abort(&a);
            goto out;
        }
        if (!quiet)
            printf("\nwrote %s (%d rows)\n", out, table_n_rows(tab));
    }
    rc = 0;
out:
    table_free(tab);
    for (int i = 0; traces != NULL && i < n; i++)
        trace_close(traces[i]);
    free(traces);
    tables_paths_free(paths, n);
    return rc;
}
