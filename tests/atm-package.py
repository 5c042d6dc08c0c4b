"""atm-package.py — tunecost's `policies --score atm` against the autotuning_methodology package (1.1.0), the package
scoring with its own parts (tests/test-atm-package.sh): its search-space statistics of each input (the T4 file
`tunecost export t4` wrote of the replayed trace; time keys compilation + validation + benchmark, what tunecost
charges a first visit under --costs source), its RandomSearchCalculatedBaseline, its range (cutoff_percentile_start
0.01 to cutoff_percentile 0.95, the default resolution of 1000 times), its curves (StochasticOptimizationAlgorithm
over its runner's write_results of tunecost's runs logs, `policies --runs-log t4`) and its aggregation
(report_experiments.get_strategies_aggregated_performance: the mean over inputs, then over time).

Checked (exit 1 on a failure):
  the frame: the optimum, the median and the cutoff value, the package's and tunecost's, relative 1e-9;
  the runs logs: tunecost's curve rebuilt from them (the mean rank over runs of each run's best true time done by
     each time of tunecost's range) scores what atm.tsv says, within 1e-9: the logs hold what tunecost scored;
  the decomposition: per (input, policy), the package's score minus tunecost's is measured and split into three
     parts that add up to it (each part swaps one of tunecost's parts for the package's, in this order):
       baseline  the package's baseline in place of tunecost's, on tunecost's range, with tunecost's curve;
       range     the package's range in place of tunecost's (baseline and curve definitions kept);
       curve     the package's curve (isotonic regression with bagging, seeded here) in place of the mean rank;
     docs/simulation.md ("The package's own parts") explains each and quotes the sizes this prints.
usage: python atm-package.py POLDIR T4DIR   (T4DIR/t4-INPUT.json for each input of POLDIR/atm.tsv)"""
import csv
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
from autotuning_methodology.baseline import RandomSearchCalculatedBaseline
from autotuning_methodology.caching import ResultsDescription
from autotuning_methodology.curves import StochasticOptimizationAlgorithm, get_indices_in_distribution
from autotuning_methodology.formats_interface import load_T4_format
from autotuning_methodology.report_experiments import get_strategies_aggregated_performance
from autotuning_methodology.runner import write_results
from autotuning_methodology.searchspace_statistics import SearchspaceStatistics

SS_KEYS = ["compilation", "validation", "benchmark"]  # export t4: what a visit cost the source
RUN_KEYS = ["compilation", "benchmark"]               # runs log: they add up to the run's tuning time
CUTOFF, CUTOFF_START, RESOLUTION, CONFIDENCE = 0.95, 0.01, 1000, 0.95


def rel(a, b):
    return abs(a - b) / max(abs(a), abs(b), 1e-300)


def read_tsv(p):
    return list(csv.DictReader(open(p), delimiter="\t"))


class Frame:
    """tunecost's rank <-> run time over an input's valid times (score_atm.c: atm_rank_of_ms, atm_ms_of_rank)."""

    def __init__(self, asc):
        self.asc = np.asarray(asc, float)
        self.v = len(self.asc)

    def rank_of_ms(self, ms):
        return float(np.searchsorted(self.asc, ms * (1 - 1e-9), side="left")) + 1

    def ms_of_rank(self, rho):
        if rho <= 1:
            return self.asc[0]
        if rho >= self.v:
            return self.asc[-1]
        k = int(np.floor(rho))
        return self.asc[k - 1] + (rho - k) * (self.asc[k] - self.asc[k - 1])


def run_points(t4):
    """A runs-log file's steps: cumulative time (s) and true time (ms; NaN for a failure), as the package's
    write_results accumulates them."""
    res = load_T4_format(t4, validate=True)["results"]  # valid against its T4 schema
    t = np.cumsum([sum(r["times"][k] for k in RUN_KEYS) for r in res])
    f = np.array([r["measurements"][0]["value"] if r["invalidity"] == "correct" else np.nan for r in res], float)
    return res, t, f


def tc_mean_curve(fr, runs, times):
    """tunecost's curve (policy_engine.c atm_score_run, score_atm.c atm_run_ranks): each run's rank at each time is
    that of its best true time done by then ((v + 1) / 2 before any), the mean over runs read back as run time."""
    ranks = np.zeros((len(runs), len(times)))
    for r, (_, t, f) in enumerate(runs):
        best = np.fmin.accumulate(np.where(np.isnan(f), np.inf, f)) if len(f) else np.array([])
        for g, x in enumerate(times):
            e = np.searchsorted(t, x, side="right")  # steps done by time x
            ranks[r, g] = (fr.v + 1) / 2 if e == 0 or not np.isfinite(best[e - 1]) else fr.rank_of_ms(best[e - 1])
    return np.array([fr.ms_of_rank(m) for m in ranks.mean(axis=0)])


def std_score(base, curve, opt):
    """The mean over the range of (f_rand - f) / (f_rand - f_opt): tunecost's score, and the package's
    standardisation (Baseline.get_standardised_curves) averaged over time."""
    with np.errstate(divide="ignore", invalid="ignore"):  # a baseline at the optimum: no score (NaN, inf)
        return float(np.mean((base - curve) / (base - opt)))


def pooled_curve(curve, dist, time_range):
    """The package's curve without its bagging: one isotonic regression (its get_isotonic_curve) of every run's
    (time, index) points in its range, rounded to an index of the sorted times, as it reads its curve."""
    t1, y1, _, _, _ = curve._get_curve_over_time_values_in_range(time_range, return_1d=True)
    idx = get_indices_in_distribution(y1, dist)
    iso = curve.get_isotonic_curve(t1, idx, time_range, ymin=idx.min(), ymax=idx.max())
    return dist[np.clip(np.round(iso).astype(int), 0, len(dist) - 1)]


def package_curve(tmp, name, inp, files, ss_keys_dist, time_range):
    """The package's curve of one policy on one input from tunecost's runs logs: its runner's write_results, then
    StochasticOptimizationAlgorithm (bagging seeded, so that the numbers printed are reproducible)."""
    rd = ResultsDescription(Path(tmp) / name / inp, inp, "tunecost", name, name, True, RUN_KEYS, ["time"], True)
    write_results([load_T4_format(p, validate=False)["results"] for p in files], rd)
    curve = StochasticOptimizationAlgorithm(rd)
    np.random.seed(0)
    parts = curve.get_curve_over_time(time_range, dist=ss_keys_dist, confidence_level=CONFIDENCE)
    return curve, np.concatenate([parts[2], parts[6]]) if parts[5].ndim > 0 else parts[2]


def main():
    pol, t4dir = Path(sys.argv[1]), Path(sys.argv[2])
    frames, curves, scores = read_tsv(pol / "atm.tsv"), read_tsv(pol / "atm-curves.tsv"), read_tsv(pol / "scores.tsv")
    inputs = list(dict.fromkeys(r["input"] for r in frames))
    policies = list(dict.fromkeys(r["policy"] for r in frames))
    bad = 0

    def check(what, ok, detail):
        nonlocal bad
        print(("ok   " if ok else "FAIL ") + what + ": " + detail)
        bad += not ok

    agg_data, parts_all = [], []
    tmp = tempfile.mkdtemp(prefix="tc-atmpkg-")
    for inp in inputs:
        ss = SearchspaceStatistics("gemm", inp, True, SS_KEYS, ["time"], t4dir / f"t4-{inp}.json")
        fr_row = next(r for r in frames if r["input"] == inp)
        if fr_row["scored"] != "1":
            print(f"--   {inp}: not scored by tunecost")
            continue
        dist = ss.objective_performances_total_sorted
        fr, opt = Frame(dist), ss.total_performance_absolute_optimum()
        med, cut = ss.total_performance_median(), ss.objective_performance_at_cutoff_point(CUTOFF)
        ok = rel(opt, float(fr_row["opt_ms"])) < 1e-9 and rel(med, float(fr_row["median_ms"])) < 1e-9 and \
            rel(cut, float(fr_row["cut_ms"])) < 1e-9
        check(f"{inp} frame", ok, f"opt {opt:.6g} ms, median {med:.6g} ms, cutoff {cut:.6g} ms (package and tunecost)")
        tpf = ss.get_time_per_feval("mean_per_feval")
        n, v = ss.size, len(dist)
        print(f"     {inp}: {v} valid of {n}; time per evaluation: package {tpf:.6g} s (failures weighted "
              f"(n - v) / n), tunecost {float(fr_row['per_eval_s']):.6g} s ((n - v) / (v + 1)): ratio "
              f"{tpf / float(fr_row['per_eval_s']):.6f}")
        base = RandomSearchCalculatedBaseline(ss)
        fe0, fe1, ts, te = ss.cutoff_point_fevals_time_start_end(CUTOFF_START, CUTOFF)
        pkg_range = np.linspace(ts, te, RESOLUTION)
        pkg_base = base.get_curve(pkg_range, "time")
        print(f"     {inp}: range: package {ts:.4g} .. {te:.4g} s ({fe0} .. {fe1} evaluations of the median "
              f"{ss.total_time_median():.4g} s), tunecost {float(fr_row['t0_s']):.4g} .. {float(fr_row['t1_s']):.4g} s")
        ms = np.arange(1, 40)  # the baseline's rank: the package's index against the expected rank of the best of M
        pkg_rank = np.array([np.searchsorted(dist, x) + 1 for x in base._get_random_curve(ms, smoothing=False)])
        d1 = (v + 1) / (ms + 1) - pkg_rank
        tc_rows = [r for r in curves if r["input"] == inp and r["policy"] == policies[0]]
        tc_t0 = np.array([float(r["time_s"]) for r in tc_rows])
        ratio = base.get_curve(tc_t0, "time") / np.array([float(r["baseline_ms"]) for r in tc_rows])
        print(f"     {inp}: baseline: expected rank of the best of M draws minus the package's rank, M = 1..39: "
              f"{d1.min():+.2f} .. {d1.max():+.2f}; the package's baseline / tunecost's on tunecost's range: "
              f"{ratio.min():.3f} .. {ratio.max():.3f}")
        pol_curves = []
        for name in policies:
            rows = [r for r in curves if r["input"] == inp and r["policy"] == name]
            tc_t = np.array([float(r["time_s"]) for r in rows])
            tc_base = np.array([float(r["baseline_ms"]) for r in rows])
            files = sorted((pol / "runs" / name / inp).glob("run-*.json"))
            runs = [run_points(p) for p in files]
            s_tc = float(next(r for r in frames if r["input"] == inp and r["policy"] == name)["score"])
            # the runs logs hold what tunecost scored
            s_log = std_score(tc_base, tc_mean_curve(fr, runs, tc_t), opt)
            check(f"{inp} {name} runs log", abs(s_log - s_tc) < 1e-9,
                  f"tunecost's score rebuilt from {len(runs)} runs logs {s_log:.12f}, atm.tsv {s_tc:.12f}")
            # baseline: the package's on tunecost's range, with tunecost's curve
            s_b = std_score(base.get_curve(tc_t, "time"), tc_mean_curve(fr, runs, tc_t), opt)
            # range: the package's range (and its baseline there), tunecost's curve definition
            s_r = std_score(pkg_base, tc_mean_curve(fr, runs, pkg_range), opt)
            if not np.isfinite(s_b):  # the package's baseline reaches the optimum inside tunecost's range:
                s_b = s_tc            # no score there, so baseline and range count as one part (under range)
                print(f"--   {inp} {name}: the package's baseline reaches the optimum inside tunecost's range; "
                      f"its baseline and range parts are one (range)")
            # curve: the package's own curve from the runs logs
            try:
                curve, pkg_curve = package_curve(tmp, name, inp, files, dist, pkg_range)
            except ValueError as e:  # its runner would run the experiment again; these runs it cannot score
                print(f"--   {inp} {name}: the package refuses these runs: {str(e.args[0])[:60]}... "
                      f"(steps in its range per run: {list(e.args[1])[:8]}...)")
                parts_all.append((inp, name, s_tc, np.nan, s_b - s_tc, s_r - s_b, np.nan, np.nan))
                continue
            pol_curves.append(curve)
            s_pkg = std_score(pkg_base, pkg_curve, opt)
            s_pool = std_score(pkg_base, pooled_curve(curve, dist, pkg_range), opt)
            parts_all.append((inp, name, s_tc, s_pkg, s_b - s_tc, s_r - s_b, s_pkg - s_r, s_pool - s_r))
        if len(pol_curves) == len(policies):
            agg_data.append((base, pol_curves, ss, pkg_range, np.arange(fe0, fe1 + 1)))
        else:
            print(f"--   {inp}: left out of the package's aggregation (it refuses some policy's runs)")
    print("\nper input and policy: tunecost's score, the package's, and their difference split into its parts")
    print("(curve: of which 'pooled' is one isotonic regression of the pooled points in place of the mean rank, "
          "the rest the bagging)")
    print(f"{'input':>16} {'policy':>10} {'tunecost':>9} {'package':>9} {'diff':>8} {'baseline':>9} {'range':>8} "
          f"{'curve':>8} {'pooled':>8}")
    for inp, name, s_tc, s_pkg, d_b, d_r, d_c, d_pool in parts_all:
        print(f"{inp:>16} {name:>10} {s_tc:9.4f} {s_pkg:9.4f} {s_pkg - s_tc:+8.4f} {d_b:+9.4f} {d_r:+8.4f} "
              f"{d_c:+8.4f} {d_pool:+8.4f}")
        if np.isfinite(s_pkg) and abs(d_b + d_r + d_c - (s_pkg - s_tc)) > 1e-9:
            check(f"{inp} {name} parts", False, "the parts do not add up to the difference")
    # the package's own aggregation of its standardised curves: the score per policy
    if not agg_data:
        return 1 if bad else 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.random.seed(0)
        perf, _, _, _ = get_strategies_aggregated_performance(agg_data, CONFIDENCE)
    kept = {a[2].device_name for a in agg_data}  # the inputs the package scored (device_name holds the input)
    print(f"\nper policy, over the {len(kept)} input(s) the package scores every policy on: tunecost's score (the "
          f"mean of atm.tsv's) and the package's (its aggregation of its standardised curves)")
    for k, name in enumerate(policies):
        tc = np.mean([p[2] for p in parts_all if p[1] == name and p[0] in kept])
        again = np.mean([p[3] for p in parts_all if p[1] == name and p[0] in kept])
        print(f"     {name:>10}: tunecost {tc:.4f}, package {float(np.mean(perf[k])):.4f}, "
              f"difference {float(np.mean(perf[k])) - tc:+.4f} (the package's per-input scores above, other bagging "
              f"draws: {again:.4f})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
