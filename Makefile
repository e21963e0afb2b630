# The README's two commands. Both install what is missing, then build.
#   make run   benchmark the built-in models: LibTorch's best single backend
#              (ofi), OpenVINO, ONNX Runtime and auto, the fastest of all in
#              float32; OpenVINO's bf16 and both runtimes' int8, with costs
#   make test  run the unit and end-to-end tests
BUILD_DIR ?= build
JOBS ?= $(shell nproc)

.PHONY: deps peers-env build run test test-fast record-expected-rows record-expected-rows-torch2 bench bench-peers slurm-e2e bench-python bench-backends torch2-env build-torch2 torch2-tests-built test-torch2 test-torch2-performance-corpus bench-compile bench-xla-peer clean

deps:
	./scripts/install-deps.sh

# OpenVINO (its C++ SDK) and ONNX Runtime from PyPI, for the openvino and
# onnxruntime backends (docs/peers.md).
peers-env: deps
	./scripts/setup-peers.sh build-peers/venv

build: deps peers-env
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Then OpenVINO at bf16 and both runtimes' static int8, each row with its
# accuracy cost, and the grid of the fastest cell within the default budget
# (report/precision_grid.h; a CPU without native bf16 or int8 says why not).
run: build
	$(BUILD_DIR)/tracebench --performance --backend=eager,ofi,openvino,onnxruntime,auto,openvino_bf16,openvino_int8,onnxruntime_int8 --batch-size 1 -n 15

# --output-junit: which tests skipped, for .ci/run's check (scripts/check_skips.py).
test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS) --output-junit ctest-junit.xml

# The edit-compile-test loop: the unit and end-to-end tests, without the lazy
# backends, the corpora, the zoo's references and the fuzzers (README: Tests).
test-fast: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS) -L '^(unit|e2e)$$' -LE fuzz

# tests/corpus/expected_rows.csv from what the corpus and hub tests see on
# this build: each test writes its rows to observed-rows/, whatever it
# asserts; scripts/corpus_table.py takes their statuses and reasons (notes
# kept) and regenerates docs/backends.md. git diff shows what changed.
CORPUS_ROW_TESTS = ^(Corpus/UserModelCorpus|Hub/HubModelCorpus)\.
define record_expected_rows
	rm -rf $(1)/tests/corpus/observed-rows
	-ctest --test-dir $(1) -j $(JOBS) -R '$(CORPUS_ROW_TESTS)'
	scripts/corpus_table.py --record $(1)/tests/corpus/observed-rows
	scripts/corpus_table.py --write docs/backends.md
endef
record-expected-rows: build
	$(call record_expected_rows,$(BUILD_DIR))
record-expected-rows-torch2: torch2-tests-built
	$(call record_expected_rows,$(TORCH2_BUILD_DIR))

bench: build
	$(BUILD_DIR)/bench/harness_overhead

# Opt-in, not in `make test`: a 2-task Slurm array on a one-node Slurm started
# on this machine, merged and checked (docs/scale-out.md). Needs root.
slurm-e2e: build
	./scripts/slurm_e2e.sh $(BUILD_DIR)/tracebench

# C++ eager against Python eager (torchvision) on the same LibTorch, batch 1.
bench-python: build
	/usr/bin/python3 bench/vs_python.py --tracebench $(BUILD_DIR)/tracebench

# tracebench's ofi, auto and auto at int8 tolerance against what a Python user
# gets from optimize_for_inference(freeze(trace(m))): same weights, batch 1,
# processes alternated (docs/performance.md); then ofi's graph against Python's in
# one process, without the spread between processes.
bench-backends: build
	/usr/bin/python3 bench/vs_python.py --tracebench $(BUILD_DIR)/tracebench --python-recipe ofi --backend ofi
	/usr/bin/python3 bench/vs_python.py --tracebench $(BUILD_DIR)/tracebench --python-recipe ofi --backend auto
	/usr/bin/python3 bench/vs_python.py --tracebench $(BUILD_DIR)/tracebench --python-recipe ofi --backend auto --auto-tolerance int8
	/usr/bin/python3 bench/ofi_same_process.py --tracebench $(BUILD_DIR)/tracebench

# tracebench's auto, openvino and onnxruntime against OpenVINO's and ONNX Runtime's
# own Python APIs on the same weights, batch 1 and 8, processes alternated
# (docs/performance.md); then below float32 at batch 1: openvino_bf16 and auto
# within a budget against OpenVINO at its own default precision, and each int8
# backend against its runtime's API on the same quantized model (docs/peers.md).
bench-peers: build
	build-peers/venv/bin/python bench/peers.py --tracebench $(BUILD_DIR)/tracebench
	build-peers/venv/bin/python bench/peers.py --tracebench $(BUILD_DIR)/tracebench --batch-sizes 1 \
	  --sides "auto budget" openvino_bf16 "openvino default API" openvino_int8 "openvino_int8 API" \
	  onnxruntime_int8 "onnxruntime_int8 API"

# PyTorch 2.15 from PyPI in build-torch2/venv, checked (docs/pytorch2.md).
torch2-env: deps
	./scripts/setup-torch2.sh build-torch2/venv
	./scripts/setup-peers.sh build-torch2/venv

# tracebench against that LibTorch (C++20), and its tests there. The fuzzers
# use no LibTorch (fuzz/CMakeLists.txt): the Debian build runs them.
TORCH2_BUILD_DIR ?= build-torch2/cmake
TORCH2_ROOT = $$(build-torch2/venv/bin/python -c 'import os, torch; print(os.path.dirname(torch.__file__))')
build-torch2: torch2-env
	cmake -S . -B $(TORCH2_BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DTRACEBENCH_BUILD_TESTS=OFF -DTRACEBENCH_BUILD_BENCHMARKS=OFF -DTRACEBENCH_TORCH_ROOT=$(TORCH2_ROOT)
	cmake --build $(TORCH2_BUILD_DIR) -j $(JOBS) --target tracebench

torch2-tests-built: torch2-env
	cmake -S . -B $(TORCH2_BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DTRACEBENCH_BUILD_TESTS=ON -DTRACEBENCH_BUILD_BENCHMARKS=OFF -DTRACEBENCH_FUZZ=OFF \
	  -DTRACEBENCH_TORCH_ROOT=$(TORCH2_ROOT)
	cmake --build $(TORCH2_BUILD_DIR) -j $(JOBS)

test-torch2: torch2-tests-built
	ctest --test-dir $(TORCH2_BUILD_DIR) --output-on-failure -j $(JOBS) -E '$(NOT_IN_TORCH2_CI)' \
	  --output-junit ctest-junit.xml

# The corpus and hub models' performance-mode rows on 2.x (docs/pytorch2.md):
# the same table, about 23 minutes of one core (12 on two) that CI does not spend.
test-torch2-performance-corpus: torch2-tests-built
	ctest --test-dir $(TORCH2_BUILD_DIR) --output-on-failure -j $(JOBS) -R '$(CORPUS_PERFORMANCE_TESTS)'

# Tests of the harness's own logic (flag errors, report files, crash
# isolation, the launcher's environment), whatever LibTorch it links: `make
# test` runs them, so the 2.x build, which CI builds in the same 90 minutes,
# leaves them out.
HARNESS_ONLY_TESTS = ^(Cases/CliBadInput|Reports|Robustness|RobustnessCli|Launcher)\.
# On 2.x, CI checks the corpus and hub rows in accuracy mode, which compiles
# every backend and compares its outputs; the performance mode's own path is
# shared code that `make test` runs on Debian over the same corpus, and the
# 2.x-only backends are timed by tests/e2e/peer_runtimes_test.cpp.
CORPUS_PERFORMANCE_TESTS = $(CORPUS_ROW_TESTS)EveryBackendMeasuresIt/
NOT_IN_TORCH2_CI = $(HARNESS_ONLY_TESTS)|$(CORPUS_PERFORMANCE_TESTS)

# The 2.x build's auto against torch.compile(mode="max-autotune-no-cudagraphs") with
# inductor's freezing, same weights and processes alternated (docs/performance.md).
bench-compile: build-torch2
	build-torch2/venv/bin/python bench/vs_python.py --tracebench $(TORCH2_BUILD_DIR)/tracebench \
	  --python-recipe compile --backend auto --models resnet18 resnet50 alexnet mobilenet_v2 squeezenet1_1

# The seed's experiment with the real torch_xla (CPU PJRT device) beside tracebench's lazy
# backends, same weights (docs/performance.md).
bench-xla-peer: build
	./scripts/setup-torch-xla.sh build-xla/venv
	build-xla/venv/bin/python bench/torch_xla_peer.py --tracebench $(BUILD_DIR)/tracebench

clean:
	rm -rf $(BUILD_DIR)
