#include "posbias/model/torch_setup.h"

#include <ATen/Parallel.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <vector>

#include "posbias/core/process_env.h"

namespace posbias {

void configure_torch() {
  long threads = sysconf(_SC_NPROCESSORS_ONLN);
  if (const char* user = std::getenv("OMP_NUM_THREADS"); user != nullptr) {
    char* end = nullptr;
    const long n = std::strtol(user, &end, 10);
    if (end != user && *end == '\0' && n > 0 && n <= 4096) threads = n;  // the user's own wins
  }
  if (threads > 0) torch::set_num_threads(static_cast<int>(threads));
  at::globalContext().setFlushDenormal(true);
}

int parallel_for_threads() {
  std::vector<std::atomic<bool>> seen(static_cast<std::size_t>(std::max(1, at::get_num_threads())));
  at::parallel_for(0, static_cast<std::int64_t>(seen.size()), 1, [&](std::int64_t, std::int64_t) {
    const auto t = static_cast<std::size_t>(at::get_thread_num());
    if (t < seen.size()) seen[t] = true;
  });
  return static_cast<int>(std::count(seen.begin(), seen.end(), true));
}

void measure_torch_doctor(DoctorReport& r) {
  configure_torch();
  r.torch_threads = torch::get_num_threads();
  r.parallel_for_threads = parallel_for_threads();
  at::Generator generator = at::detail::createCPUGenerator(/*seed_in=*/0);
  const auto a = torch::randn({1024, 1024}, generator);
  const auto b = torch::randn({1024, 1024}, generator);
  auto c = torch::mm(a, b);  // warm-up; also maps the BLAS
  double best = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    c = torch::mm(a, b);
    best = std::min(best,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  r.gemm_gflops = 2.0 * 1024.0 * 1024.0 * 1024.0 / best / 1e9;
  r.blas_library = loaded_blas_libraries();
  r.blas_kind = blas_kind(r.blas_library);
  r.blas_core = openblas_core_name();
}

}  // namespace posbias
