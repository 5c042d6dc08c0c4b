/* test-record-split.c — the wall split of a recorded multi-process session (record/reconstruct_split.c) on a
 * hand-built activity stream (no GPU, no spool files): a main process with the --helion hook's phase ranges
 * (compile, two precompile waits that overlap each other, benchmark) and a labelled candidate, and a benchmarking
 * subprocess whose candidate runs while the main one's does. Every instant counts once: the categories, the
 * overlap of the two processes and the rest add up to the session's wall time, and each process keeps its own
 * time. Expected values are worked out by hand on the timeline in the comment of each test. */
#include "record.h"
#include "tc_err.h"
#include "test-common.h"

#include <check.h>
#include <string.h>

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

int main(void)
{
    Suite *s = suite_create("record-split");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_record_split_two_processes_adds_up);
    tcase_add_test(tc, test_record_split_never_negative);
    suite_add_tcase(s, tc);
    return tt_run(s);
}
