#!/usr/bin/env python3
"""peer-triton.py — tunecost's collected GEMM family against its peers, on one GPU in one process run:
cuBLAS (through torch.matmul), Triton's autotuner over the same sampled configurations that `tunecost collect`
measures, Triton's autotuner over a small set of strong matmul configurations in the style of Triton's matmul
tutorial (https://triton-lang.org/main/getting-started/tutorials/03-matrix-multiplication.html), and the best
configuration of a tunecost trace collected just before, on the same inputs.

fp16 A (M x K) x B (K x N) -> fp16 C, fp32 accumulation, row-major, as tunecost's kernels. All columns are timed by
one protocol, Triton's: cuBLAS and Triton with triton.testing.do_bench (median, warm-up 25 ms, repetitions 100 ms,
a 256 MB L2 flush before each repetition), tunecost's best by `collect --protocol triton --flush-bytes 256M`,
which repeats do_bench's steps (tunecost's column is the lowest median of its trace).

usage: python3 bench/peer-triton.py --tunecost build-dev/tunecost --out DIR [--shape MxNxK ...]
       (needs torch and triton 3.x with a GPU; writes DIR/peer.tsv and DIR/tunecost.h5)"""
import argparse
import os
import re
import subprocess
import sys
import time

import torch
import triton
import triton.language as tl

SMEM_LIMIT = 232448  # opt-in shared memory per block on the H100/H200


@triton.jit
def _matmul(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
            GROUP_M: tl.constexpr):
    # row-major A (M x K), B (K x N), C (M x N); the grouped ordering of the program ids (GROUP_M row blocks
    # walked together) is the one tunecost's kernels use.
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    in_group = GROUP_M * num_n
    first_m = (pid // in_group) * GROUP_M
    size_m = min(num_m - first_m, GROUP_M)
    pid_m = first_m + ((pid % in_group) % size_m)
    pid_n = (pid % in_group) // size_m
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a = a_ptr + rm[:, None] * K + rk[None, :]
    b = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        kk = k * BLOCK_K + rk
        x = tl.load(a, mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        y = tl.load(b, mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, y, acc)
        a += BLOCK_K
        b += BLOCK_K * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


def cfg(bm, bn, bk, g, s, w):
    return triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": g}, num_stages=s, num_warps=w)


# Strong fp16 matmul configurations for Hopper: the shapes Triton's matmul tutorial proposes for CUDA GPUs
# (BLOCK 128x256x64 with 3 stages and 8 warps, 64x256x32, 128x128x32, 128x64x32, 64x128x32, 128x32x32, 64x32x32
# with 4 stages / 4 warps, 32x64x32 with 5 stages / 2 warps) plus a few 64-wide K tiles with 4 or 8 warps.
RECOMMENDED = [
    (128, 256, 64, 8, 3, 8), (64, 256, 32, 8, 4, 4), (128, 128, 32, 8, 4, 4), (128, 64, 32, 8, 4, 4),
    (64, 128, 32, 8, 4, 4), (128, 32, 32, 8, 4, 4), (64, 32, 32, 8, 5, 2), (32, 64, 32, 8, 5, 2),
    (128, 256, 64, 8, 4, 8), (256, 128, 64, 8, 3, 8), (128, 128, 64, 8, 4, 4), (128, 128, 64, 8, 4, 8),
    (64, 128, 64, 8, 4, 4), (64, 64, 64, 8, 4, 4),
]


def smem(c):
    bm, bn, bk, _, s, _ = c
    return s * (bm + bn) * bk * 2


def make_tuned(configs):
    fits = [cfg(*c) for c in configs if smem(c) <= SMEM_LIMIT]
    return triton.autotune(configs=fits, key=["M", "N", "K"])(_matmul), len(fits)


def run_triton(kernel, a, b, c):
    M, K = a.shape
    N = b.shape[1]
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)
    kernel[grid](a, b, c, M, N, K)


def paper_configs(tunecost, out):
    """The configurations `tunecost collect` samples by default (seed 0), from its --configs-tsv."""
    tsv = os.path.join(out, "configs.tsv")
    subprocess.run([tunecost, "collect", "--compile-only", "--jobs", "16", "-q", "-o",
                    os.path.join(out, "compile.tsv"), "--configs-tsv", tsv], check=True)
    rows = [l.rstrip("\n").split("\t") for l in open(tsv)][1:]
    return [tuple(int(x) for x in r[1:7]) for r in rows]


def tunecost_best(tunecost, out, shapes):
    path = os.path.join(out, "tunecost.h5")
    with open(os.path.join(out, "shapes.txt"), "w") as f:
        f.write("\n".join("%dx%dx%d" % s for s in shapes) + "\n")
    subprocess.run([tunecost, "collect", "--shapes-file", os.path.join(out, "shapes.txt"), "--protocol", "triton",
                    "--flush-bytes", "256M", "--jobs", "16", "-q", "--force", "-o", path], check=True)
    info = subprocess.run([tunecost, "info", path], check=True, capture_output=True, text=True).stdout
    best = {}
    for line in info.splitlines():
        m = re.match(r"\s+(\d+)x(\d+)x(\d+)\s+\d+\s+(\S+)\s+\S+ \S+\s+([\d.]+)", line)
        if m:
            best[(int(m.group(1)), int(m.group(2)), int(m.group(3)))] = (m.group(4), float(m.group(5)))
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tunecost", required=True, help="the tunecost executable (built with the collector)")
    ap.add_argument("--out", required=True, help="folder for peer.tsv and the tunecost trace")
    ap.add_argument("--shape", action="append", default=[], help="MxNxK (repeatable; default: 6 inputs)")
    args = ap.parse_args()
    shapes = [tuple(int(x) for x in s.split("x")) for s in args.shape] or [
        (4096, 4096, 4096), (4096, 256, 4096), (4096, 4096, 256), (1024, 1024, 1024), (1024, 4096, 1024),
        (512, 512, 512)]
    os.makedirs(args.out, exist_ok=True)
    t0 = time.time()
    best_tc = tunecost_best(args.tunecost, args.out, shapes)
    print("tunecost collect done in %.0f s" % (time.time() - t0), flush=True)
    sampled, n_s = make_tuned(paper_configs(args.tunecost, args.out))
    recommended, n_r = make_tuned(RECOMMENDED)
    print("triton %s, torch %s, %s; %d sampled and %d recommended configurations fit in shared memory"
          % (triton.__version__, torch.__version__, torch.cuda.get_device_name(), n_s, n_r), flush=True)
    rows = []
    for (M, N, K) in shapes:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(K, N, device="cuda", dtype=torch.float16)
        ref = torch.matmul(a, b)
        tflops = lambda ms: 2.0 * M * N * K / ms / 1e9
        res = {"cublas": tflops(triton.testing.do_bench(lambda: torch.matmul(a, b), return_mode="median"))}
        for name, kern in (("triton_sampled", sampled), ("triton_recommended", recommended)):
            c = torch.empty(M, N, device="cuda", dtype=torch.float16)
            t = time.time()
            run_triton(kern, a, b, c)  # autotunes on the first call for this key
            err = ((c.float() - ref.float()).norm() / ref.float().norm()).item()
            if not err < 1e-2:
                print("%s wrong at %dx%dx%d: rel %.3g" % (name, M, N, K, err), file=sys.stderr)
            ms = triton.testing.do_bench(lambda: run_triton(kern, a, b, c), return_mode="median")
            res[name] = tflops(ms)
            res[name + "_cfg"] = str(kern.best_config).replace(" ", "")
            print("  %dx%dx%d %s: %.1f TFLOP/s (tuning %.0f s) %s" % (M, N, K, name, res[name], time.time() - t,
                                                                     res[name + "_cfg"]), flush=True)
        tc = best_tc.get((M, N, K), ("-", float("nan")))
        rows.append((M, N, K, res["cublas"], res["triton_sampled"], res["triton_recommended"], tc[1], tc[0],
                     res["triton_sampled_cfg"], res["triton_recommended_cfg"]))
    with open(os.path.join(args.out, "peer.tsv"), "w") as f:
        f.write("M\tN\tK\tcublas_tflops\ttriton_sampled_tflops\ttriton_recommended_tflops\ttunecost_tflops\t"
                "tunecost_config\ttriton_sampled_config\ttriton_recommended_config\n")
        for r in rows:
            f.write("%d\t%d\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%s\t%s\t%s\n" % r)
    print("\ninput            cuBLAS  Triton(sampled)  Triton(recommended)  tunecost  tc/cuBLAS  tc/Triton-best")
    for r in rows:
        tri = max(r[4], r[5])
        print("%-15s %7.1f %16.1f %20.1f %9.1f %10.2f %15.2f" % ("%dx%dx%d" % r[:3], r[3], r[4], r[5], r[6],
                                                               r[6] / r[3], r[6] / tri))


if __name__ == "__main__":
    main()
