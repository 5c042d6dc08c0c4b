# _tc_helion.py — the `tunecost record --helion` start-up hook for Helion's autotuner (docs/record.md, "Helion"),
# installed by sitecustomize.py beside it when TC_RECORD_HELION=1. Nothing is imported here: when the user's
# script imports Helion's modules, these methods (Helion 1.4.0) are wrapped as they load:
#   LocalBenchmarkProvider._benchmark_function(config, fn)  one configuration's benchmark: an NVTX range
#       tc:bench kernel=NAME key=arg0_d0=4096,arg0_d1=4096,arg0.dtype=torch.float16,... config=block_sizes_0=64,...
#                search=LFBOTreeSearch generation=N
#     with a marker "tc:failed REASON" inside when Helion got inf (AccuracyMismatch, or the exception's name);
#   LocalBenchmarkProvider._validate_against_baseline      "tc:phase accuracy" (the check against the baseline);
#   BoundKernel.compile_config                             "tc:phase compile" (Helion's code generation);
#   PrecompileFuture.start ... _mark_complete              "tc:phase precompile" (a worker's precompile, from
#                                                          start to completion: ranges that overlap, by id);
#   _run_kernel_in_subprocess_spawn                        "tc:phase precompile-worker" in the spawned worker itself;
#   PopulationBasedSearch.rebenchmark                      "tc:phase rebenchmark";
#   BaseSearch.autotune                                    a marker "tc:helion autotune search=NAME" (the search
#                                                          algorithm, also in every tc:bench label);
#   BenchmarkJob.__call__, AccuracyCheckJob.__call__       "tc:job bench", "tc:job accuracy" in Helion's benchmark
#                                                          worker: Helion 1.4.0 runs each configuration's do_bench
#                                                          and accuracy check in a spawned BenchmarkWorker
#                                                          (HELION_AUTOTUNE_BENCHMARK_SUBPROCESS, on by default), so
#                                                          the kernels of a tc:bench range are in that child process;
#                                                          the reconstruction takes the child's events inside the
#                                                          "tc:job bench" ranges a tc:bench range holds (and once, a
#                                                          marker "tc:flush_bytes N" from the worker).
# The key is the shape and dtype of every tensor argument (each dimension its own integer, so that the trace's
# inputs have dimensions); the configuration is helion.Config's named parameters, lists flattened (block_sizes=[64,
# 32] -> block_sizes_0=64,block_sizes_1=32; an element that is itself a list joined by '-'). Helion's results,
# timings and choices are its own: every wrapper calls the original and returns what it returned.
import functools
import importlib.abc
import importlib.util
import sys
import threading

_state = threading.local()
_search = {"name": "unknown"}


def _fns():
    import sitecustomize

    return sitecustomize._nvtx()


def _text(v):
    s = str(v)
    for bad in " ,=\t\n":
        s = s.replace(bad, "_")
    return s


def _value(v):
    if isinstance(v, (list, tuple)):
        return "-".join(_value(x) for x in v)
    return _text(v)


def config_text(config):
    """helion.Config (or a dict) as name=value pairs, lists flattened: block_sizes_0=64,...,num_warps=4."""
    items = getattr(config, "config", config)
    out = []
    for k in sorted(items):
        v = items[k]
        if isinstance(v, (list, tuple)):
            out += ["%s_%d=%s" % (k, i, _value(x)) for i, x in enumerate(v)]
        else:
            out.append("%s=%s" % (k, _value(v)))
    return ",".join(out)


def key_text(args):
    """Every tensor argument's dimensions and dtype: arg0_d0=4096,arg0_d1=4096,arg0.dtype=torch.float16."""
    out = []
    for i, a in enumerate(args or ()):
        shape = getattr(a, "shape", None)
        if shape is None or not hasattr(a, "dtype"):
            continue
        out += ["arg%d_d%d=%d" % (i, d, int(n)) for d, n in enumerate(shape)]
        out.append("arg%d.dtype=%s" % (i, _text(a.dtype)))
    return ",".join(out)


def _kernel_name(provider):
    k = getattr(getattr(provider, "kernel", None), "kernel", None)
    return _text(getattr(k, "name", None) or getattr(getattr(k, "fn", None), "__name__", "kernel"))


def _phase(name, fns):
    """A decorator: the call runs inside the NVTX range 'tc:phase NAME'."""
    push, pop = fns[0], fns[1]

    def deco(orig):
        @functools.wraps(orig)
        def wrapper(*args, **kwargs):
            push("tc:phase " + name)
            try:
                return orig(*args, **kwargs)
            finally:
                pop()

        wrapper._tc_wrapped = True
        return wrapper

    return deco


def _wrap_provider(mod, fns):
    cls = getattr(mod, "LocalBenchmarkProvider", None)
    if cls is None or getattr(cls._benchmark_function, "_tc_wrapped", False):
        return
    push, pop, mark = fns[0], fns[1], fns[2]
    orig_bench, orig_check = cls._benchmark_function, cls._validate_against_baseline

    @functools.wraps(orig_bench)
    def _benchmark_function(self, config, fn):
        metrics = getattr(self, "_autotune_metrics", None)
        label = "tc:bench kernel=%s key=%s config=%s search=%s generation=%s" % (
            _kernel_name(self), key_text(getattr(self, "args", ())), config_text(config), _search["name"],
            getattr(metrics, "num_generations", "unknown"))
        _state.accuracy_failed = False
        push(label)
        try:
            res = orig_bench(self, config, fn)
            if not (isinstance(res, float) and res < float("inf")):
                mark("tc:failed " + ("AccuracyMismatch" if _state.accuracy_failed else "inf"))
            return res
        except BaseException as e:
            mark("tc:failed " + type(e).__name__)
            raise
        finally:
            pop()

    @functools.wraps(orig_check)
    def _validate_against_baseline(self, *args, **kwargs):
        push("tc:phase accuracy")
        try:
            ok = orig_check(self, *args, **kwargs)
            _state.accuracy_failed = not ok
            return ok
        finally:
            pop()

    _benchmark_function._tc_wrapped = True
    cls._benchmark_function = _benchmark_function
    cls._validate_against_baseline = _validate_against_baseline


def _wrap_search(mod, fns):
    base = getattr(mod, "BaseSearch", None)
    if base is not None and not getattr(base.autotune, "_tc_wrapped", False):
        orig = base.autotune

        @functools.wraps(orig)
        def autotune(self, *args, **kwargs):
            _search["name"] = type(self).__name__
            fns[2]("tc:helion autotune search=%s" % _search["name"])
            return orig(self, *args, **kwargs)

        autotune._tc_wrapped = True
        base.autotune = autotune
    pop_cls = getattr(mod, "PopulationBasedSearch", None)
    if pop_cls is not None and not getattr(pop_cls.rebenchmark, "_tc_wrapped", False):
        pop_cls.rebenchmark = _phase("rebenchmark", fns)(pop_cls.rebenchmark)


def _wrap_precompile(mod, fns):
    fut = getattr(mod, "PrecompileFuture", None)
    start_r, end_r = fns[3], fns[4]
    if fut is not None and not getattr(fut.start, "_tc_wrapped", False):
        orig_start, orig_done = fut.start, fut._mark_complete

        @functools.wraps(orig_start)
        def start(self):
            begin = getattr(self, "process", None) is not None and not getattr(self, "started", True)
            res = orig_start(self)
            if begin:
                self._tc_range = start_r("tc:phase precompile")
            return res

        @functools.wraps(orig_done)
        def _mark_complete(self):
            try:
                return orig_done(self)
            finally:
                rid = self.__dict__.pop("_tc_range", None)
                if rid is not None:
                    end_r(rid)

        start._tc_wrapped = True
        fut.start, fut._mark_complete = start, _mark_complete
    spawn = getattr(mod, "_run_kernel_in_subprocess_spawn", None)
    if spawn is not None and not getattr(spawn, "_tc_wrapped", False):
        mod._run_kernel_in_subprocess_spawn = _phase("precompile-worker", fns)(spawn)


def _wrap_kernel(mod, fns):
    bound = getattr(mod, "BoundKernel", None)
    if bound is not None and not getattr(bound.compile_config, "_tc_wrapped", False):
        bound.compile_config = _phase("compile", fns)(bound.compile_config)


def _mark_flush_bytes(mark):
    """Mark once per process the size of the buffer Helion's do_bench clears between executions (Triton's)."""
    if _state_flush["marked"]:
        return
    _state_flush["marked"] = True
    try:
        from triton.runtime import driver

        c = driver.active.get_empty_cache_for_benchmark()
        mark("tc:flush_bytes %d" % (c.numel() * c.element_size()))
    except Exception:
        pass


_state_flush = {"marked": False}


def _wrap_jobs(mod, fns):
    """Helion's benchmark worker runs these jobs: each inside 'tc:job bench' or 'tc:job accuracy'."""
    push, pop, mark = fns[0], fns[1], fns[2]
    for cls_name, label in (("BenchmarkJob", "tc:job bench"), ("AccuracyCheckJob", "tc:job accuracy")):
        cls = getattr(mod, cls_name, None)
        if cls is None or getattr(cls.__call__, "_tc_wrapped", False):
            continue

        def make(orig, label):
            @functools.wraps(orig)
            def __call__(self, *args, **kwargs):
                if label == "tc:job bench":
                    _mark_flush_bytes(mark)
                push(label)
                try:
                    return orig(self, *args, **kwargs)
                finally:
                    pop()

            __call__._tc_wrapped = True
            return __call__

        cls.__call__ = make(cls.__call__, label)


_WRAPPERS = {
    "helion.autotuner.benchmark_provider": _wrap_provider,
    "helion.autotuner.base_search": _wrap_search,
    "helion.autotuner.precompile_future": _wrap_precompile,
    "helion.autotuner.benchmark_job": _wrap_jobs,
    "helion.runtime.kernel": _wrap_kernel,
}


def _apply(name, module):
    fns = _fns()
    if fns is None:
        print("tunecost record --helion: no NVTX binding (torch or nvtx); Helion's autotuner is not labelled",
              file=sys.stderr)
        return
    _WRAPPERS[name](module, fns)


class _HelionFinder(importlib.abc.MetaPathFinder):
    """Wraps Helion's modules right after each is first imported; imports nothing itself."""

    busy = False

    def find_spec(self, name, path, target=None):
        if name not in _WRAPPERS or _HelionFinder.busy:
            return None
        _HelionFinder.busy = True
        try:
            spec = importlib.util.find_spec(name)
        finally:
            _HelionFinder.busy = False
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_and_wrap(module):
            exec_module(module)
            try:
                _apply(name, module)
            except Exception as e:
                print("tunecost record --helion: cannot label %s: %r" % (name, e), file=sys.stderr)

        spec.loader.exec_module = exec_and_wrap
        return spec


def install():
    """Wrap the modules already imported; the others as they are."""
    for name in _WRAPPERS:
        if name in sys.modules:
            _apply(name, sys.modules[name])
    sys.meta_path.insert(0, _HelionFinder())
