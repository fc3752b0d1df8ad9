// `posbias doctor`: is this machine set up for fast libtorch work? Reports the BLAS library
// actually loaded, torch's thread count, measured GEMM GFLOP/s and the FMA peak, and warns
// about the known traps (reference BLAS, openblas-pthread fighting torch's OpenMP, OpenBLAS's
// Prescott fallback, OpenMP spin-waiting). The machine part needs no libtorch; the torch part
// (model/torch_setup.h) fills the rest in the process that loaded it.
#pragma once

#include <string>
#include <vector>

namespace posbias {

struct DoctorReport {
  // Machine part.
  int cores = 0;
  double fma_peak_gflops = 0;
  bool native_bf16 = false;  // cpu_has_native_bf16: train --precision bf16 runs here
  std::string omp_wait_policy;
  std::string torch_plugin;  // the torch commands' module this executable loads
  std::string corpus;        // where text runs look for the Brown corpus (install_paths.h)
  // Torch part.
  std::string blas_library;  // resolved path of the BLAS shared object in this process
  std::string blas_kind;     // openblas-openmp | openblas-pthread | reference | other
  std::string blas_core;     // OpenBLAS kernel family in use (e.g. Cooperlake, Haswell, Prescott)
  int torch_threads = 0;
  int parallel_for_threads = 0;  // threads that at::parallel_for, compiled into posbias, uses
  double gemm_gflops = 0;        // fp32 1024x1024 matmul through torch
  std::vector<std::string> warnings;
};

// Cores, the measured FMA peak and the OpenMP wait policy torch commands run with.
DoctorReport machine_doctor();
// The BLAS shared objects mapped into this process (after a GEMM has run), comma-separated.
std::string loaded_blas_libraries();
// openblas-openmp | openblas-pthread | reference | other, from loaded_blas_libraries().
std::string blas_kind(const std::string& libraries);
// The warnings for every trap the filled report shows.
void add_doctor_warnings(DoctorReport& report);

std::string format_machine_doctor(const DoctorReport& report);
// The torch part and the warnings.
std::string format_torch_doctor(const DoctorReport& report);

}  // namespace posbias
