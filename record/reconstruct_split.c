/* reconstruct_split.c — where a recorded session's wall time went, every instant counted once (docs/record.md,
 * "The summary"): the candidates' compile, load and benchmark spans and the hook's phase ranges of every process,
 * swept on the session's one clock. An instant when only one process is active goes to its category; one when
 * several are is overlap (compile workers and benchmarking subprocesses beside the main process), so that the
 * categories, the overlap and the rest add up to the wall time. Each process's own time by category is kept too.
 * Pure: no I/O, no clock. */
#include "reconstruct_int.h"
#include "tc_err.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rec_span_add(struct rec_spans *sp, uint32_t pid, int cat, uint64_t t0_ns, uint64_t t1_ns)
{
    if (t1_ns <= t0_ns)
        return 0;
    if (sp->n == sp->cap) {
        size_t cap = sp->cap ? 2 * sp->cap : 256;
        struct rec_span *v = realloc(sp->v, cap * sizeof *v);
        if (v == NULL)
            return tc_seterr_env("record: out of memory");
        sp->v = v;
        sp->cap = cap;
    }
    sp->v[sp->n++] = (struct rec_span){.pid = pid, .cat = cat, .t0_ns = t0_ns, .t1_ns = t1_ns};
    return 0;
}

static int phase_spans(struct rec_spans *sp, const struct rec_stream *s, struct rec_summary *sum)
{
    size_t pl = strlen(REC_LABEL_PHASE);
    for (size_t i = 0; i < s->n; i++) {
        const struct rec_event *e = &s->ev[i];
        if (e->kind != REC_RANGE || e->end_ns == REC_OPEN || strncmp(e->name, REC_LABEL_PHASE, pl) != 0)
            continue;
        const char *name = e->name + pl;
        size_t len = strcspn(name, " ");
        int k = 0;
        if (len == 0 || len >= sizeof sum->phase[0])
            continue;
        while (k < sum->n_phases && (strlen(sum->phase[k]) != len || strncmp(sum->phase[k], name, len) != 0))
            k++;
        if (k == sum->n_phases) {
            if (k == REC_MAX_PHASES)
                continue;
            memcpy(sum->phase[k], name, len);
            sum->phase[k][len] = '\0';
            sum->n_phases++;
        }
        if (rec_span_add(sp, e->pid, REC_SPAN_PHASE + k, e->start_ns, e->end_ns) != 0)
            return -1;
    }
    return 0;
}

static double *split_slot(struct rec_split *x, int cat)
{
    return cat == REC_SPAN_BENCH ? &x->bench_ms : cat == REC_SPAN_LOAD ? &x->load_ms
           : cat == REC_SPAN_COMPILE ? &x->compile_ms : &x->phase_ms[cat - REC_SPAN_PHASE];
}

struct split_pt {
    uint64_t t;
    int delta;    /* +1 a span starts, -1 it ends */
    int slot, cat;
};

static int cmp_pt(const void *a, const void *b)
{
    const struct split_pt *x = a, *y = b;
    return (x->t > y->t) - (x->t < y->t);
}

/* The process slots of the spans (in order of first appearance), into slot_of[span]; returns how many, -1. */
static int split_slots(const struct rec_spans *sp, const struct rec_stream *s, struct rec_summary *sum, int *slot_of,
                       uint32_t *pids)
{
    int n = 0;
    for (size_t i = 0; i < sp->n; i++) {
        int k = 0;
        while (k < n && pids[k] != sp->v[i].pid)
            k++;
        if (k == n) {
            pids[n++] = sp->v[i].pid;
            if ((size_t)k < REC_MAX_SPLIT_PROCS) {
                sum->proc[k].pid = sp->v[i].pid;
                for (size_t p = 0; p < s->n_proc; p++)
                    if (s->proc[p].pid == sp->v[i].pid)
                        sum->proc[k].ppid = s->proc[p].ppid;
            }
        }
        slot_of[i] = k;
    }
    return n;
}

int rec_split_session(struct rec_spans *sp, const struct rec_stream *s, struct rec_summary *sum)
{
    int ncat = REC_SPAN_PHASE + REC_MAX_PHASES, rc = -1, n_slots, n_active = 0;
    if (phase_spans(sp, s, sum) != 0)
        return -1;
    struct split_pt *pt = malloc((2 * sp->n + 1) * sizeof *pt);
    int *slot_of = malloc((sp->n + 1) * sizeof *slot_of), *cnt = NULL, *act = NULL;
    uint32_t *pids = malloc((sp->n + 1) * sizeof *pids);
    if (pt == NULL || slot_of == NULL || pids == NULL)
        goto out;
    n_slots = split_slots(sp, s, sum, slot_of, pids);
    sum->n_split_procs = (size_t)n_slots;
    cnt = calloc((size_t)n_slots * (size_t)ncat + 1, sizeof *cnt); /* active spans per slot and category */
    act = calloc((size_t)n_slots + 1, sizeof *act);                  /* active spans per slot */
    if (cnt == NULL || act == NULL)
        goto out;
    for (size_t i = 0; i < sp->n; i++) {
        pt[2 * i] = (struct split_pt){sp->v[i].t0_ns, +1, slot_of[i], sp->v[i].cat};
        pt[2 * i + 1] = (struct split_pt){sp->v[i].t1_ns, -1, slot_of[i], sp->v[i].cat};
    }
    qsort(pt, 2 * sp->n, sizeof *pt, cmp_pt);
    for (size_t i = 0; i < 2 * sp->n;) {
        uint64_t t = pt[i].t;
        for (; i < 2 * sp->n && pt[i].t == t; i++) { /* every change at t, then the segment to the next */
            struct split_pt *p = &pt[i];
            cnt[p->slot * ncat + p->cat] += p->delta;
            n_active += (act[p->slot] == 0 && p->delta > 0) - (act[p->slot] == 1 && p->delta < 0);
            act[p->slot] += p->delta;
        }
        if (i == 2 * sp->n || n_active == 0)
            continue;
        double seg_ms = (double)(pt[i].t - t) * 1e-6;
        if (n_active > 1)
            sum->overlap_ms += seg_ms;
        for (int k = 0; k < n_slots; k++) {
            int c = 0;
            if (act[k] == 0)
                continue;
            while (cnt[k * ncat + c] == 0)
                c++; /* the first category active: benchmarking, load, compile, phases */
            if (n_active == 1)
                *split_slot(&sum->wall, c) += seg_ms;
            if (k < REC_MAX_SPLIT_PROCS)
                *split_slot(&sum->proc[k].busy, c) += seg_ms;
        }
    }
    rc = 0;
out:
    if (rc != 0)
        tc_seterr_env("record: out of memory");
    free(pt);
    free(slot_of);
    free(pids);
    free(cnt);
    free(act);
    return rc;
}

double rec_split_total(const struct rec_summary *s)
{
    double t = s->wall.compile_ms + s->wall.load_ms + s->wall.bench_ms + s->overlap_ms;
    for (int k = 0; k < s->n_phases; k++)
        t += s->wall.phase_ms[k];
    return t;
}
