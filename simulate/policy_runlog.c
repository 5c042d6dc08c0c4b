/* policy_runlog.c — one tuning run's steps (pol_settings.runs_log) written as Kernel Tuner's T4 results, the form
 * in which the autotuning_methodology package reads a run (its runner's write_results): `policies --runs-log t4`
 * writes one file per (policy, input, run); docs/simulation.md ("The runs log") gives the mapping. */
#include "policy_internal.h"
#include "tc_err.h"
#include "tc_json.h"
#include "trace.h"

#include <errno.h>
#include <string.h>

/* A failed step's T4 invalidity and the failure marker its "time" measurement holds (Kernel Tuner's names; the
 * package reads a string as invalid). An out-of-resources configuration visited was charged for (its compile
 * under --failed-cost triton): "runtime", not "constraints", which the package takes for a configuration the
 * framework never ran and charges nothing. */
static void runlog_failure(int status, const char **invalidity, const char **marker)
{
    *marker = "RuntimeFailedConfig";
    switch (status) {
    case TRACE_COMPILE_ERROR:
        *invalidity = "compile";
        *marker = "CompilationFailedConfig";
        break;
    case TRACE_WRONG_RESULT: *invalidity = "correctness"; break;
    case TRACE_OUT_OF_RESOURCES:
        *invalidity = "runtime";
        *marker = "InvalidConfig";
        break;
    default: *invalidity = "runtime"; break;
    }
}

/* One result: step e of rl, on configuration k of d's input, `prev_s` the run's time at the step before. */
static void runlog_result(FILE *fp, const struct trace *t, const struct pol_data *d, const struct pol_settings *s,
                          int input, const struct pol_runlog *rl, int e, double prev_s)
{
    const struct pcfg *c = &d->in[input].c[rl->cfg[e]];
    int tc = d->sel != NULL ? d->sel[rl->cfg[e]] : rl->cfg[e];
    double dt = rl->t_s[e] - prev_s, comp = rl->comp_s[e];
    char buf[256];
    dt = dt > 0 ? dt : 0;
    comp = comp < 0 ? 0 : comp > dt ? dt : comp;
    fputs(e == 0 ? "\n{\"configuration\":{" : ",\n{\"configuration\":{", fp);
    for (int p = 0; p < trace_n_params(t); p++) {
        if (p > 0)
            fputc(',', fp);
        tc_json_str(fp, trace_param_name(t, p));
        fputc(':', fp);
        fputs(trace_param_text(t, tc, p, 1, buf, sizeof buf), fp);
    }
    fputs("},\"objectives\":[\"time\"],\"times\":{\"compilation\":", fp);
    tc_json_num(fp, comp);
    fputs(",\"benchmark\":", fp);
    tc_json_num(fp, dt - comp);
    fputs(",\"framework\":0,\"search_algorithm\":0},", fp);
    if (c->status == TRACE_OK) {
        fprintf(fp, "\"invalidity\":\"correct\",\"correctness\":1,\"measurements\":[{\"name\":\"time\",\"value\":"
                    "%.15g,\"unit\":\"ms\"}]}", pol_truth_ms(c, s));
    } else {
        const char *inv, *marker;
        runlog_failure(c->status, &inv, &marker);
        fprintf(fp, "\"invalidity\":\"%s\",\"correctness\":%d,\"measurements\":[{\"name\":\"time\",\"value\":\"%s\","
                    "\"unit\":\"ms\"}]}", inv, c->status == TRACE_WRONG_RESULT ? 0 : 1, marker);
    }
}

int pol_runlog_write_t4(FILE *fp, const struct trace *t, const struct pol_data *d, const struct pol_settings *s,
                        const struct pol_curve *c, int input, int run)
{
    const struct trace_meta *m = trace_get_meta(t);
    const struct pol_runlog *rl;
    if (c->runlog == NULL || input < 0 || input >= c->n_inputs || run < 0 || run >= c->runs)
        return tc_seterr("policies: no runs log for input %d, run %d (evaluated without runs_log)", input, run);
    rl = &c->runlog[(size_t)input * c->runs + run];
    fputs("{\n\"schema_version\":\"1.0.0\",\n\"metadata\":{\"timeunit\":\"seconds\",\"generator\":\"tunecost "
          "policies\",\"device_name\":", fp);
    tc_json_str(fp, m->device_name);
    fputs(",\"kernel_name\":", fp);
    tc_json_str(fp, m->kernel);
    fputs(",\"policy\":", fp);
    tc_json_str(fp, c->policy);
    fprintf(fp, ",\"input\":%d,\"run\":%d,\"seed\":%llu},\n\"results\":[", input, run, (unsigned long long)s->seed);
    for (int e = 0; e < rl->n; e++)
        runlog_result(fp, t, d, s, input, rl, e, e > 0 ? rl->t_s[e - 1] : 0);
    fputs("\n]\n}\n", fp);
    if (ferror(fp))
        return tc_seterr_env("policies: runs log: write failed: %s", strerror(errno != 0 ? errno : EIO));
    return 0;
}
