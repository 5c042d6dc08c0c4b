# Thin wrapper for the two quick-start commands (README.md); the build itself is meson's.
#   make demo   install dependencies, build, write the report of the shipped trace (data/) to ./report
#   make check  install dependencies, build, run the whole test suite
# Other targets: check-slow (the NVRTC compile of the whole kernel space), check-peer (the PyPI peers), deps,
# configure, build, test (no install step), clean. Set BUILD=dir to use another build directory and
# MESON_ARGS=... to pass options (CI adds -Dwerror=true).

BUILD ?= build
MESON_ARGS ?=
TRACE ?=
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian 12 packages: build (meson, HDF5, GSL), tests (check, h5py, chromium for the rendering test),
# figures (gnuplot), JSON (json-c), Open MPI (`mpirun -np N tunecost collect`). The collector is built too when the
# CUDA toolkit is at /usr/local/cuda.
DEB_BUILD := build-essential pkg-config meson ninja-build libhdf5-dev libgsl-dev gnuplot-nox libjson-c-dev libopenmpi-dev openmpi-bin
DEB_TEST := check python3 python3-h5py python3-numpy hdf5-tools chromium clang libclang-rt-14-dev valgrind

.PHONY: demo check check-slow check-peer deps deps-test configure build test clean

demo: deps build
	./$(BUILD)/tunecost report $(TRACE) -o report
	@echo "report written: $$(pwd)/report/index.html (summary: $$(pwd)/report/summary.md)"

check: deps deps-test build test

deps:
	@if ! dpkg -s $(DEB_BUILD) >/dev/null 2>&1; then \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(DEB_BUILD); fi

deps-test:
	@if ! dpkg -s $(DEB_TEST) >/dev/null 2>&1; then \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(DEB_TEST); fi

# What meson looks for that a later `make deps-test` (or a CUDA install) can add: when it differs from what the build
# directory was configured with (its stamp), the directory is reconfigured, so that `make demo` then `make check`
# runs every suite (meson re-detects dependencies on --reconfigure).
DEPS_SIG = for p in check json-c hdf5 gsl ompi-c; do pkg-config --exists $$p 2>/dev/null && printf '%s ' $$p; done; \
	[ -e /usr/local/cuda/lib64/libnvrtc.so ] && printf 'cuda '; printf '%s' '$(MESON_ARGS)'

configure:
	@sig="$$($(DEPS_SIG))"; \
	if [ ! -f $(BUILD)/build.ninja ]; then \
	  meson setup $(BUILD) $(MESON_ARGS) || exit 1; \
	elif [ "$$sig" != "$$(cat $(BUILD)/.deps-stamp 2>/dev/null)" ]; then \
	  echo "dependencies found now: $$sig (configured with: $$(cat $(BUILD)/.deps-stamp 2>/dev/null || echo unknown)): reconfiguring $(BUILD)"; \
	  meson setup --reconfigure $(BUILD) $(MESON_ARGS) || exit 1; \
	fi; \
	printf '%s' "$$sig" >$(BUILD)/.deps-stamp

build: configure
	ninja -C $(BUILD)

# Right after meson's summary of the suites, tests/suites.sh says which tests were skipped and why, which suites
# this machine cannot run, and fails if one it can run is missing from the build directory. Where the CUDA toolkit
# is, `make check` NVRTC-compiles 24 configurations of the kernel space drawn with seed 0 (collect-compile-sample);
# the whole 576-configuration space (suite `slow`, about 8-11 min on 2 cores) is `make check-slow`, which CI runs
# after `make check` (.ci/run). It streams its progress (a line per tenth of the configurations and at least every
# 30 s, with an ETA). The suite `peer` (Kernel Tuner and the methodology package from PyPI) is `make check-peer`.
test: build
	@rc=0; meson test -C $(BUILD) --print-errorlogs --no-suite slow --no-suite peer || rc=$$?; \
	  tests/suites.sh $(BUILD) --strict || rc=1; \
	  exit $$rc

check-slow: build
	@if meson test -C $(BUILD) --list 2>/dev/null | grep -q compile-all; then \
	  meson test -C $(BUILD) --print-errorlogs --suite slow --verbose; \
	else echo "check-slow: no suite slow in $(BUILD) (it needs the CUDA toolkit at /usr/local/cuda)"; fi

check-peer: build
	meson test -C $(BUILD) --print-errorlogs --suite peer

clean:
	rm -rf $(BUILD)
