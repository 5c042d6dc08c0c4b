/* sim.c — the Monte Carlo core of `tunecost simulate` (see sim.h and docs/simulation.md).
 * The data are precomputed per (input, valid configuration) as small tables indexed by EXEC_TIME (integer ms) and
 * by EARLY_STOP_NUM, so one replayed configuration costs a few table reads: j, Σx1..xj, the estimate and the
 * running minimum for the drawn EXEC_TIME, and Σx1..x_ESN, min x1..x_ESN for the drawn EARLY_STOP_NUM. The raw
 * executions are not kept. Each sample draws from its own gsl_rng stream seeded from (seed, sample index), so
 * the output does not depend on the number of threads. */
#include "sim.h"
#include "frontier.h"
#include "tc_atomic.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_stats.h"
#include "tc_time.h"
#include "tc_version.h"
#include "trace.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One EXEC_TIME's view of a configuration's timed executions x1..xn. */
struct e_entry {
    double rep_ms;   /* x1 + ... + xj */
    double med_ms;   /* median(x1..xj); NaN unless the data were built for the median estimator */
    double pmin_ms;  /* min(x1..xj) */
    int32_t j;       /* smallest count whose sum exceeds EXEC_TIME, or n */
    int32_t is_short;/* 1 when even x1 + ... + xn does not exceed EXEC_TIME */
};
/* The first k executions, k = 1 .. min(es_num_hi, n): what an early stop at k ran. */
struct k_entry {
    double sum_ms;   /* x1 + ... + xk */
    double pmin_ms;  /* min(x1..xk) */
};

struct sconf {
    int config;
    int n_timed;
    double compile_ms;
    double ovh_ms;     /* wall_ms − Σ timed, clamped at 0: the paper's overhead */
    double gap_ms;     /* per-execution part of the overhead (flush, launch gap, sync) */
    double true_ms;    /* median of all timed executions */
    int n_k;           /* entries in k */
    int n_e;           /* entries in e: up to the first EXEC_TIME that all the executions fit in (every later
                        * EXEC_TIME gives that same entry), so memory follows the trace, not the --exec-ms range */
    struct e_entry *e; /* [n_e], index min(EXEC_TIME − exec_ms_lo, n_e − 1) */
    struct k_entry *k; /* [n_k], index k − 1 */
};

struct sinput {
    char name[64];
    double flops;
    double opt_ms;
    int n, cap;
    struct sconf *c;
};

/* Working memory of building one configuration's tables (one per building thread). */
struct build_scratch {
    uint64_t *tmp;              /* copy for the median of all executions */
    size_t tmp_cap;
    uint64_t *lo_heap, *hi_heap;/* running median of the prefixes (median estimator only) */
    size_t heap_cap;
};

static void scratch_free(struct build_scratch *bs)
{
    free(bs->tmp);
    free(bs->lo_heap);
    free(bs->hi_heap);
}

struct sim_data {
    int exec_lo, exec_hi, n_e;
    int k_max;
    int have_median;
    int n_in, cap_in;
    struct sinput *in;
    size_t bytes;
    char *label;             /* points.tsv's input column in all-inputs mode: NULL ("all") or "A,B,C" for a
                                chosen subset of a trace's inputs */
    struct build_scratch bs; /* for sim_data_add_config */
};

/* ---- names and settings --------------------------------------------------------------------------------- */

static const char *compile_names[] = {"sequential", "parallel", "pipelined"};
static const char *overhead_names[] = {"paper", "per-exec"};
static const char *estimator_names[] = {"mean", "median", "min"};

const char *sim_compile_name(enum sim_compile c)
{
    return (unsigned)c < 3 ? compile_names[c] : "unknown";
}
const char *sim_overhead_name(enum sim_overhead o)
{
    return (unsigned)o < 2 ? overhead_names[o] : "unknown";
}
const char *sim_estimator_name(enum sim_estimator e)
{
    return (unsigned)e < 3 ? estimator_names[e] : "unknown";
}

int sim_compile_parse(const char *s, enum sim_compile *out)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(s, compile_names[i]) == 0) {
            *out = (enum sim_compile)i;
            return 0;
        }
    return tc_seterr("--compile: expected sequential, parallel or pipelined, got '%s'", s);
}
int sim_overhead_parse(const char *s, enum sim_overhead *out)
{
    for (int i = 0; i < 2; i++)
        if (strcmp(s, overhead_names[i]) == 0) {
            *out = (enum sim_overhead)i;
            return 0;
        }
    return tc_seterr("--overhead: expected paper or per-exec, got '%s'", s);
}
int sim_estimator_parse(const char *s, enum sim_estimator *out)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(s, estimator_names[i]) == 0) {
            *out = (enum sim_estimator)i;
            return 0;
        }
    return tc_seterr("--estimator: expected mean, median or min, got '%s'", s);
}

int sim_scenario_parse(const char *name, enum sim_compile def_compile, int def_factor,
                       enum sim_overhead def_overhead, struct sim_scenario *out)
{
    struct sim_scenario sc;
    char buf[SIM_NAME_LEN];
    int set_compile = 0, set_overhead = 0;
    if (name == NULL || name[0] == '\0' || strlen(name) >= sizeof buf)
        return tc_seterr("--scenarios: expected a scenario name of 1 to %d characters, got '%s'",
                         SIM_NAME_LEN - 1, name ? name : "");
    memset(&sc, 0, sizeof sc);
    snprintf(sc.name, sizeof sc.name, "%s", name);
    sc.compile = def_compile;
    sc.compile_factor = def_factor;
    sc.overhead = def_overhead;
    if (strcmp(name, "baseline") != 0) {
        char *save = NULL;
        snprintf(buf, sizeof buf, "%s", name);
        for (char *tok = strtok_r(buf, "+", &save); tok != NULL; tok = strtok_r(NULL, "+", &save)) {
            if (strcmp(tok, "sequential") == 0 || strcmp(tok, "parallel") == 0 || strcmp(tok, "pipelined") == 0) {
                if (set_compile++)
                    return tc_seterr("--scenarios: '%s' names two compile models", name);
                sim_compile_parse(tok, &sc.compile);
            } else if (strcmp(tok, "per-exec") == 0 || strcmp(tok, "paper-overhead") == 0) {
                if (set_overhead++)
                    return tc_seterr("--scenarios: '%s' names two overhead models", name);
                sc.overhead = tok[0] == 'p' && tok[1] == 'e' ? SIM_OVERHEAD_PER_EXEC : SIM_OVERHEAD_PAPER;
            } else if (strcmp(tok, "early-stop") == 0) {
                if (sc.early_stop++)
                    return tc_seterr("--scenarios: '%s' names early-stop twice", name);
            } else {
                return tc_seterr("--scenarios: unknown part '%s' in '%s' (expected baseline, or parts joined by "
                                 "'+' from sequential, parallel, pipelined, early-stop, per-exec, paper-overhead)",
                                 tok, name);
            }
        }
        if (!set_compile && !set_overhead && !sc.early_stop)
            return tc_seterr("--scenarios: '%s' is empty", name);
    }
    *out = sc;
    return 0;
}

void sim_settings_default(struct sim_settings *s)
{
    memset(s, 0, sizeof *s);
    s->samples = 500;
    s->runs = 30;
    s->n_config_lo = 1;
    s->n_config_hi = 80;
    s->exec_ms_lo = 10;
    s->exec_ms_hi = 100;
    s->es_num_lo = 2;
    s->es_num_hi = 100;
    s->es_thr_lo = 1.0;
    s->es_thr_hi = 1.1;
    s->estimator = SIM_ESTIMATOR_MEAN;
    s->input = -1;
    s->seed = 1;
    s->threads = 0;
    s->n_scenarios = 3;
    sim_scenario_parse("baseline", SIM_COMPILE_SEQUENTIAL, 16, SIM_OVERHEAD_PAPER, &s->scenarios[0]);
    sim_scenario_parse("parallel", SIM_COMPILE_SEQUENTIAL, 16, SIM_OVERHEAD_PAPER, &s->scenarios[1]);
    sim_scenario_parse("early-stop", SIM_COMPILE_SEQUENTIAL, 16, SIM_OVERHEAD_PAPER, &s->scenarios[2]);
}

int sim_settings_check(const struct sim_settings *s)
{
    if (s->samples < 1 || s->samples > 100000000)
        return tc_seterr("--samples: expected an integer in [1, 100000000], got %d", s->samples);
    if (s->runs < 1 || s->runs > 100000000)
        return tc_seterr("--runs: expected an integer in [1, 100000000], got %d", s->runs);
    if (s->n_config_lo < 1 || s->n_config_lo > s->n_config_hi)
        return tc_seterr("--n-config: expected 1 <= lo <= hi, got %d:%d", s->n_config_lo, s->n_config_hi);
    if (s->exec_ms_lo < 1 || s->exec_ms_lo > s->exec_ms_hi || s->exec_ms_hi > 100000)
        return tc_seterr("--exec-ms: expected 1 <= lo <= hi <= 100000, got %d:%d", s->exec_ms_lo, s->exec_ms_hi);
    if (s->es_num_lo < 1 || s->es_num_lo > s->es_num_hi || s->es_num_hi > 100000)
        return tc_seterr("--early-stop-num: expected 1 <= lo <= hi <= 100000, got %d:%d", s->es_num_lo,
                         s->es_num_hi);
    if (!(s->es_thr_lo > 0) || !(s->es_thr_lo <= s->es_thr_hi) || !(s->es_thr_hi <= 1000))
        return tc_seterr("--early-stop-threshold: expected 0 < lo <= hi <= 1000, got %g:%g", s->es_thr_lo,
                         s->es_thr_hi);
    if ((unsigned)s->estimator > SIM_ESTIMATOR_MIN)
        return tc_seterr("--estimator: unknown estimator %d", (int)s->estimator);
    if (s->input < -1)
        return tc_seterr("simulate: input index %d (expected -1 for all inputs, or an index >= 0)", s->input);
    if (s->threads < 0)
        return tc_seterr("--threads: expected a non-negative integer, got %d", s->threads);
    if (s->n_scenarios < 1 || s->n_scenarios > SIM_MAX_SCENARIOS)
        return tc_seterr("--scenarios: expected 1 to %d scenarios, got %d", SIM_MAX_SCENARIOS, s->n_scenarios);
    for (int i = 0; i < s->n_scenarios; i++) {
        const struct sim_scenario *sc = &s->scenarios[i];
        if ((unsigned)sc->compile > SIM_COMPILE_PIPELINED || (unsigned)sc->overhead > SIM_OVERHEAD_PER_EXEC)
            return tc_seterr("--scenarios: scenario '%s' has an unknown model", sc->name);
        if (sc->compile != SIM_COMPILE_SEQUENTIAL && (sc->compile_factor < 1 || sc->compile_factor > 4096))
            return tc_seterr("--compile-factor: expected an integer in [1, 4096], got %d (scenario '%s')",
                             sc->compile_factor, sc->name);
        for (int k = 0; k < i; k++)
            if (strcmp(s->scenarios[k].name, sc->name) == 0)
                return tc_seterr("--scenarios: '%s' is listed twice", sc->name);
    }
    return 0;
}

/* ---- building the data ---------------------------------------------------------------------------------- */

struct sim_data *sim_data_new(const struct sim_settings *s)
{
    struct sim_data *d;
    if (sim_settings_check(s) != 0)
        return NULL;
    d = calloc(1, sizeof *d);
    if (d == NULL) {
        tc_seterr("simulate: out of memory");
        return NULL;
    }
    d->exec_lo = s->exec_ms_lo;
    d->exec_hi = s->exec_ms_hi;
    d->n_e = s->exec_ms_hi - s->exec_ms_lo + 1;
    d->k_max = s->es_num_hi;
    d->have_median = s->estimator == SIM_ESTIMATOR_MEDIAN;
    d->bytes = sizeof *d;
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
    scratch_free(&d->bs);
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
            return tc_seterr("simulate: out of memory");
        d->in = p;
        d->cap_in = cap;
    }
    in = &d->in[d->n_in];
    memset(in, 0, sizeof *in);
    snprintf(in->name, sizeof in->name, "%s", name);
    in->flops = flops;
    in->opt_ms = NAN;
    d->bytes += sizeof *in;
    return d->n_in++;
}

/* Median of x[0..n) in ms (the mean of the two middle values when n is even); x is not changed. A histogram of
 * 4096 bins over [min, max] finds the bins of the middle ranks in one pass; only the values in those bins are
 * copied and selected exactly. Executions of one run cluster tightly, so that is usually a few hundred values,
 * and in the worst case (one far outlier) it is all n: never worse than a quickselect of a copy. */
#define MEDIAN_BINS 4096
static int median_ms(struct build_scratch *bs, const uint64_t *x, size_t n, double *out)
{
    static _Thread_local uint32_t hist[MEDIAN_BINS];
    size_t r_lo = (n - 1) / 2, r_hi = n / 2, cum = 0, base = 0, m = 0, b_lo = 0, b_hi = 0, b;
    uint64_t mn = x[0], mx = x[0], range, v_lo, v_hi;
    int shift = 0, found_lo = 0;
    for (size_t i = 1; i < n; i++) {
        mn = x[i] < mn ? x[i] : mn;
        mx = x[i] > mx ? x[i] : mx;
    }
    if (mn == mx) {
        *out = (double)mn * 1e-6;
        return 0;
    }
    range = mx - mn;
    while ((range >> shift) >= MEDIAN_BINS)
        shift++;
    memset(hist, 0, sizeof hist);
    for (size_t i = 0; i < n; i++)
        hist[(x[i] - mn) >> shift]++;
    for (b = 0; b < MEDIAN_BINS; b++) {
        if (!found_lo && cum + hist[b] > r_lo) {
            b_lo = b;
            base = cum;
            found_lo = 1;
        }
        if (cum + hist[b] > r_hi) {
            b_hi = b;
            break;
        }
        cum += hist[b];
    }
    if (shift == 0) { /* one value per bin */
        v_lo = mn + b_lo;
        v_hi = mn + b_hi;
    } else {
        if (bs->tmp_cap < n) {
            uint64_t *p = realloc(bs->tmp, n * sizeof *p);
            if (p == NULL)
                return tc_seterr("simulate: out of memory");
            bs->tmp = p;
            bs->tmp_cap = n;
        }
        for (size_t i = 0; i < n; i++) {
            size_t bin = (size_t)((x[i] - mn) >> shift);
            if (bin >= b_lo && bin <= b_hi)
                bs->tmp[m++] = x[i];
        }
        /* ranks within the gathered values; after the select, [0, k) holds the k smallest of them */
        v_hi = tc_select_u64(bs->tmp, m, r_hi - base);
        v_lo = v_hi;
        if (r_lo != r_hi) {
            v_lo = bs->tmp[0];
            for (size_t i = 1; i < r_hi - base; i++)
                if (bs->tmp[i] > v_lo)
                    v_lo = bs->tmp[i];
        }
    }
    *out = r_lo == r_hi ? (double)v_hi * 1e-6 : ((double)v_lo + (double)v_hi) * 0.5e-6;
    return 0;
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

/* Build one configuration's tables into input `in` (d gives the table ranges only). Adds its size to *bytes. */
static int config_add(const struct sim_data *d, struct build_scratch *bs, struct sinput *in,
                      const struct sim_config_run *run, size_t *bytes)
{
    struct sconf *c;
    const uint64_t *x = run->timed_ns;
    size_t n = (size_t)run->n_timed, i = 0, n_lo = 0, n_hi = 0, block;
    uint64_t sum = 0, pmin = UINT64_MAX;
    double sum_ms;

    if (run->n_timed <= 0 || x == NULL)
        return tc_seterr("input %s, configuration %d: no timed executions", in->name, run->config);
    if (!isfinite(run->compile_ms) || run->compile_ms < 0 || !isfinite(run->wall_ms) ||
        !isfinite(run->untimed_ms) || run->untimed_ms < 0 || run->n_untimed < 0)
        return tc_seterr("input %s, configuration %d: compile_ms, wall_ms and the untimed executions must be "
                         "finite and >= 0 (got %g, %g, %g)", in->name, run->config, run->compile_ms, run->wall_ms,
                         run->untimed_ms);
    for (size_t q = 0; q < n; q++)
        if (x[q] == 0)
            return tc_seterr("input %s, configuration %d: timed execution %zu is 0 ns (expected > 0)", in->name,
                             run->config, q);
    if (in->n == in->cap) {
        int cap = in->cap ? 2 * in->cap : 64;
        struct sconf *p = realloc(in->c, (size_t)cap * sizeof *p);
        if (p == NULL)
            return tc_seterr("simulate: out of memory");
        in->c = p;
        in->cap = cap;
    }
    if (d->have_median && bs->heap_cap < n) {
        uint64_t *a = realloc(bs->lo_heap, n * sizeof *a), *b;
        if (a == NULL)
            return tc_seterr("simulate: out of memory");
        bs->lo_heap = a;
        b = realloc(bs->hi_heap, n * sizeof *b);
        if (b == NULL)
            return tc_seterr("simulate: out of memory");
        bs->hi_heap = b;
        bs->heap_cap = n;
    }
    c = &in->c[in->n];
    memset(c, 0, sizeof *c);
    c->config = run->config;
    c->n_timed = run->n_timed;
    c->compile_ms = run->compile_ms;
    c->n_k = (int)(n < (size_t)d->k_max ? n : (size_t)d->k_max);
    {
        /* The first EXEC_TIME (ms) whose threshold is >= the sum of all executions: from there on every entry
         * is the same (j = n, short), so the table stops there. */
        uint64_t total = 0;
        for (size_t q = 0; q < n; q++)
            total = total > UINT64_MAX - x[q] ? UINT64_MAX : total + x[q];
        uint64_t first_ms = total / 1000000u + (total % 1000000u != 0);
        long last = first_ms <= (uint64_t)d->exec_lo ? 0 : (long)(first_ms - (uint64_t)d->exec_lo);
        c->n_e = last + 1 < (long)d->n_e ? (int)(last + 1) : d->n_e;
    }
    block = (size_t)c->n_e * sizeof(struct e_entry) + (size_t)c->n_k * sizeof(struct k_entry);
    c->e = malloc(block);
    if (c->e == NULL)
        return tc_seterr("simulate: out of memory");
    c->k = (struct k_entry *)(c->e + c->n_e);

    /* EXEC_TIME tables: one monotone walk over the prefix sums (exact, in integer ns). */
    for (int e = 0; e < c->n_e; e++) {
        uint64_t thr_ns = (uint64_t)(d->exec_lo + e) * 1000000u;
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
    /* The rest of the sum, for the overhead. */
    for (; i < n; i++)
        sum += x[i];
    sum_ms = (double)sum * 1e-6;

    /* EARLY_STOP_NUM tables. */
    {
        uint64_t s = 0, m = UINT64_MAX;
        for (int k = 0; k < c->n_k; k++) {
            s += x[k];
            if (x[k] < m)
                m = x[k];
            c->k[k].sum_ms = (double)s * 1e-6;
            c->k[k].pmin_ms = (double)m * 1e-6;
        }
    }

    /* Overhead: the paper's whole overhead, and its per-execution part. Every launched execution (estimate,
     * warm-up, timed) carries the same non-kernel time g; the rest (the untimed executions' own durations) is
     * fixed. overhead(m executions run) = ovh − g·(n − m), which is ovh at m = n. */
    {
        double ovh = run->wall_ms - sum_ms;
        double gaps = ovh - run->untimed_ms;
        c->ovh_ms = ovh > 0 ? ovh : 0;
        c->gap_ms = gaps > 0 ? gaps / (double)(run->n_timed + run->n_untimed) : 0;
    }
    if (median_ms(bs, x, n, &c->true_ms) != 0) {
        free(c->e);
        return -1;
    }
    if (!(in->opt_ms <= c->true_ms))
        in->opt_ms = c->true_ms;
    in->n++;
    *bytes += sizeof *c + block;
    return 0;
}

int sim_data_add_config(struct sim_data *d, int input, const struct sim_config_run *run)
{
    if (input < 0 || input >= d->n_in)
        return tc_seterr("simulate: input index %d out of range [0, %d)", input, d->n_in);
    return config_add(d, &d->bs, &d->in[input], run, &d->bytes);
}

/* Building from a trace: inputs are independent, so threads take them one at a time; each input's tables are the
 * same whichever thread builds them. */
struct build_job {
    const struct trace *t;
    struct sim_data *d;
    const int *trace_inputs;    /* [d->n_in] the trace's index of each input */
    atomic_int next;
    size_t *bytes;              /* [d->n_in] */
    char (*err)[320];           /* [d->n_in] "" or the message of the input's failure */
};

static int build_input(struct build_job *bj, int q, struct build_scratch *bs)
{
    const struct trace *t = bj->t;
    int input = bj->trace_inputs[q], n_cfg = trace_n_configs(t);
    for (int c = 0; c < n_cfg; c++) {
        long r = trace_find_run(t, input, c);
        const struct trace_run *tr;
        const uint64_t *all;
        struct sim_config_run cr;
        uint64_t untimed = 0;
        int n_untimed;
        if (r < 0 || !trace_run_valid(t, (size_t)r))
            continue;
        tr = trace_run(t, (size_t)r);
        all = trace_run_exec(t, (size_t)r);
        n_untimed = tr->n_estimate + tr->n_warmup;
        for (int k = 0; k < n_untimed; k++)
            untimed += all[k];
        cr.config = c;
        cr.compile_ms = trace_config(t, c)->compile_ms;
        cr.wall_ms = tr->wall_ms;
        cr.timed_ns = trace_run_timed(t, (size_t)r);
        cr.n_timed = tr->n_timed;
        cr.untimed_ms = (double)untimed * 1e-6;
        cr.n_untimed = n_untimed;
        if (config_add(bj->d, bs, &bj->d->in[q], &cr, &bj->bytes[q]) != 0)
            return -1;
    }
    return 0;
}

static void *build_worker(void *arg)
{
    struct build_job *bj = arg;
    struct build_scratch bs;
    memset(&bs, 0, sizeof bs);
    for (;;) {
        int q = atomic_fetch_add(&bj->next, 1);
        if (q >= bj->d->n_in)
            break;
        if (build_input(bj, q, &bs) != 0)
            snprintf(bj->err[q], sizeof bj->err[q], "%s", tc_errmsg());
    }
    scratch_free(&bs);
    return NULL;
}

struct sim_data *sim_data_from_trace(const struct trace *t, const int *inputs, int n_inputs,
                                     const struct sim_settings *s)
{
    struct sim_data *d = NULL;
    struct build_job bj;
    int n_all = trace_n_inputs(t), n_sel = inputs ? n_inputs : n_all, n_threads = s->threads;
    int *sel = NULL;
    pthread_t tids[64];
    int started[64];
    const char *path = trace_path(t);

    memset(&bj, 0, sizeof bj);
    d = sim_data_new(s);
    if (d == NULL)
        return NULL;
    sel = malloc((size_t)(n_sel > 0 ? n_sel : 1) * sizeof *sel);
    bj.bytes = calloc((size_t)(n_sel > 0 ? n_sel : 1), sizeof *bj.bytes);
    bj.err = calloc((size_t)(n_sel > 0 ? n_sel : 1), sizeof *bj.err);
    if (sel == NULL || bj.bytes == NULL || bj.err == NULL) {
        tc_seterr("simulate: out of memory");
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
    bj.t = t;
    bj.d = d;
    bj.trace_inputs = sel;
    atomic_init(&bj.next, 0);
    n_threads = sim_threads(n_threads);
    if (n_threads > 64)
        n_threads = 64;
    if (n_threads > n_sel)
        n_threads = n_sel > 0 ? n_sel : 1;
    for (int k = 1; k < n_threads; k++)
        started[k] = pthread_create(&tids[k], NULL, build_worker, &bj) == 0;
    build_worker(&bj);
    for (int k = 1; k < n_threads; k++)
        if (started[k])
            pthread_join(tids[k], NULL);
    for (int q = 0; q < n_sel; q++) {
        if (bj.err[q][0] != '\0') {
            tc_seterr("%s: %s", path, bj.err[q]);
            goto fail;
        }
        d->bytes += bj.bytes[q];
        if (inputs != NULL && d->in[q].n == 0) {
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
            tc_seterr("simulate: out of memory");
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
    return d->in[input].n;
}
double sim_data_optimal_ms(const struct sim_data *d, int input)
{
    return d->in[input].opt_ms;
}
double sim_data_flops(const struct sim_data *d, int input)
{
    return d->in[input].flops;
}
size_t sim_data_bytes(const struct sim_data *d)
{
    return d->bytes;
}

/* ---- running -------------------------------------------------------------------------------------------- */

/* Welford's running mean and sum of squared deviations, in a fixed order (so the same bits for any thread count). */
struct welford {
    double mean, m2;
    long n;
};
static void welford_add(struct welford *w, double x)
{
    double delta = x - w->mean;
    w->n++;
    w->mean += delta / (double)w->n;
    w->m2 += delta * (x - w->mean);
}

/* A point's accumulators. The mean is over every run of every input; its standard error is stratified by
 * input (inputs are fixed, not sampled, so only the spread within an input is noise): SE² = Σ_i s_i² / R / K²
 * over the K inputs, s_i² the variance of input i's R runs. */
struct acc {
    struct welford time_s, tflops, speedup;      /* all runs */
    struct welford in_time, in_tflops, in_speedup; /* the current input's runs */
    double se2_time, se2_tflops, se2_speedup;    /* Σ_i s_i² / R */
    int k_inputs;
    long n_short, n_stopped, n_explored;
};

/* Close the current input's stratum. */
static void acc_end_input(struct acc *a)
{
    struct welford *w[3] = {&a->in_time, &a->in_tflops, &a->in_speedup};
    double *se2[3] = {&a->se2_time, &a->se2_tflops, &a->se2_speedup};
    for (int k = 0; k < 3; k++) {
        if (w[k]->n >= 2)
            *se2[k] += w[k]->m2 / (double)(w[k]->n - 1) / (double)w[k]->n;
        else
            *se2[k] = NAN;
        memset(w[k], 0, sizeof *w[k]);
    }
    a->k_inputs++;
}

/* Scenarios that share the overhead model and the early-stop rule benchmark exactly the same executions and pick
 * the same winner; they differ only in how compile time is charged. One pass over the drawn configurations
 * serves such a group. */
struct group {
    enum sim_overhead overhead;
    int early_stop;
    int n;
    int sc[SIM_MAX_SCENARIOS]; /* indices into settings.scenarios */
};

struct job {
    const struct sim_data *d;
    const struct sim_settings *s;
    struct sim_point *points;
    double tq;                /* t quantile for the 95% CI */
    atomic_int next;          /* next sample to take */
    atomic_int done;          /* samples finished */
    int max_factor;           /* largest pipelined factor (worker clocks per scenario) */
    int n_groups;
    struct group groups[SIM_MAX_SCENARIOS];
    int max_valid;
};

struct worker {
    struct job *job;
    gsl_rng *rng;
    int *idx;                 /* [max_valid] the draw order */
    struct row *rows;         /* [max_valid] the current input's configurations as this sample sees them */
    double *wfree;            /* [n_scenarios][max_factor] when each compile worker is free, ms */
    struct acc acc[SIM_MAX_SCENARIOS];
    pthread_t tid;
    int started;
};

/* A 64-bit mix (splitmix64's finaliser): nearby (seed, sample) pairs get unrelated streams. */
static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* One configuration as one sample sees it (its EXEC_TIME and EARLY_STOP_NUM), packed for the inner loop: the
 * tables of all configurations of an input are gathered into a contiguous array once per sample and input, and
 * the R runs then read only that. */
struct row {
    double rep_ms, est_ms, pmin_ms;   /* x1..xj: sum, the estimator's estimate, minimum */
    double ovh_ms, ovh_pe_ms;         /* overhead charged after j executions: paper, per-exec */
    double compile_ms, true_ms;
    double k_mean_ms;                 /* mean(x1..x_ESN), or -inf where an early stop is impossible (j <= ESN) */
    double k_sum_ms, k_pmin_ms, k_ovh_pe_ms; /* the same quantities for a stop after ESN executions */
    int is_short;
};

static double ovh_per_exec(const struct sconf *c, int m)
{
    double ovh = c->ovh_ms - c->gap_ms * (double)(c->n_timed - m);
    return ovh < 0 ? 0 : ovh;
}

static void fill_rows(const struct sinput *in, int eidx, int es_num, enum sim_estimator estimator, struct row *rows)
{
    for (int q = 0; q < in->n; q++) {
        const struct sconf *c = &in->c[q];
        const struct e_entry *e = &c->e[eidx < c->n_e ? eidx : c->n_e - 1];
        struct row *r = &rows[q];
        r->rep_ms = e->rep_ms;
        r->pmin_ms = e->pmin_ms;
        r->est_ms = estimator == SIM_ESTIMATOR_MEAN  ? e->rep_ms / (double)e->j
                    : estimator == SIM_ESTIMATOR_MIN ? e->pmin_ms
                                                     : e->med_ms;
        r->ovh_ms = c->ovh_ms;
        r->ovh_pe_ms = ovh_per_exec(c, e->j);
        r->compile_ms = c->compile_ms;
        r->true_ms = c->true_ms;
        r->is_short = e->is_short;
        if (e->j > es_num) { /* then es_num < j <= n, so the k table has it */
            const struct k_entry *k = &c->k[es_num - 1];
            r->k_mean_ms = k->sum_ms / (double)es_num;
            r->k_sum_ms = k->sum_ms;
            r->k_pmin_ms = k->pmin_ms;
            r->k_ovh_pe_ms = ovh_per_exec(c, es_num);
        } else {
            r->k_mean_ms = -INFINITY;
            r->k_sum_ms = r->k_pmin_ms = r->k_ovh_pe_ms = NAN;
        }
    }
}

/* One tuning run of the scenarios of group g over the n drawn configurations idx[0..n) of an input (rows from
 * fill_rows). wfree holds max_factor compile-worker clocks per scenario. */
static void run_group(const struct row *rows, double flops, double opt_ms, const struct group *g,
                      const struct sim_scenario *scs, const int *idx, int n, double es_thr, double *wfree,
                      int max_factor, struct acc *acc)
{
    double sum_bench = 0, sum_compile = 0, best_known = INFINITY, best_est = INFINITY;
    double gpu_ms[SIM_MAX_SCENARIOS];
    long n_short = 0, n_stopped = 0;
    int n_pipe = 0, pipe[SIM_MAX_SCENARIOS], per_exec = g->overhead == SIM_OVERHEAD_PER_EXEC;
    const struct row *win = NULL;
    for (int k = 0; k < g->n; k++) {
        const struct sim_scenario *sc = &scs[g->sc[k]];
        if (sc->compile == SIM_COMPILE_PIPELINED) {
            double *wf = wfree + (size_t)g->sc[k] * (size_t)max_factor;
            for (int w = 0; w < sc->compile_factor; w++)
                wf[w] = 0;
            gpu_ms[k] = 0;
            pipe[n_pipe++] = k;
        }
    }
    for (int q = 0; q < n; q++) {
        const struct row *c = &rows[idx[q]];
        double bench, mn;
        if (g->early_stop && c->k_mean_ms > best_known * es_thr) {
            /* stopped after EARLY_STOP_NUM executions and dropped from the running */
            bench = c->k_sum_ms + (per_exec ? c->k_ovh_pe_ms : c->ovh_ms);
            mn = c->k_pmin_ms;
            n_stopped++;
        } else {
            bench = c->rep_ms + (per_exec ? c->ovh_pe_ms : c->ovh_ms);
            mn = c->pmin_ms;
            n_short += c->is_short;
            if (c->est_ms < best_est) {
                best_est = c->est_ms;
                win = c;
            }
        }
        sum_bench += bench;
        sum_compile += c->compile_ms;
        /* pipelined: the next compile goes to the first free worker; the benchmark starts when both the
         * configuration is compiled and the GPU is free */
        for (int p = 0; p < n_pipe; p++) {
            int k = pipe[p], w = 0, f = scs[g->sc[k]].compile_factor;
            double *wf = wfree + (size_t)g->sc[k] * (size_t)max_factor, ready;
            for (int v = 1; v < f; v++)
                if (wf[v] < wf[w])
                    w = v;
            ready = wf[w] + c->compile_ms;
            wf[w] = ready;
            gpu_ms[k] = (ready > gpu_ms[k] ? ready : gpu_ms[k]) + bench;
        }
        if (mn < best_known)
            best_known = mn;
    }
    for (int k = 0; k < g->n; k++) {
        const struct sim_scenario *sc = &scs[g->sc[k]];
        struct acc *a = &acc[g->sc[k]];
        double t_ms;
        if (sc->compile == SIM_COMPILE_SEQUENTIAL) {
            t_ms = sum_bench + sum_compile;
        } else if (sc->compile == SIM_COMPILE_PARALLEL) {
            int f = sc->compile_factor;
            t_ms = sum_bench + sum_compile / ((double)n / (double)((n + f - 1) / f));
        } else {
            t_ms = gpu_ms[k];
        }
        welford_add(&a->time_s, t_ms * 1e-3);
        welford_add(&a->tflops, flops / win->true_ms * 1e-9);
        welford_add(&a->speedup, opt_ms / win->true_ms);
        welford_add(&a->in_time, t_ms * 1e-3);
        welford_add(&a->in_tflops, flops / win->true_ms * 1e-9);
        welford_add(&a->in_speedup, opt_ms / win->true_ms);
        a->n_short += n_short;
        a->n_stopped += n_stopped;
        a->n_explored += n;
    }
}

/* Mean and 95% CI: mean ± t(0.975, K(R−1)) · sqrt(Σ_i s_i² / R) / K; NaN bounds when R < 2. */
static void point_ci(const struct welford *w, double se2_sum, int k_inputs, double tq, double *mean, double *lo,
                     double *hi)
{
    double half;
    *mean = w->mean;
    if (isnan(se2_sum) || isnan(tq) || k_inputs < 1) {
        *lo = *hi = NAN;
        return;
    }
    half = tq * sqrt(se2_sum) / (double)k_inputs;
    *lo = w->mean - half;
    *hi = w->mean + half;
}

static void run_sample(struct worker *wk, int sample)
{
    const struct job *jb = wk->job;
    const struct sim_data *d = jb->d;
    const struct sim_settings *s = jb->s;
    gsl_rng *r = wk->rng;
    int n_config, exec_ms, es_num, i0, i1;
    double es_thr;

    gsl_rng_set(r, (unsigned long)mix64(s->seed ^ mix64((uint64_t)sample)));
    /* Four draws per sample, always, in this order: the streams do not depend on the scenarios. */
    n_config = s->n_config_lo + (int)gsl_rng_uniform_int(r, (unsigned long)(s->n_config_hi - s->n_config_lo) + 1);
    exec_ms = s->exec_ms_lo + (int)gsl_rng_uniform_int(r, (unsigned long)(s->exec_ms_hi - s->exec_ms_lo) + 1);
    es_num = s->es_num_lo + (int)gsl_rng_uniform_int(r, (unsigned long)(s->es_num_hi - s->es_num_lo) + 1);
    es_thr = s->es_thr_lo + (s->es_thr_hi - s->es_thr_lo) * gsl_rng_uniform(r);

    memset(wk->acc, 0, sizeof wk->acc);
    i0 = s->input >= 0 ? s->input : 0;
    i1 = s->input >= 0 ? s->input + 1 : d->n_in;
    for (int i = i0; i < i1; i++) {
        const struct sinput *in = &d->in[i];
        int v = in->n, n = n_config < v ? n_config : v;
        if (v == 0)
            continue;
        for (int k = 0; k < v; k++)
            wk->idx[k] = k;
        fill_rows(in, exec_ms - d->exec_lo, es_num, s->estimator, wk->rows);
        for (int run = 0; run < s->runs; run++) {
            /* N distinct configurations, uniformly, in draw order: a partial Fisher-Yates shuffle. */
            for (int q = 0; q < n; q++) {
                int p = q + (int)gsl_rng_uniform_int(r, (unsigned long)(v - q));
                int t = wk->idx[q];
                wk->idx[q] = wk->idx[p];
                wk->idx[p] = t;
            }
            for (int g = 0; g < jb->n_groups; g++)
                run_group(wk->rows, in->flops, in->opt_ms, &jb->groups[g], s->scenarios, wk->idx, n, es_thr,
                          wk->wfree, jb->max_factor, wk->acc);
        }
        for (int sc = 0; sc < s->n_scenarios; sc++)
            acc_end_input(&wk->acc[sc]);
    }
    for (int sc = 0; sc < s->n_scenarios; sc++) {
        struct sim_point *p = &jb->points[(size_t)sample * (size_t)s->n_scenarios + (size_t)sc];
        const struct acc *a = &wk->acc[sc];
        p->sample = sample;
        p->scenario = sc;
        p->n_config = n_config;
        p->exec_ms = exec_ms;
        p->es_num = es_num;
        p->es_thr = es_thr;
        p->results = a->time_s.n;
        point_ci(&a->time_s, a->se2_time, a->k_inputs, jb->tq, &p->time_s, &p->time_s_lo, &p->time_s_hi);
        point_ci(&a->tflops, a->se2_tflops, a->k_inputs, jb->tq, &p->tflops, &p->tflops_lo, &p->tflops_hi);
        point_ci(&a->speedup, a->se2_speedup, a->k_inputs, jb->tq, &p->speedup, &p->speedup_lo, &p->speedup_hi);
        p->n_short = a->n_short;
        p->stopped = a->time_s.n ? (double)a->n_stopped / (double)a->time_s.n : 0;
        p->explored = a->time_s.n ? (double)a->n_explored / (double)a->time_s.n : 0;
    }
}

static void *worker_main(void *arg)
{
    struct worker *wk = arg;
    struct job *jb = wk->job;
    for (;;) {
        int sample = atomic_fetch_add(&jb->next, 1);
        if (sample >= jb->s->samples)
            break;
        run_sample(wk, sample);
        atomic_fetch_add(&jb->done, 1);
    }
    return NULL;
}

struct sim_result *sim_run(const struct sim_data *d, const struct sim_settings *s, sim_progress_fn progress,
                           void *arg)
{
    struct sim_result *res = NULL;
    struct worker *wk = NULL;
    struct job jb;
    int n_threads = s->threads, ok = 0;
    double t0 = tc_now_s(), last;

    if (sim_settings_check(s) != 0)
        return NULL;
    if (s->exec_ms_lo < d->exec_lo || s->exec_ms_hi > d->exec_hi)
        return tc_seterr("--exec-ms: %d:%d lies outside the range the data were built for (%d:%d)", s->exec_ms_lo,
                         s->exec_ms_hi, d->exec_lo, d->exec_hi),
               NULL;
    if (s->es_num_hi > d->k_max)
        return tc_seterr("--early-stop-num: %d exceeds the largest the data were built for (%d)", s->es_num_hi,
                         d->k_max),
               NULL;
    if (s->estimator == SIM_ESTIMATOR_MEDIAN && !d->have_median)
        return tc_seterr("--estimator median: the data were built without median tables (build them with "
                         "estimator median)"),
               NULL;
    if (s->input >= d->n_in)
        return tc_seterr("simulate: input index %d out of range [0, %d)", s->input, d->n_in), NULL;

    memset(&jb, 0, sizeof jb);
    jb.d = d;
    jb.s = s;
    jb.max_factor = 1;
    for (int i = 0; i < s->n_scenarios; i++) {
        const struct sim_scenario *sc = &s->scenarios[i];
        int g = 0;
        if (sc->compile == SIM_COMPILE_PIPELINED && sc->compile_factor > jb.max_factor)
            jb.max_factor = sc->compile_factor;
        while (g < jb.n_groups && (jb.groups[g].overhead != sc->overhead || jb.groups[g].early_stop != sc->early_stop))
            g++;
        if (g == jb.n_groups) {
            jb.groups[g].overhead = sc->overhead;
            jb.groups[g].early_stop = sc->early_stop;
            jb.n_groups++;
        }
        jb.groups[g].sc[jb.groups[g].n++] = i;
    }
    res = calloc(1, sizeof *res);
    if (res == NULL)
        goto oom;
    for (int i = (s->input >= 0 ? s->input : 0); i < (s->input >= 0 ? s->input + 1 : d->n_in); i++) {
        if (d->in[i].n > jb.max_valid)
            jb.max_valid = d->in[i].n;
        res->n_inputs_used += d->in[i].n > 0;
    }
    if (res->n_inputs_used == 0) {
        tc_seterr("simulate: no input with a valid configuration to replay");
        free(res);
        return NULL;
    }
    /* degrees of freedom of the stratified variance: K (R − 1) */
    jb.tq = s->runs >= 2 ? gsl_cdf_tdist_Pinv(0.975, (double)res->n_inputs_used * (double)(s->runs - 1)) : NAN;
    res->n_points = s->samples * s->n_scenarios;
    res->points = calloc((size_t)res->n_points, sizeof *res->points);
    if (res->points == NULL)
        goto oom;
    jb.points = res->points;
    atomic_init(&jb.next, 0);
    atomic_init(&jb.done, 0);

    n_threads = sim_threads(n_threads);
    if (n_threads > s->samples)
        n_threads = s->samples;
    wk = calloc((size_t)n_threads, sizeof *wk);
    if (wk == NULL)
        goto oom;
    for (int t = 0; t < n_threads; t++) {
        wk[t].job = &jb;
        wk[t].rng = gsl_rng_alloc(gsl_rng_mt19937);
        wk[t].idx = malloc((size_t)jb.max_valid * sizeof *wk[t].idx);
        wk[t].wfree = malloc((size_t)jb.max_factor * (size_t)s->n_scenarios * sizeof *wk[t].wfree);
        wk[t].rows = malloc((size_t)jb.max_valid * sizeof *wk[t].rows);
        if (wk[t].rng == NULL || wk[t].idx == NULL || wk[t].wfree == NULL || wk[t].rows == NULL)
            goto oom;
    }
    /* Thread 0 is this one; the others are started here (if one cannot be, the rest share its work). */
    for (int t = 1; t < n_threads; t++)
        wk[t].started = pthread_create(&wk[t].tid, NULL, worker_main, &wk[t]) == 0;
    last = tc_now_s();
    for (;;) {
        int sample = atomic_fetch_add(&jb.next, 1);
        if (sample >= s->samples)
            break;
        run_sample(&wk[0], sample);
        atomic_fetch_add(&jb.done, 1);
        if (progress != NULL && tc_now_s() - last >= 0.2) {
            last = tc_now_s();
            progress(atomic_load(&jb.done), s->samples, arg);
        }
    }
    for (int t = 1; t < n_threads; t++)
        if (wk[t].started)
            pthread_join(wk[t].tid, NULL);
    ok = 1;
    res->elapsed_s = tc_now_s() - t0;
    goto out;
oom:
    tc_seterr("simulate: out of memory");
out:
    if (wk != NULL)
        for (int t = 0; t < n_threads; t++) {
            gsl_rng_free(wk[t].rng);
            free(wk[t].idx);
            free(wk[t].wfree);
            free(wk[t].rows);
        }
    free(wk);
    if (!ok) {
        sim_result_free(res);
        return NULL;
    }
    return res;
}

void sim_result_free(struct sim_result *r)
{
    if (r == NULL)
        return;
    free(r->points);
    free(r);
}

int sim_threads(int threads)
{
    long c;
    if (threads != 0)
        return threads;
    c = sysconf(_SC_NPROCESSORS_ONLN);
    return c > 0 ? (int)c : 1;
}

/* ---- outputs -------------------------------------------------------------------------------------------- */

static void scenario_describe(const struct sim_scenario *sc, char *buf, size_t len)
{
    int n;
    if (sc->compile == SIM_COMPILE_SEQUENTIAL)
        n = snprintf(buf, len, "compile sequential");
    else if (sc->compile == SIM_COMPILE_PARALLEL)
        n = snprintf(buf, len, "compile parallel x%d (compile_ms / (N / ceil(N / %d)))", sc->compile_factor,
                     sc->compile_factor);
    else
        n = snprintf(buf, len, "compile pipelined on %d workers", sc->compile_factor);
    if (n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, ", overhead %s, early stop %s", sim_overhead_name(sc->overhead),
                 sc->early_stop ? "on" : "off");
}

static const char *point_input(const struct sim_data *d, const struct sim_settings *s)
{
    return s->input >= 0 ? d->in[s->input].name : d->label != NULL ? d->label : "all";
}

void sim_write_settings(FILE *fp, const struct sim_data *d, const struct sim_settings *s, const char *source)
{
    int n_used = 0, n_valid = 0;
    for (int i = 0; i < d->n_in; i++)
        if (s->input < 0 || s->input == i) {
            n_used += d->in[i].n > 0;
            n_valid += d->in[i].n;
        }
    fprintf(fp, "# tunecost %s simulate (docs/simulation.md)\n", TC_VERSION);
    if (source != NULL)
        fprintf(fp, "# source: %s\n", source);
    if (s->input >= 0)
        fprintf(fp, "# input: %s (%d valid configurations)\n", d->in[s->input].name, d->in[s->input].n);
    else
        fprintf(fp, "# input: %s (%d inputs with valid configurations of %d; %d valid (input, configuration) "
                    "pairs)\n", point_input(d, s), n_used, d->n_in, n_valid);
    fprintf(fp, "# samples: %d\n# runs: %d\n# seed: %llu\n", s->samples, s->runs, (unsigned long long)s->seed);
    fprintf(fp, "# n-config: %d:%d\n# exec-ms: %d:%d\n# early-stop-num: %d:%d\n# early-stop-threshold: %.15g:%.15g\n",
            s->n_config_lo, s->n_config_hi, s->exec_ms_lo, s->exec_ms_hi, s->es_num_lo, s->es_num_hi,
            s->es_thr_lo, s->es_thr_hi);
    fprintf(fp, "# estimator: %s\n", sim_estimator_name(s->estimator));
    for (int i = 0; i < s->n_scenarios; i++) {
        char buf[160];
        scenario_describe(&s->scenarios[i], buf, sizeof buf);
        fprintf(fp, "# scenario %s: %s\n", s->scenarios[i].name, buf);
    }
}

static void put_num(FILE *fp, double v)
{
    if (isnan(v))
        fputs("\tnan", fp); /* the missing-value token of every tunecost TSV */
    else
        fprintf(fp, "\t%.9g", v);
}

int sim_write_points(FILE *fp, const struct sim_data *d, const struct sim_settings *s, const struct sim_result *r,
                     const char *source)
{
    const char *input = point_input(d, s);
    sim_write_settings(fp, d, s, source);
    fputs("sample\tscenario\tinput\tn_config\texec_ms\tes_num\tes_threshold\tresults\ttime_s\ttime_s_lo\ttime_s_hi"
          "\ttflops\ttflops_lo\ttflops_hi\tspeedup\tspeedup_lo\tspeedup_hi\tshort\tstopped\texplored\n",
          fp);
    for (int i = 0; i < r->n_points; i++) {
        const struct sim_point *p = &r->points[i];
        const struct sim_scenario *sc = &s->scenarios[p->scenario];
        fprintf(fp, "%d\t%s\t%s\t%d\t%d", p->sample, sc->name, input, p->n_config, p->exec_ms);
        if (sc->early_stop)
            fprintf(fp, "\t%d\t%.6f", p->es_num, p->es_thr);
        else
            fputs("\t-\t-", fp);
        fprintf(fp, "\t%ld", p->results);
        put_num(fp, p->time_s);
        put_num(fp, p->time_s_lo);
        put_num(fp, p->time_s_hi);
        put_num(fp, p->tflops);
        put_num(fp, p->tflops_lo);
        put_num(fp, p->tflops_hi);
        put_num(fp, p->speedup);
        put_num(fp, p->speedup_lo);
        put_num(fp, p->speedup_hi);
        fprintf(fp, "\t%ld\t%.6g\t%.6g\n", p->n_short, p->stopped, p->explored);
    }
    if (ferror(fp))
        return tc_seterr("writing points: %s", strerror(errno));
    return 0;
}

int sim_write_outputs(const char *dir, const struct sim_data *d, const struct sim_settings *s,
                      const struct sim_result *r, const char *source)
{
    char *buf = NULL, path[4096];
    size_t len = 0;
    FILE *mem = NULL, *in = NULL, *fp;
    struct frontier_table *ft = NULL;
    struct tc_atomic a, af;
    int rc = -1;

    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return tc_seterr("-o %s: cannot create the directory: %s", dir, strerror(errno));
    /* points.tsv is formatted once in memory; frontier.tsv is computed from that text by the same code as
     * `tunecost frontier`, so the two commands always agree. */
    mem = open_memstream(&buf, &len);
    if (mem == NULL) {
        tc_seterr("simulate: out of memory");
        goto out;
    }
    if (sim_write_points(mem, d, s, r, source) != 0 || fclose(mem) != 0) {
        mem = NULL;
        tc_seterr("simulate: out of memory formatting points");
        goto out;
    }
    mem = NULL;
    in = fmemopen(buf, len, "r");
    if (in == NULL) {
        tc_seterr("simulate: out of memory");
        goto out;
    }
    ft = frontier_table_read(in, "points.tsv", "time_s", "speedup");
    if (ft == NULL)
        goto out;

    /* Both files are written in full before either is renamed into place, so a write error (a full disk)
     * leaves the previous pair untouched. */
    snprintf(path, sizeof path, "%s/points.tsv", dir);
    fp = tc_atomic_open(&a, path);
    if (fp == NULL)
        goto out;
    if (fwrite(buf, 1, len, fp) != len || fflush(fp) != 0) {
        tc_atomic_abort(&a);
        tc_seterr("%s: write failed: %s", path, strerror(errno));
        goto out;
    }
    snprintf(path, sizeof path, "%s/frontier.tsv", dir);
    fp = tc_atomic_open(&af, path);
    if (fp == NULL) {
        tc_atomic_abort(&a);
        goto out;
    }
    if (frontier_table_write(ft, fp, "frontier: the points not dominated in (time_s, speedup), per "
                                     "scenario, by time") != 0 || fflush(fp) != 0) {
        tc_atomic_abort(&af);
        tc_atomic_abort(&a);
        tc_seterr("%s: write failed: %s", path, strerror(errno));
        goto out;
    }
    if (tc_atomic_commit(&a) != 0) {
        tc_atomic_abort(&af);
        goto out;
    }
    if (tc_atomic_commit(&af) != 0)
        goto out;
    rc = 0;
out:
    if (in != NULL)
        fclose(in);
    frontier_table_free(ft);
    free(buf);
    return rc;
}
