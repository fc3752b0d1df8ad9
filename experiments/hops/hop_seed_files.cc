#include "experiments/hops/hop_seed_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <tuple>

#include "experiments/hops/hop_eval_record.h"
#include "posbias/core/bounded_read.h"
#include "posbias/core/json_number.h"
#include "posbias/core/json_read.h"
#include "posbias/mech/head_name.h"
#include "posbias/mech/heads_record.h"
#include "posbias/mech/trained_discrepancy_record.h"
#include "posbias/runfiles/eval_steps.h"
#include "posbias/runfiles/hop_key.h"
#include "posbias/runfiles/metrics.h"
#include "posbias/runfiles/result_file.h"
#include "posbias/runfiles/seed_runs.h"
#include "posbias/runfiles/training_summary.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/tasks/task_codecs.h"

namespace posbias {
namespace {

constexpr std::size_t kMaxKeys = 10000;  // lengths or hops in one table
constexpr std::size_t kMaxCheckpoints = 100000;
constexpr std::size_t kMaxHeads = 65536;
constexpr int kMaxHeadIndex = 100000;  // a layer or head index a file may name
constexpr std::int64_t kMaxHop = 1000;
constexpr std::int64_t kMaxFileLength = 10'000'000;  // input lengths a file may name
constexpr std::int64_t kMaxStep = 1'000'000'000'000;

// "1".."1000" or "all"; the canonical spelling only.
int parse_hop(const std::string& key, const std::string& source, const std::string& name) {
  if (key == kAllHopsKey) return kAllHops;
  for (std::int64_t h = 1; h <= kMaxHop && key.size() <= 4; ++h)
    if (std::to_string(h) == key) return static_cast<int>(h);
  result_error(source, fmt::format("{} has the key \"{}\"; hops are 1..{} or \"{}\"", name,
                                   key.substr(0, 32), kMaxHop, kAllHopsKey));
}

std::int64_t parse_length(const std::string& key, const std::string& source,
                          const std::string& name) {
  std::int64_t v = 0;
  bool digits = !key.empty() && key.size() <= 8 && key[0] != '0';
  for (char c : key) {
    digits = digits && c >= '0' && c <= '9';
    if (digits) v = v * 10 + (c - '0');
  }
  if (!digits || v < 2 || v > kMaxFileLength)
    result_error(source, fmt::format("{} has the key \"{}\"; lengths are integers in 2..{}", name,
                                     key.substr(0, 32), kMaxFileLength));
  return v;
}

// A table of `entries` keys (lengths or hops) must hold 1..kMaxKeys.
void require_entries(bool is_object, std::size_t entries, const std::string& source,
                     const std::string& name) {
  if (!is_object || entries == 0 || entries > kMaxKeys)
    result_error(source, fmt::format("{} must be an object of 1..{} entries", name, kMaxKeys));
}

// A map of 1..kMaxKeys entries read from a file's table, each key read with parse_key and each
// value in 0..1 (named "name.key").
template <typename Key>
std::map<Key, double> keyed_values(const std::map<std::string, double>& m,
                                   const std::string& source, const std::string& name,
                                   Key (*parse_key)(const std::string&, const std::string&,
                                                    const std::string&)) {
  require_entries(true, m.size(), source, name);
  std::map<Key, double> out;
  for (const auto& [key, v] : m) {
    if (v < 0 || v > 1) result_error(source, name + "." + key + " must be in 0..1");
    out[parse_key(key, source, name)] = v;
  }
  return out;
}

// length → hop → value, from a file's table.
LengthTable length_rows(const std::map<std::string, std::map<std::string, double>>& m,
                        const std::string& source, const std::string& name) {
  require_entries(true, m.size(), source, name);
  LengthTable out;
  for (const auto& [key, row] : m)
    out[parse_length(key, source, name)] = keyed_values(row, source, name + "." + key, parse_hop);
  return out;
}

// The file's "task" (its task's name, a `kind` result's field), when it is a hop task (number or
// letter). Read before the file's record, so that a result of another kind is named as such.
Task hop_task(const nlohmann::json& j, const std::string& source, const char* kind) {
  Task task = Task::kNumber;
  try {
    task = FieldCodec<Task>::read(result_field(j, "task", source, kind), "task");
  } catch (const std::invalid_argument& e) {
    result_error(source, e.what());
  }
  if (!is_hop_task(task))
    result_error(source, "task is '" + std::string(task_name(task)) +
                             "', not a hop task (number or letter); summarize a text run with "
                             "its birth --run results");
  return task;
}

// The gap points' medians by length (NaN where no example).
LengthValues gap_medians(const std::vector<GapPoint>& points, const std::string& source,
                         const std::string& name) {
  if (points.size() > kMaxKeys)
    result_error(source, fmt::format("{} must be an array of at most {} points", name, kMaxKeys));
  LengthValues out;
  for (const GapPoint& p : points) {
    if (p.length < 2 || p.length > kMaxFileLength)
      result_error(source, fmt::format("{}.length must be in 2..{}", name, kMaxFileLength));
    out[p.length] = p.median;
  }
  return out;
}

}  // namespace

std::string hop_name(int hop) { return hop == kAllHops ? kAllHopsKey : std::to_string(hop); }

HopSummaryFile parse_hop_summary(const nlohmann::json& j, const std::string& source) {
  HopSummaryFile t;
  t.task = hop_task(j, source, "train");
  const TrainingSummary s = read_result_table(training_summary_from_json, j, source);
  t.run = run_config(source, "", s.config ? &*s.config : nullptr);  // it names no run folder
  // A crossing per hop: a step, or NaN where the hop never crossed.
  auto crossings = [&](const std::map<std::string, std::optional<std::int64_t>>& steps,
                       const std::string& name) {
    require_entries(true, steps.size(), source, name);
    HopValues out;
    for (const auto& [hop, v] : steps) {
      if (v && (*v < 0 || *v > kMaxStep))
        result_error(source,
                     fmt::format("{}.{} must be a step in 0..{} or null", name, hop, kMaxStep));
      out[parse_hop(hop, source, name)] = v ? static_cast<double>(*v) : kNaN;
    }
    return out;
  };
  t.crossing_90 = crossings(s.metrics.crossing_90, "metrics.crossing_0.9");
  t.crossing_99 = crossings(s.metrics.crossing_99, "metrics.crossing_0.99");
  t.final_accuracy = keyed_values(s.metrics.final_accuracy, source, "metrics.final", parse_hop);
  t.train_seconds = s.train_seconds;
  if (t.train_seconds < 0) result_error(source, "train_seconds must be >= 0");
  return t;
}

HopMetricsFile parse_hop_metrics(const std::string& text, const std::string& source) {
  HopMetricsFile m;
  std::size_t line_number = 0;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(begin, end - begin);
    begin = end + 1;
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = fmt::format("line {}", line_number);
    MetricsRow row;
    try {
      row = parse_metrics_line(line);  // metrics_row_fields: the table train writes with
    } catch (const std::invalid_argument& e) {
      result_error(source, where + ": " + e.what());
    }
    if (!row.acc) continue;  // a text run's row
    if (row.step < (m.steps.empty() ? 0 : m.steps.back() + 1) || row.step > kMaxStep)
      result_error(source, fmt::format("{}: step {} does not follow step {}", where, row.step,
                                       m.steps.empty() ? -1 : m.steps.back()));
    if (m.steps.size() == kMaxCheckpoints)
      result_error(source, fmt::format("has more than {} evaluation lines", kMaxCheckpoints));
    m.accuracy.push_back(keyed_values(*row.acc, source, where + ": acc", parse_hop));
    m.steps.push_back(row.step);
  }
  if (m.steps.empty())
    result_error(source,
                 "has no line with held-out accuracy (\"acc\"): is it a hop run's "
                 "metrics.jsonl from `posbias train`?");
  return m;
}

HopMetricsFile read_hop_metrics(const std::string& path) {
  return parse_hop_metrics(read_bounded_file(path, kMaxSeedFileBytes, kMaxSeedFileName), path);
}

HopEvalFile parse_hop_eval(const nlohmann::json& j, const std::string& source) {
  refuse_eval_steps(j, source);
  HopEvalFile e;
  e.task = hop_task(j, source, "eval --run");
  const HopEvalRecord r = read_result_table(hop_eval_record_from_json, j, source);
  e.run = run_config(source, r.run);
  e.accuracy = length_rows(r.accuracy, source, "accuracy");
  if (r.chance) e.chance = length_rows(*r.chance, source, "chance");
  if (!r.controls) return e;
  const Variant control = r.task == Task::kNumber ? Variant::kSeenJumps : Variant::kDecoy;
  const std::string key(variant_name(control));
  const auto c = r.controls->find(key);
  if (c == r.controls->end()) result_error(source, "controls has no \"" + key + "\"");
  const std::string name = "controls." + key;
  e.control = control;
  e.control_accuracy = length_rows(c->second.accuracy, source, name + ".accuracy");
  if (c->second.chance) e.control_chance = length_rows(*c->second.chance, source, name + ".chance");
  if (c->second.decoy_rate)
    e.decoy_rate = keyed_values(*c->second.decoy_rate, source, name + ".decoy_rate", parse_length);
  return e;
}

HopHeadsFile parse_hop_heads(const nlohmann::json& j, const std::string& source) {
  const HeadsRecord record = read_result_table(heads_record_from_json, j, source);
  HopHeadsFile r;
  r.task = hop_task(j, source, "heads --run");
  r.run = run_config(source, record.source.run.value_or(""));
  if (record.checkpoints.empty() || record.checkpoints.size() > kMaxCheckpoints)
    result_error(source,
                 fmt::format("checkpoints must be an array of 1..{} records", kMaxCheckpoints));
  for (const CheckpointHeads& c : record.checkpoints) {
    if (!c.step || *c.step < 0 || *c.step > kMaxStep)
      result_error(source, fmt::format("checkpoints[].step must be in 0..{}", kMaxStep));
    if (!r.steps.empty() && *c.step <= r.steps.back())
      result_error(source, "checkpoint steps must increase");
    if (c.heads.empty() || c.heads.size() > kMaxHeads)
      result_error(source,
                   fmt::format("checkpoints[].heads must be an array of 1..{} heads", kMaxHeads));
    std::vector<std::string> names;
    std::vector<HopHeadRead> reads;
    for (const HeadScore& h : c.heads) {
      if (h.layer < 0 || h.layer > kMaxHeadIndex || h.head < 0 || h.head > kMaxHeadIndex)
        result_error(source, fmt::format("checkpoints[].heads[].layer and .head must be in 0..{}",
                                         kMaxHeadIndex));
      if (!std::isfinite(h.positional) || !std::isfinite(h.symbolic))
        result_error(source, "checkpoints[].heads[] has a score that is not a finite number");
      names.push_back(head_name(h.layer, h.head));
      reads.push_back({h.positional, h.symbolic, h.label});
    }
    if (r.steps.empty()) r.heads = names;
    if (names != r.heads)
      result_error(source, fmt::format("the checkpoint at step {} lists other heads than the "
                                       "first checkpoint",
                                       *c.step));
    r.steps.push_back(*c.step);
    r.at.push_back(std::move(reads));
  }
  if (!record.threshold_sensitivity) return r;
  const std::string name = "threshold_sensitivity";
  if (record.threshold_sensitivity->size() > kMaxKeys)
    result_error(source,
                 fmt::format("{} must be an array of at most {} thresholds", name, kMaxKeys));
  for (const ThresholdLabels& t : *record.threshold_sensitivity) {
    HopThresholdLabels labels;
    labels.threshold = t.threshold;
    if (!(labels.threshold > 0 && labels.threshold <= 1))
      result_error(source, name + "[].threshold must be in (0, 1]");
    if (!r.thresholds.empty() && labels.threshold <= r.thresholds.back().threshold)
      result_error(source, name + "[].threshold must increase");
    for (const auto& [list, out, kind_name] :
         {std::tuple{&t.final.positional, &labels.positional, "positional"},
          std::tuple{&t.final.symbolic, &labels.symbolic, "symbolic"}}) {
      const std::string where = name + "[].final." + kind_name;
      if (list->size() > r.heads.size())
        result_error(source,
                     fmt::format("{} must be an array of at most {} heads", where, r.heads.size()));
      for (const std::string& head : *list) {
        if (std::find(r.heads.begin(), r.heads.end(), head) == r.heads.end())
          result_error(source, fmt::format("{} names '{}', not a head of the checkpoints", where,
                                           head.substr(0, 64)));
        out->push_back(head);
      }
    }
    r.thresholds.push_back(std::move(labels));
  }
  return r;
}

std::string hop_role_key(const HopRole& role) {
  return role.kind == KeyHeadKind::kChosen ? role.chosen
                                           : std::string(key_head_kind_name(role.kind));
}

std::string hop_role_title(const HopRole& role) {
  switch (role.kind) {
    case KeyHeadKind::kPositional:
      return "most positional head";
    case KeyHeadKind::kSymbolic:
      return "most symbolic head";
    case KeyHeadKind::kChosen:
      break;
  }
  return role.chosen;
}

HopDiscrepancyFile parse_hop_discrepancy(const nlohmann::json& j, const std::string& source) {
  const TrainedDiscrepancyRecord record =
      read_result_table(trained_discrepancy_record_from_json, j, source);
  HopDiscrepancyFile d;
  d.task = hop_task(j, source, "discrepancy --run");
  d.run = run_config(source, record.run);
  d.variant = record.variant.value_or(Variant::kStandard);
  if (record.train_length) {
    if (*record.train_length < 2 || *record.train_length > kMaxFileLength)
      result_error(source, fmt::format("train_length must be in 2..{}", kMaxFileLength));
    d.train_length = *record.train_length;
  }
  d.accuracy = keyed_values(record.accuracy, source, "accuracy", parse_length);
  if (record.discrepancy.empty() || record.discrepancy.size() > kMaxHeads)
    result_error(source, fmt::format("discrepancy must be an array of 1..{} heads", kMaxHeads));
  for (const KeyHeadDiscrepancy& h : record.discrepancy) {
    HopKeyHead r;
    if (h.layer < 0 || h.layer > kMaxHeadIndex || h.head < 0 || h.head > kMaxHeadIndex)
      result_error(source,
                   fmt::format("discrepancy[].layer and .head must be in 0..{}", kMaxHeadIndex));
    r.head = head_name(h.layer, h.head);
    r.role = {h.kind, h.kind == KeyHeadKind::kChosen ? r.head : ""};
    if (std::any_of(d.roles.begin(), d.roles.end(),
                    [&](const HopKeyHead& o) { return o.role == r.role; }))
      result_error(source, "discrepancy lists the role " + hop_role_key(r.role) + " twice");
    r.median = gap_medians(h.points, source, "discrepancy[].points");
    r.has_correct = h.correct_points.has_value();
    if (r.has_correct)
      r.correct_median = gap_medians(*h.correct_points, source, "discrepancy[].correct_points");
    r.exponent = h.exponent ? h.exponent->value : kNaN;
    r.on_chain_exponent = h.on_chain_exponent ? h.on_chain_exponent->value : kNaN;
    d.roles.push_back(std::move(r));
  }
  // The auto rule keeps one entry when its two picks are one head: that head is both.
  if (d.roles.size() == 1 && d.roles.front().role.kind == KeyHeadKind::kPositional) {
    d.roles.push_back(d.roles.front());
    d.roles.back().role.kind = KeyHeadKind::kSymbolic;
  }
  return d;
}

}  // namespace posbias
