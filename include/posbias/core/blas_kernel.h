// Process-level settings for fast libtorch work, which only take effect at program load:
// - OpenBLAS 0.3.21 (Debian 12) does not know recent Intel server CPUs and falls back to its
//   generic "Prescott" SSE3 kernels (a 1024² fp32 GEMM at ~30 GFLOP/s instead of ~100-200);
//   OPENBLAS_CORETYPE picks the right kernel.
// - OpenMP's default active spin-waiting makes torch's small parallel ops 20-60x slower on
//   these 2-vCPU machines (measured: a 12-layer forward 2.46 s vs 0.12 s); OMP_WAIT_POLICY=
//   PASSIVE fixes it.
// - Large tensors come from fresh mmaps that the kernel zeroes on every allocation (47% of an
//   exact Jacobian pass); configure_allocator() keeps them in the heap instead.
// The first two are read when the libraries load, so the fix is to set them and re-execute.
#pragma once

#include <string>

namespace posbias {

// The kernel OpenBLAS chose in this process ("" when OpenBLAS is not loaded).
std::string openblas_core_name();

// The OPENBLAS_CORETYPE this CPU should use (Cooperlake, SkylakeX, Haswell), or "".
std::string recommended_openblas_core();

// glibc malloc without mmap for large blocks and without trimming, so big temporaries are
// reused instead of being page-faulted and zeroed again on every allocation.
void configure_allocator();

// Calls configure_allocator(), then sets OPENBLAS_CORETYPE (when OpenBLAS fell back to Prescott on
// an AVX2/AVX-512 CPU) and OMP_WAIT_POLICY=PASSIVE, each only if the user has not set it, then
// re-executes /proc/self/exe with the same arguments. Returns normally when nothing needs to change
// (or re-execution is impossible). Call first thing in main().
void configure_process_environment(char** argv);

}  // namespace posbias
