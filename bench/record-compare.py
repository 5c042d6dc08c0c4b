#!/usr/bin/env python3
"""record-compare.py — a recorded Triton autotuning session (`tunecost record --triton --tsv T.tsv`) against what
Triton itself reported in the same run (bench/record-triton.py's JSON): per input, the best configuration (the
recording's: lowest median of the timed executions) against Triton's best_config; per configuration, the recorded
median against Triton's do_bench median (configs_timings); the recorded compile time (the gap before the
candidate's module load) against the seconds Triton's compile() took.

usage: python3 bench/record-compare.py T.tsv triton.json [--tol-pct 2] [--out compare.tsv]
exit 0 when every input's best configuration agrees, 1 otherwise (the timing agreement is reported, not judged)"""
import argparse
import csv
import json
import re
import statistics
import sys


def pairs(text):
    out = {}
    for part in text.split(","):
        if "=" in part:
            k, v = part.split("=", 1)
            out[k] = v
    return out


def canon(d):
    return tuple(sorted((k, str(v)) for k, v in d.items() if not k.endswith(".dtype")))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tsv")
    ap.add_argument("json")
    ap.add_argument("--tol-pct", type=float, default=2.0)
    ap.add_argument("--out")
    a = ap.parse_args()
    rows = list(csv.DictReader(open(a.tsv), delimiter="\t"))
    tri = json.load(open(a.json))
    rec = {}   # (M,N,K) -> {config canon -> row}
    for r in rows:
        key = pairs(r["input_label"].split(" ", 1)[1])
        shape = (int(key["M"]), int(key["N"]), int(key["K"]))
        rec.setdefault(shape, {})[canon(pairs(r["config_label"]))] = r
    ok_best, diffs, lines, n_within = True, [], [], 0
    print("input            configs  best(Triton) = best(recorded)   median |diff|%%  max |diff|%%  within %g%%"
          % a.tol_pct)
    for inp in tri["inputs"]:
        shape = (inp["M"], inp["N"], inp["K"])
        mine = rec.get(shape, {})
        valid = {c: float(r["median_ns"]) for c, r in mine.items() if r["status"] == "ok"}
        best_rec = min(valid, key=lambda c: (valid[c], c)) if valid else None
        best_tri = canon(inp["best_config"])
        same = best_rec == best_tri
        ok_best &= same
        d_in, within = [], 0
        for t in inp["timings"]:
            c = canon(t["config"])
            ms = t["ms"][0]
            if ms == float("inf") or c not in valid:
                lines.append((shape, c, ms, valid.get(c, float("nan")), float("nan")))
                continue
            d = (valid[c] * 1e-6 - ms) / ms * 100.0
            d_in.append(abs(d))
            within += abs(d) <= a.tol_pct
            lines.append((shape, c, ms, valid[c] * 1e-6, d))
        diffs += d_in
        n_within += within
        print("%-16s %7d  %-5s %-24s %14.2f %12.2f  %d/%d" % (
            "x".join(map(str, shape)), len(mine), "yes" if same else "NO",
            ",".join(v for _, v in best_tri), statistics.median(d_in) if d_in else float("nan"),
            max(d_in) if d_in else float("nan"), within, len(d_in)))
    if diffs:
        print("all inputs: %d of %d configuration timings within %g%%; median |diff| %.2f%%, max %.2f%%"
              % (n_within, len(diffs), a.tol_pct, statistics.median(diffs), max(diffs)))
    # compile: recorded (first input's run of each configuration) against Triton's compile()
    first = tri["inputs"][0]
    shape = (first["M"], first["N"], first["K"])
    cmp = []
    for c in tri.get("compile_s", []):
        r = rec.get(shape, {}).get(canon(c["config"]))
        if r is not None and r["compile_ms"] not in ("nan", ""):
            cmp.append((float(r["compile_ms"]), c["s"] * 1e3))
    if cmp:
        gap = [x - y for x, y in cmp]
        print("compile: %d configurations; recorded total %.1f s, Triton's compile() total %.1f s; recorded - "
              "Triton per configuration: median %.1f ms, min %.1f, max %.1f"
              % (len(cmp), sum(x for x, _ in cmp) / 1e3, sum(y for _, y in cmp) / 1e3, statistics.median(gap),
                 min(gap), max(gap)))
    if a.out:
        with open(a.out, "w") as f:
            f.write("input\tconfig\ttriton_ms\trecorded_ms\tdiff_pct\n")
            for shape, c, t, r, d in lines:
                f.write("%s\t%s\t%.6f\t%.6f\t%.3f\n" % ("x".join(map(str, shape)),
                                                         ",".join("%s=%s" % kv for kv in c), t, r, d))
    print("best configuration equal on every input: %s" % ("yes" if ok_best else "NO"))
    return 0 if ok_best else 1


if __name__ == "__main__":
    sys.exit(main())
