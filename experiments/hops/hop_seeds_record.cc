#include "experiments/hops/hop_seeds_record.h"

#include <cmath>
#include <utility>

#include "posbias/mech/head_label_codec.h"
#include "posbias/tasks/task_codecs.h"

namespace posbias {

const std::vector<FieldRow<HopCellRecord>>& hop_cell_record_fields();
const std::vector<FieldRow<CrossingRecord>>& crossing_record_fields();
const std::vector<FieldRow<HopTrainingRecord>>& hop_training_record_fields();
const std::vector<FieldRow<HopCurvesRecord>>& hop_curves_record_fields();
const std::vector<FieldRow<HopControlRecord>>& hop_control_record_fields();
const std::vector<FieldRow<HopEvalSummaryRecord>>& hop_eval_summary_record_fields();
const std::vector<FieldRow<HopHeadsStepRecord>>& hop_heads_step_record_fields();
const std::vector<FieldRow<HopThresholdRecord>>& hop_threshold_record_fields();
const std::vector<FieldRow<HopHeadsSummaryRecord>>& hop_heads_summary_record_fields();
const std::vector<FieldRow<HopRoleGapsRecord>>& hop_role_gaps_record_fields();
const std::vector<FieldRow<HopDiscrepancySummaryRecord>>& hop_discrepancy_summary_record_fields();
const std::vector<FieldRow<HopSeedFilesRecord>>& hop_seed_files_record_fields();
const std::vector<FieldRow<HopConfigurationRecord>>& hop_configuration_record_fields();

template <>
struct FieldCodec<HopCellRecord> : TableCodec<HopCellRecord, &hop_cell_record_fields> {};
template <>
struct FieldCodec<CrossingRecord> : TableCodec<CrossingRecord, &crossing_record_fields> {};
template <>
struct FieldCodec<HopTrainingRecord> : TableCodec<HopTrainingRecord, &hop_training_record_fields> {
};
template <>
struct FieldCodec<HopCurvesRecord> : TableCodec<HopCurvesRecord, &hop_curves_record_fields> {};
template <>
struct FieldCodec<HopControlRecord> : TableCodec<HopControlRecord, &hop_control_record_fields> {};
template <>
struct FieldCodec<HopEvalSummaryRecord>
    : TableCodec<HopEvalSummaryRecord, &hop_eval_summary_record_fields> {};
template <>
struct FieldCodec<HopHeadsStepRecord>
    : TableCodec<HopHeadsStepRecord, &hop_heads_step_record_fields> {};
template <>
struct FieldCodec<HopThresholdRecord>
    : TableCodec<HopThresholdRecord, &hop_threshold_record_fields> {};
template <>
struct FieldCodec<HopHeadsSummaryRecord>
    : TableCodec<HopHeadsSummaryRecord, &hop_heads_summary_record_fields> {};
template <>
struct FieldCodec<HopRoleGapsRecord> : TableCodec<HopRoleGapsRecord, &hop_role_gaps_record_fields> {
};
template <>
struct FieldCodec<HopDiscrepancySummaryRecord>
    : TableCodec<HopDiscrepancySummaryRecord, &hop_discrepancy_summary_record_fields> {};
template <>
struct FieldCodec<HopSeedFilesRecord>
    : TableCodec<HopSeedFilesRecord, &hop_seed_files_record_fields> {};
template <>
struct FieldCodec<HopConfigurationRecord>
    : TableCodec<HopConfigurationRecord, &hop_configuration_record_fields> {};
template <>
struct FieldCodec<std::vector<HopHeadsStepRecord>> : ListCodec<HopHeadsStepRecord> {};
template <>
struct FieldCodec<std::vector<HopThresholdRecord>> : ListCodec<HopThresholdRecord> {};
template <>
struct FieldCodec<std::vector<HopConfigurationRecord>> : ListCodec<HopConfigurationRecord> {};
template <>
struct FieldCodec<std::vector<std::optional<std::int64_t>>>
    : ListCodec<std::optional<std::int64_t>> {};
template <>
struct FieldCodec<std::vector<std::optional<std::string>>> : ListCodec<std::optional<std::string>> {
};
template <>
struct FieldCodec<std::vector<std::optional<HeadLabel>>> : ListCodec<std::optional<HeadLabel>> {};

namespace {

using StatisticsCodec = ListCodec<SeedStatistic>;
// A map whose values are lists: each list by its own codec.
template <class T>
using MapOfLists = MapCodec<std::vector<T>, ListCodec<T>>;

}  // namespace

const std::vector<FieldRow<HopCellRecord>>& hop_cell_record_fields() {
  using C = HopCellRecord;
  static const std::vector<FieldRow<C>> rows = [] {
    std::vector<FieldRow<C>> r = member_fields(&C::accuracy, seed_statistic_fields());
    r.push_back(optional_field("chance", &C::chance, "the mean of the seeds' chance levels"));
    r.push_back(optional_field("above_chance", &C::above_chance,
                               "the interval's low end above chance (null: no interval)"));
    return r;
  }();
  return rows;
}

const std::vector<FieldRow<CrossingRecord>>& crossing_record_fields() {
  using C = CrossingRecord;
  static const std::vector<FieldRow<C>> rows = [] {
    std::vector<FieldRow<C>> r = member_fields(&C::step, whole_statistic_fields());
    r.push_back(field("crossed", &C::crossed, "the seeds that reached the threshold"));
    return r;
  }();
  return rows;
}

const std::vector<FieldRow<HopTrainingRecord>>& hop_training_record_fields() {
  using T = HopTrainingRecord;
  static const std::vector<FieldRow<T>> rows = {
      field("training_seeds", &T::training_seeds, "each run's config.seed (null: not said)"),
      field("crossing_0.9", &T::crossing_90, "per hop: the first step at accuracy 0.9"),
      field("crossing_0.99", &T::crossing_99, "per hop: the first step at accuracy 0.99"),
      field("final_accuracy", &T::final_accuracy, "per hop: held-out accuracy at the end"),
      field("train_seconds", &T::train_seconds, "wall seconds of training"),
  };
  return rows;
}

const std::vector<FieldRow<HopCurvesRecord>>& hop_curves_record_fields() {
  using C = HopCurvesRecord;
  static const std::vector<FieldRow<C>> rows = {
      field("steps", &C::steps, "the logged steps every seed has"),
      field("hops", &C::hops, "the hops every seed has at every step"),
      field<C, std::map<std::string, std::vector<SeedStatistic>>, MapOfLists<SeedStatistic>>(
          "accuracy", &C::accuracy, "per hop: held-out accuracy at each step"),
  };
  return rows;
}

const std::vector<FieldRow<HopControlRecord>>& hop_control_record_fields() {
  using C = HopControlRecord;
  static const std::vector<FieldRow<C>> rows = {
      field("name", &C::name, "the control's inputs: seen_jumps or decoy"),
      field("accuracy", &C::accuracy, "per length and hop, on the control's inputs"),
      optional_field("decoy_rate", &C::decoy_rate, "per length: how often the decoy was answered"),
  };
  return rows;
}

const std::vector<FieldRow<HopEvalSummaryRecord>>& hop_eval_summary_record_fields() {
  using E = HopEvalSummaryRecord;
  static const std::vector<FieldRow<E>> rows = {
      field("lengths", &E::lengths, "the input lengths every seed has"),
      field("hops", &E::hops, "the hops every seed has"),
      field("accuracy", &E::accuracy, "per length and hop"),
      optional_field("control", &E::control, "the control's accuracy (when every eval has one)"),
  };
  return rows;
}

const std::vector<FieldRow<HopHeadsStepRecord>>& hop_heads_step_record_fields() {
  using S = HopHeadsStepRecord;
  static const std::vector<FieldRow<S>> rows = {
      field("step", &S::step, "the checkpoint's step"),
      field("positional", &S::positional, "per head: its positional score"),
      field("symbolic", &S::symbolic, "per head: its symbolic score"),
  };
  return rows;
}

const std::vector<FieldRow<HopThresholdRecord>>& hop_threshold_record_fields() {
  using T = HopThresholdRecord;
  static const std::vector<FieldRow<T>> rows = {
      field("threshold", &T::threshold, "the label threshold"),
      field<T, SeedStatistic, WholeStatisticCodec>("positional_heads", &T::positional_heads,
                                                   "pure positional heads per seed"),
      field<T, SeedStatistic, WholeStatisticCodec>("symbolic_heads", &T::symbolic_heads,
                                                   "pure symbolic heads per seed"),
      field("labels", &T::labels, "per head: positional, symbolic or null per seed"),
  };
  return rows;
}

const std::vector<FieldRow<HopHeadsSummaryRecord>>& hop_heads_summary_record_fields() {
  using H = HopHeadsSummaryRecord;
  static const std::vector<FieldRow<H>> rows = {
      field("layer_index", &H::layer_index, "how layers are counted in head names"),
      field("heads", &H::heads, "every head, layer by layer"),
      field("steps", &H::steps, "the checkpoint steps every seed has"),
      field("last_step", &H::last_step, "the last of them"),
      field<H, std::map<std::string, std::vector<HeadLabel>>, MapOfLists<HeadLabel>>(
          "labels", &H::labels, "per head: its label per seed at the last step"),
      field<H, StatisticMap, WholeStatisticMapCodec>(
          "settled_step", &H::settled_step, "per head: the step from which its label holds"),
      optional_field("threshold_sensitivity", &H::threshold_sensitivity,
                     "pure heads at the last step under each threshold"),
  };
  return rows;
}

const std::vector<FieldRow<HopRoleGapsRecord>>& hop_role_gaps_record_fields() {
  using G = HopRoleGapsRecord;
  static const std::vector<FieldRow<G>> rows = {
      field("heads", &G::heads, "per seed: the head in this role"),
      field("median_gap", &G::median_gap, "per length: the median top − second logit gap"),
      optional_field("correct_median_gap", &G::correct_median_gap,
                     "per length: the same over correct answers"),
      field("exponent", &G::exponent, "the gap's power-law exponent in length"),
      field("on_chain_exponent", &G::on_chain_exponent, "the same on the chain's positions"),
  };
  return rows;
}

const std::vector<FieldRow<HopDiscrepancySummaryRecord>>& hop_discrepancy_summary_record_fields() {
  using D = HopDiscrepancySummaryRecord;
  static const std::vector<FieldRow<D>> rows = {
      field("variant", &D::variant, "the inputs measured"),
      field("train_length", &D::train_length, "the runs' training length (null: not said)"),
      field("lengths", &D::lengths, "the lengths every seed has"),
      field("accuracy", &D::accuracy, "per length"),
      field("roles", &D::roles, "per key head role"),
  };
  return rows;
}

const std::vector<FieldRow<HopSeedFilesRecord>>& hop_seed_files_record_fields() {
  using F = HopSeedFilesRecord;
  static const std::vector<FieldRow<F>> rows = {
      optional_field("summary", &F::summary, "each seed's summary.json"),
      optional_field("metrics", &F::metrics, "each seed's metrics.jsonl"),
      optional_field("eval", &F::eval, "each seed's eval --run result"),
      optional_field("heads", &F::heads, "each seed's heads --run result"),
      optional_field("discrepancy", &F::discrepancy, "each seed's discrepancy --run result"),
  };
  return rows;
}

const std::vector<FieldRow<HopSeedsRecord>>& hop_seeds_record_fields() {
  using R = HopSeedsRecord;
  static const std::vector<FieldRow<R>> rows = {
      required(field("task", &R::task, "the runs' task: number or letter")),
      required(field("seeds", &R::seeds, "training seeds")),
      field("interval", &R::interval, "what the intervals are"),
      field("files", &R::files, "the files summarized"),
      optional_field("training", &R::training, "crossing steps and final accuracy"),
      optional_field("curves", &R::curves, "held-out accuracy per hop against step"),
      optional_field("eval", &R::eval, "accuracy per length and hop"),
      optional_field("heads", &R::heads, "head scores and labels against step"),
      optional_field("discrepancy", &R::discrepancy, "the key heads' gaps against length"),
      optional_field("unchecked_configurations", &R::unchecked_configurations,
                     "files not checked to be of one configuration"),
  };
  return rows;
}

const std::vector<FieldRow<HopConfigurationRecord>>& hop_configuration_record_fields() {
  using C = HopConfigurationRecord;
  static const std::vector<FieldRow<C>> rows = {
      field("label", &C::label, "the configuration's label"),
      field("seeds", &C::seeds, "its training seeds"),
      field("files", &C::files, "each seed's eval --run result"),
      field("accuracy", &C::accuracy, "per length and hop"),
  };
  return rows;
}

const std::vector<FieldRow<HopComparisonRecord>>& hop_comparison_record_fields() {
  using R = HopComparisonRecord;
  static const std::vector<FieldRow<R>> rows = {
      required(field("task", &R::task, "the runs' task: number or letter")),
      field("interval", &R::interval, "what the intervals are"),
      field("lengths", &R::lengths, "the input lengths every configuration has"),
      field("configurations", &R::configurations, "each configuration over its seeds"),
  };
  return rows;
}

namespace {

// values[i] keyed by lengths[i].
StatisticMap per_length(const std::vector<std::int64_t>& lengths,
                        const std::vector<SeedStatistic>& values) {
  StatisticMap m;
  for (std::size_t i = 0; i < lengths.size() && i < values.size(); ++i)
    m[std::to_string(lengths[i])] = values[i];
  return m;
}

// values[k] keyed by names[k].
template <class T>
std::map<std::string, T> by_name(const std::vector<std::string>& names,
                                 const std::vector<T>& values) {
  std::map<std::string, T> m;
  for (std::size_t k = 0; k < names.size(); ++k) m[names[k]] = values[k];
  return m;
}

// An empty name as null.
std::vector<std::optional<std::string>> or_null(const std::vector<std::string>& names) {
  std::vector<std::optional<std::string>> out;
  for (const std::string& n : names)
    out.push_back(n.empty() ? std::nullopt : std::optional<std::string>(n));
  return out;
}

std::optional<std::vector<std::string>> given(const std::vector<std::string>& files) {
  if (files.empty()) return std::nullopt;
  return files;
}

HopTrainingRecord training_record(const HopTraining& t) {
  HopTrainingRecord r;
  r.training_seeds = t.training_seeds;
  for (std::size_t k = 0; k < t.hops.size(); ++k) {
    r.crossing_90[t.hops[k]] = {t.crossing_90[k], t.crossing_90[k].interval.n};
    r.crossing_99[t.hops[k]] = {t.crossing_99[k], t.crossing_99[k].interval.n};
  }
  r.final_accuracy = by_name(t.hops, t.final_accuracy);
  r.train_seconds = t.train_seconds;
  return r;
}

HopCurvesRecord curves_record(const HopCurves& c) {
  HopCurvesRecord r{c.steps, c.hops, {}};
  for (std::size_t k = 0; k < c.hops.size(); ++k) {
    std::vector<SeedStatistic>& per_step = r.accuracy[c.hops[k]];
    per_step.clear();
    for (const auto& row : c.accuracy) per_step.push_back(row[k]);
  }
  return r;
}

HopEvalSummaryRecord eval_record(const HopEvalSummary& e) {
  HopEvalSummaryRecord r{e.accuracy.lengths, e.accuracy.hops, hop_table_record(e.accuracy), {}};
  if (!e.control) return r;
  HopControlRecord& c = r.control.emplace();
  c.name = *e.control;
  c.accuracy = hop_table_record(e.control_accuracy);
  if (!e.decoy_rate.empty()) c.decoy_rate = per_length(e.control_accuracy.lengths, e.decoy_rate);
  return r;
}

HopHeadsSummaryRecord heads_record(const HopHeadsSummary& h) {
  HopHeadsSummaryRecord r;
  r.layer_index = "0-based";
  r.heads = h.heads;
  for (std::size_t i = 0; i < h.steps.size(); ++i)
    r.steps.push_back(
        {h.steps[i], by_name(h.heads, h.positional[i]), by_name(h.heads, h.symbolic[i])});
  r.last_step = h.steps.back();
  r.labels = by_name(h.heads, h.labels);
  r.settled_step = by_name(h.heads, h.settled_step);
  if (h.thresholds.empty()) return r;
  r.threshold_sensitivity.emplace();
  for (const HopHeadsSummary::Threshold& t : h.thresholds) {
    HopThresholdRecord out{t.threshold, t.positional_heads, t.symbolic_heads, {}};
    for (std::size_t k = 0; k < h.heads.size(); ++k) out.labels[h.heads[k]] = t.labels[k];
    r.threshold_sensitivity->push_back(std::move(out));
  }
  return r;
}

HopDiscrepancySummaryRecord discrepancy_record(const HopDiscrepancySummary& d) {
  HopDiscrepancySummaryRecord r;
  r.variant = d.variant;
  if (d.train_length) r.train_length = d.train_length;
  r.lengths = d.lengths;
  r.accuracy = per_length(d.lengths, d.accuracy);
  for (const HopRoleGaps& g : d.roles) {
    HopRoleGapsRecord role{or_null(g.heads), per_length(d.lengths, g.median_gap), std::nullopt,
                           g.exponent, g.on_chain_exponent};
    if (g.has_correct) role.correct_median_gap = per_length(d.lengths, g.correct_median_gap);
    r.roles[hop_role_key(g.role)] = std::move(role);
  }
  return r;
}

}  // namespace

HopTableRecord hop_table_record(const HopTable& t) {
  HopTableRecord r;
  for (std::size_t i = 0; i < t.lengths.size(); ++i) {
    std::map<std::string, HopCellRecord>& row = r[std::to_string(t.lengths[i])];
    row.clear();
    for (std::size_t k = 0; k < t.hops.size(); ++k) {
      const HopCell& c = t.cells[i][k];
      HopCellRecord cell{c.accuracy, std::nullopt, std::nullopt};
      if (std::isfinite(c.chance)) {
        cell.chance = c.chance;
        cell.above_chance = c.above_chance();
      }
      row[t.hops[k]] = std::move(cell);
    }
  }
  return r;
}

HopSeedsRecord hop_seeds_record(const HopSeedsResult& r) {
  HopSeedsRecord out;
  out.task = r.task;
  out.seeds = static_cast<std::int64_t>(r.seeds);
  out.interval = "95% Student t over seeds";
  out.files = {given(r.files.summary), given(r.files.metrics), given(r.files.eval),
               given(r.files.heads), given(r.files.discrepancy)};
  if (r.training) out.training = training_record(*r.training);
  if (r.curves) out.curves = curves_record(*r.curves);
  if (r.eval) out.eval = eval_record(*r.eval);
  if (r.heads) out.heads = heads_record(*r.heads);
  if (r.discrepancy) out.discrepancy = discrepancy_record(*r.discrepancy);
  if (r.unchecked) out.unchecked_configurations = static_cast<std::int64_t>(r.unchecked);
  return out;
}

HopComparisonRecord hop_comparison_record(const HopComparison& c) {
  HopComparisonRecord out{c.task, "95% Student t over each configuration's seeds", c.lengths, {}};
  for (std::size_t k = 0; k < c.configurations.size(); ++k)
    out.configurations.push_back({c.configurations[k].label,
                                  static_cast<std::int64_t>(c.configurations[k].eval.size()),
                                  c.configurations[k].eval, hop_table_record(c.accuracy[k])});
  return out;
}

nlohmann::json to_json(const HopSeedsRecord& r) {
  return fields_to_json(hop_seeds_record_fields(), r);
}

nlohmann::json to_json(const HopComparisonRecord& r) {
  return fields_to_json(hop_comparison_record_fields(), r);
}

HopSeedsRecord hop_seeds_record_from_json(const nlohmann::json& j) {
  return fields_from_json(hop_seeds_record_fields(), j, HopSeedsRecord{}, "seeds field");
}

HopComparisonRecord hop_comparison_record_from_json(const nlohmann::json& j) {
  return fields_from_json(hop_comparison_record_fields(), j, HopComparisonRecord{},
                          "comparison field");
}

}  // namespace posbias
