/* test-trace-base.c — the base trace of the trace library's tests (test-trace-base.h). */
#include "test-trace-base.h"
#include "tc_err.h"

#include <check.h>
#include <math.h>
#include <string.h>

const char *const pnames[] = {"BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "NUM_STAGES", "NUM_WARPS"};
const char *const dnames[] = {"M", "N", "K"};
const int32_t base_params[3][6] = {{64, 64, 32, 8, 3, 4}, {128, 128, 64, 8, 4, 8}, {256, 128, 64, 4, 3, 8}};
const int64_t base_dims[2][3] = {{1024, 1024, 1024}, {4096, 256, 4096}};

struct trace_meta base_meta(void)
{
    struct trace_meta m = {
        .generator = "test-trace",
        .created_utc = "2026-11-22T10:00:00Z",
        .kernel = "gemm_f16_f32acc",
        .device_name = "NVIDIA H200",
        .device_cc = 90,
        .device_sms = 132,
        .device_l2_bytes = 62914560,
        .driver_version = 13000,
        .cuda_version = 13000,
        .timer = "cupti",
        .protocol = "triton",
        .warmup_ms = 25.0,
        .rep_ms = 100.0,
        .flush_bytes = 268435456,
        .compile_jobs = 16,
        .seed = 18446744073709551557ull, /* needs all 64 bits */
    };
    return m;
}

struct trace_config base_config(int c)
{
    struct trace_config cfg = {c == 2 ? TRACE_OUT_OF_RESOURCES : TRACE_OK, 100.0 + c, 2.5 + c, 96 + c, 32768 * (c + 1),
                               c * 8, c % 2, c == 1 ? NAN : 90.0 + c};
    return cfg;
}

struct trace_input base_input(int i)
{
    struct trace_input in = {2.0 * (double)base_dims[i][0] * (double)base_dims[i][1] * (double)base_dims[i][2],
                             i == 0 ? 0.0125 : NAN};
    return in;
}

uint64_t base_value(size_t r, size_t j)
{
    return 1000 + 10 * r + j;
}

struct trace_run base_run(int r)
{
    struct trace_run run = {r % 2, r % 3, r % 3 == 2 ? TRACE_OUT_OF_RESOURCES : TRACE_OK, 1, 2, 5, -1,
                            10.0 + r, 0.5 * r, 1.25, r % 2 ? 0.01 * r : NAN, 1e-7 * r, NAN, NAN};
    return run;
}

/* Create a trace with the base configs and inputs and the first n_runs base runs; returns it open. */
struct trace *write_base_open(const char *path, int n_runs)
{
    struct trace_meta m = base_meta();
    struct trace_config configs[3];
    struct trace_input inputs[2];
    uint64_t x[BASE_EXEC];
    for (int c = 0; c < 3; c++)
        configs[c] = base_config(c);
    for (int i = 0; i < 2; i++)
        inputs[i] = base_input(i);
    struct trace *t = trace_create(path, &m, pnames, 6, dnames, 3);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_msg(trace_write_configs(t, 3, &base_params[0][0], configs) == 0, "%s", tc_errmsg());
    ck_assert_msg(trace_write_inputs(t, 2, &base_dims[0][0], inputs) == 0, "%s", tc_errmsg());
    for (int r = 0; r < n_runs; r++) {
        struct trace_run run = base_run(r);
        for (size_t j = 0; j < BASE_EXEC; j++)
            x[j] = base_value((size_t)r, j);
        ck_assert_msg(trace_append_run(t, &run, x, BASE_EXEC) == 0, "%s", tc_errmsg());
    }
    return t;
}

void write_base(const char *path)
{
    struct trace *t = write_base_open(path, BASE_RUNS);
    ck_assert_msg(trace_set_compile_log(t, 2, "ptxas error: too much shared memory") == 0, "%s", tc_errmsg());
    double warm[3] = {210.5, 305.25, 280.0};
    ck_assert_msg(trace_write_compile_warmup(t, warm, 3) == 0, "%s", tc_errmsg());
    ck_assert_int_eq(trace_close(t), 0);
}

void check_base(const struct trace *t, size_t n_runs)
{
    const struct trace_meta *m = trace_get_meta(t);
    struct trace_meta e = base_meta();
    ck_assert_str_eq(m->generator, e.generator);
    ck_assert_str_eq(m->created_utc, e.created_utc);
    ck_assert_str_eq(m->kernel, e.kernel);
    ck_assert_str_eq(m->device_name, e.device_name);
    ck_assert_int_eq(m->device_cc, 90);
    ck_assert_int_eq(m->device_sms, 132);
    ck_assert_int_eq(m->device_l2_bytes, 62914560);
    ck_assert_int_eq(m->driver_version, 13000);
    ck_assert_int_eq(m->cuda_version, 13000);
    ck_assert_str_eq(m->timer, "cupti");
    ck_assert_str_eq(m->protocol, "triton");
    ck_assert_double_eq(m->warmup_ms, 25.0);
    ck_assert_double_eq(m->rep_ms, 100.0);
    ck_assert_int_eq(m->flush_bytes, 268435456);
    ck_assert_int_eq(m->compile_jobs, 16);
    ck_assert_uint_eq(m->seed, 18446744073709551557ull);

    ck_assert_int_eq(trace_n_params(t), 6);
    for (int p = 0; p < 6; p++)
        ck_assert_str_eq(trace_param_name(t, p), pnames[p]);
    ck_assert_ptr_null(trace_param_name(t, 6));
    ck_assert_int_eq(trace_n_configs(t), 3);
    for (int c = 0; c < 3; c++) {
        struct trace_config e_c = base_config(c);
        const struct trace_config *g = trace_config(t, c);
        ck_assert_mem_eq(trace_params(t, c), base_params[c], sizeof base_params[c]);
        ck_assert_int_eq(g->status, e_c.status);
        ck_assert_double_eq(g->compile_ms, e_c.compile_ms);
        ck_assert_double_eq(g->load_ms, e_c.load_ms);
        ck_assert_int_eq(g->registers, e_c.registers);
        ck_assert_int_eq(g->smem_bytes, e_c.smem_bytes);
        ck_assert_int_eq(g->spill_bytes, e_c.spill_bytes);
        ck_assert_int_eq(g->path, e_c.path); /* the optional member round-trips (1 = wgmma for odd c) */
        if (c == 1) /* the optional compile_isolated_ms round-trips, "not measured" (NaN) included */
            ck_assert(isnan(g->compile_isolated_ms) && isnan(trace_compile_isolated_ms(t, c)));
        else
            ck_assert_double_eq(trace_compile_isolated_ms(t, c), 90.0 + c);
    }
    ck_assert_ptr_null(trace_config(t, 3));
    ck_assert_int_eq(trace_n_dims(t), 3);
    for (int d = 0; d < 3; d++)
        ck_assert_str_eq(trace_dim_name(t, d), dnames[d]);
    ck_assert_int_eq(trace_n_inputs(t), 2);
    for (int i = 0; i < 2; i++) {
        ck_assert_mem_eq(trace_dims(t, i), base_dims[i], sizeof base_dims[i]);
        ck_assert_double_eq(trace_input(t, i)->flops, base_input(i).flops);
    }
    ck_assert_double_eq(trace_input(t, 0)->ref_ms, 0.0125);
    ck_assert(isnan(trace_input(t, 1)->ref_ms));
    ck_assert_int_eq(trace_find_input(t, base_dims[1]), 1);
    int64_t nodims[3] = {1, 2, 3};
    ck_assert_int_eq(trace_find_input(t, nodims), -1);

    ck_assert_uint_eq(trace_n_runs(t), n_runs);
    ck_assert_uint_eq(trace_n_exec(t), n_runs * BASE_EXEC);
    for (size_t r = 0; r < n_runs; r++) {
        struct trace_run e_r = base_run((int)r);
        const struct trace_run *g = trace_run(t, r);
        ck_assert_int_eq(g->input, e_r.input);
        ck_assert_int_eq(g->config, e_r.config);
        ck_assert_int_eq(g->status, e_r.status);
        ck_assert_int_eq(g->n_estimate, 1);
        ck_assert_int_eq(g->n_warmup, 2);
        ck_assert_int_eq(g->n_timed, 5);
        ck_assert_int_eq(g->exec_offset, (int64_t)(r * BASE_EXEC));
        ck_assert_double_eq(g->wall_ms, e_r.wall_ms);
        ck_assert_double_eq(g->flush_ms, e_r.flush_ms);
        ck_assert_double_eq(g->verify_ms, e_r.verify_ms);
        if (r % 2)
            ck_assert_double_eq(g->estimate_ms, e_r.estimate_ms);
        else
            ck_assert(isnan(g->estimate_ms));
        ck_assert_double_eq(g->rel_error, e_r.rel_error);
        for (size_t j = 0; j < BASE_EXEC; j++)
            ck_assert_uint_eq(trace_run_exec(t, r)[j], base_value(r, j));
        ck_assert_uint_eq(trace_run_timed(t, r)[0], base_value(r, 3));
        ck_assert_int_eq(trace_run_valid(t, r), e_r.status == TRACE_OK);
    }
    ck_assert_ptr_null(trace_run(t, n_runs));
    /* (input, config) -> the last run of that pair: run r is (r % 2, r % 3), so pairs repeat every 6 rows */
    for (int i = 0; i < 2; i++)
        for (int c = 0; c < 3; c++) {
            long last = -1;
            for (size_t r = 0; r < n_runs; r++)
                if ((int)(r % 2) == i && (int)(r % 3) == c)
                    last = (long)r;
            ck_assert_int_eq(trace_find_run(t, i, c), last);
        }
    if (n_runs == BASE_RUNS) {
        ck_assert_int_eq(trace_find_run(t, 1, 1), 19);
        ck_assert_int_eq(trace_find_run(t, 0, 0), 18);
    }
    ck_assert_int_eq(trace_find_run(t, 5, 0), -1);
}

