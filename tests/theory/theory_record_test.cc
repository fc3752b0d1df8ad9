// TheoryRecord's field table (experiments/theory/theory_record.h): a summary with every part
// round-trips through JSON, fields deep inside are refused by their dotted path, and every
// `theory --summary` file shipped in docs/data reads back and writes out byte for byte.
#include "experiments/theory/theory_record.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "../shipped_records.h"

namespace posbias {
namespace {

TheoryRecord full_record() {
  TheoryRecord t;
  t.config = {100, 100, 4, {0.5}, {"cesaro", 0, {}, 0.0}};
  t.version = "0.1.0";
  t.discrete = {-0.5, 0.2, -2.0, {60, 0.6, -2.1}, {0.05, 0.3}, 0.1, 1.0, NAN};
  t.continuum = ContinuumRecord{
      0.1, {0.05, 0.29}, 0.01, {0.99, -1.5, "at the right end"}, {{0.25, 0.75}, {-0.5, -INFINITY}},
      1e-3};
  t.machine = MachineRecord{"0.1.0", "host", "Linux 6.1 x86_64", "test", 2, 1.5};
  return t;
}

std::string message_of(const nlohmann::json& j) {
  return posbias_test::refusal_of([&] { theory_record_from_json(j); });
}

TEST(TheoryRecordFields, EveryPartRoundTripsThroughJson) {
  const nlohmann::json j = to_json(full_record());
  for (const auto& row : theory_record_fields()) EXPECT_TRUE(j.contains(row.name)) << row.name;
  EXPECT_TRUE(j["discrete"]["log10_middle_to_ends"].is_null());
  EXPECT_TRUE(j["continuum"]["grid"]["log10_density"][1].is_null());
  EXPECT_EQ(j["config"]["operator"]["name"], "cesaro");
  EXPECT_EQ(j["discrete"]["dead_zone"]["position"], 60);
  const TheoryRecord back = theory_record_from_json(j);
  EXPECT_EQ(to_json(back).dump(), j.dump());
  EXPECT_TRUE(std::isnan(back.continuum->grid.log10_density[1]));
  TheoryRecord no_continuum = full_record();
  no_continuum.continuum.reset();
  no_continuum.machine.reset();
  const nlohmann::json k = to_json(no_continuum);
  EXPECT_TRUE(k["continuum"].is_null());
  EXPECT_FALSE(k.contains("machine"));
  EXPECT_FALSE(theory_record_from_json(k).continuum);
}

TEST(TheoryRecordFields, FieldsDeepInsideAreRefusedByTheirPath) {
  const nlohmann::json good = to_json(full_record());
  nlohmann::json bad = good;
  bad["continuum"]["grid"]["x"][1] = "half";
  EXPECT_NE(message_of(bad).find("theory field 'continuum.grid.x' must be a list of numbers"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["config"]["operator"]["slopes"] = nlohmann::json::array();
  EXPECT_NE(message_of(bad).find("unknown theory field 'config.operator.slopes'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["config"].erase("layers");
  EXPECT_NE(message_of(bad).find("missing theory field 'config.layers'"), std::string::npos)
      << message_of(bad);
}

TEST(TheoryRecordFields, EveryShippedSummaryReadsBackAndWritesOutTheSameBytes) {
  int files = 0;
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"bulk_max_relative_error\"")) {
    const nlohmann::json j = nlohmann::json::parse(bytes);
    if (!j.is_object() || !j.contains("discrete")) continue;  // a report's list of summaries
    const TheoryRecord r = theory_record_from_json(j);
    ++files;
    EXPECT_EQ(posbias_test::json_text(to_json(r)), bytes) << path;
  }
  EXPECT_GE(files, 5);
}

}  // namespace
}  // namespace posbias
