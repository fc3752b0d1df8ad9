// Where a run ran (machine.h's machine_info()) as a record: one field table for the writer and
// the strict reader of the `machine` block every result folder carries. host and os are absent
// when uname fails, cpu when /proc/cpuinfo names no model.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"

namespace posbias {

struct MachineRecord {
  std::string version;                  // posbias's version
  std::optional<std::string> host, os;  // the node name; kernel name, release and architecture
  std::optional<std::string> cpu;       // the CPU's model name
  std::int64_t cores = 0;               // online processors
  double memory_gib = 0;                // physical memory, GiB
};
const std::vector<FieldRow<MachineRecord>>& machine_record_fields();
template <>
struct FieldCodec<MachineRecord> : TableCodec<MachineRecord, &machine_record_fields> {};

// This machine.
MachineRecord machine_record();
nlohmann::json to_json(const MachineRecord& record);

}  // namespace posbias
