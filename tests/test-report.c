/* test-report.c — `tunecost report` (analysis/report*.c) end to end on hand-built traces: every expected file,
 * same seed → identical files, gnuplot hidden → tables still written and the missing figures named, bad inputs
 * refused without touching the output, an interrupted report leaving nothing behind; the findings' numbers and
 * verdicts, worked out by hand from the small fixture traces or recomputed from the simulations' files.
 *
 *   test-report                     run the tests (figures are not checked)
 *   test-report figures             the checks that need gnuplot: every figure drawn, a failing script named;
 *                                   exits 77 (skipped) without gnuplot
 *   test-report fixture OUT.h5      write the report fixture trace (for test-report-chromium.sh)
 *   test-report triton OUT.h5       write the triton-protocol fixture trace
 *   test-report small OUT.h5 FLUSH_BYTES VARIANT   write the small table fixture (test-tables-fixture.c)
 *   test-report full OUT.h5 N       write a synthetic trace of the paper's full shape, at most N timed per run */
#include "report.h"
#include "report_results.h" /* the undeclared-output test keeps tables on a hand-built context */
#include "sim.h"
#include "tc_err.h"
#include "tc_paths.h"
#include "trace.h"
#include "test-common.h"
#include "test-tables-fixture.h"

#include <check.h>
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char fixture_path[512], triton_path[512];
static int have_gnuplot;

static void setup(void)
{
    tt_tmpdir_make("test-report");
    snprintf(fixture_path, sizeof fixture_path, "%s/fixture.h5", tt_tmpdir());
    snprintf(triton_path, sizeof triton_path, "%s/triton.h5", tt_tmpdir());
    ck_assert_msg(fixture_report(fixture_path) == 0, "%s", tc_errmsg());
    ck_assert_msg(fixture_triton(triton_path) == 0, "%s", tc_errmsg());
}

static void options(struct report_options *o, const char *out)
{
    report_options_default(o);
    o->trace_path = fixture_path;
    o->out_dir = out;
    o->plots_dir = tc_paths_dir(TC_PATHS_PLOTS);
    o->samples = 40;
    o->runs = 5;
    o->threads = 2;
    o->no_figures = !have_gnuplot; /* figures are the `figures` run's; elsewhere not asked for (no gnuplot needed) */
}

static int exists(const char *d, const char *name)
{
    char p[1024];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", d, name);
    return stat(p, &st) == 0 && st.st_size > 0;
}

static char *slurp(const char *d, const char *name, size_t *len)
{
    char p[1024], *buf;
    long n;
    FILE *fp;
    snprintf(p, sizeof p, "%s/%s", d, name);
    if ((fp = fopen(p, "rb")) == NULL)
        return NULL;
    fseek(fp, 0, SEEK_END);
    n = ftell(fp);
    rewind(fp);
    buf = malloc((size_t)n + 1);
    if (buf != NULL && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf != NULL)
        buf[n] = '\0';
    fclose(fp);
    if (len != NULL)
        *len = (size_t)n;
    return buf;
}

static const char *tables[] = {"table1-compile.tsv", "table2-tuning.tsv", "fig1-split.tsv", "best-vs-cublas.tsv",
                               "failures.tsv", "heatmap.tsv", "table6-frontier.tsv", "budget.tsv",
                               "time-to-target-all.tsv", "time-to-target-input.tsv", "sim/points-input.tsv",
                               "sim/points-all.tsv", "sim/input-baseline-frontier.tsv",
                               "sim/all-parallel-frontier.tsv", "sim/all-early-stop-frontier.tsv", "policies.tsv",
                               "policies-curves.tsv",
                               "sim/input-pipelined-frontier.tsv", "sim/input-per-exec-frontier.tsv",
                               "verdicts.tsv", "stability.tsv",
                               "index.html", "summary.md", "plots/fig3-frontier.gp", ".tunecost-report"};
static const char *figures[] = {"fig1-split", "fig3-frontier", "fig4-parallel", "fig5-early-stop", "heatmap",
                                "models", "policies"};

START_TEST(test_report_writes_every_file)
{
    struct report_options o;
    char out[600], name[128];
    char *md, *html;
    snprintf(out, sizeof out, "%s/r1", tt_tmpdir());
    options(&o, out);
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        ck_assert_msg(exists(out, tables[i]), "missing %s", tables[i]);
    md = slurp(out, "summary.md", NULL);
    html = slurp(out, "index.html", NULL);
    ck_assert_ptr_nonnull(md);
    ck_assert_ptr_nonnull(html);
    ck_assert_ptr_nonnull(strstr(md, "## Findings"));
    ck_assert_ptr_nonnull(strstr(md, "EXEC_TIME 10-100 ms"));
    ck_assert_ptr_nonnull(strstr(md, "Parallel compilation"));
    ck_assert_ptr_nonnull(strstr(md, "Early stopping"));
    /* no triton trace: Figure 2 is named as not drawn, with the reason */
    ck_assert_ptr_nonnull(strstr(md, "needs a triton-protocol trace"));
    ck_assert_ptr_nonnull(strstr(html, "needs a triton-protocol trace"));
    /* offline: nothing fetched from elsewhere */
    ck_assert_ptr_null(strstr(html, "http://"));
    ck_assert_ptr_null(strstr(html, "https://"));
    ck_assert_ptr_null(strstr(html, "<script"));
    if (have_gnuplot) {
        for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
            snprintf(name, sizeof name, "%s.png", figures[i]);
            ck_assert_msg(exists(out, name), "missing %s", name);
            snprintf(name, sizeof name, "%s.svg", figures[i]);
            ck_assert_msg(exists(out, name), "missing %s", name);
            snprintf(name, sizeof name, "<img src=\"%s.png\"", figures[i]);
            ck_assert_msg(strstr(html, name) != NULL, "index.html lacks %s", name);
        }
        ck_assert_int_eq(o.n_missing, 1);
    }
    ck_assert(!exists(out, "fig2-estimate.png"));
    ck_assert_int_eq(o.n_figures, 8); /* the paper's 5, the heat map, the cost models, the tuning policies */
    free(md);
    free(html);
}
END_TEST

/* Every output each section declares (report_sections[], report_section_outputs) against the files a report
 * writes: on the fixture with a triton trace, the TSV files at the top of the directory are the declared tables
 * but those of the studies the fixture lacks (written out here by hand: no flush study, compile scaling, recorded
 * runs, second family; the cross-GPU study is of the shipped pair only; costs.tsv needs every compile cost, and the
 * fixture has no isolated compile times), and every declared figure datum outside
 * the second family's is there. The registry itself: a table or figure datum declared by one section only, every
 * figure datum by some section, and a figure datum at the top of the directory among its section's tables. */
START_TEST(test_report_outputs_as_declared)
{
    static const char *const absent[] = {"flush-study.tsv", "compile-scaling.tsv", "recorded-session.tsv",
                                         "landscapes-common.tsv", "landscapes-paired.tsv", "landscapes-summary.tsv",
                                         "landscapes.tsv", "policies-gpu.tsv", "cross-gpu.tsv", "costs.tsv"};
    const size_t n_absent = sizeof absent / sizeof absent[0];
    const char *declared[64], *name;
    int n_declared = 0, fd_by[TC_N_FIGURE_DATA], n_written = 0, n_sections = 0;
    struct report_outputs d;
    struct report_options o;
    char out[600];
    DIR *dir;
    struct dirent *e;

    for (int i = 0; i < TC_N_FIGURE_DATA; i++)
        fd_by[i] = -1;
    for (int i = 0; report_section_outputs(i, &name, &d) == 0; i++, n_sections++) {
        for (const char *const *t = d.tables; t != NULL && *t != NULL; t++) {
            for (int k = 0; k < n_declared; k++)
                ck_assert_msg(strcmp(declared[k], *t) != 0, "%s declared twice (section '%s')", *t, name);
            ck_assert_int_lt(n_declared, 64);
            declared[n_declared++] = *t;
        }
        for (const enum tc_figure_data_id *f = d.figure_data; f != NULL && *f != TC_N_FIGURE_DATA; f++) {
            const char *file = tc_figure_data[*f].file;
            int in_tables = 0;
            ck_assert_msg(fd_by[*f] < 0, "%s declared by two sections", file);
            fd_by[*f] = i;
            for (const char *const *t = d.tables; t != NULL && *t != NULL; t++)
                in_tables += strcmp(*t, file) == 0;
            ck_assert_msg(strchr(file, '/') != NULL || in_tables == 1, "%s not among '%s''s tables", file, name);
        }
    }
    ck_assert_int_eq(n_sections, 16);
    ck_assert_int_eq(n_declared, 28); /* 7 + 1 + 1 + 5 + 3 + 2 + 2 + 1 + 1 + 1 + 4, by row */
    for (int i = 0; i < TC_N_FIGURE_DATA; i++)
        ck_assert_msg(fd_by[i] >= 0, "%s declared by no section", tc_figure_data[i].file);

    snprintf(out, sizeof out, "%s/r1", tt_tmpdir());
    options(&o, out);
    o.triton_path = triton_path;
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    ck_assert_ptr_nonnull(dir = opendir(out));
    while ((e = readdir(dir)) != NULL) {
        size_t n = strlen(e->d_name);
        int found = 0;
        if (n < 4 || strcmp(e->d_name + n - 4, ".tsv") != 0)
            continue;
        for (int k = 0; k < n_declared; k++)
            found += strcmp(declared[k], e->d_name) == 0;
        ck_assert_msg(found == 1, "%s written but declared by no section", e->d_name);
        for (size_t k = 0; k < n_absent; k++)
            ck_assert_msg(strcmp(absent[k], e->d_name) != 0, "%s written without its study", e->d_name);
        n_written++;
    }
    closedir(dir);
    ck_assert_int_eq(n_written, n_declared - (int)n_absent); /* so every declared table but the absent is there */
    for (int i = 0; i < TC_N_FIGURE_DATA; i++)
        if (i != TC_FD_LANDSCAPES && i != TC_FD_LANDSCAPES_COMMON)
            ck_assert_msg(exists(out, tc_figure_data[i].file), "missing %s", tc_figure_data[i].file);
}
END_TEST

/* A section writing what its row does not declare is refused (report_open, the writer of every file of the
 * report): on a hand-built context whose running "probe" section declares declared.tsv and fig1-split.tsv (table
 * and figure datum), keeping undeclared.tsv, writing heatmap.tsv (a figure's data) or sim/input-baseline.tsv (one
 * under sim/) fails with an internal error naming the section and the file, and writes nothing; a declared table,
 * a file under sim/ that is no figure's data, and anything with no section running are written. */
#define ck_err_has(needle) ck_assert_msg(strstr(tc_errmsg(), (needle)) != NULL, "message: %s", tc_errmsg())
START_TEST(test_report_undeclared_output_refused)
{
    static const char *const tabs[] = {"declared.tsv", "fig1-split.tsv", NULL};
    static const enum tc_figure_data_id fd[] = {TC_FD_FIG1_SPLIT, TC_N_FIGURE_DATA};
    static const char *const cols[] = {"a"};
    const struct report_outputs decl = {tabs, fd, 0};
    struct report_options o;
    struct report_ctx *c = calloc(1, sizeof *c);
    char path[1100], dir[700];
    FILE *fp;

    ck_assert_ptr_nonnull(c);
    report_options_default(&o);
    c->o = &o;
    snprintf(dir, sizeof dir, "%s/scratch", tt_tmpdir());
    ck_assert_int_eq(mkdir(dir, 0777), 0);
    snprintf(path, sizeof path, "%s/sim", dir);
    ck_assert_int_eq(mkdir(path, 0777), 0);
    snprintf(c->od.tmp, sizeof c->od.tmp, "%s", dir);
    c->section = "probe";
    c->declared = &decl;
    ck_assert_msg(report_keep_table(c, table_new("t", 1, cols), "declared.tsv", "T", 5) == 0, "%s", tc_errmsg());
    ck_assert_msg(report_keep_table(c, table_new("t", 1, cols), "fig1-split.tsv", "T", 5) == 0, "%s", tc_errmsg());
    ck_assert_int_eq(report_keep_table(c, table_new("t", 1, cols), "undeclared.tsv", "T", 5), -1);
    ck_err_has("internal error: report section 'probe' writes the table undeclared.tsv, which its row of "
                        "report_sections[] (analysis/report.c) does not declare");
    ck_assert(!exists(dir, "undeclared.tsv"));
    ck_assert_ptr_null(report_open(c, "heatmap.tsv", path, sizeof path));
    ck_err_has("report section 'probe' writes heatmap.tsv, a figure's data");
    ck_assert_ptr_null(report_open(c, "sim/input-baseline.tsv", path, sizeof path));
    ck_err_has("report section 'probe' writes sim/input-baseline.tsv, a figure's data");
    ck_assert(!exists(dir, "heatmap.tsv"));
    ck_assert_ptr_nonnull(fp = report_open(c, "sim/points-other.tsv", path, sizeof path));
    fclose(fp);
    c->declared = NULL; /* no section running: nothing checked */
    ck_assert_ptr_nonnull(fp = report_open(c, "undeclared.tsv", path, sizeof path));
    fclose(fp);
    ck_assert(exists(dir, "declared.tsv") && exists(dir, "fig1-split.tsv"));
    for (int i = 0; i < c->n_tabs; i++)
        table_free(c->tabs[i]);
    free(c);
}
END_TEST

/* Compare every file under a with the one under b (same relative names). Returns the first difference, or
 * NULL when identical. */
static char diff_name[600];
static const char *compare_dirs(const char *a, const char *b, const char *rel)
{
    char pa[1024], pb[1024];
    DIR *d;
    struct dirent *e;
    snprintf(pa, sizeof pa, "%s%s%s", a, *rel ? "/" : "", rel);
    if ((d = opendir(pa)) == NULL)
        return "cannot open directory";
    while ((e = readdir(d)) != NULL) {
        char sub[512], *x, *y;
        size_t lx = 0, ly = 0;
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
        snprintf(pa, sizeof pa, "%s/%s", a, sub);
        snprintf(pb, sizeof pb, "%s/%s", b, sub);
        if (stat(pa, &st) == 0 && S_ISDIR(st.st_mode)) {
            const char *r = compare_dirs(a, b, sub);
            if (r != NULL) {
                closedir(d);
                return r;
            }
            continue;
        }
        x = slurp(a, sub, &lx);
        y = slurp(b, sub, &ly);
        if (x == NULL || y == NULL || lx != ly || memcmp(x, y, lx) != 0) {
            snprintf(diff_name, sizeof diff_name, "%s differs", sub);
            free(x);
            free(y);
            closedir(d);
            return diff_name;
        }
        free(x);
        free(y);
    }
    closedir(d);
    return NULL;
}

START_TEST(test_report_same_seed_same_files)
{
    struct report_options o;
    char r1[600], r2[600], r3[600];
    const char *why;
    char *p1, *p3;
    snprintf(r1, sizeof r1, "%s/r1", tt_tmpdir());
    snprintf(r2, sizeof r2, "%s/r2", tt_tmpdir());
    snprintf(r3, sizeof r3, "%s/r3", tt_tmpdir());
    options(&o, r1);
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    options(&o, r2);
    o.threads = 1; /* the thread count never changes the output */
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    why = compare_dirs(r1, r2, "");
    ck_assert_msg(why == NULL, "%s", why);
    why = compare_dirs(r2, r1, "");
    ck_assert_msg(why == NULL, "%s", why);
    /* another seed gives other simulations */
    options(&o, r3);
    o.seed = 2;
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    p1 = slurp(r1, "sim/points-input.tsv", NULL);
    p3 = slurp(r3, "sim/points-input.tsv", NULL);
    ck_assert(p1 != NULL && p3 != NULL && strcmp(p1, p3) != 0);
    free(p1);
    free(p3);
}
END_TEST

/* Without gnuplot the report fails (exit 1: figures were asked for) and leaves nothing; --no-figures writes every
 * table and page, each figure's place saying it was not asked for. */
START_TEST(test_report_without_gnuplot_fails_unless_no_figures)
{
    struct report_options o;
    char out[600], empty[600], *md, *html, *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    snprintf(out, sizeof out, "%s/r1", tt_tmpdir());
    snprintf(empty, sizeof empty, "%s/emptybin", tt_tmpdir());
    ck_assert_int_eq(mkdir(empty, 0755), 0);
    setenv("PATH", empty, 1);
    options(&o, out);
    o.no_figures = 0;
    ck_assert_int_eq(report_write(&o), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "gnuplot not found"));
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--no-figures"));
    ck_assert_int_eq(access(out, F_OK), -1);
    options(&o, out);
    o.no_figures = 1;
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    if (old != NULL)
        setenv("PATH", old, 1);
    free(old);
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        ck_assert_msg(exists(out, tables[i]), "missing %s", tables[i]);
    ck_assert_int_eq(o.n_missing, 8);
    ck_assert(!exists(out, "fig3-frontier.png"));
    md = slurp(out, "summary.md", NULL);
    html = slurp(out, "index.html", NULL);
    ck_assert_ptr_nonnull(strstr(md, "**Not drawn:** figures were not asked for (--no-figures)"));
    ck_assert_ptr_nonnull(strstr(html, "Not drawn: figures were not asked for (--no-figures)"));
    ck_assert_ptr_null(strstr(html, "<img"));
    free(md);
    free(html);
}
END_TEST

START_TEST(test_report_triton_trace_adds_figure2)
{
    struct report_options o;
    char out[600], *md;
    snprintf(out, sizeof out, "%s/r1", tt_tmpdir());
    options(&o, out);
    o.triton_path = triton_path;
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    ck_assert(exists(out, "fig2-estimate.tsv"));
    if (have_gnuplot) {
        ck_assert(exists(out, "fig2-estimate.png"));
        ck_assert(exists(out, "fig2-estimate.svg"));
        ck_assert_int_eq(o.n_missing, 0);
    }
    md = slurp(out, "summary.md", NULL);
    ck_assert_ptr_nonnull(strstr(md, "Triton's per-execution estimate"));
    free(md);
    /* a fixed-time trace as --triton-trace is bad input */
    options(&o, out);
    o.triton_path = fixture_path;
    ck_assert_int_eq(report_write(&o), REPORT_EBADINPUT);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "triton"));
}
END_TEST

START_TEST(test_report_bad_inputs_leave_output_alone)
{
    struct report_options o;
    char out[600], keep[700], *k;
    FILE *fp;
    snprintf(out, sizeof out, "%s/r1", tt_tmpdir());
    options(&o, out);
    o.trace_path = "/nonexistent/trace.h5";
    ck_assert_int_eq(report_write(&o), REPORT_EBADINPUT);
    ck_assert_int_ne(access(out, F_OK), 0);

    options(&o, out);
    o.input_given = 1;
    o.input_dims[0] = 3;
    snprintf(o.input_label, sizeof o.input_label, "3x256x4096");
    ck_assert_int_eq(report_write(&o), REPORT_EBADINPUT);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--input 3x256x4096"));
    ck_assert_int_ne(access(out, F_OK), 0);

    /* a directory that is not a report is refused and kept as it was */
    ck_assert_int_eq(mkdir(out, 0755), 0);
    snprintf(keep, sizeof keep, "%s/notes.txt", out);
    fp = fopen(keep, "w");
    fputs("mine\n", fp);
    fclose(fp);
    options(&o, out);
    ck_assert_int_eq(report_write(&o), REPORT_EBADINPUT);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "holds 'notes.txt', which tunecost report did not write"));
    k = slurp(out, "notes.txt", NULL);
    ck_assert_str_eq(k, "mine\n");
    free(k);

    /* an earlier report is replaced as a whole; one holding a file the report did not write is refused and kept
     * (util/tc_outdir: the rule of every output directory) */
    unlink(keep);
    options(&o, out);
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    ck_assert(exists(out, "index.html"));
    fp = fopen(keep, "w");
    fputs("mine\n", fp);
    fclose(fp);
    ck_assert_int_eq(report_write(&o), REPORT_EBADINPUT);
    ck_assert_int_eq(access(keep, F_OK), 0);
    ck_assert(exists(out, "index.html"));
}
END_TEST

START_TEST(test_report_interrupted_leaves_nothing)
{
    struct report_options o;
    volatile sig_atomic_t stop = SIGINT;
    char out[600];
    DIR *d;
    struct dirent *e;
    snprintf(out, sizeof out, "%s/r1", tt_tmpdir());
    options(&o, out);
    o.interrupted = &stop;
    ck_assert_int_eq(report_write(&o), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "interrupted"));
    ck_assert_int_ne(access(out, F_OK), 0);
    /* no temporary directory left beside it */
    d = opendir(tt_tmpdir());
    while ((e = readdir(d)) != NULL)
        ck_assert_msg(strstr(e->d_name, ".tmp.") == NULL, "left %s", e->d_name);
    closedir(d);
}
END_TEST

START_TEST(test_report_removes_stale_temporaries)
{
    struct report_options o;
    char out[600], stale[700], live[700];
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        _exit(0);
    waitpid(pid, NULL, 0); /* a process that is gone, as after a SIGKILL */
    snprintf(out, sizeof out, "%s/r1", tt_tmpdir());
    snprintf(stale, sizeof stale, "%s/.r1.tmp.%ld.abcdef", tt_tmpdir(), (long)pid);
    snprintf(live, sizeof live, "%s/.r1.tmp.%ld.abcdef", tt_tmpdir(), (long)getpid());
    ck_assert_int_eq(mkdir(stale, 0755), 0);
    ck_assert_int_eq(mkdir(live, 0755), 0);
    options(&o, out);
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    ck_assert_int_ne(access(stale, F_OK), 0);
    ck_assert_int_eq(access(live, F_OK), 0); /* a running report's temporary is left alone */
    rmdir(live);
}
END_TEST


/* ---- findings: numbers and verdicts ------------------------------------------------------------------------- */

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    ck_assert_ptr_nonnull(fp);
    fputs(text, fp);
    ck_assert_int_eq(fclose(fp), 0);
}

#define ck_has(hay, needle) ck_assert_msg(strstr((hay), (needle)) != NULL, "summary.md lacks: %s", (needle))

/* Defined below, beside the readers of the report's TSV files. */
static void check_words(const char *md);
static void check_small_summary(const char *out);

/* The small hand-built traces (test-tables-fixture.c lists every number) as the report's trace, its second kernel
 * family, its flush study; four compile-scaling files written here. Every expected number below is worked out by
 * hand from those listings. */
static void check_common(const char *out, const char *md);

START_TEST(test_report_findings_small_traces)
{
    struct report_options o;
    char out[600], small[600], v1[600], fdir[600], sdir[600], p[700], *md;
    snprintf(small, sizeof small, "%s/small.h5", tt_tmpdir());
    snprintf(v1, sizeof v1, "%s/small-v1.h5", tt_tmpdir());
    snprintf(fdir, sizeof fdir, "%s/flush", tt_tmpdir());
    snprintf(sdir, sizeof sdir, "%s/scaling", tt_tmpdir());
    ck_assert_int_eq(mkdir(fdir, 0755), 0);
    ck_assert_int_eq(mkdir(sdir, 0755), 0);
    ck_assert_msg(fixture_small(small, 0, 0) == 0, "%s", tc_errmsg());
    ck_assert_msg(fixture_small(v1, 0, 1) == 0, "%s", tc_errmsg());
    snprintf(p, sizeof p, "%s/a-flush-256M.h5", fdir);
    ck_assert_msg(fixture_small(p, 256 << 20, 0) == 0, "%s", tc_errmsg());
    snprintf(p, sizeof p, "%s/b-flush-0.h5", fdir);
    ck_assert_msg(fixture_small(p, 0, 1) == 0, "%s", tc_errmsg());
    /* 10 configurations with 1 and 4 workers; 10 more in two 1-worker parts (4 + 6) and one 8-worker pass */
    snprintf(p, sizeof p, "%s/scaling-a.tsv", sdir);
    write_text(p, "# tunecost collect --compile-only: 10 configurations, sm_90, NVRTC 13.0; wall time\n"
                  "jobs\twall_ms\tspeedup\twarmup_ms_mean\n4\t500.0\t2.000\t1\n1\t1000.0\t1.000\t1\n");
    snprintf(p, sizeof p, "%s/scaling-p1.tsv", sdir);
    write_text(p, "# tunecost collect --compile-only: 4 configurations, sm_90, NVRTC 13.0; wall time\n"
                  "jobs\twall_ms\tspeedup\twarmup_ms_mean\n1\t300.0\t1.000\t1\n");
    snprintf(p, sizeof p, "%s/scaling-p2.tsv", sdir);
    write_text(p, "# tunecost collect --compile-only: 6 configurations, sm_90, NVRTC 13.0; wall time\n"
                  "jobs\twall_ms\tspeedup\twarmup_ms_mean\n1\t500.0\t1.000\t1\n");
    snprintf(p, sizeof p, "%s/scaling-whole.tsv", sdir);
    write_text(p, "# tunecost collect --compile-only: 10 configurations, sm_90, NVRTC 13.0; wall time\n"
                  "jobs\twall_ms\tspeedup\twarmup_ms_mean\n8\t200.0\tnan\t1\n");

    snprintf(out, sizeof out, "%s/r1", tt_tmpdir());
    options(&o, out);
    o.trace_path = small;
    o.compare_path = v1;
    o.flush_dir = fdir;
    o.scaling_dir = sdir;
    o.samples = 20;
    o.runs = 3;
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    md = slurp(out, "summary.md", NULL);
    ck_assert_ptr_nonnull(md);

    /* Figure 1: repetition 6 + 8 + 1.8 = 15.8 ms, overhead 4 + 12 + 3.2 = 19.2 ms, compilation of every
     * configuration on each input, the failing ones included (100 + 200 + 50 per input) = 700 ms of 735 ms: 2.1%,
     * 2.6%, 95.2%; no input has overhead above half; both inputs' mean wall (15 ms, 5 ms) < 125 ms. */
    ck_has(md, "compilation 95%, repetition 2%, overhead 3%; overhead exceeds half of an input's tuning time on 0 of 2 "
               "inputs");
    /* cuBLAS: input 0 best = config 1, median (1 + 2) / 2 = 1.5 ms vs 2.0 ms: 1.333; input 1 has no reference */
    ck_has(md, "reaches a median 133% of cuBLAS's TFLOP/s (range 133%-133% over 1 inputs) and matches or beats it "
               "on 1.");
    ck_has(md, "1 of 3 configurations fail; the most common reason (1): out of resources: too much shared memory.");
    /* flush study: totals (wall + compile + load) 36 + 350 + 3 = 389 ms and 18 + 353 = 371 ms: 1.05x; flush 4 x 0.5
     * = 2 ms of GPU time against 11 + 17 + 1.8 = 29.8 ms of GEMMs (6%); best changes on input 0 (config 1 -> 0,
     * 1.5 -> 1.0 ms: 33.3%), not on input 1 (0%): median 16.7% */
    ck_has(md, "**L2 flush study** (Tables 3 and 5, 2 collections of 2 inputs): with flush_bytes 0 collecting is 1.05x "
               "faster than with 268435456, whose flushes take 6% of GPU time; the best configuration changes on 1 of "
               "2 inputs (flush-study.tsv).");
    ck_assert(exists(out, "flush-study.tsv"));
    /* scaling: 1000 / 500 ms = 2.00x with 4 workers; (300 + 500) / 200 = 4.00x with 8, from the two parts */
    ck_has(md, "8 workers compile 10 configurations 4.00x faster than one (0.8 s -> 0.2 s, efficiency 0.50, "
               "scaling-whole.tsv); every pass in compile-scaling.tsv.");
    ck_assert(exists(out, "compile-scaling.tsv"));
    /* two families: best vs cuBLAS 2.0 / 1.5 = 1.33 vs 2.0 / 1.0 = 2.00; the second is faster on input 0 (1.0 vs
     * 1.5 ms), equal on input 1: faster on 0 of 2, median ratio (0.667 + 1) / 2 = 0.83; a random valid
     * configuration reaches median(0.75, 1) = 0.875 and 1 (mean 0.94) vs median(1, 0.667) = 0.833 and 1 (0.92):
     * tuning buys 1 / 0.9375 = 1.07x vs 1 / 0.9167 = 1.09x; compilation, the failing configuration's included,
     * 700 / 735 = 95% vs 700 / 717.5 = 98% */
    ck_has(md, "(small.h5 vs small-v1.h5, 2 inputs, sequential compilation, shared draws, seeds 1-3): median best "
               "1.33 vs 2.00 of cuBLAS; ");
    check_small_summary(out);
    /* and what each trace lacks: in both hand-built traces no configuration has an isolated compile time (3
     * configurations x 2 inputs = 6 pairs); 3 pairs fail (the out-of-resources configuration on both inputs, the
     * launch error of configuration 1 on input 1), and each has its configuration's compile time (50, 200 ms) */
    ck_has(md, "small.h5 lacks the isolated compile time of 6 of 6 pairs and the compile time of 0 of 3 failing ones");
    ck_has(md, "small-v1.h5 lacks the isolated compile time of 6 of 6 pairs and the compile time of 0 of 3 failing "
               "ones");
    check_common(out, md);
    check_words(md);
    ck_assert(exists(out, "landscapes.tsv"));
    ck_assert(exists(out, "landscapes-summary.tsv"));
    ck_assert(exists(out, "sim/compare-baseline-frontier.tsv"));
    free(md);
}
END_TEST

/* Without the studies each section is left out with a finding that says so, and no file of theirs is written. */
START_TEST(test_report_studies_absent_noted)
{
    struct report_options o;
    char out[600], *md;
    snprintf(out, sizeof out, "%s/r1", tt_tmpdir());
    options(&o, out);
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    md = slurp(out, "summary.md", NULL);
    ck_has(md, "No L2 flush study was given (--flush-study DIR");
    ck_has(md, "No compile-scaling study was given (--scaling DIR");
    ck_has(md, "No trace of a second kernel family was given (--compare-trace");
    ck_assert(!exists(out, "flush-study.tsv"));
    ck_assert(!exists(out, "compile-scaling.tsv"));
    ck_assert(!exists(out, "landscapes.tsv"));
    ck_assert_int_eq(o.n_figures, 8); /* the landscapes figure goes with its section */
    free(md);
    /* a study that is there but unusable is bad input, named */
    options(&o, out);
    o.scaling_dir = tt_tmpdir(); /* holds traces, no scaling-*.tsv */
    ck_assert_int_eq(report_write(&o), REPORT_EBADINPUT);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--scaling"));
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "no scaling-*.tsv"));
    options(&o, out);
    o.compare_path = "/nonexistent/other.h5";
    ck_assert_int_eq(report_write(&o), REPORT_EBADINPUT);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "--compare-trace"));
}
END_TEST

/* A TSV written by the report as text cells: cell (row, column `name`), rows in file order; NULL past the end. */
struct tsv {
    char *text;
    char **cell; /* n_rows x n_cols */
    char *names[64];
    int n_rows, n_cols;
};

static void tsv_read(const char *d, const char *file, struct tsv *t)
{
    char *line, *save = NULL;
    int cap = 0;
    memset(t, 0, sizeof *t);
    t->text = slurp(d, file, NULL);
    ck_assert_msg(t->text != NULL, "cannot read %s", file);
    for (line = strtok_r(t->text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
        char *f, *s2 = NULL;
        int k = 0;
        if (line[0] == '#')
            continue;
        if (t->n_cols == 0) {
            for (f = strtok_r(line, "\t", &s2); f != NULL && t->n_cols < 64; f = strtok_r(NULL, "\t", &s2))
                t->names[t->n_cols++] = f;
            continue;
        }
        if ((t->n_rows + 1) * t->n_cols > cap) {
            cap = cap ? 2 * cap : 64 * t->n_cols;
            t->cell = realloc(t->cell, (size_t)cap * sizeof *t->cell);
            ck_assert_ptr_nonnull(t->cell);
        }
        for (f = line; k < t->n_cols; k++) { /* empty cells kept: split on every tab */
            char *tab = f != NULL ? strchr(f, '\t') : NULL;
            if (tab != NULL)
                *tab = '\0';
            t->cell[t->n_rows * t->n_cols + k] = f != NULL ? f : "";
            f = tab != NULL ? tab + 1 : NULL;
        }
        t->n_rows++;
    }
}

static const char *tsv_cell(const struct tsv *t, int row, const char *name)
{
    for (int k = 0; k < t->n_cols; k++)
        if (strcmp(t->names[k], name) == 0)
            return t->cell[row * t->n_cols + k];
    ck_abort_msg("no column %s", name);
    return NULL;
}

static double tsv_num(const struct tsv *t, int row, const char *name)
{
    return strtod(tsv_cell(t, row, name), NULL);
}

static void tsv_free(struct tsv *t)
{
    free(t->cell);
    free(t->text);
}

/* eta squared computed here (10 equal-width bins of x over [lo, hi]), independently of analysis/. */
static double my_eta2(const double *x, const double *y, int n, double lo, double hi)
{
    int nb = hi - lo + 1 < 10 ? (int)(hi - lo + 1) : 10, cnt[10] = {0};
    double sum[10] = {0}, mean = 0, tot = 0, btw = 0;
    for (int i = 0; i < n; i++)
        mean += y[i] / n;
    for (int i = 0; i < n; i++) {
        int b = (int)((x[i] - lo) / (hi - lo + 1) * nb);
        b = b < 0 ? 0 : b >= nb ? nb - 1 : b;
        cnt[b]++, sum[b] += y[i], tot += (y[i] - mean) * (y[i] - mean);
    }
    for (int b = 0; b < nb; b++)
        if (cnt[b])
            btw += cnt[b] * (sum[b] / cnt[b] - mean) * (sum[b] / cnt[b] - mean);
    return btw / tot;
}

/* Spearman's rho with average ranks for ties, computed here. */
static void ranks(const double *v, int n, double *r)
{
    for (int i = 0; i < n; i++) {
        int less = 0, same = 0;
        for (int j = 0; j < n; j++)
            less += v[j] < v[i], same += v[j] == v[i];
        r[i] = less + (same + 1) / 2.0;
    }
}

static double my_spearman(const double *a, const double *b, int n)
{
    double *ra = malloc((size_t)n * sizeof *ra), *rb = malloc((size_t)n * sizeof *rb), ma = 0, mb = 0, sab = 0,
           saa = 0, sbb = 0;
    ranks(a, n, ra);
    ranks(b, n, rb);
    for (int i = 0; i < n; i++)
        ma += ra[i] / n, mb += rb[i] / n;
    for (int i = 0; i < n; i++)
        sab += (ra[i] - ma) * (rb[i] - mb), saa += (ra[i] - ma) * (ra[i] - ma), sbb += (rb[i] - mb) * (rb[i] - mb);
    free(ra);
    free(rb);
    return sab / sqrt(saa * sbb);
}

/* Row of stability.tsv for (verdict, model, measure). */
static int stab_find(const struct tsv *t, const char *verdict, const char *model, const char *measure)
{
    for (int i = 0; i < t->n_rows; i++)
        if (strcmp(tsv_cell(t, i, "verdict"), verdict) == 0 && strcmp(tsv_cell(t, i, "model"), model) == 0 &&
            strcmp(tsv_cell(t, i, "measure"), measure) == 0)
            return i;
    ck_abort_msg("stability.tsv: no %s %s %s", verdict, model, measure);
    return -1;
}

/* The 95% CI of the mean of three independent replicates: t(0.975, 2) = 4.302652729911275 (Student's t table). */
static void ci3(const double v[3], double *mean, double *lo, double *hi)
{
    double m = (v[0] + v[1] + v[2]) / 3, sd = sqrt(((v[0] - m) * (v[0] - m) + (v[1] - m) * (v[1] - m) +
                                                    (v[2] - m) * (v[2] - m)) / 2);
    *mean = m;
    *lo = m - 4.302652729911275 * sd / sqrt(3.0);
    *hi = m + 4.302652729911275 * sd / sqrt(3.0);
}

/* Whether a stability row has a verdict, recomputed here from its three seed values (not from `stable`): a ratio
 * (early-stop, parallel-compile: 0.9 / 1.1) or the frontier's rho (-0.3 / 0.3) by its CI over the seeds lying clear
 * of the thresholds; eta squared and time-to-target by the three seeds' categories agreeing. The `category`,
 * `mean`, `ci_*` and `stable` columns are checked against it. */
static int stab_agrees(const struct tsv *t, int row)
{
    const char *verdict = tsv_cell(t, row, "verdict"), *c1 = tsv_cell(t, row, "category_1"), *want;
    double v[3] = {tsv_num(t, row, "seed_1"), tsv_num(t, row, "seed_2"), tsv_num(t, row, "seed_3")}, m, lo, hi;
    int floor_ratio = strcmp(tsv_cell(t, row, "measure"), "speedup_ratio_short_long") == 0;
    if (strcmp(verdict, "exec-time") == 0 || strcmp(verdict, "time-to-target") == 0 ||
        (strcmp(verdict, "exec-time-floor") == 0 && !floor_ratio)) {
        int same = strcmp(c1, tsv_cell(t, row, "category_2")) == 0 && strcmp(c1, tsv_cell(t, row, "category_3")) == 0 &&
                   strcmp(c1, "n/a") != 0;
        want = same ? c1 : "no verdict";
    } else {
        /* labels below / within / above the thresholds */
        static const char *const lab[3][3] = {{"costs time", "none", "saves time"},
                                              {"falls", "looks random", "rises"},
                                              {"short repetitions pick slower kernels", "no measurable loss",
                                               "short repetitions pick faster kernels"}};
        int kind = floor_ratio ? 2 : strcmp(verdict, "exec-time-frontier") == 0 ? 1 : 0;
        double tl = kind == 2 ? 0.98 : kind == 1 ? -0.3 : 0.9, th = kind == 2 ? 1.02 : kind == 1 ? 0.3 : 1.1;
        ci3(v, &m, &lo, &hi);
        if (isfinite(m)) {
            ck_assert_double_eq_tol(tsv_num(t, row, "mean"), m, 1e-4);
            ck_assert_double_eq_tol(tsv_num(t, row, "ci_lo"), lo, 1e-4);
            ck_assert_double_eq_tol(tsv_num(t, row, "ci_hi"), hi, 1e-4);
        }
        want = !isfinite(lo) ? "no verdict" : lo > th ? lab[kind][2] : hi < tl ? lab[kind][0]
               : lo >= tl && hi <= th ? lab[kind][1] : "no verdict";
    }
    ck_assert_str_eq(tsv_cell(t, row, "category"), want);
    ck_assert_int_eq((int)tsv_num(t, row, "stable"), strcmp(want, "no verdict") != 0);
    return strcmp(want, "no verdict") != 0;
}


/* Row of a long-format re-evaluated table (time-to-target-*.tsv) for (target, scenario). */
static int est_find(const struct tsv *t, const char *first, double v, const char *scenario)
{
    for (int i = 0; i < t->n_rows; i++)
        if (fabs(tsv_num(t, i, first) - v) < 1e-9 && strcmp(tsv_cell(t, i, "scenario"), scenario) == 0)
            return i;
    ck_abort_msg("no row %s %g %s", first, v, scenario);
    return -1;
}

static void time_text(const struct tsv *t, int row, char *buf, size_t len)
{
    if (isfinite(tsv_num(t, row, "time_s")))
        snprintf(buf, len, "%.2f s (95%% CI %.2f-%.2f)", tsv_num(t, row, "time_s"), tsv_num(t, row, "time_s_lo"),
                 tsv_num(t, row, "time_s_hi"));
    else if (isfinite(tsv_num(t, row, "speedup")) && isfinite(tsv_num(t, row, "fresh_time_s")))
        snprintf(buf, len, "not reached (%.4f, %.2f s)", tsv_num(t, row, "speedup"), tsv_num(t, row, "fresh_time_s"));
    else
        snprintf(buf, len, "never");
}

/* The held-out rule: every time to target of a re-evaluated table has its fresh runs' mean speedup at or above the
 * target (recomputed from the TSV), and a row short of it has no time but its best attained and when. */
static void check_held_out(const char *out, const char *file)
{
    struct tsv t;
    tsv_read(out, file, &t);
    for (int i = 0; i < t.n_rows; i++) {
        double target = tsv_num(&t, i, "target_speedup"), sp = tsv_num(&t, i, "speedup");
        if (isfinite(tsv_num(&t, i, "time_s")))
            ck_assert_msg(sp >= target, "%s row %d: time %g s for target %g but fresh mean %g", file, i,
                          tsv_num(&t, i, "time_s"), target, sp);
        else if (tsv_num(&t, i, "sample") >= 0)
            ck_assert(sp < target && isfinite(tsv_num(&t, i, "fresh_time_s")));
    }
    tsv_free(&t);
}

/* Each time-to-target row's sample is the cheapest of its scenario's simulated samples (sim/SET-SCENARIO.tsv)
 * whose 95% CI lower bound of speedup reaches the target, and sel_* are that sample's numbers there. */
static void check_selection(const char *out, const char *file, const char *set)
{
    struct tsv t;
    tsv_read(out, file, &t);
    ck_assert_int_gt(t.n_rows, 0);
    for (int i = 0; i < t.n_rows; i++) {
        char name[128];
        struct tsv p;
        int best = -1;
        double target = tsv_num(&t, i, "target_speedup");
        const char *by = tsv_cell(&t, i, "chosen_by");
        snprintf(name, sizeof name, "sim/%s-%s.tsv", set, tsv_cell(&t, i, "scenario"));
        tsv_read(out, name, &p);
        for (int j = 0; j < p.n_rows; j++)
            if (tsv_num(&p, j, "speedup_lo") >= target &&
                (best < 0 || tsv_num(&p, j, "time_s") < tsv_num(&p, best, "time_s")))
                best = j;
        if (best < 0 && strcmp(by, "own") == 0) {
            ck_assert_int_eq((int)tsv_num(&t, i, "sample"), -1);
            ck_assert(isnan(tsv_num(&t, i, "time_s")));
        } else if (strcmp(by, "own") == 0) {
            ck_assert_int_eq((int)tsv_num(&t, i, "sample"), (int)tsv_num(&p, best, "sample"));
            ck_assert_double_eq_tol(tsv_num(&t, i, "sel_time_s"), tsv_num(&p, best, "time_s"), 1e-3);
        } else if (strncmp(by, "sample for ", 11) == 0) {
            /* the higher target's row of the same scenario, copied whole: its fresh mean reaches this target */
            int h = est_find(&t, "target_speedup", strtod(by + 11, NULL), tsv_cell(&t, i, "scenario"));
            ck_assert(strtod(by + 11, NULL) > target);
            ck_assert_int_eq((int)tsv_num(&t, i, "sample"), (int)tsv_num(&t, h, "sample"));
            ck_assert_double_eq_tol(tsv_num(&t, i, "time_s"), tsv_num(&t, h, "time_s"), 1e-9);
        } else {
            /* pipelined short of the target: parallel's sample, replayed on the same fresh draws, never longer */
            int q = est_find(&t, "target_speedup", target, "parallel");
            ck_assert_str_eq(by, "parallel's sample");
            ck_assert_str_eq(tsv_cell(&t, i, "scenario"), "pipelined");
            ck_assert_int_eq((int)tsv_num(&t, i, "sample"), (int)tsv_num(&t, q, "sample"));
            ck_assert(tsv_num(&t, i, "time_s") <= tsv_num(&t, q, "time_s") + 1e-9);
        }
        if (isfinite(tsv_num(&t, i, "time_s")))
            ck_assert(tsv_num(&t, i, "time_s_lo") <= tsv_num(&t, i, "time_s") &&
                      tsv_num(&t, i, "time_s") <= tsv_num(&t, i, "time_s_hi"));
        /* one selection for every target: a time to a lower target is never above a higher target's */
        for (int j = 0; j < t.n_rows; j++)
            if (strcmp(tsv_cell(&t, j, "scenario"), tsv_cell(&t, i, "scenario")) == 0 &&
                tsv_num(&t, j, "target_speedup") > target && isfinite(tsv_num(&t, j, "time_s")))
                ck_assert_msg(isfinite(tsv_num(&t, i, "time_s")) &&
                                  tsv_num(&t, i, "time_s") <= tsv_num(&t, j, "time_s") + 1e-9,
                              "%s: %s reaches %.2f after %g s but %.2f after %g s", file, tsv_cell(&t, i, "scenario"),
                              tsv_num(&t, j, "target_speedup"), tsv_num(&t, j, "time_s"), target,
                              tsv_num(&t, i, "time_s"));
        tsv_free(&p);
    }
    tsv_free(&t);
}

static const char *const models3[4] = {"sequential", "parallel", "pipelined", "ideal"};
#define N_MODELS3 4

/* Knobs: seed 1's eta squared per model from the simulation's own points (sim/input-*.tsv replay the same draws),
 * and the sentence the finding prints from stability.tsv. */
/* The short form of the knobs finding (N_CONFIG decides under every model on every seed): the lowest N_CONFIG and
 * highest EXEC_TIME eta squared over the models and seeds of stability.tsv. 1 when the summary has that form. */
static int check_knobs_short(const char *md, const struct tsv *st)
{
    char want[512];
    double lo = INFINITY, hi = -INFINITY;
    if (strstr(md, "**N_CONFIG decides, EXEC_TIME hardly matters** (") == NULL)
        return 0;
    for (int i = 0; i < st->n_rows; i++) {
        const char *me = tsv_cell(st, i, "measure");
        int nc = strcmp(me, "eta2_n_config") == 0 || strcmp(me, "eta2_time_n_config") == 0;
        int ex = strcmp(me, "eta2_exec_time") == 0 || strcmp(me, "eta2_time_exec_time") == 0;
        if (strcmp(tsv_cell(st, i, "verdict"), "exec-time") != 0 || (!nc && !ex) ||
            (strcmp(me, "eta2_n_config") == 0 && strcmp(tsv_cell(st, i, "model"), "sequential") != 0) ||
            (strcmp(me, "eta2_exec_time") == 0 && strcmp(tsv_cell(st, i, "model"), "sequential") != 0))
            continue;
        for (int k = 1; k <= 3; k++) {
            char col[16];
            snprintf(col, sizeof col, "seed_%d", k);
            double v = tsv_num(st, i, col);
            if (nc && v < lo)
                lo = v;
            if (ex && v > hi)
                hi = v;
        }
        if (nc)
            ck_assert_str_eq(tsv_cell(st, i, "category_1"), "N_CONFIG decides");
    }
    snprintf(want, sizeof want, "N_CONFIG explains at least %.2f of the variance of the tuned kernel's ", lo);
    ck_has(md, want);
    snprintf(want, sizeof want, " and tuning time, EXEC_TIME at most %.2f (eta squared, stability.tsv).", hi);
    ck_has(md, want);
    return 1;
}

static void check_knobs(const char *out, const char *md, const struct tsv *st)
{
    /* the single-input simulation's scenario of each model (the ideal model is not one of them) */
    static const char *const sim_of[N_MODELS3] = {"sim/input-baseline.tsv", "sim/input-parallel.tsv",
                                                  "sim/input-pipelined.tsv", NULL};
    char want[1024];
    for (int m = 0; m < N_MODELS3; m++) {
        struct tsv pts = {0};
        int r1 = stab_find(st, "exec-time", models3[m], "eta2_time_n_config");
        int r2 = stab_find(st, "exec-time", models3[m], "eta2_time_exec_time");
        if (sim_of[m] != NULL)
            tsv_read(out, sim_of[m], &pts);
        double *x1 = malloc((size_t)pts.n_rows * sizeof *x1), *x2 = malloc((size_t)pts.n_rows * sizeof *x2);
        double *y = malloc((size_t)pts.n_rows * sizeof *y), *tm = malloc((size_t)pts.n_rows * sizeof *tm);
        for (int i = 0; i < pts.n_rows; i++) {
            x1[i] = tsv_num(&pts, i, "n_config");
            x2[i] = tsv_num(&pts, i, "exec_ms");
            y[i] = tsv_num(&pts, i, "tflops");
            tm[i] = tsv_num(&pts, i, "time_s");
        }
        if (pts.n_rows > 0) {
            ck_assert_double_eq_tol(tsv_num(st, stab_find(st, "exec-time", models3[m], "eta2_n_config"), "seed_1"),
                                    my_eta2(x1, y, pts.n_rows, 1, 80), 1e-4);
            ck_assert_double_eq_tol(tsv_num(st, stab_find(st, "exec-time", models3[m], "eta2_exec_time"), "seed_1"),
                                    my_eta2(x2, y, pts.n_rows, 10, 100), 1e-4);
        }
        if (pts.n_rows > 0) {
            ck_assert_double_eq_tol(tsv_num(st, r1, "seed_1"), my_eta2(x1, tm, pts.n_rows, 1, 80), 1e-4);
            ck_assert_double_eq_tol(tsv_num(st, r2, "seed_1"), my_eta2(x2, tm, pts.n_rows, 10, 100), 1e-4);
        }
        if (check_knobs_short(md, st))
            want[0] = '\0'; /* checked there */
        else { /* the long form: the tuned kernel's verdict (sequential's rows), tuning time's left to the TSV */
            int rp = stab_find(st, "exec-time", "sequential", "eta2_n_config");
            snprintf(want, sizeof want, "**N_CONFIG does not decide everywhere** (4096x256x4096, EXEC_TIME 10-100 ms, "
                     "seeds 1-3): for the tuned kernel's TFLOP/s, %s; ", stab_agrees(st, rp) ?
                     tsv_cell(st, rp, "category") : "no verdict");
        }
        ck_has(md, want);
        free(x1), free(x2), free(y), free(tm);
        if (sim_of[m] != NULL)
            tsv_free(&pts);
    }
}

/* Frontier: N_CONFIG's rho recomputed from Table 6. */
static void check_frontier(const char *out, const char *md)
{
    struct tsv t6;
    char want[256];
    tsv_read(out, "table6-frontier.tsv", &t6);
    ck_assert_int_ge(t6.n_rows, 3);
    double *tt = calloc((size_t)t6.n_rows, sizeof *tt), *nc = calloc((size_t)t6.n_rows, sizeof *nc);
    for (int i = 0; i < t6.n_rows; i++)
        tt[i] = tsv_num(&t6, i, "time_s"), nc[i] = tsv_num(&t6, i, "n_config");
    snprintf(want, sizeof want, "(%d points, Table 6) N_CONFIG rises with tuning time (Spearman rho %.2f)", t6.n_rows,
             my_spearman(tt, nc, t6.n_rows));
    ck_has(md, want);
    { /* EXEC_TIME's trend: the verdict of stability.tsv with the CI over the three seeds recomputed */
        struct tsv st;
        double v[3], m, lo, hi;
        tsv_read(out, "stability.tsv", &st);
        int r = stab_find(&st, "exec-time-frontier", "sequential", "spearman_rho");
        for (int k = 0; k < 3; k++) {
            char col[16];
            snprintf(col, sizeof col, "seed_%d", k + 1);
            v[k] = tsv_num(&st, r, col);
        }
        ci3(v, &m, &lo, &hi);
        snprintf(want, sizeof want, "EXEC_TIME %s (rho mean %.2f, 95%% CI %.2f to %.2f over seeds 1-3, stability.tsv).",
                 stab_agrees(&st, r) ? tsv_cell(&st, r, "category") : "has no settled trend", m, lo, hi);
        ck_has(md, want);
        tsv_free(&st);
    }
    free(tt), free(nc);
    tsv_free(&t6);
}

/* What the tuner reaches, from the three seeds of stability.tsv: per seed the cheapest sample whose fresh runs
 * confirm the target. Seed 1 is checked against time-to-target-input.tsv: where that row's sample (the cheapest
 * whose CI lower bound reaches the target) is confirmed by its fresh runs (their CI's upper bound reaches the
 * target), it is seed 1's, with the same time (same sample, same fresh-run seed); otherwise seed 1's is a dearer
 * sample or none. The models at 0.95 from time-to-target-input.tsv. */
static void check_input_times(const char *md, const struct tsv *ti, const struct tsv *st)
{
    static const char *const sc[4] = {"baseline", "per-exec", "pipelined", "parallel"};
    static const double target[2] = {0.90, 0.98};
    static const char *const meas[2] = {"time_s_0.90", "time_s_0.98"};
    char want[1600], part[2][512], t4[4][96];
    for (int k = 0; k < 2; k++) {
        int r = est_find(ti, "target_speedup", target[k], "baseline");
        int q = stab_find(st, "time-to-target", "sequential", meas[k]);
        double v[3] = {tsv_num(st, q, "seed_1"), tsv_num(st, q, "seed_2"), tsv_num(st, q, "seed_3")}, m, lo, hi;
        double t1 = tsv_num(ti, r, "time_s");
        int reached = isfinite(v[0]) + isfinite(v[1]) + isfinite(v[2]);
        char t1s[160];
        /* seed 1 is the table's row, the report's one selection (rules in report_ttt_set, checked by
         * check_selection): the same time, or not reached on both */
        ck_assert(isfinite(t1) == (tsv_num(ti, r, "speedup") >= target[k]));
        ck_assert(isfinite(t1) ? fabs(v[0] - t1) < 1e-6 : isnan(v[0]));
        time_text(ti, r, t1s, sizeof t1s);
        ci3(v, &m, &lo, &hi);
        if (reached == 3)
            snprintf(part[k], sizeof part[k], "%.0f%% after %.2f s (mean of seeds 1-3, 95%% CI %.2f-%.2f)",
                     100 * target[k], m, lo, hi);
        else if (reached == 0)
            snprintf(part[k], sizeof part[k], "%.0f%% on no seed (the report's seed 1: %s)", 100 * target[k], t1s);
        else
            snprintf(part[k], sizeof part[k], "%.0f%% on %d of seeds 1-3 only, no verdict", 100 * target[k], reached);
        ck_assert_int_eq(stab_agrees(st, q), reached == 0 || reached == 3);
    }
    snprintf(want, sizeof want, "the paper's tuner (sequential compilation) reaches %s and %s (time-to-target-input.tsv, "
             "stability.tsv).", part[0], part[1]);
    ck_has(md, want);
    /* the models at 0.95: stability.tsv's rows over seeds 1-3, the mean and its CI where all three reach it; seed 1
     * of sequential and parallel (the same scenario index in both simulations) is time-to-target-input.tsv's */
    static const char *const model[4] = {"sequential", "per-exec", "pipelined", "parallel"};
    static const char *const label[4] = {"sequential", "per-exec overhead", "16 pipelined workers",
                                         "16 parallel workers"};
    for (int k = 0; k < 4; k++) {
        int q = stab_find(st, "time-to-target", model[k], "time_s_0.95");
        double v[3] = {tsv_num(st, q, "seed_1"), tsv_num(st, q, "seed_2"), tsv_num(st, q, "seed_3")}, m, lo, hi;
        int reached = isfinite(v[0]) + isfinite(v[1]) + isfinite(v[2]);
        if (k == 0 || k == 3) {
            double t1 = tsv_num(ti, est_find(ti, "target_speedup", 0.95, sc[k]), "time_s");
            ck_assert(isfinite(t1) ? fabs(v[0] - t1) < 1e-6 : isnan(v[0]));
        }
        ci3(v, &m, &lo, &hi);
        if (reached == 3)
            snprintf(t4[k], sizeof t4[k], "%s %.2f s (95%% CI %.2f-%.2f)", label[k], m, lo, hi);
        else
            snprintf(t4[k], sizeof t4[k], "%s %s", label[k],
                     reached == 0 ? "not reached" : reached == 1 ? "on 1 seed only" : "on 2 seeds only");
    }
    snprintf(want, sizeof want, "(4096x256x4096, 0.95 of optimal, mean of seeds 1-3, fresh runs): %s, %s, %s, %s "
             "(stability.tsv).", t4[0], t4[1], t4[2], t4[3]);
    ck_has(md, want);
}

/* Parallel compilation and early stopping: the time ratios of stability.tsv recomputed from verdicts.tsv's seed 1
 * times; the sentences from the paired rows of stability.tsv (each seed's own CI, the verdict where seeds 1, 2, 3
 * agree), compilation's and repetition's shares summed here over fig1-split.tsv, and early stopping's largest gain
 * found here among early-stop-conditions.tsv's rows. */
static void check_verdicts(const char *out, const char *md, const struct tsv *st, const struct tsv *vt)
{
    struct tsv sp, ec;
    char want[1024], pays[128] = "";
    double t95[N_MODELS3][2], rep = 0, all = 0, cmp = 0;
    int n_pay = 0, top = -1;
    for (int i = 0; i < vt->n_rows; i++)
        if (tsv_num(vt, i, "seed_index") == 1 && fabs(tsv_num(vt, i, "target_speedup") - 0.95) < 1e-9)
            for (int m = 0; m < N_MODELS3; m++)
                if (strcmp(tsv_cell(vt, i, "model"), models3[m]) == 0)
                    t95[m][(int)tsv_num(vt, i, "early_stop")] = tsv_num(vt, i, "time_s");
    for (int m = 0; m < N_MODELS3; m++) {
        int r = stab_find(st, "early-stop", models3[m], "time_ratio_0.95");
        if (isfinite(t95[m][0] / t95[m][1]))
            ck_assert_double_eq_tol(tsv_num(st, r, "seed_1"), t95[m][0] / t95[m][1], 1e-9);
        if (m > 0) {
            r = stab_find(st, "parallel-compile", models3[m], "time_ratio_0.95");
            if (isfinite(t95[0][0] / t95[m][0]))
                ck_assert_double_eq_tol(tsv_num(st, r, "seed_1"), t95[0][0] / t95[m][0], 1e-9);
        }
        r = stab_find(st, "early-stop", models3[m], "paired_time_ratio");
        ck_assert(tsv_num(st, r, "seed_1_lo") <= tsv_num(st, r, "seed_1") &&
                  tsv_num(st, r, "seed_1") <= tsv_num(st, r, "seed_1_hi"));
        if (stab_agrees(st, r) && strcmp(tsv_cell(st, r, "category"), "saves time") == 0) {
            size_t at = strlen(pays);
            snprintf(pays + at, sizeof pays - at, "%s%s", n_pay++ ? ", " : "", models3[m]);
        }
    }
    tsv_read(out, "fig1-split.tsv", &sp);
    for (int i = 0; i < sp.n_rows; i++) {
        rep += tsv_num(&sp, i, "repetition_ms");
        cmp += tsv_num(&sp, i, "compile_ms");
        all += tsv_num(&sp, i, "repetition_ms") + tsv_num(&sp, i, "overhead_ms") + tsv_num(&sp, i, "compile_ms");
    }
    { /* parallel compilation: list-scheduled, paired */
        int r = stab_find(st, "parallel-compile", "parallel", "paired_time_ratio");
        if (stab_agrees(st, r) && strcmp(tsv_cell(st, r, "category"), "saves time") == 0)
            snprintf(want, sizeof want, "**Parallel compilation pays** (16 list-scheduled workers, all inputs, shared "
                     "draws, seeds 1-3): compilation is %.0f%% of tuning time, so the workers cut it %.2fx (95%% CI "
                     "%.2f-%.2f) on seed 1; every model in stability.tsv.", 100 * cmp / all, tsv_num(st, r, "seed_1"),
                     tsv_num(st, r, "seed_1_lo"), tsv_num(st, r, "seed_1_hi"));
        else
            snprintf(want, sizeof want, "sequential / parallel %.2fx (95%% CI %.2f-%.2f) on seed 1, as compilation is "
                     "only %.0f%% of tuning time", tsv_num(st, r, "seed_1"), tsv_num(st, r, "seed_1_lo"),
                     tsv_num(st, r, "seed_1_hi"), 100 * cmp / all);
        ck_has(md, want);
    }
    tsv_read(out, "early-stop-conditions.tsv", &ec);
    ck_assert_int_eq(ec.n_rows, 12);
    for (int i = 0; i < ec.n_rows; i++)
        if (isfinite(tsv_num(&ec, i, "time_ratio")) &&
            (top < 0 || tsv_num(&ec, i, "time_ratio") > tsv_num(&ec, top, "time_ratio")))
            top = i;
    ck_assert_int_ge(top, 0);
    snprintf(want, sizeof want, "%s%s** (all inputs, paired, seeds 1-3): it cuts only repetition, %.0f%% of tuning "
             "time, while compilation is %.0f%%; its largest gain, %.3fx (95%% CI %.3f-%.3f), is at EXEC_TIME %.0f ms "
             "and more under %s (early-stop-conditions.tsv).", n_pay ? "Early stopping pays only under " :
             "Early stopping does not pay at these settings", pays, 100 * rep / all, 100 * cmp / all,
             tsv_num(&ec, top, "time_ratio"), tsv_num(&ec, top, "ratio_lo"), tsv_num(&ec, top, "ratio_hi"),
             tsv_num(&ec, top, "exec_ms_lo"), tsv_cell(&ec, top, "model"));
    ck_has(md, want);
    tsv_free(&ec);
    tsv_free(&sp);
}

/* The hand-built families' landscapes-summary.tsv: a random valid configuration reaches median(0.75, 1) = 0.875 and 1
 * (mean 0.94) vs median(1, 0.667) = 0.833 and 1 (0.92); compilation, the failing configuration's included, 700 /
 * 735 = 95% vs 700 / 717.5 = 98%. */
static void check_small_summary(const char *out)
{
    struct tsv ls;
    tsv_read(out, "landscapes-summary.tsv", &ls);
    ck_assert_int_eq(ls.n_rows, 2);
    ck_assert_double_eq_tol(tsv_num(&ls, 0, "median_typical_rel"), 0.9375, 5e-3);
    ck_assert_double_eq_tol(tsv_num(&ls, 1, "median_typical_rel"), 0.9167, 5e-3);
    ck_assert_double_eq_tol(tsv_num(&ls, 0, "compile_pct"), 100 * 700 / 735.0, 0.5);
    ck_assert_double_eq_tol(tsv_num(&ls, 1, "compile_pct"), 100 * 700 / 717.5, 0.5);
    tsv_free(&ls);
}

/* Two families on shared draws: landscapes-paired.tsv's rows (each seed's paired estimate inside its own CI, the
 * verdict only where the three seeds' categories agree, recomputed here from the CI against +-0.01 and 0.9 / 1.1),
 * and the finding's sequential speedup difference; landscapes-common.tsv holds 6 budgets per family, seed, model. */
static void check_common(const char *out, const char *md)
{
    struct tsv t, p;
    char want[512];
    tsv_read(out, "landscapes-common.tsv", &t);
    ck_assert_int_gt(t.n_rows, 0);
    tsv_read(out, "landscapes-paired.tsv", &p);
    ck_assert_int_eq(p.n_rows, 2 * N_MODELS3);
    for (int i = 0; i < p.n_rows; i++) {
        int sp = strcmp(tsv_cell(&p, i, "measure"), "paired_speedup_diff") == 0;
        double t_lo = sp ? -0.01 : 0.9, t_hi = sp ? 0.01 : 1.1;
        const char *cat[3];
        for (int k = 0; k < 3; k++) {
            char c1[16], c2[16], c3[16];
            snprintf(c1, sizeof c1, "seed_%d", k + 1);
            snprintf(c2, sizeof c2, "seed_%d_lo", k + 1);
            snprintf(c3, sizeof c3, "seed_%d_hi", k + 1);
            double v = tsv_num(&p, i, c1), lo = tsv_num(&p, i, c2), hi = tsv_num(&p, i, c3);
            ck_assert(lo <= v + 1e-9 && v <= hi + 1e-9);
            cat[k] = lo > t_hi ? "above" : hi < t_lo ? "below" : lo >= t_lo && hi <= t_hi ? "within" : "n/a";
        }
        int agree = strcmp(cat[0], "n/a") != 0 && strcmp(cat[0], cat[1]) == 0 && strcmp(cat[0], cat[2]) == 0;
        ck_assert_int_eq((int)tsv_num(&p, i, "stable"), agree);
        if (sp && strcmp(tsv_cell(&p, i, "model"), "sequential") == 0) {
            snprintf(want, sizeof want, "; %s: speedup difference %+.3f (95%% CI %+.3f to %+.3f) on seed 1; time in "
                     "landscapes-paired.tsv.", agree ? tsv_cell(&p, i, "category") : "no verdict",
                     tsv_num(&p, i, "seed_1"), tsv_num(&p, i, "seed_1_lo"), tsv_num(&p, i, "seed_1_hi"));
            ck_has(md, want);
        }
    }
    tsv_free(&p);
    tsv_free(&t);
}

/* EXEC_TIME down to the noise floor: seed 1's eta squared (N_CONFIG over 1..80; log10 EXEC_TIME over 0.05-100 ms
 * mapped onto [1, 10], 10 equal bins) recomputed from sim/input-exec-log.tsv; the paired arms of
 * exec-floor-paired.tsv (4 short EXEC_TIMEs x 3 seeds against 100 ms: the mean difference equals the difference of
 * the means, its CI holds it, its category by that CI) and the sentence from stability.tsv's 0.05 ms row. */
static void check_exec_floor(const char *out, const char *md, const struct tsv *st)
{
    struct tsv p, f;
    char want[1400];
    int re = stab_find(st, "exec-time-floor", "sequential", "eta2_n_config");
    int rx = stab_find(st, "exec-time-floor", "sequential", "eta2_log_exec_time");
    int rr = stab_find(st, "exec-time-floor", "sequential", "paired_speedup_diff_0.05ms");
    tsv_read(out, "sim/input-exec-log.tsv", &p);
    ck_assert_int_eq(p.n_rows, 40);
    double *x1 = malloc((size_t)p.n_rows * sizeof *x1), *x2 = malloc((size_t)p.n_rows * sizeof *x2);
    double *y = malloc((size_t)p.n_rows * sizeof *y);
    for (int i = 0; i < p.n_rows; i++) {
        double e = tsv_num(&p, i, "exec_ms");
        ck_assert(e >= 0.05 - 1e-12 && e <= 100 + 1e-9);
        x1[i] = tsv_num(&p, i, "n_config");
        x2[i] = 1 + 9 * log10(e / 0.05) / log10(100 / 0.05);
        y[i] = tsv_num(&p, i, "tflops");
    }
    ck_assert_double_eq_tol(tsv_num(st, re, "seed_1"), my_eta2(x1, y, p.n_rows, 1, 80), 1e-4);
    ck_assert_double_eq_tol(tsv_num(st, rx, "seed_1"), my_eta2(x2, y, p.n_rows, 1, 10), 1e-4);
    tsv_read(out, "exec-floor-paired.tsv", &f);
    ck_assert_int_eq(f.n_rows, 12);
    for (int i = 0; i < f.n_rows; i++) {
        double d = tsv_num(&f, i, "diff"), lo = tsv_num(&f, i, "diff_lo"), hi = tsv_num(&f, i, "diff_hi");
        ck_assert_int_eq((int)tsv_num(&f, i, "samples"), 40);
        ck_assert_double_eq_tol(d, tsv_num(&f, i, "speedup_short") - tsv_num(&f, i, "speedup_long"), 2e-4);
        ck_assert(lo <= d + 1e-9 && d <= hi + 1e-9);
        ck_assert_str_eq(tsv_cell(&f, i, "category"), lo > 0.01 ? "gains" : hi < -0.01 ? "loses"
                                                      : lo >= -0.01 && hi <= 0.01 ? "none" : "n/a");
        if (tsv_num(&f, i, "exec_ms") < 0.06) { /* the 0.05 ms arm: its seed's value in stability.tsv */
            char col[16];
            snprintf(col, sizeof col, "seed_%d", (int)tsv_num(&f, i, "seed_index"));
            ck_assert_double_eq_tol(tsv_num(st, rr, col), d, 1e-4);
        }
    }
    snprintf(want, sizeof want, "**EXEC_TIME down to 0.05 ms: %s** (4096x256x4096, against 100 ms on shared draws, "
             "sequential compilation): speedup difference %+.4f, %+.4f, %+.4f on seeds 1-3 (seed 1's 95%% CI %+.4f to "
             "%+.4f); every EXEC_TIME in exec-floor-paired.tsv.", stab_agrees(st, rr) ? tsv_cell(st, rr, "category")
             : "no verdict, the seeds disagree", tsv_num(st, rr, "seed_1"), tsv_num(st, rr, "seed_2"),
             tsv_num(st, rr, "seed_3"), tsv_num(st, rr, "seed_1_lo"), tsv_num(st, rr, "seed_1_hi"));
    ck_has(md, want);
    free(x1), free(x2), free(y);
    tsv_free(&f);
    tsv_free(&p);
}

/* The policies finding from policies.tsv: the rows ranked by score here (highest first); a policy is named first
 * only when its CI's lower bound lies above every other's upper bound, else the two highest with their CIs and
 * shares of first place. */
static void check_policies(const char *out, const char *md)
{
    struct tsv t;
    char want[1024];
    int a = -1, b = -1, separated = 1;
    tsv_read(out, "policies.tsv", &t);
    ck_assert_int_ge(t.n_rows, 2);
    for (int i = 0; i < t.n_rows; i++) {
        double v = tsv_num(&t, i, "score");
        if (a < 0 || v > tsv_num(&t, a, "score"))
            b = a, a = i;
        else if (b < 0 || v > tsv_num(&t, b, "score"))
            b = i;
    }
    for (int i = 0; i < t.n_rows; i++)
        if (i != a)
            separated &= tsv_num(&t, a, "score_lo") > tsv_num(&t, i, "score_hi");
    if (separated)
        snprintf(want, sizeof want, "%s ranks first, %.3f [%.3f, %.3f], its 95%% CI above every other's, reaching 95%% "
                 "of optimal after ", tsv_cell(&t, a, "policy"), tsv_num(&t, a, "score"), tsv_num(&t, a, "score_lo"),
                 tsv_num(&t, a, "score_hi"));
    else
        snprintf(want, sizeof want, "no 95%% CI separates one policy; highest %s %.3f [%.3f, %.3f], then %s %.3f [%.3f, "
                 "%.3f] (policies.tsv)", tsv_cell(&t, a, "policy"), tsv_num(&t, a, "score"),
                 tsv_num(&t, a, "score_lo"), tsv_num(&t, a, "score_hi"), tsv_cell(&t, b, "policy"),
                 tsv_num(&t, b, "score"), tsv_num(&t, b, "score_lo"), tsv_num(&t, b, "score_hi"));
    ck_has(md, want);
    tsv_free(&t);
}

/* The summary's opening, "What tuning costs and what it buys", recomputed from opening.tsv (key, value, lo, hi):
 * every number of its five sentences, and the section placed before the findings. */
static double op_get(const struct tsv *t, const char *key, const char *col)
{
    for (int i = 0; i < t->n_rows; i++)
        if (strcmp(tsv_cell(t, i, "key"), key) == 0)
            return tsv_num(t, i, col);
    ck_abort_msg("opening.tsv: no row %s", key);
    return NAN;
}

static void check_opening(const char *out, const char *md)
{
    struct tsv t;
    char want[1024], input[64];
    const char *at = strstr(md, "## What tuning costs and what it buys\n"), *p;
    ck_assert_msg(at != NULL && at < strstr(md, "## Findings\n"), "the opening does not precede the findings");
    p = strstr(at, "**Cost of one input**: tuning ");
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(sscanf(p, "**Cost of one input**: tuning %63s", input), 1);
    tsv_read(out, "opening.tsv", &t);
#define OP(k) op_get(&t, k, "value")
#define OPL(k) op_get(&t, k, "lo")
#define OPH(k) op_get(&t, k, "hi")
    char imputed[128] = "";
    if (OP("compiles_imputed") > 0)
        snprintf(imputed, sizeof imputed, " (%.0f of the %.0f compile times imputed: the trace lacks them)",
                 OP("compiles_imputed"), OP("configs"));
    snprintf(want, sizeof want, "**Cost of one input**: tuning %s over all %.0f configurations (%.0f fail) costs %.1f s "
             "(95%% CI %.1f-%.1f) compiled one after another, %.1f s (%.1f-%.1f) with %.0f pipelined compile workers%s.",
             input, OP("configs"), OP("failed"), OP("input_total_s"), OPL("input_total_s"), OPH("input_total_s"),
             OP("input_pipelined_s"), OPL("input_pipelined_s"), OPH("input_pipelined_s"), OP("workers"), imputed);
    ck_has(md, want);
    ck_assert(OP("compiles_imputed") >= 0 && OP("compiles_imputed") <= OP("configs"));
    if (isfinite(OP("cublas_tflops"))) {
        snprintf(want, sizeof want, "**What it buys**: the best configuration runs at a median %.1f TFLOP/s (95%% CI "
                 "%.1f-%.1f), %.0f%% of cuBLAS and %.2fx a configuration picked at random.", OP("best_tflops"),
                 OPL("best_tflops"), OPH("best_tflops"), 100 * OP("best_tflops") / OP("cublas_tflops"),
                 OP("best_tflops") / OP("random_config_tflops"));
        ck_has(md, want);
    }
    snprintf(want, sizeof want, "**In 10 s per input** (all inputs, chosen on the simulation, measured on fresh runs): "
             "%.3f of the optimum (95%% CI %.3f-%.3f) with sequential compilation, %.3f (%.3f-%.3f) with %.0f parallel "
             "workers", OP("frac_10s_sequential"), OPL("frac_10s_sequential"), OPH("frac_10s_sequential"),
             OP("frac_10s_parallel"), OPL("frac_10s_parallel"), OPH("frac_10s_parallel"), OP("workers"));
    ck_has(md, want);
    snprintf(want, sizeof want, "**Early stopping** saves only repetition, %.0f%% of the time (95%% CI %.0f-%.0f%%), "
             "since compilation is %.0f%% (%.0f-%.0f%%)", 100 * OP("repetition_share"), 100 * OPL("repetition_share"),
             100 * OPH("repetition_share"), 100 * OP("compile_share"), 100 * OPL("compile_share"),
             100 * OPH("compile_share"));
    ck_has(md, want);
    ck_assert(OP("compile_share") + OP("repetition_share") <= 1 + 1e-12);
    snprintf(want, sizeof want, "**Parallel compilation** pays while compilation dominates: %.0f workers cut %s from "
             "%.1f s to %.1f s (list-scheduled, 95%% CI %.1f-%.1f), %.2fx", OP("workers"), input, OP("input_total_s"),
             OP("input_parallel_s"), OPL("input_parallel_s"), OPH("input_parallel_s"),
             OP("input_total_s") / OP("input_parallel_s"));
    ck_has(md, want);
#undef OP
#undef OPL
#undef OPH
    tsv_free(&t);
}

/* Every finding and opening line of summary.md is one short sentence: at most 45 words (split on white space). */
static void check_words(const char *md)
{
    const char *at = strstr(md, "## What tuning costs and what it buys\n"), *end = strstr(md, "## Figures");
    int n_lines = 0;
    if (at == NULL)
        at = strstr(md, "## Findings\n");
    ck_assert_ptr_nonnull(at);
    for (const char *p = at; p != NULL && (end == NULL || p < end); p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        int words = 0, in = 0;
        if (strncmp(p, "- ", 2) != 0)
            continue;
        for (const char *q = p + 2; *q != '\0' && *q != '\n'; q++) {
            words += !in && !isspace((unsigned char)*q);
            in = !isspace((unsigned char)*q);
        }
        ck_assert_msg(words <= 45, "a finding of %d words (at most 45): %.*s", words,
                      (int)(strchr(p, '\n') ? strchr(p, '\n') - p : (long)strlen(p)), p);
        n_lines++;
    }
    ck_assert_int_gt(n_lines, 5);
}

/* The compile costs the trace does not record, counted here from the trace: the report fixture has no isolated
 * compile time for any (input, configuration) pair (every configuration is drawn: the valid ones and the one that
 * fails to compile, which has a compile time), so no costs.tsv. */
static void check_costs_missing(const char *out, const char *md)
{
    struct trace *t = trace_open(fixture_path);
    char want[512];
    ck_assert_ptr_nonnull(t);
    long pairs = (long)trace_n_inputs(t) * trace_n_configs(t);
    /* the fixture records no isolated compile time, and every failed configuration's compile time */
    snprintf(want, sizeof want, "**Compile costs this trace does not record**: %ld of %ld pairs lack an isolated "
             "compile time (charged their %d-worker one), 0 of ", pairs, pairs, (int)trace_get_meta(t)->compile_jobs);
    ck_has(md, want);
    ck_assert(!exists(out, "costs.tsv"));
    trace_close(t);
}

/* Every number of the simulation findings recomputed from the report's TSV files by this test's own readers and
 * arithmetic, and found in summary.md: eta squared from sim/input-*.tsv (seed 1 of stability.tsv replays the same
 * draws), Spearman's rho from table6-frontier.tsv, the times to target from time-to-target-input.tsv (whose samples
 * are checked against sim/ here), the verdicts from verdicts.tsv and stability.tsv, the early-stopped count from
 * sim/all-early-stop.tsv. */
START_TEST(test_report_simulation_findings_match_files)
{
    struct report_options o;
    struct tsv st, vt, ti;
    char out[600], *md;
    snprintf(out, sizeof out, "%s/r1", tt_tmpdir());
    options(&o, out);
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    md = slurp(out, "summary.md", NULL);
    tsv_read(out, "stability.tsv", &st);
    tsv_read(out, "verdicts.tsv", &vt);
    tsv_read(out, "time-to-target-input.tsv", &ti);
    check_selection(out, "time-to-target-input.tsv", "input");
    check_selection(out, "time-to-target-all.tsv", "all");
    check_held_out(out, "time-to-target-input.tsv");
    check_held_out(out, "time-to-target-all.tsv");
    check_knobs(out, md, &st);
    check_frontier(out, md);
    check_input_times(md, &ti, &st);
    check_verdicts(out, md, &st, &vt);
    check_costs_missing(out, md);
    check_policies(out, md);
    check_opening(out, md);
    check_words(md);
    check_exec_floor(out, md, &st);
    tsv_free(&st);
    tsv_free(&vt);
    tsv_free(&ti);
    free(md);
}
END_TEST

/* costs.tsv row (seed k, failed_cost, compile_model, model). */
static int cost_find(const struct tsv *t, int k, const char *fc, const char *cm, const char *model)
{
    for (int i = 0; i < t->n_rows; i++)
        if ((int)tsv_num(t, i, "seed_index") == k && strcmp(tsv_cell(t, i, "failed_cost"), fc) == 0 &&
            strcmp(tsv_cell(t, i, "compile_model"), cm) == 0 && strcmp(tsv_cell(t, i, "model"), model) == 0)
            return i;
    ck_abort_msg("costs.tsv: no row %d %s %s %s", k, fc, cm, model);
    return -1;
}

/* "4.91x (95% CI 4.81-5.02)": three ratios' mean and the CI over the seeds; "no ratio ..." where one is missing;
 * "n/a (seed K upper-bounded)" where seed K's time is another target's sample's (bounded K > 0). */
static void ratio3_text(const double r[3], int bounded, char *buf, size_t len)
{
    double m, lo, hi;
    if (bounded > 0) {
        snprintf(buf, len, "n/a (seed %d upper-bounded)", bounded);
        return;
    }
    if (!(isfinite(r[0]) && isfinite(r[1]) && isfinite(r[2]))) {
        snprintf(buf, len, "no ratio (a seed short of 0.95)");
        return;
    }
    ci3(r, &m, &lo, &hi);
    snprintf(buf, len, "%.2fx (95%% CI %.2f-%.2f)", m, lo, hi);
}

/* A trace with every compile cost (isolated times for all configurations, the failing one's compile time): the
 * report writes costs.tsv — 3 seeds x 3 cost settings x 3 models, each a re-evaluated time to 0.95 whose CI holds
 * its mean — and the finding's every number is recomputed from it here: seed 1's times, the ratios charged / free
 * per model and contended / isolated for sequential on three seeds. */
START_TEST(test_report_costs_finding_matches_costs_tsv)
{
    static const char *const models[3] = {"sequential", "pipelined", "ideal"};
    struct report_options o;
    struct tsv ct;
    char out[600], path[600], want[1024], r3[256], *md;
    snprintf(path, sizeof path, "%s/costs.h5", tt_tmpdir());
    ck_assert_msg(fixture_report_costs(path) == 0, "%s", tc_errmsg());
    snprintf(out, sizeof out, "%s/rc", tt_tmpdir());
    options(&o, out);
    o.trace_path = path;
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    md = slurp(out, "summary.md", NULL);
    ck_assert_ptr_null(strstr(md, "Compile costs this trace does not record"));
    tsv_read(out, "costs.tsv", &ct);
    ck_assert_int_eq(ct.n_rows, 27);
    for (int i = 0; i < ct.n_rows; i++)
        ck_assert(tsv_num(&ct, i, "time_s_lo") <= tsv_num(&ct, i, "time_s") &&
                  tsv_num(&ct, i, "time_s") <= tsv_num(&ct, i, "time_s_hi"));
    { /* the report's own setting (triton + measured) is the verdicts' simulation: verdicts.tsv's rows */
        struct tsv vt;
        tsv_read(out, "verdicts.tsv", &vt);
        for (int k = 1; k <= 3; k++)
            for (int m = 0; m < 3; m++) {
                int r = cost_find(&ct, k, "triton", "measured", models[m]), found = 0;
                for (int i = 0; i < vt.n_rows; i++)
                    if ((int)tsv_num(&vt, i, "seed_index") == k && strcmp(tsv_cell(&vt, i, "model"), models[m]) == 0 &&
                        tsv_num(&vt, i, "early_stop") == 0 && fabs(tsv_num(&vt, i, "target_speedup") - 0.95) < 1e-9) {
                        found = 1;
                        ck_assert_int_eq((int)tsv_num(&vt, i, "sample"), (int)tsv_num(&ct, r, "sample"));
                        ck_assert(isnan(tsv_num(&ct, r, "time_s")) ? isnan(tsv_num(&vt, i, "time_s"))
                                  : fabs(tsv_num(&vt, i, "time_s") - tsv_num(&ct, r, "time_s")) < 1e-9);
                    }
                ck_assert(found);
            }
        tsv_free(&vt);
    }
    char r3m[3][96];
    for (int m = 0; m < 3; m++) {
        double r[3];
        int b = 0;
        for (int k = 1; k <= 3; k++) {
            int x = cost_find(&ct, k, "triton", "measured", models[m]);
            int y = cost_find(&ct, k, "none", "measured", models[m]);
            r[k - 1] = tsv_num(&ct, x, "time_s") / tsv_num(&ct, y, "time_s");
            if (b == 0 && (strncmp(tsv_cell(&ct, x, "chosen_by"), "sample for", 10) == 0 ||
                           strncmp(tsv_cell(&ct, y, "chosen_by"), "sample for", 10) == 0))
                b = k;
        }
        ratio3_text(r, b, r3m[m], sizeof r3m[m]);
    }
    {
        double r[3];
        int b = 0;
        for (int k = 1; k <= 3; k++) {
            int x = cost_find(&ct, k, "triton", "paper", "sequential");
            int y = cost_find(&ct, k, "triton", "measured", "sequential");
            r[k - 1] = tsv_num(&ct, x, "time_s") / tsv_num(&ct, y, "time_s");
            if (b == 0 && (strncmp(tsv_cell(&ct, x, "chosen_by"), "sample for", 10) == 0 ||
                           strncmp(tsv_cell(&ct, y, "chosen_by"), "sample for", 10) == 0))
                b = k;
        }
        ratio3_text(r, b, r3, sizeof r3);
        snprintf(want, sizeof want, "(all inputs, time to 0.95, seeds 1-3): charged failures multiply it by %s "
                 "sequential, %s pipelined, %s ideal; contended compile times by %s (costs.tsv).", r3m[0], r3m[1],
                 r3m[2], r3);
        ck_has(md, want);
        /* every isolated time is below the contended one here (compile_ms / (1 + 0.5u)) */
        ck_assert(r[0] > 1 && r[1] > 1 && r[2] > 1);
    }
    check_words(md);
    tsv_free(&ct);
    free(md);
}
END_TEST

/* The re-evaluated time to 0.90 of optimal (single input, the baseline) lies within its 95% CI of a 4000-run replay
 * of the same sample's hyperparameters with a seed of its own: the number the report prints is the sample's, not
 * its selection's luck. */
START_TEST(test_report_reevaluated_time_within_ci_of_long_replay)
{
    struct report_options o;
    struct tsv ti;
    struct sim_settings s;
    char out[600];
    int input;
    snprintf(out, sizeof out, "%s/r1", tt_tmpdir());
    options(&o, out);
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    tsv_read(out, "time-to-target-input.tsv", &ti);
    int row = est_find(&ti, "target_speedup", 0.90, "baseline");
    ck_assert_int_ge((int)tsv_num(&ti, row, "sample"), 0);
    struct trace *t = trace_open(fixture_path);
    ck_assert_ptr_nonnull(t);
    int64_t dims[3];
    ck_assert_int_eq(sscanf(o.input_label, "%" SCNd64 "x%" SCNd64 "x%" SCNd64, &dims[0], &dims[1], &dims[2]), 3);
    input = trace_find_input(t, dims);
    ck_assert_int_ge(input, 0);
    sim_settings_default(&s);
    s.samples = 1;
    s.runs = 4000;
    s.seed = 424242;
    s.input = 0;
    s.n_config_lo = s.n_config_hi = (int)tsv_num(&ti, row, "n_config");
    s.exec_ms_lo = s.exec_ms_hi = (int)tsv_num(&ti, row, "exec_ms");
    s.n_scenarios = 1;
    ck_assert_int_eq(sim_scenario_parse("baseline", SIM_COMPILE_SEQUENTIAL, 16, SIM_OVERHEAD_PAPER, &s.scenarios[0]),
                     0);
    struct sim_data *d = sim_data_from_trace(t, &input, 1, &s);
    ck_assert_msg(d != NULL, "%s", tc_errmsg());
    struct sim_result *r = sim_run(d, &s, NULL, NULL);
    ck_assert_ptr_nonnull(r);
    double lo = tsv_num(&ti, row, "time_s_lo"), hi = tsv_num(&ti, row, "time_s_hi");
    ck_assert_msg(lo <= r->points[0].time_s && r->points[0].time_s <= hi, "4000-run mean %.4f s outside [%.4f, %.4f]",
                  r->points[0].time_s, lo, hi);
    sim_result_free(r);
    sim_data_free(d);
    trace_close(t);
    tsv_free(&ti);
}
END_TEST

/* With a second kernel family the landscapes figure is drawn (PNG, SVG, on the page); the redraw the docs give finds
 * the families' names in plots/titles.gp. */
START_TEST(test_report_landscapes_figure)
{
    struct report_options o;
    char out[600], other[600], cmd[1400], *html, *svg;
    snprintf(out, sizeof out, "%s/r1", tt_tmpdir());
    snprintf(other, sizeof other, "%s/other.h5", tt_tmpdir());
    ck_assert_msg(fixture_report(other) == 0, "%s", tc_errmsg());
    options(&o, out);
    o.compare_path = other;
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    ck_assert_int_eq(o.n_figures, 9);
    ck_assert(exists(out, "landscapes.png"));
    ck_assert(exists(out, "landscapes.svg"));
    html = slurp(out, "index.html", NULL);
    ck_assert_ptr_nonnull(strstr(html, "<img src=\"landscapes.png\""));
    free(html);
    snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot -e \"fmt='svg'; out='redraw.svg'\" plots/landscapes.gp 2>/dev/null",
             out);
    ck_assert_int_eq(system(cmd), 0);
    svg = slurp(out, "redraw.svg", NULL);
    ck_assert_ptr_nonnull(svg);
    ck_assert_ptr_nonnull(strstr(svg, "other.h5: mma.sync"));
    free(svg);
}
END_TEST

/* A figure script that fails fails the report: the message names the figure, the script, gnuplot's exit status and
 * its reason; nothing is written. */
START_TEST(test_report_failing_script_named)
{
    struct report_options o;
    char out[600], plots[600], cmd[1400];
    snprintf(out, sizeof out, "%s/r1", tt_tmpdir());
    snprintf(plots, sizeof plots, "%s/plots", tt_tmpdir());
    snprintf(cmd, sizeof cmd, "cp -r '%s' '%s' && printf 'load \"plots/common.gp\"\\nplot nosuchfunction(x)\\n' > "
             "'%s/heatmap.gp'", tc_paths_dir(TC_PATHS_PLOTS), plots, plots);
    ck_assert_int_eq(system(cmd), 0);
    options(&o, out);
    o.plots_dir = plots;
    ck_assert_int_eq(report_write(&o), -1);
    /* gnuplot's own reason, its stderr's last line: "plots/heatmap.gp" line 2: undefined function: nosuchfunction */
    ck_has(tc_errmsg(), "figure heatmap was not drawn: gnuplot failed on plots/heatmap.gp (exit status 1: ");
    ck_has(tc_errmsg(), "undefined function: nosuchfunction");
    ck_assert_int_eq(access(out, F_OK), -1);
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s;
    TCase *tc;
    int figures_only;
    const char *path;

    if (argc == 3 && strcmp(argv[1], "fixture") == 0)
        return fixture_report(argv[2]) == 0 ? 0 : (fprintf(stderr, "%s\n", tc_errmsg()), 1);
    if (argc == 5 && strcmp(argv[1], "small") == 0)
        return fixture_small(argv[2], atoll(argv[3]), atoi(argv[4])) == 0 ? 0
                                                                            : (fprintf(stderr, "%s\n", tc_errmsg()), 1);
    if (argc == 4 && strcmp(argv[1], "full") == 0)
        return fixture_full(argv[2], atoi(argv[3])) == 0 ? 0 : (fprintf(stderr, "%s\n", tc_errmsg()), 1);
    if (argc == 3 && strcmp(argv[1], "triton") == 0)
        return fixture_triton(argv[2]) == 0 ? 0 : (fprintf(stderr, "%s\n", tc_errmsg()), 1);

    /* `test-report figures`: the checks that need gnuplot, 77 (skipped) without it; plain: everything else */
    for (path = getenv("PATH"); path != NULL && *path;) {
        const char *e = strchr(path, ':');
        char p[1024];
        int n = e ? (int)(e - path) : (int)strlen(path);
        snprintf(p, sizeof p, "%.*s/gnuplot", n, path);
        if (access(p, X_OK) == 0)
            have_gnuplot = 1;
        path = e ? e + 1 : NULL;
    }
    figures_only = argc == 2 && strcmp(argv[1], "figures") == 0;
    if (figures_only && !have_gnuplot) {
        fprintf(stderr, "test-report figures: SKIP: gnuplot not on PATH (apt-get install gnuplot-nox)\n");
        return 77;
    }
    if (!figures_only)
        have_gnuplot = 0; /* the figures are the other test's */

    s = suite_create("report");
    tc = tcase_create("report");
    tcase_add_checked_fixture(tc, setup, tt_tmpdir_remove);
    tcase_set_timeout(tc, 300);
    if (figures_only) {
        tcase_add_test(tc, test_report_writes_every_file);
        tcase_add_test(tc, test_report_triton_trace_adds_figure2);
        tcase_add_test(tc, test_report_failing_script_named);
        tcase_add_test(tc, test_report_landscapes_figure);
    } else {
        tcase_add_test(tc, test_report_writes_every_file);
        tcase_add_test(tc, test_report_same_seed_same_files);
        tcase_add_test(tc, test_report_without_gnuplot_fails_unless_no_figures);
        tcase_add_test(tc, test_report_triton_trace_adds_figure2);
        tcase_add_test(tc, test_report_bad_inputs_leave_output_alone);
        tcase_add_test(tc, test_report_interrupted_leaves_nothing);
        tcase_add_test(tc, test_report_removes_stale_temporaries);
        tcase_add_test(tc, test_report_findings_small_traces);
        tcase_add_test(tc, test_report_studies_absent_noted);
        tcase_add_test(tc, test_report_simulation_findings_match_files);
        tcase_add_test(tc, test_report_reevaluated_time_within_ci_of_long_replay);
        tcase_add_test(tc, test_report_costs_finding_matches_costs_tsv);
        tcase_add_test(tc, test_report_outputs_as_declared);
        tcase_add_test(tc, test_report_undeclared_output_refused);
    }
    suite_add_tcase(s, tc);
    return tt_run(s);
}
