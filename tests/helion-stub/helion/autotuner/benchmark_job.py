# stub of helion.autotuner.benchmark_job (tests/helion-stub/README.md): the jobs Helion 1.4.0 sends to its spawned
# benchmark worker, with 1.4.0's names and fields. BenchmarkJob() is do_bench of the compiled function (here: half
# the sum of the configuration's block sizes, as the in-process path returns); AccuracyCheckJob() compares with the
# baseline (here: num_warps=16 mismatches).
import dataclasses


@dataclasses.dataclass
class BenchmarkJob:
    fn_spec: object
    args_path: str
    warmup: int = 1
    rep: int = 50
    use_wall_clock: bool = False

    def __call__(self):
        return 0.5 * sum(self.fn_spec["block_sizes"])


@dataclasses.dataclass(frozen=True)
class AccuracyCheckResult:
    ok: bool
    message: str = ""


@dataclasses.dataclass
class AccuracyCheckJob:
    fn_spec: object
    args_path: str
    baseline_path: str
    atol: float
    rtol: float

    def __call__(self):
        return AccuracyCheckResult(ok=self.fn_spec.get("num_warps") != 16)
