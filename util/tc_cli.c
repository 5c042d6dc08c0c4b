/* tc_cli.c — the shared option loop and the shared options' values (see tc_cli.h). */
#include "tc_cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tc_err.h"
#include "tc_opt.h"

/* The rule for option names and values (README, "Options"): a long option is written in full (getopt_long's
 * unique-prefix abbreviations are refused, so a mistyped name never selects another option), and a short option's
 * attached value does not start with '=' ("-o=x.json" is refused rather than naming a file "=x.json"). Called after
 * getopt_long returned an option: argv[optind - 1] is its word, or its separate value (then the word is before). */
static int check_as_typed(const char *cmd, char **argv, const struct option *longopts, int idx)
{
    int separate = optarg != NULL && optarg == argv[optind - 1];
    const char *word = argv[optind - 1 - separate];
    if (idx >= 0 && strncmp(word, "--", 2) == 0) {
        size_t n = strcspn(word + 2, "=");
        if (n != strlen(longopts[idx].name) || strncmp(word + 2, longopts[idx].name, n) != 0) {
            tc_cli_usage_error(cmd, "unknown option '--%.*s' (long options are not abbreviated: did you mean '--%s'?)",
                               (int)n, word + 2, longopts[idx].name);
            return -1;
        }
    } else if (idx < 0 && optarg != NULL && !separate && optarg[0] == '=') {
        int letter = optarg[-1]; /* the letter the value is attached to ("-o=x", "-qo=x") */
        const char *name = "";
        for (int i = 0; longopts[i].name != NULL; i++)
            if (longopts[i].val == letter)
                name = longopts[i].name;
        tc_cli_usage_error(cmd, "option '-%c' got the value '%s': write '-%c %s' or '--%s=%s'", letter, optarg,
                           letter, optarg + 1, name, optarg + 1);
        return -1;
    }
    return 0;
}

int tc_cli_next(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *longopts)
{
    char spec[128];
    int opt, idx = -1;

    /* A leading ':' makes getopt_long tell a missing value (':') from an unknown option ('?'); it goes after a
     * leading '+' (stop at the first operand), where glibc looks for it. */
    if (shortopts[0] == '+')
        snprintf(spec, sizeof spec, "+:%s", shortopts + 1);
    else
        snprintf(spec, sizeof spec, ":%s", shortopts);
    opterr = 0;
    opt = getopt_long(argc, argv, spec, longopts, &idx);
    if (opt != -1 && opt != ':' && opt != '?' && check_as_typed(cmd, argv, longopts, idx) != 0)
        return TC_CLI_ERROR;
    if (opt == ':') {
        tc_cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
        return TC_CLI_ERROR;
    }
    if (opt == '?') {
        /* An unknown short letter inside a cluster ("-xq") is named alone; a long option as typed. */
        const char *a = argv[optind - 1];
        if (strncmp(a, "--", 2) == 0) {
            const char *eq = strchr(a, '=');
            int n = eq != NULL ? (int)(eq - a) : (int)strlen(a);
            if (eq != NULL && optopt != 0)
                tc_cli_usage_error(cmd, "option '%.*s' takes no value", n, a);
            else
                tc_cli_usage_error(cmd, "unknown option '%.*s'", n, a);
        } else {
            tc_cli_usage_error(cmd, "unknown option '-%c'", optopt);
        }
        return TC_CLI_ERROR;
    }
    return opt;
}

int tc_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tc_err_one_line(msg, sizeof msg); /* an option's value with a newline stays on the one line */
    fprintf(stderr, "tunecost %s: %s\nsee 'tunecost %s --help'\n", cmd, msg, cmd);
    return 2;
}
