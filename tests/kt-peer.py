"""kt-peer.py — Kernel Tuner 1.5's strategies, in simulation mode, on a cache written by `tunecost export
kerneltuner`, against tunecost's policies on the same data (tests/test-kerneltuner-peer.sh).

Each strategy runs RUNS times (seeds 0..RUNS-1, numpy's and Python's generators) with Kernel Tuner's 60 s time
limit. Its best-found curve is charged as Kernel Tuner charges it: every result adds its compile_time,
verification_time and benchmark_time (a revisit: 0, as Kernel Tuner's runner does), in the order the strategy
asked for them; the incumbent is the lowest `time` so far (the trace's true time) and its speedup is optimum / its
time (0 before any). The curve is read at the times of tunecost's curves.tsv (the same grid) and compared with the
tunecost policy of the same method: random search must agree within the two confidence intervals.

usage: python kt-peer.py CACHE CURVES.TSV RUNS OUT.TSV KT_STRATEGY=TC_POLICY...
Writes OUT.TSV (strategy, policy, time_s, kt_mean, kt_half, tc_mean, tc_lo, tc_hi) and prints a summary; exits 1
when random search disagrees."""
import csv
import json
import math
import random
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")
import kernel_tuner  # noqa: E402


def kt_curve(cache, d, strategy, seed, grid):
    keys, in_cache = d["tune_params_keys"], set(d["cache"])

    def restrict(p):  # the space is the cache's configurations (a sample of the product of tune_params)
        return ",".join(str(p[k]) for k in keys) in in_cache

    random.seed(seed)
    np.random.seed(seed)
    res, _ = kernel_tuner.tune_kernel(d["kernel_name"], "__global__ void k() {}", d["problem_size"], [],
                                      d["tune_params"], cache=cache, simulation_mode=True, restrictions=restrict,
                                      strategy=strategy, strategy_options={"time_limit": 60, "max_fevals": 10**9},
                                      quiet=True, verbose=False)
    opt = min(e["time"] for e in d["cache"].values() if "__error__" not in e)
    now, best, steps = 0.0, math.inf, []
    for r in res:
        now += (r.get("compile_time", 0) + r.get("verification_time", 0) + r.get("benchmark_time", 0)) * 1e-3
        if "__error__" not in r and isinstance(r.get("time"), (int, float)):
            best = min(best, r["time"])
        steps.append((now, opt / best if best < math.inf else 0.0))
    out, e = [], 0
    for t in grid:
        while e < len(steps) and steps[e][0] <= t:
            e += 1
        out.append(steps[e - 1][1] if e > 0 else 0.0)
    return out


def main():
    cache, curves_path, runs, out_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    pairs = [a.split("=") for a in sys.argv[5:]]
    d = json.load(open(cache))
    tc = {}
    for r in csv.DictReader((ln for ln in open(curves_path) if not ln.startswith("#")), delimiter="\t"):
        tc.setdefault(r["policy"], []).append(r)
    grid = [float(r["time_s"]) for r in next(iter(tc.values()))]
    bad = 0
    with open(out_path, "w") as fo:
        fo.write("strategy\tpolicy\ttime_s\tkt_mean\tkt_half\ttc_mean\ttc_lo\ttc_hi\n")
        for strategy, policy in pairs:
            ys = np.array([kt_curve(cache, d, strategy, s, grid) for s in range(runs)])
            m, half = ys.mean(0), 1.96 * ys.std(0, ddof=1) / math.sqrt(runs)
            rows = tc.get(policy)
            agree, n_cmp, worst = 0, 0, 0.0
            for g, t in enumerate(grid):
                tm, tl, th = (float(rows[g][k]) for k in ("speedup", "speedup_lo", "speedup_hi")) if rows else (
                    math.nan, math.nan, math.nan)
                fo.write(f"{strategy}\t{policy}\t{t:.6g}\t{m[g]:.6f}\t{half[g]:.6f}\t{tm:.6f}\t{tl:.6f}\t{th:.6f}\n")
                if rows and (m[g] > 0 or tm > 0):
                    n_cmp += 1
                    gap = abs(m[g] - tm)
                    worst = max(worst, gap)
                    agree += gap <= math.hypot(half[g], (th - tl) / 2) + 1e-12
            at = {x: int(np.searchsorted(grid, x)) for x in (2, 5, 10, 20, 40)}
            line = "  ".join(f"{x:g}s kt {m[min(i, len(grid) - 1)]:.3f}" +
                             (f" tc {float(rows[min(i, len(grid) - 1)]['speedup']):.3f}" if rows else "")
                             for x, i in at.items())
            frac = agree / n_cmp if n_cmp else math.nan
            print(f"{strategy:20s} vs {policy:10s} agree within CIs at {agree}/{n_cmp} times, largest gap "
                  f"{worst:.3f}: {line}")
            if strategy == "random_sample" and not (frac >= 0.9):
                bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
