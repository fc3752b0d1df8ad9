// paired_verdict (stats/paired_verdict.h): the side of 0 the 95% interval lies on, "no effect"
// when it holds 0 or there is none.
#include "posbias/stats/paired_verdict.h"

#include <gtest/gtest.h>

#include <cmath>

namespace posbias {
namespace {

TEST(PairedVerdict, ReadsTheIntervalsSide) {
  EXPECT_EQ(paired_verdict({0.2, 0.1, 0.3, 3}), "helps");
  EXPECT_EQ(paired_verdict({-0.2, -0.3, -0.1, 3}), "hurts");
  EXPECT_EQ(paired_verdict({0.1, -0.1, 0.3, 3}), "no effect");
  EXPECT_EQ(paired_verdict({0.1, NAN, NAN, 1}), "no effect");
}

}  // namespace
}  // namespace posbias
