# stub of torch.cuda.nvtx (tests/helion-stub/README.md): every call appended to LOG
LOG = []
_ids = [0]


def range_push(msg):
    LOG.append(("push", msg))
    return 0


def range_pop():
    LOG.append(("pop",))
    return 0


def mark(msg):
    LOG.append(("mark", msg))


def range_start(msg):
    _ids[0] += 1
    LOG.append(("start", msg, _ids[0]))
    return _ids[0]


def range_end(rid):
    LOG.append(("end", rid))
