// The U by its parts (theory/profile_shares.h) in a report and a figure (its JSON blocks are
// shares_record.h's): a line of text for the shares and for the U test, and the shares against
// the training step.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "posbias/core/plot.h"
#include "posbias/theory/profile_shares.h"

namespace posbias {

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
