#!/usr/bin/python3
"""make_corpus.py — write the malformed-trace corpus into a directory, from the format spec alone.

Every file is a small hand-built trace (written with h5py, not with tunecost's trace library, so a bug there
cannot hide in both) that differs from one valid control trace, `valid.h5`, in exactly one defect. MANIFEST.tsv
lists each file with its class, what a trace reader must do with it and why:

    expect  reject   every trace-reading command exits 2 with one line naming the file, and writes nothing
            accept   the file is valid (edge of the spec: wide integers, fixed-length strings, ...): info exits 0
            either   the spec is silent: any clean outcome (exit 0, or exit 2 with one line) is fine, no crash
            nodata   a valid file with nothing to simulate: info may accept it; simulate/report must exit 2

Usage: make_corpus.py OUTDIR        (needs h5py + numpy: run with /usr/bin/python3)
The output is deterministic: same script, same files (random bytes come from a fixed seed).
"""
import os
import shutil
import sys

import h5py
import numpy as np

PARAM_NAMES = ["BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "NUM_STAGES", "NUM_WARPS"]
DIM_NAMES = ["M", "N", "K"]

CONFIG_T = [("status", "<i4"), ("compile_ms", "<f8"), ("load_ms", "<f8"),
            ("registers", "<i4"), ("smem_bytes", "<i4"), ("spill_bytes", "<i4")]
INPUT_T = [("flops", "<f8"), ("ref_ms", "<f8")]
RUN_T = [("input", "<i4"), ("config", "<i4"), ("status", "<i4"), ("n_estimate", "<i4"), ("n_warmup", "<i4"),
         ("n_timed", "<i4"), ("exec_offset", "<i8"), ("wall_ms", "<f8"), ("flush_ms", "<f8"),
         ("verify_ms", "<f8"), ("estimate_ms", "<f8"), ("rel_error", "<f8")]


def base_spec(triton=False):
    """The valid control trace as plain Python/numpy data: 2 inputs, 6 configurations (5 compile, one of which
    faults at launch on input 0; 1 compile error) and 10 runs: 9 with 2 warm-up + 5 timed executions each
    and one launch error with none. With triton=True the protocol is "triton": each measured run starts with 3
    estimate executions and records their mean as estimate_ms."""
    rng = np.random.default_rng(7)
    attrs = {
        "format": "tunecost-trace", "format_version": np.int32(1), "generator": "make_corpus.py",
        "created_utc": "2026-11-22T00:00:00Z", "kernel": "gemm_f16_f32acc", "device_name": "Corpus GPU",
        "device_cc": np.int32(90), "device_sms": np.int32(132), "device_l2_bytes": np.int64(50331648),
        "driver_version": np.int32(13000), "cuda_version": np.int32(13000), "timer": "events",
        "protocol": "triton" if triton else "fixed-time", "warmup_ms": 25.0, "rep_ms": 100.0,
        "flush_bytes": np.int64(0), "compile_jobs": np.int32(1), "seed": np.uint64(1),
    }
    params = np.array([[64, 64, 32, 8, 3, 4], [128, 64, 32, 8, 3, 4], [64, 128, 32, 8, 4, 4],
                       [128, 128, 64, 8, 3, 8], [256, 256, 128, 8, 5, 8], [64, 64, 64, 8, 4, 4]], dtype="<i4")
    configs = np.zeros(len(params), dtype=CONFIG_T)
    for c in range(len(params)):
        configs[c] = (0, 150.0 + 10 * c, 2.0, 96, 32768, 0)
    configs[4] = (1, 80.0, np.nan, 0, 0, 0)              # compile error: no runs
    dims = np.array([[256, 256, 256], [512, 256, 128]], dtype="<i8")
    inputs = np.zeros(2, dtype=INPUT_T)
    inputs["flops"] = 2.0 * dims.prod(axis=1)
    inputs["ref_ms"] = [0.011, np.nan]
    runs, execs, off = [], [], 0
    for i in range(2):
        for c in (0, 1, 2, 3, 5):
            if c == 5 and i == 0:                        # launch error: recorded with no executions
                runs.append((i, c, 3, 0, 0, 0, off, 0.4, 0.0, 0.0, np.nan, np.nan))
                continue
            base = 20000 + 3000 * c + 15000 * i
            n_est = 3 if triton else 0
            e = (base * (1 + 0.02 * rng.standard_normal(n_est + 7))).astype("<u8")
            e[:n_est + 2] += 4000                        # cold estimate and warm-up executions
            wall = e.sum() / 1e6 + 0.25
            est = e[:n_est].mean() / 1e6 if triton else np.nan
            runs.append((i, c, 0, n_est, 2, 5, off, wall, 0.0, 0.3, est, 1e-3))
            execs.append(e)
            off += len(e)
    return {
        "attrs": attrs,
        "params": {"data": params, "attrs": {"names": PARAM_NAMES}},
        "configs": {"data": configs, "attrs": {}},
        "dims": {"data": dims, "attrs": {"names": DIM_NAMES}},
        "inputs": {"data": inputs, "attrs": {}},
        "runs": {"data": np.array(runs, dtype=RUN_T), "attrs": {}, "extendible": True},
        "exec_ns": {"data": np.concatenate(execs).astype("<u8"), "attrs": {}, "extendible": True, "gzip": True},
    }


def write_spec(path, spec, fixed_strings=False):
    with h5py.File(path, "w") as f:
        for k, v in spec["attrs"].items():
            if fixed_strings and isinstance(v, str):
                v = np.bytes_(v.encode())
            f.attrs[k] = v
        for name in ("params", "configs", "dims", "inputs", "runs", "exec_ns"):
            d = spec.get(name)
            if d is None:
                continue
            data = d["data"]
            kw = {}
            if d.get("extendible"):
                kw["maxshape"] = (None,) + tuple(data.shape[1:])
                kw["chunks"] = (max(1, min(64, len(data))),) + tuple(data.shape[1:])
            if d.get("gzip"):
                kw["compression"] = "gzip"
            ds = f.create_dataset(name, data=data, **kw)
            for k, v in d["attrs"].items():
                if fixed_strings and isinstance(v, list):
                    v = np.array([s.encode() for s in v], dtype="S16")
                ds.attrs[k] = v


def set_field(spec, ds, row, field, value):
    spec[ds]["data"][row][field] = value


def drop_member(spec, ds, member):
    old = spec[ds]["data"]
    keep = [n for n in old.dtype.names if n != member]
    new = np.zeros(len(old), dtype=[(n, old.dtype[n]) for n in keep])
    for n in keep:
        new[n] = old[n]
    spec[ds]["data"] = new


def widen(spec, ds, wide):
    """Store compound `ds` with other member types (e.g. int64 where the spec says int32)."""
    old = spec[ds]["data"]
    new = np.zeros(len(old), dtype=[(n, wide.get(n, old.dtype[n])) for n in old.dtype.names])
    for n in old.dtype.names:
        new[n] = old[n]
    spec[ds]["data"] = new


def first_ok_run(spec):
    return int(np.nonzero(spec["runs"]["data"]["status"] == 0)[0][0])


CASES = []   # (name, class, expect, description, mutate(spec), post(path), fixed_strings, write the spec first)


def case(name, cls, expect, desc, mutate=None, post=None, fixed=False, own_file=False):
    """mutate edits the spec before it is written; post edits the written file (or, with own_file, writes the
    whole file itself)."""
    CASES.append((name, cls, expect, desc, mutate, post, fixed, not own_file))


# ---- controls (must be accepted) ---------------------------------------------------------------------------
case("valid", "control", "accept", "the valid control trace every other file is derived from")
case("valid-fixed-strings", "control", "accept", "string attributes fixed-length instead of variable-length",
     fixed=True)
case("valid-wide-ints", "control", "accept", "int64 members where the spec says int32 (HDF5 converts)",
     lambda s: widen(s, "runs", {n: "<i8" for n in ("input", "config", "status", "n_estimate", "n_warmup",
                                                    "n_timed")}))
case("valid-extra-member", "control", "accept", "an extra compound member in /runs (readers match by name)",
     lambda s: s["runs"].update(data=_add_member(s["runs"]["data"], "gpu_temp_c", "<f4", 61.0)))
case("valid-triton", "control", "accept", "protocol 'triton': 3 estimate executions per run, estimate_ms set",
     lambda s: s.update(base_spec(triton=True)))
def _remeasure_first_pair(s):
    """Measure pair (input 0, configuration 0) a second time, later in the file, and slower: 7 executions of
    40000 ns (2 warm-up, 5 timed; wall 0.53 ms). The first measurement (about 20000 ns) is the fastest of input 0
    by any run; by the pair's last run, configuration 0 now takes 40000 ns and configuration 1 (about 23000 ns)
    is input 0's best."""
    runs, e = s["runs"]["data"], s["exec_ns"]["data"]
    extra = np.zeros(1, dtype=runs.dtype)
    extra[0] = (0, 0, 0, 0, 2, 5, len(e), 7 * 0.04 + 0.25, 0.0, 0.3, np.nan, 1e-3)
    s["runs"]["data"] = np.concatenate([runs, extra])
    s["exec_ns"]["data"] = np.concatenate([e, np.full(7, 40000, dtype="<u8")])


case("valid-long-strings", "control", "accept", "a 5000-character device_name (truncated on read)",
     lambda s: s["attrs"].update(device_name="X" * 5000))
def _huge_failed_executions(s):
    """The launch-error run (status 3) gets 3 timed executions of 2^63-1 ns each (a failed run's values are not
    checked): the total GPU time is 3 * (2^63 - 1) ns = 2.7670116e19 ns, past 2^64 (1.8446744e19)."""
    runs, e = s["runs"]["data"], s["exec_ns"]["data"]
    r = int(np.nonzero(runs["status"] == 3)[0][0])
    runs[r]["n_timed"] = 3
    runs[r]["exec_offset"] = len(e)
    s["exec_ns"]["data"] = np.concatenate([e, np.full(3, 2**63 - 1, dtype="<u8")])


case("valid-device-name-not-utf8", "control", "accept", "device_name holds bytes that are not UTF-8 "
     "(GPU \\xff\\xfe\\x80): info --json must still be valid UTF-8",
     lambda s: s["attrs"].update(device_name=np.bytes_(b"GPU \xff\xfe\x80")))
case("valid-device-name-html", "control", "accept", "device_name '<b>GPU</b> & co': escaped in summary.md and "
     "index.html", lambda s: s["attrs"].update(device_name="<b>GPU</b> & co"))
case("valid-gpu-time-past-2e64", "control", "accept", "a failed run's 3 executions of 2^63-1 ns: the total GPU "
     "time exceeds 2^64 ns and must not wrap", _huge_failed_executions)
case("valid-remeasured-pair", "control", "accept", "pair (input 0, configuration 0) measured twice, the last run "
     "slower: every command takes the last run (tests/test-best.sh)", _remeasure_first_pair)


def _add_member(arr, name, typ, value):
    new = np.zeros(len(arr), dtype=arr.dtype.descr + [(name, typ)])
    for n in arr.dtype.names:
        new[n] = arr[n]
    new[name] = value
    return new


# ---- not an HDF5 trace at all --------------------------------------------------------------------------------
def _write_bytes(data):
    def post(path):
        with open(path, "wb") as fp:
            fp.write(data)
    return post


_rand = np.random.default_rng(12345)
case("empty", "not-hdf5", "reject", "an empty file (0 bytes)", post=_write_bytes(b""), own_file=True)
case("random-bytes", "not-hdf5", "reject", "4096 random bytes", post=_write_bytes(_rand.bytes(4096)), own_file=True)
case("hdf5-signature-then-random", "not-hdf5", "reject", "the HDF5 signature followed by 4088 random bytes",
     post=_write_bytes(b"\x89HDF\r\n\x1a\n" + _rand.bytes(4088)), own_file=True)
case("text-file", "not-hdf5", "reject", "a CSV file named .h5",
     post=_write_bytes(b"input,config,ms\n0,0,1.5\n"), own_file=True)


def _truncate(frac=None, at=None):
    def post(path):
        size = os.path.getsize(path)
        n = at if at is not None else int(size * frac)
        if n < 0:
            n = size + n
        with open(path, "r+b") as fp:
            fp.truncate(n)
    return post


for label, kw in (("8B", {"at": 8}), ("512B", {"at": 512}), ("25pct", {"frac": 0.25}), ("50pct", {"frac": 0.5}),
                  ("75pct", {"frac": 0.75}), ("minus1B", {"at": -1})):
    case("truncated-" + label, "truncated", "reject", "the valid trace cut off at " + label, post=_truncate(**kw))


def _corrupt_exec_chunk(path):
    """Overwrite the middle of /exec_ns's compressed chunk: the file opens, reading that dataset fails."""
    with h5py.File(path, "r") as f:
        info = f["exec_ns"].id.get_chunk_info(0)
    with open(path, "r+b") as fp:
        fp.seek(info.byte_offset + info.size // 4)
        fp.write(b"\xff" * max(8, info.size // 2))


case("corrupt-exec-chunk", "corrupt", "reject", "bytes of /exec_ns's gzip chunk overwritten (inflate fails)",
     post=_corrupt_exec_chunk)

# ---- identity ----------------------------------------------------------------------------------------------
case("format-wrong", "identity", "reject", "format = 'not-a-trace'",
     lambda s: s["attrs"].update(format="not-a-trace"))
case("format-missing", "identity", "reject", "no `format` attribute", lambda s: s["attrs"].pop("format"))
case("version-future", "identity", "reject", "format_version = 2", lambda s: s["attrs"].update(format_version=2))
case("version-zero", "identity", "reject", "format_version = 0", lambda s: s["attrs"].update(format_version=0))
case("version-missing", "identity", "reject", "no `format_version` attribute",
     lambda s: s["attrs"].pop("format_version"))
case("version-string", "identity", "reject", "format_version = '1' (a string)",
     lambda s: s["attrs"].update(format_version="1"))
case("plain-hdf5", "identity", "reject", "a valid HDF5 file holding one unrelated dataset",
     post=lambda p: _plain_hdf5(p), own_file=True)


def _plain_hdf5(path):
    with h5py.File(path, "w") as f:
        f["x"] = np.arange(10)


# ---- structure ----------------------------------------------------------------------------------------------
for ds in ("params", "configs", "dims", "inputs", "runs", "exec_ns"):
    case("missing-" + ds, "missing-dataset", "reject", "required dataset /%s absent" % ds,
         (lambda d: lambda s: s.pop(d))(ds))
for attr in ("kernel", "device_name", "protocol", "timer", "flush_bytes", "seed"):
    case("missing-attr-" + attr, "missing-attribute", "reject", "required root attribute `%s` absent" % attr,
         (lambda a: lambda s: s["attrs"].pop(a))(attr))
case("missing-param-names", "missing-attribute", "reject", "/params has no `names` attribute",
     lambda s: s["params"]["attrs"].pop("names"))
case("missing-dim-names", "missing-attribute", "reject", "/dims has no `names` attribute",
     lambda s: s["dims"]["attrs"].pop("names"))
for ds, member in (("runs", "wall_ms"), ("runs", "exec_offset"), ("runs", "n_timed"), ("configs", "status"),
                   ("inputs", "flops")):
    case("missing-member-%s-%s" % (ds, member), "missing-member", "reject",
         "compound /%s lacks member `%s`" % (ds, member), (lambda d, m: lambda s: drop_member(s, d, m))(ds, member))
case("shape-params-1d", "shape", "reject", "/params is 1-D (n_configs*n_params values)",
     lambda s: s["params"].update(data=s["params"]["data"].reshape(-1)))
case("shape-exec-2d", "shape", "reject", "/exec_ns is 2-D",
     lambda s: s["exec_ns"].update(data=s["exec_ns"]["data"].reshape(-1, 1)))
case("shape-runs-not-compound", "shape", "reject", "/runs is a plain int32 array",
     lambda s: s["runs"].update(data=np.arange(11, dtype="<i4")))

# ---- counts that disagree -----------------------------------------------------------------------------------
case("count-params-rows", "counts", "reject", "/params has 5 rows, /configs 6",
     lambda s: s["params"].update(data=s["params"]["data"][:5]))
case("count-dims-rows", "counts", "reject", "/dims has 3 rows, /inputs 2",
     lambda s: s["dims"].update(data=np.vstack([s["dims"]["data"], [[64, 64, 64]]])))
case("count-param-names", "counts", "reject", "/params `names` lists 5 names for 6 columns",
     lambda s: s["params"]["attrs"].update(names=PARAM_NAMES[:5]))
case("count-dim-names", "counts", "reject", "/dims `names` lists 4 names for 3 columns",
     lambda s: s["dims"]["attrs"].update(names=DIM_NAMES + ["L"]))
case("count-ntimed-negative", "counts", "reject", "a run with n_timed = -5",
     lambda s: set_field(s, "runs", first_ok_run(s), "n_timed", -5))
case("count-nwarmup-negative", "counts", "reject", "a run with n_warmup = -1",
     lambda s: set_field(s, "runs", first_ok_run(s), "n_warmup", -1))
case("count-ntimed-huge", "counts", "reject", "a run with n_timed = 2^31-1",
     lambda s: set_field(s, "runs", first_ok_run(s), "n_timed", 2**31 - 1))
case("count-ntimed-int64-overflow", "counts", "reject", "n_timed = 2^40 in an int64 member (int32 in the spec)",
     lambda s: (widen(s, "runs", {"n_timed": "<i8"}), set_field(s, "runs", 0, "n_timed", 2**40)))
case("count-exec-short", "counts", "reject", "/exec_ns 3 values shorter than the runs need",
     lambda s: s["exec_ns"].update(data=s["exec_ns"]["data"][:-3]))
case("count-ok-run-no-timed", "counts", "either", "a status-0 run with n_timed = 0 (and its executions moved)",
     lambda s: _zero_timed(s))


def _zero_timed(s):
    r = first_ok_run(s)
    runs, e = s["runs"]["data"], s["exec_ns"]["data"]
    off, n = int(runs[r]["exec_offset"]), 7
    s["exec_ns"]["data"] = np.concatenate([e[:off + 2], e[off + n:]])
    runs[r]["n_timed"] = 0
    runs["exec_offset"][r + 1:] -= 5


# ---- offsets ----------------------------------------------------------------------------------------------
case("offset-past-end", "offsets", "reject", "the last run's exec_offset one past where it fits",
     lambda s: set_field(s, "runs", len(s["runs"]["data"]) - 1, "exec_offset",
                         s["runs"]["data"][-1]["exec_offset"] + 1))
case("offset-beyond", "offsets", "reject", "exec_offset = 10^6 with 70 executions stored",
     lambda s: set_field(s, "runs", 0, "exec_offset", 10**6))
case("offset-negative", "offsets", "reject", "exec_offset = -1",
     lambda s: set_field(s, "runs", 0, "exec_offset", -1))
case("offset-overflow", "offsets", "reject", "exec_offset = 2^63-3 (offset + count overflows int64)",
     lambda s: set_field(s, "runs", 0, "exec_offset", 2**63 - 3))
case("offset-overlap", "offsets", "reject", "run 1's exec_offset = run 0's: two runs own the same executions",
     lambda s: set_field(s, "runs", 1, "exec_offset", s["runs"]["data"][0]["exec_offset"]))
case("offset-overclaim", "offsets", "reject", "run 0 claims 2 timed executions more than it owns (run 1's first)",
     lambda s: set_field(s, "runs", 0, "n_timed", s["runs"]["data"][0]["n_timed"] + 2))
case("offset-swapped", "offsets", "accept", "runs 0 and 1 (same counts) swap their executions: rows out of launch "
     "order but disjoint", lambda s: _swap_offsets(s, 0, 1))


def _swap_offsets(s, a, b):
    runs = s["runs"]["data"]
    n = lambda r: int(r["n_estimate"]) + int(r["n_warmup"]) + int(r["n_timed"])
    assert n(runs[a]) == n(runs[b])
    runs[a]["exec_offset"], runs[b]["exec_offset"] = int(runs[b]["exec_offset"]), int(runs[a]["exec_offset"])


# ---- value tables (imported traces) ---------------------------------------------------------------------------
case("values-table", "values", "accept", "/params column 0 as indices into a value table values_NAME (an imported "
     "trace's strings)", lambda s: _value_table(s, 8))
case("values-index-outside", "values", "reject", "a value table with 2 values where /params column 0 holds larger "
     "indices", lambda s: _value_table(s, 2))


def _value_table(s, n):
    p = s["params"]["data"]
    if n > 2:  # indices 0.. into a table long enough for every row
        p[:, 0] = np.arange(len(p)) % n
    s["params"]["attrs"]["values_" + PARAM_NAMES[0]] = ['"v%d"' % i for i in range(n)]

# ---- references ---------------------------------------------------------------------------------------------
case("ref-config-missing", "references", "reject", "a run's config = 99 (6 configurations)",
     lambda s: set_field(s, "runs", 0, "config", 99))
case("ref-config-equal-n", "references", "reject", "a run's config = 6 = n_configs (off by one)",
     lambda s: set_field(s, "runs", 0, "config", 6))
case("ref-config-negative", "references", "reject", "a run's config = -1",
     lambda s: set_field(s, "runs", 0, "config", -1))
case("ref-input-missing", "references", "reject", "a run's input = 2 (2 inputs)",
     lambda s: set_field(s, "runs", 0, "input", 2))
case("ref-input-negative", "references", "reject", "a run's input = -7",
     lambda s: set_field(s, "runs", 0, "input", -7))

# ---- durations ----------------------------------------------------------------------------------------------
def _exec_of_ok_run(s, k):
    """Index into /exec_ns of the k-th execution (0 = first warm-up) of the first status-0 run."""
    return int(s["runs"]["data"][first_ok_run(s)]["exec_offset"]) + k


case("exec-zero", "durations", "reject", "a timed execution of a status-0 run lasts 0 ns",
     lambda s: s["exec_ns"]["data"].__setitem__(_exec_of_ok_run(s, 4), 0))
case("exec-zero-warmup", "durations", "reject", "a warm-up execution of a status-0 run lasts 0 ns",
     lambda s: s["exec_ns"]["data"].__setitem__(_exec_of_ok_run(s, 0), 0))
case("exec-negative-int64", "durations", "reject",
     "/exec_ns stored as int64 by an importer, one timed value -5 (HDF5 converts it to uint64 0)",
     lambda s: (s["exec_ns"].update(data=s["exec_ns"]["data"].astype("<i8")),
                s["exec_ns"]["data"].__setitem__(_exec_of_ok_run(s, 4), -5)))
case("exec-negative-wrapped", "durations", "reject",
     "a timed value 2^64-5 (a negative int64 reinterpreted as uint64: 584 years)",
     lambda s: s["exec_ns"]["data"].__setitem__(_exec_of_ok_run(s, 4), np.uint64(2**64 - 5)))
case("exec-float-nan", "durations", "reject", "/exec_ns stored as float64 with one NaN",
     lambda s: (s["exec_ns"].update(data=s["exec_ns"]["data"].astype("<f8")),
                s["exec_ns"]["data"].__setitem__(_exec_of_ok_run(s, 4), np.nan)))
for v, label in ((np.nan, "nan"), (0.0, "zero"), (-1.5, "negative"), (np.inf, "inf")):
    case("wall-" + label, "durations", "reject", "a status-0 run's wall_ms = %r" % v,
         (lambda val: lambda s: set_field(s, "runs", first_ok_run(s), "wall_ms", val))(v))
case("wall-below-timed", "durations", "either", "wall_ms smaller than the sum of the timed executions",
     lambda s: set_field(s, "runs", first_ok_run(s), "wall_ms", 1e-6))
case("compile-nan", "durations", "either", "compile_ms = NaN for a configuration that compiled (status 0)",
     lambda s: set_field(s, "configs", 0, "compile_ms", np.nan))
case("compile-negative", "durations", "either", "compile_ms = -3 for a configuration that compiled",
     lambda s: set_field(s, "configs", 0, "compile_ms", -3.0))
case("flops-zero", "durations", "either", "an input's flops = 0",
     lambda s: set_field(s, "inputs", 0, "flops", 0.0))
case("flops-nan", "durations", "either", "an input's flops = NaN",
     lambda s: set_field(s, "inputs", 0, "flops", np.nan))
case("status-unknown", "durations", "either", "a run with status 9 (not in the enum)",
     lambda s: set_field(s, "runs", 0, "status", 9))

# ---- silent conversions: values a reader must not saturate, truncate or cut short ----------------------------
def _params_int64(s, v):
    s["params"]["data"] = s["params"]["data"].astype("<i8")
    s["params"]["data"][0][0] = v


def _runs_member_float(s, member, v):
    widen(s, "runs", {member: "<f8"})
    s["runs"]["data"][member] = s["runs"]["data"][member].astype("<f8")
    set_field(s, "runs", 0, member, v)


case("conv-params-int64-huge", "conversions", "reject", "/params stored as int64 with one value 2^40 (int32 in "
     "the spec; HDF5 would saturate it to 2147483647)", lambda s: _params_int64(s, 2**40))
case("conv-params-int64-fits", "conversions", "accept", "/params stored as int64, every value within int32",
     lambda s: _params_int64(s, 64))
case("conv-attr-sms-huge", "conversions", "reject", "device_sms = 1e20 (a float; int32 in the spec)",
     lambda s: s["attrs"].update(device_sms=1e20))
case("conv-attr-sms-float-integral", "conversions", "accept", "device_sms = 132.0 (a float with an integral "
     "value)", lambda s: s["attrs"].update(device_sms=132.0))
case("conv-format-version-fraction", "conversions", "reject", "format_version = 1.5",
     lambda s: s["attrs"].update(format_version=1.5))
case("conv-seed-negative", "conversions", "reject", "seed = -1 (an int64; the seed is unsigned)",
     lambda s: s["attrs"].update(seed=np.int64(-1)))
case("conv-runs-input-float", "conversions", "reject", "runs.input stored as float64 with the value 0.7",
     lambda s: _runs_member_float(s, "input", 0.7))
case("conv-format-embedded-nul", "conversions", "reject", "format = 'tunecost-trace\\0junk' (a fixed-length "
     "string with a NUL inside)", lambda s: s["attrs"].update(format=np.bytes_(b"tunecost-trace\0junk")))


# ---- storage that was never written ------------------------------------------------------------------------
def _exec_last_chunk_unwritten(path):
    """Rewrite /exec_ns with chunks of 16 values and 16 more values than the runs so far use; the launch-error run
    (status 3) now owns 16 timed executions that are exactly that last chunk, which is never written (a failed
    run whose executions were not kept): they read as the fill value 0, whichever reader is used."""
    with h5py.File(path, "r+") as f:
        e = f["exec_ns"][...]
        runs = f["runs"][...]
        n = len(e)
        pad = (-n) % 16
        del f["exec_ns"]
        d = f.create_dataset("exec_ns", shape=(n + pad + 16,), maxshape=(None,), chunks=(16,), dtype="<u8",
                             compression="gzip", shuffle=True)
        d[:n] = e
        if pad:
            d[n:n + pad] = 1          # padding executions no run owns, written so only the last chunk is empty
        r = int(np.nonzero(runs["status"] == 3)[0][0])   # the launch error on input 0: give it the last chunk
        runs[r]["n_timed"] = 16
        runs[r]["exec_offset"] = n + pad
        del f["runs"]
        f.create_dataset("runs", data=runs, maxshape=(None,), chunks=(64,))


def _runs_declared_huge(path):
    """/runs declared with 10^8 rows (chunked, extendible) of which only the first chunk (the 10 real rows) is
    written: 91 KB on disk that claims 6.4 GB of rows."""
    with h5py.File(path, "r+") as f:
        runs = f["runs"][...]
        del f["runs"]
        d = f.create_dataset("runs", shape=(10**8,), maxshape=(None,), chunks=(64,), dtype=runs.dtype)
        d[:len(runs)] = runs


case("unwritten-exec-last-chunk", "storage", "accept", "/exec_ns's last chunk never written (a failed run's "
     "executions lie over it): reads as the fill value in every reader", post=_exec_last_chunk_unwritten)
case("unwritten-runs-declared-1e8", "storage", "reject", "/runs declared with 10^8 rows, 10 written: refused "
     "before any allocation", post=_runs_declared_huge)


# ---- nothing to work with -------------------------------------------------------------------------------------
def _all_failed(s):
    s["runs"]["data"]["status"] = 3


def _no_runs(s):
    s["runs"]["data"] = s["runs"]["data"][:0]
    s["exec_ns"]["data"] = s["exec_ns"]["data"][:0]


case("no-valid-runs", "nodata", "nodata", "every run has status 3 (launch error)", _all_failed)
case("no-runs", "nodata", "nodata", "/runs and /exec_ns exist but hold 0 rows", _no_runs)
case("no-configs", "nodata", "nodata", "0 configurations, 0 runs",
     lambda s: (s["params"].update(data=s["params"]["data"][:0]), s["configs"].update(data=s["configs"]["data"][:0]),
                _no_runs(s)))


def special_cases(out, manifest):
    """Files that are not made from a spec: a directory, an unreadable file, a missing path."""
    d = os.path.join(out, "directory.h5")
    os.makedirs(d, exist_ok=True)
    manifest.append(("directory.h5", "filesystem", "reject", "a directory named like a trace"))
    p = os.path.join(out, "unreadable.h5")
    write_spec(p, base_spec())
    os.chmod(p, 0)
    readable = os.access(p, os.R_OK)   # root reads mode-000 files: the test then skips this case
    manifest.append(("unreadable.h5", "filesystem", "reject" if not readable else "skip-root",
                     "a valid trace with mode 000" + (" (readable anyway: running as root)" if readable else "")))
    manifest.append(("does-not-exist.h5", "filesystem", "reject", "a path that does not exist"))


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    out = sys.argv[1]
    if os.path.isdir(out):
        p = os.path.join(out, "unreadable.h5")
        if os.path.exists(p):
            os.chmod(p, 0o600)
        shutil.rmtree(out)
    os.makedirs(out)
    manifest = []
    for name, cls, expect, desc, mutate, post, fixed, write_first in CASES:
        path = os.path.join(out, name + ".h5")
        spec = base_spec()
        if mutate is not None:
            mutate(spec)
        if write_first:
            write_spec(path, spec, fixed_strings=fixed)
        if post is not None:
            post(path)
        manifest.append((name + ".h5", cls, expect, desc))
    special_cases(out, manifest)
    with open(os.path.join(out, "MANIFEST.tsv"), "w") as fp:
        fp.write("file\tclass\texpect\tdescription\n")
        for row in manifest:
            fp.write("\t".join(row) + "\n")
    print("make_corpus.py: %d cases in %s" % (len(manifest), out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
