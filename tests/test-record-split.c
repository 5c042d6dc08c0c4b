/* test-record-split.c — the wall split of a recorded multi-process session (record/reconstruct_split.c) on a
 * hand-built activity stream (no GPU, no spool files): a main process with the --helion hook's phase ranges
 * (compile, two precompile waits that overlap each other, benchmark) and a labelled candidate, and a benchmarking
 * subprocess whose candidate runs while the main one's does. Every instant counts once: the categories, the
 * overlap of the two processes and the rest add up to the session's wall time, and each process keeps its own
 * time. Expected values are worked out by hand on the timeline in the comment of each test. With the tunecost
 * executable as argument it writes that timeline as two spool files and checks what `tunecost record --from-spool`
 * prints (integration suite).
 * usage: test-record-split [TUNECOST] */
#include "record.h"
#include "spool.h"
#include "tc_err.h"
#include "test-common.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MS 1000000ull /* ns */

static struct rec_event g_ev[256];
static struct rec_process g_proc[2];
static struct rec_stream g_s;

static struct rec_event *add(int kind, uint32_t pid, uint64_t start, uint64_t end, const char *name)
{
    ck_assert_uint_lt(g_s.n, 256);
    struct rec_event *e = &g_ev[g_s.n++];
    *e = (struct rec_event){.kind = kind, .pid = pid, .start_ns = start, .end_ns = end, .name = name,
                            .grid = {8, 1, 1}, .block = {128, 1, 1}, .registers = 64, .smem_bytes = 0};
    return e;
}

/* The stream's events sorted by start (the reader's order; ties keep the order added). */
static void sort_stream(void)
{
    for (size_t i = 1; i < g_s.n; i++)
        for (size_t j = i; j > 0 && g_ev[j - 1].start_ns > g_ev[j].start_ns; j--) {
            struct rec_event t = g_ev[j];
            g_ev[j] = g_ev[j - 1];
            g_ev[j - 1] = t;
        }
}

/* Timeline (ms). Main process 10, from 0 to 30: phase compile [1, 3]; phase precompile [3, 10] and [4, 12] (two
 * workers waited for together); the candidate's range and phase benchmark [12, 20], its module load [12.5, 13],
 * then kernels to 20. Subprocess 11 (parent 10), from 14 to 26: a candidate's range [15, 25], its load [15, 16],
 * kernels to 25.
 * Sweep: [0, 1] nothing; [1, 3] compile phase 2; [3, 12] precompile 9; [12, 12.5] compile gap 0.5 (the range's
 * start to its first load); [12.5, 13] load 0.5; [13, 15] benchmarking 2; [15, 20] both processes: overlap 5;
 * [20, 25] benchmarking 5; [25, 30] nothing. So wall = 30 = compile 0.5 + load 0.5 + benchmarking 7 + phases
 * 2 + 9 + 0 (benchmark lies under benchmarking) + overlap 5 + other 6. Process 10's own: compile 0.5, load 0.5,
 * benchmarking 7 ([13, 20]), phase compile 2, precompile 9; process 11's: load 1, benchmarking 9 ([16, 25]). */
START_TEST(test_record_split_two_processes_adds_up)
{
    memset(&g_s, 0, sizeof g_s);
    g_s.ev = g_ev;
    g_s.proc = g_proc;
    g_s.n_proc = 2;
    g_proc[0] = (struct rec_process){.pid = 10, .ppid = 1, .start_ns = 0, .end_ns = 30 * MS};
    g_proc[1] = (struct rec_process){.pid = 11, .ppid = 10, .start_ns = 14 * MS, .end_ns = 26 * MS};
    add(REC_RANGE, 10, 1 * MS, 3 * MS, "tc:phase compile kernel=matmul");
    add(REC_RANGE, 10, 3 * MS, 10 * MS, "tc:phase precompile kernel=matmul");
    add(REC_RANGE, 10, 4 * MS, 12 * MS, "tc:phase precompile kernel=matmul");
    add(REC_RANGE, 10, 12 * MS, 20 * MS, "tc:phase benchmark kernel=matmul");
    add(REC_RANGE, 10, 12 * MS, 20 * MS, "tc:bench kernel=matmul key=arg0_d0=64,arg0.dtype=torch.float16 "
                                          "config=block_sizes_0=16,num_warps=4 search=PatternSearch generation=0");
    add(REC_LOAD, 10, 12 * MS + MS / 2, 13 * MS, "module");
    for (int i = 0; i < 6; i++)
        add(REC_KERNEL, 10, 13 * MS + (uint64_t)i * MS, 13 * MS + (uint64_t)i * MS + MS / 2, "_matmul_kernel");
    add(REC_RANGE, 11, 15 * MS, 25 * MS, "tc:bench kernel=matmul key=arg0_d0=64,arg0.dtype=torch.float16 "
                                          "config=block_sizes_0=32,num_warps=4 search=PatternSearch generation=1");
    add(REC_LOAD, 11, 15 * MS, 16 * MS, "module");
    for (int i = 0; i < 8; i++)
        add(REC_KERNEL, 11, 16 * MS + (uint64_t)i * MS, 16 * MS + (uint64_t)i * MS + MS / 2, "_matmul_kernel");
    sort_stream();
    struct rec_session *s = rec_reconstruct(&g_s, NULL);
    ck_assert_msg(s != NULL, "%s", tc_errmsg());
    const struct rec_summary *m = &s->sum;
    ck_assert_uint_eq(s->n_runs, 2);
    /* the --helion hook's labels: one input (arg0_d0 = 64; the dtype tells decisions apart), two configurations of
     * two named parameters; search= and generation= are not the configuration's */
    ck_assert_int_eq(s->n_inputs, 1);
    ck_assert_int_eq(s->n_dims, 1);
    ck_assert_str_eq(s->dim_names[0], "arg0_d0");
    ck_assert_int_eq(s->dims[0], 64);
    ck_assert_int_eq(s->n_configs, 2);
    ck_assert_int_eq(s->n_params, 2);
    ck_assert_str_eq(s->param_names[0], "block_sizes_0");
    ck_assert_str_eq(s->param_names[1], "num_warps");
    ck_assert_int_eq(s->params[2], 32);
    ck_assert_double_eq_tol(m->process_wall_ms, 30, 1e-9);
    ck_assert_double_eq_tol(m->wall.compile_ms, 0.5, 1e-9);
    ck_assert_double_eq_tol(m->wall.load_ms, 0.5, 1e-9);
    ck_assert_double_eq_tol(m->wall.bench_ms, 7, 1e-9);
    ck_assert_int_eq(m->n_phases, 3);
    ck_assert_str_eq(m->phase[0], "compile");
    ck_assert_str_eq(m->phase[1], "precompile");
    ck_assert_str_eq(m->phase[2], "benchmark");
    ck_assert_double_eq_tol(m->wall.phase_ms[0], 2, 1e-9);
    ck_assert_double_eq_tol(m->wall.phase_ms[1], 9, 1e-9);
    ck_assert_double_eq_tol(m->wall.phase_ms[2], 0, 1e-9);
    ck_assert_double_eq_tol(m->overlap_ms, 5, 1e-9);
    ck_assert_double_eq_tol(m->other_ms, 6, 1e-9);
    ck_assert_double_eq_tol(rec_split_total(m) + m->other_ms, m->process_wall_ms, 1e-9);
    ck_assert_uint_eq(m->n_split_procs, 2);
    ck_assert_uint_eq(m->proc[0].pid, 10);
    ck_assert_uint_eq(m->proc[1].pid, 11);
    ck_assert_uint_eq(m->proc[1].ppid, 10);
    ck_assert_double_eq_tol(m->proc[0].busy.compile_ms, 0.5, 1e-9);
    ck_assert_double_eq_tol(m->proc[0].busy.load_ms, 0.5, 1e-9);
    ck_assert_double_eq_tol(m->proc[0].busy.bench_ms, 7, 1e-9);
    ck_assert_double_eq_tol(m->proc[0].busy.phase_ms[0], 2, 1e-9);
    ck_assert_double_eq_tol(m->proc[0].busy.phase_ms[1], 9, 1e-9);
    ck_assert_double_eq_tol(m->proc[1].busy.load_ms, 1, 1e-9);
    ck_assert_double_eq_tol(m->proc[1].busy.bench_ms, 9, 1e-9);
    ck_assert_double_eq_tol(m->proc[1].busy.compile_ms, 0, 1e-9);
    /* the per-candidate sums (what a tuner spent, process by process) exceed the wall split by the overlap */
    ck_assert_double_eq_tol(m->bench_ms, 7 + 9, 1e-9);
    rec_session_free(s);
}
END_TEST

/* A benchmarking subprocess that runs the whole time the main process benchmarks: the older split (wall minus the
 * per-process sums) gave a negative remainder. Main 20: range [0, 10], kernels from 0; child 21: range [0, 10],
 * kernels from 0; the session is 10 ms. Both benchmark throughout: overlap 10, other 0, never negative. */
START_TEST(test_record_split_never_negative)
{
    memset(&g_s, 0, sizeof g_s);
    g_s.ev = g_ev;
    g_s.proc = g_proc;
    g_s.n_proc = 2;
    g_proc[0] = (struct rec_process){.pid = 20, .ppid = 1, .start_ns = 0, .end_ns = 10 * MS};
    g_proc[1] = (struct rec_process){.pid = 21, .ppid = 20, .start_ns = 0, .end_ns = 10 * MS};
    for (uint32_t p = 20; p <= 21; p++) {
        add(REC_RANGE, p, 0, 10 * MS, "tc:bench kernel=k key=N=1 config=X=1");
        for (int i = 0; i < 5; i++)
            add(REC_KERNEL, p, (uint64_t)i * 2 * MS, (uint64_t)i * 2 * MS + MS, "k");
    }
    sort_stream();
    struct rec_session *s = rec_reconstruct(&g_s, NULL);
    ck_assert_msg(s != NULL, "%s", tc_errmsg());
    ck_assert_double_eq_tol(s->sum.bench_ms, 20, 1e-9);
    ck_assert_double_eq_tol(s->sum.overlap_ms, 10, 1e-9);
    ck_assert_double_eq_tol(s->sum.wall.bench_ms, 0, 1e-9);
    ck_assert_double_eq_tol(s->sum.other_ms, 0, 1e-9);
    rec_session_free(s);
}
END_TEST

/* ---- the printed split, through `tunecost record --from-spool` (integration, with the executable's path) ---- */

static const char *g_tunecost;

/* One spool record: header, payload, text, padded to 8 bytes (record/spool.h). */
static void spool_put(FILE *fp, uint16_t type, const void *p, size_t n, const char *text)
{
    size_t tn = text ? strlen(text) + 1 : 0, size = (sizeof(struct spool_rec) + n + tn + 7) / 8 * 8;
    struct spool_rec h = {.type = type, .size_bytes = (uint32_t)size};
    unsigned char pad[8] = {0};
    fwrite(&h, sizeof h, 1, fp);
    fwrite(p, 1, n, fp);
    if (tn)
        fwrite(text, 1, tn, fp);
    fwrite(pad, 1, size - sizeof h - n - tn, fp);
}

static void spool_range(FILE *fp, uint32_t id, uint64_t t0, uint64_t t1, const char *msg)
{
    struct spool_mark a = {.t_ns = t0, .id = id, .flag = SPOOL_MARK_START}, b = {.t_ns = t1, .id = id,
                                                                                .flag = SPOOL_MARK_END};
    spool_put(fp, SPOOL_MARK, &a, sizeof a, msg);
    spool_put(fp, SPOOL_MARK, &b, sizeof b, "");
}

/* The first test's timeline at 100 times its scale (1 unit = 100 ms), as two processes' spool files. */
static void write_session(const char *dir)
{
    const uint64_t U = 100 * MS;
    char path[2048];
    for (uint32_t pid = 10; pid <= 11; pid++) {
        snprintf(path, sizeof path, "%s/%u.spool", dir, pid);
        FILE *fp = fopen(path, "wb");
        ck_assert_ptr_nonnull(fp);
        struct spool_file_header h = {.version = SPOOL_VERSION, .pid = pid, .ppid = pid == 10 ? 1 : 10,
                                      .start_ns = pid == 10 ? 0 : 14 * U};
        memcpy(h.magic, SPOOL_MAGIC, 8);
        fwrite(&h, sizeof h, 1, fp);
        struct spool_name n = {.id = 1};
        spool_put(fp, SPOOL_NAME, &n, sizeof n, "_matmul_kernel");
        uint64_t r0 = pid == 10 ? 12 * U : 15 * U, r1 = pid == 10 ? 20 * U : 25 * U;
        uint64_t k0 = pid == 10 ? 13 * U : 16 * U;
        if (pid == 10) {
            spool_range(fp, 1, 1 * U, 3 * U, "tc:phase compile");
            spool_range(fp, 2, 3 * U, 10 * U, "tc:phase precompile");
            spool_range(fp, 3, 4 * U, 12 * U, "tc:phase precompile");
            spool_range(fp, 4, 12 * U, 20 * U, "tc:phase benchmark");
        }
        spool_range(fp, 5, r0, r1, pid == 10 ? "tc:bench kernel=mm key=arg0_d0=64 config=block_sizes_0=16"
                                              : "tc:bench kernel=mm key=arg0_d0=64 config=block_sizes_0=32");
        struct spool_load l = {.start_ns = pid == 10 ? 12 * U + U / 2 : 15 * U,
                               .end_ns = pid == 10 ? 13 * U : 16 * U};
        spool_put(fp, SPOOL_LOAD, &l, sizeof l, NULL);
        for (uint64_t t = k0; t + U / 2 <= r1; t += U) {
            struct spool_kernel k = {.start_ns = t, .end_ns = t + U / 2, .grid = {8, 1, 1}, .block = {128, 1, 1},
                                     .registers = 64, .name_id = 1};
            spool_put(fp, SPOOL_KERNEL, &k, sizeof k, NULL);
        }
        struct spool_end e = {.end_ns = pid == 10 ? 30 * U : 26 * U};
        spool_put(fp, SPOOL_END, &e, sizeof e, NULL);
        fclose(fp);
    }
}

/* What `record` prints is the first test's split, in seconds: its parts add up to the session's 3 s. */
START_TEST(test_record_split_printed_adds_up)
{
    char cmd[4096], line[1024], spool[1024];
    int found = 0;
    tt_tmpdir_make("test-record-split");
    snprintf(spool, sizeof spool, "%s/sp", tt_tmpdir());
    ck_assert_int_eq(mkdir(spool, 0755), 0);
    write_session(spool);
    snprintf(cmd, sizeof cmd, "%s record --from-spool %s -o %s >%s 2>&1", g_tunecost, spool, tt_path("t.h5"),
             tt_path("out.txt"));
    ck_assert_int_eq(system(cmd), 0);
    FILE *fp = fopen(tt_path("out.txt"), "r");
    ck_assert_ptr_nonnull(fp);
    static const char *const want[3] = {
        "time: session (CUPTI, first to last activity) 3.000 s = compile 0.050 s + module load 0.050 s + "
        "benchmarking 0.700 s (flushes 0.000 s GPU) + phase compile 0.200 s + phase precompile 0.900 s + phase "
        "benchmark 0.000 s + overlap 0.500 s (two or more processes at once) + other 0.600 s\n",
        "  process 10 (parent 1): compile 0.050 s, module load 0.050 s, benchmarking 0.700 s, phase compile 0.200 s, "
        "phase precompile 0.900 s, phase benchmark 0.000 s\n",
        "  process 11 (parent 10): compile 0.000 s, module load 0.100 s, benchmarking 0.900 s, phase compile 0.000 s, "
        "phase precompile 0.000 s, phase benchmark 0.000 s\n"};
    while (fgets(line, sizeof line, fp) != NULL)
        if (strncmp(line, "time:", 5) == 0 || strncmp(line, "  process", 9) == 0) {
            ck_assert_int_lt(found, 3);
            ck_assert_str_eq(line, want[found]);
            found++;
        }
    fclose(fp);
    ck_assert_int_eq(found, 3);
    tt_tmpdir_remove();
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s = suite_create("record-split");
    TCase *tc = tcase_create("core");
    if (argc > 1) { /* integration: the tunecost executable */
        g_tunecost = argv[1];
        tcase_add_test(tc, test_record_split_printed_adds_up);
        suite_add_tcase(s, tc);
        return tt_run(s);
    }
    tcase_add_test(tc, test_record_split_two_processes_adds_up);
    tcase_add_test(tc, test_record_split_never_negative);
    suite_add_tcase(s, tc);
    return tt_run(s);
}
