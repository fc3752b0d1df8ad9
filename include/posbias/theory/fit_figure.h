// A fit of the theory (fit.h) drawn against the profile it was fitted to: the measured profile
// (with the seeds' range as a band when there are several) and the fitted theory, log10
// influence against key position. `posbias theory fit --plot` and `posbias birth --plot` draw it.
#pragma once

#include <string>

#include "posbias/core/plot.h"
#include "posbias/theory/fit.h"

namespace posbias {

Figure fit_figure(const MeasuredProfile& profile, const FitResult& result,
                  const std::string& title);

}  // namespace posbias
