/* tc_optdecl.c — the parser generated from a command's option declarations (see tc_optdecl.h): defaults first,
 * then argv through tc_cli_next, each value checked against its declared kind and range. It calls tc_optdoc.c
 * (the help, on -h); tc_optdoc.c calls nothing here. */
#include "tc_optdecl.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tc_cli.h"
#include "tc_err.h"
#include "tc_opt.h"

#define MAX_OPTS 64 /* options (not counting group headings) a command may declare */

/* A list option (its metavar is LIST, or shows a comma or "..."): no empty element, so a leading, trailing or
 * doubled comma is refused by every command alike. */
static int check_list(const struct tc_optdecl *d, const char *opt, const char *text)
{
    const char *m = d->metavar;
    size_t n = strlen(text);
    if (m == NULL || (strcmp(m, "LIST") != 0 && strchr(m, ',') == NULL && strstr(m, "...") == NULL))
        return 0;
    if (n > 0 && (text[0] == ',' || text[n - 1] == ',' || strstr(text, ",,") != NULL))
        return tc_seterr("%s: empty element in '%s' (expected values separated by single commas)", opt, text);
    return 0;
}

/* Parses text into the option's field(s); -1 with tc_errmsg() naming "--NAME" on failure. */
static int store_value(const struct tc_optdecl *d, const char *text, void *settings)
{
    char *base = settings, opt[64];
    void *f = base + d->field;
    long lo, hi;

    snprintf(opt, sizeof opt, "--%s", d->name);
    if (text != NULL && check_list(d, opt, text) != 0)
        return -1;
    switch (d->arg) {
    case TC_ARG_FLAG: *(int *)f = 1; return 0;
    case TC_ARG_INT: return tc_parse_int(opt, text, (int)d->min, (int)d->max, f);
    case TC_ARG_LONG: return tc_parse_long(opt, text, (long)d->min, (long)d->max, f);
    case TC_ARG_U64: return tc_parse_u64(opt, text, f);
    case TC_ARG_DOUBLE: return tc_parse_double(opt, text, d->min, d->max, f);
    case TC_ARG_INT_RANGE:
        if (tc_parse_range_long(opt, text, (long)d->min, (long)d->max, &lo, &hi) != 0)
            return -1;
        *(int *)f = (int)lo;
        *(int *)(void *)(base + d->field2) = (int)hi;
        return 0;
    case TC_ARG_DOUBLE_RANGE:
        return tc_parse_range_double(opt, text, d->min, d->max, f, (double *)(void *)(base + d->field2));
    case TC_ARG_STRING: *(const char **)f = text; return 0;
    case TC_ARG_NAME: return tc_parse_name(opt, text, d->names, d->n_names, f);
    case TC_ARG_BYTES: return tc_parse_bytes(opt, text, (int64_t)d->max, f);
    case TC_ARG_CALL: return d->call(text, f);
    case TC_ARG_HELP:
    case TC_ARG_GROUP: return 0;
    }
    return tc_seterr("%s: unknown argument kind %d", opt, (int)d->arg);
}

static int takes_value(const struct tc_optdecl *d)
{
    return d->arg != TC_ARG_FLAG && d->arg != TC_ARG_HELP && d->arg != TC_ARG_GROUP;
}

/* getopt_long's tables from the declaration: long-only options get ids TC_CLI_LOCAL + their index. */
static int build_getopt(const struct tc_cmd *cmd, struct option *longopts, char *shortopts, size_t short_len)
{
    size_t n_short = 0;
    int n = 0;
    if (cmd->stop_at_operand)
        shortopts[n_short++] = '+';
    for (int i = 0; cmd->opts[i].name != NULL; i++) {
        const struct tc_optdecl *d = &cmd->opts[i];
        if (d->arg == TC_ARG_GROUP)
            continue;
        if (n == MAX_OPTS - 1)
            return tc_seterr("tunecost %s: more than %d options declared", cmd->name, MAX_OPTS - 1);
        longopts[n++] = (struct option){d->name, takes_value(d) ? required_argument : no_argument, NULL,
                                        d->letter != 0 ? d->letter : TC_CLI_LOCAL + i};
        if (d->letter != 0 && n_short + 3 < short_len) {
            shortopts[n_short++] = (char)d->letter;
            if (takes_value(d))
                shortopts[n_short++] = ':';
        }
    }
    longopts[n] = (struct option){NULL, 0, NULL, 0};
    shortopts[n_short] = '\0';
    return 0;
}

static const struct tc_optdecl *find_decl(const struct tc_cmd *cmd, int id)
{
    for (int i = 0; cmd->opts[i].name != NULL; i++)
        if (cmd->opts[i].arg != TC_ARG_GROUP &&
            ((cmd->opts[i].letter != 0 && cmd->opts[i].letter == id) || TC_CLI_LOCAL + i == id))
            return &cmd->opts[i];
    return NULL;
}

/* The first required option argv did not name (seen[i]: option i was given): a usage error. 0 when none, or when
 * argv named an option that stands alone (.alone). */
static int check_required(const struct tc_cmd *cmd, const unsigned char *seen)
{
    for (int i = 0; cmd->opts[i].name != NULL && i < MAX_OPTS; i++)
        if (cmd->opts[i].alone && seen[i])
            return 0;
    for (int i = 0; cmd->opts[i].name != NULL && i < MAX_OPTS; i++) {
        const struct tc_optdecl *d = &cmd->opts[i];
        if (!d->required || seen[i])
            continue;
        if (d->letter != 0)
            return tc_cli_usage_error(cmd->name, "missing -%c %s (required)", d->letter, d->metavar ? d->metavar : "");
        return tc_cli_usage_error(cmd->name, "missing --%s %s (required)", d->name, d->metavar ? d->metavar : "");
    }
    return 0;
}

static int check_operands(const struct tc_cmd *cmd, int n)
{
    const char *what = cmd->operand_name != NULL ? cmd->operand_name : "argument";
    if (n < cmd->min_operands)
        return tc_cli_usage_error(cmd->name, "missing %s (usage: tunecost %s %s)", what, cmd->name, cmd->synopsis);
    if (cmd->max_operands >= 0 && n > cmd->max_operands) {
        if (cmd->max_operands == 0)
            return tc_cli_usage_error(cmd->name, "expected no arguments, got %d", n);
        if (cmd->max_operands == 1)
            return tc_cli_usage_error(cmd->name, "expected at most one %s, got %d arguments", what, n);
        return tc_cli_usage_error(cmd->name, "expected at most %d %s arguments, got %d", cmd->max_operands, what, n);
    }
    return 0;
}

int tc_cli_parse(const struct tc_cmd *cmd, int argc, char **argv, void *settings, int *first)
{
    struct option longopts[MAX_OPTS];
    char shortopts[2 * MAX_OPTS + 1];
    unsigned char seen[MAX_OPTS] = {0};
    int id;

    for (int i = 0; cmd->opts[i].name != NULL; i++)
        if (cmd->opts[i].def != NULL && store_value(&cmd->opts[i], cmd->opts[i].def, settings) != 0)
            return tc_cli_usage_error(cmd->name, "bad declared default: %s", tc_errmsg());
    if (build_getopt(cmd, longopts, shortopts, sizeof shortopts) != 0)
        return tc_cli_usage_error(cmd->name, "%s", tc_errmsg());
    optind = 1;
    while ((id = tc_cli_next(cmd->name, argc, argv, shortopts, longopts)) != -1) {
        const struct tc_optdecl *d = find_decl(cmd, id);
        if (id == TC_CLI_ERROR)
            return 2;
        if (d == NULL)
            return tc_cli_usage_error(cmd->name, "unknown option '%s'", argv[optind - 1]);
        if (d->arg == TC_ARG_HELP) {
            tc_cli_help(stdout, cmd);
            return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
        }
        if (store_value(d, optarg, settings) != 0)
            return tc_cli_usage_error(cmd->name, "%s", tc_errmsg());
        if (d->given != 0)
            *(unsigned *)(void *)((char *)settings + cmd->given_field) |= d->given;
        seen[d - cmd->opts] = 1;
    }
    if (check_required(cmd, seen) != 0 || check_operands(cmd, argc - optind) != 0)
        return 2;
    *first = optind;
    return TC_CLI_RUN;
}
