/* tunecost.c — the `tunecost` executable: dispatches to the subcommand named by argv[1].
 * Subcommands live in their stage's folder (see tunecost.h); this file only routes and prints the overview. */
#include "tunecost.h"
#include "tc_err.h"
#include "tc_manifest.h"
#include "tc_optdecl.h"
#include "tc_paths.h"
#include "tc_version.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;            /* used where the command has no declaration (yet, or not in this build) */
    const struct tc_cmd *decl;      /* options, --help, man page, completions (util/tc_optdecl.h) */
    const char *missing;            /* fn NULL: why the command is not in this build, and how to get it */
};

static const struct command commands[] = {
#ifdef TC_HAVE_COLLECTOR
    {"collect", cmd_collect, NULL, &collect_cmd, NULL},
#else
    {"collect", NULL, "tune GEMM variants on the GPU (not in this build: no CUDA toolkit was found)", NULL,
     "no CUDA toolkit was found; reconfigure with -Dcollector=enabled on a machine with /usr/local/cuda"},
#endif
    {"merge", cmd_merge, NULL, &merge_cmd, NULL},
    {"record", cmd_record, NULL, &record_cmd, NULL},
    {"info", cmd_info, NULL, &info_cmd, NULL},
    {"table", cmd_table, NULL, &table_cmd, NULL},
    {"cost", cmd_cost, NULL, &cost_cmd, NULL},
    {"simulate", cmd_simulate, NULL, &simulate_cmd, NULL},
    {"frontier", cmd_frontier, NULL, &frontier_cmd, NULL},
    {"policies", cmd_policies, NULL, &policies_cmd, NULL},
    {"report", cmd_report, NULL, &report_cmd, NULL},
#ifdef TC_HAVE_IMPORT
    {"import", cmd_import, NULL, &import_cmd, NULL},
#else
    {"import", NULL, "import Kernel Tuner cache files or T4 results (not in this build: json-c was not found)", NULL,
     "json-c was not found; install it (Debian: libjson-c-dev) and reconfigure with -Dimport=enabled"},
#endif
    {"export", cmd_export, NULL, &export_cmd, NULL},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *fp)
{
    const struct tc_manifest *m = tc_paths_manifest();
    const struct tc_manifest_row *ref = m != NULL ? tc_manifest_role(m, "reference") : NULL;
    fprintf(fp,
            "usage: tunecost COMMAND [OPTIONS] [ARGS]\n"
            "\n"
            "Measure what GPU autotuning costs and what it buys: collect real tuning traces on an NVIDIA GPU,\n"
            "replay them under random budgets, and report the paper's tables and Pareto frontiers.\n"
            "\n"
            "Commands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(fp, "  %-9s %s\n", commands[i].name,
                commands[i].decl != NULL ? commands[i].decl->summary : commands[i].summary);
    fprintf(fp,
            "\n"
            "Run `tunecost COMMAND --help` for a command's options and examples.\n"
            "Default trace: %s (%s; data/manifest.tsv lists the shipped traces)\n"
            "\n"
            "Examples:\n"
            "  tunecost info                       # what the shipped reference trace holds\n"
            "  tunecost report -o report           # every figure and table, report/index.html\n"
            "  tunecost simulate --input 4096x256x4096 -o sim\n"
            "\n"
            "  tunecost --version | --help\n"
            "  tunecost --man COMMAND|tunecost | --completion bash|zsh   # generated documentation (meson install puts them)\n",
            tc_paths_default_trace(), ref != NULL ? ref->gpu : "no manifest");
}

/* `tunecost --man CMD` and `tunecost --completion SHELL`: documentation generated from the declarations. */
static int generated_doc(const char *what, const char *arg)
{
    const struct tc_cmd *decls[N_COMMANDS];
    int n = 0, rc = -1;
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (commands[i].decl != NULL && commands[i].fn != NULL)
            decls[n++] = commands[i].decl;
    if (arg == NULL) {
        fprintf(stderr, "tunecost %s: expected %s\n", what, strcmp(what, "--man") == 0 ? "a COMMAND" : "bash or zsh");
        return 2;
    }
    if (strcmp(what, "--man") == 0) {
        tc_cli_set_default_trace(tc_paths_installed_trace()); /* the installed path, for an installed page */
        if (strcmp(arg, "tunecost") == 0)
            rc = tc_cli_man_index(stdout, decls, n, TC_VERSION);
        for (int i = 0; i < n; i++)
            if (strcmp(decls[i]->name, arg) == 0)
                rc = tc_cli_man(stdout, decls[i], TC_VERSION);
    } else if (strcmp(arg, "bash") == 0) {
        rc = tc_cli_complete_bash(stdout, decls, n);
    } else if (strcmp(arg, "zsh") == 0) {
        rc = tc_cli_complete_zsh(stdout, decls, n);
    }
    if (rc != 0 && !ferror(stdout)) {
        char name[256];
        snprintf(name, sizeof name, "%s", arg);
        tc_err_one_line(name, sizeof name);
        fprintf(stderr, "tunecost %s: unknown %s '%s'\n", what, strcmp(what, "--man") == 0 ? "command" : "shell",
                name);
        return 2;
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

int main(int argc, char **argv)
{
    /* A file size limit (ulimit -f) makes write() fail with EFBIG instead of killing the process with SIGXFSZ:
     * every writer then reports "File too large" and exits 1, leaving no partial output (docs/reliability.md).
     * Commands that run a user's program (record) give it the default back. */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("tunecost %s\n", TC_VERSION);
        return 0;
    }
    if (strcmp(argv[1], "--man") == 0 || strcmp(argv[1], "--completion") == 0)
        return generated_doc(argv[1], argc > 2 ? argv[2] : NULL);
    tc_cli_set_default_trace(tc_paths_default_trace());
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (strcmp(argv[1], commands[i].name) != 0)
            continue;
        if (commands[i].fn == NULL) {
            fprintf(stderr, "tunecost %s: not available in this build (%s)\n", argv[1], commands[i].missing);
            return 2;
        }
        return commands[i].fn(argc - 1, argv + 1);
    }
    char name[256];
    snprintf(name, sizeof name, "%s", argv[1]);
    tc_err_one_line(name, sizeof name); /* a newline in the word stays on the one line */
    fprintf(stderr, "tunecost: unknown command '%s' (run `tunecost --help` for the list)\n", name);
    return 2;
}
