/* cmd_frontier.c — `tunecost frontier POINTS.tsv`: the Pareto-optimal rows of a points file (per scenario, by
 * time), the same rows `tunecost simulate` writes to frontier.tsv. See frontier.h and docs/simulation.md. */
#include "frontier.h"
#include "tc_atomic.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tunecost.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: tunecost frontier [OPTIONS] POINTS.tsv\n"
            "\n"
            "Print the Pareto frontier of a points file (from `tunecost simulate -o DIR`, or any TSV with '#'\n"
            "comments, a header and the columns named below): per value of the `scenario` column, the rows\n"
            "that no other row beats on both time (lower) and performance (higher), sorted by time.\n"
            "POINTS.tsv may be '-' for standard input.\n"
            "\n"
            "Options (default in brackets):\n"
            "  -o, --output FILE     write the frontier there (complete or not at all) [standard output]\n"
            "      --by COLUMN       performance column, higher is better: speedup, tflops or any [speedup]\n"
            "      --time COLUMN     time column, lower is better [time_s]\n"
            "      --columns LIST    print only these columns, e.g. time_s,tflops,n_config,exec_ms [all]\n"
            "      --scenario NAME   print only this scenario's frontier [every scenario]\n"
            "  -h, --help            this help\n"
            "\n"
            "Examples:\n"
            "  tunecost frontier sim/points.tsv                  # same rows as sim/frontier.tsv\n"
            "  tunecost frontier sim/points.tsv --by tflops -o sim/frontier-tflops.tsv\n"
            "  tunecost frontier sim/points.tsv --by tflops --scenario baseline \\\n"
            "      --columns time_s,tflops,n_config,exec_ms             # the paper's Table 6\n"
            "  grep -v early-stop sim/points.tsv | tunecost frontier -\n");
}

enum { OPT_BY = TC_CLI_LOCAL, OPT_TIME, OPT_COLUMNS, OPT_SCENARIO };

int cmd_frontier(int argc, char **argv)
{
    static const struct option longopts[] = {
        TC_CLI_OPT_OUTPUT,
        {"by", required_argument, NULL, OPT_BY},
        {"time", required_argument, NULL, OPT_TIME},
        {"columns", required_argument, NULL, OPT_COLUMNS},
        {"scenario", required_argument, NULL, OPT_SCENARIO},
        TC_CLI_OPT_HELP,
        TC_CLI_OPT_END,
    };
    const char *out = NULL, *perf_col = "speedup", *time_col = "time_s", *path, *columns = NULL, *scenario = NULL;
    struct frontier_table *ft = NULL;
    FILE *in = NULL, *fp;
    struct tc_atomic a;
    char note[256];
    int opt, rc = 1;

    optind = 1;
    while ((opt = tc_cli_next("frontier", argc, argv, "o:h", longopts)) != -1) {
        switch (opt) {
        case 'o': out = optarg; break;
        case OPT_BY: perf_col = optarg; break;
        case OPT_TIME: time_col = optarg; break;
        case OPT_COLUMNS: columns = optarg; break;
        case OPT_SCENARIO: scenario = optarg; break;
        case 'h': usage(stdout); return 0;
        case TC_CLI_ERROR: return 2;
        default: return tc_cli_usage_error("frontier", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return tc_cli_usage_error("frontier", "expected one POINTS.tsv, got %d arguments", argc - optind);
    path = argv[optind];
    if (out != NULL) {
        const char *inputs[1] = {path};
        if (tc_output_check("-o", out, 0, inputs, strcmp(path, "-") == 0 ? 0 : 1) != 0) {
            fprintf(stderr, "tunecost frontier: %s\n", tc_errmsg());
            return 2;
        }
    }
    in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (in == NULL) {
        fprintf(stderr, "tunecost frontier: %s: cannot open: %s\n", path, strerror(errno));
        return 2;
    }
    ft = frontier_table_read(in, strcmp(path, "-") == 0 ? "<stdin>" : path, time_col, perf_col);
    if (in != stdin)
        fclose(in);
    if (ft == NULL) {
        fprintf(stderr, "tunecost frontier: %s\n", tc_errmsg());
        return 2;
    }
    snprintf(note, sizeof note, "frontier: the points not dominated in (%s, %s), per scenario, by time", time_col,
             perf_col);
    if (out == NULL) {
        int w = frontier_table_write_select(ft, stdout, note, columns, scenario);
        if (w == -2) {
            fprintf(stderr, "tunecost frontier: %s\n", tc_errmsg());
            rc = 2;
            goto done;
        }
        if (w != 0 || fflush(stdout) != 0) {
            fprintf(stderr, "tunecost frontier: standard output: %s\n", tc_errmsg());
            goto done;
        }
    } else {
        fp = tc_atomic_open(&a, out);
        if (fp == NULL) {
            fprintf(stderr, "tunecost frontier: %s\n", tc_errmsg());
            goto done;
        }
        int w = frontier_table_write_select(ft, fp, note, columns, scenario);
        if (w != 0) {
            tc_atomic_abort(&a);
            if (w == -2) {
                fprintf(stderr, "tunecost frontier: %s\n", tc_errmsg());
                rc = 2;
            } else {
                fprintf(stderr, "tunecost frontier: %s: %s\n", out, tc_errmsg());
            }
            goto done;
        }
        if (tc_atomic_commit(&a) != 0) {
            fprintf(stderr, "tunecost frontier: %s\n", tc_errmsg());
            goto done;
        }
        fprintf(stderr, "tunecost frontier: %zu of %zu rows on the frontier, written to %s\n",
                frontier_table_n_frontier(ft), frontier_table_n_rows(ft), out);
    }
    rc = 0;
done:
    frontier_table_free(ft);
    return rc;
}
