# stub of helion.autotuner.benchmark_worker (tests/helion-stub/README.md): like Helion 1.4.0's BenchmarkWorker, one
# long-lived process started with multiprocessing's "spawn" (a new interpreter, so the start-up hook runs in it
# too) that receives jobs on a pipe, calls them and sends back the result or the exception.
import multiprocessing as mp


def _worker_loop(connection, device):
    while True:
        try:
            job = connection.recv()
        except EOFError:
            return
        if job is None:
            return
        try:
            result = job()
        except BaseException as e:
            result = e
        connection.send(result)


class BenchmarkWorker:
    def __init__(self, device=None):
        self.device = device
        self._process = None
        self._parent_connection = None

    def alive(self):
        return self._process is not None and self._process.is_alive()

    def run(self, job, timeout):
        if not self.alive():
            self._start()
        self._parent_connection.send(job)
        if not self._parent_connection.poll(timeout):
            raise TimeoutError("benchmark timeout after %.1fs" % timeout)
        result = self._parent_connection.recv()
        if isinstance(result, BaseException):
            raise result
        return result

    def shutdown(self):
        if self.alive():
            self._parent_connection.send(None)
            self._process.join(timeout=5)

    def _start(self):
        context = mp.get_context("spawn")
        parent_connection, child_connection = context.Pipe(duplex=True)
        process = context.Process(target=_worker_loop, args=(child_connection, self.device), daemon=True)
        process.start()
        child_connection.close()
        self._process, self._parent_connection = process, parent_connection
