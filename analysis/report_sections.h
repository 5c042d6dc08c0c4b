/* report_sections.h — the report's sections, for report.c alone (its report_sections[] runs them in order): each
 * builds its tables, findings or files from the inputs and the results the sections before it left in the context
 * (report_results.h), and returns 0, -1 with a message, or REPORT_EBADINPUT. A section includes report_results.h
 * only, never this header: sections do not call each other (tests/check-floors.sh). */
#ifndef REPORT_SECTIONS_H
#define REPORT_SECTIONS_H

#include "report_results.h"

/* report_opening.c: "What tuning costs and what it buys", five findings and opening.tsv. */
int report_opening(struct report_ctx *c);
/* report_verdicts.c: the stability simulations; verdicts.tsv, stability.tsv, early-stop-conditions.tsv, costs.tsv
 * (c->verdicts, c->stability, c->es_cond, c->costs). */
int report_verdicts(struct report_ctx *c);
/* report_findings.c: the findings on the trace and its simulations, in the order summary.md lists them. */
int report_findings(struct report_ctx *c);
/* report_studies.c: the tuning policies, the L2 flush study, compile scaling, the two kernel families. */
int report_policies(struct report_ctx *c);
int report_flush_study(struct report_ctx *c);
int report_scaling(struct report_ctx *c);
int report_landscapes(struct report_ctx *c);
/* report_gpus.c: the cross-GPU study on the shipped reference and another GPU's full space (a finding says so when
 * they are absent). */
int report_cross_gpu(struct report_ctx *c);
/* report_recorded.c: the recorded tuning runs. */
int report_recorded(struct report_ctx *c);
/* report_figures.c: every figure: the scripts copied into DIR/plots, each drawn as PNG and SVG where gnuplot and
 * its data are. */
int report_draw_figures(struct report_ctx *c);
/* report_pages.c: summary.md and index.html. */
int report_write_summary(struct report_ctx *c);
int report_write_index(struct report_ctx *c);

#endif
