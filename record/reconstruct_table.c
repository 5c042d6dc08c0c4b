/* reconstruct_table.c — the candidates reconstruct.c finds, collected into the trace's tables: each decision
 * (tuning key) an input, each candidate (its label, or its binary and launch parameters) a configuration, each
 * benchmark a run; then name=value pairs into integer columns where every value is an integer, value tables where
 * not (docs/record.md). Pure: no I/O. */
#include "reconstruct_int.h"
#include "tc_err.h"
#include "tc_grow.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rec_builder_init(struct rec_builder *b, const char *flush_regex)
{
    int e;
    memset(b, 0, sizeof *b);
    if ((e = regcomp(&b->flush_re, flush_regex, REG_EXTENDED | REG_ICASE | REG_NOSUB)) != 0) {
        char msg[128];
        regerror(e, &b->flush_re, msg, sizeof msg);
        return tc_seterr("--flush-kernels '%s': not a regular expression (%s)", flush_regex, msg);
    }
    b->re_ok = 1;
    return 0;
}

static void free_list(struct rec_list *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->it[i].k);
        free(l->it[i].v);
    }
    free(l->it);
}

void rec_builder_free(struct rec_builder *b)
{
    if (b->re_ok)
        regfree(&b->flush_re);
    for (size_t i = 0; i < b->n_strs; i++)
        free(b->strs[i]);
    free(b->strs);
    free(b->exec);
    free(b->exec_event);
    free(b->runs);
    free(b->seen);
    free_list(&b->configs);
    free_list(&b->inputs);
}

int rec_push_exec(struct rec_builder *b, uint64_t exec_ns, uint64_t event_ns)
{
    if (b->n_exec == b->cap_exec) { /* the two arrays grow together, to one capacity */
        size_t cap = b->cap_exec, cap2 = b->cap_exec;
        uint64_t *ev = tc_grow(b->exec_event, &cap2, b->n_exec + 1, sizeof *ev), *ex;
        if (ev == NULL)
            return tc_preferr("record");
        b->exec_event = ev;
        if ((ex = tc_grow(b->exec, &cap, b->n_exec + 1, sizeof *ex)) == NULL)
            return tc_preferr("record");
        b->exec = ex;
        b->cap_exec = cap;
    }
    b->exec_event[b->n_exec] = event_ns;
    b->exec[b->n_exec++] = exec_ns;
    return 0;
}

char *rec_strndup(struct rec_builder *b, const char *s, size_t n)
{
    if (b->n_strs % 64 == 0) { /* grown by 64 whenever the count reaches a multiple of 64 */
        char **ns = realloc(b->strs, (b->n_strs + 64) * sizeof *ns);
        if (ns == NULL) {
            tc_seterr_env("record: out of memory");
            return NULL;
        }
        b->strs = ns;
    }
    char *c = strndup(s, n);
    if (c == NULL) {
        tc_seterr_env("record: out of memory");
        return NULL;
    }
    b->strs[b->n_strs++] = c;
    return c;
}

/* Append the pair k=v (copies) to it. */
static int add_pair(struct rec_builder *b, struct rec_item *it, const char *k, size_t kn, const char *v, size_t vn)
{
    char **nk = realloc(it->k, (size_t)(it->n_kv + 1) * sizeof *nk), **nv;
    if (nk != NULL)
        it->k = nk;
    nv = nk ? realloc(it->v, (size_t)(it->n_kv + 1) * sizeof *nv) : NULL;
    if (nv == NULL)
        return tc_seterr_env("record: out of memory");
    it->v = nv;
    it->k[it->n_kv] = rec_strndup(b, k, kn);
    it->v[it->n_kv] = rec_strndup(b, v, vn);
    if (it->k[it->n_kv] == NULL || it->v[it->n_kv] == NULL)
        return -1;
    it->n_kv++;
    return 0;
}

/* Split "A=1,B=2" into its pairs. Every part is NAME=VALUE with a name (the value may hold '='); anything else
 * (a part without '=', an empty name) is a damaged label: a one-line error quoting it. Empty parts are skipped. */
static int split_pairs(struct rec_builder *b, const char *text, struct rec_item *it)
{
    const char *p = text;
    while (*p != '\0') {
        size_t len = strcspn(p, ",");
        const char *eq = memchr(p, '=', len);
        if (len > 0 && (eq == NULL || eq == p))
            return tc_seterr("tc:bench label '%.200s': the part '%.*s' is not NAME=VALUE (docs/record.md)", text,
                             (int)(len < 200 ? len : 200), p);
        if (len > 0 && add_pair(b, it, p, (size_t)(eq - p), eq + 1, len - (size_t)(eq - p) - 1) != 0)
            return -1;
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* The index of the item labelled `label` in l, adding it (pairs from `pairs`, or none) when new. */
static int find_or_add(struct rec_builder *b, struct rec_list *l, const char *label, const char *pairs, int *added)
{
    *added = 0;
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->it[i].label, label) == 0)
            return i;
    size_t cap = (size_t)l->cap;
    struct rec_item *grown = tc_grow(l->it, &cap, (size_t)l->n + 1, sizeof *grown);
    if (grown == NULL)
        return tc_preferr("record");
    l->it = grown;
    l->cap = (int)cap;
    struct rec_item *it = &l->it[l->n];
    memset(it, 0, sizeof *it);
    if ((it->label = rec_strndup(b, label, strlen(label))) == NULL)
        return -1;
    l->n++;
    if (pairs != NULL && split_pairs(b, pairs, it) != 0)
        return -1;
    *added = 1;
    return l->n - 1;
}

static int status_of(const struct rec_unit *u)
{
    if (u->failure != NULL) {
        if (strstr(u->failure, "OutOfResources") != NULL)
            return TRACE_OUT_OF_RESOURCES;
        if (strstr(u->failure, "PTXAS") != NULL || strstr(u->failure, "Compil") != NULL)
            return TRACE_COMPILE_ERROR;
        return TRACE_LAUNCH_ERROR;
    }
    if (u->n_exec == 0)
        return TRACE_LAUNCH_ERROR;
    return TRACE_OK;
}

/* Unlabelled: the decision the unit belongs to (a binary benchmarked again, or another process, starts the next
 * decision) and its configuration label: the binary and its launch parameters. */
static int unlabelled_ids(struct rec_builder *b, const struct rec_unit *u, char *in_label, char *cfg, size_t len)
{
    const struct rec_event *k = u->first_kernel;
    if (b->n_seen > 0 && b->seen[0]->pid != k->pid) {
        b->decision++;
        b->n_seen = 0;
    }
    for (size_t i = 0; i < b->n_seen; i++) {
        const struct rec_event *s = b->seen[i];
        if (strcmp(s->name, k->name) == 0 && memcmp(s->block, k->block, sizeof s->block) == 0 &&
            s->registers == k->registers && s->smem_bytes == k->smem_bytes && s->pid == k->pid) {
            b->decision++;
            b->n_seen = 0;
            break;
        }
    }
    void *seen = tc_grow(b->seen, &b->cap_seen, b->n_seen + 1, sizeof *b->seen);
    if (seen == NULL)
        return tc_preferr("record");
    b->seen = seen;
    b->seen[b->n_seen++] = k;
    snprintf(in_label, len, "decision=%d", b->decision);
    snprintf(cfg, len, "GRID_X=%d,GRID_Y=%d,GRID_Z=%d,BLOCK_X=%d,BLOCK_Y=%d,BLOCK_Z=%d,REGISTERS=%d,SMEM_BYTES=%d",
             k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2], k->registers,
             k->smem_bytes);
    return 0;
}

static void update_config(struct trace_config *c, const struct rec_unit *u, int status, int added)
{
    if (added)
        *c = (struct trace_config){.status = status, .compile_ms = NAN, .load_ms = NAN, .registers = -1,
                                   .smem_bytes = -1, .spill_bytes = -1, .path = 0};
    if (status == TRACE_OK)
        c->status = TRACE_OK;
    if (isnan(c->compile_ms) && !isnan(u->compile_ms)) {
        c->compile_ms = u->compile_ms;
        c->load_ms = u->n_loads ? u->load_ms : NAN;
    }
    if (c->registers < 0 && u->first_kernel != NULL) {
        c->registers = u->first_kernel->registers;
        c->smem_bytes = u->first_kernel->smem_bytes;
    }
}

int rec_add_unit(struct rec_builder *b, const struct rec_unit *u)
{
    char in_label[4096], cfg_label[8192], cfg_pairs[4096];
    const char *in_pairs = in_label;
    int added, input, config, status = status_of(u);
    if (u->config != NULL && u->key != NULL) {
        snprintf(in_label, sizeof in_label, "%s %s", u->kernel, u->key);
        snprintf(cfg_pairs, sizeof cfg_pairs, "%s", u->config);
        snprintf(cfg_label, sizeof cfg_label, "%s", u->config);
        in_pairs = u->key;
    } else {
        if (unlabelled_ids(b, u, in_label, cfg_pairs, sizeof cfg_pairs) != 0)
            return -1;
        /* the kernel's name is part of an unlabelled configuration (a pair of its own: names hold commas) */
        snprintf(cfg_label, sizeof cfg_label, "%s\n%s", cfg_pairs, u->kernel);
    }
    if (b->kernel[0] == '\0')
        snprintf(b->kernel, sizeof b->kernel, "%s", u->kernel ? u->kernel : "");
    if ((input = find_or_add(b, &b->inputs, in_label, in_pairs, &added)) < 0 ||
        (config = find_or_add(b, &b->configs, cfg_label, cfg_pairs, &added)) < 0)
        return -1;
    if (u->config == NULL && added && add_pair(b, &b->configs.it[config], "KERNEL", 6, u->kernel,
                                               strlen(u->kernel)) != 0)
        return -1;
    update_config(&b->configs.it[config].c, u, status, added);
    if (status == TRACE_OK)
        for (size_t i = 0; i < u->n_exec; i++)
            if (b->exec[u->exec_first + i] == 0)
                status = TRACE_LAUNCH_ERROR; /* a zero duration: not a valid run */
    struct trace_run *runs = tc_grow(b->runs, &b->cap_runs, b->n_runs + 1, sizeof *runs);
    if (runs == NULL)
        return tc_preferr("record");
    b->runs = runs;
    b->runs[b->n_runs++] = (struct trace_run){
        .input = input, .config = config, .status = status, .n_estimate = (int32_t)u->n_estimate,
        .n_warmup = (int32_t)u->n_warmup, .n_timed = (int32_t)u->n_timed, .exec_offset = (int64_t)u->exec_first,
        .wall_ms = u->wall_ms, .flush_ms = u->flush_ms, .verify_ms = NAN, .estimate_ms = u->estimate_ms,
        .rel_error = NAN};
    b->sum.compile_ms += isnan(u->compile_ms) ? 0 : u->compile_ms;
    b->sum.load_ms += u->load_ms;
    b->sum.bench_ms += u->wall_ms;
    b->sum.flush_ms += u->flush_ms;
    b->sum.n_unclassified += !u->classified && u->n_exec > 0;
    return 0;
}

/* Is text a whole integer in [lo, hi]? */
static int integer_in(const char *text, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (text[0] == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

static const char *value_of(const struct rec_item *it, const char *key)
{
    for (int i = 0; i < it->n_kv; i++)
        if (strcmp(it->k[i], key) == 0)
            return it->v[i];
    return NULL;
}

/* The column names of a list: every key in first-appearance order (empty names skipped). */
static int column_names(const struct rec_list *l, char ***names, int *n)
{
    *names = NULL;
    *n = 0;
    for (int i = 0; i < l->n; i++)
        for (int j = 0; j < l->it[i].n_kv; j++) {
            const char *k = l->it[i].k[j];
            int dup = k[0] == '\0';
            for (int c = 0; c < *n && !dup; c++)
                dup = strcmp((*names)[c], k) == 0;
            if (dup)
                continue;
            char **nn = realloc(*names, (size_t)(*n + 1) * sizeof *nn);
            if (nn == NULL || (nn[*n] = strdup(k)) == NULL) {
                *names = nn ? nn : *names;
                return tc_seterr_env("record: out of memory");
            }
            *names = nn;
            (*n)++;
        }
    return 0;
}

/* Column c of the configurations: integers where every configuration has an int32 value, otherwise indices into
 * a table of the values' text (a configuration without the parameter gets ""). */
static int param_column(const struct rec_list *l, const char *name, int c, struct rec_session *r)
{
    long long v;
    int all_int = 1;
    for (int i = 0; i < l->n && all_int; i++) {
        const char *t = value_of(&l->it[i], name);
        all_int = t != NULL && integer_in(t, INT32_MIN, INT32_MAX, &v);
    }
    for (int i = 0; i < l->n; i++) {
        const char *t = value_of(&l->it[i], name);
        if (all_int) {
            integer_in(t, INT32_MIN, INT32_MAX, &v);
            r->params[(size_t)i * (size_t)r->n_params + (size_t)c] = (int32_t)v;
            continue;
        }
        t = t ? t : "";
        int k = 0;
        while (k < r->n_param_values[c] && strcmp(r->param_values[c][k], t) != 0)
            k++;
        if (k == r->n_param_values[c]) {
            char **nv = realloc(r->param_values[c], (size_t)(k + 1) * sizeof *nv);
            if (nv == NULL || (nv[k] = strdup(t)) == NULL) {
                r->param_values[c] = nv ? nv : r->param_values[c];
                return tc_seterr_env("record: out of memory");
            }
            r->param_values[c] = nv;
            r->n_param_values[c]++;
        }
        r->params[(size_t)i * (size_t)r->n_params + (size_t)c] = k;
    }
    return 0;
}

/* Dimensions: the key's pairs whose value is an integer for every input; none such: one column "decision", the
 * input's index. */
static int dim_columns(const struct rec_list *l, struct rec_session *r)
{
    char **names = NULL;
    int n = 0;
    long long v;
    if (column_names(l, &names, &n) != 0)
        goto fail;
    r->dim_names = calloc((size_t)n + 1, sizeof *r->dim_names);
    r->dims = calloc((size_t)l->n * (size_t)(n + 1) + 1, sizeof *r->dims);
    if (r->dim_names == NULL || r->dims == NULL)
        goto fail;
    for (int c = 0; c < n; c++) {
        int all_int = 1;
        for (int i = 0; i < l->n && all_int; i++) {
            const char *t = value_of(&l->it[i], names[c]);
            all_int = t != NULL && integer_in(t, INT64_MIN, INT64_MAX, &v);
        }
        if (all_int)
            r->dim_names[r->n_dims++] = names[c];
        else
            free(names[c]);
        names[c] = NULL;
    }
    if (r->n_dims == 0 && (r->dim_names[r->n_dims++] = strdup("decision")) == NULL)
        goto fail;
    for (int i = 0; i < l->n; i++)
        for (int c = 0; c < r->n_dims; c++) {
            const char *t = value_of(&l->it[i], r->dim_names[c]);
            r->dims[(size_t)i * (size_t)r->n_dims + (size_t)c] = t && integer_in(t, INT64_MIN, INT64_MAX, &v) ? v : i;
        }
    free(names);
    return 0;
fail:
    for (int c = 0; c < n; c++)
        free(names ? names[c] : NULL);
    free(names);
    return tc_seterr_env("record: out of memory");
}

static char **copy_labels(const struct rec_list *l)
{
    char **out = calloc((size_t)l->n + 1, sizeof *out);
    for (int i = 0; out != NULL && i < l->n; i++)
        if ((out[i] = strdup(l->it[i].label)) == NULL)
            return out; /* freed by the caller with the session */
    return out;
}

struct rec_session *rec_builder_finish(struct rec_builder *b, int labelled)
{
    struct rec_session *r = calloc(1, sizeof *r);
    if (r == NULL)
        goto oom;
    r->labelled = labelled;
    r->flush_bytes = b->flush_bytes > 0 ? b->flush_bytes : b->memset_flush_bytes > 0 ? b->memset_flush_bytes : -1;
    snprintf(r->kernel, sizeof r->kernel, "%s", b->kernel);
    r->sum = b->sum;
    r->n_configs = b->configs.n;
    r->n_inputs = b->inputs.n;
    if (column_names(&b->configs, &r->param_names, &r->n_params) != 0)
        goto fail;
    r->param_values = calloc((size_t)r->n_params + 1, sizeof *r->param_values);
    r->n_param_values = calloc((size_t)r->n_params + 1, sizeof *r->n_param_values);
    r->params = calloc((size_t)r->n_configs * (size_t)r->n_params + 1, sizeof *r->params);
    r->configs = calloc((size_t)r->n_configs + 1, sizeof *r->configs);
    r->inputs = calloc((size_t)r->n_inputs + 1, sizeof *r->inputs);
    r->config_labels = copy_labels(&b->configs);
    r->input_labels = copy_labels(&b->inputs);
    if (!r->param_values || !r->n_param_values || !r->params || !r->configs || !r->inputs || !r->config_labels ||
        !r->input_labels)
        goto oom;
    for (int c = 0; c < r->n_params; c++)
        if (param_column(&b->configs, r->param_names[c], c, r) != 0)
            goto fail;
    if (dim_columns(&b->inputs, r) != 0)
        goto fail;
    for (int i = 0; i < r->n_configs; i++)
        r->configs[i] = b->configs.it[i].c;
    for (int i = 0; i < r->n_inputs; i++)
        r->inputs[i] = (struct trace_input){.flops = NAN, .ref_ms = NAN};
    r->runs = b->runs;
    r->n_runs = b->n_runs;
    b->runs = NULL;
    r->exec_ns = b->exec;
    r->exec_event_ns = b->exec_event;
    r->n_exec = b->n_exec;
    b->exec = NULL;
    b->exec_event = NULL;
    return r;
oom:
    tc_seterr_env("record: out of memory");
fail:
    rec_session_free(r);
    return NULL;
}

void rec_session_free(struct rec_session *r)
{
    if (r == NULL)
        return;
    for (int c = 0; c < r->n_params; c++) {
        free(r->param_names ? r->param_names[c] : NULL);
        for (int k = 0; r->param_values && r->n_param_values && k < r->n_param_values[c]; k++)
            free(r->param_values[c][k]);
        free(r->param_values ? r->param_values[c] : NULL);
    }
    for (int d = 0; d < r->n_dims; d++)
        free(r->dim_names[d]);
    for (int i = 0; r->config_labels && i < r->n_configs; i++)
        free(r->config_labels[i]);
    for (int i = 0; r->input_labels && i < r->n_inputs; i++)
        free(r->input_labels[i]);
    free(r->param_names);
    free(r->param_values);
    free(r->n_param_values);
    free(r->params);
    free(r->configs);
    free(r->config_labels);
    free(r->dim_names);
    free(r->dims);
    free(r->inputs);
    free(r->input_labels);
    free(r->runs);
    free(r->exec_ns);
    free(r->exec_event_ns);
    free(r);
}

int rec_session_set_flops(struct rec_session *r, const char *expr)
{
    for (int i = 0; i < r->n_inputs; i++) {
        double flops = 1.0;
        const char *p = expr;
        while (*p != '\0') {
            size_t len = strcspn(p, "*");
            char factor[64], *end;
            int d = 0;
            snprintf(factor, sizeof factor, "%.*s", (int)len, p);
            double v = strtod(factor, &end);
            if (len == 0 || len >= sizeof factor || *end != '\0') {
                while (d < r->n_dims && strcmp(r->dim_names[d], factor) != 0)
                    d++;
                if (len == 0 || len >= sizeof factor || d == r->n_dims)
                    return tc_seterr("--flops '%s': '%s' is neither a number nor a dimension of the inputs", expr,
                                     factor);
                v = (double)r->dims[(size_t)i * (size_t)r->n_dims + (size_t)d];
            }
            flops *= v;
            p += len;
            if (*p == '*')
                p++;
        }
        r->inputs[i].flops = flops;
    }
    return 0;
}
