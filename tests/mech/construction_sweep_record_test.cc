// SweepResult's field table (experiments/mech/construction_sweep_record.h): a sweep with θ
// following n and one with a fixed θ round-trip through JSON, the construction and its task are
// written by name, bad fields are refused by their dotted path, and every constructions sweep
// shipped in docs/data (those of earlier builds without the slope's ci and points too) reads back
// and writes out byte for byte.
#include "experiments/mech/construction_sweep_record.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "../shipped_records.h"

namespace posbias {
namespace {

SweepResult swept(Construction function, double theta) {
  SweepResult r;
  r.function = function;
  r.task = construction_task(function);
  r.auto_theta = std::isnan(theta);
  r.theta = theta;
  r.omega = 0.75;
  r.count = 8;
  r.seed = 3;
  r.points = {{64, 0.05, 1e-3, 2e-3, 1.0, 1.2e-3}, {128, 0.025, 2.5e-4, 5e-4, 0.875, 3e-4}};
  PowerLawFit fit;
  fit.exponent = -2.0;
  fit.low = NAN;
  fit.high = NAN;
  fit.points = 2;
  r.slope = sweep_slope(fit);
  return r;
}

std::string message_of(const nlohmann::json& j) {
  return posbias_test::refusal_of([&] { sweep_result_from_json(j); });
}

TEST(SweepResultFields, AutoAndFixedThetaRoundTripWithTheirNames) {
  const nlohmann::json index = to_json(swept(Construction::kIndex, NAN));
  EXPECT_EQ(index["function"], "index");
  EXPECT_EQ(index["task"], "number");
  EXPECT_EQ(index["theta"], "pi/n");
  EXPECT_EQ(index["points"][1]["accuracy"], 0.875);
  EXPECT_EQ(index["slope"]["from"].dump(), "64.0");
  EXPECT_EQ(index["slope"]["to"].dump(), "4096");
  EXPECT_TRUE(index["slope"]["ci"][0].is_null());
  EXPECT_EQ(index["slope"]["points"], 2);
  const SweepResult back = sweep_result_from_json(index);
  EXPECT_EQ(back.function, Construction::kIndex);
  EXPECT_TRUE(back.auto_theta);
  EXPECT_EQ(to_json(back), index);

  EXPECT_EQ(to_json(swept(Construction::kRetrieval, NAN))["theta"], "0");
  const nlohmann::json fixed = to_json(swept(Construction::kRetrieval, 5e-4));
  EXPECT_EQ(fixed["theta"], 5e-4);
  EXPECT_EQ(fixed["task"], "letter");
  EXPECT_FALSE(sweep_result_from_json(fixed).auto_theta);
  EXPECT_EQ(to_json(sweep_result_from_json(fixed)), fixed);
}

TEST(SweepResultFields, BadFieldsAreRefusedByTheirPath) {
  const nlohmann::json good = to_json(swept(Construction::kIndex, NAN));
  nlohmann::json bad = good;
  bad["points"][1]["bound"] = "tight";
  EXPECT_NE(message_of(bad).find("discrepancy field 'points.1.bound' must be a number"),
            std::string::npos);
  bad = good;
  bad["theta"] = "0";  // retrieval's name, not index's
  EXPECT_NE(message_of(bad).find("discrepancy field 'theta' must be a number or pi/n"),
            std::string::npos);
  bad = good;
  bad["task"] = "letter";
  EXPECT_NE(message_of(bad).find("'task' must be number for the index construction"),
            std::string::npos);
  bad = good;
  bad["function"] = "lookup";
  EXPECT_NE(message_of(bad).find("'lookup'"), std::string::npos);
  bad = good;
  bad["slope"].erase("value");
  EXPECT_NE(message_of(bad).find("missing discrepancy field 'slope.value'"), std::string::npos);
  bad = good;
  bad["extra"] = 1;
  EXPECT_NE(message_of(bad).find("unknown discrepancy field 'extra'"), std::string::npos);
  EXPECT_EQ(message_of(good), "");
}

TEST(SweepResultFields, EveryShippedSweepReadsBackByteForByte) {
  int files = 0, without_ci = 0;
  for (const auto& f : posbias_test::shipped_json("\"discrepancy_min\"")) {
    const SweepResult r = sweep_result_from_json(nlohmann::json::parse(f.bytes));
    EXPECT_EQ(posbias_test::json_text(to_json(r)), f.bytes) << f.path;
    without_ci += r.slope.ci ? 0 : 1;
    ++files;
  }
  EXPECT_GE(files, 4);
  EXPECT_GE(without_ci, 1);  // a file of an earlier build is among them
}

}  // namespace
}  // namespace posbias
