/* report.c — builds the report directory of `tunecost report` (contract in report.h): opens the inputs, runs the
 * sections of report_sections[] in order (tables, simulations and their findings, the studies, figures, pages: the
 * one list of them) and owns the output directory (written into a temporary through util/tc_outdir, swapped into
 * place whole). The sections live in report_opening.c, report_verdicts.c, report_findings.c, report_studies.c,
 * report_gpus.c, report_recorded.c, report_figures.c and report_pages.c (report_sections.h); they share results
 * through the floor below them (report_results.h), never by calling each other.
 * Layout of DIR: index.html, summary.md, the tables as TSV at the top (table1-compile.tsv, ...), the simulation
 * data under sim/, the figures as NAME.png and NAME.svg, the gnuplot scripts under plots/ (they read only TSV).
 * Nothing in DIR depends on the clock or the thread count: the same trace and seed give the same files. */
#include "report_sections.h"
#include "tc_atomic.h"
#include "tc_opt.h"
#include "trace.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


void report_options_default(struct report_options *o)
{
    memset(o, 0, sizeof *o);
    o->input_dims[0] = 4096;
    o->input_dims[1] = 256;
    o->input_dims[2] = 4096;
    snprintf(o->input_label, sizeof o->input_label, "4096x256x4096");
    o->seed = 1;
    o->samples = 500;
    o->runs = 30;
    o->compile_factor = 16;
    o->failed_cost = o->compile_model = -1;
}

/* ---- putting it in place ------------------------------------------------------------------------------------ */

/* The rule every output directory follows (util/tc_outdir, -f or not): DIR is replaced only when it is absent,
 * empty or an earlier report holding nothing else: its marker lists what the report wrote (reports written
 * before the marker had a list: the report's kinds of files). */
static int dir_is_replaceable(const char *dir)
{
    static const char *const kinds[] = {"*.tsv", "*.png", "*.svg", "*.md", "*.html", "sim", "plots"};
    struct stat st;
    if (stat(dir, &st) != 0)
        return errno == ENOENT ? 1 : tc_seterr("%s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return tc_seterr("%s: exists and is not a directory", dir);
    return tc_outdir_replaceable(dir, "tunecost report", REPORT_MARKER, kinds, 7) == 0 ? 1 : -1;
}

static int make_tmp(struct report_ctx *c)
{
    char copy[PATH_MAX], parent[PATH_MAX], base[PATH_MAX], sub[PATH_MAX];
    struct stat st;
    snprintf(copy, sizeof copy, "%s", c->o->out_dir);
    snprintf(parent, sizeof parent, "%s", dirname(copy));
    snprintf(copy, sizeof copy, "%s", c->o->out_dir);
    snprintf(base, sizeof base, "%s", basename(copy));
    if (strcmp(base, "/") == 0 || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        return tc_seterr("-o %s: expected a directory name to create or replace", c->o->out_dir);
    if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode))
        return tc_seterr("-o %s: the parent directory '%s' does not exist", c->o->out_dir, parent);
    /* the temporary beside DIR (and the removal of dead runs' temporaries): util/tc_outdir */
    if (tc_outdir_begin(&c->od, c->o->out_dir) != 0)
        return -1;
    if (report_fmt(sub, sizeof sub, "%s/sim", c->od.tmp) != 0 || mkdir(sub, 0755) != 0)
        return tc_seterr("%s: cannot create: %s", sub, strerror(errno));
    return 0;
}

/* Free a table the context points at unless it is among the kept ones (those are freed once, below). */
static void free_unkept(struct report_ctx *c, struct table *t)
{
    for (int i = 0; i < c->n_tabs; i++)
        if (c->tabs[i] == t)
            return;
    table_free(t);
}

static void ctx_free(struct report_ctx *c)
{
    const struct report_results *r = &c->res;
    struct table *loose[] = {r->split, r->best, r->failures, r->estimate, r->t6, r->budget, r->ttt_all, r->ttt_input,
                             r->flush, r->scaling, r->landscape, r->cmp_split, r->verdicts, r->stability, r->es_cond};
    for (size_t i = 0; i < sizeof loose / sizeof loose[0]; i++)
        free_unkept(c, loose[i]);
    for (int i = 0; i < c->n_tabs; i++)
        table_free(c->tabs[i]);
    for (int i = 0; i < c->n_findings; i++)
        free(c->findings[i]);
    for (int k = 0; k < N_REPORT_SIM; k++) {
        sim_result_free(c->res.r[k]);
        sim_data_free(c->res.d[k]);
    }
    sim_result_free(c->res.verdict1);
    for (int k = 0; k < 3; k++) {
        sim_result_free(c->res.cost_fold[k]);
        sim_result_free(c->res.common_fold[k]);
    }
    for (int f = 0; f < 2; f++) {
        free(c->res.common.in[f]);
        free(c->res.common.w[f]);
        free(c->res.common.wd[f]);
    }
    trace_close(c->t);
    trace_close(c->tt);
    trace_close(c->cmp);
    tc_outdir_abort(&c->od); /* nothing once committed */
}

/* Open the traces and settle the single input. REPORT_EBADINPUT (message set) when one is not usable. */
static int open_inputs(struct report_ctx *c)
{
    struct report_options *o = c->o;
    if ((c->t = trace_open(o->trace_path)) == NULL)
        return REPORT_EBADINPUT;
    if (o->triton_path != NULL && (c->tt = trace_open(o->triton_path)) == NULL) {
        tc_preferr("--triton-trace");
        return REPORT_EBADINPUT;
    }
    if (o->compare_path != NULL && (c->cmp = trace_open(o->compare_path)) == NULL) {
        tc_preferr("--compare-trace");
        return REPORT_EBADINPUT;
    }
    c->input = trace_n_dims(c->t) == 3 ? trace_find_input(c->t, o->input_dims) : -1;
    if (c->input < 0) {
        if (o->input_given) {
            char eg[128];
            int nd = trace_n_dims(c->t);
            tc_seterr("--input %s: not among the %d inputs of %s (e.g. %s; `tunecost info %s` lists them)",
                      o->input_label, trace_n_inputs(c->t), o->trace_path,
                      trace_n_inputs(c->t) > 0 && nd > 0 ? tc_format_shape(trace_dims(c->t, 0), nd, eg, sizeof eg)
                                                         : "none",
                      o->trace_path);
            return REPORT_EBADINPUT;
        }
        if (trace_n_inputs(c->t) == 0) {
            tc_seterr("%s: the trace has no inputs", o->trace_path);
            return REPORT_EBADINPUT;
        }
        /* the first input with a valid run (the single-input simulation needs one) */
        c->input = 0;
        for (size_t r = 0; r < trace_n_runs(c->t); r++)
            if (trace_run_valid(c->t, r)) {
                c->input = trace_run(c->t, r)->input;
                break;
            }
        for (size_t r = 0; r < trace_n_runs(c->t); r++)
            if (trace_run_valid(c->t, r) && trace_run(c->t, r)->input < c->input)
                c->input = trace_run(c->t, r)->input;
    }
    tables_input_label(c->t, c->input, c->input_label, sizeof c->input_label);
    if (!o->input_given && strcmp(c->input_label, o->input_label) != 0)
        report_say(c, "note: %s has no input %s (the paper's Table 6); using %s", o->trace_path, o->input_label,
                   c->input_label);
    return 0;
}

/* The characterisation tables of the trace (and of the triton trace). */
static int trace_tables(struct report_ctx *c)
{
    if (report_keep_table(c, tables_compile(c->t), "table1-compile.tsv", "Compile time per configuration (Table 1)",
                          120) != 0 ||
        report_keep_table(c, tables_tuning(c->t), "table2-tuning.tsv", "Tuning time per input (Table 2)", 80) != 0 ||
        report_keep_table(c, c->res.split = tables_split(c->t), "fig1-split.tsv",
                          "Repetition, overhead, compilation per input (Figure 1 data)", 80) != 0 ||
        report_keep_table(c, c->res.best = tables_best(c->t), "best-vs-cublas.tsv",
                          "Best configuration per input vs cuBLAS", 80) != 0 ||
        report_keep_table(c, c->res.failures = tables_failures(c->t), "failures.tsv", "Failures by status and reason",
                          40) != 0 ||
        report_keep_table(c, tables_heatmap(c->t), "heatmap.tsv", "Relative performance of every pair (heat map data)",
                          -1) != 0)
        return -1;
    if (c->tt != NULL) {
        if ((c->res.estimate = tables_estimate(c->tt)) == NULL) {
            tc_preferr("--triton-trace");
            return REPORT_EBADINPUT;
        }
        if (report_keep_table(c, c->res.estimate, "fig2-estimate.tsv", "Triton estimate vs warmed time (Figure 2 data)",
                              30) != 0)
            return -1;
    }
    return 0;
}

/* The figures' outcome in the options (n_figures, n_missing, missing_why) and one progress line per gap. */
static void count_figures(struct report_ctx *c)
{
    struct report_options *o = c->o;
    o->n_figures = c->n_figs;
    for (int i = 0; i < c->n_figs; i++) {
        if (c->figs[i].drawn)
            continue;
        if (o->n_missing == 0)
            snprintf(o->missing_why, sizeof o->missing_why, "%s", c->figs[i].why);
        o->n_missing++;
        report_say(c, "  not drawn: %s: %s", c->figs[i].name, c->figs[i].why);
    }
}

/* ---- the sections, in order ---------------------------------------------------------------------------------- */

static int sim_input(struct report_ctx *c)
{
    return report_simulate(c, REPORT_SIM_INPUT);
}

static int sim_all(struct report_ctx *c)
{
    return report_simulate(c, REPORT_SIM_ALL);
}

/* The simulations' files and the results the sections after it read: Table 6 (kept here), the budget and
 * time-to-target tables (kept by keep_budgets, after the verdicts' tables in summary.md). */
static int sim_tables(struct report_ctx *c)
{
    if (report_write_sim_files(c, REPORT_SIM_INPUT) != 0 || report_write_sim_files(c, REPORT_SIM_ALL) != 0 ||
        report_keep_table(c, c->res.t6, "table6-frontier.tsv", "Pareto frontier points (Table 6)", 100) != 0 ||
        report_budget_tables(c) != 0)
        return -1;
    return 0;
}

static int keep_budgets(struct report_ctx *c)
{
    if (report_keep_table(c, c->res.budget, "budget.tsv", "Best speedup within a budget, all inputs", 20) != 0 ||
        report_keep_table(c, c->res.ttt_all, "time-to-target-all.tsv", "Tuning time to reach a speedup, all inputs",
                          20) != 0 ||
        report_keep_table(c, c->res.ttt_input, "time-to-target-input.tsv",
                          "Tuning time to reach a speedup, single input", 20) != 0)
        return -1;
    return 0;
}

static int figures(struct report_ctx *c)
{
    if (report_draw_figures(c) != 0)
        return -1;
    count_figures(c);
    return 0;
}

static int pages(struct report_ctx *c)
{
    if (report_write_summary(c) != 0 || report_write_index(c) != 0)
        return -1;
    return tc_outdir_write_marker(c->od.tmp, REPORT_MARKER, "tunecost report directory: `tunecost report` replaces "
                                  "it as a whole when it holds only the entries listed below") != 0 ? -1 : 0;
}

/* One section of the report: run builds its tables, findings or files from what the sections before it left in
 * the context's results (c->res, report_results.h); it returns 0, or -1 with a message, or REPORT_EBADINPUT (a
 * study's bad input: exit 2). Sections call no other section (tests/check-floors.sh): this list is their order.
 * out declares what it writes (report.h, struct report_outputs): report_open refuses a table or a figure's data
 * the row does not name, report_write a finding from a row with findings 0. */
struct report_section {
    const char *name;    /* what it builds */
    const char *step;    /* the progress line "[k/N] STEP" that opens a step, or NULL: part of the step before */
    int (*run)(struct report_ctx *c);
    struct report_outputs out; /* {tables, figure data, findings} */
};

/* A row's declared outputs: TABLES("a.tsv", ...), FIGDATA(TC_FD_..., ...), or NULL for none. */
#define TABLES(...) ((const char *const[]){__VA_ARGS__, NULL})
#define FIGDATA(...) ((const enum tc_figure_data_id[]){__VA_ARGS__, TC_N_FIGURE_DATA})

/* The sections in the order they run: the one place that knows it. A section that reads another's results comes
 * after it. A declared table may be absent where the section says why: fig2-estimate.tsv without a triton trace,
 * a study's tables without its input (the study's finding says so: policies-gpu.tsv and cross-gpu.tsv on the shipped
 * pair only), costs.tsv without every compile cost (its finding says which are estimated). */
static const struct report_section report_sections[] = {
    {"characterisation tables", "characterisation tables", trace_tables,
     {TABLES("table1-compile.tsv", "table2-tuning.tsv", "fig1-split.tsv", "best-vs-cublas.tsv", "failures.tsv",
             "heatmap.tsv", "fig2-estimate.tsv"),
      FIGDATA(TC_FD_FIG1_SPLIT, TC_FD_HEATMAP, TC_FD_FIG2_ESTIMATE), 0}},
    {"simulation of the single input", "simulating the single input", sim_input, {NULL, NULL, 0}},
    {"simulation of all inputs", "simulating all inputs", sim_all, {NULL, NULL, 0}},
    {"simulation files, Table 6, budgets and times to target", NULL, sim_tables,
     {TABLES("table6-frontier.tsv"),
      FIGDATA(TC_FD_SIM_INPUT_BASELINE, TC_FD_SIM_INPUT_BASELINE_FRONTIER, TC_FD_SIM_INPUT_PER_EXEC_FRONTIER,
              TC_FD_SIM_INPUT_PIPELINED_FRONTIER, TC_FD_SIM_INPUT_PARALLEL_FRONTIER, TC_FD_SIM_ALL_BASELINE,
              TC_FD_SIM_ALL_BASELINE_FRONTIER, TC_FD_SIM_ALL_PARALLEL, TC_FD_SIM_ALL_PARALLEL_FRONTIER,
              TC_FD_SIM_ALL_EARLY_STOP, TC_FD_SIM_ALL_EARLY_STOP_FRONTIER),
      0}},
    {"the summary's opening", NULL, report_opening, {TABLES("opening.tsv"), NULL, 1}},
    {"verdicts on three seeds", NULL, report_verdicts,
     {TABLES("early-stop-conditions.tsv", "exec-floor-paired.tsv", "costs.tsv", "verdicts.tsv", "stability.tsv"),
      NULL, 0}},
    {"findings on the trace and its simulations", NULL, report_findings, {NULL, NULL, 1}},
    {"budget and time-to-target tables kept", NULL, keep_budgets,
     {TABLES("budget.tsv", "time-to-target-all.tsv", "time-to-target-input.tsv"), NULL, 0}},
    {"tuning policies", "tuning policies, L2 flush study, compile scaling, two kernel families", report_policies,
     {TABLES("policies-curves.tsv", "policies.tsv"), FIGDATA(TC_FD_POLICIES_CURVES), 1}},
    {"policies across GPUs", NULL, report_cross_gpu, {TABLES("policies-gpu.tsv", "cross-gpu.tsv"), NULL, 1}},
    {"L2 flush study", NULL, report_flush_study, {TABLES("flush-study.tsv"), NULL, 1}},
    {"compile scaling", NULL, report_scaling, {TABLES("compile-scaling.tsv"), NULL, 1}},
    {"recorded tuning runs", NULL, report_recorded, {TABLES("recorded-session.tsv"), NULL, 1}},
    {"two kernel families", NULL, report_landscapes,
     {TABLES("landscapes-common.tsv", "landscapes-paired.tsv", "landscapes-summary.tsv", "landscapes.tsv"),
      FIGDATA(TC_FD_LANDSCAPES, TC_FD_LANDSCAPES_COMMON), 1}},
    {"figures", "figures", figures, {NULL, NULL, 0}},
    {"pages", "summary.md and index.html", pages, {NULL, NULL, 0}},
};
#undef TABLES
#undef FIGDATA
#define N_SECTIONS ((int)(sizeof report_sections / sizeof report_sections[0]))

int report_section_outputs(int i, const char **name, struct report_outputs *out)
{
    if (i < 0 || i >= N_SECTIONS)
        return -1;
    *name = report_sections[i].name;
    *out = report_sections[i].out;
    return 0;
}

int report_list_outputs(FILE *fp)
{
    fprintf(fp, "section\toutput\tfile\tfigures\n");
    for (int i = 0; i < N_SECTIONS; i++) {
        const struct report_outputs *d = &report_sections[i].out;
        const char *name = report_sections[i].name;
        int any = 0;
        for (const char *const *t = d->tables; t != NULL && *t != NULL; t++, any++)
            fprintf(fp, "%s\ttable\t%s\t\n", name, *t);
        for (const enum tc_figure_data_id *f = d->figure_data; f != NULL && *f != TC_N_FIGURE_DATA; f++, any++) {
            const char *sep = "";
            fprintf(fp, "%s\tfigure data\t%s\t", name, tc_figure_data[*f].file);
            for (int k = 0; k < tc_n_figures; k++)
                for (int j = 0; j < tc_figures[k].n_reads; j++)
                    if (tc_figures[k].reads[j] == *f) {
                        fprintf(fp, "%s%s", sep, tc_figures[k].name);
                        sep = " ";
                    }
            fputc('\n', fp);
        }
        if (d->findings || any == 0)
            fprintf(fp, "%s\t%s\t\t\n", name, d->findings ? "findings" : "none");
    }
    return tc_stream_check(fp, "standard output");
}

/* Run one section; a finding from a row that declares none is an internal error (its files are checked as they
 * are opened, report_open). */
static int run_section(struct report_ctx *c, const struct report_section *sec)
{
    int n_findings = c->n_findings, rc;
    c->section = sec->name;
    c->declared = &sec->out;
    rc = sec->run(c);
    c->declared = NULL;
    if (rc == 0 && !sec->out.findings && c->n_findings != n_findings)
        return tc_seterr("internal error: report section '%s' adds a finding, which its row of report_sections[] "
                         "(analysis/report.c) does not declare", sec->name);
    return rc;
}

int report_write(struct report_options *o)
{
    struct report_ctx c;
    int rc = -1, n_steps = 0, step = 0;

    memset(&c, 0, sizeof c);
    c.o = o;
    o->n_figures = o->n_missing = 0;
    o->missing_why[0] = '\0';
    if (o->out_dir == NULL || o->trace_path == NULL) {
        tc_seterr("report: needs a trace and an output directory");
        return REPORT_EBADINPUT;
    }
    if (dir_is_replaceable(o->out_dir) != 1) { /* before any work: nothing printed, nothing read */
        rc = REPORT_EBADINPUT;
        goto out;
    }
    if ((rc = open_inputs(&c)) != 0)
        goto out;
    if (make_tmp(&c) != 0) {
        rc = REPORT_EBADINPUT;
        goto out;
    }
    report_say(&c, "trace %s (%s): %d inputs, %d configurations; input %s, seed %llu, %d samples x %d runs",
               o->trace_path, trace_get_meta(c.t)->device_name, trace_n_inputs(c.t), trace_n_configs(c.t),
               c.input_label, (unsigned long long)o->seed, o->samples, o->runs);
    for (int i = 0; i < N_SECTIONS; i++)
        n_steps += report_sections[i].step != NULL;
    for (int i = 0; i < N_SECTIONS; i++) {
        const struct report_section *sec = &report_sections[i];
        if (sec->step != NULL)
            report_say(&c, "[%d/%d] %s", ++step, n_steps, sec->step);
        if ((rc = run_section(&c, sec)) != 0 || (rc = report_check_interrupt(&c)) != 0)
            goto out;
    }
    rc = -1;
    if (tc_outdir_commit(&c.od) != 0)
        goto out;
    rc = 0;
out:
    ctx_free(&c);
    return rc;
}
