// Co-location of behaviour and influence on the same inputs (docs/retrieval.md, "Influence on
// the same inputs"): per depth bin, a kv or passkey run's accuracy (`eval`'s depth_accuracy at
// one length) beside the influence its answer's loss puts on the queried pair or needle there
// (`birth --inputs kv|passkey`, the last checkpoint's mean needle share), one pair of files per
// training seed.
//
// Per seed: Spearman's ρ between the bins' accuracies and needle shares (average ranks; NaN when
// either is the same in every bin). Over seeds: the mean ρ with its 95% Student-t interval.
// Verdict, on the seed means per bin: the accuracy minimum is the set of bins tied at the lowest
// mean accuracy, the influence minimum the bin with the lowest mean needle share; "same bin" when
// the influence minimum is in the accuracy minimum's set, "different bins" when it is not, and
// "no accuracy minimum" when every bin has the same mean accuracy (nothing to co-locate).
// Torch-free: it reads and writes JSON only.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "experiments/retrieval/colocation_record.h"
#include "posbias/stats/seed_interval.h"
#include "posbias/tasks/retrieval_inputs.h"

namespace posbias {

struct ColocationResult {
  AnswerInputs inputs = AnswerInputs::kKv;  // what the influence files measured (colocate_files)
  std::int64_t length = 0;
  std::vector<int> depths;                     // percent, one per bin
  std::vector<std::vector<double>> accuracy;   // [seed][bin]
  std::vector<std::vector<double>> influence;  // [seed][bin]
  std::vector<double> rho;                     // per seed
  SeedInterval rho_interval;                   // over the seeds with a finite ρ, cut to [−1, 1]
  bool rho_interval_cut = false;  // the Student-t interval ran past ±1 and was cut there
  std::vector<double> mean_accuracy, mean_influence;  // per bin, over seeds
  std::vector<int> accuracy_minimum;                  // depths tied at the lowest mean accuracy
  int influence_minimum = 0;                          // depth of the lowest mean needle share
  int seeds_same_bin = 0;                             // seeds whose own minima share a bin
  std::string verdict;  // "same bin", "different bins" or "no accuracy minimum"
};

// From per-seed, per-bin values (std::invalid_argument: no seed, or a seed whose rows do not
// have one value per depth).
ColocationResult colocate(std::int64_t length, const std::vector<int>& depths,
                          const std::vector<std::vector<double>>& accuracy,
                          const std::vector<std::vector<double>>& influence);

struct ColocationOptions {
  std::vector<std::string> influence;  // birth --inputs kv|passkey --json files, one per seed
  std::vector<std::string> accuracy;   // eval --json files, the same seeds in the same order
  std::string json, plot;
};

// Reads the files (std::invalid_argument naming a file that is not a kv or passkey influence
// result, an eval of another task, or an eval result without the influence's length or one of
// its depths), then colocate().
ColocationResult colocate_files(const ColocationOptions& options);
// The result as its file holds it (colocation_record.h).
ColocationRecord colocation_record(const ColocationResult& result,
                                   const ColocationOptions& options);
nlohmann::json to_json(const ColocationResult& result, const ColocationOptions& options);
// Writes --json (stdout when empty) and the figure STEM (accuracy and needle share by depth).
ColocationResult run_colocation(const ColocationOptions& options);

}  // namespace posbias
