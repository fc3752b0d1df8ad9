#include "posbias/core/process_env.h"

#include <dlfcn.h>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>

namespace posbias {
namespace {

using CoreNameFn = char* (*)();

std::string core_name_from(CoreNameFn fn) {
  if (fn == nullptr) return "";
  const char* name = fn();
  return name ? name : "";
}

}  // namespace

std::string openblas_core_name() {
  return core_name_from(reinterpret_cast<CoreNameFn>(dlsym(RTLD_DEFAULT, "openblas_get_corename")));
}

std::string probe_openblas_core() {
  int fds[2];
  if (pipe(fds) != 0) return "";
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return "";
  }
  if (pid == 0) {  // the child loads OpenBLAS, reports its kernel and exits without cleanup
    close(fds[0]);
    void* lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    const std::string name =
        lib ? core_name_from(reinterpret_cast<CoreNameFn>(dlsym(lib, "openblas_get_corename")))
            : "";
    const ssize_t written = write(fds[1], name.data(), name.size());
    _exit(written == static_cast<ssize_t>(name.size()) ? 0 : 1);
  }
  close(fds[1]);
  std::string name;
  char buffer[64];
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof buffer)) > 0 && name.size() < 256)
    name.append(buffer, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? name : "";
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

void configure_allocator_for_budget() {
  mallopt(M_MMAP_THRESHOLD, 4 << 20);  // also ends glibc's dynamic threshold
  mallopt(M_MMAP_MAX, 1 << 20);
}

void release_free_heap() { malloc_trim(0); }

bool set_torch_environment(const std::string& openblas_core) {
  bool changed = false;
  if (std::getenv("OPENBLAS_CORETYPE") == nullptr) {
    const std::string better = recommended_openblas_core();
    if ((openblas_core == "Prescott" || openblas_core == "prescott") && !better.empty()) {
      setenv("OPENBLAS_CORETYPE", better.c_str(), 1);
      changed = true;
    }
  }
  if (std::getenv("OMP_WAIT_POLICY") == nullptr) {
    setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    changed = true;
  }
  // c10d logs a socket error through glog on stderr before it throws the same error, which
  // posbias then prints as its one line; below FATAL, glog stays quiet unless the user asks.
  if (std::getenv("GLOG_minloglevel") == nullptr) setenv("GLOG_minloglevel", "3", 1);
  return changed;
}

void prepare_torch_environment() {
  static std::once_flag once;  // doctor reports the environment, then loads the plugin: one probe
  std::call_once(once, [] {
    configure_allocator();
    set_torch_environment(std::getenv("OPENBLAS_CORETYPE") == nullptr ? probe_openblas_core() : "");
  });
}

}  // namespace posbias
