// A fitted length exponent as JSON, the one shape every mech result uses:
// {"value", "ci": [lo, hi], "from", "points"}, null where the fit has no number.
#pragma once

#include <nlohmann/json.hpp>

#include "posbias/stats/power_law_fit.h"

namespace posbias {

nlohmann::json exponent_json(const PowerLawFit& fit, double from);

}  // namespace posbias
