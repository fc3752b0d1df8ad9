// The U by its parts (theory/profile_shares.h) as a result file holds it: "shares" (the regions'
// positions and each region's share, with "unavailable" for a region the profile is too short
// for), "u_test" (the verdict and its two differences) and a paired change between two steps,
// one field table each, shared by the writers (birth, birth --run, answer influence, theory
// shares, seeds) and the readers (birth --run's record, read by `seeds`). The tables in
// shares_record.cc are the layout; a region's key is its name (to_string(ShareRegion)), and a
// statistic is a SeedStatistic (stats/seed_interval_record.h).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/stats/seed_interval_record.h"
#include "posbias/theory/profile_shares.h"

namespace posbias {

// A statistic per region, in kShareRegions order; none for a region the profile lacks.
using RegionStatistics = std::array<std::optional<SeedStatistic>, kShareRegions.size()>;

struct SharesRecord {
  std::map<std::string, std::vector<std::int64_t>> regions;  // region → [first, last] positions
  RegionStatistics share;                                    // each region's share
  std::optional<std::map<std::string, std::string>> unavailable;  // region → why it is absent
};

struct UTestRecord {
  std::string verdict, basis, reason, rule;
  std::optional<SeedStatistic> middle_vs_primacy, middle_vs_recency;
};

struct ShareChangeRecord {
  std::string scale;
  RegionStatistics change;  // log10(later share / earlier share) per seed
  std::optional<std::int64_t> from_step, to_step;
};

// A profile's "shares" and "u_test" side by side, as every result of one profile holds them
// (flat among its own fields: member_fields); absent in files of builds before them.
struct ProfileSharesRecord {
  std::optional<SharesRecord> shares;
  std::optional<UTestRecord> u_test;
};

const std::vector<FieldRow<SharesRecord>>& shares_record_fields();
const std::vector<FieldRow<UTestRecord>>& u_test_record_fields();
const std::vector<FieldRow<ShareChangeRecord>>& share_change_record_fields();
template <>
struct FieldCodec<SharesRecord> : TableCodec<SharesRecord, &shares_record_fields> {};
template <>
struct FieldCodec<UTestRecord> : TableCodec<UTestRecord, &u_test_record_fields> {};
template <>
struct FieldCodec<ShareChangeRecord> : TableCodec<ShareChangeRecord, &share_change_record_fields> {
};
const std::vector<FieldRow<ProfileSharesRecord>>& profile_shares_record_fields();

SharesRecord shares_record(const SharesOverSeeds& shares);
// Moves the regions of a file whose positions sit `shift` above position_base.h's base down by it.
void rebase_regions(SharesRecord& record, std::int64_t shift);
UTestRecord u_test_record(const UTest& test);
// Both of one profile's shares over seeds.
ProfileSharesRecord profile_shares_record(const SharesOverSeeds& shares);
// The paired change from `first` to `last` (the same seeds; share_change), without the steps.
ShareChangeRecord share_change_record(const SharesOverSeeds& first, const SharesOverSeeds& last);

nlohmann::json to_json(const SharesRecord& record);
nlohmann::json to_json(const UTestRecord& record);
nlohmann::json to_json(const ShareChangeRecord& record);

}  // namespace posbias
