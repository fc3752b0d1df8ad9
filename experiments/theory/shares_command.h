// `posbias theory shares RUN.json ...`: the U by its parts (theory/profile_shares.h) of stored
// `posbias birth` results, from their per-seed profiles, with nothing measured again. For each
// file: the shares of primacy, middle, recency and query over its seeds and the U test, as
// `birth` itself writes them for new results.
//
// JSON {"runs": [{"file", "label", "length", "seeds", "shares", "u_test"}, ...]}.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "posbias/theory/profile_shares.h"

namespace posbias {

struct SharesOptions {
  std::vector<std::string> runs;  // birth JSON files, one or more
  std::string json;               // empty: stdout
};

struct SharesRun {
  std::string file, label;  // label: the file's stem
  SharesOverSeeds shares;   // over the file's profile_seeds (its profile when it has none)
};

// Reads and checks each file (one line naming the file and the field for a bad one).
std::vector<SharesRun> shares_of_runs(const SharesOptions& options);
nlohmann::json to_json(const std::vector<SharesRun>& runs);
void run_shares(const SharesOptions& options);

}  // namespace posbias
