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

.PHONY: all setup build run test slurm-test soak bench pgo timing-guard benchmarks testprogs handlers fuzz clean experiments experiments-pathprof real-inputs real-expected

all: build

# Installs the cross toolchain, qemu-user, libunicorn2, mmdebstrap, valgrind, chromium and csmith from
# Debian's packages if any is missing (sudo when not root), then builds the
# default riscv64 root of Debian packages (build/rootfs: python3, sqlite3,
# lua5.4, the compressors, cc1; about 22 s and 246 MB the first time; later
# runs reuse it: its stamp records the package list). Idempotent.
ROOTFS := $(BUILD)/rootfs
setup:
	@./toolchain/setup.sh
	@$(GO) run ./cmd/rvsim rootfs create $(ROOTFS)

build: handlers
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(RVSIM) ./cmd/rvsim

# Profile-guided optimization (docs/SPEED.md): go build reads
# cmd/rvsim/default.pgo (experiments/benchtable and experiments/sampling,
# which simulate in-process, link to it). `make pgo` regenerates it from a
# binary built without it, on the run mix of bench/pgo-profile.sh; refresh
# it after large changes to the simulator's hot code (a stale profile costs
# speed, never results).
pgo: setup benchmarks handlers
	$(GO) build -pgo=off -o $(BUILD)/rvsim-nopgo ./cmd/rvsim
	./bench/pgo-profile.sh $(BUILD)/rvsim-nopgo cmd/rvsim/default.pgo

# The DISE/HPS profiling-handler runtime (build/handlers/rvsim-handlers.elf,
# found by rvsim beside its binary) and its register-preservation test program.
handlers: setup
	$(MAKE) -C toolchain/handlers

# The benchmark programs (riscv64, -O2 -static) and their expected outputs.
benchmarks: setup
	$(MAKE) -C benchmarks

# The real suite's generated inputs (suite/real.toml, docs/SUITES.md):
# corpora and SQL scripts (workloads/real/gen) into build/real, and the
# root's byte-compiled Python modules. real-expected records its expected
# outputs (workloads/real/expected) under qemu-riscv64.
real-inputs: setup build
	$(MAKE) -C workloads/real inputs
real-expected: real-inputs
	$(MAKE) -C workloads/real expected

# Bare-metal ISA tests and other guest programs used by the tests.
testprogs: setup
	$(MAKE) -C test/programs

# The main job: build everything and run every benchmark's test input.
# Then the profiler comparison (docs/COMPARISON.md) of every profiler
# family on the OoO timing model (the hps machine): DISE/HPS sampling of
# code regions, methods and call pairs (1/100 events), stratified
# sampling, multi-hash (value and edge), hardware path profiling and the
# phase tracker, each scored by cost, accuracy and storage; tables in
# build/compare/ (compare.{csv,md,json}) and the report, build/compare/index.html
# (figures in build/compare/plots/; docs/REPORT.md), its cells cached in
# build/compare/cache. `make run PROFILERS=events` runs the HPS paper's
# DISE-only against HPS comparison instead, `PROFILERS=windows` its
# time-window variant.
PROFILERS := families
run: setup build benchmarks
	$(RVSIM) benchmarks --input test --jobs $(JOBS)
	$(RVSIM) compare --profilers $(PROFILERS) --benchmarks all --input test --mode timing --preset hps \
		--jobs $(JOBS) --out $(BUILD)/compare

# All tests. Tests that need cross-built programs require them here
# (RVSIM_REQUIRE_ARTIFACTS=1) instead of skipping.
test: setup build benchmarks testprogs real-inputs
	RVSIM_REQUIRE_ARTIFACTS=1 $(GO) test -timeout 30m ./...
	./bench/timing-guard.sh $(RVSIM)

# The Slurm round trip (docs/COMPARISON.md, "Running on Slurm"): installs
# slurm-wlm and munge if missing (only this target does), starts a
# one-node cluster in a temporary directory (test/slurm/cluster.sh), runs a
# stand-in job array, then a small comparison (two benchmarks' test inputs,
# two profilers, timing mode) emitted as a job array, merged, and diffed
# with the same comparison run locally; stops the cluster. About a minute.
slurm-test: setup build benchmarks
	@./toolchain/setup.sh --slurm
	RVSIM=$(RVSIM) ./test/slurm/roundtrip.sh all

# The sandbox race test (test/race_test.go) for 10 minutes instead of
# 100,000 swaps: two guests, one swapping a directory with symbolic links,
# the other modifying files through it; it reports the swaps tried.
SOAK ?= 10m
soak: setup build testprogs
	RVSIM_REQUIRE_ARTIFACTS=1 RVSIM_SOAK=$(SOAK) $(GO) test -count=1 -v -run '^TestSandboxRace$$' -timeout 2h ./test/

# Speed: Go micro-benchmarks, then issue 25's one table (experiments/benchtable,
# docs/SPEED.md "The speed table"), printed last: the benchmark suite's ref
# inputs under rvsim in functional mode beside qemu-riscv64 (best of 3
# alternating runs of each), then in timing mode (default preset), every
# profhw preset's speed relative to plain runs (functional on the ref inputs,
# timing on the test inputs of lisp, lz, gametree, raytrace), and the sampled
# simulation's CPI error and speed-up read from experiments/sampling's tables in
# build/experiments/sampling (`make experiments`; not re-run here). Written to
# build/bench/table.md and spliced into docs/SPEED.md. Hours of CPU on 2 cores;
# a check in minutes: go run ./experiments/benchtable -input test -benchmarks lisp,lz
# -rounds 1 -profhw-presets stratified-value,path-bl -profhw-programs lisp -profhw-rounds 1
bench: setup build benchmarks
	$(GO) test -run '^$$' -bench . -benchtime 2000000x ./mem/ ./isa/
	$(GO) test -run '^$$' -bench . ./softfloat/
	$(GO) test -run '^$$' -bench Interpreter -benchtime 200000000x ./cpu/
	$(GO) test -run '^$$' -bench '^BenchmarkTap$$' -benchtime 100000000x ./cpu/
	$(GO) test -run '^$$' -bench '^BenchmarkTapRecords$$' -benchtime 3x ./cpu/
	$(GO) test -run '^$$' -bench Core -benchtime 5000000x ./pipeline/
	$(GO) test -run '^$$' -bench Deep -benchtime 20000x ./syscalls/
	$(GO) test -run '^$$' -bench . -benchtime 5x ./profhw/pathprof/
	$(GO) test -run '^$$' -bench Lockstep -benchtime 3000000x ./difftest/
	$(GO) test -run '^$$' -bench . -benchtime 2000000x ./profhw/multihash/
	$(GO) test -run '^$$' -bench 'Compressor|UnitRetire|PushAll' -benchtime 2000000x ./profhw/stratified/
	$(GO) test -run '^$$' -bench Speed -benchtime 3x ./profhw/stratified/
	$(GO) test -run '^$$' -bench Cluster -benchtime 2x ./profhw/simpoint/
	@mkdir -p $(BUILD)/bench
	# the profiling units' host instructions per guest instruction (callgrind; docs/SPEED.md, "Issue 25")
	@if command -v valgrind >/dev/null; then ./bench/profhw-ir.sh $(RVSIM) lisp $(BUILD)/bench/ir | tee $(BUILD)/bench/profhw-ir.txt; \
	else echo "bench: no valgrind, profhw-ir.sh skipped"; fi
	# CoreMark/MHz of the sonicboom and default machines (docs/TIMING.md, "Against a
	# real core"), when COREMARK=DIR names a CoreMark source tree (not fetched here)
	@if [ -n "$(COREMARK)" ]; then ./bench/coremark.sh $(COREMARK) $(RVSIM) $(BUILD)/bench/coremark.md; \
	else echo "bench: COREMARK=DIR not set, CoreMark/MHz skipped (docs/TIMING.md)"; fi
	# the table (issue 25): every figure beside its peer or goal, measured in this run
	$(GO) run ./experiments/benchtable -input ref -rounds 3 -out $(BUILD)/bench -sampling $(BUILD)/experiments/sampling -doc docs/SPEED.md

# The timing model's cycle-exactness guard (docs/TIMING.md, "Speed"): every
# benchmark's test input under the default and hps presets; every statistic
# must equal the recorded copy in bench/timing-guard/. About half a minute.
timing-guard: build benchmarks
	./bench/timing-guard.sh $(RVSIM)

# The papers' experiments (docs/EXPERIMENTS.md), each scaled to run in
# minutes on 2 cores. Every generated block ends with its provenance (rvsim
# version, configuration SHA-256s, the command); the figures (stratified's Fig. 4
# and convergence curves, multihash -long's error per interval, phase -sampling's
# Fig. 11, pathprof experiment 1's overlap by HPT size) are drawn into
# docs/figures/ by the same runs, from the data of their tables, and linked from
# their blocks.
experiments: setup build benchmarks real-inputs experiments-pathprof
	# the real suite (docs/SUITES.md): instructions, distinct paths and load values, the 512x4 HPT's
	# overlap (first 300M instructions of each run), functional speed, timing speed over the first 5M
	$(GO) run ./experiments/realsuite -inputs test,ref -profile-insts 300000000 -timing-insts 5000000 -doc docs/SUITES.md
	# multi-hash-profiling.md, experiments 1-6: ref inputs, first 30M instructions
	# (-doc: the tables also go between their markers in docs/EXPERIMENTS.md)
	$(GO) run ./experiments/multihash -input ref -max-insts 30000000 -jobs $(JOBS) -out $(BUILD)/experiments/multihash -doc docs/EXPERIMENTS.md
	# the paper's long configuration (1M @ 0.1%) alone, on the first 200M instructions
	$(GO) run ./experiments/multihash -long -input ref -max-insts 200000000 -jobs $(JOBS) -out $(BUILD)/experiments/multihash -doc docs/EXPERIMENTS.md
	# the same on four workloads of the real suite (docs/SUITES.md), ref inputs, first 100M instructions
	$(GO) run ./experiments/multihash -suite real -long -input ref -max-insts 100000000 -benchmarks python3-text,sqlite3,cc1,xz -jobs $(JOBS) -out $(BUILD)/experiments/multihash -doc docs/EXPERIMENTS.md
	# its commit stalls in timing mode, the queue and throughput varied (test inputs)
	$(GO) run ./experiments/multihash -stalls -jobs $(JOBS) -out $(BUILD)/experiments/multihash -doc docs/EXPERIMENTS.md
	# stratified-sampling.md: Fig. 4 (Monte Carlo), then experiments 2-5, the tagged compressor's thresholds and
	# the real handler on test inputs over seeds 1-5 (55 runs); the tables are spliced into docs/EXPERIMENTS.md
	@mkdir -p $(BUILD)/experiments/stratified
	$(RVSIM) montecarlo --csv $(BUILD)/experiments/stratified/fig4.csv | tee $(BUILD)/experiments/stratified/fig4.txt
	$(GO) run ./experiments/stratified --input test --seeds 5 --jobs $(JOBS) --montecarlo --out $(BUILD)/experiments/stratified --doc docs/EXPERIMENTS.md
	# experiment 2's convergence (R256, P256, H[P256]2048) on the real suite's ref inputs, first 100M instructions,
	# functional mode, seeds 1-5 on one run per workload (9 runs)
	$(GO) run ./experiments/stratified -suite real -input ref -max-insts 100000000 -functional -core -exact=false -seeds 5 -jobs $(JOBS) -out $(BUILD)/experiments/stratified-real -doc docs/EXPERIMENTS.md
	# hps-phase-aware-remote-profiling.md §4: the Phase Tracker's phases and next-phase prediction accuracy,
	# test and ref inputs (whole runs), spliced into docs/EXPERIMENTS.md
	$(GO) run ./experiments/phase --inputs test,ref --jobs $(JOBS) --out $(BUILD)/experiments/phase --doc docs/EXPERIMENTS.md
	# hps-phase-aware-remote-profiling.md §5.3-5.4, experiments 1-5 (Fig. 10-13, 15): ref inputs, 1M-instruction
	# intervals, one functional run per benchmark plus timing runs of its test input for the instrumentation's cost
	$(GO) run ./experiments/phase -sampling -input ref -interval 1000000 -jobs $(JOBS) -out $(BUILD)/experiments/phase -doc docs/EXPERIMENTS.md
	# the same on the real suite (issue 20): ref inputs, first 300M instructions of each (-max-insts), 1M intervals
	$(GO) run ./experiments/phase -sampling -suite real -input ref -max-insts 300000000 -interval 1000000 -jobs $(JOBS) -out $(BUILD)/experiments/phase -doc docs/EXPERIMENTS.md
	# issue 20: SimPoint-sampled timing against full timing runs (CPI error, error estimate, speed-up), builtin suite,
	# test inputs (1M intervals) and ref inputs (10M intervals, 1M warm-up); the real suite's ref inputs likewise.
	# Tables spliced into docs/SPEED.md
	$(GO) run ./experiments/sampling -suite builtin -input test -interval 1000000 -warmup 200000 -jobs $(JOBS) -out $(BUILD)/experiments/sampling -doc docs/SPEED.md
	$(GO) run ./experiments/sampling -suite builtin -input ref -interval 10000000 -warmup 1000000 -warming 10M,off -jobs $(JOBS) -out $(BUILD)/experiments/sampling -doc docs/SPEED.md
	$(GO) run ./experiments/sampling -suite builtin -input ref -interval 1000000 -warmup 100000 -max-k 30 -warming 2M,10M,off -reuse-full -table builtin-ref-1M -jobs $(JOBS) -out $(BUILD)/experiments/sampling -doc docs/SPEED.md
	$(GO) run ./experiments/sampling -suite real -input ref -interval 10000000 -warmup 1000000 -warming 10M,off -jobs $(JOBS) -out $(BUILD)/experiments/sampling -doc docs/SPEED.md
	$(GO) run ./experiments/sampling -suite real -input ref -interval 1000000 -warmup 100000 -max-k 30 -warming 5M,10M,2M -reuse-full -table real-ref-1M -jobs $(JOBS) -out $(BUILD)/experiments/sampling -doc docs/SPEED.md
	# where the error comes from (the clustering or the timed windows) on the inputs the defaults serve worst, the
	# clustering error against the largest k with each way of picking the representatives (-k-sweep: no timing
	# run), and cc1/bzip2 with 1M intervals and k <= 100
	$(GO) run ./experiments/sampling -suite real -input ref -benchmarks cc1,bzip2 -interval 10000000 -warmup 1000000 -warming 10M -max-k 10 -reuse-full -table real-ref-why -jobs $(JOBS) -out $(BUILD)/experiments/sampling -doc docs/SPEED.md
	$(GO) run ./experiments/sampling -suite real -input ref -benchmarks cc1,bzip2 -interval 1000000 -warmup 100000 -warming 10M -max-k 30 -reuse-full -table real-ref-why-1M -jobs $(JOBS) -out $(BUILD)/experiments/sampling -doc docs/SPEED.md
	$(GO) run ./experiments/sampling -suite builtin -input ref -benchmarks hashjoin,gametree -interval 10000000 -warmup 1000000 -warming 10M -max-k 10 -reuse-full -table builtin-ref-why -jobs $(JOBS) -out $(BUILD)/experiments/sampling -doc docs/SPEED.md
	$(GO) run ./experiments/sampling -suite builtin -input ref -benchmarks hashjoin,gametree -interval 1000000 -warmup 100000 -warming 2M -max-k 30 -reuse-full -table builtin-ref-why-1M -jobs $(JOBS) -out $(BUILD)/experiments/sampling -doc docs/SPEED.md
	$(GO) run ./experiments/sampling -suite real -input ref -interval 10000000 -k-sweep 10,20,30,50,100 -table real-ref-ksweep -jobs $(JOBS) -out $(BUILD)/experiments/sampling -doc docs/SPEED.md
	$(GO) run ./experiments/sampling -suite builtin -input ref -interval 10000000 -k-sweep 10,20,30 -table builtin-ref-ksweep -jobs $(JOBS) -out $(BUILD)/experiments/sampling -doc docs/SPEED.md
	$(GO) run ./experiments/sampling -suite real -input ref -interval 1000000 -k-sweep 10,30,60,100 -table real-ref-ksweep-1M -jobs $(JOBS) -out $(BUILD)/experiments/sampling -doc docs/SPEED.md
	$(GO) run ./experiments/sampling -suite real -input ref -benchmarks cc1,bzip2 -interval 1000000 -warmup 100000 -max-k 100 -warming 10M,2M,on -reuse-full -table real-ref-1M-k100 -jobs $(JOBS) -out $(BUILD)/experiments/sampling -doc docs/SPEED.md
	$(GO) run ./experiments/sampling -suite real -input ref -benchmarks xz-d,lua5.4 -interval 10000000 -warmup 1000000 -warming 10M -max-k 10 -reuse-full -table real-ref-jit -jobs $(JOBS) -out $(BUILD)/experiments/sampling -doc docs/SPEED.md
	# docs/COMPARISON.md's tables: every family (timing, hps machine), the ACF profilers' accuracy (functional:
	# events, windows, exhaustive) and DISE-only against HPS sampling (events and windows, timing), test inputs
	$(GO) run ./experiments/comparison -input test -jobs $(JOBS) -out $(BUILD)/experiments/comparison -doc docs/COMPARISON.md
	# DISE-only against HPS (events and windows, timing, hps machine) on the real suite (issue 20): ref inputs,
	# first 20M application instructions of each run (-max-insts); the events summary also into docs/EXPERIMENTS.md
	$(GO) run ./experiments/comparison -suite real -input ref -max-insts 20000000 -only events,windows -jobs $(JOBS) -out $(BUILD)/experiments/comparison -doc docs/COMPARISON.md -summary docs/EXPERIMENTS.md

# hardware-path-profiling.md §8 (experiments/pathprof): every experiment
# on the test inputs, then experiments 1 and 6 on the ref inputs (whole
# runs: 365-467M instructions each, one unit per HPT configuration, so
# fewer configurations) and on the real suite's (first 300M instructions); the tables are spliced into docs/EXPERIMENTS.md
# between <!-- pathexp:NAME --> markers (NAME: the file's base name).
PATHEXP_OUT := $(BUILD)/experiments/pathprof
experiments-pathprof: real-inputs
	mkdir -p $(PATHEXP_OUT)
	$(GO) run ./experiments/pathprof -exp 1 > $(PATHEXP_OUT)/pathprof-1-hpt.md
	$(GO) run ./experiments/pathprof -exp 2 > $(PATHEXP_OUT)/pathprof-2-3-metrics.md
	$(GO) run ./experiments/pathprof -exp 4 > $(PATHEXP_OUT)/pathprof-4-overhead.md
	$(GO) run ./experiments/pathprof -exp 5 > $(PATHEXP_OUT)/pathprof-5-extended.md
	$(GO) run ./experiments/pathprof -exp 6 > $(PATHEXP_OUT)/pathprof-6-phase.md
	$(GO) run ./experiments/pathprof -exp 7 > $(PATHEXP_OUT)/pathprof-7-wpp.md
	$(GO) run ./experiments/pathprof -exp 1 -input ref -window 2500000 -hpt 128x4,512x2,512x4,512x32,2048x4 > $(PATHEXP_OUT)/pathprof-1-hpt-ref.md
	$(GO) run ./experiments/pathprof -exp 6 -functional -input ref -interval 1000000 > $(PATHEXP_OUT)/pathprof-6-phase-ref.md
	$(GO) run ./experiments/pathprof -exp 7 -input ref > $(PATHEXP_OUT)/pathprof-7-wpp-ref.md
	$(GO) run ./experiments/pathprof -exp 1 -suite real -input ref -max-insts 300000000 -window 2500000 -hpt 128x4,512x4,2048x4 > $(PATHEXP_OUT)/pathprof-1-hpt-real.md
	$(GO) run ./experiments/pathprof -exp 6 -functional -suite real -input ref -max-insts 300000000 -interval 1000000 > $(PATHEXP_OUT)/pathprof-6-phase-real.md
	$(GO) run ./experiments/pathprof -splice docs/EXPERIMENTS.md $(PATHEXP_OUT)/*.md

# Longer fuzzing runs than the seeds go test covers (docs/TESTS.md lists
# every target). Patterns are anchored: -fuzz must match one target.
# Slow targets (each input parses a whole file) minimise for at most 5s.
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 60s -fuzzminimizetime 5s ./elf/
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime 60s ./isa/
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 60s ./dise/
	$(GO) test -run '^$$' -fuzz '^FuzzParseTrigger$$' -fuzztime 60s ./dise/
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 60s -fuzzminimizetime 5s ./config/
	$(GO) test -run '^$$' -fuzz '^FuzzParseSpec$$' -fuzztime 60s ./profhw/stratified/
	$(GO) test -run '^$$' -fuzz '^FuzzConfig$$' -fuzztime 60s ./profhw/stratified/
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 60s ./profhw/
	$(GO) test -run '^$$' -fuzz '^FuzzParseSetting$$' -fuzztime 60s ./profhw/
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 60s ./suite/
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 60s ./sampling/
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeFrame$$' -fuzztime 60s ./collector/
	$(GO) test -run '^$$' -fuzz '^FuzzDecodePayload$$' -fuzztime 60s ./collector/
	$(GO) test -run '^$$' -fuzz '^FuzzUpload$$' -fuzztime 60s ./collector/
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime 60s ./profile/
	$(GO) test -run '^$$' -fuzz '^FuzzRunFlags$$' -fuzztime 60s ./cmd/rvsim/
	$(GO) test -run '^$$' -fuzz '^FuzzSimpointFlags$$' -fuzztime 60s ./cmd/rvsim/
	$(GO) test -run '^$$' -fuzz '^FuzzSeccompFilter$$' -fuzztime 60s ./syscalls/
	$(GO) test ./difftest/ -run TestRandomPrograms -timeout 60m -difftest.seed 100000 -difftest.count 50000

clean:
	rm -rf $(BUILD)
