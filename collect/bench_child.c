/* bench_child.c — the benchmarking child's request loop: start-up, then inputs and runs as the coordinator sends
 * them (bench_wire.h), each answered on the pipe; a run that breaks the CUDA context ends the process. */
#include "bench_int.h"
#include "ipc.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_time.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* 1 if the context no longer works (a sticky error such as an illegal address). */
static int ctx_broken(void)
{
    return cu.cuCtxSynchronize() != CUDA_SUCCESS;
}

static void do_run(struct gpu *g, const struct run_wire *rw, const void *cubin, struct run_done_wire *o,
                   struct seq *ex)
{
    double t0, est = 0.0, rel = NAN;
    memset(o, 0, sizeof *o);
    ex->n = 0;
    o->run.config = rw->config;
    o->run.status = TRACE_OK;
    o->run.estimate_ms = NAN;
    o->run.rel_error = NAN;
    o->run.verify_ms = NAN;
    o->load_ms = NAN;
    if (!g->have_input) {
        o->run.status = TRACE_LAUNCH_ERROR;
        snprintf(o->msg, sizeof o->msg, "no input set");
        return;
    }
    memset(&g->tm, 0, sizeof g->tm);
    if (bench_module_get(g, rw, cubin, &o->load_ms) != 0)
        goto fail;
    t0 = tc_now_ms();
    if (bench_verify(g, &rel, &est) != 0)
        goto fail;
    o->run.verify_ms = tc_now_ms() - t0;
    o->run.rel_error = rel;
    if (!(rel <= g->s.tol)) {
        o->run.status = TRACE_WRONG_RESULT;
        snprintf(o->msg, sizeof o->msg, "relative error %.3g > %.3g", rel, g->s.tol);
        return;
    }
    g->check_events_ms = g->check_cupti_ms = 0.0;
    if (bench_run_protocol(g, T_GEMM, est, &o->run, ex) != 0)
        goto fail;
    o->n_exec = ex->n;
    if (g->timing) {
        double sum = 0.0;
        for (size_t i = 0; i < ex->n; i++)
            sum += (double)ex->ns[i] / 1e6;
        fprintf(stderr, "timing: run config %d: load %.2f, verify %.2f (gemm %.2f, check %.2f), protocol %.2f = "
                        "executions %.2f + %.2f; %d batches, host: launch %.2f, sync %.2f, cupti %.2f\n",
                rw->config, isnan(o->load_ms) ? 0.0 : o->load_ms, o->run.verify_ms, g->tm.verify_gemm,
                g->tm.verify_check, o->run.wall_ms, sum, o->run.wall_ms - sum, g->tm.batches, g->tm.launch,
                g->tm.sync, g->tm.cupti);
    }
    if (g->check_timer && g->check_cupti_ms > 0.0)
        fprintf(stderr, "timer check: config %d: %zu executions, CUPTI %.3f ms, events %.3f ms, (events - CUPTI) per "
                        "execution %.2f us, events/CUPTI %.4f\n", rw->config, ex->n, g->check_cupti_ms,
                g->check_events_ms, (g->check_events_ms - g->check_cupti_ms) * 1e3 / (double)ex->n,
                g->check_events_ms / g->check_cupti_ms);
    return;
fail:
    o->run.status = TRACE_LAUNCH_ERROR;
    o->run.n_estimate = o->run.n_warmup = o->run.n_timed = 0;
    o->n_exec = 0;
    ex->n = 0;
    snprintf(o->msg, sizeof o->msg, "%s", tc_errmsg());
    o->fatal = ctx_broken();
}

void bench_child_main(int in_fd, int out_fd, const struct bench_settings *s)
{
    struct gpu g;
    struct seq ex = {0};
    memset(&g, 0, sizeof g);
    g.s = *s;
    g.check_timer = s->timer == BENCH_TIMER_CUPTI && tc_env_flag("TC_TIMER_CHECK");
    signal(SIGINT, SIG_IGN); /* Ctrl-C is the coordinator's: it stops after the current run */
    g.timing = tc_env_flag("TC_TIMING");
    /* The device is reported as soon as it is known, so the coordinator creates the trace and starts compiling
     * for its architecture while this process opens the context, cuBLAS and CUPTI. A failure after that is
     * reported as the answer to the first request. */
    if (bench_gpu_open(&g) != 0) {
        ipc_send(out_fd, MSG_ERROR, tc_errmsg(), strlen(tc_errmsg()), NULL, 0);
        _exit(1);
    }
    if (ipc_send(out_fd, MSG_HELLO, &g.d, sizeof g.d, NULL, 0) != 0)
        _exit(1);
    if (bench_gpu_setup(&g) != 0) {
        ipc_send(out_fd, MSG_ERROR, tc_errmsg(), strlen(tc_errmsg()), NULL, 0);
        _exit(1);
    }
    g.ready_ms = tc_now_ms();
    for (;;) {
        struct ipc_hdr h;
        void *payload = NULL;
        int r = ipc_recv(in_fd, &h, &payload);
        if (r != 0 || h.type == MSG_QUIT)
            _exit(r < 0);
        if (h.type == MSG_INPUT && h.len == sizeof(struct input_wire)) {
            struct input_done_wire d;
            struct input_wire iw;
            memcpy(&iw, payload, sizeof iw);
            memset(&d, 0, sizeof d);
            d.ok = bench_set_input(&g, iw.dims, &d.ref_ms) == 0;
            d.kernels_per_ref = g.ref_per_call;
            d.ready_ms = g.ready_ms;
            if (!d.ok)
                snprintf(d.msg, sizeof d.msg, "%s", tc_errmsg());
            if (ipc_send(out_fd, MSG_INPUT_DONE, &d, sizeof d, NULL, 0) != 0)
                _exit(1);
            if (!d.ok && ctx_broken())
                _exit(1);
        } else if (h.type == MSG_RUN && h.len >= sizeof(struct run_wire)) {
            struct run_wire rw;
            struct run_done_wire o;
            memcpy(&rw, payload, sizeof rw);
            if (h.len != sizeof rw + rw.cubin_len)
                _exit(1);
            do_run(&g, &rw, (const char *)payload + sizeof rw, &o, &ex);
            if (ipc_send(out_fd, MSG_RUN_DONE, &o, sizeof o, ex.ns, o.n_exec * sizeof(uint64_t)) != 0)
                _exit(1);
            if (o.fatal)
                _exit(2);
        } else {
            _exit(1);
        }
        free(payload);
    }
}
