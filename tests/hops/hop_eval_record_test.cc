// HopEvalRecord's field table (experiments/hops/hop_eval_record.h): a record with every part
// round-trips through JSON, fields inside the controls are refused by their dotted path, and
// every hop `eval --run` result shipped in docs/data reads back and writes out byte for byte.
#include "experiments/hops/hop_eval_record.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "../shipped_records.h"
#include "posbias/runfiles/eval_steps.h"

namespace posbias {
namespace {

HopEvalRecord full_record() {
  HopEvalRecord r;
  r.task = Task::kLetter;
  r.run = "runs/letter";
  r.checkpoint = "runs/letter/checkpoints/step_00000100.safetensors";
  r.step = 100;
  r.count_per_hop = 8;
  r.seed = 1;
  r.lengths = {17, 64};
  r.accuracy = {{"17", {{"1", 1.0}, {"all", 0.75}}}, {"64", {{"1", 0.5}, {"all", 0.25}}}};
  r.chance = r.accuracy;
  r.attention = {{"17", AttentionPath::kDense}, {"64", AttentionPath::kDense}};
  HopEvalControl decoy;
  decoy.accuracy = r.accuracy;
  decoy.chance = r.accuracy;
  decoy.decoy_rate = {{"17", 0.0}, {"64", 0.125}};
  r.controls = {{"decoy", decoy}};
  r.seconds = 2.5;
  r.rope_scaling = RopeScaling{RopeScalingKind::kPi, 2.0};  // eval-only options: written when set
  r.logn_scale = 0.25;
  return r;
}

std::string message_of(const nlohmann::json& j) {
  return posbias_test::refusal_of([&] { hop_eval_record_from_json(j); });
}

TEST(HopEvalRecordFields, EveryPartRoundTripsThroughJson) {
  const nlohmann::json j = to_json(full_record());
  for (const auto& row : hop_eval_record_fields())
    EXPECT_TRUE(j.contains(row.name)) << row.name << " is not written";
  EXPECT_EQ(j["controls"]["decoy"]["decoy_rate"]["64"], 0.125);
  EXPECT_EQ(to_json(hop_eval_record_from_json(j)), j);
  HopEvalRecord plain = full_record();  // no control, as eval --no-controls writes
  plain.controls.reset();
  EXPECT_FALSE(to_json(plain).contains("controls"));
}

TEST(HopEvalRecordFields, FieldsInsideTheControlsAreRefusedByTheirPath) {
  const nlohmann::json good = to_json(full_record());
  nlohmann::json bad = good;
  bad["controls"]["decoy"]["accuracy"]["17"]["1"] = "high";
  EXPECT_NE(message_of(bad).find("eval field 'controls.decoy.accuracy.17.1'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["controls"]["decoy"].erase("accuracy");
  EXPECT_NE(message_of(bad).find("missing eval field 'controls.decoy.accuracy'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["acuracy"] = good["accuracy"];
  EXPECT_NE(message_of(bad).find("unknown eval field 'acuracy'"), std::string::npos);
  bad = good;
  bad["attention"]["64"] = "flash";  // an enum: only dense or blockwise
  EXPECT_NE(message_of(bad).find("eval field 'attention.64': unknown attention path 'flash'"),
            std::string::npos)
      << message_of(bad);
  for (const char* key : {"task", "accuracy"}) {
    bad = good;
    bad.erase(key);
    EXPECT_NE(message_of(bad).find(std::string("missing eval field '") + key + "'"),
              std::string::npos)
        << key;
  }
}

TEST(HopEvalRecordFields, EveryShippedEvalReadsBackAndWritesOutTheSameBytes) {
  int files = 0, with_controls = 0;
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"count_per_hop\"")) {
    if (path.filename().string().find("eval") == std::string::npos) continue;
    const nlohmann::json j = nlohmann::json::parse(bytes);
    if (j.value("task", "") != "number" && j.value("task", "") != "letter") continue;
    const HopEvalRecord r = hop_eval_record_from_json(j);
    ++files;
    with_controls += r.controls ? 1 : 0;
    EXPECT_EQ(posbias_test::json_text(to_json(r)), bytes) << path;
  }
  EXPECT_GE(files, 30);
  EXPECT_GE(with_controls, 20);
}

}  // namespace
}  // namespace posbias

// The terminal summary names the run and gives the all-hop accuracy and chance per length, and
// each control's; a record of an earlier build (no chance) leaves the brackets out.
TEST(HopEvalSummary, AllHopsByLengthWithChanceAndControls) {
  posbias::HopEvalRecord r;
  r.task = posbias::Task::kLetter;
  r.run = "runs/letter";
  r.step = 5000;
  r.count_per_hop = 64;
  r.lengths = {17, 850};
  r.accuracy = {{"17", {{"1", 1.0}, {"all", 1.0}}}, {"850", {{"all", 0.99612}}}};
  r.chance = posbias::HopRowsByLength{{"17", {{"all", 0.1333}}}, {"850", {{"all", 0.131}}}};
  posbias::HopEvalControl decoy;
  decoy.accuracy = {{"17", {{"all", 0.992}}}, {"850", {{"all", 0.98}}}};
  r.controls = std::map<std::string, posbias::HopEvalControl>{{"decoy", decoy}};
  EXPECT_EQ(posbias::hop_eval_summary(r),
            "letter run runs/letter, step 5000, 64 examples per hop and length\n"
            "all hops, by length (chance): 17: 1.000 (0.133), 850: 0.996 (0.131)\n"
            "decoy control: 17: 0.992, 850: 0.980\n");
  r.chance.reset();
  r.controls.reset();
  EXPECT_EQ(posbias::hop_eval_summary(r),
            "letter run runs/letter, step 5000, 64 examples per hop and length\n"
            "all hops, by length: 17: 1.000, 850: 0.996\n");
}

// eval --checkpoints' file of several checkpoints (posbias/runfiles/eval_steps.h): its record
// round-trips with each checkpoint's eval as written, refuses bad fields by name, and is what
// the readers of one eval refuse (and only it: a hop eval is not taken for one).
TEST(EvalSteps, TheFileOfSeveralCheckpointsRoundTripsAndIsRefusedWhereOneIsRead) {
  using posbias::HopEvalSteps;
  const nlohmann::json one = posbias::to_json(posbias::full_record());
  const HopEvalSteps steps{
      "runs/letter", posbias::EvalTask::kLetter, {posbias::full_record(), posbias::full_record()}};
  const nlohmann::json j = posbias::to_json(steps);
  EXPECT_EQ(j.dump(), nlohmann::json(
                          {{"run", "runs/letter"}, {"task", "letter"}, {"checkpoints", {one, one}}})
                          .dump());
  EXPECT_EQ(posbias::to_json(posbias::eval_steps_from_json<HopEvalSteps>(j)), j);
  nlohmann::json bad = j;
  bad["task"] = "hop";  // an enum: the tasks eval measures
  EXPECT_EQ(posbias_test::refusal_of([&] { posbias::eval_steps_from_json<HopEvalSteps>(bad); }),
            "eval --checkpoints field 'task': unknown eval task 'hop' (use number, letter, text, "
            "kv or passkey)");
  bad = j;
  bad["checkpoints"] = one;
  EXPECT_NE(posbias_test::refusal_of([&] {
              posbias::eval_steps_from_json<HopEvalSteps>(bad);
            }).find("eval --checkpoints field 'checkpoints' must be a list"),
            std::string::npos);
  try {
    posbias::refuse_eval_steps(j, "e.json");
    ADD_FAILURE() << "the file of two checkpoints was not refused";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("e.json: holds the eval of 2 checkpoints"),
              std::string::npos);
  }
  EXPECT_NO_THROW(posbias::refuse_eval_steps(one, "one.json"));
  EXPECT_NO_THROW(posbias::refuse_eval_steps(bad, "bad.json"));
}

// Each checkpoint is its task's record, read strictly by that record's table: a mistyped or
// unknown field inside one is refused by its dotted path, and the values read are typed.
TEST(EvalSteps, EachCheckpointIsReadByItsRecordsOwnTable) {
  using posbias::HopEvalSteps;
  posbias::HopEvalRecord later = posbias::full_record();
  later.step = 200;
  const nlohmann::json j = posbias::to_json(
      HopEvalSteps{"runs/letter", posbias::EvalTask::kLetter, {posbias::full_record(), later}});
  const HopEvalSteps read = posbias::eval_steps_from_json<HopEvalSteps>(j);
  ASSERT_EQ(read.checkpoints.size(), 2u);
  EXPECT_EQ(read.checkpoints[1].step, 200);
  EXPECT_EQ(read.checkpoints[0].accuracy.at("64").at("all"), 0.25);
  nlohmann::json bad = j;
  bad["checkpoints"][1]["step"] = "200";
  EXPECT_EQ(posbias_test::refusal_of([&] { posbias::eval_steps_from_json<HopEvalSteps>(bad); }),
            "eval --checkpoints field 'checkpoints.1.step' must be a number (an integer)");
  bad = j;
  bad["checkpoints"][0]["zz"] = 1;
  EXPECT_EQ(posbias_test::refusal_of([&] { posbias::eval_steps_from_json<HopEvalSteps>(bad); }),
            "unknown eval --checkpoints field 'checkpoints.0.zz'");
}

// What a file eval wrote is (eval_file_kind), told by the tables: the file of several with its
// count, one checkpoint's result of any task with the task it names, and no eval result refused
// in one line naming the problem.
TEST(EvalSteps, TheKindOfAnEvalFileIsToldByItsOwnFields) {
  const nlohmann::json one = posbias::to_json(posbias::full_record());
  const nlohmann::json several = posbias::to_json(posbias::HopEvalSteps{
      "runs/letter", posbias::EvalTask::kLetter, {posbias::full_record(), posbias::full_record()}});
  const posbias::EvalFileKind steps = posbias::eval_file_kind(several);
  EXPECT_EQ(steps.task, posbias::EvalTask::kLetter);
  EXPECT_EQ(steps.checkpoints, std::optional<std::size_t>(2));
  const posbias::EvalFileKind single = posbias::eval_file_kind(one);
  EXPECT_EQ(single.task, posbias::EvalTask::kLetter);
  EXPECT_FALSE(single.checkpoints.has_value());
  EXPECT_EQ(posbias::eval_file_kind({{"task", "passkey"}, {"needles", 4}}).task,
            posbias::EvalTask::kPasskey);
  nlohmann::json bad = several;
  bad["checkpoints"] = 3;  // the envelope's fields, not its kinds: one result (its reader refuses)
  EXPECT_FALSE(posbias::eval_file_kind(bad).checkpoints.has_value());
  EXPECT_EQ(posbias_test::refusal_of([] {
              posbias::eval_file_kind({{"run", "r"}});
            }),
            "missing eval field 'task'");
  EXPECT_EQ(posbias_test::refusal_of([] {
              posbias::eval_file_kind({{"task", "hop"}});
            }),
            "eval field 'task': unknown eval task 'hop' (use number, letter, text, kv or passkey)");
  EXPECT_EQ(posbias_test::refusal_of([] { posbias::eval_file_kind(nlohmann::json::array()); }),
            "not a JSON object");
}
