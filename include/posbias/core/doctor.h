// `posbias doctor`: is this machine set up for fast libtorch work? Reports the BLAS library
// actually loaded, torch's thread count, measured GEMM GFLOP/s and the FMA peak, and warns
// about the two known traps (reference BLAS, openblas-pthread fighting torch's OpenMP).
#pragma once

#include <string>
#include <vector>

namespace posbias {

struct DoctorReport {
  std::string blas_library;  // resolved path of the BLAS shared object in this process
  std::string blas_kind;     // openblas-openmp | openblas-pthread | reference | other
  std::string blas_core;     // OpenBLAS kernel family in use (e.g. Cooperlake, Haswell, Prescott)
  std::string omp_wait_policy;
  int torch_threads = 0;
  int parallel_for_threads = 0;  // threads that at::parallel_for, compiled into posbias, uses
  int cores = 0;
  double gemm_gflops = 0;  // fp32 1024x1024 matmul through torch
  double fma_peak_gflops = 0;
  std::vector<std::string> warnings;
};

DoctorReport run_doctor();

// Threads that at::parallel_for uses in posbias's own code. It is a header template: a build
// without OpenMP runs its body on the calling thread only (ATen/Parallel-inl.h), so the
// Jacobian engine's parallel chunks would run one after another.
int parallel_for_threads();
std::string format_doctor(const DoctorReport& report);

// Every torch command calls this first: intra-op threads = the number of cores (the default
// here is 1), and denormal floats flushed to zero. A model whose weights or gradients decay
// toward zero otherwise computes on denormals, which x86 runs many times slower (a tiny Number
// run: 7k instead of 25k tokens/s, with the same losses).
void configure_torch();

}  // namespace posbias
