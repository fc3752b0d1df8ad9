// `posbias seeds BIRTH.json...`'s summary of one text experiment over its training seeds
// (SeedsResult, seeds_command.h) as the file holds it: one field table per part, for the writer
// (run_text_seeds) and a strict reader. A statistic is stats/seed_interval_record.h's; a profile's
// shares and U test are shares_record.h's; what each field means is seeds_command.h's.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/seeds/seeds_command.h"
#include "posbias/core/field_table.h"
#include "posbias/core/position_base.h"
#include "posbias/stats/seed_interval_record.h"
#include "posbias/theory/shares_record.h"

namespace posbias {

// An interval per position: the means, and the bounds (null where there is none).
struct IntervalRowsRecord {
  std::vector<double> mean, low, high;
};

// The gradient predictions' median |log10 error|, over seeds.
struct SeedsGradientErrorsRecord {
  SeedStatistic column_sum, root_sum_square, flat;
};

struct SeedsGradientRecord {
  SeedStatistic log10_middle_to_first, log10_last_to_first;
  SeedsGradientErrorsRecord median_abs_log10_error;
};

struct SeedsCheckpointRecord {
  std::int64_t step = 0;
  SeedStatistic log10_middle_to_ends, log10_dead_zone_depth;
  std::vector<std::int64_t> argmin;  // per seed
  SeedStatistic attention_entropy_ratio, nofit_median_abs_log10_error;
  IntervalRowsRecord log10_share;
  ProfileSharesRecord profile_shares;  // flat: "shares" and "u_test"
  std::optional<SeedsGradientRecord> gradient;
};

struct SeedsGradientChangeRecord {
  std::int64_t from_step = 0, to_step = 0;
  SeedStatistic log10_middle_to_first;
};

// Last step minus first, per seed.
struct SeedsChangeRecord {
  std::int64_t from_step = 0, to_step = 0;
  SeedStatistic log10_middle_to_ends, log10_dead_zone_depth;
  ShareChangeRecord shares;
  std::optional<SeedsGradientChangeRecord> gradient;
};

struct SeedsHeldoutRecord {
  SeedStatistic bits_per_byte, unigram_bits_per_byte, bigram_bits_per_byte;
  SeedStatistic loss_first, loss_middle, loss_last;
  IntervalRowsRecord loss_per_position;
};

struct TextSeedsRecord {
  std::int64_t position_base = kPositionBase;
  std::vector<std::string> files;
  std::int64_t seeds = 0;
  InfluenceTarget target = InfluenceTarget::kHidden;
  std::int64_t length = 0, query = 0;
  std::string interval;
  std::vector<SeedsCheckpointRecord> checkpoints;
  SeedsChangeRecord change;
  std::optional<SeedsHeldoutRecord> heldout;
  std::optional<std::int64_t> unchecked_configurations;
};
const std::vector<FieldRow<TextSeedsRecord>>& text_seeds_record_fields();

TextSeedsRecord text_seeds_record(const SeedsResult& result);
nlohmann::json to_json(const TextSeedsRecord& record);
// Strict: an unknown or mistyped field, or missing checkpoints, throws std::invalid_argument
// naming it ("seeds field 'checkpoints.0.log10_share.low.3'"). A 1-based file's positions are
// moved to 0-based (position_base.h).
TextSeedsRecord text_seeds_record_from_json(const nlohmann::json& j);

}  // namespace posbias
