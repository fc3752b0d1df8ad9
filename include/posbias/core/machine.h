// What a run folder records about where it ran: version, host, CPU, cores, memory.
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace posbias {

// This machine's MachineRecord (core/machine_record.h) as JSON, written by its field table.
nlohmann::json machine_info();

}  // namespace posbias

namespace posbias {

// Measured FP32 FMA peak of this machine in GFLOP/s: independent AVX-512 (or AVX2) FMA
// chains on `threads` threads for about `seconds`. Benchmarks report fractions of it.
double measure_fma_peak_gflops(int threads, double seconds = 0.3);

// Whether this CPU multiplies bfloat16 natively (AVX-512 BF16), which `train --precision bf16`
// needs.
bool cpu_has_native_bf16();

}  // namespace posbias
