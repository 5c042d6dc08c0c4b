#!/usr/bin/env bash
# pyvenv.sh DIR PKG... — a Python virtual environment in DIR with PKG... installed from PyPI (made once, reused
# while the package list is the same; concurrent tests wait on a lock), for the tests that run tunecost's peers
# (Kernel Tuner, autotuning_methodology). Prints the environment's python on stdout. pip reads its own environment:
# PIP_NO_INDEX=1 PIP_FIND_LINKS=DIR install from a folder of wheels without network. TC_PYVENV_SYSTEM=1 makes the
# environment see the system's site packages (--system-site-packages: a NumPy and SciPy installed there that meet
# the requirements are used, not installed again; where python3 itself runs in a virtual environment, that
# environment's packages too, through a .pth file).
# Exit: 0, or 77 (the caller's skip) when python3 -m venv is missing or pip cannot install (no network, as in CI).
set -u
DIR=${1:?usage: pyvenv.sh DIR PKG...}
shift
mkdir -p "$(dirname "$DIR")" || exit 77
exec 9>"$DIR.lock"
flock 9
want="$*"
venv_opts=()
if [ "${TC_PYVENV_SYSTEM:-0}" = 1 ]; then
    venv_opts=(--system-site-packages)
    want="$want (system site packages)"
fi
if [ -x "$DIR/bin/python" ] && [ "$(cat "$DIR/.installed" 2>/dev/null)" = "$want" ]; then
    echo "$DIR/bin/python"
    exit 0
fi
rm -rf "$DIR"
if ! python3 -m venv ${venv_opts[@]+"${venv_opts[@]}"} "$DIR" >&2; then
    echo "SKIP: python3 -m venv is not available" >&2
    rm -rf "$DIR"
    exit 77
fi
if [ "${TC_PYVENV_SYSTEM:-0}" = 1 ]; then
    # --system-site-packages reaches the base interpreter's packages only: a python3 that is itself a virtual
    # environment's (as on machines that ship PyTorch in one) lends its own packages through a .pth file
    parent=$(python3 -c 'import sys, sysconfig
if sys.prefix != sys.base_prefix: print(sysconfig.get_paths()["purelib"])') &&
        mine=$("$DIR/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') &&
        { [ -z "$parent" ] || echo "$parent" >"$mine/tc-parent-venv.pth"; } || { rm -rf "$DIR"; exit 77; }
fi
if ! "$DIR/bin/pip" install --disable-pip-version-check -q --retries 1 --timeout 30 "$@" >&2; then
    echo "SKIP: pip could not install $want (no network?)" >&2
    rm -rf "$DIR"
    exit 77
fi
echo "$want" >"$DIR/.installed"
echo "$DIR/bin/python"
