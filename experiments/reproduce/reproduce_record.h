// `posbias reproduce`'s run.json (run_reproduce, reproduce.h) as the file holds it: one field
// table for the writer and a strict reader. The config is the command's options (the API key's
// variable name aside), the machine a MachineRecord, and section_seconds holds each report
// section's wall time in seconds, keyed by section name.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "experiments/reproduce/reproduce.h"
#include "posbias/core/field_table.h"
#include "posbias/core/machine_record.h"

namespace posbias {

struct ReproduceRunRecord {
  std::string command = "reproduce";
  ReproduceOptions config;
  std::int64_t seed = 0;
  MachineRecord machine;
  double seconds = 0;                             // the whole run's wall time
  std::map<std::string, double> section_seconds;  // section → its wall time
};

nlohmann::json to_json(const ReproduceRunRecord& record);
// Strict: an unknown, missing or mistyped field throws std::invalid_argument naming it
// ("reproduce run field 'config.full'").
ReproduceRunRecord reproduce_run_record_from_json(const nlohmann::json& j);

}  // namespace posbias
