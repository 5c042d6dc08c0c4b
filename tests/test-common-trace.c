/* test-common-trace.c — tiny hand-built traces for the check-based tests (test-common.h); apart from
 * test-common.c so that tests without the trace library can link the rest. */
#include "test-common.h"
#include "tc_err.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const tt_param_names[6] = {"BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "NUM_STAGES", "NUM_WARPS"};
const char *const tt_dim_names[3] = {"M", "N", "K"};

struct trace_meta tt_meta(const char *generator, double rep_ms)
{
    struct trace_meta m;
    memset(&m, 0, sizeof m);
    snprintf(m.generator, sizeof m.generator, "%s", generator);
    snprintf(m.created_utc, sizeof m.created_utc, "2026-11-22T00:00:00Z");
    snprintf(m.kernel, sizeof m.kernel, "gemm_f16_f32acc");
    snprintf(m.device_name, sizeof m.device_name, "NVIDIA H200");
    m.device_cc = 90;
    m.device_sms = 132;
    m.device_l2_bytes = 62914560;
    m.driver_version = 13000;
    m.cuda_version = 13000;
    snprintf(m.timer, sizeof m.timer, "cupti");
    snprintf(m.protocol, sizeof m.protocol, "fixed-time");
    m.warmup_ms = 25;
    m.rep_ms = rep_ms;
    m.compile_jobs = 16;
    m.seed = 5;
    return m;
}

struct trace *tt_trace_create(const char *path, const struct trace_meta *m, int n_configs, const int32_t *params,
                              int n_inputs, const int64_t *dims)
{
    struct trace_config *cfg = calloc((size_t)n_configs, sizeof *cfg);
    struct trace_input *in = calloc((size_t)(n_inputs > 0 ? n_inputs : 1), sizeof *in);
    struct trace *t = trace_create(path, m, tt_param_names, 6, tt_dim_names, 3);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_ptr_nonnull(cfg);
    ck_assert_ptr_nonnull(in);
    for (int k = 0; k < n_configs; k++) {
        cfg[k].compile_ms = 100.0 + k;
        cfg[k].compile_isolated_ms = NAN;
        cfg[k].load_ms = 0.1;
        cfg[k].registers = 128;
        cfg[k].smem_bytes = 1000;
    }
    for (int i = 0; i < n_inputs; i++) {
        in[i].flops = 2.0 * (double)dims[i * 3] * (double)dims[i * 3 + 1] * (double)dims[i * 3 + 2];
        in[i].ref_ms = 0.5;
    }
    ck_assert_msg(trace_write_configs(t, n_configs, params, cfg) == 0, "%s", tc_errmsg());
    ck_assert_msg(trace_write_inputs(t, n_inputs, dims, in) == 0, "%s", tc_errmsg());
    free(cfg);
    free(in);
    return t;
}

void tt_trace_run(struct trace *t, int input, int config, int n_warmup, int n_timed, const uint64_t *exec_ns)
{
    struct trace_run r;
    memset(&r, 0, sizeof r);
    r.input = input;
    r.config = config;
    r.status = TRACE_OK;
    r.n_warmup = n_warmup;
    r.n_timed = n_timed;
    r.wall_ms = 1.0;
    for (int j = 0; j < n_warmup + n_timed; j++)
        r.wall_ms += (double)exec_ns[j] * 1e-6;
    r.estimate_ms = NAN;
    r.verify_ms = NAN;
    r.rel_error = NAN;
    ck_assert_msg(trace_append_run(t, &r, exec_ns, (size_t)(n_warmup + n_timed)) == 0, "%s", tc_errmsg());
}
