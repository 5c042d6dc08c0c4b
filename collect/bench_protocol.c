/* bench_protocol.c — the timing protocols in the benchmarking child: fixed-time (warm-up and timed phases by
 * kernel time, pipelined batches with the CUPTI timer) and Triton 3.6's do_bench; each batch timed by CUPTI
 * records or CUDA events. */
#include "bench_int.h"
#include "tc_err.h"
#include "tc_time.h"

#include <math.h>
#include <stdlib.h>

/* Grow the event pool to n. */
static int events_reserve(struct gpu *g, int n)
{
    int rc = -1;
    if (n <= g->n_ev)
        return 0;
    CUevent *ne = realloc(g->ev, (size_t)n * sizeof *ne);
    if (ne == NULL)
        return tc_seterr_env("out of memory for %d events", n);
    g->ev = ne;
    while (g->n_ev < n) {
        TC_TRY(cu, cu.cuEventCreate(&g->ev[g->n_ev], CU_EVENT_DEFAULT));
        g->n_ev++;
    }
    rc = 0;
out:
    return rc;
}

/* Launch n executions of target t (each preceded by an L2 flush when `flush`), wait, and append their
 * durations to *out (and the flush kernels' GPU time to *flush_ms). *batch_ms receives the batch's summed
 * execution time. */
static int run_batch(struct gpu *g, enum target t, long n, int flush, struct seq *out, double *flush_ms,
                     double *batch_ms, CUevent *mark)
{
    int rc = -1, events = g->s.timer == BENCH_TIMER_EVENTS || g->check_timer;
    size_t first = out->n;
    double t_launch = tc_now_ms();
    flush = flush && g->d.flush_bytes > 0;
    *batch_ms = 0.0;
    if (events && events_reserve(g, (int)(n * (flush ? 4 : 2))) != 0)
        return -1;
    if (mark != NULL)
        TC_TRY(cu, cu.cuEventRecord(mark[0], g->stream));
    for (long i = 0; i < n; i++) {
        if (flush) {
            if (events)
                TC_TRY(cu, cu.cuEventRecord(g->ev[4 * i + 2], g->stream));
            TC_TRY(cu, bench_launch_flush(g));
            if (events)
                TC_TRY(cu, cu.cuEventRecord(g->ev[4 * i + 3], g->stream));
        }
        if (events)
            TC_TRY(cu, cu.cuEventRecord(g->ev[(flush ? 4 : 2) * i], g->stream));
        if (bench_launch_target(g, t) != 0)
            goto out;
        if (events)
            TC_TRY(cu, cu.cuEventRecord(g->ev[(flush ? 4 : 2) * i + 1], g->stream));
    }
    if (mark != NULL)
        TC_TRY(cu, cu.cuEventRecord(mark[1], g->stream));
    g->tm.batches++;
    g->tm.launch += tc_now_ms() - t_launch;
    t_launch = tc_now_ms();
    TC_TRY(cu, cu.cuStreamSynchronize(g->stream));
    g->tm.sync += tc_now_ms() - t_launch;
    if (g->s.timer == BENCH_TIMER_EVENTS) {
        for (long i = 0; i < n; i++) {
            float ms = 0.0f;
            int st = flush ? 4 : 2;
            TC_TRY(cu, cu.cuEventElapsedTime(&ms, g->ev[st * i], g->ev[st * i + 1]));
            if (bench_seq_push(out, (uint64_t)llround((double)ms * 1e6)) != 0)
                goto out;
            *batch_ms += ms;
            if (flush) {
                TC_TRY(cu, cu.cuEventElapsedTime(&ms, g->ev[st * i + 2], g->ev[st * i + 3]));
                *flush_ms += ms;
            }
        }
    } else {
        if (events) { /* TC_TIMER_CHECK: the same executions by events, summed for comparison */
            for (long i = 0; i < n; i++) {
                float ms = 0.0f;
                int st = flush ? 4 : 2;
                TC_TRY(cu, cu.cuEventElapsedTime(&ms, g->ev[st * i], g->ev[st * i + 1]));
                g->check_events_ms += ms;
            }
        }
        if (bench_cupti_collect(g, t, n, out, flush_ms, batch_ms) != 0)
            goto out;
        if (events)
            g->check_cupti_ms += *batch_ms;
    }
    rc = 0;
out:
    if (rc != 0)
        out->n = first;
    return rc;
}

/* Executions for the next batch: when more than 8 remain, `share` of what the estimate says fits (durations drift
 * upward as the GPU warms and its clock drops, and a batch cannot be taken back), else ceil(remaining / per), so
 * the total ends about one execution past the target. Every batch costs a synchronisation and a CUPTI flush
 * (~0.4 ms of idle GPU on the H200), so the share is as large as the estimate allows (bench_run_protocol).
 * Clamped to [1, 1<<20]. */
static long batch_size(double remaining_ms, double per_ms, double share)
{
    double n;
    if (per_ms < 1e-4)
        per_ms = 1e-4;
    n = remaining_ms > 8.0 * per_ms ? floor(share * remaining_ms / per_ms) : ceil(remaining_ms / per_ms);
    return n < 1 ? 1 : n > (1 << 20) ? (1 << 20) : (long)n;
}

/* A fixed-time phase (unflushed executions until target_ms of kernel time) with up to two batches in flight: the
 * host sizes the next batch from the event-timed spans of finished ones while the GPU runs the one queued behind,
 * so a batch boundary costs no idle GPU (a synchronous boundary costs ~0.4 ms on the H200: wake-up, CUPTI flush,
 * first launch). Spans include the gaps between launches, so they over-estimate kernel time: the phase may end
 * short of the target, never past it by more than the drift a batch allows; the caller then tops it up from the
 * exact CUPTI sum, synchronously. Only for the CUPTI timer (records are taken once, at the end, with nothing in
 * flight). On return the stream is idle; *n_out executions were appended to ex, *sum_out is their exact kernel
 * time and *est_ms their mean. */
static int phase_pipelined(struct gpu *g, enum target t, double target_ms, double *est_ms, struct seq *ex,
                           long *n_out, double *sum_out)
{
    long qn[2] = {0, 0}, total = 0;
    int qs[2] = {0, 0}, nq = 0, slot = 0, rc = -1;
    double done = 0.0, flush_ms = 0.0;
    *n_out = 0;
    *sum_out = 0.0;
    for (;;) {
        while (nq < 2) {
            double rem = target_ms - done;
            long n;
            CUevent *e = g->pipe_ev + 2 * slot;
            for (int i = 0; i < nq; i++)
                rem -= (double)qn[i] * *est_ms;
            /* the last few executions are sized (ceil) only from a measured estimate, with nothing in flight */
            if (rem <= 0.0 || (nq > 0 && rem <= 8.0 * *est_ms))
                break;
            n = batch_size(rem, *est_ms, 0.8);
            TC_TRY(cu, cu.cuEventRecord(e[0], g->stream));
            for (long i = 0; i < n; i++)
                if (bench_launch_target(g, t) != 0)
                    goto out;
            TC_TRY(cu, cu.cuEventRecord(e[1], g->stream));
            qn[nq] = n;
            qs[nq] = slot;
            nq++;
            slot = (slot + 1) % 3;
            total += n;
            g->tm.batches++;
        }
        if (nq == 0)
            break;
        {
            float ms = 0.0f;
            CUevent *e = g->pipe_ev + 2 * qs[0];
            double t0 = tc_now_ms();
            TC_TRY(cu, cu.cuEventSynchronize(e[1]));
            g->tm.sync += tc_now_ms() - t0;
            TC_TRY(cu, cu.cuEventElapsedTime(&ms, e[0], e[1]));
            done += ms;
            *est_ms = (double)ms / (double)qn[0];
            qn[0] = qn[1];
            qs[0] = qs[1];
            nq--;
        }
    }
    TC_TRY(cu, cu.cuStreamSynchronize(g->stream));
    if (bench_cupti_collect(g, t, total, ex, &flush_ms, sum_out) != 0)
        goto out;
    *n_out = total;
    if (total > 0)
        *est_ms = *sum_out / (double)total;
    rc = 0;
out:
    return rc;
}

/* Run the selected protocol on target t. est_ms: a first per-execution estimate (e.g. the verification). */
int bench_run_protocol(struct gpu *g, enum target t, double est_ms, struct trace_run *run, struct seq *ex)
{
    double t0, flush_ms = 0.0, batch = 0.0;
    int rc = -1;
    run->n_estimate = run->n_warmup = run->n_timed = 0;
    run->estimate_ms = NAN;
    /* Records so far (the verification's, an input's untimed calls) are not the protocol's. The verification
     * launch is not part of the warm-up: wall_ms and the warm-up are what an autotuner that does not verify would
     * spend (docs/architecture.md), and verify_ms is kept apart. */
    if (bench_cupti_discard(g) != 0)
        return -1;
    t0 = tc_now_ms();
    if (g->s.protocol == BENCH_FIXED_TIME) {
        /* The share of the estimate a batch may use: 0.8, as durations drift within a run (on the H200 a 4096^3
         * variant went from 0.69 to 0.89 ms per execution within its 100 ms: a batch sized at 95% ended at
         * 111 ms); 0.5 for the first flushed batch, whose estimate comes from unflushed (L2-warm) executions: a
         * flushed small GEMM can take 1.5x as long, and at 0.9 the timed total overshot --rep-ms by up to 43%
         * (256^3, 256 MiB flush, H200). */
        const double share_default = 0.8;
        const int pipelined = g->s.timer == BENCH_TIMER_CUPTI && !g->check_timer;
        const int flushed = g->d.flush_bytes > 0;
        double warm = 0.0, timed = 0.0, share = share_default;
        long n_pipe = 0;
        if (pipelined && !flushed) {
            /* Unflushed warm-up and timed executions are the same launches back to back: one pipelined stretch
             * for both, split afterwards at the first execution that completes the warm-up. */
            size_t first = ex->n;
            long k = 0;
            if (phase_pipelined(g, t, g->s.warmup_ms + g->s.rep_ms, &est_ms, ex, &n_pipe, &batch) != 0)
                goto out;
            for (; k < n_pipe && warm < g->s.warmup_ms; k++)
                warm += (double)ex->ns[first + (size_t)k] / 1e6;
            for (long i = k; i < n_pipe; i++)
                timed += (double)ex->ns[first + (size_t)i] / 1e6;
            run->n_warmup += (int32_t)k;
            run->n_timed += (int32_t)(n_pipe - k);
        } else if (pipelined) {
            if (phase_pipelined(g, t, g->s.warmup_ms, &est_ms, ex, &n_pipe, &batch) != 0)
                goto out;
            warm += batch;
            run->n_warmup += (int32_t)n_pipe;
        }
        /* Synchronous batches: the exact top-up after a pipelined stretch, or the whole protocol. Timed
         * executions only start once the warm-up is complete. */
        while (run->n_timed == 0 && warm < g->s.warmup_ms) {
            long n = batch_size(g->s.warmup_ms - warm, est_ms, share);
            if (run_batch(g, t, n, 0, ex, &flush_ms, &batch, NULL) != 0)
                goto out;
            warm += batch;
            est_ms = batch / (double)n;
            run->n_warmup += (int32_t)n;
        }
        if (flushed) /* no timed execution yet: with a flush, none is pipelined */
            share = 0.5;
        while (timed < g->s.rep_ms) {
            long n = batch_size(g->s.rep_ms - timed, est_ms, share);
            if (run_batch(g, t, n, 1, ex, &flush_ms, &batch, NULL) != 0)
                goto out;
            timed += batch;
            est_ms = batch / (double)n;
            share = share_default;
            run->n_timed += (int32_t)n;
        }
    } else {
        /* Triton 3.6 do_bench: fn(); sync; estimate over 5 flushed calls timed together; n_warmup and
         * n_repeat from it; warm-up unflushed; every repetition flushed. */
        float ms = 0.0f;
        long n_warm, n_rep;
        if (bench_launch_target(g, t) != 0)
            goto out;
        TC_TRY(cu, cu.cuStreamSynchronize(g->stream));
        if (bench_cupti_discard(g) != 0)
            goto out;
        /* 5 flushed executions between two events of their own, as do_bench's estimate */
        if (run_batch(g, t, 5, 1, ex, &flush_ms, &batch, g->mark) != 0)
            goto out;
        TC_TRY(cu, cu.cuEventElapsedTime(&ms, g->mark[0], g->mark[1]));
        run->n_estimate = 5;
        run->estimate_ms = (double)ms / 5.0;
        n_warm = (long)(g->s.warmup_ms / run->estimate_ms);
        n_rep = (long)(g->s.rep_ms / run->estimate_ms);
        n_warm = n_warm < 1 ? 1 : n_warm > (1 << 22) ? (1 << 22) : n_warm;
        n_rep = n_rep < 1 ? 1 : n_rep > (1 << 22) ? (1 << 22) : n_rep;
        if (run_batch(g, t, n_warm, 0, ex, &flush_ms, &batch, NULL) != 0)
            goto out;
        if (run_batch(g, t, n_rep, 1, ex, &flush_ms, &batch, NULL) != 0)
            goto out;
        run->n_warmup = (int32_t)n_warm;
        run->n_timed = (int32_t)n_rep;
    }
    run->wall_ms = tc_now_ms() - t0;
    run->flush_ms = flush_ms;
    rc = 0;
out:
    return rc;
}
