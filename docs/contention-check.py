#!/usr/bin/python3
"""contention-check.py — how well linear-in-log2(k) interpolation between the isolated (k = 1) and the contended
(k = 16) compile times predicts the 4-worker times measured on the same configurations (docs/simulation.md,
"Contention: how many compiles run together"). Reads data/gemm-h200.h5 (isolated and 16-worker times) and
data/compile-scaling/configs-100-j4.tsv (4 workers), matched by parameters; prints the median ratios to isolated
(measured, log-linear, linear in k) and the per-configuration measured ÷ log-linear ratio (median, quartiles).

    docs/contention-check.py [SOURCE_ROOT]      (needs h5py and numpy)
"""
import csv
import math
import os
import sys

import h5py
import numpy as np

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
with h5py.File(os.path.join(root, "data", "gemm-h200.h5"), "r") as f:
    iso = f["configs"]["compile_isolated_ms"][:]
    cont = f["configs"]["compile_ms"][:]
    jobs = int(f.attrs["compile_jobs"])
    where = {tuple(int(v) for v in row): c for c, row in enumerate(f["params"][:])}
keys = ["BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "NUM_STAGES", "NUM_WARPS"]
with open(os.path.join(root, "data", "compile-scaling", "configs-100-j4.tsv")) as fp:
    rows = list(csv.DictReader((line for line in fp if not line.startswith("#")), delimiter="\t"))
k = 4
w_log = math.log2(k) / math.log2(jobs)
w_lin = (k - 1) / (jobs - 1)
meas, logp, linp = [], [], []
for r in rows:
    c = where.get(tuple(int(r[n]) for n in keys))
    t4 = float(r["compile_ms"])
    if c is None or not (math.isfinite(t4) and math.isfinite(iso[c]) and math.isfinite(cont[c])):
        continue
    meas.append(t4 / iso[c])
    logp.append(1 + w_log * (cont[c] / iso[c] - 1))
    linp.append(1 + w_lin * (cont[c] / iso[c] - 1))
meas, logp, linp = np.array(meas), np.array(logp), np.array(linp)
q = np.percentile(meas / logp, [25, 50, 75])
print("configurations %d, k = %d of %d workers" % (len(meas), k, jobs))
print("median x isolated: measured %.3f, contended %.3f, log-linear %.3f, linear in k %.3f"
      % (np.median(meas), np.median(1 + (logp - 1) / w_log), np.median(logp), np.median(linp)))
print("measured / log-linear per configuration: median %.3f, quartiles %.3f-%.3f" % (q[1], q[0], q[2]))
