/* sim_settings.c — the settings of `tunecost simulate` (sim.h): names of the models, scenario names, the defaults,
 * the paper's choices (--paper), their range checks, the EXEC_TIME grid, and the thread count a setting means. */
#include "sim.h"
#include "tc_err.h"
#include "tc_opt.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

/* The models' names, indexed by their enums (sim.h); tc_parse_name and tc_name_of do the lookups. */
#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))
const char *const sim_compile_names[4] = {"sequential", "parallel", "pipelined", "ideal"};
#define compile_names sim_compile_names
const char *const sim_compile_model_names[2] = {"measured", "paper"};
const char *const sim_failed_cost_names[2] = {"triton", "none"};
const char *const sim_exec_dist_names[2] = {"uniform", "log"};
static const char *const overhead_names[] = {"paper", "per-exec"};
static const char *const estimator_names[] = {"mean", "median", "min"};

const char *sim_compile_name(enum sim_compile c)
{
    return tc_name_of(compile_names, N_OF(compile_names), (int)c);
}
const char *sim_overhead_name(enum sim_overhead o)
{
    return tc_name_of(overhead_names, N_OF(overhead_names), (int)o);
}
const char *sim_estimator_name(enum sim_estimator e)
{
    return tc_name_of(estimator_names, N_OF(estimator_names), (int)e);
}
const char *sim_compile_model_name(enum sim_compile_model m)
{
    return tc_name_of(sim_compile_model_names, N_OF(sim_compile_model_names), (int)m);
}
const char *sim_failed_cost_name(enum sim_failed_cost f)
{
    return tc_name_of(sim_failed_cost_names, N_OF(sim_failed_cost_names), (int)f);
}
const char *sim_exec_dist_name(enum sim_exec_dist e)
{
    return tc_name_of(sim_exec_dist_names, N_OF(sim_exec_dist_names), (int)e);
}

int sim_truth_parse(const char *s, enum sim_estimator *out)
{
    int i;
    if (tc_parse_name("--truth", s, estimator_names, N_OF(estimator_names), &i) != 0)
        return -1;
    *out = (enum sim_estimator)i;
    return 0;
}

enum sim_compile sim_compile_for_model(enum sim_compile_model m, enum sim_compile c)
{
    return m == SIM_CM_PAPER && c == SIM_COMPILE_PARALLEL ? SIM_COMPILE_IDEAL : c;
}
void sim_scenarios_for_model(struct sim_settings *s)
{
    for (int i = 0; i < s->n_scenarios; i++)
        s->scenarios[i].compile = sim_compile_for_model(s->compile_model, s->scenarios[i].compile);
}

int sim_compile_parse(const char *s, enum sim_compile *out)
{
    int i;
    if (tc_parse_name("--compile", s, compile_names, N_OF(compile_names), &i) != 0)
        return -1;
    *out = (enum sim_compile)i;
    return 0;
}
int sim_overhead_parse(const char *s, enum sim_overhead *out)
{
    int i;
    if (tc_parse_name("--overhead", s, overhead_names, N_OF(overhead_names), &i) != 0)
        return -1;
    *out = (enum sim_overhead)i;
    return 0;
}
int sim_estimator_parse(const char *s, enum sim_estimator *out)
{
    int i;
    if (tc_parse_name("--estimator", s, estimator_names, N_OF(estimator_names), &i) != 0)
        return -1;
    *out = (enum sim_estimator)i;
    return 0;
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
            if (strcmp(tok, "sequential") == 0 || strcmp(tok, "parallel") == 0 || strcmp(tok, "pipelined") == 0 ||
                strcmp(tok, "ideal") == 0) {
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
                                 "'+' from sequential, parallel, pipelined, ideal, early-stop, per-exec, "
                                 "paper-overhead)",
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
    s->exec_dist = SIM_EXEC_UNIFORM;
    s->estimator = SIM_ESTIMATOR_MEAN;
    s->truth = SIM_ESTIMATOR_MEAN;
    s->failed_cost = SIM_FAILED_TRITON;
    s->compile_model = SIM_CM_MEASURED;
    s->one_input = 0;
    s->input = -1;
    s->seed = 1;
    s->threads = 0;
    s->n_scenarios = 3;
    sim_scenario_parse("baseline", SIM_COMPILE_SEQUENTIAL, 16, SIM_OVERHEAD_PAPER, &s->scenarios[0]);
    sim_scenario_parse("parallel", SIM_COMPILE_SEQUENTIAL, 16, SIM_OVERHEAD_PAPER, &s->scenarios[1]);
    sim_scenario_parse("early-stop", SIM_COMPILE_SEQUENTIAL, 16, SIM_OVERHEAD_PAPER, &s->scenarios[2]);
}

void sim_settings_paper(struct sim_settings *s)
{
    s->failed_cost = SIM_FAILED_NONE;
    s->compile_model = SIM_CM_PAPER;
    s->one_input = 1;
    s->n_config_lo = 1;
    s->n_config_hi = 80;
    s->exec_ms_lo = 10;
    s->exec_ms_hi = 100;
    s->exec_dist = SIM_EXEC_UNIFORM;
    s->estimator = s->truth = SIM_ESTIMATOR_MEAN;
    sim_scenarios_for_model(s);
}

/* Points of the uniform grid between fractional bounds. */
#define UNIFORM_POINTS 1001
/* Points per decade of the log grid. */
#define LOG_PER_DECADE 100

static int whole(double x)
{
    return x == floor(x);
}

int sim_exec_grid_n(const struct sim_settings *s)
{
    if (s->exec_ms_lo == s->exec_ms_hi)
        return 1;
    if (s->exec_dist == SIM_EXEC_LOG)
        return 1 + (int)lround(LOG_PER_DECADE * log10(s->exec_ms_hi / s->exec_ms_lo));
    if (whole(s->exec_ms_lo) && whole(s->exec_ms_hi))
        return (int)(s->exec_ms_hi - s->exec_ms_lo) + 1;
    return UNIFORM_POINTS;
}

double sim_exec_grid_ms(const struct sim_settings *s, int k)
{
    int n = sim_exec_grid_n(s);
    if (n == 1 || k <= 0)
        return s->exec_ms_lo;
    if (k >= n - 1)
        return s->exec_ms_hi; /* exactly HI, whatever the rounding of the formula */
    if (s->exec_dist == SIM_EXEC_LOG)
        return s->exec_ms_lo * pow(s->exec_ms_hi / s->exec_ms_lo, (double)k / (double)(n - 1));
    if (whole(s->exec_ms_lo) && whole(s->exec_ms_hi))
        return s->exec_ms_lo + k;
    return s->exec_ms_lo + (s->exec_ms_hi - s->exec_ms_lo) * (double)k / (double)(n - 1);
}

int sim_settings_check(const struct sim_settings *s)
{
    if (s->samples < 1 || s->samples > 100000000)
        return tc_seterr("--samples: expected an integer in [1, 100000000], got %d", s->samples);
    if (s->runs < 1 || s->runs > 100000000)
        return tc_seterr("--runs: expected an integer in [1, 100000000], got %d", s->runs);
    if (s->n_config_lo < 1 || s->n_config_lo > s->n_config_hi)
        return tc_seterr("--n-config: expected 1 <= lo <= hi, got %d:%d", s->n_config_lo, s->n_config_hi);
    if (!(s->exec_ms_lo >= 0.001) || !(s->exec_ms_lo <= s->exec_ms_hi) || !(s->exec_ms_hi <= 100000))
        return tc_seterr("--exec-ms: expected 0.001 <= lo <= hi <= 100000 (ms), got %g:%g", s->exec_ms_lo,
                         s->exec_ms_hi);
    if ((unsigned)s->exec_dist > SIM_EXEC_LOG)
        return tc_seterr("--exec-dist: unknown distribution %d", (int)s->exec_dist);
    if ((unsigned)s->truth > SIM_ESTIMATOR_MIN)
        return tc_seterr("--truth: unknown statistic %d", (int)s->truth);
    if ((unsigned)s->failed_cost > SIM_FAILED_NONE)
        return tc_seterr("--failed-cost: unknown model %d", (int)s->failed_cost);
    if ((unsigned)s->compile_model > SIM_CM_PAPER)
        return tc_seterr("--compile-model: unknown model %d", (int)s->compile_model);
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
        if ((unsigned)sc->compile > SIM_COMPILE_IDEAL || (unsigned)sc->overhead > SIM_OVERHEAD_PER_EXEC)
            return tc_seterr("--scenarios: scenario '%s' has an unknown model", sc->name);
        if (sc->compile != SIM_COMPILE_SEQUENTIAL && (sc->compile_factor < 1 || sc->compile_factor > 4096))
            return tc_seterr("--compile-factor: expected an integer in [1, 4096], got %d (scenario '%s')",
                             sc->compile_factor, sc->name);
        if (sc->weighted && s->input_weight == NULL)
            return tc_seterr("simulate: scenario '%s' is weighted, but the settings give no input weights", sc->name);
        for (int k = 0; k < i; k++)
            if (strcmp(s->scenarios[k].name, sc->name) == 0)
                return tc_seterr("--scenarios: '%s' is listed twice", sc->name);
    }
    return 0;
}

int sim_threads(int threads)
{
    long c;
    if (threads != 0)
        return threads;
    c = sysconf(_SC_NPROCESSORS_ONLN);
    return c > 0 ? (int)c : 1;
}
