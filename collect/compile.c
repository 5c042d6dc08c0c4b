/* compile.c — NVRTC compilation of GEMM configurations and the pool of forked compile workers (compile.h). */
#include "compile.h"
#include "cuda_api.h"
#include "ipc.h"
#include "kernels_src.h"
#include "space.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_time.h"
#include "trace.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void compile_parse_ptxas(const char *log, int32_t *registers, int32_t *spill_bytes)
{
    const char *s;
    *registers = -1;
    *spill_bytes = -1;
    if ((s = strstr(log, "Used ")) != NULL)
        sscanf(s, "Used %d registers", registers);
    if ((s = strstr(log, "bytes spill stores")) != NULL) {
        /* "... stack frame, 84104 bytes spill stores": walk back to the number */
        const char *b = s;
        while (b > log && b[-1] == ' ')
            b--;
        while (b > log && b[-1] >= '0' && b[-1] <= '9')
            b--;
        sscanf(b, "%d", spill_bytes);
    }
}

void compile_result_free(struct compile_result *res)
{
    if (res == NULL)
        return;
    free(res->log);
    free(res->cubin);
    res->log = NULL;
    res->cubin = NULL;
}

int compile_one(const char *src, const int32_t *params, int variant, int arch, int32_t config,
                struct compile_result *res)
{
    return compile_one_path(src, params, variant, arch, SPACE_PATH_MMA_SYNC, config, res);
}

int compile_one_path(const char *src, const int32_t *params, int variant, int arch, int path, int32_t config,
                     struct compile_result *res)
{
    nvrtcProgram prog = NULL;
    char defs[SP_N_PARAMS + 2][48];
    const char *opts[SP_N_PARAMS + 8];
    int n_opts = 0, rc = -1;
    size_t log_len = 0;
    nvrtcResult r;
    double t0;

    memset(res, 0, sizeof *res);
    res->config = config;
    res->worker = -1;
    res->registers = res->spill_bytes = -1;
    for (int p = 0; p < SP_N_PARAMS; p++) {
        snprintf(defs[p], sizeof defs[p], "-D%s=%d", space_param_names[p], params[p]);
        opts[n_opts++] = defs[p];
    }
    snprintf(defs[SP_N_PARAMS], sizeof defs[0], "-DTC_VARIANT=%d", variant);
    opts[n_opts++] = defs[SP_N_PARAMS];
    if (path == SPACE_PATH_WGMMA) {
        src = tc_src_gemm_f16_wgmma;
        snprintf(defs[SP_N_PARAMS + 1], sizeof defs[0], "--gpu-architecture=sm_90a");
    } else {
        snprintf(defs[SP_N_PARAMS + 1], sizeof defs[0], "--gpu-architecture=sm_%d", arch);
    }
    opts[n_opts++] = defs[SP_N_PARAMS + 1];
    opts[n_opts++] = "--std=c++17";
    opts[n_opts++] = "-Xptxas";
    opts[n_opts++] = "-v";

    if (cuapi_load_nvrtc() != 0)
        goto out;
    t0 = tc_now_ms();
    TC_TRY(nvrtc, nvr.nvrtcCreateProgram(&prog, src, path == SPACE_PATH_WGMMA ? "gemm_f16_wgmma.cu" : "gemm_f16.cu",
                                         0, NULL, NULL));
    r = nvr.nvrtcCompileProgram(prog, n_opts, opts);
    if (r == NVRTC_SUCCESS) {
        TC_TRY(nvrtc, nvr.nvrtcGetCUBINSize(prog, &res->cubin_len));
        res->cubin = malloc(res->cubin_len);
        if (res->cubin == NULL) {
            tc_seterr_env("out of memory for a cubin of %zu bytes", res->cubin_len);
            goto out;
        }
        TC_TRY(nvrtc, nvr.nvrtcGetCUBIN(prog, res->cubin));
    } else if (r != NVRTC_ERROR_COMPILATION) {
        cuapi_check_nvrtc(r, "nvrtcCompileProgram", __FILE__, __LINE__);
        goto out;
    }
    res->compile_ms = tc_now_ms() - t0;
    res->status = r == NVRTC_SUCCESS ? TRACE_OK : TRACE_COMPILE_ERROR;
    TC_TRY(nvrtc, nvr.nvrtcGetProgramLogSize(prog, &log_len));
    res->log = malloc(log_len + 1);
    if (res->log == NULL) {
        tc_seterr_env("out of memory for a compile log");
        goto out;
    }
    res->log[0] = '\0';
    if (log_len > 0)
        TC_TRY(nvrtc, nvr.nvrtcGetProgramLog(prog, res->log));
    res->log[log_len] = '\0';
    compile_parse_ptxas(res->log, &res->registers, &res->spill_bytes);
    rc = 0;
out:
    if (prog != NULL)
        nvr.nvrtcDestroyProgram(&prog);
    if (rc != 0)
        compile_result_free(res);
    return rc;
}

/* ---- the worker pool --------------------------------------------------------------------------------------- */

enum { MSG_REQ = 1, MSG_WARMUP = 2, MSG_RESULT = 3, MSG_FAIL = 4 };

struct req {
    int32_t config;
    int32_t arch;
    int32_t path;
    int32_t params[SP_N_PARAMS];
};

/* Fixed part of a MSG_RESULT; followed by log_len bytes of log and cubin_len bytes of cubin. */
struct result_wire {
    int32_t config, status, registers, spill_bytes;
    double compile_ms;
    uint64_t log_len, cubin_len;
};

struct worker {
    pid_t pid;
    int to_fd, from_fd; /* requests out, results in */
    int busy;           /* a request is in flight */
    int warm;           /* warm-up reported */
};

struct compile_pool {
    int jobs;
    struct worker *w;
    double *warmup_ms;
    struct req *queue; /* FIFO of requests not yet sent */
    int q_head, q_len, q_cap;
    int in_flight;
};

static const char warmup_src[] = "extern \"C\" __global__ void tc_warmup(int *p) { if (p) *p = 1; }\n";

static int worker_warmup(int arch, double *ms)
{
    nvrtcProgram prog = NULL;
    char a[48];
    const char *opts[1] = {a};
    double t0 = tc_now_ms();
    int rc = -1;
    snprintf(a, sizeof a, "--gpu-architecture=sm_%d", arch);
    if (cuapi_load_nvrtc() != 0) /* part of a worker's warm-up: loading NVRTC is what a fresh worker pays first */
        goto out;
    TC_TRY(nvrtc, nvr.nvrtcCreateProgram(&prog, warmup_src, "warmup.cu", 0, NULL, NULL));
    TC_TRY(nvrtc, nvr.nvrtcCompileProgram(prog, 1, opts));
    *ms = tc_now_ms() - t0;
    rc = 0;
out:
    if (prog != NULL)
        nvr.nvrtcDestroyProgram(&prog);
    return rc;
}

static int worker_nice = 5; /* compile_pool_set_nice */

void compile_pool_set_nice(int inc)
{
    worker_nice = inc;
}

static void compile_worker_main(int in_fd, int out_fd, int arch, const char *src, int variant)
{
    double warm = 0.0;
    signal(SIGINT, SIG_IGN); /* Ctrl-C is the coordinator's to handle */
    /* Below the benchmarking process: its launches and syncs must not wait for a CPU behind 16 compilers. */
    if (worker_nice != 0 && nice(worker_nice) == -1 && errno != 0)
        errno = 0;
    /* NVRTC 12.9+ reuses results from the driver's compute cache when a driver is present: a repeated
     * configuration then "compiles" in ~15 ms. compile_ms must be the real cost, so the cache is off here unless
     * the caller kept it (collect --compile-cache sets TC_COMPILE_CACHE=1). */
    if (!tc_env_flag("TC_COMPILE_CACHE"))
        setenv("CUDA_CACHE_DISABLE", "1", 1);
    if (worker_warmup(arch, &warm) != 0) {
        ipc_send(out_fd, MSG_FAIL, tc_errmsg(), strlen(tc_errmsg()), NULL, 0);
        _exit(1);
    }
    if (ipc_send(out_fd, MSG_WARMUP, &warm, sizeof warm, NULL, 0) != 0)
        _exit(1);
    for (;;) {
        struct ipc_hdr h;
        void *payload = NULL;
        struct compile_result res;
        struct result_wire rw;
        int r = ipc_recv(in_fd, &h, &payload);
        if (r != 0 || h.type != MSG_REQ || h.len != sizeof(struct req))
            _exit(r == 1 ? 0 : 1);
        const struct req *q = payload;
        if (compile_one_path(src, q->params, variant, q->arch, q->path, q->config, &res) != 0) {
            ipc_send(out_fd, MSG_FAIL, tc_errmsg(), strlen(tc_errmsg()), NULL, 0);
            _exit(1);
        }
        rw.config = res.config;
        rw.status = res.status;
        rw.registers = res.registers;
        rw.spill_bytes = res.spill_bytes;
        rw.compile_ms = res.compile_ms;
        rw.log_len = strlen(res.log);
        rw.cubin_len = res.cubin_len;
        if (ipc_send(out_fd, MSG_RESULT, &rw, sizeof rw, res.log, rw.log_len) != 0 ||
            (res.cubin_len > 0 && ipc_write_all(out_fd, res.cubin, res.cubin_len) != 0))
            _exit(1);
        compile_result_free(&res);
        free(payload);
    }
}

struct compile_pool *compile_pool_start(int jobs, int arch, const char *src, int variant)
{
    struct compile_pool *p = calloc(1, sizeof *p);
    if (p == NULL || jobs < 1) {
        free(p);
        tc_seterr("cannot start a compile pool of %d workers", jobs);
        return NULL;
    }
    p->w = calloc((size_t)jobs, sizeof *p->w);
    p->warmup_ms = calloc((size_t)jobs, sizeof *p->warmup_ms);
    if (p->w == NULL || p->warmup_ms == NULL) {
        compile_pool_stop(p);
        tc_seterr_env("out of memory");
        return NULL;
    }
    for (int i = 0; i < jobs; i++) {
        int to[2], from[2];
        pid_t pid;
        if (pipe(to) != 0 || pipe(from) != 0) {
            tc_seterr("cannot create pipes for compile worker %d: %s", i, strerror(errno));
            compile_pool_stop(p);
            return NULL;
        }
        fflush(NULL);
        pid = fork();
        if (pid < 0) {
            tc_seterr("cannot fork compile worker %d: %s", i, strerror(errno));
            compile_pool_stop(p);
            return NULL;
        }
        if (pid == 0) {
            int keep[2] = {to[0], from[1]};
            ipc_close_others(keep, 2);
            compile_worker_main(to[0], from[1], arch, src, variant);
            _exit(0);
        }
        close(to[0]);
        close(from[1]);
        p->w[i].pid = pid;
        p->w[i].to_fd = to[1];
        p->w[i].from_fd = from[0];
        p->jobs = i + 1;
    }
    return p;
}

int compile_pool_jobs(const struct compile_pool *p)
{
    return p->jobs;
}

const double *compile_pool_warmup_ms(const struct compile_pool *p)
{
    return p->warmup_ms;
}

static int compile_dispatch(struct compile_pool *p)
{
    for (int i = 0; i < p->jobs && p->q_len > 0; i++) {
        struct req *q;
        if (p->w[i].busy || !p->w[i].warm)
            continue;
        q = &p->queue[p->q_head];
        if (ipc_send(p->w[i].to_fd, MSG_REQ, q, sizeof *q, NULL, 0) != 0)
            return tc_preferr("compile worker %d", i);
        p->q_head = (p->q_head + 1) % p->q_cap;
        p->q_len--;
        p->w[i].busy = 1;
        p->in_flight++;
    }
    return 0;
}

int compile_pool_submit(struct compile_pool *p, int32_t config, const int32_t *params, int arch, int path)
{
    if (p->q_len == p->q_cap) {
        int cap = p->q_cap ? p->q_cap * 2 : 64;
        struct req *nq = malloc((size_t)cap * sizeof *nq);
        if (nq == NULL)
            return tc_seterr_env("out of memory");
        for (int i = 0; i < p->q_len; i++)
            nq[i] = p->queue[(p->q_head + i) % p->q_cap];
        free(p->queue);
        p->queue = nq;
        p->q_head = 0;
        p->q_cap = cap;
    }
    struct req *q = &p->queue[(p->q_head + p->q_len) % p->q_cap];
    q->config = config;
    q->arch = arch;
    q->path = path;
    memcpy(q->params, params, sizeof q->params);
    p->q_len++;
    return compile_dispatch(p);
}

int compile_pool_pending(const struct compile_pool *p)
{
    return p->q_len + p->in_flight;
}

int compile_pool_pollfds(const struct compile_pool *p, struct pollfd *fds, int max)
{
    int n = 0;
    for (int i = 0; i < p->jobs && n < max; i++) {
        fds[n].fd = p->w[i].from_fd;
        fds[n].events = POLLIN;
        fds[n].revents = 0;
        n++;
    }
    return n;
}

/* Read one message from worker i (known readable). 1 = result in *res, 0 = warm-up handled, -1 = failure. */
static int read_worker(struct compile_pool *p, int i, struct compile_result *res)
{
    struct ipc_hdr h;
    void *payload = NULL;
    int r = ipc_recv(p->w[i].from_fd, &h, &payload);
    if (r != 0)
        return tc_seterr("compile worker %d (pid %ld) died%s%s", i, (long)p->w[i].pid, r < 0 ? ": " : "",
                         r < 0 ? tc_errmsg() : "");
    if (h.type == MSG_FAIL) {
        tc_seterr("compile worker %d: %s", i, (char *)payload);
        free(payload);
        return -1;
    }
    if (h.type == MSG_WARMUP && h.len == sizeof(double)) {
        memcpy(&p->warmup_ms[i], payload, sizeof(double));
        p->w[i].warm = 1;
        free(payload);
        return compile_dispatch(p) == 0 ? 0 : -1;
    }
    if (h.type != MSG_RESULT || h.len < sizeof(struct result_wire)) {
        free(payload);
        return tc_seterr("compile worker %d: unexpected message %u", i, h.type);
    }
    struct result_wire rw;
    memcpy(&rw, payload, sizeof rw);
    memset(res, 0, sizeof *res);
    res->config = rw.config;
    res->status = rw.status;
    res->registers = rw.registers;
    res->spill_bytes = rw.spill_bytes;
    res->compile_ms = rw.compile_ms;
    res->worker = i;
    res->log = malloc(rw.log_len + 1);
    if (res->log == NULL) {
        free(payload);
        return tc_seterr_env("out of memory");
    }
    memcpy(res->log, (char *)payload + sizeof rw, rw.log_len);
    res->log[rw.log_len] = '\0';
    free(payload);
    if (rw.cubin_len > 0) {
        res->cubin = malloc(rw.cubin_len);
        res->cubin_len = rw.cubin_len;
        if (res->cubin == NULL || ipc_read_all(p->w[i].from_fd, res->cubin, rw.cubin_len) != 0) {
            compile_result_free(res);
            return tc_seterr("compile worker %d: cubin lost", i);
        }
    }
    p->w[i].busy = 0;
    p->in_flight--;
    if (compile_dispatch(p) != 0) {
        compile_result_free(res);
        return -1;
    }
    return 1;
}

int compile_pool_take(struct compile_pool *p, struct compile_result *res)
{
    struct pollfd fds[1024];
    int n = compile_pool_pollfds(p, fds, 1024);
    for (;;) {
        int got = 0;
        if (poll(fds, (nfds_t)n, 0) < 0) {
            if (errno == EINTR)
                continue;
            return tc_seterr("poll: %s", strerror(errno));
        }
        for (int i = 0; i < n; i++) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            int r = read_worker(p, i, res);
            if (r != 0)
                return r;
            got = 1;
        }
        if (!got)
            return 0;
    }
}

int compile_pool_wait_warmup(struct compile_pool *p)
{
    for (int i = 0; i < p->jobs; i++) {
        while (!p->w[i].warm) {
            struct compile_result res;
            int r = read_worker(p, i, &res); /* blocks: only a warm-up can come before the first request */
            if (r < 0)
                return -1;
            if (r == 1)
                compile_result_free(&res);
        }
    }
    return 0;
}

void compile_pool_quit(struct compile_pool *p)
{
    if (p == NULL)
        return;
    for (int i = 0; i < p->jobs; i++)
        if (p->w[i].to_fd >= 0 && !p->w[i].busy) { /* an idle worker exits at the end of its requests */
            close(p->w[i].to_fd);
            p->w[i].to_fd = -1;
        }
}

void compile_pool_stop(struct compile_pool *p)
{
    if (p == NULL)
        return;
    for (int i = 0; i < p->jobs; i++) {
        if (p->w[i].to_fd >= 0)
            close(p->w[i].to_fd);
        close(p->w[i].from_fd);
    }
    for (int i = 0; i < p->jobs; i++) {
        if (p->w[i].busy)
            kill(p->w[i].pid, SIGKILL);
        while (waitpid(p->w[i].pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    free(p->w);
    free(p->warmup_ms);
    free(p->queue);
    free(p);
}
