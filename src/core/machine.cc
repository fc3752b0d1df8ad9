#include "posbias/core/machine.h"

#include <immintrin.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "posbias/core/machine_record.h"

namespace posbias {

nlohmann::json machine_info() { return to_json(machine_record()); }

namespace {

constexpr int kChains = 12;  // enough independent FMAs to cover latency × ports

__attribute__((target("avx512f"))) double fma_burst_avx512(long iterations) {
  __m512 acc[kChains];
  for (int k = 0; k < kChains; ++k) acc[k] = _mm512_set1_ps(1.0f + 0.01f * static_cast<float>(k));
  const __m512 mul = _mm512_set1_ps(0.999999f), add = _mm512_set1_ps(1e-7f);
  for (long i = 0; i < iterations; ++i) {
    for (int k = 0; k < kChains; ++k) acc[k] = _mm512_fmadd_ps(acc[k], mul, add);
  }
  alignas(64) float out[16];
  float sink = 0;
  for (int k = 0; k < kChains; ++k) {
    _mm512_store_ps(out, acc[k]);
    for (float v : out) sink += v;
  }
  return static_cast<double>(sink) * 1e-30;  // keeps the loop alive
}

__attribute__((target("avx2,fma"))) double fma_burst_avx2(long iterations) {
  __m256 acc[kChains];
  for (int k = 0; k < kChains; ++k) acc[k] = _mm256_set1_ps(1.0f + 0.01f * static_cast<float>(k));
  const __m256 mul = _mm256_set1_ps(0.999999f), add = _mm256_set1_ps(1e-7f);
  for (long i = 0; i < iterations; ++i) {
    for (int k = 0; k < kChains; ++k) acc[k] = _mm256_fmadd_ps(acc[k], mul, add);
  }
  alignas(32) float out[8];
  float sink = 0;
  for (int k = 0; k < kChains; ++k) {
    _mm256_store_ps(out, acc[k]);
    for (float v : out) sink += v;
  }
  return static_cast<double>(sink) * 1e-30;
}

}  // namespace

bool cpu_has_native_bf16() { return __builtin_cpu_supports("avx512bf16"); }

double measure_fma_peak_gflops(int threads, double seconds) {
  const bool avx512 = __builtin_cpu_supports("avx512f");
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (!avx512 && !avx2) return 0.0;
  const int lanes = avx512 ? 16 : 8;
  auto burst = [avx512](long n) { return avx512 ? fma_burst_avx512(n) : fma_burst_avx2(n); };
  // Calibrate one thread's iteration count to the requested duration.
  long iterations = 1 << 16;
  while (true) {
    const auto t0 = std::chrono::steady_clock::now();
    volatile double keep = burst(iterations);
    (void)keep;
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (dt > seconds / 4 || iterations > (1L << 40)) {
      iterations =
          static_cast<long>(static_cast<double>(iterations) * seconds / std::max(dt, 1e-9));
      break;
    }
    iterations *= 4;
  }
  std::vector<std::thread> pool;
  std::atomic<int> ready{0};
  const auto t0 = std::chrono::steady_clock::now();
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      ready.fetch_add(1);
      volatile double keep = burst(iterations);
      (void)keep;
    });
  }
  for (auto& th : pool) th.join();
  const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double flops = 2.0 * lanes * kChains * static_cast<double>(iterations) * threads;
  return flops / dt / 1e9;
}

}  // namespace posbias
