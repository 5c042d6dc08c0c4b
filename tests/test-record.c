/* test-record.c — `tunecost record`'s reconstruction on synthetic activity streams (no GPU): do_bench's launches
 * classified as estimate / warm-up / timed with their flushes, compile and load times from the gaps before module
 * loads, labelled and unlabelled candidates grouped into inputs and configurations, failed and unfinished
 * candidates, and spool files (a record cut short included) read back. Expected values are worked out by hand
 * from the synthetic timelines written below. With the tunecost executable as argument it runs
 * `tunecost record --from-spool` on such spool files instead (integration suite).
 * usage: test-record [TUNECOST] */
#include "record.h"
#include "spool.h"
#include "tc_err.h"
#include "test-common.h"

#include <check.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define US 1000ull /* ns */

/* A stream under construction (events appended in time order by the tests). */
static struct rec_event g_ev[4096];
static struct rec_process g_proc[3];
static struct rec_stream g_s;

static void stream_reset(void)
{
    memset(g_ev, 0, sizeof g_ev);
    memset(&g_s, 0, sizeof g_s);
    g_s.ev = g_ev;
    g_s.proc = g_proc;
    g_s.n_proc = 1;
    g_proc[0] = (struct rec_process){.pid = 7, .start_ns = 0, .end_ns = 0};
}

static struct rec_event *add(int kind, uint64_t start, uint64_t end, const char *name)
{
    ck_assert_uint_lt(g_s.n, 4096);
    struct rec_event *e = &g_ev[g_s.n++];
    *e = (struct rec_event){.kind = kind, .pid = 7, .start_ns = start, .end_ns = end, .name = name,
                            .grid = {64, 1, 1}, .block = {128, 1, 1}, .registers = 96, .smem_bytes = 49152};
    return e;
}

/* do_bench's launches from t (ns): a first call, 5 flushed estimate calls, n_warm warm-up calls, n_rep flushed
 * timed calls. Kernel i lasts dur_ns + i ns, each flush 50 us, 10 us gaps. Returns the time after the last. */
static uint64_t do_bench(uint64_t t, const char *kernel, uint64_t dur_ns, int n_warm, int n_rep, int grid_x)
{
    int i = 0;
    for (int phase = 0; phase < 4; phase++) {
        int n = phase == 0 ? 1 : phase == 1 ? 5 : phase == 2 ? n_warm : n_rep;
        for (int j = 0; j < n; j++, i++) {
            if (phase % 2 == 1) {
                add(REC_KERNEL, t, t + 50 * US, "void at::native::vectorized_elementwise_kernel<4, "
                                                "at::native::FillFunctor<int>>");
                t += 60 * US;
            }
            add(REC_KERNEL, t, t + dur_ns + (uint64_t)i, kernel)->grid[0] = grid_x;
            t += dur_ns + (uint64_t)i + 10 * US;
        }
    }
    return t;
}

START_TEST(test_record_labelled_do_bench)
{
    stream_reset();
    /* range 1000 us .. ; compile until the load at 301000 us (load lasts 2 ms); then do_bench with 2 warm-up and
     * 4 timed calls of 100 us + i ns */
    struct rec_event *r = add(REC_RANGE, 1000 * US, 0, "tc:bench kernel=matmul key=M=4096,N=256,K=4096,"
                                                      "a.dtype=torch.float16 config=BLOCK_M=128,BLOCK_N=64,"
                                                      "NUM_WARPS=4,NUM_STAGES=3");
    add(REC_MARK, 2000 * US, 2000 * US, "tc:flush_bytes 268435456");
    add(REC_LOAD, 301000 * US, 303000 * US, "module");
    uint64_t end = do_bench(303000 * US, "matmul", 100 * US, 2, 4, 64);
    r->end_ns = end + 5 * US;
    struct rec_session *s = rec_reconstruct(&g_s, NULL);
    ck_assert_msg(s != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(s->labelled, 1);
    ck_assert_int_eq(s->n_inputs, 1);
    ck_assert_int_eq(s->n_configs, 1);
    ck_assert_uint_eq(s->n_runs, 1);
    const struct trace_run *run = &s->runs[0];
    ck_assert_int_eq(run->status, TRACE_OK);
    ck_assert_int_eq(run->n_estimate, 6); /* the first call and 5 flushed */
    ck_assert_int_eq(run->n_warmup, 2);
    ck_assert_int_eq(run->n_timed, 4);
    /* executions in launch order: 100 us + 0 .. 11 ns; the timed ones are 8..11 */
    for (int i = 0; i < 12; i++)
        ck_assert_uint_eq(s->exec_ns[run->exec_offset + i], 100 * US + (uint64_t)i);
    /* as CUDA events around the launch see them: 10 us from the flush's end to the kernel's start, then the kernel;
     * the unflushed first call and warm-up calls have none */
    for (int i = 0; i < 12; i++)
        ck_assert_uint_eq(s->exec_event_ns[run->exec_offset + i],
                          i == 0 || i == 6 || i == 7 ? 0 : 110 * US + (uint64_t)i);
    ck_assert_double_eq_tol(run->flush_ms, 9 * 0.050, 1e-12); /* 5 estimate + 4 timed flushes */
    /* estimate: from the first estimate flush to the end of the 5th estimate call, over 5:
     * 5 x (60 us flush+gap) + (100 us + 1..5 ns each) + 4 gaps of 10 us -> 300 + 500 + 40 us + 15 ns */
    ck_assert_double_eq_tol(run->estimate_ms, (840 * US + 15) * 1e-6 / 5.0, 1e-12);
    ck_assert_double_eq_tol(s->configs[0].compile_ms, 300.0, 1e-9);
    ck_assert_double_eq_tol(s->configs[0].load_ms, 2.0, 1e-9);
    ck_assert_double_eq_tol(run->wall_ms, (double)(r->end_ns - 303000 * US) * 1e-6, 1e-9);
    ck_assert_int_eq(s->configs[0].registers, 96);
    ck_assert_int_eq(s->configs[0].smem_bytes, 49152);
    /* configuration: four integer columns in label order; input: M, N, K (the dtype is not an integer) */
    ck_assert_int_eq(s->n_params, 4);
    ck_assert_str_eq(s->param_names[0], "BLOCK_M");
    ck_assert_str_eq(s->param_names[3], "NUM_STAGES");
    ck_assert_ptr_null(s->param_values[0]);
    ck_assert_int_eq(s->params[0], 128);
    ck_assert_int_eq(s->params[3], 3);
    ck_assert_int_eq(s->n_dims, 3);
    ck_assert_str_eq(s->dim_names[1], "N");
    ck_assert_int_eq(s->dims[1], 256);
    ck_assert_str_eq(s->kernel, "matmul");
    ck_assert_int_eq(s->flush_bytes, 268435456);
    ck_assert(isnan(s->inputs[0].flops)); /* not known unless given */
    ck_assert_int_eq(rec_session_set_flops(s, "2*M*N*K"), 0);
    ck_assert_double_eq(s->inputs[0].flops, 2.0 * 4096 * 256 * 4096);
    ck_assert_int_eq(rec_session_set_flops(s, "2*M*Q"), -1);
    ck_assert_msg(strstr(tc_errmsg(), "'Q' is neither a number nor a dimension") != NULL, "%s", tc_errmsg());
    rec_session_free(s);
}
END_TEST

/* Two keys, two configurations each; the second key reuses the compiled binaries (no loads); one candidate of the
 * first key fails for shared memory before it loads. */
START_TEST(test_record_labelled_inputs_configs_failures)
{
    static const char *labels[5] = {
        "tc:bench kernel=mm key=M=1024 config=BM=64,NUM_WARPS=4",
        "tc:bench kernel=mm key=M=1024 config=BM=128,NUM_WARPS=8",
        "tc:bench kernel=mm key=M=1024 config=BM=256,NUM_WARPS=8",
        "tc:bench kernel=mm key=M=2048 config=BM=64,NUM_WARPS=4",
        "tc:bench kernel=mm key=M=2048 config=BM=128,NUM_WARPS=8"};
    uint64_t t = 0;
    stream_reset();
    for (int c = 0; c < 5; c++) {
        struct rec_event *r = add(REC_RANGE, t, 0, labels[c]);
        if (c == 2) { /* compiles for 40 ms, then Triton raises OutOfResources: no load, no launch */
            add(REC_MARK, t + 40000 * US, t + 40000 * US, "tc:failed OutOfResources");
            r->end_ns = t + 41000 * US;
        } else {
            if (c < 2) {
                add(REC_LOAD, t + (uint64_t)(c + 1) * 10000 * US, t + (uint64_t)(c + 1) * 10000 * US + 500 * US,
                    "module");
                t += (uint64_t)(c + 1) * 10000 * US + 500 * US;
            }
            t = do_bench(t + 1 * US, "mm", (uint64_t)(c % 3 + 1) * 50 * US, 1, 3, c < 3 ? 16 : 32);
            r->end_ns = t + 1 * US;
        }
        t = r->end_ns + 100 * US;
    }
    struct rec_session *s = rec_reconstruct(&g_s, NULL);
    ck_assert_msg(s != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(s->n_inputs, 2);
    ck_assert_int_eq(s->n_configs, 3);
    ck_assert_uint_eq(s->n_runs, 5);
    ck_assert_int_eq(s->runs[2].status, TRACE_OUT_OF_RESOURCES);
    ck_assert_int_eq(s->runs[2].n_timed, 0);
    ck_assert_double_eq(s->runs[2].wall_ms, 0.0); /* its 41 ms are compile time, counted once */
    ck_assert_int_eq(s->configs[2].status, TRACE_OUT_OF_RESOURCES);
    ck_assert_double_eq_tol(s->configs[2].compile_ms, 41.0, 1e-9);
    ck_assert_double_eq_tol(s->configs[0].compile_ms, 10.0, 1e-9); /* first load 10 ms after its range began */
    ck_assert_double_eq_tol(s->configs[1].compile_ms, 20.0, 1e-9);
    ck_assert_int_eq(s->runs[3].input, 1);
    ck_assert_int_eq(s->runs[3].config, 0);
    ck_assert_int_eq(s->runs[4].config, 1);
    ck_assert_int_eq(s->runs[4].status, TRACE_OK);
    ck_assert_int_eq(s->dims[1], 2048);
    /* summary: compile 10 + 20 + 41 ms, loads 2 x 0.5 ms */
    ck_assert_double_eq_tol(s->sum.compile_ms, 71.0, 1e-9);
    ck_assert_double_eq_tol(s->sum.load_ms, 1.0, 1e-9);
    double bench_ms = 0;
    for (size_t i = 0; i < s->n_runs; i++)
        bench_ms += s->runs[i].wall_ms;
    ck_assert_double_eq_tol(s->sum.bench_ms, bench_ms, 1e-9);
    ck_assert_int_eq(s->flush_bytes, -1); /* no tc:flush_bytes marker */
    rec_session_free(s);
}
END_TEST

/* Helion 1.4.0 benchmarks each configuration in a spawned worker (BenchmarkWorker running a BenchmarkJob, then an
 * AccuracyCheckJob): the tc:bench range is in the main process (pid 7) and the kernels in its child (pid 8), inside
 * the hook's "tc:job bench" range. The worker's do_bench inside that job is the candidate's; its accuracy job, its
 * kernels outside the job and another process's kernels (pid 9, not a child of 7) are not. Before the fix the
 * candidate had no execution ("launch error", 0 runs timed). */
START_TEST(test_record_labelled_benchmark_in_worker)
{
    stream_reset();
    g_s.n_proc = 3;
    g_proc[1] = (struct rec_process){.pid = 8, .ppid = 7, .start_ns = 500 * US};
    g_proc[2] = (struct rec_process){.pid = 9, .ppid = 1, .start_ns = 0};
    struct rec_event *r = add(REC_RANGE, 1000 * US, 0, "tc:bench kernel=matmul key=arg0_d0=1024,arg0_d1=1024 "
                                                      "config=block_sizes_0=64,num_warps=4 search=PatternSearch "
                                                      "generation=0");
    add(REC_KERNEL, 1500 * US, 1510 * US, "warm_up_of_the_worker")->pid = 8; /* before the job: not its */
    add(REC_KERNEL, 1600 * US, 1700 * US, "other_program")->pid = 9;
    struct rec_event *job = add(REC_RANGE, 2000 * US, 0, "tc:job bench");
    job->pid = 8;
    add(REC_LOAD, 3000 * US, 3500 * US, "module")->pid = 8;
    size_t first = g_s.n;
    uint64_t t = do_bench(3500 * US, "_helion_matmul", 20 * US, 3, 5, 16);
    for (size_t i = first; i < g_s.n; i++)
        g_ev[i].pid = 8;
    job->end_ns = t + 5 * US;
    struct rec_event *acc = add(REC_RANGE, t + 100 * US, t + 300 * US, "tc:job accuracy");
    acc->pid = 8;
    add(REC_KERNEL, t + 150 * US, t + 170 * US, "_helion_matmul")->pid = 8;
    r->end_ns = t + 400 * US;
    struct rec_session *s = rec_reconstruct(&g_s, NULL);
    ck_assert_msg(s != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(s->n_runs, 1);
    const struct trace_run *run = &s->runs[0];
    ck_assert_int_eq(run->status, TRACE_OK);
    ck_assert_int_eq(run->n_estimate, 6);
    ck_assert_int_eq(run->n_warmup, 3);
    ck_assert_int_eq(run->n_timed, 5);
    for (int i = 0; i < 14; i++) /* the job's calls only: 20 us + i ns each */
        ck_assert_uint_eq(s->exec_ns[run->exec_offset + i], 20 * US + (uint64_t)i);
    ck_assert_double_eq_tol(run->flush_ms, 10 * 0.050, 1e-12); /* 5 estimate + 5 timed */
    /* compile: from the range's start (main process) to the worker's load, 2 ms; the load 0.5 ms */
    ck_assert_double_eq_tol(s->configs[0].compile_ms, 2.0, 1e-9);
    ck_assert_double_eq_tol(s->configs[0].load_ms, 0.5, 1e-9);
    ck_assert_double_eq_tol(run->wall_ms, (double)(r->end_ns - 3500 * US) * 1e-6, 1e-9);
    rec_session_free(s);
}
END_TEST

/* Launches that do not follow do_bench (here: no flushes) are kept, all as timed, and counted. A range never
 * closed (the process was killed) is left out. */
START_TEST(test_record_unclassified_and_unfinished)
{
    stream_reset();
    struct rec_event *r = add(REC_RANGE, 0, 0, "tc:bench kernel=k key=N=8 config=X=1");
    for (int i = 0; i < 4; i++)
        add(REC_KERNEL, (uint64_t)(10 + 10 * i) * US, (uint64_t)(15 + 10 * i) * US, "k");
    r->end_ns = 60 * US;
    add(REC_RANGE, 100 * US, REC_OPEN, "tc:bench kernel=k key=N=8 config=X=2");
    add(REC_KERNEL, 110 * US, 115 * US, "k");
    struct rec_session *s = rec_reconstruct(&g_s, NULL);
    ck_assert_msg(s != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(s->n_runs, 1);
    ck_assert_int_eq(s->runs[0].n_estimate + s->runs[0].n_warmup, 0);
    ck_assert_int_eq(s->runs[0].n_timed, 4);
    ck_assert(isnan(s->runs[0].estimate_ms));
    ck_assert_uint_eq(s->sum.n_unclassified, 1);
    ck_assert_uint_eq(s->sum.n_unfinished, 1);
    ck_assert(isnan(s->configs[0].compile_ms)); /* no load and it ran: compile not seen */
    rec_session_free(s);
}
END_TEST

/* Without labels: candidates split where the binary changes, decisions where a binary comes back; the tuned
 * kernel's own single call after tuning is in no benchmark. */
START_TEST(test_record_unlabelled)
{
    uint64_t t = 1000 * US;
    stream_reset();
    for (int key = 0; key < 2; key++) {
        for (int c = 0; c < 2; c++) {
            if (key == 0) {
                add(REC_LOAD, t, t + 300 * US, "module");
                t += 400 * US;
            }
            struct rec_event *k0 = &g_ev[g_s.n];
            t = do_bench(t, "mm", 20 * US, 2, 3, 8 + key);
            for (struct rec_event *e = k0; e < &g_ev[g_s.n]; e++)
                if (strcmp(e->name, "mm") == 0)
                    e->registers = 64 + c; /* the two candidates' binaries differ in registers */
            t += 50 * US;
        }
        add(REC_KERNEL, t, t + 20 * US, "mm")->registers = 65; /* the chosen one, run once */
        t += 100 * US;
    }
    struct rec_session *s = rec_reconstruct(&g_s, NULL);
    ck_assert_msg(s != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(s->labelled, 0);
    ck_assert_uint_eq(s->n_runs, 4);
    ck_assert_int_eq(s->n_inputs, 2);
    ck_assert_int_eq(s->n_configs, 4); /* the grid is a launch parameter: each key's grid differs */
    ck_assert_uint_eq(s->sum.n_outside, 2);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(s->runs[i].status, TRACE_OK);
        ck_assert_int_eq(s->runs[i].n_estimate, 6);
        ck_assert_int_eq(s->runs[i].n_warmup, 2);
        ck_assert_int_eq(s->runs[i].n_timed, 3);
        ck_assert_int_eq(s->runs[i].input, i / 2);
    }
    /* compile gap: from the process start (0) to the first load; for the second, from the end of the first
     * benchmark (its last kernel's end) to its load */
    ck_assert_double_eq_tol(s->configs[0].compile_ms, 1.0, 1e-9);
    ck_assert_double_eq_tol(s->configs[1].compile_ms, 0.06, 1e-9); /* 10 us gap + 50 us */
    ck_assert_double_eq_tol(s->configs[0].load_ms, 0.3, 1e-9);
    ck_assert(isnan(s->configs[2].compile_ms));
    ck_assert_str_eq(s->dim_names[0], "decision");
    ck_assert_int_eq(s->dims[1], 1);
    /* the kernel's name is a text parameter */
    int kp = s->n_params - 1;
    ck_assert_str_eq(s->param_names[kp], "KERNEL");
    ck_assert_int_eq(s->n_param_values[kp], 1);
    ck_assert_str_eq(s->param_values[kp][0], "mm");
    rec_session_free(s);
}
END_TEST

/* Inductor's benchmark_gpu from t (ns), in process pid: a first call, the flush buffer's own zeroing, 5 flushed
 * estimate calls, 100 memory warm-up flushes without a call, n_rep flushed timed calls. Kernel i lasts
 * dur_ns + i ns, each flush 20 us, gaps 5 us. Returns the time after the last. */
static uint64_t inductor_bench(uint64_t t, const char *kernel, uint64_t dur_ns, int n_rep, uint32_t pid, int regs)
{
    int i = 0;
    for (int phase = 0; phase < 3; phase++) {
        int n = phase == 0 ? 1 : phase == 1 ? 5 : n_rep;
        int n_flush_before_first = phase == 0 ? 0 : phase == 1 ? 2 : 101;
        for (int j = 0; j < n; j++, i++) {
            for (int f = 0; f < (j == 0 ? n_flush_before_first : phase > 0); f++) {
                add(REC_KERNEL, t, t + 20 * US, "void at::native::vectorized_elementwise_kernel<4, "
                                                "at::native::FillFunctor<int>>")->pid = pid;
                t += 25 * US;
            }
            struct rec_event *e = add(REC_KERNEL, t, t + dur_ns + (uint64_t)i, kernel);
            e->pid = pid;
            e->registers = regs;
            t += dur_ns + (uint64_t)i + 5 * US;
        }
    }
    return t;
}

/* Without labels, Inductor's benchmarks (no warm-up calls; 100 flushes in a row before the timed ones) are
 * candidates: first call and estimate, then timed. Two processes (Inductor's benchmarking subprocess beside the
 * main one) are separate decisions even when no binary comes back. */
START_TEST(test_record_unlabelled_inductor_processes)
{
    uint64_t t = 1000 * US;
    stream_reset();
    g_s.n_proc = 2;
    g_proc[1] = (struct rec_process){.pid = 8, .ppid = 7, .start_ns = 0};
    for (int p = 0; p < 2; p++)
        for (int c = 0; c < 3; c++)
            t = inductor_bench(t + 50 * US, "triton_tem_fused_mm_0", 10 * US, 4, (uint32_t)(7 + p), 32 + 8 * c);
    struct rec_session *s = rec_reconstruct(&g_s, NULL);
    ck_assert_msg(s != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(s->labelled, 0);
    ck_assert_uint_eq(s->n_runs, 6);
    ck_assert_uint_eq(s->sum.n_unclassified, 0);
    ck_assert_uint_eq(s->sum.n_outside, 0);
    ck_assert_int_eq(s->n_inputs, 2);
    ck_assert_int_eq(s->n_configs, 3); /* the same three binaries and launch parameters in both processes */
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(s->runs[i].config, i % 3);
        const struct trace_run *run = &s->runs[i];
        ck_assert_int_eq(run->input, i / 3);
        ck_assert_int_eq(run->status, TRACE_OK);
        ck_assert_int_eq(run->n_estimate, 6);
        ck_assert_int_eq(run->n_warmup, 0);
        ck_assert_int_eq(run->n_timed, 4);
        /* 2 + 4 + 100 + 4 flushes of 20 us */
        ck_assert_double_eq_tol(run->flush_ms, 110 * 0.020, 1e-9);
        /* estimate: from the flush just before the first estimate call to the end of the 5th, over 5:
         * 5 x 25 us of flush and gap + (10 us + 1..5 ns) + 4 gaps of 5 us -> 125 + 50 + 20 us + 15 ns */
        ck_assert_double_eq_tol(run->estimate_ms, (195 * US + 15) * 1e-6 / 5.0, 1e-12);
        /* as CUDA events would see each flushed call: the 5 us gap after its flush + the kernel; none unflushed */
        const uint64_t *ev = s->exec_event_ns + run->exec_offset;
        ck_assert_uint_eq(ev[0], 0);
        for (int j = 1; j < 10; j++)
            ck_assert_uint_eq(ev[j], 15 * US + (uint64_t)j);
    }
    rec_session_free(s);
}
END_TEST

/* Inductor's benchmark of a choice whose call launches two kernels (cuBLAS's addmm: a bias copy, then the GEMM)
 * and clears 4 bytes between them (a memset far too small to be a flush), after a small fill of the program's own
 * (not a flush of the benchmark), in a process that ran a lone kernel just before: the candidate is found whole,
 * each execution is the sum of its call's two kernels, and the configuration's KERNEL names both. */
START_TEST(test_record_unlabelled_multi_kernel_calls)
{
    uint64_t t = 1000 * US;
    stream_reset();
    add(REC_KERNEL, t, t + 2 * US, "randn")->grid[0] = 4; /* the program's own kernel, run once */
    t += 10 * US;
    add(REC_KERNEL, t, t + 1 * US, "FillFunctor")->grid[0] = 1; /* a small fill before the benchmark */
    t += 10 * US;
    int i = 0;
    for (int phase = 0; phase < 3; phase++) {
        int n = phase == 0 ? 1 : phase == 1 ? 5 : 4;
        for (int j = 0; j < n; j++, i++) {
            for (int f = 0; f < (phase == 0 ? 0 : j > 0 ? 1 : phase == 1 ? 2 : 101); f++) {
                add(REC_KERNEL, t, t + 20 * US, "FillFunctor")->grid[0] = 12800;
                t += 25 * US;
            }
            add(REC_KERNEL, t, t + 3 * US, "copy")->grid[0] = 512;
            t += 4 * US;
            add(REC_MEMSET, t - 1 * US, t - 1 * US + 500, "memset")->bytes = 4; /* a library's semaphore */
            add(REC_KERNEL, t, t + 10 * US + (uint64_t)i, "nvjet_gemm")->grid[0] = 8;
            t += 10 * US + (uint64_t)i + 5 * US;
        }
    }
    add(REC_KERNEL, t, t + 2 * US, "randn")->grid[0] = 4;
    struct rec_session *s = rec_reconstruct(&g_s, NULL);
    ck_assert_msg(s != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(s->n_runs, 1);
    const struct trace_run *run = &s->runs[0];
    ck_assert_int_eq(run->n_estimate, 6);
    ck_assert_int_eq(run->n_warmup, 0);
    ck_assert_int_eq(run->n_timed, 4);
    ck_assert_uint_eq(s->sum.n_outside, 2); /* the two lone randn calls */
    /* 2 + 4 + 101 + 3 flushes of 20 us; the small fill before the first call is not the benchmark's */
    ck_assert_double_eq_tol(run->flush_ms, 110 * 0.020, 1e-9);
    for (int j = 0; j < 10; j++) {
        ck_assert_uint_eq(s->exec_ns[run->exec_offset + j], 13 * US + (uint64_t)j); /* 3 us + 10 us + j ns */
        /* flushed calls: from the flush's end (5 us gap) to the GEMM's end: 5 + 3 + 1 + 10 us + j ns */
        ck_assert_uint_eq(s->exec_event_ns[run->exec_offset + j], j == 0 ? 0 : 19 * US + (uint64_t)j);
    }
    int kp = s->n_params - 1;
    ck_assert_str_eq(s->param_names[kp], "KERNEL");
    ck_assert_str_eq(s->param_values[kp][0], "copy + nvjet_gemm");
    ck_assert_int_eq(s->params[0], 512); /* GRID_X of the call's first kernel */
    rec_session_free(s);
}
END_TEST

/* A flush and a pre-hook's fill before each call (two fills in a row, as Triton's reset_to_zero issues them) are
 * no memory warm-up: such a benchmark stays out of the pattern (all timed, counted) rather than misread. */
START_TEST(test_record_two_fills_not_memory_warmup)
{
    stream_reset();
    struct rec_event *r = add(REC_RANGE, 0, 0, "tc:bench kernel=k key=N=8 config=X=1");
    uint64_t t = 10 * US;
    for (int i = 0; i < 12; i++) {
        for (int f = 0; f < (i == 0 ? 1 : 2); f++) {
            add(REC_KERNEL, t, t + 5 * US, "FillFunctor");
            t += 6 * US;
        }
        add(REC_KERNEL, t, t + 3 * US, "k");
        t += 4 * US;
    }
    r->end_ns = t;
    struct rec_session *s = rec_reconstruct(&g_s, NULL);
    ck_assert_msg(s != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(s->n_runs, 1);
    ck_assert_int_eq(s->runs[0].n_timed, 12);
    ck_assert_uint_eq(s->sum.n_unclassified, 1);
    rec_session_free(s);
}
END_TEST

START_TEST(test_record_bad_flush_regex)
{
    stream_reset();
    ck_assert_ptr_null(rec_reconstruct(&g_s, "("));
    ck_assert_msg(strstr(tc_errmsg(), "--flush-kernels '('") != NULL, "%s", tc_errmsg());
}
END_TEST

/* ---- spool files ---- */

static void put(FILE *fp, uint16_t type, const void *p, size_t n, const char *text)
{
    size_t tn = text ? strlen(text) + 1 : 0, size = (sizeof(struct spool_rec) + n + tn + 7) & ~(size_t)7;
    struct spool_rec h = {.type = type, .size_bytes = (uint32_t)size};
    unsigned char pad[8] = {0};
    fwrite(&h, sizeof h, 1, fp);
    fwrite(p, 1, n, fp);
    if (tn)
        fwrite(text, 1, tn, fp);
    fwrite(pad, 1, size - sizeof h - n - tn, fp);
}

static void write_spool(const char *path, uint32_t pid, int cut)
{
    FILE *fp = fopen(path, "wb");
    ck_assert_ptr_nonnull(fp);
    struct spool_file_header h = {.version = SPOOL_VERSION, .pid = pid, .ppid = 1, .start_ns = 1000};
    memcpy(h.magic, SPOOL_MAGIC, 8);
    fwrite(&h, sizeof h, 1, fp);
    struct spool_device d = {.cc = 90, .sms = 132, .driver_version = 13000, .l2_bytes = 62914560};
    put(fp, SPOOL_DEVICE, &d, sizeof d, "NVIDIA H200");
    struct spool_name n = {.id = 1};
    put(fp, SPOOL_NAME, &n, sizeof n, "matmul_kernel");
    struct spool_mark m = {.t_ns = 2000, .id = 5, .flag = SPOOL_MARK_START};
    put(fp, SPOOL_MARK, &m, sizeof m, "tc:bench kernel=matmul_kernel key=M=1 config=A=1");
    struct spool_kernel k = {.start_ns = 3000, .end_ns = 3500, .grid = {4, 1, 1}, .block = {128, 1, 1},
                             .registers = 40, .static_smem_bytes = 100, .dynamic_smem_bytes = 1000, .name_id = 1};
    put(fp, SPOOL_KERNEL, &k, sizeof k, NULL);
    struct spool_kernel inc = {.start_ns = 0, .end_ns = 0, .name_id = 1}; /* handed over unfinished */
    put(fp, SPOOL_KERNEL, &inc, sizeof inc, NULL);
    struct spool_memset ms = {.start_ns = 3600, .end_ns = 3700, .bytes = 1 << 20};
    put(fp, SPOOL_MEMSET, &ms, sizeof ms, NULL);
    struct spool_mark me = {.t_ns = 4000, .id = 5, .flag = SPOOL_MARK_END};
    put(fp, SPOOL_MARK, &me, sizeof me, "");
    if (cut) { /* a kernel record cut in the middle, as a killed process leaves it */
        struct spool_rec hh = {.type = SPOOL_KERNEL, .size_bytes = sizeof hh + sizeof k};
        fwrite(&hh, sizeof hh, 1, fp);
        fwrite(&k, 1, 10, fp);
    } else {
        struct spool_end e = {.end_ns = 9000};
        put(fp, SPOOL_END, &e, sizeof e, NULL);
    }
    fclose(fp);
}

START_TEST(test_record_spool_read)
{
    tt_tmpdir_make("test-record");
    write_spool(tt_path("11.spool"), 11, 0);
    write_spool(tt_path("12.spool"), 12, 1);
    struct rec_stream *s = rec_spool_read(tt_tmpdir());
    ck_assert_msg(s != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(s->n_proc, 2);
    ck_assert_uint_eq(s->proc[0].end_ns, 9000);
    ck_assert_uint_eq(s->proc[1].end_ns, 0); /* killed: no end record */
    ck_assert_uint_eq(s->n, 6);              /* per file: a range, a kernel, a memset */
    ck_assert_uint_eq(s->n_incomplete, 2);   /* per file: a kernel without timestamps, left out */
    ck_assert_str_eq(s->device_name, "NVIDIA H200");
    ck_assert_int_eq(s->device_cc, 90);
    ck_assert_int_eq(s->ev[0].kind, REC_RANGE);
    ck_assert_uint_eq(s->ev[0].end_ns, 4000);
    ck_assert_int_eq(s->ev[2].kind, REC_KERNEL);
    ck_assert_str_eq(s->ev[2].name, "matmul_kernel");
    ck_assert_int_eq(s->ev[2].smem_bytes, 1100);
    ck_assert_int_eq(s->ev[4].kind, REC_MEMSET);
    ck_assert_uint_eq(s->ev[4].bytes, 1u << 20);
    rec_stream_free(s);
    /* not a spool file */
    FILE *fp = fopen(tt_path("13.spool"), "w");
    fputs("hello", fp);
    fclose(fp);
    ck_assert_ptr_null(rec_spool_read(tt_tmpdir()));
    ck_assert_msg(strstr(tc_errmsg(), "13.spool: not a tunecost spool file") != NULL, "%s", tc_errmsg());
    tt_tmpdir_remove();
}
END_TEST

/* A spool file holding one name record with id `id`: 40 bytes of header, 8 of record header, 8 of id, 16 of text. */
static void write_name_spool(const char *path, uint32_t id)
{
    FILE *fp = fopen(path, "wb");
    ck_assert_ptr_nonnull(fp);
    struct spool_file_header h = {.version = SPOOL_VERSION, .pid = 3, .ppid = 1, .start_ns = 1000};
    memcpy(h.magic, SPOOL_MAGIC, 8);
    fwrite(&h, sizeof h, 1, fp);
    struct spool_name n = {.id = id};
    put(fp, SPOOL_NAME, &n, sizeof n, "kkkkkkkkkkkkkkk");
    fclose(fp);
}

/* A name id is bounded by what the file can hold (72 bytes: at most 72 / 16 + 1 = 5 ids, 0..4): the ids that
 * crashed (wrapped to a table of 0 or 63 entries), freed the table twice or asked for 1.6 GB and 16 GiB are one
 * line naming the file; the largest id that fits reads. */
START_TEST(test_record_spool_name_id_bounded)
{
    static const uint32_t bad[] = {0xFFFFFFFFu, 0xFFFFFFC0u, 200000000u, 0x7FFFFFFFu, 5u};
    tt_tmpdir_make("test-record");
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        write_name_spool(tt_path("1.spool"), bad[i]);
        ck_assert_ptr_null(rec_spool_read(tt_tmpdir()));
        ck_assert_msg(strstr(tc_errmsg(), "1.spool: damaged name record") != NULL, "%s", tc_errmsg());
    }
    write_name_spool(tt_path("1.spool"), 4);
    struct rec_stream *s = rec_spool_read(tt_tmpdir());
    ck_assert_msg(s != NULL, "%s", tc_errmsg());
    rec_stream_free(s);
    tt_tmpdir_remove();
}
END_TEST

/* Static + dynamic shared memory past INT32_MAX (2^31 - 1 + 1) is a damaged record, not a signed overflow; the
 * largest sum that fits, 2^31 - 1, is kept exactly. */
START_TEST(test_record_spool_smem_sum)
{
    tt_tmpdir_make("test-record");
    for (int big = 0; big < 2; big++) {
        FILE *fp = fopen(tt_path("1.spool"), "wb");
        struct spool_file_header h = {.version = SPOOL_VERSION, .pid = 3, .ppid = 1, .start_ns = 1000};
        memcpy(h.magic, SPOOL_MAGIC, 8);
        fwrite(&h, sizeof h, 1, fp);
        struct spool_kernel k = {.start_ns = 3000, .end_ns = 3500, .static_smem_bytes = INT32_MAX - 1,
                                 .dynamic_smem_bytes = big ? 2 : 1};
        put(fp, SPOOL_KERNEL, &k, sizeof k, NULL);
        fclose(fp);
        struct rec_stream *s = rec_spool_read(tt_tmpdir());
        if (big) {
            ck_assert_ptr_null(s);
            ck_assert_msg(strstr(tc_errmsg(), "damaged kernel record") != NULL, "%s", tc_errmsg());
        } else {
            ck_assert_msg(s != NULL, "%s", tc_errmsg());
            ck_assert_int_eq(s->ev[0].smem_bytes, INT32_MAX);
            rec_stream_free(s);
        }
    }
    /* an empty folder: an empty stream (no qsort of a NULL array) */
    unlink(tt_path("1.spool"));
    struct rec_stream *s = rec_spool_read(tt_tmpdir());
    ck_assert_msg(s != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(s->n, 0);
    ck_assert_uint_eq(s->n_proc, 0);
    rec_stream_free(s);
    tt_tmpdir_remove();
}
END_TEST

/* Label parts: each NAME=VALUE, the value everything after the first '=' (so "MODE=a=b" is MODE "a=b"), empty
 * parts skipped; a part without '=' (or without a name) is one line quoting it, read no further than the string. */
START_TEST(test_record_label_parts)
{
    stream_reset();
    struct rec_event *r = add(REC_RANGE, 0, 0, "tc:bench kernel=mm key=M=256,,N=2 config=BM=64,MODE=a=b");
    r->end_ns = do_bench(10 * US, "mm", 30 * US, 1, 3, 4);
    struct rec_session *s = rec_reconstruct(&g_s, NULL);
    ck_assert_msg(s != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(s->n_params, 2);
    ck_assert_str_eq(s->param_names[0], "BM");
    ck_assert_int_eq(s->params[0], 64);
    ck_assert_str_eq(s->param_names[1], "MODE");
    ck_assert_str_eq(s->param_values[1][s->params[1]], "a=b");
    ck_assert_int_eq(s->n_dims, 2);
    ck_assert_int_eq(s->dims[0], 256);
    ck_assert_int_eq(s->dims[1], 2);
    rec_session_free(s);
    static const char *const bad[] = {"tc:bench kernel=mm key=M=256,float16 config=BM=64",
                                      "tc:bench kernel=mm key=M=256 config=64", "tc:bench kernel=mm key==5 config=A=1"};
    static const char *const part[] = {"'float16'", "'64'", "'=5'"};
    for (int i = 0; i < 3; i++) {
        stream_reset();
        r = add(REC_RANGE, 0, 0, bad[i]);
        r->end_ns = do_bench(10 * US, "mm", 30 * US, 1, 3, 4);
        ck_assert_ptr_null(rec_reconstruct(&g_s, NULL));
        ck_assert_msg(strstr(tc_errmsg(), part[i]) != NULL && strstr(tc_errmsg(), "is not NAME=VALUE") != NULL &&
                      strchr(tc_errmsg(), '\n') == NULL, "%s", tc_errmsg());
    }
}
END_TEST

/* A reconstructed session written as a trace reads back with the same runs, and the trace library's median and
 * best configuration are those of the timed executions. */
START_TEST(test_record_write_reads_back)
{
    tt_tmpdir_make("test-record");
    stream_reset();
    struct rec_event *r = add(REC_RANGE, 0, 0, "tc:bench kernel=mm key=M=64 config=BM=16,MODE=fast");
    uint64_t t = do_bench(10 * US, "mm", 30 * US, 1, 3, 4);
    r->end_ns = t;
    r = add(REC_RANGE, t + 10 * US, 0, "tc:bench kernel=mm key=M=64 config=BM=32,MODE=slow");
    r->end_ns = do_bench(t + 20 * US, "mm", 20 * US, 1, 3, 4);
    struct rec_session *s = rec_reconstruct(&g_s, NULL);
    ck_assert_msg(s != NULL, "%s", tc_errmsg());
    struct trace_meta m = tt_meta("test-record", NAN);
    ck_assert_msg(rec_session_write(s, &m, tt_path("r.h5"), 0) == 0, "%s", tc_errmsg());
    struct trace *tr = trace_open(tt_path("r.h5"));
    ck_assert_msg(tr != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(trace_n_runs(tr), 2);
    double med;
    ck_assert_int_eq(trace_best_config(tr, 0, &med, NULL), 1);
    /* the second candidate's timed calls are its 8th..10th: 20 us + 7, 8, 9 ns -> median 20008 ns */
    ck_assert_double_eq_tol(med, 20008.0, 1e-9);
    ck_assert_str_eq(trace_param_name(tr, 1), "MODE");
    ck_assert_int_eq(trace_params(tr, 1)[1], 1); /* index of "slow" in MODE's values */
    trace_close(tr);
    rec_session_free(s);
    tt_tmpdir_remove();
}
END_TEST

/* The TSV row of a do_bench run: the kernel-duration median of the timed calls (as the trace has it), and what
 * CUDA events would report: the median of the timed calls' event intervals, and the minima over the flushed calls. */
START_TEST(test_record_tsv_event_columns)
{
    tt_tmpdir_make("test-record");
    stream_reset();
    struct rec_event *r = add(REC_RANGE, 0, 0, "tc:bench kernel=mm key=M=64 config=BM=16");
    r->end_ns = do_bench(10 * US, "mm", 100 * US, 2, 4, 4) + 1;
    struct rec_session *s = rec_reconstruct(&g_s, NULL);
    ck_assert_msg(s != NULL, "%s", tc_errmsg());
    ck_assert_msg(rec_session_write_tsv(s, tt_path("r.tsv"), 0) == 0, "%s", tc_errmsg());
    FILE *fp = fopen(tt_path("r.tsv"), "r");
    char head[1024], row[1024];
    ck_assert_ptr_nonnull(fgets(head, sizeof head, fp));
    ck_assert_ptr_nonnull(fgets(row, sizeof row, fp));
    ck_assert_ptr_null(fgets(row + 512, 512, fp)); /* one run, one row */
    fclose(fp);
    ck_assert_msg(strstr(head, "\tmedian_ns\t") != NULL && strstr(head, "\tevent_median_ns\tmin_ns\tevent_min_ns\n"),
                  "%s", head);
    /* executions 0..11 last 100 us + i ns; the timed ones are 8..11 (median 100009.5 ns) and each flushed call
     * starts 10 us after its flush ends (event intervals 110 us + i: median 110009.5); the flushed calls are 1..5
     * and 8..11, their minima 100001 and 110001 ns */
    const char *tail = strstr(row, "\t100009.5\t");
    ck_assert_msg(tail != NULL, "%s", row);
    ck_assert_msg(strstr(row, "\t110009.5\t100001.0\t110001.0\n") != NULL, "%s", row);
    rec_session_free(s);
    tt_tmpdir_remove();
}
END_TEST

static const char *g_tunecost;

/* Run `tunecost record ARGS` (a shell command line after the executable), output to tt_path("out.txt"). */
static int run_record(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s record %s >%s 2>&1", g_tunecost, args, tt_path("out.txt"));
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(test_record_cli_from_spool)
{
    char args[4096], spool[1024], out[1024], tsv[1024];
    struct stat st;
    tt_tmpdir_make("test-record-cli");
    snprintf(spool, sizeof spool, "%s/sp", tt_tmpdir());
    ck_assert_int_eq(mkdir(spool, 0755), 0);
    snprintf(out, sizeof out, "%s/sp/11.spool", tt_tmpdir());
    write_spool(out, 11, 0);
    snprintf(out, sizeof out, "%s", tt_path("t.h5"));
    snprintf(tsv, sizeof tsv, "%s", tt_path("t.tsv"));
    snprintf(args, sizeof args, "--from-spool %s -o %s --tsv %s --flops '2*M*3'", spool, out, tsv);
    ck_assert_int_eq(run_record(args), 0);
    struct trace *t = trace_open(out);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(trace_n_runs(t), 1);
    ck_assert_double_eq(trace_input(t, 0)->flops, 6.0); /* key M=1 */
    ck_assert_str_eq(trace_get_meta(t)->device_name, "NVIDIA H200");
    ck_assert_str_eq(trace_get_meta(t)->protocol, "recorded");
    ck_assert_int_eq(trace_get_meta(t)->flush_bytes, 1 << 20); /* the memset */
    trace_close(t);
    ck_assert_int_eq(stat(tsv, &st), 0);
    /* an existing output without -f, a bad --flops, a missing spool folder, no command: usage errors, no file */
    ck_assert_int_eq(run_record(args), 2);
    snprintf(args, sizeof args, "--from-spool %s -o %s --flops '2*Q'", spool, tt_path("q.h5"));
    ck_assert_int_eq(run_record(args), 2);
    ck_assert_int_ne(stat(tt_path("q.h5"), &st), 0);
    snprintf(args, sizeof args, "--from-spool %s/none -o %s", tt_tmpdir(), tt_path("n.h5"));
    ck_assert_int_eq(run_record(args), 2);
    ck_assert_int_ne(stat(tt_path("n.h5"), &st), 0);
    snprintf(args, sizeof args, "-o %s", tt_path("c.h5"));
    ck_assert_int_eq(run_record(args), 2);
    tt_tmpdir_remove();
}
END_TEST

/* Helion 1.4.0's layout as spool files: the main process (pid 20) holds the tc:bench range and waits; its spawned
 * benchmark worker (pid 21, parent 20) runs do_bench inside a tc:job bench range: a first call, 5 calls after a
 * 1 MiB memset (a flush), 1 warm-up call, 3 flushed timed calls, 10 us kernels. */
static void write_worker_spools(const char *dir)
{
    char path[1100];
    for (uint32_t pid = 20; pid <= 21; pid++) {
        snprintf(path, sizeof path, "%.1000s/%u.spool", dir, pid);
        FILE *fp = fopen(path, "wb");
        ck_assert_ptr_nonnull(fp);
        struct spool_file_header h = {.version = SPOOL_VERSION, .pid = pid, .ppid = pid == 20 ? 1 : 20,
                                      .start_ns = 1000};
        memcpy(h.magic, SPOOL_MAGIC, 8);
        fwrite(&h, sizeof h, 1, fp);
        if (pid == 20) {
            struct spool_mark m = {.t_ns = 2000, .id = 1, .flag = SPOOL_MARK_START};
            put(fp, SPOOL_MARK, &m, sizeof m, "tc:bench kernel=softmax key=arg0_d0=4096 config=block_sizes_0=2");
            struct spool_mark me = {.t_ns = 900000, .id = 1, .flag = SPOOL_MARK_END};
            put(fp, SPOOL_MARK, &me, sizeof me, "");
        } else {
            struct spool_name n = {.id = 1};
            put(fp, SPOOL_NAME, &n, sizeof n, "_helion_softmax");
            struct spool_mark m = {.t_ns = 10000, .id = 7, .flag = SPOOL_MARK_START};
            put(fp, SPOOL_MARK, &m, sizeof m, "tc:job bench");
            uint64_t t = 20000;
            for (int call = 0; call < 10; call++) {
                if (call >= 1 && call != 6) { /* calls 1-5 (estimate) and 7-9 (timed) are flushed */
                    struct spool_memset ms = {.start_ns = t, .end_ns = t + 5000, .bytes = 1 << 20};
                    put(fp, SPOOL_MEMSET, &ms, sizeof ms, NULL);
                    t += 6000;
                }
                struct spool_kernel k = {.start_ns = t, .end_ns = t + 10000, .grid = {2048, 1, 1},
                                         .block = {256, 1, 1}, .registers = 32, .name_id = 1};
                put(fp, SPOOL_KERNEL, &k, sizeof k, NULL);
                t += 11000;
            }
            struct spool_mark me = {.t_ns = t + 1000, .id = 7, .flag = SPOOL_MARK_END};
            put(fp, SPOOL_MARK, &me, sizeof me, "");
        }
        fclose(fp);
    }
}

/* `record --from-spool` on Helion's two processes: the worker's launches are the candidate's, timed and ok. */
START_TEST(test_record_cli_benchmark_in_worker)
{
    char args[4096], spool[1024], out[1024];
    tt_tmpdir_make("test-record-worker");
    snprintf(spool, sizeof spool, "%s/sp", tt_tmpdir());
    ck_assert_int_eq(mkdir(spool, 0755), 0);
    write_worker_spools(spool);
    snprintf(out, sizeof out, "%s", tt_path("w.h5"));
    snprintf(args, sizeof args, "--from-spool %s -o %s", spool, out);
    ck_assert_int_eq(run_record(args), 0);
    struct trace *t = trace_open(out);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(trace_n_runs(t), 1);
    const struct trace_run *run = trace_run(t, 0);
    ck_assert_int_eq(run->status, TRACE_OK);
    ck_assert_int_eq(run->n_estimate, 6);
    ck_assert_int_eq(run->n_warmup, 1);
    ck_assert_int_eq(run->n_timed, 3);
    trace_close(t);
    tt_tmpdir_remove();
}
END_TEST

/* The first line of the last run_record's output, and how many lines it had. */
static int out_lines(char *first, size_t len)
{
    FILE *fp = fopen(tt_path("out.txt"), "r");
    char line[4096];
    int n = 0;
    first[0] = '\0';
    while (fp != NULL && fgets(line, sizeof line, fp) != NULL)
        if (n++ == 0)
            snprintf(first, len, "%s", line);
    if (fp != NULL)
        fclose(fp);
    return n;
}

/* -o and --tsv are checked like every output, before any work: an existing --tsv without -f, --tsv naming the
 * trace, -o or --tsv naming a spool file of the input (with -f too; through a hard link too), a FIFO: exit 2,
 * one line naming the option, the file untouched. */
START_TEST(test_record_cli_outputs_checked)
{
    char args[4096], spool[1024], first[4096];
    struct stat st;
    tt_tmpdir_make("test-record-cli");
    snprintf(spool, sizeof spool, "%s/sp", tt_tmpdir());
    ck_assert_int_eq(mkdir(spool, 0755), 0);
    write_spool(tt_path("sp/11.spool"), 11, 0);
    ck_assert_int_eq(stat(tt_path("sp/11.spool"), &st), 0);
    off_t spool_size = st.st_size;
    FILE *fp = fopen(tt_path("keep.tsv"), "w");
    fputs("keep\n", fp);
    fclose(fp);
    ck_assert_int_eq(link(tt_path("sp/11.spool"), tt_path("hard.h5")), 0);
    ck_assert_int_eq(mkfifo(tt_path("fifo"), 0644), 0);
    const struct {
        const char *o, *tsv, *force, *opt;
    } cases[] = {
        {"t.h5", "keep.tsv", "", "--tsv"},     {"t.h5", "t.h5", "-f", "--tsv"},  {"sp/11.spool", NULL, "-f", "-o"},
        {"hard.h5", NULL, "-f", "-o"},         {"t.h5", "sp/11.spool", "-f", "--tsv"},
        {"sp/12.spool", NULL, "", "-o"},       {"t.h5", "fifo", "-f", "--tsv"},  {"fifo", NULL, "-f", "-o"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char o[1024], tsv[1100] = "";
        snprintf(o, sizeof o, "%s", tt_path(cases[i].o));
        if (cases[i].tsv != NULL)
            snprintf(tsv, sizeof tsv, "--tsv %s", tt_path(cases[i].tsv));
        snprintf(args, sizeof args, "--from-spool %s -o %s %s %s", spool, o, tsv, cases[i].force);
        ck_assert_msg(run_record(args) == 2, "%s", args);
        ck_assert_msg(out_lines(first, sizeof first) == 1 && strncmp(first, "tunecost record: ", 17) == 0 &&
                      strstr(first, cases[i].opt) != NULL, "%s: %s", args, first);
    }
    ck_assert_int_eq(stat(tt_path("sp/11.spool"), &st), 0);
    ck_assert_int_eq(st.st_size, spool_size);
    ck_assert_int_ne(stat(tt_path("sp/12.spool"), &st), 0);
    ck_assert_int_ne(stat(tt_path("t.h5"), &st), 0);
    fp = fopen(tt_path("keep.tsv"), "r");
    char line[64] = "";
    ck_assert_ptr_nonnull(fgets(line, sizeof line, fp));
    fclose(fp);
    ck_assert_str_eq(line, "keep\n");
    ck_assert_int_eq(stat(tt_path("fifo"), &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
    tt_tmpdir_remove();
}
END_TEST

/* --flops and --flush-kernels are checked at option parsing, before the spool is read (the folder here does
 * not exist, so a late check would complain about it instead): one line naming the option, exit 2. */
START_TEST(test_record_cli_option_values_checked_first)
{
    static const char *const bad[] = {"--flops ''", "--flops 0", "--flops '-5*M'", "--flops '1e309*M'",
                                      "--flops '2**M'", "--flops '2*M*'", "--flops nan", "--flush-kernels ''",
                                      "--flush-kernels '('"};
    char args[4096], first[4096];
    tt_tmpdir_make("test-record-cli");
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(args, sizeof args, "--from-spool %s -o %s %s", tt_path("no-such-spool"), tt_path("t.h5"), bad[i]);
        ck_assert_msg(run_record(args) == 2, "%s", args);
        char opt[32];
        snprintf(opt, sizeof opt, "%.*s", (int)strcspn(bad[i], " "), bad[i]);
        ck_assert_msg(out_lines(first, sizeof first) == 1 && strstr(first, opt) != NULL &&
                      strstr(first, "no-such-spool") == NULL, "%s: %s", args, first);
    }
    tt_tmpdir_remove();
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s = suite_create("record");
    TCase *tc = tcase_create("reconstruct");
    if (argc > 1) {
        g_tunecost = argv[1];
        tcase_add_test(tc, test_record_cli_from_spool);
        tcase_add_test(tc, test_record_cli_outputs_checked);
        tcase_add_test(tc, test_record_cli_benchmark_in_worker);
        tcase_add_test(tc, test_record_cli_option_values_checked_first);
        suite_add_tcase(s, tc);
        return tt_run(s);
    }
    tcase_add_test(tc, test_record_labelled_do_bench);
    tcase_add_test(tc, test_record_labelled_inputs_configs_failures);
    tcase_add_test(tc, test_record_labelled_benchmark_in_worker);
    tcase_add_test(tc, test_record_unclassified_and_unfinished);
    tcase_add_test(tc, test_record_unlabelled);
    tcase_add_test(tc, test_record_unlabelled_inductor_processes);
    tcase_add_test(tc, test_record_unlabelled_multi_kernel_calls);
    tcase_add_test(tc, test_record_two_fills_not_memory_warmup);
    tcase_add_test(tc, test_record_bad_flush_regex);
    tcase_add_test(tc, test_record_spool_read);
    tcase_add_test(tc, test_record_spool_name_id_bounded);
    tcase_add_test(tc, test_record_spool_smem_sum);
    tcase_add_test(tc, test_record_label_parts);
    tcase_add_test(tc, test_record_write_reads_back);
    tcase_add_test(tc, test_record_tsv_event_columns);
    suite_add_tcase(s, tc);
    return tt_run(s);
}
