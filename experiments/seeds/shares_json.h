// The U by its parts (theory/profile_shares.h) as JSON, the one spelling every command writes:
//   "shares": {"regions": {"primacy": [first, last], ...}, "primacy": {"mean", "low", "high",
//              "n", "values"}, "middle": ..., "recency": ..., "query": ...,
//              "unavailable": {"middle": "why"} (only for a profile too short for a region)}
//   "u_test": {"verdict", "basis", "reason", "scale", "middle_vs_primacy": {...},
//              "middle_vs_recency": {...}}
//   a paired change: {"scale", "primacy": {...}, ...}, log10(share at the later step / earlier)
// Each {...} is a statistic over seeds: every seed's value and the mean with its 95% Student-t
// interval (null where there is none, e.g. one seed).
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "posbias/core/plot.h"
#include "posbias/theory/profile_shares.h"

namespace posbias {

nlohmann::json to_json(const SeedValues& values);
nlohmann::json shares_json(const SharesOverSeeds& shares);
nlohmann::json u_test_json(const UTest& test);
nlohmann::json share_change_json(const SharesOverSeeds& first, const SharesOverSeeds& last);
// Sets j["shares"] and j["u_test"] of one profile result.
void add_shares_json(nlohmann::json& j, const SharesOverSeeds& shares);
// "primacy 0.098 [0.096, 0.100], middle ..., recency ..., query ...": one line of text for
// reports and logs (absent regions left out).
std::string shares_text(const SharesOverSeeds& shares);
// "no U (middle vs primacy −0.781 [−0.793, −0.770], middle vs recency 0.069 [0.057, 0.081];
// 95% Student-t interval over 3 seeds)".
std::string u_test_text(const UTest& test);
// Each region's share against step (shares[i] at steps[i]), as a whole and per position (the U
// test's scale), with the 95% t band over `over` ("3 training seeds", "8 held-out sequences"):
// one colour per region, legends beside the panels.
Figure shares_figure(const std::vector<std::int64_t>& steps,
                     const std::vector<SharesOverSeeds>& shares, const std::string& over);

}  // namespace posbias
