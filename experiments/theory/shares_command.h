// `posbias theory shares RUN.json ...`: the U by its parts (theory/profile_shares.h) of stored
// `posbias birth` results, from their per-seed profiles, with nothing measured again. For each
// file: the shares of primacy, middle, recency and query over its seeds and the U test, as
// `birth` itself writes them for new results.
//
// --baseline BASE.json pairs every run with a baseline by seed (seed s of a run against seed s of
// the baseline: the same weights wherever a remedy draws nothing): each region's change
// log10(run's share / baseline's share) per seed with its 95% Student-t interval, and the
// verdict on the middle fifth's share (docs/mitigations.md): "helps" when the interval lies
// above 0, "hurts" when below, "no effect" when it holds 0. Beside it, the change the no-fit
// predictions make (each file's nofit.profile, the theory with that run's measured α̂ and its
// operator, nothing fitted): log10(run's predicted share / baseline's), one number per region,
// and whether the measured interval holds it.
//
// The JSON is theory_shares_record.h's.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/theory/theory_shares_record.h"
#include "posbias/theory/profile_shares.h"

namespace posbias {

struct SharesOptions {
  std::vector<std::string> runs;  // birth JSON files, one or more
  std::string baseline;           // a birth JSON file the runs are paired with; empty: none
  std::string json;               // empty: stdout
};

struct SharesRun {
  std::string file, label;  // label: the file's stem
  SharesOverSeeds shares;   // over the file's profile_seeds (its profile when it has none)
  ProfileShares predicted;  // of its no-fit prediction (nofit.profile)
};

struct SharesResult {
  std::vector<SharesRun> runs;
  std::optional<SharesRun> baseline;  // --baseline's
};

// Reads and checks each file (one line naming the file and the field for a bad one); a baseline
// must have the runs' length and seed count.
SharesResult shares_of_runs(const SharesOptions& options);
TheorySharesRecord theory_shares_record(const SharesResult& result);
nlohmann::json to_json(const SharesResult& result);
void run_shares(const SharesOptions& options);

}  // namespace posbias
