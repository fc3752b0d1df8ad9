// Process-level settings for fast libtorch work, which only take effect when the libraries load:
// - OpenBLAS 0.3.21 (Debian 12) does not know recent Intel server CPUs and falls back to its
//   generic "Prescott" SSE3 kernels (a 1024² fp32 GEMM at ~30 GFLOP/s instead of ~100-200);
//   OPENBLAS_CORETYPE picks the right kernel.
// - OpenMP's default active spin-waiting makes torch's small parallel ops 20-60x slower on
//   these 2-vCPU machines (measured: a 12-layer forward 2.46 s vs 0.12 s); OMP_WAIT_POLICY=
//   PASSIVE fixes it.
// - Large tensors come from fresh mmaps that the kernel zeroes on every allocation (47% of an
//   exact Jacobian pass); configure_allocator() keeps them in the heap instead.
// `posbias` itself does not link libtorch: it sets the variables, then loads the torch commands
// (apps/posbias/torch_plugin.h), so OpenBLAS and OpenMP read them once, at their first load.
#pragma once

#include <string>

namespace posbias {

// The kernel OpenBLAS chose in this process ("" when OpenBLAS is not loaded).
std::string openblas_core_name();

// The kernel OpenBLAS picks on this CPU when it loads with the current environment, asked of a
// child process so that this one stays free of it ("" when libopenblas.so.0 cannot be loaded).
std::string probe_openblas_core();

// The OPENBLAS_CORETYPE this CPU should use (Cooperlake, SkylakeX, Haswell), or "".
std::string recommended_openblas_core();

// glibc malloc without mmap for large blocks and without trimming, so big temporaries are
// reused instead of being page-faulted and zeroed again on every allocation.
void configure_allocator();

// For a run whose memory is planned close to its budget: blocks of 4 MB and more come from
// their own mmaps again and go back to the kernel when freed, so the peak RSS is what is live
// and not the heap's high-water with the holes between tensors (measured at 4k tokens of
// Qwen2-0.5B: ~600 MB of holes). Costs a page fault per fresh page.
void configure_allocator_for_budget();

// Gives the heap's whole free pages back to the kernel (malloc_trim): what a phase freed
// otherwise stays resident. A run planned close to its budget calls this between blocks.
void release_free_heap();

// Sets OPENBLAS_CORETYPE (when `openblas_core`, the kernel OpenBLAS picks otherwise, is the
// Prescott fallback on an AVX2/AVX-512 CPU), OMP_WAIT_POLICY=PASSIVE and GLOG_minloglevel=3
// (c10d's glog lines repeat the error posbias prints), each only if the user has not set it.
// Returns whether it changed OpenBLAS's or OpenMP's environment.
bool set_torch_environment(const std::string& openblas_core);

// configure_allocator(), then set_torch_environment(probe_openblas_core()) when the user has not
// chosen OPENBLAS_CORETYPE. Call before libtorch is loaded; calls after the first do nothing.
void prepare_torch_environment();

}  // namespace posbias
