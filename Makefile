# posbias: the two commands a user needs are `make reproduce` and `make test`.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release

.PHONY: deps configure build all test reproduce bench format clean

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

reproduce: build
	./$(BUILD_DIR)/posbias reproduce --out out/report

bench: all
	./$(BUILD_DIR)/bench/theory_bench

format:
	git ls-files '*.cc' '*.cpp' '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR) out
