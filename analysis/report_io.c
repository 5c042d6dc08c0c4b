/* report_io.c — the report parts' shared messages and files (report_results.h, "report_io.c"): bounded formatting,
 * progress lines, findings, the interrupt check, files in the report's temporary directory, TSV tables. It sits
 * below every report_*.c file: they call it, it calls none of them. */
#include "report_results.h"
#include "tc_atomic.h"

#include <errno.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int report_fmt(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= len)
        return tc_seterr("path or text too long: '%.60s...'", buf);
    return 0;
}

void report_say(struct report_ctx *c, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    if (c->o->progress == NULL)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    c->o->progress(buf, c->o->progress_arg);
}

/* A sentence never prints a missing number as "nan": "nan s" (a time never reached) becomes "not reached", any
 * other "nan" (or "-nan") word "n/a". Returns a new string (NULL: out of memory); buf is left as it is. */
static char *report_no_nan(const char *buf)
{
    size_t n = strlen(buf);
    char *out = malloc(3 * n + 1), *w = out; /* a replacement at most triples its word: "nan s" -> 11 */
    if (out == NULL)
        return NULL;
    for (const char *r = buf; *r != '\0';) {
        int at_word = r == buf || !(isalnum((unsigned char)r[-1]) || r[-1] == '_' || r[-1] == '.');
        const char *p = r + (*r == '-' ? 1 : 0);
        if (at_word && strncmp(p, "nan", 3) == 0 && !isalnum((unsigned char)p[3]) && p[3] != '_') {
            int secs = p == r && strncmp(p + 3, " s", 2) == 0 && !isalnum((unsigned char)p[5]);
            const char *rep = secs ? "not reached" : "n/a";
            memcpy(w, rep, strlen(rep));
            w += strlen(rep);
            r = p + (secs ? 5 : 3);
            continue;
        }
        *w++ = *r++;
    }
    *w = '\0';
    return out;
}

int report_finding(struct report_ctx *c, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *buf;
    if (c->n_findings >= REPORT_MAX_FINDINGS)
        return 0;
    va_start(ap, fmt); /* the whole sentence, however long (a fixed buffer cut long findings short) */
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || (buf = malloc((size_t)n + 1)) == NULL)
        return tc_seterr_env("out of memory");
    va_start(ap, fmt);
    vsnprintf(buf, (size_t)n + 1, fmt, ap);
    va_end(ap);
    char *clean = report_no_nan(buf);
    free(buf);
    if (clean == NULL)
        return tc_seterr_env("out of memory");
    c->findings[c->n_findings++] = clean;
    return 0;
}

int report_check_interrupt(struct report_ctx *c)
{
    if (c->o->interrupted != NULL && *c->o->interrupted)
        return tc_seterr("interrupted");
    return 0;
}

/* ---- files ------------------------------------------------------------------------------------------------ */

/* report_open's check: the file name is one the running section declares (report_results.h). */
static int report_check_output(const struct report_ctx *c, const char *name)
{
    const struct report_outputs *d = c->declared;
    size_t n = strlen(name);
    if (d == NULL)
        return 0;
    for (int i = 0; i < TC_N_FIGURE_DATA; i++) {
        const enum tc_figure_data_id *f = d->figure_data;
        if (strcmp(tc_figure_data[i].file, name) != 0)
            continue;
        while (f != NULL && *f != TC_N_FIGURE_DATA && (int)*f != i)
            f++;
        if (f == NULL || *f == TC_N_FIGURE_DATA)
            return tc_seterr("internal error: report section '%s' writes %s, a figure's data (util/tc_figures.c), "
                             "which its row of report_sections[] (analysis/report.c) does not declare",
                             c->section, name);
    }
    if (strchr(name, '/') != NULL || n < 4 || strcmp(name + n - 4, ".tsv") != 0)
        return 0;
    for (const char *const *t = d->tables; t != NULL && *t != NULL; t++)
        if (strcmp(*t, name) == 0)
            return 0;
    return tc_seterr("internal error: report section '%s' writes the table %s, which its row of report_sections[] "
                     "(analysis/report.c) does not declare", c->section, name);
}

FILE *report_open(struct report_ctx *c, const char *name, char *path, size_t len)
{
    FILE *fp;
    if (report_check_output(c, name) != 0)
        return NULL;
    if (report_fmt(path, len, "%s/%s", c->od.tmp, name) != 0)
        return NULL;
    if ((fp = fopen(path, "w")) == NULL)
        tc_seterr("%s: cannot create: %s", path, strerror(errno));
    return fp;
}

int report_close(FILE *fp, const char *path)
{
    int rc = tc_stream_check(fp, path);
    if (fclose(fp) != 0 && rc == 0)
        rc = tc_seterr_env("%s: write failed: %s", path, strerror(errno));
    return rc;
}

int report_write_tsv(struct report_ctx *c, const char *name, const struct table *t)
{
    char path[PATH_MAX];
    FILE *fp = report_open(c, name, path, sizeof path);
    if (fp == NULL)
        return -1;
    if (table_write_tsv(t, fp) != 0) { /* its message gives the OS's reason */
        fclose(fp);
        return tc_preferr("%s", path);
    }
    return report_close(fp, path);
}

int report_keep_table(struct report_ctx *c, struct table *t, const char *file, const char *head, int max_rows)
{
    if (t == NULL)
        return -1;
    if (c->n_tabs >= REPORT_MAX_TABLES)
        return tc_seterr("internal: more than %d tables", REPORT_MAX_TABLES);
    c->tabs[c->n_tabs] = t;
    c->tab_files[c->n_tabs] = file;
    c->tab_heads[c->n_tabs] = head;
    c->tab_max_rows[c->n_tabs] = max_rows;
    c->n_tabs++;
    return report_write_tsv(c, file, t);
}

int report_copy_file(const char *from, const char *to)
{
    char buf[8192];
    size_t n;
    FILE *in = fopen(from, "rb"), *out;
    if (in == NULL)
        return tc_seterr("%s: cannot read: %s", from, strerror(errno));
    if ((out = fopen(to, "wb")) == NULL) {
        fclose(in);
        return tc_seterr("%s: cannot create: %s", to, strerror(errno));
    }
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            break;
    fclose(in);
    return report_close(out, to);
}
