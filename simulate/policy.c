/* policy.c — tuning policies (policy.h): the registry, the helpers policies share, the settings, and the tables
 * the engine replays, built from the per-(input, configuration) records `simulate` uses too (sim_table.h). The
 * engine is in policy_engine.c, the analytic baseline in policy_baseline.c. */
#include "policy_internal.h"
#include "sim_table.h"
#include "tc_err.h"
#include "trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const struct policy_ops policy_random, policy_exhaustive, policy_halving, policy_anneal, policy_costaware;
extern const struct policy_ops policy_hyperband, policy_genetic, policy_bo;
const struct policy_ops *const policy_registry[] = {&policy_random,  &policy_exhaustive, &policy_halving,
                                                    &policy_anneal,  &policy_costaware,  &policy_hyperband,
                                                    &policy_genetic, &policy_bo,         NULL};

const struct policy_ops *policy_find(const char *name)
{
    for (int i = 0; policy_registry[i] != NULL; i++)
        if (strcmp(policy_registry[i]->name, name) == 0)
            return policy_registry[i];
    return NULL;
}

int pol_pick_unmarked(const struct pol_view *v, const int *marked, int n_unmarked)
{
    if (n_unmarked <= 0)
        return -1;
    long pick = (long)gsl_rng_uniform_int(v->rng, (unsigned long)n_unmarked);
    for (int k = 0; k < v->n_configs; k++)
        if (!marked[k] && pick-- == 0)
            return k;
    return -1;
}

int pol_value_index(const struct pol_view *v, int p, int32_t x)
{
    for (int i = 0; i < v->n_values[p]; i++)
        if (v->values[p][i] == x)
            return i;
    return -1;
}

int pol_config_at(const struct pol_view *v, const int *vidx)
{
    if (v->grid_cfg != NULL) {
        size_t g = 0, stride = 1;
        for (int p = 0; p < v->n_params; p++) {
            g += (size_t)vidx[p] * stride;
            stride *= (size_t)v->n_values[p];
        }
        return v->grid_cfg[g];
    }
    for (int k = 0; k < v->n_configs; k++) {
        int p = 0;
        while (p < v->n_params && v->cfg[k].params[p] == v->values[p][vidx[p]])
            p++;
        if (p == v->n_params)
            return k;
    }
    return -1;
}

void pol_settings_default(struct pol_settings *s)
{
    memset(s, 0, sizeof *s);
    s->budget_s = 60;
    s->rep_ms = 100;
    s->compile_jobs = 1;
    s->stop_rule = POL_STOP_NONE;
    s->es_num = 5;
    s->es_threshold = 1.5;
    s->runs = 30;
    s->seed = 0;
    s->n_grid = 60;
    s->threads = 1;
    s->max_configs = 0;
    s->sim_costs = 0;
    s->compile = SIM_COMPILE_SEQUENTIAL;
    s->compile_factor = 16;
    s->overhead = SIM_OVERHEAD_PAPER;
}

/* ---- tables ------------------------------------------------------------------------------------------------ */

int pol_data_n_inputs(const struct pol_data *d)
{
    return d->n_in;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

void pol_data_free(struct pol_data *d)
{
    if (d == NULL)
        return;
    for (int i = 0; i < d->n_in; i++) {
        for (int k = 0; d->in[i].c != NULL && k < d->in[i].n_cfg; k++)
            free(d->in[i].c[k].blk);
        free(d->in[i].c);
        free(d->in[i].pc);
    }
    free(d->in);
    for (int p = 0; p < d->n_params; p++)
        free(d->values[p]);
    free(d->values);
    free(d->n_values);
    free(d->grid_cfg);
    free(d);
}

/* d->grid_cfg: the configuration at each point of the parameter grid (-1 where the space has none; the first in
 * trace order where several share a point), when the grid has at most 1 << 22 points (else NULL). -1 on memory. */
static int pol_grid_table(struct pol_data *d, const struct trace *t)
{
    int nc = trace_n_configs(t), np = trace_n_params(t);
    size_t n_grid = 1;
    for (int p = 0; p < np && n_grid <= ((size_t)1 << 22); p++)
        n_grid *= (size_t)(d->n_values[p] > 0 ? d->n_values[p] : 1);
    if (n_grid <= ((size_t)1 << 22)) {
        if ((d->grid_cfg = malloc(n_grid * sizeof *d->grid_cfg)) == NULL)
            return -1;
        for (size_t g = 0; g < n_grid; g++)
            d->grid_cfg[g] = -1;
        for (int c = nc - 1; c >= 0; c--) { /* backwards: the first in trace order is left */
            size_t g = 0, stride = 1;
            for (int p = 0; p < np; p++) {
                const int32_t *vp = d->values[p], x = trace_params(t, c)[p];
                int lo = 0, hi = d->n_values[p] - 1;
                while (lo < hi) { /* the value's index in the sorted distinct values */
                    int mid = (lo + hi) / 2;
                    if (vp[mid] < x)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                g += (size_t)lo * stride;
                stride *= (size_t)d->n_values[p];
            }
            d->grid_cfg[g] = c;
        }
    }
    return 0;
}

/* c->blk: per block of BLK timed executions their sum, sum of squares, min and max (ms). -1 on memory. */
static int pol_block_sums(struct pcfg *c)
{
    if (c->n / BLK > 0) {
        if ((c->blk = malloc((size_t)(c->n / BLK) * 4 * sizeof *c->blk)) == NULL)
            return -1;
        for (int q = 0; q < c->n / BLK; q++) {
            double su = 0, sq = 0, mn = INFINITY, mx = 0;
            for (int e = q * BLK; e < (q + 1) * BLK; e++) {
                double x = (double)c->x[e] * 1e-6;
                su += x;
                sq += x * x;
                mn = x < mn ? x : mn;
                mx = x > mx ? x : mx;
            }
            c->blk[4 * q] = su;
            c->blk[4 * q + 1] = sq;
            c->blk[4 * q + 2] = mn;
            c->blk[4 * q + 3] = mx;
        }
    }
    return 0;
}

struct pol_data *pol_data_from_trace(const struct trace *t)
{
    int nc = trace_n_configs(t), np = trace_n_params(t);
    struct sim_scratch bs;
    struct sim_base *base = NULL;
    struct pol_data *d = calloc(1, sizeof *d);
    memset(&bs, 0, sizeof bs);
    if (d == NULL)
        goto oom;
    d->n_params = np;
    d->n_in = trace_n_inputs(t);
    d->in = calloc((size_t)(d->n_in > 0 ? d->n_in : 1), sizeof *d->in);
    d->n_values = calloc((size_t)np + 1, sizeof *d->n_values);
    d->values = calloc((size_t)np + 1, sizeof *d->values);
    base = malloc(((size_t)nc + 1) * sizeof *base);
    if (d->in == NULL || d->n_values == NULL || d->values == NULL || base == NULL)
        goto oom;
    for (int p = 0; p < np; p++) { /* each parameter's distinct values, ascending: the grid of the space */
        int32_t *v = malloc(((size_t)nc + 1) * sizeof *v);
        int n = 0;
        if (v == NULL)
            goto oom;
        for (int c = 0; c < nc; c++)
            v[c] = trace_params(t, c)[p];
        qsort(v, (size_t)nc, sizeof *v, cmp_i32);
        for (int c = 0; c < nc; c++)
            if (n == 0 || v[n - 1] != v[c])
                v[n++] = v[c];
        d->values[p] = v;
        d->n_values[p] = n;
    }
    if (pol_grid_table(d, t) != 0)
        goto oom;
    for (int i = 0; i < d->n_in; i++) {
        struct pinput *in = &d->in[i];
        in->n_cfg = nc;
        in->c = calloc((size_t)nc + 1, sizeof *in->c);
        in->pc = calloc((size_t)nc + 1, sizeof *in->pc);
        if (in->c == NULL || in->pc == NULL)
            goto oom;
        in->opt_ms = INFINITY;
        /* the records `simulate` replays too (sim_table.h): status, compile time, true time, overheads */
        if (sim_table_input(t, i, &bs, base) != 0) {
            tc_preferr("%s", trace_path(t));
            goto fail;
        }
        for (int k = 0; k < nc; k++) {
            const struct sim_base *b = &base[k];
            struct pcfg *c = &in->c[k];
            c->compile_ms = isfinite(b->compile_ms) && b->compile_ms > 0 ? b->compile_ms : 0;
            c->status = b->status;
            in->pc[k].params = trace_params(t, k);
            in->pc[k].compile_ms = b->compile_ms;
            in->pc[k].known_invalid = c->status == TRACE_OUT_OF_RESOURCES;
            c->fail_ms = isfinite(b->wall_ms) && b->wall_ms > 0 ? b->wall_ms : 0;
            if (c->status != TRACE_OK)
                continue;
            c->gap_ms = b->gap_ms;
            c->ovh_ms = b->ovh_ms;
            c->warm_ms = b->untimed_ms + c->gap_ms * b->n_untimed;
            c->x = b->timed_ns;
            c->n = b->n_timed;
            c->true_ms = b->true_ms;
            if (pol_block_sums(c) != 0)
                goto oom;
            in->n_valid++;
            if (c->true_ms < in->opt_ms)
                in->opt_ms = c->true_ms;
        }
    }
    free(base);
    sim_scratch_free(&bs);
    return d;
oom:
    tc_seterr("policies: out of memory");
fail:
    free(base);
    sim_scratch_free(&bs);
    pol_data_free(d);
    return NULL;
}

