#include "posbias/mech/heads_record.h"

#include <fmt/format.h>

#include <cmath>

#include "posbias/arch/arch_codecs.h"
#include "posbias/mech/head_label_codec.h"
#include "posbias/tasks/task_codecs.h"

namespace posbias {

const std::vector<FieldRow<HeadScore>>& head_score_fields();
const std::vector<FieldRow<HeadsSource>>& heads_source_fields();
const std::vector<FieldRow<FinalHeads>>& final_heads_fields();
const std::vector<FieldRow<PureCounts>>& pure_counts_fields();
const std::vector<FieldRow<ThresholdLabels>>& threshold_labels_fields();

template <>
struct FieldCodec<HeadScore> : TableCodec<HeadScore, &head_score_fields> {};
template <>
struct FieldCodec<CheckpointHeads> : TableCodec<CheckpointHeads, &checkpoint_heads_fields> {};
template <>
struct FieldCodec<HeadsSource> : TableCodec<HeadsSource, &heads_source_fields> {};
template <>
struct FieldCodec<FinalHeads> : TableCodec<FinalHeads, &final_heads_fields> {};
template <>
struct FieldCodec<PureCounts> : TableCodec<PureCounts, &pure_counts_fields> {};
template <>
struct FieldCodec<ThresholdLabels> : TableCodec<ThresholdLabels, &threshold_labels_fields> {};
template <>
struct FieldCodec<std::vector<HeadScore>> : ListCodec<HeadScore> {};
template <>
struct FieldCodec<std::vector<CheckpointHeads>> : ListCodec<CheckpointHeads> {};
template <>
struct FieldCodec<std::vector<PureCounts>> : ListCodec<PureCounts> {};
template <>
struct FieldCodec<std::vector<ThresholdLabels>> : ListCodec<ThresholdLabels> {};

namespace {

// A 95% interval [low, high] held in two members; NaN ends are written as null.
FieldRow<HeadScore> interval_field(std::string name, double HeadScore::*low,
                                   double HeadScore::*high, std::string help) {
  FieldRow<HeadScore> row = field<HeadScore, double>(std::move(name), low, std::move(help));
  row.type = "LIST";
  row.from_flag = nullptr;
  row.write = [low, high](const HeadScore& s) { return NanAsNullList::write({s.*low, s.*high}); };
  row.read = [low, high, key = row.name](const nlohmann::json& j, HeadScore& s,
                                         const std::string& what) {
    const std::vector<double> ends = NanAsNullList::read(j, field_what(what, key));
    if (ends.size() != 2)
      throw std::invalid_argument(field_what(what, key) + " must be [low, high]");
    s.*low = ends[0];
    s.*high = ends[1];
  };
  return row;
}

}  // namespace

const std::vector<FieldRow<HeadScore>>& head_score_fields() {
  using H = HeadScore;
  static const std::vector<FieldRow<H>> rows = {
      field("layer", &H::layer, "0-based layer"),
      field("head", &H::head, "0-based head"),
      field<H, double, NanAsNull>("positional", &H::positional, "positional score"),
      field<H, double, NanAsNull>("symbolic", &H::symbolic, "symbolic score"),
      interval_field("positional_ci", &H::positional_low, &H::positional_high,
                     "Student-t 95% interval of the positional score over samples"),
      interval_field("symbolic_ci", &H::symbolic_low, &H::symbolic_high,
                     "Student-t 95% interval of the symbolic score over samples"),
      field<H, double, NanAsNull>("gap", &H::gap, "pair-weighted attention difference"),
      field<H, double, NanAsNull>("self", &H::self, "the query's attention on itself"),
      field("label", &H::label, "reflexive, positional, symbolic, mixed or uniform"),
  };
  return rows;
}

const std::vector<FieldRow<CheckpointHeads>>& checkpoint_heads_fields() {
  using C = CheckpointHeads;
  static const std::vector<FieldRow<C>> rows = {
      field("step", &C::step, "the checkpoint's step (null: a Hugging Face checkpoint)"),
      field("file", &C::file, "the checkpoint file", "PATH"),
      required(field("heads", &C::heads, "every head's scores, layer-major")),
  };
  return rows;
}

const std::vector<FieldRow<HeadsSource>>& heads_source_fields() {
  using S = HeadsSource;
  static const std::vector<FieldRow<S>> rows = {
      optional_field("run", &S::run, "the run folder"),
      optional_field("config", &S::config, "a Hugging Face config.json"),
      optional_field("weights", &S::weights, "its weights"),
      optional_field("tokens", &S::tokens, "the token samples' file (empty: random tokens)"),
      optional_field("text", &S::text,
                     "the text file the samples were encoded from by the checkpoint's tokenizer"),
  };
  return rows;
}

const std::vector<FieldRow<FinalHeads>>& final_heads_fields() {
  using F = FinalHeads;
  static const std::vector<FieldRow<F>> rows = {
      field("positional", &F::positional, "the last checkpoint's positional heads"),
      field("symbolic", &F::symbolic, "its symbolic heads"),
      field("reflexive", &F::reflexive, "its reflexive heads"),
  };
  return rows;
}

const std::vector<FieldRow<PureCounts>>& pure_counts_fields() {
  using P = PureCounts;
  static const std::vector<FieldRow<P>> rows = {
      field("step", &P::step, "the checkpoint's step"),
      field("positional", &P::positional, "positional heads"),
      field("symbolic", &P::symbolic, "symbolic heads"),
      field("reflexive", &P::reflexive, "reflexive heads"),
  };
  return rows;
}

const std::vector<FieldRow<ThresholdLabels>>& threshold_labels_fields() {
  using T = ThresholdLabels;
  static const std::vector<FieldRow<T>> rows = {
      required(field("threshold", &T::threshold, "the purity threshold")),
      required(field("final", &T::final, "the last checkpoint's heads by label")),
      field("pure_counts", &T::pure_counts, "pure heads per checkpoint"),
  };
  return rows;
}

const std::vector<FieldRow<HeadsRecord>>& heads_record_fields() {
  using R = HeadsRecord;
  static const std::vector<FieldRow<R>> rows = {
      field("source", &R::source, "what was scored"),
      optional_field("task", &R::task, "the run's task"),
      field("length", &R::length, "tokens per sample"),
      field("samples", &R::samples, "samples scored"),
      field("tau", &R::tau, "the pair weights' temperature"),
      optional_field("at_init", &R::at_init, "the run's initialization, not its checkpoints"),
      optional_field("qk_scale", &R::qk_scale, "query and key projections scaled by"),
      optional_field("attention", &R::attention, "the attention path: dense or blockwise"),
      field("layer_index", &R::layer_index, "how layers are numbered"),
      required(field("checkpoints", &R::checkpoints, "the scores at each checkpoint")),
      field("final", &R::final, "the last checkpoint's heads by label"),
      optional_field("label_threshold", &R::label_threshold, "the purity threshold of labels"),
      optional_field("threshold_sensitivity", &R::threshold_sensitivity,
                     "the labels at other purity thresholds"),
      field("seconds", &R::seconds, "wall seconds"),
      optional_field("ablation", &R::ablation, "--ablate's result"),
      optional_field("patching", &R::patching, "--patch's result"),
  };
  return rows;
}

nlohmann::json to_json(const HeadsRecord& r) { return fields_to_json(heads_record_fields(), r); }

nlohmann::json to_json(const CheckpointHeads& c) {
  return fields_to_json(checkpoint_heads_fields(), c);
}

HeadsRecord heads_record_from_json(const nlohmann::json& j) {
  return fields_from_json(heads_record_fields(), j, HeadsRecord{}, "heads field");
}

CheckpointHeads checkpoint_heads_from_json(const nlohmann::json& j) {
  return fields_from_json(checkpoint_heads_fields(), j, CheckpointHeads{}, "heads field");
}

std::string heads_summary(const HeadsRecord& r) {
  const auto names = [](const std::vector<std::string>& heads) {
    std::string out;
    for (const std::string& h : heads) out += (out.empty() ? "" : ", ") + h;
    return out.empty() ? std::string("none") : out;
  };
  const std::string what =
      r.source.run ? (r.task ? std::string(task_name(*r.task)) : "hop") + " run " + *r.source.run
                   : "checkpoint " + r.source.weights.value_or("?");
  std::string out =
      fmt::format("{}: {} checkpoint{} scored at {} tokens, {} samples\n", what,
                  r.checkpoints.size(), r.checkpoints.size() == 1 ? "" : "s", r.length, r.samples);
  const std::string threshold =
      r.label_threshold ? fmt::format(" (purity >= {:g})", *r.label_threshold) : "";
  out += "last checkpoint's pure heads" + threshold + ": positional " + names(r.final.positional) +
         "; symbolic " + names(r.final.symbolic) + "; reflexive " + names(r.final.reflexive) + "\n";
  return out;
}

}  // namespace posbias
