#!/usr/bin/env python3
"""record-compare.py — a recorded Triton autotuning session (`tunecost record --triton --tsv T.tsv`) against what
Triton itself reported in the same run (bench/record-triton.py's JSON): per input, the best configuration (the
recording's: lowest median of the timed executions in the view Triton ranks by, its CUDA events' interval where the
TSV has it, else the kernel's duration) against Triton's best_config (a tie: Triton's choice within --tie-pct of
the recording's best, reported as such); per configuration, the recorded
median against Triton's do_bench median (configs_timings), both the kernel's own duration (median_ns, what the trace
stores) and, where the TSV has it, the interval CUDA events would time (event_median_ns: from the end of the flush
before each timed call to the kernel's end, as do_bench's events around the launch see it); the recorded compile
time (the gap before the candidate's module load) against the seconds Triton's compile() took.

usage: python3 bench/record-compare.py T.tsv triton.json [--tol-pct 2] [--tie-pct 1] [--out compare.tsv]
exit 0 when every input's best configuration agrees (or ties), 1 otherwise (the timing agreement is reported, not judged)"""
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
    ap.add_argument("--tie-pct", type=float, default=1.0,
                    help="Triton's best within this %% of the recording's best (same view) counts as agreeing")
    ap.add_argument("--out")
    a = ap.parse_args()
    rows = list(csv.DictReader(open(a.tsv), delimiter="\t"))
    tri = json.load(open(a.json))
    rec = {}   # (M,N,K) -> {config canon -> row}
    for r in rows:
        key = pairs(r["input_label"].split(" ", 1)[1])
        shape = (int(key["M"]), int(key["N"]), int(key["K"]))
        rec.setdefault(shape, {})[canon(pairs(r["config_label"]))] = r
    has_event = bool(rows) and "event_median_ns" in rows[0]
    views = [("median_ns", "kernel")] + ([("event_median_ns", "event")] if has_event else [])
    ok_best, lines = True, []
    diffs = {v: [] for v, _ in views}
    n_within = {v: 0 for v, _ in views}
    print("input            configs  best(Triton) = best(recorded)   view    median |diff|%%  max |diff|%%  "
          "within %g%%" % a.tol_pct)
    for inp in tri["inputs"]:
        shape = (inp["M"], inp["N"], inp["K"])
        mine = rec.get(shape, {})
        ok_rows = {c: r for c, r in mine.items() if r["status"] == "ok"}
        # the recording's best in the view Triton ranks by (its CUDA events: the event view where the TSV has it)
        col_rank = "event_median_ns" if has_event else "median_ns"
        valid = {c: float(r[col_rank]) for c, r in ok_rows.items() if float(r[col_rank]) == float(r[col_rank])}
        best_rec = min(valid, key=lambda c: (valid[c], c)) if valid else None
        best_tri = canon(inp["best_config"])
        same = best_rec == best_tri
        # a tie: Triton's choice measures, in the recording, within --tie-pct of the recording's best
        tie = (not same and best_rec is not None and best_tri in valid
               and valid[best_tri] <= valid[best_rec] * (1 + a.tie_pct / 100.0))
        if tie:
            print("%s: Triton's best %s is %.2f%% above the recording's best %s (%s view): a tie within %g%%"
                  % ("x".join(map(str, shape)), ",".join(v for _, v in best_tri),
                     (valid[best_tri] / valid[best_rec] - 1) * 100, ",".join(v for _, v in best_rec),
                     "event" if has_event else "kernel", a.tie_pct))
        ok_best &= same or tie
        for vi, (col, label) in enumerate(views):
            d_in, within = [], 0
            for t in inp["timings"]:
                c = canon(t["config"])
                ms = t["ms"][0]
                r = ok_rows.get(c)
                rec_ms = float(r[col]) * 1e-6 if r is not None else float("nan")
                if ms == float("inf") or r is None or rec_ms != rec_ms:   # failed, missing, or NaN recorded
                    if vi == 0:
                        lines.append([shape, c, ms, float("nan"), float("nan")])
                    continue
                d = (rec_ms - ms) / ms * 100.0
                d_in.append(abs(d))
                within += abs(d) <= a.tol_pct
                if vi == 0:
                    lines.append([shape, c, ms, rec_ms, d])
                else:
                    for ln in lines:
                        if ln[0] == shape and ln[1] == c:
                            ln += [rec_ms, d]
            diffs[col] += d_in
            n_within[col] += within
            print("%-16s %7s  %-5s %-24s %-6s %14.2f %12.2f  %d/%d" % (
                "x".join(map(str, shape)) if vi == 0 else "", len(mine) if vi == 0 else "",
                ("yes" if same else "NO") if vi == 0 else "", ",".join(v for _, v in best_tri) if vi == 0 else "",
                label, statistics.median(d_in) if d_in else float("nan"),
                max(d_in) if d_in else float("nan"), within, len(d_in)))
    for col, label in views:
        if diffs[col]:
            print("all inputs (%s): %d of %d configuration timings within %g%%; median |diff| %.2f%%, max %.2f%%"
                  % (label, n_within[col], len(diffs[col]), a.tol_pct, statistics.median(diffs[col]),
                     max(diffs[col])))
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
            f.write("input\tconfig\ttriton_ms\trecorded_ms\tdiff_pct" +
                    ("\tevent_ms\tevent_diff_pct\n" if has_event else "\n"))
            for ln in lines:
                ln += [float("nan")] * (7 - len(ln)) if has_event else []
                f.write("%s\t%s\t" % ("x".join(map(str, ln[0])), ",".join("%s=%s" % kv for kv in ln[1])) +
                        "\t".join(f % v for f, v in zip(("%.6f", "%.6f", "%.3f", "%.6f", "%.3f"), ln[2:])) + "\n")
    print("best configuration equal on every input: %s" % ("yes" if ok_best else "NO"))
    return 0 if ok_best else 1


if __name__ == "__main__":
    sys.exit(main())
