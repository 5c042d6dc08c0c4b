#!/usr/bin/python3
"""compare-filters.py — how the standard HDF5 filters compress realistic /exec_ns data (why trace/ uses byte
shuffle + deflate 4 in chunks of 32768). Same synthetic model as bench-trace.c: per run, duration d log-uniform
in [3, 300] us, 125 ms / d executions, Gaussian noise sd d * U(0.2%, 2%), 1% outliers d * U(1, 1.5).
usage: /usr/bin/python3 bench/compare-filters.py [N_EXEC]   (needs h5py; writes ./compare-filters.h5, removed)"""
import os
import sys
import time

import h5py
import numpy as np

n_target = int(sys.argv[1]) if len(sys.argv) > 1 else 4_000_000
rng = np.random.default_rng(1)
runs, total = [], 0
while total < n_target:
    d = np.exp(rng.uniform(np.log(3000), np.log(300000)))
    n = int(125e6 / d) + 5
    x = d + rng.normal(0, d * rng.uniform(0.002, 0.02), n)
    out = rng.random(n) < 0.01
    x[out] *= rng.uniform(1, 1.5, out.sum())
    runs.append(np.maximum(np.rint(x), 1).astype(np.uint64))
    total += n
v = np.concatenate(runs)
print(f"{len(v)} executions in {len(runs)} runs")
variants = [
    ("shuffle+deflate1", dict(shuffle=True, compression="gzip", compression_opts=1)),
    ("shuffle+deflate4", dict(shuffle=True, compression="gzip", compression_opts=4)),
    ("shuffle+deflate9", dict(shuffle=True, compression="gzip", compression_opts=9)),
    ("deflate4", dict(compression="gzip", compression_opts=4)),
    ("scaleoffset", dict(scaleoffset=0)),
    ("scaleoffset+deflate4", dict(scaleoffset=0, compression="gzip", compression_opts=4)),
]
path = "compare-filters.h5"
for chunk in (16384, 32768, 65536):
    for name, kw in variants:
        with h5py.File(path, "w") as f:
            t = time.perf_counter()
            f.create_dataset("exec_ns", data=v, chunks=(chunk,), **kw)
        tw = time.perf_counter() - t
        t = time.perf_counter()
        with h5py.File(path, "r") as f:
            y = f["exec_ns"][:]
        tr = time.perf_counter() - t
        assert (y == v).all()
        print(f"chunk {chunk:6d} {name:22s} {os.path.getsize(path) / len(v):6.3f} bytes/exec  "
              f"write {tw:5.2f} s  read {tr:5.2f} s")
os.remove(path)
