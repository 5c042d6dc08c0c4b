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
#include "tc_err.h"
#include "tc_paths.h"
#include "test-common.h"
#include "test-tables-fixture.h"

#include <check.h>
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
    ck_assert_ptr_nonnull(strstr(md, "N_CONFIG explains"));
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
    ck_assert_ptr_nonnull(strstr(md, "Triton's estimate"));
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
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "not a tunecost report"));
    k = slurp(out, "notes.txt", NULL);
    ck_assert_str_eq(k, "mine\n");
    free(k);

    /* an earlier report is replaced as a whole */
    unlink(keep);
    options(&o, out);
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    fp = fopen(keep, "w");
    fputs("stale\n", fp);
    fclose(fp);
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    ck_assert_int_ne(access(keep, F_OK), 0);
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

/* The small hand-built traces (test-tables-fixture.c lists every number) as the report's trace, its second kernel
 * family, its flush study; four compile-scaling files written here. Every expected number below is worked out by
 * hand from those listings. */
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

    /* Figure 1: repetition 6 + 8 + 1.8 = 15.8 ms, overhead 4 + 12 + 3.2 = 19.2 ms, compilation 300 + 100 = 400 ms of
     * 435 ms: 3.6%, 4.4%, 92.0%; no input has overhead above half; both inputs' mean wall (15 ms, 5 ms) < 125 ms. */
    ck_has(md, "repetition 4%, overhead 4%, compilation 92%; overhead is more than half of an input's tuning time "
               "for 0 of 2 inputs");
    ck_has(md, "On 2 inputs a configuration's mean wall time is below the requested 125 ms");
    /* cuBLAS: input 0 best = config 1, median (1 + 2) / 2 = 1.5 ms vs 2.0 ms: 1.333; input 1 has no reference */
    ck_has(md, "reaches a median 133% of cuBLAS's TFLOP/s (range 133%-133% over 1 inputs) and matches or beats it "
               "on 1.");
    ck_has(md, "1 of 3 configurations fail; the most common reason (1): out of resources: too much shared memory.");
    /* flush study: totals (wall + compile + load) 36 + 350 + 3 = 389 ms and 18 + 353 = 371 ms: 1.05x; flush 4 x 0.5
     * = 2 ms of GPU time against 11 + 17 + 1.8 = 29.8 ms of GEMMs (6%); best changes on input 0 (config 1 -> 0,
     * 1.5 -> 1.0 ms: 33.3%), not on input 1 (0%): median 16.7% */
    ck_has(md, "**L2 flush study** (Tables 3 and 5; 2 collections of the same 2 inputs, ");
    ck_has(md, "collecting with flush_bytes 0 takes 0.371 s (benchmarking, compilation, verification) against "
               "0.389 s with flush_bytes 268435456 (1.05x faster), where the flush kernels take 0.002 s of GPU time "
               "against 0.0298 s for the GEMMs (6%); without the flush the best configuration changes on 1 of 2 "
               "inputs, its time by a median 16.7% (at most 33.3%).");
    ck_assert(exists(out, "flush-study.tsv"));
    /* scaling: 1000 / 500 ms = 2.00x with 4 workers; (300 + 500) / 200 = 4.00x with 8, from the two parts */
    ck_has(md, "10 configurations (scaling-a.tsv): 4 workers compile 2.00x faster than one (1.0 s -> 0.5 s, "
               "efficiency 0.50)");
    ck_has(md, "10 configurations (scaling-whole.tsv): 8 workers compile 4.00x faster than one (0.8 s -> 0.2 s, "
               "efficiency 0.50, the one-worker time from partial passes)");
    ck_assert(exists(out, "compile-scaling.tsv"));
    /* two families: best vs cuBLAS 2.0 / 1.5 = 1.33 vs 2.0 / 1.0 = 2.00; the second is faster on input 0 (1.0 vs
     * 1.5 ms), equal on input 1: faster on 0 of 2, median ratio (0.667 + 1) / 2 = 0.83; a random valid
     * configuration reaches median(0.75, 1) = 0.875 and 1 (mean 0.94) vs median(1, 0.667) = 0.833 and 1 (0.92):
     * tuning buys 1 / 0.9375 = 1.07x vs 1 / 0.9167 = 1.09x; compilation 400 / 435 = 92% vs 400 / 417.5 = 96% */
    ck_has(md, "(small.h5: mma.sync vs small-v1.h5: mma.sync, 2 common inputs): the best configuration reaches a "
               "median 1.33 of cuBLAS (lowest 1.33) vs 2.00 (2.00) and is faster on 0 of 2 inputs (median 0.83x); a "
               "configuration picked at random reaches a median 0.94 of its input's best vs 0.92, so tuning buys "
               "1.07x vs 1.09x;");
    ck_has(md, "compilation is 92% vs 96% of tuning time.");
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

/* A TSV written by the report, read back: the column `name` of every row (NaN for "nan"). */
static double *read_column(const char *d, const char *file, const char *name, int *n)
{
    char *text = slurp(d, file, NULL), *line, *save = NULL;
    double *v = NULL;
    int col = -1, cap = 0;
    *n = 0;
    ck_assert_msg(text != NULL, "cannot read %s", file);
    for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
        char *f, *s2 = NULL;
        int k = 0;
        if (line[0] == '#')
            continue;
        if (col < 0) {
            for (f = strtok_r(line, "\t", &s2); f != NULL; f = strtok_r(NULL, "\t", &s2), k++)
                if (strcmp(f, name) == 0)
                    col = k;
            ck_assert_msg(col >= 0, "%s has no column %s", file, name);
            continue;
        }
        for (f = strtok_r(line, "\t", &s2); f != NULL && k < col; f = strtok_r(NULL, "\t", &s2))
            k++;
        ck_assert_ptr_nonnull(f);
        if (*n == cap) {
            cap = cap ? 2 * cap : 256;
            v = realloc(v, (size_t)cap * sizeof *v);
            ck_assert_ptr_nonnull(v);
        }
        v[(*n)++] = strtod(f, NULL);
    }
    free(text);
    return v;
}

/* Lowest time_s of a scenario's samples whose speedup reaches target (NaN if none), from its TSV file. */
static double tsv_time_to(const char *d, const char *file, double target)
{
    int n, m;
    double *t = read_column(d, file, "time_s", &n), *sp = read_column(d, file, "speedup", &m), best = NAN;
    ck_assert_int_eq(n, m);
    for (int i = 0; i < n; i++)
        if (sp[i] >= target && (isnan(best) || t[i] < best))
            best = t[i];
    free(t);
    free(sp);
    return best;
}

/* The simulation findings quote the simulations' own files: recomputed here from the sim/ TSV files (a separate reader
 * and a separate minimum), the numbers and the verdicts must be the ones in summary.md. */
START_TEST(test_report_simulation_findings_match_files)
{
    struct report_options o;
    char out[600], want[512], *md;
    double tb, tp, te, tb9, te9, g95, g90;
    const char *verdict;
    snprintf(out, sizeof out, "%s/r1", tt_tmpdir());
    options(&o, out);
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    md = slurp(out, "summary.md", NULL);
    tb = tsv_time_to(out, "sim/all-baseline.tsv", 0.95);
    tp = tsv_time_to(out, "sim/all-parallel.tsv", 0.95);
    te = tsv_time_to(out, "sim/all-early-stop.tsv", 0.95);
    tb9 = tsv_time_to(out, "sim/all-baseline.tsv", 0.90);
    te9 = tsv_time_to(out, "sim/all-early-stop.tsv", 0.90);
    ck_assert(isfinite(tb) && isfinite(tp)); /* the fixture's frontiers reach 0.95 */
    snprintf(want, sizeof want, "reaching 0.95 takes %.2f s instead of %.2f s (%.1fx less tuning time)", tp, tb,
             tb / tp);
    ck_has(md, want);
    verdict = tb / tp > 1.1 ? "moves the frontier left" : tb / tp < 0.9 ? "moves the frontier right"
                                                                        : "does not move the frontier";
    snprintf(want, sizeof want, "**Parallel compilation (16 workers, the paper's ideal) %s**", verdict);
    ck_has(md, want);
    /* compile time dominates the fixture's tuning time, so 16 compile workers must move the frontier left */
    ck_assert_str_eq(verdict, "moves the frontier left");
    g95 = tb / te;
    g90 = tb9 / te9;
    snprintf(want, sizeof want, "takes %.2f s and %.2f s with it vs %.2f s and %.2f s without (ratios %.2f, %.2f;",
             te9, te, tb9, tb, g90, g95);
    ck_has(md, want);
    verdict = (fabs(g95 - 1) > 0.1 || fabs(g90 - 1) > 0.1) ? (g95 > 1 || g90 > 1 ? "moves the frontier left"
                                                                                   : "moves the frontier right")
                                                           : "does not move the frontier";
    snprintf(want, sizeof want, "**Early stopping %s**", verdict);
    ck_has(md, want);
    free(md);
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
    }
    suite_add_tcase(s, tc);
    return tt_run(s);
}
