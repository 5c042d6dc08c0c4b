#!/usr/bin/env python3
"""record-triton.py — Triton's own autotuner (@triton.autotune, key M, N, K) over a GEMM search space on a few
inputs, written to be recorded: `tunecost record --triton -o T.h5 --tsv T.tsv -- python3 bench/record-triton.py ...`
(docs/record.md, "Validation"). It writes what Triton itself reports, to compare with the recording
(bench/record-compare.py): per input the best_config, every configuration's configs_timings (do_bench's median, 20th
and 80th percentile, ms) and bench_time, and per configuration the seconds Triton's compile() took in this process.
The kernel is bench/peer-triton.py's (fp16 in, fp32 accumulation, row-major).

usage: python3 bench/record-triton.py --configs FILE.tsv|tiny --shape MxNxK [--shape ...] --json OUT.json
       [--precompile N]   (compile every configuration first in N processes, filling Triton's cache, and exit)"""
import argparse
import importlib.util
import json
import os
import sys
import time

import torch
import triton
import triton.runtime.autotuner as autotuner

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("peer_triton", os.path.join(_here, "peer-triton.py"))
peer = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(peer)

# 3 small configurations and one that needs more shared memory than a block may have (Triton: OutOfResources)
TINY = [(32, 32, 32, 8, 3, 4), (64, 64, 32, 8, 3, 4), (128, 128, 64, 8, 3, 8), (256, 256, 128, 8, 5, 8)]

compile_s = {}   # configuration (as a sorted tuple of its all_kwargs) -> seconds in compile()
current = [None]


def cfg_key(config):
    return tuple(sorted((k, v) for k, v in config.all_kwargs().items() if v is not None))


def cfg_dict(config):
    return {k.upper() if k.startswith("num_") else k: v for k, v in config.all_kwargs().items() if v is not None}


def instrument(kernel):
    """Time Triton's compile() per configuration, as this process sees it: the JIT function's compile where it
    has one, else the compile() that triton.runtime.jit calls (the first call of a nest is timed)."""
    import triton.compiler
    import triton.runtime.jit as jit
    depth = [0]

    def wrap(inner):
        def timed_compile(*a, **k):
            t = time.perf_counter()
            depth[0] += 1
            try:
                return inner(*a, **k)
            finally:
                depth[0] -= 1
                if depth[0] == 0 and current[0] is not None:
                    compile_s[current[0]] = compile_s.get(current[0], 0.0) + time.perf_counter() - t
        return timed_compile

    if hasattr(kernel.fn, "compile"):
        kernel.fn.compile = wrap(kernel.fn.compile)
    else:
        for mod in (jit, triton.compiler, triton.compiler.compiler):
            if callable(getattr(mod, "compile", None)):
                setattr(mod, "compile", wrap(getattr(mod, "compile")))
    bench = autotuner.Autotuner._bench

    def _bench(self, *args, config, **meta):
        current[0] = cfg_key(config)
        try:
            return bench(self, *args, config=config, **meta)
        finally:
            current[0] = None

    autotuner.Autotuner._bench = _bench


def load_configs(spec):
    if spec == "tiny":
        return TINY
    rows = [l.split() for l in open(spec) if l.strip() and not l.startswith("#")]
    return [tuple(int(x) for x in r) for r in rows[1:]]


def precompile_one(args):
    configs, = args
    dev = torch.device("cuda")
    a = torch.empty(64, 64, device=dev, dtype=torch.float16)
    done, errors = 0, {}
    for c in configs:
        bm, bn, bk, g, s, w = c
        try:
            peer._matmul.warmup(a, a, a, 4096, 4096, 4096, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=g,
                                num_stages=s, num_warps=w, grid=(1,))
            done += 1
        except Exception as e:
            errors[type(e).__name__] = errors.get(type(e).__name__, 0) + 1
    return done, errors


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--configs", required=True)
    ap.add_argument("--shape", action="append", required=True)
    ap.add_argument("--json")
    ap.add_argument("--precompile", type=int, default=0)
    args = ap.parse_args()
    configs = load_configs(args.configs)
    if args.precompile:
        import multiprocessing as mp
        parts = [configs[i::args.precompile] for i in range(args.precompile)]
        with mp.get_context("spawn").Pool(args.precompile) as pool:
            res = pool.map(precompile_one, [(p,) for p in parts])
        errors = {}
        for _, e in res:
            for k, v in e.items():
                errors[k] = errors.get(k, 0) + v
        print("precompiled %d of %d configurations in %d processes; errors %s"
              % (sum(d for d, _ in res), len(configs), args.precompile, errors))
        return
    kernel = triton.autotune(configs=[peer.cfg(*c) for c in configs], key=["M", "N", "K"])(peer._matmul)
    instrument(kernel)
    out = {"triton": triton.__version__, "torch": torch.__version__, "device": torch.cuda.get_device_name(),
           "inputs": []}
    t_all = time.perf_counter()
    for s in args.shape:
        M, N, K = (int(x) for x in s.split("x"))
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(K, N, device="cuda", dtype=torch.float16)
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        t = time.perf_counter()
        peer.run_triton(kernel, a, b, c)
        torch.cuda.synchronize()
        wall = time.perf_counter() - t
        err = ((c.float() - (a.float() @ b.float())).norm() / (a.float() @ b.float()).norm()).item()
        out["inputs"].append({
            "M": M, "N": N, "K": K, "first_call_s": wall, "bench_time_s": kernel.bench_time, "rel_error": err,
            "best_config": cfg_dict(kernel.best_config),
            "timings": [{"config": cfg_dict(k), "ms": list(v) if isinstance(v, (list, tuple)) else [v]}
                        for k, v in kernel.configs_timings.items()]})
        print("%dx%dx%d: autotuned in %.1f s (bench_time %.1f s), best %s, rel error %.2g"
              % (M, N, K, wall, kernel.bench_time, cfg_dict(kernel.best_config), err), flush=True)
        out["compile_s"] = [{"config": dict((k.upper() if k.startswith("num_") else k, v) for k, v in key), "s": v}
                            for key, v in compile_s.items()]
        out["total_s"] = time.perf_counter() - t_all
        if args.json:  # after every input, so that a run cut short leaves what finished
            with open(args.json + ".tmp", "w") as f:
                json.dump(out, f)
            os.replace(args.json + ".tmp", args.json)


if __name__ == "__main__":
    sys.exit(main())
