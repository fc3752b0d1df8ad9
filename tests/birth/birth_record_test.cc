// BirthRecord's field table (experiments/birth/birth_record.h): a record with every part
// round-trips through JSON, fields deep inside are refused by their dotted path, and every
// `birth --json` result shipped in docs/data reads back and writes out byte for byte (those a
// script rewrote: as nlohmann writes their values). The fit's
// own table (fit_record.h) is checked inside it.
#include "experiments/birth/birth_record.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "../shipped_records.h"

namespace posbias {
namespace {

ShapeScoreRecord score(const std::string& model) {
  ShapeScoreRecord s;
  s.model = model;
  s.estimator = AlphaEstimator::kJacobian;
  s.paths = PathSum::kLinear;
  s.op = "cesaro";
  s.median_abs_log10_error = 0.1;
  s.median_abs_log10_error_ci = std::vector<double>{0.05, 0.2};
  s.max_abs_log10_error = 0.4;
  s.w1 = 0.01;
  s.argmin_measured = 2;
  s.argmin_predicted = 1;
  s.argmin_measured_ci = std::vector<double>{1, 2};
  s.recency_ratio = {2.0, std::nullopt, 1.5};
  s.primacy_ratio = {3.0, std::vector<double>{2.5, 3.5}, NAN};
  s.first_min_ratio = RatioRecord{4.0, 3.0};
  return s;
}

BirthRecord full_record() {
  BirthRecord b;
  b.alpha = 0.5;
  b.alpha_ci = {NAN, NAN};
  b.log10_gain = -0.2;
  b.seeds = 2;
  b.last_position = {1.0, 0.9};
  b.theory = {3, "cesaro", 0, PathSum::kLinear};
  b.theory_log10 = {0.1, 0.0, 0.2};
  b.notes = "fit";
  ModelConfig model;
  model.layers = 3;
  b.config = hf_config_from_model(model);
  b.measurement.method = JacobianMethod::kExact;
  b.measurement.length = 3;
  b.measurement.weights = "init";
  b.measurement.cotangents_per_pass = std::optional<std::int64_t>();  // null
  b.measurement.planned_bytes = 1e6;
  b.path_sums["linear"] = {0.5, -0.2, 0.9, 0.8, 0.01, {0.1, 0.0, 0.2}};
  b.nofit = PredictionRecord{score("theory"), {0.45, 0.5}, {0.5, 0.2, 0.3}};
  b.rollout_skipped = "too long";
  b.nofit_variants = {score("theory")};
  b.alpha_seeds["jacobian"] = {{0.4, 0.5}, {0.45, 0.55}};
  b.comparison = {{"theory_fit", 2, 0.1, 0.3, 0.02, 2, 2, {0.5, -0.2}}};
  b.profile = {0.5, 0.2, 0.3};
  b.profile_seeds = {{0.5, 0.2, 0.3}, {0.4, 0.3, 0.3}};
  b.seconds = 1.5;
  b.machine = {"0.1.0", "host", "Linux 6.1 x86_64", "test", 2, 1.5};
  b.rescore = BirthRescoreRecord{"old.json", 0.5, 100, {"0.1.0", {}, {}, "test", 4, 3.0}};
  return b;
}

std::string message_of(const nlohmann::json& j) {
  return posbias_test::refusal_of([&] { birth_record_from_json(j); });
}

TEST(BirthRecordFields, EveryPartRoundTripsThroughJson) {
  const nlohmann::json j = to_json(full_record());
  for (const auto& row : birth_record_fields()) {
    const bool absent = row.name == "shares" || row.name == "u_test";
    EXPECT_EQ(j.contains(row.name), !absent) << row.name;
  }
  EXPECT_TRUE(j["alpha_ci"][0].is_null());
  EXPECT_TRUE(j["rollout"].is_null());
  EXPECT_TRUE(j["operator_control"].is_null());
  EXPECT_TRUE(j["attention_entropy_ratio"].is_null());
  EXPECT_TRUE(j["measurement"]["cotangents_per_pass"].is_null());
  EXPECT_FALSE(j["measurement"].contains("target"));
  EXPECT_TRUE(j["nofit"]["recency_ratio"]["measured_ci"].is_null());
  EXPECT_EQ(j["nofit"]["operator"], "cesaro");
  EXPECT_EQ(j["theory"]["operator"], "cesaro");
  EXPECT_EQ(j["alpha_seeds"]["jacobian"][1][1], 0.55);
  const BirthRecord back = birth_record_from_json(j);
  EXPECT_EQ(to_json(back).dump(), j.dump());
  EXPECT_TRUE(std::isnan(back.nofit->primacy_ratio.predicted));
  EXPECT_TRUE(back.measurement.cotangents_per_pass.has_value());
  EXPECT_FALSE(back.measurement.cotangents_per_pass->has_value());
}

// A file of a build that printed 1-based positions (no "position_base") reads as 0-based: the
// query, every argmin and its interval and the comparison's minima move down by one; its
// measurement.attn_scale, the init scale's earlier name, is read as attn_init_scale.
TEST(BirthRecordFields, AFileOfAnEarlierBuildIsReadInTheOneBase) {
  BirthRecord now = full_record();
  now.measurement.query = 2;
  now.measurement.attn_init_scale = 4;
  const nlohmann::json j = to_json(now);
  EXPECT_EQ(j["position_base"], 0);
  EXPECT_EQ(j["measurement"]["attn_init_scale"], 4.0);
  nlohmann::json old = j;
  old.erase("position_base");
  old["measurement"]["attn_scale"] = old["measurement"]["attn_init_scale"];
  old["measurement"].erase("attn_init_scale");
  old["measurement"]["query"] = 3;
  for (auto* s : {&old["nofit"], &old["nofit_variants"][0]}) {
    (*s)["argmin_measured"] = 3;
    (*s)["argmin_predicted"] = 2;
    (*s)["argmin_measured_ci"] = {2.0, 3.0};
  }
  old["comparison"][0]["heldout_argmin"] = 3;
  old["comparison"][0]["argmin_predicted"] = 3;
  EXPECT_EQ(to_json(birth_record_from_json(old)), j);
}

TEST(BirthRecordFields, FieldsDeepInsideAreRefusedByTheirPath) {
  const nlohmann::json good = to_json(full_record());
  nlohmann::json bad = good;
  bad["nofit_variants"][0]["primacy_ratio"]["measured"] = "high";
  EXPECT_NE(message_of(bad).find("birth field 'nofit_variants.0.primacy_ratio.measured'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["theory"]["operators"] = "cesaro";
  EXPECT_NE(message_of(bad).find("unknown birth field 'theory.operators'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["measurement"].erase("length");
  EXPECT_NE(message_of(bad).find("missing birth field 'measurement.length'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad.erase("profile");
  EXPECT_NE(message_of(bad).find("missing birth field 'profile'"), std::string::npos);
  // The method, target, attention path and α estimator are enums: a name outside their tables
  // is refused, naming the field.
  const std::vector<std::pair<nlohmann::json::json_pointer, std::string>> names = {
      {"/measurement/method"_json_pointer, "birth field 'measurement.method': unknown --method"},
      {"/measurement/target"_json_pointer, "birth field 'measurement.target': unknown --target"},
      {"/measurement/attention"_json_pointer,
       "birth field 'measurement.attention': unknown attention path"},
      {"/nofit_variants/0/estimator"_json_pointer,
       "birth field 'nofit_variants.0.estimator': unknown --alpha-estimator"}};
  for (const auto& [at, says] : names) {
    bad = good;
    bad[at] = "answer";
    EXPECT_NE(message_of(bad).find(says + " 'answer'"), std::string::npos) << message_of(bad);
  }
}

// The model's config is an HfConfig, read as its config.json: its values come back typed, and a
// bad one or one of the wrong kind is refused in one line naming the field.
TEST(BirthRecordFields, TheConfigIsReadAsTheModelsHuggingFaceConfig) {
  const nlohmann::json good = to_json(full_record());
  EXPECT_EQ(good["config"]["n_layer"], 3);
  const BirthRecord back = birth_record_from_json(good);
  EXPECT_EQ(back.config.num_hidden_layers, 3);
  EXPECT_EQ(back.config.model_type, Family::kGpt2);
  nlohmann::json bad = good;
  bad["config"]["n_head"] = 5;
  EXPECT_EQ(message_of(bad), "birth field 'config': n_head = 5 does not divide n_embd = 768");
  bad["config"] = "gpt2";
  EXPECT_EQ(message_of(bad), "birth field 'config' must be an object");
}

TEST(BirthRecordFields, EveryShippedResultReadsBackAndWritesOutTheSameBytes) {
  int files = 0, others = 0;
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"path_sums\"")) {
    const nlohmann::json j = nlohmann::json::parse(bytes);
    if (!j.contains("measurement")) continue;  // a report summary
    const BirthRecord r = birth_record_from_json(j);
    ++files;
    // The files a script rewrote (docs/data/birth, when the max error's interval was dropped)
    // differ from nlohmann's writing of their own values: those come back as nlohmann writes
    // them, every other file byte for byte.
    const std::string as_written = posbias_test::json_text(j);
    others += as_written != bytes;
    EXPECT_EQ(posbias_test::json_text(to_json(r)), as_written) << path;
  }
  EXPECT_GE(files, 41);
  EXPECT_GE(files - others, 12);
}

}  // namespace
}  // namespace posbias
