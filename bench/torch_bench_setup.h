// The opening of every libtorch benchmark: the process environment (OpenBLAS kernel, OpenMP
// waits), torch threads = cores, and the measured FMA peak that GFLOP/s are compared with.
// A benchmark links libtorch, so OpenBLAS and OpenMP have read the environment before main():
// when it has to change, the benchmark runs itself again once with the new environment.
#pragma once

#include <torch/torch.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

#include "posbias/core/machine.h"
#include "posbias/core/process_env.h"
#include "posbias/model/torch_setup.h"

namespace posbias::bench {

// Returns the measured FP32 FMA peak in GFLOP/s after printing the machine line.
inline double setup_torch_bench(char** argv) {
  configure_allocator();
  if (std::getenv("POSBIAS_NO_REEXEC") == nullptr && set_torch_environment(openblas_core_name())) {
    setenv("POSBIAS_NO_REEXEC", "1", 1);  // never loop
    execv("/proc/self/exe", argv);        // failed: carry on with the defaults
  }
  configure_torch();
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  const double peak = measure_fma_peak_gflops(cores);
  std::printf("machine: %d cores, torch threads %d, measured FP32 FMA peak %.1f GFLOP/s\n", cores,
              torch::get_num_threads(), peak);
  return peak;
}

}  // namespace posbias::bench
