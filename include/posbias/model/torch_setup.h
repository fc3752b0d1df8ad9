// The libtorch side of a process: threads, denormals, and doctor's torch measurements.
#pragma once

#include "posbias/core/doctor.h"

namespace posbias {

// Every torch command calls this first: intra-op threads = the number of cores (the default
// here is 1; a user's OMP_NUM_THREADS wins), and denormal floats flushed to zero. A model whose
// weights or gradients decay toward zero otherwise computes on denormals, which x86 runs many times
// slower (a tiny Number run: 7k instead of 25k tokens/s, with the same losses).
void configure_torch();

// Threads that at::parallel_for uses in posbias's own code. It is a header template: a build
// without OpenMP runs its body on the calling thread only (ATen/Parallel-inl.h), so the
// Jacobian engine's parallel chunks would run one after another.
int parallel_for_threads();

// configure_torch(), then fills the report's torch part: threads, parallel_for threads, the
// fp32 1024² GEMM rate, the BLAS library mapped and OpenBLAS's kernel.
void measure_torch_doctor(DoctorReport& report);

}  // namespace posbias
