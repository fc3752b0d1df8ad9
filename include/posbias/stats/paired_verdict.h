// The verdict of docs/mitigations.md on a paired change over seeds whose larger values mean less
// bias: "helps" (its 95% interval above 0), "hurts" (below 0) or "no effect" (it holds 0, or has
// no interval). `theory shares --baseline` and the mitigations section judge by it.
#pragma once

#include <string>

#include "posbias/stats/seed_interval.h"

namespace posbias {

std::string paired_verdict(const SeedInterval& change);

}  // namespace posbias
