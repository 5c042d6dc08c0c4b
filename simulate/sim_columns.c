/* sim_columns.c — the simulation points as a column table (sim_columns.h): the table, and the header, row writer
 * and reader every points file goes through. */
#include "sim_columns.h"
#include "tc_err.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SP(f) offsetof(struct sim_point, f)
static const struct sim_column points_cols[] = {
    {"sample", SIM_COL_INT, SP(sample), SIM_COL_ALWAYS},
    {"scenario", SIM_COL_SCENARIO, 0, SIM_COL_ALWAYS},
    {"input", SIM_COL_INPUT, 0, SIM_COL_ALWAYS},
    {"n_config", SIM_COL_INT, SP(n_config), SIM_COL_ALWAYS},
    {"exec_ms", SIM_COL_NUM, SP(exec_ms), SIM_COL_ALWAYS},
    {"es_num", SIM_COL_INT, SP(es_num), SIM_COL_EARLY_STOP},
    {"es_threshold", SIM_COL_FIXED6, SP(es_thr), SIM_COL_EARLY_STOP},
    {"results", SIM_COL_LONG, SP(results), SIM_COL_ALWAYS},
    {"time_s", SIM_COL_NUM, SP(time_s), SIM_COL_ALWAYS},
    {"time_s_lo", SIM_COL_NUM, SP(time_s_lo), SIM_COL_ALWAYS},
    {"time_s_hi", SIM_COL_NUM, SP(time_s_hi), SIM_COL_ALWAYS},
    {"tflops", SIM_COL_NUM, SP(tflops), SIM_COL_ALWAYS},
    {"tflops_lo", SIM_COL_NUM, SP(tflops_lo), SIM_COL_ALWAYS},
    {"tflops_hi", SIM_COL_NUM, SP(tflops_hi), SIM_COL_ALWAYS},
    {"speedup", SIM_COL_NUM, SP(speedup), SIM_COL_ALWAYS},
    {"speedup_lo", SIM_COL_NUM, SP(speedup_lo), SIM_COL_ALWAYS},
    {"speedup_hi", SIM_COL_NUM, SP(speedup_hi), SIM_COL_ALWAYS},
    {"short", SIM_COL_LONG, SP(n_short), SIM_COL_ALWAYS},
    {"stopped", SIM_COL_SIG6, SP(stopped), SIM_COL_ALWAYS},
    {"explored", SIM_COL_SIG6, SP(explored), SIM_COL_ALWAYS},
};
#undef SP
const struct sim_columns sim_points_columns = {"simulation points", (int)(sizeof points_cols / sizeof points_cols[0]),
                                               points_cols};

void sim_columns_header(FILE *fp, const struct sim_columns *t)
{
    for (int k = 0; k < t->n; k++)
        fprintf(fp, "%s%s", k ? "\t" : "", t->cols[k].name);
    fputc('\n', fp);
}

void sim_columns_row(FILE *fp, const struct sim_columns *t, const struct sim_scenario *sc, const char *input,
                     const struct sim_point *p)
{
    const char *base = (const char *)p;
    for (int k = 0; k < t->n; k++) {
        const struct sim_column *c = &t->cols[k];
        const void *f = base + c->offset;
        double v;
        if (k > 0)
            fputc('\t', fp);
        if (c->when == SIM_COL_EARLY_STOP && !sc->early_stop) {
            fputs("nan", fp); /* not drawn for this scenario: the one NA token */
            continue;
        }
        switch (c->kind) {
        case SIM_COL_SCENARIO: fputs(sc->name, fp); break;
        case SIM_COL_INPUT: fputs(input, fp); break;
        case SIM_COL_INT: fprintf(fp, "%d", *(const int *)f); break;
        case SIM_COL_LONG: fprintf(fp, "%ld", *(const long *)f); break;
        case SIM_COL_NUM:
            memcpy(&v, f, sizeof v);
            if (isnan(v))
                fputs("nan", fp);
            else
                fprintf(fp, "%.9g", v);
            break;
        case SIM_COL_FIXED6: fprintf(fp, "%.6f", *(const double *)f); break;
        case SIM_COL_SIG6: fprintf(fp, "%.6g", *(const double *)f); break;
        }
    }
    fputc('\n', fp);
}

int sim_columns_map(struct tc_tsv *r, const struct sim_columns *t, int *map)
{
    for (int k = 0; k < t->n; k++)
        if ((map[k] = tc_tsv_col_need(r, t->cols[k].name)) < 0)
            return -1;
    return 0;
}

/* Field c of r as an integer in [lo, hi] into *out; `nan` reads as 0. */
static int read_integer(struct tc_tsv *r, int c, const char *name, long lo, long hi, long *out)
{
    const char *s = tc_tsv_field(r, c);
    char *end;
    if (strcmp(s, "nan") == 0) {
        *out = 0;
        return 0;
    }
    errno = 0;
    *out = strtol(s, &end, 10);
    if (s[0] == '\0' || *end != '\0' || errno != 0 || *out < lo || *out > hi)
        return tc_seterr("line %ld: column '%s': expected an integer, got '%s'", tc_tsv_lineno(r), name, s);
    return 0;
}

int sim_columns_read(struct tc_tsv *r, const struct sim_columns *t, const int *map, struct sim_point *p,
                     const char **scenario, const char **input)
{
    char *base = (char *)p;
    for (int k = 0; k < t->n; k++) {
        const struct sim_column *c = &t->cols[k];
        void *f = base + c->offset;
        long l;
        double v;
        switch (c->kind) {
        case SIM_COL_SCENARIO:
            if (scenario != NULL)
                *scenario = tc_tsv_field(r, map[k]);
            break;
        case SIM_COL_INPUT:
            if (input != NULL)
                *input = tc_tsv_field(r, map[k]);
            break;
        case SIM_COL_INT:
        case SIM_COL_LONG:
            if (read_integer(r, map[k], c->name, c->kind == SIM_COL_INT ? INT_MIN : LONG_MIN,
                             c->kind == SIM_COL_INT ? INT_MAX : LONG_MAX, &l) != 0)
                return -1;
            if (c->kind == SIM_COL_INT)
                *(int *)f = (int)l;
            else
                *(long *)f = l;
            break;
        case SIM_COL_NUM:
        case SIM_COL_FIXED6:
        case SIM_COL_SIG6:
            if (tc_tsv_num(r, map[k], &v) != 0)
                return -1;
            memcpy(f, &v, sizeof v);
            break;
        }
    }
    return 0;
}
