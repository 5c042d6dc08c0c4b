/* cmd_frontier.c — `tunecost frontier POINTS.tsv`: the Pareto-optimal rows of a points file (per scenario, by
 * time), the same rows `tunecost simulate` writes to frontier.tsv. See frontier.h and docs/simulation.md. */
#include "frontier.h"
#include "tc_atomic.h"
#include "tc_cli.h"
#include "tc_err.h"
#include "tunecost.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct frontier_opts {
    const char *out, *by, *time, *columns, *scenario;
    int force, quiet;
};

#define FO(f) offsetof(struct frontier_opts, f)
static const struct tc_optdecl frontier_opts[] = {
    TC_OPT_OUTPUT(struct frontier_opts, out, "FILE", "write the frontier there (complete or not at all)",
                  "standard output"),
    {.name = "by", .arg = TC_ARG_STRING, .field = FO(by), .metavar = "COLUMN", .def = "speedup",
     .help = "performance column, higher is better: speedup, tflops or any", .words = "speedup tflops"},
    {.name = "time", .arg = TC_ARG_STRING, .field = FO(time), .metavar = "COLUMN", .def = "time_s",
     .help = "time column, lower is better", .words = "time_s"},
    {.name = "columns", .arg = TC_ARG_STRING, .field = FO(columns), .metavar = "LIST", .def_doc = "all",
     .help = "print only these columns, e.g. time_s,tflops,n_config,exec_ms"},
    {.name = "scenario", .arg = TC_ARG_STRING, .field = FO(scenario), .metavar = "NAME",
     .def_doc = "every scenario", .help = "print only this scenario's frontier"},
    TC_OPT_FORCE(struct frontier_opts, force),
    TC_OPT_QUIET(struct frontier_opts, quiet),
    TC_OPT_HELP,
    TC_OPT_END,
};
#undef FO

const struct tc_cmd frontier_cmd = {
    .name = "frontier",
    .summary = "recompute the Pareto frontier of a points.tsv",
    .synopsis = "[OPTIONS] POINTS.tsv",
    .description =
        "Print the Pareto frontier of a points file (from `tunecost simulate -o DIR`, or any TSV with '#'\n"
        "comments, a header and the columns named below): per value of the `scenario` column, the rows\n"
        "that no other row beats on both time (lower) and performance (higher), sorted by time.\n",
    .operands = "POINTS.tsv\tthe points file, or '-' for standard input\n",
    .opts = frontier_opts,
    .exit_status = "0 ok; 1 the output could not be written; 2 usage error or a bad points file (one line on "
                   "stderr).",
    .examples = "tunecost frontier sim/points.tsv                  # same rows as sim/frontier.tsv\n"
                "tunecost frontier sim/points.tsv --by tflops -o sim/frontier-tflops.tsv\n"
                "tunecost frontier sim/points.tsv --by tflops --scenario baseline \\\n"
                "    --columns time_s,tflops,n_config,exec_ms             # the paper's Table 6\n"
                "grep -v early-stop sim/points.tsv | tunecost frontier -\n",
    .min_operands = 1,
    .max_operands = 1,
    .operand_name = "POINTS.tsv",
};

/* The frontier's rows into o->out (complete or absent); 0, 1 (could not write) or 2 (a bad --columns or
 * --scenario), the message printed. */
static int frontier_write_file(const struct frontier_opts *o, const struct frontier_table *ft, const char *note)
{
    struct tc_atomic a;
    FILE *fp = tc_atomic_open(&a, o->out);
    int w;
    if (fp == NULL) {
        fprintf(stderr, "tunecost frontier: %s\n", tc_errmsg());
        return 1;
    }
    w = frontier_table_write_select(ft, fp, note, o->columns, o->scenario);
    if (w != 0) {
        tc_atomic_abort(&a);
        if (w == -2)
            fprintf(stderr, "tunecost frontier: %s\n", tc_errmsg());
        else
            fprintf(stderr, "tunecost frontier: %s: %s\n", o->out, tc_errmsg());
        return w == -2 ? 2 : 1;
    }
    if (tc_atomic_commit_force(&a, o->force) != 0) { /* without -f: never over a file made meanwhile */
        fprintf(stderr, "tunecost frontier: %s\n", tc_errmsg());
        return tc_err_exit_code();
    }
    if (!o->quiet)
        fprintf(stderr, "tunecost frontier: %zu of %zu rows on the frontier, written to %s\n",
                frontier_table_n_frontier(ft), frontier_table_n_rows(ft), o->out);
    return 0;
}

static int frontier_write_stdout(const struct frontier_opts *o, const struct frontier_table *ft, const char *note)
{
    int w = frontier_table_write_select(ft, stdout, note, o->columns, o->scenario);
    if (w == -2) {
        fprintf(stderr, "tunecost frontier: %s\n", tc_errmsg());
        return 2;
    }
    if (w != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "tunecost frontier: standard output: %s\n", tc_errmsg());
        return 1;
    }
    return 0;
}

int cmd_frontier(int argc, char **argv)
{
    struct frontier_opts o = {0};
    struct frontier_table *ft;
    const char *path;
    FILE *in;
    char note[256];
    int first, rc;

    if ((rc = tc_cli_parse(&frontier_cmd, argc, argv, &o, &first)) != TC_CLI_RUN)
        return rc;
    path = argv[first];
    if (o.out != NULL) {
        const char *inputs[1] = {path};
        if (tc_output_check("-o", o.out, 0, inputs, strcmp(path, "-") == 0 ? 0 : 1) != 0 ||
            tc_output_clobber_check("-o", o.out, o.force) != 0) {
            fprintf(stderr, "tunecost frontier: %s\n", tc_errmsg());
            return 2;
        }
    }
    in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (in == NULL) {
        fprintf(stderr, "tunecost frontier: %s: cannot open: %s\n", path, strerror(errno));
        return 2;
    }
    ft = frontier_table_read(in, strcmp(path, "-") == 0 ? "<stdin>" : path, o.time, o.by);
    if (in != stdin)
        fclose(in);
    if (ft == NULL) {
        fprintf(stderr, "tunecost frontier: %s\n", tc_errmsg());
        return 2;
    }
    snprintf(note, sizeof note, "frontier: the points not dominated in (%s, %s), per scenario, by time", o.time,
             o.by);
    rc = o.out != NULL ? frontier_write_file(&o, ft, note) : frontier_write_stdout(&o, ft, note);
    frontier_table_free(ft);
    return rc;
}
