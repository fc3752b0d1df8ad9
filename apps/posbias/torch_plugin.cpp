#include "torch_plugin.h"

#include <dlfcn.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "posbias/core/install_paths.h"
#include "posbias/core/process_env.h"

namespace posbias::cli {

const TorchPlugin& load_torch_plugin() {
  static const TorchPlugin* plugin = nullptr;
  if (plugin != nullptr) return *plugin;
  prepare_torch_environment();
  const std::filesystem::path path = torch_plugin_path();
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    throw std::runtime_error("cannot load the torch commands (" + path.string() +
                             "): " + (why ? why : "unknown error") + "; rebuild with `make build`");
  }
  using Entry = const TorchPlugin* (*)();
  auto entry = reinterpret_cast<Entry>(dlsym(library, "posbias_torch_plugin"));
  if (entry == nullptr) throw std::runtime_error(path.string() + " is not posbias's torch plugin");
  plugin = entry();
  return *plugin;
}

}  // namespace posbias::cli
