#include "posbias/mech/trained_discrepancy_record.h"

#include <nlohmann/json.hpp>

#include "posbias/core/enum_names.h"
#include "posbias/mech/head_label_codec.h"
#include "posbias/tasks/task_codecs.h"

namespace posbias {

namespace {

constexpr EnumNames<KeyHeadKind, 3> kKeyHeadKindNames{{{KeyHeadKind::kPositional, "positional"},
                                                       {KeyHeadKind::kSymbolic, "symbolic"},
                                                       {KeyHeadKind::kChosen, "chosen"}}};

}  // namespace

std::string_view key_head_kind_name(KeyHeadKind kind) { return name_of(kKeyHeadKindNames, kind); }

KeyHeadKind parse_key_head_kind(const std::string& name) {
  return value_of(kKeyHeadKindNames, name, "key-head kind");
}

const std::vector<FieldRow<KeyHeadName>>& key_head_name_fields();
const std::vector<FieldRow<KeyHeadScores>>& key_head_scores_fields();
const std::vector<FieldRow<KeyHeadDiscrepancy>>& key_head_discrepancy_fields();
const std::vector<FieldRow<GapPoint>>& gap_point_fields();

template <>
struct FieldCodec<KeyHeadScores> : TableCodec<KeyHeadScores, &key_head_scores_fields> {};
template <>
struct FieldCodec<KeyHeadDiscrepancy>
    : TableCodec<KeyHeadDiscrepancy, &key_head_discrepancy_fields> {};
template <>
struct FieldCodec<GapPoint> : TableCodec<GapPoint, &gap_point_fields> {};
template <>
struct FieldCodec<std::vector<GapPoint>> : ListCodec<GapPoint> {};

const std::vector<FieldRow<KeyHeadName>>& key_head_name_fields() {
  using K = KeyHeadName;
  static const std::vector<FieldRow<K>> rows = {
      field("layer", &K::layer, "0-based layer"),
      field("head", &K::head, "0-based head"),
      field("kind", &K::kind, "the role it was chosen for: positional, symbolic or chosen"),
      field("label", &K::label, "the label of its head scores"),
  };
  return rows;
}

const std::vector<FieldRow<KeyHeadScores>>& key_head_scores_fields() {
  using K = KeyHeadScores;
  static const std::vector<FieldRow<K>> rows = [] {
    std::vector<FieldRow<K>> r = inherited_fields<K, KeyHeadName>(key_head_name_fields());
    r.push_back(field<K, double, NanAsNull>("positional", &K::positional, "positional score"));
    r.push_back(field<K, double, NanAsNull>("symbolic", &K::symbolic, "symbolic score"));
    return r;
  }();
  return rows;
}

const std::vector<FieldRow<GapPoint>>& gap_point_fields() {
  using G = GapPoint;
  static const std::vector<FieldRow<G>> rows = {
      field("length", &G::length, "input length, in tokens"),
      field<G, double, NanAsNull>("median", &G::median, "median gap (null: no example)"),
      field<G, double, NanAsNull>("mean", &G::mean, "mean gap"),
      field<G, double, NanAsNull>("min", &G::min, "smallest gap"),
      field<G, double, NanAsNull>("p10", &G::p10, "10th percentile"),
      field<G, double, NanAsNull>("p90", &G::p90, "90th percentile"),
      field("n", &G::n, "examples"),
  };
  return rows;
}

const std::vector<FieldRow<ExponentRecord>>& exponent_record_fields() {
  using E = ExponentRecord;
  static const std::vector<FieldRow<E>> rows = {
      field<E, double, NanAsNull>("value", &E::value, "the exponent (null: no fit)"),
      field<E, std::vector<double>, NanAsNullList>(
          "ci", &E::ci, "its 95% interval [low, high] (null: fewer than 3 points)"),
      field("from", &E::from, "the shortest length fitted"),
      field("points", &E::points, "lengths fitted"),
  };
  return rows;
}

const std::vector<FieldRow<KeyHeadDiscrepancy>>& key_head_discrepancy_fields() {
  using K = KeyHeadDiscrepancy;
  static const std::vector<FieldRow<K>> rows = [] {
    std::vector<FieldRow<K>> r = inherited_fields<K, KeyHeadName>(key_head_name_fields());
    r.push_back(required(field("points", &K::points, "the gap by length, every example")));
    r.push_back(field("on_chain_points", &K::on_chain_points,
                      "the gap by length, examples whose top key is on the chain"));
    r.push_back(field("top_key_on_chain", &K::top_key_on_chain,
                      "per length, the fraction of examples whose top key is on the chain"));
    r.push_back(optional_field("correct_points", &K::correct_points,
                               "the gap by length, examples answered correctly"));
    r.push_back(optional_field("exponent", &K::exponent, "power law of the median gap"));
    r.push_back(optional_field("on_chain_exponent", &K::on_chain_exponent,
                               "power law of the on-chain median gap"));
    return r;
  }();
  return rows;
}

const std::vector<FieldRow<TrainedDiscrepancyRecord>>& trained_discrepancy_record_fields() {
  using R = TrainedDiscrepancyRecord;
  static const std::vector<FieldRow<R>> rows = {
      field("run", &R::run, "the run folder", "PATH"),
      required(field("task", &R::task, "the run's task: number or letter")),
      optional_field("variant", &R::variant, "the inputs: standard or a control"),
      field("step", &R::step, "the checkpoint's step"),
      optional_field("train_length", &R::train_length, "the run's training length"),
      field<R, std::vector<KeyHeadScores>, ListCodec<KeyHeadScores>>(
          "key_heads", &R::key_heads, "the key heads and their scores"),
      field("lengths", &R::lengths, "input lengths, in tokens"),
      field("count", &R::count, "examples per length"),
      required(field("accuracy", &R::accuracy, "accuracy by length")),
      required(field<R, std::vector<KeyHeadDiscrepancy>, ListCodec<KeyHeadDiscrepancy>>(
          "discrepancy", &R::discrepancy, "each key head's gaps and fits")),
  };
  return rows;
}

ExponentRecord exponent_record(const PowerLawFit& fit, double from) {
  return {fit.exponent, {fit.low, fit.high}, from, fit.points};
}

nlohmann::json to_json(const ExponentRecord& exponent) {
  return fields_to_json(exponent_record_fields(), exponent);
}

TrainedDiscrepancyRecord trained_discrepancy_record(const TrainedDiscrepancyResult& r) {
  TrainedDiscrepancyRecord out;
  out.run = r.run;
  out.task = r.task;
  out.variant = r.variant;
  out.step = r.step;
  out.train_length = r.train_length;
  out.lengths = r.lengths;
  out.count = r.count;
  for (std::size_t i = 0; i < r.lengths.size() && i < r.accuracy.size(); ++i)
    out.accuracy[std::to_string(r.lengths[i])] = r.accuracy[i];
  const double from = r.train_length + 1;
  for (const KeyHeadGaps& h : r.heads) {
    const KeyHeadName name{h.layer, h.head, h.kind, h.label};
    KeyHeadScores scores;
    static_cast<KeyHeadName&>(scores) = name;
    scores.positional = h.positional;
    scores.symbolic = h.symbolic;
    out.key_heads.push_back(scores);
    KeyHeadDiscrepancy d;
    static_cast<KeyHeadName&>(d) = name;
    d.points = h.points;
    d.on_chain_points = h.on_chain_points;
    d.top_key_on_chain = h.top_key_on_chain;
    d.correct_points = h.correct_points;
    d.exponent = exponent_record(h.exponent, from);
    d.on_chain_exponent = exponent_record(h.on_chain_exponent, from);
    out.discrepancy.push_back(std::move(d));
  }
  return out;
}

nlohmann::json to_json(const TrainedDiscrepancyRecord& r) {
  return fields_to_json(trained_discrepancy_record_fields(), r);
}

TrainedDiscrepancyRecord trained_discrepancy_record_from_json(const nlohmann::json& j) {
  return fields_from_json(trained_discrepancy_record_fields(), j, TrainedDiscrepancyRecord{},
                          "discrepancy field");
}

}  // namespace posbias
