"""kt-distinct.py — how many distinct configurations Kernel Tuner 1.5's strategy evaluates per run, and the cost it
charges (compile + verification + benchmark time), on a Kernel Tuner cache restricted to its own configurations as
tests/kt-strategies.py runs it (seeds 0..RUNS-1, time_limit 60 s). docs/simulation.md quotes it beside tunecost's
`steps` (distinct configurations, all runs) for basinhopping and dual_annealing.

usage: python kt-distinct.py CACHE.json STRATEGY RUNS"""
import json
import random
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")
import kernel_tuner  # noqa: E402

cache, strategy, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(open(cache))
keys, in_cache = d["tune_params_keys"], set(d["cache"])


def restrict(p):  # a def, not a lambda: Kernel Tuner parses a lambda's source
    return ",".join(str(p[k]) for k in keys) in in_cache


for seed in range(runs):
    random.seed(seed)
    np.random.seed(seed)
    res, _ = kernel_tuner.tune_kernel(d["kernel_name"], "__global__ void k() {}", d["problem_size"], [],
                                      d["tune_params"], cache=cache, simulation_mode=True,
                                      restrictions=restrict,
                                      strategy=strategy, strategy_options={"time_limit": 60}, quiet=True)
    seen = {",".join(str(r[k]) for k in keys) for r in res}
    cost = sum(r.get("compile_time", 0) + r.get("verification_time", 0) + r.get("benchmark_time", 0) for r in res)
    print(f"seed {seed}: {len(res)} results, {len(seen)} distinct, {cost / 1e3:.1f} s charged")
