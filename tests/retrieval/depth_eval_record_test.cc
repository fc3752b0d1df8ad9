// DepthEvalRecord's field table (experiments/retrieval/depth_eval_record.h): a record from a
// measurement round-trips through JSON and back to the same cells, fields deep inside are refused
// by their dotted path, a missing cell is named, and every kv and passkey `eval --run` result
// shipped in docs/data (one checkpoint's, or each of an `eval --checkpoints` file of several)
// reads back and writes out byte for byte.
#include "experiments/retrieval/depth_eval_record.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "../shipped_records.h"
#include "experiments/retrieval/depth_eval.h"
#include "posbias/runfiles/eval_steps.h"

namespace posbias {
namespace {

std::vector<bool> flags(int correct, int count) {
  std::vector<bool> f(static_cast<std::size_t>(count), false);
  for (int i = 0; i < correct; ++i) f[static_cast<std::size_t>(i)] = true;
  return f;
}

// Three lengths, four depths (one not whole), the middle cell of 80 without an example.
DepthEvalRecord measured_record() {
  DepthEvalRun run;
  run.run = "runs/kv";
  run.checkpoint = "runs/kv/checkpoints/step_00000100.safetensors";
  run.step = 100;
  run.count = 20;
  run.seed = 1;
  run.accuracy = measure_depth_accuracy(
      {40, 80, 160}, {0, 12.5, 50, 100}, 0.9, [](int length, double depth, std::size_t) {
        if (length == 80 && depth == 50) return DepthScore{{}, 0.25};
        return DepthScore{flags(length == 160 ? 10 : 20, 20), 1.0 / length};
      });
  run.attention = {AttentionPath::kDense, AttentionPath::kDense, AttentionPath::kBlockwise};
  run.seconds = 2.5;
  DepthEvalRecord r = depth_eval_record(AnswerInputs::kKv, run);
  r.pairs = {{"40", 5}, {"80", 10}, {"160", 20}};
  r.chance_rule = "1/n";
  r.queried_rule = "round";
  r.rope_scaling = RopeScaling{RopeScalingKind::kNtk, 2.0};  // eval-only options: written when set
  r.logn_scale = 0.25;
  r.calibrate = 0.5;
  return r;
}

std::string message_of(const nlohmann::json& j) {
  return posbias_test::refusal_of([&] { depth_accuracy_of(depth_eval_record_from_json(j)); });
}

TEST(DepthEvalRecordFields, AMeasurementRoundTripsToTheSameCells) {
  const DepthEvalRecord record = measured_record();
  const nlohmann::json j = to_json(record);
  for (const auto& row : depth_eval_record_fields()) {
    const bool passkey_only = row.name == "needles" || row.name == "depth_rule";
    EXPECT_EQ(j.contains(row.name), !passkey_only) << row.name;
  }
  const nlohmann::json& cell = j.at("depth_accuracy").at("80").at("12.5");
  EXPECT_EQ(cell.at("accuracy"), 1.0);
  EXPECT_EQ(cell.at("n"), 20);
  EXPECT_NEAR(cell.at("lo").get<double>(), 0.8389, 5e-5);  // Wilson 20/20
  EXPECT_NEAR(cell.at("chance").get<double>(), 1.0 / 80, 1e-15);
  EXPECT_TRUE(j.at("depth_accuracy").at("80").at("50").at("accuracy").is_null());
  EXPECT_EQ(j.at("effective_length"), 40);  // 80 has a cell of no example: its mean is NaN
  EXPECT_EQ(j.at("attention").at("160"), "blockwise");
  EXPECT_EQ(j.at("u_verdict").at("rule"), kUVerdictRule);
  EXPECT_EQ(to_json(depth_eval_record_from_json(j)), j);
  const DepthAccuracy a = depth_accuracy_of(depth_eval_record_from_json(j));
  EXPECT_EQ(a.lengths, (std::vector<int>{40, 80, 160}));
  EXPECT_EQ(a.cells[2][1].correct, 10);
  EXPECT_TRUE(std::isnan(a.cells[1][2].accuracy));
  EXPECT_EQ(a.u_by_length[1].verdict, record.u_verdict.by_length.at("80").verdict);
  EXPECT_EQ(a.effective_length, 40);
}

// What eval prints on a terminal instead of the JSON: the depth-averaged accuracy per length,
// RULER's effective length and the pooled U verdict of the same measurement.
TEST(DepthEvalRecordFields, TheTerminalSummaryStatesTheMeasurement) {
  const DepthAccuracy a =
      measure_depth_accuracy({40, 80, 160}, {0, 50, 100}, 0.9, [](int length, double, std::size_t) {
        return DepthScore{flags(length == 160 ? 10 : 20, 20), 0.1};
      });
  EXPECT_EQ(depth_eval_summary(AnswerInputs::kKv, 100, a),
            "kv at step 100: exact match, mean over depths, by length: 40: 1.000, 80: 1.000, "
            "160: 0.500\neffective length 80 (threshold 0.9); U verdict pooled over lengths: " +
                a.u_pooled.verdict + "\n");
  EXPECT_FALSE(a.u_pooled.verdict.empty());
}

TEST(DepthEvalRecordFields, BadFieldsAndMissingCellsAreNamed) {
  const nlohmann::json good = to_json(measured_record());
  nlohmann::json bad = good;
  bad["u_verdict"]["pooled"]["middle_minus_end"]["lo"] = "low";
  EXPECT_NE(message_of(bad).find("eval field 'u_verdict.pooled.middle_minus_end.lo'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["depth_accuracy"]["40"]["0"]["acc"] = 1;
  EXPECT_NE(message_of(bad).find("unknown eval field 'depth_accuracy.40.0.acc'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["depth_accuracy"]["40"].erase("12.5");
  EXPECT_NE(message_of(bad).find("'depth_accuracy.40' must hold one cell per depth"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["mean_accuracy"].erase("160");
  EXPECT_NE(message_of(bad).find("'mean_accuracy' has no 160"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["depths"] = {0, 12.5, 50, 150};
  EXPECT_NE(message_of(bad).find("depth"), std::string::npos) << message_of(bad);
  bad = good;
  bad["effective_length"] = 50;
  EXPECT_NE(message_of(bad).find("'effective_length' must be one of the lengths"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad.erase("task");
  EXPECT_NE(message_of(bad).find("missing eval field 'task'"), std::string::npos);
  // The task and the attention paths are enums: a name outside their tables is refused.
  bad = good;
  bad["task"] = "letter";
  EXPECT_EQ(message_of(bad),
            "eval field 'task': unknown retrieval task 'letter' (use kv or passkey)");
  bad = good;
  bad["attention"]["40"] = "flash";
  EXPECT_NE(message_of(bad).find("eval field 'attention.40': unknown attention path 'flash'"),
            std::string::npos)
      << message_of(bad);
}

TEST(DepthEvalRecordFields, EveryShippedEvalReadsBackAndWritesOutTheSameBytes) {
  int kv = 0, passkey = 0, current_configs = 0, several = 0;
  const auto count = [&](const DepthEvalRecord& r, const std::string& where) {
    EXPECT_NO_THROW(depth_accuracy_of(r)) << where;
    (r.task == AnswerInputs::kKv ? kv : passkey) += 1;
  };
  const auto check = [&](const nlohmann::json& j, const std::string& where) {
    const DepthEvalRecord r = depth_eval_record_from_json(j);
    count(r, where);
    // Configs written by earlier builds gain the fields added since (train_config_test);
    // the rest of the file comes back byte for byte.
    nlohmann::json expected = j;
    expected["config"] = to_json(r)["config"];
    current_configs += expected == j ? 1 : 0;
    EXPECT_EQ(posbias_test::json_text(to_json(r)), posbias_test::json_text(expected)) << where;
  };
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"u_verdict\"")) {
    if (bytes.find("\"chance_rule\"") == std::string::npos) continue;
    const nlohmann::json j = nlohmann::json::parse(bytes);
    if (!eval_file_kind(j).checkpoints) {
      check(j, path.string());
      continue;
    }
    // eval --checkpoints' file of several: its own record, each checkpoint's result typed.
    const DepthEvalSteps steps = eval_steps_from_json<DepthEvalSteps>(j);
    EXPECT_EQ(posbias_test::json_text(to_json(steps)), bytes) << path;
    for (std::size_t i = 0; i < steps.checkpoints.size(); ++i)
      count(steps.checkpoints[i], path.string() + " checkpoint " + std::to_string(i));
    ++several;
  }
  EXPECT_GE(kv, 50);
  EXPECT_GE(passkey, 8);
  EXPECT_GE(current_configs, 8);
  EXPECT_GE(several, 1);
}

}  // namespace
}  // namespace posbias
