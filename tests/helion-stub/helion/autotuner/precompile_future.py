# stub of helion.autotuner.precompile_future (tests/helion-stub/README.md)
def _run_kernel_in_subprocess_spawn(fn_spec, args_path, result_path, decorator):
    return "compiled " + fn_spec


class PrecompileFuture:
    def __init__(self, process):
        self.process = process
        self.start_time = None

    @property
    def started(self):
        return self.start_time is not None

    def start(self):
        if self.process is None or self.started:
            return
        self.start_time = 1.0

    def _mark_complete(self):
        return True
