#include "posbias/stats/paired_verdict.h"

namespace posbias {

std::string paired_verdict(const SeedInterval& change) {
  if (change.low > 0) return "helps";
  if (change.high < 0) return "hurts";
  return "no effect";  // the interval holds 0, or there is none (NaN)
}

}  // namespace posbias
