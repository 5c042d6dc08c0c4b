#!/usr/bin/python3
"""make_quirks.py OUTDIR — write small Kernel Tuner caches and T4 files that reproduce what real published files
do (issue 22), without downloading any: several kernels and GPUs, and each file one or more of the quirks seen in
Kernel Tuner's own test caches and in public benchmark collections. The numbers are made up here (a fixed seed),
shaped like the real files; none is a measurement.

  vector_add_A4000.json   no problem_size, no objective: `time` is the mean of 7 `times` whose first is a slow
                          outlier in most entries, so the mean and the median rank configurations differently
  pnpoly_A100.json        `time` is not the mean of `times` at all (it is their minimum), a boolean parameter
  convolution_MI50.json   unversioned, problem_size a string expression, a string parameter, 1e20 and
                          "InvalidConfig" failures under `time`
  gemm_nodevice.json      device_name "", objective "GFLOP/s" with objective_higher_is_better true (the fastest
                          entry is not the best), a float parameter, "__error__" markers Kernel Tuner 1.4 writes and
                          one it does not know
  dupkeys_A100.json       an entry and a member written twice (Python's json, so Kernel Tuner, keeps the last)
  t4_convolution.json     T4 from Kernel Tuner's converter: "unit": "" and "timeunit": "miliseconds" on the time
                          measurement and in "metadata" (the runtimes' mean), a revisit, and a result whose median is the lowest but
                          whose mean is not

Each file's expected best configuration is not written here: tests/test-import.sh works it out from the file
with Python's json module and Kernel Tuner's rule (the valid entry with the best objective value)."""
import itertools
import json
import os
import random
import sys


def kt_header(device, kernel, keys, values, problem_size=None, objective=None, higher=None, version="1.0.0"):
    d = {}
    if version:
        d["schema_version"] = version
    d.update({"device_name": device, "kernel_name": kernel})
    if problem_size is not None:
        d["problem_size"] = problem_size
    d["tune_params_keys"] = keys
    d["tune_params"] = dict(zip(keys, values))
    if objective is not None:
        d["objective"] = objective
    if higher is not None:
        d["objective_higher_is_better"] = higher
    return d


def entry(keys, combo, time_ms, times, **extra):
    e = dict(zip(keys, combo))
    e["time"] = time_ms
    if times is not None:
        e["times"] = times
    bench = sum(times) + 0.5 if times else 0.0
    e.update({"compile_time": 400.0 + len(e), "verification_time": 0, "benchmark_time": bench, "strategy_time": 0,
              "framework_time": 1.0})
    e.update(extra)
    return e


def key_of(combo):
    return ",".join(str(v) for v in combo)


def write(path, d):
    with open(path, "w") as fp:
        json.dump(d, fp)


def vector_add(rng, out):
    keys, values = ["block_size_x"], [list(range(128, 1025, 64))]
    d = kt_header("NVIDIA RTX A4000", "vector_add", keys, values, version=None)
    cache = {}
    for (bx,) in itertools.product(*values):
        base = 0.024 + rng.random() * 0.002
        outlier = 0.13 if bx not in (448, 768) else 0.063  # two entries without the slow first launch
        times = [outlier] + [base * (1 + 0.3 * 0.5 ** k) for k in range(6)]
        cache[key_of((bx,))] = entry(keys, (bx,), sum(times) / len(times), times)
    d["cache"] = cache
    write(os.path.join(out, "vector_add_A4000.json"), d)


def pnpoly(rng, out):
    keys = ["block_size_x", "tile_size", "use_precomputed_slopes"]
    values = [[64, 128, 256], [1, 2, 4], [False, True]]
    d = kt_header("NVIDIA A100-PCIE-40GB", "cn_pnpoly", keys, values, problem_size=[20000000], objective="time",
                  higher=False)
    cache = {}
    for combo in itertools.product(*values):
        times = [round(1.5 + rng.random(), 4) for _ in range(5)]
        cache[key_of(combo)] = entry(keys, combo, min(times), times)  # `time` is not their mean
    d["cache"] = cache
    write(os.path.join(out, "pnpoly_A100.json"), d)


def convolution(rng, out):
    keys = ["block_size_x", "block_size_y", "filter"]
    values = [[16, 32, 64], [1, 2, 4], ["box", "gauss"]]
    d = kt_header("AMD Instinct MI50", "convolution_kernel", keys, values, problem_size="4096*4096", version=None)
    cache = {}
    for i, combo in enumerate(itertools.product(*values)):
        if i % 7 == 3:
            cache[key_of(combo)] = entry(keys, combo, 1e20, None)
        elif i % 7 == 5:
            cache[key_of(combo)] = entry(keys, combo, "InvalidConfig", None)
        else:
            times = [round(3 + rng.random(), 4) for _ in range(4)]
            cache[key_of(combo)] = entry(keys, combo, sum(times) / 4, times)
    d["cache"] = cache
    write(os.path.join(out, "convolution_MI50.json"), d)


def gemm(rng, out):
    keys = ["MWG", "NWG", "SA"]
    values = [[16, 32, 64], [16, 32, 64], [0.5, 1.0]]
    d = kt_header("", "Xgemm", keys, values, problem_size=[2048, 2048], objective="GFLOP/s", higher=True)
    cache = {}
    for i, combo in enumerate(itertools.product(*values)):
        k = key_of(combo)
        if i == 4:
            cache[k] = dict(zip(keys, combo), __error__="CompilationFailedConfig", compile_time=90.0)
        elif i == 6:
            cache[k] = dict(zip(keys, combo), __error__="OutOfMemoryError")  # not a marker Kernel Tuner 1.4 has
        else:
            times = [round(2 + rng.random(), 4) for _ in range(3)]
            t = sum(times) / 3
            # GFLOP/s computed from another, noisier clock: its order is not the times' order
            cache[k] = entry(keys, combo, t, times, **{"GFLOP/s": round(17179.869 / t * (0.8 + 0.4 * rng.random()), 3)})
    d["cache"] = cache
    write(os.path.join(out, "gemm_nodevice.json"), d)


def dupkeys(out):
    keys, values = ["bx"], [[32, 64, 128]]
    d = kt_header("NVIDIA A100-PCIE-40GB", "reduce", keys, values, problem_size=[1 << 20])
    e32 = json.dumps(entry(keys, (32,), 1.0, [1.0, 1.0]))
    e64_first = json.dumps(entry(keys, (64,), 0.5, [0.5, 0.5]))
    e64_last = json.dumps(entry(keys, (64,), 2.0, [2.0, 2.0]))
    # the member "time" twice in 128's entry: 0.4 first, then 1.5 (the one that counts)
    e128 = json.dumps(entry(keys, (128,), 0.4, [1.5, 1.5])).replace('"time": 0.4', '"time": 0.4, "time": 1.5')
    head = json.dumps(d)[:-1]
    text = head + ', "cache": {"32": %s, "64": %s, "128": %s, "64": %s}}' % (e32, e64_first, e128, e64_last)
    with open(os.path.join(out, "dupkeys_A100.json"), "w") as fp:
        fp.write(text)


def t4(rng, out):
    results = []
    combos = list(itertools.product([16, 32], [1, 2, 4]))
    for i, (bx, by) in enumerate(combos + [combos[2]]):  # the last one: a revisit of the third
        runtimes = [round(12 + rng.random(), 4) for _ in range(5)]
        if i == 0:  # the lowest median, but two slow runs make its mean (the time measurement) the highest
            runtimes = [11.9, 11.9, 11.9, 14.5, 14.5]
        inv = "compile" if i == 4 else "correct"
        r = {"timestamp": "2023-12-21 10:44:%02d.000000+00:00" % i,
             "configuration": {"block_size_x": bx, "block_size_y": by},
             "times": {"compilation": 0 if i == len(combos) else 600.0 + i, "benchmark": 0 if i == len(combos) else 70.0,
                       "framework": 5.0, "search_algorithm": 0, "validation": 0},
             "invalidity": inv, "correctness": 1 if inv == "correct" else 0,
             "measurements": [], "objectives": ["time"]}
        if inv == "correct":
            r["times"]["runtimes"] = runtimes
            # the converter's time measurement (the mean of the runtimes): unit "", "timeunit" misspelt
            r["measurements"] = [{"name": "time", "value": sum(runtimes) / len(runtimes), "unit": "",
                                  "timeunit": "miliseconds"},
                                 {"name": "GFLOP/s", "value": 600.0, "unit": ""}]
        results.append(r)
    write(os.path.join(out, "t4_convolution.json"),
          {"metadata": {"timeunit": "miliseconds", "device_name": "NVIDIA A100-PCIE-40GB"}, "results": results,
           "schema_version": "1.0.0"})


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(22)
    vector_add(rng, out)
    pnpoly(rng, out)
    convolution(rng, out)
    gemm(rng, out)
    dupkeys(out)
    t4(rng, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
