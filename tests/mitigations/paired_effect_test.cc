// The docs' verdict rule on a paired effect (experiments/mitigations/paired_effect.h): the
// interval against hand-computed t intervals, the verdict on each side for both directions of
// "less bias", no verdict below 3 seeds or with an unlearned baseline (both reasons kept), and
// the cell's text for none, one and several seeds; the record summary.json holds, written as the
// section always wrote it and read back to the same bytes.
#include "experiments/mitigations/paired_effect.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace {

using namespace posbias;

TEST(PairedEffect, IntervalIsTheStudentTIntervalOverSeeds) {
  // mean 0.2, sd 0.1, n 3: half-width t(0.975, 2) · 0.1 / √3 = 4.302653 · 0.057735 = 0.248414.
  const PairedEffect e = paired_effect({0.1, 0.2, 0.3}, LessBias::kLarger);
  EXPECT_NEAR(e.interval.mean, 0.2, 1e-15);
  EXPECT_NEAR(e.interval.low, 0.2 - 0.2484138, 1e-6);
  EXPECT_NEAR(e.interval.high, 0.2 + 0.2484138, 1e-6);
  EXPECT_EQ(e.interval.n, 3);
  EXPECT_EQ(e.verdict, "no effect");  // the interval holds 0
}

TEST(PairedEffect, VerdictReadsTheSideOfLessBias) {
  const std::vector<double> up = {0.30, 0.31, 0.32, 0.33}, down = {-0.30, -0.31, -0.32, -0.33};
  EXPECT_EQ(paired_effect(up, LessBias::kLarger).verdict, "helps");
  EXPECT_EQ(paired_effect(down, LessBias::kLarger).verdict, "hurts");
  EXPECT_EQ(paired_effect(up, LessBias::kSmaller).verdict, "hurts");
  EXPECT_EQ(paired_effect(down, LessBias::kSmaller).verdict, "helps");
  EXPECT_EQ(paired_effect({-0.1, 0.1, 0.05}, LessBias::kSmaller).verdict, "no effect");
}

TEST(PairedEffect, NoVerdictBelowThreeSeedsOrWhenTheBaselineDidNotLearn) {
  const PairedEffect two = paired_effect({0.3, 0.31}, LessBias::kLarger);
  EXPECT_EQ(two.verdict, "");
  EXPECT_EQ(two.no_verdict, "no verdict: 2 seeds (the rule needs 3)");
  const PairedEffect unlearned =
      paired_effect({0.3, 0.31, 0.32}, LessBias::kLarger, "the baseline did not learn kv");
  EXPECT_EQ(unlearned.verdict, "");
  EXPECT_EQ(unlearned.no_verdict, "no verdict: the baseline did not learn kv");
  const PairedEffect both = paired_effect({0.3}, LessBias::kLarger, "the baseline did not learn");
  EXPECT_EQ(both.no_verdict, "no verdict: 1 seed (the rule needs 3), the baseline did not learn");
  const PairedEffect reported = paired_effect({0.3, 0.31, 0.32}, LessBias::kLarger, "", false);
  EXPECT_EQ(reported.verdict, "");
  EXPECT_EQ(reported.no_verdict, "");
  // A seed without a value (NaN) is not counted.
  EXPECT_EQ(paired_effect({0.3, NAN, 0.32}, LessBias::kLarger).interval.n, 2);
}

TEST(PairedEffect, CellSaysOneSeedAndGivesTheIntervalFromTwo) {
  EXPECT_EQ(effect_cell(paired_effect({}, LessBias::kLarger)), "not measured");
  EXPECT_EQ(effect_cell(paired_effect({0.25}, LessBias::kLarger)), "+0.250 (one seed)");
  EXPECT_EQ(effect_cell(paired_effect({0.30, 0.32, 0.34, 0.36}, LessBias::kLarger), 2),
            "+0.33 [+0.29, +0.37], helps");
  EXPECT_EQ(effect_cell(paired_effect({0.30, 0.31, 0.32}, LessBias::kLarger, "", false)),
            "+0.310 [+0.285, +0.335] (reported, not judged)");
  EXPECT_EQ(effect_cell(paired_effect({0.1, 0.2}, LessBias::kLarger)),
            "+0.150 [-0.485, +0.785], no verdict: 2 seeds (the rule needs 3)");
}

TEST(PairedEffect, RecordIsTheSummarysLayoutAndReadsBackToTheSameBytes) {
  // A seed without a value, and an interval one seed cannot give, are null, as the section's
  // summary.json has always held them.
  const PairedEffect one = paired_effect({0.25, NAN}, LessBias::kSmaller);
  EXPECT_EQ(to_json(one).dump(),
            R"j({"high":null,"judged":true,"less_bias":"smaller","low":null,"mean":0.25,"n":1,)j"
            R"j("no_verdict":"no verdict: 1 seed (the rule needs 3)","per_seed":[0.25,null],)j"
            R"j("verdict":""})j");
  for (const PairedEffect& e :
       {one, paired_effect({0.30, 0.31, 0.32, 0.33}, LessBias::kLarger),
        paired_effect({0.3, 0.1}, LessBias::kLarger, "", /*judged=*/false)}) {
    const nlohmann::json j = to_json(e);
    const PairedEffect back = fields_from_json(paired_effect_fields(), j, PairedEffect{}, "effect");
    EXPECT_EQ(to_json(back).dump(), j.dump());
    EXPECT_EQ(back.less_bias, e.less_bias);
  }
  nlohmann::json bad = to_json(one);
  bad["less_bias"] = "lower";
  try {
    fields_from_json(paired_effect_fields(), bad, PairedEffect{}, "effect");
    ADD_FAILURE() << "an unknown less_bias was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("less_bias"), std::string::npos) << e.what();
  }
}

}  // namespace
