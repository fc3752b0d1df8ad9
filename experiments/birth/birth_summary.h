// What `birth` prints on a terminal instead of its result JSON (core/json_result.h): the model,
// the measured profile at a few positions, and the shares of primacy, middle, recency and query
// (the fit and the U test are on stderr already).
#pragma once

#include <string>

#include "experiments/birth/birth_record.h"

namespace posbias {

// Lines ending in \n, from birth's result (`record`, the model its config); a part the result
// lacks (no-fit prediction, shares) is left out.
std::string birth_summary(const BirthRecord& record);

}  // namespace posbias
