#include "experiments/retrieval/depth_eval_record.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "posbias/arch/arch_codecs.h"
#include "posbias/tasks/task_codecs.h"

namespace posbias {

const std::vector<FieldRow<DepthCell>>& depth_cell_fields();
const std::vector<FieldRow<Difference>>& difference_fields();
const std::vector<FieldRow<UVerdict>>& u_verdict_fields();
const std::vector<FieldRow<UVerdictRecord>>& u_verdict_record_fields();

template <>
struct FieldCodec<DepthCell> : TableCodec<DepthCell, &depth_cell_fields> {};
template <>
struct FieldCodec<Difference> : TableCodec<Difference, &difference_fields> {};
template <>
struct FieldCodec<UVerdict> : TableCodec<UVerdict, &u_verdict_fields> {};
template <>
struct FieldCodec<UVerdictRecord> : TableCodec<UVerdictRecord, &u_verdict_record_fields> {};

const std::vector<FieldRow<DepthCell>>& depth_cell_fields() {
  using C = DepthCell;
  static const std::vector<FieldRow<C>> rows = {
      field("n", &C::n, "examples"),
      field("correct", &C::correct, "exact matches"),
      field<C, double, NanAsNull>("accuracy", &C::accuracy, "correct / n (null: no example)"),
      field("lo", &C::lo, "Wilson 95% interval, low end"),
      field("hi", &C::hi, "Wilson 95% interval, high end"),
      field<C, double, NanAsNull>("chance", &C::chance, "a uniform guess's accuracy"),
  };
  return rows;
}

const std::vector<FieldRow<Difference>>& difference_fields() {
  using D = Difference;
  static const std::vector<FieldRow<D>> rows = {
      field<D, double, NanAsNull>("estimate", &D::estimate, "p1 - p2"),
      field<D, double, NanAsNull>("lo", &D::lo, "Newcombe 95% interval, low end"),
      field<D, double, NanAsNull>("hi", &D::hi, "Newcombe 95% interval, high end"),
  };
  return rows;
}

const std::vector<FieldRow<UVerdict>>& u_verdict_fields() {
  using U = UVerdict;
  static const std::vector<FieldRow<U>> rows = {
      field("verdict", &U::verdict, "U, no U or undetermined"),
      field("start", &U::start, "depths 0..10 pooled"),
      field("middle", &U::middle, "depths 30..70 pooled"),
      field("end", &U::end, "depths 90..100 pooled"),
      field("middle_minus_start", &U::middle_minus_start, "middle - start"),
      field("middle_minus_end", &U::middle_minus_end, "middle - end"),
  };
  return rows;
}

const std::vector<FieldRow<UVerdictRecord>>& u_verdict_record_fields() {
  using U = UVerdictRecord;
  static const std::vector<FieldRow<U>> rows = {
      field("rule", &U::rule, "the verdict's rule"),
      field("by_length", &U::by_length, "the verdict at each length"),
      field("pooled", &U::pooled, "every length's regions pooled"),
  };
  return rows;
}

const std::vector<FieldRow<DepthEvalRecord>>& depth_eval_record_fields() {
  using R = DepthEvalRecord;
  using MeanCodec = MapCodec<double, NanAsNull>;
  static const std::vector<FieldRow<R>> rows = {
      required(field("task", &R::task, "the run's task: kv or passkey")),
      field("run", &R::run, "the run folder", "PATH"),
      field("checkpoint", &R::checkpoint, "the checkpoint evaluated", "PATH"),
      field("step", &R::step, "the checkpoint's step"),
      field("config", &R::config, "the run's training config"),
      field("count", &R::count, "examples per cell"),
      field("seed", &R::seed, "the examples' seed"),
      field("lengths", &R::lengths, "context lengths, in tokens"),
      field("depths", &R::depths, "depths of the answer, in percent"),
      field("threshold", &R::threshold, "RULER's threshold for the effective length"),
      field("depth_accuracy", &R::depth_accuracy, "a cell per length and depth"),
      field<R, std::map<std::string, double>, MeanCodec>(
          "mean_accuracy", &R::mean_accuracy, "per length, the mean of its cells' accuracies"),
      field("effective_length", &R::effective_length, "RULER's effective length (null: none)"),
      field("u_verdict", &R::u_verdict, "middle against both ends"),
      field("attention", &R::attention, "the attention path at each length"),
      field("seconds", &R::seconds, "wall seconds of the evaluation"),
      field("chance_rule", &R::chance_rule, "how a cell's chance level is computed"),
      optional_field("pairs", &R::pairs, "kv: pairs in the context at each length"),
      optional_field("queried_rule", &R::queried_rule, "kv: the queried pair of a depth"),
      optional_field("needles", &R::needles, "passkey: needles in the context"),
      optional_field("depth_rule", &R::depth_rule, "passkey: where a depth puts the needle"),
      optional_field("rope_scaling", &R::rope_scaling,
                     "eval --rope-scaling: the RoPE scaling evaluated with (absent: none)"),
      optional_field("logn_scale", &R::logn_scale,
                     "eval --logn-scale: the log-n attention scale s applied at evaluation only "
                     "(absent: none)"),
      optional_field("calibrate", &R::calibrate,
                     "eval --calibrate: the strength of the attention calibration, the "
                     "content-free log-attention subtracted from the logits times it (absent: "
                     "none)"),
  };
  return rows;
}

nlohmann::json to_json(const DepthEvalRecord& r) {
  return fields_to_json(depth_eval_record_fields(), r);
}

DepthEvalRecord depth_eval_record_from_json(const nlohmann::json& j) {
  return fields_from_json(depth_eval_record_fields(), j, DepthEvalRecord{}, "eval field");
}

namespace {

template <class T>
const T& entry(const std::map<std::string, T>& m, const std::string& key, const std::string& name) {
  const auto it = m.find(key);
  if (it == m.end()) throw std::invalid_argument("eval field '" + name + "' has no " + key);
  return it->second;
}

}  // namespace

DepthAccuracy depth_accuracy_of(const DepthEvalRecord& r) {
  check_depth_accuracy_inputs(r.lengths, r.depths, r.threshold);
  DepthAccuracy a;
  a.lengths = r.lengths;
  a.depths = r.depths;
  a.threshold = r.threshold;
  for (int length : r.lengths) {
    const std::string key = std::to_string(length);
    const auto& row = entry(r.depth_accuracy, key, "depth_accuracy");
    if (row.size() != r.depths.size())
      throw std::invalid_argument("eval field 'depth_accuracy." + key +
                                  "' must hold one cell per depth");
    std::vector<DepthCell>& cells = a.cells.emplace_back();
    for (double depth : r.depths)
      cells.push_back(entry(row, depth_key(depth), "depth_accuracy." + key));
    a.mean_accuracy.push_back(entry(r.mean_accuracy, key, "mean_accuracy"));
    a.u_by_length.push_back(entry(r.u_verdict.by_length, key, "u_verdict.by_length"));
  }
  if (r.depth_accuracy.size() != r.lengths.size())
    throw std::invalid_argument("eval field 'depth_accuracy' must hold one row per length");
  if (r.effective_length &&
      std::find(r.lengths.begin(), r.lengths.end(), *r.effective_length) == r.lengths.end())
    throw std::invalid_argument("eval field 'effective_length' must be one of the lengths");
  a.effective_length = r.effective_length;
  a.u_pooled = r.u_verdict.pooled;
  return a;
}

std::vector<DepthCellIndex> depth_cell_indices(const DepthAccuracy& a) {
  std::vector<DepthCellIndex> out;
  for (std::size_t l = 0; l < a.lengths.size(); ++l)
    for (std::size_t d = 0; d < a.depths.size(); ++d) out.push_back({l, d});
  return out;
}

std::vector<CsvColumn<DepthCellIndex>> depth_cell_columns(const DepthAccuracy& a) {
  const auto cell = [&a](const DepthCellIndex& i) -> const DepthCell& {
    return a.cells[i.length][i.depth];
  };
  return csv_mapped_columns<DepthCellIndex>(
      csv_field_columns(depth_cell_fields(), [](double v) { return csv_general(v, 6); }), cell);
}

}  // namespace posbias
