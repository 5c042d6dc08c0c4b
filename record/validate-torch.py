#!/usr/bin/env python3
"""validate-torch.py — torch.compile(mode="max-autotune") of a model, written to be recorded (docs/record.md,
"torch.compile"): `tunecost record -o T.h5 --tsv T.tsv -- python3 record/validate-torch.py --model mlp --json J`.
It compiles the model (the first call: Dynamo, Inductor, autotuning, code generation), times the compiled and the
eager forward pass with CUDA events, and writes what Inductor itself reports, to compare with the recording:
every autotuning decision's choices and the time Inductor measured for each (AlgorithmSelectorCache.log_results,
wrapped; Inductor's own printout "AUTOTUNE ..." goes to stderr as usual), Inductor's counters (how many
benchmark_gpu calls it made) and Dynamo's compile-time table.

Models (fp16, inference under torch.no_grad()):
  mlp          two Linear(1024, 1024) layers with a ReLU between, batch 256 (the issue's small MLP)
  transformer  4 pre-norm transformer blocks, d_model 1024, 16 heads, FFN 4096 (GELU), batch 8 x 256 tokens:
               GEMMs of 2048 x 1024 x {3072, 1024, 4096} and 2048 x 4096 x 1024, attention by SDPA

usage: python3 record/validate-torch.py --model mlp|transformer --json OUT.json [--subproc] [--iters 100]
       --subproc: Inductor benchmarks the choices in a subprocess (torch._inductor.config.autotune_in_subproc)"""
import argparse
import json
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

DECISIONS = []   # what Inductor's log_results saw: one entry per autotuning decision


class Block(nn.Module):
    """A pre-norm transformer block: x + attn(ln1(x)), then x + ffn(ln2(x)); x is (B, T, D)."""

    def __init__(self, d=1024, heads=16, ffn=4096):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.out = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.up, self.down = nn.Linear(d, ffn), nn.Linear(ffn, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.out(a.transpose(1, 2).reshape(b, t, d))
        return x + self.down(F.gelu(self.up(self.ln2(x))))


def make(model):
    """The model and its input, fp16 on the GPU."""
    torch.manual_seed(0)
    if model == "mlp":
        m, x = nn.Sequential(nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 1024)), torch.randn(256, 1024)
    else:
        m, x = nn.Sequential(*[Block() for _ in range(4)]), torch.randn(8, 256, 1024)
    return m.cuda().half().eval(), x.cuda().half()


def wrap_log_results():
    """Keep every decision's timings as Inductor reports them (ms per choice; its benchmark_gpu returns the minimum
    over the event-timed calls). The signature differs between torch versions: the name is the first string, the
    timings the first dict keyed by choices; the floats passed (elapsed seconds) are kept as they come."""
    try:
        from torch._inductor.select_algorithm import AlgorithmSelectorCache
    except Exception as e:  # no Inductor: the recording still runs
        print("validate-torch: cannot wrap log_results: %r" % e, file=sys.stderr)
        return
    orig = AlgorithmSelectorCache.log_results

    def log_results(*a, **k):
        try:
            vals = list(a) + list(k.values())
            name = next((v for v in vals if isinstance(v, str)), "")
            timings = next((v for v in vals if isinstance(v, dict) and v and
                            all(hasattr(c, "name") for c in v)), {})
            DECISIONS.append({
                "name": name,
                "choices": [{"name": str(getattr(c, "name", c)), "description": str(getattr(c, "description", "")),
                             "ms": float(ms)} for c, ms in timings.items()],
                "floats": [v for v in a if isinstance(v, float)],
                "kwargs": {kk: vv for kk, vv in k.items() if isinstance(vv, (int, float, str))}})
        except Exception as e:
            DECISIONS.append({"error": repr(e)})
        return orig(*a, **k)

    AlgorithmSelectorCache.log_results = staticmethod(log_results)


def time_forward(fn, x, iters):
    """Milliseconds per forward pass: the mean over iters calls between two CUDA events, after 10 warm-up calls."""
    for _ in range(10):
        fn(x)
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(iters):
        fn(x)
    e.record()
    torch.cuda.synchronize()
    return s.elapsed_time(e) / iters


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", choices=["mlp", "transformer"], required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--subproc", action="store_true")
    ap.add_argument("--iters", type=int, default=100)
    a = ap.parse_args()
    import torch._inductor.config as ic
    from torch._dynamo.utils import counters
    if a.subproc:
        ic.autotune_in_subproc = True
    wrap_log_results()
    model, x = make(a.model)
    compiled = torch.compile(model, mode="max-autotune")
    out = {"model": a.model, "torch": torch.__version__, "device": torch.cuda.get_device_name(),
           "autotune_in_subproc": bool(ic.autotune_in_subproc), "pid": os.getpid()}
    with torch.no_grad():
        t = time.perf_counter()
        y = compiled(x)
        torch.cuda.synchronize()
        out["first_call_s"] = time.perf_counter() - t
        ref = model(x)
        out["max_abs_diff"] = (y.float() - ref.float()).abs().max().item()
        out["compiled_ms"] = time_forward(compiled, x, a.iters)
        out["eager_ms"] = time_forward(model, x, a.iters)
    out["decisions"] = DECISIONS
    out["counters"] = {k: dict(v) for k, v in counters.items() if k in ("inductor", "aot_autograd")}
    try:
        from torch._dynamo.utils import compile_times
        out["compile_times"] = compile_times(repr="str")
    except Exception as e:
        out["compile_times"] = repr(e)
    n_bench = sum(v for k, v in out["counters"].get("inductor", {}).items() if k.startswith("benchmarking.")
                  and k.endswith("benchmark_gpu"))
    print("%s: first call (compile + autotune) %.1f s; %d autotuning decisions, %d choices reported, %d "
          "benchmark_gpu calls; forward %.4f ms compiled, %.4f ms eager; max |compiled - eager| %.3g"
          % (a.model, out["first_call_s"], len(DECISIONS), sum(len(d.get("choices", [])) for d in DECISIONS),
             n_bench, out["compiled_ms"], out["eager_ms"], out["max_abs_diff"]), flush=True)
    with open(a.json + ".tmp", "w") as f:
        json.dump(out, f, indent=1)
    os.replace(a.json + ".tmp", a.json)


if __name__ == "__main__":
    sys.exit(main())
