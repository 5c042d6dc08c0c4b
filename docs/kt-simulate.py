#!/usr/bin/env python3
"""kt-simulate.py CACHE.json [STRATEGY] — replay a cache written by `tunecost export kerneltuner` in Kernel Tuner's
simulation mode (Kernel Tuner 1.5; docs/import.md, "Exporting"), and print the best configuration found and how many
configurations the strategy visited.

The cache's tune_params list each parameter's values, so their product (the grid Kernel Tuner searches) is larger
than the set of configurations the trace measured; the restriction below limits the search to the cache's keys (a
configuration is in the space exactly when its key, Kernel Tuner's ",".join(str(value)), is in the cache), so no
strategy asks for a configuration the cache does not hold. tests/test-kerneltuner-peer.sh runs this file."""
import json
import sys
import warnings

import kernel_tuner


def main():
    path = sys.argv[1]
    strategy = sys.argv[2] if len(sys.argv) > 2 else "brute_force"
    d = json.load(open(path))
    keys, have = d["tune_params_keys"], set(d["cache"])

    def in_cache(p):  # the restriction: exactly the configurations the cache holds
        return ",".join(str(p[k]) for k in keys) in have

    warnings.simplefilter("ignore")
    res, _ = kernel_tuner.tune_kernel(d["kernel_name"], "__global__ void k() {}", d["problem_size"], [],
                                      d["tune_params"], cache=path, simulation_mode=True, restrictions=in_cache,
                                      strategy=strategy, quiet=True, verbose=False)
    valid = [r for r in res if "__error__" not in r]
    if d.get("objective", "time") != "time":  # a cache ranked by another metric (its direction is written too)
        obj = d["objective"]
        best = (max if d.get("objective_higher_is_better") else min)(valid, key=lambda r: r[obj])
    else:
        best = min(valid, key=lambda r: r["time"])
    print(",".join(str(best[k]) for k in keys), len(res))


if __name__ == "__main__":
    main()
