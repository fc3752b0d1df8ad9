// `posbias theory compare RUN.json ...`: does each measured profile pick its own no-fit
// prediction? The discrimination test of docs/birth.md.
//
// Each RUN.json is a `posbias birth --json` result (all at the same query length). Every
// measured profile i is scored against every run k's no-fit prediction ("nofit": the theory
// with run k's measured α̂ and operator): E[i][k] = median |log10(measured/predicted)| over
// positions 1..q after unit-sum normalization. Run i is assigned to the k with the smallest
// E[i][k]; its margin is the best other prediction's error minus its own (> 0: assigned to
// itself). The assignment is repeated on bootstrap resamples of run i's seeds. Also per run:
// the dead-zone depth p_min/p_1, measured and predicted, beside 1/(H-1)!, the Cesàro
// theory's small-α scaling of that depth with H layers.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "experiments/theory/compare_record.h"
#include "posbias/core/plot.h"

namespace posbias {

struct CompareOptions {
  std::vector<std::string> runs;    // birth JSON files, >= 2
  std::vector<std::string> labels;  // one per run; default: the file stem
  int bootstrap = 200;
  std::uint64_t seed = 0;
  std::string json, csv, plot;
};

struct CompareRun {
  std::string label, file;
  std::int64_t layers = 0;
  double alpha_mean = 0;  // mean over layers of the run's α̂
  std::vector<std::vector<double>> seeds;
  std::vector<double> measured, predicted;  // the seed mean; the no-fit prediction
  double dead_zone_measured = 0, dead_zone_predicted = 0, dead_zone_factorial = 0;
};

struct CompareResult {
  std::vector<CompareRun> runs;
  std::vector<std::vector<double>> error;  // E[i][k]
  std::vector<int> assigned;               // argmin_k E[i][k]
  std::vector<double> margin;              // min_{k≠i} E[i][k] - E[i][i]
  std::vector<double> bootstrap_self;      // share of resamples assigned to themselves
  int correct = 0;
};

// One birth result's text, checked field by field (std::runtime_error naming the source and
// the field); what compare_runs reads from each file.
CompareRun parse_birth_run(const std::string& text, const std::string& source,
                           const std::string& label);
// The birth result in `file` (read up to 256 MiB), parsed by parse_birth_run.
CompareRun read_birth_run(const std::string& file, const std::string& label);
// Reads and checks the runs (one line naming the file and field for a bad one).
CompareResult compare_runs(const CompareOptions& options);
// The result as its file holds it (compare_record.h).
CompareRecord compare_record(const CompareResult& result);
nlohmann::json to_json(const CompareResult& result);
std::string compare_csv(const CompareResult& result);
Figure compare_figure(const CompareResult& result);
// What a terminal shows instead of the JSON: the count and each run's closest prediction.
std::string compare_summary(const CompareResult& result);
void run_compare(const CompareOptions& options);

}  // namespace posbias
