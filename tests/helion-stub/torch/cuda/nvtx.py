# stub of torch.cuda.nvtx (tests/helion-stub/README.md): every call appended to LOG; in a child process (Helion's
# benchmark worker) also to the file TC_STUB_NVTX_LOG names, when set, one call a line with '|' between fields
import multiprocessing
import os

LOG = []
_ids = [0]


def _log(entry):
    LOG.append(entry)
    path = os.environ.get("TC_STUB_NVTX_LOG")
    if path and multiprocessing.parent_process() is not None:
        with open(path, "a") as f:
            f.write("|".join(str(x) for x in entry) + "\n")


def range_push(msg):
    _log(("push", msg))
    return 0


def range_pop():
    _log(("pop",))
    return 0


def mark(msg):
    _log(("mark", msg))


def range_start(msg):
    _ids[0] += 1
    _log(("start", msg, _ids[0]))
    return _ids[0]


def range_end(rid):
    _log(("end", rid))
