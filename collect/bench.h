/* bench.h — the benchmarking child: the one process of a collection that touches the GPU.
 * The coordinator (cmd_collect.c) forks it after the compile workers and talks to it over pipes, so a
 * configuration that faults the CUDA context (illegal address, a hang) costs only this child: the coordinator
 * records `launch error`, forks a fresh one and goes on. Messages are asynchronous: send a request, poll
 * bench_fd(), then bench_recv(). */
#ifndef COLLECT_BENCH_H
#define COLLECT_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace.h"

enum bench_timer { BENCH_TIMER_CUPTI = 0, BENCH_TIMER_EVENTS = 1 };
enum bench_protocol { BENCH_FIXED_TIME = 0, BENCH_TRITON = 1 };

/* Relative Frobenius error above which a configuration is `wrong result` (fp16 output of both sides: rounding
 * alone gives ~3e-4; a real indexing or pipeline bug gives O(1)). */
#define BENCH_DEFAULT_TOL 1e-2

struct bench_settings {
    int device;            /* CUDA device ordinal */
    int timer;             /* enum bench_timer */
    int protocol;          /* enum bench_protocol */
    double warmup_ms;      /* requested kernel time of warm-up */
    double rep_ms;         /* requested kernel time of timed executions */
    int64_t flush_bytes;   /* 0 = no flush; -1 = the device's L2 size */
    uint64_t seed;         /* input data */
    double tol;            /* verification threshold */
    double t0_ms;          /* the coordinator's start (tc_now_ms), for TC_TIMING=1 logs */
};

struct bench_device {
    char name[128];
    int32_t cc;            /* 90 */
    int32_t sms;
    int64_t l2_bytes;
    int32_t driver_version;
    int32_t smem_optin;    /* opt-in shared memory per block, bytes */
    int64_t mem_bytes;
    int64_t flush_bytes;   /* resolved */
    int32_t kernels_per_ref; /* cuBLAS kernels per call (CUPTI), set after an input */
};

/* Result of one (input, configuration) pair. exec_ns (malloc'ed) holds n_estimate + n_warmup + n_timed
 * durations in launch order. */
struct bench_result {
    struct trace_run run;  /* exec_offset unset */
    double load_ms;        /* module load (first use of the configuration in this child), NaN if cached */
    int fatal;             /* the child is gone (sticky CUDA error, crash, timeout): restart it */
    char msg[256];         /* why it failed, for the log ("" if ok) */
    uint64_t *exec_ns;
    size_t n_exec;
};

struct bench_child; /* opaque */

/* Fork the child; it reports the device as soon as the driver knows it (then bench_start returns) and goes on to
 * open the context, cuBLAS and CUPTI. A failure of that second part is the answer to the first request
 * (bench_recv returns -1). NULL on failure (message). */
struct bench_child *bench_start(const struct bench_settings *s, struct bench_device *dev);
int bench_fd(const struct bench_child *c);

/* Prepare input `input` (random A and B, the cuBLAS reference result, cuBLAS timed with the protocol). */
int bench_send_input(struct bench_child *c, int input, const int64_t *dims);
/* Verify and time configuration `config` (compiled for `path`, enum space_path) on the current input. The cubin
 * is cached by the child per config. */
int bench_send_run(struct bench_child *c, int config, const int32_t *params, int path, const void *cubin,
                   size_t len);
/* Receive the reply to the last request (blocking). For an input: *ref_ms receives cuBLAS's median and res is
 * untouched; for a run: *res. Returns 0, or 1 if the child died or reported a sticky error (res->fatal = 1,
 * res->run.status = TRACE_LAUNCH_ERROR for a run): call bench_restart. -1 on a protocol failure. */
int bench_recv(struct bench_child *c, double *ref_ms, struct bench_result *res);
/* bench_recv's answer when the child had ended (killed from outside) before the request reached it: nothing ran
 * and nothing is to be recorded; call bench_restart and send the request again. */
#define BENCH_NOT_RUN 2
/* Kill (if alive) and reap the child, then start a fresh one. */
int bench_restart(struct bench_child *c);
/* Kill the child now (watchdog). */
void bench_kill(struct bench_child *c);
/* Ask the child to exit without waiting for it (its CUDA teardown then overlaps the caller's own). NULL is fine. */
void bench_quit(struct bench_child *c);
/* Ask the idle child to exit and free, without waiting: the process that exits next (the coordinator) leaves
 * the child's CUDA teardown (~0.1 s on the H200) to finish on its own; init reaps it. Only for a coordinator that
 * exits right after (else the child stays a zombie). A next collection started at once on a GPU in
 * exclusive-process mode waits for the device (gpu_setup retries). NULL is fine. */
void bench_detach(struct bench_child *c);
/* Ask the child to exit, reap it, free. NULL is fine. */
void bench_stop(struct bench_child *c);
pid_t bench_pid(const struct bench_child *c);
/* When the first child finished its start-up (tc_now_ms clock), known from its first input reply; 0 before. */
double bench_ready_ms(const struct bench_child *c);


#endif
