// The opening of every libtorch benchmark: the process environment (OpenBLAS kernel, OpenMP
// waits), torch threads = cores, and the measured FMA peak that GFLOP/s are compared with.
#pragma once

#include <torch/torch.h>

#include <cstdio>
#include <thread>

#include "posbias/core/blas_kernel.h"
#include "posbias/core/doctor.h"
#include "posbias/core/machine.h"

namespace posbias::bench {

// Returns the measured FP32 FMA peak in GFLOP/s after printing the machine line.
inline double setup_torch_bench(char** argv) {
  configure_process_environment(argv);
  configure_torch();
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  const double peak = measure_fma_peak_gflops(cores);
  std::printf("machine: %d cores, torch threads %d, measured FP32 FMA peak %.1f GFLOP/s\n", cores,
              torch::get_num_threads(), peak);
  return peak;
}

}  // namespace posbias::bench
