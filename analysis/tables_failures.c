/* tables_failures.c — configurations and runs grouped by status and reason (the first line of the compile log),
 * the `failures` table (contract in tables.h). */
#include "tables.h"
#include "tc_err.h"
#include "trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct group {
    const char *scope;
    int status;
    char reason[128];
    int count;
    int example;
};

/* First non-empty line of a compile log, trimmed to fit. */
static void first_line(const char *log, char *out, size_t len)
{
    const char *s = log, *e;
    while (*s == '\n' || *s == ' ' || *s == '\r' || *s == '\t')
        s++;
    e = strchr(s, '\n');
    if (e == NULL)
        e = s + strlen(s);
    if ((size_t)(e - s) >= len)
        e = s + len - 1;
    memcpy(out, s, (size_t)(e - s));
    out[e - s] = '\0';
    if (out[0] == '\0')
        snprintf(out, len, "(no compile log)");
}

static int group_add(struct group **g, int *n, const char *scope, int status, const char *reason, int example)
{
    struct group *ng;
    for (int i = 0; i < *n; i++)
        if ((*g)[i].scope == scope && (*g)[i].status == status && strcmp((*g)[i].reason, reason) == 0) {
            (*g)[i].count++;
            return 0;
        }
    if ((ng = realloc(*g, (size_t)(*n + 1) * sizeof *ng)) == NULL)
        return tc_seterr_env("out of memory");
    *g = ng;
    ng[*n] = (struct group){scope, status, "", 1, example};
    snprintf(ng[*n].reason, sizeof ng[*n].reason, "%s", reason);
    (*n)++;
    return 0;
}

struct table *tables_failures(const struct trace *t)
{
    int ok = 0; /* set when the table is complete; every path leaves through out: */
    static const char *cols[] = {"scope", "status", "reason", "count", "share_pct", "example"};
    static const char *s_cfg = "configs", *s_run = "runs";
    struct table *tab = table_new("Configurations and runs by status and reason", 6, cols);
    struct group *g = NULL;
    int n = 0, nc = trace_n_configs(t), n_bad_cfg = 0;
    size_t nr = trace_n_runs(t);
    char reason[128];
    if (tab == NULL)
        return NULL;
    for (int c = 0; c < nc; c++) {
        int st = trace_config(t, c)->status;
        if (st == TRACE_OK)
            snprintf(reason, sizeof reason, "nan"); /* no reason: the one NA token of tunecost TSVs */
        else
            first_line(trace_compile_log(t, c), reason, sizeof reason);
        if (group_add(&g, &n, s_cfg, st, reason, c) != 0)
            goto out;
        n_bad_cfg += st != TRACE_OK;
    }
    for (size_t r = 0; r < nr; r++) {
        const struct trace_run *run = trace_run(t, r);
        const char *why = "nan";
        if (run->status == TRACE_OK && !trace_run_valid(t, r))
            why = "status ok but no timed executions or a zero duration";
        if (group_add(&g, &n, s_run, run->status, why, (int)r) != 0)
            goto out;
    }
    for (int i = 0; i < n; i++) {
        int row = table_add_row(tab);
        double total = g[i].scope == s_cfg ? nc : (double)nr;
        if (row < 0)
            goto out;
        table_set_str(tab, row, 0, g[i].scope);
        table_set_str(tab, row, 1, trace_status_name(g[i].status));
        table_set_str(tab, row, 2, g[i].reason);
        table_set_int(tab, row, 3, g[i].count);
        table_set_num(tab, row, 4, total > 0 ? 100.0 * g[i].count / total : NAN, 1);
        if (table_set_int(tab, row, 5, g[i].example) != 0)
            goto out;
    }
    table_add_note(tab, "%d of %d configurations failed; example = the first configuration (or run index) in the "
                   "group; reason = first line of the compile log", n_bad_cfg, nc);
    ok = 1;
out:
    free(g);
    return table_finish(tab, ok);
}
