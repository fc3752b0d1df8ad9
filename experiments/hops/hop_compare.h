// `posbias seeds --compare LABEL=EVAL,EVAL,... --compare ...`: configurations of one hop task
// side by side (for example the positional-encoding ablations: rotary dims, RoPE base, none),
// each given as its training seeds' `eval --run` results. Per configuration: accuracy per
// input length and hop with its 95% Student-t interval over that configuration's seeds (a
// configuration of one seed has its value and no interval), against chance.
//
// JSON: hop_seeds_record.h's HopComparisonRecord, the input lengths every configuration has and
// each configuration's accuracy table as hop_seeds.h's.
// CSV: one row per configuration, length and hop: label,seeds,length,hop,mean,low,high,chance.
// Figure STEM_compare: a heatmap of every configuration's all-hops accuracy (mean over seeds)
// by input length, over a row of chance, at the lengths every configuration has (a
// configuration evaluated at more lengths would otherwise fill cells the others leave blank).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "experiments/hops/hop_seeds.h"

namespace posbias {

// Configurations one comparison takes (one line each in the figure's key).
inline constexpr std::size_t kMaxConfigurations = 32;

struct HopConfiguration {
  std::string label;
  std::vector<std::string> eval;  // one eval --run result per training seed, >= 1
};

// "LABEL=FILE,FILE,..." split at the last '=' (a label may hold one: "θ=1e6=a.json"); the
// files split at ','. std::invalid_argument naming the problem for an empty label or file.
HopConfiguration parse_hop_configuration(const std::string& text);

struct HopComparison {
  Task task = Task::kNumber;  // a hop task: number or letter
  std::vector<HopConfiguration> configurations;
  std::vector<HopTable> accuracy;     // per configuration
  std::vector<std::int64_t> lengths;  // those every configuration's table has
};

// Checks the configurations (std::invalid_argument: fewer than 2 or more than
// kMaxConfigurations, a label or a file given twice), reads every file (std::runtime_error:
// a bad file, files of two tasks, evals without an all-hops column, or configurations sharing
// no length) and summarizes each configuration over its seeds.
HopComparison compare_hop_configurations(const std::vector<HopConfiguration>& configurations);
nlohmann::json to_json(const HopComparison& comparison);
std::string hop_comparison_csv(const HopComparison& comparison);
void render_hop_comparison_figure(const HopComparison& comparison, const std::string& stem);
// What a terminal shows instead of the JSON: each configuration's all-hop accuracy at the longest
// length, with its interval over seeds.
std::string hop_comparison_summary(const HopComparison& comparison);
// The JSON (stdout when `json` is empty; the summary on a terminal), the CSV and the figure (each
// skipped when its path is empty).
void write_hop_comparison(const HopComparison& comparison, const std::string& json,
                          const std::string& csv, const std::string& plot);
struct HopCompareOptions {
  std::vector<std::string> configurations;  // "LABEL=EVAL.json,EVAL.json,...", 2..32 of them
  std::string json, csv, plot;              // json empty = stdout
};
// Parses each configuration, compares and writes the comparison.
void run_hop_comparison(const HopCompareOptions& options);

}  // namespace posbias
