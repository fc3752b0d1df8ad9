// OpenBLAS kernel selection. OpenBLAS 0.3.21 (Debian 12) does not know recent Intel server
// CPUs and falls back to its generic "Prescott" SSE3 kernels: a 1024² fp32 GEMM then runs at
// ~30 GFLOP/s instead of ~200. OpenBLAS reads OPENBLAS_CORETYPE only when it loads, so the
// fix is to set it and re-execute the program once, before any work is done.
#pragma once

#include <string>

namespace posbias {

// The kernel OpenBLAS chose in this process ("" when OpenBLAS is not loaded).
std::string openblas_core_name();

// The OPENBLAS_CORETYPE this CPU should use (Cooperlake, SkylakeX, Haswell), or "".
std::string recommended_openblas_core();

// If OpenBLAS fell back to Prescott on a CPU with AVX2/AVX-512 and the user has not set
// OPENBLAS_CORETYPE, sets it and re-executes /proc/self/exe with the same arguments.
// Returns normally when nothing needs to change (or re-execution is impossible).
void select_openblas_kernel(char** argv);

}  // namespace posbias
