// A two-sided confidence interval [low, high]: what the Wilson score interval, the seed
// bootstrap's percentiles and the other interval estimators return.
#pragma once

namespace posbias {

struct Interval {
  double low = 0, high = 0;  // NaN where an estimator had nothing to work on (it says which)
};

}  // namespace posbias
