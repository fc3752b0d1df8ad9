#include "posbias/train/answer_influence_record.h"

#include <nlohmann/json.hpp>
#include <utility>

#include "posbias/tasks/task_codecs.h"

namespace posbias {

const std::vector<FieldRow<AnswerDepthRecord>>& answer_depth_record_fields();
const std::vector<FieldRow<AnswerCheckpointRecord>>& answer_checkpoint_record_fields();
template <>
struct FieldCodec<AnswerDepthRecord> : TableCodec<AnswerDepthRecord, &answer_depth_record_fields> {
};
template <>
struct FieldCodec<AnswerCheckpointRecord>
    : TableCodec<AnswerCheckpointRecord, &answer_checkpoint_record_fields> {};
template <>
struct FieldCodec<std::vector<AnswerDepthRecord>> : ListCodec<AnswerDepthRecord> {};
template <>
struct FieldCodec<std::vector<AnswerCheckpointRecord>> : ListCodec<AnswerCheckpointRecord> {};

const std::vector<FieldRow<AnswerDepthRecord>>& answer_depth_record_fields() {
  using D = AnswerDepthRecord;
  static const std::vector<FieldRow<D>> rows = {
      required(field("depth", &D::depth, "the depth asked for, percent")),
      field("actual_depth", &D::actual_depth, "the last example's depth, percent"),
      field("examples", &D::examples, "examples at this depth"),
      field("accuracy", &D::accuracy, "their exact match"),
      required(field("needle", &D::needle, "the share on the queried needle, per example")),
      field("distractor", &D::distractor, "the mean share on one distractor, per example"),
      field<D, double, NanAsNull>("needle_to_distractor", &D::needle_to_distractor,
                                  "the two means' ratio (null: no distractors)"),
  };
  return rows;
}

const std::vector<FieldRow<AnswerCheckpointRecord>>& answer_checkpoint_record_fields() {
  using C = AnswerCheckpointRecord;
  static const std::vector<FieldRow<C>> rows = [] {
    std::vector<FieldRow<C>> r = {
        required(field("step", &C::step, "the checkpoint's step")),
        field("checkpoint", &C::checkpoint, "the checkpoint file", "PATH"),
        field("profile", &C::profile, "the mean share of each position"),
        field("accuracy", &C::accuracy, "exact match over every example"),
        required(field("by_depth", &C::by_depth, "each depth's examples")),
    };
    for (auto& row : member_fields(&C::profile_shares, profile_shares_record_fields()))
      r.push_back(std::move(row));
    return r;
  }();
  return rows;
}

const std::vector<FieldRow<AnswerInfluenceRecord>>& answer_influence_record_fields() {
  using R = AnswerInfluenceRecord;
  static const std::vector<FieldRow<R>> rows = {
      position_base_field(&R::position_base),
      field("run", &R::run, "the run folder", "PATH"),
      required(field("inputs", &R::inputs, "kv or passkey: whose examples")),
      field("target", &R::target, "answer: the answer's loss"),
      required(field("length", &R::length, "tokens per example (L)")),
      field("positions", &R::positions, "positions read: L + 2 (kv) or L (passkey)"),
      optional_field("pairs", &R::pairs, "kv pairs in each example"),
      optional_field("needles", &R::needles, "passkey needles in each example"),
      required(field("depths", &R::depths, "the depths measured, percent")),
      field("per_depth", &R::per_depth, "examples per depth"),
      field("seed", &R::seed, "the inputs' seed (eval's)"),
      required(field("checkpoints", &R::checkpoints, "one measurement per checkpoint")),
  };
  return rows;
}

nlohmann::json to_json(const AnswerInfluenceRecord& r) {
  return fields_to_json(answer_influence_record_fields(), r);
}

AnswerInfluenceRecord answer_influence_record_from_json(const nlohmann::json& j) {
  auto [r, shift] = read_positioned(answer_influence_record_fields(), j,
                                    &AnswerInfluenceRecord::position_base, "influence field");
  for (AnswerCheckpointRecord& c : r.checkpoints)
    if (c.profile_shares.shares) rebase_regions(*c.profile_shares.shares, shift);
  return r;
}

}  // namespace posbias
