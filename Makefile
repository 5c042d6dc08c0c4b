# Thin wrapper for the two quick-start commands (README.md); the build itself is meson's.
#   make demo   install dependencies, build, write the report of the shipped trace (data/) to ./report
#   make check  install dependencies, build, run the whole test suite
# Other targets: deps, build, test (no install step), clean. Set BUILD=dir to use another build directory and
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

.PHONY: demo check deps deps-test build test clean

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

$(BUILD)/build.ninja:
	meson setup $(BUILD) $(MESON_ARGS)

build: $(BUILD)/build.ninja
	ninja -C $(BUILD)

# The NVRTC compile of the whole kernel space (suite `slow`, only where the CUDA toolkit is) runs last and streams
# its progress (a line per tenth of the configurations), so the longest test is never silent.
test: build
	meson test -C $(BUILD) --print-errorlogs --no-suite slow
	@if meson test -C $(BUILD) --list 2>/dev/null | grep -q compile-all; then \
	  meson test -C $(BUILD) --print-errorlogs --suite slow --verbose; fi

clean:
	rm -rf $(BUILD)
