// `posbias theory shares`'s result (SharesResult, shares_command.h) as the file holds it: one
// field table for the writer (run_shares) and a strict reader. Each run's shares and U test are
// shares_record.h's, flat among its own fields; with --baseline, the paired change and the middle
// fifth's verdict. Files of builds before one position base lack "position_base" (their regions
// are 1-based) and are moved to it on read (position_base.h).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/core/position_base.h"
#include "posbias/theory/shares_record.h"

namespace posbias {

struct TheorySharesRunRecord {
  std::string file, label;  // label: the file's stem
  std::int64_t length = 0, seeds = 0;
  ProfileSharesRecord profile_shares;  // flat: "shares" and "u_test"
  std::optional<ShareChangeRecord> change_from_baseline;
  std::optional<std::string> middle_verdict;  // helps | no effect | hurts
  // With --baseline: each region's log10 change in the no-fit predictions (nofit.profile), and
  // where the middle's falls against the measured interval.
  std::optional<std::map<std::string, double>> nofit_change_from_baseline;
  std::optional<std::string> nofit_middle_agreement;
};

struct TheorySharesRecord {
  std::int64_t position_base = kPositionBase;
  std::optional<std::string> baseline;  // --baseline's file
  std::vector<TheorySharesRunRecord> runs;
};
const std::vector<FieldRow<TheorySharesRecord>>& theory_shares_record_fields();

nlohmann::json to_json(const TheorySharesRecord& record);
// Strict: an unknown or mistyped field, or missing runs, throws std::invalid_argument naming it
// ("shares field 'runs.0.shares.middle.mean'").
TheorySharesRecord theory_shares_record_from_json(const nlohmann::json& j);

}  // namespace posbias
