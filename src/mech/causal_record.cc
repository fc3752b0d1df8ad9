#include "posbias/mech/causal_record.h"

namespace posbias {

const std::vector<FieldRow<AblatedRecord>>& ablated_record_fields();
const std::vector<FieldRow<AblatedLayerRecord>>& ablated_layer_record_fields();
const std::vector<FieldRow<AblatedJointRecord>>& ablated_joint_record_fields();
const std::vector<FieldRow<AblatedSpanRecord>>& ablated_span_record_fields();
const std::vector<FieldRow<PatchedLayerRecord>>& patched_layer_record_fields();

template <>
struct FieldCodec<AblatedLayerRecord>
    : TableCodec<AblatedLayerRecord, &ablated_layer_record_fields> {};
template <>
struct FieldCodec<AblatedJointRecord>
    : TableCodec<AblatedJointRecord, &ablated_joint_record_fields> {};
template <>
struct FieldCodec<AblatedSpanRecord> : TableCodec<AblatedSpanRecord, &ablated_span_record_fields> {
};
template <>
struct FieldCodec<PatchedLayerRecord>
    : TableCodec<PatchedLayerRecord, &patched_layer_record_fields> {};
template <>
struct FieldCodec<std::vector<AblatedLayerRecord>> : ListCodec<AblatedLayerRecord> {};
template <>
struct FieldCodec<std::vector<AblatedSpanRecord>> : ListCodec<AblatedSpanRecord> {};
template <>
struct FieldCodec<std::vector<PatchedLayerRecord>> : ListCodec<PatchedLayerRecord> {};

const std::vector<FieldRow<AblatedRecord>>& ablated_record_fields() {
  using A = AblatedRecord;
  static const std::vector<FieldRow<A>> rows = {
      required(field("accuracy", &A::accuracy, "accuracy per hop count, per length")),
      field("interval", &A::interval, "its Wilson 95% interval [low, high]"),
      field("drop", &A::drop, "the baseline's accuracy minus this row's"),
  };
  return rows;
}

// The rows of AblatedRecord and `own`, for a record derived from it.
template <class D>
std::vector<FieldRow<D>> with_ablated_fields(std::vector<FieldRow<D>> own) {
  std::vector<FieldRow<D>> rows = inherited_fields<D>(ablated_record_fields());
  for (auto& row : own) rows.push_back(std::move(row));
  return rows;
}

const std::vector<FieldRow<AblatedLayerRecord>>& ablated_layer_record_fields() {
  using L = AblatedLayerRecord;
  static const std::vector<FieldRow<L>> rows =
      with_ablated_fields<L>({required(field("layer", &L::layer, "the ablated layer"))});
  return rows;
}

const std::vector<FieldRow<AblatedJointRecord>>& ablated_joint_record_fields() {
  using J = AblatedJointRecord;
  static const std::vector<FieldRow<J>> rows =
      with_ablated_fields<J>({required(field("layers", &J::layers, "the layers ablated at once"))});
  return rows;
}

const std::vector<FieldRow<AblatedSpanRecord>>& ablated_span_record_fields() {
  using S = AblatedSpanRecord;
  static const std::vector<FieldRow<S>> rows = with_ablated_fields<S>({
      required(field("first", &S::first, "the span's first layer")),
      required(field("last", &S::last, "the span's last layer")),
  });
  return rows;
}

const std::vector<FieldRow<AblationRecord>>& ablation_record_fields() {
  using R = AblationRecord;
  static const std::vector<FieldRow<R>> rows = {
      required(field("lengths", &R::lengths, "the input lengths")),
      field("count_per_hop", &R::count_per_hop, "examples per (length, hop count)"),
      field("seed", &R::seed, "the held-out examples' seed"),
      field("layer_index", &R::layer_index, "how layers are numbered"),
      field("rule", &R::rule, "what was ablated and how the drop is measured"),
      required(field("baseline", &R::baseline, "accuracy with nothing ablated")),
      field("baseline_interval", &R::baseline_interval, "its Wilson 95% interval"),
      field("chance", &R::chance, "a uniform guess's accuracy among the candidates"),
      required(field("layers", &R::layers, "one layer ablated at a time")),
      optional_field("joint", &R::joint, "every listed layer ablated at once"),
      optional_field("spans", &R::spans, "layers 0..k and k..last ablated at once"),
      field("checkpoint", &R::checkpoint, "the checkpoint tested", "PATH"),
      field("step", &R::step, "its training step"),
  };
  return rows;
}

const std::vector<FieldRow<PatchedLayerRecord>>& patched_layer_record_fields() {
  using P = PatchedLayerRecord;
  static const std::vector<FieldRow<P>> rows = {
      required(field("layer", &P::layer, "the patched layer")),
      field("moved", &P::moved, "fraction of pairs now predicting the corrupted answer"),
      field("kept", &P::kept, "fraction still predicting the clean answer"),
  };
  return rows;
}

const std::vector<FieldRow<PatchingRecord>>& patching_record_fields() {
  using R = PatchingRecord;
  static const std::vector<FieldRow<R>> rows = {
      required(field("lengths", &R::lengths, "the input lengths")),
      field("pairs", &R::pairs, "clean/corrupted pairs per length"),
      field("layer_index", &R::layer_index, "how layers are numbered"),
      field("rule", &R::rule, "how the pairs are built and what moved and kept mean"),
      field("clean_accuracy", &R::clean_accuracy, "the clean run's accuracy, per length"),
      field("corrupted_accuracy", &R::corrupted_accuracy,
            "the corrupted run's accuracy on its own answer, per length"),
      required(field("layers", &R::layers, "one patched layer each")),
      field("checkpoint", &R::checkpoint, "the checkpoint tested", "PATH"),
      field("step", &R::step, "its training step"),
  };
  return rows;
}

nlohmann::json to_json(const AblationRecord& r) {
  return fields_to_json(ablation_record_fields(), r);
}

nlohmann::json to_json(const PatchingRecord& r) {
  return fields_to_json(patching_record_fields(), r);
}

}  // namespace posbias
