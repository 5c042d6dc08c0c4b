/* tc_figures.c — the table of figures (contract in tc_figures.h). Editing a figure (its script, its data, its
 * words) is editing its row here; docs/report.md's table follows with tests/figures-doc (see tc_figures.h). */
#include "tc_figures.h"

#include <string.h>

#define NEEDS_FLOPS "needs the input's FLOP count (its M, N, K dimensions) for TFLOP/s"

const struct tc_figure tc_figures[] = {
    {"fig1-split", "fig1-split.gp", "fig1-split.tsv", "Where tuning time goes, per input (paper Figure 1)",
     "Per input, summed over its valid runs: repetition (timed executions), overhead (wall time minus timed "
     "executions, warm-up included) and compilation of every configuration of the input, the failing ones "
     "included (a tuner compiles them too); the lower panel leaves "
     "compilation out, so repetition and overhead can be compared.",
     NULL},
    {"fig2-estimate", "fig2-estimate.gp", "fig2-estimate.tsv",
     "Triton's execution-time estimate vs the warmed execution time (paper Figure 2)",
     "Left: the per-execution estimate of each run against the median of its warmed timed executions (the diagonal "
     "is a perfect estimate). Right: the timed total against the requested repetition time.",
     "needs a triton-protocol trace (--triton-trace)"},
    {"fig3-frontier", "fig3-frontier.gp", "sim/input-baseline.tsv, sim/input-baseline-frontier.tsv",
     "Pareto frontier of tuning time vs performance (paper Figure 3)",
     "Every simulated sample (mean over its runs) faint, coloured by N_CONFIG; the Pareto frontier bold, labelled "
     "with N_CONFIG.",
     NEEDS_FLOPS},
    {"fig4-parallel", "fig4-parallel.gp",
     "sim/all-baseline.tsv, sim/all-baseline-frontier.tsv, sim/all-parallel.tsv, sim/all-parallel-frontier.tsv",
     "Parallel vs sequential compilation, all inputs (paper Figure 4)",
     "Pareto frontiers of mean speedup relative to optimal vs mean tuning time; bands are the 95% confidence "
     "intervals of the frontier points' speedup.",
     NULL},
    {"fig5-early-stop", "fig5-early-stop.gp",
     "sim/all-baseline.tsv, sim/all-baseline-frontier.tsv, sim/all-early-stop.tsv, sim/all-early-stop-frontier.tsv",
     "Early stopping vs baseline, all inputs (paper Figure 5)",
     "Pareto frontiers of mean speedup relative to optimal vs mean tuning time, with 95% confidence bands.", NULL},
    {"heatmap", "heatmap.gp", "heatmap.tsv", "Every configuration's performance relative to the best, per input",
     "Colour: best time of the input divided by the configuration's median time (1 = the best). Configurations "
     "ordered by their mean over inputs; grey = failed or not measured; configurations that failed on every input "
     "are left out (counted under the plot).",
     NULL},
    {"models", "models.gp",
     "sim/input-baseline-frontier.tsv, sim/input-per-exec-frontier.tsv, sim/input-pipelined-frontier.tsv, "
     "sim/input-parallel-frontier.tsv",
     "The frontier under other cost models (beyond the paper)",
     "Frontiers for the single input: sequential compilation (labelled the paper's model only under `--paper`), "
     "overhead charged per execution actually run (per-exec), pipelined compilation, and parallel compilation "
     "(list-scheduled; labelled the paper's ideal bound under compile model `paper`).",
     NEEDS_FLOPS},
    {"policies", "policies.gp", "policies-curves.tsv (`tunecost policies`: curves.tsv)",
     "Tuning policies: speedup relative to optimal over tuning time (beyond the paper)",
     "Every built-in policy replayed on every input (tunecost policies, every cost charged, no prior), mean and 95% "
     "CI over inputs and runs; each policy its own colour and dash pattern (plots/palette.gp); dotted grey: the "
     "analytic random-search baseline. Scores in policies.tsv.",
     NULL},
    {"landscapes", "landscapes.gp", "landscapes.tsv, landscapes-common.tsv",
     "Two kernel families: what tuning buys (beyond the paper)",
     "Left: per input, labelled by its shape, the best configuration's TFLOP/s over cuBLAS's for each kernel family "
     "(landscapes.tsv). Right: per budget, the best mean speedup each family reaches within it against a common "
     "reference (per input the faster family's optimal), re-evaluated on fresh runs with its 95% CI "
     "(landscapes-common.tsv: seed 1, sequential compilation).",
     "needs a second kernel family's trace (--compare-trace); without one the section is left out"},
};
const int tc_n_figures = (int)(sizeof tc_figures / sizeof tc_figures[0]);
const char *const tc_figure_common_script = "common.gp";
const char *const tc_figure_palette_script = "palette.gp";

const struct tc_figure *tc_figure_find(const char *name)
{
    for (int i = 0; i < tc_n_figures; i++)
        if (strcmp(tc_figures[i].name, name) == 0)
            return &tc_figures[i];
    return NULL;
}
