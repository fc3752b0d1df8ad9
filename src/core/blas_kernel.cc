#include "posbias/core/blas_kernel.h"

#include <dlfcn.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <limits>

namespace posbias {

std::string openblas_core_name() {
  using CoreNameFn = char* (*)();
  auto fn = reinterpret_cast<CoreNameFn>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  if (fn == nullptr) return "";
  const char* name = fn();
  return name ? name : "";
}

std::string recommended_openblas_core() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl")) {
    return __builtin_cpu_supports("avx512bf16") ? "Cooperlake" : "SkylakeX";
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
  return "";
}

void configure_allocator() {
  // Serve every allocation from the heap and never trim it: freed tensors are reused without
  // new page faults. Large tensors otherwise come from fresh mmaps that the kernel zeroes each
  // time; that was 47% of an exact Jacobian pass (17 s instead of ~45 s for 12 layers).
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
}

void configure_process_environment(char** argv) {
  configure_allocator();
  if (std::getenv("POSBIAS_NO_REEXEC") != nullptr) return;
  bool changed = false;
  if (std::getenv("OPENBLAS_CORETYPE") == nullptr) {
    const std::string core = openblas_core_name();
    const std::string better = recommended_openblas_core();
    if ((core == "Prescott" || core == "prescott") && !better.empty()) {
      setenv("OPENBLAS_CORETYPE", better.c_str(), 1);
      changed = true;
    }
  }
  if (std::getenv("OMP_WAIT_POLICY") == nullptr) {
    setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    changed = true;
  }
  if (!changed) return;
  setenv("POSBIAS_NO_REEXEC", "1", 1);  // never loop
  execv("/proc/self/exe", argv);
  // execv failed: carry on with the defaults.
}

}  // namespace posbias
