/* bench_cupti.c — CUPTI activity records in the benchmarking child: every kernel's start and end, classified by
 * the kernel's name, turned into execution durations after each batch. */
#include "bench_int.h"
#include "tc_err.h"
#include "tc_time.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct krec *g_recs;
static size_t g_n, g_cap;
static int g_rec_oom;

#define CUPTI_BUF_BYTES (8u << 20)

static void CUPTIAPI buf_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, CUPTI_BUF_BYTES);
    *size = *buffer ? CUPTI_BUF_BYTES : 0;
    *max_records = 0;
}

static void CUPTIAPI buf_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
    CUpti_Activity *rec = NULL;
    (void)ctx;
    (void)stream;
    (void)size;
    pthread_mutex_lock(&g_lock);
    while (cpt.cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && rec->kind != CUPTI_ACTIVITY_KIND_KERNEL)
            continue;
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
        if (g_n == g_cap) {
            size_t cap = g_cap ? 2 * g_cap : 65536;
            struct krec *nr = realloc(g_recs, cap * sizeof *nr);
            if (nr == NULL) {
                g_rec_oom = 1;
                break;
            }
            g_recs = nr;
            g_cap = cap;
        }
        int cls = CLS_OTHER;
        if (k->name != NULL) {
            if (strcmp(k->name, "tc_gemm_f16") == 0)
                cls = CLS_GEMM;
            else if (strcmp(k->name, "tc_flush_l2") == 0)
                cls = CLS_FLUSH;
            else if (strncmp(k->name, "tc_", 3) == 0)
                cls = CLS_HELPER;
        }
        g_recs[g_n].start = k->start;
        g_recs[g_n].end = k->end;
        g_recs[g_n].cls = cls;
        g_n++;
    }
    pthread_mutex_unlock(&g_lock);
    free(buffer);
}

/* Register the buffer callbacks and record every kernel (start-up, CUPTI timer). */
int bench_cupti_enable(void)
{
    int rc = -1;
    TC_TRY(cupti, cpt.cuptiActivityRegisterCallbacks(buf_requested, buf_completed));
    TC_TRY(cupti, cpt.cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    rc = 0;
out:
    return rc;
}

static int cmp_krec(const void *a, const void *b)
{
    const struct krec *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}


int bench_seq_push(struct seq *s, uint64_t v)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4096;
        uint64_t *nn = realloc(s->ns, cap * sizeof *nn);
        if (nn == NULL)
            return tc_seterr_env("out of memory for execution times");
        s->ns = nn;
        s->cap = cap;
    }
    s->ns[s->n++] = v;
    return 0;
}

/* Take every CUPTI record delivered so far (sorted by start) into *recs (malloc'ed). */
int bench_cupti_take(struct krec **recs, size_t *n)
{
    int rc = -1;
    TC_TRY(cupti, cpt.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    pthread_mutex_lock(&g_lock);
    *recs = g_recs;
    *n = g_n;
    g_recs = NULL;
    g_n = g_cap = 0;
    if (g_rec_oom) {
        g_rec_oom = 0;
        pthread_mutex_unlock(&g_lock);
        free(*recs);
        return tc_seterr_env("out of memory for CUPTI records");
    }
    pthread_mutex_unlock(&g_lock);
    if (*n > 0)
        qsort(*recs, *n, sizeof **recs, cmp_krec);
    rc = 0;
out:
    return rc;
}

/* Discard records gathered so far (after verification, before a protocol). */
int bench_cupti_discard(struct gpu *g)
{
    struct krec *r = NULL;
    size_t n = 0;
    if (g->s.timer != BENCH_TIMER_CUPTI)
        return 0;
    if (bench_cupti_take(&r, &n) != 0)
        return -1;
    free(r);
    return 0;
}

/* After a synchronisation: the CUPTI records of the last n launches of target t, appended to *out as execution
 * durations (a cuBLAS call's kernels summed); flush kernels' time added to *flush_ms; *batch_ms = their sum. */
int bench_cupti_collect(struct gpu *g, enum target t, long n, struct seq *out, double *flush_ms, double *batch_ms)
{
    struct krec *recs = NULL;
    size_t n_recs = 0, first = out->n;
    long got = 0, calls = 0;
    uint64_t acc = 0;
    int rc = -1, per = t == T_REF ? g->ref_per_call : 1, want = t == T_GEMM ? CLS_GEMM : CLS_OTHER;
    double t0 = tc_now_ms();
    *batch_ms = 0.0;
    if (bench_cupti_take(&recs, &n_recs) != 0)
        return -1;
    g->tm.cupti += tc_now_ms() - t0;
    for (size_t i = 0; i < n_recs; i++) {
        if (recs[i].cls == CLS_FLUSH) {
            *flush_ms += (double)(recs[i].end - recs[i].start) / 1e6;
        } else if (recs[i].cls == want) {
            acc += recs[i].end - recs[i].start;
            if (++got % per == 0) {
                if (bench_seq_push(out, acc) != 0)
                    goto out;
                *batch_ms += (double)acc / 1e6;
                acc = 0;
                calls++;
            }
        }
    }
    if (calls != n || got % per != 0) {
        tc_seterr("CUPTI delivered %ld kernel records for %ld launches of %d kernel%s each", got, n, per,
                  per == 1 ? "" : "s");
        goto out;
    }
    rc = 0;
out:
    if (rc != 0)
        out->n = first;
    free(recs);
    return rc;
}
