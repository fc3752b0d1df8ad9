#include "posbias/core/doctor.h"

#include <ATen/Parallel.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "posbias/core/blas_kernel.h"
#include "posbias/core/machine.h"

namespace posbias {
namespace {

// Finds the BLAS shared objects mapped into this process (after a GEMM has run).
std::string loaded_blas() {
  std::ifstream maps("/proc/self/maps");
  std::string line, found;
  while (std::getline(maps, line)) {
    const auto slash = line.find('/');
    if (slash == std::string::npos) continue;
    const std::string path = line.substr(slash);
    const std::string name = std::filesystem::path(path).filename().string();
    if (name.rfind("libblas.so", 0) == 0 || name.rfind("libopenblas", 0) == 0) {
      std::error_code ec;
      const auto real = std::filesystem::canonical(path, ec);
      const std::string resolved = ec ? path : real.string();
      if (found.find(resolved) == std::string::npos)
        found += (found.empty() ? "" : ", ") + resolved;
    }
  }
  return found.empty() ? "unknown (no BLAS library mapped)" : found;
}

std::string classify(const std::string& libs) {
  if (libs.find("openblas-pthread") != std::string::npos) return "openblas-pthread";
  if (libs.find("openblas-openmp") != std::string::npos) return "openblas-openmp";
  if (libs.find("/blas/libblas") != std::string::npos) return "reference";
  return "other";
}

}  // namespace

void configure_torch() {
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (cores > 0) torch::set_num_threads(static_cast<int>(cores));
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

DoctorReport run_doctor() {
  configure_torch();
  DoctorReport r;
  r.cores = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  r.torch_threads = torch::get_num_threads();
  r.parallel_for_threads = parallel_for_threads();
  torch::manual_seed(0);
  const auto a = torch::randn({1024, 1024});
  const auto b = torch::randn({1024, 1024});
  auto c = torch::mm(a, b);  // warm-up; also maps the BLAS
  double best = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    c = torch::mm(a, b);
    best = std::min(best,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  r.gemm_gflops = 2.0 * 1024.0 * 1024.0 * 1024.0 / best / 1e9;
  r.fma_peak_gflops = measure_fma_peak_gflops(r.cores);
  r.blas_library = loaded_blas();
  r.blas_kind = classify(r.blas_library);
  r.blas_core = openblas_core_name();
  if (r.blas_core == "Prescott") {
    r.warnings.push_back(
        "OpenBLAS runs its generic Prescott kernels on this CPU; set OPENBLAS_CORETYPE=" +
        recommended_openblas_core() + " (posbias does this itself at start-up)");
  }
  if (r.blas_kind == "reference") {
    r.warnings.push_back(
        "the reference BLAS is active (~22x slower): run `make deps` or "
        "`update-alternatives --set libblas.so.3-x86_64-linux-gnu "
        "/usr/lib/x86_64-linux-gnu/openblas-openmp/libblas.so.3`");
  }
  if (r.blas_kind == "openblas-pthread") {
    r.warnings.push_back(
        "openblas-pthread is active and fights torch's OpenMP (~4x slower): run "
        "`make deps` to select libopenblas0-openmp");
  }
  const char* wait = std::getenv("OMP_WAIT_POLICY");
  r.omp_wait_policy = wait ? wait : "(unset: active spinning)";
  if (wait == nullptr || std::string(wait) != "PASSIVE") {
    r.warnings.push_back(
        "OMP_WAIT_POLICY is not PASSIVE: OpenMP spin-waiting slows small torch ops 20-60x on "
        "2-vCPU machines (posbias sets it itself at start-up)");
  }
  if (r.parallel_for_threads < r.torch_threads) {
    r.warnings.push_back("at::parallel_for runs on " + std::to_string(r.parallel_for_threads) +
                         " of " + std::to_string(r.torch_threads) +
                         " torch threads: posbias was built without OpenMP");
  }
  if (r.torch_threads < r.cores) {
    r.warnings.push_back("torch uses " + std::to_string(r.torch_threads) + " of " +
                         std::to_string(r.cores) + " cores");
  }
  if (r.fma_peak_gflops > 0 && r.gemm_gflops < 0.3 * r.fma_peak_gflops) {
    r.warnings.push_back("GEMM reaches under 30% of the FMA peak: check the BLAS and threads");
  }
  return r;
}

std::string format_doctor(const DoctorReport& r) {
  std::ostringstream o;
  o.precision(1);
  o << std::fixed;
  o << "BLAS library:   " << r.blas_library << "\n";
  o << "BLAS kind:      " << r.blas_kind << "\n";
  o << "OpenBLAS core:  " << (r.blas_core.empty() ? "n/a" : r.blas_core) << "\n";
  o << "OpenMP waits:   " << r.omp_wait_policy << "\n";
  o << "torch threads:  " << r.torch_threads << " (cores: " << r.cores << ")\n";
  o << "parallel_for:   " << r.parallel_for_threads << " threads\n";
  o << "GEMM fp32 1024: " << r.gemm_gflops << " GFLOP/s\n";
  o << "FMA peak fp32:  " << r.fma_peak_gflops << " GFLOP/s (measured)\n";
  if (r.fma_peak_gflops > 0)
    o << "GEMM / peak:    " << 100 * r.gemm_gflops / r.fma_peak_gflops << "%\n";
  for (const auto& w : r.warnings) o << "warning: " << w << "\n";
  if (r.warnings.empty()) o << "ok: this machine is set up for fast libtorch work\n";
  return o.str();
}

}  // namespace posbias
