/* bench_int.h — the benchmarking child's state and the functions its files share (private to collect/bench_*.c):
 * bench_gpu.c (start-up, buffers, modules, launches, inputs, verification), bench_cupti.c (activity records),
 * bench_protocol.c (the fixed-time and Triton protocols) and bench_child.c (the request loop). */
#ifndef COLLECT_BENCH_INT_H
#define COLLECT_BENCH_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "bench.h"
#include "bench_wire.h"
#include "tc_err.h"
#include "cuda_api.h"
#include "space.h"

/* ---- CUPTI activity records: kernel start/end, classified by the kernel's name ---- */
enum { CLS_GEMM, CLS_FLUSH, CLS_HELPER, CLS_OTHER };
struct krec {
    uint64_t start, end;
    int cls;
};

/* A growing list of durations. */
struct seq {
    uint64_t *ns;
    size_t n, cap;
};

/* ---- the child's state ---- */
struct module {
    int32_t config;
    int32_t path;        /* enum space_path */
    CUmodule mod;
    CUfunction fn;
    int32_t params[SP_N_PARAMS];
    int64_t tmap_input;  /* wgmma path: the input generation tm[] was encoded for (-1: none) */
    CUtensorMap tm[2];   /* wgmma path: A and B tensor maps */
    int resident;        /* wgmma path: blocks per multiprocessor (its grid is persistent) */
};

/* The helper kernels are compiled by NVRTC on a thread of their own while the main thread opens the device. */
struct helpers_job {
    int cc;
    void *cubin;
    size_t len;
    int rc;
    struct tc_err_saved err;
};

struct gpu {
    struct bench_settings s;
    struct bench_device d;
    CUdevice dev;
    CUcontext ctx;
    CUstream stream;
    CUmodule helpers;
    CUfunction f_random, f_fill, f_flush, f_relerr;
    cublasHandle_t blas;
    CUdeviceptr a, b, c, cref, flush, err;
    int64_t input_gen; /* counts set_input calls (the wgmma path's tensor maps are per input) */
    size_t a_cap, b_cap, c_cap, cref_cap; /* bytes allocated */
    int64_t m, n, k;
    int have_input;
    int ref_per_call;           /* cuBLAS kernels per call */
    struct module *mods;
    int n_mods, cap_mods;
    struct module *cur;         /* module of the run in progress */
    CUevent *ev;                /* event pool (timer events) */
    CUevent mark[2];            /* around Triton's estimate and the verification launch */
    CUevent pipe_ev[6];         /* three start/end pairs around the batches of a pipelined phase */
    int check_timer;            /* TC_TIMER_CHECK=1: events too, around every CUPTI-timed execution */
    int timing;                 /* TC_TIMING=1: start-up phases on stderr */
    struct helpers_job hj;      /* the helper kernels' compilation, on its own thread during start-up */
    pthread_t libs_thread;      /* loads NVRTC, cuBLAS and CUPTI while the main thread runs cuInit */
    int libs_started, libs_rc, libs_cupti;
    struct tc_err_saved libs_err;
    pthread_t hj_thread;
    int hj_started;
    double ready_ms;            /* when start-up finished (CLOCK_MONOTONIC ms, the coordinator's clock too) */
    struct {                    /* TC_TIMING=1: where a run's host time goes (ms), printed per run */
        int batches;
        double launch, sync, cupti, verify_gemm, verify_check;
    } tm;
    double check_events_ms, check_cupti_ms;
    int n_ev;
    char errbuf[256];
};

/* Kinds of launches the protocols time. */
enum target { T_GEMM, T_REF };

/* bench_cupti.c: CUPTI activity records of every kernel, classified by name. */
int bench_cupti_enable(void);
/* Take every CUPTI record delivered so far (sorted by start) into *recs (malloc'ed). */
int bench_cupti_take(struct krec **recs, size_t *n);
/* Discard records gathered so far (after verification, before a protocol); nothing without the CUPTI timer. */
int bench_cupti_discard(struct gpu *g);
/* After a synchronisation: the CUPTI records of the last n launches of target t, appended to *out as execution
 * durations (a cuBLAS call's kernels summed); flush kernels' time added to *flush_ms; *batch_ms = their sum. */
int bench_cupti_collect(struct gpu *g, enum target t, long n, struct seq *out, double *flush_ms, double *batch_ms);
/* Append v to s (grows it). 0 or -1 (message). */
int bench_seq_push(struct seq *s, uint64_t v);

/* bench_launch.c: the launches (below bench_protocol.c and bench_gpu.c). */
CUresult bench_launch_1d(struct gpu *g, CUfunction f, unsigned blocks, unsigned threads, void **args);
CUresult bench_launch_flush(struct gpu *g);
/* The current module's GEMM on the current input (tensor maps encoded once per module and input). */
CUresult bench_launch_gemm(struct gpu *g);
/* cuBLAS, row-major C = A B computed as column-major C^T = B^T A^T. 0 or -1 (message). */
int bench_launch_ref(struct gpu *g);
/* One execution of target t (the current module's GEMM or a cuBLAS call). 0 or -1 (message). */
int bench_launch_target(struct gpu *g, enum target t);

/* bench_gpu.c: the device, its buffers and modules, inputs and verification. */
int bench_gpu_open(struct gpu *g);
int bench_gpu_setup(struct gpu *g);
/* Prepare an input: random A and B, cuBLAS's reference result, *ref_ms = cuBLAS's median under the protocol. */
int bench_set_input(struct gpu *g, const int64_t *dims, double *ref_ms);
/* Load (or find) the module of a configuration. *load_ms = NaN when it was cached. */
int bench_module_get(struct gpu *g, const struct run_wire *rw, const void *cubin, double *load_ms);
/* One verification launch on NaN-poisoned C; *rel = ||C - Cref||_F / ||Cref||_F (inf if any C is not finite). */
int bench_verify(struct gpu *g, double *rel, double *est_ms);

/* bench_protocol.c: run the selected protocol on target t. est_ms: a first per-execution estimate (e.g. the
 * verification). */
int bench_run_protocol(struct gpu *g, enum target t, double est_ms, struct trace_run *run, struct seq *ex);

/* bench_child.c: the child's request loop; never returns. */
void bench_child_main(int in_fd, int out_fd, const struct bench_settings *s);

#endif
