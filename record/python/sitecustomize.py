# sitecustomize.py — tunecost's start-up hook for `tunecost record --triton` (docs/record.md, "Labels").
# `tunecost record --triton` puts this folder first on PYTHONPATH and sets TC_RECORD_TRITON=1, so every Python
# process of the recorded command runs this file at start-up, before the user's script, which is not edited. When
# the script imports triton.runtime.autotuner, Autotuner._bench (one candidate's benchmark) is wrapped so that it
# runs inside an NVTX range labelled
#     tc:bench kernel=NAME key=M=4096,N=4096,K=4096,a.dtype=torch.float16 config=BLOCK_M=128,...,NUM_WARPS=4,NUM_STAGES=3
# and, when the candidate did not run (Triton returns inf), a marker "tc:failed EXCEPTION" inside it; once, a
# marker "tc:flush_bytes N" gives the size of the buffer do_bench clears between executions. The
# injection library records both (NVTX_INJECTION64_PATH) and the reconstruction reads them. Nothing else changes:
# the autotuner's results, timings and choices are Triton's own. Another sitecustomize shadowed by this one is
# still run. `tunecost record --helion` sets TC_RECORD_HELION=1 and the same is done for Helion's autotuner by
# _tc_helion.py beside this file.
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _run_shadowed_sitecustomize():
    """Import the sitecustomize this file hides (e.g. Debian's), if there is one."""
    me = sys.modules.get("sitecustomize")
    rest = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is None or spec.loader is None:
        return
    try:
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    except Exception as e:  # never stop the user's program for it
        print("tunecost record: the shadowed sitecustomize failed: %r" % (e,), file=sys.stderr)
    finally:
        if me is not None:
            sys.modules["sitecustomize"] = me


def _nvtx():
    """push, pop, mark, start and end functions (start/end: a range that need not nest, by id): torch's NVTX
    bindings, else the nvtx package; None without either."""
    try:
        import torch.cuda.nvtx as tn
        return tn.range_push, tn.range_pop, tn.mark, tn.range_start, tn.range_end
    except Exception:
        pass
    try:
        import nvtx
        return ((lambda m: nvtx.push_range(m)), (lambda: nvtx.pop_range()), (lambda m: nvtx.mark(m)),
                (lambda m: nvtx.start_range(m)), (lambda r: nvtx.end_range(r)))
    except Exception:
        return None


def _text(v):
    s = str(v)
    for bad in " ,=\t\n":
        s = s.replace(bad, "_")
    return s


def _label(tuner, config, meta):
    args = {**(getattr(tuner, "nargs", None) or {}), **meta}
    key = ["%s=%s" % (k, _text(args[k])) for k in tuner.keys if k in args]
    key += ["%s.dtype=%s" % (k, _text(v.dtype)) for k, v in args.items()
            if k in tuner.arg_names and hasattr(v, "dtype")]
    cfg = ["%s=%s" % (k, _text(v)) for k, v in config.kwargs.items()]
    for name in ("num_warps", "num_stages", "num_ctas", "maxnreg"):
        v = getattr(config, name, None)
        if v is not None:
            cfg.append("%s=%s" % (name.upper(), _text(v)))
    kernel = getattr(getattr(tuner, "base_fn", None), "__name__", "kernel")
    return "tc:bench kernel=%s key=%s config=%s" % (_text(kernel), ",".join(key), ",".join(cfg))


def _wrap(autotuner_module):
    Autotuner = getattr(autotuner_module, "Autotuner", None)
    fns = _nvtx()
    if Autotuner is None or fns is None or getattr(Autotuner._bench, "_tc_wrapped", False):
        if fns is None:
            print("tunecost record --triton: no NVTX binding (torch or nvtx); candidates are not labelled",
                  file=sys.stderr)
        return
    push, pop, mark = fns[:3]
    orig = Autotuner._bench
    flush_marked = []

    def mark_flush_bytes():
        """Mark once the size of the buffer do_bench clears between executions (Triton's L2 flush)."""
        flush_marked.append(1)
        try:
            from triton.runtime import driver
            c = driver.active.get_empty_cache_for_benchmark()
            mark("tc:flush_bytes %d" % (c.numel() * c.element_size()))
        except Exception:
            pass

    def _bench(self, *args, config, **meta):
        if not flush_marked:
            mark_flush_bytes()
        failure = []
        inner = self.do_bench  # Triton's benchmarker (a cached property): wrapped to see why a candidate failed

        def do_bench(fn, *a, **k):
            try:
                return inner(fn, *a, **k)
            except Exception as e:
                failure.append(type(e).__name__)
                raise

        had = "do_bench" in self.__dict__
        self.__dict__["do_bench"] = do_bench
        push(_label(self, config, meta))
        try:
            res = orig(self, *args, config=config, **meta)
            first = res[0] if isinstance(res, (list, tuple)) else res
            if first == float("inf"):
                mark("tc:failed " + (failure[0] if failure else "inf"))
            return res
        except BaseException as e:
            mark("tc:failed " + type(e).__name__)
            raise
        finally:
            pop()
            if had:
                self.__dict__["do_bench"] = inner
            else:
                self.__dict__.pop("do_bench", None)

    _bench._tc_wrapped = True
    Autotuner._bench = _bench


class _AutotunerFinder(importlib.abc.MetaPathFinder):
    """Wraps triton.runtime.autotuner right after it is first imported; imports nothing itself."""

    def find_spec(self, name, path, target=None):
        if name != "triton.runtime.autotuner":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_and_wrap(module):
            exec_module(module)
            try:
                _wrap(module)
            except Exception as e:
                print("tunecost record --triton: cannot label Triton's autotuner: %r" % (e,), file=sys.stderr)

        spec.loader.exec_module = exec_and_wrap
        return spec


if os.environ.get("TC_RECORD_HELION") == "1":
    try:
        import _tc_helion  # record/python/_tc_helion.py: Helion's autotuner labelled the same way

        _tc_helion.install()
    except Exception as e:  # never stop the user's program for it
        print("tunecost record --helion: cannot label Helion's autotuner: %r" % (e,), file=sys.stderr)
if os.environ.get("TC_RECORD_TRITON") == "1":
    if "triton.runtime.autotuner" in sys.modules:
        _wrap(sys.modules["triton.runtime.autotuner"])
    else:
        sys.meta_path.insert(0, _AutotunerFinder())
_run_shadowed_sitecustomize()
