// `posbias birth --rescore FILE`: a stored birth result scored again without re-measuring.
//
// The model is rebuilt from the file's config and measurement (same architecture, init, seeds,
// input and attention path), every seed's forward pass gives the branch strengths and gains
// again, and the no-fit predictions, fits and comparison are computed with the current code
// around the file's own profiles [seeds][q]. A file whose config the birth options cannot
// rebuild exactly (a checkpoint, a token file, a config no preset and override reach) is refused.
// A `birth --run` result cannot be re-scored without its run's checkpoints: --rescore draws its
// figures again from the file (birth_run.h's render_birth_run_figures; --plot only, the file
// unchanged).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/birth/birth.h"

namespace posbias {

struct BirthRescoreOptions {
  std::string file;                // a `birth --json` result
  double memory_budget_gb = 0;     // as birth's --memory-budget
  std::optional<int> stay_probes;  // --stay-probes; none: the file's (8 when it has none)
  std::string json, csv, plot;     // outputs, as birth's
};

// The rebuilt options and the stored profiles; std::invalid_argument naming what cannot be
// rebuilt.
struct StoredBirth {
  BirthOptions options;
  std::vector<std::vector<double>> profiles;  // [seeds][q]
  BirthRecord record;  // the file as read (its seconds, peak_rss_mb and machine: the measurement's)
};
StoredBirth read_stored_birth(const std::string& file);

BirthResult rescore_birth(const StoredBirth& stored, double memory_budget_gb);

// What a birth --json file is, told by each record's field table (the fields it requires,
// core/required_fields.h): a birth --run --inputs kv|passkey result's (AnswerInfluenceRecord), a
// birth --run result's (BirthRunRecord), else a birth result's (BirthRecord, whose strict reader
// refuses any other file).
enum class BirthFile { kBirth, kBirthRun, kAnswerInfluence };
BirthFile birth_file_kind(const nlohmann::json& j);

// Re-scores a birth result, or redraws a birth --run result's figures.
void run_birth_rescore(const BirthRescoreOptions& options);
// `birth --redraw FILE --plot STEM`: a stored result's figure drawn again from the file alone,
// measuring nothing (birth.h's birth_figure over its record; a birth --run result's figures as
// --rescore draws them; a birth --inputs kv|passkey result's STEM_depths heatmap).
// std::invalid_argument for a file of another kind or one whose plain causal control's profile the
// file does not keep (birth --rescore measures it again).
void redraw_birth(const std::string& file, const std::string& plot);

}  // namespace posbias
