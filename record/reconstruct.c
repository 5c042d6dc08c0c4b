/* reconstruct.c — the recorded activity stream as tuning runs, a pure function (no I/O, no clock): which launches
 * form one candidate's benchmark, how do_bench issued them (estimate, warm-up, timed, flushes), what the candidate's
 * compile and load cost, and which decision (input) and configuration it belongs to. The rules and their limits
 * are in docs/record.md; reconstruct_table.c turns the candidates into the trace's tables. */
#include "reconstruct_int.h"
#include "tc_err.h"
#include "tc_grow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is event e (a kernel or memset) a flush? A memset of REC_FLUSH_MIN_MEMSET_BYTES or more, or a kernel the
 * regular expression names. */
static int is_flush(const struct rec_event *e, const regex_t *re)
{
    return (e->kind == REC_MEMSET && e->bytes >= REC_FLUSH_MIN_MEMSET_BYTES) ||
           (e->kind == REC_KERNEL && regexec(re, e->name, 0, NULL, 0) == 0);
}

/* A memset too small to be a flush (a semaphore or workspace a library clears inside a call): neither a flush
 * nor an execution. */
static int is_ignored(const struct rec_event *e)
{
    return e->kind == REC_MEMSET && e->bytes < REC_FLUSH_MIN_MEMSET_BYTES;
}

static double span_ms(uint64_t a_ns, uint64_t b_ns)
{
    return b_ns > a_ns ? (double)(b_ns - a_ns) * 1e-6 : 0.0;
}

/* Same binary and launch parameters (the grid included when with_grid)? */
static int same_binary(const struct rec_event *a, const struct rec_event *b, int with_grid)
{
    return strcmp(a->name, b->name) == 0 && memcmp(a->block, b->block, sizeof a->block) == 0 &&
           a->registers == b->registers && a->smem_bytes == b->smem_bytes &&
           (!with_grid || memcmp(a->grid, b->grid, sizeof a->grid) == 0);
}

/* One call of the benchmarked function while rec_classify collects it: its kernels' summed duration and last end,
 * and the flushes just before it. */
struct rec_call {
    int open;
    size_t n_kernels;
    uint64_t dur_ns, end_ns;
    size_t n_flushed;                    /* flushes in a row just before it */
    uint64_t flush_start, flush_end;     /* the last of them */
};

/* Append the closed call c to the unit's executions and advance the phase (see rec_classify). */
static int close_call(struct rec_builder *b, const struct rec_call *c, int *phase, int *ok, size_t run_len[4],
                      uint64_t *est_start, uint64_t *est_end)
{
    int flushed = c->n_flushed > 0;
    uint64_t event_ns = flushed && c->end_ns > c->flush_end ? c->end_ns - c->flush_end : 0;
    if (rec_push_exec(b, c->dur_ns, event_ns) != 0)
        return -1;
    /* phases alternate unflushed (0, 2) and flushed (1, 3); a memory warm-up ends the estimate (no C) */
    int want = *phase < 0                                                  ? (flushed ? -1 : 0)
               : *phase == 1 && c->n_flushed >= REC_MEMORY_WARMUP_FLUSHES ? 3
               : (*phase % 2 == 1) == flushed                             ? *phase
                                                                          : *phase + 1;
    if (want < 0 || want > 3)
        *ok = 0;
    else
        *phase = want;
    if (*ok) {
        run_len[*phase]++;
        if (*phase == 1) {
            if (run_len[1] == 1)
                *est_start = c->flush_start; /* the flush just before the first estimate call */
            *est_end = c->end_ns;
        }
    }
    return 0;
}

/* Classify a unit's launches (idx: its kernels and memsets in time order) the way the benchmarkers issue them:
 * A unflushed first call(s), B flushed estimate, C unflushed warm-up, D flushed timed; n_estimate = A + B.
 * Triton's do_bench has all four; Inductor's benchmark_gpu has no C but a run of memory warm-up flushes without
 * executions (REC_MEMORY_WARMUP_FLUSHES or more in a row) between B and D. Any other pattern leaves every execution
 * timed and unit->classified 0. An execution is one call of the benchmarked function: the first call's kernels
 * (up to the first flush or the first kernel's binary coming back) are the call's signature, and each later call
 * starts after a flush, at the first kernel's binary, or once it has as many kernels as the first; its duration is
 * the sum of its kernels'. Flushes before the unit's first kernel are not its own (another fill of the program)
 * and are left out. Appends the executions to b->exec, and to b->exec_event the interval CUDA events around the
 * launch would see: from the end of the flush just before it to its last kernel's end (0 when not flushed). */
int rec_classify(struct rec_builder *b, const struct rec_stream *s, const size_t *idx, size_t n, struct rec_unit *u)
{
    size_t first = b->n_exec, run_len[4] = {0, 0, 0, 0}, n_flushed = 0, sig_len = 0;
    int phase = -1, ok = 1;
    uint64_t flush_start = 0, flush_end = 0, est_start = 0, est_end = 0;
    struct rec_call c = {0};
    u->flush_ms = 0;
    u->first_kernel = NULL;
    u->n_call = 0;
    for (size_t i = 0; i < n; i++) {
        const struct rec_event *e = &s->ev[idx[i]];
        if (is_ignored(e))
            continue;
        if (is_flush(e, &b->flush_re)) {
            if (u->first_kernel == NULL)
                continue; /* before the first call: not this benchmark's */
            if (c.open && sig_len == 0)
                sig_len = c.n_kernels;
            if (c.open && close_call(b, &c, &phase, &ok, run_len, &est_start, &est_end) != 0)
                return -1;
            c.open = 0;
            if (e->kind == REC_MEMSET && (int64_t)e->bytes > b->memset_flush_bytes)
                b->memset_flush_bytes = (int64_t)e->bytes;
            u->flush_ms += span_ms(e->start_ns, e->end_ns);
            b->sum.n_flushes++;
            n_flushed++;
            flush_start = e->start_ns;
            flush_end = e->end_ns;
            continue;
        }
        uint64_t dur_ns = e->end_ns > e->start_ns ? e->end_ns - e->start_ns : 0;
        int new_call = !c.open || n_flushed > 0 || same_binary(e, u->first_kernel, 1) ||
                       (sig_len > 0 && c.n_kernels >= sig_len);
        if (!new_call) { /* another kernel of the same call */
            c.n_kernels++;
            c.dur_ns = dur_ns > 0 && c.dur_ns > 0 ? c.dur_ns + dur_ns : 0; /* a zero stays zero: not valid */
            c.end_ns = e->end_ns;
            if (sig_len == 0 && u->n_call < REC_CALL_MAX)
                u->call[u->n_call++] = e;
            continue;
        }
        if (c.open) {
            if (sig_len == 0)
                sig_len = c.n_kernels;
            if (close_call(b, &c, &phase, &ok, run_len, &est_start, &est_end) != 0)
                return -1;
        }
        if (u->first_kernel == NULL) {
            u->first_kernel = e;
            u->call[u->n_call++] = e;
        }
        c = (struct rec_call){.open = 1, .n_kernels = 1, .dur_ns = dur_ns, .end_ns = e->end_ns,
                              .n_flushed = n_flushed, .flush_start = flush_start, .flush_end = flush_end};
        n_flushed = 0;
    }
    if (c.open && close_call(b, &c, &phase, &ok, run_len, &est_start, &est_end) != 0)
        return -1;
    size_t n_exec = b->n_exec - first;
    u->exec_first = first;
    u->n_exec = n_exec;
    u->classified = ok && phase == 3;
    if (u->classified) {
        u->n_estimate = run_len[0] + run_len[1];
        u->n_warmup = run_len[2];
        u->n_timed = run_len[3];
        u->estimate_ms = span_ms(est_start, est_end) / (double)run_len[1];
    } else {
        u->n_estimate = u->n_warmup = 0;
        u->n_timed = n_exec;
        u->estimate_ms = NAN;
    }
    return 0;
}

/* Index of the first event starting at or after t_ns. */
static size_t lower_bound(const struct rec_stream *s, uint64_t t_ns)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->ev[mid].start_ns < t_ns)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Parse "tc:bench kernel=NAME key=... config=..." into u's kernel, key and config (copies in the builder). */
static int parse_bench_label(struct rec_builder *b, const char *label, struct rec_unit *u)
{
    static const char *const fields[3] = {"kernel=", "key=", "config="};
    const char **out[3] = {&u->kernel, &u->key, &u->config};
    const char *p = label + strlen(REC_LABEL_BENCH);
    for (int f = 0; f < 3; f++)
        *out[f] = "";
    while (*p != '\0') {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        for (int f = 0; f < 3; f++) {
            size_t fl = strlen(fields[f]);
            if (len >= fl && strncmp(p, fields[f], fl) == 0 &&
                (*out[f] = rec_strndup(b, p + fl, len - fl)) == NULL)
                return -1;
        }
        p += len;
    }
    return 0;
}

/* Is process pid a child of process parent (in the stream's process table)? */
static int is_child_of(const struct rec_stream *s, uint32_t pid, uint32_t parent)
{
    for (size_t i = 0; i < s->n_proc; i++)
        if (s->proc[i].pid == pid)
            return s->proc[i].ppid == parent;
    return 0;
}

/* The "tc:job bench" ranges of r's child processes that lie inside r: a benchmark the tuner ran in a worker
 * process while r was open. Returns how many (pointers into s in *out, which the caller frees), -1 when out of
 * memory. */
static long job_windows(const struct rec_stream *s, const struct rec_event *r, const struct rec_event ***out)
{
    const struct rec_event **w = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = lower_bound(s, r->start_ns); i < s->n && s->ev[i].start_ns <= r->end_ns; i++) {
        const struct rec_event *e = &s->ev[i];
        if (e->kind != REC_RANGE || e->pid == r->pid || e->end_ns == REC_OPEN || e->end_ns > r->end_ns ||
            strncmp(e->name, REC_LABEL_JOB_BENCH, strlen(REC_LABEL_JOB_BENCH)) != 0 || !is_child_of(s, e->pid, r->pid))
            continue;
        const struct rec_event **nw = tc_grow(w, &cap, n + 1, sizeof *nw);
        if (nw == NULL) {
            free(w);
            return -1;
        }
        w = nw;
        w[n++] = e;
    }
    *out = w;
    return (long)n;
}

/* Is e one of the candidate's own events: of r's process, or of a worker inside one of its job windows? */
static int in_unit(const struct rec_event *e, const struct rec_event *r, const struct rec_event **w, long n_w)
{
    if (e->pid == r->pid)
        return 1;
    for (long j = 0; j < n_w; j++)
        if (e->pid == w[j]->pid && e->start_ns >= w[j]->start_ns && e->start_ns <= w[j]->end_ns)
            return 1;
    return 0;
}

/* One labelled candidate: the events of range r's process inside [start, end], and those of its child processes
 * inside the tc:job bench ranges that r holds (Helion benchmarks in a spawned worker; docs/record.md rule 1). */
static int labelled_unit(struct rec_builder *b, const struct rec_stream *s, const struct rec_event *r)
{
    struct rec_unit u = {.pid = r->pid, .start_ns = r->start_ns, .end_ns = r->end_ns};
    size_t n = 0, *idx = NULL;
    const struct rec_event **w = NULL;
    int rc = -1;
    if (parse_bench_label(b, r->name, &u) != 0)
        return -1;
    long n_w = job_windows(s, r, &w);
    if (n_w < 0)
        return tc_seterr_env("out of memory reading the tc:job bench ranges of %s", r->name);
    for (size_t i = lower_bound(s, r->start_ns); i < s->n && s->ev[i].start_ns <= r->end_ns; i++) {
        const struct rec_event *e = &s->ev[i];
        if (!in_unit(e, r, w, n_w))
            continue;
        if (e->kind == REC_LOAD) {
            if (u.n_loads++ == 0)
                u.first_load_ns = e->start_ns;
            u.load_end_ns = e->end_ns;
            u.load_ms += span_ms(e->start_ns, e->end_ns);
            if (rec_span_add(&b->spans, u.pid, REC_SPAN_LOAD, e->start_ns, e->end_ns) != 0) /* the candidate's time */
                goto out;
        } else if (e->kind == REC_MARK && strncmp(e->name, REC_LABEL_FAILED, strlen(REC_LABEL_FAILED)) == 0) {
            u.failure = e->name;
        } else if (e->kind == REC_KERNEL || e->kind == REC_MEMSET) {
            size_t *ni = realloc(idx, (n + 1) * sizeof *ni);
            if (ni == NULL)
                goto out;
            idx = ni;
            idx[n++] = i;
        }
    }
    if (rec_classify(b, s, idx, n, &u) != 0)
        goto out;
    /* compile: from the range's start to its first load; a candidate that neither loaded nor ran spent its
     * whole range compiling (and failing) */
    u.compile_ms = u.n_loads ? span_ms(r->start_ns, u.first_load_ns) : u.n_exec == 0 ? span_ms(r->start_ns, r->end_ns)
                                                                                      : NAN;
    /* a candidate that never ran has its time in compile_ms, not twice */
    u.wall_ms = u.n_exec == 0 ? 0.0 : span_ms(u.n_loads ? u.load_end_ns : r->start_ns, r->end_ns);
    if (rec_span_add(&b->spans, u.pid, REC_SPAN_COMPILE, r->start_ns,
                     u.n_loads ? u.first_load_ns : u.n_exec == 0 ? r->end_ns : r->start_ns) != 0 ||
        (u.n_exec > 0 && rec_span_add(&b->spans, u.pid, REC_SPAN_BENCH, u.n_loads ? u.load_end_ns : r->start_ns,
                                      r->end_ns) != 0))
        goto out;
    rc = rec_add_unit(b, &u);
out:
    free(idx);
    free(w);
    return rc;
}

static int reconstruct_labelled(struct rec_builder *b, const struct rec_stream *s)
{
    for (size_t i = 0; i < s->n; i++) {
        const struct rec_event *e = &s->ev[i];
        long long bytes;
        if (e->kind == REC_MARK && sscanf(e->name, REC_LABEL_FLUSH_BYTES " %lld", &bytes) == 1 && bytes > 0)
            b->flush_bytes = bytes;
        if (e->kind != REC_RANGE || strncmp(e->name, REC_LABEL_BENCH, strlen(REC_LABEL_BENCH)) != 0)
            continue;
        b->sum.n_ranges++;
        if (e->end_ns == REC_OPEN) {
            b->sum.n_unfinished++;
            continue;
        }
        if (labelled_unit(b, s, e) != 0)
            return -1;
    }
    return 0;
}

/* Close the unlabelled unit of process pid held in idx[0..n): its compile gap is from prev_end_ns (the previous
 * unit's last activity or the process's start) to its first load before its first launch. */
static int close_unlabelled(struct rec_builder *b, const struct rec_stream *s, size_t *idx, size_t n,
                            uint64_t *prev_end_ns)
{
    struct rec_unit u = {0};
    size_t n_spans = b->spans.n;
    if (n == 0)
        return 0;
    u.pid = s->ev[idx[0]].pid;
    u.start_ns = s->ev[idx[0]].start_ns;
    u.end_ns = s->ev[idx[n - 1]].end_ns;
    for (size_t i = lower_bound(s, *prev_end_ns); i < s->n && s->ev[i].start_ns < u.start_ns; i++) {
        const struct rec_event *e = &s->ev[i];
        if (e->pid == u.pid && e->kind == REC_LOAD) {
            if (u.n_loads++ == 0)
                u.first_load_ns = e->start_ns;
            u.load_ms += span_ms(e->start_ns, e->end_ns);
            if (rec_span_add(&b->spans, u.pid, REC_SPAN_LOAD, e->start_ns, e->end_ns) != 0) /* the candidate's time */
                return -1;
        }
    }
    if (rec_classify(b, s, idx, n, &u) != 0)
        return -1;
    if (!u.classified) { /* not a do_bench benchmark: not a candidate (e.g. the tuned kernel's own call) */
        b->spans.n = n_spans; /* nor its loads */
        b->sum.n_outside += u.n_exec;
        b->n_exec = u.exec_first;
        *prev_end_ns = u.end_ns;
        return 0;
    }
    u.start_ns = u.first_kernel->start_ns; /* leading flushes are not the benchmark's */
    u.compile_ms = u.n_loads ? span_ms(*prev_end_ns, u.first_load_ns) : NAN;
    u.wall_ms = span_ms(u.start_ns, u.end_ns);
    if ((u.n_loads && rec_span_add(&b->spans, u.pid, REC_SPAN_COMPILE, *prev_end_ns, u.first_load_ns) != 0) ||
        rec_span_add(&b->spans, u.pid, REC_SPAN_BENCH, u.start_ns, u.end_ns) != 0)
        return -1;
    u.kernel = u.first_kernel->name;
    if (u.n_call > 1) { /* a call of several kernels: their names, in launch order */
        size_t len = 0;
        for (size_t k = 0; k < u.n_call; k++)
            len += strlen(u.call[k]->name) + 3;
        char *names = malloc(len + 1), *q = names;
        if (names == NULL)
            return tc_seterr_env("record: out of memory");
        for (size_t k = 0; k < u.n_call; k++)
            q += sprintf(q, "%s%s", k ? " + " : "", u.call[k]->name);
        u.kernel = rec_strndup(b, names, len);
        free(names);
        if (u.kernel == NULL)
            return -1;
    }
    *prev_end_ns = u.end_ns;
    return rec_add_unit(b, &u);
}

/* One process without labels, cut into units the way rec_classify groups calls: a unit is one candidate's
 * benchmark, and ends where a call starts with another binary than the unit's first kernel (the candidate
 * changed) or where an unflushed call follows the flushed timed phase (do_bench's pattern: first call, flushed
 * estimate, warm-up, flushed timed; Inductor's: first call, flushed estimate, memory warm-up flushes, flushed
 * timed). Flushes pending at a cut go with the next unit, which leaves them out unless they follow its first call. */
static int unlabelled_process(struct rec_builder *b, const struct rec_stream *s, const struct rec_process *p)
{
    size_t *idx = malloc((s->n + 1) * sizeof *idx), n = 0, n_flush_pending = 0, sig_len = 0, cur_len = 0;
    size_t call_start = 0, n_calls = 0; /* where the unit's current call begins in idx; its calls so far */
    const struct rec_event *unit_first = NULL;
    int phase = 0, call_open = 0, rc = -1;
    uint64_t prev_end_ns = p->start_ns;
    if (idx == NULL)
        return tc_seterr_env("record: out of memory");
    for (size_t i = 0; i < s->n; i++) {
        const struct rec_event *e = &s->ev[i];
        if (e->pid != p->pid || (e->kind != REC_KERNEL && e->kind != REC_MEMSET) || is_ignored(e))
            continue;
        if (is_flush(e, &b->flush_re)) {
            idx[n++] = i;
            n_flush_pending++;
            if (call_open && sig_len == 0)
                sig_len = cur_len;
            call_open = 0;
            continue;
        }
        int new_call = unit_first == NULL || !call_open || n_flush_pending > 0 || same_binary(e, unit_first, 1) ||
                       (sig_len > 0 && cur_len >= sig_len);
        if (!new_call) { /* another kernel of the same call */
            cur_len++;
            idx[n++] = i;
            continue;
        }
        if (call_open && sig_len == 0)
            sig_len = cur_len;
        int flushed = n_flush_pending > 0;
        int next = unit_first == NULL                                                 ? 0
                   : phase == 1 && n_flush_pending >= REC_MEMORY_WARMUP_FLUSHES ? 3
                   : (phase % 2 == 1) == flushed                                ? phase
                                                                                : phase + 1;
        if (unit_first != NULL && (!same_binary(unit_first, e, 1) || next > 3)) {
            /* the pending flushes go with the new unit; and a unit of one call that took in the new candidate's
             * unflushed first call (a lone kernel followed by it) gives it back, from e's binary on */
            size_t keep = n - n_flush_pending, j = keep;
            if (n_calls == 1)
                for (j = call_start + 1; j < keep && !same_binary(&s->ev[idx[j]], e, 1); j++)
                    ;
            if (close_unlabelled(b, s, idx, j, &prev_end_ns) != 0)
                goto out;
            memmove(idx, idx + j, (n - j) * sizeof *idx);
            n -= j;
            unit_first = NULL;
            if (j < keep) { /* the part given back is the new unit's unflushed first call(s); e is its next */
                unit_first = &s->ev[idx[0]];
                for (sig_len = 1; sig_len < keep - j && !same_binary(&s->ev[idx[sig_len]], unit_first, 1); sig_len++)
                    ;
                n_calls = 1 + (sig_len < keep - j);
                next = flushed ? 1 : 0;
            }
        }
        if (unit_first == NULL) {
            unit_first = e;
            sig_len = 0;
            n_calls = 0;
            next = 0;
        }
        phase = next;
        call_open = 1;
        cur_len = 1;
        call_start = n;
        n_calls++;
        idx[n++] = i;
        n_flush_pending = 0;
    }
    rc = close_unlabelled(b, s, idx, n - n_flush_pending, &prev_end_ns);
out:
    free(idx);
    return rc;
}

static int summarise(struct rec_builder *b, const struct rec_stream *s)
{
    uint64_t t0 = UINT64_MAX, t1 = 0;
    for (size_t i = 0; i < s->n_proc; i++) {
        t0 = s->proc[i].start_ns < t0 ? s->proc[i].start_ns : t0;
        t1 = s->proc[i].end_ns > t1 ? s->proc[i].end_ns : t1;
        b->sum.dropped += s->proc[i].dropped;
    }
    for (size_t i = 0; i < s->n; i++) {
        const struct rec_event *e = &s->ev[i];
        uint64_t end = e->end_ns == REC_OPEN ? e->start_ns : e->end_ns;
        t0 = e->start_ns < t0 ? e->start_ns : t0;
        if (s->n_proc == 0 || e->kind != REC_RANGE)
            t1 = end > t1 ? end : t1;
        b->sum.n_kernels += e->kind == REC_KERNEL;
        b->sum.n_loads += e->kind == REC_LOAD;
    }
    b->sum.n_processes = s->n_proc;
    b->sum.n_incomplete = s->n_incomplete;
    b->sum.process_wall_ms = t0 < t1 ? span_ms(t0, t1) : 0.0;
    if (rec_split_session(&b->spans, s, &b->sum) != 0)
        return -1;
    b->sum.other_ms = fmax(0.0, b->sum.process_wall_ms - rec_split_total(&b->sum));
    return 0;
}

struct rec_session *rec_reconstruct(const struct rec_stream *s, const char *flush_regex)
{
    struct rec_builder b;
    struct rec_session *r = NULL;
    int labelled = 0, rc = 0;
    if (rec_builder_init(&b, flush_regex ? flush_regex : REC_FLUSH_REGEX) != 0)
        return NULL;
    for (size_t i = 0; i < s->n && !labelled; i++)
        labelled = s->ev[i].kind == REC_RANGE && strncmp(s->ev[i].name, REC_LABEL_BENCH, strlen(REC_LABEL_BENCH)) == 0;
    if (labelled)
        rc = reconstruct_labelled(&b, s);
    else
        for (size_t p = 0; p < s->n_proc && rc == 0; p++)
            rc = unlabelled_process(&b, s, &s->proc[p]);
    if (rc == 0 && summarise(&b, s) == 0)
        r = rec_builder_finish(&b, labelled);
    free(b.spans.v);
    rec_builder_free(&b);
    return r;
}
