#include "posbias/core/machine_record.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

namespace posbias {

const std::vector<FieldRow<MachineRecord>>& machine_record_fields() {
  using M = MachineRecord;
  static const std::vector<FieldRow<M>> rows = {
      required(field("version", &M::version, "posbias's version")),
      optional_field("host", &M::host, "the host's node name"),
      optional_field("os", &M::os, "kernel name, release and architecture"),
      optional_field("cpu", &M::cpu, "the CPU's model name"),
      required(field("cores", &M::cores, "online processors")),
      required(field("memory_gib", &M::memory_gib, "physical memory in GiB")),
  };
  return rows;
}

MachineRecord machine_record() {
  MachineRecord m;
  m.version = POSBIAS_VERSION;
  utsname u{};
  if (uname(&u) == 0) {
    m.host = u.nodename;
    m.os = std::string(u.sysname) + " " + u.release + " " + u.machine;
  }
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) m.cpu = line.substr(colon + 2);
      break;
    }
  }
  m.cores = sysconf(_SC_NPROCESSORS_ONLN);
  m.memory_gib = static_cast<double>(sysconf(_SC_PHYS_PAGES)) *
                 static_cast<double>(sysconf(_SC_PAGE_SIZE)) / (1024.0 * 1024.0 * 1024.0);
  return m;
}

nlohmann::json to_json(const MachineRecord& record) {
  return fields_to_json(machine_record_fields(), record);
}

}  // namespace posbias
