// MachineRecord's field table (posbias/core/machine_record.h): this machine's record is what
// machine_info() writes, a record without host, os or cpu (uname or /proc/cpuinfo silent) writes
// none of them and reads back, and a bad block is refused by the field's name.
#include "posbias/core/machine_record.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "posbias/core/machine.h"

namespace posbias {
namespace {

MachineRecord read_machine(const nlohmann::json& j) {
  return fields_from_json(machine_record_fields(), j, MachineRecord{}, "machine field");
}

std::string message_of(const nlohmann::json& j) {
  try {
    read_machine(j);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(MachineRecord, ThisMachineIsWhatMachineInfoWrites) {
  const MachineRecord m = machine_record();
  EXPECT_EQ(m.version, POSBIAS_VERSION);
  EXPECT_GE(m.cores, 1);
  EXPECT_GT(m.memory_gib, 0.0);
  const nlohmann::json j = to_json(m);
  EXPECT_EQ(j, machine_info());
  EXPECT_EQ(to_json(read_machine(j)), j);
}

TEST(MachineRecord, AbsentNamesAreNotWrittenAndBadFieldsAreRefused) {
  const MachineRecord bare{"0.1.0", {}, {}, {}, 2, 1.5};
  const nlohmann::json j = to_json(bare);
  EXPECT_EQ(j.dump(), R"({"cores":2,"memory_gib":1.5,"version":"0.1.0"})");
  EXPECT_EQ(to_json(read_machine(j)), j);
  nlohmann::json bad = j;
  bad["cores"] = 2.5;
  EXPECT_NE(message_of(bad).find("machine field 'cores'"), std::string::npos);
  bad = j;
  bad["gpu"] = "none";
  EXPECT_NE(message_of(bad).find("unknown machine field 'gpu'"), std::string::npos);
  bad = j;
  bad.erase("version");
  EXPECT_NE(message_of(bad).find("missing machine field 'version'"), std::string::npos);
  EXPECT_EQ(message_of(j), "");
}

}  // namespace
}  // namespace posbias
