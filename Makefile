# posbias: the two commands a user needs are `make reproduce` and `make test`.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release

.PHONY: deps configure build all test reproduce bench fuzz format clean install

deps:
	bash scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD_DIR) $(CMAKE_FLAGS) >/dev/null

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target posbias

all: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

test: all
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# Installs under PREFIX: bin/posbias, lib/posbias (the executable and its modules), the headers,
# share/posbias (templates, the Brown corpus). DESTDIR stages it elsewhere.
PREFIX ?= /usr/local
install: build
	cmake --build $(BUILD_DIR) -j $(JOBS) --target posbias_spm
	cmake --install $(BUILD_DIR) --prefix $(PREFIX)

reproduce: build
	./$(BUILD_DIR)/posbias reproduce --out out/report

bench: all
	./$(BUILD_DIR)/bench/theory_bench
	./$(BUILD_DIR)/bench/birth_bench
	./$(BUILD_DIR)/bench/train_bench
	./$(BUILD_DIR)/bench/train_bench text
	./$(BUILD_DIR)/bench/train_bench ranks letter
	./$(BUILD_DIR)/bench/long_context_bench --report-16k docs/data/long-context
	bash bench/serve_load.sh ./$(BUILD_DIR)/posbias "" 10 8

# libFuzzer with clang, ASan and UBSan; FUZZ_SECONDS per target.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := csv numbers safetensors safetensors_index hf_config hop_example token_file \
  openai birth_run brown_corpus training_seed hop_metrics sweep_grid tokenizer_json
fuzz: deps
	cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
	  -DPOSBIAS_FUZZ=ON -DPOSBIAS_TESTS=OFF -DPOSBIAS_BENCH=OFF >/dev/null
	cmake --build build-fuzz -j $(JOBS) --target $(addsuffix _fuzz,$(FUZZ_TARGETS))
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p build-fuzz/corpus-$$t && cp fuzz/corpus/$$t/* build-fuzz/corpus-$$t/ && \
	  ./build-fuzz/fuzz/$${t}_fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=65536 build-fuzz/corpus-$$t || exit 1; \
	done

format:
	git ls-files '*.cc' '*.cpp' '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR) build-fuzz out
