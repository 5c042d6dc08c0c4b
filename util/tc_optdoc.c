/* tc_optdoc.c — documentation generated from a command's declaration (tc_optdecl.h): the --help text, a troff
 * man page, and bash and zsh completion scripts. Nothing here is written by hand per command. */
#include "tc_optdecl.h"
#include "tc_manifest.h"
#include "tc_paths.h"

#include <stdio.h>
#include <string.h>

#define HELP_WIDTH 118  /* columns of the --help text */
#define LABEL_COL 28    /* where an option's help starts */

static const char *default_trace = "";

void tc_cli_set_default_trace(const char *path)
{
    default_trace = path != NULL ? path : "";
}

const char *tc_cli_trace_text(void)
{
    return default_trace;
}

/* The text of a token at s (which starts with '@'), into out; its length in *n. "@TRACE@": the default trace;
 * "@TRACE:ROLE@": the shipped trace of ROLE (data/manifest.tsv) beside it, with its GPU. 0 when s is no token. */
static int token(const char *s, char *out, size_t len, size_t *n)
{
    const char *t = tc_cli_trace_text(), *slash = strrchr(t, '/'), *end;
    const struct tc_manifest *m;
    const struct tc_manifest_row *r;
    char role[64];
    if (strncmp(s, "@TRACE@", 7) == 0) {
        *n = 7;
        snprintf(out, len, "%s", t);
        return 1;
    }
    if (strncmp(s, "@TRACE:", 7) != 0 || (end = strchr(s + 7, '@')) == NULL || end - s - 7 >= (int)sizeof role)
        return 0;
    *n = (size_t)(end - s) + 1;
    snprintf(role, sizeof role, "%.*s", (int)(end - s - 7), s + 7);
    if ((m = tc_paths_manifest()) == NULL || (r = tc_manifest_role(m, role)) == NULL)
        snprintf(out, len, "(no %s trace in data/manifest.tsv)", role);
    else
        snprintf(out, len, "%.*s%s (%s)", slash != NULL ? (int)(slash - t + 1) : 0, t, r->file, r->gpu);
    return 1;
}

/* s with its tokens ("@TRACE@", "@TRACE:ROLE@") replaced, into buf (truncated to len). */
static const char *expand(const char *s, char *buf, size_t len)
{
    char text[4096];
    size_t off = 0, n;
    buf[0] = '\0';
    while (s != NULL && *s != '\0' && off + 1 < len) {
        const char *at = strchr(s, '@');
        if (at == NULL)
            break;
        if (!token(at, text, sizeof text, &n)) {
            off += (size_t)snprintf(buf + off, len - off, "%.*s", (int)(at - s) + 1, s);
            s = at + 1;
            continue;
        }
        off += (size_t)snprintf(buf + off, len - off, "%.*s%s", (int)(at - s), s, text);
        s = at + n;
    }
    if (s != NULL && off < len)
        snprintf(buf + off, len - off, "%s", s);
    return buf;
}

const char *tc_optdecl_label(const struct tc_optdecl *d, char *buf, size_t len)
{
    char letter[8] = "    ";
    if (d->letter != 0)
        snprintf(letter, sizeof letter, "-%c, ", d->letter);
    snprintf(buf, len, "%s--%s%s%s", letter, d->name, d->metavar != NULL ? " " : "",
             d->metavar != NULL ? d->metavar : "");
    return buf;
}

/* An option's help with its default: "replay one input [500]". */
static const char *help_line(const struct tc_optdecl *d, char *buf, size_t len)
{
    char text[1024];
    const char *shown = d->def_doc != NULL ? d->def_doc : d->def;
    expand(d->help, text, sizeof text);
    if (shown != NULL)
        snprintf(buf, len, "%s [%s]", text, shown);
    else
        snprintf(buf, len, "%s", text);
    return buf;
}

/* Words of text filled to HELP_WIDTH, the first line starting at column col, later lines at indent. */
static void write_wrapped(FILE *fp, const char *text, int col, int indent)
{
    const char *p = text;
    while (*p != '\0') {
        size_t w = strcspn(p, " ");
        if (col > indent && col + 1 + (int)w > HELP_WIDTH) {
            fprintf(fp, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', fp);
            col++;
        }
        fprintf(fp, "%.*s", (int)w, p);
        col += (int)w;
        p += w;
        while (*p == ' ')
            p++;
    }
    fputc('\n', fp);
}

/* "  LABEL" padded to LABEL_COL, then the wrapped text (on the next line when the label is too long). */
static void write_item(FILE *fp, const char *label, const char *text)
{
    int col = 2 + (int)strlen(label);
    fprintf(fp, "  %s", label);
    if (col + 2 > LABEL_COL) {
        fprintf(fp, "\n%*s", LABEL_COL, "");
        col = LABEL_COL;
    } else {
        fprintf(fp, "%*s", LABEL_COL - col, "");
        col = LABEL_COL;
    }
    write_wrapped(fp, text, col, LABEL_COL);
}

static void write_operands(FILE *fp, const char *operands)
{
    char buf[1024], text[1024];
    const char *p = operands;
    while (*p != '\0') {
        size_t n = strcspn(p, "\n"), tab = strcspn(p, "\t");
        if (tab < n) {
            snprintf(buf, sizeof buf, "%.*s", (int)tab, p);
            snprintf(text, sizeof text, "%.*s", (int)(n - tab - 1), p + tab + 1);
            char full[1024];
            write_item(fp, buf, expand(text, full, sizeof full));
        }
        p += n + (p[n] == '\n');
    }
}

static void write_lines(FILE *fp, const char *text, const char *prefix)
{
    const char *p = text;
    while (*p != '\0') {
        size_t n = strcspn(p, "\n");
        fprintf(fp, "%s%.*s\n", n > 0 ? prefix : "", (int)n, p);
        p += n + (p[n] == '\n');
    }
}

/* "usage: tunecost NAME FORM", one line per form of the synopsis. */
static void write_usage(FILE *fp, const struct tc_cmd *cmd)
{
    const char *p = cmd->synopsis;
    for (int i = 0; *p != '\0'; i++) {
        size_t n = strcspn(p, "\n");
        fprintf(fp, "%s tunecost %s %.*s\n", i == 0 ? "usage:" : "      ", cmd->name, (int)n, p);
        p += n + (p[n] == '\n');
    }
}

int tc_cli_help(FILE *fp, const struct tc_cmd *cmd)
{
    char label[128], text[1536], desc[8192];
    const char *name, *summary;
    write_usage(fp, cmd);
    fputc('\n', fp);
    write_lines(fp, expand(cmd->description, desc, sizeof desc), "");
    if (cmd->topic != NULL) {
        fprintf(fp, "\n%s:\n", cmd->topics_title);
        for (int i = 0; cmd->topic(i, &name, &summary); i++)
            write_item(fp, name, summary);
    }
    if (cmd->operands != NULL) {
        fprintf(fp, "\nArguments:\n");
        write_operands(fp, cmd->operands);
    }
    fprintf(fp, "\nOptions (default in brackets):\n");
    for (const struct tc_optdecl *d = cmd->opts; d->name != NULL; d++) {
        if (d->arg == TC_ARG_GROUP)
            fprintf(fp, "%s:\n", d->help);
        else
            write_item(fp, tc_optdecl_label(d, label, sizeof label), help_line(d, text, sizeof text));
    }
    if (cmd->exit_status != NULL) {
        fprintf(fp, "\nExit status:");
        write_wrapped(fp, cmd->exit_status, (int)strlen("Exit status:"), 0);
    }
    if (cmd->examples != NULL) {
        fprintf(fp, "\nExamples:\n");
        write_lines(fp, cmd->examples, "  ");
    }
    return ferror(fp) ? -1 : 0;
}

/* ---- man page ----------------------------------------------------------------------------------------------- */

#ifndef TC_INSTALL_DOCDIR
#define TC_INSTALL_DOCDIR "/usr/local/share/doc/tunecost"
#endif

/* troff text: backslashes and hyphens escaped, a leading '.' or '\'' made literal; "docs/NAME.md" (the source
 * tree's) becomes the installed copy's path, TC_INSTALL_DOCDIR/NAME.md, where `meson install` puts it. */
static void man_text(FILE *fp, const char *s, size_t n)
{
    if (n > 0 && (s[0] == '.' || s[0] == '\''))
        fputs("\\&", fp);
    for (size_t i = 0; i < n && s[i] != '\0'; i++) {
        if (strncmp(s + i, "docs/", 5) == 0 && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '(' || s[i - 1] == '`')) {
            man_text(fp, TC_INSTALL_DOCDIR "/", strlen(TC_INSTALL_DOCDIR "/"));
            i += 4;
        } else if (s[i] == '\\')
            fputs("\\e", fp);
        else if (s[i] == '-')
            fputs("\\-", fp);
        else
            fputc(s[i], fp);
    }
}

static void man_line(FILE *fp, const char *s)
{
    man_text(fp, s, strlen(s));
    fputc('\n', fp);
}

/* Paragraphs: a blank line starts a new one; an indented line keeps its line break. */
static void man_paragraphs(FILE *fp, const char *text)
{
    const char *p = text;
    while (*p != '\0') {
        size_t n = strcspn(p, "\n");
        if (n == 0)
            fputs(".PP\n", fp);
        else {
            if (p[0] == ' ')
                fputs(".br\n", fp);
            man_text(fp, p, n);
            fputc('\n', fp);
        }
        p += n + (p[n] == '\n');
    }
}

static void man_option(FILE *fp, const struct tc_optdecl *d)
{
    char text[1536];
    fputs(".TP\n", fp);
    if (d->letter != 0)
        fprintf(fp, "\\fB\\-%c\\fR, ", d->letter);
    fputs("\\fB\\-\\-", fp);
    man_text(fp, d->name, strlen(d->name));
    fputs("\\fR", fp);
    if (d->metavar != NULL) {
        fputs(" \\fI", fp);
        man_text(fp, d->metavar, strlen(d->metavar));
        fputs("\\fR", fp);
    }
    fputc('\n', fp);
    man_line(fp, help_line(d, text, sizeof text));
}

int tc_cli_man(FILE *fp, const struct tc_cmd *cmd, const char *version)
{
    char buf[8192];
    fprintf(fp, ".\\\" generated by `tunecost --man %s` from the command's option declarations; do not edit\n",
            cmd->name);
    fputs(".TH TUNECOST\\-", fp);
    for (const char *c = cmd->name; *c != '\0'; c++)
        fputc(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c, fp);
    fprintf(fp, " 1 \"\" \"tunecost %s\" \"tunecost manual\"\n.SH NAME\ntunecost\\-%s \\- ", version, cmd->name);
    man_line(fp, cmd->summary);
    fputs(".SH SYNOPSIS\n", fp);
    for (const char *p = cmd->synopsis; *p != '\0';) {
        size_t n = strcspn(p, "\n");
        fprintf(fp, "%s.B tunecost %s\n", p == cmd->synopsis ? "" : ".br\n", cmd->name);
        man_text(fp, p, n);
        fputc('\n', fp);
        p += n + (p[n] == '\n');
    }
    fputs(".SH DESCRIPTION\n", fp);
    man_paragraphs(fp, expand(cmd->description, buf, sizeof buf));
    if (cmd->topic != NULL) {
        const char *name, *summary;
        fputs(".SS ", fp);
        man_line(fp, cmd->topics_title);
        for (int i = 0; cmd->topic(i, &name, &summary); i++) {
            fputs(".TP\n\\fB", fp);
            man_text(fp, name, strlen(name));
            fputs("\\fR\n", fp);
            man_line(fp, summary);
        }
    }
    if (cmd->operands != NULL) {
        const char *p = cmd->operands;
        fputs(".SH ARGUMENTS\n", fp);
        while (*p != '\0') {
            size_t n = strcspn(p, "\n"), tab = strcspn(p, "\t");
            if (tab < n) {
                char text[1024];
                fputs(".TP\n\\fI", fp);
                man_text(fp, p, tab);
                fputs("\\fR\n", fp);
                snprintf(text, sizeof text, "%.*s", (int)(n - tab - 1), p + tab + 1);
                man_line(fp, expand(text, buf, sizeof buf));
            }
            p += n + (p[n] == '\n');
        }
    }
    fputs(".SH OPTIONS\n", fp);
    for (const struct tc_optdecl *d = cmd->opts; d->name != NULL; d++) {
        if (d->arg == TC_ARG_GROUP) {
            fputs(".SS ", fp);
            man_line(fp, d->help);
        } else {
            man_option(fp, d);
        }
    }
    if (cmd->exit_status != NULL) {
        fputs(".SH EXIT STATUS\n", fp);
        man_line(fp, cmd->exit_status);
    }
    if (cmd->examples != NULL) {
        fputs(".SH EXAMPLES\n.nf\n", fp);
        man_paragraphs(fp, cmd->examples);
        fputs(".fi\n", fp);
    }
    return ferror(fp) ? -1 : 0;
}

/* The page of `man tunecost`: the commands (each its own page), the rule for options, the exit status shared by
 * every command, where the documentation is installed. */
int tc_cli_man_index(FILE *fp, const struct tc_cmd *const *cmds, int n, const char *version)
{
    fputs(".\\\" generated by `tunecost --man tunecost` from the commands' declarations; do not edit\n", fp);
    fprintf(fp, ".TH TUNECOST 1 \"\" \"tunecost %s\" \"tunecost manual\"\n.SH NAME\n", version);
    man_line(fp, "tunecost - measure what GPU autotuning costs and what it buys, and replay it in simulation");
    fputs(".SH SYNOPSIS\n.B tunecost\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGS\\fR]\n.br\n"
          ".B tunecost\n\\-\\-help | \\-\\-version | \\-\\-man \\fICOMMAND\\fR | \\-\\-completion bash|zsh\n", fp);
    fputs(".SH DESCRIPTION\n", fp);
    man_paragraphs(fp, "tunecost collects real tuning traces on an NVIDIA GPU (or imports other autotuners' recorded\n"
                       "search spaces), replays them under random budgets, and reports the tables, findings and\n"
                       "Pareto frontiers of what autotuning costs. Each command has its own page, tunecost-COMMAND(1),\n"
                       "and `tunecost COMMAND --help`.\n");
    fputs(".SH COMMANDS\n", fp);
    for (int i = 0; i < n; i++) {
        fputs(".TP\n\\fBtunecost ", fp);
        man_text(fp, cmds[i]->name, strlen(cmds[i]->name));
        fputs("\\fR\n", fp);
        man_line(fp, cmds[i]->summary);
    }
    fputs(".SH OPTIONS\n", fp);
    man_paragraphs(fp, "One rule holds for every command. A long option is written in full (no abbreviation: a\n"
                       "mistyped name is an error); its value follows as --output FILE or --output=FILE. A short\n"
                       "option's value follows as -o FILE or -oFILE; -o=FILE is refused. Numbers are decimal\n"
                       "(hexadecimal, nan and inf are refused). A list has no empty element (no leading, trailing\n"
                       "or doubled comma). A mistyped option prints one line saying what is wrong and where to read\n"
                       "more, and exits with status 2.\n");
    fputs(".SH EXIT STATUS\n", fp);
    man_paragraphs(fp, "0 done; 1 the machine failed the command (a full disk, a file size limit, out of memory, an\n"
                       "I/O error: the last line on stderr gives the operating system's reason); 2 the command line\n"
                       "or an input is at fault; 130 interrupted (Ctrl-C): report leaves its directory as it was,\n"
                       "collect keeps the runs done (continue with --resume); the other commands end by the signal,\n"
                       "which the shell reports as 130 too. An output is complete or absent in every case.\n");
    fputs(".SH FILES\n", fp);
    man_paragraphs(fp, "The shipped traces and gnuplot scripts are in the installation's share/tunecost\n"
                       "($TUNECOST_DATA_DIR and $TUNECOST_PLOTS_DIR override them); the documentation (trace format,\n"
                       "simulation model, collector, import and export, report, reliability) is in\n"
                       "docs/.\n");
    fputs(".SH SEE ALSO\n", fp);
    for (int i = 0; i < n; i++) {
        fputs(i > 0 ? ",\n" : "", fp);
        fputs("\\fBtunecost\\-", fp);
        man_text(fp, cmds[i]->name, strlen(cmds[i]->name));
        fputs("\\fR(1)", fp);
    }
    fputc('\n', fp);
    return ferror(fp) ? -1 : 0;
}

/* ---- completions -------------------------------------------------------------------------------------------- */

enum value_kind { VALUE_NONE, VALUE_WORDS, VALUE_FILE, VALUE_DIR, VALUE_OTHER };

/* What a shell should offer after the option: its words, files, directories or nothing. */
static enum value_kind value_kind(const struct tc_cmd *cmd, const struct tc_optdecl *d)
{
    if (d->arg == TC_ARG_FLAG || d->arg == TC_ARG_HELP || d->arg == TC_ARG_GROUP)
        return VALUE_NONE;
    if (d->words != NULL || d->arg == TC_ARG_NAME ||
        (cmd->topics_option != NULL && strcmp(cmd->topics_option, d->name) == 0))
        return VALUE_WORDS;
    if (d->metavar != NULL && strstr(d->metavar, "DIR") != NULL)
        return VALUE_DIR;
    if (d->metavar != NULL && (strstr(d->metavar, "FILE") != NULL || strstr(d->metavar, "TRACE") != NULL ||
                               strstr(d->metavar, "PATH") != NULL || strstr(d->metavar, "TSV") != NULL))
        return VALUE_FILE;
    return VALUE_OTHER;
}

/* The candidate words, space-separated. */
static void write_words(FILE *fp, const struct tc_cmd *cmd, const struct tc_optdecl *d)
{
    const char *name, *summary;
    if (cmd->topics_option != NULL && strcmp(cmd->topics_option, d->name) == 0) {
        for (int i = 0; cmd->topic(i, &name, &summary); i++)
            fprintf(fp, "%s%s", i ? " " : "", name);
        return;
    }
    if (d->words != NULL) {
        fputs(d->words, fp);
        return;
    }
    for (int i = 0; i < d->n_names; i++)
        fprintf(fp, "%s%s", i ? " " : "", d->names[i]);
}

static void bash_command(FILE *fp, const struct tc_cmd *cmd)
{
    fprintf(fp, "    %s)\n        case \"$prev\" in\n", cmd->name);
    for (const struct tc_optdecl *d = cmd->opts; d->name != NULL; d++) {
        enum value_kind k = value_kind(cmd, d);
        if (k == VALUE_NONE)
            continue;
        fprintf(fp, "        ");
        if (d->letter != 0)
            fprintf(fp, "-%c|", d->letter);
        fprintf(fp, "--%s) ", d->name);
        if (k == VALUE_WORDS) {
            fputs("COMPREPLY=($(compgen -W \"", fp);
            write_words(fp, cmd, d);
            fputs("\" -- \"$cur\")); return ;;\n", fp);
        } else if (k == VALUE_DIR)
            fputs("COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n", fp);
        else if (k == VALUE_FILE)
            fputs("COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", fp);
        else
            fputs("return ;;\n", fp);
    }
    fputs("        esac\n        case \"$cur\" in\n        -*) COMPREPLY=($(compgen -W \"", fp);
    for (const struct tc_optdecl *d = cmd->opts; d->name != NULL; d++) {
        if (d->arg == TC_ARG_GROUP)
            continue;
        if (d->letter != 0)
            fprintf(fp, "-%c ", d->letter);
        fprintf(fp, "--%s%s", d->name, d[1].name != NULL ? " " : "");
    }
    fputs("\" -- \"$cur\")) ;;\n", fp);
    if (cmd->topic != NULL && cmd->topics_option == NULL) {
        const char *name, *summary;
        fputs("        *) if [ \"$COMP_CWORD\" -eq 2 ]; then COMPREPLY=($(compgen -W \"", fp);
        for (int i = 0; cmd->topic(i, &name, &summary); i++)
            fprintf(fp, "%s%s", i ? " " : "", name);
        fputs("\" -- \"$cur\")); else COMPREPLY=($(compgen -f -- \"$cur\")); fi ;;\n", fp);
    } else {
        fputs("        *) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n", fp);
    }
    fputs("        esac ;;\n", fp);
}

int tc_cli_complete_bash(FILE *fp, const struct tc_cmd *const *cmds, int n)
{
    fputs("# bash completion for tunecost, generated by `tunecost --completion bash` from the commands' option\n"
          "# declarations; do not edit.\n"
          "_tunecost() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
          "        COMPREPLY=($(compgen -W \"",
          fp);
    for (int i = 0; i < n; i++)
        fprintf(fp, "%s ", cmds[i]->name);
    fputs("--help --version\" -- \"$cur\"))\n        return\n    fi\n    case \"${COMP_WORDS[1]}\" in\n", fp);
    for (int i = 0; i < n; i++)
        bash_command(fp, cmds[i]);
    fputs("    esac\n}\ncomplete -o filenames -F _tunecost tunecost\n", fp);
    return ferror(fp) ? -1 : 0;
}

/* zsh's _arguments description: the help's first clause, with the characters _arguments gives a meaning
 * ([ ] : ' \) escaped. */
static void zsh_desc(FILE *fp, const char *help)
{
    size_t n = strcspn(help, ";(");
    while (n > 0 && help[n - 1] == ' ')
        n--;
    for (size_t i = 0; i < n && i < 70; i++) {
        char c = help[i];
        if (c == '\'')
            fputs("'\\''", fp);
        else if (c == '[' || c == ']' || c == ':' || c == '\\')
            fprintf(fp, "\\%c", c);
        else
            fputc(c, fp);
    }
}

static void zsh_command(FILE *fp, const struct tc_cmd *cmd)
{
    fprintf(fp, "_tunecost_%s() {\n    _arguments -s \\\n", cmd->name);
    for (const struct tc_optdecl *d = cmd->opts; d->name != NULL; d++) {
        enum value_kind k = value_kind(cmd, d);
        if (d->arg == TC_ARG_GROUP)
            continue;
        if (d->letter != 0)
            fprintf(fp, "        '(-%c --%s)'{-%c,--%s}'[", d->letter, d->name, d->letter, d->name);
        else
            fprintf(fp, "        '--%s[", d->name);
        zsh_desc(fp, d->help);
        fputc(']', fp);
        if (k == VALUE_WORDS) {
            fprintf(fp, ":%s:(", d->metavar != NULL ? d->metavar : "value");
            write_words(fp, cmd, d);
            fputc(')', fp);
        } else if (k == VALUE_DIR)
            fprintf(fp, ":%s:_files -/", d->metavar);
        else if (k == VALUE_FILE)
            fprintf(fp, ":%s:_files", d->metavar);
        else if (k == VALUE_OTHER)
            fprintf(fp, ":%s: ", d->metavar != NULL ? d->metavar : "value");
        fputs("' \\\n", fp);
    }
    if (cmd->topic != NULL && cmd->topics_option == NULL) {
        const char *name, *summary;
        fputs("        '1:", fp);
        zsh_desc(fp, cmd->topics_title);
        fputs(":(", fp);
        for (int i = 0; cmd->topic(i, &name, &summary); i++)
            fprintf(fp, "%s%s", i ? " " : "", name);
        fputs(")' \\\n", fp);
    }
    fputs("        '*:argument:_files'\n}\n", fp);
}

int tc_cli_complete_zsh(FILE *fp, const struct tc_cmd *const *cmds, int n)
{
    fputs("#compdef tunecost\n"
          "# zsh completion for tunecost, generated by `tunecost --completion zsh` from the commands' option\n"
          "# declarations; do not edit.\n",
          fp);
    for (int i = 0; i < n; i++)
        zsh_command(fp, cmds[i]);
    fputs("_tunecost() {\n    local -a cmds\n    cmds=(\n", fp);
    for (int i = 0; i < n; i++) {
        fprintf(fp, "        '%s:", cmds[i]->name);
        zsh_desc(fp, cmds[i]->summary);
        fputs("'\n", fp);
    }
    fputs("    )\n    if (( CURRENT == 2 )); then\n        _describe 'command' cmds\n        return\n    fi\n"
          "    local cmd=${words[2]}\n    shift words\n    (( CURRENT-- ))\n"
          "    (( $+functions[_tunecost_$cmd] )) && _tunecost_$cmd\n}\n_tunecost \"$@\"\n",
          fp);
    return ferror(fp) ? -1 : 0;
}
