// `posbias seeds --eval KV_EVAL.json...`: accuracy by depth × length of one kv (or passkey)
// configuration over its training seeds. Each file is one seed's `posbias eval --run RUN` result
// on a kv or passkey run (all of one task, with the same lengths, depths and threshold; runs
// that differ in nothing but the seed).
// - per cell, the mean accuracy with its 95% Student-t interval over seeds;
// - per length, the depth-averaged accuracy over seeds;
// - the U verdict over seeds: each seed's middle − start and middle − end differences (regions
//   as in docs/retrieval.md), their t intervals, "U" when both lie below 0, per length and
//   pooled ("undetermined" with fewer than 2 seeds that have both differences);
// - the effective length of each seed and their median (the lower median for an even count,
//   so it is a measured length; a seed without one counts as below the shortest).
// JSON: kv_seeds_record.h's KvSeedsRecord; CSV one row per cell; figures STEM_heatmap (the mean)
// and STEM_depth (mean against depth per length, with bands).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/runfiles/seed_runs.h"
#include "posbias/stats/seed_interval_record.h"
#include "posbias/tasks/retrieval_inputs.h"

namespace posbias {

// True when the file is a `posbias eval` result of a kv or passkey run ("task": "kv" or
// "passkey"): accuracy by depth and length, which these summaries read alike.
bool is_kv_eval_file(const std::string& path);

struct KvSeedsOptions {
  std::vector<std::string> eval;  // one per training seed, >= 2
  std::string json, csv, plot;    // json empty = stdout
};

struct UOverSeeds {
  SeedStatistic middle_minus_start, middle_minus_end;
  std::string verdict;  // "U", "no U" or "undetermined"
};

struct KvSeedsResult {
  AnswerInputs task = AnswerInputs::kKv;  // the files' task
  std::vector<std::string> files;
  std::vector<int> lengths;
  std::vector<double> depths;
  double threshold = 0;
  std::vector<std::vector<SeedStatistic>> cells;  // [length][depth]
  std::vector<SeedStatistic> mean_accuracy;       // per length
  std::vector<UOverSeeds> u_by_length;
  UOverSeeds u_pooled;
  std::vector<std::optional<int>> effective_lengths;  // per seed
  std::optional<int> effective_length_median;
  std::size_t unchecked = 0;
  std::string unchecked_file;
};

// Reads and checks the files (std::runtime_error naming the file and field; std::invalid_argument
// for fewer than 2 files or a repeated one).
KvSeedsResult summarize_kv_seeds(const KvSeedsOptions& options);
UOverSeeds u_over_seeds(std::vector<double> middle_minus_start,
                        std::vector<double> middle_minus_end);
nlohmann::json to_json(const KvSeedsResult& result);
std::string kv_seeds_csv(const KvSeedsResult& result);
// Summarizes, writes --json (stdout when empty), --csv and the figures, and returns the summary.
KvSeedsResult run_kv_seeds(const KvSeedsOptions& options);

}  // namespace posbias
