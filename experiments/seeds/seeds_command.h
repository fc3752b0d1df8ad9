// `posbias seeds BIRTH.json... [--eval EVAL.json...]`: one text experiment over its training
// seeds. Each BIRTH.json is the `posbias birth --run RUN --checkpoints ...` result of one training
// seed (all with the same target, length and query; the length need not be the training
// length); each EVAL.json that seed's `posbias eval --run RUN` result. The runs must differ in
// nothing but the seed (require_one_configuration). Every statistic is given per seed, with the
// mean and its 95% Student-t interval over seeds (stats/seed_interval.h).
//
// For each step that every BIRTH.json has:
// - the profile's shape: log10_middle_to_ends, log10_dead_zone_depth, the argmin per seed, the
//   attention entropy ratio and the no-fit prediction's median |log10 error|;
// - the profile: the log10 share of each position (unit sum) per position;
// - where every seed logged one, the gradient reaching the input embeddings (at the training
//   length L): log10 of its mean
//   over the middle positions (the middle fifth, 0.4L < j <= 0.6L) and of position L, each over
//   position 1, and the median |log10 error| of the column-sum, root-sum-square and flat
//   predictions.
// - the U by its parts (theory/profile_shares.h): each seed's primacy, middle, recency and
//   query share of its mean profile, with the interval over seeds, and the U test;
// "change": the same statistics' paired differences between the last and the first step (for
// the gradient, the last and first steps with one): has the middle deepened; for the
// shares, the change of each region's log10 share.
// From the evals: bits per byte with both baselines, and the loss per position.
//
// JSON: seeds_record.h's TextSeedsRecord, with the files not checked to be of one configuration
// (when any); CSV one row per step; figures STEM_shape, STEM_profiles, STEM_shares,
// STEM_gradient and (with evals) STEM_loss.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "experiments/hops/hop_compare.h"
#include "experiments/hops/hop_seeds.h"
#include "experiments/retrieval/kv_seeds.h"
#include "experiments/seeds/seeds_flags.h"
#include "posbias/core/plot.h"
#include "posbias/runfiles/seed_runs.h"
#include "posbias/stats/seed_interval_record.h"
#include "posbias/theory/influence_method.h"
#include "posbias/theory/profile_shares.h"

namespace posbias {

// The text experiment's seeds: its birth --run results, and optionally its eval --run ones.
struct SeedsOptions {
  std::vector<std::string> birth;  // birth --run results, one per training seed, >= 2
  std::vector<std::string> eval;   // eval --run results (optional; then one per seed)
  std::string json, csv, plot;     // json empty = stdout
};

// One command, four modes, each with its own options: a text experiment (SeedsOptions), hop
// runs (HopSeedsOptions), kv or passkey eval results (KvSeedsOptions), hop configurations side
// by side (HopCompareOptions).
using SeedsMode = std::variant<SeedsOptions, HopSeedsOptions, KvSeedsOptions, HopCompareOptions>;

// The mode the flags ask for: --compare alone; eval files alone that are kv or passkey results
// (read to tell); no birth files: hop runs; else the text experiment. Throws
// std::invalid_argument for flags of two modes.
SeedsMode seeds_mode(const SeedsFlags& flags);

// One step of one training seed's birth --run result, as read.
struct TrainingSeedCheckpoint {
  std::int64_t step = 0;
  std::vector<double> profile;
  double log10_middle_to_ends = 0, log10_dead_zone_depth = 0;
  std::int64_t argmin = 0;
  double entropy_ratio = 0, nofit_error = 0;  // NaN when the file has none
  std::vector<double> gradient;               // empty when the step logged none
  double column_sum_error = 0, root_sum_square_error = 0, flat_error = 0;  // NaN: none
};

struct TrainingSeed {
  std::string file;
  InfluenceTarget target = InfluenceTarget::kHidden;
  std::int64_t length = 0, query = 0;               // of the measurement (birth --run --length)
  std::vector<TrainingSeedCheckpoint> checkpoints;  // strictly increasing steps
  // The positions of the logged gradients: the run's training length, which the measurement's
  // length need not be (0 when no step logged one).
  std::size_t gradient_length = 0;
  RunConfig run;  // the run it measured ("run")
};

// One birth --run result's text, checked field by field (std::runtime_error naming the source
// and the field).
TrainingSeed parse_training_seed(const std::string& text, const std::string& source);

struct SeedsCheckpoint {
  std::int64_t step = 0;
  SeedStatistic middle_to_ends, dead_zone_depth, entropy_ratio, nofit_error;
  std::vector<std::int64_t> argmin;
  std::vector<SeedInterval> log10_share;  // per position
  SharesOverSeeds shares;                 // the U by its parts, over training seeds
  bool has_gradient = false;
  SeedStatistic gradient_middle_to_first, gradient_last_to_first;
  SeedStatistic column_sum_error, root_sum_square_error, flat_error;
};

struct SeedsHeldout {
  SeedStatistic bits_per_byte, unigram_bits_per_byte, bigram_bits_per_byte;
  SeedStatistic loss_first, loss_middle, loss_last;  // position 0, the middle fifth, the last
  std::vector<SeedInterval> loss_per_position;
};

struct SeedsResult {
  std::vector<TrainingSeed> seeds;
  std::vector<SeedsCheckpoint> checkpoints;  // the steps every seed has
  // Last minus first step, per seed.
  SeedStatistic change_middle_to_ends, change_dead_zone_depth;
  std::optional<std::pair<std::int64_t, std::int64_t>> gradient_steps;  // first, last
  SeedStatistic change_gradient_middle_to_first;
  std::optional<SeedsHeldout> heldout;
  // Files whose run's configuration is nowhere to be read, so not checked to be seeds of one
  // configuration (require_one_configuration), and the first of them.
  std::size_t unchecked = 0;
  std::string unchecked_file;
};

SeedsResult summarize_seeds(const SeedsOptions& options);
nlohmann::json to_json(const SeedsResult& result);
std::string seeds_csv(const SeedsResult& result);
void render_seeds_figures(const SeedsResult& result, const std::string& stem);
// The text summary's files.
void run_text_seeds(const SeedsOptions& options);
// The mode's summary: run_text_seeds, run_hop_seeds, run_kv_seeds or run_hop_comparison.
void run_seeds(const SeedsMode& mode);

}  // namespace posbias
