/* compile.h — NVRTC compilation of GEMM configurations, in this process or in a pool of worker processes.
 * NVRTC serialises compiles across the threads of one process, so parallel compilation needs processes; they
 * are forked before any CUDA or thread start (compile_pool_start must come first in a collection). */
#ifndef COLLECT_COMPILE_H
#define COLLECT_COMPILE_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

/* Test-only kernel variants (kernels/gemm_f16.cu TC_VARIANT). */
enum compile_variant { VARIANT_NORMAL = 0, VARIANT_WRONG = 1, VARIANT_FAULT = 2, VARIANT_BAD_SYNTAX = 3,
                       VARIANT_FAULT_SOME = 4 };

struct compile_result {
    int32_t config;      /* index given in the request */
    int32_t status;      /* TRACE_OK or TRACE_COMPILE_ERROR (out of resources is decided by the caller) */
    double compile_ms;   /* NVRTC, source to cubin (wall time in the compiling process) */
    int32_t registers;   /* from ptxas -v; -1 if unknown */
    int32_t spill_bytes; /* spill stores, from ptxas -v; -1 if unknown */
    int32_t worker;      /* pool worker that compiled it; -1 in-process */
    char *log;           /* NUL-terminated compile log (malloc'ed, may be "") */
    void *cubin;         /* malloc'ed cubin, NULL on a compile error */
    size_t cubin_len;
};

/* Compile one configuration (SP_N_PARAMS values) of `src` for sm_<arch> in this process. Returns 0 with *res
 * filled (a compile error is a result, status TRACE_COMPILE_ERROR, with its log), or -1 when NVRTC itself fails. */
int compile_one(const char *src, const int32_t *params, int variant, int arch, int32_t config,
                struct compile_result *res);
/* The same for a configuration's path (enum space_path): the wgmma path compiles kernels/gemm_f16_wgmma.cu for
 * sm_90a instead of `src` for sm_<arch>. */
int compile_one_path(const char *src, const int32_t *params, int variant, int arch, int path, int32_t config,
                     struct compile_result *res);
void compile_result_free(struct compile_result *res);

struct compile_pool; /* opaque */

/* Fork `jobs` workers. Each compiles a tiny kernel for sm_<arch> first and reports the time as its warm-up.
 * Call before any CUDA or thread start. NULL on failure. */
struct compile_pool *compile_pool_start(int jobs, int arch, const char *src, int variant);
/* The niceness increment of the workers a later compile_pool_start forks: 5 (below the benchmarking process) by
 * default; 0 where nothing is benchmarked (--compile-only), so a loaded machine does not starve them. */
void compile_pool_set_nice(int inc);
/* Queue a configuration for sm_<arch> on `path` (enum space_path); it is sent to the next idle worker. */
int compile_pool_submit(struct compile_pool *p, int32_t config, const int32_t *params, int arch, int path);
/* Number of requests queued or in flight. */
int compile_pool_pending(const struct compile_pool *p);
/* The pool's descriptors to poll (POLLIN): writes up to max entries, returns the count. */
int compile_pool_pollfds(const struct compile_pool *p, struct pollfd *fds, int max);
/* Without blocking: returns 1 with a finished compile in *res, 0 if none is ready, -1 on failure (a worker
 * died). Call repeatedly (e.g. after poll() on compile_pool_pollfds) until it returns 0. */
int compile_pool_take(struct compile_pool *p, struct compile_result *res);
/* Block until every worker has reported its warm-up; then warmup_ms[w] for w < jobs. */
int compile_pool_wait_warmup(struct compile_pool *p);
const double *compile_pool_warmup_ms(const struct compile_pool *p);
int compile_pool_jobs(const struct compile_pool *p);
/* Let idle workers exit now (their pipes closed) without waiting for them. NULL is fine. */
void compile_pool_quit(struct compile_pool *p);
/* Ask workers to exit (busy ones are killed) and reap them. NULL is fine. */
void compile_pool_stop(struct compile_pool *p);

/* Registers and spill stores reported by "ptxas -v" in a compile log; -1 where absent. */
void compile_parse_ptxas(const char *log, int32_t *registers, int32_t *spill_bytes);

#endif
