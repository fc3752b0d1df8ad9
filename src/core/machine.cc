#include "posbias/core/machine.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace posbias {

nlohmann::json machine_info() {
  nlohmann::json info;
  info["version"] = POSBIAS_VERSION;
  utsname u{};
  if (uname(&u) == 0) {
    info["host"] = u.nodename;
    info["os"] = std::string(u.sysname) + " " + u.release + " " + u.machine;
  }
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) info["cpu"] = line.substr(colon + 2);
      break;
    }
  }
  info["cores"] = sysconf(_SC_NPROCESSORS_ONLN);
  info["memory_gib"] = static_cast<double>(sysconf(_SC_PHYS_PAGES)) *
                       static_cast<double>(sysconf(_SC_PAGE_SIZE)) / (1024.0 * 1024.0 * 1024.0);
  return info;
}

}  // namespace posbias
