/* export.c — the pairs of one input of a trace written as a Kernel Tuner 1.5 cache (what Kernel Tuner's
 * simulation mode replays) or as T4 results (the open autotuning results schema, what the autotuning_methodology
 * package reads as a full search space). Streams with tc_json: memory stays one configuration's pointers. */
#include "export.h"
#include "tc_err.h"
#include "tc_json.h"
#include "trace.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void exp_ms_of_ns(FILE *fp, uint64_t ns)
{
    fprintf(fp, "%llu.%06llu", (unsigned long long)(ns / 1000000u), (unsigned long long)(ns % 1000000u));
}

int exp_entry_get(const struct trace *t, int input, int config, struct exp_entry *e)
{
    const struct trace_config *cf = trace_config(t, config);
    long r = trace_find_run(t, input, config);
    memset(e, 0, sizeof *e);
    e->objective = NAN;
    e->compile_ms = isfinite(cf->compile_ms) && cf->compile_ms > 0 ? cf->compile_ms : 0;
    if (r < 0) {
        if (cf->status == TRACE_OK)
            return 0;
        e->status = cf->status;
        return 1;
    }
    const struct trace_run *run = trace_run(t, (size_t)r);
    e->verify_ms = isfinite(run->verify_ms) && run->verify_ms > 0 ? run->verify_ms : 0;
    e->wall_ms = isfinite(run->wall_ms) && run->wall_ms > 0 ? run->wall_ms : 0;
    if (run->status != TRACE_OK) {
        e->status = run->status;
        return 1;
    }
    if (!trace_run_valid(t, (size_t)r)) {
        e->status = TRACE_LAUNCH_ERROR;
        return 1;
    }
    e->status = TRACE_OK;
    e->timed_ns = trace_run_timed(t, (size_t)r);
    e->n_timed = run->n_timed;
    e->true_ms = trace_run_true_ns(t, (size_t)r) * 1e-6; /* an imported run's own time, else the median */
    e->objective = trace_objective_is_metric(t) ? run->objective : NAN;
    return 1;
}

/* The values tune_params lists for parameter p: a value table's size, or an integer parameter's distinct values. */
static int n_listed_values(const struct trace *t, int p)
{
    const char *const *vals;
    int nv = trace_param_values(t, p, &vals), nc = trace_n_configs(t);
    if (nv > 0)
        return nv;
    for (int c = 0; c < nc; c++) {
        int seen = 0;
        for (int k = 0; k < c && !seen; k++)
            seen = trace_params(t, k)[p] == trace_params(t, c)[p];
        nv += !seen;
    }
    return nv;
}

double exp_grid_size(const struct trace *t)
{
    double grid = 1.0;
    for (int p = 0; p < trace_n_params(t); p++)
        grid *= n_listed_values(t, p);
    return grid;
}

int exp_count(const struct trace *t, int input)
{
    int n = 0;
    struct exp_entry e;
    for (int c = 0; c < trace_n_configs(t); c++)
        n += exp_entry_get(t, input, c, &e);
    return n;
}

/* A write to the output failed: the OS's reason (errno of the failed write: ENOSPC, EFBIG, EIO), a machine fault. */
static int write_failed(void)
{
    int e = errno != 0 ? errno : EIO;
    return tc_seterr_env("write failed: %s", strerror(e));
}

/* Kernel Tuner's failure markers (kernel_tuner/util.py), by trace status; Kernel Tuner has none for a wrong
 * result (it stops on a failed verification), so that one is exported as a runtime failure. */
static const char *exp_kt_marker(int status)
{
    switch (status) {
    case TRACE_OUT_OF_RESOURCES: return "InvalidConfig";
    case TRACE_COMPILE_ERROR: return "CompilationFailedConfig";
    default: return "RuntimeFailedConfig";
    }
}

/* T4's invalidity names (results-schema.json), by trace status. */
static const char *t4_invalidity(int status)
{
    switch (status) {
    case TRACE_OK: return "correct";
    case TRACE_OUT_OF_RESOURCES: return "constraints";
    case TRACE_COMPILE_ERROR: return "compile";
    case TRACE_WRONG_RESULT: return "correctness";
    default: return "runtime";
    }
}

static void write_times_array(FILE *fp, const struct exp_entry *e)
{
    fputc('[', fp);
    for (int k = 0; k < e->n_timed; k++) {
        if (k > 0)
            fputc(',', fp);
        exp_ms_of_ns(fp, e->timed_ns[k]);
    }
    fputc(']', fp);
}

/* Configuration c's value of parameter p as the trace holds it: a value table's JSON text ("a\\"b", 1.5, true),
 * whatever its length, or an integer parameter's value written into buf. */
static const char *value_text(const struct trace *t, int c, int p, char *buf, size_t len)
{
    const char *const *vals;
    int n = trace_param_values(t, p, &vals);
    int32_t v = trace_params(t, c)[p];
    if (n > 0 && v >= 0 && v < n)
        return vals[v];
    snprintf(buf, len, "%d", (int)v);
    return buf;
}

/* "NAME": value pairs of configuration c, comma-separated, no braces. */
static void write_params(FILE *fp, const struct trace *t, int c)
{
    for (int p = 0; p < trace_n_params(t); p++) {
        char v[32];
        if (p > 0)
            fputc(',', fp);
        tc_json_str(fp, trace_param_name(t, p));
        fputc(':', fp);
        tc_json_value(fp, value_text(t, c, p, v, sizeof v)); /* a value table's value, not its index */
    }
}

/* Python's repr() of the double a JSON number text denotes: the shortest digits that read back to it, fixed
 * notation for decimal exponents -4 to 15 (always with a fraction: "1000.0"), else "1e+16", "1.5e-07". */
static void py_float_repr(FILE *fp, double x)
{
    char e[40], dig[24];
    int prec = 1, exp, nd = 0;
    for (; prec < 17; prec++) {
        snprintf(e, sizeof e, "%.*e", prec - 1, x);
        if (strtod(e, NULL) == x)
            break;
    }
    snprintf(e, sizeof e, "%.*e", prec - 1, x);
    const char *q = e;
    if (*q == '-')
        fputc(*q++, fp);
    for (; *q != 'e'; q++)
        if (*q != '.')
            dig[nd++] = *q;
    while (nd > 1 && dig[nd - 1] == '0') /* %.*e pads with zeros: not part of the shortest digits */
        nd--;
    dig[nd] = '\0';
    exp = atoi(q + 1);
    if (exp < -4 || exp >= 16) {
        fprintf(fp, "%c%s%se%c%02d", dig[0], nd > 1 ? "." : "", dig + 1, exp < 0 ? '-' : '+', abs(exp));
    } else if (exp < 0) { /* 0.000ddd: -exp - 1 zeros after the point */
        fputs("0.", fp);
        for (int i = 0; i < -exp - 1; i++)
            fputc('0', fp);
        fputs(dig, fp);
    } else {
        for (int i = 0; i <= exp; i++)
            fputc(i < nd ? dig[i] : '0', fp);
        fprintf(fp, ".%s", nd > exp + 1 ? dig + exp + 1 : "0");
    }
}

/* The body of Kernel Tuner's cache key part for a value: Python's str() of the value json.load gives (a string's
 * text, True, False, None, a float's repr), escaped for a JSON string. */
static void write_key_part(FILE *fp, const char *text)
{
    size_t l = strlen(text);
    char *end = NULL;
    double x;
    if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0 || strcmp(text, "null") == 0) {
        fputs(text[0] == 't' ? "True" : text[0] == 'f' ? "False" : "None", fp);
        return;
    }
    if ((text[0] == '-' || (text[0] >= '0' && text[0] <= '9')) && strpbrk(text, ".eE") != NULL &&
        (x = strtod(text, &end), *end == '\0') && isfinite(x)) {
        py_float_repr(fp, x); /* a JSON number with a fraction or an exponent: a float in Python */
        return;
    }
    if (l >= 2 && text[0] == '"') {
        char *inner = malloc(l);
        long n = inner != NULL ? tc_json_unquote(text, inner) : -1;
        if (n >= 0)
            tc_json_str_body(fp, inner, (size_t)n);
        free(inner);
        if (n >= 0)
            return;
    }
    tc_json_str_body(fp, text, l);
}

static void write_problem_size(FILE *fp, const struct trace *t, int input)
{
    fputc('[', fp);
    for (int d = 0; d < trace_n_dims(t); d++)
        fprintf(fp, "%s%lld", d ? "," : "", (long long)trace_dims(t, input)[d]);
    fputc(']', fp);
}

/* tune_params: each parameter's distinct values, ascending (the grid Kernel Tuner builds its space from). */
static void write_tune_params(FILE *fp, const struct trace *t)
{
    int nc = trace_n_configs(t);
    fputc('{', fp);
    for (int p = 0; p < trace_n_params(t); p++) {
        int32_t last = 0;
        int first = 1;
        const char *const *vals;
        int nv = trace_param_values(t, p, &vals);
        fprintf(fp, "%s", p ? ",\n" : "\n");
        tc_json_str(fp, trace_param_name(t, p));
        fputs(":[", fp);
        for (int k = 0; k < nv; k++) { /* an imported value table: its values, in its order */
            if (k > 0)
                fputc(',', fp);
            tc_json_value(fp, vals[k]);
        }
        for (; nv == 0;) { /* the smallest value above `last`: O(values x configurations), small spaces */
            int found = 0;
            int32_t next = 0;
            for (int c = 0; c < nc; c++) {
                int32_t v = trace_params(t, c)[p];
                if ((first || v > last) && (!found || v < next))
                    next = v, found = 1;
            }
            if (!found)
                break;
            fprintf(fp, "%s%d", first ? "" : ",", (int)next);
            last = next;
            first = 0;
        }
        fputc(']', fp);
    }
    fputs("\n}", fp);
}

static void summary_start(const struct trace *t, int input, struct exp_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    sum->best_config = trace_best_config(t, input, NULL, NULL);
}

/* One cache entry: as Kernel Tuner 1.5's sequential runner stores it (store_cache), "time" being the trace's
 * true time (trace_run_true_ns: the median, or an imported run's own time; Kernel Tuner writes the mean of
 * "times"). */
static void kt_entry(FILE *fp, const struct trace *t, int c, const struct exp_entry *e, int first)
{
    fputs(first ? "\n\"" : ",\n\"", fp);
    for (int p = 0; p < trace_n_params(t); p++) { /* Kernel Tuner's key: str() of each value, joined by ',' */
        char v[32];
        if (p > 0)
            fputc(',', fp);
        write_key_part(fp, value_text(t, c, p, v, sizeof v));
    }
    fputs("\":{", fp);
    write_params(fp, t, c);
    if (e->status == TRACE_OK) {
        fprintf(fp, ",\"time\":%.15g", e->true_ms); /* ns / 1e6: 15 digits keep every ns */
        if (isfinite(e->objective)) { /* the cache's objective metric, under its name (as Kernel Tuner stores it) */
            fputc(',', fp);
            tc_json_str(fp, trace_get_meta(t)->objective);
            fputc(':', fp);
            tc_json_num(fp, e->objective);
        }
        fputs(",\"times\":", fp);
        write_times_array(fp, e);
    } else {
        fprintf(fp, ",\"__error__\":\"%s\"", exp_kt_marker(e->status));
    }
    fputs(",\"compile_time\":", fp);
    tc_json_num(fp, e->status == TRACE_OUT_OF_RESOURCES ? 0 : e->compile_ms);
    fputs(",\"verification_time\":", fp);
    tc_json_num(fp, e->verify_ms);
    fputs(",\"benchmark_time\":", fp);
    tc_json_num(fp, e->wall_ms);
    fputs(",\"strategy_time\":0,\"framework_time\":0}", fp);
}

int exp_write_kerneltuner(const struct trace *t, int input, FILE *fp, struct exp_summary *sum)
{
    const struct trace_meta *m = trace_get_meta(t);
    int first = 1;
    summary_start(t, input, sum);
    fputs("{\n\"device_name\":", fp);
    tc_json_str(fp, m->device_name);
    fputs(",\n\"kernel_name\":", fp);
    tc_json_str(fp, m->kernel);
    fputs(",\n\"problem_size\":", fp);
    write_problem_size(fp, t, input);
    fputs(",\n\"tune_params_keys\":[", fp);
    for (int p = 0; p < trace_n_params(t); p++) {
        if (p > 0)
            fputc(',', fp);
        tc_json_str(fp, trace_param_name(t, p));
    }
    fputs("],\n\"tune_params\":", fp);
    write_tune_params(fp, t);
    if (trace_objective_is_metric(t)) { /* ranked by that metric: import ranks the round trip the same way */
        fputs(",\n\"objective\":", fp);
        tc_json_str(fp, m->objective);
        fprintf(fp, ",\n\"objective_higher_is_better\":%s", m->objective_higher_is_better ? "true" : "false");
    } else {
        fputs(",\n\"objective\":\"time\"", fp);
    }
    fputs(",\n\"cache\":{", fp);
    for (int c = 0; c < trace_n_configs(t); c++) {
        struct exp_entry e;
        if (!exp_entry_get(t, input, c, &e)) {
            sum->n_unmeasured++;
            continue;
        }
        kt_entry(fp, t, c, &e, first);
        first = 0;
        sum->n_written++;
        sum->n_valid += e.status == TRACE_OK;
    }
    /* Kernel Tuner's reader (correct_open_cache) wants the file to end in "}\n}" once stripped */
    fputs("\n}\n}\n", fp);
    return ferror(fp) ? write_failed() : 0;
}

/* One T4 result. times: "compilation_time" (the schema's name) and "compilation" (the name Kernel Tuner's writer
 * and the autotuning_methodology package use) hold the same compile time; "benchmark" the run's wall time
 * (warm-up and overhead included), "runtimes" the timed executions. The "time" measurement is the true time (the
 * median), or the failure marker for a failed configuration (which the methodology package reads as invalid). */
static void t4_result(FILE *fp, const struct trace *t, int c, const struct exp_entry *e, int first)
{
    double comp = e->status == TRACE_OUT_OF_RESOURCES ? 0 : e->compile_ms;
    fputs(first ? "\n{\"configuration\":{" : ",\n{\"configuration\":{", fp);
    write_params(fp, t, c);
    fputs("},\"objectives\":[", fp);
    tc_json_str(fp, trace_objective_is_metric(t) ? trace_get_meta(t)->objective : "time");
    fputs("],\"times\":{\"compilation_time\":", fp);
    tc_json_num(fp, comp);
    fputs(",\"compilation\":", fp);
    tc_json_num(fp, comp);
    fputs(",\"runtimes\":", fp);
    write_times_array(fp, e); /* [] for a failure */
    fputs(",\"benchmark\":", fp);
    tc_json_num(fp, e->wall_ms);
    fputs(",\"validation\":", fp);
    tc_json_num(fp, e->verify_ms);
    fprintf(fp, ",\"framework\":0,\"search_algorithm\":0},\"invalidity\":\"%s\",\"correctness\":%d",
            t4_invalidity(e->status), e->status == TRACE_WRONG_RESULT ? 0 : 1);
    fputs(",\"measurements\":[{\"name\":\"time\",\"value\":", fp);
    if (e->status == TRACE_OK)
        fprintf(fp, "%.15g", e->true_ms);
    else
        fprintf(fp, "\"%s\"", exp_kt_marker(e->status));
    fputs(",\"unit\":\"ms\"}", fp);
    if (isfinite(e->objective)) { /* the metric the trace is ranked by, named as in metadata.objective */
        fputs(",{\"name\":", fp);
        tc_json_str(fp, trace_get_meta(t)->objective);
        fputs(",\"value\":", fp);
        tc_json_num(fp, e->objective);
        fputs(",\"unit\":\"\"}", fp);
    }
    fputs("]}", fp);
}

int exp_write_t4(const struct trace *t, int input, FILE *fp, struct exp_summary *sum)
{
    const struct trace_meta *m = trace_get_meta(t);
    int first = 1;
    summary_start(t, input, sum);
    fputs("{\n\"schema_version\":\"1.0.0\",\n\"metadata\":{\"timeunit\":\"milliseconds\",\"device_name\":", fp);
    tc_json_str(fp, m->device_name);
    fputs(",\"kernel_name\":", fp);
    tc_json_str(fp, m->kernel);
    fputs(",\"problem_size\":", fp);
    write_problem_size(fp, t, input);
    fputs(",\"generator\":", fp);
    tc_json_str(fp, m->generator);
    if (trace_objective_is_metric(t)) { /* T4 has no direction: written here, read back by import t4 */
        fputs(",\"objective\":", fp);
        tc_json_str(fp, m->objective);
        fprintf(fp, ",\"objective_higher_is_better\":%s", m->objective_higher_is_better ? "true" : "false");
    }
    fputs("},\n\"results\":[", fp);
    for (int c = 0; c < trace_n_configs(t); c++) {
        struct exp_entry e;
        if (!exp_entry_get(t, input, c, &e)) {
            sum->n_unmeasured++;
            continue;
        }
        t4_result(fp, t, c, &e, first);
        first = 0;
        sum->n_written++;
        sum->n_valid += e.status == TRACE_OK;
    }
    fputs("\n]\n}\n", fp);
    return ferror(fp) ? write_failed() : 0;
}
