#!/usr/bin/env python3
"""helion-autotune.py — one Helion autotuning session for `tunecost record --helion` validation (docs/record.md,
"Helion"; record/helion-validate.sh runs it). Defines a kernel with Helion's public API (written for this
validation after Helion's documented examples: a tiled matmul, a row softmax, a row layer norm), autotunes it once
on CUDA with the search and effort Helion takes from its environment (HELION_AUTOTUNER, HELION_AUTOTUNE_EFFORT;
HELION_AUTOTUNE_LOG=BASE writes Helion's own CSV), checks the tuned kernel against torch and writes a JSON with the
best configuration, the autotuning wall time and the kernel's time (do_bench).

usage: helion-autotune.py --kernel matmul|softmax|layer_norm [--shape AxB[xC]] [--json OUT.json]
"""
import argparse
import json
import os
import sys
import time


# Helion rejects closures (helion.exc.ClosuresNotSupported): the kernels are module-level functions that
# name torch and hl as globals, so the imports are at module level too.
import torch  # noqa: E402
import helion  # noqa: E402
import helion.language as hl  # noqa: E402


@helion.kernel()
def matmul(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    m, k = x.size()
    _k, n = y.size()
    out = torch.empty([m, n], dtype=x.dtype, device=x.device)
    for tm, tn in hl.tile([m, n]):
        acc = hl.zeros([tm, tn], dtype=torch.float32)
        for tk in hl.tile(k):
            acc = torch.addmm(acc, x[tm, tk], y[tk, tn])
        out[tm, tn] = acc.to(x.dtype)
    return out

@helion.kernel()
def softmax(x: torch.Tensor) -> torch.Tensor:
    n, _m = x.size()
    out = torch.empty_like(x)
    for tn in hl.tile(n):
        out[tn, :] = torch.nn.functional.softmax(x[tn, :], dim=1)
    return out

@helion.kernel()
def layer_norm(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tm in hl.tile(m):
        row = x[tm, :].to(torch.float32)
        mean = torch.mean(row, dim=-1, keepdim=True)
        var = torch.mean((row - mean) * (row - mean), dim=-1, keepdim=True)
        y = (row - mean) * torch.rsqrt(var + 1e-5)
        out[tm, :] = (y * w[:].to(torch.float32) + b[:].to(torch.float32)).to(x.dtype)
    return out

KERNELS = {"matmul": matmul, "softmax": softmax, "layer_norm": layer_norm}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kernel", required=True, choices=["matmul", "softmax", "layer_norm"])
    ap.add_argument("--shape", default=None, help="matmul MxNxK (default 1024x1024x1024); others MxN (4096x2048)")
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    from triton.testing import do_bench

    torch.manual_seed(0)
    fn = KERNELS[a.kernel]
    dims = [int(v) for v in (a.shape or ("1024x1024x1024" if a.kernel == "matmul" else "4096x2048")).split("x")]
    dev, dt = "cuda", torch.float16
    if a.kernel == "matmul":
        m, n, k = dims
        args = (torch.randn(m, k, device=dev, dtype=dt), torch.randn(k, n, device=dev, dtype=dt))
        ref = lambda: args[0] @ args[1]  # noqa: E731
    elif a.kernel == "softmax":
        args = (torch.randn(dims[0], dims[1], device=dev, dtype=dt),)
        ref = lambda: torch.softmax(args[0].float(), dim=1).to(dt)  # noqa: E731
    else:
        x = torch.randn(dims[0], dims[1], device=dev, dtype=dt)
        args = (x, torch.randn(dims[1], device=dev, dtype=dt), torch.randn(dims[1], device=dev, dtype=dt))
        ref = lambda: torch.nn.functional.layer_norm(x.float(), (dims[1],), args[1].float(), args[2].float()).to(dt)  # noqa: E731
    t0 = time.perf_counter()
    out = fn(*args)  # the first call autotunes
    torch.cuda.synchronize()
    wall_s = time.perf_counter() - t0
    torch.testing.assert_close(out, ref(), atol=5e-2, rtol=5e-2)
    bound = fn.bind(args)
    best = getattr(bound, "_config", None) or getattr(bound, "config", None)
    res = {"kernel": a.kernel, "shape": dims, "autotune_wall_s": wall_s,
           "search": os.environ.get("HELION_AUTOTUNER", "LFBOTreeSearch"),
           "effort": os.environ.get("HELION_AUTOTUNE_EFFORT", "full"),
           "best_config": dict(getattr(best, "config", {}) or {}),
           "kernel_ms": do_bench(lambda: fn(*args), return_mode="median"),
           "helion": helion.__version__ if hasattr(helion, "__version__") else "unknown"}
    print(json.dumps(res))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
