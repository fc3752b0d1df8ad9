#include "posbias/mech/exponent_json.h"

#include "posbias/core/json_number.h"

namespace posbias {

nlohmann::json exponent_json(const PowerLawFit& fit, double from) {
  return {{"value", number_or_null(fit.exponent)},
          {"ci", {number_or_null(fit.low), number_or_null(fit.high)}},
          {"from", from},
          {"points", fit.points}};
}

}  // namespace posbias
