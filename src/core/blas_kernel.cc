#include "posbias/core/blas_kernel.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>

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

void select_openblas_kernel(char** argv) {
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr || std::getenv("POSBIAS_NO_REEXEC") != nullptr) return;
  const std::string core = openblas_core_name();
  if (core.empty() || (core != "Prescott" && core != "prescott")) return;
  const std::string better = recommended_openblas_core();
  if (better.empty()) return;
  setenv("OPENBLAS_CORETYPE", better.c_str(), 1);
  setenv("POSBIAS_NO_REEXEC", "1", 1);  // never loop
  execv("/proc/self/exe", argv);
  // execv failed: carry on with the slow kernel.
}

}  // namespace posbias
