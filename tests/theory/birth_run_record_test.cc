// BirthRunRecord's field table (posbias/theory/birth_run_record.h): a record with every part
// round-trips through JSON, fields deep inside are refused by their dotted path, and every
// `birth --run` result shipped in docs/data reads back and writes out byte for byte.
#include "posbias/theory/birth_run_record.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "../shipped_records.h"

namespace posbias {
namespace {

BirthRunRecord full_record() {
  BirthRunRecord r;
  r.run = "runs/text";
  r.target = InfluenceTarget::kLoss;
  r.method = JacobianMethod::kExact;
  r.length = 4;
  r.query = 3;
  r.sequences = 2;
  for (std::int64_t step : {0, 100}) {
    BirthRunCheckpointRecord& c = r.checkpoints.emplace_back();
    c.step = step;
    c.checkpoint = "step.safetensors";
    c.profile = {0.4, 0.1, 0.2, 0.3};
    c.profile_low = c.profile;
    c.profile_high = c.profile;
    c.alpha = {0.5, 0.6};
    c.fit = {0.55, 0.9};
    c.log10_middle_to_ends = -0.3;
    c.argmin = 2;
    c.log10_dead_zone_depth = -0.5;
    c.attention_entropy_ratio = step == 0 ? NAN : 0.8;
    GradientRecord g;
    if (step > 0) g.measured = std::vector<double>{1, 2, 3, 4};
    g.column_sum = {1, 1, 1, 1};
    g.root_sum_square = {1, 1, 1, 1};
    g.median_abs_log10_error = {0.1, 0.2, NAN};
    c.gradient = g;
    const SharesOverSeeds shares =
        shares_over_seeds({{0.4, 0.1, 0.2, 0.3}, {0.3, 0.1, 0.2, 0.4}, {0.4, 0.2, 0.1, 0.3}});
    c.shares = shares_record(shares);
    c.u_test = u_test_record(shares.u);
    c.nofit = NofitRecord{AlphaEstimator::kJacobian, 0.2, 0.4, {0.3, 0.2, 0.2, 0.3}};
  }
  const SharesOverSeeds shares = shares_over_seeds({{0.4, 0.1, 0.2, 0.3}, {0.3, 0.1, 0.2, 0.4}});
  r.shares_change = share_change_record(shares, shares);
  r.shares_change->from_step = 0;
  r.shares_change->to_step = 100;
  return r;
}

std::string message_of(const nlohmann::json& j) {
  return posbias_test::refusal_of([&] { birth_run_record_from_json(j); });
}

TEST(BirthRunRecordFields, EveryPartRoundTripsThroughJson) {
  const nlohmann::json j = to_json(full_record());
  for (const auto& row : birth_run_record_fields())
    EXPECT_TRUE(j.contains(row.name)) << row.name << " is not written";
  EXPECT_TRUE(j["checkpoints"][0]["attention_entropy_ratio"].is_null());
  EXPECT_TRUE(j["checkpoints"][0]["gradient"]["measured"].is_null());
  EXPECT_TRUE(j["checkpoints"][0]["gradient"]["median_abs_log10_error"]["flat"].is_null());
  EXPECT_EQ(j["checkpoints"][1]["gradient"]["measured"][3], 4.0);
  EXPECT_EQ(j["checkpoints"][1]["nofit"]["estimator"], "jacobian");
  const BirthRunRecord back = birth_run_record_from_json(j);
  EXPECT_EQ(to_json(back), j);
  EXPECT_TRUE(std::isnan(back.checkpoints[0].attention_entropy_ratio));
  EXPECT_FALSE(back.checkpoints[0].gradient->measured);
}

TEST(BirthRunRecordFields, FieldsDeepInsideAreRefusedByTheirPath) {
  const nlohmann::json good = to_json(full_record());
  nlohmann::json bad = good;
  bad["checkpoints"][1]["gradient"]["median_abs_log10_error"]["flat"] = "none";
  EXPECT_NE(
      message_of(bad).find("birth field 'checkpoints.1.gradient.median_abs_log10_error.flat'"),
      std::string::npos)
      << message_of(bad);
  bad = good;
  bad["checkpoints"][0]["nofit"]["alpha"] = 0.5;
  EXPECT_NE(message_of(bad).find("unknown birth field 'checkpoints.0.nofit.alpha'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["checkpoints"][1].erase("profile");
  EXPECT_NE(message_of(bad).find("missing birth field 'checkpoints.1.profile'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad.erase("query");
  EXPECT_NE(message_of(bad).find("missing birth field 'query'"), std::string::npos);
  // The target, method and α estimator are enums: a name outside their tables is refused.
  bad = good;
  bad["target"] = "answer";
  EXPECT_NE(message_of(bad).find("birth field 'target': unknown --target 'answer'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["method"] = "sampled";
  EXPECT_NE(message_of(bad).find("birth field 'method': unknown --method 'sampled'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["checkpoints"][1]["nofit"]["estimator"] = "fit";
  EXPECT_NE(message_of(bad).find(
                "birth field 'checkpoints.1.nofit.estimator': unknown --alpha-estimator 'fit'"),
            std::string::npos)
      << message_of(bad);
}

// A file of a build that printed 1-based positions (no "position_base") reads as 0-based: its
// query, each checkpoint's argmin (0, none, stays 0) and the share regions move down by one;
// a base other than 0 or 1 is refused.
TEST(BirthRunRecordFields, AFileWithoutAPositionBaseIsOneBased) {
  const nlohmann::json now = to_json(full_record());
  EXPECT_EQ(now["position_base"], 0);
  nlohmann::json old = now;
  old.erase("position_base");
  old["query"] = 4;
  old["checkpoints"][0]["argmin"] = 3;
  old["checkpoints"][1]["argmin"] = 0;
  for (auto& c : old["checkpoints"])
    for (auto& [name, span] : c["shares"]["regions"].items())
      for (auto& p : span) p = p.get<std::int64_t>() + 1;
  const BirthRunRecord r = birth_run_record_from_json(old);
  EXPECT_EQ(r.position_base, 0);
  EXPECT_EQ(r.query, 3);
  EXPECT_EQ(r.checkpoints[0].argmin, 2);
  EXPECT_EQ(r.checkpoints[1].argmin, 0);
  EXPECT_EQ(r.checkpoints[0].shares->regions, full_record().checkpoints[0].shares->regions);
  nlohmann::json bad = now;
  bad["position_base"] = 2;
  EXPECT_NE(message_of(bad).find("birth field 'position_base' must be 0 or 1, got 2"),
            std::string::npos)
      << message_of(bad);
}

TEST(BirthRunRecordFields, EveryShippedResultReadsBackAndWritesOutTheSameBytes) {
  int files = 0;
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"log10_dead_zone_depth\"")) {
    if (bytes.find("\"method\"") == std::string::npos) continue;
    const nlohmann::json j = nlohmann::json::parse(bytes);
    if (!j.contains("sequences")) continue;  // a seeds summary
    const BirthRunRecord r = birth_run_record_from_json(j);
    ++files;
    EXPECT_EQ(posbias_test::json_text(to_json(r)), bytes) << path;
  }
  EXPECT_GE(files, 12);
}

}  // namespace
}  // namespace posbias
