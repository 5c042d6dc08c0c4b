#!/usr/bin/python3
"""sim-crosscheck.py — recompute `tunecost simulate` results independently, from the trace file, with h5py/numpy.

When every run explores every valid configuration (N_CONFIG >= the valid count) and neither early stopping nor
pipelined compilation is on, a tuning run's time and winner do not depend on the draw order: each point is then a
deterministic function of the trace and of the drawn EXEC_TIME, which this script computes from docs/architecture.md's
model, in a different language and from a different reader, and compares with every row of points.tsv, for one
input and for all inputs, under the paper and per-exec overhead models and sequential and parallel compilation.
It checks the paper's model (--failed-cost none --compile-model paper --truth median: valid configurations only,
the ideal parallel model, ranked by the mean and scored by the median) and the default cost models with the ideal
parallel model (failed configurations drawn and charged their compile time, the median of the input's valid ones
where none is recorded, plus their run's wall_ms; sequential on isolated compile times where the trace has them;
ranked and scored by the mean). The list-scheduled parallel model depends on the draw order and is checked by
tests/test-sim.c instead, except with more workers than compiles (--compile-factor 64), where every compile starts
at 0 and the makespan is the slowest compile. The default model's two further charges are recomputed here too: the
compile-worker warm-up (the mean of /compile_warmup_ms, once per run: sequential's one worker, and the parallel
models' workers, which warm up together) and the parallel models' compile time at the k = min(F, N) compiles that
run together, linear in log2 k from the isolated time (k = 1) to compile_ms (k = the trace's compile_jobs; beyond
it compile_ms), compile_ms at every level for a configuration without an isolated time, and for one without any
compile time from the median of what sequential charges the valid ones to their median compile_ms. It also recomputes what `tunecost policies --policies exhaustive` charges under its defaults
(the same cost module: sequential compiles on isolated times, failed configurations compiled and charged their
run's wall_ms, warm-up and the executions the paper's rule takes for --rep-ms, each with its overhead) and checks
that a budget between two inputs' independent times stops exactly the inputs above it, under sequential and under
--compile parallel with 64 workers.

    sim-crosscheck.py TUNECOST TEST_SIM            two random traces (written by test-sim-trace --write-random-trace)
    sim-crosscheck.py TUNECOST TEST_SIM TRACE.h5   a given trace instead (all inputs and its first input)
Exit 0 when every row agrees, 1 otherwise, 77 (skipped) without h5py.
"""
import math
import os
import subprocess
import sys
import tempfile

try:
    import h5py
    import numpy as np
except ImportError:
    print("h5py/numpy not available: skipped")
    sys.exit(77)

FACTOR = 4
REL = 1e-9


def per_input_models(f):
    """For each input: (valid configurations as dicts with the per-EXEC_TIME model inputs, failed ones)."""
    runs = f["runs"][:]
    ex = f["exec_ns"][:]
    compile_ms = f["configs"]["compile_ms"]
    names = f["configs"].dtype.names
    iso_ms = f["configs"]["compile_isolated_ms"] if "compile_isolated_ms" in names else [math.nan] * len(compile_ms)
    last = {}
    for r, row in enumerate(runs):
        last[(int(row["input"]), int(row["config"]))] = r
    out = []
    for i in range(f["dims"].shape[0]):
        confs = []
        failed = []
        for c in range(f["configs"].shape[0]):
            r = last.get((i, c))
            fail = {"compile": float(compile_ms[c]), "iso": float(iso_ms[c]), "fail": 0.0}
            if r is None:
                failed.append(fail)
                continue
            row = runs[r]
            nu = int(row["n_estimate"]) + int(row["n_warmup"])
            n = int(row["n_timed"])
            allx = ex[int(row["exec_offset"]):int(row["exec_offset"]) + nu + n].astype(np.int64)
            if row["status"] != 0 or n <= 0 or (allx <= 0).any():
                wall = float(row["wall_ms"])
                fail["fail"] = wall if math.isfinite(wall) and wall > 0 else 0.0
                failed.append(fail)
                continue
            x = allx[nu:]
            ovh = float(row["wall_ms"]) - x.sum() / 1e6
            gaps = ovh - allx[:nu].sum() / 1e6
            confs.append({
                "warm": allx[:nu].sum() / 1e6 + nu * (gaps / (n + nu) if gaps > 0 else 0.0),
                "cum": np.cumsum(x),
                "ovh": max(ovh, 0.0),
                "gap": gaps / (n + nu) if gaps > 0 else 0.0,
                "n": n,
                "compile": float(compile_ms[c]),
                "iso": float(iso_ms[c]),
                "true": float(np.median(x)) / 1e6,
                "mean": int(x.sum()) / 1e6 / n,
            })
        out.append((confs, failed))
    return out


def median_finite(values):
    v = [x for x in values if math.isfinite(x)]
    return float(np.median(v)) if v else math.nan


def level_weight(k, jobs):
    """Where k compiles running together lie between the isolated (0) and the contended (1) level, linear in log2."""
    if jobs <= 1 or k >= jobs:
        return 1.0
    return 0.0 if k <= 1 else math.log2(k) / math.log2(jobs)


def par_at(compile_ms, iso_ms, w):
    """A configuration's compile at weight w: from its isolated to its contended time (contended when no isolated)."""
    if not math.isfinite(iso_ms):
        return compile_ms
    return iso_ms + (compile_ms - iso_ms) * w


def run_value_triton(confs, failed, flops, exec_ms, per_exec, env, factor=FACTOR):
    """(time_s sequential, time_s ideal, tflops, speedup, n_short, time_s parallel) of a run that draws every
    configuration, valid and failed, under the default models: failed ones cost compile + their run's wall_ms,
    sequential charges the isolated compile time where there is one, the parallel models the time at k = min(F, n)
    compiles running together, each model the warm-up once; the truth is the mean. The parallel time is exact only
    when factor >= n (every compile starts at 0)."""
    jobs, warm = env
    seq = lambda c: c["iso"] if math.isfinite(c["iso"]) else c["compile"]
    med_par = median_finite([c["compile"] for c in confs])
    med_seq = median_finite([seq(c) for c in confs])
    n = len(confs) + len(failed)
    w = level_weight(min(factor, n), jobs)
    slowest = 0.0
    bench = comp_seq = comp_par = 0.0
    best = None
    n_short = 0
    thr = exec_ms * 1000000
    for c in confs:
        cum = c["cum"]
        k = int(np.searchsorted(cum, thr, side="right"))
        j = len(cum) if k == len(cum) else k + 1
        n_short += k == len(cum)
        rep = cum[j - 1] / 1e6
        bench += rep + (max(c["ovh"] - c["gap"] * (c["n"] - j), 0.0) if per_exec else c["ovh"])
        comp_seq += seq(c)
        p = par_at(c["compile"], c["iso"], w)
        comp_par += p
        slowest = max(slowest, p)
        if best is None or rep / j < best[0]:
            best = (rep / j, c)
    for c in failed:
        bench += c["fail"]
        p = par_at(c["compile"], c["iso"], w) if math.isfinite(c["compile"]) else par_at(med_par, med_seq, w)
        comp_par += p
        slowest = max(slowest, p)
        comp_seq += c["iso"] if math.isfinite(c["iso"]) else c["compile"] if math.isfinite(c["compile"]) else med_seq
    opt = min(c["mean"] for c in confs)
    t = best[1]["mean"]
    return ((bench + comp_seq + warm) / 1e3, (bench + comp_par / (n / math.ceil(n / factor)) + warm) / 1e3,
            flops / t * 1e-9, opt / t, n_short, (bench + slowest + warm) / 1e3)


def run_value(confs, flops, exec_ms, per_exec, parallel):
    # the paper's model: valid configurations only, truth the median
    """(time_s, tflops, speedup, n_short) of a run that explores every configuration."""
    bench = 0.0
    comp = 0.0
    best = None
    n_short = 0
    thr = exec_ms * 1000000
    for c in confs:
        cum = c["cum"]
        k = int(np.searchsorted(cum, thr, side="right"))  # first index with cum > thr
        if k == len(cum):
            j = len(cum)
            n_short += 1
        else:
            j = k + 1
        rep = cum[j - 1] / 1e6
        ovh = max(c["ovh"] - c["gap"] * (c["n"] - j), 0.0) if per_exec else c["ovh"]
        bench += rep + ovh
        comp += c["compile"]
        est = rep / j
        if best is None or est < best[0]:
            best = (est, c)
    n = len(confs)
    if parallel:
        comp /= n / math.ceil(n / FACTOR)
    opt = min(c["true"] for c in confs)
    t = best[1]["true"]
    return (bench + comp) / 1e3, flops / t * 1e-9, opt / t, n_short


def read_points(path):
    rows = []
    header = None
    with open(path) as fp:
        for line in fp:
            if line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            if header is None:
                header = fields
            else:
                rows.append(dict(zip(header, fields)))
    return rows


def close(a, b):
    return abs(a - b) <= REL * (1 + abs(b))


def check_run(tunecost, trace, models, flops, dims, seed, model, mode, out, env, factor=FACTOR):
    """Runs simulate in one model and input mode and compares every row; returns (mismatches, rows). With
    factor >= every input's configurations, the default model's list-scheduled parallel scenarios too."""
    failures = checked = 0
    scen = ("baseline,parallel,per-exec,parallel+per-exec" if model == "paper"
            else "baseline,ideal,per-exec,ideal+per-exec" if factor == FACTOR
            else "ideal,parallel,parallel+per-exec")
    cmd = [tunecost, "simulate", "-q", "-s", "60", "-r", "3", "--n-config", "1000", "--exec-ms", "1:150",
           "--compile-factor", str(factor), "--seed", str(seed), "--scenarios", scen, "-o", out, trace]
    if model == "paper":
        cmd[-3:-3] = ["--failed-cost", "none", "--compile-model", "paper", "--truth", "median"]
    if mode == "0":
        cmd[2:2] = ["--input", "x".join(str(v) for v in dims[0])]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    inputs = [0] if mode == "0" else [i for i in range(len(models)) if models[i][0]]
    for row in read_points(os.path.join(out, "points.tsv")):
        sc = row["scenario"]
        e = int(row["exec_ms"])
        per_exec = "per-exec" in sc
        if model == "paper":
            vals = [run_value(models[i][0], float(flops[i]), e, per_exec, "parallel" in sc) for i in inputs]
            explored = [len(models[i][0]) for i in inputs]
        else:
            vals = []
            for i in inputs:
                v = run_value_triton(models[i][0], models[i][1], float(flops[i]), e, per_exec, env, factor)
                vals.append((v[1] if "ideal" in sc else v[5] if "parallel" in sc else v[0],) + v[2:5])
            explored = [len(models[i][0]) + len(models[i][1]) for i in inputs]
        want = [sum(v[k] for v in vals) / len(vals) for k in range(3)]
        want_short = sum(v[3] for v in vals) * 3
        got = [float(row["time_s"]), float(row["tflops"]), float(row["speedup"])]
        checked += 1
        # points.tsv prints %.9g: compare at that precision
        ok = all(abs(g - w) <= 1e-8 * (1 + abs(w)) for g, w in zip(got, want))
        ok = ok and int(row["short"]) == want_short and int(row["results"]) == 3 * len(inputs)
        # every run of an input is the same here, so the CI (stratified by input) has no width
        for col in ("time_s", "tflops", "speedup"):
            for end in ("_lo", "_hi"):
                ok = ok and abs(float(row[col + end]) - float(row[col])) <= 1e-8 * (1 + abs(float(row[col])))
        want_explored = sum(explored) / len(inputs)
        ok = ok and abs(float(row["explored"]) - want_explored) <= 1e-5 * want_explored
        if not ok:
            failures += 1
            if failures <= 10:
                print("MISMATCH seed %d %s input %s sample %s %s exec_ms %d: got %s short %s, expected %s short %d"
                      % (seed, model, mode, row["sample"], sc, e, got, row["short"], want, want_short))
    return failures, checked


def exhaustive_times(models, env, factor=None, rep_ms=100.0):
    """Per input with a valid configuration: the tuning time (s) of `tunecost policies --policies exhaustive` under
    its defaults (sequential compilation on isolated compile times where the trace has them, else compile_ms;
    failed configurations compiled and charged their run's wall_ms; a failed one without a compile time charged the
    median of what sequential charges the valid ones), each valid configuration charged its warm-up (the untimed
    executions, each with the per-execution gap) and the executions the paper's rule takes for rep_ms, each with
    the gap. Every configuration is visited once. The workers' warm-up is charged once. With factor (--compile
    parallel on that many workers, more than the configurations): the benchmarks plus the slowest compile at the
    k = min(factor, n) compiles running together."""
    jobs, warm = env
    out = []
    for confs, failed in models:
        if not confs:
            continue
        seq = [c["iso"] if math.isfinite(c["iso"]) else c["compile"] for c in confs]
        med_seq = median_finite(seq)
        med_par = median_finite([c["compile"] for c in confs])
        w = level_weight(min(factor or 1, len(confs) + len(failed)), jobs)
        t = slowest = 0.0
        for c, sc in zip(confs, seq):
            cum = c["cum"]
            j = int(np.searchsorted(cum, rep_ms * 1e6, side="right")) + 1  # first prefix above rep_ms
            j = min(j, c["n"])
            t += c["warm"] + cum[j - 1] / 1e6 + j * c["gap"]
            t += 0 if factor else sc
            slowest = max(slowest, par_at(c["compile"], c["iso"], w))
        for fl in failed:
            sc = fl["iso"] if math.isfinite(fl["iso"]) else fl["compile"] if math.isfinite(fl["compile"]) and \
                fl["compile"] > 0 else med_seq
            t += fl["fail"] + (0 if factor else sc)
            slowest = max(slowest, par_at(fl["compile"], fl["iso"], w) if math.isfinite(fl["compile"]) else
                          par_at(med_par, med_seq, w))
        out.append((t + warm + (slowest if factor else 0)) / 1e3)
    return out


def check_policies(tunecost, trace, models, tmp, env, factor=None):
    """`tunecost policies --policies exhaustive` charges what exhaustive_times says: with the budget between two
    inputs' independent times, exactly the inputs above it stop on the budget (scores.tsv budget_stops), and with
    the budget just above the largest none does, ending at speedup 1. Returns (mismatches, checks)."""
    times = sorted(exhaustive_times(models, env, factor))
    extra = ["--compile", "parallel", "--compile-factor", str(factor)] if factor else []
    bad = 0
    cuts = [(times[-1] * (1 + 1e-9), 0)]
    for k in range(len(times) - 1):
        if times[k + 1] > times[k] * (1 + 1e-6):
            cuts.append(((times[k] + times[k + 1]) / 2, len(times) - 1 - k))
    cuts.append((times[0] * (1 - 1e-6), len(times)))
    for budget, want in cuts:
        out = os.path.join(tmp, "pol-%g-%s" % (budget, factor))
        subprocess.run([tunecost, "policies", trace, "--policies", "exhaustive", "--budget-s", "%.17g" % budget,
                        "-r", "1", "--score", "area", "--no-figures", "-q", "-f", "-o", out] + extra, check=True)
        rows = read_points(os.path.join(out, "scores.tsv"))
        got = int(float(rows[0]["budget_stops"]))
        fin = float(rows[0]["final_speedup"])
        if got != want or (want == 0 and fin != 1.0):
            print("policies exhaustive %s, budget %.6f s: %d budget stops (expected %d), final speedup %r" %
                  (" ".join(extra) or "sequential", budget, got, want, fin))
            bad += 1
    return bad, len(cuts)


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__)
        return 2
    tunecost, test_sim = sys.argv[1], sys.argv[2]
    given = sys.argv[3] if len(sys.argv) == 4 else None
    failures = 0
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in ((1,) if given else (1, 3)):
            trace = given or os.path.join(tmp, "r%d.h5" % seed)
            if not given:
                subprocess.run([test_sim, "--write-random-trace", trace, str(seed)], check=True)
            with h5py.File(trace, "r") as f:
                models = per_input_models(f)
                flops = f["inputs"]["flops"]
                dims = f["dims"][:]
                jobs = int(f.attrs["compile_jobs"]) if "compile_jobs" in f.attrs else 0
                warm = float(np.mean(f["compile_warmup_ms"][:])) if "compile_warmup_ms" in f and \
                    f["compile_warmup_ms"].shape[0] > 0 else 0.0
            env = (jobs, warm)
            for factor in (None, 64):
                f1, c1 = check_policies(tunecost, trace, models, tmp, env, factor)
                failures += f1
                checked += c1
            for model, factor in (("paper", FACTOR), ("default", FACTOR), ("default", 64)):
                for mode in ("0", "all"):
                    out = os.path.join(tmp, "out-%d-%s-%s-%d" % (seed, model, mode, factor))
                    f1, c1 = check_run(tunecost, trace, models, flops, dims, seed, model, mode, out, env, factor)
                    failures += f1
                    checked += c1
    print("sim-crosscheck: %d rows checked, %d mismatches" % (checked, failures))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
