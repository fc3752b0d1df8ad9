// What a run folder records about where it ran: version, host, CPU, cores, memory.
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace posbias {

// {"version", "host", "cpu", "cores", "memory_gib", "os"}
nlohmann::json machine_info();

}  // namespace posbias
