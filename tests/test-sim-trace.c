/* test-sim-trace.c — the simulator (simulate/sim.h) through a hand-built trace file written with the trace API,
 * and `tunecost simulate` / `tunecost frontier` end to end. The model itself on in-memory data: test-sim.c.
 *
 *   test-sim-trace            the data a trace gives the simulator (suite unit)
 *   test-sim-trace --cli EXE  end-to-end tests of `EXE simulate`, `EXE frontier` and of `EXE policies` without its
 *                             figure (suite integration)
 *   test-sim-trace --write-random-trace OUT.h5 SEED   the random trace of tests/sim-crosscheck.py */
#include "sim.h"
#include "tc_err.h"
#include "test-common.h"
#include "trace.h"

#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define MS 1000000ull /* ns per ms */

static const char *cli_exe; /* the tunecost binary, for the integration suite */

/* A hand-built trace (written with the trace API): 2 inputs, 3 configurations.
 *   configs: 0 ok compile 100 ms; 1 ok compile 200 ms; 2 out of resources (no compile time: NaN)
 *   input 0 (64x64x64, flops 1e9): config 0: estimate 2 ms | warm-up 2 ms | timed 2 2 2 2 2 2 ms, wall 20 ms
 *                                 config 1: timed 1 ms x 12, wall 16 ms
 *                                 config 2: status out of resources, no executions
 *   input 1 (128x128x128, flops 8e9): config 0 only: timed 4 ms x 5, wall 21 ms; config 1: launch error
 * EXEC_TIME 5, N_CONFIG 2 (capped per input):
 *   input 0: c0 j = 3 (6 > 5), rep 6, overhead 20 − 12 = 8, compile 100 -> 114; c1 j = 6, rep 6, overhead 4,
 *            compile 200 -> 210; total 324 ms; winner c1 (1 ms, optimal) -> 1 TFLOP/s, speedup 1
 *   input 1: c0 j = 2 (8 > 5), rep 8, overhead 1, compile 100 -> 109 ms; 8e9 / 4 ms = 2 TFLOP/s, speedup 1
 *   all inputs: mean time (324 + 109) / 2 ms over equal numbers of runs per input
 * --failed-cost triton, N_CONFIG 3 (every configuration, failed ones too): a failed configuration costs its compile
 * time, here none recorded, so the median of its input's valid ones, plus its failed launch's wall_ms:
 *   input 0: 114 + 210 + c2 (median(100, 200) = 150, its run's wall 0) = 474 ms; winner c1, speedup 1
 *   input 1: 109 + c1 (200 + its launch error's wall 3 = 203) + c2 (no run: median(100) + 0 = 100) = 412 ms */
static void write_trace_iso(const char *path, double iso0, double iso1)
{
    static const char *const pn[] = {"BLOCK_M"};
    static const char *const dn[] = {"M", "N", "K"};
    static const int32_t params[] = {16, 32, 64};
    struct trace_config cfg[3] = {{TRACE_OK, 100, 1, 0, 0, 0, 0, iso0}, {TRACE_OK, 200, 1, 0, 0, 0, 0, iso1},
                                  {TRACE_OUT_OF_RESOURCES, NAN, 0, 0, 0, 0, 0, NAN}};
    static const int64_t dims[] = {64, 64, 64, 128, 128, 128};
    struct trace_input ins[2] = {{1e9, NAN}, {8e9, NAN}};
    struct trace_meta meta;
    struct trace *t;
    uint64_t x0[8], x1[12], x2[5], bad[2] = {MS, MS};
    struct trace_run r;
    for (int i = 0; i < 8; i++)
        x0[i] = 2 * MS;
    for (int i = 0; i < 12; i++)
        x1[i] = MS;
    for (int i = 0; i < 5; i++)
        x2[i] = 4 * MS;
    memset(&meta, 0, sizeof meta);
    snprintf(meta.generator, sizeof meta.generator, "test-sim");
    snprintf(meta.kernel, sizeof meta.kernel, "gemm_f16_f32acc");
    snprintf(meta.device_name, sizeof meta.device_name, "hand-built");
    snprintf(meta.timer, sizeof meta.timer, "events");
    snprintf(meta.protocol, sizeof meta.protocol, "fixed-time");
    t = trace_create(path, &meta, pn, 1, dn, 3);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(trace_write_configs(t, 3, params, cfg), 0);
    ck_assert_int_eq(trace_write_inputs(t, 2, dims, ins), 0);
    memset(&r, 0, sizeof r);
    r.estimate_ms = NAN;
    r.input = 0, r.config = 0, r.status = TRACE_OK, r.n_estimate = 1, r.n_warmup = 1, r.n_timed = 6, r.wall_ms = 20;
    ck_assert_msg(trace_append_run(t, &r, x0, 8) == 0, "%s", tc_errmsg());
    r.input = 0, r.config = 1, r.n_estimate = 0, r.n_warmup = 0, r.n_timed = 12, r.wall_ms = 16;
    ck_assert_int_eq(trace_append_run(t, &r, x1, 12), 0);
    r.input = 0, r.config = 2, r.status = TRACE_OUT_OF_RESOURCES, r.n_timed = 0, r.wall_ms = 0;
    ck_assert_int_eq(trace_append_run(t, &r, NULL, 0), 0);
    r.input = 1, r.config = 0, r.status = TRACE_OK, r.n_timed = 5, r.wall_ms = 21;
    ck_assert_int_eq(trace_append_run(t, &r, x2, 5), 0);
    r.input = 1, r.config = 1, r.status = TRACE_LAUNCH_ERROR, r.n_timed = 2, r.wall_ms = 3;
    ck_assert_int_eq(trace_append_run(t, &r, bad, 2), 0);
    ck_assert_int_eq(trace_close(t), 0);
}

static void write_trace(const char *path)
{
    write_trace_iso(path, NAN, NAN);
}


/* The settings of one scenario, baseline, with N_CONFIG n_config and EXEC_TIME exec_ms. */
static void baseline_fixed(struct sim_settings *s, int n_config, int exec_ms)
{
    s->n_config_lo = s->n_config_hi = n_config;
    s->exec_ms_lo = s->exec_ms_hi = exec_ms;
    ck_assert_msg(sim_scenario_parse("baseline", SIM_COMPILE_SEQUENTIAL, 1, SIM_OVERHEAD_PAPER, &s->scenarios[0]) ==
                      0,
                  "%s", tc_errmsg());
    s->n_scenarios = 1;
}

#define ck_near(a, b) ck_assert_double_eq_tol((double)(a), (double)(b), 1e-9 * (1 + fabs((double)(b))))

START_TEST(test_sim_from_trace)
{
    const char *path = tt_path("trace.h5");
    struct trace *t;
    struct sim_settings s;
    struct sim_data *d;
    struct sim_result *r;
    int one = 1;
    write_trace(path);
    t = trace_open(path);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    sim_settings_default(&s);
    baseline_fixed(&s, 2, 5);
    s.samples = 3;
    s.runs = 4;
    s.failed_cost = SIM_FAILED_NONE; /* the hand values above draw valid configurations only */
    d = sim_data_from_trace(t, NULL, 0, &s);
    ck_assert_msg(d != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(sim_data_n_inputs(d), 2);
    ck_assert_int_eq(sim_data_n_valid(d, 0), 2);
    ck_assert_int_eq(sim_data_n_valid(d, 1), 1);
    ck_assert_str_eq(sim_data_input_name(d, 1), "128x128x128");
    ck_near(sim_data_optimal_ms(d, 0, SIM_ESTIMATOR_MEDIAN), 1.0);
    ck_near(sim_data_optimal_ms(d, 1, SIM_ESTIMATOR_MEDIAN), 4.0);
    trace_close(t); /* the data must not need it any more */
    s.input = 0;
    r = sim_run(d, &s, NULL, NULL);
    ck_assert_msg(r != NULL, "%s", tc_errmsg());
    ck_near(r->points[0].time_s, 0.324);
    ck_near(r->points[0].tflops, 1.0);
    s.input = 1;
    sim_result_free(r);
    r = sim_run(d, &s, NULL, NULL);
    ck_near(r->points[0].time_s, 0.109);
    ck_near(r->points[0].tflops, 2.0);
    s.input = -1;
    sim_result_free(r);
    r = sim_run(d, &s, NULL, NULL);
    ck_assert_int_eq(r->points[0].results, 8);
    ck_near(r->points[0].explored, 1.5); /* min(2, 2) and min(2, 1) */
    ck_near(r->points[0].time_s, (0.324 + 0.109) / 2);
    ck_near(r->points[0].speedup, 1.0);
    /* each input's runs are identical, so the stratified CI has no width, although the inputs differ */
    ck_near(r->points[0].time_s_lo, (0.324 + 0.109) / 2);
    ck_near(r->points[0].time_s_hi, (0.324 + 0.109) / 2);
    sim_result_free(r);
    sim_data_free(d);
    /* failed configurations drawn and charged (the default, --failed-cost triton) */
    t = trace_open(path);
    sim_settings_default(&s);
    baseline_fixed(&s, 3, 5);
    s.samples = 2;
    s.runs = 3;
    d = sim_data_from_trace(t, NULL, 0, &s);
    ck_assert_msg(d != NULL, "%s", tc_errmsg());
    ck_assert_int_eq(sim_data_n_failed(d, 0), 1);
    ck_assert_int_eq(sim_data_n_failed(d, 1), 2);
    for (int i = 0; i < 2; i++) {
        s.input = i;
        r = sim_run(d, &s, NULL, NULL);
        ck_assert_msg(r != NULL, "%s", tc_errmsg());
        ck_near(r->points[0].time_s, i == 0 ? 0.474 : 0.412);
        ck_near(r->points[0].speedup, 1.0);
        ck_near(r->points[0].explored, 3);
        ck_near(r->points[0].failed, i == 0 ? 1 : 2);
        sim_result_free(r);
    }
    sim_data_free(d);
    /* asking for input 1 alone works; an input index outside the trace is refused with its name */
    sim_settings_default(&s);
    baseline_fixed(&s, 2, 5);
    d = sim_data_from_trace(t, &one, 1, &s);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(sim_data_n_inputs(d), 1);
    sim_data_free(d);
    one = 5;
    ck_assert_ptr_null(sim_data_from_trace(t, &one, 1, &s));
    ck_assert_ptr_nonnull(strstr(tc_errmsg(), path));
    trace_close(t);
}
END_TEST

/* Isolated compile times in the trace: configs 0 and 1 compiled alone in 60 and 150 ms (100 and 200 under the
 * collector's workers). Input 0, N_CONFIG 2, EXEC_TIME 5, only valid configurations: sequential charges the
 * isolated times, 324 − 100 − 200 + 60 + 150 = 234 ms; under --compile-model paper compile_ms, 324 ms; the ideal
 * model on 2 workers compile_ms: 2 / ceil(2/2) = 2 -> 24 + 300/2 = 174 ms either way. */
START_TEST(test_sim_isolated_from_trace)
{
    const char *path = tt_path("iso.h5");
    static const int one[] = {0};
    struct trace *t;
    write_trace_iso(path, 60, 150);
    t = trace_open(path);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    for (int m = 0; m < 2; m++) {
        struct sim_settings s;
        struct sim_data *d;
        struct sim_result *r;
        sim_settings_default(&s);
        baseline_fixed(&s, 2, 5);
        ck_assert_int_eq(sim_scenario_parse("ideal", SIM_COMPILE_SEQUENTIAL, 2, SIM_OVERHEAD_PAPER, &s.scenarios[1]),
                         0);
        s.n_scenarios = 2;
        s.samples = 2;
        s.runs = 3;
        s.failed_cost = SIM_FAILED_NONE;
        s.compile_model = m == 0 ? SIM_CM_MEASURED : SIM_CM_PAPER;
        d = sim_data_from_trace(t, one, 1, &s);
        ck_assert_msg(d != NULL, "%s", tc_errmsg());
        s.input = 0;
        r = sim_run(d, &s, NULL, NULL);
        ck_assert_msg(r != NULL, "%s", tc_errmsg());
        ck_near(r->points[0].time_s, m == 0 ? 0.234 : 0.324);
        ck_near(r->points[1].time_s, 0.174);
        sim_result_free(r);
        sim_data_free(d);
    }
    trace_close(t);
}
END_TEST

/* ---- the command line (suite integration) ----------------------------------------------------------------- */

static int sh(const char *fmt, ...) TC_PRINTF(1, 2);
static int sh(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    int st;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(test_sim_cli)
{
    const char *dir = tt_tmpdir();
    char trace_file[600];
    snprintf(trace_file, sizeof trace_file, "%s", tt_path("t.h5"));
    write_trace(trace_file);
    /* help on stdout with exit 0; misuse exit 2 with usage on stderr; bad values name the option */
    ck_assert_int_eq(sh("'%s' simulate --help | grep -q 'Examples'", cli_exe), 0);
    ck_assert_int_eq(sh("'%s' simulate --bogus 2>/dev/null", cli_exe), 2);
    ck_assert_int_eq(sh("'%s' simulate --samples ten '%s' 2>&1 >/dev/null | grep -q -- '--samples'", cli_exe,
                        trace_file), 0);
    ck_assert_int_eq(sh("'%s' simulate --scenarios baseline,warp '%s' 2>/dev/null", cli_exe, trace_file), 2);
    ck_assert_int_eq(sh("'%s' simulate --input 1x2x3 '%s' 2>&1 >/dev/null | grep -q 'not among'", cli_exe,
                        trace_file), 0);
    ck_assert_int_eq(sh("'%s' simulate '%s/missing.h5' 2>/dev/null", cli_exe, dir), 2);
    {
        /* a trace without any valid run: exit 2 and say so, naming the file */
        static const char *const pn[] = {"BLOCK_M"};
        static const char *const dn[] = {"M", "N", "K"};
        static const int32_t params[] = {16};
        static const int64_t dims[] = {64, 64, 64};
        struct trace_config cfg = {TRACE_OK, 10, 1, 0, 0, 0, 0, NAN};
        struct trace_input in = {1e9, NAN};
        struct trace_meta meta;
        struct trace *t;
        char empty[600];
        snprintf(empty, sizeof empty, "%s/empty.h5", dir);
        memset(&meta, 0, sizeof meta);
        t = trace_create(empty, &meta, pn, 1, dn, 3);
        ck_assert_msg(t != NULL, "%s", tc_errmsg());
        ck_assert_int_eq(trace_write_configs(t, 1, params, &cfg), 0);
        ck_assert_int_eq(trace_write_inputs(t, 1, dims, &in), 0);
        ck_assert_int_eq(trace_close(t), 0);
        ck_assert_int_eq(sh("'%s' simulate -o '%s/e' '%s' 2>&1 >/dev/null | grep -q 'empty.h5: no input has a valid run'",
                            cli_exe, dir, empty), 0);
        ck_assert_int_eq(sh("'%s' simulate '%s' 2>/dev/null >/dev/null", cli_exe, empty), 2);
        ck_assert_int_eq(sh("test ! -e '%s/e/points.tsv'", dir), 0);
    }
    /* the same seed gives the same bytes with 1 and 2 threads */
    ck_assert_int_eq(sh("'%s' simulate -q -s 50 -r 5 --exec-ms 1:6 --seed 5 -j 1 -o '%s/a' '%s' >/dev/null",
                        cli_exe, dir, trace_file), 0);
    ck_assert_int_eq(sh("'%s' simulate -q -s 50 -r 5 --exec-ms 1:6 --seed 5 -j 2 -o '%s/b' '%s' >/dev/null",
                        cli_exe, dir, trace_file), 0);
    ck_assert_int_eq(sh("cmp -s '%s/a/points.tsv' '%s/b/points.tsv' && cmp -s '%s/a/frontier.tsv' "
                        "'%s/b/frontier.tsv'", dir, dir, dir, dir), 0);
    /* 150 rows (50 samples x 3 scenarios) under a header, settings echoed as comments */
    ck_assert_int_eq(sh("test $(grep -vc '^#' '%s/a/points.tsv') -eq 151", dir), 0);
    ck_assert_int_eq(sh("grep -q '^# seed: 5$' '%s/a/points.tsv'", dir), 0);
    /* a list of inputs: the mean over them, named in the input column; a duplicate is refused */
    ck_assert_int_eq(sh("'%s' simulate -q -s 4 -r 5 --exec-ms 5 --n-config 2 --failed-cost none "
                        "--input 128x128x128,64x64x64 -o '%s/l' '%s' >/dev/null", cli_exe, dir, trace_file), 0);
    ck_assert_int_eq(sh("grep -v '^#' '%s/l/points.tsv' | awk -F'\t' 'NR > 1 && ($3 != \"128x128x128,64x64x64\" "
                        "|| $8 != 10) { bad = 1 } NR > 1 && $2 == \"baseline\" && ($9 < 0.2164999 || $9 > 0.2165001) "
                        "{ bad = 1 } END { exit bad }'", dir), 0);
    ck_assert_int_eq(sh("'%s' simulate --input 64x64x64,64x64x64 '%s' 2>/dev/null >/dev/null", cli_exe, trace_file),
                     2);
    /* the default charges failed configurations; a failed one without a compile time is noted once on stderr;
     * input 64x64x64 with every configuration: 474 ms (test_sim_from_trace) */
    ck_assert_int_eq(sh("'%s' simulate -q -s 3 -r 2 --exec-ms 5 --n-config 3 --input 64x64x64 -o '%s/t' '%s' "
                        ">/dev/null 2>'%s/t.err'", cli_exe, dir, trace_file, dir), 0);
    ck_assert_int_eq(sh("test $(grep -c 'note: .* no compile time' '%s/t.err') -eq 1", dir), 0);
    ck_assert_int_eq(sh("grep -v '^#' '%s/t/points.tsv' | awk -F'\t' 'NR > 1 && $2 == \"baseline\" && "
                        "($9 < 0.4739999 || $9 > 0.4740001) { bad = 1 } END { exit bad }'", dir), 0);
    ck_assert_int_eq(sh("grep -q '^# failed-cost: triton' '%s/t/points.tsv' && grep -q '^# compile-model: measured' "
                        "'%s/t/points.tsv' && grep -q '^# truth: mean' '%s/t/points.tsv'", dir, dir, dir), 0);
    /* --paper sets every choice of the paper; an option given explicitly still applies, in any order */
    ck_assert_int_eq(sh("'%s' simulate -q -s 3 -r 2 --paper -o '%s/p' '%s' >/dev/null 2>&1", cli_exe, dir,
                        trace_file), 0);
    ck_assert_int_eq(sh("grep -q '^# failed-cost: none' '%s/p/points.tsv' && grep -q '^# compile-model: paper' "
                        "'%s/p/points.tsv' && grep -q '^# inputs per sample: one' '%s/p/points.tsv' && grep -q "
                        "'^# scenario parallel: compile parallel x16 (compile_ms / (N / ceil(N / 16)); ideal' "
                        "'%s/p/points.tsv'", dir, dir, dir, dir), 0);
    ck_assert_int_eq(sh("'%s' simulate -q -s 3 -r 2 --failed-cost triton --paper --exec-ms 0.05:100 --exec-dist log "
                        "-o '%s/p2' '%s' >/dev/null 2>&1", cli_exe, dir, trace_file), 0);
    ck_assert_int_eq(sh("grep -q '^# failed-cost: triton' '%s/p2/points.tsv' && grep -q '^# exec-ms: 0.05:100' "
                        "'%s/p2/points.tsv' && grep -q '^# exec-dist: log' '%s/p2/points.tsv'", dir, dir, dir), 0);
    /* one input per sample: each row names the input it drew */
    ck_assert_int_eq(sh("grep -v '^#' '%s/p/points.tsv' | awk -F'\t' 'NR > 1 && $3 != \"64x64x64\" && "
                        "$3 != \"128x128x128\" { bad = 1 } END { exit bad }'", dir), 0);
    ck_assert_int_eq(sh("'%s' simulate --inputs some '%s' 2>&1 >/dev/null | grep -q -- '--inputs'", cli_exe,
                        trace_file), 0);
    ck_assert_int_eq(sh("'%s' simulate --failed-cost maybe '%s' 2>/dev/null >/dev/null", cli_exe, trace_file), 2);
    /* `tunecost frontier` on points.tsv gives the rows of frontier.tsv */
    ck_assert_int_eq(sh("'%s' frontier '%s/a/points.tsv' | grep -v '^#' > '%s/f1' && grep -v '^#' "
                        "'%s/a/frontier.tsv' > '%s/f2' && cmp -s '%s/f1' '%s/f2'", cli_exe, dir, dir, dir, dir, dir,
                        dir), 0);
    ck_assert_int_eq(sh("'%s' frontier '%s/a/frontier.tsv' --by nosuch 2>&1 | grep -q nosuch", cli_exe, dir), 0);
}
END_TEST

/* `tunecost policies` when its figure cannot be drawn (a plots folder without policies.gp): a figure asked for and not
 * drawn is an error (exit 1) naming the script, and nothing is written; with --no-figures the TSV files alone. */
START_TEST(test_policies_figure_failure_named)
{
    const char *dir = tt_tmpdir();
    char trace_file[600];
    snprintf(trace_file, sizeof trace_file, "%s", tt_path("t.h5"));
    write_trace(trace_file);
    ck_assert_int_eq(sh("mkdir '%s/noplots' && TUNECOST_PLOTS_DIR='%s/noplots' '%s' policies --policies random "
                        "-r 2 -b 1 -o '%s/p' '%s' >/dev/null 2>'%s/err'; test $? = 1", dir, dir, cli_exe, dir,
                        trace_file, dir), 0);
    ck_assert_int_eq(sh("test ! -e '%s/p'", dir), 0);
    ck_assert_int_eq(sh("grep -q 'the figure was not drawn: .*noplots/policies.gp' '%s/err'", dir), 0);
    ck_assert_int_eq(sh("TUNECOST_PLOTS_DIR='%s/noplots' '%s' policies --policies random --no-figures -r 2 -b 1 "
                        "-o '%s/p' '%s' >/dev/null 2>'%s/err'", dir, cli_exe, dir, trace_file, dir), 0);
    ck_assert_int_eq(sh("test -s '%s/p/curves.tsv' && test -s '%s/p/scores.tsv' && test ! -e '%s/p/policies.png' && "
                        "test ! -e '%s/p/policies.svg'", dir, dir, dir, dir), 0);
}
END_TEST

/* A random trace for tests/sim-crosscheck.py, which recomputes the simulator's results independently (Python,
 * h5py) from the file: 3 inputs x 20 configurations; configurations 3 and 11 fail to compile (no runs), some runs
 * end in a launch error or a wrong result (with a zero duration), and valid runs have 0-3 estimate and 0-5 warm-up
 * executions and 40-800 timed ones of 0.05-1.5 ms with noise, so some are short of EXEC_TIME. The compile times
 * are contended ones of 32 workers (compile_jobs), and 4 workers' first-compile warm-ups are recorded (300-1000 ms)
 * for the warm-up charge. */
static int write_random_trace(const char *path, unsigned seed)
{
    static const char *const pn[] = {"BLOCK_M"};
    static const char *const dn[] = {"M", "N", "K"};
    static const int64_t dims[] = {64, 64, 64, 128, 64, 32, 256, 256, 256};
    int32_t params[20];
    struct trace_config cfg[20];
    struct trace_input ins[3];
    struct trace_meta meta;
    struct trace *t;
    static uint64_t x[1000];
    double warmup[4];
    srand(seed);
    memset(&meta, 0, sizeof meta);
    snprintf(meta.generator, sizeof meta.generator, "test-sim random");
    snprintf(meta.kernel, sizeof meta.kernel, "gemm_f16_f32acc");
    snprintf(meta.device_name, sizeof meta.device_name, "random");
    snprintf(meta.timer, sizeof meta.timer, "events");
    snprintf(meta.protocol, sizeof meta.protocol, "fixed-time");
    meta.compile_jobs = 32;
    for (int w = 0; w < 4; w++)
        warmup[w] = 300 + 200 * w + (rand() % 1000) / 10.0;
    for (int c = 0; c < 20; c++) {
        params[c] = 16 * (c + 1);
        memset(&cfg[c], 0, sizeof cfg[c]);
        cfg[c].status = c == 3 || c == 11 ? TRACE_COMPILE_ERROR : TRACE_OK;
        cfg[c].compile_ms = 50 + rand() % 450 + (rand() % 1000) / 1000.0;
        /* isolated times on two configurations in three; a compile error without a compile time (a trace
         * collected without --compile-invalid: charged the median of the valid ones) */
        cfg[c].compile_isolated_ms = c % 3 == 0 ? NAN : 0.6 * cfg[c].compile_ms;
        if (c == 11)
            cfg[c].compile_ms = NAN;
    }
    for (int i = 0; i < 3; i++)
        ins[i].flops = 2.0 * (double)dims[3 * i] * (double)dims[3 * i + 1] * (double)dims[3 * i + 2],
        ins[i].ref_ms = NAN;
    t = trace_create(path, &meta, pn, 1, dn, 3);
    if (t == NULL || trace_write_configs(t, 20, params, cfg) != 0 || trace_write_inputs(t, 3, dims, ins) != 0 ||
        trace_write_compile_warmup(t, warmup, 4) != 0)
        goto fail;
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 20; c++) {
            struct trace_run r;
            int n_all, kind = rand() % 20;
            double base = 0.05 + 1.45 * rand() / (double)RAND_MAX, sum = 0;
            if (cfg[c].status != TRACE_OK)
                continue;
            memset(&r, 0, sizeof r);
            r.input = i, r.config = c, r.estimate_ms = NAN;
            r.status = kind == 0 ? TRACE_LAUNCH_ERROR : TRACE_OK;
            r.n_estimate = rand() % 4, r.n_warmup = rand() % 6, r.n_timed = 40 + rand() % 761;
            n_all = r.n_estimate + r.n_warmup + r.n_timed;
            for (int k = 0; k < n_all; k++) {
                x[k] = (uint64_t)(base * (1 + 0.3 * rand() / (double)RAND_MAX) * 1e6) + 1;
                sum += (double)x[k] * 1e-6;
            }
            if (kind == 1) {
                x[n_all - 1] = 0; /* a zero duration: only in a failed run (the trace library refuses it in ok) */
                r.status = TRACE_WRONG_RESULT;
            }
            r.wall_ms = sum + 0.01 * n_all + (rand() % 50) * 0.1;
            if (kind == 2)
                r.wall_ms = sum * 0.5; /* wall below the kernels' sum: overhead clamps at 0 */
            if (trace_append_run(t, &r, x, (size_t)n_all) != 0)
                goto fail;
        }
    if (trace_close(t) != 0) {
        t = NULL;
        goto fail;
    }
    return 0;
fail:
    fprintf(stderr, "test-sim: %s\n", tc_errmsg());
    trace_close(t);
    return 1;
}

static void setup(void)
{
    tt_tmpdir_make("test-sim-trace");
}

int main(int argc, char **argv)
{
    Suite *su;
    TCase *tc;
    if (argc == 4 && strcmp(argv[1], "--write-random-trace") == 0)
        return write_random_trace(argv[2], (unsigned)strtoul(argv[3], NULL, 10));
    su = suite_create("sim-trace");
    tc = tcase_create("trace");
    tcase_add_checked_fixture(tc, setup, tt_tmpdir_remove);
    if (argc == 3 && strcmp(argv[1], "--cli") == 0) {
        cli_exe = argv[2];
        tcase_add_test(tc, test_sim_cli);
        tcase_add_test(tc, test_policies_figure_failure_named);
        tcase_set_timeout(tc, 120);
    } else {
        tcase_add_test(tc, test_sim_from_trace);
        tcase_add_test(tc, test_sim_isolated_from_trace);
        tcase_set_timeout(tc, 60);
    }
    suite_add_tcase(su, tc);
    return tt_run(su);
}
