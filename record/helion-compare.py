#!/usr/bin/env python3
"""helion-compare.py — a `tunecost record --helion` recording against Helion's own telemetry of the same session
(docs/record.md, "Helion"): the configurations benchmarked (the recording's runs against the CSV's result rows),
each configuration's time (the recording's event-interval median, the view Helion's do_bench measures, against
perf_ms: within --tol, 2%), and the best configuration (a tie within --tie-pct, 1%, agrees). Configurations are
matched by their named parameters, flattened as the hook labels them (record/python/_tc_helion.py config_text).

usage: helion-compare.py RECORDED.tsv HELION.csv [--tol 0.02] [--tie-pct 1]
exit: 0 the configurations and the best agree and every time is within the tolerance; 1 otherwise; 2 bad input.
"""
import argparse
import csv
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))
from _tc_helion import config_text  # noqa: E402


def parse_config(text):
    """helion.Config's str ("Config(block_sizes=[64, 32], ...)") or its JSON, as a dict."""
    text = text.strip()
    if text.startswith("{"):
        import json
        return json.loads(text)
    body = text[text.index("("):]
    return eval("dict" + body, {"__builtins__": {}}, {"dict": dict, "None": None, "True": True, "False": False})


def read_csv(path):
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] == "started":
                continue
            label = config_text(parse_config(r["config"]))
            rows[label] = (r["status"], float(r["perf_ms"]) if r["perf_ms"] else math.inf,
                           float(r["compile_time_s"]) if r["compile_time_s"] else math.nan)
    return rows


def read_tsv(path):
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            ev = float(r["event_median_ns"]) * 1e-6 if r["event_median_ns"] not in ("nan", "") else math.nan
            rows[r["config_label"]] = (r["status"], ev, float(r["median_ns"]) * 1e-6)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tsv")
    ap.add_argument("csv")
    ap.add_argument("--tol", type=float, default=0.02)
    ap.add_argument("--tie-pct", type=float, default=1.0)
    a = ap.parse_args()
    try:
        rec, hel = read_tsv(a.tsv), read_csv(a.csv)
    except (OSError, KeyError, ValueError, SyntaxError) as e:
        print("helion-compare: %s" % e, file=sys.stderr)
        return 2
    ran = {k for k, v in hel.items() if v[0] == "ok"}
    rec_ok = {k for k, v in rec.items() if v[0] == "ok" and not math.isnan(v[1])}
    only_h, only_r = ran - rec_ok, rec_ok - ran
    print("configurations: Helion %d results (%d ok), recorded %d runs (%d ok, event view); ok in both %d, only "
          "Helion's %d, only recorded %d" % (len(hel), len(ran), len(rec), len(rec_ok), len(ran & rec_ok),
                                             len(only_h), len(only_r)))
    diffs = sorted((rec[k][1] / hel[k][1] - 1, k) for k in ran & rec_ok)
    beyond = [d for d in diffs if abs(d[0]) > a.tol]
    if diffs:
        print("time: recorded event median / perf_ms - 1: median %+.2f%%, range %+.2f%% .. %+.2f%%; %d of %d beyond "
              "%.0f%%" % (100 * statistics.median(d for d, _ in diffs), 100 * diffs[0][0], 100 * diffs[-1][0],
                          len(beyond), len(diffs), 100 * a.tol))
    best_h = min(ran, key=lambda k: hel[k][1]) if ran else None
    best_r = min(rec_ok, key=lambda k: rec[k][1]) if rec_ok else None
    same_best = best_h == best_r or (best_h in rec and best_r is not None and
                                     rec[best_h][1] <= rec[best_r][1] * (1 + a.tie_pct / 100))
    print("best: Helion %s (%.4f ms); recorded %s (%.4f ms); %s" % (
        best_h, hel[best_h][1] if best_h else math.nan, best_r, rec[best_r][1] if best_r else math.nan,
        "the same" if best_h == best_r else "a tie within %.0f%%" % a.tie_pct if same_best else "DIFFERENT"))
    comp = [v[2] for v in hel.values() if not math.isnan(v[2])]
    if comp:
        print("Helion's compile_time_s: %d configurations, sum %.2f s, median %.2f s" % (
            len(comp), sum(comp), statistics.median(comp)))
    return 0 if not only_h and not only_r and same_best and not beyond and diffs else 1


if __name__ == "__main__":
    sys.exit(main())
