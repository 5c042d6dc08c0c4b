/* sim_output.c — what `tunecost simulate` writes (formats in docs/simulation.md): the settings as comment lines,
 * points.tsv, and frontier.tsv computed from points.tsv's text by the same code as `tunecost frontier`. */
#include "frontier.h"
#include "sim_internal.h"
#include "tc_atomic.h"
#include "tc_err.h"
#include "tc_tsv.h"
#include "tc_version.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void scenario_describe(const struct sim_scenario *sc, char *buf, size_t len)
{
    int n, f = sc->compile_factor;
    if (sc->compile == SIM_COMPILE_SEQUENTIAL)
        n = snprintf(buf, len, "compile sequential");
    else if (sc->compile == SIM_COMPILE_IDEAL)
        n = snprintf(buf, len, "compile parallel x%d (compile_ms / (N / ceil(N / %d)); ideal, an optimistic bound)",
                     f, f);
    else if (sc->compile == SIM_COMPILE_PARALLEL)
        n = snprintf(buf, len, "compile parallel on %d workers (list-schedule makespan, then benchmarks)", f);
    else
        n = snprintf(buf, len, "compile pipelined on %d workers", f);
    if (n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, ", overhead %s, early stop %s", sim_overhead_name(sc->overhead),
                 sc->early_stop ? "on" : "off");
}

static const char *point_input(const struct sim_data *d, const struct sim_settings *s)
{
    return s->input >= 0 ? d->in[s->input].name : d->label != NULL ? d->label : "all";
}

/* The settings of the cost models and statistics, as '#' lines. */
static void write_models(FILE *fp, const struct sim_settings *s)
{
    fprintf(fp, "# exec-dist: %s\n# estimator: %s\n# truth: %s\n", sim_exec_dist_name(s->exec_dist),
            sim_estimator_name(s->estimator), sim_estimator_name(s->truth));
    fprintf(fp, "# failed-cost: %s (%s)\n", sim_failed_cost_name(s->failed_cost),
            s->failed_cost == SIM_FAILED_TRITON ? "failed configurations drawn, charged compile + failed launch"
                                                : "only valid configurations drawn");
    fprintf(fp, "# compile-model: %s (%s)\n", sim_compile_model_name(s->compile_model),
            s->compile_model == SIM_CM_MEASURED
                ? "sequential charges isolated compile times, the parallel models the contended ones"
                : "every model charges compile_ms; parallel is the ideal model");
    if (s->input < 0)
        fprintf(fp, "# inputs per sample: %s\n", s->one_input ? "one, drawn uniformly" : "all");
}

void sim_write_settings(FILE *fp, const struct sim_data *d, const struct sim_settings *s, const char *source)
{
    int n_used = 0, n_valid = 0;
    for (int i = 0; i < d->n_in; i++)
        if (s->input < 0 || s->input == i) {
            n_used += d->in[i].n_valid > 0;
            n_valid += d->in[i].n_valid;
        }
    fprintf(fp, "# tunecost %s simulate (docs/simulation.md)\n", TC_VERSION);
    if (source != NULL)
        fprintf(fp, "# source: %s\n", source);
    if (s->input >= 0)
        fprintf(fp, "# input: %s (%d valid configurations)\n", d->in[s->input].name, d->in[s->input].n_valid);
    else
        fprintf(fp, "# input: %s (%d inputs with valid configurations of %d; %d valid (input, configuration) "
                    "pairs)\n", point_input(d, s), n_used, d->n_in, n_valid);
    fprintf(fp, "# samples: %d\n# runs: %d\n# seed: %llu\n", s->samples, s->runs, (unsigned long long)s->seed);
    fprintf(fp, "# n-config: %d:%d\n# exec-ms: %.9g:%.9g\n# early-stop-num: %d:%d\n"
                "# early-stop-threshold: %.15g:%.15g\n",
            s->n_config_lo, s->n_config_hi, s->exec_ms_lo, s->exec_ms_hi, s->es_num_lo, s->es_num_hi,
            s->es_thr_lo, s->es_thr_hi);
    write_models(fp, s);
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

/* One row of points.tsv. */
static void put_point(FILE *fp, const struct sim_scenario *sc, const char *input, const struct sim_point *p)
{
    fprintf(fp, "%d\t%s\t%s\t%d\t%.9g", p->sample, sc->name, input, p->n_config, p->exec_ms);
    if (sc->early_stop)
        fprintf(fp, "\t%d\t%.6f", p->es_num, p->es_thr);
    else
        fputs("\tnan\tnan", fp); /* not drawn for this scenario: the one NA token */
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

int sim_write_points(FILE *fp, const struct sim_data *d, const struct sim_settings *s, const struct sim_result *r,
                     const char *source)
{
    const char *input = point_input(d, s);
    sim_write_settings(fp, d, s, source);
    tc_tsv_write_header(fp, &tc_tsv_points);
    for (int i = 0; i < r->n_points; i++)
        put_point(fp, &s->scenarios[r->points[i].scenario],
                  r->points[i].input >= 0 ? d->in[r->points[i].input].name : input, &r->points[i]);
    if (ferror(fp))
        return tc_seterr("writing points: %s", strerror(errno));
    return 0;
}

/* qsort_r of point pointers, the order of a scenario's frontier rows: time ascending, performance (speedup when
 * *arg, else TFLOP/s) descending, then sample. */
static int cmp_frontier_row(const void *a, const void *b, void *arg)
{
    const struct sim_point *x = *(const struct sim_point *const *)a, *y = *(const struct sim_point *const *)b;
    int by_speedup = *(const int *)arg;
    double px = by_speedup ? x->speedup : x->tflops, py = by_speedup ? y->speedup : y->tflops;
    if (x->time_s != y->time_s)
        return x->time_s < y->time_s ? -1 : 1;
    if (px != py)
        return px > py ? -1 : 1;
    return (x->sample > y->sample) - (x->sample < y->sample);
}

int sim_write_scenario_points(FILE *fp, const struct sim_data *d, const struct sim_settings *s,
                              const struct sim_result *r, int sc, int frontier, int by_speedup)
{
    int n_sc = s->n_scenarios, n = r->n_points / n_sc, m = 0, rc = -1;
    const struct sim_point **p = malloc(((size_t)n + 1) * sizeof *p);
    double *tm = calloc((size_t)n + 1, sizeof *tm), *pf = calloc((size_t)n + 1, sizeof *pf);
    unsigned char *on = malloc((size_t)n + 1);
    if (p == NULL || tm == NULL || pf == NULL || on == NULL) {
        tc_seterr("out of memory");
        goto out;
    }
    for (int i = 0; i < n; i++) {
        const struct sim_point *q = &r->points[(size_t)i * n_sc + sc];
        tm[i] = q->time_s;
        pf[i] = by_speedup ? q->speedup : q->tflops;
    }
    if (frontier_mark((size_t)n, tm, pf, on) != 0) {
        tc_seterr("out of memory");
        goto out;
    }
    for (int i = 0; i < n; i++)
        if (!frontier || on[i])
            p[m++] = &r->points[(size_t)i * n_sc + sc];
    if (frontier)
        qsort_r(p, (size_t)m, sizeof *p, cmp_frontier_row, &by_speedup);
    tc_tsv_write_header(fp, &tc_tsv_points);
    for (int i = 0; i < m; i++)
        put_point(fp, &s->scenarios[sc], point_input(d, s), p[i]);
    rc = ferror(fp) ? tc_seterr("writing points: %s", strerror(errno)) : 0;
out:
    free(p);
    free(tm);
    free(pf);
    free(on);
    return rc;
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
        tc_seterr_env("%s: write failed: %s", path, strerror(errno));
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
        tc_seterr_env("%s: write failed: %s", path, strerror(errno));
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
