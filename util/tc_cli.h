/* tc_cli.h — the options every command shares, declared once (TC_OPT_*), and the option loop under tc_cli_parse.
 *
 * Shared options (a subcommand that has the option uses exactly this long name, short letter, meaning and
 * range; a subcommand that lacks it rejects the letter as an unknown option):
 *
 *   -o, --output PATH         where the subcommand writes (a file or a directory, as its help says)
 *   -i, --input MxNxK         one input (problem shape) of the trace
 *   -s, --samples N           Monte Carlo samples per setting, N in [1, 10000000]
 *   -r, --runs N              tuning runs per sample (or per policy), N in [1, 1000000]
 *       --seed N              random seed, any unsigned 64-bit integer (no short letter: no silent swaps)
 *   -j, --threads N           worker threads, N in [0, 4096]; 0 = all online cores
 *   -c, --compile-factor F    parallel compile speed-up assumed by the simulation, F in [1, 4096]
 *   -h, --help                help on stdout, exit 0
 *   -f, --force               replace an existing output: a file is refused without it; an output directory
 *                             holding more than the command's earlier output is refused without it
 *   -q, --quiet               no progress, settings or status lines (errors and warnings still print)
 *
 * Use: put the TC_OPT_* declarations below in the command's option table (tc_optdecl.h) and call tc_cli_parse;
 * docs/architecture.md, "How to add an option / a command". tc_cli_next is the loop underneath (tc_optdecl.c);
 * commands do not call it.
 *
 * Usage errors are one line "tunecost CMD: ..." and a second line "see 'tunecost CMD --help'", exit 2. */
#ifndef TC_CLI_H
#define TC_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include "tc_optdecl.h"

enum {
    TC_CLI_ERROR = -2,    /* tc_cli_next: an unknown option or a missing value (already reported) */
    TC_CLI_SEED = 0x100,  /* id of --seed (long only) */
    TC_CLI_LOCAL = 0x200, /* first id for a subcommand's own long-only options */
};

/* The shared options' ranges, written once (the declarations below use them). */
#define TC_CLI_SAMPLES_MAX 10000000
#define TC_CLI_RUNS_MAX 1000000
#define TC_CLI_THREADS_MAX 4096
#define TC_CLI_COMPILE_FACTOR_MAX 4096

/* The shared options as declarations (tc_optdecl.h): name, letter, kind, range and value name are fixed here;
 * a command gives the struct and field they fill, its default and (where the option's meaning needs its
 * context, e.g. what -o writes) the help line. */
#define TC_OPT_OUTPUT(type, fld, meta, text, shown)                                                             \
    {.name = "output", .letter = 'o', .arg = TC_ARG_STRING, .field = offsetof(type, fld), .metavar = meta,       \
     .help = text, .def_doc = shown}
/* -o that the command cannot run without: "[required]" in the help, one usage error from tc_cli_parse. */
#define TC_OPT_OUTPUT_REQUIRED(type, fld, meta, text)                                                           \
    {.name = "output", .letter = 'o', .arg = TC_ARG_STRING, .field = offsetof(type, fld), .metavar = meta,       \
     .help = text, .def_doc = "required", .required = 1}
#define TC_OPT_INPUT(type, fld, meta, text)                                                                     \
    {.name = "input", .letter = 'i', .arg = TC_ARG_STRING, .field = offsetof(type, fld), .metavar = meta,        \
     .help = text}
#define TC_OPT_SAMPLES(type, fld, dflt, text)                                                                   \
    {.name = "samples", .letter = 's', .arg = TC_ARG_INT, .field = offsetof(type, fld), .min = 1,              \
     .max = TC_CLI_SAMPLES_MAX, .metavar = "S", .def = dflt, .help = text}
#define TC_OPT_RUNS(type, fld, dflt, text)                                                                      \
    {.name = "runs", .letter = 'r', .arg = TC_ARG_INT, .field = offsetof(type, fld), .min = 1,                 \
     .max = TC_CLI_RUNS_MAX,                                                                                    \
     .metavar = "R", .def = dflt, .help = text}
#define TC_OPT_SEED(type, fld, dflt, text)                                                                      \
    {.name = "seed", .arg = TC_ARG_U64, .field = offsetof(type, fld), .metavar = "N", .def = dflt, .help = text}
#define TC_OPT_THREADS(type, fld, dflt, text)                                                                   \
    {.name = "threads", .letter = 'j', .arg = TC_ARG_INT, .field = offsetof(type, fld), .min = 0,              \
     .max = TC_CLI_THREADS_MAX,                                                                                 \
     .metavar = "T", .def = dflt, .help = text}
#define TC_OPT_COMPILE_FACTOR(type, fld, dflt, text)                                                            \
    {.name = "compile-factor", .letter = 'c', .arg = TC_ARG_INT, .field = offsetof(type, fld), .min = 1,       \
     .max = TC_CLI_COMPILE_FACTOR_MAX, .metavar = "F", .def = dflt, .help = text}
#define TC_OPT_FORCE(type, fld)                                                                                 \
    {.name = "force", .letter = 'f', .arg = TC_ARG_FLAG, .field = offsetof(type, fld),                         \
     .help = "replace an existing output file, or an output directory holding more than this command's earlier " \
             "output (without -f: refused)"}
#define TC_OPT_QUIET(type, fld)                                                                                 \
    {.name = "quiet", .letter = 'q', .arg = TC_ARG_FLAG, .field = offsetof(type, fld),                         \
     .help = "no progress, settings or status lines on stderr (errors and warnings still)"}
/* -q where a command's quiet says more (table -q prints no table either: the TSV of -o is the result). */
#define TC_OPT_QUIET_AS(type, fld, text)                                                                        \
    {.name = "quiet", .letter = 'q', .arg = TC_ARG_FLAG, .field = offsetof(type, fld), .help = text}
#define TC_OPT_HELP {.name = "help", .letter = 'h', .arg = TC_ARG_HELP, .help = "show this help and exit"}

/* One step of getopt_long(argc, argv, shortopts, longopts); set optind = 1 before the first step. Returns the option's id (optarg set), -1
 * after the last option, or TC_CLI_ERROR after printing "tunecost CMD: unknown option '--foo'" or
 * "tunecost CMD: option '--foo' needs a value" and the "see" line. shortopts must not start with ':'. */
int tc_cli_next(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *longopts);

/* Prints "tunecost CMD: <message>" and "see 'tunecost CMD --help'" on stderr; returns 2 (the usage exit). */
int tc_cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
