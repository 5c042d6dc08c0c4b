/* tc_optdecl.h — a command's options declared once: long name, letter, argument kind and range, the field it
 * fills, its default and its help line. From that one table come the parser (strict values, one-line usage
 * errors), `--help`, the man page and the bash and zsh completions (tc_optdoc.c), so they cannot drift.
 *
 * A command declares a struct with its settings, a table of struct tc_optdecl (the shared options through the
 * TC_OPT_* macros of tc_cli.h, its own with TC_OPT_DECL or designated initialisers) and a struct tc_cmd; its
 * entry point then reads
 *
 *     struct info_opts o = {0};
 *     int first;
 *     int rc = tc_cli_parse(&info_cmd, argc, argv, &o, &first);
 *     if (rc != TC_CLI_RUN) return rc;            // --help printed (0) or a usage error printed (2)
 *
 * docs/architecture.md, "How to add an option / a command", walks through an example. */
#ifndef TC_OPTDECL_H
#define TC_OPTDECL_H

#include <stddef.h>
#include <stdio.h>

/* What an option's value is, and where it goes (the field's C type in brackets). */
enum tc_arg {
    TC_ARG_FLAG,         /* no value; sets the field to 1 (int) */
    TC_ARG_INT,          /* an integer in [min, max] (int) */
    TC_ARG_LONG,         /* an integer in [min, max] (long) */
    TC_ARG_U64,          /* any unsigned 64-bit integer (uint64_t) */
    TC_ARG_DOUBLE,       /* a finite number in [min, max] (double) */
    TC_ARG_INT_RANGE,    /* "A:B" or "A", both ends in [min, max], A <= B (int field, int field2) */
    TC_ARG_DOUBLE_RANGE, /* the same with numbers (double field, double field2) */
    TC_ARG_STRING,       /* the text itself, not copied (const char *) */
    TC_ARG_NAME,         /* one of names[0..n_names) (int: its index) */
    TC_ARG_BYTES,        /* a byte count such as 64K, 256M, 1G, at most max (int64_t) */
    TC_ARG_CALL,         /* call(text, field) parses; -1 with tc_errmsg() naming the option on error */
    TC_ARG_HELP,         /* no value; prints the help on stdout and the command exits 0 */
    TC_ARG_GROUP,        /* not an option: a heading (help) above the options that follow; name "" */
};

struct tc_optdecl {
    const char *name;                /* long name without "--"; NULL ends the table */
    int letter;                      /* short letter, or 0 for a long-only option */
    enum tc_arg arg;
    size_t field, field2;            /* offsetof() in the command's settings struct; field2: a range's upper end */
    double min, max;                 /* accepted range (INT, LONG, DOUBLE, *_RANGE; BYTES uses max) */
    const char *const *names;        /* TC_ARG_NAME: the accepted names, index = value */
    int n_names;
    int (*call)(const char *arg, void *field); /* TC_ARG_CALL */
    const char *metavar;             /* the value's name in the help ("N", "DIR"); NULL for a flag */
    const char *def;                 /* default as typed; parsed into the field before argv is read */
    const char *def_doc;             /* shown in the help's brackets instead of def (NULL: def, if any) */
    const char *help;                /* one sentence, no trailing period; wrapped by the help writer */
    const char *words;               /* completion candidates, space-separated (NULL: derived from the kind) */
    unsigned given;                  /* bits ORed into the command's given word when the option is on argv */
    int required;                    /* 1: argv must name it; tc_cli_parse says "missing -o DIR (required)" */
    int alone;                       /* TC_ARG_FLAG: on argv, the required options are not asked for (a flag that
                                      * lists, e.g. report's --list-outputs, and needs nothing else) */
};

/* One command: its declaration is all that --help, the man page and the completions read. */
struct tc_cmd {
    const char *name;                /* "simulate": `tunecost simulate` */
    const char *summary;             /* one line for `tunecost --help` and the man page's NAME */
    const char *synopsis;            /* after "tunecost NAME ": "[OPTIONS] [TRACE]"; more forms on more lines */
    const char *description;         /* paragraphs, lines under 118 columns; "@TRACE@" = the default trace */
    const char *operands;            /* "NAME\thelp\n" per positional argument, or NULL */
    const char *topics_title;        /* "Tables (NAME)": a list of values shown after the description, or NULL */
    const char *topics_option;       /* the long option those values are for; NULL: the first operand */
    int (*topic)(int i, const char **name, const char **summary); /* the i-th value (1), or 0 past the last */
    const struct tc_optdecl *opts;   /* ended by TC_OPT_END */
    const char *exit_status;         /* "0 ok; 2 ..." or NULL */
    const char *examples;            /* one command line a line (a "# comment" may follow) */
    int min_operands, max_operands;  /* counted after the options; max -1: any number */
    const char *operand_name;        /* "TRACE": for "expected at most one TRACE" */
    int stop_at_operand;             /* 1: options end at the first operand (the rest is a command's, as for env) */
    size_t given_field;              /* offsetof() an unsigned in the settings that collects the options' .given
                                      * bits (which options argv named, e.g. for a preset they override); used
                                      * only when some option declares bits */
};

#define TC_OPT_END {.name = NULL}

enum { TC_CLI_RUN = -1 };

/* Fills *settings from the declaration's defaults, then from argv. Returns TC_CLI_RUN when the command should
 * run (*first = index in argv of the first operand), 0 after printing the help on stdout, 2 after printing a
 * two-line usage error ("tunecost CMD: ..." and "see 'tunecost CMD --help'") on stderr. */
int tc_cli_parse(const struct tc_cmd *cmd, int argc, char **argv, void *settings, int *first);

/* The trace "@TRACE@" stands for in descriptions (the executable sets it before it dispatches). */
void tc_cli_set_default_trace(const char *path);

/* Generated documentation (tc_optdoc.c). Each returns 0, or -1 when fp could not be written. */
int tc_cli_help(FILE *fp, const struct tc_cmd *cmd);
/* A troff man page, section 1, named tunecost-NAME. */
int tc_cli_man(FILE *fp, const struct tc_cmd *cmd, const char *version);
/* The page tunecost(1): every command of cmds, the option rule, the shared exit status, the installed files. */
int tc_cli_man_index(FILE *fp, const struct tc_cmd *const *cmds, int n, const char *version);
/* Completion scripts for every command in cmds (n of them); others lists commands without a declaration. */
int tc_cli_complete_bash(FILE *fp, const struct tc_cmd *const *cmds, int n);
int tc_cli_complete_zsh(FILE *fp, const struct tc_cmd *const *cmds, int n);

/* For tc_optdoc.c and tests: the "-o, --output DIR" label of an option (into buf), and its help line with the
 * default in brackets; the trace placeholder expanded. */
const char *tc_optdecl_label(const struct tc_optdecl *d, char *buf, size_t len);
const char *tc_cli_trace_text(void);

#endif
