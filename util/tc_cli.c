/* tc_cli.c — the shared option loop and the shared options' values (see tc_cli.h). */
#include "tc_cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tc_opt.h"

int tc_cli_next(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *longopts)
{
    char spec[128];
    int opt;

    /* A leading ':' makes getopt_long tell a missing value (':') from an unknown option ('?'); it goes after a
     * leading '+' (stop at the first operand), where glibc looks for it. */
    if (shortopts[0] == '+')
        snprintf(spec, sizeof spec, "+:%s", shortopts + 1);
    else
        snprintf(spec, sizeof spec, ":%s", shortopts);
    opterr = 0;
    opt = getopt_long(argc, argv, spec, longopts, NULL);
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
    va_list ap;

    fprintf(stderr, "tunecost %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nsee 'tunecost %s --help'\n", cmd);
    return 2;
}
