// What `birth` prints on a terminal instead of its result JSON (core/json_result.h): the model,
// the measured profile at a few positions, and the shares of primacy, middle, recency and query
// (the fit and the U test are on stderr already).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace posbias {

// Lines ending in \n, from birth's result JSON; a part the JSON lacks is left out.
std::string birth_summary(const nlohmann::json& result);

}  // namespace posbias
