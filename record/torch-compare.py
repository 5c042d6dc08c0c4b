#!/usr/bin/env python3
"""torch-compare.py — a recorded torch.compile(mode="max-autotune") session (`tunecost record --tsv T.tsv`, no
labels) against what Inductor reported in it (record/validate-torch.py's JSON): for each of Inductor's autotuning
decisions, each choice's time as Inductor measured it (its benchmark_gpu: the minimum over CUDA-event pairs) beside
the recorded candidate's kernel time (min_ns: the minimum over its flushed calls, as Inductor takes the minimum)
and its CUDA-event view (event_min_ns); which choice Inductor picked and which the recording finds fastest.

Matching without labels: Inductor benchmarks a decision's choices in its list's order, the extern ones (cuBLAS's
bias_addmm, addmm) first; the recorded candidates of one process are in launch order. A decision's triton_mm
choices are matched to the first run of recorded triton_mm candidates whose launch geometry follows theirs
(block = 32 x num_warps, and grid x BLOCK_M x BLOCK_N the same output size M x N for all of them), the extern
choices to the non-Triton candidates just before that run. Choices Inductor could not run (inf)
were never launched and are skipped.

usage: python3 record/torch-compare.py T.tsv INDUCTOR.json [--out compare.tsv]"""
import argparse
import csv
import json
import re
import statistics
import sys


def geometry(desc):
    """(block, BLOCK_M x BLOCK_N) of a triton_mm choice's description."""
    kv = dict(re.findall(r"(\w+)=([\w.']+)", desc))
    return 32 * int(kv["num_warps"]), int(kv["BLOCK_M"]) * int(kv["BLOCK_N"])


def label_fields(label):
    """(grid, block, kernel) of an unlabelled configuration's label."""
    f = dict(re.findall(r"(\w+)=(-?\d+)", label.split(" ", 1)[0]))
    return int(f.get("GRID_X", -1)), int(f.get("BLOCK_X", -1)), label.split(" ", 1)[1] if " " in label else ""


def follows(seq, sig):
    """Do the recorded runs seq have the triton_mm choices' geometry sig (same blocks, one output size)?"""
    if len(seq) != len(sig):
        return False
    fields = [label_fields(r["config_label"]) for r in seq]
    return all(k == "triton_mm" and b == g[0] for (_, b, k), g in zip(fields, sig)) and \
        len({grid * g[1] for (grid, _, _), g in zip(fields, sig)}) == 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tsv")
    ap.add_argument("json")
    ap.add_argument("--out")
    a = ap.parse_args()
    rows = [r for r in csv.DictReader(open(a.tsv), delimiter="\t") if r["status"] == "ok"]
    ind = json.load(open(a.json))
    used, out, n_matched, n_choices = set(), [], 0, 0
    print("decision  choices  matched  picked by Inductor (us: Inductor / kernel / event)   fastest recorded kernel "
          "(us: Inductor / kernel / event)")
    for di, d in enumerate(ind["decisions"]):
        chs = [c for c in d.get("choices", []) if c["ms"] != float("inf")]
        tri = [c for c in chs if c["name"].startswith("triton_mm")]
        ext = [c for c in chs if not c["name"].startswith("triton_")]
        n_choices += len(chs)
        sig = [geometry(c["description"]) for c in tri]
        match = {}
        for start in range(len(rows)):
            if start in used:
                continue
            if follows(rows[start:start + len(tri)], sig):
                match = {c["name"]: start + k for k, c in enumerate(tri)}
                prev = [i for i in range(start - len(ext), start) if i >= 0 and i not in used and
                        not label_fields(rows[i]["config_label"])[2].startswith("triton_")]
                if len(prev) == len(ext):
                    match.update({c["name"]: i for c, i in zip(ext, prev)})
                used.update(match.values())
                break
        n_matched += len(match)
        pick = min(chs, key=lambda c: c["ms"])
        got = [(c, rows[match[c["name"]]]) for c in chs if c["name"] in match]
        for c, r in got:
            out.append((di, c["name"], c["ms"] * 1e3, float(r["min_ns"]) * 1e-3, float(r["median_ns"]) * 1e-3,
                        float(r["event_min_ns"]) * 1e-3, r["config_label"]))
        if not got:
            print("%8d  %7d  %7d  no recorded candidates matched" % (di, len(chs), 0))
            continue
        fast_c, fast_r = min(got, key=lambda cr: float(cr[1]["min_ns"]))
        pr = rows[match[pick["name"]]] if pick["name"] in match else None
        fmt = lambda c, r: "%-13s %6.1f / %6.2f / %6.1f" % (c["name"], c["ms"] * 1e3, float(r["min_ns"]) * 1e-3,
                                                         float(r["event_min_ns"]) * 1e-3)
        print("%8d  %7d  %7d  %-50s  %s" % (di, len(chs), len(got), fmt(pick, pr) if pr else pick["name"] + " (?)",
                                            fmt(fast_c, fast_r)))
    print("%d of %d choices Inductor timed matched to recorded candidates" % (n_matched, n_choices))
    if out:
        ratio = [o[2] / o[3] for o in out if o[3] > 0]
        over = [o[2] - o[5] for o in out]
        print("Inductor's time / recorded kernel time: median %.2f (min %.2f, max %.2f); Inductor's time - "
              "event view: median %.1f us" % (statistics.median(ratio), min(ratio), max(ratio),
                                               statistics.median(over)))
    if a.out:
        with open(a.out, "w") as f:
            f.write("decision\tchoice\tinductor_us\tkernel_min_us\tkernel_median_us\tevent_min_us\tconfig_label\n")
            for o in out:
                f.write("%d\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%s\n" % o)
    return 0


if __name__ == "__main__":
    sys.exit(main())
