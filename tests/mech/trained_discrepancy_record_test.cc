// TrainedDiscrepancyRecord's field table (posbias/mech/trained_discrepancy_record.h): a
// result round-trips through JSON with each key head in both lists, fields deep inside are
// refused by their dotted path, and every `discrepancy --run` result shipped in docs/data reads
// back and writes out byte for byte.
#include "posbias/mech/trained_discrepancy_record.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "../shipped_records.h"

namespace posbias {
namespace {

TrainedDiscrepancyResult measured_result() {
  TrainedDiscrepancyResult r;
  r.run = "runs/number";
  r.task = Task::kNumber;
  r.variant = Variant::kStandard;
  r.train_length = 17;
  r.step = 3000;
  r.lengths = {17, 64};
  r.count = 10;
  r.accuracy = {1.0, 0.25};
  KeyHeadGaps h;
  h.layer = 3;
  h.head = 0;
  h.kind = KeyHeadKind::kPositional;
  h.label = HeadLabel::kPositional;
  h.positional = 0.9;
  h.symbolic = 0.1;
  h.points = {{17, 4.0, 4.5, 1.0, 2.0, 7.0, 10}, {64, 2.0, 2.5, 0.5, 1.0, 4.0, 10}};
  h.on_chain_points = {{17, 4.0, 4.5, 1.0, 2.0, 7.0, 10}, {64, NAN, NAN, NAN, NAN, NAN, 0}};
  h.top_key_on_chain = {1.0, 0.0};
  h.correct_points = h.points;
  h.exponent = {-0.5, NAN, NAN, 1.4, 1};
  h.on_chain_exponent = {NAN, NAN, NAN, 0, 0};
  r.heads = {h};
  return r;
}

std::string message_of(const nlohmann::json& j) {
  return posbias_test::refusal_of([&] { trained_discrepancy_record_from_json(j); });
}

TEST(TrainedDiscrepancyRecordFields, AResultRoundTripsWithEachHeadInBothLists) {
  const nlohmann::json j = to_json(trained_discrepancy_record(measured_result()));
  for (const auto& row : trained_discrepancy_record_fields())
    EXPECT_TRUE(j.contains(row.name)) << row.name << " is not written";
  EXPECT_EQ(j["key_heads"][0]["positional"], 0.9);
  EXPECT_EQ(j["key_heads"][0]["layer"], 3);
  EXPECT_EQ(j["discrepancy"][0]["layer"], 3);
  EXPECT_FALSE(j["discrepancy"][0].contains("positional"));
  EXPECT_EQ(j["accuracy"]["64"], 0.25);
  EXPECT_TRUE(j["discrepancy"][0]["on_chain_points"][1]["median"].is_null());
  EXPECT_EQ(j["discrepancy"][0]["exponent"]["value"], -0.5);
  EXPECT_EQ(j["discrepancy"][0]["exponent"]["from"], 18.0);  // fitted past the training length
  EXPECT_TRUE(j["discrepancy"][0]["exponent"]["ci"][0].is_null());
  EXPECT_TRUE(j["discrepancy"][0]["on_chain_exponent"]["value"].is_null());
  const TrainedDiscrepancyRecord back = trained_discrepancy_record_from_json(j);
  EXPECT_EQ(to_json(back), j);
  EXPECT_TRUE(std::isnan(back.discrepancy[0].on_chain_points[1].p90));
  EXPECT_EQ(back.discrepancy[0].correct_points->size(), 2u);
}

TEST(TrainedDiscrepancyRecordFields, FieldsDeepInsideAreRefusedByTheirPath) {
  const nlohmann::json good = to_json(trained_discrepancy_record(measured_result()));
  nlohmann::json bad = good;
  bad["discrepancy"][0]["points"][1]["median"] = "wide";
  EXPECT_NE(message_of(bad).find("discrepancy field 'discrepancy.0.points.1.median'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["key_heads"][0]["scores"] = 1;
  EXPECT_NE(message_of(bad).find("unknown discrepancy field 'key_heads.0.scores'"),
            std::string::npos)
      << message_of(bad);
  // The head's kind and label are enums: a name not in their tables is refused by its path.
  bad = good;
  bad["discrepancy"][0]["kind"] = "positionl";
  EXPECT_NE(message_of(bad).find("discrepancy field 'discrepancy.0.kind': unknown key-head kind "
                                 "'positionl' (use positional, symbolic or chosen); did you mean "
                                 "'positional'?"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["key_heads"][0]["label"] = "pure";
  EXPECT_NE(message_of(bad).find("discrepancy field 'key_heads.0.label': unknown head label 'pure' "
                                 "(use reflexive, uniform, positional, symbolic or mixed)"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["discrepancy"][0].erase("points");
  EXPECT_NE(message_of(bad).find("missing discrepancy field 'discrepancy.0.points'"),
            std::string::npos)
      << message_of(bad);
  for (const char* key : {"task", "accuracy", "discrepancy"}) {
    bad = good;
    bad.erase(key);
    EXPECT_NE(message_of(bad).find(std::string("missing discrepancy field '") + key + "'"),
              std::string::npos)
        << key;
  }
}

TEST(TrainedDiscrepancyRecordFields, EveryShippedResultReadsBackAndWritesOutTheSameBytes) {
  int files = 0;
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"key_heads\"")) {
    const TrainedDiscrepancyRecord r =
        trained_discrepancy_record_from_json(nlohmann::json::parse(bytes));
    ++files;
    EXPECT_EQ(posbias_test::json_text(to_json(r)), bytes) << path;
  }
  EXPECT_GE(files, 12);
}

}  // namespace
}  // namespace posbias
