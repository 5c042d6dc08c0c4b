/* sim_columns.h — the columns of the simulation points (points.tsv, frontier.tsv, the report's sim/ files): one
 * row per column, {name, kind, field of struct sim_point, when}, from which the header, every row and the reader
 * come. To add a column: one row in sim_points_columns (sim_columns.c), and the field in struct sim_point (sim.h)
 * if it is new; docs/architecture.md ("Outputs as tables") walks through it. */
#ifndef SIM_COLUMNS_H
#define SIM_COLUMNS_H

#include "sim.h"
#include "tc_tsv.h"

#include <stddef.h>
#include <stdio.h>

enum sim_col_kind {
    SIM_COL_SCENARIO, /* the scenario's name (not a field: the writer's argument) */
    SIM_COL_INPUT,    /* the input's name (not a field: the writer's argument) */
    SIM_COL_INT,      /* int, %d */
    SIM_COL_LONG,     /* long, %ld */
    SIM_COL_NUM,      /* double, %.9g, NaN as `nan` (the one missing-value token) */
    SIM_COL_FIXED6,   /* double, %.6f */
    SIM_COL_SIG6,     /* double, %.6g */
};
enum sim_col_when {
    SIM_COL_ALWAYS,
    SIM_COL_EARLY_STOP, /* drawn for every sample, meaningful only where the scenario stops early: `nan` elsewhere */
};
struct sim_column {
    const char *name;       /* header name; other code looks columns up by it */
    enum sim_col_kind kind;
    size_t offset;          /* offsetof(struct sim_point, field); 0 for SCENARIO and INPUT */
    enum sim_col_when when;
};
struct sim_columns {
    const char *kind;       /* for messages: "simulation points" */
    int n;
    const struct sim_column *cols;
};
/* The simulation points' columns, in file order (docs/simulation.md, "Output"). */
extern const struct sim_columns sim_points_columns;

/* The header line (names joined by tabs, then a newline). */
void sim_columns_header(FILE *fp, const struct sim_columns *t);
/* One row: the point p of scenario sc (its name and early_stop) and input name `input`. */
void sim_columns_row(FILE *fp, const struct sim_columns *t, const struct sim_scenario *sc, const char *input,
                     const struct sim_point *p);
/* The reader: map[k] the column of r that holds t's column k (-1 with "NAME: no column 'x'" when one is missing;
 * map has room for t->n). */
int sim_columns_map(struct tc_tsv *r, const struct sim_columns *t, int *map);
/* The current row of r into p (fields of the columns only; a `nan` integer reads as 0), its scenario and input
 * names into *scenario and *input (pointing into the row; either may be NULL). -1 with "NAME:LINE: column 'x':
 * ..." on a field that does not read as its kind. */
int sim_columns_read(struct tc_tsv *r, const struct sim_columns *t, const int *map, struct sim_point *p,
                     const char **scenario, const char **input);

#endif
