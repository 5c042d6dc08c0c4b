# stub of helion.autotuner.benchmark_provider (tests/helion-stub/README.md)
class Metrics:
    num_generations = 0


class LocalBenchmarkProvider:
    def __init__(self, kernel, args):
        self.kernel = kernel
        self.args = args
        self._autotune_metrics = Metrics()

    def _validate_against_baseline(self, config, output, args):
        return config.config.get("num_warps") != 16

    def _benchmark_function(self, config, fn):
        if config.config.get("num_warps") == 32:
            raise RuntimeError("launch failed")
        out = fn(*self.args)
        if not self._validate_against_baseline(config, out, self.args):
            return float("inf")
        return 0.5 * out
