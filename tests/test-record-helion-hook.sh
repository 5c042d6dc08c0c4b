#!/usr/bin/env bash
# test-record-helion-hook.sh — `tunecost record --helion`'s start-up hook (record/python/sitecustomize.py and
# _tc_helion.py) on CPU, against the hand-written stand-ins for Helion 1.4.0's wrapped methods and torch's NVTX
# bindings in tests/helion-stub (README there; no Helion, torch or GPU needed): the hook imports nothing itself,
# wraps Helion's modules as the script imports them, labels each configuration's benchmark with its kernel, input
# key (shapes, dtypes), named parameters (lists flattened), search algorithm and generation, marks failures, puts the
# phases (compile, precompile by id, accuracy check, rebenchmark, the worker's precompile) in tc:phase ranges, and
# changes no result. The expected NVTX calls are written out by hand below from the stubs' behaviour.
#
# Usage: test-record-helion-hook.sh SOURCE_ROOT
# Exit: 0 pass, 1 fail, 77 skipped (no python3).
set -u
ROOT=$(realpath "${1:?usage: test-record-helion-hook.sh SOURCE_ROOT}")
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "SKIP: no $PY"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-helion-hook.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cat >"$TMP/script.py" <<'EOF'
import sys
assert "helion" not in sys.modules and "_tc_helion" in sys.modules, "the hook imported Helion or did not load"
from torch.cuda import nvtx
from helion.runtime.kernel import Kernel, BoundKernel
from helion.autotuner.benchmark_provider import LocalBenchmarkProvider
from helion.autotuner.base_search import PatternSearch
from helion.autotuner import precompile_future as pf


class Tensor:
    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype


class Config:
    def __init__(self, **kw):
        self.config = kw


def matmul(x, y):
    return x


bound = BoundKernel(Kernel(matmul), ())
args = (Tensor((64, 32), "torch.float16"), Tensor((32, 16), "torch.float16"), 3)
prov = LocalBenchmarkProvider(bound, args)
search = PatternSearch(prov)
ok = Config(block_sizes=[64, 32], loop_orders=[[1, 0]], num_warps=4, pid_type="flat")
bad = Config(block_sizes=[16, 16], num_warps=16)
boom = Config(block_sizes=[16, 16], num_warps=32)
assert search.autotune() == "tuned"
fn = bound.compile_config(ok, allow_print=False)
f1, f2, f0 = pf.PrecompileFuture(object()), pf.PrecompileFuture(object()), pf.PrecompileFuture(None)
f1.start(); f2.start(); f0.start(); f1.start()  # f0 has no process, f1's second start does nothing
f1._mark_complete(); f2._mark_complete(); f0._mark_complete()
assert prov._benchmark_function(ok, fn) == 48.0  # (64 + 32) / 2: the result is Helion's own
prov._autotune_metrics.num_generations = 1
assert prov._benchmark_function(bad, bound.compile_config(bad)) == float("inf")
try:
    prov._benchmark_function(boom, fn)
    raise SystemExit("the exception was swallowed")
except RuntimeError:
    pass
assert search.rebenchmark([1, 2], desc="x") == [2, 4]
assert pf._run_kernel_in_subprocess_spawn("k", "a", "r", "d") == "compiled k"
assert pf._run_kernel_in_subprocess_spawn.__qualname__ == "_run_kernel_in_subprocess_spawn"  # picklable by name
for entry in nvtx.LOG:
    print("|".join(str(x) for x in entry))
EOF
KEY='arg0_d0=64,arg0_d1=32,arg0.dtype=torch.float16,arg1_d0=32,arg1_d1=16,arg1.dtype=torch.float16'
cat >"$TMP/want.txt" <<EOF
mark|tc:helion autotune search=PatternSearch
push|tc:phase compile
pop
start|tc:phase precompile|1
start|tc:phase precompile|2
end|1
end|2
push|tc:bench kernel=matmul key=$KEY config=block_sizes_0=64,block_sizes_1=32,loop_orders_0=1-0,num_warps=4,pid_type=flat search=PatternSearch generation=0
push|tc:phase accuracy
pop
pop
push|tc:phase compile
pop
push|tc:bench kernel=matmul key=$KEY config=block_sizes_0=16,block_sizes_1=16,num_warps=16 search=PatternSearch generation=1
push|tc:phase accuracy
pop
mark|tc:failed AccuracyMismatch
pop
push|tc:bench kernel=matmul key=$KEY config=block_sizes_0=16,block_sizes_1=16,num_warps=32 search=PatternSearch generation=1
mark|tc:failed RuntimeError
pop
push|tc:phase rebenchmark
pop
push|tc:phase precompile-worker
pop
EOF
cd "$TMP" || exit 1
if ! PYTHONPATH="$ROOT/record/python:$ROOT/tests/helion-stub" TC_RECORD_HELION=1 HELION_AUTOTUNE_BENCHMARK_SUBPROCESS=0 \
    "$PY" script.py >got.txt 2>err.txt; then
    echo "FAIL: the script failed under the hook"; cat err.txt; exit 1
fi
if ! diff want.txt got.txt; then echo "FAIL: NVTX calls differ (< expected, > got)"; exit 1; fi
echo "ok   labels, failures and phases as expected; results unchanged"
# Helion 1.4.0's default: each configuration's do_bench and accuracy check run as jobs in a spawned benchmark
# worker (a child process with its own spool): the tc:bench range stays in the main process, and the hook in the
# worker puts each job in "tc:job bench" / "tc:job accuracy" (what the reconstruction joins to the range)
cat >"$TMP/worker.py" <<'EOF'
import os
from torch.cuda import nvtx
from helion.runtime.kernel import Kernel, BoundKernel
from helion.autotuner.benchmark_provider import LocalBenchmarkProvider


class Config:
    def __init__(self, **kw):
        self.config = kw


def softmax(x):
    return x


if __name__ == "__main__":  # the spawned worker imports this file again
    bound = BoundKernel(Kernel(softmax), ())
    prov = LocalBenchmarkProvider(bound, ())
    ok, bad = Config(block_sizes=[8], num_warps=4), Config(block_sizes=[2], num_warps=16)
    assert prov._benchmark_function(ok, bound.compile_config(ok)) == 4.0
    assert prov._benchmark_function(bad, bound.compile_config(bad)) == float("inf")
    assert prov._benchmark_worker._process.pid != os.getpid()
    prov.cleanup()
    for entry in nvtx.LOG:
        print("|".join(str(x) for x in entry))
EOF
cat >"$TMP/want-worker.txt" <<EOF
push|tc:phase compile
pop
push|tc:bench kernel=softmax key= config=block_sizes_0=8,num_warps=4 search=unknown generation=0
pop
push|tc:phase compile
pop
push|tc:bench kernel=softmax key= config=block_sizes_0=2,num_warps=16 search=unknown generation=0
mark|tc:failed inf
pop
worker:
push|tc:job bench
pop
push|tc:job accuracy
pop
push|tc:job bench
pop
push|tc:job accuracy
pop
EOF
if ! PYTHONPATH="$ROOT/record/python:$ROOT/tests/helion-stub" TC_RECORD_HELION=1 TC_STUB_NVTX_LOG="$TMP/worker.log" \
    "$PY" worker.py >got-worker.txt 2>err.txt; then
    echo "FAIL: the worker script failed under the hook"; cat err.txt; exit 1
fi
{ echo "worker:"; cat "$TMP/worker.log" 2>/dev/null; } >>got-worker.txt
if ! diff want-worker.txt got-worker.txt; then
    echo "FAIL: the benchmark worker's jobs are not labelled as expected (< expected, > got)"; exit 1
fi
echo "ok   the benchmark worker's jobs in tc:job ranges (Helion 1.4.0 benchmarks in a spawned worker)"
# without TC_RECORD_HELION nothing is wrapped
if ! PYTHONPATH="$ROOT/record/python:$ROOT/tests/helion-stub" "$PY" -c '
import sys
from helion.autotuner.benchmark_provider import LocalBenchmarkProvider as P
assert not getattr(P._benchmark_function, "_tc_wrapped", False) and "_tc_helion" not in sys.modules'; then
    echo "FAIL: wrapped without TC_RECORD_HELION"; exit 1
fi
echo "ok   nothing wrapped without TC_RECORD_HELION"
exit 0
