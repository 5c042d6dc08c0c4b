#!/usr/bin/python3
"""gen-kt-cache.py — write a SYNTHETIC Kernel Tuner cache file (schema 1.0.0) of about SIZE_MB megabytes, to
measure `tunecost import`'s memory and speed on a large cache (docs/performance.md, "Import"). The times are
random numbers, not measurements; nothing here may be passed off as a tuning result.

usage: gen-kt-cache.py OUT.json SIZE_MB [TIMES_PER_ENTRY]"""
import itertools, json, random, sys

def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    out, size_mb = sys.argv[1], float(sys.argv[2])
    n_times = int(sys.argv[3]) if len(sys.argv) > 3 else 32
    rng = random.Random(1)
    names = ["block_size_x", "block_size_y", "tile_x", "tile_y", "unroll", "vector", "pad"]
    values = [[16, 32, 64, 128, 256, 512, 1024], [1, 2, 4, 8, 16, 32], [1, 2, 3, 4, 5, 6, 7, 8],
              [1, 2, 3, 4, 5, 6, 7, 8], [0, 1, 2, 4, 8], [1, 2, 4, 8], list(range(16))]
    target = size_mb * 1e6
    with open(out, "w") as fp:
        fp.write('{\n"schema_version": "1.0.0",\n"device_name": "Synthetic GPU",\n"kernel_name": "synthetic",\n'
                 '"problem_size": [4096, 4096],\n"tune_params_keys": %s,\n"tune_params": %s,\n"objective": "time",\n'
                 '"cache": {\n' % (json.dumps(names), json.dumps(dict(zip(names, values)))))
        written, first = 0, True
        for combo in itertools.product(*values):
            for _ in range(1):
                key = ",".join(str(v) for v in combo)
                base = rng.uniform(0.05, 5.0)
                times = [round(base * rng.uniform(0.97, 1.03), 6) for _ in range(n_times)]
                e = dict(zip(names, combo))
                e.update(time=sum(times) / n_times, times=times, compile_time=round(rng.uniform(200, 900), 3),
                         verification_time=0, benchmark_time=round(sum(times) * 1.1, 6), strategy_time=0.01,
                         framework_time=0.5, timestamp="2025-01-01 00:00:00.000000+00:00")
                line = ("" if first else ",\n") + json.dumps(key) + ": " + json.dumps(e)
                fp.write(line)
                written += len(line)
                first = False
            if written >= target:
                break
        fp.write("\n}\n}\n")
    return 0

if __name__ == "__main__":
    sys.exit(main())
