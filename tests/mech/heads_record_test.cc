// HeadsRecord's field table (posbias/mech/heads_record.h): a result with every part
// round-trips through JSON, fields deep inside are refused by their dotted path, and every
// `heads` result shipped in docs/data reads back, those of the current layout byte for byte.
#include "posbias/mech/heads_record.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "../shipped_records.h"

namespace posbias {
namespace {

HeadsRecord full_record() {
  HeadsRecord r;
  r.source.run = "runs/letter";
  r.task = Task::kLetter;
  r.length = 17;
  r.samples = 8;
  r.tau = 1e-4;
  r.at_init = false;
  r.qk_scale = 1.0;
  r.attention = AttentionPath::kDense;
  HeadScore h{0, 0, 0.95, 0.05, 0.3, 0.0, HeadLabel::kPositional, 0.9, 1.0, NAN, NAN};
  r.checkpoints = {{100, "step_00000100.safetensors", {h}},
                   {200, "step_00000200.safetensors", {h}}};
  r.final = {{"L0.h0"}, {}, {}};
  r.label_threshold = 0.9;
  r.threshold_sensitivity = {{0.8, r.final, {{100, 1, 0, 0}, {200, 1, 0, 0}}}};
  r.seconds = 1.5;
  AblationRecord& a = r.ablation.emplace();
  a.lengths = {17};
  a.count_per_hop = 200;
  a.seed = 1;
  a.rule = "mean-ablation";
  a.baseline = {{"17", {{"1", 1.0}, {"all", 1.0}}}};
  a.baseline_interval = {{"17", {{"1", {0.98, 1.0}}, {"all", {0.98, 1.0}}}}};
  a.chance = {{"17", {{"1", 0.125}, {"all", 0.125}}}};
  AblatedLayerRecord& layer = a.layers.emplace_back();
  layer.layer = 1;
  layer.accuracy = {{"17", {{"1", 0.25}, {"all", 0.25}}}};
  layer.interval = a.baseline_interval;
  layer.drop = {{"17", {{"1", 0.75}, {"all", 0.75}}}};
  a.joint = AblatedJointRecord{layer, {0, 1}};
  a.spans = {AblatedSpanRecord{layer, 0, 1}, AblatedSpanRecord{layer, 1, 2}};
  a.checkpoint = "step_00000200.safetensors";
  a.step = 200;
  return r;
}

std::string message_of(const nlohmann::json& j) {
  return posbias_test::refusal_of([&] { heads_record_from_json(j); });
}

TEST(HeadsRecordFields, EveryPartRoundTripsThroughJson) {
  const nlohmann::json j = to_json(full_record());
  for (const auto& row : heads_record_fields())
    EXPECT_EQ(j.contains(row.name), row.name != "patching") << row.name;
  EXPECT_EQ(j["ablation"]["spans"][1]["first"], 1);
  EXPECT_EQ(j["ablation"]["joint"]["layers"], nlohmann::json::parse("[0, 1]"));
  EXPECT_EQ(j["ablation"]["layers"][0]["drop"]["17"]["all"], 0.75);
  const nlohmann::json& head = j["checkpoints"][1]["heads"][0];
  EXPECT_EQ(head["positional_ci"], nlohmann::json::parse("[0.9, 1.0]"));
  EXPECT_TRUE(head["symbolic_ci"][0].is_null());
  EXPECT_EQ(j["source"], nlohmann::json::parse(R"({"run": "runs/letter"})"));
  EXPECT_EQ(j["threshold_sensitivity"][0]["pure_counts"][1]["step"], 200);
  const HeadsRecord back = heads_record_from_json(j);
  EXPECT_EQ(to_json(back), j);
  EXPECT_TRUE(std::isnan(back.checkpoints[0].heads[0].symbolic_high));
  EXPECT_EQ(back.checkpoints[0].heads[0].positional_high, 1.0);
  // A Hugging Face model's checkpoint has no step: null, read back as none.
  HeadsRecord hf = full_record();
  hf.checkpoints[0].step.reset();
  EXPECT_TRUE(to_json(hf)["checkpoints"][0]["step"].is_null());
  EXPECT_FALSE(heads_record_from_json(to_json(hf)).checkpoints[0].step);
}

TEST(HeadsRecordFields, FieldsDeepInsideAreRefusedByTheirPath) {
  const nlohmann::json good = to_json(full_record());
  nlohmann::json bad = good;
  bad["checkpoints"][1]["heads"][0]["positional"] = "high";
  EXPECT_NE(message_of(bad).find("heads field 'checkpoints.1.heads.0.positional'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["checkpoints"][0]["heads"][0]["symbolic_ci"] = {0.1};
  EXPECT_NE(message_of(bad).find("'checkpoints.0.heads.0.symbolic_ci' must be [low, high]"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["threshold_sensitivity"][0]["final"]["mixed"] = nlohmann::json::array();
  EXPECT_NE(message_of(bad).find("unknown heads field 'threshold_sensitivity.0.final.mixed'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["at_init"] = 0;
  EXPECT_NE(message_of(bad).find("'at_init' must be true or false"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad.erase("checkpoints");
  EXPECT_NE(message_of(bad).find("missing heads field 'checkpoints'"), std::string::npos);
  bad = good;
  bad["checkpoints"][1]["heads"][0]["label"] = "symbolc";  // an enum: only the five labels
  EXPECT_NE(message_of(bad).find("heads field 'checkpoints.1.heads.0.label': unknown head label "
                                 "'symbolc' (use reflexive, uniform, positional, symbolic or "
                                 "mixed); did you mean 'symbolic'?"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["attention"] = "auto";  // an enum: only dense or blockwise
  EXPECT_NE(message_of(bad).find("heads field 'attention': unknown attention path 'auto'"),
            std::string::npos)
      << message_of(bad);
  // The causal results too.
  bad = good;
  bad["ablation"]["spans"][1]["drop"]["17"]["all"] = "most";
  EXPECT_NE(message_of(bad).find("heads field 'ablation.spans.1.drop.17.all' must be a number"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["ablation"]["joint"]["heads"] = 2;
  EXPECT_NE(message_of(bad).find("unknown heads field 'ablation.joint.heads'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["ablation"]["layers"][0].erase("layer");
  EXPECT_NE(message_of(bad).find("missing heads field 'ablation.layers.0.layer'"),
            std::string::npos)
      << message_of(bad);
}

TEST(HeadsRecordFields, EveryShippedResultReadsBack) {
  int files = 0, current = 0, causal = 0;
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"layer_index\"")) {
    const nlohmann::json j = nlohmann::json::parse(bytes);
    if (!j.contains("checkpoints")) continue;  // a report summary that names the field
    const HeadsRecord r = heads_record_from_json(j);
    ++files;
    // Files of the current layout (intervals, sensitivity) come back byte for byte; the
    // earliest ones gain null intervals.
    if (!r.threshold_sensitivity) continue;
    ++current;
    causal += r.ablation.has_value() + r.patching.has_value();
    EXPECT_EQ(posbias_test::json_text(to_json(r)), bytes) << path;
  }
  EXPECT_GE(files, 40);
  EXPECT_GE(current, 40);
  EXPECT_GE(causal, 18);  // docs/data/mech/causal: 15 ablations, 3 patchings
}

}  // namespace
}  // namespace posbias

// The terminal summary names the source, the checkpoints scored and the last checkpoint's pure
// heads by label ("none" for an empty label), with the threshold when the file has one.
TEST(HeadsSummary, SourceCheckpointsAndPureHeadsByLabel) {
  posbias::HeadsRecord r;
  r.source.run = "runs/number";
  r.task = posbias::Task::kNumber;
  r.length = 17;
  r.samples = 200;
  r.checkpoints.resize(7);
  r.final.positional = {"L0.h0", "L2.h0"};
  r.label_threshold = 0.9;
  EXPECT_EQ(posbias::heads_summary(r),
            "number run runs/number: 7 checkpoints scored at 17 tokens, 200 samples\n"
            "last checkpoint's pure heads (purity >= 0.9): positional L0.h0, L2.h0; symbolic "
            "none; reflexive none\n");
  r.source = {std::nullopt, "config.json", "model.safetensors", std::nullopt};
  r.checkpoints.resize(1);
  r.label_threshold.reset();
  EXPECT_EQ(posbias::heads_summary(r),
            "checkpoint model.safetensors: 1 checkpoint scored at 17 tokens, 200 samples\n"
            "last checkpoint's pure heads: positional L0.h0, L2.h0; symbolic none; reflexive "
            "none\n");
}
