/* sim_data.c — the replay tables of `tunecost simulate` (sim.h, struct sim_data in sim_internal.h): per input and
 * valid configuration, small tables indexed by EXEC_TIME (its grid) and by EARLY_STOP_NUM, so that one replayed
 * configuration costs a few table reads: j, Σx1..xj, the estimate and the running minimum for the drawn EXEC_TIME,
 * and Σx1..x_ESN, min x1..x_ESN for the drawn EARLY_STOP_NUM. The per-configuration records they start from
 * (true time, overheads, compile time) come from sim_table.c, which the policy engine shares. The raw executions
 * are not kept. Failed configurations are kept too, without tables, for --failed-cost triton. */
#include "sim_cost.h"
#include "sim_internal.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_threads.h"
#include "trace.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sim_data *sim_data_new(const struct sim_settings *s)
{
    struct sim_data *d;
    if (sim_settings_check(s) != 0)
        return NULL;
    d = calloc(1, sizeof *d);
    if (d == NULL) {
        tc_seterr_env("simulate: out of memory");
        return NULL;
    }
    d->n_e = sim_exec_grid_n(s);
    d->thr_ns = malloc((size_t)d->n_e * sizeof *d->thr_ns);
    if (d->thr_ns == NULL) {
        free(d);
        tc_seterr_env("simulate: out of memory");
        return NULL;
    }
    for (int k = 0; k < d->n_e; k++) /* the threshold of the paper's rule in integer ns: exact sums */
        d->thr_ns[k] = (uint64_t)llround(sim_exec_grid_ms(s, k) * 1e6);
    d->k_max = s->es_num_hi;
    d->have_median = s->estimator == SIM_ESTIMATOR_MEDIAN;
    d->bytes = sizeof *d + (size_t)d->n_e * sizeof *d->thr_ns;
    return d;
}

void sim_data_free(struct sim_data *d)
{
    if (d == NULL)
        return;
    for (int i = 0; i < d->n_in; i++) {
        for (int c = 0; c < d->in[i].n; c++)
            free(d->in[i].c[c].e); /* k lives in the same block */
        free(d->in[i].c);
    }
    free(d->in);
    free(d->thr_ns);
    sim_scratch_free(&d->bs);
    free(d->label);
    free(d);
}

int sim_data_add_input(struct sim_data *d, const char *name, double flops)
{
    struct sinput *in;
    /* NaN: not known (an imported search space); TFLOP/s columns are then NaN and speedup carries the result */
    if (!isnan(flops) && (!(flops > 0) || !isfinite(flops)))
        return tc_seterr("input '%s': flops must be a positive number (or NaN: unknown), got %g", name, flops);
    if (d->n_in == d->cap_in) {
        int cap = d->cap_in ? 2 * d->cap_in : 16;
        struct sinput *p = realloc(d->in, (size_t)cap * sizeof *p);
        if (p == NULL)
            return tc_seterr_env("simulate: out of memory");
        d->in = p;
        d->cap_in = cap;
    }
    in = &d->in[d->n_in];
    memset(in, 0, sizeof *in);
    snprintf(in->name, sizeof in->name, "%s", name);
    in->flops = flops;
    in->opt_ms[0] = in->opt_ms[1] = in->opt_ms[2] = NAN;
    d->bytes += sizeof *in;
    return d->n_in++;
}


/* Binary heaps for the running median: lo is a max-heap, hi a min-heap. */
static void heap_push(uint64_t *h, size_t *n, uint64_t v, int is_max)
{
    size_t i = (*n)++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (is_max ? h[p] >= v : h[p] <= v)
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = v;
}
static uint64_t heap_pop(uint64_t *h, size_t *n, int is_max)
{
    uint64_t top = h[0], v = h[--*n];
    size_t i = 0, m = *n;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= m)
            break;
        if (c + 1 < m && (is_max ? h[c + 1] > h[c] : h[c + 1] < h[c]))
            c++;
        if (is_max ? v >= h[c] : v <= h[c])
            break;
        h[i] = h[c];
        i = c;
    }
    if (m > 0)
        h[i] = v;
    return top;
}

/* Room for one more configuration in input `in`. */
static int grow(struct sinput *in)
{
    if (in->n == in->cap) {
        int cap = in->cap ? 2 * in->cap : 64;
        struct sconf *p = realloc(in->c, (size_t)cap * sizeof *p);
        if (p == NULL)
            return tc_seterr_env("simulate: out of memory");
        in->c = p;
        in->cap = cap;
    }
    return 0;
}

/* The first grid index whose threshold is >= total_ns, or n when none is. */
static int first_fit(const uint64_t *thr_ns, int n, uint64_t total_ns)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (thr_ns[mid] >= total_ns)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Build one configuration's tables into input `in` from its record b (d gives the table ranges only). Adds its
 * size to *bytes. */
static int config_add(const struct sim_data *d, struct sim_scratch *bs, struct sinput *in, const struct sim_base *b,
                      size_t *bytes)
{
    struct sconf *c;
    const uint64_t *x = b->timed_ns;
    size_t n = (size_t)b->n_timed, i = 0, n_lo = 0, n_hi = 0, block;
    uint64_t sum = 0, pmin = UINT64_MAX;

    if (grow(in) != 0)
        return -1;
    if (d->have_median && bs->heap_cap < n) {
        uint64_t *lo = realloc(bs->lo_heap, n * sizeof *lo), *hi;
        if (lo == NULL)
            return tc_seterr_env("simulate: out of memory");
        bs->lo_heap = lo;
        hi = realloc(bs->hi_heap, n * sizeof *hi);
        if (hi == NULL)
            return tc_seterr_env("simulate: out of memory");
        bs->hi_heap = hi;
        bs->heap_cap = n;
    }
    c = &in->c[in->n];
    memset(c, 0, sizeof *c);
    c->config = b->config;
    c->n_timed = b->n_timed;
    c->compile_ms = b->compile_ms;
    c->compile_iso_ms = b->compile_isolated_ms;
    c->ovh_ms = b->ovh_ms;
    c->gap_ms = b->gap_ms;
    c->true_ms = b->true_ms;
    c->mean_ms = b->mean_ms;
    c->min_ms = b->min_ms;
    c->n_k = (int)(n < (size_t)d->k_max ? n : (size_t)d->k_max);
    {
        /* The first EXEC_TIME (ms) whose threshold is >= the sum of all executions: from there on every entry
         * is the same (j = n, short), so the table stops there. */
        uint64_t total = 0;
        for (size_t q = 0; q < n; q++)
            total = total > UINT64_MAX - x[q] ? UINT64_MAX : total + x[q];
        int last = first_fit(d->thr_ns, d->n_e, total);
        c->n_e = last < d->n_e ? last + 1 : d->n_e;
    }
    block = (size_t)c->n_e * sizeof(struct e_entry) + (size_t)c->n_k * sizeof(struct k_entry);
    c->e = malloc(block);
    if (c->e == NULL)
        return tc_seterr_env("simulate: out of memory");
    c->k = (struct k_entry *)(c->e + c->n_e);

    /* EXEC_TIME tables: one monotone walk over the prefix sums (exact, in integer ns). */
    for (int e = 0; e < c->n_e; e++) {
        uint64_t thr_ns = d->thr_ns[e];
        struct e_entry *en = &c->e[e];
        while (i < n && sum <= thr_ns) {
            uint64_t v = x[i++];
            sum += v;
            if (v < pmin)
                pmin = v;
            if (d->have_median) {
                if (n_lo == 0 || v <= bs->lo_heap[0])
                    heap_push(bs->lo_heap, &n_lo, v, 1);
                else
                    heap_push(bs->hi_heap, &n_hi, v, 0);
                if (n_lo > n_hi + 1)
                    heap_push(bs->hi_heap, &n_hi, heap_pop(bs->lo_heap, &n_lo, 1), 0);
                else if (n_hi > n_lo)
                    heap_push(bs->lo_heap, &n_lo, heap_pop(bs->hi_heap, &n_hi, 0), 1);
            }
        }
        en->j = (int32_t)i;
        en->is_short = sum <= thr_ns;
        en->rep_ms = (double)sum * 1e-6;
        en->pmin_ms = (double)pmin * 1e-6;
        if (d->have_median)
            en->med_ms = (n_lo > n_hi ? (double)bs->lo_heap[0] : ((double)bs->lo_heap[0] + (double)bs->hi_heap[0]) * 0.5) *
                         1e-6;
        else
            en->med_ms = NAN;
    }

    /* EARLY_STOP_NUM tables. */
    {
        long double s = 0; /* exact up to 2^64 ns (the integer sum it replaced), no wrap-around beyond */
        uint64_t m = UINT64_MAX;
        for (int k = 0; k < c->n_k; k++) {
            s += (long double)x[k];
            if (x[k] < m)
                m = x[k];
            c->k[k].sum_ms = (double)s * 1e-6;
            c->k[k].pmin_ms = (double)m * 1e-6;
        }
    }
    for (int e = 0; e < 3; e++)
        if (!(in->opt_ms[e] <= sim_base_truth_ms(b, (enum sim_estimator)e)))
            in->opt_ms[e] = sim_base_truth_ms(b, (enum sim_estimator)e);
    in->n++;
    in->n_valid++;
    *bytes += sizeof *c + block;
    return 0;
}

/* A failed configuration into input `in` (no tables). */
static int failed_add(struct sinput *in, int config, double compile_ms, double compile_iso_ms, double fail_ms,
                      size_t *bytes)
{
    struct sconf *c;
    if (grow(in) != 0)
        return -1;
    c = &in->c[in->n++];
    memset(c, 0, sizeof *c);
    c->config = config;
    c->failed = 1;
    c->compile_ms = compile_ms;
    c->compile_iso_ms = compile_iso_ms;
    c->fail_ms = fail_ms;
    c->true_ms = c->mean_ms = c->min_ms = NAN;
    *bytes += sizeof *c;
    return 0;
}

int sim_data_add_failed(struct sim_data *d, int input, int config, double compile_ms, double compile_isolated_ms,
                        double fail_ms)
{
    if (input < 0 || input >= d->n_in)
        return tc_seterr("simulate: input index %d out of range [0, %d)", input, d->n_in);
    if (!(isnan(compile_ms) || compile_ms >= 0) || !(isnan(compile_isolated_ms) || compile_isolated_ms >= 0) ||
        !(fail_ms >= 0) || isinf(compile_ms) || isinf(compile_isolated_ms) || isinf(fail_ms))
        return tc_seterr("input %s, configuration %d: a failed configuration's compile times must be NaN or "
                         ">= 0 and its fail_ms finite and >= 0 (got %g, %g, %g)", d->in[input].name, config,
                         compile_ms, compile_isolated_ms, fail_ms);
    return failed_add(&d->in[input], config, compile_ms, compile_isolated_ms, fail_ms, &d->bytes);
}

int sim_data_add_config(struct sim_data *d, int input, const struct sim_config_run *run)
{
    struct sim_base b;
    if (input < 0 || input >= d->n_in)
        return tc_seterr("simulate: input index %d out of range [0, %d)", input, d->n_in);
    if (sim_base_fill(&d->bs, d->in[input].name, run, &b) != 0)
        return -1;
    return config_add(d, &d->bs, &d->in[input], &b, &d->bytes);
}

/* Building from a trace: inputs are independent, so threads take them one at a time; each input's tables are the
 * same whichever thread builds them. */
struct build_job {
    const struct trace *t;
    struct sim_data *d;
    const int *trace_inputs;    /* [d->n_in] the trace's index of each input */
    atomic_int next;
    size_t *bytes;              /* [d->n_in] */
    struct tc_err_saved *err;   /* [d->n_in] "" or the message of the input's failure, with its kind */
};

/* Input q's valid configurations, from the records sim_table_input builds (base: trace_n_configs of them). */
static int build_input(struct build_job *bj, int q, struct sim_scratch *bs, struct sim_base *base)
{
    const struct trace *t = bj->t;
    int n_cfg = trace_n_configs(t);
    if (sim_table_input(t, bj->trace_inputs[q], bs, base) != 0)
        return -1;
    for (int c = 0; c < n_cfg; c++) {
        const struct sim_base *b = &base[c];
        /* the failed launch as the cost module charges it (failed configurations are drawn under triton only) */
        double fail_ms = sim_failed_launch_ms(SIM_FAILED_TRITON, b->status,
                                              isfinite(b->wall_ms) && b->wall_ms > 0 ? b->wall_ms : 0);
        if (b->status == TRACE_OK ? config_add(bj->d, bs, &bj->d->in[q], b, &bj->bytes[q])
                                  : failed_add(&bj->d->in[q], c, b->compile_ms, b->compile_isolated_ms, fail_ms,
                                               &bj->bytes[q]))
            return -1;
    }
    return 0;
}

static void *build_worker(void *arg)
{
    struct build_job *bj = arg;
    struct sim_scratch bs;
    struct sim_base *base = malloc(((size_t)trace_n_configs(bj->t) + 1) * sizeof *base);
    memset(&bs, 0, sizeof bs);
    for (;;) {
        int q = atomic_fetch_add(&bj->next, 1);
        if (q >= bj->d->n_in)
            break;
        if (base == NULL)
            tc_seterr_env("simulate: out of memory"), tc_err_save(&bj->err[q]);
        else if (build_input(bj, q, &bs, base) != 0)
            tc_err_save(&bj->err[q]);
    }
    free(base);
    sim_scratch_free(&bs);
    return NULL;
}

struct sim_data *sim_data_from_trace(const struct trace *t, const int *inputs, int n_inputs,
                                     const struct sim_settings *s)
{
    struct sim_data *d = NULL;
    struct build_job bj;
    int n_all = trace_n_inputs(t), n_sel = inputs ? n_inputs : n_all, n_threads = s->threads;
    int *sel = NULL;
    const char *path = trace_path(t);

    memset(&bj, 0, sizeof bj);
    d = sim_data_new(s);
    if (d == NULL)
        return NULL;
    sel = malloc((size_t)(n_sel > 0 ? n_sel : 1) * sizeof *sel);
    bj.bytes = calloc((size_t)(n_sel > 0 ? n_sel : 1), sizeof *bj.bytes);
    bj.err = calloc((size_t)(n_sel > 0 ? n_sel : 1), sizeof *bj.err);
    if (sel == NULL || bj.bytes == NULL || bj.err == NULL) {
        tc_seterr_env("simulate: out of memory");
        goto fail;
    }
    for (int q = 0; q < n_sel; q++) {
        int input = inputs ? inputs[q] : q;
        char name[64];
        if (input < 0 || input >= n_all) {
            tc_seterr("%s: input index %d out of range [0, %d)", path, input, n_all);
            goto fail;
        }
        tc_format_shape(trace_dims(t, input), trace_n_dims(t), name, (int)sizeof name);
        if (sim_data_add_input(d, name, trace_input(t, input)->flops) < 0) {
            tc_preferr("%s", path);
            goto fail;
        }
        sel[q] = input;
    }
    d->n_warmup = trace_n_compile_warmup(t);
    d->warmup_mean_ms = trace_compile_warmup_mean(t);
    d->compile_jobs = trace_get_meta(t)->compile_jobs;
    bj.t = t;
    bj.d = d;
    bj.trace_inputs = sel;
    atomic_init(&bj.next, 0);
    n_threads = sim_threads(n_threads);
    if (n_threads > 64)
        n_threads = 64;
    if (n_threads > n_sel)
        n_threads = n_sel > 0 ? n_sel : 1;
    tc_run_workers(n_threads, build_worker, &bj, 0); /* one shared job: inputs taken in turn, results by index */
    for (int q = 0; q < n_sel; q++) {
        if (bj.err[q].msg[0] != '\0') {
            tc_err_restore(&bj.err[q]), tc_preferr("%s", path);
            goto fail;
        }
        d->bytes += bj.bytes[q];
        if (inputs != NULL && d->in[q].n_valid == 0) {
            tc_seterr("%s: input %s has no valid configuration (expected at least one run with status 0)", path,
                      d->in[q].name);
            goto fail;
        }
    }
    if (inputs != NULL && n_sel > 1) {
        size_t len = 1;
        for (int q = 0; q < n_sel; q++)
            len += strlen(d->in[q].name) + 1;
        d->label = malloc(len);
        if (d->label == NULL) {
            tc_seterr_env("simulate: out of memory");
            goto fail;
        }
        d->label[0] = '\0';
        for (int q = 0; q < n_sel; q++) {
            if (q > 0)
                strcat(d->label, ",");
            strcat(d->label, d->in[q].name);
        }
    }
    free(sel);
    free(bj.bytes);
    free(bj.err);
    return d;
fail:
    free(sel);
    free(bj.bytes);
    free(bj.err);
    sim_data_free(d);
    return NULL;
}

int sim_data_n_inputs(const struct sim_data *d)
{
    return d->n_in;
}
const char *sim_data_input_name(const struct sim_data *d, int input)
{
    return d->in[input].name;
}
int sim_data_n_valid(const struct sim_data *d, int input)
{
    return d->in[input].n_valid;
}
int sim_data_n_failed(const struct sim_data *d, int input)
{
    return d->in[input].n - d->in[input].n_valid;
}
void sim_data_missing(const struct sim_data *d, long *n_no_isolated, long *n_failed_no_compile)
{
    *n_no_isolated = *n_failed_no_compile = 0;
    for (int i = 0; i < d->n_in; i++)
        for (int q = 0; q < d->in[i].n; q++) {
            const struct sconf *c = &d->in[i].c[q];
            *n_no_isolated += isnan(c->compile_iso_ms);
            *n_failed_no_compile += c->failed && isnan(c->compile_ms);
        }
}
void sim_data_set_compile_env(struct sim_data *d, int compile_jobs, double warmup_mean_ms, int n_warmup)
{
    d->compile_jobs = compile_jobs;
    d->warmup_mean_ms = n_warmup > 0 ? warmup_mean_ms : NAN;
    d->n_warmup = n_warmup > 0 ? n_warmup : 0;
}
int sim_data_warmup_note(const struct sim_data *d, enum sim_compile_model m, char *buf, size_t len)
{
    int charged = sim_warmup_charge(m, d->n_warmup > 0 ? d->warmup_mean_ms : NAN) > 0;
    if (charged)
        snprintf(buf, len, "compile-worker warm-up (the first compile of each worker: %d recorded, mean %.0f ms; "
                           "charged once per worker used, the workers of the parallel models together)",
                 d->n_warmup, d->warmup_mean_ms);
    else if (d->n_warmup > 0)
        snprintf(buf, len, "compile-worker warm-up (the first compile of each worker: %d recorded, mean "
                           "%.0f ms; every model starts its workers warm)", d->n_warmup, d->warmup_mean_ms);
    else
        snprintf(buf, len, "compile-worker warm-up (not recorded in this trace; every model starts its "
                           "workers warm)");
    return charged;
}

double sim_data_optimal_ms(const struct sim_data *d, int input, enum sim_estimator truth)
{
    return d->in[input].opt_ms[(unsigned)truth < 3 ? truth : SIM_ESTIMATOR_MEDIAN];
}
static int cmp_desc_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

double sim_random_search_expected(const struct sim_data *d, int input, int n_config, enum sim_failed_cost f,
                                  enum sim_estimator truth)
{
    const struct sinput *in = &d->in[input];
    int nv = 0, pool = 0;
    double *sp = malloc(((size_t)in->n + 1) * sizeof *sp), e = 0, opt = sim_data_optimal_ms(d, input, truth);
    if (sp == NULL)
        return NAN;
    for (int q = 0; q < in->n; q++) {
        const struct sconf *c = &in->c[q];
        if (c->failed && f == SIM_FAILED_NONE)
            continue;
        pool++;
        if (!c->failed)
            sp[nv++] = opt / (truth == SIM_ESTIMATOR_MEAN ? c->mean_ms : truth == SIM_ESTIMATOR_MIN ? c->min_ms
                                                                                                  : c->true_ms);
    }
    qsort(sp, (size_t)nv, sizeof *sp, cmp_desc_d);
    int n = n_config < pool ? n_config : pool;
    /* the valid configuration of rank r (1 = fastest) is the best drawn when it is drawn and the r - 1 faster are
     * not: C(pool - r, n - 1) / C(pool, n); failed configurations never win (a run of failures only: 0) */
    double lnc = n >= 1 ? lgamma(pool + 1.0) - lgamma(n + 1.0) - lgamma((double)(pool - n) + 1) : 0;
    for (int r = 1; n >= 1 && r <= nv && pool - r >= n - 1; r++)
        e += sp[r - 1] * exp(lgamma((double)(pool - r) + 1) - lgamma((double)n) - lgamma((double)(pool - r - n + 1) + 1) -
                             lnc);
    free(sp);
    return e;
}

double sim_data_flops(const struct sim_data *d, int input)
{
    return d->in[input].flops;
}
size_t sim_data_bytes(const struct sim_data *d)
{
    return d->bytes;
}
