#include "posbias/core/install_paths.h"

namespace posbias {

std::filesystem::path executable_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path(".") : exe.parent_path();
}

std::filesystem::path torch_plugin_path() { return executable_dir() / "posbias-torch.so"; }

std::filesystem::path data_path(const std::string& name) {
  const std::filesystem::path installed = executable_dir() / POSBIAS_INSTALLED_DATA_REL / name;
  std::error_code ec;
  if (std::filesystem::exists(installed, ec)) return installed.lexically_normal();
  return std::filesystem::path(POSBIAS_DATA_DIR) / name;
}

}  // namespace posbias
