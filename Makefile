# rvsim — two commands do everything on a fresh Debian machine with Go:
#   make run    installs what is missing, builds, runs the main job
#   make test   installs what is missing, builds, runs every test
SHELL := /bin/bash
GO ?= go
RISCV_PREFIX ?= riscv64-linux-gnu-
export RISCV_PREFIX

BUILD := build
RVSIM := $(BUILD)/rvsim
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo dev)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all setup build run test bench benchmarks testprogs fuzz clean

all: build

# Installs the cross toolchain, qemu-user and libunicorn2 from Debian's
# packages if any is missing (sudo when not root). Idempotent.
setup:
	@./toolchain/setup.sh

build:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(RVSIM) ./cmd/rvsim

# The benchmark programs (riscv64, -O2 -static) and their expected outputs.
benchmarks: setup
	$(MAKE) -C benchmarks

# Bare-metal ISA tests and other guest programs used by the tests.
testprogs: setup
	$(MAKE) -C test/programs

# The main job: build everything and run every benchmark's test input.
run: setup build benchmarks
	$(RVSIM) benchmarks --input test --jobs $(JOBS)

# All tests. Tests that need cross-built programs require them here
# (RVSIM_REQUIRE_ARTIFACTS=1) instead of skipping.
test: setup build benchmarks testprogs
	RVSIM_REQUIRE_ARTIFACTS=1 $(GO) test ./...

# Speed: Go micro-benchmarks, then the benchmark suite's ref inputs under
# rvsim (one at a time, so MIPS figures are not shared with other runs)
# beside qemu-riscv64's time for the same runs.
bench: setup build benchmarks
	$(GO) test -run '^$$' -bench . -benchtime 2x ./mem/ ./cpu/ ./softfloat/ ./isa/
	$(RVSIM) benchmarks --input ref --jobs 1 --qemu

# Longer fuzzing runs than the seeds go test covers.
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 60s ./elf/
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime 60s ./isa/

clean:
	rm -rf $(BUILD)
