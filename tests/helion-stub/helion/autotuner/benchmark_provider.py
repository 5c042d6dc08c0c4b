# stub of helion.autotuner.benchmark_provider (tests/helion-stub/README.md). As in Helion 1.4.0,
# _benchmark_function runs the benchmark and then the accuracy check as jobs in a spawned BenchmarkWorker when
# HELION_AUTOTUNE_BENCHMARK_SUBPROCESS is on (the default), else in this process.
import os

from .benchmark_job import AccuracyCheckJob, BenchmarkJob
from .benchmark_worker import BenchmarkWorker


class Metrics:
    num_generations = 0


class LocalBenchmarkProvider:
    def __init__(self, kernel, args):
        self.kernel = kernel
        self.args = args
        self._autotune_metrics = Metrics()
        self._benchmark_worker = None

    def _subprocess_benchmark_enabled(self):
        return os.environ.get("HELION_AUTOTUNE_BENCHMARK_SUBPROCESS", "1").lower() not in ("0", "false", "no")

    def _validate_against_baseline(self, config, output, args):
        return config.config.get("num_warps") != 16

    def _benchmark_function(self, config, fn):
        if config.config.get("num_warps") == 32:
            raise RuntimeError("launch failed")
        if self._subprocess_benchmark_enabled():
            if self._benchmark_worker is None:
                self._benchmark_worker = BenchmarkWorker(device=None)
            spec = dict(config.config)  # Helion sends the compiled function serialized; the stub its config
            latency = self._benchmark_worker.run(BenchmarkJob(fn_spec=spec, args_path="args.pt"), timeout=30.0)
            check = self._benchmark_worker.run(
                AccuracyCheckJob(fn_spec=spec, args_path="args.pt", baseline_path="baseline.pt", atol=1e-2,
                                 rtol=1e-2), timeout=30.0)
            return float(latency) if check.ok else float("inf")
        out = fn(*self.args)
        if not self._validate_against_baseline(config, out, self.args):
            return float("inf")
        return 0.5 * out

    def cleanup(self):
        if self._benchmark_worker is not None:
            self._benchmark_worker.shutdown()
