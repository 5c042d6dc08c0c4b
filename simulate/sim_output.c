/* sim_output.c — what `tunecost simulate` writes (formats in docs/simulation.md): the settings as comment lines,
 * points.tsv, and frontier.tsv, each row through the points' column table (sim_columns.c), and the one frontier
 * of a scenario's points (sim_scenario_frontier) that simulate, the report and Table 6 share. */
#include "frontier.h"
#include "sim_columns.h"
#include "sim_internal.h"
#include "tc_atomic.h"
#include "tc_err.h"
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
                ? "sequential charges isolated compile times, the parallel models each compile at the min(F, N) "
                  "compiles running together, log2-interpolated between isolated and contended; one worker "
                  "warm-up per run"
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
    {
        char note[200];
        int charged = sim_data_warmup_note(d, s->compile_model, note, sizeof note);
        fprintf(fp, "# %s: %s\n", charged ? "charged" : "not charged", note);
    }
    for (int i = 0; i < s->n_scenarios; i++) {
        char buf[160];
        scenario_describe(&s->scenarios[i], buf, sizeof buf);
        fprintf(fp, "# scenario %s: %s\n", s->scenarios[i].name, buf);
    }
}

/* The input a point names: its own (one_input), else the settings' (one input, or the label of all). */
static const char *point_input_of(const struct sim_data *d, const struct sim_settings *s, const struct sim_point *p)
{
    return p->input >= 0 ? d->in[p->input].name : point_input(d, s);
}

int sim_write_points(FILE *fp, const struct sim_data *d, const struct sim_settings *s, const struct sim_result *r,
                     const char *source)
{
    sim_write_settings(fp, d, s, source);
    sim_columns_header(fp, &sim_points_columns);
    for (int i = 0; i < r->n_points; i++)
        sim_columns_row(fp, &sim_points_columns, &s->scenarios[r->points[i].scenario],
                        point_input_of(d, s, &r->points[i]), &r->points[i]);
    if (ferror(fp))
        return tc_seterr("writing points: %s", strerror(errno));
    return 0;
}

/* A point of a scenario's frontier: its time and performance as the frontier compares them, and the point. */
struct frontier_pt {
    double time, perf;
    const struct sim_point *p;
};

/* The one order of frontier rows: time ascending, performance descending, then sample. */
static int cmp_frontier_pt(const void *a, const void *b)
{
    const struct frontier_pt *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    if (x->perf != y->perf)
        return x->perf > y->perf ? -1 : 1;
    return (x->p->sample > y->p->sample) - (x->p->sample < y->p->sample);
}

/* v as a points file shows it (%.9g, the NUM columns' format), read back as a number. */
static double as_written(double v)
{
    char buf[32];
    if (isnan(v))
        return v;
    snprintf(buf, sizeof buf, "%.9g", v);
    return strtod(buf, NULL);
}

int sim_scenario_frontier(const struct sim_result *r, int n_sc, int sc, int frontier, int by_speedup,
                          int written, const struct sim_point ***out)
{
    int n = r->n_points / n_sc, m = 0;
    struct frontier_pt *f = malloc(((size_t)n + 1) * sizeof *f);
    const struct sim_point **p = malloc(((size_t)n + 1) * sizeof *p);
    double *tm = calloc((size_t)n + 1, sizeof *tm), *pf = calloc((size_t)n + 1, sizeof *pf);
    unsigned char *on = malloc((size_t)n + 1);
    *out = NULL;
    if (f == NULL || p == NULL || tm == NULL || pf == NULL || on == NULL) {
        tc_seterr_env("simulate: out of memory");
        m = -1;
        goto out;
    }
    for (int i = 0; i < n; i++) {
        const struct sim_point *q = &r->points[(size_t)i * n_sc + sc];
        tm[i] = written ? as_written(q->time_s) : q->time_s;
        pf[i] = by_speedup ? q->speedup : q->tflops;
        pf[i] = written ? as_written(pf[i]) : pf[i];
    }
    if (frontier && frontier_mark((size_t)n, tm, pf, on) != 0) {
        m = -1;
        goto out;
    }
    for (int i = 0; i < n; i++)
        if (!frontier || on[i])
            f[m++] = (struct frontier_pt){tm[i], pf[i], &r->points[(size_t)i * n_sc + sc]};
    if (frontier)
        qsort(f, (size_t)m, sizeof *f, cmp_frontier_pt);
    for (int i = 0; i < m; i++)
        p[i] = f[i].p;
    *out = p;
    p = NULL;
out:
    free(f);
    free(p);
    free(tm);
    free(pf);
    free(on);
    return m;
}

int sim_write_scenario_points(FILE *fp, const struct sim_data *d, const struct sim_settings *s,
                              const struct sim_result *r, int sc, int frontier, int by_speedup)
{
    const struct sim_point **p;
    int m = sim_scenario_frontier(r, s->n_scenarios, sc, frontier, by_speedup, 0, &p);
    if (m < 0)
        return -1;
    sim_columns_header(fp, &sim_points_columns);
    for (int i = 0; i < m; i++)
        sim_columns_row(fp, &sim_points_columns, &s->scenarios[sc], point_input(d, s), p[i]);
    free(p);
    return ferror(fp) ? tc_seterr("writing points: %s", strerror(errno)) : 0;
}

/* frontier.tsv: points.tsv's comments, a note, the header, and per scenario the points on its frontier over
 * (time_s, speedup) as points.tsv shows them, by time; the rows as points.tsv has them: what `tunecost frontier`
 * selects from points.tsv (tests/sim-golden.sh compares the two). */
static int write_frontier(FILE *fp, const struct sim_data *d, const struct sim_settings *s,
                          const struct sim_result *r, const char *source)
{
    sim_write_settings(fp, d, s, source);
    fprintf(fp, "# frontier: the points not dominated in (time_s, speedup), per scenario, by time\n");
    sim_columns_header(fp, &sim_points_columns);
    for (int sc = 0; sc < s->n_scenarios; sc++) {
        const struct sim_point **p;
        int m = sim_scenario_frontier(r, s->n_scenarios, sc, 1, 1, 1, &p);
        if (m < 0)
            return -1;
        for (int i = 0; i < m; i++)
            sim_columns_row(fp, &sim_points_columns, &s->scenarios[sc], point_input_of(d, s, p[i]), p[i]);
        free(p);
    }
    return ferror(fp) ? tc_seterr("writing the frontier: %s", strerror(errno)) : 0;
}

int sim_write_outputs(const char *dir, const struct sim_data *d, const struct sim_settings *s,
                      const struct sim_result *r, const char *source)
{
    char path[4096];
    FILE *fp;
    struct tc_atomic a, af;

    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return tc_seterr("-o %s: cannot create the directory: %s", dir, strerror(errno));
    /* Both files are written in full before either is renamed into place, so a write error (a full disk)
     * leaves the previous pair untouched. */
    snprintf(path, sizeof path, "%s/points.tsv", dir);
    if ((fp = tc_atomic_open(&a, path)) == NULL)
        return -1;
    if (sim_write_points(fp, d, s, r, source) != 0 || fflush(fp) != 0) {
        tc_atomic_abort(&a);
        return tc_seterr_env("%s: write failed: %s", path, strerror(errno));
    }
    snprintf(path, sizeof path, "%s/frontier.tsv", dir);
    if ((fp = tc_atomic_open(&af, path)) == NULL) {
        tc_atomic_abort(&a);
        return -1;
    }
    if (write_frontier(fp, d, s, r, source) != 0 || fflush(fp) != 0) {
        tc_atomic_abort(&af);
        tc_atomic_abort(&a);
        return tc_seterr_env("%s: write failed: %s", path, strerror(errno));
    }
    if (tc_atomic_commit(&a) != 0) {
        tc_atomic_abort(&af);
        return -1;
    }
    return tc_atomic_commit(&af);
}
