/* tc_figures.c — the table of figures (contract in tc_figures.h). Editing a figure (its script, its data, its
 * words) is editing its row here; docs/report.md's table follows with tests/figures-doc (see tc_figures.h). */
#include "tc_figures.h"

#include <string.h>

const struct tc_figure_datum tc_figure_data[TC_N_FIGURE_DATA] = {
    [TC_FD_FIG1_SPLIT] = {"fig1_split_tsv", "fig1-split.tsv", NULL},
    [TC_FD_FIG2_ESTIMATE] = {"fig2_estimate_tsv", "fig2-estimate.tsv", NULL},
    [TC_FD_SIM_INPUT_BASELINE] = {"sim_input_baseline_tsv", "sim/input-baseline.tsv", NULL},
    [TC_FD_SIM_INPUT_BASELINE_FRONTIER] = {"sim_input_baseline_frontier_tsv", "sim/input-baseline-frontier.tsv", NULL},
    [TC_FD_SIM_INPUT_PER_EXEC_FRONTIER] = {"sim_input_per_exec_frontier_tsv", "sim/input-per-exec-frontier.tsv", NULL},
    [TC_FD_SIM_INPUT_PIPELINED_FRONTIER] = {"sim_input_pipelined_frontier_tsv", "sim/input-pipelined-frontier.tsv",
                                            NULL},
    [TC_FD_SIM_INPUT_PARALLEL_FRONTIER] = {"sim_input_parallel_frontier_tsv", "sim/input-parallel-frontier.tsv", NULL},
    [TC_FD_SIM_ALL_BASELINE] = {"sim_all_baseline_tsv", "sim/all-baseline.tsv", NULL},
    [TC_FD_SIM_ALL_BASELINE_FRONTIER] = {"sim_all_baseline_frontier_tsv", "sim/all-baseline-frontier.tsv", NULL},
    [TC_FD_SIM_ALL_PARALLEL] = {"sim_all_parallel_tsv", "sim/all-parallel.tsv", NULL},
    [TC_FD_SIM_ALL_PARALLEL_FRONTIER] = {"sim_all_parallel_frontier_tsv", "sim/all-parallel-frontier.tsv", NULL},
    [TC_FD_SIM_ALL_EARLY_STOP] = {"sim_all_early_stop_tsv", "sim/all-early-stop.tsv", NULL},
    [TC_FD_SIM_ALL_EARLY_STOP_FRONTIER] = {"sim_all_early_stop_frontier_tsv", "sim/all-early-stop-frontier.tsv", NULL},
    [TC_FD_HEATMAP] = {"heatmap_tsv", "heatmap.tsv", NULL},
    [TC_FD_POLICIES_CURVES] = {"policies_curves_tsv", "policies-curves.tsv", "`tunecost policies`: curves.tsv"},
    [TC_FD_LANDSCAPES] = {"landscapes_tsv", "landscapes.tsv", NULL},
    [TC_FD_LANDSCAPES_COMMON] = {"landscapes_common_tsv", "landscapes-common.tsv", NULL},
};

static const struct {
    unsigned flag;
    const char *text;
} needs_text[] = {
    {TC_FIG_NEEDS_TRITON, "needs a triton-protocol trace (--triton-trace)"},
    {TC_FIG_NEEDS_FLOPS, "needs the input's FLOP count (its M, N, K dimensions) for TFLOP/s"},
    {TC_FIG_NEEDS_FAMILY,
     "needs a second kernel family's trace (--compare-trace); without one the section is left out"},
};

/* n_reads and reads from one list of ids */
#define READS(...)                                                                                               \
    (int)(sizeof(enum tc_figure_data_id[]){__VA_ARGS__} / sizeof(enum tc_figure_data_id)), {__VA_ARGS__}

const struct tc_figure tc_figures[] = {
    {"fig1-split", "fig1-split.gp", READS(TC_FD_FIG1_SPLIT), "Where tuning time goes, per input (paper Figure 1)",
     "Per input, summed over its valid runs: repetition (timed executions), overhead (wall time minus timed "
     "executions, warm-up included) and compilation of every configuration of the input, the failing ones "
     "included (a tuner compiles them too); the lower panel leaves "
     "compilation out, so repetition and overhead can be compared.",
     0},
    {"fig2-estimate", "fig2-estimate.gp", READS(TC_FD_FIG2_ESTIMATE),
     "Triton's execution-time estimate vs the warmed execution time (paper Figure 2)",
     "Left: the per-execution estimate of each run against the median of its warmed timed executions (the diagonal "
     "is a perfect estimate). Right: the timed total against the requested repetition time.",
     TC_FIG_NEEDS_TRITON},
    {"fig3-frontier", "fig3-frontier.gp", READS(TC_FD_SIM_INPUT_BASELINE, TC_FD_SIM_INPUT_BASELINE_FRONTIER),
     "Pareto frontier of tuning time vs performance (paper Figure 3)",
     "Every simulated sample (mean over its runs) faint, coloured by N_CONFIG; the Pareto frontier bold, labelled "
     "with N_CONFIG.",
     TC_FIG_NEEDS_FLOPS},
    {"fig4-parallel", "fig4-parallel.gp",
     READS(TC_FD_SIM_ALL_BASELINE, TC_FD_SIM_ALL_BASELINE_FRONTIER, TC_FD_SIM_ALL_PARALLEL,
           TC_FD_SIM_ALL_PARALLEL_FRONTIER),
     "Parallel vs sequential compilation, all inputs (paper Figure 4)",
     "Pareto frontiers of mean speedup relative to optimal vs mean tuning time; bands are the 95% confidence "
     "intervals of the frontier points' speedup.",
     0},
    {"fig5-early-stop", "fig5-early-stop.gp",
     READS(TC_FD_SIM_ALL_BASELINE, TC_FD_SIM_ALL_BASELINE_FRONTIER, TC_FD_SIM_ALL_EARLY_STOP,
           TC_FD_SIM_ALL_EARLY_STOP_FRONTIER),
     "Early stopping vs baseline, all inputs (paper Figure 5)",
     "Pareto frontiers of mean speedup relative to optimal vs mean tuning time, with 95% confidence bands.", 0},
    {"heatmap", "heatmap.gp", READS(TC_FD_HEATMAP),
     "Every configuration's performance relative to the best, per input",
     "Colour: best time of the input divided by the configuration's median time (1 = the best). Configurations "
     "ordered by their mean over inputs; grey = failed or not measured; configurations that failed on every input "
     "are left out (counted under the plot).",
     0},
    {"models", "models.gp",
     READS(TC_FD_SIM_INPUT_BASELINE_FRONTIER, TC_FD_SIM_INPUT_PER_EXEC_FRONTIER, TC_FD_SIM_INPUT_PIPELINED_FRONTIER,
           TC_FD_SIM_INPUT_PARALLEL_FRONTIER),
     "The frontier under other cost models (beyond the paper)",
     "Frontiers for the single input: sequential compilation (labelled the paper's model only under `--paper`), "
     "overhead charged per execution actually run (per-exec), pipelined compilation, and parallel compilation "
     "(list-scheduled; labelled the paper's ideal bound under compile model `paper`).",
     TC_FIG_NEEDS_FLOPS},
    {"policies", "policies.gp", READS(TC_FD_POLICIES_CURVES),
     "Tuning policies: speedup relative to optimal over tuning time (beyond the paper)",
     "Every built-in policy replayed on every input (tunecost policies, every cost charged, no prior), mean and 95% "
     "CI over inputs and runs; each policy its own colour and dash pattern (plots/palette.gp); dotted grey: the "
     "analytic random-search baseline. Scores in policies.tsv.",
     0},
    {"landscapes", "landscapes.gp", READS(TC_FD_LANDSCAPES, TC_FD_LANDSCAPES_COMMON),
     "Two kernel families: what tuning buys (beyond the paper)",
     "Left: per input, labelled by its shape, the best configuration's TFLOP/s over cuBLAS's for each kernel family "
     "(landscapes.tsv). Right: per budget, the best mean speedup each family reaches within it against a common "
     "reference (per input the faster family's optimal), re-evaluated on fresh runs with its 95% CI "
     "(landscapes-common.tsv: seed 1, sequential compilation).",
     TC_FIG_NEEDS_FAMILY},
};
const int tc_n_figures = (int)(sizeof tc_figures / sizeof tc_figures[0]);
const char *const tc_figure_common_script = "common.gp";
const char *const tc_figure_palette_script = "palette.gp";

const char *tc_figure_needs_text(unsigned needs)
{
    for (size_t i = 0; i < sizeof needs_text / sizeof needs_text[0]; i++)
        if (needs & needs_text[i].flag)
            return needs_text[i].text;
    return NULL;
}

const struct tc_figure *tc_figure_find(const char *name)
{
    for (int i = 0; i < tc_n_figures; i++)
        if (strcmp(tc_figures[i].name, name) == 0)
            return &tc_figures[i];
    return NULL;
}
