/* test-report.c — `tunecost report` (analysis/report.c) end to end on hand-built traces: every expected file,
 * same seed → identical files, gnuplot hidden → tables still written and the missing figures named, bad inputs
 * refused without touching the output, an interrupted report leaving nothing behind.
 *
 *   test-report                     run the tests
 *   test-report fixture OUT.h5      write the report fixture trace (for test-report-chromium.sh)
 *   test-report triton OUT.h5       write the triton-protocol fixture trace
 *   test-report small OUT.h5 FLUSH_BYTES VARIANT   write the small table fixture (test-tables-fixture.c)
 *   test-report full OUT.h5 N       write a synthetic trace of the paper's full shape, at most N timed per run */
#include "report.h"
#include "tc_err.h"
#include "test-tables-fixture.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/test-report.XXXXXX";
static char trace_path[512], triton_path[512];
static int have_gnuplot;

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(trace_path, sizeof trace_path, "%s/fixture.h5", dir);
    snprintf(triton_path, sizeof triton_path, "%s/triton.h5", dir);
    ck_assert_msg(fixture_report(trace_path) == 0, "%s", tc_errmsg());
    ck_assert_msg(fixture_triton(triton_path) == 0, "%s", tc_errmsg());
}

static void teardown(void)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    strcpy(dir, "/tmp/test-report.XXXXXX");
}

static void options(struct report_options *o, const char *out)
{
    report_options_default(o);
    o->trace_path = trace_path;
    o->out_dir = out;
    o->plots_dir = report_plots_dir();
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
    snprintf(out, sizeof out, "%s/r1", dir);
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
    snprintf(r1, sizeof r1, "%s/r1", dir);
    snprintf(r2, sizeof r2, "%s/r2", dir);
    snprintf(r3, sizeof r3, "%s/r3", dir);
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

START_TEST(test_report_without_gnuplot_names_missing_figures)
{
    struct report_options o;
    char out[600], empty[600], *md, *html, *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    snprintf(out, sizeof out, "%s/r1", dir);
    snprintf(empty, sizeof empty, "%s/emptybin", dir);
    ck_assert_int_eq(mkdir(empty, 0755), 0);
    setenv("PATH", empty, 1);
    options(&o, out);
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    if (old != NULL)
        setenv("PATH", old, 1);
    free(old);
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        ck_assert_msg(exists(out, tables[i]), "missing %s", tables[i]);
    ck_assert_int_eq(o.n_missing, 8);
    ck_assert_ptr_nonnull(strstr(o.missing_why, "gnuplot not found"));
    ck_assert(!exists(out, "fig3-frontier.png"));
    md = slurp(out, "summary.md", NULL);
    html = slurp(out, "index.html", NULL);
    ck_assert_ptr_nonnull(strstr(md, "**Not drawn:** gnuplot not found on PATH"));
    ck_assert_ptr_nonnull(strstr(html, "Not drawn: gnuplot not found on PATH"));
    ck_assert_ptr_null(strstr(html, "<img"));
    free(md);
    free(html);
}
END_TEST

START_TEST(test_report_triton_trace_adds_figure2)
{
    struct report_options o;
    char out[600], *md;
    snprintf(out, sizeof out, "%s/r1", dir);
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
    o.triton_path = trace_path;
    ck_assert_int_eq(report_write(&o), REPORT_EBADINPUT);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "triton"));
}
END_TEST

START_TEST(test_report_bad_inputs_leave_output_alone)
{
    struct report_options o;
    char out[600], keep[700], *k;
    FILE *fp;
    snprintf(out, sizeof out, "%s/r1", dir);
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
    snprintf(out, sizeof out, "%s/r1", dir);
    options(&o, out);
    o.interrupted = &stop;
    ck_assert_int_eq(report_write(&o), -1);
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), "interrupted"));
    ck_assert_int_ne(access(out, F_OK), 0);
    /* no temporary directory left beside it */
    d = opendir(dir);
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
    snprintf(out, sizeof out, "%s/r1", dir);
    snprintf(stale, sizeof stale, "%s/.r1.tmp.%ld.abcdef", dir, (long)pid);
    snprintf(live, sizeof live, "%s/.r1.tmp.%ld.abcdef", dir, (long)getpid());
    ck_assert_int_eq(mkdir(stale, 0755), 0);
    ck_assert_int_eq(mkdir(live, 0755), 0);
    options(&o, out);
    ck_assert_msg(report_write(&o) == 0, "%s", tc_errmsg());
    ck_assert_int_ne(access(stale, F_OK), 0);
    ck_assert_int_eq(access(live, F_OK), 0); /* a running report's temporary is left alone */
    rmdir(live);
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s;
    TCase *tc;
    SRunner *sr;
    int failed;
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

    /* figures are checked where gnuplot is installed; everything else everywhere */
    for (path = getenv("PATH"); path != NULL && *path;) {
        const char *e = strchr(path, ':');
        char p[1024];
        int n = e ? (int)(e - path) : (int)strlen(path);
        snprintf(p, sizeof p, "%.*s/gnuplot", n, path);
        if (access(p, X_OK) == 0)
            have_gnuplot = 1;
        path = e ? e + 1 : NULL;
    }
    if (!have_gnuplot)
        fprintf(stderr, "test-report: gnuplot not on PATH: figures are not checked\n");

    s = suite_create("report");
    tc = tcase_create("report");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_report_writes_every_file);
    tcase_add_test(tc, test_report_same_seed_same_files);
    tcase_add_test(tc, test_report_without_gnuplot_names_missing_figures);
    tcase_add_test(tc, test_report_triton_trace_adds_figure2);
    tcase_add_test(tc, test_report_bad_inputs_leave_output_alone);
    tcase_add_test(tc, test_report_interrupted_leaves_nothing);
    tcase_add_test(tc, test_report_removes_stale_temporaries);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
