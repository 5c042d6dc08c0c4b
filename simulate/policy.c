/* policy.c — tuning policies (policy.h): the helpers policies share, the settings, and the tables
 * the engine replays, built from the per-(input, configuration) records `simulate` uses too (sim_table.h). The
 * engine is in policy_engine.c, the analytic baseline in policy_baseline.c, the registry in policy_registry.c. */
#include "policy_internal.h"
#include "sim_table.h"
#include "tc_err.h"
#include "tc_manifest.h"
#include "tc_paths.h"
#include "trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
        int k = v->grid_cfg[g];
        return k >= 0 && v->cfg[k].known_invalid ? -1 : k;
    }
    for (int k = 0; k < v->n_configs; k++) {
        int p = 0;
        if (v->cfg[k].known_invalid)
            continue;
        while (p < v->n_params && v->cfg[k].params[p] == v->values[p][vidx[p]])
            p++;
        if (p == v->n_params)
            return k;
    }
    return -1;
}

int pol_compile_factor(const struct pol_settings *s)
{
    int f = s->sim_costs ? s->compile_factor : s->compile_jobs;
    return f > 0 ? f : 1;
}

double pol_visit_compile_ms(const struct pol_data *d, const struct pcfg *c, const struct pol_settings *s)
{
    const struct sim_compile_ms *ch = &c->charge[s->compile_model];
    int f = pol_compile_factor(s);
    if (!sim_failed_compiles(s->failed_cost, c->status))
        return 0;
    /* the analytic baseline's per-visit charge: sequential adds each compile; the parallel models are shared out
     * over the workers at the contention of a run that keeps them all busy, min(F, configurations) (their list
     * schedule is not additive: this is the baseline's approximation) */
    return s->compile == SIM_COMPILE_SEQUENTIAL
               ? ch->seq_ms
               : sim_compile_at(*ch, sim_compile_level(f, d->n_cfg), d->compile_jobs) / f;
}

double pol_warmup_ms(const struct pol_data *d, const struct pol_settings *s)
{
    return s->source_costs ? 0 : sim_warmup_charge(s->compile_model, d->warmup_mean_ms);
}

double pol_visit_fail_ms(const struct pcfg *c, const struct pol_settings *s)
{
    return sim_failed_launch_ms(s->failed_cost, c->status, c->fail_ms);
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
    s->compile_model = SIM_CM_MEASURED;
    s->failed_cost = SIM_FAILED_TRITON; /* a real tuner pays for what fails (Triton compiles it first) */
    s->truth = SIM_ESTIMATOR_MEAN; /* the statistic the engine's estimate is (the running mean) */
    s->atm_cutoff = 0.95;
    s->atm_points = 100;
    s->atm_boot = 1000;
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
        free(d->in[i].prior_ms);
    }
    free(d->in);
    for (int p = 0; p < d->n_params; p++)
        free(d->values[p]);
    free(d->values);
    free(d->n_values);
    free(d->grid_cfg);
    free(d->vidx);
    free(d->param_kind);
    free(d->sel);
    if (d->bcache != NULL) {
        pthread_mutex_destroy(&d->bcache->mu);
        pol_bcache_drop_frames(d->bcache);
        free(d->bcache->grid_s);
        free(d->bcache->out);
        free(d->bcache);
    }
    free(d);
}

void pol_bcache_drop_frames(struct pol_bcache *bc)
{
    for (int i = 0; bc->frames != NULL && i < bc->n_frames; i++)
        atm_frame_free(&bc->frames[i]);
    free(bc->frames);
    bc->frames = NULL;
    bc->n_frames = 0;
}

/* The trace's index of d's configuration c. */
static int cfg_of(const struct pol_data *d, int c)
{
    return d->sel != NULL ? d->sel[c] : c;
}

/* Each parameter's distinct values, ascending (the grid of the space), each configuration's value indices, and the
 * grid table when it has at most 1 << 22 points. Returns 0, or -1 (out of memory). */
/* Each parameter's POL_PARAM_* flags from its name and whether its values are text. NULL: out of memory. */
static unsigned char *pol_param_kinds(const struct trace *t)
{
    int np = trace_n_params(t);
    unsigned char *k = calloc((size_t)np + 1, 1);
    for (int p = 0; k != NULL && p < np; p++) {
        const char *n = trace_param_name(t, p);
        const char *const *vals;
        int block = strncmp(n, "block_sizes", 11) == 0 || strncmp(n, "BLOCK_", 6) == 0;
        int warps = strcmp(n, "num_warps") == 0 || strcmp(n, "NUM_WARPS") == 0;
        k[p] = (unsigned char)((block ? POL_PARAM_BLOCK : 0) | (warps ? POL_PARAM_WARPS : 0) |
                               (trace_param_values(t, p, &vals) > 0 ? POL_PARAM_CHOICE : 0));
    }
    return k;
}

static int data_grid(struct pol_data *d, const struct trace *t)
{
    int nc = d->n_cfg, np = d->n_params;
    for (int p = 0; p < np; p++) {
        int32_t *v = malloc(((size_t)nc + 1) * sizeof *v);
        int n = 0;
        if (v == NULL)
            return -1;
        for (int c = 0; c < nc; c++)
            v[c] = trace_params(t, cfg_of(d, c))[p];
        qsort(v, (size_t)nc, sizeof *v, cmp_i32);
        for (int c = 0; c < nc; c++)
            if (n == 0 || v[n - 1] != v[c])
                v[n++] = v[c];
        d->values[p] = v;
        d->n_values[p] = n;
    }
    if ((d->vidx = malloc(((size_t)nc * np + 1) * sizeof *d->vidx)) == NULL)
        return -1;
    for (int c = 0; c < nc; c++)
        for (int p = 0; p < np; p++) { /* the value's index in the sorted distinct values */
            const int32_t *vp = d->values[p], x = trace_params(t, cfg_of(d, c))[p];
            int lo = 0, hi = d->n_values[p] - 1;
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (vp[mid] < x)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            d->vidx[(size_t)c * np + p] = lo;
        }
    size_t n_grid = 1;
    for (int p = 0; p < np && n_grid <= ((size_t)1 << 22); p++)
        n_grid *= (size_t)(d->n_values[p] > 0 ? d->n_values[p] : 1);
    if (n_grid > ((size_t)1 << 22))
        return 0;
    if ((d->grid_cfg = malloc(n_grid * sizeof *d->grid_cfg)) == NULL)
        return -1;
    for (size_t g = 0; g < n_grid; g++)
        d->grid_cfg[g] = -1;
    for (int c = nc - 1; c >= 0; c--) { /* backwards: the first in trace order is left */
        size_t g = 0, stride = 1;
        for (int p = 0; p < np; p++) {
            g += (size_t)d->vidx[(size_t)c * np + p] * stride;
            stride *= (size_t)d->n_values[p];
        }
        d->grid_cfg[g] = c;
    }
    return 0;
}

/* Per-execution blocks of configuration c (struct pcfg.blk). Returns 0, or -1 (out of memory). */
static int data_blocks(struct pcfg *c)
{
    if (c->n / BLK == 0)
        return 0;
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
    return 0;
}

/* Each configuration's charge under both compile models (pcfg.charge), with the medians of the input's valid
 * configurations for those without a compile time: simulate's rule (sim_compile_medians). */
static int charges(struct pinput *in, const struct sim_base *base, int nc)
{
    double *v = malloc(((size_t)nc + 1) * 3 * sizeof *v), *iso = v + nc + 1, *scratch = iso + nc + 1;
    double med_ms, med_seq_ms;
    int m = 0;
    if (v == NULL)
        return -1;
    for (int k = 0; k < nc; k++)
        if (base[k].status == TRACE_OK) {
            v[m] = base[k].compile_ms;
            iso[m++] = base[k].compile_isolated_ms;
        }
    for (int cm = SIM_CM_MEASURED; cm <= SIM_CM_PAPER; cm++) {
        sim_compile_medians((enum sim_compile_model)cm, v, iso, m, scratch, &med_ms, &med_seq_ms);
        for (int k = 0; k < nc; k++)
            in->c[k].charge[cm] = sim_compile_charge((enum sim_compile_model)cm, base[k].compile_ms,
                                                     base[k].compile_isolated_ms, med_ms, med_seq_ms);
    }
    free(v);
    return 0;
}

/* Input i's table from the records `simulate` replays too (sim_table.h): status, compile time, true time,
 * overheads. Returns 0, or -1 (tc_errmsg). */
static int data_input(struct pol_data *d, const struct trace *t, int i, struct sim_scratch *bs, struct sim_base *base)
{
    int nc = d->n_cfg;
    struct pinput *in = &d->in[i];
    in->n_cfg = nc;
    in->c = calloc((size_t)nc + 1, sizeof *in->c);
    in->pc = calloc(2 * (size_t)nc + 1, sizeof *in->pc); /* as a tuner with restrictions sees them, then without */
    if (in->c == NULL || in->pc == NULL)
        return tc_seterr_env("policies: out of memory");
    in->opt_ms = in->opt_truth_ms[0] = in->opt_truth_ms[1] = in->opt_truth_ms[2] = INFINITY;
    if (sim_table_input(t, i, bs, base) != 0) {
        tc_preferr("%s", trace_path(t));
        return -1;
    }
    for (int k = 0; d->sel != NULL && k < nc; k++)
        base[k] = base[d->sel[k]]; /* the selection, in order (sel ascending: sel[k] >= k) */
    for (int k = 0; k < nc; k++) {
        const struct sim_base *b = &base[k];
        struct pcfg *c = &in->c[k];
        c->compile_ms = isfinite(b->compile_ms) && b->compile_ms > 0 ? b->compile_ms : 0;
        c->compile_rec_ms = b->compile_ms;
        c->status = b->status;
        in->pc[k].params = trace_params(t, cfg_of(d, k));
        in->pc[k].known_invalid = c->status == TRACE_OUT_OF_RESOURCES;
        in->pc[nc + k].params = in->pc[k].params;
        c->fail_ms = isfinite(b->wall_ms) && b->wall_ms > 0 ? b->wall_ms : 0;
        if (c->status != TRACE_OK)
            continue;
        c->gap_ms = b->gap_ms;
        c->ovh_ms = b->ovh_ms;
        c->warm_ms = b->untimed_ms + c->gap_ms * b->n_untimed;
        c->x = b->timed_ns;
        c->n = b->n_timed;
        c->true_ms = b->true_ms;
        if (data_blocks(c) != 0)
            return tc_seterr_env("policies: out of memory");
        in->n_valid++;
        if (c->true_ms < in->opt_ms)
            in->opt_ms = c->true_ms;
        for (int e = 0; e < 3; e++) {
            c->truth_ms[e] = sim_base_truth_ms(b, (enum sim_estimator)e);
            if (c->truth_ms[e] < in->opt_truth_ms[e])
                in->opt_truth_ms[e] = c->truth_ms[e];
        }
    }
    if (charges(in, base, nc) != 0)
        return tc_seterr_env("policies: out of memory");
    d->source = pol_source_input(in, t, i, d->sel, nc);
    return 0;
}

struct pol_data *pol_data_from_trace(const struct trace *t)
{
    return pol_data_from_trace_configs(t, NULL, 0);
}

struct pol_data *pol_data_from_trace_configs(const struct trace *t, const int *sel, int n_sel)
{
    int nc = trace_n_configs(t), np = trace_n_params(t);
    struct sim_scratch bs;
    struct sim_base *base = NULL;
    struct pol_data *d = calloc(1, sizeof *d);
    memset(&bs, 0, sizeof bs);
    if (d == NULL)
        goto oom;
    d->n_cfg = nc;
    if (sel != NULL) {
        for (int k = 0; k < n_sel; k++)
            if (sel[k] < 0 || sel[k] >= nc || (k > 0 && sel[k] <= sel[k - 1])) {
                tc_seterr("policies: configuration selection not ascending within the trace's %d", nc);
                goto fail;
            }
        if ((d->sel = malloc(((size_t)n_sel + 1) * sizeof *d->sel)) == NULL)
            goto oom;
        memcpy(d->sel, sel, (size_t)n_sel * sizeof *sel);
        d->n_cfg = n_sel;
    }
    d->n_params = np;
    d->n_in = trace_n_inputs(t);
    d->in = calloc((size_t)(d->n_in > 0 ? d->n_in : 1), sizeof *d->in);
    d->n_values = calloc((size_t)np + 1, sizeof *d->n_values);
    d->values = calloc((size_t)np + 1, sizeof *d->values);
    base = malloc(((size_t)nc + 1) * sizeof *base);
    if (d->in == NULL || d->n_values == NULL || d->values == NULL || base == NULL || data_grid(d, t) != 0 ||
        (d->param_kind = pol_param_kinds(t)) == NULL)
        goto oom;
    d->compile_jobs = trace_get_meta(t)->compile_jobs;
    d->warmup_mean_ms = trace_compile_warmup_mean(t);
    for (int i = 0; i < d->n_in; i++)
        if (data_input(d, t, i, &bs, base) != 0)
            goto fail;
    if ((d->bcache = calloc(1, sizeof *d->bcache)) != NULL && pthread_mutex_init(&d->bcache->mu, NULL) != 0) {
        free(d->bcache);
        d->bcache = NULL; /* no cache: each evaluation computes its baseline */
    }
    free(base);
    sim_scratch_free(&bs);
    return d;
oom:
    tc_seterr_env("policies: out of memory");
fail:
    free(base);
    sim_scratch_free(&bs);
    pol_data_free(d);
    return NULL;
}

/* ---- the transfer policy's prior ------------------------------------------------------------------------------ */

int pol_data_has_prior(const struct pol_data *d)
{
    return d->n_in > 0 && d->in[0].prior_ms != NULL;
}

/* prior[k] for input i of d from od (other's tables): match[k] is k's configuration in other (-1: none). */
static void prior_input(const struct pol_data *od, int j, const int *match, int nc, double *prior)
{
    for (int k = 0; k < nc; k++) {
        int m = match[k];
        prior[k] = NAN;
        if (m < 0)
            continue;
        if (j >= 0) {
            if (od->in[j].c[m].status == TRACE_OK)
                prior[k] = od->in[j].c[m].true_ms;
            continue;
        }
        double sum_log = 0; /* no such input there: the geometric mean slowdown over its inputs */
        int n = 0;
        for (int q = 0; q < od->n_in; q++)
            if (od->in[q].c[m].status == TRACE_OK) {
                sum_log += log(od->in[q].c[m].true_ms / od->in[q].opt_ms);
                n++;
            }
        if (n > 0)
            prior[k] = exp(sum_log / n);
    }
}

int pol_data_set_prior(struct pol_data *d, const struct trace *t, const struct trace *other)
{
    int nc = trace_n_configs(t), rc = -1, n_match;
    int *match = malloc(((size_t)nc + 1) * sizeof *match), *in_map = malloc(((size_t)d->n_in + 1) * sizeof *in_map);
    struct pol_data *od = NULL;
    if (match == NULL || in_map == NULL) {
        tc_seterr_env("policies: out of memory");
        goto out;
    }
    if ((n_match = trace_match_configs(t, other, match)) < 0 || trace_match_inputs(t, other, in_map) < 0)
        goto out;
    if (n_match == 0) {
        tc_seterr("%s: no configuration in common with %s", trace_path(other), trace_path(t));
        goto out;
    }
    for (int k = 0; d->sel != NULL && k < d->n_cfg; k++)
        match[k] = match[d->sel[k]]; /* d's configurations are a selection of t's (sel ascending) */
    nc = d->n_cfg;
    if ((od = pol_data_from_trace(other)) == NULL)
        goto out;
    for (int i = 0; i < d->n_in; i++) {
        free(d->in[i].prior_ms);
        if ((d->in[i].prior_ms = malloc(((size_t)nc + 1) * sizeof *d->in[i].prior_ms)) == NULL) {
            tc_seterr_env("policies: out of memory");
            goto out;
        }
        prior_input(od, in_map[i], match, nc, d->in[i].prior_ms);
        d->in[i].prior_same = in_map[i] >= 0;
    }
    rc = 0;
out:
    if (rc != 0)
        for (int i = 0; i < d->n_in; i++) {
            free(d->in[i].prior_ms);
            d->in[i].prior_ms = NULL;
        }
    pol_data_free(od);
    free(match);
    free(in_map);
    return rc;
}

int pol_data_restrict_to_prior(struct pol_data *d)
{
    int kept = 0;
    for (int i = 0; i < d->n_in; i++) {
        struct pinput *in = &d->in[i];
        if (in->prior_ms != NULL && in->prior_same) {
            d->in[kept++] = *in; /* kept, in input order */
            continue;
        }
        for (int k = 0; in->c != NULL && k < in->n_cfg; k++)
            free(in->c[k].blk);
        free(in->c);
        free(in->pc);
        free(in->prior_ms);
    }
    d->n_in = kept;
    if (d->bcache != NULL) { /* a baseline and frames computed before are of the inputs that were there */
        free(d->bcache->out);
        d->bcache->out = NULL;
        pol_bcache_drop_frames(d->bcache);
    }
    return kept;
}

/* The row of role when its trace is shipped (its path in buf), else NULL and buf "". */
static const struct tc_manifest_row *shipped_role(const char *role, char *buf, size_t len)
{
    const struct tc_manifest *m = tc_paths_manifest();
    const struct tc_manifest_row *r = m != NULL ? tc_manifest_role(m, role) : NULL;
    if (r != NULL && tc_paths_role(role, buf, len) != NULL)
        return r;
    if (len > 0)
        buf[0] = '\0';
    return NULL;
}

/* The first of roles (NULL-terminated) whose trace is shipped and whose GPU is not gpu (its path in buf), or NULL. */
static const struct tc_manifest_row *shipped_other_gpu(const char *const *roles, const char *gpu, char *buf, size_t len)
{
    for (const char *const *r = roles; *r != NULL; r++) {
        const struct tc_manifest_row *row = shipped_role(*r, buf, len);
        if (row != NULL && strcmp(row->gpu, gpu) != 0)
            return row;
    }
    if (len > 0)
        buf[0] = '\0';
    return NULL;
}

int pol_shipped_pair(char *ref, char *full, size_t len)
{
    static const char *const other[] = {"cross-gpu", "full-space", NULL};
    const struct tc_manifest_row *a = shipped_role("reference", ref, len);
    return a != NULL && shipped_other_gpu(other, a->gpu, full, len) != NULL ? 0 : -1;
}

int pol_shipped_default(char *trace, char *prior, size_t len)
{
    static const char *const other[] = {"cross-gpu", "reference", NULL};
    const struct tc_manifest_row *f = shipped_role("full-space", trace, len);
    if (f == NULL) { /* the reference, with no prior */
        if (len > 0)
            prior[0] = '\0';
        return tc_paths_role("reference", trace, len) != NULL ? 0 : -1;
    }
    shipped_other_gpu(other, f->gpu, prior, len); /* a prior is another GPU's; "" where none ships */
    return 0;
}
