/* bench.c — the coordinator's side of the benchmarking child (see bench.h): fork it, send requests, read replies,
 * restart it after a fault. The child itself is bench_child.c (request loop), bench_gpu.c (device, inputs,
 * launches, verification), bench_protocol.c (timing protocols) and bench_cupti.c (activity records); the messages
 * are bench_wire.h. */
#include "bench.h"
#include "bench_int.h"
#include "bench_wire.h"
#include "ipc.h"
#include "tc_err.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct bench_child {
    pid_t pid;
    int to_fd, from_fd;
    struct bench_settings s;
    int expect; /* MSG_INPUT_DONE or MSG_RUN_DONE, 0 when idle */
    int gone;   /* the last request could not be sent: the child had already ended */
    double ready_ms; /* the first child's start-up end, from its first input reply; 0 before */
};

static void reap(struct bench_child *c, int kill_it)
{
    /* The pipes close first: a child blocked writing a large result to a coordinator that stopped reading gets
     * EPIPE and exits, instead of waiting forever beside our waitpid. */
    if (c->to_fd >= 0)
        close(c->to_fd);
    if (c->from_fd >= 0)
        close(c->from_fd);
    c->to_fd = c->from_fd = -1;
    if (c->pid <= 0)
        return;
    if (kill_it)
        kill(c->pid, SIGKILL);
    while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    c->pid = -1;
}

static int child_spawn(struct bench_child *c, struct bench_device *dev)
{
    int to[2], from[2];
    struct ipc_hdr h;
    void *payload = NULL;
    int r;
    if (pipe(to) != 0 || pipe(from) != 0)
        return tc_seterr("cannot create pipes for the benchmarking process: %s", strerror(errno));
    fflush(NULL);
    c->pid = fork();
    if (c->pid < 0)
        return tc_seterr("cannot fork the benchmarking process: %s", strerror(errno));
    if (c->pid == 0) {
        int keep[2] = {to[0], from[1]};
        ipc_close_others(keep, 2);
        bench_child_main(to[0], from[1], &c->s);
        _exit(0);
    }
    close(to[0]);
    close(from[1]);
    c->to_fd = to[1];
    c->from_fd = from[0];
    c->expect = 0;
    r = ipc_recv(c->from_fd, &h, &payload);
    if (r == 0 && h.type == MSG_HELLO && h.len == sizeof *dev) {
        memcpy(dev, payload, sizeof *dev);
        free(payload);
        return 0;
    }
    if (r == 0 && h.type == MSG_ERROR)
        tc_seterr("%s", (char *)payload);
    else
        tc_seterr("the benchmarking process died while opening the GPU");
    free(payload);
    reap(c, 1);
    return -1;
}

struct bench_child *bench_start(const struct bench_settings *s, struct bench_device *dev)
{
    struct bench_child *c = calloc(1, sizeof *c);
    if (c == NULL) {
        tc_seterr_env("out of memory");
        return NULL;
    }
    c->s = *s;
    c->pid = -1;
    c->to_fd = c->from_fd = -1;
    if (child_spawn(c, dev) != 0) {
        free(c);
        return NULL;
    }
    return c;
}

int bench_fd(const struct bench_child *c)
{
    return c->from_fd;
}

pid_t bench_pid(const struct bench_child *c)
{
    return c->pid;
}

double bench_ready_ms(const struct bench_child *c)
{
    return c->ready_ms;
}

/* Send a request whose answer is `expect`. A child that is gone (EPIPE) is no failure here: it explains itself on
 * the reply path, where bench_recv reads its last word or its end. */
static int send_request(struct bench_child *c, int expect, uint32_t type, const void *p1, size_t n1, const void *p2,
                        size_t n2)
{
    c->expect = expect;
    if (ipc_send(c->to_fd, type, p1, n1, p2, n2) == 0)
        return 0;
    c->gone = errno == EPIPE;
    return c->gone ? 0 : -1;
}

int bench_send_input(struct bench_child *c, int input, const int64_t *dims)
{
    struct input_wire iw;
    memset(&iw, 0, sizeof iw);
    iw.input = input;
    memcpy(iw.dims, dims, sizeof iw.dims);
    return send_request(c, MSG_INPUT_DONE, MSG_INPUT, &iw, sizeof iw, NULL, 0);
}

int bench_send_run(struct bench_child *c, int config, const int32_t *params, int path, const void *cubin,
                   size_t len)
{
    struct run_wire rw;
    memset(&rw, 0, sizeof rw);
    rw.config = config;
    rw.path = path;
    memcpy(rw.params, params, sizeof rw.params);
    rw.cubin_len = len;
    return send_request(c, MSG_RUN_DONE, MSG_RUN, &rw, sizeof rw, cubin, len);
}

int bench_recv(struct bench_child *c, double *ref_ms, struct bench_result *res)
{
    struct ipc_hdr h;
    void *payload = NULL;
    int expect = c->expect, gone = c->gone, r;
    c->expect = 0;
    c->gone = 0;
    memset(res, 0, sizeof *res);
    r = ipc_recv(c->from_fd, &h, &payload);
    if (r == 1 && gone) /* it ended while idle (killed from outside): the request never ran */
        return BENCH_NOT_RUN;
    if (r != 0) {
        /* The child is gone: a crash, a kill by the watchdog, or an exit after a sticky error. */
        res->fatal = 1;
        res->run.status = TRACE_LAUNCH_ERROR;
        res->run.estimate_ms = res->run.rel_error = res->run.verify_ms = NAN;
        res->load_ms = NAN;
        snprintf(res->msg, sizeof res->msg, "benchmarking process died (%s)",
                 r == 1 ? "crash, timeout or sticky CUDA error" : tc_errmsg());
        if (expect == MSG_INPUT_DONE) {
            free(payload);
            return tc_seterr("the benchmarking process died while preparing an input: %s", res->msg);
        }
        return 1;
    }
    if (h.type == MSG_INPUT_DONE && expect == MSG_INPUT_DONE && h.len == sizeof(struct input_done_wire)) {
        struct input_done_wire d;
        memcpy(&d, payload, sizeof d);
        free(payload);
        if (!d.ok)
            return tc_seterr("preparing the input failed: %s", d.msg);
        *ref_ms = d.ref_ms;
        if (c->ready_ms == 0.0)
            c->ready_ms = d.ready_ms;
        return 0;
    }
    if (h.type == MSG_RUN_DONE && expect == MSG_RUN_DONE && h.len >= sizeof(struct run_done_wire)) {
        struct run_done_wire o;
        memcpy(&o, payload, sizeof o);
        if (h.len != sizeof o + o.n_exec * sizeof(uint64_t)) {
            free(payload);
            return tc_seterr("benchmarking process: corrupt result message");
        }
        res->run = o.run;
        res->load_ms = o.load_ms;
        res->fatal = o.fatal;
        snprintf(res->msg, sizeof res->msg, "%s", o.msg);
        res->n_exec = o.n_exec;
        if (o.n_exec > 0) {
            res->exec_ns = malloc(o.n_exec * sizeof(uint64_t));
            if (res->exec_ns == NULL) {
                free(payload);
                return tc_seterr_env("out of memory");
            }
            memcpy(res->exec_ns, (char *)payload + sizeof o, o.n_exec * sizeof(uint64_t));
        }
        free(payload);
        return o.fatal ? 1 : 0;
    }
    if (h.type == MSG_ERROR) { /* start-up failed after the device was reported: the child has exited */
        tc_seterr("the benchmarking process could not open the GPU: %.*s", (int)h.len, (char *)payload);
        free(payload);
        reap(c, 1);
        return -1;
    }
    free(payload);
    return tc_seterr("benchmarking process: unexpected message %u", h.type);
}

int bench_restart(struct bench_child *c)
{
    struct bench_device dev;
    reap(c, 1);
    return child_spawn(c, &dev);
}

void bench_kill(struct bench_child *c)
{
    if (c->pid > 0)
        kill(c->pid, SIGKILL);
}

void bench_quit(struct bench_child *c)
{
    if (c == NULL || c->to_fd < 0)
        return;
    ipc_send(c->to_fd, MSG_QUIT, NULL, 0, NULL, 0);
    close(c->to_fd);
    c->to_fd = -1;
}

void bench_detach(struct bench_child *c)
{
    if (c == NULL)
        return;
    bench_quit(c);
    if (c->from_fd >= 0)
        close(c->from_fd);
    free(c);
}

void bench_stop(struct bench_child *c)
{
    int busy;
    if (c == NULL)
        return;
    busy = c->expect != 0; /* a request in flight (the collection stopped on an error): its answer is not wanted */
    bench_quit(c);
    reap(c, busy);
    free(c);
}
